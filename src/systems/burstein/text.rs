//! Profile `FIDE_2026`: the 2026 text of C.04.4.2.
use crate::systems::dutch::Dutch;
use crate::systems::{PairError, PairingSystem, RoundPairing, RoundToPair};

/// Pairs a round under the 2026 text.
pub fn pair(r: &RoundToPair) -> Result<RoundPairing, PairError> {
    Dutch.pair(r)
}
