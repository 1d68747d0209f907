//! Scheveningen (docs/systems/scheveningen.md): hand-worked rounds of the table, and a
//! property test over whole events, single and double.
mod common;

use std::collections::BTreeMap;

use common::swiss::{Builder, run};
use proptest::prelude::*;
use swisspair::model::{ByeKind, SystemId};
use swisspair::systems::{PairError, PairOptions};

fn builder(n: u32, rounds: u32) -> Builder {
    Builder::new(SystemId::Scheveningen, n, rounds)
}

#[test]
fn round_one_and_two_of_two_teams_of_four() {
    // SCH-1: team A = 1-4, team B = 5-8 (the halves by pairing number). SCH-2: round 1 A's
    // board i meets B's board i; round 2 B's board i + 1 (mod 4). SCH-3: A's board i has
    // White against B's board j when i + j is even, reversed on A's first 2⌊4/4⌋ = 2
    // boards. Round 1: 1-5 even, reversed: 5-1; 2-6: 6-2; 3-7 even: 3-7; 4-8: 4-8.
    let p = run(&builder(8, 4).build(), &PairOptions::default()).expect("pairs");
    assert_eq!(p.boards, vec![(5, 1), (6, 2), (3, 7), (4, 8)]);
    // Round 2: 1-6 odd, reversed: 1-6; 2-7: 2-7; 3-8 odd: 8-3; 4-5 odd: 5-4.
    let t = builder(8, 4)
        .round(
            &[(5, 1, "1-0"), (6, 2, "="), (3, 7, "1-0"), (4, 8, "1-0")],
            &[],
        )
        .build();
    let p = run(&t, &PairOptions::default()).expect("pairs");
    assert_eq!(p.boards, vec![(1, 6), (2, 7), (8, 3), (5, 4)]);
    // SCH-6: round 1's match: A 0 + ½ + 1 + 1 = 2½, B 1½: A 2 match points.
    assert!(
        p.steps_of("SCH-6")
            .iter()
            .any(|m| m.contains("first half 2 match points (2.5 game points), second half 0 (1.5)")),
        "{:?}",
        p.steps
    );
}

#[test]
fn the_double_reverses_the_colours_in_its_second_cycle() {
    // SCH-4: round 5 of the double for teams of 4 is round 1 with colours reversed.
    let mut b = builder(8, 8);
    for r in 1..=4 {
        let games: Vec<(u32, u32, &'static str)> =
            swisspair::systems::scheveningen::table::round(4, r)
                .into_iter()
                .map(|(i, j, a_white)| {
                    if a_white {
                        (i, j + 4, "=")
                    } else {
                        (j + 4, i, "=")
                    }
                })
                .collect();
        b = b.round(&games, &[]);
    }
    let p = run(&b.build(), &PairOptions::default()).expect("pairs");
    assert_eq!(p.boards, vec![(1, 5), (2, 6), (7, 3), (8, 4)]);
}

#[test]
fn an_odd_field_and_a_game_off_the_table_are_refused() {
    match run(&builder(7, 3).build(), &PairOptions::default()) {
        Err(PairError::Invalid(p)) => assert!(p.to_string().contains("SCH-1"), "{p}"),
        other => panic!("expected invalid input, got {other:?}"),
    }
    // 1 and 2 are both in team A: no game of the table.
    let t = builder(4, 2)
        .round(&[(1, 2, "1-0"), (3, 4, "1-0")], &[])
        .build();
    match run(&t, &PairOptions::default()) {
        Err(PairError::Invalid(p)) => assert!(p.to_string().contains("SCH-2"), "{p}"),
        other => panic!("expected invalid input, got {other:?}"),
    }
}

#[test]
fn an_absent_players_opponent_has_a_bye() {
    // SCH-5: round 1 of teams of 2 (A 1, 2; B 3, 4): A's 1 meets B's 3; 3 is absent.
    let t = builder(4, 2).preset(&[(3, ByeKind::Absent)]).build();
    let p = run(&t, &PairOptions::default()).expect("pairs");
    assert_eq!(p.bye, Some(1));
    assert_eq!(p.boards.len(), 1);
}

#[test]
fn standings_give_the_team_match_points() {
    // SCH-6, two teams of two (A: 1, 2; B: 3, 4). Round 1 (5-1 style table for n = 2: A's
    // board i against B's board i, i + i even: A White): 1-3 1-0, 2-4 ½: A 1.5 - B 0.5, A
    // wins the match (2-0). Round 2 (A's board i against B's board i + 1, odd: B White):
    // 4-1 1-0, 3-2 1-0: A 0 - B 2, B wins (2-2). Game points A 1.5, B 2.5: B leads on
    // equal match points.
    let t = builder(4, 2)
        .round(&[(1, 3, "1-0"), (2, 4, "=")], &[])
        .round(&[(4, 1, "1-0"), (3, 2, "1-0")], &[])
        .build();
    let s = swisspair::standings::compute(&t, &swisspair::standings::Options::default())
        .expect("standings");
    let teams = s.team_match.expect("a team match");
    assert_eq!(
        teams.map(|(name, mp, gp)| (name, mp, gp.to_string())),
        [
            ("second half".to_string(), 2, "2.5".to_string()),
            ("first half".to_string(), 2, "1.5".to_string()),
        ]
    );
}

#[test]
fn the_double_scheveningen_code_reads_as_two_cycles() {
    let text = "012 Club match\n192 FIDE_DOUBLESCHEVENINGEN\n\
001    1      Player 1                          2000                             0.0    1\n\
001    2      Player 2                          1990                             0.0    2\n";
    let doc = swisspair::pairing::read_trf(text).expect("reads");
    assert_eq!(doc.tournament.system, Some(SystemId::Scheveningen));
    assert_eq!(doc.tournament.options.get("cycles"), Some("2"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Whole events: nobody paired twice in a round; every board of one team meets every
    /// board of the other exactly once per cycle; in the double, the second meeting has the
    /// colours of the first swapped.
    #[test]
    fn every_board_meets_every_opposing_board(
        n in 1u32..10,
        double in any::<bool>(),
        seed in any::<u64>(),
    ) {
        use swisspair::simulate::{SimConfig, record_round, round_options, start};
        let rounds = if double { 2 * n } else { n };
        let config = SimConfig::new(SystemId::Scheveningen, 2 * n, rounds, seed);
        let mut t = start(&config);
        let lot = t.lot_seed;
        t.assign_pairing_numbers(lot);
        // Team A: the first half by pairing number (SCH-1).
        let in_a: Vec<bool> = (0..t.players.len()).map(|p| t.pairing_number(p) <= n).collect();
        let half = |p: usize| in_a[p];
        // (a, b) -> the white player of each meeting.
        let mut meetings: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
        for number in 1..=rounds {
            let options = round_options(&t, &config);
            let p = swisspair::pairing::pair_round(&t, &options)
                .map_err(|e| TestCaseError::fail(format!("round {number}: {e}")))?;
            let mut seen = vec![0; t.players.len()];
            for b in &p.boards {
                seen[b.white] += 1;
                seen[b.black] += 1;
                prop_assert!(half(b.white) != half(b.black), "round {number}: teammates meet");
                let key = if half(b.white) { (b.white, b.black) } else { (b.black, b.white) };
                meetings.entry(key).or_default().push(b.white);
            }
            prop_assert!(seen.iter().all(|&s| s == 1), "round {number}");
            record_round(&mut t, &config, &p);
        }
        prop_assert_eq!(meetings.len() as u32, n * n);
        for (pair, whites) in &meetings {
            if double {
                prop_assert_eq!(whites.len(), 2, "{:?}", pair);
                prop_assert_ne!(whites[0], whites[1], "{:?}: colours not swapped", pair);
            } else {
                prop_assert_eq!(whites.len(), 1, "{:?}", pair);
            }
        }
    }
}
