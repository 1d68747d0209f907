//! Other programs' files, as issue 35 lists them (`tests/data/peer/`, copied from the shared
//! peer suites with their SOURCES.md): the edition or profile a report was really paired
//! with (AU-2, `docs/audit.md`), and what real software writes (`docs/formats.md`: `092`
//! holding a record 192 code, `013` in an individual event, `TNR`, `XXC rank`, a gap in the
//! starting ranks, the points column in `check`).
mod common;

use common::post_json;

use std::path::PathBuf;

use common::server::Server;
use swisspair::audit::{self, AuditOptions, FindingKind};
use swisspair::check::{self, CheckOptions};
use swisspair::model::{Colour, SystemId};
use swisspair::pairing;
use swisspair::proto;
use swisspair::service::ServerConfig;
use swisspair::systems::{PairError, PairOptions};

fn peer(path: &str) -> PathBuf {
    common::data_dir().join("peer").join(path)
}

fn text(path: &str) -> String {
    std::fs::read_to_string(peer(path)).expect("peer file")
}

/// Budapest Spring Festival 2026, group A, before round 9 (rounds 1-8 recorded): a March
/// 2026 event, so the 2026 edition is in force (C.04.3 2026, from 1 February 2026; the
/// file has no date and a bare Dutch check assumes 2026), but its round 8 was paired by
/// the 2017 rules (the peer suite's README).
const BUDAPEST: &str = "chess-results/budapest_spring_festival_2026_group_a_2200_r09.trf";
/// bbpPairings 6 `--burstein`'s rounds 1-2 of a 6-player event (chesspairing's golden
/// files): the BBP profile's pairings, not the 2026 text's.
const BURSTEIN_BBP: &str = "chesspairing/burstein-6-players-round-3.trf";

fn dutch_audit() -> AuditOptions {
    AuditOptions {
        system: Some(SystemId::Dutch),
        ..AuditOptions::default()
    }
}

#[test]
fn a_2026_event_paired_by_the_2017_rules_is_an_edition_finding() {
    let report = audit::audit_text(&text(BUDAPEST), &dutch_audit()).expect("reads");
    assert_eq!(report.rounds_repaired, 8);
    // Rounds 1-7 are the 2026 edition's pairings; round 8 only the 2017 edition's: one
    // finding of its own kind, not its pairs and bye.
    assert_eq!(report.findings.len(), 1, "{:#?}", report.findings);
    let f = &report.findings[0];
    assert_eq!(f.kind, FindingKind::Edition);
    assert_eq!(f.round, Some(8));
    assert_eq!(f.rule_id, "C.04.3");
    assert!(
        f.message.starts_with("round 8 follows the 2017 edition"),
        "{}",
        f.message
    );
    assert_eq!(report.verdict(), "1 finding: edition 1");

    // Audited under the 2017 edition, every round matches: rounds 1-7 do not tell the
    // editions apart, round 8 is the 2017 edition's.
    let mut options = dutch_audit();
    options.options.set("edition", "2017").expect("an option");
    let report = audit::audit_text(&text(BUDAPEST), &options).expect("reads");
    assert!(report.is_clean(), "{:#?}", report.findings);
}

#[test]
fn a_burstein_report_of_the_other_profile_is_an_edition_finding() {
    let options = AuditOptions {
        system: Some(SystemId::Burstein),
        ..AuditOptions::default()
    };
    let report = audit::audit_text(&text(BURSTEIN_BBP), &options).expect("reads");
    let rounds: Vec<(FindingKind, Option<u32>)> =
        report.findings.iter().map(|f| (f.kind, f.round)).collect();
    assert_eq!(
        rounds,
        vec![
            (FindingKind::Edition, Some(1)),
            (FindingKind::Edition, Some(2))
        ]
    );
    assert!(
        report
            .findings
            .iter()
            .all(|f| f.rule_id == "C.04.4.2" && f.message.contains("follows profile BBP"))
    );
    let mut bbp = options.clone();
    bbp.options.set("profile", "BBP").expect("an option");
    assert!(
        audit::audit_text(&text(BURSTEIN_BBP), &bbp)
            .expect("reads")
            .is_clean()
    );
}

#[test]
fn check_says_which_reading_a_differing_round_follows_only_when_asked() {
    let t = pairing::read_trf(&text(BUDAPEST))
        .expect("reads")
        .tournament;
    let mut options = CheckOptions {
        system: Some(SystemId::Dutch),
        ..CheckOptions::default()
    };
    let plain = check::run(&t, &options).expect("checks").report;
    assert_eq!((plain.passed(), plain.failed()), (7, 1));
    assert!(plain.rounds.iter().all(|r| r.follows.is_none()));
    options.other_readings = true;
    let asked = check::run(&t, &options).expect("checks").report;
    // The counts are the edition's applied: round 8 still fails under 2026.
    assert_eq!((asked.passed(), asked.failed()), (7, 1));
    let follows: Vec<(u32, &str, &str)> = asked
        .rounds
        .iter()
        .filter_map(|r| r.follows.map(|f| (r.round, f.other, f.value)))
        .collect();
    assert_eq!(follows, vec![(8, "the 2017 edition", "2017")]);
}

#[test]
fn the_cli_audit_and_check_name_the_edition() {
    let file = peer(BUDAPEST);
    let path = file.to_str().expect("utf-8 path");
    let (code, out, _) = common::swisspair(&["audit", "--dutch", path]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("1 finding: edition 1"), "{out}");
    assert!(out.contains("round 8 follows the 2017 edition"), "{out}");
    let (code, out, _) = common::swisspair(&["audit", "--dutch", "--format", "tsv", path]);
    assert_eq!(code, 1);
    assert!(out.contains("\tedition\t8\t"), "{out}");

    let (code, out, _) = common::swisspair(&["check", "--dutch", "--other-readings", path]);
    assert_eq!(code, 1);
    assert!(
        out.contains(
            "  follows the 2017 edition: re-paired with edition=2017 it matches the record"
        ),
        "{out}"
    );
    assert!(out.ends_with("7 passed, 1 failed\n"), "{out}");
    // Without the flag, check's output is as before.
    let (_, out, _) = common::swisspair(&["check", "--dutch", path]);
    assert!(!out.contains("follows"), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn audit_check_and_the_stream_name_the_edition_over_grpc_and_json() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let request = proto::AuditRequest {
        name: "budapest".to_string(),
        input: Some(proto::audit_request::Input::Trf(text(BUDAPEST))),
        system: proto::PairingSystem::Dutch as i32,
        ..proto::AuditRequest::default()
    };
    let answer = client
        .audit(request.clone())
        .await
        .expect("audited")
        .into_inner();
    assert_eq!(answer.findings.len(), 1, "{answer:#?}");
    let f = &answer.findings[0];
    assert_eq!(f.kind(), proto::AuditFindingKind::Edition);
    assert_eq!((f.round, f.rule_id.as_str()), (8, "C.04.3"));
    assert_eq!(answer.counts.get("edition"), Some(&1));

    // The stream gives the same verdict.
    let stream = tokio_stream::iter(vec![proto::AuditStreamRequest {
        file: Some(request.clone()),
    }]);
    let mut verdicts = client
        .audit_stream(stream)
        .await
        .expect("a stream")
        .into_inner();
    let first = verdicts
        .message()
        .await
        .expect("a message")
        .expect("one verdict");
    let streamed = first.file.expect("a verdict");
    assert_eq!(streamed.findings, answer.findings);

    // Check, asked for the other readings.
    let check = client
        .check(proto::CheckRequest {
            input: Some(proto::check_request::Input::Trf(text(BUDAPEST))),
            system: proto::PairingSystem::Dutch as i32,
            other_readings: true,
            ..proto::CheckRequest::default()
        })
        .await
        .expect("checked")
        .into_inner();
    let round8 = &check.rounds[7];
    assert_eq!(round8.round, 8);
    assert!(!round8.matches);
    assert_eq!(
        (round8.follows.as_str(), round8.follows_option.as_str()),
        ("the 2017 edition", "edition=2017")
    );
    assert!(check.rounds[..7].iter().all(|r| r.follows.is_empty()));

    // JSON (Connect): the same audit.
    let addr = server.addr.trim_start_matches("http://").to_string();
    let body = serde_json::json!({
        "name": "budapest",
        "trf": text(BUDAPEST),
        "system": "PAIRING_SYSTEM_DUTCH",
    });
    let (status, json) = post_json(&addr, "Audit", &body);
    assert_eq!(status, 200, "{json}");
    assert_eq!(json["findings"][0]["kind"], "AUDIT_FINDING_KIND_EDITION");
    assert_eq!(json["findings"][0]["round"], 8);
    let (status, json) = post_json(
        &addr,
        "Check",
        &serde_json::json!({
            "trf": text(BUDAPEST),
            "system": "PAIRING_SYSTEM_DUTCH",
            "otherReadings": true,
        }),
    );
    assert_eq!(status, 200, "{json}");
    assert_eq!(json["rounds"][7]["follows"], "the 2017 edition");
    server.stop().await;
}

/// chesspairing writes the record 192 code into `092` (`092 FIDE_DUTCH_2025`, no `192`):
/// taken as the system, so the round pairs without `--dutch` as bbpPairings 6 paired it
/// (its answer in the `.json`, sorted "white black" strings).
#[test]
fn a_system_code_in_092_is_the_system() {
    let doc = pairing::read_trf(&text("chesspairing/20010-r2.trf")).expect("reads");
    assert_eq!(doc.tournament.system, Some(SystemId::Dutch));
    let answer = pairing::pair(&doc.tournament, &PairOptions::default()).expect("pairs");
    let id = |p: usize| doc.tournament.players[p].id.clone();
    let mut got: Vec<String> = answer
        .pairing
        .boards
        .iter()
        .map(|b| format!("{} {}", id(b.white), id(b.black)))
        .collect();
    got.sort();
    let expected: serde_json::Value =
        serde_json::from_str(&text("chesspairing/20010-r2.json")).expect("JSON");
    let mut want: Vec<String> = expected["bbp"]
        .as_array()
        .expect("bbp")
        .iter()
        .map(|v| v.as_str().expect("a pair").to_string())
        .collect();
    want.sort();
    assert_eq!(got, want);
    // The free text of 092 stays free text.
    let plain = "092 Individual: Swiss-System\nXXR 3\n001    1      A                                 2000                             0.0    1\n001    2      B                                 1900                             0.0    2\n";
    let doc = pairing::read_trf(plain).expect("reads");
    assert_eq!(doc.tournament.system, None);
    // A 192 wins over 092.
    let both = format!("192 FIDE_BURSTEIN\n092 FIDE_DUTCH_2025\n{}", &plain[29..]);
    let doc = pairing::read_trf(&both).expect("reads");
    assert_eq!(doc.tournament.system, Some(SystemId::Burstein));
}

/// py4swiss's reader expectations (its SOURCES.md).
#[test]
fn py4swiss_files_are_read_paired_or_refused_with_the_line() {
    // JaVaFo's AUM sample with an added 013 line naming 2 of its players: an individual
    // event, read and paired (round 5).
    let doc = pairing::read_trf(&text("py4swiss/javafo_example.trf")).expect("reads");
    assert!(doc.tournament.teams.is_empty());
    assert!(
        doc.tournament
            .players
            .iter()
            .any(|p| p.team_id == "Example")
    );
    assert!(
        doc.notes
            .iter()
            .any(|n| n.contains("013 records name only some"))
    );
    let answer = pairing::pair(
        &doc.tournament,
        &PairOptions {
            system: Some(SystemId::Dutch),
            ..PairOptions::default()
        },
    )
    .expect("pairs");
    assert_eq!(answer.pairing.round, 5);
    // Written back, the 013 line is written from the players' teams and the file reads
    // the same.
    let written = pairing::write_trf(&doc, swisspair::trf::Dialect::Trf26).expect("writes");
    assert!(written.contains("013 Example"), "{written}");
    let again = pairing::read_trf(&written).expect("reads back");
    // The same games, by player id (the writer may list the players in another order).
    let games = |t: &swisspair::model::Tournament| {
        let mut out: Vec<(usize, String, String, String)> = t
            .rounds
            .iter()
            .enumerate()
            .flat_map(|(r, round)| {
                round.games.iter().map(move |g| {
                    (
                        r,
                        t.players[g.white].id.clone(),
                        t.players[g.black].id.clone(),
                        format!("{:?}", g.result),
                    )
                })
            })
            .collect();
        out.sort();
        out
    };
    assert_eq!(games(&again.tournament), games(&doc.tournament));
    assert!(again.tournament.teams.is_empty());

    for name in ["comments", "invalid_code"] {
        let doc = pairing::read_trf(&text(&format!("py4swiss/{name}.trf"))).expect(name);
        for system in [SystemId::Dutch, SystemId::Burstein, SystemId::Dubov] {
            let options = PairOptions {
                system: Some(system),
                ..PairOptions::default()
            };
            pairing::pair(&doc.tournament, &options).expect(name);
        }
    }

    // Inconsistent files: refused, naming the line (a TRF error's line, or the player
    // lines, which are the starting ranks).
    for (name, line) in [
        ("missing_result", 2),
        ("incompatible_result", 2),
        ("incompatible_color", 2),
    ] {
        let e = pairing::read_trf(&text(&format!("py4swiss/{name}.trf"))).expect_err(name);
        assert_eq!(e.line, line, "{name}: {e}");
    }
    let t = pairing::read_trf(&text("py4swiss/too_many_results.trf"))
        .expect("read: the audit reports it as a finding")
        .tournament;
    let dutch = PairOptions {
        system: Some(SystemId::Dutch),
        ..PairOptions::default()
    };
    let e = pairing::pair(&t, &dutch).expect_err("refused");
    assert!(
        e.to_string()
            .contains("6 rounds are recorded as paired but the tournament has 5 rounds (round 6 on the lines of players 2, 7)"),
        "{e}"
    );
    let dutch = CheckOptions {
        system: Some(SystemId::Dutch),
        ..CheckOptions::default()
    };
    let e = check::run(&t, &dutch).expect_err("refused");
    assert!(
        e.to_string()
            .contains("(round 6 on the lines of players 2, 7)"),
        "{e}"
    );

    // No legal pairing for the three FIDE Swiss systems py4swiss drives.
    for name in ["no_legal_pairings", "no_legal_pairings_odd"] {
        let t = pairing::read_trf(&text(&format!("py4swiss/{name}.trf")))
            .expect(name)
            .tournament;
        for system in [SystemId::Dutch, SystemId::Burstein, SystemId::Dubov] {
            let options = PairOptions {
                system: Some(system),
                ..PairOptions::default()
            };
            match pairing::pair(&t, &options) {
                Err(PairError::NoLegalPairing { .. }) => {}
                other => panic!("{name} {system:?}: {other:?}"),
            }
        }
    }
}

#[test]
fn a_gap_in_the_starting_ranks_is_a_warning() {
    // Ranks 1-6 and 8 for seven players: rank 7 is missing.
    let doc = pairing::read_trf(&text("py4swiss/missing_starting_number.trf")).expect("reads");
    let warnings = doc.points_warnings();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].message.contains("no player has rank 7"),
        "{}",
        warnings[0].message
    );
    let file = peer("py4swiss/missing_starting_number.trf");
    let (code, _, err) =
        common::swisspair(&["pair", "--dutch", file.to_str().expect("path"), "-p"]);
    assert_eq!(code, 0);
    assert!(err.contains("warning: the starting ranks"), "{err}");
    // The audit notes it; it is not a points finding.
    let report = audit::audit_text(
        &text("py4swiss/missing_starting_number.trf"),
        &dutch_audit(),
    )
    .expect("reads");
    assert!(report.is_clean(), "{:#?}", report.findings);
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("no player has rank 7"))
    );
    // Ranks 1..n: no warning.
    let doc = pairing::read_trf(&text("py4swiss/comments.trf")).expect("reads");
    assert!(doc.points_warnings().is_empty());
}

#[tokio::test]
async fn check_reports_a_wrong_points_column_as_audit_does() {
    // Player 2's column says 4.0; his results (0, 1, =, =, 1) give 3.0.
    let file = peer("py4swiss/incorrect_points.trf");
    let path = file.to_str().expect("path");
    let (code, out, err) = common::swisspair(&["check", "--dutch", path]);
    assert_eq!(code, 0, "{out}");
    assert!(
        err.contains("warning: player 2: the points column says 4.0 but the results give 3.0"),
        "{err}"
    );
    let report =
        audit::audit_text(&text("py4swiss/incorrect_points.trf"), &dutch_audit()).expect("reads");
    assert_eq!(report.verdict(), "1 finding: points 1");
    assert_eq!(report.findings[0].players, vec!["2"]);

    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let check = client
        .check(proto::CheckRequest {
            input: Some(proto::check_request::Input::Trf(text(
                "py4swiss/incorrect_points.trf",
            ))),
            system: proto::PairingSystem::Dutch as i32,
            ..proto::CheckRequest::default()
        })
        .await
        .expect("checked")
        .into_inner();
    let points: Vec<_> = check
        .warnings
        .iter()
        .filter(|w| w.code == "POINTS_COLUMN")
        .collect();
    assert_eq!(points.len(), 1, "{:?}", check.warnings);
    assert_eq!(points[0].player_ids, vec!["2"]);
    server.stop().await;
}

/// CPPDubovSystem's tests: no `XXC`, rounds as `TNR`. Read as the Dutch and Burstein
/// checks read them (colour and rounds inferred from the record), every round is the
/// Dubov system's but those of `baku_test.trf` (CPPDubovSystem's own acceleration, 3
/// rounds) and `parsing_test.trf` (wrong on purpose, 2 rounds): 48 of 53.
#[test]
fn cppdubovsystem_files_check_as_the_dutch_checker_reads_them() {
    let mut passed = 0;
    let mut failed = 0;
    for path in common::trf_files(&peer("cppdubovsystem")) {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let text = std::fs::read_to_string(&path).expect("reads");
        let t = pairing::read_trf(&text).expect(name).tournament;
        let report = check::run(
            &t,
            &CheckOptions {
                system: Some(SystemId::Dubov),
                ..CheckOptions::default()
            },
        )
        .expect(name)
        .report;
        passed += report.passed();
        failed += report.failed();
        match name {
            "baku_test.trf" => assert_eq!(report.failed(), 3, "{name}"),
            "parsing_test.trf" => assert_eq!(report.failed(), 2, "{name}"),
            _ => assert_eq!(report.failed(), 0, "{name}: {:?}", report.rounds),
        }
        if !text.contains("XXC") {
            assert!(
                report
                    .warnings
                    .iter()
                    .any(|w| w.starts_with("no initial colour (XXC)")),
                "{name}: {:?}",
                report.warnings
            );
        }
    }
    assert_eq!((passed, failed), (48, 5));
}

#[test]
fn tnr_is_the_number_of_rounds() {
    let text = text("cppdubovsystem/test.trf");
    let tnr: u32 = text
        .lines()
        .find_map(|l| l.strip_prefix("TNR"))
        .and_then(|v| v.trim().parse().ok())
        .expect("a TNR line");
    let t = pairing::read_trf(&text).expect("reads").tournament;
    assert_eq!(t.total_rounds, tnr);
}

/// `XXC rank` (JaVaFo, trf.md §6.1): pairing numbers by position in the file. Four players
/// listed as ranks 3, 1, 2, 4: pairing numbers 1-4 are ids 3, 1, 2, 4. Round 1 (C.04.3
/// 2026, one score group: S1 = pairing numbers 1-2 against S2 = 3-4, pairing number 1 with
/// the initial colour White, the colours alternating down the boards, C.04.3 5.1/5.2.5):
/// pairing number 1 (id 3) White against 3 (id 2), pairing number 4 (id 4) White against 2
/// (id 1).
#[test]
fn xxc_rank_numbers_players_by_their_position() {
    let line = |rank: u32, rating: u32| {
        format!(
            "001 {rank:>4}      Player {rank:<26} {rating:>4}                             0.0 {rank:>4}"
        )
    };
    let lines = [line(3, 2000), line(1, 2100), line(2, 1900), line(4, 1800)].join("\n");
    let by_rank = format!("XXR 5\nXXC white1\n{lines}\n");
    let by_position = format!("XXR 5\nXXC rank white1\n{lines}\n");
    let pairs = |text: &str| {
        let doc = pairing::read_trf(text).expect("reads");
        let t = doc.tournament;
        assert_eq!(t.initial_colour, Some(Colour::White));
        let answer = pairing::pair(
            &t,
            &PairOptions {
                system: Some(SystemId::Dutch),
                ..PairOptions::default()
            },
        )
        .expect("pairs");
        let id = |p: usize| t.players[p].id.clone();
        answer
            .pairing
            .boards
            .iter()
            .map(|b| (id(b.white), id(b.black)))
            .collect::<Vec<_>>()
    };
    let s = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(pairs(&by_position), vec![s("3", "2"), s("4", "1")]);
    // Without `rank`, the starting ranks are the pairing numbers: 1 - 3, 4 - 2.
    assert_eq!(pairs(&by_rank), vec![s("1", "3"), s("4", "2")]);
    let doc = pairing::read_trf(&by_position).expect("reads");
    let numbers: Vec<(String, Option<u32>)> = doc
        .tournament
        .players
        .iter()
        .map(|p| (p.id.clone(), p.pairing_number))
        .collect();
    assert_eq!(
        numbers,
        vec![
            ("3".to_string(), Some(1)),
            ("1".to_string(), Some(2)),
            ("2".to_string(), Some(3)),
            ("4".to_string(), Some(4)),
        ]
    );
}
