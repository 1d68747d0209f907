//! `Simulate`: requests and responses.
use super::Limits;
use super::enums::system_from_proto;
use super::tournament::{options_from_proto, scoring_from_proto, tournament_to_proto};
use crate::model::limits;
use crate::model::validate::{Problem, Problems};
use crate::proto;
use crate::simulate::plan::{Amount, Planned};
use crate::simulate::{ResultModel, SimConfig, SimulateAnswer};

/// A list of amounts as plans; a missing amount or a share outside 0..1 is a problem
/// naming the field and its entry.
fn plans(
    field: &str,
    amounts: &[proto::SimulateAmount],
    problems: &mut Vec<Problem>,
) -> Vec<Planned> {
    use proto::simulate_amount::Amount as A;
    let mut out = Vec::new();
    for (i, a) in amounts.iter().enumerate() {
        let path = format!("{field}[{i}]");
        let amount = match a.amount {
            Some(A::Count(n)) => Amount::Count(n),
            Some(A::Share(s)) if (0.0..=1.0).contains(&s) => Amount::Share(s),
            Some(A::Share(s)) => {
                problems.push(Problem::new(
                    format!("{path}.share"),
                    format!("a share is between 0 and 1, not {s}"),
                ));
                continue;
            }
            None => {
                problems.push(Problem::new(path, "give a count or a share"));
                continue;
            }
        };
        out.push(Planned {
            amount,
            round: (a.round > 0).then_some(a.round),
        });
    }
    out
}

/// A simulate request as a configuration, or every problem in it.
pub fn simulate_request(
    req: &proto::SimulateRequest,
    limits: &Limits,
) -> Result<SimConfig, Problems> {
    let mut problems = Vec::new();
    let system = system_from_proto(req.system);
    if system.is_none() {
        problems.push(Problem::new(
            "system",
            "name the pairing system to simulate",
        ));
    }
    limits.check_players(req.players as usize, "players", &mut problems);
    // A team event's players: teams × (boards + reserves).
    let boards = if req.boards == 0 { 4 } else { req.boards };
    let teams = if req.teams > 0 {
        req.teams
    } else if system == Some(crate::model::SystemId::TeamSwiss) {
        req.players
    } else {
        0
    };
    if teams > 0 {
        let players = u64::from(teams) * (u64::from(boards) + u64::from(req.reserves));
        limits.check_players(
            usize::try_from(players).unwrap_or(usize::MAX),
            "teams",
            &mut problems,
        );
    }
    for (field, value, max) in [
        ("rounds", req.rounds, limits::MAX_ROUNDS),
        ("boards", req.boards, limits::MAX_BOARDS),
        ("reserves", req.reserves, limits::MAX_TEAM_MEMBERS as u32),
    ] {
        let what = format!("number of {field}");
        if let Some(m) = limits::too_many(value.into(), max.into(), &what) {
            problems.push(Problem::new(field, m));
        }
    }
    let mut options = options_from_proto(req.options.as_ref(), &mut problems);
    if req.baku_acceleration
        && let Err(e) = options.set("acceleration", "BAKU")
    {
        problems.push(Problem::new("baku_acceleration", e));
    }
    let model = match proto::SimulateResultModel::try_from(req.result_model) {
        Ok(proto::SimulateResultModel::Tec) => ResultModel::Tec,
        Ok(_) => ResultModel::DrawRate,
        Err(_) => {
            problems.push(Problem::new(
                "result_model",
                format!("unknown result model {}", req.result_model),
            ));
            ResultModel::DrawRate
        }
    };
    let full_point_byes = plans("full_point_byes", &req.full_point_byes, &mut problems);
    let half_point_byes = plans("half_point_byes", &req.half_point_byes, &mut problems);
    let zero_point_byes = plans("zero_point_byes", &req.zero_point_byes, &mut problems);
    let forfeits = plans("forfeits", &req.forfeits, &mut problems);
    let double_forfeits = plans("double_forfeits", &req.double_forfeits, &mut problems);
    let half_zero = plans("half_zero", &req.half_zero, &mut problems);
    let zero_half = plans("zero_half", &req.zero_half, &mut problems);
    let zero_zero = plans("zero_zero", &req.zero_zero, &mut problems);
    let withdrawals = plans("withdrawals", &req.withdrawals, &mut problems);
    let late_entries = plans("late_entries", &req.late_entries, &mut problems);
    if let Some(m) = limits::too_long(
        &req.tie_breaks,
        limits::MAX_OPTION_VALUE_CHARS,
        "the tie-break list",
    ) {
        problems.push(Problem::new("tie_breaks", m));
    }
    let scoring = scoring_from_proto(req.scoring.as_ref(), &mut problems);
    match system {
        Some(system) if problems.is_empty() => Ok(SimConfig {
            system,
            players: req.players,
            rounds: req.rounds,
            seed: req.seed,
            draw_rate: req.draw_rate,
            forfeit_rate: req.forfeit_rate,
            bye_request_rate: req.bye_request_rate,
            scoring,
            options,
            boards,
            reserves: req.reserves,
            model,
            strength_sigma: req.strength_sigma,
            full_point_byes,
            half_point_byes,
            zero_point_byes,
            forfeits,
            double_forfeits,
            half_zero,
            zero_half,
            zero_zero,
            withdrawals,
            late_entries,
            tie_breaks: req.tie_breaks.clone(),
            ..team_config(system, req)
        }),
        _ => Err(Problems(problems)),
    }
}

/// A simulated tournament as a proto response (where TRF cannot hold the event, more than
/// 999 teams, the text is left empty and the proto tournament holds it).
pub fn simulate_response(answer: &SimulateAnswer) -> proto::SimulateResponse {
    proto::SimulateResponse {
        tournament: Some(tournament_to_proto(&answer.tournament)),
        trf: answer.trf().unwrap_or_default(),
    }
}

/// The configuration's defaults, with the request's teams when it names some.
fn team_config(system: crate::model::SystemId, req: &proto::SimulateRequest) -> SimConfig {
    let mut config = SimConfig::new(system, req.players, req.rounds, req.seed);
    if req.teams > 0 {
        config.teams = req.teams;
    }
    config
}
