//! Colour allocation (C.04.3 art. 5.2): the first rule that decides.
use crate::model::Colour;
use crate::systems::common::fide_players::Entrant;

/// The rule of art. 5.2 that gave the colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourRule {
    /// 5.2.1: both preferences granted.
    BothPreferences,
    /// 5.2.2: the stronger preference (between absolute ones, the wider colour difference).
    StrongerPreference,
    /// 5.2.3: alternate from the latest round in which they had different colours.
    Alternation,
    /// 5.2.4: the higher-ranked player's preference.
    HigherRankedPreference,
    /// 5.2.5: the higher-ranked player's pairing number parity and the initial colour.
    PairingNumber,
}

impl ColourRule {
    pub fn id(self) -> &'static str {
        match self {
            ColourRule::BothPreferences => "C.04.3 5.2.1",
            ColourRule::StrongerPreference => "C.04.3 5.2.2",
            ColourRule::Alternation => "C.04.3 5.2.3",
            ColourRule::HigherRankedPreference => "C.04.3 5.2.4",
            ColourRule::PairingNumber => "C.04.3 5.2.5",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            ColourRule::BothPreferences => "both colour preferences granted",
            ColourRule::StrongerPreference => "the stronger colour preference granted",
            ColourRule::Alternation => {
                "colours alternated from the latest round in which they differed"
            }
            ColourRule::HigherRankedPreference => "the higher-ranked player's preference granted",
            ColourRule::PairingNumber => "decided by the higher-ranked player's pairing number",
        }
    }
}

/// Whether `a` ranks higher than `b` (score, then pairing number; art. 1.2).
pub fn ranks_higher(a: &Entrant, b: &Entrant) -> bool {
    (a.score, std::cmp::Reverse(a.rank)) > (b.score, std::cmp::Reverse(b.rank))
}

/// The colour of `a` against `b`, and the rule that decided it. `initial` is the colour
/// of pairing number 1 in round 1 (art. 5.1).
pub fn allocate(a: &Entrant, b: &Entrant, initial: Colour) -> (Colour, ColourRule) {
    match (a.pref, b.pref) {
        (Some(pa), Some(pb)) if pa == pb => {}
        (Some(pa), _) => return (pa, ColourRule::BothPreferences),
        (None, Some(pb)) => return (pb.opposite(), ColourRule::BothPreferences),
        (None, None) => {
            return (by_pairing_number(a, b, initial), ColourRule::PairingNumber);
        }
    }
    // Same preference: 5.2.2.
    let pref = a.pref.unwrap_or(Colour::White);
    if a.absolute() && (a.imbalance > b.imbalance || !b.absolute()) {
        return (pref, ColourRule::StrongerPreference);
    }
    if b.absolute() && (b.imbalance > a.imbalance || !a.absolute()) {
        return (pref.opposite(), ColourRule::StrongerPreference);
    }
    let a_strong = a.strength == crate::systems::common::fide_players::Strength::Strong;
    let b_strong = b.strength == crate::systems::common::fide_players::Strength::Strong;
    if a_strong && !b_strong {
        return (pref, ColourRule::StrongerPreference);
    }
    if b_strong && !a_strong {
        return (pref.opposite(), ColourRule::StrongerPreference);
    }
    // 5.2.3: walk back both compressed histories together (GHR 3.4).
    for (ca, cb) in a.colours.iter().rev().zip(b.colours.iter().rev()) {
        if ca != cb {
            return (*cb, ColourRule::Alternation);
        }
    }
    // 5.2.4.
    if ranks_higher(a, b) {
        (pref, ColourRule::HigherRankedPreference)
    } else {
        (pref.opposite(), ColourRule::HigherRankedPreference)
    }
}

/// 5.2.5: the higher-ranked player gets the initial colour if his (effective) pairing
/// number is odd.
fn by_pairing_number(a: &Entrant, b: &Entrant, initial: Colour) -> Colour {
    let (top, a_is_top) = if ranks_higher(a, b) {
        (a, true)
    } else {
        (b, false)
    };
    let top_colour = if top.rank % 2 == 0 {
        initial
    } else {
        initial.opposite()
    };
    if a_is_top {
        top_colour
    } else {
        top_colour.opposite()
    }
}
