//! The vocabulary of the FIDE criteria tables (the Dutch editions' C1-C21, Burstein's and
//! the "why not?" comparison's lists): how a criterion acts ([`Kind`]), what it measures
//! ([`Measure`]), and the per-player and per-pair tests of the colour and float criteria,
//! written once. The Dutch tables themselves are in `dutch/criteria.rs`.
use crate::systems::common::Float;
use crate::systems::common::fide_players::Entrant;

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
    /// SEP-5: the pairs within a group of a weak separation at this place (not in the
    /// editions' tables: a request's separation inserts it).
    WeakSeparation(crate::model::WeakPlace),
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

pub const fn c(id: &'static str, kind: Kind, measure: Measure, text: &'static str) -> Criterion {
    Criterion {
        id,
        kind,
        measure,
        text,
    }
}

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
