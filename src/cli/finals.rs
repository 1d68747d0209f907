//! `swisspair finals`: backgammon's final phase (BG-9).
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use swisspair::pairing;
use swisspair::service::convert;
use swisspair::systems::PairOptions;

use super::CliError;
use super::args::{DetailArg, OptionArgs, SystemArg, read_trf};
use super::output::{finals_json, finals_text, write_output};

#[derive(Args)]
pub struct FinalsArgs {
    #[command(flatten)]
    system: SystemArg,
    #[command(flatten)]
    options: OptionArgs,
    /// The tournament after its regular rounds (TRF-16/TRF-26).
    input: PathBuf,
    /// Print the full response with its explanation as JSON.
    #[arg(long)]
    json: bool,
    /// Seed of every lot.
    #[arg(long)]
    seed: Option<u64>,
    /// How much explanation the JSON answer carries.
    #[arg(long, value_enum, default_value = "full")]
    detail: DetailArg,
}

pub fn run(args: &FinalsArgs) -> Result<ExitCode, CliError> {
    let system = args.system.resolve()?;
    let mut t = read_trf(&args.input)?.tournament;
    args.options.refuse_separations("finals")?;
    args.options.apply(&mut t)?;
    let options = PairOptions {
        seed: args.seed,
        detail: args.detail.into(),
        system,
        ..PairOptions::default()
    };
    let answer = pairing::finals(&t, &options)?;
    let r = convert::finals_response(&answer.tournament, &answer.finals, answer.rule_set);
    if args.json {
        println!("{}", finals_json(&r));
    } else {
        write_output(Path::new("-"), &finals_text(&r))?;
    }
    Ok(ExitCode::SUCCESS)
}
