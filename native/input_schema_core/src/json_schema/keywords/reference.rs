//! `$ref` (a node index) and `$dynamicRef`: dynamic when its static target holds the
//! `$dynamicAnchor` it names, resolved then in the outermost resource of the dynamic scope
//! that has one.

use crate::arena::NodeId;
use crate::eval::Eval;
use crate::value::Value;

#[derive(Debug)]
pub struct DynamicRef {
    pub target: NodeId,
    /// The dynamic anchor's name, when the reference is dynamic.
    pub anchor: Option<Box<str>>,
}

/// The node a `$dynamicRef` applies here.
pub fn target<'a, V: Value<'a>, A>(eval: &Eval<'_, '_, V, A>, reference: &DynamicRef) -> NodeId {
    let Some(name) = &reference.anchor else {
        return reference.target;
    };
    for resource in eval.scope() {
        let found = eval
            .schema
            .dynamic_anchors
            .get(*resource)
            .and_then(|anchors| anchors.iter().find(|(anchor, _)| anchor == name));
        if let Some((_, node)) = found {
            return *node;
        }
    }
    reference.target
}
