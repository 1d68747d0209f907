//! `swisspair norms`: title norms (B.01 1.4) of every player of one event. The work is in
//! [`swisspair::standings::norms`]; the answer is the `Norms` RPC's
//! (`service::convert::registry`), printed as text or JSON.
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use swisspair::service::convert::registry;
use swisspair::standings::norms::{self, Exemption};

use super::CliError;
use super::args::read_trf;
use super::output::write_output;

#[derive(Args)]
pub struct NormsArgs {
    /// The tournament report (TRF).
    pub input: PathBuf,
    /// The host federation (for 1.4.3b and 1.4.3d); default: the file's 032 record.
    #[arg(long)]
    pub host: Option<String>,
    /// The event's kind, when it exempts from the foreigner requirement: national
    /// (1.4.3a), national-team (1.4.3b) or zonal (1.4.3c).
    #[arg(long)]
    pub exemption: Option<String>,
    /// A round robin (predetermined pairings: every round counts, 1.4.1e; 1.4.2b).
    #[arg(long)]
    pub round_robin: bool,
    /// A double round robin (1.4.5: at least 6 players; half of the opponents, rounded
    /// up, holding the norm's title or above). Implies --round-robin.
    #[arg(long)]
    pub double_round_robin: bool,
    /// Each norm met also gives its share of a title application (1.4.1d games, 1.4.1c,
    /// 1.4.3e, 1.4.2c).
    #[arg(long)]
    pub application: bool,
    /// Only this player (the file's starting rank).
    #[arg(long)]
    pub player: Option<String>,
    /// Only the norms met.
    #[arg(long)]
    pub met: bool,
    /// Every requirement of every check, not only of the norms met.
    #[arg(long)]
    pub detail: bool,
    /// Print the Norms RPC's answer as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write here instead of standard output.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

pub fn run(args: &NormsArgs) -> Result<ExitCode, CliError> {
    let doc = read_trf(&args.input)?;
    let exemption = match args.exemption.as_deref() {
        None => None,
        Some(text) => Some(Exemption::parse(text).ok_or_else(|| {
            CliError::Invalid(format!(
                "--exemption {text:?}: national, national-team or zonal"
            ))
        })?),
    };
    let player = args.player.clone().unwrap_or_default();
    if !player.is_empty() && !doc.tournament.players.iter().any(|p| p.id == player) {
        return Err(CliError::Invalid(format!(
            "--player {player:?}: no such player in the file"
        )));
    }
    let mut options = registry::norm_setup(
        &doc,
        args.host.as_deref().unwrap_or(""),
        exemption,
        args.round_robin || args.double_round_robin,
    );
    options.double_round_robin = args.double_round_robin;
    options.application = args.application;
    let report = norms::check(&doc.tournament, &options);
    let response = registry::norms_response(&doc, &options, &report, &player, args.met);
    let text = if args.json {
        format!(
            "{}\n",
            serde_json::to_string_pretty(&response)
                .map_err(|e| CliError::Unexpected(e.to_string()))?
        )
    } else {
        table(&response, args.detail)
    };
    write_output(
        args.output.as_deref().unwrap_or(std::path::Path::new("-")),
        &text,
    )?;
    Ok(ExitCode::SUCCESS)
}

/// One line per player and title; the requirements of the norms met (of every check with
/// `detail`), and the certificate's data of the norms met.
fn table(r: &swisspair::proto::NormsResponse, detail: bool) -> String {
    let mut out = format!("{}\n", r.rules);
    for n in &r.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    for c in &r.checks {
        let failed: Vec<String> = c
            .requirements
            .iter()
            .filter(|q| !q.met)
            .map(|q| format!("{} {} {} ({})", q.article, q.name, q.value, q.needed))
            .collect();
        out.push_str(&format!(
            "{:>5} {:<28} {:<3} {}: {}/{}, Ra {}, Rp {}{}\n",
            c.player_id,
            c.name,
            c.title,
            if c.met { "met" } else { "not met" },
            c.score,
            c.games,
            c.average,
            c.performance,
            if failed.is_empty() {
                String::new()
            } else {
                format!("; fails {}", failed.join("; "))
            }
        ));
        if c.met || detail {
            for q in &c.requirements {
                out.push_str(&format!(
                    "        {:<7} {:<40} {:<24} {:<48} {}\n",
                    q.article,
                    q.name,
                    q.value,
                    q.needed,
                    if q.met { "met" } else { "not met" }
                ));
            }
            for l in &c.left_out {
                out.push_str(&format!(
                    "        round {} left out: {}\n",
                    l.round, l.reason
                ));
            }
        }
        if let Some(cert) = &c.certificate {
            out.push_str(&format!(
                "        certificate: {} ({} to {}, host {}), {} {} {} ({}), {} norm, {} rounds, {} games, {} points, Ra {}, Rp {}{}\n",
                cert.event,
                cert.start_date,
                cert.end_date,
                cert.host_federation,
                cert.title_held,
                cert.player_name,
                cert.fide_id,
                cert.federation,
                cert.title,
                cert.rounds,
                cert.games,
                cert.score,
                cert.average,
                cert.performance,
                if cert.exemption.is_empty() {
                    String::new()
                } else {
                    format!(", exempt by {}", cert.exemption)
                }
            ));
            if let Some(a) = &c.application {
                out.push_str(&format!(
                    "        application: counts as {} games (1.4.1d: {} points above the {} needed){}{}{}\n",
                    a.games_counted,
                    a.points_above,
                    a.score_needed,
                    if a.eight_games_as_nine {
                        "; 8 games as 9 (1.4.1c, one per application)"
                    } else {
                        ""
                    },
                    if a.normal_foreigner_requirement {
                        "; under the normal foreigner requirement (1.4.3e)"
                    } else {
                        "; under an exemption (1.4.3e: another norm must be without)"
                    },
                    if a.last_round_forfeit {
                        "; last-round forfeit counted as a loss (1.4.2c)"
                    } else {
                        ""
                    }
                ));
            }
            for o in &c.opponents {
                out.push_str(&format!(
                    "          round {:>2} {:<5} {:<28} {:<3} {:<3} {:>4} (used {}{}) {}\n",
                    o.round,
                    o.player_id,
                    o.name,
                    o.title,
                    o.federation,
                    o.rating,
                    o.rating_used,
                    if o.raised_to_floor { ", raised" } else { "" },
                    o.score
                ));
            }
        }
    }
    out
}
