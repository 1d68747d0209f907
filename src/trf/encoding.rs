//! The character encoding of a TRF file.
//!
//! FIDE's TRF specification does not name an encoding. Files come as UTF-8 (with or without
//! a byte-order mark) from current programs, and as Latin-1 or Windows-1252 from older
//! Windows programs (Swiss-Manager, Vega, ...), where "Müller, Jürgen" is the bytes
//! `4D FC 6C 6C 65 72 ...`. Notepad's "Unicode" is UTF-16 with a byte-order mark.
//!
//! [`Encoding::Auto`] decides from the bytes alone: a UTF-8 or UTF-16 byte-order mark; else
//! valid UTF-8 is UTF-8 (a Latin-1 text with any letter above 0x7F is practically never
//! valid UTF-8); else Windows-1252, which is Latin-1 with printable characters (`€ – “ ”`
//! ...) instead of the C1 control codes at 0x80-0x9F (the WHATWG reading of "latin1"). The
//! name reported is `latin-1` when no byte fell in 0x80-0x9F (the two then agree).
use std::fmt;

/// How to read a TRF file's bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    /// Detected (see the module documentation).
    #[default]
    Auto,
    Utf8,
    Latin1,
    Windows1252,
}

impl Encoding {
    /// `auto` (or empty), `utf-8`, `latin-1` (`iso-8859-1`), `windows-1252` (`cp1252`).
    pub fn parse(name: &str) -> Option<Encoding> {
        match name.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "" | "auto" => Some(Encoding::Auto),
            "utf-8" | "utf8" => Some(Encoding::Utf8),
            "latin-1" | "latin1" | "iso-8859-1" | "iso8859-1" => Some(Encoding::Latin1),
            "windows-1252" | "cp1252" | "win-1252" => Some(Encoding::Windows1252),
            _ => None,
        }
    }

    pub const NAMES: &'static str = "auto, utf-8, latin-1 or windows-1252";
}

impl std::str::FromStr for Encoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Encoding, String> {
        Encoding::parse(s).ok_or_else(|| format!("unknown encoding {s:?}: {}", Encoding::NAMES))
    }
}

/// A decoded text and the encoding it was read in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    pub text: String,
    /// `utf-8`, `utf-8 (BOM)`, `utf-16le (BOM)`, `utf-16be (BOM)`, `latin-1` or
    /// `windows-1252`.
    pub encoding: &'static str,
}

/// Bytes that are not text in the encoding asked for: where (1-based line and column) and
/// why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for DecodeError {}

/// Windows-1252 at 0x80-0x9F; the five bytes it leaves undefined read as the C1 control of
/// the same number, as Latin-1 does.
const CP1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{81}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{8D}', '\u{017D}', '\u{8F}',
    '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{9D}', '\u{017E}', '\u{0178}',
];

fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

fn windows1252(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| match b {
            0x80..=0x9F => CP1252_HIGH[usize::from(b - 0x80)],
            _ => char::from(b),
        })
        .collect()
}

/// Line and column (1-based, in characters) of byte `at` of a text valid up to there.
fn position(bytes: &[u8], at: usize) -> (usize, usize) {
    let before = String::from_utf8_lossy(&bytes[..at.min(bytes.len())]);
    let mut line = 1;
    let mut column = 1;
    let mut prev_cr = false;
    for c in before.chars() {
        match c {
            '\n' if prev_cr => {}
            '\n' | '\r' => {
                line += 1;
                column = 1;
            }
            _ => column += 1,
        }
        prev_cr = c == '\r';
    }
    (line, column)
}

fn utf8(bytes: &[u8], bom: bool) -> Result<Decoded, DecodeError> {
    let body = if bom { &bytes[3..] } else { bytes };
    match std::str::from_utf8(body) {
        Ok(s) => Ok(Decoded {
            text: s.to_string(),
            encoding: if bom { "utf-8 (BOM)" } else { "utf-8" },
        }),
        Err(e) => {
            let at = e.valid_up_to();
            let (line, column) = position(body, at);
            let byte = body.get(at).copied().unwrap_or(0);
            Err(DecodeError {
                line,
                column,
                message: format!(
                    "not valid UTF-8 (byte 0x{byte:02X}); a file from a Windows program is \
                     usually latin-1 or windows-1252: read it with that encoding (--encoding)"
                ),
            })
        }
    }
}

fn utf16(body: &[u8], little_endian: bool) -> Result<Decoded, DecodeError> {
    if !body.len().is_multiple_of(2) {
        return Err(DecodeError {
            line: 1,
            column: 1,
            message: "UTF-16 (by its byte-order mark) but an odd number of bytes".to_string(),
        });
    }
    let units: Vec<u16> = body
        .chunks_exact(2)
        .map(|p| {
            if little_endian {
                u16::from_le_bytes([p[0], p[1]])
            } else {
                u16::from_be_bytes([p[0], p[1]])
            }
        })
        .collect();
    String::from_utf16(&units)
        .map(|text| Decoded {
            text,
            encoding: if little_endian {
                "utf-16le (BOM)"
            } else {
                "utf-16be (BOM)"
            },
        })
        .map_err(|_| DecodeError {
            line: 1,
            column: 1,
            message: "UTF-16 (by its byte-order mark) with an unpaired surrogate".to_string(),
        })
}

/// Decodes a TRF file's bytes.
pub fn decode(bytes: &[u8], encoding: Encoding) -> Result<Decoded, DecodeError> {
    let bom8 = bytes.starts_with(&[0xEF, 0xBB, 0xBF]);
    match encoding {
        Encoding::Utf8 => utf8(bytes, bom8),
        Encoding::Latin1 => Ok(Decoded {
            text: latin1(bytes),
            encoding: "latin-1",
        }),
        Encoding::Windows1252 => Ok(Decoded {
            text: windows1252(bytes),
            encoding: "windows-1252",
        }),
        Encoding::Auto => {
            if bom8 {
                return utf8(bytes, true);
            }
            if let Some(body) = bytes.strip_prefix(&[0xFF, 0xFE]) {
                return utf16(body, true);
            }
            if let Some(body) = bytes.strip_prefix(&[0xFE, 0xFF]) {
                return utf16(body, false);
            }
            if let Ok(s) = std::str::from_utf8(bytes) {
                return Ok(Decoded {
                    text: s.to_string(),
                    encoding: "utf-8",
                });
            }
            let c1 = bytes.iter().any(|b| (0x80..=0x9F).contains(b));
            Ok(Decoded {
                text: windows1252(bytes),
                encoding: if c1 { "windows-1252" } else { "latin-1" },
            })
        }
    }
}

/// Decodes a text given as a string: a leading byte-order mark (U+FEFF) is dropped.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{FEFF}').unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_latin1_and_windows1252() {
        let bytes = b"M\xFCller, J\xFCrgen";
        let d = decode(bytes, Encoding::Auto).ok();
        assert_eq!(
            d,
            Some(Decoded {
                text: "Müller, Jürgen".to_string(),
                encoding: "latin-1"
            })
        );
        let d = decode(b"\x93Caf\xE9\x94 \x80", Encoding::Auto).ok();
        assert_eq!(d.as_ref().map(|d| d.text.as_str()), Some("“Café” €"));
        assert_eq!(d.map(|d| d.encoding), Some("windows-1252"));
        // Forced Latin-1 keeps the C1 codes.
        let d = decode(b"\x80", Encoding::Latin1).ok();
        assert_eq!(d.map(|d| d.text), Some("\u{80}".to_string()));
    }

    #[test]
    fn reads_utf8_with_and_without_bom() {
        let plain = "012 Großes Turnier\n";
        let d = decode(plain.as_bytes(), Encoding::Auto).ok();
        assert_eq!(
            d.map(|d| (d.text, d.encoding)),
            Some((plain.to_string(), "utf-8"))
        );
        let mut bom = vec![0xEF, 0xBB, 0xBF];
        bom.extend_from_slice(plain.as_bytes());
        let d = decode(&bom, Encoding::Auto).ok();
        assert_eq!(
            d.map(|d| (d.text, d.encoding)),
            Some((plain.to_string(), "utf-8 (BOM)"))
        );
        let d = decode(&bom, Encoding::Utf8).ok();
        assert_eq!(d.map(|d| d.text), Some(plain.to_string()));
    }

    #[test]
    fn reads_utf16_with_bom() {
        let mut bytes = vec![0xFF, 0xFE];
        for u in "012 Jürgen".encode_utf16() {
            bytes.extend_from_slice(&u.to_le_bytes());
        }
        let d = decode(&bytes, Encoding::Auto).ok();
        assert_eq!(d.map(|d| d.text), Some("012 Jürgen".to_string()));
    }

    #[test]
    fn forced_utf8_names_the_line_and_column() {
        let e = decode(b"012 Open\r\n001    1 M\xFCller", Encoding::Utf8).err();
        let e = e.map(|e| (e.line, e.column, e.message.contains("0xFC")));
        assert_eq!(e, Some((2, 11, true)));
    }

    #[test]
    fn parses_names() {
        assert_eq!(Encoding::parse("Latin1"), Some(Encoding::Latin1));
        assert_eq!(Encoding::parse("CP1252"), Some(Encoding::Windows1252));
        assert_eq!(Encoding::parse("utf_8"), Some(Encoding::Utf8));
        assert_eq!(Encoding::parse(""), Some(Encoding::Auto));
        assert_eq!(Encoding::parse("ebcdic"), None);
    }
}
