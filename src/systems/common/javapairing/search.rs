//! The group searches Simple Swiss and the old Dubov share (javapairing.md §3.5-3.7 and
//! §5.7-5.8): the S1-S2 depth-first search, the whole-group search, and breaking stored
//! pairs when the bottom group fails.
//!
//! Both searches are bounded by JavaPairing's visit counters (10 000 and 50 000), which are
//! part of the defined result: a search that crosses its limit fails even if it found a
//! pairing on the visit that crossed it. The counters grow on every refused candidate and
//! every completed pairing, so the work per search is polynomial whatever the field.
use std::collections::HashSet;

use super::{Field, Trace, sort_stored_pairs};
use crate::model::{Colour, PlayerIdx};
use crate::systems::Board;

/// Which variant of the searches runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Refuse same-due pairs while more than D players remain (Simple; not Dubov).
    pub same_due: bool,
    /// Rotation with the memo M and D relaxation (Simple; not Dubov).
    pub rotate: bool,
    /// The visit limit.
    pub limit: u64,
    /// Rule id the explanation cites.
    pub rule: &'static str,
    /// javapairing.md label.
    pub label: &'static str,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The pairs (x, y) in the order the search made them; x came from the front.
    Found(Vec<(PlayerIdx, PlayerIdx)>),
    /// Every branch failed.
    Exhausted,
    /// The visit counter went past the limit.
    LimitReached,
}

/// What the search did, for explanations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub visits: u64,
    pub rotations: u64,
    pub relaxations: u32,
}

struct Solver<'s, 'f, 'a> {
    f: &'f Field<'a>,
    due: &'s [Colour],
    cfg: SearchConfig,
    visits: u64,
    aborted: bool,
    /// D: the number of colour misfits allowed.
    d: usize,
    /// 2h, the group size.
    size: usize,
    memo_pairs: HashSet<(PlayerIdx, PlayerIdx)>,
    memo_players: HashSet<PlayerIdx>,
    path: Vec<(PlayerIdx, PlayerIdx)>,
    stats: Stats,
    trace: &'s mut Trace,
}

impl Solver<'_, '_, '_> {
    /// The three tests of §3.5 step 2 (2.1 is done by the caller): true when y is refused.
    fn refuse(&mut self, x: PlayerIdx, y: PlayerIdx, n: usize) -> bool {
        if self.cfg.same_due && n > self.d && self.due[x] == self.due[y] {
            self.visits += 1;
            let f = self.f;
            let (rule, d, c) = (self.cfg.rule, self.d, self.due[x]);
            self.trace.detail(rule, vec![x, y], || {
                format!(
                    "{} - {} refused: both due {c} while {n} > D = {d} players remain",
                    f.name(x),
                    f.name(y)
                )
            });
            return true;
        }
        let leg = self.f.leg(x, y, None);
        if let super::Leg::Illegal(why) = leg {
            self.visits += 1;
            let f = self.f;
            self.trace.detail(self.cfg.rule, vec![x, y], || {
                format!("{} - {} refused: {}", f.name(x), f.name(y), why.describe())
            });
            return true;
        }
        false
    }

    fn over(&mut self) -> bool {
        if self.visits > self.cfg.limit {
            self.aborted = true;
        }
        self.aborted
    }

    /// §3.5 Solve(S1, S2).
    fn split(&mut self, s1: &[PlayerIdx], s2: &[PlayerIdx]) -> bool {
        let (mut s1, mut s2) = (s1.to_vec(), s2.to_vec());
        loop {
            let Some(&x) = s1.first() else {
                self.visits += 1;
                return true;
            };
            let n = s1.len() + s2.len();
            for j in 0..s2.len() {
                if self.over() {
                    return false;
                }
                let y = s2[j];
                if self.refuse(x, y, n) {
                    continue;
                }
                self.path.push((x, y));
                let rest2: Vec<PlayerIdx> = s2
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| k != j)
                    .map(|(_, &p)| p)
                    .collect();
                if self.split(&s1[1..], &rest2) {
                    return true;
                }
                self.path.pop();
                if self.aborted {
                    return false;
                }
            }
            if !self.cfg.rotate || n == 2 || n == self.d {
                return false;
            }
            let key = (x, s2[0]);
            if self.memo_pairs.insert(key) {
                // Rotation: the next S1 player goes first, S2 rotated in step.
                self.stats.rotations += 1;
                s1.rotate_left(1);
                s2.rotate_left(1);
                continue;
            }
            if !self.relax(n) {
                return false;
            }
            self.memo_pairs.clear();
        }
    }

    /// §3.6 Solve(Q).
    fn whole(&mut self, q: &[PlayerIdx]) -> bool {
        let mut q = q.to_vec();
        loop {
            let Some(&x) = q.first() else {
                self.visits += 1;
                return true;
            };
            let n = q.len();
            for j in 1..n {
                if self.over() {
                    return false;
                }
                let y = q[j];
                if self.refuse(x, y, n) {
                    continue;
                }
                self.path.push((x, y));
                let rest: Vec<PlayerIdx> = q
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| k != 0 && k != j)
                    .map(|(_, &p)| p)
                    .collect();
                if self.whole(&rest) {
                    return true;
                }
                self.path.pop();
                if self.aborted {
                    return false;
                }
            }
            if !self.cfg.rotate || n == 2 || n == self.d {
                return false;
            }
            if self.memo_players.insert(x) {
                self.stats.rotations += 1;
                q.rotate_left(1);
                continue;
            }
            if !self.relax(n) {
                return false;
            }
            self.memo_players.clear();
        }
    }

    /// At the root only: D grows by 2 and the search starts again on the current lists.
    fn relax(&mut self, n: usize) -> bool {
        if n < self.size {
            return false;
        }
        self.d += 2;
        if self.d > self.size {
            return false;
        }
        self.stats.relaxations += 1;
        let (rule, label, d) = (self.cfg.rule, self.cfg.label, self.d);
        self.trace.detail(rule, Vec::new(), || {
            format!("every first pair tried: D grows to {d} and the search restarts [{label}]")
        });
        true
    }

    fn finish(self, found: bool) -> (Outcome, Stats) {
        let mut stats = self.stats;
        stats.visits = self.visits;
        let outcome = if self.visits > self.cfg.limit {
            Outcome::LimitReached
        } else if found {
            Outcome::Found(self.path)
        } else {
            Outcome::Exhausted
        };
        (outcome, stats)
    }
}

/// |#due White − #due Black| over the group: the initial D.
fn misfits(group: &[PlayerIdx], due: &[Colour]) -> usize {
    let w = group.iter().filter(|&&p| due[p] == Colour::White).count();
    w.abs_diff(group.len() - w)
}

fn solver<'s, 'f, 'a>(
    f: &'f Field<'a>,
    due: &'s [Colour],
    group: &[PlayerIdx],
    cfg: SearchConfig,
    trace: &'s mut Trace,
) -> Solver<'s, 'f, 'a> {
    Solver {
        f,
        due,
        cfg,
        visits: 0,
        aborted: false,
        d: misfits(group, due),
        size: group.len(),
        memo_pairs: HashSet::new(),
        memo_players: HashSet::new(),
        path: Vec::new(),
        stats: Stats::default(),
        trace,
    }
}

/// §3.5 (Simple) or §5.7.1 (Dubov): S1 = first half, S2 = second half, in the order given.
/// `due` is indexed by player and holds the dues stored with the group's members.
pub fn split_search(
    f: &Field,
    s1: &[PlayerIdx],
    s2: &[PlayerIdx],
    due: &[Colour],
    cfg: SearchConfig,
    trace: &mut Trace,
) -> (Outcome, Stats) {
    let group: Vec<PlayerIdx> = s1.iter().chain(s2).copied().collect();
    let mut s = solver(f, due, &group, cfg, trace);
    let found = s.split(s1, s2);
    s.finish(found)
}

/// §3.6 (Simple) or §5.7.2 (Dubov): the interleaved list S1[1], S2[1], S1[2], S2[2], ….
pub fn whole_search(
    f: &Field,
    s1: &[PlayerIdx],
    s2: &[PlayerIdx],
    due: &[Colour],
    cfg: SearchConfig,
    trace: &mut Trace,
) -> (Outcome, Stats) {
    let mut q = Vec::with_capacity(s1.len() + s2.len());
    for (a, b) in s1.iter().zip(s2) {
        q.push(*a);
        q.push(*b);
    }
    let mut s = solver(f, due, &q, cfg, trace);
    let found = s.whole(&q);
    s.finish(found)
}

/// The pairs stored so far in the round, in storage order, and who is paired.
#[derive(Clone, Debug)]
pub struct Stored {
    pub pairs: Vec<Board>,
    pub paired: Vec<bool>,
}

impl Stored {
    pub fn new(players: usize) -> Stored {
        Stored {
            pairs: Vec::new(),
            paired: vec![false; players],
        }
    }

    pub fn push(&mut self, board: Board) {
        self.paired[board.white] = true;
        self.paired[board.black] = true;
        self.pairs.push(board);
    }

    /// §3.7 steps 1.2-1.3: re-sort the stored pairs by [OUT] and free the last one.
    pub fn break_last(&mut self, f: &Field) -> Option<Board> {
        sort_stored_pairs(f, &mut self.pairs);
        let board = self.pairs.pop()?;
        self.paired[board.white] = false;
        self.paired[board.black] = false;
        Some(board)
    }
}
