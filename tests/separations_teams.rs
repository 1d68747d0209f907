//! Separations in team events (systems.md SEP-6, docs/separations.md): teams of one club,
//! federation or named group kept apart by the Swiss Team system (C.04.6) and by a system
//! pairing the teams as units; the team's groups through the proto, JSON, TRF (`XTF`,
//! `XTC`, `XTG`) and the CLI.
//!
//! The hand-worked event: six teams of two boards (TPN 1-6), round 1 of five. Every team
//! scores 0, so there is one bracket of six; no team has a colour preference and nobody
//! floated, so [C8]-[C10] are all 0 and art. 3.6.2 decides: the first identifier (top
//! members' sequence numbers, then the bottom members' in the order of their top members)
//! has tops 1, 2, 3 and bottoms 4, 5, 6: 1-4, 2-5, 3-6. With teams 1 and 4 of one club kept
//! apart, the first identifier without that match has the bottoms 5, 4, 6: 1-5, 2-4, 3-6.
mod common;

use common::post_json;
use common::server::Server;
use proptest::prelude::*;
use swisspair::check::manual;
use swisspair::model::{Separation, SeparationKey, SeparationMode, SystemId, Tournament};
use swisspair::pairing;
use swisspair::service::ServerConfig;
use swisspair::systems::manual::Proposal;
use swisspair::systems::{PairError, PairOptions, RoundPairing};
use swisspair::{proto, service::convert};

/// The event as JSON (the proto's mapping): `teams` teams of two boards, team `i` of club
/// `clubs[i]` (empty = none), and the separations given.
fn event_json(clubs: &[&str], separations: serde_json::Value) -> serde_json::Value {
    let mut players = Vec::new();
    let mut teams = Vec::new();
    for (i, club) in clubs.iter().enumerate() {
        let ids: Vec<String> = (0..2).map(|b| format!("t{}b{}", i + 1, b + 1)).collect();
        for (b, id) in ids.iter().enumerate() {
            players.push(serde_json::json!({
                "id": id,
                "rating": 2400 - 100 * i as u32 - 10 * b as u32,
                "teamId": format!("t{}", i + 1),
            }));
        }
        teams.push(serde_json::json!({
            "id": format!("t{}", i + 1),
            "pairingNumber": i + 1,
            "name": format!("Team {}", i + 1),
            "memberIds": ids,
            "club": club,
        }));
    }
    serde_json::json!({
        "system": "PAIRING_SYSTEM_TEAM_SWISS",
        "tournament": {
            "system": "PAIRING_SYSTEM_TEAM_SWISS",
            "totalRounds": 5,
            "firstRoundColour": "COLOUR_WHITE",
            "players": players,
            "teams": teams,
            "separations": separations,
        }
    })
}

fn separation(key: &str, mode: &str) -> serde_json::Value {
    serde_json::json!([{"key": key, "mode": mode}])
}

/// The model tournament of a JSON event, through the proto's conversion.
fn tournament(body: &serde_json::Value) -> Tournament {
    let pt: proto::Tournament =
        serde_json::from_value(body["tournament"].clone()).expect("a proto tournament");
    let mut problems = Vec::new();
    let t =
        convert::tournament_from_proto(&pt, &convert::Limits { max_players: 100 }, &mut problems);
    assert!(problems.is_empty(), "{problems:?}");
    t
}

fn options() -> PairOptions {
    PairOptions {
        system: Some(SystemId::TeamSwiss),
        ..PairOptions::default()
    }
}

/// The team matches of an answer, by TPN, each smaller first, sorted.
fn matches(t: &Tournament, p: &RoundPairing) -> Vec<(u32, u32)> {
    let mut v: Vec<(u32, u32)> = p
        .teams
        .as_ref()
        .expect("team pairings")
        .matches
        .iter()
        .map(|m| {
            let (a, b) = (t.team_tpn(m.white), t.team_tpn(m.black));
            (a.min(b), a.max(b))
        })
        .collect();
    v.sort_unstable();
    v
}

fn steps(p: &RoundPairing) -> Vec<(String, String)> {
    p.explanation
        .groups
        .iter()
        .flat_map(|g| g.steps.iter())
        .map(|s| (s.rule_id.clone(), s.message.clone()))
        .collect()
}

const SIX: [&str; 6] = ["North", "", "", "North", "", ""];

#[test]
fn swiss_team_keeps_teams_of_a_club_apart() {
    let plain = tournament(&event_json(&SIX, serde_json::json!([])));
    let answer = pairing::pair(&plain, &options()).expect("pairs").pairing;
    // Art. 3.6.2's first identifier (module comment).
    assert_eq!(matches(&plain, &answer), vec![(1, 4), (2, 5), (3, 6)]);
    for mode in [
        "SEPARATION_MODE_ABSOLUTE",
        "SEPARATION_MODE_WEAK",
        "SEPARATION_MODE_WEAK_FIRST",
        "SEPARATION_MODE_WEAK_LAST",
    ] {
        // WEAK_FIRST (TS-SEP.4): the round's fewest is 0 and one scoregroup pairs all six,
        // so the same first identifier without 1-4.
        let t = tournament(&event_json(&SIX, separation("SEPARATION_KEY_CLUB", mode)));
        let answer = pairing::pair(&t, &options()).expect("pairs").pairing;
        // SEP-1 / SEP-5: 1-4 is the only match within a club; the next identifier.
        assert_eq!(matches(&t, &answer), vec![(1, 5), (2, 4), (3, 6)], "{mode}");
        let steps = steps(&answer);
        let rule = if mode.ends_with("ABSOLUTE") {
            "SEP-1"
        } else {
            "SEP-5"
        };
        assert!(
            steps.iter().any(|(r, _)| r == rule),
            "{mode}: the explanation cites {rule}: {steps:?}"
        );
    }
}

#[test]
fn an_unavoidable_match_within_a_club_is_named_or_refused() {
    let all = ["North"; 4];
    // WEAK: every match is within the club; the SEP-5 step names both.
    let t = tournament(&event_json(
        &all,
        separation("SEPARATION_KEY_CLUB", "SEPARATION_MODE_WEAK"),
    ));
    let answer = pairing::pair(&t, &options()).expect("pairs").pairing;
    assert_eq!(matches(&t, &answer), vec![(1, 3), (2, 4)]);
    let sep5: Vec<String> = steps(&answer)
        .into_iter()
        .filter(|(r, _)| r == "SEP-5")
        .map(|(_, m)| m)
        .collect();
    assert_eq!(sep5.len(), 1, "{sep5:?}");
    assert!(
        sep5[0].contains("2 pair(s) within a group")
            && sep5[0].contains("team 1-team 3 (North)")
            && sep5[0].contains("team 4-team 2 (North)"),
        "{}",
        sep5[0]
    );
    // ABSOLUTE: no legal pairing (C.04.6 art. 3.3.3), the separation named.
    let t = tournament(&event_json(
        &all,
        separation("SEPARATION_KEY_CLUB", "SEPARATION_MODE_ABSOLUTE"),
    ));
    match pairing::pair(&t, &options()) {
        Err(PairError::NoLegalPairing { message, .. }) => assert!(
            message.contains("absolute separations in force (SEP-1): club (1 group)"),
            "{message}"
        ),
        other => panic!("expected no legal pairing, got {other:?}"),
    }
}

#[test]
fn the_key_team_is_refused_in_a_team_event() {
    let t = tournament(&event_json(
        &SIX,
        separation("SEPARATION_KEY_TEAM", "SEPARATION_MODE_WEAK"),
    ));
    let err = pairing::pair(&t, &options()).expect_err("refused");
    assert!(matches!(err, PairError::Invalid(_)), "{err:?}");
    assert!(
        format!("{err:?}").contains("tournament.separations[0].key"),
        "{err:?}"
    );
}

#[test]
fn teams_as_units_carry_their_club() {
    // The Dutch system pairs the teams as units (pairing/teams.rs); each unit has its
    // team's club, so the separation applies to the units: round 1 by C.04.3 pairs S1-S2
    // (1-4, 5-2, 3-6); with 1 and 4 apart, 1-5 and 4-2 (the bracket's next transposition).
    for mode in [SeparationMode::Absolute, SeparationMode::Weak] {
        let mut t = tournament(&event_json(&SIX, serde_json::json!([])));
        let plain = pairing::pair(
            &t,
            &PairOptions {
                system: Some(SystemId::Dutch),
                ..PairOptions::default()
            },
        )
        .expect("pairs")
        .pairing;
        assert!(matches(&t, &plain).contains(&(1, 4)));
        t.separations = vec![Separation {
            mode,
            ..Separation::absolute(SeparationKey::Club)
        }];
        let answer = pairing::pair(
            &t,
            &PairOptions {
                system: Some(SystemId::Dutch),
                ..PairOptions::default()
            },
        )
        .expect("pairs")
        .pairing;
        assert_eq!(
            matches(&t, &answer),
            vec![(1, 5), (2, 4), (3, 6)],
            "{mode:?}"
        );
    }
}

#[test]
fn a_proposed_match_within_a_club_is_a_sep1_violation() {
    let t = tournament(&event_json(
        &SIX,
        separation("SEPARATION_KEY_CLUB", "SEPARATION_MODE_ABSOLUTE"),
    ));
    // Teams are named by any member: players 0 (team 1) and 6 (team 4).
    let proposal = Proposal {
        boards: vec![(0, 6), (2, 8), (4, 10)],
        byes: Vec::new(),
        complete: false,
        compare_with_engine: false,
    };
    let report = manual::validate(&t, SystemId::TeamSwiss, &proposal, &PairOptions::default())
        .expect("validates");
    let rules: Vec<&str> = report
        .violations
        .iter()
        .map(|v| v.rule_id.as_str())
        .collect();
    assert_eq!(rules, vec!["SEP-1"], "{:?}", report.violations);
    assert!(report.violations[0].message.contains("North"));
}

#[test]
fn why_apart_answers_for_teams() {
    // "Why do teams 1 and 4 meet?" in the plain event: kept apart, the system's pairing
    // is 1-5, 2-4, 3-6, equal on every criterion ([C4]-[C10] all 0 in round 1), so art.
    // 3.6.2's order decided; with a weak club separation that alternative is the answer.
    let plain = tournament(&event_json(&SIX, serde_json::json!([])));
    let question = swisspair::check::why::Question::Apart { a: 0, b: 6 };
    let answer = swisspair::check::why::run(&plain, &question, &options()).expect("answers");
    let alt = answer.alternative.expect("an alternative");
    assert_eq!(matches(&plain, &alt), vec![(1, 5), (2, 4), (3, 6)]);
    assert_eq!(
        answer.verdict.rule_id, "C.04.6 art. 3.6.2",
        "{:?}",
        answer.verdict
    );
    // Under the separation 1-4 is not made: the question says so.
    let t = tournament(&event_json(
        &SIX,
        separation("SEPARATION_KEY_CLUB", "SEPARATION_MODE_WEAK"),
    ));
    let answer = swisspair::check::why::run(&t, &question, &options()).expect("answers");
    assert!(answer.alternative.is_none());
    assert!(
        answer
            .verdict
            .message
            .contains("team 1 and team 4 do not meet"),
        "{:?}",
        answer.verdict
    );
}

#[test]
fn team_groups_round_trip_through_trf_and_the_proto() {
    let mut t = tournament(&event_json(
        &SIX,
        separation("SEPARATION_KEY_FEDERATION", "SEPARATION_MODE_WEAK"),
    ));
    t.teams[0].federation = "NOR".into();
    t.teams[3].federation = "NOR".into();
    t.teams[2].groups = vec!["region:west".into(), "sponsor:acme".into()];
    for dialect in [
        swisspair::trf::Dialect::JaVaFo,
        swisspair::trf::Dialect::Trf26,
    ] {
        let doc = swisspair::trf::TrfDocument {
            tournament: t.clone(),
            ..Default::default()
        };
        let text = pairing::write_trf(&doc, dialect).expect("writes");
        assert!(text.contains("\nXTF 1 NOR\n"), "{text}");
        assert!(text.contains("\nXTC 4 North\n"), "{text}");
        assert!(text.contains("\nXTG 3 region:west\n"), "{text}");
        let back = pairing::read_trf(&text).expect("reads").tournament;
        for (a, b) in back.teams.iter().zip(&t.teams) {
            assert_eq!(
                (&a.federation, &a.club, &a.groups),
                (&b.federation, &b.club, &b.groups)
            );
        }
        assert_eq!(back.separations, t.separations);
        let p1 = pairing::pair(&t, &options()).expect("pairs").pairing;
        let p2 = pairing::pair(&back, &options()).expect("pairs").pairing;
        assert_eq!(matches(&t, &p1), matches(&back, &p2));
    }
    let pt = convert::tournament_to_proto(&t);
    assert_eq!(pt.teams[0].federation, "NOR");
    assert_eq!(pt.teams[2].groups, vec!["region:west", "sponsor:acme"]);
    let mut problems = Vec::new();
    let back =
        convert::tournament_from_proto(&pt, &convert::Limits { max_players: 100 }, &mut problems);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(back.teams, t.teams);
    // A team record naming no team is refused with its line.
    let err = pairing::read_trf(
        "012 x\n001    1      A                                 2000\nXTC 7 North\n",
    )
    .expect_err("no team 7");
    assert!(
        err.to_string()
            .contains("XTC: no team has pairing number 7"),
        "{err}"
    );
}

#[test]
fn cli_pairs_a_team_file_with_a_club_separation() {
    let t = tournament(&event_json(&SIX, serde_json::json!([])));
    let doc = swisspair::trf::TrfDocument {
        tournament: t,
        ..Default::default()
    };
    let text = pairing::write_trf(&doc, swisspair::trf::Dialect::Trf26).expect("writes");
    let dir = std::env::temp_dir().join(format!("swisspair-sep-teams-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("teams.trf");
    std::fs::write(&path, text).expect("writes");
    let file = path.to_str().expect("utf-8 path");
    let team_pairs = |out: &str| -> Vec<(u32, u32)> {
        let mut v: Vec<(u32, u32)> = out
            .lines()
            .skip(1)
            .take_while(|l| !l.trim().is_empty())
            .map(|l| {
                let n: Vec<u32> = l
                    .split_whitespace()
                    .map(|x| x.parse().expect("tpn"))
                    .collect();
                (n[0].min(n[1]), n[0].max(n[1]))
            })
            .collect();
        v.sort_unstable();
        v
    };
    let (code, out, err) = common::swisspair(&["pair", file, "-p"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(team_pairs(&out), vec![(1, 4), (2, 5), (3, 6)], "{out}");
    let (code, out, err) = common::swisspair(&["pair", file, "-p", "--separate", "club=absolute"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(team_pairs(&out), vec![(1, 5), (2, 4), (3, 6)], "{out}");
    // "Why do teams 2 and 4 meet?" under the separation: keeping them apart as well costs
    // no criterion, only art. 3.6.2's order.
    let (code, out, err) =
        common::swisspair(&["why", file, "--separate", "club=weak", "--apart", "2-4"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("C.04.6 art. 3.6.2"), "{out}");
    let (code, _, err) = common::swisspair(&["pair", file, "-p", "--separate", "team=weak"]);
    assert_ne!(code, 0);
    assert!(err.contains("tournament.separations[0].key"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_pairs_teams_with_a_club_separation() {
    let server = Server::start(ServerConfig::default()).await;
    let addr = server.addr.trim_start_matches("http://").to_string();
    let body = event_json(
        &SIX,
        separation("SEPARATION_KEY_CLUB", "SEPARATION_MODE_WEAK"),
    );
    let (status, answer) = post_json(&addr, "Pair", &body);
    assert_eq!(status, 200, "{answer}");
    let mut pairs: Vec<(String, String)> = answer["teamPairings"]
        .as_array()
        .expect("team pairings")
        .iter()
        .map(|m| {
            let (a, b) = (
                m["whiteTeamId"].as_str().unwrap_or("").to_string(),
                m["blackTeamId"].as_str().unwrap_or("").to_string(),
            );
            if a < b { (a, b) } else { (b, a) }
        })
        .collect();
    pairs.sort();
    assert_eq!(
        pairs,
        vec![
            ("t1".to_string(), "t5".to_string()),
            ("t2".to_string(), "t4".to_string()),
            ("t3".to_string(), "t6".to_string())
        ],
        "{answer}"
    );
    let text = answer["explanation"].to_string();
    assert!(text.contains("SEP-5"), "{text}");
    // A team's group over the limit (64 characters), or not of the form prefix:name:
    // INVALID_ARGUMENT naming the team's field.
    for (group, expected) in [
        (
            "region:".to_string() + &"x".repeat(60),
            "tournament.teams[1].groups[0]",
        ),
        ("nocolon".to_string(), "tournament.teams[1].groups[0]"),
    ] {
        let mut body = event_json(
            &SIX,
            separation("SEPARATION_KEY_CLUB", "SEPARATION_MODE_WEAK"),
        );
        body["tournament"]["teams"][1]["groups"] = serde_json::json!([group]);
        let (status, answer) = post_json(&addr, "Pair", &body);
        assert_eq!(status, 400, "{answer}");
        assert!(
            answer["message"].as_str().unwrap_or("").contains(expected),
            "{answer}"
        );
    }
    // The key TEAM: INVALID_ARGUMENT naming the field.
    let body = event_json(
        &SIX,
        separation("SEPARATION_KEY_TEAM", "SEPARATION_MODE_ABSOLUTE"),
    );
    let (status, answer) = post_json(&addr, "Pair", &body);
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["message"]
            .as_str()
            .unwrap_or("")
            .contains("tournament.separations[0].key"),
        "{answer}"
    );
}

/// SEP-3 in a team event: the exemption of the top K score groups reads the teams' primary
/// score (match points). After round 1 (1-2, 3-4, 5-6, each won 2-0 by the first team),
/// teams 1, 3, 5 have 2 match points and top the field. The plain round 2 makes a match
/// of two of them; with those two in one club an absolute separation parts them, unless
/// it exempts the top score group, when the answer is the plain one.
#[test]
fn the_top_score_group_of_teams_can_be_exempt() {
    use swisspair::model::{Game, GameResult, Round};
    let mut t = tournament(&event_json(
        &["", "", "", "", "", ""],
        serde_json::json!([]),
    ));
    let member = |team: usize, board: usize| 2 * team + board;
    let mut games = Vec::new();
    for (w, b) in [(0, 1), (2, 3), (4, 5)] {
        for board in 0..2 {
            // Board 1: the first team White (352's default WB), board 2 reversed.
            let (white, black) = if board == 0 {
                (member(w, 0), member(b, 0))
            } else {
                (member(b, 1), member(w, 1))
            };
            games.push(Game {
                white,
                black,
                result: if board == 0 {
                    GameResult::WhiteWins
                } else {
                    GameResult::BlackWins
                },
                board: None,
            });
        }
    }
    t.rounds.push(Round {
        games,
        byes: Vec::new(),
    });
    let plain = pairing::pair(&t, &options()).expect("pairs").pairing;
    let top: Vec<(u32, u32)> = matches(&t, &plain)
        .into_iter()
        .filter(|&(a, b)| a % 2 == 1 && b % 2 == 1)
        .collect();
    assert_eq!(
        top.len(),
        1,
        "two of 1, 3, 5 meet: {:?}",
        matches(&t, &plain)
    );
    let (x, y) = top[0];
    t.teams[x as usize - 1].club = "North".into();
    t.teams[y as usize - 1].club = "North".into();
    t.separations = vec![Separation::absolute(SeparationKey::Club)];
    let parted = pairing::pair(&t, &options()).expect("pairs").pairing;
    assert!(!matches(&t, &parted).contains(&(x, y)));
    t.separations[0].exempt_top_groups = Some(1);
    let exempt = pairing::pair(&t, &options()).expect("pairs").pairing;
    assert_eq!(matches(&t, &exempt), matches(&t, &plain));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// On random simulated team events (C.04.6, 4-12 teams of two boards, rounds 1-4),
    /// with an absolute separation of two "family" groups of teams and a weak club one at a
    /// place the Swiss Team system offers: the answer (when the round can be paired) places
    /// every team once, never makes a match within a family, and is the same twice; a
    /// round without a legal pairing is C.04.6's "no legal pairing" naming SEP-1.
    #[test]
    fn team_separations_keep_the_rules(
        teams in 4u32..13,
        played in 0usize..4,
        clubs in 2u64..5,
        last in proptest::bool::ANY,
        seed in 0u64..1_000_000,
    ) {
        use swisspair::simulate::{SimConfig, simulate};
        let Some(mut t) = (0..5).find_map(|k| {
            let mut config =
                SimConfig::new(SystemId::TeamSwiss, teams, played.max(1) as u32, seed + k);
            config.boards = 2;
            simulate(&config).ok()
        }) else {
            return Ok(());
        };
        t.rounds.truncate(played);
        t.total_rounds = 7;
        let mut x = seed;
        for (i, team) in t.teams.iter_mut().enumerate() {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            team.club = format!("club{}", (x >> 33) % clubs);
            team.groups = match i {
                0 | 3 => vec!["family:a".to_string()],
                1 | 4 => vec!["family:b".to_string()],
                _ => Vec::new(),
            };
        }
        t.separations = vec![
            Separation::absolute(SeparationKey::Group("family".into())),
            Separation {
                mode: if last { SeparationMode::WeakLast } else { SeparationMode::Weak },
                ..Separation::absolute(SeparationKey::Club)
            },
        ];
        match pairing::pair(&t, &options()) {
            Ok(answer) => {
                let again = pairing::pair(&t, &options()).expect("the same request pairs again");
                prop_assert_eq!(&answer.pairing.teams, &again.pairing.teams);
                let p = answer.pairing.teams.expect("team pairings");
                let mut seen = std::collections::HashSet::new();
                for m in &p.matches {
                    prop_assert!(seen.insert(m.white) && seen.insert(m.black), "a team twice");
                    let family = |team: usize| t.teams[team].groups.first().cloned();
                    prop_assert!(
                        family(m.white).is_none() || family(m.white) != family(m.black),
                        "teams {} and {} are one family", m.white, m.black
                    );
                }
                if let Some(pab) = p.pab {
                    prop_assert!(seen.insert(pab), "the PAB team is paired too");
                }
                prop_assert_eq!(seen.len(), t.teams.len());
            }
            Err(PairError::NoLegalPairing { message, .. }) => {
                prop_assert!(message.contains("SEP-1"), "{}", message);
            }
            Err(e) => prop_assert!(false, "unexpected error: {e}"),
        }
    }
}
