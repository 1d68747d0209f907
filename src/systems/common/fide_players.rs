//! What the Dutch system needs to know about each player paired this round: pairing score
//! (with acceleration), colour preference (art. 1.6-1.7 on the compressed history, GHR
//! 3.4), floats of the last two rounds (art. 1.4), PAB eligibility (C2), and who may meet
//! whom (C1, C3).
use crate::model::{Colour, PlayerIdx, Score, WeakPlace, WeakSeparations};
use crate::systems::RoundToPair;
use crate::systems::checklist::{Checklist, ChecklistRow, Floated, Preference, SystemColumns};
use crate::systems::common::{Float, History};

/// Strength of a colour preference (art. 1.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    None,
    Mild,
    Strong,
    Absolute,
}

impl Strength {
    pub fn describe(self) -> &'static str {
        match self {
            Strength::None => "no",
            Strength::Mild => "mild",
            Strength::Strong => "strong",
            Strength::Absolute => "absolute",
        }
    }
}

/// A player taking part in this round's pairing.
#[derive(Clone, Debug)]
pub struct Entrant {
    pub player: PlayerIdx,
    /// Tournament pairing number.
    pub tpn: u32,
    /// Effective pairing number (0-based) among the players still in the tournament: the
    /// number whose parity decides colours by art. 5.2.5.
    pub rank: u32,
    /// Pairing score: points (adjourned games as draws) plus acceleration.
    pub score: Score,
    /// Points without acceleration (board order, GHR 3.6).
    pub points: Score,
    /// Colours of the games actually played, in order (GHR 3.4).
    pub colours: crate::systems::common::RoundList<Colour>,
    /// |whites - blacks|.
    pub imbalance: u32,
    pub pref: Option<Colour>,
    pub strength: Strength,
    /// The colour of the last two played games when they are the same.
    pub repeated: Option<Colour>,
    /// Floats of the previous round and of two rounds before.
    pub float1: Float,
    pub float2: Float,
    /// C2: may receive the PAB.
    pub bye_eligible: bool,
    pub played: u32,
}

impl Entrant {
    pub fn absolute(&self) -> bool {
        self.strength == Strength::Absolute
    }

    /// A colour difference of 2 or more (the absolute preference does not come only from
    /// two games in a row).
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    /// Strong or absolute.
    pub fn strong_or_more(&self) -> bool {
        self.strength >= Strength::Strong
    }

    /// The colour difference, whites minus blacks.
    pub fn colour_difference(&self) -> i32 {
        let w = self.colours.iter().filter(|&&c| c == Colour::White).count() as i32;
        w * 2 - self.colours.len() as i32
    }
}

/// The colour preference of a compressed colour history (art. 1.7).
pub fn preference(colours: &[Colour]) -> (Option<Colour>, Strength, u32, Option<Colour>) {
    let whites = colours.iter().filter(|&&c| c == Colour::White).count() as u32;
    let blacks = colours.len() as u32 - whites;
    let imbalance = whites.abs_diff(blacks);
    let fewer = if whites > blacks {
        Colour::Black
    } else {
        Colour::White
    };
    let last = colours.last().copied();
    let run = match last {
        Some(l) => colours.iter().rev().take_while(|&&c| c == l).count(),
        None => 0,
    };
    let repeated = if run >= 2 { last } else { None };
    let pref = if imbalance > 1 {
        Some(fewer)
    } else if run > 1 {
        last.map(Colour::opposite)
    } else if imbalance > 0 {
        Some(fewer)
    } else {
        last.map(Colour::opposite)
    };
    let strength = if imbalance > 1 || repeated.is_some() {
        Strength::Absolute
    } else if imbalance == 1 {
        Strength::Strong
    } else if last.is_some() {
        Strength::Mild
    } else {
        Strength::None
    };
    (pref, strength, imbalance, repeated)
}

/// Which FIDE text's definitions the field reads: the 2017 Dutch text's (a float is any
/// round without a game, A.4.b; a PAB or a forfeit win bars the PAB, C.2) or the texts in
/// force from 1 February 2026 (C.04.3 art. 1.4.3; C.04.1 art. 4). The Dutch system chooses
/// by its edition; Burstein and Dubov read the 2026 texts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FideText {
    Y2017,
    #[default]
    Y2026,
}

/// Everyone paired this round and who may meet whom.
pub struct Field {
    /// In pairing order: score descending, then pairing number (art. 1.2).
    pub entrants: Vec<Entrant>,
    /// C1: each entrant's opponents over the board (entrant indices, sorted), row `a`
    /// being `met[met_start[a]..met_start[a + 1]]`. A few per player where a bit matrix
    /// over a 100,000-player field took 1.25 GB and a cache miss per read.
    met_start: Vec<u32>,
    met: Vec<u32>,
    /// C1 (CG-10): the forbidden groups each entrant belongs to (sorted), rows as `met`'s.
    group_start: Vec<u32>,
    groups: Vec<u32>,
    /// C3: 1 or 2 for a non-topscorer with an absolute preference for white or black,
    /// else 0: two entrants with the same non-zero code may not meet.
    c3: Vec<u8>,
    /// Up to `BIT_MATRIX_UP_TO` entrants, all of the above as a bit matrix too (`words`
    /// per row): one bit read per pair, which the rows cannot beat while it fits the
    /// caches; beyond, it takes n²/8 bytes and a cache miss per read.
    bits: Vec<u64>,
    words: usize,
    /// Rounds before the one being paired.
    pub rounds_played: u32,
    /// Pairing the final round: topscorers exist (art. 1.8) and C3 spares them.
    pub last_round: bool,
    /// A topscorer has more than this pairing score (50% of the maximum so far).
    pub topscorer_above: Score,
    /// The text whose definitions of floats and PAB eligibility the field read.
    pub text: FideText,
    /// The weak separations of the round (SEP-5), by player index.
    pub weak: WeakSeparations,
}

impl Field {
    pub fn len(&self) -> usize {
        self.entrants.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entrants.is_empty()
    }

    /// Whether entrants `a` and `b` may meet (C1, C3).
    #[inline(always)]
    pub fn compatible(&self, a: usize, b: usize) -> bool {
        if self.words > 0 {
            return self.bits[a * self.words + b / 64] >> (b % 64) & 1 == 1;
        }
        if a == b {
            return false;
        }
        let code = self.c3[a];
        if code != 0 && code == self.c3[b] {
            return false;
        }
        // `met` is symmetric: `a`'s row alone tells.
        let met = &self.met[self.met_start[a] as usize..self.met_start[a + 1] as usize];
        if met.iter().any(|&o| o as usize == b) {
            return false;
        }
        self.groups.is_empty() || !self.share_group(a, b)
    }

    /// Whether `a` and `b` are in one forbidden group (CG-10).
    #[inline(never)]
    fn share_group(&self, a: usize, b: usize) -> bool {
        let ga = &self.groups[self.group_start[a] as usize..self.group_start[a + 1] as usize];
        let gb = &self.groups[self.group_start[b] as usize..self.group_start[b + 1] as usize];
        ga.iter().any(|g| gb.binary_search(g).is_ok())
    }

    /// The field without its bit matrix, reading who may meet whom off the rows as a
    /// field of more than `BIT_MATRIX_UP_TO` entrants does: for the tests and benches
    /// that check both give the same answers.
    pub fn without_bit_matrix(mut self) -> Field {
        self.bits = Vec::new();
        self.words = 0;
        self
    }

    /// Entrant `a`'s row of the bit matrix (bit `b` set when `a` and `b` may meet, C1 and
    /// C3; `len().div_ceil(64)` words, the bits from `len()` on meaningless), when the field
    /// has one.
    pub fn compatible_row(&self, a: usize) -> Option<&[u64]> {
        if self.words == 0 {
            return None;
        }
        self.bits.get(a * self.words..(a + 1) * self.words)
    }

    /// What entrant `a`'s compatibility with others reads of him, looked up once for a
    /// whole row of `compatible(a, _)`.
    #[inline]
    pub fn meets(&self, a: usize) -> Meets<'_> {
        Meets {
            field: self,
            a,
            code: self.c3[a],
            met: &self.met[self.met_start[a] as usize..self.met_start[a + 1] as usize],
            bits: if self.words > 0 {
                self.bits.get(a * self.words..(a + 1) * self.words)
            } else {
                None
            },
        }
    }
}

/// Entrant `a`'s side of `Field::compatible`.
pub struct Meets<'f> {
    field: &'f Field,
    a: usize,
    code: u8,
    met: &'f [u32],
    /// `a`'s row of the bit matrix, when the field has one.
    bits: Option<&'f [u64]>,
}

impl Meets<'_> {
    /// Whether `a` may meet entrant `b` (C1, C3).
    #[inline(always)]
    pub fn may_meet(&self, b: usize) -> bool {
        match self.bits {
            Some(row) => row.get(b / 64).is_some_and(|w| w >> (b % 64) & 1 == 1),
            None => self.may_meet_by_rows(b),
        }
    }

    /// `may_meet` read off the rows (a field too large for the bit matrix).
    #[inline]
    fn may_meet_by_rows(&self, b: usize) -> bool {
        let (f, a) = (self.field, self.a);
        if a == b {
            return false;
        }
        if self.code != 0 && self.code == f.c3[b] {
            return false;
        }
        // `met` is symmetric: `a`'s row alone tells.
        if self.met.iter().any(|&o| o as usize == b) {
            return false;
        }
        f.groups.is_empty() || !f.share_group(a, b)
    }
}

impl Field {
    /// SEP-5: whether entrants `a` and `b` share a group of a weak separation at `place`.
    #[inline]
    pub fn weak_within(&self, a: usize, b: usize, place: WeakPlace) -> bool {
        self.weak
            .within(self.entrants[a].player, self.entrants[b].player, place)
    }

    /// SEP-5: the places of weak separations at which two of `entrants` share a group.
    pub fn weak_places(&self, entrants: impl Iterator<Item = usize>) -> Vec<WeakPlace> {
        if self.weak.is_empty() {
            return Vec::new();
        }
        self.weak
            .shared_places(entrants.map(|e| self.entrants[e].player))
    }

    pub fn is_topscorer(&self, e: &Entrant) -> bool {
        self.last_round && e.score > self.topscorer_above
    }

    /// Builds the field for the round to pair.
    pub fn build(r: &RoundToPair, history: &History, text: FideText) -> Field {
        let t = &r.tournament;
        let round = r.number;
        let scoring = &t.scoring;
        let virtual_points = |p: PlayerIdx, round: u32| -> Score {
            t.accelerations
                .iter()
                .filter(|a| a.player == p && a.first_round <= round && round <= a.last_round)
                .map(|a| a.points)
                .sum()
        };
        // Effective pairing numbers: players still in the tournament, by pairing number.
        let mut in_tournament = vec![false; t.players.len()];
        for &p in &r.participants {
            in_tournament[p] = true;
        }
        for (p, h) in history.players.iter().enumerate() {
            if h.participated {
                in_tournament[p] = true;
            }
        }
        let mut by_tpn: Vec<PlayerIdx> =
            (0..t.players.len()).filter(|&p| in_tournament[p]).collect();
        by_tpn.sort_by_key(|&p| t.pairing_number(p));
        let mut rank = vec![0u32; t.players.len()];
        for (i, &p) in by_tpn.iter().enumerate() {
            rank[p] = i as u32;
        }
        let mut entrants: Vec<Entrant> = r
            .participants
            .iter()
            .map(|&p| {
                let h = history.player(p);
                let (pref, strength, imbalance, repeated) = preference(&h.colours);
                let float = |back: u32| {
                    if round <= back {
                        return Float::None;
                    }
                    let then = round - back;
                    let played = h
                        .entries
                        .get(then as usize - 1)
                        .is_some_and(|e| e.met_opponent().is_some());
                    // 2017 A.4.b: a player who, for whatever reason, does not play in a
                    // round receives a downfloat (2026 art. 1.4.3 narrows it).
                    if text == FideText::Y2017 && !played {
                        Float::Down
                    } else {
                        history.float_in(p, then, scoring.loss, &virtual_points)
                    }
                };
                Entrant {
                    player: p,
                    tpn: t.pairing_number(p),
                    rank: rank[p],
                    score: h.pairing_points + virtual_points(p, round),
                    points: h.pairing_points,
                    colours: h.colours.clone(),
                    imbalance,
                    pref,
                    strength,
                    repeated,
                    float1: float(1),
                    float2: float(2),
                    // C2 = C.04.1 art. 4: a PAB, a forfeit win or a full-point bye blocks
                    // the PAB (a win's points without playing); half-point byes do not.
                    // 2017 C.2: a PAB or a win by forfeit ("an opponent not showing up
                    // in time"); a requested full-point bye does not block it.
                    bye_eligible: match text {
                        FideText::Y2026 => history.pab_eligible(p, scoring.win),
                        FideText::Y2017 => !pab_barred_2017(h),
                    },
                    played: h.colours.len() as u32,
                }
            })
            .collect();
        entrants.sort_by(|a, b| b.score.cmp(&a.score).then(a.tpn.cmp(&b.tpn)));
        let n = entrants.len();
        let rounds_played = round - 1;
        let win_or_draw = scoring.win.max(scoring.draw);
        let topscorer_above = Score::from_tenths(win_or_draw.tenths() * rounds_played as i64 / 2);
        let last_round = t.total_rounds > 0 && round >= t.total_rounds;
        let mut index = vec![u32::MAX; t.players.len()];
        for (i, e) in entrants.iter().enumerate() {
            index[e.player] = i as u32;
        }
        // C1: opponents met over the board, each pair in both rows.
        let met_of = |a: usize| {
            history
                .player(entrants[a].player)
                .opponents
                .iter()
                .filter_map(|&o| index.get(o).copied())
                .filter(move |&b| b != u32::MAX && b as usize != a)
        };
        let mut met_start = vec![0u32; n + 1];
        for a in 0..n {
            for b in met_of(a) {
                met_start[a + 1] += 1;
                met_start[b as usize + 1] += 1;
            }
        }
        let mut met = vec![0u32; prefix_sums(&mut met_start)];
        let mut next = met_start.clone();
        for a in 0..n {
            for b in met_of(a) {
                met[next[a] as usize] = b;
                next[a] += 1;
                met[next[b as usize] as usize] = a as u32;
                next[b as usize] += 1;
            }
        }
        sort_rows(&mut met_start, &mut met);
        // C1: forbidden pairs (CG-10), by the groups that forbid them (each player's
        // already sorted without repeats by `History`).
        let mut group_start = Vec::with_capacity(n + 1);
        let mut groups = Vec::new();
        for e in &entrants {
            group_start.push(groups.len() as u32);
            groups.extend_from_slice(history.forbidden_groups(e.player));
        }
        group_start.push(groups.len() as u32);
        let mut field = Field {
            entrants,
            met_start,
            met,
            group_start,
            groups,
            c3: vec![0; n],
            bits: Vec::new(),
            words: 0,
            rounds_played,
            last_round,
            topscorer_above,
            text,
            weak: t.weak_separations(round),
        };
        // C3: non-topscorers with the same absolute preference.
        for i in 0..n {
            let e = &field.entrants[i];
            if e.absolute() && !field.is_topscorer(e) {
                field.c3[i] = match e.pref {
                    Some(Colour::White) => 1,
                    Some(Colour::Black) => 2,
                    None => 0,
                };
            }
        }
        if n <= BIT_MATRIX_UP_TO {
            let words = n.div_ceil(64).max(1);
            let mut bits = vec![u64::MAX; n * words];
            let mut forbid = |a: usize, b: usize| {
                bits[a * words + b / 64] &= !(1u64 << (b % 64));
                bits[b * words + a / 64] &= !(1u64 << (a % 64));
            };
            for a in 0..n {
                forbid(a, a);
                let row = &field.met[field.met_start[a] as usize..field.met_start[a + 1] as usize];
                for &b in row {
                    forbid(a, b as usize);
                }
            }
            for (x, y) in history.forbidden_pairs() {
                if let (Some(&a), Some(&b)) = (index.get(x), index.get(y))
                    && a != u32::MAX
                    && b != u32::MAX
                {
                    forbid(a as usize, b as usize);
                }
            }
            for code in [1, 2] {
                let group: Vec<usize> = (0..n).filter(|&i| field.c3[i] == code).collect();
                for (k, &a) in group.iter().enumerate() {
                    for &b in &group[k + 1..] {
                        forbid(a, b);
                    }
                }
            }
            field.bits = bits;
            field.words = words;
        }
        field
    }
}

/// The largest field that keeps a bit matrix of who may meet whom (32 MB at most).
const BIT_MATRIX_UP_TO: usize = 16_384;

/// Turns per-row counts (`start[i + 1]`: row `i`'s) into each row's start; the total.
fn prefix_sums(start: &mut [u32]) -> usize {
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    start.last().map_or(0, |&x| x as usize)
}

/// Rows of entrant indices as one array and each row's start (the last entry is the
/// end): each row sorted, its repeats dropped, the rows moved down over the gaps. Filled
/// by counting rather than in a vector per row (two hundred small vectors in a 100-player
/// round).
fn sort_rows(start: &mut [u32], all: &mut Vec<u32>) {
    let n = start.len() - 1;
    let mut write = 0usize;
    for i in 0..n {
        let (from, to) = (start[i] as usize, start[i + 1] as usize);
        start[i] = write as u32;
        all[from..to].sort_unstable();
        for k in from..to {
            if k == from || all[k] != all[k - 1] {
                all[write] = all[k];
                write += 1;
            }
        }
    }
    start[n] = write as u32;
    all.truncate(write);
}

/// A colour preference as the check-list shows it.
pub fn checklist_preference(e: &Entrant) -> Preference {
    match (e.pref, e.strength) {
        (None, _) | (_, Strength::None) => Preference::None,
        (Some(c), Strength::Mild) => Preference::Mild(c),
        (Some(c), Strength::Strong) => Preference::Strong(c),
        (Some(c), Strength::Absolute) => Preference::Absolute(c),
    }
}

/// Each player's past opponents met over the board, per round.
pub fn checklist_opponents(history: &History, p: PlayerIdx) -> Vec<Option<PlayerIdx>> {
    history
        .player(p)
        .entries
        .iter()
        .map(|e| e.met_opponent())
        .collect()
}

/// The round's check-list: the field in pairing order, with C2 and the floats.
pub fn checklist(r: &RoundToPair, field: &Field, history: &History) -> Checklist {
    let floated = |f: Float| match f {
        Float::None => Floated::None,
        Float::Up => Floated::Up,
        Float::Down => Floated::Down,
    };
    let rows = field
        .entrants
        .iter()
        .map(|e| ChecklistRow {
            player: e.player,
            score: e.score,
            colours: e.colours.to_vec(),
            preference: checklist_preference(e),
            columns: SystemColumns::Dutch {
                bye_eligible: e.bye_eligible,
                float1: floated(e.float1),
                float2: floated(e.float2),
            },
            opponents: checklist_opponents(history, e.player),
        })
        .collect();
    Checklist {
        round: r.number,
        rows,
    }
}

/// 2017 C.2: a player who had a PAB or won a game by forfeit may not get the PAB (a
/// requested full-point bye does not bar it).
pub fn pab_barred_2017(h: &crate::systems::common::PlayerHistory) -> bool {
    h.had_pab || h.entries.iter().any(won_by_forfeit)
}

/// A game the player won because the opponent did not play it.
fn won_by_forfeit(e: &crate::model::RoundEntry) -> bool {
    use crate::model::GameResult;
    matches!(
        e,
        crate::model::RoundEntry::Game {
            colour: Colour::White,
            result: GameResult::WhiteWinsForfeit,
            ..
        } | crate::model::RoundEntry::Game {
            colour: Colour::Black,
            result: GameResult::BlackWinsForfeit,
            ..
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use Colour::{Black as B, White as W};

    #[test]
    fn preferences_follow_art_1_7() {
        assert_eq!(preference(&[]), (None, Strength::None, 0, None));
        assert_eq!(preference(&[W]), (Some(B), Strength::Strong, 1, None));
        assert_eq!(preference(&[W, B]), (Some(W), Strength::Mild, 0, None));
        assert_eq!(
            preference(&[B, W, W]),
            (Some(B), Strength::Absolute, 1, Some(W))
        );
        assert_eq!(
            preference(&[W, B, W, W]),
            (Some(B), Strength::Absolute, 2, Some(W))
        );
        assert_eq!(
            preference(&[W, W, B, W]),
            (Some(B), Strength::Absolute, 2, None)
        );
        assert_eq!(preference(&[W, B, W]), (Some(B), Strength::Strong, 1, None));
    }
}
