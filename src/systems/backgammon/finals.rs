//! The final phase (BG-9), after the regular rounds: the two players who won every game
//! play a final, one alone is champion; the players with exactly one loss play one
//! repechage round, drawn by lot, without repeating a pairing unless impossible; with an
//! odd number, one is exempt (and gets his trophy), chosen by, in turn: fewest wins against
//! [absent], highest sum of his opponents' wins, lot (completion).
//!
//! **Decisions where the rules are silent.**
//! - A withdrawn player (any `withdrawn_from_round`) cannot win a trophy (BG-10): he is in
//!   neither the final nor the repechage.
//! - More than two players with every game won (possible only with fewer rounds than BG-1
//!   gives, or after BG-11 could not help): no final is possible; the answer is CG-7's
//!   error naming BG-9 and the players, so the organiser can add a round.
//! - Nobody with every game won (forfeits and withdrawals): no final and no champion from
//!   the regular phase, said in a warning; the repechage is drawn all the same.
//! - "Sum of opponents' wins": the final wins of the opponents met over the board in the
//!   regular rounds; [absent] and forfeits count nothing (BG-3, CG-4).
//! - The lot (exemption criterion 3, and the repechage draw) uses one key per repechage
//!   player drawn in pairing-number order from `FINALS_DOMAIN` and round "regular rounds
//!   + 1" ([`super::rng`]). The final's two players are listed by pairing number.
//! - Repeats: if no repechage avoids every repeat, the draw allows as few as possible
//!   (a maximum matching of the pairs that have not met), and names them.
use rand::Rng;

use super::draw::{Draw, Entry, Level};
use super::record::Record;
use super::{
    FINALS_DOMAIN, Results, backgammon_snapshot, check_rounds, explain_event, rng, total_rounds,
};
use crate::matching;
use crate::model::validate::{Problem, Problems, check_tournament};
use crate::model::{PlayerIdx, Tournament};
use crate::systems::{Explanation, PairError, PairOptions};

/// Who wins the regular phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Two players won every game: they play the final (by pairing number).
    Final(PlayerIdx, PlayerIdx),
    /// One player won every game: he is champion.
    Champion(PlayerIdx),
    /// Nobody eligible won every game.
    NoUndefeated,
}

/// The final phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finals {
    pub regular_rounds: u32,
    pub outcome: Outcome,
    /// Every eligible player with exactly one loss, by pairing number.
    pub repechage_players: Vec<PlayerIdx>,
    /// The repechage pairs, first-drawn first.
    pub repechage: Vec<(PlayerIdx, PlayerIdx)>,
    /// With an odd number: the exempt player (he gets his trophy).
    pub exempt: Option<PlayerIdx>,
    pub explanation: Explanation,
    pub warnings: Vec<crate::systems::Warning>,
    pub match_length: Option<u32>,
}

/// BG-9: the final (or champion) and the repechage of a snapshot whose regular rounds are
/// all played.
pub fn pair_finals(t: &Tournament, options: &PairOptions) -> Result<Finals, PairError> {
    let mut warnings = Vec::new();
    let t = backgammon_snapshot(t, options, "the final phase (BG-9)", &mut warnings)?;
    let seed = options.seed.unwrap_or(t.lot_seed);
    let mut problems = Vec::new();
    check_tournament(&t, &mut problems);
    let total = total_rounds(&t);
    let paired = t.rounds_paired();
    if paired != total {
        problems.push(Problem::new(
            "tournament.rounds",
            format!("the final phase comes after the {total} regular rounds (BG-1, BG-9); {paired} are paired"),
        ));
    }
    problems.extend(check_rounds(&t, total.saturating_add(1), Results::Required));
    if !problems.is_empty() {
        return Err(PairError::Invalid(Problems(problems)));
    }
    let id = |p: PlayerIdx| t.players[p].id.clone();
    let rec = Record::build(&t, total.saturating_add(1));
    let match_length = crate::systems::System::options(&super::Backgammon, &t.options).match_length;
    let mut ex = Explanation::default();
    explain_event(&t, total, match_length, &mut ex);
    ex.group("final (BG-9)");
    let mut by_number: Vec<PlayerIdx> = (0..t.players.len()).collect();
    by_number.sort_by_key(|&p| t.pairing_number(p));
    let eligible = |p: PlayerIdx| t.players[p].withdrawn_from_round.is_none();
    for &p in &by_number {
        if !eligible(p) && rec.wins(p) + 1 >= total {
            ex.step(
                "BG-10",
                format!(
                    "{} withdrew: he cannot win a trophy ({} wins)",
                    id(p),
                    rec.wins(p)
                ),
                vec![p],
            );
        }
    }
    let undefeated: Vec<PlayerIdx> = by_number
        .iter()
        .copied()
        .filter(|&p| eligible(p) && rec.wins(p) == total)
        .collect();
    let outcome = match undefeated.as_slice() {
        [] => {
            warnings.push(crate::systems::Warning::new(
                "NO_FINAL",
                "BG-9",
                format!(
                    "nobody won all {total} regular games: no final and no champion from the regular phase (BG-9)"
                ),
            ));
            ex.step(
                "BG-9",
                format!("nobody won all {total} games: no final"),
                Vec::new(),
            );
            Outcome::NoUndefeated
        }
        [p] => {
            ex.step(
                "BG-9",
                format!("{} alone won all {total} games: champion", id(*p)),
                vec![*p],
            );
            Outcome::Champion(*p)
        }
        [a, b] => {
            ex.step(
                "BG-9",
                format!(
                    "{} and {} won all {total} games: they play the final",
                    id(*a),
                    id(*b)
                ),
                vec![*a, *b],
            );
            Outcome::Final(*a, *b)
        }
        many => {
            let names: Vec<String> = many.iter().map(|&p| id(p)).collect();
            return Err(PairError::NoLegalPairing {
                rule: "BG-9".to_string(),
                message: format!(
                    "{} players won all {total} games ({}): BG-9's final is for two; play another regular round (raise total_rounds)",
                    many.len(),
                    names.join(", ")
                ),
                explanation: ex,
            });
        }
    };
    ex.group("repechage (BG-9)");
    let players: Vec<PlayerIdx> = if total == 0 {
        Vec::new()
    } else {
        by_number
            .iter()
            .copied()
            .filter(|&p| eligible(p) && rec.wins(p) + 1 == total)
            .collect()
    };
    let mut lots = rng(seed, total.saturating_add(1), FINALS_DOMAIN);
    let lot: Vec<(PlayerIdx, u64)> = players
        .iter()
        .map(|&p| (p, lots.random::<u64>() >> 1))
        .collect();
    let lot_of = |p: PlayerIdx| lot.iter().find(|(q, _)| *q == p).map_or(u64::MAX, |l| l.1);
    if !players.is_empty() {
        ex.step(
            "BG-9",
            format!(
                "exactly one loss: {}",
                players
                    .iter()
                    .map(|&p| id(p))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            players.clone(),
        );
    }
    let exempt = if players.len() % 2 == 1 {
        Some(choose_exempt(&players, &rec, &lot_of, &id, &mut ex))
    } else {
        None
    };
    let mut pool: Vec<PlayerIdx> = players
        .iter()
        .copied()
        .filter(|&p| Some(p) != exempt)
        .collect();
    pool.sort_by_key(|&p| (lot_of(p), p));
    let repechage = draw_repechage(&pool, &rec, &lot_of, &id, &mut ex);
    Ok(Finals {
        regular_rounds: total,
        outcome,
        repechage_players: players,
        repechage,
        exempt,
        explanation: ex.filtered(options.detail),
        warnings,
        match_length,
    })
}

/// BG-9 (completion): fewest wins against [absent], then highest sum of opponents' wins,
/// then lot.
fn choose_exempt(
    players: &[PlayerIdx],
    rec: &Record,
    lot_of: &dyn Fn(PlayerIdx) -> u64,
    id: &dyn Fn(PlayerIdx) -> String,
    ex: &mut Explanation,
) -> PlayerIdx {
    let names = |v: &[PlayerIdx]| v.iter().map(|&p| id(p)).collect::<Vec<_>>().join(", ");
    let mut left = players.to_vec();
    if left.len() == 1 {
        ex.step(
            "BG-9",
            format!(
                "{} alone in the repechage: exempt, he gets his trophy",
                names(&left)
            ),
            left.clone(),
        );
        return left[0];
    }
    let absent = |p: PlayerIdx| rec.player(p).absent_rounds.len();
    let fewest = left.iter().map(|&p| absent(p)).min().unwrap_or(0);
    left.retain(|&p| absent(p) == fewest);
    ex.step(
        "BG-9",
        format!(
            "odd number: exemption criterion 1, fewest wins against [absent] ({fewest}): {}",
            names(&left)
        ),
        left.clone(),
    );
    if left.len() > 1 {
        let strength = |p: PlayerIdx| -> u32 {
            rec.player(p)
                .opponents
                .iter()
                .map(|&(_, o)| rec.wins(o))
                .sum()
        };
        let best = left.iter().map(|&p| strength(p)).max().unwrap_or(0);
        left.retain(|&p| strength(p) == best);
        ex.step(
            "BG-9",
            format!(
                "criterion 2, highest sum of opponents' wins ({best}): {}",
                names(&left)
            ),
            left.clone(),
        );
    }
    if left.len() > 1 {
        left.sort_by_key(|&p| (lot_of(p), p));
        left.truncate(1);
        ex.step(
            "BG-9",
            format!("criterion 3, lot: {}", names(&left)),
            left.clone(),
        );
    }
    let p = left[0];
    ex.step(
        "BG-9",
        format!("{} is exempt from the repechage and gets his trophy", id(p)),
        vec![p],
    );
    p
}

/// The repechage draw: by lot, no repeat unless impossible, then as few as possible.
fn draw_repechage(
    pool: &[PlayerIdx],
    rec: &Record,
    lot_of: &dyn Fn(PlayerIdx) -> u64,
    id: &dyn Fn(PlayerIdx) -> String,
    ex: &mut Explanation,
) -> Vec<(PlayerIdx, PlayerIdx)> {
    let entries: Vec<Entry> = pool
        .iter()
        .map(|&p| Entry {
            player: Some(p),
            ..Entry::new(id(p), vec![p], 0, lot_of(p))
        })
        .collect();
    let mut d = Draw::new(entries);
    d.label_group(0, "repechage draw".to_string());
    for i in 0..pool.len() {
        for j in i + 1..pool.len() {
            if let Some(why) = rec.conflict(pool[i], pool[j]) {
                d.forbid_because(i, j, why);
            }
        }
    }
    let mut trial = Explanation::default();
    if let Some(drawn) = d.run(&[Level::Strict], &mut trial) {
        // The draw's own group heading is replaced by the repechage's.
        for g in trial.groups {
            for s in g.steps {
                if s.detail == crate::systems::Detail::Full {
                    ex.detail(&s.rule_id, s.message, s.players);
                } else {
                    ex.step(&s.rule_id, s.message, s.players);
                }
            }
        }
        return drawn
            .pairs
            .iter()
            .filter_map(|&(a, b)| Some((d.entries()[a].player?, d.entries()[b].player?)))
            .collect();
    }
    // No repechage without a repeat: allow as few as possible.
    let fresh = |set: &[PlayerIdx]| -> usize {
        matching::maximum_matching_size(set.len(), |i, j| rec.why_not(set[i], set[j]).is_none())
    };
    let mut left = pool.to_vec();
    let mut target = fresh(&left);
    ex.step(
        "BG-9",
        format!(
            "no repechage avoids every repeat: {} repeat{} allowed, as few as possible",
            left.len() / 2 - target,
            if left.len() / 2 - target == 1 {
                ""
            } else {
                "s"
            }
        ),
        Vec::new(),
    );
    let mut pairs = Vec::new();
    while let Some(&a) = left.first() {
        let mut chosen = None;
        for &x in &left[1..] {
            let rest: Vec<PlayerIdx> = left.iter().copied().filter(|&p| p != a && p != x).collect();
            let repeat = rec.why_not(a, x);
            let need = if repeat.is_some() {
                target
            } else {
                target.saturating_sub(1)
            };
            if fresh(&rest) == need {
                chosen = Some((x, repeat, need));
                break;
            }
            ex.detail(
                "BG-9",
                format!(
                    "{} drawn for {}: put back (more repeats would follow)",
                    id(x),
                    id(a)
                ),
                vec![a, x],
            );
        }
        let Some((x, repeat, need)) = chosen else {
            break;
        };
        match repeat {
            Some(why) => ex.step(
                "BG-9",
                format!("{} – {}: a repeat ({why}), unavoidable", id(a), id(x)),
                vec![a, x],
            ),
            None => ex.step(
                "BG-9",
                format!("{} drawn, then {}: {} – {}", id(a), id(x), id(a), id(x)),
                vec![a, x],
            ),
        }
        target = need;
        pairs.push((a, x));
        left.retain(|&p| p != a && p != x);
    }
    pairs
}
