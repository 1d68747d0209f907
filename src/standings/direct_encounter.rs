//! Direct encounter (C.07 art. 6), among the players still tied on everything before it.
//!
//! The points every tied player scored over the board against the others (the average of
//! repeated encounters) decide when they all met each other (or in a round robin). In a
//! Swiss where some did not meet, a player ranks above the rest only if its points exceed
//! the most any of the rest could reach by winning every missing game (6.3); once that
//! fails, the rest stay tied. The players still tied after a split are ranked again among
//! themselves, until nothing changes.
use std::cmp::Reverse;

use super::{Context, TieBreak, Value};
use crate::model::PlayerIdx;

/// Repeated encounters count their average: points are kept in units of 1/2520 of a tenth
/// (2520 is divisible by every count up to 10), so the averages stay exact.
const SCALE: i64 = 2520;

/// DE of every player: 0 when DE separates nobody in the player's group, else the rank
/// inside the group (1 = first). Players in no group get `None`.
pub fn values(ctx: &Context, tb: &TieBreak, groups: &[Vec<PlayerIdx>]) -> Vec<Option<Value>> {
    let n = ctx.tournament.players.len();
    let mut out = vec![None; n];
    let mut rel = vec![0u32; n];
    for group in groups {
        rank(ctx, tb, group.clone(), 0, &mut rel);
        let split = group.iter().any(|&p| rel[p] != 0);
        for &p in group {
            out[p] = Some(Value::int(if split { i64::from(rel[p]) + 1 } else { 0 }));
        }
    }
    out
}

fn rank(ctx: &Context, tb: &TieBreak, set: Vec<PlayerIdx>, first: u32, out: &mut [u32]) {
    if set.len() <= 1 {
        if let Some(&p) = set.first() {
            out[p] = first;
        }
        return;
    }
    let ranked = single_run(ctx, tb, &set);
    if ranked.iter().all(|&(_, r)| r == 0) {
        for p in set {
            out[p] = first;
        }
        return;
    }
    let mut start = 0;
    while start < ranked.len() {
        let mut end = start + 1;
        while end < ranked.len() && ranked[end].1 == ranked[start].1 {
            end += 1;
        }
        let subset: Vec<PlayerIdx> = ranked[start..end].iter().map(|&(p, _)| p).collect();
        rank(ctx, tb, subset, first + ranked[start].1, out);
        start = end;
    }
}

/// One pass over a tied set: each player with its rank inside the set (0-based, shared).
fn single_run(ctx: &Context, tb: &TieBreak, set: &[PlayerIdx]) -> Vec<(PlayerIdx, u32)> {
    let t = ctx.tournament;
    let others = set.len() - 1;
    let win = ctx.win().tenths() * SCALE;
    let mut all_met = true;
    let mut rows: Vec<(PlayerIdx, i64, i64)> = Vec::with_capacity(set.len());
    for &p in set {
        // Per opponent in the set: points and number of games.
        let mut met: Vec<(PlayerIdx, i64, i64)> = Vec::new();
        for f in &ctx.facts[p] {
            let Some(q) = f.opponent else { continue };
            let counts = f.over_board || tb.forfeits_played || ctx.round_robin;
            if !counts || !set.contains(&q) {
                continue;
            }
            match met.iter_mut().find(|m| m.0 == q) {
                Some(m) => {
                    m.1 += f.points.tenths();
                    m.2 += 1;
                }
                None => met.push((q, f.points.tenths(), 1)),
            }
        }
        let points: i64 = met.iter().map(|&(_, s, c)| s * SCALE / c).sum();
        let missing = others.saturating_sub(met.len()) as i64;
        let max = if ctx.round_robin {
            points
        } else {
            points + missing * win
        };
        if !ctx.round_robin && missing > 0 {
            all_met = false;
        }
        rows.push((p, points, max));
    }
    let tpn = |p: PlayerIdx| t.pairing_number(p);
    let mut out = Vec::with_capacity(rows.len());
    if all_met {
        rows.sort_by_key(|&(p, s, _)| (Reverse(s), tpn(p)));
        let mut rank = 0u32;
        for (i, &(p, s, _)) in rows.iter().enumerate() {
            if i > 0 && s != rows[i - 1].1 {
                rank = i as u32;
            }
            out.push((p, rank));
        }
    } else {
        rows.sort_by_key(|&(p, s, m)| (Reverse(s), Reverse(m), tpn(p)));
        let mut rank = 0u32;
        let mut unique = true;
        for i in 0..rows.len() {
            if i > 0 {
                let best_rest = rows[i..].iter().map(|r| r.2).max().unwrap_or(0);
                if unique && rows[i - 1].1 > best_rest {
                    rank = i as u32;
                } else {
                    unique = false;
                }
            }
            out.push((rows[i].0, rank));
        }
    }
    out
}
