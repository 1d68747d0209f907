//! Hand-worked Keizer rankings and rounds (docs/systems/keizer.md). Players are named by
//! letter, rated A highest, so the initial ranking (KZ-1) is A, B, C, … Defaults unless
//! a test says otherwise: top value = number of players, step 1 (KZ-2); win 1, draw 1/2,
//! loss 0 of the opponent's value (KZ-3.1); bye 1/2, club duty 2/3, absence with notice
//! 1/3, without 0 of one's own (KZ-3.2).
use super::options::{Fraction, InitialRanking, KeizerOptions};
use super::score::{self, Convergence};
use super::*;
use crate::model::{Bye, ByeKind, Colour, Game, GameResult, Player, Round, Tournament};
use crate::systems::{Board, PairOptions};

const A: usize = 0;
const B: usize = 1;
const C: usize = 2;
const D: usize = 3;
const E: usize = 4;

fn club(n: usize) -> Tournament {
    Tournament {
        system: Some(SystemId::Keizer),
        initial_colour: Some(Colour::White),
        players: (0..n)
            .map(|i| Player {
                id: ((b'A' + i as u8) as char).to_string(),
                rating: 2000 - 10 * i as u32,
                pairing_number: Some(i as u32 + 1),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    }
}

fn game(white: usize, black: usize, result: GameResult) -> Game {
    Game {
        white,
        black,
        result,
        board: None,
    }
}

fn bye(player: usize, kind: ByeKind) -> Bye {
    Bye { player, kind }
}

/// The score in sixths (the default options' common denominator: halves and thirds).
fn sixths(r: &score::Ranking, p: usize) -> u128 {
    assert_eq!(r.denominator, 6);
    r.score[p]
}

fn pair_with(t: &Tournament, request: &PairOptions) -> Result<RoundPairing, PairError> {
    let options = System::options(&Keizer, &t.options);
    let r = RoundToPair::prepare(t, request)?;
    System::pair(&Keizer, &r, &options)
}

fn boards(p: &RoundPairing) -> Vec<(usize, usize)> {
    p.boards.iter().map(|b| (b.white, b.black)).collect()
}

#[test]
fn values_fall_one_step_per_rank_and_never_below_zero() {
    let o = KeizerOptions::default();
    // KZ-2: top value 0 = the number of players.
    assert_eq!(score::value_of_rank(&o, 10, 1), 10);
    assert_eq!(score::value_of_rank(&o, 10, 10), 1);
    let o = KeizerOptions {
        top_value: 100,
        value_step: 30,
        ..KeizerOptions::default()
    };
    assert_eq!(score::value_of_rank(&o, 10, 2), 70);
    assert_eq!(score::value_of_rank(&o, 10, 4), 10);
    assert_eq!(score::value_of_rank(&o, 10, 5), 0);
}

#[test]
fn before_any_round_the_ranking_is_the_initial_one() {
    let mut t = club(4);
    t.players[C].rating = 2500;
    let r = score::rank(&t, &KeizerOptions::default(), 0);
    // KZ-1: rating first (C 2500), then A, B, D; nothing to iterate.
    assert_eq!(r.order, vec![C, A, B, D]);
    assert_eq!(r.convergence, Convergence::Stable);
    assert_eq!(r.iterations, 1);
    assert_eq!(r.value[C], 4);
    let by_number = KeizerOptions {
        initial_ranking: InitialRanking::PairingNumber,
        ..KeizerOptions::default()
    };
    assert_eq!(score::rank(&t, &by_number, 0).order, vec![A, B, C, D]);
}

/// Round 1: B beats A, D beats C.
/// Computation 1, values of the initial ranking A 4, B 3, C 2, D 1: B 4 (A's value), D 2
/// (C's), A 0, C 0: ranking B, D, A, C (A before C by the initial ranking).
/// Computation 2, values B 4, D 3, A 2, C 1: B 2, D 1, A 0, C 0: ranking B, D, A, C again:
/// stable (KZ-3.3), with the scores of computation 2.
#[test]
fn values_are_recomputed_until_the_ranking_is_stable() {
    let mut t = club(4);
    t.rounds.push(Round {
        games: vec![
            game(A, B, GameResult::BlackWins),
            game(C, D, GameResult::BlackWins),
        ],
        byes: vec![],
    });
    let r = score::rank(&t, &KeizerOptions::default(), 1);
    assert_eq!(r.order, vec![B, D, A, C]);
    assert_eq!(r.convergence, Convergence::Stable);
    assert_eq!(r.iterations, 2);
    assert_eq!(
        [B, D, A, C].map(|p| sixths(&r, p)),
        [2 * 6, 6, 0, 0],
        "B 2, D 1, A 0, C 0"
    );
    assert_eq!([B, D, A, C].map(|p| r.value[p]), [4, 3, 2, 1]);
    assert_eq!(r.score_text(B), "2.00");
}

/// Three players, A and B draw in round 1.
/// Computation 1, values A 3, B 2, C 1: A 1 (half B's 2), B 3/2 (half A's 3): B, A, C.
/// Computation 2, values B 3, A 2, C 1: A 3/2, B 1: A, B, C, the initial ranking again: a
/// cycle of two orders (KZ-3.3). The first order repeated (A, B, C) is the answer, with the
/// scores it was sorted by (A 3/2, B 1).
#[test]
fn a_cycle_stops_at_the_first_repeated_ranking() {
    let mut t = club(3);
    t.rounds.push(Round {
        games: vec![game(A, B, GameResult::Draw)],
        byes: vec![bye(C, ByeKind::Pab)],
    });
    let o = KeizerOptions {
        bye: Fraction::ZERO,
        ..KeizerOptions::default()
    };
    let r = score::rank(&t, &o, 1);
    assert_eq!(r.convergence, Convergence::Cycle { length: 2 });
    assert_eq!(r.iterations, 2);
    assert_eq!(r.order, vec![A, B, C]);
    // Sixths (the other fractions' thirds stay in the common denominator): 9/6, 6/6, 0.
    assert_eq!([A, B, C].map(|p| sixths(&r, p)), [9, 6, 0]);
    assert_eq!(r.score_text(A), "1.50");
}

/// Round 1: A beats B; C on club duty (full-point bye); D absent with notice (half-point
/// bye). Scores in sixths.
/// Computation 1, values A 4, B 3, C 2, D 1: A 3 (B's value) = 18/6, C 2/3 × 2 = 8/6,
/// D 1/3 × 1 = 2/6, B 0: ranking A, C, D, B.
/// Computation 2, values A 4, C 3, D 2, B 1: A 1 = 6/6, C 2/3 × 3 = 12/6, D 1/3 × 2 = 4/6,
/// B 0: ranking C, A, D, B.
/// Computation 3, values C 4, A 3, D 2, B 1: A 1 = 6/6, C 2/3 × 4 = 16/6, D 4/6, B 0: C, A,
/// D, B again: stable.
#[test]
fn byes_duty_and_absences_earn_a_fraction_of_ones_own_value() {
    let mut t = club(4);
    t.rounds.push(Round {
        games: vec![game(A, B, GameResult::WhiteWins)],
        byes: vec![bye(C, ByeKind::FullPoint), bye(D, ByeKind::HalfPoint)],
    });
    let r = score::rank(&t, &KeizerOptions::default(), 1);
    assert_eq!(r.order, vec![C, A, D, B]);
    assert_eq!(r.iterations, 3);
    assert_eq!(r.convergence, Convergence::Stable);
    assert_eq!([C, A, D, B].map(|p| sixths(&r, p)), [16, 6, 4, 0]);
    assert_eq!(r.score_text(C), "2.67");
    assert_eq!(r.score_text(D), "0.67");
}

/// A forfeit is no game (CG-4): the winner scores as with a bye (1/2 of his own value),
/// the loser as absent without notice (0); a player absent without a bye (no entry) too.
/// Values A 3, B 2, C 1: A wins by forfeit against B: A 3/2; C absent: 0; B 0. A, B, C
/// (B before C by the initial ranking, both 0): stable at once.
#[test]
fn forfeits_and_absences_without_notice() {
    let mut t = club(3);
    t.rounds.push(Round {
        games: vec![game(A, B, GameResult::WhiteWinsForfeit)],
        byes: vec![],
    });
    let r = score::rank(&t, &KeizerOptions::default(), 1);
    assert_eq!(r.order, vec![A, B, C]);
    assert_eq!([A, B, C].map(|p| sixths(&r, p)), [9, 0, 0]);
    let notice = KeizerOptions {
        absent_without_notice: Fraction::ONE,
        ..KeizerOptions::default()
    };
    // An absence without notice now earns the whole own value. Computation 1, values A 3,
    // B 2, C 1: A 1/2 × 3 = 3/2 (forfeit win), B 1 × 2 = 2 (forfeit loss), C 1 × 1 = 1
    // (absent): B, A, C. Computation 2, values B 3, A 2, C 1: B 3, A 1, C 1 (A before C by
    // the initial ranking): B, A, C again: stable.
    let r = score::rank(&t, &notice, 1);
    assert_eq!(r.order, vec![B, A, C]);
    assert_eq!([B, A, C].map(|p| sixths(&r, p)), [18, 6, 6]);
}

/// Round 1 (colours as recorded): A (White) draws B, C (White) draws D.
/// Computation 1, values A 4, B 3, C 2, D 1: A 3/2, B 2, C 1/2, D 1: B, A, D, C.
/// Computation 2, values B 4, A 3, D 2, C 1: A 2, B 3/2, C 1, D 1/2: A, B, C, D, the
/// initial ranking again: a cycle; the ranking is A, B, C, D (KZ-3.3).
/// Round 2 (KZ-4.1, KZ-4.2): A's nearest, B, met him in round 1, within the last 3 rounds:
/// A meets C, the next; then B meets D. Colours (KZ-5.3): A and C both had White and are
/// due Black by one, equally: A, ranked higher, gets it; B and D both had Black: B gets
/// White.
#[test]
fn top_down_pairing_passes_over_a_recent_opponent() {
    let mut t = club(4);
    t.rounds.push(Round {
        games: vec![game(A, B, GameResult::Draw), game(C, D, GameResult::Draw)],
        byes: vec![],
    });
    let p = pair_with(&t, &PairOptions::default()).expect("pairs");
    assert_eq!(boards(&p), vec![(C, A), (B, D)]);
    let steps: Vec<&str> = p
        .explanation
        .groups
        .iter()
        .flat_map(|g| g.steps.iter().map(|s| s.rule_id.as_str()))
        .collect();
    assert!(steps.contains(&"KZ-4.2"), "{steps:?}");
    assert!(steps.contains(&"KZ-5.3"), "{steps:?}");
    // With no re-meeting window, the nearest players meet again: A-B, C-D, the colours
    // due (A had White: Black now; KZ-5.3 for C-D likewise).
    let mut again = t.clone();
    again.options.set("rematch_rounds", "0").expect("named");
    let p = pair_with(&again, &PairOptions::default()).expect("pairs");
    assert_eq!(boards(&p), vec![(B, A), (D, C)]);
    // KZ-4.2 by games: a re-meeting only once each has played one other game since.
    let mut games = again.clone();
    games.options.set("rematch_games", "1").expect("named");
    let p = pair_with(&games, &PairOptions::default()).expect("pairs");
    assert_eq!(boards(&p), vec![(C, A), (B, D)]);
}

/// Five players. Round 1 (as KZ-4 pairs it: A-B, C-D, E the bye): A (White) beats B,
/// D (White) beats C... here C beats D; E the PAB.
/// Computation 1, values A 5, B 4, C 3, D 2, E 1: A 4, C 2, E 1/2 × 1, B 0, D 0:
/// A, C, E, B, D.
/// Computation 2, values A 5, C 4, E 3, B 2, D 1: A 2, C 1, E 3/2: A, E, C, B, D.
/// Computation 3, values A 5, E 4, C 3, B 2, D 1: A 2, E 2, C 1: A and E equal, A first by
/// the initial ranking: A, E, C, B, D again: stable.
/// Round 2 (KZ-4.3): the bye to the fewest byes (everyone but E: none), lowest ranked: D.
/// Then A-E, C-B. Colours: A had White, E none: A gets the Black he is due (KZ-5.2); C had
/// Black, B had Black, equally: C, ranked higher, gets White (KZ-5.3).
#[test]
fn the_bye_goes_to_the_lowest_ranked_with_the_fewest_byes() {
    let mut t = club(5);
    t.rounds.push(Round {
        games: vec![
            game(A, B, GameResult::WhiteWins),
            game(D, C, GameResult::BlackWins),
        ],
        byes: vec![bye(E, ByeKind::Pab)],
    });
    let ranking = score::rank(&t, &KeizerOptions::default(), 1);
    assert_eq!(ranking.order, vec![A, E, C, B, D]);
    assert_eq!(ranking.iterations, 3);
    assert_eq!([A, E, C].map(|p| sixths(&ranking, p)), [12, 12, 6]);
    let p = pair_with(&t, &PairOptions::default()).expect("pairs");
    assert_eq!(p.byes.len(), 1);
    assert_eq!(p.byes[0].player, D);
    assert_eq!(p.byes[0].kind, ByeKind::Pab);
    assert_eq!(boards(&p), vec![(E, A), (C, B)]);
}

/// Round 1 with everybody present, no history: A-B, C-D (KZ-4.1); the higher ranked gets
/// the first-round colour on odd boards, the other on even boards (KZ-5.4).
#[test]
fn first_round_pairs_neighbours_with_alternating_colours() {
    let t = club(4);
    let p = pair_with(&t, &PairOptions::default()).expect("pairs");
    assert_eq!(boards(&p), vec![(A, B), (D, C)]);
}

/// Absent players (CG-6) and requested byes are not paired: the present ones are.
#[test]
fn absent_players_are_not_paired() {
    let t = club(5);
    let request = PairOptions {
        absent: vec![B],
        requested_byes: vec![(D, ByeKind::HalfPoint)],
        ..PairOptions::default()
    };
    let p = pair_with(&t, &request).expect("pairs");
    // Present: A, C, E: E, the lowest ranked, gets the bye; A meets C.
    assert_eq!(boards(&p), vec![(A, C)]);
    assert_eq!(p.byes.iter().map(|b| b.player).collect::<Vec<_>>(), vec![E]);
}

/// KZ-5.1: A has had White twice: a third White would break the same-colour limit, so he
/// gets Black though ranked higher; with `same_colour_limit=0` and no difference limit,
/// the due colours decide (both due Black, A by the larger difference: KZ-5.3).
#[test]
fn colour_limits_decide_first() {
    let mut t = club(6);
    t.options.set("rematch_rounds", "0").expect("named");
    t.rounds.push(Round {
        games: vec![
            game(A, B, GameResult::Draw),
            game(C, D, GameResult::Draw),
            game(E, 5, GameResult::Draw),
        ],
        byes: vec![],
    });
    t.rounds.push(Round {
        games: vec![
            game(A, C, GameResult::Draw),
            game(B, D, GameResult::Draw),
            game(E, 5, GameResult::Draw),
        ],
        byes: vec![],
    });
    let p = pair_with(&t, &PairOptions::default()).expect("pairs");
    for b in &p.boards {
        assert_ne!(b.white, A, "A would have a third White: {:?}", boards(&p));
        assert_ne!(b.white, E, "E would have a third White");
    }
    let rule = p
        .explanation
        .groups
        .iter()
        .flat_map(|g| g.steps.iter())
        .find(|s| s.players.contains(&A) && s.message.starts_with("board"))
        .map(|s| s.rule_id.clone());
    assert_eq!(rule.as_deref(), Some("KZ-5.1"));
}

/// Two players who just met may not meet again within the window: no legal pairing
/// (CG-7), citing KZ-4.2, never a rematch.
#[test]
fn no_pairing_within_the_window_is_said() {
    let mut t = club(2);
    t.rounds.push(Round {
        games: vec![game(A, B, GameResult::Draw)],
        byes: vec![],
    });
    match pair_with(&t, &PairOptions::default()) {
        Err(PairError::NoLegalPairing { rule, .. }) => assert_eq!(rule, "KZ-4.2"),
        other => panic!("expected no legal pairing, got {other:?}"),
    }
    let _ = Board { white: A, black: B };
}

/// KZ-4.1's proviso: round 1, C (White) beats D; A and B absent with notice.
/// Computation 1, values A 4, B 3, C 2, D 1: A 1/3 × 4 = 4/3, B 1/3 × 3 = 1, C 1 (D's
/// value), D 0: A, B, C, D (B before C, both 1, by the initial ranking): the initial
/// ranking itself, so stable at once. Round 2: A's nearest, B, is free, but then C and D,
/// who just met, would be left: A passes over B (KZ-4.1) and meets C; B meets D. Colours
/// (KZ-5.2): C had White, so A takes White; D had Black, so B takes Black.
#[test]
fn the_nearest_is_passed_over_when_the_rest_could_not_be_paired() {
    let mut t = club(4);
    t.rounds.push(Round {
        games: vec![game(C, D, GameResult::WhiteWins)],
        byes: vec![bye(A, ByeKind::HalfPoint), bye(B, ByeKind::HalfPoint)],
    });
    let ranking = score::rank(&t, &KeizerOptions::default(), 1);
    assert_eq!(ranking.order, vec![A, B, C, D]);
    assert_eq!(ranking.iterations, 1);
    assert_eq!([A, B, C, D].map(|p| sixths(&ranking, p)), [8, 6, 6, 0]);
    let p = pair_with(&t, &PairOptions::default()).expect("pairs");
    assert_eq!(boards(&p), vec![(A, C), (D, B)]);
    let passed = p
        .explanation
        .groups
        .iter()
        .flat_map(|g| g.steps.iter())
        .find(|s| s.message.contains("passes over"))
        .expect("a step passes over B");
    assert_eq!(passed.rule_id, "KZ-4.1");
    assert_eq!(passed.players, vec![A, B]);
}
