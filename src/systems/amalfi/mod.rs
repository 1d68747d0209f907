//! Amalfi Rating (systems.md §1).
//!
//! placeholder: replaced by the FSI owner's mod.rs at merge. It only wires the JavaPairing
//! profile (`javapairing.rs`) behind [`PairingSystem`]; the FSI profile lives elsewhere.
pub mod javapairing;

use crate::model::{AmalfiProfile, SystemId};
use crate::systems::{
    OptionInfo, PairError, PairingSystem, RoundPairing, RoundToPair, SystemInfo, implemented_names,
};

pub struct Amalfi;

impl PairingSystem for Amalfi {
    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: SystemId::Amalfi,
            title: "Amalfi Rating",
            rule_set: "systems.md AM-*; profile JAVAPAIRING: javapairing.md §2",
            options: vec![OptionInfo {
                name: "profile",
                kind: "AmalfiProfile",
                default_value: "FSI",
                description: "FSI (the regulation) or JAVAPAIRING (JavaPairing 2.9's reading)",
            }],
        }
    }

    fn pair(&self, r: &RoundToPair) -> Result<RoundPairing, PairError> {
        match r.tournament.options.amalfi_profile {
            AmalfiProfile::JavaPairing => javapairing::pair(r),
            AmalfiProfile::Fsi => Err(PairError::NotImplemented(
                SystemId::Amalfi,
                implemented_names(),
            )),
        }
    }
}
