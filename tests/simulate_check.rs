//! A simulation's TRF is checked alone: the seed, the system and the options it was paired
//! with are in the file (swisspair's `XXO` record), so `check` re-pairs every round the same
//! without being told them again.
mod common;

use common::swisspair;
use swisspair::model::SystemId;
use swisspair::systems;
use swisspair::trf;

/// (system, players, rounds, extra options) for every implemented system.
fn cases() -> Vec<(SystemId, u32, u32, Vec<&'static str>)> {
    systems::implemented()
        .iter()
        .map(|s| {
            let id = s.info().id;
            match id {
                SystemId::Backgammon => (id, 12, 3, vec!["--option", "match_length=7"]),
                SystemId::RoundRobin => (id, 7, 7, vec!["--option", "order=LOT"]),
                SystemId::Amalfi => (id, 14, 5, vec!["--option", "profile=JAVAPAIRING"]),
                SystemId::Simple => (id, 14, 5, vec!["--option", "float_history=IGNORED"]),
                SystemId::DoubleSwiss => (id, 14, 6, Vec::new()),
                // A bracket of 16: 4 rounds (KO-1), with its consolation (KO-4).
                SystemId::Knockout => (id, 14, 4, vec!["--option", "consolation=true"]),
                // Two teams of 7, the double: 14 rounds (SCH-4).
                SystemId::Scheveningen => (id, 14, 14, vec!["--option", "cycles=2"]),
                _ => (id, 14, 5, Vec::new()),
            }
        })
        .collect()
}

#[test]
fn simulate_then_check_agrees_for_every_system() {
    let dir = std::env::temp_dir();
    for (id, players, rounds, options) in cases() {
        let path = dir.join(format!(
            "swisspair-simcheck-{}-{}.trf",
            std::process::id(),
            id.name()
        ));
        let p = path.to_str().expect("path");
        let (players, rounds) = (players.to_string(), rounds.to_string());
        let mut args = vec![
            "simulate",
            "--system",
            id.name(),
            "--players",
            &players,
            "--rounds",
            &rounds,
            "--seed",
            "987654321",
            "--forfeit-rate",
            "0.05",
            "-o",
            p,
        ];
        if id != SystemId::Backgammon && id != SystemId::RoundRobin {
            args.extend(["--bye-rate", "0.05"]);
        }
        args.extend(options.iter().copied());
        let (code, _, err) = swisspair(&args);
        assert_eq!(code, 0, "{}: simulate: {err}", id.name());
        let text = std::fs::read_to_string(&path).expect("written");
        assert!(text.contains("XXO seed=987654321"), "{}: {text}", id.name());
        // TRF-26 (the default format): the initial colour is record 152.
        if id == SystemId::Backgammon {
            assert!(
                !text.contains("\n152 "),
                "backgammon has no colours: {text}"
            );
        } else {
            assert!(text.contains("\n152 "), "{}: {text}", id.name());
        }
        // No --system, no --seed, no --option: the file says them.
        let (code, out, err) = swisspair(&["check", p]);
        assert_eq!(code, 0, "{}: check: {out}{err}", id.name());
        // The checker re-pairs the first game of each match (Double-Swiss: two games).
        let games = systems::find(id).map_or(1, |s| s.games_per_match().max(1));
        let checked = rounds.parse::<u32>().unwrap_or(0) / games;
        let expected = format!("{checked} passed, 0 failed");
        assert!(out.contains(&expected), "{}: {out}", id.name());
        let _ = std::fs::remove_file(&path);
    }
}

/// The `XXC` of a simulated round robin is the colour pairing number 1 really had in round 1.
#[test]
fn round_robin_simulation_records_the_colour_played() {
    for seed in 1..=8u64 {
        let mut config = swisspair::simulate::SimConfig::new(SystemId::RoundRobin, 6, 5, seed);
        config.options.set("order", "LOT").expect("named");
        let t = swisspair::simulate::simulate(&config).expect("simulates");
        let first = (0..t.players.len())
            .find(|&p| t.players[p].pairing_number == Some(1))
            .expect("pairing number 1");
        let game = t.rounds[0]
            .games
            .iter()
            .find(|g| g.white == first || g.black == first)
            .expect("plays round 1");
        let played = if game.white == first {
            swisspair::model::Colour::White
        } else {
            swisspair::model::Colour::Black
        };
        assert_eq!(t.initial_colour, Some(played), "seed {seed}");
        let doc = trf::TrfDocument {
            tournament: t,
            ..trf::TrfDocument::default()
        };
        let text = swisspair::pairing::write_trf(&doc, trf::Dialect::JaVaFo).expect("writes");
        let back = swisspair::pairing::read_trf(&text)
            .expect("reads")
            .tournament;
        assert_eq!(back.lot_seed, seed);
        assert_eq!(back.options, doc.tournament.options);
    }
}

/// A simulation that cannot pair names the round.
#[test]
fn a_failing_simulation_names_the_round() {
    // Four players, five rounds of Dutch: round 4 has no pairing without rematches.
    let (code, _, err) = swisspair(&[
        "simulate",
        "--system",
        "dutch",
        "--players",
        "4",
        "--rounds",
        "5",
        "--seed",
        "3",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("round 4"), "{err}");
}

/// The same over gRPC: the status names the round.
#[tokio::test]
async fn a_failing_simulation_names_the_round_over_grpc() {
    use swisspair::proto;
    let server = common::server::Server::start(swisspair::service::ServerConfig::default()).await;
    let mut client = server.client().await;
    let status = client
        .simulate(proto::SimulateRequest {
            system: proto::PairingSystem::Dutch as i32,
            players: 4,
            rounds: 5,
            seed: 3,
            ..proto::SimulateRequest::default()
        })
        .await
        .expect_err("no pairing in round 4");
    assert!(status.message().starts_with("round 4: "), "{status:?}");
    server.stop().await;
}
