//! The bracket (KO-1, KO-2) and what the recorded rounds made of it (KO-3, KO-4).
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::options::{Options, Seeding};
use crate::model::validate::Problem;
use crate::model::{ByeKind, GameResult, PlayerIdx, Tournament};

/// Lot domain of the seeding lot (KO-1), so that it shares no lots with other draws.
const LOT_DOMAIN: u64 = 0x4b4f_2d31_0000_0000;

/// The seed numbers in bracket order for a bracket of `size` (a power of two): 1 and 2 in
/// opposite halves, 1-4 in different quarters, …; adjacent entries meet in round 1, and
/// seed s meets seed size + 1 − s (KO-2).
pub fn bracket_order(size: usize) -> Vec<usize> {
    let mut order = vec![1];
    while order.len() < size {
        let next = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, next + 1 - s]).collect();
    }
    order
}

/// The bracket's size: the smallest power of two holding `players` (at least 2).
pub fn bracket_size(players: usize) -> usize {
    players.max(2).next_power_of_two()
}

/// The number of rounds: log2 of the bracket's size.
pub fn rounds(players: usize) -> u32 {
    bracket_size(players).trailing_zeros()
}

/// The players in seed order (KO-1): by pairing number, or by a lot from `seed`.
pub fn seeds(t: &Tournament, options: &Options, seed: u64) -> Vec<PlayerIdx> {
    let mut list: Vec<PlayerIdx> = (0..t.players.len()).collect();
    list.sort_by_key(|&p| t.pairing_number(p));
    if options.seeding == Seeding::Lot {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ LOT_DOMAIN);
        list.shuffle(&mut rng);
    }
    list
}

/// One bracket's slots in bracket order: who holds each (`None`: an empty slot, a bye).
pub type Slots = Vec<Option<PlayerIdx>>;

/// The brackets before a round: the main one and, with a consolation, the consolation one
/// (from round 2).
#[derive(Clone, Debug)]
pub struct State {
    pub main: Slots,
    pub consolation: Option<Slots>,
    /// Per player, the round he left every bracket in (lost, or absent), if he did.
    pub out_in: Vec<Option<u32>>,
}

/// The bracket of round 1 (KO-2).
pub fn first(t: &Tournament, seeds: &[PlayerIdx]) -> Slots {
    bracket_order(bracket_size(t.players.len()))
        .into_iter()
        .map(|s| seeds.get(s - 1).copied())
        .collect()
}

/// One recorded round, indexed by player: his game, and whether he had a bye with points.
struct RoundIndex<'t> {
    games: Vec<Option<&'t crate::model::Game>>,
    bye: Vec<bool>,
}

impl<'t> RoundIndex<'t> {
    fn new(t: &'t Tournament, number: u32) -> RoundIndex<'t> {
        let mut games = vec![None; t.players.len()];
        let mut bye = vec![false; t.players.len()];
        if let Some(r) = t.round(number) {
            for g in &r.games {
                for p in [g.white, g.black] {
                    if let Some(slot) = games.get_mut(p) {
                        *slot = Some(g);
                    }
                }
            }
            for b in &r.byes {
                if matches!(b.kind, ByeKind::Pab | ByeKind::FullPoint)
                    && let Some(slot) = bye.get_mut(b.player)
                {
                    *slot = true;
                }
            }
        }
        RoundIndex { games, bye }
    }

    /// The game of `a` and `b`, if they played one.
    fn game(&self, a: PlayerIdx, b: PlayerIdx) -> Option<&'t crate::model::Game> {
        self.games
            .get(a)
            .copied()
            .flatten()
            .filter(|g| (g.white == a && g.black == b) || (g.white == b && g.black == a))
    }
}

/// Who won the match of `a` and `b` in recorded round `number` (KO-3): the winner of
/// their game (over the board or by forfeit), or the one who had the bye when the other
/// did not play. `Ok(None)`: neither goes on (a double forfeit, both absent).
fn winner(
    t: &Tournament,
    index: &RoundIndex<'_>,
    number: u32,
    a: PlayerIdx,
    b: PlayerIdx,
) -> Result<Option<PlayerIdx>, String> {
    let id = |p: PlayerIdx| t.players.get(p).map_or("?", |pl| pl.id.as_str());
    if let Some(g) = index.game(a, b) {
        return match g.result {
            GameResult::WhiteWins | GameResult::WhiteWinsForfeit => Ok(Some(g.white)),
            GameResult::BlackWins | GameResult::BlackWinsForfeit => Ok(Some(g.black)),
            GameResult::DoubleForfeit => Ok(None),
            other => Err(format!(
                "round {number}: the match {} - {} has no decided winner ({}); a knockout match is recorded as one game won by the player who goes on (KO-3.2, KO-5)",
                id(g.white),
                id(g.black),
                match other {
                    GameResult::Pending => "no result yet",
                    GameResult::Adjourned => "adjourned",
                    GameResult::Draw => "drawn",
                    _ => "neither won",
                }
            )),
        };
    }
    let had_bye = |p: PlayerIdx| index.bye.get(p).copied().unwrap_or(false);
    let played = |p: PlayerIdx| index.games.get(p).copied().flatten().is_some();
    match (had_bye(a), had_bye(b)) {
        (true, false) => Ok(Some(a)),
        (false, true) => Ok(Some(b)),
        _ if !played(a) && !played(b) && !had_bye(a) && !had_bye(b) => Ok(None),
        _ => Err(format!(
            "round {number}: {} and {} were to meet in the bracket, but their match is not recorded (KO-2, KO-3.2)",
            id(a),
            id(b)
        )),
    }
}

/// The next round's slots from `slots` and recorded round `number`, with the losers of
/// the matches played (by match, `None` where none lost over a game) (KO-3.1).
fn advance(
    t: &Tournament,
    number: u32,
    slots: &Slots,
    label: &str,
    path: &str,
    out_in: &mut [Option<u32>],
) -> Result<(Slots, Slots), Problem> {
    let index = RoundIndex::new(t, number);
    let mut next = Vec::with_capacity(slots.len() / 2);
    let mut losers = Vec::with_capacity(slots.len() / 2);
    for (m, pair) in slots.chunks(2).enumerate() {
        let (a, b) = (
            pair.first().copied().flatten(),
            pair.get(1).copied().flatten(),
        );
        let (goes_on, lost) = match (a, b) {
            (Some(a), Some(b)) => {
                let w = winner(t, &index, number, a, b).map_err(|message| {
                    Problem::new(path, format!("{label} match {}: {message}", m + 1))
                })?;
                for p in [a, b] {
                    if Some(p) != w {
                        out_in[p] = Some(number);
                    }
                }
                // The loser of a game (over the board or forfeited) with a winner.
                let met = index.game(a, b).is_some();
                let lost = match w {
                    Some(w) if met => Some(if w == a { b } else { a }),
                    _ => None,
                };
                (w, lost)
            }
            (Some(p), None) | (None, Some(p)) => (Some(p), None),
            (None, None) => (None, None),
        };
        next.push(goes_on);
        losers.push(lost);
    }
    Ok((next, losers))
}

/// The brackets before round `number` (KO-2..KO-4), from the recorded rounds; a problem
/// names the first match without a decided winner, or a game that is no match of the
/// brackets.
pub fn state(
    t: &Tournament,
    options: &Options,
    seeds: &[PlayerIdx],
    number: u32,
) -> Result<State, Problem> {
    let mut out_in = vec![None; t.players.len()];
    let mut main = first(t, seeds);
    let mut consolation: Option<Slots> = None;
    for k in 1..number {
        let path = format!("tournament.rounds[{}]", k - 1);
        let before_main = main.clone();
        let before_cons = consolation.clone();
        let (next, losers) = advance(t, k, &main, "main bracket", &path, &mut out_in)?;
        main = next;
        consolation = match consolation {
            None if options.consolation && k == 1 => {
                // KO-4: the round-1 losers are still in, in the consolation bracket.
                for p in losers.iter().flatten() {
                    out_in[*p] = None;
                }
                Some(losers)
            }
            Some(c) => Some(advance(t, k, &c, "consolation", &path, &mut out_in)?.0),
            None => None,
        };
        // Every recorded game must be a match of the brackets (KO-2).
        let mut partner: Vec<Option<PlayerIdx>> = vec![None; t.players.len()];
        for slots in std::iter::once(&before_main).chain(before_cons.iter()) {
            for pair in slots.chunks(2) {
                if let (Some(Some(x)), Some(Some(y))) = (pair.first(), pair.get(1)) {
                    partner[*x] = Some(*y);
                    partner[*y] = Some(*x);
                }
            }
        }
        if let Some(round) = t.round(k) {
            for (g, game) in round.games.iter().enumerate() {
                let (a, b) = (game.white, game.black);
                if partner.get(a).copied().flatten() != Some(b) {
                    let id = |p: PlayerIdx| t.players.get(p).map_or("?", |pl| pl.id.as_str());
                    return Err(Problem::new(
                        format!("{path}.games[{g}]"),
                        format!(
                            "round {k}: the game {} - {} is not a match of the bracket (KO-2): a knockout's rounds follow its bracket from the seeds",
                            id(a),
                            id(b)
                        ),
                    ));
                }
            }
        }
    }
    Ok(State {
        main,
        consolation,
        out_in,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bracket_order_keeps_the_top_seeds_apart() {
        assert_eq!(bracket_order(2), vec![1, 2]);
        assert_eq!(bracket_order(4), vec![1, 4, 2, 3]);
        assert_eq!(bracket_order(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
        for size in [2, 4, 8, 16, 32, 64] {
            let order = bracket_order(size);
            // Round 1 pairs s with size + 1 - s.
            for pair in order.chunks(2) {
                assert_eq!(pair[0] + pair[1], size + 1);
            }
            // 1 and 2 are in opposite halves.
            let half = size / 2;
            let pos = |s: usize| order.iter().position(|&x| x == s).unwrap_or(0);
            assert!((pos(1) < half) != (pos(2) < half));
        }
    }
}
