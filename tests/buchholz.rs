//! Vega's Buchholz Swiss (systems.md §3): hand-worked cases per rule id, with the expected
//! pairings worked out from the rules, and property tests over generated tournaments.
mod common;

use std::collections::BTreeSet;

use common::swiss::{Builder, pair_next, run};
use proptest::prelude::*;
use swisspair::model::{ByeKind, Colour, GameResult, Player, PlayerIdx, SystemId, Tournament};
use swisspair::systems::{PairError, PairOptions};

const BH: SystemId = SystemId::Buchholz;

#[test]
fn bh_2_round_one_i_plays_half_plus_i() {
    // 1-5, 2-6, 3-7, 4-8; odd numbers of the first half White, even ones Black.
    let p = pair_next(&Builder::new(BH, 8, 5).build());
    assert_eq!(p.boards, vec![(1, 5), (6, 2), (3, 7), (8, 4)]);
    assert!(p.steps.iter().any(|(r, _)| r == "BH-2"));
    // Odd: the last number has the bye; 1-4, 2-5, 3-6.
    let p = pair_next(&Builder::new(BH, 7, 5).build());
    assert_eq!(p.bye, Some(7));
    assert_eq!(p.boards, vec![(1, 4), (5, 2), (3, 6)]);
    // CG-8: a first-round colour of Black turns them round.
    let p = pair_next(&Builder::new(BH, 4, 3).initial(Colour::Black).build());
    assert_eq!(p.boards, vec![(3, 1), (2, 4)]);
}

#[test]
fn bh_1_identification_numbers_by_seeded_lot() {
    let t = Tournament {
        system: Some(BH),
        total_rounds: 5,
        initial_colour: Some(Colour::White),
        players: (1..=10)
            .map(|i| Player {
                id: format!("p{i}"),
                name: format!("Player {i:02}"),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    };
    let with_seed = |seed: u64| {
        run(
            &t,
            &PairOptions {
                seed: Some(seed),
                ..PairOptions::default()
            },
        )
        .expect("pairs")
    };
    let a = with_seed(7);
    assert_eq!(a.raw, with_seed(7).raw, "same seed, same answer (CG-1)");
    let orders: BTreeSet<Vec<(u32, u32)>> = (0..8).map(|s| with_seed(s).boards).collect();
    assert!(orders.len() > 1, "the lot depends on the seed");
    // The BH-1 step lists the players by identification number; BH-2 pairs i with 5 + i.
    let lot = a.steps_of("BH-1")[0];
    let ids: Vec<String> = lot
        .split(": ")
        .nth(1)
        .expect("list")
        .split(' ')
        .filter(|w| w.starts_with('p'))
        .map(str::to_string)
        .collect();
    assert_eq!(ids.len(), 10);
    let index = |id: &str| t.players.iter().position(|p| p.id == id).expect("player");
    let expected: BTreeSet<(usize, usize)> = (0..5)
        .map(|i| {
            let (x, y) = (index(&ids[i]), index(&ids[i + 5]));
            (x.min(y), x.max(y))
        })
        .collect();
    let got: BTreeSet<(usize, usize)> = a
        .raw
        .boards
        .iter()
        .map(|b| (b.white.min(b.black), b.white.max(b.black)))
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn bh_4_columns_and_bh_7_2_odd_group() {
    let t = Builder::new(BH, 8, 5)
        .round(
            &[(1, 5, "1-0"), (6, 2, "0-1"), (3, 7, "="), (8, 4, "1-0")],
            &[],
        )
        .build();
    let p = pair_next(&t);
    // 1.0: 1 2 8 (due B, W, B); 0.5: 3 (B) 7 (W); 0: 4 (W) 5 (W) 6 (B).
    // The top group is odd and lacks a White: 7, first of the next group's column W,
    // comes up. W = 2 (1 pt), 7 (½); B = 1, 8 (Buchholz 0 both, then name): 2-1, 7-8.
    // 3 is alone: BH-7.2 brings 4 (column W of the group below: 4, 5 by name): 4-3.
    // Then 5-6.
    assert_eq!(p.boards, vec![(2, 1), (7, 8), (4, 3), (5, 6)]);
    assert!(p.steps_of("BH-7.2").len() >= 2);
    assert!(
        p.steps
            .iter()
            .all(|(r, m)| !m.starts_with("board") || r == "BH-3")
    );
}

#[test]
fn bh_6_2_first_black_below() {
    let t = Builder::new(BH, 4, 3)
        .round(&[(1, 2, "="), (3, 4, "=")], &[])
        .build();
    let p = pair_next(&t);
    // All on ½, Buchholz ½. W = 2, 4; B = 1, 3 (by name). 2-1 met: 2 takes 3, 4-1.
    assert_eq!(p.boards, vec![(2, 3), (4, 1)]);
    assert!(p.steps_of("BH-6.2").iter().any(|m| m.contains("takes")));
}

#[test]
fn bh_6_2_opponent_from_his_own_column() {
    let t = Builder::new(BH, 4, 4)
        .round(&[(1, 3, "="), (2, 4, "=")], &[])
        .round(&[(4, 1, "="), (3, 2, "=")], &[])
        .build();
    let p = pair_next(&t);
    // W = 1, 2 (W B each); B = 3, 4 (B W each). 1 met both Blacks: he plays 2, and 3-4.
    // Both pairs share a due colour with equal imbalance: the higher placed alternates
    // (1 had Black last: White; 3 had White last: Black).
    assert_eq!(p.boards, vec![(1, 2), (4, 3)]);
    assert_eq!(p.steps_of("BH-6.2").len(), 3, "{:?}", p.steps);
}

#[test]
fn bh_4_3_columns_evened_out() {
    let t = Builder::new(BH, 8, 5)
        .round(
            &[(1, 5, "1-0"), (6, 2, "1-0"), (3, 7, "1-0"), (8, 4, "1-0")],
            &[],
        )
        .build();
    let p = pair_next(&t);
    // Winners 1 3 6 8 all played White: all due Black. Equal claims: the lowest of
    // column B moves, 8 then 6. W = 6, 8; B = 1, 3. Losers 2 4 5 7 all due White: 7
    // then 5 move; W = 2, 4; B = 5, 7.
    assert_eq!(p.boards, vec![(6, 1), (8, 3), (2, 5), (4, 7)]);
    let moves: Vec<&str> = p
        .steps_of("BH-4.3")
        .into_iter()
        .filter(|m| m.contains("moves from column"))
        .collect();
    assert_eq!(moves.len(), 4, "{moves:?}");
    for (m, who) in moves.iter().zip(["8 (8)", "6 (6)", "7 (7)", "5 (5)"]) {
        assert!(m.contains(who), "{m}");
    }
    assert!(
        p.steps
            .iter()
            .any(|(r, m)| r == "BH-4.3" && m.starts_with("board"))
    );
}

#[test]
fn bh_8_bye_to_the_lowest_and_bh_6_2_row_above() {
    let t = Builder::new(BH, 5, 4).build();
    let p = pair_next(&t);
    assert_eq!(p.boards, vec![(1, 3), (4, 2)]);
    assert_eq!(p.bye, Some(5));
    let t = Builder::new(BH, 5, 4)
        .round(&[(1, 3, "1-0"), (4, 2, "1-0")], &[(5, ByeKind::Pab)])
        .build();
    let p = pair_next(&t);
    // 2 and 3 have 0 points and Buchholz 1: by name, 3 is the lowest: bye.
    // 1.0: 1 (B) 4 (B) 5 (no game, odd: W): odd group lacking... W = 5, so 2 (due W)
    // comes up. W = 5, 2; B = 1, 4. Row 2: 2-4 met; last row: the row above changes.
    assert_eq!(p.bye, Some(3));
    assert_eq!(p.boards, vec![(5, 4), (2, 1)]);
    assert!(
        p.steps_of("BH-6.2")
            .iter()
            .any(|m| m.contains("row 1 above"))
    );
}

#[test]
fn bh_7_1_player_who_met_his_whole_group_moves_down() {
    let t = Builder::new(BH, 6, 4)
        .round(&[(1, 4, "1-0"), (5, 2, "0-1"), (3, 6, "1-0")], &[])
        .forbid(1, 2)
        .forbid(1, 3)
        .build();
    let p = pair_next(&t);
    // 1 may meet neither 2 nor 3 (CG-10): he goes down. 2-3 (due W, B). Below: W = 4, 6;
    // B = 1 (1 pt), 5. 4-1 met: 4 takes 5, 6-1.
    assert_eq!(p.boards, vec![(2, 3), (4, 5), (6, 1)]);
    assert_eq!(p.steps_of("BH-7.1").len(), 1);
}

#[test]
fn cg_4_forfeits_and_cg_7_no_pairing() {
    // A forfeit is no meeting: they may meet again.
    let t = Builder::new(BH, 2, 3).round(&[(1, 2, "+-")], &[]).build();
    assert_eq!(pair_next(&t).boards.len(), 1);
    let t = Builder::new(BH, 2, 3).round(&[(1, 2, "1-0")], &[]).build();
    match run(&t, &PairOptions::default()) {
        Err(PairError::NoLegalPairing { rule, .. }) => assert_eq!(rule, "BH-6.2"),
        other => panic!("expected CG-7, got {other:?}"),
    }
}

#[test]
fn absences_late_entrants_withdrawals() {
    let t = Builder::new(BH, 6, 4)
        .late(6, 2)
        .withdrawn(5, 2)
        .preset(&[(4, ByeKind::HalfPoint)])
        .build();
    let p = pair_next(&t);
    // Round 1: 1 2 3 5 present (6 not entered, 4 on a bye): 1-3, 2-5.
    assert_eq!(p.boards, vec![(1, 3), (5, 2)]);
    let t = Builder::new(BH, 6, 4)
        .late(6, 2)
        .withdrawn(5, 2)
        .round(
            &[(1, 3, "1-0"), (5, 2, "0-1")],
            &[(4, ByeKind::HalfPoint), (6, ByeKind::Absent)],
        )
        .build();
    let p = pair_next(&t);
    // Present: 1 2 (1 pt), 4 (½), 3 6 (0); 5 withdrawn. Odd: bye to 6 (Buchholz 0,
    // name last). 1.0: 1 (B) 2 (W): 2-1. ½: 4 alone (no game, even: B) and 0: 3 (W):
    // 4 brings 3 up: 3-4.
    assert_eq!(p.bye, Some(6));
    assert_eq!(p.boards, vec![(2, 1), (3, 4)]);
}

/// Every round of the 1,000-player performance tournament re-paired with this system (500
/// boards each), and a simulated 1,001-player field: a correctness check at scale. Speed is
/// measured by `cargo bench --bench pairing`, not asserted here.
#[test]
fn pairs_1000_players() {
    let worst = common::swiss::worst_round_1000(BH, "buchholz");
    assert!(
        worst.is_some(),
        "tests/data/perf/perf-dutch-1000.trf is part of the repository"
    );
}

// ---- property tests ----

/// Whether the players can be paired with nobody meeting twice (brute force, small n).
fn pairable(players: &[PlayerIdx], met: &BTreeSet<(PlayerIdx, PlayerIdx)>) -> bool {
    let Some((&a, rest)) = players.split_first() else {
        return true;
    };
    rest.iter().any(|&b| {
        !met.contains(&(a.min(b), a.max(b))) && {
            let left: Vec<PlayerIdx> = rest.iter().copied().filter(|&x| x != b).collect();
            pairable(&left, met)
        }
    })
}

fn simulate(n: u32, rounds: u32, seed: u64) -> Result<(), TestCaseError> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut b = Builder::new(BH, n, rounds);
    if n >= 4 && rng.random_bool(0.3) {
        b = b.forbid(rng.random_range(1..=n), rng.random_range(1..=n));
    }
    let mut t = b.build();
    let mut met: BTreeSet<(PlayerIdx, PlayerIdx)> = t
        .forbidden_pairings
        .iter()
        .filter(|f| f.players[0] != f.players[1])
        .map(|f| {
            (
                f.players[0].min(f.players[1]),
                f.players[0].max(f.players[1]),
            )
        })
        .collect();
    let mut had_bye = vec![false; n as usize];
    // Played colours per player, for BH-3's due colour.
    let mut colours: Vec<Vec<Colour>> = vec![Vec::new(); n as usize];
    let due = |c: &[Colour], p: PlayerIdx| {
        let w = c.iter().filter(|&&x| x == Colour::White).count();
        let b = c.len() - w;
        match (w.cmp(&b), c.last()) {
            (std::cmp::Ordering::Less, _) => Colour::White,
            (std::cmp::Ordering::Greater, _) => Colour::Black,
            (_, Some(last)) => last.opposite(),
            // Pairing number p + 1; odd numbers get the first-round colour, White here.
            (_, None) if p.is_multiple_of(2) => Colour::White,
            (_, None) => Colour::Black,
        }
    };
    for number in 1..=rounds {
        let mut absent: Vec<u32> = (1..=n).filter(|_| rng.random_bool(0.1)).collect();
        if (n as usize) - absent.len() < 2 {
            absent.clear();
        }
        let mut round_t = t.clone();
        round_t.rounds.push(swisspair::model::Round {
            games: Vec::new(),
            byes: absent
                .iter()
                .map(|&p| swisspair::model::Bye {
                    player: p as usize - 1,
                    kind: ByeKind::ZeroPoint,
                })
                .collect(),
        });
        let present: Vec<PlayerIdx> = (0..n as usize)
            .filter(|&p| !absent.contains(&(p as u32 + 1)))
            .collect();
        let got = run(&round_t, &PairOptions::default());
        let again = run(&round_t, &PairOptions::default());
        let got = match (got, again) {
            (Ok(g), Ok(a)) => {
                prop_assert_eq!(&g.raw, &a.raw, "CG-1: same input, same output");
                g
            }
            (Err(PairError::NoLegalPairing { .. }), Err(_)) => {
                // CG-7 only when no pairing exists for any bye.
                let possible = if present.len().is_multiple_of(2) {
                    pairable(&present, &met)
                } else {
                    present.iter().filter(|&&p| !had_bye[p]).any(|&bye| {
                        let rest: Vec<PlayerIdx> =
                            present.iter().copied().filter(|&p| p != bye).collect();
                        pairable(&rest, &met)
                    })
                };
                prop_assert!(
                    !possible,
                    "round {}: CG-7 although a pairing exists",
                    number
                );
                return Ok(());
            }
            (g, _) => return Err(TestCaseError::fail(format!("round {number}: {g:?}"))),
        };
        let mut seen = BTreeSet::new();
        for board in &got.raw.boards {
            prop_assert!(seen.insert(board.white) && seen.insert(board.black));
            prop_assert!(
                !met.contains(&(board.white.min(board.black), board.white.max(board.black))),
                "round {}: a repeat game",
                number
            );
            // Two players due different colours both get their due colour (BH-3).
            let (dw, db) = (
                due(&colours[board.white], board.white),
                due(&colours[board.black], board.black),
            );
            if dw != db {
                prop_assert_eq!(dw, Colour::White, "round {}: colours against BH-3", number);
            }
        }
        let byes: Vec<PlayerIdx> = got
            .raw
            .byes
            .iter()
            .filter(|b| b.kind == ByeKind::Pab)
            .map(|b| b.player)
            .collect();
        prop_assert!(byes.len() == present.len() % 2);
        for &b in &byes {
            prop_assert!(!had_bye[b], "BH-8: a second bye");
            had_bye[b] = true;
        }
        prop_assert_eq!(seen.len() + byes.len(), present.len());
        let results: Vec<GameResult> = (0..got.raw.boards.len().max(1))
            .map(|_| match rng.random_range(0..10) {
                0..=3 => GameResult::WhiteWins,
                4..=7 => GameResult::BlackWins,
                8 => GameResult::Draw,
                _ => GameResult::BlackWinsForfeit,
            })
            .collect();
        for (i, board) in got.raw.boards.iter().enumerate() {
            if !results[i].is_forfeit() {
                met.insert((board.white.min(board.black), board.white.max(board.black)));
                colours[board.white].push(Colour::White);
                colours[board.black].push(Colour::Black);
            }
        }
        let mut answer = got.raw.clone();
        answer.round = number;
        common::swiss::play(&mut round_t, &answer, &results);
        t = round_t;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn every_player_once_nobody_twice_deterministic(n in 2u32..=12, rounds in 1u32..=8, seed in any::<u64>()) {
        simulate(n, rounds, seed)?;
    }
}
