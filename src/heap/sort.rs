//! The final sort of the kept entries, best first, in place in the storage: a quicksort
//! (introsort), which at large k takes about half the time of a heap sort of the same
//! entries: fewer comparisons, and each partition reads the entries in order.
//!
//! The pivot is the median of three entries; each partition is branch-free (Lomuto's scheme
//! with an unconditional swap); the smaller side is sorted first, by recursion, and the larger
//! one by the loop, so the recursion is at most log2(k) deep; a range that has taken more than
//! 2·log2(k) partitions is heap sorted (O(k log k) whatever the entries), and a short range is
//! sorted by insertion. Entries never tie under [`Entry::ranks_below`] (indices are distinct),
//! so no range of equal entries needs a pass of its own.

use super::Storage;
use crate::Entry;

/// Ranges at most this long are sorted by insertion.
const SHORT: usize = 16;

/// Sorts positions `0..len()` of the storage best first.
pub(crate) fn sort<S: Storage>(heap: &mut S) {
    let len = heap.len();
    let depth = 2 * (usize::BITS - len.leading_zeros());
    quicksort(heap, 0, len, depth);
}

/// Whether `a` goes before `b`: it ranks above it.
#[inline(always)]
fn before<T: crate::TotalRank>(a: &Entry<T>, b: &Entry<T>) -> bool {
    b.ranks_below(a)
}

/// Swaps the entries at `i` and `j`.
#[inline(always)]
fn swap<S: Storage>(heap: &mut S, i: usize, j: usize) {
    let (a, b) = (heap.get(i), heap.get(j));
    heap.set(i, b);
    heap.set(j, a);
}

/// Sorts positions `lo..hi`, with `depth` partitions left before a heap sort.
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

/// Partitions `lo..hi` (at least 3 entries) around the median of its first, middle and last
/// entries; returns the pivot's final position, with every entry before it going before it.
fn partition<S: Storage>(heap: &mut S, lo: usize, hi: usize) -> usize {
    let (mid, last) = (lo + (hi - lo) / 2, hi - 1);
    // The median of the three to `lo`.
    if before(&heap.get(mid), &heap.get(lo)) {
        swap(heap, mid, lo);
    }
    if before(&heap.get(last), &heap.get(lo)) {
        swap(heap, last, lo);
    }
    // `lo` now goes first of the three: the median is the first of the other two.
    let median = if before(&heap.get(mid), &heap.get(last)) {
        mid
    } else {
        last
    };
    swap(heap, lo, median);
    let pivot = heap.get(lo);
    // Positions lo+1..store go before the pivot, store..i do not.
    let mut store = lo + 1;
    for i in lo + 1..hi {
        let entry = heap.get(i);
        heap.set(i, heap.get(store));
        heap.set(store, entry);
        store += usize::from(before(&entry, &pivot));
    }
    swap(heap, lo, store - 1);
    store - 1
}

/// Sorts positions `lo..hi` by insertion.
fn insertion_sort<S: Storage>(heap: &mut S, lo: usize, hi: usize) {
    for i in lo + 1..hi {
        let entry = heap.get(i);
        let mut j = i;
        while j > lo && before(&entry, &heap.get(j - 1)) {
            heap.set(j, heap.get(j - 1));
            j -= 1;
        }
        heap.set(j, entry);
    }
}

/// Sorts positions `lo..hi` by a heap sort: the worst to the end, one by one.
fn heap_sort<S: Storage>(heap: &mut S, lo: usize, hi: usize) {
    let len = hi - lo;
    for i in (0..len / 2).rev() {
        sift_down(heap, lo, i, len);
    }
    for end in (1..len).rev() {
        swap(heap, lo, lo + end);
        sift_down(heap, lo, 0, end);
    }
}

/// Sifts the entry at `lo + pos` down the heap of `len` entries at `lo..`, whose root is its
/// worst entry.
fn sift_down<S: Storage>(heap: &mut S, lo: usize, mut pos: usize, len: usize) {
    loop {
        let left = 2 * pos + 1;
        if left >= len {
            return;
        }
        let right = left + 1;
        let child = if right < len && heap.get(lo + right).ranks_below(&heap.get(lo + left)) {
            right
        } else {
            left
        };
        if !heap.get(lo + child).ranks_below(&heap.get(lo + pos)) {
            return;
        }
        swap(heap, lo + pos, lo + child);
        pos = child;
    }
}

#[cfg(test)]
mod tests {
    use std::vec::Vec;

    use super::*;
    use crate::heap::storage::sealed::Sealed as _;
    use crate::heap::storage::Limited;
    use crate::testing::oracle;

    /// Sorts `values` as entries of their positions through a storage, with `depth`
    /// partitions before the heap sort.
    fn sorted(values: &[i32], depth: u32) -> Vec<(u32, i32)> {
        let mut storage = Limited::<i32, 512>::new(values.len());
        for (index, &value) in (0..).zip(values) {
            storage.append(Entry { value, index });
        }
        let len = storage.len();
        quicksort(&mut storage, 0, len, depth);
        storage
            .entries()
            .iter()
            .map(|e| (e.index, e.value))
            .collect()
    }

    #[test]
    fn every_path_sorts_best_first_with_ties_by_index() {
        let mut rows: Vec<Vec<i32>> = Vec::new();
        let mut x = 0x2545_F491_u32;
        for len in [0, 1, 2, 3, 16, 17, 18, 100, 511] {
            rows.push((0..len).map(|i| i as i32).collect());
            rows.push((0..len).map(|i| -(i as i32)).collect());
            rows.push(std::vec![7; len]);
            rows.push(
                (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 17;
                        x ^= x << 5;
                        (x % 5) as i32
                    })
                    .collect(),
            );
        }
        for row in rows {
            let expected: Vec<(u32, i32)> = oracle(&row, row.len())
                .unwrap()
                .into_iter()
                .map(|e| (e.index, e.value))
                .collect();
            // Quicksort, the heap sort at once, and the heap sort after one partition.
            for depth in [64, 0, 1] {
                assert_eq!(sorted(&row, depth), expected, "{row:?} depth {depth}");
            }
        }
    }
}
