//! The keyword registry of each profile: every keyword's name, spelled once here; for each
//! JSON Schema dialect its keywords' vocabularies and the order in which a schema object's
//! keywords are evaluated (so the first error of an object follows this order, written as
//! data); for the subset (`subset`) its ten keywords and the types each is allowed beside.

use crate::text::format::FormatDialect;
use crate::values::literal::Literal;
use std::sync::OnceLock;

pub use crate::names::keywords::{name, type_name};

/// A dialect of JSON Schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Draft {
    Draft2020_12,
    Draft2019_09,
    Draft7,
    Draft6,
    Draft4,
}

/// The standard vocabularies of Draft 2020-12, as bits; Draft 2019-09's map onto them
/// (`VOCABULARY_URIS`). The older drafts have none: every keyword of theirs is on.
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

const fn bits(vocabularies: &[Vocabulary]) -> Vocabularies {
    let mut set = 0;
    let mut rest = vocabularies;
    while let [vocabulary, after @ ..] = rest {
        set |= *vocabulary as u8;
        rest = after;
    }
    Vocabularies(set)
}

/// The vocabulary URIs that this package implements, and the vocabularies each enables.
/// The format-assertion vocabulary turns `format` into an assertion; Draft 2019-09 has the
/// unevaluated keywords in its applicator vocabulary and one format vocabulary, an annotation.
pub const VOCABULARY_URIS: [(&str, Vocabularies); 14] = [
    (
        "https://json-schema.org/draft/2020-12/vocab/core",
        bits(&[Vocabulary::Core]),
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/applicator",
        bits(&[Vocabulary::Applicator]),
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/unevaluated",
        bits(&[Vocabulary::Unevaluated]),
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/validation",
        bits(&[Vocabulary::Validation]),
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/meta-data",
        bits(&[Vocabulary::MetaData]),
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/format-annotation",
        bits(&[Vocabulary::FormatAnnotation]),
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/content",
        bits(&[Vocabulary::Content]),
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/format-assertion",
        bits(&[Vocabulary::FormatAnnotation, Vocabulary::FormatAssertion]),
    ),
    (
        "https://json-schema.org/draft/2019-09/vocab/core",
        bits(&[Vocabulary::Core]),
    ),
    (
        "https://json-schema.org/draft/2019-09/vocab/applicator",
        bits(&[Vocabulary::Applicator, Vocabulary::Unevaluated]),
    ),
    (
        "https://json-schema.org/draft/2019-09/vocab/validation",
        bits(&[Vocabulary::Validation]),
    ),
    (
        "https://json-schema.org/draft/2019-09/vocab/meta-data",
        bits(&[Vocabulary::MetaData]),
    ),
    (
        "https://json-schema.org/draft/2019-09/vocab/format",
        bits(&[Vocabulary::FormatAnnotation]),
    ),
    (
        "https://json-schema.org/draft/2019-09/vocab/content",
        bits(&[Vocabulary::Content]),
    ),
];

/// What the compiler does with a keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Ref,
    DynamicRef,
    /// Draft 2019-09's `$recursiveRef`.
    RecursiveRef,
    Type,
    Enum,
    Const,
    MultipleOf,
    Minimum,
    ExclusiveMinimum,
    Maximum,
    ExclusiveMaximum,
    /// draft-04's boolean `exclusiveMinimum`/`exclusiveMaximum`: read by `minimum`/`maximum`.
    BoundFlag,
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
    /// of schemas (the earlier drafts).
    Items,
    /// `additionalItems` (before 2020-12), read beside an array `items`.
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
    /// `dependencies` (draft-04 to 2019-09): per name, a schema or a list of names.
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
    /// The dialects that have it.
    drafts: Drafts,
}

/// A set of dialects, as bits (see `Draft::bit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Drafts(u8);

const D4: u8 = 1;
const D6: u8 = 2;
const D7: u8 = 4;
const D2019: u8 = 8;
const D2020: u8 = 16;
const ALL: Drafts = Drafts(D4 | D6 | D7 | D2019 | D2020);
const FROM_6: Drafts = Drafts(D6 | D7 | D2019 | D2020);
const FROM_7: Drafts = Drafts(D7 | D2019 | D2020);
const FROM_2019: Drafts = Drafts(D2019 | D2020);
const UNTIL_2019: Drafts = Drafts(D4 | D6 | D7 | D2019);
const ONLY_2019: Drafts = Drafts(D2019);
const ONLY_2020: Drafts = Drafts(D2020);
const ONLY_4: Drafts = Drafts(D4);

const fn keyword(
    name: &'static str,
    role: Role,
    vocabulary: Vocabulary,
    drafts: Drafts,
) -> Keyword {
    Keyword {
        name,
        role,
        vocabulary,
        drafts,
    }
}

use Role as R;
use Value as Val;
use Vocabulary as Voc;

/// Every keyword of every dialect, each once, in evaluation order: references, type,
/// enum/const, numeric, string, array, object, then allOf, anyOf, oneOf, not, if/then/else,
/// unevaluated last; annotations and companions after. Each names its role, its vocabulary
/// (Draft 2019-09 maps its own onto these, see `VOCABULARY_URIS`) and the dialects that have
/// it: a dialect's keywords are this list's entries for it, in this order.
static KEYWORDS: &[Keyword] = &[
    keyword(name::REF, R::Ref, Voc::Core, ALL),
    keyword(name::DYNAMIC_REF, R::DynamicRef, Voc::Core, ONLY_2020),
    keyword(name::RECURSIVE_REF, R::RecursiveRef, Voc::Core, ONLY_2019),
    keyword(name::TYPE, R::Type, Voc::Validation, ALL),
    keyword(name::ENUM, R::Enum, Voc::Validation, ALL),
    keyword(name::CONST, R::Const, Voc::Validation, FROM_6),
    keyword(name::MULTIPLE_OF, R::MultipleOf, Voc::Validation, ALL),
    keyword(name::MINIMUM, R::Minimum, Voc::Validation, ALL),
    keyword(
        name::EXCLUSIVE_MINIMUM,
        R::ExclusiveMinimum,
        Voc::Validation,
        FROM_6,
    ),
    keyword(
        name::EXCLUSIVE_MINIMUM,
        R::BoundFlag,
        Voc::Validation,
        ONLY_4,
    ),
    keyword(name::MAXIMUM, R::Maximum, Voc::Validation, ALL),
    keyword(
        name::EXCLUSIVE_MAXIMUM,
        R::ExclusiveMaximum,
        Voc::Validation,
        FROM_6,
    ),
    keyword(
        name::EXCLUSIVE_MAXIMUM,
        R::BoundFlag,
        Voc::Validation,
        ONLY_4,
    ),
    keyword(name::MIN_LENGTH, R::MinLength, Voc::Validation, ALL),
    keyword(name::MAX_LENGTH, R::MaxLength, Voc::Validation, ALL),
    keyword(name::PATTERN, R::Pattern, Voc::Validation, ALL),
    keyword(name::FORMAT, R::Format, Voc::FormatAnnotation, ALL),
    keyword(name::CONTENT_ENCODING, R::Content, Voc::Content, FROM_7),
    keyword(name::CONTENT_MEDIA_TYPE, R::Content, Voc::Content, FROM_7),
    keyword(name::MIN_ITEMS, R::MinItems, Voc::Validation, ALL),
    keyword(name::MAX_ITEMS, R::MaxItems, Voc::Validation, ALL),
    keyword(name::UNIQUE_ITEMS, R::UniqueItems, Voc::Validation, ALL),
    keyword(
        name::PREFIX_ITEMS,
        R::PrefixItems,
        Voc::Applicator,
        ONLY_2020,
    ),
    keyword(name::ITEMS, R::Items, Voc::Applicator, ALL),
    keyword(
        name::ADDITIONAL_ITEMS,
        R::AdditionalItems,
        Voc::Applicator,
        UNTIL_2019,
    ),
    keyword(name::CONTAINS, R::Contains, Voc::Applicator, FROM_6),
    keyword(name::REQUIRED, R::Required, Voc::Validation, ALL),
    keyword(
        name::DEPENDENT_REQUIRED,
        R::DependentRequired,
        Voc::Validation,
        FROM_2019,
    ),
    keyword(name::MIN_PROPERTIES, R::MinProperties, Voc::Validation, ALL),
    keyword(name::MAX_PROPERTIES, R::MaxProperties, Voc::Validation, ALL),
    keyword(
        name::PROPERTY_NAMES,
        R::PropertyNames,
        Voc::Applicator,
        FROM_6,
    ),
    keyword(
        name::ADDITIONAL_PROPERTIES,
        R::AdditionalProperties,
        Voc::Applicator,
        ALL,
    ),
    keyword(name::PROPERTIES, R::Properties, Voc::Applicator, ALL),
    keyword(
        name::PATTERN_PROPERTIES,
        R::PatternProperties,
        Voc::Applicator,
        ALL,
    ),
    keyword(
        name::DEPENDENT_SCHEMAS,
        R::DependentSchemas,
        Voc::Applicator,
        FROM_2019,
    ),
    // Deprecated in 2019-09 and 2020-12, yet in their meta-schemas: read as in draft-07, for
    // older schemas.
    keyword(name::DEPENDENCIES, R::Dependencies, Voc::Applicator, ALL),
    keyword(name::ALL_OF, R::AllOf, Voc::Applicator, ALL),
    keyword(name::ANY_OF, R::AnyOf, Voc::Applicator, ALL),
    keyword(name::ONE_OF, R::OneOf, Voc::Applicator, ALL),
    keyword(name::NOT, R::Not, Voc::Applicator, ALL),
    keyword(name::IF, R::If, Voc::Applicator, FROM_7),
    keyword(
        name::UNEVALUATED_ITEMS,
        R::UnevaluatedItems,
        Voc::Unevaluated,
        FROM_2019,
    ),
    keyword(
        name::UNEVALUATED_PROPERTIES,
        R::UnevaluatedProperties,
        Voc::Unevaluated,
        FROM_2019,
    ),
    keyword(
        name::THEN,
        R::Companion(Val::Schema),
        Voc::Applicator,
        FROM_7,
    ),
    keyword(
        name::ELSE,
        R::Companion(Val::Schema),
        Voc::Applicator,
        FROM_7,
    ),
    keyword(
        name::MIN_CONTAINS,
        R::Companion(Val::NonNegativeInteger),
        Voc::Validation,
        FROM_2019,
    ),
    keyword(
        name::MAX_CONTAINS,
        R::Companion(Val::NonNegativeInteger),
        Voc::Validation,
        FROM_2019,
    ),
    keyword(
        name::CONTENT_SCHEMA,
        R::Companion(Val::Schema),
        Voc::Content,
        FROM_2019,
    ),
    keyword(name::DEFS, R::Definitions, Voc::Core, FROM_2019),
    // Kept by the 2019-09 meta-schema for older schemas.
    keyword(name::DEFINITIONS, R::Definitions, Voc::Core, UNTIL_2019),
    keyword(name::ID, R::Companion(Val::Identifier), Voc::Core, FROM_6),
    keyword(
        name::LEGACY_ID,
        R::Companion(Val::Identifier),
        Voc::Core,
        ONLY_4,
    ),
    keyword(name::SCHEMA, R::Companion(Val::Identifier), Voc::Core, ALL),
    keyword(
        name::ANCHOR,
        R::Companion(Val::Identifier),
        Voc::Core,
        FROM_2019,
    ),
    keyword(
        name::DYNAMIC_ANCHOR,
        R::Companion(Val::Identifier),
        Voc::Core,
        ONLY_2020,
    ),
    keyword(
        name::RECURSIVE_ANCHOR,
        R::Companion(Val::Boolean),
        Voc::Core,
        ONLY_2019,
    ),
    keyword(
        name::VOCABULARY,
        R::Companion(Val::VocabularyMap),
        Voc::Core,
        FROM_2019,
    ),
    keyword(name::COMMENT, R::Companion(Val::String), Voc::Core, FROM_7),
    keyword(name::TITLE, R::Companion(Val::String), Voc::MetaData, ALL),
    keyword(
        name::DESCRIPTION,
        R::Companion(Val::String),
        Voc::MetaData,
        ALL,
    ),
    keyword(name::DEFAULT, R::Companion(Val::Any), Voc::MetaData, ALL),
    keyword(
        name::DEPRECATED,
        R::Companion(Val::Boolean),
        Voc::MetaData,
        FROM_2019,
    ),
    keyword(
        name::READ_ONLY,
        R::Companion(Val::Boolean),
        Voc::MetaData,
        FROM_7,
    ),
    keyword(
        name::WRITE_ONLY,
        R::Companion(Val::Boolean),
        Voc::MetaData,
        FROM_7,
    ),
    keyword(
        name::EXAMPLES,
        R::Companion(Val::Array),
        Voc::MetaData,
        FROM_6,
    ),
];

/// What sets a dialect apart besides its keywords, as data.
pub struct Rules {
    /// Its meta-schema's URI, without its empty fragment: the built-in document's.
    pub uri: &'static str,
    /// The keyword that names a resource (`$id`; draft-04's `id`).
    pub id: &'static str,
    /// `$ref` beside other keywords is evaluated alone, and an identifier beside it ignored
    /// (draft-04 to draft-07).
    pub ref_alone: bool,
    /// An identifier that is only a plain-name fragment names an anchor (before `$anchor`).
    pub fragment_anchors: bool,
    /// `items` may be an array of schemas, one per position (before `prefixItems`).
    pub items_array: bool,
    /// Any schema may be `true` or `false` (draft-06 on; draft-04 allows a boolean for
    /// `additionalProperties` and `additionalItems` only).
    pub boolean_schemas: bool,
    /// `1.0` is an integer (draft-06 on: "a number with a zero fractional part"; draft-04's
    /// integer is a number written without a fraction or exponent).
    pub integral_floats: bool,
    /// The items `contains` matched count as evaluated for `unevaluatedItems` (2020-12).
    pub contains_evaluates: bool,
    /// `required` and `enum` hold at least one entry (draft-04's meta-schema).
    pub nonempty_lists: bool,
}

const RULES_2020_12: Rules = Rules {
    uri: "https://json-schema.org/draft/2020-12/schema",
    id: name::ID,
    ref_alone: false,
    fragment_anchors: false,
    items_array: false,
    boolean_schemas: true,
    integral_floats: true,
    contains_evaluates: true,
    nonempty_lists: false,
};

const RULES_2019_09: Rules = Rules {
    uri: "https://json-schema.org/draft/2019-09/schema",
    items_array: true,
    contains_evaluates: false,
    ..RULES_2020_12
};

const RULES_7: Rules = Rules {
    uri: "http://json-schema.org/draft-07/schema",
    ref_alone: true,
    fragment_anchors: true,
    ..RULES_2019_09
};

const RULES_6: Rules = Rules {
    uri: "http://json-schema.org/draft-06/schema",
    ..RULES_7
};

const RULES_4: Rules = Rules {
    uri: "http://json-schema.org/draft-04/schema",
    id: name::LEGACY_ID,
    boolean_schemas: false,
    integral_floats: false,
    nonempty_lists: true,
    ..RULES_6
};

/// Another spelling of a keyword that Elixir callers use (contract section 3): read as the
/// keyword when the keyword itself is absent.
const ALIASES: [(&str, &str); 1] = [(
    name::ADDITIONAL_PROPERTIES_SNAKE,
    name::ADDITIONAL_PROPERTIES,
)];

/// The other spelling of `keyword`, if it has one.
pub fn alias_of(keyword: &str) -> Option<&'static str> {
    ALIASES
        .iter()
        .find(|(_, name)| *name == keyword)
        .map(|(alias, _)| *alias)
}

impl Draft {
    /// The formats it defines.
    pub fn formats(self) -> FormatDialect {
        match self {
            Draft::Draft2020_12 => FormatDialect::Draft2020_12,
            Draft::Draft2019_09 => FormatDialect::Draft2019_09,
            Draft::Draft7 => FormatDialect::Draft7,
            Draft::Draft6 => FormatDialect::Draft6,
            Draft::Draft4 => FormatDialect::Draft4,
        }
    }

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

    pub const ALL: [Draft; 5] = [
        Draft::Draft2020_12,
        Draft::Draft2019_09,
        Draft::Draft7,
        Draft::Draft6,
        Draft::Draft4,
    ];

    pub fn rules(self) -> &'static Rules {
        match self {
            Draft::Draft2020_12 => &RULES_2020_12,
            Draft::Draft2019_09 => &RULES_2019_09,
            Draft::Draft7 => &RULES_7,
            Draft::Draft6 => &RULES_6,
            Draft::Draft4 => &RULES_4,
        }
    }

    /// The dialect's bit in a keyword's set of dialects.
    fn bit(self) -> u8 {
        match self {
            Draft::Draft4 => D4,
            Draft::Draft6 => D6,
            Draft::Draft7 => D7,
            Draft::Draft2019_09 => D2019,
            Draft::Draft2020_12 => D2020,
        }
    }

    /// The dialect's keywords, in evaluation order: the table's entries for it, gathered on
    /// first use (every schema object's compilation walks them).
    pub fn keywords(self) -> &'static [&'static Keyword] {
        static GATHERED: [OnceLock<Vec<&'static Keyword>>; 5] = [const { OnceLock::new() }; 5];
        let gather = || {
            KEYWORDS
                .iter()
                .filter(|keyword| keyword.drafts.0 & self.bit() != 0)
                .collect()
        };
        GATHERED
            .get(self as usize)
            .map_or(&[], |gathered| gathered.get_or_init(gather).as_slice())
    }

    pub fn keyword(self, name: &str) -> Option<&'static Keyword> {
        self.keywords()
            .iter()
            .find(|keyword| keyword.name == name)
            .copied()
    }

    /// The meta-schema URI (without its empty fragment).
    pub fn uri(self) -> &'static str {
        self.rules().uri
    }

    /// The dialect a `$schema` value names: its meta-schema's URI with `http` or `https`, with
    /// or without the empty fragment, as schemas in use spell it.
    pub fn named(uri: &str) -> Option<Draft> {
        let uri = uri.strip_suffix('#').unwrap_or(uri);
        let rest = |uri: &'static str| uri.split_once("://").map_or(uri, |(_, rest)| rest);
        let (scheme, asked) = uri.split_once("://")?;
        if scheme != "http" && scheme != "https" {
            return None;
        }
        Draft::ALL
            .into_iter()
            .find(|draft| rest(draft.uri()) == asked)
    }
}

#[cfg(test)]
mod dialect_tests {
    use super::{Draft, Role};

    fn names(draft: Draft) -> Vec<&'static str> {
        draft
            .keywords()
            .iter()
            .map(|keyword| keyword.name)
            .collect()
    }

    fn without(draft: Draft, left_out: &[&str]) -> Vec<&'static str> {
        let mut names = names(draft);
        names.retain(|name| !left_out.contains(name));
        names
    }

    /// Each dialect's keywords, in evaluation order, as its specification lists them: the
    /// older ones as what they lack of the next.
    #[test]
    fn each_dialect_has_its_keywords_in_the_evaluation_order() {
        assert_eq!(
            names(Draft::Draft2020_12),
            [
                "$ref",
                "$dynamicRef",
                "type",
                "enum",
                "const",
                "multipleOf",
                "minimum",
                "exclusiveMinimum",
                "maximum",
                "exclusiveMaximum",
                "minLength",
                "maxLength",
                "pattern",
                "format",
                "contentEncoding",
                "contentMediaType",
                "minItems",
                "maxItems",
                "uniqueItems",
                "prefixItems",
                "items",
                "contains",
                "required",
                "dependentRequired",
                "minProperties",
                "maxProperties",
                "propertyNames",
                "additionalProperties",
                "properties",
                "patternProperties",
                "dependentSchemas",
                "dependencies",
                "allOf",
                "anyOf",
                "oneOf",
                "not",
                "if",
                "unevaluatedItems",
                "unevaluatedProperties",
                "then",
                "else",
                "minContains",
                "maxContains",
                "contentSchema",
                "$defs",
                "$id",
                "$schema",
                "$anchor",
                "$dynamicAnchor",
                "$vocabulary",
                "$comment",
                "title",
                "description",
                "default",
                "deprecated",
                "readOnly",
                "writeOnly",
                "examples",
            ]
        );
        assert_eq!(
            names(Draft::Draft7),
            [
                "$ref",
                "type",
                "enum",
                "const",
                "multipleOf",
                "minimum",
                "exclusiveMinimum",
                "maximum",
                "exclusiveMaximum",
                "minLength",
                "maxLength",
                "pattern",
                "format",
                "contentEncoding",
                "contentMediaType",
                "minItems",
                "maxItems",
                "uniqueItems",
                "items",
                "additionalItems",
                "contains",
                "required",
                "minProperties",
                "maxProperties",
                "propertyNames",
                "additionalProperties",
                "properties",
                "patternProperties",
                "dependencies",
                "allOf",
                "anyOf",
                "oneOf",
                "not",
                "if",
                "then",
                "else",
                "definitions",
                "$id",
                "$schema",
                "$comment",
                "title",
                "description",
                "default",
                "readOnly",
                "writeOnly",
                "examples",
            ]
        );
        assert_eq!(
            without(
                Draft::Draft2019_09,
                &[
                    "$recursiveRef",
                    "additionalItems",
                    "definitions",
                    "$recursiveAnchor"
                ]
            ),
            without(
                Draft::Draft2020_12,
                &["$dynamicRef", "prefixItems", "$dynamicAnchor"]
            )
        );
        let draft7_only = [
            "if",
            "then",
            "else",
            "contentEncoding",
            "contentMediaType",
            "$comment",
            "readOnly",
            "writeOnly",
        ];
        assert_eq!(names(Draft::Draft6), without(Draft::Draft7, &draft7_only));
        let draft4: Vec<&str> = names(Draft::Draft4)
            .into_iter()
            .map(|name| if name == "id" { "$id" } else { name })
            .collect();
        let draft6_only = ["const", "contains", "propertyNames", "examples"];
        assert_eq!(draft4, without(Draft::Draft6, &draft6_only));
        for bound in ["exclusiveMinimum", "exclusiveMaximum"] {
            assert_eq!(
                Draft::Draft4.keyword(bound).map(|keyword| keyword.role),
                Some(Role::BoundFlag)
            );
        }
    }
}
