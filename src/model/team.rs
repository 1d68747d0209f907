//! Team events: teams with an ordered roster, and the team rounds derived from the players'
//! games plus the team records (TRF-26 `310`, `320`, `330`, `352`, `362`; `013` of TRF-16).
//!
//! The players' games stay the one record of what happened on the boards; a team round is
//! derived from them ([`team_rounds`]): the games between the members of two teams are
//! their match, each team's line-up is its members who played, in roster order (board k is
//! the k-th of them), and the team named first is the one with White on board 1 when the
//! board colour sequence starts with White (`352`). A match lost by forfeit on every board
//! is not a played match (C.04.6 art. 1.6.1: a team "had" a colour only in a played match);
//! a `330` record states such a match even when no player line shows it.
use super::validate::Problem;
use super::{Colour, Game, GameResult, PlayerIdx, Round, Score, Tournament};

/// Index of a team in [`Tournament::teams`].
pub type TeamIdx = usize;

/// A team.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Team {
    /// Stable identifier (TRF: the TPN as text); players name it in `Player::team_id`.
    pub id: String,
    /// Team pairing number (C.04.6 art. 1.1; TRF-26 `310` columns 5-7). 0 = not given: the
    /// position in the list (+1) is used.
    pub tpn: u32,
    pub name: String,
    /// `310` columns 42-46.
    pub nickname: String,
    /// `310` columns 48-53 as written (the team's strength, informative).
    pub strength: String,
    /// Match points and game points as the file declares them (informative: the results
    /// decide).
    pub declared_match_points: Option<Score>,
    pub declared_game_points: Option<Score>,
    pub declared_rank: Option<u32>,
    /// The roster in order: boards first, then reserves.
    pub members: Vec<PlayerIdx>,
    /// The team's federation and club, and its named groups (`prefix:name`), which a
    /// separation in a team event groups teams by (SEP-1, SEP-6); empty = none. TRF:
    /// swisspair's `XTF`, `XTC`, `XTG` records (`310` has no column for them).
    pub federation: String,
    pub club: String,
    pub groups: Vec<String>,
}

/// Which score pairs teams (C.04.6 art. 1.2): the other one decides colours (art. 4.2.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PrimaryScore {
    #[default]
    MatchPoints,
    GamePoints,
}

/// The colour preferences of C.04.6 art. 1.7.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TeamColourType {
    /// Art. 1.7.1 (the default).
    #[default]
    A,
    /// Art. 1.7.2: strong and mild preferences.
    B,
    /// No colour preferences at all (art. 1.7).
    None,
}

/// A match forfeited on every board (TRF-26 `330`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamForfeit {
    pub round: u32,
    /// TPNs of the team named first and of the other.
    pub white_tpn: u32,
    pub black_tpn: u32,
    /// Whether each side won the forfeit (`+-`: white; `-+`: black; `--`: neither).
    pub white_wins: bool,
    pub black_wins: bool,
}

/// What a team event adds to the tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamSettings {
    /// Board colours of the team named first (`352`), board 1 first; empty = `WBWB…` over
    /// the number of boards.
    pub board_colours: Vec<Colour>,
    /// Number of boards; 0 = the length of `board_colours`, else the smallest roster.
    pub boards: u32,
    /// Match points for a won, drawn and lost match (`362`; default 2/1/0).
    pub match_win: Score,
    pub match_draw: Score,
    pub match_loss: Score,
    /// Match and game points of the pairing-allocated bye (`320`); `None` = a drawn match's
    /// (C.04.6 art. 1.4 of the 2026 text gives the PAB a draw's points by default).
    pub pab_match_points: Option<Score>,
    pub pab_game_points: Option<Score>,
    /// TPN of the team that had the PAB in each round (`320`), round 1 first.
    pub pab_rounds: Vec<Option<u32>>,
    pub forfeits: Vec<TeamForfeit>,
    /// Which score pairs (the record 192 code's `_MP_GP` / `_GP_MP`).
    pub primary: PrimaryScore,
    /// Whether the secondary score is used for colours (art. 1.2.1; default yes, art.
    /// 1.2.2). A code naming one score only (`FIDE_TEAM_TYPEA_MP`) says it is not.
    pub secondary_for_colours: bool,
    pub colour_type: TeamColourType,
    /// The team records came as TRF-16 `013` (no TPN column).
    pub from_013: bool,
    /// Line-ups given for a round (TRF-26 `300`); a team without one plays its roster
    /// order without the players who do not take part.
    pub lineups: Vec<TeamLineup>,
}

/// A team's line-up for a round, board 1 first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamLineup {
    pub round: u32,
    pub team: TeamIdx,
    pub players: Vec<PlayerIdx>,
}

impl Default for TeamSettings {
    fn default() -> Self {
        TeamSettings {
            board_colours: Vec::new(),
            boards: 0,
            match_win: Score::points(2),
            match_draw: Score::points(1),
            match_loss: Score::ZERO,
            pab_match_points: None,
            pab_game_points: None,
            pab_rounds: Vec::new(),
            forfeits: Vec::new(),
            primary: PrimaryScore::MatchPoints,
            secondary_for_colours: true,
            colour_type: TeamColourType::A,
            from_013: false,
            lineups: Vec::new(),
        }
    }
}

impl TeamSettings {
    /// The record 192 code these settings spell (`FIDE_TEAM_TYPEA_MP_GP`).
    pub fn trf_code(&self) -> String {
        let colour = match self.colour_type {
            TeamColourType::A => "_TYPEA",
            TeamColourType::B => "_TYPEB",
            TeamColourType::None => "",
        };
        let scores = match (self.primary, self.secondary_for_colours) {
            (PrimaryScore::MatchPoints, true) => "_MP_GP",
            (PrimaryScore::MatchPoints, false) => "_MP",
            (PrimaryScore::GamePoints, true) => "_GP_MP",
            (PrimaryScore::GamePoints, false) => "_GP",
        };
        format!("FIDE_TEAM{colour}{scores}")
    }

    /// Reads the tokens of a record 192 `FIDE_TEAM…` code.
    pub fn read_trf_code(&mut self, code: &str) {
        let code = code.trim().to_ascii_uppercase();
        let rest = code.strip_prefix("FIDE_TEAM").unwrap_or(&code);
        let tokens: Vec<&str> = rest.split('_').filter(|s| !s.is_empty()).collect();
        self.colour_type = if tokens.contains(&"TYPEB") {
            TeamColourType::B
        } else if tokens.contains(&"TYPEA") {
            TeamColourType::A
        } else {
            // No TYPE token: art. 1.7's default, type A (no code names "none").
            TeamColourType::A
        };
        let scores: Vec<&str> = tokens
            .iter()
            .copied()
            .filter(|t| *t == "MP" || *t == "GP")
            .collect();
        match scores.as_slice() {
            ["GP", ..] => self.primary = PrimaryScore::GamePoints,
            ["MP", ..] => self.primary = PrimaryScore::MatchPoints,
            _ => {}
        }
        // One score named: the competition states the other is not used (art. 1.2.1).
        self.secondary_for_colours = scores.len() != 1;
    }

    /// The colour of the team named first on each board (`352`, else alternating from
    /// White).
    pub fn board_colour(&self, board: usize) -> Colour {
        match self.board_colours.get(board) {
            Some(&c) => c,
            None => {
                if board.is_multiple_of(2) {
                    Colour::White
                } else {
                    Colour::Black
                }
            }
        }
    }

    /// Match points of a result by game points.
    pub fn match_points(&self, own: Score, other: Score) -> Score {
        if own > other {
            self.match_win
        } else if own == other {
            self.match_draw
        } else {
            self.match_loss
        }
    }
}

/// A match of a team round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamMatch {
    /// The team named first (White on board 1 when the board sequence starts with White).
    pub white: TeamIdx,
    pub black: TeamIdx,
    /// Indices of the games in the round, board order.
    pub games: Vec<usize>,
    /// Whether at least one board was played over the board (C.04.6 art. 1.6.1).
    pub played: bool,
    pub white_game_points: Score,
    pub black_game_points: Score,
    pub white_match_points: Score,
    pub black_match_points: Score,
}

/// A round as teams saw it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TeamRound {
    pub matches: Vec<TeamMatch>,
    /// The team with the pairing-allocated bye.
    pub pab: Option<TeamIdx>,
}

impl Tournament {
    /// Whether this is a team event (it has teams).
    pub fn is_team_event(&self) -> bool {
        !self.teams.is_empty()
    }

    /// The TPN of a team (its position + 1 when none was given).
    pub fn team_tpn(&self, team: TeamIdx) -> u32 {
        self.teams.get(team).map_or(team as u32 + 1, |t| {
            if t.tpn > 0 { t.tpn } else { team as u32 + 1 }
        })
    }

    /// The team with this TPN.
    pub fn team_by_tpn(&self, tpn: u32) -> Option<TeamIdx> {
        (0..self.teams.len()).find(|&i| self.team_tpn(i) == tpn)
    }

    /// The team of each player (`None` for a player in no roster).
    pub fn team_of_players(&self) -> Vec<Option<TeamIdx>> {
        let mut out = vec![None; self.players.len()];
        for (i, team) in self.teams.iter().enumerate() {
            for &m in &team.members {
                if let Some(slot) = out.get_mut(m) {
                    *slot = Some(i);
                }
            }
        }
        out
    }

    /// Number of boards of a match.
    pub fn boards(&self) -> u32 {
        let s = &self.team_settings;
        if s.boards > 0 {
            s.boards
        } else if !s.board_colours.is_empty() {
            s.board_colours.len() as u32
        } else {
            self.teams
                .iter()
                .map(|t| t.members.len() as u32)
                .min()
                .unwrap_or(0)
        }
    }

    /// Match and game points of the pairing-allocated bye.
    pub fn team_pab_points(&self) -> (Score, Score) {
        let s = &self.team_settings;
        let draw_gp = Score::from_tenths(self.scoring.draw.tenths() * self.boards() as i64);
        (
            s.pab_match_points.unwrap_or(s.match_draw),
            s.pab_game_points.unwrap_or(draw_gp),
        )
    }
}

/// The team rounds of the tournament's recorded rounds, or the problems that keep them from
/// being read (a player in no team, two teams meeting a third, …).
///
/// Each round: its games grouped by the teams that meet ([`RoundReader::team_pairs`]), a
/// match per group ([`RoundReader::team_match`]), the `330` forfeits no player line shows
/// ([`unseen_forfeits`]) and the `320` PAB ([`round_pab`]).
pub fn team_rounds(t: &Tournament) -> Result<Vec<TeamRound>, Vec<Problem>> {
    let reader = RoundReader {
        t,
        team_of: t.team_of_players(),
        position: roster_positions(t),
    };
    let mut problems = Vec::new();
    let mut out = Vec::new();
    for (r, round) in t.rounds.iter().enumerate() {
        let number = r as u32 + 1;
        let mut tr = TeamRound::default();
        for (teams, games) in reader.team_pairs(r, round, &mut problems) {
            tr.matches
                .push(reader.team_match(number, round, teams, games));
        }
        unseen_forfeits(t, number, &mut tr, &mut problems);
        round_pab(t, r, &mut tr, &mut problems);
        out.push(tr);
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// Each player's position in his team's roster (`usize::MAX` for a player in none).
fn roster_positions(t: &Tournament) -> Vec<usize> {
    let mut position = vec![usize::MAX; t.players.len()];
    for team in &t.teams {
        for (k, &m) in team.members.iter().enumerate() {
            if let Some(slot) = position.get_mut(m) {
                *slot = k;
            }
        }
    }
    position
}

/// What reading a round's games as team matches needs: each player's team and roster
/// position.
struct RoundReader<'a> {
    t: &'a Tournament,
    team_of: Vec<Option<TeamIdx>>,
    position: Vec<usize>,
}

impl RoundReader<'_> {
    /// The team of a player (`None`: in no team).
    fn team(&self, p: PlayerIdx) -> Option<TeamIdx> {
        self.team_of.get(p).copied().flatten()
    }

    /// The games of round `r` grouped by the pair of teams that meet (lower index first),
    /// in order of first appearance; a game whose teams cannot be read
    /// ([`RoundReader::game_teams`]) is left out, a team meeting two teams is a problem.
    fn team_pairs(
        &self,
        r: usize,
        round: &Round,
        problems: &mut Vec<Problem>,
    ) -> Vec<((TeamIdx, TeamIdx), Vec<usize>)> {
        let t = self.t;
        let number = r as u32 + 1;
        // Team pairs of the round, in order of first appearance.
        let mut groups: Vec<((TeamIdx, TeamIdx), Vec<usize>)> = Vec::new();
        let mut engaged: Vec<Option<TeamIdx>> = vec![None; t.teams.len()];
        for (g, game) in round.games.iter().enumerate() {
            let Some((a, b)) = self.game_teams(r, g, game, problems) else {
                continue;
            };
            let key = (a.min(b), a.max(b));
            for (x, y) in [(a, b), (b, a)] {
                match engaged[x] {
                    Some(o) if o != y => problems.push(Problem::new(
                        format!("tournament.rounds[{r}].games[{g}]"),
                        format!(
                            "round {number}: team {} meets both team {} and team {}",
                            t.team_tpn(x),
                            t.team_tpn(o),
                            t.team_tpn(y)
                        ),
                    )),
                    _ => engaged[x] = Some(y),
                }
            }
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, games)) => games.push(g),
                None => groups.push((key, vec![g])),
            }
        }
        groups
    }

    /// The teams of game `g` of round `r` (White's first), or a problem: a player in no
    /// team, or two players of one team.
    fn game_teams(
        &self,
        r: usize,
        g: usize,
        game: &Game,
        problems: &mut Vec<Problem>,
    ) -> Option<(TeamIdx, TeamIdx)> {
        let t = self.t;
        let number = r as u32 + 1;
        let (Some(Some(a)), Some(Some(b))) =
            (self.team_of.get(game.white), self.team_of.get(game.black))
        else {
            problems.push(Problem::new(
                format!("tournament.rounds[{r}].games[{g}]"),
                format!(
                    "round {number}: a player of the game {} - {} is in no team",
                    pid(t, game.white),
                    pid(t, game.black)
                ),
            ));
            return None;
        };
        let (a, b) = (*a, *b);
        if a == b {
            problems.push(Problem::new(
                format!("tournament.rounds[{r}].games[{g}]"),
                format!(
                    "round {number}: players {} and {} of the same team meet",
                    pid(t, game.white),
                    pid(t, game.black)
                ),
            ));
            return None;
        }
        Some((a, b))
    }

    /// The match of teams `a` and `b` in round `number` from their games: the games in
    /// board order, the team named first (the sequence's board-1 colour on board 1, `352`),
    /// the game points, and the match points (a `330` forfeit's, a loss to both when every
    /// game is a double forfeit, else by game points).
    fn team_match(
        &self,
        number: u32,
        round: &Round,
        (a, b): (TeamIdx, TeamIdx),
        mut games: Vec<usize>,
    ) -> TeamMatch {
        let t = self.t;
        let settings = &t.team_settings;
        games.sort_by_key(|&g| {
            (
                self.board(number, round, g, a),
                self.board(number, round, g, b),
            )
        });
        let first = &round.games[games[0]];
        let a_white_on_1 = self.team(first.white) == Some(a);
        // The team named first has the sequence's board-1 colour on board 1.
        let a_first = a_white_on_1 == (settings.board_colour(0) == Colour::White);
        let (white, black) = if a_first { (a, b) } else { (b, a) };
        let mut wgp = Score::ZERO;
        let mut bgp = Score::ZERO;
        let mut played = false;
        for &g in &games {
            let game = &round.games[g];
            let (pw, pb) = game.result.points(&t.scoring);
            let white_is_w = self.team(game.white) == Some(white);
            if white_is_w {
                wgp += pw;
                bgp += pb;
            } else {
                wgp += pb;
                bgp += pw;
            }
            if game.result.is_played() {
                played = true;
            }
        }
        let mut m = TeamMatch {
            white,
            black,
            games,
            played,
            white_game_points: wgp,
            black_game_points: bgp,
            white_match_points: Score::ZERO,
            black_match_points: Score::ZERO,
        };
        (m.white_match_points, m.black_match_points) = match_points(t, number, round, &m);
        m
    }

    /// Board order of game `g` for `team`: the position of the team's player in the
    /// round's line-up when one is given (`300`), else in the roster.
    fn board(&self, number: u32, round: &Round, g: usize, team: TeamIdx) -> usize {
        let game = &round.games[g];
        let p = if self.team(game.white) == Some(team) {
            game.white
        } else {
            game.black
        };
        let lineup = self
            .t
            .team_settings
            .lineups
            .iter()
            .find(|l| l.round == number && l.team == team)
            .and_then(|l| l.players.iter().position(|&x| x == p));
        match lineup {
            Some(k) => k,
            None => self.position.get(p).copied().unwrap_or(usize::MAX),
        }
    }
}

/// Match points of a match of round `number` from its games and game points: a `330`
/// forfeit's when one names it, a loss to both when no game was played and every game is a
/// double forfeit, else by game points (`362`).
fn match_points(t: &Tournament, number: u32, round: &Round, m: &TeamMatch) -> (Score, Score) {
    let settings = &t.team_settings;
    let (wgp, bgp) = (m.white_game_points, m.black_game_points);
    let (tw, tb) = (t.team_tpn(m.white), t.team_tpn(m.black));
    let forfeit = settings.forfeits.iter().find(|f| {
        f.round == number
            && ((f.white_tpn, f.black_tpn) == (tw, tb) || (f.white_tpn, f.black_tpn) == (tb, tw))
    });
    let mp = |wins: bool| {
        if wins {
            settings.match_win
        } else {
            settings.match_loss
        }
    };
    match forfeit {
        Some(f) if f.white_tpn == tw => (mp(f.white_wins), mp(f.black_wins)),
        Some(f) => (mp(f.black_wins), mp(f.white_wins)),
        None if !m.played
            && m.games
                .iter()
                .all(|&g| matches!(round.games[g].result, GameResult::DoubleForfeit)) =>
        {
            (settings.match_loss, settings.match_loss)
        }
        None => (
            settings.match_points(wgp, bgp),
            settings.match_points(bgp, wgp),
        ),
    }
}

/// The `330` records of round `number` of matches no player line shows, as unplayed
/// matches forfeited on every board; a record naming an unknown team is a problem.
fn unseen_forfeits(t: &Tournament, number: u32, tr: &mut TeamRound, problems: &mut Vec<Problem>) {
    let settings = &t.team_settings;
    for f in settings.forfeits.iter().filter(|f| f.round == number) {
        let (Some(w), Some(b)) = (t.team_by_tpn(f.white_tpn), t.team_by_tpn(f.black_tpn)) else {
            problems.push(Problem::new(
                "team_settings.forfeits",
                format!(
                    "round {number}: the forfeited match {} - {} names an unknown team",
                    f.white_tpn, f.black_tpn
                ),
            ));
            continue;
        };
        if tr
            .matches
            .iter()
            .any(|m| (m.white == w && m.black == b) || (m.white == b && m.black == w))
        {
            continue;
        }
        let boards = t.boards() as i64;
        let full = Score::from_tenths(t.scoring.forfeit_win.tenths() * boards);
        let none = Score::from_tenths(t.scoring.forfeit_loss.tenths() * boards);
        tr.matches.push(TeamMatch {
            white: w,
            black: b,
            games: Vec::new(),
            played: false,
            white_game_points: if f.white_wins { full } else { none },
            black_game_points: if f.black_wins { full } else { none },
            white_match_points: if f.white_wins {
                settings.match_win
            } else {
                settings.match_loss
            },
            black_match_points: if f.black_wins {
                settings.match_win
            } else {
                settings.match_loss
            },
        });
    }
}

/// The team with the PAB of round `r` (0-based) by its `320` TPN; an unknown TPN is a
/// problem.
fn round_pab(t: &Tournament, r: usize, tr: &mut TeamRound, problems: &mut Vec<Problem>) {
    let number = r as u32 + 1;
    if let Some(Some(tpn)) = t.team_settings.pab_rounds.get(r) {
        match t.team_by_tpn(*tpn) {
            Some(team) => tr.pab = Some(team),
            None => problems.push(Problem::new(
                "team_settings.pab_rounds",
                format!("round {number}: the PAB names team {tpn}, which does not exist"),
            )),
        }
    }
}

/// Match points and game points of every team after the first `rounds` team rounds.
pub fn team_points(t: &Tournament, rounds: &[TeamRound]) -> Vec<(Score, Score)> {
    let mut out = vec![(Score::ZERO, Score::ZERO); t.teams.len()];
    let (pab_mp, pab_gp) = t.team_pab_points();
    for round in rounds {
        for m in &round.matches {
            out[m.white].0 += m.white_match_points;
            out[m.white].1 += m.white_game_points;
            out[m.black].0 += m.black_match_points;
            out[m.black].1 += m.black_game_points;
        }
        if let Some(team) = round.pab {
            out[team].0 += pab_mp;
            out[team].1 += pab_gp;
        }
    }
    out
}

fn pid(t: &Tournament, p: PlayerIdx) -> &str {
    t.players.get(p).map_or("?", |pl| pl.id.as_str())
}
