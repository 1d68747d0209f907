//! swisspair's `XXO` record: the settings a pairing depends on that no other TRF record
//! holds, so that a file can be re-paired (checked) alone.
//!
//! `XXO seed=5 system=vincze cycles=2 order=LOT profile=JAVAPAIRING float_history=IGNORED
//! match_length=7 late_entry_score=0.5 swap_last_two_rounds=true`: the seed of every lot
//! (CG-8; the tournament's `lot_seed`), the pairing system (the JaVaFo dialect has no `192`),
//! and the system options (`SystemOptions`, the names of `--option`). Only what differs
//! from the defaults is written; the line is omitted when nothing does. Other engines skip
//! the record (trf.md: unknown prefixes are not errors).
use crate::model::{AmalfiProfile, RoundRobinOrder, SystemOptions, Tournament};

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
    let o = &t.options;
    let d = SystemOptions::default();
    if let Some(c) = o.round_robin.cycles {
        parts.push(format!("cycles={c}"));
    }
    if o.round_robin.swap_last_two_rounds != d.round_robin.swap_last_two_rounds {
        parts.push(format!(
            "swap_last_two_rounds={}",
            o.round_robin.swap_last_two_rounds
        ));
    }
    if o.round_robin.order != d.round_robin.order {
        parts.push(
            match o.round_robin.order {
                RoundRobinOrder::Lot => "order=LOT",
                RoundRobinOrder::PairingNumber => "order=PAIRING_NUMBER",
            }
            .to_string(),
        );
    }
    if o.amalfi_profile != d.amalfi_profile {
        parts.push(
            match o.amalfi_profile {
                AmalfiProfile::JavaPairing => "profile=JAVAPAIRING",
                AmalfiProfile::Fsi => "profile=FSI",
            }
            .to_string(),
        );
    }
    if o.ignore_float_history {
        parts.push("float_history=IGNORED".to_string());
    }
    if let Some(m) = o.match_length {
        parts.push(format!("match_length={m}"));
    }
    if let Some(s) = o.late_entry_score {
        parts.push(format!("late_entry_score={s}"));
    }
    if o.acceleration != d.acceleration {
        parts.push(format!(
            "acceleration={}",
            match o.acceleration {
                crate::model::AccelerationMethod::None => "NONE",
                crate::model::AccelerationMethod::Baku => "BAKU",
                crate::model::AccelerationMethod::Auto => "AUTO",
            }
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
    use crate::model::{Score, SystemId};

    #[test]
    fn round_trips_every_setting() {
        let mut t = Tournament {
            lot_seed: 123_456_789_012,
            system: Some(SystemId::ColourAlternation),
            ..Tournament::default()
        };
        t.options.round_robin.cycles = Some(2);
        t.options.round_robin.swap_last_two_rounds = true;
        t.options.round_robin.order = RoundRobinOrder::Lot;
        t.options.amalfi_profile = AmalfiProfile::JavaPairing;
        t.options.ignore_float_history = true;
        t.options.match_length = Some(7);
        t.options.late_entry_score = Score::parse("0.5");
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
        let chars: Vec<char> = "XXO seed=5 colour=green".chars().collect();
        let e = read_xxo(&chars, 9, &mut Tournament::default()).err();
        assert_eq!(e.as_ref().map(|e| (e.line, e.column)), Some((9, 12)));
        assert!(e.is_some_and(|e| e.message.contains("unknown option")));
    }
}
