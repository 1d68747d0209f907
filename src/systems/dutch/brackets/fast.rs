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
use super::{Failure, Run};
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
}
