//! Where `swisspair serve` writes its log: records are gathered in memory and one thread
//! writes them to stderr, at most [`WINDOW`] after the first of them, so a busy server makes
//! one `write` for many records instead of one per call (every call logs a line, and the
//! `write`, with the reader it wakes when stderr is a pipe, was a few per cent of a small
//! request's CPU).
//!
//! Nothing is dropped: a record waits at most [`WINDOW`]; past [`HELD_AT_MOST`] bytes the
//! writing thread writes them itself; when the sink's [`Flusher`] is dropped (the command's
//! end, an error included) what is held is written and later records go straight to stderr.
//! Only a killed process loses the last window's records.
use std::io::{self, Write};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use tracing_subscriber::fmt::MakeWriter;

/// Longest a record is held before it is written.
pub const WINDOW: Duration = Duration::from_millis(10);
/// Past this many bytes held, the thread adding a record writes them all itself.
pub const HELD_AT_MOST: usize = 1 << 20;
/// A buffer grown past this by a burst is given back once written.
const KEPT_CAPACITY: usize = 64 * 1024;

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
}

struct State {
    pending: Vec<u8>,
    /// The flusher is gone or going: records are written at once.
    closing: bool,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The log's writer (a `MakeWriter` for `tracing_subscriber::fmt`).
#[derive(Clone)]
pub struct BatchedStderr {
    shared: Arc<Shared>,
}

/// Owns the writing thread; dropping it writes what is held and stops the thread.
pub struct Flusher {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

/// The sink and its flusher; without a thread (none could be started) every record is
/// written at once, as `std::io::stderr` would.
pub fn start() -> (BatchedStderr, Flusher) {
    start_into(io::stderr())
}

/// [`start`] with the flusher writing to `out` (stderr; a test's buffer).
fn start_into(mut out: impl Write + Send + 'static) -> (BatchedStderr, Flusher) {
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            pending: Vec::new(),
            closing: false,
        }),
        wake: Condvar::new(),
    });
    let worker = Arc::clone(&shared);
    let thread = std::thread::Builder::new()
        .name("log".into())
        .spawn(move || flush_loop(&worker, &mut out))
        .ok();
    if thread.is_none() {
        shared.lock().closing = true;
    }
    (
        BatchedStderr {
            shared: Arc::clone(&shared),
        },
        Flusher { shared, thread },
    )
}

/// Waits for a first record, lets the window gather more, writes them in one go.
fn flush_loop(shared: &Shared, out: &mut impl Write) {
    let mut batch = Vec::new();
    loop {
        let mut state = shared.lock();
        while state.pending.is_empty() && !state.closing {
            state = shared
                .wake
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if state.closing {
            // Written under the lock: a record added from now on is written after these.
            let _ = out.write_all(&state.pending);
            let _ = out.flush();
            state.pending.clear();
            return;
        }
        drop(state);
        std::thread::sleep(WINDOW);
        std::mem::swap(&mut shared.lock().pending, &mut batch);
        let _ = out.write_all(&batch);
        let _ = out.flush();
        batch.clear();
        if batch.capacity() > KEPT_CAPACITY {
            batch = Vec::new();
        }
    }
}

impl Drop for Flusher {
    fn drop(&mut self) {
        self.shared.lock().closing = true;
        self.shared.wake.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        // A thread that ended without its final write (it cannot, short of a panic)
        // leaves the records here.
        let mut state = self.shared.lock();
        if !state.pending.is_empty() {
            let _ = io::stderr().write_all(&state.pending);
            state.pending.clear();
        }
    }
}

/// One record's writer: `tracing_subscriber::fmt` formats a record first and writes it
/// with one `write_all`, so a record is never interleaved with another.
pub struct Record<'a> {
    shared: &'a Shared,
}

impl<'a> MakeWriter<'a> for BatchedStderr {
    type Writer = Record<'a>;

    fn make_writer(&'a self) -> Record<'a> {
        Record {
            shared: &self.shared,
        }
    }
}

impl Write for Record<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut state = self.shared.lock();
        if state.closing {
            let mut err = io::stderr().lock();
            err.write_all(bytes)?;
            return Ok(bytes.len());
        }
        let first = state.pending.is_empty();
        state.pending.extend_from_slice(bytes);
        if state.pending.len() > HELD_AT_MOST {
            // A burst the window cannot hold: written here, in order, under the lock.
            let result = io::stderr().lock().write_all(&state.pending);
            state.pending.clear();
            state.pending.shrink_to(KEPT_CAPACITY);
            result?;
        } else if first {
            // The flusher sleeps until a first record; later ones find it gathering.
            drop(state);
            self.shared.wake.notify_one();
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer the test can read back, counting the writes it receives.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<(Vec<u8>, usize)>>);

    impl Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            let mut c = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            c.0.extend_from_slice(bytes);
            c.1 += 1;
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn sink_into(captured: &Captured) -> (BatchedStderr, Flusher) {
        start_into(captured.clone())
    }

    fn record(sink: &BatchedStderr, text: &str) {
        sink.make_writer()
            .write_all(text.as_bytes())
            .expect("a record is accepted");
    }

    #[test]
    fn records_from_several_threads_are_written_whole_in_few_writes() {
        let captured = Captured::default();
        let (sink, flusher) = sink_into(&captured);
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let sink = sink.clone();
                std::thread::spawn(move || {
                    for i in 0..500 {
                        record(&sink, &format!("thread {t} record {i}\n"));
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().expect("writer thread");
        }
        drop(flusher);
        let (bytes, writes) = captured.0.lock().expect("captured").clone();
        let text = String::from_utf8(bytes).expect("UTF-8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2000);
        for t in 0..4 {
            // Each thread's records whole and in its order.
            let own: Vec<&str> = lines
                .iter()
                .copied()
                .filter(|l| l.starts_with(&format!("thread {t} ")))
                .collect();
            let expected: Vec<String> =
                (0..500).map(|i| format!("thread {t} record {i}")).collect();
            assert_eq!(own, expected);
        }
        assert!(writes < 2000, "{writes} writes for 2,000 records");
    }

    #[test]
    fn a_lone_record_is_written_within_the_window_and_held_ones_at_the_end() {
        let captured = Captured::default();
        let (sink, flusher) = sink_into(&captured);
        record(&sink, "first\n");
        let mut waited = Duration::ZERO;
        while captured.0.lock().expect("captured").0.is_empty() && waited < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(1));
            waited += Duration::from_millis(1);
        }
        assert_eq!(captured.0.lock().expect("captured").0, b"first\n");
        record(&sink, "second\n");
        drop(flusher);
        assert_eq!(captured.0.lock().expect("captured").0, b"first\nsecond\n");
        // After the flusher: written at once (to stderr), never held.
        record(&sink, "");
        assert!(sink.shared.lock().pending.is_empty());
    }
}
