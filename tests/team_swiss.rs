//! The FIDE Swiss Team system (C.04.6, 2026): the Gacrux corpus re-paired round by round,
//! TRF-26 team records read, written and read back.
mod common;

use swisspair::model::SystemId;
use swisspair::trf;

/// Prints a summary line even when the harness captures output.
fn summary(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

#[test]
fn conformance_team() {
    let (passed, failed) = common::run_corpus("team", SystemId::TeamSwiss);
    summary(&format!(
        "conformance team: {passed} passed, {failed} failed"
    ));
    assert!(passed > 0);
    assert_eq!(failed, 0);
}

#[test]
fn team_files_round_trip() {
    for path in common::trf_files(&common::conformance_dir("team")) {
        let text = std::fs::read_to_string(&path).expect("readable");
        let doc = trf::read(&text).expect("valid TRF");
        let t = &doc.tournament;
        assert!(t.is_team_event(), "{}", path.display());
        assert!(t.teams.iter().all(|team| team.members.len() >= 4));
        for dialect in [trf::Dialect::Trf26, trf::Dialect::JaVaFo] {
            let written = trf::write(&doc, dialect).expect("writable");
            let back = trf::read(&written).expect("reads back");
            assert_eq!(back.tournament, doc.tournament, "{}", path.display());
        }
    }
}
