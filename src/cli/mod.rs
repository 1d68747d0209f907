//! The `swisspair` command line: one file per command, each a thin adapter over the
//! pipeline ([`swisspair::pairing`]); what they print is written once in [`output`].
//!
//! Exit codes follow the FIDE-endorsed engines' CLIs: 0 success, 1 no valid pairing (or,
//! for `check` and `validate`, a round that differs or a rule broken), 2 unexpected error,
//! 3 invalid input, 5 file error.
mod args;
mod check;
mod client;
mod error;
mod finals;
mod output;
mod pair;
mod serve;
mod simulate;
mod validate;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use error::CliError;

#[derive(Parser)]
#[command(
    name = "swisspair",
    version,
    about = "Swiss and round-robin pairing: gRPC server and CLI"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the gRPC server.
    Serve(serve::ServeArgs),
    /// Pair the next round of a TRF file.
    Pair(pair::PairArgs),
    /// Re-pair every round of a TRF file from the rounds before it and report differences.
    Check(check::CheckArgs),
    /// Check a manual pairing (a pair list: `N`, then `a b` lines, `a 0` for the bye) against
    /// the system's absolute rules, allocate its colours (MP-1), optionally complete it.
    Validate(validate::ValidateArgs),
    /// Simulate a random tournament paired by a system, written as TRF.
    Simulate(simulate::SimulateArgs),
    /// Backgammon's final phase (BG-9): the final (or champion) and the repechage round.
    Finals(finals::FinalsArgs),
    /// List the implemented pairing systems.
    Systems,
    /// Call a running server.
    Client(client::ClientArgs),
}

/// Parses the command line, runs the command, and turns its error into a message on
/// standard error and the exit code.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => serve::run(args),
        Command::Pair(args) => pair::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Validate(args) => validate::run(&args),
        Command::Finals(args) => finals::run(&args),
        Command::Systems => {
            output::print_systems(&swisspair::service::list_systems());
            Ok(ExitCode::SUCCESS)
        }
        Command::Client(args) => client::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("swisspair: {}", e.message());
            ExitCode::from(e.code())
        }
    }
}
