//! Colour allocation of the simplified Swiss (VZ-4.1, VZ-4.2, VZ-4.4), once the pairing is
//! complete.
use crate::model::Colour;
use crate::systems::common::PlayerHistory;

/// One player of a board, as the colour rules see him.
#[derive(Clone, Copy, Debug)]
pub struct Side<'a> {
    pub number: u32,
    pub history: &'a PlayerHistory,
}

/// The decision for a board: the colour of `a` (the first argument), the rule that decided
/// it and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub colour_of_a: Colour,
    pub rule: &'static str,
    pub reason: String,
}

/// The colour that brings a colour difference (whites − blacks) back towards 0.
fn reducing(diff: i32) -> Colour {
    if diff > 0 {
        Colour::Black
    } else {
        Colour::White
    }
}

/// VZ-4.2: in round 1 (and for two players who have never played) the colour follows the
/// starting number's parity: odd numbers get the first-round colour of CG-8, even ones the
/// other. The higher placed of the two (lower starting number) decides.
fn by_parity(number: u32, initial: Colour) -> Colour {
    if number % 2 == 1 {
        initial
    } else {
        initial.opposite()
    }
}

/// Colours for `a` and `b` (VZ-4.4 (a) to (d), VZ-4.2 when neither has played).
pub fn allocate(a: Side<'_>, b: Side<'_>, initial: Colour) -> Decision {
    // Work with x = the lower starting number.
    let swapped = b.number < a.number;
    let (x, y) = if swapped { (b, a) } else { (a, b) };
    let d = decide(x, y, initial);
    if swapped {
        Decision {
            colour_of_a: d.colour_of_a.opposite(),
            ..d
        }
    } else {
        d
    }
}

/// As [`allocate`] with `x.number < y.number`; the colour returned is x's.
fn decide(x: Side<'_>, y: Side<'_>, initial: Colour) -> Decision {
    let (hx, hy) = (x.history, y.history);
    if hx.games_played() == 0 && hy.games_played() == 0 {
        let c = by_parity(x.number, initial);
        return Decision {
            colour_of_a: c,
            rule: "VZ-4.2",
            reason: format!(
                "neither has played: starting number {} is {}, so {c}",
                x.number,
                if x.number % 2 == 1 { "odd" } else { "even" }
            ),
        };
    }
    // (a) the same colour in the last two played games: the other one. When both had the
    // same colour twice (possible only with VZ-4.3 dropped) the rule cannot decide.
    match (hx.last_two_same(), hy.last_two_same()) {
        (Some(cx), Some(cy)) if cx != cy => {
            return Decision {
                colour_of_a: cx.opposite(),
                rule: "VZ-4.4(a)",
                reason: format!("both had the same colour twice in a row: {cx} and {cy}"),
            };
        }
        (Some(cx), None) => {
            return Decision {
                colour_of_a: cx.opposite(),
                rule: "VZ-4.4(a)",
                reason: format!("{} had {cx} in his last two games", x.number),
            };
        }
        (None, Some(cy)) => {
            return Decision {
                colour_of_a: cy,
                rule: "VZ-4.4(a)",
                reason: format!("{} had {cy} in his last two games", y.number),
            };
        }
        _ => {}
    }
    let (dx, dy) = (hx.colour_difference(), hy.colour_difference());
    // (b) the larger colour difference (in absolute value) is reduced.
    if dx.abs() != dy.abs() {
        let (c, who, d) = if dx.abs() > dy.abs() {
            (reducing(dx), x.number, dx)
        } else {
            (reducing(dy).opposite(), y.number, dy)
        };
        return Decision {
            colour_of_a: c,
            rule: "VZ-4.4(b)",
            reason: format!("{who} has the larger colour difference ({d:+})"),
        };
    }
    // (c) equal non-zero differences: same sign, the lower starting number reduces his;
    // opposite signs, each reduces his.
    if dx != 0 {
        let c = reducing(dx);
        let reason = if dx == dy {
            format!("equal colour differences ({dx:+}): the lower starting number reduces his")
        } else {
            format!("colour differences {dx:+} and {dy:+}: each reduces his")
        };
        return Decision {
            colour_of_a: c,
            rule: "VZ-4.4(c)",
            reason,
        };
    }
    // (d) the lower starting number alternates; without a game, his opponent does.
    if let Some(last) = hx.last_colour() {
        return Decision {
            colour_of_a: last.opposite(),
            rule: "VZ-4.4(d)",
            reason: format!("{} alternates from {last}", x.number),
        };
    }
    match hy.last_colour() {
        Some(last) => Decision {
            colour_of_a: last,
            rule: "VZ-4.4(d)",
            reason: format!(
                "{} has no game: {} alternates from {last}",
                x.number, y.number
            ),
        },
        None => {
            let c = by_parity(x.number, initial);
            Decision {
                colour_of_a: c,
                rule: "VZ-4.2",
                reason: format!("neither has played: starting number {} gives {c}", x.number),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Colour::{Black as B, White as W};

    fn hist(colours: &[Colour]) -> PlayerHistory {
        PlayerHistory {
            colours: colours.into(),
            ..PlayerHistory::default()
        }
    }

    fn colour(a: (u32, &[Colour]), b: (u32, &[Colour])) -> (Colour, &'static str) {
        let (ha, hb) = (hist(a.1), hist(b.1));
        let d = allocate(
            Side {
                number: a.0,
                history: &ha,
            },
            Side {
                number: b.0,
                history: &hb,
            },
            W,
        );
        (d.colour_of_a, d.rule)
    }

    #[test]
    fn vz_4_4_a_two_in_a_row_gets_the_other() {
        assert_eq!(colour((1, &[W, B, B]), (2, &[B, W, W])), (W, "VZ-4.4(a)"));
        assert_eq!(colour((1, &[B, W]), (2, &[W, W])), (W, "VZ-4.4(a)"));
        assert_eq!(colour((5, &[W, B]), (2, &[B, B])), (B, "VZ-4.4(a)"));
    }

    #[test]
    fn vz_4_4_b_larger_difference_is_reduced() {
        // 1: +1 (W B W), 2: 0 (W B): 1 reduces with Black.
        assert_eq!(colour((1, &[W, B, W]), (2, &[W, B])), (B, "VZ-4.4(b)"));
        // 2 has -1, 1 has 0: 2 gets White, so 1 Black.
        assert_eq!(colour((1, &[B, W]), (2, &[B])), (B, "VZ-4.4(b)"));
    }

    #[test]
    fn vz_4_4_c_equal_differences() {
        // Same sign: the lower number reduces (gets Black with +1).
        assert_eq!(colour((3, &[W]), (7, &[B, W, W, B, W])), (B, "VZ-4.4(c)"));
        assert_eq!(colour((7, &[W]), (3, &[W])), (W, "VZ-4.4(c)"));
        // Opposite signs: each reduces.
        assert_eq!(colour((3, &[B]), (7, &[W])), (W, "VZ-4.4(c)"));
    }

    #[test]
    fn vz_4_4_d_lower_number_alternates() {
        assert_eq!(colour((2, &[W, B]), (9, &[B, W])), (W, "VZ-4.4(d)"));
        // 2 had White last, so Black: 9 gets White.
        assert_eq!(colour((9, &[W, B]), (2, &[B, W])), (W, "VZ-4.4(d)"));
        // The lower number has no game: the opponent alternates from his own colour.
        assert_eq!(colour((2, &[]), (9, &[B, W])), (W, "VZ-4.4(d)"));
    }

    #[test]
    fn vz_4_2_parity_when_neither_has_played() {
        assert_eq!(colour((3, &[]), (8, &[])), (W, "VZ-4.2"));
        assert_eq!(colour((4, &[]), (8, &[])), (B, "VZ-4.2"));
        assert_eq!(colour((8, &[]), (4, &[])), (W, "VZ-4.2"));
    }
}
