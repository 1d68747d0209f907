//! What every system needs before pairing: the round's number, who is paired and who is
//! not (CG-6, CG-11), pairing numbers (CG-2) and the first-round colour (CG-8).
pub mod acceleration;
mod board_order;
pub mod club_game;
pub mod fide_compare;
pub mod fide_criteria;
pub mod fide_players;
mod history;
pub mod javapairing;
pub mod packed;
pub mod weak_candidates;

pub use board_order::board_order_key;
pub use history::{Float, History, PlayerHistory, ROUNDS_INLINE, RoundList};
use rand::{Rng, SeedableRng};

use super::{ByeAssignment, PairError, PairOptions};
use crate::model::validate::{Problem, Problems, check_tournament};
use crate::model::{ByeKind, Colour, GameResult, PlayerIdx, Tournament};

/// A round ready to be paired.
#[derive(Clone, Debug)]
pub struct RoundToPair {
    /// The snapshot, with pairing numbers assigned; only rounds before `number` are kept.
    pub tournament: Tournament,
    /// The round to pair (1-based).
    pub number: u32,
    /// Players to pair, by pairing number ascending.
    pub participants: Vec<PlayerIdx>,
    /// Players not paired this round (requested byes, absences), as they will be answered.
    pub preset_byes: Vec<ByeAssignment>,
    /// Colour of pairing number 1 in round 1 (CG-8), given or drawn.
    pub initial_colour: Colour,
    /// Whether `initial_colour` was drawn by lot.
    pub initial_colour_drawn: bool,
    /// Whether the snapshot gave the pairing numbers (otherwise CG-2 assigned them).
    pub pairing_numbers_given: bool,
    pub seed: u64,
    pub warnings: Vec<super::Warning>,
    /// How much explanation the request asked for: the pipeline keeps only that much
    /// ([`super::Explanation::filtered`]), so a system may skip writing the steps that would
    /// be dropped (a small request's cost is partly its explanation's text).
    pub detail: super::Detail,
}

impl RoundToPair {
    /// Checks the snapshot and the request and works out who is paired.
    pub fn prepare(t: &Tournament, options: &PairOptions) -> Result<RoundToPair, PairError> {
        RoundToPair::prepare_owned(t.clone(), options)
    }

    /// [`RoundToPair::prepare`] of a snapshot the caller gives away: the round keeps it
    /// (numbered, its later rounds dropped) instead of a copy. A small request's pipeline
    /// passes its snapshot this way; the copy was a twelfth of a 64-player request's work.
    pub fn prepare_owned(
        mut tournament: Tournament,
        options: &PairOptions,
    ) -> Result<RoundToPair, PairError> {
        let t = &tournament;
        let mut problems = Vec::new();
        check_tournament(t, &mut problems);
        let seed = options.seed.unwrap_or(t.lot_seed);
        let next = t.next_round();
        let number = options.round.unwrap_or(next);
        // An explicit round may also be one whose recorded predecessors needed no pairing.
        let paired = t.rounds_paired();
        let reachable = number > paired
            && number <= next
            && (paired + 1..number).all(|k| !t.round_needs_pairing(k));
        if !reachable {
            problems.push(Problem::new(
                "round",
                format!("round {number} cannot be paired: {paired} rounds are paired, so the next is round {next}"),
            ));
        }
        if t.total_rounds > 0 && number > t.total_rounds {
            problems.push(Problem::new(
                "round",
                format!(
                    "round {number} is beyond the tournament's {} rounds",
                    t.total_rounds
                ),
            ));
        }
        let pairing_numbers_given = t.has_pairing_numbers();
        // Byes already written in the round to pair (TRF `H`/`Z`/`F` in its columns, 240).
        let mut preset: Vec<(PlayerIdx, ByeKind, String)> = Vec::new();
        if let Some(round) = t.round(number) {
            for (i, b) in round.byes.iter().enumerate() {
                preset.push((
                    b.player,
                    b.kind,
                    format!("tournament.rounds[{}].byes[{i}]", number - 1),
                ));
            }
        }
        for (i, &p) in options.absent.iter().enumerate() {
            preset.push((p, ByeKind::Absent, format!("absent_player_ids[{i}]")));
        }
        for (i, &(p, kind)) in options.requested_byes.iter().enumerate() {
            if !matches!(
                kind,
                ByeKind::HalfPoint | ByeKind::ZeroPoint | ByeKind::FullPoint
            ) {
                problems.push(Problem::new(
                    format!("requested_byes[{i}].kind"),
                    format!("player {:?}: a requested bye is half-point, zero-point or full-point, not {}", id(t, p), kind.describe()),
                ));
            }
            preset.push((p, kind, format!("requested_byes[{i}]")));
        }
        let mut out_of_round = vec![false; t.players.len()];
        let mut preset_byes = Vec::new();
        for (p, kind, path) in preset {
            let Some(player) = t.players.get(p) else {
                problems.push(Problem::new(path, "unknown player"));
                continue;
            };
            if kind.is_pairing_allocated() {
                problems.push(Problem::new(
                    path,
                    format!(
                        "player {:?}: round {number} is not paired yet, so it cannot hold a {}",
                        player.id,
                        kind.describe()
                    ),
                ));
                continue;
            }
            if out_of_round[p] {
                problems.push(Problem::new(
                    path,
                    format!(
                        "player {:?} is given two byes or absences for round {number}",
                        player.id
                    ),
                ));
                continue;
            }
            out_of_round[p] = true;
            preset_byes.push(ByeAssignment {
                player: p,
                kind,
                points: kind.points(&t.scoring),
            });
        }
        if !problems.is_empty() {
            return Err(PairError::Invalid(Problems(problems)));
        }
        let mut warnings = Vec::new();
        bye_warnings(t, number, options, &preset_byes, &mut warnings);
        let given_colour = t.initial_colour;
        tournament.assign_pairing_numbers(seed);
        tournament.rounds.truncate(number as usize - 1);
        let mut participants: Vec<PlayerIdx> = (0..tournament.players.len())
            .filter(|&p| !out_of_round[p] && tournament.players[p].is_active_in(number))
            .collect();
        // The index breaks ties, so the unstable sort gives the stable sort's order.
        participants.sort_unstable_by_key(|&p| (tournament.pairing_number(p), p));
        let (initial_colour, initial_colour_drawn) = match given_colour {
            Some(c) => (c, false),
            None => {
                // CG-8: the lot comes from the request's seed, never from the clock.
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5EED_C010_0000_0001);
                let colour = if rng.random::<bool>() {
                    Colour::White
                } else {
                    Colour::Black
                };
                if number == 1 {
                    warnings.push(super::Warning::new(
                        "COLOUR_LOT",
                        "CG-8",
                        colour_lot_warning(colour, seed),
                    ));
                }
                (colour, true)
            }
        };
        Ok(RoundToPair {
            tournament,
            number,
            participants,
            preset_byes,
            initial_colour,
            initial_colour_drawn,
            pairing_numbers_given,
            seed,
            warnings,
            detail: options.detail,
        })
    }

    /// C.04.7: Baku virtual points when the system's options ask for them and the snapshot
    /// gives none; the pipeline applies it right after [`RoundToPair::prepare`] with the
    /// method the system decoded (`System::acceleration`). A team event's are the Swiss
    /// Team system's own (`team_swiss/baku.rs`): per team, not per player.
    pub fn accelerate(
        &mut self,
        method: acceleration::AccelerationMethod,
    ) -> Result<(), PairError> {
        if !self.tournament.is_team_event()
            && let Some(note) = acceleration::apply(&mut self.tournament, method)?
        {
            self.warnings
                .push(super::Warning::new("ACCELERATION", "C.04.7", note));
        }
        Ok(())
    }

    /// An error unless every game of the rounds before has a result (for systems whose
    /// pairing depends on scores).
    pub fn require_results(&self) -> Result<(), PairError> {
        let t = &self.tournament;
        let mut problems = Vec::new();
        for (r, round) in t.rounds.iter().enumerate() {
            for (g, game) in round.games.iter().enumerate() {
                if matches!(game.result, GameResult::Pending) {
                    problems.push(Problem::new(
                        format!("tournament.rounds[{r}].games[{g}].result"),
                        format!(
                            "round {}: the game {:?} - {:?} has no result",
                            r + 1,
                            id(t, game.white),
                            id(t, game.black)
                        ),
                    ));
                }
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(PairError::Invalid(Problems(problems)))
        }
    }

    /// A player's id, for messages.
    pub fn id(&self, p: PlayerIdx) -> &str {
        id(&self.tournament, p)
    }
}

/// The warning of a first-round colour drawn by lot (CG-8).
pub fn colour_lot_warning(colour: Colour, seed: u64) -> String {
    format!("no first-round colour given: pairing number 1 gets {colour} by lot (seed {seed})")
}

fn id(t: &Tournament, p: PlayerIdx) -> &str {
    t.players.get(p).map_or("?", |pl| pl.id.as_str())
}

/// FIDE's verification (VCL4THP Q174, Q177-179): a second half-point bye is the checklist's
/// Level 3 warning and a full-point bye, which FIDE deprecates, its Level 2 warning. The
/// round is paired all the same: the warning tells the arbiter (and the client, which
/// writes the `###` comment the checklist asks for). A Double-Swiss match's second game
/// repeats its first game's bye (C.04.5 art. 0): that is the same bye, not a second one.
fn bye_warnings(
    t: &Tournament,
    number: u32,
    options: &PairOptions,
    preset_byes: &[ByeAssignment],
    warnings: &mut Vec<super::Warning>,
) {
    let id = |p: PlayerIdx| t.players.get(p).map_or("?", |pl| pl.id.as_str());
    let same_match = |r: u32| {
        options.system == Some(crate::model::SystemId::DoubleSwiss)
            && number.is_multiple_of(2)
            && r + 1 == number
    };
    for b in preset_byes {
        match b.kind {
            ByeKind::HalfPoint => {
                let earlier: Vec<String> = t
                    .rounds
                    .iter()
                    .take(number as usize - 1)
                    .enumerate()
                    .filter(|&(i, r)| {
                        !same_match(i as u32 + 1)
                            && r.byes
                                .iter()
                                .any(|x| x.player == b.player && x.kind == ByeKind::HalfPoint)
                    })
                    .map(|(i, _)| (i + 1).to_string())
                    .collect();
                if !earlier.is_empty() {
                    warnings.push(
                        super::Warning::new(
                            "SECOND_HALF_POINT_BYE",
                            "",
                            format!(
                                "player {:?} asks for a half-point bye again (round {} already): a Level 3 warning of FIDE's checklist",
                                id(b.player),
                                earlier.join(", ")
                            ),
                        )
                        .with_players(vec![b.player]),
                    );
                }
            }
            ByeKind::FullPoint if !same_match(number - 1) => {
                warnings.push(
                    super::Warning::new(
                        "FULL_POINT_BYE",
                        "",
                        format!(
                            "player {:?} has a full-point bye, which FIDE deprecates outside exceptional cases: a Level 2 warning of FIDE's checklist",
                            id(b.player)
                        ),
                    )
                    .with_players(vec![b.player]),
                );
            }
            _ => {}
        }
    }
}
