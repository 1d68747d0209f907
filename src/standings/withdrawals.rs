//! FIDE General Regulations for Competitions art. 6.6 (the older Tournament Rules, C.06
//! art. V.4): in a round robin, a player who withdraws or is expelled having completed
//! less than 50 % of his games stays in the table for rating and history, but the points
//! scored by him or against him are not counted in the final standings; with at least
//! 50 % everything counts. Applied only on request (`Options::round_robin_withdrawals`,
//! `docs/standings.md`), so that every other answer stays as it was.
use crate::model::{GameResult, PlayerIdx, SystemId, Tournament};

/// The article applied.
pub const ARTICLE: &str = "GRC 6.6";

/// A game (or bye) left out of the standings, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DroppedGame {
    /// Round (1-based).
    pub round: u32,
    /// The player who withdrew under 50 %.
    pub player: PlayerIdx,
    /// His opponent; `None` for a bye of his.
    pub opponent: Option<PlayerIdx>,
    pub reason: String,
}

/// The games a round robin's standings after `rounds` leave out by GRC 6.6: every game and
/// bye, up to round `rounds`, of each player withdrawn by then (`withdrawn_from_round` at
/// most `rounds`) who completed fewer than half of his scheduled games. Completed: played
/// over the board with a result (forfeits are not). Scheduled: each other player met once
/// per cycle (`n − 1` games a cycle; a cycle is `n − 1` rounds, `n` when `n` is odd).
/// Empty for any other system.
pub fn dropped(t: &Tournament, rounds: u32) -> Vec<DroppedGame> {
    let n = t.players.len();
    if t.system != Some(SystemId::RoundRobin) || n < 2 {
        return Vec::new();
    }
    let per_cycle = if n.is_multiple_of(2) { n - 1 } else { n };
    let total = (t.total_rounds as usize).max(t.rounds.len());
    let cycles = total.div_ceil(per_cycle).max(1);
    let scheduled = (n - 1) * cycles;
    let mut out = Vec::new();
    for (p, player) in t.players.iter().enumerate() {
        let Some(from) = player.withdrawn_from_round.filter(|&r| r <= rounds) else {
            continue;
        };
        let completed = t
            .rounds
            .iter()
            .flat_map(|r| r.games.iter())
            .filter(|g| {
                (g.white == p || g.black == p)
                    && g.result.is_played()
                    && !matches!(g.result, GameResult::Adjourned | GameResult::Pending)
            })
            .count();
        if 2 * completed >= scheduled {
            continue;
        }
        let reason = format!(
            "{ARTICLE}: player {} withdrew from round {from} having completed {completed} of {scheduled} games (less than 50 %): the points scored by him or against him are not counted",
            player.id
        );
        for (r, round) in t.rounds.iter().enumerate().take(rounds as usize) {
            for g in round.games.iter().filter(|g| g.white == p || g.black == p) {
                out.push(DroppedGame {
                    round: r as u32 + 1,
                    player: p,
                    opponent: Some(if g.white == p { g.black } else { g.white }),
                    reason: reason.clone(),
                });
            }
            if round.byes.iter().any(|b| b.player == p) {
                out.push(DroppedGame {
                    round: r as u32 + 1,
                    player: p,
                    opponent: None,
                    reason: reason.clone(),
                });
            }
        }
    }
    out.sort_by_key(|d| (d.round, d.player, d.opponent));
    out
}

/// The tournament without the games and byes `dropped` lists: what the standings rank.
pub fn without(t: &Tournament, dropped: &[DroppedGame]) -> Tournament {
    let mut out = t.clone();
    for d in dropped {
        let Some(round) = out.rounds.get_mut(d.round as usize - 1) else {
            continue;
        };
        match d.opponent {
            Some(q) => round.games.retain(|g| {
                !((g.white, g.black) == (d.player, q) || (g.white, g.black) == (q, d.player))
            }),
            None => round.byes.retain(|b| b.player != d.player),
        }
    }
    out
}
