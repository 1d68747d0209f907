//! A Scheveningen's two teams (SCH-1) and its team matches (SCH-6), from the snapshot
//! alone: the pairing system (`systems/scheveningen/`) and the standings read the same.
use super::validate::Problem;
use super::{PlayerIdx, Score, Tournament};

/// The two teams, each by board (SCH-1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sides {
    pub a: Vec<PlayerIdx>,
    pub b: Vec<PlayerIdx>,
    /// The teams' names for messages.
    pub names: [String; 2],
}

/// The teams of a snapshot (SCH-1): the halves of the field by pairing number, or with
/// `by_team_id` the players' two `team_id`s (team A the team of the lowest pairing number,
/// boards by pairing number); or the problems that keep it from having two teams of N.
pub fn sides(t: &Tournament, by_team_id: bool) -> Result<Sides, Vec<Problem>> {
    let mut by_number: Vec<PlayerIdx> = (0..t.players.len()).collect();
    by_number.sort_by_key(|&p| t.pairing_number(p));
    if !by_team_id {
        if by_number.len() % 2 == 1 || by_number.len() < 2 {
            return Err(vec![Problem::new(
                "tournament.players",
                format!(
                    "{} players cannot be split into two halves of equal size (SCH-1)",
                    by_number.len()
                ),
            )]);
        }
        let half = by_number.len() / 2;
        return Ok(Sides {
            a: by_number[..half].to_vec(),
            b: by_number[half..].to_vec(),
            names: ["first half".to_string(), "second half".to_string()],
        });
    }
    let mut names: Vec<&str> = Vec::new();
    for &p in &by_number {
        let id = t.players[p].team_id.as_str();
        if !names.contains(&id) {
            names.push(id);
        }
    }
    if names.len() != 2 || names.iter().any(|n| n.is_empty()) {
        return Err(vec![Problem::new(
            "tournament.players",
            format!(
                "teams=TEAM_ID needs every player's team_id to name one of exactly two teams, found {} ({}) (SCH-1)",
                names.len(),
                names
                    .iter()
                    .map(|n| format!("{n:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )]);
    }
    let of = |name: &str| -> Vec<PlayerIdx> {
        by_number
            .iter()
            .copied()
            .filter(|&p| t.players[p].team_id == name)
            .collect()
    };
    let (a, b) = (of(names[0]), of(names[1]));
    if a.len() != b.len() {
        return Err(vec![Problem::new(
            "tournament.players",
            format!(
                "team {:?} has {} players and team {:?} {}: a Scheveningen needs two teams of the same size (SCH-1)",
                names[0],
                a.len(),
                names[1],
                b.len()
            ),
        )]);
    }
    Ok(Sides {
        a,
        b,
        names: [names[0].to_string(), names[1].to_string()],
    })
}

/// The two teams' totals over some rounds (SCH-6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchScore {
    pub game_points: [Score; 2],
    pub match_points: [u32; 2],
}

/// Game and match points of the two teams over the first `rounds` rounds (SCH-6): each
/// round a match, won (2), drawn (1) or lost (0) on the game points of its boards, byes
/// included.
pub fn match_score(t: &Tournament, sides: &Sides, rounds: u32) -> MatchScore {
    let mut side = vec![None; t.players.len()];
    for &p in &sides.a {
        side[p] = Some(0usize);
    }
    for &p in &sides.b {
        side[p] = Some(1usize);
    }
    let mut score = MatchScore::default();
    for round in t.rounds.iter().take(rounds as usize) {
        let mut this = [Score::ZERO; 2];
        let mut add = |p: PlayerIdx, s: Score| {
            if let Some(Some(k)) = side.get(p) {
                this[*k] += s;
            }
        };
        for g in &round.games {
            let (w, b) = g.result.points(&t.scoring);
            add(g.white, w);
            add(g.black, b);
        }
        for b in &round.byes {
            add(b.player, b.kind.points(&t.scoring));
        }
        score.game_points[0] += this[0];
        score.game_points[1] += this[1];
        match this[0].cmp(&this[1]) {
            std::cmp::Ordering::Greater => score.match_points[0] += 2,
            std::cmp::Ordering::Less => score.match_points[1] += 2,
            std::cmp::Ordering::Equal => {
                score.match_points[0] += 1;
                score.match_points[1] += 1;
            }
        }
    }
    score
}
