//! `swisspair loadtest`: N concurrent clients send one realistic snapshot (made by the
//! simulator, so every figure is reproducible from its seed) for a bounded time, then the
//! throughput, the latency percentiles and the errors are printed.
//!
//! `--retries` resends a call answered `UNAVAILABLE` or a proxy's 502/503/504 (a replica
//! killed or draining behind a load balancer): Pair is idempotent (a snapshot in, a pairing out, no state), so a retry
//! is always safe. The figures count a retried call once, with its total latency.
use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use swisspair::proto;
use swisspair::proto::pairing_service_client::PairingServiceClient;
use swisspair::service::sample;
use tonic::Code;
use tonic::transport::{Channel, Endpoint};

use super::CliError;
use super::args::runtime;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Scenario {
    /// FIDE Dutch, 100 players, round 5 to pair.
    Dutch100,
    /// FIDE Dutch, 500 players, round 7 to pair.
    Dutch500,
    /// A JaVaPairing system (Vega's Buchholz Swiss), 100 players, round 5 to pair.
    Javapairing,
    /// Backgammon (BG rules), 64 entries, round 4 to pair.
    Backgammon,
}

impl Scenario {
    fn sample(self) -> sample::Scenario {
        match self {
            Scenario::Dutch100 => sample::Scenario::Dutch100,
            Scenario::Dutch500 => sample::Scenario::Dutch500,
            Scenario::Javapairing => sample::Scenario::Buchholz100,
            Scenario::Backgammon => sample::Scenario::Backgammon64,
        }
    }
}

#[derive(Args)]
pub struct LoadtestArgs {
    /// Server (or load balancer) address: `host:port` or `http://host:port`.
    #[arg(long, default_value = "http://127.0.0.1:50051")]
    addr: String,
    /// Clients sending at once, each one call after the other.
    #[arg(long, default_value_t = 8)]
    concurrency: usize,
    /// HTTP/2 connections the clients share (default: min(concurrency, 8)).
    #[arg(long)]
    connections: Option<usize>,
    /// Length of the run, in seconds.
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// The snapshot sent.
    #[arg(long, value_enum, default_value = "dutch100")]
    scenario: Scenario,
    /// Seed of the simulated snapshot.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Resend a call answered UNAVAILABLE (or a proxy's HTTP 502/503/504) up to this many
    /// times.
    #[arg(long, default_value_t = 0)]
    retries: u32,
    /// Deadline of each call, in seconds.
    #[arg(long, default_value_t = 10.0)]
    timeout_seconds: f64,
    /// Bearer token sent as `authorization: Bearer <token>`.
    #[arg(long)]
    token: Option<String>,
    /// The server's metrics endpoint (`serve --metrics-listen`), `host:port`: read before
    /// and after the run, it gives the server's own CPU per request (its
    /// `process_cpu_seconds_total` over its `swisspair_requests_total`).
    #[arg(long)]
    metrics: Option<String>,
}

/// What the server's metrics endpoint says at one moment.
struct ServerReading {
    cpu_seconds: f64,
    requests: f64,
}

/// Reads the server's CPU time and answered requests from its metrics endpoint (plain
/// HTTP/1.1 `GET /metrics`, the text format).
fn read_server(addr: &str) -> Result<ServerReading, CliError> {
    use std::io::{Read as _, Write as _};
    let fail = |e: String| CliError::Invalid(format!("--metrics {addr}: {e}"));
    let mut stream = std::net::TcpStream::connect(addr).map_err(|e| fail(e.to_string()))?;
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .map_err(|e| fail(e.to_string()))?;
    stream
        .write_all(
            format!("GET /metrics HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        )
        .map_err(|e| fail(e.to_string()))?;
    let mut text = String::new();
    stream
        .read_to_string(&mut text)
        .map_err(|e| fail(e.to_string()))?;
    let value = |line: &str| -> Option<f64> { line.rsplit(' ').next()?.trim().parse().ok() };
    let mut cpu = None;
    let mut requests = 0.0;
    for line in text.lines() {
        if line.starts_with("process_cpu_seconds_total ") {
            cpu = value(line);
        } else if line.starts_with("swisspair_requests_total{") {
            requests += value(line).unwrap_or(0.0);
        }
    }
    let cpu_seconds = cpu.ok_or_else(|| {
        fail(
            "no process_cpu_seconds_total in the answer (is it a swisspair metrics endpoint?)"
                .into(),
        )
    })?;
    Ok(ServerReading {
        cpu_seconds,
        requests,
    })
}

/// The snapshot of a scenario, as the proto request (the bytes the service bench times).
pub fn snapshot(scenario: Scenario, seed: u64) -> Result<proto::PairRequest, CliError> {
    scenario
        .sample()
        .pair_request(seed)
        .map_err(CliError::Unexpected)
}

/// UNAVAILABLE, or a proxy's HTTP 502/503/504 (the gRPC HTTP mapping calls them
/// UNAVAILABLE; tonic reports INTERNAL when the proxy's error page is not a gRPC body).
fn retryable(s: &tonic::Status) -> bool {
    s.code() == Code::Unavailable
        || (s.code() == Code::Internal
            && ["status: 502", "status: 503", "status: 504"]
                .iter()
                .any(|m| s.message().contains(m)))
}

#[derive(Default)]
struct Tally {
    latencies_us: Vec<u64>,
    errors: BTreeMap<String, u64>,
    /// The first message of each error code.
    messages: BTreeMap<String, String>,
    retried: u64,
}

pub fn run(args: LoadtestArgs) -> Result<ExitCode, CliError> {
    // Duration::from_secs_f64 panics on NaN, infinite or huge values: refuse them first.
    let sane = |v: f64| v.is_finite() && v > 0.0 && v < 1e9;
    if args.concurrency == 0 || !sane(args.seconds) || !sane(args.timeout_seconds) {
        return Err(CliError::Invalid(
            "--concurrency, --seconds and --timeout-seconds must be positive".into(),
        ));
    }
    let request = snapshot(args.scenario, args.seed)?;
    let players = match &request.input {
        Some(proto::pair_request::Input::Tournament(t)) => t.players.len(),
        _ => 0,
    };
    let addr = if args.addr.contains("://") {
        args.addr.clone()
    } else {
        format!("http://{}", args.addr)
    };
    let connections = args.connections.unwrap_or(args.concurrency.min(8)).max(1);
    let token = match &args.token {
        Some(t) => Some(
            format!("Bearer {t}")
                .parse::<tonic::metadata::MetadataValue<_>>()
                .map_err(|_| CliError::Invalid("--token: not a valid header value".into()))?,
        ),
        None => None,
    };
    let before = args.metrics.as_deref().map(read_server).transpose()?;
    let request = Arc::new(request);
    let timeout = Duration::from_secs_f64(args.timeout_seconds);
    let run_for = Duration::from_secs_f64(args.seconds);
    let retries = args.retries;
    let (tally, elapsed) = runtime()?.block_on(async move {
        let endpoint = Endpoint::from_shared(addr.clone())
            .map_err(|e| CliError::Invalid(format!("--addr {addr:?}: {e}")))?;
        // Lazy channels: a replica that is down is an error of the calls, not of the start.
        let channels: Vec<Channel> = (0..connections)
            .map(|_| endpoint.clone().connect_lazy())
            .collect();
        let started = Instant::now();
        let end = started + run_for;
        let mut tasks = Vec::new();
        for i in 0..args.concurrency {
            let mut client = PairingServiceClient::new(channels[i % channels.len()].clone())
                .max_decoding_message_size(64 * 1024 * 1024)
                .max_encoding_message_size(64 * 1024 * 1024);
            let request = request.clone();
            let token = token.clone();
            tasks.push(tokio::spawn(async move {
                let mut tally = Tally::default();
                while Instant::now() < end {
                    let t0 = Instant::now();
                    let mut attempt = 0;
                    loop {
                        let mut req = tonic::Request::new((*request).clone());
                        req.set_timeout(timeout);
                        if let Some(t) = &token {
                            req.metadata_mut().insert("authorization", t.clone());
                        }
                        match client.pair(req).await {
                            Ok(_) => {
                                tally.latencies_us.push(t0.elapsed().as_micros() as u64);
                                break;
                            }
                            Err(s) if retryable(&s) && attempt < retries => {
                                attempt += 1;
                                tally.retried += 1;
                                tokio::time::sleep(Duration::from_millis(10 * u64::from(attempt)))
                                    .await;
                            }
                            Err(s) => {
                                let code = format!("{:?}", s.code());
                                *tally.errors.entry(code.clone()).or_default() += 1;
                                tally.messages.entry(code).or_insert_with(|| {
                                    s.message().lines().next().unwrap_or("").to_string()
                                });
                                break;
                            }
                        }
                    }
                }
                tally
            }));
        }
        let mut total = Tally::default();
        for t in tasks {
            let t = t
                .await
                .map_err(|e| CliError::Unexpected(format!("client task failed: {e}")))?;
            total.latencies_us.extend(t.latencies_us);
            total.retried += t.retried;
            for (k, v) in t.errors {
                *total.errors.entry(k).or_default() += v;
            }
            for (k, v) in t.messages {
                total.messages.entry(k).or_insert(v);
            }
        }
        Ok::<_, CliError>((total, started.elapsed()))
    })?;
    let mut lat = tally.latencies_us;
    lat.sort_unstable();
    let pct = |p: f64| -> f64 {
        if lat.is_empty() {
            return 0.0;
        }
        let i = ((lat.len() as f64 * p).ceil() as usize).clamp(1, lat.len()) - 1;
        lat[i] as f64 / 1000.0
    };
    let errors: u64 = tally.errors.values().sum();
    let secs = elapsed.as_secs_f64();
    println!(
        "scenario {:?}: {players} players, concurrency {}, {:.1} s",
        args.scenario, args.concurrency, secs
    );
    println!(
        "requests {} ok, {:.0} requests/s, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, errors {errors}, retried {}",
        lat.len(),
        lat.len() as f64 / secs,
        pct(0.50),
        pct(0.99),
        lat.last().map_or(0.0, |&m| m as f64 / 1000.0),
        tally.retried
    );
    if let (Some(before), Some(addr)) = (before, args.metrics.as_deref()) {
        let after = read_server(addr)?;
        let cpu = after.cpu_seconds - before.cpu_seconds;
        let answered = after.requests - before.requests;
        if answered > 0.0 {
            println!(
                "server CPU {:.3} ms per request ({answered:.0} requests answered, {cpu:.2} s of CPU, read from {addr})",
                cpu * 1000.0 / answered
            );
        }
    }
    for (code, n) in &tally.errors {
        let message = tally.messages.get(code).map_or("", String::as_str);
        println!("  error {code}: {n} ({message})");
    }
    Ok(if errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
