//! "Why not?" end to end: the `Explain` RPC on the in-process server and `swisspair why`,
//! on a corpus file (the Dutch 2026 reference's round 3 re-paired from rounds 1-2).
mod common;

use common::server::Server;
use swisspair::model::Tournament;
use swisspair::proto;
use swisspair::service::ServerConfig;
use tonic::Code;

fn file() -> std::path::PathBuf {
    common::conformance_dir("dutch").join("dutch-0003.trf")
}

fn tournament() -> Tournament {
    let text = std::fs::read_to_string(file()).expect("readable");
    swisspair::pairing::read_trf(&text)
        .expect("valid TRF")
        .tournament
}

/// The first game of round 1: a pair that may not meet again.
fn met() -> (usize, usize) {
    let t = tournament();
    let g = &t.rounds[0].games[0];
    (g.white, g.black)
}

fn request(question: proto::explain_request::Question) -> proto::ExplainRequest {
    let text = std::fs::read_to_string(file()).expect("readable");
    proto::ExplainRequest {
        input: Some(proto::explain_request::Input::Trf(text)),
        system: proto::PairingSystem::Dutch as i32,
        round: 3,
        question: Some(question),
        ..proto::ExplainRequest::default()
    }
}

#[tokio::test]
async fn explain_answers_over_grpc() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let t = tournament();
    let (a, b) = met();
    let id = |p: usize| t.players[p].id.clone();
    // A rematch: impossible by C.04.1 art. 2, citing round 1.
    let answer = client
        .explain(request(proto::explain_request::Question::Pair(
            proto::PairQuestion {
                player_id: id(a),
                opponent_id: id(b),
                white_id: String::new(),
            },
        )))
        .await
        .expect("explain")
        .into_inner();
    assert_eq!(answer.round, 3);
    assert_eq!(answer.verdict, proto::ExplainVerdict::Impossible as i32);
    assert_eq!(answer.rule_id, "C.04.1 art. 2");
    assert_eq!(answer.violations.len(), 1);
    assert!(
        answer.violations[0].message.contains("(round 1)"),
        "{}",
        answer.violations[0].message
    );
    assert!(!answer.has_alternative);
    assert!(!answer.boards.is_empty(), "the system's pairing comes back");
    // The bye for the round's PAB receiver is already so; for another player it is worse
    // or impossible, and the alternative gives him the bye.
    let pab = answer
        .byes
        .iter()
        .find(|y| y.kind == proto::ByeKind::Pab as i32)
        .map(|y| y.player_id.clone())
        .expect("27 boards and a PAB");
    let same = client
        .explain(request(proto::explain_request::Question::ByePlayerId(
            pab.clone(),
        )))
        .await
        .expect("explain")
        .into_inner();
    assert_eq!(same.verdict, proto::ExplainVerdict::AlreadySo as i32);
    let other = answer.boards[0].white_id.clone();
    let worse = client
        .explain(request(proto::explain_request::Question::ByePlayerId(
            other.clone(),
        )))
        .await
        .expect("explain")
        .into_inner();
    match proto::ExplainVerdict::try_from(worse.verdict) {
        Ok(proto::ExplainVerdict::Worse) => {
            let d = worse.difference.expect("the criterion");
            assert_eq!(d.rule_id, worse.rule_id);
            assert!(worse.has_alternative);
            assert!(
                worse
                    .alternative_byes
                    .iter()
                    .any(|y| y.player_id == other && y.kind == proto::ByeKind::Pab as i32)
            );
        }
        Ok(proto::ExplainVerdict::Impossible) => assert!(!worse.rule_id.is_empty()),
        v => panic!("{v:?}: {}", worse.message),
    }
    // Bad input is INVALID_ARGUMENT naming the field.
    let e = client
        .explain(request(proto::explain_request::Question::ByePlayerId(
            "nobody".to_string(),
        )))
        .await
        .expect_err("unknown id");
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(e.message().contains("bye_player_id"), "{}", e.message());
    let mut none = request(proto::explain_request::Question::ByePlayerId(pab));
    none.question = None;
    let e = client.explain(none).await.expect_err("no question");
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(e.message().contains("question"), "{}", e.message());
    server.stop().await;
}

#[test]
fn why_on_the_command_line() {
    let t = swisspair::pairing::numbered(&tournament(), None);
    let (a, b) = met();
    let pair = format!("{}-{}", t.pairing_number(a), t.pairing_number(b));
    let path = file();
    let path = path.to_str().expect("utf-8 path");
    let (code, out, err) =
        common::swisspair(&["why", "--dutch", path, "--round", "3", "--pair", &pair]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("impossible: C.04.1 art. 2"), "{out}");
    assert!(out.contains("(round 1)"), "{out}");
    assert!(out.contains("answer:\n27\n"), "{out}");
    // No question, or a malformed one: exit 3 with the flag named.
    let (code, _, err) = common::swisspair(&["why", "--dutch", path, "--round", "3"]);
    assert_eq!(code, 3, "{err}");
    let (code, _, err) = common::swisspair(&["why", "--dutch", path, "--colour", "1=green"]);
    assert_eq!(code, 3);
    assert!(err.contains("--colour"), "{err}");
}

/// A Gacrux team file (C.04.6, 19 teams): questions about teams, each named by a member.
fn team_file() -> std::path::PathBuf {
    common::conformance_dir("team").join("team-s620001.trf")
}

fn team_request(question: proto::explain_request::Question) -> proto::ExplainRequest {
    let text = std::fs::read_to_string(team_file()).expect("readable");
    proto::ExplainRequest {
        input: Some(proto::explain_request::Input::Trf(text)),
        system: proto::PairingSystem::TeamSwiss as i32,
        round: 5,
        question: Some(question),
        ..proto::ExplainRequest::default()
    }
}

#[tokio::test]
async fn explain_answers_team_questions_over_grpc() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let text = std::fs::read_to_string(team_file()).expect("readable");
    let t = swisspair::pairing::read_trf(&text)
        .expect("valid TRF")
        .tournament;
    let rounds = swisspair::model::team_rounds(&t).expect("team rounds");
    let m = rounds[0]
        .matches
        .iter()
        .find(|m| m.played)
        .expect("a match");
    let id = |p: usize| t.players[p].id.clone();
    // Two teams that met in round 1, named by any member: impossible by [C1].
    let answer = client
        .explain(team_request(proto::explain_request::Question::Pair(
            proto::PairQuestion {
                player_id: id(t.teams[m.white].members[1]),
                opponent_id: id(t.teams[m.black].members[2]),
                white_id: String::new(),
            },
        )))
        .await
        .expect("explain")
        .into_inner();
    assert_eq!(answer.verdict, proto::ExplainVerdict::Impossible as i32);
    assert_eq!(answer.rule_id, "C.04.6 art. 2.1.1");
    assert!(answer.message.contains("(round 1)"), "{}", answer.message);
    // The answer's team matches and team PAB come back, as Pair gives them.
    assert!(!answer.team_pairings.is_empty());
    let pab = answer.team_bye.expect("19 teams: a team PAB");
    // The bye for team 3 (match points above the PAB team's): worse by art. 3.4.2, the
    // alternative giving team 3 the PAB.
    let three = t.team_by_tpn(3).expect("team 3");
    assert_ne!(pab.pairing_number, 3);
    let worse = client
        .explain(team_request(proto::explain_request::Question::ByePlayerId(
            id(t.teams[three].members[0]),
        )))
        .await
        .expect("explain")
        .into_inner();
    assert_eq!(
        worse.verdict,
        proto::ExplainVerdict::Worse as i32,
        "{}",
        worse.message
    );
    let d = worse.difference.expect("the criterion");
    assert_eq!(d.rule_id, "C.04.6 art. 3.4.2");
    assert!(worse.has_alternative);
    assert_eq!(
        worse.alternative_team_bye.map(|b| b.pairing_number),
        Some(3)
    );
    // Two members of one team: INVALID_ARGUMENT naming the field.
    let e = client
        .explain(team_request(proto::explain_request::Question::Pair(
            proto::PairQuestion {
                player_id: id(t.teams[0].members[0]),
                opponent_id: id(t.teams[0].members[1]),
                white_id: String::new(),
            },
        )))
        .await
        .expect_err("one team");
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(e.message().contains("pair.opponent_id"), "{}", e.message());
    server.stop().await;
}

#[test]
fn why_about_teams_on_the_command_line() {
    let path = team_file();
    let path = path.to_str().expect("utf-8 path");
    // Teams by team pairing number, the answer as a team pair list.
    let (code, out, err) = common::swisspair(&["why", path, "--round", "5", "--bye", "3"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("worse: C.04.6 art. 3.4.2"), "{out}");
    assert!(out.contains("answer:\n10\n"), "{out}");
    assert!(out.contains("alternative:\n10\n"), "{out}");
    assert!(out.contains("3 0\n"), "{out}");
    // A team that does not exist, or a team against itself: a message and a non-zero exit.
    let (code, _, err) = common::swisspair(&["why", path, "--round", "5", "--pair", "1-99"]);
    assert_ne!(code, 0);
    assert!(err.contains("99"), "{err}");
    let (code, _, err) = common::swisspair(&["why", path, "--round", "5", "--pair", "4-4"]);
    assert_ne!(code, 0);
    assert!(err.contains("itself"), "{err}");
}
