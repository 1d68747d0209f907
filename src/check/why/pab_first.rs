//! Questions about the PAB for a system that gives it before pairing the others,
//! whatever they leave (`System::pab_first`: Burstein's profile BBP reads C.04.4.2 3.1
//! so). Such a system makes no pairing with its PAB's receiver in a pair, nor with the bye
//! elsewhere: the first is impossible under the PAB's rule, the second is answered by that
//! rule alone (worse, or the system's order between equals).
use super::{Asking, Verdict, VerdictKind, pab};
use crate::model::PlayerIdx;
use crate::systems::RoundPairing;
use crate::systems::comparison::PabFirstBye;

impl Asking<'_> {
    /// A pair with the player the system gives the PAB: none of its pairings contains it.
    pub(super) fn pab_first_pair(
        &self,
        a: PlayerIdx,
        b: PlayerIdx,
        answer: &RoundPairing,
    ) -> Option<Verdict> {
        let first = self.resolved.configured.pab_first()?;
        let given = pab(answer).filter(|&p| p == a || p == b)?;
        Some(self.verdict(
            VerdictKind::Impossible,
            first.rule,
            format!(
                "{}: {} has it, so none of its pairings contains {} - {}",
                first.how,
                self.name(given),
                self.name(a),
                self.name(b)
            ),
            vec![a, b],
        ))
    }

    /// The bye for another player the PAB's rule may give it to: worse by that rule, or
    /// the system's order between equals.
    pub(super) fn pab_first_bye(&self, x: PlayerIdx, answer: &RoundPairing) -> Option<Verdict> {
        let first = self.resolved.configured.pab_first()?;
        let given = pab(answer)?;
        if given == x {
            return None;
        }
        match self
            .resolved
            .configured
            .pab_first_bye(self.round, &self.history, given, x)
        {
            PabFirstBye::NotEligible => None,
            PabFirstBye::Worse(d) => {
                let mut v = self.differ_verdict(d, &format!("the bye for {}", self.name(x)));
                v.message = format!("{}; {}", v.message, first.consequence);
                Some(v)
            }
            PabFirstBye::Tie(message) => {
                Some(self.verdict(VerdictKind::Tie, first.rule, message, vec![x, given]))
            }
        }
    }
}
