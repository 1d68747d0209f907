//! End to end: the real server on an ephemeral port, called through the generated client.
mod common;

use common::server::Server;
use swisspair::proto;
use swisspair::proto::pairing_service_client::PairingServiceClient;
use swisspair::service::ServerConfig;
use tonic::Code;
use tonic::transport::Channel;

fn player(id: &str, rating: u32) -> proto::Player {
    proto::Player {
        id: id.to_string(),
        name: format!("Player {id}"),
        rating,
        ..proto::Player::default()
    }
}

/// Six players by rating: a → 1, b → 2, … f → 6.
fn round_robin_six() -> proto::Tournament {
    proto::Tournament {
        name: "Club RR".to_string(),
        system: proto::PairingSystem::RoundRobin as i32,
        total_rounds: 5,
        first_round_colour: proto::Colour::White as i32,
        players: ["c", "a", "f", "b", "e", "d"]
            .iter()
            .map(|id| {
                let rating = match *id {
                    "a" => 2500,
                    "b" => 2400,
                    "c" => 2300,
                    "d" => 2200,
                    "e" => 2100,
                    _ => 2000,
                };
                player(id, rating)
            })
            .collect(),
        ..proto::Tournament::default()
    }
}

fn pair_request(t: proto::Tournament) -> proto::PairRequest {
    proto::PairRequest {
        input: Some(proto::pair_request::Input::Tournament(t)),
        explanation_detail: proto::ExplanationDetail::Full as i32,
        ..proto::PairRequest::default()
    }
}

fn boards(r: &proto::PairResponse) -> Vec<(String, String)> {
    r.boards
        .iter()
        .map(|b| (b.white_id.clone(), b.black_id.clone()))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(w, b)| (w.to_string(), b.to_string()))
        .collect()
}

#[tokio::test]
async fn pairs_a_round_robin_and_reports_health() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;

    // Round 1 of the Berger table for six: 1-6, 2-5, 3-4.
    let r1 = client
        .pair(pair_request(round_robin_six()))
        .await
        .expect("round 1")
        .into_inner();
    assert_eq!(r1.round, 1);
    assert_eq!(boards(&r1), pairs(&[("a", "f"), ("b", "e"), ("c", "d")]));
    assert_eq!(
        r1.boards.iter().map(|b| b.number).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    assert_eq!(r1.boards[0].white_pairing_number, 1);
    assert!(r1.byes.is_empty());
    assert_eq!(r1.system, proto::PairingSystem::RoundRobin as i32);
    assert!(r1.engine_version.starts_with("swisspair "));
    let steps: Vec<&str> = r1
        .explanation
        .iter()
        .flat_map(|e| &e.groups)
        .flat_map(|g| &g.steps)
        .map(|s| s.rule_id.as_str())
        .collect();
    assert!(steps.contains(&"RR-1"), "explanation cites RR-1: {steps:?}");

    // Round 2 after round 1 was played, with f absent: 6-4 5-3 1-2 without f, so d has a bye.
    let mut t = round_robin_six();
    t.rounds.push(proto::Round {
        number: 1,
        games: r1
            .boards
            .iter()
            .map(|b| proto::Game {
                white_id: b.white_id.clone(),
                black_id: b.black_id.clone(),
                result: proto::GameResult::Draw as i32,
                board: b.number,
                not_rated: false,
            })
            .collect(),
        byes: Vec::new(),
    });
    let mut req = pair_request(t);
    req.requested_byes.push(proto::RequestedBye {
        player_id: "f".to_string(),
        kind: proto::ByeKind::HalfPoint as i32,
    });
    let r2 = client.pair(req).await.expect("round 2").into_inner();
    assert_eq!(r2.round, 2);
    assert_eq!(boards(&r2), pairs(&[("e", "c"), ("a", "b")]));
    let byes: Vec<(String, i32)> = r2
        .byes
        .iter()
        .map(|b| (b.player_id.clone(), b.kind))
        .collect();
    assert_eq!(
        byes,
        vec![
            ("f".to_string(), proto::ByeKind::HalfPoint as i32),
            ("d".to_string(), proto::ByeKind::Pab as i32)
        ]
    );
    assert_eq!(r2.byes[0].points, 0.5);

    // Health answers SERVING, for the server and for the pairing service.
    let channel = Channel::from_shared(server.addr.clone())
        .expect("uri")
        .connect()
        .await
        .expect("channel");
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
    for service in ["", "swisspair.v1.PairingService"] {
        let status = health
            .check(tonic_health::pb::HealthCheckRequest {
                service: service.to_string(),
            })
            .await
            .expect("health")
            .into_inner()
            .status;
        assert_eq!(
            status,
            tonic_health::pb::health_check_response::ServingStatus::Serving as i32,
            "{service:?}"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn same_request_gives_the_same_bytes() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let mut t = round_robin_six();
    t.first_round_colour = 0;
    t.options = Some(proto::SystemOptions {
        round_robin: Some(proto::RoundRobinOptions {
            order: proto::RoundRobinOrder::Lot as i32,
            ..proto::RoundRobinOptions::default()
        }),
        ..proto::SystemOptions::default()
    });
    let mut req = pair_request(t);
    req.seed = Some(42);
    let a = client.pair(req.clone()).await.expect("pair").into_inner();
    let b = client.pair(req.clone()).await.expect("pair").into_inner();
    assert_eq!(
        prost::Message::encode_to_vec(&a),
        prost::Message::encode_to_vec(&b)
    );
    // Another seed draws another table order.
    let mut orders = std::collections::BTreeSet::new();
    for seed in 0..8u64 {
        let mut r = req.clone();
        r.seed = Some(seed);
        orders.insert(boards(&client.pair(r).await.expect("pair").into_inner()));
    }
    assert!(orders.len() > 1);
    server.stop().await;
}

#[tokio::test]
async fn pairs_trf_text_checks_and_lists_systems() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let path = common::conformance_dir("round-robin").join("round-robin-0004.trf");
    let text = std::fs::read_to_string(&path).expect("corpus file");

    let systems = client
        .list_systems(proto::ListSystemsRequest {})
        .await
        .expect("list")
        .into_inner();
    let names: Vec<&str> = systems.systems.iter().map(|s| s.name.as_str()).collect();
    assert!(names.contains(&"round-robin"), "{names:?}");
    assert!(names.contains(&"dutch"), "{names:?}");
    assert!(names.contains(&"double-swiss"), "{names:?}");

    let check = client
        .check(proto::CheckRequest {
            input: Some(proto::check_request::Input::Trf(text.clone())),
            system: proto::PairingSystem::RoundRobin as i32,
            ..proto::CheckRequest::default()
        })
        .await
        .expect("check")
        .into_inner();
    assert_eq!((check.passed, check.failed), (5, 0));
    assert!(
        check
            .rounds
            .iter()
            .all(|r| r.matches && r.expected.len() == 3)
    );

    // The TRF's round 1 only: pair round 2 and compare with the file's round 2.
    let doc = swisspair::pairing::read_trf(&text).expect("trf");
    let mut first = doc.clone();
    first.tournament.rounds.truncate(1);
    let truncated = swisspair::pairing::write_trf(&first, swisspair::trf::Dialect::JaVaFo)
        .expect("writable as TRF");
    let answer = client
        .pair(proto::PairRequest {
            input: Some(proto::pair_request::Input::Trf(truncated)),
            system: proto::PairingSystem::RoundRobin as i32,
            ..proto::PairRequest::default()
        })
        .await
        .expect("pair")
        .into_inner();
    let recorded: Vec<(String, String)> = doc.tournament.rounds[1]
        .games
        .iter()
        .map(|g| {
            (
                doc.tournament.players[g.white].id.clone(),
                doc.tournament.players[g.black].id.clone(),
            )
        })
        .collect();
    let mut got = boards(&answer);
    let mut want = recorded;
    got.sort();
    want.sort();
    assert_eq!(got, want);
    server.stop().await;
}

#[tokio::test]
async fn standings_rejects_a_request_without_a_tournament() {
    // The RPC itself is tested in tests/standings_e2e.rs.
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let e = client
        .standings(proto::StandingsRequest::default())
        .await
        .expect_err("no input");
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(e.message().contains("input"), "{}", e.message());
    server.stop().await;
}

/// Sends a request and expects INVALID_ARGUMENT whose message names every culprit.
async fn expect_invalid(
    client: &mut PairingServiceClient<Channel>,
    req: proto::PairRequest,
    culprits: &[&str],
) {
    let status = client.pair(req).await.expect_err("the request is invalid");
    assert_eq!(status.code(), Code::InvalidArgument, "{}", status.message());
    for c in culprits {
        assert!(
            status.message().contains(c),
            "message {:?} should name {c:?}",
            status.message()
        );
    }
}

fn game(white: &str, black: &str) -> proto::Game {
    proto::Game {
        white_id: white.to_string(),
        black_id: black.to_string(),
        result: proto::GameResult::Draw as i32,
        board: 0,
        not_rated: false,
    }
}

fn with_round(games: Vec<proto::Game>) -> proto::Tournament {
    let mut t = round_robin_six();
    t.rounds.push(proto::Round {
        number: 1,
        games,
        byes: Vec::new(),
    });
    t
}

#[tokio::test]
async fn validation_unknown_player_id() {
    let server = Server::start(ServerConfig::default()).await;
    let mut c = server.client().await;
    let t = with_round(vec![game("a", "zz"), game("b", "e"), game("c", "d")]);
    expect_invalid(
        &mut c,
        pair_request(t),
        &["rounds[0].games[0].black_id", "\"zz\""],
    )
    .await;
    server.stop().await;
}

#[tokio::test]
async fn validation_duplicate_player_id() {
    let server = Server::start(ServerConfig::default()).await;
    let mut c = server.client().await;
    let mut t = round_robin_six();
    t.players.push(player("a", 1000));
    expect_invalid(
        &mut c,
        pair_request(t),
        &["players[6].id", "duplicate", "\"a\""],
    )
    .await;
    server.stop().await;
}

#[tokio::test]
async fn validation_player_twice_in_a_round() {
    let server = Server::start(ServerConfig::default()).await;
    let mut c = server.client().await;
    let t = with_round(vec![game("a", "f"), game("b", "a"), game("c", "d")]);
    expect_invalid(
        &mut c,
        pair_request(t),
        &["rounds[0].games[1].black_id", "round 1", "\"a\"", "twice"],
    )
    .await;
    server.stop().await;
}

#[tokio::test]
async fn validation_game_against_oneself() {
    let server = Server::start(ServerConfig::default()).await;
    let mut c = server.client().await;
    let t = with_round(vec![game("a", "a"), game("b", "e"), game("c", "d")]);
    expect_invalid(
        &mut c,
        pair_request(t),
        &["rounds[0].games[0]", "\"a\"", "against himself"],
    )
    .await;
    server.stop().await;
}

#[tokio::test]
async fn validation_round_to_pair_is_not_the_next() {
    let server = Server::start(ServerConfig::default()).await;
    let mut c = server.client().await;
    let mut req = pair_request(round_robin_six());
    req.round = 3;
    expect_invalid(&mut c, req, &["round:", "round 3", "next is round 1"]).await;
    server.stop().await;
}

#[tokio::test]
async fn validation_round_beyond_total_rounds() {
    let server = Server::start(ServerConfig::default()).await;
    let mut c = server.client().await;
    let mut t = round_robin_six();
    t.total_rounds = 1;
    t.rounds.push(proto::Round {
        number: 1,
        games: vec![game("a", "f"), game("b", "e"), game("c", "d")],
        byes: Vec::new(),
    });
    expect_invalid(&mut c, pair_request(t), &["round 2", "beyond", "1 rounds"]).await;
    server.stop().await;
}

#[tokio::test]
async fn validation_negative_and_non_finite_points() {
    let server = Server::start(ServerConfig::default()).await;
    let mut c = server.client().await;
    let mut t = round_robin_six();
    t.scoring = Some(proto::Scoring {
        win: Some(-1.0),
        draw: Some(f64::NAN),
        pab: Some(f64::INFINITY),
        ..proto::Scoring::default()
    });
    expect_invalid(
        &mut c,
        pair_request(t),
        &[
            "scoring.win",
            "negative",
            "scoring.draw",
            "scoring.pab",
            "finite",
            "3 problems",
        ],
    )
    .await;
    server.stop().await;
}

#[tokio::test]
async fn validation_result_on_a_bye() {
    let server = Server::start(ServerConfig::default()).await;
    let mut c = server.client().await;
    // TRF: a bye (0000) with a game result.
    let trf = "012 Bad\nXXR 3\n001    1      A                                 2000                             1.0    1  0000 - 1\n001    2      B                                 1900                             0.0    2  0000 - Z\n";
    let req = proto::PairRequest {
        input: Some(proto::pair_request::Input::Trf(trf.to_string())),
        system: proto::PairingSystem::RoundRobin as i32,
        ..proto::PairRequest::default()
    };
    expect_invalid(&mut c, req, &["trf", "line 3", "column 99", "on a bye"]).await;
    // Proto: a bye without a kind.
    let mut t = round_robin_six();
    t.rounds.push(proto::Round {
        number: 1,
        games: vec![game("a", "f"), game("b", "e")],
        byes: vec![proto::Bye {
            player_id: "c".to_string(),
            kind: 0,
        }],
    });
    expect_invalid(
        &mut c,
        pair_request(t),
        &["rounds[0].byes[0].kind", "\"c\""],
    )
    .await;
    server.stop().await;
}

#[tokio::test]
async fn validation_more_players_than_the_limit() {
    let mut config = ServerConfig::default();
    config.limits.max_players = 4;
    let server = Server::start(config).await;
    let mut c = server.client().await;
    expect_invalid(
        &mut c,
        pair_request(round_robin_six()),
        &["tournament.players", "6 players", "limit of 4"],
    )
    .await;
    server.stop().await;
}

#[tokio::test]
async fn validation_unknown_absent_and_bad_requested_bye() {
    let server = Server::start(ServerConfig::default()).await;
    let mut c = server.client().await;
    let mut req = pair_request(round_robin_six());
    req.absent_player_ids.push("nobody".to_string());
    req.requested_byes.push(proto::RequestedBye {
        player_id: "b".to_string(),
        kind: proto::ByeKind::Pab as i32,
    });
    expect_invalid(&mut c, req, &["absent_player_ids[0]", "\"nobody\""]).await;
    let mut req = pair_request(round_robin_six());
    req.requested_byes.push(proto::RequestedBye {
        player_id: "b".to_string(),
        kind: proto::ByeKind::Pab as i32,
    });
    expect_invalid(&mut c, req, &["requested_byes[0].kind", "\"b\""]).await;
    server.stop().await;
}

#[tokio::test]
async fn validation_missing_input_malformed_trf_and_unknown_system() {
    let server = Server::start(ServerConfig::default()).await;
    let mut c = server.client().await;
    expect_invalid(&mut c, proto::PairRequest::default(), &["input"]).await;
    let req = proto::PairRequest {
        input: Some(proto::pair_request::Input::Trf(
            "012 x\n001   x1      A\n".to_string(),
        )),
        ..proto::PairRequest::default()
    };
    expect_invalid(&mut c, req, &["line 2", "column 5", "starting rank"]).await;
    let mut t = round_robin_six();
    t.system = 999;
    expect_invalid(&mut c, pair_request(t), &["system", "999"]).await;
    server.stop().await;
}

#[tokio::test]
async fn validation_lists_every_problem_at_once() {
    let server = Server::start(ServerConfig::default()).await;
    let mut c = server.client().await;
    let mut t = with_round(vec![game("a", "a"), game("b", "ghost"), game("c", "d")]);
    t.players.push(player("c", 100));
    expect_invalid(
        &mut c,
        pair_request(t),
        &["duplicate", "\"ghost\"", "problems"],
    )
    .await;
    server.stop().await;
}

#[tokio::test]
async fn simulates_a_tournament_paired_by_the_system() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let req = proto::SimulateRequest {
        system: proto::PairingSystem::RoundRobin as i32,
        players: 7,
        rounds: 7,
        seed: 3,
        draw_rate: 0.2,
        ..proto::SimulateRequest::default()
    };
    let a = client
        .simulate(req.clone())
        .await
        .expect("simulate")
        .into_inner();
    let b = client
        .simulate(req.clone())
        .await
        .expect("simulate")
        .into_inner();
    assert_eq!(
        prost::Message::encode_to_vec(&a),
        prost::Message::encode_to_vec(&b)
    );
    let t = a.tournament.expect("tournament");
    assert_eq!(t.rounds.len(), 7);
    assert!(
        t.rounds
            .iter()
            .all(|r| r.games.len() == 3 && r.byes.len() == 1)
    );
    // The TRF is the same tournament, and checks clean against the system.
    let check = client
        .check(proto::CheckRequest {
            input: Some(proto::check_request::Input::Trf(a.trf)),
            system: proto::PairingSystem::RoundRobin as i32,
            ..proto::CheckRequest::default()
        })
        .await
        .expect("check")
        .into_inner();
    assert_eq!((check.passed, check.failed), (7, 0));
    // Bad settings are INVALID_ARGUMENT naming the field.
    let mut bad = req.clone();
    bad.system = 0;
    let e = client.simulate(bad).await.expect_err("no system");
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(e.message().contains("system"), "{}", e.message());
    let mut bad = req.clone();
    bad.draw_rate = 2.0;
    let e = client.simulate(bad).await.expect_err("bad rate");
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(e.message().contains("draw_rate"), "{}", e.message());
    server.stop().await;
}

#[tokio::test]
async fn validates_a_manual_pairing() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let mut t = round_robin_six();
    t.rounds.push(proto::Round {
        number: 1,
        games: vec![game("a", "f"), game("b", "e"), game("c", "d")],
        byes: Vec::new(),
    });
    let board = |w: &str, b: &str| proto::Board {
        white_id: w.to_string(),
        black_id: b.to_string(),
        ..proto::Board::default()
    };
    // a-f met in round 1: a rematch in a single round robin; b-c has not met but round 2 of
    // the Berger table pairs 6-4 5-3 1-2, so it is off the table (RR-1 fixes the pairs);
    // d and e are left.
    let req = proto::ValidatePairingRequest {
        input: Some(proto::validate_pairing_request::Input::Tournament(
            t.clone(),
        )),
        proposed: vec![board("a", "f"), board("b", "c")],
        ..proto::ValidatePairingRequest::default()
    };
    let answer = client
        .validate_pairing(req.clone())
        .await
        .expect("validate")
        .into_inner();
    assert_eq!(answer.round, 2);
    assert_eq!(answer.violations.len(), 2, "{:?}", answer.violations);
    assert_eq!(answer.violations[0].rule_id, "RR-1");
    assert_eq!(answer.violations[0].player_ids, vec!["a", "f"]);
    assert!(answer.violations[0].message.contains("already met"));
    assert_eq!(answer.violations[1].rule_id, "RR-1");
    assert_eq!(answer.violations[1].player_ids, vec!["b", "c"]);
    assert!(
        answer.violations[1]
            .message
            .contains("do not meet in round 2")
    );
    assert_eq!(answer.unpaired_ids, vec!["d", "e"]);
    // Completed by the system (round 2 of the table: 6-4 5-3 1-2): nobody is left.
    let mut complete = req.clone();
    complete.proposed = vec![board("a", "b")];
    complete.complete = true;
    let answer = client
        .validate_pairing(complete)
        .await
        .expect("validate")
        .into_inner();
    assert!(answer.violations.is_empty(), "{:?}", answer.violations);
    assert!(answer.unpaired_ids.is_empty());
    assert_eq!(answer.boards.len(), 3);
    // Unknown ids are INVALID_ARGUMENT naming the field.
    let mut bad = req;
    bad.proposed_bye_ids.push("nobody".to_string());
    let e = client.validate_pairing(bad).await.expect_err("unknown id");
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(
        e.message().contains("proposed_bye_ids[0]"),
        "{}",
        e.message()
    );
    server.stop().await;
}

/// Answers far larger than a connection's write buffer (`coalesced_writes.rs` holds up to
/// 64 KiB), several at once on one connection, beside small ones: each arrives whole and
/// the same as alone.
#[tokio::test]
async fn large_and_small_answers_at_once_on_one_connection_arrive_whole() {
    let server = Server::start(ServerConfig::default()).await;
    let client = server.client().await;
    let simulated = client
        .clone()
        .simulate(proto::SimulateRequest {
            system: proto::PairingSystem::Buchholz as i32,
            players: 1_500,
            rounds: 2,
            seed: 5,
            draw_rate: 0.2,
            ..proto::SimulateRequest::default()
        })
        .await
        .expect("simulate")
        .into_inner();
    let mut played = simulated.tournament.expect("tournament");
    played.total_rounds = 5;
    let mut large = pair_request(played);
    large.system = proto::PairingSystem::Buchholz as i32;
    let small = pair_request(round_robin_six());
    let alone = |req: proto::PairRequest| {
        let mut c = client.clone();
        async move { c.pair(req).await.expect("pair").into_inner() }
    };
    let (large_alone, small_alone) = (alone(large.clone()).await, alone(small.clone()).await);
    let large_bytes = prost::Message::encode_to_vec(&large_alone);
    assert!(
        large_bytes.len() > 2 * swisspair::service::coalesced_writes::HOLD_AT_MOST,
        "{} bytes",
        large_bytes.len()
    );
    assert_eq!(large_alone.boards.len(), 750);
    let calls: Vec<_> = (0..12)
        .map(|i| {
            let req = if i % 3 == 0 {
                large.clone()
            } else {
                small.clone()
            };
            tokio::spawn(alone(req))
        })
        .collect();
    for (i, call) in calls.into_iter().enumerate() {
        let answer = prost::Message::encode_to_vec(&call.await.expect("call"));
        let expected = if i % 3 == 0 {
            large_bytes.clone()
        } else {
            prost::Message::encode_to_vec(&small_alone)
        };
        assert_eq!(answer, expected, "call {i}");
    }
    server.stop().await;
}
