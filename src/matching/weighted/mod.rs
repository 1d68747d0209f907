//! Incremental maximum-weight matching on a dense graph.
//!
//! [`DynamicMatching`] keeps an optimal matching *and its dual certificate* between calls,
//! so that after the weights of the edges at a few vertices change, the optimum is restored
//! by a handful of single-root primal-dual stages instead of a fresh O(n^3) solve. This is
//! what a pairing procedure that fixes one decision at a time needs (e.g. the Dutch system:
//! "give this player the first opponent that still allows an optimal pairing").
//!
//! # Model
//! Vertices are `0..n`. The weights are read through [`WeightSource`] on every access (the
//! caller owns them and may change them between calls); a weight `<= 0` means "no edge",
//! so an edge that is not worth anything is never used. The matching maximises the total
//! weight (not the cardinality; encode cardinality in the weights if it matters).
//! Vertices can be removed for good ([`DynamicMatching::remove`]), e.g. once a pair is
//! final.
//!
//! # Method
//! Edmonds' blossom algorithm in the primal-dual form (Galil 1986), kept in a state that
//! satisfies the optimality conditions: every dual is non-negative, every edge has
//! non-negative slack `u_a + u_b + sum z_B - 2w(ab)` (weights are doubled so that duals stay
//! integral), matched edges and the edges of blossom cycles are tight, and free vertices
//! have dual zero. When the edges at vertex `v` change, [`DynamicMatching::touch`] first
//! tries to keep the certificate (shift `u_v` so that `v`'s matched edge stays tight and
//! check `v`'s other edges); only if that fails is `v` *reset*: the blossoms holding `v` are
//! dissolved (their dual is pushed down onto their vertices, which keeps every edge
//! feasible), `v` is unmatched and its dual raised just enough for feasibility. The free
//! vertices whose dual is positive (`v`, its old mate, the bases of dissolved blossoms and
//! their mates) are then repaired one at a time by a stage that grows a single alternating
//! tree: it ends with an augmenting path to a free vertex, or, when the dual of some
//! outer vertex of the tree reaches zero, by flipping the even path from the root to that
//! vertex. Either way one more vertex satisfies the conditions and nothing else breaks.
//!
//! A stage costs O(n) per vertex that joins the tree and per dual adjustment, so an update
//! whose effect is local is cheap; the worst case is O(n^2) per stage, O(n^3) overall.
//!
//! All arithmetic is exact and unchecked for speed: the caller guarantees that weights stay
//! below `2^(BITS - 5)` of the weight type ([`DenseWeight::fits_headroom`]); duals never
//! exceed twice the largest doubled weight.
use core::fmt::Debug;

use super::Wide;

mod certificate;
mod classes;

pub use certificate::Certificate;

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

const NIL: u32 = u32::MAX;
/// From this many vertices the first solve pairs free vertices through a matched pair
/// (`DynamicMatching::pair_through_a_matched_pair`); below, the stages it saves are cheap.
const SHORT_PATHS_FROM: usize = 4096;
/// How many tight neighbours, and free vertices for each, that pass tries.
const SHORT_SCAN: usize = 64;
const FREE: u8 = 0;
const OUTER: u8 = 1;
const INNER: u8 = 2;

/// What a dual adjustment stopped at.
enum Event {
    /// An outer vertex's dual reached zero.
    ZeroDual(u32),
    /// Edge (outer vertex, vertex of an unlabelled blossom) became tight.
    ToFree(u32, u32),
    /// Edge between two outer blossoms became tight.
    Outer(u32, u32),
    /// An inner blossom's dual reached zero.
    Expand(u32),
}

/// An incremental maximum-weight matching; see the module documentation.
#[derive(Clone, Debug)]
pub struct DynamicMatching<W> {
    n: usize,
    removed: Vec<bool>,
    /// Active vertices (not removed), ascending.
    active: Vec<u32>,
    mate: Vec<u32>,
    /// `dual[v]` for vertices `0..n`, `dual[b]` for blossoms `n..2n`.
    dual: Vec<W>,
    /// Top-level blossom of each vertex (the vertex itself when it is in none).
    top: Vec<u32>,
    parent: Vec<u32>,
    /// Sub-blossoms of a blossom in cycle order, the one holding the base first.
    childs: Vec<Vec<u32>>,
    /// `cycle[b][i] = (x, y)`: the edge from `x` in `childs[b][i]` to `y` in the next child.
    cycle: Vec<Vec<(u32, u32)>>,
    base: Vec<u32>,
    unused: Vec<u32>,
    // Stage state.
    label: Vec<u8>,
    /// Edge through which a labelled top-level blossom joined the tree: (parent side,
    /// own side); `(NIL, NIL)` for the root.
    label_edge: Vec<(u32, u32)>,
    /// For each vertex: the outer vertex with the least slack to it, and
    /// `u_s + shift - 2w` for that edge (see `slack_via_best`).
    best: Vec<u32>,
    best_key: Vec<W>,
    /// Sum of the dual adjustments of the current stage.
    shift: W,
    queue: Vec<u32>,
    /// Top-level blossoms labelled in this stage (may hold stale entries).
    labelled: Vec<u32>,
    in_labelled: Vec<bool>,
    mark: Vec<bool>,
    /// Opt-in ([`DynamicMatching::use_bands`]): for each vertex, the range of vertex ids
    /// `lo..hi` outside which it has no edge, so that scanning its edges skips the rest.
    /// Empty: every vertex may have an edge to every other one.
    band: Vec<(u32, u32)>,
    /// Opt-in ([`DynamicMatching::use_batch_reset`]): a `solve` after several touches
    /// resets them together (`solve_batch`).
    batch_reset: bool,
    /// Free vertices whose dual may be positive, to repair.
    pending: Vec<u32>,
    /// Vertices whose edges changed since the last `solve`.
    touched: Vec<u32>,
    is_touched: Vec<bool>,
    /// Not solved yet: the first `solve` starts from a greedy matching.
    fresh: bool,
    /// Vertex classes for the first solve (`weighted/classes.rs`).
    classes: Option<classes::Classes<W>>,
    /// Reused stack of the walks over a blossom's tree (leaves, tops), so that blossom
    /// bookkeeping allocates nothing.
    walk: Vec<u32>,
    /// Reused list of the blossoms holding a vertex (`free_vertex`).
    chain: Vec<u32>,
    /// Counters, for tuning.
    pub stats: DynamicStats,
}

/// Work counters.
#[derive(Clone, Copy, Debug, Default)]
pub struct DynamicStats {
    pub stages: u64,
    pub resets: u64,
    pub kept: u64,
    pub scans: u64,
    pub adjustments: u64,
    /// Blossoms shrunk, and inner blossoms expanded because their dual reached zero.
    pub blossoms: u64,
    pub expansions: u64,
}

impl<W: DenseWeight> DynamicMatching<W> {
    /// An empty matching on `n` vertices; call [`DynamicMatching::solve`] to compute the
    /// optimum of the source's weights.
    pub fn new(n: usize) -> DynamicMatching<W> {
        DynamicMatching {
            n,
            removed: vec![false; n],
            active: (0..n as u32).collect(),
            mate: vec![NIL; n],
            dual: vec![W::ZERO; 2 * n],
            top: (0..n as u32).collect(),
            parent: vec![NIL; 2 * n],
            childs: vec![Vec::new(); 2 * n],
            cycle: vec![Vec::new(); 2 * n],
            base: (0..2 * n as u32)
                .map(|b| if (b as usize) < n { b } else { NIL })
                .collect(),
            unused: (n as u32..2 * n as u32).rev().collect(),
            label: vec![FREE; 2 * n],
            label_edge: vec![(NIL, NIL); 2 * n],
            best: vec![NIL; n],
            best_key: vec![W::ZERO; n],
            shift: W::ZERO,
            queue: Vec::new(),
            labelled: Vec::new(),
            in_labelled: vec![false; 2 * n],
            mark: vec![false; 2 * n],
            band: Vec::new(),
            batch_reset: false,
            pending: Vec::new(),
            touched: Vec::new(),
            is_touched: vec![false; n],
            fresh: true,
            classes: None,
            walk: Vec::new(),
            chain: Vec::new(),
            stats: DynamicStats::default(),
        }
    }

    pub fn len(&self) -> usize {
        self.n
    }

    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The dual of vertex `v` (duals are of doubled weights): vertices alike in their
    /// edges and their dual are alike in every slack, which a caller may group by.
    pub fn dual(&self, v: usize) -> Option<W> {
        (v < self.n).then(|| self.dual[v])
    }

    /// The mate of `v` in the current optimum.
    pub fn mate(&self, v: usize) -> Option<usize> {
        match self.mate.get(v) {
            Some(&m) if m != NIL => Some(m as usize),
            _ => None,
        }
    }

    /// Opts in to edge bands: from now on the caller declares, with
    /// [`DynamicMatching::widen_band`], every pair it gives a positive weight, before the
    /// next `solve`; the scans of a vertex's edges then read only the vertex ids between its
    /// lowest and highest declared neighbour. The weights outside are all `<= 0` (no edge),
    /// which every scan skips anyway, so the matching is the same step by step, only the
    /// scans are shorter when the edges at each vertex lie in a narrow range of ids (a
    /// pairing graph whose edges join neighbouring score groups).
    pub fn use_bands(&mut self) {
        self.band = vec![(NIL, 0); self.n];
    }

    /// Opts in to batch resets: a `solve` after touching several vertices frees those that
    /// cannot keep the certificate together, with every free vertex, and warm-starts them
    /// as the first solve does (`solve_batch`). The optimum is the same in weight; which
    /// optimal matching is held may differ.
    pub fn use_batch_reset(&mut self) {
        self.batch_reset = true;
    }

    /// Forgets the matching, its duals and blossoms (removed vertices stay removed): the
    /// next `solve` starts afresh, as the first one does. For a caller that has changed
    /// so much that repairing costs more than starting over.
    pub fn restart(&mut self) {
        let n = self.n;
        for v in 0..n {
            self.mate[v] = NIL;
            self.top[v] = v as u32;
            self.is_touched[v] = false;
        }
        self.dual.iter_mut().for_each(|d| *d = W::ZERO);
        self.parent.iter_mut().for_each(|p| *p = NIL);
        self.childs.iter_mut().for_each(Vec::clear);
        self.cycle.iter_mut().for_each(Vec::clear);
        for b in n..2 * n {
            self.base[b] = NIL;
        }
        self.label.iter_mut().for_each(|l| *l = FREE);
        self.unused = (n as u32..2 * n as u32).rev().collect();
        self.pending.clear();
        self.touched.clear();
        self.fresh = true;
    }

    /// Declares that edge `ab` may have a positive weight (see
    /// [`DynamicMatching::use_bands`]); nothing without bands.
    pub fn widen_band(&mut self, a: usize, b: usize) {
        if a >= self.band.len() || b >= self.band.len() {
            return;
        }
        for (x, y) in [(a, b as u32), (b, a as u32)] {
            let (lo, hi) = &mut self.band[x];
            *lo = (*lo).min(y);
            *hi = (*hi).max(y + 1);
        }
    }

    /// The positions in `active` of the vertices that may have an edge to `v`.
    #[inline]
    fn row(&self, v: u32) -> core::ops::Range<usize> {
        let Some(&(lo, hi)) = self.band.get(v as usize) else {
            return 0..self.active.len();
        };
        if lo >= hi {
            return 0..0;
        }
        self.active.partition_point(|&x| x < lo)..self.active.partition_point(|&x| x < hi)
    }

    /// Raises `v`'s dual by `by` (`>= 0`), an opt-in warm start for a caller that raises
    /// the weights of the edges among a set of vertices together: with both ends raised by
    /// `by`, an edge whose weight rose by at most `by` stays feasible (duals are of doubled
    /// weights), and edges out of the set gain slack. The caller then `touch`es every
    /// vertex of the set where the certificate may no longer hold: one with an edge that
    /// rose by more, a free one (its dual must be zero), one in a blossom (blossom edges
    /// must be tight), one whose matched edge is no longer tight ([`DynamicMatching::slack`]).
    pub fn raise_dual(&mut self, v: usize, by: W) {
        if v < self.n && !self.removed[v] && by > W::ZERO {
            self.dual[v] = self.dual[v].wadd(by);
        }
    }

    /// Whether `v` was removed.
    pub fn is_removed(&self, v: usize) -> bool {
        self.removed.get(v).copied().unwrap_or(true)
    }

    /// The weights of edges at `v` changed: the next `solve` restores the optimum.
    pub fn touch(&mut self, v: usize) {
        if v < self.n && !self.removed[v] && !self.is_touched[v] {
            self.is_touched[v] = true;
            self.touched.push(v as u32);
        }
    }

    /// Removes `v` for good (its edges no longer exist). If it was matched, its mate is
    /// freed and repaired at the next `solve`.
    pub fn remove(&mut self, v: usize) {
        if v >= self.n || self.removed[v] {
            return;
        }
        self.detach(v as u32);
        self.removed[v] = true;
        // `active` is ascending (vertices are only ever removed).
        if let Ok(k) = self.active.binary_search(&(v as u32)) {
            self.active.remove(k);
        }
    }

    /// The doubled slack `u_a + u_b + Σ z_B − 2·w(ab)` of edge `ab` under the current dual
    /// certificate (the sum over the blossoms holding both), or `None` when `ab` is no
    /// edge (weight `<= 0`, a vertex removed). Right after [`DynamicMatching::solve`] the
    /// certificate is optimal: an edge with positive slack is in no maximum-weight
    /// matching.
    pub fn slack<S: WeightSource<W>>(
        &self,
        ws: &S,
        a: usize,
        b: usize,
    ) -> Result<Option<W>, DynamicError> {
        if a >= self.n || b >= self.n || a == b || self.removed[a] || self.removed[b] {
            return Ok(None);
        }
        let d = self.doubled(ws, a as u32, b as u32)?;
        if d <= W::ZERO {
            return Ok(None);
        }
        let mut s = self.dual[a].wadd(self.dual[b]);
        // The blossoms holding both: the common ancestors.
        let mut x = self.parent[a];
        while x != NIL {
            let mut y = self.parent[b];
            while y != NIL && y != x {
                y = self.parent[y as usize];
            }
            if y == x {
                s = s.wadd(self.dual[x as usize]);
            }
            x = self.parent[x as usize];
        }
        Ok(Some(s.wsub(d)))
    }

    /// Makes `ab` a matched edge by the smallest exchange that the current certificate
    /// proves optimal, keeping every dual: `ab` tight, then with `a'`, `b'` their mates,
    /// `a'b'` matched if tight, else `a'` and `b'` left free if their duals are zero (a
    /// free vertex must have dual zero). All four must be outside blossoms (a blossom's
    /// matching is tied to its structure). Complementary slackness then still holds, so
    /// the new matching is optimal too. Returns false, changing nothing, when no such
    /// exchange exists; call right after [`DynamicMatching::solve`].
    pub fn try_rematch<S: WeightSource<W>>(
        &mut self,
        ws: &S,
        a: usize,
        b: usize,
    ) -> Result<bool, DynamicError> {
        if !self.touched.is_empty() || self.pending.iter().any(|&p| self.needs_repair(p)) {
            return Ok(false);
        }
        if self.slack(ws, a, b)? != Some(W::ZERO) {
            return Ok(false);
        }
        if self.mate[a] == b as u32 {
            return Ok(true);
        }
        let (ma, mb) = (self.mate[a], self.mate[b]);
        let outside = |v: u32| v == NIL || self.top[v as usize] == v;
        if !outside(a as u32) || !outside(b as u32) || !outside(ma) || !outside(mb) {
            return Ok(false);
        }
        let closes = match (ma, mb) {
            (NIL, NIL) => true,
            (x, NIL) | (NIL, x) => self.dual[x as usize] == W::ZERO,
            (x, y) => {
                self.slack(ws, x as usize, y as usize)? == Some(W::ZERO)
                    || (self.dual[x as usize] == W::ZERO && self.dual[y as usize] == W::ZERO)
            }
        };
        if !closes {
            if ma == NIL || mb == NIL {
                return Ok(false);
            }
            return self.rematch_through_a_third_pair(ws, a, b, ma as usize, mb as usize);
        }
        let pair_rest =
            ma != NIL && mb != NIL && self.slack(ws, ma as usize, mb as usize)? == Some(W::ZERO);
        for x in [ma, mb] {
            if x != NIL {
                self.mate[x as usize] = NIL;
            }
        }
        self.mate[a] = b as u32;
        self.mate[b] = a as u32;
        if pair_rest {
            self.mate[ma as usize] = mb;
            self.mate[mb as usize] = ma;
        }
        Ok(true)
    }

    /// [`DynamicMatching::try_rematch`] when the mates `ma` of `a` and `mb` of `b` cannot
    /// pair with each other: the exchange through a third matched pair `x y`, `ab`,
    /// `ma x` and `y mb` all tight, every vertex outside blossoms. The same vertices stay
    /// matched and every matched edge is tight, so complementary slackness holds and the
    /// matching is still optimal. One scan of `ma`'s row; the first such pair is taken
    /// (any optimum answers the caller's questions alike). Issue 22: on a 100,000-player
    /// open's brackets of 21,000 players, the art. 4.2 questions the certificate could not
    /// answer were all such 3-pair exchanges, each answered by a probe over the whole
    /// bracket instead (1-2 s each).
    fn rematch_through_a_third_pair<S: WeightSource<W>>(
        &mut self,
        ws: &S,
        a: usize,
        b: usize,
        ma: usize,
        mb: usize,
    ) -> Result<bool, DynamicError> {
        let skip = [a, b, ma, mb];
        for k in self.row(ma as u32) {
            let x = self.active[k] as usize;
            let y = self.mate[x];
            if skip.contains(&x)
                || y == NIL
                || skip.contains(&(y as usize))
                || self.top[x] != x as u32
                || self.top[y as usize] != y
            {
                continue;
            }
            if self.slack(ws, ma, x)? == Some(W::ZERO)
                && self.slack(ws, y as usize, mb)? == Some(W::ZERO)
            {
                let y = y as usize;
                self.mate[a] = b as u32;
                self.mate[b] = a as u32;
                self.mate[ma] = x as u32;
                self.mate[x] = ma as u32;
                self.mate[y] = mb as u32;
                self.mate[mb] = y as u32;
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Replaces the matching on the vertices of `pairs` by `pairs`, keeping every dual,
    /// when the certificate proves the result optimal: the current matching pairs those
    /// vertices among themselves, none is in a blossom, and every pair is a tight edge
    /// (complementary slackness then still holds). Returns false, changing nothing,
    /// otherwise; call right after [`DynamicMatching::solve`].
    pub fn try_replace<S: WeightSource<W>>(
        &mut self,
        ws: &S,
        pairs: &[(usize, usize)],
    ) -> Result<bool, DynamicError> {
        if !self.touched.is_empty() || self.pending.iter().any(|&p| self.needs_repair(p)) {
            return Ok(false);
        }
        let mut inside = vec![false; self.n];
        for &(a, b) in pairs {
            for v in [a, b] {
                if v >= self.n || self.removed[v] || inside[v] || self.top[v] != v as u32 {
                    return Ok(false);
                }
                inside[v] = true;
            }
        }
        for &(a, b) in pairs {
            for v in [a, b] {
                let m = self.mate[v];
                if m == NIL || !inside[m as usize] {
                    return Ok(false);
                }
            }
            if self.slack(ws, a, b)? != Some(W::ZERO) {
                return Ok(false);
            }
        }
        for &(a, b) in pairs {
            self.mate[a] = b as u32;
            self.mate[b] = a as u32;
        }
        Ok(true)
    }

    /// Whether `v` is in a blossom (its matching then follows the blossom's structure).
    pub fn in_blossom(&self, v: usize) -> bool {
        v < self.n && self.top[v] != v as u32
    }

    /// Whether `v` is a free vertex with a positive dual (a pending repair).
    fn needs_repair(&self, v: u32) -> bool {
        let vi = v as usize;
        !self.removed[vi] && self.mate[vi] == NIL && self.dual[vi] > W::ZERO
    }

    /// Restores the optimum after `touch`/`remove` (or computes it the first time).
    pub fn solve<S: WeightSource<W>>(&mut self, ws: &S) -> Result<(), DynamicError> {
        if self.fresh {
            self.fresh = false;
            self.start(ws)?;
        }
        let touched = std::mem::take(&mut self.touched);
        for &v in &touched {
            self.is_touched[v as usize] = false;
        }
        crate::cancel::checkpoint();
        if self.batch_reset && touched.len() > 1 {
            return self.solve_batch(ws, touched);
        }
        for &v in &touched {
            if self.removed[v as usize] {
                continue;
            }
            if !self.keep_certificate(ws, v)? {
                self.stats.resets += 1;
                self.detach(v);
                self.dual[v as usize] = self.least_feasible_dual(ws, v, self.row(v))?;
                self.pending.push(v);
            } else {
                self.stats.kept += 1;
            }
        }
        self.repair_pending(ws)
    }

    /// `solve` after several touches (opt-in, [`DynamicMatching::use_batch_reset`]). The
    /// touched vertices that cannot keep the certificate are freed together and, with every
    /// other free vertex, get their duals as the first solve gives them: the heaviest edge
    /// at the vertex, then lowered to the least feasible dual one vertex after the other,
    /// so that an edge between two of them that is the heaviest at both ends is tight; the
    /// tight edges between free vertices are then matched greedily and the stages repair
    /// the rest. Reset one by one against the others' old duals, a vertex next to a free
    /// vertex of dual zero (a newcomer not yet reset, a player left unpaired) keeps the
    /// full weight of their edge as its dual, tight to no one, and its stage grows a tree
    /// through the whole matched field.
    ///
    /// Every step keeps the certificate valid: the lowered duals are feasible by
    /// construction (each is the least that covers every edge at the vertex against the
    /// current duals, and a later one covers its edge to an earlier one), the greedy pairs
    /// are tight, and the stages restore optimality. Which optimal matching is held may
    /// differ from resetting one by one, never its weight.
    fn solve_batch<S: WeightSource<W>>(
        &mut self,
        ws: &S,
        touched: Vec<u32>,
    ) -> Result<(), DynamicError> {
        let mut batch: Vec<u32> = Vec::new();
        for &v in &touched {
            if self.removed[v as usize] {
                continue;
            }
            if self.keep_certificate(ws, v)? {
                self.stats.kept += 1;
                continue;
            }
            self.stats.resets += 1;
            self.detach(v);
            batch.push(v);
        }
        if batch.is_empty() {
            return self.repair_pending(ws);
        }
        // `mark` is all false here (`add_blossom` clears what it sets).
        for &v in &batch {
            self.mark[v as usize] = true;
        }
        for k in 0..self.active.len() {
            let v = self.active[k];
            let vi = v as usize;
            if !self.mark[vi]
                && self.mate[vi] == NIL
                && self.top[vi] == v
                && !self.row(v).is_empty()
            {
                self.mark[vi] = true;
                batch.push(v);
            }
        }
        for &v in &batch {
            self.mark[v as usize] = false;
            self.dual[v as usize] = self.heaviest_edge(ws, v, self.row(v))?;
        }
        for &v in &batch {
            self.dual[v as usize] = self.least_feasible_dual(ws, v, self.row(v))?;
        }
        for &v in &batch {
            let vi = v as usize;
            if self.mate[vi] != NIL || self.dual[vi] <= W::ZERO || self.top[vi] != v {
                continue;
            }
            self.pair_first_tight(ws, v, self.row(v))?;
        }
        self.pending.extend(batch.iter().rev());
        self.repair_pending(ws)
    }

    /// Matches free vertex `v` with the first free vertex outside blossoms among
    /// `self.active[positions]` joined to it by a tight edge, if any (an augmenting path of
    /// one edge: every dual stays, and both ends satisfy the conditions).
    fn pair_first_tight<S: WeightSource<W>>(
        &mut self,
        ws: &S,
        v: u32,
        positions: core::ops::Range<usize>,
    ) -> Result<(), DynamicError> {
        let vi = v as usize;
        for k in positions {
            let w = self.active[k];
            let wi = w as usize;
            if w == v || self.mate[wi] != NIL || self.top[wi] != w {
                continue;
            }
            if self.tight_without_blossoms(ws, v, w)? {
                self.mate[vi] = w;
                self.mate[wi] = v;
                break;
            }
        }
        Ok(())
    }

    /// Dissolves the blossoms holding `v` and unmatches it; its old mate is queued for
    /// repair.
    fn detach(&mut self, v: u32) {
        self.free_vertex(v);
        let m = self.mate[v as usize];
        if m != NIL {
            self.mate[v as usize] = NIL;
            self.mate[m as usize] = NIL;
            self.pending.push(m);
        }
    }

    /// One stage from each free vertex of positive dual left, in queue order.
    fn repair_pending<S: WeightSource<W>>(&mut self, ws: &S) -> Result<(), DynamicError> {
        while let Some(root) = self.next_root() {
            self.stage(ws, root)?;
        }
        Ok(())
    }

    /// The first solve: every dual at the heaviest edge at its vertex (feasible), lowered
    /// to the least feasible one vertex after the other, then
    /// a greedy matching of the edges that this makes tight (each the heaviest at both
    /// ends); the stages only repair what the greedy pass left.
    fn start<S: WeightSource<W>>(&mut self, ws: &S) -> Result<(), DynamicError> {
        if let Some(class) = self.classes.take()
            && self.start_by_class(ws, &class)?
        {
            return self.finish_start(ws);
        }
        for k in 0..self.active.len() {
            let v = self.active[k];
            crate::cancel::checkpoint();
            self.dual[v as usize] = self.heaviest_edge(ws, v, 0..self.active.len())?;
        }
        // Each dual lowered, one vertex after the other, to the least that keeps its edges
        // feasible. Weights with a part that belongs to one end (a bonus of the vertex,
        // as many lexicographic criteria have) then get one tight edge per vertex instead
        // of a few, and the greedy pass below leaves little for the stages.
        for k in 0..self.active.len() {
            let v = self.active[k];
            crate::cancel::checkpoint();
            self.dual[v as usize] = self.least_feasible_dual(ws, v, 0..self.active.len())?;
        }
        self.finish_start(ws)
    }

    /// The heaviest weight of `v`'s edges to `self.active[others]` (zero without edges):
    /// a dual that, at both ends, makes every edge feasible.
    fn heaviest_edge<S: WeightSource<W>>(
        &self,
        ws: &S,
        v: u32,
        others: core::ops::Range<usize>,
    ) -> Result<W, DynamicError> {
        let mut u = W::ZERO;
        for &w in &self.active[others] {
            if w != v {
                let x = ws.weight(v as usize, w as usize);
                if x > u {
                    u = x;
                }
            }
        }
        if !u.fits_headroom() {
            return Err(DynamicError::WeightTooLarge {
                a: v as usize,
                b: v as usize,
            });
        }
        Ok(u)
    }

    /// The least dual of `v` that keeps its edges to `self.active[others]` feasible
    /// against their current duals.
    fn least_feasible_dual<S: WeightSource<W>>(
        &self,
        ws: &S,
        v: u32,
        others: core::ops::Range<usize>,
    ) -> Result<W, DynamicError> {
        let mut u = W::ZERO;
        for &w in &self.active[others] {
            if w == v {
                continue;
            }
            let d = self.doubled(ws, v, w)?;
            if d > W::ZERO {
                let need = d.wsub(self.dual[w as usize]);
                if need > u {
                    u = need;
                }
            }
        }
        Ok(u)
    }

    /// The end of the first solve, once every dual is feasible (and some tight edges
    /// matched): a greedy matching of the tight edges between free vertices, the shared
    /// adjustments, and the free vertices of positive dual left to the stages.
    fn finish_start<S: WeightSource<W>>(&mut self, ws: &S) -> Result<(), DynamicError> {
        for k in 0..self.active.len() {
            crate::cancel::checkpoint();
            let v = self.active[k];
            let vi = v as usize;
            if self.mate[vi] != NIL || self.dual[vi] <= W::ZERO {
                continue;
            }
            self.pair_first_tight(ws, v, k + 1..self.active.len())?;
        }
        if self.active.len() > SHORT_PATHS_FROM {
            self.pair_through_a_matched_pair(ws)?;
        }
        self.start_phases(ws)?;
        for k in (0..self.active.len()).rev() {
            let v = self.active[k];
            if self.mate[v as usize] == NIL && self.dual[v as usize] > W::ZERO {
                self.pending.push(v);
            }
        }
        Ok(())
    }

    /// Whether `ab` is an edge made tight by the two vertex duals alone (the first solve,
    /// before any blossom).
    fn tight_without_blossoms<S: WeightSource<W>>(
        &self,
        ws: &S,
        a: u32,
        b: u32,
    ) -> Result<bool, DynamicError> {
        let d = self.doubled(ws, a, b)?;
        Ok(d > W::ZERO && self.dual[a as usize].wadd(self.dual[b as usize]) == d)
    }

    /// The active vertices left free with a positive dual (the first solve's work left).
    fn free_with_positive_dual(&self) -> Vec<u32> {
        self.active
            .iter()
            .copied()
            .filter(|&v| self.mate[v as usize] == NIL && self.dual[v as usize] > W::ZERO)
            .collect()
    }

    /// After the greedy pass of a large first solve (no blossoms yet): free vertices of
    /// positive dual paired two at a time through one matched pair, `x o1` and `o2 y`
    /// tight with `o1 o2` matched becoming `x o1` and `o2 y` (an augmenting path of
    /// length three; every matched edge stays tight, no dual changes). Each free vertex
    /// tries at most [`SHORT_SCAN`] tight neighbours and, for each, as many free vertices
    /// after it. Vertices that cannot pair among themselves (players C3 keeps apart, in a
    /// completion check) are otherwise left to the greedy pass in order: a surplus of
    /// them at the end then costs one alternating-tree stage each, every stage O(n)
    /// (issue 22: 80 s in a 100,000-player open's last round).
    fn pair_through_a_matched_pair<S: WeightSource<W>>(
        &mut self,
        ws: &S,
    ) -> Result<(), DynamicError> {
        let free = self.free_with_positive_dual();
        // Where the last exchange was found: the next free vertex starts looking there,
        // past the matched pairs the earlier ones already turned.
        let mut cursor = 0;
        for (i, &x) in free.iter().enumerate() {
            crate::cancel::checkpoint();
            if self.mate[x as usize] != NIL {
                continue;
            }
            let mut tried = 0;
            let row = self.row(x);
            let from = cursor.clamp(row.start, row.end);
            'neighbours: for k in (from..row.end).chain(row.start..from) {
                if tried == SHORT_SCAN {
                    break;
                }
                let o1 = self.active[k];
                let o2 = self.mate[o1 as usize];
                if o1 == x || o2 == NIL || !self.tight_without_blossoms(ws, x, o1)? {
                    continue;
                }
                tried += 1;
                let mut looked = 0;
                for &y in &free[i + 1..] {
                    if looked == SHORT_SCAN {
                        break;
                    }
                    if self.mate[y as usize] != NIL {
                        continue;
                    }
                    looked += 1;
                    if self.tight_without_blossoms(ws, o2, y)? {
                        cursor = k + 1;
                        self.mate[x as usize] = o1;
                        self.mate[o1 as usize] = x;
                        self.mate[o2 as usize] = y;
                        self.mate[y as usize] = o2;
                        break 'neighbours;
                    }
                }
            }
        }
        Ok(())
    }

    /// After the greedy pass of the first solve (no blossoms yet): dual adjustments shared
    /// by all free vertices of positive dual at once, each followed by a greedy pairing of
    /// the free vertices that became tight to each other. A stage grows one tree and pays
    /// O(n²) for one free vertex; when many free vertices need the same adjustment (a
    /// surplus of one class of vertices that must be paired among themselves, e.g. more
    /// players wanting White than Black), one shared adjustment serves them all.
    ///
    /// Each adjustment is a stage's, with every free vertex a root: outer vertices (the
    /// roots and the mates of inner ones) go down by δ, inner ones (matched vertices tight
    /// to an outer one) up by δ, δ the least of the outer duals, the slacks from outer to
    /// unlabelled vertices and half the slacks between outer ones. Every edge stays
    /// feasible and every matched edge tight. It stops at the first tight edge between
    /// outer vertices or from an outer vertex to a free one (an augmenting path or a
    /// blossom: the stages' work), when δ is zero, or after a few rounds.
    fn start_phases<S: WeightSource<W>>(&mut self, ws: &S) -> Result<(), DynamicError> {
        const PHASES: usize = 16;
        let n = self.n;
        let mut lab = vec![FREE; n];
        // The tree of each labelled vertex (an index into `roots`), trees joined when a
        // tight edge links them (they must move together), and blocked ones.
        let mut tree = vec![NIL; n];
        let mut outer: Vec<u32> = Vec::new();
        fn find(link: &mut [u32], mut t: u32) -> u32 {
            while link[t as usize] != t {
                let up = link[link[t as usize] as usize];
                link[t as usize] = up;
                t = up;
            }
            t
        }
        for _ in 0..PHASES {
            crate::cancel::checkpoint();
            // Free vertices tight to each other: paired.
            let free = self.free_with_positive_dual();
            for (i, &v) in free.iter().enumerate() {
                if self.mate[v as usize] != NIL {
                    continue;
                }
                for &w in &free[i + 1..] {
                    if self.mate[w as usize] != NIL {
                        continue;
                    }
                    if self.tight_without_blossoms(ws, v, w)? {
                        self.mate[v as usize] = w;
                        self.mate[w as usize] = v;
                        break;
                    }
                }
            }
            // Label from every free vertex of positive dual, one tree each.
            lab.fill(FREE);
            tree.fill(NIL);
            outer.clear();
            for &v in &free {
                if self.mate[v as usize] == NIL {
                    tree[v as usize] = outer.len() as u32;
                    lab[v as usize] = OUTER;
                    outer.push(v);
                }
            }
            let roots = outer.len();
            if roots == 0 {
                return Ok(());
            }
            let mut link: Vec<u32> = (0..roots as u32).collect();
            let mut blocked = vec![false; roots];
            let mut head = 0;
            while head < outer.len() {
                let x = outer[head];
                head += 1;
                let tx = tree[x as usize];
                let ux = self.dual[x as usize];
                for k in 0..self.active.len() {
                    let y = self.active[k];
                    if y == x {
                        continue;
                    }
                    let d = self.doubled(ws, x, y)?;
                    if d <= W::ZERO || ux.wadd(self.dual[y as usize]) != d {
                        continue;
                    }
                    let yi = y as usize;
                    match lab[yi] {
                        // Linked through a tight edge: the trees move together.
                        INNER => {
                            let (a, b) = (find(&mut link, tx), find(&mut link, tree[yi]));
                            link[a as usize] = b;
                        }
                        // An augmenting path or a blossom: a stage's work.
                        OUTER => {
                            blocked[tx as usize] = true;
                            blocked[tree[yi] as usize] = true;
                        }
                        _ => {
                            let m = self.mate[yi];
                            if m == NIL {
                                blocked[tx as usize] = true;
                            } else {
                                lab[yi] = INNER;
                                tree[yi] = tx;
                                lab[m as usize] = OUTER;
                                tree[m as usize] = tx;
                                outer.push(m);
                            }
                        }
                    }
                }
            }
            // A tree moves only if nothing joined to it is blocked.
            let mut stuck = vec![false; roots];
            for t in 0..roots as u32 {
                if blocked[t as usize] {
                    let r = find(&mut link, t);
                    stuck[r as usize] = true;
                }
            }
            let mut moves = vec![false; n];
            let mut any = false;
            for &v in &self.active {
                let t = tree[v as usize];
                if t != NIL {
                    let r = find(&mut link, t);
                    if !stuck[r as usize] {
                        moves[v as usize] = true;
                        any = true;
                    }
                }
            }
            if !any {
                return Ok(());
            }
            // δ: over the outer vertices that move, their duals, their slacks to every
            // vertex that does not move, half their slacks to outer ones that do.
            let mut delta: Option<W> = None;
            let mut least = |d: W| {
                if delta.is_none_or(|cur| d < cur) {
                    delta = Some(d);
                }
            };
            for &x in &outer {
                if !moves[x as usize] {
                    continue;
                }
                let ux = self.dual[x as usize];
                least(ux);
                for &y in &self.active {
                    let yi = y as usize;
                    if y == x || (moves[yi] && lab[yi] == INNER) {
                        continue;
                    }
                    let d = self.doubled(ws, x, y)?;
                    if d <= W::ZERO {
                        continue;
                    }
                    let slack = ux.wadd(self.dual[yi]).wsub(d);
                    least(if moves[yi] { slack.halved() } else { slack });
                }
            }
            let Some(delta) = delta.filter(|&d| d > W::ZERO) else {
                return Ok(());
            };
            for &v in &self.active {
                if moves[v as usize] {
                    match lab[v as usize] {
                        OUTER => self.dual[v as usize] = self.dual[v as usize].wsub(delta),
                        INNER => self.dual[v as usize] = self.dual[v as usize].wadd(delta),
                        _ => {}
                    }
                }
            }
        }
        Ok(())
    }

    /// The next free vertex with a positive dual, if any.
    fn next_root(&mut self) -> Option<u32> {
        while let Some(v) = self.pending.pop() {
            let vi = v as usize;
            if self.removed[vi] || self.mate[vi] != NIL || self.dual[vi] <= W::ZERO {
                continue;
            }
            return Some(v);
        }
        None
    }

    #[inline]
    fn doubled<S: WeightSource<W>>(&self, ws: &S, a: u32, b: u32) -> Result<W, DynamicError> {
        let w = ws.weight(a as usize, b as usize);
        if w <= W::ZERO {
            return Ok(W::ZERO);
        }
        if !w.fits_headroom() {
            return Err(DynamicError::WeightTooLarge {
                a: a as usize,
                b: b as usize,
            });
        }
        Ok(w.twice())
    }

    /// After the edges at `v` changed: keeps the current matching optimal by shifting
    /// `v`'s dual, when that suffices. Returns false if `v` must be reset.
    fn keep_certificate<S: WeightSource<W>>(
        &mut self,
        ws: &S,
        v: u32,
    ) -> Result<bool, DynamicError> {
        let vi = v as usize;
        if self.top[vi] != v {
            return Ok(false);
        }
        let m = self.mate[vi];
        let u = if m == NIL {
            W::ZERO
        } else {
            let d = self.doubled(ws, v, m)?;
            if d <= W::ZERO {
                return Ok(false);
            }
            d.wsub(self.dual[m as usize])
        };
        if u < W::ZERO {
            return Ok(false);
        }
        for &w in &self.active[self.row(v)] {
            if w == v {
                continue;
            }
            let d = self.doubled(ws, v, w)?;
            if d > W::ZERO && u.wadd(self.dual[w as usize]) < d {
                return Ok(false);
            }
        }
        self.dual[vi] = u;
        Ok(true)
    }

    /// Dissolves every blossom holding `v` so that `v` is a top-level vertex. A dissolved
    /// blossom's dual is pushed onto its vertices (edges inside keep their slack); its base
    /// loses its outside mate, and both are queued for repair.
    ///
    /// The blossoms are dissolved from the top down. Each vertex gets the half duals of all
    /// the dissolved blossoms holding it, and its final top, in one walk: a vertex deep in
    /// nested blossoms is not revisited at every level (which costs the square of the
    /// nesting depth), and the sums are the same (exact arithmetic).
    fn free_vertex(&mut self, v: u32) {
        if self.top[v as usize] == v {
            return;
        }
        // The blossoms holding `v`, innermost first.
        let mut chain = std::mem::take(&mut self.chain);
        chain.clear();
        let mut x = self.parent[v as usize];
        while x != NIL {
            chain.push(x);
            x = self.parent[x as usize];
        }
        // The half duals of the blossoms dissolved so far, owed to `v`'s side.
        let mut carry = W::ZERO;
        for level in (0..chain.len()).rev() {
            let b = chain[level];
            // The child of `b` that holds `v`: dissolved next (or `v` itself).
            let inner = if level == 0 { v } else { chain[level - 1] };
            let base = self.base[b as usize];
            let m = self.mate[base as usize];
            if m != NIL {
                self.mate[base as usize] = NIL;
                self.mate[m as usize] = NIL;
                self.pending.push(m);
            }
            self.pending.push(base);
            let owed = carry.wadd(self.dual[b as usize].halved());
            self.dual[b as usize] = W::ZERO;
            let childs = std::mem::take(&mut self.childs[b as usize]);
            for &c in &childs {
                self.parent[c as usize] = NIL;
                if c == inner {
                    continue;
                }
                self.each_leaf(c, |m, y| {
                    let yi = y as usize;
                    m.dual[yi] = m.dual[yi].wadd(owed);
                    m.top[yi] = c;
                });
            }
            carry = owed;
            self.release(b);
        }
        let vi = v as usize;
        self.dual[vi] = self.dual[vi].wadd(carry);
        self.top[vi] = v;
        self.chain = chain;
    }

    fn release(&mut self, b: u32) {
        let bi = b as usize;
        self.childs[bi].clear();
        self.cycle[bi].clear();
        self.base[bi] = NIL;
        self.parent[bi] = NIL;
        self.label[bi] = FREE;
        self.dual[bi] = W::ZERO;
        self.unused.push(b);
    }

    fn leaves(&self, b: u32, out: &mut Vec<u32>) {
        if (b as usize) < self.n {
            out.push(b);
        } else {
            for &c in &self.childs[b as usize] {
                self.leaves(c, out);
            }
        }
    }

    /// Calls `f` on every vertex of `b` (`b` itself when it is a vertex), in the order of
    /// its cycles (the order of `leaves`): a walk with the reused stack, since blossoms
    /// nest deeply and this runs for every blossom made, expanded or dissolved.
    fn each_leaf(&mut self, b: u32, mut f: impl FnMut(&mut Self, u32)) {
        let mut walk = std::mem::take(&mut self.walk);
        walk.clear();
        walk.push(b);
        while let Some(x) = walk.pop() {
            let xi = x as usize;
            if xi < self.n {
                f(self, x);
            } else {
                walk.extend(self.childs[xi].iter().rev());
            }
        }
        self.walk = walk;
    }

    /// Makes `t` the top of every vertex of `b`.
    fn set_top(&mut self, b: u32, t: u32) {
        self.each_leaf(b, |m, x| m.top[x as usize] = t);
    }

    /// Queues the vertices of `b` for scanning, in the order of its cycles (the scans then
    /// run in the same order as with a collected list).
    fn queue_leaves(&mut self, b: u32) {
        self.each_leaf(b, |m, x| m.queue.push(x));
    }

    /// `u_s + u_x - 2w(s,x)` for the best outer vertex `s` recorded for `x`.
    #[inline]
    fn slack_via_best(&self, x: usize) -> W {
        self.best_key[x].wsub(self.shift).wadd(self.dual[x])
    }

    fn note_labelled(&mut self, b: u32) {
        if !self.in_labelled[b as usize] {
            self.in_labelled[b as usize] = true;
            self.labelled.push(b);
        }
    }

    /// Labels top-level blossom `b` outer and queues its vertices for scanning.
    fn make_outer(&mut self, b: u32, edge: (u32, u32)) {
        self.label[b as usize] = OUTER;
        self.label_edge[b as usize] = edge;
        self.note_labelled(b);
        self.queue_leaves(b);
    }

    /// One stage from free vertex `root` (positive dual).
    fn stage<S: WeightSource<W>>(&mut self, ws: &S, root: u32) -> Result<(), DynamicError> {
        self.stats.stages += 1;
        self.shift = W::ZERO;
        for &x in &self.active {
            self.best[x as usize] = NIL;
        }
        let rb = self.top[root as usize];
        if self.base[rb as usize] != root {
            return Err(DynamicError::Internal("free vertex is not a base"));
        }
        self.make_outer(rb, (NIL, NIL));
        let finished = loop {
            if self.scan_queue(ws)? {
                break true;
            }
            let event = self.adjust(ws)?;
            match event {
                Event::ZeroDual(x) => {
                    self.augment_from(x, NIL);
                    break true;
                }
                Event::ToFree(s, x) => {
                    if self.tight_to_unlabelled(s, x) {
                        break true;
                    }
                }
                Event::Outer(s, x) => self.add_blossom(s, x)?,
                Event::Expand(b) => self.expand_inner(b)?,
            }
        };
        debug_assert!(finished);
        self.end_stage();
        Ok(())
    }

    /// Scans queued outer vertices; true when the stage ended with an augmentation.
    fn scan_queue<S: WeightSource<W>>(&mut self, ws: &S) -> Result<bool, DynamicError> {
        while let Some(v) = self.queue.pop() {
            self.stats.scans += 1;
            crate::cancel::checkpoint();
            let vi = v as usize;
            let uv = self.dual[vi];
            let key_base = uv.wadd(self.shift);
            // Index loop: `active` is not modified during a stage.
            for k in self.row(v) {
                let w = self.active[k];
                if w == v {
                    continue;
                }
                let wi = w as usize;
                let d = self.doubled(ws, v, w)?;
                if d <= W::ZERO {
                    continue;
                }
                let bw = self.top[wi];
                if bw == self.top[vi] {
                    continue;
                }
                let key = key_base.wsub(d);
                if self.best[wi] == NIL || key < self.best_key[wi] {
                    self.best[wi] = v;
                    self.best_key[wi] = key;
                }
                let slack = uv.wadd(self.dual[wi]).wsub(d);
                if slack == W::ZERO {
                    let label = self.label[bw as usize];
                    match label {
                        FREE if self.tight_to_unlabelled(v, w) => return Ok(true),
                        OUTER => self.add_blossom(v, w)?,
                        _ => {}
                    }
                }
            }
        }
        Ok(false)
    }

    /// Outer vertex `s` has a tight edge to `x` in an unlabelled blossom: augment if that
    /// blossom is free, else grow the tree by it and its mate. True if augmented.
    fn tight_to_unlabelled(&mut self, s: u32, x: u32) -> bool {
        let bx = self.top[x as usize];
        let bbase = self.base[bx as usize];
        let m = self.mate[bbase as usize];
        if m == NIL {
            // Augmenting path: root ... s - x.
            if (bx as usize) >= self.n {
                self.augment_blossom(bx, x);
            }
            self.mate[x as usize] = s;
            self.augment_from(s, x);
            return true;
        }
        self.label[bx as usize] = INNER;
        self.label_edge[bx as usize] = (s, x);
        self.note_labelled(bx);
        let bm = self.top[m as usize];
        self.make_outer(bm, (bbase, m));
        false
    }

    /// Flips the alternating path from outer vertex `s` up to the root, giving `s` the
    /// new mate `j` (`NIL`: `s` becomes free).
    fn augment_from(&mut self, mut s: u32, mut j: u32) {
        loop {
            let bs = self.top[s as usize];
            if (bs as usize) >= self.n {
                self.augment_blossom(bs, s);
            }
            self.mate[s as usize] = j;
            let (t, _) = self.label_edge[bs as usize];
            if t == NIL {
                break;
            }
            let bt = self.top[t as usize];
            let (ps, tv) = self.label_edge[bt as usize];
            if (bt as usize) >= self.n {
                self.augment_blossom(bt, tv);
            }
            self.mate[tv as usize] = ps;
            s = ps;
            j = tv;
        }
    }

    /// Rotates blossom `b` so that its vertex `v` becomes the base, rematching inside.
    fn augment_blossom(&mut self, b: u32, v: u32) {
        let mut t = v;
        while self.parent[t as usize] != b {
            t = self.parent[t as usize];
        }
        if (t as usize) >= self.n {
            self.augment_blossom(t, v);
        }
        let bi = b as usize;
        let k = self.childs[bi].len();
        let Some(i) = self.childs[bi].iter().position(|&c| c == t) else {
            return;
        };
        if i % 2 == 1 {
            // Forward: rematch (i+1, i+2), ..., (k-1, 0).
            let mut j = i + 1;
            while j < k {
                let (x, y) = self.cycle[bi][j];
                let cx = self.childs[bi][j];
                let cy = self.childs[bi][(j + 1) % k];
                if (cx as usize) >= self.n {
                    self.augment_blossom(cx, x);
                }
                if (cy as usize) >= self.n {
                    self.augment_blossom(cy, y);
                }
                self.mate[x as usize] = y;
                self.mate[y as usize] = x;
                j += 2;
            }
        } else if i > 0 {
            // Backward: rematch (i-1, i-2), ..., (1, 0).
            let mut j = i;
            while j >= 2 {
                let e = j - 2;
                let (x, y) = self.cycle[bi][e];
                let cx = self.childs[bi][e];
                let cy = self.childs[bi][e + 1];
                if (cx as usize) >= self.n {
                    self.augment_blossom(cx, x);
                }
                if (cy as usize) >= self.n {
                    self.augment_blossom(cy, y);
                }
                self.mate[x as usize] = y;
                self.mate[y as usize] = x;
                j -= 2;
            }
        }
        self.childs[bi].rotate_left(i);
        self.cycle[bi].rotate_left(i);
        self.base[bi] = v;
    }

    /// Builds a blossom from the tight edge between outer vertices `v` and `w`.
    fn add_blossom(&mut self, v: u32, w: u32) -> Result<(), DynamicError> {
        self.stats.blossoms += 1;
        // Find the nearest common ancestor blossom.
        let mut path_marked: Vec<u32> = Vec::new();
        let mut a = self.top[v as usize];
        let mut b = self.top[w as usize];
        let mut common = NIL;
        let mut turn_a = true;
        loop {
            let cur = if turn_a { a } else { b };
            if cur != NIL {
                if self.mark[cur as usize] {
                    common = cur;
                    break;
                }
                self.mark[cur as usize] = true;
                path_marked.push(cur);
                let (t, _) = self.label_edge[cur as usize];
                let next = if t == NIL {
                    NIL
                } else {
                    let bt = self.top[t as usize];
                    let (ps, _) = self.label_edge[bt as usize];
                    self.top[ps as usize]
                };
                if turn_a {
                    a = next;
                } else {
                    b = next;
                }
            }
            if a == NIL && b == NIL {
                break;
            }
            turn_a = !turn_a;
        }
        for &x in &path_marked {
            self.mark[x as usize] = false;
        }
        if common == NIL {
            return Err(DynamicError::Internal("outer blossoms in different trees"));
        }
        let Some(nb) = self.unused.pop() else {
            return Err(DynamicError::Internal("out of blossom ids"));
        };
        let nbi = nb as usize;
        let mut childs = Vec::new();
        let mut cycle = Vec::new();
        // From v's side up to the common blossom (reversed afterwards).
        let mut bv = self.top[v as usize];
        while bv != common {
            childs.push(bv);
            let (p, q) = self.label_edge[bv as usize];
            cycle.push((p, q));
            bv = self.top[p as usize];
        }
        childs.push(common);
        childs.reverse();
        cycle.reverse();
        cycle.push((v, w));
        let mut bw = self.top[w as usize];
        while bw != common {
            childs.push(bw);
            let (p, q) = self.label_edge[bw as usize];
            cycle.push((q, p));
            bw = self.top[p as usize];
        }
        if childs.len() % 2 == 0 || childs.len() != cycle.len() {
            return Err(DynamicError::Internal("blossom cycle of even length"));
        }
        for &c in &childs {
            self.parent[c as usize] = nb;
        }
        self.base[nbi] = self.base[common as usize];
        self.dual[nbi] = W::ZERO;
        self.label[nbi] = OUTER;
        self.label_edge[nbi] = self.label_edge[common as usize];
        self.note_labelled(nb);
        // Inner sub-blossoms become outer: their vertices need scanning.
        for &c in &childs {
            if self.label[c as usize] == INNER {
                self.queue_leaves(c);
            }
        }
        self.childs[nbi] = childs;
        self.cycle[nbi] = cycle;
        self.set_top(nb, nb);
        Ok(())
    }

    /// Expands inner blossom `b` (dual zero) during a stage, relabelling the children on
    /// the even path from the entry child to the base child.
    fn expand_inner(&mut self, b: u32) -> Result<(), DynamicError> {
        self.stats.expansions += 1;
        let bi = b as usize;
        // Taken, not copied: nothing below reads `b`'s own lists, and `release` clears them.
        let childs = std::mem::take(&mut self.childs[bi]);
        let cycle = std::mem::take(&mut self.cycle[bi]);
        let (s, t) = self.label_edge[bi];
        for &c in &childs {
            self.parent[c as usize] = NIL;
            self.set_top(c, c);
            self.label[c as usize] = FREE;
        }
        let k = childs.len();
        let mut entry = t;
        while self.parent[entry as usize] != NIL {
            entry = self.parent[entry as usize];
        }
        let Some(i) = childs.iter().position(|&c| c == entry) else {
            return Err(DynamicError::Internal("entry child not found"));
        };
        // Inner child reached through `edge`: label it; its base's mate is outer.
        let mut edge = (s, t);
        if i % 2 == 1 {
            // Forward: i (T), i+1 (S), i+2 (T), ..., k == 0 (T).
            let mut j = i;
            while j < k {
                let c = childs[j];
                self.label[c as usize] = INNER;
                self.label_edge[c as usize] = edge;
                self.note_labelled(c);
                let c2 = childs[j + 1];
                let (x, y) = cycle[j];
                // The matched edge from c's base x to c2's base y.
                self.make_outer(c2, (x, y));
                let (x2, y2) = cycle[(j + 1) % k];
                edge = (x2, y2);
                j += 2;
            }
        } else {
            // Backward: i (T), i-1 (S), ..., 0 (T).
            let mut j = i;
            while j > 0 {
                let c = childs[j];
                self.label[c as usize] = INNER;
                self.label_edge[c as usize] = edge;
                self.note_labelled(c);
                let c2 = childs[j - 1];
                let (x, y) = cycle[j - 1];
                // cycle[j-1] = (x in c2, y in c): matched, y is c's base.
                self.make_outer(c2, (y, x));
                let (x2, y2) = cycle[j - 2];
                // cycle[j-2] = (x2 in childs[j-2], y2 in c2): c2 side first.
                edge = (y2, x2);
                j -= 2;
            }
        }
        let c0 = childs[0];
        self.label[c0 as usize] = INNER;
        self.label_edge[c0 as usize] = edge;
        self.note_labelled(c0);
        self.childs[bi] = childs;
        self.release(b);
        Ok(())
    }

    /// Adjusts the duals by the largest step that keeps the certificate, and returns the
    /// event that stopped it.
    fn adjust<S: WeightSource<W>>(&mut self, ws: &S) -> Result<Event, DynamicError> {
        self.stats.adjustments += 1;
        let mut delta: Option<W> = None;
        let mut event: Option<Event> = None;
        let consider = |d: W, e: Event, delta: &mut Option<W>, event: &mut Option<Event>| {
            if delta.is_none_or(|cur| d < cur) {
                *delta = Some(d);
                *event = Some(e);
            }
        };
        for k in 0..self.active.len() {
            let x = self.active[k];
            let xi = x as usize;
            let bx = self.top[xi];
            match self.label[bx as usize] {
                OUTER => {
                    consider(self.dual[xi], Event::ZeroDual(x), &mut delta, &mut event);
                    let mut s = self.best[xi];
                    if s != NIL && self.top[s as usize] == bx {
                        s = self.rescan_outer(ws, x)?;
                    }
                    if s != NIL {
                        let sl = self.slack_via_best(xi);
                        debug_assert!(
                            sl.halved().twice() == sl,
                            "odd slack between outer vertices"
                        );
                        consider(sl.halved(), Event::Outer(s, x), &mut delta, &mut event);
                    }
                }
                FREE => {
                    let s = self.best[xi];
                    if s != NIL {
                        let sl = self.slack_via_best(xi);
                        consider(sl, Event::ToFree(s, x), &mut delta, &mut event);
                    }
                }
                _ => {}
            }
        }
        for k in 0..self.labelled.len() {
            let b = self.labelled[k];
            let bi = b as usize;
            if bi >= self.n && self.parent[bi] == NIL && self.label[bi] == INNER {
                consider(
                    self.dual[bi].halved(),
                    Event::Expand(b),
                    &mut delta,
                    &mut event,
                );
            }
        }
        let (Some(delta), Some(event)) = (delta, event) else {
            return Err(DynamicError::Internal("no dual adjustment possible"));
        };
        if delta < W::ZERO {
            return Err(DynamicError::Internal("negative dual adjustment"));
        }
        if delta > W::ZERO {
            for k in 0..self.active.len() {
                let x = self.active[k] as usize;
                match self.label[self.top[x] as usize] {
                    OUTER => self.dual[x] = self.dual[x].wsub(delta),
                    INNER => self.dual[x] = self.dual[x].wadd(delta),
                    _ => {}
                }
            }
            let d2 = delta.twice();
            for k in 0..self.labelled.len() {
                let bi = self.labelled[k] as usize;
                if bi >= self.n && self.parent[bi] == NIL {
                    match self.label[bi] {
                        OUTER => self.dual[bi] = self.dual[bi].wadd(d2),
                        INNER => self.dual[bi] = self.dual[bi].wsub(d2),
                        _ => {}
                    }
                }
            }
            self.shift = self.shift.wadd(delta);
        }
        Ok(event)
    }

    /// Recomputes `best[x]` for outer vertex `x` over the outer vertices of other
    /// blossoms; returns it.
    fn rescan_outer<S: WeightSource<W>>(&mut self, ws: &S, x: u32) -> Result<u32, DynamicError> {
        let xi = x as usize;
        let bx = self.top[xi];
        let mut best = NIL;
        let mut best_key = W::ZERO;
        for k in self.row(x) {
            let s = self.active[k];
            let si = s as usize;
            let bs = self.top[si];
            if bs == bx || self.label[bs as usize] != OUTER {
                continue;
            }
            let d = self.doubled(ws, s, x)?;
            if d <= W::ZERO {
                continue;
            }
            let key = self.dual[si].wadd(self.shift).wsub(d);
            if best == NIL || key < best_key {
                best = s;
                best_key = key;
            }
        }
        self.best[xi] = best;
        self.best_key[xi] = best_key;
        Ok(best)
    }

    /// Clears the stage's labels; expands top-level outer blossoms whose dual is zero.
    fn end_stage(&mut self) {
        self.queue.clear();
        let labelled = std::mem::take(&mut self.labelled);
        for &b in &labelled {
            let bi = b as usize;
            if bi >= self.n
                && self.parent[bi] == NIL
                && self.label[bi] == OUTER
                && self.base[bi] != NIL
                && self.dual[bi] == W::ZERO
            {
                self.expand_quiet(b);
            }
        }
        for &b in &labelled {
            self.label[b as usize] = FREE;
            self.label_edge[b as usize] = (NIL, NIL);
            self.in_labelled[b as usize] = false;
        }
    }

    /// Expands a blossom outside a stage (its dual is zero), and its children with zero
    /// dual.
    /// A child expanded in turn gets no top of its own: its children's tops are set when
    /// it is expanded (once per vertex, not once per level of nesting).
    fn expand_quiet(&mut self, b: u32) {
        let childs = std::mem::take(&mut self.childs[b as usize]);
        for &c in &childs {
            self.parent[c as usize] = NIL;
            if (c as usize) < self.n || self.dual[c as usize] != W::ZERO {
                self.set_top(c, c);
            }
            self.label[c as usize] = FREE;
            self.label_edge[c as usize] = (NIL, NIL);
        }
        self.release(b);
        for &c in &childs {
            if (c as usize) >= self.n && self.dual[c as usize] == W::ZERO {
                self.expand_quiet(c);
            }
        }
    }

    /// Total weight of the current matching (for tests and explanations).
    pub fn total<S: WeightSource<W>>(&self, ws: &S) -> W {
        let mut t = W::ZERO;
        for v in 0..self.n {
            let m = self.mate[v];
            if m != NIL && (v as u32) < m {
                t = t.wadd(ws.weight(v, m as usize));
            }
        }
        t
    }

    /// Checks the optimality certificate (tests): feasibility, tight matched edges, zero
    /// duals on free vertices, full blossoms.
    pub fn verify<S: WeightSource<W>>(&self, ws: &S) -> Result<(), String> {
        let n = self.n;
        // Blossom memberships per vertex (list of ancestor blossoms).
        let mut anc: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (v, list) in anc.iter_mut().enumerate() {
            let mut b = self.parent[v];
            while b != NIL {
                list.push(b);
                b = self.parent[b as usize];
            }
        }
        for &a in &self.active {
            let ai = a as usize;
            if self.dual[ai] < W::ZERO {
                return Err(format!("negative dual at {a}"));
            }
            let m = self.mate[ai];
            if m == NIL && self.dual[ai] != W::ZERO {
                return Err(format!("free vertex {a} with positive dual"));
            }
            if m != NIL && (self.removed[m as usize] || self.mate[m as usize] != a) {
                return Err(format!("bad mate at {a}"));
            }
            for &b in &self.active {
                if b <= a {
                    continue;
                }
                let bi = b as usize;
                let w = ws.weight(ai, bi);
                let d = if w > W::ZERO { w.twice() } else { W::ZERO };
                let mut s = self.dual[ai].wadd(self.dual[bi]);
                for &x in &anc[ai] {
                    if anc[bi].contains(&x) {
                        s = s.wadd(self.dual[x as usize]);
                    }
                }
                if d > W::ZERO && s < d {
                    return Err(format!("infeasible edge {a}-{b}"));
                }
                if m == b && s != d {
                    return Err(format!("matched edge {a}-{b} not tight"));
                }
                if m == b && d <= W::ZERO {
                    return Err(format!("matched non-edge {a}-{b}"));
                }
            }
        }
        for b in n..2 * n {
            if self.base[b] == NIL {
                continue;
            }
            if self.dual[b] < W::ZERO {
                return Err(format!("negative blossom dual {b}"));
            }
            let mut leaves = Vec::new();
            self.leaves(b as u32, &mut leaves);
            let inside = leaves
                .iter()
                .filter(|&&x| {
                    let m = self.mate[x as usize];
                    m != NIL && leaves.contains(&m)
                })
                .count();
            if inside != leaves.len() - 1 {
                return Err(format!("blossom {b} not full"));
            }
        }
        Ok(())
    }
}

/// Maximum-weight matching of the graph on vertices `0..n` given as an edge list, in one
/// call: `mate[v] = Some(u)` if `v` is matched to `u`.
///
/// This is [`DynamicMatching`] solved once on a dense matrix of the edges (O(n^2) memory),
/// so there is a single weighted engine to test and trust. Parallel edges are allowed (the
/// heaviest copy counts), edges of weight `<= 0` are never used, self loops and endpoints
/// `>= n` are errors, and so is a weight outside [`DenseWeight::fits_headroom`]. Which of
/// several optimal matchings is returned is deterministic but unspecified.
pub fn max_weight_matching<W: DenseWeight>(
    n: usize,
    edges: &[(usize, usize, W)],
) -> Result<Vec<Option<usize>>, DynamicError> {
    let cells = n
        .checked_mul(n)
        .filter(|_| n < NIL as usize / 2)
        .ok_or(DynamicError::Internal("graph too large"))?;
    let mut matrix = vec![W::ZERO; cells];
    for (edge, &(a, b, w)) in edges.iter().enumerate() {
        for vertex in [a, b] {
            if vertex >= n {
                return Err(DynamicError::VertexOutOfRange { edge, vertex });
            }
        }
        if a == b {
            return Err(DynamicError::SelfLoop { edge, vertex: a });
        }
        if !w.fits_headroom() {
            return Err(DynamicError::WeightTooLarge { a, b });
        }
        if w > matrix[a * n + b] {
            matrix[a * n + b] = w;
            matrix[b * n + a] = w;
        }
    }
    let mut m = DynamicMatching::new(n);
    m.solve(&(n, &matrix[..]))?;
    Ok((0..n).map(|v| m.mate(v)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matching::brute::brute_force;
    use crate::matching::tests::SplitMix64;

    struct Mat {
        n: usize,
        w: Vec<i64>,
    }

    impl WeightSource<i64> for Mat {
        fn weight(&self, a: usize, b: usize) -> i64 {
            self.w[a * self.n + b]
        }
    }

    impl Mat {
        fn random(rng: &mut SplitMix64, n: usize, p: u64, max: u64) -> Mat {
            let mut w = vec![0; n * n];
            for i in 0..n {
                for j in i + 1..n {
                    if rng.below(100) < p {
                        let x = 1 + rng.below(max) as i64;
                        w[i * n + j] = x;
                        w[j * n + i] = x;
                    }
                }
            }
            Mat { n, w }
        }

        fn set(&mut self, a: usize, b: usize, x: i64) {
            self.w[a * self.n + b] = x;
            self.w[b * self.n + a] = x;
        }

        fn optimum(&self, removed: &[bool]) -> i64 {
            let keep: Vec<usize> = (0..self.n).filter(|&v| !removed[v]).collect();
            let mut edges = Vec::new();
            for (i, &a) in keep.iter().enumerate() {
                for (j, &b) in keep.iter().enumerate().skip(i + 1) {
                    let x = self.weight(a, b);
                    if x > 0 {
                        edges.push((i, j, x));
                    }
                }
            }
            brute_force(keep.len(), &edges).1
        }
    }

    fn check(m: &DynamicMatching<i64>, g: &Mat, removed: &[bool]) {
        if let Err(e) = m.verify(g) {
            panic!("certificate: {e}");
        }
        for v in 0..g.n {
            if let Some(u) = m.mate(v) {
                assert!(!removed[v] && !removed[u]);
                assert_eq!(m.mate(u), Some(v));
                assert!(g.weight(u, v) > 0);
            }
        }
        assert_eq!(m.total(g), g.optimum(removed));
    }

    #[test]
    fn fresh_solves_match_brute_force() {
        let mut rng = SplitMix64::new(7);
        for round in 0..400 {
            let n = 1 + rng.below(12) as usize;
            let p = [30, 60, 100][round % 3];
            let max = [3, 10, 1000][(round / 3) % 3];
            let g = Mat::random(&mut rng, n, p, max);
            let mut m = DynamicMatching::<i64>::new(n);
            m.solve(&g).expect("solves");
            check(&m, &g, &vec![false; n]);
        }
    }

    /// Gives a random number of `v`'s edges to live vertices a new weight (a quarter of
    /// them none).
    fn change_edges_at(rng: &mut SplitMix64, g: &mut Mat, v: usize, max: u64, removed: &[bool]) {
        let n = removed.len();
        for _ in 0..1 + rng.below(n as u64) {
            let u = rng.below(n as u64) as usize;
            if u == v || removed[u] {
                continue;
            }
            let x = if rng.below(4) == 0 {
                0
            } else {
                1 + rng.below(max) as i64
            };
            g.set(v, u, x);
        }
    }

    #[test]
    fn updates_and_removals_match_brute_force() {
        let mut rng = SplitMix64::new(11);
        for round in 0..(std::env::var("DYN_STRESS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(300usize))
        {
            let n = 2 + rng.below(11) as usize;
            let p = [40, 70, 100][round % 3];
            let max = [4, 50, 100_000][(round / 3) % 3];
            let mut g = Mat::random(&mut rng, n, p, max);
            let mut m = DynamicMatching::<i64>::new(n);
            m.solve(&g).expect("solves");
            let mut removed = vec![false; n];
            for _ in 0..20 {
                let op = rng.below(10);
                if op == 0 {
                    let v = rng.below(n as u64) as usize;
                    if !removed[v] {
                        m.remove(v);
                        removed[v] = true;
                    }
                } else {
                    // Change several edges at one vertex, or one edge anywhere.
                    let v = rng.below(n as u64) as usize;
                    if removed[v] {
                        continue;
                    }
                    change_edges_at(&mut rng, &mut g, v, max, &removed);
                    m.touch(v);
                }
                m.solve(&g).expect("solves");
                check(&m, &g, &removed);
            }
        }
    }

    #[test]
    fn batch_resets_and_restarts_match_brute_force() {
        // Several vertices touched before each solve (a score group joining, a bracket's
        // colour weights), some left unpaired at dual zero: `solve_batch` must end at an
        // optimum every time.
        let mut rng = SplitMix64::new(29);
        let (mut batches, mut restarts) = (0, 0);
        for round in 0..300usize {
            let n = 2 + rng.below(13) as usize;
            let p = [40, 70, 100][round % 3];
            let max = [4, 50, 100_000][(round / 3) % 3];
            let mut g = Mat::random(&mut rng, n, p, max);
            let mut m = DynamicMatching::<i64>::new(n);
            m.use_batch_reset();
            m.solve(&g).expect("solves");
            let mut removed = vec![false; n];
            for _ in 0..12 {
                if rng.below(8) == 0 {
                    let v = rng.below(n as u64) as usize;
                    if !removed[v] {
                        m.remove(v);
                        removed[v] = true;
                    }
                }
                let touched = 1 + rng.below(n as u64) as usize;
                for _ in 0..touched {
                    let v = rng.below(n as u64) as usize;
                    if removed[v] {
                        continue;
                    }
                    change_edges_at(&mut rng, &mut g, v, max, &removed);
                    m.touch(v);
                    batches += usize::from(touched > 1);
                }
                if rng.below(6) == 0 {
                    // Starting over must reach an optimum too.
                    m.restart();
                    restarts += 1;
                }
                m.solve(&g).expect("solves");
                check(&m, &g, &removed);
            }
        }
        assert!(batches > 1000, "batch solves exercised: {batches}");
        assert!(restarts > 300, "restarts exercised: {restarts}");
    }

    #[test]
    fn medium_graphs_match_a_fresh_solve() {
        let mut rng = SplitMix64::new(3);
        for round in 0..30 {
            let n = 20 + rng.below(40) as usize;
            let mut g = Mat::random(&mut rng, n, [20, 60, 100][round % 3], 1 << 20);
            let mut m = DynamicMatching::<i64>::new(n);
            m.solve(&g).expect("solves");
            for step in 0..30 {
                let expected = {
                    let mut edges = Vec::new();
                    for a in 0..n {
                        for b in a + 1..n {
                            if g.weight(a, b) > 0 {
                                edges.push((a, b, g.weight(a, b)));
                            }
                        }
                    }
                    // A fresh one-shot solve: the incremental repairs must reach the same
                    // optimum as solving from scratch.
                    let mates = max_weight_matching(n, &edges).expect("fresh");
                    let mut t = 0;
                    for (a, mb) in mates.iter().enumerate() {
                        if let Some(b) = *mb
                            && a < b
                        {
                            t += g.weight(a, b);
                        }
                    }
                    t
                };
                assert_eq!(m.total(&g), expected, "round {round} step {step}");
                m.verify(&g).expect("certificate");
                let v = rng.below(n as u64) as usize;
                for u in 0..n {
                    if u != v && rng.below(3) == 0 {
                        let x = if rng.below(3) == 0 {
                            0
                        } else {
                            1 + rng.below(1 << 20) as i64
                        };
                        g.set(v, u, x);
                    }
                }
                m.touch(v);
                m.solve(&g).expect("solves");
            }
        }
    }
}
