//! `swisspair pair`: the next round of a TRF file (or backgammon's early draw, BG-8).
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use swisspair::pairing;
use swisspair::service::convert;
use swisspair::systems::PairOptions;

use super::CliError;
use super::args::{DetailArg, OptionArgs, SystemArg, read_trf};
use super::output::{
    pair_list, provisional_json, provisional_list, response_json, team_pair_list, write_output,
};

#[derive(Args)]
pub struct PairArgs {
    #[command(flatten)]
    system: SystemArg,
    #[command(flatten)]
    options: OptionArgs,
    /// The tournament (TRF-16/TRF-26).
    input: PathBuf,
    /// Write the pairing as `N` then `white black` lines (the PAB as `id 0`) to a file, or to
    /// standard output without a file name.
    #[arg(short = 'p', num_args = 0..=1, default_missing_value = "-", value_name = "OUT")]
    pairs: Option<PathBuf>,
    /// Print the full response with its explanation as JSON.
    #[arg(long)]
    json: bool,
    /// Round to pair (default, or 0: the first round not paired).
    #[arg(long)]
    round: Option<u32>,
    /// Seed of every lot.
    #[arg(long)]
    seed: Option<u64>,
    /// How much explanation the JSON answer carries.
    #[arg(long, value_enum, default_value = "full")]
    detail: DetailArg,
    /// Backgammon (BG-8): draw round 2 before round 1 has results; prints placeholders
    /// ("winner of board 3") instead of players.
    #[arg(long)]
    provisional: bool,
}

pub fn run(args: &PairArgs) -> Result<ExitCode, CliError> {
    let system = args.system.resolve()?;
    let doc = read_trf(&args.input)?;
    // What the reader noticed (the points column disagreeing with the results, …) is
    // reported as the gRPC answer reports it: on stderr and in the JSON.
    let reader_warnings = doc.points_warnings();
    let mut t = doc.tournament;
    args.options.apply(&mut t)?;
    let options = PairOptions {
        // 0 = the next round, as in the proto.
        round: args.round.filter(|&r| r > 0),
        seed: args.seed,
        detail: args.detail.into(),
        system,
        ..PairOptions::default()
    };
    if args.provisional {
        let answer = pairing::provisional(&t, &options)?;
        let response =
            convert::provisional_response(&answer.tournament, &answer.pairing, answer.rule_set);
        let text = if args.json {
            format!("{}\n", provisional_json(&response))
        } else {
            provisional_list(&response)
        };
        write_output(args.pairs.as_deref().unwrap_or(Path::new("-")), &text)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut answer = pairing::pair(&t, &options)?;
    answer.pairing.warnings.extend(reader_warnings);
    for w in &answer.pairing.warnings {
        eprintln!("swisspair: warning: {w}");
    }
    let response = convert::pair::pair_answer(&answer);
    if args.json {
        println!("{}", response_json(&response));
    }
    let list = if response.team_pairings.is_empty() {
        pair_list(&response.boards, &response.byes)
    } else {
        team_pair_list(&response)
    };
    match &args.pairs {
        Some(path) => write_output(path, &list)?,
        None if !args.json => write_output(Path::new("-"), &list)?,
        None => {}
    }
    Ok(ExitCode::SUCCESS)
}
