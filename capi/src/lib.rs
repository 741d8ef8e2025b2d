//! The C ABI of [`tinytopk`]: [`tl_topk_f32`], declared by the hand-written header
//! `capi/include/tinyllm/topk.h`, built as `libtinytopk_capi.a` and `libtinytopk_capi.so`.
//!
//! ```c
//! #include <tinyllm/topk.h>
//!
//! const float x[5] = {1, 3, 2, 3, -1};
//! int32_t idx[3];
//! float val[3];
//! tl_status s = tl_topk_f32(x, 5, 3, idx, val); /* TL_OK, idx {1, 3, 2}, val {3, 3, 2} */
//! ```
//!
//! # How it keeps the contract
//!
//! - **One selection.** The function checks what only a C caller can get wrong (signed
//!   lengths, NULL, misaligned or overlapping buffers, indices that must fit `int32_t`), turns
//!   the pointers into slices and calls [`tinytopk::top_k_into`], which checks the row for NaN
//!   and selects. No second implementation of the order or the heap.
//! - **`int32_t` indices with no copy.** The caller's `int32_t` buffer is viewed as `u32`
//!   (same size, same alignment, every bit pattern valid in both). The row is at most
//!   [`MAX_N`] = 2^31 long, so every index written is at most `i32::MAX` and its bits read
//!   back in C as the same, non-negative `int32_t`.
//! - **Nothing written on error, and no reference to uninitialised memory.** Every check here
//!   comes first; then `top_k_into` with k = 0 checks the row for NaN and writes nothing; only
//!   then are the outputs zeroed (C buffers may be fresh from `malloc`, and a Rust slice must
//!   hold initialised values) and filled. The row is thus read twice: the NaN check is a
//!   branch-free pass, small next to the selection.
//! - **No allocation, no panic.** Nothing here allocates, indexes or unwraps (the crate denies
//!   the clippy lints that would let it), and `tinytopk` promises neither allocation nor panic.
//!   The function is `extern "C"`, so even a panic from a bug could not unwind into C: since
//!   Rust 1.81 (this crate's minimum) it aborts the process. A `catch_unwind` would only turn
//!   such a bug into a status after the outputs may have been half written, so there is none.
//!
//! # Targets without an operating system
//!
//! The library links `std` for its panic handler where there is one. On a bare-metal target
//! (`target_os = "none"`, e.g. `thumbv7em-none-eabihf`) it provides a handler that halts, so
//! that `libtinytopk_capi.a` links into C firmware as it is.

#![no_std]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(
    clippy::arithmetic_side_effects,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::unwrap_used,
    clippy::undocumented_unsafe_blocks
)]

#[cfg(not(target_os = "none"))]
extern crate std;

use core::mem::size_of;
use core::slice;

/// What a call did: `tl_status` in the header.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TlStatus {
    /// `TL_OK`: done, the outputs hold the answer.
    Ok = 0,
    /// `TL_EINVAL`: an argument is invalid and nothing was written. 22 is `EINVAL` in
    /// `<errno.h>` on Linux, macOS and Windows.
    Einval = 22,
}

/// The longest row: 2^31 values, so that every index `0..n` fits in `int32_t`.
pub const MAX_N: i64 = i32::MAX as i64 + 1;

/// The k largest values of `x[0..n)` and their indices, best first, into `idx[0..k)` and
/// `val[0..k)`: [`tinytopk::top_k_into`] behind the C signature of `tinyllm/topk.h`.
///
/// Returns [`TlStatus::Einval`] and writes nothing when `n < 0`, `n > MAX_N`, `k < 0`,
/// `k > n`, a pointer the call would use (`x` when `n > 0`, `idx` and `val` when `k > 0`) is
/// null or misaligned, the used ranges overlap, or `x` holds a NaN (whatever `k` is).
///
/// # Safety
///
/// When `n > 0`, `x` must point to `n` readable `f32`; when `k > 0`, `idx` and `val` must
/// each point to `k` writable elements. No other thread may write these ranges during the
/// call. Null, misaligned and overlapping pointers are detected and rejected, as are all bad
/// lengths; what cannot be detected is a pointer to memory that is not there.
#[no_mangle]
pub unsafe extern "C" fn tl_topk_f32(
    x: *const f32,
    n: i64,
    k: i64,
    idx: *mut i32,
    val: *mut f32,
) -> TlStatus {
    // SAFETY: the caller's promises are this function's own (see `# Safety`).
    match unsafe { checked_top_k(x, n, k, idx, val) } {
        Some(()) => TlStatus::Ok,
        None => TlStatus::Einval,
    }
}

/// [`tl_topk_f32`] with `None` for every rejection: checks the arguments, then calls
/// `top_k_into`, which checks the row and only then writes.
///
/// # Safety
///
/// As [`tl_topk_f32`].
unsafe fn checked_top_k(x: *const f32, n: i64, k: i64, idx: *mut i32, val: *mut f32) -> Option<()> {
    if !(0..=MAX_N).contains(&n) || !(0..=n).contains(&k) {
        return None;
    }
    let n = usize::try_from(n).ok()?;
    let k = usize::try_from(k).ok()?;
    let x_bytes = Span::new(x, n)?;
    let idx_bytes = Span::new(idx.cast_const(), k)?;
    let val_bytes = Span::new(val.cast_const(), k)?;
    if x_bytes.overlaps(&idx_bytes)
        || x_bytes.overlaps(&val_bytes)
        || idx_bytes.overlaps(&val_bytes)
    {
        return None;
    }
    // SAFETY: `x_bytes` checked `x` (non-null and aligned when `n > 0`, and `n * 4` bytes
    // within `isize::MAX`); the caller promises `n` readable values that no one writes during
    // the call, and the two output ranges do not overlap them.
    let x = unsafe { Span::slice(x, n) };
    // The row is checked (NaN) by `top_k_into` with k = 0, which writes nothing: only then
    // may the outputs be written.
    tinytopk::top_k_into(x, &mut [], &mut []).ok()?;
    // SAFETY: `idx_bytes` and `val_bytes` checked the outputs as `x_bytes` did `x`; the caller
    // promises `k` writable places each, and the three ranges are pairwise disjoint, so these
    // `&mut` are the only references to their memory. C buffers may be uninitialised, and a
    // slice must hold initialised values: `init_slice` writes zeros first. `i32` and `u32`
    // have the same size and alignment and every bit pattern is valid in both, so the
    // `int32_t` buffer may be viewed as `u32`.
    let idx = unsafe { Span::init_slice(idx.cast::<u32>(), k) };
    // SAFETY: as for `idx`.
    let val = unsafe { Span::init_slice(val, k) };
    tinytopk::top_k_into(x, idx, val).ok()?;
    // `n <= MAX_N`, so each index is below 2^31: the same number as an `int32_t`.
    debug_assert!(idx.iter().all(|&i| i32::try_from(i).is_ok()));
    Some(())
}

/// The byte range `[start, end)` a call would use of one buffer: empty when it uses none of
/// it, whatever the pointer is.
#[derive(Clone, Copy, Debug)]
struct Span {
    start: usize,
    end: usize,
}

impl Span {
    /// The range of `len` elements at `ptr`, or `None` when `len > 0` and `ptr` is null,
    /// misaligned, or the range would pass `isize::MAX` bytes or the end of the address space
    /// (what `slice::from_raw_parts` requires and no real buffer breaks).
    fn new<T>(ptr: *const T, len: usize) -> Option<Span> {
        if len == 0 {
            return Some(Span { start: 0, end: 0 });
        }
        let start = ptr as usize;
        if ptr.is_null() || !ptr.is_aligned() {
            return None;
        }
        let bytes = len.checked_mul(size_of::<T>())?;
        if isize::try_from(bytes).is_err() {
            return None;
        }
        let end = start.checked_add(bytes)?;
        Some(Span { start, end })
    }

    /// Whether the two ranges share a byte (an empty range shares none).
    fn overlaps(&self, other: &Span) -> bool {
        self.start < other.end && other.start < self.end
    }

    /// `len` elements at `ptr`, or an empty slice when `len == 0` (whatever `ptr` is).
    ///
    /// # Safety
    ///
    /// When `len > 0`: [`Span::new`] accepted `ptr` and `len`, `ptr` points to `len`
    /// initialised elements, and nothing writes them while the slice lives.
    unsafe fn slice<'a, T>(ptr: *const T, len: usize) -> &'a [T] {
        if len == 0 {
            return &[];
        }
        // SAFETY: non-null, aligned and at most `isize::MAX` bytes (checked by `Span::new`);
        // readable, initialised and not written meanwhile (the caller's promise).
        unsafe { slice::from_raw_parts(ptr, len) }
    }

    /// `len` elements at `ptr`, all set to zero (`T` must be a type for which all-zero bytes
    /// are a value), or an empty slice when `len == 0` (whatever `ptr` is).
    ///
    /// # Safety
    ///
    /// When `len > 0`: [`Span::new`] accepted `ptr` and `len`, `ptr` points to `len` writable
    /// elements (initialised or not), and nothing else reads or writes them while the slice
    /// lives.
    unsafe fn init_slice<'a, T: Zeroable>(ptr: *mut T, len: usize) -> &'a mut [T] {
        if len == 0 {
            return &mut [];
        }
        // SAFETY: non-null, aligned and at most `isize::MAX` bytes (checked by `Span::new`),
        // writable and not aliased (the caller's promise): `len` elements may be written.
        unsafe { ptr.write_bytes(0, len) };
        // SAFETY: as above, and every element is now initialised (all-zero bytes are a value
        // of `T: Zeroable`).
        unsafe { slice::from_raw_parts_mut(ptr, len) }
    }
}

/// On a bare-metal target there is no `std` to handle a panic. The code is panic-free, so this
/// is never reached; if a bug reached it, halting is the one thing left to do.
#[cfg(target_os = "none")]
#[panic_handler]
fn halt(_: &core::panic::PanicInfo) -> ! {
    loop {
        core::hint::spin_loop();
    }
}

/// Types whose all-zero bytes are a value: what [`Span::init_slice`] may zero.
trait Zeroable {}
impl Zeroable for u32 {}
impl Zeroable for f32 {}
