//! What the commands print, written once: the engines' pair-list format, the JSON forms of
//! the responses, and the texts of the backgammon phases. Everything prints from the proto
//! responses, so a local command and `client` print the same bytes.
use std::io::Write as _;
use std::path::Path;

use swisspair::proto;

use super::CliError;

/// The engines' pair-list format: the number of pairs, then `white black` by pairing
/// number, the pairing-allocated bye as `id 0`. Without colours (backgammon) the pairs are
/// first-drawn first, and a game against [absent] is written like a PAB.
pub fn pair_list(boards: &[proto::Board], byes: &[proto::ByeAssignment]) -> String {
    let allocated: Vec<_> = byes
        .iter()
        .filter(|b| {
            b.kind == proto::ByeKind::Pab as i32 || b.kind == proto::ByeKind::AbsentOpponent as i32
        })
        .collect();
    let mut out = format!("{}\n", boards.len() + allocated.len());
    for b in boards {
        out.push_str(&format!(
            "{} {}\n",
            b.first_pairing_number, b.second_pairing_number
        ));
    }
    for b in allocated {
        out.push_str(&format!("{} 0\n", b.pairing_number));
    }
    out
}

/// A team event's pair list: the number of team pairs, then `white black` by team pairing
/// number (the team with White on board 1 first), the team PAB as `tpn 0`; then, after a
/// blank line, one line per board: `match board white black` by player pairing number.
pub fn team_pair_list(r: &proto::PairResponse) -> String {
    let mut out = format!(
        "{}\n",
        r.team_pairings.len() + usize::from(r.team_bye.is_some())
    );
    for m in &r.team_pairings {
        out.push_str(&format!(
            "{} {}\n",
            m.white_team_pairing_number, m.black_team_pairing_number
        ));
    }
    if let Some(b) = &r.team_bye {
        out.push_str(&format!("{} 0\n", b.pairing_number));
    }
    out.push('\n');
    for m in &r.team_pairings {
        for (k, b) in m.boards.iter().enumerate() {
            out.push_str(&format!(
                "{} {} {} {}\n",
                m.number,
                k + 1,
                b.white_pairing_number,
                b.black_pairing_number
            ));
        }
    }
    out
}

/// Writes to a file, or to standard output for `-`.
pub fn write_output(path: &Path, text: &str) -> Result<(), CliError> {
    if path == Path::new("-") {
        let mut out = std::io::stdout();
        out.write_all(text.as_bytes())
            .map_err(|e| CliError::File(format!("standard output: {e}")))
    } else {
        std::fs::write(path, text).map_err(|e| CliError::File(format!("{}: {e}", path.display())))
    }
}

/// The early draw as text: the number of lines, then one line per board and per game
/// against [absent], placeholders with the players they may be.
pub fn provisional_list(r: &proto::PairProvisionalResponse) -> String {
    let show = |p: &Option<proto::Placeholder>| {
        p.as_ref().map_or_else(String::new, |p| {
            if p.kind == proto::PlaceholderKind::Player as i32 {
                p.label.clone()
            } else {
                format!("{} ({})", p.label, p.candidate_ids.join(" or "))
            }
        })
    };
    let mut out = format!("{}\n", r.boards.len() + r.absent_opponent.len());
    for b in &r.boards {
        out.push_str(&format!("{} - {}\n", show(&b.first), show(&b.second)));
    }
    for a in &r.absent_opponent {
        out.push_str(&format!("{} - [absent]\n", show(&Some(a.clone()))));
    }
    out
}

/// The final phase as text: the final (or champion), then the repechage pairs and the
/// exempt player.
pub fn finals_text(r: &proto::PairFinalsResponse) -> String {
    let mut out = String::new();
    match (r.r#final.as_ref(), r.champion_id.as_str()) {
        (Some(b), _) => out.push_str(&format!("final: {} {}\n", b.first_id, b.second_id)),
        (None, "") => out.push_str("no final: nobody won every game\n"),
        (None, champion) => out.push_str(&format!("champion: {champion}\n")),
    }
    out.push_str(&format!("repechage: {}\n", r.repechage.len()));
    for b in &r.repechage {
        out.push_str(&format!("{} {}\n", b.first_id, b.second_id));
    }
    if !r.repechage_exempt_id.is_empty() {
        out.push_str(&format!("exempt: {}\n", r.repechage_exempt_id));
    }
    for w in &r.warnings {
        out.push_str(&format!("warning: {}\n", w.message));
    }
    out
}

pub fn print_systems(list: &proto::ListSystemsResponse) {
    for s in &list.systems {
        println!("{:<20} {} [{}]", s.name, s.title, s.rule_set);
        for o in &s.options {
            println!(
                "    {} ({}, default {}): {}",
                o.name, o.r#type, o.default_value, o.description
            );
        }
    }
}

fn board_json(b: &proto::Board) -> serde_json::Value {
    let mut v = serde_json::json!({
        "number": b.number,
        "first_id": b.first_id,
        "second_id": b.second_id,
        "first_pairing_number": b.first_pairing_number,
        "second_pairing_number": b.second_pairing_number,
    });
    if !b.white_id.is_empty()
        && let Some(map) = v.as_object_mut()
    {
        map.insert("white_id".into(), b.white_id.clone().into());
        map.insert("black_id".into(), b.black_id.clone().into());
        map.insert("white_pairing_number".into(), b.white_pairing_number.into());
        map.insert("black_pairing_number".into(), b.black_pairing_number.into());
    }
    v
}

fn explanation_json(e: Option<&proto::Explanation>) -> serde_json::Value {
    serde_json::json!(e.map(|e| {
        e.groups
            .iter()
            .map(|g| {
                serde_json::json!({
                    "label": g.label,
                    "steps": g.steps.iter().map(|s| serde_json::json!({
                        "rule_id": s.rule_id,
                        "message": s.message,
                        "player_ids": s.player_ids,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect::<Vec<_>>()
    }))
}

fn warnings_json(warnings: &[proto::Warning]) -> serde_json::Value {
    serde_json::json!(
        warnings
            .iter()
            .map(|w| serde_json::json!({
                "code": w.code,
                "rule_id": w.rule_id,
                "message": w.message,
                "player_ids": w.player_ids,
            }))
            .collect::<Vec<_>>()
    )
}

fn placeholder_json(p: &proto::Placeholder) -> serde_json::Value {
    serde_json::json!({
        "kind": proto::PlaceholderKind::try_from(p.kind).map_or("UNKNOWN", |k| k.as_str_name()),
        "round1_board": p.round1_board,
        "candidate_ids": p.candidate_ids,
        "label": p.label,
    })
}

fn pretty(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

pub fn provisional_json(r: &proto::PairProvisionalResponse) -> String {
    pretty(&serde_json::json!({
        "round": r.round,
        "system": proto::PairingSystem::Backgammon.as_str_name(),
        "rule_set": r.rule_set,
        "engine_version": r.engine_version,
        "total_rounds": r.total_rounds,
        "match_length": r.match_length,
        "seed": r.seed,
        "boards": r.boards.iter().map(|b| serde_json::json!({
            "number": b.number,
            "first": b.first.as_ref().map(placeholder_json),
            "second": b.second.as_ref().map(placeholder_json),
        })).collect::<Vec<_>>(),
        "absent_opponent": r.absent_opponent.iter().map(placeholder_json).collect::<Vec<_>>(),
        "explanation": explanation_json(r.explanation.as_ref()),
        "warnings": warnings_json(&r.warnings),
    }))
}

pub fn finals_json(r: &proto::PairFinalsResponse) -> String {
    pretty(&serde_json::json!({
        "outcome": proto::FinalOutcome::try_from(r.outcome).map_or("UNKNOWN", |k| k.as_str_name()),
        "final": r.r#final.as_ref().map(board_json),
        "champion_id": r.champion_id,
        "repechage_player_ids": r.repechage_player_ids,
        "repechage": r.repechage.iter().map(board_json).collect::<Vec<_>>(),
        "repechage_exempt_id": r.repechage_exempt_id,
        "regular_rounds": r.regular_rounds,
        "match_length": r.match_length,
        "rule_set": r.rule_set,
        "engine_version": r.engine_version,
        "explanation": explanation_json(r.explanation.as_ref()),
        "warnings": warnings_json(&r.warnings),
    }))
}

/// A pair response as JSON, with enum values by name.
pub fn response_json(r: &proto::PairResponse) -> String {
    let enum_name = |v: i32| proto::ByeKind::try_from(v).map_or("UNKNOWN", |k| k.as_str_name());
    let mut v = serde_json::json!({
        "round": r.round,
        "system": proto::PairingSystem::try_from(r.system).map_or("UNKNOWN", |s| s.as_str_name()),
        "rule_set": r.rule_set,
        "engine_version": r.engine_version,
        "total_rounds": r.total_rounds,
        "match_length": r.match_length,
        "boards": r.boards.iter().map(board_json).collect::<Vec<_>>(),
        "byes": r.byes.iter().map(|b| serde_json::json!({
            "player_id": b.player_id,
            "kind": enum_name(b.kind),
            "points": b.points,
            "pairing_number": b.pairing_number,
        })).collect::<Vec<_>>(),
        "explanation": explanation_json(r.explanation.as_ref()),
        "warnings": warnings_json(&r.warnings),
        "team_pairings": r.team_pairings.iter().map(|m| serde_json::json!({
            "number": m.number,
            "white_team_id": m.white_team_id,
            "black_team_id": m.black_team_id,
            "white_team_pairing_number": m.white_team_pairing_number,
            "black_team_pairing_number": m.black_team_pairing_number,
            "colour_rule": m.colour_rule,
            "boards": m.boards.iter().map(board_json).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "team_bye": r.team_bye.as_ref().map(|b| serde_json::json!({
            "team_id": b.team_id,
            "pairing_number": b.pairing_number,
            "match_points": b.match_points,
            "game_points": b.game_points,
        })),
    });
    // Double-Swiss (C.04.5): the whole match, both games.
    if let (Some(m), Some(map)) = (&r.double_swiss, v.as_object_mut()) {
        map.insert(
            "double_swiss".into(),
            serde_json::json!({
                "match": m.r#match,
                "game": m.game,
                "game1_round": m.game1_round,
                "game2_round": m.game2_round,
                "game1_boards": m.game1_boards.iter().map(board_json).collect::<Vec<_>>(),
                "game2_boards": m.game2_boards.iter().map(board_json).collect::<Vec<_>>(),
            }),
        );
    }
    pretty(&v)
}

/// The answer of `why` (Explain): the verdict and its rule, the criterion's values on each
/// side or the rules broken, then the system's pairing and the alternative as pair lists.
pub fn why_text(r: &proto::ExplainResponse) -> String {
    let verdict = proto::ExplainVerdict::try_from(r.verdict).map_or("unknown", |v| match v {
        proto::ExplainVerdict::AlreadySo => "already so",
        proto::ExplainVerdict::Impossible => "impossible",
        proto::ExplainVerdict::Worse => "worse",
        proto::ExplainVerdict::Tie => "equally good",
        proto::ExplainVerdict::Procedure => "procedure",
        proto::ExplainVerdict::Better => "better (engine fault)",
        proto::ExplainVerdict::Unspecified => "unknown",
    });
    let mut out = format!("round {} ({})\n", r.round, r.rule_set);
    if r.rule_id.is_empty() {
        out.push_str(&format!("{verdict}\n"));
    } else {
        out.push_str(&format!("{verdict}: {}\n", r.rule_id));
    }
    out.push_str(&format!("{}\n", r.message));
    for v in &r.violations {
        out.push_str(&format!("violation {}: {}\n", v.rule_id, v.message));
    }
    if let Some(d) = &r.difference {
        let bracket = d
            .bracket_score
            .map_or_else(String::new, |s| format!(" in the {s:.1}-point bracket"));
        out.push_str(&format!(
            "criterion {}{bracket}: {}\n  answer:      {}\n  alternative: {}\n",
            d.rule_id, d.criterion, d.answer_value, d.alternative_value
        ));
    }
    // A team event (C.04.6): the team pairs by team pairing number, as `pair -p` lists them.
    let teams = |pairings: &[proto::TeamPairing], bye: &Option<proto::TeamBye>| {
        let mut out = format!("{}\n", pairings.len() + usize::from(bye.is_some()));
        for m in pairings {
            out.push_str(&format!(
                "{} {}\n",
                m.white_team_pairing_number, m.black_team_pairing_number
            ));
        }
        if let Some(b) = bye {
            out.push_str(&format!("{} 0\n", b.pairing_number));
        }
        out
    };
    out.push_str("answer:\n");
    if r.team_pairings.is_empty() && r.team_bye.is_none() {
        out.push_str(&pair_list(&r.boards, &r.byes));
    } else {
        out.push_str(&teams(&r.team_pairings, &r.team_bye));
    }
    if r.has_alternative {
        out.push_str("alternative:\n");
        if r.alternative_team_pairings.is_empty() && r.alternative_team_bye.is_none() {
            out.push_str(&pair_list(&r.alternative_boards, &r.alternative_byes));
        } else {
            out.push_str(&teams(
                &r.alternative_team_pairings,
                &r.alternative_team_bye,
            ));
        }
    }
    out
}
