//! The Monrad system (docs/systems/monrad.md): hand-worked rounds, one per rule, and a
//! property test over random events.
mod common;

use common::swiss::{Builder, run, unordered};
use proptest::prelude::*;
use swisspair::matching::has_perfect_matching;
use swisspair::model::{ByeKind, GameResult, SystemId};
use swisspair::systems::{PairError, PairOptions};

fn builder(n: u32) -> Builder {
    Builder::new(SystemId::Monrad, n, 5)
}

#[test]
fn round_one_pairs_the_rating_list_one_two_three_four() {
    // MON-1: list 1..7 by pairing number; MON-4: the bye to the lowest, 7; MON-3: 1-2, 3-4,
    // 5-6; MON-5: the first-round colour (White) to board 1's higher-listed player, then
    // alternating by board: 4 has White on board 2, 5 on board 3.
    let p = run(&builder(7).build(), &PairOptions::default()).expect("pairs");
    assert_eq!(p.boards, vec![(1, 2), (4, 3), (5, 6)]);
    assert_eq!(p.bye, Some(7));
}

#[test]
fn a_pair_that_has_met_takes_the_next_one_down() {
    // Round 1: 1-2 1-0, 4-3 0-1 (3 wins), 5-6 ½. MON-2's list: 1, 3 (1 point, by pairing
    // number), 5, 6 (½), 2, 4 (0). MON-3: 1-3; 5 and 6 have met, so 5 takes 2; 6-4.
    // MON-5: 1 (W) is due Black, 3 (B) White: 3-1; 5 (W) due Black, 2 (B) White: 2-5;
    // 6 (B) due White, 4 (W) Black: 6-4.
    let t = builder(6)
        .round(&[(1, 2, "1-0"), (4, 3, "0-1"), (5, 6, "=")], &[])
        .build();
    let p = run(&t, &PairOptions::default()).expect("pairs");
    assert_eq!(p.boards, vec![(3, 1), (2, 5), (6, 4)]);
    assert!(
        p.steps_of("MON-3")
            .iter()
            .any(|m| m.contains("5 and 6 have met")),
        "{:?}",
        p.steps
    );
}

#[test]
fn the_bottom_backtracks_to_the_first_complete_pairing() {
    // Round 1: 1-2, 3-4, 5-6, White wins. Round 2: 1-3, 2-5, 4-6, White wins. Scores 1: 2;
    // 2, 3, 4, 5: 1; 6: 0, so the list is 1..6. Taking the next unmet player each time
    // (1-4, 2-3) leaves 5-6, who met: MON-3 backtracks. 1 has met 2 and 3 and takes 4 (the
    // rest 2, 3, 5, 6 can be paired); 2-3 would leave 5-6, 2 and 5 met, so 2-6; then 3-5.
    // MON-5: 1 (W, W) and 4 (B, W) are both due Black, 1 more strongly: 4-1; 2 (B, W) due
    // Black, 6 (B, B) due White: 6-2; 3 (W, B) and 5 (W, B) both due White with equal
    // strength: the higher-listed 3.
    let t = builder(6)
        .round(&[(1, 2, "1-0"), (3, 4, "1-0"), (5, 6, "1-0")], &[])
        .round(&[(1, 3, "1-0"), (2, 5, "1-0"), (4, 6, "1-0")], &[])
        .build();
    let p = run(&t, &PairOptions::default()).expect("pairs");
    assert_eq!(p.boards, vec![(4, 1), (6, 2), (3, 5)]);
    assert!(
        p.steps_of("MON-3").iter().any(|m| m.contains("backtrack")),
        "{:?}",
        p.steps
    );
}

#[test]
fn the_bye_skips_players_who_had_one_and_the_pairs_backtrack() {
    // Round 1: 1-2 1-0, 3-4 1-0, 5 the bye. Round 2: 1-3 1-0, 2-5 1-0, 4 the bye. Scores:
    // 1: 2; 2, 3, 4, 5: 1. List 1, 2, 3, 4, 5. MON-4: 5 and 4 had a bye, so 3 gets it. MON-3:
    // 1 and 2 met; 1-4 would leave 2-5, who met; so 1-5, then 2-4.
    let t = builder(5)
        .round(&[(1, 2, "1-0"), (3, 4, "1-0")], &[(5, ByeKind::Pab)])
        .round(&[(1, 3, "1-0"), (2, 5, "1-0")], &[(4, ByeKind::Pab)])
        .build();
    let p = run(&t, &PairOptions::default()).expect("pairs");
    assert_eq!(p.bye, Some(3));
    assert_eq!(unordered(&p.boards), unordered(&[(1, 5), (2, 4)]));
}

#[test]
fn no_pairing_without_a_rematch_is_refused_naming_the_rule() {
    // 4 players after 3 rounds have each met all three others: MON-3 has no pairing.
    let t = Builder::new(SystemId::Monrad, 4, 4)
        .round(&[(1, 2, "1-0"), (3, 4, "1-0")], &[])
        .round(&[(1, 3, "1-0"), (2, 4, "1-0")], &[])
        .round(&[(1, 4, "1-0"), (2, 3, "1-0")], &[])
        .build();
    match run(&t, &PairOptions::default()) {
        Err(PairError::NoLegalPairing { rule, .. }) => assert_eq!(rule, "MON-3"),
        other => panic!("expected no legal pairing, got {other:?}"),
    }
}

#[test]
fn buchholz_orders_equal_scores_when_asked() {
    // Round 1: 1-2 1-0, 3-4 ½, 5-6 0-1. Round 2: 1-6 ½, 3-2 1-0, 4-5 ½. Scores: 1, 3, 6:
    // 1.5; 4: 1; 5: ½; 2: 0. MON-2 by pairing number: 1, 3, 6, 4, 5, 2, paired 1-3, 6-4,
    // 5-2. By Buchholz (the opponents' scores): 6 has 5 + 1 = ½ + 1.5 = 2, 1 has 2 + 6 =
    // 0 + 1.5 = 1.5, 3 has 4 + 2 = 1 + 0 = 1: list 6, 1, 3, 4, 5, 2; 6 and 1 met, so 6-3,
    // then 1-4, 5-2.
    let t = builder(6)
        .round(&[(1, 2, "1-0"), (3, 4, "="), (5, 6, "0-1")], &[])
        .round(&[(1, 6, "="), (3, 2, "1-0"), (4, 5, "=")], &[])
        .build();
    let mut with_buchholz = t.clone();
    with_buchholz
        .options
        .set("tiebreak", "BUCHHOLZ")
        .expect("option");
    let by_number = run(&t, &PairOptions::default()).expect("pairs");
    let by_buchholz = run(&with_buchholz, &PairOptions::default()).expect("pairs");
    assert_eq!(
        unordered(&by_number.boards),
        unordered(&[(1, 3), (6, 4), (5, 2)])
    );
    assert_eq!(
        unordered(&by_buchholz.boards),
        unordered(&[(6, 3), (1, 4), (5, 2)])
    );
    assert!(
        by_buchholz.steps_of("MON-2")[0]
            .contains("6 (1.5), 1 (1.5), 3 (1.5), 4 (1.0), 5 (0.5), 2 (0.0)"),
        "{:?}",
        by_buchholz.steps
    );
}

#[test]
fn backgammon_has_no_colours_and_refuses_a_draw() {
    let mut t = builder(4)
        .round(&[(1, 2, "1-0"), (3, 4, "0-1")], &[])
        .build();
    t.options.set("game", "BACKGAMMON").expect("option");
    t.options.set("match_length", "11").expect("option");
    let p = run(&t, &PairOptions::default()).expect("pairs");
    // MON-2: 1, 4 (1 win), 2, 3; MON-6: no colours, the higher-listed first.
    assert!(p.raw.colourless);
    assert_eq!(p.raw.match_length, Some(11));
    assert_eq!(p.boards, vec![(1, 4), (2, 3)]);
    t.rounds[0].games[0].result = GameResult::Draw;
    match run(&t, &PairOptions::default()) {
        Err(PairError::Invalid(problems)) => {
            let text = problems.to_string();
            assert!(
                text.contains("MON-6") && text.contains("rounds[0].games[0]"),
                "{text}"
            );
        }
        other => panic!("expected invalid input, got {other:?}"),
    }
}

#[test]
fn a_lot_for_round_one_is_the_seeds() {
    // MON-1 with LOT: the same seed gives the same list; the pairs are its neighbours.
    let mut t = builder(10).build();
    t.options.set("first_round", "LOT").expect("option");
    let with = |seed| {
        run(
            &t,
            &PairOptions {
                seed: Some(seed),
                ..PairOptions::default()
            },
        )
        .expect("pairs")
    };
    let a = with(7);
    assert_eq!(a.boards, with(7).boards);
    let differs = (0..20).any(|s| with(s).boards != a.boards);
    assert!(differs, "the lot never changes the pairs");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Monrad over random events: nobody paired twice in a round, nobody meets twice, the
    /// bye never goes twice to a player, and a refusal only where every pairing would need
    /// a rematch (checked by a perfect matching of the may-meet graph with each possible
    /// bye).
    #[test]
    fn monrad_keeps_its_rules(
        players in 2u32..24,
        rounds in 1u32..8,
        seed in any::<u64>(),
        buchholz in any::<bool>(),
        lot in any::<bool>(),
    ) {
        use swisspair::simulate::{SimConfig, record_round, round_options, start};
        let mut config = SimConfig::new(SystemId::Monrad, players, rounds, seed);
        if buchholz {
            config.options.set("tiebreak", "BUCHHOLZ").expect("option");
        }
        if lot {
            config.options.set("first_round", "LOT").expect("option");
        }
        let mut t = start(&config);
        for _ in 0..rounds {
            let options = round_options(&t, &config);
            let number = t.next_round();
            let entries = t.entries();
            let met = |a: usize, b: usize| entries[a].iter().any(|e| e.met_opponent() == Some(b));
            let had_bye = |p: usize| {
                t.rounds.iter().any(|r| r.byes.iter().any(|b| b.player == p && b.kind == ByeKind::Pab))
            };
            match swisspair::pairing::pair_round(&t, &options) {
                Ok(p) => {
                    let mut seen = vec![0; t.players.len()];
                    for b in &p.boards {
                        seen[b.white] += 1;
                        seen[b.black] += 1;
                        prop_assert!(!met(b.white, b.black), "round {number}: a rematch");
                    }
                    for b in &p.byes {
                        seen[b.player] += 1;
                        if b.kind == ByeKind::Pab {
                            prop_assert!(!had_bye(b.player), "round {number}: a second bye");
                        }
                    }
                    prop_assert!(seen.iter().all(|&s| s <= 1), "round {number}: paired twice");
                    record_round(&mut t, &config, &p);
                }
                Err(PairError::NoLegalPairing { .. }) => {
                    // Only when no pairing avoids a rematch (and a second bye).
                    let here: Vec<usize> = (0..t.players.len())
                        .filter(|&p| t.players[p].is_active_in(number))
                        .filter(|&p| !options.requested_byes.iter().any(|&(q, _)| q == p))
                        .collect();
                    let pairable = |list: &[usize]| {
                        has_perfect_matching(list.len(), |a, b| !met(list[a], list[b]))
                    };
                    let possible = if here.len().is_multiple_of(2) {
                        pairable(&here)
                    } else {
                        here.iter().any(|&b| {
                            !had_bye(b) && pairable(&here.iter().copied().filter(|&q| q != b).collect::<Vec<_>>())
                        })
                    };
                    prop_assert!(!possible, "round {number}: refused, but a pairing exists");
                    break;
                }
                Err(e) => return Err(TestCaseError::fail(format!("round {number}: {e}"))),
            }
        }
    }
}
