//! The FIDE rating of one event by the Rating Regulations (B.02) in force on its dates, as a
//! registry rates a report: which games are rated (each exclusion named), the K factor and
//! why (8.3.3), each rated player's change (8.3.1-8.3.2), and the initial rating of each
//! unrated player (7.1). Rule ids are B.02's articles; `docs/ratings.md` has the table of
//! what changed when.
//!
//! Three texts are told apart, by the event's date (`docs/decisions.md`: the end date,
//! else the start date):
//! - [`RatingRules::V2017`], in force until 29 February 2024: a difference of more than
//!   400 points counts as 400 for one game per event only (the game with the greatest
//!   difference); initial ratings from the rated opponents' average, +20 a half point
//!   above 50 %; a rating floor of 1000.
//! - [`RatingRules::V2024`], from 1 March 2024: the 400-point rule in every game; initial
//!   ratings with two hypothetical draws against 1800-rated opponents (Ru = Ra + dp); the
//!   floor 1400.
//! - [`RatingRules::V2025`], from 1 October 2025: 8.3.1's 400-point rule holds only for
//!   players rated below 2650; from 2650 the actual difference is used in all cases.
use super::rating::{dp, expected_hundredths};
use super::value::div_round_half_up;
use crate::model::{Colour, GameResult, PlayerIdx, RoundEntry, Tournament};

/// A date (year, month, day).
pub type Date = (u32, u32, u32);

/// Which text of B.02 rates the event.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RatingRules {
    /// In force until 29 February 2024.
    V2017,
    /// In force from 1 March 2024.
    V2024,
    /// In force from 1 October 2025 (8.3.1 amended).
    #[default]
    V2025,
}

impl RatingRules {
    /// The text in force on a date; `None` (no date known): the text in force now.
    pub fn in_force(date: Option<Date>) -> RatingRules {
        match date {
            Some(d) if d < (2024, 3, 1) => RatingRules::V2017,
            Some(d) if d < (2025, 10, 1) => RatingRules::V2024,
            _ => RatingRules::V2025,
        }
    }

    /// The date the text came into force, as the answers name it.
    pub fn name(self) -> &'static str {
        match self {
            RatingRules::V2017 => "B.02 (in force until 2024-02-29)",
            RatingRules::V2024 => "B.02 (in force from 2024-03-01)",
            RatingRules::V2025 => "B.02 (in force from 2025-10-01)",
        }
    }

    /// A text as a request names it: "2017", "2024", "2025" (or the dates).
    pub fn parse(text: &str) -> Option<RatingRules> {
        match text.trim() {
            "2017" | "2017-07-01" => Some(RatingRules::V2017),
            "2024" | "2024-03-01" => Some(RatingRules::V2024),
            "2025" | "2025-10-01" => Some(RatingRules::V2025),
            _ => None,
        }
    }

    /// The lowest rating published (below it a player is listed as unrated).
    pub fn floor(self) -> u32 {
        match self {
            RatingRules::V2017 => 1000,
            _ => 1400,
        }
    }
}

/// Why a round does not count for a player's rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Exclusion {
    /// Won or lost by forfeit, or both forfeited: not played over the board.
    Forfeit,
    /// A bye of any kind, or absent: no game.
    Bye,
    /// Not finished: no result yet (pending or adjourned).
    NoResult,
    /// Scored by the arbiter (½-0, 0-½, 0-0): not a 1 / ½ / 0 result.
    ArbiterScore,
    /// A rated player against an unrated opponent in a Swiss (B.02 7.1: only games between
    /// rated players, and an unrated player's games against rated opponents, are rated).
    UnratedOpponentSwiss,
    /// A rated player in a round robin against an unrated opponent who gets no rating from
    /// the event (scored zero against the rated players: disregarded, 7.1).
    UnratedOpponentWithoutRating,
    /// Both players unrated.
    BothUnrated,
    /// An unrated player who scored zero against rated opponents: the event is disregarded
    /// for him (7.1).
    ZeroScoreDisregarded,
    /// Recorded as not rated (TRF `W`/`D`/`L`: a game of under one move): its points count
    /// in the standings, the game is not rated.
    NotRated,
}

impl Exclusion {
    /// A short name for the answers.
    pub fn code(self) -> &'static str {
        match self {
            Exclusion::Forfeit => "forfeit",
            Exclusion::Bye => "bye",
            Exclusion::NoResult => "no_result",
            Exclusion::ArbiterScore => "arbiter_score",
            Exclusion::UnratedOpponentSwiss => "unrated_opponent_swiss",
            Exclusion::UnratedOpponentWithoutRating => "unrated_opponent_without_rating",
            Exclusion::BothUnrated => "both_unrated",
            Exclusion::ZeroScoreDisregarded => "zero_score_disregarded",
            Exclusion::NotRated => "not_rated",
        }
    }

    /// Why, in words, with the article.
    pub fn reason(self) -> &'static str {
        match self {
            Exclusion::Forfeit => "forfeit: not played over the board (B.02 3.1)",
            Exclusion::Bye => "bye or absence: no game",
            Exclusion::NoResult => "no result yet",
            Exclusion::ArbiterScore => "scored by the arbiter, not 1, ½ or 0 (B.02 8.3.2b)",
            Exclusion::UnratedOpponentSwiss => {
                "unrated opponent in a Swiss: not rated for the rated player (B.02 7.1)"
            }
            Exclusion::UnratedOpponentWithoutRating => {
                "unrated opponent who gets no rating from the event (B.02 7.1)"
            }
            Exclusion::BothUnrated => "both players unrated (B.02 7.1)",
            Exclusion::ZeroScoreDisregarded => {
                "an unrated player's zero score against rated opponents is disregarded (B.02 7.1)"
            }
            Exclusion::NotRated => {
                "recorded as not rated (TRF W/D/L: a game of under one move); its points count in the standings"
            }
        }
    }
}

/// One round of a player, as the rating sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLine {
    pub round: u32,
    pub opponent: Option<PlayerIdx>,
    /// The opponent's rating used (an unrated opponent's rating from this event in a round
    /// robin); `None` when excluded or unrated.
    pub opponent_rating: Option<u32>,
    /// Half points scored (2 a win), when the game has a 1 / ½ / 0 result.
    pub halves: Option<i64>,
    /// `None`: rated. Otherwise why not.
    pub excluded: Option<Exclusion>,
    /// Rated games of a rated player: the difference used (after the 400-point rule) and
    /// the expected score in hundredths (8.1.2).
    pub difference: Option<i64>,
    pub expected_hundredths: Option<i64>,
    /// Whether 8.3.1's 400-point rule changed the difference in this game.
    pub capped: bool,
}

/// Why a K factor (8.3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KReason {
    /// 40 until the player has completed events with at least 30 games.
    NewPlayer,
    /// 40 until the end of the year of the 18th birthday while rated under 2300.
    Junior,
    /// 10 once the published rating has reached 2400.
    Reached2400,
    /// 20 otherwise.
    Standard,
    /// Given by the request (a national rating).
    Given,
}

impl KReason {
    pub fn code(self) -> &'static str {
        match self {
            KReason::NewPlayer => "new_player",
            KReason::Junior => "junior",
            KReason::Reached2400 => "reached_2400",
            KReason::Standard => "standard",
            KReason::Given => "given",
        }
    }
}

/// A rated player's change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// K before the 700 reduction (8.3.3).
    pub k_base: u32,
    pub k_reason: KReason,
    /// The games of the rating period (n of 8.3.3).
    pub period_games: u32,
    /// K used: the largest whole number with K × n ≤ 700 when K × n exceeds 700.
    pub k: u32,
    /// Σ(W − We) in hundredths (8.3.2).
    pub sum_hundredths: i64,
    /// K × Σ(W − We), in hundredths of a rating point.
    pub change_hundredths: i64,
}

/// An unrated player's rating from the event (7.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Initial {
    /// Games against rated opponents.
    pub games: u32,
    /// Half points against them.
    pub halves: i64,
    /// Ra: the opponents' average (2024: with two hypothetical 1800-rated opponents), in
    /// hundredths.
    pub ra_hundredths: i64,
    /// p in whole percent (2024: with the two hypothetical draws).
    pub percent: i64,
    /// dp (8.1.1), or 2017's +20 a half point above 50 %.
    pub dp: i64,
    /// Ru, rounded, capped at 2200.
    pub rating: u32,
    /// Whether the 2200 cap lowered it.
    pub capped: bool,
    /// Published: at least 5 games against rated opponents and Ru at least the floor.
    pub published: bool,
    /// The games are pooled with others (fewer than 5 here, or earlier games the player has):
    /// this is not yet the published rating (7.1: games from consecutive periods of at most
    /// 26 months are pooled).
    pub provisional: bool,
    /// Why not published, or provisional.
    pub note: String,
}

/// One player's rating from the event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRating {
    pub player: PlayerIdx,
    /// Every round, rated or excluded.
    pub games: Vec<GameLine>,
    /// Rated players.
    pub change: Option<Change>,
    /// Unrated players with a score against rated opponents.
    pub initial: Option<Initial>,
    /// A rated player's new rating (rating + change, rounded, 8.3.4) below the floor: listed
    /// as unrated.
    pub below_floor: bool,
}

/// What to rate with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RatingOptions {
    pub rules: RatingRules,
    /// The year of the event, for the junior K; `None`: not applied.
    pub year: Option<u32>,
    /// A round robin (games against unrated players count, 7.1).
    pub round_robin: bool,
    /// K for a national rating instead of FIDE's.
    pub k_factor: Option<u32>,
}

/// The event rated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatingReport {
    pub rules: RatingRules,
    pub round_robin: bool,
    pub players: Vec<PlayerRating>,
}

/// The 1 / ½ / 0 result of a round for a player and why a round is not a game.
fn round_line(round: u32, entry: RoundEntry) -> GameLine {
    let mut line = GameLine {
        round,
        opponent: None,
        opponent_rating: None,
        halves: None,
        excluded: None,
        difference: None,
        expected_hundredths: None,
        capped: false,
    };
    match entry {
        RoundEntry::None | RoundEntry::Bye(_) => line.excluded = Some(Exclusion::Bye),
        RoundEntry::Game {
            opponent,
            colour,
            result,
        } => {
            line.opponent = Some(opponent);
            let white = colour == Colour::White;
            line.halves = match result {
                GameResult::Draw => Some(1),
                GameResult::WhiteWins => Some(if white { 2 } else { 0 }),
                GameResult::BlackWins => Some(if white { 0 } else { 2 }),
                _ => None,
            };
            line.excluded = match result {
                GameResult::WhiteWins | GameResult::Draw | GameResult::BlackWins => None,
                GameResult::WhiteWinsForfeit
                | GameResult::BlackWinsForfeit
                | GameResult::DoubleForfeit => Some(Exclusion::Forfeit),
                GameResult::WhiteHalfBlackZero
                | GameResult::WhiteZeroBlackHalf
                | GameResult::BothLose => Some(Exclusion::ArbiterScore),
                GameResult::Adjourned | GameResult::Pending => Some(Exclusion::NoResult),
            };
        }
    }
    line
}

/// The K factor of 8.3.3 before the 700 reduction: 40 for a player who has not completed
/// 30 games, 40 for a junior (until the end of the year of the 18th birthday) rated under
/// 2300, 10 once the published rating has reached 2400, 20 otherwise.
pub fn k_factor(
    rating: u32,
    rated_games: Option<u32>,
    birth_year: Option<u32>,
    year: Option<u32>,
    reached_2400: bool,
) -> (u32, KReason) {
    let junior = matches!((birth_year, year), (Some(b), Some(y)) if y <= b + 18);
    if rated_games.is_some_and(|g| g < 30) {
        (40, KReason::NewPlayer)
    } else if junior && rating < 2300 {
        (40, KReason::Junior)
    } else if reached_2400 || rating >= 2400 {
        (10, KReason::Reached2400)
    } else {
        (20, KReason::Standard)
    }
}

/// 8.3.3: if K × n exceeds 700, K is the largest whole number with K × n ≤ 700.
pub fn k_for_period(k: u32, n: u32) -> u32 {
    if n > 0 && k * n > 700 { 700 / n } else { k }
}

/// The difference used for a game (8.3.1) of a player rated `own` against `opponent`,
/// when the 400-point rule applies to this game: counted as 400 when more than 400, except
/// (from 1 October 2025) for players rated 2650 and above.
fn capped_difference(rules: RatingRules, own: i64, opponent: i64, rule_applies: bool) -> i64 {
    let d = own - opponent;
    let exempt = rules == RatingRules::V2025 && own >= 2650;
    if rule_applies && !exempt {
        d.clamp(-400, 400)
    } else {
        d
    }
}

/// The difference used in each game of a player rated `own` against these opponents
/// (8.3.1): more than 400 counts as 400, in every game from 1 March 2024, for one game per
/// event only before (the game with the greatest difference, the first of equals), and
/// from 1 October 2025 only for players rated below 2650.
pub fn differences(rules: RatingRules, own: i64, opponents: &[i64]) -> Vec<i64> {
    let once = (rules == RatingRules::V2017)
        .then(|| {
            opponents
                .iter()
                .enumerate()
                .map(|(i, &r)| (i, (own - r).abs()))
                .filter(|&(_, d)| d > 400)
                .max_by_key(|&(i, d)| (d, std::cmp::Reverse(i)))
                .map(|(i, _)| i)
        })
        .flatten();
    opponents
        .iter()
        .enumerate()
        .map(|(i, &r)| {
            let applies = rules != RatingRules::V2017 || once == Some(i);
            capped_difference(rules, own, r, applies)
        })
        .collect()
}

/// Σ(W − We) in hundredths (8.3.2) of a player rated `own` over games given as (opponent's
/// rating, half points).
pub fn sum_w_minus_we(rules: RatingRules, own: i64, games: &[(i64, i64)]) -> i64 {
    let opponents: Vec<i64> = games.iter().map(|&(r, _)| r).collect();
    differences(rules, own, &opponents)
        .iter()
        .zip(games)
        .map(|(&d, &(_, h))| h * 50 - expected_hundredths(d, 0, 800))
        .sum()
}

/// An unrated player's initial rating (7.1) from his games against rated opponents
/// (ratings and half points); `None` when he has none or scored zero (disregarded).
pub fn initial_rating(
    rules: RatingRules,
    games: &[(u32, i64)],
    earlier_games: u32,
) -> Option<Initial> {
    let halves: i64 = games.iter().map(|&(_, h)| h).sum();
    if games.is_empty() || halves == 0 {
        return None;
    }
    let n = games.len() as i64;
    let sum: i64 = games.iter().map(|&(r, _)| i64::from(r)).sum();
    let (ra_hundredths, percent, dp_value, ru) = match rules {
        RatingRules::V2017 => {
            // Ra: the rated opponents' average; 50 %: Ru = Ra; above: +20 a half point
            // above 50 %; below: Ru = Ra + dp.
            let ra = div_round_half_up(sum, n);
            let percent = div_round_half_up(halves * 50, n);
            let dp_value = if halves > n {
                20 * (halves - n)
            } else {
                dp(halves, n)
            };
            (ra * 100, percent, dp_value, ra + dp_value)
        }
        RatingRules::V2024 | RatingRules::V2025 => {
            // Two hypothetical opponents rated 1800, both games drawn.
            let (sum, n2, halves2) = (sum + 2 * 1800, n + 2, halves + 2);
            let percent = div_round_half_up(halves2 * 50, n2);
            let dp_value = dp(halves2, n2);
            // Ru = Ra + dp rounded to the nearest whole number (Ra kept exact).
            let ru = div_round_half_up(sum + dp_value * n2, n2);
            (div_round_half_up(sum * 100, n2), percent, dp_value, ru)
        }
    };
    let capped = ru > 2200;
    let rating = ru.clamp(0, 2200) as u32;
    let floor = rules.floor();
    let enough = games.len() >= 5;
    let provisional = !enough || earlier_games > 0;
    let published = enough && rating >= floor && earlier_games == 0;
    let note = if earlier_games > 0 {
        format!(
            "{earlier_games} earlier games against rated opponents: pooled with this event's (B.02 7.1), not this event alone"
        )
    } else if !enough {
        format!(
            "{} games against rated opponents, 5 needed: pooled with later events (B.02 7.1)",
            games.len()
        )
    } else if rating < floor {
        format!("below {floor}: not published")
    } else {
        String::new()
    };
    Some(Initial {
        games: games.len() as u32,
        halves,
        ra_hundredths,
        percent,
        dp: dp_value,
        rating,
        capped,
        published,
        provisional,
        note,
    })
}

/// Rates the event.
pub fn rate(t: &Tournament, options: &RatingOptions) -> RatingReport {
    let rules = options.rules;
    let entries = t.entries();
    let rounds = t.rounds.len();
    let rated = |p: PlayerIdx| t.players[p].rating > 0;
    let mut lines: Vec<Vec<GameLine>> = entries
        .iter()
        .enumerate()
        .map(|(p, row)| {
            (0..rounds)
                .map(|r| {
                    let mut line = round_line(
                        r as u32 + 1,
                        row.get(r).copied().unwrap_or(RoundEntry::None),
                    );
                    // A game recorded as not rated (TRF `W`/`D`/`L`) keeps its points in
                    // the standings and is left out here.
                    if let Some(q) = line.opponent
                        && line.excluded.is_none()
                        && t.is_not_rated(line.round, p, q)
                    {
                        line.excluded = Some(Exclusion::NotRated);
                    }
                    line
                })
                .collect()
        })
        .collect();
    // Unrated players first: their initial rating from their games against rated players
    // (a round robin rates the rated players' games against them with it).
    let mut initial: Vec<Option<Initial>> = vec![None; t.players.len()];
    for p in (0..t.players.len()).filter(|&p| !rated(p)) {
        let games: Vec<(u32, i64)> = lines[p]
            .iter()
            .filter(|l| l.excluded.is_none())
            .filter_map(|l| {
                let q = l.opponent?;
                rated(q).then(|| (t.players[q].rating, l.halves.unwrap_or(0)))
            })
            .collect();
        initial[p] = initial_rating(rules, &games, t.players[p].rated_games.unwrap_or(0));
        let zero = !games.is_empty() && initial[p].is_none();
        for l in lines[p].iter_mut().filter(|l| l.excluded.is_none()) {
            match l.opponent {
                Some(q) if !rated(q) => l.excluded = Some(Exclusion::BothUnrated),
                Some(q) if zero => {
                    l.excluded = Some(Exclusion::ZeroScoreDisregarded);
                    l.opponent_rating = Some(t.players[q].rating);
                }
                Some(q) => l.opponent_rating = Some(t.players[q].rating),
                None => {}
            }
        }
    }
    let mut players = Vec::with_capacity(t.players.len());
    for p in 0..t.players.len() {
        let player = &t.players[p];
        if !rated(p) {
            players.push(PlayerRating {
                player: p,
                games: std::mem::take(&mut lines[p]),
                change: None,
                initial: initial[p].clone(),
                below_floor: false,
            });
            continue;
        }
        let own = i64::from(player.rating);
        let mut games = std::mem::take(&mut lines[p]);
        for l in games.iter_mut().filter(|l| l.excluded.is_none()) {
            let Some(q) = l.opponent else { continue };
            if rated(q) {
                l.opponent_rating = Some(t.players[q].rating);
            } else if !options.round_robin {
                l.excluded = Some(Exclusion::UnratedOpponentSwiss);
            } else {
                match &initial[q] {
                    Some(i) => l.opponent_rating = Some(i.rating),
                    None => l.excluded = Some(Exclusion::UnratedOpponentWithoutRating),
                }
            }
        }
        let rated_games: Vec<(usize, i64, i64)> = games
            .iter()
            .enumerate()
            .filter_map(|(i, l)| match (l.excluded, l.opponent_rating, l.halves) {
                (None, Some(r), Some(h)) => Some((i, i64::from(r), h)),
                _ => None,
            })
            .collect();
        let opponents: Vec<i64> = rated_games.iter().map(|&(_, r, _)| r).collect();
        let differences = differences(rules, own, &opponents);
        let mut sum = 0i64;
        let n = rated_games.len() as u32;
        for (&(i, r, h), &d) in rated_games.iter().zip(&differences) {
            // The table of 8.1.2 ends at 735 (1.00); `expected_hundredths` with a cap of
            // 800 reads it for the difference as given.
            let we = expected_hundredths(d, 0, 800);
            let l = &mut games[i];
            l.difference = Some(d);
            l.capped = d != own - r;
            l.expected_hundredths = Some(we);
            sum += h * 50 - we;
        }
        let (k_base, k_reason) = match options.k_factor {
            Some(k) => (k, KReason::Given),
            None => k_factor(
                player.rating,
                player.rated_games,
                player.birth_year(),
                options.year,
                player.reached_2400,
            ),
        };
        let period_games = player.period_games.unwrap_or(n).max(n);
        let k = if k_reason == KReason::Given {
            k_base
        } else {
            k_for_period(k_base, period_games)
        };
        let change_hundredths = i64::from(k) * sum;
        // 8.3.4: the period's change rounded, 0.5 away from zero.
        let rounded = (change_hundredths.abs() + 50) / 100 * change_hundredths.signum();
        let below_floor = own + rounded < i64::from(rules.floor());
        players.push(PlayerRating {
            player: p,
            games,
            change: Some(Change {
                k_base,
                k_reason,
                period_games,
                k,
                sum_hundredths: sum,
                change_hundredths,
            }),
            initial: None,
            below_floor,
        });
    }
    RatingReport {
        rules,
        round_robin: options.round_robin,
        players,
    }
}

/// The text for a TRF's dates: the end date (`052`), else the start date (`042`).
pub fn rules_for_dates(end: Option<Date>, start: Option<Date>) -> RatingRules {
    RatingRules::in_force(end.or(start))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_by_date() {
        assert_eq!(
            RatingRules::in_force(Some((2024, 2, 29))),
            RatingRules::V2017
        );
        assert_eq!(
            RatingRules::in_force(Some((2024, 3, 1))),
            RatingRules::V2024
        );
        assert_eq!(
            RatingRules::in_force(Some((2025, 9, 30))),
            RatingRules::V2024
        );
        assert_eq!(
            RatingRules::in_force(Some((2025, 10, 1))),
            RatingRules::V2025
        );
        assert_eq!(RatingRules::in_force(None), RatingRules::V2025);
    }

    #[test]
    fn k_by_8_3_3() {
        assert_eq!(k_factor(2100, Some(12), None, None, false).0, 40);
        assert_eq!(
            k_factor(2100, Some(30), Some(2008), Some(2026), false).0,
            40
        );
        assert_eq!(
            k_factor(2350, Some(30), Some(2008), Some(2026), false).0,
            20
        );
        assert_eq!(k_factor(2350, None, None, None, true).0, 10);
        assert_eq!(k_factor(2400, None, None, None, false).0, 10);
        assert_eq!(k_factor(2399, None, None, None, false).0, 20);
        // K × n ≤ 700: 40 × 20 = 800 > 700, so K = 35; 20 × 36 = 720, so K = 19.
        assert_eq!(k_for_period(40, 20), 35);
        assert_eq!(k_for_period(20, 36), 19);
        assert_eq!(k_for_period(20, 35), 20);
    }

    #[test]
    fn initial_2024_by_hand() {
        // 5 games against 1900, 2000, 1700, 1600, 1800 with 3 points: with the two
        // hypothetical 1800 draws, Ra = (9000 + 3600) / 7 = 1800, p = 4 / 7 = 57 %
        // (57.14 rounded), dp = 50, Ru = 1850 (7.1).
        let games = [(1900, 2), (2000, 0), (1700, 2), (1600, 2), (1800, 0)];
        let i = initial_rating(RatingRules::V2024, &games, 0).unwrap();
        assert_eq!(
            (i.ra_hundredths, i.percent, i.dp, i.rating),
            (180000, 57, 50, 1850)
        );
        assert!(i.published && !i.provisional);
        // 2017: Ra = 1800, 3 of 5 = 6 halves, one half point above 50 % (5 halves): +20.
        let i = initial_rating(RatingRules::V2017, &games, 0).unwrap();
        assert_eq!((i.rating, i.dp), (1820, 20));
        // Zero scored: disregarded.
        assert!(initial_rating(RatingRules::V2024, &[(1900, 0)], 0).is_none());
    }
}
