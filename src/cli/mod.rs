//! The `swisspair` command line: one file per command, each a thin adapter over the
//! pipeline ([`swisspair::pairing`]); what they print is written once in [`output`].
//!
//! Exit codes follow the FIDE-endorsed engines' CLIs: 0 success, 1 no valid pairing (or,
//! for `check` and `validate`, a round that differs or a rule broken), 2 unexpected error,
//! 3 invalid input, 5 file error.
mod args;
mod audit;
mod check;
mod checklist;
mod client;
mod compat;
mod error;
mod finals;
mod loadtest;
mod log_sink;
mod norms;
mod output;
mod pair;
mod ratings;
mod serve;
mod simulate;
mod standings;
mod validate;
mod why;

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
    /// Encoding of the TRF files read: auto (UTF-8 with or without BOM, else
    /// Latin-1/Windows-1252), utf-8, latin-1 or windows-1252.
    #[arg(long, global = true, default_value = "auto")]
    encoding: swisspair::trf::Encoding,
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
    /// Audit tournament reports: every round re-paired, the points and rank columns, the
    /// records; one verdict per file (exit 0 all clean, 1 findings, 3 unreadable).
    Audit(audit::AuditArgs),
    /// Check a manual pairing (a pair list: `N`, then `a b` lines, `a 0` for the bye) against
    /// the system's absolute rules, allocate its colours (MP-1), optionally complete it.
    Validate(validate::ValidateArgs),
    /// Why not? A question about a round's pairing (--pair A-B, --bye X, --float X,
    /// --colour X=white, --pairing FILE) answered with the rule.
    Why(why::WhyArgs),
    /// Simulate a random tournament paired by a system, written as TRF (the RTG of FIDE's verification).
    Simulate(Box<simulate::SimulateArgs>),
    /// Backgammon's final phase (BG-9): the final (or champion) and the repechage round.
    Finals(finals::FinalsArgs),
    /// Standings with FIDE tie-breaks (C.07), rating change and performance.
    Standings(standings::StandingsArgs),
    /// List the implemented pairing systems.
    Systems,
    /// Call a running server.
    Client(client::ClientArgs),
    /// Load a running server: N concurrent clients pairing a simulated snapshot.
    Loadtest(loadtest::LoadtestArgs),
    /// The FIDE rating of one event by the B.02 text in force on its dates.
    Ratings(ratings::RatingsArgs),
    /// Title norms (B.01 1.4) of every player of one event.
    Norms(norms::NormsArgs),
}

/// Parses the command line, runs the command, and turns its error into a message on
/// standard error and the exit code.
pub fn run() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if args.first().is_none_or(|a| a != "serve") {
        quiet_on_closed_pipe();
    }
    let result = if compat::is_engine_form(&args) {
        compat::run(&args)
    } else {
        run_command(Cli::parse())
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("swisspair: {}", e.message());
            ExitCode::from(e.code())
        }
    }
}

/// `swisspair … | head`: when the reader goes away, end quietly as Unix tools do (killed by
/// SIGPIPE) instead of panicking in `println!`. Rust ignores SIGPIPE by default; the server
/// keeps it ignored (its sockets report the error instead).
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called once at start-up, before any thread is spawned; SIG_DFL is a valid
    // disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn run_command(cli: Cli) -> Result<ExitCode, CliError> {
    args::set_encoding(cli.encoding);
    match cli.command {
        Command::Serve(args) => serve::run(args),
        Command::Pair(args) => pair::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Audit(args) => audit::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Validate(args) => validate::run(&args),
        Command::Why(args) => why::run(&args),
        Command::Finals(args) => finals::run(&args),
        Command::Standings(args) => standings::run(&args),
        Command::Systems => {
            output::print_systems(&swisspair::service::list_systems());
            Ok(ExitCode::SUCCESS)
        }
        Command::Client(args) => client::run(args),
        Command::Loadtest(args) => loadtest::run(args),
        Command::Ratings(args) => ratings::run(&args),
        Command::Norms(args) => norms::run(&args),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Every flag and argument of every command says what it is for (`--help`).
    #[test]
    fn every_flag_has_a_help_text() {
        fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for arg in cmd.get_arguments() {
                let id = arg.get_id().as_str();
                if id == "help" || id == "version" || arg.is_hide_set() {
                    continue;
                }
                if arg.get_help().is_none() && arg.get_long_help().is_none() {
                    missing.push(format!("{path} {id}"));
                }
            }
            for sub in cmd.get_subcommands() {
                walk(sub, &format!("{path} {}", sub.get_name()), missing);
            }
        }
        let mut missing = Vec::new();
        walk(&super::Cli::command(), "swisspair", &mut missing);
        assert!(missing.is_empty(), "without help: {missing:?}");
    }
}
