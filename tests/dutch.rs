//! The Dutch system (2026): the conformance corpus paired round by round, and hand-worked
//! cases.
mod common;

use std::path::PathBuf;

use swisspair::check::{CheckOptions, check};
use swisspair::model::SystemId;

/// Pairs every round of the given files; returns (passed, failed) rounds and prints each
/// failing round.
fn run_files(files: &[PathBuf]) -> (usize, usize) {
    let (mut passed, mut failed) = (0, 0);
    for path in files {
        let text = std::fs::read_to_string(path).expect("readable");
        let doc = swisspair::pairing::read_trf(&text).expect("valid TRF");
        let options = CheckOptions {
            system: Some(SystemId::Dutch),
            ..CheckOptions::default()
        };
        let report = check(&doc.tournament, &options).expect("checkable");
        for r in &report.rounds {
            if !r.matches() {
                println!(
                    "{} round {}: {:?} {:?}",
                    path.file_name()
                        .map_or(String::new(), |f| f.to_string_lossy().to_string()),
                    r.round,
                    r.error,
                    r.differences
                );
            }
        }
        passed += report.passed();
        failed += report.failed();
    }
    (passed, failed)
}

/// Prints a summary line even when the test harness captures output (CI logs show it).
fn summary(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

fn corpus() -> Vec<PathBuf> {
    let files = common::trf_files(&common::conformance_dir("dutch"));
    assert!(!files.is_empty(), "no files in conformance/dutch");
    if let Ok(only) = std::env::var("DUTCH_ONLY") {
        return files
            .into_iter()
            .filter(|p| p.to_string_lossy().contains(&only))
            .collect();
    }
    files
}

/// The whole corpus (about a minute in a debug build, seconds in release).
#[test]
fn conformance_dutch() {
    let (passed, failed) = run_files(&corpus());
    summary(&format!(
        "conformance dutch: {passed} passed, {failed} failed"
    ));
    assert!(passed > 0);
    assert_eq!(failed, 0);
}

/// A pairing as unordered pairs of players and the PAB.
type Pairing = (Vec<(usize, usize)>, Option<usize>);

/// The round `options` names of `t` paired under the default graph policy, then with the
/// smallest graphs (0) and with everybody in every graph (`usize::MAX`): `None` where the
/// engine could not pair.
fn policy_outcomes(
    t: &swisspair::model::Tournament,
    options: &swisspair::systems::PairOptions,
) -> [Option<Pairing>; 3] {
    use swisspair::systems::RoundToPair;
    use swisspair::systems::common::History;
    use swisspair::systems::common::fide_players::Field;
    use swisspair::systems::dutch::brackets::{GLOBAL_UP_TO, RoundOutcome, pair_round_with};
    let Ok(r) = RoundToPair::prepare(t, options) else {
        return [None, None, None];
    };
    let history = History::build(&r);
    let field = Field::build(
        &r,
        &history,
        swisspair::systems::dutch::edition::Edition::of(&r.tournament.options).text(),
    );
    let players = |o: RoundOutcome| -> Pairing {
        let mut pairs: Vec<(usize, usize)> = o
            .pairs
            .iter()
            .map(|&(a, b)| {
                let (a, b) = (field.entrants[a].player, field.entrants[b].player);
                (a.min(b), a.max(b))
            })
            .collect();
        pairs.sort_unstable();
        (pairs, o.bye.map(|b| field.entrants[b].player))
    };
    [GLOBAL_UP_TO, 0, usize::MAX].map(|mode| pair_round_with(&field, mode).ok().map(&players))
}

/// The corpus with every bracket paired in the smallest graph (C4 checked afterwards),
/// then with everybody in the graph: both must give the default policy's pairing, which
/// `conformance_dutch` compares with the reference (release builds: `cargo test
/// --release --test dutch`).
#[test]
#[cfg_attr(debug_assertions, ignore)]
fn conformance_dutch_window_and_global_modes() {
    use swisspair::model::{ByeKind, Round};
    use swisspair::systems::PairOptions;
    let (mut same, mut different) = (0, 0);
    for path in corpus() {
        let text = std::fs::read_to_string(&path).expect("readable");
        let t = swisspair::pairing::read_trf(&text)
            .expect("valid TRF")
            .tournament;
        for number in 1..=t.rounds_paired() {
            let Some(recorded) = t.round(number) else {
                continue;
            };
            let mut before = t.clone();
            before.rounds.truncate(number as usize - 1);
            before.rounds.push(Round {
                games: Vec::new(),
                byes: recorded
                    .byes
                    .iter()
                    .filter(|b| b.kind != ByeKind::Pab)
                    .cloned()
                    .collect(),
            });
            let options = PairOptions {
                round: Some(number),
                system: Some(SystemId::Dutch),
                ..PairOptions::default()
            };
            let [default, smallest, full] = policy_outcomes(&before, &options);
            for (mode, o) in [("smallest", smallest), ("full", full)] {
                if o == default {
                    same += 1;
                } else {
                    different += 1;
                    println!(
                        "{} round {number}: the {mode} graphs differ",
                        path.display()
                    );
                }
            }
        }
    }
    summary(&format!(
        "conformance dutch (smallest and full graphs): {same} agree, {different} differ"
    ));
    assert!(same > 0);
    assert_eq!(different, 0);
}

/// Debugging aid: `DUTCH_DEBUG=path/to/file.trf:ROUND cargo test --release --test dutch
/// debug_round -- --ignored --nocapture` pairs one round and prints the explanation, the
/// engine's pairs and the recorded ones.
#[test]
#[ignore]
fn debug_round() {
    use swisspair::model::{ByeKind, Round};
    use swisspair::systems::{Detail, PairOptions};
    let Ok(spec) = std::env::var("DUTCH_DEBUG") else {
        return;
    };
    let (path, round) = spec.rsplit_once(':').expect("FILE:ROUND");
    let round: u32 = round.parse().expect("round");
    let text = std::fs::read_to_string(path).expect("file");
    let doc = swisspair::pairing::read_trf(&text).expect("trf");
    let t = &doc.tournament;
    let mut before = t.clone();
    before.rounds.truncate(round as usize - 1);
    let recorded = t.round(round).cloned().unwrap_or_default();
    before.rounds.push(Round {
        games: Vec::new(),
        byes: recorded
            .byes
            .iter()
            .filter(|b| b.kind != ByeKind::Pab)
            .cloned()
            .collect(),
    });
    let opts = PairOptions {
        round: Some(round),
        system: Some(SystemId::Dutch),
        detail: Detail::Full,
        ..PairOptions::default()
    };
    let start = std::time::Instant::now();
    let p = swisspair::pairing::pair_round(&before, &opts).expect("pairs");
    let elapsed = start.elapsed();
    for g in &p.explanation.groups {
        println!("== {}", g.label);
        for s in &g.steps {
            println!("  [{}] {}", s.rule_id, s.message);
        }
    }
    let id = |i: usize| t.players[i].id.clone();
    let mut eng: Vec<String> = p
        .boards
        .iter()
        .map(|b| format!("{} - {}", id(b.white), id(b.black)))
        .collect();
    eng.sort();
    println!("engine: {}", eng.join(", "));
    let mut rec: Vec<String> = recorded
        .games
        .iter()
        .map(|g| format!("{} - {}", id(g.white), id(g.black)))
        .collect();
    rec.sort();
    println!("record: {}", rec.join(", "));
    println!("paired in {elapsed:?}");
}

// ---------------------------------------------------------------------------------------
// Hand-worked cases.

use swisspair::model::{
    Bye, ByeKind, Colour, Game, GameResult, Player, Round, Scoring, Tournament,
};
use swisspair::pairing::pair_round;
use swisspair::systems::{Detail, PairOptions, RoundPairing};

/// `n` players `p1..pn` with pairing numbers by rating, first-round colour white.
fn field(n: u32, total_rounds: u32) -> Tournament {
    Tournament {
        system: Some(SystemId::Dutch),
        total_rounds,
        initial_colour: Some(Colour::White),
        players: (1..=n)
            .map(|i| Player {
                id: format!("p{i}"),
                rating: 2800 - i * 10,
                pairing_number: Some(i),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    }
}

/// A round from `(white, black, result)` with 1-based numbers (`"1-0"`, `"0-1"`, `"="`)
/// and byes `(player, kind)`.
fn round(games: &[(usize, usize, &str)], byes: &[(usize, ByeKind)]) -> Round {
    Round {
        games: games
            .iter()
            .map(|&(w, b, r)| Game {
                white: w - 1,
                black: b - 1,
                result: match r {
                    "1-0" => GameResult::WhiteWins,
                    "0-1" => GameResult::BlackWins,
                    "=" => GameResult::Draw,
                    "+" => GameResult::WhiteWinsForfeit,
                    other => panic!("result {other}"),
                },
                board: None,
            })
            .collect(),
        byes: byes
            .iter()
            .map(|&(p, kind)| Bye {
                player: p - 1,
                kind,
            })
            .collect(),
    }
}

/// The boards as (white, black) 1-based numbers, sorted, and the PAB.
fn boards(p: &RoundPairing) -> (Vec<(usize, usize)>, Option<usize>) {
    let mut b: Vec<(usize, usize)> = p
        .boards
        .iter()
        .map(|b| (b.white + 1, b.black + 1))
        .collect();
    b.sort_unstable();
    let pab = p
        .byes
        .iter()
        .find(|b| b.kind == ByeKind::Pab)
        .map(|b| b.player + 1);
    (b, pab)
}

fn pair_next(t: &Tournament) -> RoundPairing {
    pair_round(
        t,
        &PairOptions {
            detail: Detail::Full,
            ..PairOptions::default()
        },
    )
    .expect("pairs")
}

fn rules_of(p: &RoundPairing, group: &str) -> Vec<String> {
    p.explanation
        .groups
        .iter()
        .filter(|g| g.label == group)
        .flat_map(|g| g.steps.iter().map(|s| s.rule_id.clone()))
        .collect()
}

#[test]
fn round_one_colours_follow_5_2_5() {
    // S1 = 1 2 3 against S2 = 4 5 6; the higher-ranked player of each board has the
    // initial colour when his pairing number is odd, the other one when it is even.
    let mut t = field(6, 5);
    let p = pair_next(&t);
    assert_eq!(boards(&p), (vec![(1, 4), (3, 6), (5, 2)], None));
    assert!(
        rules_of(&p, "colours").iter().all(|r| r == "C.04.3 5.2.5"),
        "{:?}",
        rules_of(&p, "colours")
    );
    t.initial_colour = Some(Colour::Black);
    let p = pair_next(&t);
    assert_eq!(boards(&p), (vec![(2, 5), (4, 1), (6, 3)], None));
    // Board order (GHR 3.6): equal scores, so by the higher player's pairing number.
    let first: Vec<usize> = p.boards.iter().map(|b| b.white.min(b.black) + 1).collect();
    assert_eq!(first, vec![1, 2, 3]);
}

#[test]
fn round_one_odd_field_gives_the_pab_to_the_last_player() {
    let t = field(7, 5);
    let p = pair_next(&t);
    assert_eq!(boards(&p), (vec![(1, 4), (3, 6), (5, 2)], Some(7)));
}

#[test]
fn c5_gives_the_pab_to_the_lowest_score() {
    // After two rounds 1 and 3 have 2 points, 2 and 5 one, 6 none; 4 is absent. The 2017
    // rules gave the PAB to a 1-point player; C5 (2026) gives it to the 0-point player as
    // long as everybody else can be paired: 1-5 and 3-2.
    let mut t = field(6, 3);
    t.rounds
        .push(round(&[(1, 4, "1-0"), (5, 2, "0-1"), (3, 6, "1-0")], &[]));
    t.rounds
        .push(round(&[(2, 1, "0-1"), (4, 3, "0-1"), (6, 5, "0-1")], &[]));
    t.rounds.push(round(&[], &[(4, ByeKind::ZeroPoint)]));
    let p = pair_next(&t);
    assert_eq!(boards(&p), (vec![(1, 5), (3, 2)], Some(6)));
    assert!(rules_of(&p, "pairing-allocated bye").contains(&"C.04.3 C5".to_string()));
}

#[test]
fn c9_gives_the_pab_to_the_player_with_fewer_unplayed_games() {
    // Round 1: 1 beat 3, 2 beat 4, 5 was absent. Three players on 0 points; 5 has an
    // unplayed game, so the PAB goes to 4, who played (C9).
    let mut t = field(5, 3);
    t.rounds.push(round(
        &[(1, 3, "1-0"), (4, 2, "0-1")],
        &[(5, ByeKind::ZeroPoint)],
    ));
    let p = pair_next(&t);
    assert_eq!(boards(&p), (vec![(2, 1), (3, 5)], Some(4)));
}

#[test]
fn heterogeneous_bracket_pairs_the_mdps_first() {
    // Round 1: 1 beat 4, 5 beat 2, 3 and 6 drew. Round 2: 1-5 in the top bracket; 3 and 6
    // met, so both float into the 0-point bracket as MDPs. MDP 3 (prefers black) takes the
    // first resident, 2 (prefers white); MDP 6 gets 4; both want white, and the
    // higher-ranked 6 gets it (5.2.4).
    let mut t = field(6, 5);
    t.rounds
        .push(round(&[(1, 4, "1-0"), (5, 2, "1-0"), (3, 6, "=")], &[]));
    let p = pair_next(&t);
    assert_eq!(boards(&p), (vec![(2, 3), (5, 1), (6, 4)], None));
    let bracket = p
        .explanation
        .groups
        .iter()
        .find(|g| g.label == "bracket 0.0")
        .expect("bracket 0.0 explained");
    assert!(
        bracket
            .steps
            .iter()
            .any(|s| s.rule_id == "C.04.3 3.2" && s.message.contains("S1 = paired MDPs p3, p6")),
        "{:?}",
        bracket.steps
    );
}

/// Two leaders with White twice in a row (absolute preference for black) who have not met.
fn leaders_with_the_same_absolute_preference(total_rounds: u32) -> Tournament {
    let mut t = field(6, total_rounds);
    t.rounds
        .push(round(&[(1, 4, "1-0"), (5, 2, "1-0"), (3, 6, "1-0")], &[]));
    t.rounds
        .push(round(&[(1, 6, "1-0"), (5, 3, "1-0"), (2, 4, "=")], &[]));
    t
}

#[test]
fn c3_lets_topscorers_meet_in_the_last_round_only() {
    // Last round: 1 and 5 (2 points of 2) are topscorers, so C3 does not keep them apart;
    // C6 pairs them, and as both have WW, 5.2.4 gives the higher-ranked 1 his black.
    let p = pair_next(&leaders_with_the_same_absolute_preference(3));
    let (b, _) = boards(&p);
    assert!(b.contains(&(5, 1)), "{b:?}");
    // Earlier rounds: C3 forbids the pair.
    let p = pair_next(&leaders_with_the_same_absolute_preference(5));
    let (b, _) = boards(&p);
    assert!(!b.contains(&(5, 1)) && !b.contains(&(1, 5)), "{b:?}");
}

#[test]
fn c2_keeps_the_pab_from_players_who_had_one() {
    // 2 and 3 both had the PAB: in round 3 only the leader 1 may receive it (C2 comes
    // before C5), and 2-3 is the only pair left.
    let mut t = field(3, 3);
    t.rounds.push(round(&[(1, 2, "1-0")], &[(3, ByeKind::Pab)]));
    t.rounds.push(round(&[(1, 3, "1-0")], &[(2, ByeKind::Pab)]));
    let p = pair_next(&t);
    assert_eq!(boards(&p), (vec![(2, 3)], Some(1)));
}

#[test]
fn scoring_three_one_zero_pairs_by_points() {
    let mut t = field(4, 3);
    t.scoring = Scoring::with_game_points(
        swisspair::model::Score::points(3),
        swisspair::model::Score::points(1),
        swisspair::model::Score::ZERO,
    );
    t.rounds.push(round(&[(1, 3, "="), (4, 2, "0-1")], &[]));
    // 2 has 3 points, 1 and 3 one each, 4 none: 2 meets 1 (3 already met 1).
    let p = pair_next(&t);
    let (b, _) = boards(&p);
    assert_eq!(b.len(), 2);
    assert!(b.contains(&(1, 2)) || b.contains(&(2, 1)), "{b:?}");
}

#[test]
fn acceleration_adds_virtual_points_to_the_pairing_score() {
    // Baku-style: players 1 and 2 carry a virtual point in round 1, so they form the top
    // scoregroup and meet; 3 and 4 meet below.
    let mut t = field(4, 5);
    for p in [0, 1] {
        t.accelerations.push(swisspair::model::Acceleration {
            player: p,
            first_round: 1,
            last_round: 2,
            points: swisspair::model::Score::points(1),
        });
    }
    let p = pair_next(&t);
    assert_eq!(boards(&p), (vec![(1, 2), (3, 4)], None));
}

#[test]
fn tiny_fields() {
    // One player: the PAB.
    let p = pair_next(&field(1, 3));
    assert_eq!(boards(&p), (vec![], Some(1)));
    // Two players who met: no legal pairing (C1), reported with the rule.
    let mut t = field(2, 3);
    t.rounds.push(round(&[(1, 2, "=")], &[]));
    match pair_round(&t, &PairOptions::default()) {
        Err(swisspair::systems::PairError::NoLegalPairing { rule, .. }) => {
            assert!(rule.contains("C4"), "{rule}")
        }
        other => panic!("expected no legal pairing, got {other:?}"),
    }
}

/// Simulated tournaments (forfeits, half-point byes, a forbidden pair): every round pairs
/// without an internal error, and the three graph strategies (smallest graphs, default,
/// everybody) give the same pairing. Release builds run more tournaments.
#[test]
fn graph_strategies_agree_on_simulated_tournaments() {
    use swisspair::simulate::{SimConfig, record_round, round_options, start};
    let count = if cfg!(debug_assertions) { 6 } else { 50 };
    for seed in 0..count {
        let players = 9 + (seed * 37) % 120;
        let rounds = 5 + (seed % 5);
        let mut config = SimConfig::new(SystemId::Dutch, players as u32, rounds as u32, seed);
        config.forfeit_rate = if seed % 3 == 0 { 0.08 } else { 0.0 };
        config.bye_request_rate = if seed % 4 == 1 { 0.06 } else { 0.0 };
        let mut t = start(&config);
        t.forbidden_pairings
            .push(swisspair::model::ForbiddenPairing {
                players: vec![0, 1],
                first_round: None,
                last_round: None,
            });
        for _ in 0..config.rounds {
            let options = round_options(&t, &config);
            let answer = pair_round(&t, &options);
            let [default, smallest, full] = policy_outcomes(&t, &options);
            assert_eq!(
                default,
                smallest,
                "seed {seed}, round {}",
                t.rounds_paired() + 1
            );
            assert_eq!(
                default,
                full,
                "seed {seed}, round {}",
                t.rounds_paired() + 1
            );
            let first = match &answer {
                Ok(p) => p.clone(),
                Err(swisspair::systems::PairError::NoLegalPairing { rule, message, .. }) => {
                    assert_ne!(rule, "internal", "seed {seed}: {message}");
                    break;
                }
                Err(e) => panic!("seed {seed}: {e}"),
            };
            assert!(default.is_some(), "seed {seed}: paired, yet no outcome");
            record_round(&mut t, &config, &first);
        }
    }
}
