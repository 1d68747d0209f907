//! The first solve from vertex classes: when the caller knows that its vertices fall into
//! a few classes such that every edge between two classes weighs the same (an edge may be
//! missing, e.g. two players who already met), the optimum of the *class* problem, a
//! fractional matching with one variable per pair of classes, gives every vertex its dual
//! and says how many pairs of each pair of classes the optimum holds. The vertices are
//! then paired class by class along the edges that these duals make tight, and only what
//! that leaves (odd class counts, missing edges) goes to the stages. A bracket of 2,000
//! players of six types then needs a handful of stages instead of a thousand, each of
//! which costs O(n²).
//!
//! Nothing here is trusted: the duals are checked feasible for the heaviest edge of every
//! pair of classes (hence for every edge), and a vertex pair is matched only if its own
//! edge is tight. Classes that are not what the caller said only cost time, never
//! exactness. Too many classes, or a class problem that does not solve cleanly, fall back
//! to the ordinary first solve.
//!
//! The class problem is the bipartite double cover: class `s` on the left with supply
//! `c_s`, on the right with capacity `c_s`, profit `w_st` on every pair of classes with an
//! edge. Its optimum `f` (a maximum-profit flow, by successive shortest paths) and optimal
//! duals `α`, `β` (from the final residual graph's potentials) give vertex duals
//! `u = α_s + β_s` on the doubled scale the matcher uses: `u_a + u_b ≥ w_st + w_ts = 2w`.
//! The transpose of `f` is optimal too, so complementary slackness holds for it with the
//! same duals: a pair of classes that `f` uses in either direction is tight both ways,
//! and a class whose dual is positive is saturated on both sides. Pairing
//! `⌊(f_st + f_ts)/2⌋` vertices of classes `s` and `t` therefore leaves free only
//! rounding remainders and vertices whose edges are missing.
use super::{DenseWeight, DynamicError, DynamicMatching, NIL, WeightSource};

/// Beyond this many classes the ordinary first solve is used.
const MAX_CLASSES: usize = 64;

/// How far down the other class's list a vertex looks for a tight partner.
const PARTNER_SCAN: usize = 64;

/// Up to this many vertices the class weights are read off the edges even when the
/// caller states them (O(n²) reads; in debug builds the statement is checked then).
pub const SCAN_UP_TO: usize = 4096;

/// The classes, and the caller's bound on the edges between each pair of classes.
#[derive(Clone, Debug)]
pub(super) struct Classes<W> {
    class: Vec<u32>,
    weights: Option<Vec<Option<W>>>,
    /// Up to this many vertices the weights are read off the edges ([`SCAN_UP_TO`]).
    scan_up_to: usize,
}

impl<W: DenseWeight> DynamicMatching<W> {
    /// Vertex classes for the first [`DynamicMatching::solve`] (see the module docs):
    /// `class[v]` for every vertex. Ignored after the first solve or if the length is
    /// not the number of vertices. The optimum is the same; only the work differs.
    pub fn set_classes(&mut self, class: Vec<u32>) {
        if self.fresh && class.len() == self.n {
            self.classes = Some(Classes {
                class,
                weights: None,
                scan_up_to: SCAN_UP_TO,
            });
        }
    }

    /// [`DynamicMatching::set_classes`] with the weight of the edges between each pair
    /// of classes stated by the caller: `weights[s * t + r]` (`t` classes) is at least
    /// every edge between a vertex of class `s` and one of class `r` (`None`: no edge),
    /// and best equal to the heaviest. Then the first solve reads no edge it does not
    /// pair, which makes it O(n) instead of O(n²) for a graph of 100,000 vertices. An
    /// understated weight would break the optimum: state only what is known (in debug
    /// builds, graphs of up to 4,096 vertices check the statement). The statement may name
    /// more classes than the vertices use (a square of side `t` at least the highest class
    /// + 1), e.g. a graph stated with its floater's class when it has none.
    pub fn set_class_weights(&mut self, class: Vec<u32>, weights: Vec<Option<W>>) {
        if self.fresh && class.len() == self.n {
            self.classes = Some(Classes {
                class,
                weights: Some(weights),
                scan_up_to: SCAN_UP_TO,
            });
        }
    }

    /// [`DynamicMatching::set_class_weights`] with weights that are exactly the heaviest
    /// edge between each pair of classes (`None`: no edge), as a caller that has just
    /// computed every edge knows them: the first solve then reads no edge to find them,
    /// whatever the graph's size (in debug builds, graphs of up to 4,096 vertices check
    /// the statement).
    pub fn set_exact_class_weights(&mut self, class: Vec<u32>, weights: Vec<Option<W>>) {
        if self.fresh && class.len() == self.n {
            self.classes = Some(Classes {
                class,
                weights: Some(weights),
                scan_up_to: 0,
            });
        }
    }

    /// The heaviest edge between each pair of classes (both orders), `None`: no edge.
    fn heaviest_by_class<S: WeightSource<W>>(
        &self,
        ws: &S,
        class: &[u32],
        t: usize,
    ) -> Result<Vec<Option<W>>, DynamicError> {
        let mut heaviest: Vec<Option<W>> = vec![None; t * t];
        let mut row = Vec::new();
        for (i, &a) in self.active.iter().enumerate() {
            crate::cancel::checkpoint();
            let ca = class[a as usize] as usize;
            ws.weights_from(a as usize, &self.active[i + 1..], &mut row);
            for (&b, &w) in self.active[i + 1..].iter().zip(&row) {
                if w <= W::ZERO {
                    continue;
                }
                if !w.fits_headroom() {
                    return Err(DynamicError::WeightTooLarge {
                        a: a as usize,
                        b: b as usize,
                    });
                }
                let cb = class[b as usize] as usize;
                for idx in [ca * t + cb, cb * t + ca] {
                    if heaviest[idx].is_none_or(|h| w > h) {
                        heaviest[idx] = Some(w);
                    }
                }
            }
        }
        Ok(heaviest)
    }

    /// The first solve's duals and greedy matching from the classes; `false` when it does
    /// not apply (then nothing was changed).
    pub(super) fn start_by_class<S: WeightSource<W>>(
        &mut self,
        ws: &S,
        classes: &Classes<W>,
    ) -> Result<bool, DynamicError> {
        let class = &classes.class[..];
        // Every class named, even one whose vertices were all removed: the stated
        // weights are indexed by them.
        let named = class.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
        // Stated weights may name classes no vertex has (a graph without its floater): a
        // square of side `named` or more is read with its own side (issue 37: taken for
        // no statement, a 35,000-vertex scoregroup's pairing read every pair first).
        let stated_side = classes.weights.as_ref().and_then(|w| {
            let side = w.len().isqrt();
            (side * side == w.len() && side >= named).then_some(side)
        });
        let t = stated_side.unwrap_or(named);
        if self.active.is_empty() || t > MAX_CLASSES {
            return Ok(false);
        }
        let mut members: Vec<Vec<u32>> = vec![Vec::new(); t];
        for &v in &self.active {
            members[class[v as usize] as usize].push(v);
        }
        let stated = classes
            .weights
            .as_ref()
            .filter(|w| w.len() == t * t && self.active.len() > classes.scan_up_to);
        let heaviest = match stated {
            Some(w) => {
                if w.iter().flatten().any(|x| !x.fits_headroom()) {
                    return Ok(false);
                }
                #[cfg(debug_assertions)]
                if self.active.len() <= SCAN_UP_TO {
                    let scanned = self.heaviest_by_class(ws, class, t)?;
                    assert_not_understated(&scanned, w, t);
                }
                w.clone()
            }
            None => {
                let scanned = self.heaviest_by_class(ws, class, t)?;
                #[cfg(debug_assertions)]
                if let Some(w) = classes.weights.as_ref().filter(|w| w.len() == t * t) {
                    assert_not_understated(&scanned, w, t);
                }
                scanned
            }
        };
        let count: Vec<i64> = members.iter().map(|m| m.len() as i64).collect();
        let Some(plan) = ClassPlan::solve(&count, &heaviest) else {
            return Ok(false);
        };
        let u: Vec<W> = (0..t).map(|s| plan.alpha[s].wadd(plan.beta[s])).collect();
        // Feasible for the heaviest edge of each pair of classes, hence for every edge.
        for s in 0..t {
            for r in 0..t {
                if let Some(p) = heaviest[s * t + r]
                    && u[s].wadd(u[r]) < p.twice()
                {
                    return Ok(false);
                }
            }
        }
        for &v in &self.active {
            self.dual[v as usize] = u[class[v as usize] as usize];
        }
        // Pairs class by class, each pair's own edge tight.
        for s in 0..t {
            for r in s..t {
                let mut want = if s == r {
                    plan.flow[s * t + s] / 2
                } else {
                    (plan.flow[s * t + r] + plan.flow[r * t + s]) / 2
                };
                if want == 0 {
                    continue;
                }
                let target = u[s].wadd(u[r]);
                let mut cursor = 0usize;
                for i in 0..members[s].len() {
                    if want == 0 {
                        break;
                    }
                    let a = members[s][i];
                    if self.mate[a as usize] != NIL {
                        continue;
                    }
                    let list = &members[r];
                    while cursor < list.len() && self.mate[list[cursor] as usize] != NIL {
                        cursor += 1;
                    }
                    let mut j = if s == r { cursor.max(i + 1) } else { cursor };
                    let mut scanned = 0;
                    while j < list.len() && scanned < PARTNER_SCAN {
                        let b = list[j];
                        j += 1;
                        if b == a || self.mate[b as usize] != NIL {
                            continue;
                        }
                        scanned += 1;
                        let d = self.doubled(ws, a, b)?;
                        if d > W::ZERO && d == target {
                            self.mate[a as usize] = b;
                            self.mate[b as usize] = a;
                            want -= 1;
                            break;
                        }
                    }
                }
            }
        }
        Ok(true)
    }
}

/// Debug builds: every stated weight between two classes bounds the heaviest edge read.
#[cfg(debug_assertions)]
fn assert_not_understated<W: DenseWeight>(scanned: &[Option<W>], stated: &[Option<W>], t: usize) {
    for (k, (&x, &bound)) in scanned.iter().zip(stated).enumerate() {
        assert!(
            x <= bound,
            "class weights understated for classes {} and {}",
            k / t,
            k % t
        );
    }
}

/// The class problem's optimum: duals of the left and right copies, and the flow.
struct ClassPlan<W> {
    alpha: Vec<W>,
    beta: Vec<W>,
    /// `flow[s * t + r]`: units from class `s` (left) to class `r` (right).
    flow: Vec<i64>,
}

/// The successive shortest paths of the class problem on its own shape: a source arc to
/// each left class (its count), an unbounded arc from left class `s` to right class `r`
/// where they have an edge (cost: minus the heaviest), an arc from each right class to the
/// sink (its count), and the reverse of each arc that carries flow. A shortest path from
/// the source to the sink alternates left and right classes, so its Bellman-Ford passes
/// are two sweeps of the `t`-by-`t` table (left to right over the edges, right to left over
/// the pairs with flow) instead of a walk over arc lists: no cycle is negative, so the arcs
/// back into the source and out of the sink shorten no path to the sink.
struct Augmenter<'a, W> {
    t: usize,
    heaviest: &'a [Option<W>],
    /// Units the source may still send to each left class.
    supply: Vec<i64>,
    /// Units each right class may still send to the sink.
    demand: Vec<i64>,
    /// `flow[s * t + r]`: units from left class `s` to right class `r`.
    flow: Vec<i64>,
    dist_left: Vec<Option<W>>,
    dist_right: Vec<Option<W>>,
    /// The right class a left class is reached from (`usize::MAX`: the source).
    via_left: Vec<usize>,
    /// The left class a right class is reached from.
    via_right: Vec<usize>,
    /// Left classes to sweep again (their distance changed).
    fresh_left: Vec<bool>,
    /// The pairs `(r, s)` with flow from left `s` to right `r`, by `r` then `s`.
    carrying: Vec<(usize, usize)>,
}

impl<'a, W: DenseWeight> Augmenter<'a, W> {
    fn new(count: &[i64], heaviest: &'a [Option<W>]) -> Augmenter<'a, W> {
        let t = count.len();
        Augmenter {
            t,
            heaviest,
            supply: count.to_vec(),
            demand: count.to_vec(),
            flow: vec![0; t * t],
            dist_left: vec![None; t],
            dist_right: vec![None; t],
            via_left: vec![usize::MAX; t],
            via_right: vec![usize::MAX; t],
            fresh_left: vec![false; t],
            carrying: Vec::new(),
        }
    }

    /// Sends flow along a shortest path from the source to the sink if it gains (negative
    /// cost); the units sent, 0 when no path gains; `None` if the distances never settle.
    fn augment(&mut self) -> Option<i64> {
        let t = self.t;
        for s in 0..t {
            self.dist_left[s] = (self.supply[s] > 0).then_some(W::ZERO);
            self.via_left[s] = usize::MAX;
            // Only a left class whose distance changed since its last sweep is swept
            // again: its edges could improve nothing else.
            self.fresh_left[s] = self.dist_left[s].is_some();
        }
        self.dist_right.fill(None);
        let mut settled = false;
        for _ in 0..=2 * t + 2 {
            for s in 0..t {
                if !std::mem::take(&mut self.fresh_left[s]) {
                    continue;
                }
                let Some(d) = self.dist_left[s] else { continue };
                let row = &self.heaviest[s * t..(s + 1) * t];
                for ((p, dist), via) in row
                    .iter()
                    .zip(self.dist_right.iter_mut())
                    .zip(self.via_right.iter_mut())
                {
                    let Some(p) = *p else { continue };
                    let candidate = d.wsub(p);
                    if dist.is_none_or(|cur| candidate < cur) {
                        *dist = Some(candidate);
                        *via = s;
                    }
                }
            }
            // The reverse arcs: the pairs with flow, in the order of the right class and
            // then of the left one (the general network's order).
            let mut changed = false;
            for &(r, s) in &self.carrying {
                let Some(d) = self.dist_right[r] else {
                    continue;
                };
                let Some(p) = self.heaviest[s * t + r] else {
                    continue;
                };
                let candidate = d.wadd(p);
                if self.dist_left[s].is_none_or(|cur| candidate < cur) {
                    self.dist_left[s] = Some(candidate);
                    self.via_left[s] = r;
                    self.fresh_left[s] = true;
                    changed = true;
                }
            }
            if !changed {
                settled = true;
                break;
            }
        }
        if !settled {
            return None;
        }
        // The sink, from the right class with room nearest to the source.
        let mut end = None;
        for r in 0..t {
            if self.demand[r] > 0
                && let Some(d) = self.dist_right[r]
                && end.is_none_or(|(_, best)| d < best)
            {
                end = Some((r, d));
            }
        }
        let Some((end, cost)) = end else {
            return Some(0);
        };
        if cost >= W::ZERO {
            return Some(0);
        }
        // The units the path can carry: the sink arc, each pair it undoes, the source arc.
        let mut push = self.demand[end];
        let mut r = end;
        let mut steps = 0;
        let start = loop {
            let s = self.via_right[r];
            let back = *self.via_left.get(s)?;
            if back == usize::MAX {
                break s;
            }
            // A path visits each class at most once.
            steps += 1;
            if steps > t {
                return None;
            }
            push = push.min(self.flow[s * t + back]);
            r = back;
        };
        push = push.min(self.supply[start]);
        if push <= 0 {
            return None;
        }
        self.demand[end] -= push;
        self.supply[start] -= push;
        let mut r = end;
        loop {
            let s = self.via_right[r];
            self.flow[s * t + r] += push;
            let back = self.via_left[s];
            if back == usize::MAX {
                break;
            }
            self.flow[s * t + back] -= push;
            r = back;
        }
        self.carrying.clear();
        for r in 0..t {
            for s in 0..t {
                if self.flow[s * t + r] > 0 {
                    self.carrying.push((r, s));
                }
            }
        }
        Some(push)
    }

    /// Shortest distances in the residual network of the final flow with an arc from the
    /// sink back to the source (free, never saturated), every node starting at zero: the
    /// source's, each left class's, each right class's and the sink's. Distances are unique
    /// whatever the order of relaxation; `None` if they never settle.
    #[allow(clippy::type_complexity)]
    fn potentials(&self, count: &[i64], total: i64) -> Option<(W, Vec<W>, Vec<W>, W)> {
        let t = self.t;
        let (mut source, mut sink) = (W::ZERO, W::ZERO);
        let mut left = vec![W::ZERO; t];
        let mut right = vec![W::ZERO; t];
        for _ in 0..=2 * t + 2 {
            let mut changed = false;
            let mut lower = |slot: &mut W, candidate: W| {
                if candidate < *slot {
                    *slot = candidate;
                    changed = true;
                }
            };
            for s in 0..t {
                if self.supply[s] > 0 {
                    lower(&mut left[s], source);
                }
                if count[s] > self.supply[s] {
                    lower(&mut source, left[s]);
                }
                let row = &self.heaviest[s * t..(s + 1) * t];
                for (slot, p) in right.iter_mut().zip(row) {
                    if let Some(p) = *p {
                        lower(slot, left[s].wsub(p));
                    }
                }
            }
            for &(r, s) in &self.carrying {
                if let Some(p) = self.heaviest[s * t + r] {
                    lower(&mut left[s], right[r].wadd(p));
                }
            }
            for r in 0..t {
                if self.demand[r] > 0 {
                    lower(&mut sink, right[r]);
                }
                if count[r] > self.demand[r] {
                    lower(&mut right[r], sink);
                }
            }
            lower(&mut source, sink);
            if total > 0 {
                lower(&mut sink, source);
            }
            if !changed {
                return Some((source, left, right, sink));
            }
        }
        None
    }
}

impl<W: DenseWeight> ClassPlan<W> {
    /// Maximum-profit flow on the double cover of the classes, and optimal duals.
    fn solve(count: &[i64], heaviest: &[Option<W>]) -> Option<ClassPlan<W>> {
        // Successive shortest paths while a path still gains, on the bipartite network
        // itself (`Augmenter`): the general network's Bellman-Ford was a sixth of a
        // 100-player Dutch round (issue 37).
        let mut aug = Augmenter::new(count, heaviest);
        // Each path sends a unit at least: at most one path per unit.
        let units = count.iter().sum::<i64>();
        let mut total = 0i64;
        for _ in 0..=units {
            match aug.augment()? {
                0 => break,
                push => total += push,
            }
        }
        // Potentials of the optimal circulation (the flow returning from the sink to the
        // source at no cost): no negative cycle, so shortest distances exist.
        let (source, left, right, sink) = aug.potentials(count, total)?;
        let clamp = |x: W| if x < W::ZERO { W::ZERO } else { x };
        let alpha = left.iter().map(|&d| clamp(d.wsub(source))).collect();
        let beta = right.iter().map(|&d| clamp(sink.wsub(d))).collect();
        let flow = aug.flow;
        Some(ClassPlan { alpha, beta, flow })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matching::brute::brute_force;
    use crate::matching::tests::SplitMix64;

    /// A graph whose weights come from vertex classes, with some edges missing.
    struct Classed {
        n: usize,
        w: Vec<i64>,
        class: Vec<u32>,
    }

    impl WeightSource<i64> for Classed {
        fn weight(&self, a: usize, b: usize) -> i64 {
            self.w[a * self.n + b]
        }
    }

    impl Classed {
        /// `k` classes, a random weight per pair of classes (absent with 1 in 5), each
        /// vertex pair's edge missing with probability `missing` %.
        fn random(rng: &mut SplitMix64, n: usize, k: usize, missing: u64) -> Classed {
            let class: Vec<u32> = (0..n).map(|_| rng.below(k as u64) as u32).collect();
            let mut cw = vec![0i64; k * k];
            for s in 0..k {
                for r in s..k {
                    let x = if rng.below(5) == 0 {
                        0
                    } else {
                        1 + rng.below(40) as i64
                    };
                    cw[s * k + r] = x;
                    cw[r * k + s] = x;
                }
            }
            let mut w = vec![0; n * n];
            for a in 0..n {
                for b in a + 1..n {
                    if rng.below(100) >= missing {
                        let x = cw[class[a] as usize * k + class[b] as usize];
                        w[a * n + b] = x;
                        w[b * n + a] = x;
                    }
                }
            }
            Classed { n, w, class }
        }

        fn optimum(&self) -> i64 {
            let mut edges = Vec::new();
            for a in 0..self.n {
                for b in a + 1..self.n {
                    if self.w[a * self.n + b] > 0 {
                        edges.push((a, b, self.w[a * self.n + b]));
                    }
                }
            }
            brute_force(self.n, &edges).1
        }
    }

    /// A valid certificate, and the brute-force optimum.
    /// A matching of `g` solved from its classes.
    fn solved_from_classes(g: &Classed) -> DynamicMatching<i64> {
        let mut m = DynamicMatching::<i64>::new(g.n);
        m.set_classes(g.class.clone());
        m.solve(g).expect("solve");
        m
    }

    fn assert_optimal(m: &DynamicMatching<i64>, g: &Classed, case: usize) {
        if let Err(e) = m.verify(g) {
            panic!("case {case}: certificate: {e}");
        }
        assert_eq!(m.total(g), g.optimum(), "case {case}");
    }

    /// The most profit of any flow with row and column sums within `count` (every
    /// integer table with entries up to the counts, tried).
    fn best_profit(count: &[i64], heaviest: &[Option<i64>]) -> i64 {
        let t = count.len();
        let cells: Vec<usize> = (0..t * t).filter(|&k| heaviest[k].is_some()).collect();
        let mut flow = vec![0i64; t * t];
        fn go(
            i: usize,
            cells: &[usize],
            t: usize,
            count: &[i64],
            heaviest: &[Option<i64>],
            flow: &mut Vec<i64>,
        ) -> i64 {
            let Some(&k) = cells.get(i) else {
                return cells
                    .iter()
                    .map(|&k| flow[k] * heaviest[k].unwrap_or(0))
                    .sum();
            };
            let (s, r) = (k / t, k % t);
            let row: i64 = (0..t).map(|x| flow[s * t + x]).sum();
            let column: i64 = (0..t).map(|x| flow[x * t + r]).sum();
            let room = (count[s] - row).min(count[r] - column);
            let mut best = i64::MIN;
            for f in 0..=room {
                flow[k] = f;
                best = best.max(go(i + 1, cells, t, count, heaviest, flow));
            }
            flow[k] = 0;
            best
        }
        go(0, &cells, t, count, heaviest, &mut flow)
    }

    #[test]
    fn class_plan_is_optimal_with_a_dual_certificate() {
        // The plan's flow reaches the most profit, its duals cover every pair of classes
        // and cost exactly that profit (strong duality): what the class start relies on.
        let mut rng = SplitMix64::new(0xc1a5_5f10);
        for case in 0..400 {
            let t = 1 + rng.below(4) as usize;
            let count: Vec<i64> = (0..t).map(|_| 1 + rng.below(3) as i64).collect();
            let mut heaviest = vec![None; t * t];
            for s in 0..t {
                for r in s..t {
                    if rng.below(5) != 0 {
                        let w = Some(rng.below(30) as i64 - 5);
                        heaviest[s * t + r] = w;
                        heaviest[r * t + s] = w;
                    }
                }
            }
            let Some(plan) = ClassPlan::solve(&count, &heaviest) else {
                panic!("case {case}: no plan");
            };
            for (s, &c) in count.iter().enumerate() {
                let row: i64 = (0..t).map(|r| plan.flow[s * t + r]).sum();
                let column: i64 = (0..t).map(|r| plan.flow[r * t + s]).sum();
                assert!(
                    row <= c && column <= c,
                    "case {case}: class {s} over its count"
                );
            }
            let profit: i64 = (0..t * t)
                .map(|k| plan.flow[k] * heaviest[k].unwrap_or(0))
                .sum();
            assert_eq!(
                profit,
                best_profit(&count, &heaviest),
                "case {case}: profit"
            );
            for s in 0..t {
                for r in 0..t {
                    if let Some(p) = heaviest[s * t + r] {
                        assert!(
                            plan.alpha[s] + plan.beta[r] >= p,
                            "case {case}: pair ({s}, {r}) uncovered"
                        );
                    }
                }
            }
            let dual: i64 = (0..t)
                .map(|s| count[s] * (plan.alpha[s] + plan.beta[s]))
                .sum();
            assert_eq!(dual, profit, "case {case}: duality gap");
        }
    }

    #[test]
    fn class_start_reaches_the_brute_force_optimum() {
        let mut rng = SplitMix64::new(0x5eed_c1a5);
        for case in 0..600 {
            let n = 2 + (case % 11);
            let k = 1 + case % 5;
            let g = Classed::random(&mut rng, n, k, [0, 10, 40][case % 3]);
            let m = solved_from_classes(&g);
            assert_optimal(&m, &g, case);
        }
    }

    #[test]
    fn stated_class_weights_reach_the_brute_force_optimum() {
        // The weights stated, exact or overstated, and trusted whatever the size.
        let mut rng = SplitMix64::new(0x57a7_ed00);
        for case in 0..400 {
            let n = 2 + (case % 11);
            let k = 1 + case % 4;
            let g = Classed::random(&mut rng, n, k, [0, 10, 40][case % 3]);
            let mut stated: Vec<Option<i64>> = vec![None; k * k];
            for a in 0..n {
                for b in a + 1..n {
                    let w = g.w[a * n + b];
                    if w > 0 {
                        let (s, r) = (g.class[a] as usize, g.class[b] as usize);
                        for idx in [s * k + r, r * k + s] {
                            stated[idx] = stated[idx].max(Some(w + i64::from(case % 5 == 0)));
                        }
                    }
                }
            }
            // A class no vertex has (the caller's graph without its floater): stated
            // with a row and column of its own, read with the statement's side.
            let stated = if case % 3 == 1 {
                let side = k + 1;
                let mut padded = vec![None; side * side];
                for s in 0..k {
                    for r in 0..k {
                        padded[s * side + r] = stated[s * k + r];
                    }
                }
                padded[side * side - 1] = Some(1);
                padded
            } else {
                stated
            };
            let mut m = DynamicMatching::<i64>::new(n);
            if case % 5 == 0 {
                // Overstated: trusted as if it were read off a graph past the scan.
                m.set_class_weights(g.class.clone(), stated);
                if let Some(c) = m.classes.as_mut() {
                    c.scan_up_to = 0;
                }
            } else {
                // Exact, as a caller that computed every edge states it.
                m.set_exact_class_weights(g.class.clone(), stated);
                assert_eq!(m.classes.as_ref().map(|c| c.scan_up_to), Some(0));
            }
            m.solve(&g).expect("solve");
            assert_optimal(&m, &g, case);
        }
    }

    #[test]
    fn wrong_classes_cost_time_not_exactness() {
        // Random weights with no class structure at all, and random classes.
        let mut rng = SplitMix64::new(0x0bad_c1a5);
        for case in 0..300 {
            let n = 2 + (case % 11);
            let mut g = Classed::random(&mut rng, n, n, 10);
            for a in 0..n {
                for b in a + 1..n {
                    if g.w[a * n + b] > 0 {
                        let x = 1 + rng.below(30) as i64;
                        g.w[a * n + b] = x;
                        g.w[b * n + a] = x;
                    }
                }
            }
            g.class = (0..n).map(|_| rng.below(3) as u32).collect();
            let m = solved_from_classes(&g);
            assert_optimal(&m, &g, case);
        }
    }

    #[test]
    fn class_start_then_changes_stay_optimal() {
        // The incremental repairs work from the class start as from any optimum.
        let mut rng = SplitMix64::new(0x0c1a_55e5);
        for case in 0..200 {
            let n = 4 + (case % 9);
            let mut g = Classed::random(&mut rng, n, 1 + case % 4, 15);
            let mut m = solved_from_classes(&g);
            let v = rng.below(n as u64) as usize;
            for u in 0..n {
                if u != v && g.w[v * n + u] > 0 {
                    let x = g.w[v * n + u] + rng.below(3) as i64;
                    g.w[v * n + u] = x;
                    g.w[u * n + v] = x;
                }
            }
            m.touch(v);
            m.solve(&g).expect("re-solve");
            assert_optimal(&m, &g, case);
        }
    }

    #[test]
    fn large_classed_graphs_need_few_stages() {
        // 400 vertices of 6 classes, 2 % of the edges missing (past opponents): the class
        // start leaves little to the stages, and the optimum equals the ordinary solve's.
        let mut rng = SplitMix64::new(0x001a_049e);
        for case in 0..4 {
            let g = Classed::random(&mut rng, 400, 6, 2);
            let mut with = DynamicMatching::<i64>::new(g.n);
            with.set_classes(g.class.clone());
            with.solve(&g).expect("solve");
            let mut without = DynamicMatching::<i64>::new(g.n);
            without.solve(&g).expect("solve");
            if let Err(e) = with.verify(&g) {
                panic!("case {case}: certificate: {e}");
            }
            assert_eq!(with.total(&g), without.total(&g), "case {case}");
            assert!(
                with.stats.stages < 40,
                "case {case}: {} stages after the class start",
                with.stats.stages
            );
        }
    }
}
