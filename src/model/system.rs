//! The pairing systems' names, one list for the proto, the CLI and `ListSystems`.
use std::fmt;
use std::str::FromStr;

/// Every pairing system swisspair knows the name of. Which ones are implemented, and what
/// each reads and writes in TRF record 192, is decided by the registry in `systems/`.
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
    Keizer,
    Monrad,
    Knockout,
    Scheveningen,
}

impl SystemId {
    pub const ALL: [SystemId; 17] = [
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
        SystemId::Keizer,
        SystemId::Monrad,
        SystemId::Knockout,
        SystemId::Scheveningen,
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
            SystemId::Keizer => "keizer",
            SystemId::Monrad => "monrad",
            SystemId::Knockout => "knockout",
            SystemId::Scheveningen => "scheveningen",
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
