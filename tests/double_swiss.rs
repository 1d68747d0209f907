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
