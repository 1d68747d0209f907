//! The Lim procedure for one round (C.04.4.3 art. 1-4): the PAB, the scoregroups in the
//! order of art. 2.2, the floaters of art. 2.3 and 3, the scrutiny and exchanges of art. 2.4
//! and 4, and the cracking of a blocked Median Scoregroup (art. 2.6).
//!
//! Every "is there still a way?" question of the text (art. 4.4: an exchange "must leave"
//! the others pairable; art. 3.10.2 and reading L9: a scoregroup keeps as many pairings as
//! it can have) is answered exactly by maximum-cardinality matching (`crate::matching`):
//! Lim has no criteria to weigh, only reachability.
use std::cmp::{Ordering, Reverse};
use std::collections::BTreeMap;

use super::players::Field;
use crate::matching::{BitGraph, Matcher, has_perfect_matching, maximum_matching, uncoverable};
use crate::model::{Colour, Score, WeakPlace};
use crate::systems::Explanation;

const DOC: &str = "C.04.4.3";

/// The direction a scoregroup is paired in (art. 2.2). Every upward rule mirrors a downward
/// one (reading L10), so the procedure is written once and the direction orders players:
/// downward the first is the highest numbered (#1, art. 4.2), upward the lowest numbered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Down,
    Up,
}

impl Direction {
    fn word(self) -> &'static str {
        match self {
            Direction::Down => "downward",
            Direction::Up => "upward",
        }
    }

    fn mirrored(self) -> Direction {
        match self {
            Direction::Down => Direction::Up,
            Direction::Up => Direction::Down,
        }
    }

    /// Pairing numbers in the direction's order (entrants are indexed by pairing number).
    fn by_number(self, a: usize, b: usize) -> Ordering {
        match self {
            Direction::Down => a.cmp(&b),
            Direction::Up => b.cmp(&a),
        }
    }

    /// Art. 3.6, 3.7 (reading L7): players from ahead first, the higher (downward) or lower
    /// (upward) score first, then by pairing number in the direction's order.
    fn by_score_then_number(self, f: &Field, a: usize, b: usize) -> Ordering {
        let (sa, sb) = (f.entrants[a].score, f.entrants[b].score);
        let by_score = match self {
            Direction::Down => sb.cmp(&sa),
            Direction::Up => sa.cmp(&sb),
        };
        by_score.then(self.by_number(a, b))
    }
}

/// Art. 3.9.1: a floater's type, in descending order of disadvantage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FloaterType {
    /// Already a floater into this scoregroup, no compatible opponent in the next one.
    A,
    /// Already a floater, with a compatible opponent in the next one.
    B,
    /// A resident without a compatible opponent in the next one.
    C,
    /// A resident with a compatible opponent in the next one.
    D,
}

/// How an opponent was chosen, for the explanation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// An incoming floater paired first (art. 3.6 downward, 3.7 upward).
    Floater(Direction),
    /// The tentative pairing of art. 2.4 stood.
    Proposal,
    /// An exchange of art. 4.2-4.4.
    Exchange,
    /// A later opponent taken for the colours due (art. 5.2).
    ColourExchange,
    /// A later opponent of the same colour standing taken for a weak separation placed
    /// last (SEP-5.1, LIM-SEP.2).
    Separated,
}

/// One pairing made, where, and how.
#[derive(Clone, Copy, Debug)]
pub struct Made {
    pub a: usize,
    pub b: usize,
    /// Made in the Median Scoregroup or above (art. 5.4).
    pub median_or_above: bool,
    pub choice: Choice,
}

/// The round's outcome.
pub struct Outcome {
    pub pairs: Vec<Made>,
    pub bye: Option<usize>,
}

/// Why a round could not be paired: the article and the message.
pub struct Blocked {
    pub rule: String,
    pub message: String,
    /// Not a property of the round: the matching engine refused a graph.
    pub internal: bool,
}

struct Procedure<'a> {
    f: &'a Field,
    ex: &'a mut Explanation,
    /// SEP-5.1 placed first (LIM-SEP.1), when two players of the round share a group
    /// placed first: the round's fewest such pairs and how far the procedure is.
    first: Option<RoundFirst>,
    /// A matching the engine refused while weighing LIM-SEP.1 (never at the sizes the
    /// limits allow): reported as an internal error at the end of the round.
    failure: Option<String>,
}

/// SEP-5.1 placed first (LIM-SEP.1): part of completion, as in every criterion-based
/// system. The round has the fewest pairs within a group that any legal pairing of the
/// whole round allows (art. 2.1 and 6's compatibility, the PAB to whoever art. 1.1 and
/// C.04.1 art. 4 allow); every choice of the procedure keeps that number reachable for
/// the players not yet paired, exactly as art. 4.4 keeps the rest of a scoregroup
/// pairable.
struct RoundFirst {
    /// The round's fewest pairs within a group placed first.
    target: usize,
    /// Such pairs made so far.
    made: usize,
    /// The entrants not yet paired (and not the PAB's).
    alive: Vec<bool>,
}

/// What a completion of the players not yet paired can reach when the members of a
/// scoregroup (`inside`) are paired among themselves as much as possible, in LIM-SEP.1's
/// order: the fewest pairs within a group placed first over the whole completion, then
/// the most pairs inside the scoregroup (art. 2.3), then the scoregroup's fewest pairs
/// within a group at `WEAK` and at `WEAK_LAST`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Plan {
    first: usize,
    inside: usize,
    default: usize,
    last: usize,
}

impl Plan {
    /// What rules a floater's choice above its type (LIM-SEP.1, art. 2.3, SEP-5).
    fn upper(self) -> (usize, usize, usize) {
        (self.first, self.inside, self.default)
    }
}

/// SEP-5.1: whether two entrants of the round share a group placed first.
fn weak_first_in_force(f: &Field) -> bool {
    let all: Vec<usize> = (0..f.len()).collect();
    f.weak_in_at(&all, WeakPlace::First)
}

/// SEP-5.1: the fewest pairs within a group placed first over the complete pairings of
/// the entrants `vs` (art. 2.1, 6), with one of them (one art. 1.1 may give it, `bye`)
/// left out for the PAB when `bye` is given: a vertex any of them may meet at no cost.
/// `None`: no complete pairing.
fn fewest_first(
    f: &Field,
    vs: &[usize],
    bye: Option<&dyn Fn(usize) -> bool>,
) -> Result<Option<usize>, String> {
    let n = vs.len() + usize::from(bye.is_some());
    crate::matching::weighted::fewest_marked_in_perfect_matching(n, |i, j| {
        let (i, j) = (i.min(j), i.max(j));
        if i == j {
            return None;
        }
        if j == vs.len() {
            return bye.is_some_and(|may| may(vs[i])).then_some(false);
        }
        f.compatible(vs[i], vs[j])
            .then(|| f.weak_first(vs[i], vs[j]))
    })
    .map_err(|e| format!("Lim, SEP-5.1: {e}"))
}

/// LIM-SEP.1: the best [`Plan`] of the entrants `vs` (the players not yet paired) with
/// `inside` marking a scoregroup's members among them; `None`: no complete pairing. One
/// maximum-weight matching whose weight has a digit per criterion (base `n + 2`, which
/// no matching's count reaches): a pair, then fewer pairs within a group placed first,
/// then more pairs inside, then fewer inside pairs within a group at `WEAK`, at
/// `WEAK_LAST`.
fn plan(f: &Field, vs: &[usize], inside: &[bool]) -> Result<Option<Plan>, String> {
    struct Weights<'a> {
        f: &'a Field,
        vs: &'a [usize],
        inside: &'a [bool],
        unit: i128,
    }
    impl Weights<'_> {
        fn cost(&self, i: usize, j: usize) -> Option<(bool, bool, bool, bool)> {
            if i == j {
                return None;
            }
            let (a, b) = (self.vs[i], self.vs[j]);
            if !self.f.compatible(a, b) {
                return None;
            }
            let inside = self.inside[i] && self.inside[j];
            Some((
                self.f.weak_first(a, b),
                inside,
                inside && self.f.weak_within(a, b),
                inside && self.f.weak_last(a, b),
            ))
        }
    }
    impl crate::matching::WeightSource<i128> for Weights<'_> {
        fn weight(&self, i: usize, j: usize) -> i128 {
            let Some((first, inside, default, last)) = self.cost(i, j) else {
                return 0;
            };
            let u = self.unit;
            u.pow(4) - i128::from(first) * u.pow(3) + i128::from(inside) * u * u
                - i128::from(default) * u
                - i128::from(last)
        }
    }
    let n = vs.len();
    if n % 2 == 1 {
        return Ok(None);
    }
    let weights = Weights {
        f,
        vs,
        inside,
        unit: n as i128 + 2,
    };
    let mut m = crate::matching::DynamicMatching::<i128>::new(n);
    m.solve(&weights)
        .map_err(|e| format!("Lim, SEP-5.1: {e}"))?;
    let mut out = Plan {
        first: 0,
        inside: 0,
        default: 0,
        last: 0,
    };
    for i in 0..n {
        let Some(j) = m.mate(i) else {
            return Ok(None);
        };
        if i < j
            && let Some((first, inside, default, last)) = weights.cost(i, j)
        {
            out.first += usize::from(first);
            out.inside += usize::from(inside);
            out.default += usize::from(default);
            out.last += usize::from(last);
        }
    }
    Ok(Some(out))
}

/// SEP-5: a scoregroup's pairings valued in the order Lim weighs them (LIM-SEP): the
/// most pairings (art. 3.10.2), then the fewest pairs within a group of a separation at
/// `WEAK_FIRST` (the scrutiny's: with the floaters chosen by LIM-SEP.1, the scoregroup's
/// fewest is its share of the round's), at `WEAK`, at `WEAK_LAST`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct WeakCount {
    pairs: usize,
    first: usize,
    default: usize,
    last: usize,
}

impl WeakCount {
    /// What rules a choice above the floaters' type and the scrutiny's colours.
    fn upper(self) -> (usize, usize, usize) {
        (self.pairs, self.first, self.default)
    }
}

/// SEP-5: the pair's count of pairs within a group at `WEAK_FIRST`, `WEAK`, `WEAK_LAST`.
fn weak_cost(f: &Field, a: usize, b: usize) -> (usize, usize, usize) {
    (
        usize::from(f.weak_first(a, b)),
        usize::from(f.weak_within(a, b)),
        usize::from(f.weak_last(a, b)),
    )
}

/// SEP-5: the best `WeakCount` of the pairings of the entrants `vs` over the pairs
/// `pairable` allows (a weighted matching: one more pair outweighs any number of pairs
/// within a group, one fewer at a higher place any number at the lower); `None` if the
/// matching engine refuses the graph (never at a scoregroup's sizes: the check is then
/// skipped).
fn fewest_within(
    f: &Field,
    vs: &[usize],
    pairable: &dyn Fn(usize, usize) -> bool,
) -> Option<WeakCount> {
    let n = vs.len();
    let unit = n as i64 + 2;
    let (last_w, default_w, first_w, pair_w) = (1, unit, unit * unit, unit * unit * unit);
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if pairable(vs[i], vs[j]) {
                let (first, default, last) = weak_cost(f, vs[i], vs[j]);
                let cost =
                    first_w * first as i64 + default_w * default as i64 + last_w * last as i64;
                edges.push((i, j, pair_w - cost));
            }
        }
    }
    let mate = crate::matching::max_weight_matching(n, &edges).ok()?;
    let mut count = WeakCount {
        pairs: 0,
        first: 0,
        default: 0,
        last: 0,
    };
    for (i, m) in mate.iter().enumerate() {
        if let Some(j) = *m
            && i < j
        {
            let (first, default, last) = weak_cost(f, vs[i], vs[j]);
            count.pairs += 1;
            count.first += first;
            count.default += default;
            count.last += last;
        }
    }
    Some(count)
}

/// SEP-5 placed last (LIM-SEP.2), as the floater's choice reads it: whether moving `p` out
/// of the side scoregroup `members` keeps its fewest pairs within a group at `WEAK_LAST`
/// (among its pairings best on the places above). Used by the "why not?" comparer.
pub(super) fn floater_keeps_last(f: &Field, members: &[usize], p: usize) -> bool {
    let pairable = |a: usize, b: usize| f.compatible(a, b);
    let Some(best) = fewest_within(f, members, &pairable) else {
        return true;
    };
    let rest: Vec<usize> = members.iter().copied().filter(|&q| q != p).collect();
    fewest_within(f, &rest, &pairable).is_none_or(|r| r.last == best.last)
}

fn name(f: &Field, i: usize, id: &dyn Fn(usize) -> String) -> String {
    id(f.entrants[i].player)
}

/// Pairs the round: the PAB first (art. 1.1, 7.1), then the scoregroups.
pub fn pair_round(
    f: &Field,
    ex: &mut Explanation,
    id: &dyn Fn(usize) -> String,
) -> Result<Outcome, Blocked> {
    let all: Vec<usize> = (0..f.len()).collect();
    let mut p = Procedure {
        f,
        ex,
        first: None,
        failure: None,
    };
    // SEP-5.1 placed first (LIM-SEP.1): the round's fewest pairs within a group over
    // every legal pairing, the PAB a vertex anyone art. 1.1 allows may meet. No complete
    // pairing: the checks below say so.
    if weak_first_in_force(f) {
        let may_have_bye = |i: usize| f.entrants[i].bye_eligible;
        let bye: Option<&dyn Fn(usize) -> bool> = (f.len() % 2 == 1).then_some(&may_have_bye);
        let target = fewest_first(f, &all, bye).map_err(internal)?;
        if let Some(target) = target {
            p.ex.step(
                "SEP-5.1",
                format!(
                    "a weak separation placed first: the round's fewest pairs within a group over every legal pairing is {target}; the PAB, each scoregroup's floaters and each pair keep it reachable (LIM-SEP.1)"
                ),
                Vec::new(),
            );
            p.first = Some(RoundFirst {
                target,
                made: 0,
                alive: vec![true; f.len()],
            });
        }
    }
    let bye = if f.len() % 2 == 1 {
        Some(p.bye(&all, id)?)
    } else {
        if !has_perfect_matching(f.len(), |a, b| f.compatible(a, b)) {
            return Err(Blocked {
                rule: format!("{DOC} art. 2.1"),
                message: "no pairing of every player with a compatible opponent exists".to_string(),
                internal: false,
            });
        }
        None
    };
    if let (Some(b), Some(first)) = (bye, p.first.as_mut()) {
        first.alive[b] = false;
    }
    let players: Vec<usize> = all.into_iter().filter(|&i| Some(i) != bye).collect();
    let pairs = p.scoregroups(&players, id);
    if let Some(message) = p.failure {
        return Err(internal(message));
    }
    Ok(Outcome { pairs, bye })
}

/// A matching the engine refused (`Blocked::internal`).
fn internal(message: String) -> Blocked {
    Blocked {
        rule: "SEP-5.1".to_string(),
        message,
        internal: true,
    }
}

impl Procedure<'_> {
    /// Art. 1.1 (reading L1): the lowest ranked player of the lowest scoregroup, among those
    /// C.04.1 art. 4 allows, whose removal leaves a complete pairing; in round 1, art. 7.1:
    /// the lowest rated (reading L2: on equal ratings the higher pairing number).
    fn bye(&mut self, all: &[usize], id: &dyn Fn(usize) -> String) -> Result<usize, Blocked> {
        let f = self.f;
        let adj = |a: usize, b: usize| f.compatible(a, b);
        let mate = maximum_matching(f.len(), adj);
        let coverable = mate.iter().flatten().count() == f.len() - 1;
        let free = uncoverable(f.len(), &adj, &mate);
        let first_round = f.rounds_played == 0;
        let mut order: Vec<usize> = all.to_vec();
        if first_round {
            order.sort_by_key(|&i| (f.entrants[i].rating, Reverse(i)));
        } else {
            order.sort_by_key(|&i| (f.entrants[i].score, Reverse(i)));
        }
        let rule = if first_round {
            format!("{DOC} art. 7.1")
        } else {
            format!("{DOC} art. 1.1")
        };
        let allowed = |i: usize| coverable && f.entrants[i].bye_eligible && free[i];
        let plain = order.iter().copied().find(|&i| allowed(i));
        // LIM-SEP.1: the first in that order whose absence also keeps the round's fewest
        // pairs within a group placed first reachable.
        let chosen = match &self.first {
            None => plain,
            Some(first) => {
                let mut found = None;
                for &i in order.iter().filter(|&&i| allowed(i)) {
                    let rest: Vec<usize> = all.iter().copied().filter(|&x| x != i).collect();
                    if fewest_first(f, &rest, None).map_err(internal)? == Some(first.target) {
                        found = Some(i);
                        break;
                    }
                }
                found
            }
        };
        match chosen {
            Some(i) => {
                let e = &f.entrants[i];
                let why = if first_round {
                    format!("rated {}, the lowest rated", e.rating)
                } else {
                    format!(
                        "{} points, the lowest ranked of the lowest scoregroup",
                        e.score
                    )
                };
                let separated = if plain == Some(i) {
                    ""
                } else {
                    " and the round's fewest pairs within a group, SEP-5.1 (LIM-SEP.1)"
                };
                self.ex.step(
                    &rule,
                    format!(
                        "{} gets the pairing-allocated bye ({why} who may have it, C.04.1 art. 4, and leaves a complete pairing{separated})",
                        name(f, i, id)
                    ),
                    vec![e.player],
                );
                Ok(i)
            }
            None => Err(Blocked {
                rule,
                message: "no player may get the pairing-allocated bye and leave the others a complete pairing".to_string(),
                internal: false,
            }),
        }
    }

    /// Art. 2.2: from the top down to just above the Median Scoregroup, from the bottom up
    /// to just below it, the Median Scoregroup last and downward.
    fn scoregroups(&mut self, players: &[usize], id: &dyn Fn(usize) -> String) -> Vec<Made> {
        let f = self.f;
        let groups = scoregroups(f, players);
        self.ex.detail(
            &format!("{DOC} art. 2.2"),
            format!(
                "{} players in {} scoregroup(s); the Median Scoregroup has {} points{}",
                players.len(),
                groups.len(),
                f.median,
                if f.last_round {
                    "; last round: players of the same score are compatible whatever their colours (art. 6)"
                } else {
                    ""
                }
            ),
            Vec::new(),
        );
        let (higher, lower) = sides(&groups, f.median);
        let mut higher_made = Vec::new();
        let mut lower_made = Vec::new();
        let down = self.side(&higher, Direction::Down, &groups, &mut higher_made, id);
        let up = self.side(&lower, Direction::Up, &groups, &mut lower_made, id);
        let residents = groups.get(&f.median).cloned().unwrap_or_default();
        let median = self.median(&residents, down, up, &mut higher_made, &mut lower_made, id);
        let mut out = higher_made;
        out.extend(lower_made);
        out.extend(median);
        out
    }

    /// One side of the median, in the order of art. 2.2; returns the floaters it hands on to
    /// the Median Scoregroup (art. 3.2.1: floaters move towards the median).
    fn side(
        &mut self,
        scores: &[Score],
        dir: Direction,
        groups: &BTreeMap<Score, Vec<usize>>,
        made: &mut Vec<Made>,
        id: &dyn Fn(usize) -> String,
    ) -> Vec<usize> {
        let f = self.f;
        let mut incoming: Vec<(usize, bool)> = Vec::new();
        for (k, score) in scores.iter().enumerate() {
            let residents = groups.get(score).cloned().unwrap_or_default();
            let next = scores.get(k + 1).copied().unwrap_or(f.median);
            let adjacent = groups.get(&next).cloned().unwrap_or_default();
            self.ex
                .group(format!("scoregroup {score} ({})", dir.word()));
            let (pairs, floaters) = self.group(&residents, &incoming, &adjacent, dir, id);
            made.extend(pairs.into_iter().map(|(a, b, choice)| Made {
                a,
                b,
                median_or_above: dir == Direction::Down,
                choice,
            }));
            incoming = floaters.into_iter().map(|p| (p, true)).collect();
        }
        incoming.into_iter().map(|(p, _)| p).collect()
    }

    /// Art. 2.2, 2.6: the Median Scoregroup, its downfloaters and its upfloaters. While it
    /// cannot be paired completely, the most recent pairing of one side is cracked and both
    /// players join it (reading L6): of the lower side when more floaters came from above
    /// (art. 2.6.1), else of the higher side (art. 2.6.2); of the other side when that one has
    /// no pairing left.
    fn median(
        &mut self,
        residents: &[usize],
        mut from_above: Vec<usize>,
        mut from_below: Vec<usize>,
        higher: &mut Vec<Made>,
        lower: &mut Vec<Made>,
        id: &dyn Fn(usize) -> String,
    ) -> Vec<Made> {
        let f = self.f;
        self.ex
            .group(format!("Median Scoregroup {} (downward)", f.median));
        loop {
            crate::cancel::checkpoint();
            let mut members: Vec<usize> = residents.to_vec();
            members.extend(&from_above);
            members.extend(&from_below);
            if has_perfect_matching(members.len(), |a, b| f.compatible(members[a], members[b])) {
                break;
            }
            let crack_lower =
                (from_above.len() > from_below.len() && !lower.is_empty()) || higher.is_empty();
            let (side, article, word) = if crack_lower {
                (&mut *lower, "2.6.1", "lower")
            } else {
                (&mut *higher, "2.6.2", "higher")
            };
            let Some(m) = side.pop() else {
                // Unreachable: with every pairing cracked the median holds everyone, and the
                // whole field pairs completely (checked first).
                break;
            };
            self.ex.step(
                &format!("{DOC} art. {article}"),
                format!(
                    "the Median Scoregroup cannot be paired completely: the last pairing of the {word} side, {} - {}, is cracked and both join it",
                    name(f, m.a, id),
                    name(f, m.b, id)
                ),
                vec![f.entrants[m.a].player, f.entrants[m.b].player],
            );
            if crack_lower {
                from_below.extend([m.a, m.b]);
            } else {
                from_above.extend([m.a, m.b]);
            }
        }
        let mut incoming: Vec<(usize, bool)> = from_above.iter().map(|&p| (p, true)).collect();
        incoming.extend(from_below.iter().map(|&p| (p, false)));
        let (pairs, _) = self.group(residents, &incoming, &[], Direction::Down, id);
        pairs
            .into_iter()
            .map(|(a, b, choice)| Made {
                a,
                b,
                median_or_above: true,
                choice,
            })
            .collect()
    }

    /// Pairs one scoregroup (art. 2.3-2.5): its residents and the floaters transferred into
    /// it (`true` = from the side its pairing started at). Returns the pairs made and the
    /// players who float on to the next scoregroup (`adjacent` holds its residents).
    #[allow(clippy::type_complexity)]
    fn group(
        &mut self,
        residents: &[usize],
        incoming: &[(usize, bool)],
        adjacent: &[usize],
        dir: Direction,
        id: &dyn Fn(usize) -> String,
    ) -> (Vec<(usize, usize, Choice)>, Vec<usize>) {
        let f = self.f;
        let mut members: Vec<usize> = incoming.iter().map(|&(p, _)| p).collect();
        members.extend(residents);
        let is_incoming = |p: usize| incoming.iter().any(|&(q, _)| q == p);
        let pairable = move |a: usize, b: usize| f.compatible(a, b);
        let mate = maximum_matching(members.len(), |a, b| pairable(members[a], members[b]));
        let most = mate.iter().flatten().count() / 2;
        // SEP-5.1 placed first (LIM-SEP.1): the most pairings the scoregroup can have
        // while the players not yet paired can still be paired completely with the
        // round's fewest pairs within a group (as art. 4.4 keeps the rest pairable); the
        // others float.
        let pairings = match self.plan_of(&members) {
            Some(plan) => plan.inside,
            None => most,
        };
        self.ex.detail(
            &format!("{DOC} art. 2.3"),
            format!(
                "{} resident(s) and {} incoming floater(s): {} pairing(s) at most",
                residents.len(),
                incoming.len(),
                most
            ),
            members.iter().map(|&i| f.entrants[i].player).collect(),
        );
        if pairings < most {
            let target = self.first.as_ref().map_or(0, |r| r.target);
            self.ex.step(
                "SEP-5.1",
                format!(
                    "{pairings} pairing(s) keep the round's fewest pairs within a group ({target}) reachable for the players not yet paired; {} player(s) more float (LIM-SEP.1)",
                    2 * (most - pairings)
                ),
                members.iter().map(|&i| f.entrants[i].player).collect(),
            );
        }
        // Art. 2.3, 3 (reading L9, L12): as many floaters as a maximum matching leaves over,
        // chosen one at a time among the players whose transfer keeps that many pairings.
        let mut staying = members.clone();
        let mut floaters: Vec<usize> = Vec::new();
        while staying.len() > 2 * pairings {
            crate::cancel::checkpoint();
            let Some((k, kind, reason)) =
                self.choose_floater(&staying, &floaters, adjacent, dir, &is_incoming, &pairable)
            else {
                break;
            };
            let p = staying.remove(k);
            let article = if reason.starts_with("art. 2.3") {
                "2.3"
            } else {
                "3.9.2"
            };
            self.ex.step(
                &format!("{DOC} art. {article}"),
                format!(
                    "{} floats {} (type {}{}{})",
                    name(f, p, id),
                    match dir {
                        Direction::Down => "down",
                        Direction::Up => "up",
                    },
                    match kind {
                        FloaterType::A => "a",
                        FloaterType::B => "b",
                        FloaterType::C => "c",
                        FloaterType::D => "d",
                    },
                    "; ",
                    reason
                ),
                vec![f.entrants[p].player],
            );
            floaters.push(p);
        }
        // Art. 3.6, 3.7: incoming floaters are paired first, those from ahead first.
        let mut order: Vec<(usize, bool)> = incoming
            .iter()
            .copied()
            .filter(|&(p, _)| staying.contains(&p))
            .collect();
        order.sort_by(|&(a, ahead_a), &(b, ahead_b)| {
            ahead_b.cmp(&ahead_a).then_with(|| {
                if ahead_a {
                    dir.by_score_then_number(f, a, b)
                } else {
                    dir.mirrored().by_score_then_number(f, a, b)
                }
            })
        });
        let pairs = self.scrutiny(&staying, &order, dir, &pairable, id);
        // LIM-SEP.1: the scoregroup's pairs are made.
        if let Some(first) = self.first.as_mut() {
            for &(a, b, _) in &pairs {
                first.made += usize::from(f.weak_first(a, b));
                first.alive[a] = false;
                first.alive[b] = false;
            }
        }
        (pairs, floaters)
    }

    /// LIM-SEP.1: the best [`Plan`] of the players not yet paired with `members` paired
    /// among themselves as much as possible, if it keeps the round's fewest pairs within
    /// a group placed first; `None` when `WEAK_FIRST` is not in force, or no completion
    /// keeps that number (then the procedure's own conditions decide).
    fn plan_of(&mut self, members: &[usize]) -> Option<Plan> {
        let first = self.first.as_ref()?;
        let f = self.f;
        let vs: Vec<usize> = (0..f.len()).filter(|&i| first.alive[i]).collect();
        let inside: Vec<bool> = vs.iter().map(|v| members.contains(v)).collect();
        match plan(f, &vs, &inside) {
            Ok(Some(p)) if first.made + p.first == first.target => Some(p),
            Ok(_) => None,
            Err(e) => {
                self.failure.get_or_insert(e);
                None
            }
        }
    }

    /// The next floater of a scoregroup (art. 3, reading L12): the first, in the order below,
    /// whose transfer keeps the scoregroup's most pairings (art. 3.10.2):
    /// avoid type a, then b, then c (art. 3.9.2); avoid a player who floated in the previous
    /// round (art. 3.10); prefer a player due the colour more players are due, which tends
    /// to equalise them (art. 3.2.2; in a Maxi-tournament only within 100 points of the
    /// lowest numbered, art. 3.2.3); then the lowest numbered downward, the highest numbered
    /// upward (art. 3.2.4, 3.3). Returns its index in `staying`, its type, and the reason of
    /// art. 2.3.1-2.3.3 when it has no opponent at all.
    fn choose_floater(
        &mut self,
        staying: &[usize],
        chosen: &[usize],
        adjacent: &[usize],
        dir: Direction,
        is_incoming: &dyn Fn(usize) -> bool,
        pairable: &dyn Fn(usize, usize) -> bool,
    ) -> Option<(usize, FloaterType, String)> {
        let f = self.f;
        let n = staying.len();
        let adj = |a: usize, b: usize| pairable(staying[a], staying[b]);
        let mate = maximum_matching(n, adj);
        let mut free = uncoverable(n, &adj, &mate);
        // SEP-5 (after art. 2.3 / 3.10.2, before the floater's type): only a player whose
        // transfer also keeps the scoregroup's fewest pairs within a weak group can float.
        // `WEAK_LAST` (LIM-SEP.2): among the floaters the type, art. 3.10 and art. 3.2.2
        // leave tied, one whose transfer keeps the fewest at that place, before the number.
        let mut keeps_last = vec![true; n];
        let without = |k: usize| -> Vec<usize> {
            staying
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, &p)| p)
                .collect()
        };
        // SEP-5.1 placed first (LIM-SEP.1), above all of these: only a player whose
        // transfer keeps the scoregroup's pairings (as many as the round's fewest pairs
        // within a group allows, art. 2.3) with that number reachable for the players not
        // yet paired, and the scoregroup's fewest at `WEAK`, can float. Checked in the
        // floaters' order below (`unchecked`), or first when `WEAK_LAST` needs every value.
        let round_best = self.plan_of(staying);
        let mut unchecked = vec![false; n];
        let mut refused = vec![false; n];
        if let Some(best) = round_best {
            // Removing one player loses at most one pairing: with fewer than the most
            // pairings kept, anyone may float.
            if 2 * best.inside < mate.iter().flatten().count() {
                free = vec![true; n];
            }
            if f.weak_in_at(staying, WeakPlace::Last) {
                for k in 0..n {
                    if free[k] {
                        match self.plan_of(&without(k)) {
                            Some(left) if left.upper() == best.upper() => {
                                keeps_last[k] = left.last == best.last;
                            }
                            _ => refused[k] = true,
                        }
                    }
                }
            } else {
                unchecked.clone_from(&free);
            }
        } else if f.weak_in(staying)
            && let Some(best) = fewest_within(f, staying, pairable)
        {
            for (k, slot) in free.iter_mut().enumerate() {
                if *slot {
                    let rest: Vec<usize> = staying
                        .iter()
                        .enumerate()
                        .filter(|&(j, _)| j != k)
                        .map(|(_, &p)| p)
                        .collect();
                    let left = fewest_within(f, &rest, pairable);
                    *slot = left.is_none_or(|r| r.upper() == best.upper());
                    keeps_last[k] = left.is_none_or(|r| r.last == best.last);
                }
            }
        }
        let (mut white, mut black) = (0, 0);
        for &p in staying {
            match f.entrants[p].due() {
                Some(Colour::White) => white += 1,
                Some(Colour::Black) => black += 1,
                None => {}
            }
        }
        let majority = match white.cmp(&black) {
            Ordering::Greater => Some(Colour::White),
            Ordering::Less => Some(Colour::Black),
            Ordering::Equal => None,
        };
        let lowest_numbered = staying
            .iter()
            .copied()
            .max_by(|&a, &b| dir.by_number(a, b))?;
        let kind = |p: usize| -> FloaterType {
            let compatible = self.opponent_next_door(p, chosen, adjacent, dir);
            match (is_incoming(p), compatible) {
                (true, true) => FloaterType::B,
                (true, false) => FloaterType::A,
                (false, true) => FloaterType::D,
                (false, false) => FloaterType::C,
            }
        };
        // Only a player whose transfer keeps the most pairings can float (art. 3.10.2): the
        // others need no type.
        let mut keyed: Vec<(usize, FloaterType)> = (0..n)
            .filter(|&k| free[k])
            .map(|k| (k, kind(staying[k])))
            .collect();
        keyed.sort_by(|&(x, tx), &(y, ty)| {
            let (a, b) = (staying[x], staying[y]);
            let equalises = |p: usize| {
                majority.is_some()
                    && f.entrants[p].due() == majority
                    && f.within_band(p, lowest_numbered)
            };
            ty.cmp(&tx)
                .then(f.entrants[a].floated_last.cmp(&f.entrants[b].floated_last))
                .then(equalises(b).cmp(&equalises(a)))
                .then(keeps_last[y].cmp(&keeps_last[x]))
                .then(dir.by_number(b, a))
        });
        let mut skipped = 0;
        let mut pick = None;
        for (k, t) in keyed {
            if !refused[k]
                && unchecked[k]
                && let Some(best) = round_best
            {
                refused[k] = self
                    .plan_of(&without(k))
                    .is_none_or(|left| left.upper() != best.upper());
            }
            if refused[k] {
                skipped += 1;
                continue;
            }
            pick = Some((k, t));
            break;
        }
        let (k, t) = pick?;
        let p = staying[k];
        // Art. 2.3.1-2.3.3: whether the player had no opponent at all in the group.
        let any = (0..n).any(|j| j != k && adj(k, j));
        let reason = if any || n == 1 {
            // Art. 3.2, 3.9, 3.10: what made this player the choice.
            let e = &f.entrants[p];
            let due = match e.due() {
                Some(c) if Some(c) == majority && f.within_band(p, lowest_numbered) => {
                    format!("due {c}, the colour more players are due (art. 3.2.2)")
                }
                Some(c) => format!("due {c}"),
                None => "no colour due".to_string(),
            };
            let (end, article) = match dir {
                Direction::Down => ("lowest", "3.2.4"),
                Direction::Up => ("highest", "3.3"),
            };
            format!(
                "{} in the previous round (art. 3.10); {due}; {}the {end} numbered (art. {article})",
                if e.floated_last {
                    "floated"
                } else {
                    "did not float"
                },
                if p == lowest_numbered { "" } else { "not " }
            )
        } else if staying.iter().all(|&q| q == p || f.met(p, q)) {
            "art. 2.3.1: has played everyone of the scoregroup".to_string()
        } else {
            "art. 2.3.2-2.3.3: no compatible opponent gives a permissible colour".to_string()
        };
        let reason = if skipped > 0 {
            format!(
                "{reason}; SEP-5.1 (LIM-SEP.1): {skipped} player(s) ahead in this order would have put the round's fewest pairs within a group out of reach"
            )
        } else {
            reason
        };
        Some((k, t, reason))
    }

    /// Art. 3.9.1 (with art. 3.3, 3.4): whether `p` has a compatible opponent in the next
    /// scoregroup, after the floaters already chosen that go ahead of it have theirs.
    fn opponent_next_door(
        &self,
        p: usize,
        chosen: &[usize],
        adjacent: &[usize],
        dir: Direction,
    ) -> bool {
        let f = self.f;
        let ahead: Vec<usize> = chosen
            .iter()
            .copied()
            .filter(|&q| dir.by_score_then_number(f, q, p) == Ordering::Less)
            .collect();
        if ahead.is_empty() || !adjacent.iter().any(|&o| f.compatible(p, o)) {
            return adjacent.iter().any(|&o| f.compatible(p, o));
        }
        let found = |floaters: &[usize]| -> usize {
            let mut all = floaters.to_vec();
            all.extend(adjacent);
            let k = floaters.len();
            let mate = maximum_matching(all.len(), |a, b| {
                (a < k) != (b < k) && f.compatible(all[a], all[b])
            });
            mate.iter().flatten().count() / 2
        };
        let mut with = ahead.clone();
        with.push(p);
        found(&with) > found(&ahead)
    }

    /// Art. 2.4, 4 (readings L8, L9, L14): the incoming floaters first, each with the first
    /// available player in order; then, repeatedly, the first player of those left is
    /// scrutinised and tries the bottom half in order, then the top half upwards (for six
    /// players #1 tries 4, 5, 6, 3, 2: the columns of art. 4.2; once it has an opponent the
    /// rest is proposed afresh, which gives those of art. 4.3). An opponent is available if
    /// compatible and the players left can all still be paired (art. 4.4). Among the
    /// available, the first due the other colour is preferred to the first (art. 5.2; in a
    /// Maxi-tournament only within 100 points of it, art. 3.8, 5.7).
    fn scrutiny(
        &mut self,
        staying: &[usize],
        floaters: &[(usize, bool)],
        dir: Direction,
        pairable: &dyn Fn(usize, usize) -> bool,
        id: &dyn Fn(usize) -> String,
    ) -> Vec<(usize, usize, Choice)> {
        let f = self.f;
        let mut local: Vec<usize> = staying.to_vec();
        // Reading L7: the players of a scoregroup by score, then pairing number.
        local.sort_by(|&a, &b| dir.by_score_then_number(f, a, b));
        let n = local.len();
        let graph = BitGraph::from_fn(n, |a, b| pairable(local[a], local[b]));
        let mut matcher = Matcher::new(&graph);
        let complete = matcher.complete(&|v, i| {
            // Greedy start in the proposal's order: v tries n/2 further on first.
            let target = (v + n / 2 + i) % n.max(1);
            (i < n).then_some(target)
        });
        let mut out = Vec::new();
        if !complete {
            return out;
        }
        let position = |p: usize| local.iter().position(|&q| q == p);
        // SEP-5 (after art. 4.4's "the others can still be paired", before the colour
        // exchange of art. 5.2): an opponent is available only if the players left can
        // still be paired with the fewest pairs within a weak group.
        let weak = f.weak_in(staying);
        // `WEAK_LAST` (LIM-SEP.2): the second flag, whether the pair keeps the fewest at
        // that place too, read by `take` after art. 5.2.
        let keeps_fewest = |remaining: &[usize], v: usize| -> Vec<(bool, bool)> {
            let mut ok = vec![(true, true); n];
            if !weak {
                return ok;
            }
            let all: Vec<usize> = remaining.iter().map(|&x| local[x]).collect();
            let Some(best) = fewest_within(f, &all, pairable) else {
                return ok;
            };
            for &u in remaining {
                if u == v || !graph.edge(v, u) {
                    continue;
                }
                let rest: Vec<usize> = remaining
                    .iter()
                    .filter(|&&x| x != v && x != u)
                    .map(|&x| local[x])
                    .collect();
                let (first, default, last) = weak_cost(f, local[v], local[u]);
                ok[u] = match fewest_within(f, &rest, pairable) {
                    None => (true, true),
                    Some(r) => (
                        2 * r.pairs == rest.len()
                            && (r.first + first, r.default + default) == (best.first, best.default),
                        r.last + last == best.last,
                    ),
                };
            }
            ok
        };
        // Positions still to pair, in order.
        let mut remaining: Vec<usize> = (0..n).collect();
        for &(p, ahead) in floaters {
            let Some(v) = position(p) else { continue };
            if !remaining.contains(&v) {
                continue;
            }
            let candidates: Vec<usize> = remaining.iter().copied().filter(|&u| u != v).collect();
            let article = match (dir, ahead) {
                (Direction::Down, true) | (Direction::Up, false) => Direction::Down,
                _ => Direction::Up,
            };
            let ok = keeps_fewest(&remaining, v);
            if let Some((o, how)) = self.take(&mut matcher, &graph, &local, v, &candidates, &ok) {
                remaining.retain(|&u| u != v && u != o);
                let choice = if how == Choice::ColourExchange {
                    how
                } else {
                    Choice::Floater(article)
                };
                self.pair_step(local[v], local[o], choice, id);
                out.push((local[v], local[o], choice));
            }
        }
        while !remaining.is_empty() {
            crate::cancel::checkpoint();
            let v = remaining[0];
            let half = remaining.len() / 2;
            let mut candidates: Vec<usize> = remaining[half..].to_vec();
            candidates.extend(remaining[1..half].iter().rev());
            let ok = keeps_fewest(&remaining, v);
            let Some((o, how)) = self.take(&mut matcher, &graph, &local, v, &candidates, &ok)
            else {
                break;
            };
            remaining.retain(|&u| u != v && u != o);
            self.pair_step(local[v], local[o], how, id);
            out.push((local[v], local[o], how));
        }
        out
    }

    /// Pairs position `v` with the first available candidate, or the first available one
    /// due the other colour (art. 5.2); takes the pair out of `matcher`.
    fn take(
        &self,
        matcher: &mut Matcher<&BitGraph>,
        graph: &BitGraph,
        local: &[usize],
        v: usize,
        candidates: &[usize],
        keeps_fewest: &[(bool, bool)],
    ) -> Option<(usize, Choice)> {
        let f = self.f;
        let partners = matcher.possible_partners(v)?;
        let available = |u: usize| {
            graph.edge(v, u) && partners[u / 64] >> (u % 64) & 1 == 1 && keeps_fewest[u].0
        };
        let suits = |u: usize, first_u: usize| {
            let (dv, du) = (f.entrants[local[v]].due(), f.entrants[local[u]].due());
            (dv.is_none() || du.is_none() || dv != du) && f.within_band(local[u], local[first_u])
        };
        let mut first: Option<(usize, usize)> = None;
        let mut chosen = None;
        for (k, &u) in candidates.iter().enumerate() {
            if !available(u) {
                continue;
            }
            let (_, first_u) = *first.get_or_insert((k, u));
            if suits(u, first_u) {
                chosen = Some((k, u));
                break;
            }
        }
        let (first_k, first_u) = first?;
        let (mut k, mut u) = chosen.unwrap_or((first_k, first_u));
        // SEP-5.1 `WEAK_LAST` (LIM-SEP.2): after art. 5.2, the next available candidate in
        // the exchange order that art. 5.2 values alike (giving the colours due when the
        // choice does, any when none does) and keeps the fewest pairs within a group at
        // that place, if the choice does not.
        let mut separated = false;
        if !keeps_fewest[u].1
            && let Some((k2, &u2)) = candidates.iter().enumerate().skip(k + 1).find(|&(_, &w)| {
                available(w) && keeps_fewest[w].1 && (chosen.is_none() || suits(w, first_u))
            })
        {
            (k, u, separated) = (k2, u2, true);
        }
        if !matcher.take_pair(v, u) {
            return None;
        }
        let how = if separated {
            Choice::Separated
        } else if u != first_u {
            Choice::ColourExchange
        } else if k == 0 {
            Choice::Proposal
        } else {
            Choice::Exchange
        };
        Some((u, how))
    }

    fn pair_step(&mut self, a: usize, b: usize, how: Choice, id: &dyn Fn(usize) -> String) {
        let f = self.f;
        let (rule, why) = match how {
            Choice::Floater(Direction::Down) => ("3.6", "an incoming downfloater paired first"),
            Choice::Floater(Direction::Up) => ("3.7", "an incoming upfloater paired first"),
            Choice::Proposal => ("2.4", "the tentative pairing, top half against bottom half"),
            Choice::Exchange => (
                "4.2",
                "an exchange: the earlier opponents were not available (art. 4.4)",
            ),
            Choice::ColourExchange => ("5.2", "an exchange giving both players the colour due"),
            Choice::Separated => (
                "SEP-5.1",
                "a later opponent, alike for the colours, who keeps the fewest pairs within a weakly separated group (WEAK_LAST)",
            ),
        };
        let rule = if how == Choice::Separated {
            rule.to_string()
        } else {
            format!("{DOC} art. {rule}")
        };
        self.ex.detail(
            &rule,
            format!("{} - {}: {why}", name(f, a, id), name(f, b, id)),
            vec![f.entrants[a].player, f.entrants[b].player],
        );
    }
}

/// The scoregroups of `players` (entrants of `f`), by score.
pub fn scoregroups(f: &Field, players: &[usize]) -> BTreeMap<Score, Vec<usize>> {
    let mut groups: BTreeMap<Score, Vec<usize>> = BTreeMap::new();
    for &i in players {
        groups.entry(f.entrants[i].score).or_default().push(i);
    }
    groups
}

/// Art. 2.2's two sides of the Median Scoregroup: the scores above it from the top down,
/// and the scores below it from the bottom up.
pub fn sides(groups: &BTreeMap<Score, Vec<usize>>, median: Score) -> (Vec<Score>, Vec<Score>) {
    let higher = groups
        .keys()
        .rev()
        .copied()
        .filter(|&s| s > median)
        .collect();
    let lower = groups.keys().copied().filter(|&s| s < median).collect();
    (higher, lower)
}
