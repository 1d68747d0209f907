//! What the rounds before the one being drawn say of each player, in backgammon terms:
//! wins (BG-2), games against [absent] (BG-3), floats (BG-7), who met whom (BG-6, CG-4,
//! CG-10).
use rustc_hash::FxHashSet;

use crate::model::{ByeKind, GameResult, PlayerIdx, Tournament};

/// A BG-7 event: the player was paired with someone with fewer wins (`Down`) or more wins
/// (`Up`) than he had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Float {
    Down,
    Up,
}

/// One player's past.
#[derive(Clone, Debug, Default)]
pub struct PlayerRecord {
    /// BG-2: wins so far (played, by forfeit, against [absent], full-point byes).
    pub wins: u32,
    /// Rounds in which he met [absent] (BG-3).
    pub absent_rounds: Vec<u32>,
    /// BG-7 events in round order.
    pub floats: Vec<(u32, Float)>,
    /// Opponents met over the board (CG-4: forfeits are no meeting), with the round.
    pub opponents: Vec<(u32, PlayerIdx)>,
}

/// Why two entries of a draw may not meet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conflict {
    /// They met over the board in this round (BG-6, CG-4).
    Met(u32),
    /// A forbidden pair (CG-10).
    Forbidden,
    /// Any other reason, described.
    Other(String),
}

impl std::fmt::Display for Conflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Conflict::Met(r) => write!(f, "they met in round {r}"),
            Conflict::Forbidden => f.write_str("they may not meet (forbidden pair, CG-10)"),
            Conflict::Other(why) => f.write_str(why),
        }
    }
}

/// Every player's past, and who may not meet whom.
#[derive(Clone, Debug, Default)]
pub struct Record {
    pub players: Vec<PlayerRecord>,
    /// CG-10 pairs for the round being drawn.
    forbidden: FxHashSet<(PlayerIdx, PlayerIdx)>,
}

fn key(a: PlayerIdx, b: PlayerIdx) -> (PlayerIdx, PlayerIdx) {
    (a.min(b), a.max(b))
}

/// The winner of a game, if it has one (BG-2: a forfeit is a win and a loss).
pub fn winner(white: PlayerIdx, black: PlayerIdx, result: GameResult) -> Option<PlayerIdx> {
    match result {
        GameResult::WhiteWins | GameResult::WhiteWinsForfeit => Some(white),
        GameResult::BlackWins | GameResult::BlackWinsForfeit => Some(black),
        _ => None,
    }
}

impl Record {
    /// The record of `t`'s rounds `1..number` (the rounds before the one to draw; rounds
    /// past the snapshot's end count nothing).
    pub fn build(t: &Tournament, number: u32) -> Record {
        let mut players = vec![PlayerRecord::default(); t.players.len()];
        for (r, round) in t
            .rounds
            .iter()
            .enumerate()
            .take(number.saturating_sub(1) as usize)
        {
            let rn = r as u32 + 1;
            // BG-7 compares the wins each side had when the round was drawn.
            let before: Vec<u32> = players.iter().map(|p| p.wins).collect();
            for g in &round.games {
                let (Some(&wb), Some(&bb)) = (before.get(g.white), before.get(g.black)) else {
                    continue;
                };
                // CG-4: only a game played over the board is a meeting and a float; a
                // pending game is paired and will be played.
                if g.result.is_played() {
                    players[g.white].opponents.push((rn, g.black));
                    players[g.black].opponents.push((rn, g.white));
                    if wb != bb {
                        let (hi, lo) = if wb > bb {
                            (g.white, g.black)
                        } else {
                            (g.black, g.white)
                        };
                        players[hi].floats.push((rn, Float::Down));
                        players[lo].floats.push((rn, Float::Up));
                    }
                }
                if let Some(w) = winner(g.white, g.black, g.result) {
                    players[w].wins += 1;
                }
            }
            for b in &round.byes {
                let Some(p) = players.get_mut(b.player) else {
                    continue;
                };
                match b.kind {
                    ByeKind::AbsentOpponent => {
                        p.wins += 1;
                        p.absent_rounds.push(rn);
                        // BG-3: [absent] has 0 wins for the draw, so anyone with a win who
                        // meets it was paired with fewer wins.
                        if before[b.player] > 0 {
                            p.floats.push((rn, Float::Down));
                        }
                    }
                    // Points without a game score as wins; validation refuses the PAB and
                    // the half-point bye before a draw (BG-2, BG-3).
                    ByeKind::FullPoint | ByeKind::Pab => p.wins += 1,
                    ByeKind::HalfPoint | ByeKind::ZeroPoint | ByeKind::Absent => {}
                }
            }
        }
        let mut forbidden = FxHashSet::default();
        for f in &t.forbidden_pairings {
            if !f.applies_to(number) {
                continue;
            }
            for (i, &a) in f.players.iter().enumerate() {
                for &b in &f.players[i + 1..] {
                    if a != b {
                        forbidden.insert(key(a, b));
                    }
                }
            }
        }
        Record { players, forbidden }
    }

    pub fn player(&self, p: PlayerIdx) -> &PlayerRecord {
        &self.players[p]
    }

    pub fn wins(&self, p: PlayerIdx) -> u32 {
        self.players.get(p).map_or(0, |r| r.wins)
    }

    /// The (last) round in which two players met, if they did: a scan of one player's
    /// opponents, cheaper than a map of every game (3 % of a 64-entry draw, issue 37).
    pub fn met_in(&self, a: PlayerIdx, b: PlayerIdx) -> Option<u32> {
        let record = self.players.get(a)?;
        record
            .opponents
            .iter()
            .rev()
            .find(|&&(_, o)| o == b)
            .map(|&(round, _)| round)
    }

    pub fn is_forbidden(&self, a: PlayerIdx, b: PlayerIdx) -> bool {
        self.forbidden.contains(&key(a, b))
    }

    /// Why two players may not meet (BG-6, CG-10), if they may not.
    pub fn why_not(&self, a: PlayerIdx, b: PlayerIdx) -> Option<String> {
        self.conflict(a, b).map(|c| c.to_string())
    }

    /// [`Record::why_not`] undescribed: the draw writes the reason only when an
    /// explanation step names it (most blocked pairs are never asked about).
    pub fn conflict(&self, a: PlayerIdx, b: PlayerIdx) -> Option<Conflict> {
        if let Some(r) = self.met_in(a, b) {
            Some(Conflict::Met(r))
        } else if self.is_forbidden(a, b) {
            Some(Conflict::Forbidden)
        } else {
            None
        }
    }

    /// The CG-10 pairs of the round being drawn.
    pub fn forbidden_pairs(&self) -> Vec<(PlayerIdx, PlayerIdx)> {
        let mut out: Vec<_> = self.forbidden.iter().copied().collect();
        out.sort_unstable();
        out
    }

    /// Every pair that may not meet (met or forbidden), each once.
    pub fn blocked_pairs(&self) -> Vec<(PlayerIdx, PlayerIdx)> {
        let met = self.players.iter().enumerate().flat_map(|(a, record)| {
            record
                .opponents
                .iter()
                .filter(move |&&(_, o)| a < o)
                .map(move |&(_, o)| (a, o))
        });
        let mut out: Vec<_> = met.chain(self.forbidden.iter().copied()).collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}
