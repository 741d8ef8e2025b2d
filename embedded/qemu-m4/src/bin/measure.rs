//! The stack and the time each API takes on a microcontroller, printed by semihosting:
//! - stack: the high-water mark of each call, found by painting the stack below the caller
//!   with a pattern, calling, and finding the deepest word that changed (`stack_used`);
//! - cycles (the Cortex-M4F only): SysTick, counting core clock ticks down, around one call
//!   (`cycles`). QEMU does not model a core's timing (nor DWT's cycle counter): its SysTick
//!   follows the host's clock, so the counts are rough, good for ratios between APIs only.
//!
//! The row is `N` values in flash, in random order; each API runs on it whole. The baseline
//! is a plain top-k over heapless's `BinaryHeap` (a min-heap of k, the root replaced when a
//! value beats it), with the crate's order. `cargo run --release --bin measure` (add
//! `--features fast` for the fast path, `--profile o3` for opt-level 3; `--target
//! thumbv6m-none-eabi` for the Cortex-M0, stack only).

#![no_std]
#![no_main]

use core::cmp::Ordering;
use core::hint::black_box;
use core::ptr::{addr_of_mut, read_volatile, write_volatile};

use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::SYST;
use cortex_m_rt::{entry, exception, ExceptionFrame};
use cortex_m_semihosting::{debug, hprintln};
use heapless::binary_heap::{BinaryHeap, Min};
use tinytopk::{top_k_into, SliceTopK, TopK};

/// The row length.
const N: usize = 4096;
/// Whether the board is the Cortex-M4F one (4 MiB of RAM), not the Cortex-M0 one (16 KiB).
const BIG: bool = cfg!(target_has_atomic = "32");
/// The largest k measured; the output buffers have this many places. On the Cortex-M4F, k = n
/// (the whole row kept: the radix sort with `fast`).
const MAX_K: usize = if BIG { N } else { 256 };
/// The length of the `f64` row: the Cortex-M0 board has no RAM for a long one.
const N64: usize = if BIG { N } else { 256 };

/// A value in `[-8, 8)` from a xorshift, so that every run sees the same row.
const fn row<const LEN: usize>(seed: u32) -> [f32; LEN] {
    let mut row = [0.0; LEN];
    let mut x = seed;
    let mut i = 0;
    while i < LEN {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        row[i] = (x >> 8) as f32 / (1 << 20) as f32 - 8.0;
        i += 1;
    }
    row
}

static ROW: [f32; N] = row(0x7079_6b34);

/// Output buffers, outside the stack so that they do not count in it.
static mut IDX: [u32; MAX_K] = [0; MAX_K];
static mut VAL: [f32; MAX_K] = [0.0; MAX_K];
static mut VAL64: [f64; MAX_K] = [0.0; MAX_K];
static mut ROW64: [f64; N64] = [0.0; N64];

/// The first `k` places of the output buffers.
fn outputs(k: usize) -> (&'static mut [u32], &'static mut [f32]) {
    // SAFETY: one measurement at a time, on one core, with no interrupt using them.
    let (idx, val) = unsafe { (&mut *addr_of_mut!(IDX), &mut *addr_of_mut!(VAL)) };
    (&mut idx[..k], &mut val[..k])
}

/// The same for `f64` values.
fn outputs64(k: usize) -> (&'static mut [u32], &'static mut [f64]) {
    // SAFETY: as in `outputs`.
    let (idx, val) = unsafe { (&mut *addr_of_mut!(IDX), &mut *addr_of_mut!(VAL64)) };
    (&mut idx[..k], &mut val[..k])
}

/// The row as `f64`.
fn row64() -> &'static [f64] {
    // SAFETY: written once in `main` before any measurement, read only after.
    unsafe { &*addr_of_mut!(ROW64) }
}

/// What `stack_used` paints: the words below the stack pointer that no call has touched.
const PAINT: u32 = 0xC0DE_5AFE;

/// How much stack below the caller `stack_used` paints: a call that goes deeper is reported
/// as at least this much.
const PAINTED: usize = if BIG { 32 * 1024 } else { 6 * 1024 };

/// The most stack `f` used, in bytes below the stack pointer of this function: paints
/// `PAINTED` bytes below it, calls `f` (through a pointer the optimizer cannot see through,
/// so that it is a real call, not inlined here), and finds the deepest word it changed.
#[inline(never)]
fn stack_used(f: fn(usize) -> u32, k: usize) -> usize {
    let sp = cortex_m::register::msp::read() as usize;
    let bottom = sp - PAINTED;
    let mut at = bottom;
    while at < sp {
        // SAFETY: below the stack pointer, in RAM that nothing else uses (no interrupt is
        // enabled): the stack's free part.
        unsafe { write_volatile(at as *mut u32, PAINT) };
        at += 4;
    }
    black_box(black_box(f)(black_box(k)));
    let mut at = bottom;
    // SAFETY: as above, reads only.
    while at < sp && unsafe { read_volatile(at as *const u32) } == PAINT {
        at += 4;
    }
    sp - at
}

/// SysTick ticks (the core clock, counting down) that `f(k)` takes, less the cost of an
/// empty call; QEMU's SysTick follows the host's clock, so this is rough.
#[inline(never)]
fn cycles(syst: &mut SYST, f: fn(usize) -> u32, k: usize) -> u32 {
    let time = |syst: &mut SYST, f: fn(usize) -> u32| {
        syst.clear_current();
        let start = SYST::get_current();
        black_box(black_box(f)(black_box(k)));
        let end = SYST::get_current();
        start.wrapping_sub(end) & 0x00FF_FFFF
    };
    let _ = syst;
    // The best of three runs, against the host's noise.
    let best = (0..3).map(|_| time(syst, f)).min().unwrap_or(0);
    let empty = (0..3).map(|_| time(syst, nothing)).min().unwrap_or(0);
    best.saturating_sub(empty)
}

fn nothing(k: usize) -> u32 {
    k as u32
}

/// `top_k_into` of the row, k = `k`.
fn api_top_k_into(k: usize) -> u32 {
    let (idx, val) = outputs(k);
    let _ = top_k_into(&ROW, idx, val);
    idx.first().copied().unwrap_or(0)
}

/// `top_k_into::<f64>` of the row as `f64`.
fn api_top_k_into_f64(k: usize) -> u32 {
    let (idx, val) = outputs64(k);
    let _ = top_k_into(row64(), idx, val);
    idx.first().copied().unwrap_or(0)
}

/// `SliceTopK::extend_from_slice` of the whole row, then `into_sorted`.
fn api_slice_extend(k: usize) -> u32 {
    let (idx, val) = outputs(k);
    let Ok(mut top) = SliceTopK::new(idx, val) else {
        return 0;
    };
    let _ = top.extend_from_slice(&ROW);
    top.into_sorted().0.first().copied().unwrap_or(0)
}

/// `TopK<f32, 40>::extend_from_slice` of the whole row (the selector, 324 B, on the stack).
fn api_topk_extend(_: usize) -> u32 {
    let mut top = TopK::<f32, 40>::new();
    let _ = top.extend_from_slice(&ROW);
    top.into_sorted().first().map_or(0, |e| e.index)
}

/// `TopK<f32, 40>::push` of each value of the row.
fn api_topk_push(_: usize) -> u32 {
    let mut top = TopK::<f32, 40>::new();
    for &v in &ROW {
        if top.push(v).is_err() {
            return 0;
        }
    }
    top.into_sorted().first().map_or(0, |e| e.index)
}

/// An entry in the crate's order, for heapless's heap.
#[derive(Clone, Copy, PartialEq)]
struct Ranked {
    value: f32,
    index: u32,
}

impl Eq for Ranked {}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ranked {
    /// Below iff a lower value, or an equal one at a higher index (rows without NaN).
    fn cmp(&self, other: &Self) -> Ordering {
        let by_value = self
            .value
            .partial_cmp(&other.value)
            .unwrap_or(Ordering::Equal);
        by_value.then(other.index.cmp(&self.index))
    }
}

/// The baseline: a top-40 over heapless's `BinaryHeap<_, Min, 40>`, the NaN check first,
/// then the entries best first into the output buffers.
fn api_heapless(_: usize) -> u32 {
    if ROW.iter().any(|v| v.is_nan()) {
        return 0;
    }
    let mut heap = BinaryHeap::<Ranked, Min, 40>::new();
    for (index, &value) in (0..).zip(&ROW) {
        let entry = Ranked { value, index };
        if heap.len() < heap.capacity() {
            let _ = heap.push(entry);
        } else if heap.peek().is_some_and(|root| entry > *root) {
            // Only now `peek_mut`: heapless 0.8 sifts the root on every `PeekMut` dropped.
            if let Some(mut root) = heap.peek_mut() {
                *root = entry;
            }
        }
    }
    let (idx, val) = outputs(40);
    let mut place = heap.len();
    while let Some(entry) = heap.pop() {
        place -= 1;
        idx[place] = entry.index;
        val[place] = entry.value;
    }
    idx[0]
}

/// A measured call: its name, the function, and the k to run it at.
type Api = (&'static str, fn(usize) -> u32, &'static [usize]);

#[entry]
fn main() -> ! {
    // SAFETY: before any measurement reads it.
    let row64 = unsafe { &mut *addr_of_mut!(ROW64) };
    for (wide, &v) in row64.iter_mut().zip(&ROW) {
        *wide = f64::from(v);
    }
    let footprint = if cfg!(feature = "fast") {
        "fast"
    } else {
        "plain (no `fast`)"
    };
    hprintln!(
        "tinytopk on {}, {}, n = {} (f64: {})",
        BOARD,
        footprint,
        N,
        N64
    );
    let apis: [Api; 7] = [
        ("top_k_into", api_top_k_into, &[8, 40, 64, 65, 256, 1024, N]),
        (
            "top_k_into::<f64>",
            api_top_k_into_f64,
            &[8, 40, 256, 1024, N],
        ),
        (
            "SliceTopK::extend_from_slice",
            api_slice_extend,
            &[8, 40, 256, 1024, N],
        ),
        ("TopK<f32, 40>::extend_from_slice", api_topk_extend, &[40]),
        ("TopK<f32, 40>::push loop", api_topk_push, &[40]),
        ("heapless BinaryHeap top-k", api_heapless, &[40]),
        ("(an empty call)", nothing, &[0]),
    ];
    let mut peripherals = cortex_m::Peripherals::take();
    let mut syst = peripherals.as_mut().map(|p| &mut p.SYST);
    if let Some(syst) = syst.as_deref_mut() {
        syst.set_clock_source(SystClkSource::Core);
        syst.set_reload(0x00FF_FFFF);
        syst.clear_current();
        syst.enable_counter();
    }
    // Timed on the Cortex-M4F board only: the Cortex-M0 one has no SysTick.
    let timed = BIG;
    for (name, f, ks) in apis {
        let longest = if name.contains("f64") { N64 } else { N };
        for &k in ks.iter().filter(|&&k| k <= MAX_K && k <= longest) {
            let stack = stack_used(f, k);
            match syst.as_deref_mut().filter(|_| timed) {
                Some(syst) => {
                    let ticks = cycles(syst, f, k);
                    hprintln!(
                        "{}, k = {}: stack {} B, {} SysTick cycles",
                        name,
                        k,
                        stack,
                        ticks
                    );
                }
                None => hprintln!("{}, k = {}: stack {} B", name, k, stack),
            }
        }
    }
    debug::exit(debug::EXIT_SUCCESS);
    loop {
        cortex_m::asm::wfi();
    }
}

/// The board the target runs on under QEMU.
const BOARD: &str = if cfg!(target_has_atomic = "32") {
    "Cortex-M4F (mps2-an386)"
} else {
    "Cortex-M0 (microbit)"
};

#[exception]
unsafe fn HardFault(frame: &ExceptionFrame) -> ! {
    hprintln!("HardFault at pc = {:#010x}", frame.pc());
    debug::exit(debug::EXIT_FAILURE);
    loop {
        cortex_m::asm::wfi();
    }
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    hprintln!("panic: {}", info);
    debug::exit(debug::EXIT_FAILURE);
    loop {
        cortex_m::asm::wfi();
    }
}
