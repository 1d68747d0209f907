//! One write per answer: a connection's writes held until its task's next turn.
//!
//! HTTP/2 (the `h2` crate) sends a large DATA frame from the message's own buffer and
//! must write it out before it takes the next frame, so a gRPC answer went out in two
//! writes: the headers and the message, then the trailers (a 10-byte frame). Each write
//! is a TCP segment, with its ACK and a wake-up of the peer. On a 100-player request the
//! writes were a tenth of the server's CPU (`perf`, issue 37).
//!
//! [`CoalescedWrites`] copies what is written into its buffer. The first `poll_flush`
//! after new bytes yields once (it wakes its task and returns `Pending`); the connection's
//! task then goes on with the frames it had queued behind (the trailers), and the next
//! `poll_flush` writes everything in one system call. A flush thus goes out at most one
//! turn of the task later, never on a timer, and a connection with a long answer writes
//! as soon as [`HOLD_AT_MOST`] bytes are held.
use std::io::{self, IoSlice};
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The most bytes held: a write beyond it first writes out what is held.
pub const HOLD_AT_MOST: usize = 64 * 1024;

/// The buffer kept between answers (an idle connection holds no more than this); a
/// larger one, after a long answer, is given back.
const KEEP_AT_MOST: usize = 16 * 1024;

/// An I/O stream whose writes are held until a flush, and whose flush waits one turn.
pub struct CoalescedWrites<T> {
    inner: T,
    held: Vec<u8>,
    /// Bytes of `held` already written to `inner`.
    written: usize,
    /// The first flush since bytes were held has yielded.
    yielded: bool,
}

impl<T> CoalescedWrites<T> {
    pub fn new(inner: T) -> CoalescedWrites<T> {
        CoalescedWrites {
            inner,
            held: Vec::new(),
            written: 0,
            yielded: false,
        }
    }

    pub fn get_ref(&self) -> &T {
        &self.inner
    }
}

impl<T: AsyncWrite + Unpin> CoalescedWrites<T> {
    /// Writes out what is held; `Ready` once nothing is.
    fn poll_write_held(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.held.len() {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &self.held[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        if self.held.capacity() > KEEP_AT_MOST {
            self.held = Vec::new();
        } else {
            self.held.clear();
        }
        self.written = 0;
        self.yielded = false;
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for CoalescedWrites<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for CoalescedWrites<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.poll_write_vectored(cx, &[IoSlice::new(buf)])
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.held.len() >= HOLD_AT_MOST {
            ready!(this.poll_write_held(cx))?;
        }
        let total: usize = bufs.iter().map(|b| b.len()).sum();
        let room = HOLD_AT_MOST - this.held.len();
        // Room for the frames that usually follow (the trailers) without growing again.
        this.held.reserve(total.min(room) + 256);
        let mut taken = 0;
        for buf in bufs {
            let take = buf.len().min(room - taken);
            this.held.extend_from_slice(&buf[..take]);
            taken += take;
            if taken == room {
                break;
            }
        }
        Poll::Ready(Ok(taken))
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.written < this.held.len() {
            if !this.yielded {
                this.yielded = true;
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            ready!(this.poll_write_held(cx))?;
        }
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        ready!(this.poll_write_held(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

impl<T: tonic::transport::server::Connected> tonic::transport::server::Connected
    for CoalescedWrites<T>
{
    type ConnectInfo = T::ConnectInfo;

    fn connect_info(&self) -> Self::ConnectInfo {
        self.inner.connect_info()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::task::{Wake, Waker};

    /// A stream that records each write; it takes at most `per_write` bytes a call, and
    /// answers `Pending` to the first `refuse` calls.
    #[derive(Default)]
    struct Recorder {
        writes: Vec<Vec<u8>>,
        per_write: Option<usize>,
        refuse: usize,
        flushed: usize,
        shut: bool,
    }

    impl AsyncWrite for Recorder {
        fn poll_write(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<io::Result<usize>> {
            if self.refuse > 0 {
                self.refuse -= 1;
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            let n = buf.len().min(self.per_write.unwrap_or(usize::MAX));
            self.writes.push(buf[..n].to_vec());
            Poll::Ready(Ok(n))
        }
        fn poll_flush(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            self.flushed += 1;
            Poll::Ready(Ok(()))
        }
        fn poll_shutdown(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            self.shut = true;
            Poll::Ready(Ok(()))
        }
    }

    #[derive(Default)]
    struct Wakes(AtomicUsize);

    impl Wake for Wakes {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
        fn wake_by_ref(self: &Arc<Self>) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn write(s: &mut CoalescedWrites<Recorder>, cx: &mut Context<'_>, bytes: &[u8]) -> usize {
        match Pin::new(s).poll_write(cx, bytes) {
            Poll::Ready(Ok(n)) => n,
            other => panic!("write: {other:?}"),
        }
    }

    fn flush(s: &mut CoalescedWrites<Recorder>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(s).poll_flush(cx)
    }

    #[test]
    fn an_answer_and_its_trailers_go_out_in_one_write_after_one_turn() {
        let wakes = Arc::new(Wakes::default());
        let waker = Waker::from(wakes.clone());
        let mut cx = Context::from_waker(&waker);
        let mut s = CoalescedWrites::new(Recorder::default());
        assert_eq!(write(&mut s, &mut cx, b"headers and message"), 19);
        // The first flush yields and wakes its task: nothing is written yet.
        assert!(flush(&mut s, &mut cx).is_pending());
        assert_eq!(wakes.0.load(Ordering::Relaxed), 1);
        assert!(s.get_ref().writes.is_empty());
        // Its next turn queues the trailers and flushes: one write of both.
        assert_eq!(write(&mut s, &mut cx, b"+trailers"), 9);
        assert!(matches!(flush(&mut s, &mut cx), Poll::Ready(Ok(()))));
        assert_eq!(
            s.get_ref().writes,
            vec![b"headers and message+trailers".to_vec()]
        );
        assert_eq!(s.get_ref().flushed, 1);
        // With nothing held, a flush goes straight through, without yielding.
        assert!(matches!(flush(&mut s, &mut cx), Poll::Ready(Ok(()))));
        assert_eq!(wakes.0.load(Ordering::Relaxed), 1);
        assert_eq!(s.get_ref().flushed, 2);
    }

    #[test]
    fn a_long_answer_is_written_as_it_comes_beyond_the_limit_and_in_pieces() {
        let wakes = Arc::new(Wakes::default());
        let waker = Waker::from(wakes.clone());
        let mut cx = Context::from_waker(&waker);
        let recorder = Recorder {
            per_write: Some(10_000),
            refuse: 1,
            ..Recorder::default()
        };
        let mut s = CoalescedWrites::new(recorder);
        let long: Vec<u8> = (0..HOLD_AT_MOST + 5_000).map(|i| (i % 251) as u8).collect();
        // Held up to the limit; the rest is taken after what is held is written.
        let first = write(&mut s, &mut cx, &long);
        assert_eq!(first, HOLD_AT_MOST);
        // The stream refuses once (Pending, its task woken), then takes 10,000 bytes a call.
        assert!(
            Pin::new(&mut s)
                .poll_write(&mut cx, &long[first..])
                .is_pending()
        );
        let second = write(&mut s, &mut cx, &long[first..]);
        assert_eq!(second, 5_000);
        assert!(flush(&mut s, &mut cx).is_pending());
        assert!(matches!(flush(&mut s, &mut cx), Poll::Ready(Ok(()))));
        let out: Vec<u8> = s.get_ref().writes.concat();
        assert_eq!(out, long);
        assert!(s.get_ref().writes.iter().all(|w| w.len() <= 10_000));
        // The long answer's buffer was given back; what is kept is the last piece's.
        assert!(s.held.capacity() <= KEEP_AT_MOST);
    }

    #[test]
    fn shutting_down_writes_what_is_held_first() {
        let waker = Waker::noop();
        let mut cx = Context::from_waker(waker);
        let mut s = CoalescedWrites::new(Recorder::default());
        write(&mut s, &mut cx, b"goaway");
        assert!(matches!(
            Pin::new(&mut s).poll_shutdown(&mut cx),
            Poll::Ready(Ok(()))
        ));
        assert_eq!(s.get_ref().writes, vec![b"goaway".to_vec()]);
        assert!(s.get_ref().shut);
    }
}
