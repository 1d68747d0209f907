//! The knockout's options (KO-1, KO-4..KO-6), parsed here from the request's text.
use crate::model::SystemOptions;
use crate::systems::OptionInfo;
use crate::systems::common::club_game::{self, Game};
use crate::systems::options::{parse_bool, parse_choice, parse_count, read};

/// How the seeds are ordered (KO-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Seeding {
    /// By pairing number (rating order, CG-2).
    #[default]
    Rating,
    /// By a lot drawn from the seed.
    Lot,
}

const SEEDING: [(&str, Seeding); 2] = [("RATING", Seeding::Rating), ("LOT", Seeding::Lot)];

/// The knockout's typed options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub seeding: Seeding,
    /// A consolation bracket of the first round's losers (KO-4).
    pub consolation: bool,
    /// Games per match (KO-5), at least 1.
    pub games: u32,
    /// A tie-break game decides a tied match (KO-5).
    pub tiebreak_game: bool,
    pub game: Game,
    pub match_length: Option<u32>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            seeding: Seeding::Rating,
            consolation: false,
            games: 1,
            tiebreak_game: false,
            game: Game::Chess,
            match_length: None,
        }
    }
}

/// Games per match: 1 to 99.
fn parse_games(v: &str) -> Result<u32, String> {
    match parse_count(v)? {
        g @ 1..=99 => Ok(g),
        g => Err(format!("invalid value {g}: 1 to 99 games per match")),
    }
}

impl Options {
    pub fn of(o: &SystemOptions) -> Options {
        Options {
            seeding: read(o, "seeding", |v| parse_choice(v, &SEEDING)).unwrap_or_default(),
            consolation: read(o, "consolation", parse_bool).unwrap_or(false),
            games: read(o, "games", parse_games).unwrap_or(1),
            tiebreak_game: read(o, "tiebreak_game", parse_bool).unwrap_or(false),
            game: club_game::game(o),
            match_length: club_game::match_length(o),
        }
    }

    /// What `ListSystems` says of them.
    pub fn info() -> Vec<OptionInfo> {
        vec![
            OptionInfo {
                name: "seeding",
                kind: "enum RATING|LOT",
                default_value: "RATING",
                description: "seeds by pairing number (rating) or by a lot drawn from the seed; send the same seed every round (KO-1)",
                parse: |v| parse_choice(v, &SEEDING).map(|_| ()),
            },
            OptionInfo {
                name: "consolation",
                kind: "bool",
                default_value: "false",
                description: "the first round's losers play a consolation bracket from round 2 (KO-4)",
                parse: |v| parse_bool(v).map(|_| ()),
            },
            OptionInfo {
                name: "games",
                kind: "uint32",
                default_value: "1",
                description: "games per match (1 to 99); a match is recorded as one game won by the match's winner (KO-5)",
                parse: |v| parse_games(v).map(|_| ()),
            },
            OptionInfo {
                name: "tiebreak_game",
                kind: "bool",
                default_value: "false",
                description: "a tied match is decided by a tie-break game, whose winner is recorded as the match's (KO-5)",
                parse: |v| parse_bool(v).map(|_| ()),
            },
        ]
        .into_iter()
        .chain(club_game::options_info("KO-6"))
        .collect()
    }
}
