//! The one skeleton every `PairingService` call runs through: [`Service::unary`] for the
//! unary RPCs, [`Service::counted`] (its core) for each report of an `AuditStream`.
//!
//! In order: the client's deadline is read (`grpc-timeout`, which a Connect call's
//! `connect-timeout-ms` became); the work goes through the admission (a worker, the bounded
//! queue, the deadline, a cancellation token: [`super::admission`]; inline for a small
//! snapshot, on the blocking pool otherwise), unless the answer is a constant
//! ([`Plan::CONSTANT`]: `ListSystems`); a refusal becomes a `Status` by the one mapping of
//! [`super::errors`] (a handler's `?` converts `Problems`, `PairError` and `SimError`); the
//! call is counted ([`super::metrics::record`]: RPC, system, code, duration, players) and
//! logged, one event per call (`rpc`, `code`, `elapsed_ms`, and what the answer tells:
//! `system`, `players`, `round`, `boards`; the status message on a refusal). A call whose
//! future is dropped before its answer (the client went away, or tonic's own timer met the
//! client's deadline first) is counted and logged all the same, as `CANCELLED` or
//! `DEADLINE_EXCEEDED`.
//!
//! So a handler (`handlers.rs`) only converts the request, calls the core and converts the
//! answer; a test (`tests/production.rs`) calls every RPC of the proto's service and finds
//! each in the metrics.
use std::time::{Duration, Instant};

use tonic::{Code, Request, Response, Status};

use super::Service;
use super::admission::{self, WorkSize};
use super::convert::Limits;
use super::metrics;

/// What is known of a call before any work: its cost, for the admission, and what its
/// request tells ([`Facts`]: the system it names), kept for the metrics when it is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    cost: Cost,
    asked: Facts,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cost {
    /// Answered at once, without a worker: never refused as busy nor queued behind pairings.
    Constant,
    /// Through the admission, run inline or on the blocking pool by its size.
    Work(WorkSize),
}

impl Plan {
    /// Work of unknown size: through the admission, on the blocking pool.
    pub const LARGE: Plan = Plan {
        cost: Cost::Work(WorkSize::Large),
        asked: Facts::NONE,
    };

    /// A constant answer (`ListSystems`): no admission.
    pub const CONSTANT: Plan = Plan {
        cost: Cost::Constant,
        asked: Facts::NONE,
    };

    /// Work on a snapshot of `players` players ([`WorkSize::of_players`]: a small one runs
    /// inline).
    pub fn players(players: usize) -> Plan {
        Plan {
            cost: Cost::Work(WorkSize::of_players(players)),
            asked: Facts::NONE,
        }
    }

    /// The system the request names (its metric label, [`metrics::system_name`]).
    pub fn asking(self, system: &'static str) -> Plan {
        Plan {
            asked: Facts {
                system,
                ..self.asked
            },
            ..self
        }
    }
}

/// What a call tells the metrics and the log besides its code; each is left empty when the
/// RPC has no such thing or it is not known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    /// The pairing system's label ([`metrics::system_name`]), `""` when unknown.
    pub system: &'static str,
    /// The players of the snapshot (the `request_players` histogram).
    pub players: Option<usize>,
    /// The round paired.
    pub round: Option<u32>,
    /// The boards (or repechage pairs) of the answer.
    pub boards: Option<usize>,
}

impl Facts {
    /// Nothing known.
    pub const NONE: Facts = Facts {
        system: "",
        players: None,
        round: None,
        boards: None,
    };
}

/// A handler's answer: the response and what it tells ([`Facts`]).
#[derive(Debug)]
pub struct Answer<R> {
    pub response: R,
    pub facts: Facts,
}

impl<R> Answer<R> {
    /// A response that tells nothing more.
    pub fn new(response: R) -> Answer<R> {
        Answer::with(response, Facts::NONE)
    }

    pub fn with(response: R, facts: Facts) -> Answer<R> {
        Answer { response, facts }
    }
}

impl Service {
    /// Runs one unary RPC: `work` converts the request, calls the core and converts the
    /// answer; everything else (deadline, admission, error mapping, metrics, log) is here.
    pub(super) async fn unary<Req, Resp>(
        &self,
        rpc: &'static str,
        request: Request<Req>,
        plan: Plan,
        work: impl FnOnce(Req, &Limits) -> Result<Answer<Resp>, Status> + Send + 'static,
    ) -> Result<Response<Resp>, Status>
    where
        Req: Send + 'static,
        Resp: Send + 'static,
    {
        let (timeout, req) = admission::split(request);
        self.counted(rpc, timeout, plan, move |limits| work(req, limits))
            .await
            .map(|answer| Response::new(answer.response))
    }

    /// [`Service::unary`] once the request is read: what an `AuditStream` runs for each
    /// report (`timeout` is the client's deadline, `None`: the server's limit).
    pub(super) async fn counted<T: Send + 'static>(
        &self,
        rpc: &'static str,
        timeout: Option<Duration>,
        plan: Plan,
        work: impl FnOnce(&Limits) -> Result<Answer<T>, Status> + Send + 'static,
    ) -> Result<Answer<T>, Status> {
        let call = Call::start(rpc, timeout, plan.asked);
        let limits = self.limits;
        let result = match plan.cost {
            Cost::Constant => work(&limits),
            Cost::Work(size) => self
                .admission
                .run(timeout, size, move || work(&limits))
                .await
                .and_then(|r| r),
        };
        call.finish(&result);
        result
    }
}

/// How early before its deadline a dropped call still counts as `DEADLINE_EXCEEDED`.
const DEADLINE_SLACK: Duration = Duration::from_millis(50);

/// One call in progress: [`Call::finish`] counts and logs its outcome; dropped unfinished
/// (the call's future was dropped), it counts and logs the call as abandoned.
struct Call {
    rpc: &'static str,
    started: Instant,
    timeout: Option<Duration>,
    asked: Facts,
    finished: bool,
}

impl Call {
    fn start(rpc: &'static str, timeout: Option<Duration>, asked: Facts) -> Call {
        Call {
            rpc,
            started: Instant::now(),
            timeout,
            asked,
            finished: false,
        }
    }

    fn finish<T>(mut self, result: &Result<Answer<T>, Status>) {
        self.finished = true;
        match result {
            Ok(answer) => {
                let mut facts = answer.facts;
                if facts.system.is_empty() {
                    facts.system = self.asked.system;
                }
                self.record(Code::Ok, &facts, None);
            }
            Err(status) => self.record(status.code(), &self.asked, Some(status.message())),
        }
    }

    fn record(&self, code: Code, facts: &Facts, error: Option<&str>) {
        let elapsed = self.started.elapsed();
        metrics::record(self.rpc, code, facts.system, facts.players, elapsed);
        log(self.rpc, code, elapsed, facts, error);
    }
}

impl Drop for Call {
    fn drop(&mut self) {
        if self.finished {
            return;
        }
        // tonic's timer started before this call did (the message was decoded in between):
        // a drop within `DEADLINE_SLACK` of the deadline is the deadline's.
        let expired = self
            .timeout
            .is_some_and(|t| self.started.elapsed() + DEADLINE_SLACK >= t);
        let (code, why) = if expired {
            (
                Code::DeadlineExceeded,
                "the request's deadline passed before its answer",
            )
        } else {
            (Code::Cancelled, "the client went away before the answer")
        };
        self.record(code, &self.asked, Some(why));
    }
}

/// The call's one log event: `answered`, or `refused` with the status message (on one
/// line); at WARN for the server's own faults, INFO otherwise.
fn log(rpc: &'static str, code: Code, elapsed: Duration, facts: &Facts, error: Option<&str>) {
    let code_name = metrics::code_name(code);
    let elapsed_ms = elapsed.as_secs_f64() * 1000.0;
    let system = (!facts.system.is_empty()).then_some(facts.system);
    let (players, round, boards) = (facts.players, facts.round, facts.boards);
    match error {
        None => tracing::info!(
            rpc,
            code = code_name,
            elapsed_ms,
            system,
            players,
            round,
            boards,
            "answered"
        ),
        Some(message) => {
            let error = one_line(message);
            if matches!(code, Code::Internal | Code::Unknown | Code::DataLoss) {
                tracing::warn!(rpc, code = code_name, elapsed_ms, system, %error, "refused");
            } else {
                tracing::info!(rpc, code = code_name, elapsed_ms, system, %error, "refused");
            }
        }
    }
}

/// A message on one line, so that a log record stays one line (problems are listed one per
/// line in the status message).
fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_log_on_one_line() {
        assert_eq!(one_line("a\n  b\n\nc "), "a; b; c");
    }

    /// A call finished or dropped is counted: dropped after its deadline as
    /// `DEADLINE_EXCEEDED`, before it as `CANCELLED`; refused with the system it asked for.
    #[test]
    fn every_outcome_is_counted_dropped_calls_too() {
        let recorder = metrics_exporter_prometheus::PrometheusBuilder::new().build_recorder();
        let handle = recorder.handle();
        ::metrics::with_local_recorder(&recorder, || {
            drop(Call::start("Pair", Some(Duration::ZERO), Facts::NONE));
            drop(Call::start("Check", None, Facts::NONE));
            let call = Call::start(
                "Explain",
                None,
                Facts {
                    system: "DUTCH",
                    ..Facts::NONE
                },
            );
            call.finish::<()>(&Err(Status::invalid_argument("x\ny")));
            let call = Call::start("Audit", None, Facts::NONE);
            let facts = Facts {
                system: "DUBOV",
                players: Some(12),
                ..Facts::NONE
            };
            call.finish(&Ok(Answer::with((), facts)));
        });
        let text = handle.render();
        for (rpc, system, code) in [
            ("Pair", "UNKNOWN", "DEADLINE_EXCEEDED"),
            ("Check", "UNKNOWN", "CANCELLED"),
            ("Explain", "DUTCH", "INVALID_ARGUMENT"),
            ("Audit", "DUBOV", "OK"),
        ] {
            assert!(
                text.lines()
                    .any(|l| l.starts_with("swisspair_requests_total{")
                        && l.contains(&format!("rpc=\"{rpc}\""))
                        && l.contains(&format!("system=\"{system}\""))
                        && l.contains(&format!("code=\"{code}\""))),
                "{rpc} {code}:\n{text}"
            );
        }
        assert!(
            text.contains("swisspair_cancellations_total{rpc=\"Check\",reason=\"CANCELLED\"} 1"),
            "{text}"
        );
        assert!(
            text.contains("swisspair_request_players_sum{rpc=\"Audit\",system=\"DUBOV\"} 12"),
            "{text}"
        );
    }
}
