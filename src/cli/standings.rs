//! `swisspair standings`: final (or after-round) standings of a TRF with FIDE tie-breaks.
//! The work is in [`swisspair::standings`]; this only reads the flags and prints.
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use swisspair::standings::{self, Edition, Filter, Options, TieOrder, render, report};

use super::CliError;
use super::args::read_trf;
use super::output::write_output;

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Table,
    Tsv,
    Json,
}

#[derive(Args)]
pub struct StandingsArgs {
    /// The tournament (TRF).
    pub input: PathBuf,
    /// Tie-breaks after PTS, MTB26 codes (`BH/C1,BH,SB,DE`); default: the TRF's 212/202
    /// record, else the system's usual list. Individual codes: PTS BH FB AOB SB DE ARO TPR
    /// PTP APRO APPO PS KS WIN WON BPG BWG REP (GE) STD TPN RTNG, modifiers /C1 /C2 /M1 /M2
    /// /L /U<rating> /P /V2024 /V2026. A team event (C.07 art. 12-13, default MPVGP,EMGSB,
    /// BH:MP): MPVGP BH:MP BH:GP FB:MP FB:GP AOB:MP AOB:GP EMMSB EMGSB EGMSB EGGSB WIN:MP
    /// WON:MP PS:MP PS:GP KS:MP KS:GP DE EDE EDEBT EDEBB EDET EDEB BC TBR BBE SSSC, with /C1
    /// /C2 (BH FB AOB ESB PS), /M1 /M2 (BH FB AOB), /P (BH FB AOB ESB DE EDE* SSSC), /F
    /// (AOB SSSC), /K<n> (SSSC), /L (KS), e.g. EMGSB/C1/P, AOB:MP/F, KS:GP/L+1, EDET/P.
    #[arg(long)]
    pub tiebreaks: Option<String>,
    /// The system (round-robin uses C.07's round-robin rules, 15.2); default: the file's 192.
    #[arg(long)]
    pub system: Option<String>,
    /// C.07 edition: 2026 (rules from 2026-03-01) or 2024 (from 2024-08-01).
    #[arg(long, default_value = "2026")]
    pub edition: String,
    /// Standings after this round (default: the last round with results).
    #[arg(long)]
    pub after_round: Option<u32>,
    /// Output: an aligned table, TSV (the conformance files' layout, for individual and
    /// team events alike) or JSON.
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    /// Same as --format json.
    #[arg(long)]
    pub json: bool,
    /// List players equal on every tie-break by a lot drawn from this seed (default: by
    /// pairing number).
    #[arg(long)]
    pub lot_seed: Option<u64>,
    /// Category: born in this year or later.
    #[arg(long)]
    pub born_from: Option<u32>,
    /// Category: born in this year or earlier.
    #[arg(long)]
    pub born_to: Option<u32>,
    /// Category: sex (m, w / f).
    #[arg(long)]
    pub sex: Option<String>,
    /// Category: lowest rating.
    #[arg(long)]
    pub rating_min: Option<u32>,
    /// Category: highest rating.
    #[arg(long)]
    pub rating_max: Option<u32>,
    /// Category: title (repeatable).
    #[arg(long = "title")]
    pub titles: Vec<String>,
    /// Category: federation (repeatable).
    #[arg(long = "federation")]
    pub federations: Vec<String>,
    /// K factor of a national rating, instead of FIDE's.
    #[arg(long)]
    pub k_factor: Option<u32>,
    /// The tournament's year for the under-18 K (default: the TRF's 052/042 date).
    #[arg(long)]
    pub year: Option<u32>,
    /// Also write the TRF with the rank and points columns filled and a 202 record.
    #[arg(long)]
    pub write_trf: Option<PathBuf>,
    /// A round robin by GRC 6.6: leave out of everyone's points and tie-breaks the games of
    /// a player who withdrew having completed less than 50 % of his games (listed).
    #[arg(long)]
    pub round_robin_withdrawals: bool,
    /// Output file (default: standard output).
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
}

pub fn run(args: &StandingsArgs) -> Result<ExitCode, CliError> {
    let mut doc = read_trf(&args.input)?;
    if let Some(name) = &args.system {
        doc.tournament.system = Some(
            name.parse::<swisspair::model::SystemId>()
                .map_err(|e| CliError::Invalid(e.to_string()))?,
        );
    }
    let t = &doc.tournament;
    if t.is_team_event() {
        return team_standings(args, t);
    }
    let edition = Edition::parse(&args.edition).ok_or_else(|| {
        CliError::Invalid(format!(
            "--edition {:?}: expected 2024 or 2026",
            args.edition
        ))
    })?;
    let requested: Vec<String> = args.tiebreaks.iter().cloned().collect();
    let (tie_breaks, source) =
        standings::resolve_tie_breaks(&requested, &doc.other_lines, t.system)
            .map_err(|e| CliError::Invalid(e.to_string()))?;
    let options = Options {
        tie_breaks,
        source,
        edition,
        after_round: args.after_round,
        tie_order: args.lot_seed.map_or(TieOrder::PairingNumber, TieOrder::Lot),
        filter: Filter {
            born_from: args.born_from,
            born_to: args.born_to,
            sex: args.sex.clone(),
            rating_min: args.rating_min,
            rating_max: args.rating_max,
            titles: args.titles.clone(),
            federations: args.federations.clone(),
        },
        k_factor: args.k_factor,
        year: args.year.or_else(|| report::tournament_year(&doc)),
        rating_rules: report::rating_rules(&doc),
        round_robin_withdrawals: args.round_robin_withdrawals,
    };
    let s =
        swisspair::pairing::standings(t, &options).map_err(|e| CliError::Invalid(e.to_string()))?;
    let format = if args.json { Format::Json } else { args.format };
    let text = match format {
        Format::Table => render::table(t, &s),
        Format::Tsv => render::tsv(t, &s),
        Format::Json => format!(
            "{}\n",
            serde_json::to_string_pretty(&render::json(t, &s))
                .map_err(|e| CliError::Unexpected(e.to_string()))?
        ),
    };
    if let Some(path) = &args.write_trf {
        let trf_text = report::trf_with_standings(&doc, &s, &swisspair::systems::Registry)
            .map_err(|e| CliError::Invalid(e.to_string()))?;
        write_output(path, &trf_text)?;
    }
    write_output(
        args.output.as_deref().unwrap_or(std::path::Path::new("-")),
        &text,
    )?;
    Ok(ExitCode::SUCCESS)
}

/// A team event's standings (C.07's team tie-breaks): teams by match points then game
/// points (or the reverse), then the tie-breaks; then the board-by-board results.
fn team_standings(
    args: &StandingsArgs,
    t: &swisspair::model::Tournament,
) -> Result<ExitCode, CliError> {
    use swisspair::standings::team::{self, TeamTieBreak};
    let tie_breaks = match &args.tiebreaks {
        Some(list) => list
            .split(',')
            .filter(|c| !c.trim().is_empty() && !c.trim().eq_ignore_ascii_case("PTS"))
            .map(TeamTieBreak::parse)
            .collect::<Result<Vec<_>, _>>()
            .map_err(CliError::Invalid)?,
        None => TeamTieBreak::defaults(),
    };
    let s = team::compute(t, &tie_breaks, args.after_round).map_err(|problems| {
        CliError::Invalid(
            problems
                .iter()
                .map(|p| format!("{}: {}", p.path, p.message))
                .collect::<Vec<_>>()
                .join("; "),
        )
    })?;
    let format = if args.json { Format::Json } else { args.format };
    let text = match format {
        Format::Table => team::table(t, &s),
        Format::Tsv => team::tsv(t, &s),
        Format::Json => format!(
            "{}\n",
            serde_json::to_string_pretty(&team::json(t, &s))
                .map_err(|e| CliError::Unexpected(e.to_string()))?
        ),
    };
    write_output(
        args.output.as_deref().unwrap_or(std::path::Path::new("-")),
        &text,
    )?;
    Ok(ExitCode::SUCCESS)
}
