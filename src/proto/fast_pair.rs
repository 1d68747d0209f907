//! A `PairRequest`'s bulk decoded by hand: the players' ids and names and every game's two
//! ids, which are most of a request's strings (issue 37: decoding was a quarter of a small
//! Buchholz or backgammon request, and prost's string path costs about 300 instructions a
//! string, most of it growing an empty buffer a copy at a time).
//!
//! The result is the same `proto::PairRequest` prost gives; only the path to it is shorter.
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
use prost::encoding::{DecodeContext, WireType, decode_key, decode_varint};

use super::{Game, PairRequest, Player, Round, Tournament, pair_request};

/// Field numbers in `proto/swisspair/v1/pairing.proto`.
const PAIR_REQUEST_TOURNAMENT: u32 = 1;
const TOURNAMENT_PLAYERS: u32 = 8;
const TOURNAMENT_ROUNDS: u32 = 9;
const PLAYER_ID: u32 = 1;
const PLAYER_NAME: u32 = 2;
const ROUND_GAMES: u32 = 2;
const GAME_WHITE_ID: u32 = 1;
const GAME_BLACK_ID: u32 = 2;

/// The request in `bytes`, or `None` when they are not a well-formed `PairRequest` (the
/// caller then asks prost, which says what is wrong).
pub fn pair_request(bytes: &[u8]) -> Option<PairRequest> {
    let mut request = PairRequest::default();
    each_field(bytes, |tag, wire_type, buf| {
        if tag != PAIR_REQUEST_TOURNAMENT {
            return delegate(&mut request, tag, wire_type, buf);
        }
        let body = delimited(buf, wire_type)?;
        // A oneof's message seen again merges into the one already there (prost's rule).
        match &mut request.input {
            Some(pair_request::Input::Tournament(t)) => tournament(t, body),
            other => {
                let mut t = Tournament::default();
                tournament(&mut t, body)?;
                *other = Some(pair_request::Input::Tournament(t));
                Some(())
            }
        }
    })?;
    Some(request)
}

fn tournament(t: &mut Tournament, bytes: &[u8]) -> Option<()> {
    // Room for every player and round first: grown one push at a time, the vectors of
    // these large messages were copied over and over (a twentieth of a small Buchholz
    // request).
    let (players, rounds) = count(bytes, TOURNAMENT_PLAYERS, TOURNAMENT_ROUNDS);
    t.players.reserve(players);
    t.rounds.reserve(rounds);
    each_field(bytes, |tag, wire_type, buf| match tag {
        TOURNAMENT_PLAYERS => {
            let mut p = Player::default();
            player(&mut p, delimited(buf, wire_type)?)?;
            t.players.push(p);
            Some(())
        }
        TOURNAMENT_ROUNDS => {
            let mut r = Round::default();
            round(&mut r, delimited(buf, wire_type)?)?;
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
        _ => delegate(p, tag, wire_type, buf),
    })
}

fn round(r: &mut Round, bytes: &[u8]) -> Option<()> {
    r.games.reserve(count(bytes, ROUND_GAMES, ROUND_GAMES).0);
    each_field(bytes, |tag, wire_type, buf| match tag {
        ROUND_GAMES => {
            let mut g = Game::default();
            game(&mut g, delimited(buf, wire_type)?)?;
            r.games.push(g);
            Some(())
        }
        _ => delegate(r, tag, wire_type, buf),
    })
}

fn game(g: &mut Game, bytes: &[u8]) -> Option<()> {
    each_field(bytes, |tag, wire_type, buf| match tag {
        GAME_WHITE_ID => string(&mut g.white_id, delimited(buf, wire_type)?),
        GAME_BLACK_ID => string(&mut g.black_id, delimited(buf, wire_type)?),
        _ => delegate(g, tag, wire_type, buf),
    })
}

/// Calls `field` with each field's number and wire type, `buf` at its value; `field`
/// consumes the value.
fn each_field(
    mut buf: &[u8],
    mut field: impl FnMut(u32, WireType, &mut &[u8]) -> Option<()>,
) -> Option<()> {
    while !buf.is_empty() {
        let (tag, wire_type) = decode_key(&mut buf).ok()?;
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
        let Ok((tag, wire_type)) = decode_key(&mut bytes) else {
            break;
        };
        count_a += usize::from(tag == a);
        count_b += usize::from(tag == b);
        let skipped = match wire_type {
            WireType::Varint => decode_varint(&mut bytes).ok().map(|_| ()),
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

/// A length-delimited value's bytes, taken off `buf`.
fn delimited<'a>(buf: &mut &'a [u8], wire_type: WireType) -> Option<&'a [u8]> {
    if wire_type != WireType::LengthDelimited {
        return None;
    }
    let len = usize::try_from(decode_varint(buf).ok()?).ok()?;
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
                    groups: vec!["club:A".into(), "family:B".into()],
                    ..proto::Player::default()
                }],
                rounds: vec![proto::Round {
                    number: 9,
                    games: vec![proto::Game {
                        white_id: "x1".into(),
                        black_id: "1".into(),
                        result: 1,
                        board: 4,
                        not_rated: true,
                    }],
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
