//! A `PairRequest`'s bulk decoded by hand: the players' ids and names and every game's two
//! ids, which are most of a request's strings (issue 37: decoding was a quarter of a small
//! Buchholz or backgammon request, and prost's string path costs about 300 instructions a
//! string, most of it growing an empty buffer a copy at a time).
//!
//! The result is the same `proto::PairRequest` prost gives; only the path to it is shorter.
//! The server's `Pair` route takes one step more ([`pair_request_in_place`]): the games'
//! ids stay in the request's bytes ([`GameIds`]) and the conversion reads them there.
//! Every field this module does not name is handed to prost's own `merge_field` of the
//! message it belongs to (options, scoring, byes, separations, ratings, …), so it is
//! decoded exactly as before. Anything but well-formed input (a wrong wire type, a length
//! past the end, a string that is not UTF-8, an error from prost on a delegated field)
//! gives `None`, and the caller decodes the whole message again with prost: errors keep
//! prost's wording, and a message this module misreads cannot slip through as a different
//! request. `tests` compare the two decoders on samples, on messages with repeated and
//! unknown fields, and on thousands of corrupted encodings.
// The generated code beside this module is exempt from clippy; this file is not.
#![warn(clippy::all)]

use prost::Message;
use prost::encoding::{DecodeContext, WireType, decode_varint};

use super::{Game, PairRequest, Player, Round, Tournament, pair_request};

/// A `PairRequest` whose games' player ids were left in the request's bytes: with
/// `game_ids`, every game's `white_id` and `black_id` are empty and [`GameIds`] holds them.
/// Most of a request's strings are these ids, which are only looked up and dropped (issue
/// 37: a string each was a twentieth of a small Buchholz request).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairRequestInPlace {
    pub request: PairRequest,
    pub game_ids: Option<GameIds>,
}

impl From<PairRequest> for PairRequestInPlace {
    fn from(request: PairRequest) -> PairRequestInPlace {
        PairRequestInPlace {
            request,
            game_ids: None,
        }
    }
}

/// The games' player ids as places in the request's bytes, games numbered across the
/// rounds in order (the order of `Tournament::rounds`, then of each round's games).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameIds {
    bytes: bytes::Bytes,
    /// Per game: white's start and length, black's start and length (an id absent from
    /// the encoding is empty, as prost leaves it).
    places: Vec<[u32; 4]>,
}

impl GameIds {
    /// Game `k`'s white and black ids.
    pub fn get(&self, k: usize) -> Option<(&str, &str)> {
        let [ws, wl, bs, bl] = *self.places.get(k)?;
        let text = |start: u32, len: u32| {
            let start = start as usize;
            let bytes = self.bytes.get(start..start + len as usize)?;
            // SAFETY: a place is recorded only for bytes checked as UTF-8 (`place`), in
            // `self.bytes`, which nothing changes. Checked again, the lookup of every id
            // cost more than the string it replaces.
            Some(unsafe { std::str::from_utf8_unchecked(bytes) })
        };
        Some((text(ws, wl)?, text(bs, bl)?))
    }

    pub fn len(&self) -> usize {
        self.places.len()
    }

    pub fn is_empty(&self) -> bool {
        self.places.is_empty()
    }
}

/// Where the games' ids go while a request is decoded: into each game's strings, or as
/// places in the request's bytes (from `base`, the bytes' start address).
enum IdSink {
    Strings,
    Places { base: usize, places: Vec<[u32; 4]> },
}

/// Field numbers in `proto/swisspair/v1/pairing.proto`.
const PAIR_REQUEST_TOURNAMENT: u32 = 1;
const TOURNAMENT_PLAYERS: u32 = 8;
const TOURNAMENT_ROUNDS: u32 = 9;
const PLAYER_ID: u32 = 1;
const PLAYER_NAME: u32 = 2;
const PLAYER_RATING: u32 = 3;
const PLAYER_PAIRING_NUMBER: u32 = 7;
const ROUND_GAMES: u32 = 2;
const GAME_WHITE_ID: u32 = 1;
const GAME_BLACK_ID: u32 = 2;
const GAME_RESULT: u32 = 3;
const GAME_BOARD: u32 = 4;
/// Bytes of a recorded game with one-character ids and a result: its key and length (2),
/// each id's key, length and character (3 + 3), the result's key and value (2).
const GAME_BYTES: usize = 10;
/// Rounds up to this size reserve room for their games by [`GAME_BYTES`].
const ESTIMATED_ROUND_BYTES: usize = 16 * 1024;

/// The request in `bytes`, or `None` when they are not a well-formed `PairRequest` (the
/// caller then asks prost, which says what is wrong).
pub fn pair_request(bytes: &[u8]) -> Option<PairRequest> {
    decode(bytes, &mut IdSink::Strings)
}

/// [`pair_request`] with the games' ids left in `bytes` ([`PairRequestInPlace`]).
pub fn pair_request_in_place(bytes: bytes::Bytes) -> Option<PairRequestInPlace> {
    // Places are 32-bit: a larger message (beyond any limit the server sets) takes
    // `pair_request`'s path.
    if u32::try_from(bytes.len()).is_err() {
        return pair_request(&bytes).map(PairRequestInPlace::from);
    }
    let mut sink = IdSink::Places {
        base: bytes.as_ptr() as usize,
        places: Vec::new(),
    };
    let request = decode(&bytes, &mut sink)?;
    let IdSink::Places { places, .. } = sink else {
        return None;
    };
    Some(PairRequestInPlace {
        request,
        game_ids: Some(GameIds { bytes, places }),
    })
}

fn decode(bytes: &[u8], ids: &mut IdSink) -> Option<PairRequest> {
    let mut request = PairRequest::default();
    each_field(bytes, |tag, wire_type, buf| {
        if tag != PAIR_REQUEST_TOURNAMENT {
            return delegate(&mut request, tag, wire_type, buf);
        }
        let body = delimited(buf, wire_type)?;
        // A oneof's message seen again merges into the one already there (prost's rule).
        match &mut request.input {
            Some(pair_request::Input::Tournament(t)) => tournament(t, body, ids),
            other => {
                // A new tournament (the oneof held nothing, or another input): the games
                // of one replaced are no longer the request's.
                if let IdSink::Places { places, .. } = ids {
                    places.clear();
                }
                let mut t = Tournament::default();
                tournament(&mut t, body, ids)?;
                *other = Some(pair_request::Input::Tournament(t));
                Some(())
            }
        }
    })?;
    Some(request)
}

fn tournament(t: &mut Tournament, bytes: &[u8], ids: &mut IdSink) -> Option<()> {
    // Room for every player and round first: grown one push at a time, the vectors of
    // these large messages were copied over and over (a twentieth of a small Buchholz
    // request).
    let (players, rounds) = count(bytes, TOURNAMENT_PLAYERS, TOURNAMENT_ROUNDS);
    t.players.reserve(players);
    t.rounds.reserve(rounds);
    each_field(bytes, |tag, wire_type, buf| match tag {
        TOURNAMENT_PLAYERS => {
            let body = delimited(buf, wire_type)?;
            // Filled where it lies: a player is a few hundred bytes, moved twice otherwise.
            // A player that fails to decode fails the whole request.
            t.players.push(Player::default());
            player(t.players.last_mut()?, body)
        }
        TOURNAMENT_ROUNDS => {
            let mut r = Round::default();
            round(&mut r, delimited(buf, wire_type)?, ids)?;
            t.rounds.push(r);
            Some(())
        }
        _ => delegate(t, tag, wire_type, buf),
    })
}

fn player(p: &mut Player, bytes: &[u8]) -> Option<()> {
    each_field(bytes, |tag, wire_type, buf| match tag {
        PLAYER_ID => string(&mut p.id, delimited(buf, wire_type)?),
        PLAYER_NAME => string(&mut p.name, delimited(buf, wire_type)?),
        // prost's `uint32` (a varint cut to 32 bits) and `optional uint32`.
        PLAYER_RATING => {
            p.rating = scalar(buf, wire_type)? as u32;
            Some(())
        }
        PLAYER_PAIRING_NUMBER => {
            p.pairing_number = Some(scalar(buf, wire_type)? as u32);
            Some(())
        }
        _ => delegate(p, tag, wire_type, buf),
    })
}

fn round(r: &mut Round, bytes: &[u8], ids: &mut IdSink) -> Option<()> {
    // A small round: room for as many games as its bytes hold at `GAME_BYTES` a game,
    // which costs less than counting them (a pass over every game); games smaller than
    // that are pushed past the room. A large round is counted: the estimate could reserve
    // several times the request's size for a round made of something else.
    let games = if bytes.len() <= ESTIMATED_ROUND_BYTES {
        bytes.len() / GAME_BYTES + 1
    } else {
        count(bytes, ROUND_GAMES, ROUND_GAMES).0
    };
    r.games.reserve(games);
    if let IdSink::Places { places, .. } = ids {
        places.reserve(games);
    }
    each_field(bytes, |tag, wire_type, buf| match tag {
        ROUND_GAMES => {
            let mut g = Game::default();
            game(&mut g, delimited(buf, wire_type)?, ids)?;
            r.games.push(g);
            Some(())
        }
        _ => delegate(r, tag, wire_type, buf),
    })
}

fn game(g: &mut Game, bytes: &[u8], ids: &mut IdSink) -> Option<()> {
    match ids {
        IdSink::Strings => each_field(bytes, |tag, wire_type, buf| match tag {
            GAME_WHITE_ID => string(&mut g.white_id, delimited(buf, wire_type)?),
            GAME_BLACK_ID => string(&mut g.black_id, delimited(buf, wire_type)?),
            _ => game_scalar(g, tag, wire_type, buf),
        }),
        IdSink::Places { base, places } => {
            // The last occurrence wins, as for a string.
            let mut at = [0u32; 4];
            each_field(bytes, |tag, wire_type, buf| match tag {
                GAME_WHITE_ID => place(&mut at[..2], delimited(buf, wire_type)?, *base),
                GAME_BLACK_ID => place(&mut at[2..], delimited(buf, wire_type)?, *base),
                _ => game_scalar(g, tag, wire_type, buf),
            })?;
            places.push(at);
            Some(())
        }
    }
}

/// A game's result (an enum: prost's `int32`, a varint cut to 32 bits) and board (`uint32`)
/// read here, every other field by prost.
fn game_scalar(g: &mut Game, tag: u32, wire_type: WireType, buf: &mut &[u8]) -> Option<()> {
    match tag {
        GAME_RESULT => g.result = scalar(buf, wire_type)? as i32,
        GAME_BOARD => g.board = scalar(buf, wire_type)? as u32,
        _ => return delegate(g, tag, wire_type, buf),
    }
    Some(())
}

/// A varint field's value; `None` for another wire type (prost refuses it).
#[inline(always)]
fn scalar(buf: &mut &[u8], wire_type: WireType) -> Option<u64> {
    if wire_type == WireType::Varint {
        varint(buf)
    } else {
        None
    }
}

/// A varint off the front of `buf`, its one- and two-byte cases inline: prost's reader is
/// a call, and a request is mostly one-byte keys and lengths and two-byte ratings (issue
/// 37: a twelfth of a small Buchholz request was spent reading them).
#[inline(always)]
fn varint(buf: &mut &[u8]) -> Option<u64> {
    match **buf {
        [low, ref rest @ ..] if low < 0x80 => {
            *buf = rest;
            Some(u64::from(low))
        }
        [low, high, ref rest @ ..] if high < 0x80 => {
            *buf = rest;
            Some(u64::from(low & 0x7f) | (u64::from(high) << 7))
        }
        _ => decode_varint(buf).ok(),
    }
}

/// A field's number and wire type, as prost's `decode_key` reads them; what it refuses (a
/// key past 32 bits, field number 0, wire types 6 and 7) is `None`.
#[inline(always)]
fn key(buf: &mut &[u8]) -> Option<(u32, WireType)> {
    let key = u32::try_from(varint(buf)?).ok()?;
    let wire_type = WireType::try_from(u64::from(key & 7)).ok()?;
    let tag = key >> 3;
    (tag != 0).then_some((tag, wire_type))
}

/// A string field's start (from `base`) and length, once its bytes are known to be UTF-8.
fn place(at: &mut [u32], bytes: &[u8], base: usize) -> Option<()> {
    if !bytes.is_ascii() {
        std::str::from_utf8(bytes).ok()?;
    }
    at[0] = u32::try_from((bytes.as_ptr() as usize).checked_sub(base)?).ok()?;
    at[1] = u32::try_from(bytes.len()).ok()?;
    Some(())
}

/// Calls `field` with each field's number and wire type, `buf` at its value; `field`
/// consumes the value.
fn each_field(
    mut buf: &[u8],
    mut field: impl FnMut(u32, WireType, &mut &[u8]) -> Option<()>,
) -> Option<()> {
    while !buf.is_empty() {
        let (tag, wire_type) = key(&mut buf)?;
        field(tag, wire_type, &mut buf)?;
    }
    Some(())
}

/// How many fields numbered `a`, and how many numbered `b`, `bytes` hold (a pass over the
/// keys, each value skipped), for reserving room; it stops at anything it does not skip
/// itself (a group, a malformed value), which only leaves the count short.
fn count(mut bytes: &[u8], a: u32, b: u32) -> (usize, usize) {
    let (mut count_a, mut count_b) = (0, 0);
    while !bytes.is_empty() {
        let Some((tag, wire_type)) = key(&mut bytes) else {
            break;
        };
        count_a += usize::from(tag == a);
        count_b += usize::from(tag == b);
        let skipped = match wire_type {
            WireType::Varint => varint(&mut bytes).map(|_| ()),
            WireType::LengthDelimited => delimited(&mut bytes, wire_type).map(|_| ()),
            WireType::ThirtyTwoBit => bytes.get(4..).map(|rest| bytes = rest),
            WireType::SixtyFourBit => bytes.get(8..).map(|rest| bytes = rest),
            WireType::StartGroup | WireType::EndGroup => None,
        };
        if skipped.is_none() {
            break;
        }
    }
    (count_a, count_b)
}

/// A length-delimited value's bytes, taken off `buf` (inline: most values are a few
/// bytes, and the call cost more than the reading).
#[inline(always)]
fn delimited<'a>(buf: &mut &'a [u8], wire_type: WireType) -> Option<&'a [u8]> {
    if wire_type != WireType::LengthDelimited {
        return None;
    }
    let len = usize::try_from(varint(buf)?).ok()?;
    if len > buf.len() {
        return None;
    }
    let (value, rest) = buf.split_at(len);
    *buf = rest;
    Some(value)
}

/// A string field: the last occurrence wins, as in prost.
fn string(out: &mut String, bytes: &[u8]) -> Option<()> {
    let text = if bytes.is_ascii() {
        // SAFETY: ASCII is UTF-8. Ids and most names are a few ASCII bytes, for which the
        // general check costs several times this one.
        unsafe { std::str::from_utf8_unchecked(bytes) }
    } else {
        std::str::from_utf8(bytes).ok()?
    };
    *out = text.to_owned();
    Some(())
}

/// A field this module does not read itself, decoded by prost into `message`.
fn delegate<M: Message>(
    message: &mut M,
    tag: u32,
    wire_type: WireType,
    buf: &mut &[u8],
) -> Option<()> {
    message
        .merge_field(tag, wire_type, buf, DecodeContext::default())
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto;
    use crate::service::sample::Scenario;
    use rand::{Rng, SeedableRng};

    /// What the codec does: this module, else prost on the whole message.
    fn decode_like_the_codec(bytes: &[u8]) -> Result<PairRequest, prost::DecodeError> {
        match pair_request(bytes) {
            Some(r) => Ok(r),
            None => PairRequest::decode(bytes),
        }
    }

    /// The request of [`pair_request_in_place`] with each game's ids written back.
    fn ids_written_back(in_place: PairRequestInPlace) -> PairRequest {
        let PairRequestInPlace {
            mut request,
            game_ids,
        } = in_place;
        let Some(ids) = game_ids else {
            return request;
        };
        let mut k = 0;
        if let Some(pair_request::Input::Tournament(t)) = &mut request.input {
            for game in t.rounds.iter_mut().flat_map(|r| r.games.iter_mut()) {
                assert!(game.white_id.is_empty() && game.black_id.is_empty());
                let Some((white, black)) = ids.get(k) else {
                    panic!("game {k} has no ids in place");
                };
                (game.white_id, game.black_id) = (white.to_string(), black.to_string());
                k += 1;
            }
        }
        assert_eq!(k, ids.len(), "as many games as places");
        request
    }

    /// What the `Pair` route does: in place, else prost on the whole message.
    fn decode_in_place_like_the_route(bytes: &[u8]) -> Result<PairRequest, prost::DecodeError> {
        crate::proto::codec::decode_in_place(bytes::Bytes::copy_from_slice(bytes))
            .map(ids_written_back)
    }

    #[test]
    fn the_samples_decode_in_place_as_prost_decodes_them_and_convert_alike() {
        let limits = crate::service::convert::Limits::default();
        for scenario in Scenario::ALL {
            let Ok(request) = scenario.pair_request(1) else {
                panic!("{scenario:?}: no sample");
            };
            let bytes = bytes::Bytes::from(request.encode_to_vec());
            let Some(in_place) = pair_request_in_place(bytes) else {
                panic!("{scenario:?}: not decoded in place");
            };
            let games = match &request.input {
                Some(pair_request::Input::Tournament(t)) => {
                    t.rounds.iter().map(|r| r.games.len()).sum()
                }
                _ => 0,
            };
            assert_eq!(in_place.game_ids.as_ref().map(GameIds::len), Some(games));
            // The snapshot (or the problems) the server reads off it: the same.
            let ours = crate::service::convert::pair_request_in_place(in_place.clone(), &limits);
            let theirs = crate::service::convert::pair_request_owned(request.clone(), &limits);
            assert_eq!(format!("{ours:?}"), format!("{theirs:?}"), "{scenario:?}");
            assert_eq!(ids_written_back(in_place), request, "{scenario:?}");
        }
    }

    /// The problems of the games' ids (too long, unknown, missing) are the same read in
    /// place: the limits and the lookup read the ids where they are.
    #[test]
    fn problems_of_games_ids_in_place_are_the_same() {
        let limits = crate::service::convert::Limits::default();
        let long = "x".repeat(crate::model::limits::MAX_ID_CHARS + 1);
        // Per case: the ids changed (round, game, white's, new id), the paths the problems name.
        type Change<'a> = (usize, usize, bool, &'a str);
        let cases: [(&[Change], &[&str]); 2] = [
            (
                &[(0, 0, true, long.as_str())],
                &["rounds[0].games[0].white_id"],
            ),
            (
                &[(1, 3, false, "nobody"), (2, 5, true, "")],
                &["rounds[1].games[3].black_id", "rounds[2].games[5].white_id"],
            ),
        ];
        for (changes, paths) in cases {
            let Ok(mut request) = Scenario::Buchholz100.pair_request(1) else {
                panic!("no sample");
            };
            let Some(pair_request::Input::Tournament(t)) = &mut request.input else {
                panic!("no tournament");
            };
            for &(r, g, white, id) in changes {
                let game = &mut t.rounds[r].games[g];
                *(if white {
                    &mut game.white_id
                } else {
                    &mut game.black_id
                }) = id.to_string();
            }
            let bytes = bytes::Bytes::from(request.encode_to_vec());
            let Some(in_place) = pair_request_in_place(bytes) else {
                panic!("not decoded in place");
            };
            let ours = crate::service::convert::pair_request_in_place(in_place, &limits);
            let theirs = crate::service::convert::pair_request_owned(request, &limits);
            let (Err(ours), Err(theirs)) = (ours, theirs) else {
                panic!("the problems were not seen");
            };
            let ours = format!("{ours:?}");
            assert_eq!(ours, format!("{theirs:?}"));
            for path in paths {
                assert!(ours.contains(path), "{path}: {ours}");
            }
        }
    }

    /// A tournament merged from two parts keeps both parts' games in order; one replaced
    /// by another input and then given again keeps only the last one's.
    #[test]
    fn games_in_place_follow_merged_and_replaced_tournaments() {
        let part = |ids: &[(&str, &str)]| proto::PairRequest {
            input: Some(proto::pair_request::Input::Tournament(proto::Tournament {
                rounds: vec![proto::Round {
                    games: ids
                        .iter()
                        .map(|&(w, b)| proto::Game {
                            white_id: w.into(),
                            black_id: b.into(),
                            result: 1,
                            ..proto::Game::default()
                        })
                        .collect(),
                    ..proto::Round::default()
                }],
                ..proto::Tournament::default()
            })),
            ..proto::PairRequest::default()
        };
        let trf = proto::PairRequest {
            input: Some(proto::pair_request::Input::Trf("012 x".into())),
            ..proto::PairRequest::default()
        };
        let mut merged = part(&[("a", "b"), ("c", "d")]).encode_to_vec();
        merged.extend(part(&[("é", "f")]).encode_to_vec());
        let mut replaced = part(&[("a", "b")]).encode_to_vec();
        replaced.extend(trf.encode_to_vec());
        replaced.extend(part(&[("x", "y"), ("z", "w")]).encode_to_vec());
        // A game with its white id twice (the last wins) and no black id.
        let mut game = proto::Game {
            white_id: "first".into(),
            ..proto::Game::default()
        }
        .encode_to_vec();
        game.extend(
            proto::Game {
                white_id: "last".into(),
                ..proto::Game::default()
            }
            .encode_to_vec(),
        );
        let round = [&[0x12, game.len() as u8][..], &game].concat();
        let tournament = [&[0x4a, round.len() as u8][..], &round].concat();
        let repeated = [&[0x0a, tournament.len() as u8][..], &tournament].concat();
        for bytes in [merged, replaced, repeated] {
            let Ok(expected) = PairRequest::decode(bytes.as_slice()) else {
                panic!("prost refuses the test's message");
            };
            let Some(in_place) = pair_request_in_place(bytes::Bytes::from(bytes)) else {
                panic!("not decoded in place");
            };
            assert_eq!(ids_written_back(in_place), expected);
        }
    }

    #[test]
    fn the_samples_decode_as_prost_decodes_them() {
        for scenario in Scenario::ALL {
            let Ok(request) = scenario.pair_request(1) else {
                panic!("{scenario:?}: no sample");
            };
            let bytes = request.encode_to_vec();
            assert_eq!(pair_request(&bytes), Some(request), "{scenario:?}");
        }
    }

    /// Repeated strings (the last wins), the tournament twice (merged), unknown fields,
    /// fields of every message beside the ones read here.
    #[test]
    fn repeated_unknown_and_delegated_fields_decode_as_prost_decodes_them() {
        let Ok(request) = Scenario::Backgammon64.pair_request(3) else {
            panic!("no sample");
        };
        let mut bytes = request.encode_to_vec();
        let extra = proto::PairRequest {
            input: Some(proto::pair_request::Input::Tournament(proto::Tournament {
                name: "second part".into(),
                players: vec![proto::Player {
                    id: "x1".into(),
                    name: "Łukasz Müller".into(),
                    rating: 2001,
                    pairing_number: Some(12),
                    groups: vec!["club:A".into(), "family:B".into()],
                    ..proto::Player::default()
                }],
                rounds: vec![proto::Round {
                    number: 9,
                    games: vec![
                        proto::Game {
                            white_id: "x1".into(),
                            black_id: "1".into(),
                            result: 1,
                            board: 4,
                            not_rated: true,
                        },
                        // Scalars read by hand: a negative enum (ten bytes), a long board.
                        proto::Game {
                            white_id: "x1".into(),
                            black_id: "2".into(),
                            result: -1,
                            board: 300_000,
                            not_rated: false,
                        },
                    ],
                    byes: vec![proto::Bye {
                        player_id: "2".into(),
                        kind: 1,
                    }],
                }],
                ..proto::Tournament::default()
            })),
            round: 7,
            absent_player_ids: vec!["3".into()],
            ..proto::PairRequest::default()
        };
        bytes.extend(extra.encode_to_vec());
        // An unknown field (number 999, a varint) at the top and inside a player.
        bytes.extend([0xb8, 0x3e, 0x05]);
        let player_with_unknown = proto::Tournament {
            players: vec![proto::Player {
                id: "y".into(),
                ..proto::Player::default()
            }],
            ..proto::Tournament::default()
        };
        let mut inner = player_with_unknown.encode_to_vec();
        // Field 8 (players) is length-delimited: widen its length by the 3 unknown bytes.
        inner[1] += 3;
        inner.extend([0xb8, 0x3e, 0x07]);
        bytes.push(0x0a);
        bytes.push(inner.len() as u8);
        bytes.extend(&inner);
        let Ok(expected) = PairRequest::decode(bytes.as_slice()) else {
            panic!("prost refuses the test's message");
        };
        assert_eq!(pair_request(&bytes), Some(expected));
    }

    /// A string that is not UTF-8 is refused with prost's error, by prost.
    #[test]
    fn a_string_not_utf8_is_prosts_error() {
        let game = proto::Game {
            white_id: "ab".into(),
            black_id: "c".into(),
            ..proto::Game::default()
        };
        let request = proto::PairRequest {
            input: Some(proto::pair_request::Input::Tournament(proto::Tournament {
                rounds: vec![proto::Round {
                    games: vec![game],
                    ..proto::Round::default()
                }],
                ..proto::Tournament::default()
            })),
            ..proto::PairRequest::default()
        };
        let mut bytes = request.encode_to_vec();
        let Some(at) = bytes.windows(2).position(|w| w == b"ab") else {
            panic!("the id is not in the encoding");
        };
        bytes[at] = 0xff;
        assert_eq!(pair_request(&bytes), None);
        assert_eq!(
            pair_request_in_place(bytes::Bytes::from(bytes.clone())),
            None
        );
        let (Err(ours), Err(theirs)) = (
            decode_like_the_codec(&bytes),
            PairRequest::decode(bytes.as_slice()),
        ) else {
            panic!("a string that is not UTF-8 was accepted");
        };
        assert_eq!(ours.to_string(), theirs.to_string());
    }

    /// Corrupted encodings (bytes changed, cut short, spliced) give what prost gives: the
    /// same request or the same error.
    #[test]
    fn corrupted_requests_decode_or_fail_as_with_prost() {
        let Ok(request) = Scenario::Buchholz100.pair_request(2) else {
            panic!("no sample");
        };
        let bytes = request.encode_to_vec();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(37);
        let (mut same, mut errors, mut by_hand) = (0, 0, 0);
        for _ in 0..3000 {
            let mut b = bytes.clone();
            match rng.random_range(0..3) {
                0 => {
                    for _ in 0..rng.random_range(1..4) {
                        let i = rng.random_range(0..b.len());
                        b[i] = rng.random();
                    }
                }
                1 => b.truncate(rng.random_range(0..b.len())),
                _ => {
                    let i = rng.random_range(0..b.len());
                    let j = rng.random_range(0..b.len());
                    let (lo, hi) = (i.min(j), i.max(j));
                    b.drain(lo..hi);
                }
            }
            if pair_request(&b).is_some() {
                by_hand += 1;
            }
            let ours = decode_like_the_codec(&b);
            let prost = PairRequest::decode(b.as_slice());
            let in_place = decode_in_place_like_the_route(&b);
            match (&in_place, &prost) {
                (Ok(x), Ok(y)) => assert_eq!(x, y),
                (Err(x), Err(y)) => assert_eq!(x.to_string(), y.to_string()),
                _ => panic!("in place, the decoders disagree: {in_place:?} against {prost:?}"),
            }
            match (&ours, &prost) {
                (Ok(x), Ok(y)) => {
                    assert_eq!(x, y);
                    same += 1;
                }
                (Err(x), Err(y)) => {
                    assert_eq!(x.to_string(), y.to_string());
                    errors += 1;
                }
                _ => panic!("the decoders disagree: {ours:?} against {prost:?}"),
            }
        }
        // Both kinds of outcome were exercised, and the hand-written path itself decoded
        // corrupted but well-formed messages.
        println!("{same} decoded ({by_hand} by hand), {errors} refused");
        assert!(
            same > 100 && errors > 100 && by_hand > 100,
            "{same} decoded ({by_hand} by hand), {errors} refused"
        );
    }
}
