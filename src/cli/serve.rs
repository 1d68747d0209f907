//! `swisspair serve`: the gRPC server (gRPC-Web, the Connect protocol's JSON and the page on
//! the same port).
use std::net::SocketAddr;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use swisspair::service::{self, ServerConfig};

use super::CliError;
use super::args::runtime;

#[derive(Clone, Copy, ValueEnum)]
pub enum LogFormat {
    Human,
    Json,
}

#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on: `ip:port` or `host:port` (`localhost:50051`, `0.0.0.0:50051`).
    #[arg(long, default_value = "127.0.0.1:50051")]
    listen: String,
    /// Log records as human-readable lines or as JSON objects, one per line.
    #[arg(long, value_enum, default_value = "human")]
    log_format: LogFormat,
    /// Largest request or response message, in bytes.
    #[arg(long, default_value_t = 64 * 1024 * 1024)]
    max_message_bytes: usize,
    /// Most players a snapshot may have.
    #[arg(long, default_value_t = 100_000)]
    max_players: usize,
    /// Pairings computed at once (default: the number of cores).
    #[arg(long)]
    workers: Option<usize>,
    /// Requests that may wait for a worker; more are refused at once (RESOURCE_EXHAUSTED).
    #[arg(long, default_value_t = 64)]
    max_queued: usize,
    /// Longest a request may take, whatever its client's deadline (DEADLINE_EXCEEDED).
    #[arg(long, default_value_t = 300.0)]
    max_pairing_seconds: f64,
    /// After SIGTERM: seconds health says NOT_SERVING while requests are still accepted.
    #[arg(long, default_value_t = 5.0)]
    drain_seconds: f64,
    /// After the drain: seconds requests in flight may take before they are cancelled.
    #[arg(long, default_value_t = 30.0)]
    grace_seconds: f64,
    /// Serve Prometheus metrics on this address (`ip:port`; off by default).
    #[arg(long)]
    metrics_listen: Option<String>,
    /// TLS: the server's certificate chain (PEM); needs --tls-key.
    #[arg(long, requires = "tls_key")]
    tls_cert: Option<std::path::PathBuf>,
    /// TLS: the server's private key (PEM); needs --tls-cert.
    #[arg(long, requires = "tls_cert")]
    tls_key: Option<std::path::PathBuf>,
    /// Mutual TLS: clients must present a certificate signed by this CA (PEM).
    #[arg(long, requires = "tls_cert")]
    tls_client_ca: Option<std::path::PathBuf>,
    /// Bearer tokens, one per line, required on every RPC but health and reflection
    /// (UNAUTHENTICATED otherwise); reloaded on SIGHUP.
    #[arg(long)]
    auth_token_file: Option<std::path::PathBuf>,
    /// Let pages from this origin (`https://club.example`; `*` for any) call the API from a
    /// browser (CORS, for gRPC-Web and JSON); repeatable. Off by default.
    #[arg(long = "cors-origin", value_name = "ORIGIN")]
    cors_origins: Vec<String>,
    /// Do not serve the page at `/` (the API only).
    #[arg(long)]
    no_page: bool,
}

/// The first address `host:port` resolves to.
fn resolve_listen(listen: &str) -> Result<SocketAddr, CliError> {
    resolve_flag("--listen", listen)
}

/// The first address `host:port` of `flag` resolves to.
fn resolve_flag(flag: &str, listen: &str) -> Result<SocketAddr, CliError> {
    use std::net::ToSocketAddrs as _;
    listen
        .to_socket_addrs()
        .map_err(|e| CliError::Invalid(format!("{flag} {listen:?}: {e}")))?
        .next()
        .ok_or_else(|| CliError::Invalid(format!("{flag} {listen:?}: no address")))
}

pub fn run(args: ServeArgs) -> Result<ExitCode, CliError> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Held until the command ends: dropping it writes the records still held.
    let (sink, _log_flusher) = super::log_sink::start();
    // Colour codes only for a terminal: a log file or a collector gets plain text.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(sink);
    match args.log_format {
        LogFormat::Human => builder.init(),
        LogFormat::Json => builder.json().init(),
    }
    let mut config = ServerConfig {
        listen: resolve_listen(&args.listen)?,
        max_message_bytes: args.max_message_bytes,
        ..ServerConfig::default()
    };
    config.limits.max_players = args.max_players;
    service::admission::apply_cli(
        &mut config,
        args.max_queued,
        args.max_pairing_seconds,
        args.drain_seconds,
        args.grace_seconds,
    )
    .map_err(CliError::Invalid)?;
    if let Some(m) = &args.metrics_listen {
        config.metrics_listen = Some(resolve_flag("--metrics-listen", m)?);
    }
    if let (Some(cert), Some(key)) = (args.tls_cert, args.tls_key) {
        config.tls = Some(service::tls::TlsFiles {
            cert,
            key,
            client_ca: args.tls_client_ca,
        });
    }
    // Bad TLS or token files are invalid input (exit 3), found before listening.
    if let Some(tls) = &config.tls {
        tls.server_config().map_err(CliError::Invalid)?;
    }
    if let Some(file) = &args.auth_token_file {
        service::auth::Tokens::load(file).map_err(CliError::Invalid)?;
    }
    config.auth_token_file = args.auth_token_file;
    service::web::cors(&args.cors_origins).map_err(CliError::Invalid)?;
    config.cors_origins = args.cors_origins;
    config.page = !args.no_page;
    if let Some(w) = args.workers {
        config.max_concurrent_pairings = w.max(1);
    }
    runtime()?.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.listen)
            .await
            .map_err(|e| {
                CliError::Unexpected(format!("cannot listen on {}: {e}", config.listen))
            })?;
        service::serve_on(listener, config, service::shutdown_signal())
            .await
            .map_err(|e| CliError::Unexpected(format!("server error: {e}")))?;
        Ok(ExitCode::SUCCESS)
    })
}
