//! The Dutch engine's certificate shortcuts (`Engine::Fast`) against the dense path alone
//! (`Engine::Dense`) on simulated tournaments: every round of every tournament must get
//! the same pairs and the same PAB (C.04.3 art. 4: the answers are facts about optimal
//! pairings, whichever engine finds them). The tournaments are played on with the dense
//! path's pairing.
use swisspair::model::SystemId;
use swisspair::simulate::{SimConfig, record_round, round_options, start};
use swisspair::systems::RoundToPair;
use swisspair::systems::common::History;
use swisspair::systems::common::fide_players::Field;
use swisspair::systems::dutch::brackets::{Engine, GLOBAL_UP_TO, RoundOutcome, pair_round_using};

type Pairing = (Vec<(usize, usize)>, Option<usize>);

fn normal(o: RoundOutcome) -> Pairing {
    let mut pairs: Vec<(usize, usize)> =
        o.pairs.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
    pairs.sort_unstable();
    (pairs, o.bye)
}

/// Compares both engines on every round of one simulated tournament, under three graph
/// policies (the default, the smallest graphs, and everybody in the graph up to 64
/// players, the default before issue 37); returns the number of rounds compared.
fn compare(players: u32, rounds: u32, seed: u64, draw_rate: f64, byes: f64) -> usize {
    let mut config = SimConfig::new(SystemId::Dutch, players, rounds, seed);
    config.draw_rate = draw_rate;
    config.bye_request_rate = byes;
    config.forfeit_rate = 0.03;
    let mut t = start(&config);
    let mut compared = 0;
    for number in 1..=rounds {
        let options = round_options(&t, &config);
        let r = RoundToPair::prepare(&t, &options).expect("a valid round");
        let history = History::build(&r);
        let field = Field::build(
            &r,
            &history,
            swisspair::systems::dutch::edition::Edition::of(&r.tournament.options).text(),
        );
        for global_up_to in [GLOBAL_UP_TO, 0, 64] {
            let fast = pair_round_using(&field, global_up_to, Engine::Fast).map(normal);
            let dense = pair_round_using(&field, global_up_to, Engine::Dense).map(normal);
            match (fast, dense) {
                (Ok(f), Ok(d)) => assert_eq!(
                    f, d,
                    "{players} players, seed {seed}, round {number}, policy {global_up_to}"
                ),
                (Err(_), Err(_)) => {}
                (f, d) => panic!(
                    "{players} players, seed {seed}, round {number}: fast {:?}, dense {:?}",
                    f.is_ok(),
                    d.is_ok()
                ),
            }
        }
        compared += 1;
        let Ok(pairing) = swisspair::pairing::pair_round(&t, &options) else {
            break;
        };
        record_round(&mut t, &config, &pairing);
    }
    compared
}

#[test]
fn fast_and_dense_engines_pair_alike() {
    let mut compared = 0;
    let sizes: &[u32] = if cfg!(debug_assertions) {
        &[7, 12, 19, 30, 41, 64, 90]
    } else {
        &[7, 12, 19, 30, 41, 64, 90, 130, 201, 300]
    };
    for (k, &players) in sizes.iter().enumerate() {
        for seed in 0..4u64 {
            let draws = [0.0, 0.3, 0.6][(seed % 3) as usize];
            let byes = if seed % 2 == 0 { 0.0 } else { 0.05 };
            compared += compare(players, 9, 1000 * k as u64 + seed, draws, byes);
        }
    }
    eprintln!("dutch engines: {compared} rounds compared");
    assert!(compared >= sizes.len() * 4 * 5);
}

/// A field of 1,001 players: the odd whole-field graphs get a vertex standing for the
/// player left out (the PAB), which the dense path never has, over brackets of hundreds;
/// both must still pair alike. Three rounds (the first ones hold the largest brackets).
#[test]
fn a_large_odd_field_pairs_alike() {
    let compared = compare(1001, 3, 77, 0.3, 0.0);
    assert_eq!(compared, 3);
}

/// Odd fields, where the fast engine's stand-in vertices work (`Engine::stand_in_vertices`:
/// the vertex for the player left out of an odd whole-field graph, for a bracket's one
/// float, and in the pairing of the next scoregroup that C8 counted, which the completion
/// check reads; every optimum pairs it with him), with art. 4.3's exchanges on many small
/// brackets. Same pairs and PAB as the dense path, which has no such vertex, on every
/// round.
#[test]
fn stand_in_vertices_pair_alike_on_odd_fields() {
    let mut compared = 0;
    let sizes: &[u32] = if cfg!(debug_assertions) {
        &[9, 15, 25, 41, 63, 101]
    } else {
        &[9, 15, 25, 41, 63, 101, 161, 255, 401]
    };
    for (k, &players) in sizes.iter().enumerate() {
        for seed in 0..4u64 {
            let draws = [0.0, 0.3, 0.6][(seed % 3) as usize];
            let byes = if seed % 2 == 0 { 0.0 } else { 0.05 };
            compared += compare(players, 9, 5000 + 1000 * k as u64 + seed, draws, byes);
        }
    }
    eprintln!("dutch engines, odd fields: {compared} rounds compared");
    assert!(compared >= sizes.len() * 4 * 5);
}

#[test]
fn who_may_meet_whom_by_rows_answers_as_the_bit_matrix() {
    for (players, rounds, seed) in [(41u32, 9u32, 3u64), (64, 7, 11), (90, 5, 29)] {
        let mut config = SimConfig::new(SystemId::Dutch, players, rounds, seed);
        config.bye_request_rate = 0.05;
        config.forfeit_rate = 0.05;
        let mut t = start(&config);
        // Nine forbidden groups for rounds 1-3 (CG-10), as an absolute separation of nine
        // clubs gives them.
        let n = t.players.len();
        for club in 0..9 {
            t.forbidden_pairings
                .push(swisspair::model::ForbiddenPairing {
                    players: (club..n).step_by(9).collect(),
                    first_round: None,
                    last_round: Some(3),
                });
        }
        for number in 1..=rounds {
            let options = round_options(&t, &config);
            let r = RoundToPair::prepare(&t, &options).expect("a valid round");
            let history = History::build(&r);
            let text =
                swisspair::systems::dutch::edition::Edition::of(&r.tournament.options).text();
            let bits = Field::build(&r, &history, text);
            let rows = Field::build(&r, &history, text).without_bit_matrix();
            let n = bits.len();
            let mut barred = 0;
            for a in 0..n {
                for b in 0..n {
                    assert_eq!(
                        bits.compatible(a, b),
                        rows.compatible(a, b),
                        "seed {seed}, round {number}, entrants {a} and {b}"
                    );
                    barred += usize::from(!bits.compatible(a, b));
                }
            }
            assert!(barred > n, "round {number}: the rules barred some pairs");
            let by_bits = pair_round_using(&bits, GLOBAL_UP_TO, Engine::Fast).map(normal);
            let by_rows = pair_round_using(&rows, GLOBAL_UP_TO, Engine::Fast).map(normal);
            assert_eq!(by_bits.ok(), by_rows.ok(), "seed {seed}, round {number}");
            // Every bracket by its window, each then asking the completion matching (C4):
            // the cardinality matcher over the matrix's rows, and the weighted engine for
            // the field without the matrix.
            let by_bits = pair_round_using(&bits, 0, Engine::Fast).map(normal);
            let by_rows = pair_round_using(&rows, 0, Engine::Fast).map(normal);
            assert_eq!(
                by_bits.ok(),
                by_rows.ok(),
                "seed {seed}, round {number}, windows"
            );
            let pairing = swisspair::pairing::pair_round(&t, &options).expect("a pairing");
            record_round(&mut t, &config, &pairing);
        }
    }
}
