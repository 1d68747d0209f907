//! The Dubov system end to end: through the command line (pair, check, validate,
//! simulate) and through the gRPC service in-process (ListSystems, Pair, Check, Simulate).
mod common;

use std::collections::BTreeSet;

use common::server::Server;
use swisspair::proto;
use swisspair::service::ServerConfig;
use swisspair::trf;

/// A corpus file whose round 3 has no absence or forfeit, so that pairing it from its
/// first two rounds alone must give the recorded round.
const FILE: &str = "dubov-0014.trf";
const ROUND: usize = 3;

/// The file cut after round `ROUND - 1`, as TRF text, and the recorded round `ROUND` as
/// (white, black) pairing numbers, plus its PAB.
fn truncated() -> (String, BTreeSet<(u32, u32)>, Option<u32>) {
    let text =
        std::fs::read_to_string(common::conformance_dir("dubov").join(FILE)).expect("corpus file");
    let doc = swisspair::pairing::read_trf(&text).expect("valid TRF");
    let t = &doc.tournament;
    let recorded = &t.rounds[ROUND - 1];
    let games = recorded
        .games
        .iter()
        .map(|g| (t.pairing_number(g.white), t.pairing_number(g.black)))
        .collect();
    let pab = recorded
        .byes
        .iter()
        .find(|b| b.kind == swisspair::model::ByeKind::Pab)
        .map(|b| t.pairing_number(b.player));
    let mut cut = doc.clone();
    cut.tournament.rounds.truncate(ROUND - 1);
    let text = swisspair::pairing::write_trf(&cut, trf::Dialect::JaVaFo).expect("writable");
    (text, games, pab)
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("swisspair-dubov-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write temp file");
    path
}

/// `N`, then `white black` lines by pairing number (`id 0` for the PAB).
fn read_pairs(out: &str) -> (BTreeSet<(u32, u32)>, Option<u32>) {
    let mut games = BTreeSet::new();
    let mut pab = None;
    for line in out.lines().skip(1) {
        let v: Vec<u32> = line
            .split_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect();
        match v.as_slice() {
            [p, 0] => pab = Some(*p),
            [w, b] => {
                games.insert((*w, *b));
            }
            _ => panic!("unexpected line {line:?}"),
        }
    }
    (games, pab)
}

#[test]
fn cli_pairs_checks_validates_and_simulates() {
    let (text, want_games, want_pab) = truncated();
    let input = temp_file("cut.trf", &text);
    let input = input.to_str().expect("utf-8 path");
    let (code, out, err) = common::swisspair(&["pair", "--dubov", "-p", "-", input]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(read_pairs(&out), (want_games, want_pab));
    // The pairing just made is legal under the system's absolute rules.
    let pairs = temp_file("pairs.txt", &out);
    let (code, out_v, err) = common::swisspair(&[
        "validate",
        "--system",
        "dubov",
        input,
        pairs.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(code, 0, "{out_v}{err}");

    // A whole corpus file checks clean.
    let corpus = common::conformance_dir("dubov").join(FILE);
    let (code, out, err) = common::swisspair(&[
        "check",
        "--system",
        "dubov",
        corpus.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("5 passed, 0 failed"), "{out}");

    // A simulated event (forfeits, half-point byes) is deterministic and checks clean.
    let sim = |seed: &str| {
        let (code, out, err) = common::swisspair(&[
            "simulate",
            "--dubov",
            "--players",
            "17",
            "--rounds",
            "6",
            "--seed",
            seed,
            "--forfeit-rate",
            "0.05",
            "--bye-rate",
            "0.05",
        ]);
        assert_eq!(code, 0, "{err}");
        out
    };
    let a = sim("5");
    assert_eq!(a, sim("5"));
    assert!(a.contains("192 FIDE_DUBOV"), "{a}");
    let simulated = temp_file("sim.trf", &a);
    let (code, out, err) =
        common::swisspair(&["check", "--dubov", simulated.to_str().expect("utf-8 path")]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("6 passed, 0 failed"), "{out}");
}

#[tokio::test]
async fn service_lists_pairs_checks_and_simulates() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let systems = client
        .list_systems(proto::ListSystemsRequest {})
        .await
        .expect("list")
        .into_inner();
    let dubov = systems
        .systems
        .iter()
        .find(|s| s.name == "dubov")
        .expect("dubov is listed");
    assert_eq!(dubov.system, proto::PairingSystem::Dubov as i32);
    assert!(dubov.options.iter().any(|o| o.name == "acceleration"));

    // Pair round 3 from the file's first two rounds.
    let (text, want_games, want_pab) = truncated();
    let doc = swisspair::pairing::read_trf(&text).expect("trf");
    let number = |id: &str| {
        let t = &doc.tournament;
        let p = t.players.iter().position(|p| p.id == id).expect("known id");
        t.pairing_number(p)
    };
    let answer = client
        .pair(proto::PairRequest {
            input: Some(proto::pair_request::Input::Trf(text)),
            system: proto::PairingSystem::Dubov as i32,
            explanation_detail: proto::ExplanationDetail::Full as i32,
            ..proto::PairRequest::default()
        })
        .await
        .expect("pair")
        .into_inner();
    let games: BTreeSet<(u32, u32)> = answer
        .boards
        .iter()
        .map(|b| (number(&b.white_id), number(&b.black_id)))
        .collect();
    assert_eq!(games, want_games);
    assert_eq!(answer.byes.is_empty(), want_pab.is_none());

    // Check a corpus file.
    let corpus =
        std::fs::read_to_string(common::conformance_dir("dubov").join(FILE)).expect("corpus file");
    let check = client
        .check(proto::CheckRequest {
            input: Some(proto::check_request::Input::Trf(corpus)),
            system: proto::PairingSystem::Dubov as i32,
            ..proto::CheckRequest::default()
        })
        .await
        .expect("check")
        .into_inner();
    assert_eq!((check.passed, check.failed), (5, 0));

    // Simulate a small event and check it.
    let sim = client
        .simulate(proto::SimulateRequest {
            system: proto::PairingSystem::Dubov as i32,
            players: 13,
            rounds: 5,
            seed: 7,
            draw_rate: 0.3,
            ..proto::SimulateRequest::default()
        })
        .await
        .expect("simulate")
        .into_inner();
    let t = sim.tournament.expect("tournament");
    assert_eq!(t.rounds.len(), 5);
    assert!(
        t.rounds
            .iter()
            .all(|r| r.games.len() == 6 && r.byes.len() == 1)
    );
    let check = client
        .check(proto::CheckRequest {
            input: Some(proto::check_request::Input::Trf(sim.trf)),
            system: proto::PairingSystem::Dubov as i32,
            ..proto::CheckRequest::default()
        })
        .await
        .expect("check")
        .into_inner();
    assert_eq!((check.passed, check.failed), (5, 0));
    server.stop().await;
}
