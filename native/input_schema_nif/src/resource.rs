//! The resource type of compiled schemas, opened by this crate rather than through rustler's
//! `Resource` trait: rustler finds a type's handle in a `HashMap` keyed by `TypeId` on every
//! lookup, which was a tenth of a whole compiled call. Here the handle is read from a static.

use crate::written;
use input_schema_core::Compiled;
use rustler::sys::{
    enif_alloc_resource, enif_get_resource, enif_make_resource, enif_open_resource_type,
    enif_release_resource, ErlNifEnv, ErlNifResourceFlags, ErlNifResourceType,
};
use rustler::{Env, Term};
use std::ffi::c_void;
use std::mem::{align_of, size_of};
use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

/// A checked schema of either profile, shared read-only between processes.
pub type CompiledSchema = Compiled;

// The VM shares a compiled schema between processes and frees it on any thread.
const _: () = {
    const fn shared<T: Send + Sync>() {}
    shared::<CompiledSchema>()
};

/// Set once by `open` while the library loads, before any NIF can run.
static COMPILED_TYPE: AtomicPtr<ErlNifResourceType> = AtomicPtr::new(ptr::null_mut());

/// The VM's allocation holds one `CompiledSchema` at the first suitably aligned address.
const ALLOCATION_SIZE: usize = size_of::<CompiledSchema>() + align_of::<CompiledSchema>();

/// Where the schema sits inside an allocation of `ALLOCATION_SIZE` bytes at `object`.
fn place(object: *mut c_void) -> *mut CompiledSchema {
    let offset = object.align_offset(align_of::<CompiledSchema>());
    object.wrapping_add(offset).cast()
}

/// Runs when the last reference to a compiled schema is gone, on whichever scheduler collects
/// it: a large schema is freed on a thread of its own.
unsafe extern "C" fn destructor(_env: *mut ErlNifEnv, object: *mut c_void) {
    // SAFETY: every object of this type was initialised by `make` and is destroyed once: it
    // is moved out here, and the VM frees its allocation once this returns.
    let schema = unsafe { ptr::read(place(object)) };
    if schema.parts() > FREED_HERE_PARTS_MAX {
        free_elsewhere(schema);
    }
}

/// The most nodes and checks a schema may hold to be freed where it is collected: freeing
/// costs in proportion to them, and a larger one would hold the scheduler longer than a small
/// call's whole run (figures in `docs/limits.md`).
const FREED_HERE_PARTS_MAX: usize = 1024;

/// The most threads freeing schemas at once; past it a schema is freed where it is.
const FREEING_THREADS_MAX: usize = 8;

/// Threads freeing schemas now.
static FREEING: AtomicUsize = AtomicUsize::new(0);

/// Frees `schema` on a thread of its own, or here when none can take it.
fn free_elsewhere(schema: CompiledSchema) {
    if FREEING.fetch_add(1, Ordering::AcqRel) >= FREEING_THREADS_MAX {
        FREEING.fetch_sub(1, Ordering::AcqRel);
        return drop(schema);
    }
    // The schema moves into the thread; if none starts, the closure that holds it is dropped
    // with the error, which frees it here.
    let spawned = std::thread::Builder::new()
        .name("input_schema_free".into())
        .spawn(move || {
            drop(schema);
            FREEING.fetch_sub(1, Ordering::AcqRel);
        });
    if spawned.is_err() {
        FREEING.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Opens the resource type while the library loads; `false` if the VM refused.
pub fn open(env: Env<'_>) -> bool {
    let mut tried = ErlNifResourceFlags::ERL_NIF_RT_CREATE;
    // SAFETY: called from the load callback with its env; the name is NUL-terminated.
    let handle = unsafe {
        enif_open_resource_type(
            env.as_c_arg(),
            ptr::null(),
            c"InputSchema.Compiled".as_ptr(),
            Some(destructor),
            ErlNifResourceFlags::ERL_NIF_RT_CREATE,
            &mut tried,
        )
    };
    COMPILED_TYPE.store(handle.cast_mut(), Ordering::Release);
    !handle.is_null()
}

/// A new resource term holding `schema`; `None` if the VM could not allocate it.
pub fn make(env: Env<'_>, schema: CompiledSchema) -> Option<Term<'_>> {
    let handle = COMPILED_TYPE.load(Ordering::Acquire);
    if handle.is_null() {
        return None;
    }
    // SAFETY: a type opened by `open`; the allocation is large enough for one aligned
    // `CompiledSchema`, which is written before the term is made. Releasing our reference
    // leaves the term's, so the garbage collector frees the schema with the last term.
    unsafe {
        let object = enif_alloc_resource(handle, ALLOCATION_SIZE);
        if object.is_null() {
            return None;
        }
        ptr::write(place(object), schema);
        let term = enif_make_resource(env.as_c_arg(), object);
        enif_release_resource(object);
        Some(Term::new(env, term))
    }
}

/// The compiled schema in `term`, if it is a resource of this type.
///
/// Borrowed, not counted: the term holds the resource alive for the whole call, and taking and
/// dropping a counted reference costs as much as a small validation.
pub fn get<'a>(term: Term<'a>) -> Option<&'a CompiledSchema> {
    let handle = COMPILED_TYPE.load(Ordering::Acquire);
    if handle.is_null() {
        return None;
    }
    // SAFETY: a term of its env; the VM writes the object where it answers non-zero, only
    // when the term is a resource of this type, which `make` initialised and which lives as
    // long as the term ('a).
    unsafe {
        let object: *const c_void = written::one(|object| {
            enif_get_resource(term.get_env().as_c_arg(), term.as_c_arg(), handle, object)
        })?;
        Some(&*place(object.cast_mut()))
    }
}
