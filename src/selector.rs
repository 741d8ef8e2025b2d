//! [`Selector`]: the one streaming selector, over a storage. [`TopK`] (an array) and
//! [`SliceTopK`] (caller slices) are its two forms, so each method is written once here; only
//! what depends on the storage (making one, and what it gives back at the end) is written per
//! storage, in `topk`.

use crate::heap::{self, Storage};
use crate::push::{self, Gate};
use crate::shard::{merge_checked, Source};
use crate::{extend, Entry, Error, TotalRank};
#[cfg(doc)]
use crate::{SliceTopK, TopK};

/// The `k` best entries of a stream, kept in a storage `S` of capacity `k`: the type behind
/// [`TopK`] (a fixed array, `k = K`) and [`SliceTopK`] (two caller slices, a runtime `k`).
/// Use those two names; the methods below serve both.
///
/// Each value offered takes the next position of the stream as its index, from 0 (or from the
/// base of [`TopK::with_offset`]). A rejected call changes nothing: a push of NaN leaves the
/// kept entries *and the stream position* as they were, so the next accepted value takes the
/// position the NaN would have had.
#[derive(Clone, Debug)]
pub struct Selector<T, S> {
    /// The heap: its root is the worst kept entry.
    heap: S,
    /// What [`push`](Self::push) checks first, beside the heap.
    gate: Gate<T>,
    /// The stream position of the next value.
    next: u64,
}

impl<T, S> Selector<T, S> {
    /// A selector over an empty `heap` whose next value takes stream position `next`.
    pub(crate) const fn over(heap: S, next: u64) -> Self {
        Selector {
            heap,
            gate: None,
            next,
        }
    }

    /// How many values the stream has taken so far: the index the next value will get.
    ///
    /// ```
    /// let mut top = tinytopk::TopK::<f32, 2>::new();
    /// top.extend_from_slice(&[1.0, 2.0, 3.0])?;
    /// assert_eq!(top.stream_len(), 3);
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    pub fn stream_len(&self) -> u64 {
        self.next
    }
}

impl<T: TotalRank, S: Storage<Value = T>> Selector<T, S> {
    /// How many entries are kept: `min(k, values offered)`.
    ///
    /// ```
    /// let mut top = tinytopk::TopK::<f32, 3>::new();
    /// top.extend_from_slice(&[1.0, 2.0])?;
    /// assert_eq!(top.len(), 2);
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Whether nothing is kept yet (always, when `k == 0`).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `k`: how many entries the selector can keep.
    pub fn capacity(&self) -> usize {
        self.heap.capacity()
    }

    /// Offers one value at the next stream position. Once `k` entries are kept, a value that
    /// does not beat the worst of them costs two comparisons. Made for values that arrive one
    /// at a time: for a whole row, [`extend_from_slice`](Self::extend_from_slice) is several
    /// times faster, and on a rising stream every pushed value enters the heap, O(log k) each.
    ///
    /// ```
    /// let mut top = tinytopk::TopK::<f32, 2>::new();
    /// for logit in [0.5, 2.0, -1.0, 2.0] {
    ///     top.push(logit)?;
    /// }
    /// assert!(top.push(f32::NAN).is_err());
    /// assert_eq!(top.stream_len(), 4); // the NaN took no position
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NotRankable`] for NaN, [`Error::TooLong`] past `u32::MAX + 1` values; the
    /// selector, its stream position included, is then unchanged.
    #[inline]
    pub fn push(&mut self, value: T) -> Result<(), Error> {
        push::push(&mut self.heap, &mut self.gate, &mut self.next, value)
    }

    /// Offers `values` at the next stream positions, all or nothing: the fast way to feed a
    /// row, or a row in chunks.
    ///
    /// ```
    /// let mut top = tinytopk::TopK::<f32, 2>::new();
    /// top.extend_from_slice(&[1.0, 3.0])?;
    /// assert!(top.extend_from_slice(&[5.0, f32::NAN]).is_err()); // nothing of it is kept
    /// top.extend_from_slice(&[2.0])?;
    /// let ids: Vec<u32> = top.into_sorted().iter().map(|e| e.index).collect();
    /// assert_eq!(ids, [1, 2]);
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NotRankable`] naming the stream position of the first NaN, [`Error::TooLong`]
    /// past `u32::MAX + 1` values; nothing of `values` is then kept and the position is
    /// unchanged.
    pub fn extend_from_slice(&mut self, values: &[T]) -> Result<(), Error> {
        extend::extend(&mut self.heap, &mut self.next, values)
    }

    /// [`extend_from_slice`](Self::extend_from_slice) of values the caller has checked: all
    /// rankable.
    pub(crate) fn extend_rankable(&mut self, values: &[T]) -> Result<(), Error> {
        extend::extend_rankable(&mut self.heap, &mut self.next, values)
    }

    /// The worst kept entry. Once [`len`](Self::len) is `k`, a new value must rank above it
    /// to be kept.
    ///
    /// ```
    /// let mut top = tinytopk::TopK::<f32, 2>::new();
    /// top.extend_from_slice(&[1.0, 3.0, 2.0, 3.0])?;
    /// assert_eq!(top.peek_worst().map(|e| e.index), Some(3)); // a tie goes to the lower index
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    pub fn peek_worst(&self) -> Option<Entry<T>> {
        heap::peek_worst(&self.heap)
    }

    /// Forgets every kept entry and restarts the stream at position 0. Caller buffers keep
    /// their contents until new values overwrite them.
    ///
    /// ```
    /// let mut top = tinytopk::TopK::<f32, 2>::new();
    /// top.extend_from_slice(&[1.0, 3.0])?;
    /// top.clear();
    /// assert_eq!((top.len(), top.stream_len()), (0, 0));
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    pub fn clear(&mut self) {
        self.heap.clear();
        // The heap is no longer full: the gate closes until it is.
        self.gate = None;
        self.next = 0;
    }

    /// Sorts the kept entries in place, best first, and gives back the storage.
    pub(crate) fn into_sorted_heap(mut self) -> S {
        heap::sort(&mut self.heap);
        self.heap
    }

    /// Merges entries from anywhere, in any order (another device's top k, a deserialized
    /// partial result): `entries` are the top k of a stream of `stream_len` positions, with
    /// their global indices.
    ///
    /// ```
    /// use tinytopk::{Entry, TopK};
    ///
    /// let mut top = TopK::<f32, 2>::new();
    /// top.extend_from_slice(&[1.0, 4.0])?;
    /// let remote = [Entry { value: 9.0, index: 7 }, Entry { value: 0.5, index: 3 }];
    /// top.merge_entries(&remote, 8)?;
    /// let ids: Vec<u32> = top.into_sorted().iter().map(|e| e.index).collect();
    /// assert_eq!(ids, [7, 1]);
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Checked before anything changes, in this order for each entry:
    /// [`Error::NotRankable`] for a NaN value (naming its index),
    /// [`Error::IndexBeyondStream`] for an index `>= stream_len`, [`Error::DuplicateIndex`]
    /// for an index that comes twice or is already kept; [`Error::TooLong`] if `stream_len`
    /// exceeds `u32::MAX + 1`. `self` is then unchanged.
    pub fn merge_entries(&mut self, entries: &[Entry<T>], stream_len: u64) -> Result<(), Error> {
        self.merge_from(entries, stream_len)
    }

    /// Merges the entries of `other` (see [`TopK::merge`]).
    pub(crate) fn merge_selector<R>(&mut self, other: &Selector<T, R>) -> Result<(), Error>
    where
        R: Storage<Value = T>,
    {
        self.merge_from(&other.heap, other.next)
    }

    /// Merges the entries of `incoming`, the top k of a stream of `stream_len` positions.
    fn merge_from<R>(&mut self, incoming: &R, stream_len: u64) -> Result<(), Error>
    where
        R: Source<Value = T> + ?Sized,
    {
        merge_checked(&mut self.heap, &mut self.next, incoming, stream_len)
    }

    /// Merges entries that the caller has checked as [`merge_entries`](Self::merge_entries)
    /// would: the shards of one row, whose indices cannot collide.
    #[cfg(feature = "rayon")]
    pub(crate) fn merge_unchecked(&mut self, entries: &[Entry<T>], stream_len: u64) {
        crate::shard::merge_unchecked(&mut self.heap, &mut self.next, entries, stream_len);
    }
}
