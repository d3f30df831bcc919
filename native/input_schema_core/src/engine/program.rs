//! The engine's compiled form: an arena of compact nodes that name each other by index (so
//! references are indices and cycles are fine), each a set of accepted JSON types and a short
//! run of checks chosen at compile time. What only the reporting walk reads (locations, the
//! written `type`, keyword tokens) is kept apart from what every walk reads.

use super::applicator::{Branches, Conditional, DynamicRef};
use super::array::ArrayCheck;
use super::enums::Enum;
use super::number::NumberCheck;
use super::object::ObjectCheck;
use super::string::StringCheck;
use super::term_keys::ExactKeyObject;
use crate::values::literal::Literal;

pub use super::node::{types, Anchors, Named, Node, NodeId, NodeInfo, Shortcut};

/// What a node checks, besides its types. The numeric, string, array and object checks each
/// fuse that family's keywords of one schema object, and apply to values of their type only.
#[derive(Debug)]
pub enum Check {
    Ref(NodeId),
    DynamicRef(Box<DynamicRef>),
    Enum(Box<Enum>),
    Const(Box<Literal>),
    Number(Box<NumberCheck>),
    String(Box<StringCheck>),
    Array(Box<ArrayCheck>),
    Object(Box<ObjectCheck>),
    /// The object keywords under the rule for term keys.
    ExactKeyObject(Box<ExactKeyObject>),
    /// A list, proper or not: an array schema that reads no item.
    AnyList,
    AllOf(Box<[NodeId]>),
    AnyOf(Box<Branches>),
    OneOf(Box<Branches>),
    Not(NodeId),
    If(Box<Conditional>),
    UnevaluatedItems(NodeId),
    UnevaluatedProperties(NodeId),
}

impl Check {
    /// The nodes it applies, for the program's graph (`json_schema::lower`).
    pub fn children(&self, mut each: impl FnMut(NodeId)) {
        match self {
            Check::Ref(node)
            | Check::Not(node)
            | Check::UnevaluatedItems(node)
            | Check::UnevaluatedProperties(node) => each(*node),
            Check::DynamicRef(reference) => each(reference.target),
            Check::AllOf(nodes) => nodes.iter().copied().for_each(each),
            Check::AnyOf(branches) | Check::OneOf(branches) => {
                branches.nodes.iter().copied().for_each(each)
            }
            Check::If(conditional) => {
                each(conditional.condition);
                conditional.then.into_iter().for_each(&mut each);
                conditional.otherwise.into_iter().for_each(each);
            }
            Check::String(string) => string.children(each),
            Check::Array(array) => array.children(each),
            Check::Object(object) => object.children(each),
            Check::ExactKeyObject(object) => object.children(each),
            Check::Enum(_) | Check::Const(_) | Check::Number(_) | Check::AnyList => {}
        }
    }
}

/// Schemas nested this deep or less are walked without stack checks: the walk's levels are the
/// schema's, each a few frames.
pub const UNGUARDED_HEIGHT: u32 = 16;

/// How a walk's errors speak: `Keyword` errors name the keyword that failed and the schema
/// path to it (the JSON modes); `Plain` errors name only the argument path (the subset's
/// contract).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Voice {
    #[default]
    Keyword,
    Plain,
}

/// A compiled schema: its nodes, their checks, and what the walks need besides.
#[derive(Debug, Default)]
pub struct Program {
    pub nodes: Vec<Node>,
    pub checks: Vec<Check>,
    /// Per check, the keyword it is reported as.
    pub names: Vec<Named>,
    pub info: Vec<NodeInfo>,
    pub root: NodeId,
    /// How a quick walk decides the root in place (`Visit` until the builder learns it).
    pub root_shortcut: Shortcut,
    /// Per node, how a quick walk decides it in place where it applies it (`Visit` for a node
    /// the builder has not learned).
    pub shortcuts: Vec<Shortcut>,
    /// Per resource, its dynamic anchors and the nodes they name (empty when no `$dynamicRef`
    /// needs them).
    pub dynamic_anchors: Vec<Anchors>,
    pub has_dynamic_refs: bool,
    /// Whether the walks must count levels, keep the dynamic scope and guard against
    /// references that loop without reading further into the value: the schema has a cycle,
    /// a dynamic reference, or more levels than a stack holds without checks.
    pub guarded: bool,
    pub voice: Voice,
}

impl Program {
    #[inline(always)]
    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id as usize)
    }

    /// Node `id`'s checks, with the keywords they are reported as.
    #[inline(always)]
    pub fn checks_of(&self, node: &Node) -> &[Check] {
        let start = node.first as usize;
        self.checks
            .get(start..start + node.count as usize)
            .unwrap_or_default()
    }

    pub fn name_of(&self, node: &Node, index: usize) -> Named {
        self.names
            .get(node.first as usize + index)
            .copied()
            .unwrap_or(Named::new(""))
    }

    pub fn info(&self, id: NodeId) -> Option<&NodeInfo> {
        self.info.get(id as usize)
    }

    /// How a quick walk may decide node `id` in place.
    pub fn shortcut(&self, id: NodeId) -> Shortcut {
        let Some(node) = self.node(id) else {
            return Shortcut::Visit;
        };
        // A leaf whose types are one family's, or any: its check decides that family's values.
        let of_family = |family: u8| node.types == family || node.types == types::ANY;
        let leaf_of = |family: u8| node.has(Node::LEAF) && of_family(family);
        let sizes = |family: u8, (min, max): (u64, u64)| Shortcut::Sizes {
            family,
            min,
            max,
            cost: node.cost,
        };
        match self.checks_of(node) {
            [] => Shortcut::Types(node.types),
            [Check::Number(number)] if node.types & types::OF_INTEGER != 0 => {
                match number.integer_range() {
                    Some((min, max)) => Shortcut::Integers {
                        min,
                        max,
                        cost: node.cost,
                        check: node.first,
                        numbers: leaf_of(types::NUMBER),
                    },
                    None if leaf_of(types::NUMBER) => Shortcut::Numbers {
                        check: node.first,
                        cost: node.cost,
                    },
                    None => Shortcut::Visit,
                }
            }
            [Check::Enum(_) | Check::Const(_)] if leaf_of(types::ANY) => Shortcut::Choices {
                check: node.first,
                cost: node.cost,
            },
            [Check::Enum(_)] if node.types & types::STRING != 0 => Shortcut::StringEnum {
                check: node.first,
                cost: node.cost,
            },
            [Check::Array(array)] if of_family(types::ARRAY) => match array.sizes_alone() {
                Some(bounds) => sizes(types::ARRAY, bounds),
                None if array.items_alone().is_some() => Shortcut::Items {
                    check: node.first,
                    cost: node.cost,
                },
                None if leaf_of(types::ARRAY) => Shortcut::Arrays {
                    check: node.first,
                    cost: node.cost,
                },
                None => Shortcut::Lists {
                    check: node.first,
                    cost: node.cost,
                },
            },
            [Check::Object(object)] if of_family(types::OBJECT) => match object.sizes_alone() {
                Some(bounds) => sizes(types::OBJECT, bounds),
                None => Shortcut::Object {
                    check: node.first,
                    cost: node.cost,
                },
            },
            [Check::ExactKeyObject(_)] if of_family(types::OBJECT) => Shortcut::Object {
                check: node.first,
                cost: node.cost,
            },
            [Check::AnyOf(_) | Check::OneOf(_)] if node.types == types::ANY => Shortcut::Branches {
                check: node.first,
                cost: node.cost,
            },
            [Check::Ref(target)] if node.types == types::ANY => Shortcut::Ref {
                target: *target,
                cost: node.cost,
            },
            [Check::AllOf(_)] if node.types == types::ANY => Shortcut::AllOf {
                check: node.first,
                cost: node.cost,
            },
            [Check::Not(negated)]
                if node.types == types::ANY
                    && !node.has(Node::READS_OBJECTS)
                    && !node.has(Node::READS_ARRAYS) =>
            {
                Shortcut::Not {
                    negated: *negated,
                    cost: node.cost,
                }
            }
            [Check::String(string)] if leaf_of(types::STRING) => {
                match (string.lengths_alone(), string.format_alone()) {
                    (Some((min, max)), _) => Shortcut::Lengths {
                        min,
                        max,
                        cost: node.cost,
                    },
                    (None, Some(format)) => Shortcut::Format {
                        format,
                        cost: node.cost,
                    },
                    (None, None) => Shortcut::Strings {
                        check: node.first,
                        cost: node.cost,
                    },
                }
            }
            [Check::Number(_)] if leaf_of(types::NUMBER) => Shortcut::Numbers {
                check: node.first,
                cost: node.cost,
            },
            _ => Shortcut::Visit,
        }
    }

    /// Node `id`'s location, for errors.
    pub fn location(&self, id: NodeId) -> &str {
        self.info(id).map_or("", |info| &info.location)
    }
}

#[cfg(all(test, feature = "serde_json"))]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::Shortcut;
    use crate::engine::both_walks::answers;
    use crate::json_schema::testing::compile_any_root;
    use serde_json::{json, Value as JsonValue};

    /// The root's shortcut of `schema`, read with no tool boundary.
    fn root_shortcut(schema: &JsonValue) -> Shortcut {
        compile_any_root(schema).program.root_shortcut
    }

    /// Each schema's root shortcut is the one named, and its quick answer is its reporting
    /// walk's on each value: at the root, as an object's property, and as an array's items and
    /// first item (`document` completes each document the schema sits in).
    fn decided_as_visited(
        schemas: &[(JsonValue, &str)],
        values: &[JsonValue],
        document: impl Fn(JsonValue) -> JsonValue,
    ) {
        for (schema, shortcut) in schemas {
            let found = format!("{:?}", root_shortcut(&document(schema.clone())));
            assert!(found.starts_with(shortcut), "{schema}: {found}");
            let as_property = document(json!({"properties": {"p": schema}}));
            let as_items = document(json!({"items": schema}));
            let as_first = document(json!({"prefixItems": [schema]}));
            let whole = document(schema.clone());
            for value in values {
                let (quick, reported) = answers(&whole, value, false);
                assert_eq!(quick, reported, "{schema} {value}");
                let wrapped = json!({ "p": value });
                let (quick, reported) = answers(&as_property, &wrapped, false);
                assert_eq!(quick, reported, "property {schema} {value}");
                let listed = json!([value, value]);
                for (wrapper, label) in [(&as_items, "items"), (&as_first, "first item")] {
                    let (quick, reported) = answers(wrapper, &listed, false);
                    assert_eq!(quick, reported, "{label} {schema} {value}");
                }
            }
        }
    }

    #[test]
    fn a_leaf_of_one_family_or_of_any_type_is_decided_in_place_as_its_visit_decides() {
        let schemas = [
            (json!({"maxLength": 3}), "Lengths"),
            (
                json!({"type": "string", "minLength": 2, "maxLength": 3}),
                "Lengths",
            ),
            (
                json!({"type": "string", "minLength": 2, "pattern": "b"}),
                "Strings",
            ),
            (json!({"multipleOf": 2}), "Numbers"),
            (json!({"minimum": 1.5}), "Numbers"),
            (json!({"minimum": 2}), "Integers"),
            (
                json!({"type": "number", "minimum": -1, "maximum": 3}),
                "Integers",
            ),
            (json!({"type": "integer", "maximum": 3}), "Integers"),
            (json!({"maxItems": 1}), "Sizes"),
            (
                json!({"type": "array", "minItems": 1, "maxItems": 2}),
                "Sizes",
            ),
            (json!({"uniqueItems": true}), "Arrays"),
            (json!({"maxItems": 2, "uniqueItems": true}), "Arrays"),
            (json!({"minProperties": 1}), "Sizes"),
            (json!({"type": "object", "maxProperties": 1}), "Sizes"),
            (json!({"minProperties": 1, "required": ["a"]}), "Object"),
            (json!({"required": ["a"]}), "Object"),
            (json!({"enum": [1, "a", [1], {"a": 1}]}), "Choices"),
            (json!({"const": {"a": 1}}), "Choices"),
            (json!({"items": {"type": "integer"}}), "Items"),
        ];
        let values = [
            json!("abc"),
            json!("abcd"),
            json!("a"),
            json!("é"),
            json!("😀😀"),
            json!("a😀😀"),
            json!(1),
            json!(2),
            json!(2.5),
            json!(4.0),
            json!(1.5),
            json!(-1.5),
            json!(3.0),
            json!(1e300),
            json!(-9_223_372_036_854_775_808_i64),
            json!(18_446_744_073_709_551_615_u64),
            json!([]),
            json!([1]),
            json!([1, 1]),
            json!([1, "x"]),
            json!([1, 2, 3]),
            json!({}),
            json!({"a": 1}),
            json!({"a": 1, "b": 2}),
            json!(null),
            json!(true),
        ];
        decided_as_visited(&schemas, &values, |document| document);
    }

    #[test]
    fn an_integer_range_leaf_of_numbers_or_of_any_type_decides_other_numbers_in_place() {
        let schemas = [
            (json!({"minimum": 2}), true),
            (json!({"type": "number", "maximum": 3}), true),
            (json!({"type": "integer", "maximum": 3}), false),
            (json!({"type": ["integer", "string"], "maximum": 3}), false),
        ];
        for (schema, numbers) in schemas {
            match root_shortcut(&schema) {
                Shortcut::Integers { numbers: found, .. } => assert_eq!(found, numbers, "{schema}"),
                other => panic!("{schema}: {other:?}"),
            }
        }
    }

    #[test]
    fn an_applicator_of_any_type_is_decided_in_place_as_its_visit_decides() {
        // Every document holds the definitions the references name.
        let defined = |mut document: JsonValue| {
            document["$defs"] = json!({"t": {"type": "integer"}, "n": {"not": {"minimum": 2}}});
            document
        };
        let schemas = [
            (json!({"not": {"type": "null"}}), "Not"),
            (json!({"not": {"minimum": 2}}), "Not"),
            (json!({"not": {"not": {"type": "string"}}}), "Not"),
            (
                json!({"allOf": [{"type": "integer"}, {"minimum": 2}]}),
                "AllOf",
            ),
            (
                json!({"allOf": [{"not": {"type": "null"}}, {"maxLength": 1}]}),
                "AllOf",
            ),
            (json!({"$ref": "#/$defs/t"}), "Ref"),
            (json!({"$ref": "#/$defs/n"}), "Ref"),
            // Branches decided in place by their own shortcuts.
            (
                json!({"oneOf": [{"type": "integer"}, {"minimum": 2}]}),
                "Branches",
            ),
            (
                json!({"anyOf": [{"not": {"type": "null"}}, {"maxLength": 1}]}),
                "Branches",
            ),
            (
                json!({"oneOf": [{"$ref": "#/$defs/t"}, {"type": "string"}]}),
                "Branches",
            ),
        ];
        let values = [
            json!(null),
            json!(1),
            json!(2),
            json!(2.5),
            json!("a"),
            json!("ab"),
            json!([]),
            json!([null]),
            json!({}),
            json!({"a": 1}),
            json!(true),
        ];
        decided_as_visited(&schemas, &values, defined);
    }

    #[test]
    fn an_array_check_that_reads_items_is_decided_in_place_as_its_visit_decides() {
        let schemas = [
            (json!({"contains": {"minimum": 2}}), "Lists"),
            (
                json!({"type": "array", "contains": {"type": "string"}, "minContains": 2}),
                "Lists",
            ),
            (
                json!({"contains": {"type": "integer"}, "maxContains": 1}),
                "Lists",
            ),
            (json!({"prefixItems": [{"type": "integer"}]}), "Lists"),
            (
                json!({"prefixItems": [{"type": "integer"}], "items": false}),
                "Lists",
            ),
            (
                json!({"items": {"type": "integer"}, "uniqueItems": true, "minItems": 1}),
                "Lists",
            ),
        ];
        let values = [
            json!([]),
            json!([1]),
            json!([2, 1]),
            json!([1, 1]),
            json!(["a", "b"]),
            json!([1, "x"]),
            json!([[2], {"a": 2}]),
            json!(3),
            json!("ab"),
            json!({"a": 2}),
            json!(null),
        ];
        decided_as_visited(&schemas, &values, |document| document);
    }
}
