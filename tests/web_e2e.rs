//! The gRPC port's other protocols, on a real `swisspair serve` process: the Connect
//! protocol's JSON as plain HTTP/1.1 requests (what `curl` sends), its errors with the same
//! rich details as gRPC's, bearer tokens, limits, deadlines and metrics through it, CORS,
//! the page and `--no-page`; then real clients installed from the npm registry (connect-es:
//! Connect JSON and binary, gRPC-Web and gRPC, and JSON and gRPC-Web behind TLS,
//! `tests/web/clients.mjs`) and the page in
//! headless Chromium (`tests/web/page.mjs`; a Swiss Team event with its teams' clubs kept
//! apart, `tests/web/page_teams.mjs`), both against `swisspair pair` (and the page's
//! "why not?" panel against `swisspair why`); a team file with separations through JSON.
//!
//! The Node tests need `node` and `npm` (and Debian's `chromium`, which the browser test
//! installs with apt-get when it runs as root). Missing tools fail the test, saying what to
//! install; `SWISSPAIR_SKIP_WEB=1` skips the Node tests outside CI (never when `CI` is set).
mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use base64::Engine as _;
use common::process::Process;
use prost::Message as _;
use swisspair::proto;
use swisspair::trf;
use tonic_types::StatusExt as _;

/// An HTTP answer.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}): {}",
                String::from_utf8_lossy(&self.body[..self.body.len().min(300)])
            )
        })
    }
}

/// One HTTP/1.1 request on a fresh connection, as a plain client (curl, PHP) sends it.
fn http(addr: &str, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Answer {
    let mut stream = TcpStream::connect(addr).expect("connects");
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).expect("writes");
    stream.write_all(body).expect("writes");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("reads");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an HTTP head");
    let text = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = text.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    if chunked {
        body = dechunk(&body);
    }
    Answer {
        status,
        headers,
        body,
    }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line_end = data
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("chunk size");
        let size = usize::from_str_radix(
            String::from_utf8_lossy(&data[..line_end])
                .split(';')
                .next()
                .unwrap_or("0")
                .trim(),
            16,
        )
        .expect("hex size");
        data = &data[line_end + 2..];
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&data[..size]);
        data = &data[size + 2..];
    }
}

/// A Connect unary call in JSON.
fn post_json(
    addr: &str,
    method: &str,
    body: &serde_json::Value,
    headers: &[(&str, &str)],
) -> Answer {
    let mut all = vec![("Content-Type", "application/json")];
    all.extend_from_slice(headers);
    http(
        addr,
        "POST",
        &format!("/swisspair.v1.PairingService/{method}"),
        &all,
        body.to_string().as_bytes(),
    )
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("swisspair-web-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A Dutch corpus file cut before its last round, in `dir`: the round the clients and the
/// page pair. Its path and text, and `swisspair pair -p` of it (the CLI's pairing).
fn corpus_round(dir: &Path) -> (PathBuf, String, String) {
    let source = common::conformance_dir("dutch").join("dutch-0001.trf");
    let text = std::fs::read_to_string(&source).expect("corpus file");
    let mut doc = swisspair::pairing::read_trf(&text).expect("a TRF");
    let played = doc.tournament.rounds.len();
    doc.tournament.rounds.truncate(played - 1);
    // The points column as the remaining rounds give it.
    doc.declared_points.iter_mut().for_each(|p| *p = None);
    let cut = swisspair::pairing::write_trf(&doc, trf::Dialect::JaVaFo).expect("writes");
    let path = dir.join("dutch-0001-cut.trf");
    std::fs::write(&path, &cut).expect("writes");
    let (code, out, err) = common::swisspair(&[
        "pair",
        "--system",
        "dutch",
        path.to_str().expect("utf-8 path"),
        "-p",
    ]);
    assert_eq!(code, 0, "swisspair pair: {err}");
    assert!(out.lines().count() > 2, "a pairing: {out}");
    (path, cut, out)
}

/// The CLI's `-p` lines after the count ("white black", the PAB "id 0").
fn pair_lines(cli: &str) -> Vec<String> {
    cli.lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// The pairs of a JSON `PairResponse` in the CLI's form.
fn json_pairs(answer: &serde_json::Value) -> Vec<String> {
    let mut pairs: Vec<String> = answer["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .map(|b| {
            format!(
                "{} {}",
                b["whiteId"].as_str().unwrap_or(""),
                b["blackId"].as_str().unwrap_or("")
            )
        })
        .collect();
    for bye in answer["byes"].as_array().into_iter().flatten() {
        if bye["kind"] == "BYE_KIND_PAB" {
            pairs.push(format!("{} 0", bye["playerId"].as_str().unwrap_or("")));
        }
    }
    pairs
}

/// The clubs of the team event: team `tpn`'s is `TEAM_CLUBS[tpn % 3]`.
const TEAM_CLUBS: [&str; 3] = ["North", "East", "West"];

/// A Swiss Team event (C.04.6) of the team corpus (ten teams of four boards) cut after its
/// first round, its teams in three clubs by team pairing number ([`TEAM_CLUBS`], swisspair's
/// `XTC` records, SEP-6), in `dir`: its path and text. Round 2 is paired from it.
fn team_round_with_clubs(dir: &Path) -> (PathBuf, String) {
    let source = common::conformance_dir("team").join("team-s620008.trf");
    let text = std::fs::read_to_string(&source).expect("corpus file");
    let mut doc = swisspair::pairing::read_trf(&text).expect("a TRF");
    doc.tournament.rounds.truncate(1);
    // The points columns as the remaining round gives them.
    doc.declared_points.iter_mut().for_each(|p| *p = None);
    for team in &mut doc.tournament.teams {
        team.declared_match_points = None;
        team.declared_game_points = None;
        team.declared_rank = None;
        team.club = TEAM_CLUBS[team.tpn as usize % 3].to_string();
    }
    let cut = swisspair::pairing::write_trf(&doc, trf::Dialect::Trf26).expect("writes");
    let path = dir.join("team-s620008-clubs.trf");
    std::fs::write(&path, &cut).expect("writes");
    (path, cut)
}

/// `swisspair pair -p` of a team file with the `--separate` arguments given: the CLI's
/// team pair list (the count, `white black` by team pairing number, a blank line, then
/// `match board white black` by player pairing number).
fn cli_team_pairing(path: &Path, separate: &[&str]) -> String {
    let mut args = vec![
        "pair",
        "--system",
        "team-swiss",
        path.to_str().expect("utf-8 path"),
        "-p",
    ];
    args.extend_from_slice(separate);
    let (code, out, err) = common::swisspair(&args);
    assert_eq!(code, 0, "swisspair pair {separate:?}: {err}");
    out
}

/// The team matches of the CLI's team pair list ("white black", the team PAB "tpn 0").
fn team_match_lines(cli: &str) -> Vec<String> {
    cli.lines()
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// The boards of the CLI's team pair list as "white black" (player pairing numbers).
fn team_board_lines(cli: &str) -> Vec<String> {
    cli.lines()
        .skip_while(|l| !l.trim().is_empty())
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().skip(2).collect::<Vec<_>>().join(" "))
        .collect()
}

/// How many of the team matches are between two teams of one club ([`TEAM_CLUBS`]).
fn matches_within_a_club(matches: &[String]) -> usize {
    matches
        .iter()
        .filter_map(|m| m.split_once(' '))
        .filter_map(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)))
        .filter(|&(a, b)| b != 0 && a % 3 == b % 3)
        .count()
}

/// The team event's round 2 by the CLI: without a separation, with `club=weak` and with
/// `club=absolute`. Asserts that the separations change the answer (the event is chosen
/// so): the weak one makes fewer matches within a club than the plain pairing (TS-SEP.2),
/// the absolute one none (TS-SEP.1).
fn team_answers(path: &Path) -> [String; 3] {
    let plain = cli_team_pairing(path, &[]);
    let weak = cli_team_pairing(path, &["--separate", "club=weak"]);
    let absolute = cli_team_pairing(path, &["--separate", "club=absolute"]);
    let within = |cli: &str| matches_within_a_club(&team_match_lines(cli));
    assert!(
        within(&plain) > 0,
        "the plain pairing has a match within a club:\n{plain}"
    );
    assert!(
        within(&weak) < within(&plain),
        "club=weak makes fewer matches within a club:\n{weak}\nthan\n{plain}"
    );
    assert_eq!(within(&absolute), 0, "club=absolute:\n{absolute}");
    assert_ne!(team_match_lines(&absolute), team_match_lines(&weak));
    [plain, weak, absolute]
}

#[test]
fn json_pairs_a_team_file_with_clubs_kept_apart_as_the_cli_does() {
    let dir = temp_dir("team-json");
    let (path, text) = team_round_with_clubs(&dir);
    let [plain, weak, absolute] = team_answers(&path);
    let server = Process::start(&[]);
    // The separation as a TRF `XSP` record (what the CLI's `--separate` adds, and the page
    // writes): the same matches and boards as the CLI.
    for (xsp, cli) in [
        ("", &plain),
        ("XSP club weak\n", &weak),
        ("XSP club absolute\n", &absolute),
    ] {
        let request = serde_json::json!({
            "trf": format!("{text}{xsp}"),
            "system": "PAIRING_SYSTEM_TEAM_SWISS",
        });
        let answer = post_json(&server.addr, "Pair", &request, &[]);
        assert_eq!(
            answer.status,
            200,
            "{xsp}{}",
            String::from_utf8_lossy(&answer.body)
        );
        let json = answer.json();
        let mut matches = Vec::new();
        let mut boards = Vec::new();
        for m in json["teamPairings"].as_array().expect("team pairings") {
            matches.push(format!(
                "{} {}",
                m["whiteTeamPairingNumber"], m["blackTeamPairingNumber"]
            ));
            for b in m["boards"].as_array().expect("boards") {
                boards.push(format!(
                    "{} {}",
                    b["whitePairingNumber"], b["blackPairingNumber"]
                ));
            }
        }
        if let Some(bye) = json.get("teamBye") {
            matches.push(format!("{} 0", bye["pairingNumber"]));
        }
        assert_eq!(matches, team_match_lines(cli), "{xsp}");
        assert_eq!(boards, team_board_lines(cli), "{xsp}");
        let rules = json["explanation"].to_string();
        for rule in ["SEP-1", "SEP-5"] {
            let cited = rules.contains(&format!("\"ruleId\":\"{rule}\""));
            let expected = match rule {
                "SEP-1" => xsp.contains("absolute"),
                _ => xsp.contains("weak"),
            };
            assert_eq!(cited, expected, "{xsp}: {rule} cited: {rules}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_answers_each_rpc_as_grpc_does_on_the_same_port() {
    let dir = temp_dir("same-answers");
    let (_, cut, cli) = corpus_round(&dir);
    let server = Process::start(&[]);
    let mut grpc = server.client().await;
    let trf_input = || Some(proto::pair_request::Input::Trf(cut.clone()));

    // Pair: the CLI's pairing, and the very message gRPC answers.
    let pair = proto::PairRequest {
        input: trf_input(),
        system: proto::PairingSystem::Dutch as i32,
        ..proto::PairRequest::default()
    };
    let request = serde_json::json!({"trf": cut, "system": "PAIRING_SYSTEM_DUTCH"});
    let answer = post_json(&server.addr, "Pair", &request, &[]);
    assert_eq!(
        answer.status,
        200,
        "{}",
        String::from_utf8_lossy(&answer.body)
    );
    assert_eq!(answer.header("content-type"), Some("application/json"));
    let json = answer.json();
    assert_eq!(json_pairs(&json), pair_lines(&cli));
    let from_json: proto::PairResponse = serde_json::from_value(json).expect("a PairResponse");
    let from_grpc = grpc.pair(pair.clone()).await.expect("gRPC").into_inner();
    assert_eq!(from_json, from_grpc);

    // The same in Connect's binary form.
    let answer = http(
        &server.addr,
        "POST",
        "/swisspair.v1.PairingService/Pair",
        &[("Content-Type", "application/proto")],
        &pair.encode_to_vec(),
    );
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("content-type"), Some("application/proto"));
    assert_eq!(
        proto::PairResponse::decode(answer.body.as_slice()).expect("protobuf"),
        from_grpc
    );

    // Check, Standings, Audit, ListSystems (an empty body is the empty request).
    let check = post_json(&server.addr, "Check", &request, &[]);
    let check: proto::CheckResponse = serde_json::from_value(check.json()).expect("Check");
    let check_grpc = grpc
        .check(proto::CheckRequest {
            input: Some(proto::check_request::Input::Trf(cut.clone())),
            system: proto::PairingSystem::Dutch as i32,
            ..proto::CheckRequest::default()
        })
        .await
        .expect("gRPC")
        .into_inner();
    assert_eq!(check, check_grpc);
    assert!(!check.rounds.is_empty());

    let standings_request = serde_json::json!({"trf": cut, "tieBreaks": ["BH-C1", "BH", "SB"]});
    let standings = post_json(&server.addr, "Standings", &standings_request, &[]).json();
    assert_eq!(standings["tieBreaks"][0], "PTS");
    let standings: proto::StandingsResponse =
        serde_json::from_value(standings).expect("StandingsResponse");
    let standings_grpc = grpc
        .standings(proto::StandingsRequest {
            input: Some(proto::standings_request::Input::Trf(cut.clone())),
            tie_breaks: vec!["BH-C1".into(), "BH".into(), "SB".into()],
            ..proto::StandingsRequest::default()
        })
        .await
        .expect("gRPC")
        .into_inner();
    assert_eq!(standings, standings_grpc);
    assert!(!standings.rows.is_empty());

    let audit = post_json(&server.addr, "Audit", &request, &[]);
    assert_eq!(
        audit.status,
        200,
        "{}",
        String::from_utf8_lossy(&audit.body)
    );
    let audit: proto::AuditResponse = serde_json::from_value(audit.json()).expect("Audit");
    let audit_grpc = grpc
        .audit(proto::AuditRequest {
            input: Some(proto::audit_request::Input::Trf(cut.clone())),
            system: proto::PairingSystem::Dutch as i32,
            ..proto::AuditRequest::default()
        })
        .await
        .expect("gRPC")
        .into_inner();
    assert_eq!(audit, audit_grpc);

    let systems = http(
        &server.addr,
        "POST",
        "/swisspair.v1.PairingService/ListSystems",
        &[("Content-Type", "application/json")],
        b"",
    );
    assert_eq!(systems.status, 200);
    let systems: proto::ListSystemsResponse =
        serde_json::from_value(systems.json()).expect("ListSystems");
    let systems_grpc = grpc
        .list_systems(proto::ListSystemsRequest::default())
        .await
        .expect("gRPC")
        .into_inner();
    assert_eq!(systems, systems_grpc);
    assert!(systems.systems.iter().any(|s| s.name == "dutch"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The detail of `kind` in a Connect error body, decoded from its base64 `value`.
fn detail<M: prost::Message + Default>(body: &serde_json::Value, kind: &str) -> M {
    let detail = body["details"]
        .as_array()
        .expect("details")
        .iter()
        .find(|d| d["type"] == kind)
        .unwrap_or_else(|| panic!("no {kind} in {body}"));
    let bytes = base64::engine::general_purpose::STANDARD_NO_PAD
        .decode(detail["value"].as_str().expect("value"))
        .expect("unpadded base64");
    M::decode(bytes.as_slice()).expect("the detail's message")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connect_errors_carry_the_grpc_code_message_and_details() {
    let server = Process::start(&[]);
    let mut grpc = server.client().await;
    let bad = serde_json::json!({"trf": "not a tournament", "system": "PAIRING_SYSTEM_DUTCH"});
    let answer = post_json(&server.addr, "Pair", &bad, &[]);
    assert_eq!(answer.status, 400);
    assert_eq!(answer.header("content-type"), Some("application/json"));
    let body = answer.json();
    assert_eq!(body["code"], "invalid_argument");
    let status = grpc
        .pair(proto::PairRequest {
            input: Some(proto::pair_request::Input::Trf("not a tournament".into())),
            system: proto::PairingSystem::Dutch as i32,
            ..proto::PairRequest::default()
        })
        .await
        .expect_err("refused");
    assert_eq!(body["message"], status.message());
    let details = status.get_error_details();
    let bad_request: tonic_types::pb::BadRequest = detail(&body, "google.rpc.BadRequest");
    let grpc_violations = details
        .bad_request()
        .expect("a BadRequest")
        .field_violations
        .clone();
    assert_eq!(bad_request.field_violations.len(), grpc_violations.len());
    assert_eq!(bad_request.field_violations[0].field, "trf");
    assert_eq!(
        bad_request.field_violations[0].description,
        grpc_violations[0].description
    );
    let info: tonic_types::pb::ErrorInfo = detail(&body, "google.rpc.ErrorInfo");
    assert_eq!(info.reason, "MALFORMED_TRF");
    assert_eq!(info.reason, details.error_info().expect("ErrorInfo").reason);
    // The readable copy beside the bytes.
    let debug = &body["details"]
        .as_array()
        .expect("details")
        .iter()
        .find(|d| d["type"] == "google.rpc.BadRequest")
        .expect("BadRequest")["debug"];
    assert_eq!(debug["fieldViolations"][0]["field"], "trf");

    // A misspelt field is refused, not ignored.
    let answer = post_json(
        &server.addr,
        "Pair",
        &serde_json::json!({"sytem": "PAIRING_SYSTEM_DUTCH"}),
        &[],
    );
    assert_eq!(answer.status, 400);
    let body = answer.json();
    assert_eq!(body["code"], "invalid_argument");
    let info: tonic_types::pb::ErrorInfo = detail(&body, "google.rpc.ErrorInfo");
    assert_eq!(info.reason, "MALFORMED_JSON");
    assert!(body["message"].as_str().unwrap_or("").contains("sytem"));

    // A number its field cannot take is named with the field and its type's range, not in
    // serde's words ("data did not match any variant of untagged enum Content").
    let answer = post_json(
        &server.addr,
        "ValidatePairing",
        &serde_json::json!({"round": 99999999999u64}),
        &[],
    );
    assert_eq!(answer.status, 400);
    let body = answer.json();
    assert_eq!(body["code"], "invalid_argument");
    let message = body["message"].as_str().unwrap_or("");
    assert!(
        message
            .contains("round: expected an integer from 0 to 4294967295 (uint32), got 99999999999"),
        "{message}"
    );
    assert!(!message.contains("untagged"), "{message}");
    let info: tonic_types::pb::ErrorInfo = detail(&body, "google.rpc.ErrorInfo");
    assert_eq!(info.reason, "MALFORMED_JSON");
    let bad_request: tonic_types::pb::BadRequest = detail(&body, "google.rpc.BadRequest");
    assert_eq!(bad_request.field_violations[0].field, "round");
    // Deeper, and a string that is no number.
    let answer = post_json(
        &server.addr,
        "Pair",
        &serde_json::json!({"tournament": {"players": [{"id": "a", "rating": "high"}]}}),
        &[],
    );
    assert_eq!(answer.status, 400);
    let bad_request: tonic_types::pb::BadRequest = detail(&answer.json(), "google.rpc.BadRequest");
    assert_eq!(
        bad_request.field_violations[0].field,
        "tournament.players[0].rating"
    );
    assert!(
        bad_request.field_violations[0]
            .description
            .contains("from 0 to 4294967295"),
        "{:?}",
        bad_request.field_violations
    );

    // What Connect's unary form cannot carry, or is not there.
    let stream = post_json(&server.addr, "AuditStream", &serde_json::json!({}), &[]);
    assert_eq!(
        (stream.status, stream.json()["code"].clone()),
        (501, "unimplemented".into())
    );
    let missing = post_json(&server.addr, "Explainz", &serde_json::json!({}), &[]);
    assert_eq!(missing.status, 501);
    let get = http(
        &server.addr,
        "GET",
        "/swisspair.v1.PairingService/ListSystems",
        &[("Content-Type", "application/json")],
        b"",
    );
    assert_eq!(get.status, 405);
    assert_eq!(get.header("allow"), Some("POST"));
    // Whatever its content type, or none (a browser's address bar): 405, not 415.
    for (verb, headers) in [
        ("GET", &[][..]),
        ("HEAD", &[][..]),
        ("PUT", &[("Content-Type", "application/json")][..]),
        ("DELETE", &[("Content-Type", "application/grpc")][..]),
        ("GET", &[("Content-Type", "text/plain")][..]),
    ] {
        let answer = http(
            &server.addr,
            verb,
            "/swisspair.v1.PairingService/Pair",
            headers,
            b"",
        );
        assert_eq!(answer.status, 405, "{verb} {headers:?}");
        assert_eq!(answer.header("allow"), Some("POST"), "{verb} {headers:?}");
    }
    let get = http(
        &server.addr,
        "GET",
        "/swisspair.v1.PairingService/ListSystems",
        &[],
        b"",
    );
    assert_eq!(get.json()["code"], "unimplemented");
    assert!(
        get.json()["message"]
            .as_str()
            .is_some_and(|m| m.contains("POST") && m.contains("GET")),
        "{}",
        get.json()
    );
    let text = http(
        &server.addr,
        "POST",
        "/swisspair.v1.PairingService/ListSystems",
        &[("Content-Type", "text/plain")],
        b"{}",
    );
    assert_eq!(text.status, 415);
    let version = post_json(
        &server.addr,
        "ListSystems",
        &serde_json::json!({}),
        &[("Connect-Protocol-Version", "2")],
    );
    assert_eq!(version.status, 400);
}

/// A request quick to send and long to pair (as in `server_process.rs`): round 1 of a
/// 5,000-player Burstein event under profile `BBP` driven `PLAIN`.
fn huge_round() -> serde_json::Value {
    let players: Vec<serde_json::Value> = (0..5_000u32)
        .map(|i| serde_json::json!({"id": format!("p{i}"), "rating": 3000 - i * 2000 / 5000}))
        .collect();
    serde_json::json!({
        "tournament": {
            "system": "PAIRING_SYSTEM_BURSTEIN",
            "totalRounds": 9,
            "players": players,
            "options": {"values": {"profile": "BBP", "bbp_drive": "PLAIN"}},
        }
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_keeps_tokens_limits_deadlines_and_metrics() {
    let dir = temp_dir("production");
    let tokens = dir.join("tokens");
    std::fs::write(&tokens, "secret-one\n").expect("writes");
    let server = Process::start(&[
        "--auth-token-file",
        tokens.to_str().expect("utf-8"),
        "--max-message-bytes",
        "400000",
        "--metrics-listen",
        "127.0.0.1:0",
    ]);
    let empty = serde_json::json!({});
    let none = post_json(&server.addr, "ListSystems", &empty, &[]);
    assert_eq!(
        (none.status, none.json()["code"].clone()),
        (401, "unauthenticated".into())
    );
    let wrong = post_json(
        &server.addr,
        "ListSystems",
        &empty,
        &[("Authorization", "Bearer nope")],
    );
    assert_eq!(wrong.status, 401);
    let auth = [("Authorization", "Bearer secret-one")];
    assert_eq!(
        post_json(&server.addr, "ListSystems", &empty, &auth).status,
        200
    );
    let (_, cut, _) = corpus_round(&dir);
    let pair = serde_json::json!({"trf": cut, "system": "PAIRING_SYSTEM_DUTCH"});
    assert_eq!(post_json(&server.addr, "Pair", &pair, &auth).status, 200);

    // A body over --max-message-bytes.
    let big = serde_json::json!({"trf": "x".repeat(500_000)});
    let answer = post_json(&server.addr, "Pair", &big, &auth);
    assert_eq!(
        (answer.status, answer.json()["code"].clone()),
        (429, "resource_exhausted".into())
    );

    // The client's deadline (connect-timeout-ms) stops a long pairing.
    let answer = post_json(
        &server.addr,
        "Pair",
        &huge_round(),
        &[auth[0], ("Connect-Timeout-Ms", "300")],
    );
    assert_eq!(
        (answer.status, answer.json()["code"].clone()),
        (504, "deadline_exceeded".into()),
        "{}",
        String::from_utf8_lossy(&answer.body)
    );

    // The handler's metrics count Connect calls as gRPC ones: the answered Pair, and the one
    // stopped by its deadline (whether the admission's timer or tonic's met it first).
    let metrics = server.metrics.clone().expect("a metrics address");
    let text =
        String::from_utf8_lossy(&http(&metrics, "GET", "/metrics", &[], b"").body).into_owned();
    for code in ["OK", "DEADLINE_EXCEEDED"] {
        assert!(
            text.lines()
                .any(|l| l.starts_with("swisspair_requests_total{")
                    && l.contains("rpc=\"Pair\"")
                    && l.contains(&format!("code=\"{code}\""))),
            "{code}:\n{text}"
        );
    }
    assert!(
        text.contains("swisspair_cancellations_total{rpc=\"Pair\",reason=\"DEADLINE_EXCEEDED\"} 1"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The value of a gauge on the metrics endpoint.
fn gauge(metrics: &str, name: &str) -> Option<f64> {
    let text =
        String::from_utf8_lossy(&http(metrics, "GET", "/metrics", &[], b"").body).into_owned();
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.trim().parse().ok())
}

#[test]
fn a_json_client_that_goes_away_frees_its_worker() {
    let server = Process::start(&["--workers", "1", "--metrics-listen", "127.0.0.1:0"]);
    let metrics = server.metrics.clone().expect("a metrics address");
    let body = huge_round().to_string();
    let mut stream = TcpStream::connect(&server.addr).expect("connects");
    let head = format!(
        "POST /swisspair.v1.PairingService/Pair HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("writes");
    stream.write_all(body.as_bytes()).expect("writes");
    // Wait until the one worker is pairing it, then go away.
    let mut running = false;
    for _ in 0..600 {
        if gauge(&metrics, "swisspair_pairings_in_flight") == Some(1.0) {
            running = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(running, "the huge round never reached the worker");
    drop(stream);
    // The abandoned call is counted as cancelled by its client.
    let mut counted = false;
    for _ in 0..100 {
        let text =
            String::from_utf8_lossy(&http(&metrics, "GET", "/metrics", &[], b"").body).into_owned();
        if text.contains("swisspair_cancellations_total{rpc=\"Pair\",reason=\"CANCELLED\"} 1") {
            counted = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(counted, "the abandoned call is not counted as CANCELLED");
    // The worker is free again: a small round is answered (without the cancellation it
    // would wait minutes behind the huge one and meet its deadline).
    let dir = temp_dir("goes-away");
    let (_, cut, _) = corpus_round(&dir);
    let pair = serde_json::json!({"trf": cut, "system": "PAIRING_SYSTEM_DUTCH"});
    let answer = post_json(
        &server.addr,
        "Pair",
        &pair,
        &[("Connect-Timeout-Ms", "20000")],
    );
    assert_eq!(
        answer.status,
        200,
        "{}",
        String::from_utf8_lossy(&answer.body)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cors_answers_only_the_origins_named() {
    let preflight = |addr: &str, origin: &str| {
        http(
            addr,
            "OPTIONS",
            "/swisspair.v1.PairingService/Pair",
            &[
                ("Origin", origin),
                ("Access-Control-Request-Method", "POST"),
                (
                    "Access-Control-Request-Headers",
                    "content-type,authorization",
                ),
            ],
            b"",
        )
    };
    let closed = Process::start(&[]);
    let answer = preflight(&closed.addr, "https://club.example");
    assert_eq!(answer.header("access-control-allow-origin"), None);

    let open = Process::start(&["--cors-origin", "https://club.example"]);
    let answer = preflight(&open.addr, "https://club.example");
    assert_eq!(answer.status, 200);
    assert_eq!(
        answer.header("access-control-allow-origin"),
        Some("https://club.example")
    );
    let allowed = answer
        .header("access-control-allow-headers")
        .unwrap_or("")
        .to_ascii_lowercase();
    assert!(allowed.contains("content-type") && allowed.contains("authorization"));
    let other = preflight(&open.addr, "https://elsewhere.example");
    assert_eq!(other.header("access-control-allow-origin"), None);
    // The call itself carries the header too.
    let answer = post_json(
        &open.addr,
        "ListSystems",
        &serde_json::json!({}),
        &[("Origin", "https://club.example")],
    );
    assert_eq!(answer.status, 200);
    assert_eq!(
        answer.header("access-control-allow-origin"),
        Some("https://club.example")
    );
}

#[test]
fn the_page_is_served_and_no_page_turns_it_off() {
    let server = Process::start(&[]);
    let page = http(&server.addr, "GET", "/", &[], b"");
    assert_eq!(page.status, 200);
    assert!(
        page.header("content-type")
            .unwrap_or("")
            .starts_with("text/html")
    );
    let html = String::from_utf8_lossy(&page.body);
    assert!(html.contains("<script src=\"/app.js\""));
    // Everything it loads is served here.
    for path in [
        "/app.js",
        "/app.css",
        "/rules",
        "/rules.js",
        "/rules/systems.md",
        "/rules/fide.md",
    ] {
        let answer = http(&server.addr, "GET", path, &[], b"");
        assert_eq!(answer.status, 200, "{path}");
        assert!(!answer.body.is_empty(), "{path}");
    }
    let rules = http(&server.addr, "GET", "/rules/systems.md", &[], b"");
    assert!(String::from_utf8_lossy(&rules.body).contains("**AM-3.3**"));
    assert_eq!(http(&server.addr, "GET", "/nothing", &[], b"").status, 404);

    let api_only = Process::start(&["--no-page"]);
    assert_eq!(http(&api_only.addr, "GET", "/", &[], b"").status, 404);
    assert_eq!(http(&api_only.addr, "GET", "/app.js", &[], b"").status, 404);
    let systems = post_json(&api_only.addr, "ListSystems", &serde_json::json!({}), &[]);
    assert_eq!(systems.status, 200);
}

#[test]
fn a_bad_cors_origin_is_invalid_input() {
    let (code, _, err) = common::swisspair(&[
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--cors-origin",
        "https://club.example\u{7f}",
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("--cors-origin"), "{err}");
}

// ---- real clients from the npm registry ----

fn web_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/web")
}

/// Whether to skip the Node tests: only when asked, and never in CI.
fn skip_node_tests() -> bool {
    let asked = std::env::var_os("SWISSPAIR_SKIP_WEB").is_some();
    let ci = std::env::var_os("CI").is_some();
    if asked && !ci {
        eprintln!("SKIPPED: SWISSPAIR_SKIP_WEB is set: the Node and browser tests did not run");
        return true;
    }
    false
}

/// `npm ci` in `tests/web`, once per test binary (every Node test needs it).
fn npm_ci() {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    let result = DONE.get_or_init(|| {
        let out = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(web_dir())
            .output()
            .map_err(|e| format!("npm cannot run ({e}): install Node.js and npm (Debian: apt-get install nodejs npm)"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "npm ci failed:\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// Runs `node --test SCRIPT` in `tests/web` with `env`; fails the test with its output.
fn node_test(script: &str, env: &[(&str, &str)]) {
    let out = Command::new("node")
        .args(["--test", "--test-reporter=spec", script])
        .current_dir(web_dir())
        .envs(env.iter().copied())
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "node --test {script} failed:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn connect_es_clients_speak_connect_grpc_web_and_grpc_on_one_port() {
    if skip_node_tests() {
        return;
    }
    npm_ci();
    let dir = temp_dir("clients");
    let (trf_path, _, cli) = corpus_round(&dir);
    let expected = dir.join("expected.txt");
    std::fs::write(&expected, &cli).expect("writes");
    let descriptors = dir.join("swisspair.binpb");
    std::fs::write(&descriptors, proto::FILE_DESCRIPTOR_SET).expect("writes");
    let server = Process::start(&[]);
    let [ca, cert, key, _, _] = common::tls::certificates(&dir);
    let tls = Process::start(&[
        "--tls-cert",
        cert.to_str().expect("utf-8"),
        "--tls-key",
        key.to_str().expect("utf-8"),
    ]);
    node_test(
        "clients.mjs",
        &[
            ("SWISSPAIR_ADDR", &server.addr),
            ("SWISSPAIR_TLS_ADDR", &tls.addr),
            ("SWISSPAIR_TLS_CA", ca.to_str().expect("utf-8")),
            (
                "SWISSPAIR_DESCRIPTORS",
                descriptors.to_str().expect("utf-8"),
            ),
            ("SWISSPAIR_TRF", trf_path.to_str().expect("utf-8")),
            ("SWISSPAIR_SYSTEM", "PAIRING_SYSTEM_DUTCH"),
            ("SWISSPAIR_EXPECTED", expected.to_str().expect("utf-8")),
        ],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Debian's Chromium (`SWISSPAIR_CHROMIUM` names another): installed with apt-get when
/// missing and this runs as root (CI does), else the test fails saying so.
fn chromium() -> PathBuf {
    let path = PathBuf::from(
        std::env::var("SWISSPAIR_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()),
    );
    if path.exists() {
        return path;
    }
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    assert!(
        root,
        "{} is missing: install Debian's chromium (apt-get install chromium) or set SWISSPAIR_CHROMIUM",
        path.display()
    );
    eprintln!("installing Debian's chromium for the browser test (apt-get)");
    for args in [
        vec!["update", "-qq"],
        vec![
            "install",
            "-y",
            "-qq",
            "--no-install-recommends",
            "chromium",
        ],
    ] {
        let status = Command::new("apt-get")
            .args(&args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .expect("apt-get runs");
        assert!(status.success(), "apt-get {args:?} failed");
    }
    assert!(
        path.exists(),
        "{} still missing after apt-get",
        path.display()
    );
    path
}

#[test]
fn the_page_pairs_a_corpus_file_and_answers_why_not_in_headless_chromium_as_the_cli_does() {
    if skip_node_tests() {
        return;
    }
    let browser = chromium();
    npm_ci();
    let dir = temp_dir("page");
    let (trf_path, _, cli) = corpus_round(&dir);
    let expected = dir.join("expected.txt");
    std::fs::write(&expected, &cli).expect("writes");
    // The "why not?" question the page asks: the first board's White against the second
    // board's, not paired with each other by the engine, answered by `swisspair why`.
    let whites: Vec<String> = pair_lines(&cli)
        .iter()
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect();
    assert!(whites.len() >= 2, "two boards: {cli}");
    let question = format!("{}-{}", whites[0], whites[1]);
    let (code, why, err) = common::swisspair(&[
        "why",
        "--system",
        "dutch",
        trf_path.to_str().expect("utf-8 path"),
        "--pair",
        &question,
    ]);
    assert_eq!(code, 0, "swisspair why: {err}");
    let why_expected = dir.join("why.txt");
    std::fs::write(&why_expected, &why).expect("writes");
    // "Keep apart" (SEP-5): the same round with clubs (XCL, three clubs by starting rank),
    // paired with `club=weak` typed on the page; the CLI's `--separate club=weak` answer.
    let mut clubs = std::fs::read_to_string(&trf_path).expect("reads");
    let players = clubs.lines().filter(|l| l.starts_with("001 ")).count();
    for rank in 1..=players {
        clubs.push_str(&format!("XCL {rank} club{}\n", rank % 3));
    }
    let clubs_path = dir.join("clubs.trf");
    std::fs::write(&clubs_path, &clubs).expect("writes");
    let (code, separated, err) = common::swisspair(&[
        "pair",
        "--system",
        "dutch",
        clubs_path.to_str().expect("utf-8 path"),
        "-p",
        "--separate",
        "club=weak",
    ]);
    assert_eq!(code, 0, "swisspair pair --separate: {err}");
    let separated_expected = dir.join("separated.txt");
    std::fs::write(&separated_expected, &separated).expect("writes");
    let server = Process::start(&[]);
    // SWISSPAIR_PAGE_SCREENSHOT=docs/page.png refreshes the README's screenshot.
    let screenshot = std::env::var("SWISSPAIR_PAGE_SCREENSHOT").unwrap_or_default();
    node_test(
        "page.mjs",
        &[
            ("SWISSPAIR_ADDR", &server.addr),
            ("SWISSPAIR_TRF", trf_path.to_str().expect("utf-8")),
            ("SWISSPAIR_SYSTEM", "PAIRING_SYSTEM_DUTCH"),
            ("SWISSPAIR_EXPECTED", expected.to_str().expect("utf-8")),
            ("SWISSPAIR_CHROMIUM", browser.to_str().expect("utf-8")),
            ("SWISSPAIR_SCREENSHOT", &screenshot),
            ("SWISSPAIR_WHY_PAIR", &question),
            (
                "SWISSPAIR_WHY_EXPECTED",
                why_expected.to_str().expect("utf-8"),
            ),
            ("SWISSPAIR_CLUBS_TRF", clubs_path.to_str().expect("utf-8")),
            (
                "SWISSPAIR_SEPARATED_EXPECTED",
                separated_expected.to_str().expect("utf-8"),
            ),
        ],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_page_pairs_a_swiss_team_event_with_clubs_kept_apart_in_headless_chromium_as_the_cli_does() {
    if skip_node_tests() {
        return;
    }
    let browser = chromium();
    npm_ci();
    let dir = temp_dir("page-teams");
    let (path, _) = team_round_with_clubs(&dir);
    let answers = team_answers(&path);
    let mut files = Vec::new();
    for (name, cli) in ["plain", "weak", "absolute"].iter().zip(&answers) {
        let file = dir.join(format!("{name}.txt"));
        std::fs::write(&file, cli).expect("writes");
        files.push(file.to_str().expect("utf-8").to_string());
    }
    // A team of the first match without a separation, and the club the page must show.
    let tpn: usize = team_match_lines(&answers[0])[0]
        .split(' ')
        .next()
        .and_then(|t| t.parse().ok())
        .expect("a team pairing number");
    let club = format!("{tpn} {}", TEAM_CLUBS[tpn % 3]);
    let server = Process::start(&[]);
    node_test(
        "page_teams.mjs",
        &[
            ("SWISSPAIR_ADDR", &server.addr),
            ("SWISSPAIR_CHROMIUM", browser.to_str().expect("utf-8")),
            ("SWISSPAIR_TEAM_TRF", path.to_str().expect("utf-8")),
            ("SWISSPAIR_TEAM_PLAIN", &files[0]),
            ("SWISSPAIR_TEAM_WEAK", &files[1]),
            ("SWISSPAIR_TEAM_ABSOLUTE", &files[2]),
            ("SWISSPAIR_TEAM_CLUB", &club),
        ],
    );
    let _ = std::fs::remove_dir_all(&dir);
}
