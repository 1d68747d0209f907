//! The pairing pipeline (`swisspair::pairing`) as every request path reaches it: through
//! gRPC, the CLI and the library alike, the system is resolved once, its options checked,
//! and pairing numbers assigned in one place (so a system can tell whether the snapshot
//! gave them).
mod common;

use common::server::Server;
use swisspair::model::{SystemId, Tournament};
use swisspair::proto;
use swisspair::service::ServerConfig;
use swisspair::systems::{PairError, PairOptions};
use tonic::Code;

fn player(id: &str, rating: u32, pairing_number: Option<u32>) -> proto::Player {
    proto::Player {
        id: id.to_string(),
        name: format!("Player {id}"),
        rating,
        pairing_number,
        ..proto::Player::default()
    }
}

/// Eight players of distinct ratings, with or without pairing numbers.
fn eight(system: proto::PairingSystem, numbered: bool) -> proto::Tournament {
    proto::Tournament {
        name: "pipeline".to_string(),
        system: system as i32,
        total_rounds: 5,
        first_round_colour: proto::Colour::White as i32,
        players: (1..=8u32)
            .map(|i| player(&format!("p{i}"), 2500 - 50 * i, numbered.then_some(i)))
            .collect(),
        ..proto::Tournament::default()
    }
}

fn request(t: proto::Tournament) -> proto::PairRequest {
    proto::PairRequest {
        input: Some(proto::pair_request::Input::Tournament(t)),
        explanation_detail: proto::ExplanationDetail::Full as i32,
        seed: Some(11),
        ..proto::PairRequest::default()
    }
}

fn bh1_messages(r: &proto::PairResponse) -> Vec<String> {
    r.explanation
        .iter()
        .flat_map(|e| &e.groups)
        .flat_map(|g| &g.steps)
        .filter(|s| s.rule_id == "BH-1")
        .map(|s| s.message.clone())
        .collect()
}

/// BH-1: without pairing numbers in the snapshot, Vega's Buchholz draws identification
/// numbers by a seeded lot. Before the pipeline, the service assigned CG-2 numbers first,
/// so the lot was never drawn and the answer said "the pairing numbers given".
#[tokio::test]
async fn buchholz_draws_its_lot_through_grpc_when_no_numbers_are_given() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let drawn = client
        .pair(request(eight(proto::PairingSystem::Buchholz, false)))
        .await
        .expect("pairs")
        .into_inner();
    let messages = bh1_messages(&drawn);
    assert!(
        messages
            .iter()
            .any(|m| m.contains("drawn by lot (seed 11)")),
        "{messages:?}"
    );
    // The same request again: the same bytes (the lot comes from the seed only).
    let again = client
        .pair(request(eight(proto::PairingSystem::Buchholz, false)))
        .await
        .expect("pairs")
        .into_inner();
    assert_eq!(drawn, again);
    // With pairing numbers given, they are the identification numbers.
    let given = client
        .pair(request(eight(proto::PairingSystem::Buchholz, true)))
        .await
        .expect("pairs")
        .into_inner();
    let messages = bh1_messages(&given);
    assert!(
        messages.iter().any(|m| m.contains("pairing numbers given")),
        "{messages:?}"
    );
    server.stop().await;
}

/// The library entry point answers the same, and says which numbers it presented.
#[test]
fn the_pipeline_returns_the_numbered_snapshot_and_the_rule_set() {
    let mut t = Tournament {
        system: Some(SystemId::Buchholz),
        total_rounds: 5,
        lot_seed: 3,
        ..Tournament::default()
    };
    for i in 1..=6u32 {
        t.players.push(swisspair::model::Player {
            id: format!("p{i}"),
            name: format!("Player {i}"),
            rating: 2000 + i,
            ..swisspair::model::Player::default()
        });
    }
    let answer = swisspair::pairing::pair(&t, &PairOptions::default()).expect("pairs");
    assert_eq!(answer.system, SystemId::Buchholz);
    assert!(!answer.rule_set.is_empty());
    // CG-2: rating descending, so p6 is number 1 in the presented snapshot.
    assert_eq!(answer.tournament.pairing_number(5), 1);
    assert!(
        answer
            .tournament
            .players
            .iter()
            .all(|p| p.pairing_number.is_some())
    );
    let bh1: Vec<_> = answer
        .pairing
        .explanation
        .groups
        .iter()
        .flat_map(|g| &g.steps)
        .filter(|s| s.rule_id == "BH-1")
        .collect();
    assert!(
        bh1.iter().any(|s| s.message.contains("drawn by lot")),
        "{bh1:?}"
    );
}

/// An option of another system is refused with its name, never silently ignored.
#[tokio::test]
async fn an_option_of_another_system_is_invalid_argument_through_grpc() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let mut t = eight(proto::PairingSystem::Dutch, true);
    t.options = Some(proto::SystemOptions {
        amalfi: Some(proto::AmalfiOptions {
            profile: proto::AmalfiProfile::Javapairing as i32,
        }),
        ..proto::SystemOptions::default()
    });
    let status = client.pair(request(t)).await.expect_err("refused");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(
        status.message().contains("options.profile") && status.message().contains("dutch"),
        "{}",
        status.message()
    );
    // An enum value this build does not know is refused too.
    let mut t = eight(proto::PairingSystem::Amalfi, true);
    t.options = Some(proto::SystemOptions {
        amalfi: Some(proto::AmalfiOptions { profile: 99 }),
        ..proto::SystemOptions::default()
    });
    let status = client.pair(request(t)).await.expect_err("refused");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(
        status.message().contains("amalfi.profile"),
        "{}",
        status.message()
    );
    server.stop().await;
}

#[test]
fn an_option_of_another_system_is_exit_3_on_the_command_line() {
    let file = common::conformance_dir("dutch").join("dutch-0001.trf");
    let path = file.to_string_lossy();
    let (code, _, err) = common::swisspair(&["pair", "--dutch", &path, "--option", "profile=FSI"]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("option profile does not apply to system dutch"),
        "{err}"
    );
    // The same option where it applies is accepted.
    let (code, _, err) = common::swisspair(&[
        "check",
        "--system",
        "amalfi",
        &path,
        "--option",
        "profile=FSI",
    ]);
    assert!(code == 0 || code == 1, "{err}");
}

/// The CLI and gRPC print the pair list from the same response: `client pair` through a
/// server and the local `pair -p` give the same bytes.
#[tokio::test]
async fn local_and_client_pair_lists_are_the_same_bytes() {
    let server = Server::start(ServerConfig::default()).await;
    // The corpus file with its last rounds taken off, so that there is a round to pair.
    let text = std::fs::read_to_string(common::conformance_dir("dutch").join("dutch-0002.trf"))
        .expect("readable");
    let mut doc = swisspair::pairing::read_trf(&text).expect("valid");
    doc.tournament.rounds.truncate(3);
    let written =
        swisspair::pairing::write_trf(&doc, swisspair::trf::Dialect::JaVaFo).expect("writes");
    let file = std::env::temp_dir().join(format!("swisspair-pipeline-{}.trf", std::process::id()));
    std::fs::write(&file, written).expect("writable");
    let path = file.to_string_lossy().into_owned();
    let addr = server.addr.clone();
    let (local, remote) = tokio::task::spawn_blocking(move || {
        (
            common::swisspair(&["pair", "--dutch", &path, "-p"]),
            common::swisspair(&["client", "--addr", &addr, "pair", "--dutch", &path]),
        )
    })
    .await
    .expect("runs");
    assert_eq!(local.0, 0, "{}", local.2);
    assert_eq!(remote.0, 0, "{}", remote.2);
    assert_eq!(local.1, remote.1);
    assert!(local.1.lines().count() > 1);
    let _ = std::fs::remove_file(&file);
    server.stop().await;
}

/// An engine fault is INTERNAL (CLI exit 2), not "no legal pairing".
#[test]
fn an_internal_fault_is_internal() {
    let status = tonic::Status::from(PairError::Internal("broken invariant".to_string()));
    assert_eq!(status.code(), Code::Internal);
    let status = tonic::Status::from(PairError::NoLegalPairing {
        rule: "C.04.3 C4".to_string(),
        message: "x".to_string(),
        explanation: Default::default(),
    });
    assert_eq!(status.code(), Code::FailedPrecondition);
}

/// Check refuses a first round after the last.
#[test]
fn check_with_first_round_after_last_is_invalid() {
    let text = std::fs::read_to_string(common::conformance_dir("dutch").join("dutch-0001.trf"))
        .expect("readable");
    let t = swisspair::pairing::read_trf(&text)
        .expect("valid")
        .tournament;
    let options = swisspair::check::CheckOptions {
        system: Some(SystemId::Dutch),
        first_round: Some(4),
        last_round: Some(2),
        seed: None,
        checklist: false,
        other_readings: false,
    };
    assert!(matches!(
        swisspair::check::run(&t, &options),
        Err(PairError::Invalid(_))
    ));
}

/// Options travel as text by name (`SystemOptions.values`), each parsed by the system that
/// reads it: a value it refuses is INVALID_ARGUMENT naming the option.
#[tokio::test]
async fn options_by_name_are_parsed_by_their_system() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let with = |name: &str, value: &str| {
        let mut t = eight(proto::PairingSystem::RoundRobin, true);
        t.total_rounds = 14;
        t.options = Some(proto::SystemOptions {
            values: [(name.to_string(), value.to_string())]
                .into_iter()
                .collect(),
            ..proto::SystemOptions::default()
        });
        request(t)
    };
    let double = client.pair(with("cycles", "2")).await.expect("pairs");
    assert_eq!(double.get_ref().boards.len(), 4);
    let status = client
        .pair(with("cycles", "two"))
        .await
        .expect_err("refused");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(
        status.message().contains("options.cycles") && status.message().contains("whole number"),
        "{}",
        status.message()
    );
    let status = client
        .pair(with("colour", "green"))
        .await
        .expect_err("refused");
    assert!(
        status
            .message()
            .contains("option colour does not apply to system round-robin"),
        "{}",
        status.message()
    );
    // A simulated tournament goes back as a Pair request as it came (only the options it
    // set travel with it).
    let sim = client
        .simulate(proto::SimulateRequest {
            system: proto::PairingSystem::RoundRobin as i32,
            players: 6,
            rounds: 3,
            seed: 4,
            options: Some(proto::SystemOptions {
                values: [("order".to_string(), "LOT".to_string())]
                    .into_iter()
                    .collect(),
                ..proto::SystemOptions::default()
            }),
            ..proto::SimulateRequest::default()
        })
        .await
        .expect("simulates")
        .into_inner();
    let mut t = sim.tournament.expect("a tournament");
    t.total_rounds = 5;
    // The simulation's own seed (its lot_seed) seated the table: no seed override here.
    let mut req = request(t);
    req.seed = None;
    let next = client.pair(req).await.expect("pairs round 4");
    assert_eq!(next.get_ref().round, 4);
    server.stop().await;
}

/// FIDE's verification (VCL4THP Q174, Q177-179): a second half-point bye and a full-point
/// bye are paired all the same, with the checklist's warnings naming the player.
#[test]
fn a_second_half_point_bye_and_a_full_point_bye_are_warned() {
    use swisspair::model::{ByeKind, SystemId};
    use swisspair::simulate::plan::Planned;
    use swisspair::simulate::{SimConfig, simulate};
    use swisspair::systems::PairOptions;
    let mut c = SimConfig::new(SystemId::Dutch, 12, 2, 8);
    c.half_point_byes = vec![Planned::count(1).in_round(1)];
    let mut t = simulate(&c).expect("simulates");
    t.total_rounds = 5;
    let had = t.rounds[0]
        .byes
        .iter()
        .find(|b| b.kind == ByeKind::HalfPoint)
        .map(|b| b.player)
        .expect("a half-point bye in round 1");
    let other = (0..t.players.len())
        .find(|&p| p != had && !t.rounds[0].byes.iter().any(|b| b.player == p))
        .expect("another player");
    let third = (0..t.players.len())
        .find(|&p| p != had && p != other && !t.rounds[0].byes.iter().any(|b| b.player == p))
        .expect("a third player");
    let options = PairOptions {
        system: Some(SystemId::Dutch),
        requested_byes: vec![
            (had, ByeKind::HalfPoint),
            (other, ByeKind::HalfPoint),
            (third, ByeKind::FullPoint),
        ],
        ..PairOptions::default()
    };
    let answer = swisspair::pairing::pair(&t, &options).expect("pairs");
    let named = |code: &str| -> Vec<usize> {
        answer
            .pairing
            .warnings
            .iter()
            .filter(|w| w.code == code)
            .flat_map(|w| w.players.clone())
            .collect()
    };
    assert_eq!(named("SECOND_HALF_POINT_BYE"), vec![had]);
    assert_eq!(named("FULL_POINT_BYE"), vec![third]);
}
