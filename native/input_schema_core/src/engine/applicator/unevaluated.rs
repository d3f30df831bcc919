//! `unevaluatedItems` and `unevaluatedProperties`: the items and properties that no sibling
//! check evaluated, looking through `$ref`, `$dynamicRef`, `allOf`, the `anyOf`/`oneOf`
//! branches that accept the value, `if`/`then`/`else` and `dependentSchemas` (the annotations
//! of valid subschemas only).

use crate::engine::node::{Named, Node, NodeId};
use crate::engine::object::has;
use crate::engine::program::Check;
use crate::engine::walk::{Sink, Walk};
use crate::report::error::Assertion;
use crate::report::path::Step;
use crate::values::literal::with_key_name;
use crate::values::value::{Element, Kind, Value};
use crate::work::halt::{Flow, Halt};

/// What the marks are of: a map's entries or a list's items, in the host's order.
enum Marked<V> {
    Entries(Vec<(V, V)>),
    Items(Vec<V>),
}

impl<'a, V: Value<'a>> Marked<V> {
    fn of(check: &Check, value: V) -> Option<Marked<V>> {
        match check {
            Check::UnevaluatedProperties(_) => {
                let size = value.map_size().filter(|_| !value.is_struct())?;
                Some(Marked::Entries(value.map_entries_sized(size).collect()))
            }
            _ => {
                if value.kind() != Kind::List {
                    return None;
                }
                let mut items = Vec::new();
                for element in value.list_elements() {
                    match element {
                        Element::Item(item) => items.push(item),
                        Element::ImproperTail(_) => return None,
                    }
                }
                Some(Marked::Items(items))
            }
        }
    }

    fn len(&self) -> usize {
        match self {
            Marked::Entries(entries) => entries.len(),
            Marked::Items(items) => items.len(),
        }
    }
}

/// Marks what the checks of `node` evaluate, bar its check number `own` (the one asking).
fn mark_checks<'a, V: Value<'a>>(
    walk: &mut Walk<'_, '_, V>,
    node: &Node,
    own: Option<usize>,
    value: V,
    marked: &Marked<V>,
    marks: &mut [bool],
) -> Result<(), Halt> {
    let program = walk.program;
    for (index, check) in walk.checks_of(node)?.iter().enumerate() {
        if own == Some(index) {
            continue;
        }
        walk.budget.spend(1)?;
        match (check, marked) {
            (Check::Ref(target), _) => mark_node(walk, *target, value, marked, marks)?,
            (Check::DynamicRef(reference), _) => {
                let target = reference.target_in(walk.scope(), &program.dynamic_anchors);
                mark_node(walk, target, value, marked, marks)?;
            }
            (Check::AllOf(branches), _) => {
                for branch in branches.iter() {
                    mark_node(walk, *branch, value, marked, marks)?;
                }
            }
            (Check::AnyOf(branches) | Check::OneOf(branches), _) => {
                for branch in branches.nodes.iter() {
                    if walk.valid(*branch, value)? {
                        mark_node(walk, *branch, value, marked, marks)?;
                    }
                }
            }
            (Check::If(conditional), _) => {
                let holds = walk.valid(conditional.condition, value)?;
                if holds {
                    mark_node(walk, conditional.condition, value, marked, marks)?;
                }
                if let Some(branch) = conditional.branch(holds) {
                    mark_node(walk, branch, value, marked, marks)?;
                }
            }
            (Check::Object(object), Marked::Entries(entries)) => {
                if object.additional.is_some() {
                    marks.fill(true);
                } else {
                    for ((key, _), mark) in entries.iter().zip(marks.iter_mut()) {
                        if !*mark {
                            *mark = with_key_name(*key, |name| {
                                object
                                    .left_to_additional(name, walk.budget)
                                    .map(|left| !left)
                            })
                            .transpose()?
                            .unwrap_or(false);
                        }
                    }
                }
                if let Some((schemas, _)) = &object.dependent_schemas {
                    for (name, node) in schemas.iter() {
                        if has(value, name, walk.budget)? {
                            mark_node(walk, *node, value, marked, marks)?;
                        }
                    }
                }
            }
            (Check::UnevaluatedProperties(_), Marked::Entries(_))
            | (Check::UnevaluatedItems(_), Marked::Items(_)) => marks.fill(true),
            (Check::Array(array), Marked::Items(items)) => {
                if let Some((nodes, _)) = &array.prefix {
                    marks
                        .iter_mut()
                        .take(nodes.len())
                        .for_each(|mark| *mark = true);
                }
                if let Some((start, _, _)) = array.items {
                    marks.iter_mut().skip(start).for_each(|mark| *mark = true);
                }
                if let Some((contains, _)) = array.contains.as_ref().filter(|(c, _)| c.evaluates) {
                    for (item, mark) in items.iter().zip(marks.iter_mut()) {
                        if !*mark && walk.valid_part(contains.node, *item)? {
                            *mark = true;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn mark_node<'a, V: Value<'a>>(
    walk: &mut Walk<'_, '_, V>,
    id: NodeId,
    value: V,
    marked: &Marked<V>,
    marks: &mut [bool],
) -> Result<(), Halt> {
    let node = walk.node(id)?;
    if node.count == 0 {
        return Ok(());
    }
    walk.enter(id, |walk| {
        mark_checks(walk, node, None, value, marked, marks)
    })
}

/// `unevaluatedItems` or `unevaluatedProperties`, check number `own` of `node`.
pub fn check<'a, S: Sink, V: Value<'a>>(
    walk: &mut Walk<'_, '_, V>,
    (node, own): (&Node, usize),
    check: &Check,
    named: Named,
    value: V,
    at: &S::At<'_>,
) -> Flow {
    let target = match check {
        Check::UnevaluatedItems(target) | Check::UnevaluatedProperties(target) => *target,
        // The walk sends only these two here.
        _ => return Err(crate::work::halt::broken()),
    };
    let Some(marked) = Marked::of(check, value) else {
        return Ok(true);
    };
    let mut marks = vec![false; marked.len()];
    mark_checks(walk, node, Some(own), value, &marked, &mut marks)?;
    let refused = walk
        .program
        .node(target)
        .is_some_and(|node| node.has(Node::FALSE));
    let mut valid = true;
    match &marked {
        Marked::Entries(entries) => {
            for ((key, item), mark) in entries.iter().zip(marks.iter()) {
                if *mark {
                    continue;
                }
                if refused {
                    valid &=
                        walk.fail::<S>(at, named, || Assertion::UnevaluatedProperty, Some(*key))?;
                    continue;
                }
                valid &= with_key_name(*key, |name| {
                    let here = S::then(at, Step::entry(named.token, name));
                    walk.visit_part::<S>(target, *item, &here)
                })
                .unwrap_or(Ok(true))?;
            }
        }
        Marked::Items(items) => {
            for (index, (item, mark)) in items.iter().zip(marks.iter()).enumerate() {
                if *mark {
                    continue;
                }
                let here = S::then(at, Step::item(named.token, index));
                valid &= if refused {
                    walk.fail_at::<S>(&here, named.name, || Assertion::UnevaluatedItem, None)?
                } else {
                    walk.visit_part::<S>(target, *item, &here)?
                };
            }
        }
    }
    Ok(valid)
}
