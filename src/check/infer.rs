//! What a checked file leaves unstated, inferred as the FIDE-endorsed checker does.
//!
//! Files written by other programs often carry neither `XXC` (the initial colour, CG-8,
//! C.04.3 art. 5.1) nor `XXR` (the number of rounds). Re-pairing such a file with a lot for
//! round 1 would make every colour of round 1 differ, and without the number of rounds the
//! last-round rules (topscorers, C.04.3 art. 1.8 and C3/C10/C11) would never apply. The
//! reference checker instead reads the initial colour from the recorded rounds and takes
//! the rounds in the file as the total; the checker does the same and says so in a
//! warning. Pairing a *new* round is not affected: there the lot (or the caller's
//! `XXC`/`XXR`) still decides.
use crate::model::{ByeKind, Colour, Tournament};

/// Fills in what `t` leaves unstated for checking, returning one warning per value
/// inferred. Only systems that declare it (`System::checks_as_the_reference`: the
/// FIDE Swiss systems whose reference checker infers these values) call it.
pub fn infer_unstated(t: &mut Tournament) -> Vec<String> {
    let mut warnings = Vec::new();
    if t.initial_colour.is_none()
        && let Some((colour, why)) = initial_colour_from_record(t)
    {
        t.initial_colour = Some(colour);
        warnings.push(format!(
            "no initial colour (XXC) in the file: {colour} for pairing number 1, read from the record ({why})"
        ));
    }
    if t.total_rounds == 0 {
        let rounds = t.rounds_paired();
        if rounds > 0 {
            t.total_rounds = rounds;
            warnings.push(format!(
                "no number of rounds (XXR) in the file: the {rounds} round(s) recorded are taken as the total, so round {rounds} is paired as the last round"
            ));
        }
    }
    warnings
}

/// The initial colour the record implies. Round F is the first round in which a colour is
/// recorded; the players who took part in the pairing of rounds 1..=F are taken in
/// pairing-number order, and the first of them with a colour in round F gives it, reversed
/// once for each player passed over (the colours of art. 5.2.5 alternate down the ranking).
fn initial_colour_from_record(t: &Tournament) -> Option<(Colour, String)> {
    let f = t.rounds.iter().position(|r| !r.games.is_empty())?;
    let n = t.players.len();
    let mut colour_in_f: Vec<Option<Colour>> = vec![None; n];
    for g in &t.rounds[f].games {
        if let Some(c) = colour_in_f.get_mut(g.white) {
            *c = Some(Colour::White);
        }
        if let Some(c) = colour_in_f.get_mut(g.black) {
            *c = Some(Colour::Black);
        }
    }
    // Took part in a pairing: had a game or a pairing-allocated bye in rounds 1..=F.
    let mut took_part = vec![false; n];
    for round in &t.rounds[..=f] {
        for g in &round.games {
            for p in [g.white, g.black] {
                if let Some(x) = took_part.get_mut(p) {
                    *x = true;
                }
            }
        }
        for b in &round.byes {
            if matches!(b.kind, ByeKind::Pab)
                && let Some(x) = took_part.get_mut(b.player)
            {
                *x = true;
            }
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|&p| took_part[p]).collect();
    order.sort_by_key(|&p| t.pairing_number(p));
    for (passed, &p) in order.iter().enumerate() {
        if let Some(c) = colour_in_f[p] {
            let colour = if passed % 2 == 0 { c } else { c.opposite() };
            let number = t.pairing_number(p);
            return Some((
                colour,
                format!("pairing number {number} had {c} in round {}", f + 1),
            ));
        }
    }
    None
}
