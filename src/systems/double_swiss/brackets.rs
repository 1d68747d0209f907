//! Pairing one match (C.04.5 art. 3): the pairing-allocated bye first (3.4), then from the
//! top scoregroup down, each scoregroup with the upfloaters art. 3.5 selects for it, paired
//! in the lexicographic order of art. 3.6. Every resident of a scoregroup is paired in its
//! own bracket: brackets have upfloaters only, never downfloaters (1.3.2).
use crate::matching::{BitGraph, has_perfect_matching, maximum_matching_size};
use crate::model::{Score, WeakPlace};

use super::lexicographic::first_pairing;

/// The best set of upfloaters found so far: its ([C6], SEP-5 at its default place, [C7])
/// value and the set.
type BestSet = ((Option<usize>, usize, usize), Vec<usize>);

/// How many upfloater sets one bracket may evaluate before it keeps the best found (a
/// guard for pathological fields; never reached by the corpus or the benchmarks).
const SET_BUDGET: usize = 20_000;

/// The field of one match, players numbered in TPN order.
pub struct Field {
    /// Pairing score (points + virtual points, C.04.7).
    pub score: Vec<Score>,
    pub tpn: Vec<u32>,
    /// May meet ([C1], forbidden pairs).
    pub compatible: BitGraph,
    /// A floater in the previous match (reading X8): played a regular match against an
    /// opponent with another score (the PAB and a forfeited match are no floats).
    pub floated: Vec<bool>,
    /// [C2] bars the PAB.
    pub pab_barred: Vec<bool>,
    pub matches_played: Vec<usize>,
    /// The last match: [C7] and [C8] do not apply (reading X9).
    pub last_match: bool,
    /// SEP-5: the pairs within a group of a weak separation, per place (indexed by
    /// [`WeakPlace`]; `None` where no two players of the match share a group there).
    pub weak: [Option<BitGraph>; 3],
}

/// A step to explain: the rule id and the message, with the players (field numbers).
pub struct Note {
    pub rule: &'static str,
    pub message: String,
    pub players: Vec<usize>,
}

pub struct Outcome {
    pub pab: Option<usize>,
    pub pairs: Vec<(usize, usize)>,
    pub notes: Vec<Note>,
}

/// Why a match cannot be paired.
pub struct Failure {
    pub rule: &'static str,
    pub message: String,
}

impl Field {
    fn len(&self) -> usize {
        self.score.len()
    }

    /// SEP-5: whether `a` and `b` share a group of a weak separation at `place`.
    pub(crate) fn within(&self, place: WeakPlace, a: usize, b: usize) -> bool {
        self.weak[place as usize]
            .as_ref()
            .is_some_and(|g| g.edge(a, b))
    }

    /// SEP-5 at its default place (between [C6] and [C7]): the fewest pairs within a group
    /// among the legal pairings of `bracket`; 0 without such a separation.
    fn fewest_within(&self, bracket: &[usize]) -> usize {
        if self.weak[WeakPlace::Default as usize].is_none()
            || !bracket.iter().enumerate().any(|(i, &x)| {
                bracket[i + 1..]
                    .iter()
                    .any(|&y| self.within(WeakPlace::Default, x, y))
            })
        {
            // No two players of the bracket share a group: nothing to weigh.
            return 0;
        }
        super::fewest::least_total(
            bracket.len(),
            &|x, y| self.compatible.edge(bracket[x], bracket[y]),
            &|x, y| i64::from(self.within(WeakPlace::Default, bracket[x], bracket[y])),
        )
        .map_or(0, |c| c as usize)
    }

    /// SEP-5.1 placed first: the fewest pairs within a group at `WEAK_FIRST` among the
    /// legal pairings of `members` (0 for none, or without such a separation); `None`
    /// when `members` cannot be paired.
    pub(crate) fn fewest_first(&self, members: &[usize]) -> Option<usize> {
        if members.is_empty() {
            return Some(0);
        }
        if self.weak[WeakPlace::First as usize].is_none() {
            return self.pairable(members).then_some(0);
        }
        super::fewest::least_total(
            members.len(),
            &|x, y| self.compatible.edge(members[x], members[y]),
            &|x, y| i64::from(self.within(WeakPlace::First, members[x], members[y])),
        )
        .map(|c| c as usize)
    }

    /// SEP-5.1 placed first (DS-SEP.1): the round's fewest pairs within a group at
    /// `WEAK_FIRST` over every legal pairing of the match, the PAB ([C2]) included: a
    /// least-cost perfect matching of the field and, with an odd number, one more vertex
    /// (the PAB) that every player [C2] allows may meet at no cost. `None`: no legal
    /// pairing.
    pub(crate) fn round_fewest_first(&self) -> Option<usize> {
        let n = self.len();
        let all: Vec<usize> = (0..n).collect();
        if n.is_multiple_of(2) {
            return self.fewest_first(&all);
        }
        let allowed = |x: usize, y: usize| {
            if y == n {
                !self.pab_barred[x]
            } else if x == n {
                !self.pab_barred[y]
            } else {
                self.compatible.edge(x, y)
            }
        };
        let cost =
            |x: usize, y: usize| i64::from(x < n && y < n && self.within(WeakPlace::First, x, y));
        super::fewest::least_total(n + 1, &allowed, &cost).map(|c| c as usize)
    }

    fn pairable(&self, members: &[usize]) -> bool {
        has_perfect_matching(members.len(), |a, b| {
            self.compatible.edge(members[a], members[b])
        })
    }

    fn unpairable_count(&self, members: &[usize]) -> usize {
        members.len()
            - 2 * maximum_matching_size(members.len(), |a, b| {
                self.compatible.edge(members[a], members[b])
            })
    }
}

/// Pairs the match.
pub fn pair_match(f: &Field) -> Result<Outcome, Failure> {
    let n = f.len();
    let mut notes = Vec::new();
    let mut remaining: Vec<usize> = (0..n).collect();
    let mut pab = None;
    // SEP-5.1 placed first (DS-SEP.1): the round's fewest pairs within a group, kept
    // reachable by the PAB and by every bracket as [C3] keeps the rest pairable.
    let first_target = if f.weak[WeakPlace::First as usize].is_some() {
        let Some(fewest) = f.round_fewest_first() else {
            return Err(Failure {
                rule: "C.04.5 C1",
                message: "the players cannot all be paired without a rematch".to_string(),
            });
        };
        notes.push(Note {
            rule: "SEP-5",
            message: format!(
                "weak separation placed first: the round's fewest pairs within a group over every legal pairing is {fewest}; the PAB and every bracket keep it reachable, before [C4]"
            ),
            players: Vec::new(),
        });
        Some(fewest)
    } else {
        None
    };
    if n % 2 == 1 {
        // C.04.5 3.4: the PAB goes to the player who (3.4.1) leaves a legal pairing, with
        // (3.4.2) the lowest score, (3.4.3) the most matches played, (3.4.4) the largest TPN.
        let mut candidates: Vec<usize> = (0..n).filter(|&p| !f.pab_barred[p]).collect();
        candidates.sort_by(|&a, &b| {
            f.score[a]
                .cmp(&f.score[b])
                .then(f.matches_played[b].cmp(&f.matches_played[a]))
                .then(f.tpn[b].cmp(&f.tpn[a]))
        });
        let chosen = candidates.into_iter().find(|&p| {
            let rest: Vec<usize> = (0..n).filter(|&q| q != p).collect();
            match first_target {
                None => f.pairable(&rest),
                Some(target) => f.fewest_first(&rest) == Some(target),
            }
        });
        let Some(p) = chosen else {
            return Err(Failure {
                rule: "C.04.5 3.4",
                message: "no player may receive the pairing-allocated bye ([C2]) and leave the others a legal pairing ([C1])".to_string(),
            });
        };
        notes.push(Note {
            rule: "C.04.5 3.4",
            message: format!(
                "pairing-allocated bye: the lowest score ({}) with the most matches played, then the largest TPN, among those [C2] allows and whose bye leaves a legal pairing",
                f.score[p]
            ),
            players: vec![p],
        });
        pab = Some(p);
        remaining.retain(|&q| q != p);
    } else if !f.pairable(&remaining) {
        return Err(Failure {
            rule: "C.04.5 C1",
            message: "the players cannot all be paired without a rematch".to_string(),
        });
    }
    let mut pairs = Vec::new();
    while !remaining.is_empty() {
        // The top scoregroup: the residents of the bracket (1.3).
        let top = remaining
            .iter()
            .map(|&p| f.score[p])
            .max()
            .unwrap_or(Score::ZERO);
        let residents: Vec<usize> = remaining
            .iter()
            .copied()
            .filter(|&p| f.score[p] == top)
            .collect();
        let lower: Vec<usize> = remaining
            .iter()
            .copied()
            .filter(|&p| f.score[p] != top)
            .collect();
        let target = match first_target {
            Some(_) => f.fewest_first(&remaining),
            None => None,
        };
        let (ups, note) = select_upfloaters(f, &residents, &lower, target)?;
        notes.push(note);
        let mut bracket = residents.clone();
        bracket.extend(ups.iter().copied());
        bracket.sort_by_key(|&p| f.tpn[p]);
        let (bracket_pairs, c8) = pair_bracket(f, &bracket, &ups).ok_or_else(|| Failure {
            rule: "C.04.5 3.6",
            message: format!("the bracket of score {top} has no legal pairing"),
        })?;
        notes.push(Note {
            rule: "C.04.5 3.6",
            message: format!(
                "bracket of score {top} ({} players, {} upfloater(s)): the first pairing in the lexicographic order of the Pairing Identifiers{}",
                bracket.len(),
                ups.len(),
                if f.last_match || ups.is_empty() {
                    String::new()
                } else {
                    format!(" among those with the fewest upfloaters meeting a previous floater ([C8]: {c8})")
                }
            ),
            players: bracket.clone(),
        });
        pairs.extend(bracket_pairs);
        remaining.retain(|p| !bracket.contains(p));
    }
    Ok(Outcome { pab, pairs, notes })
}

/// C.04.5 3.5: the set of upfloaters for the bracket of `residents`, chosen among the sets
/// that leave the bracket and the rest legally pairable ([C1], [C3]), minimising
/// lexicographically [C4] (their number), [C5] (their scores, taken in descending order,
/// as high as possible), [C6] and [C7] (reading X2); among equals the first in the order of
/// 3.5.3-3.5.4 (the set sorted by score, then TPN; the sets by their TPNs).
fn select_upfloaters(
    f: &Field,
    residents: &[usize],
    lower: &[usize],
    first_target: Option<usize>,
) -> Result<(Vec<usize>, Note), Failure> {
    // The lower players by level: score descending, TPN ascending within a level (3.5.3).
    let mut levels: Vec<(Score, Vec<usize>)> = Vec::new();
    let mut sorted = lower.to_vec();
    sorted.sort_by(|&a, &b| f.score[b].cmp(&f.score[a]).then(f.tpn[a].cmp(&f.tpn[b])));
    for p in sorted {
        match levels.last_mut() {
            Some((s, members)) if *s == f.score[p] => members.push(p),
            _ => levels.push((f.score[p], vec![p])),
        }
    }
    // [C6]'s following scoregroup (reading X7): the score level right below the bracket's
    // among all the players of the match, the PAB player and earlier upfloaters included.
    let top = residents.first().map_or(Score::ZERO, |&p| f.score[p]);
    let following = following(f, top);
    let mut budget = SET_BUDGET;
    let mut m = residents.len() % 2;
    while m <= lower.len() {
        // [C5]: the profiles (how many upfloaters from each level), best first.
        for profile in profiles(&levels, m, budget.max(1)) {
            let mut best: Option<BestSet> = None;
            let mut exhausted = false;
            // The lower bound of ([C6], SEP-5, [C7]) for this profile: the following scoregroup
            // is the same level with the same size for every set of the profile.
            let bound = c6_bound(&levels, &profile, following);
            for_each_set(&levels, &profile, &mut |set: &[usize]| {
                if budget == 0 {
                    exhausted = true;
                    return false;
                }
                budget -= 1;
                let mut bracket = residents.to_vec();
                bracket.extend_from_slice(set);
                if !f.pairable(&bracket) {
                    return true;
                }
                let rest: Vec<usize> = lower.iter().copied().filter(|p| !set.contains(p)).collect();
                if !f.pairable(&rest) {
                    return true; // [C3]: the rest must still be pairable
                }
                // SEP-5.1 placed first (DS-SEP.1): the bracket and the rest can still make
                // the round's fewest pairs within a group, as [C3] keeps the rest pairable.
                if let Some(target) = first_target {
                    let reach = f
                        .fewest_first(&bracket)
                        .zip(f.fewest_first(&rest))
                        .map(|(a, b)| a + b);
                    if reach != Some(target) {
                        return true;
                    }
                }
                let c6 = c6_value(f, following, &rest);
                let c7 = if f.last_match {
                    0
                } else {
                    set.iter().filter(|&&p| f.floated[p]).count()
                };
                // SEP-5 at its default place: after [C6], before [C7] (the fewest pairs
                // within a group the bracket with this set can make).
                let sep = f.fewest_within(&bracket);
                // A lapsed [C6] is no criterion: it counts as nothing to minimise. Every
                // set of one profile takes as many players from the following scoregroup,
                // so either all of them empty it or none does.
                let value = (c6.unwrap_or(0), sep, c7);
                if best
                    .as_ref()
                    .is_none_or(|((b6, bs, b7), _)| value < (b6.unwrap_or(0), *bs, *b7))
                {
                    best = Some(((c6, sep, c7), set.to_vec()));
                }
                value > bound
            });
            if let Some(((c6, sep, c7), set)) = best {
                let c6 = match c6 {
                    Some(c6) => c6.to_string(),
                    None => "lapses (the following scoregroup is empty)".to_string(),
                };
                let note = Note {
                    rule: "C.04.5 3.5",
                    message: format!(
                        "{} upfloater(s) for the bracket of score {} ([C4]), scores {} ([C5]); [C6] {c6}{}, [C7] {c7}{}",
                        set.len(),
                        top,
                        if set.is_empty() {
                            "-".to_string()
                        } else {
                            set.iter()
                                .map(|&p| f.score[p].to_string())
                                .collect::<Vec<_>>()
                                .join(", ")
                        },
                        if f.weak[WeakPlace::Default as usize].is_some() {
                            format!(", SEP-5 {sep} pair(s) within a group at the fewest")
                        } else {
                            String::new()
                        },
                        if exhausted {
                            "; the search stopped after its budget of sets, keeping the best found"
                        } else {
                            ""
                        }
                    ),
                    players: set.clone(),
                };
                return Ok((set, note));
            }
            if exhausted {
                break;
            }
        }
        if budget == 0 {
            // The guard stopped the search before any legal set: everyone left joins the
            // bracket, which is legal since the rest was pairable ([C3]), and said so.
            let note = Note {
                rule: "C.04.5 3.5",
                message: format!(
                    "the search for upfloaters stopped after its budget of {SET_BUDGET} sets without a legal one: the bracket of {} resident(s) takes everyone left ({})",
                    residents.len(),
                    lower.len()
                ),
                players: lower.to_vec(),
            };
            return Ok((lower.to_vec(), note));
        }
        m += 2;
    }
    Err(Failure {
        rule: "C.04.5 3.5",
        message: format!(
            "no set of upfloaters makes the bracket of {} resident(s) and the rest legally pairable",
            residents.len()
        ),
    })
}

/// [C6] (reading X7, C.04.6 2.3.3): the following scoregroup is the score level right
/// below the bracket's among the players of the match (`following`, the PAB player
/// included), and only that one. If none of its players is left to pair (all became or
/// are upfloaters, or had the PAB), [C6] lapses (`None`): it does not move on to the next
/// level that still has players. Otherwise it counts the fewest of the players left in it
/// that cannot be paired among themselves (and so must be paired below it).
pub(crate) fn c6_value(f: &Field, following: Option<Score>, rest: &[usize]) -> Option<usize> {
    let next = following?;
    let group: Vec<usize> = rest
        .iter()
        .copied()
        .filter(|&p| f.score[p] == next)
        .collect();
    if group.is_empty() {
        return None;
    }
    Some(f.unpairable_count(&group))
}

/// [C6]'s following scoregroup for the bracket of score `top` (reading X7): the score
/// level right below it among all the players of the match.
pub(crate) fn following(f: &Field, top: Score) -> Option<Score> {
    (0..f.len()).map(|p| f.score[p]).filter(|&s| s < top).max()
}

/// The smallest ([C6], SEP-5, [C7]) any set of the profile could reach: [C6] is at least
/// the parity of what is left of the following scoregroup (0 when it is empty and [C6]
/// lapses), SEP-5 and [C7] at least 0.
fn c6_bound(
    levels: &[(Score, Vec<usize>)],
    profile: &[usize],
    following: Option<Score>,
) -> (usize, usize, usize) {
    let Some(i) = levels.iter().position(|(s, _)| Some(*s) == following) else {
        return (0, 0, 0);
    };
    let left = levels[i].1.len() - profile.get(i).copied().unwrap_or(0);
    (left % 2, 0, 0)
}

/// The ways to take `m` upfloaters from the levels, best first for [C5]: as many as
/// possible from the highest level, then from the next, and so on.
fn profiles(levels: &[(Score, Vec<usize>)], m: usize, limit: usize) -> Vec<Vec<usize>> {
    fn rec(
        levels: &[(Score, Vec<usize>)],
        i: usize,
        m: usize,
        cur: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
        limit: usize,
    ) {
        if out.len() >= limit {
            return;
        }
        if m == 0 {
            let mut p = cur.clone();
            p.resize(levels.len(), 0);
            out.push(p);
            return;
        }
        if i == levels.len() {
            return;
        }
        let most = m.min(levels[i].1.len());
        for take in (0..=most).rev() {
            cur.push(take);
            rec(levels, i + 1, m - take, cur, out, limit);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    rec(levels, 0, m, &mut Vec::new(), &mut out, limit);
    out
}

/// Calls `visit` on every set of the profile in the order of 3.5.4 (level by level, the
/// combinations of each level in lexicographic TPN order) until it returns false.
fn for_each_set(
    levels: &[(Score, Vec<usize>)],
    profile: &[usize],
    visit: &mut dyn FnMut(&[usize]) -> bool,
) {
    fn rec(
        levels: &[(Score, Vec<usize>)],
        profile: &[usize],
        level: usize,
        start: usize,
        cur: &mut Vec<usize>,
        visit: &mut dyn FnMut(&[usize]) -> bool,
    ) -> bool {
        let Some(&want) = profile.get(level) else {
            return visit(cur);
        };
        let members = &levels[level].1;
        let taken = cur.len() - profile[..level].iter().sum::<usize>();
        if taken == want {
            return rec(levels, profile, level + 1, 0, cur, visit);
        }
        for i in start..members.len() {
            if members.len() - i < want - taken {
                break;
            }
            cur.push(members[i]);
            let go_on = rec(levels, profile, level, i + 1, cur, visit);
            cur.pop();
            if !go_on {
                return false;
            }
        }
        true
    }
    rec(levels, profile, 0, 0, &mut Vec::new(), visit);
}

/// C.04.5 3.6: the bracket's first pairing in the order of its Pairing Identifiers among
/// those with the fewest [C8] (each upfloater whose opponent was a floater in the previous
/// match, reading X10; not in the last match, X9). With weak separations (SEP-5) the
/// fewest pairs within a group come before [C8] (default place) or after it (placed last),
/// both before the identifiers. Returns the pairs (players) and the bracket's [C8].
fn pair_bracket(
    f: &Field,
    bracket: &[usize],
    ups: &[usize],
) -> Option<(Vec<(usize, usize)>, usize)> {
    let b = bracket.len();
    let is_up: Vec<bool> = bracket.iter().map(|p| ups.contains(p)).collect();
    let floated: Vec<bool> = bracket.iter().map(|&p| f.floated[p]).collect();
    let compatible = |x: usize, y: usize| f.compatible.edge(bracket[x], bracket[y]);
    // Upfloaters that could count for [C8]: those with a compatible previous floater.
    let candidates: Vec<usize> = if f.last_match {
        Vec::new()
    } else {
        (0..b)
            .filter(|&u| is_up[u] && (0..b).any(|v| v != u && floated[v] && compatible(u, v)))
            .collect()
    };
    let to_players = |pairs: Vec<(usize, usize)>| -> Vec<(usize, usize)> {
        pairs
            .into_iter()
            .map(|(x, y)| (bracket[x], bracket[y]))
            .collect()
    };
    let within = |place: WeakPlace, x: usize, y: usize| f.within(place, bracket[x], bracket[y]);
    let weak_here = |place: WeakPlace| {
        f.weak[place as usize].is_some() && (0..b).any(|x| (x + 1..b).any(|y| within(place, x, y)))
    };
    let (sep_first, sep_default, sep_last) = (
        weak_here(WeakPlace::First),
        weak_here(WeakPlace::Default),
        weak_here(WeakPlace::Last),
    );
    if candidates.is_empty() && !sep_first && !sep_default && !sep_last {
        return first_pairing(b, &compatible).map(|p| (to_players(p), 0));
    }
    // The fewest [C8], then the first identifier among the pairings with that many: a
    // pair costs one for each of its upfloaters meeting a previous floater (`fewest.rs`).
    let c8 = |x: usize, y: usize| -> i64 {
        i64::from(is_up[x] && floated[y]) + i64::from(is_up[y] && floated[x])
    };
    if !sep_first && !sep_default && !sep_last {
        return super::fewest::first_least_cost(b, &compatible, &c8)
            .map(|(p, c)| (to_players(p), c));
    }
    // SEP-5: one cost of three digits, most significant first: pairs within a group at the
    // default place, [C8], pairs within a group placed last. A bracket's total of a digit
    // stays below its base (at most b/2 pairs, [C8] at most b), so the least total is
    // the least in that order.
    // Placed first (DS-SEP.1), one more digit above them all: the bracket's fewest pairs
    // within a group at `WEAK_FIRST`, which the upfloaters were chosen to keep reachable.
    let last_base = b as i64 / 2 + 1;
    let c8_base = (b as i64 + 1) * last_base;
    let first_base = (b as i64 / 2 + 1) * c8_base;
    let cost = |x: usize, y: usize| -> i64 {
        i64::from(within(WeakPlace::First, x, y)) * first_base
            + i64::from(within(WeakPlace::Default, x, y)) * c8_base
            + c8(x, y) * last_base
            + i64::from(within(WeakPlace::Last, x, y))
    };
    super::fewest::first_least_cost(b, &compatible, &cost)
        .map(|(p, c)| (to_players(p), ((c as i64 % c8_base) / last_base) as usize))
}
