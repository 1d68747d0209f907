//! The real gRPC server on an ephemeral port, for the end-to-end tests.
use swisspair::proto::pairing_service_client::PairingServiceClient;
use swisspair::service::{ServerConfig, serve_on};
use tokio::sync::oneshot;
use tonic::transport::Channel;

pub struct Server {
    pub addr: String,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    pub async fn start(config: ServerConfig) -> Server {
        // No drain period: `stop` would otherwise wait for it.
        let config = ServerConfig {
            drain: std::time::Duration::ZERO,
            ..config
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = format!("http://{}", listener.local_addr().expect("address"));
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            serve_on(listener, config, async {
                let _ = stopped.await;
            })
            .await
            .expect("server runs");
        });
        Server {
            addr,
            stop: Some(stop),
            task,
        }
    }

    /// A client, retrying for about a second: the spawned server may not be accepting yet.
    pub async fn client(&self) -> PairingServiceClient<Channel> {
        for _ in 0..50 {
            if let Ok(c) = PairingServiceClient::connect(self.addr.clone()).await {
                return c;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        panic!("server did not start at {}", self.addr);
    }

    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = self.task.await;
    }
}
