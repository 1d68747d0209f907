//! One Keizer round (KZ-4, KZ-5): the present players in Keizer order, the bye, the pairs
//! top-down with the nearest opponent each may meet, then the colours.
use super::options::KeizerOptions;
use super::score::{Convergence, Ranking};
use crate::matching::{BitGraph, Matcher};
use crate::model::{ByeKind, Colour, PlayerIdx, RoundEntry};
use crate::systems::common::History;
use crate::systems::{Board, ByeAssignment, PairError, RoundPairing, RoundToPair, Warning};

/// The round in which `a` last met `b` over the board, before the round being paired.
fn last_meeting(history: &History, a: PlayerIdx, b: PlayerIdx) -> Option<u32> {
    history
        .player(a)
        .entries
        .iter()
        .rposition(|e| e.met_opponent() == Some(b))
        .map(|i| i as u32 + 1)
}

/// Games `p` played over the board after round `round`.
fn games_since(history: &History, p: PlayerIdx, round: u32) -> u32 {
    history
        .player(p)
        .entries
        .iter()
        .skip(round as usize)
        .filter(|e| e.played_colour().is_some())
        .count() as u32
}

/// Why two players may not meet again in round `number` (KZ-4.2), if they may not: they
/// met within the last `rematch_rounds` rounds, or one of them has played fewer than
/// `rematch_games` other games since they met.
pub fn rematch_bar(
    o: &KeizerOptions,
    history: &History,
    number: u32,
    a: PlayerIdx,
    b: PlayerIdx,
) -> Option<String> {
    let met = last_meeting(history, a, b)?;
    if o.rematch_rounds > 0 && number.saturating_sub(met) <= o.rematch_rounds {
        return Some(format!(
            "they met in round {met}, within the last {} rounds",
            o.rematch_rounds
        ));
    }
    if o.rematch_games > 0 {
        let fewest = games_since(history, a, met).min(games_since(history, b, met));
        if fewest < o.rematch_games {
            return Some(format!(
                "they met in round {met} and one of them has played {fewest} other games since, fewer than {}",
                o.rematch_games
            ));
        }
    }
    None
}

/// Whether giving `p` colour `c` breaks a colour limit (KZ-5.1).
pub fn breaks_colour_limits(o: &KeizerOptions, history: &History, p: PlayerIdx, c: Colour) -> bool {
    let h = history.player(p);
    let limit = o.same_colour_limit as usize;
    let run = limit > 0
        && h.colours.len() >= limit
        && h.colours[h.colours.len() - limit..].iter().all(|&x| x == c);
    let diff = h.colour_difference() + if c == Colour::White { 1 } else { -1 };
    let beyond = o.colour_difference_limit > 0 && diff.unsigned_abs() > o.colour_difference_limit;
    run || beyond
}

/// The colour `p` is due (KZ-5.2): the one played less; equal, the other than the last;
/// none before a first game. With the size of the claim (the colour difference).
fn due(history: &History, p: PlayerIdx) -> Option<(Colour, u32)> {
    let h = history.player(p);
    let d = h.colour_difference();
    match d.cmp(&0) {
        std::cmp::Ordering::Less => Some((Colour::White, d.unsigned_abs())),
        std::cmp::Ordering::Greater => Some((Colour::Black, d.unsigned_abs())),
        std::cmp::Ordering::Equal => h.last_colour().map(|c| (c.opposite(), 0)),
    }
}

/// Who pairs this round and on what terms.
struct Round<'a> {
    r: &'a RoundToPair,
    o: &'a KeizerOptions,
    ranking: &'a Ranking,
    history: History,
    /// The present players in Keizer order (vertex i of the graph is `present[i]`).
    present: Vec<PlayerIdx>,
}

impl Round<'_> {
    fn name(&self, p: PlayerIdx) -> String {
        format!("{} (#{})", self.r.id(p), self.ranking.rank[p])
    }

    /// Why `a` may not meet `b` this round, if he may not: a forbidden pair (CG-10), the
    /// re-meeting rule (KZ-4.2), or no colours within the limits (KZ-5.1).
    fn bar(&self, a: PlayerIdx, b: PlayerIdx) -> Option<(&'static str, String)> {
        if self.history.is_forbidden(a, b) {
            return Some(("CG-10", "a forbidden pairing".to_string()));
        }
        if let Some(why) = rematch_bar(self.o, &self.history, self.r.number, a, b) {
            return Some(("KZ-4.2", why));
        }
        if self.assignments(a, b).is_empty() {
            return Some((
                "KZ-5.1",
                "no colours within the colour limits for both".to_string(),
            ));
        }
        None
    }

    /// The colours (of `a`) that keep both players within the limits.
    fn assignments(&self, a: PlayerIdx, b: PlayerIdx) -> Vec<Colour> {
        [Colour::White, Colour::Black]
            .into_iter()
            .filter(|&c| {
                !breaks_colour_limits(self.o, &self.history, a, c)
                    && !breaks_colour_limits(self.o, &self.history, b, c.opposite())
            })
            .collect()
    }

    fn graph(&self) -> BitGraph {
        let present = &self.present;
        BitGraph::from_fn(present.len(), |i, j| {
            self.bar(present[i], present[j]).is_none()
        })
    }

    /// Pairing-allocated byes each present player had.
    fn pabs(&self, p: PlayerIdx) -> usize {
        self.history
            .player(p)
            .entries
            .iter()
            .filter(|e| matches!(e, RoundEntry::Bye(ByeKind::Pab)))
            .count()
    }
}

fn no_pairing(rule: &str, message: String, out: RoundPairing) -> PairError {
    PairError::NoLegalPairing {
        rule: rule.to_string(),
        message,
        explanation: out.explanation,
    }
}

/// Pairs the round (KZ-4, KZ-5) with the ranking of the rounds before it.
pub fn pair(
    r: &RoundToPair,
    o: &KeizerOptions,
    ranking: &Ranking,
) -> Result<RoundPairing, PairError> {
    let mut present = r.participants.clone();
    present.sort_by_key(|&p| ranking.rank[p]);
    let round = Round {
        r,
        o,
        ranking,
        history: History::build(r),
        present,
    };
    let mut out = RoundPairing {
        round: r.number,
        ..RoundPairing::default()
    };
    explain_ranking(&round, &mut out);
    let n = round.present.len();
    let graph = round.graph();
    // Vertex i's candidates in Keizer order: the players ranked below it, nearest first.
    let nearest_first = |v: usize, k: usize| (v + 1 + k < n).then_some(v + 1 + k);

    out.explanation.group("bye");
    let mut matcher = Matcher::new(graph.clone());
    let mut bye = None;
    if n % 2 == 1 {
        // KZ-4.3: the fewest pairing-allocated byes, then the lowest ranked; the first for
        // whom the others can all be paired.
        let mut candidates: Vec<usize> = (0..n).collect();
        candidates.sort_by_key(|&i| (round.pabs(round.present[i]), std::cmp::Reverse(i)));
        for &i in &candidates {
            let mut m = Matcher::new(graph.clone());
            m.remove(i);
            if m.complete(&nearest_first) {
                bye = Some(i);
                matcher = m;
                break;
            }
            let p = round.present[i];
            out.explanation.step(
                "KZ-4.3",
                format!(
                    "{} would take the bye, but the others could not all be paired",
                    round.name(p)
                ),
                vec![p],
            );
        }
        let Some(i) = bye else {
            return Err(no_pairing(
                "KZ-4.3",
                format!(
                    "round {}: with any player on the bye, the others cannot all be paired under the re-meeting rule (rematch_rounds {}, rematch_games {}), the colour limits and the forbidden pairings",
                    r.number, o.rematch_rounds, o.rematch_games
                ),
                out,
            ));
        };
        let p = round.present[i];
        out.explanation.step(
            "KZ-4.3",
            format!(
                "{} gets the bye: {} pairing-allocated byes so far, the fewest, and the lowest ranked of those",
                round.name(p),
                round.pabs(p)
            ),
            vec![p],
        );
        out.byes.push(ByeAssignment::pab(p, &r.tournament.scoring));
    } else if !matcher.complete(&nearest_first) {
        return Err(no_pairing(
            "KZ-4.2",
            format!(
                "round {}: the present players cannot all be paired under the re-meeting rule (rematch_rounds {}, rematch_games {}), the colour limits and the forbidden pairings; a smaller rematch_rounds may allow it",
                r.number, o.rematch_rounds, o.rematch_games
            ),
            out,
        ));
    } else {
        out.explanation
            .detail("KZ-4.3", "an even number present: no bye", Vec::new());
    }

    out.explanation.group("pairs");
    // KZ-4.4 (SEP-5.3): the weak separations of the round; empty without one, and then the
    // procedure runs exactly as before.
    let weak = r.tournament.weak_separations(r.number);
    let mut pairs = Vec::new();
    for i in 0..n {
        if !matcher.is_alive(i) {
            continue;
        }
        let a = round.present[i];
        // SEP-5.3: the matcher before the pair is taken, to take another candidate.
        let before = (!weak.is_empty()).then(|| matcher.clone());
        // The players passed over, each with the rule that passed him over.
        let mut skipped: Vec<(PlayerIdx, &'static str, String)> = Vec::new();
        let mut partner = None;
        for j in i + 1..n {
            if !matcher.is_alive(j) {
                continue;
            }
            let b = round.present[j];
            if let Some((rule, why)) = round.bar(a, b) {
                skipped.push((b, rule, why));
                continue;
            }
            if matcher.take_pair(i, j) {
                partner = Some(j);
                break;
            }
            skipped.push((
                b,
                "KZ-4.1",
                "the players below could not all be paired then".to_string(),
            ));
        }
        let Some(mut j) = partner else {
            return Err(PairError::Internal(format!(
                "round {}: a complete pairing existed but {} found no partner",
                r.number,
                r.id(a)
            )));
        };
        if let Some(before) = before {
            // KZ-4.4 (SEP-5.3): a groupmate is passed over for the next player ranked
            // below who is no groupmate and leaves the rest pairable (Keizer has no score
            // groups: any later one); none, and the groupmate stays.
            let candidates: Vec<usize> = (i + 1..n).filter(|&x| before.is_alive(x)).collect();
            let own = candidates.iter().position(|&x| x == j).unwrap_or(0);
            let legal = |x: usize| {
                round.bar(a, round.present[x]).is_none() && before.clone().take_pair(i, x)
            };
            // `WEAK_FIRST` means the same here (KZ-4.4): any later player already.
            let chosen = crate::systems::common::weak_candidates::choose(
                &weak,
                a,
                &candidates,
                own,
                |x| round.present[x],
                |_| (),
                legal,
            );
            // `WEAK_LAST` (KZ-4.4): only for a player of the same Keizer score (KZ-3), whom
            // the ranking places apart by its tie order alone.
            let score = |x: usize| round.ranking.score[round.present[x]];
            let chosen = crate::systems::common::weak_candidates::choose_last(
                &weak,
                a,
                &candidates,
                chosen,
                |x| round.present[x],
                |x, y| score(x) == score(y),
                legal,
            );
            if let Some(&other) = candidates.get(chosen)
                && other != j
            {
                let mut m = before;
                if m.take_pair(i, other) {
                    let (b, c) = (round.present[j], round.present[other]);
                    let group = weak
                        .shared_group(a, b)
                        .map_or(String::new(), |(_, g)| format!(" ({g})"));
                    out.explanation.step(
                        "KZ-4.4",
                        format!(
                            "{} passes over {}: same group{group}, weakly separated (SEP-5.3): the next player ranked below who is not, {}",
                            round.name(a),
                            round.name(b),
                            round.name(c)
                        ),
                        vec![a, b, c],
                    );
                    matcher = m;
                    j = other;
                }
            }
        }
        let b = round.present[j];
        // The board's decision first (what "why not?" reads as the procedure's step for
        // the pair), then each player passed over.
        if skipped.is_empty() {
            out.explanation.step(
                "KZ-4.1",
                format!(
                    "{} meets {}, the nearest present player ranked below",
                    round.name(a),
                    round.name(b)
                ),
                vec![a, b],
            );
        } else {
            out.explanation.step(
                "KZ-4.2",
                format!(
                    "{} meets {}, the nearest he may meet ({} nearer passed over)",
                    round.name(a),
                    round.name(b),
                    skipped.len()
                ),
                vec![a, b],
            );
        }
        for (c, rule, why) in skipped {
            out.explanation.step(
                rule,
                format!("{} passes over {}: {why}", round.name(a), round.name(c)),
                vec![a, c],
            );
        }
        pairs.push((a, b));
    }

    out.explanation.group("colours");
    for (k, &(a, b)) in pairs.iter().enumerate() {
        let board = k as u32 + 1;
        let (a_colour, rule, why) = colours(&round, a, b, board);
        let (white, black) = if a_colour == Colour::White {
            (a, b)
        } else {
            (b, a)
        };
        out.explanation.step(
            rule,
            format!(
                "board {board}: {} - {}: {why}",
                round.name(white),
                round.name(black)
            ),
            vec![white, black],
        );
        out.boards.push(Board { white, black });
    }
    Ok(out)
}

/// KZ-5: the colour of `a` (ranked above `b`) on board `board`, the rule and the reason.
fn colours(
    round: &Round,
    a: PlayerIdx,
    b: PlayerIdx,
    board: u32,
) -> (Colour, &'static str, String) {
    let allowed = round.assignments(a, b);
    if allowed.len() == 1 {
        return (
            allowed[0],
            "KZ-5.1",
            "the only colours within the colour limits".to_string(),
        );
    }
    match (due(&round.history, a), due(&round.history, b)) {
        (Some((x, _)), Some((y, _))) if x != y => {
            (x, "KZ-5.2", "each gets the colour he is due".to_string())
        }
        (Some((x, sa)), Some((_, sb))) => {
            if sb > sa {
                (
                    x.opposite(),
                    "KZ-5.3",
                    "both are due the same colour: the larger colour difference gets it"
                        .to_string(),
                )
            } else if sa > sb {
                (
                    x,
                    "KZ-5.3",
                    "both are due the same colour: the larger colour difference gets it"
                        .to_string(),
                )
            } else {
                (
                    x,
                    "KZ-5.3",
                    "both are due the same colour, equally: the higher ranked gets it".to_string(),
                )
            }
        }
        (Some((x, _)), None) => (
            x,
            "KZ-5.2",
            "the colour the higher ranked is due".to_string(),
        ),
        (None, Some((y, _))) => (
            y.opposite(),
            "KZ-5.2",
            "the colour the lower ranked is due".to_string(),
        ),
        (None, None) => {
            let c = if board % 2 == 1 {
                round.r.initial_colour
            } else {
                round.r.initial_colour.opposite()
            };
            (
                c,
                "KZ-5.4",
                format!(
                    "no colour history: the higher ranked gets {} on {} boards",
                    c,
                    if board % 2 == 1 { "odd" } else { "even" }
                ),
            )
        }
    }
}

/// The ranking the round is paired by, in the explanation (KZ-3).
fn explain_ranking(round: &Round, out: &mut RoundPairing) {
    let ranking = round.ranking;
    let r = round.r;
    out.explanation.group("ranking");
    let how = match ranking.convergence {
        Convergence::Stable => format!(
            "the ranking after round {} is stable after {} computation(s) of values and scores",
            ranking.rounds, ranking.iterations
        ),
        // A cycle is common (two players who drew swap places with every computation):
        // the rule decides it, so it is explained, not warned about.
        Convergence::Cycle { length } => format!(
            "the ranking after round {} cycles among {length} orders (found after {} computations): the first order repeated is used, with the scores it was sorted by",
            ranking.rounds, ranking.iterations
        ),
        Convergence::Capped => {
            let message = format!(
                "the ranking after round {} did not repeat within {} computations: the last one is used",
                ranking.rounds, ranking.iterations
            );
            out.warnings
                .push(Warning::new("RULE_RELAXED", "KZ-3.3", message.clone()));
            message
        }
    };
    out.explanation.step("KZ-3.3", how, Vec::new());
    let mut paired = vec![false; r.tournament.players.len()];
    for &p in &r.participants {
        paired[p] = true;
    }
    // Every ranked player is named, so every one is listed with the step.
    let lines: Vec<String> = ranking
        .order
        .iter()
        .map(|&p| {
            format!(
                "{}. {} score {} value {}{}",
                ranking.rank[p],
                r.id(p),
                ranking.score_text(p),
                ranking.value[p],
                if paired[p] { "" } else { " (not paired)" }
            )
        })
        .collect();
    out.explanation
        .detail("KZ-2", lines.join("; "), ranking.order.clone());
}
