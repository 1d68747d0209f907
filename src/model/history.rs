//! Per-player round history, derived once from the rounds.
use super::{ByeKind, Colour, GameResult, PlayerIdx, Tournament};

/// What a player did in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundEntry {
    /// No record: not paired, not entered yet, or withdrawn.
    None,
    /// A game (played or forfeited) with the colour scheduled.
    Game {
        opponent: PlayerIdx,
        colour: Colour,
        result: GameResult,
    },
    /// A bye of some kind.
    Bye(ByeKind),
}

impl RoundEntry {
    /// The opponent the player actually met over the board (forfeits are no meeting, CG-4).
    pub fn met_opponent(&self) -> Option<PlayerIdx> {
        match *self {
            RoundEntry::Game {
                opponent, result, ..
            } if result.is_played() => Some(opponent),
            _ => None,
        }
    }

    /// The colour actually played (forfeits have none for pairing purposes, GHR 3.4).
    pub fn played_colour(&self) -> Option<Colour> {
        match *self {
            RoundEntry::Game { colour, result, .. } if result.is_played() => Some(colour),
            _ => None,
        }
    }
}

/// `entries[player][round - 1]` for every recorded round.
pub(super) fn entries(t: &Tournament) -> Vec<Vec<RoundEntry>> {
    let mut out = vec![vec![RoundEntry::None; t.rounds.len()]; t.players.len()];
    each_entry(t, |player, round, entry| {
        if let Some(row) = out.get_mut(player) {
            row[round] = entry;
        }
    });
    out
}

/// Every recorded entry as (player, round index from 0, entry), round by round: the games'
/// two sides, then the byes. A player not named in a round has no entry for it.
pub(super) fn each_entry(t: &Tournament, mut put: impl FnMut(PlayerIdx, usize, RoundEntry)) {
    for (r, round) in t.rounds.iter().enumerate() {
        for g in &round.games {
            put(
                g.white,
                r,
                RoundEntry::Game {
                    opponent: g.black,
                    colour: Colour::White,
                    result: g.result,
                },
            );
            put(
                g.black,
                r,
                RoundEntry::Game {
                    opponent: g.white,
                    colour: Colour::Black,
                    result: g.result,
                },
            );
        }
        for b in &round.byes {
            put(b.player, r, RoundEntry::Bye(b.kind));
        }
    }
}
