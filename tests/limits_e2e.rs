//! Limits on every input (issue 24): a text or a count beyond its limit is
//! `INVALID_ARGUMENT` naming the field, over gRPC (proto tournament, `trf`, `trf_bytes`);
//! bytes that are not a TRF say so and show the first line that could not be read.
mod common;

use std::collections::HashMap;

use common::server::Server;
use swisspair::model::limits;
use swisspair::proto;
use swisspair::proto::pairing_service_client::PairingServiceClient;
use swisspair::service::ServerConfig;
use tonic::Code;
use tonic::transport::Channel;
use tonic_types::StatusExt as _;

fn player(id: &str) -> proto::Player {
    proto::Player {
        id: id.to_string(),
        name: format!("Player {id}"),
        rating: 2000,
        ..proto::Player::default()
    }
}

fn four_players() -> proto::Tournament {
    proto::Tournament {
        system: proto::PairingSystem::Dutch as i32,
        total_rounds: 3,
        players: ["a", "b", "c", "d"].iter().map(|id| player(id)).collect(),
        ..proto::Tournament::default()
    }
}

fn tournament(t: proto::Tournament) -> proto::PairRequest {
    proto::PairRequest {
        input: Some(proto::pair_request::Input::Tournament(t)),
        ..proto::PairRequest::default()
    }
}

fn trf(text: &str) -> proto::PairRequest {
    proto::PairRequest {
        input: Some(proto::pair_request::Input::Trf(text.to_string())),
        ..proto::PairRequest::default()
    }
}

fn trf_bytes(bytes: &[u8]) -> proto::PairRequest {
    proto::PairRequest {
        input: Some(proto::pair_request::Input::TrfBytes(bytes.to_vec())),
        ..proto::PairRequest::default()
    }
}

fn long(n: usize) -> String {
    "x".repeat(n)
}

const TRF: &str = "012 Test\n\
XXR 3\n\
001    1      Alpha                             1800                             0.0    1\n\
001    2      Beta                              1700                             0.0    2\n\
XXO system=dutch\n";

/// Pairs `req` and expects `INVALID_ARGUMENT` with a violation at `field` whose
/// description (and the status message) contain every one of `words`.
async fn refused(
    client: &mut PairingServiceClient<Channel>,
    what: &str,
    req: proto::PairRequest,
    field: &str,
    words: &[&str],
) {
    let status = client.pair(req).await.expect_err(what);
    assert_eq!(status.code(), Code::InvalidArgument, "{what}: {status:?}");
    assert!(
        status.message().len() < 4096,
        "{what}: the message repeats the long text ({} bytes)",
        status.message().len()
    );
    for w in words {
        assert!(
            status.message().contains(w),
            "{what}: {:?} lacks {w:?}",
            status.message()
        );
    }
    let details = status.get_error_details();
    let bad = details.bad_request().expect("a BadRequest");
    let violation = bad
        .field_violations
        .iter()
        .find(|v| v.field == field)
        .unwrap_or_else(|| {
            panic!(
                "{what}: no violation at {field}: {:?}",
                bad.field_violations
            )
        });
    for w in words {
        assert!(
            violation.description.contains(w),
            "{what}: {violation:?} lacks {w:?}"
        );
    }
}

#[tokio::test]
async fn every_text_and_count_of_a_tournament_has_a_limit() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;

    // Exactly at each limit is accepted.
    let mut t = four_players();
    t.name = long(limits::MAX_NAME_CHARS);
    t.total_rounds = limits::MAX_ROUNDS;
    t.players[0].name = long(limits::MAX_NAME_CHARS);
    t.players[1].id = long(limits::MAX_ID_CHARS);
    client.pair(tournament(t)).await.expect("at the limits");

    let mut t = four_players();
    t.players[3].name = long(1 << 20);
    refused(
        &mut client,
        "name",
        tournament(t),
        "tournament.players[3].name",
        &["player \"d\"", "name", "1048576 characters", "256"],
    )
    .await;

    let mut t = four_players();
    t.players[2].id = long(limits::MAX_ID_CHARS + 1);
    refused(
        &mut client,
        "id",
        tournament(t),
        "tournament.players[2].id",
        &["65 characters", "64"],
    )
    .await;

    let mut t = four_players();
    t.players[1].federation = long(100);
    refused(
        &mut client,
        "federation",
        tournament(t),
        "tournament.players[1].federation",
        &["player \"b\"", "16"],
    )
    .await;

    let mut t = four_players();
    t.name = long(257);
    refused(
        &mut client,
        "tournament name",
        tournament(t),
        "tournament.name",
        &["tournament name", "257 characters"],
    )
    .await;

    let mut t = four_players();
    t.total_rounds = 4_000_000_000;
    refused(
        &mut client,
        "rounds",
        tournament(t),
        "tournament.total_rounds",
        &["4000000000", "999"],
    )
    .await;

    let mut t = four_players();
    t.players[0].withdrawn_from_round = 5000;
    refused(
        &mut client,
        "withdrawal",
        tournament(t),
        "tournament.players[0].withdrawn_from_round",
        &["player \"a\"", "5000", "999"],
    )
    .await;

    let mut t = four_players();
    t.accelerations.push(proto::Acceleration {
        player_id: "a".into(),
        first_round: 1,
        last_round: 1_000_000,
        points: 1.0,
    });
    refused(
        &mut client,
        "acceleration",
        tournament(t),
        "tournament.accelerations[0].last_round",
        &["player \"a\"", "1000000", "999"],
    )
    .await;

    let mut t = four_players();
    t.options = Some(proto::SystemOptions {
        values: HashMap::from([("edition".to_string(), long(300))]),
        ..proto::SystemOptions::default()
    });
    refused(
        &mut client,
        "option value",
        tournament(t),
        "tournament.options.values[\"edition\"]",
        &["option \"edition\"", "300 characters", "256"],
    )
    .await;

    let mut t = four_players();
    t.options = Some(proto::SystemOptions {
        values: HashMap::from([(long(65), "1".to_string())]),
        ..proto::SystemOptions::default()
    });
    let status = client.pair(tournament(t)).await.expect_err("option name");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(
        status.message().contains("option name is 65 characters"),
        "{status:?}"
    );

    let mut t = four_players();
    t.teams.push(proto::Team {
        id: "t1".into(),
        name: long(1000),
        member_ids: vec!["a".into(), "b".into()],
        ..proto::Team::default()
    });
    refused(
        &mut client,
        "team name",
        tournament(t),
        "tournament.teams[0].name",
        &["team \"t1\"", "1000 characters"],
    )
    .await;

    let mut t = four_players();
    t.team_settings = Some(proto::TeamSettings {
        boards: 5000,
        forfeits: vec![proto::TeamForfeit {
            round: 70_000,
            ..proto::TeamForfeit::default()
        }],
        ..proto::TeamSettings::default()
    });
    refused(
        &mut client,
        "boards",
        tournament(t.clone()),
        "tournament.team_settings.boards",
        &["5000", "100"],
    )
    .await;
    refused(
        &mut client,
        "forfeit round",
        tournament(t),
        "tournament.team_settings.forfeits[0].round",
        &["70000", "999"],
    )
    .await;

    // An unknown id elsewhere is not repeated whole either.
    let mut t = four_players();
    t.forbidden_pairings.push(proto::ForbiddenPairing {
        player_ids: vec!["a".into(), long(64)],
        ..proto::ForbiddenPairing::default()
    });
    let status = client.pair(tournament(t)).await.expect_err("unknown id");
    assert!(status.message().contains("unknown player id"), "{status:?}");
    server.stop().await;
}

#[tokio::test]
async fn a_trf_field_beyond_its_limit_is_refused_with_its_line() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    client.pair(trf(TRF)).await.expect("a good TRF pairs");

    let text = TRF.replace("012 Test", &format!("012 {}", long(300)));
    refused(
        &mut client,
        "012",
        trf(&text),
        "trf",
        &["line 1", "tournament name is 300 characters"],
    )
    .await;

    let text = TRF.replace("XXR 3", "XXR 4000000000");
    refused(
        &mut client,
        "XXR",
        trf(&text),
        "trf",
        &["line 2", "number of rounds is 4000000000", "999"],
    )
    .await;

    let text = format!("{TRF}XXO edition={}\n", long(300));
    refused(
        &mut client,
        "XXO",
        trf_bytes(text.as_bytes()),
        "trf",
        &["line 6", "option \"edition\"", "300 characters"],
    )
    .await;
    server.stop().await;
}

#[tokio::test]
async fn bytes_that_are_not_a_trf_say_so() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let words = [
        "not a TRF: no player (001) line",
        "line 1",
        "\"<html><body>hello wo\"",
    ];
    let html = "<html><body>hello world</body></html>\nmore\n";
    refused(&mut client, "trf", trf(html), "trf", &words).await;
    refused(
        &mut client,
        "trf_bytes",
        trf_bytes(html.as_bytes()),
        "trf",
        &words,
    )
    .await;
    let status = client.pair(trf(html)).await.expect_err("not a TRF");
    assert!(!status.message().contains("no players"), "{status:?}");
    assert!(
        !status.message().contains("line 2"),
        "one line only: {status:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_simulation_has_the_same_limits() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let base = proto::SimulateRequest {
        system: proto::PairingSystem::Dutch as i32,
        players: 6,
        rounds: 3,
        ..proto::SimulateRequest::default()
    };
    client
        .simulate(base.clone())
        .await
        .expect("a small simulation");
    let cases = [
        (
            proto::SimulateRequest {
                rounds: 4_000_000_000,
                ..base.clone()
            },
            "rounds",
            "number of rounds is 4000000000, more than the limit of 999",
        ),
        (
            proto::SimulateRequest {
                options: Some(proto::SystemOptions {
                    values: HashMap::from([("edition".to_string(), long(1 << 20))]),
                    ..proto::SystemOptions::default()
                }),
                ..base.clone()
            },
            "tournament.options.values[\"edition\"]",
            "option \"edition\": the option value is 1048576 characters",
        ),
    ];
    for (req, field, what) in cases {
        let status = client.simulate(req).await.expect_err(field);
        assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
        assert!(status.message().contains(what), "{status:?}");
        assert!(
            status.message().len() < 4096,
            "{field}: the long text is repeated"
        );
        let details = status.get_error_details();
        let bad = details.bad_request().expect("a BadRequest");
        assert!(
            bad.field_violations.iter().any(|v| v.field == field),
            "{:?}",
            bad.field_violations
        );
    }
    server.stop().await;
}
