//! `top_k_into` over `f32`, exported from a `wasm32-unknown-unknown` module with no allocator
//! and no imports: the caller places the row and the two output buffers in the module's
//! memory (past `__heap_base`, which nothing else uses) and passes their addresses.
//! `wasm/check.mjs` calls it from node and checks its answers against an oracle.

#![no_std]

use core::slice;

use tinytopk::{top_k_into, Error};

/// The call succeeded: the outputs hold the `k` best entries, best first.
pub const OK: u32 = 0;
/// The row holds a NaN: its first position is written to `*nan_at`; nothing else is written.
pub const NOT_RANKABLE: u32 = 1;
/// `k > n`; nothing is written.
pub const K_TOO_LARGE: u32 = 2;
/// Any other error (the row is longer than `u32` indices can name); nothing is written.
pub const OTHER: u32 = 3;

/// Writes the `k` best entries of the `n` values at `x` to `idx` and `val` (each `k` long),
/// best first, and returns [`OK`]; or returns an error code and writes nothing but, for
/// [`NOT_RANKABLE`], the position of the first NaN to `*nan_at`.
///
/// # Safety
///
/// `x` must be valid for reads of `n` values, `idx` and `val` for writes of `k` values each
/// and `nan_at` for one write, every pointer aligned for its type (even when its length is 0),
/// and the four regions must not overlap.
#[no_mangle]
pub unsafe extern "C" fn topk_f32(
    x: *const f32,
    n: usize,
    idx: *mut u32,
    val: *mut f32,
    k: usize,
    nan_at: *mut u32,
) -> u32 {
    // SAFETY: the caller promises valid, aligned, non-overlapping regions of these lengths.
    let (x, idx, val) = unsafe {
        (
            slice::from_raw_parts(x, n),
            slice::from_raw_parts_mut(idx, k),
            slice::from_raw_parts_mut(val, k),
        )
    };
    match top_k_into(x, idx, val) {
        Ok(()) => OK,
        Err(Error::NotRankable { index }) => {
            // SAFETY: the caller promises `nan_at` valid and aligned for one write. The index
            // is below `n`, which fits in a wasm32 usize, so in a u32.
            unsafe { nan_at.write(index as u32) };
            NOT_RANKABLE
        }
        Err(Error::KTooLarge { .. }) => K_TOO_LARGE,
        Err(_) => OTHER,
    }
}

/// The crate never panics; should this module ever, it traps.
#[cfg(target_arch = "wasm32")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}
