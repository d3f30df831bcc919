//! What the compiler reads each keyword of a schema object as, in the dialect's order: the
//! form `lower` fuses into the engine's checks.

use super::vocabulary::type_name;
use crate::engine::applicator::{Conditional, DynamicRef};
use crate::engine::array::Contains;
use crate::engine::enums::Enum;
use crate::engine::number::{Bound, MultipleOf};
use crate::engine::object::{Dependency, Names};
use crate::engine::program::types;
use crate::engine::string::{Content, FormatCheck, Pattern};
use crate::engine::NodeId;
use crate::values::literal::Literal;

/// One keyword of a schema object, read: what it checks, its name (from the dialect's
/// registry), and its key as the schema spells it (an alias, maybe), the last token of the
/// `schema_path` the reporting walk makes for it.
#[derive(Debug)]
pub struct Keyword {
    pub check: Check,
    pub name: &'static str,
    pub token: &'static str,
}

#[derive(Debug)]
pub enum Check {
    Ref(NodeId),
    DynamicRef(DynamicRef),
    Type(Types),
    Enum(Enum),
    Const(Literal),
    MultipleOf(MultipleOf),
    Bound(Bound),
    MinLength(u64),
    MaxLength(u64),
    Pattern(Pattern),
    Format(FormatCheck),
    Content(Content),
    MinItems(u64),
    MaxItems(u64),
    UniqueItems,
    PrefixItems(Box<[NodeId]>),
    /// Items from `start` on (after `prefixItems`, or an earlier draft's array `items`).
    Items {
        start: usize,
        node: NodeId,
    },
    Contains(Contains),
    Required(Names),
    DependentRequired(Box<[(Box<str>, Names)]>),
    MinProperties(u64),
    MaxProperties(u64),
    PropertyNames(NodeId),
    AdditionalProperties(NodeId),
    Properties(Box<[(Box<str>, NodeId)]>),
    PatternProperties(Box<[(Pattern, NodeId)]>),
    DependentSchemas(Box<[(Box<str>, NodeId)]>),
    Dependencies(Box<[(Box<str>, Dependency)]>),
    AllOf(Box<[NodeId]>),
    AnyOf(Box<[NodeId]>),
    OneOf(Box<[NodeId]>),
    Not(NodeId),
    If(Conditional),
    UnevaluatedItems(NodeId),
    UnevaluatedProperties(NodeId),
}

/// `type`: one of the seven JSON types, or a list of them.
#[derive(Debug)]
pub struct Types {
    /// The bits of `engine::program::types` for every type named.
    pub mask: u8,
    /// As written, for the error's `type`.
    pub written: Literal,
}

/// `integral_floats`: whether `1.0` is an integer in the dialect (see `Rules`).
fn named(name: &str, integral_floats: bool) -> Option<u8> {
    Some(match name {
        type_name::NULL => types::NULL,
        type_name::BOOLEAN => types::BOOLEAN,
        type_name::OBJECT => types::OBJECT,
        type_name::ARRAY => types::ARRAY,
        type_name::NUMBER => types::NUMBER,
        type_name::STRING => types::STRING,
        type_name::INTEGER if integral_floats => types::INTEGER,
        type_name::INTEGER => types::WHOLE,
        _ => return None,
    })
}

impl Types {
    /// A type name, or a non-empty list of distinct ones.
    pub fn compile(value: &Literal, integral_floats: bool) -> Option<Types> {
        let mask = match value {
            Literal::String(name) => named(name, integral_floats)?,
            Literal::Array(names) if !names.is_empty() => {
                let mut mask = 0;
                for name in names.iter() {
                    let bit = named(name.as_str()?, integral_floats)?;
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
