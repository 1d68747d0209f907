//! The FIDE (Dutch) system, 2026 edition (C.04.3, in force since 1 February 2026), with the
//! general handling rules (C.04.2) and the basic rules (C.04.1); and its 2017 edition
//! (option `edition=2017`, `edition.rs` says what differs and where).
//!
//! * `systems::common::fide_players` (shared with Burstein and Dubov): who is paired,
//!   scores (adjourned games as draws, acceleration: explicit virtual points or the Baku
//!   method of `systems::common::acceleration`), compressed colour histories and
//!   preferences, floats, PAB eligibility, C1/C3, read by the edition's text;
//! * `criteria.rs`: the criteria tables (C1-C21, and the 2017 text's), also the order
//!   "why not?" compares in (`System::compare`, through `common::fide_compare`);
//! * `weights.rs`: the criteria as fields of one wide edge weight;
//! * `brackets.rs`: scoregroups, brackets, and the procedure that pairs them with a
//!   maximum-weight matching and fixes the remaining choices in the order of art. 4;
//! * `colours.rs`: art. 5;
//! * `explain.rs`: the explanation.
//!
//! The result is identical to the FIDE-endorsed engine bbpPairings 6 (`--dutch`) on the
//! whole conformance corpus (`tests/dutch.rs`). Where the rules are silent the decisions
//! follow that engine; they are listed in `docs/systems/dutch.md`. One deliberate difference: C2 counts
//! a full-point bye as a win without playing (C.04.1 art. 4, as the crate's table says),
//! which bbpPairings does not; no corpus round depends on it.
pub mod brackets;
pub mod colours;
pub mod criteria;
pub mod edition;
pub mod explain;
pub mod weights;

use super::{Board, ByeAssignment, PairError, RoundPairing, RoundToPair, System, SystemInfo};
use crate::model::{ByeKind, Colour, SystemId};
use crate::systems::Detail;
use crate::systems::common::History;
use crate::systems::common::fide_players::{self as players, Field};
use brackets::Failure;
use edition::Edition;

/// The Dutch system, 2026 edition.
pub struct Dutch;

/// The Dutch system's options, decoded once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub edition: Edition,
    pub acceleration: super::AccelerationMethod,
}

impl System for Dutch {
    type Options = Options;

    fn options(&self, given: &crate::model::SystemOptions) -> Self::Options {
        Options {
            edition: Edition::of(given),
            acceleration: super::options::acceleration(given),
        }
    }

    /// FIDE_DUTCH_2026 or FIDE_DUTCH_2017 (ETT26), `_BAKU` with the Baku acceleration.
    fn trf_code(&self, options: &Options, _t: &crate::model::Tournament) -> String {
        super::with_baku(options.edition.trf_code(), options.acceleration)
    }

    /// ETT26's Dutch codes: `FIDE_DUTCH_2017`, `_2026` (`_2025`), and bare `FIDE_DUTCH`,
    /// which follows the event's start date.
    fn reads_trf_code(&self, code: &str) -> bool {
        matches!(
            super::without_baku(code),
            "FIDE_DUTCH" | "FIDE_DUTCH_2026" | "FIDE_DUTCH_2025" | "FIDE_DUTCH_2017"
        )
    }

    fn read_trf_code(
        &self,
        code: &str,
        dates: &super::EventDates,
        t: &mut crate::model::Tournament,
    ) -> Vec<String> {
        let base = super::without_baku(code);
        // A declared name: `set` cannot fail.
        if base == "FIDE_DUTCH_2017" {
            let _ = t.options.set("edition", "2017");
        }
        let by_date = base == "FIDE_DUTCH";
        let mut notes = Vec::new();
        if code.ends_with("_BAKU") {
            let text_2017 = t.options.get("edition") == Some("2017")
                || (by_date && dates.start.is_some_and(|d| d < edition::TEXT_2026_FROM));
            if text_2017 {
                // The 2017 edition as its reference engine (bbpPairings 5) reads a file: it
                // reads no record 192 and generates no virtual points; they come from `XXA`
                // lines only.
                notes.push(
                    "192 ..._BAKU with the Dutch 2017 edition: virtual points come from XXA lines only, as the edition's reference engine reads them; the suffix generates none (--acceleration BAKU asks for C.04.7's)".to_string(),
                );
            } else {
                let _ = t.options.set("acceleration", "BAKU");
            }
        }
        if by_date {
            // Bare FIDE_DUTCH: the edition in force when the event started.
            match dates.start {
                Some(date) => {
                    if date < edition::TEXT_2026_FROM {
                        let _ = t.options.set("edition", "2017");
                    }
                }
                None => notes.push(
                    "192 FIDE_DUTCH with no readable start date (042): the 2026 edition is assumed (FIDE_DUTCH means the 2017 edition for events that started before 1 February 2026); write FIDE_DUTCH_2017 or FIDE_DUTCH_2026 to say which".to_string(),
                ),
            }
        }
        notes
    }

    /// SEP-5: the weak separations' criterion is a field of the bracket's edge weight
    /// (`weights.rs`): after C9 (2017: C.7), before the colour criteria, by default; after
    /// C21 (2017: C.19) last. Placed first (before C6) it is not offered: the bracket
    /// procedure chooses which scoregroup below to bring into the graph (C8) and where to
    /// complete (C4) on the premise that the bracket makes the most pairs it can, which a
    /// criterion above C6 would break.
    /// `WEAK_FIRST` joins completion (C4 / C.4, `brackets.rs`); `WEAK` and `WEAK_LAST`
    /// are fields of the bracket's weight (`weights.rs`).
    fn weak_separation_places(&self) -> &'static [crate::model::WeakPlace] {
        &crate::model::WeakPlace::ALL
    }

    fn rule_set(&self, options: &Options) -> &'static str {
        options.edition.rule_set()
    }

    fn acceleration(&self, options: &Options) -> super::AccelerationMethod {
        options.acceleration
    }

    /// "Why not?": the edition's criteria (its table), bracket by bracket.
    fn compare(
        &self,
        options: &Options,
        round: &RoundToPair,
        first: &RoundPairing,
        second: &RoundPairing,
    ) -> Option<super::comparison::Comparison> {
        use crate::systems::common::fide_compare::{
            Order, compare_brackets, rules_from_table, with_weak_separations,
        };
        crate::systems::comparison::unless_same(first, second, || {
            let (table, order_rule) = match options.edition {
                Edition::E2017 => (criteria::DUTCH_2017, "C.04.3 D.1-D.2"),
                Edition::E2026 => (criteria::DUTCH_2026, "C.04.3 art. 4"),
            };
            Some(compare_brackets(
                round,
                &History::build(round),
                first,
                second,
                Order {
                    // SEP-5 where the weights put it (`weights.rs`).
                    rules: with_weak_separations(
                        rules_from_table(table, "C.04.3"),
                        round,
                        criteria::Measure::TopscorerColourDifference,
                    ),
                    order_rule,
                    text: options.edition.text(),
                    ppb_rule: (options.edition == Edition::E2017)
                        .then(|| criteria::id(criteria::DUTCH_2017, criteria::Measure::Completion)),
                },
            ))
        })
    }

    /// The 2017 text's C.2 bars the PAB after a PAB or a forfeit win (a requested
    /// full-point bye does not); the 2026 text reads C.04.1 art. 4.
    fn pab_barred(
        &self,
        options: &Options,
        round: &RoundToPair,
        history: &History,
        p: crate::model::PlayerIdx,
    ) -> bool {
        match options.edition {
            Edition::E2017 => players::pab_barred_2017(history.player(p)),
            Edition::E2026 => !history.pab_eligible(p, round.tournament.scoring.win),
        }
    }

    /// Real reports of 2026 events are still paired by the 2017 rules: the other edition
    /// (AU-2).
    fn other_readings(&self, options: &Options) -> Vec<super::OtherReading> {
        let (current, other, value) = match options.edition {
            Edition::E2026 => ("the 2026 edition", "the 2017 edition", "2017"),
            Edition::E2017 => ("the 2017 edition", "the 2026 edition", "2026"),
        };
        vec![super::OtherReading {
            current,
            other,
            option: "edition",
            value,
            rule_id: "C.04.3",
        }]
    }

    /// bbpPairings' checker infers XXC and XXR from the record (`check::infer`).
    fn checks_as_the_reference(&self) -> bool {
        true
    }
    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: SystemId::Dutch,
            title: "FIDE (Dutch) system, 2026 edition (2017 edition: option edition=2017)",
            rule_set: Edition::E2026.rule_set(),
            options: vec![super::OptionInfo::ACCELERATION, Edition::OPTION],
        }
    }

    /// The 2026 text's C5 minimises the PAB assignee's score (MP-2); the 2017 text has no
    /// criterion of that wording, so its proposals are not warned.
    fn lowest_score_bye_rule(&self, options: &Options) -> Option<&'static str> {
        match options.edition {
            Edition::E2017 => None,
            Edition::E2026 => Some("C.04.3 C5"),
        }
    }

    /// The 2017 text's rule against a second PAB is its C.2.
    fn absolute_rules(&self, options: &Options) -> super::AbsoluteRules {
        match options.edition {
            Edition::E2017 => super::AbsoluteRules {
                second_bye_rule: Some("C.04.3 C.2"),
                ..super::AbsoluteRules::FIDE
            },
            Edition::E2026 => super::AbsoluteRules::FIDE,
        }
    }

    fn checklist(&self, r: &RoundToPair, options: &Options) -> Option<crate::systems::Checklist> {
        let history = History::build(r);
        Some(players::checklist(
            r,
            &Field::build(r, &history, options.edition.text()),
            &history,
        ))
    }

    fn pair(&self, r: &RoundToPair, options: &Self::Options) -> Result<RoundPairing, PairError> {
        r.require_results()?;
        let history = History::build(r);
        let field = Field::build(r, &history, options.edition.text());
        let table = match options.edition {
            Edition::E2017 => criteria::DUTCH_2017,
            Edition::E2026 => criteria::DUTCH_2026,
        };
        let c4 = format!(
            "C.04.3 {}",
            criteria::id(table, criteria::Measure::Completion)
        );
        let t = &r.tournament;
        let id = |p: usize| r.id(p);
        let mut out = RoundPairing::default();
        let outcome = match brackets::pair_round(&field) {
            Ok(o) => o,
            Err(Failure::Incomplete(message)) => {
                let mut explanation = crate::systems::Explanation::default();
                explanation.group(format!("round {}", r.number));
                explanation.step(&c4, message.clone(), Vec::new());
                return Err(PairError::NoLegalPairing {
                    rule: c4,
                    message,
                    explanation,
                });
            }
            Err(Failure::Internal(message)) => return Err(PairError::Internal(message)),
        };
        // Steps the request's detail level drops are not written (the pipeline filters
        // them anyway): no explanation at all for NONE, no full-detail steps for SUMMARY.
        let explain = r.detail > Detail::None;
        let full = r.detail >= Detail::Full;
        let ex = &mut out.explanation;
        if explain {
            ex.group(format!("round {}", r.number));
            if full {
                ex.detail(
                    "C.04.3 1.2",
                    format!(
                        "{} players to pair in {} scoregroup(s){}",
                        field.len(),
                        outcome.brackets.len(),
                        if field.last_round {
                            "; final round: topscorers are exempt from C3"
                        } else {
                            ""
                        }
                    ),
                    Vec::new(),
                );
            }
            explain::brackets(ex, table, &field, &outcome, &id, full);
            explain::bye(ex, table, &field, &outcome, &id);
        }
        // Colours (art. 5) and board order (GHR 3.6).
        let mut boards: Vec<(usize, usize, colours::ColourRule)> = outcome
            .pairs
            .iter()
            .map(|&(a, b)| {
                let (ea, eb) = (&field.entrants[a], &field.entrants[b]);
                let (ca, rule) = colours::allocate(ea, eb, r.initial_colour);
                if ca == Colour::White {
                    (a, b, rule)
                } else {
                    (b, a, rule)
                }
            })
            .collect();
        let key = |&(w, b, _): &(usize, usize, colours::ColourRule)| {
            let (ew, eb) = (&field.entrants[w], &field.entrants[b]);
            crate::systems::common::board_order_key((ew.points, ew.rank), (eb.points, eb.rank))
        };
        boards.sort_by_key(key);
        if explain {
            ex.group("colours");
        }
        for &(w, b, rule) in &boards {
            if explain {
                explain::colour_step(
                    ex,
                    &field.entrants[w],
                    &field.entrants[b],
                    rule,
                    r.id(field.entrants[w].player),
                    r.id(field.entrants[b].player),
                );
            }
            out.boards.push(Board {
                white: field.entrants[w].player,
                black: field.entrants[b].player,
            });
        }
        if let Some(b) = outcome.bye {
            out.byes.push(ByeAssignment {
                player: field.entrants[b].player,
                kind: ByeKind::Pab,
                points: ByeKind::Pab.points(&t.scoring),
            });
        }
        // The criteria table names its criteria `C1`..`C21`: cited as `C.04.3 C12`; the
        // 2017 text's own ids (`C.12`, `E.1`, `D.2`) in the same shape.
        out.explanation.qualify_rule_ids("C.04.3");
        if options.edition == Edition::E2017 {
            for s in out
                .explanation
                .groups
                .iter_mut()
                .flat_map(|g| g.steps.iter_mut())
            {
                s.rule_id = if s.rule_id.starts_with("C.") && !s.rule_id.contains(' ') {
                    format!("C.04.3 {}", s.rule_id)
                } else {
                    options.edition.article(&s.rule_id)
                };
            }
        }
        Ok(out)
    }
}
