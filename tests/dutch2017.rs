//! The Dutch system, 2017 edition: the conformance corpus (tournaments paired by
//! bbpPairings 5.0.1, the FIDE-endorsed engine of that edition) paired round by round, and
//! what the edition changes against 2026 on hand-made snapshots.
mod common;

use swisspair::model::SystemId;

/// Every round of every file: pairing round r from rounds 1..r-1 gives the file's round r.
#[test]
fn conformance_dutch2017() {
    let (passed, failed) = common::run_corpus("dutch2017", SystemId::Dutch);
    eprintln!("conformance dutch2017: {passed} passed, {failed} failed");
    assert!(passed > 0);
    assert_eq!(failed, 0);
}
