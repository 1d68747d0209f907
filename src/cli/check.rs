//! `swisspair check`: re-pairs every round of a TRF file and reports the differences.
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use swisspair::check::CheckOptions;
use swisspair::pairing;

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
}

pub fn run(args: &CheckArgs) -> Result<ExitCode, CliError> {
    let system = args.system.resolve()?;
    let mut t = read_trf(&args.input)?.tournament;
    args.options.apply(&mut t)?;
    let options = CheckOptions {
        system,
        seed: args.seed,
        ..CheckOptions::default()
    };
    let report = pairing::check(&t, &options)?.report;
    for w in &report.warnings {
        eprintln!("swisspair: warning: {w}");
    }
    for r in &report.rounds {
        if let Some(e) = &r.error {
            println!("round {}: cannot pair: {e}", r.round);
        } else if r.differences.is_empty() {
            println!("round {}: ok", r.round);
        } else {
            println!("round {}: differs", r.round);
            for d in &r.differences {
                println!("  {d}");
            }
        }
    }
    println!("{} passed, {} failed", report.passed(), report.failed());
    Ok(if report.failed() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
