//! Limits on every input: the longest text a field may hold and the largest count a
//! snapshot may declare. One place for both readers: the proto conversion
//! (`service/convert/tournament.rs`) and the TRF reader (`trf/reader.rs`, `trf/settings.rs`).
//! Each limit is far beyond what a real event needs and far below what would let a
//! request make the answer large (every text here may be echoed back).

/// A player's, a team's id (and every reference to one), in characters.
pub const MAX_ID_CHARS: usize = 64;
/// A player's, a team's or the tournament's name, in characters.
pub const MAX_NAME_CHARS: usize = 256;
/// A short code: a player's title, federation, FIDE id, sex, in characters.
pub const MAX_CODE_CHARS: usize = 16;
/// A system option's name, in characters.
pub const MAX_OPTION_NAME_CHARS: usize = 64;
/// A system option's value, in characters.
pub const MAX_OPTION_VALUE_CHARS: usize = 256;
/// System options set in one request.
pub const MAX_OPTIONS: usize = 64;
/// Rounds of a tournament (TRF `XXR` holds 2-3 digits): the declared number, the rounds
/// recorded, and every round number a snapshot names (withdrawals, late entries,
/// forbidden pairings, accelerations, team forfeits, line-ups, team PABs).
pub const MAX_ROUNDS: u32 = 999;
/// A player's or a team's pairing number, and a game's board number.
pub const MAX_PAIRING_NUMBER: u32 = 1_000_000;
/// Boards of a team match (`team_settings.boards`, `board_colours`).
pub const MAX_BOARDS: u32 = 100;
/// Members of one team (roster and reserves) or of one line-up.
pub const MAX_TEAM_MEMBERS: usize = 200;
/// Forfeited team matches, line-ups, forbidden pairings or accelerations a snapshot lists.
pub const MAX_RECORDS: usize = 100_000;
/// Separations a snapshot lists (SEP-1).
pub const MAX_SEPARATIONS: usize = 64;
/// Named groups of one player (`family:smith`, …).
pub const MAX_GROUPS_PER_PLAYER: usize = 32;
/// A named group (`prefix:name`) or a separation's group prefix, in characters. A club's
/// name is a name ([`MAX_NAME_CHARS`]).
pub const MAX_GROUP_CHARS: usize = 64;

/// At most [`MAX_ID_CHARS`] characters of `text`, quoted, for a message about a text that
/// may be too long to repeat.
pub fn shown(text: &str) -> String {
    if text.chars().count() <= MAX_ID_CHARS {
        format!("{text:?}")
    } else {
        let head: String = text.chars().take(MAX_ID_CHARS).collect();
        format!("{head:?}…")
    }
}

/// `Some(message)` when `text` is longer than `max` characters: "the WHAT is N
/// characters, more than the limit of MAX".
pub fn too_long(text: &str, max: usize, what: &str) -> Option<String> {
    let n = text.chars().count();
    (n > max).then(|| format!("the {what} is {n} characters, more than the limit of {max}"))
}

/// `Some(message)` when `value` is more than `max`: "the WHAT is N, more than the limit
/// of MAX".
pub fn too_many(value: u64, max: u64, what: &str) -> Option<String> {
    (value > max).then(|| format!("the {what} is {value}, more than the limit of {max}"))
}
