//! The `PairingService` handlers, thin: each converts its request ([`super::convert`]),
//! calls the library's entry point (the pipeline [`crate::pairing`], the checker
//! [`crate::check`], manual validation [`crate::check::manual`], the simulator
//! [`crate::simulate`], standings, audit) and converts the answer back, inside the one
//! skeleton every RPC runs through ([`Service::unary`](super::rpc): deadline, admission,
//! cancellation, error mapping, metrics, log). No pairing logic lives here, and no
//! admission, metrics or logging either.
use tonic::{Request, Response, Status};

use super::Service;
use super::convert;
use super::metrics;
use super::rpc::{Answer, Facts, Plan};
use crate::check::{self, manual};
use crate::pairing;
use crate::proto;
use crate::proto::pairing_service_server::PairingService;
use crate::simulate;

impl Service {
    /// `Pair`, answered with the pipeline's answer (the caller writes the response).
    pub(super) async fn pair_answer(
        &self,
        request: Request<proto::PairRequestInPlace>,
    ) -> Result<Response<pairing::PairAnswer>, Status> {
        let req = &request.get_ref().request;
        let plan =
            Plan::players(pair_request_players(req)).asking(metrics::pair_request_system(req));
        self.unary("Pair", request, plan, |req, limits| {
            let (t, options, warnings) = convert::pair_request_in_place(req, limits)?;
            let mut answer = pairing::pair_owned(t, &options)?;
            answer.pairing.warnings.extend(warnings);
            let facts = Facts {
                system: metrics::system_name(convert::enums::system_to_proto(answer.system) as i32),
                players: Some(answer.tournament.players.len()),
                round: Some(answer.pairing.round),
                boards: Some(answer.pairing.boards.len()),
            };
            Ok(Answer::with(answer, facts))
        })
        .await
    }
}

#[tonic::async_trait]
impl PairingService for Service {
    async fn pair(
        &self,
        request: Request<proto::PairRequest>,
    ) -> Result<Response<proto::PairResponse>, Status> {
        // The server answers `Pair` through its own route (`pair_route.rs`), which writes
        // the answer straight from the pipeline's; this form serves any other caller of
        // the generated service.
        self.pair_answer(request.map(proto::PairRequestInPlace::from))
            .await
            .map(|answer| answer.map(convert::pair::pair_answer_owned))
    }

    async fn check(
        &self,
        request: Request<proto::CheckRequest>,
    ) -> Result<Response<proto::CheckResponse>, Status> {
        self.unary("Check", request, Plan::LARGE, |req, limits| {
            let (t, options, reader) = convert::check::check_request(&req, limits)?;
            let answer = check::run(&t, &options)?;
            Ok(Answer::new(convert::check::check_response(
                &answer, &reader,
            )))
        })
        .await
    }

    async fn standings(
        &self,
        request: Request<proto::StandingsRequest>,
    ) -> Result<Response<proto::StandingsResponse>, Status> {
        self.unary("Standings", request, Plan::LARGE, |req, limits| {
            convert::standings::answer(&req, limits).map(Answer::new)
        })
        .await
    }

    async fn simulate(
        &self,
        request: Request<proto::SimulateRequest>,
    ) -> Result<Response<proto::SimulateResponse>, Status> {
        self.unary("Simulate", request, Plan::LARGE, |req, limits| {
            let config = convert::simulate::simulate_request(&req, limits)?;
            let answer = simulate::run(&config)?;
            Ok(Answer::new(convert::simulate::simulate_response(&answer)))
        })
        .await
    }

    async fn explain(
        &self,
        request: Request<proto::ExplainRequest>,
    ) -> Result<Response<proto::ExplainResponse>, Status> {
        self.unary("Explain", request, Plan::LARGE, |req, limits| {
            let (t, options, question) = convert::explain_request(&req, limits)?;
            let answer = check::why::run(&t, &question, &options)?;
            Ok(Answer::new(convert::explain_response(&answer)))
        })
        .await
    }

    async fn validate_pairing(
        &self,
        request: Request<proto::ValidatePairingRequest>,
    ) -> Result<Response<proto::ValidatePairingResponse>, Status> {
        self.unary("ValidatePairing", request, Plan::LARGE, |req, limits| {
            let (t, options, proposal) = convert::validate_request(&req, limits)?;
            let answer = manual::run(&t, &proposal, &options)?;
            Ok(Answer::new(convert::validate_response(
                &answer.tournament,
                &answer.report,
            )))
        })
        .await
    }

    async fn list_systems(
        &self,
        request: Request<proto::ListSystemsRequest>,
    ) -> Result<Response<proto::ListSystemsResponse>, Status> {
        self.unary("ListSystems", request, Plan::CONSTANT, |_, _| {
            Ok(Answer::new(convert::systems::list_systems()))
        })
        .await
    }

    async fn pair_provisional(
        &self,
        request: Request<proto::PairProvisionalRequest>,
    ) -> Result<Response<proto::PairProvisionalResponse>, Status> {
        self.unary("PairProvisional", request, Plan::LARGE, |req, limits| {
            let (t, options, warnings) = convert::provisional_request(&req, limits)?;
            let mut answer = pairing::provisional(&t, &options)?;
            answer.pairing.warnings.extend(warnings);
            let response =
                convert::provisional_response(&answer.tournament, &answer.pairing, answer.rule_set);
            let facts = Facts {
                boards: Some(response.boards.len()),
                ..Facts::NONE
            };
            Ok(Answer::with(response, facts))
        })
        .await
    }

    async fn pair_finals(
        &self,
        request: Request<proto::PairFinalsRequest>,
    ) -> Result<Response<proto::PairFinalsResponse>, Status> {
        self.unary("PairFinals", request, Plan::LARGE, |req, limits| {
            let (t, options, warnings) = convert::finals_request(&req, limits)?;
            let mut answer = pairing::finals(&t, &options)?;
            answer.finals.warnings.extend(warnings);
            let response =
                convert::finals_response(&answer.tournament, &answer.finals, answer.rule_set);
            let facts = Facts {
                boards: Some(response.repechage.len()),
                ..Facts::NONE
            };
            Ok(Answer::with(response, facts))
        })
        .await
    }

    async fn audit(
        &self,
        request: Request<proto::AuditRequest>,
    ) -> Result<Response<proto::AuditResponse>, Status> {
        self.unary("Audit", request, Plan::LARGE, |req, limits| {
            let response = convert::audit::answer(&req, limits)?;
            let facts = audit_facts(&response);
            Ok(Answer::with(response, facts))
        })
        .await
    }

    async fn ratings(
        &self,
        request: Request<proto::RatingsRequest>,
    ) -> Result<Response<proto::RatingsResponse>, Status> {
        self.unary("Ratings", request, Plan::LARGE, |req, limits| {
            convert::registry::ratings_answer(&req, limits).map(Answer::new)
        })
        .await
    }

    async fn norms(
        &self,
        request: Request<proto::NormsRequest>,
    ) -> Result<Response<proto::NormsResponse>, Status> {
        self.unary("Norms", request, Plan::LARGE, |req, limits| {
            convert::registry::norms_answer(&req, limits).map(Answer::new)
        })
        .await
    }

    type AuditStreamStream = super::audit_stream::Verdicts;

    /// Each report is counted and logged by the skeleton (`Service::counted`, `rpc.rs`) as one
    /// `AuditStream` request (`audit_stream.rs`).
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

/// What an audit's verdict tells the metrics: the file's system and players.
pub(super) fn audit_facts(response: &proto::AuditResponse) -> Facts {
    Facts {
        system: metrics::system_name(response.system),
        players: Some(response.players as usize),
        ..Facts::NONE
    }
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
