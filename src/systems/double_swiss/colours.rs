//! Colour allocation (C.04.5 art. 4): who has White in game 1 of a match. A player's
//! colours are the game-1 colours of the matches that gave one (reading X6); there is no
//! colour criterion in pairing, only this allocation.
use crate::model::Colour;

pub struct Input {
    /// The initial-colour (4.3.1): the lot of CG-8 or the file's `XXC`.
    pub initial: Colour,
}

/// The colour of the higher-ranked player (HRP: higher score, then smaller TPN), with the
/// article that decided it and why.
pub fn allocate(
    input: &Input,
    hrp_tpn: u32,
    hrp: &[Colour],
    other: &[Colour],
) -> (Colour, &'static str, String) {
    // 4.3.1 (reading X11): neither player has a colour yet: the HRP gets the
    // initial-colour if its TPN is odd, the opposite if even.
    if hrp.is_empty() && other.is_empty() {
        let c = if hrp_tpn % 2 == 1 {
            input.initial
        } else {
            input.initial.opposite()
        };
        return (
            c,
            "C.04.5 4.3.1",
            format!(
                "neither player has a colour: the higher-ranked (TPN {hrp_tpn}) gets {c} in game 1 by the initial-colour and the parity of his TPN"
            ),
        );
    }
    // 4.3.2: White in game 1 to the player who had it in fewer matches (C.04.5 art. 4:
    // "the player with fewer Whites gets White in game 1").
    let whites = |h: &[Colour]| h.iter().filter(|&&c| c == Colour::White).count();
    let (wh, wo) = (whites(hrp), whites(other));
    if wh != wo {
        let c = if wh < wo {
            Colour::White
        } else {
            Colour::Black
        };
        return (
            c,
            "C.04.5 4.3.2",
            format!(
                "White in game 1 to the player with fewer Whites ({wh} against {wo}): the higher-ranked gets {c}"
            ),
        );
    }
    // 4.3.3: alternate from the most recent match in which one had White and the other
    // Black (the histories compared from their ends).
    for back in 1..=hrp.len().min(other.len()) {
        let (ch, co) = (hrp[hrp.len() - back], other[other.len() - back]);
        if ch != co {
            let c = ch.opposite();
            return (
                c,
                "C.04.5 4.3.3",
                format!(
                    "the colours alternate from the latest match in which they differed: the higher-ranked gets {c}"
                ),
            );
        }
    }
    // 4.3.4: alternate the higher-ranked player's colour, else the other's.
    if let Some(&last) = hrp.last() {
        let c = last.opposite();
        return (
            c,
            "C.04.5 4.3.4",
            format!("the higher-ranked player's colour alternates from his last match: {c}"),
        );
    }
    let c = other.last().map_or(input.initial, |&l| l);
    (
        c,
        "C.04.5 4.3.4",
        format!(
            "the other player's colour alternates from his last match: the higher-ranked gets {c}"
        ),
    )
}
