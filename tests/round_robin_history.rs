//! Round robin: past rounds that depart from the Berger table are refused (RR-1), the given
//! first-round colour is honoured (CG-8), and the explanation names the bye number.
use swisspair::model::{Colour, Game, GameResult, Player, Round, SystemId, Tournament};
use swisspair::pairing::pair_round;
use swisspair::systems::{PairError, PairOptions, RoundPairing};

fn field(n: u32) -> Tournament {
    Tournament {
        system: Some(SystemId::RoundRobin),
        total_rounds: n + n % 2 - 1,
        players: (1..=n)
            .map(|i| Player {
                id: format!("p{i}"),
                pairing_number: Some(i),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    }
}

fn play(t: &mut Tournament, answer: &RoundPairing) {
    t.rounds.push(Round {
        games: answer
            .boards
            .iter()
            .map(|b| Game {
                white: b.white,
                black: b.black,
                result: GameResult::Draw,
                board: None,
            })
            .collect(),
        byes: Vec::new(),
    });
}

fn boards(a: &RoundPairing) -> Vec<(usize, usize)> {
    a.boards.iter().map(|b| (b.white, b.black)).collect()
}

#[test]
fn a_swiss_history_is_refused_naming_the_first_departing_game() {
    let mut t = field(10);
    // Round 1 as a Swiss would pair it (1-6, 2-7, ...), not as the table (1-10, 2-9, ...).
    t.rounds.push(Round {
        games: (0..5)
            .map(|k| Game {
                white: k,
                black: k + 5,
                result: GameResult::WhiteWins,
                board: None,
            })
            .collect(),
        byes: Vec::new(),
    });
    let err = pair_round(&t, &PairOptions::default()).expect_err("refused");
    let PairError::Invalid(problems) = err else {
        panic!("expected invalid input, got {err:?}");
    };
    let text = problems.to_string();
    assert!(text.contains("tournament.rounds[0].games[0]"), "{text}");
    assert!(text.contains("round 1: the game p1 - p6"), "{text}");
    assert!(text.contains("p1 (table number 1) meets p10"), "{text}");
    assert!(text.contains("RR-1"), "{text}");
}

#[test]
fn a_later_departure_is_found_too() {
    let mut t = field(6);
    let r1 = pair_round(&t, &PairOptions::default()).expect("round 1");
    play(&mut t, &r1);
    let r2 = pair_round(&t, &PairOptions::default()).expect("round 2");
    let mut changed = r2.clone();
    // Swap two black players between boards: two games that the table does not hold.
    let (b0, b1) = (changed.boards[0].black, changed.boards[1].black);
    changed.boards[0].black = b1;
    changed.boards[1].black = b0;
    play(&mut t, &changed);
    let err = pair_round(&t, &PairOptions::default()).expect_err("refused");
    assert!(err.to_string().contains("round 2: the game"), "{err}");
    // The history as the table has it pairs.
    t.rounds.pop();
    play(&mut t, &r2);
    assert!(pair_round(&t, &PairOptions::default()).is_ok());
}

#[test]
fn first_round_colour_black_reverses_the_table() {
    let white = field(6);
    let mut black = field(6);
    black.initial_colour = Some(Colour::Black);
    let (mut tw, mut tb) = (white, black);
    for round in 1..=5 {
        let a = pair_round(&tw, &PairOptions::default()).expect("white first");
        let b = pair_round(&tb, &PairOptions::default()).expect("black first");
        let reversed: Vec<(usize, usize)> = boards(&a).iter().map(|&(w, b)| (b, w)).collect();
        assert_eq!(boards(&b), reversed, "round {round}");
        if round == 1 {
            assert_eq!(boards(&b)[0], (5, 0), "p1 has Black on board 1");
        }
        play(&mut tw, &a);
        play(&mut tb, &b);
    }
    // Given White: the published table (p1 White in round 1); no colour lot is announced.
    let t = field(6);
    let a = pair_round(&t, &PairOptions::default()).expect("pairs");
    assert_eq!(boards(&a)[0], (0, 5));
    assert!(
        a.warnings.iter().all(|w| !w.contains("lot")),
        "{:?}",
        a.warnings
    );
}

#[test]
fn the_explanation_names_the_bye_number() {
    let t = field(5);
    let a = pair_round(&t, &PairOptions::default()).expect("pairs");
    let texts: Vec<&str> = a
        .explanation
        .groups
        .iter()
        .flat_map(|g| g.steps.iter().map(|s| s.message.as_str()))
        .collect();
    assert!(
        texts.iter().any(|m| m.contains("(number 6 is the bye)")),
        "{texts:?}"
    );
    assert!(texts.iter().all(|m| !m.contains("{size}")), "{texts:?}");
}
