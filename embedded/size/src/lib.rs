//! What the firmwares share: a row and two output buffers the optimizer cannot see through,
//! and a panic handler that adds no code of its own and fails the link if a panic can be
//! reached. Only the work each firmware does on them differs, so the difference in `.text` is
//! the crate's.

#![no_std]

use core::hint::black_box;

/// The length of the row.
pub const N: usize = 256;
/// The k of the selection.
pub const K: usize = 40;

/// Runs `work` on a row and two `K`-long output buffers whose contents the optimizer cannot
/// know, keeps what it returns as used, then idles.
pub fn run<R>(work: impl FnOnce(&[f32], &mut [u32], &mut [f32]) -> R) -> ! {
    let x = black_box([0.0_f32; N]);
    let (mut idx, mut val) = ([0_u32; K], [0.0_f32; K]);
    // The row by a reference whose length the optimizer cannot see either.
    let done = work(black_box(&x[..]), black_box(&mut idx[..]), &mut val[..]);
    // By reference: a copy of a large result would add a memcpy that is not the crate's.
    black_box((&done, &idx, &val));
    loop {
        core::hint::spin_loop();
    }
}

/// Hands `x` to the optimizer as used, so that nothing is removed.
pub fn keep<T>(x: T) {
    black_box(x);
}

extern "C" {
    /// Defined nowhere: a firmware links only if no panic can be reached (the `panic-never`
    /// approach), so every build of these firmwares is also a proof that the calls it makes
    /// cannot panic.
    fn tinytopk_can_panic_here_the_link_fails() -> !;
}

/// Calls [`tinytopk_can_panic_here_the_link_fails`], so that a reachable panic fails the link;
/// adds no code when no panic is reachable.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: never runs: if a panic could reach it, the firmware would not link.
    unsafe { tinytopk_can_panic_here_the_link_fails() }
}
