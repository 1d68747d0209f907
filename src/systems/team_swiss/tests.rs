//! Hand-worked cases of C.04.6, written from the text: each article's case on a field built
//! directly (scores, colour histories, floats), so that one rule decides.
use super::colour::allocate;
use super::pairing::{pair, pair_bracket, pair_bracket_in};
use super::state::{Field, Float, TeamState, preference};
use crate::model::{Colour, Score, TeamColourType};
use crate::systems::Explanation;

use Colour::{Black as B, White as W};

fn team(tpn: u32, points: i64, colours: &[Colour]) -> TeamState {
    let cod = colours
        .iter()
        .map(|&c| if c == W { 1 } else { -1 })
        .sum::<i32>();
    TeamState {
        team: tpn as usize - 1,
        tpn,
        primary: Score::points(points),
        standing: Score::points(points),
        secondary: Score::ZERO,
        match_points: Score::points(points),
        game_points: Score::ZERO,
        met: Vec::new(),
        colours: colours.to_vec(),
        colour_difference: cod,
        no_pab: false,
        float: Float::None,
        preference: None,
        level: 0,
    }
}

/// A field of these teams (TPN order), preferences and levels as `state::build` sets them.
fn field(mut teams: Vec<TeamState>, kind: TeamColourType, round: u32, total: u32) -> Field {
    teams.sort_by_key(|t| t.tpn);
    for t in &mut teams {
        t.preference = preference(kind, t.colour_difference, &t.colours, round == total);
    }
    let mut scores: Vec<Score> = teams.iter().map(|t| t.primary).collect();
    scores.sort();
    scores.dedup();
    for t in &mut teams {
        t.level = scores.iter().position(|&s| s == t.primary).unwrap_or(0);
    }
    let n = teams.iter().map(|t| t.team + 1).max().unwrap_or(0);
    let mut position = vec![None; n];
    for (k, t) in teams.iter().enumerate() {
        position[t.team] = Some(k);
    }
    Field::for_tests(teams, position, round, total, kind, W)
}

fn met(teams: &mut [TeamState], a: u32, b: u32) {
    let (ia, ib) = (a as usize - 1, b as usize - 1);
    for t in teams.iter_mut() {
        if t.tpn == a {
            t.met.push(ib);
        }
        if t.tpn == b {
            t.met.push(ia);
        }
    }
}

fn tpn_pairs(f: &Field, pairs: &[(usize, usize)]) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = pairs
        .iter()
        .map(|&(a, b)| {
            let (x, y) = (f.teams[a].tpn, f.teams[b].tpn);
            (x.min(y), x.max(y))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn art_1_7_1_type_a_preferences() {
    let a = TeamColourType::A;
    // Colour difference below -1: White; above +1: Black.
    assert_eq!(preference(a, -2, &[B, B], false).map(|p| p.colour), Some(W));
    assert_eq!(preference(a, 2, &[W, W], false).map(|p| p.colour), Some(B));
    // 0 or -1 after two Blacks in a row: White; 0 or +1 after two Whites: Black.
    assert_eq!(
        preference(a, 0, &[W, W, B, B], false).map(|p| p.colour),
        Some(W)
    );
    assert_eq!(
        preference(a, 1, &[B, W, W], false).map(|p| p.colour),
        Some(B)
    );
    // Otherwise none: +1 after W B W, and a team yet to play.
    assert_eq!(preference(a, 1, &[W, B, W], false), None);
    assert_eq!(preference(a, 0, &[], false), None);
    assert_eq!(
        preference(TeamColourType::None, -3, &[B, B, B], false),
        None
    );
}

#[test]
fn art_1_7_2_type_b_strong_and_mild_preferences() {
    let b = TeamColourType::B;
    let p = preference(b, -2, &[B, B], false).expect("strong");
    assert!(p.strong && p.colour == W);
    // Mild: colour difference -1 / +1.
    let p = preference(b, -1, &[W, B, B, W, B], false).expect("mild");
    assert!(!p.strong && p.colour == W);
    let p = preference(b, 1, &[W], false).expect("mild");
    assert!(!p.strong && p.colour == B);
    // Colour difference 0: alternate from the last match, except in the last round.
    let p = preference(b, 0, &[W, B], false).expect("mild");
    assert!(!p.strong && p.colour == W);
    assert_eq!(preference(b, 0, &[W, B], true), None);
    assert_eq!(preference(b, 0, &[], false), None);
}

#[test]
fn art_4_2_and_4_3_1_first_round_colours_follow_the_initial_colour_and_the_tpn() {
    let f = field(
        vec![
            team(1, 0, &[]),
            team(2, 0, &[]),
            team(3, 0, &[]),
            team(4, 0, &[]),
        ],
        TeamColourType::A,
        1,
        5,
    );
    // First-team: equal scores, the smaller TPN (4.2.3). TPN 1 is odd: the initial colour.
    let (w, _, rule) = allocate(&f, 0, 2);
    assert_eq!((f.teams[w].tpn, rule), (1, "C.04.6 art. 4.3.1"));
    // TPN 2 is even: the opposite of the initial colour, so its opponent has White.
    let (w, _, _) = allocate(&f, 1, 3);
    assert_eq!(f.teams[w].tpn, 4);
}

#[test]
fn art_4_3_2_to_4_3_5_preferences_then_colour_difference() {
    // 4.3.2: only team 2 has a preference (Black after W W): granted.
    let f = field(
        vec![team(1, 2, &[W, B]), team(2, 2, &[W, W])],
        TeamColourType::A,
        3,
        5,
    );
    let (w, _, rule) = allocate(&f, 0, 1);
    assert_eq!((f.teams[w].tpn, rule), (1, "C.04.6 art. 4.3.2"));
    // 4.3.3: opposite preferences: both granted.
    let f = field(
        vec![team(1, 2, &[B, B]), team(2, 2, &[W, W])],
        TeamColourType::A,
        3,
        5,
    );
    let (w, _, rule) = allocate(&f, 0, 1);
    assert_eq!((f.teams[w].tpn, rule), (1, "C.04.6 art. 4.3.3"));
    // 4.3.4 (type B): team 1 strong White (two Blacks), team 2 mild White (-1).
    let f = field(
        vec![team(1, 2, &[W, B, B]), team(2, 4, &[B, W, B])],
        TeamColourType::B,
        4,
        6,
    );
    let (w, _, rule) = allocate(&f, 0, 1);
    assert_eq!((f.teams[w].tpn, rule), (1, "C.04.6 art. 4.3.4"));
    // 4.3.5: no preferences (type A, +1 and -1 without repeats): lower difference White.
    let f = field(
        vec![team(1, 2, &[W, B, W]), team(2, 2, &[B, W, B])],
        TeamColourType::A,
        4,
        6,
    );
    let (w, _, rule) = allocate(&f, 0, 1);
    assert_eq!((f.teams[w].tpn, rule), (2, "C.04.6 art. 4.3.5"));
}

#[test]
fn art_4_3_6_to_4_3_9_history_then_the_first_team() {
    // 4.3.6: equal differences; the latest round the colours differ: team 1 had W then.
    let f = field(
        vec![team(1, 2, &[B, W, B, W]), team(2, 2, &[W, B, B, W])],
        TeamColourType::A,
        5,
        7,
    );
    let (w, _, rule) = allocate(&f, 0, 1);
    assert_eq!((f.teams[w].tpn, rule), (2, "C.04.6 art. 4.3.6"));
    // 4.3.7: identical histories, both prefer Black: the first-team's preference.
    // Team 2 is the first-team by score (4.2.1).
    let f = field(
        vec![team(1, 2, &[B, W, W]), team(2, 4, &[B, W, W])],
        TeamColourType::A,
        4,
        6,
    );
    let (w, _, rule) = allocate(&f, 0, 1);
    assert_eq!((f.teams[w].tpn, rule), (1, "C.04.6 art. 4.3.7"));
    // 4.3.8: identical histories, no preference: the first-team alternates.
    let f = field(
        vec![team(1, 2, &[W, B]), team(2, 2, &[W, B])],
        TeamColourType::A,
        3,
        5,
    );
    let (w, _, rule) = allocate(&f, 0, 1);
    assert_eq!((f.teams[w].tpn, rule), (1, "C.04.6 art. 4.3.8"));
    // 4.3.9: the first-team has not played; equal colour differences; the other team
    // alternates from its last match (Black, so White now).
    let f = field(
        vec![team(1, 2, &[]), team(2, 0, &[W, B])],
        TeamColourType::A,
        2,
        5,
    );
    let (w, _, rule) = allocate(&f, 0, 1);
    assert_eq!((f.teams[w].tpn, rule), (2, "C.04.6 art. 4.3.9"));
}

#[test]
fn art_3_4_the_pab_goes_to_the_lowest_score_then_most_played_then_largest_tpn() {
    // 3.4.2: the lowest score.
    let teams = vec![team(1, 2, &[W]), team(2, 0, &[B]), team(3, 2, &[B])];
    let f = field(teams, TeamColourType::A, 2, 5);
    let mut e = Explanation::default();
    let p = pair(&f, &mut e).expect("pairs");
    assert_eq!(p.pab.map(|x| f.teams[x].tpn), Some(2));
    // 3.4.3: among the lowest, the most matches played (team 3 had a forfeit, no match).
    let teams = vec![team(1, 4, &[W, B]), team(2, 0, &[B, W]), team(3, 0, &[B])];
    let f = field(teams, TeamColourType::A, 3, 5);
    let p = pair(&f, &mut Explanation::default()).expect("pairs");
    assert_eq!(p.pab.map(|x| f.teams[x].tpn), Some(2));
    // 3.4.4: then the largest TPN; [C2] (art. 2.1.2) bars a team that had the PAB.
    let mut teams = vec![team(1, 2, &[W]), team(2, 2, &[B]), team(3, 2, &[W])];
    let f = field(teams.clone(), TeamColourType::A, 2, 5);
    let p = pair(&f, &mut Explanation::default()).expect("pairs");
    assert_eq!(p.pab.map(|x| f.teams[x].tpn), Some(3));
    teams[2].no_pab = true;
    let f = field(teams, TeamColourType::A, 2, 5);
    let p = pair(&f, &mut Explanation::default()).expect("pairs");
    assert_eq!(p.pab.map(|x| f.teams[x].tpn), Some(2));
}

#[test]
fn art_3_4_1_the_pab_leaves_a_legal_pairing() {
    // Team 3 (lowest) would leave 1 and 2, who met: the bye passes to team 2 (next lowest).
    let mut teams = vec![team(1, 4, &[W]), team(2, 2, &[B]), team(3, 0, &[W])];
    met(&mut teams, 1, 2);
    let f = field(teams, TeamColourType::A, 2, 5);
    let p = pair(&f, &mut Explanation::default()).expect("pairs");
    assert_eq!(p.pab.map(|x| f.teams[x].tpn), Some(2));
    assert_eq!(tpn_pairs(&f, &p.pairs), vec![(1, 3)]);
}

#[test]
fn art_3_6_the_first_pairing_in_identifier_order() {
    // Four teams, no constraint: top members 1 and 2, bottoms 3 and 4 (art. 3.6.2).
    let teams = vec![
        team(1, 0, &[]),
        team(2, 0, &[]),
        team(3, 0, &[]),
        team(4, 0, &[]),
    ];
    let f = field(teams, TeamColourType::A, 1, 5);
    let pairs = pair_bracket(&f, 0, &[0, 1, 2, 3])
        .expect("fits")
        .expect("pairs");
    assert_eq!(tpn_pairs(&f, &pairs), vec![(1, 3), (2, 4)]);
    // 1 and 3 met ([C1]): 1-4, 2-3.
    let mut teams = vec![
        team(1, 2, &[W]),
        team(2, 2, &[B]),
        team(3, 2, &[W]),
        team(4, 2, &[B]),
    ];
    met(&mut teams, 1, 3);
    let f = field(teams, TeamColourType::A, 2, 5);
    let pairs = pair_bracket(&f, 0, &[0, 1, 2, 3])
        .expect("fits")
        .expect("pairs");
    assert_eq!(tpn_pairs(&f, &pairs), vec![(1, 4), (2, 3)]);
}

#[test]
fn art_2_3_5_c8_avoids_two_teams_wanting_the_same_colour() {
    // 1 and 3 both want White (two Blacks); 2 and 4 both want Black: the first identifier,
    // 1-3 and 2-4, would leave two preferences unmet; [C8] outranks the identifier, and the
    // first identifier with none unmet is 1-4, 2-3.
    let teams = vec![
        team(1, 2, &[B, B]),
        team(2, 2, &[W, W]),
        team(3, 2, &[B, B]),
        team(4, 2, &[W, W]),
    ];
    let f = field(teams, TeamColourType::A, 3, 5);
    let pairs = pair_bracket(&f, 0, &[0, 1, 2, 3])
        .expect("fits")
        .expect("pairs");
    assert_eq!(tpn_pairs(&f, &pairs), vec![(1, 4), (2, 3)]);
}

#[test]
fn art_3_5_an_odd_scoregroup_takes_the_best_upfloater() {
    // Scoregroup 4: teams 1, 2, 3. Next scores: 4 (2 points), 5 (2), 6 (0).
    // One upfloater ([C4]) of the highest score ([C5]), the smallest TPN first (3.5.4):
    // team 4, unless it met a resident it must play.
    let mut teams = vec![
        team(1, 4, &[W, B]),
        team(2, 4, &[B, W]),
        team(3, 4, &[W, B]),
        team(4, 2, &[B, W]),
        team(5, 2, &[W, B]),
        team(6, 0, &[B, W]),
    ];
    let f = field(teams.clone(), TeamColourType::A, 3, 5);
    let p = pair(&f, &mut Explanation::default()).expect("pairs");
    assert!(
        tpn_pairs(&f, &p.pairs)
            .iter()
            .any(|&(a, b)| b == 4 && a <= 3)
    );
    // Team 4 met all three residents: team 5 floats up instead.
    for r in [1, 2, 3] {
        met(&mut teams, r, 4);
    }
    let f = field(teams, TeamColourType::A, 3, 5);
    let p = pair(&f, &mut Explanation::default()).expect("pairs");
    let pairs = tpn_pairs(&f, &p.pairs);
    assert!(pairs.iter().any(|&(a, b)| b == 5 && a <= 3), "{pairs:?}");
    assert!(pairs.contains(&(4, 6)), "{pairs:?}");
}

#[test]
fn art_3_5_4_sets_of_upfloaters_in_lexicographic_order() {
    // The regulation's example: 2, 6, 8 with 3 points and 1, 3, 5 with 2.5; two upfloaters
    // of 3 points and one of 2.5: {2,6,1} < {2,6,3} < {2,6,5} < {2,8,1} < … < {6,8,5}.
    let teams = vec![
        team(1, 25, &[]),
        team(2, 30, &[]),
        team(3, 25, &[]),
        team(5, 25, &[]),
        team(6, 30, &[]),
        team(8, 30, &[]),
        team(9, 50, &[]),
    ];
    let f = field(teams, TeamColourType::A, 1, 5);
    let lower: Vec<usize> = (0..f.teams.len())
        .filter(|&n| f.teams[n].tpn != 9)
        .collect();
    let (l30, l25) = (
        f.teams
            .iter()
            .find(|t| t.tpn == 2)
            .map(|t| t.level)
            .unwrap_or(0),
        f.teams
            .iter()
            .find(|t| t.tpn == 1)
            .map(|t| t.level)
            .unwrap_or(0),
    );
    let sets = super::pairing::sets_for_tests(&f, &lower, &[l25, l30, l30]);
    let named: Vec<Vec<u32>> = sets
        .iter()
        .map(|s| s.iter().map(|&n| f.teams[n].tpn).collect())
        .collect();
    assert_eq!(named.len(), 9);
    assert_eq!(named[0], vec![2, 6, 1]);
    assert_eq!(named[1], vec![2, 6, 3]);
    assert_eq!(named[2], vec![2, 6, 5]);
    assert_eq!(named[3], vec![2, 8, 1]);
    assert_eq!(named[8], vec![6, 8, 5]);
}

#[test]
fn art_3_6_the_two_step_form_finds_the_same_pairing() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(13);
    let colours = [W, B];
    for case in 0..300 {
        let size = 2 * rng.random_range(2..13usize);
        let mut teams: Vec<TeamState> = (1..=size as u32)
            .map(|tpn| {
                let history: Vec<Colour> = (0..rng.random_range(0..5))
                    .map(|_| colours[rng.random_range(0..2)])
                    .collect();
                let mut s = team(tpn, rng.random_range(0..3), &history);
                s.float = [Float::None, Float::Up, Float::Down][rng.random_range(0..3)];
                s
            })
            .collect();
        for _ in 0..size {
            let (a, b) = (
                rng.random_range(1..=size as u32),
                rng.random_range(1..=size as u32),
            );
            if a != b {
                met(&mut teams, a, b);
            }
        }
        let kind = if case % 2 == 0 {
            TeamColourType::A
        } else {
            TeamColourType::B
        };
        let f = field(teams, kind, 5, 9);
        let top = f.teams.iter().map(|t| t.level).max().unwrap_or(0);
        let all: Vec<usize> = (0..f.teams.len()).collect();
        let one = pair_bracket_in(&f, top, &all, false).expect("fits");
        let two = pair_bracket_in(&f, top, &all, true).expect("fits");
        assert_eq!(
            one.map(|p| tpn_pairs(&f, &p)),
            two.map(|p| tpn_pairs(&f, &p)),
            "case {case}"
        );
    }
}

/// Residents 1, 2, 3 (4 points), then 4 and 5 (2 points) and 6 (0), nobody met yet.
fn three_residents(float_4: Float, float_2: Float) -> Vec<TeamState> {
    let mut teams = vec![
        team(1, 4, &[W, B]),
        team(2, 4, &[B, W]),
        team(3, 4, &[W, B]),
        team(4, 2, &[B, W]),
        team(5, 2, &[W, B]),
        team(6, 0, &[B, W]),
    ];
    teams[3].float = float_4;
    teams[1].float = float_2;
    teams
}

#[test]
fn art_2_3_4_c7_an_upfloater_that_floated_last_round_is_avoided_but_not_at_the_end() {
    // Team 4 floated in the previous round: [C7] takes team 5 up instead (round 3 of 7).
    let f = field(
        three_residents(Float::Up, Float::None),
        TeamColourType::A,
        3,
        7,
    );
    let p = pair(&f, &mut Explanation::default()).expect("pairs");
    let pairs = tpn_pairs(&f, &p.pairs);
    assert!(pairs.iter().any(|&(a, b)| b == 5 && a <= 3), "{pairs:?}");
    assert!(pairs.contains(&(4, 6)), "{pairs:?}");
    // In the last two rounds [C7] does not apply: team 4, first in art. 3.5.4's order.
    let f = field(
        three_residents(Float::Up, Float::None),
        TeamColourType::A,
        6,
        7,
    );
    let p = pair(&f, &mut Explanation::default()).expect("pairs");
    let pairs = tpn_pairs(&f, &p.pairs);
    assert!(pairs.iter().any(|&(a, b)| b == 4 && a <= 3), "{pairs:?}");
}

#[test]
fn art_2_3_7_c10_an_upfloater_meets_an_opponent_that_did_not_float() {
    // Bracket 1, 2, 3 + upfloater 4. The first identifier is 1-3, 2-4; team 2 floated last
    // round, so [C10] prefers 1-4, 2-3 (round 3 of 7), but not in the last two rounds.
    let f = field(
        three_residents(Float::None, Float::Down),
        TeamColourType::A,
        3,
        7,
    );
    let level = f.teams[0].level;
    let pairs = pair_bracket(&f, level, &[0, 1, 2, 3])
        .expect("fits")
        .expect("pairs");
    assert_eq!(tpn_pairs(&f, &pairs), vec![(1, 4), (2, 3)]);
    let f = field(
        three_residents(Float::None, Float::Down),
        TeamColourType::A,
        6,
        7,
    );
    let pairs = pair_bracket(&f, level, &[0, 1, 2, 3])
        .expect("fits")
        .expect("pairs");
    assert_eq!(tpn_pairs(&f, &pairs), vec![(1, 3), (2, 4)]);
}

#[test]
fn art_2_3_6_c9_type_b_leaves_a_mild_preference_unmet_before_a_strong_one() {
    // All four want White (type B): 1 and 3 strongly (two Blacks), 2 and 4 mildly (-1).
    // [C8] is the same for every pairing (two pairs, both unmet); [C9] counts pairs of two
    // strong preferences: 1-3 (the first identifier) has one, 1-2 / 3-4 and 1-4 / 2-3 none.
    let teams = vec![
        team(1, 2, &[W, B, B]),
        team(2, 2, &[W, B, B, W, B]),
        team(3, 2, &[W, B, B]),
        team(4, 2, &[B, W, B]),
    ];
    let f = field(teams, TeamColourType::B, 4, 7);
    assert!(
        f.teams
            .iter()
            .all(|t| t.preference.map(|p| p.colour) == Some(W))
    );
    let pairs = pair_bracket(&f, 0, &[0, 1, 2, 3])
        .expect("fits")
        .expect("pairs");
    assert_eq!(tpn_pairs(&f, &pairs), vec![(1, 4), (2, 3)]);
    // Type A has no strengths: [C9] is inert and the first identifier stands.
    let teams = vec![
        team(1, 2, &[W, B, B]),
        team(2, 2, &[W, W, B, B]),
        team(3, 2, &[W, B, B]),
        team(4, 2, &[W, B, B]),
    ];
    let f = field(teams, TeamColourType::A, 4, 7);
    let pairs = pair_bracket(&f, 0, &[0, 1, 2, 3])
        .expect("fits")
        .expect("pairs");
    assert_eq!(tpn_pairs(&f, &pairs), vec![(1, 3), (2, 4)]);
}
