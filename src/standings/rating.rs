//! Rating tie-breaks (C.07 art. 10: ARO, TPR, PTP, APRO, APPO, RTNG), the FIDE rating
//! change (B.02 8.3) and the tournament performance, from the FIDE tables of B.02 8.1.
use super::value::div_round_half_up;
use super::{Context, Kind, TieBreak, Value};
use crate::model::PlayerIdx;

/// B.02 8.1.2: the largest rating difference for each expected score of the higher-rated
/// player, from 0.50 to 0.99 (a difference above 735 gives 1.00).
const PD_UPPER: [u32; 50] = [
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153, 162,
    170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344, 357, 374,
    391, 411, 432, 456, 484, 517, 559, 619, 735,
];

/// B.02 8.1.1: dp for a fractional score p = 0.00 .. 1.00 (index = p in percent).
const DP: [i64; 101] = [
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383, -366, -351, -336, -322, -309, -296,
    -284, -273, -262, -251, -240, -230, -220, -211, -202, -193, -184, -175, -166, -158, -149, -141,
    -133, -125, -117, -110, -102, -95, -87, -80, -72, -65, -57, -50, -43, -36, -29, -21, -14, -7,
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158,
    166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/// The expected score, in hundredths, of a player rated `own` against `opponent`
/// (B.02 8.1.2), with the difference capped at `cap` (800 for performances, 400 for the
/// rating change, B.02 8.3.1).
pub fn expected_hundredths(own: i64, opponent: i64, cap: i64) -> i64 {
    let diff = (own - opponent).clamp(-cap, cap);
    let higher = |d: i64| -> i64 {
        let i = PD_UPPER.partition_point(|&u| i64::from(u) < d);
        50 + i as i64
    };
    if diff >= 0 {
        higher(diff)
    } else {
        100 - higher(-diff)
    }
}

/// The dp of B.02 8.1.1 for a score of `halves` half points in `games` games.
pub fn dp(halves: i64, games: i64) -> i64 {
    let percent = div_round_half_up(halves * 50, games).clamp(0, 100);
    DP[percent as usize]
}

/// Average rating of opponents, rounded half up.
pub fn aro(ratings: &[i64]) -> Option<i64> {
    (!ratings.is_empty()).then(|| div_round_half_up(ratings.iter().sum(), ratings.len() as i64))
}

/// Tournament performance rating: ARO + dp(p) (art. 10.2).
pub fn tpr(ratings: &[i64], halves: i64) -> Option<i64> {
    aro(ratings).map(|a| a + dp(halves, ratings.len() as i64))
}

/// Perfect tournament performance (art. 10.3): the lowest whole rating whose expected score
/// against these opponents reaches the score; a zero score gives the lowest opponent − 800.
pub fn ptp(ratings: &[i64], halves: i64) -> Option<i64> {
    let (&lo, &hi) = (ratings.iter().min()?, ratings.iter().max()?);
    if halves <= 0 {
        return Some(lo - 800);
    }
    let target = halves * 50;
    let reaches = |r: i64| -> bool {
        ratings
            .iter()
            .map(|&o| expected_hundredths(r, o, 800))
            .sum::<i64>()
            >= target
    };
    // The expected score grows with the rating: binary search for the first that reaches.
    let (mut low, mut high) = (lo - 801, hi + 800);
    if !reaches(high) {
        return Some(high);
    }
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if reaches(mid) {
            high = mid;
        } else {
            low = mid;
        }
    }
    Some(high)
}

/// The ratings of a player's opponents over the board and the score against them (half
/// points), with the code's cuts: unrated opponents (no `/U`) are cut first, then the
/// lowest rating (`/C`), then the highest (`/M`).
fn opponents(ctx: &Context, p: PlayerIdx, tb: &TieBreak) -> (Vec<i64>, i64) {
    let t = ctx.tournament;
    let mut rated: Vec<(i64, i64)> = Vec::new();
    let mut games = 0u32;
    for (r, f) in ctx.facts[p].iter().enumerate() {
        let (Some(q), true) = (f.opponent, f.over_board) else {
            continue;
        };
        games += 1;
        // C.07 art. 10: the opponent's rating; with ratings by round (an event over 30
        // days, checklist Q213-214), the one in force in the round of the game.
        let r = i64::from(t.players[q].rating_in_round(r as u32 + 1));
        let r = if r > 0 {
            Some(r)
        } else {
            tb.unrated_rating.map(i64::from)
        };
        if let Some(r) = r {
            rated.push((r, f.rating_halves.unwrap_or(0)));
        }
    }
    let mut low = tb.cut_low.min(games);
    let high = tb.cut_high.min(games - low);
    let mut games = games as usize;
    let mut cut = |low: &mut u32, highest: bool| {
        while *low > 0 {
            if games == rated.len() && !rated.is_empty() {
                rated.sort_by_key(|&(r, _)| r);
                if highest {
                    rated.pop();
                } else {
                    rated.remove(0);
                }
            }
            games = games.saturating_sub(1);
            *low -= 1;
        }
    };
    cut(&mut low, false);
    let mut high = high;
    cut(&mut high, true);
    let halves = rated.iter().map(|&(_, h)| h).sum();
    (rated.into_iter().map(|(r, _)| r).collect(), halves)
}

/// Whether rating tie-breaks are defined: every player rated, or `/U` given (art. 10).
fn defined(ctx: &Context, tb: &TieBreak) -> bool {
    tb.unrated_rating.is_some()
        || ctx
            .tournament
            .players
            .iter()
            .all(|p| p.rating > 0 && p.round_ratings.iter().all(|&(_, r)| r > 0))
}

/// Every player's value of a rating tie-break.
pub(super) fn tie_break(ctx: &Context, tb: &TieBreak) -> Vec<Option<Value>> {
    let n = ctx.tournament.players.len();
    if !defined(ctx, tb) {
        return vec![None; n];
    }
    let per = |f: &dyn Fn(&[i64], i64) -> Option<i64>, tb: &TieBreak| -> Vec<Option<i64>> {
        (0..n)
            .map(|p| {
                let (r, h) = opponents(ctx, p, tb);
                f(&r, h)
            })
            .collect()
    };
    let out: Vec<Option<i64>> = match tb.kind {
        Kind::Aro => per(&|r, _| aro(r), tb),
        Kind::Tpr => per(&tpr, tb),
        Kind::Ptp => per(&ptp, tb),
        Kind::Apro | Kind::Appo => {
            // The opponents' own TPR / PTP, without cuts.
            let plain = TieBreak {
                cut_low: 0,
                cut_high: 0,
                ..tb.clone()
            };
            let own = if tb.kind == Kind::Apro {
                per(&tpr, &plain)
            } else {
                per(&ptp, &plain)
            };
            (0..n)
                .map(|p| {
                    let v: Vec<i64> = ctx.facts[p]
                        .iter()
                        .filter(|f| f.over_board)
                        .filter_map(|f| f.opponent.and_then(|q| own[q]))
                        .collect();
                    aro(&v)
                })
                .collect()
        }
        Kind::Rtng => ctx
            .tournament
            .players
            .iter()
            .map(|p| {
                if p.rating > 0 {
                    Some(i64::from(p.rating))
                } else {
                    tb.unrated_rating.map(i64::from)
                }
            })
            .collect(),
        _ => vec![None; n],
    };
    out.into_iter().map(|v| v.map(Value::int)).collect()
}

/// Every player's TPR against rated opponents (unrated ones left out), for the report.
pub(super) fn performances(ctx: &Context) -> Vec<Option<i64>> {
    let tb = TieBreak::new(Kind::Tpr);
    (0..ctx.tournament.players.len())
        .map(|p| {
            let (r, h) = opponents(ctx, p, &tb);
            tpr(&r, h)
        })
        .collect()
}

/// The K factor of B.02 8.3.3 as far as a TRF tells it (see the module docs): 40 until
/// the end of the year of the 18th birthday while under 2300, 10 from 2400, else 20.
pub fn fide_k(rating: u32, birth_year: Option<u32>, year: Option<u32>) -> u32 {
    let young = matches!((birth_year, year), (Some(b), Some(y)) if y <= b + 18);
    if rating >= 2400 {
        10
    } else if young && rating < 2300 {
        40
    } else {
        20
    }
}

/// Every player's rating change and the K used (None for unrated players).
pub(super) fn rating_changes(
    ctx: &Context,
    national_k: Option<u32>,
    year: Option<u32>,
    rules: super::fide_rating::RatingRules,
) -> Vec<(Option<Value>, Option<u32>)> {
    let t = ctx.tournament;
    (0..t.players.len())
        .map(|p| {
            let player = &t.players[p];
            if player.rating == 0 {
                return (None, None);
            }
            let own = i64::from(player.rating);
            // A game recorded as not rated (TRF `W`/`D`/`L`) is left out here as in
            // `fide_rating`; the tie-breaks still count it.
            let games: Vec<(i64, i64)> = ctx.facts[p]
                .iter()
                .enumerate()
                .filter_map(|(r, f)| {
                    let (q, h) = (f.opponent?, f.rating_halves?);
                    let opp = i64::from(t.players[q].rating);
                    (opp > 0 && !t.is_not_rated(r as u32 + 1, p, q)).then_some((opp, h))
                })
                .collect();
            // K of B.02 8.3.3 with the player's rated games, 2400 reached and the K × n ≤
            // 700 reduction (n: the period's games, else these), as `fide_rating` rates.
            let k = national_k.unwrap_or_else(|| {
                let (k, _) = super::fide_rating::k_factor(
                    player.rating,
                    player.rated_games,
                    player.birth_year(),
                    year,
                    player.reached_2400,
                );
                let n = (games.len() as u32).max(player.period_games.unwrap_or(0));
                super::fide_rating::k_for_period(k, n)
            });
            // B.02 8.3.1 by the text in force (the 400-point rule's scope changed in
            // 2024 and 2025, `fide_rating`).
            let sum = super::fide_rating::sum_w_minus_we(rules, own, &games);
            (Some(Value::hundredths(i64::from(k) * sum)), Some(k))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_score_table() {
        assert_eq!(expected_hundredths(1600, 1600, 800), 50);
        assert_eq!(expected_hundredths(1604, 1600, 800), 51);
        assert_eq!(expected_hundredths(1600, 1604, 800), 49);
        assert_eq!(expected_hundredths(2335, 1600, 800), 99);
        assert_eq!(expected_hundredths(2336, 1600, 800), 100);
        // The 400-point rule for the rating change.
        assert_eq!(expected_hundredths(2500, 1600, 400), 92);
    }

    #[test]
    fn k_factors() {
        assert_eq!(fide_k(2450, Some(2012), Some(2026)), 10);
        // Until the end of the year of the 18th birthday, under 2300.
        assert_eq!(fide_k(2100, Some(2008), Some(2026)), 40);
        assert_eq!(fide_k(2100, Some(2007), Some(2026)), 20);
        assert_eq!(fide_k(2350, Some(2012), Some(2026)), 20);
        assert_eq!(fide_k(2100, None, Some(2026)), 20);
    }

    #[test]
    fn performances_follow_the_tables() {
        // 2 of 3 against 2000, 2100, 2200: ARO 2100, p = 67 %, dp = 125.
        assert_eq!(aro(&[2000, 2100, 2200]), Some(2100));
        assert_eq!(tpr(&[2000, 2100, 2200], 4), Some(2225));
        assert_eq!(ptp(&[2000, 2100], 0), Some(1200));
        // 1 of 2 against 2000 and 2000: the lowest R with expected 0.50 + 0.50 is 2000 − 3.
        assert_eq!(ptp(&[2000, 2000], 2), Some(1997));
        assert_eq!(aro(&[]), None);
    }
}
