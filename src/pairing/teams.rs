//! Any Swiss or round-robin system applied to a team event with the teams as units
//! (JavaPairing's way: an event of teams of N boards, paired as if each team were one
//! player). The pipeline runs the chosen system on a unit tournament derived here, then
//! expands its answer into team pairings with board line-ups.
//!
//! The unit tournament: one unit per team (id, name and TPN the team's; rating the average
//! of its top `boards` members, the team rating of C.04.6 and JavaPairing); each team
//! match a game between the units (White the team with White on board 1; the result by
//! match points: won, drawn, lost, or forfeited when every board was); a team PAB a PAB;
//! match points as the scoring (the PAB a drawn match's, unless `320` says otherwise).
//! A team is absent from a round when none of its members takes part.
use super::{Resolved, pair_with};
use crate::model::{
    Bye, ByeKind, ForbiddenPairing, Game, GameResult, Player, PlayerIdx, Round, Score, Scoring,
    Tournament, team_rounds,
};
use crate::systems::team_swiss::{TeamPairing, TeamRoundPairing, line_up};
use crate::systems::{Explanation, PairError, PairOptions, RoundPairing, Warning};

/// The unit tournament of a team event (one player per team, index = team index).
pub fn unit_tournament(t: &Tournament) -> Result<Tournament, PairError> {
    // The players' virtual points (TRF-26 250 / XXA) say nothing of the units: refused by
    // name rather than dropped. The option `acceleration` carries over (C.04.7's Baku on
    // the units, their match points the scoring).
    if !t.accelerations.is_empty() {
        return Err(PairError::Invalid(crate::model::validate::Problems(vec![
            crate::model::validate::Problem::new(
                "tournament.accelerations",
                "virtual points (TRF-26 250 / XXA records) are given per player; teams paired as units cannot use them: use the option acceleration=BAKU instead",
            ),
        ])));
    }
    let rounds =
        team_rounds(t).map_err(|p| PairError::Invalid(crate::model::validate::Problems(p)))?;
    let s = &t.team_settings;
    let boards = t.boards() as usize;
    let players = t
        .teams
        .iter()
        .enumerate()
        .map(|(i, team)| {
            let ratings: Vec<u32> = team
                .members
                .iter()
                .take(boards.max(1))
                .filter_map(|&m| t.players.get(m).map(|p| p.rating))
                .collect();
            let rating = if ratings.is_empty() {
                0
            } else {
                // The average, rounded half up.
                let sum: u32 = ratings.iter().sum();
                (2 * sum + ratings.len() as u32) / (2 * ratings.len() as u32)
            };
            Player {
                id: team.id.clone(),
                name: team.name.clone(),
                rating,
                pairing_number: Some(t.team_tpn(i)),
                // A separation of teams (SEP-6) groups the units by their teams' groups.
                federation: team.federation.clone(),
                club: team.club.clone(),
                groups: team.groups.clone(),
                ..Player::default()
            }
        })
        .collect();
    let (pab_mp, _) = t.team_pab_points();
    let scoring = Scoring {
        win: s.match_win,
        draw: s.match_draw,
        loss: s.match_loss,
        forfeit_win: s.match_win,
        forfeit_loss: s.match_loss,
        pab: pab_mp,
        half_point_bye: s.match_draw,
        zero_point_bye: Score::ZERO,
        full_point_bye: s.match_win,
    };
    let unit_rounds = rounds
        .iter()
        .map(|r| Round {
            games: r
                .matches
                .iter()
                .map(|m| Game {
                    white: m.white,
                    black: m.black,
                    result: match (m.played, m.white_match_points.cmp(&m.black_match_points)) {
                        (true, std::cmp::Ordering::Greater) => GameResult::WhiteWins,
                        (true, std::cmp::Ordering::Less) => GameResult::BlackWins,
                        (true, std::cmp::Ordering::Equal) => GameResult::Draw,
                        (false, std::cmp::Ordering::Greater) => GameResult::WhiteWinsForfeit,
                        (false, std::cmp::Ordering::Less) => GameResult::BlackWinsForfeit,
                        (false, std::cmp::Ordering::Equal) => GameResult::DoubleForfeit,
                    },
                    board: None,
                })
                .collect(),
            // A PAB recorded for a round with no match is a round not paired yet.
            byes: r
                .pab
                .filter(|_| !r.matches.is_empty())
                .map(|team| Bye {
                    player: team,
                    kind: ByeKind::Pab,
                })
                .into_iter()
                .collect(),
        })
        .collect();
    let team_of = t.team_of_players();
    let forbidden_pairings = t
        .forbidden_pairings
        .iter()
        .map(|f| ForbiddenPairing {
            players: f
                .players
                .iter()
                .filter_map(|&p| team_of.get(p).copied().flatten())
                .collect(),
            first_round: f.first_round,
            last_round: f.last_round,
        })
        .collect();
    Ok(Tournament {
        name: t.name.clone(),
        system: t.system,
        total_rounds: t.total_rounds,
        scoring,
        initial_colour: t.initial_colour,
        lot_seed: t.lot_seed,
        options: t.options.clone(),
        players,
        rounds: unit_rounds,
        forbidden_pairings,
        separations: t.separations.clone(),
        ..Tournament::default()
    })
}

/// Pairs a team event's next round with `system`, the teams as units.
pub(super) fn pair_as_units(
    resolved: &Resolved,
    t: &Tournament,
    options: &PairOptions,
) -> Result<(Tournament, RoundPairing), PairError> {
    // The request is checked at player level first, as for any other pairing (round number,
    // absences, requested byes and their kinds): the unit snapshot below only sees teams.
    crate::systems::RoundToPair::prepare(t, options)?;
    let unit = unit_tournament(t)?;
    let number = options.round.unwrap_or_else(|| unit.next_round());
    // Players out of the round: absent, requested byes, byes written in the round.
    let mut out: Vec<PlayerIdx> = options.absent.clone();
    out.extend(options.requested_byes.iter().map(|&(p, _)| p));
    if let Some(r) = t.round(number) {
        out.extend(r.byes.iter().map(|b| b.player));
    }
    let participants: Vec<PlayerIdx> = (0..t.players.len())
        .filter(|p| !out.contains(p) && t.players[*p].is_active_in(number))
        .collect();
    // A team with nobody taking part is absent (CG-6).
    let absent_units: Vec<usize> = (0..t.teams.len())
        .filter(|&i| !t.teams[i].members.iter().any(|m| participants.contains(m)))
        .collect();
    let unit_options = PairOptions {
        round: options.round,
        absent: absent_units,
        requested_byes: Vec::new(),
        seed: options.seed,
        detail: options.detail,
        system: options.system,
    };
    let system = resolved.system;
    let (_, unit_pairing) = pair_with(resolved, &unit, &unit_options)?;
    let mut warnings: Vec<Warning> = unit_pairing
        .warnings
        .iter()
        .cloned()
        .map(|mut w| {
            w.players.clear();
            w
        })
        .collect();
    let mut numbered = t.clone();
    numbered.assign_pairing_numbers(options.seed.unwrap_or(t.lot_seed));
    let mut matches = Vec::new();
    let mut boards = Vec::new();
    for b in &unit_pairing.boards {
        let lineup = line_up(
            &numbered,
            number,
            &participants,
            b.white,
            b.black,
            &mut warnings,
        );
        boards.extend(lineup.iter().copied());
        matches.push(TeamPairing {
            white: b.white,
            black: b.black,
            boards: lineup,
            colour_rule: format!("{} (teams as units)", system.info().rule_set),
        });
    }
    let pab = unit_pairing
        .byes
        .iter()
        .find(|b| b.kind.is_pairing_allocated())
        .map(|b| b.player);
    let (pab_match_points, pab_game_points) = t.team_pab_points();
    // The unit explanation names units (teams), not players: its player lists are dropped.
    let mut explanation = Explanation::default();
    explanation.group("teams as units");
    // C.04.6 Preface: the individual Swiss rules "can also be applied mutatis mutandis to
    // teams".
    explanation.step(
        "C.04.6 Preface",
        format!(
            "{} pairs the {} teams as units (rating: the average of the top {} boards), then each match gets its board line-ups",
            system.info().title,
            t.teams.len(),
            t.boards()
        ),
        Vec::new(),
    );
    for mut g in unit_pairing.explanation.groups {
        for s in &mut g.steps {
            s.players.clear();
        }
        explanation.groups.push(g);
    }
    Ok((
        numbered,
        RoundPairing {
            round: unit_pairing.round,
            boards,
            byes: Vec::new(),
            explanation,
            warnings,
            colourless: unit_pairing.colourless,
            total_rounds: unit_pairing.total_rounds,
            match_length: unit_pairing.match_length,
            teams: Some(TeamRoundPairing {
                matches,
                pab,
                pab_match_points,
                pab_game_points,
            }),
        },
    ))
}
