//! Vega's Buchholz Swiss (systems.md §3, BH-1..BH-8; seed 001).
//!
//! Round 1 pairs number i against number n/2 + i (BH-2). Later rounds go score group by
//! score group from the top (BH-4): the players due White (BH-3) form column W sorted by
//! Buchholz ascending, those due Black column B sorted by Buchholz descending, and row i
//! pairs `W[i]` with `B[i]` (BH-5). Rows whose players met are repaired by swaps (BH-6.2);
//! players left over float to the next group (BH-6.4, BH-7.1, BH-7.2).
//!
//! The source is cut off; where it is silent this module follows the (completion) rules
//! of systems.md and, beyond them, the decisions stated at each function (each cites the
//! rule it completes). The only absolute rule is that nobody meets twice (CG-4, CG-10):
//! when the procedure cannot respect it the groups are merged upwards, then the bye moves,
//! then a pairing is searched directly; only if none exists is the answer CG-7.
//!
//! # Readings the rules leave open (no corpus: decided here)
//! - BH-1: a lot per player from the request's seed and his id, so a late entrant does
//!   not reshuffle the others (send the same seed every round); given pairing numbers win.
//! - BH-2: odd numbers get the CG-8 colour (White unless the snapshot says Black); with
//!   absentees, "number i" is the i-th player present by identification number; a
//!   forbidden pair (CG-10) is repaired as in BH-6.2, and the bye moves up a number if
//!   the others could not be paired otherwise.
//! - BH-3 and BH-4.3: a colour claim is the imbalance |whites − blacks|.
//! - BH-4.1/4.2: the identification number breaks ties after the name.
//! - BH-6.2: see [`rows::pair_rows`] for the order of the repairs and what happens to the
//!   two players left when a player takes an opponent of his own column.
//! - BH-7.1 moves nobody out of the lowest group (there is no group below) and does not
//!   apply to a player alone in his group (BH-7.2 brings him an opponent).
//! - BH-7.2: the next group's column of the colour the odd group lacks is searched first,
//!   then its other column; "its own last player" is the last of its longer column.
//! - BH-8: "lowest" is the lowest score, then the lowest Buchholz, then the name last in
//!   alphabetical order; a pairing-allocated bye is given once; the bye moves up when the
//!   other players could not all be paired without a repeat game.
//! - The lowest group has no group to float to: players it leaves unpaired make it merge
//!   with the group above and the two are paired again as one (repeated upwards); if even
//!   the whole field as one group leaves players over, the round is paired directly (the
//!   first repeat-free pairing in standing order), with a warning.
//! - Scores and Buchholz use pairing points (an adjourned game counts as a draw) and the
//!   `late_entry_score` start of a late entrant (default 0).
pub mod rows;

use std::borrow::Cow;
use std::cmp::{Ordering, Reverse};

use rand::{Rng, SeedableRng};

use super::common::History;
use super::explanation::{Explanation, push_number};
use super::{
    Board, ByeAssignment, OptionInfo, PairError, RoundPairing, RoundToPair, System, SystemInfo,
};
use crate::matching::{BitGraph, Matcher};
use crate::model::{Colour, PlayerIdx, Score, SystemId};
use rows::{Entry, pair_rows};

pub struct Buchholz;

impl System for Buchholz {
    /// The pairing score a late entrant starts with (`late_entry_score`, default 0).
    type Options = Score;

    fn options(&self, given: &crate::model::SystemOptions) -> Self::Options {
        super::options::late_entry_score(given).unwrap_or(Score::ZERO)
    }

    /// This project's code (TRF-26 has none for Vega's Buchholz Swiss).
    fn trf_code(&self, _options: &Score, _t: &crate::model::Tournament) -> String {
        "CUSTOM_SWISS:VEGA_BUCHHOLZ".to_string()
    }

    fn reads_trf_code(&self, code: &str) -> bool {
        super::without_baku(code) == "CUSTOM_SWISS:VEGA_BUCHHOLZ"
    }

    /// Colours are preferences (BH-3): none is absolute; BH-6.2 refuses a rematch.
    fn absolute_rules(&self, _options: &Self::Options) -> super::AbsoluteRules {
        super::AbsoluteRules {
            colours: super::ColourLimits::None,
            colour_rule: "BH-3",
            rematch_rule: "BH-6.2",
            second_bye_rule: Some("BH-8"),
            ..super::AbsoluteRules::FIDE
        }
    }
    /// SEP-5.3: a row of groupmates is repaired like a rematch, by BH-6.2's first step
    /// (`rows::pair_rows`), inside the group: nobody floats to avoid a groupmate. Placed
    /// first or last it would mean nothing more to this procedure: only `WEAK` is offered.
    fn weak_separation_places(&self) -> &'static [crate::model::WeakPlace] {
        &[crate::model::WeakPlace::Default]
    }

    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: SystemId::Buchholz,
            title: "Buchholz Swiss (Vega)",
            rule_set: "Vega manual, Buchholz-based Swiss; systems.md BH-1..BH-8",
            options: vec![OptionInfo::LATE_ENTRY_SCORE_ZERO],
        }
    }

    fn pair(&self, r: &RoundToPair, options: &Self::Options) -> Result<RoundPairing, PairError> {
        r.require_results()?;
        let ctx = Ctx::new(r, *options);
        let mut out = RoundPairing::default();
        out.explanation.group(format!("round {}", r.number));
        if r.pairing_numbers_given {
            out.explanation.detail(
                "BH-1",
                "identification numbers: the pairing numbers given",
                Vec::new(),
            );
        } else {
            out.explanation.step(
                "BH-1",
                format!(
                    "identification numbers drawn by lot (seed {}): {}",
                    r.seed,
                    ctx.by_id()
                        .iter()
                        .map(|&p| ctx.name(p))
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
                Vec::new(),
            );
        }
        let result = if r.number == 1 {
            ctx.round_one(&mut out.explanation)
        } else {
            ctx.later_round(&mut out.explanation, &mut out.warnings)
        };
        let (pairs, bye) = match result {
            Ok(x) => x,
            Err((rule, message)) => {
                return Err(PairError::NoLegalPairing {
                    rule: rule.to_string(),
                    message,
                    explanation: out.explanation,
                });
            }
        };
        out.explanation.group("colours");
        for (i, pair) in pairs.iter().enumerate() {
            // "board N: white - black: reason", pushed (issue 37: one per board).
            let (white, black) = (ctx.name(pair.white), ctx.name(pair.black));
            let mut message =
                String::with_capacity(16 + white.len() + black.len() + pair.reason.len());
            message.push_str("board ");
            push_number(&mut message, i as u64 + 1);
            message.push_str(": ");
            message.push_str(white);
            message.push_str(" - ");
            message.push_str(black);
            message.push_str(": ");
            message.push_str(&pair.reason);
            out.explanation
                .step(pair.rule, message, vec![pair.white, pair.black]);
            out.boards.push(Board {
                white: pair.white,
                black: pair.black,
            });
        }
        if let Some(p) = bye {
            out.byes.push(ByeAssignment::pab(p, &r.tournament.scoring));
        }
        Ok(out)
    }
}

/// A board with its colours decided, and the rule that decided them.
struct Paired {
    white: PlayerIdx,
    black: PlayerIdx,
    rule: &'static str,
    /// Most reasons are fixed texts: borrowed, not copied, for each board.
    reason: Cow<'static, str>,
}

type Outcome = (Vec<Paired>, Option<PlayerIdx>);

/// Why a round has no pairing (CG-7): the rule that could not be met, and the message.
type Failure = (&'static str, String);

/// Everything the rules read about the players of the round.
struct Ctx<'a> {
    r: &'a RoundToPair,
    history: History,
    /// BH-1 identification number, per player index.
    id_no: Vec<u32>,
    score: Vec<Score>,
    /// Sum of the current scores of the opponents met (BH-4.2).
    buchholz: Vec<Score>,
    /// Vertex of each participant in `graph` (`usize::MAX` for the others).
    vertex: Vec<usize>,
    /// Who may meet whom among the participants.
    graph: Matcher<BitGraph>,
    /// The weak separations of the round (SEP-5.3, `rows::pair_rows`).
    weak: crate::model::WeakSeparations,
    /// How the explanation names each player, "id (identification number)": written once
    /// per player, not at each of the hundreds of mentions in a round's explanation; all
    /// in one text, player `p`'s from `name_ends[p - 1]` (0 for the first) to `name_ends[p]`
    /// (one allocation, not one per player).
    names: String,
    name_ends: Vec<usize>,
}

impl<'a> Ctx<'a> {
    fn new(r: &'a RoundToPair, late_start: Score) -> Ctx<'a> {
        let t = &r.tournament;
        let history = History::build(r);
        let n = t.players.len();
        let id_no = identification_numbers(r);
        let score: Vec<Score> = (0..n)
            .map(|p| {
                history.pairing_points_with_entry(
                    p,
                    t.players[p].late_entry_round,
                    late_start,
                    &t.scoring,
                )
            })
            .collect();
        let buchholz = (0..n)
            .map(|p| history.player(p).opponents.iter().map(|&o| score[o]).sum())
            .collect();
        let mut vertex = vec![usize::MAX; n];
        for (i, &p) in r.participants.iter().enumerate() {
            vertex[p] = i;
        }
        let graph = Matcher::new(history.may_meet(&r.participants));
        let mut names = String::with_capacity((0..n).map(|p| r.id(p).len() + 8).sum());
        let name_ends = (0..n)
            .map(|p| {
                names.push_str(r.id(p));
                names.push_str(" (");
                push_number(&mut names, u64::from(id_no[p]));
                names.push(')');
                names.len()
            })
            .collect();
        Ctx {
            names,
            name_ends,
            weak: t.weak_separations(r.number),
            r,
            history,
            id_no,
            score,
            buchholz,
            vertex,
            graph,
        }
    }

    fn name(&self, p: PlayerIdx) -> &str {
        let start = p.checked_sub(1).map_or(0, |q| self.name_ends[q]);
        &self.names[start..self.name_ends[p]]
    }

    fn may_meet(&self, a: PlayerIdx, b: PlayerIdx) -> bool {
        self.graph.graph().edge(self.vertex[a], self.vertex[b])
    }

    /// Participants by identification number.
    fn by_id(&self) -> Vec<PlayerIdx> {
        let mut v = self.r.participants.clone();
        v.sort_by_key(|&p| self.id_no[p]);
        v
    }

    /// BH-3 (completion): the colour played less often; equal, the opposite of the last
    /// one; no game, the colour BH-2 gives his number's parity (odd: the first-round
    /// colour of CG-8, White unless the tournament says otherwise).
    fn due(&self, p: PlayerIdx) -> Colour {
        let h = self.history.player(p);
        match h.whites().cmp(&h.blacks()) {
            Ordering::Less => Colour::White,
            Ordering::Greater => Colour::Black,
            Ordering::Equal => match h.last_colour() {
                Some(c) => c.opposite(),
                None => self.parity_colour(p),
            },
        }
    }

    fn parity_colour(&self, p: PlayerIdx) -> Colour {
        if self.id_no[p] % 2 == 1 {
            self.r.initial_colour
        } else {
            self.r.initial_colour.opposite()
        }
    }

    /// How strongly a player claims his due colour: his colour imbalance (BH-4.3: 0 is the
    /// weakest claim).
    fn claim(&self, p: PlayerIdx) -> u32 {
        self.history.player(p).colour_difference().unsigned_abs()
    }

    /// BH-4.1 / BH-4.2: the order of a column: points descending, Buchholz ascending (W)
    /// or descending (B), name; the identification number last so that the order is total.
    fn column_order(&self, column: Colour, a: PlayerIdx, b: PlayerIdx) -> Ordering {
        let by_buchholz = self.buchholz[a].cmp(&self.buchholz[b]);
        self.score[b]
            .cmp(&self.score[a])
            .then(if column == Colour::White {
                by_buchholz
            } else {
                by_buchholz.reverse()
            })
            .then_with(|| {
                self.r.tournament.players[a]
                    .name
                    .cmp(&self.r.tournament.players[b].name)
            })
            .then(self.id_no[a].cmp(&self.id_no[b]))
    }

    fn sorted_column(&self, mut players: Vec<PlayerIdx>, column: Colour) -> Vec<PlayerIdx> {
        players.sort_by(|&a, &b| self.column_order(column, a, b));
        players
    }

    /// `lead` then each player as "name [score pts, Bh buchholz]", comma-separated. Pushed
    /// piece by piece: a round's columns list every player, and `write!` costs several
    /// times the pushes (issue 37).
    fn describe(&self, lead: &str, players: &[PlayerIdx]) -> String {
        let mut out = String::with_capacity(lead.len() + players.len() * 40);
        out.push_str(lead);
        for (i, &p) in players.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(self.name(p));
            out.push_str(" [");
            self.score[p].push_to(&mut out);
            out.push_str(" pts, Bh ");
            self.buchholz[p].push_to(&mut out);
            out.push(']');
        }
        out
    }

    // ---- round 1 ----

    /// BH-2: number i plays number n/2 + i; among the first n/2, odd numbers White (the
    /// CG-8 colour), even ones Black; odd n: the last number has the bye. With absentees the
    /// numbers are those of the players present, in order; a forbidden pair (CG-10) is
    /// repaired as in BH-6.2, the first half standing for column W.
    fn round_one(&self, ex: &mut Explanation) -> Result<Outcome, Failure> {
        let mut order = self.by_id();
        let mut bye = None;
        if order.len() % 2 == 1 {
            // The last number, unless forbidden pairs (CG-10) leave the others unpairable:
            // then the next number up, as BH-8 moves the bye in later rounds.
            let all: Vec<usize> = (0..order.len()).collect();
            let pick = (0..order.len()).rev().find(|&i| {
                let mut g = self.graph.clone();
                g.remove(self.vertex[order[i]]);
                g.maximize(&all) == 0
            });
            let Some(i) = pick else {
                return Err((
                    "BH-2",
                    format!(
                        "round 1: whoever has the bye, no pairing of the other {} players avoids the forbidden pairs (CG-10)",
                        order.len() - 1
                    ),
                ));
            };
            let p = order.remove(i);
            let why = if i == order.len() {
                "the last number".to_string()
            } else {
                "the last number whose bye leaves the others pairable (CG-10)".to_string()
            };
            ex.step(
                "BH-2",
                format!(
                    "odd number of players: {why}, {}, has the bye",
                    self.name(p)
                ),
                vec![p],
            );
            bye = Some(p);
        }
        let half = order.len() / 2;
        ex.step(
            "BH-2",
            format!(
                "{} players: number i plays number {} + i; odd numbers of the first half get {}",
                order.len(),
                half,
                self.r.initial_colour
            ),
            Vec::new(),
        );
        let left = order[..half]
            .iter()
            .map(|&player| Entry {
                player,
                column: Colour::White,
            })
            .collect();
        let right = order[half..]
            .iter()
            .map(|&player| Entry {
                player,
                column: Colour::Black,
            })
            .collect();
        let ok = |a: PlayerIdx, b: PlayerIdx| self.may_meet(a, b);
        let mate = |a: PlayerIdx, b: PlayerIdx| self.weak.any_within(a, b);
        let name = |p: PlayerIdx| self.name(p);
        let rows = pair_rows(left, right, &ok, &mate, &name, ex);
        if !rows.unpaired.is_empty() {
            // Forbidden pairs left players without an opponent: pair the round directly.
            let n = order.len();
            return self.direct(order, bye, ex, &mut Vec::new()).ok_or((
                "BH-2",
                format!(
                    "round 1: no pairing of the {n} players avoids the forbidden pairs (CG-10)"
                ),
            ));
        }
        let pairs = rows
            .pairs
            .iter()
            .map(|(a, b)| {
                // The higher placed (lower number) has the colour of his number's parity.
                let (hi, lo) = if self.id_no[a.player] < self.id_no[b.player] {
                    (a.player, b.player)
                } else {
                    (b.player, a.player)
                };
                let c = self.parity_colour(hi);
                let (white, black) = if c == Colour::White {
                    (hi, lo)
                } else {
                    (lo, hi)
                };
                Paired {
                    white,
                    black,
                    rule: "BH-2",
                    reason: Cow::Owned(format!(
                        "number {} is {}: {c}",
                        self.id_no[hi],
                        if self.id_no[hi] % 2 == 1 {
                            "odd"
                        } else {
                            "even"
                        }
                    )),
                }
            })
            .collect();
        Ok((pairs, bye))
    }

    // ---- later rounds ----

    /// BH-8 (completion where the source is cut): the players who may get the bye, best
    /// first: from the lowest score up; inside a score the lowest placed (Buchholz
    /// ascending, name descending) first; never a player who already had it.
    fn bye_candidates(&self) -> Vec<PlayerIdx> {
        let mut v: Vec<PlayerIdx> = self
            .r
            .participants
            .iter()
            .copied()
            .filter(|&p| !self.history.player(p).had_pab)
            .collect();
        v.sort_by(|&a, &b| {
            self.score[a]
                .cmp(&self.score[b])
                .then(self.buchholz[a].cmp(&self.buchholz[b]))
                .then_with(|| {
                    self.r.tournament.players[b]
                        .name
                        .cmp(&self.r.tournament.players[a].name)
                })
                .then(self.id_no[b].cmp(&self.id_no[a]))
        });
        v
    }

    /// BH-8, then BH-4..BH-7. The bye goes to the first candidate (BH-8 order) after
    /// whose removal the others can be paired without a repeat game (checked directly, as
    /// VZ-3.4 moves the bye up: the source is cut off here). If the column procedure then
    /// leaves players unpaired even with all groups merged, the round is paired directly.
    fn later_round(
        &self,
        ex: &mut Explanation,
        warnings: &mut Vec<crate::systems::Warning>,
    ) -> Result<Outcome, Failure> {
        let all: Vec<usize> = (0..self.r.participants.len()).collect();
        let mut bye = None;
        if self.r.participants.len() % 2 == 1 {
            let candidates = self.bye_candidates();
            if candidates.is_empty() {
                return Err((
                    "BH-8",
                    format!(
                        "round {}: every one of the {} players already had the bye",
                        self.r.number,
                        self.r.participants.len()
                    ),
                ));
            }
            ex.group("bye");
            for (i, &b) in candidates.iter().enumerate() {
                let mut g = self.graph.clone();
                g.remove(self.vertex[b]);
                if g.maximize(&all) == 0 {
                    ex.step(
                        "BH-8",
                        format!(
                            "odd number of players: the bye goes to {} ({} pts), the lowest player of the lowest group who has not had one{}",
                            self.name(b),
                            self.score[b],
                            if i > 0 { " and leaves the others pairable" } else { "" }
                        ),
                        vec![b],
                    );
                    bye = Some(b);
                    break;
                }
                ex.step(
                    "BH-8",
                    format!(
                        "with the bye on {} the others cannot all be paired without a repeat game: the next player up",
                        self.name(b)
                    ),
                    vec![b],
                );
            }
            if bye.is_none() {
                return Err((
                    "BH-6.2",
                    format!(
                        "round {}: whoever has the bye, no pairing of the other {} players avoids a repeat game",
                        self.r.number,
                        self.r.participants.len() - 1
                    ),
                ));
            }
        } else if self.graph.clone().maximize(&all) != 0 {
            return Err((
                "BH-6.2",
                format!(
                    "round {}: no pairing of the {} players avoids a repeat game",
                    self.r.number,
                    self.r.participants.len()
                ),
            ));
        }
        let players: Vec<PlayerIdx> = self
            .r
            .participants
            .iter()
            .copied()
            .filter(|&p| Some(p) != bye)
            .collect();
        if let Some(pairs) = self.by_groups(&players, ex) {
            return Ok((pairs, bye));
        }
        let mut order = players;
        order.sort_by(|&a, &b| self.column_order(Colour::Black, a, b));
        self.direct(order, bye, ex, warnings).ok_or((
            "BH-6.2",
            format!(
                "round {}: no pairing of the {} players avoids a repeat game",
                self.r.number,
                self.r.participants.len()
            ),
        ))
    }

    /// The score groups of `players`, highest first, each in identification order.
    fn score_groups(&self, players: &[PlayerIdx]) -> Vec<Vec<PlayerIdx>> {
        let mut v = players.to_vec();
        v.sort_by_key(|&p| (Reverse(self.score[p]), self.id_no[p]));
        let mut groups: Vec<Vec<PlayerIdx>> = Vec::new();
        for p in v {
            match groups.last_mut() {
                Some(g) if self.score[g[0]] == self.score[p] => g.push(p),
                _ => groups.push(vec![p]),
            }
        }
        groups
    }

    /// BH-4..BH-7 over the score groups; if players are left unpaired at the bottom, the
    /// lowest two groups are merged and the round paired again, up to one group for the
    /// whole field (BH-6.4 completion: the lowest group has no group below to float to).
    fn by_groups(&self, players: &[PlayerIdx], ex: &mut Explanation) -> Option<Vec<Paired>> {
        let mut groups = self.score_groups(players);
        loop {
            crate::cancel::checkpoint();
            let mut attempt = Explanation::default();
            match self.pair_groups(groups.clone(), &mut attempt) {
                Ok(pairs) => {
                    ex.groups.extend(attempt.groups);
                    return Some(pairs);
                }
                Err(left) => {
                    if groups.len() <= 1 {
                        ex.step(
                            "BH-6.4",
                            format!(
                                "paired as one group, {} are still left unpaired",
                                left.iter()
                                    .map(|&p| self.name(p))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                            left,
                        );
                        return None;
                    }
                    let last = groups.pop().unwrap_or_default();
                    if let Some(above) = groups.last_mut() {
                        above.extend(last);
                    }
                    ex.step(
                        "BH-6.4",
                        format!(
                            "(completion) {} left unpaired in the lowest group with no group below: the two lowest groups are paired again as one",
                            left.iter().map(|&p| self.name(p)).collect::<Vec<_>>().join(", ")
                        ),
                        left,
                    );
                }
            }
        }
    }

    /// One pass over the groups, top down. `Err` holds the players left at the bottom.
    fn pair_groups(
        &self,
        mut groups: Vec<Vec<PlayerIdx>>,
        ex: &mut Explanation,
    ) -> Result<Vec<Paired>, Vec<PlayerIdx>> {
        let mut out = Vec::new();
        let mut carry: Vec<PlayerIdx> = Vec::new();
        for gi in 0..groups.len() {
            let own = std::mem::take(&mut groups[gi]);
            let has_next = gi + 1 < groups.len();
            if own.is_empty() && carry.is_empty() {
                // Every player of the group went up to the group above (BH-7.2).
                continue;
            }
            let label_score = own
                .first()
                .or(carry.first())
                .map_or(Score::ZERO, |&p| self.score[p]);
            ex.group(format!("score group {label_score}"));
            if !carry.is_empty() {
                ex.step(
                    "BH-4",
                    self.describe("floaters from the group above join: ", &carry),
                    carry.clone(),
                );
            }
            let mut g: Vec<PlayerIdx> = carry.drain(..).chain(own).collect();
            let mut down: Vec<PlayerIdx> = Vec::new();
            // BH-7.1: a player who has met everyone of his group moves down. A player
            // alone in his group has met nobody of it: BH-7.2 brings him an opponent.
            if has_next {
                while let Some(i) = (0..g.len())
                    .filter(|_| g.len() >= 2)
                    .find(|&i| !g.iter().any(|&o| o != g[i] && self.may_meet(g[i], o)))
                {
                    let p = g.remove(i);
                    ex.step(
                        "BH-7.1",
                        format!(
                            "{} has met everyone of the group: moves to the next group",
                            self.name(p)
                        ),
                        vec![p],
                    );
                    down.push(p);
                }
            }
            let (mut w, mut b): (Vec<PlayerIdx>, Vec<PlayerIdx>) =
                g.iter().partition(|&&p| self.due(p) == Colour::White);
            // BH-7.2 (completion): an odd group takes the first player of the next group,
            // in that group's column of the colour it lacks and then the other column,
            // who has not met at least one of its players; failing that, its own last
            // player floats down.
            if g.len() % 2 == 1 && has_next {
                let lacking = if w.len() < b.len() {
                    Colour::White
                } else {
                    Colour::Black
                };
                let next = &groups[gi + 1];
                let (nw, nb): (Vec<PlayerIdx>, Vec<PlayerIdx>) =
                    next.iter().partition(|&&p| self.due(p) == Colour::White);
                let (first, second) = if lacking == Colour::White {
                    (
                        self.sorted_column(nw, Colour::White),
                        self.sorted_column(nb, Colour::Black),
                    )
                } else {
                    (
                        self.sorted_column(nb, Colour::Black),
                        self.sorted_column(nw, Colour::White),
                    )
                };
                let pick = first
                    .into_iter()
                    .chain(second)
                    .find(|&p| g.iter().any(|&o| self.may_meet(p, o)));
                if let Some(p) = pick {
                    groups[gi + 1].retain(|&x| x != p);
                    ex.step(
                        "BH-7.2",
                        format!("odd group: {} comes up from the next group", self.name(p)),
                        vec![p],
                    );
                    g.push(p);
                    if self.due(p) == Colour::White {
                        w.push(p);
                    } else {
                        b.push(p);
                    }
                } else {
                    let column = if w.len() > b.len() {
                        Colour::White
                    } else {
                        Colour::Black
                    };
                    let longer = if column == Colour::White {
                        &mut w
                    } else {
                        &mut b
                    };
                    longer.sort_by(|&x, &y| self.column_order(column, x, y));
                    if let Some(p) = longer.pop() {
                        g.retain(|&x| x != p);
                        ex.step(
                            "BH-7.2",
                            format!(
                                "odd group and nobody of the next group can come up: {}, its last player, floats down",
                                self.name(p)
                            ),
                            vec![p],
                        );
                        down.push(p);
                    }
                }
            }
            let mut w = self.sorted_column(w, Colour::White);
            let mut b = self.sorted_column(b, Colour::Black);
            let mut moved: Vec<PlayerIdx> = Vec::new();
            self.balance(&mut w, &mut b, &mut moved, ex);
            ex.step("BH-4.1", self.describe("column W: ", &w), w.clone());
            ex.step("BH-4.2", self.describe("column B: ", &b), b.clone());
            let entries = |v: &[PlayerIdx], column: Colour| {
                v.iter()
                    .map(|&player| Entry { player, column })
                    .collect::<Vec<_>>()
            };
            let ok = |a: PlayerIdx, c: PlayerIdx| self.may_meet(a, c);
            let mate = |a: PlayerIdx, c: PlayerIdx| self.weak.any_within(a, c);
            let name = |p: PlayerIdx| self.name(p);
            let rows = pair_rows(
                entries(&w, Colour::White),
                entries(&b, Colour::Black),
                &ok,
                &mate,
                &name,
                ex,
            );
            for (l, r) in &rows.pairs {
                out.push(self.colours(*l, *r, &moved));
            }
            if !rows.unpaired.is_empty() {
                ex.step(
                    "BH-6.4",
                    format!(
                        "left unpaired: {}",
                        rows.unpaired
                            .iter()
                            .map(|&p| self.name(p))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    rows.unpaired.clone(),
                );
            }
            carry = down;
            carry.extend(rows.unpaired);
        }
        if carry.is_empty() {
            Ok(out)
        } else {
            Err(carry)
        }
    }

    /// BH-4.3 (completion): columns of different lengths are evened out, moving from the
    /// longer to the shorter the weakest colour claim first (imbalance 0 before 1 …), and
    /// among equal claims the lowest in the column's order.
    fn balance(
        &self,
        w: &mut Vec<PlayerIdx>,
        b: &mut Vec<PlayerIdx>,
        moved: &mut Vec<PlayerIdx>,
        ex: &mut Explanation,
    ) {
        while w.len().abs_diff(b.len()) > 1 {
            let (from, to, from_col, to_col) = if w.len() > b.len() {
                (&mut *w, &mut *b, Colour::White, Colour::Black)
            } else {
                (&mut *b, &mut *w, Colour::Black, Colour::White)
            };
            // The last index among the weakest claims.
            let Some(i) = (0..from.len()).rev().min_by_key(|&i| self.claim(from[i])) else {
                return;
            };
            let p = from.remove(i);
            ex.step(
                "BH-4.3",
                format!(
                    "columns of {} and {}: {} (colour imbalance {}) moves from column {} to column {}",
                    from.len() + 1,
                    to.len(),
                    self.name(p),
                    self.claim(p),
                    if from_col == Colour::White { "W" } else { "B" },
                    if to_col == Colour::White { "W" } else { "B" },
                ),
                vec![p],
            );
            to.push(p);
            to.sort_by(|&x, &y| self.column_order(to_col, x, y));
            moved.push(p);
        }
    }

    /// Colours of a row: column W plays White (BH-3, or BH-4.3 for a player moved there).
    /// Two players of the same column (BH-6.2) keep their due colours when these differ
    /// (one was moved by BH-4.3); due the same colour, the larger imbalance gets it, and
    /// with equal ones the higher placed alternates.
    fn colours(&self, l: Entry, r: Entry, moved: &[PlayerIdx]) -> Paired {
        if l.column != r.column {
            let (white, black) = if l.column == Colour::White {
                (l.player, r.player)
            } else {
                (r.player, l.player)
            };
            let was_moved = moved.contains(&white) || moved.contains(&black);
            return Paired {
                white,
                black,
                rule: if was_moved { "BH-4.3" } else { "BH-3" },
                reason: Cow::Borrowed(if was_moved {
                    "column W plays White; a player moved between columns to even them"
                } else {
                    "due colours: column W plays White, column B Black"
                }),
            };
        }
        let (a, b) = (l.player, r.player);
        let (da, db) = (self.due(a), self.due(b));
        if da != db {
            // One of the two was moved between columns (BH-4.3): each has his due colour.
            let (white, black) = if da == Colour::White { (a, b) } else { (b, a) };
            return Paired {
                white,
                black,
                rule: "BH-3",
                reason: Cow::Borrowed("paired inside a column (BH-6.2), due colours differ"),
            };
        }
        let column = da;
        let (ca, cb) = (self.claim(a), self.claim(b));
        let (gets, reason) = if ca != cb {
            let winner = if ca > cb { a } else { b };
            (
                winner,
                format!(
                    "both due {column}: {} has the larger imbalance",
                    self.name(winner)
                ),
            )
        } else {
            let (hi, lo) = if self.column_order(column, a, b) == Ordering::Greater {
                (b, a)
            } else {
                (a, b)
            };
            let c = match self.history.player(hi).last_colour() {
                Some(last) => last.opposite(),
                None => self.parity_colour(hi),
            };
            let gets = if c == column { hi } else { lo };
            (
                gets,
                format!(
                    "both due {column}, equal imbalance: {} (higher placed) alternates",
                    self.name(hi)
                ),
            )
        };
        let other = if gets == a { b } else { a };
        let (white, black) = if column == Colour::White {
            (gets, other)
        } else {
            (other, gets)
        };
        Paired {
            white,
            black,
            rule: "BH-6.2",
            reason: Cow::Owned(reason),
        }
    }

    /// (completion) The first pairing, in `order`, in which nobody meets twice: each player
    /// in turn takes the first player after him whose pairing leaves the others pairable.
    /// Used only when the column procedure leaves players unpaired whatever the groups and
    /// the bye.
    fn direct(
        &self,
        order: Vec<PlayerIdx>,
        bye: Option<PlayerIdx>,
        ex: &mut Explanation,
        warnings: &mut Vec<crate::systems::Warning>,
    ) -> Option<Outcome> {
        let mut graph = Matcher::new(self.history.may_meet(&order));
        let idx: Vec<usize> = (0..order.len()).collect();
        if graph.maximize(&idx) != 0 {
            return None;
        }
        ex.group("direct pairing");
        ex.step(
            "BH-6.4",
            "(completion) the column procedure leaves players unpaired: the first pairing in standing order in which nobody meets twice",
            Vec::new(),
        );
        warnings.push(crate::systems::Warning::new(
            "COMPLETION_USED",
            "BH-6.4",
            format!(
                "round {}: the Buchholz procedure left players unpaired; paired directly so that nobody meets twice",
                self.r.number
            ),
        ));
        let mut left = vec![true; order.len()];
        let mut pairs = Vec::new();
        for i in 0..order.len() {
            if !left[i] {
                continue;
            }
            let j = (i + 1..order.len())
                .filter(|&j| left[j])
                .find(|&j| graph.take_pair(i, j))?;
            left[i] = false;
            left[j] = false;
            let (a, b) = (order[i], order[j]);
            let (da, db) = (self.due(a), self.due(b));
            let pair = if da != db {
                let (white, black) = if da == Colour::White { (a, b) } else { (b, a) };
                Paired {
                    white,
                    black,
                    rule: "BH-3",
                    reason: Cow::Borrowed("due colours"),
                }
            } else {
                self.colours(
                    Entry {
                        player: a,
                        column: da,
                    },
                    Entry {
                        player: b,
                        column: db,
                    },
                    &[],
                )
            };
            pairs.push(pair);
        }
        Some((pairs, bye))
    }
}

/// BH-1: the pairing numbers when the snapshot gives them; otherwise a lot drawn from the
/// request's seed. Each player's lot depends only on the seed and his id, so a late
/// entrant does not reshuffle the others.
fn identification_numbers(r: &RoundToPair) -> Vec<u32> {
    let t = &r.tournament;
    if r.pairing_numbers_given {
        return (0..t.players.len()).map(|p| t.pairing_number(p)).collect();
    }
    let lot = |id: &str| {
        // FNV-1a of the id, mixed with the seed: a stable per-player stream.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in id.bytes() {
            h ^= u64::from(byte);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        rand_chacha::ChaCha8Rng::seed_from_u64(r.seed ^ h).random::<u64>()
    };
    let mut order: Vec<(u64, &str, PlayerIdx)> = t
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (lot(&p.id), p.id.as_str(), i))
        .collect();
    order.sort();
    let mut out = vec![0; t.players.len()];
    for (k, &(_, _, p)) in order.iter().enumerate() {
        out[p] = k as u32 + 1;
    }
    out
}
