//! The group searches Simple Swiss and the old Dubov share (javapairing.md §3.5-3.7 and
//! §5.7-5.8): the S1-S2 depth-first search, the whole-group search, and breaking stored
//! pairs when the bottom group fails.
//!
//! Weak separations (SEP-5.3) enter both searches the same way: at the default place the
//! group is first searched with its groupmates refused, as if they had met (so a pairing
//! of the group without groupmates is taken at any colour cost the search's D allows);
//! only if that finds nothing, and in every search placed last, the group is searched as
//! usual with each player's groupmates tried after his other candidates, in the search's
//! own order. Without a weak separation the searches are unchanged.
//!
//! Both searches are bounded by JavaPairing's visit counters (10 000 and 50 000), which are
//! part of the defined result: a search that crosses its limit fails even if it found a
//! pairing on the visit that crossed it. The counters grow on every refused candidate and
//! every completed pairing, so the work per search is polynomial whatever the field.

use super::{Field, Trace, sort_stored_pairs};
use crate::model::{Colour, PlayerIdx};
use crate::systems::Board;

/// How a search treats weak separations' groupmates (SEP-5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Weak {
    /// No weak separation in the group: the search as JavaPairing runs it.
    Off,
    /// Groupmates at the default place refused, as if they had met.
    Refuse,
    /// Each player's groupmates tried after his other candidates.
    Last,
}

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

/// The memo M as a bitset over group positions (pairs for §3.5, players for §3.6), with
/// the set bits remembered so that emptying it costs what filling it did.
#[derive(Default)]
struct Memo {
    bits: Vec<u64>,
    set: Vec<usize>,
}

impl Memo {
    fn with_capacity(keys: usize) -> Memo {
        Memo {
            bits: vec![0; keys.div_ceil(64)],
            set: Vec::new(),
        }
    }

    /// Adds a key; false if it was there already.
    fn insert(&mut self, key: usize) -> bool {
        let (w, b) = (key / 64, 1u64 << (key % 64));
        if self.bits[w] & b != 0 {
            return false;
        }
        self.bits[w] |= b;
        self.set.push(key);
        true
    }

    fn clear(&mut self) {
        for key in self.set.drain(..) {
            self.bits[key / 64] = 0;
        }
    }
}

/// Groups up to this size cache the legality of every pair they test; larger ones (rare:
/// a whole field taken at once) test each time, to bound memory.
const CACHE_LIMIT: usize = 2048;

/// The searches work on positions in the group (`u32`), which keeps the lists small and the
/// legality cache a flat matrix.
struct Solver<'s, 'f, 'a> {
    f: &'f Field<'a>,
    group: Vec<PlayerIdx>,
    due: Vec<Colour>,
    cfg: SearchConfig,
    visits: u64,
    aborted: bool,
    /// D: the number of colour misfits allowed.
    d: usize,
    /// 2h, the group size.
    size: usize,
    memo: Memo,
    /// 0 = not tested yet, 1 = legal, 2 = illegal (with the pair's first as A).
    legal: Vec<u8>,
    path: Vec<(u32, u32)>,
    /// The rings of [`Solver::split`] and [`Solver::whole`].
    next: Vec<u32>,
    prev: Vec<u32>,
    stats: Stats,
    trace: &'s mut Trace,
    weak: Weak,
}

impl Solver<'_, '_, '_> {
    fn is_legal(&mut self, x: u32, y: u32) -> bool {
        crate::cancel::checkpoint();
        let (px, py) = (self.group[x as usize], self.group[y as usize]);
        if self.legal.is_empty() {
            return self.f.leg(px, py, None).is_legal();
        }
        let k = x as usize * self.size + y as usize;
        match self.legal[k] {
            1 => true,
            2 => false,
            _ => {
                let ok = self.f.leg(px, py, None).is_legal();
                self.legal[k] = if ok { 1 } else { 2 };
                ok
            }
        }
    }

    /// The three tests of §3.5 step 2 (2.1 is done by the caller): true when y is refused.
    /// The hot path only counts; the explanation is written out of line.
    #[inline]
    fn refuse(&mut self, x: u32, y: u32, n: usize) -> bool {
        let refused =
            if self.cfg.same_due && n > self.d && self.due[x as usize] == self.due[y as usize] {
                Some(true)
            } else if (self.weak == Weak::Refuse
                && self.f.weak.within(
                    self.group[x as usize],
                    self.group[y as usize],
                    crate::model::WeakPlace::Default,
                ))
                || !self.is_legal(x, y)
            {
                // SEP-5.3: a refused groupmate counts as a refusal like an illegal pair.
                Some(false)
            } else {
                None
            };
        match refused {
            None => false,
            Some(same_due) => {
                self.visits += 1;
                if self.trace.wants_detail() {
                    self.note_refusal(x, y, n, same_due);
                } else {
                    self.trace.skip();
                }
                true
            }
        }
    }

    fn note_rotation(&mut self, x: u32) {
        if !self.trace.wants_detail() {
            self.trace.skip();
            return;
        }
        let (f, label, px) = (self.f, self.cfg.label, self.group[x as usize]);
        self.trace.detail(self.cfg.rule, &[px], || {
            format!(
                "nobody fits {} first: rotate, the next player goes first (exchange) [{label}]",
                f.name(px)
            )
        });
    }

    /// A tentative pair, or its undoing when the rest could not be paired.
    #[inline]
    fn note_try(&mut self, x: u32, y: u32, tried: bool) {
        if !self.trace.wants_detail() {
            self.trace.skip();
            return;
        }
        let (px, py) = (self.group[x as usize], self.group[y as usize]);
        let (f, label, depth) = (self.f, self.cfg.label, self.path.len());
        self.trace.detail(self.cfg.rule, &[px, py], || {
            if tried {
                format!(
                    "try {} - {} (pair {depth}) [{label}]",
                    f.name(px),
                    f.name(py)
                )
            } else {
                format!(
                    "undo {} - {}: the players left cannot be paired (backtrack) [{label}]",
                    f.name(px),
                    f.name(py)
                )
            }
        });
    }

    #[cold]
    #[inline(never)]
    fn note_refusal(&mut self, x: u32, y: u32, n: usize, same_due: bool) {
        let (px, py) = (self.group[x as usize], self.group[y as usize]);
        let f = self.f;
        let d = self.d;
        let dx = self.due[x as usize];
        self.trace.detail(self.cfg.rule, &[px, py], || {
            if same_due {
                format!(
                    "{} - {} refused: both due {dx} while {n} > D = {d} players remain",
                    f.name(px),
                    f.name(py)
                )
            } else {
                let why = match f.leg(px, py, None) {
                    super::Leg::Illegal(why) => why.describe(),
                    super::Leg::Legal { .. } => {
                        "groupmates of a weak separation, refused in this search (SEP-5.3)"
                    }
                };
                format!("{} - {} refused: {why}", f.name(px), f.name(py))
            }
        });
    }

    /// The passes over a player's candidates: one, or (SEP-5.3, placed last or after a
    /// refusing search failed) the candidates who are not his groupmates, then those who are.
    fn passes(&self) -> &'static [Option<bool>] {
        if self.weak == Weak::Last {
            &[Some(false), Some(true)]
        } else {
            &[None]
        }
    }

    /// Whether candidate `y` of `x` is offered in `pass` (`Some(within)`: only groupmates
    /// or only others).
    #[inline]
    fn offered(&self, pass: Option<bool>, x: u32, y: u32) -> bool {
        pass.is_none_or(|within| {
            self.f
                .weak
                .any_within(self.group[x as usize], self.group[y as usize])
                == within
        })
    }

    fn over(&mut self) -> bool {
        if self.visits > self.cfg.limit {
            self.aborted = true;
        }
        self.aborted
    }

    fn unlink(&mut self, x: u32) {
        let (p, n) = (self.prev[x as usize], self.next[x as usize]);
        self.next[p as usize] = n;
        self.prev[n as usize] = p;
    }

    /// Undoes [`Solver::unlink`]; relinks must come in the reverse order of the unlinks.
    fn relink(&mut self, x: u32) {
        let (p, n) = (self.prev[x as usize], self.next[x as usize]);
        self.next[p as usize] = x;
        self.prev[n as usize] = x;
    }

    /// §3.5 Solve(S1, S2). S1 and S2 are two rings of group positions (dancing links):
    /// `h1` and `h2` are their first elements and `len` their common length. Removing a
    /// player and putting him back is O(1), and a rotation only moves the heads, so a
    /// failed call leaves the rings exactly as it found them.
    fn split(&mut self, mut h1: u32, mut h2: u32, len: usize) -> bool {
        if len == 0 {
            self.visits += 1;
            return true;
        }
        let n = 2 * len;
        loop {
            let x = h1;
            for &pass in self.passes() {
                let mut y = h2;
                for _ in 0..len {
                    if self.over() {
                        return false;
                    }
                    if !self.offered(pass, x, y) {
                        y = self.next[y as usize];
                        continue;
                    }
                    if !self.refuse(x, y, n) {
                        self.path.push((x, y));
                        self.note_try(x, y, true);
                        let next1 = self.next[x as usize];
                        let next2 = if y == h2 { self.next[y as usize] } else { h2 };
                        self.unlink(x);
                        self.unlink(y);
                        if self.split(next1, next2, len - 1) {
                            return true;
                        }
                        self.relink(y);
                        self.relink(x);
                        self.path.pop();
                        self.note_try(x, y, false);
                        if self.aborted {
                            return false;
                        }
                    }
                    y = self.next[y as usize];
                }
            }
            if !self.cfg.rotate || n == 2 || n == self.d {
                return false;
            }
            if self.memo.insert(x as usize * self.size + h2 as usize) {
                // Rotation: the next S1 player goes first, S2 rotated in step.
                self.stats.rotations += 1;
                self.note_rotation(x);
                h1 = self.next[h1 as usize];
                h2 = self.next[h2 as usize];
                continue;
            }
            if !self.relax(n) {
                return false;
            }
        }
    }

    /// §3.6 Solve(Q) on one ring of `len` players starting at `head`; the memo holds
    /// players here.
    fn whole(&mut self, mut head: u32, len: usize) -> bool {
        if len == 0 {
            self.visits += 1;
            return true;
        }
        loop {
            let x = head;
            for &pass in self.passes() {
                let mut y = self.next[x as usize];
                for _ in 1..len {
                    if self.over() {
                        return false;
                    }
                    if !self.offered(pass, x, y) {
                        y = self.next[y as usize];
                        continue;
                    }
                    if !self.refuse(x, y, len) {
                        self.path.push((x, y));
                        self.note_try(x, y, true);
                        self.unlink(y);
                        let rest = self.next[x as usize];
                        self.unlink(x);
                        if self.whole(rest, len - 2) {
                            return true;
                        }
                        self.relink(x);
                        self.relink(y);
                        self.path.pop();
                        self.note_try(x, y, false);
                        if self.aborted {
                            return false;
                        }
                    }
                    y = self.next[y as usize];
                }
            }
            if !self.cfg.rotate || len == 2 || len == self.d {
                return false;
            }
            if self.memo.insert(x as usize) {
                self.stats.rotations += 1;
                self.note_rotation(x);
                head = self.next[head as usize];
                continue;
            }
            if !self.relax(len) {
                return false;
            }
        }
    }

    /// At the root only: D grows by 2, M is emptied and the search starts again on the
    /// current lists.
    fn relax(&mut self, n: usize) -> bool {
        if n < self.size {
            return false;
        }
        self.d += 2;
        if self.d > self.size {
            return false;
        }
        self.memo.clear();
        self.stats.relaxations += 1;
        let (rule, label, d) = (self.cfg.rule, self.cfg.label, self.d);
        self.trace.detail(rule, &[], || {
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
            let g = &self.group;
            Outcome::Found(
                self.path
                    .iter()
                    .map(|&(x, y)| (g[x as usize], g[y as usize]))
                    .collect(),
            )
        } else {
            Outcome::Exhausted
        };
        (outcome, stats)
    }
}

/// |#due White − #due Black| over the group: the initial D.
fn misfits(due: &[Colour]) -> usize {
    let w = due.iter().filter(|&&c| c == Colour::White).count();
    w.abs_diff(due.len() - w)
}

fn solver<'s, 'f, 'a>(
    f: &'f Field<'a>,
    due_of: &[Colour],
    group: Vec<PlayerIdx>,
    cfg: SearchConfig,
    trace: &'s mut Trace,
) -> Solver<'s, 'f, 'a> {
    let due: Vec<Colour> = group.iter().map(|&p| due_of[p]).collect();
    let size = group.len();
    Solver {
        f,
        d: misfits(&due),
        due,
        group,
        cfg,
        visits: 0,
        aborted: false,
        size,
        memo: Memo::with_capacity(size * size),
        legal: if size <= CACHE_LIMIT {
            vec![0; size * size]
        } else {
            Vec::new()
        },
        path: Vec::new(),
        next: Vec::new(),
        prev: Vec::new(),
        stats: Stats::default(),
        trace,
        weak: Weak::Off,
    }
}

/// SEP-5.3: runs a search once without weak separations in the group; with them, first
/// refusing the groupmates of a default-place separation (kept if it finds a pairing),
/// then trying each player's groupmates last.
fn with_weak(
    f: &Field,
    group: &[PlayerIdx],
    cfg: SearchConfig,
    trace: &mut Trace,
    mut run: impl FnMut(Weak, &mut Trace) -> (Outcome, Stats),
) -> (Outcome, Stats) {
    if f.weak.is_empty() {
        return run(Weak::Off, trace);
    }
    let places = f.weak.shared_places(group.iter().copied());
    if places.is_empty() {
        return run(Weak::Off, trace);
    }
    if places.contains(&crate::model::WeakPlace::Default) {
        let refused = run(Weak::Refuse, trace);
        if matches!(refused.0, Outcome::Found(_)) {
            return refused;
        }
        trace.detail(cfg.rule, &[], || {
            format!(
                "no pairing of the group without groupmates of a weak separation: searched again with each player's groupmates tried last (SEP-5.3) [{}]",
                cfg.label
            )
        });
    }
    run(Weak::Last, trace)
}

/// Links `members` into a ring, in order.
fn ring(next: &mut [u32], prev: &mut [u32], members: &[u32]) {
    let k = members.len();
    for (i, &m) in members.iter().enumerate() {
        next[m as usize] = members[(i + 1) % k];
        prev[m as usize] = members[(i + k - 1) % k];
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
    let h = s1.len() as u32;
    let size = group.len();
    let top: Vec<u32> = (0..h).collect();
    let bottom: Vec<u32> = (h..size as u32).collect();
    with_weak(f, &group, cfg, trace, |weak, trace| {
        let mut s = solver(f, due, group.clone(), cfg, trace);
        s.weak = weak;
        s.next = vec![0; size];
        s.prev = vec![0; size];
        ring(&mut s.next, &mut s.prev, &top);
        ring(&mut s.next, &mut s.prev, &bottom);
        let found = s.split(0, h, h as usize);
        s.finish(found)
    })
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
    let size = q.len();
    let order: Vec<u32> = (0..size as u32).collect();
    with_weak(f, &q, cfg, trace, |weak, trace| {
        let mut s = solver(f, due, q.clone(), cfg, trace);
        s.weak = weak;
        s.next = vec![0; size];
        s.prev = vec![0; size];
        ring(&mut s.next, &mut s.prev, &order);
        let found = s.whole(0, size);
        s.finish(found)
    })
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
