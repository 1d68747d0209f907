//! The pairing systems' names, one list for the proto, the CLI and `ListSystems`.
use std::fmt;
use std::str::FromStr;

/// Every pairing system swisspair knows the name of. Which ones are implemented is decided
/// by the registry in `systems/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SystemId {
    RoundRobin,
    Dutch,
    Burstein,
    Dubov,
    Lim,
    DoubleSwiss,
    TeamSwiss,
    Amalfi,
    Vincze,
    Buchholz,
    Simple,
    ColourAlternation,
    Backgammon,
}

impl SystemId {
    pub const ALL: [SystemId; 13] = [
        SystemId::RoundRobin,
        SystemId::Dutch,
        SystemId::Burstein,
        SystemId::Dubov,
        SystemId::Lim,
        SystemId::DoubleSwiss,
        SystemId::TeamSwiss,
        SystemId::Amalfi,
        SystemId::Vincze,
        SystemId::Buchholz,
        SystemId::Simple,
        SystemId::ColourAlternation,
        SystemId::Backgammon,
    ];

    /// The CLI name (`round-robin`, `dutch`, …).
    pub fn name(self) -> &'static str {
        match self {
            SystemId::RoundRobin => "round-robin",
            SystemId::Dutch => "dutch",
            SystemId::Burstein => "burstein",
            SystemId::Dubov => "dubov",
            SystemId::Lim => "lim",
            SystemId::DoubleSwiss => "double-swiss",
            SystemId::TeamSwiss => "team-swiss",
            SystemId::Amalfi => "amalfi",
            SystemId::Vincze => "vincze",
            SystemId::Buchholz => "buchholz",
            SystemId::Simple => "simple",
            SystemId::ColourAlternation => "colour-alternation",
            SystemId::Backgammon => "backgammon",
        }
    }

    /// The TRF-26 record 192 code (ETT26), or this project's namespaced custom code where
    /// ETT26 has none (trf.md §5.4).
    pub fn trf_code(self) -> &'static str {
        match self {
            SystemId::RoundRobin => "FIDE_ROUNDROBIN",
            SystemId::Dutch => "FIDE_DUTCH_2026",
            SystemId::Burstein => "FIDE_BURSTEIN",
            SystemId::Dubov => "FIDE_DUBOV",
            SystemId::Lim => "CUSTOM_SWISS:LIM_2026",
            SystemId::DoubleSwiss => "FIDE_DOUBLESWISS",
            SystemId::TeamSwiss => "FIDE_TEAM",
            SystemId::Amalfi => "CUSTOM_SWISS:AMALFI_RATING",
            SystemId::Vincze => "CUSTOM_SWISS:VINCZE",
            SystemId::Buchholz => "CUSTOM_SWISS:VEGA_BUCHHOLZ",
            SystemId::Simple => "CUSTOM_SWISS:JP_SIMPLE",
            SystemId::ColourAlternation => "CUSTOM_SWISS:JP_COLOUR_ALTERNATION",
            SystemId::Backgammon => "CUSTOM_SWISS:BACKGAMMON_WINS",
        }
    }

    /// Reads a record 192 code (ETT26 or ours); `None` for codes of systems we do not know.
    pub fn from_trf_code(code: &str) -> Option<SystemId> {
        let code = code.trim().to_ascii_uppercase();
        let base = code.strip_suffix("_BAKU").unwrap_or(&code);
        match base {
            "FIDE_DUTCH" | "FIDE_DUTCH_2026" | "FIDE_DUTCH_2025" | "FIDE_DUTCH_2017" => {
                Some(SystemId::Dutch)
            }
            "FIDE_BURSTEIN" => Some(SystemId::Burstein),
            "FIDE_DUBOV" => Some(SystemId::Dubov),
            "FIDE_DOUBLESWISS" => Some(SystemId::DoubleSwiss),
            // ETT26 has no Lim code: ours (`trf_code`) or the obvious FIDE-style spelling.
            "FIDE_LIM" | "FIDE_LIM_2026" => Some(SystemId::Lim),
            "FIDE_ROUNDROBIN" | "FIDE_DOUBLEROUNDROBIN" => Some(SystemId::RoundRobin),
            b if b.starts_with("BERGER_ROUNDROBIN") => Some(SystemId::RoundRobin),
            b if b.starts_with("FIDE_TEAM") => Some(SystemId::TeamSwiss),
            _ => SystemId::ALL.into_iter().find(|s| s.trf_code() == base),
        }
    }
}

impl fmt::Display for SystemId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown system name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown pairing system {0:?}")]
pub struct UnknownSystem(pub String);

impl FromStr for SystemId {
    type Err = UnknownSystem;
    fn from_str(s: &str) -> Result<SystemId, UnknownSystem> {
        let wanted = s.trim().to_ascii_lowercase().replace('_', "-");
        let wanted = if wanted == "color-alternation" {
            "colour-alternation".to_string()
        } else {
            wanted
        };
        SystemId::ALL
            .into_iter()
            .find(|id| id.name() == wanted)
            .ok_or_else(|| UnknownSystem(s.to_string()))
    }
}

/// The first day FIDE's 2026 Dutch text applies: an event that started before it keeps the
/// 2017 text (ETT26: bare `FIDE_DUTCH` follows the start date). The Dutch system's
/// `Edition` (`systems/dutch/edition.rs`) reads this; the TRF reader too.
pub const DUTCH_2026_FROM: (u32, u32, u32) = (2026, 2, 1);

/// Whether the Dutch options ask for the 2017 edition (`edition=2017`).
pub fn dutch_2017(options: &super::SystemOptions) -> bool {
    options.get("edition").is_some_and(|e| e.trim() == "2017")
}
