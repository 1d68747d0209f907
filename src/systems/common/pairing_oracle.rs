//! Perfect matchings in a general graph (Edmonds' blossom algorithm), used as an oracle by
//! the systems whose rules are a depth-first search with backtracking (VZ-3.4, AM-3.3.3).
//!
//! Such a search returns the first complete pairing in its candidate order. Taking, at
//! each step, the first candidate after which the players left can still all be paired
//! gives exactly that pairing, without ever walking into a dead end: a subtree holds a
//! complete pairing if and only if its players left have a perfect matching. This module
//! answers that question incrementally, so a 1,000-player round costs milliseconds
//! instead of an exponential search.
//!
//! Vertices are `0..n`; a vertex can be deactivated (paired, or given the bye). The graph
//! is an adjacency bitset.

use std::collections::HashMap;

use super::History;
use crate::model::PlayerIdx;

const NONE: usize = usize::MAX;

/// A graph with a maximum matching of its active vertices kept up to date.
#[derive(Clone, Debug)]
pub struct Matcher {
    n: usize,
    words: usize,
    /// Row `v`: bit `u` set when `v` and `u` may be paired.
    rows: Vec<u64>,
    active: Vec<bool>,
    /// `active` as a bitset, to walk active neighbours a word at a time.
    active_bits: Vec<u64>,
    mate: Vec<usize>,
}

impl Matcher {
    /// A graph on `n` vertices with no edges; every vertex active.
    pub fn new(n: usize) -> Matcher {
        let words = n.div_ceil(64).max(1);
        Matcher {
            n,
            words,
            rows: vec![0; n * words],
            active: vec![true; n],
            active_bits: (0..words)
                .map(|w| {
                    let lo = w * 64;
                    let count = n.saturating_sub(lo).min(64);
                    if count == 64 {
                        u64::MAX
                    } else {
                        (1u64 << count) - 1
                    }
                })
                .collect(),
            mate: vec![NONE; n],
        }
    }

    /// A graph on `n` vertices with every edge (no loops).
    pub fn complete(n: usize) -> Matcher {
        let mut m = Matcher::new(n);
        let full = m.active_bits.clone();
        for v in 0..n {
            m.rows[v * m.words..(v + 1) * m.words].copy_from_slice(&full);
            m.set_bit(v, v, false);
        }
        m
    }

    /// The graph of who may meet whom among `list` (vertex `i` is `list[i]`): every pair
    /// except those who met over the board or are forbidden (CG-4, CG-10).
    pub fn may_meet(list: &[PlayerIdx], history: &History) -> Matcher {
        let n = list.len();
        let mut m = Matcher::complete(n);
        let mut pos = HashMap::with_capacity(n);
        for (i, &p) in list.iter().enumerate() {
            pos.insert(p, i);
        }
        for (i, &p) in list.iter().enumerate() {
            for o in &history.player(p).opponents {
                if let Some(&j) = pos.get(o) {
                    m.set_edge(i, j, false);
                }
            }
        }
        for (a, b) in history.forbidden_pairs() {
            if let (Some(&i), Some(&j)) = (pos.get(&a), pos.get(&b)) {
                m.set_edge(i, j, false);
            }
        }
        m
    }

    fn set_bit(&mut self, v: usize, u: usize, on: bool) {
        let w = &mut self.rows[v * self.words + u / 64];
        if on {
            *w |= 1 << (u % 64);
        } else {
            *w &= !(1 << (u % 64));
        }
    }

    /// Adds or removes the edge `a`-`b`. Call before matching.
    pub fn set_edge(&mut self, a: usize, b: usize, on: bool) {
        if a == b || a >= self.n || b >= self.n {
            return;
        }
        self.set_bit(a, b, on);
        self.set_bit(b, a, on);
    }

    /// Whether `a` and `b` may be paired (the edge exists; activity not considered).
    pub fn edge(&self, a: usize, b: usize) -> bool {
        a < self.n && b < self.n && (self.rows[a * self.words + b / 64] >> (b % 64)) & 1 == 1
    }

    pub fn is_active(&self, v: usize) -> bool {
        self.active.get(v).copied().unwrap_or(false)
    }

    pub fn active_count(&self) -> usize {
        self.active.iter().filter(|&&a| a).count()
    }

    /// The vertex `v` is matched to, if any.
    pub fn mate(&self, v: usize) -> Option<usize> {
        self.mate.get(v).copied().filter(|&m| m != NONE)
    }

    fn set_active(&mut self, v: usize, on: bool) {
        self.active[v] = on;
        let w = &mut self.active_bits[v / 64];
        if on {
            *w |= 1 << (v % 64);
        } else {
            *w &= !(1 << (v % 64));
        }
    }

    /// Number of active neighbours of `v`.
    pub fn active_degree(&self, v: usize) -> usize {
        let row = &self.rows[v * self.words..(v + 1) * self.words];
        row.iter()
            .zip(&self.active_bits)
            .map(|(r, a)| (r & a).count_ones() as usize)
            .sum()
    }

    /// Removes `v` from the graph (and from the matching).
    pub fn deactivate(&mut self, v: usize) {
        if v >= self.n {
            return;
        }
        self.set_active(v, false);
        let m = self.mate[v];
        if m != NONE {
            self.mate[m] = NONE;
            self.mate[v] = NONE;
        }
    }

    /// Active vertices the matching leaves alone.
    pub fn exposed(&self) -> Vec<usize> {
        (0..self.n)
            .filter(|&v| self.active[v] && self.mate[v] == NONE)
            .collect()
    }

    /// Completes the matching to a maximum one: a greedy start in `order` (the search's own
    /// order, so the oracle's matching tends to agree with the search and checks stay
    /// cheap), then an augmenting path from every exposed vertex. Returns how many active
    /// vertices stay exposed.
    pub fn maximize(&mut self, order: &[usize]) -> usize {
        for (i, &v) in order.iter().enumerate() {
            if !self.is_active(v) || self.mate[v] != NONE {
                continue;
            }
            if let Some(&u) = order[i + 1..]
                .iter()
                .find(|&&u| self.is_active(u) && self.mate[u] == NONE && self.edge(v, u))
            {
                self.mate[v] = u;
                self.mate[u] = v;
            }
        }
        for v in 0..self.n {
            if self.active[v] && self.mate[v] == NONE {
                self.augment_from(v);
            }
        }
        self.exposed().len()
    }

    /// Whether the active vertices have a perfect matching (after [`Matcher::maximize`]).
    pub fn is_perfect(&self) -> bool {
        self.exposed().is_empty()
    }

    /// With a perfect matching of the active vertices: whether pairing `a` with `b` still
    /// leaves the other active vertices perfectly matchable. If so the pair is committed
    /// (both deactivated, the matching repaired) and `true` is returned; otherwise nothing
    /// changes.
    pub fn commit_pair(&mut self, a: usize, b: usize) -> bool {
        if a == b || !self.is_active(a) || !self.is_active(b) || !self.edge(a, b) {
            return false;
        }
        if self.mate[a] == b {
            self.set_active(a, false);
            self.set_active(b, false);
            self.mate[a] = NONE;
            self.mate[b] = NONE;
            return true;
        }
        let saved = self.mate.clone();
        let (ma, mb) = (self.mate[a], self.mate[b]);
        self.deactivate(a);
        self.deactivate(b);
        // The two freed mates are the only exposed vertices: the rest is perfectly
        // matchable exactly when an augmenting path joins them.
        let ok = match (ma, mb) {
            (NONE, NONE) => true,
            (x, NONE) | (NONE, x) => self.augment_from(x),
            (x, y) if self.edge(x, y) => {
                self.mate[x] = y;
                self.mate[y] = x;
                true
            }
            // A failing search explores everything reachable from its root: start from the
            // end with fewer neighbours, where a hopeless case is seen at once.
            (x, y) => {
                let root = if self.active_degree(y) < self.active_degree(x) {
                    y
                } else {
                    x
                };
                self.augment_from(root)
            }
        };
        if ok && self.is_perfect_fast(ma, mb) {
            return true;
        }
        self.set_active(a, true);
        self.set_active(b, true);
        self.mate = saved;
        false
    }

    fn is_perfect_fast(&self, x: usize, y: usize) -> bool {
        [x, y]
            .iter()
            .all(|&v| v == NONE || !self.active[v] || self.mate[v] != NONE)
    }

    fn neighbours(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        let row = &self.rows[v * self.words..(v + 1) * self.words];
        row.iter()
            .zip(&self.active_bits)
            .enumerate()
            .flat_map(|(wi, (&word, &act))| {
                let mut w = word & act;
                std::iter::from_fn(move || {
                    if w == 0 {
                        return None;
                    }
                    let bit = w.trailing_zeros() as usize;
                    w &= w - 1;
                    Some(wi * 64 + bit)
                })
            })
    }

    /// Searches an augmenting path from the exposed vertex `root` (Edmonds: breadth-first
    /// alternating tree, odd cycles shrunk to their base) and flips it. Returns whether one
    /// was found.
    fn augment_from(&mut self, root: usize) -> bool {
        let n = self.n;
        if root >= n || !self.active[root] || self.mate[root] != NONE {
            return false;
        }
        let mut base: Vec<usize> = (0..n).collect();
        let mut parent = vec![NONE; n];
        let mut used = vec![false; n];
        let mut queue = std::collections::VecDeque::new();
        used[root] = true;
        queue.push_back(root);
        while let Some(v) = queue.pop_front() {
            let nbrs: Vec<usize> = self.neighbours(v).collect();
            for to in nbrs {
                if base[v] == base[to] || self.mate[v] == to {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && parent[self.mate[to]] != NONE) {
                    // An odd cycle: shrink it to its base.
                    let cur = self.lca(&base, &parent, v, to);
                    let mut in_blossom = vec![false; n];
                    self.mark_path(&base, &mut parent, &mut in_blossom, v, cur, to);
                    self.mark_path(&base, &mut parent, &mut in_blossom, to, cur, v);
                    for i in 0..n {
                        if in_blossom[base[i]] {
                            base[i] = cur;
                            if !used[i] {
                                used[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if parent[to] == NONE {
                    parent[to] = v;
                    if self.mate[to] == NONE {
                        // Flip the path root .. to.
                        let mut x = to;
                        while x != NONE {
                            let px = parent[x];
                            let next = self.mate[px];
                            self.mate[x] = px;
                            self.mate[px] = x;
                            x = next;
                        }
                        return true;
                    }
                    let m = self.mate[to];
                    used[m] = true;
                    queue.push_back(m);
                }
            }
        }
        false
    }

    fn lca(&self, base: &[usize], parent: &[usize], a: usize, b: usize) -> usize {
        let mut seen = vec![false; self.n];
        let mut a = a;
        loop {
            a = base[a];
            seen[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = parent[self.mate[a]];
        }
        let mut b = b;
        loop {
            b = base[b];
            if seen[b] {
                return b;
            }
            b = parent[self.mate[b]];
        }
    }

    fn mark_path(
        &self,
        base: &[usize],
        parent: &mut [usize],
        in_blossom: &mut [bool],
        mut v: usize,
        b: usize,
        mut child: usize,
    ) {
        while base[v] != b {
            in_blossom[base[v]] = true;
            in_blossom[base[self.mate[v]]] = true;
            parent[v] = child;
            child = self.mate[v];
            v = parent[self.mate[v]];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: does the graph on `active` have a perfect matching?
    fn brute(m: &Matcher, active: &[usize]) -> bool {
        let Some((&first, rest)) = active.split_first() else {
            return true;
        };
        rest.iter().enumerate().any(|(i, &u)| {
            if !m.edge(first, u) {
                return false;
            }
            let left: Vec<usize> = rest
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &x)| x)
                .collect();
            brute(m, &left)
        })
    }

    fn graph(n: usize, edges: &[(usize, usize)]) -> Matcher {
        let mut m = Matcher::new(n);
        for &(a, b) in edges {
            m.set_edge(a, b, true);
        }
        m
    }

    #[test]
    fn finds_a_perfect_matching_through_a_blossom() {
        // A triangle 0-1-2 with a tail 2-3 and 0-4, 4-5: perfect matching 0-4? no: 4-5,
        // 2-3, then 0-1.
        let mut m = graph(6, &[(0, 1), (1, 2), (2, 0), (2, 3), (0, 4), (4, 5)]);
        assert_eq!(m.maximize(&[0, 1, 2, 3, 4, 5]), 0);
        assert_eq!(m.mate(3), Some(2));
        assert_eq!(m.mate(5), Some(4));
        assert_eq!(m.mate(0), Some(1));
    }

    #[test]
    fn reports_no_perfect_matching() {
        // A star: 0 joined to 1, 2, 3.
        let mut m = graph(4, &[(0, 1), (0, 2), (0, 3)]);
        assert_eq!(m.maximize(&[0, 1, 2, 3]), 2);
    }

    #[test]
    fn commit_agrees_with_brute_force_on_random_graphs() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(42);
        for _ in 0..300 {
            let n = 2 * rng.random_range(1..6);
            let mut m = Matcher::new(n);
            for a in 0..n {
                for b in a + 1..n {
                    if rng.random_bool(0.6) {
                        m.set_edge(a, b, true);
                    }
                }
            }
            let all: Vec<usize> = (0..n).collect();
            let perfect = m.maximize(&all) == 0;
            assert_eq!(perfect, brute(&m, &all));
            if !perfect {
                continue;
            }
            // Greedy with the oracle pairs everything, and every refusal is right.
            let mut left = all.clone();
            while let Some(&a) = left.first() {
                let mut done = false;
                for &b in &left[1..] {
                    let rest: Vec<usize> =
                        left.iter().copied().filter(|&x| x != a && x != b).collect();
                    let expected = m.edge(a, b) && brute(&m, &rest);
                    let got = m.commit_pair(a, b);
                    assert_eq!(got, expected);
                    if got {
                        left = rest;
                        done = true;
                        break;
                    }
                }
                assert!(done);
            }
        }
    }
}
