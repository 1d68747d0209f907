//! The Double-Swiss system (C.04.5) end to end: through the command line and through the
//! gRPC service in process, pairing a match, checking a file and simulating a small event.
mod common;

use std::path::PathBuf;

use common::server::Server;
use common::swisspair;
use swisspair::model::{ByeKind, SystemId, Tournament};
use swisspair::proto;
use swisspair::service::ServerConfig;
use swisspair::trf;

fn corpus_file(name: &str) -> PathBuf {
    common::conformance_dir("double-swiss").join(name)
}

fn read(path: &PathBuf) -> Tournament {
    let text = std::fs::read_to_string(path).expect("corpus file");
    swisspair::pairing::read_trf(&text)
        .expect("valid TRF")
        .tournament
}

/// The file cut after its first `rounds` rounds (games), keeping the requested byes and
/// absences of the next round (those players are not paired in it), as TRF text.
fn truncated(name: &str, rounds: usize) -> String {
    let mut t = read(&corpus_file(name));
    let next = t.rounds.get(rounds).map(|r| swisspair::model::Round {
        games: Vec::new(),
        byes: r
            .byes
            .iter()
            .filter(|b| !b.kind.is_pairing_allocated())
            .cloned()
            .collect(),
    });
    t.rounds.truncate(rounds);
    t.rounds.extend(next);
    let doc = trf::TrfDocument {
        tournament: t,
        ..trf::TrfDocument::default()
    };
    swisspair::pairing::write_trf(&doc, trf::Dialect::JaVaFo).expect("writable")
}

fn temp_file(tag: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "swisspair-double-swiss-{tag}-{}.trf",
        std::process::id()
    ));
    std::fs::write(&path, text).expect("temp file");
    path
}

/// The record's game-1 pairs of match `k`, as (white id, black id), sorted.
fn recorded_match(t: &Tournament, k: usize) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = t.rounds[2 * k - 2]
        .games
        .iter()
        .map(|g| (t.players[g.white].id.clone(), t.players[g.black].id.clone()))
        .collect();
    pairs.sort();
    pairs
}

#[test]
fn cli_checks_pairs_and_simulates() {
    // check: every match of a corpus file reproduced, one line per match (game 1's round).
    let file = corpus_file("double-swiss-0001.trf");
    let path = file.to_string_lossy().to_string();
    let (code, out, err) = swisspair(&["check", "--system", "double-swiss", &path]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("5 passed, 0 failed"), "{out}");
    let (code, out, _) = swisspair(&["check", "--double-swiss", &path]);
    assert_eq!(code, 0, "{out}");

    // pair: match 3 from matches 1-2 is round 5, as the file has it.
    let t = read(&file);
    let cut = temp_file("pair", &truncated("double-swiss-0001.trf", 4));
    let cut_path = cut.to_string_lossy().to_string();
    // validate: the engine's own pair list breaks no absolute rule; a rematch does.
    let list = temp_file("list", "");
    let list_path = list.to_string_lossy().to_string();
    let (code, _, err) = swisspair(&["pair", "--double-swiss", &cut_path, "-p", &list_path]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = swisspair(&["validate", "--double-swiss", &cut_path, &list_path]);
    assert_eq!(code, 0, "{out}{err}");
    // Players 1 and 6 met in match 1: proposing them again breaks [C1].
    std::fs::write(&list, "1\n1 6\n").expect("list");
    let (code, out, _) = swisspair(&["validate", "--double-swiss", &cut_path, &list_path]);
    let _ = std::fs::remove_file(&list);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("C.04.5 C1"), "{out}");
    let (code, out, err) = swisspair(&["pair", "--double-swiss", &cut_path, "--json"]);
    let _ = std::fs::remove_file(&cut);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON answer");
    assert_eq!(json["round"], 5, "{out}");
    let mut pairs: Vec<(String, String)> = json["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .map(|b| {
            (
                b["white_id"].as_str().unwrap_or_default().to_string(),
                b["black_id"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    pairs.sort();
    assert_eq!(pairs, recorded_match(&t, 3));
    assert_eq!(json["double_swiss"]["match"], 3, "{out}");
    assert_eq!(json["double_swiss"]["game2_round"], 6, "{out}");

    // simulate, then check what was simulated: the engine reproduces its own event.
    let out_file = std::env::temp_dir().join(format!(
        "swisspair-double-swiss-sim-{}.trf",
        std::process::id()
    ));
    let out_path = out_file.to_string_lossy().to_string();
    let (code, _, err) = swisspair(&[
        "simulate",
        "--double-swiss",
        "--players",
        "11",
        "--rounds",
        "8",
        "--forfeit-rate",
        "0.05",
        "--bye-rate",
        "0.05",
        "-o",
        &out_path,
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = swisspair(&["check", "--double-swiss", &out_path]);
    let simulated = read(&out_file);
    let _ = std::fs::remove_file(&out_file);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("4 passed, 0 failed"), "{out}");
    assert_eq!(simulated.rounds.len(), 8);
    for k in 1..=4 {
        let (one, two) = (&simulated.rounds[2 * k - 2], &simulated.rounds[2 * k - 1]);
        let mut reversed: Vec<(usize, usize)> =
            one.games.iter().map(|g| (g.black, g.white)).collect();
        let mut second: Vec<(usize, usize)> =
            two.games.iter().map(|g| (g.white, g.black)).collect();
        reversed.sort();
        second.sort();
        assert_eq!(reversed, second, "match {k}: game 2 reverses game 1");
        let byes = |r: &swisspair::model::Round| {
            let mut b: Vec<(usize, ByeKind)> = r.byes.iter().map(|b| (b.player, b.kind)).collect();
            b.sort();
            b
        };
        assert_eq!(
            byes(one),
            byes(two),
            "match {k}: byes apply to whole matches"
        );
    }
}

#[tokio::test]
async fn grpc_pairs_a_match_checks_a_file_and_simulates() {
    let server = Server::start(ServerConfig::default()).await;
    let mut c = server.client().await;
    let system = proto::PairingSystem::DoubleSwiss as i32;

    // Pair: match 3 (round 5), with both games' boards in the answer.
    let t = read(&corpus_file("double-swiss-0001.trf"));
    let pair = c
        .pair(proto::PairRequest {
            input: Some(proto::pair_request::Input::Trf(truncated(
                "double-swiss-0001.trf",
                4,
            ))),
            system,
            ..proto::PairRequest::default()
        })
        .await
        .expect("pairs")
        .into_inner();
    assert_eq!(pair.round, 5);
    let m = pair.double_swiss.expect("the match");
    assert_eq!(
        (m.r#match, m.game, m.game1_round, m.game2_round),
        (3, 1, 5, 6)
    );
    let mut one: Vec<(String, String)> = m
        .game1_boards
        .iter()
        .map(|b| (b.white_id.clone(), b.black_id.clone()))
        .collect();
    one.sort();
    assert_eq!(one, recorded_match(&t, 3));
    let mut two: Vec<(String, String)> = m
        .game2_boards
        .iter()
        .map(|b| (b.black_id.clone(), b.white_id.clone()))
        .collect();
    two.sort();
    assert_eq!(one, two, "game 2 has the colours reversed");
    assert_eq!(pair.byes.len(), 1, "11 players: one PAB");

    // Game 2 of the match: round 6 once round 5 is recorded.
    let game_two = c
        .pair(proto::PairRequest {
            input: Some(proto::pair_request::Input::Trf(truncated(
                "double-swiss-0001.trf",
                5,
            ))),
            system,
            ..proto::PairRequest::default()
        })
        .await
        .expect("pairs game 2")
        .into_inner();
    assert_eq!(game_two.round, 6);
    let m2 = game_two.double_swiss.expect("the match");
    assert_eq!((m2.r#match, m2.game), (3, 2));
    let sorted = |boards: &[proto::Board]| {
        let mut v: Vec<(String, String)> = boards
            .iter()
            .map(|b| (b.white_id.clone(), b.black_id.clone()))
            .collect();
        v.sort();
        v
    };
    assert_eq!(sorted(&m2.game1_boards), sorted(&m.game1_boards));
    assert_eq!(sorted(&game_two.boards), sorted(&m.game2_boards));

    // Check: every match of a file.
    let text = std::fs::read_to_string(corpus_file("double-swiss-0007.trf")).expect("file");
    let check = c
        .check(proto::CheckRequest {
            input: Some(proto::check_request::Input::Trf(text)),
            system,
            ..proto::CheckRequest::default()
        })
        .await
        .expect("checks")
        .into_inner();
    assert_eq!((check.passed, check.failed), (6, 0));

    // Simulate: games with their own results, two per match.
    let sim = c
        .simulate(proto::SimulateRequest {
            system,
            players: 10,
            rounds: 6,
            seed: 3,
            draw_rate: 0.3,
            ..proto::SimulateRequest::default()
        })
        .await
        .expect("simulates")
        .into_inner();
    let tournament = sim.tournament.expect("tournament");
    assert_eq!(tournament.rounds.len(), 6);
    // ListSystems names it, with its PAB option.
    let systems = c
        .list_systems(proto::ListSystemsRequest {})
        .await
        .expect("lists")
        .into_inner();
    let ds = systems
        .systems
        .iter()
        .find(|s| s.name == "double-swiss")
        .expect("listed");
    assert!(ds.options.iter().any(|o| o.name == "pab"), "{ds:?}");
    server.stop().await;
    let _ = SystemId::DoubleSwiss;
}
