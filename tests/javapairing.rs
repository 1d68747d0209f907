//! JavaPairing 2.9's three Swiss engines (javapairing.md): the conformance corpora made by
//! JavaPairing itself, hand-worked rule tests and property tests.
mod common;

use std::path::Path;

use swisspair::check::{CheckOptions, check};
use swisspair::model::{AmalfiProfile, SystemId, Tournament};
use swisspair::systems::{PairError, PairOptions, pair};
use swisspair::trf;

/// Reads a corpus file and sets the options its README asks for.
fn load(path: &Path, system: SystemId) -> Tournament {
    let text = std::fs::read_to_string(path).expect("readable");
    let mut t = trf::read(&text).expect("valid TRF").tournament;
    t.system = Some(system);
    t.options.amalfi_profile = AmalfiProfile::JavaPairing;
    t.options.ignore_float_history = true;
    t
}

/// The round a `.note` says JavaPairing could not pair.
fn unpairable_round(path: &Path) -> Option<u32> {
    let note = std::fs::read_to_string(path.with_extension("note")).ok()?;
    let tail = note.split("could not pair round ").nth(1)?;
    tail.split_whitespace().next()?.parse().ok()
}

fn run_corpus(folder: &str, system: SystemId) -> (usize, usize) {
    let files = common::trf_files(&common::conformance_dir(&format!("javapairing/{folder}")));
    assert!(!files.is_empty(), "no files in {folder}");
    let (mut passed, mut failed) = (0, 0);
    for path in files {
        let t = load(&path, system);
        let report = check(&t, &CheckOptions::default()).expect("checkable");
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
        if let Some(round) = unpairable_round(&path) {
            let answer = pair(
                &t,
                &PairOptions {
                    round: Some(round),
                    ..PairOptions::default()
                },
            );
            if matches!(answer, Err(PairError::NoLegalPairing { .. })) {
                passed += 1;
            } else {
                failed += 1;
                eprintln!(
                    "{} round {round}: JavaPairing could not pair it, the engine answered {:?}",
                    path.display(),
                    answer.map(|a| a.boards)
                );
            }
        }
    }
    println!("conformance javapairing/{folder}: {passed} passed, {failed} failed");
    (passed, failed)
}

#[test]
fn conformance_javapairing_amalfi() {
    let (passed, failed) = run_corpus("amalfi", SystemId::Amalfi);
    assert!(passed > 0);
    assert_eq!(failed, 0);
}

#[test]
fn conformance_javapairing_amalfi_late() {
    let (passed, failed) = run_corpus("amalfi-late", SystemId::Amalfi);
    assert!(passed > 0);
    assert_eq!(failed, 0);
}

#[test]
fn conformance_javapairing_simple() {
    let (passed, failed) = run_corpus("simple", SystemId::Simple);
    assert!(passed > 0);
    assert_eq!(failed, 0);
}

#[test]
fn conformance_javapairing_colour_alternation() {
    let (passed, failed) = run_corpus("colour-alternation", SystemId::ColourAlternation);
    assert!(passed > 0);
    assert_eq!(failed, 0);
}
