//! The FIDE Swiss Team system (C.04.6, applied from 1 February 2026).
//!
//! # How a team system plugs into the player-oriented pipeline
//! The pipeline prepares a [`RoundToPair`] of players as for every system. This system
//! builds its team view inside this folder (`state.rs`: each team's match and game points,
//! colours of its played matches, preference, float, meetings) from the tournament's teams
//! (`Tournament::teams`, `model::team`) and the players' games, pairs the teams
//! (`pairing.rs`, art. 3), allocates their colours (`colour.rs`, art. 4), and answers in
//! the one shared [`RoundPairing`]: the team pairings in its optional `teams` field
//! ([`TeamRoundPairing`]) and the board games of every match, line-ups included, as its
//! `boards`. A team's PAB is in `teams.pab`; its players get no individual bye (their
//! points column holds board points only).
//!
//! # Readings (docs/decisions.md, "Team Swiss (C.04.6)")
//! - A match forfeited on every board is not played (art. 1.6.1): no meeting, no colour;
//!   its winner cannot have the PAB (art. 2.1.2 [C2]).
//! - "The last two rounds" ([C7], [C10]) and type B's "last round" (art. 1.7.2) are read
//!   from the declared number of rounds (`142`/`XXR`), at least the round being paired.
//! - Art. 3.5.5 "complies with [C6] and [C7]": the best ([C6], [C7]) value a legal set of
//!   the score profile attains, the first such set in the order of art. 3.5.4 winning; a
//!   number of upfloaters or a profile with no legal set is passed over ([C3]).
//! - [C6] art. 2.3.3: what is left of the next scoregroup can still be paired with the
//!   fewest upfloaters its parity allows.
//! - Match order on the boards (C.04.6 is silent; GHR art. 3.6): the higher score of the
//!   pair, then the higher sum, then the smaller TPN; board line-ups are the roster order
//!   without absent players, board 1's colour the team's, then the `352` sequence.
mod baku;
mod colour;
pub mod compare;
pub(crate) mod manual;
pub(crate) mod pairing;
pub mod state;
#[cfg(test)]
mod tests;

use super::options::{parse_choice, read};
use super::{
    AbsoluteRules, Board, ColourLimits, Explanation, OptionInfo, PairError, RoundPairing,
    RoundToPair, System, SystemInfo, Warning,
};
use crate::model::{
    PrimaryScore, Score, SystemId, SystemOptions, TeamColourType, TeamIdx, TeamSettings, Tournament,
};

/// One team match of a round: the team with White on board 1 first, its boards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamPairing {
    pub white: TeamIdx,
    pub black: TeamIdx,
    /// The board games, board 1 first (players of `white` have the board colour sequence).
    pub boards: Vec<Board>,
    /// The article that gave the colours.
    pub colour_rule: String,
}

/// The teams' side of a round's answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TeamRoundPairing {
    /// In board order of the matches.
    pub matches: Vec<TeamPairing>,
    /// The team with the pairing-allocated bye, and what it scores.
    pub pab: Option<TeamIdx>,
    pub pab_match_points: Score,
    pub pab_game_points: Score,
}

/// The FIDE Swiss Team system.
pub struct TeamSwiss;

const COLOUR_TYPES: &[(&str, TeamColourType)] = &[
    ("A", TeamColourType::A),
    ("B", TeamColourType::B),
    ("NONE", TeamColourType::None),
];
const PRIMARY: &[(&str, PrimaryScore)] = &[
    ("MP", PrimaryScore::MatchPoints),
    ("GP", PrimaryScore::GamePoints),
];

fn parse_colour_type(v: &str) -> Result<(), String> {
    parse_choice(v, COLOUR_TYPES).map(|_| ())
}

fn parse_primary(v: &str) -> Result<(), String> {
    parse_choice(v, PRIMARY).map(|_| ())
}

/// The Swiss Team system's options, decoded once: `colour_type` and `primary_score`
/// override the team settings (the record 192 code's) when set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub colour_type: Option<TeamColourType>,
    pub primary_score: Option<PrimaryScore>,
    pub acceleration: crate::systems::AccelerationMethod,
}

impl Options {
    /// Decodes the options; the pipeline has checked every value with the same parsers.
    pub fn of(given: &SystemOptions) -> Options {
        Options {
            colour_type: read(given, "colour_type", |v| parse_choice(v, COLOUR_TYPES)),
            primary_score: read(given, "primary_score", |v| parse_choice(v, PRIMARY)),
            acceleration: crate::systems::options::acceleration(given),
        }
    }

    /// Team settings with these options applied.
    pub fn apply(&self, settings: &mut TeamSettings) {
        if let Some(c) = self.colour_type {
            settings.colour_type = c;
        }
        if let Some(p) = self.primary_score {
            settings.primary = p;
        }
    }
}

/// The tournament with the request's options applied to its team settings.
fn with_options(t: &Tournament, options: &Options) -> Tournament {
    let mut t = t.clone();
    options.apply(&mut t.team_settings);
    t
}

impl System for TeamSwiss {
    type Options = Options;

    fn options(&self, given: &crate::model::SystemOptions) -> Self::Options {
        Options::of(given)
    }

    /// The team event's code spells its settings (`FIDE_TEAM_TYPEA_MP_GP`); `_BAKU` with
    /// the Baku acceleration.
    fn trf_code(&self, options: &Options, t: &Tournament) -> String {
        let code = if t.is_team_event() {
            t.team_settings.trf_code()
        } else {
            "FIDE_TEAM".to_string()
        };
        crate::systems::with_baku(&code, options.acceleration)
    }

    fn reads_trf_code(&self, code: &str) -> bool {
        crate::systems::without_baku(code).starts_with("FIDE_TEAM")
    }

    /// The code's tokens are the team settings (colour type, primary score).
    fn read_trf_code(
        &self,
        code: &str,
        _dates: &crate::systems::EventDates,
        t: &mut Tournament,
    ) -> Vec<String> {
        t.team_settings.read_trf_code(code);
        if code.ends_with("_BAKU") {
            // A declared name: `set` cannot fail.
            let _ = t.options.set("acceleration", "BAKU");
        }
        Vec::new()
    }

    fn acceleration(&self, options: &Options) -> crate::systems::AccelerationMethod {
        options.acceleration
    }

    fn pairs_team_events(&self) -> bool {
        true
    }

    /// SEP-5 in a team event (SEP-6, TS-SEP in team-swiss.md): `WEAK` after [C6] and
    /// before [C7] (a set of upfloaters valued by the fewest matches within a group its
    /// bracket can make; the bracket paired with the fewest, then [C8]); `WEAK_LAST` after
    /// [C10], before art. 3.6.2's identifiers, within the upfloaters art. 3.5 chose;
    /// `WEAK_FIRST` (TS-SEP.4) the round's fewest over every legal pairing, kept reachable
    /// by the PAB and every set of upfloaters (above [C4]-[C10] and 3.4.2-3.4.4).
    fn weak_separation_places(&self) -> &'static [crate::model::WeakPlace] {
        &crate::model::WeakPlace::ALL
    }

    /// A team event is checked team by team (C.04.6).
    fn validate_manual(
        &self,
        options: &Options,
        t: &Tournament,
        proposal: &crate::systems::manual::Proposal,
        request: &crate::systems::PairOptions,
    ) -> Option<Result<crate::systems::manual::ManualReport, PairError>> {
        t.is_team_event()
            .then(|| manual::validate(t, proposal, request, options))
    }

    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: SystemId::TeamSwiss,
            title: "FIDE Swiss Team system",
            rule_set: "FIDE C.04.6 (2026)",
            options: vec![
                OptionInfo {
                    name: "colour_type",
                    kind: "A|B|NONE",
                    default_value: "A",
                    description: "colour preferences: type A (art. 1.7.1), type B (art. 1.7.2) or none; default the record 192 code's",
                    parse: parse_colour_type,
                },
                OptionInfo::ACCELERATION,
                OptionInfo {
                    name: "primary_score",
                    kind: "MP|GP",
                    default_value: "MP",
                    description: "the score that pairs (art. 1.2): match points or game points; the other decides colours",
                    parse: parse_primary,
                },
            ],
        }
    }

    fn pair(
        &self,
        round: &RoundToPair,
        options: &Self::Options,
    ) -> Result<RoundPairing, PairError> {
        round.require_results()?;
        let mut round = round.clone();
        round.tournament = with_options(&round.tournament, options);
        let round = &round;
        let field = state::build(round, options.acceleration)?;
        let mut explanation = Explanation::default();
        let paired = pairing::pair(&field, &mut explanation)?;
        explanation.group("colours");
        let mut matches: Vec<(usize, usize, &'static str)> = paired
            .pairs
            .iter()
            .map(|&(a, b)| colour::allocate(&field, a, b))
            .collect();
        // Match order (GHR art. 3.6; C.04.6 is silent): higher score of the pair, higher
        // sum, smaller TPN.
        matches.sort_by(|x, y| {
            let key = |(a, b, _): &(usize, usize, &str)| {
                let (sa, sb) = (field.teams[*a].primary, field.teams[*b].primary);
                (
                    std::cmp::Reverse(sa.max(sb)),
                    std::cmp::Reverse(sa + sb),
                    field.teams[*a].tpn.min(field.teams[*b].tpn),
                )
            };
            key(x).cmp(&key(y))
        });
        let t = &round.tournament;
        let mut out = RoundPairing::default();
        let mut warnings = Vec::new();
        if let Some((_, note)) = baku::plan(t, options.acceleration)? {
            warnings.push(Warning::new("ACCELERATION", "C.04.7", note));
        }
        let mut team_matches = Vec::new();
        for &(w, b, rule) in &matches {
            let (tw, tb) = (&field.teams[w], &field.teams[b]);
            explanation.step(
                rule,
                format!(
                    "team {} has White on board 1 against team {}",
                    tw.tpn, tb.tpn
                ),
                Vec::new(),
            );
            let boards = line_up(
                t,
                round.number,
                &round.participants,
                tw.team,
                tb.team,
                &mut warnings,
            );
            out.boards.extend(boards.iter().copied());
            team_matches.push(TeamPairing {
                white: tw.team,
                black: tb.team,
                boards,
                colour_rule: rule.to_string(),
            });
        }
        let (pab_mp, pab_gp) = t.team_pab_points();
        out.teams = Some(TeamRoundPairing {
            matches: team_matches,
            pab: paired.pab.map(|p| field.teams[p].team),
            pab_match_points: pab_mp,
            pab_game_points: pab_gp,
        });
        out.explanation = explanation;
        out.warnings = warnings;
        Ok(out)
    }

    fn absolute_rules(&self, _options: &Self::Options) -> AbsoluteRules {
        AbsoluteRules {
            // Preface: articles 6 and 7 of the basic rules never apply; no colour is absolute.
            colours: ColourLimits::None,
            colour_rule: "C.04.6 Preface",
            rematch_rule: "C.04.6 art. 2.1.1",
            colourless: false,
            fixed_colours: false,
            second_bye_rule: Some("C.04.6 art. 2.1.2"),
            colour_limits_in_last_round: false,
        }
    }

    /// "Why not?" in the system's own order (`compare.rs`).
    fn compare(
        &self,
        options: &Self::Options,
        round: &RoundToPair,
        first: &RoundPairing,
        second: &RoundPairing,
    ) -> Option<crate::systems::comparison::Comparison> {
        crate::systems::comparison::unless_same(first, second, || {
            compare::compare(round, options, first, second)
        })
    }
}

/// The boards of a match: each team's line-up for the round (the request's, else the
/// roster order without the players who do not take part), board 1's colour the team's,
/// the other boards by the board colour sequence (`352`, else alternating).
pub fn line_up(
    t: &Tournament,
    number: u32,
    participants: &[crate::model::PlayerIdx],
    white: TeamIdx,
    black: TeamIdx,
    warnings: &mut Vec<Warning>,
) -> Vec<Board> {
    let boards = t.boards() as usize;
    let players = |team: TeamIdx| -> Vec<usize> {
        let given = t
            .team_settings
            .lineups
            .iter()
            .find(|l| l.round == number && l.team == team);
        let source: &[usize] = match given {
            Some(l) => &l.players,
            None => t.teams.get(team).map_or(&[], |x| x.members.as_slice()),
        };
        source
            .iter()
            .copied()
            .filter(|p| participants.contains(p))
            .take(boards)
            .collect()
    };
    let (pw, pb) = (players(white), players(black));
    if pw.len() < boards || pb.len() < boards {
        warnings.push(Warning::new(
            "SHORT_LINE_UP",
            "C.04.6 art. 1.6",
            format!(
                "team {} - team {}: {} and {} players for {boards} boards; the boards without a player are left out",
                t.team_tpn(white),
                t.team_tpn(black),
                pw.len(),
                pb.len()
            ),
        ));
    }
    pw.iter()
        .zip(pb.iter())
        .enumerate()
        .map(|(k, (&a, &b))| {
            if t.team_settings.board_colour(k) == crate::model::Colour::White {
                Board { white: a, black: b }
            } else {
                Board { white: b, black: a }
            }
        })
        .collect()
}
