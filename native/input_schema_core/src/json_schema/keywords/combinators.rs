//! `allOf`, `anyOf`, `oneOf`, `not` and `if`/`then`/`else`: schemas applied to the value in
//! place. `anyOf`, `oneOf` and `not` report their own error, not their branches'.

use super::{Assertion, Check, Keyword};
use crate::arena::NodeId;
use crate::eval::{Eval, Flow};
use crate::json_schema::location::SchemaTrail;
use crate::json_schema::vocabulary::name;
use crate::path::Trail;
use crate::value::Value;

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

/// How many of `branches` accept `value`, counting no further than `enough`.
fn count<'a, V: Value<'a>, A>(
    eval: &mut Eval<'_, '_, V, A>,
    branches: &[NodeId],
    value: V,
    enough: usize,
) -> Result<usize, crate::eval::Halt> {
    let mut found = 0;
    for branch in branches {
        if eval.valid(*branch, value)? {
            found += 1;
            if found >= enough {
                break;
            }
        }
    }
    Ok(found)
}

// Out of line: the quick walk's dispatch stays small, and so does its stack frame.
#[inline(never)]
pub fn valid<'a, V: Value<'a>, A>(eval: &mut Eval<'_, '_, V, A>, check: &Check, value: V) -> Flow {
    match check {
        Check::AllOf(branches) => {
            for branch in branches.iter() {
                if !eval.valid(*branch, value)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        Check::AnyOf(branches) => Ok(count(eval, branches, value, 1)? == 1),
        Check::OneOf(branches) => Ok(count(eval, branches, value, 2)? == 1),
        Check::Not(node) => Ok(!eval.valid(*node, value)?),
        Check::If(conditional) => {
            let holds = eval.valid(conditional.condition, value)?;
            match conditional.branch(holds) {
                Some(branch) => eval.valid(branch, value),
                None => Ok(true),
            }
        }
        _ => Ok(true),
    }
}

pub fn report<'a, V: Value<'a>, A>(
    eval: &mut Eval<'_, '_, V, A>,
    keyword: &Keyword,
    value: V,
    trail: &Trail<'_>,
    here: &SchemaTrail<'_>,
) -> Flow {
    let fail = |eval: &mut Eval<'_, '_, V, A>, assertion| {
        eval.fail(trail, keyword.name, here, assertion, None)
    };
    match &keyword.check {
        Check::AllOf(branches) => {
            let mut valid = true;
            for (index, branch) in branches.iter().enumerate() {
                valid &= eval.report(*branch, value, trail, &here.index(index))?;
            }
            Ok(valid)
        }
        Check::AnyOf(branches) if count(eval, branches, value, 1)? == 0 => {
            fail(eval, Assertion::AnyOf)
        }
        Check::OneOf(branches) if count(eval, branches, value, 2)? != 1 => {
            fail(eval, Assertion::OneOf)
        }
        Check::Not(node) if eval.valid(*node, value)? => fail(eval, Assertion::Not),
        Check::If(conditional) => {
            let holds = eval.valid(conditional.condition, value)?;
            let at = here.sibling(if holds { name::THEN } else { name::ELSE });
            match conditional.branch(holds) {
                Some(branch) => eval.report(branch, value, trail, &at),
                None => Ok(true),
            }
        }
        _ => Ok(true),
    }
}
