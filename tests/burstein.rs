//! The Burstein system (C.04.4.2, 2026): both conformance corpora paired round by round
//! (the 2026 text by default, bbpPairings' reading under `profile = BBP`), and hand-worked
//! cases.
mod common;

use swisspair::model::{SystemId, Tournament};

fn bbp_profile(t: &mut Tournament) {
    t.options.set("profile", "BBP").expect("a known option");
}

/// The 2026 text against an independent implementation of it (seeding rounds by the Dutch
/// reference engine).
#[test]
fn conformance_burstein2026() {
    let (passed, failed) = common::run_corpus("burstein2026", SystemId::Burstein);
    assert!(passed > 0);
    assert_eq!(failed, 0);
}

/// Profile BBP against bbpPairings 6 `--burstein` itself.
#[test]
fn conformance_burstein() {
    let (passed, failed) =
        common::run_corpus_with("burstein", SystemId::Burstein, bbp_profile, |_, _| None);
    assert!(passed > 0);
    assert_eq!(failed, 0);
}
