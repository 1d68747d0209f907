//! Weak separations (SEP-5) in a procedure that offers a player his candidates one by one
//! in its own order and takes the first legal one (Vincze's VZ-3.2, ...): where the
//! criterion enters such a procedure (SEP-5.3).
//!
//! The procedure's own choice is its first legal candidate. If the player shares a group
//! with it, the next candidate in the procedure's own order who shares none and is legal
//! (the rest still pairable) is taken instead; `WEAK` looks only at the candidates of the
//! own choice's level (the same score group: nobody floats further to avoid a groupmate),
//! `WEAK_FIRST` at every later candidate (he may float). When there is none, the
//! procedure's own candidate stays.
use crate::model::{PlayerIdx, WeakPlace, WeakSeparations};

/// The index in `order` of the candidate the player takes: `own` (the procedure's first
/// legal candidate) unless a weak separation moves him on. `who` names a candidate's
/// player, `level` its score group (the default place keeps to the own choice's level),
/// `legal` whether taking it leaves a legal pairing (asked only of later candidates).
pub fn choose<C: Copy, L: PartialEq>(
    weak: &WeakSeparations,
    player: PlayerIdx,
    order: &[C],
    own: usize,
    who: impl Fn(C) -> PlayerIdx,
    level: impl Fn(C) -> L,
    mut legal: impl FnMut(C) -> bool,
) -> usize {
    if weak.is_empty() || own >= order.len() {
        return own;
    }
    let within = |c: C, place: WeakPlace| weak.within(player, who(c), place);
    let mut chosen = own;
    if within(order[chosen], WeakPlace::First)
        && let Some(i) = (chosen + 1..order.len())
            .find(|&i| !within(order[i], WeakPlace::First) && legal(order[i]))
    {
        chosen = i;
    }
    if within(order[chosen], WeakPlace::Default) {
        let at = level(order[chosen]);
        if let Some(i) = (chosen + 1..order.len()).find(|&i| {
            let c = order[i];
            level(c) == at
                && !within(c, WeakPlace::First)
                && !within(c, WeakPlace::Default)
                && legal(c)
        }) {
            chosen = i;
        }
    }
    chosen
}

/// `WEAK_LAST` (SEP-5.1) in such a procedure, after [`choose`]: if the player shares a
/// group placed last with the candidate chosen, the next candidate in the procedure's own
/// order that `alike` says ties the chosen one on every criterion of the system (each
/// system says which: Keizer the score, Monrad the score and the colours), shares no weak
/// group with the player at any place, and is legal. When there is none, the chosen one
/// stays. Without a separation placed last it returns `chosen`.
pub fn choose_last<C: Copy>(
    weak: &WeakSeparations,
    player: PlayerIdx,
    order: &[C],
    chosen: usize,
    who: impl Fn(C) -> PlayerIdx,
    alike: impl Fn(C, C) -> bool,
    mut legal: impl FnMut(C) -> bool,
) -> usize {
    let Some(&current) = order.get(chosen) else {
        return chosen;
    };
    if weak.is_empty() || !weak.within(player, who(current), WeakPlace::Last) {
        return chosen;
    }
    (chosen + 1..order.len())
        .find(|&i| {
            let c = order[i];
            alike(current, c) && !weak.any_within(player, who(c)) && legal(c)
        })
        .unwrap_or(chosen)
}
