//! Two pairings of one round compared in the order of a Dutch-family criteria list,
//! bracket by bracket: the Dutch system's (C.04.3 art. 2, or the 2017 section C, from its
//! tables) and Burstein's 2026 text (C.04.4.2 C5-C8); each system builds its list in its
//! folder (`dutch/compare.rs`, `burstein/compare.rs`) and calls [`compare_brackets`].
//!
//! These systems apply their quality criteria bracket by bracket, top-down: the first
//! bracket where two pairings part is where the system chose between them, and there the
//! first criterion on which they differ decides (a criterion about the next bracket, Dutch
//! C8 / Burstein C7, looks one bracket further). When the brackets where they part tie on
//! every criterion, the system's rule of order chose (Dutch art. 4's sequence of
//! transpositions and exchanges, Burstein's Index order).
//!
//! The per-player facts (pairing score with acceleration, colour preference, floats of the
//! last two rounds) are the engine's own ([`Field`]), so a value here is the value the
//! engine optimised.
use std::collections::{BTreeMap, BTreeSet};

use crate::model::{Colour, PlayerIdx, Score, WeakPlace};
use crate::systems::common::fide_criteria::{self, Criterion, Kind, Measure};
use crate::systems::common::fide_players::{Entrant, FideText, Field};
use crate::systems::common::{Float, History};
use crate::systems::comparison::{Comparison, Value, difference, pab_of, pab_value, show_scores};
use crate::systems::{RoundPairing, RoundToPair};

/// A criterion as compared here.
pub struct Rule {
    pub rule_id: String,
    pub text: &'static str,
    pub measure: Measure,
}

/// The bye and quality criteria of a criteria table, as compared here, cited in `document`
/// (`C.04.3`).
pub fn rules_from_table(table: &[Criterion], document: &str) -> Vec<Rule> {
    table
        .iter()
        .filter(|c| matches!(c.kind, Kind::Bye | Kind::Quality))
        .map(|c| Rule {
            rule_id: format!("{document} {}", c.id),
            text: c.text,
            measure: c.measure,
        })
        .collect()
}

/// SEP-5: the rules list with the weak separations' criterion at each place the round
/// uses: `First` at the head, counted over the whole round (it joins completion, C4:
/// [`compare_brackets`] reads it before the PAB and every bracket), `Default` before the
/// criterion measured by `default_before` (the first colour criterion), `Last` after
/// every rule.
pub fn with_weak_separations(
    mut rules: Vec<Rule>,
    round: &RoundToPair,
    default_before: Measure,
) -> Vec<Rule> {
    let weak = round.tournament.weak_separations(round.number);
    for &place in weak.places() {
        let rule = Rule {
            rule_id: "SEP-5".to_string(),
            text: match place {
                WeakPlace::First => {
                    "fewest pairs within a weakly separated group in the whole round (placed first: with completion, before every quality criterion)"
                }
                WeakPlace::Default => {
                    "fewest pairs within a weakly separated group (after the score-group criteria, before the colour criteria)"
                }
                WeakPlace::Last => {
                    "fewest pairs within a weakly separated group (placed last: after every criterion)"
                }
            },
            measure: Measure::WeakSeparation(place),
        };
        let at = match place {
            WeakPlace::First => 0,
            WeakPlace::Default => rules
                .iter()
                .position(|r| r.measure == default_before)
                .unwrap_or(rules.len()),
            WeakPlace::Last => rules.len(),
        };
        rules.insert(at, rule);
    }
    rules
}

/// The facts of the Dutch field, by player.
struct Facts<'a> {
    field: &'a Field,
    at: BTreeMap<PlayerIdx, usize>,
    colours: &'a History,
    /// 2017: the scoregroup the answer paired as the penultimate pairing bracket (A.9,
    /// C.4), from its explanation; C.7 holds neither there nor below (the collapsed last
    /// bracket).
    ppb: Option<Score>,
}

impl Facts<'_> {
    fn entrant(&self, p: PlayerIdx) -> Option<&Entrant> {
        self.at.get(&p).map(|&i| &self.field.entrants[i])
    }
    fn score(&self, p: PlayerIdx) -> Score {
        self.entrant(p).map_or(Score::ZERO, |e| e.score)
    }
    fn rank(&self, p: PlayerIdx) -> usize {
        self.at.get(&p).copied().unwrap_or(usize::MAX)
    }
}

/// SEP-5: the pairs of `pairs` within a group of a weak separation at `place`.
fn weak_pairs_of(
    facts: &Facts,
    pairs: impl Iterator<Item = (PlayerIdx, PlayerIdx)>,
    place: WeakPlace,
) -> Value {
    let weak = &facts.field.weak;
    let within: Vec<(PlayerIdx, PlayerIdx)> =
        pairs.filter(|&(a, b)| weak.within(a, b, place)).collect();
    let names: Vec<String> = within
        .iter()
        .map(|&(a, b)| {
            let group = weak.shared_group(a, b).map_or("", |(_, name)| name);
            let tpn = |p: PlayerIdx| facts.entrant(p).map_or(0, |e| e.tpn);
            format!("{}-{} ({group})", tpn(a), tpn(b))
        })
        .collect();
    Value {
        key: vec![within.len() as i64],
        shown: if within.is_empty() {
            "no pair within a separated group".to_string()
        } else {
            format!(
                "{} pair(s) within a separated group: {}",
                within.len(),
                names.join(", ")
            )
        },
        players: within.iter().flat_map(|&(a, b)| [a, b]).collect(),
    }
}

/// One bracket of one pairing in the downfloat model (Dutch, Burstein): the pairs made in
/// it (a pair belongs to the bracket of its lower score) and who leaves it unpaired.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Bracket {
    pairs: BTreeSet<(PlayerIdx, PlayerIdx)>,
    /// Board colours of those pairs, `(white, black)`.
    boards: Vec<(PlayerIdx, PlayerIdx)>,
    /// Residents and MDPs not paired here, in pairing order.
    floaters: Vec<PlayerIdx>,
    residents: Vec<PlayerIdx>,
}

/// The brackets of a pairing, one per entry of `scores` (each the score of a scoregroup;
/// `bracket_of` maps every score to the bracket it is paired in).
fn brackets(
    facts: &Facts,
    scores: &[Score],
    bracket_of: &dyn Fn(Score) -> Score,
    p: &RoundPairing,
) -> Vec<Bracket> {
    let mut out = Vec::with_capacity(scores.len());
    let mut carried: Vec<PlayerIdx> = Vec::new();
    for &s in scores {
        let mut b = Bracket::default();
        let mut paired = BTreeSet::new();
        for board in &p.boards {
            let (w, k) = (board.white, board.black);
            if bracket_of(facts.score(w).min(facts.score(k))) == s {
                b.pairs.insert((w.min(k), w.max(k)));
                b.boards.push((w, k));
                paired.insert(w);
                paired.insert(k);
            }
        }
        b.residents = facts
            .field
            .entrants
            .iter()
            .filter(|e| bracket_of(e.score) == s)
            .map(|e| e.player)
            .collect();
        let mut present = carried.clone();
        present.extend(b.residents.iter().copied());
        b.floaters = present
            .into_iter()
            .filter(|q| !paired.contains(q))
            .collect();
        b.floaters.sort_by_key(|&q| facts.rank(q));
        carried = b.floaters.clone();
        out.push(b);
    }
    out
}

/// The distinct scores of a field, highest first: its scoregroups, walked from the top.
pub fn score_groups(scores: impl Iterator<Item = Score>) -> Vec<Score> {
    let mut scores: Vec<Score> = scores.collect();
    scores.sort_by(|a, b| b.cmp(a));
    scores.dedup();
    scores
}

/// The scoregroup a 2017 pairing paired as its penultimate pairing bracket: the bracket
/// whose explanation records C.4 (its best pairing alone left the round unpairable, so it
/// was paired again with everybody below, A.9).
fn ppb_of(p: &RoundPairing, scores: &[Score], completion: &str) -> Option<Score> {
    let group = p.explanation.groups.iter().find(|g| {
        g.steps
            .iter()
            .any(|s| s.rule_id == completion || s.rule_id.ends_with(&format!(" {completion}")))
    })?;
    scores
        .iter()
        .copied()
        .find(|s| group.label == format!("bracket {s}"))
}

/// 2017 C.7 outside the PPB and the collapsed last bracket, as the engine (and the
/// reference) reads it: the next bracket as it could be paired, its most pairs among this
/// bracket's downfloaters and its residents (C.1, C.3), then the least A.8 differences of
/// the downfloaters it cannot take; completion below is not part of it (the 2017 engine
/// checks completion on the bracket's own pairs only, A.9 then makes a PPB).
fn next_bracket_2017(facts: &Facts, b: &Bracket, next: &Bracket) -> Value {
    let reach = next_bracket_reach(facts, &b.floaters, &next.residents);
    let next_score = next
        .residents
        .first()
        .map_or(Score::ZERO, |&q| facts.score(q));
    let left: Vec<PlayerIdx> = b
        .floaters
        .iter()
        .copied()
        .filter(|q| !reach.taken.contains(q))
        .collect();
    // A.8: a downfloater left unpaired counts his score less one point under the next
    // bracket's score.
    let mut d: Vec<Score> = left
        .iter()
        .map(|&q| facts.score(q) - next_score + Score::points(1))
        .collect();
    d.sort_by(|a, b| b.cmp(a));
    let mut key = vec![-(reach.pairs as i64)];
    key.extend(d.iter().map(|s| s.tenths()));
    Value {
        key,
        shown: format!(
            "the next bracket can make {} pair(s), leaving downfloater(s) with differences {}",
            reach.pairs,
            show_scores(&d)
        ),
        players: left,
    }
}

/// What the next bracket could make of a bracket's downfloaters (C8, 2017 C.7).
struct Reach {
    /// The most pairs among the downfloaters and the next scoregroup.
    pairs: usize,
    /// Downfloaters a maximum pairing of the next bracket takes, the highest scores first
    /// (the matching matroid's greedy basis: every set of vertices some matching covers
    /// extends to one a maximum matching covers).
    taken: Vec<PlayerIdx>,
}

fn next_bracket_reach(facts: &Facts, floaters: &[PlayerIdx], residents: &[PlayerIdx]) -> Reach {
    let vertices: Vec<usize> = floaters
        .iter()
        .chain(residents)
        .filter_map(|q| facts.at.get(q).copied())
        .collect();
    let n_floaters = floaters.iter().filter(|q| facts.at.contains_key(q)).count();
    let n = vertices.len();
    // Two downfloaters of one bracket do not meet in the next (B.2: MDPs are not paired
    // with each other).
    let edge = |a: usize, b: usize| {
        a != b
            && (a >= n_floaters || b >= n_floaters)
            && facts.field.compatible(vertices[a], vertices[b])
    };
    let pairs = crate::matching::cardinality::maximum_matching_size(n, edge);
    // Whether some matching covers every vertex in `must`: a perfect matching of the
    // graph where each other vertex may instead take its own copy, the copies pair among
    // themselves, and one extra vertex fixes the parity.
    let coverable = |must: &[bool]| {
        let copies: Vec<usize> = (0..n).filter(|&v| !must[v]).collect();
        let total = n + copies.len();
        let extra = total % 2 == 1;
        let size = total + usize::from(extra);
        crate::matching::cardinality::has_perfect_matching(size, |a, b| {
            let (a, b) = (a.min(b), a.max(b));
            if b < n {
                edge(a, b)
            } else if a < n {
                b < total && copies[b - n] == a
            } else {
                a != b
            }
        })
    };
    let mut order: Vec<usize> = (0..n_floaters).collect();
    order.sort_by_key(|&v| {
        let e = &facts.field.entrants[vertices[v]];
        (std::cmp::Reverse(e.score), vertices[v])
    });
    let mut must = vec![false; n];
    let mut taken = Vec::new();
    for v in order {
        must[v] = true;
        if coverable(&must) {
            taken.push(facts.field.entrants[vertices[v]].player);
        } else {
            must[v] = false;
        }
    }
    Reach { pairs, taken }
}

/// The value of one Dutch-family criterion in bracket `i` of a pairing; each family of
/// measures is read by its own [`InBracket`] method.
fn dutch_value(
    facts: &Facts,
    measure: Measure,
    all: &[Bracket],
    i: usize,
    bracket_score: Score,
) -> Option<Value> {
    let b = InBracket::new(facts, all, i, bracket_score);
    let value = match measure {
        Measure::Downfloaters => b.downfloaters(),
        Measure::DownfloaterScores if b.text == FideText::Y2017 => b.pairing_score_differences(),
        Measure::DownfloaterScores => b.downfloater_scores(),
        Measure::NextBracket => return b.next_bracket(),
        Measure::ByeUnplayedGames => return b.bye_unplayed_games(),
        Measure::TopscorerColourDifference => b.topscorer_colour_difference(),
        Measure::TopscorerColourRun => b.topscorer_colour_run(),
        Measure::ColourPreferences => b.colour_preferences(),
        Measure::StrongColourPreferences => b.strong_colour_preferences(),
        Measure::RepeatedDownfloat1 => b.repeated_downfloats(1),
        Measure::RepeatedDownfloat2 => b.repeated_downfloats(2),
        Measure::RepeatedUpfloat1 => b.repeated_upfloats(1),
        Measure::RepeatedUpfloat2 => b.repeated_upfloats(2),
        Measure::DownfloatScoreDifference1 => b.downfloat_score_differences(1),
        Measure::UpfloatScoreDifference1 => b.upfloat_score_differences(1),
        Measure::DownfloatScoreDifference2 => b.downfloat_score_differences(2),
        Measure::UpfloatScoreDifference2 => b.upfloat_score_differences(2),
        // `First` counts the whole round, before any bracket (`compare_brackets`).
        Measure::WeakSeparation(WeakPlace::First) => return None,
        Measure::WeakSeparation(place) => b.weak_pairs(place),
        // Round-wide or absolute: not a bracket's value.
        _ => return None,
    };
    Some(value)
}

/// The scores of a bracket's downfloaters, highest first.
fn floater_scores(facts: &Facts, b: &Bracket) -> Vec<Score> {
    let mut v: Vec<Score> = b.floaters.iter().map(|&q| facts.score(q)).collect();
    v.sort_by(|a, b| b.cmp(a));
    v
}

/// Bracket `i` of one pairing as the Dutch-family criteria read it.
struct InBracket<'a> {
    facts: &'a Facts<'a>,
    field: &'a Field,
    text: FideText,
    all: &'a [Bracket],
    i: usize,
    /// The bracket, `all[i]`.
    b: &'a Bracket,
    /// The score of its scoregroup.
    bracket_score: Score,
    /// Its pairs, the higher-ranked entrant first, as the criteria read them.
    pairs: Vec<(&'a Entrant, &'a Entrant)>,
}

impl<'a> InBracket<'a> {
    fn new(facts: &'a Facts<'a>, all: &'a [Bracket], i: usize, bracket_score: Score) -> Self {
        let b = &all[i];
        // The pair's higher-ranked entrant first, as the criteria read it.
        let ordered = |&(a, c): &(PlayerIdx, PlayerIdx)| {
            if facts.rank(a) <= facts.rank(c) {
                (a, c)
            } else {
                (c, a)
            }
        };
        let pairs = b
            .pairs
            .iter()
            .map(ordered)
            .filter_map(|(h, l)| Some((facts.entrant(h)?, facts.entrant(l)?)))
            .collect();
        InBracket {
            facts,
            field: facts.field,
            text: facts.field.text,
            all,
            i,
            b,
            bracket_score,
            pairs,
        }
    }

    /// The players `test` names in the bracket's pairs (higher-ranked entrant first).
    fn counted(&self, test: impl Fn(&Entrant, &Entrant) -> Option<PlayerIdx>) -> Vec<PlayerIdx> {
        self.pairs.iter().filter_map(|(h, l)| test(h, l)).collect()
    }

    /// A.8 (2017): a downfloater's difference is to an artificial value one point below
    /// the bracket's score.
    fn floater_difference(&self, e: &Entrant) -> Score {
        e.score - self.bracket_score + Score::points(1)
    }

    /// The number of downfloaters (Dutch C6, 2017 C.5; Burstein C5).
    fn downfloaters(&self) -> Value {
        let b = self.b;
        Value::count(
            b.floaters.clone(),
            format!("{} downfloater(s)", b.floaters.len()),
        )
    }

    /// 2017 C.6 (A.8): the pairing score difference, sorted highest first: each pair's
    /// difference and each downfloater's difference to one point below the bracket.
    fn pairing_score_differences(&self) -> Value {
        let b = self.b;
        let mut v: Vec<Score> = self.pairs.iter().map(|(h, l)| h.score - l.score).collect();
        v.extend(
            b.floaters
                .iter()
                .filter_map(|&q| self.facts.entrant(q))
                .map(|e| self.floater_difference(e)),
        );
        v.sort_by(|a, b| b.cmp(a));
        Value {
            key: v.iter().map(|s| s.tenths()).collect(),
            shown: format!("pairing score difference {}", show_scores(&v)),
            players: b.floaters.clone(),
        }
    }

    /// The downfloaters' scores, highest first (Dutch C7, Burstein C6).
    fn downfloater_scores(&self) -> Value {
        let v = floater_scores(self.facts, self.b);
        Value {
            key: v.iter().map(|s| s.tenths()).collect(),
            shown: format!("downfloater scores {}", show_scores(&v)),
            players: self.b.floaters.clone(),
        }
    }

    /// What the next bracket makes of the downfloaters (Dutch C8, 2017 C.7; Burstein C7);
    /// `None` for the last bracket, and for 2017 in and below the penultimate pairing
    /// bracket.
    fn next_bracket(&self) -> Option<Value> {
        let (facts, text, i, b) = (self.facts, self.text, self.i, self.b);
        let next = self.all.get(i + 1)?;
        if text == FideText::Y2017 && facts.ppb.is_some_and(|p| self.bracket_score <= p) {
            return None;
        }
        if text == FideText::Y2017 && i + 2 < self.all.len() {
            return Some(next_bracket_2017(facts, b, next));
        }
        // C8 (and 2017 C.7 before the last scoregroup, which asks for completion): the
        // next bracket as paired, its downfloaters and their scores. The 2026 engine
        // counts the next scoregroup's pairs where they extend to a complete pairing
        // (C4 is checked on them, else everybody below joins the graph): the next
        // bracket as paired is that reading wherever its own later choice agrees.
        let v = floater_scores(facts, next);
        let mut key = vec![next.floaters.len() as i64];
        key.extend(v.iter().map(|s| s.tenths()));
        Some(Value {
            key,
            shown: format!(
                "the next bracket leaves {} downfloater(s) (scores {})",
                next.floaters.len(),
                show_scores(&v)
            ),
            players: next.floaters.clone(),
        })
    }

    /// The PAB assignee's unplayed games (Dutch C9), in the last bracket only.
    fn bye_unplayed_games(&self) -> Option<Value> {
        if self.i + 1 != self.all.len() {
            return None;
        }
        let unplayed: Vec<(i64, PlayerIdx)> = self
            .b
            .floaters
            .iter()
            .filter_map(|&q| self.facts.entrant(q))
            .map(|e| {
                (
                    i64::from(self.field.rounds_played) - i64::from(e.played),
                    e.player,
                )
            })
            .collect();
        Some(Value {
            key: unplayed.iter().map(|u| u.0).collect(),
            shown: format!(
                "the PAB assignee's unplayed games: {}",
                unplayed
                    .iter()
                    .map(|u| u.0.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            players: unplayed.iter().map(|u| u.1).collect(),
        })
    }

    /// C10/C11: after this round's colours, a topscorer (or his opponent) beyond ±2 or
    /// with three of a colour in a row (`run`); topscorers exist only when pairing the last
    /// round.
    fn topscorer_colours(&self, run: bool) -> Vec<PlayerIdx> {
        let (facts, field) = (self.facts, self.field);
        if !field.last_round {
            return Vec::new();
        }
        let mut v = Vec::new();
        for &(w, k) in &self.b.boards {
            let (Some(ew), Some(ek)) = (facts.entrant(w), facts.entrant(k)) else {
                continue;
            };
            if !(field.is_topscorer(ew) || field.is_topscorer(ek)) {
                continue;
            }
            for (e, c) in [(ew, Colour::White), (ek, Colour::Black)] {
                let mut colours = facts.colours.player(e.player).colours.clone();
                colours.push(c);
                let bad = if run {
                    colours.len() >= 3 && colours[colours.len() - 3..].iter().all(|&x| x == c)
                } else {
                    let w = colours.iter().filter(|&&x| x == Colour::White).count() as i64;
                    (2 * w - colours.len() as i64).abs() > 2
                };
                if bad {
                    v.push(e.player);
                }
            }
        }
        v
    }

    /// Topscorers or opponents beyond a colour difference of ±2 (Dutch C10, 2017 C.8).
    fn topscorer_colour_difference(&self) -> Value {
        let v = self.topscorer_colours(false);
        Value::count(
            v.clone(),
            format!("{} topscorer(s) or opponents beyond ±2", v.len()),
        )
    }

    /// Topscorers or opponents with a colour three times in a row (Dutch C11, 2017 C.9).
    fn topscorer_colour_run(&self) -> Value {
        let v = self.topscorer_colours(true);
        Value::count(
            v.clone(),
            format!(
                "{} topscorer(s) or opponents with a colour three times in a row",
                v.len()
            ),
        )
    }

    /// Players without their colour preference (Dutch C12, 2017 C.10; Burstein C8).
    fn colour_preferences(&self) -> Value {
        let v =
            self.counted(|h, l| fide_criteria::fails_colour_preference(h, l).then_some(l.player));
        let players = pair_players(&self.pairs, &v);
        Value::count(
            v.clone(),
            format!("{} player(s) without their colour preference", v.len()),
        )
        .with_players(players)
    }

    /// Players without their strong colour preference (Dutch C13, 2017 C.11).
    fn strong_colour_preferences(&self) -> Value {
        let v =
            self.counted(|h, l| fide_criteria::fails_strong_preference(h, l).then_some(l.player));
        let players = pair_players(&self.pairs, &v);
        Value::count(
            v.clone(),
            format!(
                "{} player(s) without their strong colour preference",
                v.len()
            ),
        )
        .with_players(players)
    }

    /// Downfloaters who downfloated `ago` rounds before (Dutch C14/C16, 2017 C.12/C.14).
    fn repeated_downfloats(&self, ago: u8) -> Value {
        let v = self.repeated_downfloaters(ago);
        Value::count(
            v.clone(),
            format!(
                "{} downfloater(s) who downfloated {}",
                v.len(),
                rounds_ago(ago)
            ),
        )
    }

    /// Who downfloats again after a downfloat `rounds_ago` rounds before: 2017 C.12/C.14
    /// count every player who downfloats again; 2026 C14/C16 the resident downfloaters (and
    /// MDPs paired lower are not downfloaters of this bracket).
    fn repeated_downfloaters(&self, rounds_ago: u8) -> Vec<PlayerIdx> {
        let text = self.text;
        let mut v: Vec<PlayerIdx> = self
            .b
            .floaters
            .iter()
            .filter_map(|&q| self.facts.entrant(q))
            .filter(|e| text == FideText::Y2017 || e.score == self.bracket_score)
            .filter(|e| fide_criteria::had_downfloat(e, rounds_ago))
            .map(|e| e.player)
            .collect();
        if text == FideText::Y2017 {
            v.extend(self.counted(|h, l| {
                (h.score > l.score && fide_criteria::had_downfloat(h, rounds_ago))
                    .then_some(h.player)
            }));
        }
        v
    }

    /// MDP opponents who upfloated `ago` rounds before (Dutch C15/C17, 2017 C.13/C.15).
    fn repeated_upfloats(&self, ago: u8) -> Value {
        let v = self.counted(|h, l| fide_criteria::repeats_upfloat(h, l, ago).then_some(l.player));
        Value::count(
            v.clone(),
            format!(
                "{} MDP opponent(s) who upfloated {}",
                v.len(),
                rounds_ago(ago)
            ),
        )
    }

    /// Who leaves the bracket again after a downfloat `rounds_ago` rounds before: 2026
    /// C18/C20 rank the residents and MDPs left unpaired by score, highest first (the
    /// engine's weights reward pairing the highest of them); 2017 C.16/C.18 take every
    /// repeater's score difference (A.8), an MDP paired lower too.
    fn downfloat_score_differences(&self, rounds_ago: u8) -> Value {
        let text = self.text;
        let mut diffs: Vec<(Score, PlayerIdx)> = self
            .b
            .floaters
            .iter()
            .filter_map(|&q| self.facts.entrant(q))
            .filter(|e| fide_criteria::float_before(e, rounds_ago) == Float::Down)
            .map(|e| {
                if text == FideText::Y2017 {
                    (self.floater_difference(e), e.player)
                } else {
                    (e.score, e.player)
                }
            })
            .collect();
        if text == FideText::Y2017 {
            diffs.extend(
                self.pairs
                    .iter()
                    .filter(|(h, l)| {
                        h.score > l.score
                            && fide_criteria::float_before(h, rounds_ago) == Float::Down
                    })
                    .map(|(h, l)| (h.score - l.score, h.player)),
            );
        }
        diffs.sort_by_key(|d| std::cmp::Reverse(d.0));
        let what = if text == FideText::Y2017 {
            "score differences"
        } else {
            "scores of repeated downfloaters"
        };
        Value {
            key: diffs.iter().map(|d| d.0.tenths()).collect(),
            shown: format!(
                "{what} {}",
                show_scores(&diffs.iter().map(|d| d.0).collect::<Vec<_>>())
            ),
            players: diffs.iter().map(|d| d.1).collect(),
        }
    }

    /// SEP-5: the bracket's pairs within a group of a weak separation at `place`.
    fn weak_pairs(&self, place: WeakPlace) -> Value {
        weak_pairs_of(
            self.facts,
            self.pairs.iter().map(|(h, l)| (h.player, l.player)),
            place,
        )
    }

    /// The score differences of the pairs whose lower player upfloated `rounds_ago` rounds
    /// before, highest first (Dutch C19/C21, 2017 C.17/C.19).
    fn upfloat_score_differences(&self, rounds_ago: u8) -> Value {
        let mut diffs: Vec<(Score, PlayerIdx)> = self
            .pairs
            .iter()
            .filter(|(h, l)| h.score > l.score)
            .filter_map(|(h, l)| {
                (fide_criteria::float_before(l, rounds_ago) == Float::Up)
                    .then_some((h.score - l.score, l.player))
            })
            .collect();
        diffs.sort_by_key(|d| std::cmp::Reverse(d.0));
        Value {
            key: diffs.iter().map(|d| d.0.tenths()).collect(),
            shown: format!(
                "score differences {}",
                show_scores(&diffs.iter().map(|d| d.0).collect::<Vec<_>>())
            ),
            players: diffs.iter().map(|d| d.1).collect(),
        }
    }
}

/// Both players of every pair whose lower player is in `lows` (a colour preference is
/// failed by the pair: either player may be the one who gives way).
fn pair_players(pairs: &[(&Entrant, &Entrant)], lows: &[PlayerIdx]) -> Vec<PlayerIdx> {
    pairs
        .iter()
        .filter(|(_, l)| lows.contains(&l.player))
        .flat_map(|(h, l)| [h.player, l.player])
        .collect()
}

fn rounds_ago(ago: u8) -> &'static str {
    if ago == 1 {
        "in the previous round"
    } else {
        "two rounds before"
    }
}

/// The PAB's criterion (Dutch 2026 C5, Burstein 3.1): the assignee's score, lower first;
/// Burstein then prefers the most games played.
fn bye_value(facts: &Facts, p: &RoundPairing, games_too: bool) -> Value {
    pab_value(
        p,
        |q| facts.score(q),
        games_too.then_some(|q| facts.entrant(q).map_or(0, |e| e.played)),
    )
}

/// A Dutch-family system's order, as [`compare_brackets`] reads it.
pub struct Order<'a> {
    /// The criteria, in priority order.
    pub rules: Vec<Rule>,
    /// What chose where the brackets part but tie on every rule (`C.04.3 art. 4`).
    pub order_rule: &'static str,
    /// The text whose definitions of floats and PAB eligibility the field reads.
    pub text: FideText,
    /// The 2017 Dutch text's completion criterion (C.4), whose step in the answer's
    /// explanation marks the bracket it paired as the penultimate pairing bracket (A.9);
    /// C.7 holds neither there nor below. `None` for the other texts.
    pub ppb_rule: Option<&'a str>,
}

/// Compares two pairings bracket by bracket, top-down, in `order`.
pub fn compare_brackets(
    round: &RoundToPair,
    history: &History,
    first: &RoundPairing,
    second: &RoundPairing,
    order: Order,
) -> Comparison {
    let Order {
        rules,
        order_rule,
        text,
        ppb_rule,
    } = order;
    let field = Field::build(round, history, text);
    let at = field
        .entrants
        .iter()
        .enumerate()
        .map(|(i, e)| (e.player, i))
        .collect();
    let scores = score_groups(field.entrants.iter().map(|e| e.score));
    let facts = Facts {
        field: &field,
        at,
        colours: history,
        ppb: ppb_rule.and_then(|rule| ppb_of(first, &scores, rule)),
    };
    // SEP-5 `WEAK_FIRST` is part of completion (C4): the round's total comes before the
    // PAB and every bracket (the engines count it over each graph's completion).
    if let Some(rule) = rules
        .iter()
        .find(|r| r.measure == Measure::WeakSeparation(WeakPlace::First))
    {
        let total = |p: &RoundPairing| {
            weak_pairs_of(
                &facts,
                p.boards.iter().map(|b| (b.white, b.black)),
                WeakPlace::First,
            )
        };
        let (a, b) = (total(first), total(second));
        if a.key != b.key {
            return differ(rule, None, a, b);
        }
    }
    // The PAB's criterion is round-wide and comes first where the system has one.
    let burstein_bye = rules
        .iter()
        .find(|r| r.rule_id != "SEP-5")
        .is_some_and(|r| r.rule_id.starts_with("C.04.4.2"));
    for rule in rules.iter().filter(|r| r.measure == Measure::ByeScore) {
        let (a, b) = (
            bye_value(&facts, first, burstein_bye),
            bye_value(&facts, second, burstein_bye),
        );
        if a.key != b.key {
            return differ(rule, None, a, b);
        }
        // Burstein chooses the PAB before any bracket (art. 3.1): between assignees of the
        // same score and games, its order (the Index) decided, whatever follows.
        if burstein_bye && a.players != b.players {
            return Comparison::Tie {
                bracket: None,
                order_rule: "C.04.4.2 3.1",
                players: [a.players, b.players].concat(),
            };
        }
    }
    // 2017 A.9: below the penultimate pairing bracket everybody left is one bracket, the
    // collapsed last bracket, whose criteria count over all of it; it is named by its
    // lowest score (A.8 measures its PAB assignee from one point below that).
    let collapsed = facts
        .ppb
        .and_then(|p| scores.iter().copied().filter(|&s| s < p).min());
    let bracket_of = |s: Score| match (facts.ppb, collapsed) {
        (Some(p), Some(c)) if s < p => c,
        _ => s,
    };
    let scores: Vec<Score> = scores
        .iter()
        .copied()
        .filter(|&s| bracket_of(s) == s)
        .collect();
    let one = brackets(&facts, &scores, &bracket_of, first);
    let two = brackets(&facts, &scores, &bracket_of, second);
    for i in 0..scores.len() {
        if one[i].pairs == two[i].pairs && one[i].floaters == two[i].floaters {
            continue;
        }
        let same_floaters = {
            let mut x = one[i].floaters.clone();
            let mut y = two[i].floaters.clone();
            x.sort_unstable();
            y.sort_unstable();
            x == y
        };
        for rule in rules.iter().filter(|r| r.measure != Measure::ByeScore) {
            // The next bracket's criterion compares only different sets of downfloaters.
            if rule.measure == Measure::NextBracket && same_floaters {
                continue;
            }
            let (Some(a), Some(b)) = (
                dutch_value(&facts, rule.measure, &one, i, scores[i]),
                dutch_value(&facts, rule.measure, &two, i, scores[i]),
            ) else {
                continue;
            };
            if a.key != b.key {
                return differ(rule, Some(scores[i]), a, b);
            }
        }
        let mut players: BTreeSet<PlayerIdx> = BTreeSet::new();
        for (x, y) in [(&one[i], &two[i]), (&two[i], &one[i])] {
            for &(a, b) in x.pairs.difference(&y.pairs) {
                players.insert(a);
                players.insert(b);
            }
        }
        return Comparison::Tie {
            bracket: Some(scores[i]),
            order_rule,
            players: players.into_iter().collect(),
        };
    }
    // Same pairs in every bracket: only the PAB can differ, and it tied.
    Comparison::Tie {
        bracket: None,
        order_rule,
        players: [pab_of(first), pab_of(second)].concat(),
    }
}

pub fn differ(rule: &Rule, bracket: Option<Score>, a: Value, b: Value) -> Comparison {
    difference(rule.rule_id.clone(), rule.text, bracket, a, b, Some)
}
