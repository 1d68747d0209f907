//! What the Lim system knows of each player paired this round: pairing score (with
//! acceleration, C.04.7), rating (the Maxi-tournament rule), played colours (GHR 3.4), the
//! colour due (art. 5), whether the player floated in the previous round (art. 3.10), PAB
//! eligibility (C.04.1 art. 4), and who is compatible with whom (art. 2.1, art. 6).
use crate::matching::BitGraph;
use crate::model::{Colour, PlayerIdx, Score};
use crate::systems::RoundToPair;
use crate::systems::common::History;

/// The rating band of a Maxi-tournament (art. 3.2.3, 3.8, 5.7).
pub const MAXI_BAND: u32 = 100;

/// A player taking part in this round's pairing.
#[derive(Clone, Debug)]
pub struct Entrant {
    pub player: PlayerIdx,
    /// Tournament pairing number: #1 is the "highest numbered" player of the text (art. 4.2).
    pub tpn: u32,
    /// The number whose parity decides colours when neither player has played (art. 7.2):
    /// the pairing number, and in round 1 the place among the players paired (reading L2:
    /// boards alternate).
    pub seat: u32,
    pub rating: u32,
    /// Pairing score: points (adjourned games as draws) plus virtual points (C.04.7 1.5).
    pub score: Score,
    /// Points without acceleration (board order).
    pub points: Score,
    /// Colours of the games played over the board, in order (forfeits skipped, GHR 3.4).
    pub colours: crate::systems::common::RoundList<Colour>,
    /// Art. 3.10: the previous round was a game played against an opponent of another score.
    pub floated_last: bool,
    /// C.04.1 art. 4: may receive the PAB.
    pub bye_eligible: bool,
}

impl Entrant {
    /// Whites minus blacks.
    pub fn colour_difference(&self) -> i32 {
        let w = self.colours.iter().filter(|&&c| c == Colour::White).count() as i32;
        2 * w - self.colours.len() as i32
    }

    /// Art. 5.1.1, 5.1.2: `colour` would be neither the third of a kind in a row nor three
    /// more of one colour than of the other.
    pub fn may_receive(&self, colour: Colour) -> bool {
        let third = matches!(self.colours.as_slice(), [.., a, b] if *a == colour && *b == colour);
        let diff = self.colour_difference() + if colour == Colour::White { 1 } else { -1 };
        !third && diff.abs() < 3
    }

    /// Art. 5.5, 5.6 (reading L13): the colour that equalises when the numbers differ, else
    /// the one that alternates with the last; none before a first game.
    pub fn due(&self) -> Option<Colour> {
        match self.colour_difference() {
            d if d > 0 => Some(Colour::Black),
            d if d < 0 => Some(Colour::White),
            _ => self.colours.last().map(|c| c.opposite()),
        }
    }
}

/// Everyone paired this round and who is compatible with whom.
pub struct Field {
    /// By pairing number ascending.
    pub entrants: Vec<Entrant>,
    compatible: BitGraph,
    /// Who met whom over the board, or may not meet (CG-4, CG-10).
    met: BitGraph,
    /// Rounds played before this one.
    pub rounds_played: u32,
    pub last_round: bool,
    /// The Median Scoregroup's score (art. 2.2): half of what the rounds played can give.
    pub median: Score,
    pub maxi: bool,
    /// The weak separations of the round (SEP-5), by player index.
    pub weak: crate::model::WeakSeparations,
}

impl Field {
    pub fn len(&self) -> usize {
        self.entrants.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entrants.is_empty()
    }

    /// Art. 2.1 (and art. 6 in the last round) between entrants `a` and `b`.
    #[inline]
    pub fn compatible(&self, a: usize, b: usize) -> bool {
        self.compatible.edge(a, b)
    }

    /// SEP-5: whether entrants `a` and `b` share a group of a weak separation at the
    /// default place.
    #[inline]
    pub fn weak_within(&self, a: usize, b: usize) -> bool {
        self.weak.within(
            self.entrants[a].player,
            self.entrants[b].player,
            crate::model::WeakPlace::Default,
        )
    }

    /// SEP-5.1 (`WEAK_FIRST`): whether entrants `a` and `b` share a group of a weak
    /// separation placed first.
    #[inline]
    pub fn weak_first(&self, a: usize, b: usize) -> bool {
        self.weak.within(
            self.entrants[a].player,
            self.entrants[b].player,
            crate::model::WeakPlace::First,
        )
    }

    /// SEP-5.1 (`WEAK_LAST`): whether entrants `a` and `b` share a group of a weak
    /// separation placed last.
    #[inline]
    pub fn weak_last(&self, a: usize, b: usize) -> bool {
        self.weak.within(
            self.entrants[a].player,
            self.entrants[b].player,
            crate::model::WeakPlace::Last,
        )
    }

    /// SEP-5: whether two of `entrants` share a weak group at `place`.
    pub fn weak_in_at(&self, entrants: &[usize], place: crate::model::WeakPlace) -> bool {
        !self.weak.is_empty()
            && self
                .weak
                .shared_places(entrants.iter().map(|&e| self.entrants[e].player))
                .contains(&place)
    }

    /// SEP-5: whether two of `entrants` share a weak group.
    pub fn weak_in(&self, entrants: &[usize]) -> bool {
        !self.weak.is_empty()
            && !self
                .weak
                .shared_places(entrants.iter().map(|&e| self.entrants[e].player))
                .is_empty()
    }

    /// Whether entrants `a` and `b` met, or may not meet (a forbidden pair, CG-10).
    pub fn met(&self, a: usize, b: usize) -> bool {
        self.met.edge(a, b)
    }

    /// Art. 3.2.3, 3.8, 5.7: in a Maxi-tournament a choice made for colours is allowed only
    /// between players rated within 100 points; always allowed otherwise.
    pub fn within_band(&self, a: usize, b: usize) -> bool {
        !self.maxi || self.entrants[a].rating.abs_diff(self.entrants[b].rating) <= MAXI_BAND
    }

    /// The same field with only the pairs `keep` allows compatible. The procedure run on
    /// it reaches exactly a pairing given whole, so that the "why?" comparison
    /// (`check::why::lim`) reads which pairings its procedure cracks for the Median
    /// Scoregroup (art. 2.6).
    pub(crate) fn only(&self, keep: impl Fn(usize, usize) -> bool) -> Field {
        Field {
            entrants: self.entrants.clone(),
            compatible: BitGraph::from_fn(self.len(), |a, b| {
                self.compatible.edge(a, b) && keep(a, b)
            }),
            met: self.met.clone(),
            rounds_played: self.rounds_played,
            last_round: self.last_round,
            median: self.median,
            maxi: self.maxi,
            weak: self.weak.clone(),
        }
    }

    pub fn build(r: &RoundToPair, history: &History, maxi: bool) -> Field {
        let t = &r.tournament;
        let round = r.number;
        let virtual_points = |p: PlayerIdx, round: u32| -> Score {
            t.accelerations
                .iter()
                .filter(|a| a.player == p && a.first_round <= round && round <= a.last_round)
                .map(|a| a.points)
                .sum()
        };
        let entrants: Vec<Entrant> = r
            .participants
            .iter()
            .map(|&p| {
                let h = history.player(p);
                // Art. 3.10 (reading L11): a float is a game played in the previous round
                // against an opponent whose pairing score then differed.
                let floated_last = round >= 2
                    && h.entries
                        .get(round as usize - 2)
                        .and_then(|e| e.met_opponent())
                        .is_some_and(|o| {
                            let mine = h.points_before(round - 1) + virtual_points(p, round - 1);
                            let theirs = history.player(o).points_before(round - 1)
                                + virtual_points(o, round - 1);
                            mine != theirs
                        });
                Entrant {
                    player: p,
                    tpn: t.pairing_number(p),
                    seat: t.pairing_number(p),
                    rating: t.players[p].rating,
                    score: h.pairing_points + virtual_points(p, round),
                    points: h.pairing_points,
                    colours: h.colours.clone(),
                    floated_last,
                    bye_eligible: history.pab_eligible(p, t.scoring.win),
                }
            })
            .collect();
        let rounds_played = round - 1;
        let last_round = t.total_rounds > 0 && round >= t.total_rounds;
        let median = Score::from_tenths(t.scoring.win.tenths() * rounds_played as i64 / 2);
        let mut index = vec![usize::MAX; t.players.len()];
        for (i, e) in entrants.iter().enumerate() {
            index[e.player] = i;
        }
        let at = |p: PlayerIdx| index.get(p).copied().filter(|&i| i != usize::MAX);
        let mut met = BitGraph::new(entrants.len());
        for (a, e) in entrants.iter().enumerate() {
            for &o in &history.player(e.player).opponents {
                if let Some(b) = at(o) {
                    met.set_edge(a, b, true);
                }
            }
        }
        for (x, y) in history.forbidden_pairs() {
            if let (Some(a), Some(b)) = (at(x), at(y)) {
                met.set_edge(a, b, true);
            }
        }
        let allowed: Vec<(bool, bool)> = entrants
            .iter()
            .map(|e| (e.may_receive(Colour::White), e.may_receive(Colour::Black)))
            .collect();
        let compatible = BitGraph::from_fn(entrants.len(), |a, b| {
            if met.edge(a, b) {
                return false;
            }
            // Art. 6 (reading L5): in the last round Basic Rule 5 comes first, so players of
            // the same score who have not met are compatible whatever their colours.
            if last_round && entrants[a].score == entrants[b].score {
                return true;
            }
            // Art. 2.1: some allocation keeps both within art. 5.1.1-5.1.2.
            let ((wa, ba), (wb, bb)) = (allowed[a], allowed[b]);
            (wa && bb) || (ba && wb)
        });
        Field {
            entrants,
            compatible,
            met,
            rounds_played,
            last_round,
            median,
            maxi,
            weak: t.weak_separations(round),
        }
    }
}
