//! "Why not?" in Burstein's order: the 2026 text's rounds after the seeding rounds are
//! compared bracket by bracket (`common::fide_compare`) on this list; the seeding rounds
//! are the Dutch system's (art. 1.6.2), compared by it; profile BBP in `compare_bbp.rs`.
use crate::systems::common::fide_compare::Rule;
use crate::systems::common::fide_criteria::Measure;

/// C.04.4.2 (2026): the PAB first (art. 3.1), then C5-C8; no float-history criteria.
pub fn rules() -> Vec<Rule> {
    let rule = |id: &str, text: &'static str, measure: Measure| Rule {
        rule_id: format!("C.04.4.2 {id}"),
        text,
        measure,
    };
    vec![
        rule(
            "3.1",
            "the PAB goes to the lowest score (then the most games played)",
            Measure::ByeScore,
        ),
        rule("C5", "maximise the number of pairs", Measure::Downfloaters),
        rule(
            "C6",
            "minimise the scores, highest first, of the outgoing floaters",
            Measure::DownfloaterScores,
        ),
        rule(
            "C7",
            "choose the outgoing floaters so that C1-C6 hold in the next bracket as well as possible",
            Measure::NextBracket,
        ),
        rule(
            "C8",
            "minimise the players who do not get their colour preference",
            Measure::ColourPreferences,
        ),
    ]
}
