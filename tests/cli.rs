//! The command line: the engines' pair-list format, check's summary line, errors and exit
//! codes.
mod common;

use common::swisspair;

fn corpus(name: &str) -> String {
    common::conformance_dir("round-robin")
        .join(name)
        .display()
        .to_string()
}

/// The file's first `rounds` rounds only, written to a temporary file.
fn truncated(name: &str, rounds: usize) -> std::path::PathBuf {
    let text = std::fs::read_to_string(corpus(name)).expect("corpus");
    let mut doc = swisspair::trf::read(&text).expect("trf");
    doc.tournament.rounds.truncate(rounds);
    let path = std::env::temp_dir().join(format!("swisspair-cli-{}-{name}", std::process::id()));
    std::fs::write(
        &path,
        swisspair::trf::write(&doc, swisspair::trf::Dialect::JaVaFo).expect("writable as TRF"),
    )
    .expect("write");
    path
}

#[test]
fn pair_prints_the_engines_pair_list() {
    // 9 players after round 2: round 3 of the Berger table for 10, number 10 being the bye.
    let path = truncated("round-robin-0006.trf", 2);
    let (code, out, err) = swisspair(&[
        "pair",
        "--system",
        "round-robin",
        path.to_str().expect("path"),
        "-p",
    ]);
    assert_eq!(code, 0, "{err}");
    // Round 3 of the table for 10: 2-10 3-1 4-9 5-8 6-7; 10 is the dummy.
    assert_eq!(out, "5\n3 1\n4 9\n5 8\n6 7\n2 0\n");
    let out_file = std::env::temp_dir().join(format!("swisspair-cli-out-{}", std::process::id()));
    let (code, out, _) = swisspair(&[
        "pair",
        "--system",
        "round-robin",
        path.to_str().expect("path"),
        "-p",
        out_file.to_str().expect("path"),
    ]);
    assert_eq!(code, 0);
    assert!(out.is_empty());
    assert_eq!(
        std::fs::read_to_string(&out_file).expect("written"),
        "5\n3 1\n4 9\n5 8\n6 7\n2 0\n"
    );
}

#[test]
fn pair_json_carries_the_explanation() {
    let path = truncated("round-robin-0004.trf", 1);
    let (code, out, err) = swisspair(&[
        "pair",
        "--system",
        "round-robin",
        path.to_str().expect("path"),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["round"], 2);
    assert_eq!(v["system"], "PAIRING_SYSTEM_ROUND_ROBIN");
    assert_eq!(v["boards"].as_array().map(Vec::len), Some(3));
    assert_eq!(
        v["explanation"][0]["steps"][0]["rule_id"]
            .as_str()
            .map(|s| s.starts_with("RR")),
        Some(true)
    );
}

#[test]
fn check_reports_rounds_and_a_summary_line() {
    let (code, out, err) = swisspair(&[
        "check",
        "--system",
        "round-robin",
        &corpus("round-robin-0003.trf"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().last(), Some("10 passed, 0 failed"));

    // A file whose round 2 was altered: check fails that round and exits 1.
    let text = std::fs::read_to_string(corpus("round-robin-0004.trf")).expect("corpus");
    let mut doc = swisspair::trf::read(&text).expect("trf");
    let g = &mut doc.tournament.rounds[1].games[0];
    std::mem::swap(&mut g.white, &mut g.black);
    let path = std::env::temp_dir().join(format!("swisspair-cli-altered-{}", std::process::id()));
    std::fs::write(
        &path,
        swisspair::trf::write(&doc, swisspair::trf::Dialect::Trf26).expect("writable as TRF"),
    )
    .expect("write");
    let (code, out, _) = swisspair(&[
        "check",
        "--system",
        "round-robin",
        path.to_str().expect("path"),
    ]);
    assert_eq!(code, 1);
    assert!(out.contains("round 2: differs"), "{out}");
    assert!(out.contains("colours"), "{out}");
    assert_eq!(out.lines().last(), Some("4 passed, 1 failed"));
}

#[test]
fn unknown_system_lists_the_supported_ones() {
    let (code, _, err) = swisspair(&[
        "pair",
        "--system",
        "swiss-cheese",
        &corpus("round-robin-0001.trf"),
    ]);
    assert_eq!(code, 3);
    assert!(
        err.contains("swiss-cheese") && err.contains("round-robin"),
        "{err}"
    );
    // A known system this build does not implement (Double-Swiss is outside the brief).
    let (code, _, err) = swisspair(&[
        "pair",
        "--system",
        "double-swiss",
        &corpus("round-robin-0001.trf"),
        "-p",
    ]);
    assert_eq!(code, 3);
    assert!(
        err.contains("double-swiss") && err.contains("round-robin"),
        "{err}"
    );
}

#[test]
fn bad_files_are_clear_errors() {
    let (code, _, err) = swisspair(&["pair", "--system", "round-robin", "/nonexistent/file.trf"]);
    assert_eq!(code, 5);
    assert!(err.contains("/nonexistent/file.trf"), "{err}");
    let path = std::env::temp_dir().join(format!("swisspair-cli-bad-{}", std::process::id()));
    std::fs::write(
        &path,
        "012 x\n001    1      A                                 20x0\n",
    )
    .expect("write");
    let (code, _, err) = swisspair(&[
        "pair",
        "--system",
        "round-robin",
        path.to_str().expect("path"),
    ]);
    assert_eq!(code, 3);
    assert!(err.contains(":2:49:") && err.contains("rating"), "{err}");
}
