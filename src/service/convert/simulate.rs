//! `Simulate`: requests and responses.
use super::Limits;
use super::enums::system_from_proto;
use super::tournament::{options_from_proto, scoring_from_proto, tournament_to_proto};
use crate::model::limits;
use crate::model::validate::{Problem, Problems};
use crate::proto;
use crate::simulate::{SimConfig, SimulateAnswer};

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
    let options = options_from_proto(req.options.as_ref(), &mut problems);
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
            ..team_config(system, req)
        }),
        _ => Err(Problems(problems)),
    }
}

/// A simulated tournament as a proto response (TRF cannot hold more than 9,999 players: the
/// text is then left empty and the proto tournament holds it).
pub fn simulate_response(answer: &SimulateAnswer) -> proto::SimulateResponse {
    let doc = crate::trf::TrfDocument {
        tournament: answer.tournament.clone(),
        ..crate::trf::TrfDocument::default()
    };
    proto::SimulateResponse {
        tournament: Some(tournament_to_proto(&answer.tournament)),
        trf: crate::trf::write(&doc, crate::trf::Dialect::JaVaFo).unwrap_or_default(),
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
