//! Pairing benchmark: `cargo bench` (or `cargo bench -- SYSTEM...` for some systems).
//!
//! For every implemented system it simulates an open (1,000 players by default, env
//! `SWISSPAIR_BENCH_PLAYERS`, comma-separated sizes) up to its last round, then times the
//! pairing of the last round (best and median of several runs). For the Dutch system it also
//! pairs the last round of each `tests/data/perf/*.trf` file (env `SWISSPAIR_BENCH_ROUNDS`
//! sets the round timed, default 11; 9 for round robin). It prints wall time and the
//! process's peak memory (VmHWM). Timings are measured here, never asserted in tests.
mod harness;

use harness::{report, time};
use swisspair::model::SystemId;
use swisspair::simulate::{SimConfig, simulate};
use swisspair::systems::{self, PairOptions};

fn main() {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let sizes: Vec<u32> = std::env::var("SWISSPAIR_BENCH_PLAYERS")
        .ok()
        .map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1000]);
    for system in systems::implemented() {
        let id = system.info().id;
        if !filters.is_empty() && !filters.iter().any(|f| f == id.name()) {
            continue;
        }
        for &players in &sizes {
            let default_rounds = if id == SystemId::RoundRobin { 9 } else { 11 };
            let rounds = std::env::var("SWISSPAIR_BENCH_ROUNDS")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(default_rounds);
            // A system whose matches hold several games (Double-Swiss: two) counts rounds
            // as games: time the first game of the last match.
            let games = system.games_per_match().max(1);
            let rounds = rounds * games;
            let config = SimConfig::new(id, players, rounds - games, 1);
            let mut t = match simulate(&config) {
                Ok(t) => t,
                Err(e) => {
                    println!("{id} {players}: simulation failed: {e}");
                    continue;
                }
            };
            t.total_rounds = rounds;
            let options = PairOptions::default();
            if let Err(e) = swisspair::pairing::pair_round(&t, &options) {
                println!("{id} {players}: last round failed: {e}");
                continue;
            }
            let (best, median) = time(5, || swisspair::pairing::pair_round(&t, &options));
            report(
                &format!("{id} {players} players, round {}", rounds - games + 1),
                best,
                median,
            );
        }
    }
    if systems::find(SystemId::Dutch).is_some()
        && (filters.is_empty() || filters.iter().any(|f| f == "dutch"))
    {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/perf");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        files.sort();
        for path in files {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let Ok(doc) = swisspair::pairing::read_trf(&text) else {
                continue;
            };
            let mut t = doc.tournament;
            let last = t.rounds_paired();
            t.rounds.truncate(last.saturating_sub(1) as usize);
            let options = PairOptions {
                system: Some(SystemId::Dutch),
                ..PairOptions::default()
            };
            let (best, median) = time(1, || swisspair::pairing::pair_round(&t, &options));
            report(&format!("dutch {}", path.display()), best, median);
        }
    }
}
