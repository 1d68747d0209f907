//! `swisspair simulate`: a random tournament paired by a system, written as TRF.
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use swisspair::model::Tournament;
use swisspair::simulate::plan::Planned;
use swisspair::simulate::{self, ResultModel, SimConfig};
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
    /// How games end: `tec` (FIDE TEC's statistical model of playing strength: win, draw
    /// and loss from both ratings; the default) or `draw-rate` (a fixed share of draws,
    /// `--draw-rate`, and the Elo expectation for the rest; the default when
    /// `--draw-rate` is given).
    #[arg(long)]
    model: Option<String>,
    /// Share of played games drawn (the `draw-rate` model; 0.3 when not given).
    #[arg(long)]
    draw_rate: Option<f64>,
    /// Spread (rating points) of a player's strength around the listed rating (`tec`).
    #[arg(long, default_value_t = 0.0)]
    strength_sigma: f64,
    /// Full-point byes (TRF F): `N` (a number over the event), `P%` (a chance per player
    /// and round), either with `@R` for round R only; repeat or separate by commas.
    #[arg(long, value_delimiter = ',')]
    full_point_byes: Vec<String>,
    /// Half-point byes (TRF H), as `--full-point-byes`.
    #[arg(long, value_delimiter = ',')]
    half_point_byes: Vec<String>,
    /// Zero-point byes (TRF Z), as `--full-point-byes`.
    #[arg(long, value_delimiter = ',')]
    zero_point_byes: Vec<String>,
    /// Games forfeited by one player (a forfeit win and a forfeit loss): `N`, `P%` (a
    /// chance per game), `@R`, as `--full-point-byes`.
    #[arg(long, value_delimiter = ',')]
    forfeits: Vec<String>,
    /// Games forfeited by both players, as `--forfeits`.
    #[arg(long, value_delimiter = ',')]
    double_forfeits: Vec<String>,
    /// Played games scored ½-0, as `--forfeits`.
    #[arg(long, value_delimiter = ',')]
    half_zero: Vec<String>,
    /// Played games scored 0-½, as `--forfeits`.
    #[arg(long, value_delimiter = ',')]
    zero_half: Vec<String>,
    /// Played games scored 0-0, as `--forfeits`.
    #[arg(long, value_delimiter = ',')]
    zero_zero: Vec<String>,
    /// Players who withdraw: `N` or `P%` (a chance per player), `@R` = from round R on
    /// (else a random round after the first).
    #[arg(long, value_delimiter = ',')]
    withdrawals: Vec<String>,
    /// Players who enter late: `N` or `P%`, `@R` = in round R (else a random later round).
    #[arg(long, value_delimiter = ',')]
    late_entries: Vec<String>,
    /// The Baku acceleration (C.04.7), for the systems with the `acceleration` option.
    #[arg(long)]
    baku: bool,
    /// Tie-break list written into the file as record 202 (MTB26 codes, e.g.
    /// `BH/C1,BH,SB,DE`); the rank column then follows it.
    #[arg(long, default_value = "")]
    tie_breaks: String,
    /// Output dialect: `trf26` (FIDE's TRF-26, the default) or `javafo` (XX records).
    #[arg(long, default_value = "trf26")]
    format: String,
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
    config.model = match &args.model {
        Some(m) => ResultModel::parse(m).map_err(CliError::Invalid)?,
        None if args.draw_rate.is_some() => ResultModel::DrawRate,
        None => ResultModel::Tec,
    };
    if config.model == ResultModel::Tec && args.draw_rate.is_some() {
        return Err(CliError::Invalid(
            "--draw-rate belongs to --model draw-rate: the tec model draws from the ratings"
                .to_string(),
        ));
    }
    config.draw_rate = args.draw_rate.unwrap_or(0.3);
    config.strength_sigma = args.strength_sigma;
    for (flag, texts, plans) in [
        (
            "--full-point-byes",
            &args.full_point_byes,
            &mut config.full_point_byes,
        ),
        (
            "--half-point-byes",
            &args.half_point_byes,
            &mut config.half_point_byes,
        ),
        (
            "--zero-point-byes",
            &args.zero_point_byes,
            &mut config.zero_point_byes,
        ),
        ("--forfeits", &args.forfeits, &mut config.forfeits),
        (
            "--double-forfeits",
            &args.double_forfeits,
            &mut config.double_forfeits,
        ),
        ("--half-zero", &args.half_zero, &mut config.half_zero),
        ("--zero-half", &args.zero_half, &mut config.zero_half),
        ("--zero-zero", &args.zero_zero, &mut config.zero_zero),
        ("--withdrawals", &args.withdrawals, &mut config.withdrawals),
        (
            "--late-entries",
            &args.late_entries,
            &mut config.late_entries,
        ),
    ] {
        for text in texts {
            plans.push(Planned::parse(text).map_err(|e| CliError::Invalid(format!("{flag} {e}")))?);
        }
    }
    config.tie_breaks = args.tie_breaks.clone();
    config.forfeit_rate = args.forfeit_rate;
    config.bye_request_rate = args.bye_rate;
    if args.teams > 0 {
        config.teams = args.teams;
    }
    config.boards = args.boards;
    config.reserves = args.reserves;
    args.options.refuse_separations("simulate")?;
    let mut scratch = Tournament::default();
    args.options.apply(&mut scratch)?;
    if args.baku {
        scratch
            .options
            .set("acceleration", "BAKU")
            .map_err(|e| CliError::Invalid(format!("--baku: {e}")))?;
    }
    config.options = scratch.options;
    let dialect = match args.format.to_ascii_lowercase().as_str() {
        "trf26" | "trf-26" => trf::Dialect::Trf26,
        "javafo" => trf::Dialect::JaVaFo,
        other => {
            return Err(CliError::Invalid(format!(
                "--format {other:?}: trf26 or javafo"
            )));
        }
    };
    let answer = simulate::run(&config)?;
    // Team records are TRF-26's: a team event is written in that dialect.
    let dialect = if answer.tournament.is_team_event() {
        trf::Dialect::Trf26
    } else {
        dialect
    };
    let text = answer
        .trf_in(dialect)
        .map_err(|e| CliError::Invalid(e.to_string()))?;
    write_output(args.output.as_deref().unwrap_or(Path::new("-")), &text)?;
    Ok(ExitCode::SUCCESS)
}
