//! The first pairing of a bracket in the lexicographic order of its Pairing Identifiers
//! (C.04.5 art. 3.6), found without enumerating candidates.
//!
//! The bracket's players are numbered 0..B in TPN order (reading X3). In each pair the
//! smaller number is the pair's top member; the identifier lists the top members in
//! ascending order, then the bottom members in the order of their tops. The first
//! identifier therefore has the smallest sequence of tops, then the smallest bottoms.
//!
//! An edge (a, b), a < b, makes a a top and b a bottom. So "player i is a top" forbids the
//! edges in which i is the larger end, "player i is a bottom" those in which it is the
//! smaller; whether a role assignment can be completed is whether the graph keeping the
//! other edges has a perfect matching (`matching::cardinality`). The tops are decided
//! greedily in order (a top as early as possible is lexicographically smaller), then each
//! top in turn takes the smallest bottom that leaves the rest pairable
//! ([`Matcher::take_pair`]). A current perfect matching is kept throughout, so that a
//! decision it already agrees with costs nothing: the first candidate of a round without
//! rematches (1-(B/2+1), 2-(B/2+2), …) is found with no search at all.
use crate::matching::{BitGraph, Matcher};

/// An identifier: the tops ascending, then the bottoms in the order of their tops.
pub type Identifier = (Vec<usize>, Vec<usize>);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Open,
    Top,
    Bottom,
}

/// The lexicographically first perfect matching of `0..b` whose edges `allowed` gives
/// (symmetric), as (top, bottom) pairs in the order of the tops; `None` if there is none.
pub fn first_pairing(
    b: usize,
    allowed: &dyn Fn(usize, usize) -> bool,
) -> Option<Vec<(usize, usize)>> {
    if b % 2 == 1 {
        return None;
    }
    if b == 0 {
        return Some(Vec::new());
    }
    let half = b / 2;
    // The i-th vertex other than v, in ascending order.
    let others = |v: usize, i: usize| -> Option<usize> {
        let u = if i < v { i } else { i + 1 };
        (u < b).then_some(u)
    };
    // A greedy start in the natural order: the first half against the second.
    // (Each answer in constant time: the greedy start asks for many.)
    let natural = |v: usize, i: usize| -> Option<usize> {
        if v < half {
            // half.., then the rest of the first half, then the players before v
            let after = half - v - 1;
            if i < b - half {
                Some(half + i)
            } else if i - (b - half) < after {
                Some(v + 1 + i - (b - half))
            } else {
                let j = i - (b - half) - after;
                (j < v).then_some(j)
            }
        } else {
            others(v, i)
        }
    };
    let graph = BitGraph::from_fn(b, allowed);
    let mut m = Matcher::new(&graph);
    if !m.complete(&natural) {
        return None;
    }
    let mut mate: Vec<usize> = (0..b).map(|v| m.mate(v).unwrap_or(v)).collect();
    let mut role = vec![Role::Open; b];
    let mut tops = 0;
    for i in 0..b {
        if tops == half {
            role[i] = Role::Bottom;
            continue;
        }
        if mate[i] > i {
            role[i] = Role::Top;
            tops += 1;
            continue;
        }
        // Could i be a top? Only a search over the graph with the roles so far says.
        role[i] = Role::Top;
        let filtered = BitGraph::from_fn(b, |x, y| {
            let (lo, hi) = if x < y { (x, y) } else { (y, x) };
            allowed(lo, hi) && role[lo] != Role::Bottom && role[hi] != Role::Top
        });
        let mut trial = Matcher::new(&filtered);
        let current = &mate;
        let prefer = |v: usize, i: usize| -> Option<usize> {
            if i == 0 {
                Some(current[v])
            } else {
                others(v, i - 1)
            }
        };
        if trial.complete(&prefer) {
            mate = (0..b).map(|v| trial.mate(v).unwrap_or(v)).collect();
            tops += 1;
        } else {
            role[i] = Role::Bottom;
        }
    }
    // The bottoms, top by top.
    let filtered = BitGraph::from_fn(b, |x, y| {
        let (lo, hi) = if x < y { (x, y) } else { (y, x) };
        allowed(lo, hi) && role[lo] == Role::Top && role[hi] == Role::Bottom
    });
    let mut m = Matcher::new(&filtered);
    let current = &mate;
    let prefer = |v: usize, i: usize| -> Option<usize> { (i == 0).then(|| current[v]) };
    if !m.complete(&prefer) {
        return None;
    }
    let mut pairs = Vec::with_capacity(half);
    for t in 0..b {
        if role[t] != Role::Top {
            continue;
        }
        let mut taken = false;
        for (c, &rc) in role.iter().enumerate().skip(t + 1) {
            if rc == Role::Bottom && m.is_alive(c) && filtered.edge(t, c) && m.take_pair(t, c) {
                pairs.push((t, c));
                taken = true;
                break;
            }
        }
        if !taken {
            return None;
        }
    }
    Some(pairs)
}

/// The identifier of a pairing given as (top, bottom) pairs in the order of the tops.
pub fn identifier(pairs: &[(usize, usize)]) -> Identifier {
    (
        pairs.iter().map(|p| p.0).collect(),
        pairs.iter().map(|p| p.1).collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every perfect matching of 0..n (small n), as sorted (top, bottom) pairs.
    fn all(n: usize, allowed: &dyn Fn(usize, usize) -> bool) -> Vec<Vec<(usize, usize)>> {
        fn rec(
            free: &mut [usize],
            cur: &mut Vec<(usize, usize)>,
            out: &mut Vec<Vec<(usize, usize)>>,
            allowed: &dyn Fn(usize, usize) -> bool,
        ) {
            let Some(&a) = free.first() else {
                let mut p = cur.clone();
                p.sort();
                out.push(p);
                return;
            };
            for j in 1..free.len() {
                let b = free[j];
                if !allowed(a, b) {
                    continue;
                }
                let mut rest: Vec<usize> = free.to_vec();
                rest.retain(|&x| x != a && x != b);
                cur.push((a, b));
                rec(&mut rest, cur, out, allowed);
                cur.pop();
            }
        }
        let mut out = Vec::new();
        rec(
            &mut (0..n).collect::<Vec<_>>(),
            &mut Vec::new(),
            &mut out,
            allowed,
        );
        out
    }

    #[test]
    fn the_first_candidate_is_first_half_against_second() {
        let pairs = first_pairing(8, &|_, _| true);
        assert_eq!(pairs, Some(vec![(0, 4), (1, 5), (2, 6), (3, 7)]));
    }

    #[test]
    fn agrees_with_enumeration_on_random_graphs() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..300 {
            let n = 2 * rng.random_range(1..=5);
            let mut adj = vec![vec![false; n]; n];
            let pairs: Vec<(usize, usize)> = (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect();
            for (a, b) in pairs {
                let on = rng.random_bool(0.6);
                adj[a][b] = on;
                adj[b][a] = on;
            }
            let allowed = |a: usize, b: usize| adj[a][b];
            let best = all(n, &allowed).into_iter().min_by_key(|p| identifier(p));
            assert_eq!(first_pairing(n, &allowed), best, "graph {adj:?}");
        }
    }
}
