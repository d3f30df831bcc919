//! Differential property test: the core's JSON Schema engine (`Profile::Json(..).compile` with
//! `any_root: true`, then `Compiled::validate`) against the `jsonschema` crate's `is_valid`,
//! on generated Draft 2020-12, Draft 2019-09, draft-07 and draft-06 schemas and generated
//! values (draft-04 is left out: its schemas are objects and its bounds' flags booleans, which
//! the generators do not keep to); and a never-panics fuzz of the core's schema compiler on
//! arbitrary JSON.
//!
//! Invariants:
//! - both engines accept or refuse a generated schema alike (both check it against the
//!   dialect's meta-schema);
//! - where both accept it, they give every generated value the same answer, valid or invalid;
//! - any JSON value, compiled under either dialect (or `Auto`) with any options, gives `Ok` or
//!   `Err` and never panics, and whatever compiles validates arbitrary values without
//!   panicking, under a bounded budget.
//!
//! The generated schemas draw their property names, numbers and strings from the same small
//! pools as the generated values, so both outcomes are frequent (the test
//! `generated_cases_reach_both_answers` holds the generators to that).
//!
//! Case counts: `PROPTEST_CASES` sets the number of cases of every property here, as in
//! `properties.rs`. Without it each differential property runs 256 cases and the fuzz 1024
//! (the whole file well under 30 s in a debug build). A soak:
//!
//!     PROPTEST_CASES=50000 cargo test --release -p input_schema_core --test differential
//!
//! Every disagreement found so far is listed, with who is right and how the test leaves it out:
//! `KNOWN_DIFFERENCES` where the core is right or deliberate (`known_differences_hold` checks
//! each still holds of both engines). The one core bug it found (draft-07 left the values of a
//! `$ref`'s siblings unchecked) is fixed, and the generators reach that case again.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use input_schema_core::json_schema::{Dialect, Options};
use input_schema_core::serde::Json;
use input_schema_core::{Budget, Compiled, Failure, Mode, Profile};
use proptest::prelude::*;
use proptest::sample::{select, subsequence};
use serde_json::{json, Map, Value};

/// Disagreements between the core and `jsonschema` where the core is right or reads the
/// specification deliberately, each with the reason and how the test leaves it out. Every entry
/// was found by running the properties below; `known_differences_hold` checks each is still
/// true of both engines.
pub const KNOWN_DIFFERENCES: &[&str] = &[
    // 1
    "jsonschema is wrong. Built without its `arbitrary-precision` feature (as here), it reads \
     an integer beyond 2^53 as the nearest f64 before dividing it by a fractional \
     `multipleOf`: `{\"multipleOf\": 1.5}` with 9007199254740993 (= 1.5 x \
     6004799503160662) is invalid to it, as 9007199254740992 would be. The core divides \
     exactly and says valid, as the specification (\"division by this keyword's value results \
     in an integer\") and the contract (section 5: integers exact at any size, `multipleOf` \
     exact) require. Left out by `known_difference`: a disagreement is forgiven when the value \
     holds such an integer and the schema a fractional `multipleOf`.",
    // 2
    "Deliberate: the core checks the whole document when it compiles, jsonschema only what \
     the root reaches and what can change an answer. So a pattern that is no regular \
     expression, or a `$ref` that resolves nowhere, in a definition nothing references \
     (`{\"$defs\": {\"d\": {\"pattern\": \"(\"}}}`, \
     `{\"$defs\": {\"d\": {\"$ref\": \"#/$defs/missing\"}}}`) or, in 2020-12, under an \
     `if` with neither `then` nor `else` (`{\"if\": {\"pattern\": \"(\"}}`), or, in 2019-09, \
     under an `additionalItems` without an array `items`, is refused by \
     the core (\"schema keyword value is invalid\", \"schema reference could not be \
     resolved\") and accepted by jsonschema. The specification does not say when a reference must resolve or a \
     pattern be read; the contract (section 4: found before any argument is read; section 6: a \
     local reference that does not resolve is an error) and a gateway's fail-closed stance want \
     a broken document refused whether or not a value happens to reach the broken part. Left \
     out by the generators: every definition is reached from the root (`anyOf: [true, ...]`), \
     invalid keyword values are never put under a lone `if` (`scrub_unreached`), and no \
     unresolvable reference is generated.",
    // 3
    "jsonschema is wrong. In Draft 2019-09 `unevaluatedItems` reads the annotations of \
     `items`, `additionalItems` and `unevaluatedItems` alone (core specification 2019-09, \
     9.3.1.3); `contains` came to count as evaluating the items it matched with 2020-12. \
     jsonschema applies the 2020-12 rule to 2019-09: `{\"contains\": {}, \
     \"unevaluatedItems\": {\"type\": \"null\"}}` with `[false]` is valid to it, invalid to \
     the core. Left out by `known_difference`: a disagreement is forgiven when a 2019-09 \
     schema has both `contains` and `unevaluatedItems`.",
];

/// 2^53: integers beyond it are not all f64s.
const EXACT_F64: u64 = 1 << 53;

/// Which entry of `KNOWN_DIFFERENCES` (its index) explains a disagreement on (`schema`,
/// `value`), if any.
fn known_difference(schema: &Value, value: &Value) -> Option<usize> {
    let big_integer = |value: &Value| {
        value.as_u64().is_some_and(|n| n > EXACT_F64)
            || value.as_i64().is_some_and(|n| n.unsigned_abs() > EXACT_F64)
    };
    let fractional_divisor = |key: &str, value: &Value| {
        key == "multipleOf" && value.as_f64().is_some_and(|divisor| divisor.fract() != 0.0)
    };
    if any_node(value, &|_, node| big_integer(node)) && any_node(schema, &fractional_divisor) {
        return Some(0);
    }
    let draft2019 = schema.get("$schema") == Some(&json!(Draft::D2019.uri()));
    let has = |keyword: &'static str| any_node(schema, &move |key, _| key == keyword);
    if draft2019 && has("contains") && has("unevaluatedItems") {
        return Some(2);
    }
    None
}

/// Whether some member of `value` (at any depth, with the key it sits under, `""` for array
/// elements and the root) satisfies `test`.
fn any_node(value: &Value, test: &dyn Fn(&str, &Value) -> bool) -> bool {
    fn walk(key: &str, value: &Value, test: &dyn Fn(&str, &Value) -> bool) -> bool {
        test(key, value)
            || match value {
                Value::Array(items) => items.iter().any(|item| walk("", item, test)),
                Value::Object(map) => map.iter().any(|(key, member)| walk(key, member, test)),
                _ => false,
            }
    }
    walk("", value, test)
}

/// How many cases each property runs: `PROPTEST_CASES`, else `default`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(default)
}

// ---------------------------------------------------------------------------------------------
// Shared pools: the schemas and the values draw from these, so they meet often.
// ---------------------------------------------------------------------------------------------

const KEYS: [&str; 6] = ["a", "b", "c", "ab", "ba", "1"];
const TYPES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "string", "integer",
];
const STRINGS: [&str; 17] = [
    "", "a", "b", "ab", "ba", "abc", "aaa", "A", "1", "12", "٣", "é", "😀", "ab😀", " ", "\u{a0}",
    "\u{feff}",
];
/// ECMA-262 patterns that both engines read alike: no look-around or back-references (the core
/// refuses those as needing backtracking), ASCII classes only.
const PATTERNS: [&str; 16] = [
    "^a",
    "a$",
    "^a*$",
    "b",
    "^[ab]+$",
    "^.$",
    "[0-9]",
    "^\\d+$",
    "^(a|b)c?$",
    "a{2}",
    "^$",
    "^[^a]",
    "^\\w+$",
    "^\\s$",
    "^\\S{2}",
    "[A-Z]",
];
const BOUNDS: [&str; 4] = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];
/// How many `$defs` (or `definitions`) each generated document has.
const DEFS: usize = 2;

fn numbers() -> Vec<Value> {
    vec![
        json!(0),
        json!(1),
        json!(-1),
        json!(2),
        json!(3),
        json!(10),
        json!(1.0),
        json!(-0.0),
        json!(1.5),
        json!(2.5),
        json!(-0.5),
        json!(0.1),
        json!(0.3),
        json!(1e20),
        json!(1e308),
        json!(9_007_199_254_740_992.0),
        json!(9_007_199_254_740_993_u64),
        json!(-9_007_199_254_740_993_i64),
        json!(u64::MAX),
        json!(18_446_744_073_709_551_615.0),
    ]
}

fn divisors() -> Vec<Value> {
    vec![
        json!(1),
        json!(2),
        json!(3),
        json!(7),
        json!(0.5),
        json!(1.5),
        json!(0.1),
        json!(0.3),
        json!(0.01),
    ]
}

fn scalar() -> BoxedStrategy<Value> {
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        4 => select(numbers()),
        4 => select(STRINGS.to_vec()).prop_map(|text| json!(text)),
    ]
    .boxed()
}

fn object(entries: impl IntoIterator<Item = (String, Value)>) -> Value {
    Value::Object(entries.into_iter().collect())
}

/// Values built from the pools: objects keyed by `KEYS`, short arrays, mostly not scalars at
/// the top (most keywords read into objects and arrays).
fn top_instance() -> BoxedStrategy<Value> {
    prop_oneof![
        1 => scalar(),
        2 => prop::collection::vec(instance(2), 0..5).prop_map(Value::Array),
        2 => prop::collection::btree_map(select(KEYS.to_vec()), instance(2), 0..5)
            .prop_map(|map| object(map.into_iter().map(|(key, value)| (key.to_owned(), value)))),
    ]
    .boxed()
}

/// Values built from the pools: objects keyed by `KEYS`, short arrays.
fn instance(depth: u32) -> BoxedStrategy<Value> {
    scalar()
        .prop_recursive(depth, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map(select(KEYS.to_vec()), inner, 0..4).prop_map(|map| {
                    object(map.into_iter().map(|(key, value)| (key.to_owned(), value)))
                }),
            ]
        })
        .boxed()
}

// ---------------------------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Draft {
    D2020,
    /// Draft 2019-09: 2020-12's generators with an array `items` and `additionalItems` for
    /// `prefixItems`, and `$recursiveRef`/`$recursiveAnchor` for the dynamic keywords.
    D2019,
    D7,
    /// draft-06: draft-07's generators, its `if`/`then`/`else` and `$comment` unknown keywords
    /// (annotations) to both engines.
    D6,
}

impl Draft {
    fn uri(self) -> &'static str {
        match self {
            Draft::D2020 => "https://json-schema.org/draft/2020-12/schema",
            Draft::D2019 => "https://json-schema.org/draft/2019-09/schema",
            Draft::D7 => "http://json-schema.org/draft-07/schema#",
            Draft::D6 => "http://json-schema.org/draft-06/schema#",
        }
    }

    fn defs(self) -> &'static str {
        match self {
            Draft::D2020 | Draft::D2019 => "$defs",
            Draft::D7 | Draft::D6 => "definitions",
        }
    }

    fn ours(self) -> Options {
        let mut options = Options::new(match self {
            Draft::D2020 => Dialect::Draft2020_12,
            Draft::D2019 => Dialect::Draft2019_09,
            Draft::D7 => Dialect::Draft7,
            Draft::D6 => Dialect::Draft6,
        });
        options.any_root = true;
        options
    }

    fn theirs(self) -> jsonschema::Draft {
        match self {
            Draft::D2020 => jsonschema::Draft::Draft202012,
            Draft::D2019 => jsonschema::Draft::Draft201909,
            Draft::D7 => jsonschema::Draft::Draft7,
            Draft::D6 => jsonschema::Draft::Draft6,
        }
    }
}

/// Where a subschema sits, for the references it may hold. A reference cycle must not apply
/// schema after schema to one value (both engines would recurse without end, and the core
/// stops such loops with a schema error of its own): so an unguarded place (one applying to
/// the same value as the document root, through `allOf`, `not`, `$ref`, ...) of definition `i`
/// may only refer to definitions below `i` (the root to all of them); once a keyword has moved
/// to a child value or a key (`properties`, `items`, `propertyNames`, ...) the place is guarded
/// and any reference, `#` included, is fine: each trip round a cycle then consumes the value.
#[derive(Clone, Copy, Debug)]
struct Place {
    draft: Draft,
    /// `None`: the document root; `Some(i)`: definition `i`.
    def: Option<usize>,
    guarded: bool,
}

impl Place {
    /// The references this place may hold, as (keyword, target).
    ///
    /// draft-07: each definition by JSON pointer and by its fragment `$id`; once guarded, the
    /// root (`#`).
    ///
    /// 2020-12: the root is `https://example.com/root.json` and each definition its own
    /// resource `d{i}.json` (with `$anchor` `a{i}` and `$dynamicAnchor` `x`), so references are
    /// written relative to the root's base URI and resolve alike from any resource: each
    /// definition by pointer (`root.json#/$defs/d{i}`), by `$id` and by anchor; once guarded,
    /// the root (`root.json`, and `$dynamicRef` to its `$dynamicAnchor` `root`) and, inside a
    /// definition, `$dynamicRef` `#x`, which lands on the outermost definition the evaluation
    /// passed through.
    ///
    /// 2019-09: as 2020-12, with `$recursiveRef` `#` once guarded: every resource has
    /// `$recursiveAnchor: true`, so it lands on the root.
    fn refs(self) -> Vec<(&'static str, String)> {
        let below = if self.guarded {
            DEFS
        } else {
            self.def.unwrap_or(DEFS)
        };
        let mut refs = Vec::new();
        for i in 0..below {
            match self.draft {
                Draft::D7 | Draft::D6 => {
                    refs.push(("$ref", format!("#/definitions/d{i}")));
                    refs.push(("$ref", format!("#a{i}")));
                }
                Draft::D2020 | Draft::D2019 => {
                    refs.push(("$ref", format!("root.json#/$defs/d{i}")));
                    refs.push(("$ref", format!("d{i}.json")));
                    refs.push(("$ref", format!("d{i}.json#a{i}")));
                }
            }
        }
        if self.guarded {
            match self.draft {
                Draft::D7 | Draft::D6 => refs.push(("$ref", "#".to_owned())),
                Draft::D2020 => {
                    refs.push(("$ref", "root.json".to_owned()));
                    refs.push(("$dynamicRef", "root.json#root".to_owned()));
                    if self.def.is_some() {
                        refs.push(("$dynamicRef", "#x".to_owned()));
                    }
                }
                Draft::D2019 => {
                    refs.push(("$ref", "root.json".to_owned()));
                    refs.push(("$recursiveRef", "#".to_owned()));
                }
            }
        }
        refs
    }

    fn child(self) -> Place {
        Place {
            guarded: true,
            ..self
        }
    }
}

type Entries = Vec<(String, Value)>;

fn entry(
    key: &'static str,
    value: impl Strategy<Value = Value> + 'static,
) -> BoxedStrategy<Entries> {
    value
        .prop_map(move |value| vec![(key.to_owned(), value)])
        .boxed()
}

fn keys_array() -> BoxedStrategy<Value> {
    subsequence(KEYS.to_vec(), 0..4)
        .prop_map(|keys| json!(keys))
        .boxed()
}

fn small_count() -> BoxedStrategy<Value> {
    (0_u64..4).prop_map(|count| json!(count)).boxed()
}

fn type_keyword() -> BoxedStrategy<Value> {
    prop_oneof![
        select(TYPES.to_vec()).prop_map(|name| json!(name)),
        subsequence(TYPES.to_vec(), 1..4).prop_map(|names| json!(names)),
    ]
    .boxed()
}

fn schema_map(
    keys: impl Strategy<Value = &'static str> + 'static,
    schema: BoxedStrategy<Value>,
) -> BoxedStrategy<Value> {
    prop::collection::btree_map(keys, schema, 1..3)
        .prop_map(|map| object(map.into_iter().map(|(key, value)| (key.to_owned(), value))))
        .boxed()
}

/// Schemas that both engines refuse wherever the root reaches them: values the meta-schema
/// forbids, and a pattern that is no regular expression. (References that resolve nowhere are
/// not generated: only the core refuses them where nothing reaches them, KNOWN_DIFFERENCES 2.)
fn invalid_leaves() -> Vec<Value> {
    vec![
        json!({"minLength": -1}),
        json!({"type": "text"}),
        json!({"required": "a"}),
        json!({"multipleOf": 0}),
        json!({"maxItems": 1.5}),
        json!({"pattern": "("}),
        json!({"properties": {"a": 1}}),
        json!({"allOf": []}),
    ]
}

/// Schemas with no subschema.
fn leaf(place: Place) -> BoxedStrategy<Value> {
    let refs = place.refs();
    let mut leaves: Vec<(u32, BoxedStrategy<Value>)> = vec![
        (20, any::<bool>().prop_map(Value::Bool).boxed()),
        (10, Just(json!({})).boxed()),
        (
            30,
            type_keyword()
                .prop_map(|types| json!({ "type": types }))
                .boxed(),
        ),
        (
            10,
            (select(BOUNDS.to_vec()), select(numbers()))
                .prop_map(|(bound, limit)| object([(bound.to_owned(), limit)]))
                .boxed(),
        ),
        (
            10,
            instance(1)
                .prop_map(|value| json!({ "const": value }))
                .boxed(),
        ),
        (
            10,
            prop::collection::vec(instance(1), 1..4)
                .prop_map(|values| json!({ "enum": values }))
                .boxed(),
        ),
        (
            10,
            select(PATTERNS.to_vec())
                .prop_map(|pattern| json!({ "pattern": pattern }))
                .boxed(),
        ),
        (
            10,
            keys_array()
                .prop_map(|keys| json!({ "required": keys }))
                .boxed(),
        ),
    ];
    // Keyword values the dialect forbids: both engines must refuse the schema. Rare, so that
    // most schemas compile.
    leaves.push((1, select(invalid_leaves()).boxed()));
    if !refs.is_empty() {
        leaves.push((
            20,
            select(refs)
                .prop_map(|(keyword, target)| object([(keyword.to_owned(), json!(target))]))
                .boxed(),
        ));
    }
    proptest::strategy::Union::new_weighted(leaves).boxed()
}

/// The keyword groups of one schema object. `same` applies to the same value, `child` to a
/// child value or key.
fn groups(
    place: Place,
    same: &BoxedStrategy<Value>,
    child: &BoxedStrategy<Value>,
) -> BoxedStrategy<Entries> {
    let draft = place.draft;
    let same_list = prop::collection::vec(same.clone(), 1..4)
        .prop_map(Value::Array)
        .boxed();
    let mut groups: Vec<(u32, BoxedStrategy<Entries>)> = vec![
        (4, entry("type", type_keyword())),
        (
            1,
            entry(
                "enum",
                prop::collection::vec(instance(2), 1..4).prop_map(Value::Array),
            ),
        ),
        (1, entry("const", instance(2))),
        (
            2,
            prop::collection::vec((select(BOUNDS.to_vec()), select(numbers())), 1..3)
                .prop_map(|bounds| {
                    bounds
                        .into_iter()
                        .map(|(bound, limit)| (bound.to_owned(), limit))
                        .collect()
                })
                .boxed(),
        ),
        (1, entry("multipleOf", select(divisors()))),
        (
            1,
            prop::collection::vec(
                (select(vec!["minLength", "maxLength"]), small_count()),
                1..3,
            )
            .prop_map(|pairs| {
                pairs
                    .into_iter()
                    .map(|(key, n)| (key.to_owned(), n))
                    .collect()
            })
            .boxed(),
        ),
        (
            1,
            entry("pattern", select(PATTERNS.to_vec()).prop_map(|p| json!(p))),
        ),
        (
            3,
            entry(
                "properties",
                schema_map(select(KEYS.to_vec()), child.clone()),
            ),
        ),
        (2, entry("required", keys_array())),
        (2, entry("additionalProperties", child.clone())),
        (
            1,
            entry(
                "patternProperties",
                schema_map(select(PATTERNS.to_vec()), child.clone()),
            ),
        ),
        (1, entry("propertyNames", child.clone())),
        (
            1,
            prop::collection::vec(
                (
                    select(vec!["minProperties", "maxProperties"]),
                    small_count(),
                ),
                1..3,
            )
            .prop_map(|pairs| {
                pairs
                    .into_iter()
                    .map(|(key, n)| (key.to_owned(), n))
                    .collect()
            })
            .boxed(),
        ),
        (2, entry("contains", child.clone())),
        (1, entry("uniqueItems", any::<bool>().prop_map(Value::Bool))),
        (
            1,
            prop::collection::vec((select(vec!["minItems", "maxItems"]), small_count()), 1..3)
                .prop_map(|pairs| {
                    pairs
                        .into_iter()
                        .map(|(key, n)| (key.to_owned(), n))
                        .collect()
                })
                .boxed(),
        ),
        (2, entry("allOf", same_list.clone())),
        (2, entry("anyOf", same_list.clone())),
        (2, entry("oneOf", same_list)),
        (1, entry("not", same.clone())),
        // Annotations, to both engines: `format` (not asserted on either side), and keywords
        // of no vocabulary, whatever their value.
        (
            1,
            entry(
                "format",
                select(vec!["email", "date", "ipv4", "regex", "unknown-format"])
                    .prop_map(|f| json!(f)),
            ),
        ),
        (
            1,
            (select(vec!["title", "$comment"]), select(STRINGS.to_vec()))
                .prop_map(|(key, text)| vec![(key.to_owned(), json!(text))])
                .boxed(),
        ),
        (
            1,
            (select(vec!["x-note", "unknownKeyword"]), instance(1))
                .prop_map(|(key, value)| vec![(key.to_owned(), value)])
                .boxed(),
        ),
        (
            2,
            (
                same.clone(),
                prop::option::of(same.clone()),
                prop::option::of(same.clone()),
            )
                .prop_map(|(condition, then, otherwise)| {
                    let mut entries = vec![("if".to_owned(), condition)];
                    entries.extend(then.map(|then| ("then".to_owned(), then)));
                    entries.extend(otherwise.map(|otherwise| ("else".to_owned(), otherwise)));
                    entries
                })
                .boxed(),
        ),
    ];
    let refs = place.refs();
    if !refs.is_empty() {
        groups.push((
            2,
            select(refs)
                .prop_map(|(keyword, target)| vec![(keyword.to_owned(), json!(target))])
                .boxed(),
        ));
    }
    // Every dialect generated has `dependencies`: the meta-schemas of 2019-09 and 2020-12 still
    // list it, and the core reads it as draft-07 does (README, "Where the contract is silent").
    groups.push((
        1,
        entry(
            "dependencies",
            prop::collection::btree_map(
                select(KEYS.to_vec()),
                prop_oneof![keys_array(), same.clone()],
                1..3,
            )
            .prop_map(|map| object(map.into_iter().map(|(k, v)| (k.to_owned(), v)))),
        ),
    ));
    if matches!(draft, Draft::D2020 | Draft::D2019) {
        groups.extend([
            (
                1,
                entry(
                    "dependentRequired",
                    prop::collection::btree_map(select(KEYS.to_vec()), keys_array(), 1..3)
                        .prop_map(|map| object(map.into_iter().map(|(k, v)| (k.to_owned(), v)))),
                ),
            ),
            (
                1,
                entry(
                    "dependentSchemas",
                    schema_map(select(KEYS.to_vec()), same.clone()),
                ),
            ),
            (
                1,
                prop::collection::vec(
                    (select(vec!["minContains", "maxContains"]), small_count()),
                    1..3,
                )
                .prop_map(|pairs| {
                    pairs
                        .into_iter()
                        .map(|(key, n)| (key.to_owned(), n))
                        .collect()
                })
                .boxed(),
            ),
            (2, entry("unevaluatedProperties", child.clone())),
            (2, entry("unevaluatedItems", child.clone())),
        ]);
    }
    let tuple = || prop::collection::vec(child.clone(), 1..3).prop_map(Value::Array);
    match draft {
        Draft::D2020 => groups.extend([
            (3, entry("items", child.clone())),
            (2, entry("prefixItems", tuple())),
        ]),
        Draft::D2019 | Draft::D7 | Draft::D6 => groups.extend([
            (3, entry("items", prop_oneof![child.clone(), tuple()])),
            (2, entry("additionalItems", child.clone())),
        ]),
    }
    proptest::strategy::Union::new_weighted(groups).boxed()
}

/// A schema of at most `depth` levels of subschemas below it.
fn schema(place: Place, depth: u32) -> BoxedStrategy<Value> {
    if depth == 0 {
        return leaf(place);
    }
    let child = schema(place.child(), depth - 1);
    let same = if place.guarded {
        child.clone()
    } else {
        schema(place, depth - 1)
    };
    let groups = groups(place, &same, &child);
    prop_oneof![
        1 => leaf(place),
        5 => prop::collection::vec(groups, 1..4)
            .prop_map(|groups| object(groups.into_iter().flatten())),
    ]
    .boxed()
}

/// A whole document: its root, `$schema` naming the dialect, and the definitions its
/// references may name.
fn document(draft: Draft) -> BoxedStrategy<Value> {
    let root = schema(
        Place {
            draft,
            def: None,
            guarded: false,
        },
        3,
    );
    let defs: Vec<BoxedStrategy<Value>> = (0..DEFS)
        .map(|i| {
            schema(
                Place {
                    draft,
                    def: Some(i),
                    guarded: false,
                },
                2,
            )
        })
        .collect();
    (root, defs)
        .prop_map(move |(root, defs)| {
            let refs: Vec<Value> = (0..DEFS)
                .map(|i| json!({"$ref": format!("#/{}/d{i}", draft.defs())}))
                .collect();
            let defs = defs
                .into_iter()
                .enumerate()
                .map(|(i, def)| (format!("d{i}"), anchored(draft, i, def)));
            // The root is wrapped so that every definition is reached (`anyOf` with `true`
            // does not change the answer): jsonschema compiles only what the root reaches,
            // the core the whole document (KNOWN_DIFFERENCES 2).
            let mut document = json!({
                "$schema": draft.uri(),
                "allOf": [root],
                "anyOf": [true, refs[0], refs[1]],
            });
            let map = document.as_object_mut().unwrap();
            map.insert(draft.defs().to_owned(), object(defs));
            match draft {
                Draft::D2020 => {
                    map.insert("$id".to_owned(), json!("https://example.com/root.json"));
                    map.insert("$dynamicAnchor".to_owned(), json!("root"));
                }
                Draft::D2019 => {
                    map.insert("$id".to_owned(), json!("https://example.com/root.json"));
                    map.insert("$recursiveAnchor".to_owned(), json!(true));
                }
                Draft::D7 | Draft::D6 => {}
            }
            scrub_unreached(draft, &mut document, false);
            document
        })
        .boxed()
}

/// Replaces each invalid leaf by `{}` where jsonschema never compiles it, so that it cannot
/// refuse it:
/// in 2020-12 and 2019-09, below an `if` with neither `then` nor `else` (its answer changes
/// nothing, and jsonschema skips it there; the core checks the whole document:
/// KNOWN_DIFFERENCES 2), and in 2019-09 below an `additionalItems` without an array `items`.
fn scrub_unreached(draft: Draft, value: &mut Value, unreached: bool) {
    if unreached && invalid_leaves().contains(value) {
        *value = json!({});
        return;
    }
    match value {
        Value::Object(map) => {
            let lone_if = matches!(draft, Draft::D2020 | Draft::D2019)
                && !map.contains_key("then")
                && !map.contains_key("else");
            let lone_additional_items =
                draft == Draft::D2019 && !matches!(map.get("items"), Some(Value::Array(_)));
            for (key, member) in map.iter_mut() {
                let hidden =
                    (lone_if && key == "if") || (lone_additional_items && key == "additionalItems");
                scrub_unreached(draft, member, unreached || hidden);
            }
        }
        Value::Array(items) => {
            for item in items {
                scrub_unreached(draft, item, unreached);
            }
        }
        _ => {}
    }
}

/// Definition `i` with its anchor `a{i}` (2020-12: also its own `$id` and `$dynamicAnchor`
/// `x`). A boolean becomes the object of the same meaning; in draft-07 a `$ref` hides its
/// siblings, `$id` included, so such a definition is wrapped.
fn anchored(draft: Draft, i: usize, def: Value) -> Value {
    let mut map = match def {
        Value::Object(map) => map,
        Value::Bool(true) => Map::new(),
        _ => json!({"not": {}}).as_object().unwrap().clone(),
    };
    match draft {
        Draft::D2020 => {
            map.insert("$id".to_owned(), json!(format!("d{i}.json")));
            map.insert("$anchor".to_owned(), json!(format!("a{i}")));
            map.insert("$dynamicAnchor".to_owned(), json!("x"));
            Value::Object(map)
        }
        Draft::D2019 => {
            map.insert("$id".to_owned(), json!(format!("d{i}.json")));
            map.insert("$anchor".to_owned(), json!(format!("a{i}")));
            map.insert("$recursiveAnchor".to_owned(), json!(true));
            Value::Object(map)
        }
        Draft::D7 | Draft::D6 if map.contains_key("$ref") => {
            json!({"$id": format!("#a{i}"), "allOf": [Value::Object(map)]})
        }
        Draft::D7 | Draft::D6 => {
            map.insert("$id".to_owned(), json!(format!("#a{i}")));
            Value::Object(map)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The two engines
// ---------------------------------------------------------------------------------------------

fn ours_compile(schema: &Value, options: Options) -> Result<Compiled, String> {
    let lookup = |_: &str| None;
    Profile::Json(options)
        .compile(Json::from(schema), &lookup, &mut Budget::unlimited())
        .map_err(|failure| describe(&failure))
}

fn describe<V>(failure: &Failure<V>) -> String {
    match failure {
        Failure::Exhausted => "budget exhausted".to_owned(),
        _ => failure
            .first()
            .map_or_else(|| "no error".to_owned(), ToString::to_string),
    }
}

/// The core's answer: valid, invalid, or anything else (a schema error at validation time, or
/// exhaustion under an unlimited budget), which is a failure in itself.
fn ours_valid(schema: &Compiled, value: &Value) -> Result<bool, String> {
    match schema.validate(Json::from(value), Mode::First, &mut Budget::unlimited()) {
        Ok(()) => Ok(true),
        Err(Failure::Arguments(_)) => Ok(false),
        Err(other) => Err(describe(&other)),
    }
}

fn theirs_compile(schema: &Value, draft: Draft) -> Result<jsonschema::Validator, String> {
    jsonschema::options()
        .with_draft(draft.theirs())
        .should_validate_formats(false)
        .build(schema)
        .map_err(|error| error.to_string())
}

fn text(value: &Value) -> String {
    serde_json::to_string(value).unwrap()
}

/// Both engines on one schema and its values: `Err` names the first disagreement.
fn compare(draft: Draft, schema: &Value, values: &[Value]) -> Result<Outcome, String> {
    let ours = ours_compile(schema, draft.ours());
    let theirs = theirs_compile(schema, draft);
    let (ours, theirs) = match (ours, theirs) {
        (Ok(ours), Ok(theirs)) => (ours, theirs),
        (Err(_), Err(_)) => return Ok(Outcome::default()),
        (Ok(_), Err(error)) => {
            return Err(format!(
                "{draft:?}: only the core compiles {}\n  jsonschema: {error}",
                text(schema)
            ))
        }
        (Err(error), Ok(_)) => {
            return Err(format!(
                "{draft:?}: only jsonschema compiles {}\n  core: {error}",
                text(schema)
            ))
        }
    };
    let mut outcome = Outcome {
        compiled: true,
        ..Outcome::default()
    };
    for value in values {
        let theirs = theirs.is_valid(value);
        match ours_valid(&ours, value) {
            Ok(valid) if valid == theirs => {
                if valid {
                    outcome.valid += 1;
                } else {
                    outcome.invalid += 1;
                }
            }
            Ok(_) if known_difference(schema, value).is_some() => outcome.known += 1,
            Ok(valid) => {
                let side = if valid { "the core" } else { "jsonschema" };
                return Err(format!(
                    "{draft:?}: only {side} says valid\n  schema: {}\n  value: {}",
                    text(schema),
                    text(value)
                ));
            }
            Err(error) => {
                return Err(format!(
                    "{draft:?}: the core did not answer ({error}), jsonschema says {theirs}\n  \
                     schema: {}\n  value: {}",
                    text(schema),
                    text(value)
                ))
            }
        }
    }
    Ok(outcome)
}

#[derive(Debug, Default)]
struct Outcome {
    compiled: bool,
    valid: usize,
    invalid: usize,
    /// Disagreements that `KNOWN_DIFFERENCES` explains.
    known: usize,
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(256),
        ..ProptestConfig::default()
    })]

    #[test]
    fn draft2020_12_agrees_with_jsonschema(
        schema in document(Draft::D2020),
        values in prop::collection::vec(top_instance(), 1..8),
    ) {
        if let Err(disagreement) = compare(Draft::D2020, &schema, &values) {
            prop_assert!(false, "{}", disagreement);
        }
    }

    #[test]
    fn draft2019_09_agrees_with_jsonschema(
        schema in document(Draft::D2019),
        values in prop::collection::vec(top_instance(), 1..8),
    ) {
        if let Err(disagreement) = compare(Draft::D2019, &schema, &values) {
            prop_assert!(false, "{}", disagreement);
        }
    }

    #[test]
    fn draft7_agrees_with_jsonschema(
        schema in document(Draft::D7),
        values in prop::collection::vec(top_instance(), 1..8),
    ) {
        if let Err(disagreement) = compare(Draft::D7, &schema, &values) {
            prop_assert!(false, "{}", disagreement);
        }
    }

    #[test]
    fn draft6_agrees_with_jsonschema(
        schema in document(Draft::D6),
        values in prop::collection::vec(top_instance(), 1..8),
    ) {
        if let Err(disagreement) = compare(Draft::D6, &schema, &values) {
            prop_assert!(false, "{}", disagreement);
        }
    }
}

/// The generators are only worth running if both engines compile most schemas and both
/// answers are common; a fixed seed keeps this test deterministic.
#[test]
fn generated_cases_reach_both_answers() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    for draft in [Draft::D2020, Draft::D2019, Draft::D7, Draft::D6] {
        let mut runner = TestRunner::new_with_rng(
            Config::default(),
            TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
        );
        let strategy = (document(draft), prop::collection::vec(top_instance(), 1..8));
        let (mut schemas, mut compiled, mut valid, mut invalid) = (0, 0, 0, 0);
        for _ in 0..200 {
            let (schema, values) = strategy.new_tree(&mut runner).unwrap().current();
            let outcome = compare(draft, &schema, &values).unwrap();
            schemas += 1;
            compiled += usize::from(outcome.compiled);
            valid += outcome.valid;
            invalid += outcome.invalid;
        }
        println!("{draft:?}: {schemas} schemas, {compiled} compiled, {valid} valid answers, {invalid} invalid");
        assert!(
            compiled * 10 >= schemas * 8,
            "{draft:?}: {compiled} of {schemas} compiled"
        );
        let answers = valid + invalid;
        assert!(
            valid * 5 >= answers,
            "{draft:?}: {valid} valid of {answers}"
        );
        assert!(
            invalid * 5 >= answers,
            "{draft:?}: {invalid} invalid of {answers}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The compiler never panics
// ---------------------------------------------------------------------------------------------

const KEYWORDS: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "id",
    "$vocabulary",
    "$comment",
    "$defs",
    "definitions",
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "dependencies",
    "properties",
    "patternProperties",
    "additionalProperties",
    "additional_properties",
    "propertyNames",
    "items",
    "prefixItems",
    "additionalItems",
    "contains",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "unevaluatedItems",
    "unevaluatedProperties",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "title",
    "default",
    "examples",
    "x-mcp-header",
    "a",
    "",
];

/// Strings that mean something somewhere in a schema: references, URIs, dialects, anchors,
/// patterns, formats, types.
const MEANINGFUL: &[&str] = &[
    "#",
    "#/",
    "#/$defs/a",
    "#/definitions/a",
    "#/properties/a",
    "#/items/0",
    "#/$defs/a/$defs",
    "#a",
    "#/~0~1~2",
    "#/%25",
    "#/%",
    "#foo",
    "#/$defs/%61",
    "a.json",
    "a.json#/$defs/a",
    "../a.json",
    "//host/a",
    "http://example.com/a.json",
    "http://example.com/a.json#a",
    "http://example.com/root",
    "http://example.com/self.json",
    "urn:example:a",
    "urn:uuid:deadbeef",
    "tag:x,2024:y",
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2020-12/schema#",
    "http://json-schema.org/draft-07/schema#",
    "http://json-schema.org/draft-07/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-04/schema#",
    "http://json-schema.org/draft-06/schema",
    "https://json-schema.org/draft/2019-09/meta/applicator",
    "https://json-schema.org/draft/2020-12/meta/core",
    "http://[::1",
    "http://exa mple.com/",
    "a",
    "meta",
    "string",
    "object",
    "integer",
    "null",
    "number",
    "array",
    "boolean",
    "date-time",
    "email",
    "uri",
    "regex",
    "ipv6",
    "base64",
    "application/json",
    "^a",
    "(?=a)",
    "(a)\\1",
    "[",
    "\\",
    "a{2,1}",
    "\\p{L}",
    "(?<n>a)\\k<n>",
    "a{99999}",
    "\\u{1F600}",
    "[\\d-z]",
    "\u{0}",
    "\u{FEFF}",
    "\u{10FFFF}",
    "😀",
    "\\cJ",
];

fn fuzz_number() -> BoxedStrategy<Value> {
    prop_oneof![
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_map(|n| serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)),
        (-3_i64..10).prop_map(|n| json!(n)),
        select(vec![
            json!(0.0),
            json!(-0.0),
            json!(1e308),
            json!(-1e308),
            json!(5e-324),
            json!(0.5),
            json!(1e-30),
            json!(i64::MIN),
            json!(u64::MAX),
        ]),
    ]
    .boxed()
}

fn fuzz_scalar() -> BoxedStrategy<Value> {
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        3 => fuzz_number(),
        4 => select(MEANINGFUL.to_vec()).prop_map(|text| json!(text)),
        2 => "\\PC{0,6}".prop_map(Value::String),
        1 => ".{0,4}".prop_map(Value::String),
    ]
    .boxed()
}

/// Arbitrary JSON shaped like schemas: objects keyed mostly by keywords.
fn fuzz_json() -> BoxedStrategy<Value> {
    fuzz_scalar()
        .prop_recursive(5, 64, 5, |inner| {
            let key = fuzz_key();
            prop_oneof![
                1 => prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                4 => prop::collection::vec((key, inner), 0..5)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
            ]
        })
        .boxed()
}

fn fuzz_key() -> BoxedStrategy<String> {
    prop_oneof![
        6 => select(KEYWORDS.to_vec()).prop_map(str::to_owned),
        1 => "\\PC{0,4}",
    ]
    .boxed()
}

/// Schemas for the fuzz: mostly objects (anything else stops at the first check), some
/// arbitrary JSON, and some valid generated documents with arbitrary keywords added at the
/// root and in a definition, so that deeper schemas compile and then meet the values.
fn fuzz_schema() -> BoxedStrategy<Value> {
    let extra = || prop::collection::vec((fuzz_key(), fuzz_json()), 0..3);
    prop_oneof![
        4 => prop::collection::vec((fuzz_key(), fuzz_json()), 0..6)
            .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
        1 => fuzz_json(),
        3 => (
            prop_oneof![
                document(Draft::D2020),
                document(Draft::D2019),
                document(Draft::D7),
                document(Draft::D6)
            ],
            extra(),
            extra(),
        )
            .prop_map(|(mut document, root, def)| {
                let map = document.as_object_mut().unwrap();
                let defs = if map.contains_key("$defs") { "$defs" } else { "definitions" };
                if let Some(Value::Object(def0)) = map.get_mut(defs).and_then(|defs| defs.get_mut("d0")) {
                    def0.extend(def);
                }
                map.extend(root);
                document
            }),
    ]
    .boxed()
}

fn fuzz_options() -> BoxedStrategy<Options> {
    (
        select(vec![
            Dialect::Draft2020_12,
            Dialect::Draft2019_09,
            Dialect::Draft7,
            Dialect::Draft6,
            Dialect::Draft4,
            Dialect::Auto,
        ]),
        any::<[bool; 5]>(),
    )
        .prop_map(
            |(dialect, [strict, format_assertion, content_assertion, any_root, loader])| Options {
                dialect,
                strict,
                format_assertion,
                content_assertion,
                any_root,
                loader,
            },
        )
        .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(1024),
        ..ProptestConfig::default()
    })]

    #[test]
    fn compile_never_panics(
        schema in fuzz_schema(),
        options in fuzz_options(),
        values in prop::collection::vec(prop_oneof![fuzz_json(), instance(3)], 0..4),
        document in fuzz_json(),
        all in any::<bool>(),
    ) {
        // The registry: one fixed document, the generated schema itself, and a generated one.
        let fixed = json!({"$id": "http://example.com/a.json", "$defs": {"a": {"type": "integer"}}, "$anchor": "a"});
        let lookup = |uri: &str| {
            if uri.starts_with("http://example.com/a.json") {
                Some(Json::from(&fixed))
            } else if uri.contains("self") {
                Some(Json::from(&schema))
            } else if uri.contains("meta") || uri.starts_with("urn:") {
                Some(Json::from(&document))
            } else {
                None
            }
        };
        let compiled = Profile::Json(options).compile(Json::from(&schema), &lookup, &mut Budget::new(10_000_000));
        if let Ok(compiled) = compiled {
            let mode = if all { Mode::All { max_errors: 20 } } else { Mode::First };
            for value in &values {
                // Any answer will do (the tool boundary without `any_root` is a schema error
                // at validation time); every error it gives must render.
                if let Err(failure) = compiled.validate(Json::from(value), mode, &mut Budget::new(1_000_000)) {
                    prop_assert!(!describe(&failure).is_empty());
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Known differences
// ---------------------------------------------------------------------------------------------

/// Each entry of `KNOWN_DIFFERENCES` on its examples: both engines still answer as it says,
/// and the first is the disagreement `known_difference` forgives.
#[test]
fn known_differences_hold() {
    assert_eq!(KNOWN_DIFFERENCES.len(), 3);
    // 1: (dialect, schema, value, the core's answer; jsonschema's is the other).
    let answers: &[(Draft, Value, Value, bool)] = &[
        (
            Draft::D2020,
            json!({"multipleOf": 1.5}),
            json!(9_007_199_254_740_993_u64),
            true,
        ),
        (
            Draft::D7,
            json!({"multipleOf": 0.3}),
            json!(9_007_199_254_740_993_u64),
            true,
        ),
        (
            Draft::D2020,
            json!({"items": {"multipleOf": 1.5}}),
            json!([u64::MAX]),
            true,
        ),
    ];
    for (draft, schema, value, expected) in answers {
        let ours = ours_compile(schema, draft.ours()).unwrap();
        let theirs = theirs_compile(schema, *draft).unwrap();
        let case = format!("{draft:?}: {} with {}", text(schema), text(value));
        assert_eq!(ours_valid(&ours, value), Ok(*expected), "{case}");
        assert_eq!(theirs.is_valid(value), !*expected, "{case}");
        assert_eq!(known_difference(schema, value), Some(0), "{case}");
    }
    // The predicate forgives nothing else: not the same value under an integer divisor.
    assert_eq!(
        known_difference(&json!({"multipleOf": 3}), &json!(9_007_199_254_740_993_u64)),
        None
    );
    // 2: schemas only the core refuses, and the same broken parts reached, which both refuse.
    let only_ours_refuses: &[(Draft, Value)] = &[
        (Draft::D2020, json!({"$defs": {"d": {"pattern": "("}}})),
        (
            Draft::D2020,
            json!({"$defs": {"d": {"$ref": "#/$defs/missing"}}}),
        ),
        (
            Draft::D7,
            json!({"definitions": {"d": {"$ref": "#/definitions/missing"}}}),
        ),
        (Draft::D2020, json!({"if": {"pattern": "("}})),
        (Draft::D2019, json!({"additionalItems": {"pattern": "("}})),
    ];
    for (draft, schema) in only_ours_refuses {
        let case = format!("{draft:?}: {}", text(schema));
        assert!(ours_compile(schema, draft.ours()).is_err(), "{case}");
        assert!(theirs_compile(schema, *draft).is_ok(), "{case}");
    }
    let both_refuse: &[(Draft, Value)] = &[
        (
            Draft::D2020,
            json!({"$defs": {"d": {"pattern": "("}}, "anyOf": [true, {"$ref": "#/$defs/d"}]}),
        ),
        (
            Draft::D7,
            json!({"definitions": {"d": {"$ref": "#/definitions/missing"}}, "$ref": "#/definitions/d"}),
        ),
        (Draft::D2020, json!({"if": {"pattern": "("}, "then": true})),
        (Draft::D7, json!({"if": {"pattern": "("}, "else": true})),
        // jsonschema's draft-07 reading compiles a lone `if` too.
        (Draft::D7, json!({"if": {"pattern": "("}})),
    ];
    for (draft, schema) in both_refuse {
        let case = format!("{draft:?}: {}", text(schema));
        assert!(ours_compile(schema, draft.ours()).is_err(), "{case}");
        assert!(theirs_compile(schema, *draft).is_err(), "{case}");
    }
    // 3: `contains` beside `unevaluatedItems` in 2019-09; in 2020-12 both engines agree.
    let schema = json!({
        "$schema": Draft::D2019.uri(),
        "contains": {},
        "unevaluatedItems": {"type": "null"}
    });
    let value = json!([false]);
    let ours = ours_compile(&schema, Draft::D2019.ours()).unwrap();
    let theirs = theirs_compile(&schema, Draft::D2019).unwrap();
    assert_eq!(ours_valid(&ours, &value), Ok(false));
    assert!(theirs.is_valid(&value));
    assert_eq!(known_difference(&schema, &value), Some(2));
    let later = json!({"contains": {}, "unevaluatedItems": {"type": "null"}});
    let ours = ours_compile(&later, Draft::D2020.ours()).unwrap();
    let theirs = theirs_compile(&later, Draft::D2020).unwrap();
    assert_eq!(ours_valid(&ours, &value), Ok(true));
    assert!(theirs.is_valid(&value));
    assert_eq!(known_difference(&later, &value), None);
}
