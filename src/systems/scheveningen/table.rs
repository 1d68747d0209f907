//! The Scheveningen table (SCH-2, SCH-3, SCH-4), and the check that past rounds follow it.
use super::Sides;
use crate::model::validate::Problem;
use crate::model::{PlayerIdx, Tournament};

/// The boards of tournament round `round` (1-based) for two teams of `n`: (board of team
/// A, board of team B, whether A's player has White), A's boards in order.
///
/// SCH-2: in round r of a cycle, A's board i meets B's board ((i + r − 2) mod n) + 1.
/// SCH-3: A's board i has White against B's board j when i + j is even, reversed for A's
/// first 2⌊n/4⌋ boards. SCH-4: the second cycle repeats the first, colours reversed.
pub fn round(n: u32, round: u32) -> Vec<(u32, u32, bool)> {
    if n == 0 || round == 0 {
        return Vec::new();
    }
    let cycle = (round - 1) / n;
    let r = (round - 1) % n + 1;
    let flipped = 2 * (n / 4);
    (1..=n)
        .map(|i| {
            let j = (i + r - 2) % n + 1;
            let white = (i + j).is_multiple_of(2) != (i <= flipped);
            (i, j, white != (cycle % 2 == 1))
        })
        .collect()
}

/// The first recorded game that is not its round's pair in the table (SCH-2); `None`
/// when every game is. Only the pairs are compared: an arbiter may have changed colours.
pub fn first_departure(t: &Tournament, sides: &Sides) -> Option<Problem> {
    let n = sides.a.len() as u32;
    let id = |p: PlayerIdx| t.players.get(p).map_or("?", |pl| pl.id.as_str());
    for (k, recorded) in t.rounds.iter().enumerate() {
        let number = k as u32 + 1;
        let pairs: Vec<(PlayerIdx, PlayerIdx)> = round(n, number)
            .into_iter()
            .map(|(i, j, _)| (sides.a[i as usize - 1], sides.b[j as usize - 1]))
            .collect();
        for (g, game) in recorded.games.iter().enumerate() {
            let ok = pairs.iter().any(|&(a, b)| {
                (game.white == a && game.black == b) || (game.white == b && game.black == a)
            });
            if !ok {
                return Some(Problem::new(
                    format!("tournament.rounds[{k}].games[{g}]"),
                    format!(
                        "round {number}: the game {} - {} is not in the Scheveningen table (SCH-2): a Scheveningen's rounds follow its table",
                        id(game.white),
                        id(game.black)
                    ),
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_board_meets_every_board_with_balanced_colours() {
        for n in 1..=16u32 {
            let mut met = std::collections::HashSet::new();
            let mut whites_a = vec![0; n as usize + 1];
            let mut whites_b = vec![0; n as usize + 1];
            for r in 1..=n {
                for (i, j, a_white) in round(n, r) {
                    assert!(met.insert((i, j)), "n={n}: {i}-{j} twice");
                    if a_white {
                        whites_a[i as usize] += 1;
                    } else {
                        whites_b[j as usize] += 1;
                    }
                }
            }
            assert_eq!(met.len() as u32, n * n);
            // Whites and blacks differ by at most one (zero for an even n).
            for w in whites_a.iter().skip(1).chain(whites_b.iter().skip(1)) {
                assert!(
                    (2 * w - n as i32).abs() <= (n % 2) as i32,
                    "n={n}: {w} whites"
                );
            }
        }
    }
}
