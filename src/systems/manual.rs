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
}

/// One broken rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub rule_id: String,
    pub message: String,
    pub players: Vec<PlayerIdx>,
}

/// The verdict on a proposal.
#[derive(Clone, Debug, Default)]
pub struct ManualReport {
    pub round: u32,
    pub violations: Vec<Violation>,
    /// The proposal's boards with MP-1 colours, then the completion's boards.
    pub boards: Vec<Board>,
    pub byes: Vec<ByeAssignment>,
    pub explanation: Explanation,
    /// Players to pair that no board or bye covers.
    pub unpaired: Vec<PlayerIdx>,
    /// The system has no colours (backgammon): boards are as proposed, first player first.
    pub colourless: bool,
}
