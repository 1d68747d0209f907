//! Two pairings of one round compared in a criterion-based system's own order: the
//! criteria of the Dutch system (C.04.3 art. 2, or the 2017 section C), of Burstein
//! (C.04.4.2 C5-C8, its seeding rounds by the Dutch table; profile BBP in
//! `burstein_bbp.rs`), of Dubov (C.04.4.1 C5-C10) and of the Swiss Team system (C.04.6
//! [C4]-[C10], `team_swiss.rs`).
//!
//! These systems apply their quality criteria bracket by bracket, top-down: the first
//! bracket where two pairings part is where the system chose between them, and there the
//! first criterion on which they differ decides (a criterion about the next bracket, Dutch
//! C8 / Burstein C7, looks one bracket further). When the brackets where they part tie on
//! every criterion, the system's rule of order chose (Dutch art. 4's sequence of
//! transpositions and exchanges, Burstein's Index order, Dubov's ARO order).
//!
//! The per-player facts (pairing score with acceleration, colour preference, floats of the
//! last two rounds) are the systems' own (`dutch::players::Field`,
//! `dubov::players::Field`), so a value here is the value the engine optimised.
use std::collections::{BTreeMap, BTreeSet};

use crate::model::{Colour, PlayerIdx, Score, SystemId};
use crate::systems::common::fide_players::{Entrant, Field};
use crate::systems::common::{Float, History};
use crate::systems::dutch::criteria::{self as dutch_criteria, Kind, Measure};
use crate::systems::dutch::edition::Edition;
use crate::systems::{RoundPairing, RoundToPair, dubov};

/// Where two pairings part, in the system's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Comparison {
    /// The pairings are the same (pairs and bye).
    Same,
    /// The first criterion on which they differ.
    Differ(Difference),
    /// They part in `bracket` but tie on every criterion: the system's rule of order chose.
    Tie {
        /// The score group where they first part; `None` for the PAB.
        bracket: Option<Score>,
        /// The rule of order (e.g. `C.04.3 art. 4`).
        order_rule: &'static str,
        /// The players whose pairing differs there.
        players: Vec<PlayerIdx>,
    },
}

/// The first criterion on which two pairings differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The criterion's rule id, e.g. `C.04.3 C12`.
    pub rule_id: String,
    /// What the criterion minimises, in words.
    pub criterion: &'static str,
    /// The score group (bracket) where it is decided; `None` for a round-wide criterion
    /// (the PAB's).
    pub bracket: Option<Score>,
    /// The value on each side, as the rule counts it.
    pub first_value: String,
    pub second_value: String,
    /// Which side the criterion prefers.
    pub first_is_better: bool,
    /// The players the criterion counts on the worse side.
    pub players: Vec<PlayerIdx>,
}

/// Whether the system's pairings are compared by criteria (with these options): the
/// Dutch (both editions), Burstein (both profiles: BBP in `burstein_bbp.rs`), Dubov, the
/// Swiss Team system (`team_swiss.rs`), the Double-Swiss and Lim (`double_swiss.rs`,
/// `lim.rs`).
pub fn compares(system: SystemId, _options: &crate::model::SystemOptions) -> bool {
    matches!(
        system,
        SystemId::Dutch
            | SystemId::Dubov
            | SystemId::Burstein
            | SystemId::TeamSwiss
            | SystemId::DoubleSwiss
            | SystemId::Lim
    )
}

/// One criterion's value on one side: a key compared lexicographically (smaller is
/// better), its words, and whom it counts (players, or indices into a system's own field,
/// which [`difference`] names as players).
#[derive(Clone, Debug)]
pub(super) struct Value<P = PlayerIdx> {
    pub(super) key: Vec<i64>,
    pub(super) shown: String,
    pub(super) players: Vec<P>,
}

/// Where two sides part on a criterion: which is better (the smaller key), both values in
/// words, and whom the criterion counts on the worse side, named as players by `name`
/// (`None`: nobody to name).
/// Every system's comparison reports its first differing criterion through this.
pub(super) fn difference<P: Copy>(
    rule_id: String,
    criterion: &'static str,
    bracket: Option<Score>,
    a: Value<P>,
    b: Value<P>,
    name: impl Fn(P) -> Option<PlayerIdx>,
) -> Comparison {
    let first_is_better = a.key < b.key;
    let worse = if first_is_better {
        b.players
    } else {
        a.players
    };
    Comparison::Differ(Difference {
        rule_id,
        criterion,
        bracket,
        first_value: a.shown,
        second_value: b.shown,
        first_is_better,
        players: worse.into_iter().filter_map(name).collect(),
    })
}

impl Value {
    fn count(players: Vec<PlayerIdx>, shown: String) -> Value {
        Value {
            key: vec![players.len() as i64],
            shown,
            players,
        }
    }
}

/// A criterion as compared here.
struct Rule {
    rule_id: String,
    text: &'static str,
    measure: Measure,
}

/// Compares two pairings of the round `round` (the unconstrained round the system paired)
/// in the system's order of criteria. `None` for a system this module does not read.
pub fn compare(
    system: SystemId,
    round: &RoundToPair,
    first: &RoundPairing,
    second: &RoundPairing,
) -> Option<Comparison> {
    let history = History::build(round);
    if same(first, second) {
        return Some(Comparison::Same);
    }
    let t = &round.tournament;
    match system {
        SystemId::Dutch => {
            let edition = Edition::of(&t.options);
            Some(dutch_family(
                round,
                &history,
                first,
                second,
                dutch_rules(edition, "C.04.3"),
                if edition == Edition::E2017 {
                    "C.04.3 D.1-D.2"
                } else {
                    "C.04.3 art. 4"
                },
            ))
        }
        SystemId::Burstein => {
            if crate::systems::burstein::profile(&t.options)
                == crate::systems::burstein::Profile::Bbp
            {
                return Some(super::burstein_bbp::compare(round, &history, first, second));
            }
            let seeding =
                crate::systems::burstein::text::seeding_rounds(t.total_rounds) >= round.number;
            if seeding {
                // C.04.4.2 art. 1.6.2: the seeding rounds are the Dutch system's.
                Some(dutch_family(
                    round,
                    &history,
                    first,
                    second,
                    dutch_rules(Edition::E2026, "C.04.3"),
                    "C.04.3 art. 4",
                ))
            } else {
                Some(dutch_family(
                    round,
                    &history,
                    first,
                    second,
                    burstein_rules(),
                    "C.04.4.2 4.3",
                ))
            }
        }
        SystemId::Dubov => Some(dubov_compare(round, &history, first, second)),
        SystemId::DoubleSwiss => super::double_swiss::compare(round, first, second),
        SystemId::Lim => super::lim::compare(round, &history, first, second),
        SystemId::TeamSwiss => super::team_swiss::compare(round, first, second),
        _ => None,
    }
}

/// Whether two pairings have the same pairs (colours aside) and the same PAB.
pub fn same(a: &RoundPairing, b: &RoundPairing) -> bool {
    pairs_of(a) == pairs_of(b) && pab_of(a) == pab_of(b)
}

fn pairs_of(p: &RoundPairing) -> BTreeSet<(PlayerIdx, PlayerIdx)> {
    p.boards
        .iter()
        .map(|b| (b.white.min(b.black), b.white.max(b.black)))
        .collect()
}

fn pab_of(p: &RoundPairing) -> Vec<PlayerIdx> {
    let mut v: Vec<PlayerIdx> = p
        .byes
        .iter()
        .filter(|b| b.kind.is_pairing_allocated())
        .map(|b| b.player)
        .collect();
    v.sort_unstable();
    v
}

fn dutch_rules(edition: Edition, document: &str) -> Vec<Rule> {
    let table = match edition {
        Edition::E2026 => dutch_criteria::DUTCH_2026,
        Edition::E2017 => dutch_criteria::DUTCH_2017,
    };
    table
        .iter()
        .filter(|c| matches!(c.kind, Kind::Bye | Kind::Quality))
        .map(|c| Rule {
            rule_id: format!("{document} {}", c.id),
            text: c.text,
            measure: c.measure,
        })
        .collect()
}

/// C.04.4.2 (2026): the PAB first (art. 3.1), then C5-C8; no float-history criteria.
fn burstein_rules() -> Vec<Rule> {
    let rule = |id: &str, text: &'static str, measure: Measure| Rule {
        rule_id: format!("C.04.4.2 {id}"),
        text,
        measure,
    };
    vec![
        rule(
            "3.1",
            "the PAB goes to the lowest score (then the most games played)",
            Measure::ByeScore,
        ),
        rule("C5", "maximise the number of pairs", Measure::Downfloaters),
        rule(
            "C6",
            "minimise the scores, highest first, of the outgoing floaters",
            Measure::DownfloaterScores,
        ),
        rule(
            "C7",
            "choose the outgoing floaters so that C1-C6 hold in the next bracket as well as possible",
            Measure::NextBracket,
        ),
        rule(
            "C8",
            "minimise the players who do not get their colour preference",
            Measure::ColourPreferences,
        ),
    ]
}

/// The facts of the Dutch field, by player.
struct Facts<'a> {
    field: &'a Field,
    at: BTreeMap<PlayerIdx, usize>,
    colours: &'a History,
    /// 2017: the scoregroup the answer paired as the penultimate pairing bracket (A.9,
    /// C.4), from its explanation; C.7 holds neither there nor below (the collapsed last
    /// bracket).
    ppb: Option<Score>,
}

impl Facts<'_> {
    fn entrant(&self, p: PlayerIdx) -> Option<&Entrant> {
        self.at.get(&p).map(|&i| &self.field.entrants[i])
    }
    fn score(&self, p: PlayerIdx) -> Score {
        self.entrant(p).map_or(Score::ZERO, |e| e.score)
    }
    fn rank(&self, p: PlayerIdx) -> usize {
        self.at.get(&p).copied().unwrap_or(usize::MAX)
    }
}

/// One bracket of one pairing in the downfloat model (Dutch, Burstein): the pairs made in
/// it (a pair belongs to the bracket of its lower score) and who leaves it unpaired.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Bracket {
    pairs: BTreeSet<(PlayerIdx, PlayerIdx)>,
    /// Board colours of those pairs, `(white, black)`.
    boards: Vec<(PlayerIdx, PlayerIdx)>,
    /// Residents and MDPs not paired here, in pairing order.
    floaters: Vec<PlayerIdx>,
    residents: Vec<PlayerIdx>,
}

fn brackets(facts: &Facts, scores: &[Score], p: &RoundPairing) -> Vec<Bracket> {
    let mut out = Vec::with_capacity(scores.len());
    let mut carried: Vec<PlayerIdx> = Vec::new();
    for &s in scores {
        let mut b = Bracket::default();
        let mut paired = BTreeSet::new();
        for board in &p.boards {
            let (w, k) = (board.white, board.black);
            if facts.score(w).min(facts.score(k)) == s {
                b.pairs.insert((w.min(k), w.max(k)));
                b.boards.push((w, k));
                paired.insert(w);
                paired.insert(k);
            }
        }
        b.residents = facts
            .field
            .entrants
            .iter()
            .filter(|e| e.score == s)
            .map(|e| e.player)
            .collect();
        let mut present = carried.clone();
        present.extend(b.residents.iter().copied());
        b.floaters = present
            .into_iter()
            .filter(|q| !paired.contains(q))
            .collect();
        b.floaters.sort_by_key(|&q| facts.rank(q));
        carried = b.floaters.clone();
        out.push(b);
    }
    out
}

/// The distinct scores of a field, highest first: its scoregroups, walked from the top.
fn score_groups(scores: impl Iterator<Item = Score>) -> Vec<Score> {
    let mut scores: Vec<Score> = scores.collect();
    scores.sort_by(|a, b| b.cmp(a));
    scores.dedup();
    scores
}

fn show_scores(list: &[Score]) -> String {
    if list.is_empty() {
        return "none".to_string();
    }
    list.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The scoregroup a 2017 pairing paired as its penultimate pairing bracket: the bracket
/// whose explanation records C.4 (its best pairing alone left the round unpairable, so it
/// was paired again with everybody below, A.9).
fn ppb_of(p: &RoundPairing, scores: &[Score]) -> Option<Score> {
    let completion = dutch_criteria::id(dutch_criteria::DUTCH_2017, Measure::Completion);
    let group = p.explanation.groups.iter().find(|g| {
        g.steps
            .iter()
            .any(|s| s.rule_id == completion || s.rule_id.ends_with(&format!(" {completion}")))
    })?;
    scores
        .iter()
        .copied()
        .find(|s| group.label == format!("bracket {s}"))
}

/// 2017 C.7 outside the PPB and the collapsed last bracket, as the engine (and the
/// reference) reads it: the next bracket as it could be paired, its most pairs among this
/// bracket's downfloaters and its residents (C.1, C.3), then the least A.8 differences of
/// the downfloaters it cannot take; completion below is not part of it (the 2017 engine
/// checks completion on the bracket's own pairs only, A.9 then makes a PPB).
fn next_bracket_2017(facts: &Facts, b: &Bracket, next: &Bracket) -> Value {
    let reach = next_bracket_reach(facts, &b.floaters, &next.residents);
    let next_score = next
        .residents
        .first()
        .map_or(Score::ZERO, |&q| facts.score(q));
    let left: Vec<PlayerIdx> = b
        .floaters
        .iter()
        .copied()
        .filter(|q| !reach.taken.contains(q))
        .collect();
    // A.8: a downfloater left unpaired counts his score less one point under the next
    // bracket's score.
    let mut d: Vec<Score> = left
        .iter()
        .map(|&q| facts.score(q) - next_score + Score::points(1))
        .collect();
    d.sort_by(|a, b| b.cmp(a));
    let mut key = vec![-(reach.pairs as i64)];
    key.extend(d.iter().map(|s| s.tenths()));
    Value {
        key,
        shown: format!(
            "the next bracket can make {} pair(s), leaving downfloater(s) with differences {}",
            reach.pairs,
            show_scores(&d)
        ),
        players: left,
    }
}

/// What the next bracket could make of a bracket's downfloaters (C8, 2017 C.7).
struct Reach {
    /// The most pairs among the downfloaters and the next scoregroup.
    pairs: usize,
    /// Downfloaters a maximum pairing of the next bracket takes, the highest scores first
    /// (the matching matroid's greedy basis: every set of vertices some matching covers
    /// extends to one a maximum matching covers).
    taken: Vec<PlayerIdx>,
}

fn next_bracket_reach(facts: &Facts, floaters: &[PlayerIdx], residents: &[PlayerIdx]) -> Reach {
    let vertices: Vec<usize> = floaters
        .iter()
        .chain(residents)
        .filter_map(|q| facts.at.get(q).copied())
        .collect();
    let n_floaters = floaters.iter().filter(|q| facts.at.contains_key(q)).count();
    let n = vertices.len();
    // Two downfloaters of one bracket do not meet in the next (B.2: MDPs are not paired
    // with each other).
    let edge = |a: usize, b: usize| {
        a != b
            && (a >= n_floaters || b >= n_floaters)
            && facts.field.compatible(vertices[a], vertices[b])
    };
    let pairs = crate::matching::cardinality::maximum_matching_size(n, edge);
    // Whether some matching covers every vertex in `must`: a perfect matching of the
    // graph where each other vertex may instead take its own copy, the copies pair among
    // themselves, and one extra vertex fixes the parity.
    let coverable = |must: &[bool]| {
        let copies: Vec<usize> = (0..n).filter(|&v| !must[v]).collect();
        let total = n + copies.len();
        let extra = total % 2 == 1;
        let size = total + usize::from(extra);
        crate::matching::cardinality::has_perfect_matching(size, |a, b| {
            let (a, b) = (a.min(b), a.max(b));
            if b < n {
                edge(a, b)
            } else if a < n {
                b < total && copies[b - n] == a
            } else {
                a != b
            }
        })
    };
    let mut order: Vec<usize> = (0..n_floaters).collect();
    order.sort_by_key(|&v| {
        let e = &facts.field.entrants[vertices[v]];
        (std::cmp::Reverse(e.score), vertices[v])
    });
    let mut must = vec![false; n];
    let mut taken = Vec::new();
    for v in order {
        must[v] = true;
        if coverable(&must) {
            taken.push(facts.field.entrants[vertices[v]].player);
        } else {
            must[v] = false;
        }
    }
    Reach { pairs, taken }
}

/// The value of one Dutch-family criterion in bracket `i` of a pairing.
fn dutch_value(
    facts: &Facts,
    measure: Measure,
    all: &[Bracket],
    i: usize,
    bracket_score: Score,
) -> Option<Value> {
    let b = &all[i];
    let field = facts.field;
    let edition = field.edition;
    let floater_scores = |b: &Bracket| -> Vec<Score> {
        let mut v: Vec<Score> = b.floaters.iter().map(|&q| facts.score(q)).collect();
        v.sort_by(|a, b| b.cmp(a));
        v
    };
    // The pair's higher-ranked entrant first, as the criteria read it.
    let ordered = |&(a, c): &(PlayerIdx, PlayerIdx)| {
        if facts.rank(a) <= facts.rank(c) {
            (a, c)
        } else {
            (c, a)
        }
    };
    let pairs: Vec<(&Entrant, &Entrant)> = b
        .pairs
        .iter()
        .map(ordered)
        .filter_map(|(h, l)| Some((facts.entrant(h)?, facts.entrant(l)?)))
        .collect();
    let counted = |test: &dyn Fn(&Entrant, &Entrant) -> Option<PlayerIdx>| -> Vec<PlayerIdx> {
        pairs.iter().filter_map(|(h, l)| test(h, l)).collect()
    };
    // 2017 C.12/C.14 count every player who downfloats again; 2026 C14/C16 the resident
    // downfloaters (and MDPs paired lower are not downfloaters of this bracket).
    let repeated_down = |rounds_ago: u8| -> Vec<PlayerIdx> {
        let mut v: Vec<PlayerIdx> = b
            .floaters
            .iter()
            .filter_map(|&q| facts.entrant(q))
            .filter(|e| edition == Edition::E2017 || e.score == bracket_score)
            .filter(|e| dutch_criteria::had_downfloat(e, rounds_ago))
            .map(|e| e.player)
            .collect();
        if edition == Edition::E2017 {
            v.extend(counted(&|h, l| {
                (h.score > l.score && dutch_criteria::had_downfloat(h, rounds_ago))
                    .then_some(h.player)
            }));
        }
        v
    };
    // A.8 (2017): a downfloater's difference is to an artificial value one point below
    // the bracket's score.
    let floater_difference = |e: &Entrant| e.score - bracket_score + Score::points(1);
    let score_differences = |down: bool, rounds_ago: u8| -> Value {
        if down {
            // Who leaves the bracket again after a downfloat `rounds_ago` rounds before:
            // 2026 C18/C20 rank the residents and MDPs left unpaired by score, highest first
            // (the engine's weights reward pairing the highest of them); 2017
            // C.16/C.18 take every repeater's score difference (A.8), an MDP paired lower
            // too.
            let mut diffs: Vec<(Score, PlayerIdx)> = b
                .floaters
                .iter()
                .filter_map(|&q| facts.entrant(q))
                .filter(|e| dutch_criteria::float_before(e, rounds_ago) == Float::Down)
                .map(|e| {
                    if edition == Edition::E2017 {
                        (floater_difference(e), e.player)
                    } else {
                        (e.score, e.player)
                    }
                })
                .collect();
            if edition == Edition::E2017 {
                diffs.extend(
                    pairs
                        .iter()
                        .filter(|(h, l)| {
                            h.score > l.score
                                && dutch_criteria::float_before(h, rounds_ago) == Float::Down
                        })
                        .map(|(h, l)| (h.score - l.score, h.player)),
                );
            }
            diffs.sort_by_key(|d| std::cmp::Reverse(d.0));
            let what = if edition == Edition::E2017 {
                "score differences"
            } else {
                "scores of repeated downfloaters"
            };
            return Value {
                key: diffs.iter().map(|d| d.0.tenths()).collect(),
                shown: format!(
                    "{what} {}",
                    show_scores(&diffs.iter().map(|d| d.0).collect::<Vec<_>>())
                ),
                players: diffs.iter().map(|d| d.1).collect(),
            };
        }
        let mut diffs: Vec<(Score, PlayerIdx)> = pairs
            .iter()
            .filter(|(h, l)| h.score > l.score)
            .filter_map(|(h, l)| {
                let who = if down {
                    dutch_criteria::float_before(h, rounds_ago) == Float::Down
                } else {
                    dutch_criteria::float_before(l, rounds_ago) == Float::Up
                };
                who.then_some((h.score - l.score, if down { h.player } else { l.player }))
            })
            .collect();
        diffs.sort_by_key(|d| std::cmp::Reverse(d.0));
        Value {
            key: diffs.iter().map(|d| d.0.tenths()).collect(),
            shown: format!(
                "score differences {}",
                show_scores(&diffs.iter().map(|d| d.0).collect::<Vec<_>>())
            ),
            players: diffs.iter().map(|d| d.1).collect(),
        }
    };
    // C10/C11: after this round's colours, a topscorer (or his opponent) beyond ±2 or
    // with three of a colour in a row (topscorers exist only when pairing the last round).
    let topscorer_colours = |run: bool| -> Vec<PlayerIdx> {
        if !field.last_round {
            return Vec::new();
        }
        let mut v = Vec::new();
        for &(w, k) in &b.boards {
            let (Some(ew), Some(ek)) = (facts.entrant(w), facts.entrant(k)) else {
                continue;
            };
            if !(field.is_topscorer(ew) || field.is_topscorer(ek)) {
                continue;
            }
            for (e, c) in [(ew, Colour::White), (ek, Colour::Black)] {
                let mut colours = facts.colours.player(e.player).colours.clone();
                colours.push(c);
                let bad = if run {
                    colours.len() >= 3 && colours[colours.len() - 3..].iter().all(|&x| x == c)
                } else {
                    let w = colours.iter().filter(|&&x| x == Colour::White).count() as i64;
                    (2 * w - colours.len() as i64).abs() > 2
                };
                if bad {
                    v.push(e.player);
                }
            }
        }
        v
    };
    let value = match measure {
        Measure::Downfloaters => Value::count(
            b.floaters.clone(),
            format!("{} downfloater(s)", b.floaters.len()),
        ),
        Measure::DownfloaterScores if edition == Edition::E2017 => {
            // C.6 (A.8): the pairing score difference, sorted highest first: each pair's
            // difference and each downfloater's difference to one point below the bracket.
            let mut v: Vec<Score> = pairs.iter().map(|(h, l)| h.score - l.score).collect();
            v.extend(
                b.floaters
                    .iter()
                    .filter_map(|&q| facts.entrant(q))
                    .map(floater_difference),
            );
            v.sort_by(|a, b| b.cmp(a));
            Value {
                key: v.iter().map(|s| s.tenths()).collect(),
                shown: format!("pairing score difference {}", show_scores(&v)),
                players: b.floaters.clone(),
            }
        }
        Measure::DownfloaterScores => {
            let v = floater_scores(b);
            Value {
                key: v.iter().map(|s| s.tenths()).collect(),
                shown: format!("downfloater scores {}", show_scores(&v)),
                players: b.floaters.clone(),
            }
        }
        Measure::NextBracket => {
            let next = all.get(i + 1)?;
            if edition == Edition::E2017 && facts.ppb.is_some_and(|p| bracket_score <= p) {
                return None;
            }
            if edition == Edition::E2017 && i + 2 < all.len() {
                return Some(next_bracket_2017(facts, b, next));
            }
            // C8 (and 2017 C.7 before the last scoregroup, which asks for completion): the
            // next bracket as paired, its downfloaters and their scores. The 2026 engine
            // counts the next scoregroup's pairs where they extend to a complete pairing
            // (C4 is checked on them, else everybody below joins the graph): the next
            // bracket as paired is that reading wherever its own later choice agrees.
            let v = floater_scores(next);
            let mut key = vec![next.floaters.len() as i64];
            key.extend(v.iter().map(|s| s.tenths()));
            Value {
                key,
                shown: format!(
                    "the next bracket leaves {} downfloater(s) (scores {})",
                    next.floaters.len(),
                    show_scores(&v)
                ),
                players: next.floaters.clone(),
            }
        }
        Measure::ByeUnplayedGames => {
            if i + 1 != all.len() {
                return None;
            }
            let unplayed: Vec<(i64, PlayerIdx)> = b
                .floaters
                .iter()
                .filter_map(|&q| facts.entrant(q))
                .map(|e| {
                    (
                        i64::from(field.rounds_played) - i64::from(e.played),
                        e.player,
                    )
                })
                .collect();
            Value {
                key: unplayed.iter().map(|u| u.0).collect(),
                shown: format!(
                    "the PAB assignee's unplayed games: {}",
                    unplayed
                        .iter()
                        .map(|u| u.0.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                players: unplayed.iter().map(|u| u.1).collect(),
            }
        }
        Measure::TopscorerColourDifference => {
            let v = topscorer_colours(false);
            Value::count(
                v.clone(),
                format!("{} topscorer(s) or opponents beyond ±2", v.len()),
            )
        }
        Measure::TopscorerColourRun => {
            let v = topscorer_colours(true);
            Value::count(
                v.clone(),
                format!(
                    "{} topscorer(s) or opponents with a colour three times in a row",
                    v.len()
                ),
            )
        }
        Measure::ColourPreferences => {
            let v =
                counted(&|h, l| dutch_criteria::fails_colour_preference(h, l).then_some(l.player));
            let players = pair_players(&pairs, &v);
            Value::count(
                v.clone(),
                format!("{} player(s) without their colour preference", v.len()),
            )
            .with_players(players)
        }
        Measure::StrongColourPreferences => {
            let v =
                counted(&|h, l| dutch_criteria::fails_strong_preference(h, l).then_some(l.player));
            let players = pair_players(&pairs, &v);
            Value::count(
                v.clone(),
                format!(
                    "{} player(s) without their strong colour preference",
                    v.len()
                ),
            )
            .with_players(players)
        }
        Measure::RepeatedDownfloat1 | Measure::RepeatedDownfloat2 => {
            let ago = if measure == Measure::RepeatedDownfloat1 {
                1
            } else {
                2
            };
            let v = repeated_down(ago);
            Value::count(
                v.clone(),
                format!(
                    "{} downfloater(s) who downfloated {}",
                    v.len(),
                    rounds_ago(ago)
                ),
            )
        }
        Measure::RepeatedUpfloat1 | Measure::RepeatedUpfloat2 => {
            let ago = if measure == Measure::RepeatedUpfloat1 {
                1
            } else {
                2
            };
            let v = counted(&|h, l| dutch_criteria::repeats_upfloat(h, l, ago).then_some(l.player));
            Value::count(
                v.clone(),
                format!(
                    "{} MDP opponent(s) who upfloated {}",
                    v.len(),
                    rounds_ago(ago)
                ),
            )
        }
        Measure::DownfloatScoreDifference1 => score_differences(true, 1),
        Measure::UpfloatScoreDifference1 => score_differences(false, 1),
        Measure::DownfloatScoreDifference2 => score_differences(true, 2),
        Measure::UpfloatScoreDifference2 => score_differences(false, 2),
        // Round-wide or absolute: not a bracket's value.
        _ => return None,
    };
    Some(value)
}

impl Value {
    fn with_players(mut self, players: Vec<PlayerIdx>) -> Value {
        self.players = players;
        self
    }
}

/// Both players of every pair whose lower player is in `lows` (a colour preference is
/// failed by the pair: either player may be the one who gives way).
fn pair_players(pairs: &[(&Entrant, &Entrant)], lows: &[PlayerIdx]) -> Vec<PlayerIdx> {
    pairs
        .iter()
        .filter(|(_, l)| lows.contains(&l.player))
        .flat_map(|(h, l)| [h.player, l.player])
        .collect()
}

fn rounds_ago(ago: u8) -> &'static str {
    if ago == 1 {
        "in the previous round"
    } else {
        "two rounds before"
    }
}

/// The PAB's criterion (Dutch 2026 C5, Burstein 3.1): the assignee's score, lower first;
/// Burstein then prefers the most games played.
fn bye_value(facts: &Facts, p: &RoundPairing, games_too: bool) -> Value {
    pab_value(
        p,
        |q| facts.score(q),
        games_too.then_some(|q| facts.entrant(q).map_or(0, |e| e.played)),
    )
}

/// The PAB's value in any system: its assignee's score (lower first), then, where the
/// system counts them (`games`), his games played (more first).
fn pab_value(
    p: &RoundPairing,
    score: impl Fn(PlayerIdx) -> Score,
    games: Option<impl Fn(PlayerIdx) -> u32>,
) -> Value {
    let pab = pab_of(p);
    let mut key = Vec::new();
    for &q in &pab {
        key.push(score(q).tenths());
        if let Some(games) = &games {
            key.push(-i64::from(games(q)));
        }
    }
    Value {
        key,
        shown: if pab.is_empty() {
            "no PAB".to_string()
        } else {
            format!(
                "the PAB assignee scores {}",
                show_scores(&pab.iter().map(|&q| score(q)).collect::<Vec<_>>())
            )
        },
        players: pab,
    }
}

fn dutch_family(
    round: &RoundToPair,
    history: &History,
    first: &RoundPairing,
    second: &RoundPairing,
    rules: Vec<Rule>,
    order_rule: &'static str,
) -> Comparison {
    let field = Field::build(round, history);
    let at = field
        .entrants
        .iter()
        .enumerate()
        .map(|(i, e)| (e.player, i))
        .collect();
    let scores = score_groups(field.entrants.iter().map(|e| e.score));
    let facts = Facts {
        field: &field,
        at,
        colours: history,
        ppb: (field.edition == Edition::E2017)
            .then(|| ppb_of(first, &scores))
            .flatten(),
    };
    // The PAB's criterion is round-wide and comes first where the system has one.
    let burstein_bye = rules
        .first()
        .is_some_and(|r| r.rule_id.starts_with("C.04.4.2"));
    for rule in rules.iter().filter(|r| r.measure == Measure::ByeScore) {
        let (a, b) = (
            bye_value(&facts, first, burstein_bye),
            bye_value(&facts, second, burstein_bye),
        );
        if a.key != b.key {
            return differ(rule, None, a, b);
        }
        // Burstein chooses the PAB before any bracket (art. 3.1): between assignees of the
        // same score and games, its order (the Index) decided, whatever follows.
        if burstein_bye && a.players != b.players {
            return Comparison::Tie {
                bracket: None,
                order_rule: "C.04.4.2 3.1",
                players: [a.players, b.players].concat(),
            };
        }
    }
    let one = brackets(&facts, &scores, first);
    let two = brackets(&facts, &scores, second);
    for i in 0..scores.len() {
        if one[i].pairs == two[i].pairs && one[i].floaters == two[i].floaters {
            continue;
        }
        let same_floaters = {
            let mut x = one[i].floaters.clone();
            let mut y = two[i].floaters.clone();
            x.sort_unstable();
            y.sort_unstable();
            x == y
        };
        for rule in rules.iter().filter(|r| r.measure != Measure::ByeScore) {
            // The next bracket's criterion compares only different sets of downfloaters.
            if rule.measure == Measure::NextBracket && same_floaters {
                continue;
            }
            let (Some(a), Some(b)) = (
                dutch_value(&facts, rule.measure, &one, i, scores[i]),
                dutch_value(&facts, rule.measure, &two, i, scores[i]),
            ) else {
                continue;
            };
            if a.key != b.key {
                return differ(rule, Some(scores[i]), a, b);
            }
        }
        let mut players: BTreeSet<PlayerIdx> = BTreeSet::new();
        for (x, y) in [(&one[i], &two[i]), (&two[i], &one[i])] {
            for &(a, b) in x.pairs.difference(&y.pairs) {
                players.insert(a);
                players.insert(b);
            }
        }
        return Comparison::Tie {
            bracket: Some(scores[i]),
            order_rule,
            players: players.into_iter().collect(),
        };
    }
    // Same pairs in every bracket: only the PAB can differ, and it tied.
    Comparison::Tie {
        bracket: None,
        order_rule,
        players: [pab_of(first), pab_of(second)].concat(),
    }
}

fn differ(rule: &Rule, bracket: Option<Score>, a: Value, b: Value) -> Comparison {
    difference(rule.rule_id.clone(), rule.text, bracket, a, b, Some)
}

/// Dubov (C.04.4.1): the PAB first (art. 3.1: lowest score, then most games), then each
/// scoregroup top-down with the upfloaters it draws from below: C5 fewest upfloaters, C6
/// their scores as high as possible (ascending), C7 colour preferences, and outside the
/// last round C8-C10 on maximum and repeated upfloaters. A pair belongs to the bracket of
/// its higher score.
fn dubov_compare(
    round: &RoundToPair,
    history: &History,
    first: &RoundPairing,
    second: &RoundPairing,
) -> Comparison {
    let field = dubov::players::Field::build(round, history);
    let at: BTreeMap<PlayerIdx, usize> = field
        .entrants
        .iter()
        .enumerate()
        .map(|(i, e)| (e.player, i))
        .collect();
    let entrant = |p: PlayerIdx| at.get(&p).map(|&i| (i, &field.entrants[i]));
    let score = |p: PlayerIdx| entrant(p).map_or(Score::ZERO, |(_, e)| e.score);
    let rule = |id: &str, text: &'static str| Rule {
        rule_id: format!("C.04.4.1 {id}"),
        text,
        measure: Measure::ByeScore,
    };
    // The PAB (art. 3.1).
    let bye = |p: &RoundPairing| -> Value {
        pab_value(p, score, Some(|q| entrant(q).map_or(0, |(_, e)| e.played)))
    };
    let (a, b) = (bye(first), bye(second));
    if a.key != b.key {
        return differ(
            &rule(
                "art. 3.1",
                "the PAB goes to the lowest score, then the most games played",
            ),
            None,
            a,
            b,
        );
    }
    // The PAB is chosen before any bracket (art. 3.1): between assignees of the same score
    // and games, the largest TPN decided, whatever follows.
    if a.players != b.players {
        return Comparison::Tie {
            bracket: None,
            order_rule: "C.04.4.1 art. 3.1",
            players: [a.players, b.players].concat(),
        };
    }
    let scores = score_groups(field.entrants.iter().map(|e| e.score));
    let pairs_at = |p: &RoundPairing, s: Score| -> BTreeSet<(PlayerIdx, PlayerIdx)> {
        p.boards
            .iter()
            .filter(|b| score(b.white).max(score(b.black)) == s)
            .map(|b| (b.white.min(b.black), b.white.max(b.black)))
            .collect()
    };
    let criteria: Vec<(Rule, bool)> = vec![
        (rule("C5", "minimise the number of upfloaters"), true),
        (
            rule(
                "C6",
                "maximise the upfloaters' scores, taken in ascending order",
            ),
            true,
        ),
        (
            rule(
                "C7",
                "minimise the players who do not get their colour preference",
            ),
            true,
        ),
        (
            rule("C8", "minimise the upfloaters who are maximum upfloaters"),
            false,
        ),
        (
            rule("C9", "minimise the times a maximum upfloater is upfloated"),
            false,
        ),
        (
            rule(
                "C10",
                "minimise the upfloaters who upfloated in the previous round",
            ),
            false,
        ),
    ];
    for &s in &scores {
        let (one, two) = (pairs_at(first, s), pairs_at(second, s));
        if one == two {
            continue;
        }
        let value = |pairs: &BTreeSet<(PlayerIdx, PlayerIdx)>, k: usize| -> Value {
            let mut up: Vec<PlayerIdx> = pairs
                .iter()
                .flat_map(|&(a, b)| [a, b])
                .filter(|&q| score(q) < s)
                .collect();
            up.sort_by_key(|&q| (score(q), at.get(&q).copied()));
            match k {
                0 => Value::count(up.clone(), format!("{} upfloater(s)", up.len())),
                1 => {
                    let v: Vec<Score> = up.iter().map(|&q| score(q)).collect();
                    Value {
                        key: v.iter().map(|x| -x.tenths()).collect(),
                        shown: format!("upfloater scores {}", show_scores(&v)),
                        players: up,
                    }
                }
                2 => {
                    let v: Vec<PlayerIdx> = pairs
                        .iter()
                        .filter(|&&(a, b)| {
                            matches!((entrant(a), entrant(b)), (Some((_, x)), Some((_, y))) if x.pref == y.pref)
                        })
                        .flat_map(|&(a, b)| [a, b])
                        .collect();
                    Value {
                        key: vec![(v.len() / 2) as i64],
                        shown: format!("{} player(s) without their colour preference", v.len() / 2),
                        players: v,
                    }
                }
                3 => {
                    let v: Vec<PlayerIdx> = up
                        .iter()
                        .copied()
                        .filter(|&q| entrant(q).is_some_and(|(i, _)| field.is_max_upfloater(i)))
                        .collect();
                    Value::count(v.clone(), format!("{} maximum upfloater(s)", v.len()))
                }
                4 => {
                    let times: i64 = up
                        .iter()
                        .filter_map(|&q| entrant(q))
                        .filter(|(i, _)| field.is_max_upfloater(*i))
                        .map(|(_, e)| i64::from(e.upfloats) + 1)
                        .sum();
                    Value {
                        key: vec![times],
                        shown: format!("maximum upfloaters upfloated {times} time(s)"),
                        players: up,
                    }
                }
                _ => {
                    let v: Vec<PlayerIdx> = up
                        .iter()
                        .copied()
                        .filter(|&q| entrant(q).is_some_and(|(_, e)| e.upfloated_last))
                        .collect();
                    Value::count(
                        v.clone(),
                        format!(
                            "{} upfloater(s) who upfloated in the previous round",
                            v.len()
                        ),
                    )
                }
            }
        };
        for (k, (rule, always)) in criteria.iter().enumerate() {
            // C8-C10 are not applied in the last round.
            if !always && field.last_round {
                continue;
            }
            let (a, b) = (value(&one, k), value(&two, k));
            if a.key != b.key {
                return differ(rule, Some(s), a, b);
            }
        }
        let players: BTreeSet<PlayerIdx> = one
            .symmetric_difference(&two)
            .flat_map(|&(a, b)| [a, b])
            .collect();
        return Comparison::Tie {
            bracket: Some(s),
            order_rule: "C.04.4.1 art. 3.2",
            players: players.into_iter().collect(),
        };
    }
    Comparison::Tie {
        bracket: None,
        order_rule: "C.04.4.1 art. 3.1",
        players: [pab_of(first), pab_of(second)].concat(),
    }
}
