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
use super::{Failure, NIL, Run};
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
        // S2 positions not yet taken: `next[j]` leads to the first free one from `j`.
        let s2 = &rem[p..];
        let mut next: Vec<u32> = (0..=s2.len() as u32).collect();
        fn find(next: &mut [u32], mut j: usize) -> usize {
            while next[j] as usize != j {
                let up = next[next[j] as usize];
                next[j] = up;
                j = up as usize;
            }
            j
        }
        let mut pairs = Vec::with_capacity(p);
        for &a in &rem[..p] {
            crate::cancel::checkpoint();
            let mut j = find(&mut next, 0);
            let chosen = loop {
                if j >= s2.len() {
                    break None;
                }
                let c = s2[j];
                if inside(self, c) && self.m.slack(&self.src, a, c)? == Some(W::ZERO) {
                    break Some(j);
                }
                j = find(&mut next, j + 1);
            };
            let Some(j) = chosen else {
                return Ok(false);
            };
            next[j] = j as u32 + 1;
            pairs.push((a, s2[j]));
        }
        Ok(self.m.try_replace(&self.src, &pairs)?)
    }
}
