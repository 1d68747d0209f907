//! `swisspair why FILE`: the "why not?" question about a round's pairing, answered with the
//! rule (`check::why`). Players are named by pairing number, as `pair -p` prints them; in a
//! team event paired by the Swiss Team system (C.04.6) the questions are about teams, named
//! by team pairing number (as `pair -p` and `validate` list them).
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use swisspair::check::why::{self, Question};
use swisspair::model::{Colour, PlayerIdx, SystemId, Tournament};
use swisspair::pairing;
use swisspair::service::convert;
use swisspair::systems::PairOptions;

use super::CliError;
use super::args::{OptionArgs, SystemArg, read_trf};
use super::output::why_text;

#[derive(Args)]
pub struct WhyArgs {
    #[command(flatten)]
    system: SystemArg,
    #[command(flatten)]
    options: OptionArgs,
    /// The tournament (TRF-16/TRF-26).
    input: PathBuf,
    /// Why not these two against each other? `A-B`, by pairing number (team pairing number
    /// in a Swiss Team event).
    #[arg(long, value_name = "A-B", group = "question")]
    pair: Option<String>,
    /// With --pair: the one of the two who should have White.
    #[arg(long, value_name = "A", requires = "pair")]
    white: Option<u32>,
    /// Why does this player not get the pairing-allocated bye?
    #[arg(long, value_name = "X", group = "question")]
    bye: Option<u32>,
    /// Why does this player leave his scoregroup (or not leave it)?
    #[arg(long, value_name = "X", group = "question")]
    float: Option<u32>,
    /// Why does this player not get this colour? `X=white` or `X=black`.
    #[arg(long, value_name = "X=COLOUR", group = "question")]
    colour: Option<String>,
    /// Why the system's pairing and not this whole one (a pair list: `N`, then `a b`, the
    /// bye as `a 0`, the format `pair -p` writes)?
    #[arg(long, value_name = "FILE", group = "question")]
    pairing: Option<PathBuf>,
    /// Why are these two paired together (why not a pairing that keeps them apart)? `A-B`,
    /// by pairing number: the criterion that made the meeting unavoidable.
    #[arg(long, value_name = "A-B", group = "question")]
    apart: Option<String>,
    /// The round to ask about (default: the next); a round already in the file is re-paired
    /// from the rounds before it.
    #[arg(long)]
    round: Option<u32>,
    /// Seed of every lot (default: the file's).
    #[arg(long)]
    seed: Option<u64>,
}

fn by_number(numbered: &Tournament, n: u32, flag: &str) -> Result<PlayerIdx, CliError> {
    (0..numbered.players.len())
        .find(|&p| numbered.pairing_number(p) == n)
        .ok_or_else(|| CliError::Invalid(format!("{flag}: no player has pairing number {n}")))
}

/// A team named by its pairing number, as the question passes it on: its first rostered
/// player (any member names the team, as `validate`'s team pair list does).
fn by_team_number(t: &Tournament, n: u32, flag: &str) -> Result<PlayerIdx, CliError> {
    t.team_by_tpn(n)
        .and_then(|team| t.teams[team].members.first().copied())
        .ok_or_else(|| {
            CliError::Invalid(format!(
                "{flag}: no team with players has pairing number {n}"
            ))
        })
}

fn number(text: &str, flag: &str) -> Result<u32, CliError> {
    text.trim().parse().map_err(|_| {
        CliError::Invalid(format!("{flag}: expected a pairing number, found {text:?}"))
    })
}

pub fn run(args: &WhyArgs) -> Result<ExitCode, CliError> {
    let system = args.system.resolve()?;
    let mut t = read_trf(&args.input)?.tournament;
    args.options.apply(&mut t)?;
    let numbered = pairing::numbered(&t, args.seed);
    let teams = t.is_team_event() && system.or(t.system) == Some(SystemId::TeamSwiss);
    let find = |n: u32, flag: &str| {
        if teams {
            by_team_number(&t, n, flag)
        } else {
            by_number(&numbered, n, flag)
        }
    };
    let two = |text: &str, flag: &str| -> Result<(PlayerIdx, PlayerIdx), CliError> {
        let (a, b) = text.split_once('-').ok_or_else(|| {
            CliError::Invalid(format!(
                "{flag}: expected A-B (two pairing numbers), found {text:?}"
            ))
        })?;
        Ok((find(number(a, flag)?, flag)?, find(number(b, flag)?, flag)?))
    };
    let question = if let Some(apart) = &args.apart {
        let (a, b) = two(apart, "--apart")?;
        Question::Apart { a, b }
    } else if let Some(pair) = &args.pair {
        let (a, b) = pair.split_once('-').ok_or_else(|| {
            CliError::Invalid(format!(
                "--pair: expected A-B (two pairing numbers), found {pair:?}"
            ))
        })?;
        let a = find(number(a, "--pair")?, "--pair")?;
        let b = find(number(b, "--pair")?, "--pair")?;
        let white = args.white.map(|w| find(w, "--white")).transpose()?;
        Question::Pair { a, b, white }
    } else if let Some(x) = args.bye {
        Question::Bye(find(x, "--bye")?)
    } else if let Some(x) = args.float {
        Question::Float(find(x, "--float")?)
    } else if let Some(c) = &args.colour {
        let (x, colour) = c.split_once('=').ok_or_else(|| {
            CliError::Invalid(format!(
                "--colour: expected X=white or X=black, found {c:?}"
            ))
        })?;
        let colour = match colour.trim().to_ascii_lowercase().as_str() {
            "white" | "w" => Colour::White,
            "black" | "b" => Colour::Black,
            other => {
                return Err(CliError::Invalid(format!(
                    "--colour: the colour is white or black, not {other:?}"
                )));
            }
        };
        Question::Colour(find(number(x, "--colour")?, "--colour")?, colour)
    } else if let Some(path) = &args.pairing {
        if teams {
            Question::Pairing(super::validate::read_team_pair_list(path, &t)?)
        } else {
            Question::Pairing(super::validate::read_pair_list(path, &numbered)?)
        }
    } else {
        return Err(CliError::Invalid(
            "why: ask one question: --pair A-B, --apart A-B, --bye X, --float X, --colour X=white or --pairing FILE".to_string(),
        ));
    };
    let options = PairOptions {
        round: args.round,
        seed: args.seed,
        system,
        detail: swisspair::systems::Detail::None,
        ..PairOptions::default()
    };
    let answer = why::run(&t, &question, &options)?;
    let response = convert::explain_response(&answer);
    print!("{}", why_text(&response));
    Ok(ExitCode::SUCCESS)
}
