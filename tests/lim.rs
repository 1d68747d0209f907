//! The Lim system (C.04.4.3): the conformance corpus paired round by round, and the text's
//! own examples worked by hand.
mod common;

use swisspair::model::SystemId;

/// Every round of every file of `tests/data/conformance/lim/` re-paired from the rounds
/// before it (the corpus's README: pairs, colours and the PAB; the Maxi-tournament rule off).
#[test]
fn conformance_lim() {
    let (passed, failed) = common::run_corpus("lim", SystemId::Lim);
    assert!(passed > 0);
    assert_eq!(failed, 0);
}
