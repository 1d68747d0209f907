//! The pairing search of the simplified Swiss (VZ-2.3, VZ-3.1..VZ-3.5).
//!
//! The rules describe a depth-first search: the first player of the highest score group
//! takes the first allowed candidate in the VZ-3.2 order, and a dead end undoes the last
//! pair and tries its next candidate (VZ-3.4). The result is the first complete pairing
//! in that order. The search here reaches the same pairing without walking into dead
//! ends: before taking a candidate it asks a perfect-matching oracle
//! ([`Matcher`]) whether the players left can still all be paired; a candidate after
//! which they cannot is exactly one the literal search would take and later undo. The
//! explanation reports each such candidate as an undo (VZ-3.4).
use crate::matching::{BitGraph, Matcher};
use crate::model::{PlayerIdx, Score};
use crate::systems::common::History;
use crate::systems::explanation::Explanation;

/// What the search works on: the pairing list (VZ-3.1 order: score descending, starting
/// number ascending) and each listed player's score.
pub struct Input<'a> {
    pub list: &'a [PlayerIdx],
    pub scores: &'a [Score],
    pub history: &'a History,
    /// Whether VZ-4.3 (no third same colour in a row) restricts the pairs.
    pub colour_rule: bool,
    /// Whether the listed player may get the bye (VZ-2.3: nobody gets it twice).
    pub bye_allowed: &'a [bool],
    /// Player ids for messages.
    pub name: &'a dyn Fn(PlayerIdx) -> String,
    /// The weak separations of the round (SEP-5.3: a groupmate is skipped for the next
    /// candidate, `common::weak_candidates`).
    pub weak: &'a crate::model::WeakSeparations,
}

/// A complete pairing, pairs in the order they were made (first player first).
pub struct Outcome {
    pub pairs: Vec<(PlayerIdx, PlayerIdx)>,
    pub bye: Option<PlayerIdx>,
}

/// Why a search found nothing.
pub enum Failure {
    /// Odd field and no player left who may get the bye (VZ-2.3).
    NoByeCandidate,
    /// No complete pairing whichever the bye (VZ-3.5).
    NoPairing,
}

/// VZ-3.1/VZ-3.2: the opponents offered to the first player of a score group (`group`,
/// ordered by starting number, first player first), inside the group: the lower half
/// (the last ⌈g/2⌉) first to last, then the upper half from its last player back to its
/// second. The lower groups follow, first to last.
pub fn group_candidates<T: Copy>(group: &[T]) -> Vec<T> {
    let half = group.len() / 2;
    let lower = group.get(half.max(1)..).unwrap_or(&[]);
    let upper = group.get(1..half).unwrap_or(&[]);
    lower.iter().chain(upper.iter().rev()).copied().collect()
}

/// Why two players may not be paired, if they may not.
pub fn refusal(input: &Input<'_>, a: PlayerIdx, b: PlayerIdx) -> Option<String> {
    let h = input.history;
    if let Some(round) = h.round_met(a, b) {
        return Some(format!("met in round {round} (VZ-2.1)"));
    }
    if h.have_played(a, b) {
        return Some("met before (VZ-2.1)".to_string());
    }
    if h.is_forbidden(a, b) {
        return Some("forbidden pair, treated as having met (CG-10)".to_string());
    }
    if input.colour_rule
        && let Some(c) = h.player(a).last_two_same()
        && h.player(b).last_two_same() == Some(c)
    {
        return Some(format!(
            "both played {c} in their last two games: one would get a third (VZ-4.3)"
        ));
    }
    None
}

/// The graph of allowed pairs over list positions.
fn graph(input: &Input<'_>) -> Matcher<BitGraph> {
    let n = input.list.len();
    let mut g = input.history.may_meet(input.list);
    let h = input.history;
    if input.colour_rule {
        // VZ-4.3: two players who both had the same colour twice in a row cannot be given
        // colours without one of them getting it a third time.
        for colour in [crate::model::Colour::White, crate::model::Colour::Black] {
            let streak: Vec<usize> = (0..n)
                .filter(|&i| h.player(input.list[i]).last_two_same() == Some(colour))
                .collect();
            for (k, &i) in streak.iter().enumerate() {
                for &j in &streak[k + 1..] {
                    g.set_edge(i, j, false);
                }
            }
        }
    }
    Matcher::new(g)
}

/// Runs the search; every step goes into `ex`.
pub fn run(input: &Input<'_>, ex: &mut Explanation) -> Result<Outcome, Failure> {
    let n = input.list.len();
    let order: Vec<usize> = (0..n).collect();
    let base = graph(input);
    let name = input.name;
    let mut bye = None;
    let mut matcher = base.clone();
    if n % 2 == 1 {
        // VZ-2.3: the last player of the lowest score group; VZ-3.4: if the others cannot
        // all be paired, the bye moves up the list, among players who have not had it.
        let mut chosen = None;
        let mut tried_any = false;
        for b in (0..n).rev() {
            let p = input.list[b];
            if !input.bye_allowed[b] {
                ex.detail(
                    "VZ-2.3",
                    format!("{} already had the bye: passed over", name(p)),
                    vec![p],
                );
                continue;
            }
            tried_any = true;
            let mut m = base.clone();
            m.remove(b);
            if m.maximize(&order) == 0 {
                chosen = Some((b, m));
                break;
            }
            ex.step(
                "VZ-3.4",
                format!(
                    "with the bye on {} the other players cannot all be paired: the bye moves up the list",
                    name(p)
                ),
                vec![p],
            );
        }
        let Some((b, m)) = chosen else {
            return Err(if tried_any {
                Failure::NoPairing
            } else {
                Failure::NoByeCandidate
            });
        };
        let p = input.list[b];
        ex.step(
            "VZ-2.3",
            format!(
                "odd number of players: the bye goes to {} (score {}, the lowest placed who may have it)",
                name(p),
                input.scores[b]
            ),
            vec![p],
        );
        bye = Some(p);
        matcher = m;
    } else if matcher.maximize(&order) != 0 {
        return Err(Failure::NoPairing);
    }

    let mut left = vec![true; n];
    if let Some(b) = bye.and_then(|p| input.list.iter().position(|&x| x == p)) {
        left[b] = false;
    }
    let mut pairs = Vec::with_capacity(n / 2);
    let mut first = 0;
    let mut current_score: Option<Score> = None;
    loop {
        crate::cancel::checkpoint();
        while first < n && !left[first] {
            first += 1;
        }
        if first >= n {
            break;
        }
        let pf = input.list[first];
        let score = input.scores[first];
        // The score group of the first player: the players left with his score (VZ-2.2),
        // by starting number (the list's order inside a score).
        let mut end = first;
        while end < n && input.scores[end] == score {
            end += 1;
        }
        let group: Vec<usize> = (first..end).filter(|&i| left[i]).collect();
        if current_score != Some(score) {
            current_score = Some(score);
            ex.group(format!("score group {score}"));
            ex.detail(
                "VZ-3.1",
                format!(
                    "score group {score}: {}",
                    group
                        .iter()
                        .map(|&i| name(input.list[i]))
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
                group.iter().map(|&i| input.list[i]).collect(),
            );
        }
        // VZ-3.1: upper half = the first ⌊g/2⌋, lower half the rest; VZ-3.2: the lower
        // half first to last, the upper half last to second, then the lower groups.
        let half = group.len() / 2;
        let candidates: Vec<usize> = group_candidates(&group)
            .into_iter()
            .chain((end..n).filter(|&i| left[i]))
            .collect();
        // SEP-5.3: the matcher before the pair is taken, to take another candidate.
        let before = (!input.weak.is_empty()).then(|| matcher.clone());
        ex.detail(
            "VZ-3.2",
            format!(
                "{} is first in the group of {} (upper half {}, lower half {}): candidates lower half, upper half backwards, then the lower groups",
                name(pf),
                group.len(),
                half,
                group.len() - half
            ),
            vec![pf],
        );
        let mut taken = None;
        for &c in &candidates {
            let pc = input.list[c];
            if !matcher.graph().edge(first, c) {
                let why = refusal(input, pf, pc).unwrap_or_else(|| "not allowed".to_string());
                ex.detail(
                    "VZ-3.2",
                    format!("{} - {}: {why}", name(pf), name(pc)),
                    vec![pf, pc],
                );
                continue;
            }
            if matcher.take_pair(first, c) {
                taken = Some(c);
                break;
            }
            ex.detail(
                "VZ-3.4",
                format!(
                    "{} - {}: the players left could then not all be paired (dead end): pair undone, next candidate",
                    name(pf),
                    name(pc)
                ),
                vec![pf, pc],
            );
        }
        // The oracle kept a perfect matching, so the first player's mate in it is always
        // a candidate that succeeds.
        let Some(mut c) = taken else {
            return Err(Failure::NoPairing);
        };
        if let Some(before) = before {
            // SEP-5.3: a groupmate is skipped for the next candidate in VZ-3.2's order who
            // is no groupmate and leaves the rest pairable (`WEAK`: in the same score group
            // as the own choice; `WEAK_FIRST`: any later one).
            let own = candidates.iter().position(|&x| x == c).unwrap_or(0);
            let chosen = crate::systems::common::weak_candidates::choose(
                input.weak,
                pf,
                &candidates,
                own,
                |x| input.list[x],
                |x| input.scores[x],
                |x| before.graph().edge(first, x) && before.clone().take_pair(first, x),
            );
            if let Some(&other) = candidates.get(chosen)
                && other != c
            {
                let mut m = before;
                if m.take_pair(first, other) {
                    let group = input
                        .weak
                        .shared_group(pf, input.list[c])
                        .map_or(String::new(), |(_, g)| format!(" ({g})"));
                    ex.step(
                        "SEP-5.3",
                        format!(
                            "{} - {}: same group{group}, weakly separated: the next candidate who is not, {}",
                            name(pf),
                            name(input.list[c]),
                            name(input.list[other])
                        ),
                        vec![pf, input.list[c], input.list[other]],
                    );
                    matcher = m;
                    c = other;
                }
            }
        }
        let pc = input.list[c];
        let floated = if input.scores[c] != score {
            format!(" (from score group {})", input.scores[c])
        } else {
            String::new()
        };
        ex.step(
            "VZ-3.3",
            format!("{} - {}{floated}", name(pf), name(pc)),
            vec![pf, pc],
        );
        left[first] = false;
        left[c] = false;
        pairs.push((pf, pc));
    }
    Ok(Outcome { pairs, bye })
}

#[cfg(test)]
mod tests {
    use super::group_candidates;

    #[test]
    fn vz_3_2_candidate_order_of_a_group_of_eight() {
        let group: Vec<u32> = (1..=8).collect();
        assert_eq!(group_candidates(&group), vec![5, 6, 7, 8, 4, 3, 2]);
    }

    #[test]
    fn vz_3_2_candidate_order_of_small_and_odd_groups() {
        // Odd: the lower half is the larger one (VZ-3.1).
        assert_eq!(
            group_candidates(&[1, 2, 3, 4, 5, 6, 7]),
            vec![4, 5, 6, 7, 3, 2]
        );
        assert_eq!(group_candidates(&[1, 2, 3]), vec![2, 3]);
        assert_eq!(group_candidates(&[1, 2]), vec![2]);
        // Alone: nobody in the group; the lower groups follow.
        assert_eq!(group_candidates(&[1]), Vec::<i32>::new());
    }
}
