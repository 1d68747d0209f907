//! Amalfi Rating (systems.md §1; seed 000, the Italian federation's regulation).
//!
//! Two readings of the same rules exist, chosen by the option `profile` ([`Profile`]):
//! - [`fsi`]: the FSI regulation as `systems.md` states it (AM-1.1..AM-4.4), the default;
//! - [`javapairing`]: what JavaPairing 2.9 actually does (`javapairing.md` §2).
pub mod fsi;
pub mod javapairing;

use super::options::{parse_choice, parse_score, read};
use super::{OptionInfo, PairError, PairingSystem, RoundPairing, RoundToPair, SystemInfo};
use crate::model::SystemId;

/// Which reading of the Amalfi Rating rules to follow (option `profile`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Profile {
    /// The FSI regulation as systems.md §1 states it.
    #[default]
    Fsi,
    /// JavaPairing 2.9's reading (javapairing.md §2).
    JavaPairing,
}

const PROFILES: [(&str, Profile); 2] =
    [("FSI", Profile::Fsi), ("JAVAPAIRING", Profile::JavaPairing)];

pub struct Amalfi;

impl PairingSystem for Amalfi {
    /// AM-3.1: no rematch, no third colour in a row, no difference beyond 2.
    fn absolute_rules(&self) -> super::AbsoluteRules {
        super::AbsoluteRules {
            colour_rule: "AM-3.1",
            rematch_rule: "AM-3.1",
            // AM-2.2: the bye goes by games played; a second bye is not forbidden.
            second_bye_rule: None,
            ..super::AbsoluteRules::FIDE
        }
    }
    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: SystemId::Amalfi,
            title: "Amalfi Rating (Italian federation): position p meets position p + rounds remaining",
            rule_set: "systems.md §1 AM-1.1..AM-4.4 (FSI regulation, seed 000); javapairing.md §2 for the JAVAPAIRING profile",
            options: vec![
                OptionInfo {
                    name: "profile",
                    kind: "enum FSI|JAVAPAIRING",
                    default_value: "FSI",
                    description: "FSI: the regulation as systems.md states it; JAVAPAIRING: JavaPairing 2.9's reading",
                    parse: |v| parse_choice(v, &PROFILES).map(|_| ()),
                },
                OptionInfo {
                    name: "late_entry_score",
                    kind: "score",
                    default_value: "0.5",
                    description: "pairing score a late entrant starts with (AM-2.5); not a real point",
                    parse: |v| parse_score(v).map(|_| ()),
                },
            ],
        }
    }

    fn pair(&self, r: &RoundToPair) -> Result<RoundPairing, PairError> {
        match read(&r.tournament.options, "profile", |v| {
            parse_choice(v, &PROFILES)
        }) {
            Some(Profile::JavaPairing) => javapairing::pair(r),
            Some(Profile::Fsi) | None => fsi::pair(r),
        }
    }
}
