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
//!
//! # Where things are
//! The algorithm is described in docs/incremental-matching.md; the files follow its
//! concepts:
//!
//! * `weights.rs`: what the caller supplies and gets back ([`DenseWeight`],
//!   [`WeightSource`], [`DynamicError`]).
//! * `duals.rs`: the dual problem: slacks, tightness, feasible duals, the certificate check.
//! * `start.rs`: the first solve (greedy passes over tight edges, shared dual
//!   adjustments); `classes.rs`: the first solve from vertex classes.
//! * `stage.rs`: one single-root primal-dual stage (alternating tree, dual adjustment,
//!   augmentation).
//! * `blossoms.rs`: shrinking, rotating, expanding and dissolving blossoms.
//! * `repair.rs`: changes between solves and [`DynamicMatching::solve`], which repairs them.
//! * `exchange.rs`: exchanges the live certificate proves optimal (`try_rematch`,
//!   `try_replace`); `certificate.rs`: a frozen certificate answering the same questions.
//! * This file: the state ([`DynamicMatching`]), its accessors and options, and the
//!   one-shot [`max_weight_matching`].
mod blossoms;
mod certificate;
mod classes;
mod duals;
mod exchange;
mod repair;
mod stage;
mod start;
mod weights;

#[cfg(test)]
mod tests;

pub use certificate::Certificate;
pub use classes::SCAN_UP_TO as CLASS_WEIGHTS_SCANNED_UP_TO;
pub use weights::{DenseWeight, DynamicError, WeightSource};

/// No vertex, blossom or tree.
const NIL: u32 = u32::MAX;
/// The labels of an alternating tree (`stage.rs`, and the first solve's shared
/// adjustments): in no tree, outer (an even path from the root), inner (an odd one).
const FREE: u8 = 0;
const OUTER: u8 = 1;
const INNER: u8 = 2;

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
    /// The number of vertices of each blossom (1 for a vertex): `add_blossom` keeps the
    /// tops of the largest child's vertices.
    leaf_count: Vec<u32>,
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
    /// Opt-in ([`DynamicMatching::use_augment_first`]): a scanned row is searched for a
    /// tight edge to a free vertex before any of its blossoms is shrunk.
    augment_first: bool,
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
    /// Reused list of the blossoms holding a vertex below the one augmented through
    /// (`augment_blossom`).
    augment_path: Vec<u32>,
    /// Reused weights of the row a stage scans (`WeightSource::weights_from`).
    row_weights: Vec<W>,
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
            leaf_count: vec![1; 2 * n],
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
            augment_first: false,
            pending: Vec::new(),
            touched: Vec::new(),
            is_touched: vec![false; n],
            fresh: true,
            classes: None,
            walk: Vec::new(),
            chain: Vec::new(),
            augment_path: Vec::new(),
            row_weights: Vec::new(),
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

    /// Opts in to augmenting first: a stage that scans an outer vertex with a tight edge
    /// to a free vertex augments along it at once, before shrinking the blossoms the rest
    /// of the row closes. The optimum is the same in weight; which optimal matching is held
    /// may differ, so this is for callers that read only the weight or whether the
    /// matching is perfect. It spares the quadratic case of unit weights (every edge
    /// tight): a vertex freed by a removal grows a tree over the whole graph, and each
    /// blossom the second row closes swallows the one before, relabelling all its vertices,
    /// before the scan reaches the free vertex next to it (issue 37: half of a
    /// 100,000-player round, in the completion checks).
    pub fn use_augment_first(&mut self) {
        self.augment_first = true;
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

    /// Whether `v` was removed.
    pub fn is_removed(&self, v: usize) -> bool {
        self.removed.get(v).copied().unwrap_or(true)
    }

    /// Whether `v` is in a blossom (its matching then follows the blossom's structure).
    pub fn in_blossom(&self, v: usize) -> bool {
        v < self.n && self.top[v] != v as u32
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

/// The fewest marked edges over the perfect matchings of vertices `0..n`, or `None` when
/// there is no perfect matching. `edge(a, b)` is `None` for no edge, `Some(marked)`
/// otherwise. Each edge weighs more than every mark of a matching together, so the
/// heaviest matching covers the most vertices first, then has the fewest marks.
pub fn fewest_marked_in_perfect_matching(
    n: usize,
    edge: impl Fn(usize, usize) -> Option<bool>,
) -> Result<Option<usize>, DynamicError> {
    struct Marked<F> {
        edge: F,
        unit: i64,
    }
    impl<F: Fn(usize, usize) -> Option<bool>> WeightSource<i64> for Marked<F> {
        fn weight(&self, a: usize, b: usize) -> i64 {
            match (self.edge)(a, b) {
                None => 0,
                Some(marked) => self.unit - i64::from(marked),
            }
        }
    }
    let mut m = DynamicMatching::<i64>::new(n);
    m.use_augment_first();
    let source = Marked {
        edge: &edge,
        unit: n as i64 + 2,
    };
    m.solve(&source)?;
    if (0..n).any(|v| m.mate(v).is_none()) {
        return Ok(None);
    }
    Ok(Some(
        (0..n)
            .filter(|&a| m.mate(a).is_some_and(|b| a < b && edge(a, b) == Some(true)))
            .count(),
    ))
}
