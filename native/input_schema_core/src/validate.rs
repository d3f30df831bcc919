//! The subset's argument phase (contract section 5), its walks on the engine's evaluation
//! context, and the entry points that run both phases.

use crate::arena::{Node, NodeId, Tree};
use crate::budget::{Budget, Exhausted};
use crate::error::{Error, Failure, Mode, Path};
use crate::eval::Eval;
use crate::flow::{Flow, Halt};
use crate::names::name;
use crate::object::Object;
use crate::path::{Trail, ROOT};
use crate::schema::{compile, Shape, SubsetNode};
use crate::stack::Levels;
use crate::value::{AtomKind, Kind, Value};

/// Why the quick walk gave no answer.
#[derive(Debug)]
pub(crate) enum Undecided {
    Exhausted,
    /// Only the full walk can tell (a case the quick walk leaves to it).
    Unsure,
}

impl From<Exhausted> for Undecided {
    fn from(_: Exhausted) -> Self {
        Undecided::Exhausted
    }
}

/// For the budget steps the two walks share, which never fail a value.
impl From<Halt> for Undecided {
    fn from(halt: Halt) -> Self {
        match halt {
            Halt::Exhausted => Undecided::Exhausted,
            // The subset has no references, so no loop; a name without a string form is
            // reported by the full walk.
            Halt::Failed | Halt::Loop | Halt::NoStringForm => Undecided::Unsure,
        }
    }
}

/// The quick walk's answer: `Ok(true)` the value satisfies the schema, `Ok(false)` it certainly
/// does not. It looks for no error and keeps no path: most calls are valid, and for them it is
/// the whole work; any other answer sends the call to the full walk, which reports the
/// contract's first error.
pub(crate) type Quick = Result<bool, Undecided>;

/// The subset's walks, on the engine's evaluation context: the quick walk (`accepts*`, which
/// may leave a call to the other) and the walk that reports the contract's errors (`check*`).
impl<'s, 'a, V: Value<'a>> Eval<'s, '_, V, V::AtomKey> {
    /// The schema's arena.
    pub fn nodes(&self) -> &'s [Node<V::AtomKey>] {
        &self.schema.nodes
    }

    /// Node `id`, a subset node.
    #[inline(always)]
    pub fn subset_node(&self, id: NodeId) -> Option<&'s SubsetNode<V::AtomKey>> {
        self.schema.nodes.get(id).and_then(Node::as_subset)
    }

    pub fn spend(&mut self, units: u64) -> Result<(), Halt> {
        Ok(self.budget.spend(units)?)
    }

    pub fn require(&mut self, units: u64) -> Result<(), Halt> {
        Ok(self.budget.require(units)?)
    }

    /// Whether this walk runs without a budget (on a dirty scheduler, or in plain Rust).
    pub fn unlimited(&self) -> bool {
        self.budget.is_unlimited()
    }

    pub fn spend_bytes(&mut self, bytes: usize) -> Result<(), Halt> {
        Ok(self.budget.spend_bytes(bytes)?)
    }

    /// The walk's budget, for the steps that price their own work.
    pub fn budget(&mut self) -> &mut Budget {
        self.budget
    }

    pub fn spend_lookup(&mut self, bytes: usize) -> Result<(), Halt> {
        Ok(self.budget.spend_lookup(bytes)?)
    }

    pub fn spend_exact_lookup(&mut self, bytes: usize) -> Result<(), Halt> {
        Ok(self.budget.spend_exact_lookup(bytes)?)
    }

    /// Records an error at `trail` (made, with its argument path, only when it will be kept)
    /// and says whether to go on. `copied_bytes`: what making it copies besides the path.
    pub fn fail_with(
        &mut self,
        trail: &Trail<'_>,
        copied_bytes: usize,
        error: impl FnOnce(Path) -> Error<V>,
    ) -> Flow {
        if self.quiet {
            return Err(Halt::Failed);
        }
        // Priced before it is made: a path of long names can hold megabytes.
        let bytes = trail.argument_path_len().saturating_add(copied_bytes);
        self.budget.spend_error(bytes)?;
        self.errors.push(error(trail.argument_path()));
        self.record(bytes)
    }

    /// How many more errors this walk can still report: 1 when only the first one counts.
    pub fn error_room(&self) -> usize {
        match self.mode {
            _ if self.quiet => 1,
            Mode::First => 1,
            Mode::All { max_errors } => max_errors.saturating_sub(self.errors.len()).max(1),
        }
    }

    pub fn quietly(&mut self, run: impl FnOnce(&mut Self) -> Flow) -> Flow {
        let outer = std::mem::replace(&mut self.quiet, true);
        let flow = run(self);
        self.quiet = outer;
        flow
    }

    /// One value against node `id`: its shape, then its `enum` (only when the shape holds).
    #[inline]
    pub fn check(&mut self, id: NodeId, value: V, trail: &Trail<'_>) -> Flow {
        match self.subset_node(id) {
            Some(node) => self.check_kind(node, value, value.kind(), trail),
            None => Ok(true),
        }
    }

    /// `check` for a child of a container. A plain scalar schema (no `enum`), the most common
    /// child, is checked right here: the call into `check_kind`, whose frame is sized for the
    /// container schemas, costs as much as the check itself.
    #[inline(always)]
    pub fn check_child(&mut self, id: NodeId, value: V, trail: &Trail<'_>) -> Flow {
        match self.subset_node(id) {
            Some(node) => self.check_child_kind(node, value, value.kind(), trail),
            None => Ok(true),
        }
    }

    /// `check_child` for a value whose kind is known.
    #[inline(always)]
    pub fn check_child_kind(
        &mut self,
        node: &SubsetNode<V::AtomKey>,
        value: V,
        kind: Kind,
        trail: &Trail<'_>,
    ) -> Flow {
        match (&node.shape, &node.choices) {
            (Shape::Scalar(scalar), None) => {
                self.spend(1)?;
                scalar.check(self, value, kind, trail)
            }
            _ => self.check_kind(node, value, kind, trail),
        }
    }

    /// `check` for a value whose kind is known: each value's kind is read from the host once.
    #[inline]
    pub fn check_kind(
        &mut self,
        node: &SubsetNode<V::AtomKey>,
        value: V,
        kind: Kind,
        trail: &Trail<'_>,
    ) -> Flow {
        self.spend(1)?;
        let shaped = match &node.shape {
            // Most values meet a scalar schema, which never recurses: checked in place, without
            // the stack bookkeeping and the call that container schemas need.
            Shape::Scalar(scalar) => scalar.check(self, value, kind, trail)?,
            Shape::Object(object) => self.nested(|this| object.check(this, value, kind, trail))?,
            Shape::Array(array) => self.nested(|this| array.check(this, value, kind, trail))?,
            Shape::OneOf(one_of) => self.nested(|this| one_of.check(this, value, kind, trail))?,
        };
        match &node.choices {
            Some(choices) if shaped && !choices.contains(value, kind, self.budget)? => {
                self.fail_with(trail, 0, |path| Error::NotInEnum { path })
            }
            _ => Ok(shaped),
        }
    }

    /// The quick walk of a child of a container against its schema: its shape, then its
    /// `enum`. A plain scalar schema is checked in place (see `check_child`), asking the value
    /// first whether it is what the schema expects (see `Scalar::accepts_value`).
    #[inline(always)]
    pub fn accepts_child(&mut self, id: NodeId, value: V) -> Quick {
        let Some(node) = self.subset_node(id) else {
            return Ok(true);
        };
        match (&node.shape, &node.choices) {
            (Shape::Scalar(scalar), None) => {
                self.spend(1)?;
                Ok(scalar.accepts_value(value))
            }
            (Shape::Scalar(scalar), Some(_)) => {
                self.spend(1)?;
                let kind = value.kind();
                let shaped = scalar.accepts(value, kind);
                self.then_choices(node, value, kind, shaped)
            }
            (Shape::OneOf(one_of), None) => {
                self.spend(1)?;
                // A string or a map (the usual values of a oneOf) is told by one question, a
                // map together with its size.
                let kind = if value.is_binary() {
                    Kind::Binary
                } else {
                    if let Some(object) = one_of.sole_object(self.nodes()) {
                        if let Some(size) = value.map_size() {
                            return self.accepts_map(object, value, size);
                        }
                    }
                    value.kind()
                };
                match one_of.sole_branch(self.nodes(), kind) {
                    // A scalar branch (a string among objects, say) is decided in place.
                    Some(branch) if !branch.recurses() => {
                        self.accepts_child_kind(branch, value, kind)
                    }
                    Some(branch) => {
                        self.nested(|this| this.accepts_child_kind(branch, value, kind))
                    }
                    None => self.nested(|this| one_of.accepts(this, value, kind)),
                }
            }
            (Shape::Object(object), None) => self.accepts_object(object, value),
            _ => self.accepts_kind(node, value, value.kind()),
        }
    }

    /// `accepts_child` for a value whose kind is known.
    #[inline(always)]
    pub fn accepts_child_kind(
        &mut self,
        node: &SubsetNode<V::AtomKey>,
        value: V,
        kind: Kind,
    ) -> Quick {
        match (&node.shape, &node.choices) {
            (Shape::Scalar(scalar), None) => {
                self.spend(1)?;
                Ok(scalar.accepts(value, kind))
            }
            _ => self.accepts_kind(node, value, kind),
        }
    }

    /// The quick walk of a value against an object schema without `enum`: whether the value
    /// is a map is asked together with its size.
    #[inline(always)]
    fn accepts_object(&mut self, object: &Object<V::AtomKey>, value: V) -> Quick {
        match value.map_size() {
            Some(size) => self.accepts_map(object, value, size),
            None => {
                self.spend(1)?;
                Ok(false)
            }
        }
    }

    /// `accepts_object` for a map of `size` entries. An object of scalar properties (the
    /// options of a list, say) cannot recurse, so it needs no level of its own.
    #[inline(always)]
    fn accepts_map(&mut self, object: &Object<V::AtomKey>, value: V, size: usize) -> Quick {
        self.spend(1)?;
        if object.is_leaf() {
            object.accepts_map(self, value, size)
        } else {
            self.nested(|this| object.accepts_map(this, value, size))
        }
    }

    /// `accepts_child` for a value whose kind is known, without the in-place scalar check.
    pub fn accepts_kind(&mut self, node: &SubsetNode<V::AtomKey>, value: V, kind: Kind) -> Quick {
        self.spend(1)?;
        let shaped = match &node.shape {
            Shape::Scalar(scalar) => scalar.accepts(value, kind),
            Shape::Object(object) => self.nested(|this| object.accepts(this, value, kind))?,
            Shape::Array(array) => self.nested(|this| array.accepts(this, value, kind))?,
            Shape::OneOf(one_of) => self.nested(|this| one_of.accepts(this, value, kind))?,
        };
        self.then_choices(node, value, kind, shaped)
    }

    /// The node's `enum`, after its shape: only a value of the right shape is compared.
    #[inline(always)]
    fn then_choices(
        &mut self,
        node: &SubsetNode<V::AtomKey>,
        value: V,
        kind: Kind,
        shaped: bool,
    ) -> Quick {
        match &node.choices {
            Some(choices) if shaped => Ok(choices.contains(value, kind, self.budget)?),
            _ => Ok(shaped),
        }
    }
}

/// `Compiled::validate` in the subset: the quick walk, then, when it did not find the
/// arguments valid, the full walk for the errors.
pub(crate) fn validate_compiled<'a, A: Copy + PartialEq, V: Value<'a, AtomKey = A>>(
    schema: &Tree<A>,
    arguments: V,
    mode: Mode,
    budget: &mut Budget,
) -> Result<(), Failure<V>> {
    let Some(root) = schema.nodes.get(schema.root).and_then(Node::as_subset) else {
        return Ok(());
    };
    let mut eval = Eval::new(schema, mode, budget);
    // The root is nearly always a plain object schema, and the arguments a map: then one
    // question to the host passes the gate and starts the walk.
    let quick = match (&root.shape, &root.choices) {
        // The root's level needs no stack check of its own: the walk starts on the caller's
        // stack, and the levels below are checked as they nest.
        (Shape::Object(object), None) => match arguments.map_size() {
            Some(size) => eval
                .spend(1)
                .map_err(Undecided::from)
                .and_then(|()| object.accepts_map(&mut eval, arguments, size)),
            None => return arguments_gate(false),
        },
        _ => {
            arguments_gate(arguments.kind() == Kind::Map)?;
            eval.accepts_kind(root, arguments, Kind::Map)
        }
    };
    match quick {
        Ok(true) => Ok(()),
        Err(Undecided::Exhausted) => Err(Failure::Exhausted),
        Ok(false) => match eval.report_subset(root, arguments, arguments.kind()) {
            // The quick walk refused what the full walk finds no error in: never a pass.
            Ok(()) => Err(unreported(root)),
            failure => failure,
        },
        Err(Undecided::Unsure) => eval.report_subset(root, arguments, arguments.kind()),
    }
}

/// The error when the subset's quick walk refused the arguments and its full walk found no
/// error (a bug in one of them): the root's fused check, named by the keyword it holds the
/// value's shape under (an object's `properties`, with its `required` and
/// `additionalProperties`).
#[cold]
fn unreported<V, A>(root: &SubsetNode<A>) -> Failure<V> {
    let keyword = match root.shape {
        Shape::Object(_) => name::PROPERTIES,
        Shape::Array(_) => name::ITEMS,
        Shape::Scalar(_) => name::TYPE,
        Shape::OneOf(_) => name::ONE_OF,
    };
    let mut schema_path = String::new();
    crate::literal::push_token(&mut schema_path, keyword);
    Failure::Arguments(vec![Error::Unreported {
        keyword,
        path: crate::path::ARGUMENTS.to_vec(),
        schema_path: schema_path.into(),
    }])
}

impl<A: Copy + PartialEq> Tree<A> {
    /// The subset's full walk alone, as `validate` runs it when the quick walk did not accept:
    /// for the tests that hold the two walks to the same answers.
    pub fn validate_fully<'a, V: Value<'a, AtomKey = A>>(
        &self,
        arguments: V,
        mode: Mode,
        budget: &mut Budget,
    ) -> Result<(), Failure<V>> {
        let kind = arguments.kind();
        arguments_gate(kind == Kind::Map)?;
        let Some(root) = self.nodes.get(self.root).and_then(Node::as_subset) else {
            return Ok(());
        };
        Eval::new(self, mode, budget).report_subset(root, arguments, kind)
    }

    /// The subset's quick walk alone: `Some(valid)` when it decided, `None` when it left the
    /// call to the full walk or ran out of budget. For those same tests.
    pub fn quick_answer<'a, V: Value<'a, AtomKey = A>>(
        &self,
        arguments: V,
        budget: &mut Budget,
    ) -> Option<bool> {
        let kind = arguments.kind();
        arguments_gate::<V>(kind == Kind::Map).ok()?;
        let root = self.nodes.get(self.root).and_then(Node::as_subset)?;
        Eval::new(self, Mode::First, budget)
            .accepts_kind(root, arguments, kind)
            .ok()
    }
}

impl<'a, V: Value<'a>> Eval<'_, '_, V, V::AtomKey> {
    /// The subset's full walk from the root, which reports the errors.
    fn report_subset(
        mut self,
        root: &SubsetNode<V::AtomKey>,
        arguments: V,
        kind: Kind,
    ) -> Result<(), Failure<V>> {
        match self.check_kind(root, arguments, kind, &ROOT) {
            Ok(_) if self.errors.is_empty() => Ok(()),
            Ok(_) | Err(Halt::Failed) => Err(Failure::Arguments(self.errors)),
            // With `errors: :all`, after the errors found before it: the walk ends there.
            Err(Halt::NoStringForm) => {
                self.errors.push(Error::BadPropertyName);
                Err(Failure::Arguments(self.errors))
            }
            Err(halt) => Err(self.halted(halt)),
        }
    }
}

/// `validate/2`: the entry gate, the whole schema phase, then the arguments.
pub fn validate<'a, V: Value<'a>>(
    schema: V,
    arguments: V,
    mode: Mode,
    budget: &mut Budget,
) -> Result<(), Failure<V>> {
    entry_gate(schema, arguments)?;
    validate_compiled(&compile(schema, budget)?, arguments, mode, budget)
}

/// The entry gate of `validate/2`, which looks at nothing inside either map: a `nil` schema,
/// then anything but two maps. A caller that already holds the schema compiled runs this,
/// then [`crate::Compiled::validate`], and gets exactly what [`validate`] gives.
pub fn entry_gate<'a, V: Value<'a>>(schema: V, arguments: V) -> Result<(), Failure<V>> {
    match schema.kind() {
        Kind::Atom(AtomKind::Nil) => Err(Failure::schema(Error::SchemaRequired)),
        Kind::Map => arguments_gate(arguments.kind() == Kind::Map),
        _ => Err(Failure::schema(Error::NotMaps)),
    }
}

/// The arguments' half of the gate, which a compiled schema runs on its own.
fn arguments_gate<V>(is_map: bool) -> Result<(), Failure<V>> {
    match is_map {
        true => Ok(()),
        false => Err(Failure::schema(Error::NotMaps)),
    }
}
