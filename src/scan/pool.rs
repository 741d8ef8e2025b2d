//! The candidate pool of the scan, for k from [`POOL_MIN_K`] to [`POOL_MAX_K`]: candidates
//! go to a buffer on the stack, and when it is full a quickselect ([`select_best`]) keeps the
//! best k of heap and pool. A candidate costs a store and its share of the selection, a few
//! comparisons with no branch to mispredict, instead of a sift down the heap.

use arrayvec::ArrayVec;

use super::select::{select_best, POOL};
use crate::block::{for_flagged, BlockTest, BLOCK};
use crate::heap::{offer, rebuild, Storage};
use crate::{Entry, Error};

/// The smallest k that uses the pool: below it a sift down the heap (log2 k levels) costs
/// less than a value's share of a compaction.
pub(super) const POOL_MIN_K: usize = 4;

/// The largest k that uses the pool: half of it, so that a compaction still gathers at least
/// k candidates (`POOL - k`). Above it the compactions come too often for what they select.
pub(super) const POOL_MAX_K: usize = 128;

/// Candidates gathered per k kept before a compaction, while the pool has room: 3k, so that a
/// compaction selects among 4k entries. Fewer, and the compactions come too often; more, and
/// the threshold lags far behind the candidates (on rows in random order and rising rows
/// alike, 2k and 4k were slower).
const POOL_ROUND: usize = 3;

/// The blocks of [`scan`](super::scan()) for k in [`POOL_MIN_K`]`..=`[`POOL_MAX_K`] on the full
/// heap, the first at stream position `start`: candidates (values that may beat the threshold, the
/// worst kept at the last compaction) go to a pool on the stack, and when it holds
/// [`POOL_ROUND`]·k of them, a compaction keeps the best k of heap and pool ([`compact`]) and
/// raises the threshold. A candidate costs a store and its share of a quickselect, a few
/// comparisons with no branch to mispredict, instead of a sift down the heap; the lag of the
/// threshold lets in more candidates than the heap would, but on every row measured (in
/// random order, rising, masked) the pool was the faster all along. At the end the heap is
/// built again, once.
///
/// On a rising row every value is a candidate: O(n) instead of O(n log k).
#[inline(always)]
pub(super) fn scan_pooled<'a, S: Storage>(
    heap: &mut S,
    start: u64,
    blocks: impl Iterator<Item = &'a [S::Value]>,
    test: impl BlockTest,
) -> Result<(), Error>
where
    S::Value: 'a,
{
    let k = heap.len();
    let round = (POOL - k).min(POOL_ROUND * k);
    let mut pool = ArrayVec::<Entry<S::Value>, POOL>::new();
    let mut threshold = heap.get(0).value;
    let mut compacted = false;
    for (block, at) in blocks.zip((start..).step_by(BLOCK)) {
        if test.flagged(block, &threshold) {
            // A compaction meanwhile only makes the rest of the block needless candidates.
            for_flagged(block, threshold, at, test, |entry| {
                pool.push(entry);
                if pool.len() == round {
                    threshold = compact(heap, &mut pool);
                    compacted = true;
                }
            })?;
        }
    }
    if compacted {
        compact(heap, &mut pool);
        rebuild(heap);
    } else {
        // The heap is still a heap: a few candidates (a stream that has settled, fed in
        // pieces) cost a sift each rather than a compaction and a rebuild.
        for &entry in &pool {
            offer(heap, entry);
        }
    }
    Ok(())
}

/// Merges the candidate `pool` into the full heap: the heap becomes the best `len()` of both
/// ([`select_best`]), the worst of them last, and no longer a heap; the pool is emptied.
/// Returns the value of the worst kept, the new threshold.
fn compact<S: Storage>(heap: &mut S, pool: &mut ArrayVec<Entry<S::Value>, POOL>) -> S::Value {
    let len = heap.len();
    for i in 0..len {
        if pool.try_push(heap.get(i)).is_err() {
            break;
        }
    }
    select_best(pool, len);
    for (i, &entry) in pool.iter().take(len).enumerate() {
        heap.set(i, entry);
    }
    pool.clear();
    heap.get(len.saturating_sub(1)).value
}

#[cfg(test)]
mod tests {
    use std::vec;
    use std::vec::Vec;

    use super::*;
    use crate::block::Portable;
    use crate::heap::sort;
    use crate::heap::storage::Slices;
    use crate::scan::admit;
    use crate::testing::oracle;

    /// The best `k` of `x`, best first: a heap of its first `k` values, then
    /// [`super::scan_pooled`] on its full blocks after them, then the heap's sort.
    fn pooled(x: &[f32], k: usize) -> Vec<(u32, f32)> {
        let (mut idx, mut val) = (vec![0; k], vec![0.0; k]);
        let mut heap = Slices::new(&mut idx, &mut val).unwrap();
        admit(&mut heap, 0, &x[..k]).unwrap();
        let blocks = x[k..].chunks_exact(BLOCK);
        scan_pooled(&mut heap, k as u64, blocks, Portable).unwrap();
        sort(&mut heap);
        let (idx, val) = heap.into_kept();
        idx.iter().zip(val.iter()).map(|(&i, &v)| (i, v)).collect()
    }

    /// The best `k` of the first `n` values of `x` by the oracle, best first.
    fn sorted(x: &[f32], k: usize, n: usize) -> Vec<(u32, f32)> {
        let best = oracle(&x[..n], k).unwrap();
        best.iter().map(|e| (e.index, e.value)).collect()
    }

    #[test]
    fn the_pool_keeps_the_best_whether_it_compacts_or_not() {
        let k = 50;
        let n = k + 64 * 300;
        // Rising: every value is a candidate, a compaction every 3k of them.
        let rising: Vec<f32> = (0..n).map(|i| (i / 3) as f32).collect();
        // Falling after the first k: no candidate at all.
        let falling: Vec<f32> = (0..n).map(|i| -(i as f32)).collect();
        // A few candidates, fewer than a round: no compaction, each offered to the heap.
        let mut few = falling.clone();
        for i in [k + 5, k + 700, n - 1] {
            few[i] = 1e6 - i as f32;
        }
        for x in [rising, falling, few] {
            assert_eq!(pooled(&x, k), sorted(&x, k, n));
        }
    }
}
