//! Team events: proto teams and team settings <-> the model's (`model::team`), and the team
//! side of a `Pair` answer.
use std::collections::HashMap;

use super::pair::board_to_proto;
use super::tournament::Ids;
use super::{opt_round, points};
use crate::model::validate::Problem;
use crate::model::{
    Colour, PrimaryScore, SystemId, Team, TeamColourType, TeamForfeit, TeamLineup, TeamSettings,
    Tournament,
};
use crate::proto;
use crate::systems::RoundPairing;

/// Reads the proto's teams and team settings into `t` (players already read). Without
/// teams, a Swiss Team event forms them from the players' `team_id`, in player order.
///
/// The teams ([`teams_of_proto`], else [`teams_of_team_ids`]), their rosters checked
/// ([`check_rosters`]) and written on the players ([`player_team_ids`]), then the settings
/// ([`settings_from_proto`]).
pub fn teams_from_proto(
    pt: &proto::Tournament,
    ids: &Ids,
    t: &mut Tournament,
    problems: &mut Vec<Problem>,
) {
    let mut teams = teams_of_proto(pt, ids, problems);
    if teams.is_empty() && t.system == Some(SystemId::TeamSwiss) {
        teams = teams_of_team_ids(t);
    }
    check_rosters(t, &teams, problems);
    player_team_ids(t, &teams, problems);
    let settings = match &pt.team_settings {
        Some(s) => settings_from_proto(s, &TeamIds::new(&teams), ids, t, problems),
        None => TeamSettings::default(),
    };
    t.teams = teams;
    t.team_settings = settings;
}

/// The proto's teams, their members resolved; a team needs an id.
fn teams_of_proto(pt: &proto::Tournament, ids: &Ids, problems: &mut Vec<Problem>) -> Vec<Team> {
    let mut teams = Vec::new();
    for (i, pteam) in pt.teams.iter().enumerate() {
        let base = format!("tournament.teams[{i}]");
        if pteam.id.is_empty() {
            problems.push(Problem::new(format!("{base}.id"), "a team needs an id"));
        }
        let members = pteam
            .member_ids
            .iter()
            .enumerate()
            .filter_map(|(j, id)| ids.resolve(id, || format!("{base}.member_ids[{j}]"), problems))
            .collect();
        teams.push(Team {
            id: pteam.id.clone(),
            tpn: pteam.pairing_number,
            name: pteam.name.clone(),
            members,
            federation: pteam.federation.clone(),
            club: pteam.club.clone(),
            groups: pteam.groups.clone(),
            ..Team::default()
        });
    }
    teams
}

/// The teams the players' `team_id`s name, in order of first appearance, each named by its
/// id, its members in player order.
fn teams_of_team_ids(t: &Tournament) -> Vec<Team> {
    let mut teams: Vec<Team> = Vec::new();
    for (p, player) in t.players.iter().enumerate() {
        if player.team_id.is_empty() {
            continue;
        }
        match teams
            .iter_mut()
            .find(|x: &&mut Team| x.id == player.team_id)
        {
            Some(team) => team.members.push(p),
            None => teams.push(Team {
                id: player.team_id.clone(),
                name: player.team_id.clone(),
                members: vec![p],
                ..Team::default()
            }),
        }
    }
    teams
}

/// Each team id once, and each player in one roster.
fn check_rosters(t: &Tournament, teams: &[Team], problems: &mut Vec<Problem>) {
    let mut seen_ids: HashMap<&str, usize> = HashMap::new();
    let mut member_of: HashMap<usize, usize> = HashMap::new();
    for (i, team) in teams.iter().enumerate() {
        if let Some(first) = seen_ids.insert(team.id.as_str(), i) {
            problems.push(Problem::new(
                format!("tournament.teams[{i}].id"),
                format!("duplicate team id {:?} (also teams[{first}])", team.id),
            ));
        }
        for &m in &team.members {
            if let Some(other) = member_of.insert(m, i) {
                problems.push(Problem::new(
                    format!("tournament.teams[{i}].member_ids"),
                    format!(
                        "player {:?} is in the rosters of team {:?} and team {:?}",
                        t.players[m].id, teams[other].id, team.id
                    ),
                ));
            }
        }
    }
}

/// A roster's team id on each member without one; a member whose `team_id` names another
/// team is a problem.
fn player_team_ids(t: &mut Tournament, teams: &[Team], problems: &mut Vec<Problem>) {
    for (i, team) in teams.iter().enumerate() {
        for &m in &team.members {
            let player = &mut t.players[m];
            if player.team_id.is_empty() {
                player.team_id = team.id.clone();
            } else if player.team_id != team.id {
                problems.push(Problem::new(
                    format!("tournament.teams[{i}].member_ids"),
                    format!(
                        "player {:?} has team_id {:?} but is in the roster of team {:?}",
                        player.id, player.team_id, team.id
                    ),
                ));
            }
        }
    }
}

/// The teams by id, for the settings that name them.
struct TeamIds<'a> {
    teams: &'a [Team],
    index: HashMap<String, usize>,
}

impl<'a> TeamIds<'a> {
    fn new(teams: &'a [Team]) -> TeamIds<'a> {
        let index = teams
            .iter()
            .enumerate()
            .map(|(i, x)| (x.id.clone(), i))
            .collect();
        TeamIds { teams, index }
    }

    /// The TPN of the team with this id (its position + 1 when none was given); an
    /// unknown id is a problem at `path`.
    fn tpn(&self, id: &str, path: String, problems: &mut Vec<Problem>) -> Option<u32> {
        match self.index.get(id) {
            Some(&i) => Some(if self.teams[i].tpn > 0 {
                self.teams[i].tpn
            } else {
                i as u32 + 1
            }),
            None => {
                problems.push(Problem::new(path, format!("unknown team id {id:?}")));
                None
            }
        }
    }
}

/// The proto's team settings: board colours (`352`), match points (`362`), the PAB's
/// points and teams (`320`), the forfeits (`330`), the colour type and scores (C.04.6 art.
/// 1.2, 1.7), the line-ups (`300`).
fn settings_from_proto(
    s: &proto::TeamSettings,
    teams: &TeamIds,
    ids: &Ids,
    t: &Tournament,
    problems: &mut Vec<Problem>,
) -> TeamSettings {
    let mut settings = TeamSettings::default();
    let base = "tournament.team_settings";
    for (k, &c) in s.board_colours.iter().enumerate() {
        match proto::Colour::try_from(c) {
            Ok(proto::Colour::White) => settings.board_colours.push(Colour::White),
            Ok(proto::Colour::Black) => settings.board_colours.push(Colour::Black),
            _ => problems.push(Problem::new(
                format!("{base}.board_colours[{k}]"),
                "a board colour is COLOUR_WHITE or COLOUR_BLACK",
            )),
        }
    }
    settings.boards = s.boards;
    settings.match_win = points(
        s.match_win,
        settings.match_win,
        &format!("{base}.match_win"),
        problems,
    );
    settings.match_draw = points(
        s.match_draw,
        settings.match_draw,
        &format!("{base}.match_draw"),
        problems,
    );
    settings.match_loss = points(
        s.match_loss,
        settings.match_loss,
        &format!("{base}.match_loss"),
        problems,
    );
    let zero = crate::model::Score::ZERO;
    settings.pab_match_points = s
        .pab_match_points
        .map(|v| points(Some(v), zero, &format!("{base}.pab_match_points"), problems));
    settings.pab_game_points = s
        .pab_game_points
        .map(|v| points(Some(v), zero, &format!("{base}.pab_game_points"), problems));
    for (r, id) in s.pab_team_ids.iter().enumerate() {
        settings.pab_rounds.push(if id.is_empty() {
            None
        } else {
            teams.tpn(id, format!("{base}.pab_team_ids[{r}]"), problems)
        });
    }
    settings.forfeits = forfeits_from_proto(s, teams, problems);
    settings.colour_type = colour_type_from_proto(s, problems);
    settings.primary = primary_from_proto(s, problems);
    settings.secondary_for_colours = !s.secondary_score_not_for_colours;
    settings.lineups = lineups_from_proto(s, teams, ids, t, problems);
    settings
}

/// The forfeited matches (`330`): both teams known, rounds from 1.
fn forfeits_from_proto(
    s: &proto::TeamSettings,
    teams: &TeamIds,
    problems: &mut Vec<Problem>,
) -> Vec<TeamForfeit> {
    let mut forfeits = Vec::new();
    for (k, f) in s.forfeits.iter().enumerate() {
        let path = format!("tournament.team_settings.forfeits[{k}]");
        let w = teams.tpn(&f.white_team_id, format!("{path}.white_team_id"), problems);
        let b = teams.tpn(&f.black_team_id, format!("{path}.black_team_id"), problems);
        if f.round == 0 {
            problems.push(Problem::new(format!("{path}.round"), "rounds start at 1"));
        }
        if let (Some(white_tpn), Some(black_tpn)) = (w, b) {
            forfeits.push(TeamForfeit {
                round: f.round,
                white_tpn,
                black_tpn,
                white_wins: f.white_wins,
                black_wins: f.black_wins,
            });
        }
    }
    forfeits
}

/// The colour preferences' type (C.04.6 art. 1.7): type A unless the proto says B or none.
fn colour_type_from_proto(s: &proto::TeamSettings, problems: &mut Vec<Problem>) -> TeamColourType {
    match proto::TeamColourType::try_from(s.colour_type) {
        Ok(proto::TeamColourType::B) => TeamColourType::B,
        Ok(proto::TeamColourType::None) => TeamColourType::None,
        Ok(_) => TeamColourType::A,
        Err(_) => {
            problems.push(Problem::new(
                "tournament.team_settings.colour_type",
                format!("unknown value {}", s.colour_type),
            ));
            TeamColourType::A
        }
    }
}

/// The score that pairs (C.04.6 art. 1.2): match points unless the proto says game points.
fn primary_from_proto(s: &proto::TeamSettings, problems: &mut Vec<Problem>) -> PrimaryScore {
    match proto::TeamPrimaryScore::try_from(s.primary_score) {
        Ok(proto::TeamPrimaryScore::GamePoints) => PrimaryScore::GamePoints,
        Ok(_) => PrimaryScore::MatchPoints,
        Err(_) => {
            problems.push(Problem::new(
                "tournament.team_settings.primary_score",
                format!("unknown value {}", s.primary_score),
            ));
            PrimaryScore::MatchPoints
        }
    }
}

/// The line-ups given for a round (`300`): a known team, its players resolved and in its
/// roster, rounds from 1.
fn lineups_from_proto(
    s: &proto::TeamSettings,
    teams: &TeamIds,
    ids: &Ids,
    t: &Tournament,
    problems: &mut Vec<Problem>,
) -> Vec<TeamLineup> {
    let mut lineups = Vec::new();
    for (k, l) in s.lineups.iter().enumerate() {
        let path = format!("tournament.team_settings.lineups[{k}]");
        let Some(&team) = teams.index.get(&l.team_id) else {
            problems.push(Problem::new(
                format!("{path}.team_id"),
                format!("unknown team id {:?}", l.team_id),
            ));
            continue;
        };
        let players: Vec<usize> = l
            .player_ids
            .iter()
            .enumerate()
            .filter_map(|(j, id)| ids.resolve(id, || format!("{path}.player_ids[{j}]"), problems))
            .collect();
        for &p in &players {
            if !teams.teams[team].members.contains(&p) {
                problems.push(Problem::new(
                    format!("{path}.player_ids"),
                    format!(
                        "round {}: player {:?} is not in the roster of team {:?}",
                        l.round, t.players[p].id, l.team_id
                    ),
                ));
            }
        }
        match opt_round(l.round) {
            Some(round) => lineups.push(TeamLineup {
                round,
                team,
                players,
            }),
            None => problems.push(Problem::new(format!("{path}.round"), "rounds start at 1")),
        }
    }
    lineups
}

/// The model's teams and settings as proto (empty for an individual event).
pub fn teams_to_proto(t: &Tournament) -> (Vec<proto::Team>, Option<proto::TeamSettings>) {
    if !t.is_team_event() {
        return (Vec::new(), None);
    }
    let pid = |p: usize| t.players.get(p).map(|x| x.id.clone()).unwrap_or_default();
    let tid = |tpn: u32| {
        t.team_by_tpn(tpn)
            .and_then(|i| t.teams.get(i))
            .map(|x| x.id.clone())
            .unwrap_or_default()
    };
    let teams = t
        .teams
        .iter()
        .map(|x| proto::Team {
            id: x.id.clone(),
            pairing_number: x.tpn,
            name: x.name.clone(),
            member_ids: x.members.iter().map(|&m| pid(m)).collect(),
            federation: x.federation.clone(),
            club: x.club.clone(),
            groups: x.groups.clone(),
        })
        .collect();
    let s = &t.team_settings;
    let settings = proto::TeamSettings {
        board_colours: s
            .board_colours
            .iter()
            .map(|c| match c {
                Colour::White => proto::Colour::White as i32,
                Colour::Black => proto::Colour::Black as i32,
            })
            .collect(),
        boards: s.boards,
        match_win: Some(s.match_win.as_f64()),
        match_draw: Some(s.match_draw.as_f64()),
        match_loss: Some(s.match_loss.as_f64()),
        pab_match_points: s.pab_match_points.map(|x| x.as_f64()),
        pab_game_points: s.pab_game_points.map(|x| x.as_f64()),
        pab_team_ids: s
            .pab_rounds
            .iter()
            .map(|x| x.map_or(String::new(), tid))
            .collect(),
        forfeits: s
            .forfeits
            .iter()
            .map(|f| proto::TeamForfeit {
                round: f.round,
                white_team_id: tid(f.white_tpn),
                black_team_id: tid(f.black_tpn),
                white_wins: f.white_wins,
                black_wins: f.black_wins,
            })
            .collect(),
        colour_type: match s.colour_type {
            TeamColourType::A => proto::TeamColourType::A as i32,
            TeamColourType::B => proto::TeamColourType::B as i32,
            TeamColourType::None => proto::TeamColourType::None as i32,
        },
        primary_score: match s.primary {
            PrimaryScore::MatchPoints => proto::TeamPrimaryScore::MatchPoints as i32,
            PrimaryScore::GamePoints => proto::TeamPrimaryScore::GamePoints as i32,
        },
        secondary_score_not_for_colours: !s.secondary_for_colours,
        lineups: s
            .lineups
            .iter()
            .map(|l| proto::TeamLineup {
                round: l.round,
                team_id: t
                    .teams
                    .get(l.team)
                    .map(|x| x.id.clone())
                    .unwrap_or_default(),
                player_ids: l.players.iter().map(|&p| pid(p)).collect(),
            })
            .collect(),
    };
    (teams, Some(settings))
}

/// The team matches and the team PAB of an answer (empty for an individual system).
pub fn team_pairings_to_proto(
    t: &Tournament,
    p: &RoundPairing,
) -> (Vec<proto::TeamPairing>, Option<proto::TeamBye>) {
    let Some(teams) = &p.teams else {
        return (Vec::new(), None);
    };
    let tid = |i: usize| t.teams.get(i).map(|x| x.id.clone()).unwrap_or_default();
    // Boards are numbered through the round, as in `PairResponse.boards`.
    let mut number = 0;
    let pairings = teams
        .matches
        .iter()
        .enumerate()
        .map(|(k, m)| proto::TeamPairing {
            number: k as u32 + 1,
            white_team_id: tid(m.white),
            black_team_id: tid(m.black),
            white_team_pairing_number: t.team_tpn(m.white),
            black_team_pairing_number: t.team_tpn(m.black),
            boards: m
                .boards
                .iter()
                .map(|b| {
                    number += 1;
                    board_to_proto(t, number, b.white, b.black, true)
                })
                .collect(),
            colour_rule: m.colour_rule.clone(),
        })
        .collect();
    let bye = teams.pab.map(|team| proto::TeamBye {
        team_id: tid(team),
        pairing_number: t.team_tpn(team),
        match_points: teams.pab_match_points.as_f64(),
        game_points: teams.pab_game_points.as_f64(),
    });
    (pairings, bye)
}
