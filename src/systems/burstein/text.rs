//! Profile `FIDE_2026`: the 2026 text of C.04.4.2.
//!
//! * **Seeding rounds** (art. 1.6.1-1.6.2): the first min(⌊rounds/2⌋, 4) rounds are the
//!   Dutch system's whole round (pairs, PAB, colours).
//! * **Later rounds**: scoregroups by score (points plus virtual points when accelerated);
//!   within a bracket (incoming floaters and residents together) the players are ranked by
//!   the Index alone (1.8, `index.rs`), which numbers them BSN 1, 2, ...
//! * **PAB first** (3.1): among the players allowed one (C2: no PAB or win's points
//!   without playing before) and whose removal leaves the others perfectly pairable under
//!   C1 and C3, the lowest score, then the most games played over the board, then the
//!   lowest in the Index.
//! * **Criteria** (art. 2): absolute C1 (no rematch), C3 (no two players with the same
//!   absolute colour preference; no topscorer exception); completion C4 (everyone left
//!   can be paired; nobody floats out of the last bracket); quality C5 (most pairs in the
//!   bracket), C6 (the outgoing floaters' scores, highest first, as low as possible), C7
//!   (the following bracket, floaters plus the next scoregroup: most pairs, then its C6),
//!   C8 (fewest pairs whose players prefer the same colour).
//! * **Candidate order** (art. 4): virtual players (BSN 0) absorb the outgoing floaters;
//!   among the pairings best under C4-C8, the first in "1 v n fold" order: BSN 1's
//!   opponent has the largest BSN possible (BSN 0, floating, last), then BSN 2's, ...
//!
//! The candidates are not enumerated. The criteria become fields of one edge weight, most
//! important in the most significant bits, so that a maximum-weight matching of everyone
//! left is a best pairing; then each player of the bracket, by BSN, takes the largest-BSN
//! opponent with which an optimal matching still exists (his edges get a priority field
//! below every criterion), or floats if there is none. This is the Dutch system's
//! "is there an optimal pairing with this choice" question on the same incremental engine
//! (`matching::weighted`).
use super::colours;
use super::index::{self, Index};
use crate::matching::Wide;
use crate::matching::weighted::DynamicMatching;
use crate::model::{Colour, PlayerIdx, Score};
use crate::systems::common::History;
use crate::systems::dutch::Dutch;
use crate::systems::dutch::players::{Entrant, Field};
use crate::systems::dutch::weights::{Packed, bits};
use crate::systems::{
    Board, ByeAssignment, Explanation, PairError, PairingSystem, RoundPairing, RoundToPair,
};

/// The number of seeding rounds (art. 1.6.2): min(⌊rounds/2⌋, 4).
pub fn seeding_rounds(total_rounds: u32) -> u32 {
    (total_rounds / 2).min(4)
}

/// Pairs a round under the 2026 text.
pub fn pair(r: &RoundToPair) -> Result<RoundPairing, PairError> {
    let seeding = seeding_rounds(r.tournament.total_rounds);
    if r.number <= seeding {
        let mut out = Dutch.pair(r)?;
        let mut ex = Explanation::default();
        ex.group(format!("round {}", r.number));
        ex.step(
            "C.04.4.2 1.6.1",
            format!(
                "seeding round ({} of {seeding}, art. 1.6.2: min(rounds / 2, 4)): paired by the Dutch system",
                r.number
            ),
            Vec::new(),
        );
        ex.groups.append(&mut out.explanation.groups);
        out.explanation = ex;
        return Ok(out);
    }
    Round::new(r).pair()
}

/// What the later rounds read of each player.
struct Round<'a> {
    r: &'a RoundToPair,
    history: History,
    field: Field,
    index: Vec<Index>,
    /// Entrant of each player (`usize::MAX` if not paired this round).
    entrant_of: Vec<usize>,
}

fn no_pairing(rule: &str, message: String, mut explanation: Explanation) -> PairError {
    explanation.step(rule, message.clone(), Vec::new());
    PairError::NoLegalPairing {
        rule: rule.to_string(),
        message,
        explanation,
    }
}

/// The outcome of the bracket procedure.
struct Outcome {
    pairs: Vec<(PlayerIdx, PlayerIdx)>,
    floaters: Vec<(PlayerIdx, Score)>,
}

impl<'a> Round<'a> {
    fn new(r: &'a RoundToPair) -> Round<'a> {
        let history = History::build(r);
        let field = Field::build(r, &history);
        let index = index::compute(r);
        let mut entrant_of = vec![usize::MAX; r.tournament.players.len()];
        for (i, e) in field.entrants.iter().enumerate() {
            entrant_of[e.player] = i;
        }
        Round {
            r,
            history,
            field,
            index,
            entrant_of,
        }
    }

    fn entrant(&self, p: PlayerIdx) -> &Entrant {
        &self.field.entrants[self.entrant_of[p]]
    }

    fn score(&self, p: PlayerIdx) -> Score {
        self.entrant(p).score
    }

    /// C1 (no rematch, forbidden pairs) and C3 (not both with the same absolute
    /// preference; the 2026 text has no topscorer exception).
    fn compatible(&self, a: PlayerIdx, b: PlayerIdx) -> bool {
        let (ea, eb) = (self.entrant(a), self.entrant(b));
        let same_absolute = ea.absolute() && eb.absolute() && ea.pref == eb.pref;
        !(a == b
            || self.history.have_played(a, b)
            || self.history.is_forbidden(a, b)
            || same_absolute)
    }

    /// C8: the pair does not leave a preference unmet.
    fn colours_agree(&self, a: PlayerIdx, b: PlayerIdx) -> bool {
        let (ea, eb) = (self.entrant(a), self.entrant(b));
        ea.pref.is_none() || eb.pref.is_none() || ea.pref != eb.pref
    }

    fn id(&self, p: PlayerIdx) -> String {
        self.r.id(p).to_string()
    }

    fn pair(self) -> Result<RoundPairing, PairError> {
        let r = self.r;
        let t = &r.tournament;
        let mut out = RoundPairing::default();
        let mut ex = Explanation::default();
        ex.group(format!("round {}", r.number));
        ex.detail(
            "C.04.4.2 1.6.1",
            format!(
                "after the seeding rounds ({}): brackets ranked by the Index",
                seeding_rounds(t.total_rounds)
            ),
            Vec::new(),
        );
        let mut players: Vec<PlayerIdx> = self.field.entrants.iter().map(|e| e.player).collect();
        // Pairing order: score, then the Index (1.8).
        players.sort_by(|&a, &b| {
            self.score(b)
                .cmp(&self.score(a))
                .then_with(|| self.index[a].rank_cmp(&self.index[b]))
        });

        // The PAB first (3.1).
        if players.len() % 2 == 1 {
            let bye = self.choose_pab(&players, &mut ex)?;
            players.retain(|&p| p != bye);
            out.byes.push(ByeAssignment::pab(bye, &t.scoring));
        }

        // The brackets, with the narrowest weight type that holds the criteria.
        let outcome = match self.brackets::<i128>(&players, 120, &mut ex)? {
            Some(o) => o,
            None => match self.brackets::<Wide<4>>(&players, 248, &mut ex)? {
                Some(o) => o,
                None => self
                    .brackets::<Wide<8>>(&players, 504, &mut ex)?
                    .ok_or_else(|| {
                        PairError::Internal("Burstein: the criteria exceed 512 bits".to_string())
                    })?,
            },
        };
        if !outcome.floaters.is_empty() {
            let names: Vec<String> = outcome.floaters.iter().map(|&(p, _)| self.id(p)).collect();
            return Err(no_pairing(
                "C.04.4.2 C4",
                format!("{} left unpaired", names.join(", ")),
                ex,
            ));
        }

        // Colours (5.2), then board order (C.04.2: the higher score of the pair, the lower
        // score, then the higher-ranked player).
        ex.group("colours");
        let mut boards: Vec<Board> = Vec::with_capacity(outcome.pairs.len());
        for &(a, b) in &outcome.pairs {
            let (ca, rule) = colours::allocate(
                self.entrant(a),
                self.entrant(b),
                (self.score(a), self.score(b)),
                (&self.index[a], &self.index[b]),
                r.initial_colour,
            );
            let board = if ca == Colour::White {
                Board { white: a, black: b }
            } else {
                Board { white: b, black: a }
            };
            ex.detail(
                rule.id(),
                format!(
                    "{} - {}: {}",
                    self.id(board.white),
                    self.id(board.black),
                    rule.describe()
                ),
                vec![board.white, board.black],
            );
            boards.push(board);
        }
        let points = |p: PlayerIdx| self.entrant(p).points;
        let rank = |p: PlayerIdx| self.entrant(p).tpn;
        boards.sort_by_key(|b| {
            let (hi, lo) = if (points(b.white), std::cmp::Reverse(rank(b.white)))
                >= (points(b.black), std::cmp::Reverse(rank(b.black)))
            {
                (b.white, b.black)
            } else {
                (b.black, b.white)
            };
            (
                std::cmp::Reverse(points(hi)),
                std::cmp::Reverse(points(lo)),
                rank(hi),
            )
        });
        out.boards = boards;
        out.explanation = ex;
        Ok(out)
    }

    /// 3.1: the PAB goes to a player allowed one (C2) whose removal leaves the others
    /// perfectly pairable under C1 and C3 (3.1.2); the lowest score (3.1.3), then the most
    /// games played over the board (3.1.4), then the lowest in the Index (3.1.5).
    fn choose_pab(
        &self,
        players: &[PlayerIdx],
        ex: &mut Explanation,
    ) -> Result<PlayerIdx, PairError> {
        let mut candidates: Vec<PlayerIdx> = players
            .iter()
            .copied()
            .filter(|&p| self.entrant(p).bye_eligible)
            .collect();
        candidates.sort_by(|&a, &b| {
            self.score(a)
                .cmp(&self.score(b))
                .then(self.entrant(b).played.cmp(&self.entrant(a).played))
                .then_with(|| self.index[b].rank_cmp(&self.index[a]))
        });
        for &c in &candidates {
            let rest: Vec<PlayerIdx> = players.iter().copied().filter(|&p| p != c).collect();
            if crate::matching::cardinality::has_perfect_matching(rest.len(), |i, j| {
                self.compatible(rest[i], rest[j])
            }) {
                ex.step(
                    "C.04.4.2 3.1",
                    format!(
                        "PAB to {} (score {}, {} games played, {}): the lowest score, then the most games played, then the lowest in the Index, among the players allowed one whose absence leaves the others pairable",
                        self.id(c),
                        self.score(c),
                        self.entrant(c).played,
                        self.index[c].describe()
                    ),
                    vec![c],
                );
                return Ok(c);
            }
        }
        Err(no_pairing(
            "C.04.4.2 C2",
            "no player may receive the pairing-allocated bye and leave the others pairable"
                .to_string(),
            ex.clone(),
        ))
    }

    /// The bracket procedure on weight type `W` whose completion field sits at bit `top`;
    /// `None` when a bracket's criteria do not fit below it.
    fn brackets<W: Packed>(
        &self,
        players: &[PlayerIdx],
        top: u32,
        ex: &mut Explanation,
    ) -> Result<Option<Outcome>, PairError> {
        let n = players.len();
        // Scoregroups, in pairing order.
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (v, &p) in players.iter().enumerate() {
            match groups.last_mut() {
                Some(g) if self.score(players[g[0]]) == self.score(p) => g.push(v),
                _ => groups.push(vec![v]),
            }
        }
        let compatible: Vec<u64> = {
            let words = n.div_ceil(64).max(1);
            let mut m = vec![0u64; n * words];
            for a in 0..n {
                for b in 0..n {
                    if a != b && self.compatible(players[a], players[b]) {
                        m[a * words + b / 64] |= 1 << (b % 64);
                    }
                }
            }
            m
        };
        let words = n.div_ceil(64).max(1);
        let compat = |a: usize, b: usize| compatible[a * words + b / 64] >> (b % 64) & 1 == 1;
        let mut state = State::<W> {
            n,
            w: vec![W::ZERO; n * n],
            m: DynamicMatching::new(n),
            removed: vec![false; n],
            in_bracket: vec![false; n],
            in_next: vec![false; n],
            floated: vec![false; n],
            bsn: vec![0; n],
            priority_of: None,
            layout: Layout::default(),
            top,
        };
        // Completion first: every edge is worth one unit of the top field.
        for a in 0..n {
            for b in a + 1..n {
                if compat(a, b) {
                    let w = W::shifted(1, top);
                    state.w[a * n + b] = w;
                    state.w[b * n + a] = w;
                }
            }
        }
        state.solve()?;
        if (0..n).any(|v| state.m.mate(v).is_none()) {
            ex.step(
                "C.04.4.2 1.9.3",
                "no pairing of everyone respects C1 and C3; the text allows no relaxation",
                Vec::new(),
            );
            return Err(no_pairing(
                "C.04.4.2 C4",
                "the players cannot all be paired without a rematch or two equal absolute colour preferences"
                    .to_string(),
                ex.clone(),
            ));
        }
        let mut pairs: Vec<(PlayerIdx, PlayerIdx)> = Vec::with_capacity(n / 2);
        let mut carry: Vec<usize> = Vec::new();
        let mut hot: Vec<usize> = Vec::new();
        for gi in 0..groups.len() {
            let mut bracket: Vec<usize> = std::mem::take(&mut carry);
            bracket.extend(groups[gi].iter().copied());
            // 1.8: floaters and residents ranked by the Index alone.
            bracket.sort_by(|&a, &b| self.index[players[a]].rank_cmp(&self.index[players[b]]));
            let next: &[usize] = groups.get(gi + 1).map_or(&[], |g| g.as_slice());
            // Levels of C6 (the bracket's scores) and of C7 (the following bracket's).
            let scores_of = |vs: &mut dyn Iterator<Item = usize>| -> Vec<(Score, u32)> {
                let mut levels: Vec<(Score, u32)> = Vec::new();
                for v in vs {
                    let s = self.score(players[v]);
                    match levels.iter_mut().find(|(x, _)| *x == s) {
                        Some(l) => l.1 += 1,
                        None => levels.push((s, 1)),
                    }
                }
                levels.sort_by_key(|l| std::cmp::Reverse(l.0));
                levels
            };
            let levels6 = scores_of(&mut bracket.iter().copied());
            let levels7 = scores_of(&mut bracket.iter().chain(next.iter()).copied());
            let Some(layout) = Layout::new(bracket.len(), next.len(), &levels6, &levels7, top)
            else {
                return Ok(None);
            };
            for &v in &hot {
                state.in_bracket[v] = false;
                state.in_next[v] = false;
                state.floated[v] = false;
            }
            for (i, &v) in bracket.iter().enumerate() {
                state.in_bracket[v] = true;
                state.bsn[v] = i as u32 + 1;
            }
            for &v in next {
                state.in_next[v] = true;
            }
            state.layout = layout;
            state.priority_of = None;
            let mut touched: Vec<usize> = hot.clone();
            touched.extend(bracket.iter().copied());
            touched.extend(next.iter().copied());
            touched.sort_unstable();
            touched.dedup();
            for &v in &touched {
                state.refresh(v, &|a, b| self.weight_inputs(players, a, b, &compat));
            }
            hot = touched;
            state.solve()?;
            let label = format!(
                "bracket {} ({} players)",
                self.score(players[groups[gi][0]]),
                bracket.len()
            );
            ex.group(label);
            ex.detail(
                "C.04.4.2 1.8",
                format!(
                    "ranked by the Index (Buchholz, Sonneborn-Berger, pairing number): {}",
                    bracket
                        .iter()
                        .map(|&v| format!("BSN {} {}", state.bsn[v], self.id(players[v])))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                bracket.iter().map(|&v| players[v]).collect(),
            );
            // 4: by BSN, the largest-BSN opponent that keeps an optimal pairing.
            for &v in &bracket {
                if state.removed[v] || state.floated[v] {
                    continue;
                }
                state.priority_of = Some(v);
                state.refresh(v, &|a, b| self.weight_inputs(players, a, b, &compat));
                state.solve()?;
                let mate = state.m.mate(v);
                state.priority_of = None;
                match mate {
                    Some(u) if state.in_bracket[u] && !state.floated[u] => {
                        pairs.push((players[v], players[u]));
                        ex.detail(
                            "C.04.4.2 4.3",
                            format!(
                                "BSN {} {} - BSN {} {}: the largest BSN that keeps a pairing best under C4-C8",
                                state.bsn[v],
                                self.id(players[v]),
                                state.bsn[u],
                                self.id(players[u])
                            ),
                            vec![players[v], players[u]],
                        );
                        state.remove(v);
                        state.remove(u);
                    }
                    Some(_) => {
                        state.floated[v] = true;
                        state.refresh(v, &|a, b| self.weight_inputs(players, a, b, &compat));
                        ex.step(
                            "C.04.4.2 C6",
                            format!(
                                "{} (score {}) floats to the next bracket",
                                self.id(players[v]),
                                self.score(players[v])
                            ),
                            vec![players[v]],
                        );
                        carry.push(v);
                    }
                    None => {
                        return Err(no_pairing(
                            "C.04.4.2 C4",
                            format!("{} cannot be paired", self.id(players[v])),
                            ex.clone(),
                        ));
                    }
                }
            }
        }
        let floaters = carry
            .iter()
            .map(|&v| (players[v], self.score(players[v])))
            .collect();
        Ok(Some(Outcome { pairs, floaters }))
    }

    /// What the weight of edge `a`-`b` depends on, besides the bracket's state.
    fn weight_inputs(
        &self,
        players: &[PlayerIdx],
        a: usize,
        b: usize,
        compat: &dyn Fn(usize, usize) -> bool,
    ) -> Option<EdgeFacts> {
        if !compat(a, b) {
            return None;
        }
        Some(EdgeFacts {
            score_a: self.score(players[a]),
            score_b: self.score(players[b]),
            agree: self.colours_agree(players[a], players[b]),
        })
    }
}

/// The player-dependent facts of an edge.
#[derive(Clone, Copy, Debug)]
struct EdgeFacts {
    score_a: Score,
    score_b: Score,
    agree: bool,
}

/// Bit offsets of the criteria for one bracket, below the completion field at `top`.
#[derive(Clone, Debug, Default)]
struct Layout {
    /// C5: pairs in the bracket.
    pairs: u32,
    /// C6: per score of the bracket (highest first), players of that score paired in it.
    c6: Vec<(Score, u32)>,
    /// C7: pairs within the bracket and the next scoregroup.
    next_pairs: u32,
    /// C7's C6: per score, players of the following bracket paired in it.
    c7: Vec<(Score, u32)>,
    /// C8: pairs in the bracket whose preferences agree.
    colours: u32,
    /// The order of art. 4: the opponent's BSN, on the edges of the player deciding.
    priority: u32,
}

impl Layout {
    /// The layout, or `None` if it does not fit below `top`.
    fn new(
        bracket: usize,
        next: usize,
        levels6: &[(Score, u32)],
        levels7: &[(Score, u32)],
        top: u32,
    ) -> Option<Layout> {
        let mut at = 0u32;
        let mut field = |width: u32| {
            let offset = at;
            at += width;
            offset
        };
        let priority = field(bits(bracket as u64 + 1));
        let colours = field(bits(bracket as u64 / 2 + 1));
        let mut c7 = Vec::with_capacity(levels7.len());
        for &(s, count) in levels7.iter().rev() {
            c7.push((s, field(bits(u64::from(count) + 1))));
        }
        c7.reverse();
        let next_pairs = field(bits((bracket + next) as u64 / 2 + 1));
        let mut c6 = Vec::with_capacity(levels6.len());
        for &(s, count) in levels6.iter().rev() {
            c6.push((s, field(bits(u64::from(count) + 1))));
        }
        c6.reverse();
        let pairs = field(bits(bracket as u64 / 2 + 1));
        (at <= top).then_some(Layout {
            pairs,
            c6,
            next_pairs,
            c7,
            colours,
            priority,
        })
    }

    fn level(list: &[(Score, u32)], s: Score) -> Option<u32> {
        list.iter().find(|&&(x, _)| x == s).map(|&(_, o)| o)
    }
}

/// The matching over everyone still to pair and the bracket being decided.
struct State<W> {
    n: usize,
    w: Vec<W>,
    m: DynamicMatching<W>,
    removed: Vec<bool>,
    in_bracket: Vec<bool>,
    in_next: Vec<bool>,
    /// Decided to float out of the bracket (paired with a virtual player, BSN 0).
    floated: Vec<bool>,
    bsn: Vec<u32>,
    priority_of: Option<usize>,
    layout: Layout,
    top: u32,
}

impl<W: Packed> State<W> {
    fn weight(&self, a: usize, b: usize, facts: Option<EdgeFacts>) -> W {
        let Some(f) = facts else {
            return W::ZERO;
        };
        let l = &self.layout;
        let unit = |shift: u32| W::shifted(1, shift);
        let mut w = unit(self.top);
        let (ba, bb) = (self.in_bracket[a], self.in_bracket[b]);
        if ba && bb {
            // A floater pairs with nobody of his own bracket any more.
            if self.floated[a] || self.floated[b] {
                return W::ZERO;
            }
            w = w.wadd(unit(l.pairs));
            for s in [f.score_a, f.score_b] {
                if let Some(o) = Layout::level(&l.c6, s) {
                    w = w.wadd(unit(o));
                }
            }
            if f.agree {
                w = w.wadd(unit(l.colours));
            }
            for (x, y) in [(a, b), (b, a)] {
                if self.priority_of == Some(x) {
                    w = w.wadd(W::shifted(i64::from(self.bsn[y]), l.priority));
                }
            }
        } else if (ba || self.in_next[a]) && (bb || self.in_next[b]) {
            // A pair of the following bracket (C7).
            w = w.wadd(unit(l.next_pairs));
            for s in [f.score_a, f.score_b] {
                if let Some(o) = Layout::level(&l.c7, s) {
                    w = w.wadd(unit(o));
                }
            }
        }
        w
    }

    /// Recomputes the edges at `v`.
    fn refresh(&mut self, v: usize, facts: &dyn Fn(usize, usize) -> Option<EdgeFacts>) {
        if self.removed[v] {
            return;
        }
        let mut changed = false;
        for u in 0..self.n {
            if u == v || self.removed[u] {
                continue;
            }
            let w = self.weight(v, u, facts(v, u));
            if self.w[v * self.n + u] != w {
                self.w[v * self.n + u] = w;
                self.w[u * self.n + v] = w;
                self.m.touch(u);
                changed = true;
            }
        }
        if changed {
            self.m.touch(v);
        }
    }

    fn remove(&mut self, v: usize) {
        self.removed[v] = true;
        self.m.remove(v);
    }

    fn solve(&mut self) -> Result<(), PairError> {
        let n = self.n;
        self.m
            .solve(&(n, &self.w[..]))
            .map_err(|e| PairError::Internal(format!("Burstein matching: {e}")))
    }
}
