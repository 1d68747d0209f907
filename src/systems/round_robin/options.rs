//! The round robin's options (RR-1..RR-3), parsed here from the request's text.
use crate::model::SystemOptions;
use crate::systems::OptionInfo;
use crate::systems::options::{parse_bool, parse_choice, parse_count, read};

/// Order of players in a Berger table (RR-3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    #[default]
    PairingNumber,
    Lot,
}

const ORDERS: [(&str, Order); 2] = [
    ("PAIRING_NUMBER", Order::PairingNumber),
    ("LOT", Order::Lot),
];

/// The round robin's typed options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// 1 or 2; `None` = inferred from the total number of rounds.
    pub cycles: Option<u32>,
    /// Double round robin: the first cycle's last two rounds played in swapped order.
    pub swap_last_two_rounds: bool,
    pub order: Order,
}

impl Options {
    pub fn of(o: &SystemOptions) -> Options {
        Options {
            cycles: read(o, "cycles", parse_count).filter(|&c| c > 0),
            swap_last_two_rounds: read(o, "swap_last_two_rounds", parse_bool).unwrap_or(false),
            order: read(o, "order", |v| parse_choice(v, &ORDERS)).unwrap_or_default(),
        }
    }

    /// What `ListSystems` says of them.
    pub fn info() -> Vec<OptionInfo> {
        vec![
            OptionInfo {
                name: "cycles",
                kind: "uint32",
                default_value: "0",
                description: "1 single, 2 double; 0 infers it from total_rounds",
                parse: |v| parse_count(v).map(|_| ()),
            },
            OptionInfo {
                name: "swap_last_two_rounds",
                kind: "bool",
                default_value: "false",
                description: "double round robin: play the first cycle's last two rounds in swapped order",
                parse: |v| parse_bool(v).map(|_| ()),
            },
            OptionInfo {
                name: "order",
                kind: "enum PAIRING_NUMBER|LOT",
                default_value: "PAIRING_NUMBER",
                description: "table numbers by pairing number or by a seeded lot",
                parse: |v| parse_choice(v, &ORDERS).map(|_| ()),
            },
        ]
    }
}
