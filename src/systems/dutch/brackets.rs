//! Scoregroups, brackets and the bracket procedure (C.04.3 art. 1.3, 3 and 4).
//!
//! Brackets are paired top-down. Each bracket (its MDPs and residents) is paired by a
//! maximum-weight matching over the bracket, the next scoregroup (for C8) and, when needed,
//! everybody below (for C4 and the PAB): the weights (`weights.rs`) order C1-C21. The
//! optimum fixes *what* is achieved; the choices the criteria leave open are then fixed one
//! at a time in the generation order of art. 4, each time asking the matching "is there
//! still an optimal pairing in which ...?":
//!
//! 1. the MDPs to pair (art. 4.4: the first valid set, i.e. the earliest MDPs of each score);
//! 2. each MDP's opponent (art. 3.3/4.2: the first resident that still allows an optimum);
//! 3. the remainder's exchanges (art. 4.3: fewest players, smallest BSN sum difference,
//!    then S1 players from the bottom, then S2 players from the top);
//! 4. each remainder S1 player's opponent (art. 4.2: the first transposition).
//!
//! This is the method of the FIDE-endorsed engine (bbpPairings), written from its
//! description: polynomial, no enumeration of transpositions.
//!
//! The graph is kept small. The players below the next scoregroup matter only through C4,
//! so the graph holds the bracket and the next scoregroup, and C4 is checked on the
//! result (the bracket's pairs plus the pairing of the next scoregroup that C8 counted)
//! with a cardinality matching over everybody left; if that fails, the bracket is paired
//! again with everybody in the graph. When the bracket pairs completely, C8 cannot tell
//! its pairings apart and the next scoregroup is left out too; when it leaves exactly one
//! player, C8 only asks whether that player could add a pair to the next bracket or be
//! paired there, which the Gallai-Edmonds decomposition of the next scoregroup tells
//! beforehand, so that becomes a per-player value and the next scoregroup is left out as
//! well. Every variant gives the same pairing whenever its result passes the C4 check: a
//! completable optimum of the smaller problem is an optimum of the larger one, and every
//! decision above is a question about optima (the corpus test checks all variants).
use super::criteria;
use super::weights::{Classes, Fields2017, Layout, Packed, Sizes, Sizes2017};
use crate::matching::Wide;
use crate::matching::weighted::CLASS_WEIGHTS_SCANNED_UP_TO;
use crate::matching::weighted::{DynamicError, DynamicMatching, WeightSource};
use crate::model::{Colour, Score, WeakPlace};
use crate::systems::common::fide_players::FideText;
use crate::systems::common::fide_players::{Entrant, Field};

mod completion;
mod fast;
mod types;

use completion::Completion;

const NIL: u32 = u32::MAX;

/// Positions `0..len` taken one at a time, and the first one still free from any position:
/// each taken position points past itself, and lookups halve the paths they walk.
struct NextFree(Vec<u32>);

impl NextFree {
    fn new(len: usize) -> NextFree {
        NextFree((0..=len as u32).collect())
    }

    /// The first free position from `i` (`len` when none).
    fn first(&mut self, mut i: usize) -> usize {
        let next = &mut self.0;
        while next[i] as usize != i {
            let up = next[next[i] as usize];
            next[i] = up;
            i = up as usize;
        }
        i
    }

    fn take(&mut self, i: usize) {
        self.0[i] = i as u32 + 1;
    }
}

/// A bracket's base weights are stored when they take at most this much memory.
const MATRIX_BYTES: usize = 384 << 20;

/// Up to this many window vertices, the fast engine stores a bracket's base weights
/// (read off its type table) instead of going through the table on every read.
const SMALL_WINDOW: usize = 96;

/// From this many vertices a bracket's first solve starts from the problem between player
/// types (`Run::new`); below, the plain start costs less (Dutch 100 round 5: 292.1 → 287.7
/// million instructions in process for the bench's 101 requests, the same answers).
const CLASS_START_FROM: usize = 5;

/// Fields of at most this many players are always paired with everybody in the graph.
/// Above, a bracket's window (with the C4 check on its result) costs less. Instructions
/// over 20 simulated opens of 7 rounds (seeds 1-20), everybody-graph against window, the
/// same pairs every round: 10 players 77 M against 102 M, 14 104 against 115, 16 124
/// against 121, 18 146 against 132, 21 304 against 144, 40 581 against 190, 64 1,552
/// against 258 (issue 37; it was 64 from the first version).
pub const GLOBAL_UP_TO: usize = 14;

/// Why a round cannot be paired.
#[derive(Clone, Debug)]
pub enum Failure {
    /// No pairing satisfies C1-C3 for everybody (with a PAB for an eligible player).
    Incomplete(String),
    Internal(String),
}

impl From<DynamicError> for Failure {
    fn from(e: DynamicError) -> Failure {
        Failure::Internal(e.to_string())
    }
}

/// How a bracket's graph was built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Bracket and next scoregroup; C4 checked afterwards.
    Window,
    /// Everybody still unpaired.
    Global,
    /// Window first, but C4 failed: paired again with everybody.
    Fallback,
}

/// What happened in one bracket, for the explanation.
#[derive(Clone, Debug)]
pub struct BracketRecord {
    pub score: Score,
    /// Entrant indices (into `Field::entrants`), in bracket order.
    pub mdps: Vec<usize>,
    pub residents: Vec<usize>,
    /// MDPs chosen to be paired (S1 of the heterogeneous part) and the others (Limbo).
    pub paired_mdps: Vec<usize>,
    pub limbo: Vec<usize>,
    /// Pairs MDP - resident, in order.
    pub mdp_pairs: Vec<(usize, usize)>,
    /// The remainder (or the homogeneous bracket): S1, S2 before exchanges, and the
    /// players exchanged each way.
    pub s1: Vec<usize>,
    pub s2: Vec<usize>,
    pub moved_to_s2: Vec<usize>,
    pub moved_to_s1: Vec<usize>,
    pub remainder_pairs: Vec<(usize, usize)>,
    pub floaters: Vec<usize>,
    pub mode: Mode,
    /// C9 applied in this bracket.
    pub bye_games_rule: bool,
}

/// The pairing of a round.
#[derive(Clone, Debug, Default)]
pub struct RoundOutcome {
    /// (higher, lower) entrant indices.
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
    /// C5: the least score the PAB could go to.
    pub bye_score: Option<Score>,
    pub brackets: Vec<BracketRecord>,
}

struct Ctx<'a> {
    field: &'a Field,
    odd: bool,
    bye_score: Score,
    /// Eligible for the PAB with a score not above the least possible (C2, C5).
    candidate: Vec<bool>,
    /// C9: players at the PAB score, ranked by games played (more games, smaller rank).
    bye_rank: Vec<u32>,
    bye_class: usize,
    engine: Engine,
    /// SEP-5 `WEAK_FIRST` is in force this round: the fewest pairs within a group is part
    /// of completion (C4 / C.4), so every graph that checks completion counts them too.
    round_weak: bool,
    /// The brackets' graphs leave out the weak separations at their default place and
    /// last (the 2017 bracket's pairing as the round without them makes it).
    without_weak: bool,
}

/// Unit weights for completion checks (C4): the players who may meet, plus, when the
/// number is odd, a dummy vertex (index `n`) that stands for the PAB and is adjacent to the
/// players who may receive it. A pairing is complete iff this graph has a perfect matching.
struct CompletionWeights<'a> {
    field: &'a Field,
    /// Adjacent to the dummy; empty when the number of players is even.
    bye_ok: &'a [bool],
}

impl WeightSource<i64> for CompletionWeights<'_> {
    #[inline]
    fn weight(&self, a: usize, b: usize) -> i64 {
        let n = self.field.len();
        if a == n {
            i64::from(self.bye_ok.get(b).copied().unwrap_or(false))
        } else if b == n {
            i64::from(self.bye_ok.get(a).copied().unwrap_or(false))
        } else {
            i64::from(self.field.compatible(a, b))
        }
    }

    /// A row with `a`'s side of who may meet whom looked up once.
    fn weights_from(&self, a: usize, bs: &[u32], out: &mut Vec<i64>) {
        out.clear();
        let n = self.field.len();
        if a >= n {
            out.extend(bs.iter().map(|&b| self.weight(a, b as usize)));
            return;
        }
        let meets = self.field.meets(a);
        out.extend(bs.iter().map(|&b| {
            let b = b as usize;
            if b >= n {
                self.weight(a, b)
            } else {
                i64::from(meets.may_meet(b))
            }
        }));
    }
}

/// The players no longer in the round (`alive` false), to take out of a matching over the
/// field.
fn gone(alive: &[bool]) -> impl Iterator<Item = usize> + '_ {
    alive
        .iter()
        .enumerate()
        .filter(|(_, a)| !**a)
        .map(|(v, _)| v)
}

/// The completion matching held for the players left, or one built for them when none is
/// held (a bracket's retry or fallback after its first try took it).
fn held_or_built(
    held: &mut Option<Completion>,
    field: &Field,
    bye_ok: &[bool],
    alive: &[bool],
) -> Result<Completion, Failure> {
    match held.take() {
        Some(m) => Ok(m),
        None => Completion::build(field, bye_ok, alive),
    }
}

/// Whether the players left can be paired completely (the PAB to a candidate) with no
/// pair between a player of `inside` and one outside it: the next bracket then pairs
/// within itself but for the PAB assignee (C9's note, C.04.3 art. 2).
fn closed_bracket_completes(
    field: &Field,
    bye_ok: &[bool],
    alive: &[bool],
    inside: &[bool],
) -> Result<bool, Failure> {
    struct Closed<'a> {
        inner: CompletionWeights<'a>,
        inside: &'a [bool],
    }
    impl WeightSource<i64> for Closed<'_> {
        fn weight(&self, a: usize, b: usize) -> i64 {
            let n = self.inner.field.len();
            if a < n && b < n && self.inside[a] != self.inside[b] {
                return 0;
            }
            // The dummy (the PAB) only pairs with a candidate inside.
            if (a == n && !self.inside.get(b).copied().unwrap_or(false))
                || (b == n && !self.inside.get(a).copied().unwrap_or(false))
            {
                return 0;
            }
            self.inner.weight(a, b)
        }
    }
    let n = field.len();
    let mut m = DynamicMatching::<i64>::new(n + 1);
    m.use_augment_first();
    gone(alive).for_each(|v| m.remove(v));
    m.solve(&Closed {
        inner: CompletionWeights { field, bye_ok },
        inside,
    })?;
    Ok(complete(&m))
}

/// Whether every player left (and the dummy) is matched.
fn complete(m: &DynamicMatching<i64>) -> bool {
    (0..m.len()).all(|v| m.is_removed(v) || m.mate(v).is_some())
}

/// Whether `WEAK_FIRST` (SEP-5) is in force in the round: two players of the field share
/// a group of a separation placed first.
fn round_weak_in_force(field: &Field) -> bool {
    field
        .weak_places(0..field.len())
        .contains(&WeakPlace::First)
}

/// SEP-5 `WEAK_FIRST` as part of completion (C4 / C.4): the completion graph's weights with
/// minus one per pair within a group. Each pair weighs more than every such pair of a
/// matching together, so the heaviest matching is complete first, then has the fewest.
struct WeakCompletionWeights<'a> {
    inner: CompletionWeights<'a>,
    unit: i64,
}

impl WeightSource<i64> for WeakCompletionWeights<'_> {
    fn weight(&self, a: usize, b: usize) -> i64 {
        let w = self.inner.weight(a, b) * self.unit;
        let n = self.inner.field.len();
        if w > 0 && a < n && b < n && self.inner.field.weak_within(a, b, WeakPlace::First) {
            w - 1
        } else {
            w
        }
    }
}

impl<'a> WeakCompletionWeights<'a> {
    fn new(field: &'a Field, bye_ok: &'a [bool]) -> Self {
        WeakCompletionWeights {
            inner: CompletionWeights { field, bye_ok },
            unit: field.len() as i64 + 2,
        }
    }
}

/// The heaviest matching of [`WeakCompletionWeights`] over the players left (and the PAB's
/// dummy when their number is odd); kept and repaired as brackets are paired.
fn weak_completion_matching(
    field: &Field,
    bye_ok: &[bool],
    alive: &[bool],
) -> Result<DynamicMatching<i64>, Failure> {
    let n = field.len();
    let mut m = DynamicMatching::<i64>::new(n + 1);
    // Read for its completeness and its number of pairs within a group, which every
    // optimum has alike.
    m.use_augment_first();
    gone(alive).for_each(|v| m.remove(v));
    if bye_ok.is_empty() {
        m.remove(n);
    }
    m.solve(&WeakCompletionWeights::new(field, bye_ok))?;
    Ok(m)
}

/// The pairs within a group of a complete matching of [`weak_completion_matching`], or
/// `None` when it is not complete.
fn weak_completion_count(field: &Field, m: &DynamicMatching<i64>) -> Option<usize> {
    if !complete(m) {
        return None;
    }
    let n = field.len();
    Some(
        (0..n)
            .filter(|&a| {
                m.mate(a)
                    .is_some_and(|b| a < b && b < n && field.weak_within(a, b, WeakPlace::First))
            })
            .count(),
    )
}

/// The fewest pairs within a group of a complete pairing of the players left (the PAB to a
/// player of `bye_ok` when their number is odd), or `None` when none is complete.
fn fewest_weak_completing(
    field: &Field,
    bye_ok: &[bool],
    alive: &[bool],
) -> Result<Option<usize>, Failure> {
    let m = weak_completion_matching(field, bye_ok, alive)?;
    Ok(weak_completion_count(field, &m))
}

/// SEP-5: the places a bracket's weight counts pairs within a group at: `WEAK` and
/// `WEAK_LAST` where two of its players share a group. `WEAK_FIRST` is no field of the
/// bracket: it joins completion (`Layout::round_weak`), and the bracket then follows the
/// system's own order, so that C8 / C.7 read the next bracket as it will be paired.
fn bracket_weak_places(field: &Field, players: impl Iterator<Item = usize>) -> Vec<WeakPlace> {
    let mut places = field.weak_places(players);
    places.retain(|&p| p != WeakPlace::First);
    places
}

/// The pairs of `pairs` within a group of a separation placed first.
fn weak_first_pairs(field: &Field, pairs: &[(usize, usize)]) -> usize {
    pairs
        .iter()
        .filter(|&&(a, b)| field.weak_within(a, b, WeakPlace::First))
        .count()
}

/// C4/C5 before the first bracket: the least score the PAB can go to, and whether the
/// whole top scoregroup pairs within itself but for the PAB assignee (C9 then applies from
/// the first bracket).
/// With `WEAK_FIRST` in force (`round_weak`) the fewest pairs within a group comes with
/// completion, before C5: the least score is the least at which the PAB still allows them.
///
/// Also returns the completion matching of the whole field with the PAB candidates the
/// answer implies, when the check built it: the first bracket starts from it instead of
/// building the same matching again (two of them were an eighth of a 100-player round).
fn bye_setup(field: &Field, round_weak: bool) -> Result<ByeSetup, Failure> {
    let n = field.len();
    let odd = n % 2 == 1;
    let alive = vec![true; n];
    if !odd {
        let m = Completion::build(field, &[], &alive)?;
        if !m.is_complete() {
            return Err(Failure::Incomplete(format!(
                "no pairing of all {n} players complies with C1-C3"
            )));
        }
        return Ok((Score::ZERO, false, Some(m)));
    }
    // C5: the least score s such that the PAB can go to an eligible player scoring at most
    // s (feasibility grows with s: binary search over the scores).
    let mut scores: Vec<Score> = field
        .entrants
        .iter()
        .filter(|e| e.bye_eligible)
        .map(|e| e.score)
        .collect();
    scores.sort_unstable();
    scores.dedup();
    let bye_ok_up_to = |s: Score| -> Vec<bool> {
        field
            .entrants
            .iter()
            .map(|e| e.bye_eligible && e.score <= s)
            .collect()
    };
    let Some(&highest) = scores.last() else {
        return Err(Failure::Incomplete(format!(
            "none of the {n} players may receive the pairing-allocated bye (C2)"
        )));
    };
    let fewest = if round_weak {
        fewest_weak_completing(field, &bye_ok_up_to(highest), &alive)?
    } else {
        None
    };
    // The completion matchings built, by score: the one of the final score is returned.
    let mut built: Vec<(Score, Completion)> = Vec::new();
    let mut feasible = |s: Score| -> Result<bool, Failure> {
        let bye_ok = bye_ok_up_to(s);
        match fewest {
            Some(least) => Ok(fewest_weak_completing(field, &bye_ok, &alive)? == Some(least)),
            None => {
                let m = Completion::build(field, &bye_ok, &alive)?;
                let ok = m.is_complete();
                built.push((s, m));
                Ok(ok)
            }
        }
    };
    if !feasible(highest)? {
        return Err(Failure::Incomplete(format!(
            "no pairing of all {n} players complies with C1-C3 with the pairing-allocated bye for an eligible player (C2)"
        )));
    }
    let (mut lo, mut hi) = (0, scores.len() - 1);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if feasible(scores[mid])? {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    let bye_score = scores[lo];
    let matching = built
        .into_iter()
        .rev()
        .find(|(s, _)| *s == bye_score)
        .map(|(_, m)| m);
    let top = field.entrants.first().map_or(Score::ZERO, |e| e.score);
    if bye_score < top {
        return Ok((bye_score, false, matching));
    }
    if field.entrants.iter().all(|e| e.score == top) {
        return Ok((bye_score, true, matching));
    }
    // The PAB goes to the top scoregroup: C9 applies from the first bracket if that group
    // can pair within itself but for the PAB assignee while everybody is paired.
    let bye_ok: Vec<bool> = field
        .entrants
        .iter()
        .map(|e| e.bye_eligible && e.score == top)
        .collect();
    struct TopWeights<'a> {
        inner: CompletionWeights<'a>,
        top: Score,
    }
    impl WeightSource<i64> for TopWeights<'_> {
        fn weight(&self, a: usize, b: usize) -> i64 {
            let w = self.inner.weight(a, b);
            let f = self.inner.field;
            let in_top = |v: usize| v >= f.len() || f.entrants[v].score == self.top;
            if w > 0 && in_top(a) && in_top(b) {
                w * 2 * (f.len() as i64 + 2) + 1
            } else {
                w * 2 * (f.len() as i64 + 2)
            }
        }
    }
    let ws = TopWeights {
        inner: CompletionWeights {
            field,
            bye_ok: &bye_ok,
        },
        top,
    };
    let mut m = DynamicMatching::<i64>::new(n + 1);
    m.solve(&ws)?;
    let single = field
        .entrants
        .iter()
        .enumerate()
        .filter(|(_, e)| e.score == top)
        .all(|(v, _)| {
            m.mate(v)
                .is_some_and(|u| u == n || field.entrants[u].score == top)
        });
    Ok((bye_score, single, matching))
}

/// [`bye_setup`]'s answer: the PAB's score, whether C9 applies from the first bracket, and
/// the whole field's completion matching with that score's PAB candidates, if built.
type ByeSetup = (Score, bool, Option<Completion>);

/// Pairs the round: every bracket from the top, then the PAB.
pub fn pair_round(field: &Field) -> Result<RoundOutcome, Failure> {
    pair_round_with(field, GLOBAL_UP_TO)
}

/// How a bracket's choices (art. 4) are answered. Both give the same pairing: `Fast`
/// only skips the questions whose answer the matching's dual certificate already proves
/// (`brackets/fast.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The certificate's answers where it has them, the dense matching elsewhere.
    Fast,
    /// Every question asked of the dense incremental matching, with no stand-in vertex:
    /// the plain reference the tests compare `Fast` with.
    Dense,
}

impl Engine {
    /// Whether an odd graph gets a vertex standing for the player it leaves out: the PAB
    /// of a whole field (`Run::new`, and the next scoregroup's pairing that C8 counted,
    /// `tentative_next`), or the one float of a bracket whose next scoregroup is out of
    /// the graph (`Run::new`). Every optimum pairs that vertex with the player left out,
    /// so every question about optima has the same answer, but the optimum needs no
    /// blossom over the players who could be left out, and the certificate keeps
    /// answering (`brackets/fast.rs`).
    ///
    /// At every size (issue 37). They were first kept for large graphs (from 1,000 and
    /// 4,096 vertices), where the blossoms cost most, because the float's vertex slowed
    /// mid-size brackets before art. 4.3's warm start existed; measured again with the
    /// engine as it is, the same pairs every round, and faster at every size: Dutch 100
    /// round 5 372 → 294 million instructions per request (in process), 1,000 × 40 slowest
    /// round 0.027-0.032 → 0.006-0.008 s, 10,000 × 15 0.34-0.42 → 0.22-0.33 s (seeds 1-3),
    /// 1,001 × 13 0.59-0.84 → 0.005-0.034 s, 101 × 9 (20 seeds) 1,206 → 628 million
    /// instructions.
    fn stand_in_vertices(self) -> bool {
        self == Engine::Fast
    }
}

/// [`pair_round`] with the graph policy given: fields of at most `global_up_to` players
/// are paired with everybody in each bracket's graph (0: the smallest graphs whenever
/// possible; `usize::MAX`: always everybody). Every policy gives the same pairing (the
/// module docs say why); `tests/dutch.rs` checks it on the corpus.
pub fn pair_round_with(field: &Field, global_up_to: usize) -> Result<RoundOutcome, Failure> {
    pair_round_using(field, global_up_to, Engine::Fast)
}

/// [`pair_round_with`] with the engine given (the tests compare both).
pub fn pair_round_using(
    field: &Field,
    global_up_to: usize,
    engine: Engine,
) -> Result<RoundOutcome, Failure> {
    if field.text == FideText::Y2017 {
        return pair_round_2017(field, engine);
    }
    let n = field.len();
    let mut out = RoundOutcome::default();
    if n == 0 {
        return Ok(out);
    }
    let round_weak = round_weak_in_force(field);
    let (bye_score, mut single, mut whole_field_completion) = bye_setup(field, round_weak)?;
    let odd = n % 2 == 1;
    let candidate: Vec<bool> = field
        .entrants
        .iter()
        .map(|e| e.bye_eligible && e.score <= bye_score)
        .collect();
    let mut bye_rank = vec![0u32; n];
    let mut bye_class = 0;
    if odd {
        out.bye_score = Some(bye_score);
        let mut played: Vec<u32> = field
            .entrants
            .iter()
            .filter(|e| e.score == bye_score)
            .map(|e| e.played)
            .collect();
        bye_class = played.len();
        played.sort_unstable_by(|a, b| b.cmp(a));
        for (v, e) in field.entrants.iter().enumerate() {
            if e.score == bye_score {
                // The last position of this count in the descending list.
                bye_rank[v] = played.iter().rposition(|&p| p == e.played).unwrap_or(0) as u32;
            }
        }
    }
    let bye_ok: Vec<bool> = if odd { candidate.clone() } else { Vec::new() };
    let ctx = Ctx {
        field,
        odd,
        bye_score,
        candidate,
        bye_rank,
        bye_class,
        engine,
        round_weak,
        without_weak: false,
    };
    // Scoregroups.
    let mut groups: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    for v in 1..=n {
        if v == n || field.entrants[v].score != field.entrants[start].score {
            groups.push((start, v));
            start = v;
        }
    }
    let mut alive = vec![true; n];
    let mut completion: Option<Completion> = None;
    // `WEAK_FIRST`: the round's fewest pairs within a group (C4), a matching that completes
    // the players left with the fewest (repaired as brackets are paired) and the pairs
    // within a group made so far.
    let mut weak_budget: Option<(usize, DynamicMatching<i64>, usize)> = None;
    if round_weak {
        let m = weak_completion_matching(field, &bye_ok, &alive)?;
        let least = weak_completion_count(field, &m).ok_or_else(|| {
            Failure::Incomplete(format!("no pairing of all {n} players complies with C1-C4"))
        })?;
        weak_budget = Some((least, m, 0));
    }
    let weak_weights = WeakCompletionWeights::new(field, &bye_ok);
    let mut mdps: Vec<usize> = Vec::new();
    crate::cancel::checkpoint();
    for g in 0..groups.len() {
        let residents: Vec<usize> = (groups[g].0..groups[g].1).collect();
        let next: Vec<usize> = groups
            .get(g + 1)
            .map_or(Vec::new(), |&(a, b)| (a..b).collect());
        let outside: Vec<usize> = groups
            .get(g + 2)
            .map_or(Vec::new(), |&(a, _)| (a..n).collect());
        let next_score = next.first().map(|&v| field.entrants[v].score);
        // The last bracket has nobody below it. The one before it (nobody below the next
        // scoregroup) needs no everybody-graph either: its window (the bracket, with the
        // next scoregroup or its C8 values) and the C4 check on the result give the same
        // pairing, as for any other bracket (module docs), with a graph of the bracket
        // alone when it pairs completely or floats one player. The dense engine keeps
        // the everybody-graph there, as before, so that the tests compare both.
        let needs_global = (outside.is_empty() && (next.is_empty() || engine == Engine::Dense))
            || n <= global_up_to
            || (odd && next_score.is_some_and(|s| bye_score >= s));
        let mut spec = Spec {
            mdps: mdps.clone(),
            residents,
            next,
            outside,
            single,
            next_use: NextUse::Graph,
        };
        let cw = CompletionWeights {
            field,
            bye_ok: &bye_ok,
        };
        let (mut mode, result);
        if needs_global {
            mode = Mode::Global;
            result = run_bracket(&ctx, &spec, mode)?;
            if let Some(c) = completion.as_mut() {
                for &(a, b) in &result.pairs {
                    c.remove(a);
                    c.remove(b);
                }
                c.solve(&cw)?;
            }
        } else {
            // Smallest graph first: without the next scoregroup when the bracket pairs
            // completely or leaves one player (whose C8 value is then known beforehand),
            // else with it; whenever C4 fails on the result, everybody below as well.
            // The completion matching of the players left. The bracket's first try takes
            // it (no copy: a retry or the fallback, rare, builds it again for the same
            // players, and only whether a matching is perfect is ever read).
            let mut base = match completion.take() {
                Some(c) => Some(c),
                // `bye_setup`'s matching is this one while nobody is paired yet (the same
                // players and PAB candidates).
                None => match whole_field_completion.take() {
                    Some(m) if alive.iter().all(|&a| a) => Some(m),
                    _ => None,
                },
            };
            spec.next_use = next_use(&ctx, &spec)?;
            let mut accepted = None;
            loop {
                mode = Mode::Window;
                crate::cancel::checkpoint();
                let r = run_bracket(&ctx, &spec, mode)?;
                let tentative = tentative_next(&ctx, &spec, &r)?;
                let mut committed = held_or_built(&mut base, field, &bye_ok, &alive)?;
                for &(a, b) in &r.pairs {
                    committed.remove(a);
                    committed.remove(b);
                }
                committed.solve(&cw)?;
                // The bracket's pairs together with the pairing of the next scoregroup
                // that C8 counted must extend to a complete pairing.
                // The completion graph's weights are all 1, so its optimum is perfect
                // whenever a perfect matching exists. When `committed` is perfect and
                // already pairs the tentative pairs with each other (or there are none),
                // the rest of it is a perfect matching of what is left: no copy and no
                // solve are needed to know the answer.
                let trial_completes = if committed.is_complete()
                    && tentative.iter().all(|&(a, b)| committed.mate(a) == Some(b))
                {
                    true
                } else if tentative.is_empty() {
                    false
                } else {
                    let mut trial = committed.clone();
                    for &(a, b) in &tentative {
                        trial.remove(a);
                        trial.remove(b);
                    }
                    trial.solve(&cw)?;
                    trial.is_complete()
                };
                // `WEAK_FIRST` (C4): the bracket's pairs, and with them the next
                // scoregroup's that C8 counted, must leave the round's fewest pairs within
                // a group reachable; then the graph with everybody (where the count is a
                // field under completion) would have chosen the same.
                let mut kept = None;
                let keeps_weak = match &weak_budget {
                    None => true,
                    Some((least, m, spent)) => {
                        let made = spent + weak_first_pairs(field, &r.pairs);
                        let mut after = m.clone();
                        for &(a, b) in &r.pairs {
                            after.remove(a);
                            after.remove(b);
                        }
                        after.solve(&weak_weights)?;
                        let mut with_next = after.clone();
                        for &(a, b) in &tentative {
                            with_next.remove(a);
                            with_next.remove(b);
                        }
                        with_next.solve(&weak_weights)?;
                        let ok = weak_completion_count(field, &after)
                            .is_some_and(|w| made + w == *least)
                            && weak_completion_count(field, &with_next).is_some_and(|w| {
                                made + weak_first_pairs(field, &tentative) + w == *least
                            });
                        kept = Some(after);
                        ok
                    }
                };
                if trial_completes && keeps_weak {
                    if let (Some((_, m, spent)), Some(after)) = (weak_budget.as_mut(), kept) {
                        *spent += weak_first_pairs(field, &r.pairs);
                        *m = after;
                    }
                    accepted = Some((r, committed));
                    break;
                }
                if matches!(spec.next_use, NextUse::Graph) {
                    break;
                }
                spec.next_use = NextUse::Graph;
            }
            match accepted {
                Some((r, committed)) => {
                    result = r;
                    completion = Some(committed);
                }
                None => {
                    mode = Mode::Fallback;
                    spec.next_use = NextUse::Graph;
                    result = run_bracket(&ctx, &spec, Mode::Fallback)?;
                    let mut c = held_or_built(&mut base, field, &bye_ok, &alive)?;
                    for &(a, b) in &result.pairs {
                        c.remove(a);
                        c.remove(b);
                    }
                    c.solve(&cw)?;
                    completion = Some(c);
                }
            }
        }
        if mode != Mode::Window
            && let Some((_, m, spent)) = weak_budget.as_mut()
        {
            for &(a, b) in &result.pairs {
                m.remove(a);
                m.remove(b);
            }
            m.solve(&weak_weights)?;
            *spent += weak_first_pairs(field, &result.pairs);
        }
        for &(a, b) in &result.pairs {
            alive[a] = false;
            alive[b] = false;
        }
        // C9 applies in the next bracket when the PAB will go to it and it pairs within
        // itself but for one player (the note to C9): its players (this bracket's
        // floaters and the next scoregroup) can be paired among themselves but for one
        // PAB candidate while everybody below pairs among themselves too. When the next
        // bracket must downfloat a second player, C9 does not apply there.
        single = false;
        if odd && next_score.is_some_and(|s| bye_score >= s) {
            let mut inside = vec![false; n];
            for &v in &result.floaters {
                inside[v] = true;
            }
            for &v in &spec.next {
                inside[v] = true;
            }
            single = closed_bracket_completes(field, &bye_ok, &alive, &inside)?;
        }
        let mut record = record(field.entrants[groups[g].0].score, &spec, &result, mode);
        record.bye_games_rule = spec.single && odd;
        out.pairs.extend(result.pairs.iter().copied());
        mdps = result.floaters;
        out.brackets.push(record);
    }
    with_bye(out, &mdps, odd)
}

/// Pairs the round under the 2017 edition (`edition.rs`): every bracket from the top with
/// the next scoregroup in its graph (C.7) and completion checked on its pairs only; the
/// first bracket whose pairing leaves the round unpairable is the penultimate pairing
/// bracket (A.9): it is paired again with everybody below and completion (C.4) first,
/// and everybody left then forms the collapsed last bracket. The last scoregroup's
/// bracket is paired with completion first too. The PAB goes to whoever the last bracket
/// leaves over (A.5, C.2).
fn pair_round_2017(field: &Field, engine: Engine) -> Result<RoundOutcome, Failure> {
    let n = field.len();
    let mut out = RoundOutcome::default();
    if n == 0 {
        return Ok(out);
    }
    let odd = n % 2 == 1;
    let candidate: Vec<bool> = field.entrants.iter().map(|e| e.bye_eligible).collect();
    let bye_ok: Vec<bool> = if odd { candidate.clone() } else { Vec::new() };
    let alive = vec![true; n];
    let mut completion = Completion::build(field, &bye_ok, &alive)?;
    if !completion.is_complete() {
        return Err(Failure::Incomplete(if odd {
            format!(
                "no pairing of all {n} players complies with C.1-C.3 with the pairing-allocated bye for an eligible player (C.2)"
            )
        } else {
            format!("no pairing of all {n} players complies with C.1-C.3")
        }));
    }
    // SEP-5 `WEAK_FIRST` joins C.4: the round keeps the fewest pairs within a group that
    // a complete pairing allows, and a bracket whose pairing leaves them out of reach is
    // the penultimate pairing bracket, as one leaving the round unpairable is (A.9).
    let round_weak = round_weak_in_force(field);
    let fewest = if round_weak {
        fewest_weak_completing(field, &bye_ok, &alive)?
    } else {
        None
    };
    let mut weak_alive = alive.clone();
    let mut weak_spent = 0usize;
    let ctx = Ctx {
        field,
        odd,
        bye_score: Score::ZERO,
        candidate,
        bye_rank: vec![0; n],
        bye_class: 0,
        engine,
        round_weak,
        without_weak: false,
    };
    let cw = CompletionWeights {
        field,
        bye_ok: &bye_ok,
    };
    let mut groups: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    for v in 1..=n {
        if v == n || field.entrants[v].score != field.entrants[start].score {
            groups.push((start, v));
            start = v;
        }
    }
    let mut mdps: Vec<usize> = Vec::new();
    let mut g = 0;
    while g < groups.len() {
        crate::cancel::checkpoint();
        let residents: Vec<usize> = (groups[g].0..groups[g].1).collect();
        let score = field.entrants[groups[g].0].score;
        let mut spec = Spec {
            mdps: std::mem::take(&mut mdps),
            residents,
            next: groups
                .get(g + 1)
                .map_or(Vec::new(), |&(a, b)| (a..b).collect()),
            outside: groups
                .get(g + 2)
                .map_or(Vec::new(), |&(a, _)| (a..n).collect()),
            single: false,
            next_use: NextUse::Graph,
        };
        if spec.next.is_empty() {
            // The last bracket: completion first (C.4 holds for the round).
            let result = run_bracket(&ctx, &spec, Mode::Global)?;
            mdps = result.floaters.clone();
            out.pairs.extend(result.pairs.iter().copied());
            out.brackets
                .push(record(score, &spec, &result, Mode::Global));
            break;
        }
        // C.7 cannot tell apart the pairings of a bracket that pairs completely; when it
        // floats one player, his C.7 values are known beforehand (`base_weight_2017`),
        // unless the next scoregroup is the last (C.7 then asks for completion).
        spec.next_use = match next_use(&ctx, &spec)? {
            NextUse::Omit => NextUse::Omit,
            NextUse::Values(v) if !spec.outside.is_empty() => NextUse::Values(v),
            _ => NextUse::Graph,
        };
        // Whether the round still completes without `gone` (C.4).
        let completes_without = |gone: &mut dyn Iterator<Item = usize>| -> Result<_, Failure> {
            let mut committed = completion.clone();
            for v in gone {
                committed.remove(v);
            }
            committed.solve(&cw)?;
            let keeps = committed.is_complete();
            Ok((committed, keeps))
        };
        let completes = |pairs: &[(usize, usize)]| {
            completes_without(&mut pairs.iter().flat_map(|&(a, b)| [a, b]))
        };
        let mut result = run_bracket(&ctx, &spec, Mode::Window)?;
        let (mut committed, mut keeps) = completes(&result.pairs)?;
        if !keeps
            && !bracket_weak_places(field, spec.mdps.iter().chain(&spec.residents).copied())
                .is_empty()
        {
            // SEP-5: a weak separation makes no PPB (A.9) that the round without it does
            // not make. When the bracket's best without the separation completes, the
            // bracket takes the best in the extended order among the pairings that
            // complete: C.4 read right under C.7, which that one ties (docs/decisions.md
            // "2017 PPB under a weak separation").
            let plain_ctx = Ctx {
                without_weak: true,
                candidate: ctx.candidate.clone(),
                bye_rank: ctx.bye_rank.clone(),
                ..ctx
            };
            let plain = run_bracket(&plain_ctx, &spec, Mode::Window)?;
            if let NextUse::Values(values) = &spec.next_use
                && completes(&plain.pairs)?.1
            {
                // One player floats: whether the round completes depends on him alone, a
                // per-player value the bracket's graph carries under C.7's.
                let bracket: Vec<usize> =
                    spec.mdps.iter().chain(&spec.residents).copied().collect();
                let mut marked = values.clone();
                for (k, &f) in bracket.iter().enumerate() {
                    if !completes_without(&mut bracket.iter().copied().filter(|&v| v != f))?.1 {
                        marked[k] |= FLOAT_INCOMPLETE;
                    }
                }
                let whole = Spec {
                    next_use: NextUse::Values(marked),
                    ..spec.clone()
                };
                let again = run_bracket(&ctx, &whole, Mode::Window)?;
                let (c, k) = completes(&again.pairs)?;
                if k {
                    (result, committed, keeps) = (again, c, k);
                }
            }
        }
        if let Some(least) = fewest
            && keeps
        {
            for &(a, b) in &result.pairs {
                weak_alive[a] = false;
                weak_alive[b] = false;
            }
            let made = weak_first_pairs(field, &result.pairs);
            let below = fewest_weak_completing(field, &bye_ok, &weak_alive)?;
            keeps = below.is_some_and(|w| weak_spent + made + w == least);
            if keeps {
                weak_spent += made;
            } else {
                for &(a, b) in &result.pairs {
                    weak_alive[a] = true;
                    weak_alive[b] = true;
                }
            }
        }
        if keeps {
            completion = committed;
            mdps = result.floaters.clone();
            out.pairs.extend(result.pairs.iter().copied());
            out.brackets
                .push(record(score, &spec, &result, Mode::Window));
            g += 1;
            continue;
        }
        // The penultimate pairing bracket (A.9): paired again with everybody below and
        // completion first (C.4); then everybody left is the collapsed last bracket.
        let below = groups[g + 1].0;
        spec.next = Vec::new();
        spec.outside = (below..n).collect();
        spec.next_use = NextUse::Graph;
        let result = run_bracket(&ctx, &spec, Mode::Fallback)?;
        out.pairs.extend(result.pairs.iter().copied());
        out.brackets
            .push(record(score, &spec, &result, Mode::Fallback));
        let last = Spec {
            mdps: result.floaters.clone(),
            residents: (below..n).collect(),
            next: Vec::new(),
            outside: Vec::new(),
            single: false,
            next_use: NextUse::Graph,
        };
        let result = run_bracket(&ctx, &last, Mode::Global)?;
        mdps = result.floaters.clone();
        out.pairs.extend(result.pairs.iter().copied());
        out.brackets.push(record(
            field.entrants[below].score,
            &last,
            &result,
            Mode::Global,
        ));
        break;
    }
    with_bye(out, &mdps, odd)
}

/// The round's outcome with the last bracket's leftover as the PAB (at most one, and only
/// when the number of players is odd).
fn with_bye(mut out: RoundOutcome, left: &[usize], odd: bool) -> Result<RoundOutcome, Failure> {
    match left {
        [] => {}
        [v] if odd => out.bye = Some(*v),
        _ => {
            return Err(Failure::Internal(format!(
                "{} players left unpaired after the last bracket",
                left.len()
            )));
        }
    }
    Ok(out)
}

/// What the explanation keeps of one bracket.
fn record(score: Score, spec: &Spec, result: &BracketResult, mode: Mode) -> BracketRecord {
    BracketRecord {
        score,
        mdps: spec.mdps.clone(),
        residents: spec.residents.clone(),
        paired_mdps: result.paired_mdps.clone(),
        limbo: spec
            .mdps
            .iter()
            .copied()
            .filter(|m| !result.paired_mdps.contains(m))
            .collect(),
        mdp_pairs: result.mdp_pairs.clone(),
        s1: result.s1.clone(),
        s2: result.s2.clone(),
        moved_to_s2: result.moved_to_s2.clone(),
        moved_to_s1: result.moved_to_s1.clone(),
        remainder_pairs: result.remainder_pairs.clone(),
        floaters: result.floaters.clone(),
        mode,
        bye_games_rule: spec.single,
    }
}

/// A bit of a 2017 bracket's C.7 value (`NextUse::Values`): floating this player leaves
/// the round without a complete pairing (C.4; set only where a weak separation would
/// otherwise make the bracket the PPB).
const FLOAT_INCOMPLETE: u8 = 4;

/// The players of one bracket's graph.
#[derive(Clone)]
struct Spec {
    mdps: Vec<usize>,
    residents: Vec<usize>,
    next: Vec<usize>,
    outside: Vec<usize>,
    /// C9 applies.
    single: bool,
    next_use: NextUse,
}

/// How C8 (the next bracket) enters a bracket's graph.
#[derive(Clone, Debug)]
enum NextUse {
    /// The next scoregroup is in the graph.
    Graph,
    /// The bracket pairs completely: C8 cannot tell its pairings apart.
    Omit,
    /// One player floats: per bracket player (bracket order), the C8 value of floating
    /// him: 2 he adds a pair to the next bracket, 1 he can be paired there, 0 neither.
    Values(Vec<u8>),
}

/// Unit weights over an adjacency.
struct Unit<'a>(&'a dyn Fn(usize, usize) -> bool);

impl WeightSource<i64> for Unit<'_> {
    fn weight(&self, a: usize, b: usize) -> i64 {
        i64::from((self.0)(a, b))
    }
}

/// A maximum matching of the players `ids` over C1/C3 (mates as indices into `ids`),
/// with `allowed` read only for players of the first `split` (no pair among them) and
/// the rest: two classes whose pairs all weigh 1, for the matching's first solve.
fn max_matching_of(
    field: &Field,
    ids: &[usize],
    split: usize,
) -> Result<Vec<Option<usize>>, Failure> {
    let adj = |a: usize, b: usize| field.compatible(ids[a], ids[b]) && (a >= split || b >= split);
    // A greedy matching that leaves at most one player free is maximum (every matching
    // leaves free as many players, modulo 2, as there are): no search over thousands of
    // interchangeable players for the one who stays out.
    let n = ids.len();
    let mut greedy: Vec<Option<usize>> = vec![None; n];
    let mut next = NextFree::new(n);
    let mut left = n;
    for a in 0..n {
        if greedy[a].is_some() {
            continue;
        }
        let mut b = next.first(a + 1);
        let mut tried = 0;
        while b < n && tried < 64 {
            if adj(a, b) {
                greedy[a] = Some(b);
                greedy[b] = Some(a);
                next.take(a);
                next.take(b);
                left -= 2;
                break;
            }
            tried += 1;
            b = next.first(b + 1);
        }
    }
    if left <= 1 {
        return Ok(greedy);
    }
    let mut m = DynamicMatching::<i64>::new(ids.len());
    let class = (0..ids.len()).map(|v| u32::from(v >= split)).collect();
    m.set_class_weights(class, vec![None, Some(1), Some(1), Some(1)]);
    m.solve(&Unit(&adj))?;
    Ok((0..ids.len()).map(|v| m.mate(v)).collect())
}

/// Decides how the next scoregroup enters a bracket's graph (see `NextUse`).
fn next_use(ctx: &Ctx, spec: &Spec) -> Result<NextUse, Failure> {
    let field = ctx.field;
    let mut bracket: Vec<usize> = spec.mdps.clone();
    bracket.extend(spec.residents.iter().copied());
    let n_mdps = spec.mdps.len();
    // In the bracket two MDPs never meet (art. 3.2).
    let mates = max_matching_of(field, &bracket, n_mdps)?;
    let floaters = mates.iter().filter(|m| m.is_none()).count();
    match floaters {
        0 => Ok(NextUse::Omit),
        1 => {
            let next = &spec.next;
            let mates_n = max_matching_of(field, next, 0)?;
            let adj = |a: usize, b: usize| a != b && field.compatible(next[a], next[b]);
            let d = crate::matching::cardinality::uncoverable(next.len(), &adj, &mates_n);
            // With no uncoverable player the value is 1 at the first compatible one.
            let any_uncoverable = d.iter().any(|&x| x);
            let values = bracket
                .iter()
                .map(|&v| {
                    let mut value = 0;
                    for (k, &x) in next.iter().enumerate() {
                        if field.compatible(v, x) {
                            value = value.max(1);
                            if d[k] {
                                return 2;
                            }
                            if !any_uncoverable {
                                break;
                            }
                        }
                    }
                    value
                })
                .collect();
            Ok(NextUse::Values(values))
        }
        _ => Ok(NextUse::Graph),
    }
}

/// The pairing of the next scoregroup that C8 counted for a bracket's result: the
/// graph's own when the scoregroup was in it, else a maximum pairing of it with the
/// floater (if any) paired when possible.
fn tentative_next(
    ctx: &Ctx,
    spec: &Spec,
    r: &BracketResult,
) -> Result<Vec<(usize, usize)>, Failure> {
    if matches!(spec.next_use, NextUse::Graph) {
        return Ok(r.tentative.clone());
    }
    let field = ctx.field;
    let mut ids = spec.next.clone();
    let floater = r.floaters.first().copied();
    if let Some(f) = floater {
        ids.push(f);
    }
    let k = spec.next.len();
    if let Some(pairs) = completion::tentative_by_rows(field, &ids, floater.is_some()) {
        return Ok(pairs);
    }
    // An odd graph gets a vertex standing for the player left out, joined to
    // everybody by the heaviest weight, as in `Run::new`: every optimum pairs it with a
    // player some optimum of the graph leaves out, and the rest is an optimum of the
    // graph. Without it the first solve's one free vertex grows an alternating tree over
    // the whole scoregroup (issue 22: 2-5 s a bracket in a 100,000-player open).
    let n = ids.len();
    let left_out = (n % 2 == 1 && ctx.engine.stand_in_vertices()).then_some(n);
    struct Next<'a> {
        field: &'a Field,
        ids: &'a [usize],
        k: usize,
        left_out: Option<usize>,
    }
    impl WeightSource<i64> for Next<'_> {
        fn weight(&self, a: usize, b: usize) -> i64 {
            if self.left_out.is_some_and(|x| a == x || b == x) {
                3
            } else if !self.field.compatible(self.ids[a], self.ids[b]) {
                0
            } else if a >= self.k || b >= self.k {
                3
            } else {
                2
            }
        }

        /// A row with `a`'s side of who may meet whom looked up once.
        fn weights_from(&self, a: usize, bs: &[u32], out: &mut Vec<i64>) {
            out.clear();
            if self.left_out == Some(a) {
                out.extend(bs.iter().map(|&b| self.weight(a, b as usize)));
                return;
            }
            let meets = self.field.meets(self.ids[a]);
            out.extend(bs.iter().map(|&b| {
                let b = b as usize;
                if self.left_out == Some(b) {
                    3
                } else if !meets.may_meet(self.ids[b]) {
                    0
                } else if a >= self.k || b >= self.k {
                    3
                } else {
                    2
                }
            }));
        }
    }
    let mut m = DynamicMatching::<i64>::new(n + usize::from(left_out.is_some()));
    // Two classes (the scoregroup, the floater), and the left-out vertex: the first
    // solve from their optimum.
    let class = (0..n)
        .map(|v| u32::from(v >= k))
        .chain(left_out.map(|_| 2))
        .collect();
    let weights = if left_out.is_some() {
        let (w, x) = (Some(2), Some(3));
        vec![w, x, x, x, None, x, x, x, None]
    } else {
        vec![Some(2), Some(3), Some(3), None]
    };
    m.set_class_weights(class, weights);
    m.solve(&Next {
        field,
        ids: &ids,
        k,
        left_out,
    })?;
    Ok((0..n)
        .filter_map(|v| {
            m.mate(v)
                .filter(|&u| v < u && u < n)
                .map(|u| (ids[v], ids[u]))
        })
        .collect())
}

#[derive(Default)]
struct BracketResult {
    pairs: Vec<(usize, usize)>,
    paired_mdps: Vec<usize>,
    mdp_pairs: Vec<(usize, usize)>,
    s1: Vec<usize>,
    s2: Vec<usize>,
    moved_to_s2: Vec<usize>,
    moved_to_s1: Vec<usize>,
    remainder_pairs: Vec<(usize, usize)>,
    floaters: Vec<usize>,
    /// Mates in the final optimum of the floaters and the next scoregroup.
    floater_mates: Vec<Option<usize>>,
    /// Pairs of the final optimum among the floaters and the next scoregroup.
    tentative: Vec<(usize, usize)>,
}

/// Pairs one bracket with the smallest weight type its layout fits.
fn run_bracket(ctx: &Ctx, spec: &Spec, mode: Mode) -> Result<BracketResult, Failure> {
    let bracket = spec.mdps.len() + spec.residents.len();
    if bracket < 2 {
        let mut floaters: Vec<usize> = spec.mdps.clone();
        floaters.extend(spec.residents.iter().copied());
        let n_after = floaters.len() + spec.next.len();
        return Ok(BracketResult {
            floaters,
            floater_mates: vec![None; n_after],
            ..BracketResult::default()
        });
    }
    let layout = layout_for(ctx, spec, mode);
    let need = layout.bits + 6;
    macro_rules! go {
        ($t:ty) => {
            Run::<$t>::new(ctx, spec, mode, layout).run()
        };
    }
    if need <= 64 {
        go!(i64)
    } else if need <= 128 {
        go!(i128)
    } else if need <= 192 {
        go!(Wide<3>)
    } else if need <= 256 {
        go!(Wide<4>)
    } else if need <= 384 {
        go!(Wide<6>)
    } else if need <= 512 {
        go!(Wide<8>)
    } else if need <= 768 {
        go!(Wide<12>)
    } else if need <= 1024 {
        go!(Wide<16>)
    } else if need <= 2048 {
        go!(Wide<32>)
    } else {
        Err(Failure::Internal(format!(
            "a bracket needs {need}-bit weights, more than supported"
        )))
    }
}

fn classes(field: &Field, players: &[usize]) -> Vec<(Score, usize)> {
    let mut out: Vec<(Score, usize)> = Vec::new();
    for &v in players {
        let s = field.entrants[v].score;
        match out.iter_mut().find(|(x, _)| *x == s) {
            Some(c) => c.1 += 1,
            None => out.push((s, 1)),
        }
    }
    out.sort_by_key(|c| std::cmp::Reverse(c.0));
    out
}

fn layout_for(ctx: &Ctx, spec: &Spec, mode: Mode) -> Layout {
    if ctx.field.text == FideText::Y2017 {
        return layout_2017(ctx, spec, mode);
    }
    let mut bracket: Vec<usize> = spec.mdps.clone();
    bracket.extend(spec.residents.iter().copied());
    let mut window = bracket.clone();
    let in_graph = matches!(spec.next_use, NextUse::Graph);
    if in_graph {
        window.extend(spec.next.iter().copied());
    }
    let bracket_classes = classes(ctx.field, &bracket);
    let window_classes = classes(ctx.field, &window);
    let weak = bracket_weak_places(ctx.field, bracket.iter().copied());
    let global = mode != Mode::Window;
    let vertices = window.len() + if global { spec.outside.len() } else { 0 };
    Layout::new(&Sizes {
        vertices,
        bracket: bracket.len(),
        mdps: spec.mdps.len(),
        residents: spec.residents.len(),
        next: if in_graph { spec.next.len() } else { 0 },
        next_values: matches!(spec.next_use, NextUse::Values(_)),
        bracket_classes: &bracket_classes,
        window_classes: &window_classes,
        completion: global,
        bye_class: (ctx.odd && spec.single).then_some(ctx.bye_class),
        topscorers: bracket
            .iter()
            .any(|&v| ctx.field.is_topscorer(&ctx.field.entrants[v])),
        rounds_played: ctx.field.rounds_played,
        weak: &weak,
        round_weak: ctx.round_weak && global,
    })
}

/// The 2017 layout of a bracket's graph: the score-difference values that can occur
/// (A.8: a pair's difference, a downfloater's score less one point under the lowest score
/// in the graph) and the C.7 variant.
fn layout_2017(ctx: &Ctx, spec: &Spec, mode: Mode) -> Layout {
    let field = ctx.field;
    let score = |v: usize| field.entrants[v].score;
    let global = mode != Mode::Window;
    let in_graph = matches!(spec.next_use, NextUse::Graph);
    let lowest = [
        if global { spec.outside.last() } else { None },
        if in_graph { spec.next.last() } else { None },
        spec.residents.last(),
        spec.mdps.last(),
    ]
    .into_iter()
    .flatten()
    .map(|&v| score(v))
    .min()
    .unwrap_or(Score::ZERO);
    let floor = lowest - Score::points(1);
    let mut bracket_scores: Vec<Score> = spec.mdps.iter().map(|&v| score(v)).collect();
    bracket_scores.extend(spec.residents.iter().map(|&v| score(v)));
    bracket_scores.sort_unstable();
    bracket_scores.dedup();
    let mut resident_scores: Vec<Score> = spec.residents.iter().map(|&v| score(v)).collect();
    resident_scores.sort_unstable();
    resident_scores.dedup();
    let mut differences: Vec<Score> = bracket_scores.iter().map(|&s| s - floor).collect();
    for &a in &bracket_scores {
        for &b in &resident_scores {
            if a >= b {
                differences.push(a - b);
            }
        }
    }
    differences.sort_unstable_by(|a, b| b.cmp(a));
    differences.dedup();
    let bracket = spec.mdps.len() + spec.residents.len();
    let next = if in_graph { spec.next.len() } else { 0 };
    let vertices = bracket + next + if global { spec.outside.len() } else { 0 };
    let weak = if ctx.without_weak {
        Vec::new()
    } else {
        bracket_weak_places(field, spec.mdps.iter().chain(&spec.residents).copied())
    };
    Layout::new_2017(&Sizes2017 {
        vertices,
        bracket,
        mdps: spec.mdps.len(),
        residents: spec.residents.len(),
        next,
        differences: &differences,
        floor,
        completion: global,
        float_completes: matches!(&spec.next_use, NextUse::Values(v) if v.iter().any(|&x| x & FLOAT_INCOMPLETE != 0)),
        next_is_last: spec.outside.is_empty(),
        next_values: matches!(spec.next_use, NextUse::Values(_)) && !global,
        topscorers: spec
            .mdps
            .iter()
            .chain(&spec.residents)
            .any(|&v| field.is_topscorer(&field.entrants[v])),
        rounds_played: field.rounds_played,
        several: bracket_scores.len() > 1,
        weak: &weak,
        round_weak: ctx.round_weak && (global || (in_graph && spec.outside.is_empty())),
    })
}

/// The base weight of pair (higher `h`, lower `l`) under the 2017 edition (`Layout::
/// new_2017` says which field is which criterion). Two MDPs have no edge (B.2: they are
/// never paired with each other in a bracket).
fn base_weight_2017<W: Packed>(frame: &Frame, f: &Fields2017, h: usize, l: usize) -> W {
    let Frame {
        ctx,
        layout,
        ids,
        n_mdps,
        n_bracket,
        next_values,
        ..
    } = *frame;
    let field = ctx.field;
    let (ih, il) = (ids[h], ids[l]);
    if l < n_mdps {
        return W::ZERO;
    }
    let (eh, el): (&Entrant, &Entrant) = (&field.entrants[ih], &field.entrants[il]);
    let add = |w: W, v: i64, o: u32| {
        if v == 0 || o == NIL {
            w
        } else {
            w.wadd(W::shifted(v, o))
        }
    };
    let at = |c: &Classes, d: Score| c.offset(d).unwrap_or(NIL);
    let value = |e: &Entrant| e.score - f.floor;
    let ineligible = i64::from(!ctx.candidate[ih]) + i64::from(!ctx.candidate[il]);
    let mut w = W::ZERO;
    if let Some(o) = layout.completion {
        w = add(w, 1 + ineligible, o);
    }
    if let Some(o) = f.next_complete {
        w = add(w, 1 + ineligible, o);
    }
    if l >= n_bracket {
        // The lower player is in the next scoregroup (C.7).
        if let Some(o) = layout.next_pairs {
            w = add(w, 1, o);
        }
        if let Some(c) = &f.next_psd
            && h < n_bracket
        {
            w = add(w, 1, at(c, value(eh)));
        }
        return w;
    }
    let d = eh.score - el.score;
    let mdp_pair = eh.score > el.score;
    // C.5, C.6 (A.8): the pair's difference replaces the two players' downfloat values.
    w = add(w, 1, layout.pairs);
    w = add(w, 1, at(&f.psd, value(eh)));
    w = add(w, 1, at(&f.psd, value(el)));
    w = add(w, -1, at(&f.psd, d));
    match (&f.next_psd, next_values) {
        // One player floats, the next scoregroup is out of the graph. With it in, C.7
        // would count one more pair there if the floater adds one (value 2), and his
        // downfloat value in its PSD unless he cannot be paired there (value 0). Each
        // pair of the bracket keeps two players from floating, so it carries what they
        // would not bring: the matching's total is a constant plus the floater's.
        (Some(c), Some(values)) => {
            let (vh, vl) = (values[h] & !FLOAT_INCOMPLETE, values[l] & !FLOAT_INCOMPLETE);
            w = add(
                w,
                i64::from(vh != 2) + i64::from(vl != 2),
                layout.next_pairs.unwrap_or(NIL),
            );
            if vh == 0 {
                w = add(w, 1, at(c, value(eh)));
            }
            if vl == 0 {
                w = add(w, 1, at(c, value(el)));
            }
            // C.4 under C.7, the same way: the floater's completing counts.
            if let Some(o) = f.float_complete {
                let incomplete = |x: u8| i64::from(x & FLOAT_INCOMPLETE != 0);
                w = add(w, incomplete(values[h]) + incomplete(values[l]), o);
            }
        }
        (Some(c), None) => {
            w = add(w, 1, at(c, value(eh)));
            w = add(w, 1, at(c, value(el)));
        }
        (None, _) => {}
    }
    // C.8-C.11, as 2026's C10-C13.
    w = colour_fields(layout, eh, el, w);
    // C.12-C.15: every player who repeats a float (A.4), as paired players who do not.
    for (ago, down, up, down_sd, up_sd) in [
        (1u8, layout.down1, layout.up1, &f.down1_sd, &f.up1_sd),
        (2u8, layout.down2, layout.up2, &f.down2_sd, &f.up2_sd),
    ] {
        let Some(down) = down else { continue };
        let dl = criteria::had_downfloat(el, ago);
        let dh = criteria::had_downfloat(eh, ago);
        w = add(w, i64::from(dl) + i64::from(!mdp_pair && dh), down);
        let repeats_up = criteria::repeats_upfloat(eh, el, ago);
        if let Some(up) = up {
            w = add(w, i64::from(!repeats_up), up);
        }
        // C.16-C.19: their score differences.
        if let Some(c) = down_sd {
            if dl {
                w = add(w, 1, at(c, value(el)));
            }
            if dh {
                w = add(w, 1, at(c, value(eh)));
                if mdp_pair {
                    w = add(w, -1, at(c, d));
                }
            }
        }
        if let Some(c) = up_sd
            && repeats_up
        {
            w = add(w, -1, at(c, d));
        }
    }
    w
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Open,
    /// An S1 player exchanged into S2: may not be the higher player of a pair.
    Low,
    /// An S2 player exchanged into S1: may not be the lower player, nor float.
    High,
}

/// Per-vertex offsets of the score-class fields.
struct VertexOffsets {
    pair_score: u32,
    next_score: u32,
    down1: u32,
    up1: u32,
    down2: u32,
    up2: u32,
}

/// Weights of one bracket's graph: a stored matrix of base weights over the bracket and
/// the next scoregroup, the completion field for edges to players below, and the working
/// fields of the procedure applied on the fly.
struct Source<'a, W> {
    ctx: &'a Ctx<'a>,
    field: &'a Field,
    layout: Layout,
    off: Vec<VertexOffsets>,
    next_values: Option<Vec<u8>>,
    /// Local vertex -> entrant.
    ids: Vec<usize>,
    n_mdps: usize,
    n_bracket: usize,
    n_window: usize,
    /// Base weights over the window.
    base: Base<W>,
    candidate: Vec<bool>,
    forced: Vec<bool>,
    role: Vec<Role>,
    /// Index in the remainder, or NIL.
    ridx: Vec<u32>,
    /// Exchange fields active with this S1 size.
    exchange: Option<u32>,
    /// After the exchanges: who is the higher player of a remainder pair.
    higher: Option<Vec<bool>>,
    /// One vertex's preferences over its opponents.
    probe: Option<(u32, Vec<i64>)>,
    /// Vertices whose edges carry working fields or rules (the rest read the base).
    special: Vec<bool>,
    /// The vertex standing for the player left out of a large odd field, and its
    /// edges' weight (`Run::new`).
    left_out: Option<(usize, W)>,
}

impl<W: Packed> Source<'_, W> {
    /// The base weight of window pair `h < l`.
    #[inline]
    fn base(&self, h: usize, l: usize) -> W {
        let frame = || Frame {
            ctx: self.ctx,
            layout: &self.layout,
            off: &self.off,
            ids: &self.ids,
            n_mdps: self.n_mdps,
            n_bracket: self.n_bracket,
            next_values: self.next_values.as_deref(),
        };
        match &self.base {
            Base::Matrix(m) => m[h * self.n_window + l],
            Base::Types(t) => t.weight(&frame(), h, l),
            Base::Direct => base_weight(&frame(), h, l),
        }
    }
}

/// Where a bracket's base weights come from.
enum Base<W> {
    /// Stored, row-major over the window.
    Matrix(Vec<W>),
    /// Computed once per pair of player types.
    Types(types::TypeTable<W>),
    /// Computed on each access (too many types, too large to store).
    Direct,
}

impl<W: Packed> WeightSource<W> for Source<'_, W> {
    /// A row from a vertex without working fields: the edges to others without them are
    /// base weights, read with `a`'s side looked up once (the stages of a large bracket
    /// read billions). The rest go through `weight`.
    fn weights_from(&self, a: usize, bs: &[u32], out: &mut Vec<W>) {
        out.clear();
        let window = a < self.n_window
            && self.layout.weak.iter().all(Option::is_none)
            && self.layout.round_weak.is_none();
        // Within the window the base weight comes from the matrix or the type table with
        // `a`'s side looked up once; the working fields as `weight` adds them.
        let inside = |b: usize| b != a && b < self.n_window;
        let finish = |b: usize, base: W| {
            let (h, l) = if a < b { (a, b) } else { (b, a) };
            if !self.special[h] && !self.special[l] {
                base
            } else {
                self.working_fields(h, l, base)
            }
        };
        match &self.base {
            Base::Matrix(m) if window => {
                let row = &m[a * self.n_window..(a + 1) * self.n_window];
                out.extend(bs.iter().map(|&b| {
                    let b = b as usize;
                    if inside(b) {
                        finish(b, row[b])
                    } else {
                        self.weight(a, b)
                    }
                }));
            }
            Base::Types(t) if window => {
                let meets = self.field.meets(self.ids[a]);
                out.extend(bs.iter().map(|&b| {
                    let b = b as usize;
                    if !inside(b) {
                        return self.weight(a, b);
                    }
                    if !meets.may_meet(self.ids[b]) {
                        return W::ZERO;
                    }
                    let (h, l) = if a < b { (a, b) } else { (b, a) };
                    finish(b, t.cached(h, l).unwrap_or_else(|| self.base(h, l)))
                }));
            }
            _ => out.extend(bs.iter().map(|&b| self.weight(a, b as usize))),
        }
    }

    #[inline]
    fn weight(&self, a: usize, b: usize) -> W {
        if a == b {
            return W::ZERO;
        }
        if let Some((x, w)) = self.left_out
            && (a == x || b == x)
        {
            // Once the higher players of the remainder are fixed (art. 4.3), every optimum
            // pairs each of them with a lower player (the bracket's pairs count first and
            // only higher-lower pairs are left), so none is the player the vertex stands
            // for: cutting those edges changes no optimum, and leaves the remainder's graph
            // bipartite (higher players and the vertex on one side), where the repairs of
            // step 4 need no blossom.
            let other = if a == x { b } else { a };
            if let Some(hi) = &self.higher
                && self.ridx[other] != NIL
                && hi[other]
            {
                return W::ZERO;
            }
            return w;
        }
        let (h, l) = if a < b { (a, b) } else { (b, a) };
        if !self.special[h] && !self.special[l] && l < self.n_window {
            return self.base(h, l);
        }
        let w = if l < self.n_window {
            self.base(h, l)
        } else {
            match self.layout.completion {
                Some(off) if self.field.compatible(self.ids[h], self.ids[l]) => {
                    let v = 1 + i64::from(!self.candidate[h]) + i64::from(!self.candidate[l]);
                    let w = W::shifted(v, off);
                    match self.layout.round_weak {
                        Some(o)
                            if self.field.weak_within(
                                self.ids[h],
                                self.ids[l],
                                WeakPlace::First,
                            ) =>
                        {
                            w.wsub(W::shifted(1, o))
                        }
                        _ => w,
                    }
                }
                _ => W::ZERO,
            }
        };
        self.working_fields(h, l, w)
    }
}

impl<W: Packed> Source<'_, W> {
    /// The procedure's working fields on pair `h < l` of base (or completion) weight `w`:
    /// the roles and exchange fields of the remainder (art. 4.3), the MDPs' forced
    /// pairing, a probe's preferences (art. 4.2).
    #[inline]
    fn working_fields(&self, h: usize, l: usize, mut w: W) -> W {
        if w <= W::ZERO {
            return W::ZERO;
        }
        if self.ridx[h] != NIL && self.ridx[l] != NIL {
            if self.role[h] == Role::Low || self.role[l] == Role::High {
                return W::ZERO;
            }
            if let Some(hi) = &self.higher
                && (!hi[h] || hi[l])
            {
                return W::ZERO;
            }
            if let Some(p) = self.exchange {
                let r = self.ridx[h];
                w = w
                    .wadd(W::shifted(i64::from(r < p), self.layout.exchange))
                    .wsub(W::shifted(i64::from(r), self.layout.bsn_sum));
            }
        } else if self.role[h] == Role::High && l >= self.n_bracket && l < self.n_window {
            return W::ZERO;
        }
        if h < self.n_mdps && self.forced[h] && l >= self.n_mdps && l < self.n_bracket {
            w = w.wadd(W::shifted(1, self.layout.force));
        }
        if let Some((v, add)) = &self.probe {
            let v = *v as usize;
            if v == h {
                w = w.wadd(W::shifted(add[l], self.layout.probe));
            } else if v == l {
                w = w.wadd(W::shifted(add[h], self.layout.probe));
            }
        }
        w
    }
}

/// What the base weights of one bracket are computed from.
struct Frame<'a> {
    ctx: &'a Ctx<'a>,
    layout: &'a Layout,
    off: &'a [VertexOffsets],
    ids: &'a [usize],
    n_mdps: usize,
    n_bracket: usize,
    /// C8 values per bracket player (local order), when the next scoregroup is not in
    /// the graph but one player floats.
    next_values: Option<&'a [u8]>,
}

/// The base weight of pair (higher `h`, lower `l`), local indices with `h < l`: the
/// criteria's weight less the weak separations' (SEP-5).
fn base_weight<W: Packed>(frame: &Frame, h: usize, l: usize) -> W {
    weak_penalty(frame, h, l, plain_weight(frame, h, l))
}

/// The base weight without the weak separations' field: a function of the two players'
/// types (`brackets/types.rs`), and never below the weight with it.
fn plain_weight<W: Packed>(frame: &Frame, h: usize, l: usize) -> W {
    let Frame {
        ctx,
        layout,
        off,
        ids,
        n_mdps,
        n_bracket,
        next_values,
    } = *frame;
    let field = ctx.field;
    let (ih, il) = (ids[h], ids[l]);
    if !field.compatible(ih, il) {
        return W::ZERO;
    }
    if let Some(f) = &layout.e2017 {
        return base_weight_2017(frame, f, h, l);
    }
    let (eh, el): (&Entrant, &Entrant) = (&field.entrants[ih], &field.entrants[il]);
    let mut w = W::ZERO;
    // Adds `v` at offset `o`; `NIL` marks a field left out of this bracket's layout.
    let add = |w: W, v: i64, o: u32| {
        if v == 0 || o == NIL {
            w
        } else {
            w.wadd(W::shifted(v, o))
        }
    };
    if let Some(o) = layout.completion {
        let v = 1 + i64::from(!ctx.candidate[ih]) + i64::from(!ctx.candidate[il]);
        w = add(w, v, o);
    }
    if let Some(o) = layout.bye_games {
        let mut v = 0i64;
        if eh.score == ctx.bye_score {
            v += i64::from(ctx.bye_rank[ih]);
        }
        if el.score == ctx.bye_score {
            v += i64::from(ctx.bye_rank[il]);
        }
        w = add(w, v, o);
    }
    if l < n_bracket {
        if l < n_mdps {
            // Two MDPs are never paired with each other in a bracket; only C4 sees them.
            // Under `WEAK_FIRST` the round's count of pairs within a group must be one the
            // brackets below can make, and they cannot make this pair (both float on as
            // MDPs): no edge.
            if ctx.round_weak {
                return W::ZERO;
            }
            return w;
        }
        w = add(w, 1, layout.pairs);
        w = add(w, 1, off[h].pair_score);
        if let (Some(o), Some(values)) = (layout.next_value, next_values) {
            let short = 4 - i64::from(values[h]) - i64::from(values[l]);
            w = add(w, short, o);
        }
        w = colour_fields(layout, eh, el, w);
        // Floats (C14-C21): C14/C16 count paired residents with a previous downfloat
        // (the complement of the resident downfloaters that repeat it), C15/C17 the MDP
        // pairings whose resident had no previous upfloat.
        let mdp_pair = eh.score > el.score;
        for (ago, down, up, down_s, up_s) in [
            (
                1u8,
                layout.down1,
                layout.up1,
                (off[l].down1, off[h].down1),
                off[h].up1,
            ),
            (
                2u8,
                layout.down2,
                layout.up2,
                (off[l].down2, off[h].down2),
                off[h].up2,
            ),
        ] {
            let Some(down) = down else { continue };
            let (dl, dh) = (
                i64::from(criteria::had_downfloat(el, ago)),
                i64::from(criteria::had_downfloat(eh, ago)),
            );
            w = add(w, dl + i64::from(!mdp_pair) * dh, down);
            let no_repeat_up = i64::from(!criteria::repeats_upfloat(eh, el, ago));
            if let Some(up) = up {
                w = add(w, no_repeat_up, up);
            }
            if down_s.0 != NIL {
                w = add(w, dl, down_s.0);
                w = add(w, dh, down_s.1);
            }
            if up_s != NIL {
                w = add(w, no_repeat_up, up_s);
            }
        }
    } else {
        // The lower player is in the next scoregroup (C8).
        if let Some(o) = layout.next_pairs {
            w = add(w, 1, o);
            w = add(w, 1, off[h].next_score);
        }
    }
    w
}

/// SEP-5: `w`, the plain weight of window pair `h < l`, less one at each weak separation's
/// place where the pair is made in the bracket (both players in it, the lower one not an
/// MDP, as the pairs field counts it) and within a group. A pair the absolute criteria
/// forbid (weight zero) stays without an edge.
/// The test that skips the work when the bracket has no weak separation is inlined into
/// every weight read; the rest is not (a large field reads billions of weights).
#[inline(always)]
fn weak_penalty<W: Packed>(frame: &Frame, h: usize, l: usize, w: W) -> W {
    let weak = &frame.layout.weak;
    if weak[0].is_none()
        && weak[1].is_none()
        && weak[2].is_none()
        && frame.layout.round_weak.is_none()
    {
        return w;
    }
    weak_penalty_within(frame, h, l, w)
}

#[inline(never)]
fn weak_penalty_within<W: Packed>(frame: &Frame, h: usize, l: usize, mut w: W) -> W {
    let layout = frame.layout;
    if w == W::ZERO {
        return w;
    }
    let (a, b) = (frame.ids[h], frame.ids[l]);
    // `WEAK_FIRST` over the whole graph: every pair of it, made here or completing the
    // round below (C4).
    if let Some(o) = layout.round_weak
        && frame.ctx.field.weak_within(a, b, WeakPlace::First)
    {
        w = w.wsub(W::shifted(1, o));
    }
    if l >= frame.n_bracket || l < frame.n_mdps {
        return w;
    }
    for place in WeakPlace::ALL {
        if let Some(o) = layout.weak[place as usize]
            && frame.ctx.field.weak_within(a, b, place)
        {
            w = w.wsub(W::shifted(1, o));
        }
    }
    w
}

/// The colour criteria of a pair in its bracket (2026 C10-C13, 2017 C.8-C.11), from the
/// lower player's side as the weights are symmetric.
fn colour_fields<W: Packed>(layout: &Layout, eh: &Entrant, el: &Entrant, mut w: W) -> W {
    let add = |w: W, v: i64, o: u32| {
        if v == 0 || o == NIL {
            w
        } else {
            w.wadd(W::shifted(v, o))
        }
    };
    let same_pref = el.pref.is_some() && el.pref == eh.pref;
    if let Some(o) = layout.top_cd {
        let bad = el.absolute_imbalance() && eh.absolute_imbalance() && same_pref;
        w = add(w, i64::from(!bad), o);
    }
    if let Some(o) = layout.top_run {
        let bad = el.absolute()
            && eh.absolute()
            && same_pref
            && if el.imbalance == eh.imbalance {
                el.repeated.is_some() && el.repeated == eh.repeated
            } else {
                let loser = if el.imbalance > eh.imbalance { eh } else { el };
                loser.repeated == el.pref.map(Colour::opposite)
            };
        w = add(w, i64::from(!bad), o);
    }
    w = add(
        w,
        i64::from(!criteria::fails_colour_preference(eh, el)),
        layout.colour,
    );
    add(
        w,
        i64::from(!criteria::fails_strong_preference(eh, el)),
        layout.strong,
    )
}

/// One bracket's procedure over weight type `W`.
struct Run<'a, W> {
    ctx: &'a Ctx<'a>,
    src: Source<'a, W>,
    m: DynamicMatching<W>,
    done: Vec<bool>,
    res: BracketResult,
    /// The certificate shortcuts may answer (`brackets/fast.rs`).
    shortcuts: bool,
    /// The higher players of the remainder as the last exchange's optimum held them.
    fixed_higher: Option<Vec<bool>>,
}

impl<'a, W: Packed> Run<'a, W> {
    fn new(ctx: &'a Ctx<'a>, spec: &'a Spec, mode: Mode, layout: Layout) -> Run<'a, W> {
        let mut ids: Vec<usize> = spec.mdps.clone();
        ids.extend(spec.residents.iter().copied());
        let n_bracket = ids.len();
        if matches!(spec.next_use, NextUse::Graph) {
            ids.extend(spec.next.iter().copied());
        }
        let n_window = ids.len();
        if mode != Mode::Window {
            ids.extend(spec.outside.iter().copied());
        }
        let n = ids.len();
        let n_mdps = spec.mdps.len();
        let class_off = |c: &Classes, s: Score| c.offset(s).unwrap_or(NIL);
        let opt = |c: &Option<Classes>, s: Score| c.as_ref().map_or(NIL, |c| class_off(c, s));
        let off: Vec<VertexOffsets> = ids[..n_window]
            .iter()
            .map(|&v| {
                let s = ctx.field.entrants[v].score;
                VertexOffsets {
                    pair_score: class_off(&layout.pair_scores, s),
                    next_score: class_off(&layout.next_scores, s),
                    down1: opt(&layout.down1_scores, s),
                    up1: opt(&layout.up1_scores, s),
                    down2: opt(&layout.down2_scores, s),
                    up2: opt(&layout.up2_scores, s),
                }
            })
            .collect();
        let values: Option<Vec<u8>> = match &spec.next_use {
            NextUse::Values(v) => Some(v.clone()),
            _ => None,
        };
        let frame = Frame {
            ctx,
            layout: &layout,
            off: &off,
            ids: &ids,
            n_mdps,
            n_bracket,
            next_values: values.as_deref(),
        };
        // Base weights by player type when there are few types (`brackets/types.rs`;
        // the fast engine), else stored unless that would take too much memory.
        let types = if ctx.engine != Engine::Dense {
            types::TypeTable::build(&frame, n_window)
        } else {
            None
        };
        let bytes = n_window
            .saturating_mul(n_window)
            .saturating_mul(std::mem::size_of::<W>());
        let stand_in = ctx.engine.stand_in_vertices();
        let whole_odd = stand_in && mode == Mode::Global && n % 2 == 1;
        let one_float = stand_in
            && mode == Mode::Window
            && matches!(spec.next_use, NextUse::Values(_))
            && n % 2 == 1;
        // A window of few player types: the first solve starts from the optimum of the
        // problem between types (every base weight of a compatible pair is its types').
        // The matching reads the weights between types off the edges up to
        // `CLASS_WEIGHTS_SCANNED_UP_TO` vertices: they are stated only above that, or for
        // the stand-in vertex's weight when no stored matrix gives it (below), and in debug
        // builds, where the matching checks the statement against the edges (4 % of a
        // 100-player round went to stating them for nothing).
        let stated = n > CLASS_WEIGHTS_SCANNED_UP_TO
            || cfg!(debug_assertions)
            || ((whole_odd || one_float) && n_window > SMALL_WINDOW);
        let small_types = types.is_some() && n_window <= SMALL_WINDOW;
        let mut class_start = types.as_ref().filter(|_| n == n_window).map(|t| {
            let weights = if stated && !small_types {
                t.class_weights(&frame)
            } else {
                Vec::new()
            };
            (t.classes(), weights)
        });
        // The class weights are exactly the heaviest stored edges (below).
        let mut exact = false;
        let base = if let Some(t) = types {
            // A small window's weights are read many times over per pair (every solve
            // and probe of the bracket rereads them): stored once from the type table,
            // each read is one load. The same values, so the same answers.
            if n_window <= SMALL_WINDOW {
                let mut base = vec![W::ZERO; n_window * n_window];
                // With them, the heaviest edge between each two types: the first solve's
                // class weights, which it would otherwise find by reading every edge
                // again (2 % of a 100-player round).
                let ty: &[u32] = class_start.as_ref().map_or(&[], |(c, _)| c.as_slice());
                let side = ty.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
                let mut heaviest: Vec<Option<W>> = vec![None; side * side];
                for h in 0..n_window {
                    for l in h + 1..n_window {
                        let w: W = t.weight(&frame, h, l);
                        base[h * n_window + l] = w;
                        base[l * n_window + h] = w;
                        if w > W::ZERO
                            && let (Some(&th), Some(&tl)) = (ty.get(h), ty.get(l))
                        {
                            let (th, tl) = (th as usize, tl as usize);
                            for k in [th * side + tl, tl * side + th] {
                                if heaviest[k].is_none_or(|x| w > x) {
                                    heaviest[k] = Some(w);
                                }
                            }
                        }
                    }
                }
                if let Some((_, weights)) = class_start.as_mut() {
                    *weights = heaviest;
                    exact = true;
                }
                Base::Matrix(base)
            } else {
                Base::Types(t)
            }
        } else if bytes <= MATRIX_BYTES {
            let mut base = vec![W::ZERO; n_window * n_window];
            for h in 0..n_window {
                crate::cancel::checkpoint();
                for l in h + 1..n_window {
                    let w: W = base_weight(&frame, h, l);
                    base[h * n_window + l] = w;
                    base[l * n_window + h] = w;
                }
            }
            Base::Matrix(base)
        } else {
            Base::Direct
        };
        // A field paired whole with an odd number of players: a vertex standing
        // for the one left out (the PAB), joined to everybody by one same weight, makes
        // the graph even. Every optimum leaves exactly one player out (C4 counts pairs
        // first) and pairs the new vertex with him, so every question about optima has
        // the same answer; but the optimum needs no blossom over thousands of
        // interchangeable players, and the certificate keeps answering
        // (`brackets/fast.rs`). The weight is the heaviest pair's, so that the problem
        // between types is integral.
        //
        // The same holds for a bracket that floats exactly one player with the next
        // scoregroup out of the graph (C8 by per-player values): the vertex then stands
        // for the float, and every optimum pairs it with the floater.
        let mut left_out = None;
        if (whole_odd || one_float)
            && let Some((class, weights)) = class_start.as_mut()
            && let Some(heaviest) = match &base {
                // The heaviest edge, read off the stored weights (0: no edge).
                Base::Matrix(matrix) => matrix.iter().copied().max().filter(|&w| w > W::ZERO),
                _ => weights.iter().flatten().max().copied(),
            }
        {
            let t = class.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
            if !weights.is_empty() {
                let mut wider = vec![None; (t + 1) * (t + 1)];
                for s in 0..t {
                    for r in 0..t {
                        wider[s * (t + 1) + r] = weights[s * t + r];
                    }
                    wider[s * (t + 1) + t] = Some(heaviest);
                    wider[t * (t + 1) + s] = Some(heaviest);
                }
                *weights = wider;
            }
            class.push(t as u32);
            left_out = Some((n, heaviest));
        }
        // The left-out vertex has no player: it borrows the first one's id, which nothing
        // reads (it is never paired, never a candidate, and `Run::mate` hides it).
        let n = if left_out.is_some() {
            ids.push(ids[0]);
            n + 1
        } else {
            n
        };
        let candidate = ids.iter().map(|&v| ctx.candidate[v]).collect();
        let src = Source {
            ctx,
            field: ctx.field,
            layout,
            off,
            next_values: values,
            ids,
            n_mdps,
            n_bracket,
            n_window,
            base,
            candidate,
            forced: vec![false; n],
            role: vec![Role::Open; n],
            ridx: vec![NIL; n],
            exchange: None,
            higher: None,
            probe: None,
            special: vec![false; n],
            left_out,
        };
        let mut m = DynamicMatching::new(n);
        // A graph of a few vertices starts faster without the problem between types (its
        // flow costs more than the whole plain start).
        if let Some((class, weights)) = class_start
            && n >= CLASS_START_FROM
        {
            if exact {
                m.set_exact_class_weights(class, weights);
            } else {
                m.set_class_weights(class, weights);
            }
        }
        Run {
            ctx,
            src,
            m,
            done: vec![false; n],
            res: BracketResult::default(),
            shortcuts: ctx.engine != Engine::Dense,
            fixed_higher: None,
        }
    }

    fn solve(&mut self) -> Result<(), Failure> {
        self.m.solve(&self.src)?;
        Ok(())
    }

    /// The mate of `v` in the current optimum; the left-out vertex is no mate.
    fn mate(&self, v: usize) -> Option<usize> {
        self.m
            .mate(v)
            .filter(|&u| self.src.left_out.is_none_or(|(x, _)| u != x))
    }

    fn is_resident(&self, v: usize) -> bool {
        v >= self.src.n_mdps && v < self.src.n_bracket
    }

    /// Sets a probe on `v`'s edges, re-solves, and removes the probe (lazily).
    fn probe(&mut self, v: usize, add: Vec<i64>) -> Result<(), Failure> {
        self.src.probe = Some((v as u32, add));
        let was = self.src.special[v];
        self.src.special[v] = true;
        self.m.touch(v);
        self.solve()?;
        self.src.probe = None;
        self.src.special[v] = was;
        self.m.touch(v);
        Ok(())
    }

    fn finalize(&mut self, a: usize, b: usize) {
        self.done[a] = true;
        self.done[b] = true;
        self.m.remove(a);
        self.m.remove(b);
        let (ea, eb) = (self.src.ids[a], self.src.ids[b]);
        self.res.pairs.push((ea, eb));
    }

    /// The first opponent in `order` that some optimum still pairs `v` with: pairs them.
    fn choose_opponent(&mut self, v: usize, order: &[usize]) -> Result<usize, Failure> {
        let usable = |this: &Self, c: usize| !this.done[c] && this.src.weight(v, c) > W::ZERO;
        // With the shortcuts the certificate's walk down `order` also tells whether the
        // first usable candidate is the mate already (it stops there).
        let answered = if self.shortcuts {
            self.certified_opponent(v, order)?
        } else {
            order.iter().copied().find(|&c| usable(self, c)) == self.mate(v)
        };
        if !answered {
            let list: Vec<usize> = order.iter().copied().filter(|&c| usable(self, c)).collect();
            // The tight graph decides it without a stage when no blossom is held
            // (`DynamicMatching::first_optimal_partner`); else the probe.
            if self.shortcuts
                && matches!(
                    self.m.first_optimal_partner(&self.src, v, &list)?,
                    Some(Some(_))
                )
            {
                let Some(c) = self.mate(v) else {
                    return Err(Failure::Internal(
                        "a player to pair lost his opponent".into(),
                    ));
                };
                self.finalize(v, c);
                return Ok(c);
            }
            let mut add = vec![0i64; self.src.ids.len()];
            let k = list.len() as i64;
            for (i, &c) in list.iter().enumerate() {
                add[c] = k - i as i64;
            }
            self.probe(v, add)?;
        }
        let Some(c) = self.mate(v) else {
            return Err(Failure::Internal(
                "a player to pair lost his opponent".into(),
            ));
        };
        self.finalize(v, c);
        Ok(c)
    }

    fn run(mut self) -> Result<BracketResult, Failure> {
        self.solve()?;
        let n_mdps = self.src.n_mdps;
        let n_bracket = self.src.n_bracket;
        let residents: Vec<usize> = (n_mdps..n_bracket).collect();
        // 1. Which MDPs are paired (C7 fixes how many of each score; art. 4.4 which).
        let mut selected = vec![false; n_mdps];
        let mut i = 0;
        while i < n_mdps {
            let score = self.ctx.field.entrants[self.src.ids[i]].score;
            let mut end = i;
            while end < n_mdps && self.ctx.field.entrants[self.src.ids[end]].score == score {
                end += 1;
            }
            let mut left = end - i;
            let mut need = (i..end)
                .filter(|&j| self.mate(j).is_some_and(|c| self.is_resident(c)))
                .count();
            for (j, sel) in selected.iter_mut().enumerate().take(end).skip(i) {
                if need == 0 {
                    break;
                }
                if left <= need {
                    *sel = true;
                    continue;
                }
                left -= 1;
                // Whether some optimum pairs `j` with a resident: the tight graph tells
                // when no blossom is held (and then holds such an optimum if one
                // exists), else the probe.
                if !self.mate(j).is_some_and(|c| self.is_resident(c)) {
                    let decided = self.shortcuts
                        && self
                            .m
                            .first_optimal_partner(&self.src, j, &residents)?
                            .is_some();
                    if !decided {
                        let mut add = vec![0i64; self.src.ids.len()];
                        for &r in &residents {
                            add[r] = 1;
                        }
                        self.probe(j, add)?;
                    }
                }
                if self.mate(j).is_some_and(|c| self.is_resident(c)) {
                    *sel = true;
                    need -= 1;
                    self.src.forced[j] = true;
                    self.src.special[j] = true;
                    self.m.touch(j);
                }
            }
            i = end;
        }
        // 2. Their opponents: the first resident that still allows an optimum.
        for (j, &sel) in selected.iter().enumerate() {
            if !sel {
                continue;
            }
            self.solve()?;
            let c = self.choose_opponent(j, &residents)?;
            let (ej, ec) = (self.src.ids[j], self.src.ids[c]);
            self.res.paired_mdps.push(ej);
            self.res.mdp_pairs.push((ej, ec));
        }
        // 3. The remainder: S1 = as many players as it has pairs, then exchanges.
        self.solve()?;
        let rem: Vec<usize> = residents
            .iter()
            .copied()
            .filter(|&r| !self.done[r])
            .collect();
        for (k, &r) in rem.iter().enumerate() {
            self.src.ridx[r] = k as u32;
            self.src.special[r] = true;
        }
        let later_in = |this: &Self, a: usize| {
            this.mate(a)
                .is_some_and(|c| c > a && c < n_bracket && this.src.ridx[c] != NIL)
        };
        let p = rem.iter().filter(|&&a| later_in(&self, a)).count();
        if p > 0 {
            self.res.s1 = rem[..p].iter().map(|&v| self.src.ids[v]).collect();
            self.res.s2 = rem[p..].iter().map(|&v| self.src.ids[v]).collect();
            // An optimum that pairs S1 with S2 needs no exchange (art. 4.3), and then
            // the weights of the higher players' roles below only remove edges: the
            // certificate holds without a new solve (`brackets/fast.rs`).
            let no_exchange = self.certified_without_exchange(&rem, p)?;
            // With exchanges, the optimum of the exchange fields starts from this one
            // (`brackets/fast.rs`), when the certificate allows.
            let warm = self.shortcuts && !no_exchange && self.exchange_warm_start(&rem, p)?;
            if !no_exchange {
                self.src.exchange = Some(p as u32);
                if !warm {
                    for &r in &rem {
                        self.m.touch(r);
                    }
                }
                self.solve()?;
            }
            let exchanges = rem[..p].iter().filter(|&&a| !later_in(&self, a)).count();
            if exchanges > 0 {
                // S1 players moved to S2: from the bottom of S1 (art. 4.3 c).
                let mut left = exchanges;
                for k in (0..p).rev() {
                    if left == 0 {
                        break;
                    }
                    let a = rem[k];
                    if later_in(&self, a) {
                        let mut add = vec![0i64; self.src.ids.len()];
                        for &c in &rem[k + 1..] {
                            add[c] = -1;
                        }
                        self.probe(a, add)?;
                    }
                    if !later_in(&self, a) {
                        self.src.role[a] = Role::Low;
                        self.m.touch(a);
                        self.res.moved_to_s2.push(self.src.ids[a]);
                        left -= 1;
                    }
                }
                self.solve()?;
                // S2 players moved to S1: from the top of S2 (art. 4.3 d); the last one
                // follows from the BSN sum.
                let mut left = exchanges;
                for k in p..rem.len() {
                    if left <= 1 {
                        break;
                    }
                    let b = rem[k];
                    if !later_in(&self, b) {
                        let mut add = vec![0i64; self.src.ids.len()];
                        for &c in &rem[k + 1..] {
                            add[c] = 1;
                        }
                        self.probe(b, add)?;
                    }
                    if later_in(&self, b) {
                        self.src.role[b] = Role::High;
                        self.m.touch(b);
                        self.res.moved_to_s1.push(self.src.ids[b]);
                        left -= 1;
                    }
                }
                // The higher players are those of the optimum that fixed the last exchange
                // (the reference engines read them off it, art. 4.3 / 2017 D.2): another
                // optimum of the same weight may leave an S2 player just moved to S1
                // unpaired (a floater, or the PAB in the last brackets), which no
                // exchange of the generation order does.
                if self.ctx.field.text == FideText::Y2017 {
                    let held: Vec<bool> = rem.iter().map(|&a| later_in(&self, a)).collect();
                    self.solve()?;
                    for (&a, &h) in rem.iter().zip(&held) {
                        if h && !later_in(&self, a) {
                            self.src.role[a] = Role::High;
                        }
                    }
                    self.fixed_higher = Some(held);
                } else {
                    self.solve()?;
                }
            }
            let mut higher = vec![false; self.src.ids.len()];
            match self.fixed_higher.take() {
                Some(held) => {
                    for (&a, h) in rem.iter().zip(held) {
                        higher[a] = h;
                    }
                }
                None => {
                    for &a in &rem {
                        higher[a] = later_in(&self, a);
                    }
                }
            }
            for &b in &rem[p..] {
                if higher[b] && !self.res.moved_to_s1.contains(&self.src.ids[b]) {
                    self.res.moved_to_s1.push(self.src.ids[b]);
                }
            }
            self.src.higher = Some(higher.clone());
            // After a warm start the exchange fields stay: with the higher players fixed,
            // every pairing left pairs each of them with a lower player after him, so the
            // fields add the same amount to all of them, and the optimum stands without
            // re-checking every remainder player.
            if !warm {
                self.src.exchange = None;
                if !no_exchange {
                    for &r in &rem {
                        self.m.touch(r);
                    }
                }
            }
            // 4. Each higher player's opponent, in order: the first transposition. His
            // candidates are the lower players after him (two higher players have no
            // edge), from the first one still unpaired: the same list as `rem[k + 1..]`
            // without the players that could never be chosen, so that a bracket of
            // thousands is not scanned from its top for every higher player.
            let lowers: Vec<usize> = rem.iter().copied().filter(|&c| !higher[c]).collect();
            let mut lower_index = vec![NIL; self.src.ids.len()];
            for (i, &c) in lowers.iter().enumerate() {
                lower_index[c] = i as u32;
            }
            let mut unpaired = NextFree::new(lowers.len());
            for (k, &a) in rem.iter().enumerate() {
                if !higher[a] {
                    continue;
                }
                self.solve()?;
                let after = lowers.partition_point(|&c| (self.src.ridx[c] as usize) <= k);
                let from = unpaired.first(after);
                let c = self.choose_opponent(a, &lowers[from..])?;
                if let Some(&i) = lower_index.get(c)
                    && i != NIL
                {
                    unpaired.take(i as usize);
                }
                self.res
                    .remainder_pairs
                    .push((self.src.ids[a], self.src.ids[c]));
            }
        }
        self.solve()?;
        for v in 0..n_bracket {
            if !self.done[v] {
                self.res.floaters.push(self.src.ids[v]);
            }
        }
        for v in 0..self.src.n_window {
            if !self.done[v] {
                let mate = self.mate(v);
                self.res.floater_mates.push(mate.map(|u| self.src.ids[u]));
                if let Some(u) = mate
                    && v < u
                    && u < self.src.n_window
                {
                    self.res.tentative.push((self.src.ids[v], self.src.ids[u]));
                }
            }
        }
        Ok(self.res)
    }
}
