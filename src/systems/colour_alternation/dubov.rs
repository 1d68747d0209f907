//! JavaPairing's own old (pre-2016) Dubov engine, as Perfect Colours runs it for its first
//! and last rounds (javapairing.md §5; CA-1). It is not FIDE's Dubov: the colour rules are
//! Perfect Colours' (prohibitions in every round, the previous-round due, ARO settling
//! identical histories), groups gain one upfloater per scan, dues are balanced by forcing,
//! and the halves are searched like Simple Swiss's without its same-due refusals, rotations
//! or relaxations.
//!
//! Where the text is silent: the reserve of §5 step 4.1 lives for the whole building of a
//! group (the text clears it "if it was c", which only a later scan can meet), and the
//! discharge of Simple Swiss (§3.4) is not part of this engine (§5 lists its differences
//! from §3.2 without it).
use std::collections::HashSet;

use super::swap_pass;
use crate::model::{Colour, PlayerIdx};
use crate::systems::common::javapairing::balancing_colour;
use crate::systems::common::javapairing::search::{
    Outcome, SearchConfig, Stored, split_search, whole_search,
};
use crate::systems::common::javapairing::{Dues, Field, Leg, Trace, exchange_sort};
use crate::systems::{Board, ByeAssignment, PairError, RoundPairing};

const FIRST: SearchConfig = SearchConfig {
    same_due: false,
    rotate: false,
    limit: 10_000,
    rule: "CA-1",
    label: "DV 7.1",
};

const SECOND: SearchConfig = SearchConfig {
    same_due: false,
    rotate: false,
    limit: 50_000,
    rule: "CA-1",
    label: "DV 7.2",
};

/// Pairs round 1 or a round r ≥ R of a colour-alternation tournament (§5).
pub fn pair(f: &Field) -> Result<RoundPairing, PairError> {
    let mut tr = Trace::new();
    tr.group(format!(
        "round {} of {}: colour-alternation Swiss, {} round paired by JavaPairing's old Dubov engine (CA-1)",
        f.round,
        f.total,
        if f.round == 1 { "first" } else { "last" }
    ));
    let mut out = RoundPairing {
        warnings: f.warnings(),
        ..RoundPairing::default()
    };
    // §5 step 2: the Amalfi bye rule, without colour dominance.
    let bye = f.bye_lowest_eligible(&mut tr, "CA-3");
    out.boards = if f.round == 1 {
        f.round_one(bye, &mut tr, "CA-1")?
    } else {
        let mut run = Run {
            f,
            bye,
            dues: Dues::new(),
            due_of: vec![Colour::White; f.id.len()],
            tr: &mut tr,
        };
        run.pair(&mut out.warnings)?
    };
    if let Some(p) = bye {
        out.byes
            .push(ByeAssignment::pab(p, &f.r.tournament.scoring));
    }
    tr.step(
        "CA-1",
        "boards in the order the pairs were stored (re-sorted [OUT] when pairs were broken), then the bye",
        Vec::new(),
    );
    out.explanation = tr.finish();
    Ok(out)
}

struct Run<'f, 'a, 't> {
    f: &'f Field<'a>,
    bye: Option<PlayerIdx>,
    dues: Dues,
    /// A member's current due: asked when he joined, changed by the balancing (§5 step 5).
    due_of: Vec<Colour>,
    tr: &'t mut Trace,
}

impl Run<'_, '_, '_> {
    fn ask(&mut self, p: PlayerIdx) -> Colour {
        let (c, rule) = self.dues.due(self.f, p);
        let f = self.f;
        self.tr.detail("CA-1", &[p], || {
            format!(
                "{} ({}) is due {c}: {}",
                f.name(p),
                f.colour_string(p),
                rule.describe()
            )
        });
        c
    }

    /// §5 step 4: the outer loop of §3.2 with this engine's group, balancing and searches.
    fn pair(
        &mut self,
        warnings: &mut Vec<crate::systems::Warning>,
    ) -> Result<Vec<Board>, PairError> {
        let f = self.f;
        let target = f.present_count / 2;
        let mut stored = Stored::new(f.id.len());
        let mut req = 0usize;
        let mut take_all = false;
        let mut warned = false;
        let position: Vec<usize> = {
            let mut v = vec![0; f.id.len()];
            for (i, &p) in f.ranking.iter().enumerate() {
                v[p] = i;
            }
            v
        };
        while stored.pairs.len() < target {
            let Some(head) = f
                .ranking
                .iter()
                .copied()
                .find(|&p| f.present[p] && Some(p) != self.bye && !stored.paired[p])
            else {
                break;
            };
            self.tr.group(format!("group of {}", f.name(head)));
            let mut group = self.build_group(head, position[head], req, &mut take_all, &stored);
            req = group.len();
            if take_all && position[head] < f.present_count / 2 && !warned {
                warned = true;
                warnings.push(f.switch_warning(head));
            }
            let names: Vec<String> = group
                .iter()
                .map(|&p| format!("{} ({}, due {})", f.name(p), f.score[p], self.due_of[p]))
                .collect();
            self.tr.step(
                "CA-1",
                format!("group: {} [DV 4.1]", names.join(", ")),
                group.clone(),
            );
            let h = group.len() / 2;
            let mut whole_limit = false;
            let found = if self.balance(&group) {
                self.halves(&mut group);
                let (s1, s2) = group.split_at(h);
                let (first, st1) = split_search(f, s1, s2, &self.due_of, FIRST, self.tr);
                match first {
                    Outcome::Found(p) => {
                        self.tr.step(
                            "CA-1",
                            format!("first-half against second-half search found the pairing after {} visits [DV 7.1]", st1.visits),
                            Vec::new(),
                        );
                        Some(p)
                    }
                    _ => {
                        let (second, st2) = whole_search(f, s1, s2, &self.due_of, SECOND, self.tr);
                        self.tr.step(
                            "CA-1",
                            format!(
                                "first search failed after {} visits; whole-group search: {} after {} visits [DV 7.2]",
                                st1.visits,
                                match &second {
                                    Outcome::Found(_) => "found",
                                    Outcome::Exhausted => "exhausted",
                                    Outcome::LimitReached => "visit limit 50000",
                                },
                                st2.visits
                            ),
                            Vec::new(),
                        );
                        match second {
                            Outcome::Found(p) => Some(p),
                            Outcome::LimitReached => {
                                whole_limit = true;
                                None
                            }
                            Outcome::Exhausted => None,
                        }
                    }
                }
            } else {
                self.tr.step(
                    "CA-1",
                    "the dues cannot be balanced: the group fails [DV 5]",
                    Vec::new(),
                );
                None
            };
            match found {
                Some(pairs) => {
                    for (x, y) in pairs {
                        if let Leg::Legal { white, black, rule } = f.leg(x, y, None) {
                            self.tr.step(
                                "CA-1",
                                format!(
                                    "{} - {}: {}",
                                    f.name(white),
                                    f.name(black),
                                    rule.describe()
                                ),
                                vec![white, black],
                            );
                            stored.push(Board { white, black });
                        }
                    }
                    req = 0;
                }
                None => {
                    // §5 step 8 = §3.7.
                    if stored.pairs.len() + h == target {
                        take_all = true;
                        match stored.break_last(f) {
                            Some(b) if !whole_limit => {
                                self.tr.step(
                                    "CA-1",
                                    format!(
                                        "the bottom group cannot be paired: pairs re-sorted [OUT], the last one {} - {} is broken [DV 8]",
                                        f.name(b.white),
                                        f.name(b.black)
                                    ),
                                    vec![b.white, b.black],
                                );
                            }
                            _ => {
                                let why = if whole_limit {
                                    "the whole-group search reached its visit limit with everybody left in the group"
                                } else {
                                    "no stored pair is left to break"
                                };
                                return Err(PairError::NoLegalPairing {
                                    rule: "CA-1 [DV 8]".to_string(),
                                    message: format!(
                                        "the bottom group cannot be paired and {why} (\"Cannot perform pairing!\")"
                                    ),
                                    explanation: std::mem::take(self.tr).finish(),
                                });
                            }
                        }
                    } else {
                        self.tr.step(
                            "CA-1",
                            format!(
                                "the group cannot be paired: it is rebuilt with at least {} players [DV 8]",
                                req + 2
                            ),
                            Vec::new(),
                        );
                    }
                    req += 2;
                }
            }
        }
        Ok(stored.pairs)
    }

    /// §5 step 4.1: the group of `head`, one upfloater per scan.
    fn build_group(
        &mut self,
        head: PlayerIdx,
        head_pos: usize,
        req: usize,
        take_all: &mut bool,
        stored: &Stored,
    ) -> Vec<PlayerIdx> {
        let f = self.f;
        let ranking = &f.ranking;
        let mut group = vec![head];
        let mut in_group: HashSet<PlayerIdx> = HashSet::from([head]);
        self.due_of[head] = self.ask(head);
        let mut reserve: Option<usize> = None;
        loop {
            let before = group.len();
            let mut pos = head_pos + 1;
            loop {
                if pos >= ranking.len() {
                    // Step 4.1.2: the end of the list; the rest of the round takes all.
                    *take_all = true;
                    break;
                }
                let mut c_pos = pos;
                pos += 1;
                let c0 = ranking[c_pos];
                if in_group.contains(&c0)
                    || !f.present[c0]
                    || Some(c0) == self.bye
                    || stored.paired[c0]
                {
                    continue;
                }
                if *take_all || f.score[c0] == f.score[head] {
                    self.due_of[c0] = self.ask(c0);
                    group.push(c0);
                    in_group.insert(c0);
                    continue;
                }
                if group.len().is_multiple_of(2) && group.len() >= req {
                    break;
                }
                // Step 4.1.5.2: "may upfloat" is always true here.
                let balancing = balancing_colour(&group, &self.due_of);
                let mut due = self.ask(c0);
                if let Some(rp) = reserve
                    && f.score[ranking[rp]] > f.score[c0]
                {
                    // The reserve swap: the reserve is taken as if due the balancing colour.
                    reserve = None;
                    c_pos = rp;
                    pos = rp + 1;
                    if let Some(b) = balancing {
                        due = b;
                    }
                    self.tr.detail("CA-1", &[c0, ranking[rp]], || {
                        format!(
                            "{} scores less than the reserve {}: the reserve is tried as if due the balancing colour [DV 4.1.5.2.2]",
                            f.name(c0),
                            f.name(ranking[rp])
                        )
                    });
                }
                let c = ranking[c_pos];
                if balancing.is_none_or(|b| b == due) {
                    if group.iter().any(|&m| f.leg(m, c, None).is_legal()) {
                        let due = self.ask(c);
                        self.due_of[c] = due;
                        group.push(c);
                        in_group.insert(c);
                        if reserve == Some(c_pos) {
                            reserve = None;
                        }
                        self.tr.step(
                            "CA-1",
                            format!(
                                "{} joins the group as upfloater (balancing colour {}) [DV 4.1.5.2.3]",
                                f.name(c),
                                balancing.map_or("none".to_string(), |b| b.to_string())
                            ),
                            vec![c],
                        );
                        break;
                    }
                    self.tr.detail("CA-1", &[c], || {
                        format!(
                            "{} has no legal opponent in the group [DV 4.1.5.2.3]",
                            f.name(c)
                        )
                    });
                } else if reserve.is_none() {
                    let due = self.ask(c);
                    if can_change_colour(f, c, due) {
                        reserve = Some(c_pos);
                        self.tr.detail("CA-1", &[c], || {
                            format!(
                                "{} (due {due}) becomes the reserve [DV 4.1.5.2.4]",
                                f.name(c)
                            )
                        });
                    }
                }
            }
            // Step 4.1.6: one more scan while the group is odd or short.
            let done = if req == 0 {
                group.len().is_multiple_of(2)
            } else {
                group.len().is_multiple_of(2) && group.len() >= req
            };
            // A scan that took nobody after the end of the list was reached cannot take
            // anybody on the next one either: nothing is left to add.
            if done || (*take_all && group.len() == before) {
                return group;
            }
        }
    }

    /// §5 step 5: forces dues until the group is balanced; false when it cannot be.
    fn balance(&mut self, group: &[PlayerIdx]) -> bool {
        let f = self.f;
        let mut tried: HashSet<PlayerIdx> = HashSet::new();
        for _ in 0..group.len() {
            let Some(target) = balancing_colour(group, &self.due_of) else {
                return true;
            };
            let candidates = group
                .iter()
                .enumerate()
                .filter(|&(_, p)| self.due_of[*p] != target && !tried.contains(p));
            let pick = match target {
                // Too many due White: the lowest ARO, then the higher rating, then the
                // earlier in the group.
                Colour::Black => candidates
                    .min_by(|(i, a), (j, b)| {
                        f.aro[**a]
                            .cmp(&f.aro[**b])
                            .then(f.rating[**b].cmp(&f.rating[**a]))
                            .then(i.cmp(j))
                    })
                    .map(|(_, &p)| p),
                // Too many due Black: the highest ARO, then the lower rating, then the
                // earlier in the group.
                Colour::White => candidates
                    .min_by(|(i, a), (j, b)| {
                        f.aro[**b]
                            .cmp(&f.aro[**a])
                            .then(f.rating[**a].cmp(&f.rating[**b]))
                            .then(i.cmp(j))
                    })
                    .map(|(_, &p)| p),
            };
            let Some(p) = pick else {
                break;
            };
            if can_change_colour(f, p, self.due_of[p]) {
                self.due_of[p] = target;
                self.tr.step(
                    "CA-1",
                    format!(
                        "{} is forced to {target} to balance the group's dues [DV 5]",
                        f.name(p)
                    ),
                    vec![p],
                );
            } else {
                tried.insert(p);
                self.tr.detail("CA-1", &[p], || {
                    format!("{} cannot change colour [DV 5.6]", f.name(p))
                });
            }
        }
        balancing_colour(group, &self.due_of).is_none()
    }

    /// §5 step 6: the swap pass, then the halves sorted without a score key.
    fn halves(&mut self, group: &mut [PlayerIdx]) {
        let f = self.f;
        swap_pass(f, group, &self.due_of, self.tr, "CA-1");
        let h = group.len() / 2;
        // The keys are built once: an exchange sort compares O(h²) times, and names compare
        // case-insensitively.
        type Key = (u32, u32, String, PlayerIdx);
        let key = |p: PlayerIdx| -> Key {
            (
                f.aro[p],
                f.rating[p],
                f.r.tournament.players[p].name.to_lowercase(),
                p,
            )
        };
        let mut first: Vec<Key> = group[..h].iter().map(|&p| key(p)).collect();
        let mut second: Vec<Key> = group[h..].iter().map(|&p| key(p)).collect();
        // First half: ARO asc, rating asc, name asc.
        exchange_sort(&mut first, |x, y| (x.0, x.1, &x.2) < (y.0, y.1, &y.2));
        // Second half: rating desc, ARO desc, name asc.
        exchange_sort(&mut second, |x, y| (y.1, y.0, &x.2) < (x.1, x.0, &y.2));
        for (slot, k) in group.iter_mut().zip(first.iter().chain(&second)) {
            *slot = k.3;
        }
        let (top, bottom) = group.split_at(h);
        let list = |side: &[PlayerIdx]| {
            side.iter()
                .map(|&p| format!("{} (due {}, ARO {})", f.name(p), self.due_of[p], f.aro[p]))
                .collect::<Vec<_>>()
                .join(", ")
        };
        self.tr.step(
            "CA-1",
            format!(
                "first half (ARO asc, rating asc, name): {}; second half (rating desc, ARO desc, name): {} [DV 6]",
                list(top),
                list(bottom)
            ),
            group.to_vec(),
        );
    }
}

/// §5 step 5.6: whether a player may take the colour opposite to his current due without a
/// third colour in a row or a difference above 2 (Perfect Colours tests the last round too).
pub fn can_change_colour(f: &Field, p: PlayerIdx, due: Colour) -> bool {
    let new = due.opposite();
    let played = &f.colours[p];
    let third = matches!(played.as_slice(), [.., x, y] if *x == new && *y == new);
    let w = i64::from(f.whites[p]) + i64::from(new == Colour::White);
    let b = i64::from(f.blacks[p]) + i64::from(new == Colour::Black);
    !third && (w - b).abs() <= 2
}
