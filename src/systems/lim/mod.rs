//! The Lim system (FIDE C.04.4.3, text applied from 1 February 2026; the content of the
//! 1987-1999 rules), with the basic rules (C.04.1), the general handling rules (C.04.2) and
//! Baku acceleration (C.04.7) when asked for.
//!
//! * `players.rs`: pairing scores, colours due (art. 5), compatibility (art. 2.1, 6),
//!   floats of the previous round (art. 3.10);
//! * `groups.rs`: the PAB (art. 1.1, 7.1), the median-first scoregroup order (art. 2.2),
//!   the floaters and their four types (art. 2.3, 3), the scrutiny and exchange tables
//!   (art. 2.4, 4), cracking a blocked Median Scoregroup (art. 2.6);
//! * `colours.rs`: art. 5, 7.2.
//!
//! # Readings
//! The text is procedural and leaves much to the reader; every reading is listed in
//! `docs/decisions.md` (section "Lim"). In short (the corpus's README numbers them L1-L20,
//! and this implementation follows the same readings):
//! * the PAB goes to the lowest score, then the highest pairing number, among the players
//!   C.04.1 art. 4 allows, the first whose removal leaves a complete pairing (art. 1.1);
//!   in round 1 to the lowest rated (art. 7.1);
//! * the Median Scoregroup is that of half of what the rounds played can give (rounds
//!   played × a win's points ÷ 2), on the pairing score; it may be empty;
//! * a scoregroup keeps as many pairings as it can have: as many players float as a
//!   maximum matching leaves over, chosen one at a time (type d, c, b, then a; not floated
//!   in the previous round; due the majority colour; the lowest numbered downward, the
//!   highest numbered upward), each keeping that many pairings;
//! * the exchange tables of art. 4.2-4.3 for any size: the scrutinised player tries the
//!   bottom half in order, then the top half upwards; after each pairing the rest is
//!   proposed afresh; an opponent is available if compatible and the rest can still be
//!   paired (art. 4.4);
//! * "Maxi-tournament" is never defined: it is the option `maxi_tournament` (default
//!   false), which limits the colour-led choices of art. 3.2.3, 3.8 and 5.7 to players rated
//!   within 100 points;
//! * the last round (art. 6): players of the same score who have not met are compatible
//!   whatever their colours; players of different scores keep the colour limits.
pub mod colours;
pub mod compare;
pub mod groups;
pub mod players;

use super::{
    Board, ByeAssignment, OptionInfo, PairError, RoundPairing, RoundToPair, System, SystemInfo,
};
use crate::model::{Colour, SystemId};
use crate::systems::common::History;
use crate::systems::options::{parse_bool, read};
use players::Field;

/// The Lim system.
pub struct Lim;

/// Lim's options, decoded once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub acceleration: super::AccelerationMethod,
    /// `maxi_tournament`: the organiser declared a "Maxi-tournament" (art. 3.2.3, 3.8,
    /// 5.7).
    pub maxi_tournament: bool,
}

impl System for Lim {
    type Options = Options;

    fn options(&self, given: &crate::model::SystemOptions) -> Self::Options {
        Options {
            acceleration: super::options::acceleration(given),
            maxi_tournament: read(given, "maxi_tournament", parse_bool).unwrap_or(false),
        }
    }

    /// Lim: the PAB to the lowest-ranked player of the lowest score group (MP-2).
    fn lowest_score_bye_rule(&self, _options: &Self::Options) -> Option<&'static str> {
        Some("C.04.4.3")
    }

    /// The checker reads a file as the Dutch and Burstein checkers do: the initial colour
    /// and the number of rounds inferred from the record when `XXC`/`XXR` are missing
    /// (`check::infer`; as for the other FIDE Swiss systems).
    fn checks_as_the_reference(&self) -> bool {
        true
    }

    /// This project's code (ETT26 has none for Lim), `_BAKU` with the Baku acceleration.
    fn trf_code(&self, options: &Options, _t: &crate::model::Tournament) -> String {
        super::with_baku("CUSTOM_SWISS:LIM_2026", options.acceleration)
    }

    /// Ours, or the obvious FIDE-style spelling.
    fn reads_trf_code(&self, code: &str) -> bool {
        matches!(
            super::without_baku(code),
            "CUSTOM_SWISS:LIM_2026" | "FIDE_LIM" | "FIDE_LIM_2026"
        )
    }

    /// SEP-5: Lim is a procedure; the weak separations' criterion enters where it chooses
    /// (`groups.rs`): a scoregroup's floaters, after "as many pairings as it can have"
    /// (art. 2.3, 3.10.2) and before their type (art. 3.9.2), and the scrutiny's
    /// opponents, after "the others can still be paired" (art. 4.4) and before the colour
    /// exchange (art. 5.2): each choice keeps the scoregroup's fewest pairs within a group.
    /// `WEAK_FIRST` (LIM-SEP.1): the round's fewest pairs within a group over every legal
    /// pairing, kept reachable by the PAB, each scoregroup's floaters and each pair, as
    /// completion is in the other systems; `WEAK_LAST`
    /// (LIM-SEP.2): after art. 3.2.2 for the floaters and after art. 5.2 in the scrutiny,
    /// before the pairing numbers and the exchange order (`docs/systems/lim.md`).
    fn weak_separation_places(&self) -> &'static [crate::model::WeakPlace] {
        &crate::model::WeakPlace::ALL
    }

    fn acceleration(&self, options: &Options) -> super::AccelerationMethod {
        options.acceleration
    }

    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: SystemId::Lim,
            title: "FIDE Lim system (C.04.4.3)",
            rule_set: "FIDE C.04.1, C.04.2, C.04.4.3 (2026); acceleration C.04.7 when given",
            options: vec![
                OptionInfo::ACCELERATION,
                OptionInfo {
                    name: "maxi_tournament",
                    kind: "bool",
                    default_value: "false",
                    description: "a Maxi-tournament (C.04.4.3 art. 3.2.3, 3.8, 5.7): choices made for colours only between players rated within 100 points",
                    parse: |v| parse_bool(v).map(|_| ()),
                },
            ],
        }
    }

    fn pair(&self, r: &RoundToPair, options: &Self::Options) -> Result<RoundPairing, PairError> {
        r.require_results()?;
        let t = &r.tournament;
        let history = History::build(r);
        let mut field = Field::build(r, &history, options.maxi_tournament);
        let id = |p: usize| r.id(p).to_string();
        let mut out = RoundPairing {
            round: r.number,
            ..RoundPairing::default()
        };
        out.explanation.group(format!("round {}", r.number));
        if field.maxi {
            out.explanation.step(
                "C.04.4.3 art. 3.2.3",
                "Maxi-tournament: colour-led choices only between players rated within 100 points",
                Vec::new(),
            );
        }
        let outcome = match groups::pair_round(&field, &mut out.explanation, &id) {
            Ok(o) => o,
            Err(blocked) if blocked.internal => {
                return Err(PairError::Internal(format!(
                    "{}: {}",
                    blocked.rule, blocked.message
                )));
            }
            Err(blocked) => {
                let mut explanation = out.explanation;
                explanation.step(&blocked.rule, blocked.message.clone(), Vec::new());
                return Err(PairError::NoLegalPairing {
                    rule: blocked.rule,
                    message: blocked.message,
                    explanation,
                });
            }
        };
        if outcome.pairs.len() * 2 + usize::from(outcome.bye.is_some()) != field.len() {
            return Err(PairError::Internal(format!(
                "Lim: {} pairs and {} bye for {} players",
                outcome.pairs.len(),
                usize::from(outcome.bye.is_some()),
                field.len()
            )));
        }
        // Art. 7.2 (reading L2): in round 1 the boards alternate, whoever is absent.
        if r.number == 1 {
            let mut seat = 0;
            for (i, e) in field.entrants.iter_mut().enumerate() {
                if Some(i) != outcome.bye {
                    seat += 1;
                    e.seat = seat;
                }
            }
        }
        // Colours (art. 5) and board order (C.04.2 art. 3.6).
        let mut boards: Vec<(usize, usize, colours::ColourRule)> = outcome
            .pairs
            .iter()
            .map(|m| {
                let (ea, eb) = (&field.entrants[m.a], &field.entrants[m.b]);
                let (ca, rule) = colours::allocate(ea, eb, m.median_or_above, r.initial_colour);
                if ca == Colour::White {
                    (m.a, m.b, rule)
                } else {
                    (m.b, m.a, rule)
                }
            })
            .collect();
        boards.sort_by_key(|&(w, b, _)| {
            let (ew, eb) = (&field.entrants[w], &field.entrants[b]);
            crate::systems::common::board_order_key((ew.points, ew.tpn), (eb.points, eb.tpn))
        });
        out.explanation.group("colours");
        for &(w, b, rule) in &boards {
            let (ew, eb) = (&field.entrants[w], &field.entrants[b]);
            out.explanation.detail(
                rule.article(),
                format!(
                    "{} (White) - {} (Black): {}",
                    id(ew.player),
                    id(eb.player),
                    rule.describe()
                ),
                vec![ew.player, eb.player],
            );
            out.boards.push(Board {
                white: ew.player,
                black: eb.player,
            });
        }
        if let Some(b) = outcome.bye {
            out.byes
                .push(ByeAssignment::pab(field.entrants[b].player, &t.scoring));
        }
        Ok(out)
    }

    /// "Why not?" in the system's own order (`compare.rs`).
    fn compare(
        &self,
        options: &Self::Options,
        round: &RoundToPair,
        first: &RoundPairing,
        second: &RoundPairing,
    ) -> Option<crate::systems::comparison::Comparison> {
        crate::systems::comparison::unless_same(first, second, || {
            compare::compare(
                round,
                options,
                &crate::systems::History::build(round),
                first,
                second,
            )
        })
    }
}
