//! JavaPairing 2.9's machinery shared by its three Swiss engines: Amalfi Rating, Simple
//! Swiss and Perfect Colours with its old Dubov rounds (javapairing.md §1, a description of
//! JavaPairing 2.9 that is not in this repository).
//!
//! Everything here is written once and parametrised by [`Variant`] where the engines differ:
//! the ranking [RK], the colour string [CH], the colour due with its toggle memory [CD],
//! legality and colour of a pair [LEG], the bye [BY], ARO [ARO], the output order [OUT] and
//! round 1 [R1]. The group searches that Simple Swiss and the old Dubov share (§3.5-3.7) are
//! in [`search`].
//!
//! Players keep their [`PlayerIdx`]; JavaPairing's "ID" is the pairing number (CG-2), which
//! for a TRF file is the starting rank.
pub mod search;

use std::fmt::Write as _;

use super::{History, RoundToPair};
use crate::model::validate::{Problem, Problems};
use crate::model::{Colour, PlayerIdx, RoundEntry, Score};
use crate::systems::{Board, Explanation, PairError};

/// Which engine is asking: the rules of §1 differ in a few places.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Amalfi Rating (file type 4).
    Amalfi,
    /// Simple Swiss (file type 2).
    Simple,
    /// Perfect Colours (file type 3) and the old Dubov rounds it runs with its own rules.
    PerfectColours,
}

/// Which step of [CD] (§1.3) gave a colour due.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DueRule {
    /// Step 1 (Perfect Colours): the opposite of the previous round's game.
    PreviousGame,
    /// Step 2: the string ends `WW` or `BB`.
    TwoInARow,
    /// Step 3: more Whites or more Blacks.
    Counts,
    /// Step 4: the last played colour.
    LastColour,
    /// Step 5: never played; the round-wide toggle.
    Toggle,
}

impl DueRule {
    pub fn describe(self) -> &'static str {
        match self {
            DueRule::PreviousGame => "[CD 1] opposite of the previous round's game",
            DueRule::TwoInARow => "[CD 2] last two played games of one colour",
            DueRule::Counts => "[CD 3] more games with one colour",
            DueRule::LastColour => "[CD 4] opposite of the last played colour",
            DueRule::Toggle => "[CD 5] never played: round-1 board 1 and the toggle",
        }
    }
}

/// Which step of [LEG] (§1.4) gave White.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourRule {
    /// Step 4, round 1, the first pair: CG-8's colour for ID 1.
    FirstPair,
    /// Step 4, round 1: alternate "lower ID White" / "higher ID White" pair by pair.
    Alternate,
    /// Steps 5.1-5.2: fewer Whites gets White.
    FewerWhites,
    /// Steps 5.3-5.4: fewer Blacks gets Black.
    FewerBlacks,
    /// Step 5.5.2: the most recent position where the two strings differ.
    LatestDifference,
    /// Step 5.5.3 (Amalfi, Simple): the lower ID alternates his last colour.
    LowerIdAlternates,
    /// Step 5.5.3 quirk: the lower ID never played, so the first of the call gets White.
    NeverPlayedFirstWhite,
    /// Step 5.5.3 (Perfect Colours): the higher ARO gets White.
    HigherAro,
    /// … then the lower rating.
    LowerRating,
    /// … then the lower ID.
    LowerId,
    /// Perfect Colours rounds 2..R-1 (§4.4): the player due White.
    DueWhite,
}

impl ColourRule {
    pub fn describe(self) -> &'static str {
        match self {
            ColourRule::FirstPair => "[LEG 4] round 1, first pair: first-round colour of ID 1",
            ColourRule::Alternate => "[LEG 4] round 1: alternates with the pair before",
            ColourRule::FewerWhites => "[LEG 5.1-5.2] fewer Whites gets White",
            ColourRule::FewerBlacks => "[LEG 5.3-5.4] fewer Blacks gets Black",
            ColourRule::LatestDifference => {
                "[LEG 5.5.2] latest differing played colour: the one with Black gets White"
            }
            ColourRule::LowerIdAlternates => {
                "[LEG 5.5.3] identical histories: the lower ID alternates his last colour"
            }
            ColourRule::NeverPlayedFirstWhite => {
                "[LEG 5.5.3] identical histories, never played: the first of the pair gets White"
            }
            ColourRule::HigherAro => "[LEG 5.5.3] identical histories: the higher ARO gets White",
            ColourRule::LowerRating => {
                "[LEG 5.5.3] identical histories, equal ARO: the lower rating gets White"
            }
            ColourRule::LowerId => {
                "[LEG 5.5.3] identical histories, equal ARO and rating: the lower ID gets White"
            }
            ColourRule::DueWhite => "[PCS-SEARCH] the player due White gets White",
        }
    }
}

/// Why [LEG] refused a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Step 2: they met in a played game.
    Met,
    /// CG-10: the pair is forbidden (treated as having met).
    Forbidden,
    /// Steps 5.1-5.4: the preferred allocation gives someone a third colour in a row.
    ThirdInARow,
    /// Step 5.5.1: both strings end with the same two colours.
    SameTwoInARow,
    /// Step 5.5 (after 2-3): the preferred allocation leaves a difference above 2.
    Difference,
}

impl Refusal {
    pub fn describe(self) -> &'static str {
        match self {
            Refusal::Met => "[LEG 2] already met",
            Refusal::Forbidden => "CG-10 forbidden pair (counts as met)",
            Refusal::ThirdInARow => "[LEG 5] preferred colours give a third in a row",
            Refusal::SameTwoInARow => "[LEG 5.5.1] both ended with the same colour twice",
            Refusal::Difference => "[LEG 5.5] preferred colours give a difference above 2",
        }
    }
}

/// The answer of [LEG] for a pair (A, B).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leg {
    Legal {
        white: PlayerIdx,
        black: PlayerIdx,
        rule: ColourRule,
    },
    Illegal(Refusal),
}

impl Leg {
    pub fn is_legal(self) -> bool {
        matches!(self, Leg::Legal { .. })
    }

    pub fn board(self) -> Option<Board> {
        match self {
            Leg::Legal { white, black, .. } => Some(Board { white, black }),
            Leg::Illegal(_) => None,
        }
    }
}

/// Where ID 1 sat on board 1 of round 1, which [CD] step 5 reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BoardOne {
    IdOneWhite,
    IdOneBlack,
    /// ID 1 had no record on board 1 (absent, bye, or no round 1 yet).
    Neither,
}

/// Everything §1 needs about the round to pair, computed once.
pub struct Field<'a> {
    pub r: &'a RoundToPair,
    /// The weak separations of the round (SEP-5.3, `search.rs`).
    pub weak: crate::model::WeakSeparations,
    pub variant: Variant,
    /// The round to pair (`r`).
    pub round: u32,
    /// The announced number of rounds (`R`).
    pub total: u32,
    /// `r mod R = 0`.
    pub last_round: bool,
    /// JavaPairing's ID (the pairing number).
    pub id: Vec<u32>,
    /// Points for pairing.
    pub score: Vec<Score>,
    pub rating: Vec<u32>,
    /// Paired this round (not withdrawn, absent, or on a requested bye).
    pub present: Vec<bool>,
    /// Played colours in order ([CH] without the leading blanks).
    pub colours: Vec<super::RoundList<Colour>>,
    pub whites: Vec<u32>,
    pub blacks: Vec<u32>,
    /// Colour of a real game in round r-1 ([CD] step 1).
    pub previous_colour: Vec<Option<Colour>>,
    /// Opponents met over the board, sorted.
    met: Vec<super::RoundList<PlayerIdx>>,
    /// The forbidden groups (CG-10) each player belongs to this round, sorted.
    clubs: Vec<Vec<u32>>,
    /// Scored more than 0 in an unplayed round ([BY] step 1).
    pub scored_unplayed: Vec<bool>,
    /// [ARO], floor of the mean.
    pub aro: Vec<u32>,
    /// [RK]: every registered player, present or not.
    pub ranking: Vec<PlayerIdx>,
    /// Number of present players (`P`).
    pub present_count: usize,
    board_one: BoardOne,
    /// CG-8 as JavaPairing's `firstWhite`: ID 1 gets White on board 1 of round 1.
    id_one_white: bool,
}

impl<'a> Field<'a> {
    /// Builds the field, or says why these systems cannot pair the round.
    pub fn build(r: &'a RoundToPair, variant: Variant) -> Result<Field<'a>, PairError> {
        let t = &r.tournament;
        r.require_results()?;
        if t.total_rounds == 0 {
            // The last-round rules (§1.4 step 5-6), the Amalfi step k and the Perfect Colours
            // switch all need R; a snapshot without it cannot be paired by these rules.
            return Err(PairError::Invalid(Problems(vec![Problem::new(
                "tournament.total_rounds",
                "the JavaPairing systems need the total number of rounds (last-round rules, Amalfi's step k)",
            )])));
        }
        let history = History::build(r);
        let n = t.players.len();
        let round = r.number;
        let total = t.total_rounds;
        let id: Vec<u32> = (0..n).map(|p| t.pairing_number(p)).collect();
        let score: Vec<Score> = history.players.iter().map(|h| h.pairing_points).collect();
        let rating: Vec<u32> = t.players.iter().map(|p| p.rating).collect();
        let mut present = vec![false; n];
        for &p in &r.participants {
            present[p] = true;
        }
        let colours: Vec<super::RoundList<Colour>> =
            history.players.iter().map(|h| h.colours.clone()).collect();
        let whites: Vec<u32> = colours
            .iter()
            .map(|c| c.iter().filter(|&&x| x == Colour::White).count() as u32)
            .collect();
        let blacks: Vec<u32> = colours
            .iter()
            .zip(&whites)
            .map(|(c, &w)| c.len() as u32 - w)
            .collect();
        let previous_colour: Vec<Option<Colour>> = history
            .players
            .iter()
            .map(|h| {
                (round as usize)
                    .checked_sub(2)
                    .and_then(|i| h.entries.get(i))
                    .and_then(RoundEntry::played_colour)
            })
            .collect();
        let met: Vec<super::RoundList<PlayerIdx>> = history
            .players
            .iter()
            .map(|h| {
                let mut o = h.opponents.clone();
                o.sort_unstable();
                o.dedup();
                o
            })
            .collect();
        // CG-10 as group membership: a big club stays linear in its size.
        let mut clubs: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (g, fp) in t.forbidden_pairings.iter().enumerate() {
            if !fp.applies_to(round) {
                continue;
            }
            for &a in &fp.players {
                if let Some(list) = clubs.get_mut(a) {
                    list.push(g as u32);
                }
            }
        }
        for list in &mut clubs {
            list.sort_unstable();
            list.dedup();
        }
        let scored_unplayed: Vec<bool> = history
            .players
            .iter()
            .map(|h| h.unplayed_points.iter().any(|&s| s > Score::ZERO))
            .collect();
        // [ARO]: one value per past round, the opponent's rating for a real game and the
        // player's own otherwise.
        let past = round.saturating_sub(1) as usize;
        let aro: Vec<u32> = history
            .players
            .iter()
            .enumerate()
            .map(|(p, h)| {
                if past == 0 {
                    return 0;
                }
                let sum: u64 = (0..past)
                    .map(|i| {
                        let own = rating[p];
                        match h.entries.get(i).and_then(RoundEntry::met_opponent) {
                            Some(o) => u64::from(rating.get(o).copied().unwrap_or(own)),
                            None => u64::from(own),
                        }
                    })
                    .sum();
                (sum / past as u64) as u32
            })
            .collect();
        let mut ranking: Vec<PlayerIdx> = (0..n).collect();
        ranking.sort_by(|&a, &b| {
            score[b]
                .cmp(&score[a])
                .then(rating[b].cmp(&rating[a]))
                .then(id[a].cmp(&id[b]))
        });
        let board_one = board_one(r, &id);
        Ok(Field {
            r,
            variant,
            round,
            total,
            last_round: round.is_multiple_of(total),
            id,
            score,
            rating,
            present_count: r.participants.len(),
            present,
            colours,
            whites,
            blacks,
            previous_colour,
            met,
            clubs,
            scored_unplayed,
            aro,
            ranking,
            board_one,
            id_one_white: r.initial_colour == Colour::White,
            weak: t.weak_separations(round),
        })
    }

    /// Warnings about settings these engines do not read.
    pub fn warnings(&self) -> Vec<crate::systems::Warning> {
        let t = &self.r.tournament;
        let mut out = Vec::new();
        if t.accelerations
            .iter()
            .any(|a| a.first_round <= self.round && self.round <= a.last_round)
        {
            out.push(crate::systems::Warning::new(
                "SETTING_IGNORED",
                "",
                "accelerations are ignored: JavaPairing's engines are described without acceleration (javapairing.md §0)",
            ));
        }
        out
    }

    /// The question JavaPairing asks when a group taking everybody left starts in the top
    /// half (javapairing.md §3, §5): answered No, said as a warning.
    pub fn switch_warning(&self, head: PlayerIdx) -> crate::systems::Warning {
        crate::systems::Warning::new(
            "SWITCH_SUGGESTED",
            "",
            format!(
                "round {}: a group taking everybody left starts in the top half at {}; JavaPairing would ask whether to switch to Amalfi Rating (answered No)",
                self.round,
                self.name(head)
            ),
        )
        .with_players(vec![head])
    }

    /// A player's id, for messages.
    pub fn name(&self, p: PlayerIdx) -> &str {
        self.r.id(p)
    }

    /// Present players in ranking order.
    pub fn present_ranking(&self) -> Vec<PlayerIdx> {
        self.ranking
            .iter()
            .copied()
            .filter(|&p| self.present[p])
            .collect()
    }

    /// Whether the two met in a played game or are a forbidden pair (CG-10).
    pub fn blocked(&self, a: PlayerIdx, b: PlayerIdx) -> bool {
        self.met[a].binary_search(&b).is_ok() || self.forbidden(a, b)
    }

    /// Whether the pair is forbidden (CG-10): the two share a forbidden group.
    pub fn forbidden(&self, a: PlayerIdx, b: PlayerIdx) -> bool {
        if a == b {
            return false;
        }
        let (x, y) = (&self.clubs[a], &self.clubs[b]);
        let (mut i, mut j) = (0, 0);
        while i < x.len() && j < y.len() {
            match x[i].cmp(&y[j]) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => return true,
            }
        }
        false
    }

    fn ends_twice(&self, p: PlayerIdx, c: Colour) -> bool {
        matches!(self.colours[p].as_slice(), [.., x, y] if *x == c && *y == c)
    }

    /// The colour string [CH] as text, blanks first, for explanations.
    pub fn colour_string(&self, p: PlayerIdx) -> String {
        let past = self.round.saturating_sub(1) as usize;
        let played = &self.colours[p];
        let mut s = String::with_capacity(past);
        for _ in played.len()..past {
            s.push('_');
        }
        for c in played {
            s.push(if *c == Colour::White { 'W' } else { 'B' });
        }
        s
    }

    /// Whether the colour prohibitions of §1.4 step 5 apply this round: every round for
    /// Perfect Colours, every round but the last for Amalfi and Simple.
    pub fn constrained(&self) -> bool {
        self.variant == Variant::PerfectColours || !self.last_round
    }

    /// [LEG] §1.4: whether A (the player being placed) and B may meet, and who gets White.
    /// `before` is the pair stored just before this one in the round (round 1 only).
    pub fn leg(&self, a: PlayerIdx, b: PlayerIdx, before: Option<Board>) -> Leg {
        if self.blocked(a, b) {
            return Leg::Illegal(if self.forbidden(a, b) {
                Refusal::Forbidden
            } else {
                Refusal::Met
            });
        }
        if self.round == 1 {
            let (white, rule) = self.round_one_white(a, b, before);
            let black = if white == a { b } else { a };
            return Leg::Legal { white, black, rule };
        }
        let constrained = self.constrained();
        let (wa, wb, ba, bb) = (
            self.whites[a],
            self.whites[b],
            self.blacks[a],
            self.blacks[b],
        );
        let legal = |white: PlayerIdx, rule: ColourRule| Leg::Legal {
            white,
            black: if white == a { b } else { a },
            rule,
        };
        // Steps 5.1-5.4: only three in a row is tested, never the difference.
        let by_counts = if wa < wb {
            Some((a, ColourRule::FewerWhites))
        } else if wa > wb {
            Some((b, ColourRule::FewerWhites))
        } else if ba < bb {
            Some((b, ColourRule::FewerBlacks))
        } else if ba > bb {
            Some((a, ColourRule::FewerBlacks))
        } else {
            None
        };
        if let Some((white, rule)) = by_counts {
            let black = if white == a { b } else { a };
            if constrained
                && (self.ends_twice(white, Colour::White) || self.ends_twice(black, Colour::Black))
            {
                return Leg::Illegal(Refusal::ThirdInARow);
            }
            return legal(white, rule);
        }
        // Step 5.5: equal counts, so the strings line up.
        if constrained
            && ((self.ends_twice(a, Colour::White) && self.ends_twice(b, Colour::White))
                || (self.ends_twice(a, Colour::Black) && self.ends_twice(b, Colour::Black)))
        {
            return Leg::Illegal(Refusal::SameTwoInARow);
        }
        let (white, rule) = self.equal_counts_white(a, b);
        if constrained {
            // Both have the same difference d; one ends at d+1, the other at d-1.
            let d = i64::from(wa) - i64::from(ba);
            if (d + 1).abs() > 2 || (d - 1).abs() > 2 {
                return Leg::Illegal(Refusal::Difference);
            }
        }
        legal(white, rule)
    }

    /// §1.4 steps 5.5.2-5.5.3: White for two players with equal W and B counts.
    fn equal_counts_white(&self, a: PlayerIdx, b: PlayerIdx) -> (PlayerIdx, ColourRule) {
        let (ca, cb) = (&self.colours[a], &self.colours[b]);
        // Walk back from the most recent played game; equal counts mean equal lengths.
        for (x, y) in ca.iter().rev().zip(cb.iter().rev()) {
            if x != y {
                let white = if *x == Colour::White { b } else { a };
                return (white, ColourRule::LatestDifference);
            }
        }
        match self.variant {
            Variant::Amalfi | Variant::Simple => {
                let lower = if self.id[a] <= self.id[b] { a } else { b };
                let other = if lower == a { b } else { a };
                match self.colours[lower].last() {
                    Some(Colour::White) => (other, ColourRule::LowerIdAlternates),
                    Some(Colour::Black) => (lower, ColourRule::LowerIdAlternates),
                    // The quirk: White when he is A, Black when he is B, so A gets White.
                    None => (a, ColourRule::NeverPlayedFirstWhite),
                }
            }
            Variant::PerfectColours => {
                if self.aro[a] != self.aro[b] {
                    let white = if self.aro[a] > self.aro[b] { a } else { b };
                    (white, ColourRule::HigherAro)
                } else if self.rating[a] != self.rating[b] {
                    let white = if self.rating[a] < self.rating[b] {
                        a
                    } else {
                        b
                    };
                    (white, ColourRule::LowerRating)
                } else {
                    let white = if self.id[a] <= self.id[b] { a } else { b };
                    (white, ColourRule::LowerId)
                }
            }
        }
    }

    /// §1.4 step 4: round-1 colours. The first pair follows CG-8 (JavaPairing's
    /// `firstWhite`): with ID 1 White, A gets White if he is ID 1, otherwise B. Every later
    /// pair flips "lower ID White" relative to the pair stored before it.
    pub fn round_one_white(
        &self,
        a: PlayerIdx,
        b: PlayerIdx,
        before: Option<Board>,
    ) -> (PlayerIdx, ColourRule) {
        let (low, high) = if self.id[a] <= self.id[b] {
            (a, b)
        } else {
            (b, a)
        };
        match before {
            None => {
                // Completion for `XXC black1`: the mirror of the harness rule.
                let a_white = (self.id[a] == 1) == self.id_one_white;
                (if a_white { a } else { b }, ColourRule::FirstPair)
            }
            Some(prev) => {
                let prev_lower_white = self.id[prev.white] < self.id[prev.black];
                (
                    if prev_lower_white { high } else { low },
                    ColourRule::Alternate,
                )
            }
        }
    }

    /// [BY] step 1: present and never scored in an unplayed round.
    pub fn bye_eligible(&self, p: PlayerIdx) -> bool {
        self.present[p] && !self.scored_unplayed[p]
    }

    /// [BY] steps 2 and 4 (Amalfi, Simple, Dubov): the lowest eligible present player, else
    /// the last present player. `None` when P is even.
    pub fn bye_lowest_eligible(&self, ex: &mut Trace, rule: &str) -> Option<PlayerIdx> {
        if self.present_count.is_multiple_of(2) {
            return None;
        }
        let found = self
            .ranking
            .iter()
            .rev()
            .copied()
            .find(|&p| self.bye_eligible(p));
        Some(self.bye_answer(
            found,
            ex,
            rule,
            "the lowest-ranked player who never scored without playing",
        ))
    }

    fn bye_answer(
        &self,
        found: Option<PlayerIdx>,
        ex: &mut Trace,
        rule: &str,
        why: &str,
    ) -> PlayerIdx {
        match found {
            Some(p) => {
                ex.step(
                    rule,
                    format!("bye to {}: {why} [BY]", self.name(p)),
                    vec![p],
                );
                p
            }
            None => {
                // [BY] step 4. JavaPairing would take the last of the whole list even when
                // he is withdrawn; a withdrawn player cannot take a bye here, so the last
                // present one does (completion).
                let p = self
                    .ranking
                    .iter()
                    .rev()
                    .copied()
                    .find(|&p| self.present[p])
                    .unwrap_or_default();
                ex.step(
                    rule,
                    format!(
                        "bye to {}: nobody qualifies, so the last-ranked present player gets it [BY 4]",
                        self.name(p)
                    ),
                    vec![p],
                );
                p
            }
        }
    }

    /// [BY] step 3 (Perfect Colours rounds 2..R-1): the dominant due colour decides.
    pub fn bye_dominant_colour(&self, dues: &mut Dues, ex: &mut Trace) -> Option<PlayerIdx> {
        if self.present_count.is_multiple_of(2) {
            return None;
        }
        let (mut w, mut b) = (0usize, 0usize);
        for &p in self.ranking.iter().filter(|&&p| self.present[p]) {
            match dues.due(self, p).0 {
                Colour::White => w += 1,
                Colour::Black => b += 1,
            }
        }
        let dominant = match w.cmp(&b) {
            std::cmp::Ordering::Greater => Some(Colour::White),
            std::cmp::Ordering::Less => Some(Colour::Black),
            std::cmp::Ordering::Equal => None,
        };
        ex.step(
            "CA-3",
            format!(
                "dues of the present players: {w} White, {b} Black; dominant: {} [BY 3.1]",
                dominant.map_or("none".to_string(), |c| c.to_string())
            ),
            Vec::new(),
        );
        dues.reset();
        // Only eligible players are asked their due in this walk (the text leaves the order
        // of the two tests open; see the module notes of colour_alternation).
        let found =
            self.ranking.iter().rev().copied().find(|&p| {
                self.bye_eligible(p) && dominant.is_none_or(|c| dues.due(self, p).0 == c)
            });
        let why = match dominant {
            Some(c) => format!(
                "the lowest-ranked player due {c} (the dominant due colour) who never scored without playing"
            ),
            None => {
                "no dominant due colour: the lowest-ranked player who never scored without playing"
                    .to_string()
            }
        };
        Some(self.bye_answer(found, ex, "CA-3", &why))
    }

    /// [R1] §1.8: the players in ID order, i-th against (i+h)-th, colours by §1.4 step 4.
    /// JavaPairing checks nothing in round 1; a forbidden pair (CG-10) is the one thing that
    /// can stop the natural pair, and then the next free player of the bottom half is taken,
    /// with backtracking (completion).
    pub fn round_one(
        &self,
        bye: Option<PlayerIdx>,
        ex: &mut Trace,
        rule: &str,
    ) -> Result<Vec<Board>, PairError> {
        let mut players: Vec<PlayerIdx> = self
            .r
            .participants
            .iter()
            .copied()
            .filter(|&p| Some(p) != bye)
            .collect();
        players.sort_by_key(|&p| self.id[p]);
        let h = players.len() / 2;
        let (top, bottom) = players.split_at(h);
        let partners = round_one_partners(self, top, bottom).ok_or_else(|| {
            PairError::NoLegalPairing {
                rule: "CG-10".to_string(),
                message: "round 1: the forbidden pairs leave no way to pair the top half with the bottom half".to_string(),
                explanation: ex.ex.clone(),
            }
        })?;
        ex.step(
            rule,
            format!(
                "round 1: {} players in ID order, the i-th meets the (i+{h})-th [R1]",
                players.len()
            ),
            Vec::new(),
        );
        let mut boards: Vec<Board> = Vec::with_capacity(h);
        for (i, &a) in top.iter().enumerate() {
            let b = bottom[partners[i]];
            if partners[i] != i {
                ex.step(
                    "CG-10",
                    format!(
                        "{} - {} is a forbidden pair: {} meets {} instead",
                        self.name(a),
                        self.name(bottom[i]),
                        self.name(a),
                        self.name(b)
                    ),
                    vec![a, bottom[i]],
                );
            }
            let (white, why) = self.round_one_white(a, b, boards.last().copied());
            let black = if white == a { b } else { a };
            ex.detail(rule, &[white, black], || {
                format!(
                    "{} - {}: {}",
                    self.name(white),
                    self.name(black),
                    why.describe()
                )
            });
            boards.push(Board { white, black });
        }
        Ok(boards)
    }
}

/// Partners (indices into `bottom`) for each of `top`, natural order first; `None` if the
/// forbidden pairs make it impossible.
fn round_one_partners(f: &Field, top: &[PlayerIdx], bottom: &[PlayerIdx]) -> Option<Vec<usize>> {
    // SEP-5.3, as in the group searches (`search.rs`): with a weak separation at the
    // default place, first with groupmates refused (kept if it pairs everyone), then with
    // each player's groupmates tried after his other candidates; placed last, only the
    // latter. Without one, JavaPairing's search as it is.
    let places = f.weak.shared_places(top.iter().chain(bottom).copied());
    if places.is_empty() {
        return round_one_search(f, top, bottom, WeakRoundOne::Off);
    }
    if places.contains(&crate::model::WeakPlace::Default)
        && let Some(found) = round_one_search(f, top, bottom, WeakRoundOne::Refuse)
    {
        return Some(found);
    }
    round_one_search(f, top, bottom, WeakRoundOne::Last)
}

/// How [R1]'s search treats weak separations' groupmates (SEP-5.3).
#[derive(Clone, Copy, PartialEq, Eq)]
enum WeakRoundOne {
    Off,
    Refuse,
    Last,
}

fn round_one_search(
    f: &Field,
    top: &[PlayerIdx],
    bottom: &[PlayerIdx],
    weak: WeakRoundOne,
) -> Option<Vec<usize>> {
    let h = top.len();
    let mut used = vec![false; h];
    let mut choice: Vec<usize> = Vec::with_capacity(h);
    // Candidate order for top[i]: bottom[i], then the others in order.
    let order = |i: usize, k: usize| -> usize {
        if k == 0 {
            i
        } else if k <= i {
            k - 1
        } else {
            k
        }
    };
    // SEP-5.3: the groupmates after the others (stable), or refused.
    let lists: Vec<Vec<usize>> = if weak == WeakRoundOne::Off {
        Vec::new()
    } else {
        (0..h)
            .map(|i| {
                let all: Vec<usize> = (0..h).map(|k| order(i, k)).collect();
                let (mut others, mates): (Vec<usize>, Vec<usize>) = all
                    .into_iter()
                    .partition(|&j| !f.weak.any_within(top[i], bottom[j]));
                if weak == WeakRoundOne::Last {
                    others.extend(mates);
                } else {
                    others.extend(mates.into_iter().filter(|&j| {
                        !f.weak
                            .within(top[i], bottom[j], crate::model::WeakPlace::Default)
                    }));
                }
                others
            })
            .collect()
    };
    let candidate = |i: usize, k: usize| -> Option<usize> {
        if lists.is_empty() {
            Some(order(i, k))
        } else {
            lists[i].get(k).copied()
        }
    };
    let mut next = vec![0usize; h + 1];
    let mut budget: u32 = 1_000_000;
    let mut i = 0;
    while i < h {
        let mut placed = false;
        while next[i] < h {
            let Some(j) = candidate(i, next[i]) else {
                next[i] = h;
                break;
            };
            next[i] += 1;
            budget = budget.saturating_sub(1);
            if !used[j] && !f.blocked(top[i], bottom[j]) {
                used[j] = true;
                choice.push(j);
                placed = true;
                break;
            }
        }
        if budget == 0 {
            return None;
        }
        if placed {
            i += 1;
            next[i] = 0;
        } else {
            let j = choice.pop()?;
            used[j] = false;
            i = i.checked_sub(1)?;
        }
    }
    Some(choice)
}

/// Where ID 1 sat on board 1 of round 1. The board is the game recorded as board 1, or
/// else ID 1's round-1 game: JavaPairing's own round 1 always puts ID 1 on board 1 when he
/// plays (§1.8, §2.3 in rating order).
fn board_one(r: &RoundToPair, id: &[u32]) -> BoardOne {
    let Some(round) = r.tournament.rounds.first() else {
        return BoardOne::Neither;
    };
    let is_one = |p: PlayerIdx| id.get(p) == Some(&1);
    let game = round.games.iter().find(|g| g.board == Some(1)).or_else(|| {
        round
            .games
            .iter()
            .find(|g| is_one(g.white) || is_one(g.black))
    });
    match game {
        Some(g) if is_one(g.white) => BoardOne::IdOneWhite,
        Some(g) if is_one(g.black) => BoardOne::IdOneBlack,
        _ => BoardOne::Neither,
    }
}

/// [CD] §1.3 with its round-wide toggle. One value lives for one pairing run; the order of
/// the questions matters for players who never played (step 5).
#[derive(Clone, Debug, Default)]
pub struct Dues {
    toggle: Option<Colour>,
    /// Number of questions asked, for tests and explanations.
    pub asked: u32,
}

impl Dues {
    pub fn new() -> Dues {
        Dues::default()
    }

    /// Forgets the toggle (Perfect Colours' bye choice, §4.2).
    pub fn reset(&mut self) {
        self.toggle = None;
    }

    /// Asks the colour due of `p` now.
    pub fn due(&mut self, f: &Field, p: PlayerIdx) -> (Colour, DueRule) {
        self.asked += 1;
        if f.variant == Variant::PerfectColours
            && let Some(c) = f.previous_colour[p]
        {
            return (c.opposite(), DueRule::PreviousGame);
        }
        if f.ends_twice(p, Colour::White) {
            return (Colour::Black, DueRule::TwoInARow);
        }
        if f.ends_twice(p, Colour::Black) {
            return (Colour::White, DueRule::TwoInARow);
        }
        match f.whites[p].cmp(&f.blacks[p]) {
            std::cmp::Ordering::Greater => return (Colour::Black, DueRule::Counts),
            std::cmp::Ordering::Less => return (Colour::White, DueRule::Counts),
            std::cmp::Ordering::Equal => {}
        }
        if let Some(&last) = f.colours[p].last() {
            return (last.opposite(), DueRule::LastColour);
        }
        let answer = match self.toggle {
            Some(previous) => previous.opposite(),
            None => {
                let odd = f.id[p] % 2 == 1;
                let black = if odd {
                    f.board_one == BoardOne::IdOneBlack
                } else {
                    f.board_one == BoardOne::IdOneWhite
                };
                if black { Colour::Black } else { Colour::White }
            }
        };
        self.toggle = Some(answer);
        (answer, DueRule::Toggle)
    }
}

/// [OUT] §1.7: JavaPairing's re-sort of the stored pairs when a Swiss engine breaks one:
/// higher score of the pair descending, then the sum descending, then the leader's ID
/// ascending, by an exchange sort.
pub fn sort_stored_pairs(f: &Field, pairs: &mut [Board]) {
    let key = |b: &Board| {
        let (sw, sb) = (f.score[b.white], f.score[b.black]);
        let leader = if sw > sb || (sw == sb && f.id[b.white] < f.id[b.black]) {
            b.white
        } else {
            b.black
        };
        (sw.max(sb), sw + sb, f.id[leader])
    };
    let before = |x: &Board, y: &Board| {
        let (kx, ky) = (key(x), key(y));
        kx.0 > ky.0 || (kx.0 == ky.0 && (kx.1 > ky.1 || (kx.1 == ky.1 && kx.2 < ky.2)))
    };
    for i in 0..pairs.len() {
        for j in i + 1..pairs.len() {
            if before(&pairs[j], &pairs[i]) {
                pairs.swap(i, j);
            }
        }
    }
}

/// An exchange sort as JavaPairing writes it: for each slot from the top, compare with every
/// later slot and swap when the later one must come first. Not stable.
pub fn exchange_sort<T>(items: &mut [T], must_precede: impl Fn(&T, &T) -> bool) {
    for i in 0..items.len() {
        for j in i + 1..items.len() {
            if must_precede(&items[j], &items[i]) {
                items.swap(i, j);
            }
        }
    }
}

/// Caps the per-candidate steps of an explanation so that a long search stays cheap to
/// explain: the summary steps are always kept.
pub struct Trace {
    pub ex: Explanation,
    details: u32,
    omitted: u32,
}

/// How many per-candidate steps a round's explanation keeps.
pub const TRACE_DETAIL_LIMIT: u32 = 2_000;

impl Default for Trace {
    fn default() -> Trace {
        Trace::new()
    }
}

impl Trace {
    pub fn new() -> Trace {
        Trace {
            ex: Explanation::default(),
            details: 0,
            omitted: 0,
        }
    }

    pub fn group(&mut self, label: impl Into<String>) {
        self.ex.group(label);
    }

    pub fn step(&mut self, rule: &str, message: impl Into<String>, players: Vec<PlayerIdx>) {
        self.ex.step(rule, message, players);
    }

    /// Whether a per-candidate step would still be kept.
    #[inline]
    pub fn wants_detail(&self) -> bool {
        self.details < TRACE_DETAIL_LIMIT
    }

    /// Counts a per-candidate step left out.
    #[inline]
    pub fn skip(&mut self) {
        self.omitted += 1;
    }

    /// A per-candidate step; built only while under the cap.
    #[inline]
    pub fn detail(&mut self, rule: &str, players: &[PlayerIdx], message: impl FnOnce() -> String) {
        if self.details < TRACE_DETAIL_LIMIT {
            self.details += 1;
            self.ex.detail(rule, message(), players.to_vec());
        } else {
            self.omitted += 1;
        }
    }

    /// Closes the trace: says how many detail steps were left out.
    pub fn finish(mut self) -> Explanation {
        if self.omitted > 0 {
            let mut msg = String::new();
            let _ = write!(
                msg,
                "{} more search steps not listed (the explanation keeps the first {TRACE_DETAIL_LIMIT})",
                self.omitted
            );
            self.ex.detail("CG-7", msg, Vec::new());
        }
        self.ex
    }
}

/// The balancing colour of a group: the colour fewer members are due (javapairing.md §3.3 step 3.4.4; the old Dubov engine of §5 uses it too).
pub fn balancing_colour(group: &[PlayerIdx], due: &[Colour]) -> Option<Colour> {
    let w = group.iter().filter(|&&p| due[p] == Colour::White).count();
    let b = group.len() - w;
    match w.cmp(&b) {
        std::cmp::Ordering::Greater => Some(Colour::Black),
        std::cmp::Ordering::Less => Some(Colour::White),
        std::cmp::Ordering::Equal => None,
    }
}
