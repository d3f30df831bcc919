//! The walk of the checks that apply schemas to the value in place: `$ref` and `$dynamicRef`,
//! `allOf`, `anyOf`, `oneOf`, `not` and `if`/`then`/`else`. `anyOf`, `oneOf` and `not` report
//! their own error, which for `anyOf` and `oneOf` carries their failed branches' first errors.

use crate::engine::applicator::{class_of, Branches, Tag, MASKED_BRANCHES};
use crate::engine::node::{types, Named, Node, Shortcut};
use crate::engine::program::Check;
use crate::engine::walk::{Found, Report, Sink, Walk};
use crate::names::keywords::name;
use crate::report::error::{
    listed_value, Actual, Assertion, Failed, TagMiss, MAX_BRANCH_ERRORS, MAX_LISTED_BYTES,
};
use crate::report::path::{Key, Step, WalkPath};
use crate::values::literal::get_by_str;
use crate::values::literal::Literal;
use crate::values::value::Value;
use crate::values::value::{AtomKind, Kind};
use crate::work::halt::{Flow, Halt};

impl Branches {
    /// How many branches accept `value`, whose type is `found`, counting no further than
    /// `enough`: only the branches its type allows are run.
    #[inline(always)]
    pub(crate) fn count<'a, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        value: V,
        found: Found,
        enough: usize,
    ) -> Result<usize, Halt> {
        let class = class_of(found.bits);
        if self.tag.is_none() || found.bits != types::OBJECT {
            if let Some(&Some((branch, shortcut))) = self.sole.get(class) {
                // One branch in play: its answer is the count, decided on the type the value
                // was found to have where the branch allows (a float's integrality is asked by
                // the branch itself).
                let held = match shortcut {
                    Shortcut::Types(wanted) if found.bits != types::NUMBER => {
                        walk.budget.spend(1)?;
                        walk.types_hold_found(wanted, found)
                    }
                    Shortcut::Object { check, cost }
                        if found.bits == types::OBJECT && !walk.program.guarded =>
                    {
                        match walk.decide_object(branch, check, cost, value, found.size()) {
                            Err(Halt::Failed) => false,
                            held => held?,
                        }
                    }
                    _ => walk.valid_found(branch, value, found)?,
                };
                return Ok(usize::from(held));
            }
        }
        self.count_candidates(walk, value, (found, class), enough)
    }

    /// `count` of the branches in play when there are several, or a tag may tell them apart.
    #[inline(never)]
    fn count_candidates<'a, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        value: V,
        (found, class): (Found, usize),
        enough: usize,
    ) -> Result<usize, Halt> {
        let mut candidates = self.candidates.get(class).copied().unwrap_or(u32::MAX);
        if let (Some(tag), types::OBJECT) = (&self.tag, found.bits) {
            walk.budget.spend_lookup(tag.name.len())?;
            let text = get_by_str(value, &tag.name).and_then(|tag| tag.binary());
            walk.budget
                .spend_search(tag.len(), text.map_or(0, <[u8]>::len))?;
            candidates &= tag.candidates(text);
        }
        let mut counted = 0;
        for (index, branch) in self.nodes.iter().enumerate() {
            if index < MASKED_BRANCHES && candidates & (1 << index) == 0 {
                continue;
            }
            if walk.valid_found(*branch, value, found)? {
                counted += 1;
                if counted >= enough && !self.every {
                    break;
                }
            }
        }
        Ok(counted)
    }

    /// The error of an `anyOf` (`one_of` none) or `oneOf` (`one_of`: how many branches the
    /// quick count found, 0 or 2) that `value` failed, made only by the reporting walk: a
    /// `oneOf`'s message says whether no branch or several matched. Outside a branch's own
    /// report, a `oneOf` names the branches that matched, and where none did, each failed
    /// branch's first error is carried (`MAX_BRANCH_ERRORS` at most); within one, the walks
    /// that would take are left out, so that nested branches cost no more than the count did.
    #[cold]
    #[inline(never)]
    fn report<'a, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        value: V,
        named: Named,
        path: &WalkPath<'_>,
        one_of: Option<usize>,
    ) -> Flow {
        if !walk.reports_branches {
            let assertion = match one_of {
                None => Assertion::AnyOf,
                Some(0) => Assertion::OneOf,
                Some(_) => Assertion::OneOfSeveral,
            };
            return walk.fail_branches(path, named, assertion.into(), Vec::new());
        }
        if let Some(counted @ 2..) = one_of {
            // Several matched: which, rather than why the others failed.
            let mut matched = Vec::with_capacity(counted);
            for (index, branch) in self.nodes.iter().enumerate() {
                if walk.valid(*branch, value)? {
                    matched.push(index);
                }
            }
            let failed = (Assertion::OneOfSeveral, Actual::Matched(matched.into()));
            return walk.fail_branches(path, named, failed.into(), Vec::new());
        }
        let mut in_play = u32::MAX;
        if let Some(tag) = &self.tag {
            match self.report_by_tag(tag, walk, value, named, path)? {
                ByTag::Reported(flow) => return Ok(flow),
                ByTag::Branches(branches) => in_play = branches,
                ByTag::Undecided => {}
            }
        }
        // No branch matched (the count asked every one): the first error of each, of those
        // the tag left in play.
        let mut errors = Vec::new();
        let branches = self.nodes.iter().enumerate();
        let in_play =
            branches.filter(|(index, _)| *index >= MASKED_BRANCHES || in_play & (1 << index) != 0);
        for (index, branch) in in_play.take(MAX_BRANCH_ERRORS) {
            let here = path.then(Step::Into {
                keyword: named.token,
                key: Key::Index(index),
                argument: None,
            });
            if let Some(error) = walk.first_error(*branch, value, &here)? {
                errors.push((index, error));
            }
        }
        let failed: Failed = match one_of {
            None => Assertion::AnyOf.into(),
            Some(_) => (Assertion::OneOf, Actual::Matched(Box::default())).into(),
        };
        walk.fail_branches(path, named, failed, errors)
    }

    /// The report of an object that no branch accepted, where the tag decides every branch
    /// (the JSON modes' discriminated unions): a tag that picks no branch is one error naming
    /// the tag property and the tags allowed; a tag that picks one branch gets that branch's
    /// own errors, as though it stood alone; a tag that picks several leaves those to report.
    fn report_by_tag<'a, V: Value<'a>>(
        &self,
        tag: &Tag,
        walk: &mut Walk<'_, '_, V>,
        value: V,
        named: Named,
        path: &WalkPath<'_>,
    ) -> Result<ByTag, Halt> {
        if tag.decided() != u32::MAX || value.map_size().is_none() {
            return Ok(ByTag::Undecided);
        }
        walk.budget.spend_lookup(tag.name.len())?;
        let given = get_by_str(value, &tag.name);
        let text = given.and_then(|tag| tag.binary());
        walk.budget
            .spend_search(tag.len(), text.map_or(0, <[u8]>::len))?;
        let objects = self.candidates.get(class_of(types::OBJECT)).copied();
        let in_play = tag.candidates(text) & objects.unwrap_or(u32::MAX);
        if in_play == 0 {
            let miss = TagMiss {
                property: tag.name.clone(),
                allowed: tag.listing().clone(),
                actual: given.and_then(listed_scalar),
            };
            let failed = Assertion::Tag(Box::new(miss)).into();
            return walk
                .fail_branches(path, named, failed, Vec::new())
                .map(ByTag::Reported);
        }
        if in_play.count_ones() > 1 {
            return Ok(ByTag::Branches(in_play));
        }
        let index = in_play.trailing_zeros() as usize;
        let Some(branch) = self.nodes.get(index) else {
            return Ok(ByTag::Undecided);
        };
        let here = path.then(Step::Into {
            keyword: named.token,
            key: Key::Index(index),
            argument: None,
        });
        let before = walk.errors().len();
        let flow = walk.visit::<Report>(*branch, value, &here);
        match flow {
            // The branch found no error of its own: the usual report says what it can.
            Ok(_) if walk.errors().len() == before => Ok(ByTag::Branches(in_play)),
            Ok(valid) => Ok(ByTag::Reported(valid)),
            Err(halt) => Err(halt),
        }
    }
}

/// A scalar of the arguments as an error lists it (`listed_value`): a short string, a number
/// of a few words, a boolean or null.
fn listed_scalar<'a, V: Value<'a>>(value: V) -> Option<Literal> {
    let literal = match value.kind() {
        Kind::Binary => Literal::String(std::str::from_utf8(value.binary()?).ok()?.into()),
        Kind::Integer | Kind::Float => Literal::Number(value.number()?),
        Kind::Atom(AtomKind::Nil) => Literal::Null,
        Kind::Atom(AtomKind::True) => Literal::Bool(true),
        Kind::Atom(AtomKind::False) => Literal::Bool(false),
        _ => return None,
    };
    match &literal {
        Literal::Number(number) if number.byte_size() > MAX_LISTED_BYTES => None,
        _ => listed_value(&literal),
    }
}

/// What a tag makes of a report.
enum ByTag {
    /// The errors are recorded; the walk goes on (`Ok`) as this says.
    Reported(bool),
    /// The branches left in play, as bits, for the usual report.
    Branches(u32),
    /// The tag has no say.
    Undecided,
}

impl<'a, V: Value<'a>> Walk<'_, '_, V> {
    /// One in-place check (or `unevaluated*`) of `node`, its check number `index`: the
    /// applicators' part of the walk's `check`, a method as every family's part is.
    pub(crate) fn apply_in_place<S: Sink>(
        &mut self,
        (node, index): (&Node, usize),
        check: &Check,
        named: Named,
        (value, found): (V, Found),
        at: &S::At<'_>,
    ) -> Flow {
        apply::<S, V>(self, (node, index), check, named, (value, found), at)
    }
}

fn apply<'a, S: Sink, V: Value<'a>>(
    walk: &mut Walk<'_, '_, V>,
    (node, index): (&Node, usize),
    check: &Check,
    named: Named,
    (value, found): (V, Found),
    at: &S::At<'_>,
) -> Flow {
    match check {
        Check::Ref(target) => walk.visit_target::<S>(*target, named.token, value, at),
        Check::DynamicRef(reference) => {
            let target = reference.target_in(walk.scope(), &walk.program.dynamic_anchors);
            walk.visit_target::<S>(target, named.token, value, at)
        }
        Check::AllOf(branches) => {
            let mut valid = true;
            for (position, branch) in branches.iter().enumerate() {
                let here = S::then(
                    at,
                    Step::Into {
                        keyword: named.token,
                        key: Key::Index(position),
                        argument: None,
                    },
                );
                valid &= walk.visit_in_place::<S>(*branch, value, &here)?;
            }
            Ok(valid)
        }
        Check::AnyOf(branches) if branches.count(walk, value, found, 1)? == 0 => {
            match S::path(at) {
                None => Err(Halt::Failed),
                Some(path) => branches.report(walk, value, named, path, None),
            }
        }
        Check::OneOf(branches) => match branches.count(walk, value, found, 2)? {
            1 => Ok(true),
            counted => match S::path(at) {
                None => Err(Halt::Failed),
                Some(path) => branches.report(walk, value, named, path, Some(counted)),
            },
        },
        Check::Not(negated) if walk.valid(*negated, value)? => {
            walk.fail::<S>(at, named, || Assertion::Not, None)
        }
        Check::If(conditional) => {
            let holds = walk.valid(conditional.condition, value)?;
            let Some(branch) = conditional.branch(holds) else {
                return Ok(true);
            };
            let here = S::then(
                at,
                Step::Into {
                    keyword: if holds { name::THEN } else { name::ELSE },
                    key: Key::None,
                    argument: None,
                },
            );
            walk.visit_in_place::<S>(branch, value, &here)
        }
        Check::UnevaluatedItems(_) | Check::UnevaluatedProperties(_) => {
            super::unevaluated::check::<S, V>(walk, (node, index), check, named, value, at)
        }
        Check::AnyOf(_) | Check::Not(_) => Ok(true),
        // The walk sends only the checks above here.
        _ => Err(crate::work::halt::broken()),
    }
}
