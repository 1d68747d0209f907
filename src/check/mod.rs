//! The pairing checker: re-pairs each round r of a tournament from rounds 1..r-1 and reports
//! where the recorded round differs (pairs, colours, the pairing-allocated bye).
//!
//! Players with a requested bye or absence recorded in round r are taken as not paired
//! that round, as the conformance contract says (`tests/data/conformance/README.md`).
//!
//! The checker stands on the single-round pipeline ([`crate::pairing`]): it resolves the
//! system there ([`pairing::resolve`]) and re-pairs each round with the pipeline's engine
//! step ([`pairing::pair_with`]). [`run`] is what the handlers and the CLI call.
pub mod infer;
pub mod manual;
pub mod why;

use std::collections::BTreeSet;

use crate::model::validate::{Problem, Problems};
use crate::model::{ByeKind, Round, SystemId, Tournament};
use crate::pairing::{self, Resolved};
use crate::systems::{Checklist, OtherReading, PairError, PairOptions, RoundPairing};

/// The check of one round.
#[derive(Clone, Debug)]
pub struct RoundCheck {
    pub round: u32,
    pub differences: Vec<String>,
    /// The engine's pairing (absent when it could not pair).
    pub engine: Option<RoundPairing>,
    /// Why the engine could not pair the round.
    pub error: Option<String>,
    /// The round's check-list (asked for by [`CheckOptions::checklist`], for a system that
    /// has one).
    pub checklist: Option<Checklist>,
    /// A round that differs but matches the record when re-paired under another reading of
    /// the rules (the Dutch system's other edition, Burstein's other profile): that
    /// reading (asked for by [`CheckOptions::other_readings`], AU-2).
    pub follows: Option<OtherReading>,
}

impl RoundCheck {
    pub fn matches(&self) -> bool {
        self.error.is_none() && self.differences.is_empty()
    }
}

#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    pub rounds: Vec<RoundCheck>,
    /// What the file left unstated and the check inferred (`infer.rs`).
    pub warnings: Vec<String>,
}

impl CheckReport {
    pub fn passed(&self) -> usize {
        self.rounds.iter().filter(|r| r.matches()).count()
    }

    pub fn failed(&self) -> usize {
        self.rounds.len() - self.passed()
    }
}

/// What to check.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    pub system: Option<SystemId>,
    pub first_round: Option<u32>,
    pub last_round: Option<u32>,
    pub seed: Option<u64>,
    /// Whether each round's check-list is wanted too (bbpPairings' `-l`).
    pub checklist: bool,
    /// Whether a round that differs is re-paired under the system's other readings of the
    /// rules (`System::other_readings`), to say which one it follows (AU-2).
    pub other_readings: bool,
}

/// A tournament re-paired round by round.
#[derive(Clone, Debug)]
pub struct CheckAnswer {
    /// The snapshot numbered as the answers present it.
    pub tournament: Tournament,
    pub system: SystemId,
    pub rule_set: &'static str,
    pub report: CheckReport,
}

/// Re-pairs every round in the range and reports the differences, with the numbered
/// snapshot, the system and its rule set (what `Check` and `swisspair check` answer).
pub fn run(t: &Tournament, options: &CheckOptions) -> Result<CheckAnswer, PairError> {
    let resolved = pairing::resolve(options.system, t)?;
    let mut problems = Vec::new();
    if t.players.is_empty() {
        problems.push(Problem::new(
            "tournament.players",
            "the tournament has no players",
        ));
    }
    if let (Some(first), Some(last)) = (options.first_round, options.last_round)
        && first > last
    {
        problems.push(Problem::new(
            "first_round",
            format!("first round {first} comes after last round {last}"),
        ));
    }
    // A file that records more rounds than it declares cannot be re-paired as written (no
    // round past the declared number can be paired): refused once, naming the field, rather
    // than as one failure per round.
    let recorded = t.rounds_paired();
    if t.total_rounds > 0 && recorded > t.total_rounds {
        problems.push(Problem::new(
            "tournament.total_rounds",
            format!(
                "the tournament declares {} rounds but records {recorded}{}",
                t.total_rounds,
                t.rounds_after_where(t.total_rounds)
            ),
        ));
    }
    if !problems.is_empty() {
        return Err(PairError::Invalid(Problems(problems)));
    }
    let mut report = check_with(&resolved, t, options);
    if options.other_readings {
        follow_other_readings(&resolved, t, options, &mut report);
    }
    Ok(CheckAnswer {
        tournament: pairing::numbered(t, options.seed),
        system: resolved.id,
        rule_set: resolved.rule_set,
        report,
    })
}

/// Each round of `report` that differs, re-paired under each of the system's other readings
/// of the rules (AU-2): the first under which it matches the record is what it follows.
fn follow_other_readings(
    resolved: &Resolved,
    t: &Tournament,
    options: &CheckOptions,
    report: &mut CheckReport,
) {
    let readings = resolved.system.other_readings(&t.options);
    if readings.is_empty() {
        return;
    }
    for rc in report.rounds.iter_mut().filter(|rc| !rc.matches()) {
        for reading in &readings {
            let mut other = t.clone();
            // An option the system declares, with a value its parser reads: `set` cannot
            // fail, nor can the resolution (the same system).
            if other.options.set(reading.option, reading.value).is_err() {
                continue;
            }
            let Ok(other_resolved) = pairing::resolve(options.system, &other) else {
                continue;
            };
            let one_round = CheckOptions {
                first_round: Some(rc.round),
                last_round: Some(rc.round),
                checklist: false,
                other_readings: false,
                ..options.clone()
            };
            let again = check_with(&other_resolved, &other, &one_round);
            if again
                .rounds
                .iter()
                .any(|r| r.round == rc.round && r.matches())
            {
                rc.follows = Some(*reading);
                break;
            }
        }
    }
}

/// Checks the paired rounds of `t` (those in the range asked for): [`run`]'s report.
pub fn check(t: &Tournament, options: &CheckOptions) -> Result<CheckReport, PairError> {
    run(t, options).map(|answer| answer.report)
}

/// [`check`] for a resolved system: each round is paired by the pipeline's engine step
/// from the rounds before it.
/// The snapshot round `number` (recorded as `recorded`) was paired from: the rounds before
/// it; a team event's records of round `number` on (its PAB, forfeited matches) are the
/// answer, so they go; the round's requested byes and absences stay (those players are not
/// paired). The checker and the "why not?" questions re-pair a recorded round from it.
pub(crate) fn snapshot_before(t: &Tournament, number: u32, recorded: &Round) -> Tournament {
    let mut before = t.clone();
    before.rounds.truncate(number as usize - 1);
    let settings = &mut before.team_settings;
    settings.pab_rounds.truncate(number as usize - 1);
    settings.forfeits.retain(|f| f.round < number);
    before.rounds.push(Round {
        games: Vec::new(),
        byes: recorded
            .byes
            .iter()
            .filter(|b| !b.kind.is_pairing_allocated())
            .cloned()
            .collect(),
    });
    before
}

fn check_with(resolved: &Resolved, t: &Tournament, options: &CheckOptions) -> CheckReport {
    let id = resolved.id;
    // What the file leaves unstated (no XXC, no XXR) is inferred as the reference's checker
    // does, and said in the report's warnings (`infer.rs`).
    let mut inferred = t.clone();
    let warnings = if resolved.system.checks_as_the_reference() {
        infer::infer_unstated(&mut inferred)
    } else {
        Vec::new()
    };
    let t = &inferred;
    let last = options
        .last_round
        .unwrap_or(t.rounds_paired())
        .min(t.rounds_paired());
    let first = options.first_round.unwrap_or(1).max(1);
    let mut report = CheckReport {
        warnings,
        ..CheckReport::default()
    };
    for number in first..=last {
        let Some(recorded) = t.round(number) else {
            continue;
        };
        if !recorded.is_paired() {
            continue;
        }
        // A system pairing matches of several games (Double-Swiss) is checked match by
        // match: the first game of each is re-paired, the others only repeat it.
        let games = resolved.system.games_per_match().max(1);
        if !(number - 1).is_multiple_of(games) {
            continue;
        }
        let before = snapshot_before(t, number, recorded);
        let pair_options = PairOptions {
            round: Some(number),
            seed: options.seed,
            system: Some(id),
            ..PairOptions::default()
        };
        let mut check = match pairing::pair_with(resolved, &before, &pair_options) {
            Ok((_, engine)) => RoundCheck {
                round: number,
                differences: match &engine.teams {
                    // A team system is checked on its team pairs, team colours and PAB.
                    Some(teams) => team_differences(t, number, teams),
                    None => differences(t, recorded, &engine),
                },
                engine: Some(engine),
                error: None,
                checklist: None,
                follows: None,
            },
            Err(e) => RoundCheck {
                round: number,
                differences: Vec::new(),
                engine: None,
                error: Some(e.to_string()),
                checklist: None,
                follows: None,
            },
        };
        if options.checklist {
            check.checklist = pairing::checklist_with(resolved, &before, &pair_options)
                .ok()
                .flatten();
        }
        // The match's later games: each must be what the system makes of the recorded
        // games before it (Double-Swiss: game 1 reversed).
        for later in number + 1..number + games {
            let Some(rec) = t.round(later).filter(|r| r.is_paired()) else {
                continue;
            };
            let mut upto = t.clone();
            upto.rounds.truncate(later as usize - 1);
            upto.rounds.push(Round {
                games: Vec::new(),
                byes: rec
                    .byes
                    .iter()
                    .filter(|b| !b.kind.is_pairing_allocated())
                    .cloned()
                    .collect(),
            });
            let later_options = PairOptions {
                round: Some(later),
                ..pair_options.clone()
            };
            match pairing::pair_with(resolved, &upto, &later_options) {
                Ok((_, engine)) => check.differences.extend(
                    differences(t, rec, &engine)
                        .into_iter()
                        .map(|d| format!("round {later}: {d}")),
                ),
                Err(e) => check.differences.push(format!("round {later}: {e}")),
            }
        }
        report.rounds.push(check);
    }
    report
}

/// Differences of a team round: the pairs of teams, which team has White on board 1, and
/// the team with the PAB (the recorded round derived by `model::team_rounds`).
fn team_differences(
    t: &Tournament,
    number: u32,
    engine: &crate::systems::team_swiss::TeamRoundPairing,
) -> Vec<String> {
    let recorded = match crate::model::team_rounds(t) {
        Ok(rounds) => rounds
            .into_iter()
            .nth(number as usize - 1)
            .unwrap_or_default(),
        Err(problems) => {
            return problems.into_iter().map(|p| p.message).collect();
        }
    };
    let tpn = |team: usize| t.team_tpn(team);
    let rec: BTreeSet<(u32, u32)> = recorded
        .matches
        .iter()
        .map(|m| (tpn(m.white), tpn(m.black)))
        .collect();
    let eng: BTreeSet<(u32, u32)> = engine
        .matches
        .iter()
        .map(|m| (tpn(m.white), tpn(m.black)))
        .collect();
    let mut out = Vec::new();
    for &(w, b) in eng.difference(&rec) {
        if rec.contains(&(b, w)) {
            out.push(format!(
                "colours: the engine gives team {w} White on board 1 against team {b}, the record the reverse"
            ));
        } else {
            out.push(format!(
                "the engine pairs team {w} - team {b}, not in the record"
            ));
        }
    }
    for &(w, b) in rec.difference(&eng) {
        if !eng.contains(&(b, w)) {
            out.push(format!(
                "the record pairs team {w} - team {b}, the engine does not"
            ));
        }
    }
    let (rec_pab, eng_pab) = (recorded.pab.map(tpn), engine.pab.map(tpn));
    if rec_pab != eng_pab {
        let name = |x: Option<u32>| x.map_or("nobody".to_string(), |x| format!("team {x}"));
        out.push(format!(
            "pairing-allocated bye: the engine gives {}, the record {}",
            name(eng_pab),
            name(rec_pab)
        ));
    }
    out
}

fn differences(t: &Tournament, recorded: &Round, engine: &RoundPairing) -> Vec<String> {
    let id = |p: usize| t.players.get(p).map_or("?", |pl| pl.id.as_str());
    let rec: BTreeSet<(usize, usize)> = recorded.games.iter().map(|g| (g.white, g.black)).collect();
    let eng: BTreeSet<(usize, usize)> = engine.boards.iter().map(|b| (b.white, b.black)).collect();
    let mut out = Vec::new();
    for &(w, b) in eng.difference(&rec) {
        if rec.contains(&(b, w)) {
            // Without colours (backgammon) the order of a pair is only the draw's order.
            if engine.colourless {
                continue;
            }
            out.push(format!(
                "colours: the engine gives {} white against {}, the record the reverse",
                id(w),
                id(b)
            ));
        } else {
            out.push(format!(
                "the engine pairs {} - {}, not in the record",
                id(w),
                id(b)
            ));
        }
    }
    for &(w, b) in rec.difference(&eng) {
        if !eng.contains(&(b, w)) {
            out.push(format!(
                "the record pairs {} - {}, the engine does not",
                id(w),
                id(b)
            ));
        }
    }
    let allocated =
        |byes: &mut dyn Iterator<Item = (usize, ByeKind)>| -> BTreeSet<(usize, ByeKind)> {
            byes.filter(|(_, k)| k.is_pairing_allocated()).collect()
        };
    let rec_bye = allocated(&mut recorded.byes.iter().map(|b| (b.player, b.kind)));
    let eng_bye = allocated(&mut engine.byes.iter().map(|b| (b.player, b.kind)));
    if rec_bye != eng_bye {
        let names = |s: &BTreeSet<(usize, ByeKind)>| {
            if s.is_empty() {
                "nobody".to_string()
            } else {
                s.iter()
                    .map(|&(p, k)| format!("{} ({})", id(p), k.describe()))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        out.push(format!(
            "pairing-allocated byes: the engine gives {}, the record {}",
            names(&eng_bye),
            names(&rec_bye)
        ));
    }
    out
}
