//! What failed when a keyword's assertion failed: the error's message (in the subset's voice
//! where both profiles report one failure) and the keyword's own value where it helps.

use crate::error::message;
use crate::json_schema::literal::Literal;
use crate::json_schema::vocabulary::name;
use crate::number::Number;

/// A failed assertion, reported under the keyword's name.
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
