//! Certificate shortcuts for the bracket procedure: the dense questions of `brackets.rs`
//! answered from the matching's dual certificate when it proves the answer
//! (docs/incremental-matching.md, "Answering questions from the certificate").
//!
//! Art. 4.2 (C.04.3): each S1 player, in order, gets the first S2 player (in the order of
//! the transpositions) with whom an optimal pairing still exists; art. 3.3/4.2 the same
//! for each MDP and the residents. The dense path asks the matching with a probe (a
//! preference over the player's candidates, then a repair of the optimum: an
//! alternating-tree search over the whole bracket). After a `solve` the matching's dual
//! certificate is optimal, and:
//!
//! * a candidate whose edge has positive slack is in no optimal pairing: skipped;
//! * the first candidate whose edge is tight is the answer as soon as one optimal pairing
//!   holds it: the current one, or the current one changed by the short exchange of
//!   `DynamicMatching::try_rematch`, which keeps every dual and complementary slackness.
//!
//! Otherwise the dense probe answers. Either way the answer is the same; only the
//! optimum kept for the next question may differ, and no answer depends on which optimum
//! is kept (the module docs of `brackets.rs`: every decision is a question about optima).
//!
//! Art. 4.3 (the exchanges) is asked by switching on weight fields over the whole
//! remainder, which the dense path follows by re-checking every remainder player: O(n)
//! stages over a bracket of n, hours for the 35,000 players of a 100,000-player open's
//! round 2. Here, when an optimum pairs S1 with S2 there is nothing to ask
//! (`certified_without_exchange`); otherwise the optimum held is first turned into one
//! with as many S1-S2 pairs as tight edges allow, then the fields are switched on with
//! duals raised so that only the pairs they break need a stage
//! (`exchange_warm_start`).
use super::{Failure, NIL, NextFree, Run};
use crate::systems::dutch::weights::Packed;

impl<W: Packed> Run<'_, W> {
    /// `v`'s mate in the current optimum when it is a remainder player still to pair
    /// (the pairs the art. 4.3 questions read).
    fn remainder_mate(&self, v: usize) -> Option<usize> {
        self.m
            .mate(v)
            .filter(|&c| self.src.ridx[c] != NIL && !self.done[c])
    }

    /// Tries to make `v`'s mate the first candidate of `order` that an optimal pairing
    /// still allows, from the certificate alone; true when done (the mate reached
    /// first among the candidates some optimum may hold is the answer as it stands).
    /// Call right after a `solve`.
    pub(super) fn certified_opponent(
        &mut self,
        v: usize,
        order: &[usize],
    ) -> Result<bool, Failure> {
        if !self.shortcuts {
            return Ok(false);
        }
        let mate = self.mate(v);
        for &c in order {
            if self.done[c] {
                continue;
            }
            if Some(c) == mate {
                return Ok(true);
            }
            match self.m.slack(&self.src, v, c)? {
                // No edge (C1/C3, a role of the exchanges): not a candidate.
                None => {}
                // In no optimum.
                Some(s) if s > W::ZERO => {}
                // The first candidate some optimum may hold.
                Some(_) => return Ok(self.m.try_rematch(&self.src, v, c)?),
            }
        }
        Ok(false)
    }

    /// Art. 4.3: before the exchanges, whether an optimal pairing of the remainder pairs
    /// every S1 player (`rem[..p]`) with an S2 player. If so, every optimum of the
    /// exchange fields does (they count the pairs whose higher player is in S1, then the
    /// least BSN sum of the higher players, and this one reaches both bounds): there is
    /// no exchange, the higher players are S1. The current optimum is changed to that one
    /// (`try_replace`, which keeps every dual) and true is returned; the roles of step 4
    /// then only remove edges (S1 with S1, S2 with S2), which keeps the certificate, so
    /// no `touch` is needed either.
    ///
    /// The pairing tried: each S1 player in order with the first S2 player still free
    /// whose edge is tight; it must cover exactly the players the current optimum pairs
    /// inside the remainder, none of them in a blossom.
    pub(super) fn certified_without_exchange(
        &mut self,
        rem: &[usize],
        p: usize,
    ) -> Result<bool, Failure> {
        if !self.shortcuts || rem.iter().any(|&r| self.m.in_blossom(r)) {
            return Ok(false);
        }
        let inside = |this: &Self, v: usize| this.remainder_mate(v).is_some();
        let covered = rem.iter().filter(|&&r| inside(self, r)).count();
        if covered != 2 * p || rem[..p].iter().any(|&a| !inside(self, a)) {
            return Ok(false);
        }
        // S2 positions not yet taken.
        let s2 = &rem[p..];
        let mut next = NextFree::new(s2.len());
        // `owner[j]`: the S1 index paired with S2 position `j`; `partner[i]` the reverse.
        let mut owner: Vec<u32> = vec![NIL; s2.len()];
        let mut partner: Vec<u32> = vec![NIL; p];
        for (i, &a) in rem[..p].iter().enumerate() {
            crate::cancel::checkpoint();
            let mut j = next.first(0);
            let chosen = loop {
                if j >= s2.len() {
                    break None;
                }
                let c = s2[j];
                if inside(self, c) && self.m.slack(&self.src, a, c)? == Some(W::ZERO) {
                    break Some(j);
                }
                j = next.first(j + 1);
            };
            let (j, augmented) = match chosen {
                Some(j) => (j, false),
                // The first free tight candidates were taken by earlier S1 players:
                // look for an alternating path of tight edges to a free S2 player.
                None => match self.tight_augmenting_path(rem, p, i, &owner, &inside)? {
                    Some(path) => {
                        // `path`: (S1 index, S2 position) from `i`; each S2 player
                        // changes hands, the last one was free.
                        for &(x, j) in &path {
                            owner[j] = x as u32;
                            partner[x] = j as u32;
                        }
                        (path.last().map_or(0, |&(_, j)| j), true)
                    }
                    None => return Ok(false),
                },
            };
            next.take(j);
            if !augmented {
                owner[j] = i as u32;
                partner[i] = j as u32;
            }
        }
        let pairs: Vec<(usize, usize)> = partner
            .iter()
            .enumerate()
            .map(|(i, &j)| (rem[i], s2[j as usize]))
            .collect();
        Ok(self.m.try_replace(&self.src, &pairs)?)
    }

    /// Art. 4.3 with exchanges: a warm start for the optimum of the exchange fields
    /// (`Source::weight`: `E` for a pair whose higher player is in S1, minus `B` times
    /// his remainder index) instead of re-checking every remainder player. Call before
    /// the fields are switched on; true when done (else the caller touches everyone).
    ///
    /// The current optimum is first changed, keeping every dual, to one that pairs S1
    /// with S2 as often as tight edges allow (`tight_rearrangement`). Then each S1
    /// player's dual rises by `2(E - B·i)` (`i` his index; duals are of doubled
    /// weights), which keeps every dual feasible under the fields: an S1-S2 edge gains
    /// exactly that (still tight if it was), an S1-S1 edge gains less than its two ends
    /// rose (`E` exceeds every `B·i`), an S2-S2 edge loses weight, and edges out of the
    /// remainder keep theirs. Only the pairs that lose tightness (inside S1 or inside
    /// S2) and S1 players paired outside the remainder are touched: a few, not thousands
    /// of stages. The result is an optimum of the fields like the other way's, and every
    /// later question is about all optima.
    pub(super) fn exchange_warm_start(&mut self, rem: &[usize], p: usize) -> Result<bool, Failure> {
        let Some(pairs) = self.tight_rearrangement(rem, p)? else {
            return Ok(false);
        };
        if !self.m.try_replace(&self.src, &pairs)? {
            return Ok(false);
        }
        let (exchange, bsn_sum) = (self.src.layout.exchange, self.src.layout.bsn_sum);
        for (i, &a) in rem[..p].iter().enumerate() {
            let gain = W::shifted(1, exchange).wsub(W::shifted(i as i64, bsn_sum));
            self.m.raise_dual(a, gain.twice());
        }
        let in_s1 = |this: &Self, v: usize| (this.src.ridx[v] as usize) < p;
        for (i, &a) in rem.iter().enumerate() {
            let keeps = match self.remainder_mate(a) {
                Some(c) => in_s1(self, a) != in_s1(self, c),
                // Paired outside the remainder, or free: an S2 player's dual is as before.
                _ => i >= p,
            };
            if !keeps {
                self.m.touch(a);
            }
        }
        Ok(true)
    }

    /// A pairing, by tight edges, of the remainder players that the current optimum
    /// pairs inside the remainder, with as many S1-S2 pairs as possible: a matching of
    /// its own over them (an edge where the main certificate is tight; weight `k`, one
    /// more between S1 and S2, so that it pairs them all first), started from classes of
    /// players alike (type, dual, side) so that it costs O(n) for thousands of
    /// interchangeable players. `None` when the certificate cannot be read so (a
    /// remainder player in a blossom, no type table, too many classes) or the pairing is
    /// not complete.
    fn tight_rearrangement(
        &self,
        rem: &[usize],
        p: usize,
    ) -> Result<Option<Vec<(usize, usize)>>, Failure> {
        const MAX_CLASSES: usize = 64;
        const SCAN_ABOVE: usize = 4096;
        let super::Base::Types(types) = &self.src.base else {
            return Ok(None);
        };
        if rem.iter().any(|&r| self.m.in_blossom(r)) {
            return Ok(None);
        }
        let ty = types.classes();
        let inside: Vec<usize> = rem
            .iter()
            .copied()
            .filter(|&v| self.remainder_mate(v).is_some())
            .collect();
        let k = inside.len();
        let mut keys: Vec<(u32, bool, W)> = Vec::new();
        let mut class = Vec::with_capacity(k);
        // First and last member of each class.
        let mut ends: Vec<(usize, usize)> = Vec::new();
        let mut side: Vec<bool> = Vec::new();
        for (x, &v) in inside.iter().enumerate() {
            let s1 = (self.src.ridx[v] as usize) < p;
            let Some(dual) = self.m.dual(v) else {
                return Ok(None);
            };
            let t = *ty.get(v).unwrap_or(&u32::MAX);
            let key = (t, s1, dual);
            let c = match keys.iter().position(|k| *k == key) {
                Some(c) => c,
                None => {
                    if keys.len() == MAX_CLASSES {
                        return Ok(None);
                    }
                    keys.push(key);
                    ends.push((x, x));
                    side.push(s1);
                    keys.len() - 1
                }
            };
            ends[c].1 = x;
            let c = c as u32;
            class.push(c);
        }
        let t = ends.len();
        let big = k as i64 + 1;
        let mut weights: Vec<Option<i64>> = vec![None; t * t];
        for s in 0..t {
            for r in s..t {
                let (fs, ls) = ends[s];
                let (fr, lr) = ends[r];
                let mut tight = false;
                for (a, b) in [(fs, fr), (fs, lr), (ls, fr), (ls, lr)] {
                    if a != b && self.m.slack(&self.src, inside[a], inside[b])? == Some(W::ZERO) {
                        tight = true;
                    }
                }
                if tight {
                    let w = Some(big + i64::from(side[s] != side[r]));
                    weights[s * t + r] = w;
                    weights[r * t + s] = w;
                }
            }
        }
        struct Tight<'a, 'b, W: Packed> {
            run: &'a Run<'b, W>,
            inside: &'a [usize],
            side: Vec<bool>,
            big: i64,
        }
        impl<W: Packed> crate::matching::weighted::WeightSource<i64> for Tight<'_, '_, W> {
            fn weight(&self, a: usize, b: usize) -> i64 {
                let (va, vb) = (self.inside[a], self.inside[b]);
                match self.run.m.slack(&self.run.src, va, vb) {
                    Ok(Some(s)) if s == W::ZERO => {
                        self.big + i64::from(self.side[a] != self.side[b])
                    }
                    _ => 0,
                }
            }
        }
        let src = Tight {
            run: self,
            inside: &inside,
            side: inside
                .iter()
                .map(|&v| (self.src.ridx[v] as usize) < p)
                .collect(),
            big,
        };
        let mut aux = crate::matching::weighted::DynamicMatching::<i64>::new(k);
        // The statement is read from a few pairs of each two classes (the corner members:
        // both orders of their indices); it only matters above the size where the first
        // solve stops reading every edge, and a wrong one only costs time (the pairing
        // must still be complete and every pair tight in the main certificate).
        if k > SCAN_ABOVE {
            aux.set_class_weights(class, weights);
        } else {
            aux.set_classes(class);
        }
        if aux.solve(&src).is_err() {
            return Ok(None);
        }
        let mut pairs = Vec::with_capacity(k / 2);
        for x in 0..k {
            match aux.mate(x) {
                Some(y) if x < y => pairs.push((inside[x], inside[y])),
                Some(_) => {}
                None => return Ok(None),
            }
        }
        Ok(Some(pairs))
    }

    /// An alternating path of tight edges from S1 player `start` (index into `rem`) to a
    /// free S2 player, through S2 players paired by `owner`: the S1-S2 pairs along it, the
    /// last one's S2 player free. Breadth-first, over at most a few hundred S1 players
    /// (the answer is then "not proved" and the dense question decides).
    fn tight_augmenting_path(
        &self,
        rem: &[usize],
        p: usize,
        start: usize,
        owner: &[u32],
        inside: &dyn Fn(&Self, usize) -> bool,
    ) -> Result<Option<Vec<(usize, usize)>>, Failure> {
        const VISITS: usize = 256;
        let s2 = &rem[p..];
        let mut seen = vec![false; s2.len()];
        // (S1 index, the S2 position it came through, the queue entry it came from)
        let mut queue: Vec<(usize, usize, usize)> = vec![(start, usize::MAX, usize::MAX)];
        let mut head = 0;
        while head < queue.len() && head < VISITS {
            let (x, _, _) = queue[head];
            for (j, &c) in s2.iter().enumerate() {
                if seen[j]
                    || !inside(self, c)
                    || self.m.slack(&self.src, rem[x], c)? != Some(W::ZERO)
                {
                    continue;
                }
                seen[j] = true;
                if owner[j] == NIL {
                    // Unwind: x takes j, and each earlier S1 player the S2 player it came
                    // through.
                    let mut path = vec![(x, j)];
                    let mut k = head;
                    while queue[k].2 != usize::MAX {
                        let (_, via, from) = queue[k];
                        path.push((queue[from].0, via));
                        k = from;
                    }
                    path.reverse();
                    return Ok(Some(path));
                }
                queue.push((owner[j] as usize, j, head));
            }
            head += 1;
        }
        Ok(None)
    }
}
