//! `unevaluatedItems` and `unevaluatedProperties`: the items and properties that no sibling
//! keyword evaluated, looking through `$ref`, `$dynamicRef`, `allOf`, the `anyOf`/`oneOf`
//! branches that accept the value, `if`/`then`/`else` and `dependentSchemas` (the annotations
//! of valid subschemas only).

use super::{Assertion, Check, Keyword};
use crate::arena::{NodeId, NodeKind};
use crate::eval::{Eval, Flow, Halt};
use crate::json_schema::eval::with_key_trail;
use crate::json_schema::keywords::{object, reference};
use crate::json_schema::literal::with_key_name;
use crate::json_schema::location::SchemaTrail;
use crate::path::{Segment, Trail};
use crate::value::{Element, Value};

/// What the marks are of: a map's entries or a list's items, in the host's order.
enum Marked<V> {
    Entries(Vec<(V, V)>),
    Items(Vec<V>),
}

impl<'a, V: Value<'a>> Marked<V> {
    fn of(check: &Check, value: V) -> Option<Marked<V>> {
        match check {
            Check::UnevaluatedProperties(_) => {
                let size = object::object_size(value)?;
                Some(Marked::Entries(value.map_entries_sized(size).collect()))
            }
            _ => {
                if value.kind() != crate::value::Kind::List {
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

/// Marks what `keywords` evaluate (skipping `own`, the keyword asking).
fn mark_keywords<'a, V: Value<'a>, A>(
    eval: &mut Eval<'_, '_, V, A>,
    keywords: &[Keyword],
    own: Option<&Keyword>,
    value: V,
    marked: &Marked<V>,
    marks: &mut [bool],
) -> Result<(), Halt> {
    for keyword in keywords {
        if own.is_some_and(|own| std::ptr::eq(own, keyword)) {
            continue;
        }
        eval.budget.spend(1)?;
        match (&keyword.check, marked) {
            (Check::Ref(target), _) => mark_node(eval, *target, value, marked, marks)?,
            (Check::DynamicRef(dynamic), _) => {
                let target = reference::target(eval, dynamic);
                mark_node(eval, target, value, marked, marks)?;
            }
            (Check::AllOf(branches), _) => {
                for branch in branches.iter() {
                    mark_node(eval, *branch, value, marked, marks)?;
                }
            }
            (Check::AnyOf(branches) | Check::OneOf(branches), _) => {
                for branch in branches.iter() {
                    if eval.valid(*branch, value)? {
                        mark_node(eval, *branch, value, marked, marks)?;
                    }
                }
            }
            (Check::If(conditional), _) => {
                let holds = eval.valid(conditional.condition, value)?;
                if holds {
                    mark_node(eval, conditional.condition, value, marked, marks)?;
                }
                if let Some(branch) = conditional.branch(holds) {
                    mark_node(eval, branch, value, marked, marks)?;
                }
            }
            (Check::DependentSchemas(schemas), Marked::Entries(_)) => {
                for (name, node) in schemas.iter() {
                    eval.budget.spend_lookup(name.len())?;
                    if object::present(value, name) {
                        mark_node(eval, *node, value, marked, marks)?;
                    }
                }
            }
            (Check::Properties(properties), Marked::Entries(entries)) => {
                for ((key, _), mark) in entries.iter().zip(marks.iter_mut()) {
                    *mark |=
                        with_key_name(*key, |name| object::declares(properties, name, eval.budget))
                            .transpose()?
                            .unwrap_or(false);
                }
            }
            (Check::PatternProperties(patterns), Marked::Entries(entries)) => {
                for ((key, _), mark) in entries.iter().zip(marks.iter_mut()) {
                    if *mark {
                        continue;
                    }
                    for (pattern, _) in patterns.iter() {
                        let found = pattern.found_in_key(*key, eval.budget)?;
                        if found {
                            *mark = true;
                            break;
                        }
                    }
                }
            }
            (Check::AdditionalProperties(_), Marked::Entries(_))
            | (Check::UnevaluatedProperties(_), Marked::Entries(_))
            | (Check::UnevaluatedItems(_), Marked::Items(_)) => marks.fill(true),
            (Check::PrefixItems(nodes), Marked::Items(_)) => {
                for mark in marks.iter_mut().take(nodes.len()) {
                    *mark = true;
                }
            }
            (Check::Items { start, .. }, Marked::Items(_)) => {
                for mark in marks.iter_mut().skip(*start) {
                    *mark = true;
                }
            }
            (Check::Contains(contains), Marked::Items(items)) => {
                for (item, mark) in items.iter().zip(marks.iter_mut()) {
                    if !*mark && eval.descend(|eval| eval.valid(contains.node, *item))? {
                        *mark = true;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn mark_node<'a, V: Value<'a>, A>(
    eval: &mut Eval<'_, '_, V, A>,
    node: NodeId,
    value: V,
    marked: &Marked<V>,
    marks: &mut [bool],
) -> Result<(), Halt> {
    let Some(found) = eval.node(node) else {
        return Ok(());
    };
    if let NodeKind::Keywords(keywords) = &found.kind {
        eval.enter_for_marks(node, found.resource, |eval| {
            mark_keywords(eval, keywords, None, value, marked, marks).map(|()| true)
        })?;
    }
    Ok(())
}

/// What an `unevaluated*` keyword looks at, and which of it its siblings evaluated.
type Marks<V> = (Marked<V>, Vec<bool>);

/// The marks of `keyword`'s siblings.
fn marks_of<'a, V: Value<'a>, A>(
    eval: &mut Eval<'_, '_, V, A>,
    siblings: &[Keyword],
    keyword: &Keyword,
    value: V,
) -> Result<Option<Marks<V>>, Halt> {
    let Some(marked) = Marked::of(&keyword.check, value) else {
        return Ok(None);
    };
    let mut marks = vec![false; marked.len()];
    mark_keywords(eval, siblings, Some(keyword), value, &marked, &mut marks)?;
    Ok(Some((marked, marks)))
}

fn node_of(check: &Check) -> Option<NodeId> {
    match check {
        Check::UnevaluatedItems(node) | Check::UnevaluatedProperties(node) => Some(*node),
        _ => None,
    }
}

// Out of line: the quick walk's dispatch stays small, and so does its stack frame.
#[inline(never)]
pub fn valid<'a, V: Value<'a>, A>(
    eval: &mut Eval<'_, '_, V, A>,
    siblings: &[Keyword],
    keyword: &Keyword,
    value: V,
) -> Flow {
    let (Some(node), Some((marked, marks))) = (
        node_of(&keyword.check),
        marks_of(eval, siblings, keyword, value)?,
    ) else {
        return Ok(true);
    };
    match &marked {
        Marked::Entries(entries) => {
            for ((_, item), mark) in entries.iter().zip(marks.iter()) {
                if !*mark && !eval.descend(|eval| eval.valid(node, *item))? {
                    return Ok(false);
                }
            }
        }
        Marked::Items(items) => {
            for (item, mark) in items.iter().zip(marks.iter()) {
                if !*mark && !eval.descend(|eval| eval.valid(node, *item))? {
                    return Ok(false);
                }
            }
        }
    }
    Ok(true)
}

pub fn report<'a, V: Value<'a>, A>(
    eval: &mut Eval<'_, '_, V, A>,
    siblings: &[Keyword],
    keyword: &Keyword,
    value: V,
    trail: &Trail<'_>,
    here: &SchemaTrail<'_>,
) -> Flow {
    let (Some(node), Some((marked, marks))) = (
        node_of(&keyword.check),
        marks_of(eval, siblings, keyword, value)?,
    ) else {
        return Ok(true);
    };
    let refused = matches!(
        eval.node(node).map(|node| &node.kind),
        Some(NodeKind::Bool(false))
    );
    let mut valid = true;
    match &marked {
        Marked::Entries(entries) => {
            for ((key, item), mark) in entries.iter().zip(marks.iter()) {
                if *mark {
                    continue;
                }
                valid &= if refused {
                    eval.fail(
                        trail,
                        keyword.name,
                        here,
                        Assertion::UnevaluatedProperty,
                        Some(*key),
                    )?
                } else {
                    with_key_trail(*key, trail, |child| {
                        eval.descend(|eval| eval.report(node, *item, child, here))
                    })
                    .unwrap_or(Ok(true))?
                };
            }
        }
        Marked::Items(items) => {
            for (index, (item, mark)) in items.iter().zip(marks.iter()).enumerate() {
                if *mark {
                    continue;
                }
                let child = trail.child(Segment::Index(index));
                valid &= if refused {
                    eval.fail(&child, keyword.name, here, Assertion::UnevaluatedItem, None)?
                } else {
                    eval.descend(|eval| eval.report(node, *item, &child, here))?
                };
            }
        }
    }
    Ok(valid)
}
