//! Hand-worked examples, one or more per rule id of systems.md §7 (BG-1..BG-11). Each
//! expected result is written from the rules: either the rules leave one answer whatever
//! the lot (checked over many seeds), or the expected pairs are read off the lot order the
//! explanation prints, as the arbiter would draw them from the hat.
//!
//! Histories are built with forfeits where only the wins matter: a forfeit is a win and a
//! loss but neither a meeting nor a float (CG-4), so the scenarios control exactly who met
//! whom and who floated.
use std::collections::BTreeSet;

use swisspair::model::validate::Problems;
use swisspair::model::{
    Bye, ByeKind, ForbiddenPairing, Game, GameResult, Player, Round, Score, Scoring, SystemId,
    Tournament,
};
use swisspair::systems::backgammon;
use swisspair::systems::{Detail, PairError, PairOptions, RoundPairing};

/// A round's result, players numbered from 1 as in the ids `p1`, `p2`…
#[derive(Clone, Copy)]
enum R {
    /// The first beats the second over the board (the first drawn first).
    Beat(usize, usize),
    /// The first wins by forfeit: no meeting, no float (CG-4).
    Forfeit(usize, usize),
    /// Beats [absent] (BG-3).
    Absent(usize),
    DoubleForfeit(usize, usize),
    Draw(usize, usize),
}

fn event(n: usize, total: u32) -> Tournament {
    Tournament {
        name: "club".to_string(),
        system: Some(SystemId::Backgammon),
        total_rounds: total,
        players: (1..=n)
            .map(|i| Player {
                id: format!("p{i}"),
                name: format!("Player {i}"),
                pairing_number: Some(i as u32),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    }
}

fn play(t: &mut Tournament, results: &[R]) {
    let mut round = Round::default();
    for (i, r) in results.iter().enumerate() {
        let game = |a: usize, b: usize, result| Game {
            white: a - 1,
            black: b - 1,
            result,
            board: Some(i as u32 + 1),
        };
        match *r {
            R::Beat(a, b) => round.games.push(game(a, b, GameResult::WhiteWins)),
            R::Forfeit(a, b) => round.games.push(game(a, b, GameResult::WhiteWinsForfeit)),
            R::DoubleForfeit(a, b) => round.games.push(game(a, b, GameResult::DoubleForfeit)),
            R::Draw(a, b) => round.games.push(game(a, b, GameResult::Draw)),
            R::Absent(a) => round.byes.push(Bye {
                player: a - 1,
                kind: ByeKind::AbsentOpponent,
            }),
        }
    }
    t.rounds.push(round);
}

fn options(seed: u64) -> PairOptions {
    PairOptions {
        seed: Some(seed),
        detail: Detail::Full,
        ..PairOptions::default()
    }
}

fn pair(t: &Tournament, seed: u64) -> RoundPairing {
    swisspair::pairing::pair_round(t, &options(seed)).unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

fn id(t: &Tournament, p: usize) -> String {
    t.players[p].id.clone()
}

/// The boards as (first, second) ids, in order.
fn boards(t: &Tournament, p: &RoundPairing) -> Vec<(String, String)> {
    p.boards
        .iter()
        .map(|b| (id(t, b.white), id(t, b.black)))
        .collect()
}

/// The boards as unordered pairs.
fn pairs(t: &Tournament, p: &RoundPairing) -> BTreeSet<BTreeSet<String>> {
    p.boards
        .iter()
        .map(|b| [id(t, b.white), id(t, b.black)].into_iter().collect())
        .collect()
}

fn set(list: &[&[&str]]) -> BTreeSet<BTreeSet<String>> {
    list.iter()
        .map(|p| p.iter().map(|s| s.to_string()).collect())
        .collect()
}

fn absent(t: &Tournament, p: &RoundPairing) -> Vec<String> {
    p.byes
        .iter()
        .filter(|b| b.kind == ByeKind::AbsentOpponent)
        .map(|b| id(t, b.player))
        .collect()
}

/// The lot order the explanation prints for the group whose label starts with `label`.
fn lot_order(p: &RoundPairing, label: &str) -> Vec<String> {
    let group = p
        .explanation
        .groups
        .iter()
        .find(|g| g.label.starts_with(label))
        .unwrap_or_else(|| panic!("no group {label:?} in {:#?}", p.explanation));
    let step = group
        .steps
        .iter()
        .find(|s| s.message.starts_with("lot order: "))
        .unwrap_or_else(|| panic!("no lot order in {group:#?}"));
    step.message["lot order: ".len()..]
        .split(", ")
        .map(str::to_string)
        .collect()
}

/// Every explanation step as `RULE message`.
fn steps(p: &RoundPairing) -> Vec<String> {
    p.explanation
        .groups
        .iter()
        .flat_map(|g| &g.steps)
        .map(|s| format!("{} {}", s.rule_id, s.message))
        .collect()
}

fn has_step(p: &RoundPairing, rule: &str, text: &str) -> bool {
    steps(p)
        .iter()
        .any(|s| s.starts_with(&format!("{rule} ")) && s.contains(text))
}

fn problems(e: PairError) -> Problems {
    match e {
        PairError::Invalid(p) => p,
        other => panic!("expected invalid input, got {other}"),
    }
}

// ---------------------------------------------------------------- BG-1

#[test]
fn bg1_rounds_follow_the_entries_unless_set() {
    for (n, rounds) in [
        (2, 1),
        (6, 2),
        (7, 3),
        (14, 3),
        (15, 4),
        (30, 4),
        (31, 5),
        (62, 5),
    ] {
        let p = pair(&event(n, 0), 1);
        assert_eq!(p.total_rounds, Some(rounds), "{n} entries");
        assert!(has_step(
            &p,
            "BG-1",
            &format!("{rounds} regular rounds for {n} entries")
        ));
    }
    // An explicit setting overrides it.
    assert_eq!(pair(&event(7, 5), 1).total_rounds, Some(5));
    // 7 entries play 3 rounds: a fourth is refused.
    let mut t = event(7, 0);
    for _ in 0..3 {
        let p = pair(&t, 2);
        let mut results: Vec<R> = p
            .boards
            .iter()
            .map(|b| R::Beat(b.white + 1, b.black + 1))
            .collect();
        results.extend(absent_players(&p).into_iter().map(R::Absent));
        play(&mut t, &results);
    }
    let e = problems(swisspair::pairing::pair_round(&t, &options(2)).expect_err("round 4"));
    assert_eq!(e.0[0].path, "round");
    assert!(
        e.0[0].message.contains("beyond the event's 3 rounds"),
        "{e}"
    );
}

fn absent_players(p: &RoundPairing) -> Vec<usize> {
    p.byes
        .iter()
        .filter(|b| b.kind == ByeKind::AbsentOpponent)
        .map(|b| b.player + 1)
        .collect()
}

#[test]
fn bg1_match_length_is_carried_through() {
    let mut t = event(8, 0);
    t.options.set("match_length", "11").expect("named");
    let p = pair(&t, 3);
    assert_eq!(p.match_length, Some(11));
    assert!(has_step(&p, "BG-1", "matches to 11 points"));
}

// ---------------------------------------------------------------- BG-2

#[test]
fn bg2_groups_are_wins_whatever_the_scoring() {
    // 3/1/0 chess scoring would not change who has how many wins.
    let mut t = event(4, 3);
    t.scoring = Scoring::with_game_points(Score::points(3), Score::points(1), Score::ZERO);
    play(&mut t, &[R::Forfeit(1, 3), R::Forfeit(2, 4)]);
    play(&mut t, &[R::Forfeit(1, 4), R::Forfeit(3, 2)]);
    // Wins: p1 2, p2 1, p3 1, p4 0; nobody met (forfeits). p1 goes down alone; his
    // opponent comes from the 1-win group; the other 1-win player meets p4.
    for seed in 0..10 {
        let p = pair(&t, seed);
        let (first, second) = &boards(&t, &p)[0];
        assert_eq!(
            first,
            "p1",
            "the 2-win player is drawn first: {:?}",
            boards(&t, &p)
        );
        assert!(second == "p2" || second == "p3");
        assert!(
            p.warnings
                .iter()
                .any(|w| w.contains("one point per win (BG-2)"))
        );
        // A win against [absent] and forfeits score one point per win.
        assert!(p.byes.is_empty());
    }
}

#[test]
fn bg2_a_draw_is_refused_naming_the_field_the_round_and_the_players() {
    let mut t = event(4, 0);
    play(&mut t, &[R::Beat(1, 2), R::Draw(3, 4)]);
    let e = problems(swisspair::pairing::pair_round(&t, &options(1)).expect_err("a draw"));
    assert_eq!(e.0.len(), 1, "{e}");
    assert_eq!(e.0[0].path, "tournament.rounds[0].games[1].result");
    assert!(e.0[0].message.contains("round 1"), "{e}");
    assert!(e.0[0].message.contains("\"p3\" - \"p4\""), "{e}");
    assert!(e.0[0].message.contains("BG-2"), "{e}");
}

#[test]
fn bg2_no_half_point_bye_and_no_pab() {
    let mut t = event(4, 0);
    play(&mut t, &[R::Beat(1, 2)]);
    t.rounds[0].byes.push(Bye {
        player: 2,
        kind: ByeKind::HalfPoint,
    });
    t.rounds[0].byes.push(Bye {
        player: 3,
        kind: ByeKind::Pab,
    });
    let e = problems(swisspair::pairing::pair_round(&t, &options(1)).expect_err("byes"));
    let text = e.to_string();
    assert!(
        text.contains(
            "tournament.rounds[0].byes[0].kind: round 1: player \"p3\": a half-point bye"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "tournament.rounds[0].byes[1].kind: round 1: player \"p4\": a pairing-allocated bye"
        ),
        "{text}"
    );
    assert!(text.contains("BYE_KIND_ABSENT_OPPONENT"), "{text}");
}

#[test]
fn bg2_a_missing_result_is_refused() {
    let mut t = event(4, 0);
    let p = pair(&t, 1);
    t.rounds.push(Round {
        games: p
            .boards
            .iter()
            .map(|b| Game {
                white: b.white,
                black: b.black,
                result: GameResult::Pending,
                board: None,
            })
            .collect(),
        byes: Vec::new(),
    });
    let e = problems(swisspair::pairing::pair_round(&t, &options(1)).expect_err("pending"));
    assert!(
        e.0.iter().all(|p| p.message.contains("has no result")),
        "{e}"
    );
}

// ---------------------------------------------------------------- BG-3

#[test]
fn bg3_odd_field_adds_absent_who_meets_the_last_of_the_lot() {
    let t = event(7, 0);
    for seed in 0..10 {
        let p = pair(&t, seed);
        let lot = lot_order(&p, "0 wins");
        assert_eq!(lot.len(), 8);
        assert_eq!(lot[7], "[absent]", "[absent] is drawn last");
        // Pairs in lot order; the last player meets [absent] and wins (one point).
        let expected: Vec<(String, String)> = (0..3)
            .map(|i| (lot[2 * i].clone(), lot[2 * i + 1].clone()))
            .collect();
        assert_eq!(boards(&t, &p), expected);
        assert_eq!(absent(&t, &p), vec![lot[6].clone()]);
        assert_eq!(p.byes[0].points, Score::points(1));
        assert!(has_step(
            &p,
            "BG-3",
            &format!("{} meets [absent] and wins automatically", lot[6])
        ));
    }
    // An even field has no [absent].
    assert!(pair(&event(8, 0), 1).byes.is_empty());
}

#[test]
fn bg3_nobody_meets_absent_twice_and_bg7_chooses_who_meets_the_floater() {
    // 5 players, 3 rounds. After two rounds: p1 2 wins; p2, p3, p4, p5 1 win.
    // p4 met [absent] in round 2, p5 in round 1. p5 went down in round 2 (1 win against
    // p2's 0), p2 went up.
    let mut t = event(5, 3);
    play(&mut t, &[R::Beat(1, 2), R::Beat(3, 4), R::Absent(5)]);
    play(&mut t, &[R::Beat(1, 3), R::Beat(2, 5), R::Absent(4)]);
    for seed in 0..20 {
        let p = pair(&t, seed);
        // p1 comes down into the 1-win group: p5 went down once, so he is chosen (BG-7.1).
        // Of p2, p3, p4 one must meet [absent]: not p4 (BG-3, round 2); BG-7.2 would send p2
        // down, but then p3 - p4 would be a rematch (BG-6): p3 meets [absent].
        assert_eq!(
            pairs(&t, &p),
            set(&[&["p1", "p5"], &["p2", "p4"]]),
            "seed {seed}"
        );
        assert_eq!(absent(&t, &p), vec!["p3"], "seed {seed}");
        assert!(has_step(
            &p,
            "BG-7.1",
            "p5 was paired with fewer wins in round 2, so he is the one chosen"
        ));
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    }
}

// ---------------------------------------------------------------- BG-4

#[test]
fn bg4_round_one_pairs_in_lot_order_and_the_seed_decides() {
    let t = event(8, 0);
    let mut draws = BTreeSet::new();
    for seed in 0..12 {
        let p = pair(&t, seed);
        let lot = lot_order(&p, "0 wins");
        let expected: Vec<(String, String)> = (0..4)
            .map(|i| (lot[2 * i].clone(), lot[2 * i + 1].clone()))
            .collect();
        assert_eq!(boards(&t, &p), expected, "seed {seed}");
        assert_eq!(p, pair(&t, seed), "same seed, same draw");
        draws.insert(expected);
    }
    assert!(draws.len() > 6, "the lot depends on the seed");
}

#[test]
fn bg4_groups_from_the_most_wins_down() {
    let mut t = event(8, 3);
    play(
        &mut t,
        &[
            R::Forfeit(1, 5),
            R::Forfeit(2, 6),
            R::Forfeit(3, 7),
            R::Forfeit(4, 8),
        ],
    );
    play(
        &mut t,
        &[
            R::Forfeit(1, 2),
            R::Forfeit(3, 4),
            R::Forfeit(5, 6),
            R::Forfeit(7, 8),
        ],
    );
    // Wins: p1, p3: 2; p2, p4, p5, p7: 1; p6, p8: 0. Nobody met.
    for seed in 0..10 {
        let p = pair(&t, seed);
        let labels: Vec<&str> = p
            .explanation
            .groups
            .iter()
            .map(|g| g.label.as_str())
            .filter(|l| l.contains(" win"))
            .collect();
        assert_eq!(
            labels,
            ["2 wins (2 drawn)", "1 win (4 drawn)", "0 wins (2 drawn)"]
        );
        let two = lot_order(&p, "2 wins");
        let one = lot_order(&p, "1 win");
        let zero = lot_order(&p, "0 wins");
        let expected = vec![
            (two[0].clone(), two[1].clone()),
            (one[0].clone(), one[1].clone()),
            (one[2].clone(), one[3].clone()),
            (zero[0].clone(), zero[1].clone()),
        ];
        assert_eq!(boards(&t, &p), expected, "seed {seed}");
    }
}

// ---------------------------------------------------------------- BG-5

#[test]
fn bg5_the_player_left_over_meets_one_from_the_next_group() {
    let mut t = event(6, 3);
    play(
        &mut t,
        &[R::Forfeit(1, 4), R::Forfeit(2, 5), R::Forfeit(3, 6)],
    );
    play(
        &mut t,
        &[R::Forfeit(1, 5), R::Forfeit(2, 6), R::Forfeit(3, 4)],
    );
    // p1, p2, p3: 2 wins; p4, p5, p6: 0; nobody met, nobody floated.
    for seed in 0..10 {
        let p = pair(&t, seed);
        let top = lot_order(&p, "2 wins");
        let low = lot_order(&p, "0 wins");
        // The last of the lot is left over; the first drawn below meets him.
        let expected = vec![
            (top[0].clone(), top[1].clone()),
            (top[2].clone(), low[0].clone()),
            (low[1].clone(), low[2].clone()),
        ];
        assert_eq!(boards(&t, &p), expected, "seed {seed}");
        assert!(has_step(
            &p,
            "BG-5",
            &format!(
                "{}, last in the lot order, is left over and goes down",
                top[2]
            )
        ));
    }
}

// ---------------------------------------------------------------- BG-6

#[test]
fn bg6_a_drawn_player_already_met_is_put_back() {
    // All four have one win; p1 met p2, p3 met p4.
    let mut t = event(4, 3);
    play(&mut t, &[R::Beat(1, 2), R::Beat(3, 4)]);
    play(&mut t, &[R::Beat(2, 4), R::Beat(3, 1)]);
    // After round 2: p3 2 wins, p1 1, p2 1, p4 0; met: 1-2, 3-4, 2-4, 1-3.
    // Round 3: p3 must come down; the only pairing without a rematch is p3-p2, p1-p4.
    let mut redrawn = false;
    for seed in 0..20 {
        let p = pair(&t, seed);
        assert_eq!(
            pairs(&t, &p),
            set(&[&["p2", "p3"], &["p1", "p4"]]),
            "seed {seed}"
        );
        redrawn |= steps(&p)
            .iter()
            .any(|s| s.contains("they met in round") && s.contains("put back, drawn again"));
    }
    assert!(redrawn, "some lot draws a player already met");
}

#[test]
fn bg6_a_pair_that_strands_the_rest_is_undone() {
    // Round 1 with forbidden pairs (CG-10 counts them as met): p3-p4 and p1-p4, so p4 can
    // only meet p2, and then p1 meets p3.
    let mut t = event(4, 0);
    for (a, b) in [(2, 3), (0, 3)] {
        t.forbidden_pairings.push(ForbiddenPairing {
            players: vec![a, b],
            first_round: None,
            last_round: None,
        });
    }
    let mut undone = false;
    for seed in 0..30 {
        let p = pair(&t, seed);
        assert_eq!(
            pairs(&t, &p),
            set(&[&["p2", "p4"], &["p1", "p3"]]),
            "seed {seed}"
        );
        undone |= steps(&p)
            .iter()
            .any(|s| s.starts_with("BG-6") && s.contains("pair undone"));
    }
    assert!(undone, "some lot needs an undo");
}

#[test]
fn bg6_a_group_that_cannot_pair_looks_in_the_next_lower_group() {
    let mut t = event(4, 3);
    play(&mut t, &[R::Forfeit(1, 3), R::Forfeit(2, 4)]);
    play(&mut t, &[R::Forfeit(1, 4), R::Forfeit(2, 3)]);
    for (a, b) in [(0, 1), (2, 3)] {
        t.forbidden_pairings.push(ForbiddenPairing {
            players: vec![a, b],
            first_round: None,
            last_round: None,
        });
    }
    // p1, p2: 2 wins but may not meet; p3, p4: 0 wins, may not meet.
    for seed in 0..10 {
        let p = pair(&t, seed);
        for (a, b) in boards(&t, &p) {
            assert!(
                ["p1", "p2"].contains(&a.as_str()),
                "the 2-win players are drawn first"
            );
            assert!(["p3", "p4"].contains(&b.as_str()));
        }
        assert!(has_step(
            &p,
            "BG-6",
            "the group cannot be paired within itself: "
        ));
    }
}

#[test]
fn bg6_no_pairing_at_all_is_cg7s_error() {
    let mut t = event(2, 2);
    play(&mut t, &[R::Beat(1, 2)]);
    match swisspair::pairing::pair_round(&t, &options(1)) {
        Err(PairError::NoLegalPairing { rule, message, .. }) => {
            assert_eq!(rule, "BG-6");
            assert!(message.contains("round 2"), "{message}");
        }
        other => panic!("expected no legal pairing, got {other:?}"),
    }
}

// ---------------------------------------------------------------- BG-7

#[test]
fn bg7_1_one_who_went_down_does_not_go_down_again() {
    let mut t = event(6, 3);
    play(
        &mut t,
        &[R::Forfeit(1, 4), R::Forfeit(2, 5), R::Forfeit(3, 6)],
    );
    play(&mut t, &[R::Beat(3, 6), R::Forfeit(1, 5), R::Forfeit(2, 4)]);
    // p1, p2, p3: 2 wins; p3 went down in round 2 (against p6, who went up).
    for seed in 0..20 {
        let p = pair(&t, seed);
        let b = boards(&t, &p);
        let top: BTreeSet<&str> = ["p1", "p2", "p3"].into();
        let (inside, cross): (Vec<_>, Vec<_>) = b
            .iter()
            .partition(|(x, y)| top.contains(x.as_str()) && top.contains(y.as_str()));
        assert_eq!(inside.len(), 1);
        assert!(
            inside[0].0 == "p3" || inside[0].1 == "p3",
            "p3 stays in his group: {b:?}"
        );
        // The one who goes down does not meet p6, who went up once (BG-7.2).
        let floater_pair = cross
            .iter()
            .find(|(x, _)| top.contains(x.as_str()))
            .expect("a floater");
        assert!(floater_pair.1 == "p4" || floater_pair.1 == "p5", "{b:?}");
        assert!(p.warnings.is_empty());
    }
}

#[test]
fn bg7_2_one_who_went_up_goes_down_first_and_not_up_again() {
    let mut t = event(6, 3);
    play(
        &mut t,
        &[R::Forfeit(1, 4), R::Forfeit(2, 5), R::Forfeit(3, 6)],
    );
    play(&mut t, &[R::Beat(4, 1), R::Forfeit(2, 5), R::Forfeit(3, 6)]);
    // p2, p3: 2 wins; p1 (went down) and p4 (went up): 1 win, they met; p5, p6: 0.
    for seed in 0..20 {
        let p = pair(&t, seed);
        let ps = pairs(&t, &p);
        let partner = |x: &str| -> String {
            ps.iter()
                .find(|p| p.contains(x))
                .and_then(|p| p.iter().find(|y| *y != x).cloned())
                .unwrap_or_default()
        };
        assert!(
            ["p2", "p3"].contains(&partner("p1").as_str()),
            "p1 goes up (BG-7.1): {ps:?}"
        );
        assert!(
            ["p5", "p6"].contains(&partner("p4").as_str()),
            "p4 does not go up again, he goes down (BG-7.2): {ps:?}"
        );
        assert!(has_step(
            &p,
            "BG-7.1",
            "p1 was paired with fewer wins in round 2, so he is the one chosen"
        ));
        assert!(has_step(
            &p,
            "BG-7.2",
            "p4 was paired with more wins in round 2, so he is the first to go down"
        ));
        assert!(p.warnings.is_empty());
    }
}

#[test]
fn bg7_3_once_each_way_is_compensated() {
    let mut t = event(6, 4);
    play(
        &mut t,
        &[R::Forfeit(1, 4), R::Forfeit(2, 5), R::Forfeit(3, 6)],
    );
    play(&mut t, &[R::Beat(4, 1), R::Forfeit(2, 5), R::Forfeit(3, 6)]);
    play(&mut t, &[R::Beat(1, 2), R::Beat(4, 5), R::Forfeit(3, 6)]);
    // p3: 3 wins. p1 (down in round 2, up in round 3) and p4 (up, then down) are
    // compensated; p2 went down in round 3; all three have 2 wins. p5 went up; p6: 0.
    // p3 comes down: BG-7.1 offers p2 first, but then p1 - p4 would be a rematch and p5
    // may not go up again; p4 with p3 leaves p1 - p2, a rematch. So p3 meets p1, who goes
    // up again although he went up in round 3: compensated, he is a normal player.
    for seed in 0..20 {
        let p = pair(&t, seed);
        assert_eq!(
            pairs(&t, &p),
            set(&[&["p3", "p1"], &["p2", "p4"], &["p5", "p6"]]),
            "seed {seed}"
        );
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
        assert!(has_step(
            &p,
            "BG-6",
            "p2 drawn for p3: the players left could then not all be paired"
        ));
    }
    // Without the down of round 2, p1 would have gone up once already: BG-7.2 then forbids
    // him to go up again and no draw keeps BG-7 for everyone.
    // (p4 beats p1 by forfeit in round 2, and a forbidden pair keeps them apart as their
    // game did.)
    let mut u = event(6, 4);
    play(
        &mut u,
        &[R::Forfeit(1, 4), R::Forfeit(2, 5), R::Forfeit(3, 6)],
    );
    play(
        &mut u,
        &[R::Forfeit(4, 1), R::Forfeit(2, 5), R::Forfeit(3, 6)],
    );
    play(&mut u, &[R::Beat(1, 2), R::Beat(4, 5), R::Forfeit(3, 6)]);
    u.forbidden_pairings.push(ForbiddenPairing {
        players: vec![0, 3],
        first_round: None,
        last_round: None,
    });
    let p = pair(&u, 1);
    assert!(
        p.warnings.iter().any(|w| w.starts_with("BG-7")),
        "{:?}",
        p.warnings
    );
    assert!(has_step(&p, "BG-7", "no draw keeps BG-7 for every player"));
}

// ---------------------------------------------------------------- BG-10

#[test]
fn bg10_a_withdrawal_before_the_draw_adds_or_removes_absent() {
    let mut t = event(8, 3);
    play(
        &mut t,
        &[R::Beat(1, 5), R::Beat(2, 6), R::Beat(3, 7), R::Beat(4, 8)],
    );
    t.players[7].withdrawn_from_round = Some(2);
    let p = pair(&t, 4);
    assert!(has_step(&p, "BG-10", "p8 withdrew before this draw"));
    // 7 left: [absent] appears; p8's loss still counts for p4, who keeps his win.
    assert_eq!(absent(&t, &p).len(), 1);
    assert!(has_step(
        &p,
        "BG-3",
        "[absent] appears to keep the field even, BG-10"
    ));
    assert!(p.boards.iter().all(|b| b.white != 7 && b.black != 7));
    let ones: BTreeSet<&str> = ["p1", "p2", "p3", "p4"].into();
    let four = lot_order(&p, "1 win");
    assert_eq!(
        four.iter().map(String::as_str).collect::<BTreeSet<_>>(),
        ones
    );
    // Another withdrawal makes the field even again: [absent] disappears.
    play(&mut t, &to_results(&p));
    t.players[6].withdrawn_from_round = Some(3);
    let p3 = pair(&t, 4);
    assert!(has_step(
        &p3,
        "BG-10",
        "even field of 6: [absent] disappears"
    ));
    assert!(absent(&t, &p3).is_empty());
}

fn to_results(p: &RoundPairing) -> Vec<R> {
    let mut out: Vec<R> = p
        .boards
        .iter()
        .map(|b| R::Beat(b.white + 1, b.black + 1))
        .collect();
    out.extend(absent_players(p).into_iter().map(R::Absent));
    out
}

#[test]
fn bg10_a_withdrawal_after_the_draw_is_a_game_against_absent() {
    let mut t = event(6, 3);
    let p = pair(&t, 9);
    // p of board 1 withdraws before playing; the others play.
    let quitter = p.boards[0].white;
    let opponent = p.boards[0].black;
    t.rounds.push(Round {
        games: p
            .boards
            .iter()
            .map(|b| Game {
                white: b.white,
                black: b.black,
                result: GameResult::Pending,
                board: None,
            })
            .collect(),
        byes: Vec::new(),
    });
    backgammon::withdraw_after_draw(&mut t, 1, quitter).expect("withdraw");
    assert_eq!(t.players[quitter].withdrawn_from_round, Some(1));
    assert!(t.rounds[0].byes.contains(&Bye {
        player: opponent,
        kind: ByeKind::AbsentOpponent
    }));
    for g in &mut t.rounds[0].games {
        g.result = GameResult::WhiteWins;
    }
    // Round 2: five players; the opponent has a win and has met [absent] already.
    for seed in 0..20 {
        let p2 = pair(&t, seed);
        assert!(
            !absent(&t, &p2).contains(&id(&t, opponent)),
            "seed {seed}: BG-3 once only"
        );
        assert!(
            p2.boards
                .iter()
                .all(|b| b.white != quitter && b.black != quitter)
        );
    }
    // A game already played stays: withdrawing from it is refused.
    let err = backgammon::withdraw_after_draw(&mut t, 1, p.boards[1].white).expect_err("played");
    assert!(err.contains("has a result"), "{err}");
}

// ---------------------------------------------------------------- BG-11

#[test]
fn bg11_too_few_undefeated_play_absent() {
    // 8 players, 3 rounds: after round 1 with two double forfeits only p1 and p2 are
    // undefeated; 4 are needed before round 2 (two rounds to go), so two [absent] join
    // them, never more than the real undefeated players.
    let mut t = event(8, 0);
    play(
        &mut t,
        &[
            R::Beat(1, 5),
            R::Beat(2, 6),
            R::DoubleForfeit(3, 7),
            R::DoubleForfeit(4, 8),
        ],
    );
    for seed in 0..10 {
        let p = pair(&t, seed);
        let mut a = absent(&t, &p);
        a.sort();
        assert_eq!(a, vec!["p1", "p2"], "seed {seed}");
        assert!(has_step(
            &p,
            "BG-11",
            "only 2 undefeated for 2 rounds to go, 4 needed for a single winner: 2 [absent] added"
        ));
        assert!(has_step(
            &p,
            "BG-8",
            "board 3 of round 1 has no winner (both players forfeited)"
        ));
        assert_eq!(p.boards.len(), 3);
    }
    // Then the two meet in the last round: a single winner.
    let p = pair(&t, 3);
    play(&mut t, &to_results(&p));
    let last = pair(&t, 3);
    assert!(
        pairs(&t, &last).contains(
            &["p1".to_string(), "p2".to_string()]
                .into_iter()
                .collect::<BTreeSet<_>>()
        )
    );
}

#[test]
fn bg11_drops_bg3_once_only_rule_last() {
    // 4 players, 2 rounds. Round 1: p1 beats p2, p3 and p4 both forfeit. Before round 2
    // (the last) 2 undefeated are needed and only p1 is: one [absent] for p1. The 3 others
    // make an odd field: BG-3's [absent] meets one of them. p1 has not met [absent]: no
    // rule is dropped.
    let mut t = event(4, 2);
    play(&mut t, &[R::Beat(1, 2), R::DoubleForfeit(3, 4)]);
    for seed in 0..10 {
        let p = pair(&t, seed);
        let a = absent(&t, &p);
        assert_eq!(a.len(), 2, "seed {seed}: {a:?}");
        assert_eq!(a[0], "p1", "the undefeated group is drawn first");
        assert!(["p2", "p3", "p4"].contains(&a[1].as_str()));
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    }
    // Had p1 met [absent] already (round 1 of a 5-player field whose fifth then withdrew),
    // BG-3's once-only rule gives way, after BG-7, and the answer says so.
    let mut u = event(5, 2);
    play(
        &mut u,
        &[R::Absent(1), R::DoubleForfeit(2, 3), R::DoubleForfeit(4, 5)],
    );
    u.players[4].withdrawn_from_round = Some(2);
    let p = pair(&u, 1);
    assert_eq!(absent(&u, &p)[0], "p1");
    assert!(
        p.warnings
            .iter()
            .any(|w| w.starts_with("BG-3 not kept") && w.contains("p1")),
        "{:?}",
        p.warnings
    );
    assert!(has_step(
        &p,
        "BG-11",
        "BG-7 is dropped first, then the once-only rule"
    ));
}

#[test]
fn bg11_not_when_the_event_is_longer_than_bg1() {
    // 8 players would play 3 rounds; with 5 set, fewer undefeated is expected.
    let mut t = event(8, 5);
    play(
        &mut t,
        &[R::Beat(1, 5), R::Beat(2, 6), R::Beat(3, 7), R::Beat(4, 8)],
    );
    play(
        &mut t,
        &[R::Beat(1, 2), R::Beat(3, 4), R::Beat(5, 6), R::Beat(7, 8)],
    );
    let p = pair(&t, 1);
    assert!(absent(&t, &p).is_empty());
    assert!(has_step(
        &p,
        "BG-11",
        "the event plays more rounds than BG-1 gives for 8 entries"
    ));
}
