//! The Prometheus endpoint (`serve --metrics-listen`, off by default) and the helpers the
//! RPC skeleton (`rpc.rs`: every RPC, `AuditStream`'s reports included) and the admission
//! call to record what they do.
//!
//! Metrics (all prefixed `swisspair_`):
//! * `requests_total{rpc,system,code}`: answered requests, by gRPC code (a request whose
//!   client went away or whose deadline passed before its answer counts as `CANCELLED` or
//!   `DEADLINE_EXCEEDED`); each report of an `AuditStream` counts as one request;
//! * `request_duration_seconds{rpc,system,code}`: histogram of the time in the handler
//!   (queue + pairing + conversion);
//! * `request_players{rpc,system}`: histogram of the players per answered request;
//! * `pairings_in_flight` and `pairings_queued`: gauges (workers busy, requests waiting);
//! * `cancellations_total{rpc,reason}`: requests stopped by their client, their deadline
//!   or a shutdown (`CANCELLED`, `DEADLINE_EXCEEDED`).
//!
//! And, unprefixed as Prometheus' process collectors name it, `process_cpu_seconds_total`:
//! the CPU time (user + system) the server process has used, read at each scrape. Its
//! change over a load divided by the change of `requests_total` is the server's CPU per
//! request (`swisspair loadtest --metrics` prints it).
//!
//! The `metrics` macros are no-ops until a recorder is installed, so a server without
//! `--metrics-listen` (and every in-process test) records nothing and pays next to nothing.
use std::net::SocketAddr;
use std::sync::OnceLock;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpListener;
use tonic::Code;

/// Latency buckets, in seconds: a 100-player round pairs in about a millisecond, a
/// 10,000-player one in seconds.
const DURATION_BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0,
    300.0,
];
const PLAYER_BUCKETS: &[f64] = &[
    2.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0, 4096.0, 10_000.0, 100_000.0,
];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the process-wide recorder (once: a second server in the same process shares it).
fn handle() -> Result<&'static PrometheusHandle, String> {
    if let Some(h) = HANDLE.get() {
        return Ok(h);
    }
    let builder = PrometheusBuilder::new()
        .set_buckets_for_metric(
            Matcher::Full("swisspair_request_duration_seconds".into()),
            DURATION_BUCKETS,
        )
        .and_then(|b| {
            b.set_buckets_for_metric(
                Matcher::Full("swisspair_request_players".into()),
                PLAYER_BUCKETS,
            )
        })
        .map_err(|e| format!("metrics buckets: {e}"))?;
    let handle = builder
        .install_recorder()
        .map_err(|e| format!("metrics recorder: {e}"))?;
    describe();
    Ok(HANDLE.get_or_init(|| handle))
}

fn describe() {
    metrics::describe_counter!(
        "swisspair_requests_total",
        "Answered requests by RPC, pairing system and gRPC code"
    );
    metrics::describe_histogram!(
        "swisspair_request_duration_seconds",
        metrics::Unit::Seconds,
        "Time in the handler (queue, pairing, conversion) by RPC, system and code"
    );
    metrics::describe_histogram!(
        "swisspair_request_players",
        "Players in the snapshot of each answered request"
    );
    metrics::describe_gauge!("swisspair_pairings_in_flight", "Pairings being computed");
    metrics::describe_gauge!("swisspair_pairings_queued", "Requests waiting for a worker");
    metrics::describe_counter!(
        "swisspair_cancellations_total",
        "Requests stopped by their client, their deadline or a shutdown"
    );
}

/// Binds the endpoint, installs the recorder and serves `GET /metrics` (any path answers
/// the same text) until the process ends. Returns the bound address (port 0 picks one).
pub async fn serve(listen: SocketAddr) -> Result<SocketAddr, String> {
    let handle = handle()?;
    let listener = TcpListener::bind(listen)
        .await
        .map_err(|e| format!("cannot listen on {listen} (--metrics-listen): {e}"))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("--metrics-listen: {e}"))?;
    tokio::spawn(async move {
        loop {
            let Ok((mut stream, _)) = listener.accept().await else {
                continue;
            };
            tokio::spawn(async move {
                // One request per connection: read the head (at most 8 KiB), answer, close.
                let mut buf = vec![0u8; 8192];
                let mut len = 0;
                while len < buf.len() {
                    match tokio::time::timeout(
                        std::time::Duration::from_secs(5),
                        stream.read(&mut buf[len..]),
                    )
                    .await
                    {
                        Ok(Ok(n)) if n > 0 => {
                            len += n;
                            if buf[..len].windows(4).any(|w| w == b"\r\n\r\n") {
                                break;
                            }
                        }
                        _ => return,
                    }
                }
                let mut body = handle.render();
                if let Some(cpu) = process_cpu_seconds() {
                    body.push_str(&format!(
                        "# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.\n# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total {cpu:.6}\n"
                    ));
                }
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes()).await;
                let _ = stream.write_all(body.as_bytes()).await;
                let _ = stream.shutdown().await;
            });
        }
    });
    Ok(addr)
}

/// The CPU time (user + system) this process has used, in seconds.
#[cfg(unix)]
fn process_cpu_seconds() -> Option<f64> {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes a `rusage` into the pointer it is given, which points to
    // memory of that type owned here; it is read only when the call succeeds.
    let usage = unsafe {
        if libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) != 0 {
            return None;
        }
        usage.assume_init()
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Some(seconds(usage.ru_utime) + seconds(usage.ru_stime))
}

#[cfg(not(unix))]
fn process_cpu_seconds() -> Option<f64> {
    None
}

/// Records one answered request (`requests_total`, `request_duration_seconds`,
/// `request_players`, `cancellations_total`): `system` is the system that paired (`""` when
/// unknown, e.g. a refused request), `players` the snapshot's size when known. Called by
/// the one skeleton every RPC runs through (`service/rpc.rs`).
pub fn record(
    rpc: &'static str,
    code: Code,
    system: &'static str,
    players: Option<usize>,
    elapsed: std::time::Duration,
) {
    // Every label is a static text: the recorder's keys borrow them instead of copying
    // three strings per call (a small request is thousands of calls a second).
    let system = if system.is_empty() { "UNKNOWN" } else { system };
    let code_name = code_name(code);
    let labels = [("rpc", rpc), ("system", system), ("code", code_name)];
    metrics::counter!("swisspair_requests_total", &labels).increment(1);
    metrics::histogram!("swisspair_request_duration_seconds", &labels)
        .record(elapsed.as_secs_f64());
    if let Some(n) = players {
        metrics::histogram!(
            "swisspair_request_players",
            "rpc" => rpc,
            "system" => system
        )
        .record(n as f64);
    }
    if matches!(code, Code::Cancelled | Code::DeadlineExceeded) {
        metrics::counter!(
            "swisspair_cancellations_total",
            "rpc" => rpc,
            "reason" => code_name
        )
        .increment(1);
    }
}

/// The system a `PairRequest` names: its override, else its snapshot's (a TRF snapshot
/// names its system inside the text: `""` until paired).
pub fn pair_request_system(req: &crate::proto::PairRequest) -> &'static str {
    let id = match (&req.system, &req.input) {
        (s, _) if *s != 0 => *s,
        (_, Some(crate::proto::pair_request::Input::Tournament(t))) => t.system,
        _ => 0,
    };
    system_name(id)
}

/// The proto name of a `PairingSystem` value (`""` for unspecified or unknown).
pub fn system_name(id: i32) -> &'static str {
    match crate::proto::PairingSystem::try_from(id) {
        Ok(crate::proto::PairingSystem::Unspecified) | Err(_) => "",
        // The label is the system's short name (`DUTCH`), with or without the enum's
        // `PAIRING_SYSTEM_` prefix in the proto.
        Ok(s) => s.as_str_name().trim_start_matches("PAIRING_SYSTEM_"),
    }
}

/// The canonical upper-case name of a gRPC code (as in the gRPC status code list).
pub fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}

/// Counts one unit in a gauge while alive (`pairings_queued`, `pairings_in_flight`).
pub struct GaugeGuard(&'static str);

impl GaugeGuard {
    pub fn queued() -> GaugeGuard {
        GaugeGuard::enter("swisspair_pairings_queued")
    }

    pub fn in_flight() -> GaugeGuard {
        GaugeGuard::enter("swisspair_pairings_in_flight")
    }

    fn enter(name: &'static str) -> GaugeGuard {
        metrics::gauge!(name).increment(1.0);
        GaugeGuard(name)
    }
}

impl Drop for GaugeGuard {
    fn drop(&mut self) {
        metrics::gauge!(self.0).decrement(1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_names_are_the_canonical_ones() {
        assert_eq!(code_name(Code::Ok), "OK");
        assert_eq!(code_name(Code::Unauthenticated), "UNAUTHENTICATED");
        assert_eq!(code_name(Code::DeadlineExceeded), "DEADLINE_EXCEEDED");
    }
}
