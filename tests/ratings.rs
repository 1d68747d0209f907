//! The FIDE rating of an event (B.02) by the text in force on its dates, worked out by
//! hand from the rule text in each test: the 8.1.2 table (PD for a difference), 8.3.1's
//! 400-point rule as each text scopes it, 8.3.3's K, 7.1's initial ratings.
mod common;

use common::swiss::Builder;
use swisspair::model::{ByeKind, SystemId, Tournament};
use swisspair::standings::fide_rating::{
    self, Exclusion, KReason, PlayerRating, RatingOptions, RatingRules,
};

fn rate(t: &Tournament, rules: RatingRules) -> Vec<PlayerRating> {
    fide_rating::rate(
        t,
        &RatingOptions {
            rules,
            year: Some(2026),
            ..RatingOptions::default()
        },
    )
    .players
}

fn ratings(t: &mut Tournament, list: &[u32]) {
    for (p, &r) in t.players.iter_mut().zip(list) {
        p.rating = r;
    }
}

fn change(r: &PlayerRating) -> (i64, u32) {
    let c = r.change.as_ref().expect("a rated player");
    (c.change_hundredths, c.k)
}

/// The case: a 2750 beats an 1800.
fn top_beats_club_player() -> Tournament {
    let mut t = Builder::new(SystemId::Dutch, 2, 1)
        .round(&[(1, 2, "1-0")], &[])
        .build();
    ratings(&mut t, &[2750, 1800]);
    t
}

#[test]
fn the_400_point_rule_by_the_text_in_force() {
    let t = top_beats_club_player();
    // From 1 October 2025 (8.3.1): the 2750 is rated 2650 or above, so the actual
    // difference 950 is used: PD = 1.00 (above 735, 8.1.2), W − We = 0, K 10 (2400
    // reached): 0.00. The 1800 is below 2650: the difference counts as −400, PD = 0.08,
    // W − We = −0.08, K 20: −1.60.
    let r = rate(&t, RatingRules::V2025);
    assert_eq!(change(&r[0]), (0, 10));
    assert_eq!(r[0].games[0].difference, Some(950));
    assert!(!r[0].games[0].capped);
    assert_eq!(change(&r[1]), (-160, 20));
    assert_eq!(r[1].games[0].difference, Some(-400));
    // From 1 March 2024 to 30 September 2025: 400 for everybody: PD 0.92, +0.08 × 10.
    let r = rate(&t, RatingRules::V2024);
    assert_eq!(change(&r[0]), (80, 10));
    assert!(r[0].games[0].capped);
    assert_eq!(change(&r[1]), (-160, 20));
    // The dates choose the text: March 2026 is the 2025 text, September 2025 the 2024 one.
    assert_eq!(
        RatingRules::in_force(Some((2026, 3, 15))),
        RatingRules::V2025
    );
    assert_eq!(
        RatingRules::in_force(Some((2025, 9, 30))),
        RatingRules::V2024
    );
}

#[test]
fn before_march_2024_the_400_point_rule_holds_once_per_event() {
    // A 2500 beats a 1900 (difference 600) and a 1950 (550). The text in force until
    // 29 February 2024: one game only, the greatest difference (600), counts as 400
    // (PD 0.92); the other keeps 550: PD 0.97 (517 < 550 ≤ 559 in 8.1.2). Σ(W − We) =
    // 0.08 + 0.03 = 0.11, K 10: +1.10. From 1 March 2024 both count as 400: 0.16, +1.60.
    let mut t = Builder::new(SystemId::Dutch, 3, 2)
        .round(&[(1, 2, "1-0")], &[(3, ByeKind::Pab)])
        .round(&[(3, 1, "0-1")], &[(2, ByeKind::Pab)])
        .build();
    ratings(&mut t, &[2500, 1900, 1950]);
    let r = rate(&t, RatingRules::V2017);
    assert_eq!(change(&r[0]), (110, 10));
    let diffs: Vec<Option<i64>> = r[0].games.iter().map(|g| g.difference).collect();
    assert_eq!(diffs, [Some(400), Some(550)]);
    let r = rate(&t, RatingRules::V2024);
    assert_eq!(change(&r[0]), (160, 10));
    // The PABs are listed as excluded rounds (no game).
    assert_eq!(r[1].games[1].excluded, Some(Exclusion::Bye));
}

#[test]
fn k_follows_8_3_3() {
    // Four players at 2000 drawing: W − We = 0 whatever K, so only K is read here.
    let mut t = Builder::new(SystemId::Dutch, 4, 1)
        .round(&[(1, 2, "="), (3, 4, "=")], &[])
        .build();
    ratings(&mut t, &[2000, 2350, 2000, 2300]);
    t.players[0].rated_games = Some(12); // fewer than 30 games: 40
    t.players[1].birth_date = "2009".into(); // 2026 ≤ 2009 + 18, but 2350 ≥ 2300: 20
    t.players[2].birth_date = "2008".into(); // 2026 ≤ 2008 + 18, under 2300: 40
    t.players[2].period_games = Some(20); // 40 × 20 = 800 > 700: K = 700 / 20 = 35
    t.players[3].reached_2400 = true; // once 2400, K stays 10
    let r = rate(&t, RatingRules::V2025);
    let k: Vec<(u32, KReason, u32)> = r
        .iter()
        .map(|p| {
            let c = p.change.as_ref().expect("rated");
            (c.k_base, c.k_reason, c.k)
        })
        .collect();
    assert_eq!(
        k,
        [
            (40, KReason::NewPlayer, 40),
            (20, KReason::Standard, 20),
            (40, KReason::Junior, 35),
            (10, KReason::Reached2400, 10),
        ]
    );
}

/// Player 1 unrated meets five rated players; player 7 (rated) meets him too; a forfeit.
fn with_an_unrated_player(system: SystemId) -> Tournament {
    let mut t = Builder::new(system, 7, 6)
        .round(
            &[(1, 2, "1-0"), (3, 4, "="), (5, 6, "=")],
            &[(7, ByeKind::Pab)],
        )
        .round(
            &[(3, 1, "1-0"), (2, 4, "="), (6, 7, "=")],
            &[(5, ByeKind::HalfPoint)],
        )
        .round(
            &[(1, 4, "1-0"), (2, 3, "+-"), (5, 7, "=")],
            &[(6, ByeKind::Pab)],
        )
        .round(
            &[(5, 1, "0-1"), (6, 2, "="), (7, 3, "=")],
            &[(4, ByeKind::Pab)],
        )
        .round(
            &[(1, 6, "0-1"), (3, 5, "="), (4, 7, "=")],
            &[(2, ByeKind::Pab)],
        )
        .round(
            &[(7, 1, "0-1"), (2, 5, "="), (4, 6, "=")],
            &[(3, ByeKind::Pab)],
        )
        .build();
    ratings(&mut t, &[0, 1900, 2000, 1700, 1600, 1800, 2100]);
    t
}

#[test]
fn an_unrated_players_initial_rating_2024() {
    let t = with_an_unrated_player(SystemId::Dutch);
    let r = rate(&t, RatingRules::V2025);
    // 7.1 (2024): six games against rated opponents (1900 W, 2000 L, 1700 W, 1600 W,
    // 1800 L, 2100 W) = 4 points; two hypothetical draws against 1800s: Ra = (11100 +
    // 3600) / 8 = 1837.50, p = 5 / 8 = 62.5 % → 63 %, dp = 95 (8.1.1), Ru = 1932.5 → 1933
    // (rounded to the nearest whole number). Six games ≥ 5 and ≥ 1400: published.
    let i = r[0].initial.as_ref().expect("an initial rating");
    assert_eq!(
        (
            i.games,
            i.halves,
            i.ra_hundredths,
            i.percent,
            i.dp,
            i.rating
        ),
        (6, 8, 183750, 63, 95, 1933)
    );
    assert!(i.published && !i.provisional);
    // In a Swiss the rated players' games against him are not rated (7.1), each shown.
    assert_eq!(
        r[1].games[0].excluded,
        Some(Exclusion::UnratedOpponentSwiss)
    );
    assert_eq!(
        r[6].games[5].excluded,
        Some(Exclusion::UnratedOpponentSwiss)
    );
    // The forfeit is no game for either (B.02 3.1), and byes are listed as byes.
    assert_eq!(r[1].games[2].excluded, Some(Exclusion::Forfeit));
    assert_eq!(r[2].games[2].excluded, Some(Exclusion::Forfeit));
    assert_eq!(r[4].games[1].excluded, Some(Exclusion::Bye));
    // With fewer than 5 games he would be provisional (pooled with later events).
    let mut short = t.clone();
    short.rounds.truncate(4);
    let r = rate(&short, RatingRules::V2025);
    let i = r[0].initial.as_ref().expect("an initial rating");
    assert_eq!(i.games, 4);
    assert!(i.provisional && !i.published);
}

#[test]
fn round_robin_rates_games_against_the_unrated_player() {
    let t = with_an_unrated_player(SystemId::RoundRobin);
    let r = fide_rating::rate(
        &t,
        &RatingOptions {
            rules: RatingRules::V2025,
            round_robin: true,
            ..RatingOptions::default()
        },
    )
    .players;
    // Player 7 (2100, K 20) lost to him in round 6: his rating from the event is 1933, the
    // difference 167 gives PD 0.72 (153 < 167 ≤ 170), W − We = −0.72; with his draws
    // against 1600 (+500: PD 0.92, −0.42), 1800 (+300: PD 0.85, −0.35), 2000 (+100:
    // 0.64, −0.14), 1700 (+400: 0.92, −0.42): Σ = −2.05, × 20 = −41.00.
    assert_eq!(r[6].games[5].opponent_rating, Some(1933));
    assert_eq!(r[6].games[5].excluded, None);
    assert_eq!(change(&r[6]), (-4100, 20));
}

#[test]
fn the_2017_initial_rating() {
    let t = with_an_unrated_player(SystemId::Dutch);
    let r = rate(&t, RatingRules::V2017);
    // Until 29 February 2024 (7.1.4 of that text): Ra = 11100 / 6 = 1850; 4 of 6 is above
    // 50 %: +20 a half point above 3 points (8 − 6 = 2 half points): Ru = 1890.
    let i = r[0].initial.as_ref().expect("an initial rating");
    assert_eq!((i.ra_hundredths, i.dp, i.rating), (185000, 40, 1890));
}

#[test]
fn the_xrg_record_carries_the_k_inputs_through_a_trf() {
    use swisspair::trf::{Dialect, TrfDocument};
    let mut t = top_beats_club_player_for_trf();
    t.players[0].rated_games = Some(140);
    t.players[0].period_games = Some(18);
    t.players[0].reached_2400 = true;
    t.players[1].rated_games = Some(12);
    let doc = TrfDocument {
        tournament: t.clone(),
        ..TrfDocument::default()
    };
    let text =
        swisspair::trf::write(&doc, Dialect::Trf26, &swisspair::systems::Registry).expect("writes");
    assert!(
        text.contains("XRG    1 140 18 2400") || text.contains("XRG 1 140 18 2400"),
        "{text}"
    );
    let back = swisspair::pairing::read_trf(&text)
        .expect("reads")
        .tournament;
    let inputs: Vec<(Option<u32>, Option<u32>, bool)> = back
        .players
        .iter()
        .map(|p| (p.rated_games, p.period_games, p.reached_2400))
        .collect();
    assert_eq!(
        inputs,
        [(Some(140), Some(18), true), (Some(12), None, false)]
    );
    // 12 games: K 40 for the 1800 (B.02 8.3.3), who loses 0.08 × 40 = 3.20.
    let r = rate(&back, RatingRules::V2025);
    assert_eq!(change(&r[1]), (-320, 40));
    // The standings' rating change uses the same K (8.3.3) and 400-point rule (8.3.1).
    let s = swisspair::standings::compute(&back, &swisspair::standings::Options::default())
        .expect("standings");
    let club = s.rows.iter().find(|r| r.player == 1).expect("a row");
    assert_eq!(club.k_factor, Some(40));
    assert_eq!(
        club.rating_change.map(|v| v.to_string()),
        Some("-3.20".to_string())
    );
    // A bad XRG is refused with its line.
    let bad = text.replace("XRG", "XRG x");
    assert!(swisspair::pairing::read_trf(&bad).is_err());
}

fn top_beats_club_player_for_trf() -> Tournament {
    let mut t = top_beats_club_player();
    t.total_rounds = 1;
    t
}

#[test]
fn a_game_recorded_as_not_rated_keeps_its_points_and_is_left_out() {
    // A (2100) beats B (2000) in round 1 and C (2000) in round 2; the second game is
    // recorded as not rated (TRF W/L: a game of under one move). 8.1.2: a difference of
    // 100 gives PD 0.64 (99-106). Rated: only round 1: W − We = 1 − 0.64 = 0.36, K 20:
    // +7.20. Without the mark both games count: 0.72 × 20 = +14.40.
    let mut t = Builder::new(SystemId::Dutch, 3, 2)
        .round(&[(1, 2, "1-0")], &[(3, ByeKind::Pab)])
        .round(&[(3, 1, "0-1")], &[(2, ByeKind::Pab)])
        .build();
    ratings(&mut t, &[2100, 2000, 2000]);
    let unmarked = rate(&t, RatingRules::V2025);
    assert_eq!(change(&unmarked[0]), (1440, 20));
    t.not_rated_games.push(swisspair::model::NotRatedGame {
        round: 2,
        white: 2,
        black: 0,
    });
    let r = rate(&t, RatingRules::V2025);
    assert_eq!(change(&r[0]), (720, 20));
    // Listed for both players, with its reason.
    for (p, round) in [(0, 1), (2, 1)] {
        let g = &r[p].games[round];
        assert_eq!(g.excluded, Some(Exclusion::NotRated));
        assert_eq!(g.excluded.map(Exclusion::code), Some("not_rated"));
        assert!(Exclusion::NotRated.reason().contains("W/D/L"));
    }
    // C's one game is not rated: no change for him.
    assert!(
        r[2].change
            .as_ref()
            .is_none_or(|c| c.change_hundredths == 0),
        "{:?}",
        r[2].change
    );
    // The points stay: A 2, B 1 (PAB), C 1 (PAB); pairing and tie-breaks see the game.
    let points: Vec<String> = t.points_after(2).iter().map(|s| s.to_string()).collect();
    assert_eq!(points, ["2.0", "1.0", "1.0"]);
}
