//! The gRPC server: proto <-> model conversion ([`convert`]), validation, limits, health,
//! reflection. Pairing runs on the blocking pool, never on the async executor, and at most
//! `max_concurrent_pairings` at once.
pub mod convert;
pub mod standings;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tonic::{Request, Response, Status};

use crate::check::{self, CheckOptions, manual};
use crate::model::validate::{Problem, Problems};
use crate::proto;
use crate::proto::pairing_service_server::{PairingService, PairingServiceServer};
use crate::simulate::{self, SimConfig, SimError};
use crate::systems::{self, PairError, PairingSystem as _, backgammon};
use convert::Limits;

/// Server settings.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    pub listen: SocketAddr,
    /// Largest request or response message, in bytes.
    pub max_message_bytes: usize,
    pub limits: Limits,
    /// Pairings computed at once (further requests wait).
    pub max_concurrent_pairings: usize,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 50051)),
            max_message_bytes: 64 * 1024 * 1024,
            limits: Limits::default(),
            max_concurrent_pairings: std::thread::available_parallelism().map_or(2, |n| n.get()),
        }
    }
}

/// The `PairingService` implementation.
#[derive(Clone)]
pub struct Service {
    limits: Limits,
    permits: Arc<Semaphore>,
}

impl Service {
    pub fn new(config: &ServerConfig) -> Service {
        Service {
            limits: config.limits,
            permits: Arc::new(Semaphore::new(config.max_concurrent_pairings.max(1))),
        }
    }

    /// Runs CPU-bound work on the blocking pool, bounded by the permits.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Status> {
        let permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| Status::unavailable("the server is shutting down"))?;
        tokio::task::spawn_blocking(move || {
            let out = work();
            drop(permit);
            out
        })
        .await
        .map_err(|e| Status::internal(format!("pairing task failed: {e}")))
    }
}

fn invalid(problems: &Problems) -> Status {
    Status::invalid_argument(problems.to_string())
}

/// How a pairing error reaches a client.
pub fn status_of(e: &PairError) -> Status {
    match e {
        PairError::Invalid(p) => invalid(p),
        PairError::NoLegalPairing { .. } => Status::failed_precondition(e.to_string()),
        PairError::NotImplemented(..) | PairError::NoSystem(_) => {
            Status::invalid_argument(format!("system: {e}"))
        }
    }
}

#[tonic::async_trait]
impl PairingService for Service {
    async fn pair(
        &self,
        request: Request<proto::PairRequest>,
    ) -> Result<Response<proto::PairResponse>, Status> {
        let req = request.into_inner();
        let limits = self.limits;
        let started = Instant::now();
        let answer = self
            .run(move || {
                let (mut t, options, warnings) =
                    convert::pair_request(&req, &limits).map_err(|p| invalid(&p))?;
                t.assign_pairing_numbers(options.seed.unwrap_or(t.lot_seed));
                let system = options.system.or(t.system);
                let mut pairing = systems::pair(&t, &options).map_err(|e| status_of(&e))?;
                pairing.warnings.extend(warnings);
                let rule_set = system
                    .and_then(systems::find)
                    .map(|s| s.info().rule_set)
                    .unwrap_or_default();
                Ok::<_, Status>((
                    convert::pair_response(&t, system, &pairing, rule_set),
                    t.players.len(),
                ))
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
                tracing::info!(rpc = "Pair", code = ?status.code(), message = status.message(), "refused")
            }
        }
        answer.map(|(resp, _)| Response::new(resp))
    }

    async fn check(
        &self,
        request: Request<proto::CheckRequest>,
    ) -> Result<Response<proto::CheckResponse>, Status> {
        let req = request.into_inner();
        let limits = self.limits;
        self.run(move || {
            let mut problems = Vec::new();
            let (t_in, trf_in) = match &req.input {
                Some(proto::check_request::Input::Tournament(t)) => (Some(t), None),
                Some(proto::check_request::Input::Trf(text)) => (None, Some(text.as_str())),
                None => (None, None),
            };
            let (mut t, _) = convert::snapshot(t_in, trf_in, &limits, &mut problems);
            let system = convert::system_from_proto(req.system);
            if !problems.is_empty() {
                return Err(invalid(&Problems(problems)));
            }
            t.assign_pairing_numbers(req.seed.unwrap_or(t.lot_seed));
            let options = CheckOptions {
                system,
                first_round: (req.first_round > 0).then_some(req.first_round),
                last_round: (req.last_round > 0).then_some(req.last_round),
                seed: req.seed,
            };
            let report = check::check(&t, &options).map_err(|e| status_of(&e))?;
            Ok(Response::new(proto::CheckResponse {
                passed: report.passed() as u32,
                failed: report.failed() as u32,
                rounds: report
                    .rounds
                    .iter()
                    .map(|r| proto::RoundCheck {
                        round: r.round,
                        matches: r.matches(),
                        differences: r.differences.clone(),
                        expected: r
                            .engine
                            .as_ref()
                            .map(|e| convert::boards_to_proto(&t, e))
                            .unwrap_or_default(),
                        expected_byes: r
                            .engine
                            .as_ref()
                            .map(|e| convert::byes_to_proto(&t, e))
                            .unwrap_or_default(),
                        error: r.error.clone().unwrap_or_default(),
                    })
                    .collect(),
            }))
        })
        .await?
    }

    async fn standings(
        &self,
        request: Request<proto::StandingsRequest>,
    ) -> Result<Response<proto::StandingsResponse>, Status> {
        let req = request.into_inner();
        let limits = self.limits;
        self.run(move || standings::answer(&req, &limits).map(Response::new))
            .await?
    }

    async fn simulate(
        &self,
        request: Request<proto::SimulateRequest>,
    ) -> Result<Response<proto::SimulateResponse>, Status> {
        let req = request.into_inner();
        let limits = self.limits;
        self.run(move || {
            let mut problems = Vec::new();
            let system = convert::system_from_proto(req.system);
            if system.is_none() {
                problems.push(Problem::new(
                    "system",
                    "name the pairing system to simulate",
                ));
            }
            if req.players as usize > limits.max_players {
                problems.push(Problem::new(
                    "players",
                    format!(
                        "{} players is more than this server's limit of {}",
                        req.players, limits.max_players
                    ),
                ));
            }
            let options = convert::options_from_proto(req.options.as_ref(), &mut problems);
            let scoring = convert::scoring_from_proto(req.scoring.as_ref(), &mut problems);
            let Some(system) = system.filter(|_| problems.is_empty()) else {
                return Err(invalid(&Problems(problems)));
            };
            let config = SimConfig {
                system,
                players: req.players,
                rounds: req.rounds,
                seed: req.seed,
                draw_rate: req.draw_rate,
                forfeit_rate: req.forfeit_rate,
                bye_request_rate: req.bye_request_rate,
                scoring,
                options,
            };
            let t = simulate::simulate(&config).map_err(|e| match e {
                SimError::Invalid(m) => Status::invalid_argument(m),
                SimError::Pairing { error, .. } => status_of(&error),
            })?;
            let doc = crate::trf::TrfDocument {
                tournament: t.clone(),
                ..crate::trf::TrfDocument::default()
            };
            Ok(Response::new(proto::SimulateResponse {
                tournament: Some(convert::tournament_to_proto(&t)),
                // TRF cannot hold more than 9,999 players: the field is then left empty.
                trf: crate::trf::write(&doc, crate::trf::Dialect::JaVaFo).unwrap_or_default(),
            }))
        })
        .await?
    }

    async fn validate_pairing(
        &self,
        request: Request<proto::ValidatePairingRequest>,
    ) -> Result<Response<proto::ValidatePairingResponse>, Status> {
        let req = request.into_inner();
        let limits = self.limits;
        self.run(move || {
            let (mut t, options, proposal) =
                convert::validate_request(&req, &limits).map_err(|p| invalid(&p))?;
            t.assign_pairing_numbers(options.seed.unwrap_or(t.lot_seed));
            let system = options
                .system
                .or(t.system)
                .ok_or_else(|| status_of(&PairError::NoSystem(systems::implemented_names())))?;
            let report =
                manual::validate(&t, system, &proposal, &options).map_err(|e| status_of(&e))?;
            Ok(Response::new(convert::validate_response(&t, &report)))
        })
        .await?
    }

    async fn list_systems(
        &self,
        _: Request<proto::ListSystemsRequest>,
    ) -> Result<Response<proto::ListSystemsResponse>, Status> {
        Ok(Response::new(list_systems()))
    }

    async fn pair_provisional(
        &self,
        request: Request<proto::PairProvisionalRequest>,
    ) -> Result<Response<proto::PairProvisionalResponse>, Status> {
        let req = request.into_inner();
        let limits = self.limits;
        let answer = self
            .run(move || {
                let (mut t, options, warnings) =
                    convert::provisional_request(&req, &limits).map_err(|p| invalid(&p))?;
                t.assign_pairing_numbers(options.seed.unwrap_or(t.lot_seed));
                let mut p =
                    backgammon::pair_provisional(&t, &options).map_err(|e| status_of(&e))?;
                p.warnings.extend(warnings);
                Ok::<_, Status>(convert::provisional_response(
                    &t,
                    &p,
                    backgammon::Backgammon.info().rule_set,
                ))
            })
            .await?;
        log_outcome("PairProvisional", answer.as_ref().map(|r| r.boards.len()));
        answer.map(Response::new)
    }

    async fn pair_finals(
        &self,
        request: Request<proto::PairFinalsRequest>,
    ) -> Result<Response<proto::PairFinalsResponse>, Status> {
        let req = request.into_inner();
        let limits = self.limits;
        let answer = self
            .run(move || {
                let (mut t, options, warnings) =
                    convert::finals_request(&req, &limits).map_err(|p| invalid(&p))?;
                t.assign_pairing_numbers(options.seed.unwrap_or(t.lot_seed));
                let mut f = backgammon::pair_finals(&t, &options).map_err(|e| status_of(&e))?;
                f.warnings.extend(warnings);
                Ok::<_, Status>(convert::finals_response(
                    &t,
                    &f,
                    backgammon::Backgammon.info().rule_set,
                ))
            })
            .await?;
        log_outcome("PairFinals", answer.as_ref().map(|r| r.repechage.len()));
        answer.map(Response::new)
    }
}

fn log_outcome(rpc: &str, outcome: Result<usize, &Status>) {
    match outcome {
        Ok(boards) => tracing::info!(rpc, boards, "paired"),
        Err(status) => {
            tracing::info!(rpc, code = ?status.code(), message = status.message(), "refused")
        }
    }
}

/// Every implemented system with its options.
pub fn list_systems() -> proto::ListSystemsResponse {
    proto::ListSystemsResponse {
        systems: systems::implemented()
            .iter()
            .map(|s| {
                let info = s.info();
                proto::SystemInfo {
                    system: convert::system_to_proto(info.id) as i32,
                    name: info.id.name().to_string(),
                    title: info.title.to_string(),
                    rule_set: info.rule_set.to_string(),
                    options: info
                        .options
                        .iter()
                        .map(|o| proto::SystemOption {
                            name: o.name.to_string(),
                            r#type: o.kind.to_string(),
                            default_value: o.default_value.to_string(),
                            description: o.description.to_string(),
                        })
                        .collect(),
                    default_rounds: s
                        .default_rounds_table()
                        .into_iter()
                        .map(|(min_players, max_players, rounds)| proto::DefaultRounds {
                            min_players,
                            max_players,
                            rounds,
                        })
                        .collect(),
                }
            })
            .collect(),
        engine_version: crate::ENGINE_VERSION.to_string(),
    }
}

/// Serves on `listener` until `shutdown` completes, then finishes the requests in flight.
pub async fn serve_on(
    listener: TcpListener,
    config: ServerConfig,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (health_reporter, health_service) = tonic_health::server::health_reporter();
    health_reporter
        .set_serving::<PairingServiceServer<Service>>()
        .await;
    let reflection = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(proto::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    let service = PairingServiceServer::new(Service::new(&config))
        .max_decoding_message_size(config.max_message_bytes)
        .max_encoding_message_size(config.max_message_bytes);
    let reporter = health_reporter.clone();
    let shutdown = async move {
        shutdown.await;
        // Tell load balancers first, then stop accepting; in-flight requests finish.
        reporter
            .set_not_serving::<PairingServiceServer<Service>>()
            .await;
        tracing::info!("shutting down: finishing requests in flight");
    };
    tracing::info!(address = %listener.local_addr()?, "swisspair serving");
    tonic::transport::Server::builder()
        .add_service(health_service)
        .add_service(reflection)
        .add_service(service)
        .serve_with_incoming_shutdown(
            tokio_stream::wrappers::TcpListenerStream::new(listener),
            shutdown,
        )
        .await?;
    Ok(())
}

/// Resolves on SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
