//! The keyword registry of each dialect: every keyword's name, spelled once here, its
//! vocabulary, and the order in which a schema object's keywords are evaluated (so the first
//! error of an object follows this order, written as data).

use super::literal::Literal;

/// A dialect of JSON Schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Draft {
    Draft2020_12,
    Draft7,
}

/// The standard vocabularies of Draft 2020-12 (draft-07 has none: every keyword is on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Vocabulary {
    Core = 1,
    Applicator = 2,
    Unevaluated = 4,
    Validation = 8,
    MetaData = 16,
    FormatAnnotation = 32,
    Content = 64,
    /// Named by a meta-schema's `$vocabulary` (required or not): `format` is asserted.
    FormatAssertion = 128,
}

/// A set of vocabularies, as the bits of `Vocabulary`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vocabularies(pub u8);

impl Vocabularies {
    /// The standard meta-schema's vocabularies (format as an annotation).
    pub const ALL: Vocabularies = Vocabularies(0x7f);

    pub fn has(self, vocabulary: Vocabulary) -> bool {
        self.0 & vocabulary as u8 != 0
    }
}

/// The vocabulary URIs of Draft 2020-12 that this package implements. The format-assertion
/// vocabulary turns `format` into an assertion.
pub const VOCABULARY_URIS: [(&str, Vocabulary); 8] = [
    (
        "https://json-schema.org/draft/2020-12/vocab/core",
        Vocabulary::Core,
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/applicator",
        Vocabulary::Applicator,
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/unevaluated",
        Vocabulary::Unevaluated,
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/validation",
        Vocabulary::Validation,
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/meta-data",
        Vocabulary::MetaData,
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/format-annotation",
        Vocabulary::FormatAnnotation,
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/content",
        Vocabulary::Content,
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/format-assertion",
        Vocabulary::FormatAssertion,
    ),
];

/// What the compiler does with a keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Ref,
    DynamicRef,
    Type,
    Enum,
    Const,
    MultipleOf,
    Minimum,
    ExclusiveMinimum,
    Maximum,
    ExclusiveMaximum,
    MinLength,
    MaxLength,
    Pattern,
    Format,
    /// `contentEncoding`, and `contentMediaType` (checked once, at the first of them).
    Content,
    MinItems,
    MaxItems,
    UniqueItems,
    PrefixItems,
    /// `items`: a schema for every item after `prefixItems` (2020-12), or a schema or an array
    /// of schemas (draft-07).
    Items,
    /// draft-07 `additionalItems`, read beside an array `items`.
    AdditionalItems,
    Contains,
    Required,
    DependentRequired,
    MinProperties,
    MaxProperties,
    PropertyNames,
    AdditionalProperties,
    Properties,
    PatternProperties,
    DependentSchemas,
    /// draft-07 `dependencies`: per name, a schema or a list of names.
    Dependencies,
    AllOf,
    AnyOf,
    OneOf,
    Not,
    If,
    UnevaluatedItems,
    UnevaluatedProperties,
    /// Read by another keyword's validator (`then`, `else`, `minContains`, ...), or only an
    /// annotation: its value is checked, nothing is evaluated.
    Companion(Value),
    /// A map of schemas reachable only by reference (`$defs`, `definitions`): compiled, so that
    /// an invalid one is found, never evaluated in place.
    Definitions,
}

/// The shape the meta-schema requires of an annotation's or companion's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Any,
    String,
    Boolean,
    /// A schema (an object or a boolean), compiled as one.
    Schema,
    NonNegativeInteger,
    Array,
    /// A map from URIs to booleans (`$vocabulary`).
    VocabularyMap,
    /// `$id`, `$schema`, `$anchor`, `$dynamicAnchor` are checked where they are read.
    Identifier,
}

pub struct Keyword {
    pub name: &'static str,
    pub role: Role,
    pub vocabulary: Vocabulary,
}

const fn keyword(name: &'static str, role: Role, vocabulary: Vocabulary) -> Keyword {
    Keyword {
        name,
        role,
        vocabulary,
    }
}

use Role as R;
use Value as Val;
use Vocabulary as Voc;

/// Draft 2020-12, in evaluation order: references, type, enum/const, numeric, string, array,
/// object, then allOf, anyOf, oneOf, not, if/then/else, unevaluated last. Annotations after.
pub static DRAFT2020_12: &[Keyword] = &[
    keyword("$ref", R::Ref, Voc::Core),
    keyword("$dynamicRef", R::DynamicRef, Voc::Core),
    keyword("type", R::Type, Voc::Validation),
    keyword("enum", R::Enum, Voc::Validation),
    keyword("const", R::Const, Voc::Validation),
    keyword("multipleOf", R::MultipleOf, Voc::Validation),
    keyword("minimum", R::Minimum, Voc::Validation),
    keyword("exclusiveMinimum", R::ExclusiveMinimum, Voc::Validation),
    keyword("maximum", R::Maximum, Voc::Validation),
    keyword("exclusiveMaximum", R::ExclusiveMaximum, Voc::Validation),
    keyword("minLength", R::MinLength, Voc::Validation),
    keyword("maxLength", R::MaxLength, Voc::Validation),
    keyword("pattern", R::Pattern, Voc::Validation),
    keyword("format", R::Format, Voc::FormatAnnotation),
    keyword("contentEncoding", R::Content, Voc::Content),
    keyword("contentMediaType", R::Content, Voc::Content),
    keyword("minItems", R::MinItems, Voc::Validation),
    keyword("maxItems", R::MaxItems, Voc::Validation),
    keyword("uniqueItems", R::UniqueItems, Voc::Validation),
    keyword("prefixItems", R::PrefixItems, Voc::Applicator),
    keyword("items", R::Items, Voc::Applicator),
    keyword("contains", R::Contains, Voc::Applicator),
    keyword("required", R::Required, Voc::Validation),
    keyword("dependentRequired", R::DependentRequired, Voc::Validation),
    keyword("minProperties", R::MinProperties, Voc::Validation),
    keyword("maxProperties", R::MaxProperties, Voc::Validation),
    keyword("propertyNames", R::PropertyNames, Voc::Applicator),
    keyword(
        "additionalProperties",
        R::AdditionalProperties,
        Voc::Applicator,
    ),
    keyword("properties", R::Properties, Voc::Applicator),
    keyword("patternProperties", R::PatternProperties, Voc::Applicator),
    keyword("dependentSchemas", R::DependentSchemas, Voc::Applicator),
    // Deprecated, yet in the 2020-12 meta-schema: read as in draft-07, for older schemas.
    keyword("dependencies", R::Dependencies, Voc::Applicator),
    keyword("allOf", R::AllOf, Voc::Applicator),
    keyword("anyOf", R::AnyOf, Voc::Applicator),
    keyword("oneOf", R::OneOf, Voc::Applicator),
    keyword("not", R::Not, Voc::Applicator),
    keyword("if", R::If, Voc::Applicator),
    keyword("unevaluatedItems", R::UnevaluatedItems, Voc::Unevaluated),
    keyword(
        "unevaluatedProperties",
        R::UnevaluatedProperties,
        Voc::Unevaluated,
    ),
    keyword("then", R::Companion(Val::Schema), Voc::Applicator),
    keyword("else", R::Companion(Val::Schema), Voc::Applicator),
    keyword(
        "minContains",
        R::Companion(Val::NonNegativeInteger),
        Voc::Validation,
    ),
    keyword(
        "maxContains",
        R::Companion(Val::NonNegativeInteger),
        Voc::Validation,
    ),
    keyword("contentSchema", R::Companion(Val::Schema), Voc::Content),
    keyword("$defs", R::Definitions, Voc::Core),
    keyword("$id", R::Companion(Val::Identifier), Voc::Core),
    keyword("$schema", R::Companion(Val::Identifier), Voc::Core),
    keyword("$anchor", R::Companion(Val::Identifier), Voc::Core),
    keyword("$dynamicAnchor", R::Companion(Val::Identifier), Voc::Core),
    keyword("$vocabulary", R::Companion(Val::VocabularyMap), Voc::Core),
    keyword("$comment", R::Companion(Val::String), Voc::Core),
    keyword("title", R::Companion(Val::String), Voc::MetaData),
    keyword("description", R::Companion(Val::String), Voc::MetaData),
    keyword("default", R::Companion(Val::Any), Voc::MetaData),
    keyword("deprecated", R::Companion(Val::Boolean), Voc::MetaData),
    keyword("readOnly", R::Companion(Val::Boolean), Voc::MetaData),
    keyword("writeOnly", R::Companion(Val::Boolean), Voc::MetaData),
    keyword("examples", R::Companion(Val::Array), Voc::MetaData),
];

/// draft-07, in the same evaluation order. `$ref` beside other keywords is evaluated alone.
pub static DRAFT7: &[Keyword] = &[
    keyword("$ref", R::Ref, Voc::Core),
    keyword("type", R::Type, Voc::Validation),
    keyword("enum", R::Enum, Voc::Validation),
    keyword("const", R::Const, Voc::Validation),
    keyword("multipleOf", R::MultipleOf, Voc::Validation),
    keyword("minimum", R::Minimum, Voc::Validation),
    keyword("exclusiveMinimum", R::ExclusiveMinimum, Voc::Validation),
    keyword("maximum", R::Maximum, Voc::Validation),
    keyword("exclusiveMaximum", R::ExclusiveMaximum, Voc::Validation),
    keyword("minLength", R::MinLength, Voc::Validation),
    keyword("maxLength", R::MaxLength, Voc::Validation),
    keyword("pattern", R::Pattern, Voc::Validation),
    keyword("format", R::Format, Voc::FormatAnnotation),
    keyword("contentEncoding", R::Content, Voc::Content),
    keyword("contentMediaType", R::Content, Voc::Content),
    keyword("minItems", R::MinItems, Voc::Validation),
    keyword("maxItems", R::MaxItems, Voc::Validation),
    keyword("uniqueItems", R::UniqueItems, Voc::Validation),
    keyword("items", R::Items, Voc::Applicator),
    keyword("additionalItems", R::AdditionalItems, Voc::Applicator),
    keyword("contains", R::Contains, Voc::Applicator),
    keyword("required", R::Required, Voc::Validation),
    keyword("minProperties", R::MinProperties, Voc::Validation),
    keyword("maxProperties", R::MaxProperties, Voc::Validation),
    keyword("propertyNames", R::PropertyNames, Voc::Applicator),
    keyword(
        "additionalProperties",
        R::AdditionalProperties,
        Voc::Applicator,
    ),
    keyword("properties", R::Properties, Voc::Applicator),
    keyword("patternProperties", R::PatternProperties, Voc::Applicator),
    keyword("dependencies", R::Dependencies, Voc::Applicator),
    keyword("allOf", R::AllOf, Voc::Applicator),
    keyword("anyOf", R::AnyOf, Voc::Applicator),
    keyword("oneOf", R::OneOf, Voc::Applicator),
    keyword("not", R::Not, Voc::Applicator),
    keyword("if", R::If, Voc::Applicator),
    keyword("then", R::Companion(Val::Schema), Voc::Applicator),
    keyword("else", R::Companion(Val::Schema), Voc::Applicator),
    keyword("definitions", R::Definitions, Voc::Core),
    keyword("$id", R::Companion(Val::Identifier), Voc::Core),
    keyword("$schema", R::Companion(Val::Identifier), Voc::Core),
    keyword("$comment", R::Companion(Val::String), Voc::Core),
    keyword("title", R::Companion(Val::String), Voc::MetaData),
    keyword("description", R::Companion(Val::String), Voc::MetaData),
    keyword("default", R::Companion(Val::Any), Voc::MetaData),
    keyword("readOnly", R::Companion(Val::Boolean), Voc::MetaData),
    keyword("writeOnly", R::Companion(Val::Boolean), Voc::MetaData),
    keyword("examples", R::Companion(Val::Array), Voc::MetaData),
];

/// Another spelling of a keyword that Elixir callers use (contract section 3): read as the
/// keyword when the keyword itself is absent.
const ALIASES: [(&str, &str); 1] = [("additional_properties", "additionalProperties")];

/// The other spelling of `keyword`, if it has one.
pub fn alias_of(keyword: &str) -> Option<&'static str> {
    ALIASES
        .iter()
        .find(|(_, name)| *name == keyword)
        .map(|(alias, _)| *alias)
}

impl Draft {
    /// The keyword a key of `schema` names: its own name, or an alias of a keyword `schema`
    /// does not spell out.
    pub fn keyword_in(self, schema: &Literal, key: &str) -> Option<&'static Keyword> {
        self.keyword(key).or_else(|| {
            let (_, name) = ALIASES.iter().find(|(alias, _)| *alias == key)?;
            match schema.get(name) {
                Some(_) => None,
                None => self.keyword(name),
            }
        })
    }

    pub fn keywords(self) -> &'static [Keyword] {
        match self {
            Draft::Draft2020_12 => DRAFT2020_12,
            Draft::Draft7 => DRAFT7,
        }
    }

    pub fn keyword(self, name: &str) -> Option<&'static Keyword> {
        self.keywords().iter().find(|keyword| keyword.name == name)
    }

    /// The meta-schema URI (without its empty fragment).
    pub fn uri(self) -> &'static str {
        match self {
            Draft::Draft2020_12 => "https://json-schema.org/draft/2020-12/schema",
            Draft::Draft7 => "http://json-schema.org/draft-07/schema",
        }
    }

    /// The dialect a `$schema` value names, with or without its empty fragment (`https` is
    /// accepted for draft-07).
    pub fn named(uri: &str) -> Option<Draft> {
        let uri = uri.strip_suffix('#').unwrap_or(uri);
        match uri {
            "https://json-schema.org/draft/2020-12/schema" => Some(Draft::Draft2020_12),
            "http://json-schema.org/draft-07/schema"
            | "https://json-schema.org/draft-07/schema" => Some(Draft::Draft7),
            _ => None,
        }
    }
}
