//! Random tournaments: players with random ratings, every round paired by a system and
//! given random results. Everything comes from the seed through a seeded generator, so the
//! same configuration gives the same tournament.
//!
//! The simulator stands on the single-round pipeline ([`crate::pairing`]): the system and
//! its options are checked there once ([`pairing::resolve`]), and every round is paired by
//! [`pairing::pair_round`]. [`run`] is what the handlers and the CLI call.
mod team;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::model::{
    Bye, ByeKind, Colour, Game, GameResult, Player, Round, Scoring, SystemId, SystemOptions,
    Tournament,
};
use crate::pairing;
use crate::systems::{self, PairError, PairOptions, ResultsPolicy, RoundPairing};

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimConfig {
    pub system: SystemId,
    pub players: u32,
    pub rounds: u32,
    pub seed: u64,
    /// Share of played games drawn (0..1).
    pub draw_rate: f64,
    /// Share of games forfeited by one player (0..1).
    pub forfeit_rate: f64,
    /// Chance that a player asks for a half-point bye in a round (0..1).
    pub bye_request_rate: f64,
    pub scoring: Scoring,
    pub options: SystemOptions,
    /// Ratings are drawn uniformly from `min_rating..=max_rating`.
    pub min_rating: u32,
    pub max_rating: u32,
    /// A team event of this many teams (0 = individual): `players` is then ignored and
    /// each team has `boards` players and `reserves` reserves (`team.rs`).
    pub teams: u32,
    pub boards: u32,
    pub reserves: u32,
}

impl SimConfig {
    pub fn new(system: SystemId, players: u32, rounds: u32, seed: u64) -> SimConfig {
        SimConfig {
            system,
            players,
            rounds,
            seed,
            draw_rate: 0.3,
            forfeit_rate: 0.0,
            bye_request_rate: 0.0,
            scoring: Scoring::default(),
            options: SystemOptions::default(),
            min_rating: 1000,
            max_rating: 2799,
            // The Swiss Team system pairs teams: `players` then counts teams of 4 boards.
            teams: if system == SystemId::TeamSwiss {
                players
            } else {
                0
            },
            boards: 4,
            reserves: 0,
        }
    }
}

/// Why a simulation stopped.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("invalid simulation setting: {0}")]
    Invalid(String),
    #[error("round {round}: {error}")]
    Pairing { round: u32, error: PairError },
    /// The system or its options were refused before any round was paired.
    #[error("{0}")]
    Refused(PairError),
}

/// A simulated tournament.
#[derive(Clone, Debug)]
pub struct SimulateAnswer {
    pub tournament: Tournament,
    pub system: SystemId,
    pub rule_set: &'static str,
}

/// Simulates a tournament paired by `config.system` (refused up front when the system or
/// an option does not fit; a failing round is named), with the system and its rule set
/// (what `Simulate` and `swisspair simulate` answer).
pub fn run(config: &SimConfig) -> Result<SimulateAnswer, SimError> {
    let probe = Tournament {
        options: config.options.clone(),
        ..Tournament::default()
    };
    let resolved = pairing::resolve(Some(config.system), &probe).map_err(SimError::Refused)?;
    let tournament = simulate_with(config)?;
    Ok(SimulateAnswer {
        tournament,
        system: resolved.id,
        rule_set: resolved.rule_set,
    })
}

/// A tournament of `config.rounds` rounds, each paired by the system: [`run`]'s tournament.
pub fn simulate(config: &SimConfig) -> Result<Tournament, SimError> {
    run(config).map(|answer| answer.tournament)
}

/// The simulation proper, once the system and its options are known to fit.
fn simulate_with(config: &SimConfig) -> Result<Tournament, SimError> {
    for (name, rate) in [
        ("draw_rate", config.draw_rate),
        ("forfeit_rate", config.forfeit_rate),
        ("bye_request_rate", config.bye_request_rate),
    ] {
        if !(0.0..=1.0).contains(&rate) {
            return Err(SimError::Invalid(format!(
                "{name}: must be between 0 and 1, not {rate}"
            )));
        }
    }
    if config.system == SystemId::TeamSwiss && config.teams == 0 {
        return Err(SimError::Invalid(
            "teams: the Swiss Team system pairs teams: give the number of teams".to_string(),
        ));
    }
    if config.teams > 0 && (config.teams < 2 || config.boards == 0) {
        return Err(SimError::Invalid(format!(
            "teams: at least two teams of at least one board, not {} of {}",
            config.teams, config.boards
        )));
    }
    if config.teams == 0 && config.players < 2 {
        return Err(SimError::Invalid(format!(
            "players: at least two players, not {}",
            config.players
        )));
    }
    if config.rounds == 0 {
        return Err(SimError::Invalid("rounds: at least one round".to_string()));
    }
    let mut t = start(config);
    for _ in 0..config.rounds {
        play_round(&mut t, config)?;
    }
    Ok(t)
}

/// The players and settings, before any round.
pub fn start(config: &SimConfig) -> Tournament {
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let (players, teams, team_settings) = if config.teams > 0 {
        team::start(config, &mut rng)
    } else {
        let players = (1..=config.players)
            .map(|i| Player {
                id: format!("p{i}"),
                name: format!("Player {i:05}"),
                rating: rng
                    .random_range(config.min_rating..=config.max_rating.max(config.min_rating)),
                ..Player::default()
            })
            .collect();
        (players, Vec::new(), Default::default())
    };
    let mut t = Tournament {
        name: format!("Simulated {} seed {}", config.system, config.seed),
        system: Some(config.system),
        total_rounds: config.rounds,
        scoring: config.scoring,
        // Drawn for every system (the generator draws the same sequence whatever it), but a
        // system without colours (backgammon, by its own declaration) records none: its TRF
        // gets no XXC.
        initial_colour: Some(if rng.random::<bool>() {
            Colour::White
        } else {
            Colour::Black
        })
        .filter(|_| systems::find(config.system).is_none_or(|s| !s.absolute_rules().colourless)),
        lot_seed: config.seed,
        options: config.options.clone(),
        players,
        teams,
        team_settings,
        ..Tournament::default()
    };
    t.assign_pairing_numbers(config.seed);
    t
}

/// Pairs the next round and plays it with random results.
pub fn play_round(t: &mut Tournament, config: &SimConfig) -> Result<(), SimError> {
    let number = t.next_round();
    let options = round_options(t, config);
    let pairing = pairing::pair_round(t, &options).map_err(|error| SimError::Pairing {
        round: number,
        error,
    })?;
    record_round(t, config, &pairing);
    Ok(())
}

/// Which results the simulated system's games may have (its own declaration).
fn policy(config: &SimConfig) -> ResultsPolicy {
    systems::find(config.system).map_or(ResultsPolicy::CHESS, |s| s.results_policy())
}

fn round_rng(config: &SimConfig, number: u32, salt: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(config.seed ^ (u64::from(number) << 32) ^ salt)
}

/// The options the simulator pairs the next round with: its seed and the random requests
/// for half-point byes.
pub fn round_options(t: &Tournament, config: &SimConfig) -> PairOptions {
    let number = t.next_round();
    let mut rng = round_rng(config, number, 0xB7E5);
    let requested_byes = (0..t.players.len())
        .filter(|&p| t.players[p].is_active_in(number))
        // Only where the system has half-point byes (backgammon has none, BG-2), and not in
        // a team event: C.04.6 pairs teams, whose members sit out as left-out reserves
        // below (a requested bye as well would exempt a member twice, or empty a team).
        .filter(|_| policy(config).half_point_byes && !t.is_team_event())
        .filter(|_| config.bye_request_rate > 0.0 && rng.random_bool(config.bye_request_rate))
        .map(|p| (p, ByeKind::HalfPoint))
        .collect();
    // Byes apply to whole matches (Double-Swiss, C.04.5 art. 0): a later game of a match
    // repeats the requests of its first game.
    let games = systems::find(config.system).map_or(1, |s| s.games_per_match().max(1));
    let requested_byes = if games > 1 && !(number - 1).is_multiple_of(games) {
        t.round(number - 1)
            .map(|r| {
                r.byes
                    .iter()
                    .filter(|b| {
                        matches!(
                            b.kind,
                            ByeKind::HalfPoint | ByeKind::ZeroPoint | ByeKind::FullPoint
                        )
                    })
                    .map(|b| (b.player, b.kind))
                    .collect()
            })
            .unwrap_or_default()
    } else {
        requested_byes
    };
    // A team event: each team leaves some members out of its line-up.
    let absent = if t.is_team_event() {
        team::left_out(t, config, &mut rng)
    } else {
        Vec::new()
    };
    PairOptions {
        requested_byes,
        absent,
        seed: Some(config.seed),
        ..PairOptions::default()
    }
}

/// Records a pairing as the next round, with random results.
pub fn record_round(t: &mut Tournament, config: &SimConfig, pairing: &RoundPairing) {
    let number = t.next_round();
    let policy = policy(config);
    let mut rng = round_rng(config, number, 0x51AD);
    let mut round = Round::default();
    for b in &pairing.boards {
        let (rw, rb) = (t.players[b.white].rating, t.players[b.black].rating);
        let result = if config.forfeit_rate > 0.0 && rng.random_bool(config.forfeit_rate) {
            if rng.random::<bool>() {
                GameResult::WhiteWinsForfeit
            } else {
                GameResult::BlackWinsForfeit
            }
        } else if policy.draws && config.draw_rate > 0.0 && rng.random_bool(config.draw_rate) {
            GameResult::Draw
        } else {
            // Elo expectation decides who wins the decisive games.
            let expected = 1.0 / (1.0 + 10f64.powf((f64::from(rb) - f64::from(rw)) / 400.0));
            if rng.random_bool(expected.clamp(0.0, 1.0)) {
                GameResult::WhiteWins
            } else {
                GameResult::BlackWins
            }
        };
        round.games.push(Game {
            white: b.white,
            black: b.black,
            result,
            board: None,
        });
    }
    if let Some(teams) = &pairing.teams {
        // Whole matches forfeited (TRF-26 330), at the forfeit rate per match.
        team::forfeit_matches(t, config, teams, number, &mut round);
        // The team PAB (TRF-26 320); the left-out members have no entry (a blank round).
        let pab = &mut t.team_settings.pab_rounds;
        pab.resize(number as usize - 1, None);
        let tpn = teams
            .pab
            .map(|team| t.teams.get(team).map_or(team as u32 + 1, |x| x.tpn));
        pab.push(tpn);
        while pab.last() == Some(&None) {
            pab.pop();
        }
    }
    round.byes = pairing
        .byes
        .iter()
        .filter(|b| !(pairing.teams.is_some() && b.kind == ByeKind::Absent))
        .map(|b| Bye {
            player: b.player,
            kind: b.kind,
        })
        .collect();
    let index = number as usize - 1;
    t.rounds.truncate(index);
    t.rounds.push(round);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_tournament_and_every_round_is_complete() {
        let mut config = SimConfig::new(SystemId::RoundRobin, 9, 9, 5);
        config.forfeit_rate = 0.1;
        let a = simulate(&config).expect("simulates");
        let b = simulate(&config).expect("simulates");
        assert_eq!(a, b);
        assert_eq!(a.rounds_paired(), 9);
        for round in &a.rounds {
            assert_eq!(round.games.len() * 2 + round.byes.len(), 9);
        }
        config.seed = 6;
        assert_ne!(simulate(&config).expect("simulates"), a);
    }

    #[test]
    fn bad_rates_are_refused() {
        let mut config = SimConfig::new(SystemId::RoundRobin, 4, 3, 1);
        config.draw_rate = 1.5;
        assert!(matches!(simulate(&config), Err(SimError::Invalid(_))));
    }
}
