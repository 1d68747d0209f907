//! How the engine's errors reach a gRPC client: one mapping, used by every handler (a
//! handler's `?` converts `Problems`, `PairError` and `SimError` by the `From` impls here).
//!
//! Every error keeps its human message and carries the gRPC rich error model
//! (`google.rpc.Status` details, read with any gRPC library's "error details" support):
//! - `INVALID_ARGUMENT` carries a `BadRequest` with one field violation per problem
//!   (field path, description naming the player or round);
//! - every error carries an `ErrorInfo` with domain `swisspair` and a stable `reason`
//!   (below), with metadata such as the rule id of a failed pairing.
//!
//! | reason | code | when |
//! |---|---|---|
//! | `UNKNOWN_PLAYER` | INVALID_ARGUMENT | a reference to a player id the snapshot lacks |
//! | `UNSUPPORTED_OPTION` | INVALID_ARGUMENT | an option the chosen system does not read, or an unknown value |
//! | `MALFORMED_TRF` | INVALID_ARGUMENT | the TRF text cannot be read |
//! | `INVALID_SNAPSHOT` | INVALID_ARGUMENT | any other problem of the request |
//! | `NO_SYSTEM` | INVALID_ARGUMENT | no system named, none in the snapshot |
//! | `SYSTEM_NOT_IMPLEMENTED` | INVALID_ARGUMENT | a known system this build does not pair |
//! | `NO_LEGAL_PAIRING` | FAILED_PRECONDITION | the system has no legal pairing; metadata `rule_id` |
//! | `ENGINE_FAULT` | INTERNAL | the engine broke one of its own invariants |
//! | `MALFORMED_JSON` | INVALID_ARGUMENT | a Connect JSON body that is not the method's request in proto3 JSON (`connect.rs`); a number its field cannot take is named with the field's path and range (`json_numbers.rs`) |
use std::collections::HashMap;

use tonic::codegen::http;
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, FieldViolation, StatusExt as _};

use crate::model::validate::Problems;
use crate::simulate::SimError;
use crate::systems::PairError;

/// The error domain of every `ErrorInfo`.
pub const DOMAIN: &str = "swisspair";

/// A status with an `ErrorInfo` (and, for invalid input, a `BadRequest`).
fn status(
    code: Code,
    message: String,
    reason: &str,
    metadata: HashMap<String, String>,
    violations: Vec<FieldViolation>,
) -> Status {
    let mut details = ErrorDetails::with_error_info(reason, DOMAIN, metadata);
    if !violations.is_empty() {
        details.set_bad_request(violations);
    }
    Status::with_error_details(code, message, details)
}

/// The stable reason of a list of problems: the most specific one that covers the first
/// problem (the others are in the `BadRequest`).
fn reason_of(problems: &Problems) -> &'static str {
    let Some(first) = problems.0.first() else {
        return "INVALID_SNAPSHOT";
    };
    if first.message.contains("unknown player id") || first.message.contains("missing player id") {
        "UNKNOWN_PLAYER"
    } else if first.path.contains("options") || first.message.starts_with("unknown option") {
        "UNSUPPORTED_OPTION"
    } else if first.path == "trf" {
        "MALFORMED_TRF"
    } else {
        "INVALID_SNAPSHOT"
    }
}

/// Every problem of a request, each with its field path: `INVALID_ARGUMENT`.
pub fn invalid(problems: &Problems) -> Status {
    let violations = problems
        .0
        .iter()
        .map(|p| FieldViolation::new(p.path.clone(), p.message.clone()))
        .collect();
    let metadata = HashMap::from([("problems".to_string(), problems.0.len().to_string())]);
    status(
        Code::InvalidArgument,
        problems.to_string(),
        reason_of(problems),
        metadata,
        violations,
    )
}

/// A Connect JSON body that does not read as `method`'s request (proto3 JSON mapping):
/// `INVALID_ARGUMENT`, the parser's words (the field, line and column) as the violation.
pub fn malformed_json(method: &str, cause: &str) -> Status {
    status(
        Code::InvalidArgument,
        format!("the body is not a {method} request in proto3 JSON: {cause}"),
        "MALFORMED_JSON",
        HashMap::from([("method".to_string(), method.to_string())]),
        vec![FieldViolation::new("body", cause.to_string())],
    )
}

/// A request's problems, each with its field path: [`invalid`] (so that a handler's
/// conversion reads `convert::…(&req, limits)?`).
impl From<Problems> for Status {
    fn from(problems: Problems) -> Status {
        invalid(&problems)
    }
}

/// A Connect JSON body with numbers their fields cannot take (out of range, or not
/// integers): `INVALID_ARGUMENT`, `MALFORMED_JSON`, each field by its path with its range.
pub fn json_numbers_out_of_range(
    method: &str,
    fields: &[super::json_numbers::Violation],
) -> Status {
    let listed = fields
        .iter()
        .map(|f| format!("{}: {}", f.path, f.description))
        .collect::<Vec<_>>()
        .join("; ");
    status(
        Code::InvalidArgument,
        format!("the body is not a {method} request in proto3 JSON: {listed}"),
        "MALFORMED_JSON",
        HashMap::from([("method".to_string(), method.to_string())]),
        fields
            .iter()
            .map(|f| FieldViolation::new(f.path.clone(), f.description.clone()))
            .collect(),
    )
}

impl From<PairError> for Status {
    fn from(e: PairError) -> Status {
        let message = e.to_string();
        match e {
            PairError::Invalid(p) => invalid(&p),
            PairError::NoLegalPairing { rule, .. } => status(
                Code::FailedPrecondition,
                message,
                "NO_LEGAL_PAIRING",
                HashMap::from([("rule_id".to_string(), rule)]),
                Vec::new(),
            ),
            PairError::NotImplemented(id, _) => status(
                Code::InvalidArgument,
                format!("system: {message}"),
                "SYSTEM_NOT_IMPLEMENTED",
                HashMap::from([("system".to_string(), id.name().to_string())]),
                vec![FieldViolation::new("system", message.clone())],
            ),
            PairError::NoSystem(_) => status(
                Code::InvalidArgument,
                format!("system: {message}"),
                "NO_SYSTEM",
                HashMap::new(),
                vec![FieldViolation::new("system", message.clone())],
            ),
            PairError::Internal(_) => status(
                Code::Internal,
                message,
                "ENGINE_FAULT",
                HashMap::new(),
                Vec::new(),
            ),
        }
    }
}

impl From<SimError> for Status {
    fn from(e: SimError) -> Status {
        match e {
            SimError::Invalid(m) => {
                let (path, text) = m.split_once(": ").unwrap_or(("", m.as_str()));
                let problems = Problems(vec![crate::model::validate::Problem::new(path, text)]);
                invalid(&problems)
            }
            SimError::Refused(error) => Status::from(error),
            SimError::Pairing { round, error } => {
                let status = Status::from(error);
                let details = status.get_error_details();
                Status::with_error_details(
                    status.code(),
                    format!("round {round}: {}", status.message()),
                    details,
                )
            }
        }
    }
}

/// tonic refuses a message over `max_message_bytes` with `OUT_OF_RANGE` before any handler
/// runs; gRPC's convention (and what clients retry on) is `RESOURCE_EXHAUSTED`. The refusal
/// is a trailers-only response, so its status is in the headers: rewritten there.
pub fn oversize_is_resource_exhausted<B>(mut response: http::Response<B>) -> http::Response<B> {
    let headers = response.headers_mut();
    let out_of_range = headers
        .get("grpc-status")
        .is_some_and(|v| v.as_bytes() == b"11");
    let too_large = headers
        .get("grpc-message")
        .and_then(|m| m.to_str().ok())
        .is_some_and(|m| m.replace("%20", " ").contains("message length too large"));
    if out_of_range && too_large {
        headers.insert("grpc-status", http::HeaderValue::from_static("8"));
    }
    response
}
