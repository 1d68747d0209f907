//! The engine against brute force and a fresh solve: first solves, updates and removals,
//! batch resets and restarts, on random graphs.
use super::*;
use crate::matching::brute::brute_force;
use crate::matching::tests::SplitMix64;

struct Mat {
    n: usize,
    w: Vec<i64>,
}

impl WeightSource<i64> for Mat {
    fn weight(&self, a: usize, b: usize) -> i64 {
        self.w[a * self.n + b]
    }
}

impl Mat {
    fn random(rng: &mut SplitMix64, n: usize, p: u64, max: u64) -> Mat {
        let mut w = vec![0; n * n];
        for i in 0..n {
            for j in i + 1..n {
                if rng.below(100) < p {
                    let x = 1 + rng.below(max) as i64;
                    w[i * n + j] = x;
                    w[j * n + i] = x;
                }
            }
        }
        Mat { n, w }
    }

    fn set(&mut self, a: usize, b: usize, x: i64) {
        self.w[a * self.n + b] = x;
        self.w[b * self.n + a] = x;
    }

    fn optimum(&self, removed: &[bool]) -> i64 {
        let keep: Vec<usize> = (0..self.n).filter(|&v| !removed[v]).collect();
        let mut edges = Vec::new();
        for (i, &a) in keep.iter().enumerate() {
            for (j, &b) in keep.iter().enumerate().skip(i + 1) {
                let x = self.weight(a, b);
                if x > 0 {
                    edges.push((i, j, x));
                }
            }
        }
        brute_force(keep.len(), &edges).1
    }
}

fn check(m: &DynamicMatching<i64>, g: &Mat, removed: &[bool]) {
    if let Err(e) = m.verify(g) {
        panic!("certificate: {e}");
    }
    for v in 0..g.n {
        if let Some(u) = m.mate(v) {
            assert!(!removed[v] && !removed[u]);
            assert_eq!(m.mate(u), Some(v));
            assert!(g.weight(u, v) > 0);
        }
    }
    assert_eq!(m.total(g), g.optimum(removed));
}

#[test]
fn fresh_solves_match_brute_force() {
    let mut rng = SplitMix64::new(7);
    for round in 0..400 {
        let n = 1 + rng.below(12) as usize;
        let p = [30, 60, 100][round % 3];
        let max = [3, 10, 1000][(round / 3) % 3];
        let g = Mat::random(&mut rng, n, p, max);
        let mut m = DynamicMatching::<i64>::new(n);
        m.solve(&g).expect("solves");
        check(&m, &g, &vec![false; n]);
    }
}

/// Gives a random number of `v`'s edges to live vertices a new weight (a quarter of
/// them none).
fn change_edges_at(rng: &mut SplitMix64, g: &mut Mat, v: usize, max: u64, removed: &[bool]) {
    let n = removed.len();
    for _ in 0..1 + rng.below(n as u64) {
        let u = rng.below(n as u64) as usize;
        if u == v || removed[u] {
            continue;
        }
        let x = if rng.below(4) == 0 {
            0
        } else {
            1 + rng.below(max) as i64
        };
        g.set(v, u, x);
    }
}

#[test]
fn updates_and_removals_match_brute_force() {
    let mut rng = SplitMix64::new(11);
    for round in 0..(std::env::var("DYN_STRESS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300usize))
    {
        let n = 2 + rng.below(11) as usize;
        let p = [40, 70, 100][round % 3];
        let max = [4, 50, 100_000][(round / 3) % 3];
        let mut g = Mat::random(&mut rng, n, p, max);
        let mut m = DynamicMatching::<i64>::new(n);
        m.solve(&g).expect("solves");
        let mut removed = vec![false; n];
        for _ in 0..20 {
            let op = rng.below(10);
            if op == 0 {
                let v = rng.below(n as u64) as usize;
                if !removed[v] {
                    m.remove(v);
                    removed[v] = true;
                }
            } else {
                // Change several edges at one vertex, or one edge anywhere.
                let v = rng.below(n as u64) as usize;
                if removed[v] {
                    continue;
                }
                change_edges_at(&mut rng, &mut g, v, max, &removed);
                m.touch(v);
            }
            m.solve(&g).expect("solves");
            check(&m, &g, &removed);
        }
    }
}

#[test]
fn batch_resets_and_restarts_match_brute_force() {
    // Several vertices touched before each solve (a score group joining, a bracket's
    // colour weights), some left unpaired at dual zero: `solve_batch` must end at an
    // optimum every time.
    let mut rng = SplitMix64::new(29);
    let (mut batches, mut restarts) = (0, 0);
    for round in 0..300usize {
        let n = 2 + rng.below(13) as usize;
        let p = [40, 70, 100][round % 3];
        let max = [4, 50, 100_000][(round / 3) % 3];
        let mut g = Mat::random(&mut rng, n, p, max);
        let mut m = DynamicMatching::<i64>::new(n);
        m.use_batch_reset();
        m.solve(&g).expect("solves");
        let mut removed = vec![false; n];
        for _ in 0..12 {
            if rng.below(8) == 0 {
                let v = rng.below(n as u64) as usize;
                if !removed[v] {
                    m.remove(v);
                    removed[v] = true;
                }
            }
            let touched = 1 + rng.below(n as u64) as usize;
            for _ in 0..touched {
                let v = rng.below(n as u64) as usize;
                if removed[v] {
                    continue;
                }
                change_edges_at(&mut rng, &mut g, v, max, &removed);
                m.touch(v);
                batches += usize::from(touched > 1);
            }
            if rng.below(6) == 0 {
                // Starting over must reach an optimum too.
                m.restart();
                restarts += 1;
            }
            m.solve(&g).expect("solves");
            check(&m, &g, &removed);
        }
    }
    assert!(batches > 1000, "batch solves exercised: {batches}");
    assert!(restarts > 300, "restarts exercised: {restarts}");
}

#[test]
fn medium_graphs_match_a_fresh_solve() {
    let mut rng = SplitMix64::new(3);
    for round in 0..30 {
        let n = 20 + rng.below(40) as usize;
        let mut g = Mat::random(&mut rng, n, [20, 60, 100][round % 3], 1 << 20);
        let mut m = DynamicMatching::<i64>::new(n);
        m.solve(&g).expect("solves");
        for step in 0..30 {
            let expected = {
                let mut edges = Vec::new();
                for a in 0..n {
                    for b in a + 1..n {
                        if g.weight(a, b) > 0 {
                            edges.push((a, b, g.weight(a, b)));
                        }
                    }
                }
                // A fresh one-shot solve: the incremental repairs must reach the same
                // optimum as solving from scratch.
                let mates = max_weight_matching(n, &edges).expect("fresh");
                let mut t = 0;
                for (a, mb) in mates.iter().enumerate() {
                    if let Some(b) = *mb
                        && a < b
                    {
                        t += g.weight(a, b);
                    }
                }
                t
            };
            assert_eq!(m.total(&g), expected, "round {round} step {step}");
            m.verify(&g).expect("certificate");
            let v = rng.below(n as u64) as usize;
            for u in 0..n {
                if u != v && rng.below(3) == 0 {
                    let x = if rng.below(3) == 0 {
                        0
                    } else {
                        1 + rng.below(1 << 20) as i64
                    };
                    g.set(v, u, x);
                }
            }
            m.touch(v);
            m.solve(&g).expect("solves");
        }
    }
}

/// The fewest marked edges of a perfect matching: a 4-cycle whose two marked edges form
/// one perfect matching and the unmarked ones the other; none without a perfect matching.
#[test]
fn fewest_marked_edges_of_a_perfect_matching() {
    use super::fewest_marked_in_perfect_matching;
    let cycle = |a: usize, b: usize| -> Option<bool> {
        let (a, b) = (a.min(b), a.max(b));
        match (a, b) {
            (0, 1) | (2, 3) => Some(true),
            (1, 2) | (0, 3) => Some(false),
            _ => None,
        }
    };
    assert_eq!(fewest_marked_in_perfect_matching(4, cycle), Ok(Some(0)));
    let marked_only = |a: usize, b: usize| cycle(a, b).filter(|&m| m);
    assert_eq!(
        fewest_marked_in_perfect_matching(4, marked_only),
        Ok(Some(2))
    );
    let path = |a: usize, b: usize| (a.abs_diff(b) == 1 && a.min(b) != 1).then_some(false);
    assert_eq!(fewest_marked_in_perfect_matching(4, path), Ok(Some(0)));
    let star = |a: usize, b: usize| (a.min(b) == 0).then_some(false);
    assert_eq!(fewest_marked_in_perfect_matching(4, star), Ok(None));
}

/// Augmenting first (`use_augment_first`) reaches an optimum after every update and
/// removal, on graphs of few weights where many edges are tight at once.
#[test]
fn augmenting_first_keeps_the_optimum() {
    let mut rng = SplitMix64::new(41);
    for round in 0..300usize {
        let n = 2 + rng.below(11) as usize;
        let p = [50, 80, 100][round % 3];
        let max = [1, 2, 5][(round / 3) % 3];
        let mut g = Mat::random(&mut rng, n, p, max);
        let mut m = DynamicMatching::<i64>::new(n);
        m.use_augment_first();
        m.solve(&g).expect("solves");
        check(&m, &g, &vec![false; n]);
        let mut removed = vec![false; n];
        for _ in 0..15 {
            let v = rng.below(n as u64) as usize;
            if removed[v] {
                continue;
            }
            if rng.below(3) == 0 {
                m.remove(v);
                removed[v] = true;
            } else {
                change_edges_at(&mut rng, &mut g, v, max, &removed);
                m.touch(v);
            }
            m.solve(&g).expect("solves");
            check(&m, &g, &removed);
        }
    }
}

/// The completion checks' pattern at a size brute force cannot reach: unit weights on a
/// dense graph, pairs removed one after the other (each frees two vertices whose repair
/// grows one blossom around the last, `add_blossom` keeping the largest child's id). The
/// certificate proves every optimum, and the cardinality is a fresh solve's.
#[test]
fn nested_blossoms_of_unit_weights_stay_optimal() {
    let mut rng = SplitMix64::new(43);
    let mut blossoms = 0;
    for round in 0..12usize {
        let n = 60 + rng.below(140) as usize;
        let g = Mat::random(&mut rng, n, [60, 85, 97][round % 3], 1);
        for augment_first in [false, true] {
            let mut m = DynamicMatching::<i64>::new(n);
            if augment_first {
                m.use_augment_first();
            }
            m.solve(&g).expect("solves");
            let mut removed = vec![false; n];
            for _ in 0..n / 3 {
                // A pair of the held matching's neighbours, as a bracket's pair is.
                let a = rng.below(n as u64) as usize;
                let b = rng.below(n as u64) as usize;
                if a == b || removed[a] || removed[b] {
                    continue;
                }
                m.remove(a);
                m.remove(b);
                removed[a] = true;
                removed[b] = true;
                m.solve(&g).expect("solves");
                m.verify(&g).expect("certificate");
                let keep: Vec<usize> = (0..n).filter(|&v| !removed[v]).collect();
                let mut edges = Vec::new();
                for (i, &x) in keep.iter().enumerate() {
                    for (j, &y) in keep.iter().enumerate().skip(i + 1) {
                        if g.weight(x, y) > 0 {
                            edges.push((i, j, 1i64));
                        }
                    }
                }
                let fresh = max_weight_matching(keep.len(), &edges).expect("fresh");
                let fresh_pairs = fresh.iter().filter(|m| m.is_some()).count() / 2;
                assert_eq!(m.total(&g), fresh_pairs as i64, "round {round}");
            }
            blossoms += m.stats.blossoms;
        }
    }
    assert!(blossoms > 100, "blossoms made: {blossoms}");
}
