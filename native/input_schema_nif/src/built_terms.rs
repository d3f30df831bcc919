//! Maps and lists made without gathering their terms in vectors: rustler's
//! `Term::map_from_term_arrays` and its list encoders copy the terms into fresh vectors first,
//! an allocation and a copy for every map and list an answer or a decoded text holds.

use crate::atoms;
use crate::long_calls;
use crate::written;
use rustler::sys::{enif_make_map_from_arrays, ErlNifTerm};
use rustler::{Env, Term};

/// The map of `keys` and `values`: `None` when a key repeats or the two differ in length.
///
/// # Safety
/// Every word of `keys` and `values` is a term of `env`.
pub unsafe fn map_from_words<'a>(
    env: Env<'a>,
    keys: &[ErlNifTerm],
    values: &[ErlNifTerm],
) -> Option<Term<'a>> {
    if keys.len() != values.len() {
        return None;
    }
    if !long_calls::may_make_map(keys.len()) {
        // A stand-in: the call's answer is thrown away and the call made again elsewhere.
        return Some(atoms::nil().to_term(env));
    }
    // SAFETY: `keys` and `values` are terms of `env` (this function's contract), each array
    // as long as the count given; the VM writes the map where it answers non-zero, a term it
    // made in `env`.
    unsafe {
        let map = written::one(|map| {
            enif_make_map_from_arrays(
                env.as_c_arg(),
                keys.as_ptr(),
                values.as_ptr(),
                keys.len(),
                map,
            )
        })?;
        Some(Term::new(env, map))
    }
}

/// The list of `items`, in their order: made from its end, one cell at a time.
pub fn list_of<'a>(env: Env<'a>, items: impl DoubleEndedIterator<Item = Term<'a>>) -> Term<'a> {
    items.rev().fold(Term::list_new_empty(env), |tail, item| {
        tail.list_prepend(item)
    })
}
