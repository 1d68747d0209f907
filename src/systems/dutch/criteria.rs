//! The pairing criteria of the Dutch system as a table per edition (C.04.3 art. 2 of the
//! 2026 text, section C of the 2017 text), so that explanations cite each edition's own
//! numbering while the bracket procedure stays the same.
//!
//! The weights (`weights.rs`) encode the quality criteria in this order, most significant
//! first; the absolute criteria are edge filters, the completion and PAB criteria are the
//! top of every weight.

/// How a criterion acts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Never violated: the pair is not an edge of the graph.
    Absolute,
    /// The whole round must stay pairable (C4).
    Completion,
    /// Decides who gets the pairing-allocated bye.
    Bye,
    /// Minimised, in order of priority.
    Quality,
}

/// What a criterion measures, so that code refers to criteria by meaning and the edition's
/// numbering stays in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Measure {
    NoRematch,
    ByeEligibility,
    AbsoluteColours,
    Completion,
    ByeScore,
    Downfloaters,
    DownfloaterScores,
    NextBracket,
    ByeUnplayedGames,
    TopscorerColourDifference,
    TopscorerColourRun,
    ColourPreferences,
    StrongColourPreferences,
    RepeatedDownfloat1,
    RepeatedUpfloat1,
    RepeatedDownfloat2,
    RepeatedUpfloat2,
    DownfloatScoreDifference1,
    UpfloatScoreDifference1,
    DownfloatScoreDifference2,
    UpfloatScoreDifference2,
}

/// One criterion of an edition.
#[derive(Clone, Copy, Debug)]
pub struct Criterion {
    /// The rule id as the edition numbers it (`C12`).
    pub id: &'static str,
    pub kind: Kind,
    pub measure: Measure,
    /// What is minimised or forbidden, in words.
    pub text: &'static str,
}

const fn c(id: &'static str, kind: Kind, measure: Measure, text: &'static str) -> Criterion {
    Criterion {
        id,
        kind,
        measure,
        text,
    }
}

/// C.04.3 (2026) art. 2, in priority order.
pub const DUTCH_2026: &[Criterion] = &[
    c(
        "C1",
        Kind::Absolute,
        Measure::NoRematch,
        "two players do not meet twice (forbidden pairs count as met)",
    ),
    c(
        "C2",
        Kind::Absolute,
        Measure::ByeEligibility,
        "no PAB for a player who had one or scored a win's points without playing",
    ),
    c(
        "C3",
        Kind::Absolute,
        Measure::AbsoluteColours,
        "non-topscorers with the same absolute colour preference do not meet",
    ),
    c(
        "C4",
        Kind::Completion,
        Measure::Completion,
        "the players not yet paired can always be paired complying with C1-C3",
    ),
    c(
        "C5",
        Kind::Bye,
        Measure::ByeScore,
        "minimise the score of the PAB assignee",
    ),
    c(
        "C6",
        Kind::Quality,
        Measure::Downfloaters,
        "minimise the number of downfloaters (maximise pairs)",
    ),
    c(
        "C7",
        Kind::Quality,
        Measure::DownfloaterScores,
        "minimise the scores of the downfloaters, highest first",
    ),
    c(
        "C8",
        Kind::Quality,
        Measure::NextBracket,
        "choose the downfloaters so that the next bracket complies with C1-C7 as well as possible",
    ),
    c(
        "C9",
        Kind::Quality,
        Measure::ByeUnplayedGames,
        "minimise the unplayed games of the PAB assignee (when the single downfloater gets it)",
    ),
    c(
        "C10",
        Kind::Quality,
        Measure::TopscorerColourDifference,
        "minimise topscorers or their opponents with a colour difference beyond +-2",
    ),
    c(
        "C11",
        Kind::Quality,
        Measure::TopscorerColourRun,
        "minimise topscorers or their opponents with the same colour three times in a row",
    ),
    c(
        "C12",
        Kind::Quality,
        Measure::ColourPreferences,
        "minimise the players who do not get their colour preference",
    ),
    c(
        "C13",
        Kind::Quality,
        Measure::StrongColourPreferences,
        "minimise the players who do not get their strong colour preference",
    ),
    c(
        "C14",
        Kind::Quality,
        Measure::RepeatedDownfloat1,
        "minimise resident downfloaters who downfloated in the previous round",
    ),
    c(
        "C15",
        Kind::Quality,
        Measure::RepeatedUpfloat1,
        "minimise MDP opponents who upfloated in the previous round",
    ),
    c(
        "C16",
        Kind::Quality,
        Measure::RepeatedDownfloat2,
        "minimise resident downfloaters who downfloated two rounds before",
    ),
    c(
        "C17",
        Kind::Quality,
        Measure::RepeatedUpfloat2,
        "minimise MDP opponents who upfloated two rounds before",
    ),
    c(
        "C18",
        Kind::Quality,
        Measure::DownfloatScoreDifference1,
        "minimise the score differences of MDPs who downfloated in the previous round",
    ),
    c(
        "C19",
        Kind::Quality,
        Measure::UpfloatScoreDifference1,
        "minimise the score differences of MDP opponents who upfloated in the previous round",
    ),
    c(
        "C20",
        Kind::Quality,
        Measure::DownfloatScoreDifference2,
        "as C18, for two rounds before",
    ),
    c(
        "C21",
        Kind::Quality,
        Measure::UpfloatScoreDifference2,
        "as C19, for two rounds before",
    ),
];

/// C.04.3 (2017 edition) section C, in priority order. Its C.6 minimises the pairing
/// score difference (A.8), which the explanation reports through the downfloaters'
/// scores (the measure it shares with 2026's C7); it has no criterion on the PAB
/// assignee's score or unplayed games (2026 C5, C9): the last bracket's leftover gets it.
pub const DUTCH_2017: &[Criterion] = &[
    c(
        "C.1",
        Kind::Absolute,
        Measure::NoRematch,
        "two players do not meet twice (forbidden pairs count as met)",
    ),
    c(
        "C.2",
        Kind::Absolute,
        Measure::ByeEligibility,
        "no PAB for a player who had one or won a game by forfeit",
    ),
    c(
        "C.3",
        Kind::Absolute,
        Measure::AbsoluteColours,
        "non-topscorers with the same absolute colour preference do not meet",
    ),
    c(
        "C.4",
        Kind::Completion,
        Measure::Completion,
        "in the penultimate pairing bracket: the downfloaters let the round be completed",
    ),
    c(
        "C.5",
        Kind::Quality,
        Measure::Downfloaters,
        "maximise the number of pairs",
    ),
    c(
        "C.6",
        Kind::Quality,
        Measure::DownfloaterScores,
        "minimise the pairing score difference (A.8)",
    ),
    c(
        "C.7",
        Kind::Quality,
        Measure::NextBracket,
        "choose the downfloaters so that the next bracket has the most pairs and the least PSD",
    ),
    c(
        "C.8",
        Kind::Quality,
        Measure::TopscorerColourDifference,
        "minimise topscorers or their opponents with a colour difference beyond +-2",
    ),
    c(
        "C.9",
        Kind::Quality,
        Measure::TopscorerColourRun,
        "minimise topscorers or their opponents with the same colour three times in a row",
    ),
    c(
        "C.10",
        Kind::Quality,
        Measure::ColourPreferences,
        "minimise the players who do not get their colour preference",
    ),
    c(
        "C.11",
        Kind::Quality,
        Measure::StrongColourPreferences,
        "minimise the players who do not get their strong colour preference",
    ),
    c(
        "C.12",
        Kind::Quality,
        Measure::RepeatedDownfloat1,
        "minimise the players who receive the same downfloat as in the previous round",
    ),
    c(
        "C.13",
        Kind::Quality,
        Measure::RepeatedUpfloat1,
        "minimise the players who receive the same upfloat as in the previous round",
    ),
    c(
        "C.14",
        Kind::Quality,
        Measure::RepeatedDownfloat2,
        "minimise the players who receive the same downfloat as two rounds before",
    ),
    c(
        "C.15",
        Kind::Quality,
        Measure::RepeatedUpfloat2,
        "minimise the players who receive the same upfloat as two rounds before",
    ),
    c(
        "C.16",
        Kind::Quality,
        Measure::DownfloatScoreDifference1,
        "minimise the score differences of players who repeat the previous round's downfloat",
    ),
    c(
        "C.17",
        Kind::Quality,
        Measure::UpfloatScoreDifference1,
        "minimise the score differences of players who repeat the previous round's upfloat",
    ),
    c(
        "C.18",
        Kind::Quality,
        Measure::DownfloatScoreDifference2,
        "as C.16, for two rounds before",
    ),
    c(
        "C.19",
        Kind::Quality,
        Measure::UpfloatScoreDifference2,
        "as C.17, for two rounds before",
    ),
];

/// The rule id of a criterion in an edition's table.
pub fn id(table: &[Criterion], measure: Measure) -> &'static str {
    table
        .iter()
        .find(|c| c.measure == measure)
        .map_or("C?", |c| c.id)
}

/// The criterion with a given measure.
pub fn find(table: &[Criterion], measure: Measure) -> Option<&Criterion> {
    table.iter().find(|c| c.measure == measure)
}

// The per-pair and per-player tests of C12-C17, written once: the edge weights
// (`brackets.rs`, laid out by `weights.rs`) count them as successes to maximise, the
// explanation (`explain.rs`) as failures to report. `h` is the higher-ranked player of a
// pair, `l` the lower.

use crate::systems::common::Float;
use crate::systems::common::fide_players::Entrant;

/// C12: the pair cannot give both players their colour preference (both have the same
/// one).
pub fn fails_colour_preference(h: &Entrant, l: &Entrant) -> bool {
    h.pref.is_some() && h.pref == l.pref
}

/// C13: as C12, and both preferences are at least strong (two absolute preferences only
/// meet between topscorers, where C10/C11 decide instead).
pub fn fails_strong_preference(h: &Entrant, l: &Entrant) -> bool {
    fails_colour_preference(h, l)
        && h.strong_or_more()
        && l.strong_or_more()
        && !(h.absolute() && l.absolute())
}

/// The player's float `rounds_ago` (1 or 2) tournament rounds before this one.
pub fn float_before(e: &Entrant, rounds_ago: u8) -> Float {
    if rounds_ago == 1 { e.float1 } else { e.float2 }
}

/// C14/C16: a player who had a downfloat `rounds_ago` rounds before (counted when he
/// floats down again as a resident).
pub fn had_downfloat(e: &Entrant, rounds_ago: u8) -> bool {
    float_before(e, rounds_ago) == Float::Down
}

/// C15/C17: the pair is an MDP pairing whose lower player (the MDP's opponent) had an
/// upfloat `rounds_ago` rounds before.
pub fn repeats_upfloat(h: &Entrant, l: &Entrant, rounds_ago: u8) -> bool {
    h.score > l.score && float_before(l, rounds_ago) == Float::Up
}
