//! The AVX2 copy of the scan, and its block test for `f32` and `Reverse<f32>`: eight 256-bit
//! comparisons, seven ORs and one `movmsk` per block of 64 values, and the run-time detection of AVX2 (CPUID and
//! XGETBV, no `std` needed). The only file of the crate that allows `unsafe`: each call of a
//! vector intrinsic is proven by an [`Avx2`] token, which exists only once the CPU is known to
//! have AVX2.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m256, _mm256_cmp_ps, _mm256_loadu_ps, _mm256_movemask_ps, _mm256_or_ps, _mm256_set1_ps,
    _mm256_setzero_ps, _CMP_NGE_UQ, _CMP_NLE_UQ,
};
use core::slice;
#[cfg(not(target_feature = "avx2"))]
use core::{
    arch::x86_64::{__cpuid, __cpuid_count, _xgetbv},
    sync::atomic::{AtomicU8, Ordering::Relaxed},
};

use crate::block::{BlockTest, Portable, BLOCK};
use crate::heap::Storage;
use crate::scan::{Band, Scanned};
use crate::{scan, Error, TotalRank};

/// Values per 256-bit vector.
const WIDTH: usize = 8;

/// Vectors per block: the block's mask is their eight `movmsk` bytes.
const VECTORS: usize = BLOCK / WIDTH;
const _: () = assert!(VECTORS * WIDTH == BLOCK && BLOCK <= 64);

/// Proof that the CPU has AVX2: only [`Avx2::detect`] makes one.
#[derive(Clone, Copy, Debug)]
pub(super) struct Avx2 {
    _proof: (),
}

impl Avx2 {
    /// A token if the CPU has AVX2: always when the build enables it, else by run-time
    /// detection ([`detected`]), with or without `std`.
    #[inline]
    pub(super) fn detect() -> Option<Self> {
        #[cfg(not(target_feature = "avx2"))]
        let present = detected();
        #[cfg(target_feature = "avx2")]
        let present = true;
        present.then_some(Avx2 { _proof: () })
    }

    /// The scan compiled for AVX2, with this block test.
    #[inline]
    pub(super) fn scan<S: Storage>(
        self,
        heap: &mut S,
        start: u64,
        values: &[S::Value],
    ) -> Result<Scanned, Error> {
        // SAFETY: `self` exists only if the CPU has AVX2.
        unsafe { scan_avx2(heap, start, values, self) }
    }

    /// The scan of an iterator compiled for AVX2, with this block test.
    #[inline]
    pub(super) fn scan_iter<S, I>(
        self,
        heap: &mut S,
        next: &mut u64,
        values: scan::Positions<I>,
        band: Band<S::Value>,
        give_up: bool,
    ) -> Result<bool, Error>
    where
        S: Storage,
        I: Iterator<Item = S::Value> + Clone,
    {
        // SAFETY: `self` exists only if the CPU has AVX2.
        unsafe { scan_iter_avx2(heap, next, values, band, give_up, self) }
    }

    /// The sample of an iterator compiled for AVX2.
    #[inline]
    pub(super) fn iter_guess<T, I>(
        self,
        values: scan::Positions<I>,
        count: usize,
        k: usize,
        phase: scan::Phase,
    ) -> Option<T>
    where
        T: TotalRank,
        I: Iterator<Item = T> + Clone,
    {
        // SAFETY: `self` exists only if the CPU has AVX2.
        unsafe { iter_guess_avx2(values, count, k, phase) }
    }
}

/// What [`detected`] found: not yet asked, absent, present.
#[cfg(not(target_feature = "avx2"))]
static DETECTED: AtomicU8 = AtomicU8::new(UNKNOWN);
#[cfg(not(target_feature = "avx2"))]
const UNKNOWN: u8 = 0;
#[cfg(not(target_feature = "avx2"))]
const ABSENT: u8 = 1;
#[cfg(not(target_feature = "avx2"))]
const PRESENT: u8 = 2;

/// Whether the CPU and the OS let AVX2 code run, asked once ([`cpu_has_avx2`]) and kept in an
/// atomic: no `std`, no lock. Two threads that ask at once both ask the CPU, and agree.
#[cfg(not(target_feature = "avx2"))]
#[inline]
fn detected() -> bool {
    match DETECTED.load(Relaxed) {
        UNKNOWN => {
            let present = cpu_has_avx2();
            DETECTED.store(if present { PRESENT } else { ABSENT }, Relaxed);
            present
        }
        known => known == PRESENT,
    }
}

/// CPUID and XGETBV, as `std::is_x86_feature_detected!("avx2")` asks them: the CPU has AVX
/// and AVX2 (leaf 1 ECX bit 28, leaf 7 EBX bit 5), and the OS saves the vector registers
/// (leaf 1 ECX bit 27, OSXSAVE, then XCR0 bits 1 and 2: SSE and AVX state).
#[cfg(not(target_feature = "avx2"))]
#[cold]
#[allow(unused_unsafe)] // `__cpuid` is safe from Rust 1.87 on; 1.81 is supported
fn cpu_has_avx2() -> bool {
    const OSXSAVE: u32 = 1 << 27;
    const AVX: u32 = 1 << 28;
    const AVX2: u32 = 1 << 5;
    const SSE_AVX_STATE: u64 = 0b110;
    if cfg!(target_env = "sgx") {
        // CPUID is not available inside an SGX enclave.
        return false;
    }
    // SAFETY: every x86-64 CPU has CPUID (outside SGX, ruled out above); leaf 0 is always
    // there and gives the highest leaf.
    let max_leaf = unsafe { __cpuid(0) }.eax;
    if max_leaf < 7 {
        return false;
    }
    // SAFETY: leaf 1 is at most the highest leaf.
    let leaf1 = unsafe { __cpuid(1) };
    if leaf1.ecx & (OSXSAVE | AVX) != OSXSAVE | AVX {
        return false;
    }
    // SAFETY: OSXSAVE is set: the OS has enabled XSAVE, so XGETBV runs.
    let xcr0 = unsafe { xcr0() };
    if xcr0 & SSE_AVX_STATE != SSE_AVX_STATE {
        return false;
    }
    // SAFETY: leaf 7 is at most the highest leaf, checked above.
    let leaf7 = unsafe { __cpuid_count(7, 0) };
    leaf7.ebx & AVX2 != 0
}

/// The extended control register 0: which register states the OS saves.
///
/// # Safety
///
/// The OS must have enabled XSAVE (CPUID leaf 1 ECX bit 27, OSXSAVE).
#[cfg(not(target_feature = "avx2"))]
#[target_feature(enable = "xsave")]
#[allow(unused_unsafe)] // the intrinsics are safe here from Rust 1.87 on; 1.81 is supported
unsafe fn xcr0() -> u64 {
    // SAFETY: the caller makes sure of XSAVE.
    unsafe { _xgetbv(0) }
}

/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
unsafe fn iter_guess_avx2<T, I>(
    values: scan::Positions<I>,
    count: usize,
    k: usize,
    phase: scan::Phase,
) -> Option<T>
where
    T: TotalRank,
    I: Iterator<Item = T> + Clone,
{
    scan::iter_guess(values, count, k, phase)
}

/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
unsafe fn scan_iter_avx2<S, I>(
    heap: &mut S,
    next: &mut u64,
    values: scan::Positions<I>,
    band: Band<S::Value>,
    give_up: bool,
    avx2: Avx2,
) -> Result<bool, Error>
where
    S: Storage,
    I: Iterator<Item = S::Value> + Clone,
{
    // SAFETY: the caller makes sure of AVX2.
    let scan_chunk = |heap: &mut S, at, chunk: &[S::Value], band| unsafe {
        scan_chunk_avx2(heap, at, chunk, band, avx2)
    };
    scan::scan_iter(heap, next, values, band, give_up, avx2, scan_chunk)
}

/// [`scan::scan_chunk`] compiled for AVX2, called once per chunk of [`scan_iter_avx2`].
///
/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
#[inline(never)]
unsafe fn scan_chunk_avx2<S: Storage>(
    heap: &mut S,
    at: u64,
    chunk: &[S::Value],
    band: Band<S::Value>,
    avx2: Avx2,
) -> Result<bool, Error> {
    scan::scan_chunk(heap, at, chunk, band, avx2)
}

/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
unsafe fn scan_avx2<S: Storage>(
    heap: &mut S,
    start: u64,
    values: &[S::Value],
    avx2: Avx2,
) -> Result<Scanned, Error> {
    scan::scan(heap, start, values, avx2)
}

impl BlockTest for Avx2 {
    #[inline(always)]
    fn flagged<T: TotalRank>(self, block: &[T], threshold: &T) -> bool {
        match as_f32(block, threshold) {
            // SAFETY: `self` exists only if the CPU has AVX2.
            Some((block, threshold, order)) => unsafe {
                movmsk(compare(block, threshold, order)) != 0
            },
            None => Portable.flagged(block, threshold),
        }
    }

    #[inline(always)]
    fn mask<T: TotalRank>(self, block: &[T], threshold: &T) -> u64 {
        match as_f32(block, threshold) {
            // SAFETY: `self` exists only if the CPU has AVX2.
            Some((block, threshold, order)) => unsafe { mask_f32(block, threshold, order) },
            None => Portable.mask(block, threshold),
        }
    }
}

/// The order of the `f32`s of a block: their own (`f32`), or the reverse (`Reverse<f32>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Order {
    /// `f32`: the largest rank best.
    Largest,
    /// `Reverse<f32>`: the smallest rank best.
    Smallest,
}

/// A full block of `f32` and its threshold, with their order, if `T` is `f32`
/// ([`TotalRank::as_f32s`]) or `Reverse<f32>` ([`TotalRank::as_reversed_f32s`]).
#[inline(always)]
pub(super) fn as_f32<'a, T: TotalRank>(
    block: &'a [T],
    threshold: &T,
) -> Option<(&'a [f32; BLOCK], f32, Order)> {
    let threshold = slice::from_ref(threshold);
    let (block, threshold, order) = match (T::as_f32s(block), T::as_f32s(threshold)) {
        (Some(block), Some(threshold)) => (block, threshold, Order::Largest),
        _ => (
            T::as_reversed_f32s(block)?,
            T::as_reversed_f32s(threshold)?,
            Order::Smallest,
        ),
    };
    match threshold {
        &[threshold] => Some((block.try_into().ok()?, threshold, order)),
        _ => None,
    }
}

/// [`TotalRank::may_enter_above`] of each value of `block`, as eight lane masks: for `f32`
/// `!(v <= threshold)`, the "not less or equal, unordered" comparison, and for `Reverse<f32>`
/// `!(v >= threshold)`, "not greater or equal, unordered": both true for NaN.
///
/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
#[inline]
#[allow(unused_unsafe)] // the intrinsics are safe here from Rust 1.87 on; 1.81 is supported
unsafe fn compare(block: &[f32; BLOCK], threshold: f32, order: Order) -> [__m256; VECTORS] {
    // SAFETY: the caller makes sure of AVX2; `chunk` holds the `WIDTH` values the load
    // reads, with no alignment needed.
    unsafe {
        let threshold = _mm256_set1_ps(threshold);
        let mut masks = [_mm256_setzero_ps(); VECTORS];
        for (mask, chunk) in masks.iter_mut().zip(block.chunks_exact(WIDTH)) {
            let values = _mm256_loadu_ps(chunk.as_ptr());
            *mask = match order {
                Order::Largest => _mm256_cmp_ps::<_CMP_NLE_UQ>(values, threshold),
                Order::Smallest => _mm256_cmp_ps::<_CMP_NGE_UQ>(values, threshold),
            };
        }
        masks
    }
}

/// Whether any lane of `masks` is set, as the sign bits of their OR.
///
/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
#[inline]
#[allow(unused_unsafe)] // the intrinsics are safe here from Rust 1.87 on; 1.81 is supported
unsafe fn movmsk(masks: [__m256; VECTORS]) -> i32 {
    // SAFETY: the caller makes sure of AVX2.
    unsafe {
        let mut any = masks[0];
        for m in &masks[1..] {
            any = _mm256_or_ps(any, *m);
        }
        _mm256_movemask_ps(any)
    }
}

/// Bit `i` set iff `block[i]` may beat `threshold` or is NaN.
///
/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
#[inline]
#[allow(unused_unsafe)] // the intrinsics are safe here from Rust 1.87 on; 1.81 is supported
unsafe fn mask_f32(block: &[f32; BLOCK], threshold: f32, order: Order) -> u64 {
    // SAFETY: the caller makes sure of AVX2.
    unsafe {
        let masks = compare(block, threshold, order);
        let mut bits = 0;
        for (i, &m) in masks.iter().enumerate() {
            // `movmsk` sets the low `WIDTH` bits only: a `u8` each, lossless.
            bits |= u64::from(_mm256_movemask_ps(m) as u8) << (i * WIDTH);
        }
        bits
    }
}
