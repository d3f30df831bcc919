//! Object schemas: `properties`, `required` and `additionalProperties`, checked in the schema and
//! then in the arguments.

use crate::arena::NodeId;
use crate::budget::{Budget, Exhausted};
use crate::error::{Error, TypeLabel};
use crate::eval::Eval;
use crate::flow::{Flow, Halt};
use crate::json_schema::vocabulary::subset::{Types, OBJECT_ORDER};
use crate::name::{prefix, Name};
use crate::names::type_name;
use crate::offending::OffendingKeys;
use crate::path::{Segment, Trail};
use crate::schema::{Compiler, Keyword, Keywords, Stop};
use crate::string_form::{with_string_form, with_string_form_of, TextUse};
use crate::validate::{Quick, Undecided};
use crate::value::{AtomKind, Element, Kind, Value};

const LABEL: TypeLabel = TypeLabel {
    name: type_name::OBJECT,
    atom: false,
};

/// Objects with at most this many properties find their arguments in one walk of the argument
/// map, keeping the matches on the stack (and in 16-bit masks); larger ones look each property up.
const WALK_MAX_PROPERTIES: usize = 16;
/// Property lists are allocated for at most this many entries up front.
const PRESIZE_MAX: usize = 32;
/// An argument map this small (a flat map) is walked rather than searched.
const WALK_MAX_ENTRIES: usize = 32;

#[derive(Debug)]
pub(crate) struct Object<A> {
    properties: Vec<Property<A>>,
    required: Vec<Required>,
    additional_allowed: bool,
    /// Property indices sorted by string form: which properties an argument key names.
    by_name: Vec<usize>,
    /// The walk's mask of the required names, when each is one of the first 16 properties.
    required_mask: Option<u16>,
    /// No two properties share a string form (only `:a` and `"a"` can), so a key names at
    /// most one and the walk stops looking at its first match.
    unique_names: bool,
    /// Some property is named by an integer, float or list, which argument keys of those
    /// kinds are compared with.
    term_names: bool,
    /// Every property is a scalar schema: checking the object goes no deeper than its values.
    leaf: bool,
    /// Bytes of the longest property name: no longer string form can name one.
    longest_name: usize,
    /// Some property's name has no string form (a tuple, a pid): the validator the subset
    /// replaces raised when it checked a map against this object and its `required` held,
    /// turning the names into strings. Such properties are not in `properties`.
    unnamed: bool,
}

#[derive(Debug)]
struct Required {
    name: Box<[u8]>,
    /// A property of the same string form, whose walk result tells whether a string key
    /// carries the name.
    property: Option<usize>,
}

#[derive(Debug)]
struct Property<A> {
    /// The string form of the name.
    name: Name,
    /// The key that names it exactly, which wins over a string key of the same string form.
    exact: Exact<A>,
    node: NodeId,
}

/// How an argument key names a property exactly (the contract's "exact key first").
#[derive(Debug)]
enum Exact<A> {
    /// A binary name, which is its own string form: only string keys name it.
    Binary,
    Atom(A),
    /// An integer, float or chardata name, as the host's `Value::exact_key` encodes it.
    Term(Box<[u8]>),
}

impl<A: Copy + PartialEq> Object<A> {
    pub fn compile<'a, V: Value<'a, AtomKey = A>>(
        compiler: &mut Compiler<'_, A>,
        keywords: &Keywords<V>,
        trail: &Trail<'_>,
        depth: usize,
    ) -> Result<Self, Stop<V>> {
        let fail = |error| Stop::Error(error, trail.schema_location());
        let properties = keywords.get(Keyword::Properties);
        if properties.is_some_and(|value| value.kind() != Kind::Map) {
            return Err(fail(Error::BadProperties));
        }
        let required = match keywords.get(Keyword::Required) {
            Some(value) => {
                required_names(value, compiler.budget)?.ok_or_else(|| fail(Error::BadRequired))?
            }
            None => Vec::new(),
        };
        let additional = keywords
            .get(Keyword::AdditionalProperties)
            .or_else(|| keywords.get(Keyword::AdditionalPropertiesSnake));
        let additional_allowed = match additional.map(|value| value.kind()) {
            None | Some(Kind::Atom(AtomKind::True)) => true,
            Some(Kind::Atom(AtomKind::False)) => false,
            Some(_) => return Err(fail(Error::BadAdditionalProperties)),
        };
        keywords.reject(Types::OBJECT).map_err(fail)?;

        // Sized for the usual few properties; a huge map grows as the budget allows.
        let mut compiled =
            Vec::with_capacity(properties.map_or(0, |map| map.map_len()).min(PRESIZE_MAX));
        let mut unnamed = false;
        for (name, schema) in properties.iter().flat_map(|map| map.map_entries()) {
            // Names are nearly always binaries, told apart first; the string form is copied.
            let (text, exact) = match name.binary() {
                Some(text) => {
                    compiler.budget.spend_copy(text.len())?;
                    (Some(Box::from(text)), Some(Exact::Binary))
                }
                None => {
                    let kind = name.kind();
                    let text =
                        with_string_form_of(name, kind, TextUse::Keep, compiler.budget, |text| {
                            Box::<[u8]>::from(text)
                        })?;
                    // A name without a string form is kept apart below: its exact key,
                    // which may cost as much as the whole term, is not made. Another's fits
                    // what the schema may still keep (its string form was spelled only so
                    // far).
                    let exact = match (kind, &text) {
                        (_, None) => None,
                        (Kind::Atom(_), _) => name.atom_key().map(Exact::Atom),
                        (_, Some(_)) => match name.exact_key() {
                            Some(key) => {
                                compiler.budget.keep(key.len())?;
                                Some(Exact::Term(key.into()))
                            }
                            None => None,
                        },
                    };
                    // Spelling the string form priced its bytes; this prices their copy.
                    let text_len = text.as_ref().map_or(0, |text| text.len());
                    compiler.budget.spend_copy(text_len)?;
                    (text, exact)
                }
            };
            let text_len = text.as_ref().map_or(0, |text| text.len());
            // The node is counted where it is built.
            compiler.budget.keep(size_of::<Property<A>>() + text_len)?;
            let (Some(text), Some(exact)) = (text, exact) else {
                // Its schema is checked like any other (its location names it as ""); its
                // arguments are never looked up.
                unnamed = true;
                compiler.unnamed_objects += 1;
                compiler.child(schema, trail, Segment::Property(b""), depth)?;
                continue;
            };
            let node = compiler.child(schema, trail, Segment::Property(&text), depth)?;
            compiled.push(Property {
                name: Name::new(text),
                exact,
                node,
            });
        }
        let lengths = compiled.iter().map(|property| property.name.len());
        let name_bytes = lengths.clone().sum::<usize>() - lengths.max().unwrap_or(0);
        compiler.budget.spend_sort(compiled.len(), name_bytes)?;
        let mut by_name: Vec<usize> = (0..compiled.len()).collect();
        by_name.sort_unstable_by(|a, b| name_of(&compiled, *a).cmp(name_of(&compiled, *b)));
        let unique_names = by_name.windows(2).all(|pair| match pair {
            [a, b] => name_of(&compiled, *a) != name_of(&compiled, *b),
            _ => true,
        });
        // The first property of each required name, by a search: a scan per name would be
        // quadratic in a schema with many required names and properties.
        let required = required
            .into_iter()
            .map(|name| {
                compiler.budget.spend_search(compiled.len(), name.len())?;
                let property = named_in(&compiled, &by_name, &name).iter().min().copied();
                Ok(Required { name, property })
            })
            .collect::<Result<Vec<Required>, Exhausted>>()?;
        let required_mask = required.iter().try_fold(0_u16, |mask, required| {
            let bit = 1_u16.checked_shl(u32::try_from(required.property?).ok()?)?;
            Some(mask | bit)
        });
        let term_names = compiled
            .iter()
            .any(|property| matches!(property.exact, Exact::Term(_)));
        let leaf = compiled.iter().all(|property| {
            compiler
                .get(property.node)
                .is_some_and(|node| !node.recurses())
        });
        let longest_name = compiled.iter().map(|property| property.name.len()).max();
        Ok(Object {
            longest_name: longest_name.unwrap_or(0),
            term_names,
            leaf,
            properties: compiled,
            required,
            additional_allowed,
            by_name,
            required_mask,
            unique_names,
            unnamed,
        })
    }

    pub fn admits(kind: Kind) -> bool {
        kind == Kind::Map
    }

    /// Whether every property is a scalar schema, so that a walk of the object never recurses.
    pub fn is_leaf(&self) -> bool {
        self.leaf
    }

    /// Section 5: a map; then its arguments' errors in `OBJECT_ORDER`.
    pub fn check<'a, V: Value<'a, AtomKey = A>>(
        &self,
        eval: &mut Eval<'_, '_, V, A>,
        value: V,
        kind: Kind,
        trail: &Trail<'_>,
    ) -> Flow {
        if !Self::admits(kind) {
            return eval.fail_with(trail, 0, |path| Error::WrongType { path, type_: LABEL });
        }
        if self.unnamed {
            return self.check_unnamed(eval, value, trail);
        }
        // Without properties and with any key allowed there is nothing to walk for.
        let walk_needed = !self.properties.is_empty() || !self.additional_allowed;
        if walk_needed && self.properties.len() <= WALK_MAX_PROPERTIES {
            let entries = value.map_entries();
            if !self.additional_allowed || entries.len() <= WALK_MAX_ENTRIES {
                // Sized to the object, so that a small one does not set up sixteen slots.
                return match self.properties.len() {
                    0..=4 => self.check_by_walk::<4, V>(eval, value, entries, trail),
                    5..=8 => self.check_by_walk::<8, V>(eval, value, entries, trail),
                    _ => self.check_by_walk::<WALK_MAX_PROPERTIES, V>(eval, value, entries, trail),
                };
            }
        }
        self.check_by_lookup(eval, value, trail)
    }

    /// `check` of a map against an object with a name that has no string form: its
    /// `required` names, then the end of the call, where the replaced validator raised.
    fn check_unnamed<'a, V: Value<'a, AtomKey = A>>(
        &self,
        eval: &mut Eval<'_, '_, V, A>,
        value: V,
        trail: &Trail<'_>,
    ) -> Flow {
        match self.check_required_by_lookup(eval, value, trail)? {
            true => Err(Halt::NoStringForm),
            false => Ok(false),
        }
    }

    /// One walk of the argument map finds every property's argument and every undeclared key;
    /// the errors are then reported in the contract's order. `N` (at most 16, the width of the
    /// masks) is at least the number of properties.
    fn check_by_walk<'a, const N: usize, V: Value<'a, AtomKey = A>>(
        &self,
        eval: &mut Eval<'_, '_, V, A>,
        value: V,
        entries: V::Entries,
        trail: &Trail<'_>,
    ) -> Flow {
        // Per property: its argument (an exact key's wins over a string key's), and as bit masks
        // which came from an exact key and which properties a string key names.
        let mut found: [Option<V>; N] = [None; N];
        let mut by_exact: u16 = 0;
        let mut by_binary: u16 = 0;
        // Undeclared keys, in map order, as many as can still be reported; allocated only when
        // there is one.
        let room = eval.error_room();
        let mut undeclared: Vec<V> = Vec::new();
        let mut offending = OffendingKeys::new();
        for (key, argument) in entries {
            // Whether a string key named a property, which then needs no second search below.
            let mut named = false;
            // Keys are nearly always binaries: their bytes are asked for first.
            match key.binary().ok_or_else(|| key.kind()) {
                Ok(text) => {
                    // The entry's unit and its key's bytes, in one step.
                    eval.spend(1 + Budget::byte_units(text.len()))?;
                    let key = prefix(text);
                    for (index, (slot, property)) in
                        found.iter_mut().zip(&self.properties).enumerate()
                    {
                        if property.is_named(text, key) {
                            named = true;
                            by_binary |= 1 << index;
                            if by_exact & (1 << index) == 0 {
                                *slot = Some(argument);
                            }
                            if self.unique_names {
                                break;
                            }
                        }
                    }
                }
                Err(Kind::Atom(_)) => {
                    eval.spend(1)?;
                    let atom = key.atom_key();
                    for (index, (slot, property)) in
                        found.iter_mut().zip(&self.properties).enumerate()
                    {
                        if matches!(property.exact, Exact::Atom(own) if Some(own) == atom) {
                            by_exact |= 1 << index;
                            *slot = Some(argument);
                        }
                    }
                }
                // Keys that may be a term-named property's exact key are looked up below.
                _ => eval.spend(1)?,
            }
            if !self.additional_allowed
                && !named
                && !offending.ended()
                && !self.declares(key, eval)?
                && offending.report(key)
                && undeclared.len() < room
            {
                undeclared.push(key);
            }
            // Only the first error counts, every required name is present, and an undeclared
            // key was met: the first such key's error comes next (`OBJECT_ORDER` puts the
            // required names first, the additional keys second), so the rest of the map
            // cannot change the answer.
            if !undeclared.is_empty()
                && room == 1
                && self
                    .required_mask
                    .is_some_and(|mask| by_binary & mask == mask)
            {
                if let Some(first) = undeclared.first() {
                    return self.additional(eval, *first, trail);
                }
            }
        }
        // A property named by an integer, float or list is looked up by the VM, which alone
        // says which keys are the same term (`-0.0` and `0.0` are one key before OTP 27).
        if self.term_names {
            for (slot, property) in found.iter_mut().zip(&self.properties) {
                if let Exact::Term(name) = &property.exact {
                    eval.spend_exact_lookup(name.len())?;
                    if let Some(argument) = value.map_get_exact(name) {
                        *slot = Some(argument);
                    }
                }
            }
        }
        let mut valid = true;
        for keyword in OBJECT_ORDER {
            match keyword {
                Keyword::Required => {
                    for required in &self.required {
                        if !required.present_after_walk(by_binary, eval, value)? {
                            valid &= self.missing(eval, required, trail)?;
                        }
                    }
                }
                Keyword::AdditionalProperties => {
                    for key in &undeclared {
                        valid &= self.additional(eval, *key, trail)?;
                    }
                }
                _ => {
                    for (property, argument) in self.properties.iter().zip(found) {
                        if let Some(argument) = argument {
                            let child = trail.child(Segment::Property(&property.name));
                            valid &= eval.check_child(property.node, argument, &child)?;
                        }
                    }
                }
            }
        }
        Ok(valid)
    }

    /// `check` for the quick walk, which leaves to the full walk what it does not settle
    /// cheaply: keys that are not binaries (an atom key may win over a string key, or name a
    /// property by its string form, and a `nil` one may hide the additional keys after it: see
    /// `OffendingKeys`), a required name that is not among the first 16 properties, and objects
    /// of more than 16 properties.
    pub fn accepts<'a, V: Value<'a, AtomKey = A>>(
        &self,
        eval: &mut Eval<'_, '_, V, A>,
        value: V,
        kind: Kind,
    ) -> Quick {
        if !Self::admits(kind) {
            return Ok(false);
        }
        self.accepts_map(eval, value, value.map_len())
    }

    /// `accepts` for a map of `size` entries.
    pub fn accepts_map<'a, V: Value<'a, AtomKey = A>>(
        &self,
        eval: &mut Eval<'_, '_, V, A>,
        value: V,
        size: usize,
    ) -> Quick {
        if self.unnamed {
            return Err(Undecided::Unsure);
        }
        if self.properties.is_empty() && self.additional_allowed && self.required.is_empty() {
            return Ok(true);
        }
        let (Some(required_mask), true) = (
            self.required_mask,
            self.properties.len() <= WALK_MAX_PROPERTIES,
        ) else {
            return Err(Undecided::Unsure);
        };
        // Which properties a key named: the required ones must all be among them.
        let mut named: u16 = 0;
        for (key, argument) in value.map_entries_sized(size) {
            let Some(text) = key.binary() else {
                return Err(Undecided::Unsure);
            };
            eval.spend(1 + Budget::byte_units(text.len()))?;
            let key = prefix(text);
            let mut declared = false;
            for (index, property) in self.properties.iter().enumerate() {
                if property.is_named(text, key) {
                    declared = true;
                    named |= 1 << index;
                    if !eval.accepts_child(property.node, argument)? {
                        // An exact key (an atom, say) of the same name would be checked
                        // instead.
                        return match property.exact {
                            Exact::Binary => Ok(false),
                            Exact::Atom(_) | Exact::Term(_) => Err(Undecided::Unsure),
                        };
                    }
                    if self.unique_names {
                        break;
                    }
                }
            }
            if !declared && !self.additional_allowed {
                return Ok(false);
            }
        }
        Ok(named & required_mask == required_mask)
    }

    /// For objects with many properties, or large argument maps: a lookup per name.
    fn check_by_lookup<'a, V: Value<'a, AtomKey = A>>(
        &self,
        eval: &mut Eval<'_, '_, V, A>,
        value: V,
        trail: &Trail<'_>,
    ) -> Flow {
        let mut valid = true;
        for keyword in OBJECT_ORDER {
            match keyword {
                Keyword::Required => valid &= self.check_required_by_lookup(eval, value, trail)?,
                Keyword::AdditionalProperties if !self.additional_allowed => {
                    let mut offending = OffendingKeys::new();
                    for (key, _) in value.map_entries() {
                        if !self.declares(key, eval)? && offending.report(key) {
                            valid &= self.additional(eval, key, trail)?;
                        }
                        if offending.ended() {
                            break;
                        }
                    }
                }
                Keyword::AdditionalProperties => {}
                _ => {
                    for property in &self.properties {
                        eval.spend_lookup(property.name.len())?;
                        let exactly = match &property.exact {
                            Exact::Binary => None,
                            Exact::Atom(atom) => value.map_get_atom(*atom),
                            Exact::Term(key) => {
                                eval.spend_exact_lookup(key.len())?;
                                value.map_get_exact(key)
                            }
                        };
                        let found = exactly.or_else(|| value.map_get_binary(&property.name));
                        if let Some(argument) = found {
                            let child = trail.child(Segment::Property(&property.name));
                            valid &= eval.check_child(property.node, argument, &child)?;
                        }
                    }
                }
            }
        }
        Ok(valid)
    }

    /// `required`, each name looked up: only string keys satisfy it.
    fn check_required_by_lookup<'a, V: Value<'a, AtomKey = A>>(
        &self,
        eval: &mut Eval<'_, '_, V, A>,
        value: V,
        trail: &Trail<'_>,
    ) -> Flow {
        let mut valid = true;
        for required in &self.required {
            eval.spend_lookup(required.name.len())?;
            if value.map_get_binary(&required.name).is_none() {
                valid &= self.missing(eval, required, trail)?;
            }
        }
        Ok(valid)
    }

    fn missing<'a, V: Value<'a, AtomKey = A>>(
        &self,
        eval: &mut Eval<'_, '_, V, A>,
        required: &Required,
        trail: &Trail<'_>,
    ) -> Flow {
        eval.fail_with(trail, required.name.len(), |path| Error::MissingRequired {
            path,
            property: required.name.clone(),
        })
    }

    fn additional<'a, V: Value<'a, AtomKey = A>>(
        &self,
        eval: &mut Eval<'_, '_, V, A>,
        key: V,
        trail: &Trail<'_>,
    ) -> Flow {
        eval.fail_with(trail, 0, |path| Error::AdditionalProperty {
            path,
            property: key,
        })
    }

    /// The indices of the properties whose string form is `text`.
    fn named(&self, text: &[u8]) -> &[usize] {
        named_in(&self.properties, &self.by_name, text)
    }

    /// Whether the string form of an argument key names a property.
    fn declares<'a, V: Value<'a, AtomKey = A>>(
        &self,
        key: V,
        eval: &mut Eval<'_, '_, V, A>,
    ) -> Result<bool, Halt> {
        let Some((declared, length)) = with_string_form(
            key,
            TextUse::Compare(self.longest_name),
            eval.budget(),
            |text| (!self.named(text).is_empty(), text.len()),
        )?
        else {
            eval.spend(1)?;
            return Ok(false);
        };
        eval.spend_bytes(length)?;
        Ok(declared)
    }
}

impl Required {
    /// Whether a string key carries the name, once the walk has marked the properties string
    /// keys named (`by_binary`); a name that is no property's is looked up.
    fn present_after_walk<'a, V: Value<'a>, A>(
        &self,
        by_binary: u16,
        eval: &mut Eval<'_, '_, V, A>,
        value: V,
    ) -> Result<bool, Halt> {
        Ok(match self.property {
            Some(index) => by_binary & (1 << index) != 0,
            None => {
                eval.budget.spend_lookup(self.name.len())?;
                value.map_get_binary(&self.name).is_some()
            }
        })
    }
}

impl<A> Property<A> {
    /// Whether this property's string form is `text`, whose prefix word is `key`.
    #[inline]
    fn is_named(&self, text: &[u8], key: u64) -> bool {
        self.name.is(text, key)
    }
}

fn name_of<A>(properties: &[Property<A>], index: usize) -> &[u8] {
    properties.get(index).map_or(&[], |property| &property.name)
}

/// The indices of `properties` whose string form is `text`, found in `by_name` (their indices
/// sorted by string form) by a binary search: this serves objects of any size.
fn named_in<'p, A>(properties: &[Property<A>], by_name: &'p [usize], text: &[u8]) -> &'p [usize] {
    let start = by_name.partition_point(|index| name_of(properties, *index) < text);
    let end = start
        + by_name
            .get(start..)
            .unwrap_or_default()
            .partition_point(|index| name_of(properties, *index) == text);
    by_name.get(start..end).unwrap_or_default()
}

/// A proper list of binaries; `None` otherwise (atoms are not property names here).
fn required_names<'a, V: Value<'a>>(
    value: V,
    budget: &mut Budget,
) -> Result<Option<Vec<Box<[u8]>>>, Exhausted> {
    if value.kind() != Kind::List {
        return Ok(None);
    }
    let mut names = Vec::new();
    for element in value.list_elements() {
        let Element::Item(item) = element else {
            return Ok(None);
        };
        let Some(name) = item.binary() else {
            return Ok(None);
        };
        budget.spend_copy(name.len())?;
        budget.keep(size_of::<Required>() + name.len())?;
        names.push(name.into());
    }
    Ok(Some(names))
}

#[cfg(all(test, feature = "serde_json"))]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use crate::error::Error;
    use crate::error::{Failure, Mode};
    use crate::schema::{compile, Shape};
    use crate::serde::Json;
    use crate::validate::validate_compiled;
    use crate::Budget;
    use serde_json::json;

    #[test]
    fn arguments_the_quick_walk_refuses_are_an_error_though_no_error_is_reported() {
        let schema = json!({
            "type": "object",
            "required": ["a"],
            "properties": {"a": {"type": "string"}}
        });
        let mut compiled = compile(Json::from(&schema), &mut Budget::unlimited()).unwrap();
        let root = compiled.root;
        let Some(node) = compiled.nodes.get_mut(root).map(|node| &mut node.kind) else {
            panic!("no subset root");
        };
        let Shape::Object(object) = &mut node.shape else {
            panic!("no object root");
        };
        // The quick walk checks the required names against a mask of the properties a key
        // named; make it ask for a second property, which no key can name.
        object.required_mask = Some(0b10);
        let arguments = json!({"a": "x"});
        let mut budget = Budget::unlimited();
        for mode in [Mode::First, Mode::All { max_errors: 10 }] {
            let answer = validate_compiled(&compiled, Json::from(&arguments), mode, &mut budget);
            match answer {
                Err(Failure::Arguments(errors)) => match &errors[..] {
                    [Error::Unreported {
                        keyword,
                        path,
                        schema_path,
                    }] => {
                        assert_eq!(
                            (*keyword, &path[..], &**schema_path),
                            ("properties", &b"$arguments"[..], "/properties")
                        );
                    }
                    other => panic!("{other:?}"),
                },
                other => panic!("{other:?}"),
            }
        }
    }
}
