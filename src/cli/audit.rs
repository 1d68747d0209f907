//! `swisspair audit FILE...`: one verdict per tournament report (pairings re-paired, points
//! column, rank column; [`swisspair::audit`]), many files in parallel on bounded threads.
//!
//! Files are audited by `--jobs` worker threads (default: the cores), each taking the next
//! file; results are printed in the order the files were given, as soon as the files
//! before them are done. On a terminal, stderr shows progress; on a pipe, nothing. Exit 0
//! when every file is clean, 1 when any has findings, 3 when any cannot be read (3 wins).
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use clap::{Args, ValueEnum};
use swisspair::audit::render::{self, FileAudit, Summary};
use swisspair::audit::{self, AuditOptions, Unreadable};
use swisspair::model::SystemOptions;
use swisspair::standings::Edition;

use super::CliError;
use super::args::{OptionArgs, SystemArg, read_text};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Tsv,
    Json,
}

#[derive(Args)]
pub struct AuditArgs {
    #[command(flatten)]
    system: SystemArg,
    #[command(flatten)]
    options: OptionArgs,
    /// The reports (TRF-16/TRF-26); a directory stands for its `.trf` files.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Seed of every lot (default: each file's).
    #[arg(long)]
    seed: Option<u64>,
    /// C.07 edition of the tie-breaks for the rank check: 2024 or 2026 (default: by each
    /// event's date, 2024 before 2026-03-01).
    #[arg(long)]
    tiebreak_edition: Option<String>,
    /// Files audited at once (default: the number of cores).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// Output: a table per file, TSV (one row per finding) or JSON.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Same as --format json.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &AuditArgs) -> Result<ExitCode, CliError> {
    let options = AuditOptions {
        system: args.system.resolve()?,
        options: system_options(&args.options)?,
        seed: args.seed,
        tie_break_edition: match &args.tiebreak_edition {
            None => None,
            Some(e) => Some(Edition::parse(e).ok_or_else(|| {
                CliError::Invalid(format!("--tiebreak-edition {e:?}: expected 2024 or 2026"))
            })?),
        },
    };
    let files = expand(&args.inputs)?;
    let format = if args.json { Format::Json } else { args.format };
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, files.len().max(1));
    let progress = std::io::stderr().is_terminal();

    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, FileAudit)>();
    let mut summary = Summary::default();
    let mut done: Vec<Option<FileAudit>> = (0..files.len()).map(|_| None).collect();
    let mut printed = 0;
    let mut json_files = Vec::new();
    let mut stdout = std::io::stdout().lock();
    if format == Format::Tsv {
        writeln!(stdout, "{}", render::TSV_HEADER).map_err(write_error)?;
    }
    std::thread::scope(|scope| -> Result<(), CliError> {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (next, files, options) = (&next, &files, &options);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = files.get(i) else { break };
                    let file = FileAudit {
                        name: path.display().to_string(),
                        outcome: audit_file(path, options),
                    };
                    if tx.send((i, file)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (i, file) in rx {
            summary.add(&file.outcome);
            if let Some(slot) = done.get_mut(i) {
                *slot = Some(file);
            }
            if progress {
                eprint!("\r\x1b[Kaudit: {}/{} files", summary.files, files.len());
            }
            // Print in the order given, as far as the files before are done.
            while let Some(file) = done.get_mut(printed).and_then(Option::take) {
                printed += 1;
                match format {
                    Format::Table => write!(stdout, "{}", render::table(&file)),
                    Format::Tsv => write!(stdout, "{}", render::tsv(&file)),
                    Format::Json => {
                        json_files.push(render::json(&file));
                        Ok(())
                    }
                }
                .map_err(write_error)?;
            }
        }
        Ok(())
    })?;
    if progress {
        eprint!("\r\x1b[K");
    }
    match format {
        Format::Table => writeln!(stdout, "{}", summary.line()),
        Format::Tsv => Ok(()),
        Format::Json => {
            let doc = serde_json::json!({ "files": json_files, "summary": summary.json() });
            let text = serde_json::to_string_pretty(&doc)
                .map_err(|e| CliError::Unexpected(e.to_string()))?;
            writeln!(stdout, "{text}")
        }
    }
    .map_err(write_error)?;
    if format == Format::Tsv {
        eprintln!("{}", summary.line());
    }
    Ok(if summary.unreadable > 0 {
        ExitCode::from(3)
    } else if summary.with_findings > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// One file read (its encoding by `--encoding`) and audited; a file that cannot be read or
/// decoded is unreadable, like a text the reader cannot take at all.
fn audit_file(
    path: &std::path::Path,
    options: &AuditOptions,
) -> Result<audit::AuditReport, Unreadable> {
    let text = read_text(path).map_err(|e| Unreadable(e.message().to_string()))?;
    audit::audit_text(&text, options)
}

/// The `--option`s and `--acceleration` as system options.
fn system_options(args: &OptionArgs) -> Result<SystemOptions, CliError> {
    args.refuse_separations("audit")?;
    let mut t = swisspair::model::Tournament::default();
    args.apply(&mut t)?;
    Ok(t.options)
}

/// The inputs, a directory standing for its `.trf` files (sorted).
fn expand(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut out = Vec::new();
    for path in inputs {
        if path.is_dir() {
            let entries = std::fs::read_dir(path)
                .map_err(|e| CliError::File(format!("{}: {e}", path.display())))?;
            let mut files: Vec<PathBuf> = entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.is_file() && p.extension().is_some_and(|x| x.eq_ignore_ascii_case("trf"))
                })
                .collect();
            files.sort();
            out.extend(files);
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

fn write_error(e: std::io::Error) -> CliError {
    CliError::File(format!("standard output: {e}"))
}
