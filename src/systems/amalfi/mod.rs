//! Amalfi Rating (systems.md §1; seed 000, the Italian federation's regulation).
//!
//! Two readings of the same rules exist, chosen by the option `profile` ([`Profile`]):
//! - [`fsi`]: the FSI regulation as `systems.md` states it (AM-1.1..AM-4.4), the default;
//! - [`javapairing`]: what JavaPairing 2.9 actually does (`javapairing.md` §2).
pub mod fsi;
pub mod javapairing;

use super::options::{parse_choice, parse_score, read};
use super::{OptionInfo, PairError, RoundPairing, RoundToPair, System, SystemInfo};
use crate::model::SystemId;

/// Which reading of the Amalfi Rating rules to follow (option `profile`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Profile {
    /// The FSI regulation as systems.md §1 states it.
    #[default]
    Fsi,
    /// JavaPairing 2.9's reading (javapairing.md §2).
    JavaPairing,
}

const PROFILES: [(&str, Profile); 2] =
    [("FSI", Profile::Fsi), ("JAVAPAIRING", Profile::JavaPairing)];

pub struct Amalfi;

/// Amalfi's options, decoded once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub profile: Profile,
    /// The pairing score a late entrant starts with (AM-2.5); `None` = unset (FSI: ½).
    pub late_entry_score: Option<crate::model::Score>,
}

impl System for Amalfi {
    type Options = Options;

    fn options(&self, given: &crate::model::SystemOptions) -> Self::Options {
        Options {
            profile: read(given, "profile", |v| parse_choice(v, &PROFILES)).unwrap_or_default(),
            late_entry_score: super::options::late_entry_score(given),
        }
    }

    /// This project's code (TRF-26 has none for Amalfi Rating).
    fn trf_code(&self, _options: &Options, _t: &crate::model::Tournament) -> String {
        "CUSTOM_SWISS:AMALFI_RATING".to_string()
    }

    fn reads_trf_code(&self, code: &str) -> bool {
        super::without_baku(code) == "CUSTOM_SWISS:AMALFI_RATING"
    }

    /// AM-3.1: no rematch, no third colour in a row, no difference beyond 2.
    fn absolute_rules(&self, _options: &Self::Options) -> super::AbsoluteRules {
        super::AbsoluteRules {
            colour_rule: "AM-3.1",
            rematch_rule: "AM-3.1",
            // AM-2.2: the bye goes by games played; a second bye is not forbidden.
            second_bye_rule: None,
            ..super::AbsoluteRules::FIDE
        }
    }
    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: SystemId::Amalfi,
            title: "Amalfi Rating (Italian federation): position p meets position p + rounds remaining",
            rule_set: "systems.md §1 AM-1.1..AM-4.4 (FSI regulation, seed 000); javapairing.md §2 for the JAVAPAIRING profile",
            options: vec![
                OptionInfo {
                    name: "profile",
                    kind: "enum FSI|JAVAPAIRING",
                    default_value: "FSI",
                    description: "FSI: the regulation as systems.md states it; JAVAPAIRING: JavaPairing 2.9's reading",
                    parse: |v| parse_choice(v, &PROFILES).map(|_| ()),
                },
                OptionInfo {
                    name: "late_entry_score",
                    kind: "score",
                    default_value: "0.5",
                    description: "pairing score a late entrant starts with (AM-2.5); not a real point",
                    parse: |v| parse_score(v).map(|_| ()),
                },
            ],
        }
    }

    /// SEP-5.3: in AM-3.3's candidate order, a player's groupmates come after his other
    /// candidates (`fsi.rs`): the next candidate who is no groupmate and for whom the
    /// search completes, else the procedure's own. The list has no score groups to float
    /// out of (positions count, AM-3.3), so `WEAK_FIRST` would mean the same, and
    /// `WEAK_LAST` too (the procedure ties nothing): only `WEAK` is offered. The
    /// JAVAPAIRING profile refuses it (its textual forbidden lists are JavaPairing's own).
    fn weak_separation_places(&self) -> &'static [crate::model::WeakPlace] {
        &[crate::model::WeakPlace::Default]
    }

    fn pair(&self, r: &RoundToPair, options: &Self::Options) -> Result<RoundPairing, PairError> {
        match options.profile {
            Profile::JavaPairing => {
                if let Some(i) = r
                    .tournament
                    .separations
                    .iter()
                    .position(|s| s.mode.weak_place().is_some())
                {
                    return Err(PairError::Invalid(crate::model::validate::Problems(vec![
                        crate::model::validate::Problem::new(
                            format!("tournament.separations[{i}].mode"),
                            "a weak separation is weighed by Amalfi's FSI profile only; profile JAVAPAIRING does not weigh it (SEP-5.3); ABSOLUTE is honoured",
                        ),
                    ])));
                }
                javapairing::pair(r, options.late_entry_score)
            }
            Profile::Fsi => fsi::pair(
                r,
                options
                    .late_entry_score
                    .unwrap_or(crate::model::Score::half()),
            ),
        }
    }

    /// AM-2.2: the bye goes to someone with the most games played.
    fn bye_refusal(
        &self,
        _options: &Options,
        round: &RoundToPair,
        history: &super::History,
        p: crate::model::PlayerIdx,
    ) -> Option<(&'static str, String)> {
        let most = round
            .participants
            .iter()
            .map(|&q| history.player(q).games_played())
            .max()
            .unwrap_or(0);
        (history.player(p).games_played() < most).then(|| {
            (
                "AM-2.2",
                format!(
                    "{} has played fewer games than others and cannot get the bye",
                    round.id(p)
                ),
            )
        })
    }
}
