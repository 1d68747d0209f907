//! C.04.5 art. 3.6 with [C8]: the bracket's first pairing in Pairing Identifier order among
//! the pairings with the fewest [C8] (upfloaters meeting a floater of the previous match),
//! found with a weighted matching instead of trying every set of upfloaters allowed to
//! meet one (that search grows as 2^upfloaters and never ended on wide brackets).
//!
//! The pairings with the fewest [C8] are exactly the perfect matchings of least total cost,
//! a pair's cost being how many of its players are upfloaters meeting a previous floater.
//! The least cost comes from one maximum-weight matching (each allowed pair weighs
//! `big - cost`, `big` larger than the bracket so that every perfect matching outweighs
//! every other); the first identifier among the least-cost matchings is then built as
//! `lexicographic::first_pairing` builds it (tops as early as possible, then each top's
//! smallest bottom), each decision kept only if a least-cost matching still completes it.
use crate::matching::max_weight_matching;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Open,
    Top,
    Bottom,
}

/// A least-cost perfect matching of `0..b` over the pairs `allowed` gives: its cost and
/// the mates; `None` if no perfect matching exists.
fn least_cost(
    b: usize,
    allowed: &dyn Fn(usize, usize) -> bool,
    cost: &dyn Fn(usize, usize) -> i64,
) -> Option<(i64, Vec<usize>)> {
    // Every perfect matching must outweigh every smaller one: `big` above the largest
    // total cost of a perfect matching (as before for [C8]'s costs of at most 2 a pair;
    // larger for SEP-5's costs).
    let mut most = 0;
    for x in 0..b {
        for y in x + 1..b {
            if allowed(x, y) {
                most = most.max(cost(x, y));
            }
        }
    }
    let big = (2 * b as i64 + 5).max((b as i64 / 2 + 1) * most + 1);
    let mut edges = Vec::new();
    for x in 0..b {
        for y in x + 1..b {
            if allowed(x, y) {
                edges.push((x, y, big - cost(x, y)));
            }
        }
    }
    let mates = max_weight_matching(b, &edges).ok()?;
    let mut mate = Vec::with_capacity(b);
    let mut total = 0;
    for (v, m) in mates.iter().enumerate() {
        let u = (*m)?;
        if v < u {
            total += cost(v, u);
        }
        mate.push(u);
    }
    Some((total, mate))
}

/// The least total `cost` of a perfect matching of `0..b` over the pairs `allowed` gives;
/// `None` if there is none.
pub fn least_total(
    b: usize,
    allowed: &dyn Fn(usize, usize) -> bool,
    cost: &dyn Fn(usize, usize) -> i64,
) -> Option<i64> {
    if b % 2 == 1 {
        return None;
    }
    least_cost(b, allowed, cost).map(|(c, _)| c)
}

/// The first pairing (as (top, bottom) pairs in the order of the tops) among the perfect
/// matchings of least total `cost` over the pairs `allowed` gives, and that cost; `None` if
/// there is no perfect matching.
pub fn first_least_cost(
    b: usize,
    allowed: &dyn Fn(usize, usize) -> bool,
    cost: &dyn Fn(usize, usize) -> i64,
) -> Option<(Vec<(usize, usize)>, usize)> {
    if b % 2 == 1 {
        return None;
    }
    let (least, mut mate) = least_cost(b, allowed, cost)?;
    let half = b / 2;
    let mut role = vec![Role::Open; b];
    // Whether a least-cost matching completes the roles (and fixed pairs) so far; if so,
    // it becomes the kept matching.
    let feasible = |role: &[Role], fixed: &[Option<usize>], mate: &mut Vec<usize>| -> bool {
        let ok = |x: usize, y: usize| {
            let (lo, hi) = if x < y { (x, y) } else { (y, x) };
            allowed(lo, hi)
                && role[lo] != Role::Bottom
                && role[hi] != Role::Top
                && fixed[lo].is_none_or(|f| f == hi)
                && fixed[hi].is_none_or(|f| f == lo)
        };
        match least_cost(b, &ok, cost) {
            Some((c, m)) if c <= least => {
                *mate = m;
                true
            }
            _ => false,
        }
    };
    let none = vec![None; b];
    let mut tops = 0;
    for i in 0..b {
        if tops == half {
            role[i] = Role::Bottom;
            continue;
        }
        // The kept matching already makes i a top: nothing to search.
        if mate[i] > i {
            role[i] = Role::Top;
            tops += 1;
            continue;
        }
        role[i] = Role::Top;
        if feasible(&role, &none, &mut mate) {
            tops += 1;
        } else {
            role[i] = Role::Bottom;
        }
    }
    // The bottoms, top by top: the smallest that a least-cost matching still completes
    // (the kept matching's is one, so only smaller ones need a search).
    let mut fixed: Vec<Option<usize>> = vec![None; b];
    let mut pairs = Vec::with_capacity(half);
    for t in 0..b {
        if role[t] != Role::Top {
            continue;
        }
        let mut chosen = mate[t];
        for y in t + 1..mate[t] {
            if role[y] != Role::Bottom || fixed[y].is_some() || !allowed(t, y) {
                continue;
            }
            fixed[t] = Some(y);
            fixed[y] = Some(t);
            if feasible(&role, &fixed, &mut mate) {
                chosen = y;
                break;
            }
            fixed[t] = None;
            fixed[y] = None;
        }
        fixed[t] = Some(chosen);
        fixed[chosen] = Some(t);
        pairs.push((t, chosen));
    }
    Some((pairs, least as usize))
}
