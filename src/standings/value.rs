//! Exact tie-break values. Every value C.07 defines is a sum of scores (tenths of a point),
//! a product of two scores (hundredths), a count, a rating rounded to an integer, or an
//! average rounded to a few decimals (AOB, art. 8.2), so a value is an integer number of
//! hundred-thousandths with the number of decimals it is shown with.
use std::cmp::Ordering;
use std::fmt;

use crate::model::Score;

/// The most decimals a value has.
pub const MAX_DECIMALS: u8 = 5;

/// Hundred-thousandths in one.
const UNIT: i64 = 100_000;

/// An exact decimal: `units / 100,000`, printed with `decimals` decimals (0 to 5).
#[derive(Clone, Copy, Debug, Eq)]
pub struct Value {
    units: i64,
    decimals: u8,
}

impl Value {
    /// A whole number (counts, ratings, ranks).
    pub const fn int(n: i64) -> Value {
        Value {
            units: n * UNIT,
            decimals: 0,
        }
    }

    /// A score, shown with one decimal like the TRF points column.
    pub const fn score(s: Score) -> Value {
        Value {
            units: s.tenths() * (UNIT / 10),
            decimals: 1,
        }
    }

    /// A number of hundredths, shown with two decimals (Sonneborn-Berger products).
    pub const fn hundredths(h: i64) -> Value {
        Value {
            units: h * (UNIT / 100),
            decimals: 2,
        }
    }

    /// `n / 10^decimals`, shown with that many decimals (at most [`MAX_DECIMALS`]; more
    /// are clamped).
    pub const fn decimal(n: i64, decimals: u8) -> Value {
        let d = if decimals > MAX_DECIMALS {
            MAX_DECIMALS
        } else {
            decimals
        };
        Value {
            units: n * 10i64.pow((MAX_DECIMALS - d) as u32),
            decimals: d,
        }
    }

    /// The value in hundredths, rounded towards zero (exact for counts, scores and
    /// products).
    pub const fn as_hundredths(self) -> i64 {
        self.units / (UNIT / 100)
    }

    pub const fn decimals(self) -> u8 {
        self.decimals
    }

    /// Parses a decimal with at most five decimals (`25.5`, `23.75`, `92.667`, `-3`),
    /// keeping the number of decimals written.
    pub fn parse(text: &str) -> Option<Value> {
        let text = text.trim();
        let (neg, body) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (whole, frac) = body.split_once('.').unwrap_or((body, ""));
        if whole.is_empty()
            || frac.len() > usize::from(MAX_DECIMALS)
            || !whole.chars().all(|c| c.is_ascii_digit())
            || !frac.chars().all(|c| c.is_ascii_digit())
            || whole.len() > 15
        {
            return None;
        }
        let w: i64 = whole.parse().ok()?;
        let f: i64 = if frac.is_empty() {
            0
        } else {
            frac.parse().ok()?
        };
        let d = frac.len() as u8;
        let u = w.checked_mul(UNIT)? + f * 10i64.pow(u32::from(MAX_DECIMALS - d));
        Some(Value {
            units: if neg { -u } else { u },
            decimals: d,
        })
    }
}

impl PartialEq for Value {
    /// Values compare as numbers: `5.0` equals `5`.
    fn eq(&self, other: &Value) -> bool {
        self.units == other.units
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> Ordering {
        self.units.cmp(&other.units)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.units < 0 { "-" } else { "" };
        let a = self.units.unsigned_abs();
        let unit = UNIT.unsigned_abs();
        let d = self.decimals.min(MAX_DECIMALS);
        let text = if d == 0 {
            format!("{sign}{}", a / unit)
        } else {
            let frac = (a % unit) / 10u64.pow(u32::from(MAX_DECIMALS - d));
            format!("{sign}{}.{frac:0width$}", a / unit, width = usize::from(d))
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

/// The average of some values given in tenths (AOB, art. 8.2), rounded half up to
/// `decimals` decimals (1 to [`MAX_DECIMALS`]); `None` when there is none.
pub(crate) fn average_of_tenths(values: &[i64], decimals: u8) -> Option<Value> {
    if values.is_empty() {
        return None;
    }
    let d = decimals.clamp(1, MAX_DECIMALS);
    let sum: i64 = values.iter().sum();
    let num = sum * 10i64.pow(u32::from(d - 1));
    Some(Value::decimal(
        div_round_half_up(num, values.len() as i64),
        d,
    ))
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
        assert_eq!(Value::parse("92.667"), Some(Value::decimal(92_667, 3)));
        assert_eq!(Value::decimal(92_667, 3).to_string(), "92.667");
        assert_eq!(Value::decimal(-5, 3).to_string(), "-0.005");
        assert_eq!(Value::parse("1.234567"), None);
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
