//! Standings: FIDE tie-breaks (C.07, in force from 2026-03-01, and the 2024-08-01 rules as an
//! option), FIDE rating change and tournament performance. Core library code: no gRPC here.
//!
//! # Using it
//! [`compute`] ranks a [`Tournament`] after any round with a list of [`TieBreak`]s. The
//! pieces are public so that the pairing systems can reuse them: a [`Context`] holds what
//! every player did in each round up to a round, and [`buchholz`] computes Buchholz and
//! Sonneborn-Berger from it with the same unplayed-round rules as the standings (the
//! Burstein system's index needs exactly that after round r).
//!
//! # Readings of C.07
//! Where the text leaves a choice, this is what the code does, and why.
//! - **Unplayed rounds (art. 16).** A round is *voluntarily unplayed* (VUR, 16.1) when it is a
//!   half- or zero-point bye, a forfeit loss, an absence, a round before a late entry or after
//!   a withdrawal (which 16.1 turns into zero-point byes). A PAB, a full-point bye and a
//!   forfeit win are not VURs (16.2.1-16.2.2).
//! - **An opponent's score (16.3).** The opponent's final score, except that the rounds after
//!   its last non-VUR round in which it had no scheduled opponent (category 16.2.5: requested
//!   byes followed only by VURs, absences, rounds after a withdrawal) count as draws.
//! - **The player's own unplayed rounds (16.4).** Each counts as a game against a dummy with
//!   the player's own final score. 2026 caps it (16.4.1-16.4.2): for a forfeit, at the
//!   scheduled opponent's score as in 16.3; for any other unplayed round, at draw points times
//!   the number of rounds. 2024-08-01 has no cap. This is the only difference between the
//!   editions in the individual tie-breaks computed here.
//! - **Cuts with VURs (16.5, art. 14).** The low cut removes a VUR first (the one whose dummy
//!   score is lowest), unless for SB the lowest-scoring opponent's product is larger than the
//!   VUR's product, in which case that one goes ("cut the higher of the two"). A PAB is not a
//!   VUR. The high cut of the median removes the highest score, VUR or not.
//! - **SB (9.1)** multiplies each round's contribution (opponent's score, or the dummy's) by
//!   the points the player scored in that round, in the tournament's scoring (3/1/0 gives
//!   products in those units).
//! - **DE (art. 6)** counts games played over the board among the players still tied on
//!   everything before DE (forfeits only with `/P`). Repeated encounters count their
//!   average. In a Swiss, unless every tied player met every other, a player is ranked
//!   above the rest only if its DE points exceed the most any of the rest could have had by
//!   winning every missing game (6.3); then the same is repeated for the next place, and the
//!   procedure recurses into the players still tied. The value is 0 when DE separates
//!   nobody in a tied group, otherwise the rank inside the group (1 = first).
//! - **KS (9.2)** counts the points scored in every round with a scheduled opponent (forfeits
//!   included) against opponents whose final score is at least 50 % of the maximum (the
//!   win points times the number of rounds), shifted by `/L`.
//! - **WIN (7.1)** counts rounds scored with the win's points, played or not; **WON (7.2)**
//!   wins over the board; **REP/GE (7.6)** rounds played over the board plus rounds won
//!   without playing and PABs (a PAB worth less than a win still counts: the player was
//!   there to play).
//! - **Rating tie-breaks (art. 10).** Only games played over the board count. If any player
//!   is unrated (rating 0) and the code has no `/U<rating>`, the rating tie-breaks are
//!   undefined for everybody (the rules give no method). Averages round 0.5 up. TPR uses
//!   the B.02 8.1.1 dp table with p rounded half up to a whole percentage; PTP is the lowest
//!   whole rating whose expected score (B.02 8.1.2 table, differences capped at 800, no
//!   400-point rule) reaches the score; a zero score gives the lowest opponent − 800.
//!   Cuts on ARO/TPR/PTP remove opponents without a rating first, then the lowest rating.
//! - **Backgammon (BG-3).** A round won against the phantom "\[absent\]" counts for nothing in
//!   the tie-breaks: no BH/SB contribution, no win for WIN or REP. Its points stay in PTS.
//! - **Round robins (15.2).** Forfeits count as played for BH, SB and DE; an unplayed round
//!   without opponent contributes nothing; DE never uses the Swiss maximum rule.
//! - **Ties.** Players equal on every tie-break share the rank; they are then listed by
//!   pairing number, or by a lot drawn from the request's seed.
//!
//! # Rating change (B.02 8.3)
//! ΔR = K × Σ(W − We) over rated games played over the board against rated opponents, with
//! We from the 8.1.2 table and a rating difference of more than 400 counted as 400 as the
//! B.02 text in force says (once per event before 1 March 2024, every game since, and from
//! 1 October 2025 only for players rated below 2650: [`fide_rating`]). K is 40
//! until the end of the year of the player's 18th birthday (birth year from the TRF, the
//! year from the request or the TRF's `052`/`042` date) while the rating is under 2300, 10
//! from 2400 (or once 2400 was reached), 20 otherwise, and 40 before 30 rated games when the
//! player's count is given (`Player::rated_games`, TRF `XRG`); K × n ≤ 700 (n the period's
//! games, else the event's); a national-rating K can be given instead.
pub mod buchholz;
pub mod codes;
pub mod direct_encounter;
pub mod fide_rating;
pub mod norms;
pub mod rating;
pub mod render;
pub mod report;
pub mod team;
pub mod value;
pub mod withdrawals;

pub use codes::{Kind, TieBreak};
pub use value::Value;

use crate::model::{
    ByeKind, Colour, GameResult, PlayerIdx, RoundEntry, Score, SystemId, Tournament,
};

/// Which C.07 text to follow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Edition {
    /// Rules applied from 2024-08-01.
    V2024,
    /// Rules applied from 2026-03-01.
    #[default]
    V2026,
}

impl Edition {
    pub fn parse(text: &str) -> Option<Edition> {
        match text.trim() {
            "2024" | "V2024" | "2024-08-01" => Some(Edition::V2024),
            "2026" | "V2026" | "2026-03-01" | "" => Some(Edition::V2026),
            _ => None,
        }
    }

    pub fn year(self) -> u32 {
        match self {
            Edition::V2024 => 2024,
            Edition::V2026 => 2026,
        }
    }
}

/// How players equal on every tie-break are listed (they share the rank either way).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TieOrder {
    /// By pairing number.
    #[default]
    PairingNumber,
    /// By a lot drawn from this seed.
    Lot(u64),
}

/// Where the tie-break list came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ListSource {
    /// The request named it.
    #[default]
    Request,
    /// The TRF's `212` (or `202`) record.
    Trf,
    /// The system's usual list (C.07 art. 13 recommendations as read here).
    Default,
}

impl ListSource {
    pub fn name(self) -> &'static str {
        match self {
            ListSource::Request => "request",
            ListSource::Trf => "trf",
            ListSource::Default => "default",
        }
    }
}

/// A category of players (partial standings, like JavaPairing's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Born in this year or later.
    pub born_from: Option<u32>,
    /// Born in this year or earlier.
    pub born_to: Option<u32>,
    /// Sex as the TRF writes it (`m`, `w`/`f`), case-insensitive.
    pub sex: Option<String>,
    pub rating_min: Option<u32>,
    pub rating_max: Option<u32>,
    /// Any of these titles (`GM`, `WIM`, … ; empty string = untitled).
    pub titles: Vec<String>,
    /// Any of these federations.
    pub federations: Vec<String>,
}

impl Filter {
    pub fn is_empty(&self) -> bool {
        *self == Filter::default()
    }

    pub fn accepts(&self, p: &crate::model::Player) -> bool {
        let year = p.birth_year();
        if self.born_from.is_some_and(|y| year.is_none_or(|b| b < y)) {
            return false;
        }
        if self.born_to.is_some_and(|y| year.is_none_or(|b| b > y)) {
            return false;
        }
        if let Some(sex) = &self.sex {
            let norm = |s: &str| match s.trim().to_ascii_lowercase().as_str() {
                "f" | "w" => "f".to_string(),
                other => other.to_string(),
            };
            if norm(sex) != norm(&p.sex) {
                return false;
            }
        }
        if self.rating_min.is_some_and(|r| p.rating < r) {
            return false;
        }
        if self.rating_max.is_some_and(|r| p.rating > r) {
            return false;
        }
        if !self.titles.is_empty()
            && !self
                .titles
                .iter()
                .any(|t| t.trim().eq_ignore_ascii_case(p.title.trim()))
        {
            return false;
        }
        if !self.federations.is_empty()
            && !self
                .federations
                .iter()
                .any(|f| f.trim().eq_ignore_ascii_case(p.federation.trim()))
        {
            return false;
        }
        true
    }
}

/// What to compute.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The tie-breaks after PTS (a leading PTS is accepted and dropped).
    pub tie_breaks: Vec<TieBreak>,
    pub source: ListSource,
    pub edition: Edition,
    /// Standings after this round; `None` = the last round with results. Rounds declared
    /// (`total_rounds`) but not recorded count as absences.
    pub after_round: Option<u32>,
    pub tie_order: TieOrder,
    pub filter: Filter,
    /// K for a national rating, instead of FIDE's K.
    pub k_factor: Option<u32>,
    /// The tournament's year, for the under-18 K (B.02 8.3.3); `None` = not applied.
    pub year: Option<u32>,
    /// The B.02 text of the rating change (8.3.1's 400-point rule differs by date); the
    /// default is the text in force now.
    pub rating_rules: fide_rating::RatingRules,
    /// GRC 6.6 in a round robin: the games of a player who withdrew having completed less
    /// than 50 % of his games are left out of everyone's points and tie-breaks
    /// ([`withdrawals`]); off by default.
    pub round_robin_withdrawals: bool,
}

/// One player's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub player: PlayerIdx,
    /// Shared by players equal on every tie-break.
    pub rank: u32,
    pub points: Score,
    /// One value per entry of [`Standings::tie_breaks`]; `None` = undefined.
    pub values: Vec<Option<Value>>,
    /// FIDE rating change (B.02 8.3), in rating points with two decimals.
    pub rating_change: Option<Value>,
    /// The K used for the rating change.
    pub k_factor: Option<u32>,
    /// Tournament performance rating (TPR, C.07 art. 10.2).
    pub performance: Option<i64>,
    /// The first round the player no longer took part in, when the player withdrew by the
    /// standings' round: standings mark withdrawn players (FIDE's checklist VCL4THP Q170).
    pub withdrawn_from_round: Option<u32>,
}

/// The ranked standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standings {
    /// PTS, then the tie-breaks in order.
    pub tie_breaks: Vec<TieBreak>,
    pub source: ListSource,
    pub edition: Edition,
    /// The standings are after this round.
    pub after_round: u32,
    /// In final order.
    pub rows: Vec<Row>,
    /// A Scheveningen's two teams (SCH-6): name, match points, game points, the leader
    /// first (by match points, then game points); `None` for any other event.
    pub team_match: Option<[(String, u32, Score); 2]>,
    /// The games left out by GRC 6.6 (`Options::round_robin_withdrawals`), with why.
    pub dropped_games: Vec<withdrawals::DroppedGame>,
}

/// Bad input for the standings, naming what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StandingsError {
    #[error("{0}")]
    TieBreak(String),
    /// The tournament's system or its options could not be resolved for its own ranking.
    #[error("{0}")]
    System(String),
    #[error("after_round {asked}: the tournament has {recorded} rounds")]
    AfterRound { asked: u32, recorded: u32 },
}

/// What a player did in one round, as the tie-breaks see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundFact {
    /// Points scored in the round, in the tournament's scoring.
    pub points: Score,
    /// The scheduled opponent: a game played or forfeited.
    pub opponent: Option<PlayerIdx>,
    /// Played over the board (including pending or adjourned games).
    pub over_board: bool,
    /// The colour played over the board.
    pub colour: Option<Colour>,
    /// Over the board: the result in half points of the 1 / ½ / 0 rating scale.
    pub rating_halves: Option<i64>,
    /// A voluntarily unplayed round (C.07 16.1).
    pub vur: bool,
    /// A pairing-allocated bye.
    pub pab: bool,
    /// A backgammon win against \[absent\] (BG-3): nothing in tie-breaks.
    pub absent_opponent: bool,
}

impl RoundFact {
    const ABSENT: RoundFact = RoundFact {
        points: Score::ZERO,
        opponent: None,
        over_board: false,
        colour: None,
        rating_halves: None,
        vur: true,
        pab: false,
        absent_opponent: false,
    };
}

/// Every player's rounds up to a round, with the final scores: what every tie-break reads.
#[derive(Clone, Debug)]
pub struct Context<'a> {
    pub tournament: &'a Tournament,
    /// Rounds counted (the standings are after this round).
    pub rounds: u32,
    /// `facts[player][round - 1]`.
    pub facts: Vec<Vec<RoundFact>>,
    /// Points after `rounds` rounds.
    pub points: Vec<Score>,
    /// Round robin: forfeits count as played (C.07 15.2).
    pub round_robin: bool,
    /// C.07 16.3: each player's score as its opponents see it.
    pub(crate) adjusted: Vec<Score>,
}

impl<'a> Context<'a> {
    /// The context after `rounds` rounds (rounds not recorded count as absences).
    pub fn new(t: &'a Tournament, rounds: u32) -> Context<'a> {
        let entries = t.entries();
        let scoring = &t.scoring;
        let facts: Vec<Vec<RoundFact>> = entries
            .iter()
            .map(|row| {
                (0..rounds as usize)
                    .map(|r| match row.get(r).copied().unwrap_or(RoundEntry::None) {
                        RoundEntry::None => RoundFact::ABSENT,
                        RoundEntry::Bye(kind) => RoundFact {
                            points: kind.points(scoring),
                            vur: matches!(
                                kind,
                                ByeKind::HalfPoint | ByeKind::ZeroPoint | ByeKind::Absent
                            ),
                            pab: kind == ByeKind::Pab,
                            absent_opponent: kind == ByeKind::AbsentOpponent,
                            ..RoundFact::ABSENT
                        },
                        RoundEntry::Game {
                            opponent,
                            colour,
                            result,
                        } => {
                            let (w, b) = result.points(scoring);
                            let white = colour == Colour::White;
                            let points = if white { w } else { b };
                            let over_board = result.is_played();
                            let won_forfeit = match result {
                                GameResult::WhiteWinsForfeit => white,
                                GameResult::BlackWinsForfeit => !white,
                                _ => false,
                            };
                            let rating_halves = match result {
                                GameResult::Draw => Some(1),
                                GameResult::WhiteWins => Some(if white { 2 } else { 0 }),
                                GameResult::BlackWins => Some(if white { 0 } else { 2 }),
                                _ => None,
                            };
                            RoundFact {
                                points,
                                opponent: Some(opponent),
                                over_board,
                                colour: over_board.then_some(colour),
                                rating_halves,
                                vur: !over_board && !won_forfeit,
                                pab: false,
                                absent_opponent: false,
                            }
                        }
                    })
                    .collect()
            })
            .collect();
        let points = t.points_after(rounds);
        let round_robin = t.system == Some(SystemId::RoundRobin);
        let mut ctx = Context {
            tournament: t,
            rounds,
            facts,
            points,
            round_robin,
            adjusted: Vec::new(),
        };
        ctx.adjusted = (0..t.players.len())
            .map(|p| buchholz::adjusted_score(&ctx, p))
            .collect();
        ctx
    }

    /// A player's score as its opponents' Buchholz sees it (C.07 16.3).
    pub fn adjusted_score(&self, player: PlayerIdx) -> Score {
        self.adjusted.get(player).copied().unwrap_or(Score::ZERO)
    }

    /// The points of a draw in the tournament's scoring.
    pub fn draw(&self) -> Score {
        self.tournament.scoring.draw
    }

    /// The points of a win in the tournament's scoring.
    pub fn win(&self) -> Score {
        self.tournament.scoring.win
    }
}

/// The rounds standings are computed after when none is asked: the last paired round in
/// which something has a result (a round paired but not yet played is left out).
pub fn default_after_round(t: &Tournament) -> u32 {
    let paired = t.rounds_paired();
    (1..=paired)
        .rev()
        .find(|&r| {
            t.round(r).is_some_and(|round| {
                !round.byes.is_empty()
                    || round.games.iter().any(|g| g.result != GameResult::Pending)
            })
        })
        .unwrap_or(0)
}

/// The usual tie-breaks of a system when neither the request nor the TRF names any:
/// round robins DE, WIN, SB, KS; Swiss systems BH/C1, BH, SB, DE; Monrad none (its order
/// is the score, players on the same score listed by pairing number, MON-2); a knockout
/// none (its order is the round reached, then the points: [`knockout_progress`]).
pub fn default_tie_breaks(system: Option<SystemId>) -> Vec<TieBreak> {
    if matches!(system, Some(SystemId::Monrad | SystemId::Knockout)) {
        return Vec::new();
    }
    let codes: &[Kind] = if system == Some(SystemId::RoundRobin) {
        &[Kind::De, Kind::Win, Kind::Sb, Kind::Ks]
    } else {
        &[Kind::Bh, Kind::Bh, Kind::Sb, Kind::De]
    };
    let mut list: Vec<TieBreak> = codes.iter().map(|&k| TieBreak::new(k)).collect();
    if system != Some(SystemId::RoundRobin) {
        list[0].cut_low = 1;
    }
    list
}

/// The tie-break list: the request's codes, else the TRF's `212`/`202` record, else the
/// system's defaults; with where it came from.
pub fn resolve_tie_breaks(
    requested: &[String],
    trf_lines: &[String],
    system: Option<SystemId>,
) -> Result<(Vec<TieBreak>, ListSource), StandingsError> {
    let requested: Vec<&String> = requested.iter().filter(|s| !s.trim().is_empty()).collect();
    if !requested.is_empty() {
        let mut list = Vec::new();
        for code in requested {
            list.extend(TieBreak::parse_list(code).map_err(StandingsError::TieBreak)?);
        }
        return Ok((list, ListSource::Request));
    }
    for record in ["212", "202"] {
        if let Some(line) = trf_lines.iter().find(|l| l.starts_with(record)) {
            let text = line.get(3..).unwrap_or("");
            let list = TieBreak::parse_list(text)
                .map_err(|e| StandingsError::TieBreak(format!("TRF record {record}: {e}")))?;
            if !list.is_empty() {
                return Ok((list, ListSource::Trf));
            }
        }
    }
    Ok((default_tie_breaks(system), ListSource::Default))
}

/// A pairing system's own ranking (Keizer's score, KZ-6): the standings rank by it before
/// points, and show it as their first column under `code`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnColumn {
    /// The column's heading (`KZ`).
    pub code: &'static str,
    /// Per player, the value shown.
    pub values: Vec<Option<Value>>,
    /// The players in the system's order, best first (every player once).
    pub order: Vec<PlayerIdx>,
}

/// Computes the standings.
pub fn compute(t: &Tournament, options: &Options) -> Result<Standings, StandingsError> {
    compute_with(t, options, &|_| None)
}

/// [`compute`], ranked first by the system's own ranking after the rounds counted when
/// `own` gives one (the pipeline's `pairing::standings` asks the system).
pub fn compute_with(
    t: &Tournament,
    options: &Options,
    own: &dyn Fn(u32) -> Option<OwnColumn>,
) -> Result<Standings, StandingsError> {
    // Every player of a round robin meets the same opponents: the Buchholz family ranks
    // nobody (C.07 art. 8 is for Swiss events), so a request may not select it (VCL4THP
    // Q105). A report's own list (212/202) is still computed, as recorded.
    if t.system == Some(SystemId::RoundRobin)
        && options.source == ListSource::Request
        && let Some(tb) = options
            .tie_breaks
            .iter()
            .find(|tb| matches!(tb.kind, Kind::Bh | Kind::Fb | Kind::Aob))
    {
        return Err(StandingsError::TieBreak(format!(
            "tie-break {tb}: the Buchholz tie-breaks (BH, FB, AOB) are not for a round robin, where every player meets the same opponents (C.07 art. 8)"
        )));
    }
    // Rounds declared but not recorded may be asked for: they count as absences (what
    // FIDE's checker does for a tournament that stopped before its last round).
    let recorded = (t.rounds.len() as u32).max(t.total_rounds);
    let rounds = match options.after_round {
        Some(r) if r > recorded => {
            return Err(StandingsError::AfterRound { asked: r, recorded });
        }
        Some(r) => r,
        None => default_after_round(t),
    };
    // GRC 6.6: the standings rank the event without the games of a round robin's players
    // who withdrew under 50 %; their results stay for rating (the rating change below is
    // computed on every game).
    let dropped_games = if options.round_robin_withdrawals {
        withdrawals::dropped(t, rounds)
    } else {
        Vec::new()
    };
    let stripped;
    let rated = t;
    let t = if dropped_games.is_empty() {
        t
    } else {
        stripped = withdrawals::without(t, &dropped_games);
        &stripped
    };
    let ctx = Context::new(t, rounds);
    let own = own(rounds);
    let mut tie_breaks = Vec::new();
    if let Some(own) = &own {
        let mut tb = TieBreak::new(Kind::Own);
        tb.code = own.code.to_string();
        tie_breaks.push(tb);
    }
    tie_breaks.push(TieBreak::new(Kind::Pts));
    tie_breaks.extend(
        options
            .tie_breaks
            .iter()
            .filter(|tb| tb.kind != Kind::Pts)
            .cloned(),
    );
    let n = t.players.len();
    // Values of every tie-break but DE, which depends on who is still tied.
    let mut columns: Vec<Vec<Option<Value>>> = tie_breaks
        .iter()
        .map(|tb| match (tb.kind, &own) {
            (Kind::De, _) => vec![None; n],
            (Kind::Own, Some(own)) => own.values.clone(),
            _ => values(&ctx, tb, options.edition),
        })
        .collect();
    // The own ranking ranks by its order (each player's place in it), not by the values
    // shown (which may be rounded).
    let own_place: Vec<Option<Value>> = own.as_ref().map_or_else(Vec::new, |own| {
        let mut place = vec![None; n];
        for (i, &p) in own.order.iter().enumerate() {
            if let Some(slot) = place.get_mut(p) {
                *slot = Some(Value::int(i as i64));
            }
        }
        place
    });

    // Rank: split the groups of tied players by each tie-break in turn (C.07 art. 4); a
    // knockout ranks by the round reached first (KO-8).
    let mut groups: Vec<Vec<PlayerIdx>> = if t.system == Some(SystemId::Knockout) {
        let progress = knockout_progress(t, rounds);
        let mut by: std::collections::BTreeMap<std::cmp::Reverse<u32>, Vec<PlayerIdx>> =
            std::collections::BTreeMap::new();
        for (p, &reached) in progress.iter().enumerate() {
            by.entry(std::cmp::Reverse(reached)).or_default().push(p);
        }
        by.into_values().collect()
    } else {
        vec![(0..n).collect()]
    };
    for (i, tb) in tie_breaks.iter().enumerate() {
        if tb.kind == Kind::De {
            columns[i] = direct_encounter::values(&ctx, tb, &groups);
        }
        let column = if tb.kind == Kind::Own {
            &own_place
        } else {
            &columns[i]
        };
        let mut next = Vec::new();
        for group in groups {
            let mut sorted = group;
            sorted.sort_by(|&a, &b| {
                compare(column[a], column[b], tb.kind.descending() != tb.reversed)
            });
            let mut start = 0;
            while start < sorted.len() {
                let mut end = start + 1;
                while end < sorted.len() && column[sorted[end]] == column[sorted[start]] {
                    end += 1;
                }
                next.push(sorted[start..end].to_vec());
                start = end;
            }
        }
        groups = next;
    }
    // Players still tied share the rank and are listed by pairing number or lot.
    let lots: Vec<u64> = match options.tie_order {
        TieOrder::PairingNumber => Vec::new(),
        TieOrder::Lot(seed) => {
            use rand::{Rng, SeedableRng};
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            (0..n).map(|_| rng.random()).collect()
        }
    };
    let performance = rating::performances(&ctx);
    let rated_ctx = (!dropped_games.is_empty()).then(|| Context::new(rated, rounds));
    let changes = rating::rating_changes(
        rated_ctx.as_ref().unwrap_or(&ctx),
        options.k_factor,
        options.year,
        options.rating_rules,
    );
    let mut rows = Vec::with_capacity(n);
    let mut rank_all = 1u32;
    let mut rank_filtered = 1u32;
    for mut group in groups {
        group.sort_by_key(|&p| (lots.get(p).copied().unwrap_or(0), t.pairing_number(p)));
        let mut kept = 0;
        for &p in &group {
            if !options.filter.accepts(&t.players[p]) {
                continue;
            }
            kept += 1;
            let (rating_change, k_factor) = changes[p];
            rows.push(Row {
                player: p,
                rank: if options.filter.is_empty() {
                    rank_all
                } else {
                    rank_filtered
                },
                points: ctx.points[p],
                values: columns.iter().map(|c| c[p]).collect(),
                rating_change,
                k_factor,
                performance: performance[p],
                withdrawn_from_round: t.players[p].withdrawn_from_round.filter(|&r| r <= rounds),
            });
        }
        rank_all += group.len() as u32;
        rank_filtered += kept;
    }
    Ok(Standings {
        tie_breaks,
        source: options.source,
        edition: options.edition,
        after_round: rounds,
        rows,
        team_match: scheveningen_match(t, rounds),
        dropped_games,
    })
}

/// A Scheveningen's team match after `rounds` (SCH-6), the leader first; `None` for
/// another system or a field without two teams.
fn scheveningen_match(t: &Tournament, rounds: u32) -> Option<[(String, u32, Score); 2]> {
    if t.system != Some(SystemId::Scheveningen) {
        return None;
    }
    let by_team_id = t
        .options
        .get("teams")
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("TEAM_ID"));
    let sides = crate::model::scheveningen::sides(t, by_team_id).ok()?;
    let score = crate::model::scheveningen::match_score(t, &sides, rounds);
    let [a, b] = sides.names;
    let mut teams = [
        (a, score.match_points[0], score.game_points[0]),
        (b, score.match_points[1], score.game_points[1]),
    ];
    if (teams[1].1, teams[1].2) > (teams[0].1, teams[0].2) {
        teams.swap(0, 1);
    }
    Some(teams)
}

/// A knockout's ranking key (KO-8): the rounds each player won in a row from round 1 (a
/// game won, over the board or by forfeit, or a bye with points), up to round `rounds`: the
/// champion has them all, a first-round loser none, whatever he won in a consolation
/// bracket afterwards.
pub fn knockout_progress(t: &Tournament, rounds: u32) -> Vec<u32> {
    (0..t.players.len())
        .map(|p| {
            let won = |round: &crate::model::Round| {
                round.games.iter().any(|g| {
                    (g.white == p
                        && matches!(
                            g.result,
                            GameResult::WhiteWins | GameResult::WhiteWinsForfeit
                        ))
                        || (g.black == p
                            && matches!(
                                g.result,
                                GameResult::BlackWins | GameResult::BlackWinsForfeit
                            ))
                }) || round
                    .byes
                    .iter()
                    .any(|b| b.player == p && matches!(b.kind, ByeKind::Pab | ByeKind::FullPoint))
            };
            t.rounds
                .iter()
                .take(rounds as usize)
                .take_while(|r| won(r))
                .count() as u32
        })
        .collect()
}

/// Order of two values: better first; undefined values last.
fn compare(a: Option<Value>, b: Option<Value>, descending: bool) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a, b) {
        (Some(x), Some(y)) => {
            if descending {
                y.cmp(&x)
            } else {
                x.cmp(&y)
            }
        }
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// Progressive score (art. 7.5): the sum of the running scores after each round, the first
/// `cut` rounds' running scores left out (`PS/C1`). The team tie-breaks `PS:MP`, `PS:GP`
/// use it on match or game points.
pub(crate) fn progressive(points: impl IntoIterator<Item = Score>, cut: u32) -> Score {
    let mut running = Score::ZERO;
    let mut sum = Score::ZERO;
    for (r, p) in points.into_iter().enumerate() {
        running += p;
        if r as u32 >= cut {
            sum += running;
        }
    }
    sum
}

/// Every player's value of one tie-break (not DE).
pub fn values(ctx: &Context, tb: &TieBreak, edition: Edition) -> Vec<Option<Value>> {
    let t = ctx.tournament;
    let edition = tb.edition.unwrap_or(edition);
    let n = t.players.len();
    let win = ctx.win();
    let count = |p: PlayerIdx, f: &dyn Fn(&RoundFact) -> bool| -> Option<Value> {
        Some(Value::int(
            ctx.facts[p].iter().filter(|x| f(x)).count() as i64
        ))
    };
    match tb.kind {
        Kind::Pts => (0..n).map(|p| Some(Value::score(ctx.points[p]))).collect(),
        Kind::Bh => (0..n)
            .map(|p| {
                Some(Value::score(buchholz::buchholz(
                    ctx,
                    p,
                    edition,
                    tb.cut_low,
                    tb.cut_high,
                )))
            })
            .collect(),
        Kind::Fb => (0..n)
            .map(|p| {
                Some(Value::score(buchholz::fore_buchholz(
                    ctx,
                    p,
                    edition,
                    tb.cut_low,
                    tb.cut_high,
                )))
            })
            .collect(),
        Kind::Sb => (0..n)
            .map(|p| {
                Some(Value::hundredths(buchholz::sonneborn_berger(
                    ctx, p, edition, tb.cut_low,
                )))
            })
            .collect(),
        Kind::Aob => {
            let bh: Vec<Score> = (0..n)
                .map(|p| buchholz::buchholz(ctx, p, edition, tb.cut_low, tb.cut_high))
                .collect();
            (0..n)
                .map(|p| {
                    let opp: Vec<i64> = ctx.facts[p]
                        .iter()
                        .filter(|f| f.over_board)
                        .filter_map(|f| f.opponent)
                        .map(|q| bh[q].tenths())
                        .collect();
                    value::average_of_tenths(&opp, 2)
                })
                .collect()
        }
        Kind::Ks => buchholz::koya(ctx, tb),
        Kind::Ps => (0..n)
            .map(|p| {
                Some(Value::score(progressive(
                    ctx.facts[p].iter().map(|f| f.points),
                    tb.cut_low,
                )))
            })
            .collect(),
        Kind::Win => (0..n)
            .map(|p| count(p, &|f| !f.absent_opponent && f.points == win))
            .collect(),
        Kind::Won => (0..n)
            .map(|p| count(p, &|f| f.over_board && f.points == win))
            .collect(),
        Kind::Bpg => (0..n)
            .map(|p| count(p, &|f| f.colour == Some(Colour::Black)))
            .collect(),
        Kind::Bwg => (0..n)
            .map(|p| count(p, &|f| f.colour == Some(Colour::Black) && f.points == win))
            .collect(),
        Kind::Rep => (0..n)
            .map(|p| {
                count(p, &|f| {
                    !f.absent_opponent && (f.over_board || f.pab || f.points == win)
                })
            })
            .collect(),
        Kind::Std => (0..n)
            .map(|p| {
                let draw = ctx.draw();
                let tenths: i64 = ctx.facts[p]
                    .iter()
                    .map(|f| match f.points.cmp(&draw) {
                        std::cmp::Ordering::Greater => 10,
                        std::cmp::Ordering::Equal => 5,
                        std::cmp::Ordering::Less => 0,
                    })
                    .sum();
                Some(Value::score(Score::from_tenths(tenths)))
            })
            .collect(),
        Kind::Tpn => (0..n)
            .map(|p| Some(Value::int(i64::from(t.pairing_number(p)))))
            .collect(),
        Kind::Aro | Kind::Tpr | Kind::Ptp | Kind::Apro | Kind::Appo | Kind::Rtng => {
            rating::tie_break(ctx, tb)
        }
        Kind::De | Kind::Own => vec![None; n],
    }
}
