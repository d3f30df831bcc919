//! The engine's compiled form: an arena of compact nodes that name each other by index (so
//! references are indices and cycles are fine), each a set of accepted JSON types and a short
//! run of checks chosen at compile time. What only the reporting walk reads (locations, the
//! written `type`, keyword tokens) is kept apart from what every walk reads.

use super::applicator::{Branches, Conditional, DynamicRef};
use super::array::ArrayCheck;
use super::choices::Enum;
use super::exact_keys::ExactKeyObject;
use super::number::NumberCheck;
use super::object::ObjectCheck;
use super::string::StringCheck;
use crate::literal::Literal;

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
    /// How a quick walk decides the root in place (`Visit` until a compiler learns it).
    pub root_shortcut: Shortcut,
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
        match self.checks_of(node) {
            [] => Shortcut::Types(node.types),
            [Check::Number(number)] if node.types & types::OF_INTEGER != 0 => {
                match number.integer_range() {
                    Some((min, max)) => Shortcut::Integers {
                        min,
                        max,
                        cost: node.cost,
                    },
                    None => Shortcut::Visit,
                }
            }
            [Check::Enum(_)] if node.types & types::STRING != 0 => Shortcut::StringEnum {
                check: node.first,
                cost: node.cost,
            },
            [Check::Array(array)]
                if node.types == types::ARRAY && array.items_alone().is_some() =>
            {
                Shortcut::Items {
                    check: node.first,
                    cost: node.cost,
                }
            }
            [Check::Object(_) | Check::ExactKeyObject(_)] if node.types == types::OBJECT => {
                Shortcut::Object {
                    check: node.first,
                    cost: node.cost,
                }
            }
            [Check::AnyOf(_) | Check::OneOf(_)] if node.types == types::ANY => Shortcut::Branches {
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
