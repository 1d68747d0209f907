//! The early draw of round 2 (BG-8) and the final phase (BG-9), worked by hand, and the
//! provisional round 2 resolving to the real one.
use std::collections::BTreeSet;

use rand::{Rng, SeedableRng};
use swisspair::model::validate::Problems;
use swisspair::model::{Bye, ByeKind, Game, GameResult, Player, Round, SystemId, Tournament};
use swisspair::systems::backgammon::provisional::{Slot, SlotKind};
use swisspair::systems::backgammon::{self, Outcome, ProvisionalPairing};
use swisspair::systems::{Detail, PairError, PairOptions, RoundPairing};

fn event(n: usize, total: u32) -> Tournament {
    Tournament {
        system: Some(SystemId::Backgammon),
        total_rounds: total,
        players: (1..=n)
            .map(|i| Player {
                id: format!("p{i}"),
                pairing_number: Some(i as u32),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    }
}

fn options(seed: u64) -> PairOptions {
    PairOptions {
        seed: Some(seed),
        detail: Detail::Full,
        ..PairOptions::default()
    }
}

/// Round 1 drawn and recorded with no results yet.
fn drawn_round_one(n: usize, seed: u64) -> Tournament {
    let mut t = event(n, 0);
    let p = swisspair::pairing::pair_round(&t, &options(seed)).expect("round 1");
    t.rounds.push(Round {
        games: p
            .boards
            .iter()
            .enumerate()
            .map(|(i, b)| Game {
                white: b.white,
                black: b.black,
                result: GameResult::Pending,
                board: Some(i as u32 + 1),
            })
            .collect(),
        byes: p
            .byes
            .iter()
            .map(|b| Bye {
                player: b.player,
                kind: b.kind,
            })
            .collect(),
    });
    t
}

fn provisional(t: &Tournament, seed: u64) -> ProvisionalPairing {
    backgammon::pair_provisional(t, &options(seed)).unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

fn label(t: &Tournament, s: &Slot) -> String {
    s.label(|p| t.players[p].id.clone())
}

fn problems(e: PairError) -> Problems {
    match e {
        PairError::Invalid(p) => p,
        other => panic!("expected invalid input, got {other}"),
    }
}

/// Checks the shape BG-8 gives for a field of `n`.
fn check_shape(t: &Tournament, p: &ProvisionalPairing) {
    let n = t.players.len();
    let games = n.div_ceil(2); // boards of round 1, the [absent] game included
    let kind = |s: &Slot| if s.kind == SlotKind::Loser { 'L' } else { 'W' };
    let shapes: Vec<(char, char)> = p.boards.iter().map(|(a, b)| (kind(a), kind(b))).collect();
    let ww = shapes.iter().filter(|s| **s == ('W', 'W')).count();
    let wl = shapes.iter().filter(|s| **s == ('W', 'L')).count();
    let ll = shapes.iter().filter(|s| **s == ('L', 'L')).count();
    assert_eq!(ww, games / 2, "future winners among themselves: {shapes:?}");
    assert_eq!(
        wl,
        games % 2,
        "with an odd number of games, one winner meets a loser"
    );
    assert_eq!(
        shapes.iter().filter(|s| **s == ('L', 'W')).count(),
        0,
        "the winner is drawn first"
    );
    assert_eq!(
        p.absent.len(),
        n % 2,
        "with an odd field, the last loser meets [absent]"
    );
    assert!(p.absent.iter().all(|s| s.kind == SlotKind::Loser));
    assert_eq!(
        ll * 2 + wl + p.absent.len(),
        n / 2,
        "every future loser once"
    );
    for (a, b) in &p.boards {
        assert!(
            a.board == 0 || a.board != b.board,
            "never the two players of one board"
        );
    }
    // Every placeholder once.
    let mut seen = BTreeSet::new();
    for s in p.boards.iter().flat_map(|(a, b)| [a, b]).chain(&p.absent) {
        assert!(seen.insert(label(t, s)), "{} twice", label(t, s));
    }
}

#[test]
fn bg8_the_shapes_of_the_early_draw() {
    for n in [4, 6, 7, 8, 9, 10, 11, 15, 16, 30, 31] {
        for seed in 0..8 {
            let t = drawn_round_one(n, seed);
            let p = provisional(&t, seed);
            assert_eq!(p.round, 2);
            check_shape(&t, &p);
            assert!(
                p.explanation
                    .groups
                    .iter()
                    .any(|g| g.label.starts_with("future winners of round 1"))
            );
        }
    }
}

#[test]
fn bg8_the_last_future_winner_and_loser_by_the_lot() {
    // 9 players: 4 boards and an [absent] game, so 5 future winners (the [absent] game's
    // winner already known) and 4 future losers.
    let t = drawn_round_one(9, 5);
    let p = provisional(&t, 5);
    let lot = |group: &str| -> Vec<String> {
        let g = p
            .explanation
            .groups
            .iter()
            .find(|g| g.label.starts_with(group))
            .expect("group");
        let s = g
            .steps
            .iter()
            .find(|s| s.message.starts_with("lot order: "))
            .expect("lot");
        s.message["lot order: ".len()..]
            .split(", ")
            .map(str::to_string)
            .collect()
    };
    let winners = lot("future winners");
    let losers = lot("future losers");
    assert_eq!(winners.len(), 5);
    let known = t.rounds[0].byes[0].player;
    assert!(
        winners.contains(&t.players[known].id),
        "the known winner is drawn with them"
    );
    let boards: Vec<(String, String)> = p
        .boards
        .iter()
        .map(|(a, b)| (label(&t, a), label(&t, b)))
        .collect();
    // Winners in lot order; the last one meets the first future loser of another board.
    assert_eq!(boards[0], (winners[0].clone(), winners[1].clone()));
    assert_eq!(boards[1], (winners[2].clone(), winners[3].clone()));
    assert_eq!(boards[2].0, winners[4]);
    let his_board = p.boards[2].0.board;
    let first_other = losers
        .iter()
        .find(|l| *l != &format!("loser of board {his_board}"))
        .expect("a loser");
    assert_eq!(&boards[2].1, first_other);
    // The losers left pair in lot order; the last meets [absent].
    let left: Vec<&String> = losers
        .iter()
        .filter(|l| *l != first_other && *l != "[absent]")
        .collect();
    assert_eq!(boards[3], (left[0].clone(), left[1].clone()));
    assert_eq!(label(&t, &p.absent[0]), *left[2]);
    assert_eq!(losers.last().map(String::as_str), Some("[absent]"));
}

/// Fills round 1's results at random.
fn results(t: &mut Tournament, rng: &mut impl Rng, forfeits: bool) {
    for g in &mut t.rounds[0].games {
        g.result = match (rng.random_bool(0.5), forfeits && rng.random_bool(0.3)) {
            (true, false) => GameResult::WhiteWins,
            (false, false) => GameResult::BlackWins,
            (true, true) => GameResult::WhiteWinsForfeit,
            (false, true) => GameResult::BlackWinsForfeit,
        };
    }
}

fn resolve(t: &Tournament, s: &Slot) -> usize {
    backgammon::provisional::resolve(s, &t.rounds[0]).expect("a winner")
}

#[test]
fn bg8_the_provisional_round_two_resolves_to_the_real_one() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
    for n in [3, 4, 5, 6, 7, 8, 9, 10, 13, 14, 20, 31, 62] {
        for seed in 0..6 {
            let mut t = drawn_round_one(n, seed);
            let early = provisional(&t, seed);
            results(&mut t, &mut rng, seed % 2 == 1);
            let real: RoundPairing =
                swisspair::pairing::pair_round(&t, &options(seed)).expect("round 2");
            let expected: Vec<(usize, usize)> = early
                .boards
                .iter()
                .map(|(a, b)| (resolve(&t, a), resolve(&t, b)))
                .collect();
            let got: Vec<(usize, usize)> = real.boards.iter().map(|b| (b.white, b.black)).collect();
            assert_eq!(got, expected, "{n} players, seed {seed}");
            let absent: Vec<usize> = real
                .byes
                .iter()
                .filter(|b| b.kind == ByeKind::AbsentOpponent)
                .map(|b| b.player)
                .collect();
            assert_eq!(
                absent,
                early
                    .absent
                    .iter()
                    .map(|s| resolve(&t, s))
                    .collect::<Vec<_>>()
            );
            assert!(
                real.explanation
                    .groups
                    .iter()
                    .any(|g| g.label == "round 2 drawn early (BG-8)")
            );
            assert_eq!(real.total_rounds, Some(early.total_rounds));
        }
    }
}

#[test]
fn bg8_a_provisional_request_after_results_is_refused() {
    let mut t = drawn_round_one(8, 1);
    t.rounds[0].games[2].result = GameResult::BlackWins;
    let e = problems(backgammon::pair_provisional(&t, &options(1)).expect_err("results"));
    assert_eq!(e.0.len(), 1, "{e}");
    assert_eq!(e.0[0].path, "tournament.rounds[0].games[2].result");
    let g = &t.rounds[0].games[2];
    let players = format!("{:?} - {:?}", t.players[g.white].id, t.players[g.black].id);
    assert!(
        e.0[0]
            .message
            .contains(&format!("round 1: the game {players} already has a result")),
        "{e}"
    );
    assert!(e.0[0].message.contains("BG-8"), "{e}");
}

#[test]
fn bg8_other_refusals() {
    // Before round 1 is drawn.
    let e =
        problems(backgammon::pair_provisional(&event(8, 0), &options(1)).expect_err("no round 1"));
    assert_eq!(e.0[0].path, "tournament.rounds");
    assert!(e.0[0].message.contains("round 1 is not drawn yet"), "{e}");
    // Not backgammon.
    let mut t = drawn_round_one(8, 1);
    t.system = Some(SystemId::RoundRobin);
    let e = problems(backgammon::pair_provisional(&t, &options(1)).expect_err("system"));
    assert_eq!(e.0[0].path, "system");
    // A player who withdraws before round 2: the field is not round 1's.
    let mut t = drawn_round_one(8, 1);
    t.players[4].withdrawn_from_round = Some(2);
    let e = problems(backgammon::pair_provisional(&t, &options(1)).expect_err("withdrawal"));
    assert_eq!(e.0[0].path, "tournament");
    assert!(
        e.0[0].message.contains("p5 played round 1 but withdrew"),
        "{e}"
    );
    // Round 2 asked for explicitly is fine; another round is not.
    let t = drawn_round_one(8, 1);
    let e = problems(
        backgammon::pair_provisional(
            &t,
            &PairOptions {
                round: Some(3),
                ..options(1)
            },
        )
        .expect_err("round 3"),
    );
    assert_eq!(e.0[0].path, "round");
}

#[test]
fn bg8_pair_draws_round_two_normally_when_the_early_draw_cannot_stand() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let mut t = drawn_round_one(8, 2);
    results(&mut t, &mut rng, false);
    t.rounds[0].games[1].result = GameResult::DoubleForfeit;
    let p = swisspair::pairing::pair_round(&t, &options(2)).expect("round 2");
    let steps: Vec<String> = p
        .explanation
        .groups
        .iter()
        .flat_map(|g| &g.steps)
        .map(|s| s.message.clone())
        .collect();
    assert!(
        steps
            .iter()
            .any(|s| s.contains("not as the early draw: board 2 of round 1 has no winner")),
        "{steps:?}"
    );
}

// ---------------------------------------------------------------- BG-9

/// A round by hand: (winner, loser) over the board, or (p, 0) = p beats [absent];
/// players from 1.
fn round(t: &mut Tournament, list: &[(usize, usize)], forfeit: bool) {
    let mut r = Round::default();
    for &(a, b) in list {
        if b == 0 {
            r.byes.push(Bye {
                player: a - 1,
                kind: ByeKind::AbsentOpponent,
            });
        } else {
            r.games.push(Game {
                white: a - 1,
                black: b - 1,
                result: if forfeit {
                    GameResult::WhiteWinsForfeit
                } else {
                    GameResult::WhiteWins
                },
                board: None,
            });
        }
    }
    t.rounds.push(r);
}

fn finals(t: &Tournament, seed: u64) -> backgammon::Finals {
    backgammon::pair_finals(t, &options(seed)).unwrap_or_else(|e| panic!("{e}"))
}

/// Seven players, three rounds: p1 wins all; p3, p5 and p7 lose once.
fn seven(forfeit: bool) -> Tournament {
    let mut t = event(7, 0);
    round(&mut t, &[(1, 2), (3, 4), (5, 6), (7, 0)], forfeit);
    round(&mut t, &[(1, 3), (5, 7), (2, 4), (6, 0)], forfeit);
    round(&mut t, &[(1, 5), (3, 2), (7, 6), (4, 0)], forfeit);
    t.options.set("match_length", "11").expect("named");
    t
}

#[test]
fn bg9_champion_and_repechage_exemption_by_the_criteria() {
    let t = seven(false);
    for seed in 0..5 {
        let f = finals(&t, seed);
        assert_eq!(f.regular_rounds, 3);
        assert_eq!(f.match_length, Some(11));
        assert_eq!(f.outcome, Outcome::Champion(0));
        assert_eq!(f.repechage_players, vec![2, 4, 6]);
        // Criterion 1: p7 beat [absent] once, p3 and p5 never. Criterion 2: p5 met p6 (1
        // win), p7 (2), p1 (3) = 6; p3 met p4 (1), p1 (3), p2 (1) = 5. p5 is exempt.
        assert_eq!(f.exempt, Some(4));
        assert_eq!(f.repechage.len(), 1);
        let (a, b) = f.repechage[0];
        assert_eq!(BTreeSet::from([a, b]), BTreeSet::from([2, 6]), "p3 - p7");
        let text: Vec<String> = f
            .explanation
            .groups
            .iter()
            .flat_map(|g| &g.steps)
            .map(|s| s.message.clone())
            .collect();
        assert!(
            text.iter()
                .any(|s| s.contains("criterion 1, fewest wins against [absent] (0): p3, p5")),
            "{text:?}"
        );
        assert!(
            text.iter()
                .any(|s| s.contains("criterion 2, highest sum of opponents' wins (6): p5")),
            "{text:?}"
        );
        assert!(
            text.iter()
                .any(|s| s == "p1 alone won all 3 games: champion"),
            "{text:?}"
        );
    }
}

#[test]
fn bg9_exemption_by_lot_when_the_criteria_tie() {
    // The same wins by forfeit: nobody met anybody (CG-4), so opponents' wins sum to 0.
    let t = seven(true);
    let mut exempt = BTreeSet::new();
    for seed in 0..20 {
        let f = finals(&t, seed);
        let e = f.exempt.expect("odd repechage");
        assert!(e == 2 || e == 4, "p3 or p5 (p7 beat [absent])");
        exempt.insert(e);
        assert!(
            f.explanation
                .groups
                .iter()
                .flat_map(|g| &g.steps)
                .any(|s| s.message.starts_with("criterion 3, lot"))
        );
    }
    assert_eq!(exempt.len(), 2, "the lot decides");
}

#[test]
fn bg9_final_and_a_repeat_only_if_impossible() {
    // Six players, two rounds: p1 and p3 win both; p2 and p5 lose once and met in round 2.
    let mut t = event(6, 2);
    round(&mut t, &[(1, 2), (3, 4), (5, 6)], false);
    round(&mut t, &[(1, 4), (3, 6), (2, 5)], false);
    let f = finals(&t, 1);
    assert_eq!(f.outcome, Outcome::Final(0, 2));
    assert_eq!(f.repechage_players, vec![1, 4]);
    assert_eq!(f.repechage.len(), 1);
    assert!(f.exempt.is_none());
    let text: Vec<String> = f
        .explanation
        .groups
        .iter()
        .flat_map(|g| &g.steps)
        .map(|s| s.message.clone())
        .collect();
    assert!(
        text.iter()
            .any(|s| s.contains("no repechage avoids every repeat: 1 repeat allowed")),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|s| s.contains("a repeat (they met in round 2), unavoidable")),
        "{text:?}"
    );
}

#[test]
fn bg9_a_withdrawn_player_wins_no_trophy() {
    let mut t = seven(false);
    t.players[0].withdrawn_from_round = Some(4);
    let f = finals(&t, 1);
    assert_eq!(f.outcome, Outcome::NoUndefeated);
    assert!(
        f.warnings
            .iter()
            .any(|w| w.contains("nobody won all 3 regular games"))
    );
    assert!(
        f.explanation
            .groups
            .iter()
            .flat_map(|g| &g.steps)
            .any(|s| s.rule_id == "BG-10" && s.message.starts_with("p1 withdrew"))
    );
}

#[test]
fn bg9_refusals() {
    // Before the regular phase is over.
    let mut t = seven(false);
    t.rounds.pop();
    let e = problems(backgammon::pair_finals(&t, &options(1)).expect_err("early"));
    assert_eq!(e.0[0].path, "tournament.rounds");
    assert!(e.0[0].message.contains("after the 3 regular rounds"), "{e}");
    // Too many undefeated for one final.
    let mut t = event(8, 1);
    round(&mut t, &[(1, 2), (3, 4), (5, 6), (7, 8)], false);
    match backgammon::pair_finals(&t, &options(1)) {
        Err(PairError::NoLegalPairing { rule, message, .. }) => {
            assert_eq!(rule, "BG-9");
            assert!(message.contains("4 players won all 1 games"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    // A draw.
    let mut t = seven(false);
    t.rounds[2].games[0].result = GameResult::Draw;
    let e = problems(backgammon::pair_finals(&t, &options(1)).expect_err("draw"));
    assert_eq!(e.0[0].path, "tournament.rounds[2].games[0].result");
}
