//! Two pairings of a Lim round compared in the order the system decides (C.04.4.3): the
//! PAB first (art. 1.1: the lowest score, then the lowest ranked; round 1, art. 7.1: the
//! lowest rated), then the scoregroups in the order of art. 2.2 (from the top down to just
//! above the Median Scoregroup, from the bottom up to just below it), then the Median
//! Scoregroup with the pairings cracked for it (art. 2.6).
//!
//! Lim is a procedure, not a list of weighted criteria. What it does decide by conditions
//! is compared on them: a scoregroup keeps as many pairings as it can have (art. 2.3,
//! reading L9), so fewer floaters is better; a single floater is chosen by its type
//! (art. 3.9.2: d before c before b before a), then not having floated in the previous
//! round (art. 3.10), then being due the colour more players are due (art. 3.2.2); a Median
//! Scoregroup needs as few pairings cracked as possible (art. 2.6). What the procedure
//! decides by its order is a tie named by the article of that order: the lowest (or
//! highest) numbered floater (art. 3.2.4, 3.3), several floaters chosen one at a time
//! (art. 3.9.2, reading L12: a greedy choice, not a set's value), the exchange tables of
//! the scrutiny (art. 4.2, with the colour exchange of art. 5.2), which pairing is cracked.
//!
//! A pair belongs to the scoregroup where the procedure made it: above the median the
//! group of its lower score (floaters move down towards the median), below it the group of
//! its higher score, the Median Scoregroup otherwise. A pairing cracked for the median
//! (art. 2.6) was made in its own scoregroup first: the comparison reads each pairing as
//! the procedure made it before the cracking ("pre-crack"), with the cracked pairings in
//! their scoregroups and the cracked players' new pairs in the median, so that a floater
//! count is the one the procedure chose.
//!
//! The facts (pairing scores, colours due, compatibility with art. 6 in the last round,
//! floats of the previous round, the Median's score) are the engine's own
//! (`lim::players::Field`).
use std::collections::{BTreeMap, BTreeSet};

use super::players::Field;
use super::{Options, groups};
use crate::model::{Colour, PlayerIdx, Score, WeakPlace};
use crate::systems::common::History;
use crate::systems::comparison::Comparison;
use crate::systems::{Explanation, RoundPairing, RoundToPair};

const DOC: &str = "C.04.4.3";

/// The engine's step that cracks a pairing for the Median Scoregroup (`lim::groups`,
/// art. 2.6.1 / 2.6.2): its two players.
const CRACK_RULE: &str = "C.04.4.3 art. 2.6";

type Pair = (usize, usize);

fn pair(a: usize, b: usize) -> Pair {
    (a.min(b), a.max(b))
}

/// A pairing read in entrant numbers (the field's order: pairing number ascending).
struct Read {
    pairs: BTreeSet<Pair>,
    pab: Option<usize>,
    cracked: BTreeSet<Pair>,
    /// The pairing carries the procedure's explanation (an arbiter's pairing does not).
    explained: bool,
}

fn read(p: &RoundPairing, at: &BTreeMap<PlayerIdx, usize>) -> Option<Read> {
    let mut pairs = BTreeSet::new();
    for b in &p.boards {
        pairs.insert(pair(*at.get(&b.white)?, *at.get(&b.black)?));
    }
    let pab = p
        .byes
        .iter()
        .find(|b| b.kind.is_pairing_allocated())
        .and_then(|b| at.get(&b.player).copied());
    Some(Read {
        pairs,
        pab,
        cracked: cracked(&p.explanation, at),
        explained: !p.explanation.groups.is_empty(),
    })
}

/// The pairings an explanation says were cracked for the Median Scoregroup.
fn cracked(explanation: &Explanation, at: &BTreeMap<PlayerIdx, usize>) -> BTreeSet<Pair> {
    explanation
        .groups
        .iter()
        .flat_map(|g| g.steps.iter())
        .filter(|s| s.rule_id.starts_with(CRACK_RULE))
        .filter_map(|s| match s.players[..] {
            [a, b] => Some(pair(*at.get(&a)?, *at.get(&b)?)),
            _ => None,
        })
        .collect()
}

/// Where the procedure made a pair: a scoregroup of one side, or the Median Scoregroup.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Place {
    Side(Score),
    Median,
}

/// A pairing as the procedure made it before the cracking: the pairs of each scoregroup.
struct View {
    by_place: BTreeMap<Place, BTreeSet<Pair>>,
    cracked: BTreeSet<Pair>,
}

fn place(f: &Field, (a, b): Pair) -> Place {
    let (sa, sb) = (f.entrants[a].score, f.entrants[b].score);
    if sa > f.median && sb > f.median {
        Place::Side(sa.min(sb))
    } else if sa < f.median && sb < f.median {
        Place::Side(sa.max(sb))
    } else {
        Place::Median
    }
}

fn view(f: &Field, r: &Read, cracked: BTreeSet<Pair>) -> View {
    let in_crack: BTreeSet<usize> = cracked.iter().flat_map(|&(a, b)| [a, b]).collect();
    let mut by_place: BTreeMap<Place, BTreeSet<Pair>> = BTreeMap::new();
    for &p in &r.pairs {
        // A cracked player's new pair was made in the Median Scoregroup (art. 2.6).
        let at = if !cracked.contains(&p) && (in_crack.contains(&p.0) || in_crack.contains(&p.1)) {
            Place::Median
        } else {
            place(f, p)
        };
        by_place.entry(at).or_default().insert(p);
    }
    for &p in &cracked {
        by_place.entry(place(f, p)).or_default().insert(p);
    }
    View { by_place, cracked }
}

/// The cracks of a pairing without the procedure's explanation (an arbiter's): the
/// procedure itself run on the field where only that pairing's pairs are compatible, which
/// it then reaches exactly, cracking what the Median Scoregroup needs (art. 2.6). Empty
/// if the procedure does not reach it.
fn cracks_of(f: &Field, r: &Read) -> BTreeSet<Pair> {
    let only = f.only(|a, b| r.pairs.contains(&pair(a, b)));
    let mut explanation = Explanation::default();
    let id = |p: PlayerIdx| p.to_string();
    if groups::pair_round(&only, &mut explanation, &id).is_err() {
        return BTreeSet::new();
    }
    let at: BTreeMap<PlayerIdx, usize> = f
        .entrants
        .iter()
        .enumerate()
        .map(|(i, e)| (e.player, i))
        .collect();
    cracked(&explanation, &at)
}

/// A criterion's value on one side, counting field indices.
type Value = crate::systems::comparison::Value<usize>;

struct Comparer<'a> {
    f: &'a Field,
}

impl Comparer<'_> {
    fn player(&self, i: usize) -> PlayerIdx {
        self.f.entrants[i].player
    }

    fn differ(
        &self,
        article: &str,
        criterion: &'static str,
        bracket: Option<Score>,
        a: Value,
        b: Value,
    ) -> Comparison {
        crate::systems::comparison::difference(
            format!("{DOC} art. {article}"),
            criterion,
            bracket,
            a,
            b,
            |i| Some(self.player(i)),
        )
    }

    fn tie(
        &self,
        bracket: Option<Score>,
        order_rule: &'static str,
        who: impl IntoIterator<Item = usize>,
    ) -> Comparison {
        let who: BTreeSet<usize> = who.into_iter().collect();
        Comparison::Tie {
            bracket,
            order_rule,
            players: who.into_iter().map(|i| self.player(i)).collect(),
        }
    }

    /// SEP-5 at `place`: the pairs of a scoregroup within a weak group, fewest first;
    /// `None` when they tie. `WEAK_FIRST` is read over the whole round (LIM-SEP.1).
    fn weak(
        &self,
        place: WeakPlace,
        bracket: Option<Score>,
        a: &BTreeSet<Pair>,
        b: &BTreeSet<Pair>,
    ) -> Option<Comparison> {
        let f = self.f;
        if f.weak.is_empty() {
            return None;
        }
        let value = |pairs: &BTreeSet<Pair>| {
            let v: Vec<usize> = pairs
                .iter()
                .filter(|&&(p, q)| f.weak.within(self.player(p), self.player(q), place))
                .flat_map(|&(p, q)| [p, q])
                .collect();
            Value {
                key: vec![(v.len() / 2) as i64],
                shown: format!(
                    "{} pair(s) within a separated group{}",
                    v.len() / 2,
                    if place == WeakPlace::First {
                        " in the round"
                    } else {
                        ""
                    }
                ),
                players: v,
            }
        };
        let (x, y) = (value(a), value(b));
        (x.key != y.key).then(|| {
            crate::systems::comparison::difference(
                "SEP-5".to_string(),
                match place {
                    WeakPlace::First => {
                        "fewest pairs within a weakly separated group in the whole round (placed first: with completion, before the PAB and every scoregroup)"
                    }
                    WeakPlace::Default => {
                        "fewest pairs within a weakly separated group (after the scoregroup's most pairings, before the floaters' choice and the colours)"
                    }
                    WeakPlace::Last => {
                        "fewest pairs within a weakly separated group, placed last"
                    }
                },
                bracket,
                x,
                y,
                |i| Some(self.player(i)),
            )
        })
    }

    /// Art. 1.1 (the lowest score) or, in round 1, art. 7.1 (the lowest rated).
    fn pab(&self, p: Option<usize>) -> Value {
        let f = self.f;
        let first_round = f.rounds_played == 0;
        match p {
            None => Value {
                key: Vec::new(),
                shown: "no PAB".to_string(),
                players: Vec::new(),
            },
            Some(i) if first_round => Value {
                key: vec![i64::from(f.entrants[i].rating)],
                shown: format!("the PAB assignee is rated {}", f.entrants[i].rating),
                players: vec![i],
            },
            Some(i) => Value {
                key: vec![f.entrants[i].score.tenths()],
                shown: format!("the PAB assignee scores {}", f.entrants[i].score),
                players: vec![i],
            },
        }
    }

    /// A single floater's value on art. 3.9.2 (`k` = 0), 3.10 (1) or 3.2.2 (2), as the
    /// engine's `choose_floater` ranks the first floater of a scoregroup.
    fn floater(&self, k: usize, p: usize, g: &Group) -> Value {
        let f = self.f;
        let e = &f.entrants[p];
        match k {
            0 => {
                let incoming = g.incoming.contains(&p);
                let next_door = g.adjacent.iter().any(|&o| f.compatible(p, o));
                // Art. 3.9.1: a (incoming, no opponent next door) is the most disadvantaged,
                // then b, c, d; the least disadvantaged type floats first.
                let (rank, letter) = match (incoming, next_door) {
                    (true, false) => (3, "a"),
                    (true, true) => (2, "b"),
                    (false, false) => (1, "c"),
                    (false, true) => (0, "d"),
                };
                Value {
                    key: vec![rank],
                    shown: format!("a floater of type {letter}"),
                    players: vec![p],
                }
            }
            1 => Value {
                key: vec![i64::from(e.floated_last)],
                shown: if e.floated_last {
                    "a floater who floated in the previous round".to_string()
                } else {
                    "a floater who did not float in the previous round".to_string()
                },
                players: vec![p],
            },
            _ => {
                let equalises = g.majority.is_some()
                    && e.due() == g.majority
                    && f.within_band(p, g.lowest_numbered);
                Value {
                    key: vec![i64::from(!equalises)],
                    shown: match (equalises, g.majority) {
                        (true, Some(c)) => {
                            format!("a floater due {c}, the colour more players are due")
                        }
                        (false, Some(c)) => {
                            format!("a floater not due {c}, the colour more players are due")
                        }
                        _ => "no colour more players are due".to_string(),
                    },
                    players: vec![p],
                }
            }
        }
    }
}

/// One scoregroup of a side, as its pairing starts: the players transferred into it,
/// the residents of the next scoregroup (art. 3.9.1), and the colour balance of its
/// members (art. 3.2.2).
struct Group {
    incoming: Vec<usize>,
    adjacent: Vec<usize>,
    majority: Option<Colour>,
    lowest_numbered: usize,
}

const FLOATER_CRITERIA: [(&str, &str); 3] = [
    (
        "3.9.2",
        "float the least disadvantaged type first: d, then c, b, a",
    ),
    ("3.10", "avoid a floater who floated in the previous round"),
    (
        "3.2.2",
        "prefer a floater due the colour more players of the scoregroup are due",
    ),
];

/// Compares two pairings of a Lim round in the order the procedure decides.
pub fn compare(
    round: &RoundToPair,
    options: &Options,
    history: &History,
    first: &RoundPairing,
    second: &RoundPairing,
) -> Option<Comparison> {
    let f = Field::build(round, history, options.maxi_tournament);
    let at: BTreeMap<PlayerIdx, usize> = f
        .entrants
        .iter()
        .enumerate()
        .map(|(i, e)| (e.player, i))
        .collect();
    let (one, two) = (read(first, &at)?, read(second, &at)?);
    let c = Comparer { f: &f };
    // SEP-5.1 placed first (LIM-SEP.1): the round's pairs within a group, before the PAB
    // and every scoregroup (the procedure keeps the round's fewest reachable throughout).
    if let Some(d) = c.weak(WeakPlace::First, None, &one.pairs, &two.pairs) {
        return Some(d);
    }
    // Art. 1.1 / 7.1: the PAB is assigned before any scoregroup.
    if one.pab != two.pab {
        let (article, text, order) = if f.rounds_played == 0 {
            (
                "7.1",
                "the PAB goes to the lowest rated",
                "C.04.4.3 art. 7.1",
            )
        } else {
            (
                "1.1",
                "the PAB goes to the lowest score, then the lowest ranked",
                "C.04.4.3 art. 1.1",
            )
        };
        let (a, b) = (c.pab(one.pab), c.pab(two.pab));
        if a.key != b.key {
            return Some(c.differ(article, text, None, a, b));
        }
        return Some(c.tie(None, order, one.pab.into_iter().chain(two.pab)));
    }
    let cracks = |r: &Read| {
        if r.explained {
            r.cracked.clone()
        } else {
            cracks_of(&f, r)
        }
    };
    let (x, y) = (view(&f, &one, cracks(&one)), view(&f, &two, cracks(&two)));
    let players: Vec<usize> = (0..f.len()).filter(|&i| Some(i) != one.pab).collect();
    // Art. 2.2's scoregroups and sides, as the procedure forms them.
    let groups = groups::scoregroups(&f, &players);
    let (higher, lower) = groups::sides(&groups, f.median);
    let empty = BTreeSet::new();
    // Art. 2.2: the higher side downward, then the lower side upward.
    for (side, down) in [(&higher, true), (&lower, false)] {
        let mut incoming: Vec<usize> = Vec::new();
        for (k, &s) in side.iter().enumerate() {
            let residents = groups.get(&s).cloned().unwrap_or_default();
            let mut members = incoming.clone();
            members.extend(&residents);
            let (px, py) = (
                x.by_place.get(&Place::Side(s)).unwrap_or(&empty),
                y.by_place.get(&Place::Side(s)).unwrap_or(&empty),
            );
            let floaters = |pairs: &BTreeSet<Pair>| -> Vec<usize> {
                let paired: BTreeSet<usize> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
                members
                    .iter()
                    .copied()
                    .filter(|m| !paired.contains(m))
                    .collect()
            };
            let (fx, fy) = (floaters(px), floaters(py));
            if px == py && fx == fy {
                incoming = fx;
                continue;
            }
            let bracket = Some(s);
            // Art. 2.3 (reading L9): as many pairings as the scoregroup can have.
            if fx.len() != fy.len() {
                let value = |fl: &[usize]| Value {
                    key: vec![fl.len() as i64],
                    shown: format!("{} floater(s) leave the scoregroup", fl.len()),
                    players: fl.to_vec(),
                };
                return Some(c.differ(
                    "2.3",
                    "a scoregroup keeps as many pairings as it can have: the fewest floaters",
                    bracket,
                    value(&fx),
                    value(&fy),
                ));
            }
            // SEP-5 at its default place: the scoregroup's fewest pairs within a group
            // (`groups.rs`: the floaters and the scrutiny's opponents keep it).
            if let Some(d) = c.weak(WeakPlace::Default, bracket, px, py) {
                return Some(d);
            }
            if fx != fy {
                let parted = fx.iter().chain(&fy).copied();
                if let ([p], [q]) = (&fx[..], &fy[..]) {
                    let next = side.get(k + 1).copied().unwrap_or(f.median);
                    let mut white_black = (0, 0);
                    for &m in &members {
                        match f.entrants[m].due() {
                            Some(Colour::White) => white_black.0 += 1,
                            Some(Colour::Black) => white_black.1 += 1,
                            None => {}
                        }
                    }
                    let g = Group {
                        incoming: incoming.clone(),
                        adjacent: groups.get(&next).cloned().unwrap_or_default(),
                        majority: match white_black.0.cmp(&white_black.1) {
                            std::cmp::Ordering::Greater => Some(Colour::White),
                            std::cmp::Ordering::Less => Some(Colour::Black),
                            std::cmp::Ordering::Equal => None,
                        },
                        // The lowest numbered: the largest number downward, the smallest
                        // upward (art. 3.2.3, 3.3).
                        lowest_numbered: if down {
                            members.iter().copied().max().unwrap_or(*p)
                        } else {
                            members.iter().copied().min().unwrap_or(*p)
                        },
                    };
                    for (k, (article, text)) in FLOATER_CRITERIA.iter().enumerate() {
                        let (a, b) = (c.floater(k, *p, &g), c.floater(k, *q, &g));
                        if a.key != b.key {
                            return Some(c.differ(article, text, bracket, a, b));
                        }
                    }
                    // SEP-5 placed last (LIM-SEP.2): a floater whose transfer keeps the
                    // scoregroup's fewest pairs within a group at that place, before the
                    // number.
                    if f.weak_in_at(&members, WeakPlace::Last) {
                        let keeps = |fl: usize| {
                            let kept = groups::floater_keeps_last(&f, &members, fl);
                            Value {
                                key: vec![i64::from(!kept)],
                                shown: if kept {
                                    "a floater whose transfer keeps the fewest pairs within a group (placed last)".to_string()
                                } else {
                                    "a floater whose transfer adds a pair within a group (placed last)".to_string()
                                },
                                players: vec![fl],
                            }
                        };
                        let (a, b) = (keeps(*p), keeps(*q));
                        if a.key != b.key {
                            return Some(crate::systems::comparison::difference(
                                "SEP-5".to_string(),
                                "fewest pairs within a weakly separated group, placed last (after art. 3.2.2, before the number)",
                                bracket,
                                a,
                                b,
                                |i| Some(c.player(i)),
                            ));
                        }
                    }
                    let order = if down {
                        "C.04.4.3 art. 3.2.4"
                    } else {
                        "C.04.4.3 art. 3.3"
                    };
                    return Some(c.tie(bracket, order, parted));
                }
                // Several floaters are chosen one at a time (reading L12): the order of
                // that choice decided.
                return Some(c.tie(bracket, "C.04.4.3 art. 3.9.2", parted));
            }
            // The same floaters, other pairs: the scrutiny's exchange tables (art. 4.2)
            // with the colour exchange of art. 5.2 chose.
            return Some(c.tie(
                bracket,
                "C.04.4.3 art. 4.2",
                px.symmetric_difference(py).flat_map(|&(a, b)| [a, b]),
            ));
        }
    }
    // The Median Scoregroup: the pairings cracked for it (art. 2.6), then its pairs.
    if x.cracked != y.cracked {
        // The procedure cracks the last pairings made, one at a time, until the Median
        // Scoregroup pairs: with the same scoregroups, one side's cracks extend the
        // other's, and fewer is better. Cracks that do not nest were not chosen in one
        // sequence: the order of art. 2.6 decided.
        let nested = x.cracked.is_subset(&y.cracked) || y.cracked.is_subset(&x.cracked);
        if nested {
            let value = |v: &View| Value {
                key: vec![v.cracked.len() as i64],
                shown: format!(
                    "{} pairing(s) cracked for the Median Scoregroup",
                    v.cracked.len()
                ),
                players: v.cracked.iter().flat_map(|&(a, b)| [a, b]).collect(),
            };
            return Some(c.differ(
                "2.6",
                "crack as few pairings as the Median Scoregroup needs to be paired completely",
                Some(f.median),
                value(&x),
                value(&y),
            ));
        }
        return Some(
            c.tie(
                Some(f.median),
                "C.04.4.3 art. 2.6",
                x.cracked
                    .symmetric_difference(&y.cracked)
                    .flat_map(|&(a, b)| [a, b]),
            ),
        );
    }
    let (mx, my) = (
        x.by_place.get(&Place::Median).unwrap_or(&empty),
        y.by_place.get(&Place::Median).unwrap_or(&empty),
    );
    if let Some(d) = c.weak(WeakPlace::Default, Some(f.median), mx, my) {
        return Some(d);
    }
    Some(c.tie(
        Some(f.median),
        "C.04.4.3 art. 4.2",
        mx.symmetric_difference(my).flat_map(|&(a, b)| [a, b]),
    ))
}
