//! Colours of a pairing once it is made (C.04.4.3 art. 5, 6, 7.2).
use super::players::Entrant;
use crate::model::Colour;

/// The article that decided a board's colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourRule {
    /// Only one allocation keeps both within art. 5.1.1-5.1.2.
    Limits,
    /// The colours due differ, or only one player has one (art. 5.1, 5.5, 5.6).
    Due,
    /// Same colour due: the latest round in which the histories differ (art. 5.4).
    History,
    /// Identical histories: the higher ranked player in the Median Scoregroup or above, the
    /// lower ranked below it, gets the colour due (art. 5.4).
    Rank,
    /// Neither has played (art. 7.2, reading L16): the higher ranked player gets the initial
    /// colour if his pairing number is odd, the other colour if even.
    Initial,
}

impl ColourRule {
    pub fn article(self) -> &'static str {
        match self {
            ColourRule::Limits => "C.04.4.3 art. 5.1.1-5.1.2",
            ColourRule::Due => "C.04.4.3 art. 5.1",
            ColourRule::History | ColourRule::Rank => "C.04.4.3 art. 5.4",
            ColourRule::Initial => "C.04.4.3 art. 7.2",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            ColourRule::Limits => "the only allocation within the colour limits",
            ColourRule::Due => "each gets the colour due",
            ColourRule::History => "the latest round in which their colours differed decides",
            ColourRule::Rank => "identical histories: the rank decides",
            ColourRule::Initial => "neither has played: the initial colour by pairing number",
        }
    }
}

/// The colour `a` gets against `b`, and why. `median_or_above`: the pairing was made in the
/// Median Scoregroup or above it.
pub fn allocate(
    a: &Entrant,
    b: &Entrant,
    median_or_above: bool,
    initial: Colour,
) -> (Colour, ColourRule) {
    let a_white = a.may_receive(Colour::White) && b.may_receive(Colour::Black);
    let a_black = a.may_receive(Colour::Black) && b.may_receive(Colour::White);
    if a_white != a_black {
        let c = if a_white {
            Colour::White
        } else {
            Colour::Black
        };
        return (c, ColourRule::Limits);
    }
    match (a.due(), b.due()) {
        (Some(x), Some(y)) if x != y => return (x, ColourRule::Due),
        (Some(x), None) => return (x, ColourRule::Due),
        (None, Some(y)) => return (y.opposite(), ColourRule::Due),
        _ => {}
    }
    // Art. 5.4 (reading L15): back through the histories, aligned on the last game (GHR
    // 3.4), to the latest round in which they differ: each takes the other's colour of then.
    for (ca, cb) in a.colours.iter().rev().zip(b.colours.iter().rev()) {
        if ca != cb {
            return (ca.opposite(), ColourRule::History);
        }
    }
    // Ranked by pairing score, then pairing number (C.04.2): the higher ranked player may
    // be the one with the larger number when the scores differ.
    let a_higher = (a.score, std::cmp::Reverse(a.tpn)) > (b.score, std::cmp::Reverse(b.tpn));
    if a.colours.is_empty() && b.colours.is_empty() {
        let higher = if a_higher { a } else { b };
        let c = if higher.seat % 2 == 1 {
            initial
        } else {
            initial.opposite()
        };
        return (if a_higher { c } else { c.opposite() }, ColourRule::Initial);
    }
    let a_decides = a_higher == median_or_above;
    let decider = if a_decides { a } else { b };
    let c = decider.due().unwrap_or(initial);
    (if a_decides { c } else { c.opposite() }, ColourRule::Rank)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Colour::Black as B, Colour::White as W, Score};

    fn player(tpn: u32, points: i64, colours: &[Colour]) -> Entrant {
        Entrant {
            player: tpn as usize - 1,
            tpn,
            seat: tpn,
            rating: 2500 - tpn,
            score: Score::points(points),
            points: Score::points(points),
            colours: colours.into(),
            floated_last: false,
            bye_eligible: true,
        }
    }

    #[test]
    fn art_5_4_identical_histories_the_rank_decides_by_side_of_the_median() {
        // #3 and #7, both W B: in the Median Scoregroup or above the higher ranked (#3) gets
        // the colour due (White); below it the lower ranked (#7) does.
        let (a, b) = (player(3, 1, &[W, B]), player(7, 1, &[W, B]));
        assert_eq!(allocate(&a, &b, true, W), (W, ColourRule::Rank));
        assert_eq!(allocate(&a, &b, false, W), (B, ColourRule::Rank));
    }

    #[test]
    fn art_5_4_the_latest_round_in_which_the_histories_differ() {
        // #4 W B W B and #8 B W W B are both due White; back from the last game, they
        // differ two games earlier: #4 had Black then, so #4 gets White.
        let (a, b) = (player(4, 2, &[W, B, W, B]), player(8, 2, &[B, W, W, B]));
        assert_eq!(allocate(&a, &b, true, W), (W, ColourRule::History));
        assert_eq!(allocate(&b, &a, false, W), (B, ColourRule::History));
    }

    #[test]
    fn art_5_1_limits_and_colours_due() {
        // #1 had White twice running: only Black keeps it within art. 5.1.1.
        let (a, b) = (player(1, 2, &[W, W]), player(2, 2, &[B, B]));
        assert_eq!(allocate(&a, &b, true, W), (B, ColourRule::Limits));
        // Different colours due: each gets his own.
        let (a, b) = (player(1, 1, &[W, B, W]), player(2, 1, &[B, W, B]));
        assert_eq!(allocate(&a, &b, true, W), (B, ColourRule::Due));
    }

    #[test]
    fn art_7_2_neither_has_played() {
        // The higher ranked gets the initial colour on an odd number, the other on an even.
        let (a, b) = (player(3, 0, &[]), player(9, 0, &[]));
        assert_eq!(allocate(&a, &b, true, W), (W, ColourRule::Initial));
        let (a, b) = (player(4, 0, &[]), player(9, 0, &[]));
        assert_eq!(allocate(&a, &b, true, W), (B, ColourRule::Initial));
        assert_eq!(allocate(&b, &a, true, W), (W, ColourRule::Initial));
    }
}
