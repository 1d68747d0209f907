//! Manual pairing (systems.md §9, MP-1): an arbiter's proposed pairing, full or partial, is
//! checked against the absolute rules of the chosen system, its colours are allocated by
//! MP-1, and on request the players it leaves out are paired by the system.
//!
//! Like the checker, it stands on the single-round pipeline: the system is resolved there
//! ([`pairing::resolve`]). [`run`] is what the handlers and the CLI call.
use std::collections::{HashMap, HashSet};

use crate::model::{ByeKind, Colour, PlayerIdx, SystemId, Tournament};
use crate::pairing::{self, Resolved};
use crate::systems::common::{History, PlayerHistory};
pub use crate::systems::manual::{EngineComparison, ManualReport, Proposal, Violation, level};
use crate::systems::{
    AbsoluteRules, Board, ByeAssignment, ColourLimits, PairError, PairOptions, RoundToPair,
};

/// A manual pairing checked (MP-1).
#[derive(Clone, Debug)]
pub struct ValidateAnswer {
    pub tournament: Tournament,
    pub system: SystemId,
    pub rule_set: &'static str,
    pub report: ManualReport,
}

/// Checks a proposed pairing against the system's absolute rules and allocates its
/// colours; `proposal` names players by index in `t`. With the numbered snapshot, the
/// system and its rule set (what `ValidatePairing` and `swisspair validate` answer).
pub fn run(
    t: &Tournament,
    proposal: &Proposal,
    options: &PairOptions,
) -> Result<ValidateAnswer, PairError> {
    let resolved = pairing::resolve(options.system, t)?;
    let report = validate_with(t, &resolved, proposal, options)?;
    Ok(ValidateAnswer {
        tournament: pairing::numbered(t, options.seed),
        system: resolved.id,
        rule_set: resolved.rule_set,
        report,
    })
}

/// Checks a proposal for the round `options` describes, with `system`: [`run`]'s report.
pub fn validate(
    t: &Tournament,
    system: SystemId,
    proposal: &Proposal,
    options: &PairOptions,
) -> Result<ManualReport, PairError> {
    let options = PairOptions {
        system: Some(system),
        ..options.clone()
    };
    run(t, proposal, &options).map(|answer| answer.report)
}

/// [`validate`] for a resolved system; the system's own [`AbsoluteRules`] decide what is
/// a violation.
///
/// The passes, in order: the proposed boards ([`ProposalCheck::proposed_boards`]), the
/// proposed byes ([`ProposalCheck::proposed_byes`]), the completion of the rest by the
/// system ([`ProposalCheck::completion`]), the count of pairing-allocated byes
/// ([`ProposalCheck::pab_parity`]), then on request the comparison with the engine
/// ([`compare_with_engine`]).
fn validate_with(
    t: &Tournament,
    resolved: &Resolved,
    proposal: &Proposal,
    options: &PairOptions,
) -> Result<ManualReport, PairError> {
    let system = resolved.id;
    let absolute = resolved.configured.absolute_rules();
    let options = PairOptions {
        system: Some(system),
        ..options.clone()
    };
    // A system may check a proposal by rules of its own (the Swiss Team system checks a
    // team event team by team, C.04.6).
    if let Some(report) = resolved.configured.validate_manual(t, proposal, &options) {
        return report;
    }
    let round = pairing::prepare(resolved, t, &options)?;
    let mut check = ProposalCheck::new(resolved, &round, absolute);
    // A table or bracket fixes every pair (`System::fixed_pairs_rule`): the system's own
    // pairs of the round, which a proposed board must be one of. A round the system cannot
    // pair is reported by the completion pass.
    if let Some(rule) = resolved.system.fixed_pairs_rule()
        && let Ok(fixed) = resolved.configured.pair(&round)
    {
        check.fixed = Some((
            rule,
            fixed
                .boards
                .iter()
                .map(|b| (b.white.min(b.black), b.white.max(b.black)))
                .collect(),
        ));
    }
    let boards = check.proposed_boards(proposal);
    check.proposed_byes(proposal);
    check.report.boards = boards;
    check.completion(proposal)?;
    check
        .report
        .byes
        .splice(0..0, round.preset_byes.iter().copied());
    check.pab_parity();
    let mut report = check.report;
    if proposal.compare_with_engine {
        report.engine = Some(compare_with_engine(
            resolved,
            &round,
            proposal,
            &report.boards,
        )?);
    }
    report.explanation = std::mem::take(&mut report.explanation).filtered(options.detail);
    Ok(report)
}

/// A proposal being checked against the round the system prepared: its history, who has
/// been placed so far, and the report.
struct ProposalCheck<'a> {
    resolved: &'a Resolved,
    round: &'a RoundToPair,
    history: History,
    /// The groups the absolute separations keep apart (SEP-1): `pairing::prepare` made them
    /// forbidden groups of the round; a pair inside one cites SEP-1, not CG-10.
    separated: Vec<crate::model::SeparatedGroup>,
    absolute: AbsoluteRules,
    /// The colour limits are lifted: the last round, unless the system keeps them there.
    last_round: bool,
    /// Who may be paired this round.
    to_pair: HashSet<PlayerIdx>,
    /// How many times the proposal placed each player.
    seen: HashMap<PlayerIdx, usize>,
    /// The pairs a table or bracket fixes for the round, with its rule (`None` for a
    /// system that chooses its pairs).
    fixed: Option<(&'static str, HashSet<(PlayerIdx, PlayerIdx)>)>,
    report: ManualReport,
}

impl<'a> ProposalCheck<'a> {
    fn new(
        resolved: &'a Resolved,
        round: &'a RoundToPair,
        absolute: AbsoluteRules,
    ) -> ProposalCheck<'a> {
        let tour = &round.tournament;
        // The colour limits are lifted in the last round unless the system keeps them there.
        let last_round = tour.total_rounds > 0
            && round.number == tour.total_rounds
            && !absolute.colour_limits_in_last_round;
        ProposalCheck {
            resolved,
            round,
            history: History::build(round),
            separated: tour.separated_groups(round.number),
            absolute,
            last_round,
            to_pair: round.participants.iter().copied().collect(),
            seen: HashMap::new(),
            fixed: None,
            report: ManualReport {
                round: round.number,
                colourless: absolute.colourless,
                ..ManualReport::default()
            },
        }
    }

    fn id(&self, p: PlayerIdx) -> String {
        self.round.id(p).to_string()
    }

    /// Reports a broken rule, at the rule's level.
    fn violation(&mut self, rule: &str, message: String, players: Vec<PlayerIdx>) {
        self.report.violations.push(Violation {
            rule_id: rule.to_string(),
            message,
            players,
            level: level::of(rule),
        });
    }

    /// Counts `p` as placed by the proposal: MP-1 when he is placed twice, CG-6 when he is
    /// not to be paired this round. Whether he may be paired where he is placed (to be
    /// paired, and placed for the first time).
    fn placed(&mut self, p: PlayerIdx) -> bool {
        let count = self.seen.entry(p).or_insert(0);
        *count += 1;
        let count = *count;
        if count == 2 {
            self.violation(
                "MP-1",
                format!("player {} is proposed twice", self.id(p)),
                vec![p],
            );
        }
        if !self.to_pair.contains(&p) {
            self.violation(
                "CG-6",
                format!(
                    "player {} is not to be paired in round {} (absent, withdrawn, not entered or with a requested bye)",
                    self.id(p),
                    self.round.number
                ),
                vec![p],
            );
            return false;
        }
        count == 1
    }

    /// The proposed boards, each checked ([`ProposalCheck::proposed_board`]) and given its
    /// colours by MP-1.
    fn proposed_boards(&mut self, proposal: &Proposal) -> Vec<Board> {
        self.report.explanation.group("proposed boards");
        let mut boards = Vec::new();
        for &(a, b) in &proposal.boards {
            if let Some(board) = self.proposed_board(a, b) {
                boards.push(board);
            }
        }
        boards
    }

    /// One proposed board: not a player against himself (MP-1), both players to be paired
    /// and placed once ([`ProposalCheck::placed`]), no rematch (the system's rule) nor
    /// forbidden pairing (CG-10); then MP-1's colours and the system's colour limits. `None`
    /// when the board is not paired.
    fn proposed_board(&mut self, a: PlayerIdx, b: PlayerIdx) -> Option<Board> {
        if a == b {
            self.violation(
                "MP-1",
                format!("player {} is proposed against himself", self.id(a)),
                vec![a],
            );
            return None;
        }
        let ok_a = self.placed(a);
        let ok_b = self.placed(b);
        if !(ok_a && ok_b) {
            return None;
        }
        let tour = &self.round.tournament;
        // The system's own re-meeting rule where it has one (Keizer's window, KZ-4.2),
        // else its count of meetings.
        let barred = self
            .resolved
            .configured
            .rematch_barred(self.round, &self.history, a, b)
            .unwrap_or_else(|| {
                meetings(&self.history, a, b) >= self.resolved.system.meetings_allowed(tour)
            });
        if barred {
            self.violation(
                self.absolute.rematch_rule,
                format!("{} and {} have already met", self.id(a), self.id(b)),
                vec![a, b],
            );
        } else if let Some(g) = self
            .separated
            .iter()
            .find(|g| g.players.contains(&a) && g.players.contains(&b))
        {
            let message = format!(
                "{} and {} are both in {} {:?}, kept apart by an absolute separation",
                self.id(a),
                self.id(b),
                tour.separations[g.separation].key.name(),
                g.name
            );
            self.violation("SEP-1", message, vec![a, b]);
        } else if let Some((rule, pairs)) = &self.fixed
            && !pairs.contains(&(a.min(b), a.max(b)))
        {
            let rule = *rule;
            let message = format!(
                "{} and {} do not meet in round {}: {rule} fixes this round's pairs",
                self.id(a),
                self.id(b),
                self.round.number
            );
            self.violation(rule, message, vec![a, b]);
        } else if self.history.is_forbidden(a, b) {
            self.violation(
                "CG-10",
                format!("{} and {} are a forbidden pairing", self.id(a), self.id(b)),
                vec![a, b],
            );
        }
        let board = allocate(
            self.round,
            &self.history,
            a,
            b,
            self.absolute,
            self.last_round,
            &mut self.report,
        );
        self.colour_limits(&board);
        Some(board)
    }

    /// The system's absolute colour limits on a board's colours (none in the last round
    /// unless the system keeps them there).
    fn colour_limits(&mut self, board: &Board) {
        let rules = self.absolute.colours;
        if rules == ColourLimits::None || self.last_round {
            return;
        }
        for (p, c) in [(board.white, Colour::White), (board.black, Colour::Black)] {
            let h = self.history.player(p);
            let breaks = match rules {
                ColourLimits::ThreeInARow => h.last_two_same() == Some(c),
                _ => h.colour_breaks_limits(c),
            };
            if breaks {
                self.violation(
                    self.absolute.colour_rule,
                    format!(
                        "{} would play {c} a third time in a row or beyond a colour difference of 2",
                        self.id(p)
                    ),
                    vec![p],
                );
            }
        }
    }

    /// The proposed byes, each checked ([`ProposalCheck::proposed_bye`]), and at most one
    /// of them (C.04.1 art. 3).
    fn proposed_byes(&mut self, proposal: &Proposal) {
        for &p in &proposal.byes {
            self.proposed_bye(p);
        }
        if proposal.byes.len() > 1 {
            self.violation(
                "C.04.1 art. 3",
                format!(
                    "{} byes proposed: a round has at most one",
                    proposal.byes.len()
                ),
                proposal.byes.clone(),
            );
        }
    }

    /// One proposed pairing-allocated bye: the player to be paired and placed once, the
    /// system's own rules on who gets it (AM-2.2) and against a second bye; then the bye is
    /// given (MP-1).
    fn proposed_bye(&mut self, p: PlayerIdx) {
        if !self.placed(p) {
            return;
        }
        let configured = &self.resolved.configured;
        // A rule of the system's own about who gets the bye (Amalfi's AM-2.2).
        if let Some((rule, message)) = configured.bye_refusal(self.round, &self.history, p) {
            self.violation(rule, message, vec![p]);
        }
        // The system's own rule against a second bye, if it has one, as the system reads
        // it (the Double-Swiss match by match, C.04.5 [C2]; the Dutch 2017 text's C.2).
        let barred = configured.pab_barred(self.round, &self.history, p);
        let second_bye_rule = self.absolute.second_bye_rule;
        if let Some(rule) = second_bye_rule
            && barred
        {
            self.violation(
                rule,
                format!("{} already had a bye or a win without playing", self.id(p)),
                vec![p],
            );
        }
        self.lowest_score_bye(p);
        self.report.explanation.step(
            "MP-1",
            format!("{} gets the pairing-allocated bye", self.id(p)),
            vec![p],
        );
        self.report.byes.push(ByeAssignment {
            player: p,
            kind: ByeKind::Pab,
            points: ByeKind::Pab.points(&self.round.tournament.scoring),
        });
    }

    /// MP-2: in FIDE's individual Swiss systems the pairing-allocated bye goes to the
    /// lowest score (the Dutch system's C5, C.04.3; Burstein's, Dubov's and Lim's lowest
    /// score group, C.04.4.2-3; the Double-Swiss's, C.04.5): a bye proposed to a player whose
    /// pairing score (with any virtual points of the round, C.04.7) is above that of another
    /// player to be paired who may have it is a serious warning (VCL4THP Q66). The
    /// comparison is with the lowest such player; the engine's own choice, which also weighs
    /// the completion of the rest, is `compare_with_engine`'s (Q68-69).
    fn lowest_score_bye(&mut self, p: PlayerIdx) {
        let configured = &self.resolved.configured;
        let Some(article) = configured.lowest_score_bye_rule() else {
            return;
        };
        let lowest = self
            .round
            .participants
            .iter()
            .copied()
            .filter(|&q| q != p)
            .filter(|&q| {
                !configured.pab_barred(self.round, &self.history, q)
                    && configured
                        .bye_refusal(self.round, &self.history, q)
                        .is_none()
            })
            .map(|q| (self.pairing_score(q), q))
            .min();
        let own = self.pairing_score(p);
        if let Some((score, q)) = lowest
            && score < own
        {
            // A quality criterion, not an absolute rule: a warning, not a violation.
            self.report.warnings.push(Violation {
                rule_id: "MP-2".to_string(),
                message: format!(
                    "{} gets the pairing-allocated bye with {own} points while {} may have it with {score}: the bye goes to the lowest score ({article})",
                    self.id(p),
                    self.id(q)
                ),
                players: vec![p, q],
                level: level::SERIOUS,
            });
        }
    }

    /// A player's score for pairing this round: points with adjourned games as draws, plus
    /// the virtual points of the round (C.04.7).
    fn pairing_score(&self, p: PlayerIdx) -> crate::model::Score {
        let number = self.round.number;
        let virtual_points: crate::model::Score = self
            .round
            .tournament
            .accelerations
            .iter()
            .filter(|a| a.player == p && a.first_round <= number && number <= a.last_round)
            .map(|a| a.points)
            .sum();
        self.history.player(p).pairing_points + virtual_points
    }

    /// The players the proposal leaves out: paired by the system when the proposal asks
    /// for it (a violation of the system's rule when they cannot be), else left unpaired
    /// (a step of MP-1 when more are left than the bye's place).
    fn completion(&mut self, proposal: &Proposal) -> Result<(), PairError> {
        let round = self.round;
        let mut left: Vec<PlayerIdx> = round
            .participants
            .iter()
            .copied()
            .filter(|p| !self.seen.contains_key(p))
            .collect();
        if proposal.complete && !left.is_empty() {
            let mut rest = round.clone();
            rest.participants = left.clone();
            match self.resolved.configured.pair(&rest) {
                Ok(completion) => {
                    let report = &mut self.report;
                    report.explanation.group("completion");
                    for g in completion.explanation.groups {
                        report.explanation.groups.push(g);
                    }
                    report.boards.extend(completion.boards);
                    report.byes.extend(completion.byes);
                    left.clear();
                }
                Err(PairError::NoLegalPairing { rule, message, .. }) => {
                    self.violation(
                        &rule,
                        format!("the rest cannot be completed: {message}"),
                        left.clone(),
                    );
                }
                Err(e) => return Err(e),
            }
        } else if left.len()
            > usize::from(proposal.byes.is_empty() && round.participants.len() % 2 == 1)
        {
            self.report.explanation.step(
                "MP-1",
                format!("{} players are left unpaired by the proposal", left.len()),
                left.clone(),
            );
        }
        self.report.unpaired = left;
        Ok(())
    }

    /// A complete pairing has a pairing-allocated bye exactly when the number of players to
    /// pair is odd (C.04.1 art. 3).
    fn pab_parity(&mut self) {
        let participants = self.round.participants.len();
        let pab_count = self
            .report
            .byes
            .iter()
            .filter(|b| b.kind == ByeKind::Pab)
            .count();
        if self.report.unpaired.is_empty() && pab_count != participants % 2 {
            let players = self
                .report
                .byes
                .iter()
                .filter(|b| b.kind == ByeKind::Pab)
                .map(|b| b.player)
                .collect();
            self.violation(
                "C.04.1 art. 3",
                format!(
                    "{participants} players are to be paired: a pairing-allocated bye is needed exactly when that number is odd"
                ),
                players,
            );
        }
    }
}

/// The engine's pairing of the whole round and every proposed pair or bye it does not make
/// (VCL4THP Q68-69: a Level 3 warning each, and the TRF comment `### MPA @ Round n: …`).
/// A round the engine cannot pair is a difference too (the proposal pairs what the system
/// cannot).
fn compare_with_engine(
    resolved: &Resolved,
    round: &RoundToPair,
    proposal: &Proposal,
    boards: &[Board],
) -> Result<EngineComparison, PairError> {
    let id = |p: PlayerIdx| round.id(p).to_string();
    let mut out = EngineComparison::default();
    let engine = match resolved.configured.pair(round) {
        Ok(engine) => engine,
        Err(PairError::NoLegalPairing { rule, message, .. }) => {
            out.differences.push(Violation {
                rule_id: "MPA".to_string(),
                message: format!("the engine finds no pairing of this round ({rule}: {message})"),
                players: Vec::new(),
                level: level::SERIOUS,
            });
            out.trf_comment = format!(
                "### MPA @ Round {}: the engine finds no pairing",
                round.number
            );
            return Ok(out);
        }
        Err(e) => return Err(e),
    };
    let pair = |a: PlayerIdx, b: PlayerIdx| (a.min(b), a.max(b));
    let engine_pairs: std::collections::HashSet<(PlayerIdx, PlayerIdx)> = engine
        .boards
        .iter()
        .map(|b| pair(b.white, b.black))
        .collect();
    let opponent = |p: PlayerIdx| {
        engine.boards.iter().find_map(|b| {
            if b.white == p {
                Some(id(b.black))
            } else if b.black == p {
                Some(id(b.white))
            } else {
                None
            }
        })
    };
    let engine_pab: Vec<PlayerIdx> = engine
        .byes
        .iter()
        .filter(|b| b.kind.is_pairing_allocated())
        .map(|b| b.player)
        .collect();
    let engine_has = |p: PlayerIdx| {
        opponent(p).unwrap_or_else(|| {
            if engine_pab.contains(&p) {
                "the pairing-allocated bye".to_string()
            } else {
                "no pairing".to_string()
            }
        })
    };
    let mut notes = Vec::new();
    for b in boards {
        if !engine_pairs.contains(&pair(b.white, b.black)) {
            let message = format!(
                "{} - {} is not the engine's pairing: the engine pairs {} with {} and {} with {}",
                id(b.white),
                id(b.black),
                id(b.white),
                engine_has(b.white),
                id(b.black),
                engine_has(b.black)
            );
            notes.push(format!("{}-{}", id(b.white), id(b.black)));
            out.differences.push(Violation {
                rule_id: "MPA".to_string(),
                message,
                players: vec![b.white, b.black],
                level: level::SERIOUS,
            });
        }
    }
    for &p in &proposal.byes {
        if !engine_pab.contains(&p) {
            notes.push(format!("bye {}", id(p)));
            out.differences.push(Violation {
                rule_id: "MPA".to_string(),
                message: format!(
                    "the bye to {} is not the engine's: the engine pairs {} with {}",
                    id(p),
                    id(p),
                    engine_has(p)
                ),
                players: vec![p],
                level: level::SERIOUS,
            });
        }
    }
    if !notes.is_empty() {
        out.trf_comment = format!(
            "### MPA @ Round {}: manual pairing differs from the engine's: {}",
            round.number,
            notes.join(", ")
        );
    }
    out.boards = engine.boards;
    out.byes = engine.byes;
    Ok(out)
}

fn meetings(h: &History, a: PlayerIdx, b: PlayerIdx) -> usize {
    h.player(a).opponents.iter().filter(|&&o| o == b).count()
}

/// MP-1's colour allocation for a board of `a` and `b`.
fn allocate(
    round: &RoundToPair,
    history: &History,
    a: PlayerIdx,
    b: PlayerIdx,
    absolute: AbsoluteRules,
    last_round: bool,
    report: &mut ManualReport,
) -> Board {
    let t = &round.tournament;
    let (ha, hb) = (history.player(a), history.player(b));
    let id = |p: PlayerIdx| round.id(p).to_string();
    if absolute.fixed_colours || absolute.colourless {
        report.explanation.detail(
            "MP-1",
            format!(
                "{} - {}: as proposed (the system has no colour choice)",
                id(a),
                id(b)
            ),
            vec![a, b],
        );
        return Board { white: a, black: b };
    }
    let (white, rule) = mp1_white(
        t.pairing_number(a),
        t.pairing_number(b),
        ha,
        hb,
        round.initial_colour,
    );
    let (mut w, mut bl) = if white { (a, b) } else { (b, a) };
    let mut rule = rule.to_string();
    // MP-1 (1): the system's absolute colour limits hold, except in the last round: when
    // MP-1's choice breaks them and the other does not, the other is used. The limits are
    // the system's own (Vincze forbids only a third colour in a row, VZ-4.3; the FIDE set
    // also a difference beyond ±2, C.04.1 art. 6-7).
    if !last_round {
        let breaks_one = |p: PlayerIdx, c: Colour| match absolute.colours {
            ColourLimits::None => false,
            ColourLimits::ThreeInARow => history.player(p).last_two_same() == Some(c),
            ColourLimits::ThreeInARowAndDifferenceTwo => history.player(p).colour_breaks_limits(c),
        };
        let breaks = |w: PlayerIdx, b: PlayerIdx| {
            breaks_one(w, Colour::White) || breaks_one(b, Colour::Black)
        };
        if breaks(w, bl) && !breaks(bl, w) {
            std::mem::swap(&mut w, &mut bl);
            rule = format!("{rule}, reversed to keep {}", absolute.colour_rule);
        }
    }
    report
        .explanation
        .step(&rule, format!("{} - {}", id(w), id(bl)), vec![w, bl]);
    Board {
        white: w,
        black: bl,
    }
}

/// Whether `a` gets White under MP-1, and the step that decided it.
fn mp1_white(
    pn_a: u32,
    pn_b: u32,
    a: &PlayerHistory,
    b: &PlayerHistory,
    first: Colour,
) -> (bool, &'static str) {
    // (1) More Whites so far (a larger colour difference) gets Black.
    let (da, db) = (a.colour_difference(), b.colour_difference());
    if da != db {
        return (da < db, "MP-1(1)");
    }
    // (2) Alternate from the latest round where the (compressed) histories differ.
    for (ca, cb) in a.colours.iter().rev().zip(b.colours.iter().rev()) {
        if ca != cb {
            return (*ca == Colour::Black, "MP-1(2)");
        }
    }
    // (3) The lower pairing number alternates from his last colour; with no game, he takes
    // the first-round colour if his number is odd, the other if even (as AM-4.4).
    let (low, low_is_a) = if pn_a < pn_b { (a, true) } else { (b, false) };
    let low_white = match low.last_colour() {
        Some(c) => c == Colour::Black,
        None => (first == Colour::White) == (pn_a.min(pn_b) % 2 == 1),
    };
    (low_white == low_is_a, "MP-1(3)")
}
