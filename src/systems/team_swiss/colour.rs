//! C.04.6 art. 4: the colour allocation, after the whole round is paired. No colour rule is
//! absolute (Preface): art. 4.3 always decides.
use super::state::{Field, TeamState};
use crate::model::{Colour, TeamColourType};

/// Which team of a pair is the first-team (art. 4.2): the higher primary score (4.2.1),
/// then the higher secondary score unless the competition does not use it (4.2.2), then the
/// smaller TPN (4.2.3). Scores are the standings scores, not a pairing score with virtual
/// points.
fn is_first(field: &Field, a: &TeamState, b: &TeamState) -> bool {
    if a.standing != b.standing {
        return a.standing > b.standing;
    }
    if field.secondary_for_colours && a.secondary != b.secondary {
        return a.secondary > b.secondary;
    }
    a.tpn < b.tpn
}

/// The colours of a pair (positions): (team with White on board 1, the other, article).
pub fn allocate(field: &Field, a: usize, b: usize) -> (usize, usize, &'static str) {
    let (f, s) = if is_first(field, &field.teams[a], &field.teams[b]) {
        (a, b)
    } else {
        (b, a)
    };
    let (first, second) = (&field.teams[f], &field.teams[s]);
    let (colour, rule) = first_colour(field, first, second);
    if colour == Colour::White {
        (f, s, rule)
    } else {
        (s, f, rule)
    }
}

/// The colour art. 4.3 gives the first-team, and the rule.
fn first_colour(field: &Field, first: &TeamState, second: &TeamState) -> (Colour, &'static str) {
    // 4.3.1: neither team has played a match: an odd TPN gets the initial-colour.
    if first.played() == 0 && second.played() == 0 {
        let c = if first.tpn % 2 == 1 {
            field.initial_colour
        } else {
            field.initial_colour.opposite()
        };
        return (c, "C.04.6 art. 4.3.1");
    }
    let (fp, sp) = if field.colour_type == TeamColourType::None {
        (None, None)
    } else {
        (first.preference, second.preference)
    };
    match (fp, sp) {
        // 4.3.2: only one team has a preference: grant it.
        (Some(p), None) => return (p.colour, "C.04.6 art. 4.3.2"),
        (None, Some(q)) => return (q.colour.opposite(), "C.04.6 art. 4.3.2"),
        // 4.3.3: opposite preferences: grant both.
        (Some(p), Some(q)) if p.colour != q.colour => return (p.colour, "C.04.6 art. 4.3.3"),
        // 4.3.4 (type B): only one strong preference: grant it.
        (Some(p), Some(q)) if field.colour_type == TeamColourType::B && p.strong != q.strong => {
            return if p.strong {
                (p.colour, "C.04.6 art. 4.3.4")
            } else {
                (q.colour.opposite(), "C.04.6 art. 4.3.4")
            };
        }
        _ => {}
    }
    // 4.3.5: White to the team with the lower colour difference.
    if first.colour_difference != second.colour_difference {
        let c = if first.colour_difference < second.colour_difference {
            Colour::White
        } else {
            Colour::Black
        };
        return (c, "C.04.6 art. 4.3.5");
    }
    // 4.3.6: alternate to the most recent played match in which the teams had different
    // colours (the sequences of played matches compared from their ends).
    for (fc, sc) in first.colours.iter().rev().zip(second.colours.iter().rev()) {
        if fc != sc {
            return (fc.opposite(), "C.04.6 art. 4.3.6");
        }
    }
    // 4.3.7: the first-team's preference.
    if let Some(p) = fp {
        return (p.colour, "C.04.6 art. 4.3.7");
    }
    // 4.3.8: alternate the first-team's colour from its last played match.
    if let Some(&c) = first.colours.last() {
        return (c.opposite(), "C.04.6 art. 4.3.8");
    }
    // 4.3.9: alternate the other team's colour from its last played match.
    match second.colours.last() {
        Some(&c) => (c, "C.04.6 art. 4.3.9"),
        // Unreachable: neither has played is 4.3.1.
        None => (field.initial_colour, "C.04.6 art. 4.3.1"),
    }
}
