//! The pairings of a report: every round re-paired by the checker's pipeline
//! ([`crate::check::run`]) under the system in force for the file, each difference a
//! finding with its players and the rule the system's explanation cites for them.
use std::collections::BTreeSet;

use super::read::AuditInput;
use super::{AuditReport, Finding, FindingKind};
use crate::check::{CheckOptions, RoundCheck};
use crate::model::{PlayerIdx, Round, Tournament};
use crate::systems::{PairError, RoundPairing};

pub(super) fn audit_pairings(
    t: &Tournament,
    input: &AuditInput,
    options: &CheckOptions,
    report: &mut AuditReport,
) {
    let not_repaired = |report: &mut AuditReport, rule: &str, message: String| {
        report.findings.push(Finding {
            kind: FindingKind::NotRepaired,
            round: None,
            players: Vec::new(),
            rule_id: rule.to_string(),
            message,
        });
    };
    if input.player_removed {
        not_repaired(
            report,
            "TRF 001",
            "no round re-paired: a player line was set aside".to_string(),
        );
        return;
    }
    let last = input.damaged_from_round.map(|r| r - 1);
    if let Some(damaged) = input.damaged_from_round {
        not_repaired(
            report,
            "TRF 001",
            format!(
                "rounds {damaged} to {} not re-paired: an entry of round {damaged} was set aside",
                report.rounds.max(damaged)
            ),
        );
        if damaged <= 1 {
            return;
        }
    }
    let options = CheckOptions {
        last_round: last,
        ..options.clone()
    };
    let answer = match crate::check::run(t, &options) {
        Ok(answer) => answer,
        Err(e) => {
            let rule = match &e {
                PairError::NoSystem(_) | PairError::NotImplemented(..) => "TRF 192",
                _ => "",
            };
            not_repaired(report, rule, format!("no round re-paired: {e}"));
            return;
        }
    };
    report.system = Some(answer.system);
    report.rule_set = answer.rule_set.to_string();
    report.notes.extend(
        answer
            .report
            .warnings
            .iter()
            .map(|w| format!("inferred for the re-pairing: {w}")),
    );
    for rc in &answer.report.rounds {
        report.rounds_repaired += 1;
        match rc.follows {
            // The round is the other reading's pairing: one finding of its own kind, not
            // its differences under the reading the file chooses (AU-2).
            Some(reading) => report.findings.push(Finding {
                kind: FindingKind::Edition,
                round: Some(rc.round),
                players: Vec::new(),
                rule_id: reading.rule_id.to_string(),
                message: format!(
                    "round {} follows {}: it differs under {}, the reading applied, and matches the record re-paired with {}={}",
                    rc.round, reading.other, reading.current, reading.option, reading.value
                ),
            }),
            None => report.findings.extend(round_findings(t, rc)),
        }
    }
}

/// The findings of one re-paired round.
fn round_findings(t: &Tournament, rc: &RoundCheck) -> Vec<Finding> {
    let mut out = Vec::new();
    if let Some(error) = &rc.error {
        let rule = error
            .split_once("no legal pairing (")
            .and_then(|(_, rest)| rest.split_once(')'))
            .map_or("", |(rule, _)| rule);
        out.push(Finding {
            kind: FindingKind::Unpairable,
            round: Some(rc.round),
            players: Vec::new(),
            rule_id: rule.to_string(),
            message: format!("the system cannot pair round {}: {error}", rc.round),
        });
        return out;
    }
    let (Some(engine), Some(recorded)) = (&rc.engine, t.round(rc.round)) else {
        return out;
    };
    if engine.teams.is_none() {
        out.extend(compare(t, rc.round, recorded, engine));
    }
    // A team event's differences (team pairs), the later games of a match (Double-Swiss,
    // "round N: ..."), and anything the comparison above did not name: as the checker says.
    let structured = !out.is_empty();
    for d in &rc.differences {
        let later = d
            .strip_prefix("round ")
            .and_then(|rest| rest.split_once(':'))
            .and_then(|(n, _)| n.trim().parse::<u32>().ok());
        if structured && later.is_none() {
            continue;
        }
        let kind = if d.contains("colours") {
            FindingKind::Colours
        } else if d.contains("bye") {
            FindingKind::Bye
        } else {
            FindingKind::Pairs
        };
        out.push(Finding {
            kind,
            round: Some(later.unwrap_or(rc.round)),
            players: Vec::new(),
            rule_id: document(engine),
            message: d.clone(),
        });
    }
    out
}

/// The recorded round against the system's pairing of it: pairs, colours, the
/// pairing-allocated bye.
fn compare(t: &Tournament, round: u32, recorded: &Round, engine: &RoundPairing) -> Vec<Finding> {
    let id = |p: PlayerIdx| t.players.get(p).map_or("?".to_string(), |pl| pl.id.clone());
    let rec: BTreeSet<(PlayerIdx, PlayerIdx)> =
        recorded.games.iter().map(|g| (g.white, g.black)).collect();
    let eng: BTreeSet<(PlayerIdx, PlayerIdx)> =
        engine.boards.iter().map(|b| (b.white, b.black)).collect();
    let finding = |kind, players: &[PlayerIdx], message: String| Finding {
        kind,
        round: Some(round),
        players: players.iter().map(|&p| id(p)).collect(),
        rule_id: rule_for(engine, players),
        message,
    };
    let mut out = Vec::new();
    for &(w, b) in eng.difference(&rec) {
        if rec.contains(&(b, w)) {
            if !engine.colourless {
                out.push(finding(
                    FindingKind::Colours,
                    &[w, b],
                    format!(
                        "the system gives {} White against {}, the record the reverse",
                        id(w),
                        id(b)
                    ),
                ));
            }
        } else {
            out.push(finding(
                FindingKind::Pairs,
                &[w, b],
                format!(
                    "the system pairs {} - {}, the record does not",
                    id(w),
                    id(b)
                ),
            ));
        }
    }
    for &(w, b) in rec.difference(&eng) {
        if !eng.contains(&(b, w)) {
            out.push(finding(
                FindingKind::Pairs,
                &[w, b],
                format!(
                    "the record pairs {} - {}, the system does not",
                    id(w),
                    id(b)
                ),
            ));
        }
    }
    let rec_bye: BTreeSet<PlayerIdx> = recorded
        .byes
        .iter()
        .filter(|b| b.kind.is_pairing_allocated())
        .map(|b| b.player)
        .collect();
    let eng_bye: BTreeSet<PlayerIdx> = engine
        .byes
        .iter()
        .filter(|b| b.kind.is_pairing_allocated())
        .map(|b| b.player)
        .collect();
    if rec_bye != eng_bye {
        let names = |s: &BTreeSet<PlayerIdx>| {
            if s.is_empty() {
                "nobody".to_string()
            } else {
                s.iter().map(|&p| id(p)).collect::<Vec<_>>().join(", ")
            }
        };
        let players: Vec<PlayerIdx> = eng_bye.symmetric_difference(&rec_bye).copied().collect();
        out.push(finding(
            FindingKind::Bye,
            &players,
            format!(
                "pairing-allocated bye: the system gives {}, the record {}",
                names(&eng_bye),
                names(&rec_bye)
            ),
        ));
    }
    out
}

/// The rule the system's explanation cites for these players: the narrowest step naming
/// them all (a pair's "C.04.3 4.2"), else naming the first of them, else the system's
/// document.
fn rule_for(engine: &RoundPairing, players: &[PlayerIdx]) -> String {
    let steps = || {
        engine
            .explanation
            .groups
            .iter()
            .flat_map(|g| g.steps.iter())
    };
    let narrowest = |wanted: &[PlayerIdx]| {
        steps()
            .filter(|s| !wanted.is_empty() && wanted.iter().all(|p| s.players.contains(p)))
            .min_by_key(|s| s.players.len())
            .map(|s| s.rule_id.clone())
    };
    narrowest(players)
        .or_else(|| narrowest(players.get(..1).unwrap_or(&[])))
        .unwrap_or_else(|| document(engine))
}

/// The document the system's rule ids cite (`C.04.3` of `C.04.3 1.2`).
fn document(engine: &RoundPairing) -> String {
    engine
        .explanation
        .groups
        .iter()
        .flat_map(|g| g.steps.iter())
        .next()
        .and_then(|s| s.rule_id.split_whitespace().next())
        .unwrap_or("")
        .to_string()
}
