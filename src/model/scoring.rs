//! Points per outcome (systems.md CG-3).
use super::Score;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoring {
    pub win: Score,
    pub draw: Score,
    pub loss: Score,
    pub forfeit_win: Score,
    pub forfeit_loss: Score,
    pub pab: Score,
    pub half_point_bye: Score,
    pub zero_point_bye: Score,
    pub full_point_bye: Score,
}

impl Default for Scoring {
    /// 1, ½, 0; a forfeit win, the PAB and a full-point bye score a win, a half-point bye a
    /// draw (CG-3).
    fn default() -> Scoring {
        Scoring::with_game_points(Score::points(1), Score::half(), Score::ZERO)
    }
}

impl Scoring {
    /// A scoring whose byes and forfeits follow the game values (win, draw, loss).
    pub fn with_game_points(win: Score, draw: Score, loss: Score) -> Scoring {
        Scoring {
            win,
            draw,
            loss,
            forfeit_win: win,
            forfeit_loss: loss,
            pab: win,
            half_point_bye: draw,
            zero_point_bye: loss,
            full_point_bye: win,
        }
    }
}
