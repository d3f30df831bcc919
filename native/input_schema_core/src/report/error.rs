//! Every error of the contract (section 3), with its class, exact message and detail keys.

use crate::names::keywords::name;
use crate::report::path::{Places, ARGUMENTS, RESULT};
use crate::text::json_text::JsonError;
use crate::values::literal::Literal;
use crate::values::number::Number;
use crate::work::budget::{Budget, Exhausted};
use crate::work::halt::{Flow, Halt};
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

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

/// What a renderer must know of a message whose detail does not say it by its fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Said {
    /// Of the checked value as a whole, which has no path: the arguments', or the result's.
    WholeValue,
    /// A required property is missing (the subset's error names no keyword).
    Missing,
    /// A compiled schema the host holds is no longer usable: the operator's problem.
    Operator,
}

/// Messages the host side says itself, with no error of this crate behind them: a tool's
/// result without its `structuredContent`, and a compiled schema that is not (or no longer)
/// one.
pub const STRUCTURED_CONTENT_MISSING: &str = "result structuredContent is missing";
pub const COMPILED_SCHEMA_INVALID: &str = "compiled schema is invalid";

/// Every message a renderer tells apart by what it says, in both roles' words: the one table
/// the host's renderers read, keyed by the message. The messages the host makes itself carry
/// the name it asks for them by.
pub fn said_messages() -> Vec<(Option<&'static str>, String, Said)> {
    let not_object: Error<()> = Error::ArgumentsNotObject;
    let whole: [Error<()>; 3] = [
        Error::JsonTextNotBinary,
        Error::InvalidJson {
            offset: Number::Int(0),
        },
        Error::EmptyJsonText,
    ];
    let missing: Error<()> = Error::MissingRequired {
        path: Path::new(),
        property: Box::default(),
    };
    let mut said = Vec::new();
    for (role, not_object_name) in [
        (Role::Input, "arguments_not_object"),
        (Role::Output, "result_not_object"),
    ] {
        said.push((
            Some(not_object_name),
            not_object.message(role).into_owned(),
            Said::WholeValue,
        ));
        for error in &whole {
            said.push((None, error.message(role).into_owned(), Said::WholeValue));
        }
        said.push((None, missing.message(role).into_owned(), Said::Missing));
    }
    said.push((
        Some("structured_content_missing"),
        STRUCTURED_CONTENT_MISSING.to_owned(),
        Said::WholeValue,
    ));
    said.push((
        Some("compiled_schema_invalid"),
        COMPILED_SCHEMA_INVALID.to_owned(),
        Said::Operator,
    ));
    said
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

pub use crate::report::path::Path;

#[derive(Debug)]
pub enum Error<V> {
    SchemaRequired,
    SchemaNotMap,
    NotMaps,
    RootNotObject,
    UnknownKeyword {
        keyword: V,
    },
    OneOfSiblings {
        keywords: Vec<V>,
    },
    UnsupportedType {
        type_: V,
    },
    /// `keyword`: its name, reported as an atom.
    KeywordNotForType {
        keyword: &'static str,
    },
    TooDeep,
    /// Its compiled form would pass `budget::MAX_KEPT_BYTES`.
    TooLarge,
    /// The call spent `budget::WORK_CAP_UNITS` (or its caller exited) before an answer.
    WorkLimit,
    SchemaNotAMap,
    TypeRequired,
    BadEnum,
    BadOneOf,
    BadProperties,
    BadPropertyName,
    BadRequired,
    BadAdditionalProperties,
    BadMinimum,
    MissingRequired {
        path: Path,
        property: Box<[u8]>,
    },
    AdditionalProperty {
        path: Path,
        property: V,
    },
    WrongType {
        path: Path,
        type_: TypeLabel,
    },
    BelowMinimum {
        path: Path,
        minimum: Number,
    },
    NotInEnum {
        path: Path,
    },
    OneOfMismatch {
        path: Path,
    },
    /// `validate_json`: the arguments given are not a binary.
    JsonTextNotBinary,
    /// `validate_json`: `offset` is the zero-based byte offset of the first unreadable byte
    /// (kept as a `Number` so that bridges report it like every other number).
    InvalidJson {
        offset: Number,
    },
    /// `validate_json`: the text holds nothing but whitespace, if that.
    EmptyJsonText,
    /// At the tool boundary, arguments that are no object: JSON text of another value, or a
    /// term that is no map against a compiled schema (a raw schema's gate blames the pair,
    /// `NotMaps`, as the subset's contract does).
    ArgumentsNotObject,
    /// `validate_json`, or a map holding a key both as an atom and as a string: `path` and
    /// `pointer` are the object's, `property` the repeated key.
    DuplicateKey {
        path: Path,
        pointer: Path,
        property: Box<[u8]>,
    },
    /// `validate_json`: a number beyond every float, or an integer of too many digits.
    NumberTooLarge {
        path: Path,
        pointer: Path,
    },
    /// JSON modes: a keyword's assertion failed (boxed: the other errors are small).
    Assertion(Box<KeywordFailure<V>>),
    UnsupportedDialect {
        schema: Literal,
    },
    UnsupportedVocabulary {
        vocabulary: Box<str>,
    },
    /// JSON modes with `strict: true`: a keyword outside the dialect's vocabularies.
    StrictUnknownKeyword {
        keyword: Box<str>,
        schema_path: Box<str>,
    },
    InvalidKeywordValue {
        keyword: Box<str>,
        schema_path: Box<str>,
    },
    SchemaNotJson {
        schema_path: Box<str>,
    },
    DuplicateSchemaKey {
        keyword: Box<str>,
        schema_path: Box<str>,
    },
    ExternalReference {
        reference: Box<str>,
    },
    UnresolvedReference {
        reference: Box<str>,
        schema_path: Box<str>,
    },
    /// Two schemas name one URI; `other_schema_path` is where it was met first.
    AmbiguousIdentifier {
        identifier: Box<str>,
        schema_path: Box<str>,
        other_schema_path: Box<str>,
    },
    /// A schema's `$id` names a document of the caller's registry or a built-in meta-schema.
    IdentifierTaken {
        identifier: Box<str>,
        schema_path: Box<str>,
    },
    UnsupportedPattern {
        keyword: Box<str>,
        schema_path: Box<str>,
    },
    /// JSON modes: the tool boundary's root type.
    RootTypeNotObject {
        type_: Literal,
    },
    /// JSON modes: an argument map key that is neither a string nor an atom.
    ArgumentKeyNotString {
        path: Path,
        pointer: Path,
    },
    /// JSON modes: an argument JSON cannot carry (a tuple, pid, reference, function, struct).
    ArgumentNotJson {
        path: Path,
        pointer: Path,
    },
    /// JSON modes: an atom key that the host cannot find by its own name, so that no keyword
    /// reading names could find its value.
    ArgumentKeyUnreadable {
        path: Path,
        pointer: Path,
        property: V,
    },
    /// The quick walk found the arguments invalid and the reporting walk found no error: a
    /// bug in one of them, answered as an error rather than a pass. `keyword` is the root
    /// schema's check the quick walk failed on.
    Unreported {
        keyword: &'static str,
        path: Path,
        schema_path: Box<str>,
    },
    /// JSON modes: references that apply schemas to one value in a cycle, with no end.
    ReferenceLoop {
        schema_path: Box<str>,
    },
}

impl<V> Error<V> {
    /// The message, as written for arguments: the one table of the messages the errors
    /// give (a result's own words are `message`'s).
    pub fn text(&self) -> &'static str {
        match self {
            Error::SchemaRequired => "tool schema is required",
            Error::SchemaNotMap => "tool schema must be a map",
            Error::NotMaps => "tool schema and arguments must be maps",
            Error::RootNotObject => message::ROOT_NOT_OBJECT,
            Error::UnknownKeyword { .. } => message::UNKNOWN_KEYWORD,
            Error::OneOfSiblings { .. } => "oneOf sibling keywords are unsupported",
            Error::UnsupportedType { .. } => "property schema type is unsupported",
            Error::KeywordNotForType { .. } => "schema keyword is unsupported for this type",
            Error::TooDeep => "schema nesting is too deep",
            Error::TooLarge => "schema is too large",
            Error::WorkLimit => "validation work limit exceeded",
            Error::SchemaNotAMap => "property schema must be a map",
            Error::TypeRequired => "property schema type is required",
            Error::BadEnum => "schema enum must be a list of JSON values",
            Error::BadOneOf => "schema oneOf must be a non-empty list",
            Error::BadProperties => "schema properties must be a map",
            Error::BadPropertyName => "schema property names must be strings or atoms",
            Error::BadRequired => "schema required must be a list of property names",
            Error::BadAdditionalProperties => "schema additionalProperties must be a boolean",
            Error::BadMinimum => "schema minimum must be a number",
            Error::MissingRequired { .. } => message::MISSING_REQUIRED,
            Error::AdditionalProperty { .. } => message::ADDITIONAL_PROPERTY,
            Error::WrongType { .. } => message::WRONG_TYPE,
            Error::BelowMinimum { .. } => message::BELOW_MINIMUM,
            Error::NotInEnum { .. } => message::NOT_IN_ENUM,
            Error::OneOfMismatch { .. } => message::ONE_OF_MISMATCH,
            Error::JsonTextNotBinary => "tool arguments must be JSON text",
            Error::InvalidJson { .. } => "tool arguments are not valid JSON",
            Error::EmptyJsonText => "tool arguments JSON text is empty",
            Error::ArgumentsNotObject => "tool arguments must be a JSON object",
            Error::DuplicateKey { .. } => "tool arguments contain a duplicate key",
            Error::NumberTooLarge { .. } => "tool argument number is too large",
            Error::Assertion(failure) => failure.assertion.text(),
            Error::UnsupportedDialect { .. } => "JSON Schema dialect is unsupported",
            Error::UnsupportedVocabulary { .. } => "JSON Schema vocabulary is unsupported",
            Error::StrictUnknownKeyword { .. } => message::UNKNOWN_KEYWORD,
            Error::InvalidKeywordValue { .. } => "schema keyword value is invalid",
            Error::SchemaNotJson { .. } => "schema values must be JSON values",
            Error::DuplicateSchemaKey { .. } => "schema contains duplicate keys",
            Error::ExternalReference { .. } => {
                "external schema reference requires an explicit loader"
            }
            Error::UnresolvedReference { .. } => "schema reference could not be resolved",
            Error::AmbiguousIdentifier { .. } => "schema identifiers are ambiguous",
            Error::IdentifierTaken { .. } => "schema identifier belongs to another document",
            Error::UnsupportedPattern { .. } => "schema pattern is unsupported",
            Error::RootTypeNotObject { .. } => message::ROOT_NOT_OBJECT,
            Error::ArgumentKeyNotString { .. } => "tool argument keys must be strings",
            Error::ArgumentNotJson { .. } => "tool argument is not a JSON value",
            Error::ArgumentKeyUnreadable { .. } => "tool argument key cannot be read by its name",
            Error::Unreported { .. } => "tool argument failed a check that reported no error",
            Error::ReferenceLoop { .. } => "schema references loop without progress",
        }
    }
}

impl<V> fmt::Display for Error<V> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.text())
    }
}

impl<V: fmt::Debug> std::error::Error for Error<V> {}

/// A JSON-mode argument error: the assertion that failed at `path` (and at `pointer`, the
/// same place as an RFC 6901 pointer below the root), the keyword and its JSON pointer
/// (`schema_path`), the argument key an object keyword refused, what came (`actual`) and, for
/// `anyOf`/`oneOf`, the first error of each branch that failed.
#[derive(Debug)]
pub struct KeywordFailure<V> {
    pub assertion: Assertion,
    pub keyword: &'static str,
    /// Its path, pointer, schema path and evaluation path.
    pub places: Places,
    pub property: Option<V>,
    pub actual: Option<Actual>,
    pub branches: Vec<BranchError<V>>,
}

/// The first error of one `anyOf`/`oneOf` branch, by its index.
pub type BranchError<V> = (usize, Error<V>);

/// The most branches whose first error an `anyOf`/`oneOf` error carries (the first ones that
/// failed, in order); their own branches are not reported.
pub const MAX_BRANCH_ERRORS: usize = 8;

/// The most values an error lists (an `enum`'s, the names `additionalProperties: false`
/// allows, a tag's), each a scalar, the rest counted; and the longest string it (or a `const`
/// error) lists, in bytes. A longer string, an array or an object is not listed.
pub const MAX_LISTED_VALUES: usize = 64;
pub const MAX_LISTED_BYTES: usize = 64;

/// What came, beside what the keyword expected: made only when its error is.
#[derive(Clone, Debug)]
pub enum Actual {
    /// The value's JSON type.
    Type(&'static str),
    /// The number that broke a bound.
    Number(Number),
    /// The string's length in characters, the array's items, the object's properties, or the
    /// items `contains` matched.
    Size(u64),
    /// The `oneOf` branches the value matched: none, or several.
    Matched(Box<[usize]>),
}

impl Actual {
    /// Bytes it copies into its error, for the error's price.
    pub fn copied_bytes(&self) -> usize {
        match self {
            Actual::Number(number) => number.byte_size(),
            Actual::Matched(indices) => indices.len() * 8,
            Actual::Type(_) | Actual::Size(_) => 0,
        }
    }
}

/// An assertion and what came, as a failing check reports them.
pub struct Failed {
    pub assertion: Assertion,
    pub actual: Option<Actual>,
}

impl From<Assertion> for Failed {
    fn from(assertion: Assertion) -> Self {
        Failed {
            assertion,
            actual: None,
        }
    }
}

impl From<(Assertion, Actual)> for Failed {
    fn from((assertion, actual): (Assertion, Actual)) -> Self {
        Failed {
            assertion,
            actual: Some(actual),
        }
    }
}

/// The values an error may list: `Some` for scalars and short strings only.
pub fn listed_value(value: &Literal) -> Option<Literal> {
    match value {
        Literal::String(text) if text.len() > MAX_LISTED_BYTES => None,
        Literal::Array(_) | Literal::Object(_) => None,
        scalar => Some(scalar.clone()),
    }
}

/// A detail value, for a bridge to encode.
#[derive(Debug)]
pub enum Field<'e, V> {
    /// A binary (required names, type names written as strings, references).
    Binary(&'e [u8]),
    /// The place of the value in the arguments (`$arguments.a[0]`): said under the root of the
    /// value's role (`Role::path`), and as long as the way to it.
    Path(&'e [u8]),
    /// Another place (a pointer into the arguments, a place in the schema): as long as the way
    /// to it.
    Place(&'e [u8]),
    Atom(&'static str),
    /// A term as the caller wrote it.
    Term(V),
    Terms(&'e [V]),
    /// The detail maps of branch errors, each with its `branch` index.
    Branches(&'e [BranchError<V>]),
    /// A list of indices (the `oneOf` branches matched).
    Indices(&'e [usize]),
    Number(&'e Number),
    /// A JSON value kept by a compiled schema.
    Literal(&'e Literal),
    Unsigned(u64),
}

/// What the value checked is to the caller: a tool call's arguments, or a tool's result
/// (`role: :output`, checked against the tool's output schema). The errors say so in their
/// messages (`message`) and their paths' root (`Path::in_role`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Role {
    #[default]
    Input,
    Output,
}

impl Role {
    /// `path`, made under `ARGUMENTS` by a walk, as this role says it: a result's paths start
    /// at `RESULT` instead (a walk's own root is always `ARGUMENTS` or `ANY_ROOT`).
    pub fn path<'p>(self, path: &'p [u8]) -> Cow<'p, [u8]> {
        match (self, path.strip_prefix(ARGUMENTS)) {
            (Role::Output, Some(rest)) => Cow::Owned([RESULT, rest].concat()),
            _ => Cow::Borrowed(path),
        }
    }
}

impl<V> Error<V> {
    /// The message in `role`'s words: `text`'s for arguments; for a result, the
    /// messages about the value speak of the result ("result has the wrong type", "required
    /// result property is missing"), and those of the schema, options and host do not change.
    pub fn message(&self, role: Role) -> Cow<'static, str> {
        let written = self.text();
        if role == Role::Input {
            return Cow::Borrowed(written);
        }
        let irregular = match self {
            Error::NotMaps => Some("output schema and result must be maps"),
            Error::MissingRequired { .. } => Some("required result property is missing"),
            Error::AdditionalProperty { .. } => Some("additional result property is not allowed"),
            Error::JsonTextNotBinary => Some("result must be JSON text"),
            Error::InvalidJson { .. } => Some("result is not valid JSON"),
            Error::EmptyJsonText => Some("result JSON text is empty"),
            Error::ArgumentsNotObject => Some("result must be a JSON object"),
            Error::DuplicateKey { .. } => Some("result contains a duplicate key"),
            Error::ArgumentKeyNotString { .. } => Some("result keys must be strings"),
            Error::ArgumentKeyUnreadable { .. } => Some("result key cannot be read by its name"),
            Error::Assertion(failure) => match failure.assertion {
                Assertion::Required(_) => Some("required result property is missing"),
                Assertion::AdditionalProperty(_) => {
                    Some("additional result property is not allowed")
                }
                Assertion::UnevaluatedProperty => {
                    Some("unevaluated result property is not allowed")
                }
                Assertion::AdditionalItem => Some("additional result item is not allowed"),
                Assertion::UnevaluatedItem => Some("unevaluated result item is not allowed"),
                Assertion::PropertyName => Some("result property name is not allowed"),
                _ => None,
            },
            _ => None,
        };
        match irregular {
            Some(message) => Cow::Borrowed(message),
            // The rest say "tool argument" of the value, and "result" in its place reads.
            None => Cow::Owned(written.replace("tool argument", "result")),
        }
    }
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
        let mut fields = Vec::new();
        self.each_field(|key, field| fields.push((key, field)));
        fields
    }

    /// `fields`, each given to `give` in turn: what an encoder reads without gathering a list.
    pub fn each_field<'e>(&'e self, mut give: impl FnMut(&'static str, Field<'e, V>)) {
        match self {
            Error::UnknownKeyword { keyword } => give("keyword", Field::Term(*keyword)),
            Error::OneOfSiblings { keywords } => give("keywords", Field::Terms(keywords)),
            Error::UnsupportedType { type_ } => give(name::TYPE, Field::Term(*type_)),
            Error::KeywordNotForType { keyword } => give("keyword", Field::Atom(keyword)),
            Error::MissingRequired { path, property } => {
                give("path", Field::Path(path));
                give("property", Field::Binary(property));
            }
            Error::AdditionalProperty { path, property } => {
                give("path", Field::Path(path));
                give("property", Field::Term(*property));
            }
            Error::WrongType { path, type_ } => {
                give("path", Field::Path(path));
                give(
                    name::TYPE,
                    if type_.atom {
                        Field::Atom(type_.name)
                    } else {
                        Field::Binary(type_.name.as_bytes())
                    },
                );
            }
            Error::BelowMinimum { path, minimum } => {
                give("path", Field::Path(path));
                give(name::MINIMUM, Field::Number(minimum));
            }
            Error::NotInEnum { path } | Error::OneOfMismatch { path } => {
                give("path", Field::Path(path))
            }
            Error::NumberTooLarge { path, pointer } => {
                give("path", Field::Path(path));
                give("pointer", Field::Place(pointer));
            }
            Error::InvalidJson { offset } => give("offset", Field::Number(offset)),
            Error::Assertion(failure) => {
                let KeywordFailure {
                    assertion,
                    keyword,
                    places,
                    property,
                    actual,
                    branches,
                } = &**failure;
                give("path", Field::Path(places.path()));
                give("pointer", Field::Place(places.pointer()));
                give("keyword", Field::Binary(keyword.as_bytes()));
                give("schema_path", Field::Place(places.schema_path_bytes()));
                if let Some(evaluation_path) = places.evaluation_path_bytes() {
                    give("evaluation_path", Field::Place(evaluation_path));
                }
                assertion.each_detail(|name, detail| {
                    give(
                        name,
                        match detail {
                            Detail::Literal(literal) => Field::Literal(literal),
                            Detail::Number(number) => Field::Number(number),
                            Detail::Count(count) => Field::Unsigned(count),
                            Detail::Text(text) => Field::Binary(text.as_bytes()),
                        },
                    );
                });
                if let Some(property) = property {
                    give("property", Field::Term(*property));
                }
                match actual {
                    Some(Actual::Type(name)) => {
                        give("actual", Field::Binary(name.as_bytes()));
                    }
                    Some(Actual::Number(number)) => give("actual", Field::Number(number)),
                    Some(Actual::Size(size)) => give("actual", Field::Unsigned(*size)),
                    Some(Actual::Matched(indices)) => {
                        give("matched", Field::Indices(indices));
                    }
                    None => {}
                }
                if !branches.is_empty() {
                    give("branches", Field::Branches(branches));
                }
            }
            Error::UnsupportedDialect { schema } => give("schema", Field::Literal(schema)),
            Error::UnsupportedVocabulary { vocabulary } => {
                give("vocabulary", Field::Binary(vocabulary.as_bytes()))
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
            } => {
                give("keyword", Field::Binary(keyword.as_bytes()));
                give("schema_path", Field::Place(schema_path.as_bytes()));
            }
            Error::SchemaNotJson { schema_path } | Error::ReferenceLoop { schema_path } => {
                give("schema_path", Field::Place(schema_path.as_bytes()))
            }
            Error::ExternalReference { reference } => {
                give("reference", Field::Binary(reference.as_bytes()))
            }
            Error::UnresolvedReference {
                reference,
                schema_path,
            } => {
                give("reference", Field::Binary(reference.as_bytes()));
                give("schema_path", Field::Place(schema_path.as_bytes()));
            }
            Error::AmbiguousIdentifier {
                identifier,
                schema_path,
                other_schema_path,
            } => {
                give("identifier", Field::Binary(identifier.as_bytes()));
                give("schema_path", Field::Place(schema_path.as_bytes()));
                give(
                    "other_schema_path",
                    Field::Binary(other_schema_path.as_bytes()),
                );
            }
            Error::IdentifierTaken {
                identifier,
                schema_path,
            } => {
                give("identifier", Field::Binary(identifier.as_bytes()));
                give("schema_path", Field::Place(schema_path.as_bytes()));
            }
            Error::RootTypeNotObject { type_ } => give(name::TYPE, Field::Literal(type_)),
            Error::ArgumentKeyNotString { path, pointer }
            | Error::ArgumentNotJson { path, pointer } => {
                give("path", Field::Path(path));
                give("pointer", Field::Place(pointer));
            }
            Error::Unreported {
                keyword,
                path,
                schema_path,
            } => {
                give("path", Field::Path(path));
                // The value as a whole: the walks agree on every part they both read.
                give("pointer", Field::Place(b""));
                give("keyword", Field::Binary(keyword.as_bytes()));
                give("schema_path", Field::Place(schema_path.as_bytes()));
            }
            Error::ArgumentKeyUnreadable {
                path,
                pointer,
                property,
            } => {
                give("path", Field::Path(path));
                give("pointer", Field::Place(pointer));
                give("property", Field::Term(*property));
            }
            Error::DuplicateKey {
                path,
                pointer,
                property,
            } => {
                give("path", Field::Path(path));
                give("pointer", Field::Place(pointer));
                give("property", Field::Binary(property));
            }
            _ => {}
        }
    }
}

/// A failed assertion, reported under the keyword's name.
#[derive(Clone, Debug)]
pub enum Assertion {
    Type(Arc<Literal>),
    /// The values allowed, as many as an error lists (`Listing::of`).
    Enum(Option<Box<Listing>>),
    /// The constant, when it can be listed (`listed_value`).
    Const(Option<Literal>),
    MultipleOf(Number),
    Minimum(Number),
    ExclusiveMinimum(Number),
    Maximum(Number),
    ExclusiveMaximum(Number),
    MinLength(u64),
    MaxLength(u64),
    Pattern(Box<str>),
    Format(Box<str>),
    ContentEncoding(Box<str>),
    ContentMediaType(Box<str>),
    ContentSchema,
    MinItems(u64),
    MaxItems(u64),
    UniqueItems,
    MinContains(u64),
    MaxContains(u64),
    Required(Arc<str>),
    /// `additionalProperties: false`, with the names and patterns the object does allow (the
    /// JSON modes; none where the keyword is no `false`).
    AdditionalProperty(Option<Box<Allowed>>),
    UnevaluatedProperty,
    AdditionalItem,
    UnevaluatedItem,
    PropertyName,
    MinProperties(u64),
    MaxProperties(u64),
    AnyOf,
    /// No branch matched.
    OneOf,
    OneOfSeveral,
    /// An `anyOf`/`oneOf` whose branches a property tells apart, and the value's tag (missing,
    /// or a value no branch admits) picks none of them.
    Tag(Box<TagMiss>),
    Not,
    False,
}

impl Assertion {
    /// The message of a failed assertion, as written for arguments.
    pub fn text(&self) -> &'static str {
        match self {
            Assertion::Type(..) => message::WRONG_TYPE,
            Assertion::Enum(..) => message::NOT_IN_ENUM,
            Assertion::Const(..) => "tool argument does not equal the constant",
            Assertion::MultipleOf(..) => "tool argument is not a multiple of the divisor",
            Assertion::Minimum(..) => message::BELOW_MINIMUM,
            Assertion::ExclusiveMinimum(..) => "tool argument is not above the exclusive minimum",
            Assertion::Maximum(..) => "tool argument is above the maximum",
            Assertion::ExclusiveMaximum(..) => "tool argument is not below the exclusive maximum",
            Assertion::MinLength(..) => "tool argument is shorter than the minimum length",
            Assertion::MaxLength(..) => "tool argument is longer than the maximum length",
            Assertion::Pattern(..) => "tool argument does not match the pattern",
            Assertion::Format(..) => "tool argument does not match the format",
            Assertion::ContentEncoding(..) => "tool argument does not match the content encoding",
            Assertion::ContentMediaType(..) => {
                "tool argument does not match the content media type"
            }
            Assertion::ContentSchema => "tool argument does not match the content schema",
            Assertion::MinItems(..) => "tool argument has too few items",
            Assertion::MaxItems(..) => "tool argument has too many items",
            Assertion::UniqueItems => "tool argument has duplicate items",
            Assertion::MinContains(..) => "tool argument has too few matching items",
            Assertion::MaxContains(..) => "tool argument has too many matching items",
            Assertion::Required(..) => message::MISSING_REQUIRED,
            Assertion::AdditionalProperty(..) => message::ADDITIONAL_PROPERTY,
            Assertion::UnevaluatedProperty => "unevaluated tool argument is not allowed",
            Assertion::AdditionalItem => "additional tool argument item is not allowed",
            Assertion::UnevaluatedItem => "unevaluated tool argument item is not allowed",
            Assertion::PropertyName => "tool argument name is not allowed",
            Assertion::MinProperties(..) => "tool argument has too few properties",
            Assertion::MaxProperties(..) => "tool argument has too many properties",
            Assertion::AnyOf => "tool argument must match at least one anyOf branch",
            Assertion::OneOf => message::ONE_OF_MISMATCH,
            Assertion::OneOfSeveral => "tool argument matches more than one oneOf branch",
            Assertion::Tag(..) => "tool argument tag matches no branch",
            Assertion::Not => "tool argument must not match the negated schema",
            Assertion::False => "tool argument is not allowed",
        }
    }
}

impl fmt::Display for Assertion {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.text())
    }
}

/// A detail value of an assertion.
#[derive(Debug)]
pub enum Detail<'e> {
    Literal(&'e Literal),
    Number(&'e Number),
    Count(u64),
    Text(&'e str),
}

/// Values an error lists, cut to an error's measure (`MAX_LISTED_VALUES`, each scalar and
/// short): the first of them as an array, and how many more were left out.
#[derive(Clone, Debug)]
pub struct Listing {
    pub values: Literal,
    pub unlisted: u64,
}

impl Listing {
    /// The listing of `values`, in order: the first `MAX_LISTED_VALUES` that an error lists
    /// (`listed_value`), the rest counted; `None` when none can be listed.
    pub fn of<'v>(values: impl ExactSizeIterator<Item = &'v Literal>) -> Option<Listing> {
        let total = values.len();
        let listed: Vec<Literal> = values
            .filter_map(listed_value)
            .take(MAX_LISTED_VALUES)
            .collect();
        (!listed.is_empty()).then(|| Listing::cut(listed, total))
    }

    /// The listing of strings, as `of` makes it, but empty rather than none.
    pub fn strings<'v>(strings: impl ExactSizeIterator<Item = &'v str>) -> Listing {
        let total = strings.len();
        let listed: Vec<Literal> = strings
            .filter(|text| text.len() <= MAX_LISTED_BYTES)
            .take(MAX_LISTED_VALUES)
            .map(|text| Literal::String(text.into()))
            .collect();
        Listing::cut(listed, total)
    }

    fn cut(listed: Vec<Literal>, total: usize) -> Listing {
        let unlisted = total.saturating_sub(listed.len()) as u64;
        Listing {
            values: Literal::Array(listed.into()),
            unlisted,
        }
    }

    /// Its details: the values under `name`, and `unlisted` when some were left out.
    fn give<'e>(&'e self, name: &'static str, take: &mut impl FnMut(&'static str, Detail<'e>)) {
        take(name, Detail::Literal(&self.values));
        if self.unlisted > 0 {
            take("unlisted", Detail::Count(self.unlisted));
        }
    }

    /// Bytes it copies into an error, for the error's price.
    pub fn byte_size(&self) -> usize {
        let values = self.values.items().unwrap_or_default();
        values
            .iter()
            .map(|value| 16 + value.as_str().map_or(0, str::len))
            .sum()
    }
}

/// What an object with `additionalProperties: false` allows: its property names (an empty
/// listing when it has none), and its `patternProperties` patterns.
#[derive(Clone, Debug)]
pub struct Allowed {
    pub names: Listing,
    pub patterns: Option<Listing>,
}

/// The tag property of an `anyOf`/`oneOf` a value's tag did not match: its name, the tag
/// values the branches admit (in branch order), and the value's own tag when it is a scalar
/// an error lists (none when the property is missing).
#[derive(Clone, Debug)]
pub struct TagMiss {
    pub property: Box<str>,
    pub allowed: Listing,
    pub actual: Option<Literal>,
}

impl Assertion {
    /// The keyword's own value under the name it is reported with, and what else the error
    /// names of the schema (what it allows), in order.
    /// Each is given to `take`, so that the caller keeps them where it wants them.
    pub fn each_detail<'e>(&'e self, mut take: impl FnMut(&'static str, Detail<'e>)) {
        match self {
            Assertion::Enum(Some(values)) => values.give(name::ENUM, &mut take),
            Assertion::AdditionalProperty(Some(allowed)) => {
                allowed.names.give("allowed", &mut take);
                if let Some(patterns) = &allowed.patterns {
                    take("allowed_patterns", Detail::Literal(&patterns.values));
                    if patterns.unlisted > 0 {
                        take("unlisted_patterns", Detail::Count(patterns.unlisted));
                    }
                }
            }
            Assertion::Tag(miss) => {
                take("property", Detail::Text(&miss.property));
                miss.allowed.give("allowed", &mut take);
                if let Some(actual) = &miss.actual {
                    take("actual", Detail::Literal(actual));
                }
            }
            _ => {
                if let Some((name, detail)) = self.detail() {
                    take(name, detail);
                }
            }
        }
    }

    /// The keyword's own value, under the name it is reported with.
    fn detail(&self) -> Option<(&'static str, Detail<'_>)> {
        Some(match self {
            Assertion::Type(types) => (name::TYPE, Detail::Literal(types)),
            Assertion::Const(Some(value)) => (name::CONST, Detail::Literal(value)),
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
            Assertion::Enum(Some(listing)) => listing.byte_size(),
            Assertion::AdditionalProperty(Some(allowed)) => {
                allowed.names.byte_size() + allowed.patterns.as_ref().map_or(0, Listing::byte_size)
            }
            Assertion::Tag(miss) => {
                miss.property.len()
                    + miss.allowed.byte_size()
                    + miss
                        .actual
                        .as_ref()
                        .map_or(0, |actual| 16 + actual.as_str().map_or(0, str::len))
            }
            Assertion::Const(Some(_)) => MAX_LISTED_BYTES + 16,
            Assertion::Required(text) => text.len(),
            Assertion::Pattern(text)
            | Assertion::Format(text)
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

impl<V> From<JsonError> for Error<V> {
    /// The error of a text given as tool arguments, with paths under `$arguments`.
    fn from(error: JsonError) -> Self {
        error.under(crate::report::path::ARGUMENTS)
    }
}

impl JsonError {
    /// The error of a text whose paths start at `root` (`$arguments`, or `$` for a value that
    /// is no tool's arguments).
    pub fn under<V>(self, root: &[u8]) -> Error<V> {
        let under_root = |location: Path| [root, &location].concat();
        match self {
            JsonError::Malformed { offset } => Error::InvalidJson {
                offset: Number::Int(i64::try_from(offset).unwrap_or(i64::MAX)),
            },
            JsonError::DuplicateKey {
                location,
                pointer,
                key,
            } => Error::DuplicateKey {
                path: under_root(location),
                pointer,
                property: key,
            },
            JsonError::NumberTooLarge { location, pointer } => Error::NumberTooLarge {
                path: under_root(location),
                pointer,
            },
        }
    }
}

/// How many argument errors to report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Stop at the first error (the contract's default).
    First,
    /// Go on after an error, up to this many errors.
    All { max_errors: usize },
}

impl Mode {
    /// Whether a walk that has recorded `errors` errors, taking `error_bytes`, goes on looking
    /// for more: only under `All`, below its count and below `ERRORS_MAX_BYTES`.
    pub(crate) fn goes_on(self, errors: usize, error_bytes: usize) -> bool {
        match self {
            Mode::All { max_errors } => errors < max_errors && error_bytes < ERRORS_MAX_BYTES,
            Mode::First => false,
        }
    }

    /// Counts an error just recorded, of `bytes` copied, into `error_bytes` (with `errors`
    /// recorded in all), and says whether the walk goes on (`Ok(false)`) or stops
    /// (`Err(Failed)`).
    pub(crate) fn after_error(self, errors: usize, error_bytes: &mut usize, bytes: usize) -> Flow {
        *error_bytes = error_bytes.saturating_add(bytes.saturating_add(ERROR_BYTES));
        if self.goes_on(errors, *error_bytes) {
            Ok(false)
        } else {
            Err(Halt::Failed)
        }
    }
}

/// Bytes that the errors of one `Mode::All` answer may take, each counting what it copies
/// (its path, a required name, a big minimum) and `ERROR_BYTES` for the rest of it: past this
/// the walk stops, as at `max_errors`, with the error that passed it kept. Each error copies
/// its own path, so a few errors under a long key, or a great many small errors (`max_errors`
/// may be that large), would take gigabytes; no useful answer needs a fraction of this.
pub const ERRORS_MAX_BYTES: usize = 64 << 20;

/// What an error takes besides its copies, at the peak of making its answer (the Rust error,
/// then its detail map and message as terms), rounded up.
pub const ERROR_BYTES: usize = 1024;

/// A custom format defined by a host function, and the string it must answer for.
pub type Asked = (Box<str>, Box<[u8]>);

/// The most distinct strings a call asks its host's format functions about.
pub const MAX_FORMAT_ASKS: usize = 100;

/// Why a value was not accepted.
#[derive(Debug)]
pub enum Failure<V> {
    /// The entry gate or the schema phase refused; `location` is where in the schema
    /// (`properties.a.items`, empty for the root).
    Schema { error: Error<V>, location: Path },
    /// The arguments do not satisfy the schema: the first error, or all of them (never empty).
    Arguments(Vec<Error<V>>),
    /// The work budget ran out; nothing was decided.
    Exhausted,
    /// Nothing was decided: the host's format functions must answer these first (each
    /// distinct, in the order met; one more than `MAX_FORMAT_ASKS` when there are too many).
    Unanswered(Vec<Asked>),
}

/// What stops a profile's compiler: a schema error where it sits, or the budget.
pub(crate) enum Stop<V> {
    Schema { error: Error<V>, location: Path },
    Exhausted,
}

impl<V> From<Exhausted> for Stop<V> {
    fn from(_: Exhausted) -> Self {
        Stop::Exhausted
    }
}

impl<V> Error<V> {
    /// Where a schema error sits, for `locate: true`: the place the JSON modes' errors name,
    /// empty for the others.
    fn schema_location(&self) -> Path {
        match self {
            Error::StrictUnknownKeyword { schema_path, .. }
            | Error::InvalidKeywordValue { schema_path, .. }
            | Error::DuplicateSchemaKey { schema_path, .. }
            | Error::UnsupportedPattern { schema_path, .. }
            | Error::SchemaNotJson { schema_path }
            | Error::UnresolvedReference { schema_path, .. }
            | Error::ReferenceLoop { schema_path }
            | Error::AmbiguousIdentifier { schema_path, .. }
            | Error::IdentifierTaken { schema_path, .. } => schema_path.as_bytes().to_vec(),
            _ => Path::new(),
        }
    }
}

impl<V> Stop<V> {
    /// A schema error that names its own place (the JSON modes' `schema_path`), or none.
    pub fn schema(error: Error<V>) -> Self {
        let location = error.schema_location();
        Stop::Schema { error, location }
    }

    /// The answer of a compilation that stopped: running out of budget is the schema's being
    /// too large when what it kept passed the limit.
    pub fn failure(self, budget: &Budget) -> Failure<V> {
        match self {
            Stop::Schema { error, location } => Failure::Schema { error, location },
            Stop::Exhausted if budget.is_too_large() => Failure::schema(Error::TooLarge),
            Stop::Exhausted => Failure::Exhausted,
        }
    }
}

impl<V> Failure<V> {
    pub(crate) fn schema(error: Error<V>) -> Self {
        Failure::Schema {
            error,
            location: Path::new(),
        }
    }

    /// The error a single-error answer reports.
    pub fn first(&self) -> Option<&Error<V>> {
        match self {
            Failure::Schema { error, .. } => Some(error),
            Failure::Arguments(errors) => errors.first(),
            Failure::Exhausted | Failure::Unanswered(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn the_said_messages_hold_each_message_once_in_both_roles() {
        let said = said_messages();
        let messages: std::collections::HashSet<&str> = said
            .iter()
            .map(|(_, message, _)| message.as_str())
            .collect();
        assert_eq!(messages.len(), said.len());
        let of = |message: &str| {
            said.iter()
                .find(|(_, said_message, _)| said_message == message)
                .map(|(name, _, said)| (*name, *said))
        };
        let not_object: Error<()> = Error::ArgumentsNotObject;
        assert_eq!(
            of(&not_object.message(Role::Input)),
            Some((Some("arguments_not_object"), Said::WholeValue))
        );
        assert_eq!(
            of("result must be a JSON object"),
            Some((Some("result_not_object"), Said::WholeValue))
        );
        assert_eq!(
            of("result JSON text is empty"),
            Some((None, Said::WholeValue))
        );
        assert_eq!(of(message::MISSING_REQUIRED), Some((None, Said::Missing)));
        assert_eq!(
            of("required result property is missing"),
            Some((None, Said::Missing))
        );
        assert_eq!(
            of(COMPILED_SCHEMA_INVALID),
            Some((Some("compiled_schema_invalid"), Said::Operator))
        );
        // Messages with a path say where they are by it: the table leaves them out.
        assert_eq!(of(message::ADDITIONAL_PROPERTY), None);
    }

    #[test]
    fn errors_become_tool_argument_errors() {
        let error: Error<()> = JsonError::DuplicateKey {
            location: b".a[2]".to_vec(),
            pointer: b"/a/2".to_vec(),
            key: Box::from(&b"k"[..]),
        }
        .into();
        assert!(matches!(
            &error,
            Error::DuplicateKey { path, pointer, property }
                if path == b"$arguments.a[2]" && pointer == b"/a/2" && &**property == b"k"
        ));
        assert_eq!(error.to_string(), "tool arguments contain a duplicate key");
        let error: Error<()> = JsonError::Malformed { offset: 7 }.into();
        assert!(matches!(
            error,
            Error::InvalidJson {
                offset: Number::Int(7)
            }
        ));
        let error: Error<()> = JsonError::NumberTooLarge {
            location: Vec::new(),
            pointer: Vec::new(),
        }
        .into();
        assert!(matches!(
            &error,
            Error::NumberTooLarge { path, pointer } if path == b"$arguments" && pointer.is_empty()
        ));
    }

    fn strings(listing: &Listing) -> Vec<String> {
        let items = listing.values.items().unwrap_or_default();
        items
            .iter()
            .map(|item| match item {
                Literal::String(text) => text.to_string(),
                other => format!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_listing_keeps_the_first_values_that_list_and_counts_the_rest() {
        let long = "x".repeat(MAX_LISTED_BYTES + 1);
        let values: Vec<Literal> = (0..100)
            .map(|index| match index {
                1 => Literal::String(long.clone().into()),
                2 => Literal::Array(Arc::new([])),
                _ => Literal::String(format!("v{index}").into()),
            })
            .collect();
        let listing = Listing::of(values.iter()).unwrap();
        let listed = strings(&listing);
        assert_eq!(listed.len(), MAX_LISTED_VALUES);
        assert_eq!(listed.first().map(String::as_str), Some("v0"));
        assert_eq!(listed.get(1).map(String::as_str), Some("v3"));
        assert_eq!(listing.unlisted, 100 - MAX_LISTED_VALUES as u64);
        // None of them lists: no listing at all, where an error leaves the keyword's value out.
        assert!(Listing::of([Literal::Array(Arc::new([]))].iter()).is_none());
        // Names: an empty listing says that none is allowed.
        let none = Listing::strings(std::iter::empty());
        assert!(strings(&none).is_empty() && none.unlisted == 0);
        let names = Listing::strings(["a", long.as_str(), "b"].into_iter());
        assert_eq!(strings(&names), ["a", "b"]);
        assert_eq!(names.unlisted, 1);
    }
}
