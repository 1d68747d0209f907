//! What the Dubov system (C.04.4.1, 2026) knows of each player paired this round: pairing
//! score (with acceleration, C.04.7), ARO (art. 1.7), colour preference (art. 1.6),
//! upfloats (art. 1.8, 2.3), PAB eligibility ([C2]) and who may meet whom ([C1], [C3]).
use crate::matching::BitGraph;
use crate::model::{Colour, PlayerIdx, Score, WeakPlace, WeakSeparations};
use crate::systems::RoundToPair;
use crate::systems::common::fide_players::{Strength, preference};
use crate::systems::common::{Float, History};

/// A player taking part in this round's pairing.
#[derive(Clone, Debug)]
pub struct Entrant {
    pub player: PlayerIdx,
    /// Tournament pairing number (art. 1.2).
    pub tpn: u32,
    /// Pairing score: points (adjourned games as draws) plus virtual points (C.04.7).
    pub score: Score,
    /// Points without acceleration (board order).
    pub points: Score,
    /// Average rating of the opponents met over the board, rounded half up; 0 before the
    /// first game (art. 1.7).
    pub aro: u32,
    /// Colours of the games played over the board, in order (forfeits do not count).
    pub colours: crate::systems::common::RoundList<Colour>,
    /// The colour preference (art. 1.6): a player without games wants Black, mildly
    /// (art. 1.6.4).
    pub pref: Colour,
    pub strength: Strength,
    /// Times upfloated so far (art. 1.8): played games against a higher-scored opponent.
    pub upfloats: u32,
    /// Upfloated in the previous round ([C10]).
    pub upfloated_last: bool,
    /// [C2]: may receive the PAB.
    pub bye_eligible: bool,
    /// Games played over the board (art. 3.1.4).
    pub played: u32,
}

impl Entrant {
    pub fn absolute(&self) -> bool {
        self.strength == Strength::Absolute
    }

    pub fn has_played(&self) -> bool {
        !self.colours.is_empty()
    }
}

/// Everyone paired this round and who may meet whom.
pub struct Field {
    /// By pairing score descending, then TPN ascending.
    pub entrants: Vec<Entrant>,
    /// [C1] and [C3] over `entrants`.
    pub legal: BitGraph,
    /// Pairing the last round (XXR): [C8]-[C10] are not applied (art. 2.3.4-2.3.6).
    pub last_round: bool,
    /// MaxT = 2 + [Rnds/5] (art. 1.8.2).
    pub max_t: u32,
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

    #[inline]
    pub fn legal(&self, a: usize, b: usize) -> bool {
        a != b && self.legal.edge(a, b)
    }

    /// A maximum upfloater has been upfloated MaxT times already (art. 1.8.1).
    /// SEP-5: whether entrants `a` and `b` share a group of a weak separation at `place`.
    #[inline]
    pub fn weak_within(&self, a: usize, b: usize, place: WeakPlace) -> bool {
        self.weak
            .within(self.entrants[a].player, self.entrants[b].player, place)
    }

    /// SEP-5: whether two of `entrants` share a weak group at some place.
    pub fn weak_in(&self, entrants: &[usize]) -> bool {
        !self.weak.is_empty()
            && !self
                .weak
                .shared_places(entrants.iter().map(|&e| self.entrants[e].player))
                .is_empty()
    }

    pub fn is_max_upfloater(&self, e: usize) -> bool {
        self.entrants[e].upfloats >= self.max_t
    }

    pub fn build(r: &RoundToPair, history: &History) -> Field {
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
        let rating = |p: PlayerIdx| t.players.get(p).map_or(0, |pl| u64::from(pl.rating));
        let mut entrants: Vec<Entrant> = r
            .participants
            .iter()
            .map(|&p| {
                let h = history.player(p);
                let (pref, strength, _, _) = preference(&h.colours);
                // Art. 1.6.4: no game yet is a mild preference for Black.
                let (pref, strength) = match pref {
                    Some(c) => (c, strength),
                    None => (Colour::Black, Strength::Mild),
                };
                // Art. 1.7.1: rounded to the nearest integer, the higher on .5.
                let games = h.opponents.len() as u64;
                let aro = if games == 0 {
                    0
                } else {
                    let sum: u64 = h.opponents.iter().map(|&o| rating(o)).sum();
                    ((2 * sum + games) / (2 * games)) as u32
                };
                // Art. 1.8 / [C10]: an upfloat is a game played against an opponent with a
                // higher pairing score before that round.
                let upfloat =
                    |k: u32| history.float_in(p, k, scoring.loss, &virtual_points) == Float::Up;
                let upfloats = (1..round).filter(|&k| upfloat(k)).count() as u32;
                Entrant {
                    player: p,
                    tpn: t.pairing_number(p),
                    score: h.pairing_points + virtual_points(p, round),
                    points: h.pairing_points,
                    aro,
                    colours: h.colours.clone(),
                    pref,
                    strength,
                    upfloats,
                    upfloated_last: round > 1 && upfloat(round - 1),
                    // [C2] = C.04.1 art. 4: a PAB, a forfeit win or a full-point bye.
                    bye_eligible: history.pab_eligible(p, scoring.win),
                    played: h.colours.len() as u32,
                }
            })
            .collect();
        entrants.sort_by(|a, b| b.score.cmp(&a.score).then(a.tpn.cmp(&b.tpn)));
        let n = entrants.len();
        // [C1]: no rematch (and no forbidden pair, CG-10).
        let list: Vec<PlayerIdx> = entrants.iter().map(|e| e.player).collect();
        let mut legal = history.may_meet(&list);
        // [C3]: no two players with the same absolute preference meet; this system has no
        // topscorer exception.
        for colour in [Colour::White, Colour::Black] {
            let group: Vec<usize> = (0..n)
                .filter(|&i| entrants[i].absolute() && entrants[i].pref == colour)
                .collect();
            for (k, &a) in group.iter().enumerate() {
                for &b in &group[k + 1..] {
                    legal.set_edge(a, b, false);
                }
            }
        }
        let rounds = if t.total_rounds > 0 {
            t.total_rounds
        } else {
            round
        };
        Field {
            entrants,
            legal,
            last_round: t.total_rounds > 0 && round >= t.total_rounds,
            max_t: 2 + rounds / 5,
            weak: t.weak_separations(round),
        }
    }
}
