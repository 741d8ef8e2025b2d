//! The scan behind `extend_from_slice` and `top_k_into`: a pre-filter by blocks in front of the
//! heap. Once the heap is full, values are read in blocks of [`BLOCK`], and a block is tested
//! as a whole against the root's value with one branch-free fold ([`BlockTest`]); only a
//! flagged block is looked at, and only its flagged values. An empty heap first takes a floor
//! from the slice ([`seed()`]) so that its root does not climb from the worst of the first k
//! values, and for mid-sized k the candidates go to a pool with a quickselect
//! ([`pool`]) instead of a sift each.
//!
//! # Cost
//!
//! n comparisons with the root, vectorized by blocks; on a row in random order the i-th value
//! enters with probability about k/i, so about k·ln(n/k) insertions of O(log k) each. A
//! rising row costs one read: the heap fills from its last values, or for k outside the pool's
//! range from the best of windows spread over the row, which also catch a row that rises then
//! falls. The worst case, a row where most values enter all the same (rising runs that no
//! window catches), is O(n log k) outside the pool's range of k and O(n) within it, plus
//! O(k log k) for the final sort.

mod pool;
mod seed;
mod select;

use crate::block::{for_flagged, BlockTest, BLOCK};
use crate::check::{first_unrankable, not_rankable};
use crate::heap::{offer, Storage};
use crate::{Entry, Error, TotalRank};
use pool::{scan_pooled, POOL_MAX_K, POOL_MIN_K};
use seed::{fill_above, seed};

/// Offers `values` as the stream positions `start..`: the ones that fill the heap, then the
/// rest by blocks, skipping each block in which no value may beat the root (`test`), then the
/// last values that do not fill a block. Returns the first NaN as an error, with the heap then
/// holding some of the values before it. `start + values.len()` must be at most
/// [`MAX_STREAM_LEN`](crate::check::MAX_STREAM_LEN).
///
/// An empty heap fills with the values above a floor when [`seed()`] finds one, else with the
/// first values one by one. For k from [`POOL_MIN_K`] to [`POOL_MAX_K`] the candidates then go
/// to a pool ([`scan_pooled`]); for other k each replaces the root.
///
/// `arch::scan` compiles it a second time for a wider vector unit when the CPU has one,
/// with a block test of its own: hence `inline(always)`, here and in what it calls on every
/// block.
#[inline(always)]
pub(crate) fn scan<S: Storage, B: BlockTest>(
    heap: &mut S,
    start: u64,
    values: &[S::Value],
    test: B,
) -> Result<(), Error> {
    let done = match seed(heap, values) {
        Some(floor) => fill_above(heap, start, values, &floor, test)?,
        None => {
            let fill = (heap.capacity() - heap.len()).min(values.len());
            admit(heap, start, &values[..fill])?;
            fill
        }
    };
    if heap.len() == 0 {
        // k = 0: nothing is kept, but a NaN is still an error.
        return match first_unrankable(&values[done..]) {
            Some(pos) => Err(not_rankable(start + (done + pos) as u64)),
            None => Ok(()),
        };
    }
    let blocks = values[done..].chunks_exact(BLOCK);
    let tail = blocks.remainder();
    let at = start + done as u64;
    if (POOL_MIN_K..=POOL_MAX_K).contains(&heap.len()) {
        scan_pooled(heap, at, blocks, test)?;
    } else {
        for (block, at) in blocks.zip((at..).step_by(BLOCK)) {
            let threshold = heap.get(0).value;
            if test.flagged(block, &threshold) {
                // Each flagged value may still lose to a root that one before it has raised:
                // `offer` compares it again.
                for_flagged(block, threshold, at, test, |entry| offer(heap, entry))?;
            }
        }
    }
    admit(heap, start + (values.len() - tail.len()) as u64, tail)
}

/// Offers each of `values`, the stream positions `start..`, stopping at the first NaN. Once
/// the heap is full, a value that cannot beat the root ([`TotalRank::may_enter_above`]) costs
/// that one test.
pub(crate) fn admit<S: Storage>(
    heap: &mut S,
    start: u64,
    values: &[S::Value],
) -> Result<(), Error> {
    for (index, &value) in (start..).zip(values) {
        let len = heap.len();
        if len == heap.capacity() && len > 0 && !value.may_enter_above(&heap.get(0).value) {
            continue;
        }
        if !value.is_rankable() {
            return Err(not_rankable(index));
        }
        // The caller keeps every position below `MAX_STREAM_LEN`: the cast is lossless.
        let index = index as u32;
        offer(heap, Entry { value, index });
    }
    Ok(())
}
