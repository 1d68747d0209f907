//! The audit (`swisspair::audit`, `swisspair audit`): one verdict per report, on the files of
//! `tests/data/audit/` (`tests/data/README.md` says how each was made from `dutch-0001.trf`):
//! a clean report, a wrong points column, a wrong rank column, a round paired wrongly, and a
//! record the strict reader refuses.
mod common;

use std::path::PathBuf;

use common::swisspair;
use swisspair::audit::{self, AuditOptions, AuditReport, FindingKind};
use swisspair::model::SystemId;

fn fixture(name: &str) -> PathBuf {
    common::data_dir().join("audit").join(name)
}

fn path(name: &str) -> String {
    fixture(name).display().to_string()
}

fn audited(name: &str) -> AuditReport {
    let text = std::fs::read_to_string(fixture(name)).expect("fixture");
    let options = AuditOptions {
        system: Some(SystemId::Dutch),
        ..AuditOptions::default()
    };
    audit::audit_text(&text, &options).expect("readable")
}

fn kinds(r: &AuditReport) -> Vec<FindingKind> {
    let mut k: Vec<FindingKind> = r.findings.iter().map(|f| f.kind).collect();
    k.dedup();
    k
}

#[test]
fn a_clean_report_is_clean_and_every_part_was_checked() {
    let r = audited("clean.trf");
    assert!(r.is_clean(), "{:#?}", r.findings);
    assert_eq!(r.verdict(), "clean");
    assert_eq!((r.rounds, r.rounds_repaired), (5, 5));
    assert!(r.points_checked && r.ranks_checked, "{:?}", r.notes);
    assert_eq!(r.tie_breaks, "PTS,BH/C1,BH,SB,DE");
    assert_eq!(r.system, Some(SystemId::Dutch));
}

#[test]
fn a_wrong_points_column_is_one_points_finding() {
    let r = audited("wrong-points.trf");
    assert_eq!(kinds(&r), vec![FindingKind::Points], "{:#?}", r.findings);
    let f = &r.findings[0];
    assert_eq!(f.players, vec!["5"]);
    assert_eq!(f.rule_id, "TRF 001 81-84");
    assert!(f.message.contains("3.5"), "{}", f.message);
    assert_eq!(r.verdict(), "1 finding: points 1");
}

#[test]
fn a_wrong_rank_column_names_both_players() {
    let r = audited("wrong-rank.trf");
    assert_eq!(kinds(&r), vec![FindingKind::Rank], "{:#?}", r.findings);
    let players: Vec<&str> = r.findings.iter().map(|f| f.players[0].as_str()).collect();
    assert_eq!(players, vec!["1", "2"]);
    assert!(r.findings.iter().all(|f| f.rule_id == "C.07"));
}

#[test]
fn a_round_paired_wrongly_is_found_in_that_round() {
    // Round 5: 1-3 and 2-8 recorded as 1-8 and 2-3.
    let r = audited("wrong-pairing.trf");
    let pairs: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.kind == FindingKind::Pairs)
        .collect();
    assert_eq!(pairs.len(), 4, "{:#?}", r.findings);
    assert!(pairs.iter().all(|f| f.round == Some(5)));
    assert!(pairs.iter().all(|f| f.rule_id.starts_with("C.04.3")));
    let mut named: Vec<&str> = pairs
        .iter()
        .flat_map(|f| f.players.iter().map(String::as_str))
        .collect();
    named.sort_unstable();
    named.dedup();
    assert_eq!(named, vec!["1", "2", "3", "8"]);
    // Rounds 1-4 are as the system pairs them.
    assert!(
        r.findings
            .iter()
            .all(|f| f.round.is_none_or(|round| round == 5))
    );
}

#[test]
fn what_the_reader_refuses_becomes_findings_and_the_rest_is_checked() {
    // Player 5's round 3 names 14, who does not name him back; record 142 says 4 rounds.
    let r = audited("bad-record.trf");
    let record: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.kind == FindingKind::Record)
        .collect();
    assert_eq!(record.len(), 2, "{:#?}", r.findings);
    assert!(record.iter().all(|f| f.round == Some(3)));
    assert!(r.findings.iter().any(|f| f.kind == FindingKind::Rounds));
    // Rounds 1-2 re-paired and clean; 3-5 not re-paired, said once.
    assert_eq!(r.rounds_repaired, 2);
    assert!(
        r.findings
            .iter()
            .any(|f| f.kind == FindingKind::NotRepaired && f.message.contains("rounds 3 to 5"))
    );
    // The points of the players not concerned are still compared; ranks are not checked.
    assert!(r.points_checked);
    assert!(!r.ranks_checked);
    assert!(!r.findings.iter().any(|f| f.kind == FindingKind::Points));
}

#[test]
fn without_a_tie_break_list_the_ranks_are_not_checked_and_the_audit_says_so() {
    let text = std::fs::read_to_string(common::conformance_dir("dutch").join("dutch-0001.trf"))
        .expect("corpus");
    let options = AuditOptions {
        system: Some(SystemId::Dutch),
        ..AuditOptions::default()
    };
    let r = audit::audit_text(&text, &options).expect("readable");
    assert!(r.is_clean(), "{:#?}", r.findings);
    assert!(!r.ranks_checked);
    assert!(
        r.notes
            .iter()
            .any(|n| n.contains("ranks not checked") && n.contains("212")),
        "{:?}",
        r.notes
    );
}

#[test]
fn without_a_system_the_rounds_are_not_re_paired_and_that_is_a_finding() {
    let with_092 = std::fs::read_to_string(fixture("clean.trf")).expect("fixture");
    // `092 FIDE_DUTCH_2025` (bbpPairings' generator writes the code there) names the
    // system when no 192 does (issue 35): the file is re-paired and clean.
    let r = audit::audit_text(&with_092, &AuditOptions::default()).expect("readable");
    assert!(r.is_clean(), "{:#?}", r.findings);
    assert_eq!(r.rounds_repaired, 5);
    // Without it, no record names the system.
    let text = with_092.replace("092 FIDE_DUTCH_2025\n", "");
    assert_ne!(text, with_092);
    let r = audit::audit_text(&text, &AuditOptions::default()).expect("readable");
    assert_eq!(
        kinds(&r),
        vec![FindingKind::NotRepaired],
        "{:#?}",
        r.findings
    );
    assert_eq!(r.findings[0].rule_id, "TRF 192");
    assert_eq!(r.rounds_repaired, 0);
}

#[test]
fn a_duplicated_player_line_is_a_finding_not_a_refusal() {
    let text = std::fs::read_to_string(fixture("clean.trf")).expect("fixture");
    let line = text
        .lines()
        .find(|l| l.starts_with("001    7"))
        .expect("player 7");
    let twice = text.replacen(line, &format!("{line}\n{line}"), 1);
    let options = AuditOptions {
        system: Some(SystemId::Dutch),
        ..AuditOptions::default()
    };
    let r = audit::audit_text(&twice, &options).expect("readable");
    assert!(
        r.findings
            .iter()
            .any(|f| f.kind == FindingKind::Record && f.message.contains("starting rank 7")),
        "{:#?}",
        r.findings
    );
    // The second line is set aside; the first stays, so the event reads as it was.
    assert_eq!(r.players, 25);
    // Nothing else was in doubt: the points are still compared and clean.
    assert!(r.points_checked);
    assert!(!r.findings.iter().any(|f| f.kind == FindingKind::Points));
}

#[test]
fn text_that_is_no_report_is_unreadable() {
    assert!(audit::audit_text("hello\n", &AuditOptions::default()).is_err());
    assert!(audit::audit_text("", &AuditOptions::default()).is_err());
}

// The command line.

#[test]
fn cli_audits_many_files_with_a_summary_and_the_exit_code() {
    let (code, out, err) = swisspair(&["audit", "--dutch", &path("clean.trf")]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("clean.trf: clean"), "{out}");
    assert_eq!(
        out.lines().last(),
        Some("1 file: 1 clean, 0 with findings, 0 unreadable")
    );
    // On a pipe, no progress on stderr.
    assert!(err.is_empty(), "{err}");

    let files = [
        "clean.trf",
        "wrong-points.trf",
        "wrong-rank.trf",
        "wrong-pairing.trf",
    ];
    let mut args = vec!["audit".to_string(), "--dutch".to_string()];
    args.extend(["--jobs".to_string(), "3".to_string()]);
    args.extend(files.iter().map(|f| path(f)));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = swisspair(&args);
    assert_eq!(code, 1, "{err}");
    // In the order given, whatever finished first.
    let verdicts: Vec<&str> = out.lines().filter(|l| l.contains(".trf: ")).collect();
    assert_eq!(verdicts.len(), 4, "{out}");
    for (line, file) in verdicts.iter().zip(files) {
        assert!(line.contains(file), "{line} / {file}");
    }
    assert!(verdicts[1].contains("1 finding: points 1"), "{out}");
    assert!(verdicts[2].contains("rank 2"), "{out}");
    assert!(verdicts[3].contains("pairs 4"), "{out}");
    assert_eq!(
        out.lines().last(),
        Some("4 files: 1 clean, 3 with findings, 0 unreadable")
    );
}

#[test]
fn cli_tsv_and_json_for_batch_jobs() {
    let (code, out, err) = swisspair(&[
        "audit",
        "--dutch",
        "--format",
        "tsv",
        &path("clean.trf"),
        &path("wrong-points.trf"),
    ]);
    assert_eq!(code, 1, "{err}");
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(
        rows[0],
        vec![
            "file", "verdict", "kind", "round", "players", "rule_id", "message"
        ]
    );
    assert_eq!(rows[1][1], "clean");
    assert_eq!(
        &rows[2][1..6],
        &["findings", "points", "", "5", "TRF 001 81-84"]
    );
    assert!(rows.iter().all(|r| r.len() == 7), "{out}");
    // The summary goes to stderr, so that stdout stays one table.
    assert!(err.contains("2 files: 1 clean, 1 with findings"), "{err}");

    let (code, out, _) = swisspair(&["audit", "--dutch", "--json", &path("wrong-rank.trf")]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let file = &v["files"][0];
    assert_eq!(file["verdict"], "findings");
    assert_eq!(file["counts"]["rank"], 2);
    assert_eq!(file["findings"][0]["kind"], "rank");
    assert_eq!(file["findings"][0]["players"][0], "1");
    assert_eq!(file["ranks_checked"], true);
    assert_eq!(v["summary"]["with_findings"], 1);
}

#[test]
fn cli_an_unreadable_input_exits_3_and_the_others_are_still_audited() {
    let dir = std::env::temp_dir().join(format!("swisspair-audit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let junk = dir.join("junk.trf");
    std::fs::write(&junk, "not a report\n").expect("write");
    std::fs::copy(fixture("clean.trf"), dir.join("clean.trf")).expect("copy");
    let missing = dir.join("missing.trf");
    // A directory stands for its .trf files.
    let (code, out, _) = swisspair(&[
        "audit",
        "--dutch",
        dir.to_str().expect("path"),
        missing.to_str().expect("path"),
    ]);
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("clean.trf: clean"), "{out}");
    assert!(out.contains("junk.trf: unreadable"), "{out}");
    assert!(out.contains("missing.trf: unreadable"), "{out}");
    assert_eq!(
        out.lines().last(),
        Some("3 files: 1 clean, 0 with findings, 2 unreadable")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cli_refuses_bad_flags_as_invalid_input() {
    let (code, _, err) = swisspair(&["audit", "--system", "nonsense", &path("clean.trf")]);
    assert_eq!(code, 3, "{err}");
    let (code, _, err) = swisspair(&[
        "audit",
        "--dutch",
        "--tiebreak-edition",
        "1999",
        &path("clean.trf"),
    ]);
    assert_eq!(code, 3, "{err}");
}

/// A file of wider player ids (`XXW 5`, bbpPairings' fork for lichess): the audit reads each
/// player's starting rank and rank column where that layout puts them (shifted right by the
/// extra digit).
#[test]
fn wide_player_ids_keep_their_rank_column() {
    use swisspair::model::{Game, GameResult, Player, Round, Tournament};
    let players = (0..2)
        .map(|i| Player {
            id: format!("{}", 10_000 + i),
            name: format!("Player {i}"),
            pairing_number: Some(10_000 + i),
            ..Player::default()
        })
        .collect();
    let t = Tournament {
        system: Some(SystemId::Dutch),
        total_rounds: 1,
        players,
        rounds: vec![Round {
            games: vec![Game {
                white: 0,
                black: 1,
                result: GameResult::WhiteWins,
                board: None,
            }],
            ..Round::default()
        }],
        ..Tournament::default()
    };
    let doc = swisspair::trf::TrfDocument {
        tournament: t,
        ..Default::default()
    };
    let text = swisspair::pairing::write_trf(&doc, swisspair::trf::Dialect::Trf26).expect("writes");
    assert!(text.contains("XXW 5"), "{text}");
    let input = audit::read(&text).expect("reads");
    assert_eq!(input.declared_ranks, vec![Some(1), Some(2)], "{text}");
}
