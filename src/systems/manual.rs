//! What a manual pairing is (systems.md §9, MP-1): an arbiter's proposal and the verdict on
//! it. The checker checks a proposal against a system's absolute rules
//! (`check::manual`); a system that checks its own proposals (the Swiss Team system, team
//! by team: `team_swiss::manual`) answers in the same types, which is why they live here,
//! below both.
use super::{Board, ByeAssignment, Explanation};
use crate::model::PlayerIdx;

/// A proposed pairing: boards (the order of the two players does not matter: MP-1 decides
/// the colours) and players proposed for the pairing-allocated bye.
#[derive(Clone, Debug, Default)]
pub struct Proposal {
    pub boards: Vec<(PlayerIdx, PlayerIdx)>,
    pub byes: Vec<PlayerIdx>,
    /// Pair the players the proposal leaves out with the system.
    pub complete: bool,
    /// Pair the whole round with the system too and list where the proposal differs
    /// (VCL4THP Q68-69: the manual pairing compared with the engine's).
    pub compare_with_engine: bool,
}

/// One broken rule, or one difference from the engine's pairing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub rule_id: String,
    pub message: String,
    pub players: Vec<PlayerIdx>,
    /// The warning level of FIDE's verification checklist (VCL4THP; TEC Manual): see
    /// [`level`].
    pub level: u8,
}

/// The warning levels a manual pairing's findings carry (VCL4THP Q66-69).
pub mod level {
    /// A caution: the pairing may stand (e.g. both players of a pair against their
    /// expected colour, Q67).
    pub const CAUTION: u8 = 2;
    /// A serious warning: a rematch, a prohibited pair, a pairing-allocated bye to a player
    /// who may not have it, a third colour in a row or a colour difference over two before
    /// the last round (Q66); a difference from the engine's pairing (Q69).
    pub const SERIOUS: u8 = 3;
    /// The pairing cannot be published as it is: a player twice, a player not to be
    /// paired, more than one bye, a bye where the number of players is even (or none where
    /// it is odd), a rest that cannot be completed.
    pub const BLOCKING: u8 = 4;

    /// The level of a broken rule: the structural rules of a round (MP-1's own checks, CG-6
    /// who is to be paired, one bye per round of C.04.1 art. 3 and C.04.6 art. 3.4) block;
    /// every rule of the system's pairing (rematch, prohibited pair, bye eligibility,
    /// colour limits) is a serious warning.
    pub fn of(rule_id: &str) -> u8 {
        if matches!(
            rule_id,
            "MP-1" | "CG-6" | "C.04.1 art. 3" | "C.04.6 art. 3.4"
        ) {
            BLOCKING
        } else {
            SERIOUS
        }
    }
}

/// The engine's pairing of the same round, and where the proposal differs from it.
#[derive(Clone, Debug, Default)]
pub struct EngineComparison {
    pub boards: Vec<Board>,
    pub byes: Vec<ByeAssignment>,
    /// Level 3 (Q69), rule `MPA`, one per proposed pair or bye the engine does not make.
    pub differences: Vec<Violation>,
    /// The TRF comment Q69 asks for (`### MPA @ Round n: …`), empty when the proposal is
    /// the engine's pairing.
    pub trf_comment: String,
}

/// The verdict on a proposal.
#[derive(Clone, Debug, Default)]
pub struct ManualReport {
    pub round: u32,
    pub violations: Vec<Violation>,
    /// Findings the checklist asks a warning for that break no absolute rule: a quality
    /// criterion a legal pairing may still miss (MP-2, the pairing-allocated bye above the
    /// lowest score, VCL4THP Q66). They leave `violations` (the absolute rules) as it is.
    pub warnings: Vec<Violation>,
    /// The proposal's boards with MP-1 colours, then the completion's boards.
    pub boards: Vec<Board>,
    pub byes: Vec<ByeAssignment>,
    pub explanation: Explanation,
    /// Players to pair that no board or bye covers.
    pub unpaired: Vec<PlayerIdx>,
    /// The system has no colours (backgammon): boards are as proposed, first player first.
    pub colourless: bool,
    /// The engine's pairing and the differences, when asked for.
    pub engine: Option<EngineComparison>,
}
