//! FIDE Tournament Report File (TRF-16, with TRF-26 records and the JaVaFo/bbp extension
//! lines), read into and written from the [`Tournament`] model. See `docs/formats.md`.
//!
//! Player ids of a tournament read from TRF are the starting ranks, as text (`"12"`), and
//! the starting rank is the pairing number.
//!
//! # Backgammon
//! A backgammon game has no colours; the TRF needs one, so the first-drawn player of a pair
//! is written as White (`w`) and the second as Black. A win against the phantom "[absent]"
//! (BG-3, [`crate::model::ByeKind::AbsentOpponent`]) is written `0000 - V`: TRF has no
//! code for it, `U` would read back as a pairing-allocated bye (a different fact: it would
//! lose BG-3's once-only rule and BG-7's float), and `F`/`+` already mean a full-point bye.
//! `V` ("victory over [absent]") is swisspair's extension; other engines reject it, which
//! is right, since they do not pair backgammon. The points column counts it as a forfeit
//! win. Reading and writing it round-trips exactly.
mod diagnose;
pub mod encoding;
mod reader;
mod settings;
mod team;
mod writer;

pub(crate) use diagnose::split_lines;
pub use diagnose::{MAX_ERRORS, TrfErrors, read_reporting};
pub use encoding::{DecodeError, Decoded, Encoding, decode};
/// Columns `from..=to` (1-based) of a TRF line, trimmed: the one column reader.
pub(crate) use reader::cols;
pub use reader::read;
pub use reader::{MAX_ID_WIDTH, NARROW_ID_WIDTH};
/// The width of player ids (`XXW <digits>`) and the player line's columns at a width.
pub(crate) use reader::{PlayerColumns, id_width};
pub use writer::{Dialect, MAX_NARROW_TRF_PLAYERS, MAX_TRF_PLAYERS, WriteError, write};

use crate::model::{PlayerIdx, Score, SystemId, Tournament};

/// A date as a TRF writes it: (year, month, day).
pub type Date = (u32, u32, u32);

/// The event's dates as the file gives them (record 042, the start): handed with the record
/// 192 code to the system that reads it (the Dutch edition in force follows the start
/// date).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventDates {
    pub start: Option<Date>,
}

/// A [`SystemCodes`] that knows no system, for this layer's own tests: every record 192
/// code is kept as unknown.
#[cfg(test)]
pub(crate) struct NoSystems;

#[cfg(test)]
impl SystemCodes for NoSystems {
    fn system_of(&self, _code: &str) -> Option<SystemId> {
        None
    }
    fn read(&self, _: SystemId, _: &str, _: &EventDates, _: &mut Tournament) -> Vec<String> {
        Vec::new()
    }
    fn write(&self, _t: &Tournament) -> Option<String> {
        None
    }
}

/// What the reader and the writer ask the pairing systems about record 192. Which codes name
/// which system, and what a code says of its options, are each system's to say; this layer
/// knows only the model, so the systems' registry implements this above it
/// (`systems::Registry`) and the caller hands it in (`pairing::read_trf`, `pairing::write_trf`).
pub trait SystemCodes {
    /// The system a record 192 code (upper case, trimmed) names; `None` if none does.
    fn system_of(&self, code: &str) -> Option<SystemId>;
    /// What that system reads from its code and the event's dates, into the tournament (its
    /// options, the settings the code spells); notes for the answer where it assumed
    /// something.
    fn read(
        &self,
        system: SystemId,
        code: &str,
        dates: &EventDates,
        t: &mut Tournament,
    ) -> Vec<String>;
    /// The record 192 code of the tournament's system with its options; `None` without a
    /// system.
    fn write(&self, t: &Tournament) -> Option<String>;
}

/// A TRF file as read: the tournament and what the model does not hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrfDocument {
    pub tournament: Tournament,
    /// Header records the model does not interpret (022 city, 102 arbiter, …), unknown
    /// records, `###` comments and team records, in file order, kept verbatim.
    pub other_lines: Vec<String>,
    /// The points column (81-84) of each player as written in the file.
    pub declared_points: Vec<Option<Score>>,
    /// What the reader assumed where the file did not say (e.g. the Dutch edition of a
    /// bare `FIDE_DUTCH` without a start date), as answer warnings.
    pub notes: Vec<String>,
}

impl TrfDocument {
    /// Players whose declared points differ from their points over the recorded rounds,
    /// as warnings (the column is informative: the results decide).
    pub fn points_mismatches(&self) -> Vec<String> {
        self.points_warnings()
            .into_iter()
            .map(|w| w.message)
            .collect()
    }

    /// [`TrfDocument::points_mismatches`] as answer warnings (`POINTS_COLUMN`), each naming
    /// its player.
    pub fn points_warnings(&self) -> Vec<crate::model::Warning> {
        let t = &self.tournament;
        let points = t.points_after(t.rounds.len() as u32);
        let mut out: Vec<crate::model::Warning> = self
            .notes
            .iter()
            .map(|n| crate::model::Warning::new("TRF_ASSUMPTION", "", n.clone()))
            .collect();
        for (i, declared) in self.declared_points.iter().enumerate() {
            if let (Some(d), Some(p)) = (declared, points.get(i))
                && d != p
            {
                out.push(
                    crate::model::Warning::new(
                        "POINTS_COLUMN",
                        "",
                        format!(
                            "player {}: the points column says {d} but the results give {p}",
                            t.players[i].id
                        ),
                    )
                    .with_players(vec![i]),
                );
            }
        }
        out
    }

    /// The index of the player with this starting rank.
    pub fn player_by_rank(&self, rank: u32) -> Option<PlayerIdx> {
        self.tournament
            .players
            .iter()
            .position(|p| p.pairing_number == Some(rank))
    }
}

/// A malformed TRF: where (1-based line and column) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct TrfError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}
