//! The subset's compiled form: an arena of fused nodes (a schema map's shape, then its
//! `enum`: `schema::SubsetNode`) that name their children by index.

use crate::schema::SubsetNode;

/// A node's index in its arena.
pub type NodeId = usize;

/// One compiled subset schema map. `A` is the host's atom handle (the subset keeps property
/// names that are atoms as atoms).
#[derive(Debug)]
pub struct Node<A> {
    pub kind: SubsetNode<A>,
}

/// A schema compiled in the subset: its nodes, and the root's index.
#[derive(Debug)]
pub struct Tree<A> {
    pub(crate) nodes: Vec<Node<A>>,
    pub(crate) root: NodeId,
}

impl<A> Node<A> {
    pub fn subset(node: SubsetNode<A>) -> Self {
        Node { kind: node }
    }

    /// The subset node it is.
    #[inline(always)]
    pub fn as_subset(&self) -> Option<&SubsetNode<A>> {
        Some(&self.kind)
    }
}
