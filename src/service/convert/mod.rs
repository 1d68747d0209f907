//! proto <-> model, by message family. Conversion validates as it goes and reports every
//! problem at once, each with its field path and the player or round it concerns; the
//! handlers in `service/handlers.rs` only call these and the pipeline ([`crate::pairing`]).
//!
//! - [`enums`]: systems, bye kinds, game results (`From` impls both ways where total);
//! - [`tournament`]: the snapshot (proto tournament or TRF text), scoring, system options;
//! - [`pair`]: `Pair` requests and responses, boards, byes, explanations;
//! - [`check`]: `Check` responses; [`manual`]: `ValidatePairing`;
//! - [`backgammon`]: `PairProvisional`, `PairFinals`; [`simulate`]: `Simulate`;
//! - [`standings`] for `Standings`; [`audit`] for `Audit` and `AuditStream`;
//! - [`systems`] for `ListSystems`;
//! - [`registry`] for `Ratings` (B.02) and `Norms` (B.01).
pub mod audit;
pub mod backgammon;
pub mod check;
pub mod enums;
pub mod explain;
pub mod manual;
pub mod pair;
pub mod registry;
pub mod simulate;
pub mod standings;
pub mod systems;
pub mod team;
pub mod tournament;

pub use backgammon::{finals_request, finals_response, provisional_request, provisional_response};
pub use enums::{bye_kind_to_proto, system_from_proto, system_to_proto};
pub use explain::{explain_request, explain_response};
pub use manual::{validate_request, validate_response};
pub use pair::{
    board_to_proto, boards_to_proto, byes_to_proto, pair_request, pair_request_in_place,
    pair_request_owned, pair_response,
};
pub use tournament::{
    Ids, options_from_proto, scoring_from_proto, snapshot, tournament_from_proto,
    tournament_to_proto,
};

use crate::model::Score;
use crate::model::validate::Problem;

/// Limits a server enforces on every snapshot.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_players: usize,
}

impl Limits {
    /// A problem at `path` when a snapshot has more players than this server takes.
    pub fn check_players(&self, players: usize, path: &str, problems: &mut Vec<Problem>) {
        if players > self.max_players {
            problems.push(Problem::new(
                path,
                format!(
                    "{players} players is more than this server's limit of {}",
                    self.max_players
                ),
            ));
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_players: 100_000,
        }
    }
}

pub(crate) fn points(
    value: Option<f64>,
    default: Score,
    path: &str,
    problems: &mut Vec<Problem>,
) -> Score {
    match value {
        None => default,
        Some(v) => Score::from_points_f64(v).unwrap_or_else(|e| {
            problems.push(Problem::new(path, format!("{v} points {e}")));
            default
        }),
    }
}

pub(crate) fn opt_round(value: u32) -> Option<u32> {
    (value > 0).then_some(value)
}
