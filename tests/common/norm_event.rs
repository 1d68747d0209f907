//! A 10-player, 9-round all-play-all event whose player 1 (IM, FRA, 2450) makes a GM norm,
//! worked by hand in tests/norms.rs (B.01 1.4), as a tournament and as a TRF report with
//! its dates (042, 052) and host federation (032).
#![allow(dead_code)]
use swisspair::model::{Colour, Game, GameResult, Player, Round, SystemId, Tournament};
use swisspair::trf::{self, Dialect, TrfDocument};

/// (title, federation, rating) of players 1-10; player 1 is the candidate.
pub const FIELD: [(&str, &str, u32); 10] = [
    ("IM", "FRA", 2450),
    ("GM", "GER", 2600),
    ("GM", "ESP", 2580),
    ("GM", "ITA", 2550),
    ("IM", "NED", 2500),
    ("IM", "FRA", 2480),
    ("FM", "SUI", 2400),
    ("GM", "ENG", 2520),
    ("IM", "USA", 2450),
    ("FM", "BEL", 2150),
];

/// Player 1's result against players 2-10, in half points: draws with the GMs of GER,
/// ESP, ITA and the IM of NED, wins over FRA, SUI, USA, BEL, a loss to ENG: 6 of 9.
pub const CANDIDATE: [i64; 9] = [1, 1, 1, 1, 2, 2, 0, 2, 2];

pub fn tournament() -> Tournament {
    let players: Vec<Player> = FIELD
        .iter()
        .enumerate()
        .map(|(i, &(title, fed, rating))| Player {
            id: (i + 1).to_string(),
            name: format!("Player {:02}", i + 1),
            rating,
            title: title.to_string(),
            federation: fed.to_string(),
            fide_id: format!("{}", 100 + i),
            sex: "m".to_string(),
            pairing_number: Some(i as u32 + 1),
            ..Player::default()
        })
        .collect();
    // The circle method: player 10 fixed, the others turn; everybody meets everybody once.
    let mut rounds = Vec::new();
    for r in 0..9usize {
        let mut pairs = vec![(r, 9usize)];
        for k in 1..5 {
            pairs.push(((r + k) % 9, (r + 9 - k) % 9));
        }
        let games = pairs
            .into_iter()
            .map(|(a, b)| {
                let (white, black) = if (a + b + r) % 2 == 0 { (a, b) } else { (b, a) };
                // The candidate's games as CANDIDATE says; every other game drawn.
                let result = if white == 0 || black == 0 {
                    let opp = if white == 0 { black } else { white };
                    match (CANDIDATE[opp - 1], white == 0) {
                        (1, _) => GameResult::Draw,
                        (2, true) | (0, false) => GameResult::WhiteWins,
                        _ => GameResult::BlackWins,
                    }
                } else {
                    GameResult::Draw
                };
                Game {
                    white,
                    black,
                    result,
                    board: None,
                }
            })
            .collect();
        rounds.push(Round {
            games,
            byes: Vec::new(),
        });
    }
    Tournament {
        name: "Norm Open".to_string(),
        system: Some(SystemId::RoundRobin),
        total_rounds: 9,
        initial_colour: Some(Colour::White),
        players,
        rounds,
        ..Tournament::default()
    }
}

/// The event as a TRF-26 report with its dates and host federation.
pub fn trf_text(t: &Tournament) -> String {
    let doc = TrfDocument {
        tournament: t.clone(),
        other_lines: vec![
            "032 FRA".to_string(),
            "042 2026/03/10".to_string(),
            "052 2026/03/18".to_string(),
        ],
        ..TrfDocument::default()
    };
    trf::write(&doc, Dialect::Trf26, &swisspair::systems::Registry).expect("writes")
}
