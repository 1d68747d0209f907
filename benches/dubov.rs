//! Dubov benchmark (C.04.4.1): `cargo bench --bench dubov`.
//!
//! A 1,000-player open (env `SWISSPAIR_BENCH_PLAYERS`) simulated with the Dubov system
//! itself; times the pairing of round 1 (one bracket of 1,000), rounds 2 and 3 (brackets
//! of about 500 and 250: the "first legal transposition" and the shifts at their largest),
//! round 2 with Baku acceleration, and the last round of 11. Prints best and median wall
//! time and the process's peak memory (VmHWM). Measured here, never asserted in tests.
mod harness;

use harness::{peak_memory_mib, time};
use swisspair::model::SystemId;
use swisspair::simulate::{SimConfig, simulate};
use swisspair::systems::PairOptions;

fn main() {
    let players: u32 = std::env::var("SWISSPAIR_BENCH_PLAYERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let total = 11;
    let cases: [(&str, u32, bool); 5] = [
        ("round 1", 1, false),
        ("round 2", 2, false),
        ("round 3", 3, false),
        ("round 2, Baku acceleration", 2, true),
        ("round 11 (last)", 11, false),
    ];
    for (label, round, baku) in cases {
        // The simulator plays at least one round: round 1 is paired from its snapshot with
        // the rounds taken off.
        let mut config = SimConfig::new(SystemId::Dubov, players, (round - 1).max(1), 1);
        if baku {
            let _ = config.options.set("acceleration", "BAKU");
        }
        let mut t = match simulate(&config) {
            Ok(t) => t,
            Err(e) => {
                println!("dubov {players} {label}: simulation failed: {e}");
                continue;
            }
        };
        t.rounds.truncate(round as usize - 1);
        t.total_rounds = total;
        let options = PairOptions::default();
        if let Err(e) = swisspair::pairing::pair_round(&t, &options) {
            println!("dubov {players} {label}: failed: {e}");
            continue;
        }
        let (best, median) = time(5, || swisspair::pairing::pair_round(&t, &options));
        let mem = peak_memory_mib().map_or_else(|| "?".to_string(), |m| format!("{m:.0} MiB"));
        println!(
            "{:<44} best {:>9.3} ms  median {:>9.3} ms  peak memory {mem}",
            format!("dubov {players} players, {label}"),
            best.as_secs_f64() * 1000.0,
            median.as_secs_f64() * 1000.0
        );
    }
}
