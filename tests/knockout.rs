//! The knockout (docs/systems/knockout.md): hand-worked brackets, one test per rule, and a
//! property test over random events.
mod common;

use std::collections::BTreeSet;

use common::swiss::{Builder, run};
use proptest::prelude::*;
use swisspair::model::{ByeKind, GameResult, SystemId};
use swisspair::systems::knockout::bracket;
use swisspair::systems::{PairError, PairOptions};

fn builder(n: u32) -> Builder {
    Builder::new(SystemId::Knockout, n, 0)
}

fn pabs(p: &common::swiss::Paired) -> BTreeSet<u32> {
    p.raw
        .byes
        .iter()
        .filter(|b| b.kind == ByeKind::Pab)
        .map(|b| b.player as u32 + 1)
        .collect()
}

#[test]
fn six_players_give_the_two_top_seeds_a_bye() {
    // KO-1: a bracket of 8, 3 rounds. KO-2: bracket order 1, 8, 4, 5, 2, 7, 3, 6: seeds 7
    // and 8 are empty, so 1 and 2 have a bye (KO-2.1); 4-5 and 3-6 play. KO-7: board 1's
    // higher seed (4) has the first-round colour, White; board 2's (3) Black.
    let p = run(&builder(6).build(), &PairOptions::default()).expect("pairs");
    assert_eq!(p.boards, vec![(4, 5), (6, 3)]);
    assert_eq!(pabs(&p), BTreeSet::from([1, 2]));
    assert_eq!(p.raw.total_rounds, Some(3));
}

#[test]
fn winners_advance_and_losers_are_out() {
    // Round 1 as above, 5 and 6 win. KO-3.1: round 2 is 1 (bye) - 5 (winner of 4-5) and 2 -
    // 6 (winner of 3-6). KO-7: 5 had Black, so 5 has White; 6 had White, so 2 has it. 3
    // and 4 are out: answered as absent.
    let t = builder(6)
        .round(
            &[(4, 5, "0-1"), (6, 3, "1-0")],
            &[(1, ByeKind::Pab), (2, ByeKind::Pab)],
        )
        .build();
    let p = run(&t, &PairOptions::default()).expect("pairs");
    assert_eq!(p.boards, vec![(5, 1), (2, 6)]);
    let out: BTreeSet<u32> = p
        .raw
        .byes
        .iter()
        .filter(|b| b.kind == ByeKind::Absent)
        .map(|b| b.player as u32 + 1)
        .collect();
    assert_eq!(out, BTreeSet::from([3, 4]));
}

#[test]
fn a_match_without_a_winner_is_refused_naming_it() {
    // KO-3.2: the match 4-5 of round 1 is drawn: round 2 cannot be paired.
    let t = builder(6)
        .round(
            &[(4, 5, "="), (6, 3, "1-0")],
            &[(1, ByeKind::Pab), (2, ByeKind::Pab)],
        )
        .build();
    match run(&t, &PairOptions::default()) {
        Err(PairError::Invalid(problems)) => {
            let text = problems.to_string();
            assert!(
                text.contains("main bracket match 2")
                    && text.contains("4 - 5")
                    && text.contains("KO-3.2")
                    && text.contains("tournament.rounds[0]"),
                "{text}"
            );
        }
        other => panic!("expected invalid input, got {other:?}"),
    }
}

#[test]
fn a_game_outside_the_bracket_is_refused() {
    // KO-2: round 1 of 4 players is 1-4 and 2-3; a recorded 1-2 is no match of it.
    let t = builder(4)
        .round(&[(1, 2, "1-0"), (3, 4, "1-0")], &[])
        .build();
    match run(&t, &PairOptions::default()) {
        Err(PairError::Invalid(problems)) => {
            assert!(problems.to_string().contains("KO-2"), "{problems}");
        }
        other => panic!("expected invalid input, got {other:?}"),
    }
}

#[test]
fn the_consolation_bracket_pairs_the_first_round_losers() {
    // 8 players, round 1 (KO-2, KO-7): 1-8, 5-4 (4 Black on board 2), 2-7, 6-3; 5 beats 4,
    // the other top seeds win. Round 2: main 1-5 and 2-3; KO-4: the losers 8, 4, 7, 6 in
    // their matches' order, 4-8 and 6-7 (higher seed first). KO-7: 1 and 5 both had White:
    // board 1 alternates from White, 1 White; 3 had Black, 2 White: 3-2; 4 and 8 both had
    // Black: board 3 gives the higher seed White, 4-8; 7 had Black, 6 White: 7-6.
    let mut t = builder(8)
        .round(
            &[(1, 8, "1-0"), (5, 4, "1-0"), (2, 7, "1-0"), (6, 3, "0-1")],
            &[],
        )
        .build();
    t.options.set("consolation", "true").expect("option");
    let p = run(&t, &PairOptions::default()).expect("pairs");
    assert_eq!(p.boards, vec![(1, 5), (3, 2), (4, 8), (7, 6)]);
    assert!(p.steps_of("KO-4").len() >= 2, "{:?}", p.steps);
}

#[test]
fn an_absent_player_loses_his_match() {
    // KO-3.3: 4 players, round 1 1-4, 2-3; in round 2's final 1 is absent: 2 goes on
    // with the bye.
    let t = builder(4)
        .round(&[(1, 4, "1-0"), (2, 3, "1-0")], &[])
        .preset(&[(1, ByeKind::Absent)])
        .build();
    let p = run(&t, &PairOptions::default()).expect("pairs");
    assert!(p.boards.is_empty());
    assert_eq!(pabs(&p), BTreeSet::from([2]));
}

#[test]
fn no_round_after_the_final() {
    let t = builder(4)
        .round(&[(1, 4, "1-0"), (2, 3, "1-0")], &[])
        .round(
            &[(1, 2, "1-0")],
            &[(3, ByeKind::Absent), (4, ByeKind::Absent)],
        )
        .build();
    match run(&t, &PairOptions::default()) {
        Err(PairError::Invalid(problems)) => {
            assert!(problems.to_string().contains("KO-1"), "{problems}")
        }
        other => panic!("expected invalid input, got {other:?}"),
    }
}

#[test]
fn backgammon_knockout_has_no_colours() {
    let mut t = builder(4).build();
    t.options.set("game", "BACKGAMMON").expect("option");
    t.options.set("match_length", "5").expect("option");
    let p = run(&t, &PairOptions::default()).expect("pairs");
    assert!(p.raw.colourless);
    assert_eq!(p.raw.match_length, Some(5));
    // KO-2: 1-4, 2-3, the higher seed first.
    assert_eq!(p.boards, vec![(1, 4), (2, 3)]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A knockout over random events: nobody paired twice in a round; without a
    /// consolation, exactly the winners of round k (a game won or a bye) play or have a
    /// bye in round k + 1; seeds 1 and 2 meet only in the final; one champion.
    #[test]
    fn knockout_keeps_its_bracket(
        players in 2u32..40,
        seed in any::<u64>(),
        consolation in any::<bool>(),
    ) {
        use swisspair::simulate::{SimConfig, record_round, round_options, start};
        let total = bracket::rounds(players as usize);
        let mut config = SimConfig::new(SystemId::Knockout, players, total, seed);
        if consolation {
            config.options.set("consolation", "true").expect("option");
        }
        let mut t = start(&config);
        let mut last_winners: Option<BTreeSet<usize>> = None;
        for number in 1..=total {
            let options = round_options(&t, &config);
            let p = swisspair::pairing::pair_round(&t, &options)
                .map_err(|e| TestCaseError::fail(format!("round {number}: {e}")))?;
            let mut seen = vec![0; t.players.len()];
            let mut going: BTreeSet<usize> = BTreeSet::new();
            for b in &p.boards {
                seen[b.white] += 1;
                seen[b.black] += 1;
                going.insert(b.white);
                going.insert(b.black);
                let pair = [t.pairing_number(b.white), t.pairing_number(b.black)];
                if pair.contains(&1) && pair.contains(&2) {
                    prop_assert_eq!(number, total, "seeds 1 and 2 met before the final");
                }
            }
            for b in &p.byes {
                seen[b.player] += 1;
                if b.kind == ByeKind::Pab {
                    going.insert(b.player);
                }
            }
            prop_assert!(seen.iter().all(|&s| s == 1), "round {number}: {seen:?}");
            if let Some(winners) = &last_winners {
                if consolation {
                    prop_assert!(going.is_superset(winners));
                } else {
                    prop_assert_eq!(&going, winners, "round {}", number);
                }
            }
            record_round(&mut t, &config, &p);
            let round = &t.rounds[number as usize - 1];
            let mut winners: BTreeSet<usize> = round
                .games
                .iter()
                .filter_map(|g| match g.result {
                    GameResult::WhiteWins | GameResult::WhiteWinsForfeit => Some(g.white),
                    GameResult::BlackWins | GameResult::BlackWinsForfeit => Some(g.black),
                    _ => None,
                })
                .collect();
            winners.extend(round.byes.iter().filter(|b| b.kind == ByeKind::Pab).map(|b| b.player));
            if !consolation {
                last_winners = Some(winners);
            } else {
                last_winners = Some(winners.into_iter().filter(|&w| {
                    // Main-bracket winners: those who won every round so far.
                    swisspair::standings::knockout_progress(&t, number)[w] == number
                }).collect());
            }
        }
        let champions = swisspair::standings::knockout_progress(&t, total)
            .into_iter()
            .filter(|&r| r == total)
            .count();
        prop_assert_eq!(champions, 1);
    }
}
