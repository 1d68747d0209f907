//! A round's check-list (what bbpPairings writes with `-l`): per player paired this round,
//! in the system's pairing order, the facts the system paired with. Each system that has
//! one builds it from its own code ([`super::System::checklist`]); presenting it
//! is the caller's.
use crate::model::{Colour, PlayerIdx, Score};

/// A colour preference as the check-list shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preference {
    None,
    Mild(Colour),
    Strong(Colour),
    Absolute(Colour),
}

/// Whether a player floated in a past round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Floated {
    None,
    Up,
    Down,
}

/// The system's own columns of a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SystemColumns {
    /// The Dutch system: PAB eligibility (C2), the floats of the last round (C14) and of
    /// the round before (C16).
    Dutch {
        bye_eligible: bool,
        float1: Floated,
        float2: Floated,
    },
    /// Burstein (bbpPairings' Index): Sonneborn-Berger and Buchholz in hundredths and
    /// tenths, the Buchholz and median scaled by the score (hundredths), the median
    /// (tenths).
    Burstein {
        sonneborn_berger: i128,
        buchholz_score: i128,
        buchholz: i128,
        median_score: i128,
        median: i128,
    },
}

/// One player's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChecklistRow {
    pub player: PlayerIdx,
    /// The pairing score, acceleration included.
    pub score: Score,
    /// The colours of the games played, in round order.
    pub colours: Vec<Colour>,
    pub preference: Preference,
    pub columns: SystemColumns,
    /// Per past round, the opponent met over the board.
    pub opponents: Vec<Option<PlayerIdx>>,
}

/// A round's check-list: the rows in the system's pairing order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checklist {
    pub round: u32,
    pub rows: Vec<ChecklistRow>,
}
