//! Array keywords: `minItems`, `maxItems`, `uniqueItems`, `prefixItems` (and draft-07's array
//! `items`), `items` (and `additionalItems`), `contains` with `minContains`/`maxContains`. They
//! read proper lists only: an improper list is no JSON array, and they pass it.

use super::{Assertion, Check, Keyword};
use crate::budget::Budget;
use crate::json_schema::compiler::{NodeId, NodeKind};
use crate::json_schema::eval::{Eval, Flow, Halt};
use crate::json_schema::literal::{values_equal, Literal};
use crate::json_schema::vocabulary::name;
use crate::json_schema::vocabulary::Draft;
use crate::path::{Segment, Trail};
use crate::value::{Element, Kind, Value};

#[derive(Debug)]
pub struct Contains {
    pub node: NodeId,
    pub min: u64,
    pub max: Option<u64>,
}

impl Contains {
    /// `contains` with its companions (2020-12); `None` when one of them is invalid.
    pub fn compile(node: NodeId, schema: &Literal, draft: Draft) -> Option<Contains> {
        let count = |name: &str| match (draft, schema.get(name)) {
            (Draft::Draft2020_12, Some(value)) => value.as_count().map(Some),
            _ => Some(None),
        };
        Some(Contains {
            node,
            min: count(name::MIN_CONTAINS)?.unwrap_or(1),
            max: count(name::MAX_CONTAINS)?,
        })
    }
}

/// The number of elements of a proper list; `None` for anything else.
pub fn length<'a, V: Value<'a>>(value: V, budget: &mut Budget) -> Result<Option<u64>, Halt> {
    if value.kind() != Kind::List {
        return Ok(None);
    }
    let mut count = 0_u64;
    for element in value.list_elements() {
        if let Element::ImproperTail(_) = element {
            return Ok(None);
        }
        count += 1;
        if count.is_multiple_of(8) {
            budget.spend(1)?;
        }
    }
    Ok(Some(count))
}

/// The proper list's items, or `None`.
fn items<'a, V: Value<'a>>(value: V, budget: &mut Budget) -> Result<Option<Vec<V>>, Halt> {
    if length(value, budget)?.is_none() {
        return Ok(None);
    }
    Ok(Some(
        value
            .list_elements()
            .filter_map(|element| match element {
                Element::Item(item) => Some(item),
                Element::ImproperTail(_) => None,
            })
            .collect(),
    ))
}

pub fn count<'a, V: Value<'a>>(
    budget: &mut Budget,
    check: &Check,
    value: V,
) -> Result<Option<Assertion>, Halt> {
    let Some(length) = length(value, budget)? else {
        return Ok(None);
    };
    Ok(match check {
        Check::MinItems(minimum) if length < *minimum => Some(Assertion::MinItems(*minimum)),
        Check::MaxItems(maximum) if length > *maximum => Some(Assertion::MaxItems(*maximum)),
        _ => None,
    })
}

fn unique<'a, V: Value<'a>>(items: &[V], budget: &mut Budget) -> Result<bool, Halt> {
    for (index, item) in items.iter().enumerate() {
        for other in items.iter().skip(index + 1) {
            if values_equal(*item, *other, budget, 0)? {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// How many items `contains` matches, stopping once the answer is known.
fn matches<'a, V: Value<'a>>(
    eval: &mut Eval<'_, '_, V>,
    contains: &Contains,
    items: &[V],
) -> Result<u64, Halt> {
    let mut found = 0_u64;
    for item in items {
        if eval.descend(|eval| eval.valid(contains.node, *item))? {
            found += 1;
            match contains.max {
                Some(max) if found > max => break,
                None if found >= contains.min => break,
                _ => {}
            }
        }
    }
    Ok(found)
}

pub fn valid<'a, V: Value<'a>>(eval: &mut Eval<'_, '_, V>, check: &Check, value: V) -> Flow {
    let Some(items) = items(value, eval.budget)? else {
        return Ok(true);
    };
    match check {
        Check::UniqueItems => unique(&items, eval.budget),
        Check::PrefixItems(nodes) => {
            for (node, item) in nodes.iter().zip(items.iter()) {
                if !eval.descend(|eval| eval.valid(*node, *item))? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        Check::Items { start, node } => {
            for item in items.iter().skip(*start) {
                if !eval.descend(|eval| eval.valid(*node, *item))? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        Check::Contains(contains) => {
            let found = matches(eval, contains, &items)?;
            Ok(found >= contains.min && contains.max.is_none_or(|max| found <= max))
        }
        _ => Ok(true),
    }
}

/// Reports `item` against `node`; a `false` node is reported as an item not allowed.
fn report_item<'a, V: Value<'a>>(
    eval: &mut Eval<'_, '_, V>,
    keyword: &Keyword,
    node: NodeId,
    item: V,
    trail: &Trail<'_>,
) -> Flow {
    if let Some(NodeKind::Bool(false)) = eval.node(node).map(|node| &node.kind) {
        return eval.fail(
            trail,
            keyword.name,
            &keyword.location,
            Assertion::AdditionalItem,
            None,
        );
    }
    eval.descend(|eval| eval.report(node, item, trail))
}

pub fn report<'a, V: Value<'a>>(
    eval: &mut Eval<'_, '_, V>,
    keyword: &Keyword,
    value: V,
    trail: &Trail<'_>,
) -> Flow {
    let Some(items) = items(value, eval.budget)? else {
        return Ok(true);
    };
    let fail = |eval: &mut Eval<'_, '_, V>, assertion| {
        eval.fail(trail, keyword.name, &keyword.location, assertion, None)
    };
    match &keyword.check {
        Check::UniqueItems if !unique(&items, eval.budget)? => fail(eval, Assertion::UniqueItems),
        Check::PrefixItems(nodes) => {
            let mut valid = true;
            for (index, (node, item)) in nodes.iter().zip(items.iter()).enumerate() {
                let child = trail.child(Segment::Index(index));
                valid &= eval.descend(|eval| eval.report(*node, *item, &child))?;
            }
            Ok(valid)
        }
        Check::Items { start, node } => {
            let mut valid = true;
            for (index, item) in items.iter().enumerate().skip(*start) {
                let child = trail.child(Segment::Index(index));
                valid &= report_item(eval, keyword, *node, *item, &child)?;
            }
            Ok(valid)
        }
        Check::Contains(contains) => {
            let found = matches(eval, contains, &items)?;
            if found < contains.min {
                fail(eval, Assertion::MinContains(contains.min))
            } else {
                match contains.max {
                    Some(max) if found > max => fail(eval, Assertion::MaxContains(max)),
                    _ => Ok(true),
                }
            }
        }
        _ => Ok(true),
    }
}
