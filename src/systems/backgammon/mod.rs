//! Backgammon Swiss (systems.md §7, BG-1..BG-11; the Catalan club regulation, seed 004).
//!
//! Players are grouped by wins and paired by a seeded lot inside each group, from the most
//! wins down; [absent] fills an odd field; float compensation keeps anyone from floating the
//! same way twice; round 2 may be drawn before round 1 ends; a final and a repechage round
//! close the event.
//!
//! | concern | rules | module |
//! |---|---|---|
//! | the draw inside win groups, redraws, undos | BG-4, BG-5, BG-6 | [`draw`] |
//! | float compensation | BG-7.1..BG-7.3 | [`floats`] |
//! | who is drawn: [absent], withdrawals, BG-11 | BG-3, BG-10, BG-11 | [`field`] |
//! | the early draw of round 2 | BG-8 | [`provisional`] |
//! | final, champion, repechage | BG-9 | [`finals`] |
//! | wins, floats, meetings from the snapshot | BG-2, BG-3, BG-7 | [`record`] |
//!
//! # Decisions where the rules are silent
//! - **Scoring (BG-2).** A player's score is his number of wins, whatever the snapshot's
//!   scoring says (a warning notes a scoring that would count differently): a played win, a
//!   forfeit win, a win against [absent] and a full-point bye are wins. A draw, an adjourned
//!   game, a half-point bye or a pairing-allocated bye in a backgammon snapshot is refused
//!   (INVALID_ARGUMENT naming the field, the round and the players): matches have no draws,
//!   and the odd player plays [absent] (`ByeKind::AbsentOpponent`), he has no PAB.
//! - **Meetings (CG-4).** A forfeited game is no meeting: the two may be drawn together
//!   again, and it is no float for BG-7. A game against [absent] is a meeting with [absent]
//!   (once only, BG-3) and, for a player with wins, a float down (BG-3 gives [absent] 0 wins).
//! - **Rounds (BG-1).** The entries are all the players in the snapshot (withdrawn and late
//!   ones included): n in [2^k − 1, 2^(k+1) − 2] gives k rounds. A snapshot's
//!   `total_rounds` overrides it. The response reports the number used.
//! - **Colours.** Backgammon has none: boards carry the first-drawn player first; in TRF he
//!   is written as White. The first round's colour lot (CG-8) plays no part.
//! - **Board order.** Groups from the most wins down; in a group, first the players coming
//!   down from above, then the pairs in the order drawn. Games against [absent] are byes of
//!   kind `AbsentOpponent`, not boards.
//! - **"Won every game"** (BG-9, BG-11) means as many wins as rounds: a round missed
//!   (absence, late entry, zero-point bye) counts as not won. A player with "exactly one
//!   loss" has one win fewer than rounds.
//! - The float balance, the BG-11 trigger, the early draw's scope and the final phase's open
//!   points are written in [`floats`], [`field`], [`provisional`] and [`finals`].
//!
//! # Seeds
//! Every lot is drawn by ChaCha8 from the request's seed (else the snapshot's `lot_seed`):
//! `ChaCha8Rng::seed_from_u64(seed ^ domain ^ round · 0x9E3779B97F4A7C15)`, with one domain
//! per kind of draw (the regular draw, the early round 2, the final phase) so that they
//! never share lots. The same snapshot and seed give the same bytes (CG-1).
pub mod draw;
pub mod field;
pub mod finals;
pub mod floats;
pub mod provisional;
pub mod record;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub use field::withdraw_after_draw;
pub use finals::{Finals, Outcome, pair_finals};
pub use provisional::{ProvisionalPairing, pair_provisional};

use super::{
    Board, ByeAssignment, OptionInfo, PairError, RoundPairing, RoundToPair, System, SystemInfo,
};
use crate::model::validate::{Problem, Problems};
use crate::model::{ByeKind, GameResult, PlayerIdx, Score, Scoring, SystemId, Tournament};
use draw::{Draw, Drawn};
use record::Record;

/// Lot domain of the regular draw (BG-4).
pub const DRAW_DOMAIN: u64 = 0x4247_2d34_0000_0000;
/// Lot domain of the early draw of round 2 (BG-8).
pub const EARLY_DOMAIN: u64 = 0x4247_2d38_0000_0000;
/// Lot domain of the final phase (BG-9).
pub const FINALS_DOMAIN: u64 = 0x4247_2d39_0000_0000;

/// The generator of a round's lots (see "Seeds" above).
pub fn rng(seed: u64, round: u32, domain: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed ^ domain ^ u64::from(round).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// BG-1: rounds for `entries` players: k for 2^k − 1 ≤ n ≤ 2^(k+1) − 2.
pub fn default_rounds(entries: usize) -> u32 {
    (entries as u64 + 1).ilog2()
}

/// BG-1's table, `(fewest, most, rounds)`, as far as `max_rounds`.
pub fn default_rounds_table(max_rounds: u32) -> Vec<(u32, u32, u32)> {
    (1..=max_rounds.min(30))
        .map(|k| ((1u32 << k) - 1, (1u32 << (k + 1)) - 2, k))
        .collect()
}

/// The rounds of the event: the snapshot's, else BG-1's.
pub fn total_rounds(t: &Tournament) -> u32 {
    if t.total_rounds > 0 {
        t.total_rounds
    } else {
        default_rounds(t.players.len())
    }
}

/// BG-2: a win is one point, anything else none.
pub fn wins_scoring() -> Scoring {
    Scoring {
        pab: Score::points(1),
        ..Scoring::with_game_points(Score::points(1), Score::ZERO, Score::ZERO)
    }
}

/// The backgammon Swiss system.
pub struct Backgammon;

/// What a snapshot's past rounds must hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Results {
    /// Every game of the rounds before has a result.
    Required,
    /// No game of round 1 has a result yet (the early draw, BG-8).
    NoneYet,
}

/// BG-2's checks on the rounds before `number`: no draws, no adjourned games, no
/// pairing-allocated or half-point byes; results as `results` says. Each problem names the
/// field, the round and the players.
pub fn check_rounds(t: &Tournament, number: u32, results: Results) -> Vec<Problem> {
    let id = |p: PlayerIdx| t.players.get(p).map_or("?", |pl| pl.id.as_str());
    let mut problems = Vec::new();
    for (r, round) in t
        .rounds
        .iter()
        .enumerate()
        .take(number.saturating_sub(1) as usize)
    {
        let rn = r + 1;
        for (g, game) in round.games.iter().enumerate() {
            // Written only for a game that fails (issue 22: every request paid for them).
            let players = || format!("{:?} - {:?}", id(game.white), id(game.black));
            let problem = match (game.result, results) {
                (GameResult::Draw, _) => Some(format!(
                    "round {rn}: the game {} is a draw, but a backgammon match has a winner (BG-2)",
                    players()
                )),
                (r, _) if r.is_unusual() => Some(format!(
                    "round {rn}: the game {} has a score of neither a win nor a loss, but a backgammon match has a winner (BG-2)",
                    players()
                )),
                (GameResult::Adjourned, _) => Some(format!(
                    "round {rn}: the game {} is adjourned: backgammon pairs on wins, give its winner (BG-2)",
                    players()
                )),
                (GameResult::Pending, Results::Required) => {
                    Some(format!("round {rn}: the game {} has no result", players()))
                }
                (GameResult::Pending, Results::NoneYet) => None,
                (_, Results::NoneYet) => Some(format!(
                    "round {rn}: the game {} already has a result: the early draw of round 2 (BG-8) is made before round 1 has any result; with every result in, use Pair",
                    players()
                )),
                _ => None,
            };
            if let Some(message) = problem {
                problems.push(Problem::new(
                    format!("tournament.rounds[{r}].games[{g}].result"),
                    message,
                ));
            }
        }
        for (b, bye) in round.byes.iter().enumerate() {
            if let Some(message) = refused_bye(bye.kind) {
                problems.push(Problem::new(
                    format!("tournament.rounds[{r}].byes[{b}].kind"),
                    format!("round {rn}: player {:?}: {message}", id(bye.player)),
                ));
            }
        }
    }
    problems
}

/// Why a bye kind has no place in a backgammon snapshot.
fn refused_bye(kind: ByeKind) -> Option<&'static str> {
    match kind {
        ByeKind::HalfPoint => Some("a half-point bye, but backgammon has no draws (BG-2)"),
        ByeKind::Pab => Some(
            "a pairing-allocated bye, but in backgammon the odd player plays [absent] and wins (BYE_KIND_ABSENT_OPPONENT, BG-3)",
        ),
        _ => None,
    }
}

/// Checks a prepared round against BG-1 and BG-2.
fn check_round(r: &RoundToPair, results: Results) -> Result<u32, PairError> {
    let t = &r.tournament;
    let total = total_rounds(t);
    let mut problems = check_rounds(t, r.number, results);
    for b in &r.preset_byes {
        if let Some(message) = refused_bye(b.kind) {
            problems.push(Problem::new(
                "requested_byes",
                format!("round {}: player {:?}: {message}", r.number, r.id(b.player)),
            ));
        }
    }
    if r.number > total {
        problems.push(Problem::new(
            "round",
            format!(
                "round {} is beyond the event's {total} rounds ({}); the final phase is PairFinals (BG-9)",
                r.number,
                if t.total_rounds > 0 {
                    "tournament.total_rounds".to_string()
                } else {
                    format!("BG-1 for {} entries", t.players.len())
                }
            ),
        ));
    }
    if problems.is_empty() {
        Ok(total)
    } else {
        Err(PairError::Invalid(Problems(problems)))
    }
}

/// The opening steps every answer shares: rounds (BG-1) and match length.
fn explain_event(
    t: &Tournament,
    total: u32,
    match_length: Option<u32>,
    ex: &mut super::Explanation,
) {
    ex.group("event");
    if t.total_rounds > 0 {
        ex.detail(
            "BG-1",
            format!("{total} regular rounds, as the snapshot sets"),
            Vec::new(),
        );
    } else {
        ex.step(
            "BG-1",
            format!(
                "{total} regular rounds for {} entries (BG-1's default)",
                t.players.len()
            ),
            Vec::new(),
        );
    }
    if let Some(len) = match_length {
        ex.detail("BG-1", format!("matches to {len} points"), Vec::new());
    }
}

/// The pairing of a finished draw: boards, and the games against [absent] as byes.
fn emit(d: &Draw, drawn: &Drawn, out: &mut RoundPairing) -> Result<(), PairError> {
    for &(a, b) in &drawn.pairs {
        match (d.entries()[a].player, d.entries()[b].player) {
            (Some(first), Some(second)) => out.boards.push(Board {
                white: first,
                black: second,
            }),
            (Some(p), None) | (None, Some(p)) => out.byes.push(ByeAssignment {
                player: p,
                kind: ByeKind::AbsentOpponent,
                points: Score::points(1),
            }),
            (None, None) => {
                return Err(PairError::NoLegalPairing {
                    rule: "BG-3".to_string(),
                    message: "the draw paired two placeholders it could not resolve".to_string(),
                    explanation: out.explanation.clone(),
                });
            }
        }
    }
    out.warnings.extend(
        drawn
            .relaxed
            .iter()
            .map(|r| super::Warning::new("RULE_RELAXED", "BG-7", r.clone())),
    );
    Ok(())
}

/// The snapshot for a backgammon-only call (`what`, e.g. "the early draw of round 2
/// (BG-8)"): the system must be backgammon; BG-2's scoring and pairing numbers are applied.
fn backgammon_snapshot(
    t: &Tournament,
    options: &super::PairOptions,
    what: &str,
    warnings: &mut Vec<super::Warning>,
) -> Result<Tournament, PairError> {
    match options.system.or(t.system) {
        Some(SystemId::Backgammon) => {}
        other => {
            let now = other.map_or_else(|| "not set".to_string(), |s| s.name().to_string());
            return Err(PairError::Invalid(Problems(vec![Problem::new(
                "system",
                format!("{what} is a backgammon rule: set the system to BACKGAMMON (it is {now})"),
            )])));
        }
    }
    let mut t = t.clone();
    let mut notes = Vec::new();
    t.scoring = Backgammon.effective_scoring(&t.scoring, &mut notes);
    warnings.extend(
        notes
            .into_iter()
            .map(|n| super::Warning::new("SCORING_REPLACED", "BG-2", n)),
    );
    t.assign_pairing_numbers(options.seed.unwrap_or(t.lot_seed));
    Ok(t)
}

fn no_pairing(rule: &str, message: String, ex: &super::Explanation) -> PairError {
    PairError::NoLegalPairing {
        rule: rule.to_string(),
        message,
        explanation: ex.clone(),
    }
}

/// Backgammon's options, decoded once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Points per match (`match_length`), carried through as data; `None` for 0 or unset.
    pub match_length: Option<u32>,
}

impl System for Backgammon {
    type Options = Options;

    /// SEP-5.3: in the draw inside a win group (BG-4, BG-6), the drawn player's opponents
    /// who are not his groupmates are drawn first, in lot order (`draw.rs`); who goes down
    /// (BG-5, BG-7) is unchanged, so nobody floats to avoid a groupmate. Placed first or last
    /// it would mean nothing more to the draw: only `WEAK` is offered. The early draw (BG-8)
    /// and the final phase (BG-9) refuse separations (SEP-4).
    fn weak_separation_places(&self) -> &'static [crate::model::WeakPlace] {
        &[crate::model::WeakPlace::Default]
    }

    fn options(&self, given: &crate::model::SystemOptions) -> Self::Options {
        Options {
            match_length: match_length(given),
        }
    }

    /// This project's code: a Swiss of win groups has no TRF-26 code.
    fn trf_code(&self, _options: &Options, _t: &Tournament) -> String {
        "CUSTOM_SWISS:BACKGAMMON_WINS".to_string()
    }

    fn reads_trf_code(&self, code: &str) -> bool {
        super::without_baku(code) == "CUSTOM_SWISS:BACKGAMMON_WINS"
    }

    /// No colours; no rematch (BG-6).
    fn absolute_rules(&self, _options: &Self::Options) -> super::AbsoluteRules {
        super::AbsoluteRules {
            colours: super::ColourLimits::None,
            colour_rule: "BG-6",
            rematch_rule: "BG-6",
            colourless: true,
            fixed_colours: true,
            second_bye_rule: Some("BG-3"),
            colour_limits_in_last_round: false,
        }
    }
    /// Every match has a winner and nobody asks for a half-point bye (BG-2).
    fn results_policy(&self) -> super::ResultsPolicy {
        super::ResultsPolicy {
            draws: false,
            half_point_byes: false,
        }
    }
    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: SystemId::Backgammon,
            title: "Backgammon Swiss: win groups, seeded draw, [absent], float compensation",
            rule_set: "systems.md §7 BG-1..BG-11 (Catalan club regulation, seed 004)",
            options: vec![OptionInfo {
                name: "match_length",
                kind: "uint32",
                default_value: "0",
                description: "points per match (e.g. 11); carried through to the answers as data",
                parse: |v| super::options::parse_count(v).map(|_| ()),
            }],
        }
    }

    fn effective_scoring(&self, given: &Scoring, warnings: &mut Vec<String>) -> Scoring {
        let wins = wins_scoring();
        // Only the values a backgammon snapshot can use; draws are refused anyway.
        let differs = given.win != wins.win
            || given.loss != wins.loss
            || given.forfeit_win != wins.forfeit_win
            || given.forfeit_loss != wins.forfeit_loss
            || given.full_point_bye != wins.full_point_bye
            || given.zero_point_bye != wins.zero_point_bye;
        if differs {
            warnings.push(
                "the snapshot's scoring is not used: backgammon scores one point per win (BG-2)"
                    .to_string(),
            );
        }
        wins
    }

    fn default_rounds_table(&self) -> Vec<(u32, u32, u32)> {
        default_rounds_table(17)
    }

    fn pair(&self, r: &RoundToPair, options: &Self::Options) -> Result<RoundPairing, PairError> {
        let t = &r.tournament;
        let total = check_round(r, Results::Required)?;
        let rec = Record::build(t, r.number);
        let mut out = RoundPairing {
            colourless: true,
            total_rounds: Some(total),
            match_length: options.match_length,
            ..RoundPairing::default()
        };
        explain_event(t, total, options.match_length, &mut out.explanation);
        if r.number == 2 {
            match provisional::plan(r, total, true) {
                Ok(plan) => {
                    let (d, drawn) = provisional::draw(r, &rec, &plan, true, &mut out.explanation);
                    if let Some(drawn) = drawn {
                        emit(&d, &drawn, &mut out)?;
                        return Ok(out);
                    }
                    out.explanation.step(
                        "BG-8",
                        "the early draw's placeholders cannot all be paired: round 2 is drawn from the results",
                        Vec::new(),
                    );
                }
                Err(why) => out.explanation.step(
                    "BG-8",
                    format!("round 2 is drawn from the results, not as the early draw: {why}"),
                    Vec::new(),
                ),
            }
        }
        let mut lots = rng(r.seed, r.number, DRAW_DOMAIN);
        let f = field::regular(r, &rec, total, &mut lots, &mut out.explanation);
        let Some(drawn) = f.draw.run(&f.levels, &mut out.explanation) else {
            return Err(no_pairing(
                "BG-6",
                format!(
                    "round {}: no draw pairs every player without a repeat pairing or a second game against [absent] (BG-3, BG-6)",
                    r.number
                ),
                &out.explanation,
            ));
        };
        emit(&f.draw, &drawn, &mut out)?;
        Ok(out)
    }
}

/// Points per match (option `match_length`), carried through as data; 0 or unset = none.
fn match_length(options: &crate::model::SystemOptions) -> Option<u32> {
    super::options::read(options, "match_length", super::options::parse_count).filter(|&m| m > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bg1_rounds_from_entries() {
        for (n, k) in [
            (2, 1),
            (3, 2),
            (6, 2),
            (7, 3),
            (14, 3),
            (15, 4),
            (30, 4),
            (31, 5),
            (62, 5),
            (63, 6),
        ] {
            assert_eq!(default_rounds(n), k, "{n} entries");
        }
        assert_eq!(
            default_rounds_table(3),
            vec![(1, 2, 1), (3, 6, 2), (7, 14, 3)]
        );
    }
}
