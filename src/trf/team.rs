//! Team records: TRF-26 `310` (teams with TPN and roster), `320` (the team PAB per round),
//! `330` (forfeited matches), `352` (board colours), `362` (match points); TRF-16 `013`
//! (teams without TPN) on input. Record layouts: FIDE's TRF-26 specification.
use super::TrfError;
use crate::model::{Colour, PlayerIdx, Score, Team, TeamForfeit, Tournament};

/// Starting ranks as read, with the line and column of each.
type Ranks = Vec<(u32, usize, usize)>;

/// A team record as read, its members still starting ranks (resolved once players are
/// read).
#[derive(Clone, Debug, Default)]
pub(super) struct RawTeam {
    team: Team,
    ranks: Ranks,
}

/// The team records of a file, gathered while reading.
#[derive(Clone, Debug, Default)]
pub(super) struct TeamRecords {
    teams310: Vec<RawTeam>,
    teams013: Vec<RawTeam>,
    /// `300` line-ups: round, team TPN, players (rank, line, column), line.
    lineups: Vec<(u32, u32, Ranks, usize)>,
}

fn err(line: usize, column: usize, message: impl Into<String>) -> TrfError {
    TrfError {
        line,
        column,
        message: message.into(),
    }
}

fn cols(chars: &[char], from: usize, to: usize) -> String {
    if from > chars.len() {
        return String::new();
    }
    let end = to.min(chars.len());
    chars[from - 1..end]
        .iter()
        .collect::<String>()
        .trim()
        .to_string()
}

fn number(text: &str, what: &str, line: usize, column: usize) -> Result<u32, TrfError> {
    text.parse::<u32>()
        .map_err(|_| err(line, column, format!("{what}: {text:?} is not a number")))
}

fn score(text: &str, what: &str, line: usize, column: usize) -> Result<Score, TrfError> {
    Score::parse(text).ok_or_else(|| err(line, column, format!("{what}: {text:?} is not a score")))
}

fn optional_score(
    chars: &[char],
    from: usize,
    to: usize,
    what: &str,
    ln: usize,
) -> Result<Option<Score>, TrfError> {
    let text = cols(chars, from, to);
    if text.is_empty() {
        Ok(None)
    } else {
        score(&text, what, ln, from).map(Some)
    }
}

/// Members every 5 columns from `first`.
fn members(chars: &[char], first: usize, ln: usize) -> Result<Ranks, TrfError> {
    let mut out = Vec::new();
    let mut at = first;
    while at <= chars.len() {
        let text = cols(chars, at, at + 3);
        if !text.is_empty() {
            let rank = number(&text, "team member (starting rank)", ln, at)?;
            if rank > 0 {
                out.push((rank, ln, at));
            }
        }
        at += 5;
    }
    Ok(out)
}

impl TeamRecords {
    /// Reads one team record into the tournament (settings) or the gathered teams. Returns
    /// false for a code that is not a team record.
    pub(super) fn read(
        &mut self,
        code: &str,
        chars: &[char],
        ln: usize,
        t: &mut Tournament,
    ) -> Result<bool, TrfError> {
        match code {
            "310" => {
                let tpn = number(&cols(chars, 5, 7), "310: team pairing number (5-7)", ln, 5)?;
                let rank_text = cols(chars, 69, 71);
                let team = Team {
                    tpn,
                    name: cols(chars, 9, 40),
                    nickname: cols(chars, 42, 46),
                    strength: cols(chars, 48, 53),
                    declared_match_points: optional_score(chars, 55, 60, "310: match points", ln)?,
                    declared_game_points: optional_score(chars, 62, 67, "310: game points", ln)?,
                    declared_rank: if rank_text.is_empty() {
                        None
                    } else {
                        Some(number(&rank_text, "310: rank (69-71)", ln, 69)?)
                    },
                    members: Vec::new(),
                    id: String::new(),
                    ..Team::default()
                };
                let ranks = members(chars, 74, ln)?;
                self.teams310.push(RawTeam { team, ranks });
            }
            "300" => {
                // `300 RRR TTT OOO PPPP …`: a line-up differing from the roster order.
                let round = number(&cols(chars, 5, 7), "300: round (5-7)", ln, 5)?;
                let tpn = number(&cols(chars, 9, 11), "300: team (9-11)", ln, 9)?;
                let mut ranks = Vec::new();
                let mut at = 17;
                while at <= chars.len() {
                    let text = cols(chars, at, at + 3);
                    if !text.is_empty() {
                        ranks.push((
                            number(&text, "300: player (starting rank)", ln, at)?,
                            ln,
                            at,
                        ));
                    }
                    at += 5;
                }
                self.lineups.push((round, tpn, ranks, ln));
            }
            "013" => {
                let team = Team {
                    name: cols(chars, 5, 36),
                    ..Team::default()
                };
                let ranks = members(chars, 37, ln)?;
                self.teams013.push(RawTeam { team, ranks });
            }
            "320" => {
                let s = &mut t.team_settings;
                s.pab_match_points = optional_score(chars, 5, 8, "320: match points", ln)?;
                s.pab_game_points = optional_score(chars, 10, 13, "320: game points", ln)?;
                s.pab_rounds.clear();
                let mut at = 15;
                while at <= chars.len() {
                    let text = cols(chars, at, at + 2);
                    s.pab_rounds.push(if text.is_empty() {
                        None
                    } else {
                        Some(number(&text, "320: team with the PAB", ln, at)?)
                    });
                    at += 4;
                }
                while s.pab_rounds.last() == Some(&None) {
                    s.pab_rounds.pop();
                }
            }
            "330" => {
                let kind = cols(chars, 5, 6);
                let (white_wins, black_wins) = match kind.as_str() {
                    "+-" => (true, false),
                    "-+" => (false, true),
                    "--" => (false, false),
                    other => {
                        return Err(err(
                            ln,
                            5,
                            format!("330: the forfeit is +-, -+ or --, found {other:?}"),
                        ));
                    }
                };
                let round = number(&cols(chars, 8, 10), "330: round (8-10)", ln, 8)?;
                let white_tpn = number(&cols(chars, 12, 14), "330: first team (12-14)", ln, 12)?;
                let black_tpn = number(&cols(chars, 16, 18), "330: second team (16-18)", ln, 16)?;
                t.team_settings.forfeits.push(TeamForfeit {
                    round,
                    white_tpn,
                    black_tpn,
                    white_wins,
                    black_wins,
                });
            }
            "352" => {
                let mut colours = Vec::new();
                for (i, c) in cols(chars, 5, chars.len()).chars().enumerate() {
                    match c.to_ascii_uppercase() {
                        'W' => colours.push(Colour::White),
                        'B' => colours.push(Colour::Black),
                        ' ' => {}
                        other => {
                            return Err(err(
                                ln,
                                5 + i,
                                format!("352: a board colour is W or B, found {other:?}"),
                            ));
                        }
                    }
                }
                t.team_settings.board_colours = colours;
            }
            "362" => {
                let mut at = 5;
                while at <= chars.len() {
                    let symbol = cols(chars, at, at + 1).to_ascii_uppercase();
                    let text = cols(chars, at + 2, at + 5);
                    if !symbol.is_empty() {
                        let points = score(&text, "362: match points", ln, at + 2)?;
                        let s = &mut t.team_settings;
                        match symbol.as_str() {
                            "TW" => s.match_win = points,
                            "TD" => s.match_draw = points,
                            "TL" => s.match_loss = points,
                            other => {
                                return Err(err(
                                    ln,
                                    at,
                                    format!("362: a symbol is TW, TD or TL, found {other:?}"),
                                ));
                            }
                        }
                    }
                    at += 9;
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Whether the only team records are `013` lines that leave some of the `players`
    /// player lines out of every roster, in a file whose system (if named) is not a team
    /// system: then they are not a team event's rosters (a team event's players all have
    /// a team) and the file is read as an individual event.
    pub(super) fn only_013_for_some_players(
        &self,
        players: usize,
        system: Option<crate::model::SystemId>,
    ) -> bool {
        if self.teams013.is_empty()
            || !self.teams310.is_empty()
            || !self.lineups.is_empty()
            || system == Some(crate::model::SystemId::TeamSwiss)
        {
            return false;
        }
        let mut members: Vec<u32> = self
            .teams013
            .iter()
            .flat_map(|t| t.ranks.iter().map(|&(rank, _, _)| rank))
            .collect();
        members.sort_unstable();
        members.dedup();
        members.len() < players
    }

    /// An individual event's `013` records: no team is formed; each rostered player's
    /// `team_id` is his team's name (its position when unnamed), so that a TEAM separation
    /// keeps teammates apart (SEP-1, SEP-5); the writer writes them back from the
    /// `team_id`s (`individual_team_lines`).
    pub(super) fn individual_teams(
        &mut self,
        t: &mut Tournament,
        find: &dyn Fn(u32, usize, usize) -> Result<PlayerIdx, TrfError>,
    ) -> Result<(), TrfError> {
        let mut seen: Vec<Option<usize>> = vec![None; t.players.len()];
        for (i, r) in std::mem::take(&mut self.teams013).into_iter().enumerate() {
            let name = r.team.name.trim();
            let id = if name.is_empty() {
                (i + 1).to_string()
            } else {
                name.to_string()
            };
            for (rank, line, column) in r.ranks {
                let p = find(rank, line, column)?;
                if let Some(other) = seen[p] {
                    return Err(err(
                        line,
                        column,
                        format!(
                            "013: player {rank} is in the rosters of team {} and team {}",
                            other + 1,
                            i + 1
                        ),
                    ));
                }
                seen[p] = Some(i);
                t.players[p].team_id = id.clone();
            }
        }
        Ok(())
    }

    /// Resolves the members to players and stores the teams (`310` wins over `013`, as
    /// TRF-26 and Gacrux read them).
    pub(super) fn finish(
        self,
        t: &mut Tournament,
        find: &dyn Fn(u32, usize, usize) -> Result<PlayerIdx, TrfError>,
    ) -> Result<(), TrfError> {
        let from_013 = self.teams310.is_empty() && !self.teams013.is_empty();
        let raw = if from_013 {
            self.teams013
        } else {
            self.teams310
        };
        let mut seen: Vec<Option<usize>> = vec![None; t.players.len()];
        for (i, mut r) in raw.into_iter().enumerate() {
            for (rank, line, column) in r.ranks {
                let p = find(rank, line, column)?;
                if let Some(other) = seen[p] {
                    return Err(err(
                        line,
                        column,
                        format!(
                            "player {rank} is in the rosters of team {} and team {}",
                            other + 1,
                            i + 1
                        ),
                    ));
                }
                seen[p] = Some(i);
                r.team.members.push(p);
            }
            if from_013 {
                // 013 has no TPN: the order of the records is the TPN (trf.md §4).
                r.team.tpn = i as u32 + 1;
            }
            r.team.id = r.team.tpn.to_string();
            for &p in &r.team.members {
                t.players[p].team_id = r.team.id.clone();
            }
            t.teams.push(r.team);
        }
        t.team_settings.from_013 = from_013;
        for (round, tpn, ranks, line) in self.lineups {
            let Some(team) = t.team_by_tpn(tpn) else {
                return Err(err(
                    line,
                    9,
                    format!("300: no team has pairing number {tpn}"),
                ));
            };
            let mut players = Vec::new();
            for (rank, line, column) in ranks {
                let p = find(rank, line, column)?;
                if !t.teams[team].members.contains(&p) {
                    return Err(err(
                        line,
                        column,
                        format!("300: player {rank} is not in the roster of team {tpn}"),
                    ));
                }
                players.push(p);
            }
            t.team_settings.lineups.push(crate::model::TeamLineup {
                round,
                team,
                players,
            });
        }
        let mut tpns: Vec<u32> = t.teams.iter().map(|x| x.tpn).collect();
        tpns.sort_unstable();
        if tpns.windows(2).any(|w| w[0] == w[1]) {
            return Err(err(0, 0, "310: two teams have the same pairing number"));
        }
        Ok(())
    }
}

/// The header records of a team event (`352`, `362`), or nothing.
pub(super) fn header_lines(t: &Tournament) -> Vec<String> {
    if !t.is_team_event() {
        return Vec::new();
    }
    let s = &t.team_settings;
    let mut out = Vec::new();
    if !s.board_colours.is_empty() {
        let seq: String = s
            .board_colours
            .iter()
            .map(|c| c.trf_letter().to_ascii_uppercase())
            .collect();
        out.push(format!("352 {seq}"));
    }
    out.push(format!(
        "362 TW{:>4}   TD{:>4}   TL{:>4}",
        s.match_win.to_string(),
        s.match_draw.to_string(),
        s.match_loss.to_string()
    ));
    out
}

/// The team records after the players (`310` or `013`, `320`, `330`).
pub(super) fn team_lines(t: &Tournament, rank: &dyn Fn(PlayerIdx) -> u32) -> Vec<String> {
    let mut out = Vec::new();
    if !t.is_team_event() {
        return out;
    }
    let s = &t.team_settings;
    for team in &t.teams {
        let mut line = if s.from_013 {
            format!("013 {:<32}", clip(&team.name, 32))
        } else {
            format!(
                "310 {:>3} {:<32} {:<5} {:<6} {:>6} {:>6} {:>3}",
                team.tpn,
                clip(&team.name, 32),
                clip(&team.nickname, 5),
                clip(&team.strength, 6),
                team.declared_match_points
                    .map_or(String::new(), |x| x.to_string()),
                team.declared_game_points
                    .map_or(String::new(), |x| x.to_string()),
                team.declared_rank.map_or(String::new(), |x| x.to_string()),
            )
        };
        for (i, &m) in team.members.iter().enumerate() {
            // 013: member 1 at 37-40; 310: member 1 at 74-77; then every 5 columns.
            let gap = match (s.from_013, i) {
                (true, 0) => "",
                (false, 0) => "  ",
                _ => " ",
            };
            line.push_str(&format!("{gap}{:>4}", rank(m)));
        }
        out.push(line);
    }
    if !s.pab_rounds.is_empty() || s.pab_match_points.is_some() || s.pab_game_points.is_some() {
        let mut line = format!(
            "320 {:>4} {:>4}",
            s.pab_match_points.map_or(String::new(), |x| x.to_string()),
            s.pab_game_points.map_or(String::new(), |x| x.to_string())
        );
        for tpn in &s.pab_rounds {
            line.push_str(&format!(
                " {:>3}",
                tpn.map_or(String::new(), |x| x.to_string())
            ));
        }
        out.push(line);
    }
    for l in &s.lineups {
        // The opponent column (13-15) is informative; 000 when the round has none yet.
        let opponent = crate::model::team_rounds(t)
            .ok()
            .and_then(|rounds| rounds.into_iter().nth(l.round as usize - 1))
            .and_then(|r| {
                r.matches.iter().find_map(|m| {
                    if m.white == l.team {
                        Some(m.black)
                    } else if m.black == l.team {
                        Some(m.white)
                    } else {
                        None
                    }
                })
            })
            .map_or(0, |o| t.team_tpn(o));
        let mut line = format!(
            "300 {:>3} {:>3} {:>3} ",
            l.round,
            t.team_tpn(l.team),
            opponent
        );
        for (i, &p) in l.players.iter().enumerate() {
            if i > 0 {
                line.push(' ');
            }
            line.push_str(&format!("{:>4}", rank(p)));
        }
        out.push(line);
    }
    for f in &s.forfeits {
        let kind = match (f.white_wins, f.black_wins) {
            (true, false) => "+-",
            (false, true) => "-+",
            _ => "--",
        };
        out.push(format!(
            "330 {kind} {:>3} {:>3} {:>3}",
            f.round, f.white_tpn, f.black_tpn
        ));
    }
    out
}

/// The teams of an individual event's players (`team_id`, a TEAM separation's groups),
/// written so that they read back as they are: TRF-16 `013` lines (name = the team id,
/// members by starting rank, in order of first appearance), which the reader takes for an
/// individual event's because some player is in no roster; else, when every player has a
/// team (the lines would read as a team event), a team id does not fit the name's 32
/// columns or a rank its 4 digits, one swisspair `XTM RANK TEAM` line per rostered player.
pub(super) fn individual_team_lines(
    t: &Tournament,
    rank: &dyn Fn(PlayerIdx) -> u32,
) -> Vec<String> {
    if t.is_team_event() {
        return Vec::new();
    }
    let mut order: Vec<PlayerIdx> = (0..t.players.len()).collect();
    order.sort_by_key(|&p| rank(p));
    let mut teams: Vec<(&str, Vec<PlayerIdx>)> = Vec::new();
    for &p in &order {
        let id = t.players[p].team_id.as_str();
        if id.is_empty() {
            continue;
        }
        match teams.iter_mut().find(|(x, _)| *x == id) {
            Some((_, members)) => members.push(p),
            None => teams.push((id, vec![p])),
        }
    }
    if teams.is_empty() {
        return Vec::new();
    }
    let everyone = t.players.iter().all(|p| !p.team_id.is_empty());
    let fits = teams.iter().all(|(id, members)| {
        id.chars().count() <= 32 && id.trim() == *id && members.iter().all(|&m| rank(m) <= 9999)
    });
    if everyone || !fits {
        return order
            .iter()
            .filter(|&&p| !t.players[p].team_id.is_empty())
            .map(|&p| format!("XTM {} {}", rank(p), t.players[p].team_id))
            .collect();
    }
    teams
        .iter()
        .map(|(id, members)| {
            let mut line = format!("013 {id:<32}");
            for (i, &m) in members.iter().enumerate() {
                // Member 1 at 37-40, then every 5 columns.
                line.push_str(&format!("{}{:>4}", if i == 0 { "" } else { " " }, rank(m)));
            }
            line
        })
        .collect()
}

fn clip(text: &str, width: usize) -> String {
    text.chars().take(width).collect()
}
