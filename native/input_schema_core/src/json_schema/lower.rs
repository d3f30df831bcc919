//! From the keywords the compiler reads to the engine's program: each schema object's keywords,
//! in the dialect's order, become one node (its `type` as the node's accepted types, each
//! family's keywords fused into one check at the family's place); the engine's builder
//! (`crate::engine::build`) finishes the program once every node is known.

use super::keyword::{Check as Read, Keyword};
use crate::engine::applicator::Branches;
use crate::engine::array::ArrayCheck;
use crate::engine::number::{NumberCheck, NumberRule};
use crate::engine::object::ObjectCheck;
use crate::engine::program::{types, Check, Named, Node, NodeId, NodeInfo, Program};
use crate::engine::string::{StringCheck, StringRule};
use crate::work::budget::{Budget, Exhausted};
use std::sync::Arc;

/// A new node at `location`, to be filled; `None` past the ids a program can hold.
pub fn reserve(program: &mut Program, location: Box<str>) -> Option<NodeId> {
    let id = NodeId::try_from(program.nodes.len()).ok()?;
    program.nodes.push(Node {
        types: types::ANY,
        flags: 0,
        refs: 0,
        cost: 1,
        first: 0,
        count: 0,
    });
    program.info.push(NodeInfo {
        location,
        resource: 0,
        types: None,
        label: None,
    });
    Some(id)
}

/// A family's check, gathered from its keywords and placed where its first keyword stood
/// (and reported as that keyword where the check as a whole is named).
enum Slot {
    Ready(Check, Named),
    Number(Named),
    String(Named),
    Array(Named),
    Object(Named),
}

/// Fills node `id` from a schema object's keywords, or from a boolean schema (`Err`).
pub fn fill(
    program: &mut Program,
    id: NodeId,
    keywords: Result<Vec<Keyword>, bool>,
    resource: usize,
    budget: &mut Budget,
) -> Result<(), Exhausted> {
    let mut node = Node {
        types: types::ANY,
        flags: 0,
        refs: 0,
        cost: 1,
        first: u32::try_from(program.checks.len()).unwrap_or(u32::MAX),
        count: 0,
    };
    let mut written_types = None;
    match keywords {
        Err(true) => {}
        Err(false) => {
            node.types = types::NONE;
            node.flags |= Node::FALSE;
        }
        Ok(keywords) => {
            node.cost = u8::try_from(keywords.len() + 1).unwrap_or(u8::MAX);
            let mut slots = Vec::with_capacity(keywords.len());
            let mut number = NumberCheck::default();
            let mut string = StringCheck::default();
            let mut array = ArrayCheck::default();
            let mut object = ObjectCheck::default();
            for Keyword { check, name, token } in keywords {
                let named = Named { name, token };
                let family = match check {
                    Read::Type(read) => {
                        node.types = read.mask;
                        written_types = Some(Arc::new(read.written));
                        continue;
                    }
                    Read::Ref(target) => Some(Slot::Ready(Check::Ref(target), named)),
                    Read::DynamicRef(reference) => {
                        Some(Slot::Ready(Check::DynamicRef(Box::new(reference)), named))
                    }
                    Read::Enum(choices) => Some(Slot::Ready(Check::Enum(Box::new(choices)), named)),
                    Read::Const(value) => Some(Slot::Ready(Check::Const(Box::new(value)), named)),
                    Read::MultipleOf(multiple) => {
                        number.rules.push((NumberRule::MultipleOf(multiple), named));
                        (number.rules.len() == 1).then_some(Slot::Number(named))
                    }
                    Read::Bound(bound) => {
                        number.rules.push((NumberRule::Bound(bound), named));
                        (number.rules.len() == 1).then_some(Slot::Number(named))
                    }
                    Read::MinLength(_)
                    | Read::MaxLength(_)
                    | Read::Pattern(_)
                    | Read::Format(_)
                    | Read::Content(_) => {
                        let rule = match check {
                            Read::MinLength(minimum) => StringRule::MinLength(minimum),
                            Read::MaxLength(maximum) => StringRule::MaxLength(maximum),
                            Read::Pattern(pattern) => StringRule::Pattern(pattern),
                            Read::Format(format) => StringRule::Format(format),
                            Read::Content(content) => StringRule::Content(content),
                            _ => continue,
                        };
                        string.rules.push((rule, named));
                        (string.rules.len() == 1).then_some(Slot::String(named))
                    }
                    Read::MinItems(_)
                    | Read::MaxItems(_)
                    | Read::UniqueItems
                    | Read::PrefixItems(_)
                    | Read::Items { .. }
                    | Read::Contains(_) => {
                        let first = is_empty_array(&array);
                        match check {
                            Read::MinItems(minimum) => array.min_items = Some((minimum, named)),
                            Read::MaxItems(maximum) => array.max_items = Some((maximum, named)),
                            Read::UniqueItems => array.unique = Some(named),
                            Read::PrefixItems(nodes) => array.prefix = Some((nodes, named)),
                            Read::Items { start, node } => array.items = Some((start, node, named)),
                            Read::Contains(contains) => array.contains = Some((contains, named)),
                            _ => {}
                        }
                        first.then_some(Slot::Array(named))
                    }
                    Read::Required(_)
                    | Read::DependentRequired(_)
                    | Read::MinProperties(_)
                    | Read::MaxProperties(_)
                    | Read::PropertyNames(_)
                    | Read::AdditionalProperties(_)
                    | Read::Properties(_)
                    | Read::PatternProperties(_)
                    | Read::DependentSchemas(_)
                    | Read::Dependencies(_) => {
                        let first = is_empty_object(&object);
                        match check {
                            Read::Required(names) => object.required = Some((names, named)),
                            Read::DependentRequired(dependent) => {
                                object.dependent_required = Some((dependent, named))
                            }
                            Read::MinProperties(minimum) => {
                                object.min_properties = Some((minimum, named))
                            }
                            Read::MaxProperties(maximum) => {
                                object.max_properties = Some((maximum, named))
                            }
                            Read::PropertyNames(node) => {
                                object.property_names = Some((node, named))
                            }
                            Read::AdditionalProperties(node) => {
                                object.additional = Some((node, named))
                            }
                            Read::Properties(properties) => {
                                object.properties = Some((properties, named))
                            }
                            Read::PatternProperties(patterns) => {
                                object.patterns = Some((patterns, named))
                            }
                            Read::DependentSchemas(schemas) => {
                                object.dependent_schemas = Some((schemas, named))
                            }
                            Read::Dependencies(dependencies) => {
                                object.dependencies = Some((dependencies, named))
                            }
                            _ => {}
                        }
                        first.then_some(Slot::Object(named))
                    }
                    Read::AllOf(nodes) => Some(Slot::Ready(Check::AllOf(nodes), named)),
                    Read::AnyOf(nodes) => Some(Slot::Ready(Check::AnyOf(branches(nodes)), named)),
                    Read::OneOf(nodes) => Some(Slot::Ready(Check::OneOf(branches(nodes)), named)),
                    Read::Not(node) => Some(Slot::Ready(Check::Not(node), named)),
                    Read::If(conditional) => {
                        Some(Slot::Ready(Check::If(Box::new(conditional)), named))
                    }
                    Read::UnevaluatedItems(node) => {
                        Some(Slot::Ready(Check::UnevaluatedItems(node), named))
                    }
                    Read::UnevaluatedProperties(node) => {
                        Some(Slot::Ready(Check::UnevaluatedProperties(node), named))
                    }
                };
                slots.extend(family);
            }
            let mut number = Some(number);
            let mut string = Some(string);
            let mut array = Some(array);
            let mut object = Some(object);
            for slot in slots {
                let (check, named) = match slot {
                    Slot::Ready(check, named) => (check, named),
                    Slot::Number(family) => match number.take() {
                        Some(number) => (Check::Number(Box::new(number)), family),
                        None => continue,
                    },
                    Slot::String(family) => match string.take() {
                        Some(string) => (Check::String(Box::new(string)), family),
                        None => continue,
                    },
                    Slot::Array(family) => match array.take() {
                        Some(array) => {
                            node.flags |= Node::READS_ARRAYS;
                            (Check::Array(Box::new(array)), family)
                        }
                        None => continue,
                    },
                    Slot::Object(family) => match object.take() {
                        Some(object) => {
                            node.flags |= Node::READS_OBJECTS;
                            (Check::Object(Box::new(object.finish(budget)?)), family)
                        }
                        None => continue,
                    },
                };
                if matches!(check, Check::Ref(_) | Check::DynamicRef(_)) {
                    node.refs = node.refs.saturating_add(1);
                }
                if matches!(
                    check,
                    Check::Ref(_)
                        | Check::DynamicRef(_)
                        | Check::AllOf(_)
                        | Check::AnyOf(_)
                        | Check::OneOf(_)
                ) {
                    node.flags |= Node::READS_OBJECTS | Node::READS_ARRAYS;
                }
                program.checks.push(check);
                program.names.push(named);
                node.count += 1;
            }
        }
    }
    if let Some(slot) = program.nodes.get_mut(id as usize) {
        *slot = node;
    }
    if let Some(info) = program.info.get_mut(id as usize) {
        info.resource = resource;
        info.types = written_types;
    }
    Ok(())
}

/// Branches whose types are not known yet: every one a candidate until the builder sorts them.
fn branches(nodes: Box<[NodeId]>) -> Box<Branches> {
    Box::new(Branches::unsorted(nodes))
}

fn is_empty_array(array: &ArrayCheck) -> bool {
    array.min_items.is_none()
        && array.max_items.is_none()
        && array.unique.is_none()
        && array.prefix.is_none()
        && array.items.is_none()
        && array.contains.is_none()
}

fn is_empty_object(object: &ObjectCheck) -> bool {
    object.required.is_none()
        && object.dependent_required.is_none()
        && object.min_properties.is_none()
        && object.max_properties.is_none()
        && object.property_names.is_none()
        && object.additional.is_none()
        && object.properties.is_none()
        && object.patterns.is_none()
        && object.dependent_schemas.is_none()
        && object.dependencies.is_none()
}
