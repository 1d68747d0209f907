//! Every round of a large Dutch open, timed one by one (not a test; timings are printed,
//! never asserted):
//!
//! `SWISSPAIR_OPEN_PLAYERS=4000 SWISSPAIR_OPEN_ROUNDS=11 cargo bench --bench dutch_open`
//!
//! The open is simulated from a seed (`SWISSPAIR_OPEN_SEED`, default 1; the simulator's
//! ratings, 30 % draws): each round is paired by the Dutch system through the public
//! pipeline (`pairing::pair_round`), timed, and played with random results. Run it under
//! `/usr/bin/time -v` for the peak memory of the whole process (the largest round
//! dominates); each line also prints the thread's CPU time for the round (`cpu`, which
//! another job on the machine does not inflate as it does the wall time) and the peak so
//! far (VmHWM). `SWISSPAIR_OPEN_CHECK=1`
//! also pairs each round's brackets with the dense engine alone (the exact path without
//! the certificate shortcut) and stops at the first difference, for rounds small enough
//! (`SWISSPAIR_OPEN_CHECK_UP_TO` players, default 4,000), from round
//! `SWISSPAIR_OPEN_CHECK_FROM` (default 1). `SWISSPAIR_OPEN_PRINT=1`
//! prints a digest of each round's pairs. `SWISSPAIR_OPEN_EDITION=2017` pairs by the 2017
//! edition of the rules (default 2026). `SWISSPAIR_OPEN_CLUBS=300
//! SWISSPAIR_OPEN_SEPARATE=weak` gives the players clubs and keeps clubmates apart (SEP-5).
//! `SWISSPAIR_OPEN_SEEDS=1-10` (or `2,5,7`) sweeps
//! seeds, one open after the other, and ends with each seed's slowest round.
//! `SWISSPAIR_OPEN_PERF_ROUND=16` samples that round alone with `perf record -g` (written to
//! `SWISSPAIR_OPEN_PERF_OUT`, default `perf.data`; `SWISSPAIR_OPEN_PERF_CALLS=dwarf` for
//! call chains), so that a slow round of a long open
//! can be profiled without the rounds before it.
mod harness;

use std::time::Instant;

use harness::peak_memory_mib;
use swisspair::model::SystemId;
use swisspair::simulate::{SimConfig, record_round, start};
use swisspair::systems::RoundToPair;
use swisspair::systems::common::History;
use swisspair::systems::common::fide_players::Field;
use swisspair::systems::dutch::brackets::{Engine, GLOBAL_UP_TO, pair_round_using};

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// FNV-1a over the sorted unordered pairs: a digest to compare runs.
fn digest(pairs: &mut [(usize, usize)], bye: Option<usize>) -> u64 {
    pairs.sort_unstable();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |x: u64| {
        h ^= x;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    for &(a, b) in pairs.iter() {
        eat(a as u64);
        eat(b as u64);
    }
    eat(bye.map_or(u64::MAX, |b| b as u64));
    h
}

/// The CPU time this thread has used (`/proc/thread-self/schedstat`, nanoseconds), so that
/// a round's figure on a machine shared with other jobs counts its own work only; `None`
/// off Linux.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// `perf record -g` of this process until [`stop_perf`]; `None` (and a line) if perf
/// cannot start.
fn start_perf() -> Option<std::process::Child> {
    let out = std::env::var("SWISSPAIR_OPEN_PERF_OUT").unwrap_or_else(|_| "perf.data".into());
    // `SWISSPAIR_OPEN_PERF_CALLS=dwarf` for call chains through code built without frame
    // pointers (larger files: fewer samples a second).
    let calls = std::env::var("SWISSPAIR_OPEN_PERF_CALLS").unwrap_or_else(|_| "fp".into());
    let rate = if calls == "fp" { "499" } else { "97" };
    let child = std::process::Command::new("perf")
        .args([
            "record",
            "-F",
            rate,
            "--call-graph",
            &calls,
            "-o",
            &out,
            "-p",
        ])
        .arg(std::process::id().to_string())
        .stdout(std::process::Stdio::null())
        .spawn();
    match child {
        Ok(c) => {
            // perf needs a moment to attach before the round starts.
            std::thread::sleep(std::time::Duration::from_millis(500));
            Some(c)
        }
        Err(e) => {
            println!("perf did not start: {e}");
            None
        }
    }
}

/// Stops a [`start_perf`] recording (SIGINT, as perf expects) and waits for its file.
fn stop_perf(mut perf: std::process::Child) {
    let _ = std::process::Command::new("kill")
        .args(["-INT", &perf.id().to_string()])
        .status();
    let _ = perf.wait();
}

/// The seeds to run: `SWISSPAIR_OPEN_SEEDS` (`1-10`, `2,5,7`), else `SWISSPAIR_OPEN_SEED`.
fn seeds() -> Vec<u64> {
    let Ok(list) = std::env::var("SWISSPAIR_OPEN_SEEDS") else {
        return vec![env_u64("SWISSPAIR_OPEN_SEED", 1)];
    };
    let mut out = Vec::new();
    for part in list.split(',') {
        let part = part.trim();
        match part.split_once('-') {
            Some((a, b)) => {
                if let (Ok(a), Ok(b)) = (a.trim().parse::<u64>(), b.trim().parse::<u64>()) {
                    out.extend(a..=b);
                }
            }
            None => out.extend(part.parse::<u64>().ok()),
        }
    }
    out
}

fn main() {
    let seeds = seeds();
    let mut sweep = Vec::new();
    for &seed in &seeds {
        match run_open(seed) {
            Some(summary) => sweep.push((seed, summary)),
            None => return,
        }
    }
    // The sweep: the slowest round of each seed (issue 22's targets read it).
    if seeds.len() > 1 {
        for (seed, (round, slowest, total)) in &sweep {
            println!("seed {seed}: slowest round {round} {slowest:.3} s, all rounds {total:.1} s");
        }
        if let Some((seed, (round, slowest, _))) =
            sweep.iter().max_by(|a, b| a.1.1.total_cmp(&b.1.1))
        {
            println!("slowest of the sweep: seed {seed}, round {round}, {slowest:.3} s");
        }
    }
}

/// Every round of one open; its slowest round, that round's time and the total.
fn run_open(seed: u64) -> Option<(u32, f64, f64)> {
    let players = env_u64("SWISSPAIR_OPEN_PLAYERS", 2000) as u32;
    let rounds = env_u64("SWISSPAIR_OPEN_ROUNDS", 11) as u32;
    let check = std::env::var_os("SWISSPAIR_OPEN_CHECK").is_some();
    let check_up_to = env_u64("SWISSPAIR_OPEN_CHECK_UP_TO", 4000) as usize;
    let check_from = env_u64("SWISSPAIR_OPEN_CHECK_FROM", 1) as u32;
    let print = std::env::var_os("SWISSPAIR_OPEN_PRINT").is_some();
    let config = SimConfig::new(SystemId::Dutch, players, rounds, seed);
    let mut t = start(&config);
    let edition = std::env::var("SWISSPAIR_OPEN_EDITION").unwrap_or_else(|_| "2026".to_string());
    if t.options.set("edition", &edition).is_err() {
        println!("SWISSPAIR_OPEN_EDITION: {edition:?} is no edition");
        return None;
    }
    // SEP-5 at scale: `SWISSPAIR_OPEN_CLUBS=300` gives every player one of 300 clubs (a
    // fixed hash of seed and player), `SWISSPAIR_OPEN_SEPARATE=weak` (or `weak-last`,
    // `absolute`) keeps clubmates apart.
    let clubs = env_u64("SWISSPAIR_OPEN_CLUBS", 0);
    if clubs > 0 {
        for (i, p) in t.players.iter_mut().enumerate() {
            let h = (seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
                .wrapping_mul(0xBF58_476D_1CE4_E5B9);
            p.club = format!("club{}", (h >> 29) % clubs);
        }
    }
    if let Ok(mode) = std::env::var("SWISSPAIR_OPEN_SEPARATE") {
        let Some(mode) = swisspair::model::SeparationMode::parse(&mode) else {
            println!("SWISSPAIR_OPEN_SEPARATE: {mode:?} is no mode");
            return None;
        };
        t.separations.push(swisspair::model::Separation {
            mode,
            ..swisspair::model::Separation::absolute(swisspair::model::SeparationKey::Club)
        });
    }
    let mut slowest = (0u32, 0f64);
    let total = Instant::now();
    for number in 1..=rounds {
        if check && (players as usize) <= check_up_to && number >= check_from {
            let options = swisspair::simulate::round_options(&t, &config);
            let Ok(r) = RoundToPair::prepare(&t, &options) else {
                println!("round {number}: cannot prepare");
                return None;
            };
            let history = History::build(&r);
            let field = Field::build(
                &r,
                &history,
                swisspair::systems::dutch::edition::Edition::of(&r.tournament.options).text(),
            );
            let run = |engine| {
                let start = Instant::now();
                let o = pair_round_using(&field, GLOBAL_UP_TO, engine);
                let elapsed = start.elapsed().as_secs_f64();
                let o = o.ok().map(|o| {
                    let mut pairs: Vec<(usize, usize)> =
                        o.pairs.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
                    digest(&mut pairs, o.bye)
                });
                (o, elapsed)
            };
            let (fast, tf) = run(Engine::Fast);
            let (dense, td) = run(Engine::Dense);
            println!(
                "round {number}: fast {tf:.3} s, dense {td:.3} s, {}",
                if fast == dense { "same" } else { "DIFFERENT" }
            );
            if fast != dense {
                std::process::exit(1);
            }
        }
        let options = swisspair::simulate::round_options(&t, &config);
        let perf = (env_u64("SWISSPAIR_OPEN_PERF_ROUND", 0) == u64::from(number))
            .then(start_perf)
            .flatten();
        let cpu_begin = thread_cpu_seconds();
        let begin = Instant::now();
        let pairing = match swisspair::pairing::pair_round(&t, &options) {
            Ok(p) => p,
            Err(e) => {
                println!("dutch {edition} {players} players, round {number}: failed: {e}");
                return None;
            }
        };
        let elapsed = begin.elapsed();
        if let Some(perf) = perf {
            stop_perf(perf);
        }
        let cpu = match (cpu_begin, thread_cpu_seconds()) {
            (Some(a), Some(b)) => format!("  cpu {:>7.3} s", b - a),
            _ => String::new(),
        };
        if elapsed.as_secs_f64() > slowest.1 {
            slowest = (number, elapsed.as_secs_f64());
        }
        let mem = peak_memory_mib().map_or_else(|| "?".to_string(), |m| format!("{m:.0} MiB"));
        let mut line = format!(
            "dutch {edition} {players} players, seed {seed}, round {number:>2}: {:>9.3} s{cpu}  peak memory so far {mem}",
            elapsed.as_secs_f64()
        );
        if print {
            let mut pairs: Vec<(usize, usize)> = pairing
                .boards
                .iter()
                .map(|b| (b.white.min(b.black), b.white.max(b.black)))
                .collect();
            let bye = pairing.byes.first().map(|b| b.player);
            line.push_str(&format!("  digest {:016x}", digest(&mut pairs, bye)));
        }
        println!("{line}");
        // Played with the simulator's results.
        record_round(&mut t, &config, &pairing);
    }
    let all = total.elapsed().as_secs_f64();
    println!("dutch {edition} {players} players, seed {seed}, {rounds} rounds: {all:.1} s in all");
    Some((slowest.0, slowest.1, all))
}
