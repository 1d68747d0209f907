//! The Keizer system's options (docs/systems/keizer.md, KZ-1..KZ-6): every number clubs
//! vary, each declared for `ListSystems` with its default and parsed once into
//! [`KeizerOptions`].
use crate::model::SystemOptions;
use crate::systems::OptionInfo;
use crate::systems::options::{parse_choice, parse_count, read};

/// The largest denominator of a fraction written `p/q` (thirds, sixths, twelfths: what club
/// rules write); decimals have at most two places. The common denominator of every
/// fraction then divides 277,200, so scores stay exact integers (KZ-3).
pub const MAX_DENOMINATOR: u32 = 12;
/// The largest fraction accepted (ten times the value).
const MAX_FRACTION: u32 = 10;
/// The largest top value and step (KZ-2).
pub const MAX_VALUE: u32 = 1_000_000;
/// The largest re-meeting window, in rounds or games (KZ-4.2).
const MAX_WINDOW: u32 = 1_000;

/// An exact non-negative fraction `num / den` (reduced).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fraction {
    pub num: u32,
    pub den: u32,
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

pub(crate) fn lcm(a: u64, b: u64) -> u64 {
    a / gcd(a, b) * b
}

impl Fraction {
    pub const ZERO: Fraction = Fraction { num: 0, den: 1 };
    pub const ONE: Fraction = Fraction { num: 1, den: 1 };

    const fn new(num: u32, den: u32) -> Fraction {
        Fraction { num, den }
    }

    fn reduced(num: u64, den: u64) -> Fraction {
        let g = gcd(num, den).max(1);
        Fraction {
            num: (num / g) as u32,
            den: (den / g) as u32,
        }
    }

    /// `p/q` (q at most [`MAX_DENOMINATOR`]) or a decimal with at most two places
    /// (`0.5`, `0.33`, `1`).
    pub fn parse(text: &str) -> Result<Fraction, String> {
        let t = text.trim();
        let bad = || {
            format!(
                "invalid value {text:?}: a fraction p/q (q from 1 to {MAX_DENOMINATOR}) or a decimal with at most two places, from 0 to {MAX_FRACTION}"
            )
        };
        let f = if let Some((p, q)) = t.split_once('/') {
            let p: u64 = p.trim().parse().map_err(|_| bad())?;
            let q: u64 = q.trim().parse().map_err(|_| bad())?;
            if q == 0 || q > u64::from(MAX_DENOMINATOR) {
                return Err(bad());
            }
            (p, q)
        } else {
            let (whole, decimals) = t.split_once('.').unwrap_or((t, ""));
            if whole.is_empty()
                || !whole.chars().all(|c| c.is_ascii_digit())
                || decimals.len() > 2
                || !decimals.chars().all(|c| c.is_ascii_digit())
                || whole.len() > 3
            {
                return Err(bad());
            }
            let whole: u64 = whole.parse().map_err(|_| bad())?;
            let hundredths: u64 = format!("{decimals:0<2}").parse().map_err(|_| bad())?;
            (whole * 100 + hundredths, 100)
        };
        if f.0 > u64::from(MAX_FRACTION) * f.1 {
            return Err(bad());
        }
        Ok(Fraction::reduced(f.0, f.1))
    }
}

impl std::fmt::Display for Fraction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

/// How the ranking starts, before any round and between players equal on score (KZ-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitialRanking {
    /// Rating, highest first; then pairing number.
    Rating,
    /// Pairing number.
    PairingNumber,
}

/// Every Keizer setting (KZ-1..KZ-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeizerOptions {
    /// The value of rank 1; 0 = the number of players ranked (KZ-2).
    pub top_value: u32,
    /// How much the value drops per rank (KZ-2).
    pub value_step: u32,
    /// Fractions of the opponent's value (KZ-3.1).
    pub win: Fraction,
    pub draw: Fraction,
    pub loss: Fraction,
    /// Fractions of the player's own value (KZ-3.2).
    pub bye: Fraction,
    pub club_duty: Fraction,
    pub absent_with_notice: Fraction,
    pub absent_without_notice: Fraction,
    /// Two players who met may not meet again within this many rounds (KZ-4.2); 0 = no
    /// limit by rounds.
    pub rematch_rounds: u32,
    /// ... nor before each has played this many other games since (KZ-4.2); 0 = none.
    pub rematch_games: u32,
    /// No player's colour difference beyond this (KZ-5.1); 0 = no limit.
    pub colour_difference_limit: u32,
    /// No player gets the same colour more than this many times in a row (KZ-5.1); 0 = no
    /// limit.
    pub same_colour_limit: u32,
    pub initial_ranking: InitialRanking,
}

impl Default for KeizerOptions {
    fn default() -> Self {
        KeizerOptions {
            top_value: 0,
            value_step: 1,
            win: Fraction::ONE,
            draw: Fraction::new(1, 2),
            loss: Fraction::ZERO,
            bye: Fraction::new(1, 2),
            club_duty: Fraction::new(2, 3),
            absent_with_notice: Fraction::new(1, 3),
            absent_without_notice: Fraction::ZERO,
            rematch_rounds: 3,
            rematch_games: 0,
            colour_difference_limit: 2,
            same_colour_limit: 2,
            initial_ranking: InitialRanking::Rating,
        }
    }
}

fn parse_value(v: &str) -> Result<u32, String> {
    let n = parse_count(v)?;
    if n > MAX_VALUE {
        return Err(format!("invalid value {v:?}: at most {MAX_VALUE}"));
    }
    Ok(n)
}

fn parse_step(v: &str) -> Result<u32, String> {
    let n = parse_value(v)?;
    if n == 0 {
        return Err(format!(
            "invalid value {v:?}: at least 1 (equal values would make the ranking meaningless)"
        ));
    }
    Ok(n)
}

fn parse_window(v: &str) -> Result<u32, String> {
    let n = parse_count(v)?;
    if n > MAX_WINDOW {
        return Err(format!("invalid value {v:?}: at most {MAX_WINDOW}"));
    }
    Ok(n)
}

fn parse_initial(v: &str) -> Result<InitialRanking, String> {
    parse_choice(
        v,
        &[
            ("RATING", InitialRanking::Rating),
            ("PAIRING_NUMBER", InitialRanking::PairingNumber),
        ],
    )
}

fn fraction_ok(v: &str) -> Result<(), String> {
    Fraction::parse(v).map(|_| ())
}

/// The options `ListSystems` lists, in the order of the rules page.
pub fn infos() -> Vec<OptionInfo> {
    vec![
        OptionInfo {
            name: "top_value",
            kind: "whole number",
            default_value: "0",
            description: "KZ-2: the value of rank 1; 0 = the number of players in the ranking",
            parse: |v| parse_value(v).map(|_| ()),
        },
        OptionInfo {
            name: "value_step",
            kind: "whole number",
            default_value: "1",
            description: "KZ-2: how much the value drops from one rank to the next (never below 0)",
            parse: |v| parse_step(v).map(|_| ()),
        },
        OptionInfo {
            name: "win_fraction",
            kind: "fraction",
            default_value: "1",
            description: "KZ-3.1: a win earns this fraction of the opponent's value (p/q or a decimal)",
            parse: fraction_ok,
        },
        OptionInfo {
            name: "draw_fraction",
            kind: "fraction",
            default_value: "1/2",
            description: "KZ-3.1: a draw earns this fraction of the opponent's value",
            parse: fraction_ok,
        },
        OptionInfo {
            name: "loss_fraction",
            kind: "fraction",
            default_value: "0",
            description: "KZ-3.1: a loss earns this fraction of the opponent's value",
            parse: fraction_ok,
        },
        OptionInfo {
            name: "bye_fraction",
            kind: "fraction",
            default_value: "1/2",
            description: "KZ-3.2: the pairing-allocated bye (and a win by forfeit) earns this fraction of the player's own value",
            parse: fraction_ok,
        },
        OptionInfo {
            name: "club_duty_fraction",
            kind: "fraction",
            default_value: "2/3",
            description: "KZ-3.2: a round on club duty (a full-point bye, TRF F) earns this fraction of the player's own value",
            parse: fraction_ok,
        },
        OptionInfo {
            name: "absent_notice_fraction",
            kind: "fraction",
            default_value: "1/3",
            description: "KZ-3.2: an absence with notice (a requested half- or zero-point bye, TRF H/Z) earns this fraction of the player's own value",
            parse: fraction_ok,
        },
        OptionInfo {
            name: "absent_fraction",
            kind: "fraction",
            default_value: "0",
            description: "KZ-3.2: an absence without notice (absent, not paired, a forfeit loss) earns this fraction of the player's own value",
            parse: fraction_ok,
        },
        OptionInfo {
            name: "rematch_rounds",
            kind: "whole number",
            default_value: "3",
            description: "KZ-4.2: how many rounds back the re-meeting rule looks: two players who met in one of the last N rounds may not meet; 0 = no limit by rounds",
            parse: |v| parse_window(v).map(|_| ()),
        },
        OptionInfo {
            name: "rematch_games",
            kind: "whole number",
            default_value: "0",
            description: "KZ-4.2: the re-meeting distance in games: two players meet again only after each has played this many other games since; 0 = none",
            parse: |v| parse_window(v).map(|_| ()),
        },
        OptionInfo {
            name: "colour_difference_limit",
            kind: "whole number",
            default_value: "2",
            description: "KZ-5.1: no player's whites minus blacks beyond this (either way); 0 = no limit",
            parse: |v| parse_window(v).map(|_| ()),
        },
        OptionInfo {
            name: "same_colour_limit",
            kind: "whole number",
            default_value: "2",
            description: "KZ-5.1: no player gets the same colour more than this many times in a row; 0 = no limit",
            parse: |v| parse_window(v).map(|_| ()),
        },
        OptionInfo {
            name: "initial_ranking",
            kind: "enum RATING|PAIRING_NUMBER",
            default_value: "RATING",
            description: "KZ-1: the ranking before any game, and the order of players equal on Keizer score: rating (highest first, then pairing number) or pairing number",
            parse: |v| parse_initial(v).map(|_| ()),
        },
    ]
}

/// The typed options from the request's text (defaults for what is unset).
pub fn decode(given: &SystemOptions) -> KeizerOptions {
    let d = KeizerOptions::default();
    let fraction =
        |name: &str, default: Fraction| read(given, name, Fraction::parse).unwrap_or(default);
    KeizerOptions {
        top_value: read(given, "top_value", parse_value).unwrap_or(d.top_value),
        value_step: read(given, "value_step", parse_step).unwrap_or(d.value_step),
        win: fraction("win_fraction", d.win),
        draw: fraction("draw_fraction", d.draw),
        loss: fraction("loss_fraction", d.loss),
        bye: fraction("bye_fraction", d.bye),
        club_duty: fraction("club_duty_fraction", d.club_duty),
        absent_with_notice: fraction("absent_notice_fraction", d.absent_with_notice),
        absent_without_notice: fraction("absent_fraction", d.absent_without_notice),
        rematch_rounds: read(given, "rematch_rounds", parse_window).unwrap_or(d.rematch_rounds),
        rematch_games: read(given, "rematch_games", parse_window).unwrap_or(d.rematch_games),
        colour_difference_limit: read(given, "colour_difference_limit", parse_window)
            .unwrap_or(d.colour_difference_limit),
        same_colour_limit: read(given, "same_colour_limit", parse_window)
            .unwrap_or(d.same_colour_limit),
        initial_ranking: read(given, "initial_ranking", parse_initial).unwrap_or(d.initial_ranking),
    }
}

impl KeizerOptions {
    /// The common denominator of every fraction: scores are kept as whole multiples of
    /// `1 / denominator()` (KZ-3).
    pub fn denominator(&self) -> u64 {
        [
            self.win,
            self.draw,
            self.loss,
            self.bye,
            self.club_duty,
            self.absent_with_notice,
            self.absent_without_notice,
        ]
        .iter()
        .fold(1, |acc, f| lcm(acc, u64::from(f.den)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_parse_exactly() {
        assert_eq!(Fraction::parse("1/3"), Ok(Fraction::new(1, 3)));
        assert_eq!(Fraction::parse("2/4"), Ok(Fraction::new(1, 2)));
        assert_eq!(Fraction::parse("0.5"), Ok(Fraction::new(1, 2)));
        assert_eq!(Fraction::parse("0.25"), Ok(Fraction::new(1, 4)));
        assert_eq!(Fraction::parse("1"), Ok(Fraction::ONE));
        assert_eq!(Fraction::parse("0"), Ok(Fraction::ZERO));
        for bad in ["1/13", "1/0", "-1", "0.125", "x", "", "11", "a/b", ".5"] {
            assert!(Fraction::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_declared_default_decodes_to_the_default() {
        let mut given = SystemOptions::default();
        for info in infos() {
            (info.parse)(info.default_value).expect("default parses");
            given.set(info.name, info.default_value).expect("named");
        }
        assert_eq!(decode(&given), KeizerOptions::default());
        // 1, 1/2, 0, 1/2, 2/3, 1/3, 0: thirds and halves.
        assert_eq!(KeizerOptions::default().denominator(), 6);
    }
}
