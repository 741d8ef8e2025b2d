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
#[cfg(any(test, feature = "fast"))]
use crate::Entry;

/// Ranges at most this long are sorted by insertion.
#[cfg(any(test, feature = "fast"))]
const SHORT: usize = 16;

/// Sorts positions `0..len()` of the storage best first: by the introsort with the `fast`
/// feature; without it, the storage being a heap, by the heap's own sort (less code, the
/// same order: no two entries tie).
pub(crate) fn sort<S: Storage>(heap: &mut S) {
    let len = heap.len();
    #[cfg(feature = "fast")]
    quicksort(heap, 0, len, 2 * (usize::BITS - len.leading_zeros()));
    #[cfg(not(feature = "fast"))]
    sort_heap(heap, len);
}

/// The heap's own sort, without the `fast` feature: the storage is a heap (its root the worst
/// entry), so the root goes to the end and the last entry sifts down the rest, `len` times,
/// with the heap's sift ([`super::sift_down`]): O(k log k), and no code of its own to speak
/// of.
#[cfg(not(feature = "fast"))]
fn sort_heap<S: Storage>(heap: &mut S, len: usize) {
    for end in (1..len).rev() {
        if let (Some(worst), Some(last)) = (heap.get(0), heap.get(end)) {
            heap.set(end, worst);
            super::sift_down(heap, 0, last, end);
        }
    }
}

/// Whether `a` goes before `b`: it ranks above it.
#[cfg(any(test, feature = "fast"))]
#[inline(always)]
fn before<T: crate::TotalRank>(a: &Entry<T>, b: &Entry<T>) -> bool {
    b.ranks_below(a)
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

/// Whether the entry at `i` goes before the one at `j`; `false` if either is out of range.
#[cfg(any(test, feature = "fast"))]
#[inline(always)]
fn goes_before<S: Storage>(heap: &S, i: usize, j: usize) -> bool {
    match (heap.get(i), heap.get(j)) {
        (Some(a), Some(b)) => before(&a, &b),
        _ => false,
    }
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

/// Partitions `lo..hi` (at least 3 entries) around the median of its first, middle and last
/// entries; returns the pivot's final position, with every entry before it going before it.
#[cfg(any(test, feature = "fast"))]
fn partition<S: Storage>(heap: &mut S, lo: usize, hi: usize) -> usize {
    let (mid, last) = (lo + (hi - lo) / 2, hi - 1);
    // The median of the three to `lo`.
    if goes_before(heap, mid, lo) {
        swap(heap, mid, lo);
    }
    if goes_before(heap, last, lo) {
        swap(heap, last, lo);
    }
    // `lo` now goes first of the three: the median is the first of the other two.
    let median = if goes_before(heap, mid, last) {
        mid
    } else {
        last
    };
    swap(heap, lo, median);
    let Some(pivot) = heap.get(lo) else {
        return lo;
    };
    // Positions lo+1..store go before the pivot, store..i do not.
    let mut store = lo + 1;
    for i in lo + 1..hi {
        let (Some(entry), Some(stored)) = (heap.get(i), heap.get(store)) else {
            break;
        };
        heap.set(i, stored);
        heap.set(store, entry);
        store += usize::from(before(&entry, &pivot));
    }
    swap(heap, lo, store - 1);
    store - 1
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

/// Sorts positions `lo..hi` by a heap sort: the worst to the end, one by one.
#[cfg(any(test, feature = "fast"))]
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
#[cfg(any(test, feature = "fast"))]
fn sift_down<S: Storage>(heap: &mut S, lo: usize, mut pos: usize, len: usize) {
    loop {
        let left = 2 * pos + 1;
        if left >= len {
            return;
        }
        let right = left + 1;
        let child = if right < len && goes_before(heap, lo + left, lo + right) {
            right
        } else {
            left
        };
        if !goes_before(heap, lo + pos, lo + child) {
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
