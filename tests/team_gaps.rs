//! Team events: a proposed TEAM pairing checked against C.04.6's absolute rules
//! (`swisspair validate`), and acceleration refused by name rather than ignored.
mod common;

use swisspair::model::{SystemId, Tournament, team_rounds};
use swisspair::simulate::{SimConfig, record_round, round_options, start};
use swisspair::systems;
use swisspair::trf;

/// A simulated team event of `teams` teams after `rounds` rounds (9 rounds scheduled).
fn event(teams: u32, rounds: u32, seed: u64) -> (Tournament, SimConfig) {
    let config = SimConfig::new(SystemId::TeamSwiss, teams, 9, seed);
    let mut t = start(&config);
    for _ in 0..rounds {
        let options = round_options(&t, &config);
        let pairing = swisspair::pairing::pair_round(&t, &options).expect("pairs");
        record_round(&mut t, &config, &pairing);
    }
    (t, config)
}

/// Writes `t` (TRF-26) and `pairs` into a fresh directory; their paths.
fn files(name: &str, t: &Tournament, pairs: &str) -> (std::path::PathBuf, String, String) {
    let dir =
        std::env::temp_dir().join(format!("swisspair-team-gaps-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let doc = trf::TrfDocument {
        tournament: t.clone(),
        ..trf::TrfDocument::default()
    };
    let text = swisspair::pairing::write_trf(&doc, trf::Dialect::Trf26).expect("writes");
    let trf_path = dir.join("event.trf");
    let pairs_path = dir.join("pairs.txt");
    std::fs::write(&trf_path, text).expect("write");
    std::fs::write(&pairs_path, pairs).expect("write");
    let s = |p: &std::path::Path| p.to_str().expect("utf-8").to_string();
    (dir.clone(), s(&trf_path), s(&pairs_path))
}

/// The system's own pairing of the next round, as `pair -p` writes it.
fn system_pairs(trf_path: &str) -> String {
    let (code, out, err) = common::swisspair(&["pair", "-p", "-", trf_path]);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn the_systems_own_team_pairing_validates() {
    let (t, _) = event(7, 2, 11);
    let (dir, trf_path, _) = files("own", &t, "");
    let pairs = system_pairs(&trf_path);
    let pairs_path = dir.join("own.txt");
    std::fs::write(&pairs_path, &pairs).expect("write");
    let (code, out, err) =
        common::swisspair(&["validate", &trf_path, pairs_path.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("violation"), "{out}");
    // Every board of the three matches (4 boards each) is listed.
    assert!(out.lines().count() >= 12, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_rematch_of_teams_breaks_c1() {
    let (t, _) = event(6, 2, 12);
    let rounds = team_rounds(&t).expect("team rounds");
    let m = rounds[0]
        .matches
        .iter()
        .find(|m| m.played)
        .expect("a played match");
    let (a, b) = (t.team_tpn(m.white), t.team_tpn(m.black));
    // The other four teams paired among themselves, in TPN order.
    let others: Vec<u32> = (1..=6).filter(|&x| x != a && x != b).collect();
    let pairs = format!(
        "{a} {b}\n{} {}\n{} {}\n",
        others[0], others[1], others[2], others[3]
    );
    let (dir, trf_path, pairs_path) = files("rematch", &t, &pairs);
    let (code, out, err) = common::swisspair(&["validate", &trf_path, &pairs_path]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains(&format!(
            "violation C.04.6 art. 2.1.1: [C1] teams {} and {} have already met",
            a.min(b),
            a.max(b)
        )) || out.contains(&format!(
            "violation C.04.6 art. 2.1.1: [C1] teams {a} and {b} have already met"
        )) || out.contains(&format!(
            "violation C.04.6 art. 2.1.1: [C1] teams {b} and {a} have already met"
        )),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_pab_breaks_c2_and_an_even_field_needs_none() {
    let (t, _) = event(5, 1, 13);
    let rounds = team_rounds(&t).expect("team rounds");
    let pab = rounds[0].pab.expect("an odd field has a PAB");
    let pab_tpn = t.team_tpn(pab);
    let others: Vec<u32> = (1..=5).filter(|&x| x != pab_tpn).collect();
    // Avoid the round-1 meetings among the others: try both ways of pairing them.
    let met = |x: u32, y: u32| {
        rounds[0].matches.iter().any(|m| {
            let (w, b) = (t.team_tpn(m.white), t.team_tpn(m.black));
            (w, b) == (x, y) || (w, b) == (y, x)
        })
    };
    let (p, q, r, s) = [
        (others[0], others[1], others[2], others[3]),
        (others[0], others[2], others[1], others[3]),
        (others[0], others[3], others[1], others[2]),
    ]
    .into_iter()
    .find(|&(p, q, r, s)| !met(p, q) && !met(r, s))
    .expect("a pairing of the four without a rematch");
    let pairs = format!("{p} {q}\n{r} {s}\n{pab_tpn} 0\n");
    let (dir, trf_path, pairs_path) = files("pab", &t, &pairs);
    let (code, out, err) = common::swisspair(&["validate", &trf_path, &pairs_path]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains(&format!(
            "violation C.04.6 art. 2.1.2: [C2] team {pab_tpn} already had the PAB"
        )),
        "{out}"
    );
    assert!(!out.contains("art. 2.1.1"), "{out}");
    // Two PABs proposed: at most one.
    let pairs = format!("{p} {q}\n{r} 0\n{s} 0\n");
    std::fs::write(&pairs_path, pairs).expect("write");
    let (code, out, _) = common::swisspair(&["validate", &trf_path, &pairs_path]);
    assert_eq!(code, 1);
    assert!(out.contains("at most one"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_partial_team_proposal_is_completed_by_the_system() {
    let (t, _) = event(6, 1, 14);
    let rounds = team_rounds(&t).expect("team rounds");
    let met = |x: u32, y: u32| {
        rounds[0].matches.iter().any(|m| {
            let (w, b) = (t.team_tpn(m.white), t.team_tpn(m.black));
            (w, b) == (x, y) || (w, b) == (y, x)
        })
    };
    let other = (2..=6)
        .find(|&x| !met(1, x))
        .expect("an opponent for team 1");
    let (dir, trf_path, pairs_path) = files("complete", &t, &format!("1 {other}\n"));
    let (code, out, err) = common::swisspair(&["validate", "--complete", &trf_path, &pairs_path]);
    // The completion may or may not find a legal rest; either way every team is covered
    // or the rule that failed is named.
    if code == 0 {
        assert!(!out.contains("unpaired"), "{out}");
        assert!(
            out.lines().filter(|l| !l.trim().is_empty()).count() >= 12,
            "{out}"
        );
    } else {
        assert!(out.contains("violation"), "{out}{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// C.04.7 on a team event (its own example is one): 8 teams, 5 rounds, match points
/// 2/1/0. GA = 2·⌈8/4⌉ = 4 teams (TPN 1-4); 3 rounds accelerated, +2 MP in rounds 1-2.
/// Round 1 then has two scoregroups, {1, 2, 3, 4} at 2 and {5, 6, 7, 8} at 0, each paired
/// top half against bottom half (art. 3.6): 1-3, 2-4, 5-7, 6-8 (unaccelerated: 1-5, 2-6,
/// 3-7, 4-8).
#[test]
fn baku_acceleration_pairs_the_teams_on_their_pairing_scores() {
    let (t, _) = event(8, 0, 15);
    let pairs_of = |t: &Tournament| {
        let pairing = swisspair::pairing::pair(t, &Default::default())
            .expect("pairs")
            .pairing;
        let teams = pairing.teams.clone().expect("team pairings");
        let mut pairs: Vec<(u32, u32)> = teams
            .matches
            .iter()
            .map(|m| {
                let (a, b) = (t.team_tpn(m.white), t.team_tpn(m.black));
                (a.min(b), a.max(b))
            })
            .collect();
        pairs.sort_unstable();
        (pairs, pairing.warnings)
    };
    let mut t5 = t.clone();
    t5.total_rounds = 5;
    let (plain, _) = pairs_of(&t5);
    assert_eq!(plain, [(1, 5), (2, 6), (3, 7), (4, 8)]);
    t5.options.set("acceleration", "BAKU").expect("option");
    let (baku, warnings) = pairs_of(&t5);
    assert_eq!(baku, [(1, 3), (2, 4), (5, 7), (6, 8)]);
    assert!(
        warnings
            .iter()
            .any(|w| w.code == "ACCELERATION" && w.message.contains("GA = the 4 teams")),
        "{warnings:?}"
    );
    // Through the CLI.
    let (dir, trf_path, _) = files("baku", &t5, "");
    let (code, out, err) =
        common::swisspair(&["pair", "-p", "-", "--acceleration", "BAKU", &trf_path]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 3") || out.contains("3 1"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
    // Per-player virtual points say nothing of teams: refused by name.
    let mut t3 = t5.clone();
    t3.accelerations.push(swisspair::model::Acceleration {
        player: 0,
        first_round: 1,
        last_round: 2,
        points: swisspair::model::Score::from_tenths(10),
    });
    match swisspair::pairing::pair(&t3, &Default::default()) {
        Err(systems::PairError::Invalid(p)) => {
            assert!(
                p.0.iter().any(|x| x.path == "tournament.accelerations"),
                "{p:?}"
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// The `ValidatePairing` RPC's conversion: a proposed board names two teams by any of
/// their members; a rematch of round 1 is reported under C.04.6 art. 2.1.1.
#[test]
fn the_validate_rpc_checks_team_pairings() {
    use swisspair::proto;
    use swisspair::service::convert;
    let (t, _) = event(6, 1, 16);
    let doc = trf::TrfDocument {
        tournament: t.clone(),
        ..trf::TrfDocument::default()
    };
    let text = swisspair::pairing::write_trf(&doc, trf::Dialect::Trf26).expect("writes");
    let back = swisspair::pairing::read_trf(&text)
        .expect("reads")
        .tournament;
    let rounds = team_rounds(&back).expect("team rounds");
    let m = rounds[0].matches.iter().find(|m| m.played).expect("played");
    // The LAST rostered member of each team names it.
    let member = |team: usize| {
        let p = *back.teams[team].members.last().expect("members");
        back.players[p].id.clone()
    };
    let request = proto::ValidatePairingRequest {
        input: Some(proto::validate_pairing_request::Input::Trf(text)),
        proposed: vec![proto::Board {
            white_id: member(m.white),
            black_id: member(m.black),
            ..proto::Board::default()
        }],
        ..proto::ValidatePairingRequest::default()
    };
    let limits = convert::Limits {
        max_players: 10_000,
    };
    let (tour, options, proposal) =
        convert::validate_request(&request, &limits).expect("valid request");
    let answer = swisspair::check::manual::run(&tour, &proposal, &options).expect("checks");
    let response = convert::validate_response(&answer.tournament, &answer.report);
    assert!(
        response
            .violations
            .iter()
            .any(|v| v.rule_id == "C.04.6 art. 2.1.1"),
        "{:?}",
        response.violations
    );
    // The match's boards are listed (4 boards), colours by art. 4.
    assert_eq!(response.boards.len(), 4);
}

/// Art. 3.6 in one scoregroup of 520 teams (round 1): beyond the one-weight form's width
/// (about 490 teams), solved chunk by chunk; every team is paired, top half against bottom
/// half as the identifiers' order wants when nobody has met (1 - 261, 2 - 262, …).
#[test]
fn a_scoregroup_of_520_teams_is_paired() {
    let mut config = SimConfig::new(SystemId::TeamSwiss, 520, 5, 17);
    config.boards = 1;
    let t = start(&config);
    let options = round_options(&t, &config);
    let pairing = swisspair::pairing::pair_round(&t, &options).expect("pairs");
    let teams = pairing.teams.expect("team pairings");
    assert_eq!(teams.matches.len(), 260);
    let mut pairs: Vec<(u32, u32)> = teams
        .matches
        .iter()
        .map(|m| {
            let (a, b) = (t.team_tpn(m.white), t.team_tpn(m.black));
            (a.min(b), a.max(b))
        })
        .collect();
    pairs.sort_unstable();
    let expected: Vec<(u32, u32)> = (1..=260).map(|k| (k, k + 260)).collect();
    assert_eq!(pairs, expected);
}

#[test]
fn every_board_of_the_systems_answer_validates_as_its_matches() {
    // The whole answer fed back (every board of every match, every player of the PAB team
    // as a bye) names each match once: no "proposed twice" (a fuzz finding).
    let (t, config) = event(7, 2, 5);
    let options = round_options(&t, &config);
    let answer = swisspair::pairing::pair_round(&t, &options).expect("pairs");
    let proposal = swisspair::check::manual::Proposal {
        boards: answer.boards.iter().map(|b| (b.white, b.black)).collect(),
        byes: answer.byes.iter().map(|b| b.player).collect(),
        ..swisspair::check::manual::Proposal::default()
    };
    assert!(proposal.boards.len() >= 12, "{:?}", proposal.boards);
    let report = swisspair::check::manual::run(&t, &proposal, &options).expect("validates");
    assert!(
        report.report.violations.is_empty(),
        "{:?}",
        report.report.violations
    );
}
