//! Manual timing check (not a test):
//! `cargo bench --bench matching_timing -- [n] [edges]`
//! Random graph: the weighted engine's one-shot entry point on Wide<4> lexicographic and
//! i64 weights, and the cardinality engine on the same edges; set `TIES=1` for heavily tied
//! weights. (The static solver's max-cardinality weighted mode is gone with it; encode
//! cardinality in the weights if it matters.)

use std::time::Instant;
use swisspair::matching::{BitGraph, Wide, max_weight_matching, maximum_matching};

struct SplitMix64(u64);
impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let n = args.first().copied().unwrap_or(2000);
    let m_target = args.get(1).copied().unwrap_or(500_000);
    let pairs = n * (n - 1) / 2;
    let ties = std::env::var_os("TIES").is_some();
    let mut rng = SplitMix64(42);
    let mut edges = Vec::with_capacity(m_target + m_target / 10);
    let mut small: Vec<(usize, usize, i64)> = Vec::with_capacity(m_target + m_target / 10);
    for i in 0..n {
        for j in i + 1..n {
            if (rng.next() % pairs as u64) < m_target as u64 {
                // Three lexicographic fields of 80 bits each.
                let (x, y, mut z) = (rng.next() % 4, rng.next() % 100, rng.next() >> 24);
                if ties {
                    z = 0; // only 400 distinct weights: many ties, like score groups
                }
                small.push((i, j, ((x << 50) + (y << 42) + (z >> 24)) as i64));
                let (a, b, c) = (Wide::<4>::from_u64(x), Wide::from_u64(y), Wide::from_u64(z));
                edges.push((i, j, (((a << 80) + b) << 80) + c));
            }
        }
    }
    println!("n = {n}, m = {}", edges.len());
    let t = Instant::now();
    let mates = max_weight_matching(n, &edges).expect("matching");
    let dt = t.elapsed();
    let card = mates.iter().filter(|m| m.is_some()).count() / 2;
    println!("max_weight_matching (Wide<4>): {dt:.2?}, {card} pairs");
    let t = Instant::now();
    let mates = max_weight_matching(n, &small).expect("matching");
    println!(
        "i64 weights (same fields, truncated to 52 bits): {:.2?}, {} pairs",
        t.elapsed(),
        mates.iter().filter(|m| m.is_some()).count() / 2
    );
    let mut graph = BitGraph::new(n);
    for &(u, v, _) in &edges {
        graph.set_edge(u, v, true);
    }
    let t = Instant::now();
    let mates = maximum_matching(n, |a, b| graph.edge(a, b));
    println!(
        "maximum_matching: {:.2?}, {} pairs",
        t.elapsed(),
        mates.iter().filter(|m| m.is_some()).count() / 2
    );
}
