//! Audit throughput: files per second over the corpora (not a test; printed, never
//! asserted). `cargo bench --bench audit`
//!
//! Every `.trf` of `tests/data/conformance/<corpus>/` is read from memory and audited
//! ([`swisspair::audit::audit_text`]) under the system its folder names (the Dutch corpus by
//! default; `SWISSPAIR_AUDIT_CORPORA=dutch,lim,...` for others), first on one thread, then
//! on `available_parallelism` threads as `swisspair audit` runs them (each takes the next
//! file). `SWISSPAIR_AUDIT_PERF=1` also audits the 500- and 1,000-player opens of
//! `tests/data/perf/` (11 rounds re-paired each), one at a time.
mod harness;

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use harness::{peak_memory_mib, time};
use swisspair::audit::{self, AuditOptions};
use swisspair::model::SystemId;

fn trf_texts(dir: &Path) -> Vec<String> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "trf"))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    paths
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect()
}

/// Audits every text on `threads` threads; the number with findings.
fn audit_all(texts: &[String], options: &AuditOptions, threads: usize) -> usize {
    let next = AtomicUsize::new(0);
    let with_findings = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                while let Some(text) = texts.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let clean = audit::audit_text(text, options).is_ok_and(|r| r.is_clean());
                    if !clean {
                        with_findings.fetch_add(1, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    with_findings.into_inner()
}

fn main() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let corpora = std::env::var("SWISSPAIR_AUDIT_CORPORA").unwrap_or_else(|_| "dutch".into());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for corpus in corpora.split(',').map(str::trim).filter(|c| !c.is_empty()) {
        let Ok(system) = corpus.parse::<SystemId>() else {
            eprintln!("{corpus}: not a system's name, skipped");
            continue;
        };
        let texts = trf_texts(&data.join("conformance").join(corpus));
        if texts.is_empty() {
            eprintln!("{corpus}: no files, skipped");
            continue;
        }
        let options = AuditOptions {
            system: Some(system),
            ..AuditOptions::default()
        };
        let findings = audit_all(&texts, &options, 1);
        for threads in [1, cores] {
            let (best, median) = time(3, || audit_all(&texts, &options, threads));
            println!(
                "audit {corpus:<12} {:>4} files, {threads} thread(s): best {:>8.1} files/s, median {:>8.1} files/s ({findings} with findings)",
                texts.len(),
                texts.len() as f64 / best.as_secs_f64(),
                texts.len() as f64 / median.as_secs_f64(),
            );
        }
    }
    if std::env::var("SWISSPAIR_AUDIT_PERF").is_ok_and(|v| v == "1") {
        let options = AuditOptions {
            system: Some(SystemId::Dutch),
            ..AuditOptions::default()
        };
        for name in ["perf-dutch-0500.trf", "perf-dutch-1000.trf"] {
            let Ok(text) = std::fs::read_to_string(data.join("perf").join(name)) else {
                continue;
            };
            let start = Instant::now();
            let verdict = audit::audit_text(&text, &options).map_or_else(|e| e.0, |r| r.verdict());
            println!(
                "audit {name}: {:.2} s ({verdict})",
                start.elapsed().as_secs_f64()
            );
        }
    }
    if let Some(mib) = peak_memory_mib() {
        println!("peak memory {mib:.0} MiB");
    }
}
