//! One primal-dual stage from a single free vertex of positive dual: grow an alternating
//! tree (outer and inner labels, the least slack to each vertex in `best`), adjust the
//! duals by the largest step that keeps the certificate, and end with an augmenting path
//! or with the dual of an outer vertex at zero. Blossoms met on the way are shrunk and
//! expanded by `blossoms.rs`. docs/incremental-matching.md, "Restoring optimality after a
//! change".
use super::{DenseWeight, DynamicError, DynamicMatching, FREE, INNER, NIL, OUTER, WeightSource};

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

impl<W: DenseWeight> DynamicMatching<W> {
    /// `u_s + u_x - 2w(s,x)` for the best outer vertex `s` recorded for `x`.
    #[inline]
    fn slack_via_best(&self, x: usize) -> W {
        self.best_key[x].wsub(self.shift).wadd(self.dual[x])
    }

    pub(super) fn note_labelled(&mut self, b: u32) {
        if !self.in_labelled[b as usize] {
            self.in_labelled[b as usize] = true;
            self.labelled.push(b);
        }
    }

    /// Labels top-level blossom `b` outer and queues its vertices for scanning.
    pub(super) fn make_outer(&mut self, b: u32, edge: (u32, u32)) {
        self.label[b as usize] = OUTER;
        self.label_edge[b as usize] = edge;
        self.note_labelled(b);
        self.queue_leaves(b);
    }

    /// One stage from free vertex `root` (positive dual).
    pub(super) fn stage<S: WeightSource<W>>(
        &mut self,
        ws: &S,
        root: u32,
    ) -> Result<(), DynamicError> {
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
        let mut weights = std::mem::take(&mut self.row_weights);
        let out = self.scan_rows(ws, &mut weights);
        self.row_weights = weights;
        out
    }

    /// `scan_queue`'s loop, with the row weights' buffer lent out.
    fn scan_rows<S: WeightSource<W>>(
        &mut self,
        ws: &S,
        weights: &mut Vec<W>,
    ) -> Result<bool, DynamicError> {
        while let Some(v) = self.queue.pop() {
            self.stats.scans += 1;
            crate::cancel::checkpoint();
            let vi = v as usize;
            let uv = self.dual[vi];
            let key_base = uv.wadd(self.shift);
            // `active` is not modified during a stage: the row is read once.
            let row = self.row(v);
            ws.weights_from(vi, &self.active[row.clone()], weights);
            if self.augment_first
                && let Some(w) = self.tight_free_in_row(v, row.clone(), weights)
                && self.tight_to_unlabelled(v, w)
            {
                return Ok(true);
            }
            for (i, k) in row.enumerate() {
                let w = self.active[k];
                if w == v {
                    continue;
                }
                let wi = w as usize;
                let raw = weights.get(i).copied().unwrap_or(W::ZERO);
                if raw <= W::ZERO {
                    continue;
                }
                if !raw.fits_headroom() {
                    return Err(DynamicError::WeightTooLarge { a: vi, b: wi });
                }
                let d = raw.twice();
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

    /// The first vertex of `v`'s row (weights read into `weights`) joined to `v` by a
    /// tight edge and in a free blossom whose base is unmatched: an augmenting path's end
    /// (`use_augment_first`).
    fn tight_free_in_row(
        &self,
        v: u32,
        row: core::ops::Range<usize>,
        weights: &[W],
    ) -> Option<u32> {
        let uv = self.dual[v as usize];
        let bv = self.top[v as usize];
        for (i, k) in row.enumerate() {
            let w = self.active[k];
            let raw = weights.get(i).copied().unwrap_or(W::ZERO);
            if w == v || raw <= W::ZERO || !raw.fits_headroom() {
                continue;
            }
            let bw = self.top[w as usize];
            if bw == bv
                || self.label[bw as usize] != FREE
                || self.mate[self.base[bw as usize] as usize] != NIL
            {
                continue;
            }
            if uv.wadd(self.dual[w as usize]).wsub(raw.twice()) == W::ZERO {
                return Some(w);
            }
        }
        None
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
}
