//! The keyword checks of a compiled schema object, one file per family: each keyword's quick
//! check (`valid`, in `eval`'s quick walk) beside its reporting check (`report`).

pub mod array;
pub mod combinators;
pub mod content;
pub mod equality;
pub mod numeric;
pub mod object;
pub mod reference;
pub mod string;
pub mod types;
pub mod unevaluated;

use super::literal::Literal;
use crate::arena::NodeId;
use crate::error::message;
use crate::json_schema::vocabulary::name;
use crate::number::Number;

/// Property names (`required`, and each list of `dependentRequired`).
pub type Names = Box<[Box<str>]>;

/// One keyword of a schema object, compiled: what it checks, its name (from the dialect's
/// registry), and its key as the schema spells it (an alias, maybe), the last token of the
/// `schema_path` the reporting walk makes for it (see `SchemaTrail`).
#[derive(Debug)]
pub struct Keyword {
    pub check: Check,
    pub name: &'static str,
    pub token: &'static str,
}

#[derive(Debug)]
pub enum Check {
    Ref(NodeId),
    DynamicRef(reference::DynamicRef),
    Type(types::Types),
    Enum(equality::Enum),
    Const(Literal),
    MultipleOf(numeric::MultipleOf),
    Bound(numeric::Bound),
    MinLength(u64),
    MaxLength(u64),
    Pattern(string::Pattern),
    Format(string::FormatCheck),
    Content(content::Content),
    MinItems(u64),
    MaxItems(u64),
    UniqueItems,
    PrefixItems(Box<[NodeId]>),
    /// Items from `start` on (after `prefixItems`, or draft-07's array `items`).
    Items {
        start: usize,
        node: NodeId,
    },
    Contains(array::Contains),
    Required(Names),
    DependentRequired(Box<[(Box<str>, Names)]>),
    MinProperties(u64),
    MaxProperties(u64),
    PropertyNames(NodeId),
    AdditionalProperties(object::Additional),
    Properties(object::Properties),
    PatternProperties(Box<[(string::Pattern, NodeId)]>),
    DependentSchemas(Box<[(Box<str>, NodeId)]>),
    Dependencies(Box<[(Box<str>, object::Dependency)]>),
    AllOf(Box<[NodeId]>),
    AnyOf(Box<[NodeId]>),
    OneOf(Box<[NodeId]>),
    Not(NodeId),
    If(combinators::Conditional),
    UnevaluatedItems(NodeId),
    UnevaluatedProperties(NodeId),
}

impl Check {
    /// Whether the check applies a subschema (in place or to a part of the value): a node
    /// with one can recurse, the quick walk's costly case.
    pub fn applies_schemas(&self) -> bool {
        !matches!(
            self,
            Check::Type(_)
                | Check::Enum(_)
                | Check::Const(_)
                | Check::MultipleOf(_)
                | Check::Bound(_)
                | Check::MinLength(_)
                | Check::MaxLength(_)
                | Check::Pattern(_)
                | Check::Format(_)
                | Check::Content(_)
                | Check::MinItems(_)
                | Check::MaxItems(_)
                | Check::UniqueItems
                | Check::Required(_)
                | Check::DependentRequired(_)
                | Check::MinProperties(_)
                | Check::MaxProperties(_)
        )
    }
}

/// A failed assertion: its message (in the subset's voice) and the keyword's own value where
/// it helps, reported under the keyword's name.
#[derive(Clone, Debug, thiserror::Error)]
pub enum Assertion {
    #[error("{}", message::WRONG_TYPE)]
    Type(Literal),
    #[error("{}", message::NOT_IN_ENUM)]
    Enum,
    #[error("tool argument does not equal the constant")]
    Const,
    #[error("tool argument is not a multiple of the divisor")]
    MultipleOf(Number),
    #[error("{}", message::BELOW_MINIMUM)]
    Minimum(Number),
    #[error("tool argument is not above the exclusive minimum")]
    ExclusiveMinimum(Number),
    #[error("tool argument is above the maximum")]
    Maximum(Number),
    #[error("tool argument is not below the exclusive maximum")]
    ExclusiveMaximum(Number),
    #[error("tool argument is shorter than the minimum length")]
    MinLength(u64),
    #[error("tool argument is longer than the maximum length")]
    MaxLength(u64),
    #[error("tool argument does not match the pattern")]
    Pattern(Box<str>),
    #[error("tool argument does not match the format")]
    Format(Box<str>),
    #[error("tool argument does not match the content encoding")]
    ContentEncoding(Box<str>),
    #[error("tool argument does not match the content media type")]
    ContentMediaType(Box<str>),
    #[error("tool argument does not match the content schema")]
    ContentSchema,
    #[error("tool argument has too few items")]
    MinItems(u64),
    #[error("tool argument has too many items")]
    MaxItems(u64),
    #[error("tool argument has duplicate items")]
    UniqueItems,
    #[error("tool argument has too few matching items")]
    MinContains(u64),
    #[error("tool argument has too many matching items")]
    MaxContains(u64),
    #[error("{}", message::MISSING_REQUIRED)]
    Required(Box<str>),
    #[error("{}", message::ADDITIONAL_PROPERTY)]
    AdditionalProperty,
    #[error("unevaluated tool argument is not allowed")]
    UnevaluatedProperty,
    #[error("additional tool argument item is not allowed")]
    AdditionalItem,
    #[error("unevaluated tool argument item is not allowed")]
    UnevaluatedItem,
    #[error("tool argument name is not allowed")]
    PropertyName,
    #[error("tool argument has too few properties")]
    MinProperties(u64),
    #[error("tool argument has too many properties")]
    MaxProperties(u64),
    #[error("tool argument must match at least one anyOf branch")]
    AnyOf,
    #[error("{}", message::ONE_OF_MISMATCH)]
    OneOf,
    #[error("tool argument must not match the negated schema")]
    Not,
    #[error("tool argument is not allowed")]
    False,
}

/// A detail value of an assertion.
#[derive(Debug)]
pub enum Detail<'e> {
    Literal(&'e Literal),
    Number(&'e Number),
    Count(u64),
    Text(&'e str),
}

impl Assertion {
    /// The keyword's own value, under the name it is reported with.
    pub fn detail(&self) -> Option<(&'static str, Detail<'_>)> {
        Some(match self {
            Assertion::Type(types) => (name::TYPE, Detail::Literal(types)),
            Assertion::MultipleOf(number) => (name::MULTIPLE_OF, Detail::Number(number)),
            Assertion::Minimum(number) => (name::MINIMUM, Detail::Number(number)),
            Assertion::ExclusiveMinimum(number) => {
                (name::EXCLUSIVE_MINIMUM, Detail::Number(number))
            }
            Assertion::Maximum(number) => (name::MAXIMUM, Detail::Number(number)),
            Assertion::ExclusiveMaximum(number) => {
                (name::EXCLUSIVE_MAXIMUM, Detail::Number(number))
            }
            Assertion::MinLength(count) => (name::MIN_LENGTH, Detail::Count(*count)),
            Assertion::MaxLength(count) => (name::MAX_LENGTH, Detail::Count(*count)),
            Assertion::Pattern(text) => (name::PATTERN, Detail::Text(text)),
            Assertion::Format(text) => (name::FORMAT, Detail::Text(text)),
            Assertion::ContentEncoding(text) => (name::CONTENT_ENCODING, Detail::Text(text)),
            Assertion::ContentMediaType(text) => (name::CONTENT_MEDIA_TYPE, Detail::Text(text)),
            Assertion::MinItems(count) => (name::MIN_ITEMS, Detail::Count(*count)),
            Assertion::MaxItems(count) => (name::MAX_ITEMS, Detail::Count(*count)),
            Assertion::MinContains(count) => (name::MIN_CONTAINS, Detail::Count(*count)),
            Assertion::MaxContains(count) => (name::MAX_CONTAINS, Detail::Count(*count)),
            Assertion::Required(name) => ("property", Detail::Text(name)),
            Assertion::MinProperties(count) => (name::MIN_PROPERTIES, Detail::Count(*count)),
            Assertion::MaxProperties(count) => (name::MAX_PROPERTIES, Detail::Count(*count)),
            _ => return None,
        })
    }

    /// The keyword that failed, where one check stands for several (the content keywords).
    pub fn keyword(&self) -> Option<&'static str> {
        match self {
            Assertion::ContentEncoding(_) => Some(name::CONTENT_ENCODING),
            Assertion::ContentMediaType(_) => Some(name::CONTENT_MEDIA_TYPE),
            Assertion::ContentSchema => Some(name::CONTENT_SCHEMA),
            _ => None,
        }
    }

    /// Bytes the assertion copies into its error, for the error's price.
    pub fn copied_bytes(&self) -> usize {
        match self {
            Assertion::Type(_) => 64,
            Assertion::Pattern(text)
            | Assertion::Format(text)
            | Assertion::Required(text)
            | Assertion::ContentEncoding(text)
            | Assertion::ContentMediaType(text) => text.len(),
            Assertion::MultipleOf(number)
            | Assertion::Minimum(number)
            | Assertion::ExclusiveMinimum(number)
            | Assertion::Maximum(number)
            | Assertion::ExclusiveMaximum(number) => number.byte_size(),
            _ => 0,
        }
    }
}
