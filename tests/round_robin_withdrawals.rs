//! GRC 6.6 (FIDE General Regulations for Competitions; the older Tournament Rules C.06
//! art. V.4) in a round robin's standings, on request: a player who withdrew having
//! completed less than 50 % of his games keeps his results for rating, but the points
//! scored by him or against him are not counted in the final standings (VCL4THP Q103).
//! Worked by hand on a 6-player round robin.
mod common;

use common::post_json;
use common::server::Server;
use common::swiss::Builder;
use swisspair::model::{SystemId, Tournament};
use swisspair::proto;
use swisspair::service::ServerConfig;
use swisspair::standings::{self, Options, codes::TieBreak};

/// Six players, five rounds. Player 6 wins round 1 (against 1), draws round 2 (against
/// 4), then withdraws (from round 3): his games of rounds 3-5 are forfeits.
///
/// | round | games |
/// |---|---|
/// | 1 | 1-6 0-1, 2-5 1-0, 3-4 ½ |
/// | 2 | 6-4 ½, 5-3 0-1, 1-2 ½ |
/// | 3 | 2-6 +-, 3-1 0-1, 4-5 1-0 |
/// | 4 | 6-5 -+, 1-4 1-0, 2-3 ½ |
/// | 5 | 3-6 +-, 4-2 0-1, 5-1 ½ |
///
/// Every game counted: 1: 3, 2: 4, 3: 3, 4: 2, 5: 1½, 6: 1½.
fn event(round_3: &'static str) -> Tournament {
    let mut t = Builder::new(SystemId::RoundRobin, 6, 5)
        .round(&[(1, 6, "0-1"), (2, 5, "1-0"), (3, 4, "=")], &[])
        .round(&[(6, 4, "="), (5, 3, "0-1"), (1, 2, "=")], &[])
        .round(&[(2, 6, round_3), (3, 1, "0-1"), (4, 5, "1-0")], &[])
        .round(&[(6, 5, "-+"), (1, 4, "1-0"), (2, 3, "=")], &[])
        .round(&[(3, 6, "+-"), (4, 2, "0-1"), (5, 1, "=")], &[])
        .build();
    t.players[5].withdrawn_from_round = Some(if round_3 == "+-" { 3 } else { 4 });
    t
}

fn options(on: bool) -> Options {
    Options {
        tie_breaks: TieBreak::parse_list("SB").expect("SB"),
        round_robin_withdrawals: on,
        ..Options::default()
    }
}

/// (player id, points, SB) in the standings' order.
fn table(s: &standings::Standings, t: &Tournament) -> Vec<(String, String, String)> {
    s.rows
        .iter()
        .map(|r| {
            (
                t.players[r.player].id.clone(),
                r.points.to_string(),
                r.values[1].map(|v| v.to_string()).unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn a_player_who_withdrew_under_half_has_his_games_left_out() {
    let t = event("+-");
    // Off (the default): every game counts; player 2 leads with 4.
    let off = standings::compute(&t, &options(false)).expect("standings");
    assert!(off.dropped_games.is_empty());
    assert_eq!(table(&off, &t)[0].0, "2");
    assert_eq!(table(&off, &t)[0].1, "4.0");
    // On: player 6 completed 2 of his 5 games (rounds 1 and 2 over the board; the rest
    // are forfeits), less than 50 %: his five games are left out (GRC 6.6). Points: 1: 3
    // (his loss to 6 gave nothing), 2: 4 − 1 (the forfeit of round 3) = 3, 3: 3 − 1 = 2,
    // 4: 2 − ½ = 1½, 5: 1½ − 1 = ½, 6: 0.
    // SB (C.07 9.1) on those scores: 1: ½×3 (2) + 1×2 (3) + 1×1½ (4) + ½×½ (5) = 5.25;
    // 2: 1×½ (5) + ½×3 (1) + ½×2 (3) + 1×1½ (4) = 4.5; 3: 1×½ (5) + 0 + ½×3 (2) + ½×1½
    // (4) = 2.75; 4: ½×2 (3) + 1×½ (5) + 0 + 0 = 1.5; 5: 0 + 0 + 0 + ½×3 (1) = 1.5
    // (4 is still ahead on points); 6: 0. Player 1 now leads, on SB.
    let on = standings::compute(&t, &options(true)).expect("standings");
    let rows = table(&on, &t);
    let expected: Vec<(String, String, String)> = [
        ("1", "3.0", "5.25"),
        ("2", "3.0", "4.50"),
        ("3", "2.0", "2.75"),
        ("4", "1.5", "1.50"),
        ("5", "0.5", "1.50"),
        ("6", "0.0", "0.00"),
    ]
    .iter()
    .map(|&(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
    .collect();
    assert_eq!(rows, expected);
    // Every game of player 6 is listed with the article.
    let dropped: Vec<(u32, String)> = on
        .dropped_games
        .iter()
        .map(|d| {
            (
                d.round,
                d.opponent
                    .map(|q| t.players[q].id.clone())
                    .unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        dropped,
        [
            (1, "1".to_string()),
            (2, "4".to_string()),
            (3, "2".to_string()),
            (4, "5".to_string()),
            (5, "3".to_string())
        ]
    );
    assert!(
        on.dropped_games.iter().all(|d| d
            .reason
            .starts_with("GRC 6.6: player 6 withdrew from round 3 having completed 2 of 5 games")),
        "{:?}",
        on.dropped_games[0].reason
    );
    // His results stay for rating: the rating change is the same either way.
    let change = |s: &standings::Standings, id: &str| {
        s.rows
            .iter()
            .find(|r| t.players[r.player].id == id)
            .and_then(|r| r.rating_change)
    };
    for id in ["1", "2", "6"] {
        assert_eq!(change(&on, id), change(&off, id), "player {id}");
    }
}

#[test]
fn at_half_or_more_everything_counts() {
    // Player 6 now plays round 3 (and loses to 2), withdrawing from round 4: 3 of 5 games
    // completed, at least 50 %: GRC 6.6 keeps everything, the setting changes nothing.
    let t = event("1-0");
    let off = standings::compute(&t, &options(false)).expect("standings");
    let on = standings::compute(&t, &options(true)).expect("standings");
    assert!(on.dropped_games.is_empty());
    assert_eq!(on, off);
}

#[test]
fn only_a_round_robin_is_affected() {
    // The same games read as a Swiss: GRC 6.6 is for round robins; nothing is dropped.
    let mut t = event("+-");
    t.system = Some(SystemId::Dutch);
    let options = Options {
        round_robin_withdrawals: true,
        ..Options::default()
    };
    let s = standings::compute(&t, &options).expect("standings");
    assert!(s.dropped_games.is_empty());
}

fn trf_text() -> String {
    let doc = swisspair::trf::TrfDocument {
        tournament: event("+-"),
        ..Default::default()
    };
    swisspair::trf::write(
        &doc,
        swisspair::trf::Dialect::Trf26,
        &swisspair::systems::Registry,
    )
    .expect("writes")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn round_robin_withdrawals_over_grpc_json_and_the_cli() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let request = |on: bool| proto::StandingsRequest {
        input: Some(proto::standings_request::Input::Trf(trf_text())),
        tie_breaks: vec!["SB".into()],
        round_robin_withdrawals: on,
        ..Default::default()
    };
    let off = client
        .standings(request(false))
        .await
        .expect("standings")
        .into_inner();
    assert!(off.dropped_games.is_empty());
    assert_eq!(
        (off.rows[0].player_id.as_str(), off.rows[0].points.as_str()),
        ("2", "4.0")
    );
    let on = client
        .standings(request(true))
        .await
        .expect("standings")
        .into_inner();
    let order: Vec<(&str, &str)> = on
        .rows
        .iter()
        .map(|r| (r.player_id.as_str(), r.points.as_str()))
        .collect();
    assert_eq!(
        order,
        [
            ("1", "3.0"),
            ("2", "3.0"),
            ("3", "2.0"),
            ("4", "1.5"),
            ("5", "0.5"),
            ("6", "0.0")
        ]
    );
    assert_eq!(on.dropped_games.len(), 5);
    assert_eq!(
        (
            on.dropped_games[0].round,
            on.dropped_games[0].player_id.as_str(),
            on.dropped_games[0].opponent_id.as_str()
        ),
        (1, "6", "1")
    );
    assert!(on.dropped_games[0].reason.contains("GRC 6.6"));

    // JSON on the same port.
    let (status, answer) = post_json(
        &server.addr,
        "Standings",
        &serde_json::json!({ "trf": trf_text(), "tieBreaks": ["SB"], "roundRobinWithdrawals": true }),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["rows"][0]["playerId"], "1");
    assert_eq!(answer["droppedGames"][2]["opponentId"], "2");
    server.stop().await;

    // The CLI.
    let dir = std::env::temp_dir().join(format!("swisspair-grc66-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("rr.trf");
    std::fs::write(&path, trf_text()).expect("writes");
    let path = path.to_str().expect("a path");
    let (code, out, err) = common::swisspair(&[
        "standings",
        path,
        "--tiebreaks",
        "SB",
        "--round-robin-withdrawals",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Not counted: round 3, 6 against 2: GRC 6.6"),
        "{out}"
    );
    let (code, out, _) = common::swisspair(&["standings", path, "--tiebreaks", "SB", "--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert!(json.get("dropped_games").is_none());
    assert_eq!(json["rows"][0]["id"], "2");
    let (_, out, _) = common::swisspair(&[
        "standings",
        path,
        "--tiebreaks",
        "SB",
        "--round-robin-withdrawals",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(json["rows"][0]["id"], "1");
    assert_eq!(
        json["dropped_games"][0]["reason"]
            .as_str()
            .map(|r| r.starts_with("GRC 6.6")),
        Some(true)
    );
}
