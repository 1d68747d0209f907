//! The gRPC server: proto <-> model conversion ([`convert`], by message family), the
//! handlers (`handlers.rs`, thin adapters over [`crate::pairing`] and the other entry
//! points), the one skeleton every RPC runs through (`rpc.rs`: deadline, admission, error
//! mapping, metrics, one log event per call), one error mapping ([`errors`]), admission
//! (workers, bounded queue, deadlines, cancellation: [`admission`]), limits, health,
//! reflection. A large pairing runs on the blocking pool, never on the async executor (a
//! small one inline, [`admission::WorkSize`]). The same port answers gRPC-Web and the Connect protocol (JSON) and serves the
//! page ([`web`], [`connect`], [`page`]).
pub mod admission;
mod audit_stream;
pub mod auth;
pub mod coalesced_writes;
pub mod connect;
pub mod convert;
pub mod errors;
mod handlers;
mod json_numbers;
pub mod metrics;
pub mod page;
mod pair_route;
pub mod reflection;
mod rpc;
pub mod sample;
pub mod tls;
pub mod trf_input;
pub mod web;

use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::TcpListener;

use crate::proto::pairing_service_server::PairingServiceServer;
use admission::{Admission, AdmissionLimits};
use convert::Limits;

/// Server settings.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    pub listen: SocketAddr,
    /// Largest request or response message, in bytes.
    pub max_message_bytes: usize,
    pub limits: Limits,
    /// Pairings computed at once (further requests wait).
    pub max_concurrent_pairings: usize,
    /// Requests that may wait for a worker; more get `RESOURCE_EXHAUSTED` at once.
    pub max_queued: usize,
    /// Longest a request may take, whatever its client's deadline.
    pub max_pairing: Duration,
    /// After SIGTERM: how long health says NOT_SERVING while requests are still accepted.
    pub drain: Duration,
    /// After the drain: how long requests in flight may take before they are cancelled.
    pub grace: Duration,
    /// Prometheus endpoint ([`metrics`]); `None`: no metrics.
    pub metrics_listen: Option<SocketAddr>,
    /// TLS, optionally mutual ([`tls`]); `None`: plaintext.
    pub tls: Option<tls::TlsFiles>,
    /// Bearer tokens checked on every `PairingService` call ([`auth`]); `None`: none.
    pub auth_token_file: Option<std::path::PathBuf>,
    /// Origins allowed to call from a browser page served elsewhere (`*`: any); empty: no
    /// CORS ([`web::cors`]).
    pub cors_origins: Vec<String>,
    /// `GET /` serves the page ([`page`]).
    pub page: bool,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 50051)),
            max_message_bytes: 64 * 1024 * 1024,
            limits: Limits::default(),
            max_concurrent_pairings: std::thread::available_parallelism().map_or(2, |n| n.get()),
            max_queued: AdmissionLimits::default().max_queued,
            max_pairing: AdmissionLimits::default().max_pairing,
            drain: Duration::from_secs(5),
            grace: Duration::from_secs(30),
            metrics_listen: None,
            tls: None,
            auth_token_file: None,
            cors_origins: Vec::new(),
            page: true,
        }
    }
}

/// The `PairingService` implementation.
#[derive(Clone)]
pub struct Service {
    limits: Limits,
    admission: Admission,
}

impl Service {
    pub fn new(config: &ServerConfig) -> Service {
        Service {
            limits: config.limits,
            admission: Admission::new(AdmissionLimits {
                workers: config.max_concurrent_pairings,
                max_queued: config.max_queued,
                max_pairing: config.max_pairing,
            }),
        }
    }
}

/// Every implemented system with its options (`ListSystems`, `swisspair systems`).
pub use convert::systems::list_systems;

/// Serves on `listener` until `shutdown` completes, then shuts down in three phases:
/// 1. *drain*: health answers NOT_SERVING (for the whole server and `PairingService`) and
///    requests are still accepted for `config.drain`, so that load balancers see it first;
/// 2. *grace*: no new connection or request is accepted; requests in flight (running or
///    queued) finish, for at most `config.grace`;
/// 3. what is still running is cancelled (its clients get `CANCELLED`) and the function
///    returns `Ok`.
pub async fn serve_on(
    listener: TcpListener,
    config: ServerConfig,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (health_reporter, health_service) = tonic_health::server::health_reporter();
    health_reporter
        .set_serving::<PairingServiceServer<Service>>()
        .await;
    let (reflection_v1, reflection_v1alpha) = reflection::services()?;
    let pairing = Service::new(&config);
    let admission = pairing.admission.clone();
    // The generated server with `Pair` on its own route (`pair_route.rs`).
    let service = pair_route::PairRoute::new(pairing, config.max_message_bytes);
    let (service, builder) = production_wiring(&config, service).await?;
    let cors = web::cors(&config.cors_origins)?;
    let web = web::WebLayer::new(web::WebSettings {
        page: config.page,
        max_message_bytes: config.max_message_bytes,
    });
    let reporter = health_reporter.clone();
    let (drained_tx, drained_rx) = tokio::sync::watch::channel(false);
    let (drain, grace) = (config.drain, config.grace);
    let phases = tokio::spawn(async move {
        shutdown.await;
        // Tell load balancers first, and keep answering while they notice.
        reporter
            .set_not_serving::<PairingServiceServer<Service>>()
            .await;
        reporter
            .set_service_status("", tonic_health::ServingStatus::NotServing)
            .await;
        tracing::info!(
            drain_seconds = drain.as_secs_f64(),
            "shutting down: health NOT_SERVING, still accepting requests"
        );
        tokio::time::sleep(drain).await;
        tracing::info!(
            grace_seconds = grace.as_secs_f64(),
            "no longer accepting requests: finishing those in flight"
        );
        let _ = drained_tx.send(true);
    });
    tracing::info!(address = %listener.local_addr()?, "swisspair serving");
    let mut stop_accepting = drained_rx.clone();
    // HTTP/1.1 for gRPC-Web and Connect clients (browsers, curl, PHP); the layers, outermost
    // first, are described in `web.rs`.
    let server = builder
        .accept_http1(true)
        .layer(tower::util::option_layer(cors))
        .layer(web)
        .layer(tonic_web::GrpcWebLayer::new())
        .layer(tower::util::MapResponseLayer::new(
            errors::oversize_is_resource_exhausted,
        ))
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(service)
        .serve_with_incoming_shutdown(
            // TCP_NODELAY: without it a small answer waits for the client's delayed ACK
            // (about 40 ms on Linux), which caps each connection near 25 calls a second.
            // Each connection's writes are coalesced: an answer is one write
            // (`coalesced_writes.rs`).
            tokio_stream::StreamExt::map(
                tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true)),
                |accepted| accepted.map(coalesced_writes::CoalescedWrites::new),
            ),
            async move {
                let _ = stop_accepting.wait_for(|drained| *drained).await;
            },
        );
    tokio::pin!(server);
    let mut grace_rx = drained_rx;
    let grace_over = async move {
        if grace_rx.wait_for(|drained| *drained).await.is_ok() {
            tokio::time::sleep(grace).await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    let result = tokio::select! {
        r = &mut server => r,
        () = grace_over => {
            let cancelled = admission.cancel_all();
            tracing::warn!(cancelled, "grace period over: cancelling the requests still in flight");
            // The cancelled pairings stop at their next checkpoint; their answers go out.
            match tokio::time::timeout(Duration::from_secs(5), &mut server).await {
                Ok(r) => r,
                Err(_) => {
                    tracing::warn!("connections still open after the grace period: closing them");
                    Ok(())
                }
            }
        }
    };
    phases.abort();
    result?;
    tracing::info!("stopped");
    Ok(())
}

/// Metrics endpoint, bearer tokens (health and reflection stay open) and TLS.
async fn production_wiring(
    config: &ServerConfig,
    service: pair_route::PairRoute,
) -> Result<
    (
        tonic::service::interceptor::InterceptedService<pair_route::PairRoute, auth::Check>,
        tonic::transport::Server,
    ),
    Box<dyn std::error::Error + Send + Sync>,
> {
    if let Some(listen) = config.metrics_listen {
        let addr = metrics::serve(listen).await?;
        tracing::info!(metrics_address = %addr, "metrics endpoint serving");
    }
    let tokens = match &config.auth_token_file {
        Some(file) => {
            let tokens = auth::Tokens::load(file)?;
            tokens.reload_on_sighup();
            Some(tokens)
        }
        None => None,
    };
    let service =
        tonic::service::interceptor::InterceptedService::new(service, auth::Check(tokens));
    let mut builder = tonic::transport::Server::builder();
    if let Some(files) = &config.tls {
        builder = builder.tls_config(files.server_config()?)?;
    }
    Ok((service, builder))
}

/// Resolves on SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
