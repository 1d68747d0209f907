//! The certificate queries of the weighted engine (`slack`, `try_rematch`) against brute
//! force: an edge with positive slack is in no maximum-weight matching, and a rematch
//! keeps an optimal matching with a valid certificate.

use super::brute::brute_force;
use super::tests::SplitMix64;
use super::*;

/// The best total of a matching that holds edge `ab` (weight `w`).
fn forced_optimum(n: usize, edges: &[(usize, usize, i64)], a: usize, b: usize, w: i64) -> i64 {
    let rest: Vec<(usize, usize, i64)> = edges
        .iter()
        .copied()
        .filter(|&(x, y, _)| x != a && x != b && y != a && y != b)
        .collect();
    brute_force(n, &rest).1 + w
}

/// A random graph on `n` vertices: each pair an edge with probability `percent`, of
/// weight 1 to `top`; the weight matrix and the edge list.
fn random_graph(
    rng: &mut SplitMix64,
    n: usize,
    top: u64,
    percent: u64,
) -> (Vec<i64>, Vec<(usize, usize, i64)>) {
    let mut w = vec![0i64; n * n];
    let mut edges = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            if rng.below(100) < percent {
                let x = 1 + rng.below(top) as i64;
                w[a * n + b] = x;
                w[b * n + a] = x;
                edges.push((a, b, x));
            }
        }
    }
    (w, edges)
}

#[test]
fn slack_and_rematch_agree_with_brute_force() {
    let mut rng = SplitMix64::new(7);
    let (mut positive, mut rematched, mut refused) = (0, 0, 0);
    for case in 0..1500 {
        let n = 2 + rng.below(9) as usize;
        let (w, edges) = random_graph(&mut rng, n, [2u64, 3, 5, 1000][case % 4], 75);
        let source = (n, &w[..]);
        let mut m = DynamicMatching::<i64>::new(n);
        m.solve(&source).expect("solve");
        let best = brute_force(n, &edges).1;
        assert_eq!(m.total(&source), best);
        for &(a, b, x) in &edges {
            let slack = m.slack(&source, a, b).expect("slack").expect("an edge");
            assert!(slack >= 0, "infeasible certificate");
            let forced = forced_optimum(n, &edges, a, b, x);
            if slack > 0 {
                positive += 1;
                assert!(
                    forced < best,
                    "edge {a}-{b} with slack {slack} is in an optimum"
                );
            }
            let mut c = m.clone();
            if c.try_rematch(&source, a, b).expect("rematch") {
                rematched += 1;
                assert_eq!(forced, best);
                assert_eq!(c.mate(a), Some(b));
                assert_eq!(c.total(&source), best);
                c.verify(&source).expect("certificate kept");
                // The rematched state answers further changes like any other.
                c.remove(a);
                c.solve(&source).expect("solve");
                c.verify(&source).expect("certificate after a removal");
            } else {
                refused += 1;
                assert_eq!(c.mate(a), m.mate(a));
            }
        }
        // Non-edges have no slack.
        for a in 0..n {
            for b in 0..n {
                if w[a * n + b] == 0 {
                    assert_eq!(m.slack(&source, a, b).expect("slack"), None);
                }
            }
        }
    }
    assert!(positive > 100 && rematched > 100 && refused > 100);
}

/// `first_optimal_partner` names the first candidate some maximum-weight matching pairs
/// with the vertex (brute force decides each), or says none does, and leaves an optimal
/// matching with a valid certificate holding the pair it names; it may decline only
/// where a blossom holds some vertex.
#[test]
fn first_optimal_partner_agrees_with_brute_force() {
    let mut rng = SplitMix64::new(0x0f1_5e7);
    let (mut found, mut none, mut declined, mut not_first) = (0, 0, 0, 0);
    for case in 0..1500 {
        let n = 2 + rng.below(10) as usize;
        let (w, edges) = random_graph(&mut rng, n, [2u64, 3, 5, 1000][case % 4], 70);
        let source = (n, &w[..]);
        let mut m = DynamicMatching::<i64>::new(n);
        m.solve(&source).expect("solve");
        let best = brute_force(n, &edges).1;
        let a = rng.below(n as u64) as usize;
        // A random order of a random subset of the others.
        let mut candidates: Vec<usize> = (0..n).filter(|&c| c != a).collect();
        for i in (1..candidates.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            candidates.swap(i, j);
        }
        candidates.truncate(rng.below(candidates.len() as u64 + 1) as usize);
        let in_optimum = |c: usize| {
            let x = w[a * n + c];
            x > 0 && forced_optimum(n, &edges, a, c, x) == best
        };
        let want = candidates.iter().copied().find(|&c| in_optimum(c));
        let before = m.clone();
        match m
            .first_optimal_partner(&source, a, &candidates)
            .expect("query")
        {
            Some(got) => {
                assert_eq!(
                    got, want,
                    "case {case}: vertex {a}, candidates {candidates:?}"
                );
                if let Some(c) = got {
                    found += 1;
                    if candidates.first() != Some(&c) {
                        not_first += 1;
                    }
                    assert_eq!(m.mate(a), Some(c));
                } else {
                    none += 1;
                }
                assert_eq!(m.total(&source), best);
                m.verify(&source).expect("certificate kept");
                for v in 0..n {
                    if let Some(u) = m.mate(v) {
                        assert_eq!(m.mate(u), Some(v));
                        assert!(w[v * n + u] > 0);
                    }
                }
                // The state answers further changes like any other.
                m.remove(a);
                m.solve(&source).expect("solve");
                m.verify(&source).expect("certificate after a removal");
            }
            None => {
                declined += 1;
                assert!(
                    (0..n).any(|v| before.in_blossom(v)),
                    "case {case}: declined without a blossom"
                );
                assert_eq!(m.mate(a), before.mate(a));
            }
        }
    }
    assert!(
        found > 300 && none > 50 && not_first > 50 && declined > 10,
        "{found} {none} {not_first} {declined}"
    );
}

/// A 6-cycle 0-1-3-5-4-2-0 with equal weights has two perfect matchings, both optimal.
/// Moving from one to the other turns all three pairs: the mates of the new pair's ends
/// have no edge between them, so only the exchange through a third pair
/// (`rematch_through_a_third_pair`) proves the new pair optimal from the certificate.
#[test]
fn rematch_through_a_third_pair_on_a_six_cycle() {
    let n = 6;
    let mut w = vec![0i64; n * n];
    for (a, b) in [(0, 1), (1, 3), (3, 5), (5, 4), (4, 2), (2, 0)] {
        w[a * n + b] = 1;
        w[b * n + a] = 1;
    }
    let source = (n, &w[..]);
    let mut m = DynamicMatching::<i64>::new(n);
    m.solve(&source).expect("solve");
    assert_eq!(m.total(&source), 3);
    // The pair the current matching does not hold, between 0-1 and 1-3.
    let (a, b) = if m.mate(0) == Some(1) { (1, 3) } else { (0, 1) };
    let (ma, mb) = (m.mate(a).expect("perfect"), m.mate(b).expect("perfect"));
    assert_eq!(m.slack(&source, ma, mb).expect("slack"), None, "no edge");
    assert!(m.try_rematch(&source, a, b).expect("rematch"));
    assert_eq!(m.mate(a), Some(b));
    assert_eq!(m.total(&source), 3);
    m.verify(&source).expect("certificate kept");
}

/// 3,500 vertices joined to each other and to 1,500 more at the end of the order, which
/// have no edge among themselves (as players C3 keeps apart): one stated class. The
/// greedy pass pairs the first 3,500 among themselves and leaves the last 1,500 free with
/// nobody free to take them; the first solve then pairs them two at a time through a
/// matched pair (`pair_through_a_matched_pair`, from 4,096 vertices). The result must be
/// a perfect matching, each of the last 1,500 with one of the first, and an optimal
/// certificate.
#[test]
fn a_surplus_that_cannot_pair_among_itself_pairs_through_matched_pairs() {
    struct Surplus {
        joined: usize,
    }
    impl WeightSource<i64> for Surplus {
        fn weight(&self, a: usize, b: usize) -> i64 {
            i64::from(a < self.joined || b < self.joined)
        }
    }
    let (joined, n) = (3500, 5000);
    let source = Surplus { joined };
    let mut m = DynamicMatching::<i64>::new(n);
    m.set_class_weights(vec![0; n], vec![Some(1)]);
    m.solve(&source).expect("solve");
    for v in 0..n {
        let u = m.mate(v).expect("perfect");
        assert!(v < joined || u < joined, "{v}-{u} is no edge");
    }
    assert_eq!(m.total(&source), n as i64 / 2);
    m.verify(&source).expect("optimal certificate");
}
