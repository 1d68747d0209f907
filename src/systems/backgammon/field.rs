//! Who is drawn in a round: the players (BG-2, BG-10), the odd field's [absent] (BG-3) and
//! BG-11's extra [absent] for the undefeated.
//!
//! **BG-10.** A player who withdraws before a draw is simply not in it (`withdrawn_from_round`
//! = the round; his past games stay valid and keep counting for his opponents), and [absent]
//! appears or disappears with the parity of the field. A player who withdraws after the draw,
//! before playing, is recorded so: his pending game becomes his opponent's game against
//! [absent] (a `ByeKind::AbsentOpponent` for the opponent) and he is withdrawn from that
//! round; [`withdraw_after_draw`] rewrites a snapshot that way. The opponent has then met
//! [absent] (BG-3's once-only rule applies to him) and, with wins, was paired down (BG-7).
//!
//! **BG-11 (decisions where the rule is silent).** "Undefeated" means every round so far won
//! (a round missed counts as not won). The minimum before a round with `k` rounds left,
//! this one included, is 2^k. The rule is about forfeits and withdrawals, so it applies only
//! when the event plays no more rounds than BG-1 gives for its entries: with more rounds
//! than that, too few undefeated players is the ordinary course of the event, and BG-11
//! would have them meet [absent] round after round; the explanation says so instead. The
//! extra [absent] are drawn inside the undefeated group (they can meet only undefeated
//! players; [absent] never meets [absent]) and count 0 wins for BG-7 (BG-3), so that BG-7
//! and BG-3's once-only rule choose who meets them, and are dropped in that order if
//! needed. Their number is min(2^k − undefeated, undefeated); the odd field's [absent] is
//! then added or removed so that the field stays even.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::default_rounds;
use super::draw::{Draw, Entry, Level, Phantom};
use super::floats::{self, Status};
use super::record::Record;
use crate::model::{Bye, ByeKind, GameResult, PlayerIdx, Tournament};
use crate::systems::{Explanation, RoundToPair};

/// A round's draw and the levels to try.
pub struct Field {
    pub draw: Draw,
    pub levels: Vec<Level>,
}

/// The regular draw of round `r.number` (BG-4..BG-7, BG-3, BG-11).
pub fn regular(
    r: &RoundToPair,
    rec: &Record,
    total: u32,
    rng: &mut ChaCha8Rng,
    ex: &mut Explanation,
) -> Field {
    let t = &r.tournament;
    let number = r.number;
    ex.group(format!("round {number}: the field"));
    for (i, p) in t.players.iter().enumerate() {
        if p.withdrawn_from_round == Some(number) {
            ex.step(
                "BG-10",
                format!(
                    "{} withdrew before this draw: not drawn; his past games stay valid",
                    p.id
                ),
                vec![i],
            );
        }
        if p.late_entry_round == Some(number) {
            ex.step(
                "CG-9",
                format!("{} enters in round {number}, with 0 wins", p.id),
                vec![i],
            );
        }
    }
    for b in &r.preset_byes {
        ex.step(
            "CG-6",
            format!(
                "{}: {} this round, not drawn",
                r.id(b.player),
                b.kind.describe()
            ),
            vec![b.player],
        );
    }
    let mut entries: Vec<Entry> = Vec::with_capacity(r.participants.len() + 1);
    for &p in &r.participants {
        let pr = rec.player(p);
        let status = Status::of(pr);
        let lot = rng.random::<u64>() >> 1;
        entries.push(Entry {
            player: Some(p),
            status,
            status_note: floats::describe(pr),
            met_absent: pr.absent_rounds.first().copied(),
            undefeated: pr.wins + 1 == number,
            ..Entry::new(r.id(p).to_string(), vec![p], pr.wins, lot)
        });
    }
    let real = entries.len();
    let was_odd = number > 1
        && t.round(number - 1)
            .is_some_and(|round| round.byes.iter().any(|b| b.kind == ByeKind::AbsentOpponent));
    let withdrew = t
        .players
        .iter()
        .any(|p| p.withdrawn_from_round == Some(number));
    if real % 2 == 1 {
        entries.push(Entry::phantom(Phantom::Odd, 0));
        let why = if withdrew && !was_odd {
            " ([absent] appears to keep the field even, BG-10)"
        } else {
            ""
        };
        ex.step(
            "BG-3",
            format!("odd field of {real}: [absent] is added, with 0 wins for the draw{why}"),
            Vec::new(),
        );
    } else if withdrew && was_odd {
        ex.step(
            "BG-10",
            format!("even field of {real}: [absent] disappears"),
            Vec::new(),
        );
    }
    let bg11 = bg11(t, number, total, &mut entries, ex);
    let mut draw = Draw::new(entries);
    draw.weak = t.weak_separations(number);
    draw.full_detail = r.detail >= crate::systems::Detail::Full;
    // Each player's entry, by player index (`usize::MAX` for one not drawn).
    let mut index = vec![usize::MAX; t.players.len()];
    for (i, e) in draw.entries().iter().enumerate() {
        if let Some(slot) = e.player.and_then(|p| index.get_mut(p)) {
            *slot = i;
        }
    }
    let entry = |p: PlayerIdx| index.get(p).copied().filter(|&i| i != usize::MAX);
    for (a, b) in rec.blocked_pairs() {
        if let (Some(ea), Some(eb), Some(why)) = (entry(a), entry(b), rec.conflict(a, b)) {
            draw.forbid_because(ea, eb, why);
        }
    }
    let mut levels = vec![Level::Strict, Level::Bg7Dropped];
    if bg11 {
        levels.push(Level::OnceOnlyDropped);
    }
    Field { draw, levels }
}

/// Whether BG-11 may add [absent] games in an event of `total` rounds and `entries`
/// entries (see the module docs).
pub fn bg11_applies(total: u32, entries: usize) -> bool {
    total <= default_rounds(entries)
}

/// The undefeated players needed before round `number` of `total` for a single winner.
pub fn needed_undefeated(total: u32, number: u32) -> u64 {
    let left = total.saturating_sub(number) + 1;
    1u64.checked_shl(left).unwrap_or(u64::MAX)
}

/// BG-11: adds [absent] games for the undefeated when there are too few of them; fixes the
/// parity with the odd field's [absent]. Whether any was added.
fn bg11(
    t: &Tournament,
    number: u32,
    total: u32,
    entries: &mut Vec<Entry>,
    ex: &mut Explanation,
) -> bool {
    let top = number - 1;
    let undefeated = entries
        .iter()
        .filter(|e| e.player.is_some() && e.undefeated)
        .count() as u64;
    let phantoms_on_top = entries
        .iter()
        .filter(|e| e.phantom.is_some() && e.group == top)
        .count() as u64;
    let have = undefeated + phantoms_on_top;
    let needed = needed_undefeated(total, number);
    if have >= needed || undefeated == 0 {
        return false;
    }
    let left = total - number + 1;
    if !bg11_applies(total, t.players.len()) {
        ex.step(
            "BG-11",
            format!(
                "{have} undefeated for {left} rounds to go ({needed} would give a single winner), but the event plays more rounds than BG-1 gives for {} entries: a shortfall is expected, so no [absent] is added",
                t.players.len()
            ),
            Vec::new(),
        );
        return false;
    }
    // Never more [absent] among the undefeated than real undefeated players.
    let add = (needed - have).min(undefeated.saturating_sub(phantoms_on_top));
    if add == 0 {
        return false;
    }
    for _ in 0..add {
        entries.push(Entry::phantom(Phantom::Bg11, top));
    }
    ex.step(
        "BG-11",
        format!(
            "only {have} undefeated for {left} round{} to go, {needed} needed for a single winner: {add} [absent] added among them",
            if left == 1 { "" } else { "s" }
        ),
        Vec::new(),
    );
    let players = entries.iter().filter(|e| e.player.is_some()).count();
    let phantoms = entries.len() - players;
    if (players + phantoms) % 2 == 1 {
        if let Some(i) = entries
            .iter()
            .position(|e| e.phantom == Some(Phantom::Odd) && e.group != top)
        {
            entries.remove(i);
            ex.step(
                "BG-3",
                "the field is even again: the odd field's [absent] disappears",
                Vec::new(),
            );
        } else {
            entries.push(Entry::phantom(Phantom::Odd, 0));
            ex.step(
                "BG-3",
                "the field is odd: [absent] is added with 0 wins",
                Vec::new(),
            );
        }
    }
    true
}

/// BG-10, a withdrawal after the draw and before playing: the pending game of `player` in
/// `round` becomes his opponent's game against [absent], and he is withdrawn from that round.
pub fn withdraw_after_draw(
    t: &mut Tournament,
    round: u32,
    player: PlayerIdx,
) -> Result<(), String> {
    let id = t
        .players
        .get(player)
        .map(|p| p.id.clone())
        .ok_or("unknown player")?;
    let r = round
        .checked_sub(1)
        .and_then(|i| t.rounds.get_mut(i as usize))
        .ok_or_else(|| format!("round {round} is not drawn"))?;
    let g = r
        .games
        .iter()
        .position(|g| g.white == player || g.black == player)
        .ok_or_else(|| format!("player {id:?} has no game in round {round}"))?;
    if r.games[g].result != GameResult::Pending {
        return Err(format!(
            "player {id:?}'s game of round {round} has a result: a withdrawal after playing keeps it (BG-10)"
        ));
    }
    let game = r.games.remove(g);
    let opponent = if game.white == player {
        game.black
    } else {
        game.white
    };
    r.byes.push(Bye {
        player: opponent,
        kind: ByeKind::AbsentOpponent,
    });
    t.players[player].withdrawn_from_round = Some(round);
    Ok(())
}
