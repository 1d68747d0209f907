//! The dual problem: doubled weights (`doubled`), the slack of an edge under the current
//! duals ([`DynamicMatching::slack`]) and the tightness test before any blossom exists,
//! the duals a vertex needs for its edges to be feasible (`heaviest_edge`,
//! `least_feasible_dual`), and the check of the whole certificate
//! ([`DynamicMatching::verify`]). The conditions themselves are listed in
//! docs/incremental-matching.md, "The certificate".
use super::{DenseWeight, DynamicError, DynamicMatching, NIL, WeightSource};

impl<W: DenseWeight> DynamicMatching<W> {
    /// The doubled slack `u_a + u_b + Σ z_B − 2·w(ab)` of edge `ab` under the current dual
    /// certificate (the sum over the blossoms holding both), or `None` when `ab` is no
    /// edge (weight `<= 0`, a vertex removed). Right after [`DynamicMatching::solve`] the
    /// certificate is optimal: an edge with positive slack is in no maximum-weight
    /// matching.
    pub fn slack<S: WeightSource<W>>(
        &self,
        ws: &S,
        a: usize,
        b: usize,
    ) -> Result<Option<W>, DynamicError> {
        if a >= self.n || b >= self.n || a == b || self.removed[a] || self.removed[b] {
            return Ok(None);
        }
        let d = self.doubled(ws, a as u32, b as u32)?;
        if d <= W::ZERO {
            return Ok(None);
        }
        let mut s = self.dual[a].wadd(self.dual[b]);
        // The blossoms holding both: the common ancestors.
        let mut x = self.parent[a];
        while x != NIL {
            let mut y = self.parent[b];
            while y != NIL && y != x {
                y = self.parent[y as usize];
            }
            if y == x {
                s = s.wadd(self.dual[x as usize]);
            }
            x = self.parent[x as usize];
        }
        Ok(Some(s.wsub(d)))
    }

    /// The heaviest weight of `v`'s edges to `self.active[others]` (zero without edges):
    /// a dual that, at both ends, makes every edge feasible.
    pub(super) fn heaviest_edge<S: WeightSource<W>>(
        &self,
        ws: &S,
        v: u32,
        others: core::ops::Range<usize>,
    ) -> Result<W, DynamicError> {
        let mut u = W::ZERO;
        for &w in &self.active[others] {
            if w != v {
                let x = ws.weight(v as usize, w as usize);
                if x > u {
                    u = x;
                }
            }
        }
        if !u.fits_headroom() {
            return Err(DynamicError::WeightTooLarge {
                a: v as usize,
                b: v as usize,
            });
        }
        Ok(u)
    }

    /// The least dual of `v` that keeps its edges to `self.active[others]` feasible
    /// against their current duals.
    pub(super) fn least_feasible_dual<S: WeightSource<W>>(
        &self,
        ws: &S,
        v: u32,
        others: core::ops::Range<usize>,
    ) -> Result<W, DynamicError> {
        let mut u = W::ZERO;
        for &w in &self.active[others] {
            if w == v {
                continue;
            }
            let d = self.doubled(ws, v, w)?;
            if d > W::ZERO {
                let need = d.wsub(self.dual[w as usize]);
                if need > u {
                    u = need;
                }
            }
        }
        Ok(u)
    }

    /// Whether `ab` is an edge made tight by the two vertex duals alone (the first solve,
    /// before any blossom).
    pub(super) fn tight_without_blossoms<S: WeightSource<W>>(
        &self,
        ws: &S,
        a: u32,
        b: u32,
    ) -> Result<bool, DynamicError> {
        let d = self.doubled(ws, a, b)?;
        Ok(d > W::ZERO && self.dual[a as usize].wadd(self.dual[b as usize]) == d)
    }

    #[inline]
    pub(super) fn doubled<S: WeightSource<W>>(
        &self,
        ws: &S,
        a: u32,
        b: u32,
    ) -> Result<W, DynamicError> {
        let w = ws.weight(a as usize, b as usize);
        if w <= W::ZERO {
            return Ok(W::ZERO);
        }
        if !w.fits_headroom() {
            return Err(DynamicError::WeightTooLarge {
                a: a as usize,
                b: b as usize,
            });
        }
        Ok(w.twice())
    }

    /// Checks the optimality certificate (tests): feasibility, tight matched edges, zero
    /// duals on free vertices, full blossoms.
    pub fn verify<S: WeightSource<W>>(&self, ws: &S) -> Result<(), String> {
        let n = self.n;
        // Blossom memberships per vertex (list of ancestor blossoms).
        let mut anc: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (v, list) in anc.iter_mut().enumerate() {
            let mut b = self.parent[v];
            while b != NIL {
                list.push(b);
                b = self.parent[b as usize];
            }
        }
        for &a in &self.active {
            let ai = a as usize;
            if self.dual[ai] < W::ZERO {
                return Err(format!("negative dual at {a}"));
            }
            let m = self.mate[ai];
            if m == NIL && self.dual[ai] != W::ZERO {
                return Err(format!("free vertex {a} with positive dual"));
            }
            if m != NIL && (self.removed[m as usize] || self.mate[m as usize] != a) {
                return Err(format!("bad mate at {a}"));
            }
            for &b in &self.active {
                if b <= a {
                    continue;
                }
                let bi = b as usize;
                let w = ws.weight(ai, bi);
                let d = if w > W::ZERO { w.twice() } else { W::ZERO };
                let mut s = self.dual[ai].wadd(self.dual[bi]);
                for &x in &anc[ai] {
                    if anc[bi].contains(&x) {
                        s = s.wadd(self.dual[x as usize]);
                    }
                }
                if d > W::ZERO && s < d {
                    return Err(format!("infeasible edge {a}-{b}"));
                }
                if m == b && s != d {
                    return Err(format!("matched edge {a}-{b} not tight"));
                }
                if m == b && d <= W::ZERO {
                    return Err(format!("matched non-edge {a}-{b}"));
                }
            }
        }
        for b in n..2 * n {
            if self.base[b] == NIL {
                continue;
            }
            if self.dual[b] < W::ZERO {
                return Err(format!("negative blossom dual {b}"));
            }
            let mut leaves = Vec::new();
            self.leaves(b as u32, &mut leaves);
            let inside = leaves
                .iter()
                .filter(|&&x| {
                    let m = self.mate[x as usize];
                    m != NIL && leaves.contains(&m)
                })
                .count();
            if inside != leaves.len() - 1 {
                return Err(format!("blossom {b} not full"));
            }
        }
        Ok(())
    }
}
