//! Values a VM function writes through pointers it is given, read back where it succeeded.
//!
//! The places are left unwritten before the call. Where a value was stored to the stack slot
//! just before a call that writes the slot through a pointer, the read right after the call
//! stalled on the AMD machine these were measured on, in some VMs and not in others (see the
//! reject section of docs/performance.md).

use std::ffi::c_int;
use std::mem::MaybeUninit;

/// What `call` writes through its one pointer, where it answers non-zero.
///
/// # Safety
///
/// `call` must have written a valid `T` through the pointer whenever it answers non-zero.
#[inline(always)]
pub unsafe fn one<T>(call: impl FnOnce(*mut T) -> c_int) -> Option<T> {
    let mut place = MaybeUninit::<T>::uninit();
    if call(place.as_mut_ptr()) == 0 {
        return None;
    }
    // SAFETY: written, as the caller promises for a non-zero answer.
    Some(unsafe { place.assume_init() })
}

/// What `call` writes through its two pointers, where it answers non-zero.
///
/// # Safety
///
/// `call` must have written a valid `T` and a valid `U` whenever it answers non-zero.
#[inline(always)]
pub unsafe fn two<T, U>(call: impl FnOnce(*mut T, *mut U) -> c_int) -> Option<(T, U)> {
    let (mut first, mut second) = (MaybeUninit::<T>::uninit(), MaybeUninit::<U>::uninit());
    if call(first.as_mut_ptr(), second.as_mut_ptr()) == 0 {
        return None;
    }
    // SAFETY: both written, as the caller promises for a non-zero answer.
    Some(unsafe { (first.assume_init(), second.assume_init()) })
}
