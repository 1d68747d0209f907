//! `swisspair validate`: a manual pairing checked against the system's absolute rules (MP-1).
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use swisspair::check::manual::{self, Proposal};
use swisspair::model::Tournament;
use swisspair::pairing;
use swisspair::service::convert;
use swisspair::systems::PairOptions;

use super::CliError;
use super::args::{OptionArgs, SystemArg, read_text, read_trf};
use super::output::pair_list;

#[derive(Args)]
pub struct ValidateArgs {
    #[command(flatten)]
    system: SystemArg,
    #[command(flatten)]
    options: OptionArgs,
    /// The tournament (TRF-16/TRF-26).
    input: PathBuf,
    /// The proposed pairing, by pairing number (the format `pair -p` writes).
    pairs: PathBuf,
    /// Pair the players the proposal leaves out with the system.
    #[arg(long)]
    complete: bool,
    /// Compare the proposal with the system's own pairing of the round (VCL4THP Q68-69):
    /// each difference as `differs MPA: ...` and the TRF comment `### MPA @ Round n: ...`.
    #[arg(long)]
    compare: bool,
    /// Seed of every lot (default: the file's).
    #[arg(long)]
    seed: Option<u64>,
}

/// Reads a pair list (`N`, then `a b`, the bye as `a 0`) by the pairing numbers of
/// `numbered`.
pub(super) fn read_pair_list(path: &Path, numbered: &Tournament) -> Result<Proposal, CliError> {
    let text = read_text(path)?;
    let by_number: std::collections::HashMap<u32, usize> = (0..numbered.players.len())
        .map(|p| (numbered.pairing_number(p), p))
        .collect();
    let mut proposal = Proposal::default();
    // The first line may give the number of pairs (the format `pair -p` writes): it must
    // then match the lines that follow.
    let mut declared: Option<(usize, usize)> = None;
    let mut lines = 0;
    for (i, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.is_empty() {
            continue;
        }
        if i == 0 && fields.len() == 1 {
            let count = fields[0].parse().map_err(|_| {
                CliError::Invalid(format!(
                    "{}:1: expected the number of pairs, found {line:?}",
                    path.display()
                ))
            })?;
            declared = Some((count, i + 1));
            continue;
        }
        lines += 1;
        let (a, b) = two_numbers(path, i + 1, line, &fields, "pairing numbers")?;
        let find = |n: u32| {
            by_number.get(&n).copied().ok_or_else(|| {
                CliError::Invalid(format!(
                    "{}:{}: no player has pairing number {n}",
                    path.display(),
                    i + 1
                ))
            })
        };
        if b == 0 {
            proposal.byes.push(find(a)?);
        } else {
            proposal.boards.push((find(a)?, find(b)?));
        }
    }
    if let Some((count, line)) = declared
        && count != lines
    {
        return Err(CliError::Invalid(format!(
            "{}:{line}: the list says {count} pairs but gives {lines}",
            path.display()
        )));
    }
    Ok(proposal)
}

/// A team event's pair list (the first part of what `pair -p` writes for teams): `white
/// black` by team pairing number, `tpn 0` for the PAB, up to the first blank line after
/// the pairs (the boards that follow are derived, not proposed). Each team is named to the
/// check by its first rostered player (C.04.6 pairs teams; any member names the team).
pub(super) fn read_team_pair_list(path: &Path, t: &Tournament) -> Result<Proposal, CliError> {
    let text = read_text(path)?;
    let mut proposal = Proposal::default();
    let mut started = false;
    for (i, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.is_empty() {
            if started {
                break;
            }
            continue;
        }
        if !started && fields.len() == 1 {
            // The number of pairs `pair -p` may write first.
            started = true;
            continue;
        }
        started = true;
        let (a, b) = two_numbers(path, i + 1, line, &fields, "team pairing numbers")?;
        let find = |n: u32| {
            t.team_by_tpn(n)
                .and_then(|team| t.teams[team].members.first().copied())
                .ok_or_else(|| {
                    CliError::Invalid(format!(
                        "{}:{}: no team with players has pairing number {n}",
                        path.display(),
                        i + 1
                    ))
                })
        };
        if b == 0 {
            proposal.byes.push(find(a)?);
        } else {
            proposal.boards.push((find(a)?, find(b)?));
        }
    }
    Ok(proposal)
}

pub fn run(args: &ValidateArgs) -> Result<ExitCode, CliError> {
    let system = args.system.resolve()?;
    let mut t = read_trf(&args.input)?.tournament;
    args.options.apply(&mut t)?;
    // The pair list names players by pairing number: read it against the numbers every
    // answer presents (the pipeline numbers the snapshot itself when it pairs).
    let mut proposal = if t.is_team_event()
        && system.or(t.system) == Some(swisspair::model::SystemId::TeamSwiss)
    {
        read_team_pair_list(&args.pairs, &t)?
    } else {
        read_pair_list(&args.pairs, &pairing::numbered(&t, args.seed))?
    };
    proposal.complete = args.complete;
    proposal.compare_with_engine = args.compare;
    let options = PairOptions {
        seed: args.seed,
        system,
        ..PairOptions::default()
    };
    let answer = manual::run(&t, &proposal, &options)?;
    let report = &answer.report;
    for v in &report.violations {
        println!("violation {}: {} (level {})", v.rule_id, v.message, v.level);
    }
    // Warnings break no absolute rule: printed, the exit status unchanged.
    for w in &report.warnings {
        println!("warning {}: {} (level {})", w.rule_id, w.message, w.level);
    }
    if let Some(engine) = &report.engine {
        for d in &engine.differences {
            println!("differs {}: {} (level {})", d.rule_id, d.message, d.level);
        }
        if !engine.trf_comment.is_empty() {
            println!("{}", engine.trf_comment);
        }
    }
    let response = convert::validate_response(&answer.tournament, report);
    print!("{}", pair_list(&response.boards, &response.byes));
    for &p in &report.unpaired {
        println!("unpaired {}", answer.tournament.pairing_number(p));
    }
    Ok(if report.violations.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// A pair-list line's two numbers (`what`: which kind, for the message naming the line).
fn two_numbers(
    path: &Path,
    line_number: usize,
    line: &str,
    fields: &[&str],
    what: &str,
) -> Result<(u32, u32), CliError> {
    let bad = || {
        CliError::Invalid(format!(
            "{}:{line_number}: expected two {what}, found {line:?}",
            path.display()
        ))
    };
    let [a, b] = fields else {
        return Err(bad());
    };
    Ok((a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?))
}
