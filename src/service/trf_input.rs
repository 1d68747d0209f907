//! TRF input given as bytes (`trf_bytes`, with `trf_encoding`): files from programs that
//! write Latin-1 or Windows-1252 cannot travel in a protobuf `string`, which must be UTF-8.
use crate::model::validate::Problem;
use crate::trf::{Encoding, decode};

/// The text of `trf_bytes`; `None` after adding a problem when it cannot be read.
pub fn decode_bytes(bytes: &[u8], encoding: &str, problems: &mut Vec<Problem>) -> Option<String> {
    let Some(encoding) = Encoding::parse(encoding) else {
        problems.push(Problem::new(
            "trf_encoding",
            format!("unknown encoding {encoding:?}: {}", Encoding::NAMES),
        ));
        return None;
    };
    match decode(bytes, encoding) {
        Ok(d) => Some(d.text),
        Err(e) => {
            problems.push(Problem::new(
                "trf_bytes",
                format!("line {}, column {}: {}", e.line, e.column, e.message),
            ));
            None
        }
    }
}
