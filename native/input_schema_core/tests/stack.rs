//! The deepest schemas the contract allows run on a small stack: the walks check the stack
//! every few levels and continue on a fresh segment when it runs low, so the levels between
//! two checks must fit in the red zone. Run in the test profile, whose frames are larger than
//! the release build's.

#![allow(clippy::unwrap_used, clippy::panic)]

use input_schema_core::serde::Json;
use input_schema_core::{compile, Budget, Failure, Mode, MAX_DEPTH};
use serde_json::{json, Value};

/// About what a dirty CPU scheduler has (40 kilowords).
const SMALL_STACK: usize = 320 * 1024;
const LARGE_STACK: usize = 256 * 1024 * 1024;
/// Just above the red zone: a few hundred levels of any walk take a fresh segment.
const TINY_STACK: usize = 160 * 1024;

fn nested(levels: usize, wrap: impl Fn(Value) -> Value) -> Value {
    (0..levels).fold(json!({"type": "string"}), |inner, _| wrap(inner))
}

#[test]
fn the_deepest_schemas_compile_and_validate_on_a_small_stack() {
    // The values are built and dropped on a large stack: serde_json's drop recurses, and so
    // does a compiled schema's.
    std::thread::Builder::new()
        .stack_size(LARGE_STACK)
        .spawn(walk_the_deepest_schemas)
        .unwrap()
        .join()
        .unwrap();
}

fn walk_the_deepest_schemas() {
    let levels = MAX_DEPTH - 1;
    let shapes: [(Value, Value, Value); 3] = [
        (
            nested(
                levels,
                |inner| json!({"type": "object", "properties": {"a": inner}}),
            ),
            (0..levels).fold(json!("x"), |inner, _| json!({"a": inner})),
            (0..levels).fold(json!(1), |inner, _| json!({"a": inner})),
        ),
        (
            nested(levels, |inner| json!({"type": "array", "items": inner})),
            (0..levels).fold(json!("x"), |inner, _| json!([inner])),
            (0..levels).fold(json!(1), |inner, _| json!([inner])),
        ),
        (
            nested(levels, |inner| json!({"oneOf": [inner]})),
            json!("x"),
            json!(1),
        ),
    ];
    for (schema, valid, invalid) in shapes {
        let schema = json!({"type": "object", "properties": {"a": schema}});
        let valid = json!({ "a": valid });
        let invalid = json!({ "a": invalid });
        let _compiled = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(SMALL_STACK)
                .spawn_scoped(scope, || {
                    let compiled = compile(Json::from(&schema), &mut Budget::unlimited())
                        .unwrap_or_else(|_| panic!("a schema of {levels} levels was refused"));
                    let all = Mode::All { max_errors: 10 };
                    assert!(compiled
                        .validate(Json::from(&valid), all, &mut Budget::unlimited())
                        .is_ok());
                    assert!(compiled
                        .validate(Json::from(&invalid), all, &mut Budget::unlimited())
                        .is_err());
                    assert!(compiled
                        .validate(Json::from(&invalid), Mode::First, &mut Budget::unlimited())
                        .is_err());
                    compiled
                })
                .unwrap()
                .join()
                .unwrap()
        });
    }
}

#[test]
fn a_budgeted_walk_gives_up_rather_than_take_a_fresh_stack_segment() {
    // Mapping a segment and faulting in its pages costs hundreds of microseconds: on a
    // normal scheduler's budget the call stops and is repeated on a dirty scheduler.
    std::thread::Builder::new()
        .stack_size(LARGE_STACK)
        .spawn(|| {
            let levels = MAX_DEPTH - 1;
            let schema = json!({"type": "object", "properties": {
                "a": nested(levels, |inner| json!({"oneOf": [inner]}))
            }});
            let arguments = json!({"a": "x"});
            std::thread::scope(|scope| {
                std::thread::Builder::new()
                    .stack_size(TINY_STACK)
                    .spawn_scoped(scope, || {
                        // 999 levels cost under 8,000 units: only the segment exhausts 10,000.
                        let budgeted = compile(Json::from(&schema), &mut Budget::new(10_000));
                        assert!(matches!(budgeted, Err(Failure::Exhausted)));
                        let compiled = compile(Json::from(&schema), &mut Budget::unlimited())
                            .unwrap_or_else(|_| panic!("refused"));
                        let budgeted = compiled.validate(
                            Json::from(&arguments),
                            Mode::First,
                            &mut Budget::new(10_000),
                        );
                        assert!(matches!(budgeted, Err(Failure::Exhausted)));
                        assert!(compiled
                            .validate(
                                Json::from(&arguments),
                                Mode::First,
                                &mut Budget::unlimited()
                            )
                            .is_ok());
                        compiled
                    })
                    .unwrap()
                    .join()
                    .unwrap()
            });
        })
        .unwrap()
        .join()
        .unwrap();
}
