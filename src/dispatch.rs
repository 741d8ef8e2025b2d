//! The one dispatch point between the portable pre-filter and explicit vector instructions,
//! chosen at run time, and the only module allowed `unsafe`.
//!
//! [`heap::scan`] takes its block test ([`BlockTest`](heap::BlockTest)) as a parameter. The
//! portable one ([`Portable`]) is written to vectorize for whatever the build targets. On
//! x86-64 the other is [`avx2::Avx2`]: a token that exists only once AVX2 is known to be there
//! (detected at run time with the `std` feature, or enabled at compile time), whose block test
//! is eight 256-bit comparisons, seven ORs and one `movmsk` per 64 `f32` values, and which
//! runs [`heap::scan`] compiled for AVX2. Without `std` and without AVX2 at compile time, or off
//! x86-64, the portable code runs. Under Miri (which cannot detect CPU features) the AVX2
//! code runs only when the build enables AVX2, and Miri then checks it too (`.ci`).
#![allow(unsafe_code)]

use crate::heap::{self, Portable, Storage};
use crate::Error;

/// [`heap::scan`], through the fastest copy this CPU can run.
#[inline]
pub(crate) fn scan<S: Storage>(heap: &mut S, start: u64, values: &[S::Value]) -> Result<(), Error> {
    #[cfg(all(target_arch = "x86_64", any(not(miri), target_feature = "avx2")))]
    if let Some(avx2) = avx2::Avx2::detect() {
        return avx2.scan(heap, start, values);
    }
    portable(heap, start, values)
}

/// [`heap::scan`] with the portable block test, compiled for the build's target features:
/// what runs without `std`, and what the tests force.
#[inline]
pub(crate) fn portable<S: Storage>(
    heap: &mut S,
    start: u64,
    values: &[S::Value],
) -> Result<(), Error> {
    heap::scan(heap, start, values, Portable)
}

#[cfg(all(target_arch = "x86_64", any(not(miri), target_feature = "avx2")))]
mod avx2 {
    use core::arch::x86_64::{
        __m256, _mm256_cmp_ps, _mm256_loadu_ps, _mm256_movemask_ps, _mm256_or_ps, _mm256_set1_ps,
        _mm256_setzero_ps, _CMP_NLE_UQ,
    };
    use core::slice;

    use super::*;
    use crate::heap::{BlockTest, BLOCK};
    use crate::TotalRank;

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

        /// [`heap::scan`] compiled for AVX2, with this block test.
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
        heap::scan(heap, start, values, avx2)
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
}

#[cfg(test)]
mod tests {
    use std::vec;
    use std::vec::Vec;

    use super::*;
    use crate::heap::Columns;
    use crate::rank::tests::F32_EDGES;
    use crate::{Entry, TotalRank};

    /// The k best of `x` by the dispatched scan, or by the portable one when `forced`, then
    /// the heap's own sort.
    fn select(x: &[f32], k: usize, forced: bool) -> Result<Vec<(u32, u32)>, Error> {
        let (mut idx, mut val) = (vec![0; k], vec![0.0; k]);
        let mut columns = Columns::new(&mut idx, &mut val)?;
        if forced {
            portable(&mut columns, 0, x)?;
        } else {
            scan(&mut columns, 0, x)?;
        }
        heap::sort(&mut columns);
        let (idx, val) = columns.into_kept();
        Ok(idx
            .iter()
            .zip(val.iter())
            .map(|(&i, v)| (i, v.to_bits()))
            .collect())
    }

    /// Every entry sorted by the one order, best first, truncated; or the first NaN.
    fn naive(x: &[f32], k: usize) -> Result<Vec<(u32, u32)>, Error> {
        if let Some(index) = x.iter().position(|v| !v.is_rankable()) {
            return Err(Error::NotRankable { index });
        }
        let mut all: Vec<Entry<f32>> = (0..)
            .zip(x)
            .map(|(index, &value)| Entry { value, index })
            .collect();
        all.sort_by(|a, b| b.rank_cmp(a));
        Ok(all
            .iter()
            .take(k)
            .map(|e| (e.index, e.value.to_bits()))
            .collect())
    }

    /// Rows that stress the pre-filter: few distinct values (ties with the root everywhere),
    /// rising runs (every value enters), and NaN at block edges.
    fn rows() -> Vec<Vec<f32>> {
        // Under Miri (slow): one length above the one-pass bound, and the short ones.
        let n = if cfg!(miri) { 260 } else { 3000 };
        let pool: Vec<f32> = F32_EDGES.into_iter().filter(|v| !v.is_nan()).collect();
        let mut seed = 0x2545_F491_4F6C_DD1D_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut rows = Vec::new();
        let lengths: &[usize] = if cfg!(miri) {
            &[n, 65]
        } else {
            &[n, n + 37, 64, 65, 129]
        };
        for &len in lengths {
            let ties: Vec<f32> = (0..len).map(|_| pool[next() as usize % 3]).collect();
            let wide: Vec<f32> = (0..len)
                .map(|_| pool[next() as usize % pool.len()])
                .collect();
            let rising: Vec<f32> = (0..len).map(|i| (i / 3) as f32).collect();
            rows.extend([ties, wide, rising]);
        }
        let clean = rows.clone();
        for row in &clean {
            let n = row.len();
            for at in [
                0,
                1,
                63,
                64,
                65,
                127,
                128,
                n.saturating_sub(65),
                n - 64,
                n - 1,
            ] {
                let mut bad = row.clone();
                bad[at.min(n - 1)] = f32::from_bits(0x7FC0_0001);
                rows.push(bad);
            }
        }
        rows
    }

    /// The AVX2 block test answers as the portable one, bit for bit, on blocks of edge values
    /// (every NaN payload kind, ±0, ±inf, subnormals, extremes) at every lane, against every
    /// rankable edge value as the threshold; and it serves `f32` with its own code.
    #[cfg(all(target_arch = "x86_64", any(not(miri), target_feature = "avx2")))]
    #[test]
    fn the_avx2_block_test_is_the_portable_one() {
        use crate::heap::BlockTest;

        // The token exists exactly when the CPU has AVX2.
        #[cfg(feature = "std")]
        assert_eq!(
            avx2::Avx2::detect().is_some(),
            std::is_x86_feature_detected!("avx2")
        );
        let Some(avx2) = avx2::Avx2::detect() else {
            return; // No AVX2 on this CPU: the dispatched scan is the portable one.
        };
        // f32 takes the AVX2 code, on full blocks only; other types the portable code.
        assert!(avx2::as_f32(&[0.0_f32; heap::BLOCK], &0.0).is_some());
        assert!(avx2::as_f32(&[0.0_f32; heap::BLOCK - 1], &0.0).is_none());
        assert!(avx2::as_f32(&[0.0_f64; heap::BLOCK], &0.0).is_none());
        let nans = [
            f32::NAN,
            -f32::NAN,
            f32::from_bits(0x7F80_0001),
            f32::from_bits(0xFFC0_1234),
        ];
        let edges: Vec<f32> = F32_EDGES.into_iter().chain(nans).collect();
        let mut blocks: Vec<[f32; heap::BLOCK]> = Vec::new();
        for (i, &v) in edges.iter().enumerate() {
            // One edge value in a block of the lowest value, at lanes that cover each vector.
            for lane in [0, 7, 8, 31, 56, 63] {
                let mut block = [f32::NEG_INFINITY; heap::BLOCK];
                block[lane] = v;
                blocks.push(block);
            }
            // Every edge value, rotated, so that each lane of each vector sees each of them.
            blocks.push(core::array::from_fn(|j| edges[(i + j) % edges.len()]));
        }
        for threshold in edges.iter().filter(|t| !t.is_nan()) {
            for block in &blocks {
                let portable = Portable.mask(block, threshold);
                assert_eq!(
                    avx2.mask(block, threshold),
                    portable,
                    "{threshold:?} {block:?}"
                );
                let flagged = Portable.flagged(block, threshold);
                assert_eq!(avx2.flagged(block, threshold), flagged);
                assert_eq!(flagged, portable != 0);
            }
        }
    }

    #[test]
    fn the_forced_portable_scan_and_the_dispatched_one_are_the_naive_order() {
        let ks: &[usize] = if cfg!(miri) {
            &[0, 5, 65]
        } else {
            &[0, 1, 2, 31, 63, 64, 65, 100]
        };
        for x in rows() {
            for &k in ks.iter().filter(|&&k| k <= x.len()) {
                let expected = naive(&x, k);
                assert_eq!(select(&x, k, true), expected, "portable, k = {k}");
                assert_eq!(select(&x, k, false), expected, "dispatched, k = {k}");
            }
        }
    }
}
