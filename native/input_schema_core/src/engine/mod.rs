//! The engine: compact nodes whose checks the profiles' compilers choose (`program`), and the
//! one walk that runs them (`walk`), generic over what a failure does. Each family of checks
//! has its file: the numeric, string, array and object keywords of a schema object fused into
//! one check each, the in-place applicators, `unevaluated*`, `enum`.

pub mod applicator;
pub mod array;
pub mod equality;
pub mod number;
pub mod object;
pub mod program;
pub mod string;
pub mod unevaluated;
pub mod walk;

pub use program::{Node, NodeId, Program};
pub use walk::{Quick, Report, Walk};
