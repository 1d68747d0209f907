//! The past rounds of a round robin must be the rounds of its Berger table (RR-1).
//!
//! A round robin's schedule is fixed before round 1 (C.05 Annex 1): round k is table round
//! k. A snapshot whose past games depart from the table (a Swiss history sent as a round
//! robin, a table seated otherwise, rounds played out of order) cannot be continued by the
//! table without rematches and missed opponents, so it is refused, naming the first game
//! that departs, rather than paired silently.
//!
//! Only the pairs are compared. Byes are not: a scheduled opponent may have been absent or
//! have taken a requested bye (the player then has a bye too), and a game's colours may have
//! been changed by the arbiter without changing who met whom.
use std::collections::HashSet;

use super::{berger, schedule};
use crate::model::validate::Problem;
use crate::model::{PlayerIdx, Tournament};

/// What the table is for this snapshot.
pub struct Table<'a> {
    /// `seat[i]`: the player on table number `i + 1`.
    pub seat: &'a [PlayerIdx],
    /// Even size of the table (players, plus one for the bye when odd).
    pub size: u32,
    pub swap_last_two: bool,
}

/// The first game of the recorded rounds that is not a pair of its round's table; `None`
/// when every game is.
pub fn first_departure(t: &Tournament, table: &Table<'_>) -> Option<Problem> {
    let mut number_of = vec![0u32; t.players.len()];
    for (i, &p) in table.seat.iter().enumerate() {
        if let Some(n) = number_of.get_mut(p) {
            *n = i as u32 + 1;
        }
    }
    for (k, round) in t.rounds.iter().enumerate() {
        let number = k as u32 + 1;
        let sched = schedule(table.size, number, table.swap_last_two);
        let boards = berger::round(table.size, sched.table_round);
        let pairs: HashSet<(u32, u32)> =
            boards.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
        for (j, g) in round.games.iter().enumerate() {
            let (Some(&a), Some(&b)) = (number_of.get(g.white), number_of.get(g.black)) else {
                continue;
            };
            if pairs.contains(&(a.min(b), a.max(b))) {
                continue;
            }
            let id = |p: PlayerIdx| t.players.get(p).map_or("?", |pl| pl.id.as_str());
            let opponent = |n: u32| {
                boards.iter().find_map(|&(x, y)| {
                    let other = if x == n {
                        y
                    } else if y == n {
                        x
                    } else {
                        return None;
                    };
                    Some(match table.seat.get(other as usize - 1) {
                        Some(&p) => format!("{} (table number {other})", id(p)),
                        None => "the bye".to_string(),
                    })
                })
            };
            let scheduled = |p: PlayerIdx, n: u32| {
                format!(
                    "{} (table number {n}) meets {}",
                    id(p),
                    opponent(n).unwrap_or_else(|| "nobody".to_string())
                )
            };
            return Some(Problem::new(
                format!("tournament.rounds[{k}].games[{j}]"),
                format!(
                    "round {number}: the game {} - {} is not in the Berger table for {} \
                     players (table round {}: {}, {}); a round robin's past rounds must \
                     follow its table (RR-1, C.05 Annex 1) or the next rounds would repeat \
                     or miss games: pair this tournament with a Swiss system, or give the \
                     pairing numbers (table numbers) it was seated by",
                    id(g.white),
                    id(g.black),
                    table.size,
                    sched.table_round,
                    scheduled(g.white, a),
                    scheduled(g.black, b),
                ),
            ));
        }
    }
    None
}
