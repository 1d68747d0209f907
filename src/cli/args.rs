//! What several commands take: the system, its options, the explanation detail, and
//! reading input files.
use std::path::Path;

use clap::{Args, ValueEnum};
use swisspair::model::{SystemId, Tournament};
use swisspair::service::convert;
use swisspair::systems::{self, Detail};
use swisspair::trf;

use super::CliError;

/// Which system: `--system NAME`, or one of the aliases (`--dutch`, `--burstein`, `--dubov`,
/// `--lim`, `--double-swiss`); at most one of them.
#[derive(Args)]
#[group(id = "system_choice", multiple = false)]
pub struct SystemArg {
    /// Pairing system (round-robin, dutch, burstein, ...); default: the file's record 192.
    #[arg(long)]
    pub system: Option<String>,
    /// Same as --system dutch.
    #[arg(long)]
    pub dutch: bool,
    /// Same as --system burstein.
    #[arg(long)]
    pub burstein: bool,
    /// Same as --system dubov.
    #[arg(long)]
    pub dubov: bool,
    /// Same as --system lim.
    #[arg(long)]
    pub lim: bool,
    /// Same as --system double-swiss.
    #[arg(long = "double-swiss")]
    pub double_swiss: bool,
}

impl SystemArg {
    /// The system as the proto enum's number (0 when none was named).
    pub fn proto_number(&self) -> Result<i32, CliError> {
        Ok(self
            .resolve()?
            .map_or(0, |s| convert::system_to_proto(s) as i32))
    }

    /// The system named, if any.
    pub fn resolve(&self) -> Result<Option<SystemId>, CliError> {
        let aliases = [
            (self.dutch, SystemId::Dutch),
            (self.burstein, SystemId::Burstein),
            (self.dubov, SystemId::Dubov),
            (self.lim, SystemId::Lim),
            (self.double_swiss, SystemId::DoubleSwiss),
        ];
        if let Some((_, id)) = aliases.into_iter().find(|(given, _)| *given) {
            return Ok(Some(id));
        }
        match &self.system {
            None => Ok(None),
            Some(name) => name.parse::<SystemId>().map(Some).map_err(|e| {
                CliError::Invalid(format!("{e}; supported: {}", systems::implemented_names()))
            }),
        }
    }
}

/// System options, `--option NAME=VALUE` (repeatable): acceleration, edition, cycles,
/// swap_last_two_rounds, order, profile, float_history, match_length, late_entry_score. An
/// option the chosen system does not read is refused.
#[derive(Args)]
pub struct OptionArgs {
    /// A system option, NAME=VALUE (repeatable); `swisspair systems` lists each system's.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Acceleration (C.04.7): NONE, BAKU, or AUTO (Baku when players > 2^rounds);
    /// the same as `--option acceleration=...`.
    #[arg(long, value_name = "NONE|BAKU|AUTO")]
    pub acceleration: Option<String>,
    /// The Dutch system's edition: 2026 (applied from 1 February 2026) or 2017 (events
    /// that started before); the same as `--option edition=...`.
    #[arg(long, value_name = "2026|2017")]
    pub edition: Option<String>,
}

impl OptionArgs {
    /// Sets the options on the snapshot (each is recorded as set, for the pipeline's check).
    pub fn apply(&self, t: &mut Tournament) -> Result<(), CliError> {
        for o in &self.options {
            let (name, value) = o
                .split_once('=')
                .ok_or_else(|| CliError::Invalid(format!("--option {o:?}: expected NAME=VALUE")))?;
            t.options.set(name, value).map_err(CliError::Invalid)?;
        }
        if let Some(a) = &self.acceleration {
            t.options
                .set("acceleration", a)
                .map_err(|e| CliError::Invalid(format!("--acceleration: {e}")))?;
        }
        if let Some(e) = &self.edition {
            t.options
                .set("edition", e)
                .map_err(|e| CliError::Invalid(format!("--edition: {e}")))?;
        }
        Ok(())
    }
}

/// How much explanation to give.
#[derive(Clone, Copy, ValueEnum)]
pub enum DetailArg {
    None,
    Summary,
    Full,
}

impl From<DetailArg> for Detail {
    fn from(d: DetailArg) -> Detail {
        match d {
            DetailArg::None => Detail::None,
            DetailArg::Summary => Detail::Summary,
            DetailArg::Full => Detail::Full,
        }
    }
}

/// The `--encoding` given (read by every command that reads a TRF file).
static ENCODING: std::sync::OnceLock<trf::Encoding> = std::sync::OnceLock::new();

/// Records the `--encoding` of the command line (once, at start-up).
pub fn set_encoding(encoding: trf::Encoding) {
    let _ = ENCODING.set(encoding);
}

/// A text file in the `--encoding` given (detected by default: `trf::encoding`).
pub fn read_text(path: &Path) -> Result<String, CliError> {
    let bytes =
        std::fs::read(path).map_err(|e| CliError::File(format!("{}: {e}", path.display())))?;
    trf::decode(&bytes, ENCODING.get().copied().unwrap_or_default())
        .map(|d| d.text)
        .map_err(|e| CliError::Invalid(format!("{}:{e}", path.display())))
}

/// A TRF file; every error in it (up to a cap), one `file:line:column: what` a line.
pub fn read_trf(path: &Path) -> Result<trf::TrfDocument, CliError> {
    let text = read_text(path)?;
    swisspair::pairing::read_trf_reporting(&text).map_err(|errors| {
        let lines: Vec<String> = errors
            .0
            .iter()
            .map(|e| format!("{}:{e}", path.display()))
            .collect();
        CliError::Invalid(lines.join("\n"))
    })
}

pub fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Unexpected(format!("cannot start the runtime: {e}")))
}
