//! An audit's outputs, written once: the human table, TSV for batch jobs and JSON. The
//! library returns text and values; the CLI prints them.
use serde_json::{Value, json};

use super::{AuditReport, Unreadable};

/// One file's audit, or why it could not be audited.
#[derive(Clone, Debug)]
pub struct FileAudit {
    /// The file as given (its path) or the name a request carried.
    pub name: String,
    pub outcome: Result<AuditReport, Unreadable>,
}

/// How many files were clean, had findings, or could not be read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub files: usize,
    pub clean: usize,
    pub with_findings: usize,
    pub unreadable: usize,
}

impl Summary {
    pub fn add(&mut self, outcome: &Result<AuditReport, Unreadable>) {
        self.files += 1;
        match outcome {
            Ok(r) if r.is_clean() => self.clean += 1,
            Ok(_) => self.with_findings += 1,
            Err(_) => self.unreadable += 1,
        }
    }

    /// "3 files: 1 clean, 1 with findings, 1 unreadable".
    pub fn line(&self) -> String {
        format!(
            "{} file{}: {} clean, {} with findings, {} unreadable",
            self.files,
            if self.files == 1 { "" } else { "s" },
            self.clean,
            self.with_findings,
            self.unreadable
        )
    }

    pub fn json(&self) -> Value {
        json!({
            "files": self.files,
            "clean": self.clean,
            "with_findings": self.with_findings,
            "unreadable": self.unreadable,
        })
    }
}

/// The verdict's word: `clean`, `findings` or `unreadable`.
pub fn verdict_word(outcome: &Result<AuditReport, Unreadable>) -> &'static str {
    match outcome {
        Ok(r) if r.is_clean() => "clean",
        Ok(_) => "findings",
        Err(_) => "unreadable",
    }
}

/// One file's block of the human table: a verdict line, its findings aligned in columns,
/// then its notes.
pub fn table(file: &FileAudit) -> String {
    let r = match &file.outcome {
        Ok(r) => r,
        Err(e) => return format!("{}: unreadable: {e}\n", file.name),
    };
    let system = r.system.map_or("no system", |s| s.name());
    let mut out = format!(
        "{}: {} ({system}, {} players, {} of {} rounds re-paired, points {}, ranks {})\n",
        file.name,
        r.verdict(),
        r.players,
        r.rounds_repaired,
        r.rounds,
        if r.points_checked {
            "checked"
        } else {
            "not checked"
        },
        if r.ranks_checked {
            "checked"
        } else {
            "not checked"
        },
    );
    let rows: Vec<[String; 5]> = r
        .findings
        .iter()
        .map(|f| {
            [
                f.round.map_or("-".to_string(), |n| n.to_string()),
                f.kind.name().to_string(),
                if f.players.is_empty() {
                    "-".to_string()
                } else {
                    f.players.join(" ")
                },
                if f.rule_id.is_empty() {
                    "-".to_string()
                } else {
                    f.rule_id.clone()
                },
                f.message.clone(),
            ]
        })
        .collect();
    if !rows.is_empty() {
        let header = ["round", "kind", "players", "rule", "what"].map(String::from);
        let mut widths = [0usize; 4];
        for row in std::iter::once(&header).chain(rows.iter()) {
            for (w, cell) in widths.iter_mut().zip(row.iter()) {
                *w = (*w).max(cell.chars().count());
            }
        }
        for row in std::iter::once(&header).chain(rows.iter()) {
            let mut line = String::from(" ");
            for (w, cell) in widths.iter().zip(row.iter()) {
                line.push_str(&format!(" {cell:<w$}"));
            }
            line.push(' ');
            line.push_str(&row[4]);
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    for n in &r.notes {
        out.push_str(&format!("  note: {n}\n"));
    }
    // Title norms met: information, not findings (B.01 1.4).
    for line in r.norms.iter().flat_map(|n| n.lines()) {
        out.push_str(&format!("  norm: {line}\n"));
    }
    out
}

/// The TSV columns.
pub const TSV_HEADER: &str = "file\tverdict\tkind\tround\tplayers\trule_id\tmessage";

/// One file's TSV rows: one per finding; a clean file one row with the finding columns
/// empty; an unreadable file one row with the reason in `message`.
pub fn tsv(file: &FileAudit) -> String {
    let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    let name = clean(&file.name);
    let verdict = verdict_word(&file.outcome);
    match &file.outcome {
        Err(e) => format!("{name}\t{verdict}\t\t\t\t\t{}\n", clean(&e.0)),
        Ok(r) if r.is_clean() => format!("{name}\t{verdict}\t\t\t\t\t\n"),
        Ok(r) => r
            .findings
            .iter()
            .map(|f| {
                format!(
                    "{name}\t{verdict}\t{}\t{}\t{}\t{}\t{}\n",
                    f.kind.name(),
                    f.round.map_or(String::new(), |n| n.to_string()),
                    clean(&f.players.join(",")),
                    clean(&f.rule_id),
                    clean(&f.message)
                )
            })
            .collect(),
    }
}

/// One file's audit as JSON.
pub fn json(file: &FileAudit) -> Value {
    let verdict = verdict_word(&file.outcome);
    let r = match &file.outcome {
        Ok(r) => r,
        Err(e) => return json!({ "file": file.name, "verdict": verdict, "error": e.0 }),
    };
    let counts: serde_json::Map<String, Value> = r
        .counts()
        .into_iter()
        .map(|(k, n)| (k.name().to_string(), json!(n)))
        .collect();
    let mut out = json!({
        "file": file.name,
        "verdict": verdict,
        "counts": counts,
        "system": r.system.map(|s| s.name()),
        "rule_set": r.rule_set,
        "players": r.players,
        "rounds": r.rounds,
        "rounds_repaired": r.rounds_repaired,
        "points_checked": r.points_checked,
        "ranks_checked": r.ranks_checked,
        "tie_breaks": r.tie_breaks,
        "findings": r.findings.iter().map(|f| json!({
            "kind": f.kind.name(),
            "round": f.round,
            "players": f.players,
            "rule_id": f.rule_id,
            "message": f.message,
        })).collect::<Vec<_>>(),
        "notes": r.notes,
    });
    // Title norms met: information, not findings (B.01 1.4); absent when none.
    if let (Some(n), Some(map)) = (&r.norms, out.as_object_mut()) {
        map.insert("norms".to_string(), json!(n.lines()));
    }
    out
}
