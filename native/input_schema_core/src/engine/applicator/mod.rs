//! The checks that apply schemas to the value in place: `$ref` and `$dynamicRef`, `allOf`,
//! `anyOf`, `oneOf`, `not` and `if`/`then`/`else`. `anyOf`, `oneOf` and `not` report their
//! own error, not their branches'.

mod unevaluated;
pub(super) mod walk;

use super::node::{types, Anchors, NodeId, ResourceId, Shortcut};
use crate::report::error::{Listing, MAX_LISTED_BYTES, MAX_LISTED_VALUES};
use crate::values::literal::Literal;

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

/// The branches a mask of bits (a `u32`) names: past this many, every branch is a candidate for
/// every value, and no tag tells them apart.
pub const MASKED_BRANCHES: usize = u32::BITS as usize;

/// The branches of `anyOf` or `oneOf`, and which of them can accept a value of each JSON
/// type: a branch whose `type` leaves a value out fails it without being run.
#[derive(Debug)]
pub struct Branches {
    pub nodes: Box<[NodeId]>,
    /// Per value class (see `class_of`), the branches that may accept it, as bits; all of
    /// them past `MASKED_BRANCHES` branches.
    pub(crate) candidates: [u32; 8],
    /// For an object, the property whose value names the branches that may accept it.
    pub(crate) tag: Option<Box<Tag>>,
    /// Every branch in play is run, even past the count asked for: a branch may end the call
    /// (see `Halt::NoStringForm`) after others accepted.
    pub every: bool,
    /// Per value class, the one branch in play when there is one (the usual `oneOf` of one
    /// branch per type), with how a quick walk may decide it in place.
    pub(crate) sole: [Option<(NodeId, Shortcut)>; 8],
    /// The types some branch accepts: what a value is asked first (a value of none of them
    /// meets no branch, whatever else it is).
    pub(crate) accepted: u8,
}

/// A property that branches require and pin to strings (`const` or `enum`): an object's
/// value of it leaves in play the branches that admit that string, and the branches the tag
/// does not decide.
#[derive(Debug)]
pub struct Tag {
    pub name: Box<str>,
    /// Each string some branch admits, sorted, with the branches that admit it as bits.
    values: Box<[(Box<str>, u32)]>,
    /// The branches the tag does not decide, as bits.
    open: u32,
    /// What an error lists of the strings the branches admit: the first ones, in the order
    /// the branches give them, each once.
    listing: Listing,
}

impl Tag {
    /// From each branch's admitted strings (`None` for a branch the tag does not decide);
    /// `None` unless the tag decides two branches at least, among at most `MASKED_BRANCHES`.
    pub fn new(name: &str, admitted: &[Option<Vec<&str>>]) -> Option<Tag> {
        if admitted.len() > MASKED_BRANCHES || admitted.iter().flatten().count() < 2 {
            return None;
        }
        let mut open = 0_u32;
        let mut values: Vec<(Box<str>, u32)> = Vec::new();
        let mut listed: Vec<Literal> = Vec::new();
        for (index, strings) in admitted.iter().enumerate() {
            let bit = 1_u32 << index;
            match strings {
                None => open |= bit,
                Some(strings) => {
                    for text in strings {
                        values.push((Box::from(*text), bit));
                        let listable =
                            listed.len() < MAX_LISTED_VALUES && text.len() <= MAX_LISTED_BYTES;
                        if listable && !listed.iter().any(|known| known.as_str() == Some(text)) {
                            listed.push(Literal::String(Box::from(*text)));
                        }
                    }
                }
            }
        }
        values.sort_by(|a, b| a.0.cmp(&b.0));
        values.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                kept.1 |= later.1;
            }
            same
        });
        let listing = Listing {
            unlisted: values.len().saturating_sub(listed.len()) as u64,
            values: Literal::Array(listed.into()),
        };
        Some(Tag {
            name: Box::from(name),
            values: values.into(),
            open,
            listing,
        })
    }

    /// The branches left in play by a tag of `text` (`None`: no string, or no tag at all).
    pub fn candidates(&self, text: Option<&[u8]>) -> u32 {
        let admitting = text.and_then(|text| {
            self.values
                .binary_search_by(|(known, _)| known.as_bytes().cmp(text))
                .ok()
                .and_then(|position| self.values.get(position))
                .map(|(_, branches)| *branches)
        });
        self.open | admitting.unwrap_or(0)
    }

    /// The branches the tag decides, as bits.
    pub fn decided(&self) -> u32 {
        !self.open
    }

    /// What an error lists of the strings the branches admit.
    pub fn listing(&self) -> &Listing {
        &self.listing
    }

    /// How many strings it knows, for pricing a search.
    pub fn len(&self) -> usize {
        self.values.len()
    }
}

/// What a value is to the branches' types: null, boolean, object, array, string, an integer,
/// another number, or a value of no JSON type.
#[inline(always)]
pub fn class_of(bits: u8) -> usize {
    // A table, read once a value: a branch count asks it for every item of a list. Built at
    // compile time, where an index out of bounds fails the build rather than panics.
    #[allow(clippy::indexing_slicing)]
    const CLASSES: [u8; 256] = {
        let mut classes = [5; 256];
        let mut class = 0;
        while class < CLASS_BITS.len() {
            // The integer class is the default: its bits vary (`1.0` is no WHOLE).
            if class != 5 {
                classes[CLASS_BITS[class] as usize] = class as u8;
            }
            class += 1;
        }
        classes
    };
    usize::from(CLASSES.get(usize::from(bits)).copied().unwrap_or(5))
}

/// The type bits a value of each class has (a float's integrality unknown: both number
/// classes are asked for it).
const CLASS_BITS: [u8; 8] = [
    types::NULL,
    types::BOOLEAN,
    types::OBJECT,
    types::ARRAY,
    types::STRING,
    types::OF_INTEGER,
    types::NUMBER,
    types::NONE,
];

impl Branches {
    /// Branches whose types are not known yet: each is a candidate for every value.
    pub fn unsorted(nodes: Box<[NodeId]>) -> Self {
        Branches {
            nodes,
            candidates: [u32::MAX; 8],
            tag: None,
            every: false,
            sole: [None; 8],
            accepted: types::ANY,
        }
    }

    /// The branches, with the types each accepts (`types::ANY` where it has no `type`) and
    /// how a quick walk may decide it in place.
    pub fn new(nodes: Box<[NodeId]>, shape: impl Fn(NodeId) -> (u8, Shortcut)) -> Self {
        let accepted = |node| shape(node).0;
        let mut candidates = [u32::MAX; 8];
        if nodes.len() <= MASKED_BRANCHES {
            for (class, slot) in candidates.iter_mut().enumerate() {
                let bits = CLASS_BITS.get(class).copied().unwrap_or(types::NONE);
                *slot = 0;
                for (index, node) in nodes.iter().enumerate() {
                    if types::admit(accepted(*node), bits) {
                        *slot |= 1 << index;
                    }
                }
            }
            // A float may be integral: it may meet the branches of either number class.
            let integers = candidates.get(5).copied().unwrap_or(u32::MAX);
            if let Some(numbers) = candidates.get_mut(6) {
                *numbers |= integers;
            }
        }
        let sole = candidates.map(|bits| {
            let node = *nodes.get(bits.trailing_zeros() as usize)?;
            (bits.count_ones() == 1).then_some((node, shape(node).1))
        });
        let accepted = nodes.iter().fold(0, |union, node| union | shape(*node).0);
        Branches {
            nodes,
            candidates,
            tag: None,
            every: false,
            sole,
            accepted,
        }
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

#[cfg(all(test, feature = "serde_json"))]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::engine::program::Check;
    use crate::json_schema::testing::compile_any_root;
    use serde_json::{json, Value as JsonValue};

    #[test]
    fn every_type_found_has_its_class() {
        use super::{class_of, types};
        for bits in 0..=u8::MAX {
            let class = match bits {
                types::NULL => 0,
                types::BOOLEAN => 1,
                types::OBJECT => 2,
                types::ARRAY => 3,
                types::STRING => 4,
                types::NUMBER => 6,
                types::NONE => 7,
                // An integer, whole or not (`1.0`).
                _ => 5,
            };
            assert_eq!(class_of(bits), class, "{bits:#b}");
        }
    }

    /// A `oneOf` and an `anyOf` of tagged branches: a tag by `const`, one by `enum`, a branch
    /// behind a `$ref`, a branch the tag does not decide, and a tag value two branches admit.
    fn schema(keyword: &str) -> JsonValue {
        json!({
            "$defs": {
                "image": {
                    "type": "object",
                    "required": ["tag", "path"],
                    "properties": {"tag": {"const": "img"}, "path": {"type": "string"}}
                }
            },
            keyword: [
                {"type": "object", "required": ["tag"],
                 "properties": {"tag": {"type": "string", "const": "br"}},
                 "additionalProperties": false},
                {"type": "object", "required": ["tag"],
                 "properties": {"tag": {"enum": ["span", "div", "both"]},
                                "content": {"type": "string"}}},
                {"$ref": "#/$defs/image"},
                {"type": "object", "required": ["kind"],
                 "properties": {"kind": {"const": "free"}}},
                {"type": "object", "required": ["tag", "width"],
                 "properties": {"tag": {"enum": ["both"]}, "width": {"type": "integer"}}},
                {"type": "string"}
            ]
        })
    }

    fn answers(schema: &JsonValue, value: &JsonValue) -> (bool, bool) {
        crate::engine::both_walks::answers(schema, value, false)
    }

    #[test]
    fn branches_pinned_to_strings_are_told_apart_by_their_tag() {
        let schema = schema("oneOf");
        let compiled = compile_any_root(&schema);
        let tag = compiled
            .program
            .checks
            .iter()
            .find_map(|check| match check {
                Check::OneOf(branches) => branches.tag.as_ref().map(|tag| tag.name.clone()),
                _ => None,
            });
        assert_eq!(tag.as_deref(), Some("tag"));
    }

    #[test]
    fn a_tag_leaves_in_play_exactly_the_branches_that_could_accept() {
        // (value, oneOf's answer, anyOf's answer)
        let cases = [
            (json!({"tag": "br"}), true, true),
            (json!({"tag": "br", "extra": 1}), false, false),
            (json!({"tag": "span", "content": "x"}), true, true),
            (json!({"tag": "span", "content": 1}), false, false),
            (json!({"tag": "img", "path": "a.png"}), true, true),
            (json!({"tag": "img"}), false, false),
            // Admitted by two branches: the second alone accepts without `width`.
            (json!({"tag": "both"}), true, true),
            (json!({"tag": "both", "width": 3}), false, true),
            // No tag, or a tag no branch admits: only the branch the tag does not decide.
            (json!({"kind": "free"}), true, true),
            (json!({"tag": "br", "kind": "free"}), true, true),
            (json!({"tag": "span", "kind": "free"}), false, true),
            (json!({"tag": "nothing", "kind": "free"}), true, true),
            (json!({"tag": "nothing"}), false, false),
            (json!({"tag": 7, "kind": "free"}), true, true),
            (json!({"tag": 7}), false, false),
            (json!({}), false, false),
            // Values that are no object: the tag plays no part.
            (json!("text"), true, true),
            (json!(["br"]), false, false),
        ];
        for (value, one_of, any_of) in cases {
            assert_eq!(
                answers(&schema("oneOf"), &value),
                (one_of, one_of),
                "oneOf {value}"
            );
            assert_eq!(
                answers(&schema("anyOf"), &value),
                (any_of, any_of),
                "anyOf {value}"
            );
        }
    }
}
