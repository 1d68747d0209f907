//! Maximum matching in a general graph (Edmonds' blossom algorithm).
//!
//! The draw is a sequence of lots (BG-4..BG-6); this is only its look-ahead: "can the
//! players left still all be paired?". Answering that exactly is what lets the draw undo a
//! pair as soon as it would strand someone (BG-6) instead of discovering it many draws
//! later, and what makes the search complete: CG-7's error is given only when no pairing
//! exists at all. Graphs are small (a draw's players) and dense (few past meetings), so
//! edges are asked of a predicate, never stored.

/// No vertex.
const NONE: usize = usize::MAX;

/// A maximum matching of the graph on vertices `0..n` whose edges `adjacent` gives (it
/// must be symmetric): `mate[v]` is `v`'s partner, if matched.
pub fn maximum(n: usize, adjacent: impl Fn(usize, usize) -> bool) -> Vec<Option<usize>> {
    let mut m = Matcher::new(n, &adjacent);
    m.greedy();
    for root in 0..n {
        if m.mate[root] == NONE {
            m.augment_from(root);
        }
    }
    m.mate.iter().map(|&v| (v != NONE).then_some(v)).collect()
}

/// Whether the graph has a perfect matching (every vertex matched).
pub fn has_perfect(n: usize, adjacent: impl Fn(usize, usize) -> bool) -> bool {
    if n % 2 == 1 {
        return false;
    }
    let mut m = Matcher::new(n, &adjacent);
    m.greedy();
    // A vertex from which no augmenting path exists stays unmatched in every maximum
    // matching grown from this one (Edmonds), so the first failure decides.
    (0..n).all(|root| m.mate[root] != NONE || m.augment_from(root))
}

/// The number of pairs of a matching.
pub fn size(mate: &[Option<usize>]) -> usize {
    mate.iter().filter(|m| m.is_some()).count() / 2
}

struct Matcher<'a, F: Fn(usize, usize) -> bool> {
    n: usize,
    adjacent: &'a F,
    mate: Vec<usize>,
    parent: Vec<usize>,
    base: Vec<usize>,
    in_tree: Vec<bool>,
    queue: std::collections::VecDeque<usize>,
}

impl<'a, F: Fn(usize, usize) -> bool> Matcher<'a, F> {
    fn new(n: usize, adjacent: &'a F) -> Self {
        Matcher {
            n,
            adjacent,
            mate: vec![NONE; n],
            parent: vec![NONE; n],
            base: (0..n).collect(),
            in_tree: vec![false; n],
            queue: std::collections::VecDeque::new(),
        }
    }

    /// A maximal matching to start from: in dense graphs it leaves almost nothing to
    /// augment.
    fn greedy(&mut self) {
        for v in 0..self.n {
            if self.mate[v] != NONE {
                continue;
            }
            for u in v + 1..self.n {
                if self.mate[u] == NONE && (self.adjacent)(v, u) {
                    self.mate[v] = u;
                    self.mate[u] = v;
                    break;
                }
            }
        }
    }

    /// Searches an augmenting path from the free vertex `root` and applies it.
    fn augment_from(&mut self, root: usize) -> bool {
        match self.find_path(root) {
            Some(end) => {
                let mut u = end;
                while u != NONE {
                    let v = self.parent[u];
                    let next = self.mate[v];
                    self.mate[u] = v;
                    self.mate[v] = u;
                    u = next;
                }
                true
            }
            None => false,
        }
    }

    /// The free vertex an augmenting path from `root` ends at; `parent` then holds the path.
    fn find_path(&mut self, root: usize) -> Option<usize> {
        self.parent.fill(NONE);
        self.in_tree.fill(false);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.queue.clear();
        self.in_tree[root] = true;
        self.queue.push_back(root);
        while let Some(v) = self.queue.pop_front() {
            for u in 0..self.n {
                if u == v
                    || self.base[v] == self.base[u]
                    || self.mate[v] == u
                    || !(self.adjacent)(v, u)
                {
                    continue;
                }
                let u_is_outer =
                    u == root || (self.mate[u] != NONE && self.parent[self.mate[u]] != NONE);
                if u_is_outer {
                    self.contract(root, v, u);
                } else if self.parent[u] == NONE {
                    self.parent[u] = v;
                    if self.mate[u] == NONE {
                        return Some(u);
                    }
                    let w = self.mate[u];
                    self.in_tree[w] = true;
                    self.queue.push_back(w);
                }
            }
        }
        None
    }

    /// Shrinks the odd cycle closed by the edge `v`-`u` into its base.
    fn contract(&mut self, root: usize, v: usize, u: usize) {
        let b = self.common_base(root, v, u);
        let mut in_blossom = vec![false; self.n];
        self.mark_path(v, b, u, &mut in_blossom);
        self.mark_path(u, b, v, &mut in_blossom);
        for i in 0..self.n {
            if in_blossom[self.base[i]] {
                self.base[i] = b;
                if !self.in_tree[i] {
                    self.in_tree[i] = true;
                    self.queue.push_back(i);
                }
            }
        }
    }

    /// The nearest common ancestor of `a` and `b` in the alternating tree, by bases.
    fn common_base(&self, root: usize, a: usize, b: usize) -> usize {
        let mut seen = vec![false; self.n];
        let mut x = a;
        loop {
            x = self.base[x];
            seen[x] = true;
            if x == root || self.mate[x] == NONE {
                break;
            }
            x = self.parent[self.mate[x]];
        }
        let mut y = b;
        loop {
            y = self.base[y];
            if seen[y] {
                return y;
            }
            y = self.parent[self.mate[y]];
        }
    }

    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize, in_blossom: &mut [bool]) {
        while self.base[v] != b {
            let m = self.mate[v];
            in_blossom[self.base[v]] = true;
            in_blossom[self.base[m]] = true;
            self.parent[v] = child;
            child = m;
            v = self.parent[m];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_force_perfect(n: usize, adj: &dyn Fn(usize, usize) -> bool) -> bool {
        fn go(free: &[usize], adj: &dyn Fn(usize, usize) -> bool) -> bool {
            let Some((&a, rest)) = free.split_first() else {
                return true;
            };
            rest.iter().enumerate().any(|(i, &b)| {
                let mut others = rest.to_vec();
                others.remove(i);
                adj(a, b) && go(&others, adj)
            })
        }
        let all: Vec<usize> = (0..n).collect();
        n.is_multiple_of(2) && go(&all, adj)
    }

    #[test]
    fn finds_perfect_matchings_through_blossoms() {
        // A triangle 0-1-2 with a tail 2-3 and 0-4, 4-5: greedy takes 0-1 and must be
        // repaired through the odd cycle.
        let edges = [(0, 1), (1, 2), (0, 2), (2, 3), (0, 4), (4, 5)];
        let adj = |a: usize, b: usize| edges.contains(&(a.min(b), a.max(b)));
        let mate = maximum(6, adj);
        assert_eq!(size(&mate), 3);
        assert!(has_perfect(6, adj));
        for (v, m) in mate.iter().enumerate() {
            let m = m.expect("matched");
            assert!(adj(v, m));
            assert_eq!(mate[m], Some(v));
        }
    }

    #[test]
    fn agrees_with_brute_force_on_pseudo_random_graphs() {
        let mut state = 0x1234_5678_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..400 {
            let n = (next() % 9) as usize;
            let density = next() % 100;
            // Each unordered pair's edge, by its index in a flat table.
            let edge: Vec<bool> = (0..n * n).map(|_| next() % 100 < density).collect();
            let adj = |a: usize, b: usize| edge[a.min(b) * n + a.max(b)];
            assert_eq!(
                has_perfect(n, adj),
                brute_force_perfect(n, &adj),
                "{edge:?}"
            );
            let mate = maximum(n, adj);
            if brute_force_perfect(n, &adj) {
                assert_eq!(size(&mate) * 2, n);
            }
        }
    }
}
