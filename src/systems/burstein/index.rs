//! The Index of the 2026 text (C.04.4.2 1.8): Buchholz, then Sonneborn-Berger, then the
//! pairing number, computed by the crate's tie-break code (`standings`) after the rounds
//! played so far.
//!
//! * An unplayed round (PAB, forfeit, bye, absence) is a game against oneself: its
//!   contribution is the player's own score (C.07 art. 16 in the 2024 wording, which is
//!   what "a game against oneself" says; no cap).
//! * A series of consecutive zero-point byes (`Z`, absences) up to the current round counts
//!   as draws when the player's score enters an over-the-board opponent's Buchholz or
//!   Sonneborn-Berger, not in his own (1.7.2, common rules, third). Only zero-point byes
//!   form the series: a half-point bye, a forfeit or any other round ends it. This is
//!   narrower than C.07 art. 16.3 (the standings' adjusted score), whose trailing run of
//!   voluntarily unplayed rounds also takes in half-point byes, so the Index replaces the
//!   standings' adjusted scores with its own ([`seen_by_opponents`]).
//! * Virtual (acceleration) points never enter the Index (C.04.7): the tie-break code does
//!   not see them.
use std::cmp::Ordering;

use crate::model::{ByeKind, PlayerIdx, RoundEntry, Score};
use crate::standings::{Context, Edition, buchholz};
use crate::systems::RoundToPair;

/// One player's Index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Index {
    pub buchholz: Score,
    /// Sonneborn-Berger in hundredths of a point.
    pub sonneborn_berger: i64,
    pub tpn: u32,
}

impl Index {
    /// `Less` when `self` ranks higher: the greater Buchholz, then the greater
    /// Sonneborn-Berger, then the smaller pairing number (C.04.4.2 1.8).
    pub fn rank_cmp(&self, other: &Index) -> Ordering {
        other
            .buchholz
            .cmp(&self.buchholz)
            .then(other.sonneborn_berger.cmp(&self.sonneborn_berger))
            .then(self.tpn.cmp(&other.tpn))
    }

    /// Buchholz and Sonneborn-Berger as text, for explanations.
    pub fn describe(&self) -> String {
        format!(
            "BH {}, SB {}.{:02}",
            self.buchholz,
            self.sonneborn_berger / 100,
            self.sonneborn_berger.rem_euclid(100)
        )
    }
}

/// Every player's Index after the rounds before the one being paired.
pub fn compute(r: &RoundToPair) -> Vec<Index> {
    let t = &r.tournament;
    let mut ctx = Context::new(t, r.number.saturating_sub(1));
    let entries = t.entries();
    ctx.adjusted = (0..t.players.len())
        .map(|p| seen_by_opponents(&ctx, entries.get(p).map_or(&[], Vec::as_slice), p))
        .collect();
    (0..t.players.len())
        .map(|p: PlayerIdx| Index {
            buchholz: buchholz::buchholz(&ctx, p, Edition::V2024, 0, 0),
            sonneborn_berger: buchholz::sonneborn_berger(&ctx, p, Edition::V2024, 0),
            tpn: t.pairing_number(p),
        })
        .collect()
}

/// A player's score as his over-the-board opponents' Index sees it (1.7.2, common rules,
/// third): his points, with the series of consecutive zero-point byes (`Z`, absences) that
/// reaches the last round played counted as draws. `row` is his record by round (rounds
/// not recorded are absences).
fn seen_by_opponents(ctx: &Context, row: &[RoundEntry], player: PlayerIdx) -> Score {
    let facts = ctx.facts.get(player).map_or(&[][..], Vec::as_slice);
    let zero_point_bye = |i: usize| {
        matches!(
            row.get(i).copied().unwrap_or(RoundEntry::None),
            RoundEntry::None | RoundEntry::Bye(ByeKind::ZeroPoint | ByeKind::Absent)
        )
    };
    let series_start = (0..facts.len())
        .rposition(|i| !zero_point_bye(i))
        .map_or(0, |i| i + 1);
    facts
        .iter()
        .enumerate()
        .map(|(i, f)| {
            if i < series_start {
                f.points
            } else {
                ctx.draw()
            }
        })
        .sum()
}
