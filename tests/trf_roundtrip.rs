//! read → write → read gives the same tournament, for every conformance file and both
//! writer dialects.
mod common;

use swisspair::trf::{self, Dialect};

#[test]
fn every_conformance_file_round_trips() {
    let files = common::trf_files(&common::conformance_dir(""));
    assert!(
        files.len() > 300,
        "expected the conformance corpus, found {} files",
        files.len()
    );
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable file");
        let first = match trf::read(&text) {
            Ok(doc) => doc,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        assert!(
            first.points_mismatches().is_empty(),
            "{}: {:?}",
            path.display(),
            first.points_mismatches()
        );
        for dialect in [Dialect::JaVaFo, Dialect::Trf26] {
            let written = trf::write(&first, dialect).expect("writable as TRF");
            match trf::read(&written) {
                Ok(second) => {
                    if second.tournament != first.tournament
                        || second.other_lines != first.other_lines
                    {
                        failures.push(format!(
                            "{} ({dialect:?}): differs after a round trip",
                            path.display()
                        ));
                    }
                }
                Err(e) => failures.push(format!(
                    "{} ({dialect:?}): re-read failed: {e}",
                    path.display()
                )),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
