//! The pairing process of C.04.6 art. 3.3.2: the PAB first (art. 3.4), then each
//! top-scoregroup with the set of upfloaters art. 3.5 selects, paired by art. 3.6; colours
//! afterwards (art. 4, `colour.rs`).
//!
//! Teams are positions in [`Field::teams`] (TPN order). A bracket's pairing is the
//! lexicographic optimum of art. 3.6.4 ([C8], [C9], [C10], then the identifier of art.
//! 3.6.2), found as one maximum-weight matching whose weight packs those criteria into
//! fields of a wide integer.
use super::state::{Field, Float};
use crate::matching::{self, Wide};
use crate::model::WeakPlace;
use crate::systems::{Explanation, PairError};

/// Pairs of teams (positions in the field).
type Pairs = Vec<(usize, usize)>;

/// Art. 3.5.5's value of a set of upfloaters, smaller is better: [C6] broken, the matches
/// within a group of a weak separation at `WEAK` (SEP-5), [C7].
type SetKey = (bool, usize, usize);

/// The pairs of a round (positions, unordered) and the PAB.
#[derive(Clone, Debug, Default)]
pub struct Paired {
    pub pairs: Vec<(usize, usize)>,
    pub pab: Option<usize>,
}

fn perfect(field: &Field, nodes: &[usize]) -> bool {
    if nodes.is_empty() {
        return true;
    }
    if nodes.len() % 2 == 1 {
        return false;
    }
    matching::has_perfect_matching(nodes.len(), |i, j| field.can_meet(nodes[i], nodes[j]))
}

/// SEP-5.1 placed first (TS-SEP.4): the fewest matches within a group at `WEAK_FIRST`
/// among the legal pairings of `nodes` ([C1]), with one more vertex for the PAB when `pab`
/// (any team [C2] allows may take it, at no cost); `Some(0)` for no teams or without such
/// a separation when they can be paired; `None` when they cannot.
pub(crate) fn fewest_first(field: &Field, nodes: &[usize], pab: bool) -> Option<usize> {
    let n = nodes.len();
    let size = n + usize::from(pab);
    if size == 0 {
        return Some(0);
    }
    if size % 2 == 1 {
        return None;
    }
    let within = |i: usize, j: usize| field.within(nodes[i], nodes[j], WeakPlace::First);
    // Every perfect matching outweighs every smaller one: a pair weighs `big` less its
    // cost, and a matching's total cost is below `big`.
    let big = n as i64 + 2;
    let mut edges = Vec::new();
    for i in 0..size {
        for j in i + 1..size {
            let allowed = if j == n {
                !field.teams[nodes[i]].no_pab
            } else {
                field.can_meet(nodes[i], nodes[j])
            };
            if allowed {
                let cost = i64::from(j < n && within(i, j));
                edges.push((i, j, big - cost));
            }
        }
    }
    let mates = matching::max_weight_matching(size, &edges).ok()?;
    let mut total = 0;
    for (i, m) in mates.iter().enumerate() {
        let j = (*m)?;
        if i < j && j < n && within(i, j) {
            total += 1;
        }
    }
    Some(total)
}

fn tpns(field: &Field, nodes: &[usize]) -> String {
    nodes
        .iter()
        .map(|&n| field.teams[n].tpn.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Pairs the field.
pub fn pair(field: &Field, explanation: &mut Explanation) -> Result<Paired, PairError> {
    let mut out = Paired::default();
    let mut remaining: Vec<usize> = (0..field.teams.len()).collect();
    if !perfect_or_one_short(field, &remaining) {
        return Err(no_pairing(
            "C.04.6 art. 3.3.3",
            "no pairing of the whole field complies with [C1] and [C2]: the Chief Arbiter decides",
        ));
    }
    // SEP-5.1 placed first (TS-SEP.4): the round's fewest matches within a group over
    // every legal pairing, the PAB included; the PAB and every set of upfloaters keep it
    // reachable as [C3] keeps the rest pairable.
    let first_target = if field.weighs(WeakPlace::First) {
        let fewest = fewest_first(field, &remaining, remaining.len() % 2 == 1);
        explanation.step(
            "SEP-5",
            format!(
                "weak separation placed first: the round's fewest matches within a group over every legal pairing is {}; the PAB and every set of upfloaters keep it reachable, before [C4]",
                fewest.unwrap_or(0)
            ),
            Vec::new(),
        );
        fewest
    } else {
        None
    };
    explanation.group("pairing-allocated bye");
    if remaining.len() % 2 == 1 {
        let pab = find_pab(field, &remaining, first_target).ok_or_else(|| {
            no_pairing(
                "C.04.6 art. 3.4.1",
                "no team can have the pairing-allocated bye and leave a legal pairing of the others",
            )
        })?;
        let s = &field.teams[pab];
        explanation.step(
            "C.04.6 art. 3.4",
            format!(
                "team {} gets the pairing-allocated bye: it may have it ([C2]), the others can still be paired, and of such teams it has the lowest score ({}), then the most matches played ({}), then the largest TPN",
                s.tpn,
                s.primary,
                s.played()
            ),
            Vec::new(),
        );
        out.pab = Some(pab);
        remaining.retain(|&n| n != pab);
    } else {
        explanation.step(
            "C.04.6 art. 3.4",
            "an even number of teams: no pairing-allocated bye",
            Vec::new(),
        );
    }
    let top_level = field.teams.iter().map(|s| s.level).max().unwrap_or(0);
    for level in (0..=top_level).rev() {
        let residents: Vec<usize> = remaining
            .iter()
            .copied()
            .filter(|&n| field.teams[n].level == level)
            .collect();
        if residents.is_empty() {
            continue;
        }
        let score = field.teams[residents[0]].primary;
        explanation.group(format!("scoregroup {score}"));
        let target = first_target.and_then(|_| fewest_first(field, &remaining, false));
        let (upfloaters, pairs) = select_upfloaters(field, level, &residents, &remaining, target)?
            .ok_or_else(|| {
                no_pairing(
                    "C.04.6 art. 3.3.3",
                    format!(
                        "the scoregroup {score} (teams {}) has no legal pairing with any set of upfloaters",
                        tpns(field, &residents)
                    ),
                )
            })?;
        explanation.step(
            "C.04.6 art. 3.5",
            if upfloaters.is_empty() {
                format!(
                    "teams {} are paired among themselves: no upfloater is needed ([C4])",
                    tpns(field, &residents)
                )
            } else {
                format!(
                    "teams {} take the upfloaters {}: the fewest ([C4]), with the highest scores ([C5]), the first set in the order of art. 3.5.4 that leaves a legal pairing ([C3]) and best complies with [C6] and [C7]",
                    tpns(field, &residents),
                    tpns(field, &upfloaters)
                )
            },
            Vec::new(),
        );
        for &(a, b) in &pairs {
            explanation.detail(
                "C.04.6 art. 3.6",
                format!(
                    "team {} - team {}: the first pairing in the order of the identifiers (art. 3.6.2) with the fewest unmet colour preferences ([C8], [C9]) and float repeats ([C10])",
                    field.teams[a].tpn, field.teams[b].tpn
                ),
                Vec::new(),
            );
        }
        let paired: Vec<usize> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
        remaining.retain(|n| !paired.contains(n));
        out.pairs.extend(pairs);
    }
    if !remaining.is_empty() {
        return Err(PairError::Internal(format!(
            "C.04.6 art. 3.3.2: teams {} were left unpaired",
            tpns(field, &remaining)
        )));
    }
    Ok(out)
}

fn no_pairing(rule: &str, message: impl Into<String>) -> PairError {
    let message = message.into();
    let mut explanation = Explanation::default();
    explanation.step(rule, message.clone(), Vec::new());
    PairError::NoLegalPairing {
        rule: rule.to_string(),
        message,
        explanation,
    }
}

/// Whether the field can be paired with at most one team left for the PAB ([C1], [C2]).
fn perfect_or_one_short(field: &Field, nodes: &[usize]) -> bool {
    if nodes.len().is_multiple_of(2) {
        return perfect(field, nodes);
    }
    find_pab(field, nodes, None).is_some()
}

/// Art. 3.4: the team that may have the PAB ([C2]) and leaves a legal pairing of the others
/// (3.4.1), with the lowest score (3.4.2), the most matches played (3.4.3), the largest TPN
/// (3.4.4); with a weak separation placed first (`first_target`, TS-SEP.4), one whose
/// absence leaves the round's fewest matches within a group reachable.
fn find_pab(field: &Field, nodes: &[usize], first_target: Option<usize>) -> Option<usize> {
    let mut candidates: Vec<usize> = nodes
        .iter()
        .copied()
        .filter(|&n| !field.teams[n].no_pab)
        .collect();
    candidates.sort_by(|&a, &b| {
        let (x, y) = (&field.teams[a], &field.teams[b]);
        x.level
            .cmp(&y.level)
            .then(y.played().cmp(&x.played()))
            .then(y.tpn.cmp(&x.tpn))
    });
    candidates.into_iter().find(|&c| {
        let rest: Vec<usize> = nodes.iter().copied().filter(|&n| n != c).collect();
        match first_target {
            None => perfect(field, &rest),
            Some(target) => fewest_first(field, &rest, false) == Some(target),
        }
    })
}

/// Art. 3.5: the upfloaters of the top-scoregroup at `level` and the bracket's pairs.
///
/// [C4] (fewest upfloaters) and [C5] (their scores, taken in ascending order, highest
/// first) are the outer loops; a number or a score profile for which no set leaves a legal
/// pairing of the bracket and of the rest ([C3]) is passed over. Within a profile, sets come
/// in the order of art. 3.5.3-3.5.4; art. 3.5.5's "complies with [C6] and [C7]" is read as
/// the best value of ([C6], [C7]) a legal set of the profile attains, the first such set
/// winning (docs/decisions.md, "Team Swiss (C.04.6)").
fn select_upfloaters(
    field: &Field,
    level: usize,
    residents: &[usize],
    remaining: &[usize],
    first_target: Option<usize>,
) -> Result<Option<(Vec<usize>, Pairs)>, PairError> {
    let lower: Vec<usize> = remaining
        .iter()
        .copied()
        .filter(|&n| field.teams[n].level < level)
        .collect();
    let mut count = residents.len() % 2;
    while count <= lower.len() {
        for profile in profiles(field, &lower, count) {
            let mut best: Option<(SetKey, Vec<usize>, Pairs)> = None;
            for set in sets(field, &lower, &profile) {
                let mut bracket: Vec<usize> = residents.to_vec();
                bracket.extend(set.iter().copied());
                let Some(pairs) = pair_bracket(field, level, &bracket)? else {
                    continue;
                };
                let rest: Vec<usize> = remaining
                    .iter()
                    .copied()
                    .filter(|n| !bracket.contains(n))
                    .collect();
                if !perfect(field, &rest) {
                    continue; // [C3] art. 2.2.1
                }
                // SEP-5.1 placed first (TS-SEP.4): the bracket (paired with its fewest, the
                // top field of its weights) and the rest still make the round's fewest
                // matches within a group, as [C3] keeps the rest pairable.
                if let Some(target) = first_target {
                    let made = pairs
                        .iter()
                        .filter(|&&(a, b)| field.within(a, b, WeakPlace::First))
                        .count();
                    if fewest_first(field, &rest, false).map(|r| r + made) != Some(target) {
                        continue;
                    }
                }
                let c6_fails = !c6_holds(field, level, &rest);
                // SEP-5 at `WEAK`, between [C6] and [C7]: the fewest matches within a group
                // the bracket can make with this set (its pairing minimises them first).
                let within = pairs
                    .iter()
                    .filter(|&&(a, b)| field.within(a, b, WeakPlace::Default))
                    .count();
                let c7 = if field.last_two_rounds {
                    0
                } else {
                    set.iter()
                        .filter(|&&n| field.teams[n].float != Float::None)
                        .count()
                };
                let key = (c6_fails, within, c7);
                if best.as_ref().is_none_or(|(k, _, _)| key < *k) {
                    best = Some((key, set.clone(), pairs));
                }
                if key == (false, 0, 0) {
                    break; // art. 3.5.5: the first set that complies
                }
            }
            if let Some((_, set, pairs)) = best {
                return Ok(Some((set, pairs)));
            }
        }
        count += 2;
    }
    Ok(None)
}

/// [C6] art. 2.3.3, read as: what is left of the next scoregroup can still be paired with
/// the fewest upfloaters its parity allows (none if even, one if odd) while the rest stays
/// pairable ([C1], [C3], [C4] in that bracket). An emptied next scoregroup complies.
pub(crate) fn c6_holds(field: &Field, level: usize, rest: &[usize]) -> bool {
    if level == 0 {
        return true;
    }
    let following: Vec<usize> = rest
        .iter()
        .copied()
        .filter(|&n| field.teams[n].level == level - 1)
        .collect();
    if following.is_empty() {
        return true;
    }
    let below: Vec<usize> = rest
        .iter()
        .copied()
        .filter(|&n| field.teams[n].level + 1 < level)
        .collect();
    let candidates: Vec<Vec<usize>> = if following.len().is_multiple_of(2) {
        vec![Vec::new()]
    } else {
        below.iter().map(|&n| vec![n]).collect()
    };
    candidates.into_iter().any(|ups| {
        let mut bracket = following.clone();
        bracket.extend(ups);
        if !perfect(field, &bracket) {
            return false;
        }
        let others: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|n| !bracket.contains(n))
            .collect();
        perfect(field, &others)
    })
}

/// The score profiles of `count` upfloaters (levels, multiset), best first: [C5] compares
/// the scores taken in ascending order, the highest winning.
fn profiles(field: &Field, lower: &[usize], count: usize) -> Vec<Vec<usize>> {
    let mut available: Vec<(usize, usize)> = Vec::new(); // (level, how many), descending
    for &n in lower {
        let l = field.teams[n].level;
        match available.iter_mut().find(|(x, _)| *x == l) {
            Some((_, c)) => *c += 1,
            None => available.push((l, 1)),
        }
    }
    available.sort_by_key(|a| std::cmp::Reverse(a.0));
    let mut out = Vec::new();
    let mut current = Vec::new();
    fn rec(
        available: &[(usize, usize)],
        from: usize,
        left: usize,
        current: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if left == 0 {
            out.push(current.clone());
            return;
        }
        for i in from..available.len() {
            let (level, max) = available[i];
            for take in (1..=max.min(left)).rev() {
                for _ in 0..take {
                    current.push(level);
                }
                rec(available, i + 1, left - take, current, out);
                for _ in 0..take {
                    current.pop();
                }
            }
        }
    }
    rec(&available, 0, count, &mut current, &mut out);
    // Compare ascending-sorted profiles; the larger wins.
    for p in &mut out {
        p.sort_unstable();
    }
    out.sort_by(|a, b| b.cmp(a));
    out.dedup();
    out
}

/// [`sets`], for the hand-worked cases.
#[cfg(test)]
pub(super) fn sets_for_tests(field: &Field, lower: &[usize], profile: &[usize]) -> Vec<Vec<usize>> {
    sets(field, lower, profile)
}

/// Every set of upfloaters with the profile (levels, ascending), in the order of art.
/// 3.5.3-3.5.4: levels by descending score, within a level by ascending TPN, the sets in
/// the lexicographic order of those TPN lists.
fn sets(field: &Field, lower: &[usize], profile: &[usize]) -> Vec<Vec<usize>> {
    let mut levels: Vec<usize> = profile.to_vec();
    levels.dedup();
    levels.reverse();
    let groups: Vec<(Vec<usize>, usize)> = levels
        .iter()
        .map(|&l| {
            let mut members: Vec<usize> = lower
                .iter()
                .copied()
                .filter(|&n| field.teams[n].level == l)
                .collect();
            members.sort_by_key(|&n| field.teams[n].tpn);
            (members, profile.iter().filter(|&&x| x == l).count())
        })
        .collect();
    let mut out = Vec::new();
    fn combos(items: &[usize], k: usize) -> Vec<Vec<usize>> {
        if k == 0 {
            return vec![Vec::new()];
        }
        let mut out = Vec::new();
        for i in 0..items.len() {
            if items.len() - i < k {
                break;
            }
            for mut rest in combos(&items[i + 1..], k - 1) {
                rest.insert(0, items[i]);
                out.push(rest);
            }
        }
        out
    }
    fn rec(groups: &[(Vec<usize>, usize)], prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        let Some(((items, k), rest)) = groups.split_first() else {
            out.push(prefix.clone());
            return;
        };
        for chosen in combos(items, *k) {
            let len = prefix.len();
            prefix.extend(chosen);
            rec(rest, prefix, out);
            prefix.truncate(len);
        }
    }
    rec(&groups, &mut Vec::new(), &mut out);
    out
}

/// Art. 3.6: the bracket's pairing, or `None` when it has no pairing complying with [C1].
///
/// Of the pairings complying with [C1], art. 3.6.4 takes the first in the order of the
/// identifiers (art. 3.6.2: the top members' bracket sequence numbers, then the bottom
/// members' in the order of their top members) among those that best comply with [C8],
/// [C9] and [C10]. The cost of a pair packs, from the most significant field down: [C8]
/// (both teams prefer the same colour), [C9] (both strongly, type B), [C10] (upfloaters'
/// opponents that floated last round), the bottom member's bit (a low sequence number
/// as bottom member costs most), and the bottom member's number in the digit of its top
/// member. The matching maximises (pairs, -cost). A large bracket is solved in two steps
/// with the same order: first the set of top members (the fields down to the bottom
/// members' bits), then, those fixed, the bottom members (one digit per top member), so
/// that the weights stay narrow.
pub fn pair_bracket(
    field: &Field,
    level: usize,
    bracket: &[usize],
) -> Result<Option<Pairs>, PairError> {
    pair_bracket_in(field, level, bracket, false)
}

/// [`pair_bracket`]; `two_steps` forces the two-step form (tests compare both).
pub(super) fn pair_bracket_in(
    field: &Field,
    level: usize,
    bracket: &[usize],
    two_steps: bool,
) -> Result<Option<Pairs>, PairError> {
    if bracket.len() % 2 == 1 {
        return Ok(None);
    }
    if bracket.is_empty() {
        return Ok(Some(Vec::new()));
    }
    let mut sorted: Vec<usize> = bracket.to_vec();
    sorted.sort_by_key(|&n| field.teams[n].tpn);
    let size = sorted.len();
    let k = bits(size);
    // Bits a cost needs above its low fields, plus the pair unit and the solver's headroom
    // (and the fields of weak separations, SEP-5, when the round weighs any).
    let overhead = 3 * (k + 1)
        + 2 * k
        + 12
        + weak_bits(field, k, WeakPlace::Default)
        + weak_bits(field, k, WeakPlace::Last)
        + weak_bits(field, k, WeakPlace::First);
    let single = k * size + size;
    if !two_steps && single + overhead <= 4 * 64 {
        // Sequence numbers are 1-based: top = i + 1, bottom = j + 1.
        let low = |i: usize, j: usize| -> Option<Wide<4>> {
            let top_bit = Wide::<4>::ONE.checked_shl((k * size + size - (j + 1)) as u32)?;
            let digit =
                Wide::<4>::from_u64((j + 1) as u64).checked_shl((k * (size - (i + 1))) as u32)?;
            top_bit.checked_add(digit)
        };
        return Ok(solve::<4>(
            field,
            level,
            &sorted,
            single,
            &|_, _| true,
            &low,
        ));
    }
    // Step 1: the top members: a bit per member, a low sequence number as bottom member
    // costing most. Solved chunk by chunk of members, exactly (the same argument as step
    // 2 below): the first chunk's roles are fixed from the least-cost matchings that
    // minimise its bits, then the next chunk, so a weight never needs `size` bits.
    let chunk1 = if two_steps {
        1
    } else {
        (4 * 64 - overhead.min(4 * 64 - 1)).max(1)
    };
    // Some(true): fixed as top member; Some(false): as bottom member.
    let mut role: Vec<Option<bool>> = vec![None; size];
    let mut found_pairs = None;
    let mut from = 0;
    while from < size {
        let to = (from + chunk1).min(size);
        let allowed = |i: usize, j: usize| role[i] != Some(false) && role[j] != Some(true);
        let solved = with_width(to - from + overhead, |n| {
            macro_rules! step1 {
                ($n:literal) => {
                    solve::<$n>(field, level, &sorted, to - from, &allowed, &|_, j| {
                        if j < from || j >= to {
                            return Some(Wide::<$n>::ZERO);
                        }
                        Wide::<$n>::ONE.checked_shl((to - 1 - j) as u32)
                    })
                };
            }
            match n {
                4 => step1!(4),
                8 => step1!(8),
                16 => step1!(16),
                _ => step1!(32),
            }
        })?;
        let Some(found) = solved else {
            return Ok(None);
        };
        let position = |n: usize| sorted.iter().position(|&x| x == n).unwrap_or(0);
        for &(x, y) in &found {
            let (i, j) = (position(x).min(position(y)), position(x).max(position(y)));
            if (from..to).contains(&i) {
                role[i] = Some(true);
            }
            if (from..to).contains(&j) {
                role[j] = Some(false);
            }
        }
        found_pairs = Some(found);
        from = to;
    }
    let Some(pairs) = found_pairs else {
        return Ok(None);
    };
    let index = |n: usize| sorted.iter().position(|&x| x == n).unwrap_or(0);
    let mut is_top = vec![false; size];
    for &(a, b) in &pairs {
        is_top[index(a).min(index(b))] = true;
    }
    // Step 2: the bottom members, the top members fixed: a digit per top member, the first
    // top member's the most significant, holding the bottom member's rank among the rest.
    let half = size / 2;
    let k2 = bits(half);
    let mut rank = vec![0usize; size];
    let (mut t, mut b) = (0, 0);
    for i in 0..size {
        if is_top[i] {
            rank[i] = t;
            t += 1;
        } else {
            rank[i] = b;
            b += 1;
        }
    }
    // One digit per top member would need k2 × half bits in one weight (beyond the widest
    // integer above about 490 teams in a bracket). The lexicographic order is solved
    // chunk by chunk instead, exactly: the first `chunk` top members' digits are minimised
    // among the matchings of least [C8]-[C10] cost, their bottom members are then fixed
    // (which keeps that least cost reachable), and the next chunk is solved the same way.
    // `two_steps` (tests) takes one top member per chunk.
    let chunk = if two_steps {
        1
    } else {
        ((4 * 64 - overhead.min(4 * 64 - k2)) / k2.max(1)).max(1)
    };
    let mut partner: Vec<Option<usize>> = vec![None; half];
    let mut pairs = None;
    let mut from = 0;
    while from < half {
        let to = (from + chunk).min(half);
        let allowed = |i: usize, j: usize| {
            is_top[i] && !is_top[j] && (rank[i] >= from || partner[rank[i]] == Some(j))
        };
        let low_bits = k2 * (to - from);
        let solved = with_width(low_bits + overhead, |n| {
            macro_rules! step2 {
                ($n:literal) => {
                    solve::<$n>(field, level, &sorted, low_bits, &allowed, &|i, j| {
                        if rank[i] < from || rank[i] >= to {
                            return Some(Wide::<$n>::ZERO);
                        }
                        Wide::<$n>::from_u64(rank[j] as u64)
                            .checked_shl((k2 * (to - 1 - rank[i])) as u32)
                    })
                };
            }
            match n {
                4 => step2!(4),
                8 => step2!(8),
                16 => step2!(16),
                _ => step2!(32),
            }
        })?;
        let Some(found) = solved else {
            return Ok(None);
        };
        for &(x, y) in &found {
            let (i, j) = (index(x).min(index(y)), index(x).max(index(y)));
            if is_top[i] && rank[i] >= from && rank[i] < to {
                partner[rank[i]] = Some(j);
            }
        }
        pairs = Some(found);
        from = to;
    }
    Ok(pairs)
}

/// The width of the SEP-5 field at `place` in a bracket of `k`-bit sizes: none when the
/// round weighs no weak separation there (the weights are then exactly as without).
fn weak_bits(field: &Field, k: usize, place: WeakPlace) -> usize {
    if field.weighs(place) { k + 1 } else { 0 }
}

/// Bits to hold `n`.
fn bits(n: usize) -> usize {
    (usize::BITS - n.leading_zeros()) as usize
}

/// Runs `f` with the narrowest width (limbs of 64 bits) that holds `needed` bits.
fn with_width<T>(needed: usize, f: impl FnOnce(usize) -> T) -> Result<T, PairError> {
    match [4, 8, 16, 32].into_iter().find(|&n| needed <= n * 64) {
        Some(n) => Ok(f(n)),
        None => Err(PairError::Internal(format!(
            "C.04.6 art. 3.6: a bracket this large needs {needed}-bit weights; at most {} are supported",
            32 * 64
        ))),
    }
}

/// The maximum-weight matching of the bracket: each allowed pair complying with [C1]
/// weighs `unit - cost`, the cost's fields, most significant first: the pairs within a
/// group of a weak separation at `WEAK` (SEP-5, only when weighed), [C8], [C9], [C10],
/// the pairs within a group at `WEAK_LAST` (only when weighed), then `low(i, j)` (which
/// takes `low_bits`); `None` when no perfect matching exists.
fn solve<const N: usize>(
    field: &Field,
    level: usize,
    sorted: &[usize],
    low_bits: usize,
    allowed: &dyn Fn(usize, usize) -> bool,
    low: &dyn Fn(usize, usize) -> Option<Wide<N>>,
) -> Option<Pairs> {
    let size = sorted.len();
    let k = bits(size);
    let last_shift = low_bits;
    let c10_shift = last_shift + weak_bits(field, k, WeakPlace::Last);
    let c9_shift = c10_shift + k + 1;
    let c8_shift = c9_shift + k + 1;
    let weak_shift = c8_shift + k + 1;
    // TS-SEP.4: the pairs within a group at `WEAK_FIRST` above every other field.
    let first_shift = weak_shift + weak_bits(field, k, WeakPlace::Default);
    let cost_bits = first_shift + weak_bits(field, k, WeakPlace::First);
    let unit = Wide::<N>::ONE.checked_shl((cost_bits + k + 1) as u32)?;
    let field_of = |x: usize, shift: usize| Wide::<N>::from_u64(x as u64).checked_shl(shift as u32);
    let mut edges = Vec::new();
    for i in 0..size {
        for j in i + 1..size {
            let (a, b) = (sorted[i], sorted[j]);
            if !allowed(i, j) || !field.can_meet(a, b) {
                continue;
            }
            let (c8, c9, c10) = quality(field, level, a, b);
            let mut cost = field_of(c8, c8_shift)?;
            cost = cost.checked_add(field_of(c9, c9_shift)?)?;
            cost = cost.checked_add(field_of(c10, c10_shift)?)?;
            if field.within(a, b, WeakPlace::Default) {
                cost = cost.checked_add(field_of(1, weak_shift)?)?;
            }
            if field.within(a, b, WeakPlace::Last) {
                cost = cost.checked_add(field_of(1, last_shift)?)?;
            }
            if field.within(a, b, WeakPlace::First) {
                cost = cost.checked_add(field_of(1, first_shift)?)?;
            }
            cost = cost.checked_add(low(i, j)?)?;
            edges.push((i, j, unit.checked_sub(cost)?));
        }
    }
    let mates = matching::max_weight_matching(size, &edges).ok()?;
    let mut pairs = Vec::new();
    for (i, mate) in mates.iter().enumerate() {
        match mate {
            Some(j) if i < *j => pairs.push((sorted[i], sorted[*j])),
            Some(_) => {}
            None => return None,
        }
    }
    Some(pairs)
}

/// [C8], [C9] and [C10] of one pair in the bracket at `level` (art. 2.3.5-2.3.7).
pub(crate) fn quality(field: &Field, level: usize, a: usize, b: usize) -> (usize, usize, usize) {
    let (x, y) = (&field.teams[a], &field.teams[b]);
    let mut c8 = 0;
    let mut c9 = 0;
    if let (Some(p), Some(q)) = (x.preference, y.preference)
        && p.colour == q.colour
    {
        // [C8]: one of the two will not get the colour it prefers.
        c8 = 1;
        // [C9] (type B): and both preferences are strong, so a strong one is unmet.
        if field.colour_type == crate::model::TeamColourType::B && p.strong && q.strong {
            c9 = 1;
        }
    }
    let mut c10 = 0;
    if !field.last_two_rounds {
        // [C10]: an upfloater's opponent that floated in the previous round.
        for (team, opponent) in [(x, y), (y, x)] {
            if team.level < level && opponent.float != Float::None {
                c10 += 1;
            }
        }
    }
    (c8, c9, c10)
}
