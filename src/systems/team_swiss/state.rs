//! The team view of a round to pair: each team's scores, colour history, preference, float
//! and meetings, built from the tournament's teams and the players' games (`model::team`).
use crate::model::validate::{Problem, Problems};
use crate::model::{
    Colour, PrimaryScore, Score, TeamColourType, TeamIdx, TeamRound, Tournament, team_points,
    team_rounds,
};
use crate::systems::{PairError, RoundToPair};

/// A team's colour preference (C.04.6 art. 1.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preference {
    pub colour: Colour,
    /// Type A's only strength, type B's "strong"; `false` = type B's "mild".
    pub strong: bool,
}

/// The float of a team in the previous round (art. 1.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Float {
    None,
    /// Played an opponent with a lower score.
    Down,
    /// Played an opponent with a higher score.
    Up,
}

/// One team as the pairing sees it.
#[derive(Clone, Debug)]
pub struct TeamState {
    pub team: TeamIdx,
    pub tpn: u32,
    /// Primary and secondary score (art. 1.2); the primary with the round's Baku virtual
    /// points (C.04.7), which pair.
    pub primary: Score,
    /// The primary score of the standings, without virtual points (art. 4.2's first-team).
    pub standing: Score,
    pub secondary: Score,
    pub match_points: Score,
    pub game_points: Score,
    /// Opponents of the played matches (art. 2.1.1 [C1]: no two teams meet twice).
    pub met: Vec<TeamIdx>,
    /// Colours of the played matches, in order (art. 1.6.1).
    pub colours: Vec<Colour>,
    /// White matches minus Black matches (art. 1.6.2).
    pub colour_difference: i32,
    /// Barred from the PAB (art. 2.1.2 [C2]): had it, or won a match by forfeit.
    pub no_pab: bool,
    pub float: Float,
    pub preference: Option<Preference>,
    /// Index of the team's score among the distinct scores of the field, 0 = lowest.
    pub level: usize,
}

impl TeamState {
    pub fn played(&self) -> usize {
        self.colours.len()
    }
}

/// The field of a round.
#[derive(Clone, Debug)]
pub struct Field {
    /// The teams taking part, by TPN.
    pub teams: Vec<TeamState>,
    /// Team index -> position in `teams`.
    pub position: Vec<Option<usize>>,
    pub round: u32,
    pub total_rounds: u32,
    pub colour_type: TeamColourType,
    pub secondary_for_colours: bool,
    /// Art. 2.3.4 [C7] and 2.3.7 [C10] do not apply in the last two rounds.
    pub last_two_rounds: bool,
    pub initial_colour: Colour,
    /// Forbidden pairs (CG-10), as positions.
    forbidden: Vec<(usize, usize)>,
    /// The weak separations of the round, by team index (SEP-5, SEP-6; empty without).
    pub weak: crate::model::WeakSeparations,
}

impl Field {
    /// A field built directly (hand-worked cases).
    #[cfg(test)]
    pub(super) fn for_tests(
        teams: Vec<TeamState>,
        position: Vec<Option<usize>>,
        round: u32,
        total_rounds: u32,
        colour_type: TeamColourType,
        initial_colour: Colour,
    ) -> Field {
        Field {
            teams,
            position,
            round,
            total_rounds,
            colour_type,
            secondary_for_colours: true,
            last_two_rounds: round + 2 > total_rounds,
            initial_colour,
            forbidden: Vec::new(),
            weak: Default::default(),
        }
    }

    /// Whether two teams (positions) share a group of a weak separation placed at `place`
    /// (SEP-5: the pair counts against the criterion there).
    pub fn within(&self, a: usize, b: usize, place: crate::model::WeakPlace) -> bool {
        !self.weak.is_empty()
            && self
                .weak
                .within(self.teams[a].team, self.teams[b].team, place)
    }

    /// Whether the round weighs a weak separation at `place`.
    pub fn weighs(&self, place: crate::model::WeakPlace) -> bool {
        self.weak.places().contains(&place)
    }

    /// Whether two teams (positions) may meet: never met in a played match (art. 2.1.1
    /// [C1]) and not a forbidden pair.
    pub fn can_meet(&self, a: usize, b: usize) -> bool {
        a != b
            && !self.teams[a].met.contains(&self.teams[b].team)
            && !self.forbidden.contains(&(a.min(b), a.max(b)))
    }
}

/// Builds the field of `round`'s number from its snapshot.
pub fn build(
    round: &RoundToPair,
    acceleration: crate::systems::AccelerationMethod,
) -> Result<Field, PairError> {
    let t = &round.tournament;
    if !t.is_team_event() {
        return Err(PairError::Invalid(Problems(vec![Problem::new(
            "tournament.teams",
            "the Swiss Team system (C.04.6) pairs teams: the tournament has none (TRF-26 310 or 013 records, or the request's teams)",
        )])));
    }
    let history = team_rounds(t).map_err(|p| PairError::Invalid(Problems(p)))?;
    let number = round.number;
    let settings = &t.team_settings;
    let points = team_points(t, &history);
    let before_last = if history.is_empty() {
        Vec::new()
    } else {
        team_points(t, &history[..history.len() - 1])
    };
    let primary_of = |(mp, gp): (Score, Score)| match settings.primary {
        PrimaryScore::MatchPoints => (mp, gp),
        PrimaryScore::GamePoints => (gp, mp),
    };
    // A team takes part when one of its members is paired this round.
    let mut present = vec![false; t.teams.len()];
    let team_of = t.team_of_players();
    for &p in &round.participants {
        if let Some(Some(team)) = team_of.get(p) {
            present[*team] = true;
        }
    }
    // C.04.7: Baku virtual points on the primary score, when the options ask for them.
    let plan = super::baku::plan(t, acceleration)?
        .map(|(p, _)| p)
        .unwrap_or_default();
    let mut order: Vec<TeamIdx> = (0..t.teams.len()).filter(|&i| present[i]).collect();
    order.sort_by_key(|&i| t.team_tpn(i));
    let total_rounds = t.total_rounds.max(number);
    let colour_type = settings.colour_type;
    let mut teams = Vec::new();
    for &i in &order {
        let (standing, secondary) = primary_of(points[i]);
        let mut state = TeamState {
            team: i,
            tpn: t.team_tpn(i),
            primary: standing + plan.points(i, number),
            standing,
            secondary,
            match_points: points[i].0,
            game_points: points[i].1,
            met: Vec::new(),
            colours: Vec::new(),
            colour_difference: 0,
            no_pab: false,
            float: Float::None,
            preference: None,
            level: 0,
        };
        for (r, tr) in history.iter().enumerate() {
            if tr.pab == Some(i) {
                state.no_pab = true;
            }
            for m in &tr.matches {
                let (own_colour, opponent, won) = if m.white == i {
                    (
                        settings.board_colour(0),
                        m.black,
                        m.white_match_points > m.black_match_points,
                    )
                } else if m.black == i {
                    (
                        settings.board_colour(0).opposite(),
                        m.white,
                        m.black_match_points > m.white_match_points,
                    )
                } else {
                    continue;
                };
                if !m.played {
                    // A match lost by forfeit on every board was not played (art. 1.6.1):
                    // no meeting, no colour; its winner cannot have the PAB (art. 2.1.2).
                    if won {
                        state.no_pab = true;
                    }
                    continue;
                }
                state.met.push(opponent);
                state.colours.push(own_colour);
                state.colour_difference += if own_colour == Colour::White { 1 } else { -1 };
                if r + 1 == history.len() {
                    // Art. 1.5: the float of the previous round, from the scores before it.
                    // With acceleration, the pairing scores of that round (C.04.7).
                    let previous = number.saturating_sub(1);
                    let own = primary_of(before_last[i]).0 + plan.points(i, previous);
                    let other =
                        primary_of(before_last[opponent]).0 + plan.points(opponent, previous);
                    state.float = if own > other {
                        Float::Down
                    } else if own < other {
                        Float::Up
                    } else {
                        Float::None
                    };
                }
            }
        }
        state.preference = preference(
            colour_type,
            state.colour_difference,
            &state.colours,
            number == total_rounds,
        );
        teams.push(state);
    }
    let mut scores: Vec<Score> = teams.iter().map(|s| s.primary).collect();
    scores.sort();
    scores.dedup();
    for s in &mut teams {
        s.level = scores.iter().position(|&x| x == s.primary).unwrap_or(0);
    }
    let mut position = vec![None; t.teams.len()];
    for (k, s) in teams.iter().enumerate() {
        position[s.team] = Some(k);
    }
    let mut forbidden = Vec::new();
    for f in t.forbidden_pairings.iter().filter(|f| f.applies_to(number)) {
        let ts: Vec<usize> = f
            .players
            .iter()
            .filter_map(|&p| team_of.get(p).copied().flatten())
            .filter_map(|team| position.get(team).copied().flatten())
            .collect();
        for (x, &a) in ts.iter().enumerate() {
            for &b in &ts[x + 1..] {
                if a != b {
                    forbidden.push((a.min(b), a.max(b)));
                }
            }
        }
    }
    Ok(Field {
        teams,
        position,
        round: number,
        total_rounds,
        colour_type,
        secondary_for_colours: settings.secondary_for_colours,
        last_two_rounds: number + 2 > total_rounds,
        initial_colour: round.initial_colour,
        forbidden,
        weak: t.weak_team_separations(number),
    })
}

/// C.04.6 art. 1.7: the colour preference from the colour difference and the colours of
/// the last played matches.
pub fn preference(
    kind: TeamColourType,
    cod: i32,
    colours: &[Colour],
    last_round: bool,
) -> Option<Preference> {
    if kind == TeamColourType::None {
        return None;
    }
    let last_two_same = |c: Colour| colours.len() >= 2 && colours[colours.len() - 2..] == [c, c];
    // Art. 1.7.1 (type A) and the strong preferences of art. 1.7.2 (type B), worded alike:
    // a colour difference below -1, or 0/-1 after two Blacks in a row, prefers White.
    if cod < -1 || ((cod == 0 || cod == -1) && last_two_same(Colour::Black)) {
        return Some(Preference {
            colour: Colour::White,
            strong: true,
        });
    }
    if cod > 1 || ((cod == 0 || cod == 1) && last_two_same(Colour::White)) {
        return Some(Preference {
            colour: Colour::Black,
            strong: true,
        });
    }
    if kind == TeamColourType::A {
        return None;
    }
    // Art. 1.7.2: type B's mild preferences.
    let mild = |colour| {
        Some(Preference {
            colour,
            strong: false,
        })
    };
    match cod {
        -1 => mild(Colour::White),
        1 => mild(Colour::Black),
        // Colour difference 0: alternate from the last played match, except when pairing
        // the last round.
        0 if !last_round => colours.last().and_then(|&c| mild(c.opposite())),
        _ => None,
    }
}

/// The team rounds of the snapshot (for the checker and the standings).
pub fn history(t: &Tournament) -> Result<Vec<TeamRound>, PairError> {
    team_rounds(t).map_err(|p| PairError::Invalid(Problems(p)))
}
