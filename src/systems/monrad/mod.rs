//! Monrad (docs/systems/monrad.md, MON-1..MON-6): the Danish clubs' "1-2, 3-4" system, as
//! WinTD's "1-2, 3-4" and US Chess 29L1 describe it.
//!
//! Round 1 lists the players by rating (pairing number) or by a seeded lot (MON-1); from
//! round 2 the list is the standings: score, then the stated tie-break (MON-2). The bye goes
//! to the lowest-listed player who has not had one (MON-4); the others are paired down the
//! list, 1-2, 3-4, each player taking the next one he has not met (MON-3). When the players
//! left at the bottom cannot all be paired without a rematch, the pairing backtracks: the
//! answer is the first complete pairing in the list's order (at each step the highest
//! unpaired player takes the highest opponent after whom everyone below can still be
//! paired), found without walking into dead ends by the cardinality engine's "can the rest
//! still be matched?" ([`crate::matching::Matcher`]). Colours: MON-5.
pub mod options;
mod pairing;

use super::common::club_game::{self, Game};
use super::{
    AbsoluteRules, ColourLimits, PairError, RoundPairing, RoundToPair, System, SystemInfo,
};
use crate::model::validate::Problems;
use crate::model::{SystemId, Tournament};

pub use options::Options;

/// The Monrad system.
pub struct Monrad;

/// This project's TRF code (TRF-26 has none for Monrad).
pub const TRF_CODE: &str = "CUSTOM_SWISS:MONRAD";

impl System for Monrad {
    type Options = Options;

    fn options(&self, given: &crate::model::SystemOptions) -> Options {
        Options::of(given)
    }

    /// MON-7 (SEP-5.3): a groupmate passed over for the next player below in the list who
    /// is not: of the groupmate's score (`WEAK`), of any score (`WEAK_FIRST`), of the
    /// groupmate's score and meeting as many colour dues (`WEAK_LAST`).
    fn weak_separation_places(&self) -> &'static [crate::model::WeakPlace] {
        &crate::model::WeakPlace::ALL
    }

    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: SystemId::Monrad,
            title: "Monrad: the standings paired 1-2, 3-4, rematches avoided",
            rule_set: "docs/systems/monrad.md MON-1..MON-6",
            options: Options::info(),
        }
    }

    fn trf_code(&self, _options: &Options, _t: &Tournament) -> String {
        TRF_CODE.to_string()
    }

    fn reads_trf_code(&self, code: &str) -> bool {
        code == TRF_CODE
    }

    /// No rematch (MON-3), no second bye (MON-4); colours are a preference, never a limit
    /// (MON-5); with `game=BACKGAMMON` there are none (MON-6).
    fn absolute_rules(&self, options: &Options) -> AbsoluteRules {
        let colourless = options.game == Game::Backgammon;
        AbsoluteRules {
            colours: ColourLimits::None,
            colour_rule: "MON-5",
            rematch_rule: "MON-3",
            colourless,
            fixed_colours: colourless,
            second_bye_rule: Some("MON-4"),
            colour_limits_in_last_round: false,
        }
    }

    fn results_policy_with(&self, options: &Options) -> super::ResultsPolicy {
        match options.game {
            Game::Chess => super::ResultsPolicy::CHESS,
            Game::Backgammon => super::ResultsPolicy {
                draws: false,
                half_point_byes: false,
            },
        }
    }

    fn pair(&self, r: &RoundToPair, options: &Options) -> Result<RoundPairing, PairError> {
        if r.number > 1 {
            r.require_results()?;
        }
        if options.game == Game::Backgammon {
            let problems =
                club_game::backgammon_problems(&r.tournament, r.number, &r.preset_byes, "MON-6");
            if !problems.is_empty() {
                return Err(PairError::Invalid(Problems(problems)));
            }
        }
        pairing::pair(r, options)
    }
}
