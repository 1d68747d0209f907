//! Extended Direct Encounter for teams (C.07 13.3): Direct Encounter (art. 6) among the
//! tied teams on the primary score, and when that separates none of them, on the
//! secondary score (13.3.1); each new subset of tied teams starts again from 13.3.1
//! (13.3.3). Two teams still tied on both match points and game points are then separated
//! by the knock-out tie-breaks of art. 12 the code names (13.3.2): EDEBT = BC then TBR,
//! EDEBB = BC then BBE, EDET = TBR, EDEB = BBE; plain EDE leaves them tied.
//!
//! Direct Encounter as art. 6 states it: the points scored in the matches played among the
//! tied teams (forfeited matches left out, 6.1.1; two teams that met more than once add
//! the average of those matches, 6.1.2). If every tied team met every other, this separate
//! table ranks them (6.2). If not (6.3), a team ranks first when it stays alone on top
//! whatever the missing matches' outcomes, then the same for the next place, and so on;
//! the teams left form one subset.
use super::{Fact, TeamTieBreak, board_ranks};
use crate::model::{PrimaryScore, Score};
use crate::standings::value::Value;

/// The knock-out tie-breaks 13.3.2 applies after EDE to exactly two teams still tied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Knockout {
    /// `EDE`: none (the competition rules name none).
    None,
    /// `EDEBT`: Board Count (12.1), then Top Board Results (12.2).
    BcTbr,
    /// `EDEBB`: Board Count, then Bottom Board Elimination (12.3).
    BcBbe,
    /// `EDET`: Top Board Results.
    Tbr,
    /// `EDEB`: Bottom Board Elimination.
    Bbe,
}

impl Knockout {
    pub fn code(self) -> &'static str {
        match self {
            Knockout::None => "EDE",
            Knockout::BcTbr => "EDEBT",
            Knockout::BcBbe => "EDEBB",
            Knockout::Tbr => "EDET",
            Knockout::Bbe => "EDEB",
        }
    }

    fn sequence(self) -> &'static [TeamTieBreak] {
        match self {
            Knockout::None => &[],
            Knockout::BcTbr => &[TeamTieBreak::BoardCount, TeamTieBreak::TopBoardResult],
            Knockout::BcBbe => &[
                TeamTieBreak::BoardCount,
                TeamTieBreak::BottomBoardElimination,
            ],
            Knockout::Tbr => &[TeamTieBreak::TopBoardResult],
            Knockout::Bbe => &[TeamTieBreak::BottomBoardElimination],
        }
    }
}

/// What EDE reads of the tournament.
pub(super) struct Context<'a> {
    pub facts: &'a [Vec<Fact>],
    pub mp: &'a [Score],
    pub gp: &'a [Score],
    pub primary: PrimaryScore,
    /// The most match points and game points one match can give (6.3's "whatever the
    /// outcome": a missing match may give a team all of it or none).
    pub max_match_mp: Score,
    pub max_match_gp: Score,
    pub board_points: &'a [Vec<Score>],
    pub knockout: Knockout,
    /// `/P`: matches forfeited on every board count as played (6.1.1).
    pub forfeits_played: bool,
}

/// 6.1.2 averages repeated meetings: points are kept in tenths × 2520 (divisible by 1..=10
/// meetings) so the average stays exact.
const SCALE: i64 = 2520;

/// EDE's rank of each team of a tied group (1 first; teams it leaves tied share a rank).
pub(super) fn ranks(group: &[usize], cx: &Context) -> Vec<Value> {
    let parts = order(group.to_vec(), cx);
    let mut rank_of = vec![0i64; group.len()];
    let mut before = 0i64;
    for part in &parts {
        for g in part {
            if let Some(x) = group.iter().position(|h| h == g) {
                rank_of[x] = before + 1;
            }
        }
        before += part.len() as i64;
    }
    rank_of.into_iter().map(Value::int).collect()
}

/// The tied set split into ordered subsets, best first.
fn order(set: Vec<usize>, cx: &Context) -> Vec<Vec<usize>> {
    if set.len() <= 1 {
        return vec![set];
    }
    let secondary = match cx.primary {
        PrimaryScore::MatchPoints => PrimaryScore::GamePoints,
        PrimaryScore::GamePoints => PrimaryScore::MatchPoints,
    };
    // 13.3.1: the primary score, then (only when it separates none) the secondary.
    for score in [cx.primary, secondary] {
        let parts = direct_encounter(&set, score, cx);
        if parts.len() > 1 {
            // 13.3.3: every new subset of tied teams starts again from 13.3.1.
            return parts.into_iter().flat_map(|p| order(p, cx)).collect();
        }
    }
    // 13.3.2: exactly two teams still tied on match points and game points.
    if set.len() == 2 && cx.mp[set[0]] == cx.mp[set[1]] && cx.gp[set[0]] == cx.gp[set[1]] {
        for &tb in cx.knockout.sequence() {
            if let Some(parts) = knockout(&set, tb, cx) {
                return parts;
            }
        }
    }
    vec![set]
}

/// Art. 6 on one score among `set`: the ordered subsets it separates (one subset when it
/// separates none).
fn direct_encounter(set: &[usize], score: PrimaryScore, cx: &Context) -> Vec<Vec<usize>> {
    let n = set.len();
    let mut points = vec![0i64; n];
    let mut unmet = vec![0i64; n];
    for (x, &g) in set.iter().enumerate() {
        for (y, &h) in set.iter().enumerate() {
            if x == y {
                continue;
            }
            // 6.1.1: the matches played over the board only, unless `/P` includes the
            // forfeited ones as played.
            let scores: Vec<i64> = cx.facts[g]
                .iter()
                .filter(|f| (f.played || cx.forfeits_played) && f.opponent == Some(h))
                .map(|f| match score {
                    PrimaryScore::MatchPoints => f.mp.tenths(),
                    PrimaryScore::GamePoints => f.gp.tenths(),
                })
                .collect();
            if scores.is_empty() {
                unmet[x] += 1;
            } else {
                // 6.1.2: the average of the meetings.
                points[x] += scores.iter().sum::<i64>() * SCALE / scores.len() as i64;
            }
        }
    }
    let mut idx: Vec<usize> = (0..n).collect();
    if unmet.iter().all(|&u| u == 0) {
        // 6.2: the separate table ranks them; equal points stay together.
        idx.sort_by_key(|&x| std::cmp::Reverse(points[x]));
        let mut out: Vec<Vec<usize>> = Vec::new();
        let mut last: Option<i64> = None;
        for x in idx {
            match out.last_mut() {
                Some(part) if last == Some(points[x]) => part.push(set[x]),
                _ => out.push(vec![set[x]]),
            }
            last = Some(points[x]);
        }
        return out;
    }
    // 6.3: a team is alone on top whatever the missing matches give when its points with
    // every missing match lost beat every other team's points with every missing match won.
    let max_match = match score {
        PrimaryScore::MatchPoints => cx.max_match_mp,
        PrimaryScore::GamePoints => cx.max_match_gp,
    }
    .tenths()
        * SCALE;
    let best = |x: usize| points[x] + unmet[x] * max_match;
    let mut out = Vec::new();
    let mut left = idx;
    loop {
        let top = left
            .iter()
            .copied()
            .find(|&x| left.iter().all(|&y| y == x || points[x] > best(y)));
        match top {
            Some(x) if left.len() > 1 => {
                out.push(vec![set[x]]);
                left.retain(|&y| y != x);
            }
            _ => break,
        }
    }
    if !left.is_empty() {
        out.push(left.into_iter().map(|x| set[x]).collect());
    }
    out
}

/// One art. 12 tie-break between two teams: the two subsets, better first, or `None` when
/// it does not separate them.
fn knockout(set: &[usize], tb: TeamTieBreak, cx: &Context) -> Option<Vec<Vec<usize>>> {
    let (a, b) = (set[0], set[1]);
    let a_first = match tb {
        TeamTieBreak::BoardCount => {
            // 12.1: Σ board number × game points on that board; the lower sum ranks first.
            let bc = |g: usize| -> i64 {
                cx.board_points[g]
                    .iter()
                    .enumerate()
                    .map(|(k, p)| (k as i64 + 1) * p.tenths())
                    .sum()
            };
            let (x, y) = (bc(a), bc(b));
            if x == y {
                return None;
            }
            x < y
        }
        _ => {
            let r = board_ranks(set, cx.board_points, tb);
            if r[0] == r[1] {
                return None;
            }
            r[0] < r[1]
        }
    };
    Some(if a_first {
        vec![vec![a], vec![b]]
    } else {
        vec![vec![b], vec![a]]
    })
}
