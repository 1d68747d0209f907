//! Exchanges that the current certificate proves optimal without running a stage: make
//! an edge matched ([`DynamicMatching::try_rematch`], through the mates or one third
//! pair) or replace the matching on a set of vertices ([`DynamicMatching::try_replace`]).
//! Every dual is kept, so complementary slackness still holds. docs/incremental-matching.md,
//! "Answering questions from the certificate"; `certificate.rs` answers such questions
//! from a frozen copy.
use super::{DenseWeight, DynamicError, DynamicMatching, NIL, WeightSource};
use crate::matching::cardinality::{BitGraph, Matcher};

/// Up to this many vertices [`DynamicMatching::first_optimal_partner`] builds the graph of
/// tight edges (O(n²) weights) instead of leaving the question to a stage. Past it the
/// stage, which reads only the rows its tree reaches, costs less: at 128 a 1,000-player
/// 40-round open took 16 % more instructions than with probes alone, at 32 1 % (the
/// brackets of a 100-player round are all below it).
const TIGHT_GRAPH_UP_TO: usize = 32;

impl<W: DenseWeight> DynamicMatching<W> {
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

    /// The first of `candidates` that some maximum-weight matching pairs with `a`, decided
    /// exactly from the current certificate, and the matching changed to such a one
    /// (every dual kept): `Some(Some(c))`. `Some(None)`: no maximum-weight matching pairs
    /// `a` with any of them. `None`: the certificate cannot tell here (a blossom, repairs
    /// pending, a graph past [`TIGHT_GRAPH_UP_TO`] vertices), nothing changed. Call right
    /// after [`DynamicMatching::solve`].
    ///
    /// Without blossoms an optimal certificate is vertex duals alone, and by
    /// complementary slackness the maximum-weight matchings are exactly the matchings of
    /// tight edges that cover every vertex of positive dual. So `c` is some optimum's
    /// partner of `a` iff `ac` is tight and the tight graph without `a` and `c` has a
    /// matching covering its positive-dual vertices: a perfect matching once the
    /// zero-dual vertices may pair with stand-ins (a clique of them, as many as needed
    /// and of the parity that makes the count even), which the cardinality matcher
    /// decides from the current matching. A stage would answer the same question by
    /// re-solving with a preference for the candidates (and reshaping blossoms on the
    /// way); this reads each tight edge once.
    pub fn first_optimal_partner<S: WeightSource<W>>(
        &mut self,
        ws: &S,
        a: usize,
        candidates: &[usize],
    ) -> Result<Option<Option<usize>>, DynamicError> {
        if !self.touched.is_empty() || self.pending.iter().any(|&p| self.needs_repair(p)) {
            return Ok(None);
        }
        let k = self.active.len();
        if a >= self.n || self.removed[a] || k > TIGHT_GRAPH_UP_TO {
            return Ok(None);
        }
        if self.active.iter().any(|&v| self.top[v as usize] != v) {
            return Ok(None);
        }
        // Local indices: `active` order, then the stand-ins.
        let mut local = vec![NIL; self.n];
        for (i, &v) in self.active.iter().enumerate() {
            local[v as usize] = i as u32;
        }
        let zero: Vec<bool> = self
            .active
            .iter()
            .map(|&v| self.dual[v as usize] == W::ZERO)
            .collect();
        let zeros = zero.iter().filter(|&&z| z).count();
        // At most `zeros + 1` stand-ins are ever needed (below).
        let stand_ins = zeros + 1;
        // The graph's rows: tight edges, then each zero-dual vertex with every stand-in
        // and the stand-ins with each other.
        let size = k + stand_ins;
        let words = size.div_ceil(64);
        let mut rows = vec![0u64; size * words];
        let set = |rows: &mut [u64], x: usize, y: usize| {
            rows[x * words + y / 64] |= 1u64 << (y % 64);
            rows[y * words + x / 64] |= 1u64 << (x % 64);
        };
        let mut row = Vec::new();
        for (i, &u) in self.active.iter().enumerate() {
            ws.weights_from(u as usize, &self.active[i + 1..], &mut row);
            for (j, &w) in (i + 1..k).zip(&row) {
                if w <= W::ZERO {
                    continue;
                }
                if !w.fits_headroom() {
                    return Ok(None);
                }
                let x = self.active[j] as usize;
                if self.dual[u as usize].wadd(self.dual[x]) == w.twice() {
                    set(&mut rows, i, j);
                }
            }
        }
        let tight =
            |rows: &[u64], x: usize, y: usize| rows[x * words + y / 64] >> (y % 64) & 1 == 1;
        let la = local[a] as usize;
        let tight_at_a: Vec<bool> = (0..k).map(|y| tight(&rows, la, y)).collect();
        for x in k..size {
            for y in (0..k).filter(|&y| zero[y]).chain(k..x) {
                set(&mut rows, x, y);
            }
        }
        let graph = BitGraph::from_rows(size, |v, out| {
            out.copy_from_slice(&rows[v * words..(v + 1) * words]);
        });
        for &c in candidates {
            if c >= self.n || self.removed[c] || c == a {
                continue;
            }
            let lc = local[c] as usize;
            if !tight_at_a[lc] {
                // In no optimum (complementary slackness).
                continue;
            }
            if self.mate[a] == c as u32 {
                return Ok(Some(Some(c)));
            }
            // The vertices left: `k - 2`, of which `left_zeros` may stay unmatched.
            let left_zeros = zeros - usize::from(zero[la]) - usize::from(zero[lc]);
            let needed = left_zeros + (k - 2 + left_zeros) % 2;
            let mut m = Matcher::new(&graph);
            m.remove(la);
            m.remove(lc);
            for extra in k + needed..k + stand_ins {
                m.remove(extra);
            }
            for (i, &v) in self.active.iter().enumerate() {
                let mv = self.mate[v as usize];
                if mv != NIL && i != la && i != lc {
                    let j = local[mv as usize] as usize;
                    if i < j && j != la && j != lc {
                        m.seed_pair(i, j);
                    }
                }
            }
            if !m.complete_by_rows() {
                continue;
            }
            for (i, &v) in self.active.iter().enumerate() {
                self.mate[v as usize] = match m.mate(i) {
                    Some(j) if j < k => self.active[j],
                    _ => NIL,
                };
            }
            self.mate[a] = c as u32;
            self.mate[c] = a as u32;
            return Ok(Some(Some(c)));
        }
        Ok(Some(None))
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
}
