//! Pairing systems, behind one trait. Each system lives in its own module with its options
//! and tests; what several systems share (who is paired this round, colour histories) is in
//! [`common`], written once.
pub mod amalfi;
pub mod backgammon;
pub mod buchholz;
pub mod burstein;
pub mod checklist;
pub mod colour_alternation;
pub mod common;
pub mod double_swiss;
pub mod dubov;
pub mod dutch;
pub mod explanation;
pub mod lim;
pub mod manual;
pub mod options;
pub mod round_robin;
pub mod simple;
pub mod team_swiss;
pub mod vincze;

/// An answer's warning: a model type (the TRF reader gives them too), named here as well
/// because every system's answer carries them.
pub use crate::model::Warning;
use crate::model::validate::Problems;
use crate::model::{ByeKind, PlayerIdx, Score, Scoring, SystemId};
pub use checklist::Checklist;
pub use common::RoundToPair;
pub use explanation::{Detail, Explanation};

/// What a request adds to the snapshot for the round to pair.
#[derive(Clone, Debug, Default)]
pub struct PairOptions {
    /// Round to pair; `None` = rounds paired + 1.
    pub round: Option<u32>,
    /// Players absent from the round (CG-6).
    pub absent: Vec<PlayerIdx>,
    /// Requested byes for the round (CG-11): half-, zero- or full-point.
    pub requested_byes: Vec<(PlayerIdx, ByeKind)>,
    /// Seed of every lot (CG-8); overrides the tournament's.
    pub seed: Option<u64>,
    pub detail: Detail,
    /// Overrides the tournament's system.
    pub system: Option<SystemId>,
}

/// One board of a pairing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub white: PlayerIdx,
    pub black: PlayerIdx,
}

/// A player without an opponent this round, and what he scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByeAssignment {
    pub player: PlayerIdx,
    pub kind: ByeKind,
    pub points: Score,
}

impl ByeAssignment {
    /// The pairing-allocated bye, worth what the tournament's scoring gives it: every
    /// system that leaves one player unpaired answers it the same way.
    pub fn pab(player: PlayerIdx, scoring: &Scoring) -> ByeAssignment {
        ByeAssignment {
            player,
            kind: ByeKind::Pab,
            points: ByeKind::Pab.points(scoring),
        }
    }
}

/// A system's answer for one round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoundPairing {
    pub round: u32,
    /// In board order.
    pub boards: Vec<Board>,
    pub byes: Vec<ByeAssignment>,
    pub explanation: Explanation,
    pub warnings: Vec<Warning>,
    /// The system has no colours (backgammon): `Board::white` is only the first-drawn
    /// player and `black` the second.
    pub colourless: bool,
    /// The event's number of rounds when the system decided it (BG-1); `None` = the
    /// snapshot's.
    pub total_rounds: Option<u32>,
    /// Points per match (backgammon), carried through from the options.
    pub match_length: Option<u32>,
    /// A team system's team pairings (C.04.6); `boards` then holds their board games.
    pub teams: Option<team_swiss::TeamRoundPairing>,
}

/// Why a round could not be paired.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairError {
    /// The snapshot or the request is wrong; every problem is listed.
    #[error("invalid input: {0}")]
    Invalid(Problems),
    /// The system has no legal pairing (CG-7): the rule that could not be met.
    #[error("no legal pairing ({rule}): {message}")]
    NoLegalPairing {
        rule: String,
        message: String,
        explanation: Explanation,
    },
    /// The system is known by name but not implemented by this build.
    #[error("pairing system {0} is not implemented; implemented: {1}")]
    NotImplemented(SystemId, String),
    /// No system was named.
    #[error("no pairing system given; implemented: {0}")]
    NoSystem(String),
    /// A fault of the engine itself, not of the input (gRPC `INTERNAL`, CLI exit 2): a
    /// state the engine's own invariants rule out. Reported, never passed off as "no legal
    /// pairing".
    #[error("internal error in the pairing engine: {0}")]
    Internal(String),
}

/// Which colour rules a system holds absolute: a pairing that breaks them is illegal, not
/// merely worse (used by manual pairing, MP-1, and the property tests alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourLimits {
    /// No colour rule is absolute: no colours (backgammon) or a fixed schedule (round robin).
    None,
    /// Only "no three of the same colour in a row" (VZ-4.3).
    ThreeInARow,
    /// No three of a kind in a row and no colour difference beyond ±2, except in the last
    /// round (C.04.1 art. 6-7, AM-3.1, SS-6).
    ThreeInARowAndDifferenceTwo,
}

/// A system's absolute rules, with the rule ids a violation cites.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AbsoluteRules {
    pub colours: ColourLimits,
    /// The rule id of the colour limits.
    pub colour_rule: &'static str,
    /// The rule id of "no two players meet twice".
    pub rematch_rule: &'static str,
    /// Whether the system has colours at all (backgammon has none: the first-drawn player is
    /// only written first).
    pub colourless: bool,
    /// Colours are not the pairing's choice (a round robin's table fixes them): a manual
    /// pairing keeps them as proposed.
    pub fixed_colours: bool,
    /// The rule that forbids a second bye (or a bye after a win without playing), if the
    /// system has one: `C.04.1 art. 4`, `VZ-2.3`, `BH-8`. `None` where the bye may come back
    /// (Amalfi's AM-2.2 only asks for the most games played; JavaPairing's engines fall
    /// back to the last player; a round robin's table decides).
    pub second_bye_rule: Option<&'static str>,
    /// The colour limits hold in the last round too (Dubov's [C3] has no last-round
    /// exception, C.04.4.1 [C3]); FIDE's Basic Rules lift them there (C.04.1 art. 7).
    pub colour_limits_in_last_round: bool,
}

impl AbsoluteRules {
    /// FIDE C.04.1's: no rematch (art. 2), colour limits outside the last round (art. 6-7).
    pub const FIDE: AbsoluteRules = AbsoluteRules {
        colours: ColourLimits::ThreeInARowAndDifferenceTwo,
        colour_rule: "C.04.1 art. 6-7",
        rematch_rule: "C.04.1 art. 2",
        colourless: false,
        fixed_colours: false,
        second_bye_rule: Some("C.04.1 art. 4"),
        colour_limits_in_last_round: false,
    };
}

/// How the simulator plays a system's games: which results a game may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResultsPolicy {
    /// A game may be drawn (backgammon has no draws, BG-2).
    pub draws: bool,
    /// A player may ask for a half-point bye (backgammon has none, BG-2).
    pub half_point_byes: bool,
}

impl ResultsPolicy {
    /// Chess: wins, draws and losses; half-point byes on request.
    pub const CHESS: ResultsPolicy = ResultsPolicy {
        draws: true,
        half_point_byes: true,
    };
}

/// A setting a system reads, for `ListSystems`.
#[derive(Clone, Debug)]
pub struct OptionInfo {
    pub name: &'static str,
    pub kind: &'static str,
    pub default_value: &'static str,
    pub description: &'static str,
    /// Whether a value is one the system reads (the pipeline refuses it otherwise, naming
    /// the option); the system's typed reader uses the same parser (`systems::options`).
    pub parse: fn(&str) -> Result<(), String>,
}

/// What `ListSystems` says of a system.
#[derive(Clone, Debug)]
pub struct SystemInfo {
    pub id: SystemId,
    pub title: &'static str,
    pub rule_set: &'static str,
    pub options: Vec<OptionInfo>,
}

/// A pairing system.
pub trait PairingSystem: Sync {
    fn info(&self) -> SystemInfo;
    /// Pairs the prepared round. Byes already decided (requested, absent) are in
    /// `round.preset_byes` and must not be paired; the answer need not repeat them.
    fn pair(&self, round: &RoundToPair) -> Result<RoundPairing, PairError>;
    /// The rules followed with these options (an edition chosen by option, e.g. the
    /// Dutch `edition=2017`); `info().rule_set` by default.
    fn rule_set_for(&self, _options: &crate::model::SystemOptions) -> &'static str {
        self.info().rule_set
    }
    /// The scoring the system pairs with, given the snapshot's (backgammon counts wins,
    /// BG-2); a note for the answer's warnings when the snapshot's is not used.
    fn effective_scoring(&self, given: &Scoring, _warnings: &mut Vec<String>) -> Scoring {
        *given
    }
    /// The default number of rounds by number of entries, `(fewest, most, rounds)`, for
    /// systems that choose it (BG-1); empty otherwise.
    fn default_rounds_table(&self) -> Vec<(u32, u32, u32)> {
        Vec::new()
    }
    /// The rules no pairing of this system may break (manual pairing, property tests).
    fn absolute_rules(&self) -> AbsoluteRules {
        AbsoluteRules::FIDE
    }
    /// Which results the simulator may give this system's games.
    fn results_policy(&self) -> ResultsPolicy {
        ResultsPolicy::CHESS
    }
    /// Whether the checker reads a file as the system's reference checker does, inferring
    /// what it leaves unstated (the initial colour from round 1, the rounds in the file as
    /// the total: `check::infer`). The FIDE Swiss systems with a reference engine say yes.
    fn checks_as_the_reference(&self) -> bool {
        false
    }
    /// Games per pairing: 1, or 2 for the Double-Swiss (C.04.5), whose model rounds are
    /// games and whose round 2k-1 pairs match k (the checker re-pairs only those rounds,
    /// the simulator repeats game 1's byes in game 2).
    fn games_per_match(&self) -> u32 {
        1
    }
    /// The round's check-list (bbpPairings' `-l`), for the systems that have one: the
    /// facts the system pairs this round with, per player in its pairing order.
    fn checklist(&self, _round: &RoundToPair) -> Option<Checklist> {
        None
    }
}

/// The systems this build implements.
pub fn implemented() -> Vec<&'static dyn PairingSystem> {
    vec![
        &round_robin::RoundRobin,
        &amalfi::Amalfi,
        &vincze::Vincze,
        &buchholz::Buchholz,
        &simple::Simple,
        &colour_alternation::ColourAlternation,
        &backgammon::Backgammon,
        &dutch::Dutch,
        &lim::Lim,
        &dubov::Dubov,
        &double_swiss::DoubleSwiss,
        &team_swiss::TeamSwiss,
        &burstein::Burstein,
    ]
}

/// The implementation of a system, if this build has it.
pub fn find(id: SystemId) -> Option<&'static dyn PairingSystem> {
    implemented().into_iter().find(|s| s.info().id == id)
}

/// Names of the implemented systems, for error messages.
pub fn implemented_names() -> String {
    implemented()
        .iter()
        .map(|s| s.info().id.name())
        .collect::<Vec<_>>()
        .join(", ")
}
