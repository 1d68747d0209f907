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
pub use writer::{Dialect, MAX_TRF_PLAYERS, WriteError, write};

use crate::model::{PlayerIdx, Score, Tournament};

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
