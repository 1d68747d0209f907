//! swisspair's `XXO` record: the settings a pairing depends on that no other TRF record
//! holds, so that a file can be re-paired (checked) alone.
//!
//! `XXO seed=5 system=vincze cycles=2 order=LOT profile=JAVAPAIRING float_history=IGNORED
//! match_length=7 late_entry_score=0.5 swap_last_two_rounds=true`: the seed of every lot
//! (CG-8; the tournament's `lot_seed`), the pairing system (the JaVaFo dialect has no `192`),
//! and every system option set (`SystemOptions`, the names of `--option`), as given. The
//! line is omitted when there is nothing to record. Other engines skip
//! the record (trf.md: unknown prefixes are not errors).
use crate::model::{Tournament, limits};

use super::TrfError;

/// The `XXO` line of a tournament, if it has a setting to record.
pub fn xxo_line(t: &Tournament) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    if t.lot_seed != 0 {
        parts.push(format!("seed={}", t.lot_seed));
    }
    if let Some(s) = t.system {
        parts.push(format!("system={}", s.name()));
    }
    // Every option the snapshot sets, as it was given (names normalised). The record is
    // space-separated, so a value's own spaces become `_` (no option value has any).
    for (name, value) in t.options.iter() {
        parts.push(format!(
            "{name}={}",
            value.replace(char::is_whitespace, "_")
        ));
    }
    (!parts.is_empty()).then(|| format!("XXO {}", parts.join(" ")))
}

/// Reads an `XXO` line (`chars` from column 1) into the tournament.
pub fn read_xxo(chars: &[char], line: usize, t: &mut Tournament) -> Result<(), TrfError> {
    let err = |column: usize, message: String| TrfError {
        line,
        column,
        message,
    };
    // The text after the record code starts at column 4.
    let mut column = 4;
    let rest: String = chars.iter().skip(3).collect();
    for raw in rest.split(' ') {
        let at = column;
        column += raw.chars().count() + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let Some((key, value)) = raw.split_once('=') else {
            return Err(err(at, format!("XXO: expected NAME=VALUE, found {raw:?}")));
        };
        if let Some(m) = limits::too_long(key, limits::MAX_OPTION_NAME_CHARS, "option name") {
            return Err(err(at, format!("XXO: {m}")));
        }
        if let Some(m) = limits::too_long(value, limits::MAX_OPTION_VALUE_CHARS, "option value") {
            return Err(err(at, format!("XXO: option {}: {m}", limits::shown(key))));
        }
        match key {
            "seed" => {
                t.lot_seed = value
                    .parse()
                    .map_err(|_| err(at, format!("XXO: seed {value:?} is not a number")))?;
            }
            "system" => {
                t.system = Some(value.parse().map_err(|e| err(at, format!("XXO: {e}")))?);
            }
            _ => t
                .options
                .set(key, value)
                .map_err(|e| err(at, format!("XXO: {e}")))?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::SystemId;

    #[test]
    fn round_trips_every_setting() {
        let mut t = Tournament {
            lot_seed: 123_456_789_012,
            system: Some(SystemId::ColourAlternation),
            ..Tournament::default()
        };
        for (name, value) in [
            ("cycles", "2"),
            ("swap_last_two_rounds", "true"),
            ("order", "LOT"),
            ("profile", "JAVAPAIRING"),
            ("float_history", "IGNORED"),
            ("match_length", "7"),
            ("late_entry_score", "0.5"),
            ("acceleration", "BAKU"),
        ] {
            t.options.set(name, value).expect("named");
        }
        let line = xxo_line(&t).expect("a line");
        let mut back = Tournament::default();
        let chars: Vec<char> = line.chars().collect();
        read_xxo(&chars, 3, &mut back).expect("reads");
        assert_eq!(back.lot_seed, t.lot_seed);
        assert_eq!(back.system, t.system);
        assert_eq!(back.options, t.options);
        assert_eq!(xxo_line(&Tournament::default()), None);
    }

    #[test]
    fn names_the_column_of_a_bad_setting() {
        let chars: Vec<char> = "XXO seed=5 colour".chars().collect();
        let e = read_xxo(&chars, 9, &mut Tournament::default()).err();
        assert_eq!(e.as_ref().map(|e| (e.line, e.column)), Some((9, 12)));
        assert!(e.is_some_and(|e| e.message.contains("NAME=VALUE")));
        // An option no system reads is kept: the pipeline refuses it for the system chosen,
        // naming it (`options.colour`).
        let chars: Vec<char> = "XXO seed=5 colour=green".chars().collect();
        let mut t = Tournament::default();
        read_xxo(&chars, 9, &mut t).expect("read");
        assert_eq!(t.options.get("colour"), Some("green"));
    }
}
