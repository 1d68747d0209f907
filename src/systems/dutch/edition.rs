//! The editions of the Dutch system: the 2026 text (C.04.3 as applied from 1 February
//! 2026) and the 2017 text (Baku 2016 with the Goynuk 2017 changes, applied until 31
//! January 2026), which registries need to check events played under it.
//!
//! The two editions share the bracket machinery (`brackets.rs`: the maximum-weight matching,
//! art. 4 / D.1-D.2 generation order, the colour rules of art. 5 / E.1-E.5, which say the
//! same). What differs is written once, here or where it lives, citing the 2017 article:
//!
//! * floats (A.4.b): every player who did not play a game in a round got a downfloat
//!   (2026, art. 1.4.3: only a PAB or more than a loss's points without playing) —
//!   `common::fide_players` (`FideText`);
//! * PAB eligibility (C.2): a PAB or a forfeit win blocks it; a requested full-point bye
//!   does not (2026 reads C.04.1 art. 4, a win's points without playing) — `common::fide_players` and `System::pab_barred`;
//! * the criteria (C.1-C.19, `criteria::DUTCH_2017`): no C5/C9 of 2026 (the PAB goes to
//!   whoever the last bracket leaves over), the pairing score difference (A.8, C.6) instead
//!   of the downfloaters' scores, C.7 looking at the next bracket only, the float
//!   criteria C.12-C.15 counting every player who repeats a float, and C.16-C.19 on score
//!   differences — `weights.rs` (`Layout::new_2017`) and `brackets.rs` (`base_weight_2017`);
//! * the round-pairing outlook (A.9): completion (C.4) is a criterion of the penultimate
//!   pairing bracket only; when a bracket's pairing leaves the round unpairable it becomes
//!   the PPB, is paired again with completion first, and everybody left forms the
//!   collapsed last bracket (CLB) — `brackets::pair_round_2017`.
//!
//! Acceleration reads as in 2026 (`XXA`/`250` virtual points, or `acceleration=BAKU`); the
//! reference engine of the 2017 edition (bbpPairings 5) reads `XXA` lines only.
//!
//! A further edition is added as one more variant here, its criteria table in
//! `criteria.rs`, and its differences where they live, each behind `Edition`.
use crate::model::SystemOptions;
use crate::systems::OptionInfo;
use crate::systems::options::{parse_choice, read};

/// An edition of the Dutch rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Edition {
    /// C.04.3 as applied until 31 January 2026 (Baku 2016, Goynuk 2017).
    E2017,
    /// C.04.3 as applied from 1 February 2026.
    #[default]
    E2026,
}

/// The names the `edition` option takes.
const CHOICES: &[(&str, Edition)] = &[
    ("2017", Edition::E2017),
    ("2026", Edition::E2026),
    ("2025", Edition::E2026),
];

/// The first day the 2026 text applies: an event that started before it keeps the 2017
/// text (ETT26: bare `FIDE_DUTCH` follows the start date, record 042).
pub const TEXT_2026_FROM: (u32, u32, u32) = (2026, 2, 1);

impl Edition {
    pub const OPTION: OptionInfo = OptionInfo {
        name: "edition",
        kind: "enum 2026|2017",
        default_value: "2026",
        description: "the edition of C.04.3: 2026 (applied from 1 February 2026) or 2017 (applied until 31 January 2026); TRF 192 FIDE_DUTCH_2017 sets 2017, bare FIDE_DUTCH follows the event's start date (042)",
        parse: |v| parse(v).map(|_| ()),
    };

    /// The edition the options ask for (the default when unset).
    pub fn of(options: &SystemOptions) -> Edition {
        read(options, "edition", parse).unwrap_or_default()
    }

    /// The edition in force for an event that started on this date: the 2017 text before
    /// 1 February 2026.
    pub fn in_force_on(year: u32, month: u32, day: u32) -> Edition {
        if (year, month, day) < TEXT_2026_FROM {
            Edition::E2017
        } else {
            Edition::E2026
        }
    }

    /// The FIDE text whose definitions of floats and PAB eligibility this edition reads.
    pub fn text(self) -> crate::systems::common::fide_players::FideText {
        use crate::systems::common::fide_players::FideText;
        match self {
            Edition::E2017 => FideText::Y2017,
            Edition::E2026 => FideText::Y2026,
        }
    }

    pub fn year(self) -> &'static str {
        match self {
            Edition::E2017 => "2017",
            Edition::E2026 => "2026",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Edition::E2017 => "FIDE (Dutch) system, 2017 edition",
            Edition::E2026 => "FIDE (Dutch) system, 2026 edition",
        }
    }

    pub fn rule_set(self) -> &'static str {
        match self {
            Edition::E2017 => {
                "FIDE C.04.1, C.04.2, C.04.3 (2017 edition, applied until 31 January 2026); acceleration when given"
            }
            Edition::E2026 => "FIDE C.04.1, C.04.2, C.04.3 (2026); acceleration C.04.7 when given",
        }
    }

    /// The TRF-26 record 192 code (ETT26).
    pub fn trf_code(self) -> &'static str {
        match self {
            Edition::E2017 => "FIDE_DUTCH_2017",
            Edition::E2026 => "FIDE_DUTCH_2026",
        }
    }

    /// The article of this edition that says what the 2026 article `id` says (the
    /// explanation is written once, citing 2026 articles; the 2017 text numbers its
    /// sections A-E): A.2 order, A.3 scoregroups and brackets, B.2 subgroups, B.3
    /// candidates, B.4 evaluation, D.1 transpositions, D.2 exchanges, D.3 MDP exchanges,
    /// E.1-E.5 colours; criteria keep their table's ids.
    pub fn article(self, id: &str) -> String {
        if self == Edition::E2026 {
            return id.to_string();
        }
        let Some(article) = id.strip_prefix("C.04.3 ") else {
            return id.to_string();
        };
        let mapped = match article {
            "1.2" => "A.2",
            "1.3" => "A.3",
            "1.4" => "A.4",
            "1.9" => "A.9",
            "3.2" => "B.2",
            "3.3" => "B.3",
            "3.8" => "B.4",
            "4.2" => "D.1",
            "4.3" => "D.2",
            "4.4" => "D.3",
            "5.2.1" => "E.1",
            "5.2.2" => "E.2",
            "5.2.3" => "E.3",
            "5.2.4" => "E.4",
            "5.2.5" => "E.5",
            other => other,
        };
        format!("C.04.3 {mapped}")
    }
}

fn parse(value: &str) -> Result<Edition, String> {
    parse_choice(value, CHOICES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_edition_follows_the_start_date() {
        assert_eq!(Edition::in_force_on(2026, 1, 31), Edition::E2017);
        assert_eq!(Edition::in_force_on(2026, 2, 1), Edition::E2026);
        assert_eq!(Edition::in_force_on(2019, 7, 4), Edition::E2017);
    }

    #[test]
    fn articles_map_to_the_2017_sections() {
        assert_eq!(Edition::E2017.article("C.04.3 4.3"), "C.04.3 D.2");
        assert_eq!(Edition::E2017.article("C.04.3 5.2.5"), "C.04.3 E.5");
        assert_eq!(Edition::E2026.article("C.04.3 4.3"), "C.04.3 4.3");
        assert_eq!(Edition::E2017.article("C.04.3 C.12"), "C.04.3 C.12");
    }
}
