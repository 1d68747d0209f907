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
// The generated code beside this module is exempt from clippy; this file is not.
#![warn(clippy::all)]

use bytes::BufMut;
use prost::Message;
use prost::encoding::{WireType, encode_key, encode_varint, encoded_len_varint, message, uint32};

use super::{Board, Explanation, ExplanationGroup, ExplanationStep, PairResponse};

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
    if response.round != 0 {
        uint32::encode(RESPONSE_ROUND, &response.round, buf);
    }
    for board in &response.boards {
        board_field(board, buf);
    }
    message::encode_repeated(RESPONSE_BYES, &response.byes, buf);
    if let Some(e) = &response.explanation {
        explanation(e, buf);
    }
    // What is left: the fields after the explanation (the first four now at their
    // defaults, which prost does not write).
    response.round = 0;
    response.boards = Vec::new();
    response.byes = Vec::new();
    response.explanation = None;
    response.encode_raw(buf);
}

/// The length of a string field as prost writes it (tags below 16: a one-byte key).
fn string_len(text: &str) -> usize {
    1 + encoded_len_varint(text.len() as u64) + text.len()
}

/// A singular proto3 string: absent when empty.
fn optional_string_len(text: &str) -> usize {
    if text.is_empty() { 0 } else { string_len(text) }
}

fn put_string(tag: u32, text: &str, buf: &mut impl BufMut) {
    encode_key(tag, WireType::LengthDelimited, buf);
    encode_varint(text.len() as u64, buf);
    buf.put_slice(text.as_bytes());
}

fn put_optional_string(tag: u32, text: &str, buf: &mut impl BufMut) {
    if !text.is_empty() {
        put_string(tag, text, buf);
    }
}

/// A nested message's key and length (tags below 16: a one-byte key).
fn put_header(tag: u32, len: usize, buf: &mut impl BufMut) {
    encode_key(tag, WireType::LengthDelimited, buf);
    encode_varint(len as u64, buf);
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
        encode_key(tag, WireType::Varint, buf);
        encode_varint(u64::from(value), buf);
    }
}

/// A board (field 2 of the response), its length computed once: prost's generic path
/// computed it through every field and then wrote them, 3 % of a small Buchholz request.
fn board_field(board: &Board, buf: &mut impl BufMut) {
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
    let len = optional_uint32_len(*number)
        + optional_string_len(white_id)
        + optional_string_len(black_id)
        + optional_uint32_len(*white_pairing_number)
        + optional_uint32_len(*black_pairing_number)
        + optional_string_len(first_id)
        + optional_string_len(second_id)
        + optional_uint32_len(*first_pairing_number)
        + optional_uint32_len(*second_pairing_number);
    put_header(RESPONSE_BOARDS, len, buf);
    put_optional_uint32(BOARD_NUMBER, *number, buf);
    put_optional_string(BOARD_WHITE_ID, white_id, buf);
    put_optional_string(BOARD_BLACK_ID, black_id, buf);
    put_optional_uint32(BOARD_WHITE_PAIRING_NUMBER, *white_pairing_number, buf);
    put_optional_uint32(BOARD_BLACK_PAIRING_NUMBER, *black_pairing_number, buf);
    put_optional_string(BOARD_FIRST_ID, first_id, buf);
    put_optional_string(BOARD_SECOND_ID, second_id, buf);
    put_optional_uint32(BOARD_FIRST_PAIRING_NUMBER, *first_pairing_number, buf);
    put_optional_uint32(BOARD_SECOND_PAIRING_NUMBER, *second_pairing_number, buf);
}

fn step_len(step: &ExplanationStep) -> usize {
    let ExplanationStep {
        rule_id,
        message,
        player_ids,
    } = step;
    optional_string_len(rule_id)
        + optional_string_len(message)
        + player_ids.iter().map(|id| string_len(id)).sum::<usize>()
}

/// The explanation, field 4 of the response.
fn explanation(e: &Explanation, buf: &mut impl BufMut) {
    let Explanation { groups } = e;
    // Every step's length, then every group's, each computed once.
    let steps: usize = groups.iter().map(|g| g.steps.len()).sum();
    let mut step_lens = Vec::with_capacity(steps);
    let mut group_lens = Vec::with_capacity(groups.len());
    let mut total = 0;
    for group in groups {
        let ExplanationGroup { label, steps } = group;
        let mut len = optional_string_len(label);
        for step in steps {
            let s = step_len(step);
            step_lens.push(s);
            len += field_len(s);
        }
        group_lens.push(len);
        total += field_len(len);
    }
    put_header(RESPONSE_EXPLANATION, total, buf);
    let mut lens = step_lens.iter();
    for (group, &len) in groups.iter().zip(&group_lens) {
        put_header(EXPLANATION_GROUPS, len, buf);
        put_optional_string(GROUP_LABEL, &group.label, buf);
        for step in &group.steps {
            put_header(GROUP_STEPS, lens.next().copied().unwrap_or(0), buf);
            put_optional_string(STEP_RULE_ID, &step.rule_id, buf);
            put_optional_string(STEP_MESSAGE, &step.message, buf);
            for id in &step.player_ids {
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
