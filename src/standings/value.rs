//! Exact tie-break values. Every value C.07 defines is a sum of scores (tenths of a point),
//! a product of two scores (hundredths), a count, or a rating rounded to an integer, so a
//! value is an integer number of hundredths with the number of decimals it is shown with.
use std::cmp::Ordering;
use std::fmt;

use crate::model::Score;

/// An exact decimal: `hundredths / 100`, printed with `decimals` decimals (0, 1 or 2).
#[derive(Clone, Copy, Debug, Eq)]
pub struct Value {
    hundredths: i64,
    decimals: u8,
}

impl Value {
    /// A whole number (counts, ratings, ranks).
    pub const fn int(n: i64) -> Value {
        Value {
            hundredths: n * 100,
            decimals: 0,
        }
    }

    /// A score, shown with one decimal like the TRF points column.
    pub const fn score(s: Score) -> Value {
        Value {
            hundredths: s.tenths() * 10,
            decimals: 1,
        }
    }

    /// A number of hundredths, shown with two decimals (Sonneborn-Berger products).
    pub const fn hundredths(h: i64) -> Value {
        Value {
            hundredths: h,
            decimals: 2,
        }
    }

    pub const fn as_hundredths(self) -> i64 {
        self.hundredths
    }

    pub const fn decimals(self) -> u8 {
        self.decimals
    }

    /// Parses a decimal with at most two decimals (`25.5`, `23.75`, `-3`), keeping the
    /// number of decimals written.
    pub fn parse(text: &str) -> Option<Value> {
        let text = text.trim();
        let (neg, body) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (whole, frac) = body.split_once('.').unwrap_or((body, ""));
        if whole.is_empty()
            || frac.len() > 2
            || !whole.chars().all(|c| c.is_ascii_digit())
            || !frac.chars().all(|c| c.is_ascii_digit())
            || whole.len() > 15
        {
            return None;
        }
        let w: i64 = whole.parse().ok()?;
        let mut f: i64 = if frac.is_empty() {
            0
        } else {
            frac.parse().ok()?
        };
        if frac.len() == 1 {
            f *= 10;
        }
        let h = w * 100 + f;
        Some(Value {
            hundredths: if neg { -h } else { h },
            decimals: frac.len() as u8,
        })
    }
}

impl PartialEq for Value {
    /// Values compare as numbers: `5.0` equals `5`.
    fn eq(&self, other: &Value) -> bool {
        self.hundredths == other.hundredths
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> Ordering {
        self.hundredths.cmp(&other.hundredths)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.hundredths < 0 { "-" } else { "" };
        let a = self.hundredths.unsigned_abs();
        let text = match self.decimals {
            0 => format!("{sign}{}", a / 100),
            1 => format!("{sign}{}.{}", a / 100, (a % 100) / 10),
            _ => format!("{sign}{}.{:02}", a / 100, a % 100),
        };
        f.pad(&text)
    }
}

/// Integer division rounded half up (away from minus infinity), as C.07 art. 10 rounds
/// averages ("0.5 rounded upwards").
pub(crate) fn div_round_half_up(num: i64, den: i64) -> i64 {
    debug_assert!(den > 0);
    (2 * num + den).div_euclid(2 * den)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_and_parses() {
        assert_eq!(Value::score(Score::from_tenths(255)).to_string(), "25.5");
        assert_eq!(Value::hundredths(2375).to_string(), "23.75");
        assert_eq!(Value::int(-7).to_string(), "-7");
        assert_eq!(Value::hundredths(-320).to_string(), "-3.20");
        assert_eq!(Value::parse("23.75"), Some(Value::hundredths(2375)));
        assert_eq!(Value::parse("5.0"), Some(Value::int(5)));
        assert_eq!(Value::parse("-3.2"), Some(Value::hundredths(-320)));
        assert_eq!(Value::parse("1.234"), None);
        assert_eq!(Value::parse(""), None);
    }

    #[test]
    fn rounds_half_up() {
        assert_eq!(div_round_half_up(5, 2), 3);
        assert_eq!(div_round_half_up(4, 3), 1);
        assert_eq!(div_round_half_up(-5, 2), -2);
        assert_eq!(div_round_half_up(7, 7), 1);
    }
}
