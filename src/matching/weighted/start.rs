//! The first solve (and a batch reset, which warm-starts the same way): duals from the
//! heaviest edges lowered vertex by vertex, greedy pairing along the edges this makes
//! tight, the pass through a matched pair on large graphs, and the dual adjustments shared
//! by all free vertices before any stage; the stages only repair what is left.
//! docs/incremental-matching.md, "The first solve"; the variant from vertex classes is in
//! `classes.rs`.
use super::{DenseWeight, DynamicError, DynamicMatching, FREE, INNER, NIL, OUTER, WeightSource};

/// From this many vertices the first solve pairs free vertices through a matched pair
/// (`DynamicMatching::pair_through_a_matched_pair`); below, the stages it saves are cheap.
const SHORT_PATHS_FROM: usize = 4096;
/// How many tight neighbours, and free vertices for each, that pass tries.
const SHORT_SCAN: usize = 64;

impl<W: DenseWeight> DynamicMatching<W> {
    /// Matches free vertex `v` with the first free vertex outside blossoms among
    /// `self.active[positions]` joined to it by a tight edge, if any (an augmenting path of
    /// one edge: every dual stays, and both ends satisfy the conditions).
    pub(super) fn pair_first_tight<S: WeightSource<W>>(
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

    /// The first solve: every dual at the heaviest edge at its vertex (feasible), lowered
    /// to the least feasible one vertex after the other, then
    /// a greedy matching of the edges that this makes tight (each the heaviest at both
    /// ends); the stages only repair what the greedy pass left.
    pub(super) fn start<S: WeightSource<W>>(&mut self, ws: &S) -> Result<(), DynamicError> {
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
        let mut forest = Forest::new(self.n);
        for _ in 0..PHASES {
            crate::cancel::checkpoint();
            let free = self.free_with_positive_dual();
            self.pair_free_tight_to_each_other(ws, &free)?;
            if !self.grow_forest(ws, &free, &mut forest)? {
                return Ok(());
            }
            let Some(moves) = self.moving_vertices(&mut forest) else {
                return Ok(());
            };
            let Some(delta) = self.shared_delta(ws, &forest, &moves)? else {
                return Ok(());
            };
            for &v in &self.active {
                if moves[v as usize] {
                    match forest.lab[v as usize] {
                        OUTER => self.dual[v as usize] = self.dual[v as usize].wsub(delta),
                        INNER => self.dual[v as usize] = self.dual[v as usize].wadd(delta),
                        _ => {}
                    }
                }
            }
        }
        Ok(())
    }

    /// A phase's greedy pairing: each vertex of `free` still free is matched with the first
    /// later one still free that a tight edge joins it to.
    fn pair_free_tight_to_each_other<S: WeightSource<W>>(
        &mut self,
        ws: &S,
        free: &[u32],
    ) -> Result<(), DynamicError> {
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
        Ok(())
    }

    /// A phase's labelling: one alternating tree from every vertex of `free` still free,
    /// grown along tight edges; trees linked by a tight edge to an inner vertex are joined,
    /// and a tree with a tight edge to an outer vertex or to a free one is blocked. False
    /// when there is no root.
    fn grow_forest<S: WeightSource<W>>(
        &self,
        ws: &S,
        free: &[u32],
        forest: &mut Forest,
    ) -> Result<bool, DynamicError> {
        let Forest {
            lab,
            tree,
            outer,
            link,
            blocked,
        } = forest;
        lab.fill(FREE);
        tree.fill(NIL);
        outer.clear();
        for &v in free {
            if self.mate[v as usize] == NIL {
                tree[v as usize] = outer.len() as u32;
                lab[v as usize] = OUTER;
                outer.push(v);
            }
        }
        let roots = outer.len();
        if roots == 0 {
            return Ok(false);
        }
        link.clear();
        link.extend(0..roots as u32);
        blocked.clear();
        blocked.resize(roots, false);
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
                        let (a, b) = (find(link, tx), find(link, tree[yi]));
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
        Ok(true)
    }

    /// The vertices of the trees that move: a tree moves only if nothing joined to it is
    /// blocked. `None` when none moves.
    fn moving_vertices(&self, forest: &mut Forest) -> Option<Vec<bool>> {
        let roots = forest.blocked.len();
        let mut stuck = vec![false; roots];
        for t in 0..roots as u32 {
            if forest.blocked[t as usize] {
                let r = find(&mut forest.link, t);
                stuck[r as usize] = true;
            }
        }
        let mut moves = vec![false; self.n];
        let mut any = false;
        for &v in &self.active {
            let t = forest.tree[v as usize];
            if t != NIL {
                let r = find(&mut forest.link, t);
                if !stuck[r as usize] {
                    moves[v as usize] = true;
                    any = true;
                }
            }
        }
        any.then_some(moves)
    }

    /// δ of a shared adjustment: the least, over the outer vertices that move, of their
    /// duals, their slacks to every vertex that does not move, and half their slacks to
    /// outer ones that do. `None` when it is zero.
    fn shared_delta<S: WeightSource<W>>(
        &self,
        ws: &S,
        forest: &Forest,
        moves: &[bool],
    ) -> Result<Option<W>, DynamicError> {
        let mut delta: Option<W> = None;
        let mut least = |d: W| {
            if delta.is_none_or(|cur| d < cur) {
                delta = Some(d);
            }
        };
        for &x in &forest.outer {
            if !moves[x as usize] {
                continue;
            }
            let ux = self.dual[x as usize];
            least(ux);
            for &y in &self.active {
                let yi = y as usize;
                if y == x || (moves[yi] && forest.lab[yi] == INNER) {
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
        Ok(delta.filter(|&d| d > W::ZERO))
    }
}

/// The alternating trees of a shared adjustment of the first solve
/// (`DynamicMatching::start_phases`), one from each free vertex of positive dual; the
/// buffers are reused from phase to phase.
struct Forest {
    /// `FREE`, `OUTER` or `INNER` for each vertex.
    lab: Vec<u8>,
    /// The tree of each labelled vertex (an index into the roots, `NIL` for the others).
    tree: Vec<u32>,
    /// The outer vertices in the order they were labelled, the roots first.
    outer: Vec<u32>,
    /// Trees joined when a tight edge links them (they must move together), by `find`.
    link: Vec<u32>,
    /// Trees with a tight edge to an outer vertex or to a free one.
    blocked: Vec<bool>,
}

impl Forest {
    fn new(n: usize) -> Forest {
        Forest {
            lab: vec![FREE; n],
            tree: vec![NIL; n],
            outer: Vec::new(),
            link: Vec::new(),
            blocked: Vec::new(),
        }
    }
}

/// The tree that tree `t` is joined to (its root in `link`, halving the path on the way).
fn find(link: &mut [u32], mut t: u32) -> u32 {
    while link[t as usize] != t {
        let up = link[link[t as usize] as usize];
        link[t as usize] = up;
        t = up;
    }
    t
}
