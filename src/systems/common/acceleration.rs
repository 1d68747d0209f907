//! Accelerated pairings (C.04.7, 2026 edition; formerly C.04.5.1): the Baku method as a
//! generator of virtual points, shared by every Swiss system that reads
//! `Tournament::accelerations` (pairing score = points + virtual points).
//!
//! Explicit virtual points (JaVaFo `XXA`, TRF-26 `250`) always win: when the snapshot holds
//! any, no method generates more (TRF-26 `250` "overrides the acceleration implied by a
//! `_BAKU` code in 192"). Otherwise, with `acceleration` = BAKU (or `192 ..._BAKU`), or AUTO
//! when the players outnumber 2^rounds (JavaPairing's switch), the Baku method gives:
//!
//! * **Premise**: a win is worth two draws and a loss nothing (C.04.7 "Premise", 2026:
//!   virtual points are "a win's points", then half of that).
//! * **Groups**: before round 1 the players to be paired, in order, are split; GA holds the
//!   first half rounded up to an even number, 2·⌈N/4⌉ (the text's own example: 161 players,
//!   GA = 82). Late entrants are placed by pairing number and the last GA player stays the
//!   same person, so GA is everyone numbered up to him (it may then grow or become odd).
//! * **Rounds**: the first ⌈R/2⌉ rounds are accelerated; in the first ⌈⌈R/2⌉/2⌉ of them GA
//!   players get a win's points, in the others half that (a draw's points). GB players and
//!   rounds after the accelerated ones get nothing.
use crate::model::validate::{Problem, Problems};
use crate::model::{Acceleration, Tournament};

/// How virtual points are given when the snapshot has no explicit ones (`XXA`, `250`):
/// option `acceleration`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AccelerationMethod {
    /// No acceleration.
    #[default]
    None,
    /// The Baku method (C.04.7, 2026).
    Baku,
    /// Baku when the players outnumber 2^rounds, else none.
    Auto,
}

/// The option's values.
pub fn parse_method(value: &str) -> Result<AccelerationMethod, String> {
    crate::systems::options::parse_choice(
        value,
        &[
            ("NONE", AccelerationMethod::None),
            ("BAKU", AccelerationMethod::Baku),
            ("AUTO", AccelerationMethod::Auto),
        ],
    )
}

use crate::systems::PairError;

/// Generates the Baku virtual points into `t.accelerations` (every round up to
/// `t.total_rounds`) when the method asks for them and the snapshot has no explicit ones.
/// Returns a note for the answer's warnings when AUTO decided, or when Baku applied.
pub fn apply(t: &mut Tournament, method: AccelerationMethod) -> Result<Option<String>, PairError> {
    if method == AccelerationMethod::None {
        return Ok(None);
    }
    if !t.accelerations.is_empty() {
        return Ok(Some(
            "acceleration: the snapshot's own virtual points (XXA / 250) are used; they override the Baku method".to_string(),
        ));
    }
    let initial: Vec<usize> = (0..t.players.len())
        .filter(|&p| t.players[p].late_entry_round.is_none_or(|r| r <= 1))
        .collect();
    let n = initial.len();
    let rounds = t.total_rounds;
    let mut note = None;
    if method == AccelerationMethod::Auto {
        // Players > 2^rounds: more players than a Swiss of that length can separate.
        let limit = if rounds >= 63 {
            u64::MAX
        } else {
            1u64 << rounds
        };
        if rounds == 0 || (n as u64) <= limit {
            return Ok(Some(format!(
                "acceleration AUTO: {n} players, not more than 2^{rounds} = {limit}: no acceleration"
            )));
        }
        note = Some(format!(
            "acceleration AUTO: {n} players > 2^{rounds} = {limit}: Baku acceleration (C.04.7)"
        ));
    }
    let s = &t.scoring;
    if s.loss.tenths() != 0 || s.draw.tenths() * 2 != s.win.tenths() || s.win.tenths() <= 0 {
        return Err(PairError::Invalid(Problems(vec![Problem::new(
            "tournament.scoring",
            format!(
                "Baku acceleration (C.04.7) needs a win worth two draws and a loss worth 0; the scoring is win {}, draw {}, loss {}",
                s.win, s.draw, s.loss
            ),
        )])));
    }
    if rounds == 0 {
        return Err(PairError::Invalid(Problems(vec![Problem::new(
            "tournament.total_rounds",
            "Baku acceleration (C.04.7) needs the number of rounds (XXR / 142)",
        )])));
    }
    let mut order = initial;
    order.sort_by_key(|&p| t.pairing_number(p));
    let ga_size = 2 * n.div_ceil(4);
    let Some(&last_ga) = order.get(ga_size.min(n).saturating_sub(1)) else {
        return Ok(note);
    };
    let last_number = t.pairing_number(last_ga);
    let accelerated = rounds.div_ceil(2);
    let full = accelerated.div_ceil(2);
    let (win, half) = (s.win, s.draw);
    let mut ga: Vec<usize> = (0..t.players.len())
        .filter(|&p| t.pairing_number(p) <= last_number)
        .collect();
    ga.sort_by_key(|&p| t.pairing_number(p));
    for &p in &ga {
        t.accelerations.push(Acceleration {
            player: p,
            first_round: 1,
            last_round: full,
            points: win,
        });
        if accelerated > full {
            t.accelerations.push(Acceleration {
                player: p,
                first_round: full + 1,
                last_round: accelerated,
                points: half,
            });
        }
    }
    Ok(note.or_else(|| {
        Some(format!(
            "Baku acceleration (C.04.7): GA = {} player(s) (to pairing number {last_number}), +{win} in rounds 1-{full}, +{half} in rounds {}-{accelerated}",
            ga.len(),
            full + 1
        ))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Player, Score};

    fn field(n: usize, rounds: u32) -> Tournament {
        let mut t = Tournament {
            total_rounds: rounds,
            ..Tournament::default()
        };
        for i in 0..n {
            t.players.push(Player {
                id: format!("p{i}"),
                pairing_number: Some(i as u32 + 1),
                ..Player::default()
            });
        }
        t.options.set("acceleration", "BAKU").expect("a name");
        t
    }

    /// [`apply`] with the method the tournament's options ask for.
    fn apply_set(t: &mut Tournament) -> Result<Option<String>, crate::systems::PairError> {
        let method = crate::systems::options::acceleration(&t.options);
        apply(t, method)
    }

    fn points(t: &Tournament, p: usize, round: u32) -> Score {
        t.accelerations
            .iter()
            .filter(|a| a.player == p && a.first_round <= round && round <= a.last_round)
            .map(|a| a.points)
            .sum()
    }

    #[test]
    fn ga_is_half_rounded_up_to_even_and_nine_rounds_split_three_two() {
        // C.04.7: 161 players give GA = 82; 9 rounds: +1 in rounds 1-3, +1/2 in rounds 4-5.
        let mut t = field(161, 9);
        assert!(apply_set(&mut t).is_ok());
        assert_eq!(points(&t, 81, 1), Score::points(1));
        assert_eq!(points(&t, 82, 1), Score::ZERO);
        assert_eq!(points(&t, 0, 3), Score::points(1));
        assert_eq!(points(&t, 0, 4), Score::half());
        assert_eq!(points(&t, 0, 5), Score::half());
        assert_eq!(points(&t, 0, 6), Score::ZERO);
    }

    #[test]
    fn explicit_virtual_points_override_and_auto_switches_on_size() {
        let mut t = field(10, 5);
        t.accelerations.push(Acceleration {
            player: 9,
            first_round: 1,
            last_round: 1,
            points: Score::points(2),
        });
        assert!(apply_set(&mut t).is_ok());
        assert_eq!(t.accelerations.len(), 1);
        let mut t = field(32, 5);
        t.options.set("acceleration", "AUTO").expect("a name");
        assert!(apply_set(&mut t).is_ok());
        assert!(t.accelerations.is_empty());
        let mut t = field(33, 5);
        t.options.set("acceleration", "AUTO").expect("a name");
        assert!(apply_set(&mut t).is_ok());
        assert_eq!(points(&t, 0, 1), Score::points(1));
    }

    #[test]
    fn late_entrant_numbered_inside_ga_joins_it() {
        // 12 players, number 2 entering in round 2.
        let mut t = field(12, 5);
        t.players[1].late_entry_round = Some(2);
        assert!(apply_set(&mut t).is_ok());
        // 11 starters: GA = 2*3 = 6, the 6th starter is number 7, so GA = numbers 1-7.
        assert_eq!(points(&t, 1, 2), Score::points(1));
        assert_eq!(points(&t, 6, 1), Score::points(1));
        assert_eq!(points(&t, 7, 1), Score::ZERO);
    }

    #[test]
    fn premise_needs_a_win_worth_two_draws() {
        let mut t = field(10, 5);
        t.scoring.win = Score::points(3);
        t.scoring.draw = Score::points(1);
        assert!(matches!(apply_set(&mut t), Err(PairError::Invalid(_))));
    }
}
