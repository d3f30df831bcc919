//! The compiled form both profiles share: an arena of nodes that name each other by index, so
//! references are indices and cycles are fine. A JSON Schema object is an ordered list of
//! keyword checks (`json_schema::keywords`); a subset schema map is one fused node (its shape,
//! then its `enum`: `schema::SubsetNode`), whose children are nodes of the same arena.

use crate::json_schema::keywords::Keyword;
use crate::json_schema::registry::ResourceId;
use crate::schema::SubsetNode;

/// A node's index in its arena.
pub type NodeId = usize;

/// A resource's dynamic anchors, by name.
pub type Anchors = Vec<(Box<str>, NodeId)>;

/// One compiled schema. `A` is the host's atom handle (the subset keeps property names that
/// are atoms as atoms).
#[derive(Debug)]
pub struct Node<A> {
    pub kind: NodeKind<A>,
    /// The schema resource it belongs to, for `$dynamicRef`'s dynamic scope.
    pub resource: ResourceId,
    /// Its JSON pointer in its document: where a reference to it resolved, or, for a subschema
    /// that many paths share, the first path compiled (the reporting walk reports the path it
    /// took to reach a node in place, see `SchemaTrail`). Empty in the subset, whose errors
    /// carry no schema path.
    pub location: Box<str>,
    /// How many of its first keywords apply no subschema: the quick walk checks them before
    /// entering the node.
    pub shallow: usize,
    /// The node a node made of one `$ref` applies, when that one is no such node itself and
    /// no `$dynamicRef` needs the dynamic scope: the quick walk goes there directly.
    pub forward: Option<NodeId>,
}

#[derive(Debug)]
pub enum NodeKind<A> {
    Bool(bool),
    Keywords(Box<[Keyword]>),
    Subset(SubsetNode<A>),
}

impl<A> Node<A> {
    /// A subset node, which needs none of the JSON modes' bookkeeping.
    pub fn subset(node: SubsetNode<A>) -> Self {
        Node {
            kind: NodeKind::Subset(node),
            resource: 0,
            location: Box::default(),
            shallow: 0,
            forward: None,
        }
    }

    /// Its keywords when none applies a subschema (all of them are `shallow`): the quick walk
    /// checks a leaf without entering it (no recursion, so no stack check, loop guard or
    /// dynamic scope).
    #[inline]
    pub fn leaf(&self) -> Option<&[Keyword]> {
        match &self.kind {
            NodeKind::Keywords(keywords) if keywords.len() == self.shallow => Some(keywords),
            _ => None,
        }
    }

    /// The subset node it is, if it is one.
    #[inline(always)]
    pub fn as_subset(&self) -> Option<&SubsetNode<A>> {
        match &self.kind {
            NodeKind::Subset(node) => Some(node),
            _ => None,
        }
    }
}
