//! The Connect protocol's unary form on the gRPC port: `POST /swisspair.v1.PairingService/<Method>`
//! with `content-type: application/json` (the request message in the canonical proto3 JSON
//! mapping) or `application/proto` (its protobuf bytes), answered in the same encoding, errors
//! as Connect's JSON error body.
//!
//! A Connect call is not served beside the gRPC service but *through* it: its body becomes
//! one framed protobuf message, its headers gRPC metadata (`connect-timeout-ms` becomes
//! `grpc-timeout`, `authorization` and any other header pass as they are), and the request
//! goes down the same tower stack as a gRPC call (the bearer-token interceptor, the message
//! size limit, the handler inside the one RPC skeleton of `rpc.rs`: admission, deadline,
//! cancellation, metrics and logs). The gRPC answer (message or status with its rich
//! details) is then written back in Connect's form. When the client goes away, the answer's
//! future is dropped and with it the gRPC handler's, which cancels the pairing as for a gRPC
//! client (`admission.rs`) and is counted as `CANCELLED`.
//!
//! The JSON mapping of every message is generated from the proto by pbjson-build (`build.rs`);
//! a body it refuses for a number its field cannot take is answered with the field's path
//! and its type's range (`json_numbers.rs`), other refusals in serde's words;
//! [`unary`] names each unary RPC's request and response types, one line per RPC, and a test
//! checks it against the proto's service, so a new RPC cannot be forgotten. `AuditStream`
//! (client streaming) is not a Connect unary call: it answers `unimplemented`.
use std::collections::BTreeMap;

use base64::Engine as _;
use bytes::{BufMut as _, Bytes, BytesMut};
use http::{HeaderMap, HeaderName, HeaderValue, Method, Request, Response, StatusCode, header};
use http_body_util::{BodyExt as _, Full, Limited};
use prost::Message;
use tonic::body::Body;
use tonic::{Code, Status};
use tower::Service;

/// The path prefix of every `PairingService` method.
pub const SERVICE_PATH: &str = "/swisspair.v1.PairingService/";

/// The two encodings of Connect's unary calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    Json,
    Proto,
}

impl Codec {
    /// The codec a `content-type` names (`application/json; charset=utf-8` included).
    pub fn of(headers: &HeaderMap) -> Option<Codec> {
        let value = headers.get(header::CONTENT_TYPE)?.to_str().ok()?;
        let media = value.split(';').next()?.trim();
        if media.eq_ignore_ascii_case("application/json") {
            Some(Codec::Json)
        } else if media.eq_ignore_ascii_case("application/proto") {
            Some(Codec::Proto)
        } else {
            None
        }
    }

    fn content_type(self) -> &'static str {
        match self {
            Codec::Json => "application/json",
            Codec::Proto => "application/proto",
        }
    }
}

/// How one unary RPC's messages cross between JSON and protobuf.
#[derive(Clone, Copy)]
pub struct Transcoder {
    request_from_json: fn(&[u8]) -> Result<Vec<u8>, String>,
    response_to_json: fn(&[u8]) -> Result<Vec<u8>, String>,
}

impl Transcoder {
    fn of<Request, Response>() -> Transcoder
    where
        Request: Message + serde::de::DeserializeOwned,
        Response: Message + Default + serde::Serialize,
    {
        Transcoder {
            request_from_json: request_from_json::<Request>,
            response_to_json: response_to_json::<Response>,
        }
    }
}

/// The unary RPCs served over Connect, by method name: one line per RPC (a test compares this
/// list with the proto's unary methods).
pub fn unary(method: &str) -> Option<Transcoder> {
    use crate::proto as p;
    Some(match method {
        "Pair" => Transcoder::of::<p::PairRequest, p::PairResponse>(),
        "Check" => Transcoder::of::<p::CheckRequest, p::CheckResponse>(),
        "Standings" => Transcoder::of::<p::StandingsRequest, p::StandingsResponse>(),
        "Simulate" => Transcoder::of::<p::SimulateRequest, p::SimulateResponse>(),
        "ValidatePairing" => {
            Transcoder::of::<p::ValidatePairingRequest, p::ValidatePairingResponse>()
        }
        "ListSystems" => Transcoder::of::<p::ListSystemsRequest, p::ListSystemsResponse>(),
        "PairProvisional" => {
            Transcoder::of::<p::PairProvisionalRequest, p::PairProvisionalResponse>()
        }
        "PairFinals" => Transcoder::of::<p::PairFinalsRequest, p::PairFinalsResponse>(),
        "Audit" => Transcoder::of::<p::AuditRequest, p::AuditResponse>(),
        "Explain" => Transcoder::of::<p::ExplainRequest, p::ExplainResponse>(),
        "Ratings" => Transcoder::of::<p::RatingsRequest, p::RatingsResponse>(),
        "Norms" => Transcoder::of::<p::NormsRequest, p::NormsResponse>(),
        _ => return None,
    })
}

fn request_from_json<M: Message + serde::de::DeserializeOwned>(
    body: &[u8],
) -> Result<Vec<u8>, String> {
    // An empty body is the empty message (`curl -X POST` without `-d`), as in protobuf.
    let body: &[u8] = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        body
    };
    let message: M = serde_json::from_slice(body).map_err(|e| e.to_string())?;
    Ok(message.encode_to_vec())
}

fn response_to_json<M: Message + Default + serde::Serialize>(
    bytes: &[u8],
) -> Result<Vec<u8>, String> {
    let message = M::decode(bytes).map_err(|e| e.to_string())?;
    serde_json::to_vec(&message).map_err(|e| e.to_string())
}

/// Serves one Connect unary call through `grpc` (the gRPC stack below the Connect layer,
/// made ready by the caller).
pub async fn call<S>(
    mut grpc: S,
    request: Request<Body>,
    codec: Codec,
    max_message_bytes: usize,
) -> Response<Body>
where
    S: Service<Request<Body>, Response = Response<Body>>,
{
    let (parts, body) = request.into_parts();
    let method = parts
        .uri
        .path()
        .trim_start_matches(SERVICE_PATH)
        .to_string();
    if parts.method != Method::POST {
        return method_not_allowed(&method, &parts.method);
    }
    let Some(transcoder) = unary(&method) else {
        let message = if method == "AuditStream" {
            "AuditStream is client-streaming, which the Connect protocol's unary form cannot \
             carry: call it over gRPC, or send each report to Audit"
                .to_string()
        } else {
            format!("swisspair.v1.PairingService has no method {method:?}")
        };
        return error(&Status::unimplemented(message));
    };
    let metadata = match metadata(&parts.headers) {
        Ok(m) => m,
        Err(status) => return error(&status),
    };
    let body = match Limited::new(body, max_message_bytes).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => {
            return error(&Status::resource_exhausted(format!(
                "the request body is larger than {max_message_bytes} bytes (--max-message-bytes)"
            )));
        }
        Err(e) => {
            return error(&Status::invalid_argument(format!(
                "the request body could not be read: {e}"
            )));
        }
    };
    let message = match codec {
        Codec::Proto => body.to_vec(),
        Codec::Json => match (transcoder.request_from_json)(&body) {
            Ok(m) => m,
            Err(e) => {
                // pbjson's words for a number its field cannot take name neither: the body
                // is walked against the request's descriptor to name them (`json_numbers`).
                let numbers = super::json_numbers::violations(&method, &body);
                let status = if numbers.is_empty() {
                    super::errors::malformed_json(&method, &e)
                } else {
                    super::errors::json_numbers_out_of_range(&method, &numbers)
                };
                return error(&status);
            }
        },
    };
    let mut grpc_request = Request::new(Body::new(Full::new(frame(&message))));
    *grpc_request.method_mut() = Method::POST;
    *grpc_request.uri_mut() = parts.uri;
    // Below this layer only gRPC is spoken, and gRPC is HTTP/2 (the gRPC-Web layer passes
    // HTTP/2 requests through unchanged).
    *grpc_request.version_mut() = http::Version::HTTP_2;
    *grpc_request.headers_mut() = metadata;
    // The connection's facts (peer address, client certificate) for whatever reads them.
    *grpc_request.extensions_mut() = parts.extensions;
    let response = match grpc.call(grpc_request).await {
        Ok(r) => r,
        Err(_) => return error(&Status::internal("the gRPC service failed")),
    };
    let (head, body) = response.into_parts();
    let collected = match body.collect().await {
        Ok(c) => c,
        Err(e) => {
            return error(&Status::internal(format!(
                "the answer could not be read: {e}"
            )));
        }
    };
    let trailers = collected.trailers().cloned();
    let data = collected.to_bytes();
    let status = trailers
        .as_ref()
        .and_then(Status::from_header_map)
        .or_else(|| Status::from_header_map(&head.headers))
        .unwrap_or_else(|| Status::internal("the gRPC answer had no status"));
    if status.code() != Code::Ok {
        return error(&status);
    }
    let Some(payload) = unframe(&data) else {
        return error(&Status::internal("the gRPC answer was not one message"));
    };
    let bytes = match codec {
        Codec::Proto => payload.to_vec(),
        Codec::Json => match (transcoder.response_to_json)(&payload) {
            Ok(b) => b,
            Err(e) => return error(&Status::internal(format!("the answer as JSON: {e}"))),
        },
    };
    let mut response = Response::new(Body::new(Full::new(Bytes::from(bytes))));
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(codec.content_type()),
    );
    response
}

/// A method path asked with another HTTP method than `POST` (whatever its content type):
/// 405 with `Allow: POST`, and Connect's error body.
pub fn method_not_allowed(method: &str, verb: &Method) -> Response<Body> {
    let mut response = error(&Status::unimplemented(format!(
        "{method}: a call is a POST (gRPC, gRPC-Web or Connect); {verb} is not served"
    )));
    *response.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("POST"));
    response
}

/// The gRPC metadata of a Connect request: its headers less those of HTTP and of the Connect
/// protocol, with `connect-timeout-ms` as `grpc-timeout`.
fn metadata(headers: &HeaderMap) -> Result<HeaderMap, Status> {
    if let Some(v) = headers.get("connect-protocol-version")
        && v.as_bytes() != b"1"
    {
        return Err(Status::invalid_argument(
            "connect-protocol-version: this server speaks version 1",
        ));
    }
    if let Some(v) = headers.get(header::CONTENT_ENCODING)
        && !v.as_bytes().eq_ignore_ascii_case(b"identity")
    {
        return Err(Status::unimplemented(
            "content-encoding: requests are read uncompressed (identity) only",
        ));
    }
    let mut out = HeaderMap::new();
    for (name, value) in headers {
        let n = name.as_str();
        let hop_or_protocol = matches!(
            n,
            "host"
                | "connection"
                | "keep-alive"
                | "te"
                | "transfer-encoding"
                | "upgrade"
                | "content-type"
                | "content-length"
                | "content-encoding"
                | "accept-encoding"
        ) || n.starts_with("connect-")
            || n.starts_with("grpc-");
        if !hop_or_protocol {
            out.append(name.clone(), value.clone());
        }
    }
    out.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/grpc"),
    );
    out.insert(header::TE, HeaderValue::from_static("trailers"));
    if let Some(v) = headers.get("connect-timeout-ms") {
        let ms = v
            .to_str()
            .ok()
            .filter(|s| !s.is_empty() && s.len() <= 10 && s.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|s| s.parse::<u64>().ok())
            .ok_or_else(|| {
                Status::invalid_argument(
                    "connect-timeout-ms: expected a whole number of milliseconds (at most 10 digits)",
                )
            })?;
        // grpc-timeout takes at most 8 digits: longer timeouts go in whole seconds.
        let timeout = if ms <= 99_999_999 {
            format!("{ms}m")
        } else {
            format!("{}S", ms.div_ceil(1000))
        };
        if let Ok(value) = HeaderValue::from_str(&timeout) {
            out.insert(HeaderName::from_static("grpc-timeout"), value);
        }
    }
    Ok(out)
}

/// One gRPC message frame: uncompressed, its length, the bytes.
fn frame(message: &[u8]) -> Bytes {
    let mut out = BytesMut::with_capacity(message.len() + 5);
    out.put_u8(0);
    out.put_u32(u32::try_from(message.len()).unwrap_or(u32::MAX));
    out.put_slice(message);
    out.freeze()
}

/// The one uncompressed message of a unary gRPC answer.
fn unframe(data: &Bytes) -> Option<Bytes> {
    let (&flag, rest) = data.split_first()?;
    let len = u32::from_be_bytes(rest.get(..4)?.try_into().ok()?) as usize;
    if flag != 0 || rest.len() != 4 + len {
        return None;
    }
    Some(data.slice(5..))
}

/// Connect's name of a code (`canceled` is spelt the American way, as in the protocol).
pub fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "ok",
        Code::Cancelled => "canceled",
        Code::Unknown => "unknown",
        Code::InvalidArgument => "invalid_argument",
        Code::DeadlineExceeded => "deadline_exceeded",
        Code::NotFound => "not_found",
        Code::AlreadyExists => "already_exists",
        Code::PermissionDenied => "permission_denied",
        Code::ResourceExhausted => "resource_exhausted",
        Code::FailedPrecondition => "failed_precondition",
        Code::Aborted => "aborted",
        Code::OutOfRange => "out_of_range",
        Code::Unimplemented => "unimplemented",
        Code::Internal => "internal",
        Code::Unavailable => "unavailable",
        Code::DataLoss => "data_loss",
        Code::Unauthenticated => "unauthenticated",
    }
}

/// The HTTP status the Connect protocol gives each code.
pub fn http_status(code: Code) -> StatusCode {
    let n = match code {
        Code::Ok => 200,
        Code::Cancelled => 499,
        Code::Unknown | Code::Internal | Code::DataLoss => 500,
        Code::InvalidArgument | Code::FailedPrecondition | Code::OutOfRange => 400,
        Code::DeadlineExceeded => 504,
        Code::NotFound => 404,
        Code::AlreadyExists | Code::Aborted => 409,
        Code::PermissionDenied => 403,
        Code::ResourceExhausted => 429,
        Code::Unimplemented => 501,
        Code::Unavailable => 503,
        Code::Unauthenticated => 401,
    };
    StatusCode::from_u16(n).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// Connect's error answer: the HTTP status of the code and the JSON body
/// `{"code", "message", "details": [{"type", "value", "debug"}]}`, the details being the
/// gRPC status's own (`BadRequest`, `ErrorInfo`), their bytes in unpadded base64.
pub fn error(status: &Status) -> Response<Body> {
    let mut body = serde_json::Map::new();
    body.insert("code".into(), code_name(status.code()).into());
    if !status.message().is_empty() {
        body.insert("message".into(), status.message().into());
    }
    let details = details(status);
    if !details.is_empty() {
        body.insert("details".into(), details.into());
    }
    let bytes = serde_json::to_vec(&serde_json::Value::Object(body)).unwrap_or_default();
    let mut response = Response::new(Body::new(Full::new(Bytes::from(bytes))));
    *response.status_mut() = http_status(status.code());
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// The status's `google.rpc.Status` details as Connect error details.
fn details(status: &Status) -> Vec<serde_json::Value> {
    let Ok(rpc) = tonic_types::pb::Status::decode(status.details()) else {
        return Vec::new();
    };
    rpc.details
        .iter()
        .map(|any| {
            let kind = any
                .type_url
                .rsplit_once('/')
                .map_or(any.type_url.as_str(), |(_, t)| t);
            let mut detail = serde_json::Map::new();
            detail.insert("type".into(), kind.into());
            detail.insert(
                "value".into(),
                base64::engine::general_purpose::STANDARD_NO_PAD
                    .encode(&any.value)
                    .into(),
            );
            if let Some(debug) = debug(kind, &any.value) {
                detail.insert("debug".into(), debug);
            }
            serde_json::Value::Object(detail)
        })
        .collect()
}

/// The detail in proto3 JSON, for people reading the answer (clients decode `value`).
fn debug(kind: &str, value: &[u8]) -> Option<serde_json::Value> {
    match kind {
        "google.rpc.BadRequest" => {
            let bad = tonic_types::pb::BadRequest::decode(value).ok()?;
            let violations: Vec<serde_json::Value> = bad
                .field_violations
                .iter()
                .map(|v| serde_json::json!({"field": v.field, "description": v.description}))
                .collect();
            Some(serde_json::json!({ "fieldViolations": violations }))
        }
        "google.rpc.ErrorInfo" => {
            let info = tonic_types::pb::ErrorInfo::decode(value).ok()?;
            let metadata: BTreeMap<&str, &str> = info
                .metadata
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            Some(serde_json::json!({
                "reason": info.reason,
                "domain": info.domain,
                "metadata": metadata,
            }))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every unary method of the proto's service has its line in [`unary`], and no other.
    #[test]
    fn every_unary_rpc_is_served_over_connect() {
        let set = descriptor_set();
        let service = set
            .file
            .iter()
            .flat_map(|f| f.service.iter())
            .find(|s| s.name() == "PairingService")
            .expect("the proto has PairingService");
        assert!(!service.method.is_empty());
        for m in &service.method {
            let streaming = m.client_streaming() || m.server_streaming();
            assert_eq!(
                unary(m.name()).is_some(),
                !streaming,
                "{}: a unary RPC needs its line in connect::unary (and only a unary one)",
                m.name()
            );
        }
    }

    fn descriptor_set() -> prost_types::FileDescriptorSet {
        prost_types::FileDescriptorSet::decode(crate::proto::FILE_DESCRIPTOR_SET)
            .expect("the build's descriptor set decodes")
    }

    #[test]
    fn json_round_trips_through_protobuf() {
        let json = br#"{"trf": "012 x", "system": "PAIRING_SYSTEM_ROUND_ROBIN", "seed": "7"}"#;
        let bytes = (unary("Pair").unwrap().request_from_json)(json).unwrap();
        let req = crate::proto::PairRequest::decode(bytes.as_slice()).unwrap();
        assert_eq!(req.seed, Some(7));
        assert_eq!(
            req.system,
            crate::proto::PairingSystem::RoundRobin as i32,
            "enums by name"
        );
        let unknown = (unary("Pair").unwrap().request_from_json)(br#"{"sytem": 1}"#);
        assert!(
            unknown.unwrap_err().contains("sytem"),
            "unknown fields are refused"
        );
        // pbjson's words for a number out of range, which `json_numbers` replaces.
        let huge =
            (unary("ValidatePairing").unwrap().request_from_json)(br#"{"round": 99999999999}"#);
        assert!(huge.is_err());
    }

    #[test]
    fn frames_round_trip_and_timeouts_convert() {
        let framed = frame(b"abc");
        assert_eq!(&framed[..5], &[0, 0, 0, 0, 3]);
        assert_eq!(unframe(&framed).as_deref(), Some(&b"abc"[..]));
        assert_eq!(unframe(&Bytes::from_static(&[0, 0, 0, 0, 9, 1])), None);
        let mut h = HeaderMap::new();
        h.insert("connect-timeout-ms", HeaderValue::from_static("1500"));
        h.insert("authorization", HeaderValue::from_static("Bearer t"));
        let m = metadata(&h).unwrap();
        assert_eq!(m.get("grpc-timeout").unwrap(), "1500m");
        assert_eq!(m.get("authorization").unwrap(), "Bearer t");
        h.insert("connect-timeout-ms", HeaderValue::from_static("9999999999"));
        assert_eq!(
            metadata(&h).unwrap().get("grpc-timeout").unwrap(),
            "10000000S"
        );
        h.insert("connect-timeout-ms", HeaderValue::from_static("-1"));
        assert_eq!(metadata(&h).unwrap_err().code(), Code::InvalidArgument);
    }
}
