//! The Burstein system end to end: through the CLI (pair, check, validate, simulate, the
//! bbpPairings-compatible form) and through the gRPC service in-process (ListSystems,
//! Pair, Check, Simulate), both profiles.
mod common;

use common::server::Server;
use swisspair::proto;
use swisspair::service::ServerConfig;

fn corpus(sub: &str, file: &str) -> String {
    common::conformance_dir(sub)
        .join(file)
        .to_string_lossy()
        .into_owned()
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("swisspair-burstein-{}-{name}", std::process::id()))
}

/// The simulated TRF with the total rounds raised, so that its next round can be paired.
/// The declared number of rounds changed, in either dialect (`simulate` writes TRF-26's
/// `142`, the engines' forms may meet JaVaFo's `XXR`).
fn with_total_rounds(trf: &str, from: u32, to: u32) -> String {
    trf.replace(&format!("XXR {from}\n"), &format!("XXR {to}\n"))
        .replace(&format!("\n142 {from}\n"), &format!("\n142 {to}\n"))
}

#[test]
fn cli_checks_both_corpora_and_pairs_simulates_validates() {
    // check: the 2026 text (default profile) and bbpPairings' reading.
    let (code, out, err) = common::swisspair(&[
        "check",
        "--burstein",
        &corpus("burstein2026", "burstein2026-0003.trf"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(" passed, 0 failed"), "{out}");
    let (code, out, err) = common::swisspair(&[
        "check",
        "--system",
        "burstein",
        "--option",
        "profile=BBP",
        &corpus("burstein", "burstein-0003.trf"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(" passed, 0 failed"), "{out}");
    // The bbpPairings command line pairs with its reading: no round has a table of discrepancies.
    let (code, out, err) =
        common::swisspair(&["--burstein", &corpus("burstein", "burstein-0003.trf"), "-c"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("Checker pairings"), "{out}");

    // The bbpPairings generator form makes a BBP-profile event that checks clean.
    let generated = temp("generated.trf");
    let generated_path = generated.to_string_lossy().into_owned();
    let (code, _, err) = common::swisspair(&["--burstein", "-g", "-o", &generated_path, "-s", "3"]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&generated).expect("generated file");
    assert!(text.contains("profile=BBP"), "{text}");
    let (code, out, err) = common::swisspair(&["--burstein", &generated_path, "-c"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("Checker pairings"), "{out}");
    let _ = std::fs::remove_file(&generated);

    // simulate, then check the simulated event against the system that paired it.
    let sim = temp("sim.trf");
    let sim_path = sim.to_string_lossy().into_owned();
    let (code, _, err) = common::swisspair(&[
        "simulate",
        "--burstein",
        "--players",
        "15",
        "--rounds",
        "7",
        "--seed",
        "5",
        "--bye-rate",
        "0.05",
        "--forfeit-rate",
        "0.05",
        "-o",
        &sim_path,
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&sim).expect("simulated file");
    assert!(text.contains("192 FIDE_BURSTEIN"), "{text}");
    let (code, out, err) = common::swisspair(&["check", &sim_path]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("7 passed, 0 failed"), "{out}");

    // pair the next round of a shorter event, then validate that very pairing.
    let (code, _, err) = common::swisspair(&[
        "simulate",
        "--burstein",
        "--players",
        "12",
        "--rounds",
        "5",
        "--seed",
        "8",
        "-o",
        &sim_path,
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&sim).expect("simulated file");
    std::fs::write(&sim, with_total_rounds(&text, 5, 7)).expect("writable");
    let pairs = temp("pairs.txt");
    let pairs_path = pairs.to_string_lossy().into_owned();
    let (code, out, err) = common::swisspair(&["--burstein", &sim_path, "-p", &pairs_path]);
    assert_eq!(code, 0, "{out}{err}");
    let list = std::fs::read_to_string(&pairs).expect("pairs");
    assert!(list.starts_with("6\n"), "{list}");
    let (code, out, err) = common::swisspair(&["pair", "--burstein", "--json", &sim_path]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("C.04.4.2"),
        "explanations cite the article: {out}"
    );
    let (code, out, err) = common::swisspair(&[
        "validate",
        "--burstein",
        "--option",
        "profile=BBP",
        &sim_path,
        &pairs_path,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let _ = std::fs::remove_file(&sim);
    let _ = std::fs::remove_file(&pairs);
}

fn simulate_request(profile: Option<&str>) -> proto::SimulateRequest {
    proto::SimulateRequest {
        system: proto::PairingSystem::Burstein as i32,
        players: 13,
        rounds: 7,
        seed: 21,
        draw_rate: 0.3,
        forfeit_rate: 0.0,
        bye_request_rate: 0.03,
        options: Some(proto::SystemOptions {
            values: profile
                .map(|p| [("profile".to_string(), p.to_string())].into())
                .unwrap_or_default(),
            ..proto::SystemOptions::default()
        }),
        ..proto::SimulateRequest::default()
    }
}

#[tokio::test]
async fn grpc_lists_pairs_checks_and_simulates() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;

    let systems = client
        .list_systems(proto::ListSystemsRequest {})
        .await
        .expect("systems")
        .into_inner();
    let burstein = systems
        .systems
        .iter()
        .find(|s| s.system == proto::PairingSystem::Burstein as i32)
        .expect("burstein is listed");
    assert_eq!(burstein.name, "burstein");
    assert!(burstein.options.iter().any(|o| o.name == "profile"));
    assert!(burstein.options.iter().any(|o| o.name == "acceleration"));

    for profile in [None, Some("BBP")] {
        let sim = client
            .simulate(simulate_request(profile))
            .await
            .expect("simulate")
            .into_inner();
        let mut t = sim.tournament.expect("tournament");
        assert_eq!(t.rounds.len(), 7);
        // Check: the simulated event re-pairs identically, round by round.
        let check = client
            .check(proto::CheckRequest {
                input: Some(proto::check_request::Input::Tournament(t.clone())),
                ..proto::CheckRequest::default()
            })
            .await
            .expect("check")
            .into_inner();
        assert_eq!((check.passed, check.failed), (7, 0), "{profile:?}");
        // Pair: one more round of the same event.
        t.total_rounds = 8;
        let answer = client
            .pair(proto::PairRequest {
                input: Some(proto::pair_request::Input::Tournament(t.clone())),
                explanation_detail: proto::ExplanationDetail::Full as i32,
                ..proto::PairRequest::default()
            })
            .await
            .expect("pair")
            .into_inner();
        assert_eq!(answer.round, 8);
        assert_eq!(answer.boards.len(), 6);
        assert_eq!(answer.byes.len(), 1);
        let met: std::collections::HashSet<(String, String)> = t
            .rounds
            .iter()
            .flat_map(|r| r.games.iter())
            .flat_map(|g| {
                [
                    (g.white_id.clone(), g.black_id.clone()),
                    (g.black_id.clone(), g.white_id.clone()),
                ]
            })
            .collect();
        for b in &answer.boards {
            assert!(
                !met.contains(&(b.white_id.clone(), b.black_id.clone())),
                "C1: no rematch, {b:?}"
            );
        }
    }
    server.stop().await;
}
