//! The cardinality engine: maximum-cardinality matching (Edmonds' blossom algorithm), the
//! Gallai-Edmonds set `D(G)`, and the incremental oracle "can the vertices left still all be
//! matched?".
//!
//! Pairing rules written as a search with backtracking (take the first candidate, undo on a
//! dead end) return the first complete pairing in their candidate order. Committing, at each
//! step, to the first candidate after which the rest still has a perfect matching gives
//! exactly that pairing without ever walking into a dead end; [`Matcher`] answers that
//! question incrementally, so that a 1,000-vertex round costs milliseconds instead of an
//! exponential search.
//!
//! Two searches, both Edmonds' alternating tree with shrunk blossoms:
//! * [`Matcher`] (incremental, on bitsets). Graphs in pairing are dense (most players may
//!   meet most others), so the search works on bitsets: the tree grows only into vertices
//!   not in it yet, blossom edges are looked for only outside the current blossom, and
//!   blossoms are merged with union-find. A search costs about (vertices reached) × n/64
//!   word operations, and resetting it only what it touched. The graph is anything that
//!   can write a vertex's neighbours as a bitset ([`Adjacency`]): a stored matrix
//!   ([`BitGraph`]) or an implicit rule, so that callers with very large inputs can keep
//!   memory linear.
//! * The one-shot search on a predicate behind [`maximum_matching`],
//!   [`has_perfect_matching`], [`maximum_matching_size`] and [`uncoverable`]
//!   (Gallai-Edmonds): one forest-growing core, from one root to augment or from every
//!   exposed vertex to classify. It stays separate from [`Matcher`]'s because it asks the
//!   predicate lazily (four times faster on the backgammon draw's many small sets) and
//!   because which maximum matching it returns is part of the backgammon draw's answer.

/// No vertex.
const NONE: usize = usize::MAX;

fn bit(bits: &[u64], i: usize) -> bool {
    bits[i / 64] >> (i % 64) & 1 == 1
}

fn set_bit(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

fn clear_bit(bits: &mut [u64], i: usize) {
    bits[i / 64] &= !(1 << (i % 64));
}

fn first_bit(bits: &[u64]) -> Option<usize> {
    bits.iter()
        .enumerate()
        .find(|(_, w)| **w != 0)
        .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
}

/// An undirected graph on the vertices `0..vertices()`, without loops.
pub trait Adjacency {
    /// The number of vertices.
    fn vertices(&self) -> usize;
    /// Writes the neighbours of `v` into `out` (`vertices().div_ceil(64)` words; bit `u` of
    /// the whole is set when `v` and `u` are adjacent; never bit `v` itself).
    fn row_into(&self, v: usize, out: &mut [u64]);
    /// Whether `a` and `b` are adjacent (both in range).
    fn adjacent(&self, a: usize, b: usize) -> bool;
}

impl<G: Adjacency + ?Sized> Adjacency for &G {
    fn vertices(&self) -> usize {
        (**self).vertices()
    }
    fn row_into(&self, v: usize, out: &mut [u64]) {
        (**self).row_into(v, out);
    }
    fn adjacent(&self, a: usize, b: usize) -> bool {
        (**self).adjacent(a, b)
    }
}

/// A graph stored as an adjacency bitset (n²/8 bytes).
#[derive(Clone, Debug)]
pub struct BitGraph {
    n: usize,
    words: usize,
    /// Row `v`: bit `u` set when `v` and `u` are adjacent.
    rows: Vec<u64>,
}

impl BitGraph {
    /// `n` vertices, no edges.
    pub fn new(n: usize) -> BitGraph {
        let words = n.div_ceil(64);
        BitGraph {
            n,
            words,
            rows: vec![0; n * words],
        }
    }

    /// `n` vertices, every edge.
    pub fn complete(n: usize) -> BitGraph {
        let mut g = BitGraph::new(n);
        // Whole words at a time (bit by bit was a twelfth of a 100-player Buchholz round):
        // every bit below `n`, then the loop bit cleared.
        let tail = n % 64;
        for v in 0..n {
            let row = g.row_mut(v);
            row.fill(!0);
            if let (Some(last), true) = (row.last_mut(), tail != 0) {
                *last = (1 << tail) - 1;
            }
            clear_bit(row, v);
        }
        g
    }

    /// `n` vertices, each row written by `fill(v, row)` (bit `u` for an edge `v`-`u`, rows
    /// of `n.div_ceil(64)` words, zeroed): for callers that hold the rows already. The rows
    /// must be symmetric; loops and bits from `n` on are cleared.
    pub fn from_rows(n: usize, mut fill: impl FnMut(usize, &mut [u64])) -> BitGraph {
        let mut g = BitGraph::new(n);
        let tail = n % 64;
        for v in 0..n {
            let row = g.row_mut(v);
            fill(v, row);
            if let (Some(last), true) = (row.last_mut(), tail != 0) {
                *last &= (1 << tail) - 1;
            }
            clear_bit(row, v);
        }
        g
    }

    /// `n` vertices, with the edges `adjacent` gives (asked once per unordered pair, `a < b`).
    pub fn from_fn(n: usize, adjacent: impl Fn(usize, usize) -> bool) -> BitGraph {
        let mut g = BitGraph::new(n);
        for a in 0..n {
            for b in a + 1..n {
                if adjacent(a, b) {
                    g.set_edge(a, b, true);
                }
            }
        }
        g
    }

    fn row_mut(&mut self, v: usize) -> &mut [u64] {
        &mut self.rows[v * self.words..(v + 1) * self.words]
    }

    /// Adds or removes the edge `a`-`b`; loops and vertices out of range are ignored.
    pub fn set_edge(&mut self, a: usize, b: usize, on: bool) {
        if a == b || a >= self.n || b >= self.n {
            return;
        }
        for (v, u) in [(a, b), (b, a)] {
            if on {
                set_bit(self.row_mut(v), u);
            } else {
                clear_bit(self.row_mut(v), u);
            }
        }
    }

    /// Whether `a` and `b` are adjacent; `false` for a vertex out of range, so that callers
    /// can map outsiders to [`usize::MAX`].
    pub fn edge(&self, a: usize, b: usize) -> bool {
        a < self.n && b < self.n && bit(&self.rows[a * self.words..(a + 1) * self.words], b)
    }
}

impl Adjacency for BitGraph {
    fn vertices(&self) -> usize {
        self.n
    }
    fn row_into(&self, v: usize, out: &mut [u64]) {
        out.copy_from_slice(&self.rows[v * self.words..(v + 1) * self.words]);
    }
    fn adjacent(&self, a: usize, b: usize) -> bool {
        self.edge(a, b)
    }
}

/// A maximum matching of the alive vertices of a graph, kept up to date as vertices are
/// removed or taken out in pairs. Every vertex starts alive and unmatched.
#[derive(Clone, Debug)]
pub struct Matcher<G> {
    graph: G,
    n: usize,
    words: usize,
    alive: Vec<u64>,
    matched: Vec<u64>,
    mate: Vec<usize>,
    // The state of one search. Every vertex a search touches is in `tree`, so that the
    // next search resets just those.
    parent: Vec<usize>,
    outer: Vec<u64>,
    tree: Vec<u64>,
    queue: Vec<usize>,
    /// Union-find over blossoms: `link[i] == i` for a representative.
    link: Vec<usize>,
    size: Vec<usize>,
    /// By representative: the blossom's base vertex, and its members' bitset (an index in
    /// `masks`, `NONE` for a single vertex).
    base_of: Vec<usize>,
    mask_of: Vec<usize>,
    masks: Vec<Vec<u64>>,
    masks_used: usize,
    stamp: u64,
    seen: Vec<u64>,
    merge: Vec<usize>,
    row: Vec<u64>,
    candidates: Vec<u64>,
}

impl<G: Adjacency> Matcher<G> {
    /// Every vertex of `graph` alive, none matched yet.
    pub fn new(graph: G) -> Matcher<G> {
        let n = graph.vertices();
        let words = n.div_ceil(64);
        let mut alive = vec![0; words];
        for v in 0..n {
            set_bit(&mut alive, v);
        }
        Matcher {
            graph,
            n,
            words,
            alive,
            matched: vec![0; words],
            mate: vec![NONE; n],
            parent: vec![NONE; n],
            outer: vec![0; words],
            tree: vec![0; words],
            queue: Vec::new(),
            link: (0..n).collect(),
            size: vec![1; n],
            base_of: (0..n).collect(),
            mask_of: vec![NONE; n],
            masks: Vec::new(),
            masks_used: 0,
            stamp: 0,
            seen: vec![0; n],
            merge: Vec::new(),
            row: vec![0; words],
            candidates: vec![0; words],
        }
    }

    pub fn graph(&self) -> &G {
        &self.graph
    }

    pub fn is_alive(&self, v: usize) -> bool {
        v < self.n && bit(&self.alive, v)
    }

    /// The vertex `v` is matched to, if any.
    pub fn mate(&self, v: usize) -> Option<usize> {
        self.mate.get(v).copied().filter(|&m| m != NONE)
    }

    fn set_alive(&mut self, v: usize, on: bool) {
        if on {
            set_bit(&mut self.alive, v);
        } else {
            clear_bit(&mut self.alive, v);
        }
    }

    fn pair_up(&mut self, a: usize, b: usize) {
        self.mate[a] = b;
        self.mate[b] = a;
        set_bit(&mut self.matched, a);
        set_bit(&mut self.matched, b);
    }

    fn unmatch(&mut self, a: usize) {
        self.mate[a] = NONE;
        clear_bit(&mut self.matched, a);
    }

    /// Removes `v` (paired elsewhere, or given the bye); its partner becomes exposed.
    pub fn remove(&mut self, v: usize) {
        if !self.is_alive(v) {
            return;
        }
        self.set_alive(v, false);
        let m = self.mate[v];
        if m != NONE {
            self.unmatch(m);
            self.unmatch(v);
        }
    }

    /// The alive vertices left unmatched.
    pub fn exposed(&self) -> Vec<usize> {
        (0..self.n)
            .filter(|&v| self.is_alive(v) && self.mate[v] == NONE)
            .collect()
    }

    /// Builds a maximum matching of the alive vertices, starting greedily: each vertex in
    /// turn (`0..n`) takes the first free neighbour in `order(v, 0)`, `order(v, 1)`, …;
    /// whether the matching covers them all. A greedy start in the caller's own candidate
    /// order keeps the matching close to what the caller will commit to, so that later
    /// [`Matcher::take_pair`] calls have little to repair.
    pub fn complete(&mut self, order: &dyn Fn(usize, usize) -> Option<usize>) -> bool {
        self.greedy(order);
        self.augment_all()
    }

    fn greedy(&mut self, order: &dyn Fn(usize, usize) -> Option<usize>) {
        for a in 0..self.n {
            if !self.is_alive(a) || self.mate[a] != NONE {
                continue;
            }
            let free = (0..)
                .map_while(|i| order(a, i))
                .find(|&b| self.is_alive(b) && self.mate[b] == NONE && self.graph.adjacent(a, b));
            if let Some(b) = free {
                self.pair_up(a, b);
            }
        }
    }

    /// Pairs `a` and `b` before a search, when both are alive, free and adjacent: a
    /// maximum matching built from here keeps them both matched (an augmenting path never
    /// leaves a matched vertex exposed). Whether they were paired.
    pub fn seed_pair(&mut self, a: usize, b: usize) -> bool {
        let free = |v: usize| self.is_alive(v) && self.mate[v] == NONE;
        if a == b || !free(a) || !free(b) || !self.graph.adjacent(a, b) {
            return false;
        }
        self.pair_up(a, b);
        true
    }

    /// A maximum matching of the alive vertices from a greedy start on the rows (each
    /// vertex in turn takes its lowest free neighbour, a word at a time), or the one held
    /// repaired after removals; whether it covers them all. Which maximum matching it holds
    /// is unspecified: for callers that only ask whether one is perfect.
    pub fn complete_by_rows(&mut self) -> bool {
        let mut row = std::mem::take(&mut self.row);
        for v in 0..self.n {
            if !self.is_alive(v) || self.mate[v] != NONE {
                continue;
            }
            self.graph.row_into(v, &mut row);
            let free = row
                .iter()
                .zip(self.alive.iter().zip(&self.matched))
                .enumerate()
                .find_map(|(w, (&r, (&a, &m)))| {
                    let bits = r & a & !m;
                    (bits != 0).then(|| w * 64 + bits.trailing_zeros() as usize)
                });
            // `v` itself is free but not in its row: a graph has no loops.
            if let Some(u) = free {
                self.pair_up(v, u);
            }
        }
        self.row = row;
        self.augment_all()
    }

    /// [`Matcher::complete`] with the greedy start in `order` (each vertex takes the first
    /// free neighbour after it in `order`); the number of alive vertices left exposed.
    pub fn maximize(&mut self, order: &[usize]) -> usize {
        for (i, &v) in order.iter().enumerate() {
            if !self.is_alive(v) || self.mate[v] != NONE {
                continue;
            }
            let free = order[i + 1..]
                .iter()
                .copied()
                .find(|&u| self.is_alive(u) && self.mate[u] == NONE && self.graph.adjacent(v, u));
            if let Some(u) = free {
                self.pair_up(v, u);
            }
        }
        self.augment_all();
        self.exposed().len()
    }

    /// An augmenting search from every exposed alive vertex; whether none is left exposed.
    /// An exposed vertex with no augmenting path never gets one later (Edmonds), so one pass
    /// is enough.
    fn augment_all(&mut self) -> bool {
        let mut complete = true;
        for v in 0..self.n {
            if self.is_alive(v) && self.mate[v] == NONE {
                match self.search(v) {
                    Some(end) => self.augment(end),
                    None => complete = false,
                }
            }
        }
        complete
    }

    /// With every alive vertex matched: takes the pair (p, c) out (both removed) if they are
    /// adjacent and the vertices left can still all be matched; otherwise changes nothing.
    pub fn take_pair(&mut self, p: usize, c: usize) -> bool {
        if p == c || !self.is_alive(p) || !self.is_alive(c) || !self.graph.adjacent(p, c) {
            return false;
        }
        let (p2, c2) = (self.mate[p], self.mate[c]);
        if p2 == NONE || c2 == NONE {
            return false;
        }
        self.set_alive(p, false);
        self.set_alive(c, false);
        if p2 == c {
            return true;
        }
        // p's and c's partners are left alone: a complete pairing of the rest exists if and
        // only if an augmenting path joins them (Berge).
        self.unmatch(p2);
        self.unmatch(c2);
        if let Some(end) = self.search(p2) {
            self.augment(end);
            self.pair_up(p, c);
            return true;
        }
        self.set_alive(p, true);
        self.set_alive(c, true);
        self.pair_up(p, p2);
        self.pair_up(c, c2);
        false
    }

    /// Takes `b` out of a maximum matching that leaves exactly `r` over, and re-pairs the
    /// rest completely if it can; otherwise the two left over.
    pub fn without(&mut self, b: usize, r: usize) -> Result<(), Vec<usize>> {
        self.set_alive(b, false);
        if b == r {
            return Ok(());
        }
        let partner = self.mate[b];
        if partner == NONE {
            return Err(vec![r]);
        }
        self.unmatch(b);
        self.unmatch(partner);
        match self.search(r) {
            Some(end) => {
                self.augment(end);
                Ok(())
            }
            None => Err(vec![r, partner]),
        }
    }

    /// With every alive vertex matched: the vertices p can be paired with so that the rest
    /// still pair completely (a bitset): c is one if and only if some maximum matching of
    /// G − p misses c, i.e. c is reached by an even alternating path from p's partner, the
    /// one vertex G − p leaves exposed (Gallai–Edmonds).
    pub fn possible_partners(&mut self, p: usize) -> Option<Vec<u64>> {
        let p2 = self.mate[p];
        if p2 == NONE {
            return None;
        }
        self.set_alive(p, false);
        self.unmatch(p2);
        // Every other alive vertex is matched, so the search runs to its end.
        let end = self.search(p2);
        let partners = self.outer.clone();
        self.set_alive(p, true);
        self.pair_up(p, p2);
        match end {
            None => Some(partners),
            Some(_) => None,
        }
    }

    /// The vertices reached from the exposed `root` by even alternating paths (a bitset),
    /// when the matching is maximum (so that the search finds no augmenting path).
    pub fn reachable_evenly(&mut self, root: usize) -> Option<Vec<u64>> {
        match self.search(root) {
            None => Some(self.outer.clone()),
            Some(_) => None,
        }
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.link[i] != i {
            self.link[i] = self.link[self.link[i]];
            i = self.link[i];
        }
        i
    }

    fn base(&mut self, i: usize) -> usize {
        let r = self.find(i);
        self.base_of[r]
    }

    /// Edmonds' search from the exposed `root`: the other end of an augmenting path, if
    /// any (its path stays in `parent` for [`Matcher::augment`]). Without one, `outer`
    /// holds the vertices reached by even alternating paths.
    fn search(&mut self, root: usize) -> Option<usize> {
        for w in 0..self.words {
            let mut bits = self.tree[w];
            while bits != 0 {
                let v = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.parent[v] = NONE;
                self.link[v] = v;
                self.size[v] = 1;
                self.base_of[v] = v;
                self.mask_of[v] = NONE;
            }
            self.tree[w] = 0;
            self.outer[w] = 0;
        }
        self.masks_used = 0;
        self.queue.clear();
        set_bit(&mut self.outer, root);
        set_bit(&mut self.tree, root);
        self.queue.push(root);
        let mut row = std::mem::take(&mut self.row);
        let mut candidates = std::mem::take(&mut self.candidates);
        let found = self.grow(root, &mut row, &mut candidates);
        self.row = row;
        self.candidates = candidates;
        found
    }

    fn grow(&mut self, root: usize, row: &mut [u64], candidates: &mut [u64]) -> Option<usize> {
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head];
            crate::cancel::checkpoint();
            head += 1;
            self.graph.row_into(v, row);
            for (slot, &a) in row.iter_mut().zip(&self.alive) {
                *slot &= a;
            }
            // An exposed neighbour: augmenting path (the usual case in a dense graph).
            for (w, &word) in row.iter().enumerate() {
                let mut hit = word & !self.matched[w];
                if w == root / 64 {
                    hit &= !(1 << (root % 64));
                }
                if hit != 0 {
                    let to = w * 64 + hit.trailing_zeros() as usize;
                    self.parent[to] = v;
                    set_bit(&mut self.tree, to);
                    return Some(to);
                }
            }
            // Vertices not in the tree are matched: each becomes odd, its mate outer.
            for (w, &word) in row.iter().enumerate() {
                let mut bits = word & !self.tree[w];
                while bits != 0 {
                    let to = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if bit(&self.tree, to) {
                        continue;
                    }
                    let m = self.mate[to];
                    self.parent[to] = v;
                    set_bit(&mut self.tree, to);
                    set_bit(&mut self.tree, m);
                    set_bit(&mut self.outer, m);
                    self.queue.push(m);
                }
            }
            // Edges to outer vertices of other blossoms close odd cycles: contract them.
            for (c, (&r, &o)) in candidates.iter_mut().zip(row.iter().zip(&self.outer)) {
                *c = r & o;
            }
            self.exclude_blossom(v, candidates);
            while let Some(to) = first_bit(candidates) {
                clear_bit(candidates, to);
                if self.base(v) == self.base(to) || self.mate[v] == to {
                    continue;
                }
                let current = self.lca(v, to);
                self.merge.clear();
                self.mark_path(v, current, to);
                self.mark_path(to, current, v);
                let mut rep = self.find(current);
                for i in 0..self.merge.len() {
                    let other = self.find(self.merge[i]);
                    if other != rep {
                        rep = self.union(rep, other);
                    }
                }
                self.base_of[rep] = current;
                self.exclude_blossom(v, candidates);
            }
        }
        None
    }

    /// Removes v's blossom from `candidates`.
    fn exclude_blossom(&mut self, v: usize, candidates: &mut [u64]) {
        let r = self.find(v);
        match self.mask_of[r] {
            NONE => clear_bit(candidates, r),
            m => {
                for (c, &b) in candidates.iter_mut().zip(&self.masks[m]) {
                    *c &= !b;
                }
            }
        }
    }

    /// Merges two blossoms (by representative); the new representative.
    fn union(&mut self, a: usize, b: usize) -> usize {
        let (big, small) = if self.size[a] >= self.size[b] {
            (a, b)
        } else {
            (b, a)
        };
        self.link[small] = big;
        self.size[big] += self.size[small];
        let mb = match self.mask_of[big] {
            NONE => {
                if self.masks_used == self.masks.len() {
                    self.masks.push(vec![0; self.words]);
                } else {
                    self.masks[self.masks_used].iter_mut().for_each(|x| *x = 0);
                }
                let m = self.masks_used;
                self.masks_used += 1;
                set_bit(&mut self.masks[m], big);
                self.mask_of[big] = m;
                m
            }
            m => m,
        };
        match self.mask_of[small] {
            NONE => set_bit(&mut self.masks[mb], small),
            ms => {
                for w in 0..self.words {
                    let x = self.masks[ms][w];
                    self.masks[mb][w] |= x;
                }
            }
        }
        big
    }

    /// Flips the augmenting path ending at `end` found by [`Matcher::search`].
    fn augment(&mut self, end: usize) {
        let mut u = end;
        while u != NONE {
            let pv = self.parent[u];
            let next = self.mate[pv];
            self.pair_up(u, pv);
            u = next;
        }
    }

    /// The base of the blossom where the tree paths from `a` and `b` to the root meet.
    fn lca(&mut self, mut a: usize, mut b: usize) -> usize {
        self.stamp += 1;
        let stamp = self.stamp;
        loop {
            a = self.base(a);
            self.seen[a] = stamp;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        loop {
            b = self.base(b);
            if self.seen[b] == stamp {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    /// Walks from `v` up to the blossom base `b`, re-pointing parents through the cycle
    /// (so that augmenting paths can go round it), noting the blossoms to merge and making
    /// the odd vertices on the way outer.
    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize) {
        while self.base(v) != b {
            let m = self.mate[v];
            self.merge.push(v);
            self.merge.push(m);
            if !bit(&self.outer, m) {
                set_bit(&mut self.outer, m);
                self.queue.push(m);
            }
            self.parent[v] = child;
            child = m;
            v = self.parent[m];
        }
    }
}

/// A maximum matching of the graph on `0..n` whose edges `adjacent` gives (it must be
/// symmetric): `mate[v]` is `v`'s partner, if matched.
///
/// The one-shot functions on a predicate do not use the bitset [`Matcher`], for two
/// reasons. A bitset search asks for whole rows, while this search asks the predicate
/// lazily and stops at the first free neighbour: on the backgammon draw's many small
/// sets, the bitset search measured four times slower. And which maximum matching is
/// returned is part of the backgammon draw's answer (who goes down when the search for
/// the fewest is cut short); the bitset search finds one of the same size but not always
/// the same one.
pub fn maximum_matching(n: usize, adjacent: impl Fn(usize, usize) -> bool) -> Vec<Option<usize>> {
    let mut m = Textbook::new(n, &adjacent);
    m.greedy();
    for root in 0..n {
        if m.mate[root] == NONE {
            m.augment_from(root);
        }
    }
    m.mate.iter().map(|&v| (v != NONE).then_some(v)).collect()
}

/// Whether the graph on `0..n` whose edges `adjacent` gives has a perfect matching.
pub fn has_perfect_matching(n: usize, adjacent: impl Fn(usize, usize) -> bool) -> bool {
    if n % 2 == 1 {
        return false;
    }
    let mut m = Textbook::new(n, &adjacent);
    m.greedy();
    // A vertex from which no augmenting path exists stays unmatched in every maximum
    // matching grown from this one (Edmonds), so the first failure decides.
    (0..n).all(|root| m.mate[root] != NONE || m.augment_from(root))
}

/// The number of pairs of a maximum matching of the graph on `0..n` whose edges `adjacent`
/// gives.
pub fn maximum_matching_size(n: usize, adjacent: impl Fn(usize, usize) -> bool) -> usize {
    maximum_matching(n, adjacent).iter().flatten().count() / 2
}

/// The Gallai-Edmonds set `D(G)` of the graph on `0..n` with adjacency `adj`, given a
/// maximum matching `mate`: the vertices that some maximum matching leaves uncovered. A new
/// vertex joined only to `x` increases the maximum matching iff `x` is in `D(G)`.
///
/// `D(G)` is the set of outer (even) vertices of Edmonds' search forest grown from every
/// uncovered vertex at once: the matching is maximum, so the forest only ever shrinks
/// blossoms. This is the same search as [`maximum_matching`]'s, started from all roots.
/// O(n^2) calls of `adj` plus O(n) per blossom. If `mate` is not maximum the result is not
/// meaningful (an augmenting path between two trees is ignored).
pub fn uncoverable(
    n: usize,
    adj: &dyn Fn(usize, usize) -> bool,
    mate: &[Option<usize>],
) -> Vec<bool> {
    let mut m = Textbook::new(n, &adj);
    for (v, slot) in m.mate.iter_mut().enumerate() {
        *slot = mate
            .get(v)
            .copied()
            .flatten()
            .filter(|&u| u < n)
            .unwrap_or(NONE);
    }
    let roots: Vec<usize> = (0..n).filter(|&v| m.mate[v] == NONE).collect();
    // With every uncovered vertex a root, a tree can only reach an uncovered vertex that is
    // itself a root, so the search ends without an augmenting path.
    let _ = m.grow(&roots);
    m.in_tree
}

/// The search behind the one-shot functions and [`uncoverable`]: the textbook blossom
/// algorithm (e-maxx order: neighbours by index, blossom members queued by index) on a
/// predicate, grown from one root (augmenting) or from all exposed vertices at once (the
/// Gallai-Edmonds forest).
struct Textbook<'a, F: Fn(usize, usize) -> bool> {
    n: usize,
    adjacent: &'a F,
    mate: Vec<usize>,
    parent: Vec<usize>,
    base: Vec<usize>,
    /// The outer (even) vertices of the forest: the roots, the mates of inner vertices and
    /// everything shrunk into a blossom.
    in_tree: Vec<bool>,
    queue: std::collections::VecDeque<usize>,
}

impl<'a, F: Fn(usize, usize) -> bool> Textbook<'a, F> {
    fn new(n: usize, adjacent: &'a F) -> Self {
        Textbook {
            n,
            adjacent,
            mate: vec![NONE; n],
            parent: vec![NONE; n],
            base: (0..n).collect(),
            in_tree: vec![false; n],
            queue: std::collections::VecDeque::new(),
        }
    }

    /// A maximal matching to start from: in dense graphs it leaves almost nothing to
    /// augment.
    fn greedy(&mut self) {
        for v in 0..self.n {
            if self.mate[v] != NONE {
                continue;
            }
            for u in v + 1..self.n {
                if self.mate[u] == NONE && (self.adjacent)(v, u) {
                    self.mate[v] = u;
                    self.mate[u] = v;
                    break;
                }
            }
        }
    }

    /// Searches an augmenting path from the free vertex `root` and applies it.
    fn augment_from(&mut self, root: usize) -> bool {
        match self.grow(&[root]) {
            Some(end) => {
                let mut u = end;
                while u != NONE {
                    let v = self.parent[u];
                    let next = self.mate[v];
                    self.mate[u] = v;
                    self.mate[v] = u;
                    u = next;
                }
                true
            }
            None => false,
        }
    }

    /// Grows the alternating forest from the free vertices `roots`: the free vertex an
    /// augmenting path ends at, if one is found (`parent` then holds the path back to its
    /// root); otherwise `in_tree` holds the forest's outer vertices.
    fn grow(&mut self, roots: &[usize]) -> Option<usize> {
        self.parent.fill(NONE);
        self.in_tree.fill(false);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.queue.clear();
        for &root in roots {
            self.in_tree[root] = true;
            self.queue.push_back(root);
        }
        while let Some(v) = self.queue.pop_front() {
            for u in 0..self.n {
                if u == v
                    || self.base[v] == self.base[u]
                    || self.mate[v] == u
                    || !(self.adjacent)(v, u)
                {
                    continue;
                }
                // Outer: a root (the only free vertices in the forest) or the mate of an
                // inner vertex.
                let u_is_outer = if self.mate[u] == NONE {
                    self.in_tree[u]
                } else {
                    self.parent[self.mate[u]] != NONE
                };
                if u_is_outer {
                    self.contract(v, u);
                } else if self.parent[u] == NONE {
                    self.parent[u] = v;
                    if self.mate[u] == NONE {
                        return Some(u);
                    }
                    let w = self.mate[u];
                    self.in_tree[w] = true;
                    self.queue.push_back(w);
                }
            }
        }
        None
    }

    /// Shrinks the odd cycle closed by the edge `v`-`u` into its base. Two outer vertices
    /// of different trees would make an augmenting path; only the multi-root forest can
    /// meet that, on a matching that is not maximum, and it is ignored there.
    fn contract(&mut self, v: usize, u: usize) {
        let Some(b) = self.common_base(v, u) else {
            return;
        };
        let mut in_blossom = vec![false; self.n];
        self.mark_path(v, b, u, &mut in_blossom);
        self.mark_path(u, b, v, &mut in_blossom);
        for i in 0..self.n {
            if in_blossom[self.base[i]] {
                self.base[i] = b;
                if !self.in_tree[i] {
                    self.in_tree[i] = true;
                    self.queue.push_back(i);
                }
            }
        }
    }

    /// The nearest common ancestor of `a` and `b` in the alternating forest, by bases;
    /// `None` if they are in different trees.
    fn common_base(&self, a: usize, b: usize) -> Option<usize> {
        let mut seen = vec![false; self.n];
        let mut x = a;
        loop {
            x = self.base[x];
            seen[x] = true;
            match self.mate[x] {
                NONE => break,
                m if self.parent[m] == NONE => break,
                m => x = self.parent[m],
            }
        }
        let mut y = b;
        loop {
            y = self.base[y];
            if seen[y] {
                return Some(y);
            }
            match self.mate[y] {
                NONE => return None,
                m if self.parent[m] == NONE => return None,
                m => y = self.parent[m],
            }
        }
    }

    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize, in_blossom: &mut [bool]) {
        while self.base[v] != b {
            let m = self.mate[v];
            in_blossom[self.base[v]] = true;
            in_blossom[self.base[m]] = true;
            self.parent[v] = child;
            child = m;
            v = self.parent[m];
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// The greedy start of the one-shot functions: each vertex takes the next free
    /// neighbour above it.
    fn upward(n: usize) -> impl Fn(usize, usize) -> Option<usize> {
        move |v, i| (v + 1 + i < n).then_some(v + 1 + i)
    }

    fn from_matrix(adj: &[Vec<bool>]) -> BitGraph {
        BitGraph::from_fn(adj.len(), |a, b| adj[a][b])
    }

    fn graph(n: usize, edges: &[(usize, usize)]) -> BitGraph {
        let mut g = BitGraph::new(n);
        for &(a, b) in edges {
            g.set_edge(a, b, true);
        }
        g
    }

    /// Whether a perfect matching of `alive` exists in `adjacency`, by brute force.
    fn brute_force_perfect(adjacency: &[Vec<bool>], alive: &mut Vec<bool>) -> bool {
        let Some(v) = alive.iter().position(|&a| a) else {
            return true;
        };
        alive[v] = false;
        for u in 0..alive.len() {
            if alive[u] && adjacency[v][u] {
                alive[u] = false;
                let ok = brute_force_perfect(adjacency, alive);
                alive[u] = true;
                if ok {
                    alive[v] = true;
                    return true;
                }
            }
        }
        alive[v] = true;
        false
    }

    fn random_graph(rng: &mut ChaCha8Rng, n: usize, density: f64) -> Vec<Vec<bool>> {
        let pairs: Vec<(usize, usize)> = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect();
        let mut adj = vec![vec![false; n]; n];
        for (a, b) in pairs {
            if rng.random_bool(density) {
                adj[a][b] = true;
                adj[b][a] = true;
            }
        }
        adj
    }

    /// Without `remove`'s vertices, as a smaller matrix.
    fn without(adj: &[Vec<bool>], remove: &[usize]) -> Vec<Vec<bool>> {
        let keep: Vec<usize> = (0..adj.len()).filter(|v| !remove.contains(v)).collect();
        keep.iter()
            .map(|&a| keep.iter().map(|&b| adj[a][b]).collect())
            .collect()
    }

    /// The size of a maximum matching by the textbook search behind [`maximum_matching`]:
    /// the reference the bitset matcher is checked against.
    fn reference_matching_size(adj: &[Vec<bool>]) -> usize {
        maximum_matching(adj.len(), |a, b| adj[a][b])
            .iter()
            .flatten()
            .count()
            / 2
    }

    #[test]
    fn the_complete_graph_has_every_edge_and_no_loop() {
        for n in [0, 1, 2, 63, 64, 65, 100, 127, 128, 129] {
            let g = BitGraph::complete(n);
            let every = BitGraph::from_fn(n, |_, _| true);
            assert_eq!(g.rows, every.rows, "n = {n}: the bits beyond n stay clear");
            for a in 0..n {
                assert!(!g.edge(a, a), "n = {n}: no loop at {a}");
            }
        }
    }

    #[test]
    fn finds_a_perfect_matching_through_a_blossom() {
        // A triangle 0-1-2 with a tail 2-3 and 0-4, 4-5: the perfect matching is 4-5, 2-3,
        // then 0-1.
        let mut m = Matcher::new(graph(6, &[(0, 1), (1, 2), (2, 0), (2, 3), (0, 4), (4, 5)]));
        assert_eq!(m.maximize(&[0, 1, 2, 3, 4, 5]), 0);
        assert_eq!(m.mate(3), Some(2));
        assert_eq!(m.mate(5), Some(4));
        assert_eq!(m.mate(0), Some(1));
    }

    #[test]
    fn finds_perfect_matchings_through_blossoms() {
        // The same graph, one-shot: the greedy start must not matter.
        let edges = [(0, 1), (1, 2), (0, 2), (2, 3), (0, 4), (4, 5)];
        let adj = |a: usize, b: usize| edges.contains(&(a.min(b), a.max(b)));
        let mate = maximum_matching(6, adj);
        assert_eq!(maximum_matching_size(6, adj), 3);
        assert!(has_perfect_matching(6, adj));
        for (v, m) in mate.iter().enumerate() {
            let m = m.expect("matched");
            assert!(adj(v, m));
            assert_eq!(mate[m], Some(v));
        }
    }

    #[test]
    fn reports_no_perfect_matching() {
        // A star: 0 joined to 1, 2, 3.
        let mut m = Matcher::new(graph(4, &[(0, 1), (0, 2), (0, 3)]));
        assert_eq!(m.maximize(&[0, 1, 2, 3]), 2);
    }

    #[test]
    fn one_shot_functions_agree_with_brute_force() {
        let mut state = 0x1234_5678_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..400 {
            let n = (next() % 9) as usize;
            let density = next() % 100;
            // Each unordered pair's edge, by its index in a flat table.
            let edge: Vec<bool> = (0..n * n).map(|_| next() % 100 < density).collect();
            let adj: Vec<Vec<bool>> = (0..n)
                .map(|a| {
                    (0..n)
                        .map(|b| a != b && edge[a.min(b) * n + a.max(b)])
                        .collect()
                })
                .collect();
            let f = |a: usize, b: usize| adj[a][b];
            let perfect = n.is_multiple_of(2) && brute_force_perfect(&adj, &mut vec![true; n]);
            assert_eq!(has_perfect_matching(n, f), perfect, "{adj:?}");
            let size = maximum_matching_size(n, f);
            assert_eq!(size, reference_matching_size(&adj), "{adj:?}");
            if perfect {
                assert_eq!(size * 2, n);
            }
        }
    }

    #[test]
    fn matcher_agrees_with_brute_force() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for case in 0..400 {
            let n = 2 * rng.random_range(1..=6);
            let density = rng.random_range(0.15..0.7);
            let adj = random_graph(&mut rng, n, density);
            let mut alive = vec![true; n];
            let expected = brute_force_perfect(&adj, &mut alive);
            let mut m = Matcher::new(from_matrix(&adj));
            assert_eq!(m.complete(&upward(n)), expected, "case {case}");
            if !expected {
                continue;
            }
            // Taking pairs out one by one: feasible exactly when brute force says so, and
            // the possible partners of p are those brute force accepts.
            let mut alive = vec![true; n];
            while let Some(p) = alive.iter().position(|&a| a) {
                let partners = m.possible_partners(p).expect("a perfect matching");
                for c in p + 1..n {
                    if alive[c] && adj[p][c] {
                        alive[p] = false;
                        alive[c] = false;
                        let feasible = brute_force_perfect(&adj, &mut alive);
                        alive[p] = true;
                        alive[c] = true;
                        assert_eq!(
                            bit(&partners, c),
                            feasible,
                            "case {case}: partner {c} of {p}"
                        );
                    }
                }
                let mut taken = false;
                for c in p + 1..n {
                    if !alive[c] {
                        continue;
                    }
                    alive[p] = false;
                    alive[c] = false;
                    // Non-neighbours are refused too.
                    let feasible = adj[p][c] && brute_force_perfect(&adj, &mut alive);
                    assert_eq!(m.take_pair(p, c), feasible, "case {case}: {p}-{c}");
                    if feasible {
                        taken = true;
                        break;
                    }
                    alive[p] = true;
                    alive[c] = true;
                }
                assert!(taken, "case {case}: a perfect matching was promised");
            }
        }
    }

    #[test]
    fn removing_vertices_agrees_with_brute_force() {
        let mut rng = ChaCha8Rng::seed_from_u64(42);
        for case in 0..300 {
            let n = rng.random_range(2..=11);
            let adj = random_graph(&mut rng, n, 0.6);
            let mut m = Matcher::new(from_matrix(&adj));
            let mut alive = vec![true; n];
            // One vertex out (a bye), then the oracle on what is left.
            let b = rng.random_range(0..n);
            m.remove(b);
            alive[b] = false;
            let all: Vec<usize> = (0..n).collect();
            let expected = brute_force_perfect(&adj, &mut alive);
            assert_eq!(m.maximize(&all) == 0, expected, "case {case}");
            assert!(!m.is_alive(b));
        }
    }

    #[test]
    fn matcher_agrees_with_the_textbook_algorithm_on_larger_graphs() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for case in 0..120 {
            let n = 2 * rng.random_range(10..=70);
            // Dense graphs with a few sparse rows: the shape of a pairing list in which
            // some players may meet few others.
            let density = [0.05, 0.2, 0.6, 0.9, 0.97][case % 5];
            let mut adj = random_graph(&mut rng, n, density);
            for _ in 0..rng.random_range(0..n / 4) {
                let v = rng.random_range(0..n);
                let cut: Vec<usize> = (0..n).filter(|&u| u != v && rng.random_bool(0.8)).collect();
                for u in cut {
                    adj[v][u] = false;
                    adj[u][v] = false;
                }
            }
            let perfect = reference_matching_size(&adj) * 2 == n;
            let mut m = Matcher::new(from_matrix(&adj));
            assert_eq!(m.complete(&upward(n)), perfect, "case {case}");
            if !perfect {
                continue;
            }
            for p in [0, n / 3, n - 1] {
                let partners = m.possible_partners(p).expect("a perfect matching");
                let mut neighbours: Vec<usize> = (0..n).filter(|&c| c != p && adj[p][c]).collect();
                neighbours.shuffle(&mut rng);
                for &c in neighbours.iter().take(6) {
                    let rest = without(&adj, &[p, c]);
                    let feasible = reference_matching_size(&rest) * 2 == n - 2;
                    assert_eq!(
                        bit(&partners, c),
                        feasible,
                        "case {case}: partner {c} of {p}"
                    );
                }
            }
        }
    }
    /// `D(G)` by its definition: `x` is in it iff removing `x` keeps the maximum matching's
    /// size, measured by the other search (the bitset [`Matcher`]) so that the two cores
    /// check each other.
    #[test]
    fn uncoverable_matches_the_definition_on_random_graphs() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for round in 0..600 {
            let n = 1 + rng.random_range(0..14);
            let density = [0.15, 0.3, 0.5, 0.8][round % 4];
            let adj = random_graph(&mut rng, n, density);
            let mate = maximum_matching(n, |a, b| adj[a][b]);
            let d = uncoverable(n, &|a, b| adj[a][b], &mate);
            assert_eq!(d.len(), n);
            let size = |adj: &[Vec<bool>]| {
                let order: Vec<usize> = (0..adj.len()).collect();
                (adj.len() - Matcher::new(from_matrix(adj)).maximize(&order)) / 2
            };
            let full = size(&adj);
            for (x, &in_d) in d.iter().enumerate() {
                let without_x = size(&without(&adj, &[x]));
                assert_eq!(in_d, without_x == full, "round {round} vertex {x}");
            }
        }
    }
}
