//! Every keyword's and JSON type's name, spelled once: the profiles' registries, the compilers
//! and the errors read these.

/// Every keyword's name, spelled once: the registry below, the compiler and the errors read
/// these.
pub mod name {
    pub const REF: &str = "$ref";
    pub const DYNAMIC_REF: &str = "$dynamicRef";
    pub const RECURSIVE_REF: &str = "$recursiveRef";
    pub const TYPE: &str = "type";
    pub const ENUM: &str = "enum";
    pub const CONST: &str = "const";
    pub const MULTIPLE_OF: &str = "multipleOf";
    pub const MINIMUM: &str = "minimum";
    pub const EXCLUSIVE_MINIMUM: &str = "exclusiveMinimum";
    pub const MAXIMUM: &str = "maximum";
    pub const EXCLUSIVE_MAXIMUM: &str = "exclusiveMaximum";
    pub const MIN_LENGTH: &str = "minLength";
    pub const MAX_LENGTH: &str = "maxLength";
    pub const PATTERN: &str = "pattern";
    pub const FORMAT: &str = "format";
    pub const CONTENT_ENCODING: &str = "contentEncoding";
    pub const CONTENT_MEDIA_TYPE: &str = "contentMediaType";
    pub const CONTENT_SCHEMA: &str = "contentSchema";
    pub const MIN_ITEMS: &str = "minItems";
    pub const MAX_ITEMS: &str = "maxItems";
    pub const UNIQUE_ITEMS: &str = "uniqueItems";
    pub const PREFIX_ITEMS: &str = "prefixItems";
    pub const ITEMS: &str = "items";
    pub const ADDITIONAL_ITEMS: &str = "additionalItems";
    pub const CONTAINS: &str = "contains";
    pub const MIN_CONTAINS: &str = "minContains";
    pub const MAX_CONTAINS: &str = "maxContains";
    pub const REQUIRED: &str = "required";
    pub const DEPENDENT_REQUIRED: &str = "dependentRequired";
    pub const MIN_PROPERTIES: &str = "minProperties";
    pub const MAX_PROPERTIES: &str = "maxProperties";
    pub const PROPERTY_NAMES: &str = "propertyNames";
    pub const ADDITIONAL_PROPERTIES: &str = "additionalProperties";
    pub const ADDITIONAL_PROPERTIES_SNAKE: &str = "additional_properties";
    pub const PROPERTIES: &str = "properties";
    pub const PATTERN_PROPERTIES: &str = "patternProperties";
    pub const DEPENDENT_SCHEMAS: &str = "dependentSchemas";
    pub const DEPENDENCIES: &str = "dependencies";
    pub const ALL_OF: &str = "allOf";
    pub const ANY_OF: &str = "anyOf";
    pub const ONE_OF: &str = "oneOf";
    pub const NOT: &str = "not";
    pub const IF: &str = "if";
    pub const THEN: &str = "then";
    pub const ELSE: &str = "else";
    pub const UNEVALUATED_ITEMS: &str = "unevaluatedItems";
    pub const UNEVALUATED_PROPERTIES: &str = "unevaluatedProperties";
    pub const DEFS: &str = "$defs";
    pub const DEFINITIONS: &str = "definitions";
    pub const ID: &str = "$id";
    pub const SCHEMA: &str = "$schema";
    pub const ANCHOR: &str = "$anchor";
    pub const DYNAMIC_ANCHOR: &str = "$dynamicAnchor";
    pub const RECURSIVE_ANCHOR: &str = "$recursiveAnchor";
    /// draft-04's `$id`.
    pub const LEGACY_ID: &str = "id";
    pub const VOCABULARY: &str = "$vocabulary";
    pub const COMMENT: &str = "$comment";
    pub const TITLE: &str = "title";
    pub const DESCRIPTION: &str = "description";
    pub const DEFAULT: &str = "default";
    pub const DEPRECATED: &str = "deprecated";
    pub const READ_ONLY: &str = "readOnly";
    pub const WRITE_ONLY: &str = "writeOnly";
    pub const EXAMPLES: &str = "examples";
}

/// The names of the JSON types, spelled once: `type`'s values in every profile.
pub mod type_name {
    pub const NULL: &str = "null";
    pub const BOOLEAN: &str = "boolean";
    pub const OBJECT: &str = "object";
    pub const ARRAY: &str = "array";
    pub const NUMBER: &str = "number";
    pub const STRING: &str = "string";
    pub const INTEGER: &str = "integer";
}
