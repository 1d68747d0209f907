//! Game results and byes, and how each one counts.
//!
//! The table of what counts as a meeting, a colour or an unplayed round is stated once, in
//! the crate documentation (`src/lib.rs`); the methods here implement it.
use super::Score;
use super::scoring::Scoring;

/// The result of a game, from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWins,
    Draw,
    BlackWins,
    /// Black forfeited: not a game (no meeting, no colour; GHR 3.4-3.5, CG-4).
    WhiteWinsForfeit,
    /// White forfeited.
    BlackWinsForfeit,
    /// Both forfeited: both score the forfeit-loss points.
    DoubleForfeit,
    /// Played, scored ½-0 by the arbiter (e.g. one player penalised): White the draw points,
    /// Black the loss points. A game like any played one (a meeting, colours); TRF `=` / `0`.
    WhiteHalfBlackZero,
    /// Played, scored 0-½: White the loss points, Black the draw points (TRF `0` / `=`).
    WhiteZeroBlackHalf,
    /// Played, scored 0-0: both the loss points (TRF `0` / `0`).
    BothLose,
    /// Adjourned: a draw for pairing purposes (GHR 3.1), no points yet.
    Adjourned,
    /// Paired, not yet played.
    Pending,
}

impl GameResult {
    /// Whether the game was actually played over the board (a meeting with colours).
    /// Adjourned games were played (they count as draws for pairing); pending ones will be.
    pub fn is_played(self) -> bool {
        matches!(
            self,
            GameResult::WhiteWins
                | GameResult::Draw
                | GameResult::BlackWins
                | GameResult::WhiteHalfBlackZero
                | GameResult::WhiteZeroBlackHalf
                | GameResult::BothLose
                | GameResult::Adjourned
                | GameResult::Pending
        )
    }

    pub fn is_forfeit(self) -> bool {
        matches!(
            self,
            GameResult::WhiteWinsForfeit | GameResult::BlackWinsForfeit | GameResult::DoubleForfeit
        )
    }

    /// Points of (White, Black) under a scoring.
    pub fn points(self, scoring: &Scoring) -> (Score, Score) {
        match self {
            GameResult::WhiteWins => (scoring.win, scoring.loss),
            GameResult::Draw => (scoring.draw, scoring.draw),
            GameResult::BlackWins => (scoring.loss, scoring.win),
            GameResult::WhiteWinsForfeit => (scoring.forfeit_win, scoring.forfeit_loss),
            GameResult::BlackWinsForfeit => (scoring.forfeit_loss, scoring.forfeit_win),
            GameResult::DoubleForfeit => (scoring.forfeit_loss, scoring.forfeit_loss),
            GameResult::WhiteHalfBlackZero => (scoring.draw, scoring.loss),
            GameResult::WhiteZeroBlackHalf => (scoring.loss, scoring.draw),
            GameResult::BothLose => (scoring.loss, scoring.loss),
            GameResult::Adjourned | GameResult::Pending => (Score::ZERO, Score::ZERO),
        }
    }

    /// Whether the game is one of the unusual scores of a played game (½-0, 0-½, 0-0).
    pub fn is_unusual(self) -> bool {
        matches!(
            self,
            GameResult::WhiteHalfBlackZero | GameResult::WhiteZeroBlackHalf | GameResult::BothLose
        )
    }

    /// Points for pairing purposes: an adjourned game counts as a draw (GHR 3.1).
    pub fn pairing_points(self, scoring: &Scoring) -> (Score, Score) {
        match self {
            GameResult::Adjourned => (scoring.draw, scoring.draw),
            other => other.points(scoring),
        }
    }
}

/// The kinds of bye: a round in which a player has no opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ByeKind {
    /// Pairing-allocated bye (TRF `U`).
    Pab,
    /// Requested half-point bye (TRF `H`).
    HalfPoint,
    /// Requested zero-point bye (TRF `Z`).
    ZeroPoint,
    /// Full-point bye (TRF `F`).
    FullPoint,
    /// Absent, withdrawn or not yet entered (TRF blank): not paired, no points (CG-6).
    Absent,
    /// Backgammon: paired with the phantom player "[absent]" and won automatically (BG-3).
    /// Allocated by the pairing like a PAB but a different fact: it is a game against a
    /// 0-win opponent for the draw (BG-3, BG-7), may happen at most once per player
    /// (BG-3, unless BG-11 has to drop that rule), and counts for nothing in tie-breaks.
    /// Scores the forfeit-win points (a win by default); no meeting, no colour. TRF
    /// `0000 - V` (swisspair's code, "victory over [absent]": no TRF code exists for it and
    /// `U` would read back as a PAB).
    AbsentOpponent,
}

impl ByeKind {
    pub fn points(self, scoring: &Scoring) -> Score {
        match self {
            ByeKind::Pab => scoring.pab,
            ByeKind::HalfPoint => scoring.half_point_bye,
            ByeKind::ZeroPoint => scoring.zero_point_bye,
            ByeKind::FullPoint => scoring.full_point_bye,
            ByeKind::Absent => Score::ZERO,
            ByeKind::AbsentOpponent => scoring.forfeit_win,
        }
    }

    /// Whether the pairing allocates it (a PAB, or a game against [absent]) rather than the
    /// snapshot presetting it (requested byes, absences).
    pub fn is_pairing_allocated(self) -> bool {
        matches!(self, ByeKind::Pab | ByeKind::AbsentOpponent)
    }

    /// The TRF result letter.
    pub fn trf_code(self) -> char {
        match self {
            ByeKind::Pab => 'U',
            ByeKind::HalfPoint => 'H',
            ByeKind::ZeroPoint => 'Z',
            ByeKind::FullPoint => 'F',
            ByeKind::Absent => ' ',
            ByeKind::AbsentOpponent => 'V',
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            ByeKind::Pab => "pairing-allocated bye",
            ByeKind::HalfPoint => "half-point bye",
            ByeKind::ZeroPoint => "zero-point bye",
            ByeKind::FullPoint => "full-point bye",
            ByeKind::Absent => "absent",
            ByeKind::AbsentOpponent => "win against [absent]",
        }
    }
}
