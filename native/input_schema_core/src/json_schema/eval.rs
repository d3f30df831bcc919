//! The JSON modes' walks on the engine's evaluation context (`crate::eval`): the quick walk
//! (`valid`, no errors, stops at the first failure) and the reporting walk (`report`, the
//! errors in the dialect's keyword order), both over the host's values read in place. The
//! dynamic scope (`$dynamicRef`) and the guard against references that loop without reading
//! further into the value live here too.

use super::keys;
use super::keywords::{
    array, combinators, content, equality, numeric, object, reference, string, types, unevaluated,
    Assertion, Check, Keyword,
};
use super::literal::{equals, sibling_pointer, with_key_name};
use super::location::SchemaTrail;
use super::registry::ResourceId;
use super::Options;
use crate::arena::{Node, NodeId, NodeKind};
use crate::budget::{Budget, Exhausted};
use crate::engine::Compiled;
use crate::error::{Error, KeywordFailure};
use crate::eval::{Eval, Flow, Halt};
use crate::path::{Segment, Trail, ANY_ROOT, ARGUMENTS, ROOT};
use crate::validate::{Failure, Mode};
use crate::value::{AtomKind, Element, Kind, Value};

/// Schemas applied to one value in a row, through references and in-place applicators, before
/// the walk reads further into the value: past this the references loop (`{"$ref": "#"}`).
pub(super) const MAX_IN_PLACE: usize = 10_000;

/// The entry gate: a `nil` schema, then (at the tool boundary) a map schema and map arguments.
pub fn gate<'a, V: Value<'a>>(schema: V, value: V, options: Options) -> Result<(), Failure<V>> {
    match schema.kind() {
        Kind::Atom(AtomKind::Nil) => Err(Failure::schema(Error::SchemaRequired)),
        _ if options.any_root => Ok(()),
        Kind::Map if value.kind() == Kind::Map => Ok(()),
        _ => Err(Failure::schema(Error::NotMaps)),
    }
}

pub fn validate<'a, V: Value<'a>, A>(
    schema: &Compiled<A>,
    value: V,
    mode: Mode,
    budget: &mut Budget,
) -> Result<(), Failure<V>> {
    if let Some(error) = argument_problem(schema, value, budget)? {
        budget.spend_error(0).map_err(|_| Failure::Exhausted)?;
        return Err(Failure::Arguments(vec![error]));
    }
    let mut eval = Eval::new(schema, mode, budget);
    match eval.valid(schema.root, value) {
        Ok(true) => return Ok(()),
        Ok(false) | Err(Halt::Failed) => {}
        Err(halt) => return Err(eval.halted(halt)),
    }
    let mut eval = Eval::new(schema, mode, eval.budget);
    match eval.report(schema.root, value, &ROOT, &SchemaTrail::at("")) {
        Ok(_) | Err(Halt::Failed) if !eval.errors.is_empty() => {
            Err(Failure::Arguments(eval.errors))
        }
        // The quick walk refused what this walk finds no error in: never a pass.
        Ok(_) | Err(Halt::Failed) => Err(super::unreported::failure(schema, value, eval.budget)),
        Err(halt) => Err(eval.halted(halt)),
    }
}

/// `validate`'s answer without its errors: the boundary, the key rule, the quick walk.
pub fn is_valid<'a, V: Value<'a>, A>(
    schema: &Compiled<A>,
    value: V,
    budget: &mut Budget,
) -> Result<bool, Failure<V>> {
    if argument_problem(schema, value, budget)?.is_some() {
        return Ok(false);
    }
    let mut eval = Eval::new(schema, Mode::First, budget);
    match eval.valid(schema.root, value) {
        Ok(valid) => Ok(valid),
        Err(Halt::Failed) => Ok(false),
        Err(halt) => Err(eval.halted(halt)),
    }
}

/// What both answers check before any keyword: the tool boundary (arguments that are no map
/// are refused), then the rule for argument keys, whose breach is an argument error.
fn argument_problem<'a, V: Value<'a>, A>(
    schema: &Compiled<A>,
    value: V,
    budget: &mut Budget,
) -> Result<Option<Error<V>>, Failure<V>> {
    if schema.object_root() && value.kind() != Kind::Map {
        return Err(Failure::schema(Error::NotMaps));
    }
    keys::first_problem(value, root_of(schema), budget).map_err(|Exhausted| Failure::Exhausted)
}

/// Where argument paths start.
pub(super) fn root_of<A>(schema: &Compiled<A>) -> &'static [u8] {
    if schema.object_root() {
        ARGUMENTS
    } else {
        ANY_ROOT
    }
}

impl<'s, 'a, V: Value<'a>, A> Eval<'s, '_, V, A> {
    /// Stops the walk on a reference loop at node `id`.
    fn looped(&mut self, id: NodeId) -> Halt {
        self.loop_at = id;
        Halt::Loop
    }

    /// Whether `value` is valid against node `id`: the quick walk.
    pub fn valid(&mut self, id: NodeId, value: V) -> Flow {
        let Some(node) = self.node(id) else {
            return Ok(true);
        };
        if let Some(keywords) = node.leaf() {
            return self.valid_leaf(keywords, value);
        }
        let keywords = match &node.kind {
            NodeKind::Bool(valid) => return Ok(*valid),
            NodeKind::Keywords(keywords) => keywords,
            // Subset nodes are walked by the subset's own checks (`validate.rs`), never here.
            NodeKind::Subset(_) => return Ok(true),
        };
        if let Some(target) = node.forward {
            // Counted by the loop guard as `enter` would count it.
            self.in_place += 1;
            if self.in_place > MAX_IN_PLACE {
                return Err(self.looped(id));
            }
            let result = self.valid(target, value);
            self.in_place -= 1;
            return result;
        }
        // The keywords before the first that applies a subschema cannot recurse: checked
        // before entering, after the loop guard's check that `enter` would make first.
        if self.in_place >= MAX_IN_PLACE {
            return Err(self.looped(id));
        }
        let (shallow, deep) = keywords
            .split_at_checked(node.shallow)
            .unwrap_or((&[], keywords));
        if !self.valid_run(keywords, shallow, value)? {
            return Ok(false);
        }
        self.enter(id, node.resource, |this| {
            this.valid_run(keywords, deep, value)
        })
    }

    /// The keywords of node `id` when it is a leaf (see `Node::leaf`).
    pub fn leaf(&self, id: NodeId) -> Option<&'s [Keyword]> {
        self.node(id).and_then(Node::leaf)
    }

    /// The quick walk of a leaf node's keywords.
    #[inline]
    pub fn valid_leaf(&mut self, keywords: &'s [Keyword], value: V) -> Flow {
        self.valid_run(keywords, keywords, value)
    }

    /// The quick walk of `run`, some of a node's keywords (`siblings`, all of them). Always
    /// inlined: the recursion of the walk keeps it out of line otherwise, and a call per node
    /// cost more than its body on the small nodes.
    #[inline(always)]
    pub(super) fn valid_run(
        &mut self,
        siblings: &'s [Keyword],
        run: &'s [Keyword],
        value: V,
    ) -> Flow {
        for keyword in run {
            self.budget.spend(1)?;
            // The usual keywords of a small node, answered here rather than through the
            // dispatch (which recursion keeps out of line).
            let valid = match &keyword.check {
                Check::Type(expected) => types::holds(self.budget, expected, value)?,
                Check::MinItems(_) | Check::MaxItems(_) => {
                    array::count_holds(self.budget, &keyword.check, value)?
                }
                Check::Bound(bound) => numeric::bound_holds(self.budget, bound, value)?,
                Check::Enum(choices) => choices.contains(value, self.budget)?,
                Check::Const(expected) => equals(value, expected, self.budget, 0)?,
                _ => self.valid_keyword(siblings, keyword, value)?,
            };
            if !valid {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The quick walk of a value inside the current one (an item, a property's value).
    #[inline]
    pub fn valid_item(&mut self, id: NodeId, value: V) -> Flow {
        match self.leaf(id) {
            // A leaf does not recurse: the loop guard need not start again.
            Some(keywords) => self.valid_leaf(keywords, value),
            None => self.descend(|eval| eval.valid(id, value)),
        }
    }

    /// Reports the errors of `value` against node `id` at `trail`, the node reached at
    /// `at`: the reporting walk.
    pub fn report(
        &mut self,
        id: NodeId,
        value: V,
        trail: &Trail<'_>,
        at: &SchemaTrail<'_>,
    ) -> Flow {
        let Some(node) = self.node(id) else {
            return Ok(true);
        };
        match &node.kind {
            NodeKind::Bool(true) => Ok(true),
            NodeKind::Bool(false) => self.fail(trail, "false", at, Assertion::False, None),
            NodeKind::Keywords(keywords) => self.enter(id, node.resource, |this| {
                let mut valid = true;
                for keyword in keywords.iter() {
                    this.budget.spend(1)?;
                    let here = at.key(keyword.token);
                    valid &= this.report_keyword(keywords, keyword, value, trail, &here)?;
                }
                Ok(valid)
            }),
            NodeKind::Subset(_) => Ok(true),
        }
    }

    /// `report` of a reference's target, at the target's own location.
    fn report_target(&mut self, id: NodeId, value: V, trail: &Trail<'_>) -> Flow {
        let location = self.node(id).map_or("", |node| &node.location);
        self.report(id, value, trail, &SchemaTrail::at(location))
    }

    /// One node deeper: the stack checked, the dynamic scope kept, the loop guard counted.
    fn enter(
        &mut self,
        id: NodeId,
        resource: ResourceId,
        step: impl FnOnce(&mut Self) -> Flow,
    ) -> Flow {
        self.in_place += 1;
        if self.in_place > MAX_IN_PLACE {
            return Err(self.looped(id));
        }
        let pushed = self.schema.has_dynamic_refs && self.scope.last() != Some(&resource);
        if pushed {
            self.scope.push(resource);
        }
        let result = self.nested(step);
        if pushed {
            self.scope.pop();
        }
        self.in_place -= 1;
        result
    }

    /// `enter` for the walk that gathers what `unevaluated*` keywords see as evaluated.
    pub fn enter_for_marks(
        &mut self,
        id: NodeId,
        resource: ResourceId,
        step: impl FnOnce(&mut Self) -> Flow,
    ) -> Flow {
        self.enter(id, resource, step)
    }

    /// Evaluates `step` on a value inside the current one (an item, a property's value): the
    /// loop guard starts again, since the walk made progress.
    pub fn descend(&mut self, step: impl FnOnce(&mut Self) -> Flow) -> Flow {
        let in_place = std::mem::replace(&mut self.in_place, 0);
        let result = step(self);
        self.in_place = in_place;
        result
    }

    /// The innermost-to-outermost walk of the dynamic scope, outermost first.
    pub fn scope(&self) -> &[ResourceId] {
        &self.scope
    }

    /// The quick walk of the keywords `valid_run` does not answer itself.
    #[inline]
    fn valid_keyword(&mut self, siblings: &'s [Keyword], keyword: &'s Keyword, value: V) -> Flow {
        Ok(match &keyword.check {
            Check::Ref(target) => self.valid(*target, value)?,
            Check::DynamicRef(dynamic) => {
                let target = reference::target(self, dynamic);
                self.valid(target, value)?
            }
            Check::AllOf(_) | Check::AnyOf(_) | Check::OneOf(_) | Check::Not(_) | Check::If(_) => {
                combinators::valid(self, &keyword.check, value)?
            }
            Check::PrefixItems(_)
            | Check::Items { .. }
            | Check::Contains(_)
            | Check::UniqueItems => array::valid(self, &keyword.check, value)?,
            Check::Required(_)
            | Check::DependentRequired(_)
            | Check::Properties(_)
            | Check::PatternProperties(_)
            | Check::AdditionalProperties(_)
            | Check::PropertyNames(_)
            | Check::DependentSchemas(_)
            | Check::Dependencies(_) => object::valid(self, &keyword.check, value)?,
            Check::UnevaluatedItems(_) | Check::UnevaluatedProperties(_) => {
                unevaluated::valid(self, siblings, keyword, value)?
            }
            _ => self.holds(&keyword.check, value)?,
        })
    }

    /// Whether `value` passes a keyword that asserts something of the value itself and that
    /// `valid_run` leaves to the dispatch: `assertion` without building the error.
    #[inline(never)]
    fn holds(&mut self, check: &'s Check, value: V) -> Flow {
        Ok(match check {
            Check::MultipleOf(_) => numeric::holds(self.budget, check, value)?,
            Check::MinLength(_) | Check::MaxLength(_) | Check::Pattern(_) | Check::Format(_) => {
                string::holds(self.budget, check, value)?
            }
            Check::MinProperties(_) | Check::MaxProperties(_) => object::count_holds(check, value),
            _ => self.assertion(check, value)?.is_none(),
        })
    }

    fn report_keyword(
        &mut self,
        siblings: &'s [Keyword],
        keyword: &'s Keyword,
        value: V,
        trail: &Trail<'_>,
        here: &SchemaTrail<'_>,
    ) -> Flow {
        match &keyword.check {
            Check::Ref(target) => self.report_target(*target, value, trail),
            Check::DynamicRef(dynamic) => {
                let target = reference::target(self, dynamic);
                self.report_target(target, value, trail)
            }
            Check::AllOf(_) | Check::AnyOf(_) | Check::OneOf(_) | Check::Not(_) | Check::If(_) => {
                combinators::report(self, keyword, value, trail, here)
            }
            Check::PrefixItems(_)
            | Check::Items { .. }
            | Check::Contains(_)
            | Check::UniqueItems => array::report(self, keyword, value, trail, here),
            Check::Required(_)
            | Check::DependentRequired(_)
            | Check::Properties(_)
            | Check::PatternProperties(_)
            | Check::AdditionalProperties(_)
            | Check::PropertyNames(_)
            | Check::DependentSchemas(_)
            | Check::Dependencies(_) => object::report(self, keyword, value, trail, here),
            Check::UnevaluatedItems(_) | Check::UnevaluatedProperties(_) => {
                unevaluated::report(self, siblings, keyword, value, trail, here)
            }
            _ => match self.assertion(&keyword.check, value)? {
                None => Ok(true),
                Some(assertion) => self.fail(trail, keyword.name, here, assertion, None),
            },
        }
    }

    /// The keywords that assert something of the value itself: the failure, if any. One
    /// function for both walks.
    fn assertion(&mut self, check: &'s Check, value: V) -> Result<Option<Assertion>, Halt> {
        Ok(match check {
            Check::Type(expected) => types::check(self.budget, expected, value)?,
            Check::Enum(_) | Check::Const(_) => equality::check(self.budget, check, value)?,
            Check::MultipleOf(_) | Check::Bound(_) => numeric::check(self.budget, check, value)?,
            Check::MinLength(_) | Check::MaxLength(_) | Check::Pattern(_) | Check::Format(_) => {
                string::check(self.budget, check, value)?
            }
            Check::Content(checked) => content::check(self, checked, value)?,
            Check::MinItems(_) | Check::MaxItems(_) => array::count(self.budget, check, value)?,
            Check::MinProperties(_) | Check::MaxProperties(_) => {
                object::assertion(self.budget, check, value)?
            }
            _ => None,
        })
    }

    /// Records an error (when the mode keeps it) and says whether to go on: `Ok(false)` to go
    /// on, `Err(Failed)` to stop.
    pub fn fail(
        &mut self,
        trail: &Trail<'_>,
        keyword: &'static str,
        location: &SchemaTrail<'_>,
        assertion: Assertion,
        property: Option<V>,
    ) -> Flow {
        let root = root_of(self.schema);
        // Priced before anything is copied (a sibling keyword's name is short).
        let bytes = trail
            .path_len_from(root)
            .saturating_add(location.rendered_len())
            .saturating_add(assertion.copied_bytes());
        self.budget.spend_error(bytes)?;
        let rendered = location.render();
        // One check stands for the content keywords: the error names the one that failed.
        let (keyword, schema_path) = match assertion.keyword() {
            Some(failed) => (failed, sibling_pointer(&rendered, failed).into()),
            None => (keyword, rendered),
        };
        self.errors.push(Error::Assertion(Box::new(KeywordFailure {
            assertion,
            keyword,
            path: trail.path_from(root),
            schema_path,
            property,
        })));
        self.record(bytes)
    }
}

/// The JSON type of a value, as `type` and the keyword families see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonType {
    Null,
    Boolean,
    Object,
    Array,
    /// A number with a fractional part.
    Number,
    /// A number without one (`1.0` included).
    Integer,
    String,
    /// Tuples, pids, other atoms, improper lists: values of no JSON type.
    None,
}

/// The JSON type of `value` (an improper list is none: its cells are walked to tell).
pub fn json_type<'a, V: Value<'a>>(value: V, budget: &mut Budget) -> Result<JsonType, Halt> {
    Ok(match value.kind() {
        Kind::Map if value.is_struct() => JsonType::None,
        Kind::Map => JsonType::Object,
        Kind::Binary => JsonType::String,
        Kind::Integer => JsonType::Integer,
        Kind::Float => match value.number() {
            Some(number) if super::literal::is_integral(&number) => JsonType::Integer,
            _ => JsonType::Number,
        },
        Kind::Atom(AtomKind::True | AtomKind::False) => JsonType::Boolean,
        Kind::Atom(AtomKind::Nil) => JsonType::Null,
        Kind::List if value.proper_list_len().is_some() => JsonType::Array,
        Kind::List => {
            let mut cells = 0_u64;
            for element in value.list_elements() {
                cells += 1;
                if cells.is_multiple_of(8) {
                    budget.spend(1)?;
                }
                if let Element::ImproperTail(_) = element {
                    return Ok(JsonType::None);
                }
            }
            JsonType::Array
        }
        Kind::Atom(AtomKind::Other) | Kind::Other => JsonType::None,
    })
}

/// Calls `step` with the child trail of an argument key (its name, or nothing for a key with
/// none, which `keys_valid` refuses before any keyword runs).
pub fn with_key_trail<'a, V: Value<'a>, R>(
    key: V,
    trail: &Trail<'_>,
    step: impl FnOnce(&Trail<'_>) -> R,
) -> Option<R> {
    with_key_name(key, |name| step(&trail.child(Segment::Property(name))))
}
