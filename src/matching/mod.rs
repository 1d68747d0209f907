//! Chess-agnostic graph matching, exact and integer-only. Two engines share the blossom
//! idea (Edmonds' alternating trees with shrunk odd cycles):
//!
//! * [`weighted`] — maximum-weight matching: [`DynamicMatching`] keeps an optimal matching
//!   and its dual certificate between calls, so a few changed vertices are repaired in a
//!   few primal-dual stages (the Dutch system asks thousands of such questions per round,
//!   docs/incremental-matching.md); [`weighted::Certificate`] is a frozen copy of its
//!   optimum and duals that proves pairs by exchanges without the engine;
//!   [`max_weight_matching`] is the same engine solved once on an edge list. Weights are any [`DenseWeight`]: `i64`, `i128` or [`Wide<N>`] (a
//!   `64*N`-bit two's complement integer for lexicographic weights built by shifting
//!   criteria into fields).
//! * [`cardinality`] — maximum-cardinality matching: the incremental bitset [`Matcher`]
//!   ("can the rest still all be paired?"), the one-shot [`maximum_matching`],
//!   [`has_perfect_matching`], [`maximum_matching_size`] on an adjacency predicate, and the
//!   Gallai-Edmonds set [`uncoverable`].
//!
//! Tests compare both with an exhaustive oracle (`brute`, test-only) on random graphs and
//! check the weighted engine's dual certificate on larger ones.

pub mod cardinality;
pub mod weighted;
mod wide;

#[cfg(test)]
mod band_tests;
#[cfg(test)]
mod brute;
#[cfg(test)]
mod certificate_tests;
#[cfg(test)]
pub(crate) mod tests;

pub use cardinality::{
    Adjacency, BitGraph, Matcher, has_perfect_matching, maximum_matching, maximum_matching_size,
    uncoverable,
};
pub use weighted::{DenseWeight, DynamicError, DynamicMatching, WeightSource, max_weight_matching};
pub use wide::Wide;
