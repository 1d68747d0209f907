//! General-graph maximum-weight matching (Edmonds' blossom algorithm in
//! Galil's primal-dual O(n^3) formulation) with exact integer weights.
//!
//! * [`max_weight_matching`] — maximum-weight matching, optionally restricted
//!   to maximum-cardinality matchings.
//! * [`max_cardinality_matching`] — plain maximum-cardinality matching.
//! * [`Weight`] — the weight abstraction, implemented for `i64`, `i128` and
//!   [`Wide<N>`] (a `64*N`-bit two's complement integer for lexicographic
//!   weights built by shifting criteria into fields).
//!
//! Input conventions (shared by both entry points):
//! * Vertices are `0..n`; an endpoint `>= n` is an error.
//! * Self loops are **rejected** ([`MatchingError::SelfLoop`]).
//! * Parallel edges are **allowed**; the algorithm works on the multigraph,
//!   so effectively only the heaviest copy can matter.
//! * Without `max_cardinality`, edges of weight `<= 0` are ignored (they can
//!   never increase the total weight). With it, every edge is used and
//!   weights may be negative.
//! * No floating point is used anywhere. All weight arithmetic is checked:
//!   if an intermediate value does not fit the weight type,
//!   [`MatchingError::Overflow`] is returned, never a wrong answer or a
//!   panic. Intermediates stay within about `4 * max|w|` without
//!   `max_cardinality`; with it, vertex duals may drift further on sparse
//!   graphs (observed up to ~10x `max|w|` at n = 100; budget roughly
//!   `n * max|w|`), so leave `log2(n) + 3` spare bits in the weight type.

mod blossom;
pub mod dynamic;
pub mod gallai;
pub mod incremental;
mod wide;

#[cfg(test)]
mod brute;
#[cfg(test)]
pub(crate) mod tests;

use core::fmt::{self, Debug};
use core::ops::{Add, Sub};

pub use incremental::{
    Adjacency, BitGraph, Matcher, has_perfect_matching, maximum_matching, maximum_matching_size,
};
pub use wide::Wide;

/// An exact, totally ordered, signed integer-like edge weight.
///
/// The primal-dual algorithm works with half-integral duals; it avoids
/// fractions by doubling every edge weight internally (hence
/// [`Weight::checked_double`]) and halving slacks that are provably even
/// (hence [`Weight::half`]).
pub trait Weight: Copy + Ord + Default + Debug + Add<Output = Self> + Sub<Output = Self> {
    /// The additive identity.
    const ZERO: Self;
    /// `self + rhs`, `None` on overflow.
    fn checked_add(self, rhs: Self) -> Option<Self>;
    /// `self - rhs`, `None` on overflow.
    fn checked_sub(self, rhs: Self) -> Option<Self>;
    /// `2 * self`, `None` on overflow.
    fn checked_double(self) -> Option<Self> {
        self.checked_add(self)
    }
    /// `floor(self / 2)`; only ever applied to even values.
    fn half(self) -> Self;
}

macro_rules! impl_weight_prim {
    ($($t:ty),*) => {$(
        impl Weight for $t {
            const ZERO: Self = 0;
            #[inline]
            fn checked_add(self, rhs: Self) -> Option<Self> {
                <$t>::checked_add(self, rhs)
            }
            #[inline]
            fn checked_sub(self, rhs: Self) -> Option<Self> {
                <$t>::checked_sub(self, rhs)
            }
            fn half(self) -> Self {
                self >> 1
            }
        }
    )*};
}
impl_weight_prim!(i64, i128);

impl<const N: usize> Weight for Wide<N> {
    const ZERO: Self = Wide::ZERO;
    #[inline]
    fn checked_add(self, rhs: Self) -> Option<Self> {
        Wide::checked_add(self, rhs)
    }
    #[inline]
    fn checked_sub(self, rhs: Self) -> Option<Self> {
        Wide::checked_sub(self, rhs)
    }
    fn half(self) -> Self {
        self.shr_floor(1)
    }
}

/// Why a matching could not be computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchingError {
    /// Edge `edge` has an endpoint `vertex >= n`.
    VertexOutOfRange {
        edge: usize,
        vertex: usize,
        n: usize,
    },
    /// Edge `edge` connects `vertex` to itself.
    SelfLoop { edge: usize, vertex: usize },
    /// More vertices or edges than the implementation supports (both are
    /// limited to `u32::MAX / 2`), or memory could not be reserved.
    TooLarge,
    /// A weight or dual value does not fit the weight type.
    Overflow,
    /// An internal invariant failed (a bug); reported instead of panicking.
    Internal(&'static str),
}

impl fmt::Display for MatchingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::VertexOutOfRange { edge, vertex, n } => {
                write!(f, "edge {edge}: vertex {vertex} out of range (n = {n})")
            }
            Self::SelfLoop { edge, vertex } => {
                write!(f, "edge {edge}: self loop at vertex {vertex}")
            }
            Self::TooLarge => write!(f, "graph too large"),
            Self::Overflow => write!(f, "arithmetic overflow in the weight type"),
            Self::Internal(what) => write!(f, "internal matching error: {what}"),
        }
    }
}

impl std::error::Error for MatchingError {}

/// Maximum-weight matching of the graph on vertices `0..n`.
///
/// Returns `mate[v] = Some(u)` if `v` is matched to `u`. With
/// `max_cardinality`, the result has maximum cardinality and, among such
/// matchings, maximum weight. When several optimal matchings exist, which
/// one is returned is deterministic but unspecified.
///
/// Worst case O(n·m) time (O(n^3) on dense graphs), O(n) work per dual
/// update; memory O(n + m) (about `20 + 2 * size_of::<W>()` bytes per edge)
/// plus small per-blossom edge lists. See `blossom.rs` for the algorithm.
pub fn max_weight_matching<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
    max_cardinality: bool,
) -> Result<Vec<Option<usize>>, MatchingError> {
    let mut solver = blossom::Solver::new(n, edges, max_cardinality)?;
    solver.solve()?;
    Ok(solver.mates())
}

/// Maximum-cardinality matching (all edges weigh the same).
pub fn max_cardinality_matching(
    n: usize,
    edges: &[(usize, usize)],
) -> Result<Vec<Option<usize>>, MatchingError> {
    // With unit weights, maximum weight is maximum cardinality; duals stay
    // within [-1, 2] so nothing can overflow.
    let weighted: Vec<(usize, usize, i64)> = edges.iter().map(|&(u, v)| (u, v, 1)).collect();
    max_weight_matching(n, &weighted, false)
}
