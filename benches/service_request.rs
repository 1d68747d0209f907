//! The server's work for one small request, in process: `cargo bench --bench
//! service_request` decodes the protobuf bytes of each load-generator scenario
//! (`swisspair::service::sample`), converts and validates the snapshot, pairs the round,
//! builds the answer (explanation included) and encodes it, many times, and prints the
//! time per request. The network, HTTP/2 and the runtime are left out: `swisspair loadtest`
//! measures them (it prints the server's CPU per request).
//!
//! Env: `SWISSPAIR_SERVICE_ITERS` (requests per scenario, default 2,000);
//! `SWISSPAIR_SERVICE_CLUBS=10 SWISSPAIR_SERVICE_SEPARATE=weak` gives the players one of 10
//! clubs and keeps clubmates apart (SEP-5: the cost of a separation); and filters as
//! arguments (`cargo bench --bench service_request -- dutch100`). Under
//! `valgrind --tool=callgrind` a small count gives instructions per request that do not
//! depend on the machine's load.
mod harness;

use std::time::Instant;

use prost::Message as _;
use swisspair::proto;
use swisspair::service::convert;
use swisspair::service::sample::Scenario;

/// The server binary's allocator (src/main.rs), so the bench times what the server does.
#[global_allocator]
static ALLOCATOR: swisspair::allocator::Allocator = swisspair::allocator::Allocator;

fn one_request(bytes: &bytes::Bytes, limits: &convert::Limits) -> Vec<u8> {
    // As the server's `Pair` route decodes it: the games' ids left in the bytes.
    let req = match swisspair::proto::codec::decode_in_place(bytes.clone()) {
        Ok(r) => r,
        Err(e) => panic!("the sample does not decode: {e}"),
    };
    let (t, options, warnings) = match convert::pair_request_in_place(req, limits) {
        Ok(v) => v,
        Err(p) => panic!("the sample is refused: {p:?}"),
    };
    let mut answer = match swisspair::pairing::pair_owned(t, &options) {
        Ok(a) => a,
        Err(e) => panic!("the sample does not pair: {e}"),
    };
    answer.pairing.warnings.extend(warnings);
    // As the server's `Pair` route writes it: straight from the answer.
    let mut bytes = Vec::new();
    convert::pair::encode_answer(&answer, &mut bytes);
    bytes
}

/// A digest of the answer's bytes (FNV-1a), so that a change can show it answers alike.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// `SWISSPAIR_SERVICE_CLUBS` and `SWISSPAIR_SERVICE_SEPARATE`: clubs by a fixed hash of
/// the player's position, and a club separation of that mode.
fn separate(request: &mut proto::PairRequest) {
    let Some(proto::pair_request::Input::Tournament(t)) = request.input.as_mut() else {
        return;
    };
    let clubs: u64 = std::env::var("SWISSPAIR_SERVICE_CLUBS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    if clubs > 0 {
        for (i, p) in t.players.iter_mut().enumerate() {
            let h = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            p.club = format!("club{}", (h >> 33) % clubs);
        }
    }
    let mode = match std::env::var("SWISSPAIR_SERVICE_SEPARATE").as_deref() {
        Ok("weak") => proto::SeparationMode::Weak,
        Ok("weak-last") => proto::SeparationMode::WeakLast,
        Ok("absolute") => proto::SeparationMode::Absolute,
        _ => return,
    };
    t.separations.push(proto::Separation {
        key: proto::SeparationKey::Club as i32,
        mode: mode as i32,
        ..proto::Separation::default()
    });
}

fn main() {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let iters: usize = std::env::var("SWISSPAIR_SERVICE_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let limits = convert::Limits::default();
    for scenario in Scenario::ALL {
        if !filters.is_empty() && !filters.iter().any(|f| f == scenario.name()) {
            continue;
        }
        let mut request = match scenario.pair_request(1) {
            Ok(r) => r,
            Err(e) => panic!("scenario {}: {e}", scenario.name()),
        };
        separate(&mut request);
        let bytes = bytes::Bytes::from(request.encode_to_vec());
        let answer = one_request(&bytes, &limits);
        // Warm up, then time blocks of requests: the median block gives the figure.
        let block = (iters / 10).max(1);
        let mut per_request = Vec::new();
        for _ in 0..10 {
            let start = Instant::now();
            for _ in 0..block {
                std::hint::black_box(one_request(std::hint::black_box(&bytes), &limits));
            }
            per_request.push(start.elapsed().as_secs_f64() / block as f64);
        }
        per_request.sort_by(f64::total_cmp);
        let mem = harness::peak_memory_mib().map_or_else(|| "?".into(), |m| format!("{m:.0} MiB"));
        println!(
            "{:<12} request {:>6} bytes, answer {:>6} bytes (digest {:016x}): best {:>7.1} µs, median {:>7.1} µs per request ({} requests), peak memory {mem}",
            scenario.name(),
            bytes.len(),
            answer.len(),
            fnv1a(&answer),
            per_request[0] * 1e6,
            per_request[per_request.len() / 2] * 1e6,
            block * 10,
        );
    }
}
