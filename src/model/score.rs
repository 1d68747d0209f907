//! Exact scores. Every scoring system in use (1/½/0, 3/1/0, 2/1/0 …) is a multiple of a
//! tenth, and the TRF writes scores with one decimal, so a score is an integer count of
//! tenths: sums and comparisons are exact, with no floating point anywhere in pairing.
use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// A score in tenths of a point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(i64);

/// Why a number is not a valid score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    #[error("is not a finite number")]
    NotFinite,
    #[error("is negative")]
    Negative,
    #[error("is not a multiple of 0.1")]
    NotTenths,
    #[error("is too large")]
    TooLarge,
}

impl Score {
    pub const ZERO: Score = Score(0);

    /// A score of `tenths` tenths of a point.
    pub const fn from_tenths(tenths: i64) -> Score {
        Score(tenths)
    }

    /// A whole number of points.
    pub const fn points(points: i64) -> Score {
        Score(points * 10)
    }

    pub const fn half() -> Score {
        Score(5)
    }

    pub const fn tenths(self) -> i64 {
        self.0
    }

    /// Converts a client's number (points) to an exact score: it must be finite,
    /// non-negative and a multiple of 0.1 (within rounding noise of a decimal literal).
    pub fn from_points_f64(value: f64) -> Result<Score, ScoreError> {
        if !value.is_finite() {
            return Err(ScoreError::NotFinite);
        }
        if value < 0.0 {
            return Err(ScoreError::Negative);
        }
        if value > 1.0e12 {
            return Err(ScoreError::TooLarge);
        }
        let tenths = (value * 10.0).round();
        if ((value * 10.0) - tenths).abs() > 1e-6 {
            return Err(ScoreError::NotTenths);
        }
        Ok(Score(tenths as i64))
    }

    /// The score as a floating-point number of points, for display and the proto only.
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 10.0
    }

    /// Parses `11.5`, `3`, `0.0`: digits with at most one decimal.
    pub fn parse(text: &str) -> Option<Score> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        let (whole, frac) = match text.split_once('.') {
            Some((w, f)) => (w, f),
            None => (text, ""),
        };
        if frac.len() > 1 || !frac.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        if whole.is_empty() && frac.is_empty() {
            return None;
        }
        if !whole.chars().all(|c| c.is_ascii_digit()) || whole.len() > 12 {
            return None;
        }
        let w: i64 = if whole.is_empty() {
            0
        } else {
            whole.parse().ok()?
        };
        let f: i64 = if frac.is_empty() {
            0
        } else {
            frac.parse().ok()?
        };
        Some(Score(w * 10 + f))
    }
}

impl Score {
    /// The score's text ("2.5", "-0.5") written into `buf` on the stack: explanations
    /// print scores by the hundred per request (issue 37).
    fn digits(self, buf: &mut [u8; 24]) -> &[u8] {
        let a = self.0.unsigned_abs();
        let mut at = buf.len();
        at -= 1;
        buf[at] = b'0' + (a % 10) as u8;
        at -= 1;
        buf[at] = b'.';
        let mut whole = a / 10;
        loop {
            at -= 1;
            buf[at] = b'0' + (whole % 10) as u8;
            whole /= 10;
            if whole == 0 {
                break;
            }
        }
        if self.0 < 0 {
            at -= 1;
            buf[at] = b'-';
        }
        // Only ASCII digits, '.' and '-'.
        &buf[at..]
    }

    /// Appends the score's text to `out`, as `Display` writes it, without the formatting
    /// machinery (a `write!` costs several times the push).
    pub fn push_to(self, out: &mut String) {
        // A char at a time: for a score's few characters cheaper than a `str` copy.
        for &b in self.digits(&mut [0u8; 24]) {
            out.push(char::from(b));
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad` so that width and alignment flags work (`{:>4}` in the TRF writer).
        // Only ASCII was written.
        f.pad(std::str::from_utf8(self.digits(&mut [0u8; 24])).unwrap_or_default())
    }
}

impl Add for Score {
    type Output = Score;
    fn add(self, rhs: Score) -> Score {
        Score(self.0 + rhs.0)
    }
}

impl AddAssign for Score {
    fn add_assign(&mut self, rhs: Score) {
        self.0 += rhs.0;
    }
}

impl Sub for Score {
    type Output = Score;
    fn sub(self, rhs: Score) -> Score {
        Score(self.0 - rhs.0)
    }
}

impl std::iter::Sum for Score {
    fn sum<I: Iterator<Item = Score>>(iter: I) -> Score {
        iter.fold(Score::ZERO, |a, b| a + b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_to_writes_what_display_writes() {
        for tenths in [0, 5, 10, 115, 1234, -5, -1234, i64::MAX, i64::MIN] {
            let score = Score::from_tenths(tenths);
            let mut out = String::from("x ");
            score.push_to(&mut out);
            assert_eq!(out, format!("x {score}"), "{tenths} tenths");
        }
    }

    #[test]
    fn parses_and_prints() {
        assert_eq!(Score::parse("11.5"), Some(Score::from_tenths(115)));
        assert_eq!(Score::parse("3"), Some(Score::points(3)));
        assert_eq!(Score::parse(" 0.0"), Some(Score::ZERO));
        assert_eq!(Score::parse("1.25"), None);
        assert_eq!(Score::parse("x"), None);
        assert_eq!(Score::parse("-1"), None);
        assert_eq!(Score::from_tenths(115).to_string(), "11.5");
        assert_eq!(Score::points(3).to_string(), "3.0");
        // The sign, the whole points' digits, the width flags (the TRF writer's `{:>4}`).
        assert_eq!(Score::from_tenths(-5).to_string(), "-0.5");
        assert_eq!(Score::from_tenths(-1234).to_string(), "-123.4");
        assert_eq!(Score::from_tenths(1000).to_string(), "100.0");
        assert_eq!(format!("{:>6}", Score::from_tenths(15)), "   1.5");
        assert_eq!(format!("{:<5}|", Score::ZERO), "0.0  |");
    }

    #[test]
    fn converts_client_numbers_exactly() {
        assert_eq!(Score::from_points_f64(0.5), Ok(Score::half()));
        assert_eq!(Score::from_points_f64(0.1 + 0.2), Ok(Score::from_tenths(3)));
        assert_eq!(Score::from_points_f64(-1.0), Err(ScoreError::Negative));
        assert_eq!(Score::from_points_f64(f64::NAN), Err(ScoreError::NotFinite));
        assert_eq!(
            Score::from_points_f64(f64::INFINITY),
            Err(ScoreError::NotFinite)
        );
        assert_eq!(Score::from_points_f64(0.25), Err(ScoreError::NotTenths));
    }
}
