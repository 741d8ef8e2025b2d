//! The one heap: a size-k min-heap of entries under [`Entry::rank_cmp`], written once over a
//! [`Storage`] so that the array-backed [`TopK`](crate::TopK) and the slice-backed
//! [`SliceTopK`](crate::SliceTopK) (and so [`top_k_into`](crate::top_k_into)) share every line.
//!
//! # The algorithm
//!
//! The root is the worst kept entry. While fewer than k entries are kept, a new one is appended
//! and sifted up. Then each new entry costs one comparison with the root; only a better one
//! replaces the root and is sifted down. Because entries arrive by ascending index, a later
//! entry that ties the root is worse than it and stays out: the lower index wins the last place
//! with no special case. At the end an in-place heap sort leaves the storage best first.
//!
//! # The fast path
//!
//! - **Block pre-filter** ([`scan`]): once the heap is full, values are read in blocks of
//!   [`BLOCK`] and a block is tested as a whole with one branch-free fold of
//!   [`TotalRank::may_enter_above`] against the root's value, which vectorizes (one IEEE
//!   comparison per float, catching NaN too). Only a flagged block is looked at, and only its
//!   flagged values. The fold is compiled a second time for AVX2 behind one run-time dispatch
//!   point ([`dispatch`](crate::dispatch)).
//! - **Nothing written on error, one read** ([`extend`]): for k ≤ [`SCRATCH_K`] the heap is
//!   copied to the stack, scanned with the NaN test fused into the pre-filter, and copied back
//!   only on success; for a larger k the slice is checked for NaN first, then scanned.
//! - **Bounded worst case**: on a block where at least [`BURST`] values may enter (a rising
//!   row), the candidates go to a pool on the stack instead of the heap, and when it is full a
//!   quickselect ([`select_best`]) keeps the best k of heap and pool: a few comparisons per
//!   value instead of a sift down the heap. Its partition writes through a spare buffer on the
//!   stack, with no branch and no read of what it just wrote.
//! - **Sift-down with no branch on the data** ([`sift_down`]) in a heap of up to 64 entries:
//!   one loop over the levels, whose count is the same at every replacement of the root, and
//!   moves chosen by comparisons, so that a sift costs no misprediction and the pre-filter's
//!   work past it is not thrown away.
//! - **push**: a full heap and a value that does not beat the root cost one comparison.
//!
//! # Cost
//!
//! n comparisons with the root, vectorized by blocks; on a row in random order the i-th value
//! enters with probability about k/i, so about k·ln(n/k) insertions of O(log k) each;
//! O(n log k) in the worst case (an ascending row, where every value enters) for k above
//! [`SCRATCH_K`] and for `push`, O(n) with the pool otherwise; O(k log k) for the final sort.

use core::slice;

use arrayvec::ArrayVec;

use crate::dispatch;
use crate::error::{check_len, check_values, first_unrankable, not_rankable, MAX_STREAM_LEN};
use crate::{Entry, Error, TotalRank};

/// Where a heap keeps its entries: positions `0..len()` hold the heap, and up to `capacity()`
/// (the k of the selector) can be kept.
pub(crate) trait Storage {
    /// The value type of the entries.
    type Value: TotalRank;
    /// How many entries are kept.
    fn len(&self) -> usize;
    /// How many entries can be kept: k.
    fn capacity(&self) -> usize;
    /// The entry at `i < len()`.
    fn get(&self, i: usize) -> Entry<Self::Value>;
    /// Overwrites the entry at `i < len()`.
    fn set(&mut self, i: usize, entry: Entry<Self::Value>);
    /// Appends an entry at position `len()`; only called when `len() < capacity()`.
    fn append(&mut self, entry: Entry<Self::Value>);
}

/// The array storage of [`TopK`](crate::TopK): one array of entries.
impl<T: TotalRank, const K: usize> Storage for ArrayVec<Entry<T>, K> {
    type Value = T;

    #[inline]
    fn len(&self) -> usize {
        ArrayVec::len(self)
    }
    #[inline]
    fn capacity(&self) -> usize {
        K
    }
    #[inline]
    fn get(&self, i: usize) -> Entry<T> {
        self[i]
    }
    #[inline]
    fn set(&mut self, i: usize, entry: Entry<T>) {
        self[i] = entry;
    }
    #[inline]
    fn append(&mut self, entry: Entry<T>) {
        self.push(entry);
    }
}

/// The caller's storage of [`SliceTopK`](crate::SliceTopK): indices and values in two slices of
/// the same length, the heap in their first `len` places.
#[derive(Debug)]
pub(crate) struct Columns<'a, T> {
    idx: &'a mut [u32],
    val: &'a mut [T],
    len: usize,
}

impl<'a, T> Columns<'a, T> {
    /// An empty heap over the two buffers; their length is k.
    pub(crate) fn new(idx: &'a mut [u32], val: &'a mut [T]) -> Result<Self, Error> {
        if idx.len() != val.len() {
            return Err(Error::LengthMismatch {
                idx: idx.len(),
                val: val.len(),
            });
        }
        Ok(Columns { idx, val, len: 0 })
    }

    /// Forgets every kept entry; the buffers keep what they hold.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// The first `len` places of both buffers.
    pub(crate) fn into_kept(self) -> (&'a mut [u32], &'a mut [T]) {
        (&mut self.idx[..self.len], &mut self.val[..self.len])
    }
}

impl<T: TotalRank> Storage for Columns<'_, T> {
    type Value = T;

    #[inline]
    fn len(&self) -> usize {
        self.len
    }
    #[inline]
    fn capacity(&self) -> usize {
        self.idx.len()
    }
    #[inline]
    fn get(&self, i: usize) -> Entry<T> {
        Entry {
            value: self.val[i],
            index: self.idx[i],
        }
    }
    #[inline]
    fn set(&mut self, i: usize, entry: Entry<T>) {
        self.val[i] = entry.value;
        self.idx[i] = entry.index;
    }
    #[inline]
    fn append(&mut self, entry: Entry<T>) {
        self.len += 1;
        self.set(self.len - 1, entry);
    }
}

/// The root: the worst kept entry, if any.
#[inline]
pub(crate) fn peek_worst<S: Storage>(heap: &S) -> Option<Entry<S::Value>> {
    (heap.len() > 0).then(|| heap.get(0))
}

/// Values the pre-filter tests at a time against the root. Long enough that the test of a
/// block (a branch-free fold of [`TotalRank::may_enter_above`]) vectorizes and its one branch
/// is rarely taken once the heap has settled; short enough that a block with one candidate
/// costs little to walk value by value.
const BLOCK: usize = 64;

/// The largest k served by the one-pass path of [`extend`], whose heap is a copy on the stack
/// ([`Scratch`]): 64 entries, 512 bytes for `f32`.
const SCRATCH_K: usize = 64;

/// The shortest slice worth the one-pass path: copying a heap of up to [`SCRATCH_K`] entries
/// there and back costs about as much as reading this many values twice.
const ONE_PASS_MIN_LEN: usize = 4 * SCRATCH_K;

/// Offers one value at stream position `*next`, as [`extend`] on a slice of one would, with
/// the common case first: a full heap and a value that does not beat the root cost one
/// comparison ([`TotalRank::may_enter_above`], which also catches NaN) and no call.
#[inline]
pub(crate) fn push<S: Storage>(heap: &mut S, next: &mut u64, value: S::Value) -> Result<(), Error> {
    let len = heap.len();
    if heap.capacity() > 0
        && len == heap.capacity()
        && *next < MAX_STREAM_LEN
        && !value.may_enter_above(&heap.get(0).value)
    {
        *next += 1;
        return Ok(());
    }
    push_slow(heap, next, value)
}

/// The rest of [`push`]: never inlined, so that the common case stays small in the caller's
/// loop (inlined, it made a loop of `push` about 15% slower).
#[inline(never)]
fn push_slow<S: Storage>(heap: &mut S, next: &mut u64, value: S::Value) -> Result<(), Error> {
    check_values(*next, slice::from_ref(&value))?;
    // Checked: the position is below `MAX_STREAM_LEN`, the cast lossless.
    let index = *next as u32;
    offer(heap, Entry { value, index });
    *next += 1;
    Ok(())
}

/// Offers `values` to the heap as the stream positions `*next..`, all or nothing: on error
/// neither the heap nor `*next` changes.
///
/// The values are read in blocks of [`BLOCK`] once the heap is full, and a block is looked at
/// value by value only if one of its values may beat the root or is NaN ([`scan`]). When the
/// heap is small and the slice long, that is the only pass: the heap is copied to the stack
/// first ([`Scratch`]), so that a NaN found late leaves the real one untouched. Otherwise the
/// values are checked for NaN first ([`check_values`]) and then scanned.
pub(crate) fn extend<S: Storage>(
    heap: &mut S,
    next: &mut u64,
    values: &[S::Value],
) -> Result<(), Error> {
    if heap.capacity() <= SCRATCH_K && values.len() >= ONE_PASS_MIN_LEN {
        check_len(*next, values.len())?;
        let mut scratch = Scratch::copy_of(heap);
        dispatch::scan(&mut scratch, *next, values)?;
        scratch.copy_to(heap);
    } else {
        check_values(*next, values)?;
        // The values are rankable: the scan finds no NaN and cannot fail.
        dispatch::scan(heap, *next, values)?;
    }
    *next += values.len() as u64;
    Ok(())
}

/// Offers `values` as the stream positions `start..`: the ones that fill the heap one by one,
/// then the rest by blocks, skipping each block in which no value may beat the root. Returns
/// the first NaN as an error, with the heap then holding some of the values before it.
/// `start + values.len()` must be at most [`MAX_STREAM_LEN`].
///
/// The portable code, which [`dispatch::scan`] compiles a second time for a wider vector unit
/// when the CPU has one: hence `inline(always)`, here and in [`block_flagged`].
#[inline(always)]
pub(crate) fn scan<S: Storage>(heap: &mut S, start: u64, values: &[S::Value]) -> Result<(), Error> {
    let fill = (heap.capacity() - heap.len()).min(values.len());
    let (head, rest) = values.split_at(fill);
    admit(heap, start, head)?;
    let mut at = start + fill as u64;
    let Some(root) = peek_worst(heap) else {
        // k = 0: nothing is kept, but a NaN is still an error.
        return match first_unrankable(rest) {
            Some(pos) => Err(not_rankable(at + pos as u64)),
            None => Ok(()),
        };
    };
    let mut threshold = root.value;
    // Candidates of the blocks where most values may enter, kept out of the heap until
    // `compact` merges them in: used only when the heap fits in it beside them.
    let mut pool = ArrayVec::<Entry<S::Value>, POOL>::new();
    let pooling = (POOL_MIN_K..=SCRATCH_K).contains(&heap.capacity());
    let mut blocks = rest.chunks_exact(BLOCK);
    for block in &mut blocks {
        if block_flagged(block, &threshold) {
            // Only the flagged values, in order. In a burst each goes to the pool as it is (a
            // root raised by a compaction meanwhile only makes it a needless candidate);
            // otherwise it may still lose to a root that a value before it in the block has
            // raised, so it is compared again.
            let mut mask = block_mask(block, &threshold);
            let burst = pooling && mask.count_ones() >= BURST;
            while mask != 0 {
                let i = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let (value, index) = (block[i], at + i as u64);
                if !value.is_rankable() {
                    return Err(not_rankable(index));
                }
                let entry = Entry {
                    value,
                    index: index as u32,
                };
                if burst {
                    pool.push(entry);
                    if pool.len() + heap.len() == POOL {
                        compact(heap, &mut pool);
                    }
                } else if value.may_enter_above(&threshold) {
                    // The entry's index is above the root's, so it ranks above the root iff
                    // its value does: `may_enter_above`, equal to `Entry::ranks_below` there.
                    sift_down(heap, 0, entry, heap.len());
                    threshold = heap.get(0).value;
                }
            }
            threshold = heap.get(0).value;
        }
        at += BLOCK as u64;
    }
    compact(heap, &mut pool);
    admit(heap, at, blocks.remainder())
}

/// Entries of the candidate pool of [`scan`], the heap's included when it is compacted:
/// 256 entries on the stack (2 KiB for `f32`). The larger, the rarer the compactions; each
/// costs a selection over the pool, so a value that enters costs a few comparisons instead of
/// a sift down the heap.
const POOL: usize = 256;

/// The smallest k that uses the pool: below it a sift down the heap (log2 k levels) costs
/// less than a value's share of a compaction.
const POOL_MIN_K: usize = 4;

/// Flagged values in a block of [`BLOCK`] from which the block goes to the pool rather than
/// the heap: a quarter of the block, far above the rate of a row in random order once the
/// heap has settled, reached on rising rows, where nearly every value enters.
const BURST: u32 = 16;

/// Merges the candidate `pool` into the full heap: the heap becomes the best `capacity()` of
/// both ([`select_best`]), built again as a heap, and the pool is emptied.
fn compact<S: Storage>(heap: &mut S, pool: &mut ArrayVec<Entry<S::Value>, POOL>) {
    if pool.is_empty() {
        return;
    }
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
    for i in (0..len / 2).rev() {
        sift_down(heap, i, heap.get(i), len);
    }
    pool.clear();
}

/// Reorders `entries` so that the `k` best come first, in no particular order: a quickselect
/// under [`Entry::ranks_below`] with a median-of-three pivot and a partition with no branch
/// through a spare buffer on the stack ([`partition`]). The range shrinks by at least the
/// pivot at each step, so it ends, with no panic, whatever the order does.
fn select_best<T: TotalRank>(entries: &mut ArrayVec<Entry<T>, POOL>, k: usize) {
    let Some(&first) = entries.first() else {
        return;
    };
    let mut spare = [first; POOL];
    let (mut lo, mut hi) = (0, entries.len());
    while k > lo && k < hi && hi - lo > 1 {
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
        if store < k {
            lo = store + 1;
        } else {
            hi = store;
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

/// Lanes of the branch-free test of a block: the flags of value `j` and `j + LANES`, ... are
/// or-ed in lane `j`, as 32-bit words so that they stay in the comparison's own vector lanes.
const LANES: usize = 8;

/// Whether any value of `block` may beat `threshold` or is NaN
/// ([`TotalRank::may_enter_above`]): comparisons or-ed into [`LANES`] words, with no branch.
#[inline(always)]
fn block_flagged<T: TotalRank>(block: &[T], threshold: &T) -> bool {
    let mut lanes = [0_u32; LANES];
    for chunk in block.chunks_exact(LANES) {
        for (lane, v) in lanes.iter_mut().zip(chunk) {
            *lane |= u32::from(v.may_enter_above(threshold));
        }
    }
    lanes.iter().fold(0, |any, &lane| any | lane) != 0
}

/// Bit `i` set iff `block[i]` may beat `threshold` or is NaN ([`TotalRank::may_enter_above`]),
/// for a block already known to hold one.
#[inline]
fn block_mask<T: TotalRank>(block: &[T], threshold: &T) -> u64 {
    block.iter().enumerate().fold(0, |mask, (i, v)| {
        mask | (u64::from(v.may_enter_above(threshold)) << i)
    })
}

/// Offers each of `values`, the stream positions `start..`, stopping at the first NaN. Once
/// the heap is full, a value that cannot beat the root ([`TotalRank::may_enter_above`]) costs
/// that one test.
fn admit<S: Storage>(heap: &mut S, start: u64, values: &[S::Value]) -> Result<(), Error> {
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

/// A copy of a heap of up to [`SCRATCH_K`] entries on the stack, with the same capacity: the
/// one-pass path of [`extend`] works on it and copies it back only on success.
struct Scratch<T> {
    entries: ArrayVec<Entry<T>, SCRATCH_K>,
    capacity: usize,
}

impl<T: TotalRank> Scratch<T> {
    /// A copy of `heap`, whose capacity is at most [`SCRATCH_K`].
    fn copy_of<S: Storage<Value = T>>(heap: &S) -> Self {
        debug_assert!(heap.capacity() <= SCRATCH_K);
        let mut entries = ArrayVec::new();
        for i in 0..heap.len().min(SCRATCH_K) {
            entries.push(heap.get(i));
        }
        Scratch {
            entries,
            capacity: heap.capacity(),
        }
    }

    /// Writes the copy back over `heap`, which it was made from and which has not grown since.
    fn copy_to<S: Storage<Value = T>>(&self, heap: &mut S) {
        for (i, &entry) in self.entries.iter().enumerate() {
            if i < heap.len() {
                heap.set(i, entry);
            } else {
                heap.append(entry);
            }
        }
    }
}

impl<T: TotalRank> Storage for Scratch<T> {
    type Value = T;

    #[inline]
    fn len(&self) -> usize {
        self.entries.len()
    }
    #[inline]
    fn capacity(&self) -> usize {
        self.capacity
    }
    #[inline]
    fn get(&self, i: usize) -> Entry<T> {
        self.entries[i]
    }
    #[inline]
    fn set(&mut self, i: usize, entry: Entry<T>) {
        self.entries[i] = entry;
    }
    #[inline]
    fn append(&mut self, entry: Entry<T>) {
        self.entries.push(entry);
    }
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
    } else if len > 0 && heap.get(0).ranks_below(&entry) {
        sift_down(heap, 0, entry, len);
    }
}

/// Moves the hole at `pos` up while `entry` is worse than the parent, then puts `entry` there.
fn sift_up<S: Storage>(heap: &mut S, mut pos: usize, entry: Entry<S::Value>) {
    while pos > 0 {
        let parent = (pos - 1) / 2;
        let above = heap.get(parent);
        if !entry.ranks_below(&above) {
            break;
        }
        heap.set(pos, above);
        pos = parent;
    }
    heap.set(pos, entry);
}

/// The largest heap sifted down with no branch on the data (six levels): see [`sift_down`].
const BRANCH_FREE_LEN: usize = SCRATCH_K;

/// Moves the hole at `pos` down the heap of `len` entries while its worse child is worse than
/// `entry`, then puts `entry` there.
///
/// In a heap of up to [`BRANCH_FREE_LEN`] entries, with no branch on the data: the loop runs
/// once per level below `pos` (the depth of its leftmost path, the same at every replacement
/// of the root of a full heap, so predicted), and each level picks the worse child and whether
/// to move there by the outcomes of comparisons. Once the entry has stopped, each further level
/// asks the same question and stays. A mispredicted exit would cost about as much as the
/// levels left, and would throw away the pre-filter's work done past it. In a larger heap a
/// new entry, most often near the root's value, stops well above the leaves: there the loop
/// exits as soon as it stops. Either way the worse child is picked without a branch.
#[inline]
fn sift_down<S: Storage>(heap: &mut S, mut pos: usize, entry: Entry<S::Value>, len: usize) {
    if len > BRANCH_FREE_LEN {
        loop {
            let left = 2 * pos + 1;
            if left >= len {
                break;
            }
            let mut child = left;
            if left + 1 < len {
                child += usize::from(heap.get(left + 1).ranks_below(&heap.get(left)));
            }
            let below = heap.get(child);
            if !below.ranks_below(&entry) {
                break;
            }
            heap.set(pos, below);
            pos = child;
        }
        heap.set(pos, entry);
        return;
    }
    let mut levels = 0;
    let mut leftmost = pos;
    while leftmost < len / 2 {
        leftmost = 2 * leftmost + 1;
        levels += 1;
    }
    let last = len.saturating_sub(1);
    for _ in 0..levels {
        let left = 2 * pos + 1;
        let right = left + 1;
        // Read in bounds whatever the position; the flags drop a child that is not there.
        let (l, r) = (heap.get(left.min(last)), heap.get(right.min(last)));
        let take_right = (right < len) & r.ranks_below(&l);
        let (child, below) = if take_right { (right, r) } else { (left, l) };
        let down = (left < len) & below.ranks_below(&entry);
        heap.set(pos, if down { below } else { entry });
        pos = if down { child } else { pos };
    }
    heap.set(pos, entry);
}

/// In-place heap sort: the root (the worst) goes to the end, the heap shrinks by one, and so on,
/// leaving positions `0..len()` best first. The storage is no longer a heap afterwards.
pub(crate) fn sort<S: Storage>(heap: &mut S) {
    for end in (1..heap.len()).rev() {
        let worst = heap.get(0);
        let last = heap.get(end);
        heap.set(end, worst);
        sift_down(heap, 0, last, end);
    }
}

#[cfg(test)]
mod tests {
    use core::cmp::Ordering;
    use core::sync::atomic::{AtomicU64, Ordering::Relaxed};
    use std::vec::Vec;

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

    #[test]
    fn a_lying_order_gives_k_entries_and_no_panic() {
        let n = if cfg!(miri) { 300 } else { 3000 };
        let x: Vec<Liar> = (0..n).map(Liar).collect();
        for k in [1, 3, 4, 5, 50, 64, 65, 100] {
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
