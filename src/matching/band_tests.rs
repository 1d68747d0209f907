//! The opt-in pieces of the weighted engine that the Burstein BBP profile uses: edge bands
//! (`use_bands`/`widen_band`) must leave every step unchanged, and `raise_dual` followed by
//! the touches its contract asks for must leave a valid certificate and an optimum.

use super::brute::brute_force;
use super::tests::SplitMix64;
use super::*;

/// A random graph whose edges join vertices at most `reach` ids apart (score groups and
/// their neighbours), as a dense matrix.
fn banded(rng: &mut SplitMix64, n: usize, reach: usize, top: u64) -> Vec<i64> {
    let mut w = vec![0i64; n * n];
    for a in 0..n {
        for b in a + 1..n.min(a + reach + 1) {
            if rng.below(100) < 70 {
                let x = 1 + rng.below(top) as i64;
                w[a * n + b] = x;
                w[b * n + a] = x;
            }
        }
    }
    w
}

fn mates(m: &DynamicMatching<i64>, n: usize) -> Vec<Option<usize>> {
    (0..n).map(|v| m.mate(v)).collect()
}

#[test]
fn bands_change_no_step() {
    let mut rng = SplitMix64::new(21);
    for case in 0..200 {
        let n = 4 + rng.below(40) as usize;
        let reach = 1 + rng.below(8) as usize;
        let mut w = banded(&mut rng, n, reach, [3, 50, 100_000][case % 3]);
        let mut plain = DynamicMatching::<i64>::new(n);
        let mut band = DynamicMatching::<i64>::new(n);
        band.use_bands();
        for a in 0..n {
            for b in a + 1..n {
                if w[a * n + b] > 0 {
                    band.widen_band(a, b);
                }
            }
        }
        plain.solve(&(n, &w[..])).expect("solve");
        band.solve(&(n, &w[..])).expect("solve");
        assert_eq!(mates(&plain, n), mates(&band, n), "case {case}");
        // Changes at one vertex within its reach, removals: the same repairs.
        for step in 0..15 {
            let v = rng.below(n as u64) as usize;
            if rng.below(6) == 0 {
                plain.remove(v);
                band.remove(v);
            } else {
                for u in v.saturating_sub(reach)..n.min(v + reach + 1) {
                    if u != v && rng.below(2) == 0 {
                        let x = rng.below(60) as i64;
                        w[v * n + u] = x;
                        w[u * n + v] = x;
                        if x > 0 {
                            band.widen_band(v, u);
                        }
                    }
                }
                plain.touch(v);
                band.touch(v);
            }
            plain.solve(&(n, &w[..])).expect("solve");
            band.solve(&(n, &w[..])).expect("solve");
            assert_eq!(mates(&plain, n), mates(&band, n), "case {case} step {step}");
            band.verify(&(n, &w[..])).expect("certificate");
        }
    }
}

#[test]
fn raised_duals_with_the_contract_touches_keep_an_optimum() {
    let mut rng = SplitMix64::new(5);
    for case in 0..400 {
        let n = 2 + rng.below(10) as usize;
        let mut w = banded(&mut rng, n, n, [4, 40][case % 2]);
        let mut m = DynamicMatching::<i64>::new(n);
        m.solve(&(n, &w[..])).expect("solve");
        // A set of vertices whose inner edges rise by at most `by`, some by more.
        let set: Vec<usize> = (0..n).filter(|_| rng.below(2) == 0).collect();
        let by = 1 + rng.below(5) as i64;
        for &v in &set {
            m.raise_dual(v, by);
        }
        let mut more = vec![false; n];
        for (i, &a) in set.iter().enumerate() {
            for &b in &set[i + 1..] {
                if rng.below(3) == 0 {
                    continue;
                }
                let rise = if rng.below(5) == 0 {
                    by + 3
                } else {
                    rng.below(by as u64 + 1) as i64
                };
                let x = w[a * n + b] + rise;
                w[a * n + b] = x;
                w[b * n + a] = x;
                if rise > by {
                    more[a] = true;
                }
            }
        }
        let source = (n, &w[..]);
        for &v in &set {
            let keeps = !more[v]
                && !m.in_blossom(v)
                && m.mate(v)
                    .is_some_and(|u| m.slack(&source, v, u).expect("slack") == Some(0));
            if !keeps {
                m.touch(v);
            }
        }
        m.solve(&source).expect("solve");
        m.verify(&source).expect("certificate");
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if w[a * n + b] > 0 {
                    edges.push((a, b, w[a * n + b]));
                }
            }
        }
        assert_eq!(m.total(&source), brute_force(n, &edges).1, "case {case}");
    }
}
