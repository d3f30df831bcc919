//! Every error of the contract (section 3), with its class, exact message and detail keys.

use crate::json_schema::vocabulary::name;
use crate::json_schema::Literal;
use crate::json_schema::{Assertion, Detail};
use crate::number::Number;

/// The messages that more than one error gives (the subset's and the JSON modes' forms of one
/// failure), each spelled once.
pub mod message {
    pub const WRONG_TYPE: &str = "tool argument has the wrong type";
    pub const BELOW_MINIMUM: &str = "tool argument is below the minimum";
    pub const NOT_IN_ENUM: &str = "tool argument is not an allowed enum value";
    pub const ONE_OF_MISMATCH: &str = "tool argument must match exactly one oneOf branch";
    pub const MISSING_REQUIRED: &str = "required tool argument is missing";
    pub const ADDITIONAL_PROPERTY: &str = "additional tool argument is not allowed";
    pub const UNKNOWN_KEYWORD: &str = "schema keyword is unsupported";
    pub const ROOT_NOT_OBJECT: &str = "only object tool schemas are supported";
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Validation,
    UnsupportedCapability,
}

/// The `type` detail of a wrong-type error: a string for object, array, integer and number;
/// for string and boolean the schema's own spelling (atom or string).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypeLabel {
    pub name: &'static str,
    pub atom: bool,
}

/// An argument path (`$arguments.a[1]`), as bytes: property names need not be UTF-8.
pub type Path = Vec<u8>;

#[derive(Debug, thiserror::Error)]
pub enum Error<V> {
    #[error("tool schema is required")]
    SchemaRequired,
    #[error("tool schema must be a map")]
    SchemaNotMap,
    #[error("tool schema and arguments must be maps")]
    NotMaps,
    #[error("{}", message::ROOT_NOT_OBJECT)]
    RootNotObject,
    #[error("{}", message::UNKNOWN_KEYWORD)]
    UnknownKeyword { keyword: V },
    #[error("oneOf sibling keywords are unsupported")]
    OneOfSiblings { keywords: Vec<V> },
    #[error("property schema type is unsupported")]
    UnsupportedType { type_: V },
    /// `keyword`: its name, reported as an atom.
    #[error("schema keyword is unsupported for this type")]
    KeywordNotForType { keyword: &'static str },
    #[error("schema nesting is too deep")]
    TooDeep,
    /// Its compiled form would pass `budget::MAX_KEPT_BYTES`.
    #[error("schema is too large")]
    TooLarge,
    /// The call spent `budget::WORK_CAP_UNITS` (or its caller exited) before an answer.
    #[error("validation work limit exceeded")]
    WorkLimit,
    #[error("property schema must be a map")]
    SchemaNotAMap,
    #[error("property schema type is required")]
    TypeRequired,
    #[error("schema enum must be a list of JSON values")]
    BadEnum,
    #[error("schema oneOf must be a non-empty list")]
    BadOneOf,
    #[error("schema properties must be a map")]
    BadProperties,
    #[error("schema property names must be strings or atoms")]
    BadPropertyName,
    #[error("schema required must be a list of property names")]
    BadRequired,
    #[error("schema additionalProperties must be a boolean")]
    BadAdditionalProperties,
    #[error("schema minimum must be a number")]
    BadMinimum,
    #[error("{}", message::MISSING_REQUIRED)]
    MissingRequired { path: Path, property: Box<[u8]> },
    #[error("{}", message::ADDITIONAL_PROPERTY)]
    AdditionalProperty { path: Path, property: V },
    #[error("{}", message::WRONG_TYPE)]
    WrongType { path: Path, type_: TypeLabel },
    #[error("{}", message::BELOW_MINIMUM)]
    BelowMinimum { path: Path, minimum: Number },
    #[error("{}", message::NOT_IN_ENUM)]
    NotInEnum { path: Path },
    #[error("{}", message::ONE_OF_MISMATCH)]
    OneOfMismatch { path: Path },
    /// `validate_json`: the arguments given are not a binary.
    #[error("tool arguments must be JSON text")]
    JsonTextNotBinary,
    /// `validate_json`: `offset` is the zero-based byte offset of the first unreadable byte
    /// (kept as a `Number` so that bridges report it like every other number).
    #[error("tool arguments are not valid JSON")]
    InvalidJson { offset: Number },
    /// `validate_json`: the text holds nothing but whitespace, if that.
    #[error("tool arguments JSON text is empty")]
    EmptyJsonText,
    /// `validate_json` at the tool boundary: the text holds a JSON value that is no object.
    #[error("tool arguments must be a JSON object")]
    JsonNotObject,
    /// `validate_json`: `path` is the object's, `property` the repeated key.
    #[error("tool arguments contain a duplicate key")]
    DuplicateKey { path: Path, property: Box<[u8]> },
    /// `validate_json`: a number beyond every float, or an integer of too many digits.
    #[error("tool argument number is too large")]
    NumberTooLarge { path: Path },
    /// JSON modes: a keyword's assertion failed (boxed: the other errors are small).
    #[error("{}", .0.assertion)]
    Assertion(Box<KeywordFailure<V>>),
    #[error("JSON Schema dialect is unsupported")]
    UnsupportedDialect { schema: Literal },
    #[error("JSON Schema vocabulary is unsupported")]
    UnsupportedVocabulary { vocabulary: Box<str> },
    /// JSON modes with `strict: true`: a keyword outside the dialect's vocabularies.
    #[error("{}", message::UNKNOWN_KEYWORD)]
    StrictUnknownKeyword {
        keyword: Box<str>,
        schema_path: Box<str>,
    },
    #[error("schema keyword value is invalid")]
    InvalidKeywordValue {
        keyword: Box<str>,
        schema_path: Box<str>,
    },
    #[error("schema values must be JSON values")]
    SchemaNotJson { schema_path: Box<str> },
    #[error("schema contains duplicate keys")]
    DuplicateSchemaKey {
        keyword: Box<str>,
        schema_path: Box<str>,
    },
    #[error("external schema reference requires an explicit loader")]
    ExternalReference { reference: Box<str> },
    #[error("schema reference could not be resolved")]
    UnresolvedReference {
        reference: Box<str>,
        schema_path: Box<str>,
    },
    /// Two schemas name one URI; `other_schema_path` is where it was met first.
    #[error("schema identifiers are ambiguous")]
    AmbiguousIdentifier {
        identifier: Box<str>,
        schema_path: Box<str>,
        other_schema_path: Box<str>,
    },
    /// A schema's `$id` names a document of the caller's registry or a built-in meta-schema.
    #[error("schema identifier belongs to another document")]
    IdentifierTaken {
        identifier: Box<str>,
        schema_path: Box<str>,
    },
    #[error("schema pattern is unsupported")]
    UnsupportedPattern {
        keyword: Box<str>,
        schema_path: Box<str>,
    },
    /// JSON modes: the tool boundary's root type.
    #[error("{}", message::ROOT_NOT_OBJECT)]
    RootTypeNotObject { type_: Literal },
    /// JSON modes: an argument map key that is neither a string nor an atom.
    #[error("tool argument keys must be strings")]
    ArgumentKeyNotString { path: Path },
    /// JSON modes: an argument JSON cannot carry (a tuple, pid, reference, function, struct).
    #[error("tool argument is not a JSON value")]
    ArgumentNotJson { path: Path },
    /// JSON modes: an atom key that the host cannot find by its own name, so that no keyword
    /// reading names could find its value.
    #[error("tool argument key cannot be read by its name")]
    ArgumentKeyUnreadable { path: Path, property: V },
    /// The quick walk found the arguments invalid and the reporting walk found no error: a
    /// bug in one of them, answered as an error rather than a pass. `keyword` is the root
    /// schema's check the quick walk failed on.
    #[error("tool argument failed a check that reported no error")]
    Unreported {
        keyword: &'static str,
        path: Path,
        schema_path: Box<str>,
    },
    /// JSON modes: references that apply schemas to one value in a cycle, with no end.
    #[error("schema references loop without progress")]
    ReferenceLoop { schema_path: Box<str> },
}

/// A JSON-mode argument error: the assertion that failed at `path`, the keyword and its JSON
/// pointer (`schema_path`), and the argument key an object keyword refused.
#[derive(Debug)]
pub struct KeywordFailure<V> {
    pub assertion: Assertion,
    pub keyword: &'static str,
    pub path: Path,
    pub schema_path: Box<str>,
    pub property: Option<V>,
}

/// A detail value, for a bridge to encode.
#[derive(Debug)]
pub enum Field<'e, V> {
    /// A binary (paths, required names, type names written as strings).
    Binary(&'e [u8]),
    Atom(&'static str),
    /// A term as the caller wrote it.
    Term(V),
    Terms(&'e [V]),
    Number(&'e Number),
    /// A JSON value kept by a compiled schema.
    Literal(&'e Literal),
    Unsigned(u64),
}

impl<V: Copy> Error<V> {
    pub fn class(&self) -> Class {
        match self {
            Error::SchemaRequired
            | Error::RootNotObject
            | Error::UnknownKeyword { .. }
            | Error::OneOfSiblings { .. }
            | Error::UnsupportedType { .. }
            | Error::KeywordNotForType { .. }
            | Error::TooDeep
            | Error::TooLarge
            | Error::WorkLimit
            | Error::UnsupportedDialect { .. }
            | Error::UnsupportedVocabulary { .. }
            | Error::StrictUnknownKeyword { .. }
            | Error::UnsupportedPattern { .. }
            | Error::RootTypeNotObject { .. } => Class::UnsupportedCapability,
            _ => Class::Validation,
        }
    }

    /// The detail keys besides `message`, in a fixed order.
    pub fn fields(&self) -> Vec<(&'static str, Field<'_, V>)> {
        match self {
            Error::UnknownKeyword { keyword } => vec![("keyword", Field::Term(*keyword))],
            Error::OneOfSiblings { keywords } => vec![("keywords", Field::Terms(keywords))],
            Error::UnsupportedType { type_ } => vec![(name::TYPE, Field::Term(*type_))],
            Error::KeywordNotForType { keyword } => {
                vec![("keyword", Field::Atom(keyword))]
            }
            Error::MissingRequired { path, property } => vec![
                ("path", Field::Binary(path)),
                ("property", Field::Binary(property)),
            ],
            Error::AdditionalProperty { path, property } => vec![
                ("path", Field::Binary(path)),
                ("property", Field::Term(*property)),
            ],
            Error::WrongType { path, type_ } => vec![
                ("path", Field::Binary(path)),
                (
                    name::TYPE,
                    if type_.atom {
                        Field::Atom(type_.name)
                    } else {
                        Field::Binary(type_.name.as_bytes())
                    },
                ),
            ],
            Error::BelowMinimum { path, minimum } => vec![
                ("path", Field::Binary(path)),
                (name::MINIMUM, Field::Number(minimum)),
            ],
            Error::NotInEnum { path }
            | Error::OneOfMismatch { path }
            | Error::NumberTooLarge { path } => {
                vec![("path", Field::Binary(path))]
            }
            Error::InvalidJson { offset } => vec![("offset", Field::Number(offset))],
            Error::Assertion(failure) => {
                let KeywordFailure {
                    assertion,
                    keyword,
                    path,
                    schema_path,
                    property,
                } = &**failure;
                let mut fields = vec![
                    ("path", Field::Binary(path)),
                    ("keyword", Field::Binary(keyword.as_bytes())),
                    ("schema_path", Field::Binary(schema_path.as_bytes())),
                ];
                if let Some((name, detail)) = assertion.detail() {
                    fields.push((
                        name,
                        match detail {
                            Detail::Literal(literal) => Field::Literal(literal),
                            Detail::Number(number) => Field::Number(number),
                            Detail::Count(count) => Field::Unsigned(count),
                            Detail::Text(text) => Field::Binary(text.as_bytes()),
                        },
                    ));
                }
                if let Some(property) = property {
                    fields.push(("property", Field::Term(*property)));
                }
                fields
            }
            Error::UnsupportedDialect { schema } => vec![("schema", Field::Literal(schema))],
            Error::UnsupportedVocabulary { vocabulary } => {
                vec![("vocabulary", Field::Binary(vocabulary.as_bytes()))]
            }
            Error::StrictUnknownKeyword {
                keyword,
                schema_path,
            }
            | Error::InvalidKeywordValue {
                keyword,
                schema_path,
            }
            | Error::DuplicateSchemaKey {
                keyword,
                schema_path,
            }
            | Error::UnsupportedPattern {
                keyword,
                schema_path,
            } => vec![
                ("keyword", Field::Binary(keyword.as_bytes())),
                ("schema_path", Field::Binary(schema_path.as_bytes())),
            ],
            Error::SchemaNotJson { schema_path } | Error::ReferenceLoop { schema_path } => {
                vec![("schema_path", Field::Binary(schema_path.as_bytes()))]
            }
            Error::ExternalReference { reference } => {
                vec![("reference", Field::Binary(reference.as_bytes()))]
            }
            Error::UnresolvedReference {
                reference,
                schema_path,
            } => vec![
                ("reference", Field::Binary(reference.as_bytes())),
                ("schema_path", Field::Binary(schema_path.as_bytes())),
            ],
            Error::AmbiguousIdentifier {
                identifier,
                schema_path,
                other_schema_path,
            } => vec![
                ("identifier", Field::Binary(identifier.as_bytes())),
                ("schema_path", Field::Binary(schema_path.as_bytes())),
                (
                    "other_schema_path",
                    Field::Binary(other_schema_path.as_bytes()),
                ),
            ],
            Error::IdentifierTaken {
                identifier,
                schema_path,
            } => vec![
                ("identifier", Field::Binary(identifier.as_bytes())),
                ("schema_path", Field::Binary(schema_path.as_bytes())),
            ],
            Error::RootTypeNotObject { type_ } => vec![(name::TYPE, Field::Literal(type_))],
            Error::ArgumentKeyNotString { path } | Error::ArgumentNotJson { path } => {
                vec![("path", Field::Binary(path))]
            }
            Error::Unreported {
                keyword,
                path,
                schema_path,
            } => vec![
                ("path", Field::Binary(path)),
                ("keyword", Field::Binary(keyword.as_bytes())),
                ("schema_path", Field::Binary(schema_path.as_bytes())),
            ],
            Error::ArgumentKeyUnreadable { path, property } => vec![
                ("path", Field::Binary(path)),
                ("property", Field::Term(*property)),
            ],
            Error::DuplicateKey { path, property } => vec![
                ("path", Field::Binary(path)),
                ("property", Field::Binary(property)),
            ],
            _ => Vec::new(),
        }
    }
}
