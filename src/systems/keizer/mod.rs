//! The Keizer system for club ladders (docs/systems/keizer.md, KZ-1..KZ-6).
//!
//! Every round the players are ranked by Keizer score: each rank has a value (a top value,
//! then a step down per rank, KZ-2); a game earns a fraction of the opponent's value, a
//! bye, club duty or an absence a fraction of the player's own (KZ-3.1, KZ-3.2); since the
//! values come from the ranking the scores make, values and scores are recomputed from the
//! new ranking until a ranking repeats (KZ-3.3). The players present are then paired
//! top-down, each with the nearest player ranked below whom he may meet (KZ-4.1, KZ-4.2),
//! with the bye to the fewest byes and lowest rank (KZ-4.3); colours by KZ-5. The same
//! ranking is the event's standings (KZ-6, `System::own_ranking`).
//!
//! Readings of the club rules (docs/decisions.md, "Keizer"): see the rules page.
pub mod options;
pub mod pairing;
pub mod score;

use super::{
    AbsoluteRules, ColourLimits, History, OwnRanking, PairError, RoundPairing, RoundToPair, System,
    SystemInfo,
};
use crate::model::{PlayerIdx, SystemId, SystemOptions, Tournament};
use options::KeizerOptions;

/// This project's record 192 code (TRF-26 has none for Keizer, trf.md §5.4).
pub const TRF_CODE: &str = "CUSTOM_KEIZER";

pub struct Keizer;

impl System for Keizer {
    type Options = KeizerOptions;

    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: SystemId::Keizer,
            title: "Keizer (club ladder)",
            rule_set: "Keizer system as clubs run it; docs/systems/keizer.md KZ-1..KZ-6",
            options: options::infos(),
        }
    }

    fn options(&self, given: &SystemOptions) -> KeizerOptions {
        options::decode(given)
    }

    /// KZ-4.4 (SEP-5.3): a groupmate passed over for the next player ranked below who is
    /// not: any later one (`WEAK`, and `WEAK_FIRST`, which means the same: Keizer has no
    /// score groups), one of the groupmate's Keizer score (`WEAK_LAST`).
    fn weak_separation_places(&self) -> &'static [crate::model::WeakPlace] {
        &crate::model::WeakPlace::ALL
    }

    fn pair(&self, r: &RoundToPair, o: &KeizerOptions) -> Result<RoundPairing, PairError> {
        // KZ-3: scores need every earlier result.
        r.require_results()?;
        let ranking = score::rank(&r.tournament, o, r.number.saturating_sub(1));
        pairing::pair(r, o, &ranking)
    }

    fn trf_code(&self, _options: &KeizerOptions, _t: &Tournament) -> String {
        TRF_CODE.to_string()
    }

    fn reads_trf_code(&self, code: &str) -> bool {
        code == TRF_CODE
    }

    /// The default colour limits (two in a row, a difference of two) are the FIDE shape
    /// the manual validator checks; other limits are the system's own (KZ-5.1), kept by
    /// its pairing. They hold in every round: a ladder has no last round. A second bye is
    /// allowed once everybody present had one (KZ-4.3).
    fn absolute_rules(&self, o: &KeizerOptions) -> AbsoluteRules {
        let colours = match (o.same_colour_limit, o.colour_difference_limit) {
            (2, 2) => ColourLimits::ThreeInARowAndDifferenceTwo,
            (2, 0) => ColourLimits::ThreeInARow,
            _ => ColourLimits::None,
        };
        AbsoluteRules {
            colours,
            colour_rule: "KZ-5.1",
            rematch_rule: "KZ-4.2",
            colourless: false,
            fixed_colours: false,
            second_bye_rule: None,
            colour_limits_in_last_round: true,
        }
    }

    /// Anyone may get the bye in a manual pairing: KZ-4.3 orders the candidates, it bars
    /// nobody.
    fn pab_barred(
        &self,
        _options: &KeizerOptions,
        _round: &RoundToPair,
        _history: &History,
        _p: PlayerIdx,
    ) -> bool {
        false
    }

    /// Players meet again once the re-meeting window has passed (KZ-4.2).
    fn rematch_barred(
        &self,
        o: &KeizerOptions,
        round: &RoundToPair,
        history: &History,
        a: PlayerIdx,
        b: PlayerIdx,
    ) -> Option<bool> {
        Some(pairing::rematch_bar(o, history, round.number, a, b).is_some())
    }

    /// KZ-6: the standings are the Keizer ranking (equal scores in the initial order, so
    /// no two players share a place); the score is shown rounded (`Ranking::score_text`).
    fn own_ranking(&self, o: &KeizerOptions, t: &Tournament, rounds: u32) -> Option<OwnRanking> {
        let ranking = score::rank(t, o, rounds);
        let values = (0..t.players.len())
            .map(|p| {
                let (units, decimals) = ranking.score_hundredths(p);
                i64::try_from(units)
                    .ok()
                    .map(|u| crate::standings::Value::decimal(u, decimals))
            })
            .collect();
        Some(OwnRanking {
            code: "KZ",
            values,
            order: ranking.order,
        })
    }
}

#[cfg(test)]
mod tests;
