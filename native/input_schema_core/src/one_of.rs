//! `oneOf` schemas: only `oneOf` and `description`, a non-empty list of schema maps; a value must
//! satisfy exactly one branch.

use crate::arena::{Node, NodeId};
use crate::budget::{Budget, Exhausted};
use crate::error::Error;
use crate::eval::Eval;
use crate::flow::{Flow, Halt};
use crate::object::Object;
use crate::path::{Segment, Trail};
use crate::schema::{Compiler, Keyword, Keywords, Shape, Stop, SubsetNode};
use crate::validate::Quick;
use crate::value::{Element, Kind, Value};

#[derive(Debug)]
pub(crate) struct OneOf {
    branches: Vec<NodeId>,
    /// Per kind (at `Kind::slot`), the node of the one branch whose type check lets a value of
    /// that kind through, when exactly one does. Most oneOfs have one branch per type, and the
    /// quick walk then runs that branch alone. 32 bits keep every arena node small; a schema
    /// past them goes without (`sole` only saves work).
    sole: [Option<u32>; Kind::ALL.len()],
    /// Some branch holds an object with a property name that has no string form: every
    /// branch is run, as the replaced validator ran them, so that one that ends the call is
    /// reached after two have accepted.
    every_branch: bool,
}

impl OneOf {
    /// Sibling keys first (every key but oneOf/description, in map order), then the list, then
    /// each branch in list order.
    pub fn compile<'a, A: Copy + PartialEq, V: Value<'a, AtomKey = A>>(
        compiler: &mut Compiler<'_, A>,
        keywords: &Keywords<V>,
        branches: V,
        trail: &Trail<'_>,
        depth: usize,
    ) -> Result<Self, Stop<V>> {
        let fail = |error| Stop::Error(error, trail.schema_location());
        let siblings = keywords.siblings_of_one_of(compiler.budget)?;
        if !siblings.is_empty() {
            return Err(fail(Error::OneOfSiblings { keywords: siblings }));
        }
        let mut compiled = Vec::new();
        let unnamed_before = compiler.unnamed_objects;
        if branches.kind() == Kind::List {
            for (index, element) in branches.list_elements().enumerate() {
                let Element::Item(branch) = element else {
                    return Err(fail(Error::BadOneOf));
                };
                compiled.push(compiler.child(branch, trail, Segment::Branch(index), depth)?);
            }
        }
        if compiled.is_empty() {
            return Err(fail(Error::BadOneOf));
        }
        let sole = Kind::ALL.map(|kind| {
            let mut admitting = compiled.iter().enumerate().filter(|(_, branch)| {
                compiler
                    .get(**branch)
                    .is_some_and(|branch| branch.shape.admits(kind))
            });
            match (admitting.next(), admitting.next()) {
                (Some((_, id)), None) => u32::try_from(*id).ok(),
                _ => None,
            }
        });
        Ok(OneOf {
            branches: compiled,
            sole,
            every_branch: compiler.unnamed_objects > unnamed_before,
        })
    }

    /// Every branch runs quietly (its errors are discarded); exactly one must accept.
    pub fn check<'a, A: Copy + PartialEq, V: Value<'a, AtomKey = A>>(
        &self,
        eval: &mut Eval<'_, '_, V, A>,
        value: V,
        kind: Kind,
        trail: &Trail<'_>,
    ) -> Flow {
        let mut accepted = 0;
        let nodes = eval.nodes();
        // A branch of another type fails on its type check, which is its first check.
        for branch in self.branches_admitting(nodes, kind) {
            match eval.quietly(|eval| eval.check_child_kind(branch, value, kind, trail)) {
                Ok(_) => accepted += 1,
                Err(Halt::Failed) => {}
                Err(halt) => return Err(halt),
            }
            if accepted > 1 && !self.every_branch {
                break;
            }
        }
        if accepted == 1 {
            Ok(true)
        } else {
            eval.fail_with(trail, 0, |path| Error::OneOfMismatch { path })
        }
    }

    /// The one branch whose type check lets a value of this kind through, when exactly one does.
    #[inline(always)]
    pub fn sole_branch<'n, A>(
        &self,
        nodes: &'n [Node<A>],
        kind: Kind,
    ) -> Option<&'n SubsetNode<A>> {
        self.sole
            .get(kind.slot())
            .copied()
            .flatten()
            .and_then(|id| nodes.get(id as usize))
            .and_then(Node::as_subset)
    }

    /// The branches whose type check lets a value of this kind through.
    fn branches_admitting<'n, A: Copy + PartialEq>(
        &'n self,
        nodes: &'n [Node<A>],
        kind: Kind,
    ) -> impl Iterator<Item = &'n SubsetNode<A>> {
        self.branches
            .iter()
            .filter_map(|id| nodes.get(*id).and_then(Node::as_subset))
            .filter(move |branch| branch.shape.admits(kind))
    }

    /// The branch a map goes to, when it is a plain object schema (no `enum`).
    #[inline(always)]
    pub fn sole_object<'n, A>(&self, nodes: &'n [Node<A>]) -> Option<&'n Object<A>> {
        match self.sole_branch(nodes, Kind::Map) {
            Some(SubsetNode {
                shape: Shape::Object(object),
                choices: None,
            }) => Some(object),
            _ => None,
        }
    }

    /// `check` for the quick walk: exactly one branch accepts, and every branch's answer is
    /// certain.
    pub fn accepts<'a, A: Copy + PartialEq, V: Value<'a, AtomKey = A>>(
        &self,
        eval: &mut Eval<'_, '_, V, A>,
        value: V,
        kind: Kind,
    ) -> Quick {
        let nodes = eval.nodes();
        // The usual case, one branch per type: that branch's answer is the answer.
        if let Some(branch) = self.sole_branch(nodes, kind) {
            return eval.accepts_child_kind(branch, value, kind);
        }
        let mut accepted = 0;
        for branch in self.branches_admitting(nodes, kind) {
            accepted += usize::from(eval.accepts_child_kind(branch, value, kind)?);
            if accepted > 1 {
                break;
            }
        }
        Ok(accepted == 1)
    }
}

impl<'a, V: Value<'a>> Keywords<V> {
    /// Every key but those whose string form is `oneOf` or `description`, in map order.
    fn siblings_of_one_of(&self, budget: &mut Budget) -> Result<Vec<V>, Exhausted> {
        let mut siblings = Vec::new();
        for (key, _) in self.entries() {
            if !Keyword::of_key(key, budget)?.is_some_and(Keyword::beside_one_of) {
                siblings.push(key);
            }
        }
        Ok(siblings)
    }
}
