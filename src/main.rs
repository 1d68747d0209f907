//! The `swisspair` command: the gRPC server and the same engine from the command line.
//!
//! Exit codes follow the FIDE-endorsed engines' CLIs: 0 success, 1 no valid pairing (or,
//! for `check`, a round that differs), 2 unexpected error, 3 invalid input, 5 file error.
use std::io::Write as _;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use swisspair::check::manual::{self, Proposal};
use swisspair::check::{CheckOptions, check};
use swisspair::model::{SystemId, Tournament};
use swisspair::proto;
use swisspair::service::{self, ServerConfig, convert};
use swisspair::simulate::{SimConfig, SimError, simulate};
use swisspair::systems::{
    self, Detail, PairError, PairOptions, PairingSystem as _, RoundPairing, backgammon,
};
use swisspair::trf;

#[path = "cli/standings.rs"]
mod cli_standings;

#[derive(Parser)]
#[command(
    name = "swisspair",
    version,
    about = "Swiss and round-robin pairing: gRPC server and CLI"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the gRPC server.
    Serve(ServeArgs),
    /// Pair the next round of a TRF file.
    Pair(PairArgs),
    /// Re-pair every round of a TRF file from the rounds before it and report differences.
    Check(CheckArgs),
    /// Check a manual pairing (a pair list: `N`, then `a b` lines, `a 0` for the bye) against
    /// the system's absolute rules, allocate its colours (MP-1), optionally complete it.
    Validate(ValidateArgs),
    /// Simulate a random tournament paired by a system, written as TRF.
    Simulate(SimulateArgs),
    /// Backgammon's final phase (BG-9): the final (or champion) and the repechage round.
    Finals(FinalsArgs),
    /// Standings with FIDE tie-breaks (C.07), rating change and performance.
    Standings(cli_standings::StandingsArgs),
    /// List the implemented pairing systems.
    Systems,
    /// Call a running server.
    Client(ClientArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum LogFormat {
    Human,
    Json,
}

#[derive(Args)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:50051")]
    listen: SocketAddr,
    #[arg(long, value_enum, default_value = "human")]
    log_format: LogFormat,
    /// Largest request or response message, in bytes.
    #[arg(long, default_value_t = 64 * 1024 * 1024)]
    max_message_bytes: usize,
    /// Most players a snapshot may have.
    #[arg(long, default_value_t = 100_000)]
    max_players: usize,
    /// Pairings computed at once (default: the number of cores).
    #[arg(long)]
    workers: Option<usize>,
}

/// Which system: `--system NAME`, or the `--dutch` / `--burstein` aliases.
#[derive(Args)]
struct SystemArg {
    /// Pairing system (round-robin, dutch, burstein, ...); default: the file's record 192.
    #[arg(long)]
    system: Option<String>,
    /// Same as --system dutch.
    #[arg(long, conflicts_with_all = ["system", "burstein"])]
    dutch: bool,
    /// Same as --system burstein.
    #[arg(long, conflicts_with_all = ["system", "dutch"])]
    burstein: bool,
}

/// System options, `--option NAME=VALUE` (repeatable): cycles, swap_last_two_rounds,
/// order, profile, float_history, match_length, late_entry_score.
#[derive(Args)]
struct OptionArgs {
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
}

impl OptionArgs {
    fn apply(&self, t: &mut Tournament) -> Result<(), CliError> {
        for o in &self.options {
            let (name, value) = o
                .split_once('=')
                .ok_or_else(|| CliError::Invalid(format!("--option {o:?}: expected NAME=VALUE")))?;
            t.options.set(name, value).map_err(CliError::Invalid)?;
        }
        Ok(())
    }
}

impl SystemArg {
    /// The system as the proto enum's number (0 when none was named).
    fn proto_number(&self) -> Result<i32, CliError> {
        Ok(self
            .resolve()?
            .map_or(0, |s| convert::system_to_proto(s) as i32))
    }

    fn resolve(&self) -> Result<Option<SystemId>, CliError> {
        if self.dutch {
            return Ok(Some(SystemId::Dutch));
        }
        if self.burstein {
            return Ok(Some(SystemId::Burstein));
        }
        match &self.system {
            None => Ok(None),
            Some(name) => name.parse::<SystemId>().map(Some).map_err(|e| {
                CliError::Invalid(format!("{e}; supported: {}", systems::implemented_names()))
            }),
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum DetailArg {
    None,
    Summary,
    Full,
}

#[derive(Args)]
struct PairArgs {
    #[command(flatten)]
    system: SystemArg,
    #[command(flatten)]
    options: OptionArgs,
    /// The tournament (TRF-16/TRF-26).
    input: PathBuf,
    /// Write the pairing as `N` then `white black` lines (the PAB as `id 0`) to a file, or to
    /// standard output without a file name.
    #[arg(short = 'p', num_args = 0..=1, default_missing_value = "-", value_name = "OUT")]
    pairs: Option<PathBuf>,
    /// Print the full response with its explanation as JSON.
    #[arg(long)]
    json: bool,
    /// Round to pair (default: the first round not paired).
    #[arg(long)]
    round: Option<u32>,
    /// Seed of every lot.
    #[arg(long)]
    seed: Option<u64>,
    #[arg(long, value_enum, default_value = "full")]
    detail: DetailArg,
    /// Backgammon (BG-8): draw round 2 before round 1 has results; prints placeholders
    /// ("winner of board 3") instead of players.
    #[arg(long)]
    provisional: bool,
}

#[derive(Args)]
struct FinalsArgs {
    #[command(flatten)]
    system: SystemArg,
    #[command(flatten)]
    options: OptionArgs,
    /// The tournament after its regular rounds (TRF-16/TRF-26).
    input: PathBuf,
    /// Print the full response with its explanation as JSON.
    #[arg(long)]
    json: bool,
    /// Seed of every lot.
    #[arg(long)]
    seed: Option<u64>,
    #[arg(long, value_enum, default_value = "full")]
    detail: DetailArg,
}

#[derive(Args)]
struct CheckArgs {
    #[command(flatten)]
    system: SystemArg,
    #[command(flatten)]
    options: OptionArgs,
    /// The tournament (TRF-16/TRF-26).
    input: PathBuf,
    #[arg(long)]
    seed: Option<u64>,
}

#[derive(Args)]
struct ValidateArgs {
    #[command(flatten)]
    system: SystemArg,
    #[command(flatten)]
    options: OptionArgs,
    /// The tournament (TRF-16/TRF-26).
    input: PathBuf,
    /// The proposed pairing, by starting rank.
    pairs: PathBuf,
    /// Pair the players the proposal leaves out with the system.
    #[arg(long)]
    complete: bool,
    #[arg(long)]
    seed: Option<u64>,
}

#[derive(Args)]
struct SimulateArgs {
    #[command(flatten)]
    system: SystemArg,
    #[command(flatten)]
    options: OptionArgs,
    #[arg(long)]
    players: u32,
    #[arg(long)]
    rounds: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Share of played games drawn.
    #[arg(long, default_value_t = 0.3)]
    draw_rate: f64,
    /// Share of games forfeited.
    #[arg(long, default_value_t = 0.0)]
    forfeit_rate: f64,
    /// Chance a player asks for a half-point bye in a round.
    #[arg(long, default_value_t = 0.0)]
    bye_rate: f64,
    /// Output file (default: standard output).
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
}

#[derive(Args)]
struct ClientArgs {
    /// Server address.
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
        input: PathBuf,
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
        input: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// List the server's systems.
    Systems,
}

enum CliError {
    NoPairing(String),
    Invalid(String),
    File(String),
    Unexpected(String),
}

impl CliError {
    fn code(&self) -> u8 {
        match self {
            CliError::NoPairing(_) => 1,
            CliError::Unexpected(_) => 2,
            CliError::Invalid(_) => 3,
            CliError::File(_) => 5,
        }
    }

    fn message(&self) -> &str {
        match self {
            CliError::NoPairing(m)
            | CliError::Invalid(m)
            | CliError::File(m)
            | CliError::Unexpected(m) => m,
        }
    }
}

impl From<PairError> for CliError {
    fn from(e: PairError) -> CliError {
        match e {
            PairError::NoLegalPairing { .. } => CliError::NoPairing(e.to_string()),
            other => CliError::Invalid(other.to_string()),
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => serve(args),
        Command::Pair(args) => pair(&args),
        Command::Check(args) => run_check(&args),
        Command::Simulate(args) => run_simulate(&args),
        Command::Validate(args) => run_validate(&args),
        Command::Finals(args) => finals(&args),
        Command::Standings(args) => cli_standings::run(&args),
        Command::Systems => {
            print_systems(&service::list_systems());
            Ok(ExitCode::SUCCESS)
        }
        Command::Client(args) => client(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("swisspair: {}", e.message());
            ExitCode::from(e.code())
        }
    }
}

fn read_text(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|e| CliError::File(format!("{}: {e}", path.display())))
}

fn read_trf(path: &Path) -> Result<trf::TrfDocument, CliError> {
    let text = read_text(path)?;
    trf::read(&text).map_err(|e| CliError::Invalid(format!("{}:{e}", path.display())))
}

fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Unexpected(format!("cannot start the runtime: {e}")))
}

fn serve(args: ServeArgs) -> Result<ExitCode, CliError> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match args.log_format {
        LogFormat::Human => builder.init(),
        LogFormat::Json => builder.json().init(),
    }
    let mut config = ServerConfig {
        listen: args.listen,
        max_message_bytes: args.max_message_bytes,
        ..ServerConfig::default()
    };
    config.limits.max_players = args.max_players;
    if let Some(w) = args.workers {
        config.max_concurrent_pairings = w.max(1);
    }
    runtime()?.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.listen)
            .await
            .map_err(|e| {
                CliError::Unexpected(format!("cannot listen on {}: {e}", config.listen))
            })?;
        service::serve_on(listener, config, service::shutdown_signal())
            .await
            .map_err(|e| CliError::Unexpected(format!("server error: {e}")))?;
        Ok(ExitCode::SUCCESS)
    })
}

/// The engines' pair-list format: the number of pairs, then `white black` by pairing
/// number, the PAB as `id 0`. Without colours (backgammon) the pairs are first-drawn
/// first, and a game against [absent] is written like a PAB.
fn pair_list(t: &Tournament, p: &RoundPairing) -> String {
    let pab: Vec<_> = p
        .byes
        .iter()
        .filter(|b| b.kind.is_pairing_allocated())
        .collect();
    let mut out = format!("{}\n", p.boards.len() + pab.len());
    for b in &p.boards {
        out.push_str(&format!(
            "{} {}\n",
            t.pairing_number(b.white),
            t.pairing_number(b.black)
        ));
    }
    for b in pab {
        out.push_str(&format!("{} 0\n", t.pairing_number(b.player)));
    }
    out
}

fn write_output(path: &Path, text: &str) -> Result<(), CliError> {
    if path == Path::new("-") {
        let mut out = std::io::stdout();
        out.write_all(text.as_bytes())
            .map_err(|e| CliError::File(format!("standard output: {e}")))
    } else {
        std::fs::write(path, text).map_err(|e| CliError::File(format!("{}: {e}", path.display())))
    }
}

fn detail(d: DetailArg) -> Detail {
    match d {
        DetailArg::None => Detail::None,
        DetailArg::Summary => Detail::Summary,
        DetailArg::Full => Detail::Full,
    }
}

fn pair(args: &PairArgs) -> Result<ExitCode, CliError> {
    let system = args.system.resolve()?;
    let doc = read_trf(&args.input)?;
    let mut t = doc.tournament;
    args.options.apply(&mut t)?;
    t.assign_pairing_numbers(args.seed.unwrap_or(t.lot_seed));
    let options = PairOptions {
        round: args.round,
        seed: args.seed,
        detail: detail(args.detail),
        system,
        ..PairOptions::default()
    };
    if args.provisional {
        let p = backgammon::pair_provisional(&t, &options)?;
        let response =
            convert::provisional_response(&t, &p, backgammon::Backgammon.info().rule_set);
        let text = if args.json {
            format!("{}\n", provisional_json(&response))
        } else {
            provisional_list(&response)
        };
        write_output(args.pairs.as_deref().unwrap_or(Path::new("-")), &text)?;
        return Ok(ExitCode::SUCCESS);
    }
    let pairing = systems::pair(&t, &options)?;
    let list = pair_list(&t, &pairing);
    if args.json {
        let id = system.or(t.system);
        let rule_set = id
            .and_then(systems::find)
            .map(|s| s.info().rule_set)
            .unwrap_or_default();
        let response = convert::pair_response(&t, id, &pairing, rule_set);
        println!("{}", response_json(&response));
    }
    match &args.pairs {
        Some(path) => write_output(path, &list)?,
        None if !args.json => write_output(Path::new("-"), &list)?,
        None => {}
    }
    Ok(ExitCode::SUCCESS)
}

/// The early draw as text: the number of lines, then one line per board and per game
/// against [absent], placeholders with the players they may be.
fn provisional_list(r: &proto::PairProvisionalResponse) -> String {
    let show = |p: &Option<proto::Placeholder>| {
        p.as_ref().map_or_else(String::new, |p| {
            if p.kind == proto::PlaceholderKind::Player as i32 {
                p.label.clone()
            } else {
                format!("{} ({})", p.label, p.candidate_ids.join(" or "))
            }
        })
    };
    let mut out = format!("{}\n", r.boards.len() + r.absent_opponent.len());
    for b in &r.boards {
        out.push_str(&format!("{} - {}\n", show(&b.first), show(&b.second)));
    }
    for a in &r.absent_opponent {
        out.push_str(&format!("{} - [absent]\n", show(&Some(a.clone()))));
    }
    out
}

fn finals(args: &FinalsArgs) -> Result<ExitCode, CliError> {
    let system = args.system.resolve()?;
    let doc = read_trf(&args.input)?;
    let mut t = doc.tournament;
    args.options.apply(&mut t)?;
    t.assign_pairing_numbers(args.seed.unwrap_or(t.lot_seed));
    let options = PairOptions {
        seed: args.seed,
        detail: detail(args.detail),
        system,
        ..PairOptions::default()
    };
    let f = backgammon::pair_finals(&t, &options)?;
    let r = convert::finals_response(&t, &f, backgammon::Backgammon.info().rule_set);
    if args.json {
        println!("{}", finals_json(&r));
    } else {
        write_output(Path::new("-"), &finals_text(&r))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// How a server's refusal reaches the exit code.
fn status_error(s: tonic::Status) -> CliError {
    match s.code() {
        tonic::Code::InvalidArgument => CliError::Invalid(s.message().to_string()),
        tonic::Code::FailedPrecondition => CliError::NoPairing(s.message().to_string()),
        _ => CliError::Unexpected(s.message().to_string()),
    }
}

/// The final phase as text: the final (or champion), then the repechage pairs and the
/// exempt player.
fn finals_text(r: &proto::PairFinalsResponse) -> String {
    let mut out = String::new();
    match (r.r#final.as_ref(), r.champion_id.as_str()) {
        (Some(b), _) => out.push_str(&format!("final: {} {}\n", b.first_id, b.second_id)),
        (None, "") => out.push_str("no final: nobody won every game\n"),
        (None, champion) => out.push_str(&format!("champion: {champion}\n")),
    }
    out.push_str(&format!("repechage: {}\n", r.repechage.len()));
    for b in &r.repechage {
        out.push_str(&format!("{} {}\n", b.first_id, b.second_id));
    }
    if !r.repechage_exempt_id.is_empty() {
        out.push_str(&format!("exempt: {}\n", r.repechage_exempt_id));
    }
    for w in &r.warnings {
        out.push_str(&format!("warning: {w}\n"));
    }
    out
}

fn run_check(args: &CheckArgs) -> Result<ExitCode, CliError> {
    let system = args.system.resolve()?;
    let doc = read_trf(&args.input)?;
    let mut t = doc.tournament;
    args.options.apply(&mut t)?;
    t.assign_pairing_numbers(args.seed.unwrap_or(t.lot_seed));
    let options = CheckOptions {
        system,
        seed: args.seed,
        ..CheckOptions::default()
    };
    let report = check(&t, &options)?;
    for r in &report.rounds {
        if let Some(e) = &r.error {
            println!("round {}: cannot pair: {e}", r.round);
        } else if r.differences.is_empty() {
            println!("round {}: ok", r.round);
        } else {
            println!("round {}: differs", r.round);
            for d in &r.differences {
                println!("  {d}");
            }
        }
    }
    println!("{} passed, {} failed", report.passed(), report.failed());
    Ok(if report.failed() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Reads a pair list (`N`, then `a b`, the bye as `a 0`) by pairing number.
fn read_pair_list(path: &Path, t: &Tournament) -> Result<Proposal, CliError> {
    let text = read_text(path)?;
    let by_number: std::collections::HashMap<u32, usize> = (0..t.players.len())
        .map(|p| (t.pairing_number(p), p))
        .collect();
    let mut proposal = Proposal::default();
    for (i, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.is_empty() || (i == 0 && fields.len() == 1) {
            continue;
        }
        let bad = || {
            CliError::Invalid(format!(
                "{}:{}: expected two pairing numbers, found {line:?}",
                path.display(),
                i + 1
            ))
        };
        let [a, b] = fields.as_slice() else {
            return Err(bad());
        };
        let a: u32 = a.parse().map_err(|_| bad())?;
        let b: u32 = b.parse().map_err(|_| bad())?;
        let find = |n: u32| {
            by_number.get(&n).copied().ok_or_else(|| {
                CliError::Invalid(format!(
                    "{}:{}: no player has pairing number {n}",
                    path.display(),
                    i + 1
                ))
            })
        };
        if b == 0 {
            proposal.byes.push(find(a)?);
        } else {
            proposal.boards.push((find(a)?, find(b)?));
        }
    }
    Ok(proposal)
}

fn run_validate(args: &ValidateArgs) -> Result<ExitCode, CliError> {
    let system = args.system.resolve()?;
    let doc = read_trf(&args.input)?;
    let mut t = doc.tournament;
    args.options.apply(&mut t)?;
    t.assign_pairing_numbers(args.seed.unwrap_or(t.lot_seed));
    let system = system.or(t.system).ok_or_else(|| {
        CliError::Invalid(format!(
            "name a system with --system; supported: {}",
            systems::implemented_names()
        ))
    })?;
    let mut proposal = read_pair_list(&args.pairs, &t)?;
    proposal.complete = args.complete;
    let options = PairOptions {
        seed: args.seed,
        system: Some(system),
        ..PairOptions::default()
    };
    let report = manual::validate(&t, system, &proposal, &options)?;
    for v in &report.violations {
        println!("violation {}: {}", v.rule_id, v.message);
    }
    let pairing = RoundPairing {
        round: report.round,
        boards: report.boards.clone(),
        byes: report.byes.clone(),
        ..RoundPairing::default()
    };
    print!("{}", pair_list(&t, &pairing));
    for &p in &report.unpaired {
        println!("unpaired {}", t.pairing_number(p));
    }
    Ok(if report.violations.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn run_simulate(args: &SimulateArgs) -> Result<ExitCode, CliError> {
    let system = args.system.resolve()?.ok_or_else(|| {
        CliError::Invalid(format!(
            "name a system with --system; supported: {}",
            systems::implemented_names()
        ))
    })?;
    let mut config = SimConfig::new(system, args.players, args.rounds, args.seed);
    config.draw_rate = args.draw_rate;
    config.forfeit_rate = args.forfeit_rate;
    config.bye_request_rate = args.bye_rate;
    let mut scratch = Tournament::default();
    args.options.apply(&mut scratch)?;
    config.options = scratch.options;
    let t = simulate(&config).map_err(|e| match e {
        SimError::Invalid(m) => CliError::Invalid(m),
        SimError::Pairing { round, error } => match CliError::from(error) {
            CliError::NoPairing(m) => CliError::NoPairing(format!("round {round}: {m}")),
            other => CliError::Invalid(format!("round {round}: {}", other.message())),
        },
    })?;
    let doc = trf::TrfDocument {
        tournament: t,
        ..trf::TrfDocument::default()
    };
    let text =
        trf::write(&doc, trf::Dialect::JaVaFo).map_err(|e| CliError::Invalid(e.to_string()))?;
    write_output(args.output.as_deref().unwrap_or(Path::new("-")), &text)?;
    Ok(ExitCode::SUCCESS)
}

fn print_systems(list: &proto::ListSystemsResponse) {
    for s in &list.systems {
        println!("{:<20} {} [{}]", s.name, s.title, s.rule_set);
        for o in &s.options {
            println!(
                "    {} ({}, default {}): {}",
                o.name, o.r#type, o.default_value, o.description
            );
        }
    }
}

fn client(args: ClientArgs) -> Result<ExitCode, CliError> {
    runtime()?.block_on(async move {
        let mut client =
            proto::pairing_service_client::PairingServiceClient::connect(args.addr.clone())
                .await
                .map_err(|e| {
                    CliError::Unexpected(format!("cannot connect to {}: {e}", args.addr))
                })?;
        match args.call {
            ClientCall::Systems => {
                let list = client
                    .list_systems(proto::ListSystemsRequest {})
                    .await
                    .map_err(|s| CliError::Unexpected(s.message().to_string()))?;
                print_systems(list.get_ref());
            }
            ClientCall::Pair {
                system,
                input,
                json,
                provisional: true,
            } => {
                let text = read_text(&input)?;
                let request = proto::PairProvisionalRequest {
                    input: Some(proto::pair_provisional_request::Input::Trf(text)),
                    system: system.proto_number()?,
                    explanation_detail: proto::ExplanationDetail::Full as i32,
                    ..proto::PairProvisionalRequest::default()
                };
                let r = client
                    .pair_provisional(request)
                    .await
                    .map_err(status_error)?
                    .into_inner();
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
                let text = read_text(&input)?;
                let request = proto::PairFinalsRequest {
                    input: Some(proto::pair_finals_request::Input::Trf(text)),
                    system: system.proto_number()?,
                    explanation_detail: proto::ExplanationDetail::Full as i32,
                    ..proto::PairFinalsRequest::default()
                };
                let r = client
                    .pair_finals(request)
                    .await
                    .map_err(status_error)?
                    .into_inner();
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
                let text = read_text(&input)?;
                let request = proto::PairRequest {
                    input: Some(proto::pair_request::Input::Trf(text)),
                    system: system.proto_number()?,
                    explanation_detail: proto::ExplanationDetail::Full as i32,
                    ..proto::PairRequest::default()
                };
                let response = client.pair(request).await.map_err(status_error)?;
                let r = response.get_ref();
                if json {
                    println!("{}", response_json(r));
                } else {
                    let pab: Vec<_> = r
                        .byes
                        .iter()
                        .filter(|b| {
                            b.kind == proto::ByeKind::Pab as i32
                                || b.kind == proto::ByeKind::AbsentOpponent as i32
                        })
                        .collect();
                    println!("{}", r.boards.len() + pab.len());
                    for b in &r.boards {
                        println!("{} {}", b.first_pairing_number, b.second_pairing_number);
                    }
                    for b in pab {
                        println!("{} 0", b.pairing_number);
                    }
                }
            }
        }
        Ok(ExitCode::SUCCESS)
    })
}

fn board_json(b: &proto::Board) -> serde_json::Value {
    let mut v = serde_json::json!({
        "number": b.number,
        "first_id": b.first_id,
        "second_id": b.second_id,
        "first_pairing_number": b.first_pairing_number,
        "second_pairing_number": b.second_pairing_number,
    });
    if !b.white_id.is_empty()
        && let Some(map) = v.as_object_mut()
    {
        map.insert("white_id".into(), b.white_id.clone().into());
        map.insert("black_id".into(), b.black_id.clone().into());
        map.insert("white_pairing_number".into(), b.white_pairing_number.into());
        map.insert("black_pairing_number".into(), b.black_pairing_number.into());
    }
    v
}

fn explanation_json(e: Option<&proto::Explanation>) -> serde_json::Value {
    serde_json::json!(e.map(|e| {
        e.groups
            .iter()
            .map(|g| {
                serde_json::json!({
                    "label": g.label,
                    "steps": g.steps.iter().map(|s| serde_json::json!({
                        "rule_id": s.rule_id,
                        "message": s.message,
                        "player_ids": s.player_ids,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect::<Vec<_>>()
    }))
}

fn placeholder_json(p: &proto::Placeholder) -> serde_json::Value {
    serde_json::json!({
        "kind": proto::PlaceholderKind::try_from(p.kind).map_or("UNKNOWN", |k| k.as_str_name()),
        "round1_board": p.round1_board,
        "candidate_ids": p.candidate_ids,
        "label": p.label,
    })
}

fn provisional_json(r: &proto::PairProvisionalResponse) -> String {
    let value = serde_json::json!({
        "round": r.round,
        "system": "BACKGAMMON",
        "rule_set": r.rule_set,
        "engine_version": r.engine_version,
        "total_rounds": r.total_rounds,
        "match_length": r.match_length,
        "seed": r.seed,
        "boards": r.boards.iter().map(|b| serde_json::json!({
            "number": b.number,
            "first": b.first.as_ref().map(placeholder_json),
            "second": b.second.as_ref().map(placeholder_json),
        })).collect::<Vec<_>>(),
        "absent_opponent": r.absent_opponent.iter().map(placeholder_json).collect::<Vec<_>>(),
        "explanation": explanation_json(r.explanation.as_ref()),
        "warnings": r.warnings,
    });
    serde_json::to_string_pretty(&value).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

fn finals_json(r: &proto::PairFinalsResponse) -> String {
    let value = serde_json::json!({
        "outcome": proto::FinalOutcome::try_from(r.outcome).map_or("UNKNOWN", |k| k.as_str_name()),
        "final": r.r#final.as_ref().map(board_json),
        "champion_id": r.champion_id,
        "repechage_player_ids": r.repechage_player_ids,
        "repechage": r.repechage.iter().map(board_json).collect::<Vec<_>>(),
        "repechage_exempt_id": r.repechage_exempt_id,
        "regular_rounds": r.regular_rounds,
        "match_length": r.match_length,
        "rule_set": r.rule_set,
        "engine_version": r.engine_version,
        "explanation": explanation_json(r.explanation.as_ref()),
        "warnings": r.warnings,
    });
    serde_json::to_string_pretty(&value).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// A pair response as JSON, with enum values by name.
fn response_json(r: &proto::PairResponse) -> String {
    let enum_name = |v: i32| proto::ByeKind::try_from(v).map_or("UNKNOWN", |k| k.as_str_name());
    let value = serde_json::json!({
        "round": r.round,
        "system": proto::PairingSystem::try_from(r.system).map_or("UNKNOWN", |s| s.as_str_name()),
        "rule_set": r.rule_set,
        "engine_version": r.engine_version,
        "total_rounds": r.total_rounds,
        "match_length": r.match_length,
        "boards": r.boards.iter().map(board_json).collect::<Vec<_>>(),
        "byes": r.byes.iter().map(|b| serde_json::json!({
            "player_id": b.player_id,
            "kind": enum_name(b.kind),
            "points": b.points,
            "pairing_number": b.pairing_number,
        })).collect::<Vec<_>>(),
        "explanation": explanation_json(r.explanation.as_ref()),
        "warnings": r.warnings,
    });
    serde_json::to_string_pretty(&value).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}
