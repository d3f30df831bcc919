//! The one walk of a value against a program, written once and generic over what a failure
//! does (`Sink`): the quick walk (`Quick`) stops at the first failure and builds nothing; the
//! reporting walk (`Report`) keeps the path it took and records each error in the keyword
//! order of the dialect (references, `type`, `enum`/`const`, the value's own family, the
//! applicators, `unevaluated*` last). A reporting walk asks quick questions where a keyword's
//! answer does not name its subschemas' errors (`anyOf`, `not`, `contains`, ...).

use crate::engine::array::length;
use crate::engine::enums::Enum;
use crate::engine::node::{types, Named, Node, NodeId, ResourceId, Shortcut};
use crate::engine::program::{Check, Program, Voice};
use crate::engine::string::{self, FormatAnswers};
use crate::names::keywords::type_name;
use crate::report::error::{
    listed_value, Actual, Asked, Assertion, BranchError, Error, Failed, Failure, KeywordFailure,
    Mode, TypeLabel, MAX_FORMAT_ASKS,
};
use crate::report::path::{Path, Places, Step, WalkPath};
use crate::values::value::{AtomKind, Element, Kind, Value};
use crate::work::budget::{Budget, BRANCH_REPORT_UNITS};
use crate::work::halt::{broken, Flow, Halt};
use crate::work::stack::Levels;
use std::mem::ManuallyDrop;
use std::sync::Arc;

/// Schemas applied to one value in a row, through references and in-place applicators, before
/// the walk reads further into the value: past this the references loop (`{"$ref": "#"}`).
pub const MAX_IN_PLACE: usize = 10_000;

/// What the schema `false` is reported as: its failures name no keyword but the schema itself.
const FALSE_SCHEMA: &str = "false";

/// What a walk does with a failure, and what it keeps of its way to a value.
pub trait Sink {
    const REPORTS: bool;
    /// Where the walk is: nothing for the quick walk, the path taken for the reporting one.
    type At<'l>: Copy;

    fn then<'l>(at: &'l Self::At<'_>, step: Step<'l>) -> Self::At<'l>;

    fn path<'x>(at: &'x Self::At<'_>) -> Option<&'x WalkPath<'x>>;
}

/// The quick walk: a failure ends it (`Err(Halt::Failed)`).
pub enum Quick {}

/// The reporting walk: a failure is recorded, and the walk goes on while the mode wants more.
pub enum Report {}

impl Sink for Quick {
    const REPORTS: bool = false;
    type At<'l> = ();

    #[inline(always)]
    fn then<'l>(_: &'l (), _: Step<'l>) {}

    #[inline(always)]
    fn path<'x>(_: &'x ()) -> Option<&'x WalkPath<'x>> {
        None
    }
}

impl Sink for Report {
    const REPORTS: bool = true;
    type At<'l> = WalkPath<'l>;

    #[inline(always)]
    fn then<'l>(at: &'l WalkPath<'_>, step: Step<'l>) -> WalkPath<'l> {
        at.then(step)
    }

    #[inline(always)]
    fn path<'x>(at: &'x WalkPath<'_>) -> Option<&'x WalkPath<'x>> {
        Some(at)
    }
}

/// One walk of a value against a program: the budget, the errors found so far against the
/// mode's cap, and the bookkeeping of guarded programs (levels, dynamic scope, loop guard).
pub struct Walk<'p, 'b, V> {
    pub program: &'p Program,
    pub budget: &'b mut Budget,
    mode: Mode,
    /// The errors, the dynamic scope and the host's pending questions: most calls need none
    /// of them, and a walk without them is dropped with one test (`Walk`'s `Drop`): the
    /// compiler's own drop of the box would be a call on every walk.
    kept: ManuallyDrop<Option<Box<Kept<V>>>>,
    /// What the host answered so far of its custom format functions, for this call.
    answers: Option<&'p dyn FormatAnswers>,
    /// What the errors take, against `ERRORS_MAX_BYTES`.
    error_bytes: usize,
    /// Where argument paths start (`$arguments`, or `$`).
    root: &'static [u8],
    /// Nesting of node evaluations, for the stack checks.
    depth: usize,
    /// Nodes applied to the current value without reading into it.
    in_place: usize,
    /// Where a reference loop was found (see `Halt::Loop`).
    pub loop_at: NodeId,
    /// Whether the walk left a container (or a value of no JSON type) unread: then the rule
    /// for argument keys must still be checked over the whole value (`json_schema::keys`).
    /// Hosts whose keys are all strings never set it.
    pub unread: bool,
    /// Whether an `anyOf`/`oneOf` error carries its branches' first errors: not within a
    /// branch's own report, so that the work of one error stays within one level of them.
    pub reports_branches: bool,
}

/// What a walk keeps only when it needs it (`Walk::kept`).
struct Kept<V> {
    errors: Vec<Error<V>>,
    /// The resources entered, outermost first (kept only when a `$dynamicRef` needs it).
    scope: Vec<ResourceId>,
    /// What host functions must answer before the call can be decided (see `ask`).
    asked: Vec<Asked>,
}

/// A value's JSON type, as a bit of `types` (`NUMBER` and `INTEGER` both for an integer), and
/// what the family check reads next, asked for already: a map's size or a list's length, a
/// small integer. Two words: at four, it was copied through memory in wide loads, which stalled
/// on the narrow stores that had just written it. In declaration order (`repr(C)`): laid out
/// word first, its `Result` was copied in pieces that straddled the type byte, and stalled the
/// same way.
#[derive(Clone, Copy)]
#[repr(C)]
pub struct Found {
    pub bits: u8,
    /// Whether `word` holds a small integer rather than a size.
    small: bool,
    word: u64,
}

impl Found {
    const fn of(bits: u8) -> Self {
        Found {
            bits,
            small: false,
            word: 0,
        }
    }

    /// A map of `size` entries.
    pub const fn object(size: usize) -> Self {
        Found {
            word: size as u64,
            ..Found::of(types::OBJECT)
        }
    }

    /// A proper list of `length` items.
    const fn array(length: usize) -> Self {
        Found {
            word: length as u64,
            ..Found::of(types::ARRAY)
        }
    }

    /// An integer that fits a word.
    const fn small_integer(integer: i64) -> Self {
        Found {
            small: true,
            word: integer as u64,
            ..Found::of(types::OF_INTEGER)
        }
    }

    /// The map's size or the list's length; 0 for any other value.
    pub const fn size(&self) -> usize {
        match self.small {
            true => 0,
            false => self.word as usize,
        }
    }

    /// The integer, when it fits a word and was asked for.
    pub const fn integer(&self) -> Option<i64> {
        match self.small {
            true => Some(self.word as i64),
            false => None,
        }
    }
}

impl<V> Drop for Walk<'_, '_, V> {
    #[inline(always)]
    fn drop(&mut self) {
        if self.kept.is_some() {
            drop_kept(&mut self.kept);
        }
    }
}

#[cold]
#[inline(never)]
fn drop_kept<V>(kept: &mut ManuallyDrop<Option<Box<Kept<V>>>>) {
    drop(std::mem::take(&mut **kept));
}

impl<'p, 'b, 'a, V: Value<'a>> Walk<'p, 'b, V> {
    /// A walk of `program`, reading the host's answers of its custom format functions.
    pub fn new(
        program: &'p Program,
        mode: Mode,
        root: &'static [u8],
        budget: &'b mut Budget,
        answers: Option<&'p dyn FormatAnswers>,
    ) -> Self {
        Walk {
            program,
            budget,
            mode,
            kept: ManuallyDrop::new(None),
            answers,
            error_bytes: 0,
            root,
            depth: 0,
            in_place: 0,
            loop_at: 0,
            unread: false,
            // The plain voice names no branch.
            reports_branches: program.voice == Voice::Keyword,
        }
    }

    fn kept(&mut self) -> &mut Kept<V> {
        self.kept.get_or_insert_with(|| {
            Box::new(Kept {
                errors: Vec::new(),
                scope: Vec::new(),
                asked: Vec::new(),
            })
        })
    }

    /// The errors found so far.
    pub fn errors(&self) -> &[Error<V>] {
        self.kept.as_ref().map_or(&[], |kept| &kept.errors)
    }

    /// The errors found, taken out of the walk.
    pub fn take_errors(&mut self) -> Vec<Error<V>> {
        self.kept
            .as_mut()
            .map_or_else(Vec::new, |kept| std::mem::take(&mut kept.errors))
    }

    /// The host's answers this walk reads.
    pub fn answers(&self) -> Option<&'p dyn FormatAnswers> {
        self.answers
    }

    /// What the host must answer before the call can be decided: none, or the questions the
    /// walk met without an answer (taken out of the walk).
    pub fn take_asked(&mut self) -> Option<Vec<Asked>> {
        let kept = self.kept.as_mut()?;
        (!kept.asked.is_empty()).then(|| std::mem::take(&mut kept.asked))
    }

    /// Notes the questions another walk met (see `inner`) as this one's.
    pub(crate) fn note_asked(&mut self, asked: Vec<Asked>) {
        for (format, text) in asked {
            let known = self
                .kept()
                .asked
                .iter()
                .any(|(name, value)| *name == format && *value == text);
            if !known && self.kept().asked.len() <= MAX_FORMAT_ASKS {
                self.kept().asked.push((format, text));
            }
        }
    }

    /// A walk of another value (a `contentSchema` document) on this one's budget, reading
    /// the same answers.
    pub fn inner<W: Value<'a>>(&mut self) -> Walk<'p, '_, W> {
        Walk::new(
            self.program,
            Mode::First,
            self.root,
            self.budget,
            self.answers,
        )
    }

    /// Whether `value` is valid against node `id`: a quick question, which a reporting walk
    /// asks too (an `anyOf` branch, say).
    #[inline]
    pub fn valid(&mut self, id: NodeId, value: V) -> Flow {
        match self.quick_visit(id, value) {
            Err(Halt::Failed) => Ok(false),
            other => other,
        }
    }

    /// `valid` of a part of the value (an item, a property's value, a key).
    #[inline]
    pub fn valid_part(&mut self, id: NodeId, value: V) -> Flow {
        match self.quick_part(id, value) {
            Err(Halt::Failed) => Ok(false),
            other => other,
        }
    }

    /// Node `id` applied to a part of the value by a quick walk: decided by its shortcut where
    /// the program is walked unguarded.
    #[inline(always)]
    pub fn quick_part(&mut self, id: NodeId, value: V) -> Flow {
        let program = self.program;
        if program.guarded {
            return self.visit_part::<Quick>(id, value, &());
        }
        // The usual part's node checks its types alone: asked here, without a call.
        if let Some(Shortcut::Types(wanted)) = program.shortcuts.get(id as usize) {
            return self.types_decided(*wanted, value);
        }
        self.decide_in_place(id, value)
    }

    /// `visit_part`, by the shortcut of `quick_part` in a quick walk.
    #[inline(always)]
    pub fn visit_part_in_place<S: Sink>(&mut self, id: NodeId, value: V, at: &S::At<'_>) -> Flow {
        if S::REPORTS {
            return self.visit_part::<S>(id, value, at);
        }
        self.quick_part(id, value)
    }

    /// Node `id` applied to `value` in place by a quick walk: decided by its shortcut where the
    /// program is walked unguarded (a guarded one counts every node it enters).
    #[inline(always)]
    pub fn quick_visit(&mut self, id: NodeId, value: V) -> Flow {
        if self.program.guarded {
            return self.visit::<Quick>(id, value, &());
        }
        self.decide_in_place(id, value)
    }

    /// `quick_visit` in an unguarded program. Apart from it, so that a guarded walk, which
    /// recurses through `quick_visit` as deep as the value, keeps `decide`'s locals out of each
    /// level's frame: a deep value takes fresh stack segments, which the budget prices. (A
    /// types-only node decided in line here, before `decide`, saves calls but puts those
    /// locals back into every level of the test profile's frames: `tests/stack.rs` overflows.)
    #[inline(never)]
    fn decide_in_place(&mut self, id: NodeId, value: V) -> Flow {
        // By reference: a copy of the shortcut in this frame, written in overlapping pieces,
        // stalls the loads of its last word that follow (store forwarding fails).
        let program = self.program;
        let shortcut = program.shortcuts.get(id as usize);
        self.decide(id, shortcut.unwrap_or(&Shortcut::Visit), value)
    }

    /// `visit`, by the shortcut of `quick_visit` in a quick walk.
    #[inline(always)]
    pub fn visit_in_place<S: Sink>(&mut self, id: NodeId, value: V, at: &S::At<'_>) -> Flow {
        if S::REPORTS {
            return self.visit::<S>(id, value, at);
        }
        self.quick_visit(id, value)
    }

    /// Node `id` applied to `value` in place.
    #[inline]
    pub fn visit<S: Sink>(&mut self, id: NodeId, value: V, at: &S::At<'_>) -> Flow {
        let program = self.program;
        let node = self.node(id)?;
        if program.guarded && !node.has(Node::LEAF) {
            return self.visit_guarded::<S>(id, node, value, at);
        }
        // A node that checks its types alone is decided here.
        if node.count == 0 && !S::REPORTS {
            return self.types_decided(node.types, value);
        }
        self.run::<S>(id, node, value, at)
    }

    /// The quick answer of node `id` on a part of the value, decided in place where its
    /// `shortcut` allows.
    #[inline(always)]
    pub fn decide(&mut self, id: NodeId, shortcut: &Shortcut, value: V) -> Flow {
        match *shortcut {
            Shortcut::Types(wanted) => self.types_decided(wanted, value),
            Shortcut::Integers { .. } => {
                match integers_decided(self.program, shortcut, value, self.budget) {
                    Some(decided) => decided,
                    None => self.visit_part::<Quick>(id, value, &()),
                }
            }
            Shortcut::StringEnum { check, cost } if value.is_binary() => {
                let held = match self.program.checks.get(check as usize) {
                    Some(Check::Enum(choices)) => {
                        self.budget.spend(u64::from(cost))?;
                        choices.contains(value, Kind::Binary, self.budget)?
                    }
                    _ => return self.visit_part::<Quick>(id, value, &()),
                };
                match held {
                    true => Ok(true),
                    false => Err(Halt::Failed),
                }
            }
            Shortcut::StringEnum { .. } => self.visit_part::<Quick>(id, value, &()),
            Shortcut::Choices { check, cost } => self.decide_choices(id, check, cost, value),
            Shortcut::Branches { check, cost } if !self.program.guarded => {
                let program = self.program;
                let (Some(node), Some(check)) =
                    (program.node(id), program.checks.get(check as usize))
                else {
                    return self.visit_part::<Quick>(id, value, &());
                };
                let (Check::AnyOf(branches) | Check::OneOf(branches)) = check else {
                    return self.visit_part::<Quick>(id, value, &());
                };
                self.budget.spend(u64::from(cost))?;
                let found = self.classify(value, branches.accepted)?;
                self.note_read(node, found);
                let held = match check {
                    Check::AnyOf(_) => branches.count(self, value, found, 1)? >= 1,
                    _ => branches.count(self, value, found, 2)? == 1,
                };
                match held {
                    true => Ok(true),
                    false => Err(Halt::Failed),
                }
            }
            Shortcut::Branches { .. } => self.visit_part::<Quick>(id, value, &()),
            Shortcut::Object { check, cost } => match value.map_size() {
                Some(size) => self.decide_object(id, check, cost, value, size),
                None => self.visit_part::<Quick>(id, value, &()),
            },
            Shortcut::Items { check, cost } if !self.program.guarded => {
                self.decide_items(id, check, cost, value)
            }
            Shortcut::Strings { check, cost } if value.is_binary() => {
                let Some(Check::String(string)) = self.program.checks.get(check as usize) else {
                    return Err(broken());
                };
                self.budget.spend(u64::from(cost))?;
                string.check::<Quick, V>(self, value, &())
            }
            Shortcut::Numbers { check, cost } => {
                match numbers_decided(self.program, check, cost, value, self.budget) {
                    Some(decided) => decided,
                    None => self.visit_part::<Quick>(id, value, &()),
                }
            }
            Shortcut::Sizes { .. } => self.decide_size(id, shortcut, value),
            Shortcut::Lengths { .. } | Shortcut::Format { .. } => {
                self.decide_string(id, shortcut, value)
            }
            Shortcut::Arrays { check, cost } => match value.proper_list_len() {
                Some(length) => self.decide_array(id, check, cost, value, length),
                None => self.visit_part::<Quick>(id, value, &()),
            },
            // Its items are walked from here: a guarded program counts the level first.
            Shortcut::Lists { check, cost } if !self.program.guarded => {
                match value.proper_list_len() {
                    Some(length) => self.decide_array(id, check, cost, value, length),
                    None => self.visit_part::<Quick>(id, value, &()),
                }
            }
            Shortcut::Ref { target, cost } if !self.program.guarded => {
                self.budget.spend(u64::from(cost))?;
                self.decide_in_place(target, value)?;
                Ok(true)
            }
            Shortcut::AllOf { check, cost } if !self.program.guarded => {
                let Some(Check::AllOf(branches)) = self.program.checks.get(check as usize) else {
                    return Err(broken());
                };
                self.budget.spend(u64::from(cost))?;
                for branch in branches.iter() {
                    self.decide_in_place(*branch, value)?;
                }
                Ok(true)
            }
            Shortcut::Not { negated, cost } if !self.program.guarded => {
                self.budget.spend(u64::from(cost))?;
                self.note_unread(value);
                let held = match self.decide_in_place(negated, value) {
                    Err(Halt::Failed) => false,
                    held => held?,
                };
                match held {
                    true => Err(Halt::Failed),
                    false => Ok(true),
                }
            }
            Shortcut::Items { .. }
            | Shortcut::Lists { .. }
            | Shortcut::Visit
            | Shortcut::Strings { .. }
            | Shortcut::Ref { .. }
            | Shortcut::AllOf { .. }
            | Shortcut::Not { .. } => self.visit_part::<Quick>(id, value, &()),
        }
    }

    /// `decide` of a node that checks nothing but a container's size (`Shortcut::Sizes`). Out
    /// of line, as `decide_string`: in `decide`, their locals would widen the frame that every
    /// level of a deep walk takes (`tests/stack.rs`).
    #[inline(never)]
    fn decide_size(&mut self, id: NodeId, shortcut: &Shortcut, value: V) -> Flow {
        let Some(decided) = size_decided(shortcut, value, self.budget) else {
            return self.visit_part::<Quick>(id, value, &());
        };
        // Nothing of the container is read: the rule for keys reads it in its walk.
        self.unread |= !V::KEYS_ARE_STRINGS;
        decided
    }

    /// `decide` of a leaf that checks nothing but a string's length or a format
    /// (`Shortcut::Lengths`, `Format`).
    #[inline(never)]
    fn decide_string(&mut self, id: NodeId, shortcut: &Shortcut, value: V) -> Flow {
        match string_decided(shortcut, value, self.budget) {
            Some(decided) => decided,
            None => self.visit_part::<Quick>(id, value, &()),
        }
    }

    /// `decide` of a leaf of any type whose only check is the `enum` or `const` `check`.
    #[inline(never)]
    fn decide_choices(&mut self, id: NodeId, check: u32, cost: u8, value: V) -> Flow {
        match choices_decided(self.program, check, cost, value, self.budget) {
            Some(Ok(true)) => {
                self.note_unread(value);
                Ok(true)
            }
            Some(decided) => decided,
            None => self.visit_part::<Quick>(id, value, &()),
        }
    }

    /// `decide` of a node whose only check is the array check `check` (a leaf, or in a program
    /// walked unguarded any such node), on a proper list of `length` items.
    #[inline(never)]
    fn decide_array(&mut self, id: NodeId, check: u32, cost: u8, list: V, length: usize) -> Flow {
        let program = self.program;
        let (Some(node), Some(Check::Array(array))) =
            (program.node(id), program.checks.get(check as usize))
        else {
            return Err(broken());
        };
        self.budget.spend(u64::from(cost))?;
        let found = Found::array(length);
        self.note_read(node, found);
        array.check::<Quick, V>(self, list, length, &())
    }

    /// `decide` of an array node whose items alone are read (`Shortcut::Items`): the list's
    /// cells are walked once, each item decided as it is met. An improper list is no array:
    /// a node of array type fails it, as its type would; a node of any type leaves it to its
    /// visit, which accepts it.
    #[inline(never)]
    fn decide_items(&mut self, id: NodeId, check: u32, cost: u8, value: V) -> Flow {
        let program = self.program;
        let (Some(node), Some(Check::Array(array)), Kind::List) = (
            program.node(id),
            program.checks.get(check as usize),
            value.kind(),
        ) else {
            return self.visit_part::<Quick>(id, value, &());
        };
        let Some((item_node, shortcut)) = &array.alone else {
            return self.visit_part::<Quick>(id, value, &());
        };
        // Any value is a node of any type's: an improper list is accepted there, not failed.
        if node.types != types::ARRAY && value.proper_list_len().is_none() {
            return self.visit_part::<Quick>(id, value, &());
        }
        self.budget.spend(u64::from(cost))?;
        // A call that cannot afford a unit an item gives up before reading any, as the array
        // check does; without a budget to keep, the list is read once, as its items are.
        if !self.budget.is_unlimited() {
            match length(value, self.budget)? {
                Some(count) => self.budget.require(count as u64)?,
                None => return Err(Halt::Failed),
            }
        }
        self.note_read(node, Found::of(types::ARRAY));
        for element in value.list_elements() {
            match element {
                Element::Item(item) => {
                    self.decide_part(*item_node, shortcut, item)?;
                }
                Element::ImproperTail(_) => return Err(Halt::Failed),
            }
        }
        Ok(true)
    }

    /// `decide_part` of each of a proper list's `items`. Out of line: inlined, the shortcut
    /// match's frame would be part of every level of a deep list's walk.
    #[inline(never)]
    pub fn decide_each(
        &mut self,
        id: NodeId,
        shortcut: &Shortcut,
        items: impl Iterator<Item = V>,
    ) -> Flow {
        for item in items {
            self.decide_part(id, shortcut, item)?;
        }
        Ok(true)
    }

    /// `decide` of a part of the value (a list's item, a property's value): a part whose node
    /// checks its types alone, the usual one, is asked its type before anything else.
    #[inline(always)]
    pub fn decide_part(&mut self, id: NodeId, shortcut: &Shortcut, part: V) -> Flow {
        if let Shortcut::Types(wanted) = *shortcut {
            return self.types_decided(wanted, part);
        }
        self.decide(id, shortcut, part)
    }

    /// A node that checks its types alone, decided: its unit, then its types.
    #[inline(always)]
    fn types_decided(&mut self, wanted: u8, value: V) -> Flow {
        self.budget.spend(1)?;
        self.types_alone(wanted, value)
    }

    /// The quick answer of a node that checks its types alone, accepting `wanted`.
    #[inline(always)]
    pub fn types_alone(&mut self, wanted: u8, value: V) -> Flow {
        match types_admitted(wanted, value, self.budget)? {
            None => self.note_unread(value),
            Some(found) => self.note_found(found),
        }
        Ok(true)
    }

    /// The quick answer of node `id`, whose only check is the object check `check`, on a map
    /// of `size` entries: in a program walked unguarded, the check runs in place.
    #[inline(always)]
    pub fn decide_object(&mut self, id: NodeId, check: u32, cost: u8, map: V, size: usize) -> Flow {
        let program = self.program;
        let (false, Some(node), Some(check)) = (
            program.guarded,
            program.node(id),
            program.checks.get(check as usize),
        ) else {
            return self.visit_part::<Quick>(id, map, &());
        };
        self.budget.spend(u64::from(cost))?;
        self.note_read(node, Found::object(size));
        match check {
            Check::ExactKeyObject(object) => object.check::<Quick, V>(self, map, size, &()),
            Check::Object(object) => object.check::<Quick, V>(self, map, size, &()),
            _ => self.visit_part::<Quick>(id, map, &()),
        }
    }

    /// `types_alone` of a value whose type is `found` already.
    #[inline(always)]
    pub fn types_hold_found(&mut self, wanted: u8, found: Found) -> bool {
        if !types::admit(wanted, found.bits) {
            return false;
        }
        self.note_found(found);
        true
    }

    /// Notes that a value of type `found`, accepted without being read, is a container (or of
    /// no JSON type) the rule for keys must still read.
    #[inline(always)]
    fn note_found(&mut self, found: Found) {
        if !V::KEYS_ARE_STRINGS
            && (found.bits & (types::OBJECT | types::ARRAY) != 0 || found.bits == types::NONE)
        {
            self.unread = true;
        }
    }

    /// The answer of a walk that stopped without one (`halt`): a reference loop is the
    /// schema's failure; the rest, the budget spent.
    pub fn halted(&self, halt: Halt) -> Failure<V> {
        match halt {
            Halt::Loop => Failure::schema(Error::ReferenceLoop {
                schema_path: self.program.location(self.loop_at).into(),
            }),
            // Refused as when the two walks disagree: the call is not passed, and the
            // error it gets already means a fault of the engine, not of the arguments.
            Halt::Broken => Failure::Arguments(vec![Error::Unreported {
                keyword: "",
                path: self.root.to_vec(),
                schema_path: Box::default(),
            }]),
            Halt::Failed | Halt::Exhausted | Halt::NoStringForm => Failure::Exhausted,
        }
    }

    /// Node `id`, which the program holds: its compiler named it.
    #[inline(always)]
    pub fn node(&self, id: NodeId) -> Result<&'p Node, Halt> {
        match self.program.node(id) {
            Some(node) => Ok(node),
            None => Err(broken()),
        }
    }

    /// `node`'s checks, which the program holds.
    #[inline(always)]
    pub fn checks_of(&self, node: &Node) -> Result<&'p [Check], Halt> {
        let start = node.first as usize;
        let end = start.saturating_add(node.count as usize);
        match self.program.checks.get(start..end) {
            Some(checks) => Ok(checks),
            None => Err(broken()),
        }
    }

    /// The first of node `id`'s checks (its types first) that refuses `value` on its own, as
    /// the keyword it is reported as: what a quick walk failed on.
    pub fn refusing_check(&mut self, id: NodeId, value: V) -> Result<Option<Named>, Halt> {
        let program = self.program;
        let node = self.node(id)?;
        let found = self.classify(value, node.types)?;
        if !types::admit(node.types, found.bits) {
            return Ok(Some(if node.has(Node::FALSE) {
                Named::new(FALSE_SCHEMA)
            } else {
                Named::new(crate::names::keywords::name::TYPE)
            }));
        }
        for (index, check) in self.checks_of(node)?.iter().enumerate() {
            match self.check::<Quick>(check, (node, index), value, found, &()) {
                Ok(_) => {}
                Err(Halt::Failed) => return Ok(Some(program.name_of(node, index))),
                Err(halt) => return Err(halt),
            }
        }
        Ok(None)
    }

    /// Notes a value no check reads into: a container, or a value of no JSON type, leaves the
    /// rule for argument keys to be checked.
    #[inline(always)]
    pub fn note_unread(&mut self, value: V) {
        if !V::KEYS_ARE_STRINGS && !self.unread && !value.is_binary() {
            self.unread = !matches!(
                value.kind(),
                Kind::Integer
                    | Kind::Float
                    | Kind::Atom(AtomKind::True | AtomKind::False | AtomKind::Nil)
            );
        }
    }

    /// Whether node `id` can recurse (a quick walk leaves such nodes for last where it can).
    #[inline(always)]
    pub fn goes_deeper(&self, id: NodeId) -> bool {
        self.program
            .node(id)
            .is_some_and(|node| !node.has(Node::LEAF))
    }

    /// Node `id` applied to a part of the value: the loop guard starts again, since the walk
    /// made progress.
    #[inline]
    pub fn visit_part<S: Sink>(&mut self, id: NodeId, value: V, at: &S::At<'_>) -> Flow {
        if !self.program.guarded {
            return self.visit::<S>(id, value, at);
        }
        let in_place = std::mem::replace(&mut self.in_place, 0);
        let result = self.visit::<S>(id, value, at);
        self.in_place = in_place;
        result
    }

    /// A reference's target, reached by `keyword`: the reporting walk's schema path starts
    /// again at its location.
    #[inline]
    pub fn visit_target<S: Sink>(
        &mut self,
        id: NodeId,
        keyword: &'static str,
        value: V,
        at: &S::At<'_>,
    ) -> Flow {
        if !S::REPORTS {
            return self.visit_in_place::<S>(id, value, at);
        }
        let program = self.program;
        let here = S::then(
            at,
            Step::Target {
                keyword,
                location: program.location(id),
            },
        );
        self.visit::<S>(id, value, &here)
    }

    /// `visit` in a guarded program.
    #[inline(never)]
    fn visit_guarded<S: Sink>(
        &mut self,
        id: NodeId,
        node: &'p Node,
        value: V,
        at: &S::At<'_>,
    ) -> Flow {
        self.enter(id, |walk| walk.run::<S>(id, node, value, at))
    }

    /// Runs `step` as node `id`'s evaluation: in a guarded program, counted by the loop guard,
    /// in the node's resource (the dynamic scope), with the stack checked.
    pub fn enter<R>(
        &mut self,
        id: NodeId,
        step: impl FnOnce(&mut Self) -> Result<R, Halt>,
    ) -> Result<R, Halt> {
        if !self.program.guarded {
            return step(self);
        }
        self.in_place += 1;
        if self.in_place > MAX_IN_PLACE {
            self.loop_at = id;
            return Err(Halt::Loop);
        }
        let program = self.program;
        let resource = program.info(id).map_or(0, |info| info.resource);
        let pushed = program.has_dynamic_refs && self.scope().last() != Some(&resource);
        if pushed {
            self.kept().scope.push(resource);
        }
        let result = self.nested(step);
        if pushed {
            self.kept().scope.pop();
        }
        self.in_place -= 1;
        result
    }

    /// `visit` of a value whose type the walk knows already (`found`: the arguments' at the
    /// tool boundary, an `anyOf`/`oneOf` value's): the host is not asked again what it is.
    #[inline]
    pub fn visit_found<S: Sink>(
        &mut self,
        id: NodeId,
        value: V,
        found: Found,
        at: &S::At<'_>,
    ) -> Flow {
        let program = self.program;
        let node = self.node(id)?;
        if program.guarded && !node.has(Node::LEAF) {
            return self.enter(id, |walk| {
                walk.budget.spend(u64::from(node.cost))?;
                walk.run_found::<S>(id, node, value, found, at)
            });
        }
        self.budget.spend(u64::from(node.cost))?;
        self.run_found::<S>(id, node, value, found, at)
    }

    /// `valid` of a value whose type is `found` already. A float's is not enough: whether it
    /// is integral was asked only where a node's type turned on it.
    #[inline(always)]
    pub fn valid_found(&mut self, id: NodeId, value: V, found: Found) -> Flow {
        if found.bits == types::NUMBER {
            return self.valid(id, value);
        }
        // A node an unguarded program decides in place is decided so, by the type known where
        // its types alone decide it; the rest are entered with the type known.
        let shortcut = match self.program.guarded {
            false => self.program.shortcuts.get(id as usize).copied(),
            true => None,
        };
        let answer = match shortcut {
            Some(Shortcut::Types(wanted)) => {
                self.budget.spend(1)?;
                Ok(self.types_hold_found(wanted, found))
            }
            None | Some(Shortcut::Visit) => self.visit_found::<Quick>(id, value, found, &()),
            Some(_) => self.decide_in_place(id, value),
        };
        match answer {
            Err(Halt::Failed) => Ok(false),
            other => other,
        }
    }

    /// The node's types and checks, in the report order.
    #[inline(always)]
    fn run<S: Sink>(&mut self, id: NodeId, node: &'p Node, value: V, at: &S::At<'_>) -> Flow {
        self.budget.spend(u64::from(node.cost))?;
        let found = self.classify(value, node.types)?;
        self.run_found::<S>(id, node, value, found, at)
    }

    /// `run` once the value's type is `found`.
    #[inline(always)]
    fn run_found<S: Sink>(
        &mut self,
        id: NodeId,
        node: &'p Node,
        value: V,
        found: Found,
        at: &S::At<'_>,
    ) -> Flow {
        if S::REPORTS {
            return self.run_reported::<S>(id, node, value, found, at);
        }
        if !types::admit(node.types, found.bits) {
            return Err(Halt::Failed);
        }
        self.note_read(node, found);
        for (index, check) in self.checks_of(node)?.iter().enumerate() {
            self.check::<S>(check, (node, index), value, found, at)?;
        }
        Ok(true)
    }

    /// Notes whether `node` reads the value it was given (of type `found`) whole: where it
    /// does not, the rule for argument keys must still be checked (see `unread`).
    #[inline(always)]
    fn note_read(&mut self, node: &Node, found: Found) {
        if !V::KEYS_ARE_STRINGS {
            let read = match found.bits {
                types::OBJECT => node.has(Node::READS_OBJECTS),
                types::ARRAY => node.has(Node::READS_ARRAYS),
                types::NONE => false,
                _ => true,
            };
            self.unread |= !read;
        }
    }

    /// `run` in a reporting walk: every check, each error recorded.
    #[inline(never)]
    fn run_reported<S: Sink>(
        &mut self,
        id: NodeId,
        node: &'p Node,
        value: V,
        found: Found,
        at: &S::At<'_>,
    ) -> Flow {
        let checks = self.checks_of(node)?;
        let mut valid = true;
        let refs = usize::from(node.refs);
        let gated = node.has(Node::GATED);
        for (index, check) in checks.iter().enumerate() {
            if index == refs {
                valid &= self.types_hold::<S>(id, node, found, at)?;
            }
            if gated && !valid {
                return Ok(false);
            }
            valid &= self.check::<S>(check, (node, index), value, found, at)?;
        }
        if checks.len() <= refs {
            valid &= self.types_hold::<S>(id, node, found, at)?;
        }
        Ok(valid)
    }

    /// The node's `type` (or its being `false`), reported.
    fn types_hold<S: Sink>(
        &mut self,
        id: NodeId,
        node: &Node,
        found: Found,
        at: &S::At<'_>,
    ) -> Flow {
        if types::admit(node.types, found.bits) {
            return Ok(true);
        }
        if node.has(Node::FALSE) {
            return self.fail_at::<S>(at, FALSE_SCHEMA, || Assertion::False, None);
        }
        let program = self.program;
        if let Some(label) = program.info(id).and_then(|info| info.label) {
            return self.wrong_type::<S>(at, label);
        }
        let written = || {
            let written = program.info(id).and_then(|info| info.types.clone());
            (
                Assertion::Type(
                    written.unwrap_or_else(|| Arc::new(crate::values::literal::Literal::Null)),
                ),
                Actual::Type(json_type_name(found.bits)),
            )
                .into()
        };
        self.fail_with::<S>(
            at,
            Named::new(crate::names::keywords::name::TYPE),
            written,
            None,
        )
    }

    /// One check of a node; the families apply to values of their type only.
    #[inline(always)]
    fn check<S: Sink>(
        &mut self,
        check: &'p Check,
        (node, index): (&'p Node, usize),
        value: V,
        found: Found,
        at: &S::At<'_>,
    ) -> Flow {
        let named = || self.program.name_of(node, index);
        match check {
            Check::Number(number) if found.bits & types::NUMBER != 0 => {
                number.check::<S, V>(self, value, found, at)
            }
            Check::String(string) if found.bits & types::STRING != 0 => {
                string.check::<S, V>(self, value, at)
            }
            Check::Array(array) if found.bits & types::ARRAY != 0 => {
                array.check::<S, V>(self, value, found.size(), at)
            }
            Check::Object(object) if found.bits & types::OBJECT != 0 => {
                object.check::<S, V>(self, value, found.size(), at)
            }
            Check::ExactKeyObject(object) if found.bits & types::OBJECT != 0 => {
                object.check::<S, V>(self, value, found.size(), at)
            }
            Check::Number(_)
            | Check::String(_)
            | Check::Array(_)
            | Check::Object(_)
            | Check::ExactKeyObject(_) => Ok(true),
            Check::AnyList => self.any_list::<S>(value, at),
            Check::Enum(choices) => self.enum_check::<S>(choices, (node, index), value, found, at),
            Check::Const(expected) => {
                if crate::values::literal::equals(value, expected, self.budget, 0)? {
                    return Ok(true);
                }
                let named = named();
                self.fail::<S>(at, named, || Assertion::Const(listed_value(expected)), None)
            }
            _ => self.apply_in_place::<S>((node, index), check, named(), (value, found), at),
        }
    }

    /// `enum`, out of `check` as `any_list` is: its search inlines a string scan.
    #[inline(never)]
    fn enum_check<S: Sink>(
        &mut self,
        choices: &Enum,
        (node, index): (&'p Node, usize),
        value: V,
        found: Found,
        at: &S::At<'_>,
    ) -> Flow {
        let kind = match found.bits {
            types::STRING => Kind::Binary,
            _ => value.kind(),
        };
        if choices.contains(value, kind, self.budget)? {
            return Ok(true);
        }
        let named = self.program.name_of(node, index);
        self.fail::<S>(
            at,
            named,
            || Assertion::Enum(choices.listed().cloned().map(Box::new)),
            None,
        )
    }

    /// The subset's array schema without `items`: any list, proper or not. Kept out of
    /// `check`, whose frame every level of a deep walk holds.
    #[inline(never)]
    fn any_list<S: Sink>(&mut self, value: V, at: &S::At<'_>) -> Flow {
        if value.kind() == Kind::List {
            return Ok(true);
        }
        let label = TypeLabel {
            name: type_name::ARRAY,
            atom: false,
        };
        self.fail_plain::<S>(at, 0, |path| Error::WrongType { path, type_: label })
    }

    /// What `value` is (see the free `classify`), read at this walk's price.
    #[inline(always)]
    pub fn classify(&mut self, value: V, wanted: u8) -> Result<Found, Halt> {
        classify(value, wanted, self.budget)
    }

    /// Notes that the host must answer whether `text` has custom format `format`, and goes
    /// on as though it had: the call is decided only once every question is answered, so one
    /// walk gathers as many as it meets (up to one past `MAX_FORMAT_ASKS`, which is too many).
    #[cold]
    pub fn ask(&mut self, format: &str, text: &str) -> Result<bool, Halt> {
        let count = self.kept.as_ref().map_or(0, |kept| kept.asked.len());
        // Each question met is compared with those noted.
        let compared = u64::try_from(count).unwrap_or(u64::MAX).saturating_add(1);
        self.budget
            .spend((1 + Budget::byte_units(text.len())).saturating_mul(compared))?;
        let asked = &mut self.kept().asked;
        let known = asked
            .iter()
            .any(|(name, value)| **name == *format && **value == *text.as_bytes());
        if !known && asked.len() <= MAX_FORMAT_ASKS {
            asked.push((format.into(), text.as_bytes().into()));
        }
        Ok(true)
    }

    /// The innermost-to-outermost walk of the dynamic scope, outermost first.
    pub fn scope(&self) -> &[ResourceId] {
        self.kept.as_ref().map_or(&[], |kept| &kept.scope)
    }

    /// A failure of keyword `keyword` of the node the walk is at: the quick walk stops; the
    /// reporting walk records its error (the assertion made only then) and says whether to go
    /// on (`Ok(false)`) or stop (`Err(Failed)`).
    #[inline(always)]
    pub fn fail<S: Sink>(
        &mut self,
        at: &S::At<'_>,
        keyword: Named,
        assertion: impl FnOnce() -> Assertion,
        property: Option<V>,
    ) -> Flow {
        self.fail_with::<S>(at, keyword, || assertion().into(), property)
    }

    /// `fail`, where the failure names what came as well (`(Assertion, Actual)`).
    #[inline(always)]
    pub fn fail_with<S: Sink>(
        &mut self,
        at: &S::At<'_>,
        keyword: Named,
        assertion: impl FnOnce() -> Failed,
        property: Option<V>,
    ) -> Flow {
        match S::path(at) {
            None => Err(Halt::Failed),
            Some(path) => self.record(
                path,
                Some(keyword.token),
                keyword.name,
                assertion(),
                (property, Vec::new()),
            ),
        }
    }

    /// `fail` of an `anyOf`/`oneOf` keyword, with the first errors of its failed branches.
    pub fn fail_branches(
        &mut self,
        path: &WalkPath<'_>,
        keyword: Named,
        failed: Failed,
        branches: Vec<BranchError<V>>,
    ) -> Flow {
        self.record(
            path,
            Some(keyword.token),
            keyword.name,
            failed,
            (None, branches),
        )
    }

    /// The first error of node `branch` on `value` at `path`, found by a report of its own
    /// (which reports no branches in turn) on at most `BRANCH_REPORT_UNITS`: `None` when it
    /// finds none, or needs more (then those units are spent, or the budget is exhausted
    /// when it lacks them, as it would be on any scheduler).
    pub fn first_error(
        &mut self,
        branch: NodeId,
        value: V,
        path: &WalkPath<'_>,
    ) -> Result<Option<Error<V>>, Halt> {
        let errors = self.take_errors();
        let mode = std::mem::replace(&mut self.mode, Mode::First);
        let reports_branches = std::mem::replace(&mut self.reports_branches, false);
        let outer = std::mem::replace(self.budget, Budget::new(BRANCH_REPORT_UNITS));
        let result = self.visit::<Report>(branch, value, path);
        let lent = std::mem::replace(self.budget, outer);
        let mut found = std::mem::replace(&mut self.kept().errors, errors);
        self.mode = mode;
        self.reports_branches = reports_branches;
        self.budget
            .spend(BRANCH_REPORT_UNITS.saturating_sub(lent.remaining()))?;
        match result {
            Ok(_) | Err(Halt::Failed) => Ok(found.pop()),
            Err(Halt::Exhausted) => Ok(None),
            Err(halt) => Err(halt),
        }
    }

    /// `fail` at the place `at` names itself: a keyword's subschema that is `false` (an item
    /// `items` does not allow), or the schema `false`.
    #[inline(always)]
    pub fn fail_at<S: Sink>(
        &mut self,
        at: &S::At<'_>,
        keyword: &'static str,
        assertion: impl FnOnce() -> Assertion,
        property: Option<V>,
    ) -> Flow {
        match S::path(at) {
            None => Err(Halt::Failed),
            Some(path) => self.record(
                path,
                None,
                keyword,
                assertion().into(),
                (property, Vec::new()),
            ),
        }
    }

    /// The wrong-type error of the plain voice.
    #[cold]
    #[inline(never)]
    fn wrong_type<S: Sink>(&mut self, at: &S::At<'_>, label: TypeLabel) -> Flow {
        self.fail_plain::<S>(at, 0, |path| Error::WrongType { path, type_: label })
    }

    /// How many more errors this walk can still report: 1 when only the first one counts.
    pub fn error_room<S: Sink>(&self) -> usize {
        match self.mode {
            _ if !S::REPORTS => 1,
            Mode::First => 1,
            Mode::All { max_errors } => max_errors.saturating_sub(self.errors().len()).max(1),
        }
    }

    /// A failure in the plain voice: the quick walk stops; the reporting walk records the
    /// error `make` builds at the argument path (priced first, with the `copied` bytes it
    /// copies besides) and says whether to go on.
    #[inline(always)]
    pub fn fail_plain<S: Sink>(
        &mut self,
        at: &S::At<'_>,
        copied: usize,
        make: impl FnOnce(Path) -> Error<V>,
    ) -> Flow {
        match S::path(at) {
            None => Err(Halt::Failed),
            Some(path) => self.record_plain(path, copied, make),
        }
    }

    #[cold]
    #[inline(never)]
    fn record_plain(
        &mut self,
        path: &WalkPath<'_>,
        copied: usize,
        make: impl FnOnce(Path) -> Error<V>,
    ) -> Flow {
        // Priced before it is made: a path of long names can hold megabytes.
        let bytes = path.argument_path_len(self.root).saturating_add(copied);
        self.budget.spend_error(bytes)?;
        let error = make(path.argument_path(self.root));
        let count = self.keep_error(error);
        self.mode.after_error(count, &mut self.error_bytes, bytes)
    }

    #[cold]
    #[inline(never)]
    fn record(
        &mut self,
        path: &WalkPath<'_>,
        token: Option<&str>,
        keyword: &'static str,
        Failed { assertion, actual }: Failed,
        (property, branches): (Option<V>, Vec<BranchError<V>>),
    ) -> Flow {
        if self.program.voice == Voice::Plain {
            // The assertions of the plain voice's programs: `minimum`, `oneOf` and `enum`.
            match assertion {
                Assertion::Minimum(minimum) => {
                    let copied = minimum.byte_size();
                    return self
                        .record_plain(path, copied, |path| Error::BelowMinimum { path, minimum });
                }
                Assertion::OneOf | Assertion::OneOfSeveral => {
                    return self.record_plain(path, 0, |path| Error::OneOfMismatch { path });
                }
                Assertion::Enum(_) => {
                    return self.record_plain(path, 0, |path| Error::NotInEnum { path });
                }
                _ => {}
            }
        }
        // One check stands for the content keywords: the error names the one that failed.
        let (keyword, token) = match assertion.keyword() {
            Some(failed) => (failed, Some(failed)),
            None => (keyword, token),
        };
        // Priced before anything is copied (the branches' errors were, when they were made).
        let copied = assertion
            .copied_bytes()
            .saturating_add(actual.as_ref().map_or(0, Actual::copied_bytes));
        let mut bytes = 0;
        let budget = &mut *self.budget;
        let mut failure = Box::new(KeywordFailure {
            assertion,
            keyword,
            places: Places::EMPTY,
            property,
            actual,
            branches,
        });
        path.render_into(self.root, token, &mut failure.places, |rendered| {
            bytes = rendered.saturating_add(copied);
            budget.spend_error(bytes)
        })?;
        let count = self.keep_error(Error::Assertion(failure));
        self.mode.after_error(count, &mut self.error_bytes, bytes)
    }

    /// Keeps `error`: how many the walk holds now. The first takes room for a few at once,
    /// as growing would, without growing's longer way.
    #[inline(always)]
    fn keep_error(&mut self, error: Error<V>) -> usize {
        let errors = &mut self.kept().errors;
        if errors.capacity() == 0 {
            *errors = Vec::with_capacity(4);
        }
        errors.push(error);
        errors.len()
    }
}

/// What `value` is, asked first as the types a node accepts make likely: one question to
/// the host each, for a string, a map (with its size) or a small integer. A map is an
/// object here even where it is a struct: a struct has an atom key, which leaves the rule
/// for argument terms to its own walk (`Walk::unread`), and that walk refuses it.
#[inline(always)]
fn classify<'a, V: Value<'a>>(value: V, wanted: u8, budget: &mut Budget) -> Result<Found, Halt> {
    if wanted != types::ANY {
        if wanted & types::STRING != 0 && value.is_binary() {
            return Ok(Found::of(types::STRING));
        }
        if wanted & types::OBJECT != 0 {
            if let Some(size) = value.map_size() {
                return Ok(Found::object(size));
            }
        }
        if wanted & (types::INTEGER | types::WHOLE) != 0 {
            if let Some(integer) = value.small_integer() {
                return Ok(Found::small_integer(integer));
            }
        }
    }
    type_of(value, wanted, budget)
}

/// The JSON type of `value` as a bit of `types` (`NUMBER` and `INTEGER` both for an
/// integer): whether a float is integral is asked only where `wanted` turns on it. A map is
/// an object (see `classify`); a list is an array when proper, which may take a walk of its
/// cells, so its length is kept as the size.
#[inline(always)]
fn type_of<'a, V: Value<'a>>(value: V, wanted: u8, budget: &mut Budget) -> Result<Found, Halt> {
    Ok(Found::of(match value.kind() {
        Kind::Binary => types::STRING,
        Kind::Integer => types::OF_INTEGER,
        Kind::Float
            if wanted & (types::INTEGER | types::NUMBER) == types::INTEGER
                && value
                    .number()
                    .is_some_and(|number| crate::values::literal::is_integral(&number)) =>
        {
            types::INTEGER | types::NUMBER
        }
        Kind::Float => types::NUMBER,
        Kind::Map => return Ok(Found::object(value.map_size().unwrap_or(0))),
        Kind::Atom(AtomKind::True | AtomKind::False) => types::BOOLEAN,
        Kind::Atom(AtomKind::Nil) => types::NULL,
        Kind::List => {
            return Ok(match length(value, budget)? {
                Some(length) => Found::array(length),
                None => Found::of(types::NONE),
            })
        }
        Kind::Atom(AtomKind::Other) | Kind::Other => types::NONE,
    }))
}

/// Whether an integer or a size is within a node's bounds (`Shortcut::Integers`, `Sizes`), at
/// the node's `cost`.
#[inline(always)]
fn in_bounds<T: PartialOrd>(value: T, min: T, max: T, cost: u8, budget: &mut Budget) -> Flow {
    budget.spend(u64::from(cost))?;
    match (min..=max).contains(&value) {
        true => Ok(true),
        false => Err(Halt::Failed),
    }
}

/// The quick answer of a node that checks nothing but a container's size (`Shortcut::Sizes`);
/// `None` for a value not of its family, which enters the node.
#[inline(always)]
fn size_decided<'a, V: Value<'a>>(
    shortcut: &Shortcut,
    value: V,
    budget: &mut Budget,
) -> Option<Flow> {
    let Shortcut::Sizes {
        family,
        min,
        max,
        cost,
    } = *shortcut
    else {
        return None;
    };
    let size = match family {
        types::OBJECT => value.map_size(),
        _ => value.proper_list_len(),
    }?;
    Some(in_bounds(size as u64, min, max, cost, budget))
}

/// The quick answer of a leaf that checks nothing but a string's length or a format
/// (`Shortcut::Lengths`, `Format`); `None` for a value that is no string, which enters it.
#[inline(always)]
fn string_decided<'a, V: Value<'a>>(
    shortcut: &Shortcut,
    value: V,
    budget: &mut Budget,
) -> Option<Flow> {
    let decided = match *shortcut {
        Shortcut::Lengths { min, max, cost } if value.is_binary() => budget
            .spend(u64::from(cost))
            .map_err(Halt::from)
            .and_then(|()| string::lengths_hold(budget, value, min, max)),
        Shortcut::Format { format, cost } if value.is_binary() => budget
            .spend(u64::from(cost))
            .map_err(Halt::from)
            .and_then(|()| string::dialect_format_holds(budget, value, format)),
        _ => return None,
    };
    Some(decided)
}

/// The quick answer of a leaf of any type whose only check is the `enum` or `const` `check`
/// (`Shortcut::Choices`); `None` for a list, whose type takes a walk of its cells, which the
/// node's visit prices.
#[inline(always)]
fn choices_decided<'a, V: Value<'a>>(
    program: &Program,
    check: u32,
    cost: u8,
    value: V,
    budget: &mut Budget,
) -> Option<Flow> {
    let kind = value.kind();
    if kind == Kind::List {
        return None;
    }
    let held = match program.checks.get(check as usize) {
        Some(Check::Enum(choices)) => budget
            .spend(u64::from(cost))
            .and_then(|()| choices.contains(value, kind, budget)),
        Some(Check::Const(expected)) => budget
            .spend(u64::from(cost))
            .and_then(|()| crate::values::literal::equals(value, expected, budget, 0)),
        _ => return Some(Err(broken())),
    };
    Some(match held {
        Ok(true) => Ok(true),
        Ok(false) => Err(Halt::Failed),
        Err(exhausted) => Err(exhausted.into()),
    })
}

/// The quick answer of `program`'s root where its shortcut decides it without a walk, as
/// `Walk::decide` does, at the same price: a leaf that checks its types alone, a container's
/// size, a string's length or a dialect format, a number's bounds or divisor, or an `enum` or
/// `const`. A call's fixed cost is most of such a call's. `None` where `decide` would enter
/// the node or needs a walk's state: another shortcut, a value the shortcut does not decide,
/// or a host whose keys are not all strings (the rule for keys must then learn what was left
/// unread); and at the tool boundary (`object_root`), whose maps leaf roots seldom decide, so
/// that its calls pay no test.
#[inline(always)]
pub fn decided_alone<'a, V: Value<'a>>(
    program: &Program,
    object_root: bool,
    value: V,
    budget: &mut Budget,
) -> Option<Flow> {
    if object_root || !V::KEYS_ARE_STRINGS {
        return None;
    }
    let shortcut = &program.root_shortcut;
    let alone = matches!(
        shortcut,
        Shortcut::Types(_)
            | Shortcut::Integers { .. }
            | Shortcut::Sizes { .. }
            | Shortcut::Lengths { .. }
            | Shortcut::Format { .. }
            | Shortcut::Choices { .. }
            | Shortcut::Numbers { .. }
    );
    if !alone {
        return None;
    }
    match *shortcut {
        Shortcut::Choices { check, cost } => choices_decided(program, check, cost, value, budget),
        Shortcut::Types(wanted) => Some(types_alone(wanted, value, budget)),
        Shortcut::Integers { .. } => integers_decided(program, shortcut, value, budget),
        Shortcut::Numbers { check, cost } => numbers_decided(program, check, cost, value, budget),
        Shortcut::Sizes { .. } => size_decided(shortcut, value, budget),
        Shortcut::Lengths { .. } | Shortcut::Format { .. } => {
            string_decided(shortcut, value, budget)
        }
        _ => None,
    }
}

/// `Walk::types_decided` of a host whose keys are all strings, which leaves nothing unread.
#[inline(always)]
fn types_alone<'a, V: Value<'a>>(wanted: u8, value: V, budget: &mut Budget) -> Flow {
    budget.spend(1)?;
    types_admitted(wanted, value, budget).map(|_| true)
}

/// What a node that checks its types alone (accepting `wanted`) finds of `value`: nothing for
/// a node of any type, which is told without classifying the value; the value's type where
/// the node accepts it; a failure where it does not (a node of no type fails every value).
#[inline(always)]
fn types_admitted<'a, V: Value<'a>>(
    wanted: u8,
    value: V,
    budget: &mut Budget,
) -> Result<Option<Found>, Halt> {
    match wanted {
        types::ANY => Ok(None),
        types::NONE => Err(Halt::Failed),
        wanted => match classify(value, wanted, budget)? {
            found if types::admit(wanted, found.bits) => Ok(Some(found)),
            _ => Err(Halt::Failed),
        },
    }
}

/// The quick answer of a leaf of numbers, or of any type, whose only check is the number check
/// `check` (`Shortcut::Numbers`); `None` for a value that is no number, which enters the node.
#[inline(always)]
fn numbers_decided<'a, V: Value<'a>>(
    program: &Program,
    check: u32,
    cost: u8,
    value: V,
    budget: &mut Budget,
) -> Option<Flow> {
    let found = match value.small_integer() {
        Some(integer) => Found::small_integer(integer),
        None => number_found(value)?,
    };
    Some(number_holds(program, check, cost, value, found, budget))
}

/// The quick answer of a node that checks nothing but bounds that fit a word
/// (`Shortcut::Integers`): a small integer by its bounds, another number where the node is a
/// leaf of numbers or of any type, by its number check; `None` for any other value, which
/// enters the node.
#[inline(always)]
fn integers_decided<'a, V: Value<'a>>(
    program: &Program,
    shortcut: &Shortcut,
    value: V,
    budget: &mut Budget,
) -> Option<Flow> {
    let Shortcut::Integers {
        min,
        max,
        cost,
        check,
        numbers,
    } = *shortcut
    else {
        return None;
    };
    match value.small_integer() {
        Some(integer) => Some(in_bounds(integer, min, max, cost, budget)),
        None if numbers => beyond_word(program, check, cost, value, budget),
        None => None,
    }
}

/// `integers_decided` of a number that is no small integer. Out of line: in `Walk::decide`,
/// its locals would widen the frame that every level of a deep walk takes (`tests/stack.rs`).
#[inline(never)]
fn beyond_word<'a, V: Value<'a>>(
    program: &Program,
    check: u32,
    cost: u8,
    value: V,
    budget: &mut Budget,
) -> Option<Flow> {
    let found = number_found(value)?;
    Some(number_holds(program, check, cost, value, found, budget))
}

/// What a number that is no small integer is found to be; `None` for any other value.
#[inline(always)]
fn number_found<'a, V: Value<'a>>(value: V) -> Option<Found> {
    match value.kind() {
        Kind::Integer => Some(Found::of(types::OF_INTEGER)),
        Kind::Float => Some(Found::of(types::NUMBER)),
        _ => None,
    }
}

/// The number check `check` on a number `found` describes, at its node's `cost`.
#[inline(always)]
fn number_holds<'a, V: Value<'a>>(
    program: &Program,
    check: u32,
    cost: u8,
    value: V,
    found: Found,
    budget: &mut Budget,
) -> Flow {
    let Some(Check::Number(number)) = program.checks.get(check as usize) else {
        return Err(broken());
    };
    budget.spend(u64::from(cost))?;
    number.holds(value, found, budget)
}

/// The name of the JSON type a value's type bits (`Found::bits`) say it has: `integer` for an
/// integral number.
pub fn json_type_name(bits: u8) -> &'static str {
    match bits {
        _ if bits & types::INTEGER != 0 => type_name::INTEGER,
        _ if bits & types::NUMBER != 0 => type_name::NUMBER,
        types::STRING => type_name::STRING,
        types::OBJECT => type_name::OBJECT,
        types::ARRAY => type_name::ARRAY,
        types::BOOLEAN => type_name::BOOLEAN,
        types::NULL => type_name::NULL,
        _ => "none",
    }
}

impl<V> Levels for Walk<'_, '_, V> {
    fn levels(&mut self) -> (&mut usize, &mut Budget) {
        (&mut self.depth, self.budget)
    }
}
