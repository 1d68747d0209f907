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
use super::{Failure, NIL, NextFree, Run};
use crate::systems::dutch::weights::Packed;

impl<W: Packed> Run<'_, W> {
    /// Tries to make `v`'s mate the first candidate of `order` that an optimal pairing
    /// still allows, from the certificate alone; true when done. Call right after a
    /// `solve`.
    pub(super) fn certified_opponent(
        &mut self,
        v: usize,
        order: &[usize],
    ) -> Result<bool, Failure> {
        if !self.shortcuts {
            return Ok(false);
        }
        for &c in order {
            if self.done[c] {
                continue;
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
        let inside = |this: &Self, v: usize| {
            this.m
                .mate(v)
                .is_some_and(|c| this.src.ridx[c] != NIL && !this.done[c])
        };
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
