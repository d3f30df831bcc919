//! The walk of the object check under the rule for term keys (`engine::term_keys`). The
//! quick walk reads a map of string keys once, each key's property checked as it is met; a
//! map with another key is walked as the reporting walk walks it: one pass finds every
//! property's argument and every undeclared key, and the errors follow in the rule's order
//! (`required` in list order, undeclared keys in map order, `properties` in the schema's).

use crate::engine::object::WALK_MAX_ENTRIES;
use crate::engine::term_keys::offending_keys::OffendingKeys;
use crate::engine::term_keys::to_string::{with_string_form, with_string_form_of, TextUse};
use crate::engine::term_keys::{Exact, ExactKeyObject, Property, Required, WALK_MAX_PROPERTIES};
use crate::engine::walk::{Sink, Walk};
use crate::names::keywords::name;
use crate::names::name_index::prefix;
use crate::report::error::Error;
use crate::report::path::{Key, Segment, Step};
use crate::values::value::{AtomKind, Kind, Value};
use crate::work::budget::Budget;
use crate::work::halt::{Flow, Halt};

impl ExactKeyObject {
    /// Checks a map of `size` entries.
    #[inline(always)]
    pub fn check<'a, S: Sink, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        map: V,
        size: usize,
        at: &S::At<'_>,
    ) -> Flow {
        if !S::REPORTS && !self.unnamed {
            match self.accepts_string_keys(walk, map, size)? {
                Some(true) => return Ok(true),
                Some(false) => return Err(Halt::Failed),
                None => {}
            }
        }
        self.check_walked::<S, V>(walk, map, size, at)
    }

    /// `check` where the quick walk of string keys did not decide.
    #[inline(never)]
    fn check_walked<'a, S: Sink, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        map: V,
        size: usize,
        at: &S::At<'_>,
    ) -> Flow {
        if self.unnamed {
            return match self.required_by_lookup::<S, V>(walk, map, at)? {
                true => Err(Halt::NoStringForm),
                false => Ok(false),
            };
        }
        // Without properties and with any key allowed there is nothing to walk for.
        let walk_needed = !self.properties.is_empty() || !self.additional_allowed;
        if walk_needed
            && self.properties.len() <= WALK_MAX_PROPERTIES
            && (!self.additional_allowed || size <= WALK_MAX_ENTRIES)
        {
            // Sized to the object, so that a small one does not set up sixteen slots.
            return match self.properties.len() {
                0..=4 => self.by_walk::<4, S, V>(walk, map, size, at),
                5..=8 => self.by_walk::<8, S, V>(walk, map, size, at),
                _ => self.by_walk::<WALK_MAX_PROPERTIES, S, V>(walk, map, size, at),
            };
        }
        self.by_lookup::<S, V>(walk, map, at)
    }

    /// The quick walk of a map whose keys are all strings, each property checked as its key
    /// is met: `None` when it cannot tell (another key, a required name past the first 16
    /// properties, more properties than that, or a failed property that an exact key of the
    /// same string form might name instead).
    #[inline]
    fn accepts_string_keys<'a, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        map: V,
        size: usize,
    ) -> Result<Option<bool>, Halt> {
        if self.properties.is_empty() && self.additional_allowed && self.required.is_empty() {
            return Ok(Some(true));
        }
        let (Some(required_mask), true) = (
            self.required_mask,
            self.properties.len() <= WALK_MAX_PROPERTIES,
        ) else {
            return Ok(None);
        };
        // Which properties a key named: the required ones must all be among them.
        let mut named: u16 = 0;
        for (key, argument) in map.map_entries_sized(size) {
            let Some(text) = key.binary() else {
                return Ok(None);
            };
            walk.budget.spend(1 + Budget::byte_units(text.len()))?;
            let key = prefix(text);
            let mut declared = false;
            for (index, (name, property)) in self.properties.entries().iter().enumerate() {
                if !name.is(text, key) {
                    continue;
                }
                declared = true;
                named |= 1 << index;
                match walk.decide_part(property.node, &property.shortcut, argument) {
                    Ok(_) => {}
                    Err(Halt::Failed) => {
                        return Ok(match property.exact {
                            Exact::Binary => Some(false),
                            Exact::Atom { .. } | Exact::Term(_) => None,
                        })
                    }
                    Err(halt) => return Err(halt),
                }
                if self.unique_names {
                    break;
                }
            }
            if !declared && !self.additional_allowed {
                return Ok(Some(false));
            }
        }
        Ok(Some(named & required_mask == required_mask))
    }

    /// One walk of the map finds every property's argument and every undeclared key; the
    /// errors are then reported in the rule's order. `N` (at most 16, the width of the masks)
    /// is at least the number of properties.
    fn by_walk<'a, const N: usize, S: Sink, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        map: V,
        size: usize,
        at: &S::At<'_>,
    ) -> Flow {
        // Per property: its argument (an exact key's wins over a string key's), and as bit masks
        // which came from an exact key and which properties a string key names.
        let mut found: [Option<V>; N] = [None; N];
        let mut by_exact: u16 = 0;
        let mut by_binary: u16 = 0;
        // Undeclared keys, in map order, as many as can still be reported; allocated only when
        // there is one.
        let room = walk.error_room::<S>();
        let mut undeclared: Vec<V> = Vec::new();
        let mut offending = OffendingKeys::new();
        for (key, argument) in map.map_entries_sized(size) {
            // Whether a string key named a property, which then needs no second search below.
            let mut named = false;
            match key.binary().ok_or_else(|| key.kind()) {
                Ok(text) => {
                    walk.budget.spend(1 + Budget::byte_units(text.len()))?;
                    let key = prefix(text);
                    for (index, (slot, (name, _))) in
                        found.iter_mut().zip(self.properties.entries()).enumerate()
                    {
                        if name.is(text, key) {
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
                Err(kind @ Kind::Atom(atom)) => {
                    walk.budget.spend(1)?;
                    let nil = atom == AtomKind::Nil;
                    // The properties this atom names exactly, as a mask.
                    let spelled = with_string_form_of(
                        key,
                        kind,
                        TextUse::Compare(self.longest_name),
                        walk.budget,
                        |text| {
                            let key = prefix(text);
                            let mut exact: u16 = 0;
                            let properties = self.properties.entries().iter();
                            for (index, (name, property)) in properties.enumerate().take(N) {
                                let hit = matches!(property.exact, Exact::Atom { nil: own } if own == nil)
                                    && name.is(text, key);
                                exact |= u16::from(hit) << index;
                            }
                            exact
                        },
                    )?;
                    let exact = spelled.unwrap_or(0);
                    for (index, slot) in found.iter_mut().enumerate() {
                        if exact & (1 << index) != 0 {
                            by_exact |= 1 << index;
                            *slot = Some(argument);
                        }
                    }
                }
                // Keys that may be a term-named property's exact key are looked up below.
                _ => walk.budget.spend(1)?,
            }
            if !self.additional_allowed
                && !named
                && !offending.ended()
                && !self.declares(key, walk)?
                && offending.report(key)
                && undeclared.len() < room
            {
                undeclared.push(key);
            }
            // Only the first error counts, every required name is present, and an undeclared
            // key was met: the first such key's error comes next (the required names come
            // first, the additional keys second), so the rest of the map cannot change the
            // answer.
            if !undeclared.is_empty()
                && room == 1
                && self
                    .required_mask
                    .is_some_and(|mask| by_binary & mask == mask)
            {
                if let Some(first) = undeclared.first() {
                    return additional::<S, V>(walk, *first, at);
                }
            }
        }
        // A property named by an integer, float or list is looked up by the VM, which alone
        // says which keys are the same term (`-0.0` and `0.0` are one key before OTP 27).
        if self.term_names {
            for (slot, (_, property)) in found.iter_mut().zip(self.properties.entries()) {
                if let Exact::Term(name) = &property.exact {
                    walk.budget.spend_exact_lookup(name.len())?;
                    if let Some(argument) = map.map_get_exact(name) {
                        *slot = Some(argument);
                    }
                }
            }
        }
        let mut valid = true;
        for required in self.required.iter() {
            if !present_after_walk(required, by_binary, walk, map)? {
                valid &= missing::<S, V>(walk, required, at)?;
            }
        }
        for key in &undeclared {
            valid &= additional::<S, V>(walk, *key, at)?;
        }
        for ((name, property), argument) in self.properties.entries().iter().zip(found) {
            if let Some(argument) = argument {
                valid &= visit_property::<S, V>(walk, (property, name), argument, at)?;
            }
        }
        Ok(valid)
    }

    /// For objects with many properties, or large argument maps: a lookup per name.
    fn by_lookup<'a, S: Sink, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        map: V,
        at: &S::At<'_>,
    ) -> Flow {
        let mut valid = self.required_by_lookup::<S, V>(walk, map, at)?;
        if !self.additional_allowed {
            let mut offending = OffendingKeys::new();
            for (key, _) in map.map_entries() {
                if !self.declares(key, walk)? && offending.report(key) {
                    valid &= additional::<S, V>(walk, key, at)?;
                }
                if offending.ended() {
                    break;
                }
            }
        }
        for (name, property) in self.properties.entries() {
            walk.budget.spend_lookup(name.len())?;
            let exactly = match &property.exact {
                Exact::Binary => None,
                // `nil`'s string form is empty; its atom is named.
                Exact::Atom { nil: true } => map.map_get_atom_named(b"nil"),
                Exact::Atom { nil: false } => map.map_get_atom_named(name),
                Exact::Term(key) => {
                    walk.budget.spend_exact_lookup(key.len())?;
                    map.map_get_exact(key)
                }
            };
            if let Some(argument) = exactly.or_else(|| map.map_get_binary(name)) {
                valid &= visit_property::<S, V>(walk, (property, name), argument, at)?;
            }
        }
        Ok(valid)
    }

    /// `required`, each name looked up: only string keys satisfy it.
    fn required_by_lookup<'a, S: Sink, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        map: V,
        at: &S::At<'_>,
    ) -> Flow {
        let mut valid = true;
        for required in self.required.iter() {
            walk.budget.spend_lookup(required.name.len())?;
            if map.map_get_binary(&required.name).is_none() {
                valid &= missing::<S, V>(walk, required, at)?;
            }
        }
        Ok(valid)
    }

    /// Whether the string form of an argument key names a property.
    fn declares<'a, V: Value<'a>>(&self, key: V, walk: &mut Walk<'_, '_, V>) -> Result<bool, Halt> {
        let Some((declared, length)) = with_string_form(
            key,
            TextUse::Compare(self.longest_name),
            walk.budget,
            |text| (self.properties.first(text).is_some(), text.len()),
        )?
        else {
            walk.budget.spend(1)?;
            return Ok(false);
        };
        walk.budget.spend_bytes(length)?;
        Ok(declared)
    }
}

/// `property`'s schema applied to its argument: the argument path gets `.name`.
fn visit_property<'a, S: Sink, V: Value<'a>>(
    walk: &mut Walk<'_, '_, V>,
    (property, name): (&Property, &[u8]),
    argument: V,
    at: &S::At<'_>,
) -> Flow {
    let into = Step::Into {
        keyword: name::PROPERTIES,
        key: Key::None,
        argument: Some(Segment::Property(name)),
    };
    walk.visit_part::<S>(property.node, argument, &S::then(at, into))
}

/// Whether a string key carries a required name, once the walk has marked the properties
/// string keys named (`by_binary`); a name that is no property's is looked up.
fn present_after_walk<'a, V: Value<'a>>(
    required: &Required,
    by_binary: u16,
    walk: &mut Walk<'_, '_, V>,
    map: V,
) -> Result<bool, Halt> {
    Ok(match required.property {
        Some(index) => by_binary & (1 << index) != 0,
        None => {
            walk.budget.spend_lookup(required.name.len())?;
            map.map_get_binary(&required.name).is_some()
        }
    })
}

fn missing<'a, S: Sink, V: Value<'a>>(
    walk: &mut Walk<'_, '_, V>,
    required: &Required,
    at: &S::At<'_>,
) -> Flow {
    walk.fail_plain::<S>(at, required.name.len(), |path| Error::MissingRequired {
        path,
        property: required.name.clone(),
    })
}

fn additional<'a, S: Sink, V: Value<'a>>(
    walk: &mut Walk<'_, '_, V>,
    key: V,
    at: &S::At<'_>,
) -> Flow {
    walk.fail_plain::<S>(at, 0, |path| Error::AdditionalProperty {
        path,
        property: key,
    })
}
