//! Structural validation of a snapshot: every problem at once, each naming where it is.
use std::fmt;

use super::{PlayerIdx, Tournament};

/// One problem in a snapshot: the field path (as in the proto, e.g.
/// `tournament.rounds[2].games[0].black_id`) and what is wrong, naming the player or round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    pub message: String,
}

impl Problem {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// A list of problems, shown one per line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problems(pub Vec<Problem>);

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        write!(f, "{n} problem{}", if n == 1 { "" } else { "s" })?;
        for p in &self.0 {
            write!(f, "\n  {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Problems {}

/// Checks what any system needs of a snapshot: players exist, nobody plays himself or
/// appears twice in a round, nobody is paired outside the rounds he takes part in, the
/// rounds fit in the declared number. Appends to `problems`.
pub fn check_tournament(t: &Tournament, problems: &mut Vec<Problem>) {
    let name = |p: PlayerIdx| -> String {
        t.players
            .get(p)
            .map_or_else(|| format!("#{p}"), |pl| format!("{:?}", pl.id))
    };
    let n = t.players.len();
    if n == 0 {
        problems.push(Problem::new(
            "tournament.players",
            "the tournament has no players",
        ));
    }
    if t.total_rounds > 0 && t.rounds_paired() > t.total_rounds {
        problems.push(Problem::new(
            "tournament.total_rounds",
            format!(
                "{} rounds are recorded as paired but the tournament has {} rounds{}",
                t.rounds_paired(),
                t.total_rounds,
                t.rounds_after_where(t.total_rounds)
            ),
        ));
    }
    let mut numbers: rustc_hash::FxHashMap<u32, usize> =
        rustc_hash::FxHashMap::with_capacity_and_hasher(n, Default::default());
    for (i, p) in t.players.iter().enumerate() {
        if let Some(number) = p.pairing_number {
            if number == 0 {
                problems.push(Problem::new(
                    format!("tournament.players[{i}].pairing_number"),
                    format!("player {:?}: pairing numbers start at 1", p.id),
                ));
            } else if let Some(prev) = numbers.insert(number, i) {
                problems.push(Problem::new(
                    format!("tournament.players[{i}].pairing_number"),
                    format!(
                        "player {:?} has pairing number {number}, already given to player {:?}",
                        p.id, t.players[prev].id
                    ),
                ));
            }
        }
        if let (Some(late), Some(wd)) = (p.late_entry_round, p.withdrawn_from_round)
            && wd < late
        {
            problems.push(Problem::new(
                format!("tournament.players[{i}].withdrawn_from_round"),
                format!(
                    "player {:?} withdraws (round {wd}) before entering (round {late})",
                    p.id
                ),
            ));
        }
    }
    let numbered = t
        .players
        .iter()
        .filter(|p| p.pairing_number.is_some())
        .count();
    if numbered != 0 && numbered != n {
        problems.push(Problem::new(
            "tournament.players",
            format!("{numbered} of {n} players have a pairing number: give one to every player or to none"),
        ));
    }
    for (r, round) in t.rounds.iter().enumerate() {
        let number = r as u32 + 1;
        // Where each player was first seen this round; field paths are written only for a
        // problem (a valid round allocates one vector).
        let mut seen: Vec<Option<Seat>> = vec![None; n];
        let mut mark =
            |p: PlayerIdx, seat: Seat, check_active: bool, problems: &mut Vec<Problem>| {
                let Some(slot) = seen.get_mut(p) else {
                    problems.push(Problem::new(
                        seat.path(r),
                        format!("round {number}: unknown player"),
                    ));
                    return;
                };
                if let Some(first) = slot {
                    problems.push(Problem::new(
                        seat.path(r),
                        format!(
                            "round {number}: player {} appears twice (also at {})",
                            name(p),
                            first.path(r)
                        ),
                    ));
                } else {
                    *slot = Some(seat);
                    let player = &t.players[p];
                    if check_active && !player.is_active_in(number) {
                        let why = if player.late_entry_round.is_some_and(|l| number < l) {
                            "has not entered yet"
                        } else {
                            "has withdrawn"
                        };
                        problems.push(Problem::new(
                            seat.path(r),
                            format!("round {number}: player {} is paired but {why}", name(p)),
                        ));
                    }
                }
            };
        for (g, game) in round.games.iter().enumerate() {
            if game.white == game.black {
                problems.push(Problem::new(
                    format!("tournament.rounds[{r}].games[{g}]"),
                    format!(
                        "round {number}: player {} plays against himself",
                        name(game.white)
                    ),
                ));
                continue;
            }
            mark(game.white, Seat::White(g), true, problems);
            mark(game.black, Seat::Black(g), true, problems);
        }
        for (b, bye) in round.byes.iter().enumerate() {
            // Absences and requested byes of players not entered yet or withdrawn are what
            // the TRF records for them (XXL rounds hold `0000 - Z` or `H`); a PAB or a game
            // against [absent] is not.
            let check_active = bye.kind.is_pairing_allocated();
            mark(bye.player, Seat::Bye(b), check_active, problems);
        }
    }
    for (i, f) in t.forbidden_pairings.iter().enumerate() {
        if f.players.len() < 2 {
            problems.push(Problem::new(
                format!("tournament.forbidden_pairings[{i}].player_ids"),
                "a forbidden pairing needs at least two players",
            ));
        }
    }
    check_separations(t, problems);
}

/// The separations and the players' groups (SEP-1..SEP-3): a group is `prefix:name`, a
/// separation's prefix is a word, its rounds a range from 1, its exemption has a number of
/// score groups.
fn check_separations(t: &Tournament, problems: &mut Vec<Problem>) {
    if t.separations.is_empty()
        && t.players.iter().all(|p| p.groups.is_empty())
        && t.teams.iter().all(|x| x.groups.is_empty())
    {
        return;
    }
    let group_ok = |g: &str| {
        g.trim()
            .split_once(':')
            .is_some_and(|(prefix, name)| super::valid_group_prefix(prefix) && !name.is_empty())
    };
    for (i, team) in t.teams.iter().enumerate() {
        for (j, g) in team.groups.iter().enumerate() {
            if !group_ok(g) {
                problems.push(Problem::new(
                    format!("tournament.teams[{i}].groups[{j}]"),
                    format!(
                        "team {:?}: group {} is not of the form prefix:name (e.g. region:north)",
                        team.id,
                        super::limits::shown(g)
                    ),
                ));
            }
        }
    }
    for (i, p) in t.players.iter().enumerate() {
        for (j, g) in p.groups.iter().enumerate() {
            let ok = g.trim().split_once(':').is_some_and(|(prefix, name)| {
                super::valid_group_prefix(prefix) && !name.is_empty()
            });
            if !ok {
                problems.push(Problem::new(
                    format!("tournament.players[{i}].groups[{j}]"),
                    format!(
                        "player {:?}: group {} is not of the form prefix:name (e.g. family:smith)",
                        p.id,
                        super::limits::shown(g)
                    ),
                ));
            }
        }
    }
    for (i, s) in t.separations.iter().enumerate() {
        let base = format!("tournament.separations[{i}]");
        if let super::SeparationKey::Group(prefix) = &s.key
            && !super::valid_group_prefix(prefix)
        {
            problems.push(Problem::new(
                format!("{base}.group_prefix"),
                format!(
                    "separation by group: the prefix {} must be a word without spaces or colons (e.g. family)",
                    super::limits::shown(prefix)
                ),
            ));
        }
        for (field, value) in [
            ("first_round", s.first_round),
            ("last_round", s.last_round),
            ("exempt_from_round", s.exempt_from_round),
        ] {
            if value == Some(0) {
                problems.push(Problem::new(
                    format!("{base}.{field}"),
                    "rounds are numbered from 1",
                ));
            }
        }
        if let (Some(first), Some(last)) = (s.first_round, s.last_round)
            && first > last
        {
            problems.push(Problem::new(
                format!("{base}.first_round"),
                format!(
                    "separation by {}: first round {first} is after last round {last}",
                    s.key.name()
                ),
            ));
        }
        if s.exempt_from_round.is_some() && s.exempt_top_groups.is_none_or(|k| k == 0) {
            problems.push(Problem::new(
                format!("{base}.exempt_top_groups"),
                format!(
                    "separation by {}: an exemption from a round needs the number of top score groups exempt",
                    s.key.name()
                ),
            ));
        }
    }
}

/// A player's place in a recorded round: the field [`check_tournament`] names for it.
#[derive(Clone, Copy)]
enum Seat {
    White(usize),
    Black(usize),
    Bye(usize),
}

impl Seat {
    fn path(self, round: usize) -> String {
        match self {
            Seat::White(g) => format!("tournament.rounds[{round}].games[{g}].white_id"),
            Seat::Black(g) => format!("tournament.rounds[{round}].games[{g}].black_id"),
            Seat::Bye(b) => format!("tournament.rounds[{round}].byes[{b}].player_id"),
        }
    }
}
