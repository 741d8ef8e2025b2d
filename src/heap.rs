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
//! # Cost
//!
//! n root comparisons; on a row in random order the i-th value enters with probability about
//! k/i, so about k·ln(n/k) insertions of O(log k) each; O(n log k) in the worst case (an
//! ascending row, where every value enters); O(k log k) for the final sort.

use arrayvec::ArrayVec;

use crate::error::check_values;
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

/// Offers `values` to the heap as the stream positions `*next..`, all or nothing: they are
/// checked first ([`check_values`]) and on error neither the heap nor `*next` changes.
pub(crate) fn extend<S: Storage>(
    heap: &mut S,
    next: &mut u64,
    values: &[S::Value],
) -> Result<(), Error> {
    check_values(*next, values)?;
    for (index, &value) in (*next..).zip(values) {
        // `check_values` proved every position below `MAX_STREAM_LEN`: the cast is lossless.
        offer(
            heap,
            Entry {
                value,
                index: index as u32,
            },
        );
    }
    *next += values.len() as u64;
    Ok(())
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

/// Moves the hole at `pos` down the heap of `len` entries while its worse child is worse than
/// `entry`, then puts `entry` there.
fn sift_down<S: Storage>(heap: &mut S, mut pos: usize, entry: Entry<S::Value>, len: usize) {
    loop {
        let mut child = 2 * pos + 1;
        if child >= len {
            break;
        }
        let mut below = heap.get(child);
        if child + 1 < len {
            let right = heap.get(child + 1);
            if right.ranks_below(&below) {
                child += 1;
                below = right;
            }
        }
        if !below.ranks_below(&entry) {
            break;
        }
        heap.set(pos, below);
        pos = child;
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
