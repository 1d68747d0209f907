//! Backgammon from the command line: `pair` prints pairs first-drawn first and the game
//! against [absent] as `N 0`; `pair --provisional` prints placeholders; `finals`; bad
//! input exits 3 with the field, round and players; the TRF code of [absent] round-trips.
mod common;

use std::path::PathBuf;

use common::swisspair;

use swisspair::model::{Bye, ByeKind, Game, GameResult, Player, Round, SystemId, Tournament};
use swisspair::systems::PairOptions;
use swisspair::trf::{Dialect, TrfDocument};

fn event(n: u32) -> Tournament {
    Tournament {
        name: "Backgammon club".to_string(),
        system: Some(SystemId::Backgammon),
        players: (1..=n)
            .map(|i| Player {
                id: i.to_string(),
                name: format!("Player {i}"),
                pairing_number: Some(i),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    }
}

fn write(t: &Tournament, name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("swisspair-bg-{}-{name}.trf", std::process::id()));
    let doc = TrfDocument {
        tournament: t.clone(),
        ..TrfDocument::default()
    };
    std::fs::write(
        &path,
        swisspair::pairing::write_trf(&doc, Dialect::Trf26).expect("writable as TRF"),
    )
    .expect("write");
    path
}

/// Plays the next round with the engine; `result` decides each board.
fn play(t: &mut Tournament, result: impl Fn(usize) -> GameResult) {
    let p = swisspair::pairing::pair_round(
        t,
        &PairOptions {
            seed: Some(7),
            ..PairOptions::default()
        },
    )
    .expect("pair");
    t.rounds.push(Round {
        games: p
            .boards
            .iter()
            .enumerate()
            .map(|(i, b)| Game {
                white: b.white,
                black: b.black,
                result: result(i),
                board: None,
            })
            .collect(),
        byes: p
            .byes
            .iter()
            .map(|b| Bye {
                player: b.player,
                kind: b.kind,
            })
            .collect(),
    });
}

#[test]
fn pair_prints_first_drawn_first_and_absent_as_zero() {
    let path = write(&event(7), "r1");
    let file = path.to_str().expect("path");
    let (code, out, err) = swisspair(&["pair", file, "-p", "--seed", "5"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "4", "{out}");
    assert!(lines[4].ends_with(" 0"), "[absent] as `N 0`: {out}");
    let mut ids: Vec<u32> = lines[1..]
        .iter()
        .flat_map(|l| l.split(' ').map(|x| x.parse::<u32>().expect("number")))
        .filter(|&x| x != 0)
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, (1..=7).collect::<Vec<_>>());
    let (_, again, _) = swisspair(&["pair", file, "-p", "--seed", "5"]);
    assert_eq!(out, again, "the same seed gives the same draw");
    // JSON: no colours, the first/second ids, BG-1's rounds and the [absent] kind.
    let (code, json, err) = swisspair(&[
        "pair",
        file,
        "--json",
        "--seed",
        "5",
        "--option",
        "match_length=11",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        json.contains("\"first_id\"") && !json.contains("\"white_id\""),
        "{json}"
    );
    assert!(json.contains("\"total_rounds\": 3"), "{json}");
    assert!(json.contains("\"match_length\": 11"), "{json}");
    assert!(json.contains("BYE_KIND_ABSENT_OPPONENT"), "{json}");
}

#[test]
fn pair_provisional_prints_placeholders() {
    let mut t = event(7);
    play(&mut t, |_| GameResult::Pending);
    let path = write(&t, "early");
    let file = path.to_str().expect("path");
    let (code, out, err) = swisspair(&[
        "pair",
        "--system",
        "backgammon",
        "--provisional",
        file,
        "--seed",
        "7",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0], "4",
        "3 boards and the game against [absent]: {out}"
    );
    assert!(
        lines[1].starts_with("winner of board ") || lines[1].contains(" - winner of board "),
        "{out}"
    );
    assert!(
        lines[4].starts_with("loser of board ") && lines[4].ends_with(" - [absent]"),
        "{out}"
    );
    let (code, json, _) = swisspair(&["pair", "--provisional", file, "--json", "--seed", "7"]);
    assert_eq!(code, 0);
    assert!(
        json.contains("PLACEHOLDER_KIND_WINNER_OF_BOARD") && json.contains("\"seed\": 7"),
        "{json}"
    );
    // Once a result is in, the early draw is refused: exit 3 naming the game.
    t.rounds[0].games[0].result = GameResult::WhiteWins;
    let path = write(&t, "early-late");
    let (code, _, err) = swisspair(&["pair", "--provisional", path.to_str().expect("path")]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("tournament.rounds[0].games[0].result: round 1: the game"),
        "{err}"
    );
    assert!(err.contains("already has a result"), "{err}");
}

#[test]
fn a_draw_is_refused_with_exit_code_3() {
    let mut t = event(4);
    play(&mut t, |i| {
        if i == 1 {
            GameResult::Draw
        } else {
            GameResult::WhiteWins
        }
    });
    let path = write(&t, "draw");
    let (code, out, err) = swisspair(&["pair", path.to_str().expect("path"), "-p"]);
    assert_eq!(code, 3, "{out}");
    assert!(
        err.starts_with("swisspair: invalid input: 1 problem"),
        "{err}"
    );
    assert!(
        err.contains("tournament.rounds[0].games[1].result: round 1: the game"),
        "{err}"
    );
    assert!(
        err.contains("is a draw, but a backgammon match has a winner (BG-2)"),
        "{err}"
    );
}

#[test]
fn finals_prints_the_final_phase() {
    let mut t = event(7);
    for r in 0..3 {
        play(&mut t, |i| {
            if (i + r) % 2 == 0 {
                GameResult::WhiteWins
            } else {
                GameResult::BlackWins
            }
        });
    }
    let path = write(&t, "finals");
    let file = path.to_str().expect("path");
    let (code, out, err) = swisspair(&["finals", file, "--seed", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("champion: "),
        "7 + [absent]: one undefeated: {out}"
    );
    assert!(out.contains("\nrepechage: "), "{out}");
    // Re-pairing every round from the file, with the seed of the draws, finds them all.
    let (code, out, err) = swisspair(&["check", file, "--seed", "7"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with("3 passed, 0 failed\n"), "{out}");
    let (code, json, _) = swisspair(&["finals", file, "--json"]);
    assert_eq!(code, 0);
    assert!(json.contains("FINAL_OUTCOME_CHAMPION"), "{json}");
    // Before the end of the regular rounds.
    t.rounds.pop();
    let path = write(&t, "finals-early");
    let (code, _, err) = swisspair(&["finals", path.to_str().expect("path")]);
    assert_eq!(code, 3);
    assert!(err.contains("after the 3 regular rounds"), "{err}");
}

#[test]
fn the_trf_code_of_a_win_against_absent_round_trips() {
    let mut t = event(5);
    for _ in 0..2 {
        play(&mut t, |_| GameResult::BlackWins);
    }
    assert!(
        t.rounds
            .iter()
            .all(|r| r.byes.iter().any(|b| b.kind == ByeKind::AbsentOpponent))
    );
    for dialect in [Dialect::JaVaFo, Dialect::Trf26] {
        let doc = TrfDocument {
            tournament: t.clone(),
            ..TrfDocument::default()
        };
        let text = swisspair::pairing::write_trf(&doc, dialect).expect("writable as TRF");
        assert!(text.contains("0000 - V"), "{text}");
        let back = swisspair::pairing::read_trf(&text).expect("reads");
        // TRF has no board numbers: games come back in the order of their first-listed
        // player, the same facts otherwise.
        for (a, b) in back.tournament.rounds.iter().zip(&t.rounds) {
            let sorted = |r: &Round| {
                let mut g: Vec<(usize, usize, GameResult)> = r
                    .games
                    .iter()
                    .map(|g| (g.white, g.black, g.result))
                    .collect();
                g.sort_unstable_by_key(|x| (x.0, x.1));
                (g, r.byes.clone())
            };
            assert_eq!(sorted(a), sorted(b), "{dialect:?}");
        }
        assert!(
            back.points_mismatches().is_empty(),
            "a win against [absent] scores a win"
        );
        assert_eq!(
            swisspair::pairing::write_trf(&back, dialect).expect("writable as TRF"),
            text
        );
    }
    // `V` with a real opponent is a bye code in the wrong place.
    let text = swisspair::pairing::write_trf(
        &TrfDocument {
            tournament: t.clone(),
            ..TrfDocument::default()
        },
        Dialect::JaVaFo,
    )
    .expect("writable as TRF")
    .replacen(" w 0", " w V", 1)
    .replacen(" b 0", " b V", 1);
    assert!(swisspair::pairing::read_trf(&text).is_err());
}
