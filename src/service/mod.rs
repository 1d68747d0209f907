//! The gRPC server: proto <-> model conversion ([`convert`], by message family), the
//! handlers ([`handlers`], thin adapters over [`crate::pairing`]), one error mapping
//! ([`errors`]), limits, health, reflection. Pairing runs on the blocking pool, never on the
//! async executor, and at most `max_concurrent_pairings` at once.
pub mod convert;
pub mod errors;
mod handlers;

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tonic::Status;

use crate::proto;
use crate::proto::pairing_service_server::PairingServiceServer;
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
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 50051)),
            max_message_bytes: 64 * 1024 * 1024,
            limits: Limits::default(),
            max_concurrent_pairings: std::thread::available_parallelism().map_or(2, |n| n.get()),
        }
    }
}

/// The `PairingService` implementation.
#[derive(Clone)]
pub struct Service {
    limits: Limits,
    permits: Arc<Semaphore>,
}

impl Service {
    pub fn new(config: &ServerConfig) -> Service {
        Service {
            limits: config.limits,
            permits: Arc::new(Semaphore::new(config.max_concurrent_pairings.max(1))),
        }
    }

    /// Runs CPU-bound work on the blocking pool, bounded by the permits.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Status> {
        let permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| Status::unavailable("the server is shutting down"))?;
        tokio::task::spawn_blocking(move || {
            let out = work();
            drop(permit);
            out
        })
        .await
        .map_err(|e| Status::internal(format!("pairing task failed: {e}")))
    }
}

/// Every implemented system with its options (`ListSystems`, `swisspair systems`).
pub use convert::systems::list_systems;

/// Serves on `listener` until `shutdown` completes, then finishes the requests in flight.
pub async fn serve_on(
    listener: TcpListener,
    config: ServerConfig,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (health_reporter, health_service) = tonic_health::server::health_reporter();
    health_reporter
        .set_serving::<PairingServiceServer<Service>>()
        .await;
    let reflection = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(proto::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    let service = PairingServiceServer::new(Service::new(&config))
        .max_decoding_message_size(config.max_message_bytes)
        .max_encoding_message_size(config.max_message_bytes);
    let reporter = health_reporter.clone();
    let shutdown = async move {
        shutdown.await;
        // Tell load balancers first, then stop accepting; in-flight requests finish.
        reporter
            .set_not_serving::<PairingServiceServer<Service>>()
            .await;
        tracing::info!("shutting down: finishing requests in flight");
    };
    tracing::info!(address = %listener.local_addr()?, "swisspair serving");
    tonic::transport::Server::builder()
        .layer(tower::util::MapResponseLayer::new(
            errors::oversize_is_resource_exhausted,
        ))
        .add_service(health_service)
        .add_service(reflection)
        .add_service(service)
        .serve_with_incoming_shutdown(
            tokio_stream::wrappers::TcpListenerStream::new(listener),
            shutdown,
        )
        .await?;
    Ok(())
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
