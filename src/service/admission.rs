//! Admission of pairing work: a fixed number of workers, a bounded wait queue, a deadline
//! per request, cancellation when the client goes away, and cancellation of what is left at
//! the end of a shutdown's grace period.
//!
//! * At most `workers` pairings run at once (on the blocking pool) and at most `max_queued`
//!   more wait; a request beyond that is refused at once with `RESOURCE_EXHAUSTED`, so that
//!   a client (or its load balancer) can go elsewhere instead of waiting without bound.
//! * Each request gets a deadline: the client's `grpc-timeout`, capped by the server's
//!   `max_pairing` (`--max-pairing-seconds`). Waiting in the queue counts against it.
//! * The handler's future owns a guard whose drop cancels the pairing's token: when the
//!   client cancels or its deadline passes, tonic drops the future, and the engines stop
//!   at their next [`crate::cancel::checkpoint`].
//! * [`Admission::cancel_all`] stops every pairing running or waiting (end of the grace
//!   period of a shutdown).
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;
use tonic::Status;
use tonic::metadata::MetadataMap;

use crate::cancel::{self, CancelToken, Interrupted};

/// Limits of the admission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdmissionLimits {
    /// Pairings computed at once.
    pub workers: usize,
    /// Requests that may wait for a worker; more are refused with `RESOURCE_EXHAUSTED`.
    pub max_queued: usize,
    /// Longest a request may take (queue + pairing), whatever the client's deadline.
    pub max_pairing: Duration,
}

impl Default for AdmissionLimits {
    fn default() -> AdmissionLimits {
        AdmissionLimits {
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            max_queued: 64,
            max_pairing: Duration::from_secs(300),
        }
    }
}

#[derive(Debug)]
struct Inner {
    limits: AdmissionLimits,
    workers: Arc<Semaphore>,
    /// Workers + queue places: held from admission until the work has stopped.
    places: Arc<Semaphore>,
    in_flight: Mutex<HashMap<u64, CancelToken>>,
    next_id: AtomicU64,
}

/// The admission of one server (cheap to clone).
#[derive(Clone, Debug)]
pub struct Admission(Arc<Inner>);

/// How long a request's work is expected to take, from the size of its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkSize {
    /// At most [`WorkSize::SMALL_PLAYERS`] players: well under a millisecond of pairing,
    /// run on the runtime's own thread.
    Small,
    /// Anything else (or unknown): run on the blocking pool.
    Large,
}

impl WorkSize {
    /// The largest snapshot run inline: a 100-player Dutch round costs about 0.3 ms; a
    /// 500-player one 10 ms, which would hold a runtime thread too long.
    pub const SMALL_PLAYERS: usize = 128;

    pub fn of_players(players: usize) -> WorkSize {
        if players <= WorkSize::SMALL_PLAYERS {
            WorkSize::Small
        } else {
            WorkSize::Large
        }
    }
}

/// Cancels the request's token when the handler's future is dropped (the client went
/// away) or done, and forgets it.
struct Guard {
    admission: Admission,
    id: u64,
    token: CancelToken,
}

impl Drop for Guard {
    fn drop(&mut self) {
        // After a normal end the token is no longer polled; cancelling it is harmless.
        self.token.cancel(Interrupted::Cancelled);
        if let Ok(mut map) = self.admission.0.in_flight.lock() {
            map.remove(&self.id);
        }
    }
}

impl Admission {
    pub fn new(limits: AdmissionLimits) -> Admission {
        let workers = limits.workers.max(1);
        let limits = AdmissionLimits { workers, ..limits };
        Admission(Arc::new(Inner {
            limits,
            workers: Arc::new(Semaphore::new(workers)),
            places: Arc::new(Semaphore::new(workers.saturating_add(limits.max_queued))),
            in_flight: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(0),
        }))
    }

    pub fn limits(&self) -> AdmissionLimits {
        self.0.limits
    }

    /// Runs CPU-bound `work` on the blocking pool once a worker is free, with a
    /// cancellation token installed (see [`crate::cancel`]); `timeout` is the client's.
    pub async fn run<T: Send + 'static>(
        &self,
        timeout: Option<Duration>,
        size: WorkSize,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Status> {
        let limits = self.0.limits;
        let place = self.0.places.clone().try_acquire_owned().map_err(|_| {
            Status::resource_exhausted(format!(
                "the server is busy: {} pairings running and {} waiting (--max-queued); retry later or elsewhere",
                limits.workers, limits.max_queued
            ))
        })?;
        let budget = timeout.map_or(limits.max_pairing, |t| t.min(limits.max_pairing));
        let server_limit = timeout.is_none_or(|t| t >= limits.max_pairing);
        let deadline = Instant::now() + budget;
        let token = CancelToken::new(Some(deadline));
        let id = self.0.next_id.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut map) = self.0.in_flight.lock() {
            map.insert(id, token.clone());
        }
        let _guard = Guard {
            admission: self.clone(),
            id,
            token: token.clone(),
        };
        let queued = super::metrics::GaugeGuard::queued();
        let permit = match tokio::time::timeout_at(
            tokio::time::Instant::from_std(deadline),
            self.0.workers.clone().acquire_owned(),
        )
        .await
        {
            Ok(Ok(p)) => p,
            Ok(Err(_)) => return Err(Status::unavailable("the server is shutting down")),
            Err(_) => {
                return Err(interrupted_status(
                    Interrupted::DeadlineExceeded,
                    budget,
                    server_limit,
                ));
            }
        };
        drop(queued);
        let out = if matches!(size, WorkSize::Small) {
            // A small request runs on the runtime's thread: a few hundred microseconds,
            // where a hand-over to the blocking pool and back (two thread wake-ups) was a
            // tenth of its cost. The worker permit, the deadline and the token are the same.
            let _running = super::metrics::GaugeGuard::in_flight();
            let out = cancel::run(&token, work);
            drop(permit);
            drop(place);
            out
        } else {
            let worker_token = token.clone();
            tokio::task::spawn_blocking(move || {
                let _running = super::metrics::GaugeGuard::in_flight();
                let out = cancel::run(&worker_token, work);
                drop(permit);
                drop(place);
                out
            })
            .await
            .map_err(|e| Status::internal(format!("pairing task failed: {e}")))?
        };
        out.map_err(|why| interrupted_status(why, budget, server_limit))
    }

    /// Stops every pairing running or waiting: they answer `CANCELLED`.
    pub fn cancel_all(&self) -> usize {
        match self.0.in_flight.lock() {
            Ok(map) => {
                for t in map.values() {
                    t.cancel(Interrupted::Cancelled);
                }
                map.len()
            }
            Err(_) => 0,
        }
    }

    /// Requests admitted and not finished.
    pub fn in_flight(&self) -> usize {
        self.0.in_flight.lock().map_or(0, |m| m.len())
    }
}

fn interrupted_status(why: Interrupted, budget: Duration, server_limit: bool) -> Status {
    match why {
        Interrupted::Cancelled => Status::cancelled(
            "the pairing was cancelled: the client went away or the server is shutting down",
        ),
        Interrupted::DeadlineExceeded if server_limit => Status::deadline_exceeded(format!(
            "the pairing did not finish within this server's limit of {} s (--max-pairing-seconds)",
            budget.as_secs_f64()
        )),
        Interrupted::DeadlineExceeded => Status::deadline_exceeded(format!(
            "the pairing did not finish within the request's deadline ({} s)",
            budget.as_secs_f64()
        )),
    }
}

/// The client's deadline, from the `grpc-timeout` header (gRPC over HTTP/2: 1-8 digits and
/// a unit `H M S m u n`); `None` when absent or malformed (then the server's limit applies).
pub fn grpc_timeout(metadata: &MetadataMap) -> Option<Duration> {
    let text = metadata.get("grpc-timeout")?.to_str().ok()?;
    let split = text.len().checked_sub(1)?;
    let (digits, unit) = text.split_at(split);
    if digits.is_empty() || digits.len() > 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(n.saturating_mul(3600)),
        "M" => Duration::from_secs(n.saturating_mul(60)),
        "S" => Duration::from_secs(n),
        "m" => Duration::from_millis(n),
        "u" => Duration::from_micros(n),
        "n" => Duration::from_nanos(n),
        _ => return None,
    })
}

/// The client's deadline and the message of a request.
pub fn split<T>(request: tonic::Request<T>) -> (Option<Duration>, T) {
    (grpc_timeout(request.metadata()), request.into_inner())
}

/// The `serve` command's admission and shutdown flags, checked, into `config`.
pub fn apply_cli(
    config: &mut super::ServerConfig,
    max_queued: usize,
    max_pairing_seconds: f64,
    drain_seconds: f64,
    grace_seconds: f64,
) -> Result<(), String> {
    let seconds = |flag: &str, v: f64, min: f64| {
        if v.is_finite() && v >= min && v <= 86_400.0 {
            Ok(Duration::from_secs_f64(v))
        } else {
            Err(format!(
                "--{flag} {v}: expected a number of seconds from {min} to 86400"
            ))
        }
    };
    config.max_queued = max_queued;
    config.max_pairing = seconds("max-pairing-seconds", max_pairing_seconds, 0.001)?;
    config.drain = seconds("drain-seconds", drain_seconds, 0.0)?;
    config.grace = seconds("grace-seconds", grace_seconds, 0.0)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn md(v: &str) -> MetadataMap {
        let mut m = MetadataMap::new();
        if let Ok(v) = v.parse() {
            m.insert("grpc-timeout", v);
        }
        m
    }

    #[test]
    fn parses_grpc_timeout() {
        assert_eq!(grpc_timeout(&md("5S")), Some(Duration::from_secs(5)));
        assert_eq!(grpc_timeout(&md("250m")), Some(Duration::from_millis(250)));
        assert_eq!(grpc_timeout(&md("2H")), Some(Duration::from_secs(7200)));
        assert_eq!(grpc_timeout(&md("999999999S")), None);
        assert_eq!(grpc_timeout(&md("S")), None);
        assert_eq!(grpc_timeout(&md("5x")), None);
        assert_eq!(grpc_timeout(&MetadataMap::new()), None);
    }

    #[tokio::test]
    async fn full_queue_is_refused_at_once() {
        let a = Admission::new(AdmissionLimits {
            workers: 1,
            max_queued: 1,
            max_pairing: Duration::from_secs(30),
        });
        let spin = || {
            loop {
                cancel::checkpoint();
                std::thread::sleep(Duration::from_millis(1));
            }
        };
        let a1 = a.clone();
        let running = tokio::spawn(async move { a1.run(None, WorkSize::Large, spin).await });
        let a2 = a.clone();
        let queued = tokio::spawn(async move { a2.run(None, WorkSize::Large, || 1).await });
        while a.in_flight() < 2 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let refused = a.run(None, WorkSize::Large, || 2).await;
        assert_eq!(
            refused.err().map(|s| s.code()),
            Some(tonic::Code::ResourceExhausted)
        );
        assert_eq!(a.cancel_all(), 2);
        let r = running.await.ok().and_then(|r| r.err()).map(|s| s.code());
        assert_eq!(r, Some(tonic::Code::Cancelled));
        let q = queued.await.ok().and_then(|r| r.err()).map(|s| s.code());
        assert_eq!(q, Some(tonic::Code::Cancelled));
        // Everything is free again.
        assert_eq!(a.run(None, WorkSize::Large, || 3).await.ok(), Some(3));
    }

    #[tokio::test]
    async fn deadline_stops_the_work() {
        let a = Admission::new(AdmissionLimits {
            workers: 1,
            max_queued: 0,
            max_pairing: Duration::from_millis(50),
        });
        let r = a
            .run(None, WorkSize::Large, || {
                loop {
                    cancel::checkpoint();
                    std::thread::sleep(Duration::from_millis(1));
                }
            })
            .await;
        let status = r.err();
        assert_eq!(
            status.as_ref().map(|s| s.code()),
            Some(tonic::Code::DeadlineExceeded)
        );
        assert!(status.is_some_and(|s| s.message().contains("--max-pairing-seconds")));
    }

    #[tokio::test]
    async fn small_work_runs_inline_under_the_same_deadline_and_permits() {
        let a = Admission::new(AdmissionLimits {
            workers: 1,
            max_queued: 0,
            max_pairing: Duration::from_millis(20),
        });
        let here = std::thread::current().id();
        let ran_on = a
            .run(None, WorkSize::Small, move || std::thread::current().id())
            .await;
        assert_eq!(
            ran_on.ok(),
            Some(here),
            "small work runs on the caller's thread"
        );
        let r = a
            .run(None, WorkSize::Small, || {
                loop {
                    cancel::checkpoint();
                }
            })
            .await;
        assert_eq!(
            r.err().map(|s| s.code()),
            Some(tonic::Code::DeadlineExceeded)
        );
        // The permit went back: the next request is admitted.
        assert_eq!(a.run(None, WorkSize::Small, || 3).await.ok(), Some(3));
        assert_eq!(WorkSize::of_players(100), WorkSize::Small);
        assert_eq!(WorkSize::of_players(500), WorkSize::Large);
    }

    #[tokio::test]
    async fn dropped_request_frees_the_worker() {
        let a = Admission::new(AdmissionLimits {
            workers: 1,
            max_queued: 0,
            max_pairing: Duration::from_secs(30),
        });
        let a1 = a.clone();
        let abandoned = tokio::spawn(async move {
            a1.run(None, WorkSize::Large, || {
                loop {
                    cancel::checkpoint();
                    std::thread::sleep(Duration::from_millis(1));
                }
            })
            .await
        });
        while a.in_flight() < 1 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        // The client goes away: tonic drops the handler's future.
        abandoned.abort();
        let _ = abandoned.await;
        let started = Instant::now();
        let mut answer = None;
        while answer.is_none() && started.elapsed() < Duration::from_secs(10) {
            answer = a.run(None, WorkSize::Large, || 5).await.ok();
            if answer.is_none() {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
        assert_eq!(answer, Some(5));
    }
}
