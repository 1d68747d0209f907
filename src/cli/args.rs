//! What several commands take: the system, its options, the explanation detail, and
//! reading input files.
use std::path::Path;

use clap::{Args, ValueEnum};
use swisspair::model::{Separation, SeparationKey, SeparationMode, SystemId, Tournament};
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
    /// Keep a group apart (repeatable; docs/separations.md): KEY is federation, club, team
    /// or a group prefix (`family` for the players' `family:NAME` groups), MODE is
    /// absolute, weak, weak-first or weak-last (SEP-5.1: where a weak one stands in the
    /// system's order), rounds FIRST-LAST (either end may be left open: `3-`, `-5`; one
    /// number for one round). Added to the file's XSP records.
    #[arg(long = "separate", value_name = "KEY=MODE[@FIRST-LAST]")]
    pub separate: Vec<String>,
    /// With --separate: the players of the top K score groups are exempt (SEP-3).
    #[arg(long = "separate-exempt-top", value_name = "K")]
    pub separate_exempt_top: Option<u32>,
    /// With --separate-exempt-top: the exemption holds from this round on (default: every
    /// round).
    #[arg(long = "separate-exempt-from", value_name = "ROUND")]
    pub separate_exempt_from: Option<u32>,
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
        t.separations.extend(self.separations()?);
        Ok(())
    }

    /// The separations of `--separate`, with the exemption of `--separate-exempt-top`.
    pub fn separations(&self) -> Result<Vec<Separation>, CliError> {
        if self.separate.is_empty()
            && (self.separate_exempt_top.is_some() || self.separate_exempt_from.is_some())
        {
            return Err(CliError::Invalid(
                "--separate-exempt-top and --separate-exempt-from go with --separate".to_string(),
            ));
        }
        if self.separate_exempt_from.is_some() && self.separate_exempt_top.is_none() {
            return Err(CliError::Invalid(
                "--separate-exempt-from needs --separate-exempt-top".to_string(),
            ));
        }
        if self.separate_exempt_from == Some(0) || self.separate_exempt_top == Some(0) {
            return Err(CliError::Invalid(
                "--separate-exempt-top and --separate-exempt-from count from 1".to_string(),
            ));
        }
        self.separate
            .iter()
            .map(|spec| {
                let mut s = parse_separation(spec)
                    .map_err(|e| CliError::Invalid(format!("--separate {spec:?}: {e}")))?;
                s.exempt_top_groups = self.separate_exempt_top;
                s.exempt_from_round = self.separate_exempt_from;
                Ok(s)
            })
            .collect()
    }

    /// Refuses `--separate` for a command that does not pair with separations.
    pub fn refuse_separations(&self, command: &str) -> Result<(), CliError> {
        if self.separate.is_empty() && self.separate_exempt_top.is_none() {
            Ok(())
        } else {
            Err(CliError::Invalid(format!(
                "--separate: {command} does not take separations (pair, check, validate and why do)"
            )))
        }
    }
}

/// `KEY=MODE[@FIRST-LAST]`: `club=absolute`, `family=absolute@1-3`, `federation=absolute@4-`.
pub fn parse_separation(spec: &str) -> Result<Separation, String> {
    let (key, rest) = spec
        .split_once('=')
        .ok_or("expected KEY=MODE[@FIRST-LAST], e.g. club=absolute@1-5")?;
    let key = SeparationKey::parse(key).ok_or_else(|| {
        format!("key {key:?}: federation, club, team or a group prefix (a word without spaces or colons)")
    })?;
    let (mode, rounds) = match rest.split_once('@') {
        Some((mode, rounds)) => (mode, Some(rounds)),
        None => (rest, None),
    };
    let mode = SeparationMode::parse(mode)
        .ok_or_else(|| format!("mode {mode:?}: absolute, weak, weak-first or weak-last"))?;
    let round = |text: &str| -> Result<Option<u32>, String> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        match text.parse::<u32>() {
            Ok(n) if n > 0 => Ok(Some(n)),
            _ => Err(format!("round {text:?}: a round number from 1")),
        }
    };
    let (first_round, last_round) = match rounds {
        None => (None, None),
        Some(r) => match r.split_once('-') {
            Some((first, last)) => (round(first)?, round(last)?),
            None => {
                let n = round(r)?.ok_or("@ needs rounds: FIRST-LAST")?;
                (Some(n), Some(n))
            }
        },
    };
    if let (Some(first), Some(last)) = (first_round, last_round)
        && first > last
    {
        return Err(format!(
            "rounds {first}-{last}: the first is after the last"
        ));
    }
    Ok(Separation {
        key,
        mode,
        first_round,
        last_round,
        exempt_top_groups: None,
        exempt_from_round: None,
    })
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
