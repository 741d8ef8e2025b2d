//! The AVX2 copy of the scan, and its block test for `f32`: eight 256-bit comparisons, seven
//! ORs and one `movmsk` per block of 64 values. The only file of the crate that allows
//! `unsafe`: each call of an intrinsic is proven by an [`Avx2`] token, which exists only once
//! the CPU is known to have AVX2.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m256, _mm256_cmp_ps, _mm256_loadu_ps, _mm256_movemask_ps, _mm256_or_ps, _mm256_set1_ps,
    _mm256_setzero_ps, _CMP_NLE_UQ,
};
use core::slice;

use crate::block::{BlockTest, Portable, BLOCK};
use crate::heap::Storage;
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
    /// detection with the `std` feature.
    #[inline]
    pub(super) fn detect() -> Option<Self> {
        #[cfg(all(feature = "std", not(target_feature = "avx2")))]
        let present = std::is_x86_feature_detected!("avx2");
        #[cfg(not(all(feature = "std", not(target_feature = "avx2"))))]
        let present = cfg!(target_feature = "avx2");
        present.then_some(Avx2 { _proof: () })
    }

    /// The scan compiled for AVX2, with this block test.
    #[inline]
    pub(super) fn scan<S: Storage>(
        self,
        heap: &mut S,
        start: u64,
        values: &[S::Value],
    ) -> Result<(), Error> {
        // SAFETY: `self` exists only if the CPU has AVX2.
        unsafe { scan_avx2(heap, start, values, self) }
    }

    /// The scan of an iterator compiled for AVX2, with this block test.
    #[inline]
    pub(super) fn scan_iter<S, I>(
        self,
        heap: &mut S,
        next: &mut u64,
        values: I,
    ) -> Result<(), Error>
    where
        S: Storage,
        I: Iterator<Item = S::Value>,
    {
        // SAFETY: `self` exists only if the CPU has AVX2.
        unsafe { scan_iter_avx2(heap, next, values, self) }
    }
}

/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
unsafe fn scan_iter_avx2<S, I>(
    heap: &mut S,
    next: &mut u64,
    values: I,
    avx2: Avx2,
) -> Result<(), Error>
where
    S: Storage,
    I: Iterator<Item = S::Value>,
{
    scan::scan_iter(heap, next, values, avx2)
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
) -> Result<(), Error> {
    scan::scan(heap, start, values, avx2)
}

impl BlockTest for Avx2 {
    #[inline(always)]
    fn flagged<T: TotalRank>(self, block: &[T], threshold: &T) -> bool {
        match as_f32(block, threshold) {
            // SAFETY: `self` exists only if the CPU has AVX2.
            Some((block, threshold)) => unsafe { movmsk(compare(block, threshold)) != 0 },
            None => Portable.flagged(block, threshold),
        }
    }

    #[inline(always)]
    fn mask<T: TotalRank>(self, block: &[T], threshold: &T) -> u64 {
        match as_f32(block, threshold) {
            // SAFETY: `self` exists only if the CPU has AVX2.
            Some((block, threshold)) => unsafe { mask_f32(block, threshold) },
            None => Portable.mask(block, threshold),
        }
    }
}

/// A full block of `f32` and its threshold, if `T` is `f32` ([`TotalRank::as_f32s`]).
#[inline(always)]
pub(super) fn as_f32<'a, T: TotalRank>(
    block: &'a [T],
    threshold: &T,
) -> Option<(&'a [f32; BLOCK], f32)> {
    let block = T::as_f32s(block)?.try_into().ok()?;
    match T::as_f32s(slice::from_ref(threshold))? {
        &[threshold] => Some((block, threshold)),
        _ => None,
    }
}

/// [`TotalRank::may_enter_above`] of each value of `block`, as eight lane masks:
/// `!(v <= threshold)`, the "not less or equal, unordered" comparison, true for NaN.
///
/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
#[inline]
#[allow(unused_unsafe)] // the intrinsics are safe here from Rust 1.87 on; 1.81 is supported
unsafe fn compare(block: &[f32; BLOCK], threshold: f32) -> [__m256; VECTORS] {
    // SAFETY: the caller makes sure of AVX2; `chunk` holds the `WIDTH` values the load
    // reads, with no alignment needed.
    unsafe {
        let threshold = _mm256_set1_ps(threshold);
        let mut masks = [_mm256_setzero_ps(); VECTORS];
        for (mask, chunk) in masks.iter_mut().zip(block.chunks_exact(WIDTH)) {
            let values = _mm256_loadu_ps(chunk.as_ptr());
            *mask = _mm256_cmp_ps::<_CMP_NLE_UQ>(values, threshold);
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
unsafe fn mask_f32(block: &[f32; BLOCK], threshold: f32) -> u64 {
    // SAFETY: the caller makes sure of AVX2.
    unsafe {
        let masks = compare(block, threshold);
        let mut bits = 0;
        for (i, &m) in masks.iter().enumerate() {
            // `movmsk` sets the low `WIDTH` bits only: a `u8` each, lossless.
            bits |= u64::from(_mm256_movemask_ps(m) as u8) << (i * WIDTH);
        }
        bits
    }
}
