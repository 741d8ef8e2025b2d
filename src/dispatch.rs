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
