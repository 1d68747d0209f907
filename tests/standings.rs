//! Standings: the conformance corpus (values of FIDE's tie-break checker) and
//! hand-computed tie-breaks on a small crosstable.
use std::path::{Path, PathBuf};

use swisspair::standings::{self, Edition, Options, TieBreak, Value};
use swisspair::trf;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/standings")
}

/// Compares one expected file; returns (values passed, values failed, messages).
fn check_file(tsv: &Path) -> (usize, usize, Vec<String>) {
    let name = tsv
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let stem = name.trim_end_matches(".tsv");
    let (stem, edition) = match stem.strip_suffix(".v2024") {
        Some(s) => (s, Edition::V2024),
        None => (stem, Edition::V2026),
    };
    let text = std::fs::read_to_string(tsv).unwrap_or_default();
    let trf_text = std::fs::read_to_string(data_dir().join(format!("{stem}.trf")))
        .unwrap_or_else(|e| panic!("{stem}.trf: {e}"));
    let doc = trf::read(&trf_text).unwrap_or_else(|e| panic!("{stem}.trf: {e}"));
    let t = &doc.tournament;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let codes: Vec<TieBreak> = header[1..]
        .iter()
        .map(|c| TieBreak::parse(c).unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect();
    let options = Options {
        tie_breaks: codes,
        edition,
        ..Options::default()
    };
    let s = standings::compute(t, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (mut passed, mut failed, mut messages) = (0, 0, Vec::new());
    for (i, line) in lines.enumerate() {
        let cells: Vec<&str> = line.split('\t').collect();
        let rank: u32 = cells[0].parse().unwrap_or(0);
        let Some(row) = s.rows.iter().find(|r| t.pairing_number(r.player) == rank) else {
            failed += cells.len() - 1;
            messages.push(format!("{name}: player {rank} missing"));
            continue;
        };
        let got_rank = s.rows.get(i).map(|r| t.pairing_number(r.player));
        if got_rank != Some(rank) {
            messages.push(format!(
                "{name}: position {}: expected player {rank}, got {got_rank:?}",
                i + 1
            ));
            failed += 1;
        }
        for (c, cell) in cells[1..].iter().enumerate() {
            let expected = Value::parse(cell);
            let got = row.values.get(c).copied().flatten();
            if expected == got {
                passed += 1;
            } else {
                failed += 1;
                messages.push(format!(
                    "{name}: player {rank} {}: expected {cell:?}, got {}",
                    header[c + 1],
                    got.map(|v| v.to_string()).unwrap_or_default()
                ));
            }
        }
    }
    (passed, failed, messages)
}

#[test]
fn conformance_standings() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|x| x == "tsv"));
    files.sort();
    assert!(files.len() >= 40, "the corpus is missing: {}", files.len());
    let mut totals = [(0usize, 0usize); 2];
    let mut all_messages = Vec::new();
    for f in &files {
        let v2024 = f.to_string_lossy().ends_with(".v2024.tsv");
        let (p, m, msgs) = check_file(f);
        let slot = &mut totals[usize::from(v2024)];
        slot.0 += p;
        slot.1 += m;
        all_messages.extend(msgs);
    }
    for m in all_messages.iter().take(40) {
        eprintln!("{m}");
    }
    println!(
        "conformance standings: {} passed, {} failed",
        totals[0].0, totals[0].1
    );
    println!(
        "conformance standings-2024: {} passed, {} failed",
        totals[1].0, totals[1].1
    );
    assert_eq!(totals[0].1 + totals[1].1, 0, "standings values differ");
}
