//! Two pairings of a round compared in the order of Burstein's profile BBP (bbpPairings 6's
//! `--burstein` reading, `systems::burstein::bbp`), which is not the 2026 text's:
//!
//! 1. **the PAB** (C.04.4.2 3.1 as that engine reads it): the lowest-ranked player, in the
//!    order of score (with the profile's virtual points) then the Index, who has had no PAB
//!    and no forfeit win, chosen before pairing. A PAB to a higher score is worse; between
//!    equal scores the Index order chose;
//! 2. then the scoregroups from the top (a pair belongs to the bracket of its lower score;
//!    the players a bracket leaves unpaired float into the next). The engine's one
//!    matching maximises, in the bracket being fixed and every bracket below it, the pairs
//!    within scoregroups (C5: a player floats at most one scoregroup down), so the
//!    downfloats from this bracket down, fewest first;
//! 3. then, in that bracket, the pairs whose colour preferences agree (differ, or one has
//!    none), most first (C8 as the engine weighs it);
//!    A weak separation (SEP-5) at its default place comes between 2 and 3: the bracket's
//!    pairs within a weak group, fewest first; placed last, between 3 and 4; placed first,
//!    the round's pairs within a group come before 1, and a player may then float more
//!    than one scoregroup down;
//! 4. the rest is the engine's rule of order: each player in Index order takes the
//!    lowest-ranked opponent that keeps an optimal matching ("1 v n", C.04.4.2 4.3).
//!
//! Since the profile gives the PAB before pairing whatever the others, a bye for another
//! eligible player, or a pair with the PAB's receiver, has no pairing of this profile: the
//! first is answered by 3.1 alone (worse, or the Index's choice), the second is impossible
//! under 3.1.
//!
//! The scores, the Index order, the colour preferences and the PAB's eligibility are the
//! profile's own (`bbp::metrics`, `bbp::pairing_order`, `bbp::prefs_agree`,
//! `bbp::bye_eligible`).
use std::collections::{BTreeMap, BTreeSet};

use super::bbp;
use crate::model::{PlayerIdx, Score, WeakPlace};
use crate::systems::common::History;
use crate::systems::common::fide_players::{FideText, Field};
use crate::systems::comparison::{
    Comparison, Difference, PabFirst, PabFirstBye, Value, difference,
};
use crate::systems::{RoundPairing, RoundToPair};

/// How the profile gives the PAB (3.1 as bbpPairings reads it), for "why not?".
pub const PAB_FIRST: PabFirst = PabFirst {
    rule: "C.04.4.2 3.1",
    how: "profile BBP gives the PAB before pairing to the lowest-ranked player without a PAB or forfeit win, whatever the others",
    consequence: "profile BBP chooses the PAB before pairing, so it pairs nothing with the bye elsewhere",
};

/// The profile's facts of a round: each player's pairing score (tenths) and place in its
/// pairing order.
struct Facts {
    field: Field,
    score: BTreeMap<PlayerIdx, i64>,
    at: BTreeMap<PlayerIdx, usize>,
}

impl Facts {
    fn build(round: &RoundToPair, history: &History, acceleration_given: bool) -> Facts {
        let field = Field::build(round, history, FideText::Y2026);
        let mut ranks = vec![u32::MAX; round.tournament.players.len()];
        for e in &field.entrants {
            if let Some(r) = ranks.get_mut(e.player) {
                *r = e.rank;
            }
        }
        let metric = bbp::metrics(round, history, &ranks, acceleration_given);
        let order = bbp::pairing_order(&field, &metric);
        let score = order
            .iter()
            .map(|&p| (p, metric.get(p).map_or(0, |m| m.score)))
            .collect();
        let at = field
            .entrants
            .iter()
            .enumerate()
            .map(|(i, e)| (e.player, i))
            .collect();
        Facts { field, score, at }
    }

    fn score(&self, p: PlayerIdx) -> i64 {
        self.score.get(&p).copied().unwrap_or(0)
    }

    fn agree(&self, a: PlayerIdx, b: PlayerIdx) -> bool {
        match (self.at.get(&a), self.at.get(&b)) {
            (Some(&x), Some(&y)) => {
                bbp::prefs_agree(&self.field.entrants[x], &self.field.entrants[y])
            }
            _ => true,
        }
    }
}

fn pab_of(p: &RoundPairing) -> Option<PlayerIdx> {
    p.byes
        .iter()
        .find(|b| b.kind.is_pairing_allocated())
        .map(|b| b.player)
}

fn shown(tenths: i64) -> String {
    Score::from_tenths(tenths).to_string()
}

/// The PAB's criterion (3.1): the assignees' scores, lower first; `None` when they tie.
fn bye_difference(facts: &Facts, first: PlayerIdx, second: PlayerIdx) -> Option<Difference> {
    let (a, b) = (facts.score(first), facts.score(second));
    (a != b).then(|| Difference {
        rule_id: "C.04.4.2 3.1".to_string(),
        criterion: "the PAB goes to the lowest-ranked player (score, then the Index) without a PAB or forfeit win, before pairing",
        bracket: None,
        first_value: format!("the PAB assignee scores {}", shown(a)),
        second_value: format!("the PAB assignee scores {}", shown(b)),
        first_is_better: a < b,
        players: vec![if a < b { second } else { first }],
    })
}

/// Compares two pairings of `round` in profile BBP's order.
pub fn compare(
    round: &RoundToPair,
    history: &History,
    acceleration_given: bool,
    first: &RoundPairing,
    second: &RoundPairing,
) -> Comparison {
    let facts = Facts::build(round, history, acceleration_given);
    // SEP-5.1 placed first: the round's pairs within a group, before the PAB and every
    // bracket (the engine's PAB and its one matching keep the round's fewest).
    let first_place = facts.field.weak.places().contains(&WeakPlace::First);
    if first_place {
        let within = |p: &RoundPairing| {
            crate::systems::comparison::round_within(
                p.boards.iter().map(|b| (b.white, b.black)),
                |x, y| facts.field.weak.within(x, y, WeakPlace::First),
                "pair(s)",
            )
        };
        let (a, b) = (within(first), within(second));
        if a.key != b.key {
            return difference(
                "SEP-5".to_string(),
                "fewest pairs within a weakly separated group in the whole round (placed first: before the PAB and every bracket)",
                None,
                a,
                b,
                Some,
            );
        }
    }
    let (pab_one, pab_two) = (pab_of(first), pab_of(second));
    if pab_one != pab_two {
        if let (Some(x), Some(y)) = (pab_one, pab_two)
            && let Some(d) = bye_difference(&facts, x, y)
        {
            return Comparison::Differ(d);
        }
        return Comparison::Tie {
            bracket: None,
            order_rule: "C.04.4.2 3.1",
            players: [pab_one, pab_two].into_iter().flatten().collect(),
        };
    }
    // The engine's brackets: its scoregroups, merged where one could not be paired with at
    // most one floater, as the answer's explanation lists them; else the scoregroups.
    let listed: Vec<&Vec<PlayerIdx>> = first
        .explanation
        .groups
        .iter()
        .flat_map(|g| g.steps.iter())
        .filter(|s| s.rule_id == bbp::BRACKET_RULE && s.message.starts_with(bbp::BRACKET_STEP))
        .map(|s| &s.players)
        .collect();
    let mut group_of: BTreeMap<PlayerIdx, usize> = BTreeMap::new();
    if listed.is_empty() {
        let mut scores: Vec<i64> = facts.score.values().copied().collect();
        scores.sort_unstable_by(|a, b| b.cmp(a));
        scores.dedup();
        for (&p, s) in &facts.score {
            group_of.insert(p, scores.iter().position(|x| x == s).unwrap_or(0));
        }
    } else {
        for (k, players) in listed.iter().enumerate() {
            for &p in players.iter() {
                group_of.insert(p, k);
            }
        }
    }
    let groups = group_of.values().copied().max().map_or(0, |m| m + 1);
    let group = |p: PlayerIdx| group_of.get(&p).copied().unwrap_or(groups);
    // A bracket's score: its highest player's.
    let bracket_score = |k: usize| {
        group_of
            .iter()
            .filter(|&(_, &g)| g == k)
            .map(|(&p, _)| facts.score(p))
            .max()
            .map(Score::from_tenths)
    };
    let pairs = |p: &RoundPairing| -> BTreeSet<(PlayerIdx, PlayerIdx)> {
        p.boards
            .iter()
            .map(|b| (b.white.min(b.black), b.white.max(b.black)))
            .collect()
    };
    let (one, two) = (pairs(first), pairs(second));
    type Side = Value;
    let make = |rule: &str, criterion, bracket, a: Side, b: Side| {
        difference(rule.to_string(), criterion, bracket, a, b, Some)
    };
    // C5 first, round-wide. The engine's matching joins a bracket only to itself and the
    // next, so a pair across more brackets is one it cannot make. Placed first, a player
    // floats as far as the round's fewest pairs within a group take: the engine then joins
    // every pair of the round and counts the pairs within brackets once, round-wide (its
    // brackets fixed before), then each bracket's colours.
    let (gap, shown, criterion) = if first_place {
        (
            0,
            "across brackets",
            "maximise the pairs within brackets in the round (bbpPairings; a weak separation placed first)",
        )
    } else {
        (
            1,
            "across more than one bracket",
            "a player floats at most one bracket down (bbpPairings)",
        )
    };
    let across = |side: &BTreeSet<(PlayerIdx, PlayerIdx)>| -> Side {
        let v: Vec<PlayerIdx> = side
            .iter()
            .filter(|&&(a, b)| group(a).abs_diff(group(b)) > gap)
            .flat_map(|&(a, b)| [a, b])
            .collect();
        Value {
            key: vec![v.len() as i64 / 2],
            shown: format!("{} pair(s) {shown}", v.len() / 2),
            players: v,
        }
    };
    let (a, b) = (across(&one), across(&two));
    if a.key != b.key {
        return make("C.04.4.2 C5", criterion, None, a, b);
    }
    for k in 0..=groups {
        let at = |side: &BTreeSet<(PlayerIdx, PlayerIdx)>| -> BTreeSet<(PlayerIdx, PlayerIdx)> {
            side.iter()
                .copied()
                .filter(|&(a, b)| group(a).max(group(b)) == k)
                .collect()
        };
        let (x, y) = (at(&one), at(&two));
        if x == y {
            continue;
        }
        let bracket = bracket_score(k);
        // C5 as the engine weighs it: the pairs within brackets in this bracket and every
        // one below (a floater from above pairs within this bracket), so the players who
        // float out of this bracket or a later one.
        let floats = |side: &BTreeSet<(PlayerIdx, PlayerIdx)>| -> Side {
            let v: Vec<PlayerIdx> = side
                .iter()
                .filter(|&&(a, b)| group(a) != group(b) && group(a).max(group(b)) > k)
                .map(|&(a, b)| if group(a) < group(b) { a } else { b })
                .collect();
            Value {
                key: vec![v.len() as i64],
                shown: format!("{} downfloat(s) from this bracket down", v.len()),
                players: v,
            }
        };
        let (a, b) = (floats(&one), floats(&two));
        if !first_place && a.key != b.key {
            return make(
                "C.04.4.2 C5",
                "maximise the pairs within brackets, in this bracket and every one below it (bbpPairings)",
                bracket,
                a,
                b,
            );
        }
        // SEP-5 at its default place: the bracket's pairs within a weak group.
        if let Some(d) = weak_difference(&facts, WeakPlace::Default, &x, &y, bracket) {
            return d;
        }
        // C8 as the engine weighs it: the bracket's pairs whose colour preferences agree.
        let colours = |made: &BTreeSet<(PlayerIdx, PlayerIdx)>| -> Side {
            let agree = made.iter().filter(|&&(p, q)| facts.agree(p, q)).count();
            let clash: Vec<PlayerIdx> = made
                .iter()
                .filter(|&&(p, q)| !facts.agree(p, q))
                .flat_map(|&(p, q)| [p, q])
                .collect();
            Value {
                key: vec![-(agree as i64)],
                shown: format!("{agree} pair(s) whose colour preferences agree"),
                players: clash,
            }
        };
        let (a, b) = (colours(&x), colours(&y));
        if a.key != b.key {
            return make(
                "C.04.4.2 C8",
                "maximise the pairs whose colour preferences agree (bbpPairings' reading)",
                bracket,
                a,
                b,
            );
        }
        if let Some(d) = weak_difference(&facts, WeakPlace::Last, &x, &y, bracket) {
            return d;
        }
        let players: BTreeSet<PlayerIdx> = x
            .symmetric_difference(&y)
            .flat_map(|&(p, q)| [p, q])
            .collect();
        return Comparison::Tie {
            bracket,
            order_rule: "C.04.4.2 4.3",
            players: players.into_iter().collect(),
        };
    }
    Comparison::Same
}

/// SEP-5: the bracket's pairs within a weak group at `place`, fewest first; `None` when no
/// weak separation stands there or the two pairings tie on it.
fn weak_difference(
    facts: &Facts,
    place: WeakPlace,
    one: &BTreeSet<(PlayerIdx, PlayerIdx)>,
    two: &BTreeSet<(PlayerIdx, PlayerIdx)>,
    bracket: Option<Score>,
) -> Option<Comparison> {
    let weak = &facts.field.weak;
    if !weak.places().contains(&place) {
        return None;
    }
    let count = |made: &BTreeSet<(PlayerIdx, PlayerIdx)>| -> Value {
        let within: Vec<(PlayerIdx, PlayerIdx)> = made
            .iter()
            .copied()
            .filter(|&(p, q)| weak.within(p, q, place))
            .collect();
        Value {
            key: vec![within.len() as i64],
            shown: format!("{} pair(s) within a separated group", within.len()),
            players: within.iter().flat_map(|&(p, q)| [p, q]).collect(),
        }
    };
    let (a, b) = (count(one), count(two));
    (a.key != b.key).then(|| {
        difference(
            "SEP-5".to_string(),
            match place {
                WeakPlace::Last => {
                    "fewest pairs within a weakly separated group (placed last: after every criterion)"
                }
                _ => {
                    "fewest pairs within a weakly separated group (after the score-group criteria, before the colour criteria)"
                }
            },
            bracket,
            a,
            b,
            Some,
        )
    })
}

/// The bye for `x` where the profile gave it to `given`: nothing to say when `x` may not
/// have it; else worse by 3.1 (a higher score), or the Index order's choice between equal
/// scores.
pub fn bye_for(
    round: &RoundToPair,
    history: &History,
    acceleration_given: bool,
    given: PlayerIdx,
    x: PlayerIdx,
) -> PabFirstBye {
    if !bbp::bye_eligible(history, x) {
        return PabFirstBye::NotEligible;
    }
    let facts = Facts::build(round, history, acceleration_given);
    match bye_difference(&facts, given, x) {
        Some(d) => PabFirstBye::Worse(d),
        None => {
            let (nx, ng) = (round.id(x), round.id(given));
            PabFirstBye::Tie(format!(
                "{nx} and {ng} have the same score ({}): the PAB goes to the lower of them in the Index order (bbpPairings: Sonneborn-Berger, Buchholz, median, pairing number), {ng}",
                shown(facts.score(x))
            ))
        }
    }
}
