//! Exhaustive reference matcher for tiny graphs (test-only).

use super::Weight;

fn better<W: Weight>(a: (usize, W), b: (usize, W), max_card: bool) -> bool {
    if max_card { a > b } else { a.1 > b.1 }
}

/// `(cardinality, weight)` of an optimal matching: maximum weight, or with
/// `max_card` maximum weight among maximum-cardinality matchings. Subset DP
/// over vertex sets, O(2^n * m); handles parallel edges and any weights.
pub(crate) fn brute_force<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
    max_card: bool,
) -> (usize, W) {
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
            if rest & (1 << j) == 0 {
                continue;
            }
            let (c, s) = best[rest & !(1 << j)];
            let cand = (c + 1, s.checked_add(w).expect("weight overflow"));
            if better(cand, cur, max_card) {
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
        assert_eq!(brute_force::<i64>(0, &[], false), (0, 0));
        // Path a-b-c-d: the heavy middle edge wins without max-cardinality.
        let p = [(0, 1, 2i64), (1, 2, 5), (2, 3, 2)];
        assert_eq!(brute_force(4, &p, false).1, 5);
        assert_eq!(brute_force(4, &p, true), (2, 4));
        // Negative edges are only taken when cardinality demands it.
        let neg = [(0, 1, -3i64)];
        assert_eq!(brute_force(2, &neg, false).1, 0);
        assert_eq!(brute_force(2, &neg, true), (1, -3));
    }
}
