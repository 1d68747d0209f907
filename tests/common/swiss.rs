//! Building small tournaments by hand for the Swiss systems' tests, and reading answers
//! back as pairing numbers.
#![allow(dead_code)]
use swisspair::model::{
    Bye, ByeKind, Colour, ForbiddenPairing, Game, GameResult, Player, Round, SystemId, Tournament,
};
use swisspair::pairing::pair_round;
use swisspair::systems::{Detail, PairError, PairOptions, RoundPairing};

/// A tournament of players numbered 1..=n (id = number, index = number - 1).
pub struct Builder {
    pub t: Tournament,
}

/// A game by pairing numbers: (white, black, result) with result one of
/// `1-0 = 0-1 +- -+ --`.
pub type G = (u32, u32, &'static str);

pub fn result(code: &str) -> GameResult {
    match code {
        "1-0" => GameResult::WhiteWins,
        "=" => GameResult::Draw,
        "0-1" => GameResult::BlackWins,
        "+-" => GameResult::WhiteWinsForfeit,
        "-+" => GameResult::BlackWinsForfeit,
        "--" => GameResult::DoubleForfeit,
        other => panic!("unknown result {other}"),
    }
}

impl Builder {
    pub fn new(system: SystemId, n: u32, total_rounds: u32) -> Builder {
        Builder {
            t: Tournament {
                system: Some(system),
                total_rounds,
                initial_colour: Some(Colour::White),
                players: (1..=n)
                    .map(|i| Player {
                        id: i.to_string(),
                        name: format!("Player {i:02}"),
                        rating: 2000 - i,
                        pairing_number: Some(i),
                        ..Player::default()
                    })
                    .collect(),
                ..Tournament::default()
            },
        }
    }

    pub fn initial(mut self, c: Colour) -> Builder {
        self.t.initial_colour = Some(c);
        self
    }

    /// A played round: games, then byes of any kind.
    pub fn round(mut self, games: &[G], byes: &[(u32, ByeKind)]) -> Builder {
        self.t.rounds.push(Round {
            games: games
                .iter()
                .map(|&(w, b, r)| Game {
                    white: w as usize - 1,
                    black: b as usize - 1,
                    result: result(r),
                    board: None,
                })
                .collect(),
            byes: byes
                .iter()
                .map(|&(p, kind)| Bye {
                    player: p as usize - 1,
                    kind,
                })
                .collect(),
        });
        self
    }

    /// Byes or absences already known for the round to pair (CG-11).
    pub fn preset(mut self, byes: &[(u32, ByeKind)]) -> Builder {
        self.t.rounds.push(Round {
            games: Vec::new(),
            byes: byes
                .iter()
                .map(|&(p, kind)| Bye {
                    player: p as usize - 1,
                    kind,
                })
                .collect(),
        });
        self
    }

    pub fn forbid(mut self, a: u32, b: u32) -> Builder {
        self.t.forbidden_pairings.push(ForbiddenPairing {
            players: vec![a as usize - 1, b as usize - 1],
            first_round: None,
            last_round: None,
        });
        self
    }

    pub fn late(mut self, p: u32, round: u32) -> Builder {
        self.t.players[p as usize - 1].late_entry_round = Some(round);
        self
    }

    pub fn withdrawn(mut self, p: u32, round: u32) -> Builder {
        self.t.players[p as usize - 1].withdrawn_from_round = Some(round);
        self
    }

    pub fn build(self) -> Tournament {
        self.t
    }
}

/// An answer in pairing numbers.
#[derive(Debug)]
pub struct Paired {
    /// (white, black) in board order.
    pub boards: Vec<(u32, u32)>,
    /// The pairing-allocated bye.
    pub bye: Option<u32>,
    pub warnings: Vec<swisspair::systems::Warning>,
    /// (rule id, message) of every explanation step.
    pub steps: Vec<(String, String)>,
    pub raw: RoundPairing,
}

impl Paired {
    /// Steps citing `rule`, messages only.
    pub fn steps_of(&self, rule: &str) -> Vec<&str> {
        self.steps
            .iter()
            .filter(|(r, _)| r == rule)
            .map(|(_, m)| m.as_str())
            .collect()
    }
}

pub fn run(t: &Tournament, options: &PairOptions) -> Result<Paired, PairError> {
    let options = PairOptions {
        detail: Detail::Full,
        ..options.clone()
    };
    let raw = pair_round(t, &options)?;
    let number = |p: usize| t.pairing_number(p);
    Ok(Paired {
        boards: raw
            .boards
            .iter()
            .map(|b| (number(b.white), number(b.black)))
            .collect(),
        bye: raw
            .byes
            .iter()
            .find(|b| b.kind == ByeKind::Pab)
            .map(|b| number(b.player)),
        warnings: raw.warnings.clone(),
        steps: raw
            .explanation
            .groups
            .iter()
            .flat_map(|g| g.steps.iter())
            .map(|s| (s.rule_id.clone(), s.message.clone()))
            .collect(),
        raw,
    })
}

pub fn pair_next(t: &Tournament) -> Paired {
    run(t, &PairOptions::default()).expect("a pairing")
}

/// The pairs as unordered sets, for comparisons that ignore colours and board order.
pub fn unordered(boards: &[(u32, u32)]) -> std::collections::BTreeSet<(u32, u32)> {
    boards.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect()
}

/// Appends an answer as a played round with the given results (cycled), keeping byes.
pub fn play(t: &mut Tournament, answer: &RoundPairing, results: &[GameResult]) {
    let mut round = Round {
        games: Vec::new(),
        byes: answer
            .byes
            .iter()
            .map(|b| Bye {
                player: b.player,
                kind: b.kind,
            })
            .collect(),
    };
    for (i, b) in answer.boards.iter().enumerate() {
        round.games.push(Game {
            white: b.white,
            black: b.black,
            result: results[i % results.len()],
            board: Some(i as u32 + 1),
        });
    }
    // The round to pair may already hold preset byes: replace it.
    if t.rounds.len() as u32 == answer.round {
        t.rounds.pop();
    }
    t.rounds.push(round);
}

/// Plays `rounds` rounds of a `n`-player tournament with `system`, results drawn from
/// `seed` (a tenth of the games drawn, a few absences), and returns the longest time one
/// round took to pair.
pub fn timed_simulation(system: SystemId, n: u32, rounds: u32, seed: u64) -> std::time::Duration {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut t = Builder::new(system, n, rounds).build();
    let mut worst = std::time::Duration::ZERO;
    for _ in 0..rounds {
        let absent: Vec<(u32, ByeKind)> = (1..=n)
            .filter(|_| rng.random_bool(0.02))
            .map(|p| (p, ByeKind::ZeroPoint))
            .collect();
        let mut round_t = t.clone();
        round_t.rounds.push(Round {
            games: Vec::new(),
            byes: absent
                .iter()
                .map(|&(p, kind)| Bye {
                    player: p as usize - 1,
                    kind,
                })
                .collect(),
        });
        let start = std::time::Instant::now();
        let answer = pair_round(&round_t, &PairOptions::default()).expect("pairs");
        worst = worst.max(start.elapsed());
        let results: Vec<GameResult> = (0..answer.boards.len().max(1))
            .map(|_| match rng.random_range(0..10) {
                0..=4 => GameResult::WhiteWins,
                5..=8 => GameResult::BlackWins,
                _ => GameResult::Draw,
            })
            .collect();
        play(&mut round_t, &answer, &results);
        t = round_t;
    }
    worst
}

/// The worst time `system` takes to pair a round of the shared 1,000-player performance
/// tournament (every round re-paired from the rounds before; 500 boards each) and of a
/// simulated 1,001-player, 11-round field; `None` when the shared file is missing, so that a
/// checkout without `../perf` still passes. `label` names the system in the printed timings.
pub fn worst_round_1000(system: SystemId, label: &str) -> Option<std::time::Duration> {
    let path = super::perf_file("perf-dutch-1000.trf");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("{} not found: skipped", path.display());
        return None;
    };
    let doc = swisspair::pairing::read_trf(&text).expect("valid TRF");
    let options = PairOptions {
        system: Some(system),
        ..PairOptions::default()
    };
    let mut worst = std::time::Duration::ZERO;
    for r in 1..=doc.tournament.rounds_paired() {
        let mut t = doc.tournament.clone();
        t.rounds.truncate(r as usize - 1);
        let start = std::time::Instant::now();
        let answer = pair_round(&t, &options).expect("pairs");
        let took = start.elapsed();
        worst = worst.max(took);
        assert_eq!(answer.boards.len(), 500);
        println!("{label} 1000 players, round {r}: {took:?}");
    }
    println!("{label} 1000 players: worst round {worst:?}");
    // A field of 1,001 paired by this system itself from round 1, with absences.
    let simulated = timed_simulation(system, 1001, 11, 2026);
    println!("{label} 1001 players, simulated 11 rounds: worst round {simulated:?}");
    Some(worst.max(simulated))
}
