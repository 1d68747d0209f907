//! Ratings (B.02) and norms (B.01) end to end: the Ratings and Norms RPCs over gRPC and
//! JSON (Connect, same port), `swisspair ratings` and `swisspair norms`, and the audit's
//! norms section; the values are the hand-computed ones of tests/ratings.rs and
//! tests/norms.rs.
mod common;

use common::post_json;

use common::norm_event;
use common::server::Server;
use swisspair::model::{Game, GameResult, Player, Round, SystemId, Tournament};
use swisspair::proto;
use swisspair::service::ServerConfig;
use swisspair::trf::{self, Dialect, TrfDocument};
use tonic::Code;

/// The case as a report dated `date`: a 2750 beats an 1800.
fn top_beats_club_player(date: &str) -> String {
    let t = Tournament {
        name: "Rapid check".into(),
        system: Some(SystemId::Dutch),
        total_rounds: 1,
        players: vec![
            Player {
                id: "1".into(),
                name: "Top".into(),
                rating: 2750,
                pairing_number: Some(1),
                ..Player::default()
            },
            Player {
                id: "2".into(),
                name: "Club".into(),
                rating: 1800,
                pairing_number: Some(2),
                ..Player::default()
            },
        ],
        rounds: vec![Round {
            games: vec![Game {
                white: 0,
                black: 1,
                result: GameResult::WhiteWins,
                board: None,
            }],
            byes: Vec::new(),
        }],
        ..Tournament::default()
    };
    let doc = TrfDocument {
        tournament: t,
        other_lines: vec![format!("042 {date}"), format!("052 {date}")],
        ..TrfDocument::default()
    };
    trf::write(&doc, Dialect::Trf26, &swisspair::systems::Registry).expect("writes")
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("swisspair-registry-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("writes");
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ratings_follow_the_event_dates_over_grpc_and_json() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    // March 2026: B.02 8.3.1 as amended from 1 October 2025: the 2750 uses the actual
    // difference (950: PD 1.00), so the win gains 0.00; the 1800 loses 0.08 × 20 = 1.60.
    let r = client
        .ratings(proto::RatingsRequest {
            input: Some(proto::ratings_request::Input::Trf(top_beats_club_player(
                "2026/03/15",
            ))),
            ..Default::default()
        })
        .await
        .expect("ratings")
        .into_inner();
    assert_eq!(r.rules, "B.02 (in force from 2025-10-01)");
    assert!(r.rules_reason.contains("2026/03/15"), "{}", r.rules_reason);
    let top = &r.players[0];
    assert_eq!(
        (
            top.change.as_str(),
            top.k,
            top.k_reason.as_str(),
            top.new_rating
        ),
        ("+0.00", 10, "reached_2400", 2750)
    );
    assert_eq!(top.games[0].difference, Some(950));
    assert_eq!(top.games[0].expected, "1.00");
    assert_eq!(r.players[1].change, "-1.60");
    // September 2025: 400 for everybody: PD 0.92, +0.08 × 10 = +0.80.
    let r = client
        .ratings(proto::RatingsRequest {
            input: Some(proto::ratings_request::Input::Trf(top_beats_club_player(
                "2025/09/20",
            ))),
            ..Default::default()
        })
        .await
        .expect("ratings")
        .into_inner();
    assert_eq!(r.rules, "B.02 (in force from 2024-03-01)");
    assert_eq!(r.players[0].change, "+0.80");
    assert!(r.players[0].games[0].capped);
    // A bad text is INVALID_ARGUMENT naming the field.
    let e = client
        .ratings(proto::RatingsRequest {
            input: Some(proto::ratings_request::Input::Trf(top_beats_club_player(
                "2026/03/15",
            ))),
            rules: "1999".into(),
            ..Default::default()
        })
        .await
        .expect_err("refused");
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(e.message().contains("rules"), "{}", e.message());

    // JSON on the same port: the text asked overrides the date.
    let (status, answer) = post_json(
        &server.addr,
        "Ratings",
        &serde_json::json!({ "trf": top_beats_club_player("2026/03/15"), "rules": "2024" }),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["players"][0]["change"], "+0.80");
    assert_eq!(answer["rulesReason"], "as asked");
    // The standings' rating change follows the file's date too.
    let s = client
        .standings(proto::StandingsRequest {
            input: Some(proto::standings_request::Input::Trf(top_beats_club_player(
                "2026/03/15",
            ))),
            ..Default::default()
        })
        .await
        .expect("standings")
        .into_inner();
    assert_eq!(s.rows[0].rating_change, "0.00");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn norms_over_grpc_json_and_the_audit() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let text = norm_event::trf_text(&norm_event::tournament());
    let r = client
        .norms(proto::NormsRequest {
            input: Some(proto::norms_request::Input::Trf(text.clone())),
            met_only: true,
            ..Default::default()
        })
        .await
        .expect("norms")
        .into_inner();
    let met: Vec<(String, String)> = r
        .checks
        .iter()
        .map(|c| (c.player_id.clone(), c.title.clone()))
        .collect();
    // tests/norms.rs: player 1's GM norm, player 10's IM norm.
    assert_eq!(
        met,
        [
            ("1".to_string(), "GM".to_string()),
            ("10".into(), "IM".into())
        ]
    );
    let gm = &r.checks[0];
    assert!(gm.requirements.iter().all(|q| q.met));
    assert_eq!(gm.requirements.len(), 10);
    let cert = gm.certificate.as_ref().expect("a certificate");
    assert_eq!(
        (
            cert.event.as_str(),
            cert.start_date.as_str(),
            cert.end_date.as_str(),
            cert.host_federation.as_str(),
            cert.title.as_str(),
            cert.games,
            cert.score.as_str(),
            cert.average,
            cert.performance
        ),
        (
            "Norm Open",
            "2026/03/10",
            "2026/03/18",
            "FRA",
            "GM",
            9,
            "6.0",
            2476,
            2601
        )
    );
    assert_eq!(gm.opponents.len(), 9);
    assert_eq!(
        gm.opponents
            .iter()
            .filter(|o| o.raised_to_floor)
            .map(|o| (o.player_id.as_str(), o.rating, o.rating_used))
            .collect::<Vec<_>>(),
        [("10", 2150, 2200)]
    );
    // The same from a proto tournament: the same numbers (no dates, no certificate dates).
    let r2 = client
        .norms(proto::NormsRequest {
            input: Some(proto::norms_request::Input::Tournament(
                swisspair::service::convert::tournament_to_proto(&norm_event::tournament()),
            )),
            player_id: "1".into(),
            ..Default::default()
        })
        .await
        .expect("norms")
        .into_inner();
    assert_eq!(r2.checks.len(), 1);
    assert_eq!(
        (r2.checks[0].average, r2.checks[0].performance),
        (2476, 2601)
    );
    // An unknown player is INVALID_ARGUMENT naming the field.
    let e = client
        .norms(proto::NormsRequest {
            input: Some(proto::norms_request::Input::Trf(text.clone())),
            player_id: "99".into(),
            ..Default::default()
        })
        .await
        .expect_err("refused");
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(e.message().contains("player_id"), "{}", e.message());

    // JSON.
    let (status, answer) = post_json(
        &server.addr,
        "Norms",
        &serde_json::json!({ "trf": text, "playerId": "1" }),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["checks"][0]["title"], "GM");
    assert_eq!(answer["checks"][0]["met"], true);
    assert_eq!(answer["checks"][0]["performance"], 2601);

    // The audit lists the norms met as information.
    let a = client
        .audit(proto::AuditRequest {
            name: "norm.trf".into(),
            input: Some(proto::audit_request::Input::Trf(text)),
            ..Default::default()
        })
        .await
        .expect("audit")
        .into_inner();
    let norms: Vec<(&str, &str)> = a
        .norms
        .iter()
        .map(|c| (c.player_id.as_str(), c.title.as_str()))
        .collect();
    assert_eq!(norms, [("1", "GM"), ("10", "IM")]);
    assert!(a.findings.iter().all(|f| !f.message.contains("norm")));
    server.stop().await;
}

#[test]
fn the_cli_rates_and_checks_norms() {
    let report = temp_file("rating.trf", &top_beats_club_player("2026/03/15"));
    let path = report.to_str().expect("a path");
    let (code, out, err) = common::swisspair(&["ratings", path]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("B.02 (in force from 2025-10-01)"), "{out}");
    assert!(out.contains("change +0.00"), "{out}");
    let (code, out, _) = common::swisspair(&["ratings", path, "--rules", "2024", "--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(json["players"][0]["change"], "+0.80");
    let (code, _, err) = common::swisspair(&["ratings", path, "--rules", "1999"]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("rules"), "{err}");

    let report = temp_file("norm.trf", &norm_event::trf_text(&norm_event::tournament()));
    let path = report.to_str().expect("a path");
    let (code, out, err) = common::swisspair(&["norms", path, "--met"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("GM  met: 6.0/9, Ra 2476, Rp 2601"), "{out}");
    assert!(
        out.contains("certificate: Norm Open (2026/03/10 to 2026/03/18, host FRA)"),
        "{out}"
    );
    assert!(out.contains("1.4.5b"), "{out}");
    let (code, out, _) = common::swisspair(&["norms", path, "--player", "10", "--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let titles: Vec<&str> = json["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .map(|c| c["title"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(titles, ["GM", "IM"]);
    let (code, _, err) = common::swisspair(&["norms", path, "--exemption", "olympiad"]);
    assert_eq!(code, 3);
    assert!(err.contains("--exemption"), "{err}");
    // The audit's norms section (information, after the findings and notes).
    let (_, out, _) = common::swisspair(&["audit", path]);
    assert!(
        out.contains("norm: player 1 (Player 01): GM norm, 6.0/9, Ra 2476, Rp 2601"),
        "{out}"
    );
}

/// Three players, two rounds: A (2100) beats B (2000), then C (2000) in a game recorded as
/// not rated (`W`/`L`); B and C get the PAB in the other round.
fn a_not_rated_win() -> proto::Tournament {
    let player = |id: &str, rating: u32| proto::Player {
        id: id.into(),
        name: format!("Player {id}"),
        rating,
        pairing_number: Some(id.parse().expect("number")),
        ..Default::default()
    };
    let game = |w: &str, b: &str, result: proto::GameResult, not_rated: bool| proto::Game {
        white_id: w.into(),
        black_id: b.into(),
        result: result as i32,
        not_rated,
        ..Default::default()
    };
    let bye = |p: &str| proto::Bye {
        player_id: p.into(),
        kind: proto::ByeKind::Pab as i32,
    };
    proto::Tournament {
        name: "Not rated".into(),
        system: proto::PairingSystem::Dutch as i32,
        total_rounds: 2,
        players: vec![player("1", 2100), player("2", 2000), player("3", 2000)],
        rounds: vec![
            proto::Round {
                number: 1,
                games: vec![game("1", "2", proto::GameResult::WhiteWins, false)],
                byes: vec![bye("3")],
            },
            proto::Round {
                number: 2,
                games: vec![game("3", "1", proto::GameResult::BlackWins, true)],
                byes: vec![bye("2")],
            },
        ],
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_not_rated_over_grpc_json_and_trf() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    // tests/ratings.rs::a_game_recorded_as_not_rated_keeps_its_points_and_is_left_out:
    // only round 1 is rated for A: (1 − 0.64) × 20 = +7.20 (B.02 8.1.2, 8.3.3).
    let request = proto::RatingsRequest {
        input: Some(proto::ratings_request::Input::Tournament(a_not_rated_win())),
        rules: "2025".into(),
        ..Default::default()
    };
    let r = client
        .ratings(request.clone())
        .await
        .expect("ratings")
        .into_inner();
    assert_eq!(r.players[0].change, "+7.20");
    let g = &r.players[0].games[1];
    assert!(!g.rated);
    assert_eq!(g.excluded, "not_rated");
    assert!(g.reason.contains("W/D/L"), "{}", g.reason);
    assert_eq!(r.players[2].games[1].excluded, "not_rated");
    // The standings count the game: A has 2 points.
    let s = client
        .standings(proto::StandingsRequest {
            input: Some(proto::standings_request::Input::Tournament(
                a_not_rated_win(),
            )),
            ..Default::default()
        })
        .await
        .expect("standings")
        .into_inner();
    assert_eq!(s.rows[0].points, "2.0");
    // The standings' rating change leaves the game out too; C gets none from it.
    assert_eq!(s.rows[0].rating_change, "7.20");
    // A mark on a forfeit is refused, naming the field.
    let mut bad = a_not_rated_win();
    bad.rounds[1].games[0].result = proto::GameResult::BlackWinsForfeit as i32;
    let e = client
        .ratings(proto::RatingsRequest {
            input: Some(proto::ratings_request::Input::Tournament(bad)),
            ..Default::default()
        })
        .await
        .expect_err("refused");
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(
        e.message()
            .contains("tournament.rounds[1].games[0].not_rated"),
        "{}",
        e.message()
    );
    // JSON: the field is `notRated`, in the request and in the answer's reason.
    let body = serde_json::json!({
        "tournament": serde_json::to_value(a_not_rated_win()).expect("json"),
        "rules": "2025",
    });
    assert_eq!(
        body["tournament"]["rounds"][1]["games"][0]["notRated"],
        true
    );
    let (status, answer) = post_json(&server.addr, "Ratings", &body);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["players"][0]["change"], "+7.20");
    assert_eq!(answer["players"][0]["games"][1]["excluded"], "not_rated");
    // The same event as TRF: `W` / `L` in round 2.
    let trf = [
        "012 Not rated",
        "XXR 2",
        "001    1      Player 1                          2100                             2.0    1     2 w 1     3 b W",
        "001    2      Player 2                          2000                             1.0    2     1 b 0  0000 - U",
        "001    3      Player 3                          2000                             1.0    3  0000 - U     1 w L",
    ]
    .join("\n");
    let r = client
        .ratings(proto::RatingsRequest {
            input: Some(proto::ratings_request::Input::Trf(trf)),
            rules: "2025".into(),
            ..Default::default()
        })
        .await
        .expect("ratings")
        .into_inner();
    assert_eq!(r.players[0].change, "+7.20");
    assert_eq!(r.players[0].games[1].excluded, "not_rated");
    server.stop().await;
}

/// norm_event with player 1 untitled, so his IM norm is checked as well (tests/norms.rs:
/// `each_full_point_above_the_norm_counts_as_one_more_game_1_4_1d`).
fn untitled_candidate() -> Tournament {
    let mut t = norm_event::tournament();
    t.players[0].title = String::new();
    t
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_norms_share_of_an_application_and_the_double_round_robin_over_grpc_and_json() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let text = norm_event::trf_text(&untitled_candidate());
    let r = client
        .norms(proto::NormsRequest {
            input: Some(proto::norms_request::Input::Trf(text.clone())),
            player_id: "1".into(),
            application: true,
            ..Default::default()
        })
        .await
        .expect("norms")
        .into_inner();
    // tests/norms.rs: GM needs 6 of 9 and scores 6 (9 games); IM (Ra 2470) needs 4½ and
    // scores 6, one full point above: 10 games (1.4.1d).
    let shares: Vec<(String, u32, String, u32, bool)> = r
        .checks
        .iter()
        .map(|c| {
            let a = c.application.as_ref().expect("met, asked for");
            (
                c.title.clone(),
                a.games_counted,
                a.score_needed.clone(),
                a.points_above,
                a.normal_foreigner_requirement,
            )
        })
        .collect();
    assert_eq!(
        shares,
        [
            ("GM".to_string(), 9, "6.0".to_string(), 0, true),
            ("IM".to_string(), 10, "4.5".to_string(), 1, true)
        ]
    );
    // Without `application` the answer has none (as before).
    let plain = client
        .norms(proto::NormsRequest {
            input: Some(proto::norms_request::Input::Trf(text.clone())),
            player_id: "1".into(),
            ..Default::default()
        })
        .await
        .expect("norms")
        .into_inner();
    assert!(plain.checks.iter().all(|c| c.application.is_none()));
    // As a double round robin (1.4.5): of the 9 opponents, 5 (half, rounded up) must hold
    // GM; 4 do (GER, ESP, ITA, ENG).
    let drr = client
        .norms(proto::NormsRequest {
            input: Some(proto::norms_request::Input::Trf(text.clone())),
            player_id: "1".into(),
            double_round_robin: true,
            ..Default::default()
        })
        .await
        .expect("norms")
        .into_inner();
    let gm = &drr.checks[0];
    assert!(!gm.met);
    let failed: Vec<(&str, &str, &str)> = gm
        .requirements
        .iter()
        .filter(|q| !q.met)
        .map(|q| (q.article.as_str(), q.value.as_str(), q.needed.as_str()))
        .collect();
    assert_eq!(
        failed,
        [(
            "1.4.5b",
            "4",
            "at least 5 (half of 9 opponents, rounded up) of GM"
        )]
    );
    // JSON: the same fields by their JSON names.
    let (status, answer) = post_json(
        &server.addr,
        "Norms",
        &serde_json::json!({ "trf": text, "playerId": "1", "application": true }),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["checks"][1]["title"], "IM");
    assert_eq!(answer["checks"][1]["application"]["gamesCounted"], 10);
    assert_eq!(answer["checks"][1]["application"]["pointsAbove"], 1);
    server.stop().await;
}

#[test]
fn the_cli_gives_a_norms_share_of_an_application_and_the_double_round_robin() {
    let report = temp_file("untitled.trf", &norm_event::trf_text(&untitled_candidate()));
    let path = report.to_str().expect("a path");
    let (code, out, err) = common::swisspair(&["norms", path, "--player", "1", "--application"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "application: counts as 10 games (1.4.1d: 1 points above the 4.5 needed); under the normal foreigner requirement (1.4.3e)"
        ),
        "{out}"
    );
    let (code, out, err) = common::swisspair(&[
        "norms",
        path,
        "--player",
        "1",
        "--double-round-robin",
        "--detail",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("half of 9 opponents, rounded up"), "{out}");
    assert!(!out.contains("application:"), "{out}");
}
