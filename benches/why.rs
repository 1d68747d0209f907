//! "Why not?" benchmark (`check::why`): `cargo bench --bench why`.
//!
//! A 1,000-player open (env `SWISSPAIR_BENCH_PLAYERS`) simulated with each criterion-based
//! system (and edition or profile) for 4 rounds, a Swiss Team event with a quarter as many
//! teams of 4 boards; times round 5's pairing alone beside a pair question (the answer,
//! the validation and the constrained pairing) and a bye question, so that a question's
//! cost reads as a multiple of one pairing. Prints best and median wall time and the
//! process's peak memory (VmHWM). Measured here, never asserted in tests.
mod harness;

use harness::{peak_memory_mib, time};
use swisspair::check::why::{self, Question};
use swisspair::model::{ByeKind, SystemId};
use swisspair::simulate::{SimConfig, simulate};
use swisspair::systems::PairOptions;

fn main() {
    let players: u32 = std::env::var("SWISSPAIR_BENCH_PLAYERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    for (system, option) in [
        (SystemId::Dutch, None),
        (SystemId::Dutch, Some(("edition", "2017"))),
        (SystemId::Burstein, None),
        (SystemId::Burstein, Some(("profile", "BBP"))),
        (SystemId::Dubov, None),
        (SystemId::Lim, None),
        (SystemId::DoubleSwiss, None),
        (SystemId::TeamSwiss, None),
    ] {
        let entrants = if system == SystemId::TeamSwiss {
            players / 4
        } else {
            players
        };
        let mut config = SimConfig::new(system, entrants, 4, 1);
        config.forfeit_rate = 0.0;
        if let Some((name, value)) = option
            && config.options.set(name, value).is_err()
        {
            println!("why {system:?}: option {name}={value} refused");
            continue;
        }
        let mut t = match simulate(&config) {
            Ok(t) => t,
            Err(e) => {
                println!("why {system:?} {players}: simulation failed: {e}");
                continue;
            }
        };
        // Nine rounds (a Double-Swiss counts games: ten, two per match).
        t.total_rounds = if system == SystemId::DoubleSwiss {
            10
        } else {
            9
        };
        let name = match option {
            Some((_, value)) => format!("{} {value}", system.name()),
            None => system.name().to_string(),
        };
        let options = PairOptions::default();
        let answer = match swisspair::pairing::pair_round(&t, &options) {
            Ok(a) => a,
            Err(e) => {
                println!("why {system:?} {players}: pairing failed: {e}");
                continue;
            }
        };
        // A pair of the answer's first two boards' white players; the bye for the player on
        // the last board.
        let (a, b) = (answer.boards[0].white, answer.boards[1].white);
        let x = answer.boards[answer.boards.len() - 1].white;
        let has_bye = answer.byes.iter().any(|y| y.kind == ByeKind::Pab);
        let mut cases: Vec<(&str, Option<Question>)> = vec![
            ("pairing alone", None),
            (
                "--pair (first two boards' Whites)",
                Some(Question::Pair { a, b, white: None }),
            ),
        ];
        if has_bye {
            cases.push(("--bye (last board's White)", Some(Question::Bye(x))));
        }
        for (label, question) in cases {
            let (best, median) = match &question {
                None => time(3, || {
                    swisspair::pairing::pair_round(&t, &options).map(|_| ())
                }),
                Some(q) => time(3, || why::run(&t, q, &options).map(|_| ())),
            };
            let mem = peak_memory_mib().map_or_else(|| "?".to_string(), |m| format!("{m:.0} MiB"));
            println!(
                "{:<64} best {:>9.3} ms  median {:>9.3} ms  peak memory {mem}",
                format!("why {name} {entrants} entrants round 5, {label}"),
                best.as_secs_f64() * 1000.0,
                median.as_secs_f64() * 1000.0
            );
        }
    }
}
