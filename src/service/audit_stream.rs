//! `AuditStream`: reports in, verdicts out, on one call. Each report is audited as the
//! unary `Audit` does it ([`super::convert::audit::answer`]), through the RPC skeleton like
//! every request (`rpc.rs`: admission, counted and logged as one `AuditStream` request per
//! report, with the file's system and players); at most the server's worker count of one stream's reports are in flight
//! (the next is read only when one is done), and the verdicts go out in the order sent.
use std::pin::Pin;

use tokio::sync::mpsc;
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Status, Streaming};

use super::Service;
use super::convert;
use super::rpc::{Answer, Plan};
use crate::proto;

/// The verdicts of a stream.
pub type Verdicts = Pin<Box<dyn Stream<Item = Result<proto::AuditStreamResponse, Status>> + Send>>;

type Pending = tokio::task::JoinHandle<Result<proto::AuditStreamResponse, Status>>;

/// Starts auditing the reports of `inbound`; the verdicts come out of the returned stream.
pub fn run(service: Service, mut inbound: Streaming<proto::AuditStreamRequest>) -> Verdicts {
    let in_flight = service.admission.limits().workers.max(1);
    let (out_tx, out_rx) = mpsc::channel(in_flight);
    let (pending_tx, mut pending_rx) = mpsc::channel::<Pending>(in_flight);
    // Reader: each report starts as soon as it is read, while the in-flight bound allows.
    tokio::spawn(async move {
        let mut index = 0u32;
        loop {
            let pending: Pending = match inbound.message().await {
                Ok(Some(request)) => {
                    let service = service.clone();
                    let i = index;
                    index = index.saturating_add(1);
                    tokio::spawn(async move { audit_one(&service, i, request).await })
                }
                Ok(None) => break,
                Err(status) => {
                    let pending = tokio::spawn(async move { Err(status) });
                    let _ = pending_tx.send(pending).await;
                    break;
                }
            };
            if pending_tx.send(pending).await.is_err() {
                break;
            }
        }
    });
    // Writer: verdicts in the order the reports came; the first server error ends the call.
    tokio::spawn(async move {
        while let Some(pending) = pending_rx.recv().await {
            let item = pending
                .await
                .unwrap_or_else(|e| Err(Status::internal(format!("audit task failed: {e}"))));
            let last = item.is_err();
            if out_tx.send(item).await.is_err() || last {
                break;
            }
        }
    });
    Box::pin(ReceiverStream::new(out_rx))
}

/// One report of the stream: a problem with it is its verdict (`UNREADABLE`); the server's
/// own refusals (busy, deadline, shutdown) end the stream.
async fn audit_one(
    service: &Service,
    index: u32,
    request: proto::AuditStreamRequest,
) -> Result<proto::AuditStreamResponse, Status> {
    let file = request.file.unwrap_or_default();
    // A report the server cannot audit is answered (its verdict is UNREADABLE): the call
    // is counted OK, as the client got its verdict.
    let answer = service
        .counted("AuditStream", None, Plan::LARGE, move |limits| {
            Ok(match convert::audit::answer(&file, limits) {
                Ok(response) => {
                    let facts = super::handlers::audit_facts(&response);
                    Answer::with(response, facts)
                }
                Err(status) => {
                    Answer::new(convert::audit::unreadable(&file.name, status.message()))
                }
            })
        })
        .await?;
    let response = answer.response;
    Ok(proto::AuditStreamResponse {
        index,
        file: Some(response),
    })
}
