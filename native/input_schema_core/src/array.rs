//! Array schemas: `items`, checked in the schema and then against each element.

use crate::arena::NodeId;
use crate::error::{Error, TypeLabel};
use crate::eval::Eval;
use crate::flow::{Flow, Halt};
use crate::json_schema::vocabulary::subset::Types;
use crate::names::type_name;
use crate::path::{Segment, Trail};
use crate::schema::{Compiler, Keyword, Keywords, Stop};
use crate::validate::Quick;
use crate::value::{Element, Kind, Value};

const LABEL: TypeLabel = TypeLabel {
    name: type_name::ARRAY,
    atom: false,
};

/// Following cons cells is cheap, but not free: a unit pays for 8 cells, which keeps a walk of
/// a huge list on a normal call's budget well within the time a normal scheduler may be held
/// (16 a unit came too near it).
const CELLS_PER_UNIT: u64 = 8;

#[derive(Debug)]
pub(crate) struct Array {
    items: Option<NodeId>,
}

impl Array {
    pub fn compile<'a, A: Copy + PartialEq, V: Value<'a, AtomKey = A>>(
        compiler: &mut Compiler<'_, A>,
        keywords: &Keywords<V>,
        trail: &Trail<'_>,
        depth: usize,
    ) -> Result<Self, Stop<V>> {
        keywords
            .reject(Types::ARRAY)
            .map_err(|error| Stop::Error(error, trail.schema_location()))?;
        let items = match keywords.get(Keyword::Items) {
            Some(schema) => Some(compiler.child(schema, trail, Segment::Items, depth)?),
            None => None,
        };
        Ok(Array { items })
    }

    /// Proper or improper: an improper one is refused by the walk below.
    pub fn admits(kind: Kind) -> bool {
        kind == Kind::List
    }

    /// A list; then each element in index order against `items`. The original validator
    /// crashed on an improper list under `items`; here such a list is not an array at all,
    /// which is decided before any element is looked at.
    pub fn check<'a, A: Copy + PartialEq, V: Value<'a, AtomKey = A>>(
        &self,
        eval: &mut Eval<'_, '_, V, A>,
        value: V,
        kind: Kind,
        trail: &Trail<'_>,
    ) -> Flow {
        let wrong_type = |path| Error::WrongType { path, type_: LABEL };
        if !Self::admits(kind) {
            return eval.fail_with(trail, 0, wrong_type);
        }
        let Some(items) = self.items else {
            return Ok(true);
        };
        let Some(length) = self.proper_length(eval, value)? else {
            return eval.fail_with(trail, 0, wrong_type);
        };
        // Each element costs at least its own check's unit.
        eval.require(length)?;
        let mut valid = true;
        for (index, element) in value.list_elements().enumerate() {
            if let Element::Item(item) = element {
                valid &= eval.check(items, item, &trail.child(Segment::Index(index)))?;
            }
        }
        Ok(valid)
    }

    /// The number of elements of a proper list, `None` for an improper one, at a unit per
    /// `CELLS_PER_UNIT` cells.
    fn proper_length<'a, A: Copy + PartialEq, V: Value<'a, AtomKey = A>>(
        &self,
        eval: &mut Eval<'_, '_, V, A>,
        value: V,
    ) -> Result<Option<u64>, Halt> {
        let mut length: u64 = 0;
        for element in value.list_elements() {
            if length.is_multiple_of(CELLS_PER_UNIT) {
                eval.spend(1)?;
            }
            if let Element::ImproperTail(_) = element {
                return Ok(None);
            }
            length += 1;
        }
        Ok(Some(length))
    }

    /// `check` for the quick walk.
    pub fn accepts<'a, A: Copy + PartialEq, V: Value<'a, AtomKey = A>>(
        &self,
        eval: &mut Eval<'_, '_, V, A>,
        value: V,
        kind: Kind,
    ) -> Quick {
        if !Self::admits(kind) {
            return Ok(false);
        }
        let Some(items) = self.items else {
            return Ok(true);
        };
        // On a budget, a list too long to finish gives up before its elements (see `check`).
        // Without one there is nothing to give up for, and an improper tail is met at the end:
        // the list is refused either way.
        if !eval.unlimited() {
            let Some(length) = self.proper_length(eval, value)? else {
                return Ok(false);
            };
            eval.require(length)?;
        }
        for element in value.list_elements() {
            let Element::Item(item) = element else {
                return Ok(false);
            };
            if !eval.accepts_child(items, item)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}
