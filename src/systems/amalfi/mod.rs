//! Amalfi Rating (systems.md §1; seed 000, the Italian federation's regulation).
//!
//! Two readings of the same rules exist, chosen by `tournament.options.amalfi_profile`:
//! - [`fsi`]: the FSI regulation as `systems.md` states it (AM-1.1..AM-4.4), the default;
//! - [`javapairing`]: what JavaPairing 2.9 actually does (`javapairing.md` §2).
pub mod fsi;
pub mod javapairing;

use super::{OptionInfo, PairError, PairingSystem, RoundPairing, RoundToPair, SystemInfo};
use crate::model::{AmalfiProfile, SystemId};

pub struct Amalfi;

impl PairingSystem for Amalfi {
    /// AM-3.1: no rematch, no third colour in a row, no difference beyond 2.
    fn absolute_rules(&self) -> super::AbsoluteRules {
        super::AbsoluteRules {
            colour_rule: "AM-3.1",
            rematch_rule: "AM-3.1",
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
                    kind: "AmalfiProfile",
                    default_value: "FSI",
                    description: "FSI: the regulation as systems.md states it; JAVAPAIRING: JavaPairing 2.9's reading",
                },
                OptionInfo {
                    name: "late_entry_score",
                    kind: "score",
                    default_value: "0.5",
                    description: "pairing score a late entrant starts with (AM-2.5); not a real point",
                },
            ],
        }
    }

    fn pair(&self, r: &RoundToPair) -> Result<RoundPairing, PairError> {
        match r.tournament.options.amalfi_profile {
            AmalfiProfile::Fsi => fsi::pair(r),
            AmalfiProfile::JavaPairing => javapairing::pair(r),
        }
    }
}
