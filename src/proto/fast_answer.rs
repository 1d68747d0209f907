//! A `PairResponse` encoded with its explanation written by hand: the same bytes as prost's,
//! with each message's length computed once.
//!
//! prost writes a nested message as its length, then its fields, and computes that length
//! afresh at every level above it: an explanation step's length four times per answer (the
//! response's, the explanation's, its group's, its own), a tenth of a small Buchholz request
//! (issue 37). Here the steps' and groups' lengths are computed once into a list, then
//! written. The boards are written by hand too (each one's length computed once); fields 1
//! and 3 (round, byes) are written by prost's field encoders, and
//! every field after the explanation (tag 4) by prost's encoding of the rest of the message,
//! in the order prost writes them (by tag), so that a field added to the proto later is
//! written as before. The explanation's messages and the board are destructured field by
//! field: a field added to them fails to compile here until it is written. `tests` compare the bytes with
//! prost's.
//!
//! The writer reads the boards and the explanation through [`BoardFields`] and
//! [`ExplanationSource`], so that the server's `Pair` route (`service/pair_route.rs`) writes
//! them straight from the pipeline's answer, without a proto string per player mention in
//! between ([`encode_parts`]); [`encode`] reads them from a `PairResponse`.
// The generated code beside this module is exempt from clippy; this file is not.
#![warn(clippy::all)]

use bytes::BufMut;
use prost::Message;
use prost::encoding::{WireType, encode_varint, encoded_len_varint, message, uint32};

use super::{Board, ByeAssignment, Explanation, ExplanationGroup, ExplanationStep, PairResponse};

/// Field numbers in `proto/swisspair/v1/pairing.proto`.
const RESPONSE_ROUND: u32 = 1;
const RESPONSE_BOARDS: u32 = 2;
const RESPONSE_BYES: u32 = 3;
const RESPONSE_EXPLANATION: u32 = 4;
const BOARD_NUMBER: u32 = 1;
const BOARD_WHITE_ID: u32 = 2;
const BOARD_BLACK_ID: u32 = 3;
const BOARD_WHITE_PAIRING_NUMBER: u32 = 4;
const BOARD_BLACK_PAIRING_NUMBER: u32 = 5;
const BOARD_FIRST_ID: u32 = 6;
const BOARD_SECOND_ID: u32 = 7;
const BOARD_FIRST_PAIRING_NUMBER: u32 = 8;
const BOARD_SECOND_PAIRING_NUMBER: u32 = 9;
const EXPLANATION_GROUPS: u32 = 1;
const GROUP_LABEL: u32 = 1;
const GROUP_STEPS: u32 = 2;
const STEP_RULE_ID: u32 = 1;
const STEP_MESSAGE: u32 = 2;
const STEP_PLAYER_IDS: u32 = 3;

/// Writes `response` as prost would (the response is consumed: its later fields are
/// encoded from what is left of it).
pub fn encode(mut response: PairResponse, buf: &mut impl BufMut) {
    let boards = std::mem::take(&mut response.boards);
    let byes = std::mem::take(&mut response.byes);
    let explanation = response.explanation.take();
    let round = std::mem::take(&mut response.round);
    encode_parts(
        round,
        boards.iter().map(BoardFields::of),
        &byes,
        explanation.as_ref(),
        response,
        buf,
    );
}

/// Writes a `PairResponse` from its parts, as prost writes the whole message: the round,
/// the boards, the byes, the explanation (when there is one), then every field of `rest`
/// after the explanation (its round, boards, byes and explanation are ignored: written at
/// their defaults, which prost leaves out).
pub fn encode_parts<'a>(
    round: u32,
    boards: impl Iterator<Item = BoardFields<'a>>,
    byes: &[ByeAssignment],
    explanation: Option<&impl ExplanationSource>,
    mut rest: PairResponse,
    buf: &mut impl BufMut,
) {
    if round != 0 {
        uint32::encode(RESPONSE_ROUND, &round, buf);
    }
    for board in boards {
        board_field(&board, buf);
    }
    message::encode_repeated(RESPONSE_BYES, byes, buf);
    if let Some(e) = explanation {
        explanation_field(e, buf);
    }
    rest.round = 0;
    rest.boards = Vec::new();
    rest.byes = Vec::new();
    rest.explanation = None;
    rest.encode_raw(buf);
}

/// A board's fields, as the writer reads them.
#[derive(Clone, Copy, Debug, Default)]
pub struct BoardFields<'a> {
    pub number: u32,
    pub white_id: &'a str,
    pub black_id: &'a str,
    pub white_pairing_number: u32,
    pub black_pairing_number: u32,
    pub first_id: &'a str,
    pub second_id: &'a str,
    pub first_pairing_number: u32,
    pub second_pairing_number: u32,
}

impl<'a> BoardFields<'a> {
    /// The fields of a proto board (destructured: a field added to `Board` fails to
    /// compile here until it is written).
    pub fn of(board: &'a Board) -> BoardFields<'a> {
        let Board {
            number,
            white_id,
            black_id,
            white_pairing_number,
            black_pairing_number,
            first_id,
            second_id,
            first_pairing_number,
            second_pairing_number,
        } = board;
        BoardFields {
            number: *number,
            white_id,
            black_id,
            white_pairing_number: *white_pairing_number,
            black_pairing_number: *black_pairing_number,
            first_id,
            second_id,
            first_pairing_number: *first_pairing_number,
            second_pairing_number: *second_pairing_number,
        }
    }
}

/// An explanation as the writer reads it: groups, each a label and steps, each step a rule
/// id, a message and the players' ids.
pub trait ExplanationSource {
    fn group_count(&self) -> usize;
    fn label(&self, group: usize) -> &str;
    fn step_count(&self, group: usize) -> usize;
    fn rule_id(&self, group: usize, step: usize) -> &str;
    fn message(&self, group: usize, step: usize) -> &str;
    fn player_ids(&self, group: usize, step: usize) -> impl Iterator<Item = &str>;
}

impl ExplanationSource for Explanation {
    fn group_count(&self) -> usize {
        self.groups.len()
    }

    fn label(&self, group: usize) -> &str {
        // Destructured (as the step below): a field added to the proto's group or step
        // fails to compile here until it is written.
        self.groups
            .get(group)
            .map_or("", |ExplanationGroup { label, steps: _ }| label.as_str())
    }

    fn step_count(&self, group: usize) -> usize {
        self.groups.get(group).map_or(0, |g| g.steps.len())
    }

    fn rule_id(&self, group: usize, step: usize) -> &str {
        self.step_parts(group, step).0
    }

    fn message(&self, group: usize, step: usize) -> &str {
        self.step_parts(group, step).1
    }

    fn player_ids(&self, group: usize, step: usize) -> impl Iterator<Item = &str> {
        self.step_parts(group, step).2.iter().map(String::as_str)
    }
}

impl Explanation {
    /// A step's rule id, message and players' ids.
    fn step_parts(&self, group: usize, step: usize) -> (&str, &str, &[String]) {
        match self.groups.get(group).and_then(|g| g.steps.get(step)) {
            Some(ExplanationStep {
                rule_id,
                message,
                player_ids,
            }) => (rule_id, message, player_ids),
            None => ("", "", &[]),
        }
    }
}

/// The length of a string field as prost writes it (tags below 16: a one-byte key).
fn string_len(text: &str) -> usize {
    1 + encoded_len_varint(text.len() as u64) + text.len()
}

/// A singular proto3 string: absent when empty.
fn optional_string_len(text: &str) -> usize {
    if text.is_empty() { 0 } else { string_len(text) }
}

/// A field's key, one byte for the tags below 16 written here (prost's `encode_key` is a
/// call and a loop per key: a thousand keys and lengths an answer, 3 % of a small
/// Buchholz request).
fn put_key(tag: u32, wire_type: WireType, buf: &mut impl BufMut) {
    debug_assert!(tag < 16, "a one-byte key");
    buf.put_u8(((tag << 3) | wire_type as u32) as u8);
}

/// A varint as prost writes it, the one-byte case (most lengths and numbers) inline.
#[inline(always)]
fn put_varint(value: u64, buf: &mut impl BufMut) {
    if value < 0x80 {
        buf.put_u8(value as u8);
    } else {
        encode_varint(value, buf);
    }
}

fn put_string(tag: u32, text: &str, buf: &mut impl BufMut) {
    put_key(tag, WireType::LengthDelimited, buf);
    put_varint(text.len() as u64, buf);
    buf.put_slice(text.as_bytes());
}

fn put_optional_string(tag: u32, text: &str, buf: &mut impl BufMut) {
    if !text.is_empty() {
        put_string(tag, text, buf);
    }
}

/// A nested message's key and length (tags below 16: a one-byte key).
fn put_header(tag: u32, len: usize, buf: &mut impl BufMut) {
    put_key(tag, WireType::LengthDelimited, buf);
    put_varint(len as u64, buf);
}

/// A nested message's size with its key and length.
fn field_len(len: usize) -> usize {
    1 + encoded_len_varint(len as u64) + len
}

/// A proto3 `uint32`: absent when zero (tags below 16: a one-byte key).
fn optional_uint32_len(value: u32) -> usize {
    if value == 0 {
        0
    } else {
        1 + encoded_len_varint(u64::from(value))
    }
}

fn put_optional_uint32(tag: u32, value: u32, buf: &mut impl BufMut) {
    if value != 0 {
        put_key(tag, WireType::Varint, buf);
        put_varint(u64::from(value), buf);
    }
}

/// A board (field 2 of the response), its length computed once: prost's generic path
/// computed it through every field and then wrote them, 3 % of a small Buchholz request.
fn board_field(board: &BoardFields<'_>, buf: &mut impl BufMut) {
    let &BoardFields {
        number,
        white_id,
        black_id,
        white_pairing_number,
        black_pairing_number,
        first_id,
        second_id,
        first_pairing_number,
        second_pairing_number,
    } = board;
    let len = optional_uint32_len(number)
        + optional_string_len(white_id)
        + optional_string_len(black_id)
        + optional_uint32_len(white_pairing_number)
        + optional_uint32_len(black_pairing_number)
        + optional_string_len(first_id)
        + optional_string_len(second_id)
        + optional_uint32_len(first_pairing_number)
        + optional_uint32_len(second_pairing_number);
    put_header(RESPONSE_BOARDS, len, buf);
    put_optional_uint32(BOARD_NUMBER, number, buf);
    put_optional_string(BOARD_WHITE_ID, white_id, buf);
    put_optional_string(BOARD_BLACK_ID, black_id, buf);
    put_optional_uint32(BOARD_WHITE_PAIRING_NUMBER, white_pairing_number, buf);
    put_optional_uint32(BOARD_BLACK_PAIRING_NUMBER, black_pairing_number, buf);
    put_optional_string(BOARD_FIRST_ID, first_id, buf);
    put_optional_string(BOARD_SECOND_ID, second_id, buf);
    put_optional_uint32(BOARD_FIRST_PAIRING_NUMBER, first_pairing_number, buf);
    put_optional_uint32(BOARD_SECOND_PAIRING_NUMBER, second_pairing_number, buf);
}

fn step_len(e: &impl ExplanationSource, group: usize, step: usize) -> usize {
    optional_string_len(e.rule_id(group, step))
        + optional_string_len(e.message(group, step))
        + e.player_ids(group, step).map(string_len).sum::<usize>()
}

/// The explanation, field 4 of the response.
fn explanation_field(e: &impl ExplanationSource, buf: &mut impl BufMut) {
    let groups = e.group_count();
    // Every step's length, then every group's, each computed once.
    let steps: usize = (0..groups).map(|g| e.step_count(g)).sum();
    let mut step_lens = Vec::with_capacity(steps);
    let mut group_lens = Vec::with_capacity(groups);
    let mut total = 0;
    for g in 0..groups {
        let mut len = optional_string_len(e.label(g));
        for s in 0..e.step_count(g) {
            let step = step_len(e, g, s);
            step_lens.push(step);
            len += field_len(step);
        }
        group_lens.push(len);
        total += field_len(len);
    }
    put_header(RESPONSE_EXPLANATION, total, buf);
    let mut lens = step_lens.iter();
    for (g, &len) in group_lens.iter().enumerate() {
        put_header(EXPLANATION_GROUPS, len, buf);
        put_optional_string(GROUP_LABEL, e.label(g), buf);
        for s in 0..e.step_count(g) {
            put_header(GROUP_STEPS, lens.next().copied().unwrap_or(0), buf);
            put_optional_string(STEP_RULE_ID, e.rule_id(g, s), buf);
            put_optional_string(STEP_MESSAGE, e.message(g, s), buf);
            for id in e.player_ids(g, s) {
                put_string(STEP_PLAYER_IDS, id, buf);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing;
    use crate::proto;
    use crate::service::convert;
    use crate::service::sample::Scenario;

    fn ours(response: &PairResponse) -> Vec<u8> {
        let mut buf = Vec::new();
        encode(response.clone(), &mut buf);
        buf
    }

    /// The answers to the four samples, as the server builds them.
    fn answers() -> Vec<PairResponse> {
        Scenario::ALL
            .iter()
            .map(|s| {
                let Ok(request) = s.pair_request(1) else {
                    panic!("{s:?}: no sample");
                };
                let limits = convert::Limits::default();
                let Ok((t, options, _)) = convert::pair_request_owned(request, &limits) else {
                    panic!("{s:?}: refused");
                };
                let Ok(answer) = pairing::pair_owned(t, &options) else {
                    panic!("{s:?}: not paired");
                };
                convert::pair::pair_answer_owned(answer)
            })
            .collect()
    }

    #[test]
    fn the_samples_encode_as_prost_encodes_them() {
        for response in answers() {
            assert_eq!(ours(&response), response.encode_to_vec());
        }
    }

    /// Empty and absent parts, long texts (two-byte lengths), every field after the
    /// explanation.
    #[test]
    fn edge_cases_encode_as_prost_encodes_them() {
        let long = "x".repeat(300);
        let step = |rule: &str, message: &str, ids: &[&str]| proto::ExplanationStep {
            rule_id: rule.into(),
            message: message.into(),
            player_ids: ids.iter().map(|s| s.to_string()).collect(),
        };
        let mut full = answers().remove(0);
        full.explanation = Some(proto::Explanation {
            groups: vec![
                proto::ExplanationGroup::default(),
                proto::ExplanationGroup {
                    label: long.clone(),
                    steps: vec![
                        proto::ExplanationStep::default(),
                        step("", &long, &["", "a"]),
                        step("C.04.3 C12", "", &[]),
                        step(&long, &long.repeat(60), &[&long]),
                    ],
                },
            ],
        });
        full.boards.push(proto::Board {
            number: 300,
            white_id: long.clone(),
            second_id: "b".into(),
            black_pairing_number: 70_000,
            ..proto::Board::default()
        });
        full.boards.push(proto::Board::default());
        full.total_rounds = 9;
        full.match_length = 7;
        full.rule_set = "rules".into();
        full.team_bye = Some(proto::TeamBye::default());
        full.warnings = vec![proto::Warning {
            code: "W".into(),
            ..proto::Warning::default()
        }];
        let cases = [
            full.clone(),
            PairResponse::default(),
            PairResponse {
                explanation: Some(proto::Explanation::default()),
                ..PairResponse::default()
            },
            PairResponse {
                explanation: None,
                ..full
            },
        ];
        for response in cases {
            assert_eq!(ours(&response), response.encode_to_vec());
        }
    }
}
