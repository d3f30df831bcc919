//! References that apply schemas to one value without reading into it, in a cycle
//! (`{"$ref": "#"}`) or in a chain longer than a walk follows: found when the schema is
//! compiled, so that the schema phase refuses such a schema before any argument is read, and
//! the first error and all the errors of a call agree. The walks keep their own guard.

use super::eval::MAX_IN_PLACE;
use super::keywords::{object::Dependency, Check};
use crate::arena::{Anchors, Node, NodeId, NodeKind};
use crate::budget::{Budget, Exhausted};

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
fn in_place<A>(node: &Node<A>, dynamic_anchors: &[Anchors], targets: &mut Vec<NodeId>) {
    let NodeKind::Keywords(keywords) = &node.kind else {
        return;
    };
    for keyword in keywords.iter() {
        match &keyword.check {
            Check::Ref(target) => targets.push(*target),
            Check::DynamicRef(reference) => {
                targets.push(reference.target);
                if let Some(name) = &reference.anchor {
                    let named = dynamic_anchors.iter().flatten();
                    targets.extend(
                        named
                            .filter(|(anchor, _)| anchor == name)
                            .map(|(_, id)| *id),
                    );
                }
            }
            Check::AllOf(nodes) | Check::AnyOf(nodes) | Check::OneOf(nodes) => {
                targets.extend(nodes.iter().copied());
            }
            Check::Not(target) => targets.push(*target),
            Check::If(conditional) => {
                targets.push(conditional.condition);
                targets.extend(conditional.then);
                targets.extend(conditional.otherwise);
            }
            Check::DependentSchemas(schemas) => {
                targets.extend(schemas.iter().map(|(_, node)| *node));
            }
            Check::Dependencies(dependencies) => {
                targets.extend(dependencies.iter().filter_map(
                    |(_, dependency)| match dependency {
                        Dependency::Schema(node) => Some(*node),
                        Dependency::Names(_) => None,
                    },
                ));
            }
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

/// The search's state: each node's mark, and the open nodes, each with its in-place targets
/// and how many of them are done.
struct Search<'n, A> {
    nodes: &'n [Node<A>],
    dynamic_anchors: &'n [Anchors],
    marks: Vec<Mark>,
    stack: Vec<(NodeId, Vec<NodeId>, usize)>,
}

/// The first node, in node order, through which references loop or chain too far in place.
/// A depth-first search with its own stack (a chain may be long), a unit per node and per
/// edge.
pub fn find<A>(
    nodes: &[Node<A>],
    dynamic_anchors: &[Anchors],
    budget: &mut Budget,
) -> Result<(), Found> {
    let mut search = Search {
        nodes,
        dynamic_anchors,
        marks: vec![Mark::New; nodes.len()],
        stack: Vec::new(),
    };
    for start in 0..nodes.len() {
        if search.marks.get(start) == Some(&Mark::New) {
            search.open(start, budget)?;
            search.run(budget)?;
        }
    }
    Ok(())
}

impl<A> Search<'_, A> {
    /// Puts node `id` on the search's path.
    fn open(&mut self, id: NodeId, budget: &mut Budget) -> Result<(), Exhausted> {
        budget.spend(1)?;
        let mut targets = Vec::new();
        if let Some(node) = self.nodes.get(id) {
            in_place(node, self.dynamic_anchors, &mut targets);
        }
        if let Some(mark) = self.marks.get_mut(id) {
            *mark = Mark::Open;
        }
        self.stack.push((id, targets, 0));
        Ok(())
    }

    /// Searches from the open nodes until none is left.
    fn run(&mut self, budget: &mut Budget) -> Result<(), Found> {
        while let Some((id, targets, next)) = self.stack.last_mut() {
            let Some(&target) = targets.get(*next) else {
                let id = *id;
                let longest = self.longest(id);
                if longest > MAX_IN_PLACE {
                    return Err(Found::Loop(id));
                }
                if let Some(mark) = self.marks.get_mut(id) {
                    *mark = Mark::Done(longest);
                }
                self.stack.pop();
                continue;
            };
            *next += 1;
            budget.spend(1)?;
            match self.marks.get(target) {
                Some(Mark::Open) => return Err(Found::Loop(target)),
                Some(Mark::New) => self.open(target, budget)?,
                _ => {}
            }
        }
        Ok(())
    }

    /// The longest in-place chain from the open node on top, `id`, once its targets are done:
    /// a node with keywords is one step of it.
    fn longest(&self, id: NodeId) -> usize {
        let counted = matches!(
            self.nodes.get(id).map(|node| &node.kind),
            Some(NodeKind::Keywords(_))
        );
        let targets = self.stack.last().map_or(&[][..], |(_, targets, _)| targets);
        let below = targets
            .iter()
            .filter_map(|target| match self.marks.get(*target) {
                Some(Mark::Done(length)) => Some(*length),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        below + usize::from(counted)
    }
}

#[cfg(all(test, feature = "serde_json"))]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::super::keywords::Check;
    use super::super::{compile, Dialect, Options};
    use crate::arena::NodeKind;
    use crate::budget::Budget;
    use crate::engine::Compiled;
    use crate::error::Error;
    use crate::serde::Json;
    use crate::validate::{Failure, Mode};
    use crate::value::NoAtom;
    use serde_json::json;

    fn compiled(
        schema: &serde_json::Value,
        dialect: Dialect,
    ) -> Result<Compiled<NoAtom>, Failure<Json<'_>>> {
        let mut options = Options::new(dialect);
        options.any_root = true;
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
    }

    #[test]
    fn the_walks_still_stop_a_loop_at_the_node_that_passes_their_guard() {
        // Compiled without a loop, then made into one: the `$ref` in `b` is sent back to `a`,
        // a lone `$ref` the quick walk passes through, which the guard still counts.
        let chain = json!({
            "$ref": "#/$defs/a",
            "$defs": {
                "a": {"$ref": "#/$defs/b"},
                "b": {"type": "integer", "allOf": [{"$ref": "#/$defs/c"}]},
                "c": true
            }
        });
        let mut schema = compiled(&chain, Dialect::Draft2020_12).unwrap();
        let at = |schema: &Compiled<NoAtom>, location: &str| {
            schema
                .nodes
                .iter()
                .position(|node| &*node.location == location)
                .unwrap()
        };
        let (a, branch) = (at(&schema, "/$defs/a"), at(&schema, "/$defs/b/allOf/0"));
        let node = schema.nodes.get_mut(branch).unwrap();
        // The quick walk goes to a lone `$ref`'s target directly, unless that is one too.
        node.forward = None;
        let NodeKind::Keywords(keywords) = &mut node.kind else {
            panic!("no keywords at /$defs/b/allOf/0");
        };
        for keyword in keywords.iter_mut() {
            if let Check::Ref(target) = &mut keyword.check {
                *target = a;
            }
        }
        let value = json!(1);
        let quick = schema.is_valid(Json::from(&value), &mut Budget::unlimited());
        assert_eq!(loop_path(quick.unwrap_err()), "/$defs/a");
        let reported = schema.validate(Json::from(&value), Mode::First, &mut Budget::unlimited());
        assert_eq!(loop_path(reported.unwrap_err()), "/$defs/a");
    }
}
