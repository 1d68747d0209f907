//! "Why not?" in Dubov's order (C.04.4.1): two pairings of one round compared on the
//! engine's own facts (`players::Field`), in the shared vocabulary of
//! `systems::comparison`.
use std::collections::{BTreeMap, BTreeSet};

use crate::model::{PlayerIdx, Score, WeakPlace};
use crate::systems::common::History;
use crate::systems::common::fide_compare::{Rule, differ, score_groups};
use crate::systems::common::fide_criteria::Measure;
use crate::systems::comparison::{Comparison, Value, pab_of, pab_value, show_scores};
use crate::systems::{RoundPairing, RoundToPair};

/// Dubov (C.04.4.1): the PAB first (art. 3.1: lowest score, then most games), then each
/// scoregroup top-down with the upfloaters it draws from below: C5 fewest upfloaters, C6
/// their scores as high as possible (ascending), C7 colour preferences, and outside the
/// last round C8-C10 on maximum and repeated upfloaters. A pair belongs to the bracket of
/// its higher score. A weak separation (SEP-5) counts the bracket's pairs within a group,
/// after C6 at its default place, after C10 placed last.
pub fn compare(
    round: &RoundToPair,
    history: &History,
    first: &RoundPairing,
    second: &RoundPairing,
) -> Comparison {
    let field = super::players::Field::build(round, history);
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
    // SEP-5.1 placed first: the round's pairs within a group, before the PAB and every
    // bracket (the procedure keeps the round's fewest reachable throughout).
    if field.weak.places().contains(&WeakPlace::First) {
        let within = |p: &RoundPairing| {
            crate::systems::comparison::round_within(
                p.boards.iter().map(|b| (b.white, b.black)),
                |x, y| field.weak.within(x, y, WeakPlace::First),
                "pair(s)",
            )
        };
        let (a, b) = (within(first), within(second));
        if a.key != b.key {
            return differ(
                &Rule {
                    rule_id: "SEP-5".to_string(),
                    text: "fewest pairs within a weakly separated group in the whole round (placed first: with completion, before every quality criterion)",
                    measure: Measure::WeakSeparation(WeakPlace::First),
                },
                None,
                a,
                b,
            );
        }
    }
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
        // SEP-5: the bracket's pairs within a weak group at `place`.
        let weak = |pairs: &BTreeSet<(PlayerIdx, PlayerIdx)>, place: WeakPlace| -> Value {
            let v: Vec<PlayerIdx> = pairs
                .iter()
                .filter(|&&(a, b)| field.weak.within(a, b, place))
                .flat_map(|&(a, b)| [a, b])
                .collect();
            Value {
                key: vec![(v.len() / 2) as i64],
                shown: format!("{} pair(s) within a separated group", v.len() / 2),
                players: v,
            }
        };
        let weak_rule = |place: WeakPlace| Rule {
            rule_id: "SEP-5".to_string(),
            text: match place {
                WeakPlace::Last => {
                    "fewest pairs within a weakly separated group (placed last: after every criterion)"
                }
                _ => {
                    "fewest pairs within a weakly separated group (after the score-group criteria, before the colour criteria)"
                }
            },
            measure: Measure::WeakSeparation(place),
        };
        let places = field.weak.places();
        for (k, (rule, always)) in criteria.iter().enumerate() {
            if k == 2 && places.contains(&WeakPlace::Default) {
                let (a, b) = (
                    weak(&one, WeakPlace::Default),
                    weak(&two, WeakPlace::Default),
                );
                if a.key != b.key {
                    return differ(&weak_rule(WeakPlace::Default), Some(s), a, b);
                }
            }
            // C8-C10 are not applied in the last round.
            if !always && field.last_round {
                continue;
            }
            let (a, b) = (value(&one, k), value(&two, k));
            if a.key != b.key {
                return differ(rule, Some(s), a, b);
            }
        }
        if places.contains(&WeakPlace::Last) {
            let (a, b) = (weak(&one, WeakPlace::Last), weak(&two, WeakPlace::Last));
            if a.key != b.key {
                return differ(&weak_rule(WeakPlace::Last), Some(s), a, b);
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
