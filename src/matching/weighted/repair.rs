//! Changes between solves and the repairs that follow: the caller's `touch`, `remove`,
//! `restart` and `raise_dual`, then [`DynamicMatching::solve`], which keeps each touched
//! vertex's certificate by shifting its dual or resets it (one by one, or together with
//! `use_batch_reset`), and runs one stage per free vertex of positive dual left.
//! docs/incremental-matching.md, "Restoring optimality after a change".
use super::{DenseWeight, DynamicError, DynamicMatching, FREE, NIL, WeightSource};

impl<W: DenseWeight> DynamicMatching<W> {
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

    /// Whether `v` is a free vertex with a positive dual (a pending repair).
    pub(super) fn needs_repair(&self, v: u32) -> bool {
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
}
