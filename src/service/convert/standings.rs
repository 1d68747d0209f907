//! The `Standings` RPC: proto <-> model for standings. The work is in
//! [`crate::standings`]; this converts the request, validates it and builds the answer.
use tonic::Status;

use super::{Limits, tournament_from_proto};
use crate::model::validate::{Problem, Problems};
use crate::proto;
use crate::standings::{self, Edition, Filter, ListSource, Options, TieOrder, report};
use crate::trf;

fn invalid(problems: Vec<Problem>) -> Status {
    crate::service::errors::invalid(&Problems(problems))
}

/// Answers a standings request, or INVALID_ARGUMENT naming every problem.
pub fn answer(
    req: &proto::StandingsRequest,
    limits: &Limits,
) -> Result<proto::StandingsResponse, Status> {
    let mut problems = Vec::new();
    // TRF bytes in another encoding are decoded first, then read like TRF text.
    let decoded = match &req.input {
        Some(proto::standings_request::Input::TrfBytes(bytes)) => {
            crate::service::trf_input::decode_bytes(bytes, &req.trf_encoding, &mut problems)
        }
        _ => None,
    };
    let text = match &req.input {
        Some(proto::standings_request::Input::Trf(text)) => Some(text.as_str()),
        _ => decoded.as_deref(),
    };
    let doc = match (&req.input, text) {
        (Some(proto::standings_request::Input::Tournament(pt)), _) => trf::TrfDocument {
            tournament: tournament_from_proto(pt, limits, &mut problems),
            ..trf::TrfDocument::default()
        },
        (_, Some(text)) => match crate::pairing::read_trf(text) {
            Ok(doc) => {
                limits.check_players(doc.tournament.players.len(), "trf", &mut problems);
                doc
            }
            Err(e) => {
                problems.push(Problem::new(
                    "trf",
                    format!("line {}, column {}: {}", e.line, e.column, e.message),
                ));
                trf::TrfDocument::default()
            }
        },
        (Some(proto::standings_request::Input::TrfBytes(_)), None) => trf::TrfDocument::default(),
        _ => {
            problems.push(Problem::new("input", "give a tournament or a TRF text"));
            trf::TrfDocument::default()
        }
    };
    let edition = match proto::TieBreakEdition::try_from(req.edition) {
        Ok(proto::TieBreakEdition::Unspecified | proto::TieBreakEdition::TieBreakEdition2026) => {
            Edition::V2026
        }
        Ok(proto::TieBreakEdition::TieBreakEdition2024) => Edition::V2024,
        Err(_) => {
            problems.push(Problem::new(
                "edition",
                format!("unknown edition {}", req.edition),
            ));
            Edition::V2026
        }
    };
    let tie_order = match proto::TieOrder::try_from(req.tie_order) {
        Ok(proto::TieOrder::Lot) => TieOrder::Lot(req.seed.unwrap_or(doc.tournament.lot_seed)),
        Ok(_) => TieOrder::PairingNumber,
        Err(_) => {
            problems.push(Problem::new(
                "tie_order",
                format!("unknown tie order {}", req.tie_order),
            ));
            TieOrder::PairingNumber
        }
    };
    if !problems.is_empty() {
        return Err(invalid(problems));
    }
    let mut t = doc.tournament.clone();
    if let Some(system) = super::system_from_proto(req.system) {
        t.system = Some(system);
    }
    t.assign_pairing_numbers(req.seed.unwrap_or(t.lot_seed));
    if t.is_team_event() {
        return team_answer(req, &t);
    }
    let (tie_breaks, source) =
        standings::resolve_tie_breaks(&req.tie_breaks, &doc.other_lines, t.system)
            .map_err(|e| invalid(vec![Problem::new("tie_breaks", e.to_string())]))?;
    let filter = req
        .filter
        .as_ref()
        .map(|f| Filter {
            born_from: (f.born_from > 0).then_some(f.born_from),
            born_to: (f.born_to > 0).then_some(f.born_to),
            sex: (!f.sex.trim().is_empty()).then(|| f.sex.clone()),
            rating_min: (f.rating_min > 0).then_some(f.rating_min),
            rating_max: (f.rating_max > 0).then_some(f.rating_max),
            titles: f.titles.clone(),
            federations: f.federations.clone(),
        })
        .unwrap_or_default();
    let options = Options {
        tie_breaks,
        source,
        edition,
        after_round: (req.after_round > 0).then_some(req.after_round),
        tie_order,
        filter,
        k_factor: (req.k_factor > 0).then_some(req.k_factor),
        year: if req.year > 0 {
            Some(req.year)
        } else {
            report::tournament_year(&doc)
        },
        rating_rules: report::rating_rules(&doc),
        round_robin_withdrawals: req.round_robin_withdrawals,
    };
    let s = crate::pairing::standings(&t, &options).map_err(|e| {
        let path = match e {
            standings::StandingsError::AfterRound { .. } => "after_round",
            standings::StandingsError::TieBreak(_) => "tie_breaks",
            standings::StandingsError::System(_) => "options",
        };
        invalid(vec![Problem::new(path, e.to_string())])
    })?;
    Ok(response(&t, &s))
}

/// The model's standings as the proto answer.
pub fn response(
    t: &crate::model::Tournament,
    s: &standings::Standings,
) -> proto::StandingsResponse {
    let text = |v: Option<standings::Value>| v.map(|v| v.to_string()).unwrap_or_default();
    proto::StandingsResponse {
        rows: s
            .rows
            .iter()
            .map(|row| {
                let p = &t.players[row.player];
                proto::StandingRow {
                    rank: row.rank,
                    player_id: p.id.clone(),
                    pairing_number: t.pairing_number(row.player),
                    name: p.name.clone(),
                    points: row.points.to_string(),
                    values: row.values.iter().map(|v| text(*v)).collect(),
                    rating_change: text(row.rating_change),
                    k_factor: row.k_factor.unwrap_or(0),
                    performance: row.performance.and_then(|v| i32::try_from(v).ok()),
                    withdrawn_from_round: row.withdrawn_from_round.unwrap_or(0),
                }
            })
            .collect(),
        tie_breaks: s.tie_breaks.iter().map(|tb| tb.to_string()).collect(),
        tie_break_source: match s.source {
            ListSource::Request => proto::TieBreakSource::Request,
            ListSource::Trf => proto::TieBreakSource::Trf,
            ListSource::Default => proto::TieBreakSource::Default,
        } as i32,
        edition: match s.edition {
            Edition::V2024 => proto::TieBreakEdition::TieBreakEdition2024,
            Edition::V2026 => proto::TieBreakEdition::TieBreakEdition2026,
        } as i32,
        after_round: s.after_round,
        engine_version: crate::ENGINE_VERSION.to_string(),
        // A Scheveningen's two teams (SCH-6), the leader first.
        team_rows: s
            .team_match
            .iter()
            .flatten()
            .enumerate()
            .map(
                |(i, (name, match_points, game_points))| proto::TeamStandingRow {
                    rank: if i == 1
                        && s.team_match
                            .as_ref()
                            .is_some_and(|m| (m[0].1, m[0].2) == (m[1].1, m[1].2))
                    {
                        1
                    } else {
                        i as u32 + 1
                    },
                    team_id: name.clone(),
                    name: name.clone(),
                    match_points: match_points.to_string(),
                    game_points: game_points.to_string(),
                    ..proto::TeamStandingRow::default()
                },
            )
            .collect(),
        // GRC 6.6 (round_robin_withdrawals): the games left out, with why.
        dropped_games: s
            .dropped_games
            .iter()
            .map(|d| proto::StandingsDroppedGame {
                round: d.round,
                player_id: t.players[d.player].id.clone(),
                opponent_id: d
                    .opponent
                    .map(|q| t.players[q].id.clone())
                    .unwrap_or_default(),
                reason: d.reason.clone(),
            })
            .collect(),
        ..proto::StandingsResponse::default()
    }
}

/// A team event's standings (`standings::team`).
fn team_answer(
    req: &proto::StandingsRequest,
    t: &crate::model::Tournament,
) -> Result<proto::StandingsResponse, Status> {
    use crate::standings::team::{self, TeamTieBreak};
    let tie_breaks = if req.tie_breaks.is_empty() {
        TeamTieBreak::defaults()
    } else {
        let mut out = Vec::new();
        let mut problems = Vec::new();
        for (i, code) in req.tie_breaks.iter().enumerate() {
            if code.trim().eq_ignore_ascii_case("PTS") {
                continue;
            }
            match TeamTieBreak::parse(code) {
                Ok(tb) => out.push(tb),
                Err(e) => problems.push(Problem::new(format!("tie_breaks[{i}]"), e)),
            }
        }
        if !problems.is_empty() {
            return Err(invalid(problems));
        }
        out
    };
    let s = team::compute(
        t,
        &tie_breaks,
        (req.after_round > 0).then_some(req.after_round),
    )
    .map_err(invalid)?;
    Ok(proto::StandingsResponse {
        tie_breaks: s
            .tie_breaks
            .iter()
            .map(|tb| tb.code().to_string())
            .collect(),
        tie_break_source: if req.tie_breaks.is_empty() {
            proto::TieBreakSource::Default
        } else {
            proto::TieBreakSource::Request
        } as i32,
        edition: proto::TieBreakEdition::TieBreakEdition2026 as i32,
        after_round: s.after_round,
        engine_version: crate::ENGINE_VERSION.to_string(),
        team_rows: s
            .rows
            .iter()
            .map(|row| proto::TeamStandingRow {
                rank: row.rank,
                team_id: t.teams[row.team].id.clone(),
                pairing_number: t.team_tpn(row.team),
                name: t.teams[row.team].name.clone(),
                match_points: row.match_points.to_string(),
                game_points: row.game_points.to_string(),
                values: row.values.iter().map(|v| v.to_string()).collect(),
            })
            .collect(),
        board_results: s
            .boards
            .iter()
            .map(|b| proto::BoardResult {
                board: b.board,
                player_id: t.players[b.player].id.clone(),
                games: b.games,
                points: b.points.to_string(),
                performance: b.performance.and_then(|v| i32::try_from(v).ok()),
            })
            .collect(),
        ..proto::StandingsResponse::default()
    })
}
