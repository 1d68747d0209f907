//! Burstein benchmark: `cargo bench --bench burstein` (release).
//!
//! A 1,000-player open (env `SWISSPAIR_BENCH_PLAYERS`, comma-separated sizes) of 11 rounds,
//! simulated by the system itself up to the round before the one timed. Under the 2026 text
//! (profile FIDE_2026) it times round 5, the first paired by the Index (few scoregroups, big
//! brackets: the seeding rounds leave scores bunched), and round 11, the last; under profile
//! BBP, round 2 (two brackets of about 500 with its default acceleration) and round 11, and
//! rounds 1, 3, 5 and 8 (issue 14: every round under 100 ms). It
//! prints the best and median of several runs and the process's peak memory (VmHWM). Like
//! `benches/pairing.rs` it is a plain timing harness (no criterion): the figures are read,
//! never asserted. `SWISSPAIR_BENCH_ONLY=FIDE_2026:5` (profile:round) times one case.
mod harness;

use harness::{peak_memory_mib, time};
use swisspair::model::SystemId;
use swisspair::simulate::{SimConfig, simulate, start};
use swisspair::systems::{self, PairOptions};

fn main() {
    let sizes: Vec<u32> = std::env::var("SWISSPAIR_BENCH_PLAYERS")
        .ok()
        .map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1000]);
    let total = 11;
    // `SWISSPAIR_BENCH_ONLY=BBP:2` times one profile's one round.
    let only = std::env::var("SWISSPAIR_BENCH_ONLY").ok();
    // `SWISSPAIR_BENCH_ROUNDS=1-11` times every round of both profiles instead;
    // `SWISSPAIR_BENCH_SEED=k` simulates another event.
    let every: Option<Vec<u32>> = std::env::var("SWISSPAIR_BENCH_ROUNDS").ok().and_then(|v| {
        let (a, b) = v.split_once('-')?;
        Some((a.trim().parse().ok()?..=b.trim().parse().ok()?).collect())
    });
    let seed: u64 = std::env::var("SWISSPAIR_BENCH_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    for &players in &sizes {
        let cases: [(&str, &[u32]); 2] = match &every {
            Some(rounds) => [("FIDE_2026", rounds), ("BBP", rounds)],
            None => [("FIDE_2026", &[5, 11]), ("BBP", &[1, 2, 3, 5, 8, 11])],
        };
        for (profile, rounds) in cases {
            for &round in rounds {
                if only
                    .as_deref()
                    .is_some_and(|o| o != format!("{profile}:{round}"))
                {
                    continue;
                }
                let mut config =
                    SimConfig::new(SystemId::Burstein, players, (round - 1).max(1), seed);
                config.bye_request_rate = 0.01;
                if let Err(e) = config.options.set("profile", profile) {
                    println!("{profile}: {e}");
                    continue;
                }
                // Round 1: the players before any round (the simulator plays at least one).
                let simulated = if round == 1 {
                    Ok(start(&config))
                } else {
                    simulate(&config)
                };
                let mut t = match simulated {
                    Ok(t) => t,
                    Err(e) => {
                        println!("{profile} {players}: simulation failed: {e}");
                        continue;
                    }
                };
                t.total_rounds = total;
                let options = PairOptions::default();
                let digest = match swisspair::pairing::pair_round(&t, &options) {
                    Ok(p) => pairs_digest(&p),
                    Err(e) => {
                        println!("{profile} {players} round {round}: failed: {e}");
                        continue;
                    }
                };
                let (best, median) = time(5, || swisspair::pairing::pair_round(&t, &options));
                let mem =
                    peak_memory_mib().map_or_else(|| "?".to_string(), |m| format!("{m:.0} MiB"));
                println!(
                    "burstein {profile:<9} {players} players, round {round:>2} of {total}: best {:>9.3} ms  median {:>9.3} ms  peak memory {mem}  pairs digest {digest:016x}",
                    best.as_secs_f64() * 1000.0,
                    median.as_secs_f64() * 1000.0
                );
            }
        }
    }
}

/// An FNV-1a digest of the round's pair list and byes, so that a speed change can show it
/// left the output identical.
fn pairs_digest(p: &systems::RoundPairing) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |x: usize| {
        for b in (x as u64).to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for b in &p.boards {
        eat(b.white);
        eat(b.black);
    }
    eat(usize::MAX);
    for b in &p.byes {
        eat(b.player);
    }
    h
}
