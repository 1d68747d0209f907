//! `Ratings` and `Norms`: what a federation registry does with a report besides checking
//! its pairings. The work is [`crate::standings::fide_rating`] (B.02) and
//! [`crate::standings::norms`] (B.01); this reads the request, sets the options from the
//! request and the file's dates, and builds the answers (the CLI prints the same answers).
use tonic::Status;

use super::{Limits, tournament_from_proto};
use crate::model::validate::{Problem, Problems};
use crate::model::{Score, SystemId};
use crate::proto;
use crate::standings::fide_rating::{self, RatingOptions, RatingReport, RatingRules};
use crate::standings::norms::{self, Exemption, NormCheck, NormOptions, NormReport};
use crate::standings::report;
use crate::trf::TrfDocument;

/// The three ways a request gives the event.
pub enum Input<'a> {
    Tournament(&'a proto::Tournament),
    Trf(&'a str),
    Bytes(&'a [u8]),
}

/// The event as a TRF document (a proto tournament has no other records).
pub fn read_input(
    input: Option<Input<'_>>,
    encoding: &str,
    limits: &Limits,
    problems: &mut Vec<Problem>,
) -> TrfDocument {
    let decoded;
    let text = match input {
        Some(Input::Tournament(pt)) => {
            return TrfDocument {
                tournament: tournament_from_proto(pt, limits, problems),
                ..TrfDocument::default()
            };
        }
        Some(Input::Trf(text)) => text,
        Some(Input::Bytes(bytes)) => {
            decoded = crate::service::trf_input::decode_bytes(bytes, encoding, problems);
            match &decoded {
                Some(text) => text.as_str(),
                None => return TrfDocument::default(),
            }
        }
        None => {
            problems.push(Problem::new(
                "input",
                "give a tournament, a TRF text or TRF bytes",
            ));
            return TrfDocument::default();
        }
    };
    match crate::pairing::read_trf(text) {
        Ok(doc) => {
            limits.check_players(doc.tournament.players.len(), "trf", problems);
            doc
        }
        Err(e) => {
            problems.push(Problem::new(
                "trf",
                format!("line {}, column {}: {}", e.line, e.column, e.message),
            ));
            TrfDocument::default()
        }
    }
}

/// The rating's options from the request's fields and the file's dates; the reason for the
/// text chosen. A field that does not read is a problem naming it.
pub fn rating_setup(
    doc: &TrfDocument,
    event_date: &str,
    rules: &str,
    year: u32,
    round_robin: bool,
    k_factor: u32,
    problems: &mut Vec<Problem>,
) -> (RatingOptions, String) {
    let (start, end) = report::event_dates(doc);
    let asked_date = if event_date.trim().is_empty() {
        None
    } else {
        let d = report::parse_date(event_date);
        if d.is_none() {
            problems.push(Problem::new(
                "event_date",
                format!("{event_date:?} is not a date (YYYY-MM-DD)"),
            ));
        }
        d
    };
    let date = asked_date.or(end).or(start);
    let (rules, reason) = if rules.trim().is_empty() {
        let reason = match (asked_date, end, start) {
            (Some(_), _, _) => format!("by the date asked, {}", event_date.trim()),
            (None, Some(_), _) => format!(
                "by the event's end date (052) {}",
                report::record_text(doc, "052")
            ),
            (None, None, Some(_)) => format!(
                "by the event's start date (042) {}",
                report::record_text(doc, "042")
            ),
            _ => "no date given: the text in force now".to_string(),
        };
        (RatingRules::in_force(date), reason)
    } else {
        match RatingRules::parse(rules) {
            Some(r) => (r, "as asked".to_string()),
            None => {
                problems.push(Problem::new(
                    "rules",
                    format!("{rules:?}: the B.02 text is 2017, 2024 or 2025"),
                ));
                (RatingRules::default(), String::new())
            }
        }
    };
    let year = if year > 0 {
        Some(year)
    } else {
        date.map(|d| d.0)
    };
    let options = RatingOptions {
        rules,
        year,
        round_robin: round_robin || doc.tournament.system == Some(SystemId::RoundRobin),
        k_factor: (k_factor > 0).then_some(k_factor),
    };
    (options, reason)
}

fn halves_text(halves: i64) -> String {
    Score::from_tenths(halves * 5).to_string()
}

fn hundredths_text(h: i64, signed: bool) -> String {
    let sign = if h < 0 {
        "-"
    } else if signed {
        "+"
    } else {
        ""
    };
    format!("{sign}{}.{:02}", h.abs() / 100, h.abs() % 100)
}

/// The rating as the proto answer.
pub fn ratings_response(
    doc: &TrfDocument,
    r: &RatingReport,
    reason: &str,
) -> proto::RatingsResponse {
    let t = &doc.tournament;
    let players = r
        .players
        .iter()
        .map(|pr| {
            let player = &t.players[pr.player];
            let games = pr
                .games
                .iter()
                .map(|g| proto::RatedGame {
                    round: g.round,
                    opponent_id: g
                        .opponent
                        .map(|q| t.players[q].id.clone())
                        .unwrap_or_default(),
                    opponent_rating: g.opponent_rating.unwrap_or(0),
                    score: g.halves.map(halves_text).unwrap_or_default(),
                    rated: g.excluded.is_none(),
                    excluded: g.excluded.map(|e| e.code().to_string()).unwrap_or_default(),
                    reason: g
                        .excluded
                        .map(|e| e.reason().to_string())
                        .unwrap_or_default(),
                    difference: g.difference.map(|d| d as i32),
                    expected: g
                        .expected_hundredths
                        .map(|e| hundredths_text(e, false))
                        .unwrap_or_default(),
                    capped: g.capped,
                })
                .collect();
            let rated_games = pr.games.iter().filter(|g| g.excluded.is_none()).count() as u32;
            let mut out = proto::PlayerRating {
                player_id: player.id.clone(),
                name: player.name.clone(),
                rating: player.rating,
                games,
                rated_games,
                ..Default::default()
            };
            if let Some(c) = &pr.change {
                out.k_base = c.k_base;
                out.k_reason = c.k_reason.code().to_string();
                out.period_games = c.period_games;
                out.k = c.k;
                out.change = hundredths_text(c.change_hundredths, true);
                let rounded = (c.change_hundredths.abs() + 50) / 100 * c.change_hundredths.signum();
                out.new_rating = (i64::from(player.rating) + rounded) as i32;
                out.below_floor = pr.below_floor;
            }
            if let Some(i) = &pr.initial {
                out.initial = Some(proto::InitialRating {
                    games: i.games,
                    score: halves_text(i.halves),
                    average: hundredths_text(i.ra_hundredths, false),
                    percent: i.percent as u32,
                    dp: i.dp as i32,
                    rating: i.rating,
                    capped: i.capped,
                    published: i.published,
                    provisional: i.provisional,
                    note: i.note.clone(),
                });
            }
            out
        })
        .collect();
    proto::RatingsResponse {
        rules: r.rules.name().to_string(),
        rules_reason: reason.to_string(),
        round_robin: r.round_robin,
        players,
        engine_version: crate::ENGINE_VERSION.to_string(),
    }
}

/// Answers a Ratings request, or INVALID_ARGUMENT naming every problem.
pub fn ratings_answer(
    req: &proto::RatingsRequest,
    limits: &Limits,
) -> Result<proto::RatingsResponse, Status> {
    use proto::ratings_request::Input as I;
    let mut problems = Vec::new();
    let input = match &req.input {
        Some(I::Tournament(t)) => Some(Input::Tournament(t)),
        Some(I::Trf(t)) => Some(Input::Trf(t)),
        Some(I::TrfBytes(b)) => Some(Input::Bytes(b)),
        None => None,
    };
    let doc = read_input(input, &req.trf_encoding, limits, &mut problems);
    let (options, reason) = rating_setup(
        &doc,
        &req.event_date,
        &req.rules,
        req.year,
        req.round_robin,
        req.k_factor,
        &mut problems,
    );
    if !problems.is_empty() {
        return Err(crate::service::errors::invalid(&Problems(problems)));
    }
    let r = fide_rating::rate(&doc.tournament, &options);
    Ok(ratings_response(&doc, &r, &reason))
}

/// The norms' options from the request's fields and the file's `032`.
pub fn norm_setup(
    doc: &TrfDocument,
    host_federation: &str,
    exemption: Option<Exemption>,
    round_robin: bool,
) -> NormOptions {
    NormOptions {
        host_federation: if host_federation.trim().is_empty() {
            report::host_federation(doc)
        } else {
            Some(host_federation.trim().to_string())
        },
        exemption,
        round_robin: round_robin || doc.tournament.system == Some(SystemId::RoundRobin),
        ..NormOptions::default()
    }
}

/// One norm check as the proto answer, with the certificate's data when met.
pub fn norm_check(doc: &TrfDocument, options: &NormOptions, c: &NormCheck) -> proto::NormCheck {
    let t = &doc.tournament;
    let player = &t.players[c.player];
    let games = c.games.len() as u32;
    let certificate = c.met.then(|| proto::NormCertificate {
        event: t.name.clone(),
        start_date: report::record_text(doc, "042"),
        end_date: report::record_text(doc, "052"),
        host_federation: options.host_federation.clone().unwrap_or_default(),
        player_name: player.name.clone(),
        fide_id: player.fide_id.clone(),
        federation: player.federation.clone(),
        title_held: player.title.clone(),
        title: c.title.code().to_string(),
        rounds: t.rounds.len() as u32,
        games,
        score: halves_text(c.halves),
        average: c.average as i32,
        performance: c.performance as i32,
        exemption: c.exemption.unwrap_or("").to_string(),
    });
    proto::NormCheck {
        player_id: player.id.clone(),
        name: player.name.clone(),
        title: c.title.code().to_string(),
        met: c.met,
        requirements: c
            .requirements
            .iter()
            .map(|r| proto::NormRequirement {
                article: r.article.to_string(),
                name: r.name.to_string(),
                value: r.value.clone(),
                needed: r.needed.clone(),
                met: r.met,
            })
            .collect(),
        opponents: c
            .games
            .iter()
            .map(|g| {
                let o = &t.players[g.opponent];
                proto::NormOpponent {
                    round: g.round,
                    player_id: o.id.clone(),
                    name: o.name.clone(),
                    title: o.title.clone(),
                    federation: o.federation.clone(),
                    fide_id: o.fide_id.clone(),
                    rating: o.rating,
                    rating_used: g.rating_used as u32,
                    raised_to_floor: g.raised_to_floor,
                    score: halves_text(g.halves),
                }
            })
            .collect(),
        left_out: c
            .left_out
            .iter()
            .map(|(round, reason)| proto::NormLeftOut {
                round: *round,
                reason: reason.clone(),
            })
            .collect(),
        exemption: c.exemption.unwrap_or("").to_string(),
        score: halves_text(c.halves),
        games,
        average: c.average as i32,
        performance: c.performance as i32,
        certificate,
        application: c.application.as_ref().map(|a| proto::NormApplication {
            games_counted: a.games_counted as u32,
            score_needed: halves_text(a.halves_needed),
            points_above: a.points_above as u32,
            eight_games_as_nine: a.eight_games_as_nine,
            normal_foreigner_requirement: a.normal_foreigner_requirement,
            last_round_forfeit: a.last_round_forfeit,
        }),
    }
}

/// The norms as the proto answer, filtered to one player and to the norms met when asked.
pub fn norms_response(
    doc: &TrfDocument,
    options: &NormOptions,
    r: &NormReport,
    player_id: &str,
    met_only: bool,
) -> proto::NormsResponse {
    let t = &doc.tournament;
    proto::NormsResponse {
        rules: norms::RULES.to_string(),
        checks: r
            .checks
            .iter()
            .filter(|c| player_id.is_empty() || t.players[c.player].id == player_id)
            .filter(|c| !met_only || c.met)
            .map(|c| norm_check(doc, options, c))
            .collect(),
        exempt_1_4_3d: r.exempt_1_4_3d,
        notes: r.notes.clone(),
        engine_version: crate::ENGINE_VERSION.to_string(),
    }
}

/// Answers a Norms request, or INVALID_ARGUMENT naming every problem.
pub fn norms_answer(
    req: &proto::NormsRequest,
    limits: &Limits,
) -> Result<proto::NormsResponse, Status> {
    use proto::norms_request::Input as I;
    let mut problems = Vec::new();
    let input = match &req.input {
        Some(I::Tournament(t)) => Some(Input::Tournament(t)),
        Some(I::Trf(t)) => Some(Input::Trf(t)),
        Some(I::TrfBytes(b)) => Some(Input::Bytes(b)),
        None => None,
    };
    let doc = read_input(input, &req.trf_encoding, limits, &mut problems);
    let exemption = match proto::NormExemption::try_from(req.exemption) {
        Ok(proto::NormExemption::Unspecified) => None,
        Ok(proto::NormExemption::NationalChampionship) => Some(Exemption::NationalChampionship),
        Ok(proto::NormExemption::NationalTeamChampionship) => {
            Some(Exemption::NationalTeamChampionship)
        }
        Ok(proto::NormExemption::Zonal) => Some(Exemption::Zonal),
        Err(_) => {
            problems.push(Problem::new(
                "exemption",
                format!("unknown exemption {}", req.exemption),
            ));
            None
        }
    };
    if !req.player_id.is_empty() && !doc.tournament.players.iter().any(|p| p.id == req.player_id) {
        problems.push(Problem::new(
            "player_id",
            format!("no player {:?} in the tournament", req.player_id),
        ));
    }
    if !problems.is_empty() {
        return Err(crate::service::errors::invalid(&Problems(problems)));
    }
    let mut options = norm_setup(&doc, &req.host_federation, exemption, req.round_robin);
    options.double_round_robin = req.double_round_robin;
    options.round_robin |= req.double_round_robin;
    options.application = req.application;
    let r = norms::check(&doc.tournament, &options);
    Ok(norms_response(
        &doc,
        &options,
        &r,
        &req.player_id,
        req.met_only,
    ))
}
