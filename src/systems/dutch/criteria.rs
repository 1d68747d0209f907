//! The pairing criteria of the Dutch system as a table per edition (C.04.3 art. 2 of the
//! 2026 text, section C of the 2017 text), so that explanations cite each edition's own
//! numbering while the bracket procedure stays the same.
//!
//! The weights (`weights.rs`) encode the quality criteria in this order, most significant
//! first; the absolute criteria are edge filters, the completion and PAB criteria are the
//! top of every weight.

use crate::systems::common::fide_criteria::c;
pub use crate::systems::common::fide_criteria::{
    Criterion, Kind, Measure, fails_colour_preference, fails_strong_preference, find, float_before,
    had_downfloat, id, repeats_upfloat,
};

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
