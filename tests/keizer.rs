//! The Keizer system (docs/systems/keizer.md): a property test of its invariants under
//! varied options, and the system end to end through gRPC, JSON (Connect) and the CLI
//! (pair, validate, check, standings, audit, why, simulate). The hand-worked rankings and
//! rounds are the unit tests of `src/systems/keizer/tests.rs`; the example here is the
//! one of `top_down_pairing_passes_over_a_recent_opponent`, worked out again below.
mod common;

use common::post_json;

use common::server::Server;
use proptest::prelude::*;
use swisspair::model::{
    ByeKind, Colour, Game, GameResult, Player, Round, RoundEntry, SystemId, Tournament,
};
use swisspair::proto;
use swisspair::service::ServerConfig;
use swisspair::service::convert;
use swisspair::simulate::{SimConfig, record_round, round_options, start};
use swisspair::systems::{PairError, RoundPairing};

/// The last round (1-based) in which two players met over the board.
fn last_meeting(t: &Tournament, a: usize, b: usize) -> Option<u32> {
    t.entries()[a]
        .iter()
        .rposition(|e| e.met_opponent() == Some(b))
        .map(|i| i as u32 + 1)
}

fn played_colours(t: &Tournament, p: usize) -> Vec<Colour> {
    t.entries()[p]
        .iter()
        .filter_map(RoundEntry::played_colour)
        .collect()
}

/// KZ-4 and KZ-5 as the test reads them, independently of the system's code.
fn check_round(
    t: &Tournament,
    request: &swisspair::systems::PairOptions,
    p: &RoundPairing,
    limits: (u32, u32, u32, u32),
) -> Result<(), TestCaseError> {
    let (rounds_back, games_between, same_limit, diff_limit) = limits;
    let number = t.next_round();
    let mut seen = vec![0u32; t.players.len()];
    for b in &p.boards {
        seen[b.white] += 1;
        seen[b.black] += 1;
    }
    for b in &p.byes {
        seen[b.player] += 1;
    }
    prop_assert!(p.byes.iter().filter(|b| b.kind == ByeKind::Pab).count() <= 1);
    for (player, &count) in seen.iter().enumerate() {
        // Absences and requested byes are answered as byes (CG-6, CG-11): every player in
        // the event this round is on one board or one bye, nobody twice (KZ-4.1).
        let in_event = t.players[player].is_active_in(number)
            || request.requested_byes.iter().any(|&(q, _)| q == player);
        prop_assert_eq!(
            count,
            u32::from(in_event),
            "player {} round {}",
            player,
            number
        );
        let present = in_event
            && !request.absent.contains(&player)
            && !request.requested_byes.iter().any(|&(q, _)| q == player);
        let paired = p
            .boards
            .iter()
            .any(|b| b.white == player || b.black == player)
            || p.byes
                .iter()
                .any(|b| b.player == player && b.kind == ByeKind::Pab);
        prop_assert_eq!(paired, present, "player {} round {}", player, number);
    }
    for b in &p.boards {
        if let Some(met) = last_meeting(t, b.white, b.black) {
            // KZ-4.2: not within the last `rounds_back` rounds ...
            prop_assert!(
                rounds_back == 0 || number - met > rounds_back,
                "{} and {} met in round {met}, meet again in round {number}",
                b.white,
                b.black
            );
            // ... and each has played `games_between` other games since.
            for q in [b.white, b.black] {
                let since = t.entries()[q]
                    .iter()
                    .skip(met as usize)
                    .filter(|e| e.played_colour().is_some())
                    .count() as u32;
                prop_assert!(
                    since >= games_between,
                    "player {q}: {since} games since round {met}"
                );
            }
        }
        // KZ-5.1: the colour limits, in every round.
        for (q, colour) in [(b.white, Colour::White), (b.black, Colour::Black)] {
            let mut colours = played_colours(t, q);
            colours.push(colour);
            let diff: i64 = colours
                .iter()
                .map(|&c| if c == Colour::White { 1 } else { -1 })
                .sum();
            prop_assert!(
                diff_limit == 0 || diff.unsigned_abs() <= u64::from(diff_limit),
                "player {q}: colour difference {diff}"
            );
            let run = colours.iter().rev().take_while(|&&c| c == colour).count() as u32;
            prop_assert!(
                same_limit == 0 || run <= same_limit,
                "player {q}: {run} of a colour in a row"
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Nobody paired twice, the re-meeting rule and the colour limits kept, whatever the
    /// options; the same request gives the same answer; no legal pairing is said (CG-7),
    /// never faked.
    #[test]
    fn keizer_keeps_its_rules_under_any_options(
        players in 2u32..24,
        rounds in 1u32..10,
        seed in any::<u64>(),
        rounds_back in 0u32..4,
        games_between in 0u32..2,
        same_limit in 0u32..4,
        diff_limit in 0u32..4,
        absences in prop_oneof![Just(0.0), Just(0.15)],
    ) {
        let mut config = SimConfig::new(SystemId::Keizer, players, rounds, seed);
        config.bye_request_rate = absences;
        config.forfeit_rate = 0.05;
        for (name, value) in [
            ("rematch_rounds", rounds_back),
            ("rematch_games", games_between),
            ("same_colour_limit", same_limit),
            ("colour_difference_limit", diff_limit),
        ] {
            config.options.set(name, &value.to_string()).expect("named");
        }
        let mut t = start(&config);
        for _ in 0..rounds {
            let request = round_options(&t, &config);
            match swisspair::pairing::pair_round(&t, &request) {
                Ok(p) => {
                    check_round(&t, &request, &p, (rounds_back, games_between, same_limit, diff_limit))?;
                    let again = swisspair::pairing::pair_round(&t, &request)
                        .map_err(|e| TestCaseError::fail(e.to_string()))?;
                    prop_assert_eq!(&again, &p);
                    record_round(&mut t, &config, &p);
                }
                Err(PairError::NoLegalPairing { rule, .. }) => {
                    prop_assert!(rule.starts_with("KZ-4"), "{rule}");
                    break;
                }
                Err(e) => return Err(TestCaseError::fail(e.to_string())),
            }
        }
    }
}

/// Four players rated A > B > C > D; round 1: A (White) draws B, C (White) draws D.
/// Ranking (KZ-3.3): computation 1, values A 4, B 3, C 2, D 1: A 3/2, B 2, C 1/2, D 1:
/// B, A, D, C; computation 2, values B 4, A 3, D 2, C 1: A 2, B 3/2, C 1, D 1/2: A, B, C,
/// D, the first ranking again: a cycle, decided by the first order repeated: A 2, B 1.50,
/// C 1, D 0.50. Round 2: A may not meet B again within 3 rounds (KZ-4.2): A-C, B-D; A and
/// C both due Black, A ranked higher gets it; B and D both due White, B gets it (KZ-5.3).
fn club() -> Tournament {
    let id = ["A", "B", "C", "D"];
    Tournament {
        system: Some(SystemId::Keizer),
        initial_colour: Some(Colour::White),
        players: (0..4)
            .map(|i| Player {
                id: id[i].to_string(),
                name: format!("Player {}", id[i]),
                rating: 2000 - 100 * i as u32,
                pairing_number: Some(i as u32 + 1),
                ..Player::default()
            })
            .collect(),
        rounds: vec![Round {
            games: vec![
                Game {
                    white: 0,
                    black: 1,
                    result: GameResult::Draw,
                    board: None,
                },
                Game {
                    white: 2,
                    black: 3,
                    result: GameResult::Draw,
                    board: None,
                },
            ],
            byes: vec![],
        }],
        ..Tournament::default()
    }
}

fn ids(boards: &[proto::Board]) -> Vec<(String, String)> {
    boards
        .iter()
        .map(|b| (b.white_id.clone(), b.black_id.clone()))
        .collect()
}

fn pair_request(t: &Tournament) -> proto::PairRequest {
    proto::PairRequest {
        input: Some(proto::pair_request::Input::Tournament(
            convert::tournament::tournament_to_proto(t),
        )),
        explanation_detail: proto::ExplanationDetail::Full as i32,
        ..proto::PairRequest::default()
    }
}

fn pair(white: &str, black: &str) -> (String, String) {
    (white.to_string(), black.to_string())
}

#[tokio::test]
async fn grpc_lists_pairs_ranks_checks_and_simulates_keizer() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let systems = client
        .list_systems(proto::ListSystemsRequest {})
        .await
        .expect("list")
        .into_inner();
    let keizer = systems
        .systems
        .iter()
        .find(|s| s.name == "keizer")
        .expect("keizer is listed");
    assert_eq!(keizer.system, proto::PairingSystem::Keizer as i32);
    for (name, default) in [
        ("top_value", "0"),
        ("value_step", "1"),
        ("win_fraction", "1"),
        ("draw_fraction", "1/2"),
        ("loss_fraction", "0"),
        ("bye_fraction", "1/2"),
        ("club_duty_fraction", "2/3"),
        ("absent_notice_fraction", "1/3"),
        ("absent_fraction", "0"),
        ("rematch_rounds", "3"),
        ("rematch_games", "0"),
        ("colour_difference_limit", "2"),
        ("same_colour_limit", "2"),
        ("initial_ranking", "RATING"),
    ] {
        let o = keizer
            .options
            .iter()
            .find(|o| o.name == name)
            .unwrap_or_else(|| panic!("option {name} listed"));
        assert_eq!(o.default_value, default, "{name}");
        assert!(!o.description.is_empty(), "{name}");
    }

    // Round 2 of the example (KZ-4.2, KZ-5.3).
    let t = club();
    let answer = client
        .pair(pair_request(&t))
        .await
        .expect("pair")
        .into_inner();
    assert_eq!(answer.system, proto::PairingSystem::Keizer as i32);
    assert_eq!(ids(&answer.boards), vec![pair("C", "A"), pair("B", "D")]);
    let rules: Vec<String> = answer
        .explanation
        .iter()
        .flat_map(|e| e.groups.iter())
        .flat_map(|g| g.steps.iter().map(|s| s.rule_id.clone()))
        .collect();
    for rule in ["KZ-2", "KZ-3.3", "KZ-4.2", "KZ-5.3"] {
        assert!(rules.iter().any(|r| r == rule), "{rule} in {rules:?}");
    }
    // Without a re-meeting window the neighbours meet again; a bad option is named.
    let mut again = t.clone();
    again.options.set("rematch_rounds", "0").expect("named");
    let answer = client
        .pair(pair_request(&again))
        .await
        .expect("pair")
        .into_inner();
    assert_eq!(ids(&answer.boards), vec![pair("B", "A"), pair("D", "C")]);
    let mut bad = t.clone();
    bad.options.set("draw_fraction", "1/13").expect("named");
    let status = client.pair(pair_request(&bad)).await.expect_err("refused");
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    assert!(
        status.message().contains("options.draw_fraction"),
        "{}",
        status.message()
    );

    // Standings: the Keizer ranking first (KZ-6), scores as worked out above.
    let standings = client
        .standings(proto::StandingsRequest {
            input: Some(proto::standings_request::Input::Tournament(
                convert::tournament::tournament_to_proto(&t),
            )),
            ..proto::StandingsRequest::default()
        })
        .await
        .expect("standings")
        .into_inner();
    assert_eq!(standings.tie_breaks.first().map(String::as_str), Some("KZ"));
    let rows: Vec<(String, u32, String)> = standings
        .rows
        .iter()
        .map(|r| (r.player_id.clone(), r.rank, r.values[0].clone()))
        .collect();
    assert_eq!(
        rows,
        vec![
            ("A".to_string(), 1, "2.00".to_string()),
            ("B".to_string(), 2, "1.50".to_string()),
            ("C".to_string(), 3, "1.00".to_string()),
            ("D".to_string(), 4, "0.50".to_string()),
        ]
    );

    // A simulated ladder checks clean round by round.
    let sim = client
        .simulate(proto::SimulateRequest {
            system: proto::PairingSystem::Keizer as i32,
            players: 11,
            rounds: 6,
            seed: 5,
            ..proto::SimulateRequest::default()
        })
        .await
        .expect("simulate")
        .into_inner();
    let simulated = sim.tournament.expect("tournament");
    assert_eq!(simulated.rounds.len(), 6);
    let check = client
        .check(proto::CheckRequest {
            input: Some(proto::check_request::Input::Tournament(simulated)),
            ..proto::CheckRequest::default()
        })
        .await
        .expect("check")
        .into_inner();
    assert_eq!((check.passed, check.failed), (6, 0));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_pairs_keizer_with_options_by_name() {
    let server = Server::start(ServerConfig::default()).await;
    let addr = server.addr.trim_start_matches("http://").to_string();
    let body = serde_json::json!({
        "system": "PAIRING_SYSTEM_KEIZER",
        "tournament": {
            "firstRoundColour": "COLOUR_WHITE",
            "options": {"values": {"rematch_rounds": "2"}},
            "players": [
                {"id": "A", "rating": 2000},
                {"id": "B", "rating": 1900},
                {"id": "C", "rating": 1800},
                {"id": "D", "rating": 1700}
            ],
            "rounds": [{"number": 1, "games": [
                {"whiteId": "A", "blackId": "B", "result": "GAME_RESULT_DRAW"},
                {"whiteId": "C", "blackId": "D", "result": "GAME_RESULT_DRAW"}
            ]}]
        }
    });
    let (status, answer) = post_json(&addr, "Pair", &body);
    assert_eq!(status, 200, "{answer}");
    let boards: Vec<(String, String)> = answer["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .map(|b| {
            (
                b["whiteId"].as_str().unwrap_or("").to_string(),
                b["blackId"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    // As over gRPC: A and B met in round 1, within the last 2 rounds.
    assert_eq!(boards, vec![pair("C", "A"), pair("B", "D")]);
    let mut bad = body.clone();
    bad["tournament"]["options"]["values"]["value_step"] = "0".into();
    let (status, answer) = post_json(&addr, "Pair", &bad);
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["message"]
            .as_str()
            .unwrap_or("")
            .contains("options.value_step"),
        "{answer}"
    );
    server.stop().await;
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("swisspair-keizer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write temp file");
    path
}

#[test]
fn cli_pairs_validates_ranks_checks_audits_and_explains_keizer() {
    // The example as TRF: record 192 names the system (CUSTOM_KEIZER).
    let doc = swisspair::trf::TrfDocument {
        tournament: club(),
        ..Default::default()
    };
    let text = swisspair::pairing::write_trf(&doc, swisspair::trf::Dialect::Trf26).expect("writes");
    assert!(text.contains("192 CUSTOM_KEIZER"), "{text}");
    let input = temp_file("club.trf", &text);
    let input = input.to_str().expect("utf-8 path");
    let (code, out, err) = common::swisspair(&["pair", "-p", "-", input]);
    assert_eq!(code, 0, "{err}");
    // Pairing numbers: A 1, B 2, C 3, D 4; C - A, B - D.
    assert_eq!(out, "2\n3 1\n2 4\n", "{out}");
    let (code, out2, err) =
        common::swisspair(&["pair", "--option", "rematch_rounds=0", "-p", "-", input]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out2, "2\n2 1\n4 3\n", "{out2}");
    let (code, _, err) = common::swisspair(&["pair", "--option", "top_value=x", input]);
    assert_ne!(code, 0);
    assert!(err.contains("top_value"), "{err}");

    // The answer validates; the rematch A-B does not (KZ-4.2).
    let pairs = temp_file("pairs.txt", &out);
    let (code, out_v, err) =
        common::swisspair(&["validate", input, pairs.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{out_v}{err}");
    let rematch = temp_file("rematch.txt", "2\n2 1\n4 3\n");
    let (code, out_v, err) =
        common::swisspair(&["validate", input, rematch.to_str().expect("utf-8")]);
    assert_ne!(code, 0, "{out_v}{err}");
    assert!(format!("{out_v}{err}").contains("KZ-4.2"), "{out_v}{err}");

    // Standings by Keizer score (KZ-6).
    let (code, out, err) = common::swisspair(&["standings", "--format", "tsv", input]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("KZ"), "{out}");
    let (code, out, err) = common::swisspair(&["standings", "--json", input]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"KZ\""), "{out}");

    // "Why not A-D?": A's nearest opponent he may meet is C (B passed over, KZ-4.2).
    let (code, out, err) = common::swisspair(&["why", input, "--pair", "1-4"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("procedure: KZ-4.2"), "{out}");
    assert!(out.contains("1 (#1) meets 3 (#3)"), "{out}");
    // "Why not A-B?": the re-meeting rule.
    let (code, out, err) = common::swisspair(&["why", input, "--pair", "1-2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("KZ-4.2"), "{out}");

    // A simulated ladder with absences and club duty: deterministic, checks and audits
    // clean, and its ranks (the Keizer ranking) are what the audit recomputes.
    let sim = |seed: &str| {
        let (code, out, err) = common::swisspair(&[
            "simulate",
            "--system",
            "keizer",
            "--players",
            "13",
            "--rounds",
            "7",
            "--seed",
            seed,
            "--bye-rate",
            "0.1",
            "--full-point-byes",
            "5%",
            "--tie-breaks",
            "PTS,SB",
        ]);
        assert_eq!(code, 0, "{err}");
        out
    };
    let a = sim("9");
    assert_eq!(a, sim("9"));
    let simulated = temp_file("sim.trf", &a);
    let simulated = simulated.to_str().expect("utf-8");
    let (code, out, err) = common::swisspair(&["check", simulated]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("7 passed, 0 failed"), "{out}");
    let (code, out, err) = common::swisspair(&["audit", simulated]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("clean"), "{out}");
    assert!(!out.contains("ranks not checked"), "{out}");
}
