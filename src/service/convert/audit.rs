//! `Audit` and `AuditStream`: requests and responses. The work is [`crate::audit`].
use tonic::Status;

use super::Limits;
use super::enums::{system_field, system_to_proto};
use super::tournament::options_from_proto;
use crate::audit::{self, AuditOptions, AuditReport, FindingKind, Unreadable};
use crate::model::validate::{Problem, Problems};
use crate::proto;
use crate::service::errors::invalid;
use crate::standings::Edition;

/// The report's text and the audit's options, or every problem of the request.
pub fn audit_request(req: &proto::AuditRequest) -> Result<(String, AuditOptions), Problems> {
    let mut problems = Vec::new();
    let text = match &req.input {
        Some(proto::audit_request::Input::Trf(text)) => Some(text.clone()),
        Some(proto::audit_request::Input::TrfBytes(bytes)) => {
            crate::service::trf_input::decode_bytes(bytes, &req.trf_encoding, &mut problems)
        }
        None => {
            problems.push(Problem::new("input", "give the report as trf or trf_bytes"));
            None
        }
    };
    let system = system_field(req.system, &mut problems);
    let options = options_from_proto(req.options.as_ref(), &mut problems);
    let tie_break_edition = match proto::TieBreakEdition::try_from(req.tie_break_edition) {
        Ok(proto::TieBreakEdition::Unspecified) => None,
        Ok(proto::TieBreakEdition::TieBreakEdition2024) => Some(Edition::V2024),
        Ok(proto::TieBreakEdition::TieBreakEdition2026) => Some(Edition::V2026),
        Err(_) => {
            problems.push(Problem::new(
                "tie_break_edition",
                format!("unknown edition {}", req.tie_break_edition),
            ));
            None
        }
    };
    match text {
        Some(text) if problems.is_empty() => Ok((
            text,
            AuditOptions {
                system,
                options,
                seed: req.seed,
                tie_break_edition,
            },
        )),
        _ => Err(Problems(problems)),
    }
}

/// Audits the request's report: `INVALID_ARGUMENT` for a bad request or a report over the
/// server's player limit; a report the audit cannot read is a verdict (`UNREADABLE`).
pub fn answer(req: &proto::AuditRequest, limits: &Limits) -> Result<proto::AuditResponse, Status> {
    let (text, options) = audit_request(req).map_err(|p| invalid(&p))?;
    let outcome = match audit::read(&text) {
        Ok(input) => {
            let mut problems = Vec::new();
            limits.check_players(
                input.document.tournament.players.len(),
                "trf",
                &mut problems,
            );
            if !problems.is_empty() {
                return Err(invalid(&Problems(problems)));
            }
            Ok(audit::audit(&input, &options))
        }
        Err(e) => Err(e),
    };
    Ok(audit_response(&req.name, &outcome))
}

/// A verdict as a response.
pub fn audit_response(
    name: &str,
    outcome: &Result<AuditReport, Unreadable>,
) -> proto::AuditResponse {
    let r = match outcome {
        Ok(r) => r,
        Err(e) => return unreadable(name, &e.0),
    };
    proto::AuditResponse {
        name: name.to_string(),
        verdict: if r.is_clean() {
            proto::AuditVerdict::Clean
        } else {
            proto::AuditVerdict::Findings
        } as i32,
        findings: r
            .findings
            .iter()
            .map(|f| proto::AuditFinding {
                kind: kind_to_proto(f.kind) as i32,
                round: f.round.unwrap_or(0),
                player_ids: f.players.clone(),
                rule_id: f.rule_id.clone(),
                message: f.message.clone(),
            })
            .collect(),
        counts: r
            .counts()
            .into_iter()
            .map(|(k, n)| (k.name().to_string(), n as u32))
            .collect(),
        system: r.system.map_or(0, |s| system_to_proto(s) as i32),
        rule_set: r.rule_set.clone(),
        players: r.players as u32,
        rounds: r.rounds,
        rounds_repaired: r.rounds_repaired,
        points_checked: r.points_checked,
        ranks_checked: r.ranks_checked,
        tie_breaks: r.tie_breaks.clone(),
        notes: r.notes.clone(),
        error: String::new(),
        engine_version: crate::ENGINE_VERSION.to_string(),
        norms: r
            .norms
            .iter()
            .flat_map(|n| {
                n.checks
                    .iter()
                    .map(|c| super::registry::norm_check(&n.document, &n.options, c))
            })
            .collect(),
    }
}

/// The verdict on a report that could not be audited.
pub fn unreadable(name: &str, why: &str) -> proto::AuditResponse {
    proto::AuditResponse {
        name: name.to_string(),
        verdict: proto::AuditVerdict::Unreadable as i32,
        error: why.to_string(),
        engine_version: crate::ENGINE_VERSION.to_string(),
        ..proto::AuditResponse::default()
    }
}

pub fn kind_to_proto(kind: FindingKind) -> proto::AuditFindingKind {
    use proto::AuditFindingKind as K;
    match kind {
        FindingKind::Record => K::Record,
        FindingKind::Rounds => K::Rounds,
        FindingKind::NotRepaired => K::NotRepaired,
        FindingKind::Pairs => K::Pairs,
        FindingKind::Colours => K::Colours,
        FindingKind::Bye => K::Bye,
        FindingKind::Unpairable => K::Unpairable,
        FindingKind::Points => K::Points,
        FindingKind::Rank => K::Rank,
        FindingKind::Edition => K::Edition,
    }
}
