//! Cancellation of a pairing in progress: a cheap cloneable flag with an optional deadline.
//!
//! A pairing of a huge field can run for minutes. The server must be able to stop it when
//! its client goes away, when the client's gRPC deadline passes, at the server's own limit,
//! or at the end of a shutdown's grace period, and get the worker back within a fraction of
//! a second.
//!
//! # How the engines see the token
//! The engines do not take a token as a parameter: [`run`] installs it as the *current*
//! token of the thread that runs the pairing (a thread-local), and the engines' loops call
//! [`checkpoint`] (the Dutch bracket loop, the matching searches of `crate::matching`, the
//! search loops of the other systems). This keeps every system's signature unchanged, and
//! code that runs without [`run`] (the CLI, tests, benches) pays one thread-local read per
//! checkpoint and is never interrupted.
//!
//! A checkpoint that finds the token cancelled leaves the pairing by unwinding with a
//! private payload ([`std::panic::resume_unwind`], which runs no panic hook and prints
//! nothing); [`run`] catches exactly that payload and answers [`Interrupted`]. The matching
//! code's loops return no `Result`, and threading one through every search would change
//! the signatures of code that is shared with the benches and written for speed; the
//! unwinding drops only data owned by the interrupted pairing. Any other panic is passed
//! on unchanged. (This relies on `panic = "unwind"`, Rust's default and this crate's
//! profile.)
use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Instant;

/// Why a pairing was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Interrupted {
    /// The client went away, or the server is shutting down.
    #[error("the pairing was cancelled")]
    Cancelled,
    /// The request's deadline (the client's, or the server's limit) passed.
    #[error("the pairing did not finish before its deadline")]
    DeadlineExceeded,
}

const RUNNING: u8 = 0;
const CANCELLED: u8 = 1;
const DEADLINE: u8 = 2;

#[derive(Debug)]
struct Inner {
    state: AtomicU8,
    deadline: Option<Instant>,
}

/// A cancellation flag shared by the party that may cancel and the pairing that polls it.
#[derive(Clone, Debug)]
pub struct CancelToken(Arc<Inner>);

impl Default for CancelToken {
    fn default() -> CancelToken {
        CancelToken::new(None)
    }
}

impl CancelToken {
    /// A token that is cancelled by [`CancelToken::cancel`] or when `deadline` passes.
    pub fn new(deadline: Option<Instant>) -> CancelToken {
        CancelToken(Arc::new(Inner {
            state: AtomicU8::new(RUNNING),
            deadline,
        }))
    }

    /// Stops the pairing (the first reason given wins).
    pub fn cancel(&self, why: Interrupted) {
        let code = match why {
            Interrupted::Cancelled => CANCELLED,
            Interrupted::DeadlineExceeded => DEADLINE,
        };
        let _ = self
            .0
            .state
            .compare_exchange(RUNNING, code, Ordering::AcqRel, Ordering::Acquire);
    }

    /// Why the pairing must stop, if it must.
    pub fn state(&self) -> Option<Interrupted> {
        match self.0.state.load(Ordering::Acquire) {
            CANCELLED => Some(Interrupted::Cancelled),
            DEADLINE => Some(Interrupted::DeadlineExceeded),
            _ => match self.0.deadline {
                Some(d) if Instant::now() >= d => {
                    self.cancel(Interrupted::DeadlineExceeded);
                    self.state()
                }
                _ => None,
            },
        }
    }

    /// Why the pairing must stop if [`CancelToken::cancel`] was called (or a passed
    /// deadline was already seen), without reading the clock.
    fn signalled(&self) -> Option<Interrupted> {
        match self.0.state.load(Ordering::Acquire) {
            CANCELLED => Some(Interrupted::Cancelled),
            DEADLINE => Some(Interrupted::DeadlineExceeded),
            _ => None,
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.state().is_some()
    }

    pub fn deadline(&self) -> Option<Instant> {
        self.0.deadline
    }
}

thread_local! {
    static CURRENT: RefCell<Option<CancelToken>> = const { RefCell::new(None) };
    /// Checkpoints left before the next one reads the clock (see [`checkpoint`]).
    static UNTIL_CLOCK: Cell<u32> = const { Cell::new(0) };
}

/// A checkpoint reads the clock once in this many calls (a cancellation is seen at every
/// one): the engines call it in their inner loops, where a clock read per call was a few
/// per cent of a small request; a few hundred iterations are well under a millisecond.
const CHECKPOINTS_PER_CLOCK_READ: u32 = 256;

/// The unwinding payload of an interrupted pairing (private: only [`run`] catches it).
struct Unwind(Interrupted);

/// Runs `work` with `token` as this thread's current token; `Err` when a [`checkpoint`]
/// found it cancelled (or it was cancelled before the work started).
pub fn run<T>(token: &CancelToken, work: impl FnOnce() -> T) -> Result<T, Interrupted> {
    if let Some(why) = token.state() {
        return Err(why);
    }
    let previous = CURRENT.with(|c| c.replace(Some(token.clone())));
    // The first checkpoint of every run reads the clock.
    UNTIL_CLOCK.with(|n| n.set(0));
    let out = catch_unwind(AssertUnwindSafe(work));
    CURRENT.with(|c| *c.borrow_mut() = previous);
    match out {
        Ok(v) => Ok(v),
        Err(payload) => match payload.downcast::<Unwind>() {
            Ok(u) => Err(u.0),
            Err(other) => resume_unwind(other),
        },
    }
}

/// Why the current pairing must stop, if it must (`None` outside [`run`]).
pub fn current_state() -> Option<Interrupted> {
    CURRENT.with(|c| c.borrow().as_ref().and_then(CancelToken::state))
}

/// Called in the engines' loops: leaves the pairing when the current token is cancelled
/// (seen at once) or its deadline has passed (seen within [`CHECKPOINTS_PER_CLOCK_READ`]
/// calls). Outside [`run`] it does nothing.
#[inline]
pub fn checkpoint() {
    let read_clock = UNTIL_CLOCK.with(|n| {
        let left = n.get();
        if left == 0 {
            n.set(CHECKPOINTS_PER_CLOCK_READ - 1);
            true
        } else {
            n.set(left - 1);
            false
        }
    });
    let why = CURRENT.with(|c| {
        let token = c.borrow();
        let token = token.as_ref()?;
        if read_clock {
            token.state()
        } else {
            token.signalled()
        }
    });
    if let Some(why) = why {
        resume_unwind(Box::new(Unwind(why)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn checkpoint_without_token_does_nothing() {
        checkpoint();
        assert_eq!(current_state(), None);
    }

    #[test]
    fn cancelled_token_stops_the_loop() {
        let token = CancelToken::default();
        let t2 = token.clone();
        let mut turns = 0u64;
        let out = run(&token, || {
            loop {
                turns += 1;
                if turns == 1000 {
                    t2.cancel(Interrupted::Cancelled);
                }
                checkpoint();
            }
        });
        assert_eq!(out, Err::<(), _>(Interrupted::Cancelled));
        assert_eq!(turns, 1000);
        // The thread's token is removed again.
        assert_eq!(current_state(), None);
    }

    #[test]
    fn deadline_stops_the_loop() {
        let token = CancelToken::new(Some(Instant::now() + Duration::from_millis(20)));
        let out = run(&token, || {
            loop {
                checkpoint();
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        assert_eq!(out, Err::<(), _>(Interrupted::DeadlineExceeded));
        // The first reason wins.
        token.cancel(Interrupted::Cancelled);
        assert_eq!(token.state(), Some(Interrupted::DeadlineExceeded));
    }

    #[test]
    fn a_passed_deadline_is_seen_within_one_clock_period() {
        let token = CancelToken::new(Some(Instant::now() + Duration::from_millis(50)));
        let mut turns = 0u32;
        let out = run(&token, || {
            loop {
                turns += 1;
                if turns == 10 {
                    std::thread::sleep(Duration::from_millis(60));
                }
                checkpoint();
            }
        });
        assert_eq!(out, Err::<(), _>(Interrupted::DeadlineExceeded));
        // Passed by turn 10 at the latest (a loaded machine may pass it sooner); seen
        // within one clock period after.
        assert!(
            (1..=10 + CHECKPOINTS_PER_CLOCK_READ).contains(&turns),
            "{turns}"
        );
    }

    #[test]
    fn finished_work_returns_its_value() {
        let token = CancelToken::default();
        assert_eq!(run(&token, || 7), Ok(7));
    }

    #[test]
    fn other_panics_pass_through() {
        let token = CancelToken::default();
        let caught = catch_unwind(|| run(&token, || -> u8 { resume_unwind(Box::new(3u8)) }));
        assert!(caught.is_err());
    }
}
