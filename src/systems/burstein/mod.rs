//! The Burstein system (FIDE C.04.4.2, 2026 edition, in force since 1 February 2026), with
//! two readings chosen by the option `profile`:
//!
//! * `FIDE_2026` (default): the 2026 text. Seeding rounds (art. 1.6.1-1.6.2, the first
//!   min(⌊rounds/2⌋, 4)) are the Dutch system's whole round (`systems::dutch`); later rounds
//!   rank every bracket by the Index (Buchholz, then Sonneborn-Berger, then TPN; `index.rs`),
//!   give the PAB first (art. 3.1), then pair the brackets top-down under C1-C8 in the
//!   "1 v n fold" candidate order of art. 4 (`text.rs`). The readings are listed in
//!   `docs/decisions.md` ("Burstein").
//! * `BBP`: the older, non-endorsed reading of the reference engine bbpPairings 6
//!   (`--burstein`), which lichess drives for events of 250-700 players (`bbp.rs`): every
//!   round by the Index (Sonneborn-Berger first), its own default acceleration in rounds 1-2,
//!   one global matching per round. A driver switching from that engine gets the same pairs;
//!   where that engine gives up or crashes, this answers with a pairing or a clear error.
//!
//! Both profiles share the colour rules' machinery of the Dutch system (`common::fide_players`:
//! colour preferences on the compressed history, GHR 3.4) and the weighted matching engine
//! (`matching::weighted`).
pub mod bbp;
pub mod colours;
pub mod compare;
pub mod compare_bbp;
pub mod index;
pub mod text;

use super::options::{parse_choice, read};
use super::{AbsoluteRules, OptionInfo, PairError, RoundPairing, RoundToPair, System, SystemInfo};
use crate::model::SystemId;

/// Which reading of the Burstein rules to follow (option `profile`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Profile {
    /// The 2026 text (C.04.4.2, in force since 1 February 2026).
    #[default]
    Fide2026,
    /// bbpPairings 6's `--burstein`.
    Bbp,
}

const PROFILES: [(&str, Profile); 3] = [
    ("FIDE_2026", Profile::Fide2026),
    ("2026", Profile::Fide2026),
    ("BBP", Profile::Bbp),
];

const DRIVES: [(&str, bbp::Drive); 2] = [("FAST", bbp::Drive::FAST), ("PLAIN", bbp::Drive::PLAIN)];

/// Burstein's options, decoded once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub profile: Profile,
    /// How profile BBP drives its matcher (`bbp_drive`; `FAST` when unset). Both give the
    /// same pairs; `PLAIN` re-solves after every change, as the engine it follows does.
    pub bbp_drive: bbp::Drive,
    pub acceleration: super::AccelerationMethod,
    /// Whether the request set `acceleration` at all (even NONE): profile BBP then gives
    /// none of its engine's default virtual points.
    pub acceleration_given: bool,
}

/// The Burstein system.
pub struct Burstein;

impl System for Burstein {
    type Options = Options;

    fn options(&self, given: &crate::model::SystemOptions) -> Self::Options {
        Options {
            profile: read(given, "profile", |v| parse_choice(v, &PROFILES)).unwrap_or_default(),
            bbp_drive: read(given, "bbp_drive", |v| parse_choice(v, &DRIVES))
                .unwrap_or(bbp::Drive::FAST),
            acceleration: super::options::acceleration(given),
            acceleration_given: given.get("acceleration").is_some(),
        }
    }

    /// FIDE_BURSTEIN (ETT26), `_BAKU` with the Baku acceleration.
    fn trf_code(&self, options: &Options, _t: &crate::model::Tournament) -> String {
        super::with_baku("FIDE_BURSTEIN", options.acceleration)
    }

    fn reads_trf_code(&self, code: &str) -> bool {
        super::without_baku(code) == "FIDE_BURSTEIN"
    }

    /// FIDE's absolute rules, with the colour limits kept in the last round too: the
    /// engine reads [C3] of C.04.4.2 without a topscorer exception (`docs/decisions.md`),
    /// so a manual pairing of the last round is held to them as the engine is.
    /// Burstein: the PAB to the lowest score among the eligible players who allow completion (MP-2).
    fn lowest_score_bye_rule(&self, _options: &Self::Options) -> Option<&'static str> {
        Some("C.04.4.2")
    }
    fn absolute_rules(&self, _options: &Self::Options) -> AbsoluteRules {
        AbsoluteRules {
            colour_rule: "C.04.4.2 [C3]",
            colour_limits_in_last_round: true,
            ..AbsoluteRules::FIDE
        }
    }

    /// The other profile (AU-2): the 2026 text or bbpPairings 6's reading.
    fn other_readings(&self, options: &Options) -> Vec<super::OtherReading> {
        let (current, other, value) = match options.profile {
            Profile::Fide2026 => (
                "profile FIDE_2026 (the 2026 text)",
                "profile BBP (bbpPairings 6)",
                "BBP",
            ),
            Profile::Bbp => (
                "profile BBP (bbpPairings 6)",
                "profile FIDE_2026 (the 2026 text)",
                "FIDE_2026",
            ),
        };
        vec![super::OtherReading {
            current,
            other,
            option: "profile",
            value,
            rule_id: "C.04.4.2",
        }]
    }

    /// Like the Dutch system's, bbpPairings' checker (`-c`) infers XXC and XXR from the
    /// record, and both corpora follow that contract (`check::infer`): the seeding rounds of
    /// the 2026 profile are bbpPairings' Dutch rounds, and the BBP profile is that engine.
    fn checks_as_the_reference(&self) -> bool {
        true
    }

    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: SystemId::Burstein,
            title: "FIDE Burstein system, 2026 edition",
            rule_set: "FIDE C.04.1, C.04.2, C.04.4.2 (2026); seeding rounds by C.04.3; acceleration C.04.7 when given; profile BBP: bbpPairings 6 --burstein",
            options: vec![
                OptionInfo {
                    name: "profile",
                    kind: "enum FIDE_2026|BBP",
                    default_value: "FIDE_2026",
                    description: "FIDE_2026: the 2026 text (C.04.4.2); BBP: bbpPairings 6's --burstein reading (its default acceleration in rounds 1-2 unless virtual points or the acceleration option are given)",
                    parse: |v| parse_choice(v, &PROFILES).map(|_| ()),
                },
                OptionInfo {
                    name: "bbp_drive",
                    kind: "enum FAST|PLAIN",
                    default_value: "FAST",
                    description: "profile BBP only, same pairs either way: FAST answers most bracket questions from a frozen certificate of the optimum; PLAIN re-solves the matching after every change, as bbpPairings does (much slower on large events; for cross-checking a disputed round)",
                    parse: |v| parse_choice(v, &DRIVES).map(|_| ()),
                },
                OptionInfo::ACCELERATION,
            ],
        }
    }

    /// SEP-5: the weak separations' criterion is a field of the edge weight in both
    /// profiles, after the criteria that keep players in their scoregroups (2026: C7;
    /// BBP: the pairs within scoregroups) and before C8 by default, after C8 (above art.
    /// 4's order) last; the seeding rounds of the 2026 text are the Dutch system's, which
    /// weighs the same two places. Placed first it is not offered: the Dutch seeding
    /// rounds refuse it, and both profiles' procedures decide who floats on the premise
    /// that the bracket makes the most pairs it can (C5).
    /// Profile `FIDE_2026` weighs every place (`WEAK_FIRST` joins completion, C4, in the
    /// later rounds' graph and in the seeding rounds' Dutch pairing); profile `BBP` refuses
    /// `WEAK_FIRST` in `pair` (its engine pairs each scoregroup as it adds it, with no
    /// graph of the whole round to count the round's pairs within a group on).
    fn weak_separation_places(&self) -> &'static [crate::model::WeakPlace] {
        &crate::model::WeakPlace::ALL
    }

    /// bbpPairings' check-list (both profiles: the Index as that engine reads it).
    fn checklist(&self, r: &RoundToPair, options: &Options) -> Option<crate::systems::Checklist> {
        Some(bbp::checklist(r, options.acceleration_given))
    }

    fn acceleration(&self, options: &Options) -> super::AccelerationMethod {
        options.acceleration
    }

    /// "Why not?": profile BBP in its engine's order (`compare_bbp.rs`); the 2026 text's
    /// seeding rounds by the Dutch system (art. 1.6.2, through the registry), the later
    /// rounds on C.04.4.2's list bracket by bracket.
    fn compare(
        &self,
        options: &Options,
        round: &RoundToPair,
        first: &RoundPairing,
        second: &RoundPairing,
    ) -> Option<super::comparison::Comparison> {
        use crate::systems::common::fide_compare::{
            Order, compare_brackets, with_weak_separations,
        };
        use crate::systems::common::fide_criteria::Measure;
        use crate::systems::common::fide_players::FideText;
        crate::systems::comparison::unless_same(first, second, || {
            let history = super::History::build(round);
            match options.profile {
                Profile::Bbp => Some(compare_bbp::compare(
                    round,
                    &history,
                    options.acceleration_given,
                    first,
                    second,
                )),
                Profile::Fide2026
                    if text::seeding_rounds(round.tournament.total_rounds) >= round.number =>
                {
                    super::find(SystemId::Dutch)?
                        .configure(&crate::model::SystemOptions::default())
                        .compare(round, first, second)
                }
                Profile::Fide2026 => Some(compare_brackets(
                    round,
                    &history,
                    first,
                    second,
                    Order {
                        // SEP-5 where the weights put it (`text.rs`).
                        rules: with_weak_separations(
                            compare::rules(),
                            round,
                            Measure::ColourPreferences,
                        ),
                        order_rule: "C.04.4.2 4.3",
                        text: FideText::Y2026,
                        ppb_rule: None,
                    },
                )),
            }
        })
    }

    fn pab_first(&self, options: &Options) -> Option<super::comparison::PabFirst> {
        (options.profile == Profile::Bbp).then_some(compare_bbp::PAB_FIRST)
    }

    fn pab_first_bye(
        &self,
        options: &Options,
        round: &RoundToPair,
        history: &super::History,
        given: crate::model::PlayerIdx,
        x: crate::model::PlayerIdx,
    ) -> super::comparison::PabFirstBye {
        compare_bbp::bye_for(round, history, options.acceleration_given, given, x)
    }

    fn pair(&self, r: &RoundToPair, options: &Self::Options) -> Result<RoundPairing, PairError> {
        r.require_results()?;
        let mut out = match options.profile {
            Profile::Fide2026 => text::pair(r)?,
            Profile::Bbp => bbp::pair_using(r, options.bbp_drive, options.acceleration_given)?,
        };
        out.round = r.number;
        Ok(out)
    }
}
