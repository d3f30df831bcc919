//! References that apply schemas to one value without reading into it, in a cycle
//! (`{"$ref": "#"}`) or in a chain longer than a walk follows: found when the schema is
//! compiled, so that the schema phase refuses such a schema before any argument is read, and
//! the first error and all the errors of a call agree. The walks keep their own guard.

use crate::engine::program::{Check, Node, NodeId, Program};
use crate::engine::walk::MAX_IN_PLACE;
use crate::work::budget::{Budget, Exhausted};

/// Why the schema is refused.
pub enum Found {
    /// A cycle, or a chain too long, through the node with this id.
    Loop(NodeId),
    Exhausted,
}

impl From<Exhausted> for Found {
    fn from(_: Exhausted) -> Self {
        Found::Exhausted
    }
}

/// The nodes `node` applies to its value in place: references (a dynamic one to every
/// schema its anchor may name), in-place applicators, the dependent schemas. Schemas of
/// items, properties, names and content read another value.
fn in_place(program: &Program, node: &Node, targets: &mut Vec<NodeId>) {
    for check in program.checks_of(node) {
        match check {
            Check::Ref(target) | Check::Not(target) => targets.push(*target),
            Check::DynamicRef(reference) => {
                targets.push(reference.target);
                if let Some(name) = &reference.anchor {
                    let named = program.dynamic_anchors.iter().flatten();
                    targets.extend(
                        named
                            .filter(|(anchor, _)| anchor == name)
                            .map(|(_, id)| *id),
                    );
                }
            }
            Check::AllOf(nodes) => targets.extend(nodes.iter().copied()),
            Check::AnyOf(branches) | Check::OneOf(branches) => {
                targets.extend(branches.nodes.iter().copied());
            }
            Check::If(conditional) => {
                targets.push(conditional.condition);
                targets.extend(conditional.then);
                targets.extend(conditional.otherwise);
            }
            Check::Object(object) => object.in_place(|node| targets.push(node)),
            _ => {}
        }
    }
}

/// A node's state in the search.
#[derive(Clone, Copy, PartialEq)]
enum Mark {
    New,
    /// On the current path: reaching it again closes a cycle.
    Open,
    /// Done: the longest in-place chain from it is known.
    Done(usize),
}

/// The first node, in node order, through which references loop or chain too far in place.
/// A depth-first search with its own stack (a chain may be long), a unit per node and per
/// edge.
pub fn find(program: &Program, budget: &mut Budget) -> Result<(), Found> {
    let count = program.nodes.len();
    let mut marks = vec![Mark::New; count];
    // The open nodes, each with its in-place targets and how many of them are done.
    let mut stack: Vec<(NodeId, Vec<NodeId>, usize)> = Vec::new();
    for start in 0..count {
        if marks.get(start) != Some(&Mark::New) {
            continue;
        }
        open(start as NodeId, program, &mut marks, &mut stack, budget)?;
        while let Some((id, targets, next)) = stack.last_mut() {
            let Some(&target) = targets.get(*next) else {
                // Every target done: a node with checks is one step of the chain.
                let counted = program.node(*id).is_some_and(|node| node.count > 0);
                let longest = targets
                    .iter()
                    .filter_map(|target| match marks.get(*target as usize) {
                        Some(Mark::Done(length)) => Some(*length),
                        _ => None,
                    })
                    .max()
                    .unwrap_or(0)
                    + usize::from(counted);
                if longest > MAX_IN_PLACE {
                    return Err(Found::Loop(*id));
                }
                if let Some(mark) = marks.get_mut(*id as usize) {
                    *mark = Mark::Done(longest);
                }
                stack.pop();
                continue;
            };
            *next += 1;
            budget.spend(1)?;
            match marks.get(target as usize) {
                Some(Mark::Open) => return Err(Found::Loop(target)),
                Some(Mark::New) => open(target, program, &mut marks, &mut stack, budget)?,
                _ => {}
            }
        }
    }
    Ok(())
}

/// Puts node `id` on the search's path.
fn open(
    id: NodeId,
    program: &Program,
    marks: &mut [Mark],
    stack: &mut Vec<(NodeId, Vec<NodeId>, usize)>,
    budget: &mut Budget,
) -> Result<(), Exhausted> {
    budget.spend(1)?;
    let mut targets = Vec::new();
    if let Some(node) = program.node(id) {
        in_place(program, node, &mut targets);
    }
    if let Some(mark) = marks.get_mut(id as usize) {
        *mark = Mark::Open;
    }
    stack.push((id, targets, 0));
    Ok(())
}

#[cfg(all(test, feature = "serde_json"))]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::super::testing::{any_root, compile};
    use super::super::Dialect;
    use crate::engine::program::Check;
    use crate::report::error::Error;
    use crate::report::error::{Failure, Mode};
    use crate::serde::Json;
    use crate::work::budget::Budget;
    use crate::Compiled;
    use serde_json::json;

    fn compiled(
        schema: &serde_json::Value,
        dialect: Dialect,
    ) -> Result<Compiled, Failure<Json<'_>>> {
        let options = any_root(dialect);
        compile(
            Json::from(schema),
            &|_| None,
            options,
            &mut Budget::unlimited(),
        )
    }

    fn loop_path<V>(failure: Failure<V>) -> String {
        match failure {
            Failure::Schema {
                error: Error::ReferenceLoop { schema_path },
                ..
            } => schema_path.to_string(),
            _ => panic!("no reference loop"),
        }
    }

    #[test]
    fn reference_loops_are_refused_when_compiled_at_the_node_that_closes_them() {
        let alone = json!({"$ref": "#"});
        assert_eq!(
            loop_path(compiled(&alone, Dialect::Draft7).unwrap_err()),
            ""
        );
        let chain = json!({
            "$ref": "#/$defs/a",
            "$defs": {
                "a": {"$ref": "#/$defs/b"},
                "b": {"type": "integer", "allOf": [{"$ref": "#/$defs/a"}]}
            }
        });
        let failure = compiled(&chain, Dialect::Draft2020_12).unwrap_err();
        assert_eq!(loop_path(failure), "/$defs/a");
        let dependent = json!({"dependentSchemas": {"a": {"$ref": "#"}}});
        let failure = compiled(&dependent, Dialect::Draft2020_12).unwrap_err();
        assert_eq!(loop_path(failure), "");
    }

    #[test]
    fn the_walks_still_stop_a_loop_they_meet() {
        // Compiled without a loop, then made into one: the `$ref` under `b` is sent back to
        // `a`. The walks' guard counts every node entered in place.
        let chain = json!({
            "$ref": "#/$defs/a",
            "$defs": {
                "a": {"$ref": "#/$defs/b"},
                "b": {"type": "integer", "allOf": [{"$ref": "#/$defs/c"}]},
                "c": true
            }
        });
        let mut schema = compiled(&chain, Dialect::Draft2020_12).unwrap();
        let program = &mut schema.program;
        let at = |location: &str| {
            program
                .info
                .iter()
                .position(|info| &*info.location == location)
                .unwrap() as u32
        };
        let (a, branch) = (at("/$defs/a"), at("/$defs/b/allOf/0"));
        let node = program.nodes[branch as usize];
        let first = node.first as usize;
        let Check::Ref(target) = &mut program.checks[first] else {
            panic!("no $ref at /$defs/b/allOf/0");
        };
        *target = a;
        // Now a cycle: the walks must guard it, and count its nodes.
        program.guarded = true;
        for node in program.nodes.iter_mut() {
            node.flags &= !crate::engine::Node::LEAF;
        }
        let value = json!(1);
        let quick = schema.is_valid(Json::from(&value), &mut Budget::unlimited());
        let quick = loop_path(quick.unwrap_err());
        let reported = schema.validate(Json::from(&value), Mode::First, &mut Budget::unlimited());
        assert_eq!(loop_path(reported.unwrap_err()), quick);
        assert!(["/$defs/a", "/$defs/b", "/$defs/b/allOf/0", ""].contains(&&*quick));
    }
}
