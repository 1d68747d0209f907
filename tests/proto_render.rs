//! What clients render: every explanation step's rule id has the one documented shape
//! (`systems::explanation` docs, the proto's `ExplanationStep.rule_id`), JavaPairing's tags
//! are in the rule id and not in the text, group labels are unique, and warnings are
//! messages with a code and the players they name.
mod common;

use common::server::Server;
use swisspair::model::SystemId;
use swisspair::proto;
use swisspair::service::ServerConfig;
use swisspair::simulate::{SimConfig, record_round, round_options, start};
use swisspair::systems::{self, Detail};

/// `AM-3.3`, `BG-7.1`, `CG-10`, `MP-1`, or `C.04.3 C12` / `C.04.1 art. 4`, optionally
/// followed by ` JP-<TAG>`.
fn has_the_shape(id: &str) -> bool {
    let (main, tag) = match id.split_once(" JP-") {
        Some((m, t)) => (m, Some(t)),
        None => (id, None),
    };
    // `JP-<TAG>` or `JP-<TAG>:<section>`.
    let tag_ok = tag.is_none_or(|t| {
        let (name, section) = t.split_once(':').unwrap_or((t, "1"));
        !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
            && !section.is_empty()
            && section.chars().all(|c| c.is_ascii_digit() || c == '.')
    });
    let fide = main.starts_with("C.04.") && main.len() > "C.04.".len();
    let spec = match main.split_once('-') {
        Some((letters, number)) => {
            (2..=3).contains(&letters.len()) && letters.chars().all(|c| c.is_ascii_uppercase()) && {
                // A sub-clause letter may follow: `VZ-4.4(c)`.
                let digits = number.split('(').next().unwrap_or("");
                let clause = &number[digits.len()..];
                !digits.is_empty()
                    && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
                    && (clause.is_empty()
                        || (clause.starts_with('(')
                            && clause.ends_with(')')
                            && clause[1..clause.len() - 1]
                                .chars()
                                .all(|c| c.is_ascii_lowercase())))
            }
        }
        None => false,
    };
    tag_ok && (fide || spec)
}

#[test]
fn every_system_explains_in_the_one_shape() {
    for system in systems::implemented() {
        let id = system.info().id;
        let mut config = SimConfig::new(id, 15, 5, 7);
        config.bye_request_rate = 0.05;
        if id == SystemId::RoundRobin {
            config.rounds = 5;
        }
        if id == SystemId::DoubleSwiss {
            config.rounds = 6; // two games per match
        }
        let mut t = start(&config);
        for _ in 0..config.rounds {
            let mut options = round_options(&t, &config);
            options.detail = Detail::Full;
            let Ok(answer) = swisspair::pairing::pair(&t, &options) else {
                break;
            };
            let ex = &answer.pairing.explanation;
            let mut labels = std::collections::HashSet::new();
            for g in &ex.groups {
                assert!(
                    labels.insert(g.label.clone()),
                    "{id}: label {:?} twice",
                    g.label
                );
                for s in &g.steps {
                    assert!(
                        has_the_shape(&s.rule_id),
                        "{id}: rule id {:?} ({})",
                        s.rule_id,
                        s.message
                    );
                    let tail = s.message.rsplit('[').next().unwrap_or("");
                    let left_tag = s.message.trim_end().ends_with(']')
                        && tail.starts_with(|c: char| c.is_ascii_uppercase())
                        && tail
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || " -.]".contains(c));
                    assert!(!left_tag, "{id}: a tag left in the text: {}", s.message);
                }
            }
            record_round(&mut t, &config, &answer.pairing);
        }
    }
}

/// Every step whose text names players lists them in `players` (`player_ids` in the
/// proto), so that a client can link or highlight them. Simulated players are `p1`…`pN`,
/// so a name in the text is unambiguous.
#[test]
fn steps_that_name_players_list_them() {
    let mut missing = Vec::new();
    for system in systems::implemented() {
        let id = system.info().id;
        let mut config = SimConfig::new(id, 15, 5, 11);
        config.bye_request_rate = 0.05;
        let mut t = start(&config);
        let index: std::collections::HashMap<String, usize> = t
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.clone(), i))
            .collect();
        for _ in 0..config.rounds {
            let mut options = round_options(&t, &config);
            options.detail = Detail::Full;
            let Ok(answer) = swisspair::pairing::pair(&t, &options) else {
                break;
            };
            for g in &answer.pairing.explanation.groups {
                for s in &g.steps {
                    let named: Vec<usize> = s
                        .message
                        .split(|c: char| !c.is_ascii_alphanumeric())
                        .filter_map(|w| index.get(w).copied())
                        .collect();
                    if named.iter().any(|p| !s.players.contains(p)) {
                        missing.push(format!("{id} {}: {}", s.rule_id, s.message));
                    }
                }
            }
            record_round(&mut t, &config, &answer.pairing);
        }
    }
    missing.sort();
    missing.dedup_by(|a, b| a.split(':').next() == b.split(':').next());
    assert!(
        missing.is_empty(),
        "{} kinds of step:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn the_shape_checker_itself() {
    for ok in [
        "AM-3.3",
        "BG-7.1",
        "CG-10",
        "C.04.3 C12",
        "C.04.1 art. 4",
        "CA-4 JP-PCS-SWITCH",
        "VZ-4.4(c)",
        "SS-3 JP-SS-GROUP:3.4.2",
    ] {
        assert!(has_the_shape(ok), "{ok}");
    }
    for bad in ["C12", "3.8", "internal", "", "AM-3.3 JP-"] {
        assert!(!has_the_shape(bad), "{bad}");
    }
}

/// A warning reaches the client with its code, rule and the players it names.
#[tokio::test]
async fn warnings_are_messages_with_code_and_players() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    // Round 1 without a first-round colour: the lot is drawn and said (CG-8).
    let t = proto::Tournament {
        system: proto::PairingSystem::Dutch as i32,
        total_rounds: 3,
        players: (1..=4)
            .map(|i| proto::Player {
                id: format!("p{i}"),
                name: format!("Player {i}"),
                rating: 2000 - i,
                ..proto::Player::default()
            })
            .collect(),
        ..proto::Tournament::default()
    };
    let r = client
        .pair(proto::PairRequest {
            input: Some(proto::pair_request::Input::Tournament(t)),
            seed: Some(3),
            ..proto::PairRequest::default()
        })
        .await
        .expect("pairs")
        .into_inner();
    let lot = r
        .warnings
        .iter()
        .find(|w| w.code == "COLOUR_LOT")
        .expect("a COLOUR_LOT warning");
    assert_eq!(lot.rule_id, "CG-8");
    assert!(lot.message.contains("by lot"));
    server.stop().await;
    // The TRF reader's warning names its player.
    let text = std::fs::read_to_string(common::conformance_dir("dutch").join("dutch-0001.trf"))
        .expect("corpus");
    let mut doc = swisspair::pairing::read_trf(&text).expect("valid");
    doc.declared_points[0] = swisspair::model::Score::parse("9.5");
    let w = doc.points_warnings();
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].code, "POINTS_COLUMN");
    assert_eq!(w[0].players, vec![0]);
}
