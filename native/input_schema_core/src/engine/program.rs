//! The engine's compiled form: an arena of compact nodes that name each other by index (so
//! references are indices and cycles are fine), each a set of accepted JSON types and a short
//! run of checks chosen at compile time. What only the reporting walk reads (locations, the
//! written `type`, keyword tokens) is kept apart from what every walk reads.

use super::applicator::{Branches, Conditional, DynamicRef};
use super::array::ArrayCheck;
use super::equality::Enum;
use super::number::NumberCheck;
use super::object::ObjectCheck;
use super::string::StringCheck;
use crate::json_schema::literal::Literal;

/// A node's index in its program.
pub type NodeId = u32;

/// A schema resource's index, for `$dynamicRef`'s dynamic scope.
pub type ResourceId = usize;

/// A resource's dynamic anchors, by name.
pub type Anchors = Vec<(Box<str>, NodeId)>;

/// The JSON types, as the bits of a node's accepted set and of a value's type.
pub mod types {
    pub const NULL: u8 = 1;
    pub const BOOLEAN: u8 = 2;
    pub const OBJECT: u8 = 4;
    pub const ARRAY: u8 = 8;
    /// Any number: a value's type has it for integers too.
    pub const NUMBER: u8 = 16;
    pub const STRING: u8 = 32;
    /// A number without a fractional part (`1.0` included).
    pub const INTEGER: u8 = 64;
    /// Every JSON type: a node without `type`.
    pub const ANY: u8 = 127;
    /// A value of no JSON type (a tuple, a pid, a struct, an improper list).
    pub const NONE: u8 = 0;
}

/// One compiled schema.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// The JSON types it accepts (its `type`); `types::ANY` without one, none for `false`.
    pub types: u8,
    pub flags: u8,
    /// How many of its checks come before `type` in the report order: its references.
    pub refs: u8,
    /// Work units a walk spends entering it: one, and one per check.
    pub cost: u8,
    /// Its checks: `Program::checks[first..first + count]`.
    pub first: u32,
    pub count: u32,
}

impl Node {
    /// The schema `false`.
    pub const FALSE: u8 = 1;
    /// A `type` keyword is written (a failure of `types` is reported as `type`, not `false`).
    pub const TYPED: u8 = 2;
    /// No check applies a subschema: the node cannot recurse, so even a guarded program walks
    /// it unguarded.
    pub const LEAF: u8 = 4;
    /// A map it accepts is read whole, or what is left unread noted (see `Walk::unread`): by
    /// its object check, or by a node it applies in place that must accept the map too
    /// (`$ref`, `allOf`, and the branch of `anyOf`/`oneOf` that accepts).
    pub const READS_OBJECTS: u8 = 8;
    /// The same for lists: its array check, or a node it applies in place.
    pub const READS_ARRAYS: u8 = 16;

    pub fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
}

/// A keyword as an error reports it: its registry name, and its key as the schema spells it
/// (an alias, maybe), the last token of the error's schema path.
#[derive(Clone, Copy, Debug)]
pub struct Named {
    pub name: &'static str,
    pub token: &'static str,
}

impl Named {
    pub const fn new(name: &'static str) -> Self {
        Named { name, token: name }
    }
}

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
            Check::Enum(_) | Check::Const(_) | Check::Number(_) => {}
        }
    }
}

/// What only the reporting walk and the dynamic scope read of a node.
#[derive(Debug)]
pub struct NodeInfo {
    /// Its JSON pointer in its document: where a reference to it resolved, or, for a subschema
    /// that many paths share, the first path compiled (the reporting walk reports the path it
    /// took to reach a node in place, see `WalkPath`).
    pub location: Box<str>,
    pub resource: ResourceId,
    /// `type` as written, for its error.
    pub types: Option<Literal>,
}

/// A compiled JSON Schema: its nodes, their checks, and what the walks need besides.
#[derive(Debug, Default)]
pub struct Program {
    pub nodes: Vec<Node>,
    pub checks: Vec<Check>,
    /// Per check, the keyword it is reported as.
    pub names: Vec<Named>,
    pub info: Vec<NodeInfo>,
    pub root: NodeId,
    /// Per resource, its dynamic anchors and the nodes they name (empty when no `$dynamicRef`
    /// needs them).
    pub dynamic_anchors: Vec<Anchors>,
    pub has_dynamic_refs: bool,
    /// Whether the walks must count levels, keep the dynamic scope and guard against
    /// references that loop without reading further into the value: the schema has a cycle,
    /// a dynamic reference, or more levels than a stack holds without checks.
    pub guarded: bool,
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

    /// Node `id`'s location, for errors.
    pub fn location(&self, id: NodeId) -> &str {
        self.info(id).map_or("", |info| &info.location)
    }
}
