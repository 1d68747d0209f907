//! Baku acceleration for teams (C.04.7, 2026: its own example is a team event, "11 rounds
//! with MP 2/1/0: rounds 1-3 at +2 MP, rounds 4-6 at +1 MP"). Option `acceleration`
//! (BAKU, or AUTO when the teams outnumber 2^rounds). Virtual points are added to the
//! primary score that pairs (C.04.7: the pairing score defines the scoregroups, the order
//! within them and the board order); the colour allocation's first-team (art. 4.2) keeps
//! the standings score (`docs/decisions.md`).
//!
//! * **Premise**: on the primary score a won match is worth two drawn ones and a lost one
//!   nothing (match points 2/1/0; game points with a win worth two draws).
//! * **Groups**: the teams in TPN order; GA the first 2·⌈N/4⌉, GB the rest. Teams have no
//!   late entry here: every team of the snapshot counts.
//! * **Rounds**: the first ⌈R/2⌉ are accelerated; GA teams get a won match's primary
//!   points in the first ⌈⌈R/2⌉/2⌉ of them, a drawn match's in the others.
//!
//! Per-player virtual points (TRF-26 `250`, `XXA`) say nothing of teams: refused by name.
use crate::model::validate::{Problem, Problems};
use crate::model::{PrimaryScore, Score, Tournament};
use crate::systems::PairError;
use crate::systems::common::acceleration::AccelerationMethod;

/// The virtual points of the teams, by team index and round.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    ga: Vec<bool>,
    full: u32,
    accelerated: u32,
    win: Score,
    half: Score,
}

impl Plan {
    /// Virtual points of `team` in `round` (0 outside GA or the accelerated rounds).
    pub fn points(&self, team: usize, round: u32) -> Score {
        if round == 0 || !self.ga.get(team).copied().unwrap_or(false) {
            Score::ZERO
        } else if round <= self.full {
            self.win
        } else if round <= self.accelerated {
            self.half
        } else {
            Score::ZERO
        }
    }
}

fn invalid(path: &str, message: String) -> PairError {
    PairError::Invalid(Problems(vec![Problem::new(path, message)]))
}

/// The plan the options ask for (`None`: no acceleration), with a note for the answer.
pub fn plan(t: &Tournament, m: AccelerationMethod) -> Result<Option<(Plan, String)>, PairError> {
    if !t.accelerations.is_empty() {
        return Err(invalid(
            "tournament.accelerations",
            "virtual points (TRF-26 250 / XXA records) are given per player; the Swiss Team system (C.04.6) pairs teams: use the option acceleration=BAKU (C.04.7's Baku for teams) instead".to_string(),
        ));
    }
    if m == AccelerationMethod::None {
        return Ok(None);
    }
    let n = t.teams.len();
    let rounds = t.total_rounds;
    if m == AccelerationMethod::Auto {
        let limit = if rounds >= 63 {
            u64::MAX
        } else {
            1u64 << rounds
        };
        if rounds == 0 || (n as u64) <= limit {
            return Ok(None);
        }
    }
    if rounds == 0 {
        return Err(invalid(
            "tournament.total_rounds",
            "Baku acceleration (C.04.7) needs the number of rounds (142 / XXR)".to_string(),
        ));
    }
    let s = &t.team_settings;
    let boards = i64::from(t.boards());
    let (win, draw, loss, what) = match s.primary {
        PrimaryScore::MatchPoints => (s.match_win, s.match_draw, s.match_loss, "match points"),
        PrimaryScore::GamePoints => (
            Score::from_tenths(t.scoring.win.tenths() * boards),
            Score::from_tenths(t.scoring.draw.tenths() * boards),
            Score::from_tenths(t.scoring.loss.tenths() * boards),
            "game points",
        ),
    };
    if loss.tenths() != 0 || draw.tenths() * 2 != win.tenths() || win.tenths() <= 0 {
        return Err(invalid(
            "options.acceleration",
            format!(
                "Baku acceleration (C.04.7) needs a won match worth two drawn ones and a lost one nothing; the {what} are {win}/{draw}/{loss}"
            ),
        ));
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| t.team_tpn(i));
    let ga_size = (2 * n.div_ceil(4)).min(n);
    let mut ga = vec![false; n];
    for &i in &order[..ga_size] {
        ga[i] = true;
    }
    let accelerated = rounds.div_ceil(2);
    let full = accelerated.div_ceil(2);
    let note = format!(
        "Baku acceleration (C.04.7) for teams: GA = the {ga_size} teams to TPN {}, +{win} {what} in rounds 1-{full}, +{draw} in rounds {}-{accelerated}",
        order
            .get(ga_size.saturating_sub(1))
            .map_or(0, |&i| t.team_tpn(i)),
        full + 1
    );
    Ok(Some((
        Plan {
            ga,
            full,
            accelerated,
            win,
            half: draw,
        },
        note,
    )))
}
