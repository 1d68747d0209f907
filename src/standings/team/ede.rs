//! Direct Encounter for teams (C.07 art. 6 via art. 13) and Extended Direct Encounter
//! (13.3), one routine for both.
//!
//! Direct Encounter as art. 6 states it: the points scored in the matches played among the
//! tied teams (forfeited matches left out, 6.1.1; two teams that met more than once add
//! the average of those matches, 6.1.2). If every tied team met every other, this separate
//! table ranks them (6.2). If not (6.3), a team ranks first when it stays alone on top
//! whatever the missing matches' outcomes, then the same for the next place, and so on;
//! the teams left form one subset. Every subset of teams still tied starts again (DE on the
//! primary score only).
//!
//! EDE: DE among the tied teams on the primary score, and when that separates none of them,
//! on the secondary score (13.3.1); each new subset of tied teams starts again from 13.3.1
//! (13.3.3). Two teams that 13.3.1 leaves tied are then separated by the knock-out
//! tie-breaks of art. 12 the code names (13.3.2): EDEBT = BC then TBR, EDEBB = BC then BBE,
//! EDET = TBR, EDEB = BBE; plain EDE leaves them tied. As FIDE's checker (Gacrux) reads
//! 13.3.2, these count the boards of the match(es) between those two teams (their direct
//! encounter: played matches, or forfeited ones too with `/P`, repeated meetings averaged
//! as 6.1.2), whatever their event game points; two teams that never met stay tied
//! (docs/decisions.md).
use super::Fact;
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

    /// The comparisons, in order, for `boards` boards: BC (12.1) is one; TBR (12.2) board
    /// 1, then board 2, ...; BBE (12.3) every board but the bottom one, then without the
    /// two bottom ones, ... down to board 1.
    fn steps(self, boards: usize) -> Vec<Step> {
        let tbr = (0..boards).map(Step::Board);
        let bbe = (1..boards).rev().map(Step::TopBoards);
        match self {
            Knockout::None => Vec::new(),
            Knockout::BcTbr => std::iter::once(Step::BoardCount).chain(tbr).collect(),
            Knockout::BcBbe => std::iter::once(Step::BoardCount).chain(bbe).collect(),
            Knockout::Tbr => tbr.collect(),
            Knockout::Bbe => bbe.collect(),
        }
    }
}

/// One comparison of art. 12 on a match's boards (higher is better).
#[derive(Clone, Copy, Debug)]
enum Step {
    /// 12.1: Σ board number × game points, the lower first (negated here).
    BoardCount,
    /// 12.2: the game points on this board (0 = board 1).
    Board(usize),
    /// 12.3: the game points on the first this many boards.
    TopBoards(usize),
}

impl Step {
    /// The step's value of one match's boards, in tenths.
    fn of(self, boards: &[Score]) -> i64 {
        let at = |b: usize| boards.get(b).map_or(0, |p| p.tenths());
        match self {
            Step::BoardCount => -(0..boards.len())
                .map(|b| (b as i64 + 1) * at(b))
                .sum::<i64>(),
            Step::Board(b) => at(b),
            Step::TopBoards(n) => (0..n).map(at).sum(),
        }
    }
}

/// What DE and EDE read of the tournament.
pub(super) struct Context<'a> {
    /// Each team's rounds (`facts[team][round]`).
    pub facts: &'a [Vec<Fact>],
    pub primary: PrimaryScore,
    /// EDE (13.3: the secondary score, then the knock-out tie-breaks); `false` for DE.
    pub extended: bool,
    /// The most match points and game points one match can give (6.3's "whatever the
    /// outcome": a missing match may give a team all of it or none).
    pub max_match_mp: Score,
    pub max_match_gp: Score,
    /// Each team's game points on each board of its match in each round
    /// (`match_boards[team][round]`, board 1 first; empty without a match).
    pub match_boards: &'a [Vec<Vec<Score>>],
    /// The boards of a match (art. 12's comparisons).
    pub boards: usize,
    pub knockout: Knockout,
    /// `/P`: matches forfeited on every board count as played (6.1.1).
    pub forfeits_played: bool,
}

/// 6.1.2 averages repeated meetings: points are kept in tenths × 2520 (divisible by 1..=10
/// meetings) so the average stays exact.
const SCALE: i64 = 2520;

/// DE's or EDE's rank of each team of a tied group: 1 first, teams it leaves tied sharing a
/// rank; 0 for every team when it separates none of them.
pub(super) fn ranks(group: &[usize], cx: &Context) -> Vec<Value> {
    let parts = order(group.to_vec(), cx);
    let mut rank_of = vec![0i64; group.len()];
    if parts.len() <= 1 {
        return rank_of.into_iter().map(Value::int).collect();
    }
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
    // 13.3.1: the primary score, then (only when it separates none) the secondary; DE the
    // primary score only.
    let scores = if cx.extended {
        vec![cx.primary, secondary]
    } else {
        vec![cx.primary]
    };
    for score in scores {
        let parts = direct_encounter(&set, score, cx);
        if parts.len() > 1 {
            // 13.3.3: every new subset of tied teams starts again from 13.3.1.
            return parts.into_iter().flat_map(|p| order(p, cx)).collect();
        }
    }
    // 13.3.2: exactly two teams still tied, on the boards of their own match(es).
    if cx.extended && set.len() == 2 {
        for step in cx.knockout.steps(cx.boards) {
            if let Some(parts) = knockout(&set, step, cx) {
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

/// One art. 12 comparison between two teams on the boards of their meetings (the average
/// of repeated ones, 6.1.2): the two subsets, better first, or `None` when it does not
/// separate them or they never met.
fn knockout(set: &[usize], step: Step, cx: &Context) -> Option<Vec<Vec<usize>>> {
    let (a, b) = (set[0], set[1]);
    let value = |g: usize, h: usize| -> Option<i64> {
        let meetings: Vec<i64> = cx.facts[g]
            .iter()
            .enumerate()
            .filter(|(_, f)| (f.played || cx.forfeits_played) && f.opponent == Some(h))
            .map(|(r, _)| {
                let boards = cx
                    .match_boards
                    .get(g)
                    .and_then(|rounds| rounds.get(r))
                    .map_or(&[][..], Vec::as_slice);
                step.of(boards)
            })
            .collect();
        (!meetings.is_empty()).then(|| meetings.iter().sum::<i64>() * SCALE / meetings.len() as i64)
    };
    let (x, y) = (value(a, b)?, value(b, a)?);
    match x.cmp(&y) {
        std::cmp::Ordering::Equal => None,
        std::cmp::Ordering::Greater => Some(vec![vec![a], vec![b]]),
        std::cmp::Ordering::Less => Some(vec![vec![b], vec![a]]),
    }
}
