//! proto <-> model. Conversion validates as it goes and reports every problem at once, each
//! with its field path and the player or round it concerns.
use std::collections::HashMap;

use crate::check::manual::{ManualReport, Proposal};
use crate::model::validate::{Problem, Problems};
use crate::model::{
    Acceleration, AmalfiProfile, Bye, ByeKind, Colour, ForbiddenPairing, Game, GameResult, Player,
    PlayerIdx, Round, RoundRobinOptions, RoundRobinOrder, Score, Scoring, SystemId, SystemOptions,
    Tournament,
};
use crate::proto;
use crate::systems::backgammon::provisional::{Slot, SlotKind};
use crate::systems::backgammon::{Finals, Outcome, ProvisionalPairing};
use crate::systems::{Detail, Explanation, PairOptions, RoundPairing};
use crate::trf;

/// Limits a server enforces on every snapshot.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_players: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_players: 100_000,
        }
    }
}

pub fn system_from_proto(value: i32) -> Option<SystemId> {
    use proto::PairingSystem as P;
    Some(match P::try_from(value).ok()? {
        P::Unspecified => return None,
        P::RoundRobin => SystemId::RoundRobin,
        P::Dutch => SystemId::Dutch,
        P::Burstein => SystemId::Burstein,
        P::Dubov => SystemId::Dubov,
        P::Lim => SystemId::Lim,
        P::DoubleSwiss => SystemId::DoubleSwiss,
        P::TeamSwiss => SystemId::TeamSwiss,
        P::Amalfi => SystemId::Amalfi,
        P::Vincze => SystemId::Vincze,
        P::Buchholz => SystemId::Buchholz,
        P::Simple => SystemId::Simple,
        P::ColourAlternation => SystemId::ColourAlternation,
        P::Backgammon => SystemId::Backgammon,
    })
}

pub fn system_to_proto(id: SystemId) -> proto::PairingSystem {
    use proto::PairingSystem as P;
    match id {
        SystemId::RoundRobin => P::RoundRobin,
        SystemId::Dutch => P::Dutch,
        SystemId::Burstein => P::Burstein,
        SystemId::Dubov => P::Dubov,
        SystemId::Lim => P::Lim,
        SystemId::DoubleSwiss => P::DoubleSwiss,
        SystemId::TeamSwiss => P::TeamSwiss,
        SystemId::Amalfi => P::Amalfi,
        SystemId::Vincze => P::Vincze,
        SystemId::Buchholz => P::Buchholz,
        SystemId::Simple => P::Simple,
        SystemId::ColourAlternation => P::ColourAlternation,
        SystemId::Backgammon => P::Backgammon,
    }
}

pub fn bye_kind_to_proto(kind: ByeKind) -> proto::ByeKind {
    match kind {
        ByeKind::Pab => proto::ByeKind::Pab,
        ByeKind::HalfPoint => proto::ByeKind::HalfPoint,
        ByeKind::ZeroPoint => proto::ByeKind::ZeroPoint,
        ByeKind::FullPoint => proto::ByeKind::FullPoint,
        ByeKind::Absent => proto::ByeKind::Absent,
        ByeKind::AbsentOpponent => proto::ByeKind::AbsentOpponent,
    }
}

fn bye_kind_from_proto(value: i32) -> Option<ByeKind> {
    Some(match proto::ByeKind::try_from(value).ok()? {
        proto::ByeKind::Unspecified => return None,
        proto::ByeKind::Pab => ByeKind::Pab,
        proto::ByeKind::HalfPoint => ByeKind::HalfPoint,
        proto::ByeKind::ZeroPoint => ByeKind::ZeroPoint,
        proto::ByeKind::FullPoint => ByeKind::FullPoint,
        proto::ByeKind::Absent => ByeKind::Absent,
        proto::ByeKind::AbsentOpponent => ByeKind::AbsentOpponent,
    })
}

fn result_from_proto(value: i32) -> Option<GameResult> {
    use proto::GameResult as R;
    Some(match R::try_from(value).ok()? {
        R::Unspecified | R::Pending => GameResult::Pending,
        R::WhiteWins => GameResult::WhiteWins,
        R::Draw => GameResult::Draw,
        R::BlackWins => GameResult::BlackWins,
        R::WhiteWinsForfeit => GameResult::WhiteWinsForfeit,
        R::BlackWinsForfeit => GameResult::BlackWinsForfeit,
        R::DoubleForfeit => GameResult::DoubleForfeit,
        R::Adjourned => GameResult::Adjourned,
    })
}

fn result_to_proto(r: GameResult) -> proto::GameResult {
    use proto::GameResult as R;
    match r {
        GameResult::WhiteWins => R::WhiteWins,
        GameResult::Draw => R::Draw,
        GameResult::BlackWins => R::BlackWins,
        GameResult::WhiteWinsForfeit => R::WhiteWinsForfeit,
        GameResult::BlackWinsForfeit => R::BlackWinsForfeit,
        GameResult::DoubleForfeit => R::DoubleForfeit,
        GameResult::Adjourned => R::Adjourned,
        GameResult::Pending => R::Pending,
    }
}

fn points(value: Option<f64>, default: Score, path: &str, problems: &mut Vec<Problem>) -> Score {
    match value {
        None => default,
        Some(v) => Score::from_points_f64(v).unwrap_or_else(|e| {
            problems.push(Problem::new(path, format!("{v} points {e}")));
            default
        }),
    }
}

pub fn scoring_from_proto(s: Option<&proto::Scoring>, problems: &mut Vec<Problem>) -> Scoring {
    let Some(s) = s else {
        return Scoring::default();
    };
    let d = Scoring::default();
    let p = "tournament.scoring";
    let win = points(s.win, d.win, &format!("{p}.win"), problems);
    let draw = points(s.draw, d.draw, &format!("{p}.draw"), problems);
    let loss = points(s.loss, d.loss, &format!("{p}.loss"), problems);
    let base = Scoring::with_game_points(win, draw, loss);
    Scoring {
        win,
        draw,
        loss,
        forfeit_win: points(
            s.forfeit_win,
            base.forfeit_win,
            &format!("{p}.forfeit_win"),
            problems,
        ),
        forfeit_loss: points(
            s.forfeit_loss,
            Score::ZERO,
            &format!("{p}.forfeit_loss"),
            problems,
        ),
        pab: points(s.pab, base.pab, &format!("{p}.pab"), problems),
        half_point_bye: points(
            s.half_point_bye,
            base.half_point_bye,
            &format!("{p}.half_point_bye"),
            problems,
        ),
        zero_point_bye: points(
            s.zero_point_bye,
            Score::ZERO,
            &format!("{p}.zero_point_bye"),
            problems,
        ),
        full_point_bye: points(
            s.full_point_bye,
            base.full_point_bye,
            &format!("{p}.full_point_bye"),
            problems,
        ),
    }
}

fn scoring_to_proto(s: &Scoring) -> proto::Scoring {
    proto::Scoring {
        win: Some(s.win.as_f64()),
        draw: Some(s.draw.as_f64()),
        loss: Some(s.loss.as_f64()),
        forfeit_win: Some(s.forfeit_win.as_f64()),
        forfeit_loss: Some(s.forfeit_loss.as_f64()),
        pab: Some(s.pab.as_f64()),
        half_point_bye: Some(s.half_point_bye.as_f64()),
        zero_point_bye: Some(s.zero_point_bye.as_f64()),
        full_point_bye: Some(s.full_point_bye.as_f64()),
    }
}

fn opt_round(value: u32) -> Option<u32> {
    (value > 0).then_some(value)
}

/// Player ids to indices, for resolving references.
pub struct Ids(HashMap<String, PlayerIdx>);

impl Ids {
    pub fn of(t: &Tournament) -> Ids {
        Ids(t
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.clone(), i))
            .collect())
    }

    /// The index of `id`, or a problem at `path`.
    pub fn resolve(
        &self,
        id: &str,
        path: String,
        problems: &mut Vec<Problem>,
    ) -> Option<PlayerIdx> {
        let found = self.0.get(id).copied();
        if found.is_none() {
            let what = if id.is_empty() {
                "missing player id".to_string()
            } else {
                format!("unknown player id {id:?}")
            };
            problems.push(Problem::new(path, what));
        }
        found
    }
}

/// A proto tournament as a model tournament, or every problem found.
pub fn tournament_from_proto(
    pt: &proto::Tournament,
    limits: &Limits,
    problems: &mut Vec<Problem>,
) -> Tournament {
    if pt.players.len() > limits.max_players {
        problems.push(Problem::new(
            "tournament.players",
            format!(
                "{} players is more than this server's limit of {}",
                pt.players.len(),
                limits.max_players
            ),
        ));
        return Tournament::default();
    }
    let mut t = Tournament {
        name: pt.name.clone(),
        system: system_from_proto(pt.system),
        total_rounds: pt.total_rounds,
        scoring: scoring_from_proto(pt.scoring.as_ref(), problems),
        initial_colour: match proto::Colour::try_from(pt.first_round_colour) {
            Ok(proto::Colour::White) => Some(Colour::White),
            Ok(proto::Colour::Black) => Some(Colour::Black),
            _ => None,
        },
        lot_seed: pt.lot_seed,
        options: options_from_proto(pt.options.as_ref(), problems),
        ..Tournament::default()
    };
    if pt.system != 0 && t.system.is_none() {
        problems.push(Problem::new(
            "tournament.system",
            format!("unknown pairing system number {}", pt.system),
        ));
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, p) in pt.players.iter().enumerate() {
        let path = format!("tournament.players[{i}].id");
        if p.id.is_empty() {
            problems.push(Problem::new(path, "a player needs an id"));
        } else if let Some(first) = seen.insert(p.id.as_str(), i) {
            problems.push(Problem::new(
                path,
                format!("duplicate player id {:?} (also players[{first}])", p.id),
            ));
        }
        t.players.push(Player {
            id: p.id.clone(),
            name: p.name.clone(),
            rating: p.rating,
            title: p.title.clone(),
            federation: p.federation.clone(),
            fide_id: p.fide_id.clone(),
            sex: p.sex.clone(),
            birth_date: if p.birth_year > 0 {
                p.birth_year.to_string()
            } else {
                String::new()
            },
            pairing_number: p.pairing_number,
            withdrawn_from_round: opt_round(p.withdrawn_from_round),
            late_entry_round: opt_round(p.late_entry_round).filter(|&r| r > 1),
            team_id: p.team_id.clone(),
        });
    }
    let ids = Ids::of(&t);
    for (r, pr) in pt.rounds.iter().enumerate() {
        let number = r as u32 + 1;
        if pr.number != 0 && pr.number != number {
            problems.push(Problem::new(
                format!("tournament.rounds[{r}].number"),
                format!("round {} is listed in position {number}: rounds must be listed in order from 1", pr.number),
            ));
        }
        let mut round = Round::default();
        for (g, pg) in pr.games.iter().enumerate() {
            let base = format!("tournament.rounds[{r}].games[{g}]");
            let white = ids.resolve(&pg.white_id, format!("{base}.white_id"), problems);
            let black = ids.resolve(&pg.black_id, format!("{base}.black_id"), problems);
            let result = result_from_proto(pg.result).unwrap_or_else(|| {
                problems.push(Problem::new(
                    format!("{base}.result"),
                    format!("round {number}: unknown result {}", pg.result),
                ));
                GameResult::Pending
            });
            if let (Some(white), Some(black)) = (white, black) {
                round.games.push(Game {
                    white,
                    black,
                    result,
                    board: opt_round(pg.board),
                });
            }
        }
        for (b, pb) in pr.byes.iter().enumerate() {
            let base = format!("tournament.rounds[{r}].byes[{b}]");
            let player = ids.resolve(&pb.player_id, format!("{base}.player_id"), problems);
            let kind = bye_kind_from_proto(pb.kind);
            if kind.is_none() {
                problems.push(Problem::new(
                    format!("{base}.kind"),
                    format!("round {number}: player {:?}: the bye needs a kind (PAB, half-point, zero-point, full-point, absent or absent opponent)", pb.player_id),
                ));
            }
            if let (Some(player), Some(kind)) = (player, kind) {
                round.byes.push(Bye { player, kind });
            }
        }
        t.rounds.push(round);
    }
    for (i, f) in pt.forbidden_pairings.iter().enumerate() {
        let players = f
            .player_ids
            .iter()
            .enumerate()
            .filter_map(|(j, id)| {
                ids.resolve(
                    id,
                    format!("tournament.forbidden_pairings[{i}].player_ids[{j}]"),
                    problems,
                )
            })
            .collect();
        t.forbidden_pairings.push(ForbiddenPairing {
            players,
            first_round: opt_round(f.first_round),
            last_round: opt_round(f.last_round),
        });
    }
    for (i, a) in pt.accelerations.iter().enumerate() {
        let base = format!("tournament.accelerations[{i}]");
        let player = ids.resolve(&a.player_id, format!("{base}.player_id"), problems);
        let pts = points(
            Some(a.points),
            Score::ZERO,
            &format!("{base}.points"),
            problems,
        );
        if a.first_round == 0 || a.last_round < a.first_round {
            problems.push(Problem::new(
                format!("{base}.first_round"),
                format!(
                    "player {:?}: rounds {}..{} are not a range of rounds from 1",
                    a.player_id, a.first_round, a.last_round
                ),
            ));
        }
        if let Some(player) = player {
            t.accelerations.push(Acceleration {
                player,
                first_round: a.first_round,
                last_round: a.last_round,
                points: pts,
            });
        }
    }
    t
}

pub fn options_from_proto(
    o: Option<&proto::SystemOptions>,
    problems: &mut Vec<Problem>,
) -> SystemOptions {
    let rr = o.and_then(|o| o.round_robin.as_ref());
    SystemOptions {
        acceleration: acceleration_from_proto(o.map_or(0, |o| o.acceleration), problems),
        amalfi_profile: match o
            .and_then(|o| o.amalfi.as_ref())
            .map(|a| proto::AmalfiProfile::try_from(a.profile))
        {
            Some(Ok(proto::AmalfiProfile::Javapairing)) => AmalfiProfile::JavaPairing,
            _ => AmalfiProfile::Fsi,
        },
        ignore_float_history: o
            .and_then(|o| o.simple.as_ref())
            .is_some_and(|s| s.float_history == proto::FloatHistory::Ignored as i32),
        match_length: o
            .and_then(|o| o.backgammon.as_ref())
            .and_then(|b| opt_round(b.match_length)),
        late_entry_score: o.and_then(|o| o.late_entry_score).map(|v| {
            points(
                Some(v),
                Score::ZERO,
                "tournament.options.late_entry_score",
                problems,
            )
        }),
        round_robin: RoundRobinOptions {
            cycles: rr.and_then(|r| opt_round(r.cycles)),
            swap_last_two_rounds: rr.is_some_and(|r| r.swap_last_two_rounds),
            order: match rr.map(|r| proto::RoundRobinOrder::try_from(r.order)) {
                Some(Ok(proto::RoundRobinOrder::Lot)) => RoundRobinOrder::Lot,
                _ => RoundRobinOrder::PairingNumber,
            },
        },
    }
}

fn acceleration_from_proto(
    value: i32,
    problems: &mut Vec<Problem>,
) -> crate::model::AccelerationMethod {
    use crate::model::AccelerationMethod as A;
    match proto::AccelerationMethod::try_from(value) {
        Ok(proto::AccelerationMethod::Unspecified | proto::AccelerationMethod::None) => A::None,
        Ok(proto::AccelerationMethod::Baku) => A::Baku,
        Ok(proto::AccelerationMethod::Auto) => A::Auto,
        Err(_) => {
            problems.push(Problem::new(
                "tournament.options.acceleration",
                format!("unknown acceleration {value}"),
            ));
            A::None
        }
    }
}

fn acceleration_to_proto(a: crate::model::AccelerationMethod) -> proto::AccelerationMethod {
    use crate::model::AccelerationMethod as A;
    match a {
        A::None => proto::AccelerationMethod::None,
        A::Baku => proto::AccelerationMethod::Baku,
        A::Auto => proto::AccelerationMethod::Auto,
    }
}

/// A model tournament as a proto one (for TRF input echoed back, and the simulator).
pub fn tournament_to_proto(t: &Tournament) -> proto::Tournament {
    let id = |p: PlayerIdx| t.players.get(p).map(|pl| pl.id.clone()).unwrap_or_default();
    proto::Tournament {
        name: t.name.clone(),
        system: t.system.map_or(0, |s| system_to_proto(s) as i32),
        total_rounds: t.total_rounds,
        scoring: Some(scoring_to_proto(&t.scoring)),
        first_round_colour: match t.initial_colour {
            Some(Colour::White) => proto::Colour::White as i32,
            Some(Colour::Black) => proto::Colour::Black as i32,
            None => 0,
        },
        lot_seed: t.lot_seed,
        options: Some(proto::SystemOptions {
            amalfi: Some(proto::AmalfiOptions {
                profile: match t.options.amalfi_profile {
                    AmalfiProfile::Fsi => proto::AmalfiProfile::Fsi as i32,
                    AmalfiProfile::JavaPairing => proto::AmalfiProfile::Javapairing as i32,
                },
            }),
            simple: Some(proto::SimpleOptions {
                float_history: if t.options.ignore_float_history {
                    proto::FloatHistory::Ignored as i32
                } else {
                    proto::FloatHistory::Used as i32
                },
            }),
            backgammon: Some(proto::BackgammonOptions {
                match_length: t.options.match_length.unwrap_or(0),
            }),
            late_entry_score: t.options.late_entry_score.map(Score::as_f64),
            acceleration: acceleration_to_proto(t.options.acceleration) as i32,
            round_robin: Some(proto::RoundRobinOptions {
                cycles: t.options.round_robin.cycles.unwrap_or(0),
                swap_last_two_rounds: t.options.round_robin.swap_last_two_rounds,
                order: match t.options.round_robin.order {
                    RoundRobinOrder::PairingNumber => proto::RoundRobinOrder::PairingNumber as i32,
                    RoundRobinOrder::Lot => proto::RoundRobinOrder::Lot as i32,
                },
            }),
        }),
        players: t
            .players
            .iter()
            .map(|p| proto::Player {
                id: p.id.clone(),
                name: p.name.clone(),
                rating: p.rating,
                title: p.title.clone(),
                federation: p.federation.clone(),
                birth_year: p.birth_year().unwrap_or(0),
                pairing_number: p.pairing_number,
                withdrawn_from_round: p.withdrawn_from_round.unwrap_or(0),
                late_entry_round: p.late_entry_round.unwrap_or(0),
                team_id: p.team_id.clone(),
                fide_id: p.fide_id.clone(),
                sex: p.sex.clone(),
            })
            .collect(),
        rounds: t
            .rounds
            .iter()
            .enumerate()
            .map(|(r, round)| proto::Round {
                number: r as u32 + 1,
                games: round
                    .games
                    .iter()
                    .map(|g| proto::Game {
                        white_id: id(g.white),
                        black_id: id(g.black),
                        result: result_to_proto(g.result) as i32,
                        board: g.board.unwrap_or(0),
                    })
                    .collect(),
                byes: round
                    .byes
                    .iter()
                    .map(|b| proto::Bye {
                        player_id: id(b.player),
                        kind: bye_kind_to_proto(b.kind) as i32,
                    })
                    .collect(),
            })
            .collect(),
        forbidden_pairings: t
            .forbidden_pairings
            .iter()
            .map(|f| proto::ForbiddenPairing {
                player_ids: f.players.iter().map(|&p| id(p)).collect(),
                first_round: f.first_round.unwrap_or(0),
                last_round: f.last_round.unwrap_or(0),
            })
            .collect(),
        accelerations: t
            .accelerations
            .iter()
            .map(|a| proto::Acceleration {
                player_id: id(a.player),
                first_round: a.first_round,
                last_round: a.last_round,
                points: a.points.as_f64(),
            })
            .collect(),
    }
}

/// The snapshot of a request: a proto tournament or a TRF text.
pub fn snapshot(
    tournament: Option<&proto::Tournament>,
    trf_text: Option<&str>,
    limits: &Limits,
    problems: &mut Vec<Problem>,
) -> (Tournament, Vec<String>) {
    match (tournament, trf_text) {
        (Some(pt), _) => (tournament_from_proto(pt, limits, problems), Vec::new()),
        (None, Some(text)) => match trf::read(text) {
            Ok(doc) => {
                if doc.tournament.players.len() > limits.max_players {
                    problems.push(Problem::new(
                        "trf",
                        format!(
                            "{} players is more than this server's limit of {}",
                            doc.tournament.players.len(),
                            limits.max_players
                        ),
                    ));
                }
                let warnings = doc.points_mismatches();
                (doc.tournament, warnings)
            }
            Err(e) => {
                problems.push(Problem::new(
                    "trf",
                    format!("line {}, column {}: {}", e.line, e.column, e.message),
                ));
                (Tournament::default(), Vec::new())
            }
        },
        (None, None) => {
            problems.push(Problem::new("input", "give a tournament or a TRF text"));
            (Tournament::default(), Vec::new())
        }
    }
}

/// A pair request as a tournament and options, or every problem in it.
pub fn pair_request(
    req: &proto::PairRequest,
    limits: &Limits,
) -> Result<(Tournament, PairOptions, Vec<String>), Problems> {
    let mut problems = Vec::new();
    let (tournament_in, trf_in) = match &req.input {
        Some(proto::pair_request::Input::Tournament(t)) => (Some(t), None),
        Some(proto::pair_request::Input::Trf(text)) => (None, Some(text.as_str())),
        None => (None, None),
    };
    let (t, warnings) = snapshot(tournament_in, trf_in, limits, &mut problems);
    let ids = Ids::of(&t);
    let absent = req
        .absent_player_ids
        .iter()
        .enumerate()
        .filter_map(|(i, id)| ids.resolve(id, format!("absent_player_ids[{i}]"), &mut problems))
        .collect();
    let mut requested_byes = Vec::new();
    for (i, b) in req.requested_byes.iter().enumerate() {
        let player = ids.resolve(
            &b.player_id,
            format!("requested_byes[{i}].player_id"),
            &mut problems,
        );
        match (player, bye_kind_from_proto(b.kind)) {
            (Some(p), Some(kind)) => requested_byes.push((p, kind)),
            (_, None) => problems.push(Problem::new(
                format!("requested_byes[{i}].kind"),
                format!("player {:?}: the requested bye needs a kind (half-point, zero-point or full-point)", b.player_id),
            )),
            _ => {}
        }
    }
    let system = system_from_proto(req.system);
    if req.system != 0 && system.is_none() {
        problems.push(Problem::new(
            "system",
            format!("unknown pairing system number {}", req.system),
        ));
    }
    if !problems.is_empty() {
        return Err(Problems(problems));
    }
    let detail = match proto::ExplanationDetail::try_from(req.explanation_detail) {
        Ok(proto::ExplanationDetail::None) => Detail::None,
        Ok(proto::ExplanationDetail::Full) => Detail::Full,
        _ => Detail::Summary,
    };
    let options = PairOptions {
        round: opt_round(req.round),
        absent,
        requested_byes,
        seed: req.seed,
        detail,
        system,
    };
    Ok((t, options, warnings))
}

/// A system's answer as a proto response.
pub fn pair_response(
    t: &Tournament,
    system: Option<SystemId>,
    p: &RoundPairing,
    rule_set: &str,
) -> proto::PairResponse {
    proto::PairResponse {
        round: p.round,
        boards: boards_to_proto(t, p),
        byes: byes_to_proto(t, p),
        explanation: Some(explanation_to_proto(t, &p.explanation)),
        warnings: p.warnings.clone(),
        engine_version: crate::ENGINE_VERSION.to_string(),
        system: system.map_or(0, |s| system_to_proto(s) as i32),
        rule_set: rule_set.to_string(),
        total_rounds: p.total_rounds.unwrap_or(0),
        match_length: p.match_length.unwrap_or(0),
    }
}

pub fn boards_to_proto(t: &Tournament, p: &RoundPairing) -> Vec<proto::Board> {
    p.boards
        .iter()
        .enumerate()
        .map(|(i, b)| board_to_proto(t, i as u32 + 1, b.white, b.black, !p.colourless))
        .collect()
}

/// A board; without colours (backgammon) only the first/second fields are filled.
pub fn board_to_proto(
    t: &Tournament,
    number: u32,
    first: PlayerIdx,
    second: PlayerIdx,
    colours: bool,
) -> proto::Board {
    let id = |i: PlayerIdx| t.players.get(i).map(|pl| pl.id.clone()).unwrap_or_default();
    let mut board = proto::Board {
        number,
        first_id: id(first),
        second_id: id(second),
        first_pairing_number: t.pairing_number(first),
        second_pairing_number: t.pairing_number(second),
        ..proto::Board::default()
    };
    if colours {
        board.white_id = board.first_id.clone();
        board.black_id = board.second_id.clone();
        board.white_pairing_number = board.first_pairing_number;
        board.black_pairing_number = board.second_pairing_number;
    }
    board
}

fn explanation_to_proto(t: &Tournament, e: &Explanation) -> proto::Explanation {
    let id = |i: PlayerIdx| t.players.get(i).map(|pl| pl.id.clone()).unwrap_or_default();
    proto::Explanation {
        groups: e
            .groups
            .iter()
            .map(|g| proto::ExplanationGroup {
                label: g.label.clone(),
                steps: g
                    .steps
                    .iter()
                    .map(|s| proto::ExplanationStep {
                        rule_id: s.rule_id.clone(),
                        message: s.message.clone(),
                        player_ids: s.players.iter().map(|&i| id(i)).collect(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// A provisional request as a tournament and options (the same checks as Pair's).
pub fn provisional_request(
    req: &proto::PairProvisionalRequest,
    limits: &Limits,
) -> Result<(Tournament, PairOptions, Vec<String>), Problems> {
    let input = match &req.input {
        Some(proto::pair_provisional_request::Input::Tournament(t)) => {
            Some(proto::pair_request::Input::Tournament(t.clone()))
        }
        Some(proto::pair_provisional_request::Input::Trf(text)) => {
            Some(proto::pair_request::Input::Trf(text.clone()))
        }
        None => None,
    };
    pair_request(
        &proto::PairRequest {
            input,
            round: req.round,
            seed: req.seed,
            explanation_detail: req.explanation_detail,
            system: req.system,
            ..proto::PairRequest::default()
        },
        limits,
    )
}

/// A finals request as a tournament and options.
pub fn finals_request(
    req: &proto::PairFinalsRequest,
    limits: &Limits,
) -> Result<(Tournament, PairOptions, Vec<String>), Problems> {
    let input = match &req.input {
        Some(proto::pair_finals_request::Input::Tournament(t)) => {
            Some(proto::pair_request::Input::Tournament(t.clone()))
        }
        Some(proto::pair_finals_request::Input::Trf(text)) => {
            Some(proto::pair_request::Input::Trf(text.clone()))
        }
        None => None,
    };
    pair_request(
        &proto::PairRequest {
            input,
            seed: req.seed,
            explanation_detail: req.explanation_detail,
            system: req.system,
            ..proto::PairRequest::default()
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
        warnings: p.warnings.clone(),
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
        warnings: f.warnings.clone(),
        engine_version: crate::ENGINE_VERSION.to_string(),
        system: proto::PairingSystem::Backgammon as i32,
        rule_set: rule_set.to_string(),
    }
}

pub fn byes_to_proto(t: &Tournament, p: &RoundPairing) -> Vec<proto::ByeAssignment> {
    let id = |i: PlayerIdx| t.players.get(i).map(|pl| pl.id.clone()).unwrap_or_default();
    p.byes
        .iter()
        .map(|b| proto::ByeAssignment {
            player_id: id(b.player),
            kind: bye_kind_to_proto(b.kind) as i32,
            points: b.points.as_f64(),
            pairing_number: t.pairing_number(b.player),
        })
        .collect()
}

/// A validate request as a tournament, options and the proposal, or every problem in it.
pub fn validate_request(
    req: &proto::ValidatePairingRequest,
    limits: &Limits,
) -> Result<(Tournament, PairOptions, Proposal), Problems> {
    let input = req.input.clone().map(|i| match i {
        proto::validate_pairing_request::Input::Tournament(t) => {
            proto::pair_request::Input::Tournament(t)
        }
        proto::validate_pairing_request::Input::Trf(text) => proto::pair_request::Input::Trf(text),
    });
    let as_pair = proto::PairRequest {
        input,
        round: req.round,
        absent_player_ids: req.absent_player_ids.clone(),
        requested_byes: req.requested_byes.clone(),
        seed: req.seed,
        explanation_detail: proto::ExplanationDetail::Full as i32,
        system: req.system,
    };
    let (t, options, _) = pair_request(&as_pair, limits)?;
    let ids = Ids::of(&t);
    let mut problems = Vec::new();
    let mut proposal = Proposal {
        complete: req.complete,
        ..Proposal::default()
    };
    for (i, b) in req.proposed.iter().enumerate() {
        let w = ids.resolve(
            &b.white_id,
            format!("proposed[{i}].white_id"),
            &mut problems,
        );
        let k = ids.resolve(
            &b.black_id,
            format!("proposed[{i}].black_id"),
            &mut problems,
        );
        if let (Some(w), Some(k)) = (w, k) {
            proposal.boards.push((w, k));
        }
    }
    for (i, id) in req.proposed_bye_ids.iter().enumerate() {
        if let Some(p) = ids.resolve(id, format!("proposed_bye_ids[{i}]"), &mut problems) {
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
    proto::ValidatePairingResponse {
        violations: report
            .violations
            .iter()
            .map(|v| proto::Violation {
                rule_id: v.rule_id.clone(),
                message: v.message.clone(),
                player_ids: v.players.iter().map(|&p| id(p)).collect(),
            })
            .collect(),
        boards: boards_to_proto(t, &pairing),
        byes: byes_to_proto(t, &pairing),
        explanation: pair_response(t, None, &pairing, "").explanation,
        round: report.round,
        unpaired_ids: report.unpaired.iter().map(|&p| id(p)).collect(),
    }
}
