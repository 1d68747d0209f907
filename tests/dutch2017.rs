//! The Dutch system, 2017 edition: the conformance corpus (tournaments paired by
//! bbpPairings 5.0.1, the FIDE-endorsed engine of that edition) paired round by round, and
//! what the edition changes against 2026 on hand-made snapshots.
mod common;

use swisspair::model::SystemId;

/// Every round of every file: pairing round r from rounds 1..r-1 gives the file's round r.
#[test]
fn conformance_dutch2017() {
    // `run_corpus` prints `conformance dutch2017: N passed, M failed`.
    let (passed, failed) = common::run_corpus("dutch2017", SystemId::Dutch);
    assert!(passed > 0);
    assert_eq!(failed, 0);
}

use swisspair::pairing;
use swisspair::systems::{PairError, PairOptions};
use swisspair::trf;

fn corpus_file(name: &str) -> String {
    std::fs::read_to_string(common::conformance_dir("dutch2017").join(name)).expect("readable")
}

/// The file's own 192 record with another code, and a start date.
fn with_header(text: &str, code: &str, date: Option<&str>) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with("192") {
            out.push_str(&format!("192 {code}\n"));
            if let Some(d) = date {
                out.push_str(&format!("042 {d}\n"));
            }
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The tournament of `text` cut to its first `rounds` rounds.
fn first_rounds(text: &str, rounds: usize) -> swisspair::model::Tournament {
    let mut t = swisspair::pairing::read_trf(text)
        .expect("valid TRF")
        .tournament;
    t.rounds.truncate(rounds);
    t
}

/// A corpus file and a round the two editions pair differently (found by the test itself):
/// the 2017 edition reproduces the file, the 2026 edition does not.
#[test]
fn the_editions_differ_where_the_texts_do() {
    let mut found = 0;
    // Every third file keeps the test short in a debug build.
    for path in common::trf_files(&common::conformance_dir("dutch2017"))
        .into_iter()
        .step_by(3)
    {
        let text = std::fs::read_to_string(&path).expect("readable");
        let t = swisspair::pairing::read_trf(&text)
            .expect("valid")
            .tournament;
        assert_eq!(t.options.get("edition"), Some("2017"), "{}", path.display());
        let mut t2026 = t.clone();
        t2026.options.set("edition", "2026").expect("settable");
        let options = swisspair::check::CheckOptions::default();
        let r2017 = swisspair::check::check(&t, &options).expect("checkable");
        let r2026 = swisspair::check::check(&t2026, &options).expect("checkable");
        assert_eq!(r2017.failed(), 0, "{}", path.display());
        if r2026.failed() > 0 {
            found += 1;
        }
    }
    // The corpus's README: about one round in five differs; 81 of the 120 files.
    assert!(
        found >= 15,
        "only {found} of 40 files differ between the editions"
    );
}

#[test]
fn record_192_names_the_edition() {
    let text = corpus_file("std-s17000006.trf");
    let doc = swisspair::pairing::read_trf(&text).expect("valid");
    assert_eq!(doc.tournament.options.get("edition"), Some("2017"));
    // Written back as it was read.
    let written = swisspair::pairing::write_trf(&doc, trf::Dialect::Trf26).expect("writable");
    assert!(written.contains("192 FIDE_DUTCH_2017"), "{written}");
    // Bare FIDE_DUTCH follows the start date (042): before 1 February 2026, 2017.
    let before =
        swisspair::pairing::read_trf(&with_header(&text, "FIDE_DUTCH", Some("2026/01/31")))
            .expect("valid");
    assert_eq!(before.tournament.options.get("edition"), Some("2017"));
    assert!(before.notes.is_empty());
    let dotted =
        swisspair::pairing::read_trf(&with_header(&text, "FIDE_DUTCH", Some("15.03.2019")))
            .expect("valid");
    assert_eq!(dotted.tournament.options.get("edition"), Some("2017"));
    let after = swisspair::pairing::read_trf(&with_header(&text, "FIDE_DUTCH", Some("2026/02/01")))
        .expect("valid");
    assert_eq!(after.tournament.options.get("edition"), None);
    // No date: 2026, with a warning that says so and why.
    let undated =
        swisspair::pairing::read_trf(&with_header(&text, "FIDE_DUTCH", None)).expect("valid");
    assert_eq!(undated.tournament.options.get("edition"), None);
    let warnings = undated.points_warnings();
    assert!(
        warnings
            .iter()
            .any(|w| w.message.contains("2026 edition is assumed")),
        "{warnings:?}"
    );
    let explicit =
        swisspair::pairing::read_trf(&with_header(&text, "FIDE_DUTCH_2026", None)).expect("valid");
    assert_eq!(explicit.tournament.options.get("edition"), None);
    assert!(explicit.notes.is_empty());
}

#[test]
fn an_edition_this_build_lacks_is_refused_by_name() {
    let text = with_header(&corpus_file("std-s17000006.trf"), "FIDE_DUTCH_2013", None);
    let t = swisspair::pairing::read_trf(&text)
        .expect("valid")
        .tournament;
    match pairing::pair(&t, &PairOptions::default()) {
        Err(PairError::Invalid(problems)) => {
            let p = &problems.0[0];
            assert_eq!(p.path, "trf.192");
            assert!(p.message.contains("\"FIDE_DUTCH_2013\""), "{}", p.message);
            assert!(
                p.message.contains("Dutch system, 2013 edition"),
                "{}",
                p.message
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    let text = with_header(&corpus_file("std-s17000006.trf"), "HOLLAND_PAIRING", None);
    let t = swisspair::pairing::read_trf(&text)
        .expect("valid")
        .tournament;
    let err = pairing::pair(&t, &PairOptions::default()).expect_err("refused");
    assert!(err.to_string().contains("\"HOLLAND_PAIRING\""), "{err}");
    // A system given by name still pairs the file.
    let options = PairOptions {
        system: Some(SystemId::Dutch),
        ..PairOptions::default()
    };
    let mut t = t;
    t.rounds.truncate(3);
    assert!(pairing::pair(&t, &options).is_ok());
}

/// The answer names the 2017 rules, and every step cites a 2017 article (A.x, B.x, C.x,
/// D.x, E.x) in the one rule-id shape.
#[test]
fn explanations_cite_the_2017_articles() {
    let t = first_rounds(&corpus_file("std-s17000006.trf"), 4);
    let answer = pairing::pair(&t, &PairOptions::default()).expect("pairs");
    assert!(answer.rule_set.contains("2017"), "{}", answer.rule_set);
    let ids: Vec<&str> = answer
        .pairing
        .explanation
        .groups
        .iter()
        .flat_map(|g| g.steps.iter().map(|s| s.rule_id.as_str()))
        .collect();
    assert!(ids.iter().any(|id| id.starts_with("C.04.3 E.")), "{ids:?}");
    for id in &ids {
        assert!(id.starts_with("C.04.3 "), "{id}");
        let article = &id["C.04.3 ".len()..];
        assert!(
            article.starts_with(['A', 'B', 'C', 'D', 'E'])
                && article.as_bytes().get(1) == Some(&b'.'),
            "{id} is not a 2017 article"
        );
    }
}

#[test]
fn the_command_line_takes_the_edition() {
    let dir = std::env::temp_dir().join(format!("swisspair-dutch2017-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("bare.trf");
    // Without its 192 record the file is checked under the edition the flags name.
    let text: String = corpus_file("std-s17000006.trf")
        .lines()
        .filter(|l| !l.starts_with("192"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&file, text).expect("written");
    let path = file.to_string_lossy().to_string();
    let (code, out, err) = common::swisspair(&["check", "--dutch", "--edition", "2017", &path]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) =
        common::swisspair(&["check", "--dutch", "--option", "edition=2017", &path]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, _, _) = common::swisspair(&["check", "--dutch", "--edition", "1999", &path]);
    assert_eq!(code, 3);
    let (code, out, _) = common::swisspair(&["systems"]);
    assert_eq!(code, 0);
    assert!(out.contains("edition"), "{out}");
    let unknown = dir.join("unknown.trf");
    std::fs::write(
        &unknown,
        with_header(&corpus_file("std-s17000006.trf"), "FIDE_DUTCH_2013", None),
    )
    .expect("written");
    let (code, _, err) = common::swisspair(&["check", &unknown.to_string_lossy()]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("FIDE_DUTCH_2013"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `_BAKU` with the 2017 edition: the reference engine of that edition reads virtual points
/// from `XXA` lines only, so the suffix generates none (with a warning); with 2026 it asks
/// for C.04.7's Baku method.
#[test]
fn a_baku_code_follows_the_editions_reference() {
    let text = corpus_file("std-s17000006.trf");
    let old = swisspair::pairing::read_trf(&with_header(&text, "FIDE_DUTCH_2017_BAKU", None))
        .expect("valid");
    assert_eq!(old.tournament.options.get("acceleration"), None);
    assert!(
        old.notes.iter().any(|n| n.contains("XXA")),
        "{:?}",
        old.notes
    );
    let dated =
        swisspair::pairing::read_trf(&with_header(&text, "FIDE_DUTCH_BAKU", Some("2024/05/02")))
            .expect("valid");
    assert_eq!(dated.tournament.options.get("acceleration"), None);
    let new = swisspair::pairing::read_trf(&with_header(&text, "FIDE_DUTCH_2026_BAKU", None))
        .expect("valid");
    assert_eq!(new.tournament.options.get("acceleration"), Some("BAKU"));
}

/// A sample of the differential campaign against the reference engine's own generator
/// (`tests/data/conformance/dutch2017-campaign/README.md`): every round reproduced.
#[test]
fn conformance_dutch2017_campaign() {
    let (passed, failed) = common::run_corpus_with(
        "dutch2017-campaign",
        SystemId::Dutch,
        |t| {
            t.options.set("edition", "2017").expect("settable");
        },
        |_, _| None,
    );
    assert!(passed > 0);
    assert_eq!(failed, 0);
}

/// `swisspair audit` re-pairs each report under the edition in force for it: a 2017 event
/// is clean under its own rules and follows the other edition under 2026's, and a 2026
/// event (from the 2026 corpus) labelled `FIDE_DUTCH_2017` follows the 2026 edition.
#[test]
fn the_audit_follows_the_edition_of_each_report() {
    let file = common::conformance_dir("dutch2017").join("std-s17000012.trf");
    let path = file.to_string_lossy().to_string();
    let (code, out, err) = common::swisspair(&["audit", &path]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("clean"), "{out}");
    // Under 2026's rules its round 8 differs, and matches re-paired by the 2017 edition: an
    // `edition` finding (AU-2), not wrong pairs.
    let (code, out, _) = common::swisspair(&["audit", "--edition", "2026", &path]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("round 8 follows the 2017 edition"), "{out}");
    assert!(!out.contains(" pairs "), "{out}");
    let dir = std::env::temp_dir().join(format!("swisspair-audit2017-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let text = std::fs::read_to_string(common::conformance_dir("dutch").join("dutch-0001.trf"))
        .expect("readable");
    let labelled = dir.join("labelled.trf");
    std::fs::write(&labelled, format!("192 FIDE_DUTCH_2017\n{text}")).expect("written");
    let (code, out, _) = common::swisspair(&["audit", &labelled.to_string_lossy()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("round 5 follows the 2026 edition"), "{out}");
    let as_2026 = dir.join("as2026.trf");
    std::fs::write(&as_2026, format!("192 FIDE_DUTCH_2026\n{text}")).expect("written");
    let (code, out, _) = common::swisspair(&["audit", &as_2026.to_string_lossy()]);
    assert_eq!(code, 0, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `simulate` pairs every round by the 2017 edition, writes `192 FIDE_DUTCH_2017`, and the
/// checker reads the file back under that edition: every round agrees.
#[test]
fn a_simulated_2017_event_checks_clean() {
    let dir = std::env::temp_dir().join(format!("swisspair-sim2017-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("sim.trf");
    let path = out.to_string_lossy().to_string();
    let (code, _, err) = common::swisspair(&[
        "simulate",
        "--dutch",
        "--edition",
        "2017",
        "--players",
        "41",
        "--rounds",
        "7",
        "--seed",
        "5",
        "-o",
        &path,
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&out).expect("written");
    assert!(text.contains("192 FIDE_DUTCH_2017"), "{text}");
    let (code, stdout, err) = common::swisspair(&["check", &path]);
    assert_eq!(code, 0, "{stdout}{err}");
    assert!(stdout.contains("7 passed, 0 failed"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Over gRPC: a TRF naming the 2017 edition is paired by it (the answer's rule set says
/// so, and the pairing is the file's next round); the typed `dutch_edition` option selects
/// it for a snapshot; a 192 code this build lacks is `INVALID_ARGUMENT` naming `trf.192`.
#[tokio::test]
async fn the_service_takes_the_edition() {
    use swisspair::proto;
    use tonic_types::StatusExt as _;
    let server = common::server::Server::start(swisspair::service::ServerConfig::default()).await;
    let mut client = server.client().await;
    let full = corpus_file("std-s17000012.trf");
    let t = swisspair::pairing::read_trf(&full)
        .expect("valid")
        .tournament;
    // Round 8 of this file differs between the editions (the audit test above).
    let mut cut = t.clone();
    cut.rounds.truncate(7);
    let text = swisspair::pairing::write_trf(
        &trf::TrfDocument {
            tournament: cut,
            ..trf::TrfDocument::default()
        },
        trf::Dialect::Trf26,
    )
    .expect("writable");
    assert!(text.contains("192 FIDE_DUTCH_2017"), "{text}");
    // Without swisspair's own `XXO` settings line (which also records the system and the
    // edition), record 192 alone names them, as in a registry's file.
    let text: String = text
        .lines()
        .filter(|l| !l.starts_with("XXO"))
        .map(|l| format!("{l}\n"))
        .collect();
    let request = |trf: String| proto::PairRequest {
        input: Some(proto::pair_request::Input::Trf(trf)),
        ..proto::PairRequest::default()
    };
    let answer = client
        .pair(request(text.clone()))
        .await
        .expect("paired")
        .into_inner();
    assert!(answer.rule_set.contains("2017"), "{}", answer.rule_set);
    let as_2026 = text.replace("192 FIDE_DUTCH_2017", "192 FIDE_DUTCH_2026");
    let other = client
        .pair(request(as_2026))
        .await
        .expect("paired")
        .into_inner();
    assert!(!other.rule_set.contains("2017"), "{}", other.rule_set);
    assert_ne!(
        format!("{:?}", answer.boards),
        format!("{:?}", other.boards)
    );
    let unknown = text.replace("192 FIDE_DUTCH_2017", "192 FIDE_DUTCH_2013");
    let status = client.pair(request(unknown)).await.expect_err("refused");
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    assert!(
        status.message().contains("FIDE_DUTCH_2013"),
        "{}",
        status.message()
    );
    let details = status.get_error_details();
    let bad = details.bad_request().expect("a BadRequest");
    assert_eq!(bad.field_violations[0].field, "trf.192");
    server.stop().await;
}

/// Acceleration as the 2017 edition's reference engine reads it (`XXA` virtual points):
/// the next round of each snapshot of `tests/data/dutch2017-xxa/` is bbpPairings 5.0.1's,
/// pairs and colours (the folder's README says how they were made).
#[test]
fn the_2017_edition_reads_xxa_as_the_reference() {
    let dir = common::data_dir().join("dutch2017-xxa");
    let files = common::trf_files(&dir);
    assert!(files.len() >= 20, "{} snapshots", files.len());
    for trf in files {
        let expected = std::fs::read_to_string(trf.with_extension("pairs")).expect("pairs");
        let (code, out, err) = common::swisspair(&[
            "pair",
            "--dutch",
            "--edition",
            "2017",
            &trf.to_string_lossy(),
            "-p",
        ]);
        assert_eq!(code, 0, "{}: {err}", trf.display());
        let lines = |text: &str| -> Vec<String> {
            let mut v: Vec<String> = text
                .lines()
                .map(|l| l.trim().to_string())
                .filter(|l| !l.is_empty())
                .collect();
            v.sort();
            v
        };
        assert_eq!(lines(&out), lines(&expected), "{}", trf.display());
    }
}
