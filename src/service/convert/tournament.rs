//! The snapshot of a request: a proto tournament or a TRF text; scoring; system options.

use super::enums::{
    bye_kind_from_proto, bye_kind_to_proto, result_from_proto, result_to_proto, system_from_proto,
    system_to_proto,
};
use super::{Limits, opt_round, points};
use crate::model::limits;
use crate::model::validate::Problem;
use crate::model::{
    Acceleration, Bye, Colour, ForbiddenPairing, Game, GameResult, NotRatedGame, Player, PlayerIdx,
    Round, Score, Scoring, Separation, SeparationKey, SeparationMode, SystemOptions, Tournament,
};
use crate::proto;

pub fn scoring_from_proto(s: Option<&proto::Scoring>, problems: &mut Vec<Problem>) -> Scoring {
    let Some(s) = s else {
        return Scoring::default();
    };
    let d = Scoring::default();
    // The paths are constants: nothing is written for a valid request.
    let win = points(s.win, d.win, "tournament.scoring.win", problems);
    let draw = points(s.draw, d.draw, "tournament.scoring.draw", problems);
    let loss = points(s.loss, d.loss, "tournament.scoring.loss", problems);
    let base = Scoring::with_game_points(win, draw, loss);
    Scoring {
        win,
        draw,
        loss,
        forfeit_win: points(
            s.forfeit_win,
            base.forfeit_win,
            "tournament.scoring.forfeit_win",
            problems,
        ),
        forfeit_loss: points(
            s.forfeit_loss,
            Score::ZERO,
            "tournament.scoring.forfeit_loss",
            problems,
        ),
        pab: points(s.pab, base.pab, "tournament.scoring.pab", problems),
        half_point_bye: points(
            s.half_point_bye,
            base.half_point_bye,
            "tournament.scoring.half_point_bye",
            problems,
        ),
        zero_point_bye: points(
            s.zero_point_bye,
            Score::ZERO,
            "tournament.scoring.zero_point_bye",
            problems,
        ),
        full_point_bye: points(
            s.full_point_bye,
            base.full_point_bye,
            "tournament.scoring.full_point_bye",
            problems,
        ),
    }
}

pub fn scoring_to_proto(s: &Scoring) -> proto::Scoring {
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

/// Player ids to indices, for resolving references (borrowed: a small request's ids are
/// not copied again for the lookup).
#[derive(Default)]
pub struct Ids<'a>(rustc_hash::FxHashMap<&'a str, PlayerIdx>);

impl<'a> Ids<'a> {
    pub fn of(t: &'a Tournament) -> Ids<'a> {
        Ids::of_ids(t.players.iter().map(|p| p.id.as_str()))
    }

    fn with_capacity(n: usize) -> Ids<'a> {
        Ids(rustc_hash::FxHashMap::with_capacity_and_hasher(
            n,
            Default::default(),
        ))
    }

    /// Adds `id` as player `i`; the player it named before, if any.
    fn insert(&mut self, id: &'a str, i: PlayerIdx) -> Option<PlayerIdx> {
        self.0.insert(id, i)
    }

    fn of_ids(ids: impl ExactSizeIterator<Item = &'a str>) -> Ids<'a> {
        let mut map =
            rustc_hash::FxHashMap::with_capacity_and_hasher(ids.len(), Default::default());
        // A duplicate id (refused elsewhere) resolves to its last player, as before.
        map.extend(ids.enumerate().map(|(i, id)| (id, i)));
        Ids(map)
    }

    /// The index of `id`, or a problem at `path` (written only then).
    pub fn resolve(
        &self,
        id: &str,
        path: impl FnOnce() -> String,
        problems: &mut Vec<Problem>,
    ) -> Option<PlayerIdx> {
        let found = self.0.get(id).copied();
        if found.is_none() {
            let path = path();
            let what = if id.is_empty() {
                "missing player id".to_string()
            } else {
                format!("unknown player id {}", crate::model::limits::shown(id))
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
    let in_games = GameIdsOf::default();
    if refused_whole(pt, in_games, limits, problems) {
        return Tournament::default();
    }
    build(pt, in_games, |_, p| PlayerTexts::copied(p), true, problems)
}

/// Where each game's player ids are: in the proto games, or (a `Pair` request decoded by
/// the server's route) in the request's bytes, the games' strings left empty.
#[derive(Clone, Copy, Default)]
pub struct GameIdsOf<'a>(pub Option<&'a proto::GameIds>);

impl<'a> GameIdsOf<'a> {
    /// The white and black ids of `game`, game `k` counted across the rounds in order.
    fn of(self, k: usize, game: &'a proto::Game) -> (&'a str, &'a str) {
        match self.0.and_then(|ids| ids.get(k)) {
            Some(ids) => ids,
            None => (&game.white_id, &game.black_id),
        }
    }
}

/// [`tournament_from_proto`] of a tournament the caller gives away (a `Pair` request's):
/// the players' texts move into the snapshot instead of being copied. Ids are still
/// copied: the lookup of every reference borrows them from `pt`.
pub fn tournament_from_proto_owned(
    mut pt: proto::Tournament,
    game_ids: GameIdsOf<'_>,
    limits: &Limits,
    problems: &mut Vec<Problem>,
) -> Tournament {
    if refused_whole(&pt, game_ids, limits, problems) {
        return Tournament::default();
    }
    // After the limits were read off them: nothing else reads these texts in `pt`.
    let mut texts: Vec<PlayerTexts> = pt.players.iter_mut().map(PlayerTexts::taken).collect();
    let mut t = build(
        &pt,
        game_ids,
        |i, _| std::mem::take(&mut texts[i]),
        false,
        problems,
    );
    // The ids move last: `build` looks every reference up among them.
    for (player, p) in t.players.iter_mut().zip(&mut pt.players) {
        player.id = std::mem::take(&mut p.id);
    }
    t
}

/// Too many players, or a text or a count beyond its limit: refused before anything
/// repeats them (the problems say which).
fn refused_whole(
    pt: &proto::Tournament,
    game_ids: GameIdsOf<'_>,
    limits: &Limits,
    problems: &mut Vec<Problem>,
) -> bool {
    if pt.players.len() > limits.max_players {
        limits.check_players(pt.players.len(), "tournament.players", problems);
        return true;
    }
    check_limits(pt, game_ids, problems)
}

/// A player's texts that the snapshot keeps as they are (the id aside).
#[derive(Default)]
struct PlayerTexts {
    name: String,
    title: String,
    federation: String,
    fide_id: String,
    sex: String,
    team_id: String,
    club: String,
    groups: Vec<String>,
}

impl PlayerTexts {
    fn copied(p: &proto::Player) -> PlayerTexts {
        PlayerTexts {
            name: p.name.clone(),
            title: p.title.clone(),
            federation: p.federation.clone(),
            fide_id: p.fide_id.clone(),
            sex: p.sex.clone(),
            team_id: p.team_id.clone(),
            club: p.club.clone(),
            groups: p.groups.clone(),
        }
    }

    fn taken(p: &mut proto::Player) -> PlayerTexts {
        use std::mem::take;
        PlayerTexts {
            name: take(&mut p.name),
            title: take(&mut p.title),
            federation: take(&mut p.federation),
            fide_id: take(&mut p.fide_id),
            sex: take(&mut p.sex),
            team_id: take(&mut p.team_id),
            club: take(&mut p.club),
            groups: take(&mut p.groups),
        }
    }
}

/// The model tournament of `pt` (its limits checked), each player's texts from `texts`.
/// `copy_ids`: each player's id is copied; otherwise left empty, for the caller to move.
fn build(
    pt: &proto::Tournament,
    game_ids: GameIdsOf<'_>,
    mut texts: impl FnMut(usize, &proto::Player) -> PlayerTexts,
    copy_ids: bool,
    problems: &mut Vec<Problem>,
) -> Tournament {
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
    // The lookup of every reference: a duplicate id (refused here) resolves to its last
    // player.
    let mut ids = Ids::with_capacity(pt.players.len());
    t.players.reserve_exact(pt.players.len());
    for (i, p) in pt.players.iter().enumerate() {
        let path = || format!("tournament.players[{i}].id");
        let first = ids.insert(&p.id, i);
        if p.id.is_empty() {
            problems.push(Problem::new(path(), "a player needs an id"));
        } else if let Some(first) = first {
            problems.push(Problem::new(
                path(),
                format!("duplicate player id {:?} (also players[{first}])", p.id),
            ));
        }
        let PlayerTexts {
            name,
            title,
            federation,
            fide_id,
            sex,
            team_id,
            club,
            groups,
        } = texts(i, p);
        t.players.push(Player {
            id: if copy_ids {
                p.id.clone()
            } else {
                String::new()
            },
            name,
            rating: p.rating,
            title,
            federation,
            fide_id,
            sex,
            birth_date: if p.birth_year > 0 {
                p.birth_year.to_string()
            } else {
                String::new()
            },
            pairing_number: p.pairing_number,
            withdrawn_from_round: opt_round(p.withdrawn_from_round),
            late_entry_round: opt_round(p.late_entry_round).filter(|&r| r > 1),
            team_id,
            club,
            groups,
            rated_games: p.rated_games,
            period_games: p.period_games,
            reached_2400: p.reached_2400,
            round_ratings: p
                .round_ratings
                .iter()
                .map(|r| (r.first_round, r.rating))
                .collect(),
        });
        for (j, message) in t
            .players
            .last()
            .map(|player| player.round_ratings_problems(pt.total_rounds))
            .unwrap_or_default()
        {
            problems.push(Problem::new(
                format!("tournament.players[{i}].round_ratings[{j}]"),
                format!("player {:?}: {message}", p.id),
            ));
        }
    }
    for (i, ps) in pt.separations.iter().enumerate() {
        if let Some(s) = separation_from_proto(ps, i, problems) {
            t.separations.push(s);
        }
    }
    t.rounds.reserve_exact(pt.rounds.len());
    let mut game_number = 0;
    for (r, pr) in pt.rounds.iter().enumerate() {
        let number = r as u32 + 1;
        if pr.number != 0 && pr.number != number {
            problems.push(Problem::new(
                format!("tournament.rounds[{r}].number"),
                format!("round {} is listed in position {number}: rounds must be listed in order from 1", pr.number),
            ));
        }
        let mut round = Round {
            games: Vec::with_capacity(pr.games.len()),
            byes: Vec::with_capacity(pr.byes.len()),
        };
        for (g, pg) in pr.games.iter().enumerate() {
            let base = || format!("tournament.rounds[{r}].games[{g}]");
            let (white_id, black_id) = game_ids.of(game_number, pg);
            game_number += 1;
            let white = ids.resolve(white_id, || format!("{}.white_id", base()), problems);
            let black = ids.resolve(black_id, || format!("{}.black_id", base()), problems);
            let result = result_from_proto(pg.result).unwrap_or_else(|| {
                problems.push(Problem::new(
                    format!("{}.result", base()),
                    format!("round {number}: unknown result {}", pg.result),
                ));
                GameResult::Pending
            });
            // A game not rated (TRF W/D/L) is a game won, drawn or lost over the board.
            if pg.not_rated
                && !matches!(
                    result,
                    GameResult::WhiteWins | GameResult::Draw | GameResult::BlackWins
                )
            {
                problems.push(Problem::new(
                    format!("{}.not_rated", base()),
                    format!(
                        "round {number}: only a game won, drawn or lost over the board can be marked not rated (TRF W/D/L)"
                    ),
                ));
            }
            if let (Some(white), Some(black)) = (white, black) {
                if pg.not_rated {
                    t.not_rated_games.push(NotRatedGame {
                        round: number,
                        white,
                        black,
                    });
                }
                round.games.push(Game {
                    white,
                    black,
                    result,
                    board: opt_round(pg.board),
                });
            }
        }
        for (b, pb) in pr.byes.iter().enumerate() {
            let base = || format!("tournament.rounds[{r}].byes[{b}]");
            let player = ids.resolve(&pb.player_id, || format!("{}.player_id", base()), problems);
            let kind = bye_kind_from_proto(pb.kind);
            if kind.is_none() {
                problems.push(Problem::new(
                    format!("{}.kind", base()),
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
                    || format!("tournament.forbidden_pairings[{i}].player_ids[{j}]"),
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
        let player = ids.resolve(&a.player_id, || format!("{base}.player_id"), problems);
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
    super::team::teams_from_proto(pt, &ids, &mut t, problems);
    t
}

/// A proto separation as the model's, or its problems (the key and the mode are required;
/// a group prefix goes with GROUP only).
fn separation_from_proto(
    ps: &proto::Separation,
    i: usize,
    problems: &mut Vec<Problem>,
) -> Option<Separation> {
    let base = || format!("tournament.separations[{i}]");
    let key = match proto::SeparationKey::try_from(ps.key) {
        Ok(proto::SeparationKey::Federation) => Some(SeparationKey::Federation),
        Ok(proto::SeparationKey::Club) => Some(SeparationKey::Club),
        Ok(proto::SeparationKey::Team) => Some(SeparationKey::Team),
        // The prefix itself is checked with the snapshot (`model::validate`).
        Ok(proto::SeparationKey::Group) => Some(SeparationKey::Group(ps.group_prefix.clone())),
        _ => {
            problems.push(Problem::new(
                format!("{}.key", base()),
                format!(
                    "a separation needs a key: FEDERATION, CLUB, TEAM or GROUP (got {})",
                    ps.key
                ),
            ));
            None
        }
    };
    if !ps.group_prefix.is_empty() && !matches!(key, Some(SeparationKey::Group(_)) | None) {
        problems.push(Problem::new(
            format!("{}.group_prefix", base()),
            "a group prefix goes with the key GROUP only",
        ));
    }
    let mode = match proto::SeparationMode::try_from(ps.mode) {
        Ok(proto::SeparationMode::Absolute) => Some(SeparationMode::Absolute),
        Ok(proto::SeparationMode::Weak) => Some(SeparationMode::Weak),
        Ok(proto::SeparationMode::WeakFirst) => Some(SeparationMode::WeakFirst),
        Ok(proto::SeparationMode::WeakLast) => Some(SeparationMode::WeakLast),
        _ => {
            problems.push(Problem::new(
                format!("{}.mode", base()),
                format!(
                    "a separation needs a mode: ABSOLUTE, WEAK, WEAK_FIRST or WEAK_LAST (got {})",
                    ps.mode
                ),
            ));
            None
        }
    };
    Some(Separation {
        key: key?,
        mode: mode?,
        first_round: opt_round(ps.first_round),
        last_round: opt_round(ps.last_round),
        exempt_top_groups: opt_round(ps.exempt_top_groups),
        exempt_from_round: opt_round(ps.exempt_from_round),
    })
}

/// A model separation as the proto's.
fn separation_to_proto(s: &Separation) -> proto::Separation {
    let (key, group_prefix) = match &s.key {
        SeparationKey::Federation => (proto::SeparationKey::Federation, String::new()),
        SeparationKey::Club => (proto::SeparationKey::Club, String::new()),
        SeparationKey::Team => (proto::SeparationKey::Team, String::new()),
        SeparationKey::Group(prefix) => (proto::SeparationKey::Group, prefix.clone()),
    };
    proto::Separation {
        key: key as i32,
        group_prefix,
        mode: match s.mode {
            SeparationMode::Absolute => proto::SeparationMode::Absolute,
            SeparationMode::Weak => proto::SeparationMode::Weak,
            SeparationMode::WeakFirst => proto::SeparationMode::WeakFirst,
            SeparationMode::WeakLast => proto::SeparationMode::WeakLast,
        } as i32,
        first_round: s.first_round.unwrap_or(0),
        last_round: s.last_round.unwrap_or(0),
        exempt_top_groups: s.exempt_top_groups.unwrap_or(0),
        exempt_from_round: s.exempt_from_round.unwrap_or(0),
    }
}

/// The system options a request set, as the text the systems parse (each system reads
/// and validates its own: `systems/<name>`; the pipeline refuses what the chosen system
/// does not read). The typed proto fields are written as their option's text; an enum
/// number this build does not know is a problem here.
pub fn options_from_proto(
    o: Option<&proto::SystemOptions>,
    problems: &mut Vec<Problem>,
) -> SystemOptions {
    let mut options = SystemOptions::default();
    let Some(o) = o else {
        return options;
    };
    let path = "tournament.options";
    let mut set = |name: &str, value: &str, problems: &mut Vec<Problem>| {
        if let Err(e) = options.set(name, value) {
            problems.push(Problem::new(format!("{path}.values"), e));
        }
    };
    let unknown = |field: &str, value: i32, problems: &mut Vec<Problem>| {
        problems.push(Problem::new(
            format!("{path}.{field}"),
            format!("unknown value {value}"),
        ));
    };
    match proto::AccelerationMethod::try_from(o.acceleration) {
        Ok(proto::AccelerationMethod::Unspecified) => {}
        Ok(proto::AccelerationMethod::None) => set("acceleration", "NONE", problems),
        Ok(proto::AccelerationMethod::Baku) => set("acceleration", "BAKU", problems),
        Ok(proto::AccelerationMethod::Auto) => set("acceleration", "AUTO", problems),
        Err(_) => unknown("acceleration", o.acceleration, problems),
    }
    match proto::DutchEdition::try_from(o.dutch_edition) {
        Ok(proto::DutchEdition::Unspecified) => {}
        Ok(proto::DutchEdition::DutchEdition2026) => set("edition", "2026", problems),
        Ok(proto::DutchEdition::DutchEdition2017) => set("edition", "2017", problems),
        Err(_) => unknown("dutch_edition", o.dutch_edition, problems),
    }
    if let Some(a) = &o.amalfi {
        match proto::AmalfiProfile::try_from(a.profile) {
            Ok(proto::AmalfiProfile::Javapairing) => set("profile", "JAVAPAIRING", problems),
            Ok(_) => set("profile", "FSI", problems),
            Err(_) => unknown("amalfi.profile", a.profile, problems),
        }
    }
    if let Some(simple) = &o.simple {
        match proto::FloatHistory::try_from(simple.float_history) {
            Ok(proto::FloatHistory::Ignored) => set("float_history", "IGNORED", problems),
            Ok(_) => set("float_history", "USED", problems),
            Err(_) => unknown("simple.float_history", simple.float_history, problems),
        }
    }
    if let Some(b) = &o.backgammon {
        set("match_length", &b.match_length.to_string(), problems);
    }
    if let Some(v) = o.late_entry_score {
        let score = points(
            Some(v),
            Score::ZERO,
            &format!("{path}.late_entry_score"),
            problems,
        );
        set("late_entry_score", &score.to_string(), problems);
    }
    if let Some(rr) = &o.round_robin {
        if rr.cycles > 0 {
            set("cycles", &rr.cycles.to_string(), problems);
        }
        if rr.swap_last_two_rounds {
            set("swap_last_two_rounds", "true", problems);
        }
        match proto::RoundRobinOrder::try_from(rr.order) {
            Ok(proto::RoundRobinOrder::Unspecified) => {}
            Ok(proto::RoundRobinOrder::Lot) => set("order", "LOT", problems),
            Ok(proto::RoundRobinOrder::PairingNumber) => set("order", "PAIRING_NUMBER", problems),
            Err(_) => unknown("round_robin.order", rr.order, problems),
        }
    }
    // The same limits as `check_limits` (for the options of Simulate and Audit requests,
    // which come without a tournament): a text beyond them is neither set nor repeated.
    let mut names: Vec<&String> = o.values.keys().collect();
    names.sort();
    for name in names {
        let Some(value) = o.values.get(name) else {
            continue;
        };
        let too_long = limits::too_long(name, limits::MAX_OPTION_NAME_CHARS, "option name")
            .or_else(|| {
                limits::too_long(value, limits::MAX_OPTION_VALUE_CHARS, "option value")
                    .map(|m| format!("option {}: {m}", limits::shown(name)))
            });
        match too_long {
            Some(m) => problems.push(Problem::new(
                format!("{path}.values[{}]", limits::shown(name)),
                m,
            )),
            None => set(name, value, problems),
        }
    }
    options
}

/// A model tournament as a proto one (for TRF input echoed back, and the simulator).
pub fn tournament_to_proto(t: &Tournament) -> proto::Tournament {
    let id = |p: PlayerIdx| t.players.get(p).map(|pl| pl.id.clone()).unwrap_or_default();
    let (teams, team_settings) = super::team::teams_to_proto(t);
    proto::Tournament {
        teams,
        team_settings,
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
        // Every option as the text the systems read (the typed fields are for requests).
        options: (!t.options.is_empty()).then(|| proto::SystemOptions {
            values: t
                .options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..proto::SystemOptions::default()
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
                club: p.club.clone(),
                groups: p.groups.clone(),
                rated_games: p.rated_games,
                period_games: p.period_games,
                reached_2400: p.reached_2400,
                round_ratings: p
                    .round_ratings
                    .iter()
                    .map(|&(first_round, rating)| proto::RoundRating {
                        first_round,
                        rating,
                    })
                    .collect(),
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
                        not_rated: t.is_not_rated(r as u32 + 1, g.white, g.black),
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
        separations: t.separations.iter().map(separation_to_proto).collect(),
    }
}

/// A request's snapshot, whichever request message it came in: every request's `input`
/// oneof has these three forms.
#[derive(Clone, Copy)]
pub enum Input<'a> {
    Tournament(&'a proto::Tournament),
    Trf(&'a str),
    /// TRF bytes in the request's `trf_encoding` (default: detected).
    TrfBytes(&'a [u8]),
}

/// `From<&oneof> for Input` for each request message's `input`.
macro_rules! input_from {
    ($($oneof:path),* $(,)?) => {$(
        impl<'a> From<&'a $oneof> for Input<'a> {
            fn from(input: &'a $oneof) -> Input<'a> {
                use $oneof as I;
                match input {
                    I::Tournament(t) => Input::Tournament(t),
                    I::Trf(text) => Input::Trf(text),
                    I::TrfBytes(bytes) => Input::TrfBytes(bytes),
                }
            }
        }
    )*};
}
input_from!(
    proto::pair_request::Input,
    proto::check_request::Input,
    proto::pair_provisional_request::Input,
    proto::pair_finals_request::Input,
    proto::validate_pairing_request::Input,
    proto::standings_request::Input,
    proto::explain_request::Input,
);

/// The snapshot of a request's input (TRF bytes decoded in `encoding`), with the TRF
/// reader's warnings; problems are added to `problems`.
pub fn snapshot_of(
    input: Option<Input<'_>>,
    encoding: &str,
    limits: &Limits,
    problems: &mut Vec<Problem>,
) -> (Tournament, Vec<crate::systems::Warning>) {
    match input {
        Some(Input::Tournament(t)) => snapshot(Some(t), None, limits, problems),
        Some(Input::Trf(text)) => snapshot(None, Some(text), limits, problems),
        Some(Input::TrfBytes(bytes)) => {
            match crate::service::trf_input::decode_bytes(bytes, encoding, problems) {
                Some(text) => snapshot(None, Some(&text), limits, problems),
                None => (Tournament::default(), Vec::new()),
            }
        }
        None => snapshot(None, None, limits, problems),
    }
}

/// The snapshot of a request: a proto tournament or a TRF text.
pub fn snapshot(
    tournament: Option<&proto::Tournament>,
    trf_text: Option<&str>,
    limits: &Limits,
    problems: &mut Vec<Problem>,
) -> (Tournament, Vec<crate::systems::Warning>) {
    match (tournament, trf_text) {
        (Some(pt), _) => (tournament_from_proto(pt, limits, problems), Vec::new()),
        (None, Some(text)) => match crate::pairing::read_trf_reporting(text) {
            Ok(doc) => {
                limits.check_players(doc.tournament.players.len(), "trf", problems);
                let warnings = doc.points_warnings();
                (doc.tournament, warnings)
            }
            Err(errors) => {
                for e in errors.0 {
                    problems.push(Problem::new(
                        "trf",
                        format!("line {}, column {}: {}", e.line, e.column, e.message),
                    ));
                }
                (Tournament::default(), Vec::new())
            }
        },
        (None, None) => {
            problems.push(Problem::new("input", "give a tournament or a TRF text"));
            (Tournament::default(), Vec::new())
        }
    }
}

/// Every text and count of a proto tournament against [`crate::model::limits`], each
/// refused by its field path (a player's or a team's id in the message), the games' ids
/// read where `game_ids` says. Whether one was.
fn check_limits(
    pt: &proto::Tournament,
    game_ids: GameIdsOf<'_>,
    problems: &mut Vec<Problem>,
) -> bool {
    // Field paths and names are written only for a field over its limit: a request within
    // every limit (nearly all) allocates nothing here.
    let mut lim = Limiter::default();
    lim.tournament(pt);
    lim.players(&pt.players);
    lim.rounds(&pt.rounds, game_ids);
    lim.forbidden_pairings(&pt.forbidden_pairings);
    lim.accelerations(&pt.accelerations);
    lim.separations(&pt.separations);
    if let Some(o) = &pt.options {
        lim.options(o);
    }
    lim.teams(&pt.teams);
    if let Some(s) = &pt.team_settings {
        lim.team_settings(s);
    }
    lim.finish(problems)
}

/// The parts of a request, each checked field by field in [`check_limits`]'s order.
impl Limiter {
    /// The tournament's name and its numbers of rounds (scheduled, recorded).
    fn tournament(&mut self, pt: &proto::Tournament) {
        use crate::model::limits::{MAX_NAME_CHARS, MAX_ROUNDS};
        let rounds = u64::from(MAX_ROUNDS);
        self.text(
            &pt.name,
            MAX_NAME_CHARS,
            || "tournament.name".into(),
            String::new,
            "tournament name",
        );
        self.count(
            u64::from(pt.total_rounds),
            rounds,
            || "tournament.total_rounds".to_string(),
            String::new,
            "number of rounds",
        );
        self.count(
            pt.rounds.len() as u64,
            rounds,
            || "tournament.rounds".to_string(),
            String::new,
            "number of rounds recorded",
        );
    }

    /// Each player's texts and numbers (`tournament.players`).
    fn players(&mut self, players: &[proto::Player]) {
        use crate::model::limits::{
            MAX_CODE_CHARS, MAX_GROUP_CHARS, MAX_GROUPS_PER_PLAYER, MAX_ID_CHARS, MAX_NAME_CHARS,
            MAX_PAIRING_NUMBER, MAX_ROUNDS, shown,
        };
        let rounds = u64::from(MAX_ROUNDS);
        let numbers = u64::from(MAX_PAIRING_NUMBER);
        for (i, p) in players.iter().enumerate() {
            let base = || format!("tournament.players[{i}]");
            let who = || format!("player {}: ", shown(&p.id));
            self.text(&p.id, MAX_ID_CHARS, || format!("{}.id", base()), who, "id");
            self.text(
                &p.name,
                MAX_NAME_CHARS,
                || format!("{}.name", base()),
                who,
                "name",
            );
            self.text(
                &p.title,
                MAX_CODE_CHARS,
                || format!("{}.title", base()),
                who,
                "title",
            );
            for (field, value) in [
                ("federation", &p.federation),
                ("fide_id", &p.fide_id),
                ("sex", &p.sex),
            ] {
                self.text(
                    value,
                    MAX_CODE_CHARS,
                    || format!("{}.{field}", base()),
                    who,
                    field,
                );
            }
            self.text(
                &p.team_id,
                MAX_ID_CHARS,
                || format!("{}.team_id", base()),
                who,
                "team id",
            );
            self.text(
                &p.club,
                MAX_NAME_CHARS,
                || format!("{}.club", base()),
                who,
                "club",
            );
            self.count(
                p.groups.len() as u64,
                MAX_GROUPS_PER_PLAYER as u64,
                || format!("{}.groups", base()),
                who,
                "number of groups",
            );
            for (j, g) in p.groups.iter().enumerate() {
                self.text(
                    g,
                    MAX_GROUP_CHARS,
                    || format!("{}.groups[{j}]", base()),
                    who,
                    "group",
                );
            }
            self.count(
                p.round_ratings.len() as u64,
                rounds,
                || format!("{}.round_ratings", base()),
                who,
                "number of round ratings",
            );
            for (field, value, max) in [
                ("withdrawn_from_round", p.withdrawn_from_round, rounds),
                ("late_entry_round", p.late_entry_round, rounds),
                ("pairing_number", p.pairing_number.unwrap_or(0), numbers),
            ] {
                self.count(
                    u64::from(value),
                    max,
                    || format!("{}.{field}", base()),
                    who,
                    field,
                );
            }
        }
    }

    /// The recorded rounds' games and byes (`tournament.rounds`).
    fn rounds(&mut self, rounds: &[proto::Round], game_ids: GameIdsOf<'_>) {
        use crate::model::limits::{MAX_ID_CHARS, MAX_PAIRING_NUMBER};
        let numbers = u64::from(MAX_PAIRING_NUMBER);
        let mut game_number = 0;
        for (r, round) in rounds.iter().enumerate() {
            let base = || format!("tournament.rounds[{r}]");
            for (g, game) in round.games.iter().enumerate() {
                let at = || format!("{}.games[{g}]", base());
                let (white_id, black_id) = game_ids.of(game_number, game);
                game_number += 1;
                self.text(
                    white_id,
                    MAX_ID_CHARS,
                    || format!("{}.white_id", at()),
                    String::new,
                    "player id",
                );
                self.text(
                    black_id,
                    MAX_ID_CHARS,
                    || format!("{}.black_id", at()),
                    String::new,
                    "player id",
                );
                self.count(
                    u64::from(game.board),
                    numbers,
                    || format!("{}.board", at()),
                    String::new,
                    "board number",
                );
            }
            for (b, bye) in round.byes.iter().enumerate() {
                let path = || format!("{}.byes[{b}].player_id", base());
                self.text(&bye.player_id, MAX_ID_CHARS, path, String::new, "player id");
            }
        }
    }

    /// The forbidden pairings: how many, their players and rounds.
    fn forbidden_pairings(&mut self, forbidden: &[proto::ForbiddenPairing]) {
        use crate::model::limits::{MAX_ID_CHARS, MAX_RECORDS};
        self.count(
            forbidden.len() as u64,
            MAX_RECORDS as u64,
            || "tournament.forbidden_pairings".to_string(),
            String::new,
            "number of forbidden pairings",
        );
        for (i, f) in forbidden.iter().enumerate() {
            let base = || format!("tournament.forbidden_pairings[{i}]");
            for (j, id) in f.player_ids.iter().enumerate() {
                self.text(
                    id,
                    MAX_ID_CHARS,
                    || format!("{}.player_ids[{j}]", base()),
                    String::new,
                    "player id",
                );
            }
            self.round_numbers(
                &base,
                String::new,
                &[("first_round", f.first_round), ("last_round", f.last_round)],
            );
        }
    }

    /// The separations: how many, their prefixes and rounds.
    fn separations(&mut self, separations: &[proto::Separation]) {
        use crate::model::limits::{MAX_GROUP_CHARS, MAX_SEPARATIONS};
        self.count(
            separations.len() as u64,
            MAX_SEPARATIONS as u64,
            || "tournament.separations".to_string(),
            String::new,
            "number of separations",
        );
        for (i, s) in separations.iter().enumerate() {
            let base = || format!("tournament.separations[{i}]");
            self.text(
                &s.group_prefix,
                MAX_GROUP_CHARS,
                || format!("{}.group_prefix", base()),
                String::new,
                "group prefix",
            );
            self.round_numbers(
                &base,
                String::new,
                &[
                    ("first_round", s.first_round),
                    ("last_round", s.last_round),
                    ("exempt_top_groups", s.exempt_top_groups),
                    ("exempt_from_round", s.exempt_from_round),
                ],
            );
        }
    }

    /// The accelerations: how many, their players and rounds.
    fn accelerations(&mut self, accelerations: &[proto::Acceleration]) {
        use crate::model::limits::{MAX_ID_CHARS, MAX_RECORDS, shown};
        self.count(
            accelerations.len() as u64,
            MAX_RECORDS as u64,
            || "tournament.accelerations".to_string(),
            String::new,
            "number of accelerations",
        );
        for (i, a) in accelerations.iter().enumerate() {
            let base = || format!("tournament.accelerations[{i}]");
            self.text(
                &a.player_id,
                MAX_ID_CHARS,
                || format!("{}.player_id", base()),
                String::new,
                "player id",
            );
            let who = || format!("player {}: ", shown(&a.player_id));
            self.round_numbers(
                &base,
                who,
                &[("first_round", a.first_round), ("last_round", a.last_round)],
            );
        }
    }

    /// The system options: how many, their names and values, the round robin's cycles and
    /// the backgammon match length.
    fn options(&mut self, o: &proto::SystemOptions) {
        use crate::model::limits::{
            MAX_OPTION_NAME_CHARS, MAX_OPTION_VALUE_CHARS, MAX_OPTIONS, MAX_ROUNDS, shown,
        };
        let rounds = u64::from(MAX_ROUNDS);
        self.count(
            o.values.len() as u64,
            MAX_OPTIONS as u64,
            || "tournament.options.values".to_string(),
            String::new,
            "number of options",
        );
        let mut names: Vec<&String> = o.values.keys().collect();
        names.sort();
        for name in names {
            let path = || format!("tournament.options.values[{}]", shown(name));
            self.text(
                name,
                MAX_OPTION_NAME_CHARS,
                path,
                String::new,
                "option name",
            );
            if let Some(value) = o.values.get(name) {
                let who = || format!("option {}: ", shown(name));
                self.text(value, MAX_OPTION_VALUE_CHARS, path, who, "option value");
            }
        }
        if let Some(rr) = &o.round_robin {
            self.count(
                u64::from(rr.cycles),
                rounds,
                || "tournament.options.round_robin.cycles".to_string(),
                String::new,
                "number of cycles",
            );
        }
        if let Some(b) = &o.backgammon {
            self.count(
                u64::from(b.match_length),
                rounds,
                || "tournament.options.backgammon.match_length".to_string(),
                String::new,
                "match length",
            );
        }
    }

    /// Each team's texts, pairing number and members (`tournament.teams`).
    fn teams(&mut self, teams: &[proto::Team]) {
        use crate::model::limits::{
            MAX_CODE_CHARS, MAX_GROUP_CHARS, MAX_GROUPS_PER_PLAYER, MAX_ID_CHARS, MAX_NAME_CHARS,
            MAX_PAIRING_NUMBER, MAX_TEAM_MEMBERS, shown,
        };
        let numbers = u64::from(MAX_PAIRING_NUMBER);
        for (i, team) in teams.iter().enumerate() {
            let base = || format!("tournament.teams[{i}]");
            let who = || format!("team {}: ", shown(&team.id));
            self.text(
                &team.id,
                MAX_ID_CHARS,
                || format!("{}.id", base()),
                who,
                "id",
            );
            self.text(
                &team.name,
                MAX_NAME_CHARS,
                || format!("{}.name", base()),
                who,
                "name",
            );
            self.count(
                u64::from(team.pairing_number),
                numbers,
                || format!("{}.pairing_number", base()),
                who,
                "pairing number",
            );
            self.count(
                team.member_ids.len() as u64,
                MAX_TEAM_MEMBERS as u64,
                || format!("{}.member_ids", base()),
                who,
                "number of members",
            );
            for (j, id) in team.member_ids.iter().enumerate() {
                self.text(
                    id,
                    MAX_ID_CHARS,
                    || format!("{}.member_ids[{j}]", base()),
                    who,
                    "player id",
                );
            }
            // SEP-6: the team's groups, with the players' limits.
            self.text(
                &team.federation,
                MAX_CODE_CHARS,
                || format!("{}.federation", base()),
                who,
                "federation",
            );
            self.text(
                &team.club,
                MAX_NAME_CHARS,
                || format!("{}.club", base()),
                who,
                "club",
            );
            self.count(
                team.groups.len() as u64,
                MAX_GROUPS_PER_PLAYER as u64,
                || format!("{}.groups", base()),
                who,
                "number of groups",
            );
            for (j, g) in team.groups.iter().enumerate() {
                self.text(
                    g,
                    MAX_GROUP_CHARS,
                    || format!("{}.groups[{j}]", base()),
                    who,
                    "group",
                );
            }
        }
    }

    /// The team settings: boards, the team PABs, forfeited matches and line-ups.
    fn team_settings(&mut self, s: &proto::TeamSettings) {
        use crate::model::limits::{
            MAX_BOARDS, MAX_ID_CHARS, MAX_RECORDS, MAX_ROUNDS, MAX_TEAM_MEMBERS, shown,
        };
        let rounds = u64::from(MAX_ROUNDS);
        let p = "tournament.team_settings";
        let boards = u64::from(MAX_BOARDS);
        self.count(
            u64::from(s.boards),
            boards,
            || format!("{p}.boards"),
            String::new,
            "number of boards",
        );
        self.count(
            s.board_colours.len() as u64,
            boards,
            || format!("{p}.board_colours"),
            String::new,
            "number of board colours",
        );
        self.count(
            s.pab_team_ids.len() as u64,
            rounds,
            || format!("{p}.pab_team_ids"),
            String::new,
            "number of rounds with a team PAB",
        );
        for (j, id) in s.pab_team_ids.iter().enumerate() {
            self.text(
                id,
                MAX_ID_CHARS,
                || format!("{p}.pab_team_ids[{j}]"),
                String::new,
                "team id",
            );
        }
        self.count(
            s.forfeits.len() as u64,
            MAX_RECORDS as u64,
            || format!("{p}.forfeits"),
            String::new,
            "number of forfeited matches",
        );
        for (j, f) in s.forfeits.iter().enumerate() {
            let base = || format!("{p}.forfeits[{j}]");
            self.count(
                u64::from(f.round),
                rounds,
                || format!("{}.round", base()),
                String::new,
                "round",
            );
            self.text(
                &f.white_team_id,
                MAX_ID_CHARS,
                || format!("{}.white_team_id", base()),
                String::new,
                "team id",
            );
            self.text(
                &f.black_team_id,
                MAX_ID_CHARS,
                || format!("{}.black_team_id", base()),
                String::new,
                "team id",
            );
        }
        self.count(
            s.lineups.len() as u64,
            MAX_RECORDS as u64,
            || format!("{p}.lineups"),
            String::new,
            "number of line-ups",
        );
        for (j, l) in s.lineups.iter().enumerate() {
            let base = || format!("{p}.lineups[{j}]");
            let who = || format!("team {}: ", shown(&l.team_id));
            self.count(
                u64::from(l.round),
                rounds,
                || format!("{}.round", base()),
                who,
                "round",
            );
            self.text(
                &l.team_id,
                MAX_ID_CHARS,
                || format!("{}.team_id", base()),
                String::new,
                "team id",
            );
            self.count(
                l.player_ids.len() as u64,
                MAX_TEAM_MEMBERS as u64,
                || format!("{}.player_ids", base()),
                who,
                "number of players",
            );
            for (k, id) in l.player_ids.iter().enumerate() {
                self.text(
                    id,
                    MAX_ID_CHARS,
                    || format!("{}.player_ids[{k}]", base()),
                    who,
                    "player id",
                );
            }
        }
    }
}

/// The problems [`check_limits`] finds: text over its length first, then counts over
/// their maximum, each in the order of the fields. Paths and names are closures, called
/// only for a field that fails.
#[derive(Default)]
struct Limiter {
    texts: Vec<Problem>,
    counts: Vec<Problem>,
}

impl Limiter {
    fn text(
        &mut self,
        value: &str,
        max: usize,
        path: impl FnOnce() -> String,
        who: impl FnOnce() -> String,
        what: &str,
    ) {
        // Bytes bound characters from above: the count is needed only past `max` bytes.
        if value.len() > max
            && let Some(m) = crate::model::limits::too_long(value, max, what)
        {
            self.texts
                .push(Problem::new(path(), format!("{}{m}", who())));
        }
    }

    /// Round numbers of a record (`first_round`, `last_round`, …) within `MAX_ROUNDS`, each
    /// named under the record's path `base`.
    fn round_numbers(
        &mut self,
        base: &dyn Fn() -> String,
        who: impl Fn() -> String,
        fields: &[(&str, u32)],
    ) {
        let rounds = u64::from(crate::model::limits::MAX_ROUNDS);
        for &(field, value) in fields {
            self.count(
                u64::from(value),
                rounds,
                || format!("{}.{field}", base()),
                &who,
                field,
            );
        }
    }

    fn count(
        &mut self,
        value: u64,
        max: u64,
        path: impl FnOnce() -> String,
        who: impl FnOnce() -> String,
        what: &str,
    ) {
        if let Some(m) = crate::model::limits::too_many(value, max, what) {
            self.counts
                .push(Problem::new(path(), format!("{}{m}", who())));
        }
    }

    /// Appends the problems; true when there was one.
    fn finish(self, problems: &mut Vec<Problem>) -> bool {
        let found = !self.texts.is_empty() || !self.counts.is_empty();
        problems.extend(self.texts);
        problems.extend(self.counts);
        found
    }
}
