//! Amalfi Rating, FSI profile (systems.md §1): the conformance corpus, hand-worked rounds
//! written from the rules, and properties of generated tournaments.
mod common;

use swisspair::check::{CheckOptions, check};
use swisspair::model::SystemId;
use swisspair::trf;

#[test]
fn conformance_amalfi() {
    let files = common::trf_files(&common::conformance_dir("amalfi"));
    assert!(!files.is_empty(), "no files in amalfi");
    let (mut passed, mut failed) = (0, 0);
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let doc = trf::read(&text).expect("valid TRF");
        let options = CheckOptions {
            system: Some(SystemId::Amalfi),
            ..CheckOptions::default()
        };
        let report = check(&doc.tournament, &options).expect("checkable");
        for r in &report.rounds {
            if !r.matches() {
                eprintln!(
                    "{} round {}: {:?} {:?}",
                    path.display(),
                    r.round,
                    r.error,
                    r.differences
                );
            }
        }
        passed += report.passed();
        failed += report.failed();
    }
    println!("conformance amalfi: {passed} passed, {failed} failed");
    assert!(passed > 0);
    assert_eq!(failed, 0);
}
