//! The Keizer ranking (KZ-1..KZ-3): values from ranks, scores from values, and the
//! iteration until the ranking repeats.
//!
//! Scores are exact: every fraction of the options is a whole multiple of
//! `1 / KeizerOptions::denominator()`, and so is every score (kept as that integer).
use super::options::{Fraction, InitialRanking, KeizerOptions};
use crate::model::{ByeKind, Colour, GameResult, PlayerIdx, RoundEntry, Tournament};

/// The most rankings computed before the iteration stops without a repeat (KZ-3.3).
pub const MAX_ITERATIONS: u32 = 100;

/// How the iteration ended (KZ-3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convergence {
    /// The new ranking equals the one its values came from: a fixed point.
    Stable,
    /// The new ranking equals an earlier one, `length` rankings back: a cycle.
    Cycle { length: usize },
    /// [`MAX_ITERATIONS`] rankings without a repeat.
    Capped,
}

/// What one round gives a player (KZ-3.1, KZ-3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Credit {
    /// A fraction of this opponent's value (a game played over the board).
    Opponent(Fraction, PlayerIdx),
    /// A fraction of the player's own value (bye, club duty, absence, forfeit).
    Own(Fraction),
}

/// The ranking after some rounds, every registered player in it.
#[derive(Clone, Debug)]
pub struct Ranking {
    /// Players, best first.
    pub order: Vec<PlayerIdx>,
    /// Per player: rank (1 = best).
    pub rank: Vec<u32>,
    /// Per player: the value of the rank held in `order` (KZ-2).
    pub value: Vec<u64>,
    /// Per player: the Keizer score, in units of `1 / denominator` (KZ-3); wide enough for any
    /// value, fraction and number of rounds the limits allow.
    pub score: Vec<u128>,
    pub denominator: u64,
    /// Rankings computed (1 when no round counts).
    pub iterations: u32,
    pub convergence: Convergence,
    /// Rounds counted.
    pub rounds: u32,
}

impl Ranking {
    /// A score as text: whole, or with one or two decimals as the denominator needs
    /// (rounded half up for display only; the ranking compares exact scores).
    pub fn score_text(&self, p: PlayerIdx) -> String {
        let (units, decimals) = self.score_hundredths(p);
        match decimals {
            0 => format!("{}", units),
            1 => format!("{}.{}", units / 10, units % 10),
            _ => format!("{}.{:02}", units / 100, units % 100),
        }
    }

    /// The score as an integer number of `10^-decimals` and the number of decimals:
    /// 0 when the denominator is 1, 1 when it divides 10, else 2 (rounded half up).
    pub fn score_hundredths(&self, p: PlayerIdx) -> (u128, u8) {
        let s = self.score.get(p).copied().unwrap_or(0);
        let d = u128::from(self.denominator.max(1));
        let decimals: u8 = if d == 1 {
            0
        } else if 10 % d == 0 {
            1
        } else {
            2
        };
        let scale = 10u128.pow(u32::from(decimals));
        ((s * scale * 2 + d) / (2 * d), decimals)
    }
}

/// The ranking before any game and between equal scores (KZ-1): rating, highest first,
/// then pairing number; or pairing number alone.
pub fn initial_order(t: &Tournament, how: InitialRanking) -> Vec<PlayerIdx> {
    let mut order: Vec<PlayerIdx> = (0..t.players.len()).collect();
    match how {
        InitialRanking::Rating => order.sort_by_key(|&p| {
            (
                std::cmp::Reverse(t.players[p].rating),
                t.pairing_number(p),
                p,
            )
        }),
        InitialRanking::PairingNumber => order.sort_by_key(|&p| (t.pairing_number(p), p)),
    }
    order
}

/// The value of rank `rank` (1-based, KZ-2): the top value less one step per rank above,
/// never below 0.
pub fn value_of_rank(options: &KeizerOptions, players: usize, rank: u32) -> u64 {
    let top = if options.top_value == 0 {
        players as u64
    } else {
        u64::from(options.top_value)
    };
    top.saturating_sub(u64::from(options.value_step) * u64::from(rank.saturating_sub(1)))
}

/// What each counted round gives each player (KZ-3.1, KZ-3.2). Rounds before a late
/// entry or from a withdrawal on give nothing: the player was not in the event.
fn credits(t: &Tournament, options: &KeizerOptions, rounds: u32) -> Vec<Vec<Credit>> {
    let entries = t.entries();
    (0..t.players.len())
        .map(|p| {
            let player = &t.players[p];
            (1..=rounds)
                .filter(|&r| player.is_active_in(r))
                .filter_map(|r| {
                    let entry = entries
                        .get(p)
                        .and_then(|row| row.get(r as usize - 1))
                        .copied()
                        .unwrap_or(RoundEntry::None);
                    credit(entry, options)
                })
                .collect()
        })
        .collect()
}

/// One round's credit (`None`: a game not yet played counts nothing).
fn credit(entry: RoundEntry, o: &KeizerOptions) -> Option<Credit> {
    Some(match entry {
        RoundEntry::None => Credit::Own(o.absent_without_notice),
        RoundEntry::Bye(kind) => Credit::Own(match kind {
            ByeKind::Pab | ByeKind::AbsentOpponent => o.bye,
            ByeKind::FullPoint => o.club_duty,
            ByeKind::HalfPoint | ByeKind::ZeroPoint => o.absent_with_notice,
            ByeKind::Absent => o.absent_without_notice,
        }),
        RoundEntry::Game {
            opponent,
            colour,
            result,
        } => {
            let white = colour == Colour::White;
            // Each played result from this player's side: win, draw or loss (KZ-3.1); an
            // adjourned game counts as a draw, as for pairing everywhere (GHR 3.1).
            let fraction = match (result, white) {
                (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => o.win,
                (GameResult::WhiteWins, false) | (GameResult::BlackWins, true) => o.loss,
                (GameResult::Draw | GameResult::Adjourned, _) => o.draw,
                (GameResult::WhiteHalfBlackZero, true)
                | (GameResult::WhiteZeroBlackHalf, false) => o.draw,
                (GameResult::WhiteHalfBlackZero, false)
                | (GameResult::WhiteZeroBlackHalf, true)
                | (GameResult::BothLose, _) => o.loss,
                // Forfeits are no game (CG-4): the winner was there without a game, as with
                // a bye; the loser is absent without notice (KZ-3.2).
                (GameResult::WhiteWinsForfeit, true) | (GameResult::BlackWinsForfeit, false) => {
                    return Some(Credit::Own(o.bye));
                }
                (GameResult::WhiteWinsForfeit, false)
                | (GameResult::BlackWinsForfeit, true)
                | (GameResult::DoubleForfeit, _) => {
                    return Some(Credit::Own(o.absent_without_notice));
                }
                (GameResult::Pending, _) => return None,
            };
            Credit::Opponent(fraction, opponent)
        }
    })
}

/// `fraction × value` in units of `1 / denominator`.
fn units(f: Fraction, value: u64, denominator: u64) -> u128 {
    u128::from(f.num) * u128::from(value) * u128::from(denominator / u64::from(f.den).max(1))
}

/// The Keizer ranking after `rounds` rounds (KZ-3.3): from the initial ranking, values
/// from the ranks, scores from the values, the players sorted by score (equal scores in the
/// initial order), repeated until a ranking repeats one already computed; the answer is
/// that ranking with the scores it was sorted by.
pub fn rank(t: &Tournament, options: &KeizerOptions, rounds: u32) -> Ranking {
    let n = t.players.len();
    let denominator = options.denominator();
    let initial = initial_order(t, options.initial_ranking);
    let mut initial_position = vec![0usize; n];
    for (i, &p) in initial.iter().enumerate() {
        initial_position[p] = i;
    }
    let credits = credits(t, options, rounds);
    let values_of = |order: &[PlayerIdx]| -> Vec<u64> {
        let mut value = vec![0u64; n];
        for (i, &p) in order.iter().enumerate() {
            value[p] = value_of_rank(options, n, i as u32 + 1);
        }
        value
    };
    let mut seen: Vec<Vec<PlayerIdx>> = vec![initial.clone()];
    let mut iterations = 0;
    loop {
        iterations += 1;
        let value = values_of(seen.last().map_or(&initial[..], |o| &o[..]));
        let score: Vec<u128> = (0..n)
            .map(|p| {
                credits[p]
                    .iter()
                    .map(|c| match *c {
                        Credit::Opponent(f, o) => units(f, value[o], denominator),
                        Credit::Own(f) => units(f, value[p], denominator),
                    })
                    .sum()
            })
            .collect();
        let mut next = initial.clone();
        next.sort_by_key(|&p| (std::cmp::Reverse(score[p]), initial_position[p]));
        let repeat = seen.iter().position(|o| *o == next);
        let convergence = match repeat {
            Some(i) if i + 1 == seen.len() => Some(Convergence::Stable),
            Some(i) => Some(Convergence::Cycle {
                length: seen.len() - i,
            }),
            None if iterations >= MAX_ITERATIONS => Some(Convergence::Capped),
            None => None,
        };
        if let Some(convergence) = convergence {
            let mut rank = vec![0u32; n];
            for (i, &p) in next.iter().enumerate() {
                rank[p] = i as u32 + 1;
            }
            let value = values_of(&next);
            return Ranking {
                order: next,
                rank,
                value,
                score,
                denominator,
                iterations,
                convergence,
                rounds,
            };
        }
        seen.push(next);
    }
}
