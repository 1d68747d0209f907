//! What the caller gives the engine and gets back: the exact integer weights
//! ([`DenseWeight`]: `i64`, `i128`, [`Wide<N>`](crate::matching::Wide)), where they are
//! read ([`WeightSource`]), and the errors ([`DynamicError`]). The headroom rule is in
//! docs/incremental-matching.md, "Exactness".
use core::fmt::Debug;

use crate::matching::Wide;

/// An exact integer weight for [`DynamicMatching`].
pub trait DenseWeight: Copy + Ord + Debug + Default {
    const ZERO: Self;
    fn wadd(self, rhs: Self) -> Self;
    fn wsub(self, rhs: Self) -> Self;
    fn twice(self) -> Self {
        self.wadd(self)
    }
    /// `self / 2` for even non-negative values.
    fn halved(self) -> Self;
    /// Whether the value is small enough for the solver's intermediate sums.
    fn fits_headroom(self) -> bool;
}

/// The primitive weights: wrapping arithmetic, with `headroom` bits left for the solver's
/// intermediate sums.
macro_rules! dense_primitive {
    ($($t:ty => $unsigned:ty, $headroom:expr;)*) => {$(
        impl DenseWeight for $t {
            const ZERO: Self = 0;
            #[inline]
            fn wadd(self, rhs: Self) -> Self {
                self.wrapping_add(rhs)
            }
            #[inline]
            fn wsub(self, rhs: Self) -> Self {
                self.wrapping_sub(rhs)
            }
            #[inline]
            fn halved(self) -> Self {
                self >> 1
            }
            fn fits_headroom(self) -> bool {
                self.unsigned_abs() < (1 as $unsigned) << $headroom
            }
        }
    )*};
}

dense_primitive! {
    i64 => u64, 58;
    i128 => u128, 122;
}

impl<const N: usize> DenseWeight for Wide<N> {
    const ZERO: Self = Wide::ZERO;
    #[inline]
    fn wadd(self, rhs: Self) -> Self {
        self.wrapping_add(rhs)
    }
    #[inline]
    fn wsub(self, rhs: Self) -> Self {
        self.wrapping_sub(rhs)
    }
    #[inline]
    fn halved(self) -> Self {
        self.shr_floor(1)
    }
    fn fits_headroom(self) -> bool {
        let mag = if self.is_negative() {
            self.wrapping_neg()
        } else {
            self
        };
        // The top six bits of the magnitude must be clear.
        mag.0.last().is_none_or(|&top| top >> 58 == 0)
    }
}

/// Where the solver reads edge weights.
pub trait WeightSource<W> {
    /// The weight of edge `{a, b}` (`a != b`, symmetric); `<= 0` means no edge.
    fn weight(&self, a: usize, b: usize) -> W;

    /// The weights of edges `{a, b}` for each `b` of `bs`, in order, into `out` (cleared
    /// first). The solver reads a vertex's whole row at once, so a source can look up
    /// what the row's edges share once instead of per edge; the values must be
    /// `weight`'s.
    fn weights_from(&self, a: usize, bs: &[u32], out: &mut Vec<W>) {
        out.clear();
        out.extend(bs.iter().map(|&b| self.weight(a, b as usize)));
    }
}

/// A dense row-major matrix of weights is the simplest source.
impl<W: Copy> WeightSource<W> for (usize, &[W]) {
    fn weight(&self, a: usize, b: usize) -> W {
        self.1[a * self.0 + b]
    }
}

/// The solver reached a state that contradicts its invariants (a bug, reported instead of
/// a panic), or a weight beyond the supported range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DynamicError {
    WeightTooLarge {
        a: usize,
        b: usize,
    },
    /// One-shot input: edge `edge` has an endpoint `vertex >= n`. (No `n` here: the
    /// error stays two words, so that the engine's `Result`s in its inner loops keep
    /// their size.)
    VertexOutOfRange {
        edge: usize,
        vertex: usize,
    },
    /// One-shot input: edge `edge` joins `vertex` to itself.
    SelfLoop {
        edge: usize,
        vertex: usize,
    },
    Internal(&'static str),
}

impl core::fmt::Display for DynamicError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            DynamicError::WeightTooLarge { a, b } => {
                write!(f, "edge weight {a}-{b} exceeds the weight type's range")
            }
            DynamicError::VertexOutOfRange { edge, vertex } => {
                write!(f, "edge {edge}: vertex {vertex} out of range")
            }
            DynamicError::SelfLoop { edge, vertex } => {
                write!(f, "edge {edge}: self loop at vertex {vertex}")
            }
            DynamicError::Internal(what) => write!(f, "internal matching error: {what}"),
        }
    }
}

impl std::error::Error for DynamicError {}
