//! Exhaustive reference matcher for tiny graphs (test-only): the oracle both engines are
//! checked against.

use super::weighted::DenseWeight;

/// `(cardinality, weight)` of a maximum-weight matching (edges of weight `<= 0` never help,
/// so they are never taken; with unit weights this is a maximum-cardinality matching).
/// Subset DP over vertex sets, O(2^n * m); handles parallel edges. Ties in weight are broken
/// towards more pairs, so that the cardinality is well defined.
pub(crate) fn brute_force<W: DenseWeight>(n: usize, edges: &[(usize, usize, W)]) -> (usize, W) {
    assert!(n <= 16, "brute force is exponential");
    let full = 1usize << n;
    let mut best = vec![(0usize, W::ZERO); full];
    for mask in 1..full {
        // The lowest vertex of `mask` is either unmatched or matched inside.
        let i = mask.trailing_zeros() as usize;
        let rest = mask & !(1 << i);
        let mut cur = best[rest];
        for &(u, v, w) in edges {
            let j = if u == i {
                v
            } else if v == i {
                u
            } else {
                continue;
            };
            if rest & (1 << j) == 0 || w <= W::ZERO {
                continue;
            }
            let (c, s) = best[rest & !(1 << j)];
            let cand = (c + 1, s.wadd(w));
            if (cand.1, cand.0) > (cur.1, cur.0) {
                cur = cand;
            }
        }
        best[mask] = cur;
    }
    best[full - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brute_basics() {
        assert_eq!(brute_force::<i64>(0, &[]), (0, 0));
        // Path a-b-c-d: the heavy middle edge wins.
        let p = [(0, 1, 2i64), (1, 2, 5), (2, 3, 2)];
        assert_eq!(brute_force(4, &p), (1, 5));
        // Unit weights: maximum cardinality.
        let u = [(0, 1, 1i64), (1, 2, 1), (2, 3, 1)];
        assert_eq!(brute_force(4, &u), (2, 2));
        // Negative edges are never taken.
        let neg = [(0, 1, -3i64)];
        assert_eq!(brute_force(2, &neg), (0, 0));
    }
}
