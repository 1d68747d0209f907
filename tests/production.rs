//! Production options of `swisspair serve`, each on a real server process on an ephemeral
//! loopback port: the Prometheus endpoint, TLS, mutual TLS, bearer tokens (reloaded on
//! SIGHUP), and determinism across replicas (two processes, identical response bytes).
//! Certificates are made at test time (rcgen): no private key is in the repository.
mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::process::Process;
use common::tls::certificates;

use prost::Message;
use swisspair::model::SystemId;
use swisspair::proto;
use swisspair::proto::pairing_service_client::PairingServiceClient;
use swisspair::simulate::SimConfig;
use tonic::Code;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint, Identity};

fn snapshot(system: SystemId, players: u32, played: u32) -> proto::PairRequest {
    let answer = swisspair::simulate::run(&SimConfig::new(system, players, played, 7))
        .expect("the simulation runs");
    let mut t = swisspair::service::convert::simulate::simulate_response(&answer)
        .tournament
        .expect("a tournament");
    // Every option is spelled out in the answer, those of other systems too, which a
    // PairRequest refuses: the simulation used the defaults.
    t.options = None;
    if system != SystemId::Backgammon && system != SystemId::RoundRobin {
        t.total_rounds = played + 4;
    }
    proto::PairRequest {
        input: Some(proto::pair_request::Input::Tournament(t)),
        ..proto::PairRequest::default()
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("swisspair-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn http_get(addr: &str) -> String {
    let mut s = std::net::TcpStream::connect(addr).expect("metrics endpoint");
    s.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        .expect("write");
    let mut out = String::new();
    s.read_to_string(&mut out).expect("read");
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_endpoint_counts_requests_per_rpc_system_and_code() {
    let server = Process::start(&["--metrics-listen", "127.0.0.1:0"]);
    let metrics = server
        .metrics
        .clone()
        .expect("the metrics address is logged");
    let mut client = server.client().await;
    let req = snapshot(SystemId::Dutch, 30, 2);
    for _ in 0..3 {
        client.pair(req.clone()).await.expect("paired");
    }
    let bad = proto::PairRequest::default();
    assert_eq!(
        client.pair(bad).await.expect_err("no input").code(),
        Code::InvalidArgument
    );
    let text = http_get(&metrics);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    let line = |prefix: &str| {
        text.lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix} in\n{text}"))
            .to_string()
    };
    let ok = line("swisspair_requests_total{");
    assert!(
        text.lines()
            .any(|l| l.starts_with("swisspair_requests_total{")
                && l.contains("rpc=\"Pair\"")
                && l.contains("system=\"DUTCH\"")
                && l.contains("code=\"OK\"")
                && l.ends_with(" 3")),
        "{ok}\n{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("swisspair_requests_total{")
                && l.contains("code=\"INVALID_ARGUMENT\"")
                && l.ends_with(" 1")),
        "{text}"
    );
    assert!(
        text.contains("swisspair_request_duration_seconds_bucket{"),
        "{text}"
    );
    assert!(text.contains("swisspair_request_players_sum{"), "{text}");
    assert!(text.contains("swisspair_pairings_in_flight 0"), "{text}");
    assert!(text.contains("swisspair_pairings_queued 0"), "{text}");
    // The process's CPU time, as Prometheus' process collectors name it.
    let cpu: f64 = line("process_cpu_seconds_total ")
        .rsplit(' ')
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or(-1.0);
    assert!(cpu > 0.0, "{text}");
    assert!(
        text.contains("# TYPE process_cpu_seconds_total counter"),
        "{text}"
    );
}

/// A Connect JSON call (`POST /swisspair.v1.PairingService/<method>`) on a fresh
/// connection; the HTTP status.
fn connect_json(addr: &str, method: &str, body: &str) -> u16 {
    let mut s = std::net::TcpStream::connect(addr).expect("the server");
    let head = format!(
        "POST /swisspair.v1.PairingService/{method} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).expect("write");
    s.write_all(body.as_bytes()).expect("write");
    let mut out = String::new();
    s.read_to_string(&mut out).expect("read");
    out.split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no HTTP status in {out}"))
}

/// Every RPC of the proto's `PairingService` is counted in the metrics. The list of RPCs is
/// read from the build's descriptor set, so a new RPC is called here too: a unary one over
/// Connect with the empty message (refused or answered, it is counted), `AuditStream` over
/// gRPC with one report; a new streaming RPC fails until this test knows how to call it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_rpc_is_counted_in_the_metrics() {
    let server = Process::start(&["--metrics-listen", "127.0.0.1:0"]);
    let metrics = server
        .metrics
        .clone()
        .expect("the metrics address is logged");
    let set = prost_types::FileDescriptorSet::decode(proto::FILE_DESCRIPTOR_SET)
        .expect("the build's descriptor set decodes");
    let service = set
        .file
        .iter()
        .flat_map(|f| f.service.iter())
        .find(|s| s.name() == "PairingService")
        .expect("the proto has PairingService");
    let mut client = server.client().await;
    let mut names = Vec::new();
    for method in &service.method {
        let name = method.name();
        names.push(name.to_string());
        match (method.client_streaming(), method.server_streaming(), name) {
            (false, false, _) => {
                let status = connect_json(&server.addr, name, "{}");
                assert!(
                    matches!(status, 200 | 400 | 412),
                    "{name}: HTTP {status} (not routed to its handler?)"
                );
            }
            (true, true, "AuditStream") => {
                let report = proto::AuditStreamRequest {
                    file: Some(proto::AuditRequest {
                        name: "a.trf".into(),
                        input: Some(proto::audit_request::Input::Trf("not a TRF".into())),
                        ..proto::AuditRequest::default()
                    }),
                };
                let mut verdicts = client
                    .audit_stream(tokio_stream::iter(vec![report]))
                    .await
                    .expect("the stream opens")
                    .into_inner();
                let mut count = 0;
                while let Some(v) = verdicts.message().await.expect("a verdict") {
                    assert_eq!(v.index, count);
                    count += 1;
                }
                assert_eq!(count, 1);
            }
            _ => panic!("{name}: a streaming RPC this test does not call yet: add it here"),
        }
    }
    assert!(names.len() >= 11, "{names:?}");
    let text = http_get(&metrics);
    for name in &names {
        let counted = text.lines().any(|l| {
            l.starts_with("swisspair_requests_total{") && l.contains(&format!("rpc=\"{name}\""))
        });
        assert!(counted, "{name} is not counted in the metrics:\n{text}");
        let timed = text.lines().any(|l| {
            l.starts_with("swisspair_request_duration_seconds_count{")
                && l.contains(&format!("rpc=\"{name}\""))
        });
        assert!(timed, "{name} has no duration in the metrics:\n{text}");
    }
}

/// `loadtest --metrics` reads the server's own CPU time and answered requests before and
/// after the run and prints the CPU per request (issue 22: measured, not inferred).
#[test]
fn loadtest_prints_the_servers_cpu_per_request() {
    let server = Process::start(&["--metrics-listen", "127.0.0.1:0"]);
    let metrics = server
        .metrics
        .clone()
        .expect("the metrics address is logged");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_swisspair"))
        .args(["loadtest", "--addr", &server.addr, "--concurrency", "2"])
        .args([
            "--seconds",
            "1",
            "--scenario",
            "backgammon",
            "--metrics",
            &metrics,
        ])
        .output()
        .expect("loadtest runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}");
    let line = text
        .lines()
        .find(|l| l.starts_with("server CPU "))
        .unwrap_or_else(|| panic!("no server CPU line in\n{text}"));
    let ms: f64 = line
        .split_whitespace()
        .nth(2)
        .and_then(|v| v.parse().ok())
        .unwrap_or(-1.0);
    assert!(ms > 0.0, "{line}");
    assert!(line.contains(&format!("read from {metrics}")), "{line}");
    // A metrics address that is not a swisspair endpoint is refused by name (exit 3).
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_swisspair"))
        .args(["loadtest", "--addr", &server.addr, "--seconds", "1"])
        .args(["--metrics", &server.addr])
        .output()
        .expect("loadtest runs");
    assert_eq!(bad.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--metrics"));
}

async fn tls_client(
    addr: &str,
    ca: &Path,
    identity: Option<(&Path, &Path)>,
) -> Result<PairingServiceClient<Channel>, tonic::transport::Error> {
    let mut tls = ClientTlsConfig::new()
        .ca_certificate(Certificate::from_pem(std::fs::read(ca).expect("ca")))
        .domain_name("localhost");
    if let Some((cert, key)) = identity {
        tls = tls.identity(Identity::from_pem(
            std::fs::read(cert).expect("cert"),
            std::fs::read(key).expect("key"),
        ));
    }
    let channel = Endpoint::from_shared(format!("https://{addr}"))
        .expect("address")
        .tls_config(tls)?
        .connect()
        .await?;
    Ok(PairingServiceClient::new(channel))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_serves_tls_clients_only() {
    let dir = temp_dir("tls");
    let [ca, cert, key, _, _] = certificates(&dir);
    let server = Process::start(&[
        "--tls-cert",
        cert.to_str().expect("path"),
        "--tls-key",
        key.to_str().expect("path"),
    ]);
    let mut client = tls_client(&server.addr, &ca, None)
        .await
        .expect("a TLS client connects");
    let answer = client
        .pair(snapshot(SystemId::Dutch, 12, 1))
        .await
        .expect("paired over TLS");
    assert_eq!(answer.get_ref().boards.len(), 6);
    // A plaintext client gets no answer.
    let plain = Endpoint::from_shared(format!("http://{}", server.addr))
        .expect("address")
        .connect()
        .await;
    if let Ok(channel) = plain {
        let mut c = PairingServiceClient::new(channel);
        assert!(c.list_systems(proto::ListSystemsRequest {}).await.is_err());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutual_tls_needs_a_client_certificate_from_the_ca() {
    let dir = temp_dir("mtls");
    let [ca, cert, key, client_cert, client_key] = certificates(&dir);
    let server = Process::start(&[
        "--tls-cert",
        cert.to_str().expect("path"),
        "--tls-key",
        key.to_str().expect("path"),
        "--tls-client-ca",
        ca.to_str().expect("path"),
    ]);
    let mut client = tls_client(&server.addr, &ca, Some((&client_cert, &client_key)))
        .await
        .expect("a client with a certificate connects");
    client
        .list_systems(proto::ListSystemsRequest {})
        .await
        .expect("answered with a client certificate");
    // Without a client certificate the handshake (or the first call) fails.
    match tls_client(&server.addr, &ca, None).await {
        Err(_) => {}
        Ok(mut c) => assert!(
            c.list_systems(proto::ListSystemsRequest {}).await.is_err(),
            "a client without a certificate must be refused"
        ),
    }
    // A certificate from another CA is refused too.
    let other = temp_dir("mtls-other");
    let [other_ca, _, _, other_cert, other_key] = certificates(&other);
    let _ = other_ca;
    match tls_client(&server.addr, &ca, Some((&other_cert, &other_key))).await {
        Err(_) => {}
        Ok(mut c) => assert!(
            c.list_systems(proto::ListSystemsRequest {}).await.is_err(),
            "a certificate from another CA must be refused"
        ),
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&other);
}

fn with_token<T>(msg: T, token: &str) -> tonic::Request<T> {
    let mut r = tonic::Request::new(msg);
    r.metadata_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().expect("header"),
    );
    r
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bearer_tokens_guard_every_rpc_but_health_and_reload_on_sighup() {
    let dir = temp_dir("auth");
    let file = dir.join("tokens");
    std::fs::write(&file, "# two tokens in force\nfirst-token\nsecond-token\n").expect("write");
    let server = Process::start(&["--auth-token-file", file.to_str().expect("path")]);
    let mut client = server.client().await;
    let req = snapshot(SystemId::Dutch, 10, 1);
    // No token, a wrong token: UNAUTHENTICATED, on every RPC.
    let no_token = client.pair(req.clone()).await.expect_err("no token");
    assert_eq!(no_token.code(), Code::Unauthenticated);
    let wrong = client
        .pair(with_token(req.clone(), "guess"))
        .await
        .expect_err("wrong token");
    assert_eq!(wrong.code(), Code::Unauthenticated);
    assert_eq!(
        client
            .list_systems(proto::ListSystemsRequest {})
            .await
            .expect_err("no token")
            .code(),
        Code::Unauthenticated
    );
    // Either token works.
    for t in ["first-token", "second-token"] {
        client
            .pair(with_token(req.clone(), t))
            .await
            .expect("a valid token is let in");
    }
    // Health needs none.
    let channel = Endpoint::from_shared(format!("http://{}", server.addr))
        .expect("address")
        .connect()
        .await
        .expect("connects");
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
    let status = health
        .check(tonic_health::pb::HealthCheckRequest {
            service: String::new(),
        })
        .await
        .expect("health answers without a token");
    assert_eq!(status.get_ref().status, 1, "SERVING");
    // Rotate: the file now holds only a third token; SIGHUP reloads it.
    std::fs::write(&file, "third-token\n").expect("write");
    let ok = Command::new("kill")
        .args(["-HUP", &server.child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(ok.success());
    let mut reloaded = false;
    for _ in 0..100 {
        if client
            .list_systems(with_token(proto::ListSystemsRequest {}, "third-token"))
            .await
            .is_ok()
        {
            reloaded = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(reloaded, "the new token is accepted after SIGHUP");
    assert_eq!(
        client
            .pair(with_token(req.clone(), "first-token"))
            .await
            .expect_err("retired token")
            .code(),
        Code::Unauthenticated
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn serve_refuses_bad_security_files_as_invalid_input() {
    let dir = temp_dir("badfiles");
    let empty = dir.join("empty");
    std::fs::write(&empty, "# no token\n").expect("write");
    for args in [
        vec!["--auth-token-file", empty.to_str().expect("path")],
        vec![
            "--tls-cert",
            "/nonexistent.pem",
            "--tls-key",
            "/nonexistent.key",
        ],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_swisspair"))
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(&args)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(args[0]), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two replicas, the same request for every implemented system: identical response bytes
/// (or the identical refusal), so a load balancer may send a retry anywhere.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_answer_identical_bytes_for_every_system() {
    let a = Process::start(&[]);
    let b = Process::start(&[]);
    let mut ca = a.client().await;
    let mut cb = b.client().await;
    let systems = ca
        .list_systems(proto::ListSystemsRequest {})
        .await
        .expect("systems")
        .into_inner();
    let mut compared = 0;
    for id in SystemId::ALL {
        let Ok(answer) = swisspair::simulate::run(&SimConfig::new(id, 16, 2, 11)) else {
            continue;
        };
        let _ = answer;
        let req = snapshot(id, 16, 2);
        let ra = ca.pair(req.clone()).await;
        let rb = cb.pair(req.clone()).await;
        match (ra, rb) {
            (Ok(x), Ok(y)) => {
                assert_eq!(
                    x.get_ref().encode_to_vec(),
                    y.get_ref().encode_to_vec(),
                    "{id:?}: replicas differ"
                );
                assert!(!x.get_ref().boards.is_empty(), "{id:?}: no board");
                compared += 1;
            }
            (Err(x), Err(y)) => {
                assert_eq!((x.code(), x.message()), (y.code(), y.message()), "{id:?}");
            }
            (x, y) => panic!("{id:?}: one replica answered, the other refused: {x:?} / {y:?}"),
        }
    }
    println!("determinism: {compared} systems, identical response bytes on two replicas");
    assert!(
        compared >= systems.systems.len().min(SystemId::ALL.len()) - 2,
        "only {compared} systems compared"
    );
}
