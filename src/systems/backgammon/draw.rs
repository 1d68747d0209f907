//! The draw inside win groups (BG-4..BG-6), with float compensation (BG-7) and the
//! phantom [absent] (BG-3, BG-11), as the regulation's arbiter does it with a hat.
//!
//! The draw works on *entries*: real players, [absent] phantoms, or, for the early draw of
//! round 2 (BG-8), "winner of board i" placeholders. Groups are drawn from the most wins
//! down. In each group:
//!
//! 1. **Players coming down** from the group above (BG-5) are paired first, each with a
//!    player of this group: the one who once went down (BG-7.1) is chosen first, one who
//!    once went up (BG-7.2) last, the rest by lot; if nobody here can take him, the next
//!    lower group is searched (BG-6).
//! 2. **Who goes down.** With an odd number left, one player goes down to the next group
//!    (BG-5): one who once went up first (BG-7.2), never one who once went down if it can be
//!    helped (BG-7.1), otherwise the last in the lot order (he is the one "left over when
//!    his group is exhausted"). If the group cannot be paired within itself at all, as few
//!    players as possible go down, chosen in the same order (BG-6, "look in the next lower
//!    group").
//! 3. **The draw.** The first player in the lot order is drawn; his opponents are drawn in
//!    lot order. One he already met (or may not meet: CG-10, BG-3) is put back and another
//!    drawn (BG-6). A pair after which the rest of the group could not all be paired is
//!    undone and the next opponent drawn (BG-6, "undo as many pairs of the same group as
//!    needed"): an exact look-ahead ([`crate::matching::cardinality`]) finds that at once,
//!    giving the same pairs as undoing later would, in polynomial time.
//!
//! The lot order is a seeded key per entry ([`super::rng`]); [absent] phantoms always come
//! last in it, so the last player left in the 0-win group meets [absent] (the wording of
//! BG-8, and the same chance for everyone under BG-3).
//!
//! **Levels.** The whole draw is first tried keeping BG-7 as an absolute rule: a pairing
//! across groups is allowed only if the higher player never went down and the lower one never
//! went up. If no complete pairing exists that way, BG-7 becomes a preference (the orders of
//! steps 1 and 2) and the explanation says so ("BG-7 respected where possible"); for the
//! extra [absent] of BG-11, BG-3's once-only rule is dropped next (BG-11's own order). Every
//! choice above is checked against the existence of a complete pairing of everyone left,
//! so the draw never paints itself into a corner: CG-7's error comes only when no pairing
//! exists at all.
use rustc_hash::FxHashMap;

use super::floats::{self, Status};
use super::record::Conflict;
use crate::matching;
use crate::model::PlayerIdx;
use crate::systems::Explanation;

/// How strictly the rules are kept (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Every rule, BG-7 included, is absolute.
    Strict,
    /// BG-7 is a preference.
    Bg7Dropped,
    /// Also BG-3's once-only rule, for BG-11's extra [absent] only.
    OnceOnlyDropped,
}

/// Which rule brought an [absent] into the draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phantom {
    /// BG-3: the odd field's [absent], drawn with 0 wins.
    Odd,
    /// BG-11: an extra [absent] for the undefeated players; it counts 0 wins for BG-7.
    Bg11,
}

/// Something drawn: a player, a phantom or a placeholder.
#[derive(Clone, Debug)]
pub struct Entry {
    /// How the explanation names it.
    pub label: String,
    /// The real player it is, when known (None for phantoms and unresolved placeholders).
    pub player: Option<PlayerIdx>,
    /// Whom explanation steps about it name.
    pub players: Vec<PlayerIdx>,
    pub phantom: Option<Phantom>,
    /// The win group it is drawn in.
    pub group: u32,
    /// Its wins for BG-7's comparisons ([absent]: 0, BG-3).
    pub wins: u32,
    pub status: Status,
    /// The rounds behind `status`, for explanations.
    pub status_note: String,
    /// A round in which it already met [absent] (BG-3).
    pub met_absent: Option<u32>,
    /// Whether it won every round so far (BG-11's extra [absent] plays only those).
    pub undefeated: bool,
    /// Lot key: lower is drawn first.
    pub lot: u64,
}

impl Entry {
    /// A real (or placeholder) entry with no history yet.
    pub fn new(label: String, players: Vec<PlayerIdx>, group: u32, lot: u64) -> Entry {
        Entry {
            label,
            player: None,
            players,
            phantom: None,
            group,
            wins: group,
            status: Status::Normal,
            status_note: String::new(),
            met_absent: None,
            undefeated: false,
            lot,
        }
    }

    /// An [absent] drawn in `group`; always last in the lot order.
    pub fn phantom(kind: Phantom, group: u32) -> Entry {
        Entry {
            phantom: Some(kind),
            wins: 0,
            ..Entry::new("[absent]".to_string(), Vec::new(), group, u64::MAX)
        }
    }
}

/// A draw to run: its entries and who may not meet whom.
pub struct Draw {
    /// Fixed once the draw is made ([`Draw::entries`] reads them): `lot_order` follows them.
    entries: Vec<Entry>,
    /// Every entry, group by group from the top, in lot order within a group.
    lot_order: Vec<usize>,
    /// Entry pairs (lower index first) that may not meet, and why ("they met in round 2").
    conflicts: FxHashMap<(usize, usize), Conflict>,
    /// The same, as lists per entry.
    partners: Vec<Vec<usize>>,
    /// Labels of the explanation groups, by win group; default "N wins".
    labels: FxHashMap<u32, String>,
    /// The weak separations of the round (SEP-5.3, [`Draw::draw_within`]); none by default.
    pub weak: crate::model::WeakSeparations,
    /// Whether the steps shown only with full detail are written (`RoundToPair::detail`);
    /// true by default. Without them the answer is the same: the summary drops them.
    pub full_detail: bool,
}

/// The outcome of a draw.
#[derive(Clone, Debug)]
pub struct Drawn {
    /// Pairs of entry indices, first-drawn first, in board order.
    pub pairs: Vec<(usize, usize)>,
    pub level: Level,
    /// Pairings that break a rule the level dropped, described.
    pub relaxed: Vec<String>,
}

fn key(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

/// Why a pair may not be drawn (`Draw::refusal`).
enum Refusal<'a> {
    SameEntry,
    AbsentAgainstAbsent,
    /// A past meeting or a forbidden pair, as [`Draw::forbid`] described it.
    Conflict(&'a Conflict),
    /// The higher entry went down last time (BG-7.1).
    DownAgain(&'a Entry),
    /// The lower entry went up last time (BG-7.2).
    UpAgain(&'a Entry),
    /// BG-11's [absent] and an entry with a loss.
    AbsentWantsUndefeated(&'a Entry),
    /// The entry met [absent] before (BG-3), in this round.
    MetAbsent(&'a Entry, u32),
    /// An entry that went down, against [absent]'s 0 wins (BG-7.1).
    DownToAbsent(&'a Entry),
}

impl Refusal<'_> {
    fn rule(&self) -> &'static str {
        match self {
            Refusal::SameEntry | Refusal::Conflict(_) => "BG-6",
            Refusal::AbsentAgainstAbsent | Refusal::MetAbsent(..) => "BG-3",
            Refusal::DownAgain(_) | Refusal::DownToAbsent(_) => "BG-7.1",
            Refusal::UpAgain(_) => "BG-7.2",
            Refusal::AbsentWantsUndefeated(_) => "BG-11",
        }
    }

    fn describe(&self) -> String {
        match self {
            Refusal::SameEntry => "the same entry".to_string(),
            Refusal::AbsentAgainstAbsent => "[absent] does not play [absent]".to_string(),
            Refusal::Conflict(why) => why.to_string(),
            Refusal::DownAgain(e) => {
                format!(
                    "{} was {}: not again with fewer wins",
                    e.label, e.status_note
                )
            }
            Refusal::UpAgain(e) => {
                format!(
                    "{} was {}: not again with more wins",
                    e.label, e.status_note
                )
            }
            Refusal::AbsentWantsUndefeated(e) => format!(
                "{} is not undefeated: BG-11's [absent] plays only undefeated players",
                e.label
            ),
            Refusal::MetAbsent(e, r) => format!("{} already met [absent] in round {r}", e.label),
            Refusal::DownToAbsent(e) => format!(
                "{} was {}: [absent] counts 0 wins, so not again with fewer wins",
                e.label, e.status_note
            ),
        }
    }
}

/// Most combinations tried when choosing who goes down, before taking them from a complete
/// pairing instead (only pathological groups get there).
const LEFTOVER_BUDGET: usize = 4096;

impl Draw {
    pub fn new(entries: Vec<Entry>) -> Draw {
        let n = entries.len();
        // Every sort key of the draw ends with the entry itself, so an unstable sort gives
        // the one order there is, without a stable sort's scratch buffer.
        let mut keyed: Vec<(std::cmp::Reverse<u32>, u64, usize)> = entries
            .iter()
            .enumerate()
            .map(|(e, en)| (std::cmp::Reverse(en.group), en.lot, e))
            .collect();
        keyed.sort_unstable();
        Draw {
            entries,
            lot_order: keyed.into_iter().map(|(_, _, e)| e).collect(),
            // Past meetings are most of the conflicts: a few per entry, so room for two
            // each spares most of the table's regrowth.
            conflicts: FxHashMap::with_capacity_and_hasher(2 * n, Default::default()),
            partners: vec![Vec::new(); n],
            labels: FxHashMap::default(),
            weak: Default::default(),
            full_detail: true,
        }
    }

    /// The entries drawn, as made.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// SEP-5.3: whether two entries are players sharing a group of a weak separation.
    fn groupmates(&self, a: usize, b: usize) -> bool {
        match (self.entries[a].player, self.entries[b].player) {
            (Some(p), Some(q)) => self.weak.any_within(p, q),
            _ => false,
        }
    }

    /// Two entries may not meet, for `why`.
    pub fn forbid(&mut self, a: usize, b: usize, why: String) {
        self.forbid_because(a, b, Conflict::Other(why));
    }

    /// [`Draw::forbid`] with the reason undescribed until an explanation step asks.
    pub fn forbid_because(&mut self, a: usize, b: usize, why: Conflict) {
        if a == b || a >= self.entries.len() || b >= self.entries.len() {
            return;
        }
        if let std::collections::hash_map::Entry::Vacant(slot) = self.conflicts.entry(key(a, b)) {
            slot.insert(why);
            self.partners[a].push(b);
            self.partners[b].push(a);
        }
    }

    /// The most partners any entry of `pool`, a set of one win group, may not meet inside
    /// it. Inside a group BG-7 has nothing to say, so only past meetings, forbidden pairs and
    /// [absent]'s rules count, a few per player.
    fn most_blocked(&self, pool: &[usize], level: Level) -> usize {
        let mut inside = vec![false; self.entries.len()];
        for &e in pool {
            inside[e] = true;
        }
        let phantoms: Vec<usize> = pool
            .iter()
            .copied()
            .filter(|&e| self.entries[e].phantom.is_some())
            .collect();
        pool.iter()
            .map(|&v| {
                if self.entries[v].phantom.is_some() {
                    pool.iter().filter(|&&u| !self.allowed(v, u, level)).count()
                } else {
                    self.partners[v].iter().filter(|&&u| inside[u]).count()
                        + phantoms
                            .iter()
                            .filter(|&&f| !self.allowed(v, f, level))
                            .count()
                }
            })
            .max()
            .unwrap_or(0)
    }

    pub fn label_group(&mut self, group: u32, label: String) {
        self.labels.insert(group, label);
    }

    fn name(&self, e: usize) -> &str {
        &self.entries[e].label
    }

    fn about(&self, list: &[usize]) -> Vec<PlayerIdx> {
        list.iter()
            .flat_map(|&e| self.entries[e].players.iter().copied())
            .collect()
    }

    /// Whether `a` and `b` may be paired at this level.
    pub fn allowed(&self, a: usize, b: usize, level: Level) -> bool {
        self.refusal(a, b, level).is_none()
    }

    /// Why `a` and `b` may not be paired at this level: (rule id, reason).
    fn why_not(&self, a: usize, b: usize, level: Level) -> Option<(&'static str, String)> {
        self.refusal(a, b, level).map(|r| (r.rule(), r.describe()))
    }

    /// What refuses `a` against `b` at this level, described only when asked: the draw's
    /// matching asks [`Draw::allowed`] of thousands of pairs (issue 22: writing each
    /// reason was a tenth of a small request).
    fn refusal(&self, a: usize, b: usize, level: Level) -> Option<Refusal<'_>> {
        if a == b {
            return Some(Refusal::SameEntry);
        }
        let (ea, eb) = (&self.entries[a], &self.entries[b]);
        match (ea.phantom, eb.phantom) {
            (Some(_), Some(_)) => Some(Refusal::AbsentAgainstAbsent),
            (Some(kind), None) => Self::refusal_of_absent(kind, eb, level),
            (None, Some(kind)) => Self::refusal_of_absent(kind, ea, level),
            (None, None) => {
                if let Some(why) = self.conflicts.get(&key(a, b)) {
                    return Some(Refusal::Conflict(why));
                }
                if level == Level::Strict && ea.wins != eb.wins {
                    let (hi, lo) = if ea.wins > eb.wins {
                        (ea, eb)
                    } else {
                        (eb, ea)
                    };
                    if hi.status == Status::WentDown {
                        return Some(Refusal::DownAgain(hi));
                    }
                    if lo.status == Status::WentUp {
                        return Some(Refusal::UpAgain(lo));
                    }
                }
                None
            }
        }
    }

    /// What refuses [absent] of `kind` against `p` at this level.
    fn refusal_of_absent(kind: Phantom, p: &Entry, level: Level) -> Option<Refusal<'_>> {
        if kind == Phantom::Bg11 && !p.undefeated {
            return Some(Refusal::AbsentWantsUndefeated(p));
        }
        if let Some(r) = p.met_absent
            && !(kind == Phantom::Bg11 && level >= Level::OnceOnlyDropped)
        {
            return Some(Refusal::MetAbsent(p, r));
        }
        if level == Level::Strict && p.wins > 0 && !floats::keeps_bg7(p.status, None) {
            return Some(Refusal::DownToAbsent(p));
        }
        None
    }

    /// Whether the entries of `set` can all be paired among themselves.
    fn perfect(&self, set: &[usize], level: Level) -> bool {
        crate::cancel::checkpoint();
        // Group by group in lot order, so that the matching's greedy start pairs inside the
        // groups (always allowed but for a few past meetings) and leaves little to augment:
        // the draw's order kept to `set`, without sorting it again at every call.
        let mut inside = vec![false; self.entries.len()];
        for &e in set {
            inside[e] = true;
        }
        let order: Vec<usize> = self
            .lot_order
            .iter()
            .copied()
            .filter(|&e| inside[e])
            .collect();
        matching::has_perfect_matching(order.len(), |i, j| self.allowed(order[i], order[j], level))
    }

    fn list(&self, set: &[usize]) -> String {
        set.iter()
            .map(|&e| self.name(e))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Runs the draw at the first of `levels` at which everyone can be paired; `None` when
    /// none can (CG-7).
    pub fn run(&self, levels: &[Level], ex: &mut Explanation) -> Option<Drawn> {
        let n = self.entries.len();
        let all: Vec<usize> = (0..n).collect();
        let level = levels.iter().copied().find(|&l| self.perfect(&all, l))?;
        match level {
            Level::Strict => {}
            Level::Bg7Dropped => ex.step(
                "BG-7",
                "no draw keeps BG-7 for every player: it is kept where possible (who goes down and who meets him follow BG-7.1/7.2 first)",
                Vec::new(),
            ),
            Level::OnceOnlyDropped => ex.step(
                "BG-11",
                "no draw keeps BG-7 and BG-3's once-only rule for BG-11's [absent]: BG-7 is dropped first, then the once-only rule (BG-11)",
                Vec::new(),
            ),
        }
        let mut paired = vec![false; n];
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut groups: Vec<u32> = self.entries.iter().map(|e| e.group).collect();
        groups.sort_unstable_by(|a, b| b.cmp(a));
        groups.dedup();
        let mut carried: Vec<usize> = Vec::new();
        for &g in &groups {
            let mut members: Vec<usize> = (0..n)
                .filter(|&e| !paired[e] && self.entries[e].group == g)
                .collect();
            members.sort_unstable_by_key(|&e| (self.entries[e].lot, e));
            let label = self.labels.get(&g).cloned().unwrap_or_else(|| wins(g));
            ex.group(format!("{label} ({} drawn)", members.len()));
            if members.len() > 1 && self.full_detail {
                ex.detail(
                    "BG-4",
                    format!("lot order: {}", self.list(&members)),
                    self.about(&members),
                );
            }
            // 1. Players coming down from above (BG-5, BG-7.1).
            let floaters = std::mem::take(&mut carried);
            for (k, &q) in floaters.iter().enumerate() {
                let x =
                    self.place_floater(q, &floaters[k + 1..], &members, g, &paired, level, ex)?;
                paired[q] = true;
                paired[x] = true;
                pairs.push((q, x));
            }
            members.retain(|&e| !paired[e]);
            // 2. Who goes down (BG-5, BG-6, BG-7.2).
            let lower: Vec<usize> = (0..n)
                .filter(|&e| !paired[e] && self.entries[e].group < g)
                .collect();
            let down = self.choose_leftovers(&members, &lower, level, ex);
            members.retain(|e| !down.contains(e));
            // 3. The draw inside the group (BG-4, BG-6).
            self.draw_within(&mut members, level, &mut pairs, ex)?;
            for &(a, b) in &pairs {
                paired[a] = true;
                paired[b] = true;
            }
            carried = down;
        }
        if !carried.is_empty() || paired.iter().any(|p| !p) {
            return None;
        }
        let relaxed = self.relaxed(&pairs, level);
        for r in &relaxed {
            ex.step(
                if level == Level::OnceOnlyDropped {
                    "BG-11"
                } else {
                    "BG-7"
                },
                r.clone(),
                Vec::new(),
            );
        }
        Some(Drawn {
            pairs,
            level,
            relaxed,
        })
    }

    /// Step 1: the opponent of `q`, who comes down into group `g`.
    #[allow(clippy::too_many_arguments)]
    fn place_floater(
        &self,
        q: usize,
        other_floaters: &[usize],
        members: &[usize],
        g: u32,
        paired: &[bool],
        level: Level,
        ex: &mut Explanation,
    ) -> Option<usize> {
        let n = self.entries.len();
        let mut here: Vec<usize> = members.iter().copied().filter(|&e| !paired[e]).collect();
        // BG-7.1: one who went down is the one chosen; BG-7.2: one who went up, last.
        here.sort_unstable_by_key(|&e| {
            (
                self.entries[e].status.receive_priority(),
                self.entries[e].lot,
                e,
            )
        });
        let mut below: Vec<usize> = (0..n)
            .filter(|&e| !paired[e] && e != q && self.entries[e].group < g)
            .collect();
        below.sort_unstable_by_key(|&e| {
            (
                std::cmp::Reverse(self.entries[e].group),
                self.entries[e].lot,
                e,
            )
        });
        let others: Vec<usize> = other_floaters
            .iter()
            .copied()
            .filter(|&e| !paired[e])
            .collect();
        let qe = &self.entries[q];
        for (stage, candidates) in [(0, &here), (1, &below), (2, &others)] {
            for &x in candidates {
                if let Some((rule, why)) = self.why_not(q, x, level) {
                    if stage == 0 {
                        ex.step(
                            rule,
                            format!(
                                "{} drawn for {}: {why}; put back, drawn again",
                                self.name(x),
                                qe.label
                            ),
                            self.about(&[q, x]),
                        );
                    }
                    continue;
                }
                let rest: Vec<usize> = (0..n).filter(|&e| !paired[e] && e != q && e != x).collect();
                if !self.perfect(&rest, level) {
                    ex.step(
                        "BG-6",
                        format!(
                            "{} drawn for {}: the players left could then not all be paired; undone, drawn again",
                            self.name(x),
                            qe.label
                        ),
                        self.about(&[q, x]),
                    );
                    continue;
                }
                let xe = &self.entries[x];
                let (rule, how) = match stage {
                    0 if xe.status == Status::WentDown && here.first() == Some(&x) => (
                        "BG-7.1",
                        format!(
                            "{} was {}, so he is the one chosen",
                            xe.label, xe.status_note
                        ),
                    ),
                    0 => ("BG-5", format!("{} drawn by lot", xe.label)),
                    1 => (
                        "BG-6",
                        format!(
                            "nobody in this group can take him: {} from the {} group",
                            xe.label,
                            wins(xe.group)
                        ),
                    ),
                    _ => (
                        "BG-6",
                        format!("nobody below can take him: {} who also came down", xe.label),
                    ),
                };
                ex.step(
                    rule,
                    format!(
                        "{} ({}) comes down from the group above and meets {} ({}): {how}",
                        qe.label,
                        wins(qe.wins),
                        xe.label,
                        wins(xe.wins)
                    ),
                    self.about(&[q, x]),
                );
                return Some(x);
            }
        }
        None
    }

    /// Step 2: who of `members` goes down to `lower` (in the order chosen).
    fn choose_leftovers(
        &self,
        members: &[usize],
        lower: &[usize],
        level: Level,
        ex: &mut Explanation,
    ) -> Vec<usize> {
        if lower.is_empty() {
            return Vec::new();
        }
        let parity = members.len() % 2;
        let mut candidates: Vec<usize> = members
            .iter()
            .copied()
            .filter(|&e| self.entries[e].phantom.is_none())
            .collect();
        // BG-7.2 first, BG-7.1 last; otherwise the last in the lot order is left over.
        candidates.sort_unstable_by_key(|&e| {
            let en = &self.entries[e];
            (en.status.float_priority(), std::cmp::Reverse(en.lot), e)
        });
        let works = |down: &[usize]| -> bool {
            let inside: Vec<usize> = members
                .iter()
                .copied()
                .filter(|e| !down.contains(e))
                .collect();
            let mut below: Vec<usize> = lower.to_vec();
            below.extend_from_slice(down);
            self.perfect(&inside, level) && self.perfect(&below, level)
        };
        let mut budget = LEFTOVER_BUDGET;
        let mut k = parity;
        while k <= candidates.len() {
            let mut combo: Vec<usize> = (0..k).collect();
            loop {
                if budget == 0 {
                    return self.leftovers_from_pairing(members, lower, level, ex);
                }
                budget -= 1;
                let down: Vec<usize> = combo.iter().map(|&i| candidates[i]).collect();
                if works(&down) {
                    self.explain_leftovers(&down, members, &candidates, parity, level, ex);
                    return down;
                }
                if k == 1 && self.full_detail {
                    let e = &self.entries[down[0]];
                    let why = if level == Level::Strict && e.status == Status::WentDown {
                        (
                            "BG-7.1",
                            format!(
                                "{} was {}: he may not go down again",
                                e.label, e.status_note
                            ),
                        )
                    } else {
                        (
                            "BG-6",
                            format!(
                                "{} cannot be the one to go down: the others could then not all be paired",
                                e.label
                            ),
                        )
                    };
                    ex.detail(why.0, why.1, self.about(&down));
                }
                if !next_combination(&mut combo, candidates.len()) {
                    break;
                }
            }
            k += 2;
        }
        // Cannot happen when a complete pairing exists (all members going down works), but
        // never leave the draw without an answer.
        self.leftovers_from_pairing(members, lower, level, ex)
    }

    /// Who goes down in some complete pairing of everyone left, favouring pairs inside the
    /// group: the answer when the search for the fewest is too long.
    fn leftovers_from_pairing(
        &self,
        members: &[usize],
        lower: &[usize],
        level: Level,
        ex: &mut Explanation,
    ) -> Vec<usize> {
        let local: Vec<usize> = members.iter().chain(lower.iter()).copied().collect();
        let mate =
            matching::maximum_matching(local.len(), |i, j| self.allowed(local[i], local[j], level));
        let down: Vec<usize> = (0..members.len())
            .filter(|&i| mate[i].is_some_and(|m| m >= members.len()))
            .map(|i| local[i])
            .collect();
        if !down.is_empty() {
            ex.step(
                "BG-6",
                format!(
                    "the group cannot be paired within itself: {} go down to the next lower group",
                    self.list(&down)
                ),
                self.about(&down),
            );
        }
        down
    }

    fn explain_leftovers(
        &self,
        down: &[usize],
        members: &[usize],
        candidates: &[usize],
        parity: usize,
        level: Level,
        ex: &mut Explanation,
    ) {
        if down.is_empty() {
            return;
        }
        if down.len() > parity {
            let why = if parity == 0 && self.perfect(members, level) {
                "pairing the group within itself would leave players below who cannot all be paired"
            } else {
                "the group cannot be paired within itself"
            };
            ex.step(
                "BG-6",
                format!("{why}: {} go down to the next lower group", self.list(down)),
                self.about(down),
            );
            return;
        }
        let e = &self.entries[down[0]];
        let first = candidates.first() == Some(&down[0]);
        let (rule, why) = match e.status {
            Status::WentUp => (
                "BG-7.2",
                format!(
                    "{} was {}, so he is the first to go down",
                    e.label, e.status_note
                ),
            ),
            Status::WentDown => (
                "BG-7",
                format!(
                    "{} goes down although he was {}: no draw keeps BG-7.1 for him{}",
                    e.label,
                    e.status_note,
                    if level == Level::Strict {
                        ""
                    } else {
                        " (BG-7 kept where possible)"
                    }
                ),
            ),
            Status::Normal if first => (
                "BG-5",
                format!(
                    "{}, last in the lot order, is left over and goes down",
                    e.label
                ),
            ),
            Status::Normal => (
                "BG-5",
                format!(
                    "{} is left over and goes down (the last in the lot order who can)",
                    e.label
                ),
            ),
        };
        ex.step(
            rule,
            format!("odd number in the group: {why}"),
            self.about(down),
        );
    }

    /// Step 3: draws the pairs of `pool`, which can all be paired among themselves.
    /// SEP-5.3: with a weak separation, the drawn player's opponents who are not his
    /// groupmates are drawn first (in lot order), his groupmates only when none of the
    /// others can be taken.
    fn draw_within(
        &self,
        pool: &mut Vec<usize>,
        level: Level,
        pairs: &mut Vec<(usize, usize)>,
        ex: &mut Explanation,
    ) -> Option<()> {
        // Dirac: n players (n even, n >= 4) each allowed with at least n/2 of the others can
        // all be paired (the graph has a Hamiltonian cycle). Removing players never blocks
        // more pairs, so while the players left after a pair are at least 2·blocked + 2, any
        // allowed pair leaves a pairable rest and the exact look-ahead would agree: it is
        // skipped, which keeps large groups linear.
        let blocked = self.most_blocked(pool, level);
        let mut used = vec![false; self.entries.len()];
        let mut left = pool.len();
        let mut start = 0;
        while left > 0 {
            while used[pool[start]] {
                start += 1;
            }
            let a = pool[start];
            let quick = left >= 2 * blocked + 4 && left >= 6;
            let mut chosen = None;
            let passes: &[Option<bool>] = if self.weak.is_empty() {
                &[None]
            } else {
                &[Some(false), Some(true)]
            };
            for &pass in passes {
                if chosen.is_some() {
                    break;
                }
                for &x in pool[start + 1..]
                    .iter()
                    .filter(|&&x| !used[x] && pass.is_none_or(|m| self.groupmates(a, x) == m))
                {
                    if let Some((rule, why)) = self.why_not(a, x, level) {
                        ex.step(
                            rule,
                            format!(
                                "{} drawn for {}: {why}; put back, drawn again",
                                self.name(x),
                                self.name(a)
                            ),
                            self.about(&[a, x]),
                        );
                        continue;
                    }
                    if !quick {
                        let rest: Vec<usize> = pool
                            .iter()
                            .copied()
                            .filter(|&e| !used[e] && e != a && e != x)
                            .collect();
                        if !self.perfect(&rest, level) {
                            let who = if rest.len() <= 8 {
                                self.list(&rest)
                            } else {
                                format!("the {} others", rest.len())
                            };
                            ex.step(
                            "BG-6",
                            format!(
                                "{} drawn for {}: then {who} could not all be paired; pair undone, {} put back",
                                self.name(x),
                                self.name(a),
                                self.name(x)
                            ),
                            self.about(&[a, x]),
                        );
                            continue;
                        }
                    }
                    chosen = Some(x);
                    break;
                }
            }
            let x = chosen?;
            let message = if self.entries[x].phantom.is_some() {
                format!("{} meets [absent] and wins automatically", self.name(a))
            } else {
                // "A drawn, then X: A – X", pushed: one per board (issue 37).
                let (na, nx) = (self.name(a), self.name(x));
                let mut message = String::with_capacity(24 + 2 * (na.len() + nx.len()));
                for piece in [na, " drawn, then ", nx, ": ", na, " – ", nx] {
                    message.push_str(piece);
                }
                message
            };
            let rule = if self.entries[x].phantom == Some(Phantom::Bg11) {
                "BG-11"
            } else if self.entries[x].phantom.is_some() {
                "BG-3"
            } else {
                "BG-4"
            };
            ex.step(rule, message, self.about(&[a, x]));
            pairs.push((a, x));
            used[a] = true;
            used[x] = true;
            left -= 2;
        }
        pool.clear();
        Some(())
    }

    /// The pairs of a draw that break a rule the level dropped.
    fn relaxed(&self, pairs: &[(usize, usize)], level: Level) -> Vec<String> {
        if level == Level::Strict {
            return Vec::new();
        }
        pairs
            .iter()
            .filter_map(|&(a, b)| {
                self.why_not(a, b, Level::Strict).map(|(rule, why)| {
                    format!(
                        "{rule} not kept: {} – {}: {why}",
                        self.name(a),
                        self.name(b)
                    )
                })
            })
            .collect()
    }
}

/// "1 win", "3 wins".
pub fn wins(n: u32) -> String {
    format!("{n} win{}", if n == 1 { "" } else { "s" })
}

/// The next `k`-combination of `0..n` in lexicographic order; false after the last.
fn next_combination(combo: &mut [usize], n: usize) -> bool {
    let k = combo.len();
    for i in (0..k).rev() {
        if combo[i] < n - k + i {
            combo[i] += 1;
            for j in i + 1..k {
                combo[j] = combo[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_in_order() {
        let mut c = vec![0, 1];
        let mut all = vec![c.clone()];
        while next_combination(&mut c, 4) {
            all.push(c.clone());
        }
        assert_eq!(
            all,
            vec![
                vec![0, 1],
                vec![0, 2],
                vec![0, 3],
                vec![1, 2],
                vec![1, 3],
                vec![2, 3]
            ]
        );
        let mut empty: Vec<usize> = Vec::new();
        assert!(!next_combination(&mut empty, 3));
    }

    fn entries(groups: &[u32]) -> Vec<Entry> {
        groups
            .iter()
            .enumerate()
            .map(|(i, &g)| Entry::new(format!("p{i}"), vec![i], g, i as u64))
            .collect()
    }

    #[test]
    fn a_group_that_cannot_pair_within_itself_sends_players_down() {
        // Two 1-win players who met; two 0-win players who met: they must cross.
        let mut d = Draw::new(entries(&[1, 1, 0, 0]));
        d.forbid(0, 1, "they met in round 1".into());
        d.forbid(2, 3, "they met in round 1".into());
        let mut ex = Explanation::default();
        let drawn = d.run(&[Level::Strict], &mut ex).expect("a pairing exists");
        assert_eq!(drawn.pairs.len(), 2);
        for (a, b) in drawn.pairs {
            assert_ne!(d.entries[a].group, d.entries[b].group);
        }
    }

    #[test]
    fn no_pairing_at_all_is_none() {
        let mut d = Draw::new(entries(&[0, 0]));
        d.forbid(0, 1, "they met in round 1".into());
        assert!(
            d.run(
                &[Level::Strict, Level::Bg7Dropped],
                &mut Explanation::default()
            )
            .is_none()
        );
    }
}
