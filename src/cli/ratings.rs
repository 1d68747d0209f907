//! `swisspair ratings`: the FIDE rating of one event by the B.02 text in force on its dates.
//! The work is in [`swisspair::standings::fide_rating`]; the answer is the `Ratings` RPC's
//! (`service::convert::registry`), printed as a table or JSON.
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use swisspair::model::validate::Problems;
use swisspair::service::convert::registry;
use swisspair::standings::fide_rating;

use super::CliError;
use super::args::read_trf;
use super::output::write_output;

#[derive(Args)]
pub struct RatingsArgs {
    /// The tournament report (TRF).
    pub input: PathBuf,
    /// The date that chooses the B.02 text (YYYY-MM-DD); default: the file's end date
    /// (052), else its start date (042), else the text in force now.
    #[arg(long)]
    pub date: Option<String>,
    /// The B.02 text: 2017 (until 2024-02-29), 2024 (from 2024-03-01) or 2025 (from
    /// 2025-10-01); default: by the date.
    #[arg(long)]
    pub rules: Option<String>,
    /// The event's year for the junior K (default: the date's year).
    #[arg(long)]
    pub year: Option<u32>,
    /// A round robin: games against unrated players are rated (also when the file's
    /// system is the round robin).
    #[arg(long)]
    pub round_robin: bool,
    /// K of a national rating instead of FIDE's.
    #[arg(long)]
    pub k_factor: Option<u32>,
    /// Print the Ratings RPC's answer as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write here instead of standard output.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

pub fn run(args: &RatingsArgs) -> Result<ExitCode, CliError> {
    let doc = read_trf(&args.input)?;
    let mut problems = Vec::new();
    let (options, reason) = registry::rating_setup(
        &doc,
        args.date.as_deref().unwrap_or(""),
        args.rules.as_deref().unwrap_or(""),
        args.year.unwrap_or(0),
        args.round_robin,
        args.k_factor.unwrap_or(0),
        &mut problems,
    );
    if !problems.is_empty() {
        return Err(CliError::Invalid(Problems(problems).to_string()));
    }
    let report = fide_rating::rate(&doc.tournament, &options);
    let response = registry::ratings_response(&doc, &report, &reason);
    let text = if args.json {
        format!(
            "{}\n",
            serde_json::to_string_pretty(&response)
                .map_err(|e| CliError::Unexpected(e.to_string()))?
        )
    } else {
        table(&response)
    };
    write_output(
        args.output.as_deref().unwrap_or(std::path::Path::new("-")),
        &text,
    )?;
    Ok(ExitCode::SUCCESS)
}

/// One line per player (K, games rated, change, or the initial rating), then every round
/// left out with why.
fn table(r: &swisspair::proto::RatingsResponse) -> String {
    let mut out = format!("{} ({})\n", r.rules, r.rules_reason);
    for p in &r.players {
        let head = format!("{:>5} {:<28} {:>4}", p.player_id, p.name, p.rating);
        let tail = if p.rating > 0 {
            format!(
                "K {}{} ({}, n {}), {} rated games, change {}, new {}{}",
                p.k,
                if p.k != p.k_base {
                    format!(" (from {})", p.k_base)
                } else {
                    String::new()
                },
                p.k_reason,
                p.period_games,
                p.rated_games,
                p.change,
                p.new_rating,
                if p.below_floor {
                    ", below the floor: listed as unrated"
                } else {
                    ""
                }
            )
        } else if let Some(i) = &p.initial {
            format!(
                "initial {} ({} games, {} points, Ra {}, p {} %, dp {}){}{}{}",
                i.rating,
                i.games,
                i.score,
                i.average,
                i.percent,
                i.dp,
                if i.published { ", published" } else { "" },
                if i.provisional { ", provisional" } else { "" },
                if i.note.is_empty() {
                    String::new()
                } else {
                    format!(": {}", i.note)
                }
            )
        } else {
            "unrated, no rating from the event".to_string()
        };
        out.push_str(&format!("{head}  {tail}\n"));
        for g in p
            .games
            .iter()
            .filter(|g| !g.rated && !g.excluded.is_empty())
        {
            out.push_str(&format!(
                "        round {}{}: {}\n",
                g.round,
                if g.opponent_id.is_empty() {
                    String::new()
                } else {
                    format!(" against {}", g.opponent_id)
                },
                g.reason
            ));
        }
    }
    out
}
