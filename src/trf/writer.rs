//! TRF writer: TRF-16 player lines plus either the JaVaFo extension lines or the TRF-26
//! records for the facts the model holds. Reading what it writes gives the same tournament.
use std::fmt::Write as _;

use super::TrfDocument;
use super::reader::{NARROW_ID_WIDTH, PlayerColumns};
use crate::model::limits::MAX_PAIRING_NUMBER;
use crate::model::{
    ByeKind, Colour, GameResult, PlayerIdx, RoundEntry, Score, Scoring, Tournament,
};

/// Which records carry the engine facts (rounds, colour, scoring, byes, acceleration,
/// forbidden pairs). Both write the round columns in full.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// `XXR XXC XXS XXA XXP` (JaVaFo), `XXL`/`XXW` for late entries and withdrawals, and
    /// `XXW <digits>` when a starting rank has more than 4 digits.
    #[default]
    JaVaFo,
    /// `142 152 162 192 240 250 260` (TRF-26, as bbpPairings reads it), with `BB*` point lines
    /// when the scoring is not 1/½/0, and `XXL`/`XXW` (and `XXW <digits>`) as JaVaFo's.
    Trf26,
}

/// Why a tournament cannot be written as TRF.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// Starting ranks have four columns (5-8), or as many as an `XXW <digits>` line says
    /// (bbpPairings' fork for lichess): a TRF holds players 1..=1,000,000 (the limit of a
    /// pairing number, `limits::MAX_PAIRING_NUMBER`).
    #[error(
        "TRF holds at most 1,000,000 players (starting ranks of up to 7 digits, with `XXW 7`); this tournament has {0}"
    )]
    TooManyPlayers(usize),
    /// Team pairing numbers have three columns in TRF-26 team records (`310` 5-7, `320`,
    /// `330`): a TRF holds teams 1..=999.
    #[error(
        "TRF holds at most 999 teams (team pairing numbers have 3 digits); this tournament has {0}"
    )]
    TooManyTeams(usize),
}

/// The largest starting rank a TRF can hold: beyond 9,999 the file says `XXW <digits>`.
pub const MAX_TRF_PLAYERS: usize = MAX_PAIRING_NUMBER as usize;

/// The largest starting rank of TRF-16's four-digit columns, written without `XXW`.
pub const MAX_NARROW_TRF_PLAYERS: usize = 9999;

/// The layout of the player lines for ranks up to `largest`: 4 digits, or as many as the
/// largest rank has (written as `XXW <digits>`).
fn columns_for(largest: usize) -> PlayerColumns {
    let digits = largest.max(1).to_string().len();
    PlayerColumns {
        width: digits.max(NARROW_ID_WIDTH),
    }
}

/// The largest team pairing number a TRF-26 team record can hold.
pub const MAX_TRF_TEAMS: usize = 999;

/// Writes a tournament (with the lines a read kept) as TRF, LF line ends; the pairing systems
/// (`codes`) write their record 192 code.
///
/// The limits checked first ([`check_limits`]), then one [`Writer`] method per part of the
/// file, in the order the file holds them: the header records, the dialect's settings, the
/// player lines, the late entries and withdrawals, the team records, and the dialect's
/// records that name players.
pub fn write(
    doc: &TrfDocument,
    dialect: Dialect,
    codes: &dyn super::SystemCodes,
) -> Result<String, WriteError> {
    let mut t = doc.tournament.clone();
    t.assign_pairing_numbers(t.lot_seed);
    check_limits(&t)?;
    let largest = t
        .players
        .iter()
        .filter_map(|p| p.pairing_number)
        .max()
        .unwrap_or(0) as usize;
    let mut w = Writer {
        t: &t,
        out: String::new(),
        width: columns_for(largest.max(t.players.len())).width,
    };
    w.header(doc, codes);
    match dialect {
        Dialect::JaVaFo => w.javafo_settings(),
        Dialect::Trf26 => w.trf26_settings(),
    }
    w.options_and_team_header();
    w.player_lines();
    w.late_entries_and_withdrawals();
    w.team_records();
    w.separations();
    match dialect {
        Dialect::JaVaFo => {
            w.forbidden_pairs();
            w.virtual_points_xxa();
        }
        Dialect::Trf26 => {
            w.requested_byes_240();
            w.virtual_points_250();
            w.forbidden_pairs();
        }
    }
    Ok(w.out)
}

/// The numbered tournament fits the columns of a TRF: starting ranks up to
/// [`MAX_TRF_PLAYERS`] (beyond four digits with `XXW <digits>`), team pairing numbers of
/// three digits ([`MAX_TRF_TEAMS`]).
fn check_limits(t: &Tournament) -> Result<(), WriteError> {
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
    Ok(())
}

/// The text written so far, of a tournament whose players have their starting ranks.
struct Writer<'a> {
    t: &'a Tournament,
    out: String,
    /// Digits of a starting rank in the player lines (4, or an `XXW <digits>` line's).
    width: usize,
}

impl Writer<'_> {
    /// Adds a line, its trailing blanks cut.
    fn line(&mut self, text: String) {
        self.out.push_str(text.trim_end());
        self.out.push('\n');
    }

    /// A player's starting rank.
    fn rank(&self, p: PlayerIdx) -> u32 {
        self.t.pairing_number(p)
    }

    /// `012` (the name), the lines a read kept as they were, and the system's record 192.
    fn header(&mut self, doc: &TrfDocument, codes: &dyn super::SystemCodes) {
        let t = self.t;
        self.line(format!("012 {}", t.name));
        // Before every player line, as bbpPairings' fork needs it.
        if self.width > NARROW_ID_WIDTH {
            self.line(format!("XXW {}", self.width));
        }
        for other in &doc.other_lines {
            self.line(other.clone());
        }
        // The system (TRF-26 192, which bbpPairings also reads in JaVaFo files), as the system
        // writes its code with its options (the Dutch edition, `_BAKU` for C.04.7).
        if let Some(code) = codes.write(t) {
            self.line(format!("192 {code}"));
        }
    }

    /// JaVaFo's rounds (`XXR`), first-round colour (`XXC`) and scoring (`XXS`, when not
    /// 1/½/0).
    fn javafo_settings(&mut self) {
        let t = self.t;
        if t.total_rounds > 0 {
            self.line(format!("XXR {}", t.total_rounds));
        }
        if let Some(c) = t.initial_colour {
            self.line(format!(
                "XXC {}",
                if c == Colour::White {
                    "white1"
                } else {
                    "black1"
                }
            ));
        }
        if t.scoring != Scoring::default() {
            self.line(xxs(&t.scoring));
        }
    }

    /// TRF-26's rounds (`142`), first-round colour (`152`) and scoring (`162` and the `BB*`
    /// point lines, when not 1/½/0, with an `XXS` line for what they cannot say).
    fn trf26_settings(&mut self) {
        let t = self.t;
        if t.total_rounds > 0 {
            self.line(format!("142 {}", t.total_rounds));
        }
        if let Some(c) = t.initial_colour {
            self.line(format!(
                "152 {}",
                if c == Colour::White { "W" } else { "B" }
            ));
        }
        if t.scoring != Scoring::default() {
            self.scoring_162_and_bb(&t.scoring);
        }
    }

    /// A scoring other than 1/½/0 as TRF-26 writes it: `162`, the `BB*` lines, and `XXS`
    /// when the scoring has values they cannot hold.
    fn scoring_162_and_bb(&mut self, s: &Scoring) {
        self.line(format!(
            "162  W{:>4}    D{:>4}    L{:>4}    A{:>4}    P{:>4}",
            s.win, s.draw, s.loss, s.zero_point_bye, s.pab
        ));
        for (code, value) in [
            ("BBW", s.win),
            ("BBD", s.draw),
            ("BBL", s.loss),
            ("BBZ", s.zero_point_bye),
            ("BBF", s.forfeit_loss),
            ("BBU", s.pab),
        ] {
            self.line(format!("{code} {value:>4}"));
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
            self.line(xxs(s));
        }
    }

    /// swisspair's `XXO` and the team event's header records.
    fn options_and_team_header(&mut self) {
        let t = self.t;
        // Seed, system and options (swisspair's XXO), so that the file can be re-paired alone.
        if let Some(xxo) = super::settings::xxo_line(t) {
            self.line(xxo);
        }
        for team_line in super::team::header_lines(t) {
            self.line(team_line);
        }
    }

    /// The `001` player lines, by starting rank, with the points and place after the
    /// recorded rounds and a block per round.
    fn player_lines(&mut self) {
        let t = self.t;
        let width = self.width;
        let points = t.points_after(t.rounds.len() as u32);
        let mut order: Vec<usize> = (0..t.players.len()).collect();
        order.sort_by_key(|&p| self.rank(p));
        let place = self.places(&order, &points);
        let entries = t.entries();
        for &p in &order {
            let pl = &t.players[p];
            let mut s = String::new();
            let _ = write!(
                s,
                "001 {:>width$} {:1}{:>3} {:<33} {:>4} {:<3} {:>11} {:<10} {:>4} {:>4}  ",
                self.rank(p),
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
                // The rank column has 4 digits whatever the width of ids: a place beyond 9,999
                // is left blank (no engine reads it; the fork keeps the column 4 wide).
                if place[p] <= MAX_NARROW_TRF_PLAYERS {
                    place[p].to_string()
                } else {
                    String::new()
                },
            );
            for (r, entry) in entries[p].iter().enumerate() {
                s.push_str(&round_block(t, p, r as u32 + 1, entry, width));
            }
            self.line(s);
        }
    }

    /// Each player's place (1 first), by points, then starting rank; `order` is the players
    /// by starting rank.
    fn places(&self, order: &[usize], points: &[Score]) -> Vec<usize> {
        let mut standing = order.to_vec();
        standing.sort_by(|&a, &b| {
            points[b]
                .cmp(&points[a])
                .then(self.rank(a).cmp(&self.rank(b)))
        });
        let mut place = vec![0usize; self.t.players.len()];
        for (i, &p) in standing.iter().enumerate() {
            place[p] = i + 1;
        }
        place
    }

    /// `XXL` late entries and `XXW` withdrawals, in player order.
    fn late_entries_and_withdrawals(&mut self) {
        let t = self.t;
        for (p, pl) in t.players.iter().enumerate() {
            if let Some(r) = pl.late_entry_round {
                self.line(format!("XXL {} {r}", self.rank(p)));
            }
            if let Some(r) = pl.withdrawn_from_round {
                self.line(format!("XXW {} {r}", self.rank(p)));
            }
            // swisspair's ratings by round (docs/formats.md), after the withdrawals.
            for &(first, rating) in &pl.round_ratings {
                self.line(format!("XRR {} {first} {rating}", self.rank(p)));
            }
        }
    }

    /// The team records that name players by starting rank, then swisspair's team groups
    /// (`XTF`, `XTC`, `XTG`, in team order; SEP-6).
    fn team_records(&mut self) {
        let t = self.t;
        for team_line in super::team::team_lines(t, &|p| t.pairing_number(p)) {
            self.line(team_line);
        }
        // An individual event's teams (`team_id`), as `013` or `XTM` lines.
        for team_line in super::team::individual_team_lines(t, &|p| t.pairing_number(p)) {
            self.line(team_line);
        }
        for (i, team) in t.teams.iter().enumerate() {
            let tpn = t.team_tpn(i);
            if !team.federation.trim().is_empty() {
                self.line(format!("XTF {tpn} {}", team.federation.trim()));
            }
            if !team.club.trim().is_empty() {
                self.line(format!("XTC {tpn} {}", team.club.trim()));
            }
            for g in &team.groups {
                self.line(format!("XTG {tpn} {}", g.trim()));
            }
        }
    }

    /// swisspair's separation records (docs/formats.md): clubs (`XCL`), named groups
    /// (`XGR`), in starting-rank order, then the separations (`XSP`).
    fn separations(&mut self) {
        let t = self.t;
        let mut order: Vec<usize> = (0..t.players.len()).collect();
        order.sort_by_key(|&p| self.rank(p));
        for &p in &order {
            let pl = &t.players[p];
            if !pl.club.trim().is_empty() {
                self.line(format!("XCL {} {}", self.rank(p), pl.club.trim()));
            }
            for g in &pl.groups {
                self.line(format!("XGR {} {}", self.rank(p), g.trim()));
            }
            // B.02's inputs (docs/ratings.md): rated games, games in the period, 2400.
            if let Some(games) = pl.rated_games {
                let mut record = format!("XRG {} {games}", self.rank(p));
                match (pl.period_games, pl.reached_2400) {
                    (Some(n), true) => record.push_str(&format!(" {n} 2400")),
                    (Some(n), false) => record.push_str(&format!(" {n}")),
                    (None, true) => record.push_str(" 0 2400"),
                    (None, false) => {}
                }
                self.line(record);
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
            self.line(record);
        }
    }

    /// Forbidden pairs: `XXP` for a pair forbidden for the whole event, else `260` with its
    /// round range (both dialects).
    fn forbidden_pairs(&mut self) {
        let t = self.t;
        for f in &t.forbidden_pairings {
            let ids: Vec<String> = f
                .players
                .iter()
                .map(|&p| self.rank(p).to_string())
                .collect();
            // A pair forbidden for the whole event stays an XXP line (bbp reads both), so
            // that reading back gives no invented round range.
            let record = if f.first_round.is_none() && f.last_round.is_none() {
                format!("XXP {}", ids.join(" "))
            } else {
                record_260(f.first_round, f.last_round, t.total_rounds, &ids)
            };
            self.line(record);
        }
    }

    /// JaVaFo's virtual points (`XXA`): one line per player, by starting rank, the points of
    /// every round up to the last accelerated one.
    fn virtual_points_xxa(&mut self) {
        let t = self.t;
        let max_round = t
            .accelerations
            .iter()
            .map(|a| a.last_round)
            .max()
            .unwrap_or(0);
        let mut players: Vec<usize> = t.accelerations.iter().map(|a| a.player).collect();
        players.sort_by_key(|&p| self.rank(p));
        players.dedup();
        for p in players {
            let mut s = format!("XXA {:>width$}", self.rank(p), width = self.width);
            for r in 1..=max_round {
                let value: Score = t
                    .accelerations
                    .iter()
                    .filter(|a| a.player == p && a.first_round <= r && r <= a.last_round)
                    .map(|a| a.points)
                    .sum();
                let _ = write!(s, " {:>4}", value.to_string());
            }
            self.line(s);
        }
    }

    /// TRF-26 `240`: the requested byes of the rounds not yet paired (mandatory for
    /// in-tournament exchange), a line per round and kind.
    fn requested_byes_240(&mut self) {
        let t = self.t;
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
                    .map(|b| self.rank(b.player))
                    .collect();
                if ids.is_empty() {
                    continue;
                }
                ids.sort_unstable();
                let list: Vec<String> = ids.iter().map(|i| format!("{i:>4}")).collect();
                self.line(format!("240 {code} {:>3} {}", r + 1, list.join(" ")));
            }
        }
    }

    /// TRF-26 `250`: each acceleration's points, rounds and player.
    fn virtual_points_250(&mut self) {
        let t = self.t;
        for a in &t.accelerations {
            self.line(format!(
                "250      {:>4} {:>3} {:>3} {:>4} {:>4}",
                a.points.to_string(),
                a.first_round,
                a.last_round,
                self.rank(a.player),
                self.rank(a.player)
            ));
        }
    }
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

/// One round block: `oooo c r  ` (10 columns), the opponent `width` digits wide (a bye
/// zero-filled).
fn round_block(
    t: &Tournament,
    player: usize,
    round: u32,
    entry: &RoundEntry,
    width: usize,
) -> String {
    match *entry {
        RoundEntry::None => " ".repeat(width + 6),
        RoundEntry::Bye(kind) => format!("{} - {}  ", "0".repeat(width), kind.trf_code()),
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
            // A game not rated is written as it was read: `W`/`D`/`L`.
            let code = match code {
                '1' if t.is_not_rated(round, player, opponent) => 'W',
                '=' if t.is_not_rated(round, player, opponent) => 'D',
                '0' if t.is_not_rated(round, player, opponent) => 'L',
                c => c,
            };
            format!(
                "{:>width$} {} {}  ",
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
