//! Amalfi Rating as JavaPairing 2.9 pairs it (profile `JAVAPAIRING`; javapairing.md §2,
//! systems.md §1 with the departures of javapairing.md §6.1).
//!
//! The list L is the present players in ranking order [RK] without the bye player; the player
//! at position p looks for his opponent around position p + k, k being the rounds left
//! capped at ⌊P/2⌋ [AR-K], in the order of [AR-ORD]; a depth-first search with one forbidden
//! list per level backtracks when nobody fits [AR-SEARCH]. Colours are [LEG] with the Amalfi
//! rules [AR-COL].
use std::collections::HashSet;

use crate::model::PlayerIdx;
use crate::systems::common::javapairing::{Field, Leg, Trace, Variant};
use crate::systems::{Board, ByeAssignment, PairError, RoundPairing, RoundToPair};

/// JavaPairing's visit limit for the Amalfi search (§2.4 step 10).
pub const VISIT_LIMIT: u64 = 200_000;

/// The forbidden list of one search level, kept as JavaPairing keeps it: a text
/// `;W-B-0-0;…` searched for `;A-B` or `;B-A` (§2.4 step 8). Such a substring is found
/// exactly when a broken pair has A as White and a Black whose ID starts with B's digits (or
/// the same with A and B swapped), so the level stores (White, every decimal prefix of Black).
#[derive(Clone, Debug, Default)]
struct LevelForbidden {
    entries: HashSet<(u32, u32)>,
    broken: Vec<(u32, u32)>,
}

impl LevelForbidden {
    fn add(&mut self, white: u32, black: u32) {
        self.broken.push((white, black));
        let mut prefix = black;
        while prefix > 0 {
            self.entries.insert((white, prefix));
            prefix /= 10;
        }
    }

    fn refuses(&self, a: u32, b: u32) -> bool {
        !self.entries.is_empty()
            && (self.entries.contains(&(a, b)) || self.entries.contains(&(b, a)))
    }

    /// The broken pair whose text made (a, b) refused, for the explanation.
    fn culprit(&self, a: u32, b: u32) -> Option<(u32, u32)> {
        let starts = |x: u32, y: u32| x.to_string().starts_with(&y.to_string());
        self.broken
            .iter()
            .copied()
            .find(|&(w, k)| (w == a && starts(k, b)) || (w == b && starts(k, a)))
    }

    fn clear(&mut self) {
        self.entries.clear();
        self.broken.clear();
    }
}

/// One stored pair: its board and the positions in L of the player placed (A) and his
/// opponent.
#[derive(Clone, Copy, Debug)]
struct Slot {
    board: Board,
    a: usize,
    b: usize,
}

/// Pairs a round with JavaPairing's Amalfi Rating (javapairing.md §2).
pub fn pair(
    r: &RoundToPair,
    late_entry_score: Option<crate::model::Score>,
) -> Result<RoundPairing, PairError> {
    let f = Field::build(r, Variant::Amalfi)?;
    let mut tr = Trace::new();
    tr.group(format!(
        "round {} of {}: Amalfi Rating (JavaPairing 2.9 profile)",
        f.round, f.total
    ));
    let mut warnings = f.warnings();
    if late_entry_score.is_some()
        && r.tournament
            .players
            .iter()
            .any(|p| p.late_entry_round.is_some_and(|r| r > 1))
    {
        warnings.push(crate::systems::Warning::new(
            "SETTING_IGNORED",
            "",
            "late_entry_score is not applied: JavaPairing gives late entrants no pairing score; enter the entry bye as a half-point bye instead (javapairing.md §2.6)",
        ));
    }

    // §2.1: the ranking list, the bye, then L without the bye player.
    let bye = f.bye_lowest_eligible(&mut tr, "AM-2.1");
    let list: Vec<PlayerIdx> = f
        .present_ranking()
        .into_iter()
        .filter(|&p| Some(p) != bye)
        .collect();
    let n = list.len();
    tr.detail("AM-3.2", &list, || {
        let names: Vec<String> = list
            .iter()
            .map(|&p| format!("{} ({})", f.name(p), f.score[p]))
            .collect();
        format!(
            "list L, by score, then current rating, then ID [RK], without the bye player: {}",
            names.join(", ")
        )
    });

    // §2.2 [AR-K]: rounds left including this one, capped at ⌊P/2⌋ (P counts the bye).
    let left = i64::from(f.total) - i64::from(f.round) + 1;
    let cap = (f.present_count / 2) as i64;
    let k = left.min(cap);
    if n > 0 && k < 1 {
        return Err(PairError::NoLegalPairing {
            rule: "AM-3.3 [AR-K]".to_string(),
            message: "the tournament is finished: no rounds are left".to_string(),
            explanation: tr.finish(),
        });
    }
    let k = k.max(1) as usize;
    tr.step(
        "AM-3.3",
        if left > cap {
            format!("k = R - r + 1 = {left}, capped at ⌊P/2⌋ = {cap} [AR-K]")
        } else {
            format!("k = R - r + 1 = {k} [AR-K]")
        },
        Vec::new(),
    );
    if f.last_round {
        tr.step(
            "AM-3.1",
            "last round: only a meeting makes a pair illegal; colours follow the same order without prohibitions [LEG 6]",
            Vec::new(),
        );
    }

    let slots = search(&f, &list, k, &mut tr)?;

    let mut out = RoundPairing::default();
    for slot in &slots {
        out.boards.push(slot.board);
    }
    if let Some(p) = bye {
        out.byes.push(ByeAssignment::pab(p, &r.tournament.scoring));
    }
    tr.step(
        "AM-3.3",
        "boards in the order the search stored the pairs, then the bye [OUT]",
        Vec::new(),
    );
    out.explanation = tr.finish();
    out.warnings.append(&mut warnings);
    Ok(out)
}

/// §2.3-2.4: the depth-first search. Returns the stored pairs in slot order.
fn search(f: &Field, list: &[PlayerIdx], k: usize, tr: &mut Trace) -> Result<Vec<Slot>, PairError> {
    let n = list.len();
    let half = n / 2;
    let mut forbidden: Vec<LevelForbidden> = vec![LevelForbidden::default(); half];
    let mut slots: Vec<Slot> = Vec::with_capacity(half);
    let mut paired = vec![false; n];
    let mut visits: u64 = 0;
    let mut p = 0usize;
    let id = |pos: usize| f.id[list[pos]];
    while slots.len() < half {
        crate::cancel::checkpoint();
        // Step 2: every position above p is paired, and an unpaired one remains.
        while p < n && paired[p] {
            p += 1;
        }
        if p + 1 >= n {
            // Cannot happen with an even L; guards the indexing below.
            break;
        }
        let d = slots.len();
        let before = slots.last().map(|s| s.board);
        let t = (p + k).min(n - 1);
        let a = list[p];
        // Step 3 [AR-ORD]: t, t-1, …, p+1, then t, t+1, …, n-1.
        let try_candidate = |c: usize, tr: &mut Trace| -> Option<Leg> {
            let b = list[c];
            if paired[c] {
                return None;
            }
            if forbidden[d].refuses(id(p), id(c)) {
                tr.detail("AM-3.3.3", &[a, b], || {
                    let why = forbidden[d]
                        .culprit(id(p), id(c))
                        .map(|(w, k)| {
                            format!(
                                " (the text ';{w}-{k}' contains ';{}-{}' or ';{}-{}')",
                                id(p),
                                id(c),
                                id(c),
                                id(p)
                            )
                        })
                        .unwrap_or_default();
                    format!(
                        "{} - {} refused by the forbidden list of level {d}{why} [AR-SEARCH 8]",
                        f.name(a),
                        f.name(b)
                    )
                });
                return None;
            }
            match f.leg(a, b, before) {
                leg @ Leg::Legal { .. } => Some(leg),
                Leg::Illegal(why) => {
                    tr.detail("AM-3.1", &[a, b], || {
                        format!(
                            "{} - {} refused: {} [AR-ORD]",
                            f.name(a),
                            f.name(b),
                            why.describe()
                        )
                    });
                    None
                }
            }
        };
        let mut found: Option<(usize, Leg)> = None;
        for c in (p + 1..=t).rev() {
            if let Some(leg) = try_candidate(c, tr) {
                found = Some((c, leg));
                break;
            }
            visits += 1;
        }
        if found.is_none() {
            for c in t..n {
                visits += 1;
                if let Some(leg) = try_candidate(c, tr) {
                    found = Some((c, leg));
                    break;
                }
                visits += 1;
                if visits > VISIT_LIMIT {
                    return Err(PairError::NoLegalPairing {
                        rule: "AM-3.3.3 [AR-SEARCH]".to_string(),
                        message: format!(
                            "the search passed JavaPairing's limit of {VISIT_LIMIT} visits without a pairing (\"Cannot perform pairing!\")"
                        ),
                        explanation: std::mem::take(tr).finish(),
                    });
                }
            }
        }
        match found {
            Some((c, Leg::Legal { white, black, rule })) => {
                let b = list[c];
                let order = if c > p + k {
                    "downward, AM-3.3.2"
                } else if c == p + k {
                    "theoretical opponent, AM-3.3"
                } else {
                    "upward, AM-3.3.1"
                };
                tr.step(
                    if f.last_round { "AM-3.1" } else { "AM-4.0" },
                    format!(
                        "position {} ({}) meets position {} ({}; {order}): {} - {}, {}{}",
                        p + 1,
                        f.name(a),
                        c + 1,
                        f.name(b),
                        f.name(white),
                        f.name(black),
                        rule.describe(),
                        if f.round > 1 && f.last_round {
                            " (last round: no prohibition)"
                        } else {
                            ""
                        }
                    ),
                    vec![white, black],
                );
                slots.push(Slot {
                    board: Board { white, black },
                    a: p,
                    b: c,
                });
                paired[p] = true;
                paired[c] = true;
                for level in forbidden.iter_mut().skip(d + 1) {
                    level.clear();
                }
                p += 1;
            }
            _ => {
                // Step 5: undo the last pair and forbid it at its level.
                let Some(last) = slots.pop() else {
                    return Err(PairError::NoLegalPairing {
                        rule: "AM-3.3.3 [AR-SEARCH]".to_string(),
                        message: format!(
                            "{} has no opponent and there is no pair left to undo: no pairing exists under JavaPairing's rules (\"Cannot perform pairing!\"; the bye is never moved, §2.4 step 11)",
                            f.name(a)
                        ),
                        explanation: std::mem::take(tr).finish(),
                    });
                };
                paired[last.a] = false;
                paired[last.b] = false;
                let level = slots.len();
                let (w, b) = (f.id[last.board.white], f.id[last.board.black]);
                forbidden[level].add(w, b);
                tr.step(
                    "AM-3.3.3",
                    format!(
                        "{} has no opponent: undo {} - {} and forbid '{w}-{b}' at level {level} [AR-SEARCH 5-7]",
                        f.name(a),
                        f.name(last.board.white),
                        f.name(last.board.black)
                    ),
                    vec![last.board.white, last.board.black],
                );
                p = last.a.min(last.b);
            }
        }
    }
    Ok(slots)
}

#[cfg(test)]
mod tests {
    use super::LevelForbidden;

    /// §2.4 step 8: the text `;2-14-0-0` contains `;2-1`, so {2, 1} is refused too.
    #[test]
    fn forbidden_list_matches_like_the_text() {
        let mut level = LevelForbidden::default();
        level.add(2, 14);
        assert!(level.refuses(2, 14));
        assert!(level.refuses(14, 2));
        assert!(level.refuses(2, 1), "';2-1' is a prefix of ';2-14'");
        assert!(level.refuses(1, 2), "the pair is tested both ways");
        assert!(!level.refuses(2, 4), "';2-4' is not in ';2-14-0-0'");
        assert!(!level.refuses(14, 1));
        assert!(!level.refuses(1, 4), "';1-4' does not start a record");
        assert_eq!(level.culprit(1, 2), Some((2, 14)));
        level.clear();
        assert!(!level.refuses(2, 14));
    }
}
