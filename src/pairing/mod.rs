//! The pairing pipeline for one round, written once: the floor the checker
//! ([`crate::check`], manual validation in [`crate::check::manual`]) and the simulator
//! ([`crate::simulate`]) stand on, and what the gRPC handlers (`service/`) and the CLI
//! commands (`src/cli/`) call to pair. Nothing else resolves a system, checks its options or
//! assigns pairing numbers. This module imports the systems and the model only, never the
//! layers above it (`tests/layers.rs`).
//!
//! Every entry point does the same steps in the same order:
//! 1. resolve the system (the request's, else the snapshot's record 192) to its
//!    implementation in the registry ([`crate::systems::implemented`]);
//! 2. check that every option the request set is one the system reads
//!    ([`crate::systems::SystemInfo::options`]): an option of another system is refused,
//!    never silently ignored;
//! 3. run the system on the snapshot as given: pairing numbers are assigned (CG-2) inside
//!    [`RoundToPair::prepare`] only, so a system can tell whether the snapshot gave them
//!    (Vega's Buchholz draws its identification numbers by lot when it did not, BH-1);
//! 4. answer with the numbered snapshot (for ids and pairing numbers in the presentation),
//!    the system's id and rule set, and what the system decided.
//!
//! The checker, manual validation and the simulator run steps 1-2 through [`resolve`] and
//! step 3 through [`pair_with`] (round by round) or [`pair_round`].
mod teams;

use crate::model::validate::{Problem, Problems};
use crate::model::{SystemId, Tournament};
use crate::systems::backgammon::{self, Finals, ProvisionalPairing};
use crate::systems::{
    self, Configured, PairError, PairOptions, PairingSystem, RoundPairing, RoundToPair,
};

/// A system resolved from the registry, with what every answer reports of it.
#[derive(Clone)]
pub struct Resolved {
    pub id: SystemId,
    pub system: &'static dyn PairingSystem,
    /// The system with the request's options decoded once (`System::options`): every rule
    /// that can depend on them is asked of it.
    pub configured: Configured,
    /// The rules the system follows, e.g. "FIDE C.04.3 (2026)".
    pub rule_set: &'static str,
}

/// The request's system, else the snapshot's, as implemented by this build; and the
/// options checked against what it reads.
pub fn resolve(requested: Option<SystemId>, t: &Tournament) -> Result<Resolved, PairError> {
    let id = match (requested.or(t.system), &t.unknown_system) {
        (Some(id), _) => id,
        (None, Some(code)) => {
            return Err(PairError::Invalid(Problems(vec![Problem::new(
                "trf.192",
                unknown_system_message(code),
            )])));
        }
        (None, None) => return Err(PairError::NoSystem(systems::implemented_names())),
    };
    let system = systems::find(id)
        .ok_or_else(|| PairError::NotImplemented(id, systems::implemented_names()))?;
    let info = system.info();
    check_options(&info, &t.options)?;
    let configured = system.configure(&t.options);
    Ok(Resolved {
        id,
        system,
        rule_set: configured.rule_set(),
        configured,
    })
}

/// Why a file's record 192 code is refused: the system (or edition) it names, when known,
/// and what this build implements.
fn unknown_system_message(code: &str) -> String {
    let upper = code.to_ascii_uppercase();
    let base = upper.strip_suffix("_BAKU").unwrap_or(&upper);
    let named = if let Some(year) = base.strip_prefix("FIDE_DUTCH_") {
        format!(
            "names the Dutch system, {year} edition, which this build does not implement (it implements the 2017 and 2026 editions: FIDE_DUTCH_2017, FIDE_DUTCH_2026)"
        )
    } else {
        "names a pairing system this build does not implement".to_string()
    };
    format!(
        "record 192: {code:?} {named}; give the system by name (implemented: {})",
        systems::implemented_names()
    )
}

/// Refuses options the system does not read, and values its own parser refuses (named as
/// the request set them).
fn check_options(
    info: &systems::SystemInfo,
    options: &crate::model::SystemOptions,
) -> Result<(), PairError> {
    let reads: Vec<&str> = info.options.iter().map(|o| o.name).collect();
    let mut problems = Vec::new();
    for (name, value) in options.iter() {
        match info.options.iter().find(|o| o.name == name) {
            Some(option) => {
                if let Err(e) = (option.parse)(value) {
                    problems.push(Problem::new(
                        format!("options.{name}"),
                        format!("option {name} of system {}: {e}", info.id.name()),
                    ));
                }
            }
            None => problems.push(Problem::new(
                format!("options.{name}"),
                format!(
                    "option {name} does not apply to system {}; it reads {}",
                    info.id.name(),
                    if reads.is_empty() {
                        "no options".to_string()
                    } else {
                        reads.join(", ")
                    }
                ),
            )),
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(PairError::Invalid(Problems(problems)))
    }
}

/// The standings of a tournament (C.07 tie-breaks, `standings::compute`), ranked first by
/// its system's own ranking when the system has one (Keizer's score, KZ-6): the system is
/// the tournament's, with its options checked as for pairing. A tournament without a
/// system, or with one this build does not implement, is ranked by points.
pub fn standings(
    t: &Tournament,
    options: &crate::standings::Options,
) -> Result<crate::standings::Standings, crate::standings::StandingsError> {
    let Some(system) = t.system.and_then(systems::find) else {
        return crate::standings::compute(t, options);
    };
    let configured = system.configure(&t.options);
    // A system without its own ranking never reads its options here: its standings stay
    // what `standings::compute` gives, whatever options the snapshot carries.
    if configured.own_ranking(t, 0).is_none() {
        return crate::standings::compute(t, options);
    }
    check_options(&system.info(), &t.options)
        .map_err(|e| crate::standings::StandingsError::System(e.to_string()))?;
    crate::standings::compute_with(t, options, &|rounds| configured.own_ranking(t, rounds))
}

/// Reads a TRF text; each pairing system reads its own record 192 code (the system, its
/// options, the edition by the event's dates).
pub fn read_trf(text: &str) -> Result<crate::trf::TrfDocument, crate::trf::TrfError> {
    crate::trf::read(text, &systems::Registry)
}

/// [`read_trf`] reporting every error (up to `trf::MAX_ERRORS`); a leading byte-order mark
/// is ignored.
pub fn read_trf_reporting(text: &str) -> Result<crate::trf::TrfDocument, crate::trf::TrfErrors> {
    crate::trf::read_reporting(text, &systems::Registry)
}

/// Writes a tournament as TRF; its system writes its own record 192 code.
pub fn write_trf(
    doc: &crate::trf::TrfDocument,
    dialect: crate::trf::Dialect,
) -> Result<String, crate::trf::WriteError> {
    crate::trf::write(doc, dialect, &systems::Registry)
}

/// The snapshot numbered as every answer presents it: the pairing numbers given, else
/// CG-2's with the request's seed (the same numbers [`RoundToPair::prepare`] assigns).
pub fn numbered(t: &Tournament, seed: Option<u64>) -> Tournament {
    let mut t = t.clone();
    t.assign_pairing_numbers(seed.unwrap_or(t.lot_seed));
    t
}

/// A round paired.
#[derive(Clone, Debug)]
pub struct PairAnswer {
    /// The snapshot as the system paired it: pairing numbers assigned, its scoring.
    pub tournament: Tournament,
    pub system: SystemId,
    pub rule_set: &'static str,
    pub pairing: RoundPairing,
}

/// Pairs the next round (or `options.round`).
pub fn pair(t: &Tournament, options: &PairOptions) -> Result<PairAnswer, PairError> {
    let resolved = resolve(options.system, t)?;
    let (tournament, pairing) = pair_with(&resolved, t, options)?;
    Ok(PairAnswer {
        tournament,
        system: resolved.id,
        rule_set: resolved.rule_set,
        pairing,
    })
}

/// [`pair`] of a snapshot the caller gives away (the service and the CLI, which read it for
/// this one answer): the answer keeps it instead of a copy.
pub fn pair_owned(t: Tournament, options: &PairOptions) -> Result<PairAnswer, PairError> {
    let resolved = resolve(options.system, &t)?;
    let (tournament, pairing) = pair_with_owned(&resolved, t, options)?;
    Ok(PairAnswer {
        tournament,
        system: resolved.id,
        rule_set: resolved.rule_set,
        pairing,
    })
}

/// [`pair`] for callers that need only the pairing (the simulator, tests, benches).
pub fn pair_round(t: &Tournament, options: &PairOptions) -> Result<RoundPairing, PairError> {
    pair(t, options).map(|answer| answer.pairing)
}

/// Runs a resolved system on a snapshot: the engine step of [`pair`], also used round by
/// round by the checker. Returns the numbered snapshot and the pairing.
pub(crate) fn pair_with(
    resolved: &Resolved,
    t: &Tournament,
    options: &PairOptions,
) -> Result<(Tournament, RoundPairing), PairError> {
    pair_with_owned(resolved, t.clone(), options)
}

/// [`pair_with`] of a snapshot the caller gives away.
pub(crate) fn pair_with_owned(
    resolved: &Resolved,
    mut t: Tournament,
    options: &PairOptions,
) -> Result<(Tournament, RoundPairing), PairError> {
    // A team event paired by a system of individuals: the teams are its units (`teams.rs`),
    // each carrying its team's groups, so the event's separations apply to the units
    // (SEP-6); what the system cannot honour is refused here, before the units are made.
    if t.is_team_event() && !resolved.system.pairs_team_events() {
        check_separations(resolved, &t)?;
        return teams::pair_as_units(resolved, &t, options);
    }
    let mut notes = Vec::new();
    t.scoring = resolved.system.effective_scoring(&t.scoring, &mut notes);
    let snapshot_forbidden = t.forbidden_pairings.len();
    let total_rounds = t.total_rounds;
    let mut round = prepare_owned(resolved, t, options)?;
    let separated = separated_summary(&round, snapshot_forbidden);
    let mut pairing = match resolved.configured.pair(&round) {
        Err(PairError::NoLegalPairing {
            rule,
            message,
            explanation,
        }) if !separated.is_empty() => {
            return Err(PairError::NoLegalPairing {
                rule,
                message: format!("{message}; absolute separations in force (SEP-1): {separated}"),
                explanation,
            });
        }
        other => other?,
    };
    // The forbidden groups the separations added are the round's, not the snapshot's.
    round
        .tournament
        .forbidden_pairings
        .truncate(snapshot_forbidden);
    if !separated.is_empty() {
        pairing.explanation.groups.insert(
            0,
            systems::explanation::Group {
                label: "separations".to_string(),
                steps: vec![systems::explanation::Step {
                    rule_id: "SEP-1".to_string(),
                    message: format!(
                        "absolute separations in force: {separated}; no two members of a group meet"
                    ),
                    players: Vec::new(),
                    detail: systems::Detail::Summary,
                }],
            },
        );
    }
    if let Some(step) = weak_step(&round, &pairing) {
        match pairing
            .explanation
            .groups
            .iter_mut()
            .find(|g| g.label == "separations")
        {
            Some(group) => group.steps.push(step),
            None => pairing.explanation.groups.insert(
                0,
                systems::explanation::Group {
                    label: "separations".to_string(),
                    steps: vec![step],
                },
            ),
        }
    }
    if pairing.colourless || resolved.configured.absolute_rules().fixed_colours {
        // CG-8's first-round colour lot means nothing to a system without colours, nor to
        // one whose table fixes them (a round robin: only a given colour counts).
        let lot = systems::common::colour_lot_warning(round.initial_colour, round.seed);
        round.warnings.retain(|w| w.message != lot);
    }
    round.warnings.extend(
        notes
            .into_iter()
            .map(|n| systems::Warning::new("SCORING_REPLACED", "", n)),
    );
    pairing.round = round.number;
    if pairing.total_rounds.is_none() && total_rounds > 0 {
        pairing.total_rounds = Some(total_rounds);
    }
    // Echo the byes decided before pairing (CG-11), then the system's own.
    let mut byes = round.preset_byes.clone();
    byes.append(&mut pairing.byes);
    pairing.byes = byes;
    pairing
        .warnings
        .splice(0..0, round.warnings.iter().cloned());
    pairing.explanation = std::mem::take(&mut pairing.explanation).filtered(options.detail);
    Ok((round.tournament, pairing))
}

/// The round `options` names, prepared as the resolved system pairs it: who plays, preset
/// byes, pairing numbers, the first colour ([`RoundToPair::prepare`]), then the
/// acceleration the system's options ask for (C.04.7, [`RoundToPair::accelerate`]).
pub fn prepare(
    resolved: &Resolved,
    t: &Tournament,
    options: &PairOptions,
) -> Result<RoundToPair, PairError> {
    prepare_owned(resolved, t.clone(), options)
}

/// [`prepare`] of a snapshot the caller gives away.
pub fn prepare_owned(
    resolved: &Resolved,
    t: Tournament,
    options: &PairOptions,
) -> Result<RoundToPair, PairError> {
    check_separations(resolved, &t)?;
    let mut round = RoundToPair::prepare_owned(t, options)?;
    round.accelerate(resolved.configured.acceleration())?;
    separate(&mut round);
    Ok(round)
}

/// Refuses the separations the pipeline cannot honour, naming the field: a WEAK one at a
/// place the system does not weigh (SEP-5), any in a system whose table decides the pairings (SEP-4:
/// round robin, `System::separations_apply`), any in a team event.
fn check_separations(resolved: &Resolved, t: &Tournament) -> Result<(), PairError> {
    if t.separations.is_empty() {
        return Ok(());
    }
    let mut problems = Vec::new();
    if !resolved.system.separations_apply() {
        problems.push(Problem::new(
            "tournament.separations",
            format!(
                "system {} pairs by a fixed table and cannot keep players apart: remove the separations (SEP-4)",
                resolved.id.name()
            ),
        ));
    } else if t.is_team_event() {
        // SEP-6: a team event separates teams by their own federation, club or groups; a
        // team is its own team, so the key TEAM would group nobody.
        for (i, s) in t.separations.iter().enumerate() {
            if s.key == crate::model::SeparationKey::Team {
                problems.push(Problem::new(
                    format!("tournament.separations[{i}].key"),
                    "a team event separates teams by their federation, club or named groups (SEP-6); the key TEAM groups nothing there",
                ));
            }
        }
    }
    for (i, s) in t.separations.iter().enumerate() {
        let Some(place) = s.mode.weak_place() else {
            continue;
        };
        let places = resolved.system.weak_separation_places();
        if !places.contains(&place) {
            let message = if places.is_empty() {
                format!(
                    "separation by {}: system {} does not weigh weak separations yet; ABSOLUTE is honoured (SEP-5)",
                    s.key.name(),
                    resolved.id.name()
                )
            } else {
                let offered: Vec<&str> = places
                    .iter()
                    .map(|p| match p {
                        crate::model::WeakPlace::First => "WEAK_FIRST",
                        crate::model::WeakPlace::Default => "WEAK",
                        crate::model::WeakPlace::Last => "WEAK_LAST",
                    })
                    .collect();
                format!(
                    "separation by {}: system {} does not weigh a weak separation placed {}; it offers {} (SEP-5.1)",
                    s.key.name(),
                    resolved.id.name(),
                    place.name(),
                    offered.join(", ")
                )
            };
            problems.push(Problem::new(
                format!("tournament.separations[{i}].mode"),
                message,
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(PairError::Invalid(Problems(problems)))
    }
}

/// SEP-1: each group an absolute separation keeps apart in this round becomes one
/// forbidden group (CG-10) of the round's snapshot, after the snapshot's own; every
/// system's CG-10 machinery then keeps its members apart.
fn separate(round: &mut RoundToPair) {
    if round.tournament.separations.is_empty() {
        return;
    }
    let number = round.number;
    let groups = round.tournament.separated_groups(number);
    round
        .tournament
        .forbidden_pairings
        .extend(groups.into_iter().map(|g| crate::model::ForbiddenPairing {
            players: g.players,
            first_round: Some(number),
            last_round: Some(number),
        }));
}

/// SEP-5: the weak separations in force and the pairs within a group the system's
/// criteria above them could not avoid; `None` when no weak separation keeps a group apart
/// this round.
fn weak_step(round: &RoundToPair, pairing: &RoundPairing) -> Option<systems::explanation::Step> {
    let t = &round.tournament;
    let weak = t.weak_separations(round.number);
    if weak.is_empty() {
        return None;
    }
    let mut in_force = Vec::new();
    for s in &t.separations {
        if let Some(place) = s.mode.weak_place()
            && s.applies_to(round.number)
        {
            in_force.push(format!("{} (placed {})", s.key.name(), place.name()));
        }
    }
    let number = |p: crate::model::PlayerIdx| t.pairing_number(p);
    let mut players = Vec::new();
    let mut within = Vec::new();
    if let Some(teams) = pairing.teams.as_ref().filter(|_| t.is_team_event()) {
        // SEP-6: the team matches within a group, by team pairing number; the players
        // named are the teams' first members (as "why not?" names teams).
        let by_team = t.weak_team_separations(round.number);
        for m in &teams.matches {
            if let Some((_, group)) = by_team.shared_group(m.white, m.black) {
                within.push(format!(
                    "team {}-team {} ({group})",
                    t.team_tpn(m.white),
                    t.team_tpn(m.black)
                ));
                for team in [m.white, m.black] {
                    players.extend(t.teams.get(team).and_then(|x| x.members.first()).copied());
                }
            }
        }
    } else {
        for b in &pairing.boards {
            if let Some((_, group)) = weak.shared_group(b.white, b.black) {
                within.push(format!("{}-{} ({group})", number(b.white), number(b.black)));
                players.extend([b.white, b.black]);
            }
        }
    }
    let message = if within.is_empty() {
        format!(
            "weak separations in force: {}; no pair within a group",
            in_force.join(", ")
        )
    } else {
        format!(
            "weak separations in force: {}; {} pair(s) within a group, which the criteria above the separation's place left no way to avoid: {}",
            in_force.join(", "),
            within.len(),
            within.join(", ")
        )
    };
    Some(systems::explanation::Step {
        rule_id: "SEP-5".to_string(),
        message,
        players,
        detail: systems::Detail::Summary,
    })
}

/// The absolute separations in force in the prepared round, for messages: `club (3
/// groups), family (1 group)`; empty when none keeps a group apart. `own` is the number
/// of the snapshot's own forbidden pairings (the rest are the separations').
fn separated_summary(round: &RoundToPair, own: usize) -> String {
    let t = &round.tournament;
    if t.separations.is_empty() || t.forbidden_pairings.len() <= own {
        return String::new();
    }
    let groups = t.separated_groups(round.number);
    let mut parts = Vec::new();
    for (i, s) in t.separations.iter().enumerate() {
        let n = groups.iter().filter(|g| g.separation == i).count();
        if n > 0 {
            parts.push(format!(
                "{} ({n} group{})",
                s.key.name(),
                if n == 1 { "" } else { "s" }
            ));
        }
    }
    parts.join(", ")
}

/// The check-list of the round [`pair`] would pair (bbpPairings' `-l`): the facts the
/// system pairs it with, from the system's own code; `None` for a system without one.
pub fn checklist(
    t: &Tournament,
    options: &PairOptions,
) -> Result<Option<systems::Checklist>, PairError> {
    let resolved = resolve(options.system, t)?;
    checklist_with(&resolved, t, options)
}

/// [`checklist`] for a resolved system, on the snapshot [`pair_with`] would pair.
pub(crate) fn checklist_with(
    resolved: &Resolved,
    t: &Tournament,
    options: &PairOptions,
) -> Result<Option<systems::Checklist>, PairError> {
    if t.is_team_event() && !resolved.system.pairs_team_events() {
        return Ok(None);
    }
    let mut notes = Vec::new();
    let scoring = resolved.system.effective_scoring(&t.scoring, &mut notes);
    let rescored = Tournament {
        scoring,
        ..t.clone()
    };
    let round = prepare_owned(resolved, rescored, options)?;
    Ok(resolved.configured.checklist(&round))
}

/// Backgammon's early draw of round 2 (BG-8).
#[derive(Clone, Debug)]
pub struct ProvisionalAnswer {
    pub tournament: Tournament,
    pub rule_set: &'static str,
    pub pairing: ProvisionalPairing,
}

/// Draws round 2 before round 1 has results (backgammon only, BG-8).
pub fn provisional(t: &Tournament, options: &PairOptions) -> Result<ProvisionalAnswer, PairError> {
    let resolved = resolve_backgammon(t, options, "the early draw of round 2 (BG-8)")?;
    let pairing = backgammon::pair_provisional(t, options)?;
    Ok(ProvisionalAnswer {
        tournament: numbered(t, options.seed),
        rule_set: resolved.rule_set,
        pairing,
    })
}

/// Backgammon's final phase (BG-9).
#[derive(Clone, Debug)]
pub struct FinalsAnswer {
    pub tournament: Tournament,
    pub rule_set: &'static str,
    pub finals: Finals,
}

/// The final (or champion) and the repechage, after the regular rounds (BG-9).
pub fn finals(t: &Tournament, options: &PairOptions) -> Result<FinalsAnswer, PairError> {
    let resolved = resolve_backgammon(t, options, "the final phase (BG-9)")?;
    let finals = backgammon::pair_finals(t, options)?;
    Ok(FinalsAnswer {
        tournament: numbered(t, options.seed),
        rule_set: resolved.rule_set,
        finals,
    })
}

fn resolve_backgammon(
    t: &Tournament,
    options: &PairOptions,
    what: &str,
) -> Result<Resolved, PairError> {
    let id = options.system.or(t.system);
    if id != Some(SystemId::Backgammon) {
        let now = id.map_or_else(|| "not set".to_string(), |s| s.name().to_string());
        return Err(PairError::Invalid(Problems(vec![Problem::new(
            "system",
            format!("{what} is a backgammon rule: set the system to BACKGAMMON (it is {now})"),
        )])));
    }
    // BG-8's early draw and BG-9's final phase are not paired by the pipeline's `prepare`:
    // a separation would be silently ignored, so it is refused (SEP-4).
    if !t.separations.is_empty() {
        return Err(PairError::Invalid(Problems(vec![Problem::new(
            "tournament.separations",
            format!("{what} does not apply separations: remove them (SEP-4)"),
        )])));
    }
    resolve(id, t)
}
