//! The TRF for a FIDE rating report: the `001` lines' points (columns 81-84) and rank
//! (86-89) filled from the standings, and the tie-break list in a `202` record (TRF-26).
use super::{Kind, Standings};
use crate::trf::{self, Dialect, TrfDocument, WriteError};

/// The tie-break list as a `202` record (MTB26 codes after PTS, comma-separated; a
/// system's own ranking, KZ-6, is the system's and is not written).
pub fn record_202(s: &Standings) -> String {
    let codes: Vec<String> = s
        .tie_breaks
        .iter()
        .filter(|tb| !matches!(tb.kind, Kind::Pts | Kind::Own))
        .map(|tb| tb.to_string())
        .collect();
    format!("202 {}", codes.join(","))
}

/// Writes the document as TRF-26 with the standings' points and ranks in the `001` lines
/// and its tie-break list as record `202` (replacing any `202`/`212` read).
pub fn trf_with_standings(
    doc: &TrfDocument,
    s: &Standings,
    codes: &dyn trf::SystemCodes,
) -> Result<String, WriteError> {
    let mut doc = doc.clone();
    doc.other_lines
        .retain(|l| !(l.starts_with("202") || l.starts_with("212")));
    let text = trf::write(&doc, Dialect::Trf26, codes)?;
    let t = &doc.tournament;
    let mut by_rank = std::collections::HashMap::new();
    for row in &s.rows {
        by_rank.insert(t.pairing_number(row.player), row);
    }
    let mut out = String::with_capacity(text.len() + 64);
    let mut wrote_202 = false;
    // Above 9,999 players the ids are wider (`XXW <digits>`) and the columns move with them.
    let columns = trf::PlayerColumns {
        width: trf::id_width(text.lines()),
    };
    let (points_at, rank_at) = (columns.at(81) - 1, columns.at(86) - 1);
    for line in text.lines() {
        if line.starts_with("001") {
            let mut chars: Vec<char> = line.chars().collect();
            if chars.len() < columns.first_round() - 1 {
                chars.resize(columns.first_round() - 1, ' ');
            }
            let start: String = chars[4..columns.rank_end()].iter().collect();
            if let Some(row) = start
                .trim()
                .parse::<u32>()
                .ok()
                .and_then(|r| by_rank.get(&r))
            {
                let points = format!("{:>4}", row.points.to_string());
                // The rank column has 4 digits, whatever the width of ids: a place beyond
                // 9,999 is left blank (as the writer does).
                let rank = if row.rank <= 9999 {
                    format!("{:>4}", row.rank)
                } else {
                    " ".repeat(4)
                };
                for (i, c) in points.chars().take(4).enumerate() {
                    chars[points_at + i] = c;
                }
                for (i, c) in rank.chars().take(4).enumerate() {
                    chars[rank_at + i] = c;
                }
            }
            let text: String = chars.into_iter().collect();
            if !wrote_202 {
                out.push_str(&record_202(s));
                out.push('\n');
                wrote_202 = true;
            }
            out.push_str(text.trim_end());
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    if !wrote_202 {
        out.push_str(&record_202(s));
        out.push('\n');
    }
    Ok(out)
}

/// The tournament's year from the TRF's end date (`052`) or start date (`042`), for the
/// under-18 K factor.
pub fn tournament_year(doc: &TrfDocument) -> Option<u32> {
    ["052", "042"].iter().find_map(|code| {
        doc.other_lines
            .iter()
            .find(|l| l.starts_with(code))
            .and_then(|l| {
                let digits: String = l.get(3..).unwrap_or("").trim().chars().take(4).collect();
                digits.parse().ok().filter(|y| *y > 1800)
            })
    })
}

/// A TRF date written `YYYY/MM/DD` (or with `-`, `.`), or `DD/MM/YYYY`.
pub fn parse_date(text: &str) -> Option<super::fide_rating::Date> {
    let parts: Vec<u32> = text
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .take(3)
        .map(|p| p.parse().ok())
        .collect::<Option<Vec<u32>>>()?;
    let [a, b, c] = parts[..] else {
        return None;
    };
    let (y, m, d) = if a > 1800 {
        (a, b, c)
    } else if c > 1800 {
        (c, b, a)
    } else {
        return None;
    };
    ((1..=12).contains(&m) && (1..=31).contains(&d)).then_some((y, m, d))
}

/// The event's start (`042`) and end (`052`) dates as the file gives them.
pub fn event_dates(
    doc: &TrfDocument,
) -> (
    Option<super::fide_rating::Date>,
    Option<super::fide_rating::Date>,
) {
    let find = |code: &str| {
        doc.other_lines
            .iter()
            .find(|l| l.starts_with(code))
            .and_then(|l| parse_date(l.get(3..).unwrap_or("")))
    };
    (find("042"), find("052"))
}

/// The B.02 text in force for the file's event: by its end date (`052`), else its start
/// date (`042`); the text in force now when it gives neither.
pub fn rating_rules(doc: &TrfDocument) -> super::fide_rating::RatingRules {
    let (start, end) = event_dates(doc);
    super::fide_rating::rules_for_dates(end, start)
}

/// The host federation (`032`) as the file gives it.
pub fn host_federation(doc: &TrfDocument) -> Option<String> {
    doc.other_lines
        .iter()
        .find(|l| l.starts_with("032"))
        .map(|l| l.get(3..).unwrap_or("").trim().to_string())
        .filter(|f| !f.is_empty())
}

/// A record's value as the file writes it (`042`, `052`): empty when absent.
pub fn record_text(doc: &TrfDocument, code: &str) -> String {
    doc.other_lines
        .iter()
        .find(|l| l.starts_with(code))
        .map(|l| l.get(3..).unwrap_or("").trim().to_string())
        .unwrap_or_default()
}
