//! The Dubov system (C.04.4.1, 2026): the conformance corpus paired round by round, and
//! hand-worked cases.
mod common;

use swisspair::model::SystemId;

/// Every round of `tests/data/conformance/dubov/` re-paired from the rounds before it.
#[test]
fn conformance_dubov() {
    let (passed, failed) = common::run_corpus("dubov", SystemId::Dubov);
    assert!(passed > 0);
    assert_eq!(failed, 0, "rounds differ from the corpus");
}
