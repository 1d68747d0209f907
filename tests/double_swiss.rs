//! The FIDE Double-Swiss system (C.04.5): the conformance corpus, match by match.
mod common;

use swisspair::model::SystemId;

/// Re-pairs every match of every file of `tests/data/conformance/double-swiss` from the
/// matches before it (the checker re-pairs game 1 of each match: pairs, game-1 colours,
/// PAB) and prints `conformance double-swiss: N passed, M failed`, counting matches.
#[test]
fn conformance_double_swiss() {
    let (passed, failed) = common::run_corpus("double-swiss", SystemId::DoubleSwiss);
    assert!(passed > 0);
    assert_eq!(failed, 0, "matches that differ from the corpus");
}

/// The check compares a match's game 2 too: a record whose game 2 does not reverse game 1
/// fails that match, naming the round.
#[test]
fn a_game_two_that_does_not_reverse_game_one_fails_its_match() {
    use swisspair::check::{CheckOptions, check};
    let path = common::conformance_dir("double-swiss").join("double-swiss-0001.trf");
    let text = std::fs::read_to_string(&path).expect("corpus file");
    let mut t = swisspair::pairing::read_trf(&text)
        .expect("valid")
        .tournament;
    let options = CheckOptions {
        system: Some(SystemId::DoubleSwiss),
        ..CheckOptions::default()
    };
    let clean = check(&t, &options).expect("checks");
    assert_eq!((clean.passed(), clean.failed()), (5, 0));
    // Game 2 of match 2 (round 4): one board with game 1's colours instead of reversed,
    // each player keeping his result (the scores, hence later matches, do not change).
    use swisspair::model::GameResult;
    let game = &mut t.rounds[3].games[0];
    std::mem::swap(&mut game.white, &mut game.black);
    game.result = match game.result {
        GameResult::WhiteWins => GameResult::BlackWins,
        GameResult::BlackWins => GameResult::WhiteWins,
        GameResult::WhiteWinsForfeit => GameResult::BlackWinsForfeit,
        GameResult::BlackWinsForfeit => GameResult::WhiteWinsForfeit,
        other => other,
    };
    let report = check(&t, &options).expect("checks");
    assert_eq!((report.passed(), report.failed()), (4, 1));
    let failed = report
        .rounds
        .iter()
        .find(|r| !r.matches())
        .expect("a failure");
    assert_eq!(failed.round, 3, "match 2 is reported by its game-1 round");
    assert!(
        failed.differences.iter().any(|d| d.starts_with("round 4:")),
        "{:?}",
        failed.differences
    );
}

/// Regression (robustness campaign): the manual-pairing check read [C2] game by game, so
/// it refused a PAB the engine gives: a player who won one game of a match by forfeit
/// but lost the other has not won the match by forfeit (C.04.5 [C2], reading X4; the
/// match is the unit, art. 0). Player 1 wins game 1 of match 1 by forfeit and loses game
/// 2; player 3 has the PAB. In match 2 (round 3) player 1 may have the PAB; player 3 not.
#[test]
fn manual_pab_after_one_forfeited_game_follows_the_match_reading() {
    use swisspair::check::manual::{Proposal, validate};
    use swisspair::model::{Bye, ByeKind, Game, GameResult, Player, Round, Tournament};
    use swisspair::systems::PairOptions;
    let players = (1..=3)
        .map(|i| Player {
            id: format!("p{i}"),
            name: format!("Player {i}"),
            rating: 2000 - i,
            ..Player::default()
        })
        .collect();
    let pab = |player| Bye {
        player,
        kind: ByeKind::Pab,
    };
    let mut t = Tournament {
        system: Some(SystemId::DoubleSwiss),
        total_rounds: 6,
        players,
        rounds: vec![
            Round {
                games: vec![Game {
                    white: 0,
                    black: 1,
                    result: GameResult::WhiteWinsForfeit,
                    board: None,
                }],
                byes: vec![pab(2)],
            },
            Round {
                games: vec![Game {
                    white: 1,
                    black: 0,
                    result: GameResult::WhiteWins,
                    board: None,
                }],
                byes: vec![pab(2)],
            },
        ],
        ..Tournament::default()
    };
    t.assign_pairing_numbers(1);
    let options = PairOptions {
        round: Some(3),
        ..PairOptions::default()
    };
    let violations = |boards: Vec<(usize, usize)>, bye: usize| {
        let proposal = Proposal {
            boards,
            byes: vec![bye],
            ..Proposal::default()
        };
        validate(&t, SystemId::DoubleSwiss, &proposal, &options)
            .expect("validates")
            .violations
    };
    let ok = violations(vec![(1, 2)], 0);
    assert!(
        ok.is_empty(),
        "one forfeited game does not bar the PAB: {ok:?}"
    );
    let barred = violations(vec![(0, 1)], 2);
    assert!(
        barred.iter().any(|v| v.rule_id == "C.04.5 C2"),
        "a second PAB is barred: {barred:?}"
    );
}

/// Regression (robustness campaign): C.04.5 art. 3.6 with [C8] tried every set of
/// upfloaters allowed to meet a previous floater, which grows as 2^upfloaters: this
/// simulated event (236 players, match 11) never finished. The weighted search
/// (`double_swiss/fewest.rs`) pairs it at once, and the file reproduces itself.
#[test]
fn wide_bracket_with_many_upfloaters_is_paired_in_time() {
    use swisspair::check::{CheckOptions, check};
    use swisspair::simulate::SimConfig;
    let mut config = SimConfig::new(SystemId::DoubleSwiss, 236, 24, 11159);
    config.draw_rate = 0.6;
    config.forfeit_rate = 0.03;
    let started = std::time::Instant::now();
    let t = swisspair::simulate::simulate(&config).expect("simulates");
    assert_eq!(t.rounds_paired(), 24);
    let options = CheckOptions {
        system: Some(SystemId::DoubleSwiss),
        ..CheckOptions::default()
    };
    let report = check(&t, &options).expect("checks");
    assert_eq!((report.passed(), report.failed()), (12, 0));
    // Generous for a debug build on a loaded machine; the old search took hours.
    assert!(started.elapsed().as_secs() < 120, "{:?}", started.elapsed());
}

/// The weighted search gives exactly the first identifier among the pairings with the
/// fewest [C8]: compared with every perfect matching of small random brackets.
#[test]
fn fewest_c8_then_first_identifier_matches_exhaustive_search() {
    use swisspair::systems::double_swiss::fewest::first_least_cost;
    fn all(
        free: &mut Vec<usize>,
        cur: &mut Vec<(usize, usize)>,
        out: &mut Vec<Vec<(usize, usize)>>,
        ok: &dyn Fn(usize, usize) -> bool,
    ) {
        let Some(&a) = free.first() else {
            out.push(cur.clone());
            return;
        };
        for k in 1..free.len() {
            let b = free[k];
            if !ok(a, b) {
                continue;
            }
            let rest: Vec<usize> = free.iter().copied().filter(|&x| x != a && x != b).collect();
            let saved = std::mem::replace(free, rest);
            cur.push((a, b));
            all(free, cur, out, ok);
            cur.pop();
            *free = saved;
        }
    }
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut compared = 0;
    for _ in 0..400 {
        let b = 2 * (1 + (next() % 5) as usize);
        let edges: Vec<bool> = (0..b * b).map(|_| next() % 4 != 0).collect();
        let up: Vec<bool> = (0..b).map(|_| next() % 3 == 0).collect();
        let floated: Vec<bool> = (0..b).map(|_| next() % 2 == 0).collect();
        let ok = |x: usize, y: usize| {
            let (lo, hi) = (x.min(y), x.max(y));
            edges[lo * b + hi]
        };
        let cost =
            |x: usize, y: usize| i64::from(up[x] && floated[y]) + i64::from(up[y] && floated[x]);
        let mut matchings = Vec::new();
        all(&mut (0..b).collect(), &mut Vec::new(), &mut matchings, &ok);
        // Pairs are (top, bottom) with top < bottom, in the order of the tops, as built.
        let best = matchings
            .iter()
            .map(|m| {
                let c: i64 = m.iter().map(|&(x, y)| cost(x, y)).sum();
                let tops: Vec<usize> = m.iter().map(|p| p.0).collect();
                let bottoms: Vec<usize> = m.iter().map(|p| p.1).collect();
                (c, tops, bottoms, m.clone())
            })
            .min_by(|a, b| (a.0, &a.1, &a.2).cmp(&(b.0, &b.1, &b.2)));
        let got = first_least_cost(b, &ok, &cost);
        match (best, got) {
            (None, None) => {}
            (Some((c, _, _, m)), Some((pairs, gc))) => {
                assert_eq!((gc as i64, &pairs), (c, &m), "b={b}");
                compared += 1;
            }
            (best, got) => panic!("b={b}: exhaustive {best:?}, weighted {got:?}"),
        }
    }
    assert!(compared > 100);
}
