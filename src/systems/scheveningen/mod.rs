//! Scheveningen (docs/systems/scheveningen.md, SCH-1..SCH-6): two teams of N, every board
//! of one meeting every board of the other over N rounds (2N for the double, colours
//! reversed), by a fixed table.
pub mod options;
pub mod table;

use super::{
    AbsoluteRules, Board, ByeAssignment, ColourLimits, EventDates, PairError, RoundPairing,
    RoundToPair, System, SystemInfo,
};
use crate::model::validate::{Problem, Problems};
use crate::model::{PlayerIdx, SystemId, Tournament};
use options::{Options, Teams};

/// The Scheveningen system.
pub struct Scheveningen;

/// TRF-26's codes: single and double.
pub const TRF_CODE: &str = "FIDE_SCHEVENINGEN";
pub const TRF_CODE_DOUBLE: &str = "FIDE_DOUBLESCHEVENINGEN";

pub use crate::model::scheveningen::Sides;

/// The teams of a snapshot (SCH-1), or the problems that keep it from having two of N.
pub fn sides(t: &Tournament, options: &Options) -> Result<Sides, Vec<Problem>> {
    crate::model::scheveningen::sides(t, options.teams == Teams::TeamId)
}

/// The cycles of the event (SCH-4): the option, else 2 when `total_rounds` is beyond N.
pub fn cycles(t: &Tournament, options: &Options, n: u32) -> u32 {
    options
        .cycles
        .unwrap_or(if t.total_rounds > n { 2 } else { 1 })
}

impl System for Scheveningen {
    type Options = Options;

    fn options(&self, given: &crate::model::SystemOptions) -> Options {
        Options::of(given)
    }

    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: SystemId::Scheveningen,
            title: "Scheveningen: every board of one team meets every board of the other",
            rule_set: "docs/systems/scheveningen.md SCH-1..SCH-6",
            options: Options::info(),
        }
    }

    fn trf_code(&self, options: &Options, t: &Tournament) -> String {
        let n = (t.players.len() / 2) as u32;
        if cycles(t, options, n.max(1)) == 2 {
            TRF_CODE_DOUBLE.to_string()
        } else {
            TRF_CODE.to_string()
        }
    }

    fn reads_trf_code(&self, code: &str) -> bool {
        code == TRF_CODE || code == TRF_CODE_DOUBLE
    }

    fn read_trf_code(&self, code: &str, _dates: &EventDates, t: &mut Tournament) -> Vec<String> {
        if code == TRF_CODE_DOUBLE && t.options.get("cycles").is_none() {
            // A declared name: `set` cannot fail.
            let _ = t.options.set("cycles", "2");
        }
        Vec::new()
    }

    /// The table decides who meets whom (SCH-2): no group can be kept apart.
    fn separations_apply(&self) -> bool {
        false
    }

    /// Twice in the double (SCH-4), once otherwise.
    fn meetings_allowed(&self, t: &Tournament) -> usize {
        let n = (t.players.len() / 2).max(1) as u32;
        cycles(t, &Options::of(&t.options), n) as usize
    }

    /// The table fixes opponents and colours (SCH-2, SCH-3).
    /// The table (bracket, rotation) fixes every pair of a round: a manual pairing off it
    /// is a violation of SCH-2.
    fn fixed_pairs_rule(&self) -> Option<&'static str> {
        Some("SCH-2")
    }

    fn absolute_rules(&self, _options: &Options) -> AbsoluteRules {
        AbsoluteRules {
            colours: ColourLimits::None,
            colour_rule: "SCH-3",
            rematch_rule: "SCH-2",
            colourless: false,
            fixed_colours: true,
            second_bye_rule: None,
            colour_limits_in_last_round: false,
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
    for (i, p) in t.players.iter().enumerate() {
        if p.late_entry_round.is_some_and(|l| l > 1) {
            problems.push(Problem::new(
                format!("tournament.players[{i}].late_entry_round"),
                format!(
                    "player {:?}: a late entrant cannot join a Scheveningen, whose teams are fixed at the start (SCH-1)",
                    p.id
                ),
            ));
        }
    }
    let sides = match sides(t, options) {
        Ok(s) => Some(s),
        Err(mut p) => {
            problems.append(&mut p);
            None
        }
    };
    let Some(sides) = sides.filter(|_| problems.is_empty()) else {
        return Err(invalid(problems));
    };
    let n = sides.a.len() as u32;
    let cycles = cycles(t, options, n);
    if r.number > cycles * n {
        return Err(invalid(vec![Problem::new(
            "round",
            format!(
                "round {} is beyond the {} Scheveningen's {} rounds for two teams of {n} (SCH-2, SCH-4)",
                r.number,
                if cycles == 2 { "double" } else { "single" },
                cycles * n
            ),
        )]));
    }
    if let Some(p) = table::first_departure(t, &sides) {
        return Err(invalid(vec![p]));
    }
    let mut out = RoundPairing::default();
    let ex = &mut out.explanation;
    ex.group(format!("round {}", r.number));
    ex.step(
        "SCH-1",
        format!(
            "{} ({}) against {} ({}), {n} boards each",
            sides.names[0],
            sides
                .a
                .iter()
                .map(|&p| r.id(p).to_string())
                .collect::<Vec<_>>()
                .join(", "),
            sides.names[1],
            sides
                .b
                .iter()
                .map(|&p| r.id(p).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Vec::new(),
    );
    let cycle = (r.number - 1) / n + 1;
    let table_round = (r.number - 1) % n + 1;
    ex.step(
        "SCH-2",
        format!(
            "table round {table_round} of {n}: board i of {} meets board i + {} (mod {n}) of {}{}",
            sides.names[0],
            table_round - 1,
            sides.names[1],
            if cycle == 2 {
                ", second cycle with colours reversed (SCH-4)"
            } else {
                ""
            }
        ),
        Vec::new(),
    );
    if r.number > 1 {
        let score = crate::model::scheveningen::match_score(t, &sides, r.number - 1);
        ex.step(
            "SCH-6",
            format!(
                "after round {}: {} {} match points ({} game points), {} {} ({})",
                r.number - 1,
                sides.names[0],
                score.match_points[0],
                score.game_points[0],
                sides.names[1],
                score.match_points[1],
                score.game_points[1]
            ),
            Vec::new(),
        );
    }
    let mut present = vec![false; t.players.len()];
    for &p in &r.participants {
        present[p] = true;
    }
    let here = |p: PlayerIdx| present.get(p).copied().unwrap_or(false);
    for (i, j, a_white) in table::round(n, r.number) {
        let (a, b) = (sides.a[i as usize - 1], sides.b[j as usize - 1]);
        let (white, black) = if a_white { (a, b) } else { (b, a) };
        match (here(a), here(b)) {
            (true, true) => {
                ex.detail(
                    "SCH-3",
                    format!("board {i} - board {j}: {} - {}", r.id(white), r.id(black)),
                    vec![white, black],
                );
                out.boards.push(Board { white, black });
            }
            (true, false) | (false, true) => {
                let (p, o) = if here(a) { (a, b) } else { (b, a) };
                ex.step(
                    "SCH-5",
                    format!(
                        "{}'s opponent {} does not play this round: a bye",
                        r.id(p),
                        r.id(o)
                    ),
                    vec![p, o],
                );
                out.byes.push(ByeAssignment::pab(p, &t.scoring));
            }
            (false, false) => {}
        }
    }
    Ok(out)
}
