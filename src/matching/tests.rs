//! Randomised and structured tests of the weighted engine's one-shot entry point against
//! the brute-force reference and its own dual certificate, and of the cardinality engine
//! against both.

use super::brute::brute_force;
use super::weighted::DynamicStats;
use super::*;

/// Tiny deterministic PRNG (SplitMix64) so the tests need no dependencies.
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    pub(crate) fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..k` (k > 0); the modulo bias is irrelevant here.
    pub(crate) fn below(&mut self, k: u64) -> u64 {
        self.next() % k
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
}

/// Random multigraph without self loops; `p_percent` is the edge density,
/// and some pairs get a parallel copy.
fn random_graph<W>(
    rng: &mut SplitMix64,
    n: usize,
    p_percent: u64,
    mut weight: impl FnMut(&mut SplitMix64) -> W,
) -> Vec<(usize, usize, W)> {
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if rng.below(100) < p_percent {
                let (a, b) = if rng.below(2) == 0 { (i, j) } else { (j, i) };
                edges.push((a, b, weight(rng)));
                if rng.below(20) == 0 {
                    edges.push((b, a, weight(rng)));
                }
            }
        }
    }
    // Shuffle so edge order is not correlated with vertex order.
    for k in (1..edges.len()).rev() {
        let r = rng.below(k as u64 + 1) as usize;
        edges.swap(k, r);
    }
    edges
}

/// The heaviest copy of each edge as a dense matrix (what the one-shot entry point builds).
fn matrix<W: DenseWeight>(n: usize, edges: &[(usize, usize, W)]) -> Vec<W> {
    let mut m = vec![W::ZERO; n * n];
    for &(a, b, w) in edges {
        if w > m[a * n + b] {
            m[a * n + b] = w;
            m[b * n + a] = w;
        }
    }
    m
}

/// Solves through the engine, checks the dual certificate and that the result is a valid
/// matching of the input, and that the one-shot entry point returns the same mates;
/// returns `(cardinality, weight, stats)`.
fn run<W: DenseWeight>(n: usize, edges: &[(usize, usize, W)]) -> (usize, W, DynamicStats) {
    let w = matrix(n, edges);
    let source = (n, &w[..]);
    let mut m = DynamicMatching::new(n);
    m.solve(&source).expect("solve");
    m.verify(&source).expect("certificate");
    let mates: Vec<Option<usize>> = (0..n).map(|v| m.mate(v)).collect();
    let mut card = 0;
    for (v, x) in mates.iter().enumerate() {
        if let Some(u) = *x {
            assert_eq!(mates[u], Some(v));
            assert!(w[u * n + v] > W::ZERO, "matched a non-edge {u}-{v}");
            card += 1;
        }
    }
    assert_eq!(max_weight_matching(n, edges).expect("public"), mates);
    (card / 2, m.total(&source), m.stats)
}

fn add_stats(acc: &mut DynamicStats, s: &DynamicStats) {
    acc.blossoms += s.blossoms;
    acc.expansions += s.expansions;
    acc.stages += s.stages;
}

fn compare_with_brute<W: DenseWeight>(
    n: usize,
    edges: &[(usize, usize, W)],
    acc: &mut DynamicStats,
) {
    let (_, weight, stats) = run(n, edges);
    let (_, bweight) = brute_force(n, edges);
    assert_eq!(weight, bweight, "weight mismatch n={n} edges={edges:?}");
    add_stats(acc, &stats);
}

/// Total number of random graphs compared with brute force (per test fn).
const RANDOM_CASES: usize = 3000;

#[test]
fn random_small_i64_vs_brute() {
    let mut rng = SplitMix64::new(1);
    let mut acc = DynamicStats::default();
    for case in 0..RANDOM_CASES {
        let n = rng.below(11) as usize;
        let p = [15, 30, 50, 70, 100][rng.below(5) as usize];
        let kind = case % 4;
        let edges = random_graph(&mut rng, n, p, |r| match kind {
            0 => r.range(0, 4),         // many ties and zeros
            1 => r.range(-3, 8),        // negatives (never used)
            2 => r.range(0, 1_000_000), // mostly distinct
            _ => r.range(1 << 39, 1 << 40),
        });
        compare_with_brute(n, &edges, &mut acc);
    }
    // The random cases must exercise the structural code paths.
    assert!(acc.blossoms > 100, "{acc:?}");
    assert!(acc.expansions > 0, "{acc:?}");
}

/// Lexicographic weight like the pairing engine builds: fields of 80 bits.
fn lex(a: i64, b: i64, c: i64) -> Wide<4> {
    let f = |x: i64| Wide::<4>::from_i64(x);
    (((f(a) << 80) + f(b)) << 80) + f(c)
}

#[test]
fn random_small_wide_vs_brute() {
    let mut rng = SplitMix64::new(2);
    let mut acc = DynamicStats::default();
    for case in 0..RANDOM_CASES {
        let n = rng.below(11) as usize;
        let p = [20, 40, 60, 100][rng.below(4) as usize];
        let kind = case % 3;
        let edges = random_graph(&mut rng, n, p, |r| match kind {
            0 => lex(r.range(0, 2), r.range(0, 3), r.range(0, 3)),
            1 => lex(r.range(-1, 2), r.range(-5, 5), r.range(0, 1 << 40)),
            _ => Wide::from_i64(r.range(0, 6)) << (r.below(3) as u32 * 70),
        });
        compare_with_brute(n, &edges, &mut acc);
    }
    // Expansions: the i64 cases and the update tests (since the first solve's shared
    // dual adjustments, these small lexicographic graphs seldom need one).
    assert!(acc.blossoms > 0, "{acc:?}");
}

#[test]
fn random_small_i128_vs_brute() {
    let mut rng = SplitMix64::new(3);
    let mut acc = DynamicStats::default();
    for _ in 0..RANDOM_CASES / 3 {
        let n = rng.below(11) as usize;
        let edges = random_graph(&mut rng, n, 60, |r| (r.range(0, 9) as i128) << 100);
        compare_with_brute(n, &edges, &mut acc);
    }
}

/// The cardinality engine's one-shot search against brute force with unit weights.
#[test]
fn maximum_matching_vs_brute() {
    let mut rng = SplitMix64::new(4);
    for _ in 0..1000 {
        let n = rng.below(12) as usize;
        let p = rng.below(101);
        let edges = random_graph(&mut rng, n, p, |_| 1i64);
        let g = graph_of(n, &edges);
        let mates = maximum_matching(n, |a, b| g.edge(a, b));
        let card = mates.iter().filter(|m| m.is_some()).count() / 2;
        assert_eq!(card, brute_force(n, &edges).0);
        assert_eq!(maximum_matching_size(n, |a, b| g.edge(a, b)), card);
        assert_eq!(has_perfect_matching(n, |a, b| g.edge(a, b)), 2 * card == n);
        for (v, m) in mates.iter().enumerate() {
            if let Some(u) = *m {
                assert_eq!(mates[u], Some(v));
                assert!(g.edge(u, v));
            }
        }
    }
}

/// The graph of an edge list (parallel edges once).
fn graph_of<W>(n: usize, edges: &[(usize, usize, W)]) -> BitGraph {
    BitGraph::from_fn(n, |a, b| {
        edges
            .iter()
            .any(|&(u, v, _)| (u, v) == (a, b) || (u, v) == (b, a))
    })
}

/// `Matcher::complete_by_rows` on graphs written row by row, then after vertices are
/// removed a few at a time (its repair): perfect exactly when the one-shot search says the
/// alive vertices have a perfect matching, and the matching held is one of the graph.
#[test]
fn complete_by_rows_after_removals_vs_one_shot() {
    let mut rng = SplitMix64::new(11);
    for _ in 0..120 {
        let n = 1 + rng.below(90) as usize;
        let p = 50 + rng.below(51);
        let edges = random_graph(&mut rng, n, p, |_| 1i64);
        let reference = graph_of(n, &edges);
        // The same graph through `from_rows`, with junk past `n` and on the diagonal that
        // it must clear.
        let words = n.div_ceil(64);
        let g = BitGraph::from_rows(n, |v, row| {
            row.fill(0);
            for u in 0..n {
                if reference.edge(v, u) {
                    row[u / 64] |= 1 << (u % 64);
                }
            }
            row[v / 64] |= 1 << (v % 64);
            if !n.is_multiple_of(64) {
                row[words - 1] |= !0u64 << (n % 64);
            }
        });
        for a in 0..n {
            for b in 0..n {
                assert_eq!(g.edge(a, b), reference.edge(a, b), "edge {a}-{b} of {n}");
            }
        }
        let mut m = Matcher::new(g);
        let mut alive = vec![true; n];
        loop {
            let perfect = m.complete_by_rows();
            let left: Vec<usize> = (0..n).filter(|&v| alive[v]).collect();
            let expected =
                has_perfect_matching(left.len(), |i, j| reference.edge(left[i], left[j]));
            assert_eq!(perfect, expected, "{} alive of {n}", left.len());
            for &v in &left {
                if let Some(u) = m.mate(v) {
                    assert!(alive[u] && reference.edge(u, v) && m.mate(u) == Some(v));
                }
            }
            if left.is_empty() {
                break;
            }
            // Take out a matched pair (the Dutch takes a bracket's pairs) or a lone vertex.
            let v = left[rng.below(left.len() as u64) as usize];
            for x in [Some(v), m.mate(v).filter(|_| rng.below(3) > 0)]
                .into_iter()
                .flatten()
            {
                m.remove(x);
                alive[x] = false;
            }
        }
    }
}

/// A pair seeded before `complete_by_rows` stays matched in a maximum matching.
#[test]
fn a_seeded_pair_stays_in_a_maximum_matching() {
    let mut rng = SplitMix64::new(12);
    for _ in 0..300 {
        let n = 2 + rng.below(40) as usize;
        let p = rng.below(101);
        let edges = random_graph(&mut rng, n, p, |_| 1i64);
        let g = graph_of(n, &edges);
        let f = rng.below(n as u64) as usize;
        let Some(u) = (0..n).find(|&u| g.edge(f, u)) else {
            continue;
        };
        let size = maximum_matching_size(n, |a, b| g.edge(a, b));
        let mut m = Matcher::new(g);
        assert!(m.seed_pair(f, u));
        assert!(!m.seed_pair(f, u), "a paired vertex is not seeded again");
        m.complete_by_rows();
        let matched = (0..n).filter(|&v| m.mate(v).is_some()).count();
        assert_eq!(matched, 2 * size, "a maximum matching");
        assert!(m.mate(f).is_some(), "the seeded vertex stays matched");
    }
}

/// Medium graphs: too big for brute force, so rely on the dual certificate (checked inside
/// `run`), and check the two engines against each other: with every weight raised by a
/// constant larger than any sum of weight differences, a maximum-weight matching has
/// maximum cardinality.
#[test]
fn medium_random_certified() {
    let mut rng = SplitMix64::new(5);
    let mut acc = DynamicStats::default();
    for case in 0..60 {
        let n = 20 + rng.below(60) as usize;
        let p = [5, 10, 30, 80][case % 4];
        let edges = random_graph(&mut rng, n, p, |r| r.range(-20, 100) as i128);
        let (_, _, stats) = run(n, &edges);
        add_stats(&mut acc, &stats);

        let c = 121 * (n as i128 + 1);
        let shifted: Vec<_> = edges.iter().map(|&(u, v, w)| (u, v, w + c)).collect();
        let (scard, _, _) = run(n, &shifted);
        let g = graph_of(n, &edges);
        assert_eq!(maximum_matching_size(n, |a, b| g.edge(a, b)), scard);
    }
    assert!(acc.blossoms > 0 && acc.expansions > 0, "{acc:?}");
}

#[test]
fn errors_and_edge_cases() {
    assert_eq!(max_weight_matching::<i64>(0, &[]), Ok(vec![]));
    assert_eq!(max_weight_matching::<i64>(3, &[]), Ok(vec![None; 3]));
    assert_eq!(
        max_weight_matching(2, &[(0, 2, 1i64)]),
        Err(DynamicError::VertexOutOfRange { edge: 0, vertex: 2 })
    );
    assert_eq!(
        max_weight_matching(3, &[(0, 1, 1i64), (1, 1, 1)]),
        Err(DynamicError::SelfLoop { edge: 1, vertex: 1 })
    );
    // Beyond the headroom: reported, not a panic or a wrong answer.
    assert_eq!(
        max_weight_matching(2, &[(0, 1, i64::MAX)]),
        Err(DynamicError::WeightTooLarge { a: 0, b: 1 })
    );
    let big = Wide::<2>::MAX.shr_floor(7);
    assert_eq!(
        max_weight_matching(2, &[(0, 1, big)]),
        Ok(vec![Some(1), Some(0)])
    );
    // Zero and negative edges are never used.
    let e = [(0, 1, 0i64), (2, 3, -4)];
    assert_eq!(max_weight_matching(4, &e), Ok(vec![None; 4]));
    // Parallel edges: the heavier copy decides.
    let par = [(0, 1, 1i64), (1, 2, 3), (1, 0, 5)];
    assert_eq!(run(3, &par).1, 5);
    // The engine returns `Result`s in its inner loops: the one-shot variants must not
    // make the error bigger than the two words it had.
    assert!(core::mem::size_of::<DynamicError>() <= 3 * core::mem::size_of::<usize>());
    assert!(
        !DynamicError::SelfLoop { edge: 0, vertex: 0 }
            .to_string()
            .is_empty()
    );
}

#[test]
fn extreme_weights_never_panic() {
    // Near the limits of i64 the solver must either succeed (and be optimal) or report the
    // weight that is too large.
    let mut rng = SplitMix64::new(6);
    let picks = [
        i64::MAX / 2,
        1 << 57,
        (1 << 58) - 1,
        i64::MIN / 4,
        1,
        0,
        -1,
        i64::MAX / 8 + 3,
    ];
    let (mut ok, mut too_large) = (0, 0);
    for _ in 0..400 {
        let n = rng.below(8) as usize;
        let edges = random_graph(&mut rng, n, 60, |r| {
            picks[r.below(picks.len() as u64) as usize]
        });
        let wide: Vec<(usize, usize, i128)> =
            edges.iter().map(|&(u, v, w)| (u, v, w as i128)).collect();
        match max_weight_matching(n, &edges) {
            Ok(mates) => {
                ok += 1;
                let mut total = 0i128;
                for (v, m) in mates.iter().enumerate() {
                    if let Some(u) = *m
                        && v < u
                    {
                        total += wide
                            .iter()
                            .filter(|&&(a, b, _)| (a, b) == (u, v) || (a, b) == (v, u))
                            .map(|e| e.2)
                            .max()
                            .expect("matched pair has an edge");
                    }
                }
                assert_eq!(total, brute_force(n, &wide).1);
            }
            Err(DynamicError::WeightTooLarge { .. }) => too_large += 1,
            Err(e) => panic!("unexpected error {e}"),
        }
    }
    assert!(ok > 0 && too_large > 0, "ok={ok} too_large={too_large}");
}

fn mates_of<W: DenseWeight>(n: usize, edges: &[(usize, usize, W)]) -> Vec<Option<usize>> {
    max_weight_matching(n, edges).expect("valid")
}

/// Pairs `(u, v)` with `u < v` of a mate vector.
fn pairs_of(mates: &[Option<usize>]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (v, m) in mates.iter().enumerate() {
        if let Some(u) = *m
            && v < u
        {
            out.push((v, u));
        }
    }
    out
}

// Small graphs with blossoms (found by a search over random graphs for the previous static
// solver: a triangle, a blossom later entered as inner and expanded, nested blossoms, a
// zero-dual blossom dissolved by an augmentation, a reached child relabelled on expansion,
// a blossom merged into a larger one). Each has a unique optimum, so the pairs are asserted
// as well as the weight; the certificate is checked inside `run`.

#[test]
fn structured_triangle_blossom() {
    let e = [(0, 1, 8i64), (0, 2, 9), (1, 2, 10), (2, 3, 7)];
    let (card, w, _) = run(4, &e);
    assert_eq!((card, w), (2, 15));
    assert_eq!(pairs_of(&mates_of(4, &e)), vec![(0, 1), (2, 3)]);
}

#[test]
fn structured_small_graphs_with_blossoms() {
    type Case<'a> = (&'a [(usize, usize, i64)], i64);
    let cases: [Case<'_>; 6] = [
        (
            &[(0, 3, 16), (0, 1, 13), (2, 3, 19), (0, 4, 13), (2, 0, 26)],
            32,
        ),
        (
            &[
                (3, 2, 17),
                (2, 1, 14),
                (4, 0, 11),
                (3, 0, 16),
                (1, 4, 14),
                (0, 2, 15),
            ],
            31,
        ),
        (&[(2, 0, 17), (3, 2, 15), (1, 0, 28), (2, 1, 26)], 43),
        (
            &[
                (1, 3, 23),
                (3, 2, 22),
                (2, 1, 14),
                (3, 4, 20),
                (0, 1, 9),
                (1, 4, 12),
            ],
            34,
        ),
        (
            &[
                (2, 1, 23),
                (2, 3, 29),
                (4, 0, 24),
                (3, 0, 18),
                (3, 1, 18),
                (3, 4, 19),
            ],
            53,
        ),
        (
            &[
                (4, 2, 21),
                (1, 3, 23),
                (4, 3, 22),
                (0, 1, 22),
                (4, 1, 23),
                (2, 3, 16),
                (0, 3, 19),
            ],
            44,
        ),
    ];
    for (e, best) in cases {
        let (_, w, _) = run(5, e);
        assert_eq!(w, best, "{e:?}");
        assert_eq!(brute_force(5, e).1, best);
    }
    assert_eq!(pairs_of(&mates_of(5, cases[1].0)), vec![(1, 4), (2, 3)]);
    assert_eq!(pairs_of(&mates_of(4, cases[2].0)), vec![(0, 1), (2, 3)]);
    assert_eq!(pairs_of(&mates_of(5, cases[4].0)), vec![(0, 4), (2, 3)]);
}

/// Long randomised run; execute by hand with
/// `cargo test --release stress -- --ignored --nocapture`
/// (`STRESS_CASES` sets the number of small graphs, `STRESS_SEED` the seed).
#[test]
#[ignore]
fn stress_vs_brute_and_certificate() {
    let cases: usize = std::env::var("STRESS_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(50_000);
    let seed = std::env::var("STRESS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12345);
    let mut rng = SplitMix64::new(seed);
    let mut acc = DynamicStats::default();
    for case in 0..cases {
        let n = rng.below(14) as usize;
        let p = rng.below(101);
        let kind = case % 3;
        let edges = random_graph(&mut rng, n, p, |r| match kind {
            0 => r.range(-2, 3),
            1 => r.range(0, 40),
            _ => r.range(-1000, 1_000_000),
        });
        compare_with_brute(n, &edges, &mut acc);
    }
    for _ in 0..cases / 100 {
        let n = 50 + rng.below(250) as usize;
        let p = 1 + rng.below(40);
        let hi = [3, 50, 100_000][rng.below(3) as usize];
        let edges = random_graph(&mut rng, n, p, |r| r.range(-hi / 2, hi) as i128);
        let (_, _, st) = run(n, &edges);
        add_stats(&mut acc, &st);
    }
    println!("{acc:?}");
}
