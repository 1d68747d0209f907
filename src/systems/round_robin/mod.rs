//! Round robin by FIDE Berger tables (systems.md RR-1..RR-4; C.05 Annex 1).
//!
//! The schedule is fixed by the table, so results do not matter: a round can be paired
//! before the previous one is played.
pub mod berger;
mod history;
pub mod options;

use rand::SeedableRng;
use rand::seq::SliceRandom;

use super::{Board, ByeAssignment, PairError, RoundPairing, RoundToPair, System, SystemInfo};
use crate::model::validate::{Problem, Problems};
use crate::model::{Colour, PlayerIdx, SystemId};
use options::Order;

pub struct RoundRobin;

/// Where a round falls in the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduledRound {
    /// Round of the Berger table (1..size-1).
    pub table_round: u32,
    /// Cycle, 1 or 2; the second has colours reversed (RR-2).
    pub cycle: u32,
}

/// The table round and cycle of tournament round `round` (1-based).
pub fn schedule(size: u32, round: u32, swap_last_two: bool) -> ScheduledRound {
    let per_cycle = size.saturating_sub(1).max(1);
    let cycle = (round - 1) / per_cycle + 1;
    let mut table_round = (round - 1) % per_cycle + 1;
    // FIDE's advice for double round robins: swap the last two rounds of the first cycle.
    if swap_last_two && cycle == 1 && per_cycle >= 3 {
        if table_round == per_cycle {
            table_round = per_cycle - 1;
        } else if table_round == per_cycle - 1 {
            table_round = per_cycle;
        }
    }
    ScheduledRound { table_round, cycle }
}

impl System for RoundRobin {
    type Options = options::Options;

    fn options(&self, given: &crate::model::SystemOptions) -> Self::Options {
        options::Options::of(given)
    }

    /// FIDE_ROUNDROBIN (TRF-26); a double round robin is the same system with two cycles.
    fn trf_code(&self, _options: &Self::Options, _t: &crate::model::Tournament) -> String {
        "FIDE_ROUNDROBIN".to_string()
    }

    fn reads_trf_code(&self, code: &str) -> bool {
        let base = super::without_baku(code);
        matches!(base, "FIDE_ROUNDROBIN" | "FIDE_DOUBLEROUNDROBIN")
            || base.starts_with("BERGER_ROUNDROBIN")
    }

    /// The Berger table decides who meets whom (RR-1): there is no choice to keep a group
    /// apart, so a separation is refused (SEP-4).
    fn separations_apply(&self) -> bool {
        false
    }

    /// Two players meet once, or once per cycle in a double round robin (RR-1).
    fn meetings_allowed(&self, t: &crate::model::Tournament) -> usize {
        let n = t.players.len() as u32;
        let per_cycle = (n + n % 2).saturating_sub(1).max(1);
        if t.total_rounds > per_cycle { 2 } else { 1 }
    }

    /// The Berger table fixes opponents and colours (RR-1, RR-2): no colour limit is the
    /// pairing's to keep, and nobody meets twice in a cycle.
    /// The table (bracket, rotation) fixes every pair of a round: a manual pairing off it
    /// is a violation of RR-1.
    fn fixed_pairs_rule(&self) -> Option<&'static str> {
        Some("RR-1")
    }

    fn absolute_rules(&self, _options: &Self::Options) -> super::AbsoluteRules {
        super::AbsoluteRules {
            colours: super::ColourLimits::None,
            colour_rule: "RR-2",
            rematch_rule: "RR-1",
            colourless: false,
            fixed_colours: true,
            second_bye_rule: None,
            colour_limits_in_last_round: false,
        }
    }
    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: SystemId::RoundRobin,
            title: "Round robin (Berger tables), single or double",
            rule_set: "FIDE C.05 Annex 1 Berger tables; systems.md RR-1..RR-4",
            options: options::Options::info(),
        }
    }

    fn pair(&self, r: &RoundToPair, options: &Self::Options) -> Result<RoundPairing, PairError> {
        let t = &r.tournament;
        let opts = *options;
        let mut problems = Vec::new();
        // RR-4: the table is drawn for the whole field at the start.
        for (i, p) in t.players.iter().enumerate() {
            if p.late_entry_round.is_some_and(|l| l > 1) {
                problems.push(Problem::new(
                    format!("tournament.players[{i}].late_entry_round"),
                    format!(
                        "player {:?}: late entrants cannot join a round robin (RR-4)",
                        p.id
                    ),
                ));
            }
        }
        let players = t.players.len() as u32;
        if players < 2 {
            problems.push(Problem::new(
                "tournament.players",
                "a round robin needs at least two players",
            ));
        }
        let size = players + players % 2;
        let per_cycle = size.saturating_sub(1).max(1);
        let cycles = match opts.cycles {
            Some(c @ 1..=2) => c,
            Some(c) => {
                problems.push(Problem::new(
                    "options.cycles",
                    format!("a round robin has 1 or 2 cycles, not {c}"),
                ));
                1
            }
            None if t.total_rounds > per_cycle => 2,
            None => 1,
        };
        if t.total_rounds > cycles * per_cycle {
            problems.push(Problem::new(
                "tournament.total_rounds",
                format!(
                    "{} rounds do not fit a {} round robin of {players} players ({} rounds)",
                    t.total_rounds,
                    if cycles == 2 { "double" } else { "single" },
                    cycles * per_cycle
                ),
            ));
        }
        if r.number > cycles * per_cycle {
            problems.push(Problem::new(
                "round",
                format!(
                    "round {} is beyond the schedule's {} rounds",
                    r.number,
                    cycles * per_cycle
                ),
            ));
        }
        if !problems.is_empty() {
            return Err(PairError::Invalid(Problems(problems)));
        }

        // RR-3: table number i holds seat[i - 1].
        let mut seat: Vec<PlayerIdx> = (0..t.players.len()).collect();
        seat.sort_by_key(|&p| t.pairing_number(p));
        if opts.order == Order::Lot {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(r.seed);
            seat.shuffle(&mut rng);
        }
        let table = history::Table {
            seat: &seat,
            size,
            swap_last_two: opts.swap_last_two_rounds,
        };
        if let Some(problem) = history::first_departure(t, &table) {
            return Err(PairError::Invalid(Problems(vec![problem])));
        }
        let mut out = RoundPairing::default();
        let ex = &mut out.explanation;
        ex.group(format!("round {}", r.number));
        if opts.order == Order::Lot {
            ex.step(
                "RR-3",
                format!("table numbers drawn by lot (seed {})", r.seed),
                Vec::new(),
            );
        } else {
            ex.detail(
                "RR-3",
                "table numbers follow the pairing numbers",
                Vec::new(),
            );
        }
        let sched = schedule(size, r.number, opts.swap_last_two_rounds);
        // CG-8: the colour of pairing number 1 in round 1, when given, is honoured by
        // reversing every game of the table when the table gives him the other colour (the
        // table's colour balance is kept). In round 1 of a Berger table, table numbers up
        // to size/2 have White. Without a given colour the table's own colours stand
        // (C.05 Annex 1) and CG-8's lot is not drawn: the table numbers (by pairing number,
        // or by lot with order=LOT) already decide who has which colour.
        let first = (0..t.players.len()).min_by_key(|&p| t.pairing_number(p));
        let first_table = first
            .and_then(|f| seat.iter().position(|&p| p == f))
            .map_or(1, |i| i as u32 + 1);
        let table_colour = if first_table <= size / 2 {
            Colour::White
        } else {
            Colour::Black
        };
        let black_first = !r.initial_colour_drawn && r.initial_colour != table_colour;
        if black_first {
            ex.step(
                "CG-8",
                format!(
                    "first-round colour {} for pairing number 1 (table number {first_table}, {} by the table): every game of the table has its colours reversed",
                    r.initial_colour, table_colour
                ),
                first.into_iter().collect(),
            );
        }
        let reversed = (sched.cycle == 2) != black_first;
        ex.step(
            "RR-1",
            format!(
                "Berger table for {size} players{}, table round {}{}",
                if players % 2 == 1 {
                    format!(" (number {size} is the bye)")
                } else {
                    String::new()
                },
                sched.table_round,
                if sched.cycle == 2 {
                    ", second cycle with colours reversed (RR-2)"
                } else {
                    ""
                }
            ),
            Vec::new(),
        );
        let here = |p: PlayerIdx| r.participants.contains(&p);
        for (w, b) in berger::round(size, sched.table_round) {
            let (w, b) = if reversed { (b, w) } else { (w, b) };
            let pw = seat.get(w as usize - 1).copied();
            let pb = seat.get(b as usize - 1).copied();
            match (pw, pb) {
                (Some(white), Some(black)) if here(white) && here(black) => {
                    ex.detail(
                        "RR-1",
                        format!("table {w} - {b}: {} - {}", r.id(white), r.id(black)),
                        vec![white, black],
                    );
                    out.boards.push(Board { white, black });
                }
                (Some(p), other) | (other, Some(p)) if here(p) => {
                    let why = match other {
                        None => " meets the bye number".to_string(),
                        Some(o) => format!("'s opponent {} does not play this round", r.id(o)),
                    };
                    let named = other.map_or_else(|| vec![p], |o| vec![p, o]);
                    ex.step("RR-1", format!("{}{why}: bye", r.id(p)), named);
                    out.byes.push(ByeAssignment::pab(p, &t.scoring));
                }
                _ => {}
            }
        }
        Ok(out)
    }
}
