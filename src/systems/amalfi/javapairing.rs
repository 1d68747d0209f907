//! Amalfi Rating, JavaPairing 2.9 profile (javapairing.md §2).
//!
//! Placeholder: the owner of the JavaPairing profile replaces this file with the real
//! implementation; until then the profile answers "not implemented".
use crate::model::SystemId;
use crate::systems::{PairError, RoundPairing, RoundToPair};

pub fn pair(_r: &RoundToPair) -> Result<RoundPairing, PairError> {
    Err(PairError::NotImplemented(
        SystemId::Amalfi,
        "the JAVAPAIRING profile".into(),
    ))
}
