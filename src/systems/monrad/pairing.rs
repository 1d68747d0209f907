//! One Monrad round: the list (MON-1, MON-2), the bye (MON-4), the pairs (MON-3) and the
//! colours (MON-5).
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::options::{FirstRound, Options, TieBreak};
use crate::matching::{BitGraph, Matcher, has_perfect_matching};
use crate::model::{Colour, PlayerIdx, Score};
use crate::systems::common::club_game::Game;
use crate::systems::{Board, ByeAssignment, History, PairError, RoundPairing, RoundToPair};

/// Lot domain of round 1's list (MON-1), so that it shares no lots with other draws.
const LOT_DOMAIN: u64 = 0x4d4f_4e2d_3100_0000;

/// The round's list, best first (MON-1, MON-2).
pub fn list(r: &RoundToPair, h: &History, options: &Options) -> Vec<PlayerIdx> {
    let t = &r.tournament;
    let mut list = r.participants.clone();
    list.sort_by_key(|&p| t.pairing_number(p));
    if r.number == 1 {
        if options.first_round == FirstRound::Lot {
            let mut rng = ChaCha8Rng::seed_from_u64(r.seed ^ LOT_DOMAIN);
            list.shuffle(&mut rng);
        }
        return list;
    }
    let score = |p: PlayerIdx| h.players[p].pairing_points;
    let buchholz = |p: PlayerIdx| -> Score {
        match options.tie_break {
            TieBreak::PairingNumber => Score::ZERO,
            TieBreak::Buchholz => h.players[p]
                .opponents
                .iter()
                .map(|&o| h.players[o].pairing_points)
                .sum(),
        }
    };
    list.sort_by(|&a, &b| {
        score(b)
            .cmp(&score(a))
            .then(buchholz(b).cmp(&buchholz(a)))
            .then(t.pairing_number(a).cmp(&t.pairing_number(b)))
    });
    list
}

/// Pairs the round.
pub fn pair(r: &RoundToPair, options: &Options) -> Result<RoundPairing, PairError> {
    let t = &r.tournament;
    let h = History::build(r);
    let colourless = options.game == Game::Backgammon;
    let mut out = RoundPairing {
        colourless,
        match_length: options.match_length,
        ..RoundPairing::default()
    };
    let ex = &mut out.explanation;
    ex.group(format!("round {}", r.number));
    let mut list = list(r, &h, options);
    let named = |p: PlayerIdx| {
        if r.number == 1 {
            format!("{} (#{})", r.id(p), t.pairing_number(p))
        } else {
            format!("{} ({})", r.id(p), h.players[p].pairing_points)
        }
    };
    let written: Vec<String> = list.iter().map(|&p| named(p)).collect();
    if r.number == 1 {
        let how = match options.first_round {
            FirstRound::Rating => "by pairing number (rating)".to_string(),
            FirstRound::Lot => format!("by lot (seed {})", r.seed),
        };
        ex.step(
            "MON-1",
            format!("round 1's list {how}: {}", written.join(", ")),
            list.clone(),
        );
    } else {
        let how = match options.tie_break {
            TieBreak::PairingNumber => "score, then pairing number",
            TieBreak::Buchholz => "score, then Buchholz, then pairing number",
        };
        ex.step(
            "MON-2",
            format!("the standings ({how}): {}", written.join(", ")),
            list.clone(),
        );
    }
    if colourless {
        ex.detail(
            "MON-6",
            match options.match_length {
                Some(len) => format!("backgammon: no colours, matches to {len} points"),
                None => "backgammon: no colours".to_string(),
            },
            Vec::new(),
        );
    }
    let may_meet = |a: PlayerIdx, b: PlayerIdx| !h.may_not_meet(a, b);

    // MON-4: the bye to the lowest-listed player who has not had one, and after whose
    // removal everyone else can be paired without a rematch.
    let mut bye = None;
    if list.len() % 2 == 1 {
        for i in (0..list.len()).rev() {
            let p = list[i];
            if !h.pab_eligible(p, t.scoring.win) {
                ex.detail(
                    "MON-4",
                    format!(
                        "{} had a bye (or a win without playing): no second bye",
                        r.id(p)
                    ),
                    vec![p],
                );
                continue;
            }
            let rest: Vec<PlayerIdx> = list.iter().copied().filter(|&q| q != p).collect();
            if has_perfect_matching(rest.len(), |a, b| may_meet(rest[a], rest[b])) {
                bye = Some(p);
                break;
            }
            ex.step(
                "MON-4",
                format!(
                    "with the bye to {}, the others cannot all be paired without a rematch: the bye goes further up",
                    r.id(p)
                ),
                vec![p],
            );
        }
        let Some(p) = bye else {
            return Err(PairError::NoLegalPairing {
                rule: "MON-4".to_string(),
                message: format!(
                    "round {}: no player who has not had a bye can take it with the others all paired without a rematch (MON-3, MON-4)",
                    r.number
                ),
                explanation: out.explanation.clone(),
            });
        };
        ex.step(
            "MON-4",
            format!("bye: {}, the lowest-listed player without a bye", r.id(p)),
            vec![p],
        );
        list.retain(|&q| q != p);
    }

    // MON-3: down the list, each takes the next he may meet, backtracking as needed.
    let n = list.len();
    let graph = BitGraph::from_fn(n, |a, b| may_meet(list[a], list[b]));
    let mut matcher = Matcher::new(graph);
    let later = |v: usize, k: usize| Some(v + 1 + k).filter(|&u| u < n);
    if !matcher.complete(&later) {
        return Err(PairError::NoLegalPairing {
            rule: "MON-3".to_string(),
            message: format!(
                "round {}: the players cannot all be paired without a rematch (MON-3)",
                r.number
            ),
            explanation: out.explanation.clone(),
        });
    }
    let mut taken = vec![false; n];
    let mut pairs = Vec::with_capacity(n / 2);
    // MON-7 (SEP-5.3): the weak separations of the round; empty without one, and then the
    // procedure runs exactly as before.
    let weak = t.weak_separations(r.number);
    for i in 0..n {
        if taken[i] {
            continue;
        }
        let a = list[i];
        // SEP-5.3: the matcher before the pair is taken, to take another candidate.
        let before = (!weak.is_empty()).then(|| matcher.clone());
        let mut skipped = Vec::new();
        let mut partner = None;
        for (j, &done) in taken.iter().enumerate().skip(i + 1) {
            if done {
                continue;
            }
            if matcher.take_pair(i, j) {
                partner = Some(j);
                break;
            }
            skipped.push(j);
        }
        let Some(mut j) = partner else {
            return Err(PairError::Internal(format!(
                "Monrad: {} found no partner although a complete pairing exists",
                r.id(a)
            )));
        };
        if let Some(before) = before {
            // MON-7 (SEP-5.3): a groupmate is passed over for the next player below in the
            // list, of the groupmate's score (nobody floats further to avoid him), who is
            // no groupmate and leaves the rest pairable; none, and the groupmate stays.
            let candidates: Vec<usize> = (i + 1..n).filter(|&x| !taken[x]).collect();
            let own = candidates.iter().position(|&x| x == j).unwrap_or(0);
            let chosen = crate::systems::common::weak_candidates::choose(
                &weak,
                a,
                &candidates,
                own,
                |x| list[x],
                |x| h.players[list[x]].pairing_points,
                |x| before.clone().take_pair(i, x),
            );
            // `WEAK_LAST` (MON-7): only for a player of the groupmate's score with whom the
            // pair's colours meet as many dues (MON-5) as with the groupmate.
            let points = |x: usize| h.players[list[x]].pairing_points;
            let k = pairs.len();
            let dues_met = |x: usize| colour_dues_met(r, &h, a, list[x], k);
            let chosen = crate::systems::common::weak_candidates::choose_last(
                &weak,
                a,
                &candidates,
                chosen,
                |x| list[x],
                |x, y| points(x) == points(y) && dues_met(y) >= dues_met(x),
                |x| before.clone().take_pair(i, x),
            );
            if let Some(&other) = candidates.get(chosen)
                && other != j
            {
                let mut m = before;
                if m.take_pair(i, other) {
                    let (b, c) = (list[j], list[other]);
                    let group = weak
                        .shared_group(a, b)
                        .map_or(String::new(), |(_, g)| format!(" ({g})"));
                    let of = if points(other) == points(j) {
                        "of the same score"
                    } else {
                        "of any score (placed first)"
                    };
                    ex.step(
                        "MON-7",
                        format!(
                            "{} passes over {}: same group{group}, weakly separated (SEP-5.3): the next player below {of} who is not, {}",
                            r.id(a),
                            r.id(b),
                            r.id(c)
                        ),
                        vec![a, b, c],
                    );
                    matcher = m;
                    j = other;
                }
            }
        }
        taken[i] = true;
        taken[j] = true;
        let b = list[j];
        for &s in &skipped {
            let q = list[s];
            let why = if h.have_played(a, q) {
                format!("{} and {} have met", r.id(a), r.id(q))
            } else if h.is_forbidden(a, q) {
                format!("{} and {} may not meet (CG-10)", r.id(a), r.id(q))
            } else {
                format!(
                    "{} - {} would leave players below who cannot all be paired without a rematch: backtrack",
                    r.id(a),
                    r.id(q)
                )
            };
            ex.step("MON-3", why, vec![a, q]);
        }
        pairs.push((a, b));
    }

    for (k, &(a, b)) in pairs.iter().enumerate() {
        let (white, black, why) = if colourless {
            (a, b, String::new())
        } else {
            colours(r, &h, a, b, k)
        };
        let message = if colourless {
            format!("{} - {}", named(a), named(b))
        } else {
            format!("{} - {}: {why}", named(white), named(black))
        };
        ex.detail(
            if colourless { "MON-3" } else { "MON-5" },
            message,
            vec![a, b],
        );
        out.boards.push(Board { white, black });
    }
    if let Some(p) = bye {
        out.byes.push(ByeAssignment::pab(p, &t.scoring));
    }
    Ok(out)
}

/// A player's colour due (MON-5): the colour that evens his whites and blacks, else the
/// one he did not have last; with its strength (the colour difference, 0 for alternation
/// only); `None` before his first game.
fn due(h: &History, p: PlayerIdx) -> Option<(Colour, i32)> {
    let ph = &h.players[p];
    let diff = ph.colour_difference();
    if diff > 0 {
        Some((Colour::Black, diff))
    } else if diff < 0 {
        Some((Colour::White, -diff))
    } else {
        ph.last_colour().map(|c| (c.opposite(), 0))
    }
}

/// MON-7's `WEAK_LAST`: how many of `a` (listed higher) and `b` get their due colour
/// (MON-5) on board `k`.
fn colour_dues_met(r: &RoundToPair, h: &History, a: PlayerIdx, b: PlayerIdx, k: usize) -> usize {
    let (white, black, _) = colours(r, h, a, b, k);
    usize::from(matches!(due(h, white), Some((Colour::White, _))))
        + usize::from(matches!(due(h, black), Some((Colour::Black, _))))
}

/// Colours of board `k` (0-based) between `a`, listed higher, and `b` (MON-5): round 1
/// alternates by board from the first-round colour (CG-8); later both dues are met when
/// they differ, else the stronger due wins, and on equal dues the higher-listed player's.
fn colours(
    r: &RoundToPair,
    h: &History,
    a: PlayerIdx,
    b: PlayerIdx,
    k: usize,
) -> (PlayerIdx, PlayerIdx, String) {
    let by_board = || {
        if k.is_multiple_of(2) {
            r.initial_colour
        } else {
            r.initial_colour.opposite()
        }
    };
    let orient = |a_colour: Colour, why: String| {
        if a_colour == Colour::White {
            (a, b, why)
        } else {
            (b, a, why)
        }
    };
    match (due(h, a), due(h, b)) {
        (None, None) => orient(
            by_board(),
            format!(
                "neither has played: the higher-listed takes {} (board {}, alternating from the first-round colour)",
                by_board(),
                k + 1
            ),
        ),
        (Some((ca, _)), Some((cb, _))) if ca != cb => {
            orient(ca, "both get their due colours".to_string())
        }
        (Some((ca, sa)), Some((_, sb))) => {
            if sb > sa {
                orient(
                    ca.opposite(),
                    format!("both are due {ca}: the lower-listed is due it more strongly"),
                )
            } else if sa > sb {
                orient(
                    ca,
                    format!("both are due {ca}: the higher-listed is due it more strongly"),
                )
            } else {
                orient(
                    ca,
                    format!("both are due {ca} equally: the higher-listed gets it"),
                )
            }
        }
        (Some((ca, _)), None) => orient(ca, format!("the higher-listed is due {ca}")),
        (None, Some((cb, _))) => orient(cb.opposite(), format!("the lower-listed is due {cb}")),
    }
}
