//! What bounds and carries any walk: the work budget and its prices (`budget`), the stack guard
//! that moves deep walks onto fresh segments (`stack`), and what a step answers, valid or not or
//! why the walk stopped (`halt`).

pub(crate) mod budget;
pub(crate) mod halt;
pub(crate) mod stack;
