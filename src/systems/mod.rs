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
pub mod comparison;
pub mod double_swiss;
pub mod dubov;
pub mod dutch;
pub mod explanation;
pub mod keizer;
pub mod knockout;
pub mod lim;
pub mod manual;
pub mod monrad;
pub mod options;
pub mod round_robin;
pub mod scheveningen;
pub mod simple;
pub mod team_swiss;
pub mod vincze;

/// An answer's warning: a model type (the TRF reader gives them too), named here as well
/// because every system's answer carries them.
pub use crate::model::Warning;
use crate::model::validate::Problems;
use crate::model::{ByeKind, PlayerIdx, Score, Scoring, SystemId, SystemOptions, Tournament};
/// A system's own ranking, ranked before points in its standings (Keizer's score, KZ-6).
pub use crate::standings::OwnColumn as OwnRanking;
pub use crate::trf::EventDates;
pub use checklist::Checklist;
pub use common::History;
pub use common::RoundToPair;
pub use common::acceleration::AccelerationMethod;
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

/// Another reading of a system's rules a report may have been paired by (the Dutch
/// system's other edition, Burstein's other profile): the option that selects it, and how
/// the reading in force and this one are named (AU-2, `docs/audit.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OtherReading {
    /// The reading the options give, e.g. "the 2026 edition".
    pub current: &'static str,
    /// This reading, e.g. "the 2017 edition".
    pub other: &'static str,
    /// The option and value that select it (`edition`, `2017`).
    pub option: &'static str,
    pub value: &'static str,
    /// The rules both readings are of (`C.04.3`), the rule id of the audit's finding.
    pub rule_id: &'static str,
}

/// What `ListSystems` says of a system.
#[derive(Clone, Debug)]
pub struct SystemInfo {
    pub id: SystemId,
    pub title: &'static str,
    pub rule_set: &'static str,
    pub options: Vec<OptionInfo>,
}

/// A pairing system as its folder writes it: its options, decoded once into its own type,
/// and every rule that can depend on them. The pipeline holds systems as
/// [`PairingSystem`] objects (implemented for every `System` below) and pairs through a
/// [`Configured`] system: the system with its decoded options.
pub trait System: Sync + Send + 'static {
    /// The system's typed options ([`System::options`]).
    type Options: Clone + std::fmt::Debug + Send + Sync + 'static;

    fn info(&self) -> SystemInfo;
    /// Decodes the request's options (text by name) into the typed options, once, when the
    /// pipeline resolves the request. The pipeline has already refused an option the system
    /// does not declare and a value its declared parser refuses (naming the field), so a
    /// value this cannot read only reaches it outside the pipeline: the default is kept.
    fn options(&self, given: &SystemOptions) -> Self::Options;
    /// Pairs the prepared round. Byes already decided (requested, absent) are in
    /// `round.preset_byes` and must not be paired; the answer need not repeat them.
    fn pair(&self, round: &RoundToPair, options: &Self::Options)
    -> Result<RoundPairing, PairError>;
    /// The rules followed with these options (an edition chosen by option, e.g. the Dutch
    /// `edition=2017`); `info().rule_set` by default.
    fn rule_set(&self, _options: &Self::Options) -> &'static str {
        self.info().rule_set
    }
    /// Which acceleration the options ask for (C.04.7); applied to the round by the
    /// pipeline ([`RoundToPair::accelerate`]). None by default.
    fn acceleration(&self, _options: &Self::Options) -> AccelerationMethod {
        AccelerationMethod::None
    }
    /// The rules no pairing of this system may break (manual pairing, property tests).
    fn absolute_rules(&self, _options: &Self::Options) -> AbsoluteRules {
        AbsoluteRules::FIDE
    }
    /// Whether player `p` may not get the pairing-allocated bye (the rule against a second
    /// bye, `absolute_rules().second_bye_rule`): C.04.1 art. 4's reading by default, a PAB
    /// or a win without playing.
    fn pab_barred(
        &self,
        _options: &Self::Options,
        round: &RoundToPair,
        history: &History,
        p: PlayerIdx,
    ) -> bool {
        !history.pab_eligible(p, round.tournament.scoring.win)
    }
    /// The system's article giving the pairing-allocated bye to the lowest score (the
    /// Dutch 2026 C5, Burstein, Dubov art. 3.1, Lim, the Double-Swiss 3.4.2), if it has
    /// one: a manual pairing's bye above the lowest score is then warned (MP-2, VCL4THP
    /// Q66). None by default.
    fn lowest_score_bye_rule(&self, _options: &Self::Options) -> Option<&'static str> {
        None
    }
    /// A rule beyond the second-bye rule that a manual pairing's bye to `p` breaks, with
    /// its message (Amalfi's AM-2.2); none by default.
    fn bye_refusal(
        &self,
        _options: &Self::Options,
        _round: &RoundToPair,
        _history: &History,
        _p: PlayerIdx,
    ) -> Option<(&'static str, String)> {
        None
    }
    /// How often two players may meet in this event: once, by default.
    fn meetings_allowed(&self, _t: &Tournament) -> usize {
        1
    }
    /// Whether `a` and `b`, who have met, may not meet again this round, for a system
    /// whose rule is not a count of meetings (Keizer's re-meeting window, KZ-4.2); `None`
    /// (the default) leaves it to [`System::meetings_allowed`].
    fn rematch_barred(
        &self,
        _options: &Self::Options,
        _round: &RoundToPair,
        _history: &History,
        _a: PlayerIdx,
        _b: PlayerIdx,
    ) -> Option<bool> {
        None
    }
    /// The system's own ranking after `rounds` rounds, which its standings rank by before
    /// points (Keizer's score, KZ-6); `None` (the default): points and tie-breaks only.
    fn own_ranking(
        &self,
        _options: &Self::Options,
        _t: &Tournament,
        _rounds: u32,
    ) -> Option<OwnRanking> {
        None
    }
    /// A manual pairing checked by the system's own rules instead of MP-1's player-level
    /// ones (the Swiss Team system checks a team event team by team); `None` by default.
    fn validate_manual(
        &self,
        _options: &Self::Options,
        _t: &Tournament,
        _proposal: &manual::Proposal,
        _request: &PairOptions,
    ) -> Option<Result<manual::ManualReport, PairError>> {
        None
    }
    /// Whether the system pairs a team event itself (the Swiss Team system); any other
    /// system pairs a team event with the teams as its units (the pipeline's `teams.rs`).
    fn pairs_team_events(&self) -> bool {
        false
    }
    /// The rule by which a table or a bracket fixes every pair of a round (a round robin's
    /// Berger table, a knockout's bracket, a Scheveningen's rotation): a manual pairing
    /// that pairs two players the table does not is a violation of it. `None` (the
    /// default) for a system that chooses its pairs.
    fn fixed_pairs_rule(&self) -> Option<&'static str> {
        None
    }
    /// Whether the system pairs with separations (SEP-4): the pipeline turns an absolute
    /// separation into forbidden groups (CG-10), which every system that pairs by choice
    /// honours. A system whose pairings are fixed by a table (round robin) says no, and a
    /// request with a separation is refused.
    fn separations_apply(&self) -> bool {
        true
    }
    /// The places at which the system weighs WEAK separations (SEP-5): its order of
    /// criteria holds the criterion "fewest pairs within a separated group" at each place
    /// listed (its rules page says where). A weak separation at another place is refused,
    /// naming the field.
    fn weak_separation_places(&self) -> &'static [crate::model::WeakPlace] {
        &[]
    }
    /// The record 192 code (TRF-26) the system writes for a tournament with these options.
    fn trf_code(&self, _options: &Self::Options, _t: &Tournament) -> String;
    /// Whether a record 192 code (upper case, trimmed) names this system.
    fn reads_trf_code(&self, code: &str) -> bool;
    /// What the system reads from its record 192 code and the event's dates: its options
    /// (set into `t.options`, or the settings the code spells); notes for the answer's
    /// warnings where it assumed something. By default a `_BAKU` suffix sets
    /// `acceleration=BAKU` for a system that declares the option.
    fn read_trf_code(&self, code: &str, _dates: &EventDates, t: &mut Tournament) -> Vec<String> {
        if code.ends_with("_BAKU") && self.info().options.iter().any(|o| o.name == "acceleration") {
            // A declared name: `set` cannot fail.
            let _ = t.options.set("acceleration", "BAKU");
        }
        Vec::new()
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
    /// Which results the simulator may give this system's games.
    fn results_policy(&self) -> ResultsPolicy {
        ResultsPolicy::CHESS
    }
    /// Which results the simulator may give this system's games with these options (a
    /// club format played as backgammon has no draws); [`System::results_policy`] by
    /// default.
    fn results_policy_with(&self, _options: &Self::Options) -> ResultsPolicy {
        self.results_policy()
    }
    /// Whether the checker reads a file as the system's reference checker does, inferring
    /// what it leaves unstated (the initial colour from round 1, the rounds in the file as
    /// the total: `check::infer`). The FIDE Swiss systems (Dutch, Burstein, Dubov, Lim) say yes.
    fn checks_as_the_reference(&self) -> bool {
        false
    }
    /// The other readings of the rules a round that differs under `options` may follow
    /// (the Dutch system's other edition, Burstein's other profile); the checker re-pairs
    /// such a round under each when asked (`CheckOptions::other_readings`, AU-2). None by
    /// default.
    fn other_readings(&self, _options: &Self::Options) -> Vec<OtherReading> {
        Vec::new()
    }
    /// Games per pairing: 1, or 2 for the Double-Swiss (C.04.5), whose model rounds are
    /// games and whose round 2k-1 pairs match k (the checker re-pairs only those rounds,
    /// the simulator repeats game 1's byes in game 2).
    fn games_per_match(&self) -> u32 {
        1
    }
    /// The round's check-list (bbpPairings' `-l`), for the systems that have one: the
    /// facts the system pairs this round with, per player in its pairing order.
    fn checklist(&self, _round: &RoundToPair, _options: &Self::Options) -> Option<Checklist> {
        None
    }
    /// Compares two pairings of the round by the system's own order of criteria, for "why
    /// not?" (`check::why`): the first criterion on which they differ, with its rule id;
    /// `None` for a system whose comparison is not written (the caller then reads the
    /// explanations).
    fn compare(
        &self,
        _options: &Self::Options,
        _round: &RoundToPair,
        _first: &RoundPairing,
        _second: &RoundPairing,
    ) -> Option<comparison::Comparison> {
        None
    }
    /// Whether the system gives the PAB before pairing the others (Burstein's profile BBP,
    /// 3.1 as bbpPairings reads it), and how, for "why not?"; `None` by default.
    fn pab_first(&self, _options: &Self::Options) -> Option<comparison::PabFirst> {
        None
    }
    /// Under [`System::pab_first`]: the bye for `x` where the system gave it to `given`.
    fn pab_first_bye(
        &self,
        _options: &Self::Options,
        _round: &RoundToPair,
        _history: &History,
        _given: PlayerIdx,
        _x: PlayerIdx,
    ) -> comparison::PabFirstBye {
        comparison::PabFirstBye::NotEligible
    }
}

/// A pairing system in the registry, whatever its options' type: what the pipeline
/// resolves a request to. Implemented for every [`System`].
pub trait PairingSystem: Sync {
    fn info(&self) -> SystemInfo;
    /// The system with the request's options decoded ([`System::options`]).
    fn configure(&'static self, options: &SystemOptions) -> Configured;
    fn reads_trf_code(&self, code: &str) -> bool;
    fn read_trf_code(&self, code: &str, dates: &EventDates, t: &mut Tournament) -> Vec<String>;
    fn effective_scoring(&self, given: &Scoring, warnings: &mut Vec<String>) -> Scoring;
    fn default_rounds_table(&self) -> Vec<(u32, u32, u32)>;
    fn results_policy(&self) -> ResultsPolicy;
    fn checks_as_the_reference(&self) -> bool;
    /// [`System::other_readings`] of the options given by name.
    fn other_readings(&self, options: &SystemOptions) -> Vec<OtherReading>;
    fn games_per_match(&self) -> u32;
    fn pairs_team_events(&self) -> bool;
    fn separations_apply(&self) -> bool;
    fn fixed_pairs_rule(&self) -> Option<&'static str>;
    fn weak_separation_places(&self) -> &'static [crate::model::WeakPlace];
    fn meetings_allowed(&self, t: &Tournament) -> usize;
}

impl<S: System> PairingSystem for S {
    fn info(&self) -> SystemInfo {
        System::info(self)
    }
    fn configure(&'static self, options: &SystemOptions) -> Configured {
        Configured(std::sync::Arc::new(WithOptions {
            system: self,
            options: self.options(options),
        }))
    }
    fn reads_trf_code(&self, code: &str) -> bool {
        System::reads_trf_code(self, code)
    }
    fn read_trf_code(&self, code: &str, dates: &EventDates, t: &mut Tournament) -> Vec<String> {
        System::read_trf_code(self, code, dates, t)
    }
    fn effective_scoring(&self, given: &Scoring, warnings: &mut Vec<String>) -> Scoring {
        System::effective_scoring(self, given, warnings)
    }
    fn default_rounds_table(&self) -> Vec<(u32, u32, u32)> {
        System::default_rounds_table(self)
    }
    fn results_policy(&self) -> ResultsPolicy {
        System::results_policy(self)
    }
    fn checks_as_the_reference(&self) -> bool {
        System::checks_as_the_reference(self)
    }
    fn other_readings(&self, options: &SystemOptions) -> Vec<OtherReading> {
        System::other_readings(self, &self.options(options))
    }
    fn games_per_match(&self) -> u32 {
        System::games_per_match(self)
    }
    fn pairs_team_events(&self) -> bool {
        System::pairs_team_events(self)
    }
    fn separations_apply(&self) -> bool {
        System::separations_apply(self)
    }
    fn fixed_pairs_rule(&self) -> Option<&'static str> {
        System::fixed_pairs_rule(self)
    }
    fn weak_separation_places(&self) -> &'static [crate::model::WeakPlace] {
        System::weak_separation_places(self)
    }
    fn meetings_allowed(&self, t: &Tournament) -> usize {
        System::meetings_allowed(self, t)
    }
}

/// A system with its options decoded: every rule that can depend on the options, asked
/// without knowing their type. Cheap to clone.
#[derive(Clone)]
pub struct Configured(std::sync::Arc<dyn ConfiguredSystem>);

impl std::ops::Deref for Configured {
    type Target = dyn ConfiguredSystem;
    fn deref(&self) -> &Self::Target {
        &*self.0
    }
}

impl std::fmt::Debug for Configured {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Configured").field(&self.0.id()).finish()
    }
}

/// The option-dependent rules of [`System`], for a system with its options.
pub trait ConfiguredSystem: Send + Sync {
    fn id(&self) -> SystemId;
    fn system(&self) -> &'static dyn PairingSystem;
    fn pair(&self, round: &RoundToPair) -> Result<RoundPairing, PairError>;
    fn rule_set(&self) -> &'static str;
    fn acceleration(&self) -> AccelerationMethod;
    fn absolute_rules(&self) -> AbsoluteRules;
    fn pab_barred(&self, round: &RoundToPair, history: &History, p: PlayerIdx) -> bool;
    fn rematch_barred(
        &self,
        round: &RoundToPair,
        history: &History,
        a: PlayerIdx,
        b: PlayerIdx,
    ) -> Option<bool>;
    fn own_ranking(&self, t: &Tournament, rounds: u32) -> Option<OwnRanking>;
    fn lowest_score_bye_rule(&self) -> Option<&'static str>;
    fn bye_refusal(
        &self,
        round: &RoundToPair,
        history: &History,
        p: PlayerIdx,
    ) -> Option<(&'static str, String)>;
    fn validate_manual(
        &self,
        t: &Tournament,
        proposal: &manual::Proposal,
        request: &PairOptions,
    ) -> Option<Result<manual::ManualReport, PairError>>;
    fn trf_code(&self, t: &Tournament) -> String;
    fn checklist(&self, round: &RoundToPair) -> Option<Checklist>;
    fn compare(
        &self,
        round: &RoundToPair,
        first: &RoundPairing,
        second: &RoundPairing,
    ) -> Option<comparison::Comparison>;
    fn pab_first(&self) -> Option<comparison::PabFirst>;
    fn results_policy(&self) -> ResultsPolicy;
    fn pab_first_bye(
        &self,
        round: &RoundToPair,
        history: &History,
        given: PlayerIdx,
        x: PlayerIdx,
    ) -> comparison::PabFirstBye;
}

struct WithOptions<S: System> {
    system: &'static S,
    options: S::Options,
}

impl<S: System> ConfiguredSystem for WithOptions<S> {
    fn id(&self) -> SystemId {
        self.system.info().id
    }
    fn system(&self) -> &'static dyn PairingSystem {
        self.system
    }
    fn pair(&self, round: &RoundToPair) -> Result<RoundPairing, PairError> {
        self.system.pair(round, &self.options)
    }
    fn rule_set(&self) -> &'static str {
        self.system.rule_set(&self.options)
    }
    fn acceleration(&self) -> AccelerationMethod {
        self.system.acceleration(&self.options)
    }
    fn absolute_rules(&self) -> AbsoluteRules {
        self.system.absolute_rules(&self.options)
    }
    fn pab_barred(&self, round: &RoundToPair, history: &History, p: PlayerIdx) -> bool {
        self.system.pab_barred(&self.options, round, history, p)
    }
    fn rematch_barred(
        &self,
        round: &RoundToPair,
        history: &History,
        a: PlayerIdx,
        b: PlayerIdx,
    ) -> Option<bool> {
        self.system
            .rematch_barred(&self.options, round, history, a, b)
    }
    fn own_ranking(&self, t: &Tournament, rounds: u32) -> Option<OwnRanking> {
        self.system.own_ranking(&self.options, t, rounds)
    }
    fn lowest_score_bye_rule(&self) -> Option<&'static str> {
        self.system.lowest_score_bye_rule(&self.options)
    }
    fn bye_refusal(
        &self,
        round: &RoundToPair,
        history: &History,
        p: PlayerIdx,
    ) -> Option<(&'static str, String)> {
        self.system.bye_refusal(&self.options, round, history, p)
    }
    fn validate_manual(
        &self,
        t: &Tournament,
        proposal: &manual::Proposal,
        request: &PairOptions,
    ) -> Option<Result<manual::ManualReport, PairError>> {
        self.system
            .validate_manual(&self.options, t, proposal, request)
    }
    fn trf_code(&self, t: &Tournament) -> String {
        self.system.trf_code(&self.options, t)
    }
    fn checklist(&self, round: &RoundToPair) -> Option<Checklist> {
        self.system.checklist(round, &self.options)
    }
    fn compare(
        &self,
        round: &RoundToPair,
        first: &RoundPairing,
        second: &RoundPairing,
    ) -> Option<comparison::Comparison> {
        self.system.compare(&self.options, round, first, second)
    }
    fn pab_first(&self) -> Option<comparison::PabFirst> {
        self.system.pab_first(&self.options)
    }
    fn results_policy(&self) -> ResultsPolicy {
        self.system.results_policy_with(&self.options)
    }
    fn pab_first_bye(
        &self,
        round: &RoundToPair,
        history: &History,
        given: PlayerIdx,
        x: PlayerIdx,
    ) -> comparison::PabFirstBye {
        self.system
            .pab_first_bye(&self.options, round, history, given, x)
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
        &keizer::Keizer,
        &monrad::Monrad,
        &knockout::Knockout,
        &scheveningen::Scheveningen,
    ]
}

/// The implementation of a system, if this build has it.
pub fn find(id: SystemId) -> Option<&'static dyn PairingSystem> {
    // Every request resolves its system: the ids are read once, not by building each
    // system's description (its options' list) on every call.
    static BY_ID: std::sync::OnceLock<Vec<(SystemId, &'static dyn PairingSystem)>> =
        std::sync::OnceLock::new();
    BY_ID
        .get_or_init(|| {
            implemented()
                .into_iter()
                .map(|s| (s.info().id, s))
                .collect()
        })
        .iter()
        .find(|(known, _)| *known == id)
        .map(|&(_, s)| s)
}

/// Names of the implemented systems, for error messages.
pub fn implemented_names() -> String {
    implemented()
        .iter()
        .map(|s| s.info().id.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The systems' registry as the TRF layer asks it about record 192 (`trf::SystemCodes`):
/// each system says which codes name it, reads its own code with the event's dates, and
/// writes its code with its options.
pub struct Registry;

impl crate::trf::SystemCodes for Registry {
    fn system_of(&self, code: &str) -> Option<SystemId> {
        let code = code.trim().to_ascii_uppercase();
        implemented()
            .into_iter()
            .find(|s| s.reads_trf_code(&code))
            .map(|s| s.info().id)
    }

    fn read(
        &self,
        system: SystemId,
        code: &str,
        dates: &EventDates,
        t: &mut Tournament,
    ) -> Vec<String> {
        let code = code.trim().to_ascii_uppercase();
        find(system).map_or_else(Vec::new, |s| s.read_trf_code(&code, dates, t))
    }

    fn write(&self, t: &Tournament) -> Option<String> {
        let system = find(t.system?)?;
        Some(system.configure(&t.options).trf_code(t))
    }
}

/// `code` without the Baku suffix (`_BAKU`, C.04.7), which any FIDE Swiss system's code
/// may carry.
pub fn without_baku(code: &str) -> &str {
    code.strip_suffix("_BAKU").unwrap_or(code)
}

/// `code` with the Baku suffix when the system's acceleration is Baku's (AUTO decides per
/// round and writes none).
pub fn with_baku(code: &str, acceleration: AccelerationMethod) -> String {
    if acceleration == AccelerationMethod::Baku {
        format!("{code}_BAKU")
    } else {
        code.to_string()
    }
}
