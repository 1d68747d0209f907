//! The points column (81-84) and the rank column (86-89) of a report.
use std::collections::HashMap;

use super::read::AuditInput;
use super::{AuditOptions, AuditReport, Finding, FindingKind};
use crate::standings::{self, Edition, ListSource};
use crate::trf::TrfDocument;

/// The points column against the results under the file's scoring (`BBW`/`BBD`/…, `162`,
/// `XXS`).
pub(super) fn audit_points(doc: &TrfDocument, input: &AuditInput, report: &mut AuditReport) {
    let t = &doc.tournament;
    // What the reader assumed (the system of a 092 record, a gap in the starting ranks, a
    // bare FIDE_DUTCH without a date) is not a points finding: a note.
    report
        .notes
        .extend(doc.notes.iter().map(|n| format!("read: {n}")));
    let blank = doc.declared_points.iter().filter(|d| d.is_none()).count();
    if blank == doc.declared_points.len() {
        report
            .notes
            .push("points not checked: the points column is empty".to_string());
        return;
    }
    report.points_checked = true;
    if blank > 0 {
        report.notes.push(format!(
            "points column blank for {blank} player{}: not compared",
            if blank == 1 { "" } else { "s" }
        ));
    }
    for w in doc.points_warnings() {
        if w.code != "POINTS_COLUMN" {
            continue;
        }
        let damaged = w
            .players
            .iter()
            .any(|&p| input.damaged_players.contains(&t.pairing_number(p)));
        if damaged {
            continue;
        }
        report.findings.push(Finding {
            kind: FindingKind::Points,
            round: None,
            players: w
                .players
                .iter()
                .filter_map(|&p| t.players.get(p).map(|pl| pl.id.clone()))
                .collect(),
            rule_id: "TRF 001 81-84".to_string(),
            message: w.message,
        });
    }
}

/// The rank column against the standings from the file's own tie-break list.
pub(super) fn audit_ranks(
    doc: &TrfDocument,
    input: &AuditInput,
    options: &AuditOptions,
    report: &mut AuditReport,
) {
    let t = &doc.tournament;
    let not_checked = |report: &mut AuditReport, why: &str| {
        report.notes.push(format!("ranks not checked: {why}"));
    };
    if !input.has_rank_column {
        return not_checked(report, "the input has no rank column");
    }
    if input.declared_ranks.iter().all(Option::is_none) {
        return not_checked(report, "the rank column is empty");
    }
    if t.is_team_event() {
        return not_checked(report, "a team event's ranks are its teams'");
    }
    if input.player_removed || !input.damaged_players.is_empty() {
        return not_checked(report, "player data was set aside");
    }
    let (list, source) = match standings::resolve_tie_breaks(&[], &doc.other_lines, t.system) {
        Ok(resolved) => resolved,
        Err(e) => {
            report.findings.push(Finding {
                kind: FindingKind::Record,
                round: None,
                players: Vec::new(),
                rule_id: "TRF 212".to_string(),
                message: format!("{e}; ranks not checked"),
            });
            return;
        }
    };
    if source != ListSource::Trf {
        return not_checked(report, "the file has no tie-break list (record 212 or 202)");
    }
    let (edition, why) = match options.tie_break_edition {
        Some(e) => (e, "as asked".to_string()),
        None => edition_by_date(doc),
    };
    let standings_options = standings::Options {
        tie_breaks: list,
        source,
        edition,
        ..standings::Options::default()
    };
    let s = match crate::pairing::standings(t, &standings_options) {
        Ok(s) => s,
        Err(e) => return not_checked(report, &e.to_string()),
    };
    report.ranks_checked = true;
    report.tie_breaks = s
        .tie_breaks
        .iter()
        .map(|tb| tb.to_string())
        .collect::<Vec<_>>()
        .join(",");
    report.notes.push(format!(
        "ranks checked after round {} with {} (C.07 {} rules, {why})",
        s.after_round,
        report.tie_breaks,
        edition.year()
    ));
    // Players equal on every tie-break share a rank; the file may list them in any order
    // within the places they share.
    let mut shared: HashMap<u32, u32> = HashMap::new();
    for row in &s.rows {
        *shared.entry(row.rank).or_default() += 1;
    }
    for row in &s.rows {
        let Some(declared) = input.declared_ranks.get(row.player).copied().flatten() else {
            continue;
        };
        let tied = shared.get(&row.rank).copied().unwrap_or(1).max(1);
        let last = row.rank + tied - 1;
        if (row.rank..=last).contains(&declared) {
            continue;
        }
        let id = t
            .players
            .get(row.player)
            .map_or(String::new(), |p| p.id.clone());
        let places = if tied > 1 {
            format!("places {}-{last} (tied)", row.rank)
        } else {
            format!("place {}", row.rank)
        };
        report.findings.push(Finding {
            kind: FindingKind::Rank,
            round: None,
            players: vec![id.clone()],
            rule_id: "C.07".to_string(),
            message: format!(
                "player {id}: the rank column says {declared}, the standings give {places}"
            ),
        });
    }
}

/// The C.07 text in force for the event: the 2024 rules before 2026-03-01, else 2026; by
/// the end date (`052`), else the start date (`042`).
fn edition_by_date(doc: &TrfDocument) -> (Edition, String) {
    for code in ["052", "042"] {
        let Some(line) = doc.other_lines.iter().find(|l| l.starts_with(code)) else {
            continue;
        };
        let text = line.get(3..).unwrap_or("").trim();
        if let Some((y, m, d)) = date(text) {
            let edition = if (y, m, d) < (2026, 3, 1) {
                Edition::V2024
            } else {
                Edition::V2026
            };
            return (edition, format!("by the event's date {text}"));
        }
    }
    (Edition::V2026, "the file gives no date".to_string())
}

/// A date written `YYYY/MM/DD` (or `-`, `.`), or `DD/MM/YYYY`.
fn date(text: &str) -> Option<(u32, u32, u32)> {
    let parts: Vec<&str> = text
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .collect();
    let [a, b, c] = parts.get(..3)? else {
        return None;
    };
    let (a, b, c): (u32, u32, u32) = (a.parse().ok()?, b.parse().ok()?, c.parse().ok()?);
    if a > 1800 {
        Some((a, b, c))
    } else if c > 1800 {
        Some((c, b, a))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::date;

    #[test]
    fn dates_either_way_round() {
        assert_eq!(date("2025/05/10"), Some((2025, 5, 10)));
        assert_eq!(date("10.05.2025"), Some((2025, 5, 10)));
        assert_eq!(date("2026-03-01"), Some((2026, 3, 1)));
        assert_eq!(date("soon"), None);
    }
}
