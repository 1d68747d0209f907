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
use crate::model::{Colour, PlayerIdx, Score, WeakPlace};
use crate::systems::common::History;
use crate::systems::common::fide_players::{Entrant, FideText, Field};
use crate::systems::common::packed::{Packed, bits};
use crate::systems::{Board, ByeAssignment, Explanation, PairError, RoundPairing, RoundToPair};

/// The number of seeding rounds (art. 1.6.2): min(⌊rounds/2⌋, 4).
pub fn seeding_rounds(total_rounds: u32) -> u32 {
    (total_rounds / 2).min(4)
}

/// Pairs a round under the 2026 text.
pub fn pair(r: &RoundToPair) -> Result<RoundPairing, PairError> {
    let seeding = seeding_rounds(r.tournament.total_rounds);
    if r.number <= seeding {
        // The Dutch system through the registry (a system never imports another's folder),
        // with its default options: the 2026 text; the round's virtual points are already
        // applied.
        let dutch = crate::systems::find(crate::model::SystemId::Dutch).ok_or_else(|| {
            PairError::Internal("the Dutch system is not in the registry".to_string())
        })?;
        let mut out = dutch
            .configure(&crate::model::SystemOptions::default())
            .pair(r)?;
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
    field: Field,
    index: Vec<Index>,
    /// Entrant of each player (`usize::MAX` if not paired this round).
    entrant_of: Vec<usize>,
    /// SEP-5 `WEAK_FIRST` is in force: the round's fewest pairs within a group joins
    /// completion (C4), before the PAB's criteria (3.1.3-3.1.5) and C5-C8.
    round_weak: bool,
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
        let field = Field::build(r, &history, FideText::Y2026);
        let index = index::compute(r);
        let mut entrant_of = vec![usize::MAX; r.tournament.players.len()];
        for (i, e) in field.entrants.iter().enumerate() {
            entrant_of[e.player] = i;
        }
        let round_weak = field
            .weak_places(0..field.len())
            .contains(&WeakPlace::First);
        Round {
            r,
            field,
            index,
            entrant_of,
            round_weak,
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
        // The Dutch field's matrix holds C1 and the forbidden pairs (and its own C3, which
        // spares topscorers in the last round: `same_absolute` does not).
        a != b
            && self
                .field
                .compatible(self.entrant_of[a], self.entrant_of[b])
            && !same_absolute
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

        let outcome = self.brackets(&players, &mut ex)?;
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
            crate::systems::common::board_order_key(
                (points(b.white), rank(b.white)),
                (points(b.black), rank(b.black)),
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
        // `WEAK_FIRST`: the PAB also leaves the round's fewest pairs within a group.
        let fewest = |rest: &[PlayerIdx]| -> Result<Option<usize>, PairError> {
            crate::matching::weighted::fewest_marked_in_perfect_matching(rest.len(), |i, j| {
                self.compatible(rest[i], rest[j])
                    .then(|| self.field.weak.within(rest[i], rest[j], WeakPlace::First))
            })
            .map_err(|e| PairError::Internal(format!("Burstein matching: {e}")))
        };
        let without = |c: PlayerIdx| -> Vec<PlayerIdx> {
            players.iter().copied().filter(|&p| p != c).collect()
        };
        let mut least = None;
        if self.round_weak {
            for &c in &candidates {
                if let Some(w) = fewest(&without(c))? {
                    least = Some(least.map_or(w, |l: usize| l.min(w)));
                }
            }
        }
        for &c in &candidates {
            let rest = without(c);
            let allowed = match least {
                Some(l) => fewest(&rest)? == Some(l),
                None => crate::matching::cardinality::has_perfect_matching(rest.len(), |i, j| {
                    self.compatible(rest[i], rest[j])
                }),
            };
            if allowed {
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

    /// The bracket procedure: every bracket from the top (art. 2-4).
    fn brackets(&self, players: &[PlayerIdx], ex: &mut Explanation) -> Result<Outcome, PairError> {
        let n = players.len();
        let words = n.div_ceil(64).max(1);
        let mut matrix = vec![0u64; n * words];
        for a in 0..n {
            for b in a + 1..n {
                if self.compatible(players[a], players[b]) {
                    matrix[a * words + b / 64] |= 1 << (b % 64);
                    matrix[b * words + a / 64] |= 1 << (a % 64);
                }
            }
        }
        let compat = |a: usize, b: usize| matrix[a * words + b / 64] >> (b % 64) & 1 == 1;
        if !crate::matching::cardinality::has_perfect_matching(n, compat) {
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
        // Scoregroups, in pairing order.
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (v, &p) in players.iter().enumerate() {
            match groups.last_mut() {
                Some(g) if self.score(players[g[0]]) == self.score(p) => g.push(v),
                _ => groups.push(vec![v]),
            }
        }
        let facts = |a: usize, b: usize| -> Option<EdgeFacts> {
            compat(a, b).then(|| EdgeFacts {
                score_a: self.score(players[a]),
                score_b: self.score(players[b]),
                agree: self.colours_agree(players[a], players[b]),
                weak: WeakPlace::ALL
                    .map(|place| self.field.weak.within(players[a], players[b], place)),
            })
        };
        let mut paired = vec![false; n];
        let mut pairs: Vec<(PlayerIdx, PlayerIdx)> = Vec::with_capacity(n / 2);
        let mut carry: Vec<usize> = Vec::new();
        for gi in 0..groups.len() {
            let mut bracket: Vec<usize> = std::mem::take(&mut carry);
            bracket.extend(groups[gi].iter().copied());
            // 1.8: floaters and residents ranked by the Index alone.
            bracket.sort_by(|&a, &b| self.index[players[a]].rank_cmp(&self.index[players[b]]));
            let next: &[usize] = groups.get(gi + 1).map_or(&[], |g| g.as_slice());
            let levels = |vs: &mut dyn Iterator<Item = usize>| -> Vec<(Score, u32)> {
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
            // SEP-5: the places where two players of the bracket share a weak group.
            let weak = if self.field.weak.is_empty() {
                Vec::new()
            } else {
                self.field
                    .weak
                    .shared_places(bracket.iter().map(|&v| players[v]))
            };
            let layout = Layout::new(
                bracket.len(),
                next.len(),
                &levels(&mut bracket.iter().copied()),
                &levels(&mut bracket.iter().chain(next.iter()).copied()),
                &weak,
            );
            let bracket_set = Sets::new(n, &bracket, next);
            // The bracket and the next scoregroup alone decide the criteria; the players
            // below matter only for C4. Decide on that small graph, and on everybody left
            // only if what it chose leaves the rest unpairable (then the small graph's
            // choice was not completable, and the whole graph's is the answer).
            let mut small: Vec<usize> = bracket.clone();
            small.extend(next.iter().copied());
            // `WEAK_FIRST` is part of completion: decided with everybody left.
            let mut decided = if self.round_weak {
                let all: Vec<usize> = (0..n).filter(|&v| !paired[v]).collect();
                decide_any(&all, &bracket, &bracket_set, &layout, Top::WithWeak, &facts)?
            } else {
                decide_any(&small, &bracket, &bracket_set, &layout, Top::None, &facts)?
            };
            // Completable when the players the small graph's final optimum leaves unmatched
            // (with those below) can all be paired: that optimum then extends to a best
            // pairing of everybody, which the whole graph would have found too.
            let mut taken = vec![false; n];
            for &(a, b) in &decided.pairs {
                taken[a] = true;
                taken[b] = true;
            }
            for &v in &decided.matched {
                taken[v] = true;
            }
            let rest: Vec<usize> = (0..n).filter(|&v| !paired[v] && !taken[v]).collect();
            let completable =
                crate::matching::cardinality::has_perfect_matching(rest.len(), |i, j| {
                    compat(rest[i], rest[j])
                });
            if !completable && !self.round_weak {
                let all: Vec<usize> = (0..n).filter(|&v| !paired[v]).collect();
                ex.detail(
                    "C.04.4.2 C4",
                    "the bracket's best choice alone would leave the players below unpairable: decided with everybody left",
                    Vec::new(),
                );
                decided = decide_any(
                    &all,
                    &bracket,
                    &bracket_set,
                    &layout,
                    Top::Completion,
                    &facts,
                )?;
            }
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
                        .enumerate()
                        .map(|(i, &v)| format!(
                            "BSN {} {} ({})",
                            i + 1,
                            self.id(players[v]),
                            self.index[players[v]].describe()
                        ))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                bracket.iter().map(|&v| players[v]).collect(),
            );
            let bsn = |v: usize| bracket.iter().position(|&x| x == v).map_or(0, |i| i + 1);
            for &(a, b) in &decided.pairs {
                paired[a] = true;
                paired[b] = true;
                pairs.push((players[a], players[b]));
                ex.detail(
                    "C.04.4.2 4.3",
                    format!(
                        "BSN {} {} - BSN {} {}: the largest BSN that keeps a pairing best under C4-C8",
                        bsn(a),
                        self.id(players[a]),
                        bsn(b),
                        self.id(players[b])
                    ),
                    vec![players[a], players[b]],
                );
            }
            for &v in &decided.floaters {
                ex.step(
                    "C.04.4.2 C6",
                    format!(
                        "{} (score {}) floats to the next bracket",
                        self.id(players[v]),
                        self.score(players[v])
                    ),
                    vec![players[v]],
                );
            }
            carry = decided.floaters;
        }
        let floaters = carry
            .iter()
            .map(|&v| (players[v], self.score(players[v])))
            .collect();
        Ok(Outcome { pairs, floaters })
    }
}

/// Which players the bracket being decided holds, and the next scoregroup.
struct Sets {
    in_bracket: Vec<bool>,
    in_next: Vec<bool>,
    /// 1-based bracket sequence number (0 outside the bracket).
    bsn: Vec<u32>,
}

impl Sets {
    fn new(n: usize, bracket: &[usize], next: &[usize]) -> Sets {
        let mut s = Sets {
            in_bracket: vec![false; n],
            in_next: vec![false; n],
            bsn: vec![0; n],
        };
        for (i, &v) in bracket.iter().enumerate() {
            s.in_bracket[v] = true;
            s.bsn[v] = i as u32 + 1;
        }
        for &v in next {
            s.in_next[v] = true;
        }
        s
    }
}

/// The decisions of one bracket: its pairs and its outgoing floaters (players' indices).
struct Decided {
    pairs: Vec<(usize, usize)>,
    floaters: Vec<usize>,
    /// The other players the final optimum pairs (floaters and the next scoregroup).
    matched: Vec<usize>,
}

/// The fields above the bracket's criteria, when everybody left is in the graph.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Top {
    None,
    /// C4: the pairs of everybody left.
    Completion,
    /// C4, and under it SEP-5 `WEAK_FIRST`: minus one per pair within a group.
    WithWeak,
}

/// [`decide`] on the narrowest weight type that holds the layout (and the completion
/// field on top of it, with `WEAK_FIRST`'s under it, as `top` says).
fn decide_any(
    verts: &[usize],
    bracket: &[usize],
    sets: &Sets,
    layout: &Layout,
    completion: Top,
    facts: &dyn Fn(usize, usize) -> Option<EdgeFacts>,
) -> Result<Decided, PairError> {
    // The completion field counts at most one pair per two players; `WEAK_FIRST`'s is
    // signed, as wide.
    let field_bits = bits(verts.len() as u64 / 2 + 1);
    let top_bits = match completion {
        Top::None => 0,
        Top::Completion => field_bits,
        Top::WithWeak => 2 * field_bits + 1,
    };
    let need = layout.bits + top_bits;
    if need <= 56 {
        decide::<i64>(verts, bracket, sets, layout, completion, facts)
    } else if need <= 120 {
        decide::<i128>(verts, bracket, sets, layout, completion, facts)
    } else if need <= 248 {
        decide::<Wide<4>>(verts, bracket, sets, layout, completion, facts)
    } else if need <= 504 {
        decide::<Wide<8>>(verts, bracket, sets, layout, completion, facts)
    } else {
        Err(PairError::Internal(format!(
            "Burstein: the criteria of a bracket need {need} bits"
        )))
    }
}

/// Art. 4 on the graph of `verts`: each player of the bracket by BSN takes the largest-BSN
/// opponent with which a pairing best under C4-C8 exists, or floats (BSN 0) if none.
fn decide<W: Packed>(
    verts: &[usize],
    bracket: &[usize],
    sets: &Sets,
    layout: &Layout,
    completion: Top,
    facts: &dyn Fn(usize, usize) -> Option<EdgeFacts>,
) -> Result<Decided, PairError> {
    let n = verts.len();
    let weak_bits = bits(n as u64 / 2 + 1) + 1;
    let (round_weak, top) = match completion {
        Top::None => (None, None),
        Top::Completion => (None, Some(layout.bits)),
        Top::WithWeak => (Some(layout.bits), Some(layout.bits + weak_bits)),
    };
    let mut local = std::collections::HashMap::with_capacity(n);
    for (i, &v) in verts.iter().enumerate() {
        local.insert(v, i);
    }
    let mut state = State::<W> {
        n,
        verts,
        sets,
        w: vec![W::ZERO; n * n],
        m: DynamicMatching::new(n),
        removed: vec![false; n],
        floated: vec![false; n],
        priority_of: None,
        layout,
        top,
        round_weak,
    };
    for a in 0..n {
        for b in a + 1..n {
            let w = state.weight(a, b, facts(verts[a], verts[b]));
            state.w[a * n + b] = w;
            state.w[b * n + a] = w;
        }
    }
    state.solve()?;
    let mut out = Decided {
        pairs: Vec::new(),
        floaters: Vec::new(),
        matched: Vec::new(),
    };
    for &g in bracket {
        let Some(&v) = local.get(&g) else {
            continue;
        };
        if state.removed[v] {
            continue;
        }
        state.priority_of = Some(v);
        state.refresh(v, facts);
        state.solve()?;
        let mate = state.m.mate(v);
        state.priority_of = None;
        match mate {
            Some(u) if sets.in_bracket[verts[u]] && !state.floated[u] => {
                out.pairs.push((g, verts[u]));
                state.remove(v);
                state.remove(u);
            }
            _ => {
                state.floated[v] = true;
                state.refresh(v, facts);
                out.floaters.push(g);
            }
        }
    }
    state.solve()?;
    out.matched = (0..n)
        .filter(|&v| !state.removed[v] && state.m.mate(v).is_some())
        .map(|v| verts[v])
        .collect();
    Ok(out)
}

/// The player-dependent facts of an edge.
#[derive(Clone, Copy, Debug)]
struct EdgeFacts {
    score_a: Score,
    score_b: Score,
    agree: bool,
    /// SEP-5: the pair is within a weak group, per place (indexed by `WeakPlace`).
    weak: [bool; 3],
}

/// Bit offsets of the criteria for one bracket, least significant first; the completion
/// field, when the whole field is in the graph, sits on top at `bits`.
#[derive(Clone, Debug, Default)]
struct Layout {
    /// C5: pairs in the bracket.
    pairs: u32,
    /// C6: per score of the bracket (highest first), players of that score paired in it.
    c6: Vec<(Score, u32)>,
    /// C7: pairs of the following bracket (floaters and the next scoregroup).
    next_pairs: u32,
    /// C7's C6: per score, players of the following bracket paired in it.
    c7: Vec<(Score, u32)>,
    /// C8: pairs in the bracket whose preferences agree.
    colours: u32,
    /// SEP-5: the weak separations' criterion per place (indexed by `WeakPlace`), when two
    /// players of the bracket share a group there: minus one per bracket pair within a
    /// group. `Default` sits between C7 and C8, `Last` between C8 and art. 4's order.
    weak: [Option<u32>; 3],
    /// The order of art. 4: the opponent's BSN, on the edges of the player deciding.
    priority: u32,
    /// Bits used.
    bits: u32,
}

impl Layout {
    /// Every field is wide enough for the matching's total of it, so that comparing two
    /// matchings' weights compares the criteria lexicographically.
    fn new(
        bracket: usize,
        next: usize,
        levels6: &[(Score, u32)],
        levels7: &[(Score, u32)],
        weak: &[WeakPlace],
    ) -> Layout {
        let mut at = 0u32;
        let mut field = |width: u32| {
            let offset = at;
            at += width;
            offset
        };
        let priority = field(bits(bracket as u64 + 1));
        // SEP-5: a signed field, wide enough for minus the bracket's pairs.
        let weak_width = bits(bracket as u64 / 2) + 1;
        let mut weak_at = [None; 3];
        if weak.contains(&WeakPlace::Last) {
            weak_at[WeakPlace::Last as usize] = Some(field(weak_width));
        }
        let colours = field(bits(bracket as u64 / 2 + 1));
        if weak.contains(&WeakPlace::Default) {
            weak_at[WeakPlace::Default as usize] = Some(field(weak_width));
        }
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
        Layout {
            pairs,
            c6,
            next_pairs,
            c7,
            colours,
            weak: weak_at,
            priority,
            bits: at,
        }
    }

    fn level(list: &[(Score, u32)], s: Score) -> Option<u32> {
        list.iter().find(|&&(x, _)| x == s).map(|&(_, o)| o)
    }
}

/// The matching over the graph of one bracket's decisions (local vertex numbers).
struct State<'a, W> {
    n: usize,
    /// The players (indices of the round's list) of the local vertices.
    verts: &'a [usize],
    sets: &'a Sets,
    w: Vec<W>,
    m: DynamicMatching<W>,
    removed: Vec<bool>,
    /// Decided to float out of the bracket (paired with a virtual player, BSN 0).
    floated: Vec<bool>,
    priority_of: Option<usize>,
    layout: &'a Layout,
    /// The completion field's bit, when everybody left is in the graph.
    top: Option<u32>,
    /// SEP-5 `WEAK_FIRST`'s field, right under completion, on every edge of the graph.
    round_weak: Option<u32>,
}

impl<W: Packed> State<'_, W> {
    fn weight(&self, a: usize, b: usize, facts: Option<EdgeFacts>) -> W {
        let Some(f) = facts else {
            return W::ZERO;
        };
        let l = self.layout;
        let unit = |shift: u32| W::shifted(1, shift);
        let mut w = self.top.map_or(W::ZERO, unit);
        if let Some(o) = self.round_weak
            && f.weak[WeakPlace::First as usize]
        {
            w = w.wsub(unit(o));
        }
        let (ga, gb) = (self.verts[a], self.verts[b]);
        let (ba, bb) = (self.sets.in_bracket[ga], self.sets.in_bracket[gb]);
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
            for place in WeakPlace::ALL {
                if let Some(o) = l.weak[place as usize]
                    && f.weak[place as usize]
                {
                    w = w.wsub(unit(o));
                }
            }
            if self.priority_of == Some(a) {
                w = w.wadd(W::shifted(i64::from(self.sets.bsn[gb]), l.priority));
            } else if self.priority_of == Some(b) {
                w = w.wadd(W::shifted(i64::from(self.sets.bsn[ga]), l.priority));
            }
        } else if (ba || self.sets.in_next[ga]) && (bb || self.sets.in_next[gb]) {
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

    /// Recomputes the edges at `v`; the matching re-checks them at the next `solve`.
    fn refresh(&mut self, v: usize, facts: &dyn Fn(usize, usize) -> Option<EdgeFacts>) {
        if self.removed[v] {
            return;
        }
        let mut changed = false;
        for u in 0..self.n {
            if u == v || self.removed[u] {
                continue;
            }
            let w = self.weight(v, u, facts(self.verts[v], self.verts[u]));
            if self.w[v * self.n + u] != w {
                self.w[v * self.n + u] = w;
                self.w[u * self.n + v] = w;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeding_rounds_follow_art_1_6_2() {
        assert_eq!(seeding_rounds(0), 0);
        assert_eq!(seeding_rounds(5), 2);
        assert_eq!(seeding_rounds(7), 3);
        assert_eq!(seeding_rounds(9), 4);
        assert_eq!(seeding_rounds(13), 4);
    }

    #[test]
    fn layout_orders_the_criteria() {
        let s = |x: i64| Score::from_tenths(x);
        let l = Layout::new(
            10,
            8,
            &[(s(30), 2), (s(20), 8)],
            &[(s(30), 2), (s(20), 8), (s(10), 8)],
            &[],
        );
        // Most significant first: C5, C6 (highest score first), C7, its C6, C8, priority.
        let c6: Vec<u32> = l.c6.iter().map(|&(_, o)| o).collect();
        let c7: Vec<u32> = l.c7.iter().map(|&(_, o)| o).collect();
        assert!(l.pairs > c6[0] && c6[0] > c6[1] && c6[1] > l.next_pairs);
        assert!(l.next_pairs > c7[0] && c7[0] > c7[1] && c7[1] > c7[2]);
        assert!(c7[2] > l.colours && l.colours > l.priority);
        assert!(l.bits > l.pairs);
    }
}
