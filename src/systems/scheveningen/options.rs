//! Scheveningen's options (SCH-1, SCH-4), parsed here from the request's text.
use crate::model::SystemOptions;
use crate::systems::OptionInfo;
use crate::systems::options::{parse_choice, parse_count, read};

/// How the two teams are formed (SCH-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Teams {
    /// The two halves of the field by pairing number.
    #[default]
    Halves,
    /// The players' `team_id`: exactly two teams.
    TeamId,
}

const TEAMS: [(&str, Teams); 2] = [("HALVES", Teams::Halves), ("TEAM_ID", Teams::TeamId)];

/// Scheveningen's typed options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub teams: Teams,
    /// 1 or 2 (the double); `None` = from the total number of rounds.
    pub cycles: Option<u32>,
}

fn parse_cycles(v: &str) -> Result<u32, String> {
    match parse_count(v)? {
        c @ 0..=2 => Ok(c),
        c => Err(format!(
            "invalid value {c}: 1 single, 2 double, 0 from total_rounds"
        )),
    }
}

impl Options {
    pub fn of(o: &SystemOptions) -> Options {
        Options {
            teams: read(o, "teams", |v| parse_choice(v, &TEAMS)).unwrap_or_default(),
            cycles: read(o, "cycles", parse_cycles).filter(|&c| c > 0),
        }
    }

    /// What `ListSystems` says of them.
    pub fn info() -> Vec<OptionInfo> {
        vec![
            OptionInfo {
                name: "teams",
                kind: "enum HALVES|TEAM_ID",
                default_value: "HALVES",
                description: "the two teams: the halves of the field by pairing number, or the players' team_id (SCH-1)",
                parse: |v| parse_choice(v, &TEAMS).map(|_| ()),
            },
            OptionInfo {
                name: "cycles",
                kind: "uint32",
                default_value: "0",
                description: "1 single (N rounds), 2 double (2N rounds, colours reversed); 0 infers it from total_rounds (SCH-4)",
                parse: |v| parse_cycles(v).map(|_| ()),
            },
        ]
    }
}
