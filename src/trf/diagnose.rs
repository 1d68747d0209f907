//! Reading a TRF text and reporting every error in it (up to a cap), not only the first.
//!
//! The reader stops at its first error. To find the next ones, the line at fault is set
//! aside (read as blank) and the text is read again, until it reads or the cap is reached.
//! Setting aside a player line (`001`) removes that player, so later errors that only name
//! him (his opponents' lines, records naming his rank) would be consequences, not new
//! errors: the report stops at the first of those. Each error reads `line:column: what`.
use std::fmt;

use super::{TrfDocument, TrfError, encoding, read};

/// Most errors reported for one text.
pub const MAX_ERRORS: usize = 20;

/// Every error found in a text, in the order found (at most [`MAX_ERRORS`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrfErrors(pub Vec<TrfError>);

impl fmt::Display for TrfErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, e) in self.0.iter().enumerate() {
            if k > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for TrfErrors {}

/// Splits at CR, LF or CRLF, as the reader does (so that line numbers agree).
pub(crate) fn split_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push(std::mem::take(&mut current));
            }
            '\n' => out.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
    }
    out.push(current);
    out
}

/// Does `message` speak of the player with starting rank `rank`?
fn names_rank(message: &str, rank: u32) -> bool {
    [
        format!("rank {rank}"),
        format!("names {rank} "),
        format!("player {rank}'s"),
        format!("player {rank} "),
    ]
    .iter()
    .any(|p| message.contains(p.as_str()))
}

/// Reads a TRF text (a leading byte-order mark is ignored); every error, up to
/// [`MAX_ERRORS`], when it is not valid.
pub fn read_reporting(
    text: &str,
    codes: &dyn super::SystemCodes,
) -> Result<TrfDocument, TrfErrors> {
    let text = encoding::strip_bom(text);
    let first = match read(text, codes) {
        Ok(doc) => return Ok(doc),
        Err(e) => e,
    };
    // Not a TRF at all: every other line would be reported as unreadable too.
    if first.message.starts_with("not a TRF") {
        return Err(TrfErrors(vec![first]));
    }
    let mut lines = split_lines(text);
    // The starting rank's digits (4, or a wider `XXW <digits>` file's).
    let width = super::id_width(lines.iter().map(String::as_str));
    let mut errors = vec![first];
    let mut removed_ranks: Vec<u32> = Vec::new();
    while errors.len() < MAX_ERRORS {
        let Some(last) = errors.last() else { break };
        let Some(line) = last.line.checked_sub(1).and_then(|i| lines.get_mut(i)) else {
            break;
        };
        if line.trim().is_empty() {
            break; // nothing left to set aside: no progress possible
        }
        if line.starts_with("001") {
            let rank: String = line.chars().skip(4).take(width).collect();
            if let Ok(r) = rank.trim().parse() {
                removed_ranks.push(r);
            }
        }
        line.clear();
        match read(&lines.join("\n"), codes) {
            Ok(_) => break,
            Err(e) => {
                if removed_ranks.iter().any(|&r| names_rank(&e.message, r)) {
                    break;
                }
                errors.push(e);
            }
        }
    }
    Err(TrfErrors(errors))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "012 Test\n\
001    1      Alpha                             1800                             0.0    1\n\
001    2      Beta                              1700                             0.0    2\n";

    #[test]
    fn good_text_reads() {
        let doc = read_reporting(GOOD, &crate::trf::NoSystems);
        assert_eq!(doc.map(|d| d.tournament.players.len()).ok(), Some(2));
        let with_bom = format!("\u{FEFF}{GOOD}");
        assert!(read_reporting(&with_bom, &crate::trf::NoSystems).is_ok());
    }

    #[test]
    fn reports_each_error() {
        let text = "012 Test\n\
XXR many\n\
001    1      Alpha                             1800                             0.0    1\n\
XXC purple\n";
        let Err(errors) = read_reporting(text, &crate::trf::NoSystems) else {
            panic!("must fail");
        };
        let lines: Vec<usize> = errors.0.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![2, 4], "{errors}");
        let shown = errors.to_string();
        assert!(shown.starts_with("2:5: XXR"), "{shown}");
        assert!(shown.contains("\n4:5: XXC"), "{shown}");
    }
}
