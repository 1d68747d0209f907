//! The early draw of round 2 (BG-8): before round 1 has results, round 2 pairs "winner of
//! board i" against "winner of board j"; with an odd number of games the last future
//! winner meets a future loser of another game; the other future losers are paired among
//! themselves; with an odd field the last future loser meets [absent].
//!
//! **One procedure for both answers.** Round 2 is drawn this way whenever the early draw is
//! possible, whether asked before the results (`PairProvisional`) or after them (`Pair`):
//! the draw depends only on round 1's boards and the seed, never on who won, so the two
//! answers are the same pairs, the second resolved. It is the ordinary draw (BG-4..BG-6) run
//! on the placeholders: after round 1 the winners are exactly the 1-win group and the losers
//! the 0-win group, no two winners (nor two losers) have met, and nobody has floated yet
//! (BG-7 has nothing to say).
//!
//! **Seed.** The lots come from `ChaCha8(seed ^ "BG-8" domain ^ 2·φ)` ([`super::rng`] with
//! [`super::EARLY_DOMAIN`], round 2), one key per placeholder: first the winners' slots,
//! boards taken by the lower pairing number of their two players (then the higher), the
//! player who met [absent] in round 1 (a known winner) after them; then the losers' slots
//! in the same board order. `seed` is the request's seed, else the snapshot's `lot_seed`:
//! give `Pair` the seed given to `PairProvisional`.
//!
//! **Boards.** The draw does not depend on how round 1's boards are numbered or listed;
//! the labels ("winner of board 3") use the snapshot's numbers: the `board` field when
//! every game has one, else the order of the games (a TRF has no board numbers: its games
//! are in the order of their first-listed player).
//!
//! **When the early draw is not possible (decisions).** It needs round 2's field to be
//! round 1's: nobody withdrawn, absent, late or with a bye, and at most one [absent] game in
//! round 1 (BG-11 games change who is undefeated). `PairProvisional` then refuses, naming the
//! player; `Pair` draws round 2 normally and says so. With results, each board needs a winner
//! (a double forfeit has none). A forbidden pair (CG-10) cannot be checked on placeholders,
//! so two placeholders either of whose players may not meet are kept apart. A provisional
//! request must come before any result of round 1: once some result is in, it is refused
//! so that an early answer never mixes known and unknown winners.
use std::collections::{HashMap, HashSet};

use rand::Rng;

use super::draw::{Draw, Drawn, Entry, Level, Phantom};
use super::field;
use super::record::{Record, winner};
use super::{EARLY_DOMAIN, rng};
use crate::model::validate::{Problem, Problems};
use crate::model::{ByeKind, Game, GameResult, PlayerIdx, Round, Tournament};
use crate::systems::{Explanation, PairError, PairOptions, RoundToPair};

/// What a placeholder stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotKind {
    /// The winner of a round-1 board.
    Winner,
    /// The loser of a round-1 board.
    Loser,
    /// A player already known: the one who met [absent] in round 1 (a sure winner).
    Known,
}

/// A placeholder of the early draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    pub kind: SlotKind,
    /// Round-1 board number (0 for `Known`).
    pub board: u32,
    /// Who it may be: the two players of the board (first-drawn first), or the known player.
    pub players: Vec<PlayerIdx>,
}

impl Slot {
    /// "winner of board 3", "loser of board 2", or the known player's id.
    pub fn label(&self, id: impl Fn(PlayerIdx) -> String) -> String {
        match self.kind {
            SlotKind::Winner => format!("winner of board {}", self.board),
            SlotKind::Loser => format!("loser of board {}", self.board),
            SlotKind::Known => self.players.first().map_or_else(String::new, |&p| id(p)),
        }
    }
}

/// The placeholders of round 2, in the order the lots are drawn.
#[derive(Clone, Debug)]
pub struct Plan {
    pub slots: Vec<Slot>,
    /// Whether the field is odd ([absent] meets the last future loser).
    pub odd: bool,
}

/// Round 1's games in board order, with their numbers.
pub fn boards(round: &Round) -> Vec<(u32, &Game)> {
    if !round.games.is_empty() && round.games.iter().all(|g| g.board.is_some()) {
        let mut list: Vec<(u32, &Game)> = round
            .games
            .iter()
            .map(|g| (g.board.unwrap_or_default(), g))
            .collect();
        list.sort_by_key(|(b, _)| *b);
        list
    } else {
        round
            .games
            .iter()
            .enumerate()
            .map(|(i, g)| (i as u32 + 1, g))
            .collect()
    }
}

/// The early draw's placeholders, or why round 2 cannot be drawn early, in an event of
/// `total` rounds. With `results`, every board must have a winner.
pub fn plan(r: &RoundToPair, total: u32, results: bool) -> Result<Plan, String> {
    let t = &r.tournament;
    let id = |p: PlayerIdx| r.id(p).to_string();
    if r.number != 2 {
        return Err(format!(
            "the early draw is for round 2, not round {}",
            r.number
        ));
    }
    let Some(round1) = t.round(1) else {
        return Err("round 1 is not drawn".to_string());
    };
    let mut in_round1: HashSet<PlayerIdx> = HashSet::new();
    for g in &round1.games {
        in_round1.insert(g.white);
        in_round1.insert(g.black);
    }
    let absent_games: Vec<PlayerIdx> = round1
        .byes
        .iter()
        .filter(|b| b.kind == ByeKind::AbsentOpponent)
        .map(|b| b.player)
        .collect();
    if absent_games.len() > 1 {
        return Err(format!(
            "round 1 had {} games against [absent] (BG-11): who is undefeated is not round 1's boards alone",
            absent_games.len()
        ));
    }
    in_round1.extend(absent_games.iter().copied());
    let now: HashSet<PlayerIdx> = r.participants.iter().copied().collect();
    let mut missing: Vec<PlayerIdx> = in_round1.difference(&now).copied().collect();
    missing.sort_by_key(|&p| t.pairing_number(p));
    if let Some(&p) = missing.first() {
        let why = if t.players[p].withdrawn_from_round.is_some_and(|w| w <= 2) {
            "withdrew"
        } else {
            "is absent from round 2"
        };
        return Err(format!(
            "{} played round 1 but {why}: round 2's field is not round 1's",
            id(p)
        ));
    }
    let mut extra: Vec<PlayerIdx> = now.difference(&in_round1).copied().collect();
    extra.sort_by_key(|&p| t.pairing_number(p));
    if let Some(&p) = extra.first() {
        return Err(format!(
            "{} is in round 2's draw but had no game in round 1",
            id(p)
        ));
    }
    // The lots follow the boards' players, not their numbering, so that a snapshot whose
    // boards are numbered or listed otherwise (a TRF has no board numbers) draws the same.
    let mut list = boards(round1);
    list.sort_by_key(|(_, g)| {
        let (a, b) = (t.pairing_number(g.white), t.pairing_number(g.black));
        (a.min(b), a.max(b))
    });
    let mut winners = Vec::new();
    let mut losers = Vec::new();
    for &(board, g) in &list {
        if results && winner(g.white, g.black, g.result).is_none() {
            let why = match g.result {
                GameResult::DoubleForfeit => "both players forfeited",
                _ => "it has no result",
            };
            return Err(format!("board {board} of round 1 has no winner ({why})"));
        }
        let players = vec![g.white, g.black];
        winners.push(Slot {
            kind: SlotKind::Winner,
            board,
            players: players.clone(),
        });
        losers.push(Slot {
            kind: SlotKind::Loser,
            board,
            players,
        });
    }
    for &p in &absent_games {
        winners.push(Slot {
            kind: SlotKind::Known,
            board: 0,
            players: vec![p],
        });
    }
    let odd = !absent_games.is_empty();
    if odd != (now.len() % 2 == 1) {
        return Err("round 1's [absent] game does not match the parity of the field".to_string());
    }
    let undefeated = winners.len() as u64;
    let needed = field::needed_undefeated(total, 2);
    if undefeated < needed && field::bg11_applies(total, t.players.len()) {
        return Err(format!(
            "round 1 leaves {undefeated} undefeated, {needed} are needed: BG-11 adds [absent] games"
        ));
    }
    winners.extend(losers);
    Ok(Plan {
        slots: winners,
        odd,
    })
}

/// Resolves a slot with round 1's results.
pub fn resolve(slot: &Slot, round1: &Round) -> Option<PlayerIdx> {
    resolve_in(slot, &boards(round1).into_iter().collect())
}

fn resolve_in(slot: &Slot, games: &HashMap<u32, &Game>) -> Option<PlayerIdx> {
    match slot.kind {
        SlotKind::Known => slot.players.first().copied(),
        SlotKind::Winner | SlotKind::Loser => {
            let g = games.get(&slot.board)?;
            let w = winner(g.white, g.black, g.result)?;
            let l = if w == g.white { g.black } else { g.white };
            Some(if slot.kind == SlotKind::Winner { w } else { l })
        }
    }
}

/// Draws the plan. With `resolved`, the entries name the players the results give.
pub fn draw(
    r: &RoundToPair,
    rec: &Record,
    plan: &Plan,
    resolved: bool,
    ex: &mut Explanation,
) -> (Draw, Option<Drawn>) {
    let t = &r.tournament;
    let id = |p: PlayerIdx| r.id(p).to_string();
    let mut lots = rng(r.seed, 2, EARLY_DOMAIN);
    let games: HashMap<u32, &Game> = t
        .round(1)
        .map(boards)
        .unwrap_or_default()
        .into_iter()
        .collect();
    let mut entries = Vec::with_capacity(plan.slots.len() + 1);
    for slot in &plan.slots {
        let group = u32::from(slot.kind != SlotKind::Loser);
        let lot = lots.random::<u64>() >> 1;
        let player = if resolved {
            resolve_in(slot, &games)
        } else {
            None
        };
        let mut label = slot.label(id);
        if let (Some(p), false) = (player, slot.kind == SlotKind::Known) {
            label = format!("{label} ({})", id(p));
        }
        entries.push(Entry {
            player,
            met_absent: (slot.kind == SlotKind::Known).then_some(1),
            undefeated: group == 1,
            ..Entry::new(label, slot.players.clone(), group, lot)
        });
    }
    if plan.odd {
        entries.push(Entry::phantom(Phantom::Odd, 0));
    }
    let mut d = Draw::new(entries);
    d.label_group(1, "future winners of round 1".to_string());
    d.label_group(0, "future losers of round 1".to_string());
    // The two placeholders of a board met in round 1.
    let mut of_player: HashMap<PlayerIdx, Vec<usize>> = HashMap::new();
    let mut of_board: HashMap<u32, Vec<usize>> = HashMap::new();
    for (i, slot) in plan.slots.iter().enumerate() {
        for &p in &slot.players {
            of_player.entry(p).or_default().push(i);
        }
        if slot.kind != SlotKind::Known {
            of_board.entry(slot.board).or_default().push(i);
        }
    }
    for (board, slots) in &of_board {
        if let [i, j] = slots.as_slice() {
            d.forbid(*i, *j, format!("both come from board {board} of round 1"));
        }
    }
    // Placeholders either of whose players may not meet (CG-10) are kept apart.
    for (x, y) in rec.forbidden_pairs() {
        let (Some(xs), Some(ys)) = (of_player.get(&x), of_player.get(&y)) else {
            continue;
        };
        for &i in xs {
            for &j in ys {
                d.forbid(
                    i,
                    j,
                    format!(
                        "{} and {} may not meet (CG-10), and either could come out of each",
                        id(x),
                        id(y)
                    ),
                );
            }
        }
    }
    ex.group("round 2 drawn early (BG-8)");
    ex.step(
        "BG-8",
        format!(
            "round 2 is drawn on round 1's {} boards: future winners among themselves, future losers among themselves{}{}",
            plan.slots.iter().filter(|s| s.kind == SlotKind::Winner).count(),
            if plan.slots.iter().filter(|s| s.kind != SlotKind::Loser).count() % 2 == 1 {
                "; the last future winner meets a future loser of another board"
            } else {
                ""
            },
            if plan.odd { "; the last future loser meets [absent]" } else { "" }
        ),
        Vec::new(),
    );
    let drawn = d.run(&[Level::Strict], ex);
    (d, drawn)
}

/// The early draw of round 2, as `PairProvisional` answers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProvisionalPairing {
    /// Always 2.
    pub round: u32,
    /// Placeholder pairs, first-drawn first, in board order.
    pub boards: Vec<(Slot, Slot)>,
    /// Placeholders that meet [absent] and win (BG-3).
    pub absent: Vec<Slot>,
    pub explanation: Explanation,
    pub warnings: Vec<crate::systems::Warning>,
    /// The event's regular rounds (BG-1).
    pub total_rounds: u32,
    pub match_length: Option<u32>,
    /// The seed of the lots: give it to `Pair` for round 2 to get the same pairs.
    pub seed: u64,
}

/// BG-8: draws round 2 of a snapshot whose round 1 is paired and has no result yet.
pub fn pair_provisional(
    t: &Tournament,
    options: &PairOptions,
) -> Result<ProvisionalPairing, PairError> {
    let invalid = |path: &str, message: String| {
        PairError::Invalid(Problems(vec![Problem::new(path, message)]))
    };
    let mut warnings = Vec::new();
    let what = "the early draw of round 2 (BG-8)";
    let t = super::backgammon_snapshot(t, options, what, &mut warnings)?;
    let paired = t.rounds_paired();
    if paired == 0 {
        return Err(invalid(
            "tournament.rounds",
            format!(
                "round 1 is not drawn yet: {what} pairs the future winners of round 1's boards; pair round 1 first"
            ),
        ));
    }
    if let Some(n) = options.round.filter(|&n| n != 2) {
        return Err(invalid(
            "round",
            format!("{what} draws round 2, not round {n}"),
        ));
    }
    if paired > 1 {
        return Err(invalid(
            "tournament.rounds",
            format!("{paired} rounds are paired: {what} is only for round 2 before round 1 ends"),
        ));
    }
    let r = RoundToPair::prepare(
        &t,
        &PairOptions {
            round: Some(2),
            ..options.clone()
        },
    )?;
    let total = super::check_round(&r, super::Results::NoneYet)?;
    let plan = plan(&r, total, false)
        .map_err(|why| invalid("tournament", format!("{what} is not possible: {why}")))?;
    let rec = Record::build(&r.tournament, 2);
    let match_length =
        crate::systems::System::options(&super::Backgammon, &r.tournament.options).match_length;
    let mut ex = Explanation::default();
    super::explain_event(&r.tournament, total, match_length, &mut ex);
    let (d, drawn) = draw(&r, &rec, &plan, false, &mut ex);
    let Some(drawn) = drawn else {
        return Err(super::no_pairing(
            "BG-8",
            "round 1's placeholders cannot all be paired without a possible repeat or forbidden pair; wait for the results and use Pair".to_string(),
            &ex,
        ));
    };
    let slot = |e: usize| plan.slots.get(e).cloned();
    let mut boards = Vec::new();
    let mut absent = Vec::new();
    for &(a, b) in &drawn.pairs {
        match (slot(a), slot(b)) {
            (Some(x), Some(y)) => boards.push((x, y)),
            (Some(x), None) | (None, Some(x)) => absent.push(x),
            (None, None) => {}
        }
    }
    debug_assert_eq!(d.entries().len(), plan.slots.len() + usize::from(plan.odd));
    Ok(ProvisionalPairing {
        round: 2,
        boards,
        absent,
        explanation: ex.filtered(options.detail),
        warnings,
        total_rounds: total,
        match_length,
        seed: r.seed,
    })
}
