//! Two pairings of a Swiss Team round (C.04.6) compared in the system's own order.
//!
//! C.04.6 pairs teams, not players: a pairing is read here as its team matches and its
//! team PAB (`RoundPairing::teams`, else the teams of its boards). The order is the one
//! the engine follows (`systems::team_swiss::pairing`, art. 3.3.2):
//! 1. the PAB first (art. 3.4): the lowest score (3.4.2), then the most matches played
//!    (3.4.3); between teams equal on both, the largest TPN (3.4.4) is the rule of order;
//! 2. then each top-scoregroup from the top, with the upfloaters it draws from below (a
//!    match belongs to the bracket of its higher score): [C4] the fewest upfloaters (art.
//!    2.3.1), [C5] their scores, taken in ascending order, as high as possible (art.
//!    2.3.2), [C6] the next scoregroup still pairable with the fewest upfloaters its parity
//!    allows (art. 2.3.3, the engine's reading, docs/decisions.md), [C7] the fewest
//!    upfloaters that floated in the previous round (art. 2.3.4; not in the last two
//!    rounds); between sets equal on these, the order of art. 3.5.4 chose;
//! 3. with the same upfloaters, the bracket's matches: [C8] the fewest matches whose teams
//!    prefer the same colour (art. 2.3.5), [C9] (type B) both strongly (art. 2.3.6), [C10]
//!    the fewest upfloaters' opponents that floated in the previous round (art. 2.3.7; not
//!    in the last two rounds); then the identifiers of art. 3.6.2 are the rule of order.
//!
//! A weak separation (SEP-5, SEP-6) adds `SEP-5`, the bracket's matches within a group,
//! between [C6] and [C7] (`WEAK`) or after [C10] (`WEAK_LAST`), as the engine weighs it.
//!
//! Every value is the engine's own: the team field (`state::build`), [C6]
//! (`pairing::c6_holds`) and the per-match [C8]-[C10] (`pairing::quality`). Colours are
//! allocated after the pairing (art. 4), so they never part two pairings here.
use std::collections::BTreeSet;

use super::state::{self, Field, Float};
use super::{Options, pairing};
use crate::model::{PlayerIdx, Score, TeamIdx, Tournament, WeakPlace};
use crate::systems::comparison::Comparison;
use crate::systems::{RoundPairing, RoundToPair};

/// The team field of the round, as the system builds it (its options applied).
pub fn field(round: &RoundToPair, options: &Options) -> Option<Field> {
    let mut round = round.clone();
    options.apply(&mut round.tournament.team_settings);
    state::build(&round, options.acceleration).ok()
}

/// The team a player names (any member names his team), as a position in the field.
pub fn position(t: &Tournament, field: &Field, p: PlayerIdx) -> Option<usize> {
    let team = t.team_of_players().get(p).copied().flatten()?;
    field.position.get(team).copied().flatten()
}

/// The player that names a team in answers: its first rostered member (as the CLI's team
/// pair list names it to `ValidatePairing`).
pub fn representative(t: &Tournament, team: TeamIdx) -> Option<PlayerIdx> {
    t.teams.get(team).and_then(|x| x.members.first().copied())
}

/// A pairing's team matches (positions, smaller first) and its team PAB.
pub fn matches(
    t: &Tournament,
    field: &Field,
    p: &RoundPairing,
) -> (BTreeSet<(usize, usize)>, Option<usize>) {
    let at = |team: TeamIdx| field.position.get(team).copied().flatten();
    if let Some(teams) = &p.teams {
        let pairs = teams
            .matches
            .iter()
            .filter_map(|m| Some((at(m.white)?, at(m.black)?)))
            .map(|(a, b)| (a.min(b), a.max(b)))
            .collect();
        return (pairs, teams.pab.and_then(at));
    }
    let of = t.team_of_players();
    let team = |x: PlayerIdx| of.get(x).copied().flatten().and_then(at);
    let pairs = p
        .boards
        .iter()
        .filter_map(|b| Some((team(b.white)?, team(b.black)?)))
        .filter(|(a, b)| a != b)
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    (pairs, None)
}

/// A criterion of art. 3.5 on one side: from the upfloaters and the bracket's matches.
type Measure<'a> = Box<dyn Fn(&[usize], &BTreeSet<(usize, usize)>) -> Value + 'a>;

/// A criterion's value on one side, counting teams (indices into the team field).
type Value = crate::systems::comparison::Value<usize>;

fn scores(field: &Field, teams: &[usize]) -> String {
    if teams.is_empty() {
        return "none".to_string();
    }
    teams
        .iter()
        .map(|&n| field.teams[n].primary.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Compares two pairings of `round` (the unconstrained round the system paired) in C.04.6's
/// order; `None` when the team field cannot be built (the caller falls back to the
/// procedure's step).
pub fn compare(
    round: &RoundToPair,
    options: &Options,
    first: &RoundPairing,
    second: &RoundPairing,
) -> Option<Comparison> {
    let field = field(round, options)?;
    let t = &round.tournament;
    let (one, pab_one) = matches(t, &field, first);
    let (two, pab_two) = matches(t, &field, second);
    if one == two && pab_one == pab_two {
        return Some(Comparison::Same);
    }
    let players = |teams: &[usize]| -> Vec<PlayerIdx> {
        teams
            .iter()
            .filter_map(|&n| representative(t, field.teams[n].team))
            .collect()
    };
    let differ = |rule: &str, criterion: &'static str, bracket, a: Value, b: Value| {
        Some(crate::systems::comparison::difference(
            rule.to_string(),
            criterion,
            bracket,
            a,
            b,
            |n| representative(t, field.teams[n].team),
        ))
    };
    // SEP-5.1 placed first (TS-SEP.4): the round's matches within a group, before the PAB
    // and every scoregroup (the engine keeps the round's fewest reachable throughout).
    if field.weighs(WeakPlace::First) {
        let within = |pairs: &BTreeSet<(usize, usize)>| {
            crate::systems::comparison::round_within(
                pairs.iter().copied(),
                |a, b| field.within(a, b, WeakPlace::First),
                "match(es)",
            )
        };
        let (a, b) = (within(&one), within(&two));
        if a.key != b.key {
            return differ(
                "SEP-5",
                "fewest matches within a weakly separated group in the round (placed first: before the PAB and [C4])",
                None,
                a,
                b,
            );
        }
    }
    // 1. The PAB (art. 3.4), chosen before any scoregroup is paired.
    if pab_one != pab_two {
        let bye = |pab: Option<usize>, what: usize| -> Value {
            let Some(n) = pab else {
                return Value {
                    key: Vec::new(),
                    shown: "no PAB".to_string(),
                    players: Vec::new(),
                };
            };
            let s = &field.teams[n];
            let (key, shown) = if what == 0 {
                (
                    s.primary.tenths(),
                    format!("the PAB team {} scores {}", s.tpn, s.primary),
                )
            } else {
                (
                    -(s.played() as i64),
                    format!("the PAB team {} has played {} match(es)", s.tpn, s.played()),
                )
            };
            Value {
                key: vec![key],
                shown,
                players: vec![n],
            }
        };
        for (what, rule, criterion) in [
            (
                0,
                "C.04.6 art. 3.4.2",
                "the PAB goes to the team with the lowest score",
            ),
            (
                1,
                "C.04.6 art. 3.4.3",
                "then to the team that has played the most matches",
            ),
        ] {
            let (a, b) = (bye(pab_one, what), bye(pab_two, what));
            if a.key != b.key {
                return differ(rule, criterion, None, a, b);
            }
        }
        return Some(Comparison::Tie {
            bracket: None,
            order_rule: "C.04.6 art. 3.4.4",
            players: players(&[pab_one, pab_two].into_iter().flatten().collect::<Vec<_>>()),
        });
    }
    // 2-3. The scoregroups from the top; `remaining`: the teams not paired above.
    let mut remaining: Vec<usize> = (0..field.teams.len())
        .filter(|&n| Some(n) != pab_one)
        .collect();
    let top = field.teams.iter().map(|s| s.level).max().unwrap_or(0);
    for level in (0..=top).rev() {
        let at = |pairs: &BTreeSet<(usize, usize)>| -> BTreeSet<(usize, usize)> {
            pairs
                .iter()
                .copied()
                .filter(|&(a, b)| field.teams[a].level.max(field.teams[b].level) == level)
                .collect()
        };
        let (x, y) = (at(&one), at(&two));
        let members = |pairs: &BTreeSet<(usize, usize)>| -> Vec<usize> {
            pairs.iter().flat_map(|&(a, b)| [a, b]).collect()
        };
        if x == y {
            let paired = members(&x);
            remaining.retain(|n| !paired.contains(n));
            continue;
        }
        let bracket_score = field
            .teams
            .iter()
            .find(|s| s.level == level)
            .map_or(Score::ZERO, |s| s.primary);
        let upfloaters = |pairs: &BTreeSet<(usize, usize)>| -> Vec<usize> {
            let mut v: Vec<usize> = members(pairs)
                .into_iter()
                .filter(|&n| field.teams[n].level < level)
                .collect();
            v.sort_by_key(|&n| (field.teams[n].primary, field.teams[n].tpn));
            v
        };
        let (ux, uy) = (upfloaters(&x), upfloaters(&y));
        let tpns = |teams: &[usize]| -> String {
            if teams.is_empty() {
                return "none".to_string();
            }
            teams
                .iter()
                .map(|&n| field.teams[n].tpn.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        // [C6]: what is left once this bracket is paired, as the engine tests it.
        let c6 = |pairs: &BTreeSet<(usize, usize)>| -> Value {
            let paired = members(pairs);
            let rest: Vec<usize> = remaining
                .iter()
                .copied()
                .filter(|n| !paired.contains(n))
                .collect();
            let holds = pairing::c6_holds(&field, level, &rest);
            let next: Vec<usize> = rest
                .iter()
                .copied()
                .filter(|&n| level > 0 && field.teams[n].level == level - 1)
                .collect();
            Value {
                key: vec![i64::from(!holds)],
                shown: if holds {
                    "the next scoregroup can be paired with the fewest upfloaters".to_string()
                } else {
                    format!(
                        "the next scoregroup (teams {}) cannot be paired with the fewest upfloaters its parity allows",
                        tpns(&next)
                    )
                },
                players: if holds { Vec::new() } else { next },
            }
        };
        let c7_applies = !field.last_two_rounds;
        // SEP-5: the bracket's matches within a group of a weak separation at `place`.
        let field_ref = &field;
        let within = move |p: &BTreeSet<(usize, usize)>, place: WeakPlace| -> Value {
            let teams: Vec<usize> = p
                .iter()
                .filter(|&&(a, b)| field_ref.within(a, b, place))
                .flat_map(|&(a, b)| [a, b])
                .collect();
            Value {
                key: vec![(teams.len() / 2) as i64],
                shown: format!("{} match(es) within a separated group", teams.len() / 2),
                players: teams,
            }
        };
        let mut criteria: Vec<(&str, &'static str, Measure)> = vec![
            (
                "C.04.6 art. 2.3.1",
                "[C4] minimise the number of upfloaters",
                Box::new(|u: &[usize], _: &BTreeSet<_>| Value {
                    key: vec![u.len() as i64],
                    shown: format!("{} upfloater(s) (teams {})", u.len(), tpns(u)),
                    players: u.to_vec(),
                }),
            ),
            (
                "C.04.6 art. 2.3.2",
                "[C5] maximise the upfloaters' scores, taken in ascending order",
                Box::new(|u: &[usize], _: &BTreeSet<_>| Value {
                    key: u
                        .iter()
                        .map(|&n| -field.teams[n].primary.tenths())
                        .collect(),
                    shown: format!("upfloater scores {}", scores(&field, u)),
                    players: u.to_vec(),
                }),
            ),
            (
                "C.04.6 art. 2.3.3",
                "[C6] the next scoregroup can still be paired with the fewest upfloaters",
                Box::new(|_: &[usize], p: &BTreeSet<_>| c6(p)),
            ),
            (
                "C.04.6 art. 2.3.4",
                "[C7] minimise the upfloaters that floated in the previous round",
                Box::new(|u: &[usize], _: &BTreeSet<_>| {
                    let v: Vec<usize> = u
                        .iter()
                        .copied()
                        .filter(|&n| c7_applies && field.teams[n].float != Float::None)
                        .collect();
                    Value {
                        key: vec![v.len() as i64],
                        shown: format!(
                            "{} upfloater(s) that floated in the previous round",
                            v.len()
                        ),
                        players: v,
                    }
                }),
            ),
        ];
        if field.weighs(WeakPlace::Default) {
            criteria.insert(
                3,
                (
                    "SEP-5",
                    "minimise the matches within a separated group (placed after [C6])",
                    Box::new(move |_: &[usize], p: &BTreeSet<_>| within(p, WeakPlace::Default)),
                ),
            );
        }
        for (rule, criterion, value) in &criteria {
            let (a, b) = (value(&ux, &x), value(&uy, &y));
            if a.key != b.key {
                return differ(rule, criterion, Some(bracket_score), a, b);
            }
        }
        let parted: Vec<usize> = x
            .symmetric_difference(&y)
            .flat_map(|&(a, b)| [a, b])
            .collect::<BTreeSet<usize>>()
            .into_iter()
            .collect();
        if ux != uy {
            // Equal on [C4]-[C7]: the first set in the order of art. 3.5.4 was taken.
            return Some(Comparison::Tie {
                bracket: Some(bracket_score),
                order_rule: "C.04.6 art. 3.5.4",
                players: players(&parted),
            });
        }
        // The same bracket: its matches by [C8]-[C10] (art. 3.6.4).
        let quality = |pairs: &BTreeSet<(usize, usize)>, k: usize| -> Value {
            let mut teams = Vec::new();
            let mut count = 0;
            for &(a, b) in pairs {
                let q = pairing::quality(&field, level, a, b);
                let c = [q.0, q.1, q.2][k];
                if c > 0 {
                    count += c;
                    teams.extend([a, b]);
                }
            }
            let what = match k {
                0 => "match(es) whose teams prefer the same colour",
                1 => "match(es) whose teams both strongly prefer the same colour",
                _ => "upfloater opponent(s) that floated in the previous round",
            };
            Value {
                key: vec![count as i64],
                shown: format!("{count} {what}"),
                players: teams,
            }
        };
        for (k, rule, criterion) in [
            (
                0,
                "C.04.6 art. 2.3.5",
                "[C8] minimise the teams that do not get their colour preference",
            ),
            (
                1,
                "C.04.6 art. 2.3.6",
                "[C9] minimise the teams that do not get their strong colour preference",
            ),
            (
                2,
                "C.04.6 art. 2.3.7",
                "[C10] minimise the upfloaters' opponents that floated in the previous round",
            ),
        ] {
            let (a, b) = (quality(&x, k), quality(&y, k));
            if a.key != b.key {
                return differ(rule, criterion, Some(bracket_score), a, b);
            }
        }
        if field.weighs(WeakPlace::Last) {
            let (a, b) = (within(&x, WeakPlace::Last), within(&y, WeakPlace::Last));
            if a.key != b.key {
                return differ(
                    "SEP-5",
                    "minimise the matches within a separated group (placed last)",
                    Some(bracket_score),
                    a,
                    b,
                );
            }
        }
        return Some(Comparison::Tie {
            bracket: Some(bracket_score),
            order_rule: "C.04.6 art. 3.6.2",
            players: players(&parted),
        });
    }
    Some(Comparison::Same)
}
