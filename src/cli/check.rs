//! `swisspair check`: re-pairs every round of a TRF file and reports the differences.
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use swisspair::check::{self, CheckOptions};

use super::CliError;
use super::args::{OptionArgs, SystemArg, read_trf};

#[derive(Args)]
pub struct CheckArgs {
    #[command(flatten)]
    system: SystemArg,
    #[command(flatten)]
    options: OptionArgs,
    /// The tournament (TRF-16/TRF-26).
    input: PathBuf,
    /// Seed of every lot (default: the file's).
    #[arg(long)]
    seed: Option<u64>,
    /// Re-pair a round that differs under the system's other reading of the rules (the
    /// Dutch system's other edition, Burstein's other profile) and say which it follows.
    #[arg(long)]
    other_readings: bool,
}

pub fn run(args: &CheckArgs) -> Result<ExitCode, CliError> {
    let system = args.system.resolve()?;
    let doc = read_trf(&args.input)?;
    // What the reader noticed (the points column against the results, a gap in the
    // starting ranks, what it assumed), as `pair` and `audit` report it.
    let reader_warnings = doc.points_warnings();
    let mut t = doc.tournament;
    args.options.apply(&mut t)?;
    let options = CheckOptions {
        system,
        seed: args.seed,
        other_readings: args.other_readings,
        ..CheckOptions::default()
    };
    let answer = check::run(&t, &options)?;
    let report = answer.report;
    for w in &reader_warnings {
        eprintln!("swisspair: warning: {}", w.message);
    }
    for w in &report.warnings {
        eprintln!("swisspair: warning: {w}");
    }
    // A system whose pairings are matches of several games (Double-Swiss) is checked match
    // by match: each line names the match and its rounds.
    let games = swisspair::systems::find(answer.system).map_or(1, |s| s.games_per_match().max(1));
    let label = |round: u32| {
        if games > 1 {
            let k = (round - 1) / games + 1;
            format!("match {k} (rounds {round}-{})", round + games - 1)
        } else {
            format!("round {round}")
        }
    };
    for r in &report.rounds {
        if let Some(e) = &r.error {
            println!("{}: cannot pair: {e}", label(r.round));
        } else if r.differences.is_empty() {
            println!("{}: ok", label(r.round));
        } else {
            println!("{}: differs", label(r.round));
            for d in &r.differences {
                println!("  {d}");
            }
        }
        if let Some(f) = &r.follows {
            println!(
                "  follows {}: re-paired with {}={} it matches the record",
                f.other, f.option, f.value
            );
        }
    }
    println!("{} passed, {} failed", report.passed(), report.failed());
    Ok(if report.failed() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
