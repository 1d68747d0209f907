//! Colour allocation (C.04.4.1 art. 5.2): the first rule that decides.
use super::players::Entrant;
use crate::model::Colour;
use crate::systems::common::fide_players::Strength;

/// The rule of art. 5.2 that gave the colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourRule {
    /// 5.2.1: neither has played; the higher-ranked player's TPN parity and the initial
    /// colour.
    Initial,
    /// 5.2.2: both preferences granted.
    BothPreferences,
    /// 5.2.3: the stronger preference granted.
    StrongerPreference,
    /// 5.2.4: alternate from the most recent round in which they had different colours.
    Alternation,
    /// 5.2.5: the higher-ranked player's preference.
    HigherRankedPreference,
}

impl ColourRule {
    pub fn id(self) -> &'static str {
        match self {
            ColourRule::Initial => "C.04.4.1 art. 5.2.1",
            ColourRule::BothPreferences => "C.04.4.1 art. 5.2.2",
            ColourRule::StrongerPreference => "C.04.4.1 art. 5.2.3",
            ColourRule::Alternation => "C.04.4.1 art. 5.2.4",
            ColourRule::HigherRankedPreference => "C.04.4.1 art. 5.2.5",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            ColourRule::Initial => {
                "neither has played: the higher-ranked player's TPN parity and the initial colour"
            }
            ColourRule::BothPreferences => "both colour preferences granted",
            ColourRule::StrongerPreference => "the stronger colour preference granted",
            ColourRule::Alternation => {
                "colours alternated from the most recent round in which they differed"
            }
            ColourRule::HigherRankedPreference => "the higher-ranked player's preference granted",
        }
    }
}

/// Whether `a` ranks higher than `b`: more points, or equal points and a smaller TPN
/// (art. 5.2.1).
pub fn ranks_higher(a: &Entrant, b: &Entrant) -> bool {
    (a.score, std::cmp::Reverse(a.tpn)) > (b.score, std::cmp::Reverse(b.tpn))
}

fn rank(s: Strength) -> u8 {
    match s {
        Strength::None => 0,
        Strength::Mild => 1,
        Strength::Strong => 2,
        Strength::Absolute => 3,
    }
}

/// The colour of `a` against `b`, and the rule that decided it. `initial` is the initial
/// colour (art. 5.1, TRF `XXC`).
pub fn allocate(a: &Entrant, b: &Entrant, initial: Colour) -> (Colour, ColourRule) {
    let a_high = ranks_higher(a, b);
    // 5.2.1: both have yet to play a game.
    if !a.has_played() && !b.has_played() {
        let top = if a_high { a } else { b };
        let top_colour = if top.tpn % 2 == 1 {
            initial
        } else {
            initial.opposite()
        };
        let colour = if a_high {
            top_colour
        } else {
            top_colour.opposite()
        };
        return (colour, ColourRule::Initial);
    }
    // 5.2.2: different preferences.
    if a.pref != b.pref {
        return (a.pref, ColourRule::BothPreferences);
    }
    // 5.2.3: the stronger preference.
    match rank(a.strength).cmp(&rank(b.strength)) {
        std::cmp::Ordering::Greater => return (a.pref, ColourRule::StrongerPreference),
        std::cmp::Ordering::Less => return (a.pref.opposite(), ColourRule::StrongerPreference),
        std::cmp::Ordering::Equal => {}
    }
    // 5.2.4: the played colours aligned at the latest game (forfeits are not games).
    for (ca, cb) in a.colours.iter().rev().zip(b.colours.iter().rev()) {
        if ca != cb {
            return (*cb, ColourRule::Alternation);
        }
    }
    // 5.2.5: the higher-ranked player's preference.
    if a_high {
        (a.pref, ColourRule::HigherRankedPreference)
    } else {
        (b.pref.opposite(), ColourRule::HigherRankedPreference)
    }
}
