//! Two pairings of a round compared in the order of Burstein's profile BBP (bbpPairings 6's
//! `--burstein` reading, `systems::burstein::bbp`), which is not the 2026 text's:
//!
//! 1. **the PAB** (C.04.4.2 3.1 as that engine reads it): the lowest-ranked player, in the
//!    order of score (with the profile's virtual points) then the Index, who has had no PAB
//!    and no forfeit win, chosen before pairing. A PAB to a higher score is worse; between
//!    equal scores the Index order chose;
//! 2. then the scoregroups from the top (a pair belongs to the bracket of its lower score;
//!    the players a bracket leaves unpaired float into the next). The engine's one
//!    matching maximises, in the bracket being fixed and every bracket below it, the pairs
//!    within scoregroups (C5: a player floats at most one scoregroup down), so the
//!    downfloats from this bracket down, fewest first;
//! 3. then, in that bracket, the pairs whose colour preferences agree (differ, or one has
//!    none), most first (C8 as the engine weighs it);
//! 4. the rest is the engine's rule of order: each player in Index order takes the
//!    lowest-ranked opponent that keeps an optimal matching ("1 v n", C.04.4.2 4.3).
//!
//! The scores, the Index order, the colour preferences and the PAB's eligibility are the
//! profile's own (`bbp::metrics`, `bbp::pairing_order`, `bbp::prefs_agree`,
//! `bbp::bye_eligible`).
use std::collections::{BTreeMap, BTreeSet};

use super::criteria::{Comparison, Difference};
use super::{Asking, Verdict, VerdictKind};
use crate::model::{PlayerIdx, Score};
use crate::systems::burstein::{Profile, bbp, profile};
use crate::systems::common::History;
use crate::systems::dutch::players::Field;
use crate::systems::{RoundPairing, RoundToPair};

/// The profile's facts of a round: each player's pairing score (tenths) and place in its
/// pairing order.
struct Facts {
    field: Field,
    score: BTreeMap<PlayerIdx, i64>,
    place: BTreeMap<PlayerIdx, usize>,
    at: BTreeMap<PlayerIdx, usize>,
}

impl Facts {
    fn build(round: &RoundToPair, history: &History) -> Facts {
        let field = Field::build(round, history);
        let mut ranks = vec![u32::MAX; round.tournament.players.len()];
        for e in &field.entrants {
            if let Some(r) = ranks.get_mut(e.player) {
                *r = e.rank;
            }
        }
        let metric = bbp::metrics(round, history, &ranks);
        let order = bbp::pairing_order(&field, &metric);
        let score = order
            .iter()
            .map(|&p| (p, metric.get(p).map_or(0, |m| m.score)))
            .collect();
        let place = order.iter().enumerate().map(|(i, &p)| (p, i)).collect();
        let at = field
            .entrants
            .iter()
            .enumerate()
            .map(|(i, e)| (e.player, i))
            .collect();
        Facts {
            field,
            score,
            place,
            at,
        }
    }

    fn score(&self, p: PlayerIdx) -> i64 {
        self.score.get(&p).copied().unwrap_or(0)
    }

    fn place(&self, p: PlayerIdx) -> usize {
        self.place.get(&p).copied().unwrap_or(usize::MAX)
    }

    fn agree(&self, a: PlayerIdx, b: PlayerIdx) -> bool {
        match (self.at.get(&a), self.at.get(&b)) {
            (Some(&x), Some(&y)) => {
                bbp::prefs_agree(&self.field.entrants[x], &self.field.entrants[y])
            }
            _ => true,
        }
    }
}

fn pab_of(p: &RoundPairing) -> Option<PlayerIdx> {
    p.byes
        .iter()
        .find(|b| b.kind.is_pairing_allocated())
        .map(|b| b.player)
}

fn shown(tenths: i64) -> String {
    Score::from_tenths(tenths).to_string()
}

/// The PAB's criterion (3.1): the assignees' scores, lower first; `None` when they tie.
fn bye_difference(facts: &Facts, first: PlayerIdx, second: PlayerIdx) -> Option<Difference> {
    let (a, b) = (facts.score(first), facts.score(second));
    (a != b).then(|| Difference {
        rule_id: "C.04.4.2 3.1".to_string(),
        criterion: "the PAB goes to the lowest-ranked player (score, then the Index) without a PAB or forfeit win, before pairing",
        bracket: None,
        first_value: format!("the PAB assignee scores {}", shown(a)),
        second_value: format!("the PAB assignee scores {}", shown(b)),
        first_is_better: a < b,
        players: vec![if a < b { second } else { first }],
    })
}

/// Compares two pairings of `round` in profile BBP's order.
pub(super) fn compare(
    round: &RoundToPair,
    history: &History,
    first: &RoundPairing,
    second: &RoundPairing,
) -> Comparison {
    let facts = Facts::build(round, history);
    let (pab_one, pab_two) = (pab_of(first), pab_of(second));
    if pab_one != pab_two {
        if let (Some(x), Some(y)) = (pab_one, pab_two)
            && let Some(d) = bye_difference(&facts, x, y)
        {
            return Comparison::Differ(d);
        }
        return Comparison::Tie {
            bracket: None,
            order_rule: "C.04.4.2 3.1",
            players: [pab_one, pab_two].into_iter().flatten().collect(),
        };
    }
    let mut groups: Vec<i64> = facts
        .score
        .iter()
        .filter(|(p, _)| Some(**p) != pab_one)
        .map(|(_, &s)| s)
        .collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    groups.dedup();
    let pairs = |p: &RoundPairing| -> Vec<(PlayerIdx, PlayerIdx)> {
        p.boards
            .iter()
            .map(|b| (b.white.min(b.black), b.white.max(b.black)))
            .collect()
    };
    // Each bracket of a pairing: its pairs (a pair belongs to its lower score's bracket)
    // and the players it leaves to float on, in pairing order.
    let brackets = |p: &RoundPairing| -> Vec<(BTreeSet<(PlayerIdx, PlayerIdx)>, Vec<PlayerIdx>)> {
        let all = pairs(p);
        let mut carried: Vec<PlayerIdx> = Vec::new();
        groups
            .iter()
            .map(|&s| {
                let made: BTreeSet<(PlayerIdx, PlayerIdx)> = all
                    .iter()
                    .copied()
                    .filter(|&(a, b)| facts.score(a).min(facts.score(b)) == s)
                    .collect();
                let paired: BTreeSet<PlayerIdx> = made.iter().flat_map(|&(a, b)| [a, b]).collect();
                let mut present = std::mem::take(&mut carried);
                present.extend(
                    facts
                        .score
                        .iter()
                        .filter(|&(&q, &x)| x == s && Some(q) != pab_one)
                        .map(|(&q, _)| q),
                );
                let mut floaters: Vec<PlayerIdx> = present
                    .into_iter()
                    .filter(|q| !paired.contains(q))
                    .collect();
                floaters.sort_by_key(|&q| facts.place(q));
                carried = floaters.clone();
                (made, floaters)
            })
            .collect()
    };
    let (one, two) = (brackets(first), brackets(second));
    for i in 0..groups.len() {
        if one[i] == two[i] {
            continue;
        }
        let bracket = Some(Score::from_tenths(groups[i]));
        let make = |rule: &str,
                    criterion,
                    a: (Vec<i64>, String, Vec<PlayerIdx>),
                    b: (Vec<i64>, String, Vec<PlayerIdx>)| {
            let first_is_better = a.0 < b.0;
            Comparison::Differ(Difference {
                rule_id: rule.to_string(),
                criterion,
                bracket,
                first_value: a.1,
                second_value: b.1,
                first_is_better,
                players: if first_is_better { b.2 } else { a.2 },
            })
        };
        // C5 as the engine weighs it: the pairs within scoregroups of this bracket and every
        // one below, i.e. the downfloats from here down.
        let downfloats = |side: &[(BTreeSet<(PlayerIdx, PlayerIdx)>, Vec<PlayerIdx>)]| {
            let floaters: Vec<PlayerIdx> = side[i..].iter().flat_map(|b| b.1.clone()).collect();
            (
                vec![floaters.len() as i64],
                format!("{} downfloat(s) from this bracket down", floaters.len()),
                floaters,
            )
        };
        let (a, b) = (downfloats(&one), downfloats(&two));
        if a.0 != b.0 {
            return make(
                "C.04.4.2 C5",
                "maximise the pairs within scoregroups (bbpPairings: in this bracket and every one below it)",
                a,
                b,
            );
        }
        // C8 as the engine weighs it: the bracket's pairs whose colour preferences agree.
        let colours = |side: &[(BTreeSet<(PlayerIdx, PlayerIdx)>, Vec<PlayerIdx>)]| {
            let made = &side[i].0;
            let agree = made.iter().filter(|&&(x, y)| facts.agree(x, y)).count();
            let clash: Vec<PlayerIdx> = made
                .iter()
                .filter(|&&(x, y)| !facts.agree(x, y))
                .flat_map(|&(x, y)| [x, y])
                .collect();
            (
                vec![-(agree as i64)],
                format!("{agree} pair(s) whose colour preferences agree"),
                clash,
            )
        };
        let (a, b) = (colours(&one), colours(&two));
        if a.0 != b.0 {
            return make(
                "C.04.4.2 C8",
                "maximise the pairs whose colour preferences agree (bbpPairings' reading)",
                a,
                b,
            );
        }
        let players: BTreeSet<PlayerIdx> = one[i]
            .0
            .symmetric_difference(&two[i].0)
            .flat_map(|&(x, y)| [x, y])
            .collect();
        return Comparison::Tie {
            bracket,
            order_rule: "C.04.4.2 4.3",
            players: players.into_iter().collect(),
        };
    }
    Comparison::Same
}

impl Asking<'_> {
    /// Profile BBP gives the PAB before pairing, to the lowest-ranked eligible player,
    /// whether or not the others can then be paired: it makes no pairing with the bye
    /// elsewhere. The bye for another eligible player is answered by that rule (3.1): worse
    /// for a higher score, the Index order's choice between equal scores.
    pub(super) fn bbp_bye(&self, x: PlayerIdx, answer: &RoundPairing) -> Option<Verdict> {
        if self.resolved.id != crate::model::SystemId::Burstein
            || profile(&self.round.tournament.options) != Profile::Bbp
        {
            return None;
        }
        let given = pab_of(answer)?;
        if given == x || !bbp::bye_eligible(&self.history, x) {
            return None;
        }
        let facts = Facts::build(self.round, &self.history);
        let (nx, ng) = (self.name(x), self.name(given));
        Some(match bye_difference(&facts, given, x) {
            Some(d) => {
                let mut v = self.differ_verdict(d, &format!("the bye for {nx}"));
                v.message = format!(
                    "{}; profile BBP chooses the PAB before pairing, so it pairs nothing with the bye elsewhere",
                    v.message
                );
                v
            }
            None => self.verdict(
                VerdictKind::Tie,
                "C.04.4.2 3.1",
                format!(
                    "{nx} and {ng} have the same score ({}): the PAB goes to the lower of them in the Index order (bbpPairings: Sonneborn-Berger, Buchholz, median, pairing number), {ng}",
                    shown(facts.score(x))
                ),
                vec![x, given],
            ),
        })
    }
}
