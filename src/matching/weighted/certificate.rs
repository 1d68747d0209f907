//! A frozen optimality certificate: a snapshot of an optimal matching with its duals (the
//! vertex duals and each blossom as an odd set with its dual), for a caller that asks a
//! run of questions "is there an optimal matching pairing `v` with `u`?" and removes each
//! answered pair, without paying for the matcher's blossom bookkeeping after each one.
//!
//! Removing a vertex held in a blossom makes the matcher dissolve the blossom, and when
//! the blossom's base is matched outside it, that pair is freed and repaired by a search
//! over the whole blossom, to rebuild the same blossom. A pairing procedure that fixes
//! the pairs of a bracket one by one inside a large blossom (a chain of score groups, each
//! sending one player down to the next) pays that repair for every pair. The certificate
//! instead keeps the sets and their duals and only does the accounting.
//!
//! Why it is exact. With doubled weights, duals `y_v >= 0` and `z_S >= 0` on a family of
//! vertex sets are *feasible* when `y_a + y_b + Σ_{S ∋ a,b} z_S >= 2 w(ab)` for every edge.
//! For every matching `M` of the live vertices, `Σ_{ab ∈ M} (y_a + y_b + Σ z_S) =
//! Σ_{matched} y_v + Σ_S z_S |M ∩ E(S)| <= Σ y_v + Σ_S z_S ⌊|S|/2⌋`, since a set holds at
//! most `⌊|S|/2⌋` pairs, odd or even. So this bound is at least twice every matching's
//! weight, and a matching that reaches it is optimal: its edges are tight, its unmatched
//! vertices have dual zero, and each set of positive dual holds `⌊|S|/2⌋` of its pairs
//! (complementary slackness). The matcher's optimum and duals satisfy this with its
//! blossoms as sets; removing a pair from the graph keeps the duals feasible on what is
//! left (sets simply lose those vertices), so a matching of the remaining vertices that
//! still satisfies those three conditions is optimal there, and every optimal matching
//! satisfies them too (it reaches the same bound). Hence:
//!
//! * an edge with positive slack is in no optimal matching, and
//! * `v` may be paired with `u` when an exchange is found that keeps the three
//!   conditions: `uv` tight, then either `u` is `v`'s mate, or their mates `v'`, `u'` are
//!   paired together (a tight edge), or both left unmatched (duals zero), every set of
//!   positive dual holding `⌊|S|/2⌋` pairs of the new matching, `uv` included. That
//!   matching is optimal, so some optimum pairs `v` with `u`; without them it is optimal
//!   for the rest and still meets the conditions (a set holding one of the two was odd,
//!   else it could not be full with that one's mate outside). Checking the conditions on
//!   the rest alone would not do: a set left even by an earlier removal can meet them
//!   without `u`, `v` while no optimum pairs them.
//!
//! When no such exchange is found nothing is concluded: the caller asks the matcher.
use super::{DenseWeight, DynamicError, DynamicMatching, NIL, WeightSource};

/// A frozen certificate; see the module documentation.
#[derive(Clone, Debug)]
pub struct Certificate<W> {
    n: usize,
    /// Vertex duals `0..n` and set duals `n..2n` (the matcher's blossom ids).
    dual: Vec<W>,
    /// The smallest set holding each vertex or set, `NIL` at the top.
    parent: Vec<u32>,
    mate: Vec<u32>,
    live: Vec<bool>,
    /// Per set: live vertices in it, and matched pairs inside it.
    size: Vec<u32>,
    inside: Vec<u32>,
    /// Scratch: per set, the stamp of the last walk that marked it, and a value.
    stamp: Vec<u32>,
    now: u32,
    sum: Vec<W>,
    bits: Vec<u8>,
}

impl<W: DenseWeight> DynamicMatching<W> {
    /// The current optimum and its certificate, frozen; `None` while a `solve` is due
    /// (touched vertices, a free vertex of positive dual to repair).
    pub fn certificate(&self) -> Option<Certificate<W>> {
        if !self.touched.is_empty() || self.pending.iter().any(|&p| self.needs_repair(p)) {
            return None;
        }
        let n = self.n;
        let mut c = Certificate {
            n,
            dual: self.dual.clone(),
            parent: self.parent.clone(),
            mate: self.mate.clone(),
            live: self.removed.iter().map(|&r| !r).collect(),
            size: vec![0; 2 * n],
            inside: vec![0; 2 * n],
            stamp: vec![0; 2 * n],
            now: 0,
            sum: vec![W::ZERO; 2 * n],
            bits: vec![0; 2 * n],
        };
        for v in 0..n {
            if !c.live[v] {
                c.mate[v] = NIL;
                continue;
            }
            let mut s = c.parent[v];
            while s != NIL {
                c.size[s as usize] += 1;
                s = c.parent[s as usize];
            }
        }
        for v in 0..n {
            let m = c.mate[v];
            if m != NIL && (v as u32) < m {
                c.mark(&[v as u32, m]);
                let mut s = c.parent[v];
                while s != NIL {
                    if c.bits[s as usize] == 0b11 {
                        c.inside[s as usize] += 1;
                    }
                    s = c.parent[s as usize];
                }
            }
        }
        Some(c)
    }
}

impl<W: DenseWeight> Certificate<W> {
    /// `v`'s mate in the matching held.
    pub fn mate(&self, v: usize) -> Option<usize> {
        match self.mate.get(v) {
            Some(&m) if m != NIL => Some(m as usize),
            _ => None,
        }
    }

    /// A stamp no set carries yet (all cleared when the counter wraps).
    fn next_stamp(&mut self) {
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.now = 1;
        }
    }

    /// Marks the sets holding each of `vs` (bit `i` for `vs[i]`) under a new stamp.
    fn mark(&mut self, vs: &[u32]) {
        self.next_stamp();
        for (i, &v) in vs.iter().enumerate() {
            if v == NIL {
                continue;
            }
            let mut s = self.parent[v as usize];
            while s != NIL {
                let si = s as usize;
                if self.stamp[si] != self.now {
                    self.stamp[si] = self.now;
                    self.bits[si] = 0;
                }
                self.bits[si] |= 1 << i;
                s = self.parent[si];
            }
        }
    }

    /// Whether `ab` is an edge of two live vertices (positive weight).
    fn edge<S: WeightSource<W>>(&self, ws: &S, a: usize, b: usize) -> bool {
        a < self.n
            && b < self.n
            && a != b
            && self.live[a]
            && self.live[b]
            && ws.weight(a, b) > W::ZERO
    }

    /// The first of `candidates` joined to `v` by a tight edge (slack zero), if any:
    /// only those can be `v`'s mate in an optimal matching.
    pub fn first_tight<S: WeightSource<W>>(
        &mut self,
        ws: &S,
        v: usize,
        candidates: impl Iterator<Item = usize>,
    ) -> Result<Option<usize>, DynamicError> {
        if v >= self.n || !self.live[v] {
            return Ok(None);
        }
        // Each set holding `v` with the sum of the duals from it up to the top.
        let mut chain = Vec::new();
        let mut s = self.parent[v];
        while s != NIL {
            chain.push(s);
            s = self.parent[s as usize];
        }
        self.next_stamp();
        let mut acc = W::ZERO;
        for &s in chain.iter().rev() {
            acc = acc.wadd(self.dual[s as usize]);
            self.stamp[s as usize] = self.now;
            self.sum[s as usize] = acc;
        }
        for u in candidates {
            if !self.edge(ws, v, u) {
                continue;
            }
            let d = ws.weight(v, u);
            if !d.fits_headroom() {
                return Err(DynamicError::WeightTooLarge { a: v, b: u });
            }
            let mut slack = self.dual[v].wadd(self.dual[u]);
            let mut s = self.parent[u];
            while s != NIL {
                if self.stamp[s as usize] == self.now {
                    slack = slack.wadd(self.sum[s as usize]);
                    break;
                }
                s = self.parent[s as usize];
            }
            if slack == d.twice() {
                return Ok(Some(u));
            }
        }
        Ok(None)
    }

    /// The doubled slack of edge `ab`, `None` when it is no edge.
    fn slack<S: WeightSource<W>>(&mut self, ws: &S, a: usize, b: usize) -> Option<W> {
        if !self.edge(ws, a, b) {
            return None;
        }
        self.mark(&[a as u32, b as u32]);
        let mut s = self.dual[a].wadd(self.dual[b]);
        let mut x = self.parent[a];
        while x != NIL {
            if self.bits[x as usize] == 0b11 {
                s = s.wadd(self.dual[x as usize]);
            }
            x = self.parent[x as usize];
        }
        Some(s.wsub(ws.weight(a, b).twice()))
    }

    /// Pairs `v` with `u` and removes both, when an exchange proves that an optimal
    /// matching holds `uv` (see the module documentation); false, changing nothing,
    /// when none is found (which proves nothing).
    pub fn pair_off<S: WeightSource<W>>(&mut self, ws: &S, v: usize, u: usize) -> bool {
        if self.slack(ws, v, u) != Some(W::ZERO) {
            return false;
        }
        let (mv, mu) = (self.mate[v], self.mate[u]);
        let is_mate = mv == u as u32;
        // Whether `v'` and `u'` are paired together (else both left unmatched).
        let rejoin = if is_mate {
            false
        } else if mv != NIL
            && mu != NIL
            && self.slack(ws, mv as usize, mu as usize) == Some(W::ZERO)
        {
            true
        } else {
            let free_ok = |m: u32| m == NIL || self.dual[m as usize] == W::ZERO;
            if !(free_ok(mv) && free_ok(mu)) {
                return false;
            }
            false
        };
        // Every set of positive dual must hold ⌊|S|/2⌋ pairs of the new matching, `uv`
        // included (complementary slackness in the graph as it is, which makes the new
        // matching optimal there); then without `u` and `v` each such set still does
        // (one holding exactly one of them was odd: it could not be full otherwise).
        // Bits: 0 `v`, 1 `u`, 2 `v'`, 3 `u'`.
        self.mark(&[v as u32, u as u32, mv, mu]);
        let both = |bits: u8, x: u8, y: u8| bits & (1 << x) != 0 && bits & (1 << y) != 0;
        let after = |c: &Self, s: usize| -> (u32, u32) {
            let b = c.bits[s];
            let mut inside = c.inside[s] as i64;
            if is_mate {
                inside -= i64::from(both(b, 0, 1));
            } else {
                inside -= i64::from(mv != NIL && both(b, 0, 2));
                inside -= i64::from(mu != NIL && both(b, 1, 3));
                inside += i64::from(rejoin && both(b, 2, 3));
            }
            let size = c.size[s] - u32::from(b & 1 != 0) - u32::from(b & 2 != 0);
            (inside.max(0) as u32, size)
        };
        // The sets holding any of the four, each once (flag 0x80 while listed).
        let mut sets: Vec<u32> = Vec::new();
        for &x in &[v as u32, u as u32, mv, mu] {
            if x == NIL {
                continue;
            }
            let mut s = self.parent[x as usize];
            while s != NIL {
                let si = s as usize;
                if self.bits[si] & 0x80 == 0 {
                    self.bits[si] |= 0x80;
                    sets.push(s);
                }
                s = self.parent[si];
            }
        }
        let proved = sets.iter().all(|&s| {
            let si = s as usize;
            let with_uv = after(self, si).0 + u32::from(both(self.bits[si], 0, 1));
            self.dual[si] <= W::ZERO || with_uv == self.size[si] / 2
        });
        // Apply: every set's counts, then the matching.
        for &s in &sets {
            let si = s as usize;
            if proved {
                (self.inside[si], self.size[si]) = after(self, si);
            }
            self.bits[si] &= 0x7f;
        }
        if !proved {
            return false;
        }
        for m in [mv, mu] {
            if m != NIL {
                self.mate[m as usize] = NIL;
            }
        }
        if rejoin {
            self.mate[mv as usize] = mu;
            self.mate[mu as usize] = mv;
        }
        for x in [v, u] {
            self.mate[x] = NIL;
            self.live[x] = false;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::DynamicMatching;

    /// A dense graph as a weight source.
    fn source(n: usize, edges: &[(usize, usize, i64)]) -> Vec<i64> {
        let mut w = vec![0i64; n * n];
        for &(a, b, x) in edges {
            w[a * n + b] = x;
            w[b * n + a] = x;
        }
        w
    }

    /// Brute force: the best weight of a matching of the live vertices.
    fn best(n: usize, w: &[i64], live: &[bool]) -> i64 {
        fn go(n: usize, w: &[i64], free: &mut Vec<bool>, from: usize) -> i64 {
            let Some(a) = (from..n).find(|&a| free[a]) else {
                return 0;
            };
            free[a] = false;
            let mut b_best = go(n, w, free, a + 1);
            for b in a + 1..n {
                if free[b] && w[a * n + b] > 0 {
                    free[b] = false;
                    b_best = b_best.max(w[a * n + b] + go(n, w, free, a + 1));
                    free[b] = true;
                }
            }
            free[a] = true;
            b_best
        }
        go(n, w, &mut live.to_vec(), 0)
    }

    #[test]
    fn every_pair_it_proves_is_in_an_optimum_and_every_tight_edge_is_found() {
        let mut seed = 7u64;
        let mut next = move |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        let mut proved = 0;
        let rounds = if cfg!(debug_assertions) { 250 } else { 1500 };
        for round in 0..rounds {
            let n = 4 + next(11) as usize;
            let max = [3, 20, 1000][round % 3];
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if next(100) < 70 {
                        edges.push((a, b, 1 + next(max) as i64));
                    }
                }
            }
            let w = source(n, &edges);
            let ws = (n, &w[..]);
            let mut m = DynamicMatching::<i64>::new(n);
            m.solve(&ws).expect("solves");
            let Some(mut cert) = m.certificate() else {
                panic!("a solved matching has a certificate");
            };
            // Before any pair is taken off, tight means what the matcher says.
            for v in 0..n {
                for u in 0..n {
                    let tight = cert.first_tight(&ws, v, std::iter::once(u)).expect("fits");
                    let zero = m.slack(&ws, v, u).expect("fits") == Some(0);
                    assert_eq!(tight == Some(u), zero, "edge {v}-{u}");
                }
            }
            let mut live = vec![true; n];
            for _ in 0..n {
                let v = next(n as u64) as usize;
                if !live[v] {
                    continue;
                }
                let opt = best(n, &w, &live);
                // Every partner of `v` in some optimum is tight.
                for u in 0..n {
                    if u == v || !live[u] || w[v * n + u] <= 0 {
                        continue;
                    }
                    live[u] = false;
                    live[v] = false;
                    let with = w[v * n + u] + best(n, &w, &live);
                    live[u] = true;
                    live[v] = true;
                    let tight = cert.first_tight(&ws, v, std::iter::once(u)).expect("fits");
                    if with == opt {
                        assert_eq!(
                            tight,
                            Some(u),
                            "an optimum pairs {v}-{u}: its edge is tight"
                        );
                    }
                }
                // A tight edge at `v` (the only kind that can be proved), from a random
                // start.
                let start = next(n as u64) as usize;
                let order = (0..n)
                    .map(|k| (start + k) % n)
                    .filter(|&u| u != v && live[u]);
                let Some(u) = cert.first_tight(&ws, v, order).expect("fits") else {
                    continue;
                };
                if cert.pair_off(&ws, v, u) {
                    proved += 1;
                    live[u] = false;
                    live[v] = false;
                    assert_eq!(
                        w[v * n + u] + best(n, &w, &live),
                        opt,
                        "pairing {v}-{u} was proved optimal"
                    );
                }
            }
        }
        assert!(proved > rounds, "pairs proved: {proved}");
    }
}
