//! `swisspair simulate`: a random tournament paired by a system, written as TRF.
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use swisspair::model::Tournament;
use swisspair::simulate::{self, SimConfig};
use swisspair::systems;
use swisspair::trf;

use super::CliError;
use super::args::{OptionArgs, SystemArg};
use super::output::write_output;

#[derive(Args)]
pub struct SimulateArgs {
    #[command(flatten)]
    system: SystemArg,
    #[command(flatten)]
    options: OptionArgs,
    /// Number of players (individual events; team events give `--teams`).
    #[arg(long, default_value_t = 0)]
    players: u32,
    /// Number of rounds to pair and play.
    #[arg(long)]
    rounds: u32,
    /// Seed of every random choice (ratings, results, lots).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Share of played games drawn.
    #[arg(long, default_value_t = 0.3)]
    draw_rate: f64,
    /// Share of games forfeited.
    #[arg(long, default_value_t = 0.0)]
    forfeit_rate: f64,
    /// Chance a player asks for a half-point bye in a round.
    #[arg(long, default_value_t = 0.0)]
    bye_rate: f64,
    /// A team event of this many teams (`--players` is then ignored; for the Swiss Team
    /// system `--players` alone counts teams); written as TRF-26.
    #[arg(long, default_value_t = 0)]
    teams: u32,
    /// Boards per team match (team events).
    #[arg(long, default_value_t = 4)]
    boards: u32,
    /// Reserves per team, left out at random each round (team events).
    #[arg(long, default_value_t = 0)]
    reserves: u32,
    /// Output file (default: standard output).
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
}

pub fn run(args: &SimulateArgs) -> Result<ExitCode, CliError> {
    let system = args.system.resolve()?.ok_or_else(|| {
        CliError::Invalid(format!(
            "name a system with --system; supported: {}",
            systems::implemented_names()
        ))
    })?;
    let mut config = SimConfig::new(system, args.players, args.rounds, args.seed);
    config.draw_rate = args.draw_rate;
    config.forfeit_rate = args.forfeit_rate;
    config.bye_request_rate = args.bye_rate;
    if args.teams > 0 {
        config.teams = args.teams;
    }
    config.boards = args.boards;
    config.reserves = args.reserves;
    let mut scratch = Tournament::default();
    args.options.apply(&mut scratch)?;
    config.options = scratch.options;
    let answer = simulate::run(&config)?;
    let doc = trf::TrfDocument {
        tournament: answer.tournament,
        ..trf::TrfDocument::default()
    };
    // Team records are TRF-26's: a team event is written in that dialect.
    let dialect = if doc.tournament.is_team_event() {
        trf::Dialect::Trf26
    } else {
        trf::Dialect::JaVaFo
    };
    let text = trf::write(&doc, dialect).map_err(|e| CliError::Invalid(e.to_string()))?;
    write_output(args.output.as_deref().unwrap_or(Path::new("-")), &text)?;
    Ok(ExitCode::SUCCESS)
}
