//! The one heap: a size-k min-heap of entries under [`Entry::ranks_below`], written once over
//! a [`Storage`] so that every selector, whatever holds its entries, shares every line.
//!
//! The root is the worst kept entry. While fewer than k entries are kept, a new one is appended
//! and sifted up. Then each new entry costs one comparison with the root; only a better one
//! replaces the root and is sifted down: O(log k). Because a stream's entries arrive by
//! ascending index, a later entry that ties the root is worse than it and stays out, so the
//! lower index wins the last place with no special case. At the end an in-place sort
//! ([`sort()`]: a quicksort with `fast`, the heap's own sort without) leaves the storage best
//! first in O(k log k), or a reversal if it is already in order (with `fast`, an extend into
//! an empty selector may have sorted many `f32` entries worst first from its row, in O(k):
//! [`sort_kept_worst_first`], or kept them so with no heap at all: [`keep_pooled`]).

#[cfg(feature = "fast")]
pub(crate) mod radix;
mod sort;
pub(crate) mod storage;

pub(crate) use sort::{sort, sort_worst_first};

pub use storage::Storage;

#[cfg(feature = "fast")]
pub(crate) use radix::Pool;

use crate::Entry;
#[cfg(any(test, feature = "fast"))]
use crate::TotalRank;

/// Appends every value of `values` (stream positions `start..`, rankable, within the stream's
/// end) to the empty `heap`, which has room for them all, and sorts them, best first or
/// (`worst_first`, a heap then) worst first: every value is kept, so there is nothing to
/// select and no heap to build. The row's order is looked at first, on the values
/// ([`sort::row_run`], branch-free by blocks): a row in order, rising, falling or all equal,
/// is appended in the order asked for, one pass and no sort; otherwise
/// a row of 512 `f32` (or `Reverse<f32>`) values or more, in a storage that lends its places
/// (caller buffers, or a `TopK<f32, K>`'s array), the radix sort, O(n); another the quicksort.
/// Never inlined, so that the sort's frame is not beside a caller's (the scan's).
#[cfg(feature = "fast")]
#[inline(never)]
pub(crate) fn keep_row<S: Storage>(
    heap: &mut S,
    start: u64,
    values: &[S::Value],
    worst_first: bool,
) {
    debug_assert_eq!(heap.len(), 0);
    match sort::row_run(values) {
        sort::Run::Neither => {
            entries(start, values).for_each(|entry| heap.append(entry));
            sort::ordered_from(heap, sort::Run::Neither, worst_first, |heap| {
                radix::sort(heap, start, values)
            });
        }
        // In order already: appended in the order asked for, nothing left to sort.
        run => append_best_of_run(heap, start, values, run, worst_first),
    }
}

/// Appends to the empty `heap` the best `capacity()` entries (all if fewer) of `values`
/// (stream positions `start..`, rankable, within the stream's end), worst first, which is a
/// heap, when the row is in order ([`sort::row_run`]: no value ranks above the one before
/// it, or each ranks above the one before it), and says whether it was: then its best are
/// its first or its last values, and there is nothing to select or sort. Costs the read that
/// finds the order, which ends at the first block that shows a rise and a value that does not
/// rise (a block or two on a row in random order), and O(k) appends. A row in order is the
/// worst case of the scan's sample and of the final sort at large k: a rising row sends every
/// value past a heap's root, and its kept entries come out of the heap in no order.
#[cfg(feature = "fast")]
#[inline(never)]
pub(crate) fn keep_best_if_in_order<S: Storage>(
    heap: &mut S,
    start: u64,
    values: &[S::Value],
) -> bool {
    debug_assert_eq!(heap.len(), 0);
    match sort::row_run(values) {
        sort::Run::Neither => false,
        run => {
            append_best_of_run(heap, start, values, run, true);
            true
        }
    }
}

/// Keeps in the empty `heap` the best `capacity()` entries of `values` (stream positions
/// `start..`, rankable, within the stream's end), worst first, which is a heap, from the
/// positions that `gather` puts in a pool in the row's order (those of the values above a
/// floor that at least k are above), and says whether it did: where the pool serves
/// ([`radix::pool_pays`]: many `f32` kept of a short row), and the positions gathered are
/// at least k and fit it (at most 2·k). Then no value enters a heap: the best k of the pool
/// are cut from it by their keys and radix sorted ([`radix::keep_pooled`]), O(c + k) for c
/// positions gathered. Otherwise nothing is kept.
#[cfg(feature = "fast")]
#[inline(always)]
pub(crate) fn keep_pooled<S: Storage>(
    heap: &mut S,
    start: u64,
    values: &[S::Value],
    gather: impl FnOnce(&mut Pool<'_>),
) -> bool {
    // A storage that lends no `f32` places does not at any length: it is asked while empty.
    if pool_places(heap, values).is_none() {
        return false;
    }
    // The pool's places are the storage's: k entries to lend them, which it overwrites.
    entries(start, values)
        .take(heap.capacity())
        .for_each(|entry| heap.append(entry));
    let kept = match heap.f32_lanes() {
        Some(lanes) => {
            let mut pool = Pool::new(lanes);
            gather(&mut pool);
            radix::keep_pooled(pool, start, values)
        }
        None => false,
    };
    if kept {
        heap.reverse();
    } else {
        heap.clear();
    }
    kept
}

/// The places of the pool of [`keep_pooled`] for the empty `heap` over `values`, 2·k, if it
/// serves them: the most positions above a floor that it takes.
#[cfg(feature = "fast")]
#[inline(always)]
pub(crate) fn pool_places<S: Storage>(heap: &mut S, values: &[S::Value]) -> Option<usize> {
    let k = heap.capacity();
    let serves = heap.len() == 0
        && radix::pool_pays::<S::Value>(k, values.len())
        && heap.f32_lanes().is_some();
    serves.then_some(2 * k)
}

/// Appends to the empty `heap` the best `capacity()` entries (all if fewer) of `values`
/// (stream positions `start..`, within the stream's end), whose order is `run`, not
/// [`sort::Run::Neither`]: its first ones if best first, its last ones if worst first, in the
/// order asked for.
#[cfg(feature = "fast")]
fn append_best_of_run<S: Storage>(
    heap: &mut S,
    start: u64,
    values: &[S::Value],
    run: sort::Run,
    worst_first: bool,
) {
    let k = heap.capacity().min(values.len());
    let entries = entries(start, values);
    let best_first = matches!(run, sort::Run::BestFirst);
    let mut append = |entry| heap.append(entry);
    match (best_first, worst_first) {
        (true, false) => entries.take(k).for_each(&mut append),
        (true, true) => entries.take(k).rev().for_each(&mut append),
        (false, true) => entries.skip(values.len() - k).for_each(&mut append),
        (false, false) => entries.skip(values.len() - k).rev().for_each(&mut append),
    }
}

/// The entries of `values` at stream positions `start..`, which the caller keeps within the
/// stream's end.
#[cfg(feature = "fast")]
fn entries<T: Copy>(
    start: u64,
    values: &[T],
) -> impl DoubleEndedIterator<Item = Entry<T>> + ExactSizeIterator + '_ {
    // Within the stream's end: the casts are lossless.
    values.iter().enumerate().map(move |(at, &value)| Entry {
        value,
        index: (start + at as u64) as u32,
    })
}

/// Sorts the kept entries worst first, which leaves a heap, when every one of them is an entry
/// of `values` (stream positions `start..`, rankable), the row at hand, and the radix sort of
/// kept entries serves them ([`radix::sort_kept`]: many `f32` entries of a short row, O(k));
/// else leaves them as they are. The final sort then finds them in order and reverses them.
#[cfg(feature = "fast")]
#[inline(never)]
pub(crate) fn sort_kept_worst_first<S: Storage>(heap: &mut S, start: u64, values: &[S::Value]) {
    radix::sort_kept(heap, start, values);
}

/// The root: the worst kept entry, if any.
#[inline]
pub(crate) fn peek_worst<S: Storage>(heap: &S) -> Option<Entry<S::Value>> {
    heap.get(0)
}

/// Keeps `entry` if it is among the best `capacity()` entries offered so far. Every comparison
/// is the full order ([`Entry::ranks_below`], index included), so entries may come with any
/// indices, as long as no index comes twice: a merge of shards offers them out of order.
#[inline]
pub(crate) fn offer<S: Storage>(heap: &mut S, entry: Entry<S::Value>) {
    let len = heap.len();
    if len < heap.capacity() {
        heap.append(entry);
        sift_up(heap, len, entry);
    } else {
        replace_root(heap, entry);
    }
}

/// Puts `entry` in place of the root of a full heap if it beats it, sifted down; returns
/// whether it did.
#[inline]
fn replace_root<S: Storage>(heap: &mut S, entry: Entry<S::Value>) -> bool {
    let len = heap.len();
    let enters = peek_worst(heap).is_some_and(|root| root.ranks_below(&entry));
    if enters {
        sift_down(heap, 0, 0, entry, len);
    }
    enters
}

/// Keeps `entry` if it is among the best `capacity()` entries taken so far, as [`offer`] does,
/// but while there is room it is appended in no order, and the heap is built once, when it is
/// full (Floyd, O(k) for the whole fill, where sifting each up costs up to O(k log k) on a
/// falling or all-equal fill, each new entry climbing to the root). Returns whether it
/// replaced the root of a full heap. Until the heap is full, call [`settle`] before anything
/// else reads it.
#[inline]
#[cfg(feature = "fast")]
pub(crate) fn take<S: Storage>(heap: &mut S, entry: Entry<S::Value>) -> bool {
    let len = heap.len();
    if len < heap.capacity() {
        heap.append(entry);
        if len + 1 == heap.capacity() {
            rebuild(heap);
        }
        false
    } else {
        replace_root(heap, entry)
    }
}

/// Forgets every kept entry that does not rank strictly above `floor` in value, keeping the
/// others in their order: when at least k values still to come are above `floor`, no entry at
/// or below it can be among the k best. The storage is no longer a heap: [`take`] builds it
/// again once it is full, [`settle`] if it is not.
#[cfg(any(test, feature = "fast"))]
pub(crate) fn retain_above<S: Storage>(heap: &mut S, floor: &S::Value) {
    let mut kept = 0;
    for i in 0..heap.len() {
        if let Some(entry) = heap
            .get(i)
            .filter(|entry| entry.value.may_enter_above(floor))
        {
            heap.set(kept, entry);
            kept += 1;
        }
    }
    heap.truncate(kept);
}

/// Makes a heap again of a storage that [`take`] has appended to and that is not full.
#[cfg(feature = "fast")]
pub(crate) fn settle<S: Storage>(heap: &mut S) {
    if heap.len() < heap.capacity() {
        rebuild(heap);
    }
}

/// Moves the hole at `pos` up while `entry` is worse than the parent, then puts `entry` there.
fn sift_up<S: Storage>(heap: &mut S, mut pos: usize, entry: Entry<S::Value>) {
    while pos > 0 {
        match heap.get(parent(pos)) {
            Some(above) if entry.ranks_below(&above) => {
                heap.set(pos, above);
                pos = parent(pos);
            }
            _ => break,
        }
    }
    heap.set(pos, entry);
}

/// The parent of position `pos > 0`.
#[inline]
fn parent(pos: usize) -> usize {
    (pos - 1) / 2
}

/// Moves the hole at `pos` down the heap of `len` entries at positions `lo..lo + len` while
/// its worse child is worse than `entry`, then puts `entry` there. Positions are counted from
/// `lo`: the selector's heap starts at 0, and the final sort's heap-sort fallback works on a
/// range `lo..hi` of its own.
///
/// A new entry most often stops near the root (it beats the old root, the worst kept, and
/// not by much once the heap has settled), so the loop exits as soon as it stops. Kept
/// branch-free (one pass over every level, moves chosen by comparisons), the sift paid the
/// full depth on every call: slower on every shape that was measured. Inlined as the compiler
/// sees fit: at opt-level "s" on a Cortex-M0 the plain build inlines it twice, in the root
/// replacement and in [`heap_passes`], and both fit the plain footprint's stack bar because
/// their comparisons call no soft-float routine there (`SOFT_F32` in `rank.rs`).
#[inline]
fn sift_down<S: Storage>(
    heap: &mut S,
    lo: usize,
    mut pos: usize,
    entry: Entry<S::Value>,
    len: usize,
) {
    loop {
        let left = 2 * pos + 1;
        if left >= len {
            break;
        }
        let (child, below) = match worse_child(heap, lo, left, len) {
            Some((child, below)) if below.ranks_below(&entry) => (child, below),
            _ => break,
        };
        heap.set(lo + pos, below);
        pos = child;
    }
    heap.set(lo + pos, entry);
}

/// The worse of the children `left` and `left + 1` (if it is in the heap of `len` entries at
/// `lo..`), with its position.
#[inline]
fn worse_child<S: Storage>(
    heap: &S,
    lo: usize,
    left: usize,
    len: usize,
) -> Option<(usize, Entry<S::Value>)> {
    let first = heap.get(lo + left)?;
    match heap.get(lo + left + 1) {
        Some(second) if left + 1 < len && second.ranks_below(&first) => Some((left + 1, second)),
        _ => Some((left, first)),
    }
}

/// Which of the heap's passes [`heap_passes`] runs.
#[derive(Clone, Copy, PartialEq)]
enum Passes {
    /// Makes a heap of the entries, whatever their order.
    Build,
    /// Sorts a heap best first.
    Sort,
    /// Both: a heap sort of entries in any order.
    #[cfg(any(test, feature = "fast"))]
    BuildAndSort,
}

/// The heap's two passes over the `len` entries at `lo..lo + len`, each a run of sifts down
/// from one call of [`sift_down`]: the build makes a heap of them whatever their order
/// (Floyd's bottom-up build, O(len)); the sort sorts a heap best first (the root, the worst
/// entry, goes to the end and the last entry sifts down the rest, `len - 1` times,
/// O(len log len)). Never inlined. Without `fast` only the final sort calls it (the fill
/// sifts up, and no build runs outside the tests); with `fast` one copy serves the selector's
/// rebuilds and the introsort's heap-sort fallback.
#[inline(never)]
fn heap_passes<S: Storage>(heap: &mut S, lo: usize, len: usize, passes: Passes) {
    // Build steps sift the entries at `len / 2 - 1` down to 0 in place, in the heap of all
    // `len`; then each sort step puts the root at `size - 1` and sifts the entry that was
    // there into the `size - 1` before it, until `size` is `last`.
    let mut unbuilt = if passes == Passes::Sort { 0 } else { len / 2 };
    let last = if passes == Passes::Build { len } else { 1 };
    let mut size = len;
    loop {
        let (pos, entry) = if unbuilt > 0 {
            unbuilt -= 1;
            (unbuilt, heap.get(lo + unbuilt))
        } else if size > last {
            size -= 1;
            let entry = heap.get(lo + size);
            if let Some(worst) = heap.get(lo) {
                heap.set(lo + size, worst);
            }
            (0, entry)
        } else {
            break;
        };
        if let Some(entry) = entry {
            sift_down(heap, lo, pos, entry, size);
        }
    }
}

/// Makes a heap of the `len()` entries again, whatever their order ([`heap_passes`]). With
/// `fast`, entries in order are not built: worst first is a heap already, and entries that
/// came best first (a falling row, or equal values by ascending index) are reversed into one;
/// either way a run that the final sort finds in one pass, where a build would scramble it.
#[cfg(any(test, feature = "fast"))]
pub(crate) fn rebuild<S: Storage>(heap: &mut S) {
    #[cfg(feature = "fast")]
    match sort::run(heap, heap.len()) {
        sort::Run::BestFirst => return heap.reverse(),
        sort::Run::WorstFirst => return,
        sort::Run::Neither => {}
    }
    heap_passes(heap, 0, heap.len(), Passes::Build);
}

#[cfg(test)]
mod tests {
    use core::cmp::Ordering;
    use core::sync::atomic::{AtomicU64, Ordering::Relaxed};
    use std::vec::Vec;

    use super::*;
    use crate::heap::storage::Limited;
    use crate::{top_k_into, TopK, TotalRank};

    /// A value whose order lies: each comparison answers from a shared generator, so the same
    /// pair may compare both ways. The selectors owe it no right answer, only no panic.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Liar(u32);

    static COIN: AtomicU64 = AtomicU64::new(0x9E37_79B9_7F4A_7C15);

    impl TotalRank for Liar {
        fn is_rankable(&self) -> bool {
            true
        }
        fn rank_cmp(&self, _: &Self) -> Ordering {
            let mut x = COIN.fetch_add(0x9E37_79B9_7F4A_7C15, Relaxed);
            x = (x ^ (x >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            match (x >> 40) % 3 {
                0 => Ordering::Less,
                1 => Ordering::Equal,
                _ => Ordering::Greater,
            }
        }
    }

    /// A row in order keeps its best `capacity()` (its first or its last values) worst first,
    /// with their stream positions; a row one pair out of order is left to the scan, and
    /// nothing is appended.
    #[test]
    #[cfg(feature = "fast")]
    fn a_row_in_order_keeps_its_first_or_last_values_worst_first() {
        let rising: Vec<i32> = (-20..20).collect();
        let falling: Vec<i32> = (0..40).map(|i| 9 - i / 3).collect();
        let equal = std::vec![4; 40];
        let mut rising_tie = rising.clone();
        rising_tie[21] = rising_tie[20];
        let mut falling_last_up = falling.clone();
        falling_last_up[39] = 100;
        let rows = [
            (rising, true),
            (falling, true),
            (equal, true),
            (rising_tie, false),
            (falling_last_up, false),
        ];
        let start = 3;
        for (x, in_order) in rows {
            for k in [1, 5, 39, 40, 60] {
                let mut heap = Limited::<i32, 64>::new(k);
                assert_eq!(keep_best_if_in_order(&mut heap, start, &x), in_order);
                let mut want = std::vec::Vec::new();
                if in_order {
                    want = crate::testing::oracle(&x, k.min(x.len())).unwrap();
                    want.reverse();
                    want.iter_mut().for_each(|e| e.index += start as u32);
                }
                assert_eq!(heap.entries(), want, "{x:?}, k = {k}");
            }
        }
    }

    /// A pool of positions in the row's order (those above a floor, or the best k + 37 by the
    /// order) keeps the oracle's best k worst first, in every storage (caller buffers, an
    /// array of entries, the smallest first), with a stream offset, on tie-heavy rows whose
    /// cut falls in the high or the low half of the keys or among equal keys; a pool of fewer
    /// than k positions or more than 2·k keeps nothing.
    #[test]
    #[cfg(feature = "fast")]
    fn a_pool_keeps_the_best_k_of_its_positions_worst_first() {
        use crate::heap::storage::sealed::Sealed as _;
        use crate::heap::storage::{Reversed, Slices};
        use crate::testing::oracle;
        use core::cmp::Reverse;
        let n = if cfg!(miri) { 700 } else { 2000 };
        let k = if cfg!(miri) { 512 } else { 600 };
        let mut rng = crate::testing::data::Rng(0xC0FF_EE00);
        let edges = [
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            1e-45,
            -1e-45,
        ];
        let rows: Vec<Vec<f32>> = std::vec![
            (0..n).map(|_| rng.normal() as f32).collect(),
            (0..n).map(|_| edges[rng.below(edges.len())]).collect(),
            // Keys that share their high half: the cut falls in the low half.
            (0..n)
                .map(|_| 1.0 + rng.below(50) as f32 * f32::EPSILON)
                .collect(),
            (0..n).map(|i| (i % 7) as f32).collect(),
            std::vec![2.5; n],
        ];
        // Under Miri (slow): the rows whose cut falls among ties and in the low half.
        let rows = if cfg!(miri) {
            rows[1..3].to_vec()
        } else {
            rows
        };
        let start = 5;
        let entry = |e: Entry<f32>| (e.index, e.value.to_bits());
        for x in &rows {
            let want: Vec<(u32, u32)> =
                oracle(x, k).unwrap().into_iter().rev().map(entry).collect();
            // The floor: the (k + 37)-th best value, or below all if there are fewer.
            let floor = oracle(x, n).unwrap()[k + 37].value;
            let above: Vec<u32> = (0..n as u32).filter(|&p| x[p as usize] > floor).collect();
            // The best k + 37 by the order, ties at the last place split by index.
            let mut best: Vec<u32> = oracle(x, k + 37).unwrap().iter().map(|e| e.index).collect();
            best.sort_unstable();
            let all: Vec<u32> = (0..n as u32).collect();
            let want: Vec<(u32, u32)> = want.iter().map(|&(i, v)| (i + start as u32, v)).collect();
            for pool in [&above, &best, &all] {
                // The pool serves only where it is used (`radix::POOL_STACK`: 64 bits).
                let fits = radix::POOL_STACK && (k..=2 * k).contains(&pool.len());
                let gather = |p: &mut Pool<'_>| {
                    pool.iter().all(|&at| p.push(at));
                };
                let (mut idx, mut val) = (std::vec![0; k], std::vec![0.0; k]);
                let mut columns = Slices::new(&mut idx, &mut val).unwrap();
                assert_eq!(keep_pooled(&mut columns, start, x, gather), fits);
                let got: Vec<_> = (0..columns.len())
                    .map(|i| columns.get(i).unwrap())
                    .collect();
                let mut pairs = Limited::<f32, 600>::new(k);
                assert_eq!(keep_pooled(&mut pairs, start, x, gather), fits);
                if !fits {
                    assert_eq!((got.len(), pairs.entries().len()), (0, 0));
                    continue;
                }
                let got: Vec<_> = got.into_iter().map(entry).collect();
                let first = got.iter().zip(&want).position(|(a, b)| a != b);
                assert_eq!(
                    first,
                    None,
                    "{:?}",
                    first.map(|i| (got[i], want[i], got.len(), want.len()))
                );
                let pairs: Vec<_> = pairs.entries().iter().map(|&e| entry(e)).collect();
                assert_eq!(pairs, want);
            }
            // The smallest k, from a pool of every position.
            let reversed: Vec<Reverse<f32>> = x.iter().map(|&v| Reverse(v)).collect();
            let want: Vec<(u32, u32)> = oracle(&reversed, k)
                .unwrap()
                .into_iter()
                .rev()
                .map(|e| (e.index, e.value.0.to_bits()))
                .collect();
            let mut below: Vec<u32> = oracle(&reversed, k + 37)
                .unwrap()
                .iter()
                .map(|e| e.index)
                .collect();
            below.sort_unstable();
            let gather = |p: &mut Pool<'_>| {
                below.iter().all(|&at| p.push(at));
            };
            let (mut idx, mut val) = (std::vec![0; k], std::vec![0.0; k]);
            let mut smallest = Reversed::new(&mut idx, &mut val).unwrap();
            let fits = radix::POOL_STACK && (k..=2 * k).contains(&below.len());
            assert_eq!(keep_pooled(&mut smallest, 0, &reversed, gather), fits);
            if fits {
                let got: Vec<_> = (0..k)
                    .map(|i| {
                        smallest
                            .get(i)
                            .map(|e| (e.index, e.value.0.to_bits()))
                            .unwrap()
                    })
                    .collect();
                assert_eq!(got, want);
            }
        }
    }

    #[test]
    fn retain_above_keeps_the_entries_above_the_floor_in_their_order() {
        let mut heap = Limited::<i32, 8>::new(8);
        for (index, value) in (0..).zip([5, 1, 7, 3, 3, 9]) {
            heap.append(Entry { value, index });
        }
        retain_above(&mut heap, &3);
        let kept: Vec<(u32, i32)> = heap.entries().iter().map(|e| (e.index, e.value)).collect();
        assert_eq!(kept, [(0, 5), (2, 7), (5, 9)]);
        retain_above(&mut heap, &9);
        assert_eq!(heap.entries().len(), 0);
    }

    #[test]
    fn a_lying_order_gives_k_entries_and_no_panic() {
        let n = if cfg!(miri) { 300 } else { 3000 };
        let x: Vec<Liar> = (0..n).map(Liar).collect();
        // k = n is a sort of the whole row.
        for k in [1, 3, 4, 5, 50, 64, 65, 100, n as usize] {
            let (mut idx, mut val) = (std::vec![0_u32; k], std::vec![Liar(0); k]);
            top_k_into(&x, &mut idx, &mut val).unwrap();
            assert!(idx.iter().all(|&i| i < n));
        }
        let mut top = TopK::<Liar, 50>::new();
        top.extend_from_slice(&x).unwrap();
        for &v in &x {
            top.push(v).unwrap();
        }
        assert_eq!(top.into_sorted().len(), 50);
    }
}
