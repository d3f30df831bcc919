//! The engine, in layers that import only downward: the compact node (`node`); each family's
//! check as data and the logic that needs no walk (`number`, `string`, `array`, `object`,
//! `equality`, `applicator`: the numeric, string, array and object keywords of a schema object
//! fused into one check each, `enum`, the in-place applicators); the program the profiles'
//! compilers make of them (`program`); and the one walk that runs a program (`walk`), generic
//! over what a failure does, with each family's walking in a file of its own beneath it.

pub mod applicator;
pub mod array;
pub mod equality;
pub mod node;
pub mod number;
pub mod object;
pub mod program;
pub mod string;
pub mod walk;

pub use program::{Node, NodeId, Program};
pub use walk::{Quick, Report, Walk};
