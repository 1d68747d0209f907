//! "Why not?": the question players and arbiters bring about a round (why not A against
//! B, why does X get the bye and not Y, why does Z float, why White again), answered with
//! the rule.
//!
//! A question names an alternative to the system's answer. It is answered in three ways:
//! 1. **impossible**: the alternative breaks an absolute rule (a rematch, a second bye, a
//!    forbidden pair, the colour limits where they hold), checked by the same code as
//!    `ValidatePairing` ([`super::manual`]), or the system finds no legal pairing that
//!    contains it (the rule it could not meet);
//! 2. **worse**: the system's own optimum containing the alternative is paired by the
//!    system itself on a constrained snapshot (the alternative's players forbidden against
//!    everybody else, CG-10: no second engine), and compared with the answer in the
//!    system's order of criteria (the system's own comparer, `System::compare`, in the
//!    vocabulary of `systems::comparison`): the first criterion on which it is worse, with
//!    the values on each side, the bracket and the players;
//! 3. **tie**: it ties on every criterion, and the system's rule of order chose.
//!
//! A system whose pairing is a procedure (Amalfi, Vincze, Vega's Buchholz, Simple,
//! Colour-alternation, backgammon, round robin) answers with the first step of its own
//! explanation where the two pairings part: the candidate it took there, with its rule id.
//! The Double-Swiss (`double_swiss/compare.rs`: C.04.5 3.4-3.6, [C4]-[C8]) and Lim
//! (`lim/compare.rs`: a procedure
//! compared where its rules are conditions, art. 1.1, 2.3, 3.9.2, 3.10, 3.2.2, 2.6; a tie
//! named by the article of its order elsewhere) are compared in their own order like the
//! criterion systems; a Double-Swiss game 2 (an even round) repeats game 1 (C.04.5 art. 0)
//! and is answered by that step.
//!
//! Burstein's BBP profile is compared in bbpPairings' order (`burstein/compare_bbp.rs`:
//! the PAB before pairing, then the engine's own brackets; the PAB's questions in
//! `pab_first.rs`). A team event under the Swiss Team
//! system (C.04.6) is asked about teams (`teams.rs`: each named by any member, kept from
//! other teams by forbidden pairs of their members, which the team field reads as
//! forbidden team pairs) and compared in C.04.6's order (`team_swiss/compare.rs`); another system
//! pairing teams as units is refused for now.
//!
//! A question costs two pairings of the round (the answer and the constrained one) and a
//! validation.
mod pab_first;
mod teams;

use std::collections::BTreeSet;

use crate::model::validate::{Problem, Problems};
use crate::model::{ByeKind, Colour, ForbiddenPairing, PlayerIdx, SystemId, Tournament};
use crate::pairing;
use crate::systems::common::History;
use crate::systems::{
    Board, ColourLimits, Detail, PairError, PairOptions, RoundPairing, RoundToPair,
};

use crate::systems::comparison::same;
pub use crate::systems::comparison::{Comparison, Difference};

use super::manual::{self, Proposal, Violation};

/// The question: an alternative to the system's answer.
#[derive(Clone, Debug)]
pub enum Question {
    /// Why not `a` against `b` (with `white` holding White, when given)?
    Pair {
        a: PlayerIdx,
        b: PlayerIdx,
        white: Option<PlayerIdx>,
    },
    /// Why does this player not get the pairing-allocated bye?
    Bye(PlayerIdx),
    /// Why does this player leave his scoregroup (or not leave it)?
    Float(PlayerIdx),
    /// Why does this player not get this colour?
    Colour(PlayerIdx, Colour),
    /// Why the system's pairing and not this whole pairing (an arbiter's manual pairing)?
    Pairing(Proposal),
    /// Why are `a` and `b` paired together: why not a pairing that keeps them apart (two
    /// clubmates under a weak separation, SEP-5)?
    Apart { a: PlayerIdx, b: PlayerIdx },
}

/// What kind of answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerdictKind {
    /// The system's answer already does what the question proposes.
    AlreadySo,
    /// The alternative breaks an absolute rule, or no legal pairing contains it.
    Impossible,
    /// The alternative is legal and worse on a criterion of the system.
    Worse,
    /// The alternative ties on every criterion; the system's rule of order chose.
    Tie,
    /// A procedural system: the step of its procedure where the two part.
    Procedure,
    /// The alternative is better on a criterion: the answer is not the system's optimum
    /// (an engine fault to report; the property tests assert it never happens).
    Better,
}

/// The answer to a question.
#[derive(Clone, Debug)]
pub struct Verdict {
    pub kind: VerdictKind,
    /// The rule that decides: the absolute rule broken, the first criterion on which the
    /// alternative is worse, the rule of order, or the procedure's step.
    pub rule_id: String,
    /// The answer in one sentence, players named by id.
    pub message: String,
    /// The players concerned.
    pub players: Vec<PlayerIdx>,
    /// The absolute rules the alternative breaks (impossible).
    pub violations: Vec<Violation>,
    /// The first criterion where the two part (worse).
    pub difference: Option<Difference>,
    /// The score group where the two part, when the system pairs by brackets.
    pub bracket: Option<crate::model::Score>,
}

/// A question answered.
#[derive(Clone, Debug)]
pub struct WhyAnswer {
    /// The snapshot as the system paired it (pairing numbers assigned).
    pub tournament: Tournament,
    pub system: SystemId,
    pub rule_set: &'static str,
    pub round: u32,
    /// The system's pairing of the round.
    pub answer: RoundPairing,
    /// The best pairing containing the alternative (or the proposed pairing), when one
    /// exists.
    pub alternative: Option<RoundPairing>,
    pub verdict: Verdict,
}

/// Answers `question` about the round `options` names (the next one, or a round already
/// in the file, re-paired from the rounds before it as the checker does).
pub fn run(
    t: &Tournament,
    question: &Question,
    options: &PairOptions,
) -> Result<WhyAnswer, PairError> {
    let resolved = pairing::resolve(options.system, t)?;
    // C.04.6 pairs teams: its questions are about teams (`teams.rs`). Another system on a
    // team event pairs the teams as units (`pairing::teams`), which is not read here yet.
    if t.is_team_event() && !resolved.system.pairs_team_events() {
        return Err(invalid(
            "question",
            "why-questions about a team event are answered under the Swiss Team system (C.04.6); teams paired as units by another system are not answered yet: check such a pairing with ValidatePairing",
        ));
    }
    let snapshot = before_round(t, &resolved, options.round);
    let t = &snapshot;
    let pair_options = PairOptions {
        system: Some(resolved.id),
        // The procedure's steps are read in full; the answer is filtered at the end.
        detail: Detail::Full,
        ..options.clone()
    };
    // The round as the system pairs it (its scoring: backgammon counts wins).
    let mut notes = Vec::new();
    let scored = Tournament {
        scoring: resolved.system.effective_scoring(&t.scoring, &mut notes),
        ..t.clone()
    };
    let round = pairing::prepare(&resolved, &scored, &pair_options)?;
    check_players(&round, question)?;
    let (numbered, answer) = pairing::pair_with(&resolved, t, &pair_options)?;
    let (system, rule_set) = (resolved.id, resolved.rule_set);
    let asking = Asking {
        t,
        resolved,
        history: History::build(&round),
        round: &round,
        options: &pair_options,
    };
    let (alternative, verdict) = asking.answer(question, &answer)?;
    let filter = |mut p: RoundPairing| {
        p.explanation = std::mem::take(&mut p.explanation).filtered(options.detail);
        p
    };
    Ok(WhyAnswer {
        tournament: numbered,
        system,
        rule_set,
        round: round.number,
        answer: filter(answer),
        alternative: alternative.map(filter),
        verdict,
    })
}

/// One question's context: the round, its history and the system.
struct Asking<'a> {
    /// The snapshot the round is paired from.
    t: &'a Tournament,
    resolved: pairing::Resolved,
    history: History,
    round: &'a RoundToPair,
    options: &'a PairOptions,
}

fn pab(p: &RoundPairing) -> Option<PlayerIdx> {
    p.byes
        .iter()
        .find(|b| b.kind == ByeKind::Pab)
        .map(|b| b.player)
}

fn board_of(p: &RoundPairing, x: PlayerIdx) -> Option<Board> {
    p.boards
        .iter()
        .copied()
        .find(|b| b.white == x || b.black == x)
}

fn has_pair(p: &RoundPairing, a: PlayerIdx, b: PlayerIdx) -> Option<Board> {
    p.boards
        .iter()
        .copied()
        .find(|x| (x.white == a && x.black == b) || (x.white == b && x.black == a))
}

impl Asking<'_> {
    fn name(&self, p: PlayerIdx) -> String {
        self.round.id(p).to_string()
    }

    fn names(&self, list: &[PlayerIdx]) -> String {
        let t = &self.round.tournament;
        if t.is_team_event() {
            // C.04.6 pairs teams: a player stands for his team.
            let of = t.team_of_players();
            let mut teams: Vec<String> = Vec::new();
            for &p in list {
                let name = match of.get(p).copied().flatten() {
                    Some(team) => format!("team {}", t.team_tpn(team)),
                    None => self.name(p),
                };
                if !teams.contains(&name) {
                    teams.push(name);
                }
            }
            return teams.join(", ");
        }
        list.iter()
            .map(|&p| self.name(p))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn verdict(
        &self,
        kind: VerdictKind,
        rule_id: &str,
        message: String,
        players: Vec<PlayerIdx>,
    ) -> Verdict {
        Verdict {
            kind,
            rule_id: rule_id.to_string(),
            message,
            players,
            violations: Vec::new(),
            difference: None,
            bracket: None,
        }
    }

    /// The pairing score a player is paired with (points and acceleration, C.04.7).
    fn score(&self, p: PlayerIdx) -> crate::model::Score {
        let number = self.round.number;
        let extra: crate::model::Score = self
            .round
            .tournament
            .accelerations
            .iter()
            .filter(|a| a.player == p && a.first_round <= number && number <= a.last_round)
            .map(|a| a.points)
            .sum();
        self.history.player(p).pairing_points + extra
    }

    fn others(&self, except: &[PlayerIdx]) -> Vec<PlayerIdx> {
        self.round
            .participants
            .iter()
            .copied()
            .filter(|p| !except.contains(p))
            .collect()
    }

    /// Whether the colour limits hold this round and `p` may not have `c` under them.
    fn breaks_colour(&self, p: PlayerIdx, c: Colour) -> bool {
        let absolute = self.resolved.configured.absolute_rules();
        let tour = &self.round.tournament;
        let last_round = tour.total_rounds > 0
            && self.round.number == tour.total_rounds
            && !absolute.colour_limits_in_last_round;
        if last_round {
            return false;
        }
        let h = self.history.player(p);
        match absolute.colours {
            ColourLimits::None => false,
            ColourLimits::ThreeInARow => h.last_two_same() == Some(c),
            ColourLimits::ThreeInARowAndDifferenceTwo => h.colour_breaks_limits(c),
        }
    }

    fn colour_limit(&self, p: PlayerIdx, c: Colour) -> Option<Verdict> {
        if !self.breaks_colour(p, c) {
            return None;
        }
        let rule = self.resolved.configured.absolute_rules().colour_rule;
        Some(self.verdict(
            VerdictKind::Impossible,
            rule,
            format!(
                "{} cannot have {c}: it would be a third {c} in a row or a colour difference beyond 2 ({rule}; colours so far {})",
                self.name(p),
                colour_history(&self.history, p)
            ),
            vec![p],
        ))
    }

    /// The rounds in which `p` scored a win's points without playing (a PAB, a forfeit
    /// win, a full-point bye): what bars a second PAB (C.04.1 art. 4).
    fn unplayed_wins(&self, p: PlayerIdx) -> Vec<u32> {
        let h = self.history.player(p);
        let win = self.round.tournament.scoring.win;
        h.entries
            .iter()
            .enumerate()
            .filter(|(i, e)| {
                !matches!(e, crate::model::RoundEntry::None)
                    && e.met_opponent().is_none()
                    && h.round_points.get(*i).is_some_and(|&pts| pts >= win)
            })
            .map(|(i, _)| i as u32 + 1)
            .collect()
    }

    /// The absolute rules a proposal breaks (`ValidatePairing`'s check), with the games or
    /// byes that make it so.
    fn violations(&self, proposal: Proposal) -> Result<Vec<Violation>, PairError> {
        let report = manual::validate(self.t, self.resolved.id, &proposal, self.options)?;
        let rematch = self.resolved.configured.absolute_rules().rematch_rule;
        Ok(report
            .violations
            .into_iter()
            // A partial proposal leaves the others out: only the proposal's own faults.
            .filter(|v| v.rule_id != "C.04.1 art. 3" || proposal.complete)
            .map(|mut v| {
                if v.rule_id == rematch
                    && let [a, b] = v.players[..]
                    && let Some(r) = self.history.round_met(a, b)
                {
                    v.message = format!("{} (round {r})", v.message);
                }
                if proposal.byes.len() == 1
                    && v.players == proposal.byes
                    && v.message.contains("bye")
                {
                    cite_rounds(&mut v.message, self.unplayed_wins(v.players[0]));
                }
                v
            })
            .collect())
    }

    fn impossible(&self, violations: Vec<Violation>) -> Verdict {
        let first = &violations[0];
        let mut players: Vec<PlayerIdx> =
            violations.iter().flat_map(|v| v.players.clone()).collect();
        players.dedup();
        Verdict {
            kind: VerdictKind::Impossible,
            rule_id: first.rule_id.clone(),
            message: violations
                .iter()
                .map(|v| format!("{} ({})", v.message, v.rule_id))
                .collect::<Vec<_>>()
                .join("; "),
            players,
            violations,
            difference: None,
            bracket: None,
        }
    }

    /// Pairs the round with the players of `forbid` kept from the players listed with each
    /// (CG-10: forbidden pairs count as met): the system's own optimum under the constraint.
    fn pair_constrained(
        &self,
        forbid: &[(PlayerIdx, Vec<PlayerIdx>)],
    ) -> Result<RoundPairing, PairError> {
        let mut t = self.t.clone();
        for (a, others) in forbid {
            for &o in others {
                t.forbidden_pairings.push(ForbiddenPairing {
                    players: vec![*a, o],
                    first_round: None,
                    last_round: None,
                });
            }
        }
        pairing::pair_with(&self.resolved, &t, self.options).map(|(_, p)| p)
    }

    /// The constrained pairing, or the verdict that none exists.
    fn alternative(
        &self,
        forbid: &[(PlayerIdx, Vec<PlayerIdx>)],
        what: &str,
        players: Vec<PlayerIdx>,
    ) -> Result<Result<RoundPairing, Verdict>, PairError> {
        match self.pair_constrained(forbid) {
            Ok(p) => Ok(Ok(p)),
            Err(PairError::NoLegalPairing { rule, message, .. }) => Ok(Err(self.verdict(
                VerdictKind::Impossible,
                &rule,
                format!("no legal pairing {what}: {message} ({rule})"),
                players,
            ))),
            Err(e) => Err(e),
        }
    }

    fn answer(
        &self,
        question: &Question,
        answer: &RoundPairing,
    ) -> Result<(Option<RoundPairing>, Verdict), PairError> {
        if self.round.tournament.is_team_event() {
            return self.team_answer(question, answer);
        }
        match question {
            Question::Pair { a, b, white } => self.pair_question(*a, *b, *white, answer),
            Question::Bye(x) => self.bye_question(*x, answer),
            Question::Float(x) => self.float_question(*x, answer),
            Question::Colour(x, c) => self.colour_question(*x, *c, answer),
            Question::Pairing(proposal) => self.pairing_question(proposal, answer),
            Question::Apart { a, b } => self.apart_question(*a, *b, answer),
        }
    }

    /// Why `a` and `b` meet: the best legal pairing that keeps them apart (the system's own,
    /// with the pair forbidden for this round), compared with the answer; the criterion
    /// where it is worse is what made the meeting unavoidable (SEP-5 reads the same way:
    /// a weak separation above that criterion would have kept them apart).
    fn apart_question(
        &self,
        a: PlayerIdx,
        b: PlayerIdx,
        answer: &RoundPairing,
    ) -> Result<(Option<RoundPairing>, Verdict), PairError> {
        let (na, nb) = (self.name(a), self.name(b));
        if has_pair(answer, a, b).is_none() {
            return Ok((
                None,
                self.already(
                    answer,
                    &[a, b],
                    format!("{na} and {nb} do not meet in the answer"),
                ),
            ));
        }
        let forbid = [(a, vec![b]), (b, vec![a])];
        let alt =
            match self.alternative(&forbid, &format!("keeps {na} and {nb} apart"), vec![a, b])? {
                Ok(p) => p,
                Err(v) => return Ok((None, v)),
            };
        let verdict = self.compare(answer, &alt, &format!("{na} and {nb} apart"), &[a, b]);
        Ok((Some(alt), verdict))
    }

    fn pair_question(
        &self,
        a: PlayerIdx,
        b: PlayerIdx,
        white: Option<PlayerIdx>,
        answer: &RoundPairing,
    ) -> Result<(Option<RoundPairing>, Verdict), PairError> {
        let (na, nb) = (self.name(a), self.name(b));
        if let Some(board) = has_pair(answer, a, b) {
            return match white {
                Some(w) if board.white != w => self.colour_question(w, Colour::White, answer),
                _ => Ok((
                    None,
                    self.already(answer, &[a, b], format!("{na} - {nb} is in the answer")),
                )),
            };
        }
        let violations = self.violations(Proposal {
            boards: vec![(a, b)],
            ..Proposal::default()
        })?;
        if !violations.is_empty() {
            return Ok((None, self.impossible(violations)));
        }
        if let Some(v) = self.pab_first_pair(a, b, answer) {
            return Ok((None, v));
        }
        if let Some(w) = white {
            let other = if w == a { b } else { a };
            if let Some(v) = self
                .colour_limit(w, Colour::White)
                .or_else(|| self.colour_limit(other, Colour::Black))
            {
                return Ok((None, v));
            }
        }
        let rest = self.others(&[a, b]);
        let forbid = [(a, rest.clone()), (b, rest)];
        let mut alt =
            match self.alternative(&forbid, &format!("contains {na} - {nb}"), vec![a, b])? {
                Ok(p) => p,
                Err(v) => return Ok((None, v)),
            };
        let Some(board) = has_pair(&alt, a, b) else {
            return Ok((
                Some(alt),
                self.unreachable(answer, &format!("{na} - {nb}"), &[a, b]),
            ));
        };
        // The colours asked for: the board reversed when the system gave the others.
        if let Some(w) = white
            && board.white != w
        {
            for x in &mut alt.boards {
                if *x == board {
                    *x = Board {
                        white: board.black,
                        black: board.white,
                    };
                }
            }
        }
        let what = match white {
            Some(w) => {
                let other = if w == a { b } else { a };
                format!("{} - {}", self.name(w), self.name(other))
            }
            None => format!("{na} - {nb}"),
        };
        let verdict = self.compare(answer, &alt, &what, &[a, b]);
        Ok((Some(alt), verdict))
    }

    fn bye_question(
        &self,
        x: PlayerIdx,
        answer: &RoundPairing,
    ) -> Result<(Option<RoundPairing>, Verdict), PairError> {
        let nx = self.name(x);
        if pab(answer) == Some(x) {
            return Ok((
                None,
                self.already(answer, &[x], format!("{nx} has the pairing-allocated bye")),
            ));
        }
        if self.round.participants.len().is_multiple_of(2) {
            return Ok((
                None,
                self.verdict(
                    VerdictKind::Impossible,
                    "C.04.1 art. 3",
                    format!(
                        "{} players are paired this round, an even number: nobody gets the pairing-allocated bye",
                        self.round.participants.len()
                    ),
                    vec![x],
                ),
            ));
        }
        let violations = self.violations(Proposal {
            byes: vec![x],
            ..Proposal::default()
        })?;
        if !violations.is_empty() {
            return Ok((None, self.impossible(violations)));
        }
        if let Some(v) = self.pab_first_bye(x, answer) {
            return Ok((None, v));
        }
        let forbid = [(x, self.others(&[x]))];
        let alt = match self.alternative(&forbid, &format!("gives {nx} the bye"), vec![x])? {
            Ok(p) => p,
            Err(v) => return Ok((None, v)),
        };
        if pab(&alt) != Some(x) {
            return Ok((
                Some(alt),
                self.unreachable(answer, &format!("the bye for {nx}"), &[x]),
            ));
        }
        let verdict = self.compare(answer, &alt, &format!("the bye for {nx}"), &[x]);
        Ok((Some(alt), verdict))
    }

    fn float_question(
        &self,
        x: PlayerIdx,
        answer: &RoundPairing,
    ) -> Result<(Option<RoundPairing>, Verdict), PairError> {
        let nx = self.name(x);
        let mine = self.score(x);
        let opponent = board_of(answer, x).map(|b| if b.white == x { b.black } else { b.white });
        let floats = opponent.is_none_or(|o| self.score(o) != mine);
        let group: Vec<PlayerIdx> = self
            .others(&[x])
            .into_iter()
            .filter(|&p| self.score(p) == mine)
            .collect();
        let outside: Vec<PlayerIdx> = self
            .others(&[x])
            .into_iter()
            .filter(|&p| self.score(p) != mine)
            .collect();
        let (forbid, what) = if floats {
            // Could he stay? Only against someone of his score he may meet.
            let open: Vec<PlayerIdx> = group
                .iter()
                .copied()
                .filter(|&p| !self.history.may_not_meet(x, p))
                .collect();
            if open.is_empty() {
                let rule = self.resolved.configured.absolute_rules().rematch_rule;
                let met: Vec<String> = group
                    .iter()
                    .map(|&p| match self.history.round_met(x, p) {
                        Some(r) => format!("{} (round {r})", self.name(p)),
                        None => format!("{} (forbidden pair)", self.name(p)),
                    })
                    .collect();
                let message = if group.is_empty() {
                    format!("nobody else paired this round has {nx}'s score {mine}: he must float")
                } else {
                    format!(
                        "{nx} has met or may not meet everyone else with his score {mine}: {} ({rule})",
                        met.join(", ")
                    )
                };
                // Nobody to stay with: C.04.1 art. 5 pairs on the same score only where it can.
                let rule = if group.is_empty() {
                    "C.04.1 art. 5"
                } else {
                    rule
                };
                let mut players = vec![x];
                players.extend(group);
                return Ok((
                    None,
                    self.verdict(VerdictKind::Impossible, rule, message, players),
                ));
            }
            (
                [(x, outside)],
                format!("{nx} staying in his {mine}-point scoregroup"),
            )
        } else {
            if outside.is_empty() {
                return Ok((
                    None,
                    self.verdict(
                        VerdictKind::Impossible,
                        "C.04.1 art. 5",
                        format!(
                            "everybody paired this round has {nx}'s score {mine}: he cannot float"
                        ),
                        vec![x],
                    ),
                ));
            }
            (
                [(x, group)],
                format!("{nx} leaving his {mine}-point scoregroup"),
            )
        };
        let alt = match self.alternative(&forbid, &format!("with {what}"), vec![x])? {
            Ok(p) => p,
            Err(v) => return Ok((None, v)),
        };
        // Kept from everybody outside his group, he may still get the PAB (nothing bars
        // it): the float he cannot lose is the bye's, decided by the bye's rule.
        if floats && pab(&alt) == Some(x) {
            let (rule, message) = self.step(answer, &[x]).unwrap_or_default();
            let verdict = self.verdict(
                VerdictKind::Procedure,
                &rule,
                format!(
                    "kept from everybody outside his {mine}-point scoregroup, {nx} still gets the pairing-allocated bye: {message}"
                ),
                vec![x],
            );
            return Ok((Some(alt), verdict));
        }
        let verdict = self.compare(answer, &alt, &what, &[x]);
        Ok((Some(alt), verdict))
    }

    fn colour_question(
        &self,
        x: PlayerIdx,
        c: Colour,
        answer: &RoundPairing,
    ) -> Result<(Option<RoundPairing>, Verdict), PairError> {
        let nx = self.name(x);
        let absolute = self.resolved.configured.absolute_rules();
        let Some(board) = board_of(answer, x) else {
            return Ok((
                None,
                self.verdict(
                    VerdictKind::Impossible,
                    self.step_rule(answer, &[x]).as_str(),
                    format!("{nx} has no game this round (the pairing-allocated bye): ask about the bye or a pair"),
                    vec![x],
                ),
            ));
        };
        let has = if board.white == x {
            Colour::White
        } else {
            Colour::Black
        };
        let y = if board.white == x {
            board.black
        } else {
            board.white
        };
        if has == c {
            let (rule, message) = self.colour_step(answer, x, y).unwrap_or_default();
            return Ok((
                None,
                self.verdict(
                    VerdictKind::AlreadySo,
                    &rule,
                    format!("{nx} has {c} already: {message}"),
                    vec![x, y],
                ),
            ));
        }
        if absolute.colourless {
            return Ok((
                None,
                self.verdict(
                    VerdictKind::Impossible,
                    self.step_rule(answer, &[x, y]).as_str(),
                    "the system has no colours: the first-drawn player is only written first"
                        .to_string(),
                    vec![x],
                ),
            ));
        }
        if let Some(v) = self
            .colour_limit(x, c)
            .or_else(|| self.colour_limit(y, c.opposite()))
        {
            return Ok((None, v));
        }
        let mut alt = answer.clone();
        for b in &mut alt.boards {
            if *b == board {
                *b = Board {
                    white: board.black,
                    black: board.white,
                };
            }
        }
        alt.explanation = crate::systems::Explanation::default();
        // The same pairs: the colour allocation rule of the board decided (or, for a
        // topscorer in the last round, Dutch C10/C11). Explanations give a board's colour
        // after its pairing: the last step about exactly these two.
        let step = self.colour_step(answer, x, y);
        let verdict = match self.resolved.configured.compare(self.round, answer, &alt) {
            Some(Comparison::Differ(d)) => self.differ_verdict(d, &format!("{nx} with {c}")),
            _ => {
                let (rule, message) = step.unwrap_or_default();
                self.verdict(
                    if fixed(absolute) { VerdictKind::Procedure } else { VerdictKind::Tie },
                    &rule,
                    format!(
                        "{nx} - {} is the same pair either way; the colour allocation rule {rule} gives {nx} {has}: {message}",
                        self.name(y)
                    ),
                    vec![x, y],
                )
            }
        };
        Ok((Some(alt), verdict))
    }

    fn pairing_question(
        &self,
        proposal: &Proposal,
        answer: &RoundPairing,
    ) -> Result<(Option<RoundPairing>, Verdict), PairError> {
        let report = manual::validate(self.t, self.resolved.id, proposal, self.options)?;
        if !report.violations.is_empty() {
            return Ok((None, self.impossible(report.violations)));
        }
        if !report.unpaired.is_empty() {
            return Err(invalid(
                "pairing",
                format!(
                    "the proposed pairing leaves {} unpaired: give a whole pairing (or ask to complete it)",
                    self.names(&report.unpaired)
                ),
            ));
        }
        let alt = RoundPairing {
            round: self.round.number,
            boards: report.boards,
            byes: report.byes,
            ..RoundPairing::default()
        };
        if same(answer, &alt) {
            return Ok((
                Some(alt),
                self.already(
                    answer,
                    &[],
                    "the proposed pairing has the answer's pairs and bye".to_string(),
                ),
            ));
        }
        let verdict = self.compare(answer, &alt, "the proposed pairing", &[]);
        Ok((Some(alt), verdict))
    }

    /// The procedure does not reach the alternative even with its players kept from
    /// everybody else (a round robin's table, a lot): the step of the answer that decided
    /// for them.
    fn unreachable(&self, answer: &RoundPairing, what: &str, players: &[PlayerIdx]) -> Verdict {
        let (rule, message) = self.step(answer, players).unwrap_or_default();
        self.verdict(
            VerdictKind::Procedure,
            &rule,
            format!(
                "the system's procedure does not reach {what}, whatever else is forbidden: its step {rule} decides: \"{message}\""
            ),
            players.to_vec(),
        )
    }

    /// The answer already does it: the step of the answer that did.
    fn already(&self, answer: &RoundPairing, players: &[PlayerIdx], what: String) -> Verdict {
        let (rule, message) = self.step(answer, players).unwrap_or_default();
        self.verdict(
            VerdictKind::AlreadySo,
            &rule,
            if message.is_empty() {
                format!("{what} already")
            } else {
                format!("{what} already: {message}")
            },
            players.to_vec(),
        )
    }

    /// The first step of a pairing's explanation about all of `players`, else about any.
    fn step(&self, p: &RoundPairing, players: &[PlayerIdx]) -> Option<(String, String)> {
        let steps = || p.explanation.groups.iter().flat_map(|g| g.steps.iter());
        // The step about exactly these players (a board's colour rule), else one naming
        // them all, else one naming any of them.
        let exactly = |s: &&crate::systems::explanation::Step| {
            let mut a = s.players.clone();
            let mut b = players.to_vec();
            a.sort_unstable();
            b.sort_unstable();
            !b.is_empty() && a == b
        };
        steps()
            .find(exactly)
            .or_else(|| {
                steps()
                    .find(|s| !players.is_empty() && players.iter().all(|q| s.players.contains(q)))
            })
            .or_else(|| steps().find(|s| players.iter().any(|q| s.players.contains(q))))
            .map(|s| (s.rule_id.clone(), s.message.clone()))
    }

    /// The colour rule of the board of `x` and `y`: explanations give a board's colour
    /// after its pairing, so the last step about exactly these two.
    fn colour_step(
        &self,
        p: &RoundPairing,
        x: PlayerIdx,
        y: PlayerIdx,
    ) -> Option<(String, String)> {
        p.explanation
            .groups
            .iter()
            .flat_map(|g| g.steps.iter())
            .rfind(|s| s.players.len() == 2 && s.players.contains(&x) && s.players.contains(&y))
            .map(|s| (s.rule_id.clone(), s.message.clone()))
            .or_else(|| self.step(p, &[x, y]))
    }

    fn step_rule(&self, p: &RoundPairing, players: &[PlayerIdx]) -> String {
        self.step(p, players).map(|s| s.0).unwrap_or_default()
    }

    fn differ_verdict(&self, d: Difference, what: &str) -> Verdict {
        let bracket = d
            .bracket
            .map_or_else(String::new, |s| format!(" in the {s}-point bracket"));
        let (kind, message) = if d.first_is_better {
            (
                VerdictKind::Worse,
                format!(
                    "with {what}, {}{bracket} instead of {} ({}: {}; players {})",
                    d.second_value,
                    d.first_value,
                    d.rule_id,
                    d.criterion,
                    if d.players.is_empty() {
                        "none".to_string()
                    } else {
                        self.names(&d.players)
                    }
                ),
            )
        } else {
            (
                VerdictKind::Better,
                format!(
                    "with {what}, {}{bracket} instead of the answer's {} ({}: {}): the answer is not the system's optimum here; please report it",
                    d.second_value, d.first_value, d.rule_id, d.criterion
                ),
            )
        };
        Verdict {
            kind,
            rule_id: d.rule_id.clone(),
            message,
            players: d.players.clone(),
            violations: Vec::new(),
            bracket: d.bracket,
            difference: Some(d),
        }
    }

    /// The answer against the alternative, in the system's order.
    fn compare(
        &self,
        answer: &RoundPairing,
        alt: &RoundPairing,
        what: &str,
        asked: &[PlayerIdx],
    ) -> Verdict {
        if let Some(comparison) = self.resolved.configured.compare(self.round, answer, alt) {
            return match comparison {
                Comparison::Same => self.already(answer, asked, what.to_string()),
                Comparison::Differ(d) => self.differ_verdict(d, what),
                Comparison::Tie {
                    bracket,
                    order_rule,
                    players,
                } => {
                    let place = bracket.map_or_else(
                        || "for the PAB".to_string(),
                        |s| format!("in the {s}-point bracket"),
                    );
                    Verdict {
                        kind: VerdictKind::Tie,
                        rule_id: order_rule.to_string(),
                        message: format!(
                            "with {what}, the pairing {place} is as good on every criterion; the order of {order_rule} reaches the answer's first ({})",
                            self.names(&players)
                        ),
                        players,
                        violations: Vec::new(),
                        difference: None,
                        bracket,
                    }
                }
            };
        }
        // A procedure: the first step of the answer about a player the two pair apart.
        let parted = parted(answer, alt);
        let steps = answer
            .explanation
            .groups
            .iter()
            .flat_map(|g| g.steps.iter());
        // The procedure's decision about a player the two pair apart: a step about one
        // board, else one player (the steps listing a whole group come before any choice).
        let about = |s: &&crate::systems::explanation::Step| {
            s.players.iter().any(|p| parted.contains(p)) && !s.rule_id.is_empty()
        };
        let found = steps
            .clone()
            .find(|s| s.players.len() == 2 && about(s))
            .or_else(|| steps.clone().find(|s| s.players.len() == 1 && about(s)))
            .or_else(|| steps.clone().find(about));
        match found {
            Some(s) => self.verdict(
                VerdictKind::Procedure,
                &s.rule_id,
                format!(
                    "with {what}, the procedure parts from the answer at its step {}: \"{}\"",
                    s.rule_id, s.message
                ),
                s.players.clone(),
            ),
            None => self.verdict(
                VerdictKind::Procedure,
                "",
                format!("with {what}, the procedure reaches another pairing; its explanation names no step for the players it changes ({})", self.names(&parted)),
                parted,
            ),
        }
    }
}

/// Adds the rounds that make a rule break (a bye already had, ...) to its message:
/// "... (round 2, 5)"; nothing when there are none.
fn cite_rounds<R: std::fmt::Display>(message: &mut String, rounds: impl IntoIterator<Item = R>) {
    let rounds: Vec<String> = rounds.into_iter().map(|r| r.to_string()).collect();
    if !rounds.is_empty() {
        *message = format!("{message} (round {})", rounds.join(", "));
    }
}

/// Colours not chosen by the pairing (a round robin's table).
fn fixed(absolute: crate::systems::AbsoluteRules) -> bool {
    absolute.fixed_colours
}

/// The players whose opponent (or bye) differs between two pairings, in index order.
pub fn parted(a: &RoundPairing, b: &RoundPairing) -> Vec<PlayerIdx> {
    let partner = |p: &RoundPairing| -> std::collections::BTreeMap<PlayerIdx, Option<PlayerIdx>> {
        let mut m = std::collections::BTreeMap::new();
        for x in &p.boards {
            m.insert(x.white, Some(x.black));
            m.insert(x.black, Some(x.white));
        }
        for y in &p.byes {
            m.insert(y.player, None);
        }
        m
    };
    let (pa, pb) = (partner(a), partner(b));
    let players: BTreeSet<PlayerIdx> = pa.keys().chain(pb.keys()).copied().collect();
    players
        .into_iter()
        .filter(|p| pa.get(p) != pb.get(p))
        .collect()
}

fn colour_history(history: &History, p: PlayerIdx) -> String {
    let h = history.player(p);
    if h.colours.is_empty() {
        return "none".to_string();
    }
    h.colours
        .iter()
        .map(|c| if *c == Colour::White { "W" } else { "B" })
        .collect()
}

fn invalid(field: &str, message: impl Into<String>) -> PairError {
    PairError::Invalid(Problems(vec![Problem::new(field, message.into())]))
}

/// The snapshot a round is paired from: the file as it is for the next round; for a round
/// already in the file, the rounds before it, with that round's requested byes and
/// absences kept (those players are not paired), as the checker re-pairs it.
fn before_round(t: &Tournament, resolved: &pairing::Resolved, round: Option<u32>) -> Tournament {
    let Some(number) = round else {
        return t.clone();
    };
    let Some(recorded) = t.round(number).filter(|r| r.is_paired()) else {
        return t.clone();
    };
    if resolved.system.checks_as_the_reference() {
        let mut inferred = t.clone();
        super::infer::infer_unstated(&mut inferred);
        super::snapshot_before(&inferred, number, recorded)
    } else {
        super::snapshot_before(t, number, recorded)
    }
}

/// Every player the question names must be paired this round.
fn check_players(round: &RoundToPair, question: &Question) -> Result<(), PairError> {
    // A team event's question names teams by any member, a reserve sitting out too: the
    // team questions check their teams (`teams.rs`).
    if round.tournament.is_team_event() {
        return Ok(());
    }
    let named: Vec<(PlayerIdx, &str)> = match question {
        // Named as the request names them (`ExplainRequest.question`).
        Question::Pair { a, b, white } => {
            let mut v = vec![(*a, "pair.player_id"), (*b, "pair.opponent_id")];
            if let Some(w) = white {
                v.push((*w, "pair.white_id"));
            }
            v
        }
        Question::Bye(x) => vec![(*x, "bye_player_id")],
        Question::Float(x) => vec![(*x, "float_player_id")],
        Question::Colour(x, _) => vec![(*x, "colour.player_id")],
        Question::Pairing(_) => Vec::new(),
        Question::Apart { a, b } => vec![(*a, "apart.player_id"), (*b, "apart.opponent_id")],
    };
    let mut problems = Vec::new();
    for (p, field) in &named {
        if !round.participants.contains(p) {
            let id = round
                .tournament
                .players
                .get(*p)
                .map_or_else(|| format!("#{p}"), |pl| pl.id.clone());
            problems.push(Problem::new(
                *field,
                format!(
                    "player {id:?} is not paired in round {} (absent, withdrawn, not entered or with a requested bye)",
                    round.number
                ),
            ));
        }
    }
    if let Question::Apart { a, b } = question
        && a == b
    {
        problems.push(Problem::new(
            "apart.opponent_id",
            "a player cannot be paired with himself",
        ));
    }
    if let Question::Pair { a, b, white } = question {
        if a == b {
            problems.push(Problem::new(
                "pair.opponent_id",
                "a player cannot be paired with himself",
            ));
        }
        if let Some(w) = white
            && w != a
            && w != b
        {
            problems.push(Problem::new(
                "pair.white_id",
                "the player with White must be one of the pair",
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(PairError::Invalid(Problems(problems)))
    }
}
