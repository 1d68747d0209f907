//! Separations (systems.md SEP-1..SEP-5, docs/separations.md): absolute separations in
//! every system but round robin, weak ones refused, manual validation, the proto, JSON,
//! CLI and TRF ends.
mod common;

use common::post_json;

use proptest::prelude::*;

use common::events::{Lcg, event, try_event};
use common::server::Server;
use swisspair::check::manual;
use swisspair::model::{
    PlayerIdx, Separation, SeparationKey, SeparationMode, SystemId, Tournament,
};
use swisspair::pairing;
use swisspair::service::ServerConfig;
use swisspair::systems::manual::Proposal;
use swisspair::systems::{PairError, PairOptions};
use swisspair::{proto, service::convert};

/// The systems that pair with separations: all but round robin (a fixed table, SEP-4) and
/// the Swiss Team system (its separations are of teams: tests/separations_teams.rs).
fn separating_systems() -> Vec<SystemId> {
    SystemId::ALL
        .into_iter()
        .filter(|s| !matches!(s, SystemId::RoundRobin | SystemId::TeamSwiss))
        // A fixed table or bracket (knockout, Scheveningen) refuses separations (SEP-4).
        .filter(|s| swisspair::systems::find(*s).is_some_and(|x| x.separations_apply()))
        .collect()
}

fn club_separation(t: &mut Tournament) {
    t.separations = vec![Separation::absolute(SeparationKey::Club)];
}

fn same_club(t: &Tournament, a: PlayerIdx, b: PlayerIdx) -> bool {
    t.players[a].club == t.players[b].club
}

fn played_before(t: &Tournament, a: PlayerIdx, b: PlayerIdx) -> bool {
    t.rounds.iter().any(|r| {
        r.games
            .iter()
            .any(|g| (g.white == a && g.black == b) || (g.white == b && g.black == a))
    })
}

/// Exhaustive search for a pairing of the round with no clubmates and no absolute rule
/// broken (MP-1's check of the proposal, `check::manual`): perfect matchings (one PAB when
/// odd), pruned by clubmates and past games; at most `budget` proposals are checked.
/// `Some(true)` = one exists, `Some(false)` = none, `None` = the budget ran out.
fn legal_separated_pairing_exists(
    t: &Tournament,
    system: SystemId,
    participants: &[PlayerIdx],
    budget: &mut usize,
) -> Option<bool> {
    fn search(
        t: &Tournament,
        system: SystemId,
        left: &mut Vec<PlayerIdx>,
        boards: &mut Vec<(PlayerIdx, PlayerIdx)>,
        bye: Option<PlayerIdx>,
        budget: &mut usize,
    ) -> Option<bool> {
        if left.is_empty() {
            if *budget == 0 {
                return None;
            }
            *budget -= 1;
            let proposal = Proposal {
                boards: boards.clone(),
                byes: bye.into_iter().collect(),
                complete: false,
                compare_with_engine: false,
            };
            let report =
                manual::validate(t, system, &proposal, &PairOptions::default()).expect("validates");
            return Some(report.violations.is_empty());
        }
        let a = left.remove(0);
        let mut exhausted = false;
        for i in 0..left.len() {
            let b = left[i];
            if same_club(t, a, b) || played_before(t, a, b) {
                continue;
            }
            left.remove(i);
            boards.push((a, b));
            let found = search(t, system, left, boards, bye, budget);
            boards.pop();
            left.insert(i, b);
            match found {
                Some(true) => {
                    left.insert(0, a);
                    return Some(true);
                }
                None => exhausted = true,
                Some(false) => {}
            }
        }
        left.insert(0, a);
        if exhausted { None } else { Some(false) }
    }
    let mut exhausted = false;
    let byes: Vec<Option<PlayerIdx>> = if participants.len() % 2 == 1 {
        participants.iter().map(|&p| Some(p)).collect()
    } else {
        vec![None]
    };
    for bye in byes {
        let mut left: Vec<PlayerIdx> = participants
            .iter()
            .copied()
            .filter(|&p| Some(p) != bye)
            .collect();
        match search(t, system, &mut left, &mut Vec::new(), bye, budget) {
            Some(true) => return Some(true),
            None => exhausted = true,
            Some(false) => {}
        }
    }
    if exhausted { None } else { Some(false) }
}

/// The systems whose procedure finds a legal pairing whenever one exists (the FIDE
/// systems' completion rules, C.04.3 C4 and the like).
fn exhaustive(system: SystemId) -> bool {
    matches!(
        system,
        SystemId::Dutch
            | SystemId::Burstein
            | SystemId::Dubov
            | SystemId::Lim
            | SystemId::DoubleSwiss
    )
}

/// (a) Every system but round robin keeps clubmates apart; when it finds no legal pairing,
/// the message names the separation, and an exhaustive search finds none either (within
/// its budget).
#[test]
fn absolute_club_separation_in_every_system() {
    let mut rng = Lcg(20261127);
    let mut summary = Vec::new();
    for system in separating_systems() {
        let (mut paired, mut refused, mut confirmed, mut missed) = (0, 0, 0, 0);
        for case in 0..12u64 {
            let players = 6 + rng.below(9) as u32; // 6..=14
            let rounds = 4 + rng.below(3) as u32; // 4..=6
            let mut played = rng.below(u64::from(rounds)) as usize;
            if system == SystemId::DoubleSwiss {
                // Model rounds are games: pair a match's first game.
                played -= played % 2;
            }
            let clubs = 2 + rng.below(3);
            let seed = 1000 * case + u64::from(players);
            let Ok(mut t) = try_event(system, players, rounds, played, clubs, seed) else {
                // The system itself could not pair the rounds before (a small event).
                continue;
            };
            club_separation(&mut t);
            let options = PairOptions::default();
            match pairing::pair(&t, &options) {
                Ok(answer) => {
                    paired += 1;
                    for b in &answer.pairing.boards {
                        assert!(
                            !same_club(&t, b.white, b.black),
                            "{system:?} case {case}: clubmates {} and {} paired in round {}",
                            t.players[b.white].id,
                            t.players[b.black].id,
                            answer.pairing.round
                        );
                    }
                }
                Err(PairError::NoLegalPairing { message, .. }) => {
                    refused += 1;
                    assert!(
                        message.contains("absolute separations in force (SEP-1): club"),
                        "{system:?} case {case}: {message}"
                    );
                    let resolved = pairing::resolve(Some(system), &t).expect("resolves");
                    let round = pairing::prepare(&resolved, &t, &options).expect("prepares");
                    let mut budget = 3000;
                    match legal_separated_pairing_exists(
                        &t,
                        system,
                        &round.participants,
                        &mut budget,
                    ) {
                        Some(true) => {
                            // A system whose own procedure is not an exhaustive search
                            // (JavaPairing's engines, Vega's) may give up where a legal
                            // pairing exists, with or without a separation: counted, and
                            // refused only for the systems that search exhaustively.
                            assert!(
                                !exhaustive(system),
                                "{system:?} case {case}: no legal pairing answered, but one without clubmates exists"
                            );
                            missed += 1;
                        }
                        Some(false) => confirmed += 1,
                        None => {}
                    }
                }
                Err(e) => panic!("{system:?} case {case}: {e}"),
            }
        }
        summary.push(format!(
            "{system:?}: {paired} paired, {refused} without a legal pairing ({confirmed} confirmed exhaustively, {missed} where the search found one)"
        ));
        assert!(paired > 0, "{system:?} never paired: {summary:?}");
    }
    println!("{}", summary.join("\n"));
}

/// (b) A separation whose groups are all single players changes nothing.
#[test]
fn singleton_groups_pair_as_without_separations() {
    for system in separating_systems() {
        for case in 0..3u64 {
            let played = if system == SystemId::DoubleSwiss {
                2
            } else {
                2 + case as usize
            };
            let mut t = event(system, 9 + case as u32, 6, played, 3, 77 + case);
            for (i, p) in t.players.iter_mut().enumerate() {
                p.club = format!("own{i}");
                p.groups = vec![format!("family:f{i}")];
            }
            let plain = pairing::pair(&t, &PairOptions::default()).expect("pairs");
            t.separations = vec![
                Separation::absolute(SeparationKey::Club),
                Separation::absolute(SeparationKey::Group("family".into())),
            ];
            let separated = pairing::pair(&t, &PairOptions::default()).expect("pairs");
            assert_eq!(plain.pairing, separated.pairing, "{system:?} case {case}");
            let a = convert::pair::pair_answer(&plain);
            let b = convert::pair::pair_answer(&separated);
            assert_eq!(
                prost::Message::encode_to_vec(&a),
                prost::Message::encode_to_vec(&b),
                "{system:?} case {case}: the answer's bytes"
            );
        }
    }
}

fn problem_paths(e: &PairError) -> Vec<(String, String)> {
    match e {
        PairError::Invalid(p) => {
            p.0.iter()
                .map(|p| (p.path.clone(), p.message.clone()))
                .collect()
        }
        other => panic!("expected INVALID_ARGUMENT, got {other}"),
    }
}

/// (c) Round robin refuses a separation (SEP-4).
#[test]
fn round_robin_refuses_separations() {
    let mut t = event(SystemId::RoundRobin, 8, 7, 2, 2, 5);
    club_separation(&mut t);
    let e = pairing::pair(&t, &PairOptions::default()).expect_err("refused");
    let problems = problem_paths(&e);
    assert_eq!(problems[0].0, "tournament.separations", "{problems:?}");
    assert!(problems[0].1.contains("SEP-4"), "{problems:?}");
}

/// (d) A weak separation where the system does not weigh one, or at a place it does not
/// offer, is refused, naming the field (SEP-5, SEP-5.1).
#[test]
fn weak_separations_are_refused_naming_the_field() {
    let mut t = event(SystemId::Buchholz, 10, 5, 2, 3, 9);
    t.separations = vec![
        Separation::absolute(SeparationKey::Federation),
        Separation {
            mode: SeparationMode::WeakLast,
            ..Separation::absolute(SeparationKey::Club)
        },
    ];
    let e = pairing::pair(&t, &PairOptions::default()).expect_err("refused");
    let problems = problem_paths(&e);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].0, "tournament.separations[1].mode");
    // Buchholz weighs a weak separation at the default place only (SEP-5.3).
    assert!(
        problems[0].1.contains(
            "system buchholz does not weigh a weak separation placed last; it offers WEAK"
        ),
        "{problems:?}"
    );
    let mut t = event(SystemId::Buchholz, 10, 5, 2, 3, 9);
    t.separations = vec![Separation {
        mode: SeparationMode::WeakFirst,
        ..Separation::absolute(SeparationKey::Club)
    }];
    let e = pairing::pair(&t, &PairOptions::default()).expect_err("refused");
    let problems = problem_paths(&e);
    assert_eq!(problems[0].0, "tournament.separations[0].mode");
    assert!(
        problems[0].1.contains("placed first; it offers WEAK"),
        "{problems:?}"
    );
    // The Dutch system weighs every place (SEP-5.1): placed first, the separation joins
    // completion (C4).
    let mut t = event(SystemId::Dutch, 10, 5, 2, 3, 9);
    t.separations = vec![Separation {
        mode: SeparationMode::WeakFirst,
        ..Separation::absolute(SeparationKey::Club)
    }];
    pairing::pair(&t, &PairOptions::default()).expect("the Dutch system weighs WEAK_FIRST");
    // Burstein: both profiles weigh it.
    let mut t = event(SystemId::Burstein, 10, 7, 4, 3, 9);
    t.separations = vec![Separation {
        mode: SeparationMode::WeakFirst,
        ..Separation::absolute(SeparationKey::Club)
    }];
    pairing::pair(&t, &PairOptions::default()).expect("profile FIDE_2026 weighs WEAK_FIRST");
    let _ = t.options.set("profile", "BBP");
    pairing::pair(&t, &PairOptions::default()).expect("profile BBP weighs WEAK_FIRST");
}

/// A weak club separation in the Dutch system: the explanation's SEP-5 step lists the
/// pairs within a club, exactly those of the answer; a round robin still refuses it.
#[test]
fn weak_separation_explains_the_pairs_within_a_group() {
    let mut t = event(SystemId::Dutch, 12, 7, 3, 2, 31);
    t.separations = vec![Separation {
        mode: SeparationMode::Weak,
        ..Separation::absolute(SeparationKey::Club)
    }];
    let answer = pairing::pair(&t, &PairOptions::default()).expect("pairs");
    let within: Vec<PlayerIdx> = answer
        .pairing
        .boards
        .iter()
        .filter(|b| same_club(&t, b.white, b.black))
        .flat_map(|b| [b.white, b.black])
        .collect();
    let step = answer
        .pairing
        .explanation
        .groups
        .iter()
        .flat_map(|g| &g.steps)
        .find(|s| s.rule_id == "SEP-5")
        .expect("a SEP-5 step");
    assert!(
        step.message.contains("club (placed default)"),
        "{}",
        step.message
    );
    assert_eq!(step.players, within, "{}", step.message);
    if within.is_empty() {
        assert!(
            step.message.contains("no pair within a group"),
            "{}",
            step.message
        );
    } else {
        assert!(
            step.message
                .contains(&format!("{} pair(s) within a group", within.len() / 2)),
            "{}",
            step.message
        );
    }
}

/// Structural problems name their field.
#[test]
fn malformed_separations_and_groups_are_refused_with_their_path() {
    let mut t = event(SystemId::Dutch, 6, 5, 1, 2, 3);
    t.players[2].groups = vec!["nocolon".into()];
    t.separations = vec![
        Separation {
            first_round: Some(4),
            last_round: Some(2),
            ..Separation::absolute(SeparationKey::Club)
        },
        Separation::absolute(SeparationKey::Group(String::new())),
        Separation {
            exempt_from_round: Some(3),
            ..Separation::absolute(SeparationKey::Team)
        },
    ];
    let e = pairing::pair(&t, &PairOptions::default()).expect_err("refused");
    let paths: Vec<String> = problem_paths(&e).into_iter().map(|p| p.0).collect();
    for path in [
        "tournament.players[2].groups[0]",
        "tournament.separations[0].first_round",
        "tournament.separations[1].group_prefix",
        "tournament.separations[2].exempt_top_groups",
    ] {
        assert!(paths.iter().any(|p| p == path), "{path} not in {paths:?}");
    }
}

/// Rounds out of range, and exempt top score groups (SEP-2, SEP-3).
#[test]
fn rounds_in_range_and_exempt_top_groups() {
    let mut t = event(SystemId::Dutch, 8, 5, 2, 2, 11);
    for (i, p) in t.players.iter_mut().enumerate() {
        p.club = if i % 2 == 0 { "even" } else { "odd" }.into();
    }
    // Out of range: no separation in round 3.
    t.separations = vec![Separation {
        first_round: Some(4),
        ..Separation::absolute(SeparationKey::Club)
    }];
    assert!(t.separated_groups(3).is_empty());
    assert_eq!(t.separated_groups(4).len(), 2);
    // Every score group exempt: nobody is kept apart.
    t.separations = vec![Separation {
        exempt_top_groups: Some(99),
        exempt_from_round: Some(3),
        ..Separation::absolute(SeparationKey::Club)
    }];
    assert_eq!(t.separated_groups(2).len(), 2);
    assert!(t.separated_groups(3).is_empty());
    // The top group exempt: its members are left out of the groups.
    t.separations[0].exempt_top_groups = Some(1);
    let points = t.points_after(2);
    let top = points.iter().max().copied().expect("players");
    for g in t.separated_groups(3) {
        assert!(g.players.iter().all(|&p| points[p] < top));
    }
}

/// (g) Manual validation reports a pair of clubmates under SEP-1, not CG-10; the pairing's
/// explanation cites SEP-1.
#[test]
fn manual_validation_flags_sep_1() {
    let mut t = event(SystemId::Dutch, 8, 5, 0, 2, 21);
    for (i, p) in t.players.iter_mut().enumerate() {
        p.club = if i < 4 { "north" } else { "south" }.into();
    }
    club_separation(&mut t);
    let proposal = Proposal {
        boards: vec![(0, 1), (2, 4), (3, 5), (6, 7)],
        byes: vec![],
        complete: false,
        compare_with_engine: false,
    };
    let report =
        manual::validate(&t, SystemId::Dutch, &proposal, &PairOptions::default()).expect("runs");
    let rules: Vec<(&str, Vec<PlayerIdx>)> = report
        .violations
        .iter()
        .map(|v| (v.rule_id.as_str(), v.players.clone()))
        .collect();
    assert_eq!(rules, vec![("SEP-1", vec![0, 1]), ("SEP-1", vec![6, 7])]);
    assert!(report.violations[0].message.contains("club \"north\""));
    // A forbidden pairing of the snapshot still cites CG-10.
    t.forbidden_pairings
        .push(swisspair::model::ForbiddenPairing {
            players: vec![2, 4],
            first_round: None,
            last_round: None,
        });
    let report =
        manual::validate(&t, SystemId::Dutch, &proposal, &PairOptions::default()).expect("runs");
    assert!(
        report
            .violations
            .iter()
            .any(|v| v.rule_id == "CG-10" && v.players == vec![2, 4])
    );
    let answer = pairing::pair(&t, &PairOptions::default()).expect("pairs");
    let steps: Vec<&str> = answer
        .pairing
        .explanation
        .groups
        .iter()
        .flat_map(|g| g.steps.iter())
        .filter(|s| s.rule_id == "SEP-1")
        .map(|s| s.message.as_str())
        .collect();
    assert_eq!(steps.len(), 1, "{steps:?}");
    assert!(steps[0].contains("club (2 groups)"), "{steps:?}");
}

/// A proto tournament of four players, two clubs, whose natural round 1 (1-3, 2-4) pairs
/// clubmates.
fn four_players() -> proto::Tournament {
    let player = |id: &str, rating: u32, club: &str| proto::Player {
        id: id.into(),
        name: id.into(),
        rating,
        club: club.into(),
        groups: vec![format!("family:{club}")],
        ..proto::Player::default()
    };
    proto::Tournament {
        total_rounds: 3,
        players: vec![
            player("a", 2400, "x"),
            player("b", 2300, "y"),
            player("c", 2200, "x"),
            player("d", 2100, "y"),
        ],
        separations: vec![proto::Separation {
            key: proto::SeparationKey::Club as i32,
            mode: proto::SeparationMode::Absolute as i32,
            ..proto::Separation::default()
        }],
        ..proto::Tournament::default()
    }
}

fn pair_ids(boards: &[proto::Board]) -> Vec<(String, String)> {
    boards
        .iter()
        .map(|b| (b.white_id.clone(), b.black_id.clone()))
        .collect()
}

/// (e) Over gRPC: the separation keeps clubmates apart; a weak one is INVALID_ARGUMENT
/// naming the field; the proto round-trips through the model.
#[tokio::test]
async fn grpc_pairs_with_separations_and_refuses_weak_ones() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let request = |t: proto::Tournament| proto::PairRequest {
        input: Some(proto::pair_request::Input::Tournament(t)),
        system: proto::PairingSystem::Dutch as i32,
        ..proto::PairRequest::default()
    };
    let answer = client
        .pair(request(four_players()))
        .await
        .expect("pairs")
        .into_inner();
    for (w, b) in pair_ids(&answer.boards) {
        let club = |id: &str| if id == "a" || id == "c" { "x" } else { "y" };
        assert_ne!(club(&w), club(&b), "{w} - {b}");
    }
    assert!(answer.explanation.as_ref().is_some_and(|e| {
        e.groups
            .iter()
            .flat_map(|g| &g.steps)
            .any(|s| s.rule_id == "SEP-1")
    }));
    let mut weak = four_players();
    weak.separations.push(proto::Separation {
        key: proto::SeparationKey::Group as i32,
        group_prefix: "family".into(),
        mode: proto::SeparationMode::WeakFirst as i32,
        ..proto::Separation::default()
    });
    // Placed first, the Dutch system weighs it (SEP-5.1) ...
    let answer = client
        .pair(request(weak.clone()))
        .await
        .expect("the Dutch system weighs WEAK_FIRST")
        .into_inner();
    assert!(answer.explanation.as_ref().is_some_and(|e| {
        e.groups
            .iter()
            .flat_map(|g| &g.steps)
            .any(|s| s.rule_id == "SEP-5" && s.message.contains("placed first"))
    }));
    // ... the Buchholz system does not: INVALID_ARGUMENT naming the field.
    let status = client
        .pair(proto::PairRequest {
            system: proto::PairingSystem::Buchholz as i32,
            ..request(weak)
        })
        .await
        .expect_err("refused");
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    assert!(
        status.message().contains("tournament.separations[1].mode")
            && status.message().contains("placed first"),
        "{}",
        status.message()
    );
    let mut weak = four_players();
    weak.separations = vec![proto::Separation {
        key: proto::SeparationKey::Club as i32,
        mode: proto::SeparationMode::Weak as i32,
        ..proto::Separation::default()
    }];
    let answer = client
        .pair(request(weak))
        .await
        .expect("a weak separation pairs")
        .into_inner();
    // Round 1, one scoregroup: C.04.3 art. 4 would pair a-c and b-d (clubmates); the
    // separation, above the colour criteria, finds the pairing without clubmates.
    let pairs = pair_ids(&answer.boards);
    assert_eq!(pairs.len(), 2, "{pairs:?}");
    let club = |id: &str| if id == "a" || id == "c" { "x" } else { "y" };
    for (w, b) in &pairs {
        assert_ne!(club(w), club(b), "{w} - {b}");
    }
    assert!(answer.explanation.as_ref().is_some_and(|e| {
        e.groups
            .iter()
            .flat_map(|g| &g.steps)
            .any(|s| s.rule_id == "SEP-5")
    }));
    let mut unkeyed = four_players();
    unkeyed.separations[0].key = 0;
    let status = client.pair(request(unkeyed)).await.expect_err("refused");
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    assert!(
        status.message().contains("tournament.separations[0].key"),
        "{}",
        status.message()
    );
    server.stop().await;

    // proto -> model -> proto keeps clubs, groups and separations.
    let mut problems = Vec::new();
    let limits = convert::Limits::default();
    let model = convert::tournament::tournament_from_proto(&four_players(), &limits, &mut problems);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(model.players[0].club, "x");
    assert_eq!(
        model.separations,
        vec![Separation::absolute(SeparationKey::Club)]
    );
    let back = convert::tournament::tournament_to_proto(&model);
    assert_eq!(back.separations, four_players().separations);
    assert_eq!(back.players[1].groups, vec!["family:y".to_string()]);
}

/// (e) Over JSON (Connect): the fields come from the proto.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_pairs_with_separations() {
    let server = Server::start(ServerConfig::default()).await;
    let body = serde_json::json!({
        "system": "PAIRING_SYSTEM_DUTCH",
        "tournament": {
            "totalRounds": 3,
            "players": [
                {"id": "a", "rating": 2400, "club": "x", "groups": ["family:x"]},
                {"id": "b", "rating": 2300, "club": "y"},
                {"id": "c", "rating": 2200, "club": "x"},
                {"id": "d", "rating": 2100, "club": "y"}
            ],
            "separations": [
                {"key": "SEPARATION_KEY_CLUB", "mode": "SEPARATION_MODE_ABSOLUTE", "lastRound": 2}
            ]
        }
    });
    let addr = server.addr.trim_start_matches("http://").to_string();
    let (status, answer) = post_json(&addr, "Pair", &body);
    assert_eq!(status, 200, "{answer}");
    let boards = answer["boards"].as_array().expect("boards");
    assert_eq!(boards.len(), 2);
    for b in boards {
        let (w, k) = (
            b["whiteId"].as_str().unwrap(),
            b["blackId"].as_str().unwrap(),
        );
        let club = |id: &str| if id == "a" || id == "c" { "x" } else { "y" };
        assert_ne!(club(w), club(k), "{answer}");
    }
    let mut weak = body.clone();
    weak["tournament"]["separations"][0]["mode"] = "SEPARATION_MODE_WEAK".into();
    let (status, answer) = post_json(&addr, "Pair", &weak);
    assert_eq!(status, 200, "{answer}");
    for b in answer["boards"].as_array().expect("boards") {
        let (w, k) = (
            b["whiteId"].as_str().unwrap_or(""),
            b["blackId"].as_str().unwrap_or(""),
        );
        let club = |id: &str| if id == "a" || id == "c" { "x" } else { "y" };
        assert_ne!(club(w), club(k), "{answer}");
    }
    assert_eq!(
        answer["explanation"]["groups"][0]["steps"][0]["ruleId"], "SEP-5",
        "{answer}"
    );
    weak["tournament"]["separations"][0]["mode"] = "SEPARATION_MODE_WEAK_FIRST".into();
    let (status, answer) = post_json(&addr, "Pair", &weak);
    assert_eq!(status, 200, "{answer}");
    weak["system"] = "PAIRING_SYSTEM_BUCHHOLZ".into();
    let (status, answer) = post_json(&addr, "Pair", &weak);
    assert_eq!(status, 400, "{answer}");
    let message = answer["message"].as_str().unwrap_or("");
    assert!(
        message.contains("tournament.separations[0].mode"),
        "{answer}"
    );
    server.stop().await;
}

/// A Dutch event with clubs, written as TRF-26 to a temporary file: the path and the
/// tournament as the file reads back.
fn trf_file(name: &str, extra: &[&str]) -> (std::path::PathBuf, Tournament) {
    let mut t = event(SystemId::Dutch, 10, 5, 2, 3, 4242);
    for (i, p) in t.players.iter_mut().enumerate() {
        p.club = format!("club{}", i % 4);
    }
    let doc = swisspair::trf::TrfDocument {
        tournament: t,
        ..Default::default()
    };
    let mut text = pairing::write_trf(&doc, swisspair::trf::Dialect::Trf26).expect("writes");
    for line in extra {
        text.push_str(line);
        text.push('\n');
    }
    let path = std::env::temp_dir().join(format!(
        "swisspair-separations-{}-{name}.trf",
        std::process::id()
    ));
    std::fs::write(&path, &text).expect("write");
    let read = pairing::read_trf(&text).expect("reads").tournament;
    (path, read)
}

/// Pairs `a b` of a pair list (`N`, then `a b`, the bye `a 0`) by pairing number.
fn pair_list(text: &str) -> Vec<(u32, u32)> {
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let mut it = l.split_whitespace().map(|w| w.parse::<u32>().ok());
            Some((it.next()??, it.next()??))
        })
        .filter(|&(_, b)| b != 0)
        .collect()
}

/// (e) The CLI: `--separate` on pair, a clear error and a non-zero exit on a bad value or
/// a weak mode; `validate` flags SEP-1.
#[test]
fn cli_separate_flag() {
    let (path, t) = trf_file("cli", &[]);
    let file = path.to_str().expect("path");
    let club_of = |number: u32| {
        let p = (0..t.players.len())
            .find(|&p| t.pairing_number(p) == number)
            .expect("a player");
        t.players[p].club.clone()
    };
    let (code, out, err) = common::swisspair(&["pair", file, "-p", "--separate", "club=weak"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(pair_list(&out).len(), 5, "{out}");
    let (code, out, err) =
        common::swisspair(&["pair", file, "-p", "--separate", "club=absolute@3-5"]);
    assert_eq!(code, 0, "{err}");
    let pairs = pair_list(&out);
    assert_eq!(pairs.len(), 5, "{out}");
    for (a, b) in &pairs {
        assert_ne!(club_of(*a), club_of(*b), "{a} - {b} in {out}");
    }
    // Placed first, the Dutch system weighs it; Vega's Buchholz does not (SEP-5.1).
    let (code, out, err) =
        common::swisspair(&["pair", file, "-p", "--separate", "club=weak-first"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(pair_list(&out).len(), 5, "{out}");
    let (code, _, err) = common::swisspair(&[
        "pair",
        file,
        "-p",
        "--system",
        "buchholz",
        "--separate",
        "club=weak-first",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("placed first; it offers WEAK"), "{err}");
    // Lim (LIM-SEP.1/2), Keizer (KZ-4.4), Monrad (MON-7) and the Double-Swiss (DS-SEP.1)
    // weigh the other places too.
    for (system, mode) in [
        ("lim", "club=weak-first"),
        ("lim", "club=weak-last"),
        ("keizer", "club=weak-first"),
        ("keizer", "club=weak-last"),
        ("monrad", "club=weak-first"),
        ("monrad", "club=weak-last"),
    ] {
        let (code, out, err) =
            common::swisspair(&["pair", file, "-p", "--system", system, "--separate", mode]);
        assert_eq!(code, 0, "{system} {mode}: {err}");
        assert_eq!(pair_list(&out).len(), 5, "{system} {mode}: {out}");
    }
    for (value, what) in [
        ("club=sometimes", "absolute, weak, weak-first or weak-last"),
        ("club", "expected KEY=MODE"),
        ("my family=absolute", "a group prefix"),
        ("club=absolute@5-3", "the first is after the last"),
    ] {
        let (code, _, err) = common::swisspair(&["pair", file, "-p", "--separate", value]);
        assert_ne!(code, 0, "{value}");
        assert!(err.contains(what), "{value}: {err}");
    }
    let (code, _, err) = common::swisspair(&[
        "pair",
        "--system",
        "round-robin",
        file,
        "--separate",
        "club=absolute",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("SEP-4"), "{err}");
    // A pair list that pairs clubmates: validate names SEP-1.
    let numbers: Vec<u32> = (1..=10).collect();
    let mut mates = None;
    'outer: for &a in &numbers {
        for &b in &numbers {
            if a < b && club_of(a) == club_of(b) {
                mates = Some((a, b));
                break 'outer;
            }
        }
    }
    let (a, b) = mates.expect("two clubmates among ten players and three clubs");
    let list = std::env::temp_dir().join(format!(
        "swisspair-separations-{}-pairs",
        std::process::id()
    ));
    std::fs::write(&list, format!("1\n{a} {b}\n")).expect("write");
    let (_, out, err) = common::swisspair(&[
        "validate",
        file,
        list.to_str().expect("path"),
        "--separate",
        "club=absolute",
    ]);
    assert!(out.contains("SEP-1") || err.contains("SEP-1"), "{out}{err}");
}

/// (f) The TRF records round-trip in both dialects; `XSP` as written by hand reads.
#[test]
fn trf_records_round_trip() {
    let mut t = event(SystemId::Dutch, 8, 5, 2, 3, 99);
    t.players[0].groups = vec!["family:smith".into(), "school:north side".into()];
    t.players[3].groups = vec!["family:smith".into()];
    t.players[5].club = "Schachklub Zürich 1809".into();
    t.players[6].club = String::new();
    t.separations = vec![
        Separation::absolute(SeparationKey::Club),
        Separation {
            first_round: Some(1),
            last_round: Some(3),
            ..Separation::absolute(SeparationKey::Group("family".into()))
        },
        Separation {
            mode: SeparationMode::Weak,
            exempt_top_groups: Some(2),
            exempt_from_round: Some(4),
            ..Separation::absolute(SeparationKey::Federation)
        },
        Separation {
            last_round: Some(2),
            ..Separation::absolute(SeparationKey::Team)
        },
    ];
    let doc = swisspair::trf::TrfDocument {
        tournament: t.clone(),
        ..Default::default()
    };
    for dialect in [
        swisspair::trf::Dialect::JaVaFo,
        swisspair::trf::Dialect::Trf26,
    ] {
        let text = pairing::write_trf(&doc, dialect).expect("writes");
        assert!(text.contains("XSP club absolute\n"), "{text}");
        assert!(text.contains("XSP family absolute 1 3\n"), "{text}");
        assert!(text.contains("XSP federation weak 0 0 2 4\n"), "{text}");
        let back = pairing::read_trf(&text).expect("reads").tournament;
        assert_eq!(back.separations, t.separations, "{dialect:?}");
        let numbered = pairing::numbered(&t, None);
        for (p, player) in t.players.iter().enumerate() {
            let q = (0..back.players.len())
                .find(|&q| back.pairing_number(q) == numbered.pairing_number(p))
                .expect("the player");
            assert_eq!(back.players[q].club, player.club, "{dialect:?}");
            assert_eq!(back.players[q].groups, player.groups, "{dialect:?}");
        }
        // Written again, the same text.
        let again = swisspair::trf::TrfDocument {
            tournament: back,
            ..Default::default()
        };
        assert_eq!(pairing::write_trf(&again, dialect).expect("writes"), text);
    }
    // Malformed records are refused with their line and column.
    for (line, what) in [
        ("XSP club", "expected KEY MODE"),
        ("XSP club never", "absolute, weak, weak-first or weak-last"),
        ("XSP club absolute x 3", "XSP round"),
        ("XCL 1", "expected a club"),
        ("XGR 99 family:x", "99"),
    ] {
        let text = format!(
            "{}{line}\n",
            pairing::write_trf(&doc, swisspair::trf::Dialect::Trf26).expect("writes")
        );
        let e = pairing::read_trf(&text).expect_err(line).to_string();
        assert!(e.contains(what), "{line}: {e}");
    }
}

/// The limits on separations and groups are enforced by field path (`model/limits.rs`).
#[test]
fn limits_name_the_field() {
    let mut pt = four_players();
    pt.players[1].groups = (0..33).map(|i| format!("family:f{i}")).collect();
    pt.players[2].groups = vec![format!("family:{}", "x".repeat(80))];
    pt.players[3].club = "c".repeat(300);
    pt.separations = (0..65)
        .map(|_| proto::Separation {
            key: proto::SeparationKey::Club as i32,
            mode: proto::SeparationMode::Absolute as i32,
            ..proto::Separation::default()
        })
        .collect();
    let mut problems = Vec::new();
    convert::tournament::tournament_from_proto(&pt, &convert::Limits::default(), &mut problems);
    let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
    for path in [
        "tournament.players[1].groups",
        "tournament.players[2].groups[0]",
        "tournament.players[3].club",
        "tournament.separations",
    ] {
        assert!(paths.contains(&path), "{path} not in {paths:?}");
    }
}

/// Backgammon's early draw and final phase do not apply separations: refused, not ignored.
#[test]
fn backgammon_phases_refuse_separations() {
    let mut t = event(SystemId::Backgammon, 8, 5, 1, 2, 31);
    club_separation(&mut t);
    let options = PairOptions {
        system: Some(SystemId::Backgammon),
        ..PairOptions::default()
    };
    for e in [
        pairing::provisional(&t, &options).expect_err("refused"),
        pairing::finals(&t, &options).expect_err("refused"),
    ] {
        let problems = problem_paths(&e);
        assert_eq!(problems[0].0, "tournament.separations", "{problems:?}");
    }
}

/// "Why not A-B?" names the weak separation when it is the reason, and "why are these two
/// clubmates paired?" (`Question::Apart`) names the criterion that made the meeting
/// unavoidable: never a better alternative, and over a handful of events both kinds occur.
#[test]
fn why_answers_about_weak_separations() {
    use swisspair::check::why::{self, Question, VerdictKind};
    let mut sep_reasons = 0;
    let mut unavoidable = 0;
    for seed in 0..12u64 {
        let Ok(mut t) = try_event(
            SystemId::Dutch,
            10,
            7,
            2 + (seed % 3) as usize,
            2,
            500 + seed,
        ) else {
            continue;
        };
        t.separations = vec![Separation {
            mode: SeparationMode::Weak,
            ..Separation::absolute(SeparationKey::Club)
        }];
        let options = PairOptions::default();
        let Ok(answer) = pairing::pair(&t, &options) else {
            continue;
        };
        let paired = |a: PlayerIdx, b: PlayerIdx| {
            answer
                .pairing
                .boards
                .iter()
                .any(|x| (x.white == a && x.black == b) || (x.white == b && x.black == a))
        };
        let players: Vec<PlayerIdx> = answer
            .pairing
            .boards
            .iter()
            .flat_map(|b| [b.white, b.black])
            .collect();
        for &a in &players {
            for &b in &players {
                if a >= b || !same_club(&t, a, b) {
                    continue;
                }
                let question = if paired(a, b) {
                    Question::Apart { a, b }
                } else if !played_before(&t, a, b) {
                    Question::Pair { a, b, white: None }
                } else {
                    continue;
                };
                let got = why::run(&t, &question, &options).expect("answered");
                assert_ne!(
                    got.verdict.kind,
                    VerdictKind::Better,
                    "{question:?}: {}",
                    got.verdict.message
                );
                match question {
                    Question::Pair { .. } if got.verdict.rule_id == "SEP-5" => {
                        assert_eq!(got.verdict.kind, VerdictKind::Worse);
                        sep_reasons += 1;
                    }
                    Question::Apart { .. } => {
                        // Kept apart, the round is worse on a criterion at or above the
                        // separation's place, or no legal pairing keeps them apart.
                        assert!(
                            matches!(
                                got.verdict.kind,
                                VerdictKind::Worse | VerdictKind::Impossible | VerdictKind::Tie
                            ),
                            "{}",
                            got.verdict.message
                        );
                        if got.verdict.kind == VerdictKind::Worse {
                            assert!(got.alternative.is_some_and(|p| {
                                !p.boards.iter().any(|x| {
                                    (x.white == a && x.black == b) || (x.white == b && x.black == a)
                                })
                            }));
                            unavoidable += 1;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(sep_reasons > 0, "no why-not answer cited SEP-5");
    assert!(unavoidable > 0, "no clubmates' meeting was explained");
}

/// `why --apart A-B` on the command line and the `apart` question through gRPC.
#[tokio::test]
async fn apart_question_through_the_cli_and_grpc() {
    let (path, t) = trf_file("apart", &["XSP club weak"]);
    let file = path.to_str().expect("path");
    let (code, out, err) = common::swisspair(&["pair", file, "-p"]);
    assert_eq!(code, 0, "{err}");
    let (a, b) = pair_list(&out)[0];
    let (code, out, err) = common::swisspair(&["why", file, "--apart", &format!("{a}-{b}")]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("worse") || out.contains("impossible") || out.contains("equally good"),
        "{out}"
    );
    let (code, _, err) = common::swisspair(&["why", file, "--apart", &format!("{a}-{a}")]);
    assert_ne!(code, 0);
    assert!(err.contains("apart.opponent_id"), "{err}");
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let numbered = pairing::numbered(&t, None);
    let id = |n: u32| {
        let p = (0..t.players.len())
            .find(|&p| numbered.pairing_number(p) == n)
            .expect("a player");
        t.players[p].id.clone()
    };
    let request = proto::ExplainRequest {
        input: Some(proto::explain_request::Input::Trf(
            std::fs::read_to_string(&path).expect("reads"),
        )),
        question: Some(proto::explain_request::Question::Apart(
            proto::ApartQuestion {
                player_id: id(a),
                opponent_id: id(b),
            },
        )),
        ..proto::ExplainRequest::default()
    };
    let answer = client
        .explain(request)
        .await
        .expect("answered")
        .into_inner();
    assert_ne!(answer.verdict, proto::ExplainVerdict::AlreadySo as i32);
    assert_ne!(answer.verdict, proto::ExplainVerdict::Better as i32);
    server.stop().await;
}

/// The worked examples of docs/separations.md, through the CLI and JSON: the groups are
/// kept apart (the junior open's clubs and the team battle's teams where the rules allow:
/// round 1 allows it; the siblings always), and both ends give the same pairs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn worked_examples_keep_groups_apart() {
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples");
    let server = Server::start(ServerConfig::default()).await;
    let addr = server.addr.trim_start_matches("http://").to_string();
    for (file, key) in [("junior-open.trf", "club"), ("siblings.trf", "family")] {
        let path = examples.join(file);
        let text = std::fs::read_to_string(&path).expect("reads");
        let t = pairing::read_trf(&text).expect("reads").tournament;
        let numbered = pairing::numbered(&t, None);
        let group = |n: u32| {
            let p = (0..t.players.len())
                .find(|&p| numbered.pairing_number(p) == n)
                .expect("a player");
            let player = &t.players[p];
            if key == "club" {
                Some(player.club.clone())
            } else {
                player.groups.first().cloned()
            }
        };
        let (code, out, err) = common::swisspair(&["pair", path.to_str().expect("path"), "-p"]);
        assert_eq!(code, 0, "{file}: {err}");
        let cli = pair_list(&out);
        assert_eq!(cli.len(), t.players.len() / 2, "{file}: {out}");
        for &(a, b) in &cli {
            assert!(
                group(a).is_none() || group(a) != group(b),
                "{file}: {a}-{b} share a {key}"
            );
        }
        let (status, answer) = post_json(&addr, "Pair", &serde_json::json!({ "trf": text }));
        assert_eq!(status, 200, "{answer}");
        let json: Vec<(u32, u32)> = answer["boards"]
            .as_array()
            .expect("boards")
            .iter()
            .map(|b| {
                let n = |k: &str| b[k].as_u64().unwrap_or(0) as u32;
                (n("whitePairingNumber"), n("blackPairingNumber"))
            })
            .collect();
        assert_eq!(json, cli, "{file}: JSON and CLI");
        let rule = answer["explanation"]["groups"][0]["steps"][0]["ruleId"].clone();
        assert_eq!(
            rule,
            if key == "club" { "SEP-5" } else { "SEP-1" },
            "{answer}"
        );
    }
    let body: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(examples.join("team-battle.json")).expect("reads"),
    )
    .expect("JSON");
    let team: std::collections::HashMap<String, String> = body["tournament"]["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap_or("").to_string(),
                p["teamId"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let (status, answer) = post_json(&addr, "Pair", &body);
    assert_eq!(status, 200, "{answer}");
    let boards = answer["boards"].as_array().expect("boards");
    assert_eq!(boards.len(), team.len() / 2);
    for b in boards {
        let (w, k) = (
            b["whiteId"].as_str().unwrap_or(""),
            b["blackId"].as_str().unwrap_or(""),
        );
        assert_ne!(team[w], team[k], "{w}-{k} are teammates: {answer}");
    }
    server.stop().await;
}

/// TRF `013` records in an individual event (they leave players out of every roster): each
/// rostered player's team is his group for a TEAM separation, weak or absolute (SEP-1,
/// SEP-5); without a separation the file pairs as before.
#[test]
fn trf_013_teams_of_an_individual_event_are_separation_groups() {
    let mut lines = vec![
        "012 Team battle".to_string(),
        "192 FIDE_DUTCH_2026".to_string(),
        "XXR 5".to_string(),
        "XXC white1".to_string(),
    ];
    for i in 1..=8u32 {
        lines.push(format!(
            "001 {i:>4}      {:<33} {:>4}",
            format!("Player {i}"),
            2000 - 20 * i
        ));
    }
    // Round 1 by the rules pairs 1-5, 6-2, 3-7, 8-4: teams Rooks {1, 5} and Bishops {3, 7}
    // would meet inside; 2, 4, 6 and 8 are in no team.
    let team = |name: &str, ranks: &[u32]| {
        let mut l = format!("013 {name:<32}");
        for r in ranks {
            l.push_str(&format!("{r:>4} "));
        }
        l.trim_end().to_string()
    };
    lines.push(team("Rooks", &[1, 5]));
    lines.push(team("Bishops", &[3, 7]));
    let plain = lines.join("\n") + "\n";
    let doc = pairing::read_trf(&plain).expect("an individual event");
    let t = doc.tournament;
    assert!(!t.is_team_event());
    let numbered = pairing::numbered(&t, None);
    let team_of = |n: u32| {
        let p = (0..t.players.len())
            .find(|&p| numbered.pairing_number(p) == n)
            .expect("a player");
        t.players[p].team_id.clone()
    };
    assert_eq!(team_of(1), "Rooks");
    assert_eq!(team_of(7), "Bishops");
    assert_eq!(team_of(2), "");
    let pairs = |text: &str| -> Vec<(u32, u32)> {
        let t = pairing::read_trf(text).expect("reads").tournament;
        let answer = pairing::pair(&t, &PairOptions::default()).expect("pairs");
        let n = pairing::numbered(&t, None);
        answer
            .pairing
            .boards
            .iter()
            .map(|b| (n.pairing_number(b.white), n.pairing_number(b.black)))
            .collect()
    };
    let mates = |list: &[(u32, u32)]| {
        list.iter()
            .filter(|&&(a, b)| !team_of(a).is_empty() && team_of(a) == team_of(b))
            .count()
    };
    assert_eq!(
        mates(&pairs(&plain)),
        2,
        "the rules alone pair both teams inside"
    );
    for mode in ["weak", "absolute"] {
        let text = format!("{plain}XSP team {mode}\n");
        let got = pairs(&text);
        assert_eq!(got.len(), 4);
        assert_eq!(mates(&got), 0, "{mode}: {got:?}");
    }
}

/// Every weak mode a system offers (SEP-5.1), as the property test draws them.
fn weak_modes(system: SystemId) -> Vec<SeparationMode> {
    let places = swisspair::systems::find(system)
        .map(|s| s.weak_separation_places())
        .unwrap_or_default();
    [
        SeparationMode::Weak,
        SeparationMode::WeakFirst,
        SeparationMode::WeakLast,
    ]
    .into_iter()
    .filter(|m| m.weak_place().is_some_and(|p| places.contains(&p)))
    .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// On random events of every system that pairs with separations, with a weak club
    /// separation at a place the system offers and an absolute family one: the answer
    /// (when the round can be paired) places every player once, never pairs two members of
    /// the family, and is the same twice (deterministic); a refusal is a clear error.
    #[test]
    fn separations_keep_every_systems_rules(
        which in 0usize..64,
        players in 5u32..16,
        played in 0usize..4,
        clubs in 2u64..5,
        pick in 0usize..3,
        seed in 0u64..1_000_000,
    ) {
        let systems = separating_systems();
        let system = systems[which % systems.len()];
        // A Double-Swiss game 2 repeats game 1's pairs (C.04.5 art. 0): only game 1 is paired.
        if system == SystemId::DoubleSwiss && played % 2 == 1 {
            return Ok(());
        }
        let Ok(mut t) = try_event(system, players, 7, played, clubs, seed) else {
            return Ok(());
        };
        let modes = weak_modes(system);
        let mut separations = vec![Separation::absolute(SeparationKey::Group("family".into()))];
        if !modes.is_empty() {
            separations.push(Separation {
                mode: modes[pick % modes.len()],
                ..Separation::absolute(SeparationKey::Club)
            });
        }
        t.separations = separations;
        // Two families of two (the first players by index), the rest in none.
        for (i, p) in t.players.iter_mut().enumerate() {
            p.groups = match i {
                0 | 3 => vec!["family:a".to_string()],
                1 | 4 => vec!["family:b".to_string()],
                _ => Vec::new(),
            };
        }
        let options = PairOptions::default();
        match pairing::pair(&t, &options) {
            Ok(answer) => {
                let again = pairing::pair(&t, &options).expect("the same request pairs again");
                prop_assert_eq!(&answer.pairing.boards, &again.pairing.boards);
                prop_assert_eq!(&answer.pairing.byes, &again.pairing.byes);
                let mut seen = std::collections::HashSet::new();
                for b in &answer.pairing.boards {
                    prop_assert!(seen.insert(b.white), "{:?}: {} placed twice", system, b.white);
                    prop_assert!(seen.insert(b.black), "{:?}: {} placed twice", system, b.black);
                    let family = |p: PlayerIdx| t.players[p].groups.first().cloned();
                    prop_assert!(
                        family(b.white).is_none() || family(b.white) != family(b.black),
                        "{:?}: {} and {} are one family", system, b.white, b.black
                    );
                }
                for bye in &answer.pairing.byes {
                    prop_assert!(seen.insert(bye.player), "{:?}: {} placed twice", system, bye.player);
                }
            }
            Err(PairError::NoLegalPairing { .. }) => {}
            Err(e) => prop_assert!(false, "{:?}: {}", system, e),
        }
    }
}

/// TRF `013` teams of an individual event round-trip through the writer: read, write and
/// read give the same tournament (the players' `team_id`s) and the same pairing under a
/// TEAM separation; teams given through the proto with every player in one (which `013`
/// lines would make a team event) come back through swisspair's `XTM` records.
#[test]
fn individual_event_teams_round_trip_through_trf() {
    let mut lines = vec![
        "012 Team battle".to_string(),
        "192 FIDE_DUTCH_2026".to_string(),
        "XXR 5".to_string(),
        "XXC white1".to_string(),
    ];
    for i in 1..=8u32 {
        lines.push(format!(
            "001 {i:>4}      {:<33} {:>4}",
            format!("Player {i}"),
            2000 - 20 * i
        ));
    }
    lines.push(format!("013 {:<32}{:>4} {:>4}", "Rooks", 1, 5));
    lines.push(format!("013 {:<32}{:>4} {:>4}", "Bishops", 3, 7));
    lines.push("XSP team weak".to_string());
    let text = lines.join("\n") + "\n";
    let first = pairing::read_trf(&text).expect("reads");
    assert!(!first.tournament.is_team_event());
    for dialect in [
        swisspair::trf::Dialect::JaVaFo,
        swisspair::trf::Dialect::Trf26,
    ] {
        let written = pairing::write_trf(&first, dialect).expect("writes");
        assert!(written.contains("013 Rooks"), "{written}");
        let second = pairing::read_trf(&written).expect("reads back");
        assert_eq!(second.tournament, first.tournament, "{written}");
        let a = pairing::pair(&first.tournament, &PairOptions::default()).expect("pairs");
        let b = pairing::pair(&second.tournament, &PairOptions::default()).expect("pairs");
        assert_eq!(a.pairing.boards, b.pairing.boards);
    }
    // Every player in a team (the lichess-style battle): XTM lines, not 013.
    let mut t = first.tournament.clone();
    for (i, p) in t.players.iter_mut().enumerate() {
        p.team_id = format!("team-{}", i % 3);
    }
    let doc = swisspair::trf::TrfDocument {
        tournament: t.clone(),
        ..Default::default()
    };
    let written = pairing::write_trf(&doc, swisspair::trf::Dialect::Trf26).expect("writes");
    assert!(!written.contains("\n013 "), "{written}");
    assert!(written.contains("\nXTM 1 team-0\n"), "{written}");
    let back = pairing::read_trf(&written).expect("reads back").tournament;
    assert!(!back.is_team_event());
    let ids = |t: &Tournament| {
        t.players
            .iter()
            .map(|p| p.team_id.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&back), ids(&t));
    assert_eq!(
        pairing::pair(&back, &PairOptions::default())
            .expect("pairs")
            .pairing
            .boards,
        pairing::pair(&t, &PairOptions::default())
            .expect("pairs")
            .pairing
            .boards
    );
}
