//! JavaPairing 2.9's three Swiss engines (javapairing.md): the conformance corpora made by
//! JavaPairing itself, hand-worked rule tests and property tests.
mod common;

use std::path::Path;

use swisspair::check::{CheckOptions, check};
use swisspair::model::{AmalfiProfile, SystemId, Tournament};
use swisspair::systems::{PairError, PairOptions, pair};
use swisspair::trf;

/// Reads a corpus file and sets the options its README asks for.
fn load(path: &Path, system: SystemId) -> Tournament {
    let text = std::fs::read_to_string(path).expect("readable");
    let mut t = trf::read(&text).expect("valid TRF").tournament;
    t.system = Some(system);
    t.options.amalfi_profile = AmalfiProfile::JavaPairing;
    t.options.ignore_float_history = true;
    t
}

/// The round a `.note` says JavaPairing could not pair.
fn unpairable_round(path: &Path) -> Option<u32> {
    let note = std::fs::read_to_string(path.with_extension("note")).ok()?;
    let tail = note.split("could not pair round ").nth(1)?;
    tail.split_whitespace().next()?.parse().ok()
}

fn run_corpus(folder: &str, system: SystemId) -> (usize, usize) {
    let files = common::trf_files(&common::conformance_dir(&format!("javapairing/{folder}")));
    assert!(!files.is_empty(), "no files in {folder}");
    let (mut passed, mut failed) = (0, 0);
    for path in files {
        let t = load(&path, system);
        let report = check(&t, &CheckOptions::default()).expect("checkable");
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
        if let Some(round) = unpairable_round(&path) {
            let answer = pair(
                &t,
                &PairOptions {
                    round: Some(round),
                    ..PairOptions::default()
                },
            );
            if matches!(answer, Err(PairError::NoLegalPairing { .. })) {
                passed += 1;
            } else {
                failed += 1;
                eprintln!(
                    "{} round {round}: JavaPairing could not pair it, the engine answered {:?}",
                    path.display(),
                    answer.map(|a| a.boards)
                );
            }
        }
    }
    println!("conformance javapairing/{folder}: {passed} passed, {failed} failed");
    (passed, failed)
}

#[test]
fn conformance_javapairing_amalfi() {
    let (passed, failed) = run_corpus("amalfi", SystemId::Amalfi);
    assert!(passed > 0);
    assert_eq!(failed, 0);
}

#[test]
fn conformance_javapairing_amalfi_late() {
    let (passed, failed) = run_corpus("amalfi-late", SystemId::Amalfi);
    assert!(passed > 0);
    assert_eq!(failed, 0);
}

#[test]
fn conformance_javapairing_simple() {
    let (passed, failed) = run_corpus("simple", SystemId::Simple);
    assert!(passed > 0);
    assert_eq!(failed, 0);
}

#[test]
fn conformance_javapairing_colour_alternation() {
    let (passed, failed) = run_corpus("colour-alternation", SystemId::ColourAlternation);
    assert!(passed > 0);
    assert_eq!(failed, 0);
}

// ---------------------------------------------------------------------------------------
// Simulation helpers (also used by the property tests).

use rand::{Rng, SeedableRng};
use swisspair::model::{Bye, Colour, Game, GameResult, Player, Round};
use swisspair::systems::RoundPairing;

/// A tournament of `n` players with distinct ratings, `rounds` rounds, no games yet.
fn field(n: usize, rounds: u32, system: SystemId, seed: u64) -> Tournament {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut ratings: Vec<u32> = (0..n).map(|i| 2600 - i as u32 * 2).collect();
    // Small shuffles keep ratings distinct while not exactly in ID order.
    for i in 1..n {
        if rng.random_bool(0.1) {
            ratings.swap(i - 1, i);
        }
    }
    ratings.sort_unstable_by(|a, b| b.cmp(a));
    let mut t = Tournament {
        system: Some(system),
        total_rounds: rounds,
        initial_colour: Some(Colour::White),
        players: (0..n)
            .map(|i| Player {
                id: format!("{}", i + 1),
                name: format!("Player {:04}", i + 1),
                rating: ratings[i],
                pairing_number: Some(i as u32 + 1),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    };
    t.options.amalfi_profile = AmalfiProfile::JavaPairing;
    t
}

/// Splits the field into `clubs` clubs (by ID modulo) whose members may not meet (CG-10).
fn add_clubs(t: &mut Tournament, clubs: usize) {
    for c in 0..clubs {
        t.forbidden_pairings
            .push(swisspair::model::ForbiddenPairing {
                players: (0..t.players.len()).filter(|p| p % clubs == c).collect(),
                first_round: None,
                last_round: None,
            });
    }
}

/// Records a pairing as played, with results drawn from `rng` (stronger player favoured).
fn record(t: &mut Tournament, answer: &RoundPairing, rng: &mut impl Rng) {
    let games = answer
        .boards
        .iter()
        .map(|b| {
            let stronger_white = t.players[b.white].rating >= t.players[b.black].rating;
            let x: f64 = rng.random();
            let result = if x < 0.25 {
                GameResult::Draw
            } else if (x < 0.75) == stronger_white {
                GameResult::WhiteWins
            } else {
                GameResult::BlackWins
            };
            Game {
                white: b.white,
                black: b.black,
                result,
                board: None,
            }
        })
        .collect();
    let byes = answer
        .byes
        .iter()
        .map(|b| Bye {
            player: b.player,
            kind: b.kind,
        })
        .collect();
    let number = answer.round as usize;
    if t.rounds.len() >= number {
        // Keep the requested byes already written for the round.
        let round = &mut t.rounds[number - 1];
        round.games = games;
        round
            .byes
            .retain(|b| !answer.byes.iter().any(|a| a.player == b.player));
        round.byes.extend(byes);
    } else {
        t.rounds.push(Round { games, byes });
    }
}

/// Plays a whole simulated tournament; returns the longest pairing time and the rounds paired.
fn simulate_timed(
    n: usize,
    rounds: u32,
    system: SystemId,
    seed: u64,
    clubs: usize,
) -> (std::time::Duration, u32) {
    let mut t = field(n, rounds, system, seed);
    add_clubs(&mut t, clubs);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0xABCD);
    let mut worst = std::time::Duration::ZERO;
    let mut paired = 0;
    for _ in 0..rounds {
        let start = std::time::Instant::now();
        let answer = pair(&t, &PairOptions::default());
        worst = worst.max(start.elapsed());
        match answer {
            Ok(a) => {
                record(&mut t, &a, &mut rng);
                paired += 1;
            }
            Err(_) => break,
        }
    }
    (worst, paired)
}

/// Release timing of a 1,000-player field: `cargo test --release --test javapairing
/// timing -- --ignored --nocapture`.
#[test]
#[ignore]
fn timing_1000_players() {
    for system in [
        SystemId::Amalfi,
        SystemId::Simple,
        SystemId::ColourAlternation,
    ] {
        for seed in 1..=3 {
            let (worst, paired) = simulate_timed(1000, 9, system, seed, 0);
            println!("{system} seed {seed}: {paired} rounds, slowest {worst:?}");
        }
        for clubs in [2, 3, 10, 50] {
            let (worst, paired) = simulate_timed(1000, 11, system, 7, clubs);
            println!("{system} with {clubs} clubs: {paired} rounds, slowest {worst:?}");
        }
        for n in [999, 1001] {
            let (worst, paired) = simulate_timed(n, 15, system, 9, 0);
            println!("{system} {n} players, 15 rounds: {paired} rounds, slowest {worst:?}");
        }
        // A Dutch-paired history (../shared/perf) is harder on these engines' colour rules.
        let path = common::conformance_dir("..")
            .join("perf")
            .join("perf-dutch-1000.trf");
        if let Ok(text) = std::fs::read_to_string(&path) {
            let mut t = trf::read(&text).expect("valid TRF").tournament;
            t.system = Some(system);
            t.options.amalfi_profile = AmalfiProfile::JavaPairing;
            for round in 2..=t.rounds_paired() {
                let mut before = t.clone();
                before.rounds.truncate(round as usize - 1);
                let start = std::time::Instant::now();
                let answer = pair(&before, &PairOptions::default());
                println!(
                    "{system} perf-dutch-1000 round {round}: {:?} ({})",
                    start.elapsed(),
                    match &answer {
                        Ok(a) => format!("{} boards", a.boards.len()),
                        Err(e) => format!("{e}").chars().take(100).collect(),
                    }
                );
            }
        }
    }
}

/// One simulated field, for profiling: `JP_SYSTEM=simple JP_CLUBS=2 cargo test --release
/// --test javapairing timing_one -- --ignored --nocapture`. Re-pairs the slowest round a
/// few times (the best time is the least disturbed by other load) and prints its summary.
#[test]
#[ignore]
fn timing_one() {
    let system: SystemId = std::env::var("JP_SYSTEM")
        .unwrap_or_else(|_| "simple".to_string())
        .parse()
        .expect("system");
    let clubs: usize = std::env::var("JP_CLUBS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(2);
    let mut t = field(1000, 11, system, 7);
    add_clubs(&mut t, clubs);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7 ^ 0xABCD);
    let mut slowest: Option<(std::time::Duration, Tournament)> = None;
    for _ in 0..11 {
        let start = std::time::Instant::now();
        let Ok(answer) = pair(&t, &PairOptions::default()) else {
            break;
        };
        let took = start.elapsed();
        if slowest.as_ref().is_none_or(|(d, _)| took > *d) {
            slowest = Some((took, t.clone()));
        }
        record(&mut t, &answer, &mut rng);
    }
    let Some((_, t)) = slowest else { return };
    let mut best = std::time::Duration::MAX;
    let mut last = None;
    for _ in 0..5 {
        let start = std::time::Instant::now();
        last = Some(pair(&t, &PairOptions::default()));
        best = best.min(start.elapsed());
    }
    println!(
        "{system} with {clubs} clubs, slowest round {}: best of 5 {best:?}",
        t.rounds_paired() + 1
    );
    if let Some(Ok(a)) = last {
        for g in &a.explanation.groups {
            for s in &g.steps {
                if s.message.contains("visits")
                    || s.message.contains("rebuilt")
                    || s.message.contains("broken")
                {
                    println!(
                        "  {}: {}",
                        s.rule_id,
                        s.message.chars().take(160).collect::<String>()
                    );
                }
            }
        }
    }
}
