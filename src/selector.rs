//! [`Selector`]: the one streaming selector, over a storage. [`TopK`] (an array) and
//! [`SliceTopK`] (caller slices) are its two forms, so each method is written once here; only
//! what depends on the storage (making one, and what it gives back at the end) is written per
//! storage, in `topk`.

use core::fmt;

use crate::heap::storage::sealed::Sealed;
use crate::heap::{self, Storage};
use crate::push::{self, Gate};
use crate::shard::{merge_checked, Source};
use crate::sorted::Iter;
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
#[derive(Clone)]
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
    #[must_use]
    pub fn stream_len(&self) -> u64 {
        self.next
    }

    /// The storage.
    pub(crate) fn heap(&self) -> &S {
        &self.heap
    }

    /// The storage, by value.
    pub(crate) fn into_heap(self) -> S {
        self.heap
    }
}

/// What needs no order on the values: the sizes.
impl<T, S: Sealed> Selector<T, S> {
    /// How many entries are kept: `min(k, values offered)`.
    ///
    /// ```
    /// let mut top = tinytopk::TopK::<f32, 3>::new();
    /// top.extend_from_slice(&[1.0, 2.0])?;
    /// assert_eq!(top.len(), 2);
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Whether nothing is kept yet (always, when `k == 0`).
    ///
    /// ```
    /// let mut top = tinytopk::TopK::<f32, 3>::new();
    /// assert!(top.is_empty());
    /// top.push(1.0)?;
    /// assert!(!top.is_empty());
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `k`: how many entries the selector can keep.
    ///
    /// ```
    /// assert_eq!(tinytopk::TopK::<f32, 40>::new().capacity(), 40);
    /// let (mut idx, mut val) = ([0_u32; 3], [0.0_f32; 3]);
    /// assert_eq!(tinytopk::SliceTopK::new(&mut idx, &mut val)?.capacity(), 3);
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.heap.capacity()
    }
}

/// The stream position, the sizes and the worst kept entry (the threshold to beat); not the
/// heap's inner order.
impl<T: TotalRank + fmt::Debug, S: Storage<Value = T>> fmt::Debug for Selector<T, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Selector")
            .field("stream_len", &self.next)
            .field("len", &self.len())
            .field("capacity", &self.capacity())
            .field("worst", &self.peek_worst())
            .finish()
    }
}

impl<T: TotalRank, S: Storage<Value = T>> Selector<T, S> {
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

    /// Offers the values of an iterator at the next stream positions, all or nothing, as
    /// [`extend_from_slice`](Self::extend_from_slice) does for a slice: for a row transformed
    /// on the fly (a temperature, a logit bias, 16-bit floats widened), with no copy of the row
    /// and within about 1.3 to 1.6 times the time of `extend_from_slice` on logits
    /// (docs/BENCHMARKS.md), where a [`push`](Self::push) per value is several times slower.
    ///
    /// All or nothing, with no allocation, needs to know that every value is rankable before
    /// the first is kept, and there is not always room to keep a copy of the heap (a
    /// [`SliceTopK`]'s can be any size), never one of the values. So the iterator must be
    /// [`Clone`] and may be run more than once. An iterator that says its length exactly is
    /// first sampled for a floor that about k of its values are above, as a slice is (runs of
    /// values at spread places), and its values are then read by blocks
    /// of 64, each tested as a whole against the floor and the heap's root: only a block in
    /// which one may enter is looked at value by value. With k at most 64 the heap is copied
    /// to the stack and that is one run (a clone runs again only to name an error, or, if
    /// fewer than k values were above the floor, to feed those at or below it); a row whose
    /// order defeats the floor (its values above it rising) runs again above a floor sampled
    /// at other places. With a larger k a first run checks the values (counts them and finds
    /// the first NaN), with no store. An iterator that does not say its length (a `filter`)
    /// is fed with the root as the only threshold, by chunks of 1,025 values copied to the
    /// stack (4 KB for `f32`), and sampled (with k above 64, or if its order defeats the root)
    /// once counted. Each value is fed once, whatever the order of the row.
    ///
    /// Speed depends on the iterator: the blocks and the moves between the sampled places
    /// are read as std reads an iterator with random access (a slice's, a `Vec`'s or a
    /// range's iterator, through `copied`, `cloned`, `map`, `zip`, `enumerate`, `chunks`): a
    /// block's test is a fold that vectorizes, and a move past values is O(1) (std calls a
    /// `map`'s closure for each value passed, for its side effects: an optimized build drops
    /// the calls of one that has none). Another iterator that says its length
    /// (`chain`, `rev`, `take`, `step_by`, `inspect`) is stepped through value by value two
    /// or three times: several times slower than a slice (docs/BENCHMARKS.md); slice or
    /// collect such a row first where speed matters.
    ///
    /// An iterator over a slice with a `map` whose closure is `Clone` (captures copied values,
    /// as a temperature) is `Clone` and cheap to run again. It must yield the same values each
    /// time: one that does not (reads a changing source) may break the all-or-nothing promise
    /// and the answer, never cause a panic or undefined behaviour.
    ///
    /// ```
    /// let logits = [0.5_f32, 2.0, -1.0, 2.0, 7.0];
    /// let temperature = 0.7_f32;
    /// let mut top = tinytopk::TopK::<f32, 2>::new();
    /// top.try_extend(logits.iter().map(|&l| l / temperature))?;
    /// let ids: Vec<u32> = top.iter().map(|e| e.index).collect();
    /// assert_eq!(ids, [4, 1]);
    ///
    /// // A NaN anywhere: nothing of the iterator is kept, and the error names its position.
    /// let bad = [9.0, f32::NAN, 8.0];
    /// assert_eq!(
    ///     top.try_extend(bad.iter().copied()),
    ///     Err(tinytopk::Error::NotRankable { index: 6 })
    /// );
    /// assert_eq!((top.stream_len(), top.iter().next().map(|e| e.index)), (5, Some(4)));
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`extend_from_slice`](Self::extend_from_slice): [`Error::TooLong`] if the values
    /// would run past `u32::MAX + 1` positions (found at the first value past the end, so an
    /// endless iterator ends), else [`Error::NotRankable`] naming the stream position of the
    /// first NaN; nothing of `values` is then kept and the position is unchanged.
    pub fn try_extend<I>(&mut self, values: I) -> Result<(), Error>
    where
        I: IntoIterator<Item = T>,
        I::IntoIter: Clone,
    {
        extend::extend_iter(&mut self.heap, &mut self.next, values.into_iter())
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
    #[must_use]
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

    /// The kept entries best first, read in place, with no copy: sorts them in the selector's
    /// own storage first, worst first, which is still a valid heap, so the selector stays
    /// usable (push, extend, merge) and a later call finds them in order. Costs a sort of the
    /// k kept, O(k log k), or one pass if they are in order already; for a [`SliceTopK`] it is
    /// the one way to read them without consuming it. [`TopK::iter`] does the same on a copy,
    /// through `&self`.
    ///
    /// ```
    /// let (mut idx, mut val) = ([0_u32; 3], [0.0_f32; 3]);
    /// let mut top = tinytopk::SliceTopK::new(&mut idx, &mut val)?;
    /// top.extend_from_slice(&[1.0, 3.0, 2.0, 3.0])?;
    /// let ids: Vec<u32> = top.iter_sorted().map(|e| e.index).collect();
    /// assert_eq!(ids, [1, 3, 2]);
    /// top.push(5.0)?; // still a selector
    /// let best: Vec<(u32, f32)> = top.iter_sorted().map(Into::into).collect();
    /// assert_eq!(best, [(4, 5.0), (1, 3.0), (3, 3.0)]);
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    pub fn iter_sorted(&mut self) -> Iter<'_, S> {
        heap::sort_worst_first(&mut self.heap);
        Iter::worst_first(&self.heap)
    }

    /// Sorts the kept entries in place, best first, and gives back the storage.
    pub(crate) fn into_sorted_heap(mut self) -> S {
        self.sort_best_first();
        self.heap
    }

    /// Sorts the kept entries in place, best first; the selector is no longer a heap.
    pub(crate) fn sort_best_first(&mut self) {
        heap::sort(&mut self.heap);
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
