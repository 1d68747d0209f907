//! Round robin: the generator against the published FIDE Berger tables, and the
//! conformance corpora paired round by round.
mod common;

use swisspair::model::SystemId;
use swisspair::systems::round_robin::berger;

/// A table: its size and, per round, the (white, black) boards.
type Table = (u32, Vec<Vec<(u32, u32)>>);

/// The published tables (tests/data/berger_tables.txt).
fn published() -> Vec<Table> {
    let text = include_str!("data/berger_tables.txt");
    let mut tables: Vec<Table> = Vec::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        if let Some(n) = line.strip_prefix("n ") {
            tables.push((n.trim().parse().expect("table size"), Vec::new()));
            continue;
        }
        let (_, boards) = line.split_once(':').expect("round line");
        let boards = boards
            .split_whitespace()
            .map(|b| {
                let (w, k) = b.split_once('-').expect("board");
                (w.parse().expect("white"), k.parse().expect("black"))
            })
            .collect();
        tables
            .last_mut()
            .expect("a table header first")
            .1
            .push(boards);
    }
    tables
}

#[test]
fn generator_reproduces_the_published_berger_tables() {
    let tables = published();
    let sizes: Vec<u32> = tables.iter().map(|t| t.0).collect();
    assert_eq!(sizes, vec![4, 6, 8, 10, 12, 14, 16]);
    for (size, rounds) in tables {
        assert_eq!(rounds.len() as u32, size - 1, "table {size}");
        for (r, boards) in rounds.iter().enumerate() {
            assert_eq!(
                &berger::round(size, r as u32 + 1),
                boards,
                "table {size}, round {}",
                r + 1
            );
        }
    }
}

/// n = 3..16 players through the whole engine: odd n uses the next table with a bye.
#[test]
fn engine_pairs_every_size_from_3_to_16_as_the_tables() {
    use swisspair::model::{Player, Tournament};
    use swisspair::pairing::pair_round;
    use swisspair::systems::PairOptions;
    let tables = published();
    for n in 3u32..=16 {
        let size = n + n % 2;
        let rounds = &tables.iter().find(|t| t.0 == size).expect("table").1;
        let mut t = Tournament {
            system: Some(SystemId::RoundRobin),
            total_rounds: size - 1,
            players: (1..=n)
                .map(|i| Player {
                    id: format!("p{i}"),
                    pairing_number: Some(i),
                    ..Player::default()
                })
                .collect(),
            ..Tournament::default()
        };
        for (r, boards) in rounds.iter().enumerate() {
            let answer = pair_round(&t, &PairOptions::default()).expect("pairs");
            assert_eq!(answer.round, r as u32 + 1);
            let expected: Vec<(u32, u32)> = boards
                .iter()
                .copied()
                .filter(|&(w, b)| w <= n && b <= n)
                .collect();
            let got: Vec<(u32, u32)> = answer
                .boards
                .iter()
                .map(|b| (b.white as u32 + 1, b.black as u32 + 1))
                .collect();
            assert_eq!(got, expected, "n={n} round {}", r + 1);
            let byes: Vec<u32> = answer.byes.iter().map(|b| b.player as u32 + 1).collect();
            let expected_bye: Vec<u32> = boards
                .iter()
                .filter_map(|&(w, b)| {
                    if w > n {
                        Some(b)
                    } else if b > n {
                        Some(w)
                    } else {
                        None
                    }
                })
                .collect();
            assert_eq!(byes, expected_bye, "n={n} round {} bye", r + 1);
            // Record the round as played so the next one is paired.
            t.rounds.push(swisspair::model::Round {
                games: answer
                    .boards
                    .iter()
                    .map(|b| swisspair::model::Game {
                        white: b.white,
                        black: b.black,
                        result: swisspair::model::GameResult::Draw,
                        board: None,
                    })
                    .collect(),
                byes: answer
                    .byes
                    .iter()
                    .map(|b| swisspair::model::Bye {
                        player: b.player,
                        kind: b.kind,
                    })
                    .collect(),
            });
        }
    }
}

fn run_corpus(sub: &str) -> (usize, usize) {
    common::run_corpus(sub, SystemId::RoundRobin)
}

#[test]
fn conformance_round_robin() {
    let (passed, failed) = run_corpus("round-robin");
    assert!(passed > 0);
    assert_eq!(failed, 0);
}

#[test]
fn conformance_javapairing_round_robin() {
    let (passed, failed) = run_corpus("javapairing/round-robin");
    assert!(passed > 0);
    assert_eq!(failed, 0);
}

/// FIDE's verification (VCL4THP Q98-99): in a double round robin with an even number of
/// players the last two rounds of the first cycle are reversed or not, as the organiser
/// chooses (`swap_last_two_rounds`, default: not reversed).
#[test]
fn double_round_robin_reverses_the_first_cycles_last_two_rounds_on_request() {
    use std::collections::BTreeSet;
    let pairs = |swap: bool| -> Vec<BTreeSet<(usize, usize)>> {
        let mut c = swisspair::simulate::SimConfig::new(SystemId::RoundRobin, 6, 10, 3);
        c.options.set("cycles", "2").expect("named");
        if swap {
            c.options
                .set("swap_last_two_rounds", "true")
                .expect("named");
        }
        let t = swisspair::simulate::simulate(&c).expect("simulates");
        t.rounds
            .iter()
            .map(|r| {
                r.games
                    .iter()
                    .map(|g| (g.white.min(g.black), g.white.max(g.black)))
                    .collect()
            })
            .collect()
    };
    let (plain, swapped) = (pairs(false), pairs(true));
    assert_ne!(plain[3], plain[4]);
    // Rounds 4 and 5 (the first cycle's last two) change places; every other round stays.
    assert_eq!(swapped[3], plain[4]);
    assert_eq!(swapped[4], plain[3]);
    for r in (0..3).chain(5..10) {
        assert_eq!(swapped[r], plain[r], "round {}", r + 1);
    }
}
