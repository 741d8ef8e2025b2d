//! [`select_best`]: the best k of at most [`POOL`] entries moved to the front, by a quickselect
//! with a branch-free partition.

use core::cmp::Ordering;

use crate::{Entry, TotalRank};

/// Entries of the candidate pool, the heap's included when it is compacted, and the most
/// [`select_best`] reorders: 256 entries on the stack (2 KiB for `f32`).
pub(super) const POOL: usize = 256;

/// Reorders `entries` (at most [`POOL`]) so that the `k` best come first, the k-th best at
/// `k - 1` and the others before it in no particular order: a quickselect under
/// [`Entry::ranks_below`] with a median-of-three pivot and a partition with no branch through
/// a spare buffer on the stack ([`partition`]). The range shrinks by at least the pivot at
/// each step, so it ends, with no panic, whatever the order does.
pub(super) fn select_best<T: TotalRank>(entries: &mut [Entry<T>], k: usize) {
    // The spare buffer holds `POOL`: entries past it (there are none) would stay where they are.
    let len = entries.len().min(POOL);
    let entries = &mut entries[..len];
    let (Some(&first), Some(target)) = (entries.first(), k.checked_sub(1)) else {
        return;
    };
    let mut spare = [first; POOL];
    let (mut lo, mut hi) = (0, entries.len());
    while hi - lo > 1 {
        // Median of three entries at the range's quartiles, moved to its end: the pool is a
        // run of candidates then the heap, so its ends are poor samples.
        let quarter = (hi - lo) / 4;
        let (a, b, c) = (lo + quarter, lo + 2 * quarter, hi - 1 - quarter);
        let ab = entries[a].ranks_below(&entries[b]);
        let bc = entries[b].ranks_below(&entries[c]);
        let ac = entries[a].ranks_below(&entries[c]);
        let median = if ab == bc {
            b
        } else if ab == ac {
            c
        } else {
            a
        };
        entries.swap(median, hi - 1);
        let store = lo + partition(&mut entries[lo..hi], &mut spare);
        // `lo..store` beat the pivot, now at `store`; the rest rank below it.
        match store.cmp(&target) {
            Ordering::Equal => break,
            Ordering::Less => lo = store + 1,
            Ordering::Greater => hi = store,
        }
    }
}

/// Partitions `range` (its last entry is the pivot, and `spare` is at least as long) so that
/// the entries better than the pivot come first, then the pivot, then the rest; returns the
/// pivot's position.
///
/// Each entry is written to both ends of `spare` and one end advances, by the outcome of its
/// comparison: no branch, and no read of what the loop wrote (which a partition in place
/// waits on). Exactly one end moves per entry, so they meet at the pivot's place after the
/// last, whatever the comparisons say.
#[inline]
fn partition<T: TotalRank>(range: &mut [Entry<T>], spare: &mut [Entry<T>]) -> usize {
    let Some((&mut pivot, rest)) = range.split_last_mut() else {
        return 0;
    };
    let spare = &mut spare[..=rest.len()];
    // `spare[front..back]` is free: the better entries are before it, the others after.
    let (mut front, mut back) = (0, spare.len());
    for &entry in rest.iter() {
        let better = pivot.ranks_below(&entry);
        spare[front] = entry;
        spare[back - 1] = entry;
        front += usize::from(better);
        back -= usize::from(!better);
    }
    spare[front] = pivot;
    range.copy_from_slice(spare);
    front
}
