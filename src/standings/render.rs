//! Standings as text: an aligned table, TSV in the layout of the conformance files
//! (`start_rank`, then the codes; one row per player in final order; exact decimals, empty
//! = undefined), and JSON (values as exact decimal strings).
use super::Standings;
use crate::model::Tournament;

fn cell(v: Option<super::Value>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// TSV: `start_rank`, then each code; values as exact decimals.
pub fn tsv(t: &Tournament, s: &Standings) -> String {
    let mut out = String::from("start_rank");
    for tb in &s.tie_breaks {
        out.push('\t');
        out.push_str(&tb.to_string());
    }
    out.push('\n');
    for row in &s.rows {
        out.push_str(&t.pairing_number(row.player).to_string());
        for v in &row.values {
            out.push('\t');
            out.push_str(&cell(*v));
        }
        out.push('\n');
    }
    out
}

/// An aligned text table: rank, start rank, name, rating, the tie-breaks, performance and
/// rating change.
pub fn table(t: &Tournament, s: &Standings) -> String {
    let mut header: Vec<String> = ["Rk", "SNo", "Name", "Rtg"]
        .iter()
        .map(|h| h.to_string())
        .collect();
    header.extend(s.tie_breaks.iter().map(|tb| tb.to_string()));
    header.push("Perf".to_string());
    header.push("dR".to_string());
    let mut lines: Vec<Vec<String>> = vec![header];
    let mut prev_rank = 0;
    for row in &s.rows {
        let p = &t.players[row.player];
        let mut line = vec![
            if row.rank == prev_rank {
                String::new()
            } else {
                row.rank.to_string()
            },
            t.pairing_number(row.player).to_string(),
            // A withdrawn player is marked (VCL4THP Q170).
            match row.withdrawn_from_round {
                Some(r) => format!("{} (withdrawn from round {r})", p.name),
                None => p.name.clone(),
            },
            if p.rating > 0 {
                p.rating.to_string()
            } else {
                String::new()
            },
        ];
        prev_rank = row.rank;
        line.extend(row.values.iter().map(|v| cell(*v)));
        line.push(row.performance.map(|v| v.to_string()).unwrap_or_default());
        line.push(cell(row.rating_change));
        lines.push(line);
    }
    let cols = lines[0].len();
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            lines
                .iter()
                .map(|l| l.get(c).map_or(0, |s| s.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = format!(
        "Standings after round {} (C.07 {} rules; tie-breaks from the {})\n",
        s.after_round,
        s.edition.year(),
        s.source.name()
    );
    for line in &lines {
        let mut text = String::new();
        for (c, value) in line.iter().enumerate() {
            if c > 0 {
                text.push_str("  ");
            }
            // The name is left-aligned, numbers right-aligned.
            if c == 2 {
                text.push_str(&format!("{value:<w$}", w = widths[c]));
            } else {
                text.push_str(&format!("{value:>w$}", w = widths[c]));
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    // A Scheveningen's team match (SCH-6).
    if let Some(teams) = &s.team_match {
        out.push_str(&format!(
            "Match: {} {} match points ({} game points), {} {} ({})\n",
            teams[0].0, teams[0].1, teams[0].2, teams[1].0, teams[1].1, teams[1].2
        ));
    }
    // GRC 6.6 (round-robin withdrawals): the games left out.
    for d in &s.dropped_games {
        out.push_str(&format!(
            "Not counted: round {}, {}: {}\n",
            d.round,
            match d.opponent {
                Some(q) => format!("{} against {}", t.players[d.player].id, t.players[q].id),
                None => format!("{}'s bye", t.players[d.player].id),
            },
            d.reason
        ));
    }
    out
}

/// JSON: the list used, where it came from, and one object per row.
pub fn json(t: &Tournament, s: &Standings) -> serde_json::Value {
    let codes: Vec<String> = s.tie_breaks.iter().map(|tb| tb.to_string()).collect();
    let rows: Vec<serde_json::Value> = s
        .rows
        .iter()
        .map(|row| {
            let p = &t.players[row.player];
            serde_json::json!({
                "rank": row.rank,
                "start_rank": t.pairing_number(row.player),
                "id": p.id,
                "name": p.name,
                "rating": p.rating,
                "points": row.points.to_string(),
                "values": row.values.iter().map(|v| v.map(|v| v.to_string())).collect::<Vec<_>>(),
                "performance": row.performance,
                "rating_change": row.rating_change.map(|v| v.to_string()),
                "k_factor": row.k_factor,
                "withdrawn_from_round": row.withdrawn_from_round,
            })
        })
        .collect();
    let mut out = serde_json::json!({
        "edition": s.edition.year().to_string(),
        "after_round": s.after_round,
        "tie_breaks": codes,
        "tie_break_source": s.source.name(),
        "rows": rows,
    });
    // A Scheveningen's team match (SCH-6); no key for any other event.
    if let (Some(teams), Some(map)) = (&s.team_match, out.as_object_mut()) {
        let teams: Vec<serde_json::Value> = teams
            .iter()
            .map(|(name, mp, gp)| {
                serde_json::json!({"team": name, "match_points": mp, "game_points": gp.to_string()})
            })
            .collect();
        map.insert("team_match".to_string(), serde_json::Value::Array(teams));
    }
    // GRC 6.6 (round-robin withdrawals): the games left out; no key when none is.
    if let (false, Some(map)) = (s.dropped_games.is_empty(), out.as_object_mut()) {
        let dropped: Vec<serde_json::Value> = s
            .dropped_games
            .iter()
            .map(|d| {
                serde_json::json!({
                    "round": d.round,
                    "player": t.players[d.player].id,
                    "opponent": d.opponent.map(|q| t.players[q].id.clone()),
                    "reason": d.reason,
                })
            })
            .collect();
        map.insert(
            "dropped_games".to_string(),
            serde_json::Value::Array(dropped),
        );
    }
    out
}
