//! Edge weights assembled from fields, the most important criterion in the most
//! significant bits: the integer types a criterion-based system packs its criteria into
//! (the Dutch and Burstein weights, `dutch/weights.rs`, `burstein/text.rs`).
use crate::matching::Wide;
use crate::matching::weighted::DenseWeight;

/// A weight type that can be assembled from fields.
pub trait Packed: DenseWeight {
    const BITS: u32;
    /// `v * 2^shift` (two's complement; `shift < BITS`).
    fn shifted(v: i64, shift: u32) -> Self;
}

impl Packed for i64 {
    const BITS: u32 = 64;
    #[inline]
    fn shifted(v: i64, shift: u32) -> Self {
        v.wrapping_shl(shift)
    }
}

impl Packed for i128 {
    const BITS: u32 = 128;
    #[inline]
    fn shifted(v: i64, shift: u32) -> Self {
        (v as i128).wrapping_shl(shift)
    }
}

impl<const N: usize> Packed for Wide<N> {
    const BITS: u32 = 64 * N as u32;
    #[inline]
    fn shifted(v: i64, shift: u32) -> Self {
        Wide::from_i64(v).wrapping_shl(shift)
    }
}

/// Bits to hold values `0..=x`.
pub fn bits(x: u64) -> u32 {
    (64 - x.leading_zeros()).max(1)
}
