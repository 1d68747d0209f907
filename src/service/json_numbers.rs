//! Which field of a refused proto3 JSON body holds a number its type cannot take, and what
//! the type takes: for the Connect protocol's error answer ([`super::connect`]).
//!
//! The serde impls pbjson-build generates read an integer field as "a string or a number"
//! (an untagged enum), so a value out of range (`"round": 99999999999` for a `uint32`), of
//! the wrong kind (`true`, `1.5`) or a string that is no number comes back as serde's
//! "data did not match any variant of untagged enum Content", naming neither the field nor
//! its range. When a body is refused, it is walked here against the request message's
//! descriptor (the build's descriptor set, as gRPC reflection serves it): every numeric
//! field whose value the generated code would refuse is listed with its path
//! (`tournament.players[3].rating`, proto field names as in every other field violation)
//! and the range of its type. Only a refused body is walked: an accepted one costs nothing.
use std::collections::HashMap;
use std::sync::OnceLock;

use prost::Message as _;
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, FieldDescriptorProto, FileDescriptorSet};
use serde_json::Value;

/// At most this many fields are listed (a snapshot of thousands of players could otherwise
/// list thousands).
const MOST: usize = 20;

/// One field whose value its type cannot take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The field's path, by proto field names (`tournament.players[3].rating`).
    pub path: String,
    /// What the field takes and what it got.
    pub description: String,
}

/// The proto's messages by full name (`.swisspair.v1.PairRequest`), and each
/// `PairingService` method's request type.
struct Index {
    messages: HashMap<String, DescriptorProto>,
    requests: HashMap<String, String>,
}

fn index() -> Option<&'static Index> {
    static INDEX: OnceLock<Option<Index>> = OnceLock::new();
    INDEX
        .get_or_init(|| {
            let set = FileDescriptorSet::decode(crate::proto::FILE_DESCRIPTOR_SET).ok()?;
            let mut messages = HashMap::new();
            let mut requests = HashMap::new();
            for file in &set.file {
                let prefix = format!(".{}", file.package());
                for message in &file.message_type {
                    add(&prefix, message, &mut messages);
                }
                for service in file.service.iter().filter(|s| s.name() == "PairingService") {
                    for method in &service.method {
                        requests.insert(method.name().to_string(), method.input_type().to_string());
                    }
                }
            }
            Some(Index { messages, requests })
        })
        .as_ref()
}

fn add(prefix: &str, message: &DescriptorProto, out: &mut HashMap<String, DescriptorProto>) {
    let name = format!("{prefix}.{}", message.name());
    for nested in &message.nested_type {
        add(&name, nested, out);
    }
    out.insert(name, message.clone());
}

/// The numeric fields of `body` (a `method` request in proto3 JSON) whose value their type
/// cannot take, in the body's order; empty when there is none, or the body is not JSON.
pub fn violations(method: &str, body: &[u8]) -> Vec<Violation> {
    let mut out = Vec::new();
    let (Some(index), Ok(value)) = (index(), serde_json::from_slice::<Value>(body)) else {
        return out;
    };
    if let Some(request) = index.requests.get(method) {
        walk(index, request, &value, "", &mut out);
    }
    out
}

/// The fields of one message.
fn walk(index: &Index, message: &str, value: &Value, path: &str, out: &mut Vec<Violation>) {
    let (Some(descriptor), Value::Object(fields)) = (index.messages.get(message), value) else {
        return;
    };
    for (key, value) in fields {
        let Some(field) = descriptor
            .field
            .iter()
            .find(|f| f.name() == key || json_name(f) == *key)
        else {
            continue;
        };
        let path = if path.is_empty() {
            field.name().to_string()
        } else {
            format!("{path}.{}", field.name())
        };
        if field.label() != Label::Repeated {
            one(index, field, value, path, out);
        } else if let Some(entry) = map_value(index, field) {
            // A map: an object whose values are the entry's `value` field.
            if let Value::Object(entries) = value {
                for (k, v) in entries {
                    one(index, entry, v, format!("{path}[{k:?}]"), out);
                }
            }
        } else if let Value::Array(items) = value {
            for (i, item) in items.iter().enumerate() {
                one(index, field, item, format!("{path}[{i}]"), out);
            }
        }
    }
}

/// One value of `field` (an element, for a repeated field).
fn one(
    index: &Index,
    field: &FieldDescriptorProto,
    value: &Value,
    path: String,
    out: &mut Vec<Violation>,
) {
    if out.len() >= MOST || value.is_null() {
        return;
    }
    let takes = match field.r#type() {
        Type::Message => return walk(index, field.type_name(), value, &path, out),
        Type::Int32 | Type::Sint32 | Type::Sfixed32 => integer::<i32>(value),
        Type::Uint32 | Type::Fixed32 => integer::<u32>(value),
        Type::Int64 | Type::Sint64 | Type::Sfixed64 => integer::<i64>(value),
        Type::Uint64 | Type::Fixed64 => integer::<u64>(value),
        Type::Double | Type::Float => real(value),
        _ => Ok(()),
    };
    if let Err(expected) = takes {
        let kind = field
            .r#type()
            .as_str_name()
            .trim_start_matches("TYPE_")
            .to_ascii_lowercase();
        out.push(Violation {
            path,
            description: format!("expected {expected} ({kind}), got {}", shown(value)),
        });
    }
}

/// As pbjson reads an integer field: a JSON integer in the type's range, or a string the
/// type's `FromStr` reads.
fn integer<T: Integer>(value: &Value) -> Result<(), String> {
    let fits = match value {
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => T::try_from(i).is_ok(),
            (None, Some(u)) => T::try_from(u).is_ok(),
            (None, None) => false,
        },
        Value::String(s) => s.parse::<T>().is_ok(),
        _ => false,
    };
    if fits {
        Ok(())
    } else {
        Err(format!("an integer from {} to {}", T::MIN, T::MAX))
    }
}

/// The integer types of proto fields.
trait Integer: std::str::FromStr + TryFrom<i64> + TryFrom<u64> + std::fmt::Display {
    const MIN: Self;
    const MAX: Self;
}

macro_rules! integer {
    ($($t:ty),*) => {$(
        impl Integer for $t {
            const MIN: $t = <$t>::MIN;
            const MAX: $t = <$t>::MAX;
        }
    )*};
}

integer!(i32, u32, i64, u64);

/// As pbjson reads a floating-point field: a JSON number, or a string `f64` reads
/// (`"NaN"`, `"Infinity"` included).
fn real(value: &Value) -> Result<(), String> {
    match value {
        Value::Number(_) => Ok(()),
        Value::String(s) if s.parse::<f64>().is_ok() => Ok(()),
        _ => Err("a number".to_string()),
    }
}

/// The value as sent, cut short.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(40) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}

/// The field's JSON name: the descriptor's, else lowerCamelCase of its name.
fn json_name(field: &FieldDescriptorProto) -> String {
    if !field.json_name().is_empty() {
        return field.json_name().to_string();
    }
    let mut out = String::new();
    let mut upper = false;
    for c in field.name().chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The `value` field of a map field's entry type; `None` for a field that is no map.
fn map_value<'a>(
    index: &'a Index,
    field: &FieldDescriptorProto,
) -> Option<&'a FieldDescriptorProto> {
    if field.r#type() != Type::Message {
        return None;
    }
    let entry = index.messages.get(field.type_name())?;
    if !entry.options.as_ref().is_some_and(|o| o.map_entry()) {
        return None;
    }
    entry.field.iter().find(|f| f.number() == 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(method: &str, body: &str) -> Vec<String> {
        violations(method, body.as_bytes())
            .into_iter()
            .map(|v| format!("{}: {}", v.path, v.description))
            .collect()
    }

    #[test]
    fn out_of_range_and_wrong_kinds_are_named_with_the_range() {
        assert_eq!(
            paths("ValidatePairing", r#"{"round": 99999999999}"#),
            ["round: expected an integer from 0 to 4294967295 (uint32), got 99999999999"]
        );
        assert_eq!(
            paths("ValidatePairing", r#"{"round": -1}"#),
            ["round: expected an integer from 0 to 4294967295 (uint32), got -1"]
        );
        assert_eq!(
            paths("ValidatePairing", r#"{"round": "7"}"#),
            Vec::<String>::new(),
            "a number as a string is proto3 JSON"
        );
        assert_eq!(
            paths("Pair", r#"{"seed": "x"}"#),
            [r#"seed: expected an integer from 0 to 18446744073709551615 (uint64), got "x""#]
        );
        assert_eq!(
            paths("ValidatePairing", r#"{"round": 1.5}"#),
            ["round: expected an integer from 0 to 4294967295 (uint32), got 1.5"]
        );
    }

    #[test]
    fn nested_repeated_fields_are_walked_by_their_json_or_proto_names() {
        let body = r#"{"tournament": {"totalRounds": 5, "players": [{"id": "a"}, {"id": "b", "rating": true}]}}"#;
        let found = paths("Pair", body);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("tournament.players[1].rating: expected an integer from"),
            "{found:?}"
        );
        let body = r#"{"tournament": {"total_rounds": 4294967296}}"#;
        assert_eq!(
            paths("Pair", body),
            [
                "tournament.total_rounds: expected an integer from 0 to 4294967295 (uint32), got 4294967296"
            ]
        );
    }

    #[test]
    fn a_valid_or_unreadable_body_has_none() {
        assert!(paths("Pair", r#"{"seed": "7", "system": "PAIRING_SYSTEM_DUTCH"}"#).is_empty());
        assert!(paths("Pair", "{not json").is_empty());
        assert!(paths("NoSuchMethod", r#"{"round": -1}"#).is_empty());
    }
}
