//! The Lim system's benchmark (`cargo bench --bench lim`): a 1,000-player open (env
//! `SWISSPAIR_BENCH_PLAYERS`) simulated by Lim itself over 11 rounds, then rounds 1, 2 and
//! 3 (big scoregroups, few games behind them), 6 and 11 (many small scoregroups, the last
//! round under art. 6) re-paired from the rounds before; best and median of five runs, and
//! the process's peak memory (VmHWM). Measured here, never asserted in tests.
mod harness;

use std::time::Instant;

use harness::{peak_memory_mib, time};
use swisspair::model::SystemId;
use swisspair::simulate::{SimConfig, simulate};
use swisspair::systems::PairOptions;

fn main() {
    let players: u32 = std::env::var("SWISSPAIR_BENCH_PLAYERS")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(1000);
    let rounds = 11;
    for acceleration in ["NONE", "BAKU"] {
        let mut config = SimConfig::new(SystemId::Lim, players, rounds, 1);
        config.bye_request_rate = 0.02;
        if let Err(e) = config.options.set("acceleration", acceleration) {
            println!("lim: {e}");
            return;
        }
        let start = Instant::now();
        let full = match simulate(&config) {
            Ok(t) => t,
            Err(e) => {
                println!("lim {players}: simulation failed: {e}");
                return;
            }
        };
        println!(
            "lim {players} players, acceleration {acceleration}: {rounds} rounds simulated in {:.3} s",
            start.elapsed().as_secs_f64()
        );
        for round in [1u32, 2, 3, 6, 11] {
            let mut t = full.clone();
            t.rounds.truncate(round as usize - 1);
            let options = PairOptions::default();
            if let Err(e) = swisspair::pairing::pair_round(&t, &options) {
                println!("lim {players}: round {round} failed: {e}");
                continue;
            }
            let (best, median) = time(5, || swisspair::pairing::pair_round(&t, &options));
            let mem = peak_memory_mib().map_or_else(|| "?".to_string(), |m| format!("{m:.0} MiB"));
            println!(
                "{:<44} best {:>9.3} ms  median {:>9.3} ms  peak memory {mem}",
                format!("lim {players} players ({acceleration}), round {round}"),
                best.as_secs_f64() * 1000.0,
                median.as_secs_f64() * 1000.0
            );
        }
    }
}
