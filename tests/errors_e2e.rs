//! The gRPC error model: every refusal keeps its human message and carries
//! machine-readable details (`google.rpc` `BadRequest` and `ErrorInfo`), and requests that
//! cannot be answered are refused with the right code instead of an empty OK.
mod common;

use common::server::Server;
use swisspair::proto;
use swisspair::service::ServerConfig;
use tonic::Code;
use tonic_types::StatusExt as _;

fn player(id: &str, rating: u32) -> proto::Player {
    proto::Player {
        id: id.to_string(),
        name: format!("Player {id}"),
        rating,
        ..proto::Player::default()
    }
}

fn request(t: proto::Tournament) -> proto::PairRequest {
    proto::PairRequest {
        input: Some(proto::pair_request::Input::Tournament(t)),
        ..proto::PairRequest::default()
    }
}

fn two_players(system: proto::PairingSystem) -> proto::Tournament {
    proto::Tournament {
        system: system as i32,
        total_rounds: 3,
        first_round_colour: proto::Colour::White as i32,
        players: vec![player("a", 2000), player("b", 1900)],
        ..proto::Tournament::default()
    }
}

#[tokio::test]
async fn invalid_input_carries_a_bad_request_and_a_stable_reason() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let mut req = request(two_players(proto::PairingSystem::Dutch));
    req.absent_player_ids = vec!["zz".to_string()];
    let status = client.pair(req).await.expect_err("refused");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("unknown player id \"zz\""));
    let details = status.get_error_details();
    let bad = details.bad_request().expect("a BadRequest");
    assert_eq!(bad.field_violations.len(), 1);
    assert_eq!(bad.field_violations[0].field, "absent_player_ids[0]");
    let info = details.error_info().expect("an ErrorInfo");
    assert_eq!(info.reason, "UNKNOWN_PLAYER");
    assert_eq!(info.domain, "swisspair");
    server.stop().await;
}

#[tokio::test]
async fn no_legal_pairing_names_its_rule_in_the_details() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    // Two players who have met: the Dutch system cannot pair them again (C1).
    let mut t = two_players(proto::PairingSystem::Dutch);
    t.rounds.push(proto::Round {
        games: vec![proto::Game {
            white_id: "a".to_string(),
            black_id: "b".to_string(),
            result: proto::GameResult::Draw as i32,
            board: 1,
            not_rated: false,
        }],
        ..proto::Round::default()
    });
    let status = client.pair(request(t)).await.expect_err("refused");
    assert_eq!(status.code(), Code::FailedPrecondition);
    let details = status.get_error_details();
    let info = details.error_info().expect("an ErrorInfo");
    assert_eq!(info.reason, "NO_LEGAL_PAIRING");
    assert!(
        info.metadata.get("rule_id").is_some_and(|r| !r.is_empty()),
        "{:?}",
        info.metadata
    );
    server.stop().await;
}

#[tokio::test]
async fn requests_that_cannot_be_answered_are_invalid_not_ok() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    // An empty tournament.
    let mut empty = two_players(proto::PairingSystem::RoundRobin);
    empty.players.clear();
    let status = client
        .pair(request(empty.clone()))
        .await
        .expect_err("refused");
    assert_eq!(status.code(), Code::InvalidArgument, "{}", status.message());
    let status = client
        .check(proto::CheckRequest {
            input: Some(proto::check_request::Input::Tournament(empty)),
            ..proto::CheckRequest::default()
        })
        .await
        .expect_err("refused");
    assert_eq!(status.code(), Code::InvalidArgument, "{}", status.message());
    // Pairing numbers on only some players.
    let mut some = two_players(proto::PairingSystem::RoundRobin);
    some.players[0].pairing_number = Some(1);
    let status = client.pair(request(some)).await.expect_err("refused");
    assert_eq!(status.code(), Code::InvalidArgument, "{}", status.message());
    assert!(
        status.message().contains("pairing number"),
        "{}",
        status.message()
    );
    // Check with the first round after the last.
    let status = client
        .check(proto::CheckRequest {
            input: Some(proto::check_request::Input::Tournament(two_players(
                proto::PairingSystem::RoundRobin,
            ))),
            first_round: 3,
            last_round: 1,
            ..proto::CheckRequest::default()
        })
        .await
        .expect_err("refused");
    assert_eq!(status.code(), Code::InvalidArgument);
    // Simulate with no rounds, or one player.
    for (players, rounds, field) in [(10, 0, "rounds"), (1, 3, "players")] {
        let status = client
            .simulate(proto::SimulateRequest {
                system: proto::PairingSystem::RoundRobin as i32,
                players,
                rounds,
                ..proto::SimulateRequest::default()
            })
            .await
            .expect_err("refused");
        assert_eq!(status.code(), Code::InvalidArgument);
        let details = status.get_error_details();
        let bad = details.bad_request().expect("a BadRequest");
        assert_eq!(bad.field_violations[0].field, field);
    }
    server.stop().await;
}

/// A request over the server's message limit is `RESOURCE_EXHAUSTED`.
#[tokio::test]
async fn a_message_over_the_limit_is_resource_exhausted() {
    let config = ServerConfig {
        max_message_bytes: 2_000,
        ..ServerConfig::default()
    };
    let server = Server::start(config).await;
    let mut client = server.client().await;
    let mut t = two_players(proto::PairingSystem::RoundRobin);
    for i in 0..200 {
        t.players.push(player(&format!("extra-{i}"), 1500));
    }
    let status = client.pair(request(t)).await.expect_err("refused");
    assert_eq!(
        status.code(),
        Code::ResourceExhausted,
        "{}",
        status.message()
    );
    server.stop().await;
}
