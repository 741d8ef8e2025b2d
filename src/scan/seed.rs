//! The seed of an empty heap: a floor that k values of the slice are strictly above, so that
//! the heap fills with the values above it ([`fill_above`]) instead of with the first k, whose
//! worst is a low root that has to climb. Each floor is exact or absent, never a guess: it is
//! taken only when the k better values are seen.

use super::admit;
use super::pool::{POOL_MAX_K, POOL_MIN_K};
use super::select::select_best;
use crate::block::{for_flagged, BlockTest, BLOCK};
use crate::heap::{offer, Storage};
use crate::{Entry, Error, TotalRank};

/// A floor for filling an empty heap of capacity k from a long slice ([`scan`](super::scan())): a
/// value that k values of the slice are strictly above, so that no value at or below it can be
/// among the k best. The heap then fills with the values above it ([`fill_above`]) instead of with
/// the first k, whose worst is a low root that has to climb. The better of two, each `None` when it
/// does not hold (ties, NaN) or does not apply:
///
/// - [`column_floor`], from the first 4,096 values, for k < [`BLOCK`]: on a row in random order
///   it saves about half of the 400 insertions of k = 50 in 151,936 values;
/// - [`tail_floor`], from the last values (and windows spread over the slice for k outside
///   the pool's): on a rising row (where every value would enter a heap filled from the
///   front) the heap fills with the last k values, and every block before them is skipped
///   whole.
#[inline(always)]
pub(super) fn seed<S: Storage>(heap: &S, values: &[S::Value]) -> Option<S::Value> {
    let k = heap.capacity();
    if heap.len() > 0 || k == 0 {
        return None;
    }
    higher_floor(column_floor(values, k), tail_floor(values, k))
}

/// The higher of two floors (either may be missing); the first if they tie.
#[inline(always)]
fn higher_floor<T: TotalRank>(first: Option<T>, second: Option<T>) -> Option<T> {
    match (first, second) {
        (Some(first), Some(second)) if second.may_enter_above(&first) => Some(second),
        (first, second) => first.or(second),
    }
}

/// Blocks read by [`column_floor`]: the first 4,096 values, as [`SEED_ROWS`] rows of [`BLOCK`].
const SEED_ROWS: usize = 64;

/// The floor of [`seed`] from the first [`SEED_ROWS`] blocks, for k < [`BLOCK`]: they are read
/// as the rows of a table whose [`BLOCK`] columns are folded, with no branch, into the best
/// value of each column, [`BLOCK`] entries at distinct positions of the slice. The floor is
/// the (k+1)-th best of them, if the k better ones are strictly above it.
#[inline(always)]
fn column_floor<T: TotalRank>(values: &[T], k: usize) -> Option<T> {
    if k >= BLOCK || values.len() < SEED_ROWS * BLOCK {
        return None;
    }
    let mut columns: [T; BLOCK] = core::array::from_fn(|j| values[j]);
    for row in values[..SEED_ROWS * BLOCK].chunks_exact(BLOCK) {
        for (best, &v) in columns.iter_mut().zip(row) {
            *best = if v.may_enter_above(best) { v } else { *best };
        }
    }
    let mut best = [Entry {
        value: columns[0],
        index: 0,
    }; BLOCK];
    for ((entry, value), index) in best.iter_mut().zip(columns).zip(0..) {
        *entry = Entry { value, index };
    }
    select_best(&mut best, k + 1);
    let floor = best.get(k)?.value;
    let holds = floor.is_rankable() && best[..k].iter().all(|e| e.value.may_enter_above(&floor));
    holds.then_some(floor)
}

/// Values beyond k in the window of [`tail_floor`]: its worst value may come up to this many
/// times (a rising row of repeated values) and still leave k strictly above it.
const WINDOW_SLACK: usize = 8;

/// The floor of [`seed`] from the last k + [`WINDOW_SLACK`] values, for a slice at least
/// twice as long: their [`window_floor`]. On a rising row (where every value would enter a
/// heap filled from the front) they are the k best and a few more; on a row in random order
/// their floor is low, and the column floor beats it. O(k).
///
/// For k outside [`POOL_MIN_K`]`..=`[`POOL_MAX_K`], where no pool keeps a row whose values
/// mostly enter at O(n), it is the best floor of [`SPREAD_WINDOWS`] windows spread over the
/// slice, the last at its end: they also catch a row that rises then falls. Within it the pool
/// does, and the windows would cost a row of logits more than they save (docs/DESIGN.md).
#[inline(always)]
fn tail_floor<T: TotalRank>(values: &[T], k: usize) -> Option<T> {
    let width = k.checked_add(WINDOW_SLACK)?;
    if values.len() / 2 < width {
        return None;
    }
    let pooled = (POOL_MIN_K..=POOL_MAX_K).contains(&k);
    let windows = if pooled { 1 } else { SPREAD_WINDOWS };
    let step = (values.len() - width) / (SPREAD_WINDOWS - 1);
    (0..windows)
        .map(|w| values.len() - w * step)
        .map(|end| window_floor(&values[end - width..end], k))
        .fold(None, higher_floor)
}

/// Windows of [`tail_floor`] for k outside [`POOL_MIN_K`]`..=`[`POOL_MAX_K`].
const SPREAD_WINDOWS: usize = 8;

/// The worst value of `window`, if k of its values are strictly above it; `None` if not (ties)
/// or if it holds a NaN.
#[inline(always)]
fn window_floor<T: TotalRank>(window: &[T], k: usize) -> Option<T> {
    // Three passes with no branch on the data.
    let rankable = window.iter().fold(true, |all, v| all & v.is_rankable());
    if !rankable {
        return None;
    }
    let floor = window.iter().copied().reduce(|worst, v| {
        // Both rankable: `worst` is above `v` iff `v` ranks below it.
        if worst.may_enter_above(&v) {
            v
        } else {
            worst
        }
    })?;
    let above = window
        .iter()
        .fold(0, |n, v| n + usize::from(v.may_enter_above(&floor)));
    (above >= k).then_some(floor)
}

/// Fills the empty heap with the values of `values` (stream positions `start..`) that may
/// beat `floor` ([`seed`]), by blocks, to the end of the block where it becomes full, or to
/// the end of the slice (the values above a tail floor are its last); returns how many values
/// it read. The heap is full then, unless a NaN came first.
#[inline(always)]
pub(super) fn fill_above<S: Storage>(
    heap: &mut S,
    start: u64,
    values: &[S::Value],
    floor: &S::Value,
    test: impl BlockTest,
) -> Result<usize, Error> {
    let mut blocks = values.chunks_exact(BLOCK);
    for (block, at) in blocks.by_ref().zip((start..).step_by(BLOCK)) {
        if heap.len() == heap.capacity() {
            // `at - start` counts values of the slice: the cast is lossless.
            return Ok((at - start) as usize);
        }
        if test.flagged(block, floor) {
            for_flagged(block, *floor, at, test, |entry| offer(heap, entry))?;
        }
    }
    // The heap is not full yet: the values above the floor end among the last ones. Those at
    // or below it may fill a place for a while, until one above it takes it.
    let rest = blocks.remainder();
    admit(heap, start + (values.len() - rest.len()) as u64, rest)?;
    Ok(values.len())
}

#[cfg(test)]
mod tests {
    use std::vec;
    use std::vec::Vec;

    use super::*;
    use crate::heap::storage::Slices;

    /// The seed of an empty heap of capacity `k` over `x`.
    fn seed_of(x: &[f32], k: usize) -> Option<f32> {
        let (mut idx, mut val) = (vec![0; k], vec![0.0; k]);
        seed(&Slices::new(&mut idx, &mut val).unwrap(), x)
    }

    #[test]
    fn the_column_floor_is_the_next_best_of_the_column_bests() {
        use super::column_floor;
        // Rising: column j's best is its last row's, 4,032 + j; the (k+1)-th best is 4,095 - k.
        // Values past the first 4,096 are not read.
        let mut x: Vec<f32> = (0..5000).map(|i| i as f32).collect();
        x[4096..].fill(-1.0);
        for k in [1, 2, 50, 63] {
            assert_eq!(column_floor(&x, k), Some((4095 - k) as f32), "k = {k}");
        }
        // Scrambled: i ↦ 37·i mod 4,096 puts the same column bests in no order.
        let scrambled: Vec<f32> = (0..4096).map(|i| (i * 37 % 4096) as f32).collect();
        for k in [1, 2, 50, 63] {
            assert_eq!(
                column_floor(&scrambled, k),
                Some((4095 - k) as f32),
                "k = {k}"
            );
        }
        // Falling: the first row holds every column's best, 4,095 - j.
        let falling: Vec<f32> = (0..4096).rev().map(|i| i as f32).collect();
        assert_eq!(column_floor(&falling, 50), Some(4045.0));
        // None for k >= 64 or fewer than 4,096 values.
        assert_eq!(column_floor(&x, 64), None);
        assert_eq!(column_floor(&x[..4095], 1), None);
        // Column bests 2,016 + j / 2: pairs tie, so the k-th and (k+1)-th tie for odd k.
        let pairs: Vec<f32> = (0..4096).map(|i| (i / 2) as f32).collect();
        assert_eq!(column_floor(&pairs, 1), None);
        assert_eq!(column_floor(&pairs, 2), Some(2046.0));
        assert_eq!(column_floor(&vec![1.0; 4096], 5), None);
    }

    #[test]
    fn a_window_floor_is_its_worst_value_when_k_are_above_it() {
        use super::window_floor;
        let rising: Vec<f32> = (0..58).map(|i| i as f32).collect();
        for k in [0, 1, 50, 57] {
            assert_eq!(window_floor(&rising, k), Some(0.0), "k = {k}");
        }
        assert_eq!(window_floor(&rising, 58), None);
        assert_eq!(window_floor(&rising[..57], 50), Some(0.0));
        // A worst value repeated leaves fewer above it.
        let mut plateau = rising.clone();
        plateau[..8].fill(-1.0);
        assert_eq!(window_floor(&plateau, 50), Some(-1.0));
        assert_eq!(window_floor(&plateau, 51), None);
        // Ties everywhere, or a NaN: no floor.
        assert_eq!(window_floor(&[1.0; 58], 50), None);
        for at in [0, 40, 57] {
            let mut nan = rising.clone();
            nan[at] = f32::NAN;
            assert_eq!(window_floor(&nan, 50), None, "NaN at {at}");
        }
    }

    #[test]
    fn the_tail_floor_is_the_floor_of_the_last_k_and_a_few_values() {
        use super::{tail_floor, WINDOW_SLACK};
        let width = 50 + WINDOW_SLACK;
        let rising: Vec<f32> = (0..8000).map(|i| i as f32).collect();
        assert_eq!(tail_floor(&rising, 50), Some((8000 - width) as f32));
        // The window must be at most half the slice.
        assert_eq!(tail_floor(&rising[..2 * width], 50), Some(width as f32));
        assert_eq!(tail_floor(&rising[..2 * width - 1], 50), None);
        assert_eq!(tail_floor(&rising, usize::MAX), None);
        // Falling: a floor all the same, the lowest values.
        let falling: Vec<f32> = rising.iter().rev().copied().collect();
        assert_eq!(tail_floor(&falling, 50), Some(0.0));
    }

    #[test]
    fn outside_the_pool_the_tail_floor_is_the_best_of_windows_spread_over_the_slice() {
        use super::{tail_floor, POOL_MAX_K, POOL_MIN_K, SPREAD_WINDOWS, WINDOW_SLACK};
        // Rising then falling, peak at 7,000: the windows end at 14,000 - w * step.
        let n = 14_000;
        let pipe: Vec<f32> = (0..n).map(|i| i.min(n - i) as f32).collect();
        let (k, width) = (POOL_MAX_K + 1, POOL_MAX_K + 1 + WINDOW_SLACK);
        let step = (n - width) / (SPREAD_WINDOWS - 1);
        // The best window is the one whose end is nearest above the peak: its worst value is
        // at its start or its end.
        let floors = (0..SPREAD_WINDOWS).map(|w| {
            let end = n - w * step;
            pipe[end - width].min(pipe[end - 1])
        });
        let best = floors.fold(0.0_f32, f32::max);
        assert!(best > 5000.0, "{best}");
        assert_eq!(tail_floor(&pipe, k), Some(best));
        // Below the pool's k too; at the pool's k, the last window only: the lowest values.
        assert!(tail_floor(&pipe, 1).is_some_and(|floor| floor > 5000.0));
        assert_eq!(tail_floor(&pipe, POOL_MAX_K), Some(1.0));
        assert_eq!(tail_floor(&pipe, POOL_MIN_K), Some(1.0));
        // A window with ties at its worst value is passed over, not the others.
        let mut flat_end = pipe.clone();
        flat_end[n - width..].fill(3.0);
        assert_eq!(tail_floor(&flat_end, k), Some(best));
    }

    #[test]
    fn the_seed_is_the_better_floor_of_an_empty_heap() {
        // Rising: the tail floor (the last values) beats the column floor (the first 4,096).
        let rising: Vec<f32> = (0..9000).map(|i| i as f32).collect();
        assert_eq!(
            seed_of(&rising, 50),
            Some((9000 - 50 - WINDOW_SLACK) as f32)
        );
        // Falling: the column floor (the 51st of the first row, 8,999 - 50); for k >= 64 the
        // tail floor only, however low.
        let falling: Vec<f32> = rising.iter().rev().copied().collect();
        assert_eq!(seed_of(&falling, 50), Some(8949.0));
        assert_eq!(seed_of(&falling, 100), Some(0.0));
        // No seed: k = 0, or a heap that is not empty.
        assert_eq!(seed_of(&rising, 0), None);
        let (mut idx, mut val) = (vec![0; 2], vec![0.0; 2]);
        let mut heap = Slices::new(&mut idx, &mut val).unwrap();
        heap.append(Entry {
            value: 1.0,
            index: 0,
        });
        assert_eq!(seed(&heap, &rising), None);
    }
}
