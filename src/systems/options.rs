//! How a system declares and parses its own options.
//!
//! A request carries options as text by name ([`SystemOptions`]). Each system declares the
//! ones it reads in `SystemInfo::options` ([`super::OptionInfo`], with a parser), and parses
//! its typed options from the text in its own folder with the helpers here. The pipeline
//! refuses, before the system runs, an option the system does not declare and a value its
//! parser refuses; so a system's typed reader may fall back to the default on a value it
//! cannot read only when called outside the pipeline.
use super::OptionInfo;
use crate::model::{Score, SystemOptions};

/// One of `choices` (case-insensitive).
pub fn parse_choice<T: Copy>(value: &str, choices: &[(&str, T)]) -> Result<T, String> {
    let v = value.trim().to_ascii_uppercase();
    choices
        .iter()
        .find(|(name, _)| *name == v)
        .map(|&(_, t)| t)
        .ok_or_else(|| {
            let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
            format!("invalid value {value:?}: one of {}", names.join(", "))
        })
}

/// `true` or `false`.
pub fn parse_bool(value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("invalid value {value:?}: true or false")),
    }
}

/// A whole number (0 and up).
pub fn parse_count(value: &str) -> Result<u32, String> {
    value
        .trim()
        .parse()
        .map_err(|_| format!("invalid value {value:?}: a whole number"))
}

/// A score (`0.5`, `1`, `1.5`: tenths at most).
pub fn parse_score(value: &str) -> Result<Score, String> {
    Score::parse(value.trim())
        .ok_or_else(|| format!("invalid value {value:?}: a score such as 0.5"))
}

/// The typed value of option `name`: parsed, or `None` when unset (or unreadable outside
/// the pipeline).
pub fn read<T>(
    options: &SystemOptions,
    name: &str,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Option<T> {
    options.get(name).and_then(|v| parse(v).ok())
}

/// `late_entry_score` as Amalfi, Buchholz and Vincze read it: the pairing score a late
/// entrant starts with (not a real point).
pub fn late_entry_score(options: &SystemOptions) -> Option<Score> {
    read(options, "late_entry_score", parse_score)
}

/// `acceleration` as every FIDE Swiss system that declares [`OptionInfo::ACCELERATION`]
/// decodes it (none when unset).
pub fn acceleration(options: &SystemOptions) -> super::AccelerationMethod {
    read(
        options,
        "acceleration",
        super::common::acceleration::parse_method,
    )
    .unwrap_or_default()
}

impl OptionInfo {
    /// `acceleration` as every FIDE Swiss system reads it (C.04.7, Baku), kept in one place.
    pub const ACCELERATION: OptionInfo = OptionInfo {
        name: "acceleration",
        kind: "enum NONE|BAKU|AUTO",
        default_value: "NONE",
        description: "Baku acceleration (C.04.7): BAKU, NONE, or AUTO (Baku when the players outnumber 2^rounds); XXA/250 virtual points given in the snapshot take precedence",
        parse: |v| super::common::acceleration::parse_method(v).map(|_| ()),
    };

    /// `late_entry_score` as the Buchholz and Vincze systems read it (default 0), kept in one
    /// place so that `ListSystems` describes both alike.
    pub const LATE_ENTRY_SCORE_ZERO: OptionInfo = OptionInfo {
        name: "late_entry_score",
        kind: "score",
        default_value: "0",
        description: "pairing score a late entrant starts with, whatever the rounds he missed",
        parse: |v| parse_score(v).map(|_| ()),
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsers_name_what_they_accept() {
        assert_eq!(
            parse_choice("lot", &[("LOT", 1), ("PAIRING_NUMBER", 2)]),
            Ok(1)
        );
        let e = parse_choice("x", &[("LOT", 1)]).expect_err("refused");
        assert!(e.contains("LOT"), "{e}");
        assert_eq!(parse_bool(" TRUE "), Ok(true));
        assert!(parse_bool("yes").is_err());
        assert_eq!(parse_count("2"), Ok(2));
        assert!(parse_count("-1").is_err());
        assert_eq!(parse_score("0.5"), Ok(Score::half()));
    }
}
