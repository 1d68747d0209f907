//! Primal-dual weighted matching (Edmonds' blossom algorithm, Galil 1986).
//!
//! # Duals and units
//! The LP dual has a variable `u_v` per vertex and `z_B >= 0` per odd set
//! (blossom) with, for every edge `ij`, `u_i + u_j + sum_{B ∋ i,j} z_B >= w_ij`.
//! A matching is optimal when every matched edge is tight (slack 0), every
//! blossom with `z_B > 0` is full, and every exposed vertex has `u_v = 0`.
//! Duals are half-integral, so we store `pi_v = 2 u_v` for vertices and
//! `z_B` unchanged for blossoms, and compare against doubled weights:
//! `slack(ij) = pi_i + pi_j - 2 w_ij` for an edge between different
//! top-level blossoms (blossom duals only matter for internal edges, which
//! are never scanned). All vertices start with `pi = max w` (i.e.
//! `u = max w / 2`), which makes every edge feasible. With integer weights
//! every quantity stays an integer (see `delta3`).
//!
//! # Trees and dual updates
//! Alternating trees grow from all exposed vertices (labelled S, "outer")
//! through tight edges; vertices reached through a non-matched edge are T
//! ("inner"), and their mates become S. A tight edge between two S blossoms
//! either closes an odd cycle in one tree (shrunk into a new blossom) or
//! joins two trees (augmenting path). When no tight edge is usable the
//! duals change by `delta`: S vertices `pi -= delta`, T vertices
//! `pi += delta`, S blossoms `z += delta`, T blossoms `z -= delta`. This
//! keeps tree edges and blossom edges tight and lowers the slack of edges
//! leaving S vertices. `delta` is the minimum of
//! * `delta1` = min `pi` over S vertices: beyond this a vertex dual would go
//!   negative. At that point all exposed vertices have dual 0, which
//!   certifies optimality (not used in max-cardinality mode).
//! * `delta2` = min slack of an edge from an S vertex to a free vertex: the
//!   edge becomes tight and the tree grows.
//! * `delta3` = half the min slack of an edge between two S blossoms (both
//!   ends move by `delta`). Exposed vertices all share the same dual and
//!   tight paths preserve parity, so all S vertices have duals of one
//!   parity and this slack is even — hence exact halving.
//! * `delta4` = min `z` over T blossoms: a T blossom's dual must stay
//!   non-negative, so at zero it is expanded into its sub-blossoms.
//!
//! Galil's stages discard all labels after each augmentation. Here only the
//! two trees joined by the augmenting path are dissolved (their zero-dual S
//! blossoms are expanded, as at the end of a Galil stage); the other trees
//! are still valid alternating trees with tight edges and are kept. Best
//! edges that pointed at a dissolved S vertex are flagged stale and
//! recomputed from the adjacency list when next needed. This keeps the
//! O(n·m) bound (every vertex is scanned, refreshed or dissolved at most
//! once per augmentation) but avoids rescanning the whole forest, which is
//! what dominates on large random graphs (~50x fewer edge visits).
//!
//! # Bookkeeping for O(n) per dual update
//! `vbest[v]` keeps, for each non-S vertex, its least-slack edge to an S
//! vertex (delta2, and relabelling when a T blossom expands). `sbest[b]`
//! keeps, for each top-level S blossom, its least-slack edge to another S
//! blossom (delta3). A blossom created while its tree lives also keeps a
//! list of least-slack edges to each other S blossom (`slist`), so merging
//! blossoms does not rescan all their edges. Each S-S edge is covered by
//! the side that became S later (it scanned the edge) or by such a list.
//! The slacks of `vbest`/`sbest` edges are cached and shifted on each dual
//! update (S-free slacks drop by `delta`, S-S slacks by `2 delta`, S-T
//! slacks are unchanged), so scanning computes one slack per edge.
//!
//! Memory is O(n + m): per edge two endpoints, and per adjacency slot the
//! neighbour, the edge id and the doubled weight (weights are stored once
//! per direction so that scanning reads memory sequentially), plus the
//! `slist`s (at most one entry per pair of S blossoms, O(n^2) in the
//! theoretical worst case, typically tiny).

use super::{MatchingError, Weight};

const NONE: usize = usize::MAX;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Label {
    Free,
    S,
    T,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Expand {
    /// A T blossom whose dual reached zero (delta4).
    TBlossom,
    /// A zero-dual blossom of a tree dissolved by an augmentation.
    Dissolve,
}

#[derive(Clone, Copy, Debug)]
enum Step {
    /// delta1: optimum reached.
    Done,
    /// delta2: edge `.0` to free vertex `.1` became tight.
    Grow(usize, usize),
    /// delta3: edge between two S blossoms became tight.
    Tight(usize),
    /// delta4: T blossom dual reached zero.
    Expand(usize),
}

/// Event counters (used by tests to check which code paths ran).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stats {
    pub augmentations: usize,
    pub blossoms: usize,
    pub nested_blossoms: usize,
    pub t_expansions: usize,
    pub dissolve_expansions: usize,
    pub dual_updates: usize,
    /// Sub-blossoms labelled T at once when their T parent expanded.
    pub relabel_tight: usize,
    /// Sub-blossom edge lists reused when merging.
    pub list_reuse: usize,
    /// Vertex scans and the adjacency entries they visited.
    pub scans: usize,
    pub edge_visits: usize,
}

fn add<W: Weight>(a: W, b: W) -> Result<W, MatchingError> {
    a.checked_add(b).ok_or(MatchingError::Overflow)
}

fn sub<W: Weight>(a: W, b: W) -> Result<W, MatchingError> {
    a.checked_sub(b).ok_or(MatchingError::Overflow)
}

fn try_vec<T: Clone>(len: usize, val: T) -> Result<Vec<T>, MatchingError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| MatchingError::TooLarge)?;
    v.resize(len, val);
    Ok(v)
}

/// Node numbering: `0..n` are vertices, `n..2n` are blossom slots.
/// A "directed edge" `d = 2e + dir` is edge `e` oriented from `tail(d)` to
/// `head(d)`; `d ^ 1` reverses it.
pub(crate) struct Solver<W> {
    n: usize,
    max_card: bool,
    // Graph (only the edges actually used), adjacency in CSR form.
    eu: Vec<u32>,
    ev: Vec<u32>,
    /// Position of edge `e` in the adjacency list of `eu[e]`.
    epos: Vec<u32>,
    adj_start: Vec<usize>,
    /// `[neighbour, edge]` per adjacency slot.
    adj: Vec<[u32; 2]>,
    /// Doubled edge weight per adjacency slot (stored twice per edge so that
    /// scanning a vertex reads memory sequentially).
    adj_w2: Vec<W>,

    /// Matched edge per vertex.
    mate: Vec<usize>,
    /// Top-level blossom (or the vertex itself) per vertex.
    top: Vec<usize>,
    /// Immediately enclosing blossom per node.
    parent: Vec<usize>,
    /// Base vertex per node; `NONE` marks an unused blossom slot.
    base: Vec<usize>,
    /// Per slot: sub-blossoms in cycle order, starting with the base one.
    children: Vec<Vec<usize>>,
    /// Per slot: `links[i]` is a directed edge from `children[i]` to
    /// `children[i+1 mod k]`.
    links: Vec<Vec<usize>>,
    /// Leaves of node `b` are `leaf_first[b]`, `leaf_next[..]`, ...,
    /// `leaf_last[b]` (a blossom's leaves are contiguous in this chain).
    leaf_first: Vec<usize>,
    leaf_last: Vec<usize>,
    leaf_next: Vec<usize>,
    free_slots: Vec<usize>,
    /// Slots `0..slots_used` may be in use (free slots are reused lowest
    /// first, so this stays small); loops over blossoms stop there.
    slots_used: usize,
    /// No vertex below this index is exposed (exposed only ever shrinks).
    exposed_cursor: usize,
    /// `pi` for vertices, `z` for blossoms.
    dual: Vec<W>,

    // Labelling state (alternating forest).
    label: Vec<Label>,
    /// Edge through which a top-level node got its label, directed from the
    /// parent in the tree into the node. `NONE` for roots.
    label_edge: Vec<usize>,
    vbest: Vec<usize>,
    /// Cached slack of `vbest[v]`.
    vbest_slack: Vec<W>,
    sbest: Vec<usize>,
    /// Cached slack of `sbest[b]`.
    sbest_slack: Vec<W>,
    /// `vbest[v]` may point at a vertex that has left S: recompute first.
    vstale: Vec<bool>,
    /// Same for `sbest[b]`.
    sstale: Vec<bool>,
    /// Tree of each labelled top-level node, named by its exposed root vertex.
    root: Vec<usize>,
    slist: Vec<Vec<u32>>,
    slist_valid: Vec<bool>,
    queue: Vec<usize>,

    // Scratch buffers, kept to avoid per-step allocation.
    mark: Vec<u32>,
    mark_gen: u32,
    best_to: Vec<usize>,
    touched: Vec<usize>,
    dissolving: Vec<usize>,
    path_a: Vec<usize>,
    path_b: Vec<usize>,
    work: Vec<(usize, usize)>,
    expand_stack: Vec<usize>,

    pub(crate) stats: Stats,
}

impl<W: Weight> Solver<W> {
    pub(crate) fn new(
        n: usize,
        edges: &[(usize, usize, W)],
        max_card: bool,
    ) -> Result<Self, MatchingError> {
        let limit = (u32::MAX / 2) as usize;
        if n > limit || edges.len() > limit {
            return Err(MatchingError::TooLarge);
        }
        let mut used = 0usize;
        let mut maxw: Option<W> = None;
        for (k, &(u, v, w)) in edges.iter().enumerate() {
            for x in [u, v] {
                if x >= n {
                    return Err(MatchingError::VertexOutOfRange {
                        edge: k,
                        vertex: x,
                        n,
                    });
                }
            }
            if u == v {
                return Err(MatchingError::SelfLoop { edge: k, vertex: u });
            }
            if max_card || w > W::ZERO {
                used += 1;
                maxw = Some(maxw.map_or(w, |m| m.max(w)));
            }
        }
        let mut eu = try_vec(used, 0u32)?;
        let mut ev = try_vec(used, 0u32)?;
        let mut w2 = try_vec(used, W::ZERO)?;
        let mut adj_start = try_vec(n + 1, 0usize)?;
        let mut k = 0;
        for &(u, v, w) in edges {
            if max_card || w > W::ZERO {
                eu[k] = u as u32;
                ev[k] = v as u32;
                w2[k] = w.checked_double().ok_or(MatchingError::Overflow)?;
                adj_start[u + 1] += 1;
                adj_start[v + 1] += 1;
                k += 1;
            }
        }
        for i in 0..n {
            adj_start[i + 1] += adj_start[i];
        }
        let mut adj = try_vec(2 * used, [0u32; 2])?;
        let mut adj_w2 = try_vec(2 * used, W::ZERO)?;
        let mut epos = try_vec(used, 0u32)?;
        let mut fill = try_vec(n, 0usize)?;
        fill.copy_from_slice(&adj_start[..n]);
        for e in 0..used {
            let (a, b) = (eu[e], ev[e]);
            for (x, y) in [(a, b), (b, a)] {
                let p = fill[x as usize];
                adj[p] = [y, e as u32];
                adj_w2[p] = w2[e];
                fill[x as usize] += 1;
            }
            epos[e] = (fill[a as usize] - 1) as u32;
        }
        drop(fill);
        drop(w2);

        let nodes = 2 * n;
        let mut dual = try_vec(nodes, W::ZERO)?;
        let start = maxw.unwrap_or(W::ZERO);
        dual[..n].fill(start);
        let mut base = try_vec(nodes, NONE)?;
        for (v, b) in base.iter_mut().enumerate().take(n) {
            *b = v;
        }
        let ids: Vec<usize> = (0..n).collect();
        let mut leaf_first = try_vec(nodes, NONE)?;
        leaf_first[..n].copy_from_slice(&ids);
        let mut leaf_last = try_vec(nodes, NONE)?;
        leaf_last[..n].copy_from_slice(&ids);
        let mut children = Vec::new();
        children
            .try_reserve_exact(n)
            .map_err(|_| MatchingError::TooLarge)?;
        children.resize_with(n, Vec::new);
        let links = children.clone();
        let mut slist = Vec::new();
        slist
            .try_reserve_exact(n)
            .map_err(|_| MatchingError::TooLarge)?;
        slist.resize_with(n, Vec::new);

        Ok(Solver {
            n,
            max_card,
            eu,
            ev,
            epos,
            adj_start,
            adj,
            adj_w2,
            mate: try_vec(n, NONE)?,
            top: ids.clone(),
            parent: try_vec(nodes, NONE)?,
            base,
            children,
            links,
            leaf_first,
            leaf_last,
            leaf_next: try_vec(n, NONE)?,
            free_slots: (0..n).rev().collect(),
            slots_used: 0,
            exposed_cursor: 0,
            dual,
            label: try_vec(nodes, Label::Free)?,
            label_edge: try_vec(nodes, NONE)?,
            vbest: try_vec(n, NONE)?,
            vbest_slack: try_vec(n, W::ZERO)?,
            sbest: try_vec(nodes, NONE)?,
            sbest_slack: try_vec(nodes, W::ZERO)?,
            vstale: try_vec(n, false)?,
            sstale: try_vec(nodes, false)?,
            root: try_vec(nodes, NONE)?,
            slist,
            slist_valid: try_vec(n, false)?,
            queue: Vec::with_capacity(n),
            mark: try_vec(nodes, 0u32)?,
            mark_gen: 0,
            best_to: try_vec(nodes, NONE)?,
            touched: Vec::new(),
            dissolving: Vec::new(),
            path_a: Vec::new(),
            path_b: Vec::new(),
            work: Vec::new(),
            expand_stack: Vec::new(),
            stats: Stats::default(),
        })
    }

    /// The mate of every vertex.
    pub(crate) fn mates(&self) -> Vec<Option<usize>> {
        (0..self.n)
            .map(|v| match self.mate[v] {
                NONE => None,
                e => Some(self.other(e, v)),
            })
            .collect()
    }

    #[inline]
    fn other(&self, e: usize, v: usize) -> usize {
        let a = self.eu[e] as usize;
        if a == v { self.ev[e] as usize } else { a }
    }

    #[inline]
    fn tail(&self, d: usize) -> usize {
        let e = d >> 1;
        if d & 1 == 0 {
            self.eu[e] as usize
        } else {
            self.ev[e] as usize
        }
    }

    #[inline]
    fn head(&self, d: usize) -> usize {
        self.tail(d ^ 1)
    }

    /// Edge `e` directed away from its endpoint `v`.
    #[inline]
    fn dir_from(&self, e: usize, v: usize) -> usize {
        if self.eu[e] as usize == v {
            2 * e
        } else {
            2 * e + 1
        }
    }

    /// Slack of the edge in adjacency slot `idx` between `v` and `w` (same
    /// as `slack`, but reads the weight sequentially while scanning).
    #[inline(always)]
    fn slack_at(&self, v: usize, w: usize, idx: usize) -> Result<W, MatchingError> {
        sub(add(self.dual[v], self.dual[w])?, self.adj_w2[idx])
    }

    /// Doubled weight of edge `e`.
    #[inline(always)]
    fn w2(&self, e: usize) -> W {
        self.adj_w2[self.epos[e] as usize]
    }

    /// Slack of an edge whose endpoints lie in different top-level blossoms.
    #[inline(always)]
    fn slack(&self, e: usize) -> Result<W, MatchingError> {
        let s = add(
            self.dual[self.eu[e] as usize],
            self.dual[self.ev[e] as usize],
        )?;
        sub(s, self.w2(e))
    }

    /// Offers edge `e` with slack `s` as `vbest[w]`.
    #[inline(always)]
    fn offer_vbest(&mut self, w: usize, e: usize, s: W) {
        if self.vbest[w] == NONE || s < self.vbest_slack[w] {
            self.vbest[w] = e;
            self.vbest_slack[w] = s;
        }
    }

    /// Offers edge `e` with slack `s` as `sbest[b]`.
    #[inline(always)]
    fn offer_sbest(&mut self, b: usize, e: usize, s: W) {
        if self.sbest[b] == NONE || s < self.sbest_slack[b] {
            self.sbest[b] = e;
            self.sbest_slack[b] = s;
        }
    }

    #[inline]
    fn is_top(&self, b: usize) -> bool {
        self.parent[b] == NONE && (b < self.n || self.base[b] != NONE)
    }

    /// Runs the algorithm to completion.
    pub(crate) fn solve(&mut self) -> Result<(), MatchingError> {
        if self.eu.is_empty() {
            return Ok(());
        }
        for v in 0..self.n {
            if self.mate[v] == NONE && self.label[self.top[v]] == Label::Free {
                self.label_s(self.top[v], NONE, v);
            }
        }
        // Safety net against infinite loops: there are at most n/2
        // augmentations and O(n) dual updates between two of them.
        let per_augmentation = self.n.saturating_mul(16).saturating_add(64);
        let max_steps = (self.n / 2 + 2).saturating_mul(per_augmentation);
        for _ in 0..max_steps {
            while let Some(v) = self.queue.pop() {
                crate::cancel::checkpoint();
                // Skip vertices whose tree was dissolved after queueing.
                if self.label[self.top[v]] == Label::S {
                    self.scan(v)?;
                }
            }
            let Some((delta, step)) = self.compute_delta()? else {
                // No exposed vertex left, or (max-cardinality mode) nothing
                // can grow any more.
                return Ok(());
            };
            self.apply_delta(delta)?;
            match step {
                Step::Done => return Ok(()),
                Step::Grow(e, v) => {
                    let d = self.dir_from(e, self.other(e, v));
                    self.label_t(self.top[v], d)?;
                }
                Step::Tight(e) => {
                    self.tight_ss(e)?;
                }
                Step::Expand(b) => self.expand(b, Expand::TBlossom)?,
            }
        }
        Err(MatchingError::Internal("too many dual updates"))
    }

    /// After augmenting between the trees rooted at `ra` and `rb`: unlabel
    /// their nodes, invalidate best edges that pointed at their S vertices,
    /// and dissolve their S blossoms with zero dual. All other trees stay
    /// intact (their tree edges are still tight), which saves rescanning
    /// them as a fresh Galil stage would.
    fn dissolve(&mut self, ra: usize, rb: usize) -> Result<(), MatchingError> {
        let n = self.n;
        let mut nodes = std::mem::take(&mut self.dissolving);
        nodes.clear();
        for b in 0..n + self.slots_used {
            if self.is_top(b)
                && self.label[b] != Label::Free
                && (self.root[b] == ra || self.root[b] == rb)
            {
                nodes.push(b);
            }
        }
        for &b in &nodes {
            let is_s = self.label[b] == Label::S;
            let (mut x, last) = (self.leaf_first[b], self.leaf_last[b]);
            loop {
                self.vstale[x] = true;
                if is_s {
                    for idx in self.adj_start[x]..self.adj_start[x + 1] {
                        let [w, e] = self.adj[idx];
                        let (w, e) = (w as usize, e as usize);
                        if self.vbest[w] == e {
                            self.vstale[w] = true;
                        }
                        if self.sbest[self.top[w]] == e {
                            self.sstale[self.top[w]] = true;
                        }
                    }
                }
                if x == last {
                    break;
                }
                x = self.leaf_next[x];
            }
        }
        for &b in &nodes {
            self.unlabel(b);
        }
        for &b in &nodes {
            if b >= n && self.dual[b] == W::ZERO && self.base[b] != NONE {
                self.expand(b, Expand::Dissolve)?;
            }
        }
        nodes.clear();
        self.dissolving = nodes;
        Ok(())
    }

    fn unlabel(&mut self, b: usize) {
        self.label[b] = Label::Free;
        self.label_edge[b] = NONE;
        self.root[b] = NONE;
        self.sbest[b] = NONE;
        self.sstale[b] = false;
        if b >= self.n {
            self.slist_valid[b - self.n] = false;
        }
    }

    /// Recomputes `vbest[v]` from the current S vertices.
    fn refresh_vbest(&mut self, v: usize) -> Result<(), MatchingError> {
        self.vstale[v] = false;
        self.vbest[v] = NONE;
        let bv = self.top[v];
        for idx in self.adj_start[v]..self.adj_start[v + 1] {
            let [w, e] = self.adj[idx];
            let (w, e) = (w as usize, e as usize);
            let bw = self.top[w];
            if bw != bv && self.label[bw] == Label::S {
                let s = self.slack_at(v, w, idx)?;
                self.offer_vbest(v, e, s);
            }
        }
        Ok(())
    }

    /// Recomputes `sbest[b]` for top-level S node `b` from all its edges.
    fn refresh_sbest(&mut self, b: usize) -> Result<(), MatchingError> {
        self.sstale[b] = false;
        self.sbest[b] = NONE;
        let (mut x, last) = (self.leaf_first[b], self.leaf_last[b]);
        loop {
            for idx in self.adj_start[x]..self.adj_start[x + 1] {
                let [w, e] = self.adj[idx];
                let (w, e) = (w as usize, e as usize);
                let bw = self.top[w];
                if bw != b && self.label[bw] == Label::S {
                    let s = self.slack_at(x, w, idx)?;
                    self.offer_sbest(b, e, s);
                }
            }
            if x == last {
                break;
            }
            x = self.leaf_next[x];
        }
        Ok(())
    }

    /// Labels top-level node `b` S (reached via matched edge `d`, or a root
    /// when `d == NONE`) and queues its vertices for scanning.
    fn label_s(&mut self, b: usize, d: usize, root: usize) {
        self.label[b] = Label::S;
        self.label_edge[b] = d;
        self.root[b] = root;
        self.sbest[b] = NONE;
        self.sstale[b] = false;
        let (mut v, last) = (self.leaf_first[b], self.leaf_last[b]);
        loop {
            self.queue.push(v);
            if v == last {
                break;
            }
            v = self.leaf_next[v];
        }
    }

    /// Labels free top-level node `b` T via directed edge `d` (from an S
    /// vertex) and its mate's blossom S.
    fn label_t(&mut self, b: usize, d: usize) -> Result<(), MatchingError> {
        let root = self.root[self.top[self.tail(d)]];
        self.label[b] = Label::T;
        self.label_edge[b] = d;
        self.root[b] = root;
        let x = self.base[b];
        let m = self.mate[x];
        if m == NONE {
            return Err(MatchingError::Internal("T blossom with exposed base"));
        }
        let y = self.other(m, x);
        let by = self.top[y];
        if self.label[by] != Label::Free {
            return Err(MatchingError::Internal(
                "mate of a new T blossom is labelled",
            ));
        }
        self.label_s(by, self.dir_from(m, x), root);
        Ok(())
    }

    /// Scans the edges of S vertex `v` (stops early if `v`'s tree augments).
    fn scan(&mut self, v: usize) -> Result<(), MatchingError> {
        self.stats.scans += 1;
        self.stats.edge_visits += self.adj_start[v + 1] - self.adj_start[v];
        for idx in self.adj_start[v]..self.adj_start[v + 1] {
            let [w, e] = self.adj[idx];
            let (w, e) = (w as usize, e as usize);
            let (bv, bw) = (self.top[v], self.top[w]);
            if bv == bw {
                continue;
            }
            match self.label[bw] {
                Label::Free => {
                    let s = self.slack_at(v, w, idx)?;
                    if s == W::ZERO {
                        self.label_t(bw, self.dir_from(e, v))?;
                    } else {
                        self.offer_vbest(w, e, s);
                    }
                }
                Label::T => {
                    // Needed if this T blossom expands later. A T vertex
                    // only leaves T when its tree dissolves, and then its
                    // vbest is recomputed anyway.
                    if bw >= self.n {
                        let s = self.slack_at(v, w, idx)?;
                        self.offer_vbest(w, e, s);
                    }
                }
                Label::S => {
                    let s = self.slack_at(v, w, idx)?;
                    if s == W::ZERO {
                        if self.tight_ss(e)? {
                            return Ok(());
                        }
                    } else {
                        self.offer_sbest(bv, e, s);
                    }
                }
            }
        }
        Ok(())
    }

    /// Finds the next dual step; refreshes stale best edges on the way.
    fn compute_delta(&mut self) -> Result<Option<(W, Step)>, MatchingError> {
        let n = self.n;
        let mut best: Option<(W, Step)> = None;
        if !self.max_card {
            // delta1. Exposed vertices have been S roots through every dual
            // update so far, so they share the smallest dual of all S
            // vertices; and a matched vertex never becomes exposed again.
            while self.exposed_cursor < n && self.mate[self.exposed_cursor] != NONE {
                self.exposed_cursor += 1;
            }
            if self.exposed_cursor < n {
                best = Some((self.dual[self.exposed_cursor], Step::Done));
            }
        }
        for v in 0..n {
            if self.label[self.top[v]] != Label::Free {
                continue;
            }
            if self.vstale[v] {
                self.refresh_vbest(v)?;
            }
            let e = self.vbest[v];
            if e != NONE {
                let s = self.vbest_slack[v];
                debug_assert_eq!(Ok(s), self.slack(e));
                if best.is_none_or(|(d, _)| s < d) {
                    best = Some((s, Step::Grow(e, v)));
                }
            }
        }
        for b in 0..n + self.slots_used {
            if !self.is_top(b) {
                continue;
            }
            match self.label[b] {
                Label::S => {
                    if self.sstale[b] {
                        self.refresh_sbest(b)?;
                    }
                    let e = self.sbest[b];
                    if e == NONE {
                        continue;
                    }
                    let s = self.sbest_slack[b];
                    debug_assert_eq!(Ok(s), self.slack(e));
                    debug_assert!(self.top[self.eu[e] as usize] != self.top[self.ev[e] as usize]);
                    debug_assert!(s.half().checked_double() == Some(s), "odd S-S slack");
                    let s = s.half();
                    if best.is_none_or(|(d, _)| s < d) {
                        best = Some((s, Step::Tight(e)));
                    }
                }
                Label::T if b >= n => {
                    let z = self.dual[b];
                    if best.is_none_or(|(d, _)| z < d) {
                        best = Some((z, Step::Expand(b)));
                    }
                }
                _ => {}
            }
        }
        Ok(best)
    }

    fn apply_delta(&mut self, delta: W) -> Result<(), MatchingError> {
        self.stats.dual_updates += 1;
        let delta2 = add(delta, delta)?;
        for v in 0..self.n {
            match self.label[self.top[v]] {
                Label::S => self.dual[v] = sub(self.dual[v], delta)?,
                Label::T => self.dual[v] = add(self.dual[v], delta)?,
                Label::Free => {
                    if self.vbest[v] != NONE && !self.vstale[v] {
                        self.vbest_slack[v] = sub(self.vbest_slack[v], delta)?;
                    }
                }
            }
        }
        for b in 0..self.n + self.slots_used {
            if self.is_top(b) {
                match self.label[b] {
                    Label::S => {
                        if b >= self.n {
                            self.dual[b] = add(self.dual[b], delta)?;
                        }
                        if self.sbest[b] != NONE && !self.sstale[b] {
                            self.sbest_slack[b] = sub(self.sbest_slack[b], delta2)?;
                        }
                    }
                    Label::T if b >= self.n => self.dual[b] = sub(self.dual[b], delta)?,
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Handles a tight edge between two different S blossoms: shrink a new
    /// blossom or augment. Returns true if it augmented.
    fn tight_ss(&mut self, e: usize) -> Result<bool, MatchingError> {
        let (bu, bv) = (self.top[self.eu[e] as usize], self.top[self.ev[e] as usize]);
        if bu == bv {
            return Ok(false);
        }
        match self.find_base(bu, bv)? {
            Some(bb) => {
                self.add_blossom(bb, 2 * e)?;
                Ok(false)
            }
            None => {
                let (ra, rb) = (self.root[bu], self.root[bv]);
                self.augment(e)?;
                self.dissolve(ra, rb)?;
                Ok(true)
            }
        }
    }

    /// The S node above S node `b` in its alternating tree, `NONE` at a root.
    fn tree_up(&self, b: usize) -> Result<usize, MatchingError> {
        let d = self.label_edge[b];
        if d == NONE {
            return Ok(NONE);
        }
        let t = self.top[self.tail(d)];
        let d2 = self.label_edge[t];
        if d2 == NONE {
            return Err(MatchingError::Internal("T node without label edge"));
        }
        Ok(self.top[self.tail(d2)])
    }

    /// Lowest common S ancestor of two S nodes, or `None` if they are in
    /// different trees. Walks both paths alternately, so the cost is
    /// proportional to the blossom (or path) found.
    fn find_base(&mut self, a: usize, b: usize) -> Result<Option<usize>, MatchingError> {
        self.mark_gen = self.mark_gen.wrapping_add(1);
        if self.mark_gen == 0 {
            self.mark.fill(0);
            self.mark_gen = 1;
        }
        let mut cur = [a, b];
        let mut side = 0;
        while cur[0] != NONE || cur[1] != NONE {
            let x = cur[side];
            if x != NONE {
                if self.mark[x] == self.mark_gen {
                    return Ok(Some(x));
                }
                self.mark[x] = self.mark_gen;
                cur[side] = self.tree_up(x)?;
            }
            side ^= 1;
        }
        Ok(None)
    }

    /// Collects the tree path from S node `from` up to (excluding) `stop`.
    fn tree_path(
        &self,
        from: usize,
        stop: usize,
        out: &mut Vec<usize>,
    ) -> Result<(), MatchingError> {
        out.clear();
        let mut node = from;
        while node != stop {
            let d = self.label_edge[node];
            if d == NONE {
                return Err(MatchingError::Internal("blossom path missed its base"));
            }
            out.push(node);
            let t = self.top[self.tail(d)];
            out.push(t);
            node = self.tree_up(node)?;
        }
        Ok(())
    }

    /// Shrinks the odd cycle formed by tight edge `d` (between two S nodes of
    /// one tree) and the tree paths up to their common ancestor `bb`.
    fn add_blossom(&mut self, bb: usize, d: usize) -> Result<(), MatchingError> {
        let slot = self
            .free_slots
            .pop()
            .ok_or(MatchingError::Internal("out of blossom slots"))?;
        let n = self.n;
        let b = n + slot;
        self.slots_used = self.slots_used.max(slot + 1);
        let (bx, by) = (self.top[self.tail(d)], self.top[self.head(d)]);
        let mut path_a = std::mem::take(&mut self.path_a);
        let mut path_b = std::mem::take(&mut self.path_b);
        self.tree_path(bx, bb, &mut path_a)?;
        self.tree_path(by, bb, &mut path_b)?;

        // Cycle: bb, down the x side to bx, across d, up the y side.
        let mut children = std::mem::take(&mut self.children[slot]);
        let mut links = std::mem::take(&mut self.links[slot]);
        children.clear();
        links.clear();
        children.push(bb);
        for &c in path_a.iter().rev() {
            children.push(c);
            links.push(self.label_edge[c]);
        }
        links.push(d);
        for &c in &path_b {
            children.push(c);
            links.push(self.label_edge[c] ^ 1);
        }
        self.path_a = path_a;
        self.path_b = path_b;

        self.stats.blossoms += 1;
        if children.iter().any(|&c| c >= n) {
            self.stats.nested_blossoms += 1;
        }
        for &c in &children {
            self.parent[c] = b;
        }
        self.base[b] = self.base[bb];
        self.label[b] = Label::S;
        self.label_edge[b] = self.label_edge[bb];
        self.root[b] = self.root[bb];
        self.sstale[b] = false;
        self.dual[b] = W::ZERO;
        for pair in children.windows(2) {
            self.leaf_next[self.leaf_last[pair[0]]] = self.leaf_first[pair[1]];
        }
        self.leaf_first[b] = self.leaf_first[bb];
        self.leaf_last[b] = children.last().map_or(NONE, |&c| self.leaf_last[c]);
        // Former T vertices are now S and must be scanned.
        let (mut v, last) = (self.leaf_first[b], self.leaf_last[b]);
        loop {
            if self.label[self.top[v]] == Label::T {
                self.queue.push(v);
            }
            self.top[v] = b;
            if v == last {
                break;
            }
            v = self.leaf_next[v];
        }

        // Least-slack edges from the new blossom to every other S blossom:
        // reuse the lists of S sub-blossoms built since they were last
        // labelled, scan the edges of the others (so a vertex is scanned
        // this way at most once while its tree lives).
        self.touched.clear();
        for &c in &children {
            if c >= n && self.slist_valid[c - n] && !self.sstale[c] {
                self.stats.list_reuse += 1;
                let mut list = std::mem::take(&mut self.slist[c - n]);
                for &e in &list {
                    self.offer_list_edge(b, e as usize)?;
                }
                if self.sbest[c] != NONE {
                    self.offer_list_edge(b, self.sbest[c])?;
                }
                list.clear();
                self.slist[c - n] = list;
                self.slist_valid[c - n] = false;
            } else {
                let (mut v, last) = (self.leaf_first[c], self.leaf_last[c]);
                loop {
                    for idx in self.adj_start[v]..self.adj_start[v + 1] {
                        self.offer_list_edge(b, self.adj[idx][1] as usize)?;
                    }
                    if v == last {
                        break;
                    }
                    v = self.leaf_next[v];
                }
                if c >= n {
                    self.slist[c - n].clear();
                    self.slist_valid[c - n] = false;
                }
            }
            self.sbest[c] = NONE;
            self.sstale[c] = false;
        }
        let mut list = std::mem::take(&mut self.slist[slot]);
        list.clear();
        self.sbest[b] = NONE;
        for i in 0..self.touched.len() {
            let bo = self.touched[i];
            let e = self.best_to[bo];
            self.best_to[bo] = NONE;
            list.push(e as u32);
            let s = self.slack(e)?;
            self.offer_sbest(b, e, s);
        }
        self.slist[slot] = list;
        self.slist_valid[slot] = true;
        self.children[slot] = children;
        self.links[slot] = links;
        Ok(())
    }

    /// Candidate edge `e` (with one end in new blossom `b`) for `b`'s list.
    fn offer_list_edge(&mut self, b: usize, e: usize) -> Result<(), MatchingError> {
        let (i, j) = (self.eu[e] as usize, self.ev[e] as usize);
        let o = if self.top[i] == b { j } else { i };
        let bo = self.top[o];
        if bo == b || self.label[bo] != Label::S {
            return Ok(());
        }
        if self.best_to[bo] == NONE {
            self.best_to[bo] = e;
            self.touched.push(bo);
        } else if self.slack(e)? < self.slack(self.best_to[bo])? {
            self.best_to[bo] = e;
        }
        Ok(())
    }

    /// Augments along the path through tight S-S edge `e` joining two trees.
    fn augment(&mut self, e: usize) -> Result<(), MatchingError> {
        self.stats.augmentations += 1;
        for start in [self.eu[e] as usize, self.ev[e] as usize] {
            let (mut s, mut m) = (start, e);
            loop {
                // `s` (an S vertex) becomes matched via `m`; its blossom must
                // be re-based at `s`.
                let bs = self.top[s];
                self.rebase(bs, s)?;
                self.mate[s] = m;
                let d = self.label_edge[bs];
                if d == NONE {
                    break;
                }
                // bs was reached from T node bt via its old base's mate
                // edge; bt's own entry edge d2 becomes matched.
                let bt = self.top[self.tail(d)];
                let d2 = self.label_edge[bt];
                if d2 == NONE {
                    return Err(MatchingError::Internal("T node without label edge"));
                }
                let (s2, x) = (self.tail(d2), self.head(d2));
                self.rebase(bt, x)?;
                self.mate[x] = d2 >> 1;
                s = s2;
                m = d2 >> 1;
            }
        }
        Ok(())
    }

    /// Makes vertex `v` the base of blossom `b` by swapping matched and
    /// unmatched links along the even side of each cycle on the way down.
    /// The caller sets `mate[v]`. Iterative (nesting may be deep).
    fn rebase(&mut self, b: usize, v: usize) -> Result<(), MatchingError> {
        let n = self.n;
        if b < n {
            return Ok(());
        }
        self.work.clear();
        self.work.push((b, v));
        while let Some((b, v)) = self.work.pop() {
            let mut c = v;
            while self.parent[c] != b {
                c = self.parent[c];
                if c == NONE {
                    return Err(MatchingError::Internal("rebase: vertex not in blossom"));
                }
            }
            if c >= n && self.base[c] != v {
                self.work.push((c, v));
            }
            let slot = b - n;
            let i = self.children[slot]
                .iter()
                .position(|&x| x == c)
                .ok_or(MatchingError::Internal("rebase: child missing"))?;
            if i > 0 {
                // In the cycle rotated to start at child i, links at odd
                // positions are the matched ones.
                let k = self.children[slot].len();
                let mut p = 1;
                while p + 1 < k {
                    let li = (i + p) % k;
                    let d = self.links[slot][li];
                    let cx = self.children[slot][li];
                    let cy = self.children[slot][(li + 1) % k];
                    let (x, y) = (self.tail(d), self.head(d));
                    if cx >= n && self.base[cx] != x {
                        self.work.push((cx, x));
                    }
                    if cy >= n && self.base[cy] != y {
                        self.work.push((cy, y));
                    }
                    self.mate[x] = d >> 1;
                    self.mate[y] = d >> 1;
                    p += 2;
                }
                self.children[slot].rotate_left(i);
                self.links[slot].rotate_left(i);
            }
            self.base[b] = v;
        }
        Ok(())
    }

    /// Dissolves top-level blossom `b`. For [`Expand::TBlossom`], `b` is a T
    /// blossom whose dual hit zero: its sub-blossoms are relabelled so the
    /// tree stays alternating. For [`Expand::Dissolve`], `b` is an
    /// unlabelled former S blossom with zero dual (after an augmentation);
    /// sub-blossoms with zero dual are dissolved too.
    fn expand(&mut self, b: usize, mode: Expand) -> Result<(), MatchingError> {
        let n = self.n;
        self.expand_stack.clear();
        self.expand_stack.push(b);
        while let Some(b) = self.expand_stack.pop() {
            let slot = b - n;
            match mode {
                Expand::Dissolve => self.stats.dissolve_expansions += 1,
                Expand::TBlossom => self.stats.t_expansions += 1,
            }
            let children = std::mem::take(&mut self.children[slot]);
            let links = std::mem::take(&mut self.links[slot]);
            for &c in &children {
                self.parent[c] = NONE;
                let (mut v, last) = (self.leaf_first[c], self.leaf_last[c]);
                loop {
                    self.top[v] = c;
                    if v == last {
                        break;
                    }
                    v = self.leaf_next[v];
                }
            }
            match mode {
                Expand::Dissolve => {
                    for &c in &children {
                        self.unlabel(c);
                        if c >= n && self.dual[c] == W::ZERO {
                            self.expand_stack.push(c);
                        }
                    }
                }
                Expand::TBlossom => self.relabel_expanded(b, &children, &links)?,
            }
            self.children[slot] = children;
            self.children[slot].clear();
            self.links[slot] = links;
            self.links[slot].clear();
            self.slist[slot].clear();
            self.unlabel(b);
            self.base[b] = NONE;
            self.dual[b] = W::ZERO;
            self.free_slots.push(slot);
        }
        Ok(())
    }

    /// Relabels the sub-blossoms of an expanded T blossom `b`: the even-length
    /// path from the entry child to the base child alternates T, S, ..., T;
    /// the other children become free unless a tight edge from an S vertex
    /// already reaches them (then they are labelled T right away).
    fn relabel_expanded(
        &mut self,
        b: usize,
        ch: &[usize],
        links: &[usize],
    ) -> Result<(), MatchingError> {
        let entry = self.label_edge[b];
        let root = self.root[b];
        if entry == NONE || self.label[b] != Label::T {
            return Err(MatchingError::Internal("expand: not a T blossom"));
        }
        let cj = self.top[self.head(entry)];
        let k = ch.len();
        let j = ch
            .iter()
            .position(|&c| c == cj)
            .ok_or(MatchingError::Internal("expand: entry child missing"))?;
        for &c in ch {
            self.unlabel(c);
        }
        let set_t = |me: &mut Self, c: usize, d: usize| {
            me.label[c] = Label::T;
            me.label_edge[c] = d;
            me.root[c] = root;
        };
        set_t(self, cj, entry);
        let rest = if j % 2 == 0 {
            // Walk backwards j, j-1, ..., 0 (links reversed).
            let mut p = j;
            while p > 0 {
                self.label_s(ch[p - 1], links[p - 1] ^ 1, root);
                set_t(self, ch[p - 2], links[p - 2] ^ 1);
                p -= 2;
            }
            j + 1..k
        } else {
            // Walk forwards j, j+1, ..., k-1, 0.
            let mut p = j;
            while p != 0 {
                self.label_s(ch[(p + 1) % k], links[p], root);
                set_t(self, ch[(p + 2) % k], links[(p + 1) % k]);
                p = (p + 2) % k;
            }
            1..j
        };
        for &c in &ch[rest] {
            if self.label[c] != Label::Free {
                continue;
            }
            let (mut v, last) = (self.leaf_first[c], self.leaf_last[c]);
            let mut found = NONE;
            loop {
                if self.vstale[v] {
                    self.refresh_vbest(v)?;
                }
                let e = self.vbest[v];
                if e != NONE && self.vbest_slack[v] == W::ZERO {
                    found = e;
                    break;
                }
                if v == last {
                    break;
                }
                v = self.leaf_next[v];
            }
            if found != NONE {
                self.stats.relabel_tight += 1;
                let (i, j) = (self.eu[found] as usize, self.ev[found] as usize);
                let s = if self.top[i] == c { j } else { i };
                self.label_t(c, self.dir_from(found, s))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
impl<W: Weight> Solver<W> {
    /// Cardinality and total (undoubled) weight of the matching.
    pub(crate) fn matched_weight(&self) -> (usize, W) {
        let mut card = 0;
        let mut total = W::ZERO;
        for v in 0..self.n {
            let e = self.mate[v];
            if e != NONE && v < self.other(e, v) {
                card += 1;
                total = total
                    .checked_add(self.w2(e).half())
                    .expect("weight overflow");
            }
        }
        (card, total)
    }

    /// Checks that `mate` is a consistent matching and, without
    /// max-cardinality, that the duals certify optimality.
    pub(crate) fn verify(&self) -> Result<(), String> {
        let n = self.n;
        for v in 0..n {
            let e = self.mate[v];
            if e != NONE {
                if self.eu[e] as usize != v && self.ev[e] as usize != v {
                    return Err(format!("mate edge of {v} not incident"));
                }
                if self.mate[self.other(e, v)] != e {
                    return Err(format!("mate of {v} not symmetric"));
                }
            }
        }
        if self.max_card {
            return Ok(());
        }
        let zero = W::ZERO;
        for v in 0..n {
            if self.dual[v] < zero {
                return Err(format!("negative vertex dual at {v}"));
            }
            if self.mate[v] == NONE && self.dual[v] != zero {
                return Err(format!("exposed vertex {v} has dual {:?}", self.dual[v]));
            }
        }
        let ancestors = |mut x: usize| {
            let mut out = Vec::new();
            while self.parent[x] != NONE {
                x = self.parent[x];
                out.push(x);
            }
            out
        };
        for e in 0..self.eu.len() {
            let (i, j) = (self.eu[e] as usize, self.ev[e] as usize);
            let ai = ancestors(i);
            let mut s = self.dual[i] + self.dual[j] - self.w2(e);
            for b in ancestors(j) {
                if ai.contains(&b) {
                    s = s + self.dual[b] + self.dual[b];
                }
            }
            if s < zero {
                return Err(format!("edge {e} ({i},{j}) has negative slack {s:?}"));
            }
            if self.mate[i] == e && s != zero {
                return Err(format!("matched edge {e} has slack {s:?}"));
            }
        }
        for b in n..2 * n {
            if self.base[b] == NONE {
                continue;
            }
            if self.dual[b] < zero {
                return Err(format!("negative blossom dual at {b}"));
            }
            if self.dual[b] > zero {
                let (mut v, last) = (self.leaf_first[b], self.leaf_last[b]);
                let (mut size, mut inner) = (0, 0);
                loop {
                    size += 1;
                    let e = self.mate[v];
                    if e != NONE && ancestors(self.other(e, v)).contains(&b) {
                        inner += 1;
                    }
                    if v == last {
                        break;
                    }
                    v = self.leaf_next[v];
                }
                if size % 2 == 0 || inner != size - 1 {
                    return Err(format!("blossom {b} with positive dual not full"));
                }
            }
        }
        Ok(())
    }
}
