//! The club formats (Monrad, knockout, Scheveningen) end to end: the command line (pair,
//! check, standings, audit, why, simulate, systems), the gRPC service in-process
//! (ListSystems, Pair, Check, Simulate, bad input) and JSON over HTTP (Connect)
//! on the same port. Expected pairings are the hand-worked ones of `tests/monrad.rs`,
//! `tests/knockout.rs` and `tests/scheveningen.rs`.
mod common;

use common::post_json;

use common::server::Server;
use common::swiss::Builder;
use swisspair::model::{SystemId, Tournament};
use swisspair::proto;
use swisspair::service::ServerConfig;
use swisspair::trf::{Dialect, TrfDocument};
use tonic::Code;

fn trf_of(t: &Tournament) -> String {
    let doc = TrfDocument {
        tournament: t.clone(),
        ..TrfDocument::default()
    };
    swisspair::pairing::write_trf(&doc, Dialect::JaVaFo).expect("writes")
}

fn temp_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("swisspair-club-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("writes");
    path.to_str().expect("utf-8 path").to_string()
}

/// The `-p` lines after the count, as (first, second) pairing numbers; `(p, 0)` is a bye.
fn pair_lines(out: &str) -> Vec<(u32, u32)> {
    out.lines()
        .skip(1)
        .map(|l| {
            let v: Vec<u32> = l
                .split_whitespace()
                .filter_map(|x| x.parse().ok())
                .collect();
            (v[0], v[1])
        })
        .collect()
}

/// The boards of a PairResponse as (first, second) pairing numbers.
fn response_pairs(r: &proto::PairResponse) -> Vec<(u32, u32)> {
    r.boards
        .iter()
        .map(|b| (b.first_pairing_number, b.second_pairing_number))
        .collect()
}

fn pair_request(trf: &str, system: proto::PairingSystem) -> proto::PairRequest {
    proto::PairRequest {
        input: Some(proto::pair_request::Input::Trf(trf.to_string())),
        system: system as i32,
        explanation_detail: proto::ExplanationDetail::Full as i32,
        ..proto::PairRequest::default()
    }
}

/// A Pair request of a model tournament with one option set (SystemOptions.values).
fn tournament_request(t: &Tournament, name: &str, value: &str) -> proto::PairRequest {
    let mut pt = swisspair::service::convert::tournament_to_proto(t);
    pt.options
        .get_or_insert_with(proto::SystemOptions::default)
        .values
        .insert(name.to_string(), value.to_string());
    proto::PairRequest {
        input: Some(proto::pair_request::Input::Tournament(pt)),
        explanation_detail: proto::ExplanationDetail::Full as i32,
        ..proto::PairRequest::default()
    }
}

// ---------------------------------------------------------------------------------------
// Monrad

/// tests/monrad.rs's backtracking round: round 3 of six players, paired 4-1, 6-2, 3-5
/// (MON-3, MON-5).
fn monrad_round_three() -> Tournament {
    Builder::new(SystemId::Monrad, 6, 5)
        .round(&[(1, 2, "1-0"), (3, 4, "1-0"), (5, 6, "1-0")], &[])
        .round(&[(1, 3, "1-0"), (2, 5, "1-0"), (4, 6, "1-0")], &[])
        .build()
}

const MONRAD_ROUND_THREE: [(u32, u32); 3] = [(4, 1), (6, 2), (3, 5)];

#[test]
fn monrad_through_the_command_line() {
    let input = temp_file("monrad.trf", &trf_of(&monrad_round_three()));
    assert!(
        std::fs::read_to_string(&input)
            .expect("reads")
            .contains("192 CUSTOM_SWISS:MONRAD")
    );
    // The file's record 192 names the system.
    let (code, out, err) = common::swisspair(&["pair", &input, "-p"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(pair_lines(&out), MONRAD_ROUND_THREE);
    let (code, out, err) = common::swisspair(&["pair", "--system", "monrad", &input, "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("MON-3") && out.contains("backtrack"), "{out}");
    // A bad option value is named.
    let (code, _, err) = common::swisspair(&[
        "pair",
        "--system",
        "monrad",
        "--option",
        "tiebreak=SONNEBORN",
        &input,
        "-p",
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("tiebreak"), "{err}");
    // why: 1 and 2 have met (MON-3).
    let (code, out, err) = common::swisspair(&["why", &input, "--pair", "1-2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("MON-3"), "{out}");

    // A simulated event checks clean, audits clean and ranks by score.
    let sim = |seed: &str| {
        let (code, out, err) = common::swisspair(&[
            "simulate",
            "--system",
            "monrad",
            "--players",
            "11",
            "--rounds",
            "5",
            "--seed",
            seed,
        ]);
        assert_eq!(code, 0, "{err}");
        out
    };
    let text = sim("4");
    assert_eq!(text, sim("4"));
    let file = temp_file("monrad-sim.trf", &text);
    let (code, out, err) = common::swisspair(&["check", &file]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("5 passed, 0 failed"), "{out}");
    let (code, out, err) = common::swisspair(&["audit", &file]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = common::swisspair(&["standings", &file]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("PTS"), "{out}");
    let (code, out, _) = common::swisspair(&["systems"]);
    assert_eq!(code, 0);
    for option in ["first_round", "tiebreak", "game", "match_length"] {
        assert!(out.contains(option), "{option}: {out}");
    }

    // Backgammon through the same command: no colours, the match length carried.
    let (code, out, err) = common::swisspair(&[
        "pair",
        "--system",
        "monrad",
        "--option",
        "game=BACKGAMMON",
        "--option",
        "match_length=7",
        &input,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("\"matchLength\": 7") || out.contains("\"match_length\": 7"),
        "{out}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn monrad_through_grpc_and_json() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;

    let systems = client
        .list_systems(proto::ListSystemsRequest::default())
        .await
        .expect("ListSystems")
        .into_inner();
    let monrad = systems
        .systems
        .iter()
        .find(|s| s.system == proto::PairingSystem::Monrad as i32)
        .expect("Monrad is listed");
    assert_eq!(monrad.name, "monrad");
    let defaults: Vec<(String, String)> = monrad
        .options
        .iter()
        .map(|o| (o.name.clone(), o.default_value.clone()))
        .collect();
    assert_eq!(
        defaults,
        [
            ("first_round", "RATING"),
            ("tiebreak", "PAIRING_NUMBER"),
            ("game", "CHESS"),
            ("match_length", "0"),
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
    );

    let trf = trf_of(&monrad_round_three());
    let answer = client
        .pair(pair_request(&trf, proto::PairingSystem::Monrad))
        .await
        .expect("Pair")
        .into_inner();
    assert_eq!(response_pairs(&answer), MONRAD_ROUND_THREE);
    assert_eq!(answer.system, proto::PairingSystem::Monrad as i32);

    // Backgammon: the same pairs, no colours.
    let bg = client
        .pair(tournament_request(
            &monrad_round_three(),
            "game",
            "BACKGAMMON",
        ))
        .await
        .expect("Pair")
        .into_inner();
    assert!(bg.boards.iter().all(|b| b.white_id.is_empty()));

    // A refused value names the option.
    let err = client
        .pair(tournament_request(
            &monrad_round_three(),
            "first_round",
            "ALPHABETICAL",
        ))
        .await
        .expect_err("refused");
    assert_eq!(err.code(), Code::InvalidArgument);
    assert!(
        err.message().contains("options.first_round"),
        "{}",
        err.message()
    );

    // Check and Standings of a simulated event.
    let sim = client
        .simulate(proto::SimulateRequest {
            system: proto::PairingSystem::Monrad as i32,
            players: 9,
            rounds: 4,
            seed: 2,
            ..proto::SimulateRequest::default()
        })
        .await
        .expect("Simulate")
        .into_inner();
    let check = client
        .check(proto::CheckRequest {
            input: Some(proto::check_request::Input::Trf(sim.trf.clone())),
            ..proto::CheckRequest::default()
        })
        .await
        .expect("Check")
        .into_inner();
    assert_eq!(check.rounds.len(), 4);
    assert!(check.rounds.iter().all(|r| r.matches), "{check:?}");

    // JSON on the same port gives the same answer.
    let (status, json) = post_json(
        &server.addr,
        "Pair",
        &serde_json::json!({"trf": trf, "system": "PAIRING_SYSTEM_MONRAD", "explanationDetail": "EXPLANATION_DETAIL_FULL"}),
    );
    assert_eq!(status, 200, "{json}");
    let from_json: proto::PairResponse = serde_json::from_value(json).expect("a PairResponse");
    assert_eq!(from_json, answer);
    server.stop().await;
}

// ---------------------------------------------------------------------------------------
// Knockout

/// tests/knockout.rs's round 2: six players, 1 and 2 had byes, 5 and 6 won; round 2 is
/// 5-1 and 2-6 (KO-3.1, KO-7).
fn knockout_round_two(first_result: &'static str) -> Tournament {
    Builder::new(SystemId::Knockout, 6, 0)
        .round(
            &[(4, 5, first_result), (6, 3, "1-0")],
            &[
                (1, swisspair::model::ByeKind::Pab),
                (2, swisspair::model::ByeKind::Pab),
            ],
        )
        .build()
}

#[test]
fn knockout_through_the_command_line() {
    let input = temp_file("knockout.trf", &trf_of(&knockout_round_two("0-1")));
    assert!(
        std::fs::read_to_string(&input)
            .expect("reads")
            .contains("192 CUSTOM_KNOCKOUT")
    );
    let (code, out, err) = common::swisspair(&["pair", &input, "-p"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(pair_lines(&out), [(5, 1), (2, 6)]);
    // A drawn match: exit 3, the match named (KO-3.2).
    let drawn = temp_file("knockout-drawn.trf", &trf_of(&knockout_round_two("=")));
    let (code, _, err) = common::swisspair(&["pair", &drawn, "-p"]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("main bracket match 2") && err.contains("KO-3.2"),
        "{err}"
    );
    // why: 1 and 2 cannot meet in round 2, the bracket decides (KO-3.1).
    let (code, out, err) = common::swisspair(&["why", &input, "--pair", "1-2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("KO-3.1"), "{out}");

    // A simulated cup with a consolation bracket: deterministic, checks and audits clean,
    // and its standings put the champion first (KO-8).
    let args = [
        "simulate",
        "--system",
        "knockout",
        "--players",
        "13",
        "--rounds",
        "4",
        "--seed",
        "6",
        "--option",
        "consolation=true",
    ];
    let (code, text, err) = common::swisspair(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(text, common::swisspair(&args).1);
    let file = temp_file("cup.trf", &text);
    let (code, out, err) = common::swisspair(&["check", &file]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("4 passed, 0 failed"), "{out}");
    let (code, out, err) = common::swisspair(&["audit", &file]);
    assert_eq!(code, 0, "{out}{err}");
    let doc = swisspair::pairing::read_trf(&text).expect("reads");
    let t = &doc.tournament;
    let progress = swisspair::standings::knockout_progress(t, 4);
    let champion = progress.iter().position(|&r| r == 4).expect("a champion");
    let (code, out, err) = common::swisspair(&["standings", &file]);
    assert_eq!(code, 0, "{err}");
    let first = out
        .lines()
        .find(|l| l.trim_start().starts_with("1 "))
        .expect("a first line");
    assert!(first.contains(&t.players[champion].name), "{first}\n{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn knockout_through_grpc_and_json() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let systems = client
        .list_systems(proto::ListSystemsRequest::default())
        .await
        .expect("ListSystems")
        .into_inner();
    let knockout = systems
        .systems
        .iter()
        .find(|s| s.system == proto::PairingSystem::Knockout as i32)
        .expect("listed");
    let names: Vec<&str> = knockout.options.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "seeding",
            "consolation",
            "games",
            "tiebreak_game",
            "game",
            "match_length"
        ]
    );

    let trf = trf_of(&knockout_round_two("0-1"));
    let answer = client
        .pair(pair_request(&trf, proto::PairingSystem::Knockout))
        .await
        .expect("Pair")
        .into_inner();
    assert_eq!(response_pairs(&answer), [(5, 1), (2, 6)]);
    assert_eq!(answer.total_rounds, 3);

    let drawn = trf_of(&knockout_round_two("="));
    let err = client
        .pair(pair_request(&drawn, proto::PairingSystem::Knockout))
        .await
        .expect_err("refused");
    assert_eq!(err.code(), Code::InvalidArgument);
    assert!(
        err.message().contains("main bracket match 2")
            && err.message().contains("tournament.rounds[0]"),
        "{}",
        err.message()
    );

    // Backgammon through the same service: no colours.
    let bg = client
        .pair(tournament_request(
            &knockout_round_two("0-1"),
            "game",
            "BACKGAMMON",
        ))
        .await
        .expect("Pair")
        .into_inner();
    assert!(bg.boards.iter().all(|b| b.white_id.is_empty()));
    assert_eq!(response_pairs(&bg), [(1, 5), (2, 6)]);

    let (status, json) = post_json(
        &server.addr,
        "Pair",
        &serde_json::json!({"trf": trf, "system": "PAIRING_SYSTEM_KNOCKOUT", "explanationDetail": "EXPLANATION_DETAIL_FULL"}),
    );
    assert_eq!(status, 200, "{json}");
    let from_json: proto::PairResponse = serde_json::from_value(json).expect("a PairResponse");
    assert_eq!(from_json, answer);
    server.stop().await;
}

// ---------------------------------------------------------------------------------------
// Scheveningen

#[test]
fn scheveningen_through_the_command_line() {
    // tests/scheveningen.rs's round 1 of two teams of four: 5-1, 6-2, 3-7, 4-8.
    let t = Builder::new(SystemId::Scheveningen, 8, 4).build();
    let input = temp_file("scheveningen.trf", &trf_of(&t));
    assert!(
        std::fs::read_to_string(&input)
            .expect("reads")
            .contains("192 FIDE_SCHEVENINGEN")
    );
    let (code, out, err) = common::swisspair(&["pair", &input, "-p"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(pair_lines(&out), [(5, 1), (6, 2), (3, 7), (4, 8)]);
    // why: 1 and 2 are teammates, the table never pairs them (SCH-2, SCH-3).
    let (code, out, err) = common::swisspair(&["why", &input, "--pair", "1-2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("SCH-"), "{out}");

    let args = [
        "simulate",
        "--system",
        "scheveningen",
        "--players",
        "8",
        "--rounds",
        "8",
        "--seed",
        "2",
        "--option",
        "cycles=2",
    ];
    let (code, text, err) = common::swisspair(&args);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("192 FIDE_DOUBLESCHEVENINGEN"), "{text}");
    let file = temp_file("match.trf", &text);
    let (code, out, err) = common::swisspair(&["check", &file]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("8 passed, 0 failed"), "{out}");
    let (code, out, err) = common::swisspair(&["audit", &file]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = common::swisspair(&["standings", &file]);
    assert_eq!(code, 0, "{err}");
    // SCH-6: the two teams' match points after the standings' rows.
    assert!(
        out.contains("Match: ") && out.contains("match points"),
        "{out}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scheveningen_through_grpc_and_json() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    // Two teams by team_id (SCH-1), the players interleaved by pairing number: team "x" is
    // 1, 3 (boards 1, 2) and team "y" 2, 4. Round 1 (SCH-2, SCH-3; n = 2, no reversed
    // board): x's board 1 (1) - y's board 1 (2), 1 + 1 even: 1 White; x's board 2 (3) - y's
    // board 2 (4): 3 White.
    let mut t = Builder::new(SystemId::Scheveningen, 4, 2).build();
    for (p, team) in t.players.iter_mut().zip(["x", "y", "x", "y"]) {
        p.team_id = team.to_string();
    }
    let answer = client
        .pair(tournament_request(&t, "teams", "TEAM_ID"))
        .await
        .expect("Pair")
        .into_inner();
    assert_eq!(response_pairs(&answer), [(1, 2), (3, 4)]);
    // Three teams are refused, naming the rule.
    t.players[3].team_id = "z".to_string();
    let err = client
        .pair(tournament_request(&t, "teams", "TEAM_ID"))
        .await
        .expect_err("refused");
    assert_eq!(err.code(), Code::InvalidArgument);
    assert!(err.message().contains("SCH-1"), "{}", err.message());

    let trf = trf_of(&Builder::new(SystemId::Scheveningen, 8, 4).build());
    let grpc = client
        .pair(pair_request(&trf, proto::PairingSystem::Scheveningen))
        .await
        .expect("Pair")
        .into_inner();
    let (status, json) = post_json(
        &server.addr,
        "Pair",
        &serde_json::json!({"trf": trf, "system": "PAIRING_SYSTEM_SCHEVENINGEN", "explanationDetail": "EXPLANATION_DETAIL_FULL"}),
    );
    assert_eq!(status, 200, "{json}");
    let from_json: proto::PairResponse = serde_json::from_value(json).expect("a PairResponse");
    assert_eq!(from_json, grpc);
    assert_eq!(response_pairs(&grpc), [(5, 1), (6, 2), (3, 7), (4, 8)]);

    // Standings of a played round: the players' rows and the two teams' match points
    // (SCH-6): round 1 5-1 1-0, 6-2 1-0, 3-7 1-0, 4-8 ½: the second half 2½, 2 match
    // points; the first half 1½, 0.
    let played = Builder::new(SystemId::Scheveningen, 8, 4)
        .round(
            &[(5, 1, "1-0"), (6, 2, "1-0"), (3, 7, "1-0"), (4, 8, "=")],
            &[],
        )
        .build();
    let standings = client
        .standings(proto::StandingsRequest {
            input: Some(proto::standings_request::Input::Trf(trf_of(&played))),
            ..proto::StandingsRequest::default()
        })
        .await
        .expect("Standings")
        .into_inner();
    assert_eq!(standings.rows.len(), 8);
    let teams: Vec<(String, String, String)> = standings
        .team_rows
        .iter()
        .map(|r| {
            (
                r.name.clone(),
                r.match_points.clone(),
                r.game_points.clone(),
            )
        })
        .collect();
    assert_eq!(
        teams,
        [
            (
                "second half".to_string(),
                "2".to_string(),
                "2.5".to_string()
            ),
            ("first half".to_string(), "0".to_string(), "1.5".to_string()),
        ]
    );
    server.stop().await;
}
