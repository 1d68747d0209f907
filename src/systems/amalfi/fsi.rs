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
pub fn pair(r: &RoundToPair) -> Result<RoundPairing, PairError> {
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
    let field = Field::build(r, &history);
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
    matcher: Matcher<'g>,
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
    fn build(r: &'a RoundToPair, history: &'a History) -> Field<'a> {
        let t = &r.tournament;
        let late_score = t.options.late_entry_score.unwrap_or(Score::half());
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
        Field {
            r,
            history,
            list,
            k,
            last_round: r.number >= t.total_rounds,
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
                        t.options.late_entry_score.unwrap_or(Score::half()),
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
    fn candidate(&self, p: usize, i: usize) -> Option<usize> {
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
        log.ex.step(rule, message, self.players(&[p, c]));
    }

    /// One maximum matching of the whole list, which answers for every bye choice.
    fn feasibility<'g>(&self, graph: &'g Graph) -> Feasibility<'g> {
        let n = self.list.len();
        let mut alive = vec![0u64; n.div_ceil(64)];
        for i in 0..n {
            set_bit(&mut alive, i);
        }
        let mut matcher = Matcher::new(graph, alive);
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
    ) -> Result<Matcher<'g>, Vec<usize>> {
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
            return Err(vec![*r, m.mate[b]]);
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
        matching: Result<Matcher<'_>, Vec<usize>>,
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
            words,
            takes_white: (0..n).map(|i| bit(&white_ok, i)).collect(),
            takes_black: (0..n).map(|i| bit(&black_ok, i)).collect(),
            white_ok,
            black_ok,
            barred,
        }
    }

    /// The same search, guided by a perfect-matching oracle so that it never enters a
    /// branch without a complete pairing (see the module documentation).
    fn guided(&self, matcher: &mut Matcher<'_>, log: &mut Log<'_>) -> Option<Pairs> {
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

const NONE: usize = usize::MAX;

fn bit(bits: &[u64], i: usize) -> bool {
    bits[i / 64] >> (i % 64) & 1 == 1
}

fn set_bit(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

fn clear_bit(bits: &mut [u64], i: usize) {
    bits[i / 64] &= !(1 << (i % 64));
}

fn first_bit(bits: &[u64]) -> Option<usize> {
    bits.iter()
        .enumerate()
        .find(|(_, w)| **w != 0)
        .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
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
    words: usize,
    /// Who may take White, Black (everybody in the last round: colours do not count).
    white_ok: Vec<u64>,
    black_ok: Vec<u64>,
    takes_white: Vec<bool>,
    takes_black: Vec<bool>,
    /// Per position: the positions he may not meet (met before, forbidden), himself too.
    barred: Vec<Vec<usize>>,
}

impl Graph {
    /// Writes the neighbours of `v` into `out`.
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

/// A perfect matching of the players still to pair in the compatibility graph, kept up to
/// date as pairs are taken (Edmonds' blossom algorithm, one alternating search at a time).
/// Positions are vertices; `alive` holds those not paired yet.
///
/// The graph is dense (most players may meet most others), so the search works on bitsets:
/// the tree grows only into vertices not in it yet, blossom edges are looked for only
/// outside the current blossom, and blossoms are merged with union-find. A search then costs
/// about (vertices reached) × n/64 word operations, and resetting it only what it touched.
#[derive(Clone)]
struct Matcher<'g> {
    graph: &'g Graph,
    n: usize,
    words: usize,
    alive: Vec<u64>,
    matched: Vec<u64>,
    mate: Vec<usize>,
    // The state of one search. Every vertex a search touches is in `tree`, so that the
    // next search resets just those.
    parent: Vec<usize>,
    outer: Vec<u64>,
    tree: Vec<u64>,
    queue: Vec<usize>,
    /// Union-find over blossoms: `link[i] == i` for a representative.
    link: Vec<usize>,
    size: Vec<usize>,
    /// By representative: the blossom's base vertex, and its members' bitset (an index in
    /// `masks`, `NONE` for a single vertex).
    base_of: Vec<usize>,
    mask_of: Vec<usize>,
    masks: Vec<Vec<u64>>,
    masks_used: usize,
    stamp: u64,
    seen: Vec<u64>,
    merge: Vec<usize>,
    row: Vec<u64>,
    candidates: Vec<u64>,
}

impl<'g> Matcher<'g> {
    fn new(graph: &'g Graph, alive: Vec<u64>) -> Matcher<'g> {
        let (n, words) = (graph.n, graph.words);
        Matcher {
            graph,
            n,
            words,
            alive,
            matched: vec![0; words],
            mate: vec![NONE; n],
            parent: vec![NONE; n],
            outer: vec![0; words],
            tree: vec![0; words],
            queue: Vec::new(),
            link: (0..n).collect(),
            size: vec![1; n],
            base_of: (0..n).collect(),
            mask_of: vec![NONE; n],
            masks: Vec::new(),
            masks_used: 0,
            stamp: 0,
            seen: vec![0; n],
            merge: Vec::new(),
            row: vec![0; words],
            candidates: vec![0; words],
        }
    }

    fn is_alive(&self, v: usize) -> bool {
        bit(&self.alive, v)
    }

    fn set_alive(&mut self, v: usize, on: bool) {
        if on {
            set_bit(&mut self.alive, v);
        } else {
            clear_bit(&mut self.alive, v);
        }
    }

    fn pair_up(&mut self, a: usize, b: usize) {
        self.mate[a] = b;
        self.mate[b] = a;
        set_bit(&mut self.matched, a);
        set_bit(&mut self.matched, b);
    }

    fn unmatch(&mut self, a: usize) {
        self.mate[a] = NONE;
        clear_bit(&mut self.matched, a);
    }

    /// The alive vertices left unmatched.
    fn exposed(&self) -> Vec<usize> {
        (0..self.n)
            .filter(|&v| self.is_alive(v) && self.mate[v] == NONE)
            .collect()
    }

    /// Builds a maximum matching of the alive vertices, starting greedily: each vertex in
    /// turn takes the first free neighbour in `order(v, 0)`, `order(v, 1)`, …; whether the
    /// matching covers them all.
    fn complete(&mut self, order: &dyn Fn(usize, usize) -> Option<usize>) -> bool {
        for a in 0..self.n {
            if !self.is_alive(a) || self.mate[a] != NONE {
                continue;
            }
            let free = (0..)
                .map_while(|i| order(a, i))
                .find(|&b| self.is_alive(b) && self.mate[b] == NONE && self.graph.adjacent(a, b));
            if let Some(b) = free {
                self.pair_up(a, b);
            }
        }
        // An exposed vertex with no augmenting path now never gets one later (Edmonds), so
        // one pass is enough.
        let mut complete = true;
        for v in 0..self.n {
            if self.is_alive(v) && self.mate[v] == NONE {
                match self.search(v) {
                    Some(end) => self.augment(end),
                    None => complete = false,
                }
            }
        }
        complete
    }

    /// Takes the pair (p, c) out if the players left can still all be paired.
    fn take_pair(&mut self, p: usize, c: usize) -> bool {
        let (p2, c2) = (self.mate[p], self.mate[c]);
        if p2 == NONE || c2 == NONE {
            return false;
        }
        self.set_alive(p, false);
        self.set_alive(c, false);
        if p2 == c {
            return true;
        }
        // p's and c's partners are left alone: a complete pairing of the rest exists if and
        // only if an augmenting path joins them (Berge).
        self.unmatch(p2);
        self.unmatch(c2);
        if let Some(end) = self.search(p2) {
            self.augment(end);
            self.pair_up(p, c);
            return true;
        }
        self.set_alive(p, true);
        self.set_alive(c, true);
        self.pair_up(p, p2);
        self.pair_up(c, c2);
        false
    }

    /// Takes `b` out of a maximum matching that leaves exactly `r` over, and re-pairs the
    /// rest completely if it can (the bye to b); otherwise the two left over.
    fn without(&mut self, b: usize, r: usize) -> Result<(), Vec<usize>> {
        self.set_alive(b, false);
        if b == r {
            return Ok(());
        }
        let partner = self.mate[b];
        if partner == NONE {
            return Err(vec![r]);
        }
        self.unmatch(b);
        self.unmatch(partner);
        match self.search(r) {
            Some(end) => {
                self.augment(end);
                Ok(())
            }
            None => Err(vec![r, partner]),
        }
    }

    /// The vertices p can be paired with so that the rest still pair completely (a
    /// bitset): c is one if and only if some maximum matching of G − p misses c, i.e. c is
    /// reached by an even alternating path from p's partner, the one vertex G − p leaves
    /// exposed (Gallai–Edmonds).
    fn possible_partners(&mut self, p: usize) -> Option<Vec<u64>> {
        let p2 = self.mate[p];
        if p2 == NONE {
            return None;
        }
        self.set_alive(p, false);
        self.unmatch(p2);
        // Every other alive vertex is matched, so the search runs to its end.
        let end = self.search(p2);
        let partners = self.outer.clone();
        self.set_alive(p, true);
        self.pair_up(p, p2);
        match end {
            None => Some(partners),
            Some(_) => None,
        }
    }

    /// The vertices reached from the exposed `root` by even alternating paths (a bitset),
    /// when the matching is maximum (so that the search finds no augmenting path).
    fn reachable_evenly(&mut self, root: usize) -> Option<Vec<u64>> {
        match self.search(root) {
            None => Some(self.outer.clone()),
            Some(_) => None,
        }
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.link[i] != i {
            self.link[i] = self.link[self.link[i]];
            i = self.link[i];
        }
        i
    }

    fn base(&mut self, i: usize) -> usize {
        let r = self.find(i);
        self.base_of[r]
    }

    /// Edmonds' search from the exposed `root`: the other end of an augmenting path, if
    /// any (its path stays in `parent` for [`Matcher::augment`]). Without one, `outer`
    /// holds the vertices reached by even alternating paths.
    fn search(&mut self, root: usize) -> Option<usize> {
        for w in 0..self.words {
            let mut bits = self.tree[w];
            while bits != 0 {
                let v = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.parent[v] = NONE;
                self.link[v] = v;
                self.size[v] = 1;
                self.base_of[v] = v;
                self.mask_of[v] = NONE;
            }
            self.tree[w] = 0;
            self.outer[w] = 0;
        }
        self.masks_used = 0;
        self.queue.clear();
        set_bit(&mut self.outer, root);
        set_bit(&mut self.tree, root);
        self.queue.push(root);
        let mut row = std::mem::take(&mut self.row);
        let mut candidates = std::mem::take(&mut self.candidates);
        let found = self.grow(root, &mut row, &mut candidates);
        self.row = row;
        self.candidates = candidates;
        found
    }

    fn grow(&mut self, root: usize, row: &mut [u64], candidates: &mut [u64]) -> Option<usize> {
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head];
            head += 1;
            self.graph.row_into(v, row);
            for (slot, &a) in row.iter_mut().zip(&self.alive) {
                *slot &= a;
            }
            // An exposed neighbour: augmenting path (the usual case in a dense graph).
            for (w, &word) in row.iter().enumerate() {
                let mut hit = word & !self.matched[w];
                if w == root / 64 {
                    hit &= !(1 << (root % 64));
                }
                if hit != 0 {
                    let to = w * 64 + hit.trailing_zeros() as usize;
                    self.parent[to] = v;
                    set_bit(&mut self.tree, to);
                    return Some(to);
                }
            }
            // Vertices not in the tree are matched: each becomes odd, its mate outer.
            for (w, &word) in row.iter().enumerate() {
                let mut bits = word & !self.tree[w];
                while bits != 0 {
                    let to = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if bit(&self.tree, to) {
                        continue;
                    }
                    let m = self.mate[to];
                    self.parent[to] = v;
                    set_bit(&mut self.tree, to);
                    set_bit(&mut self.tree, m);
                    set_bit(&mut self.outer, m);
                    self.queue.push(m);
                }
            }
            // Edges to outer vertices of other blossoms close odd cycles: contract them.
            for (c, (&r, &o)) in candidates.iter_mut().zip(row.iter().zip(&self.outer)) {
                *c = r & o;
            }
            self.exclude_blossom(v, candidates);
            while let Some(to) = first_bit(candidates) {
                clear_bit(candidates, to);
                if self.base(v) == self.base(to) || self.mate[v] == to {
                    continue;
                }
                let current = self.lca(v, to);
                self.merge.clear();
                self.mark_path(v, current, to);
                self.mark_path(to, current, v);
                let mut rep = self.find(current);
                for i in 0..self.merge.len() {
                    let other = self.find(self.merge[i]);
                    if other != rep {
                        rep = self.union(rep, other);
                    }
                }
                self.base_of[rep] = current;
                self.exclude_blossom(v, candidates);
            }
        }
        None
    }

    /// Removes v's blossom from `candidates`.
    fn exclude_blossom(&mut self, v: usize, candidates: &mut [u64]) {
        let r = self.find(v);
        match self.mask_of[r] {
            NONE => clear_bit(candidates, r),
            m => {
                for (c, &b) in candidates.iter_mut().zip(&self.masks[m]) {
                    *c &= !b;
                }
            }
        }
    }

    /// Merges two blossoms (by representative); the new representative.
    fn union(&mut self, a: usize, b: usize) -> usize {
        let (big, small) = if self.size[a] >= self.size[b] {
            (a, b)
        } else {
            (b, a)
        };
        self.link[small] = big;
        self.size[big] += self.size[small];
        let mb = match self.mask_of[big] {
            NONE => {
                if self.masks_used == self.masks.len() {
                    self.masks.push(vec![0; self.words]);
                } else {
                    self.masks[self.masks_used].iter_mut().for_each(|x| *x = 0);
                }
                let m = self.masks_used;
                self.masks_used += 1;
                set_bit(&mut self.masks[m], big);
                self.mask_of[big] = m;
                m
            }
            m => m,
        };
        match self.mask_of[small] {
            NONE => set_bit(&mut self.masks[mb], small),
            ms => {
                for w in 0..self.words {
                    let x = self.masks[ms][w];
                    self.masks[mb][w] |= x;
                }
            }
        }
        big
    }

    /// Flips the augmenting path ending at `end` found by [`Matcher::search`].
    fn augment(&mut self, end: usize) {
        let mut u = end;
        while u != NONE {
            let pv = self.parent[u];
            let next = self.mate[pv];
            self.pair_up(u, pv);
            u = next;
        }
    }

    /// The base of the blossom where the tree paths from `a` and `b` to the root meet.
    fn lca(&mut self, mut a: usize, mut b: usize) -> usize {
        self.stamp += 1;
        let stamp = self.stamp;
        loop {
            a = self.base(a);
            self.seen[a] = stamp;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        loop {
            b = self.base(b);
            if self.seen[b] == stamp {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    /// Walks from `v` up to the blossom base `b`, re-pointing parents through the cycle
    /// (so that augmenting paths can go round it), noting the blossoms to merge and making
    /// the odd vertices on the way outer.
    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize) {
        while self.base(v) != b {
            let m = self.mate[v];
            self.merge.push(v);
            self.merge.push(m);
            if !bit(&self.outer, m) {
                set_bit(&mut self.outer, m);
                self.queue.push(m);
            }
            self.parent[v] = child;
            child = m;
            v = self.parent[m];
        }
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
        let mut f = Field::build(&r, &h);
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

    /// Any graph, given as a matrix, in the implicit form: everybody is compatible by
    /// colour and the non-neighbours are barred.
    fn from_matrix(adj: &[Vec<bool>]) -> Graph {
        let n = adj.len();
        let words = n.div_ceil(64);
        let mut everyone = vec![0u64; words];
        for i in 0..n {
            set_bit(&mut everyone, i);
        }
        Graph {
            n,
            words,
            white_ok: everyone.clone(),
            black_ok: everyone,
            takes_white: vec![true; n],
            takes_black: vec![true; n],
            barred: (0..n)
                .map(|a| (0..n).filter(|&b| a == b || !adj[a][b]).collect())
                .collect(),
        }
    }

    /// Whether a perfect matching of `alive` exists in `adjacency`, by brute force.
    fn brute_force_perfect(adjacency: &[Vec<bool>], alive: &mut Vec<bool>) -> bool {
        let Some(v) = alive.iter().position(|&a| a) else {
            return true;
        };
        alive[v] = false;
        for u in 0..alive.len() {
            if alive[u] && adjacency[v][u] {
                alive[u] = false;
                let ok = brute_force_perfect(adjacency, alive);
                alive[u] = true;
                if ok {
                    alive[v] = true;
                    return true;
                }
            }
        }
        alive[v] = true;
        false
    }

    #[test]
    fn matcher_agrees_with_brute_force() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for case in 0..400 {
            let n = 2 * rng.random_range(1..=6);
            let density = rng.random_range(0.15..0.7);
            let adj = random_graph(&mut rng, n, density);
            let mut alive = vec![true; n];
            let expected = brute_force_perfect(&adj, &mut alive);
            let graph = from_matrix(&adj);
            let mut m = Matcher::new(&graph, vec![(1u64 << n) - 1]);
            let order = |p: usize, i: usize| (p + 1 + i < n).then_some(p + 1 + i);
            assert_eq!(m.complete(&order), expected, "case {case}");
            if !expected {
                continue;
            }
            // Taking pairs out one by one: feasible exactly when brute force says so, and
            // the possible partners of p are those brute force accepts.
            let mut alive = vec![true; n];
            while let Some(p) = alive.iter().position(|&a| a) {
                let partners = m.possible_partners(p).expect("a perfect matching");
                for c in p + 1..n {
                    if alive[c] && adj[p][c] {
                        alive[p] = false;
                        alive[c] = false;
                        let feasible = brute_force_perfect(&adj, &mut alive);
                        alive[p] = true;
                        alive[c] = true;
                        assert_eq!(
                            bit(&partners, c),
                            feasible,
                            "case {case}: partner {c} of {p}"
                        );
                    }
                }
                let mut taken = false;
                for c in p + 1..n {
                    if !alive[c] || !adj[p][c] {
                        continue;
                    }
                    alive[p] = false;
                    alive[c] = false;
                    let feasible = brute_force_perfect(&adj, &mut alive);
                    assert_eq!(m.take_pair(p, c), feasible, "case {case}: {p}-{c}");
                    if feasible {
                        taken = true;
                        break;
                    }
                    alive[p] = true;
                    alive[c] = true;
                }
                assert!(taken, "case {case}: a perfect matching was promised");
            }
        }
    }

    /// The size of a maximum matching, by the textbook O(n³) blossom algorithm on a boolean
    /// matrix: the reference the bitset matcher is checked against.
    fn reference_matching_size(adj: &[Vec<bool>]) -> usize {
        let n = adj.len();
        let mut mate = vec![NONE; n];
        let find_path = |mate: &mut Vec<usize>, root: usize| -> bool {
            let mut used = vec![false; n];
            let mut parent = vec![NONE; n];
            let mut base: Vec<usize> = (0..n).collect();
            let mut queue = std::collections::VecDeque::from([root]);
            used[root] = true;
            let lca =
                |base: &[usize], parent: &[usize], mate: &[usize], mut a: usize, mut b: usize| {
                    let mut seen = vec![false; n];
                    loop {
                        a = base[a];
                        seen[a] = true;
                        if mate[a] == NONE {
                            break;
                        }
                        a = parent[mate[a]];
                    }
                    loop {
                        b = base[b];
                        if seen[b] {
                            return b;
                        }
                        b = parent[mate[b]];
                    }
                };
            let mark = |base: &[usize],
                        parent: &mut [usize],
                        blossom: &mut [bool],
                        mate: &[usize],
                        mut v: usize,
                        b: usize,
                        mut child: usize| {
                while base[v] != b {
                    blossom[base[v]] = true;
                    blossom[base[mate[v]]] = true;
                    parent[v] = child;
                    child = mate[v];
                    v = parent[mate[v]];
                }
            };
            while let Some(v) = queue.pop_front() {
                for to in 0..n {
                    if !adj[v][to] || base[v] == base[to] || mate[v] == to {
                        continue;
                    }
                    if to == root || (mate[to] != NONE && parent[mate[to]] != NONE) {
                        let current = lca(&base, &parent, mate, v, to);
                        let mut blossom = vec![false; n];
                        mark(&base, &mut parent, &mut blossom, mate, v, current, to);
                        mark(&base, &mut parent, &mut blossom, mate, to, current, v);
                        for i in 0..n {
                            if blossom[base[i]] {
                                base[i] = current;
                                if !used[i] {
                                    used[i] = true;
                                    queue.push_back(i);
                                }
                            }
                        }
                    } else if parent[to] == NONE {
                        parent[to] = v;
                        if mate[to] == NONE {
                            let mut u = to;
                            while u != NONE {
                                let pv = parent[u];
                                let next = mate[pv];
                                mate[u] = pv;
                                mate[pv] = u;
                                u = next;
                            }
                            return true;
                        }
                        used[mate[to]] = true;
                        queue.push_back(mate[to]);
                    }
                }
            }
            false
        };
        let mut size = 0;
        for v in 0..n {
            if mate[v] == NONE && find_path(&mut mate, v) {
                size += 1;
            }
        }
        size
    }

    fn random_graph(rng: &mut ChaCha8Rng, n: usize, density: f64) -> Vec<Vec<bool>> {
        let pairs: Vec<(usize, usize)> = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect();
        let mut adj = vec![vec![false; n]; n];
        for (a, b) in pairs {
            if rng.random_bool(density) {
                adj[a][b] = true;
                adj[b][a] = true;
            }
        }
        adj
    }

    /// Without `remove`'s vertices, as a smaller matrix.
    fn without(adj: &[Vec<bool>], remove: &[usize]) -> Vec<Vec<bool>> {
        let keep: Vec<usize> = (0..adj.len()).filter(|v| !remove.contains(v)).collect();
        keep.iter()
            .map(|&a| keep.iter().map(|&b| adj[a][b]).collect())
            .collect()
    }

    #[test]
    fn matcher_agrees_with_the_textbook_algorithm_on_larger_graphs() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for case in 0..120 {
            let n = 2 * rng.random_range(10..=70);
            // Dense graphs with a few sparse rows: the shape of a pairing list in which
            // some players may meet few others.
            let density = [0.05, 0.2, 0.6, 0.9, 0.97][case % 5];
            let mut adj = random_graph(&mut rng, n, density);
            for _ in 0..rng.random_range(0..n / 4) {
                let v = rng.random_range(0..n);
                let cut: Vec<usize> = (0..n).filter(|&u| u != v && rng.random_bool(0.8)).collect();
                for u in cut {
                    adj[v][u] = false;
                    adj[u][v] = false;
                }
            }
            let perfect = reference_matching_size(&adj) * 2 == n;
            let mut alive = vec![0u64; n.div_ceil(64)];
            for v in 0..n {
                alive[v / 64] |= 1 << (v % 64);
            }
            let graph = from_matrix(&adj);
            let mut m = Matcher::new(&graph, alive);
            let order = |p: usize, i: usize| (p + 1 + i < n).then_some(p + 1 + i);
            assert_eq!(m.complete(&order), perfect, "case {case}");
            if !perfect {
                continue;
            }
            for p in [0, n / 3, n - 1] {
                let partners = m.possible_partners(p).expect("a perfect matching");
                let mut neighbours: Vec<usize> = (0..n).filter(|&c| c != p && adj[p][c]).collect();
                neighbours.shuffle(&mut rng);
                for &c in neighbours.iter().take(6) {
                    let rest = without(&adj, &[p, c]);
                    let feasible = reference_matching_size(&rest) * 2 == n - 2;
                    assert_eq!(
                        bit(&partners, c),
                        feasible,
                        "case {case}: partner {c} of {p}"
                    );
                }
            }
        }
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
            let f = Field::build(&r, &h);
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
            let f = Field::build(&r, &h);
            let graph = f.graph();
            let mut row = vec![0u64; graph.words];
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
        let f = Field::build(&r, &h);
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
        assert!(matches!(pair(&r), Err(PairError::Invalid(_))));
    }
}
