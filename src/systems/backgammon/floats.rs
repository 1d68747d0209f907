//! Float compensation (BG-7.1..BG-7.3), computed from the history in the snapshot.
//!
//! A player's floats are the rounds in which he was paired with someone with fewer wins
//! (down) or more wins (up) than he had when the round was drawn; [absent] counts as 0 wins
//! (BG-3), forfeited games count for nothing (CG-4). **Decision (the rules speak of one float
//! each way):** what matters is the balance, downs minus ups. Positive: he "went down" and
//! must not go down again (BG-7.1) and is the first choice to meet a player coming down
//! into his group. Negative: he "went up" and must not go up again (BG-7.2) and is the first
//! choice to go down when his group has one left over. Zero: compensated or never floated
//! (BG-7.3), a normal player.
use super::record::{Float, PlayerRecord};

/// Where a player stands for BG-7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// Paired with fewer wins more often than with more wins (BG-7.1).
    WentDown,
    /// Never floated, or compensated (BG-7.3).
    Normal,
    /// Paired with more wins more often than with fewer wins (BG-7.2).
    WentUp,
}

impl Status {
    pub fn of(record: &PlayerRecord) -> Status {
        let downs = record.floats.iter().filter(|f| f.1 == Float::Down).count();
        let ups = record.floats.len() - downs;
        match downs.cmp(&ups) {
            std::cmp::Ordering::Greater => Status::WentDown,
            std::cmp::Ordering::Less => Status::WentUp,
            std::cmp::Ordering::Equal => Status::Normal,
        }
    }

    /// Priority (lower first) of a group's players to meet someone coming down into the
    /// group: BG-7.1 chooses the one who went down; BG-7.2 keeps the one who went up from
    /// going up again.
    pub fn receive_priority(self) -> u8 {
        match self {
            Status::WentDown => 0,
            Status::Normal => 1,
            Status::WentUp => 2,
        }
    }

    /// Priority (lower first) of a group's players to go down: BG-7.2 chooses the one who
    /// went up; BG-7.1 keeps the one who went down from going down again.
    pub fn float_priority(self) -> u8 {
        match self {
            Status::WentUp => 0,
            Status::Normal => 1,
            Status::WentDown => 2,
        }
    }
}

/// Whether pairing a player with `high_wins` and status `high` against one with fewer wins
/// and status `low` keeps BG-7: the higher may not go down again, the lower may not go up
/// again. `low` is `None` for [absent], which has no history.
pub fn keeps_bg7(high: Status, low: Option<Status>) -> bool {
    high != Status::WentDown && low != Some(Status::WentUp)
}

/// The rounds that make the status, for explanations ("paired with fewer wins in round 2").
pub fn describe(record: &PlayerRecord) -> String {
    let list = |f: Float| -> Vec<String> {
        record
            .floats
            .iter()
            .filter(|e| e.1 == f)
            .map(|e| e.0.to_string())
            .collect()
    };
    let (down, up) = (list(Float::Down), list(Float::Up));
    let rounds = |v: &[String]| {
        if v.len() == 1 {
            format!("round {}", v[0])
        } else {
            format!("rounds {}", v.join(", "))
        }
    };
    match (down.is_empty(), up.is_empty()) {
        (true, true) => "never paired across win groups".to_string(),
        (false, true) => format!("paired with fewer wins in {}", rounds(&down)),
        (true, false) => format!("paired with more wins in {}", rounds(&up)),
        (false, false) => format!(
            "paired with fewer wins in {} and with more wins in {}",
            rounds(&down),
            rounds(&up)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(floats: &[(u32, Float)]) -> PlayerRecord {
        PlayerRecord {
            floats: floats.to_vec(),
            ..PlayerRecord::default()
        }
    }

    #[test]
    fn balance_decides_the_status() {
        assert_eq!(Status::of(&record(&[])), Status::Normal);
        assert_eq!(Status::of(&record(&[(1, Float::Down)])), Status::WentDown);
        assert_eq!(Status::of(&record(&[(2, Float::Up)])), Status::WentUp);
        // BG-7.3: once each way is compensated.
        assert_eq!(
            Status::of(&record(&[(1, Float::Down), (3, Float::Up)])),
            Status::Normal
        );
        assert_eq!(
            Status::of(&record(&[
                (1, Float::Down),
                (2, Float::Up),
                (3, Float::Down)
            ])),
            Status::WentDown
        );
    }

    #[test]
    fn bg7_forbids_a_second_float_the_same_way() {
        assert!(keeps_bg7(Status::Normal, Some(Status::Normal)));
        assert!(keeps_bg7(Status::WentUp, Some(Status::WentDown)));
        assert!(!keeps_bg7(Status::WentDown, Some(Status::Normal)));
        assert!(!keeps_bg7(Status::Normal, Some(Status::WentUp)));
        assert!(keeps_bg7(Status::Normal, None));
        assert_eq!(
            describe(&record(&[(1, Float::Down), (3, Float::Up)])),
            "paired with fewer wins in round 1 and with more wins in round 3"
        );
    }
}
