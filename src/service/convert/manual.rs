//! `ValidatePairing` (MP-1).
use super::Limits;
use super::pair::{PairFields, boards_to_proto, byes_to_proto, explanation_to_proto, pair_fields};
use super::tournament::Ids;
use super::tournament::Input;
use crate::check::manual::{ManualReport, Proposal};
use crate::model::validate::Problems;
use crate::model::{PlayerIdx, Tournament};
use crate::proto;
use crate::systems::{PairOptions, RoundPairing};

/// A validate request as a tournament, options and the proposal, or every problem in it.
pub fn validate_request(
    req: &proto::ValidatePairingRequest,
    limits: &Limits,
) -> Result<(Tournament, PairOptions, Proposal), Problems> {
    let fields = PairFields {
        input: req.input.as_ref().map(Input::from),
        trf_encoding: &req.trf_encoding,
        round: req.round,
        seed: req.seed,
        explanation_detail: proto::ExplanationDetail::Full as i32,
        system: req.system,
        absent_player_ids: &req.absent_player_ids,
        requested_byes: &req.requested_byes,
    };
    let (t, options, _) = pair_fields(&fields, limits)?;
    let ids = Ids::of(&t);
    let mut problems = Vec::new();
    let mut proposal = Proposal {
        complete: req.complete,
        compare_with_engine: req.compare_with_engine,
        ..Proposal::default()
    };
    for (i, b) in req.proposed.iter().enumerate() {
        let w = ids.resolve(
            &b.white_id,
            || format!("proposed[{i}].white_id"),
            &mut problems,
        );
        let k = ids.resolve(
            &b.black_id,
            || format!("proposed[{i}].black_id"),
            &mut problems,
        );
        if let (Some(w), Some(k)) = (w, k) {
            proposal.boards.push((w, k));
        }
    }
    for (i, id) in req.proposed_bye_ids.iter().enumerate() {
        if let Some(p) = ids.resolve(id, || format!("proposed_bye_ids[{i}]"), &mut problems) {
            proposal.byes.push(p);
        }
    }
    if problems.is_empty() {
        Ok((t, options, proposal))
    } else {
        Err(Problems(problems))
    }
}

/// A manual-pairing verdict as a proto response.
pub fn validate_response(t: &Tournament, report: &ManualReport) -> proto::ValidatePairingResponse {
    let id = |i: PlayerIdx| t.players.get(i).map(|pl| pl.id.clone()).unwrap_or_default();
    let pairing = RoundPairing {
        round: report.round,
        boards: report.boards.clone(),
        byes: report.byes.clone(),
        explanation: report.explanation.clone(),
        colourless: report.colourless,
        ..RoundPairing::default()
    };
    let violation = |v: &crate::check::manual::Violation| proto::Violation {
        rule_id: v.rule_id.clone(),
        message: v.message.clone(),
        player_ids: v.players.iter().map(|&p| id(p)).collect(),
        level: u32::from(v.level),
    };
    let engine = report.engine.clone().unwrap_or_default();
    let engine_pairing = RoundPairing {
        round: report.round,
        boards: engine.boards.clone(),
        byes: engine.byes.clone(),
        colourless: report.colourless,
        ..RoundPairing::default()
    };
    proto::ValidatePairingResponse {
        violations: report.violations.iter().map(violation).collect(),
        boards: boards_to_proto(t, &pairing),
        byes: byes_to_proto(t, &pairing),
        explanation: Some(explanation_to_proto(t, &pairing.explanation)),
        round: report.round,
        unpaired_ids: report.unpaired.iter().map(|&p| id(p)).collect(),
        engine_boards: boards_to_proto(t, &engine_pairing),
        engine_byes: byes_to_proto(t, &engine_pairing),
        engine_differences: engine.differences.iter().map(violation).collect(),
        mpa_comment: engine.trf_comment,
        warnings: report.warnings.iter().map(violation).collect(),
    }
}
