//! The Dutch system against random tournaments paired by the reference engine
//! (`tests/data/dutch-random/`, see its README): every round re-paired, plus the minimised
//! regressions.
mod common;

use std::path::{Path, PathBuf};

use swisspair::check::{CheckOptions, CheckReport, check};
use swisspair::model::{Acceleration, ByeKind, SystemId, Tournament};
use swisspair::systems::PairOptions;
use swisspair::trf;

fn data(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join("dutch-random")
        .join(sub)
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("corpus folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    out.sort();
    out
}

fn read(path: &Path) -> Tournament {
    let text = std::fs::read_to_string(path).expect("readable");
    swisspair::pairing::read_trf(&text)
        .expect("valid TRF")
        .tournament
}

fn check_dutch(t: &Tournament) -> CheckReport {
    let options = CheckOptions {
        system: Some(SystemId::Dutch),
        ..CheckOptions::default()
    };
    check(t, &options).expect("checkable")
}

fn summary(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The reference engine's Baku groups: GA is the first ⌈N/2⌉ players, where C.04.7 (2026)
/// says 2·⌈N/4⌉ ("half, rounded up to the nearest even number"; 161 players give 82). The
/// two differ when N mod 4 is 1 or 2.
fn reference_ga(n: usize) -> usize {
    n.div_ceil(2)
}

/// The same virtual points as the Baku method, but with the reference's GA size, as
/// explicit records (which override the method).
fn with_reference_ga(t: &Tournament) -> Tournament {
    let mut t = t.clone();
    let n = t.players.len();
    let accelerated = t.total_rounds.div_ceil(2);
    let full = accelerated.div_ceil(2);
    for p in 0..n {
        if (t.pairing_number(p) as usize) <= reference_ga(n) {
            t.accelerations.push(Acceleration {
                player: p,
                first_round: 1,
                last_round: full,
                points: t.scoring.win,
            });
            if accelerated > full {
                t.accelerations.push(Acceleration {
                    player: p,
                    first_round: full + 1,
                    last_round: accelerated,
                    points: t.scoring.draw,
                });
            }
        }
    }
    t
}

fn name(path: &Path) -> String {
    path.file_name()
        .map_or(String::new(), |f| f.to_string_lossy().to_string())
}

/// Every round of every file. The Baku files whose size makes C.04.7's GA differ from the
/// reference's are checked with the reference's GA given explicitly (everything else of
/// the Baku method must then agree), and separately shown to differ under the text.
#[test]
fn conformance_dutch_random() {
    let corpus = files(&data(""));
    assert!(
        corpus.len() > 200,
        "the corpus is in tests/data/dutch-random"
    );
    let (mut passed, mut failed) = (0, 0);
    let (mut ga_files, mut ga_rounds_differing) = (0, 0);
    for path in &corpus {
        let t = read(path);
        let baku = t
            .options
            .get("acceleration")
            .is_some_and(|a| a.eq_ignore_ascii_case("BAKU"));
        let n = t.players.len();
        let ga_differs = baku && reference_ga(n) != 2 * n.div_ceil(4);
        let report = if ga_differs {
            ga_files += 1;
            let text = check_dutch(&t);
            ga_rounds_differing += text.failed();
            assert!(
                text.failed() > 0,
                "{}: C.04.7's GA should change some round",
                name(path)
            );
            check_dutch(&with_reference_ga(&t))
        } else {
            check_dutch(&t)
        };
        for r in &report.rounds {
            if !r.matches() {
                println!(
                    "{} round {}: {:?} {:?}",
                    name(path),
                    r.round,
                    r.error,
                    r.differences
                );
            }
        }
        passed += report.passed();
        failed += report.failed();
    }
    summary(&format!(
        "conformance dutch-random: {passed} passed, {failed} failed"
    ));
    summary(&format!(
        "conformance dutch-random: {ga_files} Baku file(s) checked with the reference's GA (⌈N/2⌉); under C.04.7's 2·⌈N/4⌉ {ga_rounds_differing} of their rounds differ"
    ));
    assert!(passed > 2000);
    assert_eq!(failed, 0);
}

/// Files without `XXC`/`XXR`: the check infers both from the record and says so.
#[test]
fn noxxr_files_are_checked_with_inferred_colour_and_rounds() {
    let mut seen = 0;
    for path in files(&data("")) {
        if !name(&path).starts_with("noxxr") {
            continue;
        }
        seen += 1;
        let t = read(&path);
        assert!(t.initial_colour.is_none() && t.total_rounds == 0);
        let report = check_dutch(&t);
        assert_eq!(report.warnings.len(), 2, "{}", name(&path));
        assert!(report.warnings[0].contains("XXC"));
        assert!(report.warnings[1].contains("XXR"));
        assert_eq!(report.failed(), 0, "{}", name(&path));
    }
    assert!(seen > 0);
}

/// Reads a pair list (`N`, then `white black`, the PAB as `n 0`).
fn pair_list(text: &str) -> (Vec<(u32, u32)>, Vec<u32>) {
    let mut pairs = Vec::new();
    let mut byes = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<u32> = line
            .split_whitespace()
            .map(|x| x.parse().expect("number"))
            .collect();
        match f.as_slice() {
            [a, 0] => byes.push(*a),
            [a, b] => pairs.push((*a, *b)),
            _ => {}
        }
    }
    pairs.sort_unstable();
    byes.sort_unstable();
    (pairs, byes)
}

/// The minimised differences found by random testing (PAB and brackets with several
/// downfloaters, C2/C9): the next round must be the reference's, pairs, colours and PAB.
#[test]
fn regressions_pair_as_the_reference() {
    let dir = data("regressions");
    let cases = files(&dir);
    assert!(!cases.is_empty());
    for path in cases {
        let t = read(&path);
        let expected_path = path.with_extension("expected.txt");
        let expected = std::fs::read_to_string(&expected_path).expect("expected pairing");
        let got = swisspair::pairing::pair_round(
            &t,
            &PairOptions {
                system: Some(SystemId::Dutch),
                ..PairOptions::default()
            },
        )
        .expect("pairable");
        let mut pairs: Vec<(u32, u32)> = got
            .boards
            .iter()
            .map(|b| (t.pairing_number(b.white), t.pairing_number(b.black)))
            .collect();
        pairs.sort_unstable();
        let mut byes: Vec<u32> = got
            .byes
            .iter()
            .filter(|b| b.kind == ByeKind::Pab)
            .map(|b| t.pairing_number(b.player))
            .collect();
        byes.sort_unstable();
        assert_eq!((pairs, byes), pair_list(&expected), "{}", name(&path));
    }
}

/// Baku from the CLI: 40 players, GA = 20 (C.04.7), so round 1 pairs 1-11 (GA among
/// itself) where without acceleration 1 meets 21; AUTO switches it on (40 > 2^5).
#[test]
fn baku_acceleration_from_the_cli() {
    let bin = env!("CARGO_BIN_EXE_swisspair");
    let dir = std::env::temp_dir().join(format!("swisspair-baku-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("open.trf");
    let sim = std::process::Command::new(bin)
        .args([
            "simulate",
            "--dutch",
            "--players",
            "40",
            "--rounds",
            "1",
            "--seed",
            "3",
        ])
        .arg("-o")
        .arg(&file)
        .status()
        .expect("runs");
    assert!(sim.success());
    // Re-declare 5 rounds and drop round 1 so that round 1 is paired again.
    let text = std::fs::read_to_string(&file).expect("written");
    let mut t = swisspair::pairing::read_trf(&text)
        .expect("valid")
        .tournament;
    t.rounds.clear();
    t.total_rounds = 5;
    let doc = trf::TrfDocument {
        tournament: t,
        ..trf::TrfDocument::default()
    };
    std::fs::write(
        &file,
        swisspair::pairing::write_trf(&doc, trf::Dialect::Trf26).expect("writable"),
    )
    .expect("w");
    let first_opponent = |extra: &[&str]| -> String {
        let out = std::process::Command::new(bin)
            .args(["pair", "--dutch"])
            .args(extra)
            .arg(&file)
            .arg("-p")
            .output()
            .expect("runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        text.lines()
            .skip(1)
            .find_map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                match f.as_slice() {
                    ["1", b] => Some(b.to_string()),
                    [a, "1"] => Some(a.to_string()),
                    _ => None,
                }
            })
            .unwrap_or_default()
    };
    assert_eq!(first_opponent(&[]), "21");
    assert_eq!(first_opponent(&["--acceleration", "BAKU"]), "11");
    assert_eq!(first_opponent(&["--acceleration", "AUTO"]), "11");
    assert_eq!(first_opponent(&["--option", "acceleration=NONE"]), "21");
    let _ = std::fs::remove_dir_all(&dir);
}
