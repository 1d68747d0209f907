//! Monrad's options (MON-1, MON-2, MON-6), parsed here from the request's text.
use crate::model::SystemOptions;
use crate::systems::OptionInfo;
use crate::systems::common::club_game::{self, Game};
use crate::systems::options::{parse_choice, read};

/// How round 1's list is ordered (MON-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FirstRound {
    /// By pairing number (rating order, CG-2).
    #[default]
    Rating,
    /// By a lot drawn from the request's seed.
    Lot,
}

const FIRST_ROUND: [(&str, FirstRound); 2] =
    [("RATING", FirstRound::Rating), ("LOT", FirstRound::Lot)];

/// What orders players on the same score from round 2 (MON-2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TieBreak {
    /// The pairing number.
    #[default]
    PairingNumber,
    /// Buchholz (the sum of the opponents' scores), then the pairing number.
    Buchholz,
}

const TIE_BREAK: [(&str, TieBreak); 2] = [
    ("PAIRING_NUMBER", TieBreak::PairingNumber),
    ("BUCHHOLZ", TieBreak::Buchholz),
];

/// Monrad's typed options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub first_round: FirstRound,
    pub tie_break: TieBreak,
    pub game: Game,
    /// Points per backgammon match, carried through as data; `None` for 0 or unset.
    pub match_length: Option<u32>,
}

impl Options {
    pub fn of(o: &SystemOptions) -> Options {
        Options {
            first_round: read(o, "first_round", |v| parse_choice(v, &FIRST_ROUND))
                .unwrap_or_default(),
            tie_break: read(o, "tiebreak", |v| parse_choice(v, &TIE_BREAK)).unwrap_or_default(),
            game: club_game::game(o),
            match_length: club_game::match_length(o),
        }
    }

    /// What `ListSystems` says of them.
    pub fn info() -> Vec<OptionInfo> {
        vec![
            OptionInfo {
                name: "first_round",
                kind: "enum RATING|LOT",
                default_value: "RATING",
                description: "round 1's list: by pairing number (rating) or by a lot drawn from the seed (MON-1)",
                parse: |v| parse_choice(v, &FIRST_ROUND).map(|_| ()),
            },
            OptionInfo {
                name: "tiebreak",
                kind: "enum PAIRING_NUMBER|BUCHHOLZ",
                default_value: "PAIRING_NUMBER",
                description: "from round 2, players on the same score are listed by pairing number, or by Buchholz then pairing number (MON-2)",
                parse: |v| parse_choice(v, &TIE_BREAK).map(|_| ()),
            },
        ]
        .into_iter()
        .chain(club_game::options_info("MON-6"))
        .collect()
    }
}
