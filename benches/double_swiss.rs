//! Double-Swiss (C.04.5) benchmark: `cargo bench --bench double_swiss`.
//!
//! A 1,000-player event of 9 matches (18 rounds, games), simulated by the system itself,
//! then three pairings timed: match 1 (one bracket of everyone), match 2 (a few big
//! brackets) and match 9, the last (small brackets, many rematches to avoid). Env
//! `SWISSPAIR_BENCH_PLAYERS` sets the size. Prints best and median wall time and the
//! process's peak memory (VmHWM); the target is under 100 ms per match.
mod harness;

use harness::{peak_memory_mib, time};
use swisspair::model::{SystemId, Tournament};
use swisspair::simulate::{self, SimConfig};
use swisspair::systems::PairOptions;

fn bench_match(label: &str, t: &Tournament) {
    let options = PairOptions::default();
    if let Err(e) = swisspair::pairing::pair_round(t, &options) {
        println!("{label}: failed: {e}");
        return;
    }
    let (best, median) = time(7, || swisspair::pairing::pair_round(t, &options));
    let mem = peak_memory_mib().map_or_else(|| "?".to_string(), |m| format!("{m:.0} MiB"));
    println!(
        "{label:<44} best {:>9.3} ms  median {:>9.3} ms  peak memory {mem}",
        best.as_secs_f64() * 1000.0,
        median.as_secs_f64() * 1000.0
    );
}

fn main() {
    let players: u32 = std::env::var("SWISSPAIR_BENCH_PLAYERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let matches = 9;
    let mut config = SimConfig::new(SystemId::DoubleSwiss, players, 2 * matches, 1);
    config.forfeit_rate = 0.01;
    config.bye_request_rate = 0.01;
    let mut t = simulate::start(&config);
    for k in 1..=matches {
        if k == 1 || k == 2 || k == matches {
            bench_match(
                &format!(
                    "double-swiss {players} players, match {k} (round {})",
                    2 * k - 1
                ),
                &t,
            );
        }
        // Both games of match k, with their own results.
        for _ in 0..2 {
            if let Err(e) = simulate::play_round(&mut t, &config) {
                println!("simulation failed: {e}");
                return;
            }
        }
    }
}
