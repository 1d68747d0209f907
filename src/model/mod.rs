//! The tournament model: what a snapshot says, independent of gRPC and of TRF.
//!
//! Players are referred to by their index in [`Tournament::players`]; the stable string id a
//! client uses lives in [`Player::id`]. Rounds are 1-based in every public API and stored in
//! order (`rounds[0]` is round 1).
mod colour;
mod history;
pub mod limits;
mod result;
pub mod scheveningen;
mod score;
mod scoring;
mod separation;
mod system;
mod team;
pub mod validate;
mod warning;

pub use colour::Colour;
pub use history::RoundEntry;
pub use result::{ByeKind, GameResult};
pub use score::{Score, ScoreError};
pub use scoring::Scoring;
pub use separation::{
    SeparatedGroup, Separation, SeparationKey, SeparationMode, WeakPlace, WeakSeparations,
    valid_prefix as valid_group_prefix,
};
pub use system::{SystemId, UnknownSystem};
pub use team::{
    PrimaryScore, Team, TeamColourType, TeamForfeit, TeamIdx, TeamLineup, TeamMatch, TeamRound,
    TeamSettings, team_points, team_rounds,
};
pub use warning::Warning;

/// Index of a player in [`Tournament::players`].
pub type PlayerIdx = usize;

/// A player.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Player {
    /// Stable identifier, unique in the tournament (for TRF input: the starting rank).
    pub id: String,
    pub name: String,
    /// 0 = unrated.
    pub rating: u32,
    pub title: String,
    pub federation: String,
    pub fide_id: String,
    pub sex: String,
    /// As given (TRF `YYYY/MM/DD` or just a year); empty = unknown.
    pub birth_date: String,
    /// Tournament pairing number; `None` until assigned (see [`Tournament::assign_pairing_numbers`]).
    pub pairing_number: Option<u32>,
    /// First round the player no longer takes part in.
    pub withdrawn_from_round: Option<u32>,
    /// First round the player takes part in, when later than round 1 (CG-9).
    pub late_entry_round: Option<u32>,
    pub team_id: String,
    /// The player's club; empty = none (a club separation never separates him, SEP-1).
    pub club: String,
    /// Named groups, `prefix:name` (`family:smith`, `school:north`), for separations by
    /// group prefix (SEP-1).
    pub groups: Vec<String>,
    /// FIDE-rated games completed before this event (B.02 8.3.3: K is 40 until 30); for an
    /// unrated player, earlier games against rated opponents to pool (7.1). `None` =
    /// unknown (the K of 40 for new players is then not applied).
    pub rated_games: Option<u32>,
    /// The player's games in the rating period (n of B.02 8.3.3's K × n ≤ 700); `None` =
    /// this event's rated games.
    pub period_games: Option<u32>,
    /// The published rating has reached 2400 at some time (B.02 8.3.3: K stays 10).
    pub reached_2400: bool,
    /// Ratings in force from a round on, `(first_round, rating)`, first rounds increasing
    /// (events over 30 days, FIDE checklist Q212-216): `rating` holds before the first.
    /// Rating tie-breaks take each opponent's rating for the round of the game
    /// (docs/decisions.md, "Ratings by round").
    pub round_ratings: Vec<(u32, u32)>,
}

impl Player {
    /// The rating in force in `round`: the last `round_ratings` entry from that round or
    /// earlier, else `rating`.
    pub fn rating_in_round(&self, round: u32) -> u32 {
        self.round_ratings
            .iter()
            .rev()
            .find(|&&(first, _)| first <= round)
            .map_or(self.rating, |&(_, r)| r)
    }

    /// What is wrong with `round_ratings`, as `(entry index, message)`: first rounds from 1
    /// to `total_rounds` (when given), strictly increasing.
    pub fn round_ratings_problems(&self, total_rounds: u32) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        let mut previous = 0;
        for (j, &(first, _)) in self.round_ratings.iter().enumerate() {
            if first == 0 {
                out.push((j, "first_round must be 1 or more".to_string()));
            } else if total_rounds > 0 && first > total_rounds {
                out.push((
                    j,
                    format!("first_round {first} is after the last round ({total_rounds})"),
                ));
            } else if first <= previous {
                out.push((
                    j,
                    format!(
                        "first_round {first} does not follow the previous entry's {previous}: entries must be in increasing round order"
                    ),
                ));
            }
            previous = previous.max(first);
        }
        out
    }

    /// Whether the player takes part in `round` at all (entered and not withdrawn).
    pub fn is_active_in(&self, round: u32) -> bool {
        let entered = self.late_entry_round.is_none_or(|r| r <= round);
        let withdrawn = self.withdrawn_from_round.is_some_and(|r| r <= round);
        entered && !withdrawn
    }

    pub fn birth_year(&self) -> Option<u32> {
        let year: String = self.birth_date.chars().take(4).collect();
        if year.len() == 4 {
            year.parse().ok()
        } else {
            None
        }
    }
}

/// A game of a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub white: PlayerIdx,
    pub black: PlayerIdx,
    pub result: GameResult,
    /// Board number, when recorded.
    pub board: Option<u32>,
}

/// A player without an opponent in a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bye {
    pub player: PlayerIdx,
    pub kind: ByeKind,
}

/// One round: its games and byes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    pub games: Vec<Game>,
    pub byes: Vec<Bye>,
}

impl Round {
    /// Whether the round was paired: it has a game or a pairing-allocated bye (a PAB or a
    /// game against [absent]). A round with only requested byes or absences is not paired
    /// yet (CG-11).
    pub fn is_paired(&self) -> bool {
        !self.games.is_empty() || self.byes.iter().any(|b| b.kind.is_pairing_allocated())
    }
}

/// Players none of whom may meet another in a range of rounds (CG-10).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForbiddenPairing {
    pub players: Vec<PlayerIdx>,
    pub first_round: Option<u32>,
    pub last_round: Option<u32>,
}

impl ForbiddenPairing {
    pub fn applies_to(&self, round: u32) -> bool {
        self.first_round.is_none_or(|r| r <= round) && self.last_round.is_none_or(|r| round <= r)
    }
}

/// Virtual points added to a player's pairing score for a range of rounds (C.04.7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Acceleration {
    pub player: PlayerIdx,
    pub first_round: u32,
    pub last_round: u32,
    pub points: Score,
}

/// The system options a request set, by name, as text: `cycles=2`, `profile=JAVAPAIRING`.
///
/// The model does not know what they mean. Each system declares the options it reads
/// (`SystemInfo::options`, each with its parser) and parses its typed options from these
/// values in its own folder (`systems/<name>/options.rs`); the pipeline refuses an option
/// the chosen system does not declare, or a value its parser refuses, before the system
/// runs. A new system's options therefore touch nothing outside its folder.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SystemOptions {
    values: std::collections::BTreeMap<String, String>,
}

impl SystemOptions {
    /// Sets option `name` (case and `-`/`_` insensitive) to `value` (trimmed). Whether the
    /// name and the value mean anything is the chosen system's to say.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let key = Self::normalise(name);
        if key.is_empty() {
            return Err(format!("option {name:?}: an option needs a name"));
        }
        self.values.insert(key, value.trim().to_string());
        Ok(())
    }

    /// The value of option `name`, if it was set.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(&Self::normalise(name)).map(String::as_str)
    }

    /// Every option set, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    fn normalise(name: &str) -> String {
        name.trim().to_ascii_lowercase().replace('-', "_")
    }
}

/// A whole tournament snapshot (CG-1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tournament {
    pub name: String,
    pub system: Option<SystemId>,
    /// Declared number of rounds; 0 = unknown.
    pub total_rounds: u32,
    pub scoring: Scoring,
    /// Colour of pairing number 1 in round 1 (CG-8); `None` = drawn by lot.
    pub initial_colour: Option<Colour>,
    pub lot_seed: u64,
    pub options: SystemOptions,
    pub players: Vec<Player>,
    /// Past rounds, in order; the last may hold only requested byes for the round to pair.
    pub rounds: Vec<Round>,
    pub forbidden_pairings: Vec<ForbiddenPairing>,
    pub accelerations: Vec<Acceleration>,
    /// Groups of players kept apart (SEP-1..SEP-5, `model::separation`).
    pub separations: Vec<Separation>,
    /// Teams of a team event, in TPN order (empty for an individual event; `model::team`).
    pub teams: Vec<Team>,
    /// A team event's boards, match scoring, PAB and forfeited matches.
    pub team_settings: TeamSettings,
    /// The system named by a TRF file (record 192) that this build does not implement, as
    /// written: a request that relies on the file's system is refused naming it.
    pub unknown_system: Option<String>,
    /// The games recorded as not rated (TRF `W`/`D`/`L`: a game of under one move): each
    /// marks one game of `rounds`, played for pairing and tie-breaks with its points, left
    /// out of the rating only (`standings::fide_rating`).
    pub not_rated_games: Vec<NotRatedGame>,
}

/// The mark of a game not rated: round `round` (1-based), the game of `white` and `black`.
/// Kept beside the games rather than in [`Game`], so that every other part of the engine
/// reads a game as before.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NotRatedGame {
    pub round: u32,
    pub white: PlayerIdx,
    pub black: PlayerIdx,
}

impl Tournament {
    /// Whether the game of `a` and `b` (either colour) in round `round` (1-based) is
    /// recorded as not rated.
    pub fn is_not_rated(&self, round: u32, a: PlayerIdx, b: PlayerIdx) -> bool {
        self.not_rated_games.iter().any(|g| {
            g.round == round && ((g.white, g.black) == (a, b) || (g.white, g.black) == (b, a))
        })
    }

    /// Number of rounds already paired (the last rounds holding only requested byes or
    /// absences do not count).
    pub fn rounds_paired(&self) -> u32 {
        let paired = self
            .rounds
            .iter()
            .rposition(Round::is_paired)
            .map_or(0, |i| i + 1);
        paired as u32
    }

    /// Where the rounds after round `declared` are recorded, for an error naming the
    /// records at fault: " (round 6 on the lines of players 2, 7)", or "" if nowhere.
    pub fn rounds_after_where(&self, declared: u32) -> String {
        let mut out = Vec::new();
        for (index, round) in self.rounds.iter().enumerate().skip(declared as usize) {
            let mut players: Vec<PlayerIdx> = round
                .games
                .iter()
                .flat_map(|g| [g.white, g.black])
                .chain(round.byes.iter().map(|b| b.player))
                .collect();
            players.sort_by_key(|&p| self.pairing_number(p));
            players.dedup();
            if players.is_empty() {
                continue;
            }
            let ids: Vec<&str> = players
                .iter()
                .filter_map(|&p| self.players.get(p).map(|pl| pl.id.as_str()))
                .take(10)
                .collect();
            let more = if players.len() > 10 { ", …" } else { "" };
            out.push(format!(
                "round {} on the lines of players {}{more}",
                index + 1,
                ids.join(", ")
            ));
        }
        if out.is_empty() {
            String::new()
        } else {
            format!(" ({})", out.join("; "))
        }
    }

    /// Whether round `number` still has players to pair: someone who takes part in it
    /// (entered, not withdrawn) has no game or bye recorded there.
    pub fn round_needs_pairing(&self, number: u32) -> bool {
        let round = self.round(number);
        self.players.iter().enumerate().any(|(p, player)| {
            player.is_active_in(number)
                && round.is_none_or(|r| {
                    !r.byes.iter().any(|b| b.player == p)
                        && !r.games.iter().any(|g| g.white == p || g.black == p)
                })
        })
    }

    /// The round to pair next: the first after the paired ones that still has players to
    /// pair. A recorded round in which nobody was left to pair (everyone absent, not yet
    /// entered or with a requested bye) is passed over, so that it does not block the next.
    pub fn next_round(&self) -> u32 {
        let mut number = self.rounds_paired() + 1;
        while (number as usize) <= self.rounds.len() && !self.round_needs_pairing(number) {
            number += 1;
        }
        number
    }

    /// The round with this 1-based number, if recorded.
    pub fn round(&self, number: u32) -> Option<&Round> {
        number
            .checked_sub(1)
            .and_then(|i| self.rounds.get(i as usize))
    }

    /// Whether every player has a pairing number.
    pub fn has_pairing_numbers(&self) -> bool {
        self.players.iter().all(|p| p.pairing_number.is_some())
    }

    /// Assigns pairing numbers to a snapshot that has none (CG-2, C.04.2 2.1-2.3): rating
    /// descending (unrated last), then title (GM, IM, WGM, FM, WIM, CM, WFM, WCM, none),
    /// then name, then a lot drawn from `seed`. Players that already have numbers keep them.
    pub fn assign_pairing_numbers(&mut self, seed: u64) {
        if self.has_pairing_numbers() {
            return;
        }
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let lots: Vec<u64> = self.players.iter().map(|_| rng.random()).collect();
        let mut order: Vec<PlayerIdx> = (0..self.players.len()).collect();
        order.sort_by(|&a, &b| {
            let (pa, pb) = (&self.players[a], &self.players[b]);
            (pa.rating == 0)
                .cmp(&(pb.rating == 0))
                .then(pb.rating.cmp(&pa.rating))
                .then(title_rank(&pa.title).cmp(&title_rank(&pb.title)))
                .then(pa.name.cmp(&pb.name))
                .then(lots[a].cmp(&lots[b]))
        });
        for (number, idx) in order.into_iter().enumerate() {
            self.players[idx].pairing_number = Some(number as u32 + 1);
        }
    }

    /// The pairing number of a player (its index + 1 when none was assigned).
    pub fn pairing_number(&self, player: PlayerIdx) -> u32 {
        self.players
            .get(player)
            .and_then(|p| p.pairing_number)
            .unwrap_or(player as u32 + 1)
    }

    /// What each player did in each round, built once for the systems to read.
    pub fn entries(&self) -> Vec<Vec<RoundEntry>> {
        history::entries(self)
    }

    /// Every recorded entry as (player, round index from 0, entry), round by round, for a
    /// reader that keeps the entries in its own rows (see [`Tournament::entries`]).
    pub fn each_entry(&self, put: impl FnMut(PlayerIdx, usize, RoundEntry)) {
        history::each_entry(self, put);
    }

    /// Points of every player after the first `rounds` rounds, under the tournament's
    /// scoring (real points, not pairing points).
    pub fn points_after(&self, rounds: u32) -> Vec<Score> {
        let mut points = vec![Score::ZERO; self.players.len()];
        // Double-Swiss (C.04.5 1.4): rounds are games and the PAB is worth its value (option
        // `pab`, default 1.5) once per match, counted in game 1's column.
        let match_pab = (self.system == Some(SystemId::DoubleSwiss)).then(|| {
            self.options
                .get("pab")
                .and_then(Score::parse)
                .unwrap_or(Score::from_tenths(15))
        });
        for (index, round) in self.rounds.iter().take(rounds as usize).enumerate() {
            for game in &round.games {
                let (w, b) = game.result.points(&self.scoring);
                if let Some(p) = points.get_mut(game.white) {
                    *p += w;
                }
                if let Some(p) = points.get_mut(game.black) {
                    *p += b;
                }
            }
            for bye in &round.byes {
                let value = match (match_pab, bye.kind) {
                    (Some(v), ByeKind::Pab) if index % 2 == 0 => v,
                    (Some(_), ByeKind::Pab) => Score::ZERO,
                    _ => bye.kind.points(&self.scoring),
                };
                if let Some(p) = points.get_mut(bye.player) {
                    *p += value;
                }
            }
        }
        points
    }
}

/// Order of FIDE titles for pairing numbers (C.04.2 2.2); untitled last.
pub fn title_rank(title: &str) -> u8 {
    match title.trim().to_ascii_uppercase().as_str() {
        "GM" => 0,
        "IM" => 1,
        "WGM" => 2,
        "FM" => 3,
        "WIM" => 4,
        "CM" => 5,
        "WFM" => 6,
        "WCM" => 7,
        _ => 8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(name: &str, rating: u32, title: &str) -> Player {
        Player {
            id: name.to_string(),
            name: name.to_string(),
            rating,
            title: title.to_string(),
            ..Player::default()
        }
    }

    #[test]
    fn pairing_numbers_follow_rating_title_name() {
        let mut t = Tournament {
            players: vec![
                player("Unrated", 0, "GM"),
                player("Bravo", 2400, "FM"),
                player("Alpha", 2400, "FM"),
                player("Charlie", 2400, "IM"),
                player("Top", 2600, ""),
            ],
            ..Tournament::default()
        };
        t.assign_pairing_numbers(7);
        let numbers: Vec<u32> = t
            .players
            .iter()
            .map(|p| p.pairing_number.unwrap_or(0))
            .collect();
        assert_eq!(numbers, vec![5, 4, 3, 2, 1]);
    }

    #[test]
    fn pairing_number_ties_are_broken_by_seeded_lot() {
        let base = Tournament {
            players: (0..6).map(|_| player("Same", 2000, "")).collect(),
            ..Tournament::default()
        };
        let mut a = base.clone();
        a.assign_pairing_numbers(1);
        let mut b = base.clone();
        b.assign_pairing_numbers(1);
        assert_eq!(a, b);
        let orders: std::collections::BTreeSet<Vec<Option<u32>>> = (0..20)
            .map(|seed| {
                let mut t = base.clone();
                t.assign_pairing_numbers(seed);
                t.players.iter().map(|p| p.pairing_number).collect()
            })
            .collect();
        assert!(orders.len() > 1, "the lot should depend on the seed");
    }

    #[test]
    fn a_recorded_round_with_nobody_to_pair_does_not_block_the_next() {
        // Both players enter in round 2: round 1 is recorded with nothing in it.
        let late = |id: &str| Player {
            id: id.to_string(),
            late_entry_round: Some(2),
            ..Player::default()
        };
        let mut t = Tournament {
            players: vec![late("a"), late("b")],
            total_rounds: 2,
            ..Tournament::default()
        };
        assert_eq!(t.next_round(), 1);
        t.rounds.push(Round::default());
        assert_eq!(t.rounds_paired(), 0);
        assert!(!t.round_needs_pairing(1));
        assert_eq!(t.next_round(), 2);
        // A round holding only some players' requested byes still needs pairing.
        t.players.push(Player {
            id: "c".to_string(),
            ..Player::default()
        });
        assert!(t.round_needs_pairing(1));
        assert_eq!(t.next_round(), 1);
    }

    #[test]
    fn activity_follows_late_entry_and_withdrawal() {
        let p = Player {
            late_entry_round: Some(3),
            withdrawn_from_round: Some(6),
            ..Player::default()
        };
        assert!(!p.is_active_in(2));
        assert!(p.is_active_in(3));
        assert!(p.is_active_in(5));
        assert!(!p.is_active_in(6));
    }
}
