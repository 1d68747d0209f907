//! The vocabulary in which a system compares two pairings of one round for "why not?"
//! (`check::why`): where they part ([`Comparison`]), the first criterion on which they
//! differ ([`Difference`]), one side's value of a criterion ([`Value`]) and the one way a
//! difference is reported ([`difference`]). Each system's comparer lives in its folder
//! (`System::compare`) and speaks this vocabulary; the Dutch family's bracket-by-bracket
//! comparer, shared by the Dutch and Burstein systems, is `common::fide_criteria`.
use std::collections::BTreeSet;

use crate::model::{PlayerIdx, Score};
use crate::systems::RoundPairing;

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

/// One criterion's value on one side: a key compared lexicographically (smaller is
/// better), its words, and whom it counts (players, or indices into a system's own field,
/// which [`difference`] names as players).
#[derive(Clone, Debug)]
pub struct Value<P = PlayerIdx> {
    pub key: Vec<i64>,
    pub shown: String,
    pub players: Vec<P>,
}

/// SEP-5.1 placed first: the pairs of a whole round (`pairs`) that `within` says are within
/// a separated group, as a comparison value, fewest first; `noun` names what a pair is
/// ("pair(s)", "match(es)").
pub fn round_within<P: Copy>(
    pairs: impl Iterator<Item = (P, P)>,
    within: impl Fn(P, P) -> bool,
    noun: &str,
) -> Value<P> {
    let players: Vec<P> = pairs
        .filter(|&(a, b)| within(a, b))
        .flat_map(|(a, b)| [a, b])
        .collect();
    Value {
        key: vec![(players.len() / 2) as i64],
        shown: format!(
            "{} {noun} within a separated group in the round",
            players.len() / 2
        ),
        players,
    }
}

/// Where two sides part on a criterion: which is better (the smaller key), both values in
/// words, and whom the criterion counts on the worse side, named as players by `name`
/// (`None`: nobody to name).
/// Every system's comparison reports its first differing criterion through this.
pub fn difference<P: Copy>(
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
    pub fn count(players: Vec<PlayerIdx>, shown: String) -> Value {
        Value {
            key: vec![players.len() as i64],
            shown,
            players,
        }
    }
}

/// Whether two pairings have the same pairs (colours aside) and the same PAB.
pub fn same(a: &RoundPairing, b: &RoundPairing) -> bool {
    pairs_of(a) == pairs_of(b) && pab_of(a) == pab_of(b)
}

pub fn pairs_of(p: &RoundPairing) -> BTreeSet<(PlayerIdx, PlayerIdx)> {
    p.boards
        .iter()
        .map(|b| (b.white.min(b.black), b.white.max(b.black)))
        .collect()
}

pub fn pab_of(p: &RoundPairing) -> Vec<PlayerIdx> {
    let mut v: Vec<PlayerIdx> = p
        .byes
        .iter()
        .filter(|b| b.kind.is_pairing_allocated())
        .map(|b| b.player)
        .collect();
    v.sort_unstable();
    v
}

impl Value {
    pub fn with_players(mut self, players: Vec<PlayerIdx>) -> Value {
        self.players = players;
        self
    }
}

/// The PAB's value in any system: its assignee's score (lower first), then, where the
/// system counts them (`games`), his games played (more first).
pub fn pab_value(
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

/// Scores in words, for a criterion's value.
pub fn show_scores(list: &[Score]) -> String {
    if list.is_empty() {
        return "none".to_string();
    }
    list.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A system that gives the PAB before pairing the others, whatever they leave (Burstein's
/// profile BBP reads C.04.4.2 3.1 so): "why not?" answers a pair with the PAB's receiver
/// as impossible, and a bye for another player by the PAB's rule alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PabFirst {
    /// The rule id (`C.04.4.2 3.1`).
    pub rule: &'static str,
    /// How the system gives the PAB, in words.
    pub how: &'static str,
    /// What follows for a bye elsewhere, in words.
    pub consequence: &'static str,
}

/// A bye for another player under [`PabFirst`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PabFirstBye {
    /// The player may not have it: the question is answered by the absolute rules.
    NotEligible,
    /// The PAB's rule prefers the bye the system gave.
    Worse(Difference),
    /// The two tie on the PAB's rule; the system's order chose (its words).
    Tie(String),
}

/// How every system's comparer starts: `Same` when the two pairings have the same pairs and
/// PAB, else what `compare` says.
pub fn unless_same(
    first: &RoundPairing,
    second: &RoundPairing,
    compare: impl FnOnce() -> Option<Comparison>,
) -> Option<Comparison> {
    if same(first, second) {
        Some(Comparison::Same)
    } else {
        compare()
    }
}
