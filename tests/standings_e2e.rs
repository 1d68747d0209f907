//! The Standings RPC end to end, on the hand-computed crosstable of tests/standings.rs
//! (forfeit, half- and zero-point byes, PABs, a withdrawal, a late entry).
mod common;

use common::server::Server;
use swisspair::proto;
use swisspair::service::ServerConfig;
use tonic::Code;

fn trf() -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/standings/hand-crosstable.trf"),
    )
    .expect("test data")
}

fn request(tie_breaks: &[&str]) -> proto::StandingsRequest {
    proto::StandingsRequest {
        input: Some(proto::standings_request::Input::Trf(trf())),
        tie_breaks: tie_breaks.iter().map(|s| s.to_string()).collect(),
        ..proto::StandingsRequest::default()
    }
}

/// (pairing number, rank, values) of every row.
fn table(r: &proto::StandingsResponse) -> Vec<(u32, u32, Vec<String>)> {
    r.rows
        .iter()
        .map(|row| (row.pairing_number, row.rank, row.values.clone()))
        .collect()
}

fn row(n: u32, rank: u32, values: &[&str]) -> (u32, u32, Vec<String>) {
    (n, rank, values.iter().map(|s| s.to_string()).collect())
}

#[tokio::test]
async fn standings_rank_with_exact_tie_break_values() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let r = client
        .standings(request(&["BH/C1,BH", "SB", "DE"]))
        .await
        .expect("standings")
        .into_inner();
    assert_eq!(r.tie_breaks, ["PTS", "BH/C1", "BH", "SB", "DE"]);
    assert_eq!(r.tie_break_source, proto::TieBreakSource::Request as i32);
    assert_eq!(
        r.edition,
        proto::TieBreakEdition::TieBreakEdition2026 as i32
    );
    assert_eq!(r.after_round, 4);
    assert!(r.engine_version.starts_with("swisspair"));
    assert_eq!(
        table(&r),
        [
            row(1, 1, &["4.0", "4.5", "5.0", "5.00", "0"]),
            row(2, 2, &["2.0", "6.0", "8.0", "2.75", "0"]),
            row(5, 3, &["2.0", "5.0", "7.0", "3.00", "0"]),
            row(3, 4, &["1.5", "4.5", "6.0", "2.00", "0"]),
            row(4, 5, &["1.0", "8.5", "9.5", "1.25", "0"]),
            row(6, 6, &["0.5", "6.5", "7.0", "1.00", "0"]),
        ]
    );
    let a = &r.rows[0];
    assert_eq!(
        (
            a.player_id.as_str(),
            a.points.as_str(),
            a.rating_change.as_str()
        ),
        ("1", "4.0", "11.80")
    );
    assert_eq!((a.k_factor, a.performance), (20, Some(2500)));

    // The 2024 rules: A's forfeit win counts A's own 4.0 in BH (16.4).
    let mut req = request(&["BH"]);
    req.edition = proto::TieBreakEdition::TieBreakEdition2024 as i32;
    let r = client.standings(req).await.expect("standings").into_inner();
    assert_eq!(r.rows[0].values, ["4.0", "7.5"]);

    // After round 2, women only (B and F).
    let mut req = request(&["BH"]);
    req.after_round = 2;
    req.filter = Some(proto::StandingsFilter {
        sex: "w".to_string(),
        ..proto::StandingsFilter::default()
    });
    let r = client.standings(req).await.expect("standings").into_inner();
    assert_eq!(r.after_round, 2);
    let got: Vec<(u32, u32, String)> = r
        .rows
        .iter()
        .map(|x| (x.pairing_number, x.rank, x.points.clone()))
        .collect();
    assert_eq!(got, [(2, 1, "0.5".to_string()), (6, 2, "0.0".to_string())]);
    server.stop().await;
}

#[tokio::test]
async fn standings_take_the_list_from_the_trf_or_the_defaults() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let r = client
        .standings(request(&[]))
        .await
        .expect("standings")
        .into_inner();
    assert_eq!(r.tie_break_source, proto::TieBreakSource::Default as i32);
    assert_eq!(r.tie_breaks, ["PTS", "BH/C1", "BH", "SB", "DE"]);
    let mut req = request(&[]);
    let text = trf().replace("XXR 4\n", "XXR 4\n202 WIN,ARO\n");
    req.input = Some(proto::standings_request::Input::Trf(text));
    let r = client.standings(req).await.expect("standings").into_inner();
    assert_eq!(r.tie_break_source, proto::TieBreakSource::Trf as i32);
    assert_eq!(r.tie_breaks, ["PTS", "WIN", "ARO"]);
    // WIN puts E (PAB and a win: 2) above B (1), who were level on points.
    assert_eq!(r.rows[1].pairing_number, 5);
    assert_eq!(r.rows[1].values, ["2.0", "2", "1700"]);
    server.stop().await;
}

#[tokio::test]
async fn standings_reject_bad_codes_and_rounds() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let e = client
        .standings(request(&["BH/C1", "XYZ"]))
        .await
        .expect_err("unknown code");
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(e.message().contains("tie_breaks") && e.message().contains("XYZ"));
    let mut req = request(&["BH"]);
    req.after_round = 7;
    let e = client.standings(req).await.expect_err("round 7");
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(e.message().contains("after_round"), "{}", e.message());
    server.stop().await;
}

#[tokio::test]
async fn standings_of_a_proto_tournament_with_3_1_0_scoring() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let player = |id: &str, rating: u32| proto::Player {
        id: id.to_string(),
        name: id.to_uppercase(),
        rating,
        ..proto::Player::default()
    };
    let game = |w: &str, b: &str, result: proto::GameResult| proto::Game {
        white_id: w.to_string(),
        black_id: b.to_string(),
        result: result as i32,
        board: 0,
        not_rated: false,
    };
    // 3 / 1 / 0. R1: a–b 1-0, c PAB (3 points). R2: c–a draw, b half-point bye (1 point).
    // Points: a 3 + 1 = 4, c 3 + 1 = 4, b 0 + 1 = 1.
    let t = proto::Tournament {
        system: proto::PairingSystem::Dutch as i32,
        total_rounds: 2,
        scoring: Some(proto::Scoring {
            win: Some(3.0),
            draw: Some(1.0),
            ..proto::Scoring::default()
        }),
        players: vec![player("a", 2100), player("b", 2000), player("c", 1900)],
        rounds: vec![
            proto::Round {
                number: 1,
                games: vec![game("a", "b", proto::GameResult::WhiteWins)],
                byes: vec![proto::Bye {
                    player_id: "c".to_string(),
                    kind: proto::ByeKind::Pab as i32,
                }],
            },
            proto::Round {
                number: 2,
                games: vec![game("c", "a", proto::GameResult::Draw)],
                byes: vec![proto::Bye {
                    player_id: "b".to_string(),
                    kind: proto::ByeKind::HalfPoint as i32,
                }],
            },
        ],
        ..proto::Tournament::default()
    };
    let r = client
        .standings(proto::StandingsRequest {
            input: Some(proto::standings_request::Input::Tournament(t)),
            tie_breaks: vec!["BH".to_string(), "WIN".to_string()],
            ..proto::StandingsRequest::default()
        })
        .await
        .expect("standings")
        .into_inner();
    // BH (2026): a = b 1 + c 4 = 5. c = PAB: min(own 4, draw 1 × 2 rounds = 2) = 2, + a 4
    // = 6. b = a 4 + H bye min(1, 2) = 1 → 5. c ranks first on BH.
    let got: Vec<(String, u32, Vec<String>)> = r
        .rows
        .iter()
        .map(|x| (x.player_id.clone(), x.rank, x.values.clone()))
        .collect();
    let row = |id: &str, rank: u32, v: &[&str]| {
        (
            id.to_string(),
            rank,
            v.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        )
    };
    assert_eq!(
        got,
        [
            row("c", 1, &["4.0", "6.0", "1"]),
            row("a", 2, &["4.0", "5.0", "1"]),
            row("b", 3, &["1.0", "5.0", "0"]),
        ]
    );
    server.stop().await;
}
