//! Amalfi Rating, FSI profile: the Italian federation's regulation (seed 000) as
//! `systems.md` §1 states it (AM-1.1..AM-4.4), on the common ground CG-1..CG-11.
//!
//! # How a round is paired
//! 1. **The pairing list (AM-3.2).** The present players (requested byes, absentees,
//!    withdrawn players and late entrants not yet in are already out of
//!    [`RoundToPair::participants`], CG-6/CG-9/CG-11), by pairing score descending, then
//!    pairing number ascending (AM-1.1, CG-2). A late entrant's pairing score is the
//!    `late_entry_score` setting (default ½) plus what he scored since he joined (AM-2.5).
//! 2. **The bye (AM-2.1, AM-2.2).** With an odd list, the lowest player among those with the
//!    most games played. He keeps his position: positions never move (AM-3.3).
//! 3. **The search (AM-3.3).** The first unpaired player, at position p, meets position
//!    p + k (k = rounds remaining including this one) unless that player is already paired,
//!    incompatible (AM-3.1) or beyond the list; then upward from min(p + k, last) to p + 1
//!    (AM-3.3.1), then downward from p + k + 1 to the last (AM-3.3.2); with nobody left,
//!    undo the last pair and go on with its first player's next candidate (AM-3.3.3). If the
//!    search is exhausted, the bye moves up (AM-3.4); if no bye works, CG-7.
//! 4. **Colours (AM-4.0..AM-4.4).**
//!
//! # Keeping the search fast without changing its answer
//! The depth-first search of AM-3.3 is exponential in the worst case. Three devices keep it
//! bounded while giving exactly the pairing the literal procedure gives:
//! - *Hopeless searches are not run.* One maximum matching of the compatibility graph
//!   (AM-3.1) tells, before any search, whether a complete pairing exists, and for an odd
//!   list which bye choices leave one (exactly the players some maximum matching leaves
//!   over: Gallai–Edmonds). A bye choice without one would make the backtracking try every
//!   pairing in vain; AM-3.4 moves on at once, and CG-7 is answered at once.
//! - *Dead states are remembered.* Which player comes next and in what order he tries his
//!   candidates depend only on which positions are already paired, and compatibility only
//!   on the two players; so a set of paired positions that once led nowhere leads nowhere
//!   again and is not explored twice.
//! - *A budget, then the oracle.* If the literal search (which the explanation follows step
//!   by step) needs more than [`LITERAL_BUDGET`] candidate checks, the round is paired again
//!   with the matching as an oracle (Edmonds' blossom algorithm, kept incrementally): at
//!   each level the search commits to the first candidate whose pair leaves players who can
//!   still all be paired. The search being exhaustive, that is precisely the branch it would
//!   come back to after all its backtracking; the oracle only skips branches in which
//!   backtracking would find nothing.
//!
//! The compatibility graph is never stored as a matrix: a player's neighbours are his colour
//! class's partners minus his few past opponents, so memory stays linear in the number of
//! players.
//!
//! # Board order
//! Boards follow the pairing list: board 1 holds the pair made for the list's first player,
//! board 2 the pair of the next unpaired player, and so on, i.e. by the position (score,
//! then pairing number) of the pair's better-placed player. This is the order in which the
//! regulation makes the pairs, and in round 1 it is also the order of AM-4.1's alternation.
//! The bye is reported apart, not as a board.
use std::collections::HashMap;

use crate::matching::{Adjacency, Matcher};
use crate::model::validate::{Problem, Problems};
use crate::model::{ByeKind, Colour, PlayerIdx, Score};
use crate::systems::common::History;
use crate::systems::{Board, ByeAssignment, Explanation, PairError, RoundPairing, RoundToPair};

/// Candidate checks the literal search may make for one bye choice before the oracle takes
/// over (per player in the list, on top of a fixed allowance).
pub const LITERAL_BUDGET: usize = 20_000;
const LITERAL_BUDGET_PER_PLAYER: usize = 8;
/// Fine-detail steps recorded per search, and backtrack steps at the summary level; past
/// these the explanation counts instead of listing (a hard round would otherwise produce an
/// unreadable explanation of many megabytes).
const MAX_DETAIL_STEPS: usize = 4_000;
const MAX_BACKTRACK_STEPS: usize = 100;
/// Players named with their refusals when no pairing exists.
const MAX_UNPAIRED_LISTED: usize = 20;
/// Failed bye choices (AM-3.4) explained player by player; later ones get one line each.
const MAX_BYES_EXPLAINED: usize = 5;

/// Pairs a round with the FSI rules.
pub fn pair(r: &RoundToPair, late_entry_score: Score) -> Result<RoundPairing, PairError> {
    r.require_results()?;
    let t = &r.tournament;
    if t.total_rounds == 0 {
        return Err(PairError::Invalid(Problems(vec![Problem::new(
            "tournament.total_rounds",
            "the Amalfi Rating system needs the number of rounds announced in advance: the \
             opponent's position depends on the rounds remaining (AM-3.3)",
        )])));
    }
    let history = History::build(r);
    let field = Field::build(r, &history, late_entry_score);
    let mut out = RoundPairing::default();
    field.explain_list(&mut out.explanation);

    let n = field.list.len();
    let eligible = field.bye_order();
    let graph = field.graph();
    let feasibility = field.feasibility(&graph);
    // AM-3.4: when no bye choice at all can work, say so once rather than per player.
    let to_try = if field.hopeless(&feasibility) && eligible.len() > 1 {
        let ex = &mut out.explanation;
        ex.group("search");
        ex.step(
            "AM-3.4",
            format!(
                "whoever has the bye, the others cannot all be paired: a maximum matching of all {n} players leaves {} unpaired",
                feasibility.exposed.len()
            ),
            field.players(&feasibility.exposed),
        );
        let mut log = Log {
            ex,
            details: 0,
            backtracks: 0,
        };
        for &x in feasibility.exposed.iter().take(MAX_UNPAIRED_LISTED) {
            field.explain_unpairable(x, None, &mut log);
        }
        Vec::new()
    } else {
        eligible.clone()
    };
    let mut chosen: Option<(Option<usize>, Pairs)> = None;
    for (attempt, &bye) in to_try.iter().enumerate() {
        let ex = &mut out.explanation;
        ex.group(match bye {
            Some(b) => format!("search with the bye to {}", field.name(b)),
            None => "search".to_string(),
        });
        if let Some(b) = bye {
            field.explain_bye(b, attempt, ex);
        }
        // Without a pairing the search has said why (AM-3.4); the next bye choice follows.
        if let Some(pairs) = field.search(bye, ex, &feasibility, attempt < MAX_BYES_EXPLAINED) {
            chosen = Some((bye, pairs));
            break;
        }
    }
    let Some((bye, pairs)) = chosen else {
        let message = format!(
            "round {}: no pairing of {n} players satisfies AM-3.1{}",
            r.number,
            if eligible.len() > 1 {
                format!(
                    " with any of the {} players eligible for the bye (AM-2.2)",
                    eligible.len()
                )
            } else {
                String::new()
            }
        );
        out.explanation.group("no legal pairing");
        out.explanation.step("CG-7", message.clone(), Vec::new());
        return Err(PairError::NoLegalPairing {
            rule: "AM-3.4".to_string(),
            message,
            explanation: out.explanation,
        });
    };

    out.explanation.group("colours");
    out.boards = field.colours(&pairs, &mut out.explanation);
    if let Some(b) = bye {
        let player = field.list[b].player;
        let points = t.scoring.pab;
        out.explanation.step(
            "AM-2.3",
            format!("{} has the bye and scores {points}", field.name(b)),
            vec![player],
        );
        out.byes.push(ByeAssignment {
            player,
            kind: ByeKind::Pab,
            points,
        });
    }
    Ok(out)
}

/// Pairs of positions in the pairing list, in the order they were made.
type Pairs = Vec<(usize, usize)>;

/// One player of the pairing list.
#[derive(Clone, Debug)]
struct Entry {
    player: PlayerIdx,
    number: u32,
    /// Pairing score (AM-2.5 for late entrants).
    score: Score,
    /// Late entrant, with the round he joined.
    late_from: Option<u32>,
    games: usize,
    /// Whether White (Black) keeps AM-3.1's colour conditions for him.
    white_ok: bool,
    black_ok: bool,
}

/// Why a candidate is refused (AM-3.3 a, b).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    Paired,
    Met,
    Forbidden,
    Colour,
}

impl Refusal {
    fn describe(self) -> &'static str {
        match self {
            Refusal::Paired => "(a) already paired",
            Refusal::Met => "(b) met before (AM-3.1)",
            Refusal::Forbidden => "(b) a forbidden pair, treated as having met (CG-10)",
            Refusal::Colour => {
                "(b) no colour allocation avoids a third same colour in a row or a difference of 3 (AM-3.1)"
            }
        }
    }
}

/// The round as the regulation sees it: the pairing list and what decides compatibility.
struct Field<'a> {
    r: &'a RoundToPair,
    history: &'a History,
    list: Vec<Entry>,
    /// Rounds remaining, this one included (AM-3.3).
    k: usize,
    last_round: bool,
    /// The pairing score a late entrant starts with (AM-2.5).
    late_entry_score: Score,
    /// SEP-5.3: per position, the indices in his candidate order of the later positions
    /// sharing a group of a weak separation with him, ascending (empty without one).
    mates: Vec<Vec<usize>>,
}

/// A pair being searched for: the player at position `p`, where his candidate order stands.
struct Frame {
    p: usize,
    cursor: usize,
    opponent: Option<usize>,
    /// Why the theoretical opponent was refused, once known.
    theoretical: Option<String>,
    resumed: bool,
}

/// The explanation of one search, with its volume capped.
struct Log<'e> {
    ex: &'e mut Explanation,
    details: usize,
    backtracks: usize,
}

impl Log<'_> {
    fn detail(&mut self, rule: &str, message: impl FnOnce() -> String, players: Vec<PlayerIdx>) {
        self.details += 1;
        if self.details <= MAX_DETAIL_STEPS {
            self.ex.detail(rule, message(), players);
        }
    }

    fn backtrack(&mut self, message: impl FnOnce() -> String, players: Vec<PlayerIdx>) {
        self.backtracks += 1;
        if self.backtracks <= MAX_BACKTRACK_STEPS {
            self.ex.step("AM-3.3.3", message(), players);
        }
    }

    fn close(&mut self) {
        if self.details > MAX_DETAIL_STEPS {
            self.ex.detail(
                "AM-3.3",
                format!(
                    "{} more fine steps of this search are not listed",
                    self.details - MAX_DETAIL_STEPS
                ),
                Vec::new(),
            );
        }
        if self.backtracks > MAX_BACKTRACK_STEPS {
            self.ex.step(
                "AM-3.3.3",
                format!(
                    "{} backtracks in all ({} listed)",
                    self.backtracks, MAX_BACKTRACK_STEPS
                ),
                Vec::new(),
            );
        }
    }
}

/// What one maximum matching of the whole pairing list says about the bye choices.
struct Feasibility<'g> {
    matcher: Matcher<&'g Graph>,
    /// The players it leaves unpaired.
    exposed: Vec<usize>,
    /// With exactly one left over: who may have the bye with everybody else paired (a
    /// bitset of positions).
    byes_possible: Option<Vec<u64>>,
}

/// The positions already paired (or holding the bye), with an incremental hash of the set.
struct PairedSet {
    flags: Vec<bool>,
    bits: Vec<u64>,
    hash: u64,
}

impl PairedSet {
    fn new(n: usize) -> PairedSet {
        PairedSet {
            flags: vec![false; n],
            bits: vec![0; n.div_ceil(64)],
            hash: 0,
        }
    }

    fn has(&self, i: usize) -> bool {
        self.flags[i]
    }

    fn set(&mut self, i: usize, on: bool) {
        if self.flags[i] != on {
            self.flags[i] = on;
            self.hash ^= zobrist(i);
            if on {
                set_bit(&mut self.bits, i);
            } else {
                clear_bit(&mut self.bits, i);
            }
        }
    }
}

/// The sets of paired positions known to lead nowhere, by hash; the exact sets are kept so
/// that a hash collision can never prune a live branch.
#[derive(Default)]
struct DeadStates(HashMap<u64, Vec<Vec<u64>>>);

impl DeadStates {
    fn contains(&self, s: &PairedSet) -> bool {
        self.0
            .get(&s.hash)
            .is_some_and(|sets| sets.contains(&s.bits))
    }

    fn insert(&mut self, s: &PairedSet) {
        self.0.entry(s.hash).or_default().push(s.bits.clone());
    }
}

/// What the literal search came to.
enum Outcome {
    Paired(Pairs),
    Exhausted,
    OverBudget,
}

impl<'a> Field<'a> {
    fn build(r: &'a RoundToPair, history: &'a History, late_score: Score) -> Field<'a> {
        let t = &r.tournament;
        let mut list: Vec<Entry> = r
            .participants
            .iter()
            .map(|&player| {
                let h = history.player(player);
                let late_from = t
                    .players
                    .get(player)
                    .and_then(|p| p.late_entry_round)
                    .filter(|&e| e > 1);
                // AM-2.5: whatever the rounds missed, a late entrant starts from the setting.
                let score = match late_from {
                    Some(e) => late_score + h.pairing_points_from(e),
                    None => h.pairing_points,
                };
                Entry {
                    player,
                    number: t.pairing_number(player),
                    score,
                    late_from,
                    games: h.games_played(),
                    white_ok: !h.colour_breaks_limits(Colour::White),
                    black_ok: !h.colour_breaks_limits(Colour::Black),
                }
            })
            .collect();
        // AM-3.2: score descending, then pairing number ascending.
        list.sort_by(|a, b| b.score.cmp(&a.score).then(a.number.cmp(&b.number)));
        let k = t.total_rounds.saturating_sub(r.number) as usize + 1;
        let mut field = Field {
            r,
            history,
            list,
            k,
            last_round: r.number >= t.total_rounds,
            late_entry_score: late_score,
            mates: Vec::new(),
        };
        let weak = t.weak_separations(r.number);
        if !weak.is_empty() {
            let n = field.list.len();
            field.mates = (0..n)
                .map(|p| {
                    let mut m: Vec<usize> = (p + 1..n)
                        .filter(|&c| weak.any_within(field.list[p].player, field.list[c].player))
                        .map(|c| field.candidate_index(p, c))
                        .collect();
                    m.sort_unstable();
                    m
                })
                .collect();
        }
        field
    }

    /// The index of position `c` (> `p`) in the candidate order of the player at `p`
    /// (the inverse of [`Field::base_candidate`]).
    fn candidate_index(&self, p: usize, c: usize) -> usize {
        let n = self.list.len();
        let theoretical = p + self.k;
        let top = theoretical.min(n.saturating_sub(1));
        if c <= top {
            top - c
        } else {
            (top - p) + (c - theoretical - 1)
        }
    }

    /// "id (position p)", for messages.
    fn name(&self, pos: usize) -> String {
        format!(
            "{} (position {})",
            self.r.id(self.list[pos].player),
            pos + 1
        )
    }

    fn id(&self, pos: usize) -> &str {
        self.r.id(self.list[pos].player)
    }

    fn players(&self, positions: &[usize]) -> Vec<PlayerIdx> {
        positions.iter().map(|&p| self.list[p].player).collect()
    }

    fn explain_list(&self, ex: &mut Explanation) {
        let t = &self.r.tournament;
        ex.group(format!("round {}: the pairing list", self.r.number));
        ex.step(
            "AM-3.2",
            format!(
                "{} present players by score, then pairing number: {}",
                self.list.len(),
                self.list
                    .iter()
                    .map(|e| format!("{} ({})", self.r.id(e.player), e.score))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            self.list.iter().map(|e| e.player).collect(),
        );
        for (i, e) in self.list.iter().enumerate() {
            ex.detail(
                "AM-3.2",
                format!(
                    "position {}: {} (pairing number {}), score {}, games played: {}",
                    i + 1,
                    self.r.id(e.player),
                    e.number,
                    e.score,
                    e.games
                ),
                vec![e.player],
            );
            if let Some(from) = e.late_from {
                ex.step(
                    "AM-2.5",
                    format!(
                        "{} joined in round {from}: pairing score {} = {} for the late entry + {} scored since (not real points)",
                        self.r.id(e.player),
                        e.score,
                        self.late_entry_score,
                        self.history.player(e.player).pairing_points_from(from)
                    ),
                    vec![e.player],
                );
            }
        }
        ex.step(
            "AM-3.3",
            format!(
                "k = rounds remaining including this one = {} - {} + 1 = {}",
                t.total_rounds, self.r.number, self.k
            ),
            Vec::new(),
        );
        if self.last_round {
            ex.step(
                "AM-3.1",
                "last round: two players are compatible if they have not met; colour limits do not apply",
                Vec::new(),
            );
        }
    }

    /// The bye candidates in the order AM-2.1, AM-2.2 and AM-3.4 try them: `[None]` for an
    /// even list; otherwise the players with the most games played, from the bottom up.
    fn bye_order(&self) -> Vec<Option<usize>> {
        if self.list.len().is_multiple_of(2) {
            return vec![None];
        }
        let most = self.list.iter().map(|e| e.games).max().unwrap_or(0);
        (0..self.list.len())
            .rev()
            .filter(|&i| self.list[i].games == most)
            .map(Some)
            .collect()
    }

    fn explain_bye(&self, b: usize, attempt: usize, ex: &mut Explanation) {
        let last = self.list.len() - 1;
        let e = &self.list[b];
        let player = vec![e.player];
        if attempt > 0 {
            ex.step(
                "AM-3.4",
                format!(
                    "the bye moves up to the next eligible player, {} ({} games played)",
                    self.name(b),
                    e.games
                ),
                player,
            );
        } else if b == last {
            ex.step(
                "AM-2.1",
                format!(
                    "odd number of players: the bye goes to the last of the list, {}",
                    self.name(b)
                ),
                player,
            );
        } else {
            let skipped: Vec<usize> = (b + 1..=last).collect();
            ex.step(
                "AM-2.2",
                format!(
                    "odd number of players; below {} only players who played fewer games ({}), so the bye goes to {}, the lowest of those with the most games played ({})",
                    self.id(b),
                    skipped
                        .iter()
                        .map(|&i| format!("{}: {}", self.id(i), self.list[i].games))
                        .collect::<Vec<_>>()
                        .join(", "),
                    self.name(b),
                    e.games
                ),
                player,
            );
        }
        ex.detail(
            "AM-3.3",
            format!(
                "{} stays at position {} as if already paired",
                self.id(b),
                b + 1
            ),
            vec![e.player],
        );
    }

    /// AM-3.1 for the players at positions `a` and `b`.
    fn compatible(&self, a: usize, b: usize) -> Result<(), Refusal> {
        let (ea, eb) = (&self.list[a], &self.list[b]);
        if self.history.have_played(ea.player, eb.player) {
            return Err(Refusal::Met);
        }
        if self.history.is_forbidden(ea.player, eb.player) {
            return Err(Refusal::Forbidden);
        }
        // The last round drops the colour conditions (AM-3.1).
        let some_allocation_fits = (ea.white_ok && eb.black_ok) || (eb.white_ok && ea.black_ok);
        if !self.last_round && !some_allocation_fits {
            return Err(Refusal::Colour);
        }
        Ok(())
    }

    /// The position of the `i`-th candidate of the player at position `p` (AM-3.3.1 from
    /// min(p + k, last) up to p + 1, then AM-3.3.2 from p + k + 1 down to the last).
    /// SEP-5.3: with a weak separation, his groupmates come after his other candidates,
    /// each part in this order.
    fn candidate(&self, p: usize, i: usize) -> Option<usize> {
        let Some(mates) = self.mates.get(p).filter(|m| !m.is_empty()) else {
            return self.base_candidate(p, i);
        };
        let others = self.list.len().saturating_sub(p + 1) - mates.len();
        if i < others {
            // The i-th candidate who is no groupmate.
            let mut j = i;
            for &m in mates {
                if m <= j {
                    j += 1;
                } else {
                    break;
                }
            }
            self.base_candidate(p, j)
        } else {
            mates
                .get(i - others)
                .and_then(|&m| self.base_candidate(p, m))
        }
    }

    /// The candidate order of AM-3.3 itself.
    fn base_candidate(&self, p: usize, i: usize) -> Option<usize> {
        let n = self.list.len();
        let theoretical = p + self.k;
        let top = theoretical.min(n.saturating_sub(1));
        let up = top.saturating_sub(p);
        if i < up {
            Some(top - i)
        } else {
            let d = theoretical + 1 + (i - up);
            (d < n).then_some(d)
        }
    }

    /// Which rule found the opponent at position `c` for the player at `p`.
    fn direction(&self, p: usize, c: usize) -> (&'static str, &'static str) {
        let theoretical = p + self.k;
        if c == theoretical {
            ("AM-3.3", "the theoretical opponent")
        } else if c < theoretical {
            ("AM-3.3.1", "searching upward")
        } else {
            ("AM-3.3.2", "searching downward")
        }
    }

    /// Why the theoretical opponent of position `p` is refused, if he is.
    fn theoretical_refusal(&self, p: usize, paired: &dyn Fn(usize) -> bool) -> Option<String> {
        let t = p + self.k;
        if t >= self.list.len() {
            return Some(format!(
                "position {} + {} = {} is beyond the list of {} (c)",
                p + 1,
                self.k,
                t + 1,
                self.list.len()
            ));
        }
        let why = if paired(t) {
            Some(Refusal::Paired)
        } else {
            self.compatible(p, t).err()
        };
        why.map(|w| {
            format!(
                "position {} + {} = {}, {}: {}",
                p + 1,
                self.k,
                t + 1,
                self.id(t),
                w.describe()
            )
        })
    }

    fn explain_pair(&self, log: &mut Log<'_>, frame: &Frame, c: usize) {
        let p = frame.p;
        let (rule, how) = self.direction(p, c);
        let message = match (&frame.theoretical, frame.resumed) {
            (_, true) => format!(
                "{} now meets {} ({how}, going on from where the search stopped)",
                self.name(p),
                self.name(c)
            ),
            (None, false) if c == p + self.k => format!(
                "{} meets {}, position {} + {}: {how}",
                self.name(p),
                self.name(c),
                p + 1,
                self.k
            ),
            // Only the oracle gets here: the theoretical pair was possible in itself but
            // would have left players who cannot all be paired.
            (None, false) => format!(
                "{} meets {} {how}; the theoretical opponent {} would leave players who cannot all be paired (AM-3.3.3)",
                self.name(p),
                self.name(c),
                self.name(p + self.k)
            ),
            (Some(why), false) => format!(
                "{} meets {} {how}; theoretical opponent {why}",
                self.name(p),
                self.name(c)
            ),
        };
        // The theoretical opponent is named too whenever the message gives his name.
        let mut named = vec![p, c];
        if !frame.resumed && c != p + self.k && p + self.k < self.list.len() {
            named.push(p + self.k);
        }
        log.ex.step(rule, message, self.players(&named));
    }

    /// One maximum matching of the whole list, which answers for every bye choice.
    fn feasibility<'g>(&self, graph: &'g Graph) -> Feasibility<'g> {
        let mut matcher = Matcher::new(graph);
        matcher.complete(&|p, i| self.candidate(p, i));
        let exposed = matcher.exposed();
        // With one player left over, the byes that leave a complete pairing are exactly
        // the players some maximum matching leaves over: those reached from him by an even
        // alternating path (Gallai–Edmonds).
        let byes_possible = match exposed.as_slice() {
            [r] => matcher.reachable_evenly(*r),
            _ => None,
        };
        Feasibility {
            matcher,
            exposed,
            byes_possible,
        }
    }

    /// Whether no choice of bye can leave a complete pairing.
    fn hopeless(&self, f: &Feasibility) -> bool {
        f.exposed.len() > self.list.len() % 2
    }

    /// A perfect matching of the list without the bye, or the players a maximum matching
    /// of it leaves unpaired.
    fn matching_without<'g>(
        &self,
        f: &Feasibility<'g>,
        bye: Option<usize>,
    ) -> Result<Matcher<&'g Graph>, Vec<usize>> {
        if self.hopeless(f) {
            return Err(f
                .exposed
                .iter()
                .copied()
                .filter(|&x| Some(x) != bye)
                .collect());
        }
        let mut m = f.matcher.clone();
        let (Some(b), [r]) = (bye, f.exposed.as_slice()) else {
            return Ok(m);
        };
        if b != *r && !f.byes_possible.as_ref().is_some_and(|ok| bit(ok, b)) {
            // b is in every maximum matching: without him one more pair is lost, r and
            // his partner.
            return Err(std::iter::once(*r).chain(m.mate(b)).collect());
        }
        m.without(b, *r)?;
        Ok(m)
    }

    /// AM-3.3 for one bye choice: the pairs (positions), or `None` if there is none.
    /// `explain_failure`: whether to list, when there is no pairing, whom the players left
    /// over could meet.
    fn search(
        &self,
        bye: Option<usize>,
        ex: &mut Explanation,
        f: &Feasibility<'_>,
        explain_failure: bool,
    ) -> Option<Pairs> {
        let budget = LITERAL_BUDGET + LITERAL_BUDGET_PER_PLAYER * self.list.len();
        let matching = self.matching_without(f, bye);
        self.search_with_budget(bye, ex, matching, budget, explain_failure)
    }

    fn search_with_budget(
        &self,
        bye: Option<usize>,
        ex: &mut Explanation,
        matching: Result<Matcher<&Graph>, Vec<usize>>,
        budget: usize,
        explain_failure: bool,
    ) -> Option<Pairs> {
        let mut log = Log {
            ex,
            details: 0,
            backtracks: 0,
        };
        // If no complete pairing exists, the backtracking of AM-3.3.3 would try every
        // pairing in vain; the maximum matching shows it at once.
        let mut matcher = match matching {
            Ok(m) => m,
            Err(left) => {
                log.ex.step(
                    if bye.is_some() { "AM-3.4" } else { "AM-3.3.3" },
                    format!(
                        "no complete pairing exists{}: a maximum matching of the compatible pairs (AM-3.1) still leaves {} unpaired, so backtracking would exhaust every pairing",
                        bye.map(|b| format!(" with the bye to {}", self.id(b)))
                            .unwrap_or_default(),
                        left.iter()
                            .map(|&i| self.name(i))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    self.players(&left),
                );
                if explain_failure {
                    for &x in left.iter().take(MAX_UNPAIRED_LISTED) {
                        self.explain_unpairable(x, bye, &mut log);
                    }
                }
                return None;
            }
        };
        let result = match self.literal(bye, &mut log, budget) {
            Outcome::Paired(pairs) => Some(pairs),
            Outcome::Exhausted => None,
            Outcome::OverBudget => {
                log.ex.step(
                    "AM-3.3.3",
                    format!(
                        "the backtracking grows past {budget} candidate checks: the search starts again, skipping at once every pair after which the remaining players cannot all be paired (a maximum matching proves it); this is where the backtracking would end up, so the pairing is the same"
                    ),
                    Vec::new(),
                );
                self.guided(&mut matcher, &mut log)
            }
        };
        log.close();
        result
    }

    /// Whom the player at `x` could meet, and why the others are refused (CG-7's
    /// explanation when no pairing exists).
    fn explain_unpairable(&self, x: usize, bye: Option<usize>, log: &mut Log<'_>) {
        let others: Vec<usize> = (0..self.list.len())
            .filter(|&y| y != x && Some(y) != bye)
            .collect();
        let verdicts: Vec<(usize, Result<(), Refusal>)> =
            others.iter().map(|&y| (y, self.compatible(x, y))).collect();
        let compatible: Vec<usize> = verdicts
            .iter()
            .filter(|(_, v)| v.is_ok())
            .map(|&(y, _)| y)
            .collect();
        let message = if others.len() <= 12 {
            verdicts
                .iter()
                .map(|&(y, v)| match v {
                    Ok(()) => format!("{}: compatible", self.id(y)),
                    Err(w) => format!("{}: {}", self.id(y), w.describe()),
                })
                .collect::<Vec<_>>()
                .join("; ")
        } else {
            let count = |r: Refusal| verdicts.iter().filter(|(_, v)| *v == Err(r)).count();
            format!(
                "compatible with {} of {} ({}{}); refused: {} met before, {} forbidden (CG-10), {} for colours",
                compatible.len(),
                others.len(),
                compatible
                    .iter()
                    .take(10)
                    .map(|&y| self.id(y).to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                if compatible.len() > 10 { ", …" } else { "" },
                count(Refusal::Met),
                count(Refusal::Forbidden),
                count(Refusal::Colour)
            )
        };
        log.ex.step(
            "AM-3.1",
            format!("{}: {message}", self.name(x)),
            self.players(&[x]),
        );
    }

    /// The depth-first search exactly as AM-3.3 describes it, with dead states remembered.
    fn literal(&self, bye: Option<usize>, log: &mut Log<'_>, budget: usize) -> Outcome {
        let n = self.list.len();
        let mut paired = PairedSet::new(n);
        if let Some(b) = bye {
            paired.set(b, true);
        }
        let mut dead = DeadStates::default();
        let mut frames: Vec<Frame> = Vec::new();
        let mut checks = 0usize;
        let mut descend = true;
        loop {
            crate::cancel::checkpoint();
            if descend {
                let from = frames.last().map_or(0, |f| f.p + 1);
                let Some(p) = (from..n).find(|&i| !paired.has(i)) else {
                    return Outcome::Paired(
                        frames
                            .iter()
                            .filter_map(|f| f.opponent.map(|c| (f.p, c)))
                            .collect(),
                    );
                };
                if dead.contains(&paired) {
                    log.detail(
                        "AM-3.3.3",
                        || {
                            format!(
                                "with the pairs made so far {} was already shown to leave players unpaired",
                                self.name(p)
                            )
                        },
                        self.players(&[p]),
                    );
                } else {
                    paired.set(p, true);
                    frames.push(Frame {
                        p,
                        cursor: 0,
                        opponent: None,
                        theoretical: None,
                        resumed: false,
                    });
                }
            }
            let Some(frame) = frames.last_mut() else {
                return Outcome::Exhausted;
            };
            let p = frame.p;
            if let Some(c) = frame.opponent.take() {
                paired.set(c, false);
                frame.resumed = true;
                log.backtrack(
                    || {
                        format!(
                            "undo {} - {}; {} looks for a different opponent",
                            self.id(p),
                            self.id(c),
                            self.id(p)
                        )
                    },
                    self.players(&[p, c]),
                );
            }
            if frame.cursor == 0 {
                frame.theoretical = self.theoretical_refusal(p, &|i| paired.has(i));
            }
            let mut found = None;
            while let Some(c) = self.candidate(p, frame.cursor) {
                frame.cursor += 1;
                checks += 1;
                let why = if paired.has(c) {
                    Err(Refusal::Paired)
                } else {
                    self.compatible(p, c)
                };
                match why {
                    Ok(()) => {
                        found = Some(c);
                        break;
                    }
                    // The bye and pairs already made are skipped silently: they are no
                    // choice, and listing them would bury the real refusals.
                    Err(Refusal::Paired) => {}
                    Err(w) => log.detail(
                        "AM-3.3",
                        || format!("{}: {} refused, {}", self.id(p), self.name(c), w.describe()),
                        self.players(&[p, c]),
                    ),
                }
            }
            if checks > budget {
                return Outcome::OverBudget;
            }
            match found {
                Some(c) => {
                    paired.set(c, true);
                    frame.opponent = Some(c);
                    let frame = &frames[frames.len() - 1];
                    self.explain_pair(log, frame, c);
                    descend = true;
                }
                None => {
                    let theoretical = frame.theoretical.take();
                    log.backtrack(
                        || match theoretical {
                            Some(why) if !frame.resumed => format!(
                                "{} finds no opponent (theoretical opponent {why}; nobody free and compatible upward or downward)",
                                self.name(p)
                            ),
                            _ => format!("{} finds no other opponent", self.name(p)),
                        },
                        self.players(&[p]),
                    );
                    // Back to the state in which p came up: remember it as dead.
                    paired.set(p, false);
                    dead.insert(&paired);
                    frames.pop();
                    descend = false;
                }
            }
        }
    }

    /// The compatibility graph of AM-3.1 over positions.
    fn graph(&self) -> Graph {
        let n = self.list.len();
        let words = n.div_ceil(64);
        let (mut white_ok, mut black_ok) = (vec![0u64; words], vec![0u64; words]);
        let mut position = vec![None; self.r.tournament.players.len()];
        for (i, e) in self.list.iter().enumerate() {
            // The last round has no colour condition: everybody takes either colour.
            if e.white_ok || self.last_round {
                set_bit(&mut white_ok, i);
            }
            if e.black_ok || self.last_round {
                set_bit(&mut black_ok, i);
            }
            if let Some(slot) = position.get_mut(e.player) {
                *slot = Some(i);
            }
        }
        let mut barred: Vec<Vec<usize>> = self
            .list
            .iter()
            .enumerate()
            .map(|(a, e)| {
                let met = self.history.player(e.player).opponents.iter();
                std::iter::once(a)
                    .chain(met.filter_map(|&o| position.get(o).copied().flatten()))
                    .collect()
            })
            .collect();
        // CG-10: forbidden pairs count as met.
        for f in &self.r.tournament.forbidden_pairings {
            if !f.applies_to(self.r.number) {
                continue;
            }
            let here: Vec<usize> = f
                .players
                .iter()
                .filter_map(|&p| position.get(p).copied().flatten())
                .collect();
            for &a in &here {
                barred[a].extend(here.iter().copied().filter(|&b| b != a));
            }
        }
        Graph {
            n,
            takes_white: (0..n).map(|i| bit(&white_ok, i)).collect(),
            takes_black: (0..n).map(|i| bit(&black_ok, i)).collect(),
            white_ok,
            black_ok,
            barred,
        }
    }

    /// The same search, guided by a perfect-matching oracle so that it never enters a
    /// branch without a complete pairing (see the module documentation).
    fn guided(&self, matcher: &mut Matcher<&Graph>, log: &mut Log<'_>) -> Option<Pairs> {
        let n = self.list.len();
        let mut pairs = Vec::new();
        let mut from = 0;
        while let Some(p) = (from..n).find(|&i| matcher.is_alive(i)) {
            let mut frame = Frame {
                p,
                cursor: 0,
                opponent: None,
                theoretical: self.theoretical_refusal(p, &|i| !matcher.is_alive(i)),
                resumed: false,
            };
            // After the first dead branch, one search gives every partner of p that still
            // leaves a complete pairing; the rest of his candidates are read off it.
            let mut partners: Option<Vec<u64>> = None;
            let mut found = None;
            while let Some(c) = self.candidate(p, frame.cursor) {
                frame.cursor += 1;
                if !matcher.is_alive(c) {
                    continue;
                }
                if let Err(w) = self.compatible(p, c) {
                    log.detail(
                        "AM-3.3",
                        || format!("{}: {} refused, {}", self.id(p), self.name(c), w.describe()),
                        self.players(&[p, c]),
                    );
                    continue;
                }
                let possible = partners.as_ref().is_none_or(|ok| bit(ok, c));
                if possible && matcher.take_pair(p, c) {
                    found = Some(c);
                    break;
                }
                log.backtrack(
                    || {
                        format!(
                            "{} - {} would leave players who cannot all be paired: backtracking would come back here, so {} goes on",
                            self.id(p),
                            self.id(c),
                            self.id(p)
                        )
                    },
                    self.players(&[p, c]),
                );
                if partners.is_none() {
                    partners = matcher.possible_partners(p);
                }
            }
            // The matching proved a complete pairing exists, so someone is always found.
            let c = found?;
            self.explain_pair(log, &frame, c);
            pairs.push((p, c));
            from = p + 1;
        }
        Some(pairs)
    }

    /// AM-4: colours of the pairs, as boards in pairing-list order.
    fn colours(&self, pairs: &[(usize, usize)], ex: &mut Explanation) -> Vec<Board> {
        if self.r.number == 1 {
            return self.first_round_colours(pairs, ex);
        }
        pairs
            .iter()
            .enumerate()
            .map(|(board, &(a, b))| self.allocate(board + 1, a, b, ex))
            .collect()
    }

    /// AM-4.1: player 1's colour is CG-8's; the pairs, ordered by their higher-ranked
    /// player, alternate it.
    fn first_round_colours(&self, pairs: &[(usize, usize)], ex: &mut Explanation) -> Vec<Board> {
        let mut order: Vec<usize> = (0..pairs.len()).collect();
        order.sort_by_key(|&i| {
            let (a, b) = pairs[i];
            self.list[a].number.min(self.list[b].number)
        });
        let mut boards = vec![None; pairs.len()];
        for (rank, &i) in order.iter().enumerate() {
            let (a, b) = pairs[i];
            let (hi, lo) = if self.list[a].number < self.list[b].number {
                (a, b)
            } else {
                (b, a)
            };
            let colour = if rank % 2 == 0 {
                self.r.initial_colour
            } else {
                self.r.initial_colour.opposite()
            };
            let (white, black) = if colour == Colour::White {
                (hi, lo)
            } else {
                (lo, hi)
            };
            ex.step(
                "AM-4.1",
                format!(
                    "board {}: {} - {}; pair {} by its higher-ranked player, who gets {colour}{}",
                    i + 1,
                    self.id(white),
                    self.id(black),
                    rank + 1,
                    if rank == 0 {
                        format!(
                            " (the first-round colour{}, CG-8)",
                            if self.r.initial_colour_drawn {
                                " drawn by lot"
                            } else {
                                ""
                            }
                        )
                    } else {
                        String::new()
                    }
                ),
                self.players(&[white, black]),
            );
            boards[i] = Some(Board {
                white: self.list[white].player,
                black: self.list[black].player,
            });
        }
        boards.into_iter().flatten().collect()
    }

    /// AM-4.0, AM-4.2..AM-4.4 for the players at positions `a` and `b`.
    fn allocate(&self, board: usize, a: usize, b: usize, ex: &mut Explanation) -> Board {
        let (ea, eb) = (&self.list[a], &self.list[b]);
        let (ha, hb) = (
            self.history.player(ea.player),
            self.history.player(eb.player),
        );
        let mut decided: Option<(usize, &'static str, String)> = None;
        // AM-4.2: the larger share of Black among games played gets White.
        let (ga, gb) = (ha.games_played(), hb.games_played());
        let (ba, bb) = (ha.blacks(), hb.blacks());
        if ga > 0 && gb > 0 && ba * gb != bb * ga {
            let white = if ba * gb > bb * ga { a } else { b };
            decided = Some((
                white,
                "AM-4.2",
                format!(
                    "{} had Black in {ba} of {ga} games, {} in {bb} of {gb}",
                    self.id(a),
                    self.id(b)
                ),
            ));
        }
        // AM-4.3: back round by round to the first difference; Black beats none beats White.
        if decided.is_none() {
            let blackness = |c: Option<Colour>| match c {
                Some(Colour::Black) => 2,
                None => 1,
                Some(Colour::White) => 0,
            };
            let describe = |c: Option<Colour>| match c {
                Some(c) => c.to_string(),
                None => "no colour".to_string(),
            };
            for round in (1..self.r.number).rev() {
                let (ca, cb) = (ha.colour_in_round(round), hb.colour_in_round(round));
                if ca != cb {
                    let white = if blackness(ca) > blackness(cb) { a } else { b };
                    decided = Some((
                        white,
                        "AM-4.3",
                        format!(
                            "equal shares of Black{}; in round {round} {} had {}, {} {}",
                            if ga == 0 || gb == 0 {
                                " (a player without games has no share)"
                            } else {
                                ""
                            },
                            self.id(a),
                            describe(ca),
                            self.id(b),
                            describe(cb)
                        ),
                    ));
                    break;
                }
            }
        }
        // AM-4.4: the higher-ranked (lower pairing number) alternates, or takes the
        // first-round colour by the parity of his number when he has not played.
        let (white, rule, why) = decided.unwrap_or_else(|| {
            let (hi, lo) = if ea.number < eb.number { (a, b) } else { (b, a) };
            let hi_history = self.history.player(self.list[hi].player);
            let (colour, why) = match hi_history.last_colour() {
                Some(last) => (
                    last.opposite(),
                    format!(
                        "equal histories; the higher-ranked {} played {last} last",
                        self.id(hi)
                    ),
                ),
                None => {
                    let odd = self.list[hi].number % 2 == 1;
                    let c = if odd {
                        self.r.initial_colour
                    } else {
                        self.r.initial_colour.opposite()
                    };
                    (
                        c,
                        format!(
                            "neither has played; the higher-ranked {} has the {} pairing number {} and player 1's first-round colour was {}",
                            self.id(hi),
                            if odd { "odd" } else { "even" },
                            self.list[hi].number,
                            self.r.initial_colour
                        ),
                    )
                }
            };
            let white = if colour == Colour::White { hi } else { lo };
            (white, "AM-4.4", why)
        });
        let black = if white == a { b } else { a };
        let fits = self.list[white].white_ok && self.list[black].black_ok;
        let (white, black) = if !fits && !self.last_round {
            ex.step(
                "AM-4.0",
                format!(
                    "board {board}: {rule} gives White to {} ({why}), but that breaks AM-3.1's colour conditions, so the other allocation is used: {} - {}",
                    self.id(white),
                    self.id(black),
                    self.id(white)
                ),
                self.players(&[black, white]),
            );
            (black, white)
        } else {
            ex.step(
                rule,
                format!(
                    "board {board}: {} - {}: {why}",
                    self.id(white),
                    self.id(black)
                ),
                self.players(&[white, black]),
            );
            if !fits {
                ex.step(
                    "AM-3.1",
                    format!(
                        "board {board}: last round, so the colours stand although they give a third same colour in a row or a difference of 3"
                    ),
                    self.players(&[white, black]),
                );
            }
            (white, black)
        };
        Board {
            white: self.list[white].player,
            black: self.list[black].player,
        }
    }
}

fn bit(bits: &[u64], i: usize) -> bool {
    bits[i / 64] >> (i % 64) & 1 == 1
}

fn set_bit(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

fn clear_bit(bits: &mut [u64], i: usize) {
    bits[i / 64] &= !(1 << (i % 64));
}

/// A pseudo-random 64-bit value per position (splitmix64), for hashing sets of positions.
fn zobrist(i: usize) -> u64 {
    let mut z = (i as u64)
        .wrapping_add(1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The compatibility graph of AM-3.1 over positions, kept implicit: a player's row is the
/// colour class he can be paired with, minus the few players he may not meet. Memory stays
/// linear in the number of players (the service accepts 100,000).
#[derive(Clone, Debug)]
struct Graph {
    n: usize,
    /// Who may take White, Black (everybody in the last round: colours do not count).
    white_ok: Vec<u64>,
    black_ok: Vec<u64>,
    takes_white: Vec<bool>,
    takes_black: Vec<bool>,
    /// Per position: the positions he may not meet (met before, forbidden), himself too.
    barred: Vec<Vec<usize>>,
}

impl Adjacency for Graph {
    fn vertices(&self) -> usize {
        self.n
    }

    fn row_into(&self, v: usize, out: &mut [u64]) {
        for (w, slot) in out.iter_mut().enumerate() {
            *slot = (if self.takes_white[v] {
                self.black_ok[w]
            } else {
                0
            }) | (if self.takes_black[v] {
                self.white_ok[w]
            } else {
                0
            });
        }
        for &b in &self.barred[v] {
            clear_bit(out, b);
        }
    }

    fn adjacent(&self, a: usize, b: usize) -> bool {
        ((self.takes_white[a] && bit(&self.black_ok, b))
            || (self.takes_black[a] && bit(&self.white_ok, b)))
            && !self.barred[a].contains(&b)
    }
}

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::model::{Bye, ForbiddenPairing, Game, GameResult, Player, Round, Tournament};
    use crate::systems::PairOptions;

    fn players(n: usize) -> Vec<Player> {
        (1..=n)
            .map(|i| Player {
                id: i.to_string(),
                pairing_number: Some(i as u32),
                ..Player::default()
            })
            .collect()
    }

    /// `played` rounds of random pairs, results and colours: not Amalfi rounds, only
    /// histories dense enough to make the search backtrack (repeat pairings allowed).
    fn random_history(n: usize, played: usize, total: u32, seed: u64) -> Tournament {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut rounds = Vec::new();
        for _ in 0..played {
            let mut order: Vec<usize> = (0..n).collect();
            order.shuffle(&mut rng);
            let mut round = Round::default();
            for pair in order.chunks(2) {
                match *pair {
                    [a, b] => round.games.push(Game {
                        white: a,
                        black: b,
                        result: match rng.random_range(0..3) {
                            0 => GameResult::WhiteWins,
                            1 => GameResult::Draw,
                            _ => GameResult::BlackWins,
                        },
                        board: None,
                    }),
                    [a] => round.byes.push(Bye {
                        player: a,
                        kind: ByeKind::Pab,
                    }),
                    _ => {}
                }
            }
            rounds.push(round);
        }
        // Now and then a forbidden trio (CG-10), which the adjacency must honour too.
        let forbidden_pairings = if n >= 3 && rng.random_bool(0.3) {
            let mut ids: Vec<usize> = (0..n).collect();
            ids.shuffle(&mut rng);
            vec![ForbiddenPairing {
                players: ids[..3].to_vec(),
                first_round: None,
                last_round: None,
            }]
        } else {
            Vec::new()
        };
        Tournament {
            total_rounds: total,
            initial_colour: Some(Colour::White),
            players: players(n),
            rounds,
            forbidden_pairings,
            ..Tournament::default()
        }
    }

    fn prepared(t: &Tournament) -> RoundToPair {
        RoundToPair::prepare(t, &PairOptions::default()).expect("a valid snapshot")
    }

    #[test]
    fn candidates_go_up_from_the_theoretical_position_then_down() {
        let t = random_history(10, 2, 5, 1);
        let r = prepared(&t);
        let h = History::build(&r);
        let mut f = Field::build(&r, &h, Score::half());
        let order = |f: &Field<'_>, p: usize| -> Vec<usize> {
            (0..).map_while(|i| f.candidate(p, i)).collect()
        };
        f.k = 3;
        // Position 3 (index 2): theoretical 6, up to 4, then 7..10.
        assert_eq!(order(&f, 2), vec![5, 4, 3, 6, 7, 8, 9]);
        f.k = 8;
        // Beyond the list: up from the last position only.
        assert_eq!(order(&f, 4), vec![9, 8, 7, 6, 5]);
        f.k = 1;
        assert_eq!(order(&f, 8), vec![9]);
        assert_eq!(order(&f, 9), Vec::<usize>::new());
    }

    /// The oracle-guided search gives exactly the literal search's pairing, or the same
    /// failure, on histories dense enough to make the literal search backtrack a lot.
    #[test]
    fn guided_search_equals_literal_search() {
        let mut backtracked = 0;
        let mut failed = 0;
        for seed in 0..300u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let n = rng.random_range(4..=16);
            let played = rng.random_range(1..=n.min(9));
            let total = played as u32 + rng.random_range(1..=4);
            let t = random_history(n, played, total, seed);
            let r = prepared(&t);
            let h = History::build(&r);
            let f = Field::build(&r, &h, Score::half());
            for bye in f.bye_order() {
                let mut ex = Explanation::default();
                let mut log = Log {
                    ex: &mut ex,
                    details: 0,
                    backtracks: 0,
                };
                let literal = match f.literal(bye, &mut log, usize::MAX) {
                    Outcome::Paired(p) => Some(p),
                    Outcome::Exhausted => None,
                    Outcome::OverBudget => unreachable!("no budget"),
                };
                if log.backtracks > 0 {
                    backtracked += 1;
                }
                if literal.is_none() {
                    failed += 1;
                }
                let mut ex2 = Explanation::default();
                let graph = f.graph();
                let feasibility = f.feasibility(&graph);
                let matching = f.matching_without(&feasibility, bye);
                let guided = f.search_with_budget(bye, &mut ex2, matching, 0, false);
                assert_eq!(literal, guided, "seed {seed}, bye {bye:?}");
            }
        }
        // The cases must exercise backtracking and failure, or the test proves nothing.
        assert!(backtracked > 30, "only {backtracked} searches backtracked");
        assert!(failed > 10, "only {failed} searches failed");
    }

    #[test]
    fn the_graph_is_the_compatibility_rule() {
        for seed in 0..60u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let n = rng.random_range(2..=70);
            let played = rng.random_range(0..=8);
            let total = played as u32 + rng.random_range(1..=2);
            let t = random_history(n, played, total, seed);
            let r = prepared(&t);
            let h = History::build(&r);
            let f = Field::build(&r, &h, Score::half());
            let graph = f.graph();
            let mut row = vec![0u64; n.div_ceil(64)];
            for a in 0..n {
                graph.row_into(a, &mut row);
                for b in 0..n {
                    let rule = a != b && f.compatible(a, b).is_ok();
                    assert_eq!(bit(&row, b), rule, "seed {seed}: row {a}-{b}");
                    assert_eq!(graph.adjacent(a, b), rule, "seed {seed}: {a}-{b}");
                }
            }
        }
    }

    #[test]
    fn the_bye_goes_to_the_lowest_of_those_with_most_games() {
        // 5 players; player 5 (last) was absent in round 1, so player 4 gets the bye.
        let mut t = random_history(4, 1, 5, 3);
        t.players = players(5);
        t.rounds[0].byes.push(Bye {
            player: 4,
            kind: ByeKind::ZeroPoint,
        });
        let r = prepared(&t);
        let h = History::build(&r);
        let f = Field::build(&r, &h, Score::half());
        let order: Vec<PlayerIdx> = f
            .bye_order()
            .into_iter()
            .flatten()
            .map(|pos| f.list[pos].player)
            .collect();
        // From the bottom up, only the players with one game; player index 4 never.
        assert_eq!(order.len(), 4);
        assert!(!order.contains(&4));
        let last_with_a_game = f
            .list
            .iter()
            .rposition(|e| e.games == 1)
            .map(|pos| f.list[pos].player);
        assert_eq!(order.first().copied(), last_with_a_game);
    }

    #[test]
    fn an_unknown_number_of_rounds_is_an_input_error() {
        let mut t = random_history(4, 0, 0, 1);
        t.total_rounds = 0;
        let r = prepared(&t);
        assert!(matches!(
            pair(&r, Score::half()),
            Err(PairError::Invalid(_))
        ));
    }
}
