//! The one dispatch point between the portable pre-filter and explicit vector instructions,
//! chosen at run time.
//!
//! The scan ([`scan::scan`]) takes its block test ([`BlockTest`](crate::block::BlockTest)) as a
//! parameter. The portable one ([`Portable`]) is written to vectorize for whatever the build
//! targets. On x86-64 the other is [`avx2::Avx2`]: a token that exists only once AVX2 is known
//! to be there (detected at run time by CPUID, with or without `std`, or enabled at compile
//! time), which runs the scan compiled for AVX2 ([`avx2`], the only file with `unsafe`).
//! Without AVX2, or off x86-64, the portable code runs. Under Miri (which cannot run CPUID)
//! the AVX2 code runs only when the build enables AVX2, and Miri then checks it too.

#[cfg(all(target_arch = "x86_64", any(not(miri), target_feature = "avx2")))]
mod avx2;

use crate::block::Portable;
use crate::heap::Storage;
use crate::{scan, Error, TotalRank};

/// [`scan::scan`], through the fastest copy this CPU can run.
#[inline]
pub(crate) fn scan<S: Storage>(
    heap: &mut S,
    start: u64,
    values: &[S::Value],
) -> Result<scan::Scanned, Error> {
    #[cfg(all(target_arch = "x86_64", any(not(miri), target_feature = "avx2")))]
    if let Some(avx2) = avx2::Avx2::detect() {
        return avx2.scan(heap, start, values);
    }
    portable(heap, start, values)
}

/// [`scan::scan_iter`] by chunks of `CHUNK`, through the fastest copy this CPU can run.
#[inline]
pub(crate) fn scan_iter<S, I>(
    heap: &mut S,
    next: &mut u64,
    values: scan::Positions<I>,
    band: scan::Band<S::Value>,
    give_up: bool,
) -> Result<bool, Error>
where
    S: Storage,
    I: Iterator<Item = S::Value> + Clone,
{
    #[cfg(all(target_arch = "x86_64", any(not(miri), target_feature = "avx2")))]
    if let Some(avx2) = avx2::Avx2::detect() {
        return avx2.scan_iter(heap, next, values, band, give_up);
    }
    scan::scan_iter(heap, next, values, band, give_up, Portable, portable_chunk)
}

/// [`scan::scan_chunk`] with the portable block test, called once per chunk of
/// [`scan::scan_iter`], whose loop then holds only the copy of the iterator's values.
#[inline(never)]
fn portable_chunk<S: Storage>(
    heap: &mut S,
    at: u64,
    chunk: &[S::Value],
    band: scan::Band<S::Value>,
) -> Result<bool, Error> {
    scan::scan_chunk(heap, at, chunk, band, Portable)
}

/// [`scan::iter_guess`], through the fastest copy this CPU can run: the copy of the values
/// into chunks (and a `map` the iterator applies) and their NaN test vectorize for it.
#[inline]
pub(crate) fn iter_guess<T, I>(
    values: scan::Positions<I>,
    count: usize,
    k: usize,
    phase: scan::Phase,
) -> Option<T>
where
    T: TotalRank,
    I: Iterator<Item = T> + Clone,
{
    #[cfg(all(target_arch = "x86_64", any(not(miri), target_feature = "avx2")))]
    if let Some(avx2) = avx2::Avx2::detect() {
        return avx2.iter_guess(values, count, k, phase);
    }
    scan::iter_guess(values, count, k, phase)
}

/// [`scan::scan`] with the portable block test, compiled for the build's target features:
/// what runs without AVX2, and what the tests force.
#[inline]
pub(crate) fn portable<S: Storage>(
    heap: &mut S,
    start: u64,
    values: &[S::Value],
) -> Result<scan::Scanned, Error> {
    scan::scan(heap, start, values, Portable)
}

#[cfg(test)]
mod tests {
    use std::vec;
    use std::vec::Vec;

    use super::*;
    use crate::heap::{self, storage::Slices};
    use crate::testing::{oracle, F32_EDGES};

    /// The k best of `x` by the dispatched scan, or by the portable one when `forced`, then
    /// the heap's own sort.
    fn select(x: &[f32], k: usize, forced: bool) -> Result<Vec<(u32, u32)>, Error> {
        let (mut idx, mut val) = (vec![0; k], vec![0.0; k]);
        let mut columns = Slices::new(&mut idx, &mut val)?;
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

    /// The oracle's answer in the form of [`select`]'s.
    fn naive(x: &[f32], k: usize) -> Result<Vec<(u32, u32)>, Error> {
        let best = oracle(x, k)?;
        Ok(best.iter().map(|e| (e.index, e.value.to_bits())).collect())
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
    /// rankable edge value as the threshold, in both orders (`f32` and `Reverse<f32>`); and it
    /// serves those two with its own code.
    #[cfg(all(target_arch = "x86_64", any(not(miri), target_feature = "avx2")))]
    #[test]
    fn the_avx2_block_test_is_the_portable_one() {
        use crate::block::{BlockTest, BLOCK};
        use core::cmp::Reverse;

        // The token exists exactly when the CPU has AVX2, as std's detection finds (the crate's
        // own runs with or without the `std` feature).
        #[cfg(not(miri))]
        assert_eq!(
            avx2::Avx2::detect().is_some(),
            std::is_x86_feature_detected!("avx2")
        );
        let Some(avx2) = avx2::Avx2::detect() else {
            return; // No AVX2 on this CPU: the dispatched scan is the portable one.
        };
        // f32 takes the AVX2 code, on full blocks only; other types the portable code.
        assert!(avx2::as_f32(&[0.0_f32; BLOCK], &0.0).is_some());
        assert!(avx2::as_f32(&[0.0_f32; BLOCK - 1], &0.0).is_none());
        assert!(avx2::as_f32(&[0.0_f64; BLOCK], &0.0).is_none());
        let reversed = [Reverse(0.0_f32); BLOCK];
        let order = avx2::as_f32(&reversed, &Reverse(0.0)).map(|(_, _, order)| order);
        assert_eq!(order, Some(avx2::Order::Smallest));
        assert!(avx2::as_f32(&[Reverse(0.0_f64); BLOCK], &Reverse(0.0)).is_none());
        let nans = [
            f32::NAN,
            -f32::NAN,
            f32::from_bits(0x7F80_0001),
            f32::from_bits(0xFFC0_1234),
        ];
        let edges: Vec<f32> = F32_EDGES.into_iter().chain(nans).collect();
        // Under Miri (slow): a lane of the first vector and one of the last.
        let lanes: &[usize] = if cfg!(miri) {
            &[7, 56]
        } else {
            &[0, 7, 8, 31, 56, 63]
        };
        let mut blocks: Vec<[f32; BLOCK]> = Vec::new();
        for (i, &v) in edges.iter().enumerate() {
            // One edge value in a block of the lowest value, at lanes that cover each vector.
            for &lane in lanes {
                let mut block = [f32::NEG_INFINITY; BLOCK];
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
                let (block, threshold) = (crate::reverse::reversed(block), Reverse(*threshold));
                let portable = Portable.mask(block, &threshold);
                assert_eq!(avx2.mask(block, &threshold), portable, "reversed");
                let flagged = Portable.flagged(block, &threshold);
                assert_eq!(avx2.flagged(block, &threshold), flagged);
                assert_eq!(flagged, portable != 0);
            }
        }
    }

    #[test]
    fn the_forced_portable_scan_and_the_dispatched_one_are_the_naive_order() {
        let ks: &[usize] = if cfg!(miri) {
            &[0, 65]
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
