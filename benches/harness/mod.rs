//! What every bench binary measures with, written once: wall time (best and median of a
//! few runs) and the process's peak resident memory. Measured in benches, never asserted in
//! tests.
#![allow(dead_code)]
use std::time::{Duration, Instant};

/// The process's peak resident memory so far (`VmHWM`), in MiB; `None` off Linux.
pub fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// Runs `f` `runs` times (at least once): the best and the median wall time.
pub fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, Duration) {
    let mut times: Vec<Duration> = (0..runs.max(1))
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(f());
            start.elapsed()
        })
        .collect();
    times.sort();
    (times[0], times[times.len() / 2])
}

/// One line: label, best and median in milliseconds, peak memory.
pub fn report(label: &str, best: Duration, median: Duration) {
    let mem = peak_memory_mib().map_or_else(|| "?".to_string(), |m| format!("{m:.0} MiB"));
    println!(
        "{label:<40} best {:>9.3} ms  median {:>9.3} ms  peak memory {mem}",
        best.as_secs_f64() * 1000.0,
        median.as_secs_f64() * 1000.0
    );
}
