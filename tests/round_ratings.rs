//! Ratings by round (`Player.round_ratings`, TRF `XRR`; FIDE checklist Q212-216): rating
//! tie-breaks take each opponent's rating in force in the round of the game (C.07 art. 10,
//! docs/decisions.md "Ratings by round"), over gRPC, JSON, TRF and the CLI.
mod common;

use common::post_json;
use common::server::Server;
use swisspair::proto;
use swisspair::service::ServerConfig;
use tonic::Code;

/// Four players, three rounds. a 2000, b 1900, c 1800, d 1700, and d is rated 1800 from
/// round 2 (a new list published during the event).
/// R1: a-d 1-0, b-c 1-0. R2: a-c 1-0, b-d 1-0. R3: a-b ½-½, c-d ½-½.
fn event(round_ratings: bool) -> proto::Tournament {
    let player = |id: &str, rating: u32| proto::Player {
        id: id.to_string(),
        name: id.to_uppercase(),
        rating,
        pairing_number: Some(u32::from(id.as_bytes()[0] - b'a' + 1)),
        ..proto::Player::default()
    };
    let game = |w: &str, b: &str, result: proto::GameResult| proto::Game {
        white_id: w.to_string(),
        black_id: b.to_string(),
        result: result as i32,
        board: 0,
        not_rated: false,
    };
    let round = |number: u32, games: Vec<proto::Game>| proto::Round {
        number,
        games,
        byes: Vec::new(),
    };
    use proto::GameResult::{Draw, WhiteWins};
    let mut d = player("d", 1700);
    if round_ratings {
        d.round_ratings = vec![proto::RoundRating {
            first_round: 2,
            rating: 1800,
        }];
    }
    proto::Tournament {
        system: proto::PairingSystem::Dutch as i32,
        total_rounds: 3,
        players: vec![player("a", 2000), player("b", 1900), player("c", 1800), d],
        rounds: vec![
            round(
                1,
                vec![game("a", "d", WhiteWins), game("b", "c", WhiteWins)],
            ),
            round(
                2,
                vec![game("a", "c", WhiteWins), game("b", "d", WhiteWins)],
            ),
            round(3, vec![game("a", "b", Draw), game("c", "d", Draw)]),
        ],
        ..proto::Tournament::default()
    }
}

/// (player id, values) sorted by id.
fn values(r: &proto::StandingsResponse) -> Vec<(String, Vec<String>)> {
    let mut v: Vec<(String, Vec<String>)> = r
        .rows
        .iter()
        .map(|x| (x.player_id.clone(), x.values.clone()))
        .collect();
    v.sort();
    v
}

fn row(id: &str, v: &[&str]) -> (String, Vec<String>) {
    (id.to_string(), v.iter().map(|s| s.to_string()).collect())
}

/// C.07 art. 10.1 (ARO, rounded half up) with d's rating by round: a met d in round 1
/// (1700): (1700 + 1800 + 1900) / 3 = 1800. b met d in round 2 (1800): (1800 + 1800 +
/// 2000) / 3 = 1866.67 → 1867. c met d in round 3 (1800): (1900 + 2000 + 1800) / 3 = 1900.
/// d: (2000 + 1900 + 1800) / 3 = 1900. RTNG is the rating at the start (decisions.md).
/// TPR (10.2): ARO + dp(p), p = 2.5/3 → .83 → +273 for a and b, 0.5/3 → .17 → −273 for c
/// and d: a 2073, b 2140, c 1627, d 1627.
fn expected_with_round_ratings() -> Vec<(String, Vec<String>)> {
    vec![
        row("a", &["2.5", "1800", "2073", "2000"]),
        row("b", &["2.5", "1867", "2140", "1900"]),
        row("c", &["0.5", "1900", "1627", "1800"]),
        row("d", &["0.5", "1900", "1627", "1700"]),
    ]
}

const TIE_BREAKS: [&str; 3] = ["ARO", "TPR", "RTNG"];

fn request(t: proto::Tournament) -> proto::StandingsRequest {
    proto::StandingsRequest {
        input: Some(proto::standings_request::Input::Tournament(t)),
        tie_breaks: TIE_BREAKS.iter().map(|s| s.to_string()).collect(),
        ..proto::StandingsRequest::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rating_tie_breaks_use_the_rating_of_the_round_over_grpc_and_json() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let r = client
        .standings(request(event(true)))
        .await
        .expect("standings")
        .into_inner();
    assert_eq!(values(&r), expected_with_round_ratings());
    // Without ratings by round, d is 1700 throughout: b (1800 + 1700 + 2000) / 3 = 1833.33
    // → 1833, TPR 2106; c (1900 + 2000 + 1700) / 3 = 1866.67 → 1867, TPR 1594.
    let r = client
        .standings(request(event(false)))
        .await
        .expect("standings")
        .into_inner();
    assert_eq!(
        values(&r),
        vec![
            row("a", &["2.5", "1800", "2073", "2000"]),
            row("b", &["2.5", "1833", "2106", "1900"]),
            row("c", &["0.5", "1867", "1594", "1800"]),
            row("d", &["0.5", "1900", "1627", "1700"]),
        ]
    );

    // Bad entries: INVALID_ARGUMENT naming the entry.
    for (entries, field, says) in [
        (vec![(0, 1800)], "round_ratings[0]", "1 or more"),
        (vec![(4, 1800)], "round_ratings[0]", "after the last round"),
        (vec![(2, 1800), (2, 1850)], "round_ratings[1]", "increasing"),
    ] {
        let mut t = event(false);
        t.players[3].round_ratings = entries
            .iter()
            .map(|&(first_round, rating)| proto::RoundRating {
                first_round,
                rating,
            })
            .collect();
        let e = client.standings(request(t)).await.expect_err("refused");
        assert_eq!(e.code(), Code::InvalidArgument);
        assert!(
            e.message()
                .contains(&format!("tournament.players[3].{field}")),
            "{}",
            e.message()
        );
        assert!(e.message().contains(says), "{}", e.message());
    }

    // JSON on the same port (pbjson: `roundRatings`, `firstRound`).
    let mut body = serde_json::to_value(event(false)).expect("JSON");
    body["players"][3]["roundRatings"] = serde_json::json!([{ "firstRound": 2, "rating": 1800 }]);
    let (status, answer) = post_json(
        &server.addr,
        "Standings",
        &serde_json::json!({ "tournament": body, "tieBreaks": TIE_BREAKS }),
    );
    assert_eq!(status, 200, "{answer}");
    let b = answer["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .find(|x| x["playerId"] == "b")
        .expect("b");
    assert_eq!(
        b["values"],
        serde_json::json!(["2.5", "1867", "2140", "1900"])
    );
    server.stop().await;
}

/// The same event as a TRF with `XRR 4 2 1800`: read, written back (round trip), and the
/// CLI's standings take it.
#[test]
fn ratings_by_round_in_a_trf_and_the_cli() {
    use swisspair::service::convert;
    let mut problems = Vec::new();
    let t = convert::tournament::tournament_from_proto(
        &event(true),
        &convert::Limits::default(),
        &mut problems,
    );
    assert!(problems.is_empty(), "{problems:?}");
    let doc = swisspair::trf::TrfDocument {
        tournament: t,
        ..Default::default()
    };
    let text = swisspair::trf::write(
        &doc,
        swisspair::trf::Dialect::Trf26,
        &swisspair::systems::Registry,
    )
    .expect("writes");
    assert!(text.contains("\nXRR 4 2 1800\n"), "{text}");
    let read = swisspair::trf::read(&text, &swisspair::systems::Registry).expect("reads");
    assert_eq!(read.tournament.players[3].round_ratings, [(2, 1800)]);
    let again = swisspair::trf::write(
        &read,
        swisspair::trf::Dialect::Trf26,
        &swisspair::systems::Registry,
    )
    .expect("writes");
    assert_eq!(again, text);

    let dir = std::env::temp_dir().join(format!("swisspair-xrr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("event.trf");
    std::fs::write(&path, &text).expect("writes");
    let input = path.to_str().expect("a path");
    let (code, out, err) = common::swisspair(&[
        "standings",
        "--tiebreaks",
        "ARO,TPR,RTNG",
        "--format",
        "tsv",
        input,
    ]);
    assert_eq!(code, 0, "{err}");
    // Start ranks 1-4 are a-d; values as in expected_with_round_ratings().
    for line in [
        "1\t2.5\t1800\t2073\t2000",
        "2\t2.5\t1867\t2140\t1900",
        "3\t0.5\t1900\t1627\t1800",
        "4\t0.5\t1900\t1627\t1700",
    ] {
        assert!(out.contains(&format!("{line}\n")), "{out}");
    }
    // A bad XRR: a message naming the record, non-zero exit.
    let bad = dir.join("bad.trf");
    std::fs::write(&bad, text.replace("XRR 4 2 1800", "XRR 4 9 1800")).expect("writes");
    let (code, _, err) = common::swisspair(&["standings", bad.to_str().expect("a path")]);
    assert_ne!(code, 0);
    assert!(
        err.contains("XRR") && err.contains("after the last round"),
        "{err}"
    );
}
