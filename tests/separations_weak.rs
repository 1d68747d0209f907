//! Weak separations (systems.md SEP-5): the criterion "fewest pairs within a group" at its
//! place in each system's order, proved on small events by exhaustive search.
//!
//! For each event: the answer under a weak club separation is compared with every legal
//! pairing of the round in the system's order extended by SEP-5 (`System::compare`, which
//! evaluates the criteria on whole pairings, independently of the engine's weights): none
//! may be better. And the answer is compared with the answer without the separation in the
//! system's own order (no SEP-5): they must tie on every criterion above the separation's
//! place ("never at the cost of the leaders' pairings").
mod common;

use common::events::{Lcg, try_event};
use swisspair::model::{
    ByeKind, PlayerIdx, Separation, SeparationKey, SeparationMode, SystemId, Tournament,
};
use swisspair::pairing;
use swisspair::systems::common::History;
use swisspair::systems::common::fide_players::{FideText, Field};
use swisspair::systems::comparison::Comparison;
use swisspair::systems::{Board, ByeAssignment, PairOptions, RoundPairing, RoundToPair};

fn weak(key: SeparationKey, mode: SeparationMode) -> Separation {
    Separation {
        mode,
        ..Separation::absolute(key)
    }
}

/// One legal pairing: pairs of player indices and the PAB's player.
type Pairing = (Vec<(PlayerIdx, PlayerIdx)>, Option<PlayerIdx>);

/// Every legal pairing of the field (C1 and C3 as `Field::compatible` reads them; one PAB
/// to a player C2 allows when the number is odd); `None` past `budget` pairings.
fn legal_pairings(field: &Field, budget: usize) -> Option<Vec<Pairing>> {
    every_pairing(
        field.entrants.len(),
        &|a, b| field.compatible(a, b),
        &|a| field.entrants[a].bye_eligible,
        &|i| field.entrants[i].player,
        budget,
    )
}

/// Every legal pairing of a Double-Swiss match (C.04.5 [C1] and forbidden pairs, [C2] for
/// the PAB, as the engine's own field reads them); `None` past `budget` pairings.
fn legal_double_swiss(round: &RoundToPair, budget: usize) -> Option<Vec<Pairing>> {
    use swisspair::systems::System;
    use swisspair::systems::double_swiss::{DoubleSwiss, match_field};
    let options = DoubleSwiss.options(&round.tournament.options);
    let mf = match_field(round, &options).ok()?;
    let f = &mf.field;
    every_pairing(
        mf.players.len(),
        &|a, b| f.compatible.edge(a, b),
        &|a| !f.pab_barred[a],
        &|i| mf.players[i],
        budget,
    )
}

/// Every perfect pairing of `0..n` over the pairs `compatible` allows, with one PAB to a
/// player `bye_ok` allows when `n` is odd, named as players by `player`; `None` past
/// `budget` pairings.
fn every_pairing(
    n: usize,
    compatible: &dyn Fn(usize, usize) -> bool,
    bye_ok: &dyn Fn(usize) -> bool,
    player: &dyn Fn(usize) -> PlayerIdx,
    budget: usize,
) -> Option<Vec<Pairing>> {
    struct Walk<'a> {
        compatible: &'a dyn Fn(usize, usize) -> bool,
        bye_ok: &'a dyn Fn(usize) -> bool,
        odd: bool,
        budget: usize,
    }
    fn walk(
        w: &Walk,
        used: &mut Vec<bool>,
        pairs: &mut Vec<(usize, usize)>,
        bye: Option<usize>,
        // Positions here; named as players at the end (the same shape).
        out: &mut Vec<Pairing>,
    ) -> bool {
        let Some(a) = used.iter().position(|u| !u) else {
            if w.odd == bye.is_some() {
                out.push((pairs.clone(), bye));
            }
            return out.len() <= w.budget;
        };
        used[a] = true;
        if w.odd && bye.is_none() && (w.bye_ok)(a) && !walk(w, used, pairs, Some(a), out) {
            return false;
        }
        for b in a + 1..used.len() {
            if !used[b] && (w.compatible)(a, b) {
                used[b] = true;
                pairs.push((a, b));
                let go_on = walk(w, used, pairs, bye, out);
                pairs.pop();
                used[b] = false;
                if !go_on {
                    return false;
                }
            }
        }
        used[a] = false;
        true
    }
    let w = Walk {
        compatible,
        bye_ok,
        odd: n % 2 == 1,
        budget,
    };
    let mut out = Vec::new();
    if !walk(&w, &mut vec![false; n], &mut Vec::new(), None, &mut out) {
        return None;
    }
    Some(
        out.into_iter()
            .map(|(pairs, bye)| {
                (
                    pairs
                        .into_iter()
                        .map(|(a, b)| (player(a), player(b)))
                        .collect(),
                    bye.map(player),
                )
            })
            .collect(),
    )
}

/// The answer with its pairs and PAB replaced by `alternative` (colours as listed: the
/// criteria compared read pairs, not boards).
fn as_round_pairing(answer: &RoundPairing, t: &Tournament, alternative: &Pairing) -> RoundPairing {
    let mut p = answer.clone();
    p.boards = alternative
        .0
        .iter()
        .map(|&(white, black)| Board { white, black })
        .collect();
    p.byes.retain(|b| b.kind != ByeKind::Pab);
    if let Some(q) = alternative.1 {
        p.byes.push(ByeAssignment::pab(q, &t.scoring));
    }
    p
}

fn pairs_of(p: &RoundPairing) -> Vec<(PlayerIdx, PlayerIdx)> {
    let mut v: Vec<_> = p
        .boards
        .iter()
        .map(|b| (b.white.min(b.black), b.white.max(b.black)))
        .collect();
    v.sort_unstable();
    v
}

fn within(t: &Tournament, p: &RoundPairing) -> usize {
    p.boards
        .iter()
        .filter(|b| t.players[b.white].club == t.players[b.black].club)
        .count()
}

/// The criterion ids (as the comparer cites them) ranked above each place, per edition:
/// the answer must tie the answer without the separation on all of them.
fn above(system: SystemId, edition_2017: bool, mode: SeparationMode) -> &'static [&'static str] {
    match (system, edition_2017, mode) {
        (SystemId::Dutch, false, SeparationMode::Weak) => &[
            "C.04.3 C5",
            "C.04.3 C6",
            "C.04.3 C7",
            "C.04.3 C8",
            "C.04.3 C9",
        ],
        (SystemId::Dutch, true, SeparationMode::Weak) => {
            &["C.04.3 C.5", "C.04.3 C.6", "C.04.3 C.7"]
        }
        (SystemId::Dutch, false, SeparationMode::WeakFirst) => &["C.04.3 C5"],
        (SystemId::Dutch, true, SeparationMode::WeakFirst) => &[],
        // C.04.5: the PAB (3.4) is assigned before any bracket; the upfloaters' number,
        // scores and the following scoregroup ([C4]-[C6]) come before SEP-5.
        (SystemId::DoubleSwiss, _, SeparationMode::Weak) => &[
            "C.04.5 3.4.2",
            "C.04.5 3.4.3",
            "C.04.5 C4",
            "C.04.5 C5",
            "C.04.5 C6",
        ],
        // Last: every criterion is above.
        _ => &[],
    }
}

struct Tally {
    events: usize,
    alternatives: usize,
    decided_by_sep: usize,
    changed_by_sep: usize,
}

/// Checks one event; `Err` names what failed.
fn check_event(
    t: &Tournament,
    system: SystemId,
    edition_2017: bool,
    mode: SeparationMode,
    tally: &mut Tally,
) -> Result<(), String> {
    let options = PairOptions {
        system: Some(system),
        ..PairOptions::default()
    };
    let mut separated = t.clone();
    separated.separations = vec![weak(SeparationKey::Club, mode)];
    let resolved = pairing::resolve(Some(system), &separated).map_err(|e| e.to_string())?;
    let round = pairing::prepare(&resolved, &separated, &options).map_err(|e| e.to_string())?;
    let Ok(answer) = pairing::pair(&separated, &options).map(|a| a.pairing) else {
        // No legal pairing: nothing to compare (the same holds without the separation).
        assert!(
            pairing::pair(t, &options).is_err(),
            "weak separation made a round unpairable"
        );
        return Ok(());
    };
    let all = if system == SystemId::DoubleSwiss {
        legal_double_swiss(&round, 30_000)
    } else {
        let text = if edition_2017 {
            FideText::Y2017
        } else {
            FideText::Y2026
        };
        let field = Field::build(&round, &History::build(&round), text);
        legal_pairings(&field, 30_000)
    };
    let Some(all) = all else {
        return Ok(());
    };
    tally.events += 1;
    let mine = pairs_of(&answer);
    for alt in &all {
        let q = as_round_pairing(&answer, &separated, alt);
        if pairs_of(&q) == mine && q.byes == answer.byes {
            continue;
        }
        tally.alternatives += 1;
        match resolved.configured.compare(&round, &answer, &q) {
            Some(Comparison::Differ(d)) if !d.first_is_better => {
                return Err(format!(
                    "an alternative is better on {} ({}): answer {} vs {}; alternative {:?}",
                    d.rule_id, d.criterion, d.first_value, d.second_value, alt
                ));
            }
            Some(Comparison::Differ(d)) if d.rule_id == "SEP-5" => tally.decided_by_sep += 1,
            _ => {}
        }
    }
    // Against the answer without the separation, in the order without SEP-5.
    let plain = pairing::pair(t, &options)
        .map_err(|e| e.to_string())?
        .pairing;
    if pairs_of(&plain) != mine {
        tally.changed_by_sep += 1;
        if within(t, &answer) > within(t, &plain) && mode == SeparationMode::WeakFirst {
            return Err("placed first, the separation left more pairs within a club".into());
        }
        let resolved_plain = pairing::resolve(Some(system), t).map_err(|e| e.to_string())?;
        let round_plain =
            pairing::prepare(&resolved_plain, t, &options).map_err(|e| e.to_string())?;
        let verdict = resolved_plain
            .configured
            .compare(&round_plain, &plain, &answer);
        match verdict {
            Some(Comparison::Differ(d)) => {
                if !d.first_is_better {
                    return Err(format!(
                        "the answer with the separation is better than the plain one on {}",
                        d.rule_id
                    ));
                }
                let above = above(system, edition_2017, mode);
                let last = mode == SeparationMode::WeakLast;
                if last || above.contains(&d.rule_id.as_str()) {
                    return Err(format!(
                        "the separation ({}) cost {} ({}): {} vs {}",
                        mode.name(),
                        d.rule_id,
                        d.criterion,
                        d.first_value,
                        d.second_value
                    ));
                }
            }
            Some(Comparison::Same) | Some(Comparison::Tie { .. }) | None => {}
        }
    }
    Ok(())
}

fn prove(system: SystemId, edition_2017: bool, mode: SeparationMode, cases: u64) -> Tally {
    let mut tally = Tally {
        events: 0,
        alternatives: 0,
        decided_by_sep: 0,
        changed_by_sep: 0,
    };
    let mut rng = Lcg(0x5e9_0005 ^ cases ^ (mode as u64) << 8 ^ u64::from(edition_2017));
    for case in 0..cases {
        let players = 6 + rng.below(7) as u32; // 6..=12
        let played = if system == SystemId::DoubleSwiss {
            // Rounds are games: the round paired is a match's game 1 (matches 1-3).
            2 * rng.below(3) as usize
        } else {
            rng.below(4) as usize // rounds before the one paired
        };
        let clubs = 2 + rng.below(3); // 2..=4
        let Ok(mut t) = try_event(system, players, 7, played, clubs, 1000 + case) else {
            continue;
        };
        if edition_2017 {
            let _ = t.options.set("edition", "2017");
        }
        if let Err(e) = check_event(&t, system, edition_2017, mode, &mut tally) {
            panic!(
                "{system:?}{} {}: case {case} ({players} players, round {}, {clubs} clubs): {e}",
                if edition_2017 { " 2017" } else { "" },
                mode.name(),
                played + 1
            );
        }
    }
    eprintln!(
        "{system:?}{} {}: {} events, {} alternatives, {} decided by SEP-5, {} answers changed",
        if edition_2017 { " 2017" } else { "" },
        mode.name(),
        tally.events,
        tally.alternatives,
        tally.decided_by_sep,
        tally.changed_by_sep
    );
    tally
}

fn prove_all_places(system: SystemId, edition_2017: bool) {
    let places = swisspair::systems::find(system)
        .map(|s| s.weak_separation_places())
        .unwrap_or_default();
    for mode in [
        SeparationMode::Weak,
        SeparationMode::WeakFirst,
        SeparationMode::WeakLast,
    ] {
        if !mode.weak_place().is_some_and(|p| places.contains(&p)) {
            continue;
        }
        let tally = prove(system, edition_2017, mode, 40);
        assert!(
            tally.events >= 20,
            "too few events searched: {}",
            tally.events
        );
        assert!(
            tally.decided_by_sep > 0 && tally.changed_by_sep > 0,
            "the separation never decided anything: the test proves nothing"
        );
    }
}

#[test]
fn dutch_weak_separation_is_optimal_in_the_extended_order() {
    prove_all_places(SystemId::Dutch, false);
}

#[test]
fn dutch_2017_weak_separation_is_optimal_in_the_extended_order() {
    prove_all_places(SystemId::Dutch, true);
}

#[test]
fn double_swiss_weak_separation_is_optimal_in_the_extended_order() {
    prove_all_places(SystemId::DoubleSwiss, false);
}
