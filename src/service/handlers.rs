//! The `PairingService` handlers: each converts its request ([`super::convert`]), runs the
//! library's entry point on the blocking pool (the pipeline [`crate::pairing`], the checker
//! [`crate::check`], manual validation [`crate::check::manual`], the simulator
//! [`crate::simulate`]), and converts the answer back. No pairing logic lives here.
use std::time::Instant;

use tonic::{Request, Response, Status};

use super::Service;
use super::convert;
use super::errors::invalid;
use super::metrics;
use crate::check::{self, manual};
use crate::pairing;
use crate::proto;
use crate::proto::pairing_service_server::PairingService;
use crate::simulate;

#[tonic::async_trait]
impl PairingService for Service {
    async fn pair(
        &self,
        request: Request<proto::PairRequest>,
    ) -> Result<Response<proto::PairResponse>, Status> {
        let (timeout, req) = super::admission::split(request);
        let limits = self.limits;
        let started = Instant::now();
        let call = metrics::Call::start("Pair");
        let asked_system = metrics::pair_request_system(&req);
        let size = super::admission::WorkSize::of_players(pair_request_players(&req));
        let answer = self
            .run_sized(timeout, size, move || {
                let (t, options, warnings) =
                    convert::pair_request(&req, &limits).map_err(|p| invalid(&p))?;
                let mut answer = pairing::pair(&t, &options)?;
                answer.pairing.warnings.extend(warnings);
                Ok::<_, Status>((convert::pair::pair_answer(&answer), t.players.len()))
            })
            .await?;
        match &answer {
            Ok((resp, players)) => tracing::info!(
                rpc = "Pair",
                round = resp.round,
                players,
                boards = resp.boards.len(),
                elapsed_ms = started.elapsed().as_secs_f64() * 1000.0,
                "paired"
            ),
            Err(status) => {
                tracing::info!(rpc = "Pair", code = ?status.code(), message = %one_line(status.message()), "refused")
            }
        }
        let system = answer
            .as_ref()
            .map_or(asked_system, |(r, _)| metrics::system_name(r.system));
        call.finish(
            &answer,
            system,
            answer.as_ref().ok().map(|(_, players)| *players),
        );
        answer.map(|(resp, _)| Response::new(resp))
    }

    async fn check(
        &self,
        request: Request<proto::CheckRequest>,
    ) -> Result<Response<proto::CheckResponse>, Status> {
        let (timeout, req) = super::admission::split(request);
        let limits = self.limits;
        let call = metrics::Call::start("Check");
        let answer = self
            .run(timeout, move || {
                let (t, options, _) =
                    convert::check::check_request(&req, &limits).map_err(|p| invalid(&p))?;
                let answer = check::run(&t, &options)?;
                Ok(Response::new(convert::check::check_response(&answer)))
            })
            .await
            .and_then(|r| r);
        call.finish(&answer, "", None);
        answer
    }

    async fn standings(
        &self,
        request: Request<proto::StandingsRequest>,
    ) -> Result<Response<proto::StandingsResponse>, Status> {
        let (timeout, req) = super::admission::split(request);
        let limits = self.limits;
        self.run(timeout, move || {
            convert::standings::answer(&req, &limits).map(Response::new)
        })
        .await?
    }

    async fn simulate(
        &self,
        request: Request<proto::SimulateRequest>,
    ) -> Result<Response<proto::SimulateResponse>, Status> {
        let (timeout, req) = super::admission::split(request);
        let limits = self.limits;
        let call = metrics::Call::start("Simulate");
        let answer = self
            .run(timeout, move || {
                let config =
                    convert::simulate::simulate_request(&req, &limits).map_err(|p| invalid(&p))?;
                let answer = simulate::run(&config)?;
                Ok(Response::new(convert::simulate::simulate_response(&answer)))
            })
            .await
            .and_then(|r| r);
        call.finish(&answer, "", None);
        answer
    }

    async fn explain(
        &self,
        request: Request<proto::ExplainRequest>,
    ) -> Result<Response<proto::ExplainResponse>, Status> {
        let (timeout, req) = super::admission::split(request);
        let limits = self.limits;
        let call = metrics::Call::start("Explain");
        let answer = self
            .run(timeout, move || {
                let (t, options, question) =
                    convert::explain_request(&req, &limits).map_err(|p| invalid(&p))?;
                let answer = crate::check::why::run(&t, &question, &options)?;
                Ok(Response::new(convert::explain_response(&answer)))
            })
            .await
            .and_then(|r| r);
        call.finish(&answer, "", None);
        answer
    }

    async fn validate_pairing(
        &self,
        request: Request<proto::ValidatePairingRequest>,
    ) -> Result<Response<proto::ValidatePairingResponse>, Status> {
        let (timeout, req) = super::admission::split(request);
        let limits = self.limits;
        let call = metrics::Call::start("ValidatePairing");
        let answer = self
            .run(timeout, move || {
                let (t, options, proposal) =
                    convert::validate_request(&req, &limits).map_err(|p| invalid(&p))?;
                let answer = manual::run(&t, &proposal, &options)?;
                Ok(Response::new(convert::validate_response(
                    &answer.tournament,
                    &answer.report,
                )))
            })
            .await
            .and_then(|r| r);
        call.finish(&answer, "", None);
        answer
    }

    async fn list_systems(
        &self,
        _: Request<proto::ListSystemsRequest>,
    ) -> Result<Response<proto::ListSystemsResponse>, Status> {
        Ok(Response::new(convert::systems::list_systems()))
    }

    async fn pair_provisional(
        &self,
        request: Request<proto::PairProvisionalRequest>,
    ) -> Result<Response<proto::PairProvisionalResponse>, Status> {
        let (timeout, req) = super::admission::split(request);
        let limits = self.limits;
        let call = metrics::Call::start("PairProvisional");
        let answer = self
            .run(timeout, move || {
                let (t, options, warnings) =
                    convert::provisional_request(&req, &limits).map_err(|p| invalid(&p))?;
                let mut answer = pairing::provisional(&t, &options)?;
                answer.pairing.warnings.extend(warnings);
                Ok::<_, Status>(convert::provisional_response(
                    &answer.tournament,
                    &answer.pairing,
                    answer.rule_set,
                ))
            })
            .await?;
        call.finish(&answer, "", None);
        log_outcome("PairProvisional", answer.as_ref().map(|r| r.boards.len()));
        answer.map(Response::new)
    }

    async fn pair_finals(
        &self,
        request: Request<proto::PairFinalsRequest>,
    ) -> Result<Response<proto::PairFinalsResponse>, Status> {
        let (timeout, req) = super::admission::split(request);
        let limits = self.limits;
        let call = metrics::Call::start("PairFinals");
        let answer = self
            .run(timeout, move || {
                let (t, options, warnings) =
                    convert::finals_request(&req, &limits).map_err(|p| invalid(&p))?;
                let mut answer = pairing::finals(&t, &options)?;
                answer.finals.warnings.extend(warnings);
                Ok::<_, Status>(convert::finals_response(
                    &answer.tournament,
                    &answer.finals,
                    answer.rule_set,
                ))
            })
            .await?;
        call.finish(&answer, "", None);
        log_outcome("PairFinals", answer.as_ref().map(|r| r.repechage.len()));
        answer.map(Response::new)
    }

    async fn audit(
        &self,
        request: Request<proto::AuditRequest>,
    ) -> Result<Response<proto::AuditResponse>, Status> {
        let (timeout, req) = super::admission::split(request);
        let limits = self.limits;
        let call = metrics::Call::start("Audit");
        let answer = self
            .run(timeout, move || convert::audit::answer(&req, &limits))
            .await
            .and_then(|r| r);
        let system = answer
            .as_ref()
            .map_or("", |r| metrics::system_name(r.system));
        call.finish(
            &answer,
            system,
            answer.as_ref().ok().map(|r| r.players as usize),
        );
        answer.map(Response::new)
    }

    type AuditStreamStream = super::audit_stream::Verdicts;

    async fn audit_stream(
        &self,
        request: Request<tonic::Streaming<proto::AuditStreamRequest>>,
    ) -> Result<Response<Self::AuditStreamStream>, Status> {
        Ok(Response::new(super::audit_stream::run(
            self.clone(),
            request.into_inner(),
        )))
    }
}

fn log_outcome(rpc: &str, outcome: Result<usize, &Status>) {
    match outcome {
        Ok(boards) => tracing::info!(rpc, boards, "paired"),
        Err(status) => {
            tracing::info!(rpc, code = ?status.code(), message = %one_line(status.message()), "refused")
        }
    }
}

/// A message on one line, so that a log record stays one line (problems are listed one per
/// line in the status message).
fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// The players a Pair request holds (its TRF's player lines), without decoding it: how
/// the admission sizes the work. An unreadable TRF counts as large.
fn pair_request_players(req: &proto::PairRequest) -> usize {
    let count = |text: &[u8]| {
        text.split(|&b| b == b'\n')
            .filter(|line| line.starts_with(b"001"))
            .count()
    };
    match &req.input {
        Some(proto::pair_request::Input::Tournament(t)) => t.players.len(),
        Some(proto::pair_request::Input::Trf(text)) => count(text.as_bytes()),
        // Bytes in another encoding (UTF-16) have no ASCII "001" at a line start.
        Some(proto::pair_request::Input::TrfBytes(bytes)) => match count(bytes) {
            0 => usize::MAX,
            n => n,
        },
        None => 0,
    }
}
