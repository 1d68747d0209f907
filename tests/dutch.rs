//! The Dutch system (2026): the conformance corpus paired round by round, and hand-worked
//! cases.
mod common;

use std::path::PathBuf;

use swisspair::check::{CheckOptions, check};
use swisspair::model::SystemId;
use swisspair::trf;

/// Pairs every round of the given files; returns (passed, failed) rounds and prints each
/// failing round.
fn run_files(files: &[PathBuf]) -> (usize, usize) {
    let (mut passed, mut failed) = (0, 0);
    for path in files {
        let text = std::fs::read_to_string(path).expect("readable");
        let doc = trf::read(&text).expect("valid TRF");
        let options = CheckOptions {
            system: Some(SystemId::Dutch),
            ..CheckOptions::default()
        };
        let report = check(&doc.tournament, &options).expect("checkable");
        for r in &report.rounds {
            if !r.matches() {
                println!(
                    "{} round {}: {:?} {:?}",
                    path.file_name()
                        .map_or(String::new(), |f| f.to_string_lossy().to_string()),
                    r.round,
                    r.error,
                    r.differences
                );
            }
        }
        passed += report.passed();
        failed += report.failed();
    }
    (passed, failed)
}

fn corpus() -> Vec<PathBuf> {
    let files = common::trf_files(&common::conformance_dir("dutch"));
    assert!(!files.is_empty(), "no files in conformance/dutch");
    if let Ok(only) = std::env::var("DUTCH_ONLY") {
        return files
            .into_iter()
            .filter(|p| p.to_string_lossy().contains(&only))
            .collect();
    }
    files
}

/// The whole corpus (release builds; `cargo test --release --test dutch`).
#[test]
#[cfg_attr(debug_assertions, ignore)]
fn conformance_dutch() {
    let (passed, failed) = run_files(&corpus());
    println!("conformance dutch: {passed} passed, {failed} failed");
    assert!(passed > 0);
    assert_eq!(failed, 0);
}

/// The corpus with every bracket paired in the smallest graph (bracket and next
/// scoregroup, C4 checked afterwards), then with everybody in the graph: both must agree
/// with the reference.
#[test]
#[cfg_attr(debug_assertions, ignore)]
fn conformance_dutch_window_and_global_modes() {
    for mode in [0, usize::MAX] {
        swisspair::systems::dutch::brackets::set_global_up_to(Some(mode));
        let (passed, failed) = run_files(&corpus());
        println!("conformance dutch (global up to {mode}): {passed} passed, {failed} failed");
        assert_eq!(failed, 0);
    }
    swisspair::systems::dutch::brackets::set_global_up_to(None);
}

/// A subset small enough for debug builds: every tenth file.
#[test]
fn conformance_dutch_subset() {
    let files: Vec<PathBuf> = corpus().into_iter().step_by(10).collect();
    let (passed, failed) = run_files(&files);
    println!("conformance dutch (subset): {passed} passed, {failed} failed");
    assert!(passed > 0);
    assert_eq!(failed, 0);
}
