//! Buchholz, Sonneborn-Berger and Koya (C.07 art. 8-9) with the unplayed-round rules of
//! art. 16 and the cuts of art. 14. See the module above for the readings.
//!
//! For the pairing systems: [`buchholz`] and [`sonneborn_berger`] of a player after round
//! r are what Burstein's index (C.04.4.2) needs; build the [`Context`] once per round.
use super::{Context, Edition, TieBreak, Value};
use crate::model::{PlayerIdx, Score};

/// One round's contribution to a player's Buchholz or Sonneborn-Berger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contribution {
    pub round: u32,
    /// The opponent's (or the dummy's) score.
    pub score: Score,
    /// The points the player scored in the round.
    pub points: Score,
    /// A voluntarily unplayed round (cut first, art. 16.5).
    pub vur: bool,
}

impl Contribution {
    /// The Sonneborn-Berger product, in hundredths of a point.
    pub fn product(&self) -> i64 {
        self.score.tenths() * self.points.tenths()
    }
}

/// A player's score as its opponents see it (C.07 16.3): rounds after its last non-VUR
/// round in which it had no scheduled opponent count as draws (nothing in a round robin).
pub(super) fn adjusted_score(ctx: &Context, player: PlayerIdx) -> Score {
    let facts = &ctx.facts[player];
    let last_not_vur = facts.iter().rposition(|f| !f.vur).map_or(0, |i| i + 1);
    let filler = if ctx.round_robin {
        Score::ZERO
    } else {
        ctx.draw()
    };
    facts
        .iter()
        .enumerate()
        .map(|(i, f)| {
            if i < last_not_vur || f.opponent.is_some() {
                f.points
            } else {
                filler
            }
        })
        .sum()
}

/// Each round's contribution to a player's Buchholz / Sonneborn-Berger (before cuts).
pub fn contributions(ctx: &Context, player: PlayerIdx, edition: Edition) -> Vec<Contribution> {
    contributions_on(
        ctx,
        player,
        edition,
        &ctx.adjusted,
        ctx.points[player],
        false,
    )
}

/// The contributions with the opponents' scores `adjusted`, the player's own score `own`,
/// and (Fore Buchholz) the last round's games counted as played.
fn contributions_on(
    ctx: &Context,
    player: PlayerIdx,
    edition: Edition,
    adjusted: &[Score],
    own: Score,
    fore: bool,
) -> Vec<Contribution> {
    let cap = Score::from_tenths(ctx.draw().tenths() * i64::from(ctx.rounds));
    let mut out = Vec::with_capacity(ctx.facts[player].len());
    for (i, f) in ctx.facts[player].iter().enumerate() {
        // BG-3: a win against [absent] counts for nothing.
        if f.absent_opponent {
            continue;
        }
        let round = i as u32 + 1;
        let as_played = f.over_board || ctx.round_robin || (fore && round == ctx.rounds);
        let (score, vur) = match f.opponent {
            Some(q) if as_played => (adjusted[q], false),
            // Round robin: an unplayed round without opponent is not a game (15.2).
            None if ctx.round_robin => continue,
            // A forfeit: the dummy, capped in 2026 at the scheduled opponent's score (16.4.1).
            Some(q) => match edition {
                Edition::V2024 => (own, f.vur),
                Edition::V2026 => (own.min(adjusted[q]), f.vur),
            },
            // A bye or an absence: the dummy, capped in 2026 at a draw per round (16.4.2).
            None => match edition {
                Edition::V2024 => (own, f.vur),
                Edition::V2026 => (own.min(cap), f.vur),
            },
        };
        out.push(Contribution {
            round,
            score,
            points: f.points,
            vur,
        });
    }
    out
}

/// Fore Buchholz (art. 8.3): every game of the last round counted as a draw. A player
/// paired in the last round has all its rounds counted as scored (no draw filling, 16.3),
/// and if it had an opponent there its last-round points become a draw's, both in the
/// score its opponents see and in its own dummy score.
pub fn fore_buchholz(
    ctx: &Context,
    player: PlayerIdx,
    edition: Edition,
    low: u32,
    high: u32,
) -> Score {
    let n = ctx.tournament.players.len();
    let last = ctx.rounds as usize;
    let mut adjusted = Vec::with_capacity(n);
    let mut own = Vec::with_capacity(n);
    for p in 0..n {
        let facts = &ctx.facts[p];
        let final_fact = last.checked_sub(1).and_then(|i| facts.get(i));
        let paired_last = final_fact.is_some_and(|f| f.opponent.is_some() || f.pab);
        if !paired_last {
            adjusted.push(ctx.adjusted[p]);
            own.push(ctx.points[p]);
            continue;
        }
        let mut score: Score = facts.iter().map(|f| f.points).sum();
        let mut mine = ctx.points[p];
        if let Some(f) = final_fact.filter(|f| f.opponent.is_some()) {
            score = score - f.points + ctx.draw();
            mine = mine - f.points + ctx.draw();
        }
        adjusted.push(score);
        own.push(mine);
    }
    let list = contributions_on(ctx, player, edition, &adjusted, own[player], true);
    cut(list, low, high, |c| c.score.tenths())
        .iter()
        .map(|c| c.score)
        .sum()
}

/// Applies `low` and `high` cuts (art. 14, 16.5) and returns what is left. `value` is the
/// contribution's value (the score for BH, the product for SB).
pub fn cut(
    mut list: Vec<Contribution>,
    low: u32,
    high: u32,
    value: impl Fn(&Contribution) -> i64,
) -> Vec<Contribution> {
    let len = list.len() as u32;
    let low = low.min(len);
    let high = high.min(len - low);
    for _ in 0..low {
        // The least significant: lowest score, then lowest value; the first such round.
        let lowest = position_min(&list, |c| (c.score, value(c)));
        // A VUR goes first (16.5), unless for SB its product is lower than the one of the
        // lowest-scoring opponent: "cut the higher of the two".
        let vur = position_min(&list, |c| (!c.vur, c.score, value(c)));
        let chosen = match (lowest, vur) {
            (Some(a), Some(b)) if value(&list[a]) > value(&list[b]) => Some(a),
            (_, b) => b,
        };
        if let Some(i) = chosen {
            list.remove(i);
        }
    }
    for _ in 0..high {
        let highest = list
            .iter()
            .enumerate()
            .min_by_key(|(_, c)| (std::cmp::Reverse(c.score), std::cmp::Reverse(value(c))))
            .map(|(i, _)| i);
        if let Some(i) = highest {
            list.remove(i);
        }
    }
    list
}

fn position_min<K: Ord>(list: &[Contribution], key: impl Fn(&Contribution) -> K) -> Option<usize> {
    list.iter()
        .enumerate()
        .min_by_key(|(_, c)| key(c))
        .map(|(i, _)| i)
}

/// Buchholz with `low` / `high` cuts (`BH/C1` = 1, 0; `BH/M1` = 1, 1).
pub fn buchholz(ctx: &Context, player: PlayerIdx, edition: Edition, low: u32, high: u32) -> Score {
    cut(contributions(ctx, player, edition), low, high, |c| {
        c.score.tenths()
    })
    .iter()
    .map(|c| c.score)
    .sum()
}

/// Sonneborn-Berger with a low cut, in hundredths of a point.
pub fn sonneborn_berger(ctx: &Context, player: PlayerIdx, edition: Edition, low: u32) -> i64 {
    cut(
        contributions(ctx, player, edition),
        low,
        0,
        Contribution::product,
    )
    .iter()
    .map(Contribution::product)
    .sum()
}

/// Koya's limit (art. 9.2), in ten-thousandths of a point to stay exact: `percent` % of
/// `max` (the most points anybody could score), shifted by `/L` (in hundredths). The team
/// tie-breaks `KS:MP`, `KS:GP` use it with the most match or game points.
pub(crate) fn koya_limit(max: Score, percent: u32, shift_hundredths: i64) -> i64 {
    max.tenths() * 10 * i64::from(percent) + shift_hundredths * 100
}

/// Whether a final score reaches Koya's limit (from [`koya_limit`]).
pub(crate) fn koya_reaches(score: Score, limit: i64) -> bool {
    score.tenths() * 1000 >= limit
}

/// Koya (art. 9.2): points scored against opponents with at least the limit.
pub(super) fn koya(ctx: &Context, tb: &TieBreak) -> Vec<Option<Value>> {
    let max = Score::from_tenths(ctx.win().tenths() * i64::from(ctx.rounds));
    let limit = koya_limit(max, tb.limit_percent, tb.limit_shift_hundredths);
    let n = ctx.tournament.players.len();
    (0..n)
        .map(|p| {
            let sum: Score = ctx.facts[p]
                .iter()
                .filter_map(|f| f.opponent.map(|q| (q, f.points)))
                .filter(|&(q, _)| koya_reaches(ctx.points[q], limit))
                .map(|(_, pts)| pts)
                .sum();
            Some(Value::score(sum))
        })
        .collect()
}
