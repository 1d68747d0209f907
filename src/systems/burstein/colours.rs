//! Colour allocation of the 2026 text (C.04.4.2 art. 5.2): the first rule that decides.
//! The preferences are those of the Dutch system (C.04.3 art. 1.7 on the compressed
//! history, GHR 3.4), computed by `common::fide_players`.
use std::cmp::Ordering;

use super::index::Index;
use crate::model::{Colour, Score};
use crate::systems::common::fide_players::{Entrant, Strength};

/// The rule of art. 5.2 that gave the colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourRule {
    /// 5.2.1: neither has played; the higher-ranked player's pairing number decides.
    PairingNumber,
    /// 5.2.2: both preferences granted.
    BothPreferences,
    /// 5.2.3: the stronger preference granted.
    StrongerPreference,
    /// 5.2.4: alternation from the latest round in which the colours differed.
    Alternation,
    /// 5.2.5: the preference of the player higher in the Index.
    HigherIndex,
}

impl ColourRule {
    pub fn id(self) -> &'static str {
        match self {
            ColourRule::PairingNumber => "C.04.4.2 5.2.1",
            ColourRule::BothPreferences => "C.04.4.2 5.2.2",
            ColourRule::StrongerPreference => "C.04.4.2 5.2.3",
            ColourRule::Alternation => "C.04.4.2 5.2.4",
            ColourRule::HigherIndex => "C.04.4.2 5.2.5",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            ColourRule::PairingNumber => {
                "neither has played: the higher-ranked player's pairing number decides"
            }
            ColourRule::BothPreferences => "both colour preferences granted",
            ColourRule::StrongerPreference => "the stronger colour preference granted",
            ColourRule::Alternation => {
                "colours alternated from the latest round in which they differed"
            }
            ColourRule::HigherIndex => "the preference of the player higher in the Index granted",
        }
    }
}

/// The colour of `a` against `b`. `sa`, `sb` are their scores (5.2.1 ranks by score, then
/// pairing number); `ia`, `ib` their Index (5.2.5); `initial` the colour of an odd pairing
/// number's higher-ranked player in the first round (C.04.2, `XXC`).
pub fn allocate(
    a: &Entrant,
    b: &Entrant,
    (sa, sb): (Score, Score),
    (ia, ib): (&Index, &Index),
    initial: Colour,
) -> (Colour, ColourRule) {
    let pref = match (a.pref, b.pref) {
        (None, None) => {
            // 5.2.1: the higher-ranked player (more points, then the smaller pairing
            // number) gets the initial colour if his pairing number is odd.
            let a_top = (sa, std::cmp::Reverse(a.tpn)) > (sb, std::cmp::Reverse(b.tpn));
            let top = if a_top { a } else { b };
            let top_colour = if top.tpn % 2 == 1 {
                initial
            } else {
                initial.opposite()
            };
            let c = if a_top {
                top_colour
            } else {
                top_colour.opposite()
            };
            return (c, ColourRule::PairingNumber);
        }
        (Some(pa), Some(pb)) if pa == pb => pa,
        (Some(pa), _) => return (pa, ColourRule::BothPreferences),
        (None, Some(pb)) => return (pb.opposite(), ColourRule::BothPreferences),
    };
    // 5.2.3: absolute over the rest (between two absolute ones, the wider colour
    // difference), then strong over mild.
    if a.absolute() && (a.imbalance > b.imbalance || !b.absolute()) {
        return (pref, ColourRule::StrongerPreference);
    }
    if b.absolute() && (b.imbalance > a.imbalance || !a.absolute()) {
        return (pref.opposite(), ColourRule::StrongerPreference);
    }
    let a_strong = a.strength == Strength::Strong;
    let b_strong = b.strength == Strength::Strong;
    if a_strong && !b_strong {
        return (pref, ColourRule::StrongerPreference);
    }
    if b_strong && !a_strong {
        return (pref.opposite(), ColourRule::StrongerPreference);
    }
    // 5.2.4: walk both played-colour histories back from the latest game together.
    for (ca, cb) in a.colours.iter().rev().zip(b.colours.iter().rev()) {
        if ca != cb {
            return (*cb, ColourRule::Alternation);
        }
    }
    // 5.2.5.
    if ia.rank_cmp(ib) == Ordering::Less {
        (pref, ColourRule::HigherIndex)
    } else {
        (pref.opposite(), ColourRule::HigherIndex)
    }
}
