//! The one program builder, which both profiles' compilers call once every node is compiled:
//! what a node learns only from the whole program. Whether the walks need guarding (the graph's
//! cycles and its height from the root), which nodes are leaves, how a quick walk decides each
//! node in place (`Shortcut`, learned children first, so that an array of arrays is decided in
//! place at both levels), what the in-place decisions of the array, object and branch checks
//! read of their children, and which `anyOf`/`oneOf` branches a tag tells apart.

use super::applicator::{Branches, Tag, MASKED_BRANCHES};
use super::node::{types, Node, NodeId, Shortcut};
use super::object::{ObjectCheck, Reach};
use super::program::{Check, Program, Voice, UNGUARDED_HEIGHT};
use super::term_keys::{Exact, ExactKeyObject};
use crate::values::literal::Literal;

/// Required names of the first branch that the subset's tag search tries: its object check may
/// require thousands, and each try reads every branch.
const TAG_MAX_NAMES: usize = 8;

/// Finishes `program`, whose nodes are all filled, to speak in `voice`.
pub fn finish(program: &mut Program, voice: Voice) {
    program.voice = voice;
    let count = program.nodes.len();
    // The graph's edges, grouped by node.
    let mut offsets = Vec::with_capacity(count + 1);
    let mut edges: Vec<NodeId> = Vec::new();
    for node in &program.nodes {
        offsets.push(edges.len());
        for check in program.checks_of(node) {
            check.children(|child| edges.push(child));
        }
    }
    offsets.push(edges.len());
    let edges_of = |node: usize| {
        let start = offsets.get(node).copied().unwrap_or(0);
        let end = offsets.get(node + 1).copied().unwrap_or(start);
        edges.get(start..end).unwrap_or_default()
    };
    let root = program.root as usize;
    let mut search = Search {
        state: vec![NEW; count],
        height: vec![0; count],
        order: Vec::with_capacity(count),
        cyclic: false,
    };
    // From the root first: its cycles and its height are the walks' to guard against.
    search.from(root, &edges_of);
    let cyclic = search.cyclic;
    let tall = search
        .height
        .get(root)
        .is_some_and(|height| *height > UNGUARDED_HEIGHT);
    // Then what the root does not reach (a dynamic anchor's target may be reached only through
    // the dynamic scope), for the shortcuts alone.
    for node in 0..count {
        search.from(node, &edges_of);
    }
    program.guarded = cyclic || tall || program.has_dynamic_refs;
    for (index, node) in program.nodes.iter_mut().enumerate() {
        if edges_of(index).is_empty() {
            node.flags |= Node::LEAF;
        }
    }
    let shortcuts = learn_shortcuts(program, &search.order);
    let shortcut = |node: NodeId| {
        shortcuts
            .get(node as usize)
            .copied()
            .unwrap_or(Shortcut::Visit)
    };
    program.root_shortcut = shortcut(program.root);
    program.shortcuts.clone_from(&shortcuts);
    let accepted: Vec<u8> = program.nodes.iter().map(|node| node.types).collect();
    let reach: Vec<Reach> = program
        .nodes
        .iter()
        .zip(0..)
        .zip(&shortcuts)
        .map(|((node, id), shortcut)| match *shortcut {
            // An object property is visited as before: once the map's entries are read when
            // it goes deeper (see `Deferred`).
            Shortcut::Visit | Shortcut::Object { .. } if node.has(Node::LEAF) => Reach::Leaf(id),
            Shortcut::Visit
            | Shortcut::Object { .. }
            | Shortcut::Items { .. }
            | Shortcut::Lists { .. }
            | Shortcut::Ref { .. }
            | Shortcut::AllOf { .. }
            | Shortcut::Not { .. } => Reach::Deep(id),
            shortcut => Reach::Decide(id, shortcut),
        })
        .collect();
    let reach = |node: NodeId| {
        reach
            .get(node as usize)
            .copied()
            .unwrap_or(Reach::Deep(node))
    };
    // Each `anyOf` and `oneOf` learns which branches a value's type leaves in play; object
    // checks learn which of their nodes they decide in place.
    for check in program.checks.iter_mut() {
        match check {
            Check::AnyOf(branches) | Check::OneOf(branches) => {
                let nodes = std::mem::take(&mut branches.nodes);
                let every = branches.every;
                **branches = Branches::new(nodes, |node| {
                    let types = accepted.get(node as usize).copied().unwrap_or(types::ANY);
                    (types, shortcut(node))
                });
                branches.every = every;
            }
            Check::Object(object) => object.table.learn_reach(reach),
            Check::ExactKeyObject(object) => object.learn_shortcuts(shortcut),
            _ => {}
        }
    }
    let tags: Vec<(usize, Tag)> = program
        .checks
        .iter()
        .enumerate()
        .filter_map(|(index, check)| match check {
            Check::AnyOf(branches) | Check::OneOf(branches) if !branches.every => {
                tag_of(program, &branches.nodes).map(|tag| (index, tag))
            }
            _ => None,
        })
        .collect();
    for (index, tag) in tags {
        if let Some(Check::AnyOf(branches) | Check::OneOf(branches)) = program.checks.get_mut(index)
        {
            branches.tag = Some(Box::new(tag));
        }
    }
}

const NEW: u8 = 0;
const OPEN: u8 = 1;
const DONE: u8 = 2;

/// A depth-first search of the program's graph, kept across its starts.
struct Search {
    state: Vec<u8>,
    /// Per node, the levels of schema it spans (1 for a leaf), along the edges met first.
    height: Vec<u32>,
    /// The nodes in the order they were done: each after the children it reached.
    order: Vec<usize>,
    /// An edge led back to a node still open.
    cyclic: bool,
}

impl Search {
    fn from<'e>(&mut self, start: usize, edges_of: &impl Fn(usize) -> &'e [NodeId]) {
        if self.state.get(start) != Some(&NEW) {
            return;
        }
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        if let Some(slot) = self.state.get_mut(start) {
            *slot = OPEN;
        }
        while let Some((node, next)) = stack.last_mut() {
            let node = *node;
            match edges_of(node).get(*next).map(|child| *child as usize) {
                Some(child) => {
                    *next += 1;
                    match self.state.get(child).copied() {
                        Some(NEW) => {
                            if let Some(slot) = self.state.get_mut(child) {
                                *slot = OPEN;
                            }
                            stack.push((child, 0));
                        }
                        Some(OPEN) => self.cyclic = true,
                        _ => {}
                    }
                }
                None => {
                    let below = edges_of(node)
                        .iter()
                        .filter_map(|child| self.height.get(*child as usize))
                        .max()
                        .copied()
                        .unwrap_or(0);
                    if let Some(slot) = self.height.get_mut(node) {
                        *slot = below.saturating_add(1);
                    }
                    if let Some(slot) = self.state.get_mut(node) {
                        *slot = DONE;
                    }
                    self.order.push(node);
                    stack.pop();
                }
            }
        }
    }
}

/// Each node's shortcut, children first: an array check whose items alone it reads learns how
/// its item is decided before its own node's shortcut is read (`Shortcut::Items`).
fn learn_shortcuts(program: &mut Program, order: &[usize]) -> Vec<Shortcut> {
    let mut learned: Vec<Option<Shortcut>> = vec![None; program.nodes.len()];
    for &index in order {
        let Some(node) = program.nodes.get(index).copied() else {
            continue;
        };
        let start = node.first as usize;
        for position in start..start.saturating_add(node.count as usize) {
            let item = match program.checks.get(position) {
                Some(Check::Array(array)) => match (&array.prefix, &array.contains, array.items) {
                    (None, None, Some((0, item, _))) => item,
                    _ => continue,
                },
                _ => continue,
            };
            // An item still open (the schema recurses through it) has no items learned yet.
            let shortcut = learned
                .get(item as usize)
                .copied()
                .flatten()
                .unwrap_or_else(|| program.shortcut(item));
            if let Some(Check::Array(array)) = program.checks.get_mut(position) {
                array.item_shortcut =
                    Some(shortcut).filter(|shortcut| !matches!(shortcut, Shortcut::Visit));
                array.alone = array.items_alone();
            }
        }
        if let (Some(slot), Ok(id)) = (learned.get_mut(index), NodeId::try_from(index)) {
            *slot = Some(program.shortcut(id));
        }
    }
    learned
        .into_iter()
        .map(|shortcut| shortcut.unwrap_or_default())
        .collect()
}

/// The tag that tells `branches` apart, if one does (see `Tag`): a name the first branch with
/// an object check requires, which two branches at least require and pin to strings.
fn tag_of(program: &Program, branches: &[NodeId]) -> Option<Tag> {
    if branches.len() > MASKED_BRANCHES {
        return None;
    }
    // The node a schema stands for, through references that stand alone.
    let through = |mut id: NodeId| {
        for _ in 0..8 {
            let node = program.node(id)?;
            match program.checks_of(node) {
                [Check::Ref(target)] if node.types == types::ANY => id = *target,
                _ => break,
            }
        }
        program.node(id)
    };
    let object_of = |id: NodeId| {
        let node = through(id)?;
        program
            .checks_of(node)
            .iter()
            .find_map(|check| match check {
                Check::Object(object) => Some(Object::Json(object)),
                Check::ExactKeyObject(object) => Some(Object::Exact(object)),
                _ => None,
            })
    };
    // The strings a property's node pins its value to.
    let pinned = |property: NodeId| {
        let node = through(property)?;
        program
            .checks_of(node)
            .iter()
            .find_map(|check| match check {
                Check::Const(literal) => match &**literal {
                    Literal::String(text) => Some(vec![&**text]),
                    _ => None,
                },
                Check::Enum(choices) => choices.strings(),
                _ => None,
            })
    };
    let admitted = |id: NodeId, name: &[u8]| pinned(object_of(id)?.required_property(name)?);
    let names = branches
        .iter()
        .find_map(|id| object_of(*id))?
        .required_names();
    names.into_iter().find_map(|name| {
        let admitted: Vec<Option<Vec<&str>>> =
            branches.iter().map(|id| admitted(*id, name)).collect();
        Tag::new(std::str::from_utf8(name).ok()?, &admitted)
    })
}

/// A branch's object check, under either rule for keys.
#[derive(Clone, Copy)]
enum Object<'p> {
    Json(&'p ObjectCheck),
    Exact(&'p ExactKeyObject),
}

impl<'p> Object<'p> {
    /// The names it requires, in order: the candidates for a tag.
    fn required_names(self) -> Vec<&'p [u8]> {
        match self {
            Object::Json(object) => object
                .required
                .as_ref()
                .map_or_else(Vec::new, |(names, _)| {
                    names.iter().map(|name| name.as_bytes()).collect()
                }),
            Object::Exact(object) => object
                .required
                .iter()
                .take(TAG_MAX_NAMES)
                .map(|required| &*required.name)
                .collect(),
        }
    }

    /// The node of the property `name`, when the object requires it and the value under that
    /// name is the property's: under the rule for term keys, a string key names a binary
    /// property that no other property shares a string form with.
    fn required_property(self, name: &[u8]) -> Option<NodeId> {
        match self {
            Object::Json(object) => {
                let (required, _) = object.required.as_ref()?;
                let (properties, _) = object.properties.as_ref()?;
                if !required.iter().any(|known| known.as_bytes() == name) {
                    return None;
                }
                let (_, property) = properties
                    .iter()
                    .find(|(known, _)| known.as_bytes() == name)?;
                Some(*property)
            }
            Object::Exact(object) => {
                if !object.unique_names || object.unnamed {
                    return None;
                }
                let required = object.required.iter().find(|known| &*known.name == name)?;
                let property = object.properties.get(required.property?)?;
                matches!(property.exact, Exact::Binary).then_some(property.node)
            }
        }
    }
}

#[cfg(all(test, feature = "serde_json"))]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::engine::program::Check;
    use crate::report::error::{Error, Mode};
    use crate::serde::Json;
    use crate::{compile, Budget};
    use serde_json::json;

    #[test]
    fn subset_branches_pinned_to_strings_by_a_required_enum_are_told_apart_by_their_tag() {
        let schema = json!({
            "type": "object",
            "properties": {"shape": {"oneOf": [
                {"type": "object", "required": ["kind", "r"],
                 "properties": {"kind": {"type": "string", "enum": ["circle"]},
                                "r": {"type": "number"}}},
                {"type": "object", "required": ["kind", "w"],
                 "properties": {"kind": {"type": "string", "enum": ["square", "box"]},
                                "w": {"type": "number"}}},
                {"type": "object", "required": ["kind"],
                 "properties": {"kind": {"type": "string", "enum": ["box"]}}},
                {"type": "string"}
            ]}}
        });
        let compiled = compile(Json::from(&schema), &mut Budget::unlimited()).unwrap();
        let tag = compiled
            .program
            .checks
            .iter()
            .find_map(|check| match check {
                Check::OneOf(branches) => branches.tag.as_ref().map(|tag| tag.name.clone()),
                _ => None,
            });
        assert_eq!(tag.as_deref(), Some("kind"));
        let cases = [
            (json!({"kind": "circle", "r": 1}), true),
            (json!({"kind": "square", "w": 2}), true),
            (json!({"kind": "square"}), false),
            (json!({"kind": "circle", "w": 2}), false),
            // Two branches admit it: the third alone accepts without `w`.
            (json!({"kind": "box"}), true),
            (json!({"kind": "box", "w": 2}), false),
            (json!({"kind": "nothing"}), false),
            (json!({"kind": 7, "r": 1}), false),
            (json!({"r": 1}), false),
            (json!("text"), true),
            (json!(3), false),
        ];
        for (shape, valid) in cases {
            let arguments = json!({ "shape": shape });
            let arguments = Json::from(&arguments);
            let mut budget = Budget::unlimited();
            assert_eq!(
                compiled.is_valid(arguments, &mut budget).ok(),
                Some(valid),
                "{shape}"
            );
            assert_eq!(
                compiled.quick_answer(arguments, &mut budget),
                Some(valid),
                "{shape}"
            );
            for mode in [Mode::First, Mode::All { max_errors: 10 }] {
                let answer = compiled.validate(arguments, mode, &mut budget);
                let full = compiled.validate_fully(arguments, mode, &mut budget);
                let errors = |answer: Result<(), crate::Failure<Json<'_>>>| {
                    answer
                        .err()
                        .and_then(|failure| failure.first().map(Error::to_string))
                };
                let (answer, full) = (errors(answer), errors(full));
                assert_eq!(answer, full, "{shape}");
                let expected =
                    (!valid).then_some("tool argument must match exactly one oneOf branch");
                assert_eq!(answer.as_deref(), expected, "{shape}");
            }
        }
    }
}
