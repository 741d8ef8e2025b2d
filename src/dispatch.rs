//! The one dispatch point between the portable pre-filter and a copy of it compiled for a
//! wider vector unit, chosen at run time.
//!
//! The code is the same: [`heap::scan`](crate::heap::scan) is written so that it vectorizes
//! (fixed-size blocks, branch-free folds) and is `inline(always)`, so that a function compiled
//! with `#[target_feature(enable = "avx2")]` gets a copy with 256-bit vectors. Calling such a
//! function is `unsafe` (on a CPU without AVX2 it would be an illegal instruction), so this
//! module is the only one allowed `unsafe`, and calls it only after `std` has detected AVX2.
//! Without the `std` feature, or off x86-64, or under Miri, the portable code runs, compiled
//! for the build's own target features.
#![allow(unsafe_code)]

use crate::heap::{self, Storage};
use crate::Error;

/// [`heap::scan`], through the fastest copy this CPU can run.
#[inline]
pub(crate) fn scan<S: Storage>(heap: &mut S, start: u64, values: &[S::Value]) -> Result<(), Error> {
    #[cfg(all(
        feature = "std",
        target_arch = "x86_64",
        not(target_feature = "avx2"),
        not(miri)
    ))]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: `scan_avx2` only needs the CPU to have AVX2, which was just detected.
            return unsafe { scan_avx2(heap, start, values) };
        }
    }
    portable(heap, start, values)
}

/// The portable copy, compiled for the build's target features: what runs without `std`,
/// and what the tests force.
#[inline]
pub(crate) fn portable<S: Storage>(
    heap: &mut S,
    start: u64,
    values: &[S::Value],
) -> Result<(), Error> {
    heap::scan(heap, start, values)
}

/// [`heap::scan`] compiled with AVX2.
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(all(
    feature = "std",
    target_arch = "x86_64",
    not(target_feature = "avx2"),
    not(miri)
))]
#[target_feature(enable = "avx2")]
unsafe fn scan_avx2<S: Storage>(
    heap: &mut S,
    start: u64,
    values: &[S::Value],
) -> Result<(), Error> {
    heap::scan(heap, start, values)
}
