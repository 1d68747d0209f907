//! A proposed TEAM pairing checked against C.04.6's absolute rules (`ValidatePairing`,
//! `swisspair validate` on a team event paired by this system). A proposed board names two
//! teams by any of their members, a proposed bye the team of its player. The rules:
//! - art. 2.1.1 [C1]: two teams meet at most once (a match forfeited on every board was not
//!   played, art. 1.6.1, and is no meeting); forbidden pairs (CG-10) too;
//! - art. 2.1.2 [C2]: no PAB for a team that had one or won a match by forfeit;
//! - the PAB (art. 3.4): at most one, and exactly when the number of teams is odd;
//! - colours: none is absolute (Preface: basic rules 6 and 7 never apply); each proposed
//!   match gets its colours by art. 4 (`colour::allocate`), its boards by `line_up`.
//!
//! With `complete`, the teams the proposal leaves out are paired by the system.
use super::{colour, line_up, state, with_options};
use crate::model::PlayerIdx;
use crate::systems::manual::{ManualReport, Proposal, Violation};
use crate::systems::{PairError, PairOptions, RoundToPair, System};

pub(crate) fn validate(
    t: &crate::model::Tournament,
    proposal: &Proposal,
    options: &PairOptions,
    system_options: &super::Options,
) -> Result<ManualReport, PairError> {
    let mut round = RoundToPair::prepare(t, options)?;
    round.require_results()?;
    round.tournament = with_options(&round.tournament, system_options);
    // SEP-1 in a team event (SEP-6): the groups of teams kept apart become forbidden groups
    // of their members for this round, as the pipeline's `prepare` makes them for a pairing.
    let separated = round.tournament.separated_groups(round.number);
    let number = round.number;
    round
        .tournament
        .forbidden_pairings
        .extend(separated.iter().map(|g| crate::model::ForbiddenPairing {
            players: g.players.clone(),
            first_round: Some(number),
            last_round: Some(number),
        }));
    let field = state::build(&round, system_options.acceleration)?;
    let tour = &round.tournament;
    let team_of = tour.team_of_players();
    let id = |p: PlayerIdx| round.id(p).to_string();
    let mut report = ManualReport {
        round: round.number,
        ..ManualReport::default()
    };
    let mut violations: Vec<Violation> = Vec::new();
    let mut violation = |rule: &str, message: String, players: Vec<PlayerIdx>| {
        violations.push(Violation {
            rule_id: rule.to_string(),
            message,
            players,
            level: crate::systems::manual::level::of(rule),
        });
    };
    let mut seen = vec![false; field.teams.len()];
    // The position in the field of a proposed player's team, once; a violation otherwise.
    let mut place = |p: PlayerIdx, violation: &mut dyn FnMut(&str, String, Vec<PlayerIdx>)| {
        let Some(team) = team_of.get(p).copied().flatten() else {
            violation("CG-6", format!("player {} is in no team", id(p)), vec![p]);
            return None;
        };
        let Some(pos) = field.position.get(team).copied().flatten() else {
            violation(
                "CG-6",
                format!(
                    "team {} is not to be paired in round {} (none of its players takes part)",
                    tour.team_tpn(team),
                    round.number
                ),
                vec![p],
            );
            return None;
        };
        if seen[pos] {
            violation(
                "MP-1",
                format!("team {} is proposed twice", tour.team_tpn(team)),
                vec![p],
            );
            return None;
        }
        seen[pos] = true;
        Some(pos)
    };
    report.explanation.group("proposed matches");
    let mut warnings = Vec::new();
    // A proposal may list every board of a match (as `Pair` answers it): boards naming the
    // same two teams again are the same match, not a second proposal of those teams; a bye
    // may likewise name several players of the PAB team.
    let team_key = |p: PlayerIdx| team_of.get(p).copied().flatten();
    let mut matches_named = std::collections::HashSet::new();
    let boards: Vec<(PlayerIdx, PlayerIdx)> = proposal
        .boards
        .iter()
        .copied()
        .filter(|&(a, b)| match (team_key(a), team_key(b)) {
            (Some(ta), Some(tb)) if ta != tb => matches_named.insert((ta.min(tb), ta.max(tb))),
            _ => true,
        })
        .collect();
    let mut byes_named = std::collections::HashSet::new();
    let byes: Vec<PlayerIdx> = proposal
        .byes
        .iter()
        .copied()
        .filter(|&p| team_key(p).is_none_or(|tm| byes_named.insert(tm)))
        .collect();
    for &(a, b) in &boards {
        let pa = place(a, &mut violation);
        let pb = place(b, &mut violation);
        let (Some(pa), Some(pb)) = (pa, pb) else {
            continue;
        };
        let (ta, tb) = (&field.teams[pa], &field.teams[pb]);
        if ta.met.contains(&tb.team) {
            violation(
                "C.04.6 art. 2.1.1",
                format!("[C1] teams {} and {} have already met", ta.tpn, tb.tpn),
                vec![a, b],
            );
        } else if let Some(g) = separated.iter().find(|g| {
            let has = |team| {
                tour.teams.get(team).is_some_and(|x: &crate::model::Team| {
                    x.members.iter().any(|m| g.players.contains(m))
                })
            };
            has(ta.team) && has(tb.team)
        }) {
            violation(
                "SEP-1",
                format!(
                    "teams {} and {} are both in {} {:?}, kept apart by an absolute separation",
                    ta.tpn,
                    tb.tpn,
                    tour.separations
                        .get(g.separation)
                        .map_or("a group", |s| s.key.name()),
                    g.name
                ),
                vec![a, b],
            );
        } else if !field.can_meet(pa, pb) {
            violation(
                "CG-10",
                format!("teams {} and {} are a forbidden pairing", ta.tpn, tb.tpn),
                vec![a, b],
            );
        }
        let (w, bl, rule) = colour::allocate(&field, pa, pb);
        let (tw, tbl) = (&field.teams[w], &field.teams[bl]);
        report.explanation.step(
            rule,
            format!(
                "team {} has White on board 1 against team {}",
                tw.tpn, tbl.tpn
            ),
            Vec::new(),
        );
        report.boards.extend(line_up(
            tour,
            round.number,
            &round.participants,
            tw.team,
            tbl.team,
            &mut warnings,
        ));
    }
    let mut pab_teams = Vec::new();
    for &p in &byes {
        let Some(pos) = place(p, &mut violation) else {
            continue;
        };
        let team = &field.teams[pos];
        if team.no_pab {
            violation(
                "C.04.6 art. 2.1.2",
                format!(
                    "[C2] team {} already had the PAB or won a match by forfeit",
                    team.tpn
                ),
                vec![p],
            );
        }
        report.explanation.step(
            "C.04.6 art. 3.4",
            format!("team {} gets the pairing-allocated bye", team.tpn),
            vec![p],
        );
        pab_teams.push(p);
    }
    if pab_teams.len() > 1 {
        violation(
            "C.04.6 art. 3.4",
            format!(
                "{} teams proposed for the PAB: a round has at most one",
                pab_teams.len()
            ),
            pab_teams.clone(),
        );
    }
    // The teams the proposal leaves out, as their players taking part.
    let left_teams: Vec<usize> = (0..field.teams.len()).filter(|&i| !seen[i]).collect();
    let mut left_players: Vec<PlayerIdx> = round
        .participants
        .iter()
        .copied()
        .filter(|p| {
            team_of
                .get(*p)
                .copied()
                .flatten()
                .and_then(|tm| field.position.get(tm).copied().flatten())
                .is_some_and(|pos| !seen[pos])
        })
        .collect();
    let mut left_count = left_teams.len();
    let mut pab_count = pab_teams.len();
    if proposal.complete && !left_teams.is_empty() {
        let mut rest = round.clone();
        rest.participants = left_players.clone();
        match super::TeamSwiss.pair(&rest, system_options) {
            Ok(completion) => {
                report.explanation.group("completion");
                report
                    .explanation
                    .groups
                    .extend(completion.explanation.groups);
                report.boards.extend(completion.boards);
                if completion.teams.as_ref().is_some_and(|x| x.pab.is_some()) {
                    pab_count += 1;
                }
                left_players.clear();
                left_count = 0;
            }
            Err(PairError::NoLegalPairing { rule, message, .. }) => violation(
                &rule,
                format!("the rest cannot be completed: {message}"),
                left_players.clone(),
            ),
            Err(e) => return Err(e),
        }
    }
    if left_count == 0 && pab_count != field.teams.len() % 2 {
        violation(
            "C.04.6 art. 3.4",
            format!(
                "{} teams are to be paired: a pairing-allocated bye is needed exactly when that number is odd",
                field.teams.len()
            ),
            pab_teams.clone(),
        );
    }
    report.violations = violations;
    report.unpaired = left_players;
    report.explanation = std::mem::take(&mut report.explanation).filtered(options.detail);
    Ok(report)
}
