//! `swisspair client`: the same commands through a running server.
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use swisspair::proto;

use super::CliError;
use super::args::{SystemArg, read_text, runtime};
use super::output::{
    finals_json, finals_text, pair_list, print_systems, provisional_json, provisional_list,
    response_json,
};

#[derive(Args)]
pub struct ClientArgs {
    /// Server address: `host:port`, or a URL (`http://host:port`, `https://…`).
    #[arg(long, default_value = "http://127.0.0.1:50051")]
    addr: String,
    #[command(subcommand)]
    call: ClientCall,
}

#[derive(Subcommand)]
enum ClientCall {
    /// Pair the next round of a TRF file on the server.
    Pair {
        #[command(flatten)]
        system: SystemArg,
        /// The tournament (TRF-16/TRF-26).
        input: PathBuf,
        /// Print the full response with its explanation as JSON.
        #[arg(long)]
        json: bool,
        /// Backgammon (BG-8): the early draw of round 2 (PairProvisional).
        #[arg(long)]
        provisional: bool,
    },
    /// Backgammon: the final phase (BG-9, PairFinals) of a TRF file on the server.
    Finals {
        #[command(flatten)]
        system: SystemArg,
        /// The tournament after its regular rounds.
        input: PathBuf,
        /// Print the full response with its explanation as JSON.
        #[arg(long)]
        json: bool,
    },
    /// List the server's systems.
    Systems,
}

/// `host:port` as `http://host:port`; a URL as it is.
fn endpoint(addr: &str) -> String {
    if addr.contains("://") {
        addr.to_string()
    } else {
        format!("http://{addr}")
    }
}

pub fn run(args: ClientArgs) -> Result<ExitCode, CliError> {
    let addr = endpoint(&args.addr);
    runtime()?.block_on(async move {
        let mut client = proto::pairing_service_client::PairingServiceClient::connect(addr.clone())
            .await
            .map_err(|e| CliError::Unexpected(format!("cannot connect to {addr}: {e}")))?;
        match args.call {
            ClientCall::Systems => {
                let list = client.list_systems(proto::ListSystemsRequest {}).await?;
                print_systems(list.get_ref());
            }
            ClientCall::Pair {
                system,
                input,
                json,
                provisional: true,
            } => {
                let request = proto::PairProvisionalRequest {
                    input: Some(proto::pair_provisional_request::Input::Trf(read_text(
                        &input,
                    )?)),
                    system: system.proto_number()?,
                    explanation_detail: proto::ExplanationDetail::Full as i32,
                    ..proto::PairProvisionalRequest::default()
                };
                let r = client.pair_provisional(request).await?.into_inner();
                if json {
                    println!("{}", provisional_json(&r));
                } else {
                    print!("{}", provisional_list(&r));
                }
            }
            ClientCall::Finals {
                system,
                input,
                json,
            } => {
                let request = proto::PairFinalsRequest {
                    input: Some(proto::pair_finals_request::Input::Trf(read_text(&input)?)),
                    system: system.proto_number()?,
                    explanation_detail: proto::ExplanationDetail::Full as i32,
                    ..proto::PairFinalsRequest::default()
                };
                let r = client.pair_finals(request).await?.into_inner();
                if json {
                    println!("{}", finals_json(&r));
                } else {
                    print!("{}", finals_text(&r));
                }
            }
            ClientCall::Pair {
                system,
                input,
                json,
                provisional: false,
            } => {
                let request = proto::PairRequest {
                    input: Some(proto::pair_request::Input::Trf(read_text(&input)?)),
                    system: system.proto_number()?,
                    explanation_detail: proto::ExplanationDetail::Full as i32,
                    ..proto::PairRequest::default()
                };
                let r = client.pair(request).await?.into_inner();
                if json {
                    println!("{}", response_json(&r));
                } else {
                    if r.team_pairings.is_empty() {
                        print!("{}", pair_list(&r.boards, &r.byes));
                    } else {
                        print!("{}", super::output::team_pair_list(&r));
                    }
                }
            }
        }
        Ok(ExitCode::SUCCESS)
    })
}
