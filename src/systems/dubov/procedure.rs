//! The pairing procedure of C.04.4.1 (2026): the PAB first (art. 3.1), then each
//! scoregroup from the top (art. 3.2): the fewest upfloaters and the first best set of them
//! (art. 3.2.1-3.2.2, 4.2), G1/G2 (art. 3.2.3), the shifts that balance them (art. 3.2.4,
//! 4.3), S1 and the first legal transposition T2 (art. 3.2.5, 4.4).
//!
//! Every "is there still a legal pairing?" question is a perfect-matching question on the
//! graph of [C1]/[C3] ([`crate::matching`]), so that the text's "first set / first
//! transposition that yields a legal pairing" is found greedily, one choice at a time,
//! without enumerating sets or permutations that cannot complete.
use std::cmp::Reverse;

use super::players::Field;
use crate::matching::{
    BitGraph, Matcher, has_perfect_matching, max_weight_matching, maximum_matching,
    maximum_matching_size, uncoverable,
};
use crate::model::{Colour, Score, WeakPlace};

/// At most this many upfloater sets of two or more players are examined in one bracket
/// (art. 3.2.2); the best found so far is kept and the explanation says so.
const SET_LIMIT: usize = 20_000;

/// At most this many partial sets are visited in one bracket's search.
const NODE_LIMIT: usize = 400_000;

/// Why the procedure stopped.
#[derive(Debug)]
pub enum Failure {
    /// No legal pairing: the article that could not be met.
    NoLegal {
        rule: String,
        message: String,
    },
    Internal(String),
}

/// How one bracket was paired.
#[derive(Clone, Debug, Default)]
pub struct BracketOutcome {
    pub score: Score,
    pub residents: Vec<usize>,
    pub upfloaters: Vec<usize>,
    /// G1 and G2 as first composed (art. 3.2.3); whether G1 is the first half by TPN.
    pub g1: Vec<usize>,
    pub g2: Vec<usize>,
    pub by_tpn: bool,
    /// Moved out of the smaller subgroup (art. 3.2.4 step 1) and from the larger one
    /// (step 2).
    pub shifted_out_of_smaller: Vec<usize>,
    pub shifted_out_of_larger: Vec<usize>,
    pub s1: Vec<usize>,
    pub t2: Vec<usize>,
    /// The set search of art. 3.2.2 stopped at its limit.
    pub limited: bool,
}

/// The round's pairing in entrant indices.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub bye: Option<usize>,
    pub brackets: Vec<BracketOutcome>,
    pub pairs: Vec<(usize, usize)>,
}

fn perfect(f: &Field, vs: &[usize], allowed: impl Fn(usize, usize) -> bool) -> bool {
    has_perfect_matching(vs.len(), |i, j| {
        f.legal(vs[i], vs[j]) && allowed(vs[i], vs[j])
    })
}

/// The least total cost of a perfect matching of `vs` over legal, allowed edges (costs at
/// least 0), if there is one.
fn min_cost_perfect(
    f: &Field,
    vs: &[usize],
    allowed: impl Fn(usize, usize) -> bool,
    cost: impl Fn(usize, usize) -> i64,
) -> Result<Option<i64>, Failure> {
    Ok(min_cost_matching(f, vs, allowed, cost)?.map(|(c, _)| c))
}

/// [`min_cost_perfect`] with the matching (`mate[i]` indexes `vs`).
fn min_cost_matching(
    f: &Field,
    vs: &[usize],
    allowed: impl Fn(usize, usize) -> bool,
    cost: impl Fn(usize, usize) -> i64,
) -> Result<Option<(i64, Vec<usize>)>, Failure> {
    let n = vs.len();
    if n % 2 == 1 {
        return Ok(None);
    }
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (vs[i], vs[j]);
            if f.legal(a, b) && allowed(a, b) {
                edges.push((i, j, cost(a, b)));
            }
        }
    }
    // Each pair is worth more than any matching's total cost, so a maximum-weight
    // matching is a perfect one when there is one (costs 0 or 1: 2n + 4, as always).
    let most = edges.iter().map(|e| e.2).max().unwrap_or(0).max(1);
    let big = (most + 1).checked_mul(n as i64 + 2).ok_or_else(|| {
        Failure::Internal(format!(
            "a bracket of {n} players needs costs beyond 64 bits (weak separations' digits)"
        ))
    })?;
    for e in &mut edges {
        e.2 = big - e.2;
    }
    let mate = max_weight_matching(n, &edges).map_err(|e| Failure::Internal(e.to_string()))?;
    let mut total = 0;
    let mut out = Vec::with_capacity(n);
    for (i, m) in mate.iter().enumerate() {
        match m {
            None => return Ok(None),
            Some(j) => {
                if i < *j {
                    total += cost(vs[i], vs[*j]);
                }
                out.push(*j);
            }
        }
    }
    Ok(Some((total, out)))
}

/// The cost of a bracket pair in the bracket's order of the criteria that read its pairs:
/// [C7] as the pairs inside the smaller colour subgroup (`same_small`), and with a weak
/// separation in the bracket (SEP-5) its pairs within a group, at the default place
/// (before [C7]) in the highest digit, placed last in the lowest; `base` exceeds any
/// bracket's count of pairs. Without a weak separation, [C7]'s cost alone, as always.
/// Placed first (SEP-5.1), one more digit above them all: the bracket's pairs within a
/// group at `WEAK_FIRST`, which the upfloaters were chosen to keep at the round's fewest.
fn pair_cost(f: &Field, weak: bool, base: i64, same_small: bool, a: usize, b: usize) -> i64 {
    let ss = i64::from(same_small);
    if !weak {
        return ss;
    }
    let wf = i64::from(f.weak_within(a, b, WeakPlace::First));
    let wd = i64::from(f.weak_within(a, b, WeakPlace::Default));
    let wl = i64::from(f.weak_within(a, b, WeakPlace::Last));
    ((wf * base + wd) * base + ss) * base + wl
}

/// SEP-5.1 placed first: the fewest pairs within a group at `WEAK_FIRST` over the legal
/// pairings of `members` (`None`: they cannot be paired).
fn fewest_first(f: &Field, members: &[usize]) -> Result<Option<usize>, Failure> {
    if members.is_empty() {
        return Ok(Some(0));
    }
    Ok(min_cost_perfect(
        f,
        members,
        |_, _| true,
        |a, b| i64::from(f.weak_within(a, b, WeakPlace::First)),
    )?
    .map(|c| c as usize))
}

/// Whether `WEAK_FIRST` is in force: two players of the round share a group placed first.
fn weak_first_in_force(f: &Field) -> bool {
    let all: Vec<usize> = (0..f.len()).collect();
    !f.weak.is_empty()
        && f.weak
            .shared_places(all.iter().map(|&e| f.entrants[e].player))
            .contains(&WeakPlace::First)
}

/// Art. 3.1: the PAB goes to the player who may have it ([C2]), leaves a complete pairing
/// of the others ([C4]), has the lowest score, the most games played, the largest TPN.
fn choose_bye(f: &Field) -> Result<Option<usize>, Failure> {
    let n = f.len();
    let adj = |a: usize, b: usize| f.legal(a, b);
    let mate = maximum_matching(n, adj);
    let exposed = mate.iter().filter(|m| m.is_none()).count();
    if exposed > n % 2 {
        return Err(Failure::NoLegal {
            rule: "C.04.4.1 art. 2.2.1".to_string(),
            message: format!(
                "[C4]: no complete pairing of the {n} players exists under [C1] and [C3] (art. 2.1)"
            ),
        });
    }
    if n.is_multiple_of(2) {
        return Ok(None);
    }
    let can_leave = uncoverable(n, &adj, &mate);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&e| {
        let x = &f.entrants[e];
        (x.score, Reverse(x.played), Reverse(x.tpn))
    });
    // SEP-5.1 placed first: the PAB also leaves the round's fewest pairs within a group.
    let mut least: Option<usize> = None;
    let mut leaves = vec![None; n];
    if weak_first_in_force(f) {
        for &e in &order {
            if f.entrants[e].bye_eligible && can_leave[e] {
                let rest: Vec<usize> = (0..n).filter(|&x| x != e).collect();
                leaves[e] = fewest_first(f, &rest)?;
                if let Some(w) = leaves[e] {
                    least = Some(least.map_or(w, |l| l.min(w)));
                }
            }
        }
    }
    order
        .into_iter()
        .find(|&e| {
            f.entrants[e].bye_eligible
                && can_leave[e]
                && least.is_none_or(|l| leaves[e] == Some(l))
        })
        .map(Some)
        .ok_or_else(|| Failure::NoLegal {
            rule: "C.04.4.1 art. 3.1".to_string(),
            message: "no player may receive the pairing-allocated bye ([C2]) and leave a complete pairing of the others ([C4])".to_string(),
        })
}

/// Pairs the round.
pub fn pair_round(f: &Field) -> Result<Outcome, Failure> {
    let mut out = Outcome {
        bye: choose_bye(f)?,
        ..Outcome::default()
    };
    let n = f.len();
    let weak_first = weak_first_in_force(f);
    let mut alive = vec![true; n];
    if let Some(b) = out.bye {
        alive[b] = false;
    }
    // Entrants are by score descending: each scoregroup is a run.
    while let Some(top) = (0..n).find(|&e| alive[e]) {
        let score = f.entrants[top].score;
        let residents: Vec<usize> = (0..n)
            .filter(|&e| alive[e] && f.entrants[e].score == score)
            .collect();
        let lower: Vec<usize> = (0..n)
            .filter(|&e| alive[e] && f.entrants[e].score < score)
            .collect();
        // SEP-5.1 placed first: the round's fewest pairs within a group for the players
        // left, which the bracket's upfloaters must keep reachable ([C4]).
        let first_target = if weak_first {
            let left: Vec<usize> = (0..n).filter(|&e| alive[e]).collect();
            fewest_first(f, &left)?
        } else {
            None
        };
        let (upfloaters, limited) = choose_upfloaters(f, &residents, &lower, first_target)?;
        let mut bracket = residents.clone();
        bracket.extend(&upfloaters);
        bracket.sort_unstable();
        let mut b = pair_bracket(f, &bracket)?;
        b.score = score;
        b.residents = residents;
        b.upfloaters = upfloaters;
        b.limited = limited;
        for (&x, &y) in b.s1.iter().zip(&b.t2) {
            out.pairs.push((x, y));
        }
        for &e in &bracket {
            alive[e] = false;
        }
        out.brackets.push(b);
    }
    Ok(out)
}

/// The quality of an upfloater set (art. 2.3), smaller is better: [C6] the upfloaters'
/// scores in ascending order, maximised; SEP-5 at its default place, the bracket's pairs
/// within a weak group in its best pairing; [C7] players without their colour preference in
/// the bracket's best pairing; [C8] maximum upfloaters; [C9] their upfloats; [C10]
/// upfloaters who upfloated in the previous round ([C8]-[C10] not in the last round);
/// SEP-5 placed last. Without a weak separation both SEP-5 values are 0.
type Key = (Reverse<Vec<Score>>, usize, usize, usize, u32, usize, usize);

/// A bracket's best pairing as the key reads it: (SEP-5 default, [C7], SEP-5 last).
type BracketQuality = (usize, usize, usize);

fn cheap_key(f: &Field, set: &[usize], quality: BracketQuality) -> Key {
    let (weak_default, c7, weak_last) = quality;
    let mut scores: Vec<Score> = set.iter().map(|&e| f.entrants[e].score).collect();
    scores.sort_unstable();
    let (mut c8, mut c9, mut c10) = (0, 0, 0);
    if !f.last_round {
        for &e in set {
            if f.is_max_upfloater(e) {
                c8 += 1;
                c9 += f.entrants[e].upfloats;
            }
            if f.entrants[e].upfloated_last {
                c10 += 1;
            }
        }
    }
    (Reverse(scores), weak_default, c7, c8, c9, c10, weak_last)
}

/// The bracket's best pairing's values (reading D3 for [C7]) in the order of [`Key`]:
/// with a weak separation in the bracket, [C7] is the best among the pairings with the
/// fewest pairs within a group at the default place, and SEP-5 placed last the fewest
/// among the pairings best on both.
fn bracket_quality(f: &Field, bracket: &[usize]) -> Result<BracketQuality, Failure> {
    if !f.weak_in(bracket) {
        return Ok((0, c7(f, bracket)?, 0));
    }
    let w = bracket
        .iter()
        .filter(|&&e| f.entrants[e].pref == Colour::White)
        .count();
    let small = if 2 * w <= bracket.len() {
        Colour::White
    } else {
        Colour::Black
    };
    let in_small = |e: usize| f.entrants[e].pref == small;
    let base = bracket.len() as i64 + 1;
    let total = min_cost_perfect(
        f,
        bracket,
        |_, _| true,
        |a, b| pair_cost(f, true, base, in_small(a) && in_small(b), a, b),
    )?
    .ok_or_else(|| Failure::Internal("a legal bracket has no perfect matching".to_string()))?;
    // The placed-first digit (on top) is not part of the key: placed first, the round's
    // total counts, which every set the search compares keeps (`choose_upfloaters`).
    let (weak_default, pairs, weak_last) = (
        total / (base * base) % base,
        total / base % base,
        total % base,
    );
    Ok((
        weak_default as usize,
        c7_bound(f, bracket) + 2 * pairs as usize,
        weak_last as usize,
    ))
}

/// The least [C7] the colour preferences allow: the surplus of the larger preference group
/// must pair among itself.
fn c7_bound(f: &Field, bracket: &[usize]) -> usize {
    let w = bracket
        .iter()
        .filter(|&&e| f.entrants[e].pref == Colour::White)
        .count();
    w.abs_diff(bracket.len() - w) / 2
}

/// [C7] of a bracket's best legal pairing (reading D3): each pair of two players wanting
/// the same colour leaves one without it.
fn c7(f: &Field, bracket: &[usize]) -> Result<usize, Failure> {
    let w = bracket
        .iter()
        .filter(|&&e| f.entrants[e].pref == Colour::White)
        .count();
    let small = if 2 * w <= bracket.len() {
        Colour::White
    } else {
        Colour::Black
    };
    let in_small = |e: usize| f.entrants[e].pref == small;
    let bound = c7_bound(f, bracket);
    if perfect(f, bracket, |a, b| !(in_small(a) && in_small(b))) {
        return Ok(bound);
    }
    let pairs = min_cost_perfect(
        f,
        bracket,
        |_, _| true,
        |a, b| i64::from(in_small(a) && in_small(b)),
    )?
    .ok_or_else(|| Failure::Internal("a legal bracket has no perfect matching".to_string()))?;
    Ok(bound + 2 * pairs as usize)
}

/// Art. 3.2.1-3.2.2: the fewest upfloaters that let every resident be paired while the
/// rest can still be paired ([C1], [C3], [C4]); among sets of that size the best by
/// [C6]-[C10], the first in the order of art. 4.2 on a tie. Returns the set and whether the
/// search stopped at its limit.
fn choose_upfloaters(
    f: &Field,
    residents: &[usize],
    lower: &[usize],
    first_target: Option<usize>,
) -> Result<(Vec<usize>, bool), Failure> {
    let rest: std::cell::OnceCell<Rest> = std::cell::OnceCell::new();
    // SEP-5.1 placed first: the bracket and the players left below can still make the
    // round's fewest pairs within a group, as [C4] keeps the rest pairable.
    let keeps_first = |bracket: &[usize], set: &[usize]| -> bool {
        let Some(target) = first_target else {
            return true;
        };
        let below: Vec<usize> = lower.iter().copied().filter(|x| !set.contains(x)).collect();
        matches!(
            (fewest_first(f, bracket), fewest_first(f, &below)),
            (Ok(Some(a)), Ok(Some(b))) if a + b == target
        )
    };
    let legal_set = |set: &[usize]| -> bool {
        let mut b = residents.to_vec();
        b.extend(set);
        perfect(f, &b, |_, _| true)
            && rest
                .get_or_init(|| Rest::new(f, lower))
                .pairable_without(set)
            && keeps_first(&b, set)
    };
    if residents.len().is_multiple_of(2) && legal_set(&[]) {
        return Ok((Vec::new(), false));
    }
    let odd = residents.len() % 2 == 1;
    if odd && first_target.is_none() {
        let singles = single_upfloaters(f, residents, lower);
        if !singles.is_empty() {
            return best_single(f, residents, &singles).map(|s| (s, false));
        }
    }
    // Only a lower player who may meet some resident can be a needed upfloater.
    let pool: Vec<usize> = lower
        .iter()
        .copied()
        .filter(|&x| residents.iter().any(|&r| f.legal(x, r)))
        .collect();
    let search = |u: usize| -> Result<(Option<Vec<usize>>, bool), Failure> {
        let mut search = SetSearch {
            f,
            residents,
            pool: &pool,
            u,
            best: None,
            examined: 0,
            nodes: 0,
            legal_set: &legal_set,
        };
        let mut chosen = Vec::new();
        search.walk(0, &mut chosen)?;
        let limited = search.examined >= SET_LIMIT || search.nodes >= NODE_LIMIT;
        Ok((search.best.map(|(_, set)| set), limited))
    };
    // Placed first, [C5]'s fewest upfloaters are the fewest that keep the round's fewest
    // pairs within a group: the sizes are searched upwards (the shortcuts here count [C4]
    // alone).
    if first_target.is_some() {
        let mut limited = false;
        let mut u = if odd { 1 } else { 2 };
        while u <= pool.len() {
            let (found, stopped) = search(u)?;
            limited |= stopped;
            if let Some(set) = found {
                return Ok((set, limited));
            }
            u += 2;
        }
        return Err(Failure::NoLegal {
            rule: "C.04.4.1 art. 2.2.1".to_string(),
            message: "[C4]: no set of upfloaters keeps the remaining players pairable with the round's fewest pairs within a group (SEP-5.1)".to_string(),
        });
    }
    // [C5]: no fewer than the residents' own deficiency (the residents a maximum matching
    // among themselves leaves over), and more than the sizes already refused.
    let rn = residents.len();
    let deficiency = rn - 2 * maximum_matching_size(rn, |i, j| f.legal(residents[i], residents[j]));
    let first_try = deficiency.max(if odd { 3 } else { 2 });
    let (found, limited) = search(first_try)?;
    if let Some(set) = found {
        return Ok((set, limited));
    }
    // None found at that size: the exact fewest by a weighted matching of everyone left,
    // which also gives a legal set of that size should the search stop at its limit.
    let (u, fallback) = fewest_upfloaters(f, residents, lower)?;
    let (found, limited) = if u == first_try {
        (None, limited)
    } else {
        search(u)?
    };
    Ok(match found {
        Some(set) => (set, limited),
        None => (fallback, true),
    })
}

/// The lower players' maximum matching, kept to answer "can the lower players still all
/// be paired without these upfloaters?" ([C4]) by repairing a copy, not matching anew.
struct Rest {
    local: Vec<usize>,
    base: Matcher<BitGraph>,
}

impl Rest {
    fn new(f: &Field, lower: &[usize]) -> Rest {
        let n = lower.len();
        let mut local = vec![usize::MAX; f.len()];
        for (i, &x) in lower.iter().enumerate() {
            local[x] = i;
        }
        let graph = BitGraph::from_fn(n, |i, j| f.legal(lower[i], lower[j]));
        let mut base = Matcher::new(graph);
        let _ = base.complete(&|v, i| Some(v + 1 + i).filter(|&u| u < n));
        Rest { local, base }
    }

    fn pairable_without(&self, set: &[usize]) -> bool {
        let mut m = self.base.clone();
        for &x in set {
            if let Some(&l) = self.local.get(x).filter(|&&l| l != usize::MAX) {
                m.remove(l);
            }
        }
        m.complete(&|_, _| None)
    }
}

struct SetSearch<'a> {
    f: &'a Field,
    residents: &'a [usize],
    pool: &'a [usize],
    u: usize,
    best: Option<(Key, Vec<usize>)>,
    examined: usize,
    nodes: usize,
    legal_set: &'a dyn Fn(&[usize]) -> bool,
}

impl SetSearch<'_> {
    /// Sets in the order of art. 4.2 (reading D17: lexicographic in the sequence numbers,
    /// which follow the pool's order: score descending, TPN ascending).
    fn walk(&mut self, start: usize, chosen: &mut Vec<usize>) -> Result<(), Failure> {
        self.nodes += 1;
        if chosen.len() == self.u {
            let mut bracket = self.residents.to_vec();
            bracket.extend(chosen.iter());
            // A set that cannot beat the best found, even at its least [C7], is not
            // examined (on a tie the earlier set stays).
            let bound = cheap_key(self.f, chosen, (0, c7_bound(self.f, &bracket), 0));
            if self.best.as_ref().is_some_and(|(k, _)| &bound >= k) {
                return Ok(());
            }
            self.examined += 1;
            if !(self.legal_set)(chosen) {
                return Ok(());
            }
            let key = cheap_key(self.f, chosen, bracket_quality(self.f, &bracket)?);
            if self.best.as_ref().is_none_or(|(k, _)| &key < k) {
                self.best = Some((key, chosen.clone()));
            }
            return Ok(());
        }
        let need = self.u - chosen.len();
        for i in start..self.pool.len() {
            if self.pool.len() - i < need || self.examined >= SET_LIMIT || self.nodes >= NODE_LIMIT
            {
                break;
            }
            // [C6]: the best any set through this player can do is to take the next
            // players of the pool (scores only fall along it); if even that is worse than
            // the best set found, so is every later choice.
            if let Some((key, _)) = &self.best {
                let mut optimistic: Vec<Score> = chosen
                    .iter()
                    .chain(&self.pool[i..i + need])
                    .map(|&e| self.f.entrants[e].score)
                    .collect();
                optimistic.sort_unstable();
                if optimistic < key.0.0 {
                    break;
                }
            }
            chosen.push(self.pool[i]);
            self.walk(i + 1, chosen)?;
            chosen.pop();
        }
        Ok(())
    }
}

/// The lower players who alone complete an odd scoregroup: one that some near-perfect
/// matching of the residents leaves over may meet them, and the lower players without them
/// still pair completely (Gallai-Edmonds on both sides).
fn single_upfloaters(f: &Field, residents: &[usize], lower: &[usize]) -> Vec<usize> {
    let rn = residents.len();
    let adj_r = |i: usize, j: usize| f.legal(residents[i], residents[j]);
    let mate_r = maximum_matching(rn, adj_r);
    if mate_r.iter().filter(|m| m.is_none()).count() != 1 {
        return Vec::new();
    }
    let free_r = uncoverable(rn, &adj_r, &mate_r);
    let xn = lower.len();
    if xn == 0 {
        return Vec::new();
    }
    let adj_x = |i: usize, j: usize| f.legal(lower[i], lower[j]);
    let mate_x = maximum_matching(xn, adj_x);
    if mate_x.iter().filter(|m| m.is_none()).count() != 1 {
        return Vec::new();
    }
    let free_x = uncoverable(xn, &adj_x, &mate_x);
    (0..xn)
        .filter(|&k| free_x[k] && (0..rn).any(|i| free_r[i] && f.legal(lower[k], residents[i])))
        .map(|k| lower[k])
        .collect()
}

fn best_single(f: &Field, residents: &[usize], singles: &[usize]) -> Result<Vec<usize>, Failure> {
    let mut best: Option<(Key, usize)> = None;
    let mut bracket = residents.to_vec();
    for &x in singles {
        // [C6]: the candidates come by score descending.
        if let Some((k, _)) = &best
            && k.0.0.first().is_some_and(|&s| f.entrants[x].score < s)
        {
            break;
        }
        bracket.push(x);
        let bound = cheap_key(f, &[x], (0, c7_bound(f, &bracket), 0));
        if best.as_ref().is_none_or(|(k, _)| &bound < k) {
            let key = cheap_key(f, &[x], bracket_quality(f, &bracket)?);
            if best.as_ref().is_none_or(|(k, _)| &key < k) {
                best = Some((key, x));
            }
        }
        bracket.pop();
    }
    Ok(best.map(|(_, x)| vec![x]).unwrap_or_default())
}

/// [C5] with [C4]: the fewest resident-lower pairs over the complete pairings of the
/// remaining players, and the upfloaters of one such pairing (a legal set of that size,
/// leaning to higher scores as [C6] asks).
fn fewest_upfloaters(
    f: &Field,
    residents: &[usize],
    lower: &[usize],
) -> Result<(usize, Vec<usize>), Failure> {
    let mut all = residents.to_vec();
    all.extend(lower);
    let m = all.len();
    let n = f.len();
    let mut resident = vec![false; n];
    for &r in residents {
        resident[r] = true;
    }
    // Lower players by rank (score descending, TPN), for a bonus below one unit of [C5].
    let mut rank = vec![0i64; n];
    for (k, &x) in lower.iter().enumerate() {
        rank[x] = (lower.len() - k) as i64;
    }
    let unit = 2 * (lower.len() as i64 + 1) * (m as i64 + 1);
    let big = unit * (m as i64 + 2);
    let mut edges = Vec::new();
    for i in 0..m {
        for j in i + 1..m {
            let (a, b) = (all[i], all[j]);
            if !f.legal(a, b) {
                continue;
            }
            let w = if resident[a] == resident[b] {
                big + unit
            } else {
                big + rank[if resident[a] { b } else { a }]
            };
            edges.push((i, j, w));
        }
    }
    let mate = max_weight_matching(m, &edges).map_err(|e| Failure::Internal(e.to_string()))?;
    let mut set = Vec::new();
    for (i, partner) in mate.iter().enumerate() {
        let Some(j) = *partner else {
            return Err(Failure::NoLegal {
                rule: "C.04.4.1 art. 2.2.1".to_string(),
                message: "[C4]: the remaining players cannot all be paired".to_string(),
            });
        };
        if !resident[all[i]] && resident[all[j]] {
            set.push(all[i]);
        }
    }
    set.sort_unstable();
    Ok((set.len(), set))
}

/// Art. 4.3.3: sequence numbers from the (remaining) middle outwards; of two in the middle,
/// the one higher in the list first.
fn middle_out(list: &[usize]) -> Vec<usize> {
    let len = list.len() as i64;
    let mut idx: Vec<usize> = (0..list.len()).collect();
    idx.sort_by_key(|&i| ((2 * i as i64 - (len - 1)).abs(), i));
    idx.into_iter().map(|i| list[i]).collect()
}

/// Art. 3.2.3-3.2.5 on a bracket (residents and upfloaters).
fn pair_bracket(f: &Field, bracket: &[usize]) -> Result<BracketOutcome, Failure> {
    let n = f.len();
    let e = |x: usize| &f.entrants[x];
    let mut out = BracketOutcome::default();
    // 3.2.3: G1 = the White seekers, or the first half by TPN when nobody has played.
    let by_tpn = bracket.iter().all(|&x| !e(x).has_played());
    let (g1, g2): (Vec<usize>, Vec<usize>) = if by_tpn {
        let mut v = bracket.to_vec();
        v.sort_by_key(|&x| e(x).tpn);
        let half = v.len() / 2;
        (v[..half].to_vec(), v[half..].to_vec())
    } else {
        bracket.iter().partition(|&&x| e(x).pref == Colour::White)
    };
    out.by_tpn = by_tpn;
    out.g1 = g1.clone();
    out.g2 = g2.clone();
    // 4.3.2: G1's players by ARO then TPN, G2's by TPN.
    let sort_g1 = |v: &mut Vec<usize>| v.sort_by_key(|&x| (e(x).aro, e(x).tpn));
    let sort_g2 = |v: &mut Vec<usize>| v.sort_by_key(|&x| e(x).tpn);
    let g1_smaller = g1.len() <= g2.len();
    let (mut small, mut large) = if g1_smaller {
        (g1.clone(), g2.clone())
    } else {
        (g2.clone(), g1.clone())
    };
    if g1_smaller {
        sort_g1(&mut small);
        sort_g2(&mut large);
    } else {
        sort_g2(&mut small);
        sort_g1(&mut large);
    }
    let mut in_small = vec![false; n];
    for &x in &small {
        in_small[x] = true;
    }
    // 3.2.4 step 1: pairs the smaller subgroup cannot avoid. With a weak separation in
    // the bracket (SEP-5), among the pairings with the fewest pairs within a group (default
    // place), and every choice below keeps the bracket's best cost `target` on both (and
    // on SEP-5 placed last).
    let weak = f.weak_in(bracket);
    let base = bracket.len() as i64 + 1;
    let ss_cost = |a: usize, b: usize| pair_cost(f, weak, base, in_small[a] && in_small[b], a, b);
    let (unavoidable, target, mut current) =
        if !weak && perfect(f, bracket, |a, b| !(in_small[a] && in_small[b])) {
            (0, 0, None)
        } else {
            let (c, m) = min_cost_matching(f, bracket, |_, _| true, ss_cost)?
                .ok_or_else(|| Failure::Internal("bracket without a legal pairing".to_string()))?;
            let pairs = if weak { c / base % base } else { c };
            (pairs as usize, c, Some(m))
        };
    let mut moved_a: Vec<usize> = Vec::new();
    if unavoidable > 0 {
        // The first set (4.3) of that many players from the smaller subgroup with which a
        // pairing keeps [C7] at its best: each unavoidable pair holds one of them. The
        // last such pairing found answers without a new search when the candidate is in
        // one of its unavoidable pairs beside a player not chosen.
        let mut local = vec![usize::MAX; n];
        for (i, &x) in bracket.iter().enumerate() {
            local[x] = i;
        }
        let mut chosen = vec![false; n];
        let mut excluded = vec![false; n];
        for x in middle_out(&small) {
            if moved_a.len() == unavoidable {
                break;
            }
            let partner = current
                .as_ref()
                .and_then(|m| m.get(local[x]))
                .map(|&j| bracket[j]);
            chosen[x] = true;
            if partner.is_some_and(|y| in_small[y] && !chosen[y]) {
                moved_a.push(x);
                continue;
            }
            let allowed = |a: usize, b: usize| match (in_small[a], in_small[b]) {
                (true, true) => !((chosen[a] && chosen[b]) || (excluded[a] && excluded[b])),
                (true, false) => !chosen[a],
                (false, true) => !chosen[b],
                (false, false) => true,
            };
            match min_cost_matching(f, bracket, allowed, ss_cost)? {
                Some((c, m)) if c == target => {
                    moved_a.push(x);
                    current = Some(m);
                }
                _ => {
                    chosen[x] = false;
                    excluded[x] = true;
                }
            }
        }
        if moved_a.len() != unavoidable {
            return Err(Failure::Internal(
                "no set of shifters found for art. 3.2.4 step 1".to_string(),
            ));
        }
    }
    // 3.2.4 step 2: balance with the larger subgroup's own members (reading D4).
    let mut side1 = vec![false; n]; // the smaller subgroup's side at the end
    let mut side2 = vec![false; n];
    for &x in &small {
        side1[x] = true;
    }
    for &x in &moved_a {
        side1[x] = false;
        side2[x] = true;
    }
    let kept_small = small.len() - moved_a.len();
    let q = (bracket.len() / 2).saturating_sub(kept_small);
    let mut moved_b: Vec<usize> = Vec::new();
    for x in middle_out(&large) {
        if moved_b.len() == q {
            break;
        }
        side1[x] = true;
        let apart = |a: usize, b: usize| !((side1[a] && side1[b]) || (side2[a] && side2[b]));
        let ok = if weak {
            min_cost_perfect(f, bracket, apart, ss_cost)? == Some(target)
        } else {
            perfect(f, bracket, apart)
        };
        if ok {
            moved_b.push(x);
        } else {
            side1[x] = false;
            side2[x] = true;
        }
    }
    if moved_b.len() != q {
        return Err(Failure::Internal(
            "no set of shifters found for art. 3.2.4 step 2".to_string(),
        ));
    }
    let final_small: Vec<usize> = small
        .iter()
        .copied()
        .filter(|x| !moved_a.contains(x))
        .chain(moved_b.iter().copied())
        .collect();
    let final_large: Vec<usize> = large
        .iter()
        .copied()
        .filter(|x| !moved_b.contains(x))
        .chain(moved_a.iter().copied())
        .collect();
    let (mut s1, mut t) = if g1_smaller {
        (final_small, final_large)
    } else {
        (final_large, final_small)
    };
    out.shifted_out_of_smaller = moved_a;
    out.shifted_out_of_larger = moved_b;
    // 3.2.5: S1 by ARO then TPN; T2 the first transposition of G2 (by TPN, 4.4) that
    // pairs S1[i] with T2[i] legally.
    sort_g1(&mut s1);
    sort_g2(&mut t);
    let h = s1.len();
    if t.len() != h {
        return Err(Failure::Internal("unbalanced subgroups".to_string()));
    }
    if weak {
        out.t2 = first_best_transposition(f, bracket, &s1, &t, &ss_cost, target)?;
        out.s1 = s1;
        return Ok(out);
    }
    let node = |v: usize| if v < h { s1[v] } else { t[v - h] };
    let graph = BitGraph::from_fn(2 * h, |a, b| {
        (a < h) != (b < h) && f.legal(node(a), node(b))
    });
    let mut m = Matcher::new(graph);
    let order = |v: usize, i: usize| -> Option<usize> {
        if i >= h {
            None
        } else if v < h {
            Some(h + i)
        } else {
            Some(i)
        }
    };
    if !m.complete(&order) {
        return Err(Failure::Internal(
            "the balanced subgroups have no legal pairing".to_string(),
        ));
    }
    let mut t2 = Vec::with_capacity(h);
    for i in 0..h {
        let j = (h..2 * h).find(|&j| m.is_alive(j) && m.take_pair(i, j));
        match j {
            Some(j) => t2.push(node(j)),
            None => {
                return Err(Failure::Internal(
                    "no legal transposition of G2".to_string(),
                ));
            }
        }
    }
    out.s1 = s1;
    out.t2 = t2;
    Ok(out)
}

/// Art. 3.2.5 and 4.4 with a weak separation in the bracket (SEP-5): S1[i] in turn takes
/// the first player of T (by TPN) with whom a pairing of S1 against T keeps the bracket's
/// best cost `target` (fewest pairs within a group, [C7], SEP-5 placed last). A held
/// pairing of that cost answers when it already pairs them; else a matching of the players
/// left decides.
fn first_best_transposition(
    f: &Field,
    bracket: &[usize],
    s1: &[usize],
    t: &[usize],
    cost: &dyn Fn(usize, usize) -> i64,
    target: i64,
) -> Result<Vec<usize>, Failure> {
    let n = f.len();
    let mut in_s1 = vec![false; n];
    for &x in s1 {
        in_s1[x] = true;
    }
    let cross = |a: usize, b: usize| in_s1[a] != in_s1[b];
    let mut mate = vec![usize::MAX; n];
    let hold = |mate: &mut Vec<usize>, vs: &[usize], m: &[usize]| {
        for (i, &j) in m.iter().enumerate() {
            mate[vs[i]] = vs[j];
        }
    };
    match min_cost_matching(f, bracket, cross, cost)? {
        Some((c, m)) if c == target => hold(&mut mate, bracket, &m),
        _ => {
            return Err(Failure::Internal(
                "the balanced subgroups have no pairing of the bracket's best cost".to_string(),
            ));
        }
    }
    let mut fixed = vec![false; n];
    let mut spent = 0i64;
    let mut t2 = Vec::with_capacity(s1.len());
    for &x in s1 {
        let mut found = None;
        for &y in t {
            if fixed[y] || !f.legal(x, y) {
                continue;
            }
            if mate[x] == y {
                found = Some(y);
                break;
            }
            let rest: Vec<usize> = bracket
                .iter()
                .copied()
                .filter(|&v| !fixed[v] && v != x && v != y)
                .collect();
            if let Some((c, m)) = min_cost_matching(f, &rest, cross, cost)?
                && spent + cost(x, y) + c == target
            {
                hold(&mut mate, &rest, &m);
                mate[x] = y;
                mate[y] = x;
                found = Some(y);
                break;
            }
        }
        let y =
            found.ok_or_else(|| Failure::Internal("no legal transposition of G2".to_string()))?;
        fixed[x] = true;
        fixed[y] = true;
        spent += cost(x, y);
        t2.push(y);
    }
    Ok(t2)
}

#[cfg(test)]
mod tests {
    use super::middle_out;

    #[test]
    fn sequence_numbers_start_from_the_remaining_middle() {
        // Art. 4.3.3: A..G → D C E B F A G; A..F → C D B E A F (of two in the middle, the
        // higher in the list first, then the middle of what remains).
        let odd: Vec<usize> = (0..7).collect();
        assert_eq!(middle_out(&odd), vec![3, 2, 4, 1, 5, 0, 6]);
        let even: Vec<usize> = (0..6).collect();
        assert_eq!(middle_out(&even), vec![2, 3, 1, 4, 0, 5]);
        assert_eq!(middle_out(&[9]), vec![9]);
        assert!(middle_out(&[]).is_empty());
    }
}
