//! `Explain` ("why not?"): the request as a tournament, options and the question; the
//! answer as a response. Every problem in the request is named by its field.
use super::Limits;
use super::pair::{PairFields, boards_to_proto, byes_to_proto, explanation_to_proto, pair_fields};
use super::tournament::{Ids, Input};
use crate::check::manual::Proposal;
use crate::check::why::{Question, VerdictKind, WhyAnswer};
use crate::model::validate::{Problem, Problems};
use crate::model::{Colour, PlayerIdx, Tournament};
use crate::proto;
use crate::systems::PairOptions;

/// An explain request as a tournament, options and the question, or every problem in it.
pub fn explain_request(
    req: &proto::ExplainRequest,
    limits: &Limits,
) -> Result<(Tournament, PairOptions, Question), Problems> {
    let fields = PairFields {
        input: req.input.as_ref().map(Input::from),
        trf_encoding: &req.trf_encoding,
        round: req.round,
        seed: req.seed,
        explanation_detail: req.explanation_detail,
        system: req.system,
        absent_player_ids: &req.absent_player_ids,
        requested_byes: &req.requested_byes,
    };
    let (t, options, _) = pair_fields(&fields, limits)?;
    let ids = Ids::of(&t);
    let mut problems = Vec::new();
    let player = |id: &str, field: &str, problems: &mut Vec<Problem>| {
        ids.resolve(id, || field.to_string(), problems)
    };
    use proto::explain_request::Question as Q;
    let question = match &req.question {
        None => {
            problems.push(Problem::new(
                "question",
                "no question: set pair, bye_player_id, float_player_id, colour, pairing or apart",
            ));
            None
        }
        Some(Q::Pair(q)) => {
            let a = player(&q.player_id, "pair.player_id", &mut problems);
            let b = player(&q.opponent_id, "pair.opponent_id", &mut problems);
            let white = if q.white_id.is_empty() {
                Some(None)
            } else {
                player(&q.white_id, "pair.white_id", &mut problems).map(Some)
            };
            match (a, b, white) {
                (Some(a), Some(b), Some(white)) => Some(Question::Pair { a, b, white }),
                _ => None,
            }
        }
        Some(Q::Apart(q)) => {
            let a = player(&q.player_id, "apart.player_id", &mut problems);
            let b = player(&q.opponent_id, "apart.opponent_id", &mut problems);
            a.zip(b).map(|(a, b)| Question::Apart { a, b })
        }
        Some(Q::ByePlayerId(id)) => player(id, "bye_player_id", &mut problems).map(Question::Bye),
        Some(Q::FloatPlayerId(id)) => {
            player(id, "float_player_id", &mut problems).map(Question::Float)
        }
        Some(Q::Colour(q)) => {
            let p = player(&q.player_id, "colour.player_id", &mut problems);
            let colour = match proto::Colour::try_from(q.colour) {
                Ok(proto::Colour::White) => Some(Colour::White),
                Ok(proto::Colour::Black) => Some(Colour::Black),
                _ => {
                    problems.push(Problem::new(
                        "colour.colour",
                        format!(
                            "player {:?}: the colour asked for is COLOUR_WHITE or COLOUR_BLACK",
                            q.player_id
                        ),
                    ));
                    None
                }
            };
            p.zip(colour).map(|(p, c)| Question::Colour(p, c))
        }
        Some(Q::Pairing(q)) => {
            let mut proposal = Proposal::default();
            for (i, b) in q.boards.iter().enumerate() {
                let w = player(
                    &b.white_id,
                    &format!("pairing.boards[{i}].white_id"),
                    &mut problems,
                );
                let k = player(
                    &b.black_id,
                    &format!("pairing.boards[{i}].black_id"),
                    &mut problems,
                );
                if let (Some(w), Some(k)) = (w, k) {
                    proposal.boards.push((w, k));
                }
            }
            for (i, id) in q.bye_ids.iter().enumerate() {
                if let Some(p) = player(id, &format!("pairing.bye_ids[{i}]"), &mut problems) {
                    proposal.byes.push(p);
                }
            }
            Some(Question::Pairing(proposal))
        }
    };
    match question {
        Some(q) if problems.is_empty() => Ok((t, options, q)),
        _ => Err(Problems(problems)),
    }
}

fn verdict_to_proto(kind: VerdictKind) -> proto::ExplainVerdict {
    match kind {
        VerdictKind::AlreadySo => proto::ExplainVerdict::AlreadySo,
        VerdictKind::Impossible => proto::ExplainVerdict::Impossible,
        VerdictKind::Worse => proto::ExplainVerdict::Worse,
        VerdictKind::Tie => proto::ExplainVerdict::Tie,
        VerdictKind::Procedure => proto::ExplainVerdict::Procedure,
        VerdictKind::Better => proto::ExplainVerdict::Better,
    }
}

/// An answered question as a proto response.
pub fn explain_response(answer: &WhyAnswer) -> proto::ExplainResponse {
    let t = &answer.tournament;
    let id = |i: PlayerIdx| t.players.get(i).map(|pl| pl.id.clone()).unwrap_or_default();
    let ids = |list: &[PlayerIdx]| list.iter().map(|&p| id(p)).collect::<Vec<_>>();
    let v = &answer.verdict;
    let alt = answer.alternative.as_ref();
    let (team_pairings, team_bye) = super::team::team_pairings_to_proto(t, &answer.answer);
    let (alternative_team_pairings, alternative_team_bye) = alt
        .map(|p| super::team::team_pairings_to_proto(t, p))
        .unwrap_or_default();
    proto::ExplainResponse {
        round: answer.round,
        system: super::system_to_proto(answer.system) as i32,
        rule_set: answer.rule_set.to_string(),
        verdict: verdict_to_proto(v.kind) as i32,
        rule_id: v.rule_id.clone(),
        message: v.message.clone(),
        player_ids: ids(&v.players),
        violations: v
            .violations
            .iter()
            .map(|x| proto::Violation {
                rule_id: x.rule_id.clone(),
                message: x.message.clone(),
                player_ids: ids(&x.players),
                level: u32::from(x.level),
            })
            .collect(),
        difference: v.difference.as_ref().map(|d| proto::CriterionDifference {
            rule_id: d.rule_id.clone(),
            criterion: d.criterion.to_string(),
            bracket_score: d.bracket.map(|s| s.as_f64()),
            answer_value: d.first_value.clone(),
            alternative_value: d.second_value.clone(),
            player_ids: ids(&d.players),
        }),
        bracket_score: v.bracket.map(|s| s.as_f64()),
        boards: boards_to_proto(t, &answer.answer),
        byes: byes_to_proto(t, &answer.answer),
        explanation: Some(explanation_to_proto(t, &answer.answer.explanation)),
        has_alternative: alt.is_some(),
        alternative_boards: alt.map(|p| boards_to_proto(t, p)).unwrap_or_default(),
        alternative_byes: alt.map(|p| byes_to_proto(t, p)).unwrap_or_default(),
        alternative_explanation: alt.map(|p| explanation_to_proto(t, &p.explanation)),
        team_pairings,
        team_bye,
        alternative_team_pairings,
        alternative_team_bye,
    }
}
