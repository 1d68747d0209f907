//! Colour-alternation Swiss as JavaPairing 2.9 pairs it ("Svizzero Alternanza Colori",
//! Perfect Colours, file type 3; systems.md §5, javapairing.md §4 and §6.3).
//!
//! Rounds 2..R-1: everyone is due the colour opposite to his previous game [CD]; the top
//! half of the ranking (after one swap pass) plays the bottom half, due White against due
//! Black, by a depth-first search that only avoids rematches [PCS-SEARCH]. Round 1 and the
//! last round are paired by JavaPairing's own old Dubov engine ([`dubov`], §5) — CA-1.
//!
//! Where the text is silent: in the bye walk of §4.2 the colour due is asked only of
//! eligible players (it matters only for players who never played, through the toggle of
//! §1.3 step 5).
pub mod dubov;

use crate::model::{Colour, PlayerIdx, SystemId};
use crate::systems::common::javapairing::{ColourRule, Dues, Field, Trace, Variant, exchange_sort};
use crate::systems::{
    Board, ByeAssignment, PairError, RoundPairing, RoundToPair, System, SystemInfo,
};

pub struct ColourAlternation;

impl System for ColourAlternation {
    type Options = ();

    fn options(&self, _given: &crate::model::SystemOptions) {}

    /// This project's code (TRF-26 has none for JavaPairing's Perfect Colours).
    fn trf_code(&self, _options: &(), _t: &crate::model::Tournament) -> String {
        "CUSTOM_SWISS:JP_COLOUR_ALTERNATION".to_string()
    }

    fn reads_trf_code(&self, code: &str) -> bool {
        super::without_baku(code) == "CUSTOM_SWISS:JP_COLOUR_ALTERNATION"
    }

    /// Colours alternate (CA-2) but JavaPairing checks no colour prohibition in rounds 1
    /// and R (javapairing.md §6, CA-1/CA-2): no colour limit is absolute in every round.
    fn absolute_rules(&self, _options: &Self::Options) -> super::AbsoluteRules {
        super::AbsoluteRules {
            colours: super::ColourLimits::None,
            colour_rule: "CA-2",
            // CA-3's fallback: the last-ranked player even after a bye (javapairing.md §6).
            second_bye_rule: None,
            ..super::AbsoluteRules::FIDE
        }
    }
    /// SEP-5.3: where the criterion enters the group searches (`common/javapairing/search.rs`, and the S1-S2 search of CA-2 here):
    /// `WEAK` searches a group first with groupmates refused (kept if it pairs the group),
    /// then with each player's groupmates tried after his other candidates; `WEAK_LAST`
    /// only the latter. `WEAK_FIRST` is not offered: who is in S1 or S2 (the ranking and the swap pass) is not the searches'
    /// choice.
    fn weak_separation_places(&self) -> &'static [crate::model::WeakPlace] {
        &[
            crate::model::WeakPlace::Default,
            crate::model::WeakPlace::Last,
        ]
    }

    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: SystemId::ColourAlternation,
            title: "Colour-alternation Swiss (JavaPairing 2.9 Perfect Colours)",
            rule_set: "systems.md CA-1..CA-4 as JavaPairing 2.9 pairs them (javapairing.md §1, §4, §5)",
            options: Vec::new(),
        }
    }

    fn pair(&self, r: &RoundToPair, _options: &()) -> Result<RoundPairing, PairError> {
        let f = Field::build(r, Variant::PerfectColours)?;
        // §4.1 [PCS-SWITCH]: round 1 and every round r ≥ R go to the old Dubov engine.
        if f.round == 1 || f.round >= f.total {
            dubov::pair(&f)
        } else {
            pair_middle(&f)
        }
    }
}

/// JavaPairing's visit limit for the Perfect Colours search (§4.4).
pub const VISIT_LIMIT: u64 = 10_000;

/// Rounds 2..R-1 (§4.2-4.4).
fn pair_middle(f: &Field) -> Result<RoundPairing, PairError> {
    let mut tr = Trace::new();
    tr.group(format!(
        "round {} of {}: colour-alternation Swiss (JavaPairing 2.9 Perfect Colours)",
        f.round, f.total
    ));
    let mut out = RoundPairing {
        warnings: f.warnings(),
        ..RoundPairing::default()
    };
    // CA-4: JavaPairing asks "switch to Dubov?" here; the answer is a warning.
    let leaders: Vec<PlayerIdx> = f.ranking.iter().copied().take(2).collect();
    let alone = match leaders.as_slice() {
        [a, b] => f.score[*a] > f.score[*b],
        _ => false,
    };
    if f.round + 1 == f.total || alone {
        let why = if f.round + 1 == f.total {
            "two rounds remain".to_string()
        } else {
            format!("{} leads alone", f.name(leaders[0]))
        };
        let text = format!(
            "{why}: consider switching to a standard Swiss (players of equal ID parity never meet under colour alternation)"
        );
        tr.step("CA-4", format!("{text} [PCS-SWITCH]"), leaders.clone());
        out.warnings.push(
            super::Warning::new("SWITCH_SUGGESTED", "CA-4", text).with_players(leaders.clone()),
        );
    }

    let mut dues = Dues::new();
    let bye = f.bye_dominant_colour(&mut dues, &mut tr);

    // §4.3: dues asked now, in ranking order.
    let mut due_of = vec![Colour::White; f.id.len()];
    let mut t: Vec<PlayerIdx> = Vec::with_capacity(f.present_count);
    for p in f.present_ranking() {
        if Some(p) == bye {
            continue;
        }
        let (c, rule) = dues.due(f, p);
        due_of[p] = c;
        tr.detail("CA-2", &[p], || {
            format!(
                "{} ({}) is due {c}: {}",
                f.name(p),
                f.colour_string(p),
                rule.describe()
            )
        });
        t.push(p);
    }
    let h = t.len() / 2;
    swap_pass(f, &mut t, &due_of, &mut tr, "CA-2");
    let (top, bottom) = t.split_at_mut(h);
    // S1: score desc, ARO asc, rating asc. S2: score desc, rating desc, ARO desc.
    exchange_sort(top, |x, y| {
        (f.score[*y], f.aro[*x], f.rating[*x]) < (f.score[*x], f.aro[*y], f.rating[*y])
    });
    exchange_sort(bottom, |x, y| {
        (f.score[*y], f.rating[*y], f.aro[*y]) < (f.score[*x], f.rating[*x], f.aro[*x])
    });
    let list = |side: &[PlayerIdx]| {
        side.iter()
            .map(|&p| {
                format!(
                    "{} ({}, due {}, ARO {})",
                    f.name(p),
                    f.score[p],
                    due_of[p],
                    f.aro[p]
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    tr.step(
        "CA-2",
        format!(
            "S1 (score desc, ARO asc, rating asc): {} [PCS-S1S2]",
            list(top)
        ),
        top.to_vec(),
    );
    tr.step(
        "CA-2",
        format!(
            "S2 (score desc, rating desc, ARO desc): {} [PCS-S1S2]",
            list(bottom)
        ),
        bottom.to_vec(),
    );

    // SEP-5.3: with a weak separation at the default place in the field, the search runs
    // first with groupmates refused (kept if it finds a pairing), then with each player's
    // groupmates tried after his other candidates (as placed last).
    let places = f
        .weak
        .shared_places(top.iter().chain(bottom.iter()).copied());
    let mut modes = Vec::new();
    if places.contains(&crate::model::WeakPlace::Default) {
        modes.push(WeakMode::Refuse);
    }
    modes.push(if places.is_empty() {
        WeakMode::Off
    } else {
        WeakMode::Last
    });
    let (mut found, mut visits, mut path) = (false, 0, Vec::new());
    for (i, &weak) in modes.iter().enumerate() {
        if i > 0 {
            tr.detail("SEP-5.3", &[], || {
                "no pairing without groupmates of a weak separation: searched again with each player's groupmates tried last".to_string()
            });
        }
        let mut search = Search {
            f,
            due: &due_of,
            visits: 0,
            path: Vec::new(),
            tr: &mut tr,
            weak,
        };
        found = search.solve(top, &mut bottom.to_vec());
        visits = search.visits;
        path = std::mem::take(&mut search.path);
        if found && visits <= VISIT_LIMIT {
            break;
        }
    }
    if !found || visits > VISIT_LIMIT {
        let why = if visits > VISIT_LIMIT {
            format!("the search passed JavaPairing's limit of {VISIT_LIMIT} visits")
        } else {
            "no pairing of S1 against S2 gives every pair opposite dues without a rematch"
                .to_string()
        };
        return Err(PairError::NoLegalPairing {
            rule: "CA-2 [PCS-SEARCH]".to_string(),
            message: format!(
                "{why}; JavaPairing does not fall back here (\"Cannot perform pairing!\")"
            ),
            explanation: tr.finish(),
        });
    }
    tr.step(
        "CA-2",
        format!("S1 - S2 search found the pairing after {visits} visits [PCS-SEARCH]"),
        Vec::new(),
    );
    for (x, y) in path {
        let (white, black) = if due_of[x] == Colour::White {
            (x, y)
        } else {
            (y, x)
        };
        tr.step(
            "CA-2",
            format!(
                "{} - {}: {}",
                f.name(white),
                f.name(black),
                ColourRule::DueWhite.describe()
            ),
            vec![white, black],
        );
        out.boards.push(Board { white, black });
    }
    if let Some(p) = bye {
        out.byes
            .push(ByeAssignment::pab(p, &f.r.tournament.scoring));
    }
    tr.step("CA-2", "boards in S1 order, then the bye [OUT]", Vec::new());
    out.explanation = tr.finish();
    Ok(out)
}

/// §4.3 step 2, also used by the old Dubov (§5.6): one pass over the top half; a player due
/// Black there swaps with the first player due White of the bottom half.
pub fn swap_pass(f: &Field, list: &mut [PlayerIdx], due: &[Colour], tr: &mut Trace, rule: &str) {
    let h = list.len() / 2;
    for i in 0..h {
        if due[list[i]] != Colour::Black {
            continue;
        }
        if let Some(j) = (h..list.len()).find(|&j| due[list[j]] == Colour::White) {
            let (a, b) = (list[i], list[j]);
            tr.detail(rule, &[a, b], || {
                format!(
                    "{} (due Black) in the top half swaps with {} (due White) [PCS-S1S2 2]",
                    f.name(a),
                    f.name(b)
                )
            });
            list.swap(i, j);
        }
    }
}

/// How the search treats weak separations' groupmates (SEP-5.3).
#[derive(Clone, Copy, PartialEq, Eq)]
enum WeakMode {
    /// None in the field: JavaPairing's search.
    Off,
    /// Groupmates of a default-place separation refused, as if they had met.
    Refuse,
    /// Each player's groupmates tried after his other candidates, in S2 order.
    Last,
}

/// §4.4: S1 against S2 in S2 order, refusing same dues and rematches; no rotation.
struct Search<'s, 'f, 'a> {
    f: &'f Field<'a>,
    due: &'s [Colour],
    visits: u64,
    path: Vec<(PlayerIdx, PlayerIdx)>,
    tr: &'s mut Trace,
    weak: WeakMode,
}

impl Search<'_, '_, '_> {
    /// In place: a failed call leaves `s2` as it found it.
    fn solve(&mut self, s1: &[PlayerIdx], s2: &mut Vec<PlayerIdx>) -> bool {
        crate::cancel::checkpoint();
        let Some(&x) = s1.first() else {
            self.visits += 1;
            return true;
        };
        let passes: &[Option<bool>] = if self.weak == WeakMode::Last {
            &[Some(false), Some(true)]
        } else {
            &[None]
        };
        for &pass in passes {
            if self.candidates(x, s1, s2, pass) {
                return true;
            }
            if self.visits > VISIT_LIMIT {
                return false;
            }
        }
        false
    }

    /// The candidates of `x` in S2 order (`pass`: `Some(within)` only his groupmates of a
    /// weak separation, or only the others; SEP-5.3).
    fn candidates(
        &mut self,
        x: PlayerIdx,
        s1: &[PlayerIdx],
        s2: &mut Vec<PlayerIdx>,
        pass: Option<bool>,
    ) -> bool {
        let f = self.f;
        let mut j = 0;
        while j < s2.len() {
            if self.visits > VISIT_LIMIT {
                return false;
            }
            let y = s2[j];
            if pass.is_some_and(|within| f.weak.any_within(x, y) != within) {
                j += 1;
                continue;
            }
            if self.weak == WeakMode::Refuse
                && f.weak.within(x, y, crate::model::WeakPlace::Default)
            {
                self.visits += 1;
                self.tr.detail("SEP-5.3", &[x, y], || {
                    format!(
                        "{} - {} refused in this search: groupmates of a weak separation",
                        f.name(x),
                        f.name(y)
                    )
                });
                j += 1;
                continue;
            }
            if self.due[x] == self.due[y] {
                self.visits += 1;
                let c = self.due[x];
                self.tr.detail("CA-2", &[x, y], || {
                    format!("{} - {} refused: both due {c}", f.name(x), f.name(y))
                });
                j += 1;
                continue;
            }
            if f.blocked(x, y) {
                self.visits += 1;
                let why = if f.forbidden(x, y) {
                    "forbidden pair, CG-10"
                } else {
                    "already met"
                };
                self.tr.detail("CA-2", &[x, y], || {
                    format!("{} - {} refused: {why}", f.name(x), f.name(y))
                });
                j += 1;
                continue;
            }
            self.path.push((x, y));
            self.tr.detail("CA-2", &[x, y], || {
                format!("try {} - {} [PCS-SEARCH]", f.name(x), f.name(y))
            });
            s2.remove(j);
            if self.solve(&s1[1..], s2) {
                return true;
            }
            s2.insert(j, y);
            self.path.pop();
            self.tr.detail("CA-2", &[x, y], || {
                format!(
                    "undo {} - {}: the players left cannot be paired (backtrack) [PCS-SEARCH]",
                    f.name(x),
                    f.name(y)
                )
            });
            if self.visits > VISIT_LIMIT {
                return false;
            }
            j += 1;
        }
        false
    }
}
