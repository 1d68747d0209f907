//! Small simulated events for the separation tests: a seeded generator and an event cut
//! after some rounds, each player given a club.
use swisspair::model::{SystemId, Tournament};
use swisspair::simulate::{SimConfig, simulate};

/// A small deterministic generator (no dependency on the simulator's streams).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A simulated event of `players` players cut after `played` rounds (of `rounds`), each
/// player given one of `clubs` clubs.
pub fn event(
    system: SystemId,
    players: u32,
    rounds: u32,
    played: usize,
    clubs: u64,
    seed: u64,
) -> Tournament {
    try_event(system, players, rounds, played, clubs, seed)
        .unwrap_or_else(|e| panic!("{system:?} {players} players, {played} rounds: {e}"))
}

/// [`event`], or why no seed near `seed` could be simulated.
pub fn try_event(
    system: SystemId,
    players: u32,
    rounds: u32,
    played: usize,
    clubs: u64,
    seed: u64,
) -> Result<Tournament, String> {
    // Only the rounds kept are simulated (a later round of a small event may have no legal
    // pairing); a seed whose simulation fails is passed over.
    let simulated = played.max(if system == SystemId::DoubleSwiss {
        2
    } else {
        1
    }) as u32;
    let mut last = String::new();
    let mut t = (0..50)
        .find_map(|k| {
            let mut config = SimConfig::new(system, players, simulated, seed + k);
            if system == SystemId::Backgammon {
                let _ = config.options.set("match_length", "7");
            }
            simulate(&config).map_err(|e| last = e.to_string()).ok()
        })
        .ok_or(last)?;
    t.rounds.truncate(played);
    if t.total_rounds < rounds {
        // The Double-Swiss counts games: an even number of rounds.
        t.total_rounds = if system == SystemId::DoubleSwiss {
            rounds + rounds % 2
        } else {
            rounds
        };
    }
    let mut rng = Lcg(seed ^ 0x5eed);
    for p in &mut t.players {
        p.club = format!("club{}", rng.below(clubs));
    }
    Ok(t)
}
