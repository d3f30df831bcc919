//! Validating the reference tools' valid calls against compiled schemas allocates nothing, in
//! the subset and in the JSON Schema modes: arguments are read in place and nothing is copied
//! on the success path.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use input_schema_core::json_schema::{self, Dialect, Options};
use input_schema_core::serde::Json;
use input_schema_core::{compile, Budget, Mode};
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

#[test]
fn valid_reference_calls_allocate_nothing() {
    let tools = read("reference_tools.json");
    let calls = read("reference_calls.json");
    let mut checked = 0;
    for call in calls["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|call| call["expect"] == "ok")
    {
        let tool = tools["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|tool| tool["name"] == call["tool"])
            .unwrap();
        let schema = compile(Json::from(&tool["inputSchema"]), &mut Budget::unlimited()).unwrap();
        let arguments = Json::from(&call["arguments"]);
        // The first call may set up the stack-limit bookkeeping of this thread.
        schema
            .validate(arguments, Mode::First, &mut Budget::unlimited())
            .unwrap();
        let before = allocations();
        let result = schema.validate(arguments, Mode::First, &mut Budget::unlimited());
        let after = allocations();
        assert!(result.is_ok(), "{} / {}", call["tool"], call["name"]);
        assert_eq!(
            after - before,
            0,
            "{} / {} allocated",
            call["tool"],
            call["name"]
        );
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} valid calls");
}

#[test]
fn valid_reference_calls_allocate_nothing_in_the_json_modes() {
    let tools = read("reference_tools.json");
    let calls = read("reference_calls.json");
    let no_documents = |_: &str| None;
    for dialect in [Dialect::Draft2020_12, Dialect::Draft7] {
        let mut checked = 0;
        for call in calls["calls"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|call| call["expect"] == "ok")
        {
            let tool = tools["tools"]
                .as_array()
                .unwrap()
                .iter()
                .find(|tool| tool["name"] == call["tool"])
                .unwrap();
            let schema = json_schema::compile(
                Json::from(&tool["inputSchema"]),
                &no_documents,
                Options::new(dialect),
                &mut Budget::unlimited(),
            )
            .unwrap();
            let arguments = Json::from(&call["arguments"]);
            for (label, mode) in [
                ("first", Mode::First),
                ("all", Mode::All { max_errors: 100 }),
            ] {
                // The first call may set up the stack-limit bookkeeping of this thread.
                schema
                    .validate(arguments, mode, &mut Budget::unlimited())
                    .unwrap();
                let before = allocations();
                let result = schema.validate(arguments, mode, &mut Budget::unlimited());
                let quick = schema
                    .is_valid(arguments, &mut Budget::unlimited())
                    .unwrap();
                let after = allocations();
                assert!(
                    result.is_ok() && quick,
                    "{} / {}",
                    call["tool"],
                    call["name"]
                );
                assert_eq!(
                    after - before,
                    0,
                    "{dialect:?} {label}: {} / {} allocated",
                    call["tool"],
                    call["name"]
                );
            }
            checked += 1;
        }
        assert!(checked >= 20, "only {checked} valid calls");
    }
}

#[test]
fn the_counter_sees_allocations() {
    let before = allocations();
    let boxed = std::hint::black_box(Box::new(7_u64));
    assert!(allocations() > before);
    drop(boxed);
}
