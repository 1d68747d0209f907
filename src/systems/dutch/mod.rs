//! The FIDE (Dutch) system, 2026 edition (C.04.3, in force since 1 February 2026), with the
//! general handling rules (C.04.2) and the basic rules (C.04.1); and its 2017 edition
//! (option `edition=2017`, `edition.rs` says what differs and where).
//!
//! * `players.rs`: who is paired, scores (adjourned games as draws, acceleration: explicit
//!   virtual points or the Baku method of `systems::common::acceleration`),
//!   compressed colour histories and preferences, floats, PAB eligibility, C1/C3;
//! * `criteria.rs`: the criteria table (C1-C21);
//! * `weights.rs`: the criteria as fields of one wide edge weight;
//! * `brackets.rs`: scoregroups, brackets, and the procedure that pairs them with a
//!   maximum-weight matching and fixes the remaining choices in the order of art. 4;
//! * `colours.rs`: art. 5;
//! * `explain.rs`: the explanation.
//!
//! The result is identical to the FIDE-endorsed engine bbpPairings 6 (`--dutch`) on the
//! whole conformance corpus (`tests/dutch.rs`). Where the rules are silent the decisions
//! follow that engine; they are listed in the README. One deliberate difference: C2 counts
//! a full-point bye as a win without playing (C.04.1 art. 4, as the crate's table says),
//! which bbpPairings does not; no corpus round depends on it.
pub mod brackets;
pub mod colours;
pub mod criteria;
pub mod edition;
pub mod explain;
pub mod weights;

use super::{
    Board, ByeAssignment, PairError, PairingSystem, RoundPairing, RoundToPair, SystemInfo,
};
use crate::model::{ByeKind, Colour, SystemId};
use crate::systems::Detail;
use crate::systems::common::History;
use crate::systems::common::fide_players::{self as players, Field};
use brackets::Failure;
use edition::Edition;

/// The Dutch system, 2026 edition.
pub struct Dutch;

impl PairingSystem for Dutch {
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

    fn rule_set_for(&self, options: &crate::model::SystemOptions) -> &'static str {
        Edition::of(options).rule_set()
    }

    fn checklist(&self, r: &RoundToPair) -> Option<crate::systems::Checklist> {
        let history = History::build(r);
        Some(players::checklist(r, &Field::build(r, &history), &history))
    }

    fn pair(&self, r: &RoundToPair) -> Result<RoundPairing, PairError> {
        r.require_results()?;
        let history = History::build(r);
        let field = Field::build(r, &history);
        let table = match field.edition {
            Edition::E2017 => criteria::DUTCH_2017,
            Edition::E2026 => criteria::DUTCH_2026,
        };
        let c4 = format!(
            "C.04.3 {}",
            criteria::id(table, criteria::Measure::Completion)
        );
        let t = &r.tournament;
        let id = |p: usize| r.id(p).to_string();
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
                explain::colour_step(ex, &field.entrants[w], &field.entrants[b], rule, &id);
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
        if field.edition == Edition::E2017 {
            for s in out
                .explanation
                .groups
                .iter_mut()
                .flat_map(|g| g.steps.iter_mut())
            {
                s.rule_id = if s.rule_id.starts_with("C.") && !s.rule_id.contains(' ') {
                    format!("C.04.3 {}", s.rule_id)
                } else {
                    field.edition.article(&s.rule_id)
                };
            }
        }
        Ok(out)
    }
}
