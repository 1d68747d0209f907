//! Per-player facts every Swiss system reads, computed once from the rounds before the one
//! being paired: scores, played colours (compressed, GHR 3.4 / CG-5), opponents actually met
//! (CG-4), forbidden pairs (CG-10), unplayed rounds.
use rustc_hash::FxHashMap;

use super::RoundToPair;
use crate::matching::BitGraph;
use crate::model::{ByeKind, Colour, GameResult, PlayerIdx, RoundEntry, Score};

/// How many rounds a player's per-round lists hold without an allocation: most events'
/// rounds fit, and four allocations per player (entries, colours, opponents, points) were
/// a few percent of a small request (issue 37). Longer events spill to the heap as a
/// vector would.
pub const ROUNDS_INLINE: usize = 12;

/// A player's list with one item per past round (or per game), inline up to
/// [`ROUNDS_INLINE`] items.
pub type RoundList<T> = smallvec::SmallVec<[T; ROUNDS_INLINE]>;

/// What one player did before the round being paired.
#[derive(Clone, Debug, Default)]
pub struct PlayerHistory {
    /// Real points (the tournament's scoring; adjourned games count nothing yet).
    pub points: Score,
    /// Points for pairing: adjourned games count as draws (GHR 3.1).
    pub pairing_points: Score,
    /// Per past round: the entry as recorded.
    pub entries: RoundList<RoundEntry>,
    /// Colours of the games actually played, in round order (unplayed rounds skipped).
    pub colours: RoundList<Colour>,
    /// Opponents met over the board, in round order.
    pub opponents: RoundList<PlayerIdx>,
    /// Rounds in which the player scored without playing (PAB, full- or half-point bye,
    /// forfeit win) and the points of each.
    pub unplayed_points: Vec<Score>,
    /// Whether the player already had a pairing-allocated bye.
    pub had_pab: bool,
    /// Per past round: the pairing points scored in it (adjourned games as draws).
    pub round_points: RoundList<Score>,
    /// Whether the player took part in the pairing of some past round: paired against an
    /// opponent (even if the game was forfeited) or given the pairing-allocated bye.
    pub participated: bool,
}

impl PlayerHistory {
    pub fn games_played(&self) -> usize {
        self.colours.len()
    }

    pub fn whites(&self) -> usize {
        self.colours.iter().filter(|&&c| c == Colour::White).count()
    }

    pub fn blacks(&self) -> usize {
        self.colours.len() - self.whites()
    }

    /// Whites minus blacks over played games (CG-5).
    pub fn colour_difference(&self) -> i32 {
        self.whites() as i32 - self.blacks() as i32
    }

    pub fn last_colour(&self) -> Option<Colour> {
        self.colours.last().copied()
    }

    /// The colour of the last two played games, when they are the same.
    pub fn last_two_same(&self) -> Option<Colour> {
        match self.colours.as_slice() {
            [.., a, b] if a == b => Some(*a),
            _ => None,
        }
    }

    /// Whether giving `colour` now would make three of a kind in a row or a colour difference
    /// beyond ±2 (C.04.1 art. 6-7, CG-5).
    pub fn colour_breaks_limits(&self, colour: Colour) -> bool {
        let third = self.last_two_same() == Some(colour);
        let diff = self.colour_difference() + if colour == Colour::White { 1 } else { -1 };
        third || diff.abs() > 2
    }

    /// Pairing points before past round `round` (1-based): the sum over earlier rounds.
    pub fn points_before(&self, round: u32) -> Score {
        self.round_points
            .iter()
            .take(round.saturating_sub(1) as usize)
            .copied()
            .sum()
    }

    /// Played colour per past round (`None` for rounds without a played game).
    pub fn round_colours(&self) -> Vec<Option<Colour>> {
        self.entries.iter().map(RoundEntry::played_colour).collect()
    }

    /// The played colour of one past round (1-based); `None` when no game was played in it.
    pub fn colour_in_round(&self, round: u32) -> Option<Colour> {
        round
            .checked_sub(1)
            .and_then(|i| self.entries.get(i as usize))
            .and_then(RoundEntry::played_colour)
    }

    /// Pairing points scored from round `first` (1-based) on: what counts for a late entrant
    /// whose missed rounds are replaced by a fixed starting score (AM-2.5).
    pub fn pairing_points_from(&self, first: u32) -> Score {
        let skip = first.saturating_sub(1) as usize;
        self.round_points.iter().skip(skip).copied().sum()
    }
}

/// A float received in a past round (Dutch art. 1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Float {
    Down,
    Up,
    None,
}

/// The history of every player, and who may not meet whom.
#[derive(Clone, Debug)]
pub struct History {
    pub players: Vec<PlayerHistory>,
    /// The forbidden groups (CG-10) applying this round that each player belongs to,
    /// sorted: membership stays linear in a group's size where its pairs would be quadratic.
    clubs: Vec<Vec<u32>>,
}

impl History {
    pub fn build(r: &RoundToPair) -> History {
        let t = &r.tournament;
        let rounds = t.rounds.len();
        // Each player's entries straight into his own list (no table of rows in between).
        let mut players: Vec<PlayerHistory> = Vec::new();
        players.resize_with(t.players.len(), PlayerHistory::default);
        for h in &mut players {
            h.entries.resize(rounds, RoundEntry::None);
        }
        t.each_entry(|player, round, entry| {
            if let Some(h) = players.get_mut(player) {
                h.entries[round] = entry;
            }
        });
        for h in &mut players {
            for round in 0..rounds {
                let entry = h.entries[round];
                let before = h.pairing_points;
                match entry {
                    RoundEntry::Game {
                        opponent,
                        colour,
                        result,
                    } => {
                        let (w, b) = result.points(&t.scoring);
                        let (pw, pb) = result.pairing_points(&t.scoring);
                        let white = colour == Colour::White;
                        h.points += if white { w } else { b };
                        h.pairing_points += if white { pw } else { pb };
                        h.participated = true;
                        if result.is_played() {
                            h.colours.push(colour);
                            h.opponents.push(opponent);
                        } else {
                            let won = matches!(
                                (result, white),
                                (GameResult::WhiteWinsForfeit, true)
                                    | (GameResult::BlackWinsForfeit, false)
                            );
                            if won {
                                h.unplayed_points.push(if white { w } else { b });
                            }
                        }
                    }
                    RoundEntry::Bye(kind) => {
                        let points = kind.points(&t.scoring);
                        h.points += points;
                        h.pairing_points += points;
                        if kind == ByeKind::Pab {
                            h.had_pab = true;
                            h.participated = true;
                        }
                        if points > Score::ZERO {
                            h.unplayed_points.push(points);
                        }
                    }
                    RoundEntry::None => {}
                }
                h.round_points.push(h.pairing_points - before);
            }
        }
        let mut clubs: Vec<Vec<u32>> = vec![Vec::new(); players.len()];
        for (g, f) in t.forbidden_pairings.iter().enumerate() {
            if !f.applies_to(r.number) {
                continue;
            }
            for &a in &f.players {
                if let Some(list) = clubs.get_mut(a) {
                    list.push(g as u32);
                }
            }
        }
        for list in &mut clubs {
            list.sort_unstable();
            list.dedup();
        }
        History { players, clubs }
    }

    /// The forbidden groups (CG-10) applying this round that `p` belongs to, sorted.
    pub fn forbidden_groups(&self, p: PlayerIdx) -> &[u32] {
        self.clubs.get(p).map_or(&[], Vec::as_slice)
    }

    /// Whether two players met over the board (forfeits are no meeting, CG-4).
    /// A scan of one player's opponents (as many as his rounds): cheaper than a set of
    /// every game, which cost a small Buchholz request 2 % to build (issue 37).
    pub fn have_played(&self, a: PlayerIdx, b: PlayerIdx) -> bool {
        self.players
            .get(a)
            .is_some_and(|h| h.opponents.contains(&b))
    }

    /// Whether the pair is forbidden this round (CG-10).
    pub fn is_forbidden(&self, a: PlayerIdx, b: PlayerIdx) -> bool {
        let (Some(x), Some(y)) = (self.clubs.get(a), self.clubs.get(b)) else {
            return false;
        };
        a != b && x.iter().any(|g| y.binary_search(g).is_ok())
    }

    /// Whether the two may not meet: they met, or the pair is forbidden (CG-10 treats it as
    /// having met).
    pub fn may_not_meet(&self, a: PlayerIdx, b: PlayerIdx) -> bool {
        self.have_played(a, b) || self.is_forbidden(a, b)
    }

    /// The graph of who may meet whom among `list` (vertex `i` is `list[i]`): every pair
    /// except those who met over the board or are forbidden (CG-4, CG-10).
    pub fn may_meet(&self, list: &[PlayerIdx]) -> BitGraph {
        // Each player's place in `list`: a table over the whole field when the list is a
        // good part of it (cheaper than hashing), a map when it is a small group of a
        // large field (no table of the field per group).
        if list.len() * 8 >= self.players.len() {
            let mut pos = vec![usize::MAX; self.players.len()];
            for (i, &p) in list.iter().enumerate() {
                if let Some(slot) = pos.get_mut(p) {
                    *slot = i;
                }
            }
            self.may_meet_by(list, |p| pos.get(p).copied().filter(|&i| i != usize::MAX))
        } else {
            let mut pos = FxHashMap::with_capacity_and_hasher(list.len(), Default::default());
            for (i, &p) in list.iter().enumerate() {
                pos.insert(p, i);
            }
            self.may_meet_by(list, |p| pos.get(&p).copied())
        }
    }

    fn may_meet_by(
        &self,
        list: &[PlayerIdx],
        pos: impl Fn(PlayerIdx) -> Option<usize>,
    ) -> BitGraph {
        let mut g = BitGraph::complete(list.len());
        for (i, &p) in list.iter().enumerate() {
            for &o in &self.player(p).opponents {
                if let Some(j) = pos(o) {
                    g.set_edge(i, j, false);
                }
            }
        }
        for (a, b) in self.forbidden_pairs() {
            if let (Some(i), Some(j)) = (pos(a), pos(b)) {
                g.set_edge(i, j, false);
            }
        }
        g
    }

    /// The forbidden pairs of this round (CG-10), each once, smaller index first, sorted.
    pub fn forbidden_pairs(&self) -> Vec<(PlayerIdx, PlayerIdx)> {
        let groups = self
            .clubs
            .iter()
            .flatten()
            .map(|&g| g as usize + 1)
            .max()
            .unwrap_or(0);
        let mut members: Vec<Vec<PlayerIdx>> = vec![Vec::new(); groups];
        for (p, list) in self.clubs.iter().enumerate() {
            for &g in list {
                members[g as usize].push(p);
            }
        }
        let mut pairs: Vec<(PlayerIdx, PlayerIdx)> = members
            .iter()
            .flat_map(|m| {
                m.iter()
                    .enumerate()
                    .flat_map(move |(i, &a)| m[i + 1..].iter().map(move |&b| (a.min(b), a.max(b))))
            })
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        pairs
    }

    /// The round (1-based) in which two players met over the board, if they did.
    pub fn round_met(&self, a: PlayerIdx, b: PlayerIdx) -> Option<u32> {
        let h = self.players.get(a)?;
        h.entries
            .iter()
            .position(|e| e.met_opponent() == Some(b))
            .map(|r| r as u32 + 1)
    }

    /// Points for pairing of a late entrant under a "starts with this score" rule (AM-2.5):
    /// the rounds before `entry_round` count `start` whatever they hold, the later ones as
    /// played. Players entered from round 1 keep their pairing points.
    pub fn pairing_points_with_entry(
        &self,
        p: PlayerIdx,
        entry_round: Option<u32>,
        start: Score,
        scoring: &crate::model::Scoring,
    ) -> Score {
        let Some(h) = self.players.get(p) else {
            return Score::ZERO;
        };
        let Some(entry) = entry_round.filter(|&r| r > 1) else {
            return h.pairing_points;
        };
        let skip = entry as usize - 1;
        let later: Score = h
            .entries
            .iter()
            .skip(skip)
            .map(|e| match *e {
                RoundEntry::Game { colour, result, .. } => {
                    let (w, b) = result.pairing_points(scoring);
                    if colour == Colour::White { w } else { b }
                }
                RoundEntry::Bye(kind) => kind.points(scoring),
                RoundEntry::None => Score::ZERO,
            })
            .sum();
        start + later
    }

    pub fn player(&self, p: PlayerIdx) -> &PlayerHistory {
        &self.players[p]
    }

    /// The float player `p` received in past round `round` (1-based), as the Dutch system
    /// (2026, art. 1.4) defines it: after a played game, a downfloat if the player's
    /// pairing score before that round was higher than the opponent's, an upfloat if lower;
    /// without a game, a downfloat if the round gave more points than a loss (PAB,
    /// forfeit win, full- or half-point bye), else none. `extra(p, round)` adds points that
    /// count for pairing in that round without being scored (acceleration, C.04.7).
    pub fn float_in(
        &self,
        p: PlayerIdx,
        round: u32,
        loss: Score,
        extra: &dyn Fn(PlayerIdx, u32) -> Score,
    ) -> Float {
        let Some(h) = self.players.get(p) else {
            return Float::None;
        };
        let Some(entry) = round.checked_sub(1).and_then(|i| h.entries.get(i as usize)) else {
            return Float::None;
        };
        match entry.met_opponent() {
            Some(o) => {
                let mine = h.points_before(round) + extra(p, round);
                let theirs = self
                    .players
                    .get(o)
                    .map_or(Score::ZERO, |oh| oh.points_before(round))
                    + extra(o, round);
                match mine.cmp(&theirs) {
                    std::cmp::Ordering::Greater => Float::Down,
                    std::cmp::Ordering::Less => Float::Up,
                    std::cmp::Ordering::Equal => Float::None,
                }
            }
            None => {
                let got = h
                    .round_points
                    .get(round as usize - 1)
                    .copied()
                    .unwrap_or(Score::ZERO);
                if got > loss { Float::Down } else { Float::None }
            }
        }
    }

    /// C.04.1 art. 4: no PAB for a player who had one, or who scored a win's points in one
    /// round without playing (forfeit win, full-point bye). Half-point byes do not count.
    pub fn pab_eligible(&self, p: PlayerIdx, win: Score) -> bool {
        let h = &self.players[p];
        !h.had_pab && !h.unplayed_points.iter().any(|&pts| pts >= win)
    }
}
