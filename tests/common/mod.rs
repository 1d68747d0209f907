//! Helpers shared by the integration tests.
#![allow(dead_code)]
pub mod events;
pub mod norm_event;
pub mod process;
pub mod server;
pub mod swiss;
pub mod tls;

use std::path::{Path, PathBuf};
use std::process::Command;

use swisspair::check::{CheckOptions, check};
use swisspair::model::{SystemId, Tournament};

/// A Dutch corpus file with only its first `rounds` rounds, written as a JaVaFo TRF to the
/// temporary file `dest` (the reference engines' command lines read such files).
pub fn dutch_truncated(name: &str, rounds: usize, dest: PathBuf) -> PathBuf {
    let text = std::fs::read_to_string(conformance_dir("dutch").join(name)).expect("corpus file");
    let mut doc = swisspair::pairing::read_trf(&text).expect("valid TRF");
    doc.tournament.rounds.truncate(rounds);
    std::fs::write(
        &dest,
        swisspair::pairing::write_trf(&doc, swisspair::trf::Dialect::JaVaFo).expect("writable"),
    )
    .expect("write");
    dest
}

/// `tests/data/conformance/<sub>`: the corpora copied into the repository, so that a fresh
/// clone tests itself with nothing beside it (`tests/data/README.md`).
pub fn conformance_dir(sub: &str) -> PathBuf {
    data_dir().join("conformance").join(sub)
}

/// `tests/data/perf/<name>`: the large opens of the performance tests.
pub fn perf_file(name: &str) -> PathBuf {
    data_dir().join("perf").join(name)
}

/// `tests/data`.
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
}

/// Every `.trf` file below a folder, sorted.
pub fn trf_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "trf") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Checks every round of every `.trf` file under `conformance/<sub>` with `system`, printing
/// each failing round and then `conformance <sub>: N passed, M failed`; returns (passed,
/// failed) rounds.
pub fn run_corpus(sub: &str, system: SystemId) -> (usize, usize) {
    run_corpus_with(sub, system, |_| {}, |_, _| None)
}

/// [`run_corpus`] for corpora that ask for more: `prepare` sets on each tournament read what
/// the corpus's README asks for, and `extra` may count one more verdict for a file (`Some(true)`
/// passed, `Some(false)` failed, printing why itself), e.g. a round its maker could not pair.
pub fn run_corpus_with(
    sub: &str,
    system: SystemId,
    prepare: impl Fn(&mut Tournament),
    extra: impl Fn(&Path, &Tournament) -> Option<bool>,
) -> (usize, usize) {
    let files = trf_files(&conformance_dir(sub));
    assert!(!files.is_empty(), "no files in {sub}");
    let (mut passed, mut failed) = (0, 0);
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let mut t = swisspair::pairing::read_trf(&text)
            .expect("valid TRF")
            .tournament;
        prepare(&mut t);
        let options = CheckOptions {
            system: Some(system),
            ..CheckOptions::default()
        };
        let report = check(&t, &options).expect("checkable");
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
        match extra(&path, &t) {
            Some(true) => passed += 1,
            Some(false) => failed += 1,
            None => {}
        }
    }
    println!("conformance {sub}: {passed} passed, {failed} failed");
    (passed, failed)
}

/// Runs the `swisspair` binary; returns its exit code (-1 if killed by a signal), stdout and
/// stderr.
pub fn swisspair(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_swisspair"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A Connect unary call in JSON over plain HTTP/1.1 on the server's port (`addr` with or
/// without `http://`): the HTTP status and the JSON body (a chunked body reassembled).
pub fn post_json(addr: &str, method: &str, body: &serde_json::Value) -> (u16, serde_json::Value) {
    use std::io::{Read, Write};
    let host = addr.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(host).expect("connects");
    let body = body.to_string();
    let head = format!(
        "POST /swisspair.v1.PairingService/{method} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("writes");
    stream.write_all(body.as_bytes()).expect("writes");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("reads");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an HTTP head");
    let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    let mut body = raw[split + 4..].to_vec();
    if head.contains("transfer-encoding: chunked") {
        let mut out = Vec::new();
        let mut data = &body[..];
        loop {
            let end = data.windows(2).position(|w| w == b"\r\n").expect("size");
            let size = String::from_utf8_lossy(&data[..end]);
            let size = usize::from_str_radix(size.split(';').next().unwrap_or("0").trim(), 16)
                .expect("hex");
            data = &data[end + 2..];
            if size == 0 {
                break;
            }
            out.extend_from_slice(&data[..size]);
            data = &data[size + 2..];
        }
        body = out;
    }
    (status, serde_json::from_slice(&body).expect("a JSON body"))
}
