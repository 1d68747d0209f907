//! Backgammon end to end: the real server on an ephemeral port, called through the generated
//! client: Pair without colours and with [absent], PairProvisional then Pair resolving to
//! the same pairs, PairFinals, ListSystems, and bad input as INVALID_ARGUMENT.
mod common;

use common::server::Server;
use swisspair::proto;
use swisspair::service::ServerConfig;
use tonic::Code;

fn event(n: usize) -> proto::Tournament {
    proto::Tournament {
        name: "Backgammon club".to_string(),
        system: proto::PairingSystem::Backgammon as i32,
        options: Some(proto::SystemOptions {
            backgammon: Some(proto::BackgammonOptions { match_length: 11 }),
            ..proto::SystemOptions::default()
        }),
        players: (1..=n)
            .map(|i| proto::Player {
                id: format!("p{i}"),
                name: format!("Player {i}"),
                rating: 2000 - i as u32,
                ..proto::Player::default()
            })
            .collect(),
        ..proto::Tournament::default()
    }
}

fn pair_request(t: proto::Tournament, seed: u64) -> proto::PairRequest {
    proto::PairRequest {
        input: Some(proto::pair_request::Input::Tournament(t)),
        seed: Some(seed),
        explanation_detail: proto::ExplanationDetail::Full as i32,
        ..proto::PairRequest::default()
    }
}

/// A round as the client records it: boards (first drawn as white_id) with `result`, and
/// the games against [absent].
fn record(r: &proto::PairResponse, result: impl Fn(usize) -> proto::GameResult) -> proto::Round {
    proto::Round {
        number: r.round,
        games: r
            .boards
            .iter()
            .enumerate()
            .map(|(i, b)| proto::Game {
                white_id: b.first_id.clone(),
                black_id: b.second_id.clone(),
                result: result(i) as i32,
                board: b.number,
                not_rated: false,
            })
            .collect(),
        byes: r
            .byes
            .iter()
            .map(|b| proto::Bye {
                player_id: b.player_id.clone(),
                kind: b.kind,
            })
            .collect(),
    }
}

fn winner(r: &proto::Round, board: u32, winner: bool) -> String {
    let g = r.games.iter().find(|g| g.board == board).expect("board");
    let white_won = g.result == proto::GameResult::WhiteWins as i32;
    if white_won == winner {
        g.white_id.clone()
    } else {
        g.black_id.clone()
    }
}

fn resolve(r: &proto::Round, p: &proto::Placeholder) -> String {
    match proto::PlaceholderKind::try_from(p.kind) {
        Ok(proto::PlaceholderKind::WinnerOfBoard) => winner(r, p.round1_board, true),
        Ok(proto::PlaceholderKind::LoserOfBoard) => winner(r, p.round1_board, false),
        _ => p.candidate_ids[0].clone(),
    }
}

#[tokio::test]
async fn a_backgammon_event_through_the_server() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;

    // ListSystems: backgammon with BG-1's table.
    let systems = client
        .list_systems(proto::ListSystemsRequest {})
        .await
        .expect("systems")
        .into_inner();
    let bg = systems
        .systems
        .iter()
        .find(|s| s.system == proto::PairingSystem::Backgammon as i32)
        .expect("backgammon is listed");
    assert_eq!(bg.name, "backgammon");
    assert!(bg.options.iter().any(|o| o.name == "match_length"));
    assert!(
        bg.default_rounds
            .iter()
            .any(|d| (d.min_players, d.max_players, d.rounds) == (7, 14, 3))
    );
    assert!(
        bg.default_rounds
            .iter()
            .any(|d| (d.min_players, d.max_players, d.rounds) == (31, 62, 5))
    );

    // Round 1 of seven: no colours, [absent] for the odd field, BG-1's 3 rounds.
    let mut t = event(7);
    let r1 = client
        .pair(pair_request(t.clone(), 9))
        .await
        .expect("round 1")
        .into_inner();
    assert_eq!(r1.round, 1);
    assert_eq!(r1.total_rounds, 3);
    assert_eq!(r1.match_length, 11);
    assert_eq!(r1.system, proto::PairingSystem::Backgammon as i32);
    assert_eq!(r1.boards.len(), 3);
    for b in &r1.boards {
        assert!(
            b.white_id.is_empty() && b.black_id.is_empty(),
            "no colours: {b:?}"
        );
        assert_eq!((b.white_pairing_number, b.black_pairing_number), (0, 0));
        assert!(!b.first_id.is_empty() && !b.second_id.is_empty());
        assert!(b.first_pairing_number > 0);
    }
    assert_eq!(r1.byes.len(), 1);
    assert_eq!(r1.byes[0].kind, proto::ByeKind::AbsentOpponent as i32);
    assert_eq!(r1.byes[0].points, 1.0);
    assert!(
        r1.warnings.is_empty(),
        "no colour lot warning: {:?}",
        r1.warnings
    );
    let again = client
        .pair(pair_request(t.clone(), 9))
        .await
        .expect("again")
        .into_inner();
    assert_eq!(
        prost::Message::encode_to_vec(&r1),
        prost::Message::encode_to_vec(&again)
    );

    // Round 1 is under way: the early draw of round 2.
    t.rounds.push(record(&r1, |_| proto::GameResult::Pending));
    let early = client
        .pair_provisional(proto::PairProvisionalRequest {
            input: Some(proto::pair_provisional_request::Input::Tournament(
                t.clone(),
            )),
            seed: Some(9),
            explanation_detail: proto::ExplanationDetail::Full as i32,
            ..proto::PairProvisionalRequest::default()
        })
        .await
        .expect("provisional")
        .into_inner();
    assert_eq!(early.round, 2);
    assert_eq!(early.seed, 9);
    assert_eq!(early.total_rounds, 3);
    assert_eq!(early.boards.len(), 3);
    assert_eq!(early.absent_opponent.len(), 1);
    let loser = &early.absent_opponent[0];
    assert_eq!(loser.kind, proto::PlaceholderKind::LoserOfBoard as i32);
    assert_eq!(
        loser.label,
        format!("loser of board {}", loser.round1_board)
    );
    assert_eq!(loser.candidate_ids.len(), 2);

    // Results in: Pair for round 2 gives the same pairs, resolved.
    t.rounds.pop();
    let round1 = record(&r1, |i| {
        if i % 2 == 0 {
            proto::GameResult::WhiteWins
        } else {
            proto::GameResult::BlackWins
        }
    });
    t.rounds.push(round1.clone());
    let r2 = client
        .pair(pair_request(t.clone(), 9))
        .await
        .expect("round 2")
        .into_inner();
    let expected: Vec<(String, String)> = early
        .boards
        .iter()
        .map(|b| {
            (
                resolve(&round1, b.first.as_ref().expect("first")),
                resolve(&round1, b.second.as_ref().expect("second")),
            )
        })
        .collect();
    let got: Vec<(String, String)> = r2
        .boards
        .iter()
        .map(|b| (b.first_id.clone(), b.second_id.clone()))
        .collect();
    assert_eq!(got, expected);
    assert_eq!(r2.byes[0].player_id, resolve(&round1, loser));

    // The provisional request once results exist is refused, naming the field and players.
    let status = client
        .pair_provisional(proto::PairProvisionalRequest {
            input: Some(proto::pair_provisional_request::Input::Tournament(
                t.clone(),
            )),
            seed: Some(9),
            ..proto::PairProvisionalRequest::default()
        })
        .await
        .expect_err("results exist");
    assert_eq!(status.code(), Code::InvalidArgument);
    let g = &round1.games[0];
    assert!(
        status
            .message()
            .contains("tournament.rounds[0].games[0].result"),
        "{}",
        status.message()
    );
    assert!(
        status.message().contains(&format!(
            "round 1: the game {:?} - {:?} already has a result",
            g.white_id, g.black_id
        )),
        "{}",
        status.message()
    );

    // Round 3, then the final phase.
    t.rounds.push(record(&r2, |_| proto::GameResult::WhiteWins));
    let r3 = client
        .pair(pair_request(t.clone(), 9))
        .await
        .expect("round 3")
        .into_inner();
    t.rounds.push(record(&r3, |_| proto::GameResult::BlackWins));
    let finals = client
        .pair_finals(proto::PairFinalsRequest {
            input: Some(proto::pair_finals_request::Input::Tournament(t.clone())),
            seed: Some(9),
            ..proto::PairFinalsRequest::default()
        })
        .await
        .expect("finals")
        .into_inner();
    assert_eq!(finals.regular_rounds, 3);
    assert_eq!(finals.match_length, 11);
    assert_eq!(
        finals.outcome,
        proto::FinalOutcome::Champion as i32,
        "7 + [absent] = 8: one undefeated"
    );
    assert!(!finals.champion_id.is_empty());
    let one_loss = finals.repechage_player_ids.len();
    assert_eq!(finals.repechage.len(), one_loss / 2);
    assert_eq!(finals.repechage_exempt_id.is_empty(), one_loss % 2 == 0);
    for b in &finals.repechage {
        assert!(b.white_id.is_empty() && !b.first_id.is_empty());
    }
    // A fourth regular round is refused.
    let status = client
        .pair(pair_request(t.clone(), 9))
        .await
        .expect_err("round 4");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(
        status.message().contains("beyond the event's 3 rounds"),
        "{}",
        status.message()
    );
    server.stop().await;
}

#[tokio::test]
async fn bad_backgammon_input_is_invalid_argument() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    // A draw in a result.
    let mut t = event(4);
    t.rounds.push(proto::Round {
        number: 1,
        games: vec![
            proto::Game {
                white_id: "p1".into(),
                black_id: "p2".into(),
                result: proto::GameResult::WhiteWins as i32,
                board: 1,
                not_rated: false,
            },
            proto::Game {
                white_id: "p3".into(),
                black_id: "p4".into(),
                result: proto::GameResult::Draw as i32,
                board: 2,
                not_rated: false,
            },
        ],
        byes: Vec::new(),
    });
    let status = client
        .pair(pair_request(t.clone(), 1))
        .await
        .expect_err("a draw");
    assert_eq!(status.code(), Code::InvalidArgument);
    let m = status.message();
    assert!(
        m.contains(
            "tournament.rounds[0].games[1].result: round 1: the game \"p3\" - \"p4\" is a draw"
        ),
        "{m}"
    );
    // The same snapshot to PairFinals and PairProvisional.
    let status = client
        .pair_finals(proto::PairFinalsRequest {
            input: Some(proto::pair_finals_request::Input::Tournament(t.clone())),
            ..proto::PairFinalsRequest::default()
        })
        .await
        .expect_err("a draw");
    assert_eq!(status.code(), Code::InvalidArgument);
    // The early draw of another system.
    let mut rr = event(4);
    rr.system = proto::PairingSystem::RoundRobin as i32;
    let status = client
        .pair_provisional(proto::PairProvisionalRequest {
            input: Some(proto::pair_provisional_request::Input::Tournament(rr)),
            ..proto::PairProvisionalRequest::default()
        })
        .await
        .expect_err("not backgammon");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(
        status.message().starts_with(
            "1 problem\n  system: the early draw of round 2 (BG-8) is a backgammon rule"
        ),
        "{}",
        status.message()
    );
    server.stop().await;
}

#[tokio::test]
async fn a_trf_with_a_win_against_absent() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    // Three players, round 1: 1 beat 2 (first drawn as White), 3 beat [absent] (`V`).
    use swisspair::model::{Bye, ByeKind, Game, GameResult, Player, Round, Tournament};
    let model = Tournament {
        name: "Club".to_string(),
        total_rounds: 2,
        players: (1..=3)
            .map(|i| Player {
                id: i.to_string(),
                name: format!("Player {i}"),
                pairing_number: Some(i),
                ..Player::default()
            })
            .collect(),
        rounds: vec![Round {
            games: vec![Game {
                white: 0,
                black: 1,
                result: GameResult::WhiteWins,
                board: None,
            }],
            byes: vec![Bye {
                player: 2,
                kind: ByeKind::AbsentOpponent,
            }],
        }],
        ..Tournament::default()
    };
    let trf = swisspair::pairing::write_trf(
        &swisspair::trf::TrfDocument {
            tournament: model,
            ..swisspair::trf::TrfDocument::default()
        },
        swisspair::trf::Dialect::JaVaFo,
    )
    .expect("writable as TRF");
    assert!(trf.contains("0000 - V"), "{trf}");
    let r = client
        .pair(proto::PairRequest {
            input: Some(proto::pair_request::Input::Trf(trf.to_string())),
            system: proto::PairingSystem::Backgammon as i32,
            seed: Some(4),
            ..proto::PairRequest::default()
        })
        .await
        .expect("round 2")
        .into_inner();
    // p3 met [absent]: p1 and p3 (1 win) meet; p2 meets [absent].
    assert_eq!(r.boards.len(), 1);
    let mut pair = [
        r.boards[0].first_id.as_str(),
        r.boards[0].second_id.as_str(),
    ];
    pair.sort_unstable();
    assert_eq!(pair, ["1", "3"]);
    assert_eq!(r.byes[0].player_id, "2");
    assert_eq!(r.byes[0].kind, proto::ByeKind::AbsentOpponent as i32);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    server.stop().await;
}
