//! `type`: one of the seven JSON types, or a list of them.

use super::Assertion;
use crate::budget::Budget;
use crate::eval::Halt;
use crate::json_schema::eval::{json_type, JsonType};
use crate::json_schema::literal::Literal;
use crate::json_schema::vocabulary::type_name;
use crate::value::{Kind, Value};

#[derive(Debug)]
pub struct Types {
    /// The bits of `bit(type)` for every type named.
    mask: u8,
    /// As written, for the error's `type`.
    written: Literal,
}

fn named(name: &str) -> Option<u8> {
    Some(match name {
        type_name::NULL => 1,
        type_name::BOOLEAN => 2,
        type_name::OBJECT => 4,
        type_name::ARRAY => 8,
        type_name::NUMBER => 16,
        type_name::STRING => 32,
        type_name::INTEGER => 64,
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

/// Whether `value` is of one of the types: `check` without its error.
#[inline]
pub fn holds<'a, V: Value<'a>>(budget: &mut Budget, types: &Types, value: V) -> Result<bool, Halt> {
    let found = match value.kind() {
        Kind::Binary => bit(JsonType::String),
        Kind::Integer => bit(JsonType::Integer),
        // Any float is a number: whether it is integral matters only to `integer` alone.
        Kind::Float if types.mask & bit(JsonType::Number) != 0 => bit(JsonType::Number),
        _ => bit(json_type(value, budget)?),
    };
    Ok(types.mask & found != 0)
}

pub fn check<'a, V: Value<'a>>(
    budget: &mut Budget,
    types: &Types,
    value: V,
) -> Result<Option<Assertion>, Halt> {
    Ok((!holds(budget, types, value)?).then(|| Assertion::Type(types.written.clone())))
}
