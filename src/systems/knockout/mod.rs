//! Knockout (docs/systems/knockout.md, KO-1..KO-7): seeded single-elimination brackets, as
//! chess clubs and backgammon clubs run them, with an optional consolation bracket.
//!
//! The bracket is drawn from the seeds (KO-1) in the standard order (KO-2: seed s meets
//! seed size + 1 − s in round 1, 1 and 2 can meet only in the final, byes to the top seeds
//! when the field is not a power of two). Each round's matches are the winners of two
//! neighbouring matches of the round before (KO-3), read from the recorded rounds
//! ([`bracket::state`]); a match recorded without a winner is refused, naming it. A
//! match is one game record whatever its games (KO-5). Eliminated players are answered as
//! absent (no opponent, no points), so that every player has an entry in every round.
pub mod bracket;
pub mod options;

use super::common::club_game::{self, Game};
use super::{
    AbsoluteRules, Board, ByeAssignment, ColourLimits, History, PairError, RoundPairing,
    RoundToPair, System, SystemInfo,
};
use crate::model::validate::{Problem, Problems};
use crate::model::{ByeKind, Colour, PlayerIdx, Score, SystemId, Tournament};
use bracket::Slots;

pub use options::Options;

/// The knockout system.
pub struct Knockout;

/// TRF-26's code for a knockout.
pub const TRF_CODE: &str = "CUSTOM_KNOCKOUT";

impl System for Knockout {
    type Options = Options;

    fn options(&self, given: &crate::model::SystemOptions) -> Options {
        Options::of(given)
    }

    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: SystemId::Knockout,
            title: "Knockout: seeded brackets, winners advance, optional consolation bracket",
            rule_set: "docs/systems/knockout.md KO-1..KO-8",
            options: Options::info(),
        }
    }

    fn trf_code(&self, _options: &Options, _t: &Tournament) -> String {
        TRF_CODE.to_string()
    }

    fn reads_trf_code(&self, code: &str) -> bool {
        code == TRF_CODE
    }

    /// The bracket decides who meets whom (KO-2, KO-3): no group can be kept apart.
    fn separations_apply(&self) -> bool {
        false
    }

    /// The bracket fixes the opponents (KO-3); nobody meets twice in one bracket, and the
    /// bye is the bracket's, not a choice (KO-2.1).
    /// The table (bracket, rotation) fixes every pair of a round: a manual pairing off it
    /// is a violation of KO-3.1.
    fn fixed_pairs_rule(&self) -> Option<&'static str> {
        Some("KO-3.1")
    }

    fn absolute_rules(&self, options: &Options) -> AbsoluteRules {
        let colourless = options.game == Game::Backgammon;
        AbsoluteRules {
            colours: ColourLimits::None,
            colour_rule: "KO-7",
            rematch_rule: "KO-3.1",
            colourless,
            fixed_colours: true,
            second_bye_rule: None,
            colour_limits_in_last_round: false,
        }
    }

    /// Every match has a winner (KO-3.2): the simulator gives no draws.
    fn results_policy(&self) -> super::ResultsPolicy {
        super::ResultsPolicy {
            draws: false,
            half_point_byes: false,
        }
    }

    fn pair(&self, r: &RoundToPair, options: &Options) -> Result<RoundPairing, PairError> {
        pair(r, options)
    }
}

fn invalid(problems: Vec<Problem>) -> PairError {
    PairError::Invalid(Problems(problems))
}

/// Pairs the round.
pub fn pair(r: &RoundToPair, options: &Options) -> Result<RoundPairing, PairError> {
    let t = &r.tournament;
    let mut problems = Vec::new();
    // KO-1: the bracket is drawn for the whole field at the start.
    for (i, p) in t.players.iter().enumerate() {
        if p.late_entry_round.is_some_and(|l| l > 1) {
            problems.push(Problem::new(
                format!("tournament.players[{i}].late_entry_round"),
                format!(
                    "player {:?}: a late entrant cannot join a knockout, whose bracket is drawn at the start (KO-1)",
                    p.id
                ),
            ));
        }
    }
    let total = bracket::rounds(t.players.len());
    if t.players.len() < 2 {
        problems.push(Problem::new(
            "tournament.players",
            "a knockout needs at least two players (KO-1)",
        ));
    }
    if r.number > total {
        problems.push(Problem::new(
            "round",
            format!(
                "round {} is beyond the knockout's {total} rounds for {} players (KO-1)",
                r.number,
                t.players.len()
            ),
        ));
    }
    if options.game == Game::Backgammon {
        problems.extend(club_game::backgammon_problems(
            t,
            r.number,
            &r.preset_byes,
            "KO-6",
        ));
    }
    if !problems.is_empty() {
        return Err(invalid(problems));
    }
    let seeds = bracket::seeds(t, options, r.seed);
    let mut seed_number = vec![0; t.players.len()];
    for (i, &p) in seeds.iter().enumerate() {
        seed_number[p] = i + 1;
    }
    let seed_of = |p: PlayerIdx| seed_number.get(p).copied().unwrap_or(0);
    let state = bracket::state(t, options, &seeds, r.number).map_err(|p| invalid(vec![p]))?;
    let colourless = options.game == Game::Backgammon;
    let mut out = RoundPairing {
        colourless,
        match_length: options.match_length,
        total_rounds: Some(total),
        ..RoundPairing::default()
    };
    let ex = &mut out.explanation;
    ex.group(format!("round {} of {total}", r.number));
    let size = bracket::bracket_size(t.players.len());
    if r.number == 1 {
        let how = match options.seeding {
            options::Seeding::Rating => "by pairing number (rating)".to_string(),
            options::Seeding::Lot => format!("by lot (seed {})", r.seed),
        };
        ex.step(
            "KO-1",
            format!(
                "{} players seeded {how} into a bracket of {size}: {total} rounds",
                t.players.len()
            ),
            Vec::new(),
        );
        ex.step(
            "KO-2",
            format!(
                "round 1: seed s meets seed {} − s; {} top seed(s) have a bye",
                size + 1,
                size - t.players.len()
            ),
            Vec::new(),
        );
    } else {
        ex.step(
            "KO-3.1",
            format!(
                "each match is between the winners of two neighbouring matches of round {}",
                r.number - 1
            ),
            Vec::new(),
        );
    }
    if options.games > 1 || options.tiebreak_game {
        ex.step(
            "KO-5",
            format!(
                "each match is {} game{}{}, recorded as one game won by the player who goes on",
                options.games,
                if options.games == 1 { "" } else { "s" },
                if options.tiebreak_game {
                    ", then a tie-break game if tied"
                } else {
                    ""
                }
            ),
            Vec::new(),
        );
    }
    if colourless {
        ex.detail(
            "KO-6",
            match options.match_length {
                Some(len) => format!("backgammon: no colours, matches to {len} points"),
                None => "backgammon: no colours".to_string(),
            },
            Vec::new(),
        );
    }
    let h = History::build(r);
    let mut present = vec![false; t.players.len()];
    for &p in &r.participants {
        present[p] = true;
    }
    let here = |p: PlayerIdx| present.get(p).copied().unwrap_or(false);
    let mut placed = vec![false; t.players.len()];
    let mut pairs: Vec<(PlayerIdx, PlayerIdx)> = Vec::new();
    let brackets: Vec<(&str, &Slots)> = std::iter::once(("main bracket", &state.main))
        .chain(state.consolation.iter().map(|c| ("consolation", c)))
        .collect();
    for (label, slots) in brackets {
        if label == "consolation" {
            ex.group(format!("round {}: consolation", r.number));
        }
        for (m, pair) in slots.chunks(2).enumerate() {
            let a = pair.first().copied().flatten();
            let b = pair.get(1).copied().flatten();
            let rule = if label == "consolation" {
                "KO-4"
            } else {
                "KO-3.1"
            };
            match (a, b) {
                (Some(a), Some(b)) if here(a) && here(b) => {
                    // The higher seed first.
                    let (a, b) = if seed_of(a) <= seed_of(b) {
                        (a, b)
                    } else {
                        (b, a)
                    };
                    ex.detail(
                        rule,
                        format!(
                            "{label} match {}: {} (seed {}) - {} (seed {})",
                            m + 1,
                            r.id(a),
                            seed_of(a),
                            r.id(b),
                            seed_of(b)
                        ),
                        vec![a, b],
                    );
                    placed[a] = true;
                    placed[b] = true;
                    pairs.push((a, b));
                }
                (Some(p), other) | (other, Some(p)) if here(p) => {
                    let why = match other {
                        None => "has no opponent in the bracket: a bye".to_string(),
                        Some(o) => format!(
                            "goes on: the opponent {} does not play this round (KO-3.3)",
                            r.id(o)
                        ),
                    };
                    let named = other.map_or_else(|| vec![p], |o| vec![p, o]);
                    ex.step(
                        if other.is_none() { "KO-2.1" } else { "KO-3.3" },
                        format!("{label} match {}: {} {why}", m + 1, r.id(p)),
                        named,
                    );
                    placed[p] = true;
                    out.byes.push(ByeAssignment::pab(p, &t.scoring));
                }
                _ => {}
            }
        }
    }
    // Everyone else is out: answered as absent, with no points (KO-3).
    for &p in &r.participants {
        if !placed[p] {
            let when = state.out_in[p].map_or_else(String::new, |k| format!(" in round {k}"));
            ex.detail(
                "KO-3",
                format!("{} was eliminated{when}: not paired", r.id(p)),
                vec![p],
            );
            out.byes.push(ByeAssignment {
                player: p,
                kind: ByeKind::Absent,
                points: Score::ZERO,
            });
        }
    }
    for (k, &(a, b)) in pairs.iter().enumerate() {
        let (white, black) = if colourless {
            (a, b)
        } else {
            colours(r, &h, a, b, k)
        };
        out.boards.push(Board { white, black });
    }
    if !colourless && !pairs.is_empty() {
        out.explanation.step(
            "KO-7",
            "colours: the player who had Black in his last game has White; otherwise the higher seed has the first-round colour on odd-numbered boards and the other on even ones",
            Vec::new(),
        );
    }
    Ok(out)
}

/// KO-7: the player who had Black last (and the other White, or no game) has White;
/// otherwise, board by board from the first-round colour (CG-8), the higher seed `a`
/// alternates.
fn colours(
    r: &RoundToPair,
    h: &History,
    a: PlayerIdx,
    b: PlayerIdx,
    k: usize,
) -> (PlayerIdx, PlayerIdx) {
    let last = |p: PlayerIdx| h.players[p].last_colour();
    match (last(a), last(b)) {
        (Some(Colour::Black), Some(Colour::White) | None) => (a, b),
        (Some(Colour::White) | None, Some(Colour::Black)) => (b, a),
        (Some(Colour::White), None) => (b, a),
        (None, Some(Colour::White)) => (a, b),
        _ => {
            let c = if k.is_multiple_of(2) {
                r.initial_colour
            } else {
                r.initial_colour.opposite()
            };
            if c == Colour::White { (a, b) } else { (b, a) }
        }
    }
}
