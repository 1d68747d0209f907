//! Sample requests, the same bytes on every machine: what the load generator
//! (`swisspair loadtest`) sends and what the service bench (`benches/service_request.rs`)
//! times in process, so the two measure one request.
use crate::model::SystemId;
use crate::proto;
use crate::simulate::{self, SimConfig};

/// A realistic request: a simulated event (seeded), the next round to pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// FIDE Dutch, 100 players, round 5 to pair.
    Dutch100,
    /// FIDE Dutch, 500 players, round 7 to pair.
    Dutch500,
    /// A JaVaPairing system (Vega's Buchholz Swiss), 100 players, round 5 to pair.
    Buchholz100,
    /// Backgammon (BG rules), 64 entries, round 4 to pair.
    Backgammon64,
}

impl Scenario {
    pub const ALL: [Scenario; 4] = [
        Scenario::Dutch100,
        Scenario::Dutch500,
        Scenario::Buchholz100,
        Scenario::Backgammon64,
    ];

    /// System, players, rounds already played, rounds of the event (0: the system's).
    fn shape(self) -> (SystemId, u32, u32, u32) {
        match self {
            Scenario::Dutch100 => (SystemId::Dutch, 100, 4, 9),
            Scenario::Dutch500 => (SystemId::Dutch, 500, 6, 11),
            Scenario::Buchholz100 => (SystemId::Buchholz, 100, 4, 9),
            Scenario::Backgammon64 => (SystemId::Backgammon, 64, 3, 0),
        }
    }

    /// The scenario's name as the load generator spells it.
    pub fn name(self) -> &'static str {
        match self {
            Scenario::Dutch100 => "dutch100",
            Scenario::Dutch500 => "dutch500",
            Scenario::Buchholz100 => "javapairing",
            Scenario::Backgammon64 => "backgammon",
        }
    }

    /// The snapshot of the scenario (simulated from `seed`), as a Pair request.
    pub fn pair_request(self, seed: u64) -> Result<proto::PairRequest, String> {
        let (system, players, played, total) = self.shape();
        let config = SimConfig::new(system, players, played, seed);
        let answer = simulate::run(&config).map_err(|e| e.to_string())?;
        let mut tournament = super::convert::simulate::simulate_response(&answer)
            .tournament
            .ok_or_else(|| "the simulation gave no tournament".to_string())?;
        // 0: the system decides (BG-1 sets backgammon's rounds from the number of entries).
        tournament.total_rounds = total;
        // The simulation's answer spells every option out, also those of other systems,
        // which a PairRequest refuses (an option that does not apply): the defaults are
        // what it used.
        tournament.options = None;
        Ok(proto::PairRequest {
            input: Some(proto::pair_request::Input::Tournament(tournament)),
            ..proto::PairRequest::default()
        })
    }
}
