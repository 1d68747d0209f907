//! Manual pairing (systems.md §9, MP-1): violations of a system's absolute rules, MP-1
//! colours, completion by the system; through the library and the CLI. Expected results
//! are worked out by hand from the rules.
mod common;

use swisspair::check::manual::{Proposal, validate};
use swisspair::model::{
    Bye, ByeKind, Colour, Game, GameResult, Player, Round, SystemId, Tournament,
};
use swisspair::systems::PairOptions;

use common::swisspair;

/// Players 1..=n (index i has pairing number i + 1), 5 rounds, White first, round 1 given.
fn amalfi(n: u32, round1: Vec<Game>, byes: Vec<Bye>) -> Tournament {
    Tournament {
        system: Some(SystemId::Amalfi),
        total_rounds: 5,
        initial_colour: Some(Colour::White),
        players: (1..=n)
            .map(|i| Player {
                id: i.to_string(),
                pairing_number: Some(i),
                rating: 2500 - i * 10,
                ..Player::default()
            })
            .collect(),
        rounds: vec![Round {
            games: round1,
            byes,
        }],
        ..Tournament::default()
    }
}

fn game(w: usize, b: usize, result: GameResult) -> Game {
    Game {
        white: w - 1,
        black: b - 1,
        result,
        board: None,
    }
}

/// (white, black) by pairing number.
fn boards(r: &swisspair::check::manual::ManualReport) -> Vec<(usize, usize)> {
    r.boards
        .iter()
        .map(|b| (b.white + 1, b.black + 1))
        .collect()
}

#[test]
fn colours_follow_mp1_and_a_rematch_is_a_violation() {
    // Round 1: 1-4 1-0, 5-2 0-1, 3-6 draw.
    let t = amalfi(
        6,
        vec![
            game(1, 4, GameResult::WhiteWins),
            game(5, 2, GameResult::BlackWins),
            game(3, 6, GameResult::Draw),
        ],
        Vec::new(),
    );
    let proposal = Proposal {
        boards: vec![(0, 1), (2, 4), (3, 5)],
        ..Proposal::default()
    };
    let r = validate(&t, SystemId::Amalfi, &proposal, &PairOptions::default()).expect("validates");
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    // 1 had White, 2 Black: MP-1(1) gives 2 White. 3 and 5 both had White: MP-1(3), the
    // lower number 3 alternates to Black. 4 and 6 both had Black: 4 alternates to White.
    assert_eq!(boards(&r), vec![(2, 1), (5, 3), (4, 6)]);
    let rules: Vec<&str> = r
        .explanation
        .groups
        .iter()
        .flat_map(|g| &g.steps)
        .map(|s| s.rule_id.as_str())
        .collect();
    assert_eq!(rules, vec!["MP-1(1)", "MP-1(3)", "MP-1(3)"]);

    let rematch = Proposal {
        boards: vec![(3, 0), (1, 2), (4, 5)],
        ..Proposal::default()
    };
    let r = validate(&t, SystemId::Amalfi, &rematch, &PairOptions::default()).expect("validates");
    assert_eq!(r.violations.len(), 1, "{:?}", r.violations);
    assert_eq!(r.violations[0].rule_id, "AM-3.1");
    assert_eq!(r.violations[0].players, vec![3, 0]);
}

#[test]
fn bye_rules_and_completion() {
    // Five players; round 1: 1-4 1-0, 5-2 0-1, 3 had the bye.
    let t = amalfi(
        5,
        vec![
            game(1, 4, GameResult::WhiteWins),
            game(5, 2, GameResult::BlackWins),
        ],
        vec![Bye {
            player: 2,
            kind: ByeKind::Pab,
        }],
    );
    let again = Proposal {
        boards: vec![(0, 1), (3, 4)],
        byes: vec![2],
        ..Proposal::default()
    };
    let r = validate(&t, SystemId::Amalfi, &again, &PairOptions::default()).expect("validates");
    let rules: Vec<&str> = r.violations.iter().map(|v| v.rule_id.as_str()).collect();
    // 3 played no game (AM-2.2). Amalfi has no rule of its own against a second bye: AM-2.2
    // (most games played) is its bye rule, so C.04.1 art. 4 is not reported as well.
    assert_eq!(rules, vec!["AM-2.2"]);

    // A partial proposal completed by Amalfi: nobody left, one bye, not to player 3.
    let partial = Proposal {
        boards: vec![(0, 1)],
        complete: true,
        ..Proposal::default()
    };
    let r = validate(&t, SystemId::Amalfi, &partial, &PairOptions::default()).expect("validates");
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert!(r.unpaired.is_empty());
    assert_eq!(r.boards.len(), 2);
    let pab: Vec<usize> = r
        .byes
        .iter()
        .filter(|b| b.kind == ByeKind::Pab)
        .map(|b| b.player)
        .collect();
    assert_eq!(pab.len(), 1);
    assert_ne!(pab[0], 2);

    // Without completion the two left are reported, and a player proposed twice is caught.
    let twice = Proposal {
        boards: vec![(0, 1), (1, 3)],
        ..Proposal::default()
    };
    let r = validate(&t, SystemId::Amalfi, &twice, &PairOptions::default()).expect("validates");
    assert!(
        r.violations
            .iter()
            .any(|v| v.rule_id == "MP-1" && v.players == vec![1]),
        "{:?}",
        r.violations
    );
}

#[test]
fn colour_limits_are_violations_outside_the_last_round() {
    // Rounds 1-2: 1 and 3 had White twice, 2 and 4 Black twice.
    let mut t = amalfi(
        4,
        vec![game(1, 2, GameResult::Draw), game(3, 4, GameResult::Draw)],
        Vec::new(),
    );
    t.rounds.push(Round {
        games: vec![game(1, 4, GameResult::Draw), game(3, 2, GameResult::Draw)],
        byes: Vec::new(),
    });
    // 1 against 3: whoever gets White plays it a third time in a row (AM-3.1).
    let clash = Proposal {
        boards: vec![(0, 2), (1, 3)],
        ..Proposal::default()
    };
    let r = validate(&t, SystemId::Amalfi, &clash, &PairOptions::default()).expect("validates");
    // And 2 against 4: one of them plays Black a third time.
    let found: Vec<(&str, Vec<usize>)> = r
        .violations
        .iter()
        .map(|v| (v.rule_id.as_str(), v.players.clone()))
        .collect();
    assert_eq!(found, vec![("AM-3.1", vec![2]), ("AM-3.1", vec![3])]);
    // The same proposal in the last round breaks nothing: colour rules do not apply there.
    t.total_rounds = 3;
    let r = validate(&t, SystemId::Amalfi, &clash, &PairOptions::default()).expect("validates");
    assert!(r.violations.is_empty(), "{:?}", r.violations);
}

#[test]
fn cli_validate_reports_violations_and_colours() {
    let t = amalfi(
        6,
        vec![
            game(1, 4, GameResult::WhiteWins),
            game(5, 2, GameResult::BlackWins),
            game(3, 6, GameResult::Draw),
        ],
        Vec::new(),
    );
    let doc = swisspair::trf::TrfDocument {
        tournament: t,
        ..Default::default()
    };
    let dir = std::env::temp_dir();
    let trf_path = dir.join(format!("swisspair-manual-{}.trf", std::process::id()));
    std::fs::write(
        &trf_path,
        swisspair::pairing::write_trf(&doc, swisspair::trf::Dialect::JaVaFo)
            .expect("writable as TRF"),
    )
    .expect("write");
    let good = dir.join(format!("swisspair-manual-good-{}.txt", std::process::id()));
    std::fs::write(&good, "3\n1 2\n3 5\n4 6\n").expect("write");
    let (code, out, err) = swisspair(&[
        "validate",
        "--system",
        "amalfi",
        trf_path.to_str().expect("path"),
        good.to_str().expect("path"),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out, "3\n2 1\n5 3\n4 6\n");
    let bad = dir.join(format!("swisspair-manual-bad-{}.txt", std::process::id()));
    std::fs::write(&bad, "3\n4 1\n2 3\n5 6\n").expect("write");
    let (code, out, _) = swisspair(&[
        "validate",
        "--system",
        "amalfi",
        trf_path.to_str().expect("path"),
        bad.to_str().expect("path"),
    ]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("violation AM-3.1: 4 and 1 have already met"),
        "{out}"
    );
}

/// MP-1 (1) reverses a colour only for the system's own absolute limits: Vincze forbids a
/// third colour in a row (VZ-4.3) but not a difference beyond 2, so a pair where MP-1's
/// first choice gives a third Black and the reverse only a difference of 3 is reversed, and
/// the pairing the Vincze engine made is legal. (Found by the structured fuzzer: a 35-player
/// field with absences and requested byes; every input comes from the seeds.)
#[test]
fn mp1_reverses_for_the_systems_own_colour_limits() {
    use swisspair::simulate::SimConfig;
    let sim = swisspair::simulate::run(&SimConfig::new(
        SystemId::Vincze,
        35,
        4,
        7_224_394_089_089_924_561,
    ))
    .expect("simulates");
    let mut t = sim.tournament;
    t.total_rounds = 6;
    let options = PairOptions {
        absent: vec![8, 33, 19],
        requested_byes: vec![(25, ByeKind::ZeroPoint), (15, ByeKind::HalfPoint)],
        seed: Some(15_670_781_326_296_451_125),
        system: Some(SystemId::Vincze),
        ..PairOptions::default()
    };
    let answer = swisspair::pairing::pair(&t, &options).expect("pairs");
    let proposal = Proposal {
        boards: answer
            .pairing
            .boards
            .iter()
            .map(|b| (b.white, b.black))
            .collect(),
        byes: answer
            .pairing
            .byes
            .iter()
            .filter(|b| b.kind == ByeKind::Pab)
            .map(|b| b.player)
            .collect(),
        complete: false,
        compare_with_engine: false,
    };
    let report = swisspair::check::manual::run(&t, &proposal, &options)
        .expect("validates")
        .report;
    assert!(report.violations.is_empty(), "{:?}", report.violations);
    // p5 (index 4) had Black in his last two games: MP-1 gives him White.
    let board = report
        .boards
        .iter()
        .find(|b| b.white == 4 || b.black == 4)
        .expect("p5 plays");
    assert_eq!(board.white, 4);
}

#[test]
fn dubov_keeps_its_colour_limits_in_the_last_round() {
    // The same histories as above, under Dubov: [C3] of C.04.4.1 has no last-round
    // exception, so the clash is a violation in round 3 even when it is the last.
    let mut t = amalfi(
        4,
        vec![game(1, 2, GameResult::Draw), game(3, 4, GameResult::Draw)],
        Vec::new(),
    );
    t.system = Some(SystemId::Dubov);
    t.rounds.push(Round {
        games: vec![game(1, 4, GameResult::Draw), game(3, 2, GameResult::Draw)],
        byes: Vec::new(),
    });
    let clash = Proposal {
        boards: vec![(0, 2), (1, 3)],
        ..Proposal::default()
    };
    for total in [5, 3] {
        t.total_rounds = total;
        let r = validate(&t, SystemId::Dubov, &clash, &PairOptions::default()).expect("validates");
        let rules: Vec<&str> = r.violations.iter().map(|v| v.rule_id.as_str()).collect();
        assert_eq!(rules, vec!["C.04.4.1 [C3]"; 2], "{total} rounds");
    }
}

/// FIDE's verification (VCL4THP Q66): a rematch, a prohibited pair and a colour limit are
/// Level 3 warnings; a player proposed twice blocks the pairing (Level 4).
#[test]
fn manual_findings_carry_the_checklists_warning_levels() {
    use swisspair::check::manual::level;
    use swisspair::model::ForbiddenPairing;
    // Round 1: 1-4 1-0, 5-2 0-1, 3-6 draw; 2 and 3 may not meet.
    let mut t = amalfi(
        6,
        vec![
            game(1, 4, GameResult::WhiteWins),
            game(5, 2, GameResult::BlackWins),
            game(3, 6, GameResult::Draw),
        ],
        Vec::new(),
    );
    t.forbidden_pairings.push(ForbiddenPairing {
        players: vec![1, 2],
        first_round: None,
        last_round: None,
    });
    let proposal = Proposal {
        // 4-1 a rematch, 2-3 prohibited, 5-6 fine.
        boards: vec![(3, 0), (1, 2), (4, 5)],
        ..Proposal::default()
    };
    let r = validate(&t, SystemId::Amalfi, &proposal, &PairOptions::default()).expect("validates");
    let levels: Vec<(&str, u8)> = r
        .violations
        .iter()
        .map(|v| (v.rule_id.as_str(), v.level))
        .collect();
    assert_eq!(
        levels,
        vec![("AM-3.1", level::SERIOUS), ("CG-10", level::SERIOUS)]
    );
    let twice = Proposal {
        boards: vec![(0, 1), (0, 2), (4, 5)],
        ..Proposal::default()
    };
    let r = validate(&t, SystemId::Amalfi, &twice, &PairOptions::default()).expect("validates");
    assert!(
        r.violations
            .iter()
            .any(|v| v.rule_id == "MP-1" && v.level == level::BLOCKING),
        "{:?}",
        r.violations
    );
}

/// VCL4THP Q68-69: the proposal compared with the engine's pairing of the round; the
/// engine's own pairing has no difference, another pairing one Level 3 difference per pair
/// the engine does not make, and the `### MPA` comment.
#[test]
fn a_manual_pairing_is_compared_with_the_engines() {
    let sim = swisspair::simulate::run(&swisspair::simulate::SimConfig::new(
        SystemId::Dutch,
        10,
        2,
        4,
    ))
    .expect("simulates");
    let mut t = sim.tournament;
    t.total_rounds = 5;
    let options = PairOptions {
        system: Some(SystemId::Dutch),
        ..PairOptions::default()
    };
    let answer = swisspair::pairing::pair(&t, &options).expect("pairs");
    let engine: Vec<(usize, usize)> = answer
        .pairing
        .boards
        .iter()
        .map(|b| (b.white, b.black))
        .collect();
    let same = Proposal {
        boards: engine.clone(),
        compare_with_engine: true,
        ..Proposal::default()
    };
    let r = swisspair::check::manual::run(&t, &same, &options)
        .expect("validates")
        .report;
    let cmp = r.engine.expect("compared");
    assert!(cmp.differences.is_empty(), "{:?}", cmp.differences);
    assert!(cmp.trf_comment.is_empty());
    assert_eq!(cmp.boards.len(), engine.len());
    // Swap the opponents of the first two boards' Black players.
    let mut other = engine.clone();
    let (b0, b1) = (other[0].1, other[1].1);
    other[0].1 = b1;
    other[1].1 = b0;
    let r = swisspair::check::manual::run(
        &t,
        &Proposal {
            boards: other,
            compare_with_engine: true,
            ..Proposal::default()
        },
        &options,
    )
    .expect("validates")
    .report;
    let cmp = r.engine.expect("compared");
    assert_eq!(cmp.differences.len(), 2, "{:?}", cmp.differences);
    assert!(
        cmp.differences
            .iter()
            .all(|d| d.rule_id == "MPA" && d.level == 3)
    );
    assert!(
        cmp.trf_comment.starts_with("### MPA @ Round 3: "),
        "{}",
        cmp.trf_comment
    );
}

/// VCL4THP Q100-101: a manual pairing in a round robin may pair two players once per
/// cycle: a second meeting in the first cycle is a rematch (Level 3), a meeting in the
/// second cycle of a double round robin is not.
#[test]
fn a_round_robin_allows_one_meeting_per_cycle() {
    use swisspair::simulate::{SimConfig, simulate};
    let meets_again = |rounds: u32, cycles: &str| {
        let mut c = SimConfig::new(SystemId::RoundRobin, 6, rounds, 9);
        c.options.set("cycles", cycles).expect("named");
        let mut t = simulate(&c).expect("simulates");
        t.total_rounds = if cycles == "2" { 10 } else { 5 };
        // Round 1's boards again, in the next round.
        let proposal = Proposal {
            boards: t.rounds[0]
                .games
                .iter()
                .map(|g| (g.white, g.black))
                .collect(),
            ..Proposal::default()
        };
        validate(&t, SystemId::RoundRobin, &proposal, &PairOptions::default())
            .expect("validates")
            .violations
    };
    let first_cycle = meets_again(1, "1");
    assert_eq!(first_cycle.len(), 3, "{first_cycle:?}");
    assert!(
        first_cycle
            .iter()
            .all(|v| v.level == 3 && v.message.contains("already met"))
    );
    let second_cycle = meets_again(5, "2");
    assert!(
        second_cycle
            .iter()
            .all(|v| !v.message.contains("already met")),
        "{second_cycle:?}"
    );
}

/// A table or bracket fixes every pair (`System::fixed_pairs_rule`): in a round robin
/// (RR-1), a knockout (KO-3.1) and a Scheveningen (SCH-2) the system's own pairs validate,
/// and a proposal that swaps two opponents is a violation of the table's rule for each
/// changed board.
#[test]
fn fixed_tables_flag_pairs_off_the_table() {
    use swisspair::simulate::{SimConfig, simulate};
    for (system, rule) in [
        (SystemId::RoundRobin, "RR-1"),
        (SystemId::Knockout, "KO-3.1"),
        (SystemId::Scheveningen, "SCH-2"),
    ] {
        let mut config = SimConfig::new(system, 8, 2, 7);
        config.forfeit_rate = 0.0;
        config.draw_rate = 0.0;
        let mut t = simulate(&config).unwrap_or_else(|e| panic!("{system:?}: {e}"));
        t.rounds.truncate(1);
        let options = PairOptions {
            system: Some(system),
            ..PairOptions::default()
        };
        let answer = swisspair::pairing::pair(&t, &options)
            .unwrap_or_else(|e| panic!("{system:?}: {e}"))
            .pairing;
        let boards: Vec<(usize, usize)> =
            answer.boards.iter().map(|b| (b.white, b.black)).collect();
        assert!(boards.len() >= 2, "{system:?}: {boards:?}");
        let own = Proposal {
            boards: boards.clone(),
            byes: Vec::new(),
            complete: true,
            compare_with_engine: false,
        };
        let report = validate(&t, system, &own, &options).expect("validates");
        assert!(
            report.violations.iter().all(|v| v.rule_id != rule),
            "{system:?}: {:?}",
            report.violations
        );
        // The first two boards' opponents swapped: neither new pair is in the table.
        let mut swapped = boards.clone();
        let (a, b) = (swapped[0].1, swapped[1].1);
        swapped[0].1 = b;
        swapped[1].1 = a;
        let off = Proposal {
            boards: swapped,
            byes: Vec::new(),
            complete: true,
            compare_with_engine: false,
        };
        let report = validate(&t, system, &off, &options).expect("validates");
        let flagged = report
            .violations
            .iter()
            .filter(|v| v.rule_id == rule)
            .count();
        assert_eq!(flagged, 2, "{system:?}: {:?}", report.violations);
    }
}

#[test]
fn a_bye_above_the_lowest_score_is_a_serious_warning() {
    // VCL4THP Q66, MP-2: in the Dutch system the pairing-allocated bye goes to the lowest
    // score (C.04.3 C5). Five players; round 1: 1-4 1-0, 5-2 0-1, 3 had the bye. Before
    // round 2: 1, 2 and 3 have 1 point, 4 and 5 none; 3 may not have a second bye.
    let mut t = amalfi(
        5,
        vec![
            game(1, 4, GameResult::WhiteWins),
            game(5, 2, GameResult::BlackWins),
        ],
        vec![Bye {
            player: 2,
            kind: ByeKind::Pab,
        }],
    );
    t.system = Some(SystemId::Dutch);
    // The bye to 1 (1 point) while 4 and 5 (0 points) may have it: one level-3 finding
    // naming 1 and the first of the lowest, 4.
    let above = Proposal {
        boards: vec![(1, 3), (2, 4)],
        byes: vec![0],
        ..Proposal::default()
    };
    let r = validate(&t, SystemId::Dutch, &above, &PairOptions::default()).expect("validates");
    // A quality criterion, not an absolute rule: a warning, and no violation.
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    let found: Vec<(&str, Vec<usize>, u8)> = r
        .warnings
        .iter()
        .map(|v| (v.rule_id.as_str(), v.players.clone(), v.level))
        .collect();
    assert_eq!(found, vec![("MP-2", vec![0, 3], 3)]);
    assert!(
        r.warnings[0]
            .message
            .contains("with 1.0 points while 4 may have it with 0.0"),
        "{}",
        r.warnings[0].message
    );
    // Amalfi gives its bye by games played (AM-2.2), not by score: no MP-2 warning.
    let mut amalfi_event = t.clone();
    amalfi_event.system = Some(SystemId::Amalfi);
    let r = validate(
        &amalfi_event,
        SystemId::Amalfi,
        &above,
        &PairOptions::default(),
    )
    .expect("validates");
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    // The bye to 4 (0 points, as low as anyone who may have it): no finding.
    let lowest = Proposal {
        boards: vec![(0, 1), (2, 4)],
        byes: vec![3],
        ..Proposal::default()
    };
    let r = validate(&t, SystemId::Dutch, &lowest, &PairOptions::default()).expect("validates");
    assert!(r.violations.is_empty() && r.warnings.is_empty(), "{r:?}");
    // With 4 and 5 accelerated by a virtual point in round 2 (C.04.7), all five have a
    // pairing score of 1: the bye to 1 is no longer above the lowest.
    t.accelerations = [3, 4]
        .into_iter()
        .map(|player| swisspair::model::Acceleration {
            player,
            first_round: 2,
            last_round: 2,
            points: swisspair::model::Score::points(1),
        })
        .collect();
    let r = validate(&t, SystemId::Dutch, &above, &PairOptions::default()).expect("validates");
    assert!(r.violations.is_empty() && r.warnings.is_empty(), "{r:?}");
}

/// The CLI prints an MP-2 warning (VCL4THP Q66) and exits 0: the pairing breaks no absolute
/// rule; the response's `warnings` carries the same finding for gRPC and JSON.
#[test]
fn cli_and_response_carry_the_lowest_score_bye_warning() {
    let mut t = amalfi(
        5,
        vec![
            game(1, 4, GameResult::WhiteWins),
            game(5, 2, GameResult::BlackWins),
        ],
        vec![Bye {
            player: 2,
            kind: ByeKind::Pab,
        }],
    );
    t.system = Some(SystemId::Dutch);
    let proposal = Proposal {
        boards: vec![(1, 3), (2, 4)],
        byes: vec![0],
        ..Proposal::default()
    };
    let answer =
        swisspair::check::manual::run(&t, &proposal, &PairOptions::default()).expect("validates");
    let response =
        swisspair::service::convert::validate_response(&answer.tournament, &answer.report);
    assert!(response.violations.is_empty());
    assert_eq!(response.warnings.len(), 1);
    assert_eq!(response.warnings[0].rule_id, "MP-2");
    assert_eq!(response.warnings[0].player_ids, vec!["1", "4"]);
    assert_eq!(response.warnings[0].level, 3);
    let doc = swisspair::trf::TrfDocument {
        tournament: t,
        ..Default::default()
    };
    let dir = std::env::temp_dir();
    let trf_path = dir.join(format!("swisspair-mp2-{}.trf", std::process::id()));
    std::fs::write(
        &trf_path,
        swisspair::pairing::write_trf(&doc, swisspair::trf::Dialect::JaVaFo)
            .expect("writable as TRF"),
    )
    .expect("write");
    let pairs = dir.join(format!("swisspair-mp2-pairs-{}.txt", std::process::id()));
    std::fs::write(&pairs, "3\n2 4\n3 5\n1 0\n").expect("write");
    let (code, out, err) = swisspair(&[
        "validate",
        "--system",
        "dutch",
        trf_path.to_str().expect("path"),
        pairs.to_str().expect("path"),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with(
            "warning MP-2: 1 gets the pairing-allocated bye with 1.0 points while 4 may have it with 0.0: the bye goes to the lowest score (C.04.3 C5) (level 3)\n"
        ),
        "{out}"
    );
}
