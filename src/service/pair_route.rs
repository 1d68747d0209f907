//! The `Pair` RPC's own route: its answer written straight from the pipeline's answer.
//!
//! The generated `PairingServiceServer` encodes what a handler returns, a
//! `proto::PairResponse`; building one copies a player's id into a proto string for each
//! board side and for each player an explanation step names, only for the encoder to
//! write and drop them (a tenth of a small Buchholz request, issue 37). [`PairRoute`]
//! stands where the generated server stood, under the same service name: a call to
//! `/swisspair.v1.PairingService/Pair` is served by tonic's own unary machinery with
//! [`AnswerCodec`], whose encoder writes the response from the `PairAnswer`
//! ([`convert::pair::encode_answer`]: the same bytes, compared by the tests); every other
//! method goes to the generated server. The handler's skeleton (`rpc.rs`: deadline,
//! admission, cancellation, metrics, log) is the same one, through
//! [`Service::pair_answer`]; the request is decoded with its games' ids left in its bytes
//! (`codec.rs`, [`proto::PairRequestInPlace`]), and the message size limits are the
//! server's. gRPC-Web and Connect calls become gRPC calls before they
//! reach this route (`web.rs`, `connect.rs`), so they take it too.
use std::convert::Infallible;
use std::sync::Arc;

use tonic::codec::{Codec, EncodeBuf, Encoder};
use tonic::codegen::{BoxFuture, Context, Poll, StdError, http};
use tonic::server::{Grpc, NamedService, UnaryService};
use tonic::{Request, Response, Status};

use super::Service;
use super::convert;
use crate::pairing::PairAnswer;
use crate::proto;
use crate::proto::codec::InPlaceDecoder;
use crate::proto::pairing_service_server::PairingServiceServer;

/// The path of the `Pair` method.
const PAIR_PATH: &str = "/swisspair.v1.PairingService/Pair";

/// The `PairingService`, with `Pair` answered by this module (see the module docs).
#[derive(Clone)]
pub struct PairRoute {
    service: Arc<Service>,
    others: PairingServiceServer<Service>,
    max_message_bytes: usize,
}

impl PairRoute {
    /// `service` behind the route, every message (either way) at most `max_message_bytes`.
    pub fn new(service: Service, max_message_bytes: usize) -> PairRoute {
        let service = Arc::new(service);
        let others = PairingServiceServer::from_arc(Arc::clone(&service))
            .max_decoding_message_size(max_message_bytes)
            .max_encoding_message_size(max_message_bytes);
        PairRoute {
            service,
            others,
            max_message_bytes,
        }
    }
}

impl NamedService for PairRoute {
    const NAME: &'static str = <PairingServiceServer<Service> as NamedService>::NAME;
}

impl<B> tonic::codegen::Service<http::Request<B>> for PairRoute
where
    B: tonic::codegen::Body + Send + 'static,
    B::Error: Into<StdError> + Send + 'static,
{
    type Response = http::Response<tonic::body::Body>;
    type Error = Infallible;
    type Future = BoxFuture<Self::Response, Self::Error>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        if request.uri().path() != PAIR_PATH {
            return self.others.call(request);
        }
        let method = PairMethod(Arc::clone(&self.service));
        let limit = Some(self.max_message_bytes);
        Box::pin(async move {
            let mut grpc = Grpc::new(AnswerCodec).apply_max_message_size_config(limit, limit);
            Ok(grpc.unary(method, request).await)
        })
    }
}

/// `Pair` for tonic's unary machinery.
struct PairMethod(Arc<Service>);

impl UnaryService<proto::PairRequestInPlace> for PairMethod {
    type Response = PairAnswer;
    type Future = BoxFuture<Response<PairAnswer>, Status>;

    fn call(&mut self, request: Request<proto::PairRequestInPlace>) -> Self::Future {
        let service = Arc::clone(&self.0);
        Box::pin(async move { service.pair_answer(request).await })
    }
}

/// The request decoded with its games' ids left in its bytes (`codec.rs`,
/// [`proto::PairRequestInPlace`]); the answer written from the pipeline's answer.
#[derive(Clone, Copy, Debug, Default)]
pub struct AnswerCodec;

impl Codec for AnswerCodec {
    type Encode = PairAnswer;
    type Decode = proto::PairRequestInPlace;
    type Encoder = AnswerWriter;
    type Decoder = InPlaceDecoder;

    fn encoder(&mut self) -> AnswerWriter {
        AnswerWriter
    }

    fn decoder(&mut self) -> InPlaceDecoder {
        InPlaceDecoder
    }
}

/// Writes a `PairResponse` from a `PairAnswer` ([`convert::pair::encode_answer`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct AnswerWriter;

impl Encoder for AnswerWriter {
    type Item = PairAnswer;
    type Error = Status;

    fn encode(&mut self, item: PairAnswer, buf: &mut EncodeBuf<'_>) -> Result<(), Status> {
        convert::pair::encode_answer(&item, buf);
        Ok(())
    }
}
