//! Validating the reference tools' valid calls against compiled schemas allocates nothing, in
//! the subset and in the JSON Schema modes: arguments are read in place and nothing is copied
//! on the success path.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use input_schema_core::json_schema::{Dialect, Options};
use input_schema_core::serde::Json;
use input_schema_core::{compile, Budget, Mode, Profile};
use serde_json::Value;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts allocations made by the current thread (tests run on several threads).
struct CountingAllocator;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|count| count.set(count.get() + 1));
        // SAFETY: forwards the caller's layout unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: the pointer came from `alloc` above with this layout.
        unsafe { System.dealloc(pointer, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

fn read(name: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The reference calls expected to pass: each tool's input schema, the call's arguments, and
/// a label.
fn valid_calls() -> Vec<(Value, Value, String)> {
    let tools = read("reference_tools.json");
    let calls = read("reference_calls.json");
    let calls: Vec<_> = calls["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|call| call["expect"] == "ok")
        .map(|call| {
            let tool = tools["tools"]
                .as_array()
                .unwrap()
                .iter()
                .find(|tool| tool["name"] == call["tool"])
                .unwrap();
            let label = format!("{} / {}", call["tool"], call["name"]);
            (
                tool["inputSchema"].clone(),
                call["arguments"].clone(),
                label,
            )
        })
        .collect();
    assert!(calls.len() >= 20, "only {} valid calls", calls.len());
    calls
}

/// Allocations made by `call`'s second run (the first may set up the stack-limit bookkeeping
/// of this thread).
fn allocations_of(mut call: impl FnMut()) -> u64 {
    call();
    let before = allocations();
    call();
    allocations() - before
}

#[test]
fn valid_reference_calls_allocate_nothing() {
    for (source, arguments, label) in valid_calls() {
        let schema = compile(Json::from(&source), &mut Budget::unlimited()).unwrap();
        let arguments = Json::from(&arguments);
        let allocated = allocations_of(|| {
            let result = schema.validate(arguments, Mode::First, &mut Budget::unlimited());
            assert!(result.is_ok(), "{label}");
        });
        assert_eq!(allocated, 0, "{label} allocated");
    }
}

#[test]
fn valid_reference_calls_allocate_nothing_in_the_json_modes() {
    for dialect in [Dialect::Draft2020_12, Dialect::Draft7] {
        for (source, arguments, label) in valid_calls() {
            let no_documents = |_: &str| None;
            let schema = Profile::Json(Options::new(dialect))
                .compile(Json::from(&source), &no_documents, &mut Budget::unlimited())
                .unwrap();
            let arguments = Json::from(&arguments);
            for mode in [Mode::First, Mode::All { max_errors: 100 }] {
                let allocated = allocations_of(|| {
                    let result = schema.validate(arguments, mode, &mut Budget::unlimited());
                    let quick = schema.is_valid(arguments, &mut Budget::unlimited());
                    assert!(result.is_ok() && quick.unwrap(), "{label}");
                });
                assert_eq!(allocated, 0, "{dialect:?} {mode:?}: {label} allocated");
            }
        }
    }
}

#[test]
fn the_counter_sees_allocations() {
    let before = allocations();
    let boxed = std::hint::black_box(Box::new(7_u64));
    assert!(allocations() > before);
    drop(boxed);
}
