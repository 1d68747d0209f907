//! `Check`: requests and responses.
use super::Limits;
use super::enums::system_field;
use super::pair::{boards_to_proto, byes_to_proto};
use super::tournament::{Input, snapshot_of};
use crate::check::{CheckAnswer, CheckOptions};
use crate::model::Tournament;
use crate::model::validate::Problems;
use crate::proto;

/// A check request as a tournament and options, or every problem in it.
pub fn check_request(
    req: &proto::CheckRequest,
    limits: &Limits,
) -> Result<(Tournament, CheckOptions, Vec<crate::systems::Warning>), Problems> {
    let mut problems = Vec::new();
    let (t, warnings) = snapshot_of(
        req.input.as_ref().map(Input::from),
        &req.trf_encoding,
        limits,
        &mut problems,
    );
    let system = system_field(req.system, &mut problems);
    if !problems.is_empty() {
        return Err(Problems(problems));
    }
    let options = CheckOptions {
        system,
        first_round: (req.first_round > 0).then_some(req.first_round),
        last_round: (req.last_round > 0).then_some(req.last_round),
        seed: req.seed,
        checklist: false,
        other_readings: req.other_readings,
    };
    Ok((t, options, warnings))
}

/// A check report as a proto response; `reader` are the TRF reader's warnings (the points
/// column against the results, what it assumed), reported as `Pair` and `Audit` report
/// them.
pub fn check_response(
    answer: &CheckAnswer,
    reader: &[crate::systems::Warning],
) -> proto::CheckResponse {
    let t = &answer.tournament;
    let report = &answer.report;
    let mut warnings = super::pair::warnings_to_proto(t, reader);
    // What the file left out and the check inferred (XXC, XXR).
    warnings.extend(report.warnings.iter().map(|w| proto::Warning {
        code: "INFERRED_SETTING".to_string(),
        rule_id: String::new(),
        message: w.clone(),
        player_ids: Vec::new(),
    }));
    proto::CheckResponse {
        warnings,
        passed: report.passed() as u32,
        failed: report.failed() as u32,
        rounds: report
            .rounds
            .iter()
            .map(|r| proto::RoundCheck {
                round: r.round,
                matches: r.matches(),
                differences: r.differences.clone(),
                expected: r
                    .engine
                    .as_ref()
                    .map(|e| boards_to_proto(t, e))
                    .unwrap_or_default(),
                expected_byes: r
                    .engine
                    .as_ref()
                    .map(|e| byes_to_proto(t, e))
                    .unwrap_or_default(),
                error: r.error.clone().unwrap_or_default(),
                follows: r.follows.map(|f| f.other.to_string()).unwrap_or_default(),
                follows_option: r
                    .follows
                    .map(|f| format!("{}={}", f.option, f.value))
                    .unwrap_or_default(),
            })
            .collect(),
    }
}
