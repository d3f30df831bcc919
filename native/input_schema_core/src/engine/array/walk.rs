//! The walk of the array check: the counts, then one pass over the items in index order.

use crate::engine::array::{elements, unique_list, ArrayCheck, Contains};
use crate::engine::node::{Named, Node};
use crate::engine::walk::{Sink, Walk};
use crate::report::error::{Actual, Assertion};
use crate::report::path::{Key, Segment, Step};
use crate::values::value::Value;
use crate::work::halt::{Flow, Halt};

impl ArrayCheck {
    /// Checks a value whose type is array, of `length` items.
    pub fn check<'a, S: Sink, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        value: V,
        length: usize,
        at: &S::At<'_>,
    ) -> Flow {
        let length = length as u64;
        let mut valid = true;
        if let Some((minimum, named)) = self.min_items {
            if length < minimum {
                valid &= walk.fail_with::<S>(
                    at,
                    named,
                    || (Assertion::MinItems(minimum), Actual::Size(length)).into(),
                    None,
                )?;
            }
        }
        if let Some((maximum, named)) = self.max_items {
            if length > maximum {
                valid &= walk.fail_with::<S>(
                    at,
                    named,
                    || (Assertion::MaxItems(maximum), Actual::Size(length)).into(),
                    None,
                )?;
            }
        }
        if let Some(named) = self.unique {
            if !unique_list(value, length, walk.budget)? {
                valid &= walk.fail::<S>(at, named, || Assertion::UniqueItems, None)?;
            }
        }
        if self.prefix.is_none() && self.items.is_none() {
            // No schema reads the items: the rule for keys reads them in its own walk.
            walk.unread |= !V::KEYS_ARE_STRINGS && length > 0;
            match &self.contains {
                None => return Ok(valid),
                // A quick walk that reads the items for `contains` alone only counts them.
                Some((contains, _)) if !S::REPORTS => {
                    walk.budget.require(length)?;
                    return match contains.holds_in(walk, value)? {
                        true => Ok(valid),
                        false => Err(Halt::Failed),
                    };
                }
                Some(_) => {}
            }
        }
        // Each item read costs at least its own unit: a call that cannot finish gives up now,
        // rather than after checking the items it would check again on a dirty scheduler.
        walk.budget.require(length)?;
        // A guarded program's items are visited: deciding them in place takes the shortcut
        // match's frame at every level of a deep list.
        if let (Some(shortcut), Some((_, node, _)), false, false) = (
            &self.item_shortcut,
            self.items,
            S::REPORTS,
            walk.program.guarded,
        ) {
            walk.decide_each(node, shortcut, elements(value))?;
            return Ok(valid);
        }
        let (prefix, prefix_named) = match &self.prefix {
            Some((nodes, named)) => (&nodes[..], *named),
            None => (&[][..], Named::new("")),
        };
        // Whether `items` allows no item at all (`false`), asked once for the list.
        let items = self.items.map(|(start, node, named)| {
            let refused = walk
                .program
                .node(node)
                .is_some_and(|node| node.has(Node::FALSE));
            (start, node, named, refused)
        });
        let mut found = 0_u64;
        let mut counting = self.contains.is_some();
        for (index, item) in elements(value).enumerate() {
            if let Some(node) = prefix.get(index) {
                let here = S::then(
                    at,
                    Step::Into {
                        keyword: prefix_named.token,
                        key: Key::Index(index),
                        argument: Some(Segment::Index(index)),
                    },
                );
                valid &= walk.visit_part_in_place::<S>(*node, item, &here)?;
            } else if let Some((start, node, named, refused)) = items {
                if index >= start {
                    let here = S::then(at, Step::item(named.token, index));
                    valid &= if refused {
                        walk.fail_at::<S>(&here, named.name, || Assertion::AdditionalItem, None)?
                    } else {
                        walk.visit_part_in_place::<S>(node, item, &here)?
                    };
                } else {
                    walk.note_unread(item);
                }
            } else {
                walk.note_unread(item);
            }
            if let (Some((contains, _)), true) = (&self.contains, counting) {
                if walk.valid_part(contains.node, item)? {
                    found += 1;
                    // Once the answer is known, later items need not be asked.
                    counting = !contains.settled(found);
                }
            }
        }
        if let Some((contains, named)) = &self.contains {
            if found < contains.min {
                let minimum = contains.min;
                valid &= walk.fail_with::<S>(
                    at,
                    *named,
                    || (Assertion::MinContains(minimum), Actual::Size(found)).into(),
                    None,
                )?;
            } else if let Some(max) = contains.max.filter(|max| found > *max) {
                valid &= walk.fail_with::<S>(
                    at,
                    *named,
                    || (Assertion::MaxContains(max), Actual::Size(found)).into(),
                    None,
                )?;
            }
        }
        Ok(valid)
    }
}

impl Contains {
    /// Whether `list` has as many items valid against the node as the bounds ask, counted
    /// until the answer is known.
    fn holds_in<'a, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        list: V,
    ) -> Result<bool, Halt> {
        let mut found = 0_u64;
        for item in elements(list) {
            if walk.valid_part(self.node, item)? {
                found += 1;
                if self.settled(found) {
                    break;
                }
            }
        }
        Ok(found >= self.min && self.max.is_none_or(|max| found <= max))
    }

    /// Whether `found` matching items decide the answer, whatever the items left hold: past
    /// `maxContains`, or (without it) at `minContains`.
    fn settled(&self, found: u64) -> bool {
        match self.max {
            Some(max) => found > max,
            None => found >= self.min,
        }
    }
}
