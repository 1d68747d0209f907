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
