//! The checks that apply schemas to the value in place: `$ref` and `$dynamicRef`, `allOf`,
//! `anyOf`, `oneOf`, `not` and `if`/`then`/`else`. `anyOf`, `oneOf` and `not` report their
//! own error, not their branches'.

use super::program::{Anchors, Check, Named, Node, NodeId, ResourceId};
use super::unevaluated;
use super::walk::{Sink, Walk};
use crate::eval::{Flow, Halt};
use crate::json_schema::vocabulary::name;
use crate::json_schema::Assertion;
use crate::path::{Key, Step};
use crate::value::Value;

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

/// One in-place check (or `unevaluated*`) of `node`, its check number `index`.
pub fn check<'a, S: Sink, V: Value<'a>>(
    walk: &mut Walk<'_, '_, V>,
    (node, index): (&Node, usize),
    check: &Check,
    named: Named,
    value: V,
    at: &S::At<'_>,
) -> Flow {
    match check {
        Check::Ref(target) => walk.visit_target::<S>(*target, value, at),
        Check::DynamicRef(reference) => {
            let target = reference.target_in(walk.scope(), &walk.program.dynamic_anchors);
            walk.visit_target::<S>(target, value, at)
        }
        Check::AllOf(branches) => {
            let mut valid = true;
            for (position, branch) in branches.iter().enumerate() {
                let here = S::then(
                    at,
                    Step::Into {
                        keyword: named.token,
                        key: Key::Index(position),
                        argument: None,
                    },
                );
                valid &= walk.visit::<S>(*branch, value, &here)?;
            }
            Ok(valid)
        }
        Check::AnyOf(branches) if count(walk, branches, value, 1)? == 0 => {
            walk.fail::<S>(at, named, || Assertion::AnyOf, None)
        }
        Check::OneOf(branches) if count(walk, branches, value, 2)? != 1 => {
            walk.fail::<S>(at, named, || Assertion::OneOf, None)
        }
        Check::Not(negated) if walk.valid(*negated, value)? => {
            walk.fail::<S>(at, named, || Assertion::Not, None)
        }
        Check::If(conditional) => {
            let holds = walk.valid(conditional.condition, value)?;
            let Some(branch) = conditional.branch(holds) else {
                return Ok(true);
            };
            let here = S::then(
                at,
                Step::Into {
                    keyword: if holds { name::THEN } else { name::ELSE },
                    key: Key::None,
                    argument: None,
                },
            );
            walk.visit::<S>(branch, value, &here)
        }
        Check::UnevaluatedItems(_) | Check::UnevaluatedProperties(_) => {
            unevaluated::check::<S, V>(walk, (node, index), check, named, value, at)
        }
        _ => Ok(true),
    }
}

/// How many of `branches` accept `value`, counting no further than `enough`.
pub fn count<'a, V: Value<'a>>(
    walk: &mut Walk<'_, '_, V>,
    branches: &[NodeId],
    value: V,
    enough: usize,
) -> Result<usize, Halt> {
    let mut found = 0;
    for branch in branches {
        if walk.valid(*branch, value)? {
            found += 1;
            if found >= enough {
                break;
            }
        }
    }
    Ok(found)
}
