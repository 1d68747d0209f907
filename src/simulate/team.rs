//! Team events in the simulator: teams of `boards` players and `reserves` reserves, each
//! team of its own strength; every round each team leaves out `reserves` members at random
//! (its line-up is then the roster order without them), and the team PAB is recorded.
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::SimConfig;
use crate::model::{
    Colour, GameResult, Player, Round, Team, TeamForfeit, TeamSettings, Tournament,
};
use crate::systems::team_swiss::TeamRoundPairing;

/// The players and teams of a simulated team event; players are numbered team by team in
/// TPN order, TPNs by the average rating of each team's top boards (C.04.6 art. 1.1.2
/// leaves the order to the competition; JavaPairing's team rating).
pub(super) fn start(
    config: &SimConfig,
    rng: &mut ChaCha8Rng,
) -> (Vec<Player>, Vec<Team>, TeamSettings) {
    let size = (config.boards + config.reserves) as usize;
    let boards = config.boards as usize;
    let span = config.max_rating.max(config.min_rating) - config.min_rating;
    let mut rosters: Vec<Vec<u32>> = (0..config.teams)
        .map(|_| {
            // A team's strength, then its members around it, strongest first.
            let centre = config.min_rating + rng.random_range(0..=span);
            let mut ratings: Vec<u32> = (0..size)
                .map(|_| {
                    let spread = rng.random_range(0..=200u32);
                    centre
                        .saturating_add(spread)
                        .saturating_sub(100)
                        .clamp(config.min_rating, config.max_rating.max(config.min_rating))
                })
                .collect();
            ratings.sort_by(|a, b| b.cmp(a));
            ratings
        })
        .collect();
    let average =
        |r: &Vec<u32>| -> u64 { r.iter().take(boards).map(|&x| u64::from(x)).sum::<u64>() };
    rosters.sort_by_key(|r| std::cmp::Reverse(average(r)));
    let mut players = Vec::new();
    let mut teams = Vec::new();
    for (i, roster) in rosters.iter().enumerate() {
        let mut members = Vec::new();
        for (k, &rating) in roster.iter().enumerate() {
            let n = players.len() + 1;
            members.push(players.len());
            players.push(Player {
                id: format!("p{n}"),
                name: format!("Player {:02}-{:03}", i + 1, k + 1),
                rating,
                pairing_number: Some(n as u32),
                team_id: format!("t{}", i + 1),
                ..Player::default()
            });
        }
        teams.push(Team {
            id: format!("t{}", i + 1),
            tpn: i as u32 + 1,
            name: format!("Team {:02}", i + 1),
            members,
            ..Team::default()
        });
    }
    // The PAB's points stated (a drawn match's, art. 1.4), as the 320 record writes them.
    let draw_gp = crate::model::Score::from_tenths(config.scoring.draw.tenths() * boards as i64);
    let settings = TeamSettings {
        pab_match_points: Some(TeamSettings::default().match_draw),
        pab_game_points: Some(draw_gp),
        board_colours: (0..boards)
            .map(|b| {
                if b.is_multiple_of(2) {
                    Colour::White
                } else {
                    Colour::Black
                }
            })
            .collect(),
        ..TeamSettings::default()
    };
    let mut settings = settings;
    crate::systems::team_swiss::Options::of(&config.options).apply(&mut settings);
    (players, teams, settings)
}

/// The members each team leaves out of round `number` (`reserves` of them, at random).
pub(super) fn left_out(t: &Tournament, config: &SimConfig, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let mut out = Vec::new();
    for team in &t.teams {
        let mut members = team.members.clone();
        for _ in 0..config.reserves.min(members.len() as u32) {
            let k = rng.random_range(0..members.len());
            out.push(members.remove(k));
        }
    }
    out.sort_unstable();
    out
}

/// Forfeits whole matches at `config.forfeit_rate` per match: every board of the match is
/// lost by forfeit by one team, and the match is recorded as a `330` forfeit.
pub(super) fn forfeit_matches(
    t: &mut Tournament,
    config: &SimConfig,
    teams: &TeamRoundPairing,
    number: u32,
    round: &mut Round,
) {
    if config.forfeit_rate <= 0.0 {
        return;
    }
    let mut rng = super::round_rng(config, number, 0x7EA3);
    for m in &teams.matches {
        if !rng.random_bool(config.forfeit_rate) {
            continue;
        }
        let first_wins = rng.random::<bool>();
        let winner = if first_wins { m.white } else { m.black };
        for b in &m.boards {
            if let Some(g) = round
                .games
                .iter_mut()
                .find(|g| g.white == b.white && g.black == b.black)
            {
                let white_is_winner = t
                    .teams
                    .get(winner)
                    .is_some_and(|x| x.members.contains(&g.white));
                g.result = if white_is_winner {
                    GameResult::WhiteWinsForfeit
                } else {
                    GameResult::BlackWinsForfeit
                };
            }
        }
        t.team_settings.forfeits.push(TeamForfeit {
            round: number,
            white_tpn: t.team_tpn(m.white),
            black_tpn: t.team_tpn(m.black),
            white_wins: first_wins,
            black_wins: !first_wins,
        });
    }
}
