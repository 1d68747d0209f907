//! The Gallai-Edmonds set `D(G)`: the vertices that some maximum matching leaves
//! uncovered. A vertex outside the graph that is joined to `x` increases the maximum
//! matching iff `x` is in `D(G)`.
//!
//! Given a maximum matching, `D(G)` is the set of outer (even) vertices of Edmonds' search
//! forest grown from every uncovered vertex at once (no augmenting path exists, so the
//! search only ever shrinks blossoms). O(n^2) on an adjacency oracle.

/// `D(G)` for the graph on `0..n` with adjacency `adj`, given a maximum matching `mate`.
/// If `mate` is not maximum the result is not meaningful (an augmenting path is ignored).
pub fn uncoverable(
    n: usize,
    adj: &dyn Fn(usize, usize) -> bool,
    mate: &[Option<usize>],
) -> Vec<bool> {
    const NONE: usize = usize::MAX;
    let m = |v: usize| mate.get(v).copied().flatten().unwrap_or(NONE);
    let mut even = vec![false; n];
    let mut parent = vec![NONE; n];
    let mut base: Vec<usize> = (0..n).collect();
    let mut queue: Vec<usize> = Vec::new();
    for (v, e) in even.iter_mut().enumerate() {
        if m(v) == NONE {
            *e = true;
            queue.push(v);
        }
    }
    let mut head = 0;
    let mut on_path = vec![false; n];
    let mut in_blossom = vec![false; n];
    while head < queue.len() {
        let v = queue[head];
        head += 1;
        for to in 0..n {
            if to == v || !adj(v, to) || base[v] == base[to] || m(v) == to {
                continue;
            }
            if even[to] {
                // Both outer: a blossom (same tree, as the matching is maximum).
                // Nearest common base: walk up from v, then from to.
                let mut a = v;
                let mut path = Vec::new();
                let mut found = NONE;
                loop {
                    a = base[a];
                    on_path[a] = true;
                    path.push(a);
                    let ma = m(a);
                    if ma == NONE || parent[ma] == NONE {
                        break;
                    }
                    a = parent[ma];
                }
                let mut b = to;
                loop {
                    b = base[b];
                    if on_path[b] {
                        found = b;
                        break;
                    }
                    let mb = m(b);
                    if mb == NONE || parent[mb] == NONE {
                        break;
                    }
                    b = parent[mb];
                }
                for &x in &path {
                    on_path[x] = false;
                }
                if found == NONE {
                    // Different trees: an augmenting path; not expected.
                    continue;
                }
                let lca = found;
                in_blossom.iter_mut().for_each(|x| *x = false);
                let mark = |mut x: usize,
                            mut child: usize,
                            parent: &mut Vec<usize>,
                            base: &[usize],
                            in_blossom: &mut Vec<bool>| {
                    while base[x] != lca {
                        in_blossom[base[x]] = true;
                        let mx = m(x);
                        in_blossom[base[mx]] = true;
                        parent[x] = child;
                        child = mx;
                        x = parent[mx];
                    }
                };
                mark(v, to, &mut parent, &base, &mut in_blossom);
                mark(to, v, &mut parent, &base, &mut in_blossom);
                for i in 0..n {
                    if in_blossom[base[i]] {
                        base[i] = lca;
                        if !even[i] {
                            even[i] = true;
                            queue.push(i);
                        }
                    }
                }
            } else if parent[to] == NONE {
                // `to` is matched (free vertices are outer): inner, its mate outer.
                let mt = m(to);
                if mt == NONE {
                    continue;
                }
                parent[to] = v;
                if !even[mt] {
                    even[mt] = true;
                    queue.push(mt);
                }
            }
        }
    }
    even
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;
    use crate::matching::max_cardinality_matching;
    use crate::matching::tests::SplitMix64;

    fn max_card(n: usize, adj: &[Vec<bool>], skip: Option<usize>) -> usize {
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if adj[a][b] && Some(a) != skip && Some(b) != skip {
                    edges.push((a, b));
                }
            }
        }
        max_cardinality_matching(n, &edges)
            .expect("matching")
            .iter()
            .filter(|m| m.is_some())
            .count()
            / 2
    }

    #[test]
    fn matches_the_definition_on_random_graphs() {
        let mut rng = SplitMix64::new(5);
        for round in 0..600 {
            let n = 1 + rng.below(14) as usize;
            let p = [15, 30, 50, 80][round % 4];
            let mut adj = vec![vec![false; n]; n];
            for a in 0..n {
                for b in a + 1..n {
                    if rng.below(100) < p {
                        adj[a][b] = true;
                        adj[b][a] = true;
                    }
                }
            }
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if adj[a][b] {
                        edges.push((a, b));
                    }
                }
            }
            let mate = max_cardinality_matching(n, &edges).expect("matching");
            let d = uncoverable(n, &|a, b| adj[a][b], &mate);
            let full = max_card(n, &adj, None);
            for x in 0..n {
                let without = max_card(n, &adj, Some(x));
                assert_eq!(d[x], without == full, "round {round} vertex {x}");
            }
        }
    }
}
