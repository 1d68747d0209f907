//! TRF writer: TRF-16 player lines plus either the JaVaFo extension lines or the TRF-26
//! records for the facts the model holds. Reading what it writes gives the same tournament.
use std::fmt::Write as _;

use super::TrfDocument;
use crate::model::{ByeKind, Colour, GameResult, RoundEntry, Score, Scoring, Tournament};

/// Which records carry the engine facts (rounds, colour, scoring, byes, acceleration,
/// forbidden pairs). Both write the round columns in full.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// `XXR XXC XXS XXA XXP` (JaVaFo), `XXL`/`XXW` for late entries and withdrawals.
    #[default]
    JaVaFo,
    /// `142 152 162 192 240 250 260` (TRF-26, as bbpPairings reads it), with `BB*` point lines
    /// when the scoring is not 1/½/0, and `XXL`/`XXW`.
    Trf26,
}

/// Why a tournament cannot be written as TRF.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// Starting ranks have four columns (5-8): a TRF holds players 1..=9999.
    #[error(
        "TRF holds at most 9,999 players (starting ranks have 4 digits); this tournament has {0}"
    )]
    TooManyPlayers(usize),
    /// Team pairing numbers have three columns in TRF-26 team records (`310` 5-7, `320`,
    /// `330`): a TRF holds teams 1..=999.
    #[error(
        "TRF holds at most 999 teams (team pairing numbers have 3 digits); this tournament has {0}"
    )]
    TooManyTeams(usize),
}

/// The largest starting rank a TRF can hold.
pub const MAX_TRF_PLAYERS: usize = 9999;

/// The largest team pairing number a TRF-26 team record can hold.
pub const MAX_TRF_TEAMS: usize = 999;

/// Writes a tournament (with the lines a read kept) as TRF, LF line ends; the pairing systems
/// (`codes`) write their record 192 code.
pub fn write(
    doc: &TrfDocument,
    dialect: Dialect,
    codes: &dyn super::SystemCodes,
) -> Result<String, WriteError> {
    let mut t = doc.tournament.clone();
    t.assign_pairing_numbers(t.lot_seed);
    let largest = t
        .players
        .iter()
        .filter_map(|p| p.pairing_number)
        .max()
        .unwrap_or(0) as usize;
    if t.players.len() > MAX_TRF_PLAYERS || largest > MAX_TRF_PLAYERS {
        return Err(WriteError::TooManyPlayers(t.players.len().max(largest)));
    }
    let largest_team = (0..t.teams.len())
        .map(|i| t.team_tpn(i) as usize)
        .max()
        .unwrap_or(0);
    if t.teams.len() > MAX_TRF_TEAMS || largest_team > MAX_TRF_TEAMS {
        return Err(WriteError::TooManyTeams(t.teams.len().max(largest_team)));
    }
    let t = &t;
    let rank = |p: usize| t.pairing_number(p);
    let mut out = String::new();
    let line = |out: &mut String, text: String| {
        out.push_str(text.trim_end());
        out.push('\n');
    };
    line(&mut out, format!("012 {}", t.name));
    for other in &doc.other_lines {
        line(&mut out, other.clone());
    }
    let defaults = Scoring::default();
    // The system (TRF-26 192, which bbpPairings also reads in JaVaFo files), as the system
    // writes its code with its options (the Dutch edition, `_BAKU` for C.04.7).
    if let Some(code) = codes.write(t) {
        line(&mut out, format!("192 {code}"));
    }
    match dialect {
        Dialect::JaVaFo => {
            if t.total_rounds > 0 {
                line(&mut out, format!("XXR {}", t.total_rounds));
            }
            if let Some(c) = t.initial_colour {
                line(
                    &mut out,
                    format!(
                        "XXC {}",
                        if c == Colour::White {
                            "white1"
                        } else {
                            "black1"
                        }
                    ),
                );
            }
            if t.scoring != defaults {
                line(&mut out, xxs(&t.scoring));
            }
        }
        Dialect::Trf26 => {
            if t.total_rounds > 0 {
                line(&mut out, format!("142 {}", t.total_rounds));
            }
            if let Some(c) = t.initial_colour {
                line(
                    &mut out,
                    format!("152 {}", if c == Colour::White { "W" } else { "B" }),
                );
            }
            if t.scoring != defaults {
                let s = &t.scoring;
                line(
                    &mut out,
                    format!(
                        "162  W{:>4}    D{:>4}    L{:>4}    A{:>4}    P{:>4}",
                        s.win, s.draw, s.loss, s.zero_point_bye, s.pab
                    ),
                );
                for (code, value) in [
                    ("BBW", s.win),
                    ("BBD", s.draw),
                    ("BBL", s.loss),
                    ("BBZ", s.zero_point_bye),
                    ("BBF", s.forfeit_loss),
                    ("BBU", s.pab),
                ] {
                    line(&mut out, format!("{code} {value:>4}"));
                }
                // What 162 and BB* cannot say (forfeit win, half- and full-point byes apart
                // from the game values) goes in an XXS line, read after them.
                let implied = Scoring {
                    forfeit_win: s.win,
                    full_point_bye: s.win,
                    half_point_bye: s.draw,
                    ..*s
                };
                if implied != *s {
                    line(&mut out, xxs(s));
                }
            }
        }
    }
    // Seed, system and options (swisspair's XXO), so that the file can be re-paired alone.
    if let Some(xxo) = super::settings::xxo_line(t) {
        line(&mut out, xxo);
    }
    for team_line in super::team::header_lines(t) {
        line(&mut out, team_line);
    }
    let points = t.points_after(t.rounds.len() as u32);
    let mut order: Vec<usize> = (0..t.players.len()).collect();
    order.sort_by_key(|&p| rank(p));
    let mut standing = order.clone();
    standing.sort_by(|&a, &b| points[b].cmp(&points[a]).then(rank(a).cmp(&rank(b))));
    let mut place = vec![0usize; t.players.len()];
    for (i, &p) in standing.iter().enumerate() {
        place[p] = i + 1;
    }
    let entries = t.entries();
    for &p in &order {
        let pl = &t.players[p];
        let mut s = String::new();
        let _ = write!(
            s,
            "001 {:>4} {:1}{:>3} {:<33} {:>4} {:<3} {:>11} {:<10} {:>4} {:>4}  ",
            rank(p),
            clip(&pl.sex, 1),
            clip(&pl.title, 3),
            clip(&pl.name, 33),
            if pl.rating > 0 {
                pl.rating.to_string()
            } else {
                String::new()
            },
            clip(&pl.federation, 3),
            clip(&pl.fide_id, 11),
            clip(&pl.birth_date, 10),
            points[p].to_string(),
            place[p],
        );
        for entry in &entries[p] {
            s.push_str(&round_block(t, entry));
        }
        line(&mut out, s);
    }
    for (p, pl) in t.players.iter().enumerate() {
        if let Some(r) = pl.late_entry_round {
            line(&mut out, format!("XXL {} {r}", rank(p)));
        }
        if let Some(r) = pl.withdrawn_from_round {
            line(&mut out, format!("XXW {} {r}", rank(p)));
        }
    }
    for team_line in super::team::team_lines(t, &rank) {
        line(&mut out, team_line);
    }
    // swisspair's separation records (docs/formats.md): clubs, named groups, separations.
    for &p in &order {
        let pl = &t.players[p];
        if !pl.club.trim().is_empty() {
            line(&mut out, format!("XCL {} {}", rank(p), pl.club.trim()));
        }
        for g in &pl.groups {
            line(&mut out, format!("XGR {} {}", rank(p), g.trim()));
        }
    }
    for s in &t.separations {
        let mut record = format!("XSP {} {}", s.key.name(), s.mode.name());
        let n = |v: Option<u32>| v.unwrap_or(0);
        let exempt = s.exempt_top_groups.is_some() || s.exempt_from_round.is_some();
        if exempt || s.first_round.is_some() || s.last_round.is_some() {
            let _ = write!(record, " {} {}", n(s.first_round), n(s.last_round));
        }
        if exempt {
            let _ = write!(
                record,
                " {} {}",
                n(s.exempt_top_groups),
                n(s.exempt_from_round)
            );
        }
        line(&mut out, record);
    }
    match dialect {
        Dialect::JaVaFo => {
            for f in &t.forbidden_pairings {
                let ids: Vec<String> = f.players.iter().map(|&p| rank(p).to_string()).collect();
                if f.first_round.is_none() && f.last_round.is_none() {
                    line(&mut out, format!("XXP {}", ids.join(" ")));
                } else {
                    line(
                        &mut out,
                        record_260(f.first_round, f.last_round, t.total_rounds, &ids),
                    );
                }
            }
            let max_round = t
                .accelerations
                .iter()
                .map(|a| a.last_round)
                .max()
                .unwrap_or(0);
            let mut players: Vec<usize> = t.accelerations.iter().map(|a| a.player).collect();
            players.sort_by_key(|&p| rank(p));
            players.dedup();
            for p in players {
                let mut s = format!("XXA {:>4}", rank(p));
                for r in 1..=max_round {
                    let value: Score = t
                        .accelerations
                        .iter()
                        .filter(|a| a.player == p && a.first_round <= r && r <= a.last_round)
                        .map(|a| a.points)
                        .sum();
                    let _ = write!(s, " {:>4}", value.to_string());
                }
                line(&mut out, s);
            }
        }
        Dialect::Trf26 => {
            // Requested byes of a round not yet paired (mandatory for in-tournament exchange).
            let paired = t.rounds_paired() as usize;
            for (r, round) in t.rounds.iter().enumerate().skip(paired) {
                for (kind, code) in [
                    (ByeKind::FullPoint, 'F'),
                    (ByeKind::HalfPoint, 'H'),
                    (ByeKind::ZeroPoint, 'Z'),
                ] {
                    let mut ids: Vec<u32> = round
                        .byes
                        .iter()
                        .filter(|b| b.kind == kind)
                        .map(|b| rank(b.player))
                        .collect();
                    if ids.is_empty() {
                        continue;
                    }
                    ids.sort_unstable();
                    let list: Vec<String> = ids.iter().map(|i| format!("{i:>4}")).collect();
                    line(
                        &mut out,
                        format!("240 {code} {:>3} {}", r + 1, list.join(" ")),
                    );
                }
            }
            for a in &t.accelerations {
                line(
                    &mut out,
                    format!(
                        "250      {:>4} {:>3} {:>3} {:>4} {:>4}",
                        a.points.to_string(),
                        a.first_round,
                        a.last_round,
                        rank(a.player),
                        rank(a.player)
                    ),
                );
            }
            for f in &t.forbidden_pairings {
                let ids: Vec<String> = f.players.iter().map(|&p| rank(p).to_string()).collect();
                // A pair forbidden for the whole event stays an XXP line (bbp reads both), so
                // that reading back gives no invented round range.
                let record = if f.first_round.is_none() && f.last_round.is_none() {
                    format!("XXP {}", ids.join(" "))
                } else {
                    record_260(f.first_round, f.last_round, t.total_rounds, &ids)
                };
                line(&mut out, record);
            }
        }
    }
    Ok(out)
}

fn record_260(first: Option<u32>, last: Option<u32>, total: u32, ids: &[String]) -> String {
    let last = last.unwrap_or(if total > 0 { total } else { 999 });
    let ids: Vec<String> = ids.iter().map(|i| format!("{i:>4}")).collect();
    format!(
        "260 {:>3} {:>3} {}",
        first.unwrap_or(1),
        last,
        ids.join(" ")
    )
}

fn xxs(s: &Scoring) -> String {
    format!(
        "XXS W={} D={} L={} FW={} FL={} PAB={} HPB={} ZPB={} FPB={}",
        s.win,
        s.draw,
        s.loss,
        s.forfeit_win,
        s.forfeit_loss,
        s.pab,
        s.half_point_bye,
        s.zero_point_bye,
        s.full_point_bye
    )
}

fn clip(text: &str, width: usize) -> String {
    text.chars().take(width).collect()
}

/// One 10-column round block: `oooo c r  `.
fn round_block(t: &Tournament, entry: &RoundEntry) -> String {
    match *entry {
        RoundEntry::None => " ".repeat(10),
        RoundEntry::Bye(kind) => format!("0000 - {}  ", kind.trf_code()),
        RoundEntry::Game {
            opponent,
            colour,
            result,
        } => {
            let white = colour == Colour::White;
            let code = match (result, white) {
                (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => '1',
                (GameResult::WhiteWins, false) | (GameResult::BlackWins, true) => '0',
                (GameResult::Draw, _) => '=',
                (GameResult::WhiteWinsForfeit, true) | (GameResult::BlackWinsForfeit, false) => '+',
                (GameResult::WhiteWinsForfeit, false) | (GameResult::BlackWinsForfeit, true) => '-',
                (GameResult::DoubleForfeit, _) => '-',
                // Unusual scores of a played game: each side its own points' code.
                (GameResult::WhiteHalfBlackZero, true)
                | (GameResult::WhiteZeroBlackHalf, false) => '=',
                (GameResult::WhiteHalfBlackZero, false)
                | (GameResult::WhiteZeroBlackHalf, true)
                | (GameResult::BothLose, _) => '0',
                // TRF has no adjourned code: written as not yet played.
                (GameResult::Adjourned | GameResult::Pending, _) => ' ',
            };
            format!(
                "{:>4} {} {}  ",
                t.pairing_number(opponent),
                colour.trf_letter(),
                code
            )
        }
    }
}

#[cfg(test)]
mod limits_tests {
    use super::*;
    use crate::model::{Player, Team, Tournament};

    /// A team pairing number of four digits cannot fit the three columns of `310`: the
    /// writer refuses, rather than write a file that reads back wrong.
    #[test]
    fn a_thousand_teams_are_refused_by_name() {
        let teams = 1000;
        let mut t = Tournament::default();
        for i in 0..teams {
            t.players.push(Player {
                id: format!("p{i}"),
                team_id: (i + 1).to_string(),
                ..Player::default()
            });
            t.teams.push(Team {
                id: (i + 1).to_string(),
                tpn: i as u32 + 1,
                name: format!("Team {}", i + 1),
                members: vec![i],
                ..Team::default()
            });
        }
        let doc = TrfDocument {
            tournament: t,
            ..TrfDocument::default()
        };
        assert_eq!(
            write(&doc, Dialect::Trf26, &crate::trf::NoSystems),
            Err(WriteError::TooManyTeams(1000))
        );
        let mut fewer = doc.clone();
        fewer.tournament.teams.truncate(999);
        fewer.tournament.players.truncate(999);
        assert!(write(&fewer, Dialect::Trf26, &crate::trf::NoSystems).is_ok());
    }
}
