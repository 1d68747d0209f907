//! Backgammon's `PairProvisional` (BG-8) and `PairFinals` (BG-9).
use super::Limits;
use super::pair::{PairFields, board_to_proto, explanation_to_proto, pair_fields};
use super::tournament::Input;
use crate::model::validate::Problems;
use crate::model::{PlayerIdx, Tournament};
use crate::proto;
use crate::systems::PairOptions;
use crate::systems::backgammon::provisional::{Slot, SlotKind};
use crate::systems::backgammon::{Finals, Outcome, ProvisionalPairing};

/// A provisional request as a tournament and options (the same checks as Pair's).
pub fn provisional_request(
    req: &proto::PairProvisionalRequest,
    limits: &Limits,
) -> Result<(Tournament, PairOptions, Vec<crate::systems::Warning>), Problems> {
    pair_fields(
        &PairFields {
            input: req.input.as_ref().map(Input::from),
            trf_encoding: &req.trf_encoding,
            round: req.round,
            seed: req.seed,
            explanation_detail: req.explanation_detail,
            system: req.system,
            absent_player_ids: &[],
            requested_byes: &[],
        },
        limits,
    )
}

/// A finals request as a tournament and options.
pub fn finals_request(
    req: &proto::PairFinalsRequest,
    limits: &Limits,
) -> Result<(Tournament, PairOptions, Vec<crate::systems::Warning>), Problems> {
    pair_fields(
        &PairFields {
            input: req.input.as_ref().map(Input::from),
            trf_encoding: &req.trf_encoding,
            round: 0,
            seed: req.seed,
            explanation_detail: req.explanation_detail,
            system: req.system,
            absent_player_ids: &[],
            requested_byes: &[],
        },
        limits,
    )
}

fn placeholder_to_proto(t: &Tournament, slot: &Slot) -> proto::Placeholder {
    let id = |i: PlayerIdx| t.players.get(i).map(|pl| pl.id.clone()).unwrap_or_default();
    proto::Placeholder {
        kind: match slot.kind {
            SlotKind::Winner => proto::PlaceholderKind::WinnerOfBoard,
            SlotKind::Loser => proto::PlaceholderKind::LoserOfBoard,
            SlotKind::Known => proto::PlaceholderKind::Player,
        } as i32,
        round1_board: slot.board,
        candidate_ids: slot.players.iter().map(|&p| id(p)).collect(),
        label: slot.label(id),
    }
}

/// The early draw of round 2 as a proto response.
pub fn provisional_response(
    t: &Tournament,
    p: &ProvisionalPairing,
    rule_set: &str,
) -> proto::PairProvisionalResponse {
    proto::PairProvisionalResponse {
        round: p.round,
        boards: p
            .boards
            .iter()
            .enumerate()
            .map(|(i, (a, b))| proto::ProvisionalBoard {
                number: i as u32 + 1,
                first: Some(placeholder_to_proto(t, a)),
                second: Some(placeholder_to_proto(t, b)),
            })
            .collect(),
        absent_opponent: p
            .absent
            .iter()
            .map(|s| placeholder_to_proto(t, s))
            .collect(),
        explanation: Some(explanation_to_proto(t, &p.explanation)),
        warnings: super::pair::warnings_to_proto(t, &p.warnings),
        engine_version: crate::ENGINE_VERSION.to_string(),
        system: proto::PairingSystem::Backgammon as i32,
        rule_set: rule_set.to_string(),
        total_rounds: p.total_rounds,
        match_length: p.match_length.unwrap_or(0),
        seed: p.seed,
    }
}

/// The final phase as a proto response.
pub fn finals_response(t: &Tournament, f: &Finals, rule_set: &str) -> proto::PairFinalsResponse {
    let id = |i: PlayerIdx| t.players.get(i).map(|pl| pl.id.clone()).unwrap_or_default();
    let (outcome, final_board, champion) = match f.outcome {
        Outcome::Final(a, b) => (
            proto::FinalOutcome::Final,
            Some(board_to_proto(t, 1, a, b, false)),
            String::new(),
        ),
        Outcome::Champion(p) => (proto::FinalOutcome::Champion, None, id(p)),
        Outcome::NoUndefeated => (proto::FinalOutcome::NoUndefeated, None, String::new()),
    };
    proto::PairFinalsResponse {
        outcome: outcome as i32,
        r#final: final_board,
        champion_id: champion,
        repechage_player_ids: f.repechage_players.iter().map(|&p| id(p)).collect(),
        repechage: f
            .repechage
            .iter()
            .enumerate()
            .map(|(i, &(a, b))| board_to_proto(t, i as u32 + 1, a, b, false))
            .collect(),
        repechage_exempt_id: f.exempt.map(id).unwrap_or_default(),
        regular_rounds: f.regular_rounds,
        match_length: f.match_length.unwrap_or(0),
        explanation: Some(explanation_to_proto(t, &f.explanation)),
        warnings: super::pair::warnings_to_proto(t, &f.warnings),
        engine_version: crate::ENGINE_VERSION.to_string(),
        system: proto::PairingSystem::Backgammon as i32,
        rule_set: rule_set.to_string(),
    }
}
