//! `Audit` and `AuditStream` end to end: the real server on an ephemeral port, the reports
//! of `tests/data/audit/`.
mod common;

use common::server::Server;
use swisspair::proto;
use swisspair::service::ServerConfig;
use tonic::Code;

fn report(name: &str) -> proto::AuditRequest {
    let text =
        std::fs::read_to_string(common::data_dir().join("audit").join(name)).expect("fixture");
    proto::AuditRequest {
        name: name.to_string(),
        input: Some(proto::audit_request::Input::TrfBytes(text.into_bytes())),
        system: proto::PairingSystem::Dutch as i32,
        ..proto::AuditRequest::default()
    }
}

fn kinds(r: &proto::AuditResponse) -> Vec<proto::AuditFindingKind> {
    let mut k: Vec<_> = r.findings.iter().map(|f| f.kind()).collect();
    k.dedup();
    k
}

#[tokio::test]
async fn audit_gives_one_verdict_per_report() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;

    let clean = client
        .audit(report("clean.trf"))
        .await
        .expect("audited")
        .into_inner();
    assert_eq!(clean.verdict(), proto::AuditVerdict::Clean, "{clean:#?}");
    assert_eq!(clean.name, "clean.trf");
    assert_eq!(clean.system(), proto::PairingSystem::Dutch);
    assert_eq!((clean.rounds, clean.rounds_repaired), (5, 5));
    assert!(clean.points_checked && clean.ranks_checked);

    let points = client
        .audit(report("wrong-points.trf"))
        .await
        .expect("audited")
        .into_inner();
    assert_eq!(points.verdict(), proto::AuditVerdict::Findings);
    assert_eq!(kinds(&points), vec![proto::AuditFindingKind::Points]);
    assert_eq!(points.findings[0].player_ids, vec!["5"]);
    assert_eq!(points.counts.get("points"), Some(&1));

    let rank = client
        .audit(report("wrong-rank.trf"))
        .await
        .expect("audited")
        .into_inner();
    assert_eq!(kinds(&rank), vec![proto::AuditFindingKind::Rank]);
    assert!(rank.findings.iter().all(|f| f.rule_id == "C.07"));

    let pairing = client
        .audit(report("wrong-pairing.trf"))
        .await
        .expect("audited")
        .into_inner();
    let pairs: Vec<_> = pairing
        .findings
        .iter()
        .filter(|f| f.kind() == proto::AuditFindingKind::Pairs)
        .collect();
    assert_eq!(pairs.len(), 4, "{pairing:#?}");
    assert!(pairs.iter().all(|f| f.round == 5));

    // Not a report: a verdict, not an error.
    let junk = client
        .audit(proto::AuditRequest {
            name: "junk".to_string(),
            input: Some(proto::audit_request::Input::Trf("hello".to_string())),
            ..proto::AuditRequest::default()
        })
        .await
        .expect("answered")
        .into_inner();
    assert_eq!(junk.verdict(), proto::AuditVerdict::Unreadable);
    assert!(!junk.error.is_empty());

    // A bad request is INVALID_ARGUMENT, as for every RPC.
    let status = client
        .audit(proto::AuditRequest::default())
        .await
        .expect_err("no input");
    assert_eq!(status.code(), Code::InvalidArgument);
    let status = client
        .audit(proto::AuditRequest {
            system: 99,
            ..report("clean.trf")
        })
        .await
        .expect_err("unknown system");
    assert_eq!(status.code(), Code::InvalidArgument);
    server.stop().await;
}

#[tokio::test]
async fn audit_stream_answers_in_order_on_one_call() {
    // Two workers: at most two of the stream's reports in flight at once.
    let server = Server::start(ServerConfig {
        max_concurrent_pairings: 2,
        ..ServerConfig::default()
    })
    .await;
    let mut client = server.client().await;
    let names = [
        "clean.trf",
        "wrong-points.trf",
        "wrong-rank.trf",
        "wrong-pairing.trf",
        "bad-record.trf",
        "clean.trf",
    ];
    let mut requests: Vec<proto::AuditStreamRequest> = names
        .iter()
        .map(|n| proto::AuditStreamRequest {
            file: Some(report(n)),
        })
        .collect();
    // A report the server cannot read does not end the stream.
    requests.insert(
        2,
        proto::AuditStreamRequest {
            file: Some(proto::AuditRequest {
                name: "junk".to_string(),
                input: Some(proto::audit_request::Input::Trf("junk".to_string())),
                ..proto::AuditRequest::default()
            }),
        },
    );
    let sent = requests.len();
    let mut stream = client
        .audit_stream(tokio_stream::iter(requests))
        .await
        .expect("stream")
        .into_inner();
    let mut got = Vec::new();
    while let Some(item) = stream.message().await.expect("verdict") {
        got.push(item);
    }
    assert_eq!(got.len(), sent);
    let order: Vec<u32> = got.iter().map(|r| r.index).collect();
    assert_eq!(order, (0..sent as u32).collect::<Vec<_>>());
    let verdicts: Vec<(String, proto::AuditVerdict)> = got
        .iter()
        .map(|r| {
            let f = r.file.clone().unwrap_or_default();
            (f.name.clone(), f.verdict())
        })
        .collect();
    use proto::AuditVerdict::{Clean, Findings, Unreadable};
    assert_eq!(
        verdicts,
        vec![
            ("clean.trf".to_string(), Clean),
            ("wrong-points.trf".to_string(), Findings),
            ("junk".to_string(), Unreadable),
            ("wrong-rank.trf".to_string(), Findings),
            ("wrong-pairing.trf".to_string(), Findings),
            ("bad-record.trf".to_string(), Findings),
            ("clean.trf".to_string(), Clean),
        ]
    );
    server.stop().await;
}
