//! The `swisspair serve` process itself: abandoned work, deadlines, the bounded queue,
//! reflection in both protocol versions, and shutdown on SIGTERM (drain, grace, exit 0).
mod common;

use std::time::{Duration, Instant};

use common::process::Process;

use swisspair::proto;
use swisspair::proto::pairing_service_client::PairingServiceClient;
use tonic::Code;

/// Round 1 of a Dutch open of `n` players (small ones here: the Dutch pairs round 1 of
/// 100,000 players in about a second).
fn dutch_round_one(n: usize) -> proto::PairRequest {
    let players = (0..n)
        .map(|i| proto::Player {
            id: format!("p{i}"),
            rating: 3000 - (i as u32 * 2000 / n as u32),
            ..proto::Player::default()
        })
        .collect();
    proto::PairRequest {
        input: Some(proto::pair_request::Input::Tournament(proto::Tournament {
            system: proto::PairingSystem::Dutch as i32,
            total_rounds: 9,
            players,
            ..proto::Tournament::default()
        })),
        ..proto::PairRequest::default()
    }
}

/// A request quick to send and long to pair, to hold a worker: round 1 of a 5,000-player
/// Burstein event under profile `BBP` driven `PLAIN`, which re-solves a dense matching for
/// every player (well over the tests' 4-second windows in a release build too, which
/// 3,000 players no longer were; the default drive pairs it in 0.24 s).
/// If that drive ever becomes fast, this needs another slow request: the tests below need
/// a pairing that is still running when they cancel it.
fn huge_round() -> proto::PairRequest {
    let mut request = dutch_round_one(5_000);
    if let Some(proto::pair_request::Input::Tournament(t)) = request.input.as_mut() {
        t.system = proto::PairingSystem::Burstein as i32;
        t.options = Some(proto::SystemOptions {
            values: [
                ("profile".to_string(), "BBP".to_string()),
                ("bbp_drive".to_string(), "PLAIN".to_string()),
            ]
            .into(),
            ..proto::SystemOptions::default()
        });
    }
    request
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abandoned_huge_pairings_free_their_workers() {
    let server = Process::start(&["--workers", "2"]);
    let huge = huge_round();
    // One client sends its deadline (grpc-timeout); the other just goes away.
    let mut a = server.client().await;
    let mut with_deadline = tonic::Request::new(huge.clone());
    with_deadline.set_timeout(Duration::from_secs(2));
    let first = tokio::spawn(async move { a.pair(with_deadline).await });
    let mut b = server.client().await;
    let second =
        tokio::spawn(
            async move { tokio::time::timeout(Duration::from_secs(2), b.pair(huge)).await },
        );
    let first = first.await.expect("task");
    let code = first.err().map(|s| s.code());
    assert!(
        matches!(code, Some(Code::DeadlineExceeded | Code::Cancelled)),
        "{code:?}"
    );
    assert!(
        second.await.expect("task").is_err(),
        "abandoned by the client"
    );
    // Both workers must be free again: a small round is answered promptly (without the
    // cancellation both would compute the huge rounds for minutes and this would queue).
    let mut c = server.client().await;
    let mut small = tonic::Request::new(dutch_round_one(10));
    small.set_timeout(Duration::from_secs(20));
    let started = Instant::now();
    let answer = c.pair(small).await.expect("small round paired");
    assert_eq!(answer.get_ref().boards.len(), 5);
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_limit_answers_deadline_exceeded() {
    let server = Process::start(&["--workers", "1", "--max-pairing-seconds", "1"]);
    let mut c = server.client().await;
    let status = c
        .pair(huge_round())
        .await
        .expect_err("the server's limit stops it");
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    assert!(status.message().contains("--max-pairing-seconds"));
    let answer = c.pair(dutch_round_one(4)).await.expect("paired");
    assert_eq!(answer.get_ref().boards.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_queue_is_refused_at_once() {
    // One worker, no waiting place: once the huge request holds the worker, any other
    // request is refused at once. The huge request needs a moment to arrive and be decoded
    // (longer on a loaded machine), so small requests are sent until one is refused; each
    // small request that still finds the worker free is simply answered.
    let server = Process::start(&["--workers", "1", "--max-queued", "0"]);
    let mut a = server.client().await;
    let running = tokio::spawn(async move { a.pair(huge_round()).await });
    let mut c = server.client().await;
    let mut refused = None;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let mut small = tonic::Request::new(dutch_round_one(4));
        small.set_timeout(Duration::from_secs(20));
        let started = Instant::now();
        match c.pair(small).await {
            Ok(answer) => assert_eq!(answer.get_ref().boards.len(), 2),
            Err(status) => {
                refused = Some((status, started.elapsed()));
                break;
            }
        }
    }
    let (status, took) = refused.expect("a request is refused while the worker is busy");
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(took < Duration::from_secs(5), "{took:?}");
    running.abort();
}

/// SIGTERM under load: health turns NOT_SERVING, requests sent during the drain are still
/// answered, the huge one is cancelled at the end of the grace period, and the process
/// exits 0 within drain + grace.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_drains_then_exits_zero() {
    use tonic_health::pb::health_client::HealthClient;
    use tonic_health::pb::{HealthCheckRequest, health_check_response::ServingStatus};

    let (drain, grace) = (2.0, 2.0);
    let mut server = Process::start(&[
        "--workers",
        "2",
        "--drain-seconds",
        "2",
        "--grace-seconds",
        "2",
    ]);
    let channel = server.channel().await;
    let mut health = HealthClient::new(channel.clone());
    let serving = health
        .check(HealthCheckRequest::default())
        .await
        .expect("health");
    assert_eq!(serving.get_ref().status, ServingStatus::Serving as i32);

    let mut big = PairingServiceClient::new(channel.clone());
    let huge = tokio::spawn(async move { big.pair(huge_round()).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let terminated = Instant::now();
    server.signal("TERM");
    tokio::time::sleep(Duration::from_millis(300)).await;

    let status = health
        .check(HealthCheckRequest::default())
        .await
        .expect("health still answers during the drain");
    assert_eq!(status.get_ref().status, ServingStatus::NotServing as i32);

    // Accepted during the drain: every one is answered.
    let mut small = Vec::new();
    for k in 0..6 {
        let mut c = PairingServiceClient::new(channel.clone());
        small.push(tokio::spawn(async move {
            c.pair(dutch_round_one(8 + 2 * k)).await
        }));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for (k, s) in small.into_iter().enumerate() {
        let answer = s.await.expect("task").expect("answered");
        assert_eq!(answer.get_ref().boards.len(), 4 + k);
    }

    let code = tokio::task::spawn_blocking(move || {
        server.wait_exit(Duration::from_secs_f64(drain + grace + 15.0))
    })
    .await
    .expect("task");
    assert_eq!(code, Some(0), "exit code");
    assert!(terminated.elapsed() >= Duration::from_secs_f64(drain));
    // The huge pairing got an answer (cancelled at the end of the grace period), not a
    // broken connection.
    let huge = huge.await.expect("task");
    assert_eq!(huge.err().map(|s| s.code()), Some(Code::Cancelled));
}

/// Reflection answers in both protocol versions and lists every service.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reflection_v1_and_v1alpha_list_every_service() {
    let server = Process::start(&[]);
    let channel = server.channel().await;
    let expected = [
        "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection",
        "grpc.reflection.v1alpha.ServerReflection",
        "swisspair.v1.PairingService",
    ];
    reflection_lists_every_service!(v1, channel, expected);
    reflection_lists_every_service!(v1alpha, channel, expected);
}

/// One reflection protocol version (`v1`, `v1alpha`: the same messages in two generated
/// modules): it lists every service, and gives the file of each service's symbol.
macro_rules! reflection_lists_every_service {
    ($version:ident, $channel:expr, $expected:expr) => {{
        use tonic_reflection::pb::$version::server_reflection_client::ServerReflectionClient;
        use tonic_reflection::pb::$version::server_reflection_request::MessageRequest;
        use tonic_reflection::pb::$version::server_reflection_response::MessageResponse;
        use tonic_reflection::pb::$version::{ServerReflectionRequest, ServerReflectionResponse};
        let label = stringify!($version);
        let mut client = ServerReflectionClient::new($channel.clone());
        let ask = |m: MessageRequest| ServerReflectionRequest {
            host: String::new(),
            message_request: Some(m),
        };
        let first = |r: Result<tonic::Response<tonic::Streaming<ServerReflectionResponse>>, _>| async {
            let mut stream = r.expect("reflection answers").into_inner();
            stream
                .message()
                .await
                .expect("message")
                .and_then(|m| m.message_response)
        };
        let listed = first(
            client
                .server_reflection_info(tokio_stream::iter([ask(MessageRequest::ListServices(
                    String::new(),
                ))]))
                .await,
        )
        .await;
        let Some(MessageResponse::ListServicesResponse(list)) = listed else {
            panic!("{label} list: {listed:?}");
        };
        let mut names: Vec<_> = list.service.into_iter().map(|s| s.name).collect();
        names.sort();
        assert_eq!(names, $expected, "{label}");
        for symbol in ["grpc.health.v1.Health", "swisspair.v1.PairingService"] {
            let found = first(
                client
                    .server_reflection_info(tokio_stream::iter([ask(
                        MessageRequest::FileContainingSymbol(symbol.to_string()),
                    )]))
                    .await,
            )
            .await;
            assert!(
                matches!(found, Some(MessageResponse::FileDescriptorResponse(ref f)) if !f.file_descriptor_proto.is_empty()),
                "{label} {symbol}: {found:?}"
            );
        }
    }};
}
use reflection_lists_every_service;
