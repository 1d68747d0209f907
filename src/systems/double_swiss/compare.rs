//! Two pairings of a Double-Swiss match compared in the system's own order (C.04.5 art. 3):
//! the PAB first (3.4: the lowest score 3.4.2, the most matches played 3.4.3, then the
//! largest TPN 3.4.4), then the brackets from the top scoregroup down, each with the
//! upfloaters 3.5 selects for it ([C4] their number, [C5] their scores highest first,
//! [C6], [C7]; among equal sets the first in 3.5.4's order) and the pairing 3.6 makes of it
//! ([C8], then the first Pairing Identifier).
//!
//! A bracket holds its scoregroup's residents and the upfloaters paired with them
//! (brackets have no downfloaters, 1.3.2): the first bracket where two pairings part is
//! where the system chose between them, as the engine pairs top-down and never revisits a
//! bracket. The facts (scores with virtual points, compatibility, floats of the previous
//! match, matches played) are the engine's own (`double_swiss::match_field`), and so are
//! [C6]'s following scoregroup and count (`brackets::following`, `brackets::c6_value`).
//!
//! Weak separations (SEP-5) enter where the engine weighs them: at the default place
//! between [C6] and [C7] (a bracket's pairs within a group, whether the upfloaters or only
//! the pairs differ) and before [C8]; placed last, after [C8] for the same upfloaters.
//!
//! Only game 1 of a match is a pairing; game 2 repeats it reversed (art. 0), so a question
//! about a game-2 round is answered by that step (`None` here).
use std::collections::{BTreeMap, BTreeSet};

use super::{Options, match_field, match_of_round};
use crate::model::{PlayerIdx, Score, WeakPlace};
use crate::systems::comparison::Comparison;
use crate::systems::double_swiss::brackets::{self, Field};
use crate::systems::{RoundPairing, RoundToPair};

/// A criterion's value on one side, counting field numbers.
type Value = crate::systems::comparison::Value<usize>;

/// A pairing read in field numbers: its pairs and its PAB.
struct Read {
    mate: BTreeMap<usize, usize>,
    pab: Option<usize>,
}

fn read(p: &RoundPairing, at: &BTreeMap<PlayerIdx, usize>) -> Option<Read> {
    let mut mate = BTreeMap::new();
    for b in &p.boards {
        let (w, k) = (*at.get(&b.white)?, *at.get(&b.black)?);
        mate.insert(w, k);
        mate.insert(k, w);
    }
    let pab = p
        .byes
        .iter()
        .find(|b| b.kind.is_pairing_allocated())
        .and_then(|b| at.get(&b.player).copied());
    Some(Read { mate, pab })
}

/// One bracket of a pairing: the upfloaters paired with the residents, and the pairs made
/// there (field numbers, smaller first).
#[derive(PartialEq, Eq)]
struct Bracket {
    ups: BTreeSet<usize>,
    pairs: BTreeSet<(usize, usize)>,
}

/// The bracket of `residents` in a pairing: every resident's opponent is a resident or an
/// upfloater (1.3.2). Two upfloaters paired together are read as paired below: the engine
/// never makes such a pair, as the set without them would need two upfloaters fewer
/// ([C4]).
fn bracket(read: &Read, residents: &[usize]) -> Bracket {
    let mut ups = BTreeSet::new();
    let mut pairs = BTreeSet::new();
    for &r in residents {
        if let Some(&o) = read.mate.get(&r) {
            if !residents.contains(&o) {
                ups.insert(o);
            }
            pairs.insert((r.min(o), r.max(o)));
        }
    }
    Bracket { ups, pairs }
}

fn show_scores(list: &[Score]) -> String {
    if list.is_empty() {
        return "none".to_string();
    }
    list.iter()
        .map(Score::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

struct Comparer<'a> {
    f: &'a Field,
    players: &'a [PlayerIdx],
}

impl Comparer<'_> {
    fn differ(
        &self,
        rule: &str,
        criterion: &'static str,
        bracket: Option<Score>,
        a: Value,
        b: Value,
    ) -> Comparison {
        crate::systems::comparison::difference(
            format!("C.04.5 {rule}"),
            criterion,
            bracket,
            a,
            b,
            |i| Some(self.players[i]),
        )
    }

    fn tie(
        &self,
        bracket: Option<Score>,
        order_rule: &'static str,
        who: BTreeSet<usize>,
    ) -> Comparison {
        Comparison::Tie {
            bracket,
            order_rule,
            players: who.into_iter().map(|i| self.players[i]).collect(),
        }
    }

    /// 3.4.2, 3.4.3: the PAB assignee's score (lower first), then matches played (more
    /// first).
    fn pab(&self, p: Option<usize>, games: bool) -> Value {
        let f = self.f;
        match p {
            None => Value {
                key: Vec::new(),
                shown: "no PAB".to_string(),
                players: Vec::new(),
            },
            Some(p) if games => Value {
                key: vec![-(f.matches_played[p] as i64)],
                shown: format!(
                    "the PAB assignee has played {} match(es)",
                    f.matches_played[p]
                ),
                players: vec![p],
            },
            Some(p) => Value {
                key: vec![f.score[p].tenths()],
                shown: format!("the PAB assignee scores {}", f.score[p]),
                players: vec![p],
            },
        }
    }

    /// The value of [C4]-[C7] for the upfloater set `ups` of the bracket of score `top`
    /// (`remaining` the players not yet paired, residents included).
    fn set_value(&self, k: usize, ups: &BTreeSet<usize>, top: Score, remaining: &[usize]) -> Value {
        let f = self.f;
        let mut list: Vec<usize> = ups.iter().copied().collect();
        list.sort_by(|&a, &b| f.score[b].cmp(&f.score[a]).then(f.tpn[a].cmp(&f.tpn[b])));
        match k {
            0 => Value {
                key: vec![list.len() as i64],
                shown: format!("{} upfloater(s)", list.len()),
                players: list,
            },
            1 => {
                let scores: Vec<Score> = list.iter().map(|&p| f.score[p]).collect();
                Value {
                    // As high as possible, the highest first: negated, smaller is better.
                    key: scores.iter().map(|s| -s.tenths()).collect(),
                    shown: format!("upfloater scores {}", show_scores(&scores)),
                    players: list,
                }
            }
            2 => {
                let rest: Vec<usize> = remaining
                    .iter()
                    .copied()
                    .filter(|p| f.score[*p] != top && !ups.contains(p))
                    .collect();
                let following = brackets::following(f, top);
                let c6 = brackets::c6_value(f, following, &rest);
                let left: Vec<usize> = rest
                    .iter()
                    .copied()
                    .filter(|&p| Some(f.score[p]) == following)
                    .collect();
                Value {
                    // A lapsed [C6] counts as nothing to minimise (reading X7), as the
                    // engine counts it.
                    key: vec![c6.unwrap_or(0) as i64],
                    shown: match (c6, following) {
                        (Some(n), Some(s)) => format!(
                            "{n} player(s) of the following scoregroup ({s}) paired below it"
                        ),
                        _ => "[C6] lapses (the following scoregroup is empty)".to_string(),
                    },
                    players: left,
                }
            }
            _ => {
                let floated: Vec<usize> = if f.last_match {
                    Vec::new()
                } else {
                    list.iter().copied().filter(|&p| f.floated[p]).collect()
                };
                Value {
                    key: vec![floated.len() as i64],
                    shown: format!(
                        "{} upfloater(s) who floated in the previous match",
                        floated.len()
                    ),
                    players: floated,
                }
            }
        }
    }

    /// SEP-5: the bracket's pairs within a group of a weak separation at `place`; `None`
    /// when no weak separation stands there.
    fn weak(&self, b: &Bracket, place: WeakPlace) -> Option<Value> {
        self.f.weak[place as usize].as_ref()?;
        let within: Vec<(usize, usize)> = b
            .pairs
            .iter()
            .copied()
            .filter(|&(x, y)| self.f.within(place, x, y))
            .collect();
        let tpn = |p: usize| self.f.tpn[p];
        Some(Value {
            key: vec![within.len() as i64],
            shown: if within.is_empty() {
                "no pair within a separated group".to_string()
            } else {
                format!(
                    "{} pair(s) within a separated group: {}",
                    within.len(),
                    within
                        .iter()
                        .map(|&(x, y)| format!("{}-{}", tpn(x), tpn(y)))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            },
            players: within.iter().flat_map(|&(x, y)| [x, y]).collect(),
        })
    }

    /// SEP-5 at `place` decides between the brackets `x` and `y`, if it does.
    fn weak_differ(
        &self,
        x: &Bracket,
        y: &Bracket,
        place: WeakPlace,
        bracket: Option<Score>,
    ) -> Option<Comparison> {
        let (a, b) = (self.weak(x, place)?, self.weak(y, place)?);
        (a.key != b.key).then(|| {
            crate::systems::comparison::difference(
                "SEP-5".to_string(),
                match place {
                    WeakPlace::Last => {
                        "fewest pairs within a weakly separated group (placed last: after [C8])"
                    }
                    _ => {
                        "fewest pairs within a weakly separated group (after [C6], before [C7] and [C8])"
                    }
                },
                bracket,
                a,
                b,
                |i| Some(self.players[i]),
            )
        })
    }

    /// [C8] (reading X10): the upfloaters of the bracket whose opponent floated in the
    /// previous match; not in the last match (X9).
    fn c8(&self, b: &Bracket) -> Value {
        let f = self.f;
        let mut counted = Vec::new();
        if !f.last_match {
            for &(x, y) in &b.pairs {
                for (u, o) in [(x, y), (y, x)] {
                    if b.ups.contains(&u) && f.floated[o] {
                        counted.push(u);
                    }
                }
            }
        }
        Value {
            key: vec![counted.len() as i64],
            shown: format!(
                "{} upfloater(s) meeting a floater of the previous match",
                counted.len()
            ),
            players: counted,
        }
    }
}

const SET_CRITERIA: [(&str, &str); 4] = [
    ("C4", "minimise the number of upfloaters"),
    (
        "C5",
        "maximise the upfloaters' scores, taken in descending order",
    ),
    (
        "C6",
        "minimise the players of the following scoregroup who must be paired below it",
    ),
    (
        "C7",
        "minimise the upfloaters who were floaters in the previous match",
    ),
];

/// Compares two pairings of a game-1 round in C.04.5's order; `None` for game 2 (art. 0:
/// it repeats game 1) or a round whose field cannot be read.
pub fn compare(
    round: &RoundToPair,
    options: &Options,
    first: &RoundPairing,
    second: &RoundPairing,
) -> Option<Comparison> {
    if match_of_round(round.number).1 == 2 {
        return None;
    }
    let mf = match_field(round, options).ok()?;
    let f = &mf.field;
    let at: BTreeMap<PlayerIdx, usize> = mf
        .players
        .iter()
        .enumerate()
        .map(|(i, &p)| (p, i))
        .collect();
    let (one, two) = (read(first, &at)?, read(second, &at)?);
    let c = Comparer {
        f,
        players: &mf.players,
    };
    // SEP-5.1 placed first (DS-SEP.1): the round's pairs within a group, before the PAB
    // and every bracket (the engine keeps the round's fewest reachable throughout).
    if f.weak[WeakPlace::First as usize].is_some() {
        let within = |r: &Read| {
            crate::systems::comparison::round_within(
                r.mate.iter().map(|(&x, &y)| (x, y)).filter(|&(x, y)| x < y),
                |x, y| f.within(WeakPlace::First, x, y),
                "pair(s)",
            )
        };
        let (a, b) = (within(&one), within(&two));
        if a.key != b.key {
            return Some(crate::systems::comparison::difference(
                "SEP-5".to_string(),
                "fewest pairs within a weakly separated group in the round (placed first: before the PAB and [C4])",
                None,
                a,
                b,
                |i| Some(mf.players[i]),
            ));
        }
    }
    // 3.4: the PAB is assigned before any bracket.
    if one.pab != two.pab {
        for (games, rule, text) in [
            (false, "3.4.2", "the PAB goes to the lowest score"),
            (true, "3.4.3", "then to the most matches played"),
        ] {
            let (a, b) = (c.pab(one.pab, games), c.pab(two.pab, games));
            if a.key != b.key {
                return Some(c.differ(rule, text, None, a, b));
            }
        }
        return Some(c.tie(
            None,
            "C.04.5 3.4.4",
            one.pab.into_iter().chain(two.pab).collect(),
        ));
    }
    let mut remaining: Vec<usize> = (0..f.score.len()).filter(|&p| Some(p) != one.pab).collect();
    while let Some(top) = remaining.iter().map(|&p| f.score[p]).max() {
        let residents: Vec<usize> = remaining
            .iter()
            .copied()
            .filter(|&p| f.score[p] == top)
            .collect();
        let (x, y) = (bracket(&one, &residents), bracket(&two, &residents));
        if x == y {
            remaining.retain(|p| !residents.contains(p) && !x.ups.contains(p));
            continue;
        }
        let at_top = Some(top);
        if x.ups != y.ups {
            // 3.5: the upfloater sets, by [C4]-[C7] ([C7] off in the last match, X9).
            for (k, (rule, text)) in SET_CRITERIA.iter().enumerate() {
                let (a, b) = (
                    c.set_value(k, &x.ups, top, &remaining),
                    c.set_value(k, &y.ups, top, &remaining),
                );
                if a.key != b.key {
                    return Some(c.differ(rule, text, at_top, a, b));
                }
                if k == 2
                    && let Some(d) = c.weak_differ(&x, &y, WeakPlace::Default, at_top)
                {
                    return Some(d);
                }
            }
            return Some(c.tie(
                at_top,
                "C.04.5 3.5.4",
                x.ups.symmetric_difference(&y.ups).copied().collect(),
            ));
        }
        // 3.6: the same bracket paired two ways: [C8] (SEP-5 before it by default, after it
        // placed last), then the Pairing Identifiers.
        if let Some(d) = c.weak_differ(&x, &y, WeakPlace::Default, at_top) {
            return Some(d);
        }
        let (a, b) = (c.c8(&x), c.c8(&y));
        if a.key != b.key {
            return Some(c.differ(
                "C8",
                "minimise the upfloaters whose opponent was a floater in the previous match",
                at_top,
                a,
                b,
            ));
        }
        if let Some(d) = c.weak_differ(&x, &y, WeakPlace::Last, at_top) {
            return Some(d);
        }
        let parted: BTreeSet<usize> = x
            .pairs
            .symmetric_difference(&y.pairs)
            .flat_map(|&(p, q)| [p, q])
            .collect();
        return Some(c.tie(at_top, "C.04.5 3.6", parted));
    }
    Some(Comparison::Same)
}
