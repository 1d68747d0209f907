//! "Why not?" about a team event paired by the Swiss Team system (C.04.6): the system
//! pairs teams, so every question is about teams, each named by any of its members (as
//! `ValidatePairing` names them; the CLI by team pairing number). Answers name teams by
//! TPN and list each by its first rostered member.
//!
//! - **pair**: team A against team B. Impossible when they met in a played match (art.
//!   2.1.1 [C1]) or are a forbidden pair (CG-10); otherwise the system's own optimum with
//!   the two teams kept from every other team (forbidden pairs of their members, which the
//!   team field reads as forbidden team pairs), compared in C.04.6's order
//!   ([`super::team_swiss`]). A colour asked for is the team's board-1 colour.
//! - **bye**: impossible for an even number of teams (art. 3.4) or a team that had the PAB
//!   or won a match by forfeit (art. 2.1.2 [C2]); otherwise the team kept from every other.
//! - **float**: the team kept from the teams outside its scoregroup (to stay) or inside it
//!   (to leave).
//! - **colour**: no colour is absolute (Preface: basic rules 6 and 7 never apply) and
//!   colours are allocated after the pairing (art. 4): the same matches either way, the
//!   article of art. 4.3 that decided is the answer.
//! - **pairing**: a whole proposed team pairing, checked as `ValidatePairing` checks it.
use std::collections::BTreeSet;

use super::{Asking, Verdict, VerdictKind, invalid};
use crate::check::manual::{self, Proposal, Violation};
use crate::model::{Colour, PlayerIdx, TeamIdx, team_rounds};
use crate::systems::System;
use crate::systems::team_swiss::compare::{self as team_swiss, matches, representative};
use crate::systems::team_swiss::state::Field;
use crate::systems::team_swiss::{TeamPairing, TeamRoundPairing};
use crate::systems::{PairError, RoundPairing};

type Answered = Result<(Option<RoundPairing>, Verdict), PairError>;

impl Asking<'_> {
    /// The team field of the round, or the error that says why there is none.
    fn team_field(&self) -> Result<Field, PairError> {
        // The Swiss Team system's options as it decodes them (the pipeline has checked them).
        let options = crate::systems::team_swiss::TeamSwiss.options(&self.round.tournament.options);
        team_swiss::field(self.round, &options).ok_or_else(|| {
            PairError::Internal(format!(
                "C.04.6: the team field of round {} could not be built",
                self.round.number
            ))
        })
    }

    fn team_tpn(&self, field: &Field, n: usize) -> u32 {
        field.teams[n].tpn
    }

    /// The position of the team `p` names; `field` names the request's field.
    fn team_at(&self, field: &Field, p: PlayerIdx, name: &str) -> Result<usize, PairError> {
        let t = &self.round.tournament;
        team_swiss::position(t, field, p).ok_or_else(|| {
            let message = match t.team_of_players().get(p).copied().flatten() {
                Some(team) => format!(
                    "team {} (of player {}) is not paired in round {}: none of its players takes part",
                    t.team_tpn(team),
                    self.name(p),
                    self.round.number
                ),
                None => format!(
                    "player {} is in no team: C.04.6 questions name teams by a member",
                    self.name(p)
                ),
            };
            invalid(name, message)
        })
    }

    fn rep(&self, field: &Field, n: usize) -> Vec<PlayerIdx> {
        representative(&self.round.tournament, field.teams[n].team)
            .into_iter()
            .collect()
    }

    /// Every other team paired this round, each by its first rostered member.
    fn other_teams(&self, field: &Field, except: &[usize]) -> Vec<PlayerIdx> {
        (0..field.teams.len())
            .filter(|n| !except.contains(n))
            .flat_map(|n| self.rep(field, n))
            .collect()
    }

    /// The round in which two teams met in a played match, from the team rounds.
    fn team_round_met(&self, a: TeamIdx, b: TeamIdx) -> Option<usize> {
        let rounds = team_rounds(&self.round.tournament).ok()?;
        rounds.iter().position(|r| {
            r.matches.iter().any(|m| {
                m.played && ((m.white == a && m.black == b) || (m.white == b && m.black == a))
            })
        })
    }

    /// The rounds in which a team had the PAB or won a match by forfeit (art. 2.1.2).
    fn team_pab_rounds(&self, team: TeamIdx) -> Vec<usize> {
        let Ok(rounds) = team_rounds(&self.round.tournament) else {
            return Vec::new();
        };
        rounds
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                r.pab == Some(team)
                    || r.matches.iter().any(|m| {
                        !m.played
                            && ((m.white == team && m.white_match_points > m.black_match_points)
                                || (m.black == team && m.black_match_points > m.white_match_points))
                    })
            })
            .map(|(i, _)| i + 1)
            .collect()
    }

    /// The absolute rules a team proposal breaks (`ValidatePairing`'s team check), with the
    /// round that makes it so.
    fn team_violations(&self, proposal: Proposal) -> Result<Vec<Violation>, PairError> {
        let report = manual::validate(self.t, self.resolved.id, &proposal, self.options)?;
        let t = &self.round.tournament;
        let team_of = t.team_of_players();
        let team = |p: PlayerIdx| team_of.get(p).copied().flatten();
        Ok(report
            .violations
            .into_iter()
            .map(|mut v| {
                if v.rule_id == "C.04.6 art. 2.1.1"
                    && let [a, b] = v.players[..]
                    && let (Some(ta), Some(tb)) = (team(a), team(b))
                    && let Some(r) = self.team_round_met(ta, tb)
                {
                    v.message = format!("{} (round {})", v.message, r + 1);
                }
                if v.rule_id == "C.04.6 art. 2.1.2"
                    && let [p] = v.players[..]
                    && let Some(tm) = team(p)
                {
                    super::cite_rounds(&mut v.message, self.team_pab_rounds(tm));
                }
                v
            })
            .collect())
    }

    /// Answers a question about a team event under the Swiss Team system.
    pub(super) fn team_answer(
        &self,
        question: &super::Question,
        answer: &RoundPairing,
    ) -> Answered {
        let field = self.team_field()?;
        use super::Question as Q;
        match question {
            Q::Pair { a, b, white } => self.team_pair(&field, *a, *b, *white, answer),
            Q::Bye(x) => self.team_bye(&field, *x, answer),
            Q::Float(x) => self.team_float(&field, *x, answer),
            Q::Colour(x, c) => self.team_colour(&field, *x, *c, answer),
            Q::Pairing(p) => self.team_pairing(p, answer),
            Q::Apart { a, b } => self.team_apart(&field, *a, *b, answer),
        }
    }

    /// Why two teams (named by any member) meet: the system's pairing with the two kept
    /// apart (a forbidden pair of their first members, which the team field reads as a
    /// forbidden team pair, CG-10), compared with the answer; the criterion on which it is
    /// worse made the match unavoidable (SEP-5/SEP-6 read the same way).
    fn team_apart(
        &self,
        field: &Field,
        a: PlayerIdx,
        b: PlayerIdx,
        answer: &RoundPairing,
    ) -> Answered {
        let ta = self.team_at(field, a, "apart.player_id")?;
        let tb = self.team_at(field, b, "apart.opponent_id")?;
        let (na, nb) = (self.team_tpn(field, ta), self.team_tpn(field, tb));
        if ta == tb {
            return Err(invalid(
                "apart.opponent_id",
                format!(
                    "players {} and {} are both of team {na}: a team never meets itself",
                    self.name(a),
                    self.name(b)
                ),
            ));
        }
        let t = &self.round.tournament;
        let (pairs, _) = matches(t, field, answer);
        let players = [self.rep(field, ta), self.rep(field, tb)].concat();
        if !pairs.contains(&(ta.min(tb), ta.max(tb))) {
            return Ok((
                None,
                self.already(
                    answer,
                    &players,
                    format!("team {na} and team {nb} do not meet in the answer"),
                ),
            ));
        }
        let (ra, rb) = (self.rep(field, ta), self.rep(field, tb));
        let forbid: Vec<(PlayerIdx, Vec<PlayerIdx>)> =
            ra.iter().map(|&r| (r, rb.clone())).collect();
        let what = format!("team {na} and team {nb} apart");
        let alt = match self.alternative(
            &forbid,
            &format!("keeps team {na} and team {nb} apart"),
            players.clone(),
        )? {
            Ok(p) => p,
            Err(v) => return Ok((None, v)),
        };
        let verdict = self.compare(answer, &alt, &what, &players);
        Ok((Some(alt), verdict))
    }

    fn team_pair(
        &self,
        field: &Field,
        a: PlayerIdx,
        b: PlayerIdx,
        white: Option<PlayerIdx>,
        answer: &RoundPairing,
    ) -> Answered {
        let ta = self.team_at(field, a, "pair.player_id")?;
        let tb = self.team_at(field, b, "pair.opponent_id")?;
        let (na, nb) = (self.team_tpn(field, ta), self.team_tpn(field, tb));
        if ta == tb {
            return Err(invalid(
                "pair.opponent_id",
                format!(
                    "players {} and {} are both of team {na}: a team cannot be paired with itself",
                    self.name(a),
                    self.name(b)
                ),
            ));
        }
        let white_team = match white {
            Some(w) => Some(self.team_at(field, w, "pair.white_id")?),
            None => None,
        };
        if let Some(w) = white_team
            && w != ta
            && w != tb
        {
            return Err(invalid(
                "pair.white_id",
                format!(
                    "team {} is not one of the pair (team {na} - team {nb}): the team with White must be one of them",
                    self.team_tpn(field, w)
                ),
            ));
        }
        let t = &self.round.tournament;
        let (pairs, _) = matches(t, field, answer);
        let players = [self.rep(field, ta), self.rep(field, tb)].concat();
        if pairs.contains(&(ta.min(tb), ta.max(tb))) {
            if let Some(w) = white_team
                && team_colour(field, answer, w) != Some(Colour::White)
                && let Some(p) = white
            {
                return self.team_colour(field, p, Colour::White, answer);
            }
            return Ok((
                None,
                self.verdict(
                    VerdictKind::AlreadySo,
                    "C.04.6 art. 3.3.2",
                    format!("team {na} - team {nb} is in the answer already"),
                    players,
                ),
            ));
        }
        let violations = self.team_violations(Proposal {
            boards: vec![(a, b)],
            ..Proposal::default()
        })?;
        if !violations.is_empty() {
            return Ok((None, self.impossible(violations)));
        }
        // CG-10 counts forbidden pairs as met: the two teams kept from every other team.
        let rest = self.other_teams(field, &[ta, tb]);
        let (ra, rb) = (self.rep(field, ta), self.rep(field, tb));
        let forbid: Vec<(PlayerIdx, Vec<PlayerIdx>)> = ra
            .iter()
            .chain(rb.iter())
            .map(|&r| (r, rest.clone()))
            .collect();
        let what = format!("team {na} - team {nb}");
        let mut alt =
            match self.alternative(&forbid, &format!("contains {what}"), players.clone())? {
                Ok(p) => p,
                Err(v) => return Ok((None, v)),
            };
        let (alt_pairs, _) = matches(t, field, &alt);
        if !alt_pairs.contains(&(ta.min(tb), ta.max(tb))) {
            return Ok((Some(alt), self.unreachable(answer, &what, &players)));
        }
        // The colours asked for: the match reversed when the system gave the others (no
        // colour is absolute, Preface; colours never part two pairings, art. 4 follows).
        if let Some(w) = white_team
            && team_colour(field, &alt, w) != Some(Colour::White)
        {
            reverse(field, &mut alt, ta, tb);
        }
        let what = match white_team {
            Some(w) => {
                let other = if w == ta { tb } else { ta };
                format!(
                    "team {} (White) - team {}",
                    self.team_tpn(field, w),
                    self.team_tpn(field, other)
                )
            }
            None => what,
        };
        let verdict = self.compare(answer, &alt, &what, &players);
        Ok((Some(alt), verdict))
    }

    fn team_bye(&self, field: &Field, x: PlayerIdx, answer: &RoundPairing) -> Answered {
        let tx = self.team_at(field, x, "bye_player_id")?;
        let nx = self.team_tpn(field, tx);
        let t = &self.round.tournament;
        let players = self.rep(field, tx);
        if matches(t, field, answer).1 == Some(tx) {
            return Ok((
                None,
                self.verdict(
                    VerdictKind::AlreadySo,
                    "C.04.6 art. 3.4",
                    format!("team {nx} has the pairing-allocated bye already"),
                    players,
                ),
            ));
        }
        if field.teams.len().is_multiple_of(2) {
            return Ok((
                None,
                self.verdict(
                    VerdictKind::Impossible,
                    "C.04.6 art. 3.4",
                    format!(
                        "{} teams are paired this round, an even number: no team gets the pairing-allocated bye",
                        field.teams.len()
                    ),
                    players,
                ),
            ));
        }
        let violations = self.team_violations(Proposal {
            byes: vec![x],
            ..Proposal::default()
        })?;
        if !violations.is_empty() {
            return Ok((None, self.impossible(violations)));
        }
        let rest = self.other_teams(field, &[tx]);
        let forbid: Vec<(PlayerIdx, Vec<PlayerIdx>)> =
            players.iter().map(|&r| (r, rest.clone())).collect();
        let what = format!("the bye for team {nx}");
        let alt = match self.alternative(
            &forbid,
            &format!("gives team {nx} the bye"),
            players.clone(),
        )? {
            Ok(p) => p,
            Err(v) => return Ok((None, v)),
        };
        if matches(t, field, &alt).1 != Some(tx) {
            return Ok((Some(alt), self.unreachable(answer, &what, &players)));
        }
        let verdict = self.compare(answer, &alt, &what, &players);
        Ok((Some(alt), verdict))
    }

    fn team_float(&self, field: &Field, x: PlayerIdx, answer: &RoundPairing) -> Answered {
        let tx = self.team_at(field, x, "float_player_id")?;
        let nx = self.team_tpn(field, tx);
        let t = &self.round.tournament;
        let mine = field.teams[tx].primary;
        let (pairs, pab) = matches(t, field, answer);
        let opponent = pairs.iter().find_map(|&(a, b)| {
            if a == tx {
                Some(b)
            } else if b == tx {
                Some(a)
            } else {
                None
            }
        });
        let floats = opponent.is_none_or(|o| field.teams[o].primary != mine);
        let others = (0..field.teams.len()).filter(|&n| n != tx);
        let group: Vec<usize> = others
            .clone()
            .filter(|&n| field.teams[n].primary == mine)
            .collect();
        let outside: Vec<usize> = others.filter(|&n| field.teams[n].primary != mine).collect();
        let players = self.rep(field, tx);
        let (kept_from, what) = if floats {
            let open: Vec<usize> = group
                .iter()
                .copied()
                .filter(|&n| field.can_meet(tx, n))
                .collect();
            if open.is_empty() {
                let mut all = players.clone();
                for &n in &group {
                    all.extend(self.rep(field, n));
                }
                if group.is_empty() {
                    return Ok((
                        None,
                        self.verdict(
                            VerdictKind::Impossible,
                            "C.04.1 art. 5",
                            format!(
                                "no other team paired this round has team {nx}'s score {mine}: it must float"
                            ),
                            all,
                        ),
                    ));
                }
                let met: Vec<String> = group
                    .iter()
                    .map(|&n| {
                        match self.team_round_met(field.teams[tx].team, field.teams[n].team) {
                            Some(r) => format!("team {} (round {})", field.teams[n].tpn, r + 1),
                            None => format!("team {} (forbidden pair)", field.teams[n].tpn),
                        }
                    })
                    .collect();
                return Ok((
                    None,
                    self.verdict(
                        VerdictKind::Impossible,
                        "C.04.6 art. 2.1.1",
                        format!(
                            "team {nx} has met or may not meet every other team with its score {mine}: {} ([C1])",
                            met.join(", ")
                        ),
                        all,
                    ),
                ));
            }
            (
                outside,
                format!("team {nx} staying in its {mine}-point scoregroup"),
            )
        } else {
            if outside.is_empty() {
                return Ok((
                    None,
                    self.verdict(
                        VerdictKind::Impossible,
                        "C.04.1 art. 5",
                        format!(
                            "every team paired this round has team {nx}'s score {mine}: it cannot float"
                        ),
                        players,
                    ),
                ));
            }
            (
                group,
                format!("team {nx} leaving its {mine}-point scoregroup"),
            )
        };
        let mut kept = Vec::new();
        for &n in &kept_from {
            kept.extend(self.rep(field, n));
        }
        let forbid: Vec<(PlayerIdx, Vec<PlayerIdx>)> =
            players.iter().map(|&r| (r, kept.clone())).collect();
        let alt = match self.alternative(&forbid, &format!("with {what}"), players.clone())? {
            Ok(p) => p,
            Err(v) => return Ok((None, v)),
        };
        // Kept from every team outside its scoregroup, it may still get the PAB (art. 3.4
        // chooses it before any scoregroup is paired): the float it cannot lose is the bye's.
        if floats && matches(t, field, &alt).1 == Some(tx) {
            let verdict = self.verdict(
                VerdictKind::Procedure,
                "C.04.6 art. 3.4",
                format!(
                    "kept from every team outside its {mine}-point scoregroup, team {nx} still gets the pairing-allocated bye: art. 3.4 gives it before any scoregroup is paired{}",
                    if pab == Some(tx) {
                        ""
                    } else {
                        " (ask about the bye)"
                    }
                ),
                players,
            );
            return Ok((Some(alt), verdict));
        }
        let verdict = self.compare(answer, &alt, &what, &players);
        Ok((Some(alt), verdict))
    }

    fn team_colour(
        &self,
        field: &Field,
        x: PlayerIdx,
        c: Colour,
        answer: &RoundPairing,
    ) -> Answered {
        let tx = self.team_at(field, x, "colour.player_id")?;
        let nx = self.team_tpn(field, tx);
        let players = self.rep(field, tx);
        let Some((m, has)) = team_match(field, answer, tx) else {
            return Ok((
                None,
                self.verdict(
                    VerdictKind::Impossible,
                    "C.04.6 art. 3.4",
                    format!(
                        "team {nx} has no match this round (the pairing-allocated bye): ask about the bye or a pair"
                    ),
                    players,
                ),
            ));
        };
        let other = if field.position.get(m.white).copied().flatten() == Some(tx) {
            m.black
        } else {
            m.white
        };
        let no = field.position.get(other).copied().flatten();
        let mut both = players.clone();
        if let Some(o) = no {
            both.extend(self.rep(field, o));
        }
        let ny = self.round.tournament.team_tpn(other);
        let rule = m.colour_rule.clone();
        if has == c {
            return Ok((
                None,
                self.verdict(
                    VerdictKind::AlreadySo,
                    &rule,
                    format!("team {nx} has {c} on board 1 already against team {ny} ({rule})"),
                    both,
                ),
            ));
        }
        let mut alt = answer.clone();
        alt.explanation = crate::systems::Explanation::default();
        if let Some(o) = no {
            reverse(field, &mut alt, tx, o);
        }
        // Colours are allocated after the pairing (art. 4) and none is absolute (Preface):
        // the same matches either way, so the article of art. 4.3 decided.
        let verdict = match self.compare(answer, &alt, &format!("team {nx} with {c}"), &both) {
            v if v.kind == VerdictKind::Worse || v.kind == VerdictKind::Better => v,
            _ => self.verdict(
                VerdictKind::Tie,
                &rule,
                format!(
                    "team {nx} - team {ny} is the same match either way; no colour is absolute (C.04.6 Preface) and {rule} gives team {nx} {has} on board 1"
                ),
                both,
            ),
        };
        Ok((Some(alt), verdict))
    }

    fn team_pairing(&self, proposal: &Proposal, answer: &RoundPairing) -> Answered {
        let report = manual::validate(self.t, self.resolved.id, proposal, self.options)?;
        if !report.violations.is_empty() {
            return Ok((None, self.impossible(report.violations)));
        }
        if !report.unpaired.is_empty() {
            return Err(invalid(
                "pairing",
                format!(
                    "the proposed pairing leaves the teams of {} unpaired: give a whole pairing",
                    self.names(&report.unpaired)
                ),
            ));
        }
        let t = &self.round.tournament;
        let team_of = t.team_of_players();
        let team = |p: PlayerIdx| team_of.get(p).copied().flatten();
        let mut seen = BTreeSet::new();
        let mut team_matches = Vec::new();
        for &(a, b) in &proposal.boards {
            if let (Some(x), Some(y)) = (team(a), team(b))
                && x != y
                && seen.insert((x.min(y), x.max(y)))
            {
                team_matches.push(TeamPairing {
                    white: x,
                    black: y,
                    boards: Vec::new(),
                    colour_rule: String::new(),
                });
            }
        }
        let alt = RoundPairing {
            round: self.round.number,
            boards: report.boards,
            teams: Some(TeamRoundPairing {
                matches: team_matches,
                pab: proposal.byes.first().and_then(|&p| team(p)),
                ..TeamRoundPairing::default()
            }),
            ..RoundPairing::default()
        };
        let field = self.team_field()?;
        if matches(t, &field, answer) == matches(t, &field, &alt) {
            return Ok((
                Some(alt),
                self.verdict(
                    VerdictKind::AlreadySo,
                    "C.04.6 art. 3.3.2",
                    "the proposed pairing has the answer's matches and team PAB".to_string(),
                    Vec::new(),
                ),
            ));
        }
        let verdict = self.compare(answer, &alt, "the proposed pairing", &[]);
        Ok((Some(alt), verdict))
    }
}

/// The match of team `n` (a position) in a pairing, and its board-1 colour there.
fn team_match(field: &Field, p: &RoundPairing, n: usize) -> Option<(TeamPairing, Colour)> {
    let team = field.teams.get(n)?.team;
    let m = p
        .teams
        .as_ref()?
        .matches
        .iter()
        .find(|m| m.white == team || m.black == team)?;
    let colour = if m.white == team {
        Colour::White
    } else {
        Colour::Black
    };
    Some((m.clone(), colour))
}

fn team_colour(field: &Field, p: &RoundPairing, n: usize) -> Option<Colour> {
    team_match(field, p, n).map(|(_, c)| c)
}

/// Reverses the colours of the match of teams `a` and `b` (positions): its team colours and
/// every board of it.
fn reverse(field: &Field, p: &mut RoundPairing, a: usize, b: usize) {
    let (ta, tb) = (field.teams[a].team, field.teams[b].team);
    let Some(teams) = p.teams.as_mut() else {
        return;
    };
    for m in &mut teams.matches {
        if (m.white == ta && m.black == tb) || (m.white == tb && m.black == ta) {
            std::mem::swap(&mut m.white, &mut m.black);
            for board in &mut m.boards {
                std::mem::swap(&mut board.white, &mut board.black);
            }
            let reversed: Vec<_> = m.boards.clone();
            for x in &mut p.boards {
                if let Some(r) = reversed
                    .iter()
                    .find(|r| r.white == x.black && r.black == x.white)
                {
                    *x = *r;
                }
            }
        }
    }
}
