//! The audit of a tournament report: one verdict per TRF file, for a federation's registry
//! checking reports after the event.
//!
//! An audit puts together what `check`, the points column and `standings` each say of a
//! file, as findings:
//! 1. what the reader refuses ([`read`]): a line or a round column the strict reader stops
//!    at (opponents that disagree, a starting rank used twice, an unknown code) is set
//!    aside and reported, and the rest is read and checked; a FIDE id listed on two player
//!    lines; more rounds recorded than `XXR`/`142` declares;
//! 2. every round re-paired under the system in force for the file (its `192` record, its
//!    `XXO`, its options; a request's system and options override them) through the same
//!    pipeline as `check` ([`crate::check::run`]), and each difference (pairs, colours,
//!    the pairing-allocated bye) or round the system cannot pair;
//! 3. the points column (81-84) against the results under the file's scoring
//!    ([`crate::trf::TrfDocument::points_warnings`]);
//! 4. the rank column (86-89) against the standings ([`crate::standings`]) computed with the
//!    file's own tie-break list (`212`/`202`); without one, the ranks are not checked and the
//!    report says so.
//!
//! Each finding has its kind, round, players and rule id; the report is clean when it has
//! none. Nothing here prints or knows gRPC: the CLI (`swisspair audit`) and the service
//! (`Audit`, `AuditStream`) render and convert the report ([`render`]).
mod columns;
mod pairings;
pub mod read;
pub mod render;

use std::collections::BTreeMap;

use crate::check::CheckOptions;
use crate::model::{SystemId, SystemOptions};
use crate::standings::Edition;

pub use read::{AuditInput, Unreadable, read};

/// What kind of thing a finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FindingKind {
    /// A record the reader refuses (set aside to check the rest), or a player listed twice.
    Record,
    /// More rounds recorded than the file declares (`XXR`/`142`).
    Rounds,
    /// Rounds that could not be re-paired at all: no system, a system this build does not
    /// implement, an option it refuses, or a record set aside before them.
    NotRepaired,
    /// A re-paired round pairs players differently from the record.
    Pairs,
    /// A re-paired round gives the same pair the other colours.
    Colours,
    /// A re-paired round gives the pairing-allocated bye to someone else.
    Bye,
    /// The system finds no legal pairing for a recorded round's situation.
    Unpairable,
    /// The points column disagrees with the results under the file's scoring.
    Points,
    /// The rank column disagrees with the standings from the file's tie-break list.
    Rank,
    /// A round that differs under the reading of the rules the file chooses matches the
    /// record under the system's other reading (the Dutch system's other edition,
    /// Burstein's other profile): "round 8 follows the 2017 edition" (AU-2).
    Edition,
}

impl FindingKind {
    pub const ALL: [FindingKind; 10] = [
        FindingKind::Record,
        FindingKind::Rounds,
        FindingKind::NotRepaired,
        FindingKind::Pairs,
        FindingKind::Colours,
        FindingKind::Bye,
        FindingKind::Unpairable,
        FindingKind::Points,
        FindingKind::Rank,
        FindingKind::Edition,
    ];

    /// The kind's name in every output (table, TSV, JSON).
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::Record => "record",
            FindingKind::Rounds => "rounds",
            FindingKind::NotRepaired => "not_repaired",
            FindingKind::Pairs => "pairs",
            FindingKind::Colours => "colours",
            FindingKind::Bye => "bye",
            FindingKind::Unpairable => "unpairable",
            FindingKind::Points => "points",
            FindingKind::Rank => "rank",
            FindingKind::Edition => "edition",
        }
    }
}

/// One thing wrong with a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub kind: FindingKind,
    /// The round it concerns, if one.
    pub round: Option<u32>,
    /// The players it names, by id (a TRF file's ids are the starting ranks).
    pub players: Vec<String>,
    /// The rule in the shape of every rule id (`C.04.3 4.2`, `C.07`, `TRF 001 81-84`).
    pub rule_id: String,
    pub message: String,
}

/// What to audit with.
#[derive(Clone, Debug, Default)]
pub struct AuditOptions {
    /// The system; `None`: the file's (record 192, `XXO system=`).
    pub system: Option<SystemId>,
    /// System options set over the file's (`--option NAME=VALUE`).
    pub options: SystemOptions,
    /// Seed of every lot; `None`: the file's.
    pub seed: Option<u64>,
    /// C.07 edition of the tie-breaks; `None`: by the event's date (`052`, else `042`):
    /// 2024 before 2026-03-01, else 2026.
    pub tie_break_edition: Option<Edition>,
}

/// The audit of one report.
#[derive(Clone, Debug, Default)]
pub struct AuditReport {
    /// The system the rounds were re-paired under, if one could be resolved.
    pub system: Option<SystemId>,
    pub rule_set: String,
    pub players: usize,
    /// Rounds recorded (paired).
    pub rounds: u32,
    /// Rounds re-paired and compared.
    pub rounds_repaired: u32,
    pub points_checked: bool,
    pub ranks_checked: bool,
    /// The tie-break list the ranks were checked with (`PTS,BH/C1,...`), if they were.
    pub tie_breaks: String,
    pub findings: Vec<Finding>,
    /// What the audit did not check, or inferred, and why (not findings).
    pub notes: Vec<String>,
    /// Title norms met in the event (B.01 1.4): information for the registry, not findings.
    pub norms: Option<NormsMet>,
}

/// The title norms an event's players met, with what their certificates need: the
/// document read (names, dates) and the options they were checked with.
#[derive(Clone, Debug)]
pub struct NormsMet {
    pub document: Box<crate::trf::TrfDocument>,
    pub options: crate::standings::norms::NormOptions,
    /// Only the checks met, by player then title.
    pub checks: Vec<crate::standings::norms::NormCheck>,
}

impl NormsMet {
    /// One line per norm met: "player 3 (Name): GM norm, 6.5/9, Ra 2412, Rp 2605".
    pub fn lines(&self) -> Vec<String> {
        let t = &self.document.tournament;
        self.checks
            .iter()
            .map(|c| {
                let p = &t.players[c.player];
                format!(
                    "player {} ({}): {} norm, {}/{}, Ra {}, Rp {}{}",
                    p.id,
                    p.name,
                    c.title.code(),
                    crate::model::Score::from_tenths(c.halves * 5),
                    c.games.len(),
                    c.average,
                    c.performance,
                    c.exemption
                        .map(|e| format!(", foreigner requirement exempt by {e}"))
                        .unwrap_or_default()
                )
            })
            .collect()
    }
}

/// The norms met in the event, when any (B.01 1.4, information for the audit).
fn norms_met(doc: &crate::trf::TrfDocument) -> Option<NormsMet> {
    use crate::standings::norms;
    let options = norms::NormOptions {
        host_federation: crate::standings::report::host_federation(doc),
        exemption: None,
        round_robin: doc.tournament.system == Some(SystemId::RoundRobin),
        ..norms::NormOptions::default()
    };
    let checks: Vec<norms::NormCheck> = norms::check(&doc.tournament, &options)
        .checks
        .into_iter()
        .filter(|c| c.met)
        .collect();
    (!checks.is_empty()).then(|| NormsMet {
        document: Box::new(doc.clone()),
        options,
        checks,
    })
}

impl AuditReport {
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }

    /// Findings by kind, in [`FindingKind::ALL`] order, kinds with none left out.
    pub fn counts(&self) -> Vec<(FindingKind, usize)> {
        let mut by_kind: BTreeMap<FindingKind, usize> = BTreeMap::new();
        for f in &self.findings {
            *by_kind.entry(f.kind).or_default() += 1;
        }
        by_kind.into_iter().collect()
    }

    /// "clean", or "3 findings: pairs 2, points 1".
    pub fn verdict(&self) -> String {
        if self.is_clean() {
            return "clean".to_string();
        }
        let n = self.findings.len();
        let counts: Vec<String> = self
            .counts()
            .into_iter()
            .map(|(k, c)| format!("{} {c}", k.name()))
            .collect();
        format!(
            "{n} finding{}: {}",
            if n == 1 { "" } else { "s" },
            counts.join(", ")
        )
    }
}

/// Reads a report leniently and audits it (see the module docs).
pub fn audit_text(text: &str, options: &AuditOptions) -> Result<AuditReport, Unreadable> {
    read(text).map(|input| audit(&input, options))
}

/// Audits a report read by [`read`] (or made from a document with
/// [`AuditInput::from_document`]).
pub fn audit(input: &AuditInput, options: &AuditOptions) -> AuditReport {
    let mut doc = input.document.clone();
    let t = &mut doc.tournament;
    if options.system.is_some() {
        t.system = options.system;
    }
    for (name, value) in options.options.iter() {
        // Names and values come from a `SystemOptions` already: `set` does not fail.
        let _ = t.options.set(name, value);
    }
    let mut report = AuditReport {
        players: t.players.len(),
        rounds: t.rounds_paired(),
        findings: input.findings.clone(),
        ..AuditReport::default()
    };
    report.findings.extend(read::listed_twice(t));

    // The pairings, through the checker's pipeline.
    let mut checked = t.clone();
    let recorded = checked.rounds_paired();
    if checked.total_rounds > 0 && recorded > checked.total_rounds {
        report.findings.push(Finding {
            kind: FindingKind::Rounds,
            round: None,
            players: Vec::new(),
            rule_id: "TRF XXR".to_string(),
            message: format!(
                "the file declares {} rounds but records {recorded}; the rounds are re-paired as a {recorded}-round event",
                checked.total_rounds
            ),
        });
        checked.total_rounds = recorded;
    }
    let check_options = CheckOptions {
        system: None,
        first_round: None,
        last_round: None,
        seed: options.seed,
        checklist: false,
        // A round that differs is re-paired under the other edition / profile (AU-2).
        other_readings: true,
    };
    pairings::audit_pairings(&checked, input, &check_options, &mut report);

    // The columns.
    columns::audit_points(&doc, input, &mut report);
    columns::audit_ranks(&doc, input, options, &mut report);
    report.norms = norms_met(&doc);
    report
}
