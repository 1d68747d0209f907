//! Blossoms, the odd cycles shrunk to one vertex: the walks over a blossom's vertices,
//! shrinking a cycle found in a stage (`add_blossom`), rotating its base when a path
//! augments through it (`augment_blossom`), expanding it when its dual reaches zero
//! (`expand_inner` in a stage, `expand_quiet` after one), and dissolving the blossoms
//! around a vertex that is reset (`free_vertex`), their duals pushed onto their vertices.
use super::{DenseWeight, DynamicError, DynamicMatching, FREE, INNER, NIL, OUTER};

impl<W: DenseWeight> DynamicMatching<W> {
    /// Dissolves every blossom holding `v` so that `v` is a top-level vertex. A dissolved
    /// blossom's dual is pushed onto its vertices (edges inside keep their slack); its base
    /// loses its outside mate, and both are queued for repair.
    ///
    /// The blossoms are dissolved from the top down. Each vertex gets the half duals of all
    /// the dissolved blossoms holding it, and its final top, in one walk: a vertex deep in
    /// nested blossoms is not revisited at every level (which costs the square of the
    /// nesting depth), and the sums are the same (exact arithmetic).
    pub(super) fn free_vertex(&mut self, v: u32) {
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

    pub(super) fn leaves(&self, b: u32, out: &mut Vec<u32>) {
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
    pub(super) fn queue_leaves(&mut self, b: u32) {
        self.each_leaf(b, |m, x| m.queue.push(x));
    }

    /// Rotates blossom `b` so that its vertex `v` becomes the base, rematching inside.
    ///
    /// The blossoms holding `v` below `b` are rotated first, innermost first, from one
    /// walk up from `v`: walking up again for each level costs the square of the nesting
    /// depth, and unit weights nest blossoms thousands deep (issue 37).
    pub(super) fn augment_blossom(&mut self, b: u32, v: u32) {
        let mut path = std::mem::take(&mut self.augment_path);
        path.clear();
        let mut t = v;
        while self.parent[t as usize] != b {
            t = self.parent[t as usize];
            path.push(t);
        }
        // The rotations below may rotate other children's blossoms, which takes the
        // buffer in turn: it is handed back empty at the end.
        let mut child = v;
        for &inner in &path {
            self.rotate_blossom(inner, child, v);
            child = inner;
        }
        path.clear();
        self.augment_path = path;
        self.rotate_blossom(b, child, v);
    }

    /// `augment_blossom` for blossom `b` alone, its child `t` (holding `v`) already
    /// rotated: rematches the cycle so that `t` comes first and `v` is the base.
    fn rotate_blossom(&mut self, b: u32, t: u32, v: u32) {
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
    pub(super) fn add_blossom(&mut self, v: u32, w: u32) -> Result<(), DynamicError> {
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
        let base = self.base[common as usize];
        let label_edge = self.label_edge[common as usize];
        // Inner sub-blossoms become outer: their vertices need scanning.
        for &c in &childs {
            if self.label[c as usize] == INNER {
                self.queue_leaves(c);
            }
        }
        let leaf_count = childs.iter().map(|&c| self.leaf_count[c as usize]).sum();
        // The new blossom takes the id of its largest sub-blossom, whose vertices then keep
        // their top, and that sub-blossom moves to the fresh id `nb`: only the other
        // children's vertices are relabelled. When the tree grows one blossom around the
        // last (unit weights, every edge tight), relabelling all of them at every step is
        // quadratic in the tree (issue 37: half of a 100,000-player round). The structure
        // is the same either way, only the blossoms' names differ.
        let largest = childs
            .iter()
            .copied()
            .filter(|&c| c as usize >= self.n)
            .max_by_key(|&c| self.leaf_count[c as usize]);
        let id = match largest {
            Some(big) => {
                self.rename_blossom(big, nb);
                if let Some(slot) = childs.iter_mut().find(|c| **c == big) {
                    *slot = nb;
                }
                big
            }
            None => nb,
        };
        let idi = id as usize;
        for &c in &childs {
            self.parent[c as usize] = id;
            if largest.is_none() || c != nb {
                self.set_top(c, id);
            }
        }
        self.base[idi] = base;
        self.dual[idi] = W::ZERO;
        self.label[idi] = OUTER;
        self.label_edge[idi] = label_edge;
        self.leaf_count[idi] = leaf_count;
        self.note_labelled(id);
        self.childs[idi] = childs;
        self.cycle[idi] = cycle;
        Ok(())
    }

    /// Moves top-level blossom `from` to the unused id `to` (its children, cycle, base,
    /// dual and size), so that `from` can name the blossom about to hold it. Its labels
    /// are those of a sub-blossom (no stage reads them, and the stage's end would clear
    /// them), and its vertices' top is set by the caller.
    fn rename_blossom(&mut self, from: u32, to: u32) {
        let (f, t) = (from as usize, to as usize);
        self.childs[t] = std::mem::take(&mut self.childs[f]);
        self.cycle[t] = std::mem::take(&mut self.cycle[f]);
        for k in 0..self.childs[t].len() {
            let c = self.childs[t][k];
            self.parent[c as usize] = to;
        }
        self.base[t] = self.base[f];
        self.dual[t] = self.dual[f];
        self.leaf_count[t] = self.leaf_count[f];
        self.label[t] = FREE;
        self.label_edge[t] = (NIL, NIL);
    }

    /// Expands inner blossom `b` (dual zero) during a stage, relabelling the children on
    /// the even path from the entry child to the base child.
    pub(super) fn expand_inner(&mut self, b: u32) -> Result<(), DynamicError> {
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

    /// Expands a blossom outside a stage (its dual is zero), and its children with zero
    /// dual.
    /// A child expanded in turn gets no top of its own: its children's tops are set when
    /// it is expanded (once per vertex, not once per level of nesting).
    pub(super) fn expand_quiet(&mut self, b: u32) {
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
}
