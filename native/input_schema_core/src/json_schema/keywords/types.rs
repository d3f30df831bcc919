//! `type`: one of the seven JSON types, or a list of them.

use super::Assertion;
use crate::budget::Budget;
use crate::json_schema::eval::{json_type, Halt, JsonType};
use crate::json_schema::literal::Literal;
use crate::value::Value;

#[derive(Debug)]
pub struct Types {
    /// The bits of `bit(type)` for every type named.
    mask: u8,
    /// As written, for the error's `type`.
    written: Literal,
}

fn named(name: &str) -> Option<u8> {
    Some(match name {
        "null" => 1,
        "boolean" => 2,
        "object" => 4,
        "array" => 8,
        "number" => 16,
        "string" => 32,
        "integer" => 64,
        _ => return None,
    })
}

fn bit(found: JsonType) -> u8 {
    match found {
        JsonType::Null => 1,
        JsonType::Boolean => 2,
        JsonType::Object => 4,
        JsonType::Array => 8,
        JsonType::Number => 16,
        JsonType::String => 32,
        // An integer is a number too.
        JsonType::Integer => 64 | 16,
        JsonType::None => 0,
    }
}

impl Types {
    /// A type name, or a non-empty list of distinct ones.
    pub fn compile(value: &Literal) -> Option<Types> {
        let mask = match value {
            Literal::String(name) => named(name)?,
            Literal::Array(names) if !names.is_empty() => {
                let mut mask = 0;
                for name in names.iter() {
                    let bit = named(name.as_str()?)?;
                    if mask & bit != 0 {
                        return None;
                    }
                    mask |= bit;
                }
                mask
            }
            _ => return None,
        };
        Some(Types {
            mask,
            written: value.clone(),
        })
    }
}

pub fn check<'a, V: Value<'a>>(
    budget: &mut Budget,
    types: &Types,
    value: V,
) -> Result<Option<Assertion>, Halt> {
    // A list's cells are walked only when `array` is asked of it.
    let found = json_type(value, budget)?;
    Ok((types.mask & bit(found) == 0).then(|| Assertion::Type(types.written.clone())))
}
