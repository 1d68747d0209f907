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
    let mut doc = swisspair::pairing::read_trf(&text).expect("trf");
    doc.tournament.rounds.truncate(rounds);
    let path = std::env::temp_dir().join(format!("swisspair-cli-{}-{name}", std::process::id()));
    std::fs::write(
        &path,
        swisspair::pairing::write_trf(&doc, swisspair::trf::Dialect::JaVaFo)
            .expect("writable as TRF"),
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
    let mut doc = swisspair::pairing::read_trf(&text).expect("trf");
    let g = &mut doc.tournament.rounds[1].games[0];
    std::mem::swap(&mut g.white, &mut g.black);
    let path = std::env::temp_dir().join(format!("swisspair-cli-altered-{}", std::process::id()));
    std::fs::write(
        &path,
        swisspair::pairing::write_trf(&doc, swisspair::trf::Dialect::Trf26)
            .expect("writable as TRF"),
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
    // A system name in the wrong place: an option of another system is refused, naming it.
    let (code, _, err) = swisspair(&[
        "pair",
        "--system",
        "double-swiss",
        "--option",
        "cycles=2",
        &corpus("round-robin-0001.trf"),
        "-p",
    ]);
    assert_eq!(code, 3);
    assert!(
        err.contains("cycles") && err.contains("double-swiss"),
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

fn hand_crosstable() -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/standings/hand-crosstable.trf")
        .display()
        .to_string()
}

#[test]
fn standings_prints_a_table_tsv_json_and_a_rating_report() {
    let input = hand_crosstable();
    let (code, out, err) = swisspair(&[
        "standings",
        "--tiebreaks",
        "BH/C1,BH,SB,DE",
        "--format",
        "tsv",
        &input,
    ]);
    assert_eq!(code, 0, "{err}");
    // The shared `.tsv` layout; values worked out in tests/standings.rs.
    assert_eq!(
        out,
        "start_rank\tPTS\tBH/C1\tBH\tSB\tDE\n\
         1\t4.0\t4.5\t5.0\t5.00\t0\n\
         2\t2.0\t6.0\t8.0\t2.75\t0\n\
         5\t2.0\t5.0\t7.0\t3.00\t0\n\
         3\t1.5\t4.5\t6.0\t2.00\t0\n\
         4\t1.0\t8.5\t9.5\t1.25\t0\n\
         6\t0.5\t6.5\t7.0\t1.00\t0\n"
    );
    let (code, out, _) = swisspair(&["standings", "--tiebreaks", "BH/C1,BH", &input]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].contains("after round 4"), "{out}");
    assert!(lines[1].split_whitespace().eq([
        "Rk", "SNo", "Name", "Rtg", "PTS", "BH/C1", "BH", "Perf", "dR"
    ]));
    assert!(lines[2].split_whitespace().eq([
        "1", "1", "Player", "A", "2000", "4.0", "4.5", "5.0", "2500", "11.80"
    ]));
    let (code, out, _) = swisspair(&["standings", "--json", "--edition", "2024", &input]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["tie_break_source"], "default");
    assert_eq!(v["edition"], "2024");
    assert_eq!(v["rows"][0]["values"][2], "7.5");
    // The rating report: rank and points columns filled, the list in a 202 record.
    let report =
        std::env::temp_dir().join(format!("swisspair-standings-{}.trf", std::process::id()));
    let (code, _, err) = swisspair(&[
        "standings",
        "--tiebreaks",
        "BH/C1,BH",
        "--write-trf",
        report.to_str().expect("path"),
        &input,
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&report).expect("written");
    assert!(text.lines().any(|l| l == "202 BH/C1,BH"), "{text}");
    let e = text
        .lines()
        .find(|l| l.starts_with("001    5"))
        .expect("player 5");
    assert_eq!((&e[80..84], &e[85..89]), (" 2.0", "   3"));
    let doc = swisspair::pairing::read_trf(&text).expect("readable");
    assert_eq!(doc.tournament.players.len(), 6);
}

#[test]
fn standings_errors_have_the_usual_exit_codes() {
    let input = hand_crosstable();
    let (code, _, err) = swisspair(&["standings", "--tiebreaks", "BH/X9", &input]);
    assert_eq!(code, 3);
    assert!(err.contains("BH/X9"), "{err}");
    let (code, _, _) = swisspair(&["standings", "--edition", "2019", &input]);
    assert_eq!(code, 3);
    let (code, _, _) = swisspair(&["standings", "/no/such/file.trf"]);
    assert_eq!(code, 5);
}

#[test]
fn check_refuses_a_file_recording_more_rounds_than_it_declares() {
    // XXR below the rounds played: refused once, naming the field (exit 3), not one
    // "cannot pair" per round.
    let source = common::conformance_dir("dutch").join("dutch-0001.trf");
    let text = std::fs::read_to_string(&source).expect("corpus");
    let mut doc = swisspair::pairing::read_trf(&text).expect("trf");
    let played = doc.tournament.rounds_paired();
    assert!(played >= 3, "the sample has {played} rounds");
    doc.tournament.total_rounds = played - 1;
    let path = std::env::temp_dir().join(format!("swisspair-cli-{}-xxr.trf", std::process::id()));
    std::fs::write(
        &path,
        swisspair::pairing::write_trf(&doc, swisspair::trf::Dialect::JaVaFo)
            .expect("writable as TRF"),
    )
    .expect("write");
    let (code, out, err) = swisspair(&["check", "--dutch", path.to_str().expect("utf-8")]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("total_rounds"), "{err}");
}

#[test]
fn a_trf_beyond_a_limit_or_not_a_trf_is_invalid_input() {
    let players = "001    1      Alpha                             1800                             0.0    1\n\
001    2      Beta                              1700                             0.0    2\n";
    let cases = [
        (
            format!("012 {}\n{players}", "x".repeat(300)),
            ":1:5:",
            "tournament name is 300 characters",
        ),
        (
            format!("012 T\nXXR 4000000000\n{players}"),
            ":2:5:",
            "number of rounds is 4000000000, more than the limit of 999",
        ),
        (
            format!("012 T\n{players}XXO edition={}\n", "7".repeat(257)),
            ":4:",
            "option value is 257 characters",
        ),
        (
            "GIF89a binary\nmore\n".to_string(),
            ":1:1:",
            "not a TRF: no player (001) line; line 1 could not be read: it starts \"GIF89a binary\"",
        ),
    ];
    for (k, (text, at, what)) in cases.iter().enumerate() {
        let path =
            std::env::temp_dir().join(format!("swisspair-cli-limit-{}-{k}", std::process::id()));
        std::fs::write(&path, text).expect("write");
        let (code, _, err) =
            swisspair(&["pair", "--system", "dutch", path.to_str().expect("path")]);
        assert_eq!(code, 3, "{err}");
        assert!(err.contains(at) && err.contains(what), "{err}");
        assert!(!err.contains("no players"), "{err}");
    }
}
