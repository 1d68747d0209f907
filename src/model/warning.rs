//! Warnings: what an answer wants its reader to know although nothing failed (a lot drawn
//! because a setting was missing, a rule relaxed because no pairing kept it, …). Each has a
//! stable machine-readable `code`, the rule it concerns, a human message, and the players
//! it names, so that a client can render or filter it without parsing text.
use std::fmt;
use std::ops::Deref;

use super::PlayerIdx;

/// A warning of an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// Stable, upper snake case (`COLOUR_LOT`, `RULE_RELAXED`, …): the table in the proto's
    /// `Warning` message lists them.
    pub code: &'static str,
    /// The rule the warning is about, in the shape every rule id has (`CG-8`, `VZ-4.3`,
    /// `C.04.7`); empty when none.
    pub rule_id: &'static str,
    pub message: String,
    /// The players the message names.
    pub players: Vec<PlayerIdx>,
}

impl Warning {
    pub fn new(code: &'static str, rule_id: &'static str, message: impl Into<String>) -> Warning {
        Warning {
            code,
            rule_id,
            message: message.into(),
            players: Vec::new(),
        }
    }

    /// The same warning naming `players`.
    pub fn with_players(mut self, players: Vec<PlayerIdx>) -> Warning {
        self.players = players;
        self
    }
}

/// The message, so that `warning.contains("…")` reads as it did when warnings were text.
impl Deref for Warning {
    type Target = str;
    fn deref(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
