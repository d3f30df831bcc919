//! The checks that apply schemas to the value in place: `$ref` and `$dynamicRef`, `allOf`,
//! `anyOf`, `oneOf`, `not` and `if`/`then`/`else`. `anyOf`, `oneOf` and `not` report their
//! own error, not their branches'.

use super::node::{types, Anchors, NodeId, ResourceId};

/// `$dynamicRef`: dynamic when its static target holds the `$dynamicAnchor` it names,
/// resolved then in the outermost resource of the dynamic scope that has one.
#[derive(Debug)]
pub struct DynamicRef {
    pub target: NodeId,
    /// The dynamic anchor's name, when the reference is dynamic.
    pub anchor: Option<Box<str>>,
}

impl DynamicRef {
    /// The node it applies in the dynamic `scope` (resources entered, outermost first).
    pub fn target_in(&self, scope: &[ResourceId], anchors: &[Anchors]) -> NodeId {
        let Some(name) = &self.anchor else {
            return self.target;
        };
        scope
            .iter()
            .find_map(|resource| {
                anchors
                    .get(*resource)?
                    .iter()
                    .find(|(anchor, _)| anchor == name)
                    .map(|(_, node)| *node)
            })
            .unwrap_or(self.target)
    }
}

/// The branches of `anyOf` or `oneOf`, and which of them can accept a value of each JSON
/// type: a branch whose `type` leaves a value out fails it without being run.
#[derive(Debug)]
pub struct Branches {
    pub nodes: Box<[NodeId]>,
    /// Per value class (see `class_of`), the branches that may accept it, as bits; all of
    /// them past 32 branches.
    pub(crate) candidates: [u32; 8],
}

/// What a value is to the branches' types: null, boolean, object, array, string, an integer,
/// another number, or a value of no JSON type.
pub fn class_of(bits: u8) -> usize {
    match bits {
        types::NULL => 0,
        types::BOOLEAN => 1,
        types::OBJECT => 2,
        types::ARRAY => 3,
        types::STRING => 4,
        types::NUMBER => 6,
        types::NONE => 7,
        _ => 5,
    }
}

/// The type bits a value of each class has (a float's integrality unknown: both number
/// classes are asked for it).
const CLASS_BITS: [u8; 8] = [
    types::NULL,
    types::BOOLEAN,
    types::OBJECT,
    types::ARRAY,
    types::STRING,
    types::OF_INTEGER,
    types::NUMBER,
    types::NONE,
];

impl Branches {
    /// Branches whose types are not known yet: each is a candidate for every value.
    pub fn unsorted(nodes: Box<[NodeId]>) -> Self {
        Branches {
            nodes,
            candidates: [u32::MAX; 8],
        }
    }

    /// The branches, with the types each accepts (`types::ANY` where it has no `type`).
    pub fn new(nodes: Box<[NodeId]>, accepted: impl Fn(NodeId) -> u8) -> Self {
        let mut candidates = [u32::MAX; 8];
        if nodes.len() <= 32 {
            for (class, slot) in candidates.iter_mut().enumerate() {
                let bits = CLASS_BITS.get(class).copied().unwrap_or(types::NONE);
                *slot = 0;
                for (index, node) in nodes.iter().enumerate() {
                    let types = accepted(*node);
                    if types == types::ANY || types & bits != 0 {
                        *slot |= 1 << index;
                    }
                }
            }
            // A float may be integral: it may meet the branches of either number class.
            let integers = candidates.get(5).copied().unwrap_or(u32::MAX);
            if let Some(numbers) = candidates.get_mut(6) {
                *numbers |= integers;
            }
        }
        Branches { nodes, candidates }
    }
}

#[derive(Debug)]
pub struct Conditional {
    pub condition: NodeId,
    pub then: Option<NodeId>,
    pub otherwise: Option<NodeId>,
}

impl Conditional {
    /// The branch that applies, once the condition is known.
    pub fn branch(&self, holds: bool) -> Option<NodeId> {
        if holds {
            self.then
        } else {
            self.otherwise
        }
    }
}
