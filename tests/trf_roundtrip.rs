//! read → write → read gives the same tournament, for every conformance file and both
//! writer dialects.
mod common;

use swisspair::trf::Dialect;

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
        let mut first = match swisspair::pairing::read_trf(&text) {
            Ok(doc) => doc,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        // Double-Swiss files write a match as two columns (their README's encoding) and have
        // no record 192: read as the Double-Swiss, their points column (PAB 1.5 per match)
        // agrees with the results.
        if path.components().any(|c| c.as_os_str() == "double-swiss") {
            first.tournament.system = Some(swisspair::model::SystemId::DoubleSwiss);
        }
        assert!(
            first.points_mismatches().is_empty(),
            "{}: {:?}",
            path.display(),
            first.points_mismatches()
        );
        // Team files carry TRF-26 team records (310-362), which only the TRF-26 dialect
        // writes back as they were (team events are their own issue).
        let team = path.components().any(|c| c.as_os_str() == "team");
        let dialects: &[Dialect] = if team {
            &[Dialect::Trf26]
        } else {
            &[Dialect::JaVaFo, Dialect::Trf26]
        };
        for &dialect in dialects {
            let written = swisspair::pairing::write_trf(&first, dialect).expect("writable as TRF");
            match swisspair::pairing::read_trf(&written) {
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
