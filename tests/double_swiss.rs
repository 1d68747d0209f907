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
    let mut t = swisspair::trf::read(&text).expect("valid").tournament;
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
            complete: false,
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
