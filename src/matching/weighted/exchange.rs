//! Exchanges that the current certificate proves optimal without running a stage: make
//! an edge matched ([`DynamicMatching::try_rematch`], through the mates or one third
//! pair) or replace the matching on a set of vertices ([`DynamicMatching::try_replace`]).
//! Every dual is kept, so complementary slackness still holds. docs/incremental-matching.md,
//! "Answering questions from the certificate"; `certificate.rs` answers such questions
//! from a frozen copy.
use super::{DenseWeight, DynamicError, DynamicMatching, NIL, WeightSource};

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
