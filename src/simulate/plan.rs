//! How many of an event the generator puts in a tournament (the checklist's RTG settings,
//! VCL4THP Q24): a fixed number or a share, over the whole event or in one round.
//!
//! A number over the event is spread over its rounds first (each occurrence in a round drawn
//! uniformly), then met in each round as far as the round allows; a number in one round is
//! met in that round as far as it allows; a share is a chance per player (byes) or per game
//! (results) in every round, or in the one round named.
use rand::Rng;
use rand::seq::SliceRandom;

/// A fixed number, or a share (0..1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Amount {
    Count(u32),
    Share(f64),
}

/// An amount, over the event (`round: None`) or in one round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Planned {
    pub amount: Amount,
    pub round: Option<u32>,
}

impl Planned {
    pub fn count(n: u32) -> Planned {
        Planned {
            amount: Amount::Count(n),
            round: None,
        }
    }

    pub fn share(share: f64) -> Planned {
        Planned {
            amount: Amount::Share(share),
            round: None,
        }
    }

    pub fn in_round(self, round: u32) -> Planned {
        Planned {
            round: Some(round),
            ..self
        }
    }

    /// The command line's form: `N` (a number), `P%` (a percentage), either followed by
    /// `@R` for round R only: `3`, `5%`, `2@4`, `10%@1`.
    pub fn parse(text: &str) -> Result<Planned, String> {
        let text = text.trim();
        let (amount, round) = match text.split_once('@') {
            Some((a, r)) => {
                let round: u32 = r
                    .trim()
                    .parse()
                    .map_err(|_| format!("{text:?}: the round after @ is a whole number"))?;
                if round == 0 {
                    return Err(format!("{text:?}: rounds count from 1"));
                }
                (a.trim(), Some(round))
            }
            None => (text, None),
        };
        let amount = if let Some(percent) = amount.strip_suffix('%') {
            let p: f64 = percent
                .trim()
                .parse()
                .map_err(|_| format!("{text:?}: a percentage is a number before %"))?;
            if !(0.0..=100.0).contains(&p) {
                return Err(format!("{text:?}: a percentage is between 0 and 100"));
            }
            Amount::Share(p / 100.0)
        } else {
            Amount::Count(amount.parse().map_err(|_| {
                format!("{text:?}: give a number (3), a percentage (5%), optionally @round")
            })?)
        };
        Ok(Planned { amount, round })
    }

    /// Why the plan does not fit a tournament of `rounds` rounds, if it does not.
    pub fn problem(&self, rounds: u32) -> Option<String> {
        if let Amount::Share(s) = self.amount
            && !(0.0..=1.0).contains(&s)
        {
            return Some(format!("a share is between 0 and 1, not {s}"));
        }
        match self.round {
            Some(r) if r == 0 || r > rounds => Some(format!(
                "round {r} is not a round of this tournament (1..={rounds})"
            )),
            _ => None,
        }
    }
}

/// What one round is asked for: a number to place, and a chance per candidate.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Quota {
    pub count: u32,
    pub share: f64,
}

impl Quota {
    /// The candidates (in the order given) chosen for this round: first `count` of them at
    /// random, then each of the others with the chance `share`.
    pub fn choose<T: Copy>(&self, candidates: &[T], rng: &mut impl Rng) -> Vec<T> {
        let mut pool = candidates.to_vec();
        pool.shuffle(rng);
        let fixed = (self.count as usize).min(pool.len());
        let mut chosen: Vec<T> = pool[..fixed].to_vec();
        if self.share > 0.0 {
            for &c in &pool[fixed..] {
                if rng.random_bool(self.share.min(1.0)) {
                    chosen.push(c);
                }
            }
        }
        chosen
    }
}

/// Each round's quota (index 0 = round 1) from the plans, in `eligible` rounds only (a
/// number over the event is spread over those).
pub fn quotas(plans: &[Planned], rounds: u32, eligible: &[u32], rng: &mut impl Rng) -> Vec<Quota> {
    let mut out = vec![Quota::default(); rounds as usize];
    let len = out.len();
    let at = |r: u32| (r as usize).checked_sub(1).filter(|&i| i < len);
    for plan in plans {
        match (plan.amount, plan.round) {
            (Amount::Count(n), Some(r)) => {
                if let Some(i) = at(r) {
                    out[i].count += n;
                }
            }
            (Amount::Count(n), None) => {
                if eligible.is_empty() {
                    continue;
                }
                for _ in 0..n {
                    let r = eligible[rng.random_range(0..eligible.len())];
                    if let Some(i) = at(r) {
                        out[i].count += 1;
                    }
                }
            }
            (Amount::Share(s), Some(r)) => {
                if let Some(i) = at(r) {
                    out[i].share = combine(out[i].share, s);
                }
            }
            (Amount::Share(s), None) => {
                for &r in eligible {
                    if let Some(i) = at(r) {
                        out[i].share = combine(out[i].share, s);
                    }
                }
            }
        }
    }
    out
}

/// Two independent chances of the same event.
fn combine(a: f64, b: f64) -> f64 {
    1.0 - (1.0 - a) * (1.0 - b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn the_command_line_form_reads() {
        assert_eq!(Planned::parse("3"), Ok(Planned::count(3)));
        assert_eq!(Planned::parse("5%"), Ok(Planned::share(0.05)));
        assert_eq!(Planned::parse("2@4"), Ok(Planned::count(2).in_round(4)));
        assert_eq!(
            Planned::parse(" 10% @ 1 "),
            Ok(Planned::share(0.1).in_round(1))
        );
        for bad in ["", "x", "0.5", "150%", "3@0", "3@x"] {
            assert!(Planned::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_number_over_the_event_is_spread_over_the_eligible_rounds() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let q = quotas(&[Planned::count(40)], 6, &[2, 3, 4], &mut rng);
        assert_eq!(q.iter().map(|q| q.count).sum::<u32>(), 40);
        assert_eq!((q[0].count, q[4].count, q[5].count), (0, 0, 0));
        let q = quotas(&[Planned::count(2).in_round(5)], 6, &[1], &mut rng);
        assert_eq!(q[4].count, 2);
    }
}
