//! The Dubov system, 2026 edition (FIDE C.04.4.1, in force since 1 February 2026), with
//! the general handling rules (C.04.2) and the basic rules (C.04.1).
//!
//! Not to be confused with `systems::colour_alternation::dubov`, JavaPairing's own
//! pre-2016 engine used by another system.
//!
//! * `players.rs`: pairing scores (acceleration through `systems::common::acceleration`),
//!   ARO (art. 1.7), colour preferences (art. 1.6, the Dutch system's computation plus
//!   art. 1.6.4), upfloats (art. 1.8), PAB eligibility ([C2]) and the legal pairs ([C1],
//!   [C3], without a topscorer exception);
//! * `procedure.rs`: the PAB first (art. 3.1), then each scoregroup from the top: the
//!   fewest upfloaters and the best first set of them (art. 3.2.1-3.2.2, 4.2), G1/G2 and
//!   the shifts (art. 3.2.3-3.2.4, 4.3), S1 and T2 (art. 3.2.5, 4.4);
//! * `colours.rs`: art. 5.2.
//!
//! Readings where the text is not explicit (also in `docs/decisions.md`, section Dubov):
//! an upfloat is a game played over the board against an opponent with a higher pairing
//! score; the previous round is round r-1; [C9] sums the upfloats of the maximum
//! upfloaters chosen; [C7] is the number of pairs of two players wanting the same colour
//! in the bracket's best legal pairing; [C6] compares the upfloaters' scores in ascending
//! order; upfloater sets and shift sets are ordered lexicographically by their sequence
//! numbers (art. 4.2.2, 4.3.3); [C8]-[C10] are compared after [C6] and [C7] and not in the
//! last round (XXR); step 2 of art. 3.2.4 takes only the larger subgroup's own members;
//! the middle of an even list (art. 4.3.3) is its two central players, the higher first;
//! games played (art. 3.1.4) are over-the-board games; a missing rating counts as 0.
pub mod colours;
pub mod compare;
pub mod players;
pub mod procedure;

use super::{
    AbsoluteRules, Board, ByeAssignment, Explanation, PairError, RoundPairing, RoundToPair, System,
    SystemInfo,
};
use crate::model::{Colour, SystemId};
use crate::systems::common::History;
use players::Field;
use procedure::Failure;

/// The Dubov system, 2026 edition.
pub struct Dubov;

impl System for Dubov {
    /// The acceleration (C.04.7), Dubov's one option.
    type Options = super::AccelerationMethod;

    fn options(&self, given: &crate::model::SystemOptions) -> Self::Options {
        super::options::acceleration(given)
    }

    /// The checker reads a file as the Dutch and Burstein checkers do: the initial colour
    /// and the number of rounds inferred from the record when `XXC`/`XXR` are missing
    /// (`check::infer`; CPPDubovSystem's files carry no `XXC` and give the rounds as `TNR`).
    fn checks_as_the_reference(&self) -> bool {
        true
    }

    /// FIDE_DUBOV (ETT26), `_BAKU` with the Baku acceleration.
    fn trf_code(&self, options: &Self::Options, _t: &crate::model::Tournament) -> String {
        super::with_baku("FIDE_DUBOV", *options)
    }

    fn reads_trf_code(&self, code: &str) -> bool {
        super::without_baku(code) == "FIDE_DUBOV"
    }

    fn acceleration(&self, options: &Self::Options) -> super::AccelerationMethod {
        *options
    }

    /// SEP-5: the weak separations' criterion enters the choice of a bracket's upfloaters
    /// and its pairing (`procedure.rs`): after [C6] and before [C7] by default, after
    /// [C10] last, each time before the procedure's order (art. 4) chooses among the
    /// candidates that tie. Placed first (SEP-5.1) it joins [C4]: the round's fewest pairs
    /// within a group, kept reachable by the PAB and every set of upfloaters, so it ranks
    /// above [C5]-[C10] and art. 3.1's order.
    fn weak_separation_places(&self) -> &'static [crate::model::WeakPlace] {
        &crate::model::WeakPlace::ALL
    }

    /// "Why not?" in Dubov's order (`compare.rs`).
    fn compare(
        &self,
        _options: &Self::Options,
        round: &RoundToPair,
        first: &RoundPairing,
        second: &RoundPairing,
    ) -> Option<super::comparison::Comparison> {
        crate::systems::comparison::unless_same(first, second, || {
            Some(compare::compare(
                round,
                &History::build(round),
                first,
                second,
            ))
        })
    }

    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: SystemId::Dubov,
            title: "FIDE Dubov system, 2026 edition",
            rule_set: "FIDE C.04.1, C.04.2, C.04.4.1 (2026); acceleration C.04.7 when given",
            options: vec![super::OptionInfo::ACCELERATION],
        }
    }

    /// FIDE's absolute rules, with the colour limits kept in the last round too: [C3] of
    /// C.04.4.1 has no topscorer exception, so a manual pairing of the last
    /// round is held to them as the engine is.
    /// Dubov art. 3.1: the PAB goes to the lowest score first (MP-2).
    fn lowest_score_bye_rule(&self, _options: &Self::Options) -> Option<&'static str> {
        Some("C.04.4.1 art. 3.1")
    }
    fn absolute_rules(&self, _options: &Self::Options) -> AbsoluteRules {
        AbsoluteRules {
            colour_rule: "C.04.4.1 [C3]",
            colour_limits_in_last_round: true,
            ..AbsoluteRules::FIDE
        }
    }

    fn pair(&self, r: &RoundToPair, _options: &Self::Options) -> Result<RoundPairing, PairError> {
        r.require_results()?;
        let history = History::build(r);
        let field = Field::build(r, &history);
        let id = |e: usize| r.id(field.entrants[e].player).to_string();
        let outcome = match procedure::pair_round(&field) {
            Ok(o) => o,
            Err(Failure::NoLegal { rule, message }) => {
                let mut explanation = Explanation::default();
                explanation.group(format!("round {}", r.number));
                explanation.step(&rule, message.clone(), Vec::new());
                return Err(PairError::NoLegalPairing {
                    rule,
                    message,
                    explanation,
                });
            }
            Err(Failure::Internal(message)) => return Err(PairError::Internal(message)),
        };
        let mut out = RoundPairing {
            round: r.number,
            ..RoundPairing::default()
        };
        let ex = &mut out.explanation;
        ex.group(format!("round {}", r.number));
        ex.detail(
            "C.04.4.1 art. 1.3",
            format!(
                "{} players to pair; MaxT = {} (art. 1.8.2){}",
                field.len(),
                field.max_t,
                if field.last_round {
                    "; last round: [C8]-[C10] are not applied"
                } else {
                    ""
                }
            ),
            Vec::new(),
        );
        if let Some(b) = outcome.bye {
            let e = &field.entrants[b];
            ex.step(
                "C.04.4.1 art. 3.1",
                format!(
                    "pairing-allocated bye to {}: may receive it ([C2]), leaves a complete pairing ([C4]); lowest score {}, then most games played ({}), then largest TPN ({})",
                    id(b),
                    e.score,
                    e.played,
                    e.tpn
                ),
                vec![e.player],
            );
            out.byes
                .push(ByeAssignment::pab(e.player, &r.tournament.scoring));
        }
        for b in &outcome.brackets {
            explain_bracket(ex, &field, b, &id);
        }
        // Colours (art. 5) and board order.
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
        boards.sort_by_key(|&(w, b, _)| {
            let (ew, eb) = (&field.entrants[w], &field.entrants[b]);
            crate::systems::common::board_order_key((ew.points, ew.tpn), (eb.points, eb.tpn))
        });
        ex.group("colours");
        for &(w, b, rule) in &boards {
            let (ew, eb) = (&field.entrants[w], &field.entrants[b]);
            ex.detail(
                rule.id(),
                format!("{} (White) - {} (Black): {}", id(w), id(b), rule.describe()),
                vec![ew.player, eb.player],
            );
            out.boards.push(Board {
                white: ew.player,
                black: eb.player,
            });
        }
        Ok(out)
    }
}

fn names(list: &[usize], id: &dyn Fn(usize) -> String) -> String {
    if list.is_empty() {
        return "none".to_string();
    }
    list.iter().map(|&e| id(e)).collect::<Vec<_>>().join(", ")
}

fn explain_bracket(
    ex: &mut Explanation,
    f: &Field,
    b: &procedure::BracketOutcome,
    id: &dyn Fn(usize) -> String,
) {
    let players = |l: &[usize]| l.iter().map(|&e| f.entrants[e].player).collect::<Vec<_>>();
    ex.group(format!("scoregroup {}", b.score));
    ex.detail(
        "C.04.4.1 art. 1.3",
        format!("residents: {}", names(&b.residents, id)),
        players(&b.residents),
    );
    ex.step(
        "C.04.4.1 art. 3.2.2",
        format!(
            "{} upfloater(s) ([C5], art. 3.2.1): {}; the first set (art. 4.2) of the best by [C6]-[C10] (art. 2.3){}",
            b.upfloaters.len(),
            names(&b.upfloaters, id),
            if b.limited {
                " (search stopped at its limit: the best set found)"
            } else {
                ""
            }
        ),
        players(&b.upfloaters),
    );
    ex.detail(
        "C.04.4.1 art. 3.2.3",
        format!(
            "G1 {}: {}; G2: {}",
            if b.by_tpn {
                "(first half by TPN, nobody has played)"
            } else {
                "(White seekers)"
            },
            names(&b.g1, id),
            names(&b.g2, id)
        ),
        players(&b.g1).into_iter().chain(players(&b.g2)).collect(),
    );
    if !b.shifted_out_of_smaller.is_empty() || !b.shifted_out_of_larger.is_empty() {
        ex.step(
            "C.04.4.1 art. 3.2.4",
            format!(
                "shifted (art. 4.3 order): out of the smaller subgroup {}; out of the larger {}",
                names(&b.shifted_out_of_smaller, id),
                names(&b.shifted_out_of_larger, id)
            ),
            players(&b.shifted_out_of_smaller)
                .into_iter()
                .chain(players(&b.shifted_out_of_larger))
                .collect(),
        );
    }
    ex.detail(
        "C.04.4.1 art. 3.2.5",
        format!(
            "S1 (ARO, then TPN): {}; T2 (first legal transposition, art. 4.4): {}",
            names(&b.s1, id),
            names(&b.t2, id)
        ),
        players(&b.s1).into_iter().chain(players(&b.t2)).collect(),
    );
}
