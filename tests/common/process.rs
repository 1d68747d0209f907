//! A real `swisspair serve` child process on an ephemeral loopback port, for the tests of
//! the process itself (signals, deadlines, TLS, tokens, metrics, several replicas).
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use swisspair::proto::pairing_service_client::PairingServiceClient;
use tonic::transport::Channel;

/// The child process; `addr` (`host:port`) and `metrics` are read from its JSON log.
pub struct Process {
    pub child: Child,
    pub addr: String,
    pub metrics: Option<String>,
}

impl Process {
    /// Starts `swisspair serve` with `extra` flags and waits for it to log its address.
    pub fn start(extra: &[&str]) -> Process {
        let mut child = Command::new(env!("CARGO_BIN_EXE_swisspair"))
            .args(["serve", "--listen", "127.0.0.1:0", "--log-format", "json"])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("swisspair starts");
        let stderr = child.stderr.take().expect("stderr piped");
        let (tx, rx) = std::sync::mpsc::channel();
        // Read the log: the first records name the addresses; the rest is drained so that
        // the server never blocks on a full pipe.
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(&line) {
                    for key in ["address", "metrics_address"] {
                        if let Some(a) = v["fields"][key].as_str() {
                            let _ = tx.send((key, a.to_string()));
                        }
                    }
                }
            }
        });
        let (mut addr, mut metrics) = (None, None);
        while addr.is_none() {
            let (key, a) = rx
                .recv_timeout(Duration::from_secs(30))
                .expect("the server logs its address");
            if key == "address" {
                addr = Some(a);
            } else {
                metrics = Some(a);
            }
        }
        Process {
            child,
            addr: addr.unwrap_or_default(),
            metrics,
        }
    }

    /// A plain-text channel, retrying while the server starts accepting.
    pub async fn channel(&self) -> Channel {
        for _ in 0..100 {
            if let Ok(c) = Channel::from_shared(format!("http://{}", self.addr))
                .expect("address")
                .connect()
                .await
            {
                return c;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("no connection to {}", self.addr);
    }

    pub async fn client(&self) -> PairingServiceClient<Channel> {
        PairingServiceClient::new(self.channel().await)
    }

    /// Sends a signal (`TERM`, `HUP`, …) to the process.
    pub fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
    }

    /// Waits at most `limit` for the process to exit; its exit code.
    pub fn wait_exit(&mut self, limit: Duration) -> Option<i32> {
        let started = Instant::now();
        while started.elapsed() < limit {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
