//! Reading a report for an audit: what the strict reader ([`crate::trf::read`]) refuses is
//! set aside and reported as a finding, and the rest is read, so that one bad line does not
//! hide everything else a registry wants to know.
//!
//! The reader stops at its first error; the part of the text at fault is set aside (read as
//! blank) and the text read again, until it reads (at most [`MAX_SET_ASIDE`] times):
//! - an error in a player line's round column (an opponent who does not name the player
//!   back, colours or results that disagree, an unknown code) blanks that one round's
//!   entry (10 columns): the player and his other rounds stay; the round and every later
//!   one are then not re-paired (their history is incomplete);
//! - an error in a player line's rating (49-52) or points (81-84) blanks that field;
//! - any other error in a player line (a starting rank used twice, an unreadable rank)
//!   sets the line aside: that player is not in the audit, so no round is re-paired and
//!   the ranks are not checked;
//! - an error in any other record sets the line aside.
//!
//! The rank column (86-89), which the model does not keep, is read here too.
use std::collections::{BTreeSet, HashMap};

use super::{Finding, FindingKind};
use crate::model::Tournament;
use crate::trf::{self, TrfDocument};

/// Most parts of a text set aside before the file counts as unreadable.
pub const MAX_SET_ASIDE: usize = 100;

/// A report as the audit reads it.
#[derive(Clone, Debug, Default)]
pub struct AuditInput {
    pub document: TrfDocument,
    /// The rank column (86-89) of each player, by player index; `None` when blank or not
    /// a number.
    pub declared_ranks: Vec<Option<u32>>,
    /// Whether the input had a rank column at all (a TRF text; not a document built in
    /// memory).
    pub has_rank_column: bool,
    /// What the reader refused (kind [`FindingKind::Record`]).
    pub findings: Vec<Finding>,
    /// The first round with an entry set aside: it and later rounds are not re-paired.
    pub damaged_from_round: Option<u32>,
    /// A player line was set aside: no round is re-paired, ranks are not checked.
    pub player_removed: bool,
    /// Starting ranks of players whose points or round entries were set aside, or who were
    /// named by an entry set aside: their points column is not compared.
    pub damaged_players: BTreeSet<u32>,
}

impl AuditInput {
    /// A document read elsewhere (strictly): nothing set aside, no rank column.
    pub fn from_document(document: TrfDocument) -> AuditInput {
        AuditInput {
            document,
            ..AuditInput::default()
        }
    }
}

/// Why a file cannot be audited at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unreadable(pub String);

/// Reads a TRF text leniently (see the module docs).
pub fn read(text: &str) -> Result<AuditInput, Unreadable> {
    let text = trf::encoding::strip_bom(text);
    let mut lines = trf::split_lines(text);
    let mut input = AuditInput {
        has_rank_column: true,
        ..AuditInput::default()
    };
    let document = loop {
        let error = match crate::pairing::read_trf(&lines.join("\n")) {
            Ok(doc) => break doc,
            Err(e) => e,
        };
        if input.findings.len() >= MAX_SET_ASIDE {
            return Err(Unreadable(format!(
                "more than {MAX_SET_ASIDE} errors; the first: {}",
                input
                    .findings
                    .first()
                    .map_or(String::new(), |f| f.message.clone())
            )));
        }
        let at = error.line.checked_sub(1).filter(|&i| i < lines.len());
        if !at.is_some_and(|i| set_aside(&mut lines, i, &error, &mut input)) {
            return Err(Unreadable(error.to_string()));
        }
    };
    if document.tournament.players.is_empty() {
        return Err(Unreadable(
            "no player line (001): not a tournament report".to_string(),
        ));
    }
    input.declared_ranks = declared_ranks(&lines, &document);
    input.document = document;
    Ok(input)
}

/// Sets aside the part of line `at` at fault; false when nothing is left to set aside.
fn set_aside(
    lines: &mut [String],
    at: usize,
    error: &trf::TrfError,
    input: &mut AuditInput,
) -> bool {
    let line = &lines[at];
    if line.trim().is_empty() {
        return false;
    }
    let code: String = line.chars().take(3).collect();
    let mut chars: Vec<char> = line.chars().collect();
    let field = crate::trf::cols;
    let message = format!("line {}: {}", error.line, error.message);
    if code != "001" {
        input.findings.push(Finding {
            kind: FindingKind::Record,
            round: None,
            players: Vec::new(),
            rule_id: format!("TRF {}", code.trim()),
            message: format!("{message} (line set aside)"),
        });
        lines[at].clear();
        return true;
    }
    let rank = field(&chars, 5, 8);
    let rank_number: Option<u32> = rank.parse().ok();
    let blank = |chars: &mut Vec<char>, from: usize, to: usize| {
        if chars.len() < to {
            chars.resize(to, ' ');
        }
        for c in &mut chars[from - 1..to] {
            *c = ' ';
        }
    };
    let column = error.column;
    let (round, players, what) = if column >= 92 {
        let base = 92 + (column - 92) / 10 * 10;
        let round = (base - 92) as u32 / 10 + 1;
        let opponent = field(&chars, base, base + 3);
        let mut players = vec![rank.clone()];
        if let Ok(o) = opponent.parse::<u32>()
            && o != 0
        {
            players.push(o.to_string());
            input.damaged_players.insert(o);
        }
        blank(&mut chars, base, base + 7);
        input.damaged_from_round = Some(input.damaged_from_round.map_or(round, |r| r.min(round)));
        (
            Some(round),
            players,
            format!("round {round}'s entry set aside"),
        )
    } else if (49..=52).contains(&column) {
        blank(&mut chars, 49, 52);
        (None, vec![rank.clone()], "rating set aside".to_string())
    } else if (81..=84).contains(&column) {
        blank(&mut chars, 81, 84);
        (None, vec![rank.clone()], "points set aside".to_string())
    } else {
        chars.clear();
        // A starting rank used twice: the first line with it stays, and the player with
        // it; otherwise the player is out of the audit.
        let kept = rank_number.is_some_and(|r| {
            lines.iter().enumerate().any(|(i, l)| {
                i != at
                    && l.starts_with("001")
                    && field(&l.chars().collect::<Vec<_>>(), 5, 8) == r.to_string()
            })
        });
        if kept {
            (
                None,
                vec![rank.clone()],
                "the repeated line set aside".to_string(),
            )
        } else {
            input.player_removed = true;
            (None, Vec::new(), "player line set aside".to_string())
        }
    };
    // A repeated line set aside leaves the player as the first line has him.
    let repeated = chars.is_empty() && !input.player_removed;
    if let Some(r) = rank_number
        && !repeated
    {
        input.damaged_players.insert(r);
    }
    input.findings.push(Finding {
        kind: FindingKind::Record,
        round,
        players: players.into_iter().filter(|p| !p.is_empty()).collect(),
        rule_id: "TRF 001".to_string(),
        message: format!("{message} ({what})"),
    });
    let changed: String = chars.into_iter().collect();
    if changed == lines[at] {
        // Nothing changed (the field was blank already): set the whole line aside.
        input.player_removed = true;
        lines[at].clear();
    } else {
        lines[at] = changed;
    }
    true
}

/// The rank column (86-89, shifted right in a file of wider player ids, `XXW <digits>`) of
/// each player of `doc`, from the text's player lines.
fn declared_ranks(lines: &[String], doc: &TrfDocument) -> Vec<Option<u32>> {
    let columns = crate::trf::PlayerColumns {
        width: crate::trf::id_width(lines.iter().map(String::as_str)),
    };
    let by_rank: HashMap<u32, usize> = doc
        .tournament
        .players
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.pairing_number.map(|r| (r, i)))
        .collect();
    let mut out = vec![None; doc.tournament.players.len()];
    for line in lines.iter().filter(|l| l.starts_with("001")) {
        let chars: Vec<char> = line.chars().collect();
        let text = |from: usize, to: usize| crate::trf::cols(&chars, from, to);
        let (Ok(start), Ok(rank)) = (
            text(5, columns.rank_end()).parse::<u32>(),
            text(columns.at(86), columns.at(89)).parse::<u32>(),
        ) else {
            continue;
        };
        if let Some(slot) = by_rank.get(&start).and_then(|&i| out.get_mut(i)) {
            *slot = Some(rank);
        }
    }
    out
}

/// The same FIDE id on two player lines: one person listed twice.
pub(super) fn listed_twice(t: &Tournament) -> Vec<Finding> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut out = Vec::new();
    for (i, p) in t.players.iter().enumerate() {
        let id = p.fide_id.trim();
        if id.is_empty() || id.chars().all(|c| c == '0') {
            continue;
        }
        match seen.get(id) {
            Some(&first) => out.push(Finding {
                kind: FindingKind::Record,
                round: None,
                players: vec![t.players[first].id.clone(), p.id.clone()],
                rule_id: "TRF 001".to_string(),
                message: format!(
                    "FIDE id {id} is on the lines of players {} and {}: one person listed twice",
                    t.players[first].id, p.id
                ),
            }),
            None => {
                seen.insert(id, i);
            }
        }
    }
    out
}
