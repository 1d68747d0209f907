//! The gRPC codec of the generated server and client (`build.rs` names it): prost's, but a
//! message is decoded from one contiguous slice.
//!
//! tonic hands the decoder a `DecodeBuf` over the connection's `BytesMut`; prost reading
//! through it advances the `BytesMut` field by field and byte by byte in varints (about 4 %
//! of the server's time under a 64-player backgammon load, issue 37). A request frame is
//! almost always one chunk, and prost reading a `&[u8]` takes its slice fast paths; a frame
//! split over chunks is copied into one first. A `PairRequest`, the service's most frequent
//! message, takes the hand-written path of `fast_pair.rs`; its answer, a `PairResponse`, is
//! encoded by `fast_answer.rs` (prost's bytes, each nested length computed once).
// The generated code beside this module is exempt from clippy; this file is not.
#![warn(clippy::all)]

use std::any::Any;
use std::marker::PhantomData;

use bytes::Buf;
use bytes::BufMut;
use prost::Message;
use tonic::Status;
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};

/// [`tonic_prost::ProstCodec`] with [`SliceDecoder`] and [`AnswerEncoder`].
#[derive(Debug, Clone)]
pub struct SliceCodec<T, U>(PhantomData<(T, U)>);

impl<T, U> Default for SliceCodec<T, U> {
    fn default() -> Self {
        SliceCodec(PhantomData)
    }
}

impl<T, U> Codec for SliceCodec<T, U>
where
    T: Message + Send + 'static,
    U: Message + Default + Send + 'static,
{
    type Encode = T;
    type Decode = U;
    type Encoder = AnswerEncoder<T>;
    type Decoder = SliceDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        AnswerEncoder(PhantomData)
    }

    fn decoder(&mut self) -> Self::Decoder {
        SliceDecoder(PhantomData)
    }
}

/// Encodes a message: a `PairResponse` by `fast_answer` (prost's bytes, each nested
/// length computed once), every other message by prost.
#[derive(Debug, Clone)]
pub struct AnswerEncoder<T>(PhantomData<T>);

impl<T: Message + 'static> Encoder for AnswerEncoder<T> {
    type Item = T;
    type Error = Status;

    fn encode(&mut self, item: T, buf: &mut EncodeBuf<'_>) -> Result<(), Status> {
        encode_message(item, buf);
        Ok(())
    }
}

/// Writes a message as the server does (see [`AnswerEncoder`]). The buffer grows as
/// needed (a `Vec`, tonic's `EncodeBuf`), so prost's check of the room left, a pass over
/// the whole message, is skipped.
pub fn encode_message<T: Message + 'static>(mut item: T, buf: &mut impl BufMut) {
    if let Some(response) = (&mut item as &mut dyn Any).downcast_mut::<crate::proto::PairResponse>()
    {
        super::fast_answer::encode(std::mem::take(response), buf);
        return;
    }
    item.encode_raw(buf);
}

/// [`encode_message`] into a new vector.
pub fn encode_to_vec<T: Message + 'static>(item: T) -> Vec<u8> {
    let mut buf = Vec::new();
    encode_message(item, &mut buf);
    buf
}

/// Decodes a message from its bytes as one slice.
#[derive(Debug, Clone)]
pub struct SliceDecoder<U>(PhantomData<U>);

impl<U> Default for SliceDecoder<U> {
    fn default() -> Self {
        SliceDecoder(PhantomData)
    }
}

impl<U: Message + Default + 'static> Decoder for SliceDecoder<U> {
    type Item = U;
    type Error = Status;

    fn decode(&mut self, buf: &mut DecodeBuf<'_>) -> Result<Option<U>, Status> {
        // As prost's codec: a message that does not parse is INTERNAL (gRPC's status codes).
        decode_whole(buf)
            .map(Some)
            .map_err(|e| Status::internal(e.to_string()))
    }
}

/// Decodes all of `buf` as one message: from its first chunk when that holds it all, else
/// from a contiguous copy.
fn decode_whole<U: Message + Default + 'static>(
    buf: &mut impl Buf,
) -> Result<U, prost::DecodeError> {
    let len = buf.remaining();
    match buf.chunk().get(..len) {
        Some(whole) => {
            let decoded = decode_bytes(whole);
            buf.advance(len);
            decoded
        }
        None => decode_bytes(buf.copy_to_bytes(len).as_ref()),
    }
}

/// Decodes a `Pair` request with its games' ids left in its bytes
/// ([`super::PairRequestInPlace`]): the `Pair` route's decoder.
#[derive(Debug, Clone, Copy, Default)]
pub struct InPlaceDecoder;

impl Decoder for InPlaceDecoder {
    type Item = super::PairRequestInPlace;
    type Error = Status;

    fn decode(
        &mut self,
        buf: &mut DecodeBuf<'_>,
    ) -> Result<Option<super::PairRequestInPlace>, Status> {
        // The message's bytes, shared rather than copied (tonic's buffer splits them off).
        let bytes = buf.copy_to_bytes(buf.remaining());
        decode_in_place(bytes)
            .map(Some)
            .map_err(|e| Status::internal(e.to_string()))
    }
}

/// A `PairRequest` with its games' ids in place (`fast_pair`), or, when that path finds
/// anything amiss, prost's message (ids in the games) or prost's error.
pub fn decode_in_place(
    bytes: bytes::Bytes,
) -> Result<super::PairRequestInPlace, prost::DecodeError> {
    if let Some(request) = super::fast_pair::pair_request_in_place(bytes.clone()) {
        return Ok(request);
    }
    crate::proto::PairRequest::decode(bytes).map(super::PairRequestInPlace::from)
}

/// Decodes a message from its bytes as the server does: a `PairRequest` by the hand-written
/// path of `fast_pair` (the same message, fewer instructions; prost again when that path
/// finds anything amiss), every other message by prost.
pub fn decode_bytes<U: Message + Default + 'static>(bytes: &[u8]) -> Result<U, prost::DecodeError> {
    let mut message = U::default();
    if let Some(request) =
        (&mut message as &mut dyn Any).downcast_mut::<crate::proto::PairRequest>()
        && let Some(fast) = super::fast_pair::pair_request(bytes)
    {
        *request = fast;
        return Ok(message);
    }
    message.merge(bytes)?;
    Ok(message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto;

    fn sample() -> proto::Tournament {
        proto::Tournament {
            name: "codec".into(),
            players: (1..=5)
                .map(|i| proto::Player {
                    id: format!("p{i}"),
                    name: format!("Player {i}"),
                    rating: 1500 + i,
                    ..proto::Player::default()
                })
                .collect(),
            ..proto::Tournament::default()
        }
    }

    #[test]
    fn decodes_one_chunk_and_consumes_it() {
        let bytes = sample().encode_to_vec();
        let mut buf = bytes::Bytes::from(bytes);
        assert_eq!(decode_whole::<proto::Tournament>(&mut buf), Ok(sample()));
        assert!(buf.is_empty(), "the message's bytes are consumed");
    }

    #[test]
    fn decodes_a_message_split_over_chunks() {
        let bytes = sample().encode_to_vec();
        for cut in [1, bytes.len() / 2, bytes.len() - 1] {
            let (a, b) = bytes.split_at(cut);
            let mut buf = a.chain(b);
            assert_eq!(
                decode_whole::<proto::Tournament>(&mut buf),
                Ok(sample()),
                "cut at {cut}"
            );
            assert_eq!(buf.remaining(), 0);
        }
    }

    #[test]
    fn a_truncated_message_is_an_error() {
        let bytes = sample().encode_to_vec();
        let mut buf = &bytes[..bytes.len() - 1];
        assert!(decode_whole::<proto::Tournament>(&mut buf).is_err());
    }
}
