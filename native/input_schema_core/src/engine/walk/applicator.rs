//! The walk of the checks that apply schemas to the value in place: `$ref` and `$dynamicRef`,
//! `allOf`, `anyOf`, `oneOf`, `not` and `if`/`then`/`else`. `anyOf`, `oneOf` and `not` report
//! their own error, not their branches'.

use super::{Sink, Walk};
use crate::engine::applicator::{class_of, Branches};
use crate::engine::node::{types, Named, Node};
use crate::engine::program::Check;
use crate::error::Assertion;
use crate::flow::{Flow, Halt};
use crate::literal::get_by_str;
use crate::names::name;
use crate::path::{Key, Step};
use crate::value::Value;

impl Branches {
    /// How many branches accept `value`, whose type is `found`, counting no further than
    /// `enough`: only the branches its type allows are run.
    fn count<'a, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        value: V,
        found: u8,
        enough: usize,
    ) -> Result<usize, Halt> {
        let mut candidates = self
            .candidates
            .get(class_of(found))
            .copied()
            .unwrap_or(u32::MAX);
        if let (Some(tag), types::OBJECT) = (&self.tag, found) {
            walk.budget.spend_lookup(tag.name.len())?;
            let text = get_by_str(value, &tag.name).and_then(|tag| tag.binary());
            walk.budget
                .spend_search(tag.len(), text.map_or(0, <[u8]>::len))?;
            candidates &= tag.candidates(text);
        }
        let mut counted = 0;
        for (index, branch) in self.nodes.iter().enumerate() {
            if index < 32 && candidates & (1 << index) == 0 {
                continue;
            }
            if walk.valid(*branch, value)? {
                counted += 1;
                if counted >= enough {
                    break;
                }
            }
        }
        Ok(counted)
    }
}

/// One in-place check (or `unevaluated*`) of `node`, its check number `index`.
pub fn check<'a, S: Sink, V: Value<'a>>(
    walk: &mut Walk<'_, '_, V>,
    (node, index): (&Node, usize),
    check: &Check,
    named: Named,
    (value, found): (V, u8),
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
        Check::AnyOf(branches) if branches.count(walk, value, found, 1)? == 0 => {
            walk.fail::<S>(at, named, || Assertion::AnyOf, None)
        }
        Check::OneOf(branches) if branches.count(walk, value, found, 2)? != 1 => {
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
            super::unevaluated::check::<S, V>(walk, (node, index), check, named, value, at)
        }
        _ => Ok(true),
    }
}
