//! Swiss Team (C.04.6) with a weak club separation against without (SEP-5, SEP-6):
//! `cargo bench --bench team_swiss`.
//!
//! An event of `SWISSPAIR_BENCH_TEAMS` teams (default 100) of four boards and 9 rounds,
//! simulated by the system itself without a separation; each team one of
//! `SWISSPAIR_BENCH_CLUBS` clubs (default 10, a fixed hash of the team). Rounds 1, 2, 5 and
//! 9 are then timed as they stand, paired without a separation and with a club separation
//! at each place (`WEAK`, `WEAK_FIRST`, `WEAK_LAST`): best and median wall time of 5 runs.
mod harness;

use harness::time;
use swisspair::model::{Separation, SeparationKey, SeparationMode, SystemId, Tournament};
use swisspair::simulate::{self, SimConfig};
use swisspair::systems::PairOptions;

fn env_u32(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn bench_round(label: &str, t: &Tournament) {
    let options = PairOptions::default();
    let modes = [
        None,
        Some(SeparationMode::Weak),
        Some(SeparationMode::WeakFirst),
        Some(SeparationMode::WeakLast),
    ];
    for mode in modes {
        let mut t = t.clone();
        t.separations = mode
            .map(|mode| Separation {
                mode,
                ..Separation::absolute(SeparationKey::Club)
            })
            .into_iter()
            .collect();
        let name = mode.map_or("without", |m| m.name());
        if let Err(e) = swisspair::pairing::pair_round(&t, &options) {
            println!("{label} {name}: failed: {e}");
            continue;
        }
        let (best, median) = time(5, || swisspair::pairing::pair_round(&t, &options));
        println!(
            "{label:<36} {name:<10} best {:>9.3} ms  median {:>9.3} ms",
            best.as_secs_f64() * 1000.0,
            median.as_secs_f64() * 1000.0
        );
    }
}

fn main() {
    let teams = env_u32("SWISSPAIR_BENCH_TEAMS", 100);
    let clubs = u64::from(env_u32("SWISSPAIR_BENCH_CLUBS", 10).max(1));
    let rounds = 9;
    let mut config = SimConfig::new(SystemId::TeamSwiss, teams, rounds, 1);
    config.boards = 4;
    let mut t = simulate::start(&config);
    for (i, team) in t.teams.iter_mut().enumerate() {
        let h = (i as u64 + 1)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_mul(0xBF58_476D_1CE4_E5B9);
        team.club = format!("club{}", (h >> 29) % clubs);
    }
    for number in 1..=rounds {
        if [1, 2, 5, rounds].contains(&number) {
            bench_round(&format!("team-swiss {teams} teams, round {number}"), &t);
        }
        if let Err(e) = simulate::play_round(&mut t, &config) {
            println!("simulation failed: {e}");
            return;
        }
    }
}
