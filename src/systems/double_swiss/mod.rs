//! The FIDE Double-Swiss system (C.04.5, applied from 1 February 2026).
//!
//! Every pairing is a match of two games with alternating colours; the PAB is worth 1.5
//! points (1.4, option `pab`); brackets hold upfloaters only (1.3.2); the PAB is assigned
//! first (3.4), upfloater sets are chosen by [C4]-[C7] (3.5) and each bracket takes the
//! first pairing in the lexicographic order of its Pairing Identifiers among those best
//! for [C8] (3.6, [`lexicographic`]); colours by art. 4 ([`colours`]).
//!
//! # How a match maps onto the model (the design choice)
//! The model's rounds are **games**, as the TRF columns are
//! (`tests/data/conformance/double-swiss/README.md`): match k is rounds 2k-1 (game 1) and
//! 2k (game 2, colours reversed), and `XXR`/`total_rounds` counts games (2 × matches).
//! Per-game results therefore need nothing new: a client sends the two games of a match
//! as two rounds, each with its own results (proto `Tournament.rounds`, TRF columns).
//!
//! * Pairing round 2k-1 pairs **match k** from matches 1..k-1 (rounds 1..2k-2): its boards
//!   are game 1's (game-1 colours), its bye the PAB.
//! * Pairing round 2k answers game 2 of match k: the boards of the recorded round 2k-1
//!   reversed and its PAB again; nothing is decided (byes apply to matches, never to
//!   games: a player with a game in game 1 must have one in game 2, and the other way).
//! * The gRPC answer also carries the whole match (`PairResponse.double_swiss`: game 1's
//!   and game 2's boards), so a client gets both games from one call.
//! * `check` compares match by match: it re-pairs the first game of each match
//!   ([`crate::systems::System::games_per_match`]), comparing pairs, game-1 colours
//!   and the PAB, and compares the record's game 2 with game 1 reversed;
//!   `simulate` plays both games with their own results and repeats game 1's requested
//!   byes in game 2.
//!
//! # Scores
//! Per game (1 / ½ / 0 by the tournament's scoring; a forfeit as its forfeit points); a
//! PAB counts `pab` (default 1.5) once for the match; a requested bye per column as TRF
//! writes it (`H` in both columns = 1 point for the match, `F` = 2, `Z` = 0). The PAB's
//! 1.5 is the system's own count: a tenths-exact score cannot split it over two columns,
//! so the generic standings (which score each column by the scoring's `pab`) differ from
//! it for a player with a PAB.
//!
//! # Readings (docs/decisions.md, "Double-Swiss")
//! Articles 1.4-4.4 are read as the corpus README restates them (X2-X12): a match gives a
//! colour only if one of its games was played (X6); the PAB is barred after a PAB, a
//! full-point bye or a match won by forfeit (X4); "matches played" counts regular matches
//! (X5); a floater is a player who played a regular match against an opponent with a
//! different score in the previous match, so neither the PAB nor a forfeited match is a
//! float (X8, C.04.6 1.5); [C6] lapses when the score level right below the bracket has no
//! one left to pair (X7, C.04.6 2.3.3); [C7]/[C8] are off in the last match (X9).
pub mod brackets;
pub mod colours;
pub mod compare;
pub mod fewest;
pub mod history;
pub mod lexicographic;

use crate::matching::BitGraph;
use crate::model::validate::{Problem, Problems};
use crate::model::{ByeKind, Colour, Score, SystemId, SystemOptions, Tournament};
use crate::systems::common::History;
use crate::systems::common::acceleration::{self, AccelerationMethod};
use crate::systems::options::{parse_score, read};
use crate::systems::{
    AbsoluteRules, Board, ByeAssignment, ColourLimits, Explanation, OptionInfo, PairError,
    RoundPairing, RoundToPair, System, SystemInfo,
};
use history::MatchHistory;

pub struct DoubleSwiss;

/// C.04.5 1.4: the PAB is worth 1.5 points unless the rules of the event say otherwise.
pub const DEFAULT_PAB: Score = Score::from_tenths(15);

const PAB_OPTION: OptionInfo = OptionInfo {
    name: "pab",
    kind: "score",
    default_value: "1.5",
    description: "points of the pairing-allocated bye for the whole match (C.04.5 1.4)",
    parse: |v| parse_score(v).map(|_| ()),
};

/// The Double-Swiss's options, decoded once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub acceleration: AccelerationMethod,
    /// The PAB's value for the match (`pab`, C.04.5 1.4).
    pub pab: Score,
}

/// The PAB's value for the match (option `pab`).
pub fn pab_points(options: &SystemOptions) -> Score {
    read(options, "pab", parse_score).unwrap_or(DEFAULT_PAB)
}

/// The match a round (game) belongs to, and which game it is (1 or 2).
pub fn match_of_round(round: u32) -> (u32, u32) {
    (
        round.div_ceil(2),
        if round.is_multiple_of(2) { 2 } else { 1 },
    )
}

/// Game 1's and game 2's boards of the match a pairing answers (the other game's boards
/// are the answered ones reversed).
pub fn match_boards(p: &RoundPairing) -> (Vec<Board>, Vec<Board>) {
    let reversed: Vec<Board> = p
        .boards
        .iter()
        .map(|b| Board {
            white: b.black,
            black: b.white,
        })
        .collect();
    if !p.round.is_multiple_of(2) {
        (p.boards.clone(), reversed)
    } else {
        (reversed, p.boards.clone())
    }
}

impl System for DoubleSwiss {
    type Options = Options;

    fn options(&self, given: &crate::model::SystemOptions) -> Self::Options {
        Options {
            acceleration: crate::systems::options::acceleration(given),
            pab: pab_points(given),
        }
    }

    /// FIDE_DOUBLESWISS (ETT26), `_BAKU` with the Baku acceleration.
    fn trf_code(&self, options: &Options, _t: &Tournament) -> String {
        crate::systems::with_baku("FIDE_DOUBLESWISS", options.acceleration)
    }

    fn reads_trf_code(&self, code: &str) -> bool {
        crate::systems::without_baku(code) == "FIDE_DOUBLESWISS"
    }

    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: SystemId::DoubleSwiss,
            title: "FIDE Double-Swiss system (two-game matches), 2026",
            rule_set: "FIDE C.04.5 (2026); acceleration C.04.7 when given",
            options: vec![OptionInfo::ACCELERATION, PAB_OPTION],
        }
    }

    fn pair(&self, r: &RoundToPair, options: &Self::Options) -> Result<RoundPairing, PairError> {
        let t = &r.tournament;
        if t.total_rounds % 2 == 1 {
            return Err(invalid(
                "tournament.total_rounds",
                format!(
                    "a Double-Swiss event has two games per match: the number of rounds (games, XXR) must be even, not {}",
                    t.total_rounds
                ),
            ));
        }
        if r.number.is_multiple_of(2) {
            return game_two(r, options);
        }
        game_one(r, options)
    }

    fn acceleration(&self, options: &Options) -> AccelerationMethod {
        options.acceleration
    }

    /// [C2] as the engine reads it (X4), for a manual pairing of round `round` (a game):
    /// whether player `p` is barred from the PAB by the matches before that game's match. A
    /// single forfeited game does not bar it (the match is the unit, C.04.5 art. 0); the
    /// per-game rule of the other systems would refuse PABs this system gives.
    fn pab_barred(
        &self,
        options: &Options,
        round: &RoundToPair,
        _history: &crate::systems::History,
        p: crate::model::PlayerIdx,
    ) -> bool {
        let (k, _) = match_of_round(round.number);
        MatchHistory::build(&round.tournament, k.saturating_sub(1), options.pab).pab_barred(p)
    }

    /// Double-Swiss 3.4.2: the PAB to the lowest score [C2] allows (MP-2).
    fn lowest_score_bye_rule(&self, _options: &Self::Options) -> Option<&'static str> {
        Some("C.04.5 3.4.2")
    }
    fn absolute_rules(&self, _options: &Self::Options) -> AbsoluteRules {
        AbsoluteRules {
            // C.04.5 has no colour criterion in pairing (art. 4 only allocates).
            colours: ColourLimits::None,
            colour_rule: "C.04.5 art. 4",
            rematch_rule: "C.04.5 C1",
            colourless: false,
            fixed_colours: false,
            second_bye_rule: Some("C.04.5 C2"),
            colour_limits_in_last_round: false,
        }
    }

    fn games_per_match(&self) -> u32 {
        2
    }

    /// SEP-5: by default between [C6] and [C7] (in the choice of upfloaters, 3.5, and
    /// before [C8] in the bracket's pairing, 3.6); placed last after [C8], before the
    /// Pairing Identifiers' order (3.6) and within the set 3.5.4's order takes
    /// (`brackets.rs`). Placed first (DS-SEP.1): the round's fewest pairs within a group
    /// over every legal pairing, kept reachable by the PAB and every set of upfloaters as
    /// [C3] keeps the rest pairable, so it ranks above [C4]-[C8] and 3.4.2-3.4.4.
    fn weak_separation_places(&self) -> &'static [crate::model::WeakPlace] {
        &crate::model::WeakPlace::ALL
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
            compare::compare(round, options, first, second)
        })
    }
}

fn invalid(path: &str, message: String) -> PairError {
    PairError::Invalid(Problems(vec![Problem::new(path, message)]))
}

/// Game 2 of match k: game 1 reversed (C.04.5 art. 0: alternating colours).
fn game_two(r: &RoundToPair, options: &Options) -> Result<RoundPairing, PairError> {
    let t = &r.tournament;
    let (k, _) = match_of_round(r.number);
    let Some(first) = t.round(r.number - 1) else {
        return Err(invalid(
            "round",
            format!(
                "round {} is game 2 of match {k}: game 1 (round {}) must be recorded first",
                r.number,
                r.number - 1
            ),
        ));
    };
    let mut in_game_one = vec![false; t.players.len()];
    for g in &first.games {
        for p in [g.white, g.black] {
            if let Some(x) = in_game_one.get_mut(p) {
                *x = true;
            }
        }
    }
    let pabs: Vec<usize> = first
        .byes
        .iter()
        .filter(|b| b.kind == ByeKind::Pab)
        .map(|b| b.player)
        .collect();
    for &p in &pabs {
        if let Some(x) = in_game_one.get_mut(p) {
            *x = true;
        }
    }
    let mut problems = Vec::new();
    let mut in_game_two = vec![false; t.players.len()];
    for &p in &r.participants {
        if let Some(x) = in_game_two.get_mut(p) {
            *x = true;
        }
    }
    for p in 0..t.players.len() {
        if in_game_one[p] != in_game_two[p] {
            problems.push(Problem::new(
                "round",
                format!(
                    "player {:?}: byes and absences apply to whole matches (C.04.5 art. 0): {} game 1 of match {k} (round {}) but {} in game 2 (round {})",
                    r.id(p),
                    if in_game_one[p] { "paired in" } else { "not paired in" },
                    r.number - 1,
                    if in_game_two[p] { "is to be paired" } else { "is not to be paired" },
                    r.number
                ),
            ));
        }
    }
    if !problems.is_empty() {
        return Err(PairError::Invalid(Problems(problems)));
    }
    let mut out = RoundPairing {
        round: r.number,
        boards: first
            .games
            .iter()
            .map(|g| Board {
                white: g.black,
                black: g.white,
            })
            .collect(),
        byes: pabs
            .iter()
            .map(|&p| ByeAssignment {
                player: p,
                kind: ByeKind::Pab,
                points: Score::ZERO,
            })
            .collect(),
        ..RoundPairing::default()
    };
    out.explanation.group(format!("match {k}, game 2"));
    out.explanation.step(
        "C.04.5 art. 0",
        format!(
            "game 2 of match {k}: the pairs of game 1 (round {}) with the colours reversed; the PAB of the match ({} for the match, counted in game 1) stays",
            r.number - 1,
            options.pab
        ),
        Vec::new(),
    );
    Ok(out)
}

/// Virtual points (C.04.7) per player for match `k`. Baku's method is applied to matches
/// (its rounds are the event's matches, a win is a match won, 2 game points); virtual
/// points the snapshot gives itself (`XXA`/`250`) are read in game rounds: match k gets
/// those of its game-1 round.
fn virtual_points(
    r: &RoundToPair,
    method: AccelerationMethod,
    matches_total: u32,
) -> Result<Vec<Vec<Score>>, PairError> {
    let t = &r.tournament;
    let n = t.players.len();
    let explicit = r
        .warnings
        .iter()
        .any(|w| w.code == "ACCELERATION" && w.message.contains("snapshot's own"));
    let mut out = vec![vec![Score::ZERO; matches_total as usize + 1]; n];
    if method != AccelerationMethod::None && !explicit {
        let mut by_match = Tournament {
            players: t.players.clone(),
            options: t.options.clone(),
            total_rounds: matches_total,
            scoring: crate::model::Scoring {
                win: t.scoring.win + t.scoring.win,
                draw: t.scoring.draw + t.scoring.draw,
                loss: t.scoring.loss + t.scoring.loss,
                ..t.scoring
            },
            ..Tournament::default()
        };
        acceleration::apply(&mut by_match, method)?;
        for a in &by_match.accelerations {
            for k in a.first_round..=a.last_round.min(matches_total) {
                if let Some(v) = out
                    .get_mut(a.player)
                    .and_then(|row| row.get_mut(k as usize))
                {
                    *v += a.points;
                }
            }
        }
    } else {
        for a in &t.accelerations {
            for k in 1..=matches_total {
                let game_one = 2 * k - 1;
                if a.first_round <= game_one
                    && game_one <= a.last_round
                    && let Some(v) = out
                        .get_mut(a.player)
                        .and_then(|row| row.get_mut(k as usize))
                {
                    *v += a.points;
                }
            }
        }
    }
    Ok(out)
}

/// What match k's pairing is decided on: the match history, the field's players (field
/// numbers in TPN order) and their facts (scores, compatibility, floats, PAB bars). Shared
/// by the pairing and by the "why?" comparison (`check::why::double_swiss`), so both read
/// the same facts.
pub struct MatchField {
    pub k: u32,
    pub pab: Score,
    pub history: MatchHistory,
    /// Field number -> player.
    pub players: Vec<crate::model::PlayerIdx>,
    pub field: brackets::Field,
}

/// The field of the match that round `r` (a game 1) pairs.
pub fn match_field(r: &RoundToPair, options: &Options) -> Result<MatchField, PairError> {
    let t = &r.tournament;
    let (k, _) = match_of_round(r.number);
    let pab = options.pab;
    let history = MatchHistory::build(t, k - 1, pab);
    let matches_total = if t.total_rounds > 0 {
        t.total_rounds / 2
    } else {
        0
    };
    let virt = virtual_points(r, options.acceleration, matches_total.max(k))?;
    let common = History::build(r);
    let field_players = &r.participants; // TPN order
    let n = field_players.len();
    let pairing_score = |p: usize, before: u32| -> Score {
        history.points_after(p, before)
            + virt
                .get(p)
                .and_then(|row| row.get(before as usize + 1))
                .copied()
                .unwrap_or(Score::ZERO)
    };
    let score: Vec<Score> = field_players
        .iter()
        .map(|&p| pairing_score(p, k - 1))
        .collect();
    let tpn: Vec<u32> = field_players.iter().map(|&p| t.pairing_number(p)).collect();
    let compatible = BitGraph::from_fn(n, |a, b| {
        let (pa, pb) = (field_players[a], field_players[b]);
        !history.have_met(pa, pb) && !common.is_forbidden(pa, pb)
    });
    // Reading X8 (C.04.6 1.5: "a team that plays against an opponent with a different
    // score"): a floater in the previous match played a regular match against an opponent
    // with another pairing score. The PAB has no opponent and a forfeited match was not
    // played: neither is a float.
    let floated: Vec<bool> = field_players
        .iter()
        .map(|&p| {
            if k < 2 {
                return false;
            }
            let Some(e) = history.players.get(p).and_then(|m| m.get(k as usize - 2)) else {
                return false;
            };
            e.regular
                && e.opponent
                    .is_some_and(|o| pairing_score(o, k - 2) != pairing_score(p, k - 2))
        })
        .collect();
    let field = brackets::Field {
        score,
        tpn,
        compatible,
        floated,
        pab_barred: field_players
            .iter()
            .map(|&p| history.pab_barred(p))
            .collect(),
        matches_played: field_players
            .iter()
            .map(|&p| history.matches_played(p))
            .collect(),
        last_match: matches_total > 0 && k >= matches_total,
        weak: weak_graphs(r, field_players),
    };
    Ok(MatchField {
        k,
        pab,
        history,
        players: field_players.clone(),
        field,
    })
}

/// SEP-5: per place, who shares a group of a weak separation in force in round `r` (the
/// match's game-1 round), by field number; `None` where nobody does.
fn weak_graphs(r: &RoundToPair, players: &[crate::model::PlayerIdx]) -> [Option<BitGraph>; 3] {
    let weak = r.tournament.weak_separations(r.number);
    let mut out: [Option<BitGraph>; 3] = Default::default();
    for &place in weak.places() {
        out[place as usize] = Some(BitGraph::from_fn(players.len(), |a, b| {
            weak.within(players[a], players[b], place)
        }));
    }
    out
}

/// Game 1 of match k: the pairing proper.
fn game_one(r: &RoundToPair, options: &Options) -> Result<RoundPairing, PairError> {
    // Scores decide the pairing; game 2 needs none (it repeats game 1).
    r.require_results()?;
    let MatchField {
        k,
        pab,
        history,
        players: field_players,
        field,
    } = match_field(r, options)?;
    let n = field_players.len();
    let (score, tpn) = (&field.score, &field.tpn);
    let mut explanation = Explanation::default();
    explanation.group(format!("match {k}, game 1"));
    let outcome = match brackets::pair_match(&field) {
        Ok(o) => o,
        Err(failure) => {
            explanation.step(failure.rule, failure.message.clone(), Vec::new());
            return Err(PairError::NoLegalPairing {
                rule: failure.rule.to_string(),
                message: failure.message,
                explanation,
            });
        }
    };
    explanation.detail(
        "C.04.5 1.2",
        format!(
            "{n} players to pair for match {k} (rounds {} and {}), ranked by score then TPN{}",
            r.number,
            r.number + 1,
            if field.last_match {
                "; the last match: [C7] and [C8] do not apply"
            } else {
                ""
            }
        ),
        Vec::new(),
    );
    for note in outcome.notes {
        let players = note.players.iter().map(|&i| field_players[i]).collect();
        explanation.detail(note.rule, note.message, players);
    }
    let colour_input = colours::Input {
        initial: r.initial_colour,
    };
    let mut boards: Vec<(Score, u32, Board)> = Vec::new();
    for &(a, b) in &outcome.pairs {
        let (pa, pb) = (field_players[a], field_players[b]);
        let (hrp, other) =
            if (score[a], std::cmp::Reverse(tpn[a])) >= (score[b], std::cmp::Reverse(tpn[b])) {
                (a, b)
            } else {
                (b, a)
            };
        let (ph, po) = (field_players[hrp], field_players[other]);
        let (hrp_colour, rule, why) = colours::allocate(
            &colour_input,
            tpn[hrp],
            &history.colours(ph),
            &history.colours(po),
        );
        let board = if hrp_colour == Colour::White {
            Board {
                white: ph,
                black: po,
            }
        } else {
            Board {
                white: po,
                black: ph,
            }
        };
        explanation.detail(rule, why, vec![pa, pb]);
        boards.push((score[a].max(score[b]), tpn[a].min(tpn[b]), board));
    }
    // Board order (not part of the rules' contract): the higher score first, then the
    // smaller TPN.
    boards.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    let mut out = RoundPairing {
        round: r.number,
        boards: boards.into_iter().map(|b| b.2).collect(),
        explanation,
        ..RoundPairing::default()
    };
    if let Some(p) = outcome.pab {
        out.byes.push(ByeAssignment {
            player: field_players[p],
            kind: ByeKind::Pab,
            points: pab,
        });
    }
    out.explanation.step(
        "C.04.5 3.3",
        format!(
            "match {k}: {} pair(s){}; game 2 (round {}) repeats them with the colours reversed",
            out.boards.len(),
            if out.byes.is_empty() {
                ""
            } else {
                " and the PAB"
            },
            r.number + 1
        ),
        Vec::new(),
    );
    Ok(out)
}

#[cfg(test)]
mod tests;
