//! The final sort of the kept entries, best first, in place in the storage.
//!
//! With the `fast` feature, on a host ([`crate::HOST_STACK`]) a range of 64 to 4,096 kept
//! `f32` entries is radix sorted by value through a buffer on the stack ([`radix::by_key`]:
//! O(k) whatever the values), and each run of equal values then by index (the same passes
//! on the index where the run is long, else the quicksort). A longer range, or any on a
//! microcontroller, is first spread into buckets by the leading bits of its keys where that
//! pays ([`radix::spread`]), and each bucket is then sorted as a range of its own. The sort
//! of a range otherwise is a quicksort (introsort), which at large k takes about half the
//! time of a heap sort of the same entries: fewer comparisons, and each partition reads the
//! entries in order. Entries already in order, best first or worst first, cost one pass (a
//! full sort of a row that is already in order, as `top_k_into` with k = n is, need not be n
//! log n). Otherwise the pivot is the median of three entries, or of three medians of three
//! (Tukey's ninther) in a long range, spread over it, so that no order of the entries (a heap
//! of an organ pipe, say) gives bad pivots again and again; each partition is branch-free, by
//! blocks of entries whose offsets are gathered before they are swapped (BlockQuicksort); the
//! smaller side is sorted first, by recursion, and the larger one by the loop, so the
//! recursion is at most log2(k) deep; a range that has taken more than 2·log2(k) partitions is
//! heap sorted (O(k log k) whatever the entries), and a short range is sorted by insertion.
//! Entries never tie under [`Entry::ranks_below`] (indices are distinct), so no range of equal
//! entries needs a pass of its own.
//!
//! Without `fast`, the heap's own sort: less code, the same order.
//!
//! Every read is an `Option` ([`Storage::get`]); the sort's own indices are always in range,
//! and one that were not would leave the entries where they are, never panic.

#[cfg(feature = "fast")]
use super::radix;
use super::Storage;
#[cfg(any(test, feature = "fast"))]
use crate::{Entry, TotalRank};

/// Ranges at most this long are sorted by insertion.
#[cfg(any(test, feature = "fast"))]
const SHORT: usize = 16;

/// Ranges at least this long take the ninther as pivot; shorter ones the median of three.
#[cfg(any(test, feature = "fast"))]
const NINTHER: usize = 64;

/// Sorts positions `0..len()` of the storage best first: by the introsort with the `fast`
/// feature, whatever their order; without it by the heap's own sort, the storage being a
/// heap.
pub(crate) fn sort<S: Storage>(heap: &mut S) {
    sort_to(heap, false);
}

/// Sorts positions `0..len()` worst first: still a heap (each entry ranks below the ones after
/// it, its children among them), so a selector stays usable.
pub(crate) fn sort_worst_first<S: Storage>(heap: &mut S) {
    sort_to(heap, true);
}

/// [`sort`], or worst first if `worst_first`.
fn sort_to<S: Storage>(heap: &mut S, worst_first: bool) {
    #[cfg(feature = "fast")]
    ordered(heap, worst_first, |_| false);
    // Without `fast` the storage is a heap (its root the worst entry): the heap's own sort,
    // O(k log k), and no code of its own to speak of.
    #[cfg(not(feature = "fast"))]
    {
        super::heap_passes(heap, 0, heap.len(), super::Passes::Sort);
        if worst_first {
            heap.reverse();
        }
    }
}

/// The final sort with the `fast` feature, best first or (`worst_first`) worst first: entries
/// already in order, one way or the other, cost one pass (a reversal at most); others go to
/// `by_radix`, which sorts them best first and says so (the radix sort of a whole row), or,
/// if it does not, to the spread and the introsort ([`spread_and_quicksort`]).
#[cfg(feature = "fast")]
pub(super) fn ordered<S: Storage>(
    heap: &mut S,
    worst_first: bool,
    by_radix: impl FnOnce(&mut S) -> bool,
) {
    let run = run(heap, heap.len());
    ordered_from(heap, run, worst_first, by_radix);
}

/// [`ordered`] of entries whose order the caller found already: `run`.
#[cfg(feature = "fast")]
pub(super) fn ordered_from<S: Storage>(
    heap: &mut S,
    run: Run,
    worst_first: bool,
    by_radix: impl FnOnce(&mut S) -> bool,
) {
    if matches!(run, Run::Neither) && !by_radix(heap) {
        spread_and_quicksort(heap, 0, heap.len(), SPREAD_LEVELS);
    }
    // Best first now, unless the entries were in order worst first.
    if matches!(run, Run::WorstFirst) != worst_first {
        heap.reverse();
    }
}

/// Levels of spreads the final sort makes at most before a range goes to the quicksort: keys
/// of 64 bits, 8 fewer a level in a bucket between the first and the last, and a margin for
/// the first and the last buckets of narrowed ranges, whose keys may not share more bits.
#[cfg(feature = "fast")]
const SPREAD_LEVELS: u32 = 16;

/// Sorts the entries at `lo..hi` best first: on a host, 64 to 4,096 `f32` entries by the
/// radix passes ([`radix::by_key`]) and then their runs of equal values by index
/// ([`order_ties`]); more `f32` entries are spread into buckets first ([`radix::spread`]) and
/// each bucket sorted so in turn, at most `levels` deep; others by the quicksort. The spread's
/// keys hold the index below the value, so equal values split between buckets are already in
/// order across them. A spread is a few reads of its range and a permutation, O(range), and
/// what is left below [`radix::spread`]'s least range, or below the last level, goes to the
/// passes or the quicksort: O(k) for `f32` entries spread out, O(16·k + k log k) at worst.
#[cfg(feature = "fast")]
fn spread_and_quicksort<S: Storage>(heap: &mut S, lo: usize, hi: usize, levels: u32) {
    if radix::by_key::<_, false>(heap, lo, hi) {
        order_ties(heap, lo, hi);
        return;
    }
    let digits = match levels {
        0 => None,
        _ => radix::spread(heap, lo, hi),
    };
    let Some(digits) = digits else {
        introsort(heap, lo, hi);
        return;
    };
    let mut at = lo;
    while at < hi {
        let end = radix::bucket_end(heap, at, hi, digits).min(hi);
        spread_and_quicksort(heap, at, end, levels - 1);
        at = end;
    }
}

/// Orders by index each run of equal values at `lo..hi`, which are sorted by value best
/// first: by the radix passes on the index ([`radix::by_key`]) where they serve, else by the
/// quicksort, which orders equal values so. One read of the range where the values differ;
/// O(r) for a run of r (O(r log r) beyond the passes' reach).
#[cfg(feature = "fast")]
fn order_ties<S: Storage>(heap: &mut S, lo: usize, hi: usize) {
    let mut start = lo;
    while let Some(first) = heap.get(start).filter(|_| start < hi) {
        let mut end = start + 1;
        while end < hi
            && heap
                .get(end)
                .is_some_and(|e| !first.value.may_enter_above(&e.value))
        {
            end += 1;
        }
        if end - start > 1 && !radix::by_key::<_, true>(heap, start, end) {
            introsort(heap, start, end);
        }
        start = end;
    }
}

/// The order of a storage's entries, as [`run`] finds it.
#[cfg(feature = "fast")]
#[cfg_attr(test, derive(Debug, PartialEq))]
pub(super) enum Run {
    BestFirst,
    WorstFirst,
    Neither,
}

/// Whether the first `len` entries are in order, best first or worst first: one pass at
/// most, by blocks of 64 comparisons with no branch, ended at the first block that shows
/// neither order (so a block or two for entries in no order).
#[cfg(feature = "fast")]
pub(super) fn run<S: Storage>(heap: &S, len: usize) -> Run {
    if len < 2 {
        return Run::BestFirst;
    }
    const BLOCK: usize = 64;
    let (mut rises, mut others) = (false, false);
    let mut at = 1;
    while at < len {
        let end = len.min(at + BLOCK);
        let up = (at..end).fold(0_usize, |n, i| match (heap.get(i - 1), heap.get(i)) {
            (Some(a), Some(b)) => {
                let above = b.value.may_enter_above(&a.value);
                let tie = !a.value.may_enter_above(&b.value);
                n + usize::from(above | (tie & (b.index < a.index)))
            }
            _ => n,
        });
        rises |= up > 0;
        others |= up < end - at;
        if rises & others {
            return Run::Neither;
        }
        at = end;
    }
    if rises {
        Run::WorstFirst
    } else {
        Run::BestFirst
    }
}

/// The order of the entries of a row of rankable `values` at ascending stream positions, as
/// [`run`] would find it once they are stored: best first if no value ranks above the one
/// before it (equal values go by ascending index), worst first if each ranks above the one
/// before it. One branch-free read of the row by blocks, which the block test of the values
/// ([`TotalRank::may_enter_above`]) vectorizes, ended at the first block that shows both.
#[cfg(feature = "fast")]
pub(super) fn row_run<T: TotalRank>(values: &[T]) -> Run {
    // Long enough that a block's set-up and sum cost little beside its comparisons; a row in
    // random order shows both a rise and a fall in its first block still.
    const BLOCK: usize = 1024;
    let (mut rises, mut others) = (false, false);
    // Each pair of neighbours once: blocks overlap by one value.
    let mut at = 0;
    while let Some(block) = values.get(at..values.len().min(at + BLOCK + 1)) {
        if block.len() < 2 {
            break;
        }
        // Each value against the one before it, counted in 32-bit words (which vectorize at
        // the comparison's width).
        let after = block.get(1..).unwrap_or_default();
        let up = after
            .iter()
            .zip(block)
            .fold(0_u32, |n, (b, a)| n + u32::from(b.may_enter_above(a)));
        rises |= up > 0;
        others |= (up as usize) < block.len() - 1;
        if rises & others {
            return Run::Neither;
        }
        at += BLOCK;
    }
    if rises {
        Run::WorstFirst
    } else {
        Run::BestFirst
    }
}

/// Whether `a` goes before `b`: it ranks above it.
#[cfg(any(test, feature = "fast"))]
#[inline(always)]
fn before<T: TotalRank>(a: &Entry<T>, b: &Entry<T>) -> bool {
    b.ranks_below(a)
}

/// Whether the entry at `i` goes before the one at `j`; `false` if either is out of range.
#[cfg(any(test, feature = "fast"))]
#[inline(always)]
fn goes_before<S: Storage>(heap: &S, i: usize, j: usize) -> bool {
    match (heap.get(i), heap.get(j)) {
        (Some(a), Some(b)) => before(&a, &b),
        _ => false,
    }
}

/// Swaps the entries at `i` and `j`.
#[cfg(any(test, feature = "fast"))]
#[inline(always)]
fn swap<S: Storage>(heap: &mut S, i: usize, j: usize) {
    if let (Some(a), Some(b)) = (heap.get(i), heap.get(j)) {
        heap.set(i, b);
        heap.set(j, a);
    }
}

/// Sorts positions `lo..hi` by the quicksort, with 2·log2 of their count partitions before a
/// heap sort.
#[cfg(feature = "fast")]
fn introsort<S: Storage>(heap: &mut S, lo: usize, hi: usize) {
    quicksort(heap, lo, hi, 2 * (usize::BITS - (hi - lo).leading_zeros()));
}

/// Sorts positions `lo..hi`, with `depth` partitions left before a heap sort.
#[cfg(any(test, feature = "fast"))]
fn quicksort<S: Storage>(heap: &mut S, mut lo: usize, mut hi: usize, mut depth: u32) {
    while hi - lo > SHORT {
        if depth == 0 {
            heap_sort(heap, lo, hi);
            return;
        }
        depth -= 1;
        let pivot = partition(heap, lo, hi);
        if pivot - lo < hi - pivot {
            quicksort(heap, lo, pivot, depth);
            lo = pivot + 1;
        } else {
            quicksort(heap, pivot + 1, hi, depth);
            hi = pivot;
        }
    }
    insertion_sort(heap, lo, hi);
}

/// Partitions `lo..hi` (more than [`SHORT`] entries) around [`pivot`]; returns the pivot's
/// final position, with every entry before it going before it.
#[cfg(any(test, feature = "fast"))]
fn partition<S: Storage>(heap: &mut S, lo: usize, hi: usize) -> usize {
    let median = pivot(heap, lo, hi);
    swap(heap, lo, median);
    let Some(pivot) = heap.get(lo) else {
        return lo;
    };
    let (l, r) = partition_blocks(heap, lo + 1, hi, &pivot);
    let store = partition_lomuto(heap, l, r, &pivot);
    swap(heap, lo, store - 1);
    store - 1
}

/// Entries of a block of [`partition_blocks`]: their offsets in it fit a `u8`.
#[cfg(any(test, feature = "fast"))]
const BLOCK: usize = 64;

/// Partitions the two ends of `lo..hi` around `pivot` by blocks (Edelkamp and Weiß's
/// BlockQuicksort): the offsets of the entries of a block at the left end that do not go
/// before the pivot, and of those of a block at the right end that do, are gathered with no
/// branch, then swapped in pairs, so that no comparison is a branch and no entry waits for
/// the one before it to be stored. Returns `(l, r)`: every entry of `lo..l` goes before the
/// pivot, none of `r..hi` does, and `l..r` (fewer than 3·[`BLOCK`] entries) is left for
/// [`partition_lomuto`].
#[cfg(any(test, feature = "fast"))]
fn partition_blocks<S: Storage>(
    heap: &mut S,
    mut l: usize,
    mut r: usize,
    pivot: &Entry<S::Value>,
) -> (usize, usize) {
    // Whether the entry at `i` goes before the pivot (`wanted`) or not; `false` out of range.
    let is = |heap: &S, i: usize, wanted: bool| {
        heap.get(i)
            .is_some_and(|entry| before(&entry, pivot) == wanted)
    };
    let (mut left, mut right) = ([0_u8; BLOCK], [0_u8; BLOCK]);
    let (mut left_start, mut left_len, mut right_start, mut right_len) = (0, 0, 0, 0);
    while r - l >= 2 * BLOCK {
        // Offsets are written at the count so far, which stays below BLOCK: `get_mut` only
        // spares the build a bounds check it cannot prove away.
        if left_len == 0 {
            left_start = 0;
            for (i, offset) in (0..BLOCK as u8).enumerate() {
                if let Some(slot) = left.get_mut(left_len) {
                    *slot = offset;
                }
                left_len += usize::from(is(heap, l + i, false));
            }
        }
        if right_len == 0 {
            right_start = 0;
            for (i, offset) in (0..BLOCK as u8).enumerate() {
                if let Some(slot) = right.get_mut(right_len) {
                    *slot = offset;
                }
                right_len += usize::from(is(heap, r - 1 - i, true));
            }
        }
        let pairs = left_len.min(right_len);
        let lefts = left.iter().skip(left_start);
        let rights = right.iter().skip(right_start);
        for (&i, &k) in lefts.zip(rights).take(pairs) {
            swap(heap, l + usize::from(i), r - 1 - usize::from(k));
        }
        (left_start, left_len) = (left_start + pairs, left_len - pairs);
        (right_start, right_len) = (right_start + pairs, right_len - pairs);
        if left_len == 0 {
            l += BLOCK;
        }
        if right_len == 0 {
            r -= BLOCK;
        }
    }
    (l, r)
}

/// Partitions `l..r` around `pivot` (Lomuto's scheme with an unconditional swap, no branch);
/// returns `store`: the entries of `l..store` go before the pivot, those of `store..r` do not.
#[cfg(any(test, feature = "fast"))]
fn partition_lomuto<S: Storage>(
    heap: &mut S,
    l: usize,
    r: usize,
    pivot: &Entry<S::Value>,
) -> usize {
    let mut store = l;
    for i in l..r {
        let (Some(entry), Some(stored)) = (heap.get(i), heap.get(store)) else {
            break;
        };
        heap.set(i, stored);
        heap.set(store, entry);
        store += usize::from(before(&entry, pivot));
    }
    store
}

/// The position of the pivot of `lo..hi` (more than [`SHORT`] entries): the median of the
/// entries at three places spread over the range, or in a range of at least [`NINTHER`] the
/// median of the medians of three groups of three, at nine places spread evenly over it.
#[cfg(any(test, feature = "fast"))]
fn pivot<S: Storage>(heap: &S, lo: usize, hi: usize) -> usize {
    let len = hi - lo;
    // The middle of the j-th of nine equal parts of the range.
    let at = |j: usize| lo + (2 * j + 1) * len / 18;
    if len < NINTHER {
        return median3(heap, at(0), at(4), at(8));
    }
    let a = median3(heap, at(0), at(1), at(2));
    let b = median3(heap, at(3), at(4), at(5));
    let c = median3(heap, at(6), at(7), at(8));
    median3(heap, a, b, c)
}

/// The position of the median of the entries at `a`, `b` and `c`.
#[cfg(any(test, feature = "fast"))]
fn median3<S: Storage>(heap: &S, a: usize, b: usize, c: usize) -> usize {
    let (xy, yz, xz) = (
        goes_before(heap, a, b),
        goes_before(heap, b, c),
        goes_before(heap, a, c),
    );
    if xy == yz {
        // In order, one way or the other.
        b
    } else if xy == xz {
        // The entry at b is at one end, and c between a and b.
        c
    } else {
        a
    }
}

/// Sorts positions `lo..hi` by insertion.
#[cfg(any(test, feature = "fast"))]
fn insertion_sort<S: Storage>(heap: &mut S, lo: usize, hi: usize) {
    for i in lo + 1..hi {
        let Some(entry) = heap.get(i) else {
            return;
        };
        let mut j = i;
        while j > lo {
            match heap.get(j - 1) {
                Some(previous) if before(&entry, &previous) => {
                    heap.set(j, previous);
                    j -= 1;
                }
                _ => break,
            }
        }
        heap.set(j, entry);
    }
}

/// Sorts positions `lo..hi` by the heap's own build and sort: O(k log k) whatever the entries.
#[cfg(any(test, feature = "fast"))]
fn heap_sort<S: Storage>(heap: &mut S, lo: usize, hi: usize) {
    super::heap_passes(heap, lo, hi - lo, super::Passes::BuildAndSort);
}

#[cfg(test)]
mod tests {
    use std::vec::Vec;

    use super::*;
    use crate::heap::storage::sealed::Sealed as _;
    use crate::heap::storage::Limited;
    #[cfg(feature = "fast")]
    use crate::testing::oracle_bits;
    use crate::testing::{oracle, xorshift, F32_EDGES};

    /// [`sort`] of entries in any order: without `fast` the sort takes a heap, so the
    /// entries are made one first.
    fn sorted_in_place<T: TotalRank>(storage: &mut Limited<T, 1024>) {
        if cfg!(not(feature = "fast")) {
            crate::heap::rebuild(storage);
        }
        sort(storage);
    }

    /// Sorts `values` as entries of their positions through a storage: by [`sort`] if `depth`
    /// is `None`, else by [`quicksort`] with `depth` partitions before the heap sort.
    fn sorted(values: &[i32], depth: Option<u32>) -> Vec<(u32, i32)> {
        let mut storage = Limited::<i32, 1024>::new(values.len());
        for (index, &value) in (0..).zip(values) {
            storage.append(Entry { value, index });
        }
        let len = storage.len();
        match depth {
            None => sorted_in_place(&mut storage),
            Some(depth) => quicksort(&mut storage, 0, len, depth),
        }
        storage
            .entries()
            .iter()
            .map(|e| (e.index, e.value))
            .collect()
    }

    #[test]
    fn every_path_sorts_best_first_with_ties_by_index() {
        let mut rows: Vec<Vec<i32>> = Vec::new();
        let mut next = xorshift(0x2545_F491);
        // Under Miri (slow): each path once, 65 long enough to partition with the ninther.
        let lens: &[usize] = if cfg!(miri) {
            &[0, 1, 17, 65]
        } else {
            &[0, 1, 2, 3, 16, 17, 18, 63, 64, 65, 100, 511]
        };
        for &len in lens {
            rows.push((0..len).map(|i| i as i32).collect());
            rows.push((0..len).map(|i| -(i as i32)).collect());
            rows.push((0..len).map(|i| i.min(len - 1 - i) as i32).collect());
            rows.push(std::vec![7; len]);
            rows.push((0..len).map(|_| (next() % 5) as i32).collect());
        }
        // In order but for the last entry, one way and the other.
        rows.push((0..100).map(|i| if i == 99 { 1000 } else { i }).collect());
        rows.push((0..100).map(|i| if i == 99 { -1000 } else { -i }).collect());
        for row in rows {
            let expected: Vec<(u32, i32)> = oracle(&row, row.len())
                .unwrap()
                .into_iter()
                .map(|e| (e.index, e.value))
                .collect();
            // The runs checked first; quicksort, the heap sort at once, and the heap sort
            // after one partition.
            for depth in [None, Some(64), Some(0), Some(1)] {
                assert_eq!(sorted(&row, depth), expected, "{row:?} depth {depth:?}");
            }
        }
    }

    /// Sorts `values` as entries of their positions through [`sort`].
    fn sorted_by_sort<T: TotalRank>(values: &[T]) -> Vec<Entry<T>> {
        let mut storage = Limited::<T, 1024>::new(values.len());
        for (index, &value) in (0..).zip(values) {
            storage.append(Entry { value, index });
        }
        sorted_in_place(&mut storage);
        storage.entries().to_vec()
    }

    #[test]
    fn edge_values_and_ties_sort_as_the_oracle() {
        let mut next = xorshift(0x9E37_79B9_u32);
        let edges: Vec<f32> = F32_EDGES.into_iter().filter(|v| !v.is_nan()).collect();
        let lens: &[usize] = if cfg!(miri) {
            &[100]
        } else {
            &[255, 256, 257, 1000]
        };
        for &len in lens {
            // Edge values, many equal; spread values with a few edges; two values only.
            let tied: Vec<f32> = (0..len)
                .map(|_| edges[next() as usize % edges.len()])
                .collect();
            let spread: Vec<f32> = (0..len)
                .map(|_| match next() % 16 {
                    0 => edges[next() as usize % edges.len()],
                    _ => (next() % 100_000) as f32 / 7.0 - 5000.0,
                })
                .collect();
            let two: Vec<f32> = (0..len)
                .map(|_| [0.0, -0.0, 1.0][next() as usize % 3])
                .collect();
            for row in [tied, spread, two] {
                let got = sorted_by_sort(&row);
                let want = oracle(&row, row.len()).unwrap();
                let bits = |e: &[Entry<f32>]| -> Vec<(u32, u32)> {
                    e.iter().map(|e| (e.index, e.value.to_bits())).collect()
                };
                assert_eq!(bits(&got), bits(&want), "len {len}");
            }
            let ints: Vec<i64> = (0..len).map(|_| i64::from(next() as i32) << 20).collect();
            let got = sorted_by_sort(&ints);
            assert_eq!(got, oracle(&ints, ints.len()).unwrap());
            let wide: Vec<u128> = (0..len).map(|_| u128::from(next() % 50)).collect();
            assert_eq!(sorted_by_sort(&wide), oracle(&wide, wide.len()).unwrap());
        }
    }

    /// [`row_run`] of a row, and [`run`] of its entries stored in order, against the
    /// definition: best first iff each entry ranks above the next, worst first iff each ranks
    /// below it (a row of one value is best first), on rows in order but for one value at
    /// each end or across a block's edge, with ties and the zeros of both signs.
    #[cfg(feature = "fast")]
    #[test]
    fn the_runs_found_are_the_definition() {
        let lens: &[usize] = if cfg!(miri) {
            &[0, 1, 2, 66]
        } else {
            // Both functions' block edges: 64 for `run`, 1,024 for `row_run`.
            &[0, 1, 2, 3, 63, 64, 65, 66, 129, 300, 1024, 1025, 1026, 2100]
        };
        for &len in lens {
            let rising: Vec<f32> = (0..len).map(|i| i as f32).collect();
            let falling: Vec<f32> = rising.iter().map(|v| -v).collect();
            let flat: Vec<f32> = (0..len).map(|i| [0.0, -0.0][i % 2]).collect();
            let steps: Vec<f32> = (0..len).map(|i| -((i / 3) as f32)).collect();
            for row in [rising, falling, flat, steps] {
                // Each row as it is, and with one value out of place at several points.
                for at in [
                    None,
                    Some(0),
                    Some(len / 2),
                    Some(64),
                    Some(65),
                    Some(1024),
                    Some(1025),
                    Some(len.max(1) - 1),
                ] {
                    let mut row = row.clone();
                    for by in [1.0e9_f32, -1.0e9] {
                        if let Some(slot) = at.and_then(|at| row.get_mut(at)) {
                            *slot = by;
                        }
                        let entries: Vec<Entry<f32>> = (0..)
                            .zip(&row)
                            .map(|(index, &value)| Entry { value, index })
                            .collect();
                        let pairs = || entries.windows(2);
                        let want = if pairs().all(|w| w[1].ranks_below(&w[0])) {
                            Run::BestFirst
                        } else if pairs().all(|w| w[0].ranks_below(&w[1])) {
                            Run::WorstFirst
                        } else {
                            Run::Neither
                        };
                        let mut storage = Limited::<f32, 2100>::new(row.len());
                        entries.iter().for_each(|&entry| storage.append(entry));
                        let name = |what| std::format!("{what} of {row:?}");
                        assert_eq!(row_run(&row), want, "{}", name("row_run"));
                        assert_eq!(run(&storage, row.len()), want, "{}", name("run"));
                    }
                }
            }
        }
    }

    /// The final sort of kept entries in any order (shuffled), where the radix passes serve
    /// (`radix::by_key`: 64 to 4,096 entries on a host), at their edges and past them (a range
    /// spread first, whose buckets take the passes), in both storages (an array of entries,
    /// caller buffers), both orders (largest first, smallest first through `Reversed`) and
    /// both directions (best first, worst first): the oracle's order to the bit, on tie-heavy
    /// rows (edge values, both zeros, a long run of -inf as masked logits leave, one value, two
    /// values, runs of 63 to 65 equal values among distinct ones, a few values repeated among
    /// many). And the passes by value alone, in both orders: equal values in the order they
    /// came in, `-0.0` next to `0.0`.
    #[cfg(feature = "fast")]
    #[test]
    fn kept_entries_in_any_order_sort_as_the_oracle_around_the_passes() {
        use crate::heap::storage::{Reversed, Slices};
        use core::cmp::Reverse;
        const MOST: usize = 9000;
        let mut next = xorshift(0x6A09_E667);
        let edges: Vec<f32> = F32_EDGES.into_iter().filter(|v| !v.is_nan()).collect();
        let lens: &[usize] = if cfg!(miri) {
            &[130]
        } else {
            &[63, 64, 65, 512, 513, 1000, 4095, 4096, 4097, 5000, MOST]
        };
        let bits = |e: &mut dyn Iterator<Item = (u32, f32)>| -> Vec<(u32, u32)> {
            e.map(|(index, value)| (index, value.to_bits())).collect()
        };
        for &len in lens {
            let mut rows: Vec<Vec<f32>> = std::vec![
                (0..len)
                    .map(|_| edges[next() as usize % edges.len()])
                    .collect(),
                (0..len)
                    .map(|_| match next() % 16 {
                        0 => edges[next() as usize % edges.len()],
                        _ => (next() % 100_000) as f32 / 7.0 - 5000.0,
                    })
                    .collect(),
                (0..len)
                    .map(|_| match next() % 8 {
                        0 => (next() % 1000) as f32 / 64.0,
                        _ => f32::NEG_INFINITY,
                    })
                    .collect(),
                std::vec![0.5; len],
                (0..len)
                    .map(|_| [0.0, -0.0, 1.0][next() as usize % 3])
                    .collect(),
            ];
            // A run of exactly 63, 64 or 65 equal values among distinct ones.
            for run in [63, 64, 65].into_iter().filter(|&run| len >= 4 * run) {
                let mut row: Vec<f32> = (0..len).map(|i| i as f32).collect();
                (0..run).for_each(|j| row[j * (len / run)] = 0.5);
                rows.push(row);
            }
            // Four values repeated 300 times each among distinct ones.
            if len >= 4000 {
                rows.push(
                    (0..len)
                        .map(|i| match i % 13 {
                            0..=3 if i < 13 * 300 => (i % 13) as f32 * 100.0,
                            _ => (next() % 1_000_000) as f32 / 3.0 + 0.5,
                        })
                        .collect(),
                );
            }
            for row in rows {
                // The entries in a random order.
                let mut order: Vec<u32> = (0..len as u32).collect();
                for i in (1..order.len()).rev() {
                    order.swap(i, next() as usize % (i + 1));
                }
                let entry = |i: u32| Entry {
                    value: row[i as usize],
                    index: i,
                };
                let want = oracle_bits(&row, len);
                let want_worst: Vec<(u32, u32)> = want.iter().rev().copied().collect();
                let mut pairs = Limited::<f32, MOST>::new(len);
                order.iter().for_each(|&i| pairs.append(entry(i)));
                sort(&mut pairs);
                let got = bits(&mut pairs.entries().iter().map(|e| (e.index, e.value)));
                assert_eq!(got, want, "pairs, len {len}");
                let mut pairs = Limited::<f32, MOST>::new(len);
                order.iter().for_each(|&i| pairs.append(entry(i)));
                sort_worst_first(&mut pairs);
                let got = bits(&mut pairs.entries().iter().map(|e| (e.index, e.value)));
                assert_eq!(got, want_worst, "pairs worst first, len {len}");
                let (mut idx, mut val) = (std::vec![0; len], std::vec![0.0; len]);
                let mut columns = Slices::new(&mut idx, &mut val).unwrap();
                order.iter().for_each(|&i| columns.append(entry(i)));
                sort(&mut columns);
                let got = bits(
                    &mut (0..len)
                        .filter_map(|j| columns.get(j))
                        .map(|e| (e.index, e.value)),
                );
                assert_eq!(got, want, "columns, len {len}");
                let reversed: Vec<Reverse<f32>> = row.iter().map(|&v| Reverse(v)).collect();
                let want = oracle(&reversed, len).unwrap();
                let want = bits(&mut want.iter().map(|e| (e.index, e.value.0)));
                let (mut idx, mut val) = (std::vec![0; len], std::vec![0.0; len]);
                let mut smallest = Reversed::new(&mut idx, &mut val).unwrap();
                for &i in &order {
                    smallest.append(Entry::new(Reverse(row[i as usize]), i));
                }
                sort(&mut smallest);
                let got = bits(
                    &mut (0..len)
                        .filter_map(|j| smallest.get(j))
                        .map(|e| (e.index, e.value.0)),
                );
                assert_eq!(got, want, "smallest first, len {len}");
                // The passes by value alone, where they serve: stable, in both orders.
                let serves =
                    crate::HOST_STACK && (radix::PASSES_MIN..=radix::PASSES_MAX).contains(&len);
                let by_value = |largest: bool| {
                    let mut want: Vec<Entry<f32>> = order.iter().map(|&i| entry(i)).collect();
                    // A stable sort by value alone, best first, `-0.0` after `0.0` in the
                    // order of the largest, before it in that of the smallest.
                    want.sort_by(|a, b| {
                        let negative = |e: &Entry<f32>| e.value.is_sign_negative();
                        let by_value = b.value.partial_cmp(&a.value).unwrap();
                        let by_value = by_value.then(negative(a).cmp(&negative(b)));
                        if largest {
                            by_value
                        } else {
                            by_value.reverse()
                        }
                    });
                    bits(&mut want.iter().map(|e| (e.index, e.value)))
                };
                let mut pairs = Limited::<f32, MOST>::new(len);
                order.iter().for_each(|&i| pairs.append(entry(i)));
                assert_eq!(
                    radix::by_key::<_, false>(&mut pairs, 0, len),
                    serves,
                    "len {len}"
                );
                if serves {
                    let got = bits(&mut pairs.entries().iter().map(|e| (e.index, e.value)));
                    assert_eq!(got, by_value(true), "by value, len {len}");
                }
                let (mut idx, mut val) = (std::vec![0; len], std::vec![0.0; len]);
                let mut smallest = Reversed::new(&mut idx, &mut val).unwrap();
                for &i in &order {
                    smallest.append(Entry::new(Reverse(row[i as usize]), i));
                }
                assert_eq!(
                    radix::by_key::<_, false>(&mut smallest, 0, len),
                    serves,
                    "len {len}"
                );
                if serves {
                    let got = bits(
                        &mut (0..len)
                            .filter_map(|j| smallest.get(j))
                            .map(|e| (e.index, e.value.0)),
                    );
                    assert_eq!(got, by_value(false), "smallest by value, len {len}");
                }
            }
        }
    }

    #[test]
    fn median3_is_the_median_of_every_order() {
        let orders = [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ];
        for order in orders {
            let mut storage = Limited::<i32, 3>::new(3);
            for (index, &value) in (0..).zip(&order) {
                storage.append(Entry { value, index });
            }
            let median = median3(&storage, 0, 1, 2);
            assert_eq!(storage.get(median).map(|e| e.value), Some(1), "{order:?}");
        }
    }
}
