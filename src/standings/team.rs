//! Team standings (C.07, the team section of the 2026 text): teams ranked by match points
//! then game points (or the reverse, C.04.6 art. 1.2), then team tie-breaks; and the
//! board-by-board individual results (score and performance per board).
//!
//! The team rounds come from `model::team_rounds` (the players' games grouped by team).
//! Art. 13 lets the individual tie-breaks of arts. 6-10 be used for teams on either score;
//! they are the individual rules of `src/standings/` applied to a team's rounds (match
//! points or game points, `:MP` / `:GP`). Readings where the text leaves a choice, each
//! the one FIDE's checker (Gacrux 1.11.65) takes (`tests/data/conformance/team-standings`):
//! - **Unplayed rounds (C.07 art. 16 applied to teams).** A team's PAB and a match won or
//!   lost by forfeit on every board have no opponent over the board. In BH, FB, ESB and
//!   SSSC the round counts as a dummy with the team's own score, for a forfeit at most the
//!   scheduled opponent's (16.4.1), for the PAB at most a drawn match per round (16.4.2).
//! - **ESB (13.2)**: `E<X><Y>SB` = Σ over the rounds of the opponent's `X` score (M: match
//!   points, G: game points) times the team's own `Y` points in that round.
//! - **DE (art. 6)** among teams tied on everything before it: the primary points of the
//!   played matches among them (6.1.2: repeated meetings averaged); 6.2 when every tied team
//!   met every other, else 6.3 (a team alone on top whatever the missing matches give ranks
//!   first, then again for the rest), each new subset starting again. The same routine as
//!   EDE's (`team/ede.rs`), on the primary score only.
//! - **BC (12.1)**: Σ board number × game points on that board (lower is better). **TBR
//!   (12.2)**: game points on board 1, then board 2, … **BBE (12.3)**: game points on every
//!   board but the bottom one, then without the two bottom ones, … down to board 1. Over
//!   the event: an individual forfeit counts as a win or a loss, the PAB as a win on every
//!   board.
//! - **EDE (13.3)** and its named sequences EDEBT/EDEBB/EDET/EDEB: `team/ede.rs` (13.3.2's
//!   knock-out tie-breaks count the boards of the two teams' own match).
//! - **Rank codes** (DE, EDE and its sequences, TBR, BBE): the team's place inside its tie
//!   group (1 first, shared by the teams left tied), 0 when the code separates nobody.
//! - **SSSC (13.4)**: secondary score + BH on the primary score (art. 16 as for BH) / the
//!   normalising factor, the scheduled rounds (`total_rounds`, at least those recorded)
//!   giving the highest achievable primary score; `SSSC/Kx` states the factor, `SSSC/F`
//!   takes Fore Buchholz (final-round matches as drawn, art. 8.3).
//! - **WIN:MP / WON:MP (7.1 / 7.2)**: rounds with a won match's match points, played or not
//!   (a forfeit win counts; a PAB worth less than a win does not) / won over the board.
//! - **PS:MP / PS:GP (7.5)**: the running match or game points summed; `/Cn` leaves out the
//!   first n rounds.
//! - **FB:MP / FB:GP (8.3)**: BH with every match paired in the final round counted as a
//!   drawn match (its match and game points), for the team and for its opponents.
//! - **AOB:MP / AOB:GP (8.2)**: the average of the opponents' BH (`/F`: Fore Buchholz) over
//!   the matches played over the board, rounded half up to 2 decimals under 9 rounds, 3
//!   under 27 (Gacrux's precision).
//! - **KS:MP / KS:GP (9.2)**: the match or game points scored in every round with a
//!   scheduled opponent (forfeits included) against teams whose final score reaches half
//!   the most possible (a won match, or every board won, per round); `/L` as the
//!   individual KS (`/L+1`: half a point higher).
//! - **Modifiers (art. 14)**: `/Cn` (BH, FB, AOB, ESB) and `/Mn` (BH, FB, AOB) through the
//!   individual `buchholz::cut` (ESB's Cut-1 by 14.1.2; 16.5's VUR first); `/P` counts a
//!   forfeited match as played (BH, FB, AOB, ESB, SSSC: the opponent's score; DE, EDE: a
//!   meeting, 6.1.1).
//! - **Board results**: per board number, every player who played on it (a match's board
//!   k is the k-th of its members who played, roster order): games, points, and the
//!   performance (C.07 art. 10.2 TPR) over the games played over the board.
mod ede;

use std::cmp::Ordering;

use super::buchholz::{Contribution, cut};
use super::rating;
use super::value::Value;
use crate::model::validate::Problem;
use crate::model::{PlayerIdx, PrimaryScore, Score, TeamIdx, TeamRound, Tournament, team_rounds};

/// The art. 14 modifiers a team tie-break may carry (`/C1`, `/M1`, `/P`); the `/F` and
/// `/K` of SSSC live in its variant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mods {
    /// Cut-n (14.1, 14.2; ESB 14.1.2): the n least significant values are dropped.
    pub cut_low: u32,
    /// Median-n (14.3, 14.4) also drops the n most significant values.
    pub cut_high: u32,
    /// `/P`: a match forfeited on every board counts as played against the scheduled
    /// opponent (art. 6.1.1 "if included, they count as played").
    pub forfeits_played: bool,
}

impl Mods {
    fn suffix(self) -> String {
        let mut out = String::new();
        if self.cut_high > 0 {
            out.push_str(&format!("/M{}", self.cut_high));
        } else if self.cut_low > 0 {
            out.push_str(&format!("/C{}", self.cut_low));
        }
        if self.forfeits_played {
            out.push_str("/P");
        }
        out
    }
}

/// A team tie-break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TeamTieBreak {
    /// The secondary score (MPvGP: game points when match points pair, else match points).
    Secondary,
    /// Buchholz with the opponents' match points (`BH:MP`) or game points (`BH:GP`).
    Buchholz {
        mp: bool,
        mods: Mods,
    },
    /// Extended Sonneborn-Berger: opponent's X score × own Y points.
    Esb {
        opponent_mp: bool,
        own_mp: bool,
        mods: Mods,
    },
    DirectEncounter {
        forfeits_played: bool,
    },
    BoardCount,
    TopBoardResult,
    BottomBoardElimination,
    /// Extended Direct Encounter (C.07 13.3), with the knock-out tie-breaks 13.3.2 names
    /// after it for exactly two teams still tied (EDEBT, EDEBB, EDET, EDEB).
    ExtendedDirectEncounter {
        knockout: ede::Knockout,
        forfeits_played: bool,
    },
    /// Scores and Schedule Strength Combination (C.07 13.4): the secondary score plus the
    /// Buchholz on the primary score over a normalising factor (`SSSC/Kx` states it;
    /// `SSSC/F` takes Fore Buchholz, 13.4.2; `SSSC/P` counts forfeits as played).
    Sssc {
        factor: Option<u32>,
        fore: bool,
        forfeits_played: bool,
    },
    /// Matches won (art. 7.1 on matches, `WIN:MP`: a win's match points, played or not) or
    /// won over the board (7.2, `WON:MP`).
    Wins {
        over_board: bool,
    },
    /// Progressive score (7.5) on match points (`PS:MP`) or game points (`PS:GP`); `/Cn`
    /// leaves out the first n rounds' running scores.
    Progressive {
        mp: bool,
        cut: u32,
    },
    /// Fore Buchholz (8.3) on the opponents' match points (`FB:MP`) or game points
    /// (`FB:GP`): BH as if every final-round match had been drawn; BH's modifiers.
    ForeBuchholz {
        mp: bool,
        mods: Mods,
    },
    /// Average of the opponents' Buchholz (8.2) over the matches played, on match points
    /// (`AOB:MP`) or game points (`AOB:GP`); `/F` averages their Fore Buchholz.
    AverageBuchholz {
        mp: bool,
        fore: bool,
        mods: Mods,
    },
    /// Koya (9.2) on match points (`KS:MP`) or game points (`KS:GP`): the points scored
    /// against teams with at least the limit (`/L<percent>`, `/L+n` as the individual KS).
    Koya {
        mp: bool,
        limit_percent: u32,
        shift_hundredths: i64,
    },
}

const KNOWN: &str = "one of MPVGP, BH:MP, BH:GP, FB:MP, FB:GP, AOB:MP, AOB:GP, EMMSB, EMGSB, EGMSB, EGGSB, WIN:MP, WON:MP, PS:MP, PS:GP, KS:MP, KS:GP, DE, BC, TBR, BBE, EDE, EDEBT, EDEBB, EDET, EDEB, SSSC, with the modifiers /C1 /C2 (BH, FB, AOB, ESB, PS), /M1 /M2 (BH, FB, AOB), /P (BH, FB, AOB, ESB, DE, EDE*, SSSC), /F (SSSC, AOB), /K<n> (SSSC), /L (KS)";

impl TeamTieBreak {
    /// Parses a code: `MPVGP`, `BH:MP`, `BH:GP`, `FB:MP`, `FB:GP`, `AOB:MP`, `AOB:GP`,
    /// `EMMSB`, `EMGSB`, `EGMSB`, `EGGSB`, `WIN:MP`, `WON:MP`, `PS:MP`, `PS:GP`, `KS:MP`,
    /// `KS:GP`, `DE`, `BC`, `TBR`, `BBE`, `EDE`, `EDEBT`, `EDEBB`, `EDET`, `EDEB`, `SSSC`,
    /// each followed by its art. 14 modifiers in the TRF/MTB slash form: `BH:MP/M1/P`,
    /// `EMGSB/C1/P`, `FB:GP/C1/P`, `AOB:MP/F`, `KS:GP/L+1`, `EDET/P`, `SSSC/F/P/K4`.
    pub fn parse(code: &str) -> Result<TeamTieBreak, String> {
        let c = code.trim().to_ascii_uppercase();
        let mut parts = c.split('/');
        let base = parts.next().unwrap_or("").trim();
        let mut tb = Self::parse_base(code, base)?;
        for m in parts {
            tb = tb.with_modifier(code, m.trim())?;
        }
        Ok(tb)
    }

    fn parse_base(code: &str, base: &str) -> Result<TeamTieBreak, String> {
        let esb = |opponent_mp, own_mp| TeamTieBreak::Esb {
            opponent_mp,
            own_mp,
            mods: Mods::default(),
        };
        let ede = |knockout| TeamTieBreak::ExtendedDirectEncounter {
            knockout,
            forfeits_played: false,
        };
        Ok(match base {
            "MPVGP" | "GP" | "MP" => TeamTieBreak::Secondary,
            "BH:MP" | "BH" => TeamTieBreak::Buchholz {
                mp: true,
                mods: Mods::default(),
            },
            "BH:GP" => TeamTieBreak::Buchholz {
                mp: false,
                mods: Mods::default(),
            },
            "EMMSB" | "ESB:MM" => esb(true, true),
            "EMGSB" | "ESB:MG" => esb(true, false),
            "EGMSB" | "ESB:GM" => esb(false, true),
            "EGGSB" | "ESB:GG" => esb(false, false),
            "DE" => TeamTieBreak::DirectEncounter {
                forfeits_played: false,
            },
            "BC" => TeamTieBreak::BoardCount,
            "TBR" => TeamTieBreak::TopBoardResult,
            "BBE" => TeamTieBreak::BottomBoardElimination,
            "EDE" => ede(ede::Knockout::None),
            "EDEBT" => ede(ede::Knockout::BcTbr),
            "EDEBB" => ede(ede::Knockout::BcBbe),
            "EDET" => ede(ede::Knockout::Tbr),
            "EDEB" => ede(ede::Knockout::Bbe),
            "SSSC" => TeamTieBreak::Sssc {
                factor: None,
                fore: false,
                forfeits_played: false,
            },
            "WIN:MP" | "WIN" => TeamTieBreak::Wins { over_board: false },
            "WON:MP" | "WON" => TeamTieBreak::Wins { over_board: true },
            "PS:MP" | "PS:GP" => TeamTieBreak::Progressive {
                mp: base.ends_with(":MP"),
                cut: 0,
            },
            "FB:MP" | "FB:GP" => TeamTieBreak::ForeBuchholz {
                mp: base.ends_with(":MP"),
                mods: Mods::default(),
            },
            "AOB:MP" | "AOB:GP" => TeamTieBreak::AverageBuchholz {
                mp: base.ends_with(":MP"),
                fore: false,
                mods: Mods::default(),
            },
            "KS:MP" | "KS:GP" => TeamTieBreak::Koya {
                mp: base.ends_with(":MP"),
                limit_percent: 50,
                shift_hundredths: 0,
            },
            _ => return Err(format!("team tie-break {code:?}: {KNOWN}")),
        })
    }

    /// Applies one modifier (C.07 art. 14 and the TRF/MTB letters), refusing it by name
    /// where the text does not define it for this tie-break.
    fn with_modifier(mut self, code: &str, m: &str) -> Result<TeamTieBreak, String> {
        let bad = |why: &str| format!("team tie-break {code:?}: modifier /{m} {why}");
        let letter = m.chars().next().ok_or_else(|| bad("is empty"))?;
        let arg = &m[letter.len_utf8()..];
        // Art. 14 defines Cut-1, Cut-2, Median-1 and Median-2 only.
        let count = || match arg.parse::<u32>() {
            Ok(n @ 1..=2) => Ok(n),
            _ => Err(bad("needs 1 or 2 (C.07 14.1-14.4)")),
        };
        let no_arg = || {
            if arg.is_empty() {
                Ok(())
            } else {
                Err(bad("takes no value"))
            }
        };
        match (letter, &mut self) {
            (
                'C',
                TeamTieBreak::Buchholz { mods, .. }
                | TeamTieBreak::ForeBuchholz { mods, .. }
                | TeamTieBreak::AverageBuchholz { mods, .. }
                | TeamTieBreak::Esb { mods, .. },
            ) => {
                if mods.cut_low > 0 {
                    return Err(bad("repeats a cut"));
                }
                mods.cut_low = count()?;
            }
            // 7.5: PS's Cut-n leaves out the first n rounds.
            ('C', TeamTieBreak::Progressive { cut, .. }) => {
                if *cut > 0 {
                    return Err(bad("repeats a cut"));
                }
                *cut = count()?;
            }
            // Median (14.3, 14.4) is defined for BH (FB and AOB are Buchholz too); ESB's art.
            // 14.1.2 names Cut-1 only, as SB's (the individual `SB/M1` is refused too).
            (
                'M',
                TeamTieBreak::Buchholz { mods, .. }
                | TeamTieBreak::ForeBuchholz { mods, .. }
                | TeamTieBreak::AverageBuchholz { mods, .. },
            ) => {
                if mods.cut_low > 0 {
                    return Err(bad("repeats a cut"));
                }
                let n = count()?;
                mods.cut_low = n;
                mods.cut_high = n;
            }
            (
                'P',
                TeamTieBreak::Buchholz { mods, .. }
                | TeamTieBreak::ForeBuchholz { mods, .. }
                | TeamTieBreak::AverageBuchholz { mods, .. }
                | TeamTieBreak::Esb { mods, .. },
            ) => {
                no_arg()?;
                mods.forfeits_played = true;
            }
            (
                'P',
                TeamTieBreak::DirectEncounter { forfeits_played }
                | TeamTieBreak::ExtendedDirectEncounter {
                    forfeits_played, ..
                }
                | TeamTieBreak::Sssc {
                    forfeits_played, ..
                },
            ) => {
                no_arg()?;
                *forfeits_played = true;
            }
            ('F', TeamTieBreak::Sssc { fore, .. } | TeamTieBreak::AverageBuchholz { fore, .. }) => {
                no_arg()?;
                *fore = true;
            }
            // 9.2's limit, written as the individual KS's `/L` (`/L60`, `/L+1`, `/L-1.5`).
            (
                'L',
                TeamTieBreak::Koya {
                    limit_percent,
                    shift_hundredths,
                    ..
                },
            ) => {
                let ks = super::TieBreak::parse(&format!("KS/{m}")).map_err(|e| bad(&e))?;
                if ks.limit_percent != 50 {
                    *limit_percent = ks.limit_percent;
                }
                if ks.limit_shift_hundredths != 0 {
                    *shift_hundredths = ks.limit_shift_hundredths;
                }
            }
            ('K', TeamTieBreak::Sssc { factor, .. }) => {
                // C.07 13.4.2: the competition may state the normalising factor.
                match arg.parse::<u32>() {
                    Ok(f) if f > 0 => *factor = Some(f),
                    _ => {
                        return Err(bad(
                            "needs a positive whole factor (e.g. SSSC/K4, C.07 13.4.2)",
                        ));
                    }
                }
            }
            _ => {
                return Err(bad(&format!(
                    "is not defined for {} (C.07 art. 14; {KNOWN})",
                    self.fixed_code()
                )));
            }
        }
        Ok(self)
    }

    pub fn code(self) -> String {
        match self {
            TeamTieBreak::ExtendedDirectEncounter {
                knockout,
                forfeits_played,
            } => format!(
                "{}{}",
                knockout.code(),
                if forfeits_played { "/P" } else { "" }
            ),
            TeamTieBreak::Sssc {
                factor,
                fore,
                forfeits_played,
            } => {
                let mut out = "SSSC".to_string();
                if fore {
                    out.push_str("/F");
                }
                if forfeits_played {
                    out.push_str("/P");
                }
                if let Some(f) = factor {
                    out.push_str(&format!("/K{f}"));
                }
                out
            }
            TeamTieBreak::Buchholz { mods, .. }
            | TeamTieBreak::ForeBuchholz { mods, .. }
            | TeamTieBreak::Esb { mods, .. } => {
                format!("{}{}", self.fixed_code(), mods.suffix())
            }
            TeamTieBreak::AverageBuchholz { fore, mods, .. } => format!(
                "{}{}{}",
                self.fixed_code(),
                mods.suffix(),
                if fore { "/F" } else { "" }
            ),
            TeamTieBreak::Progressive { cut, .. } if cut > 0 => {
                format!("{}/C{cut}", self.fixed_code())
            }
            TeamTieBreak::Koya {
                limit_percent,
                shift_hundredths,
                ..
            } => {
                let mut ks = super::TieBreak::new(super::Kind::Ks);
                ks.limit_percent = limit_percent;
                ks.limit_shift_hundredths = shift_hundredths;
                // The individual code's modifiers after `KS`.
                let text = ks.to_string();
                format!(
                    "{}{}",
                    self.fixed_code(),
                    text.strip_prefix("KS").unwrap_or("")
                )
            }
            TeamTieBreak::DirectEncounter {
                forfeits_played: true,
            } => "DE/P".to_string(),
            other => other.fixed_code().to_string(),
        }
    }

    fn fixed_code(self) -> &'static str {
        match self {
            TeamTieBreak::Secondary => "MPVGP",
            TeamTieBreak::Buchholz { mp: true, .. } => "BH:MP",
            TeamTieBreak::Buchholz { mp: false, .. } => "BH:GP",
            TeamTieBreak::Esb {
                opponent_mp: true,
                own_mp: true,
                ..
            } => "EMMSB",
            TeamTieBreak::Esb {
                opponent_mp: true,
                own_mp: false,
                ..
            } => "EMGSB",
            TeamTieBreak::Esb {
                opponent_mp: false,
                own_mp: true,
                ..
            } => "EGMSB",
            TeamTieBreak::Esb {
                opponent_mp: false,
                own_mp: false,
                ..
            } => "EGGSB",
            TeamTieBreak::DirectEncounter { .. } => "DE",
            TeamTieBreak::BoardCount => "BC",
            TeamTieBreak::TopBoardResult => "TBR",
            TeamTieBreak::BottomBoardElimination => "BBE",
            TeamTieBreak::ExtendedDirectEncounter { knockout, .. } => knockout.code(),
            TeamTieBreak::Sssc { .. } => "SSSC",
            TeamTieBreak::Wins { over_board: false } => "WIN:MP",
            TeamTieBreak::Wins { over_board: true } => "WON:MP",
            TeamTieBreak::Progressive { mp: true, .. } => "PS:MP",
            TeamTieBreak::Progressive { mp: false, .. } => "PS:GP",
            TeamTieBreak::ForeBuchholz { mp: true, .. } => "FB:MP",
            TeamTieBreak::ForeBuchholz { mp: false, .. } => "FB:GP",
            TeamTieBreak::AverageBuchholz { mp: true, .. } => "AOB:MP",
            TeamTieBreak::AverageBuchholz { mp: false, .. } => "AOB:GP",
            TeamTieBreak::Koya { mp: true, .. } => "KS:MP",
            TeamTieBreak::Koya { mp: false, .. } => "KS:GP",
        }
    }

    /// The default list: the secondary score, then EMGSB, then BH:MP (C.07 art. 13's team
    /// recommendations as read here).
    pub fn defaults() -> Vec<TeamTieBreak> {
        vec![
            TeamTieBreak::Secondary,
            TeamTieBreak::Esb {
                opponent_mp: true,
                own_mp: false,
                mods: Mods::default(),
            },
            TeamTieBreak::Buchholz {
                mp: true,
                mods: Mods::default(),
            },
        ]
    }
}

/// One team's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamRow {
    pub team: TeamIdx,
    pub rank: u32,
    pub match_points: Score,
    pub game_points: Score,
    /// One per tie-break.
    pub values: Vec<Value>,
}

/// One player's results on one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRow {
    pub board: u32,
    pub player: PlayerIdx,
    pub games: u32,
    pub points: Score,
    /// TPR (C.07 art. 10.2) over the games played over the board against rated opponents.
    pub performance: Option<i64>,
}

/// The team standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamStandings {
    pub primary: PrimaryScore,
    pub tie_breaks: Vec<TeamTieBreak>,
    pub after_round: u32,
    pub rows: Vec<TeamRow>,
    /// Board by board, board 1 first, best score first within a board.
    pub boards: Vec<BoardRow>,
}

/// What each team did in one round.
#[derive(Clone, Copy, Debug)]
struct Fact {
    opponent: Option<TeamIdx>,
    played: bool,
    mp: Score,
    gp: Score,
    /// The pairing-allocated bye (16.2.1; any other round without opponent is a VUR).
    pab: bool,
}

/// Team standings after `after_round` rounds (default: all recorded).
pub fn compute(
    t: &Tournament,
    tie_breaks: &[TeamTieBreak],
    after_round: Option<u32>,
) -> Result<TeamStandings, Vec<Problem>> {
    let (rounds, after, recorded) = counted_rounds(t, after_round)?;
    let s = Scores::new(t, team_facts(t, &rounds), &rounds, after, recorded);
    // Values that do not depend on the tie (all but DE, TBR, BBE, which rank among ties).
    let mut values: Vec<Vec<Value>> = (0..t.teams.len())
        .map(|i| tie_breaks.iter().map(|&tb| s.value_of(tb, i)).collect())
        .collect();
    let order = s.order(tie_breaks, &mut values);
    let rows = s.rows(t, &order, &values, tie_breaks.len());
    Ok(TeamStandings {
        primary: s.primary,
        tie_breaks: tie_breaks.to_vec(),
        after_round: after,
        rows,
        boards: board_rows(t, &rounds),
    })
}

/// The team rounds the standings count (all recorded, or the first `after_round`), with
/// that count and the number recorded.
fn counted_rounds(
    t: &Tournament,
    after_round: Option<u32>,
) -> Result<(Vec<TeamRound>, u32, u32), Vec<Problem>> {
    if !t.is_team_event() {
        return Err(vec![Problem::new(
            "tournament.teams",
            "team standings need teams (TRF-26 310 or 013 records, or the request's teams)",
        )]);
    }
    let mut rounds = team_rounds(t)?;
    let recorded = rounds.len() as u32;
    let after = after_round.unwrap_or(recorded);
    if after > recorded {
        return Err(vec![Problem::new(
            "after_round",
            format!("after_round {after}: the tournament has {recorded} rounds"),
        )]);
    }
    rounds.truncate(after as usize);
    Ok((rounds, after, recorded))
}

/// What each team did in each round (`facts[team][round]`): its match, the PAB, or nothing.
fn team_facts(t: &Tournament, rounds: &[TeamRound]) -> Vec<Vec<Fact>> {
    let n = t.teams.len();
    let (pab_mp, pab_gp) = t.team_pab_points();
    let mut facts: Vec<Vec<Fact>> = vec![Vec::new(); n];
    for round in rounds {
        let mut seen = vec![false; n];
        for m in &round.matches {
            facts[m.white].push(Fact {
                opponent: Some(m.black),
                played: m.played,
                mp: m.white_match_points,
                gp: m.white_game_points,
                pab: false,
            });
            facts[m.black].push(Fact {
                opponent: Some(m.white),
                played: m.played,
                mp: m.black_match_points,
                gp: m.black_game_points,
                pab: false,
            });
            seen[m.white] = true;
            seen[m.black] = true;
        }
        for (team, f) in facts.iter_mut().enumerate() {
            if seen[team] {
                continue;
            }
            let pab = round.pab == Some(team);
            f.push(Fact {
                opponent: None,
                played: false,
                mp: if pab { pab_mp } else { Score::ZERO },
                gp: if pab { pab_gp } else { Score::ZERO },
                pab,
            });
        }
    }
    facts
}

/// What the team tie-breaks read: every team's rounds, scores and boards over the rounds
/// counted, and the event's measures of a match.
struct Scores {
    /// `facts[team][round]`.
    facts: Vec<Vec<Fact>>,
    /// Match points and game points.
    mp: Vec<Score>,
    gp: Vec<Score>,
    /// Fore Buchholz's scores (art. 8.3 via 13.4.2): every match paired in the final round
    /// counted as a drawn match, a draw's match and game points for both teams.
    fore_mp: Vec<Score>,
    fore_gp: Vec<Score>,
    primary: PrimaryScore,
    /// The rounds counted.
    after: u32,
    /// A drawn match's match points and game points.
    draw_mp: Score,
    draw_gp: Score,
    /// The most match points and game points one match can give.
    max_match_mp: Score,
    max_match_gp: Score,
    /// The scheduled rounds (`total_rounds`, at least those recorded).
    scheduled: i64,
    /// [`match_boards`] and [`board_points`] of the rounds counted.
    match_boards: Vec<Vec<Vec<Score>>>,
    board_points: Vec<Vec<Score>>,
}

impl Scores {
    fn new(
        t: &Tournament,
        facts: Vec<Vec<Fact>>,
        rounds: &[TeamRound],
        after: u32,
        recorded: u32,
    ) -> Scores {
        let mp: Vec<Score> = facts.iter().map(|f| f.iter().map(|x| x.mp).sum()).collect();
        let gp: Vec<Score> = facts.iter().map(|f| f.iter().map(|x| x.gp).sum()).collect();
        let match_boards = match_boards(t, rounds);
        let board_points = board_points(t, rounds, &match_boards);
        let draw_mp = t.team_settings.match_draw;
        let draw_gp = Score::from_tenths(t.scoring.draw.tenths() * i64::from(t.boards()));
        let last = after as usize;
        let fore_mp = fore_scores(&facts, &mp, draw_mp, last, true);
        let fore_gp = fore_scores(&facts, &gp, draw_gp, last, false);
        Scores {
            facts,
            mp,
            gp,
            fore_mp,
            fore_gp,
            primary: t.team_settings.primary,
            after,
            draw_mp,
            draw_gp,
            max_match_mp: t.team_settings.match_win,
            max_match_gp: Score::from_tenths(t.scoring.win.tenths() * i64::from(t.boards())),
            scheduled: i64::from(t.total_rounds.max(recorded)),
            match_boards,
            board_points,
        }
    }

    /// Team `i`'s primary score.
    fn first(&self, i: usize) -> Score {
        match self.primary {
            PrimaryScore::MatchPoints => self.mp[i],
            PrimaryScore::GamePoints => self.gp[i],
        }
    }

    /// Each round's contribution to team `i`'s BH or ESB (art. 8.1 / 13.2 via art. 13) on
    /// the opponents' match points (`use_mp`) or game points, before the art. 14 cuts:
    /// unplayed rounds as art. 16 says (a dummy with the team's own score, capped at the
    /// scheduled opponent's for a forfeit, 16.4.1, at a draw per round otherwise, 16.4.2);
    /// a forfeit loss or an absence is a VUR (16.1.2), cut first (16.5). `/P` (`played`)
    /// counts a forfeited match as played; `fore` counts the final round's matches as
    /// played draws (art. 8.3).
    fn contributions(
        &self,
        i: usize,
        use_mp: bool,
        own_mp: bool,
        played: bool,
        fore: bool,
    ) -> Vec<Contribution> {
        let (draw_mp, draw_gp, last) = (self.draw_mp, self.draw_gp, self.after as usize);
        let scores: &[Score] = match (use_mp, fore) {
            (true, false) => &self.mp,
            (false, false) => &self.gp,
            (true, true) => &self.fore_mp,
            (false, true) => &self.fore_gp,
        };
        let own = scores[i];
        let cap = Score::from_tenths(
            (if use_mp { draw_mp } else { draw_gp }).tenths() * i64::from(self.after),
        );
        self.facts[i]
            .iter()
            .enumerate()
            .map(|(r, f)| {
                let final_round = fore && r + 1 == last && f.opponent.is_some();
                let (score, vur) = match f.opponent {
                    Some(o) if f.played || played || final_round => (scores[o], false),
                    Some(o) => (own.min(scores[o]), f.mp < draw_mp),
                    None => (own.min(cap), !f.pab),
                };
                let points = match (own_mp, final_round) {
                    (true, false) => f.mp,
                    (false, false) => f.gp,
                    (true, true) => draw_mp,
                    (false, true) => draw_gp,
                };
                Contribution {
                    round: r as u32 + 1,
                    score,
                    points,
                    vur,
                }
            })
            .collect::<Vec<Contribution>>()
    }

    /// Team `i`'s Buchholz (`fore`: Fore Buchholz) with the art. 14 modifiers.
    fn buchholz(&self, i: usize, use_mp: bool, mods: Mods, fore: bool) -> Score {
        let list = self.contributions(i, use_mp, use_mp, mods.forfeits_played, fore);
        cut(list, mods.cut_low, mods.cut_high, |c| c.score.tenths())
            .iter()
            .map(|c| c.score)
            .sum()
    }

    /// SSSC's normalising factor (13.4.2): the one stated, else the highest primary score
    /// the tournament can give over the highest secondary score one match can give,
    /// rounded towards zero.
    fn sssc_factor(&self, stated: Option<u32>) -> i64 {
        if let Some(f) = stated {
            return i64::from(f);
        }
        let (max_match_mp, max_match_gp, scheduled) =
            (self.max_match_mp, self.max_match_gp, self.scheduled);
        let (max_primary, max_secondary) = match self.primary {
            PrimaryScore::MatchPoints => (max_match_mp.tenths() * scheduled, max_match_gp.tenths()),
            PrimaryScore::GamePoints => (max_match_gp.tenths() * scheduled, max_match_mp.tenths()),
        };
        // A factor below 1 (a one-round event) would divide by zero: 1 keeps the sum.
        if max_secondary <= 0 {
            1
        } else {
            (max_primary / max_secondary).max(1)
        }
    }

    /// Team `i`'s value of `tb`; 0 for the tie-breaks ranked within ties (`rank_within`).
    fn value_of(&self, tb: TeamTieBreak, i: usize) -> Value {
        let (mp, gp, facts) = (&self.mp, &self.gp, &self.facts);
        match tb {
            TeamTieBreak::Secondary => Value::score(match self.primary {
                PrimaryScore::MatchPoints => gp[i],
                PrimaryScore::GamePoints => mp[i],
            }),
            TeamTieBreak::Buchholz { mp: use_mp, mods } => {
                Value::score(self.buchholz(i, use_mp, mods, false))
            }
            TeamTieBreak::Sssc {
                factor,
                fore,
                forfeits_played,
            } => self.sssc(i, factor, fore, forfeits_played),
            TeamTieBreak::Esb {
                opponent_mp,
                own_mp,
                mods,
            } => self.esb(i, opponent_mp, own_mp, mods),
            TeamTieBreak::Wins { over_board } => {
                // 7.1 / 7.2 on matches: a win's match points, with or without playing
                // (a forfeit win counts, a PAB worth less than a win does not), or over
                // the board only.
                let won = facts[i]
                    .iter()
                    .filter(|f| f.mp == self.max_match_mp)
                    .filter(|f| !over_board || (f.played && f.opponent.is_some()))
                    .count();
                Value::int(won as i64)
            }
            TeamTieBreak::Progressive { mp: use_mp, cut } => Value::score(super::progressive(
                facts[i].iter().map(|f| if use_mp { f.mp } else { f.gp }),
                cut,
            )),
            TeamTieBreak::ForeBuchholz { mp: use_mp, mods } => {
                Value::score(self.buchholz(i, use_mp, mods, true))
            }
            TeamTieBreak::AverageBuchholz {
                mp: use_mp,
                fore,
                mods,
            } => self.average_buchholz(i, use_mp, fore, mods),
            TeamTieBreak::Koya {
                mp: use_mp,
                limit_percent,
                shift_hundredths,
            } => self.koya(i, use_mp, limit_percent, shift_hundredths),
            TeamTieBreak::BoardCount => {
                let total: i64 = self.board_points[i]
                    .iter()
                    .enumerate()
                    .map(|(b, p)| (b as i64 + 1) * p.tenths())
                    .sum();
                Value::score(Score::from_tenths(total))
            }
            // Ranked within ties below.
            TeamTieBreak::DirectEncounter { .. }
            | TeamTieBreak::ExtendedDirectEncounter { .. }
            | TeamTieBreak::TopBoardResult
            | TeamTieBreak::BottomBoardElimination => Value::int(0),
        }
    }

    /// SSSC (13.4): secondary score + BH on the primary score / factor, in hundredths
    /// rounded half up (exact whenever the factor divides 10 × BH).
    fn sssc(&self, i: usize, factor: Option<u32>, fore: bool, forfeits_played: bool) -> Value {
        let f = self.sssc_factor(factor);
        let mods = Mods {
            forfeits_played,
            ..Mods::default()
        };
        let (secondary, bh) = match self.primary {
            PrimaryScore::MatchPoints => (self.gp[i], self.buchholz(i, true, mods, fore)),
            PrimaryScore::GamePoints => (self.mp[i], self.buchholz(i, false, mods, fore)),
        };
        let num = (secondary.tenths() * f + bh.tenths()) * 10;
        Value::hundredths((2 * num + f).div_euclid(2 * f))
    }

    /// ESB (13.2), in hundredths. 14.1.2: ESB's Cut drops the product for the opponent
    /// with the lowest X score, the lowest product among equal scores (`cut`'s order).
    fn esb(&self, i: usize, opponent_mp: bool, own_mp: bool, mods: Mods) -> Value {
        let list = self.contributions(i, opponent_mp, own_mp, mods.forfeits_played, false);
        let hundredths: i64 = cut(list, mods.cut_low, mods.cut_high, Contribution::product)
            .iter()
            .map(Contribution::product)
            .sum();
        Value::hundredths(hundredths)
    }

    /// AOB (8.2): the average of the BH of the opponents of the matches played over the
    /// board, with Gacrux's decimals (2 under 9 rounds, 3 under 27, ...).
    fn average_buchholz(&self, i: usize, use_mp: bool, fore: bool, mods: Mods) -> Value {
        let opponents: Vec<i64> = self.facts[i]
            .iter()
            .filter(|f| f.played)
            .filter_map(|f| f.opponent)
            .map(|o| self.buchholz(o, use_mp, mods, fore).tenths())
            .collect();
        let decimals = match self.after {
            0..=8 => 2,
            9..=26 => 3,
            27..=72 => 4,
            _ => 5,
        };
        super::value::average_of_tenths(&opponents, decimals).unwrap_or(Value::int(0))
    }

    /// KS (9.2): the points scored in every round with a scheduled opponent (forfeits
    /// included) against teams whose final score reaches the limit, a share of the most
    /// points possible (a won match, or every board won, per round).
    fn koya(&self, i: usize, use_mp: bool, limit_percent: u32, shift_hundredths: i64) -> Value {
        let (scores, per_round) = if use_mp {
            (&self.mp, self.max_match_mp)
        } else {
            (&self.gp, self.max_match_gp)
        };
        let max = Score::from_tenths(per_round.tenths() * i64::from(self.after));
        let limit = super::buchholz::koya_limit(max, limit_percent, shift_hundredths);
        let total: Score = self.facts[i]
            .iter()
            .filter(|f| {
                f.opponent
                    .is_some_and(|o| super::buchholz::koya_reaches(scores[o], limit))
            })
            .map(|f| if use_mp { f.mp } else { f.gp })
            .sum();
        Value::score(total)
    }

    /// The teams in order: by the primary score, then tie-break by tie-break within the
    /// groups still tied, the ranks of DE, EDE, TBR and BBE written into `values` group by
    /// group.
    fn order(&self, tie_breaks: &[TeamTieBreak], values: &mut [Vec<Value>]) -> Vec<usize> {
        let first = |i: usize| self.first(i);
        let mut order: Vec<usize> = (0..self.mp.len()).collect();
        order.sort_by_key(|&a| std::cmp::Reverse(first(a)));
        // Resolve tie-break by tie-break, within groups still tied.
        for (k, &tb) in tie_breaks.iter().enumerate() {
            let mut start = 0;
            while start < order.len() {
                let mut end = start + 1;
                while end < order.len() && tied(&order, start, end, k, values, &first) {
                    end += 1;
                }
                if end - start > 1 {
                    let group: Vec<usize> = order[start..end].to_vec();
                    self.rank_within(&group, tb, k, values);
                    let slice = &mut order[start..end];
                    slice.sort_by(|&a, &b| compare(tb, values[a][k], values[b][k]));
                }
                start = end;
            }
        }
        order
    }

    /// The ranks (1 first, 0: not separated) of a tie-break ranked within a tied `group`
    /// (DE, EDE, TBR, BBE), written into column `k` of `values`; nothing for the others.
    fn rank_within(&self, group: &[usize], tb: TeamTieBreak, k: usize, values: &mut [Vec<Value>]) {
        // DE (art. 6) and EDE (13.3): one routine, DE on the primary score only.
        let direct = match tb {
            TeamTieBreak::DirectEncounter { forfeits_played } => {
                Some((false, ede::Knockout::None, forfeits_played))
            }
            TeamTieBreak::ExtendedDirectEncounter {
                knockout,
                forfeits_played,
            } => Some((true, knockout, forfeits_played)),
            _ => None,
        };
        if let Some((extended, knockout, forfeits_played)) = direct {
            let cx = ede::Context {
                facts: &self.facts,
                primary: self.primary,
                extended,
                max_match_mp: self.max_match_mp,
                max_match_gp: self.max_match_gp,
                match_boards: &self.match_boards,
                boards: self.board_points.iter().map(Vec::len).max().unwrap_or(0),
                knockout,
                forfeits_played,
            };
            for (g, v) in group.iter().zip(ede::ranks(group, &cx)) {
                values[*g][k] = v;
            }
        } else if matches!(
            tb,
            TeamTieBreak::TopBoardResult | TeamTieBreak::BottomBoardElimination
        ) {
            let ranks = board_ranks(group, &self.board_points, tb);
            for (g, v) in group.iter().zip(ranks) {
                values[*g][k] = v;
            }
        }
    }

    /// The rows in `order`; teams equal on everything (the primary score and all `k_all`
    /// tie-breaks) share a rank, in TPN order.
    fn rows(
        &self,
        t: &Tournament,
        order: &[usize],
        values: &[Vec<Value>],
        k_all: usize,
    ) -> Vec<TeamRow> {
        let first = |i: usize| self.first(i);
        let mut rows = Vec::new();
        let mut rank = 1;
        let mut i = 0;
        while i < order.len() {
            let mut j = i + 1;
            while j < order.len() && tied(order, i, j, k_all, values, &first) {
                j += 1;
            }
            let mut group: Vec<usize> = order[i..j].to_vec();
            group.sort_by_key(|&g| t.team_tpn(g));
            for &g in &group {
                rows.push(TeamRow {
                    team: g,
                    rank,
                    match_points: self.mp[g],
                    game_points: self.gp[g],
                    values: values[g].clone(),
                });
            }
            rank += (j - i) as u32;
            i = j;
        }
        rows
    }
}

/// Fore Buchholz's scores (art. 8.3 via 13.4.2): `totals` (match points, `mp`, or game
/// points) with the match of round `last` counted as a drawn match (`draw`).
fn fore_scores(
    facts: &[Vec<Fact>],
    totals: &[Score],
    draw: Score,
    last: usize,
    mp: bool,
) -> Vec<Score> {
    (0..facts.len())
        .map(|i| {
            let total = totals[i];
            match last.checked_sub(1).and_then(|r| facts[i].get(r)) {
                Some(f) if f.opponent.is_some() => total - if mp { f.mp } else { f.gp } + draw,
                _ => total,
            }
        })
        .collect()
}

/// Tie-break `tb`'s order of two teams' values: a rank (DE, EDE, TBR, BBE) with 1 first
/// and 0 (not separated) last; BC lower first (points on low boards weigh less); every
/// other one higher first.
fn compare(tb: TeamTieBreak, a: Value, b: Value) -> Ordering {
    match tb {
        TeamTieBreak::DirectEncounter { .. }
        | TeamTieBreak::ExtendedDirectEncounter { .. }
        | TeamTieBreak::TopBoardResult
        | TeamTieBreak::BottomBoardElimination => {
            // A rank: 0 = not separated, 1 first.
            let key = |v: Value| {
                if v.as_hundredths() == 0 {
                    i64::MAX
                } else {
                    v.as_hundredths()
                }
            };
            key(a).cmp(&key(b))
        }
        // Higher is better except BC (board count: points on low boards weigh less).
        TeamTieBreak::BoardCount => a.cmp(&b),
        _ => b.cmp(&a),
    }
}

/// Whether `order[start]` and `order[end]` are equal on the primary score and the first `k`
/// tie-breaks.
fn tied(
    order: &[usize],
    start: usize,
    end: usize,
    k: usize,
    values: &[Vec<Value>],
    first: &dyn Fn(usize) -> Score,
) -> bool {
    let (a, b) = (order[start], order[end]);
    first(a) == first(b) && values[a][..k] == values[b][..k]
}

/// TBR / BBE among a tied group: a rank (1 first), 0 when nothing separates them.
fn board_ranks(group: &[usize], board_points: &[Vec<Score>], tb: TeamTieBreak) -> Vec<Value> {
    let boards = board_points.iter().map(Vec::len).max().unwrap_or(0);
    let key = |g: usize| -> Vec<Score> {
        let bp = &board_points[g];
        let at = |b: usize| bp.get(b).copied().unwrap_or(Score::ZERO);
        match tb {
            TeamTieBreak::TopBoardResult => (0..boards).map(at).collect(),
            // 12.3: every board but the bottom one, then without the two bottom ones, ...
            _ => (1..boards)
                .rev()
                .map(|top| (0..top).map(at).sum())
                .collect(),
        }
    };
    let keys: Vec<Vec<Score>> = group.iter().map(|&g| key(g)).collect();
    if keys.iter().all(|k| *k == keys[0]) {
        return vec![Value::int(0); group.len()];
    }
    keys.iter()
        .map(|k| Value::int(1 + keys.iter().filter(|q| *q > k).count() as i64))
        .collect()
}

/// Each team's game points on each board of its match in each round
/// (`[team][round][board]`, board 1 first; empty in a round without a match). Art. 12's
/// common rule: an individual forfeit counts as a win or a loss.
fn match_boards(t: &Tournament, rounds: &[TeamRound]) -> Vec<Vec<Vec<Score>>> {
    let mut out = vec![vec![Vec::new(); rounds.len()]; t.teams.len()];
    let team_of = t.team_of_players();
    for (r, round) in rounds.iter().enumerate() {
        for m in &round.matches {
            for (b, &g) in m.games.iter().enumerate() {
                let Some(game) = t.rounds.get(r).and_then(|x| x.games.get(g)) else {
                    continue;
                };
                let (pw, pb) = game.result.points(&t.scoring);
                for (p, pts) in [(game.white, pw), (game.black, pb)] {
                    if let Some(Some(team)) = team_of.get(p)
                        && let Some(row) = out.get_mut(*team).and_then(|x| x.get_mut(r))
                    {
                        if row.len() <= b {
                            row.resize(b + 1, Score::ZERO);
                        }
                        row[b] += pts;
                    }
                }
            }
        }
    }
    out
}

/// Game points of each team on each board (board 1 first) over the event: its matches'
/// boards, and the PAB as a win on every board (art. 12's common rules).
fn board_points(
    t: &Tournament,
    rounds: &[TeamRound],
    match_boards: &[Vec<Vec<Score>>],
) -> Vec<Vec<Score>> {
    let mut out = vec![vec![Score::ZERO; t.boards() as usize]; t.teams.len()];
    for round in rounds {
        if let Some(team) = round.pab
            && let Some(row) = out.get_mut(team)
        {
            for p in row.iter_mut() {
                *p += t.scoring.win;
            }
        }
    }
    for (row, team_rounds) in out.iter_mut().zip(match_boards) {
        for boards in team_rounds {
            if row.len() < boards.len() {
                row.resize(boards.len(), Score::ZERO);
            }
            for (total, &p) in row.iter_mut().zip(boards) {
                *total += p;
            }
        }
    }
    out
}

/// Games, points, opponents' ratings over the board, half points over the board.
type BoardTally = (u32, Score, Vec<i64>, i64);

/// Every player's results per board.
fn board_rows(t: &Tournament, rounds: &[TeamRound]) -> Vec<BoardRow> {
    // (board, player) -> (games, points, opponents' ratings over the board, halves)
    let mut acc: std::collections::BTreeMap<(u32, PlayerIdx), BoardTally> =
        std::collections::BTreeMap::new();
    for (r, round) in rounds.iter().enumerate() {
        for m in &round.matches {
            for (b, &g) in m.games.iter().enumerate() {
                let game = &t.rounds[r].games[g];
                let (pw, pb) = game.result.points(&t.scoring);
                let over_board = game.result.is_played();
                for (p, q, pts) in [(game.white, game.black, pw), (game.black, game.white, pb)] {
                    let e = acc
                        .entry((b as u32 + 1, p))
                        .or_insert((0, Score::ZERO, Vec::new(), 0));
                    e.0 += 1;
                    e.1 += pts;
                    let rating = t.players.get(q).map_or(0, |x| x.rating);
                    if over_board && rating > 0 {
                        e.2.push(i64::from(rating));
                        // Half points on the 1/½/0 scale.
                        let (w, _) = game.result.points(&crate::model::Scoring::default());
                        let halves = if p == game.white {
                            w.tenths() / 5
                        } else {
                            2 - w.tenths() / 5
                        };
                        e.3 += halves;
                    }
                }
            }
        }
    }
    let mut rows: Vec<BoardRow> = acc
        .into_iter()
        .map(
            |((board, player), (games, points, ratings, halves))| BoardRow {
                board,
                player,
                games,
                points,
                performance: rating::tpr(&ratings, halves),
            },
        )
        .collect();
    rows.sort_by(|a, b| {
        a.board
            .cmp(&b.board)
            .then(b.points.cmp(&a.points))
            .then(t.pairing_number(a.player).cmp(&t.pairing_number(b.player)))
    });
    rows
}

/// The standings as a text table: rank, TPN, name, MP, GP, tie-breaks; then the boards.
pub fn table(t: &Tournament, s: &TeamStandings) -> String {
    let mut out = String::new();
    let mut header = format!(
        "{:>4} {:>4} {:<32} {:>6} {:>6}",
        "Rank", "TPN", "Team", "MP", "GP"
    );
    for tb in &s.tie_breaks {
        header.push_str(&format!(" {:>8}", tb.code()));
    }
    out.push_str(header.trim_end());
    out.push('\n');
    for row in &s.rows {
        let team = &t.teams[row.team];
        let mut line = format!(
            "{:>4} {:>4} {:<32} {:>6} {:>6}",
            row.rank,
            t.team_tpn(row.team),
            team.name,
            row.match_points.to_string(),
            row.game_points.to_string()
        );
        for v in &row.values {
            line.push_str(&format!(" {:>8}", v.to_string()));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str("\nBoard Player                            Games   Pts  Perf\n");
    for b in &s.boards {
        let p = &t.players[b.player];
        out.push_str(&format!(
            "{:>5} {:<33} {:>5} {:>5} {:>5}\n",
            b.board,
            format!("{} {}", p.id, p.name),
            b.games,
            b.points.to_string(),
            b.performance.map_or(String::new(), |x| x.to_string())
        ));
    }
    out
}

/// The standings as TSV in the layout of the individual standings (`render::tsv`) and of
/// the conformance files: `start_rank` (the TPN), `PTS` (the primary score), then each
/// code; one row per team in final order, values as exact decimals.
pub fn tsv(t: &Tournament, s: &TeamStandings) -> String {
    let mut out = String::from("start_rank\tPTS");
    for tb in &s.tie_breaks {
        out.push('\t');
        out.push_str(&tb.code());
    }
    out.push('\n');
    for row in &s.rows {
        let points = match s.primary {
            PrimaryScore::MatchPoints => row.match_points,
            PrimaryScore::GamePoints => row.game_points,
        };
        out.push_str(&format!(
            "{}\t{}",
            t.team_tpn(row.team),
            Value::score(points)
        ));
        for v in &row.values {
            out.push('\t');
            out.push_str(&v.to_string());
        }
        out.push('\n');
    }
    out
}

/// The standings as JSON: `teams` (rank, id, TPN, name, MP, GP, tie-break values) and
/// `boards`.
pub fn json(t: &Tournament, s: &TeamStandings) -> serde_json::Value {
    serde_json::json!({
        "primary": match s.primary {
            PrimaryScore::MatchPoints => "MP",
            PrimaryScore::GamePoints => "GP",
        },
        "after_round": s.after_round,
        "tie_breaks": s.tie_breaks.iter().map(|tb| tb.code()).collect::<Vec<_>>(),
        "teams": s.rows.iter().map(|row| serde_json::json!({
            "rank": row.rank,
            "team_id": t.teams[row.team].id,
            "pairing_number": t.team_tpn(row.team),
            "name": t.teams[row.team].name,
            "match_points": row.match_points.to_string(),
            "game_points": row.game_points.to_string(),
            "values": row.values.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "boards": s.boards.iter().map(|b| serde_json::json!({
            "board": b.board,
            "player_id": t.players[b.player].id,
            "games": b.games,
            "points": b.points.to_string(),
            "performance": b.performance,
        })).collect::<Vec<_>>(),
    })
}
