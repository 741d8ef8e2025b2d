//! The streaming selectors: [`TopK`], whose heap lives in a fixed array, and [`SliceTopK`],
//! whose heap lives in caller slices. Both are thin owners of storage over the one heap of
//! [`heap`].

use arrayvec::ArrayVec;

use crate::heap::{self, Columns, Gate};
use crate::{Entry, Error, TotalRank};

/// The `K` best entries of a stream, kept in a fixed array: no allocation, `K` known at compile
/// time.
///
/// Each value pushed takes the next position of the stream as its index, from 0. A rejected
/// call changes nothing: a push of NaN leaves the kept entries *and the stream position* as
/// they were, so the next accepted value takes the position the NaN would have had.
///
/// ```
/// use tinytopk::TopK;
///
/// let mut top = TopK::<f32, 2>::new();
/// top.extend_from_slice(&[1.0, 3.0, 2.0, 3.0])?;
/// top.push(-1.0)?;
/// assert_eq!(top.peek_worst().map(|e| e.index), Some(3)); // the threshold to beat
///
/// let best: Vec<_> = top.into_sorted().iter().map(|e| (e.index, e.value)).collect();
/// assert_eq!(best, [(1, 3.0), (3, 3.0)]);
/// # Ok::<(), tinytopk::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct TopK<T, const K: usize> {
    pub(crate) heap: ArrayVec<Entry<T>, K>,
    pub(crate) gate: Gate<T>,
    pub(crate) next: u64,
}

impl<T, const K: usize> TopK<T, K> {
    /// An empty selector at stream position 0.
    pub const fn new() -> Self {
        TopK {
            heap: ArrayVec::new_const(),
            gate: None,
            next: 0,
        }
    }

    /// How many entries are kept: `min(K, values pushed)`.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Whether nothing is kept yet (always, when `K == 0`).
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// How many values the stream has taken so far: the index the next value will get.
    pub fn stream_len(&self) -> u64 {
        self.next
    }

    /// Forgets every kept entry and restarts the stream at position 0.
    pub fn clear(&mut self) {
        self.heap.clear();
        self.gate = None;
        self.next = 0;
    }
}

impl<T: TotalRank, const K: usize> TopK<T, K> {
    /// Offers one value at the next stream position.
    ///
    /// # Errors
    ///
    /// [`Error::NotRankable`] for NaN, [`Error::TooLong`] past `u32::MAX + 1` values; the
    /// selector, its stream position included, is then unchanged.
    #[inline]
    pub fn push(&mut self, value: T) -> Result<(), Error> {
        heap::push(&mut self.heap, &mut self.gate, &mut self.next, value)
    }

    /// Offers `values` at the next stream positions, all or nothing.
    ///
    /// # Errors
    ///
    /// [`Error::NotRankable`] naming the stream position of the first NaN, [`Error::TooLong`]
    /// past `u32::MAX + 1` values; nothing of `values` is then kept and the position is
    /// unchanged.
    pub fn extend_from_slice(&mut self, values: &[T]) -> Result<(), Error> {
        heap::extend(&mut self.heap, &mut self.next, values)
    }

    /// The worst kept entry. Once [`len`](Self::len) is `K`, a new value must rank above it
    /// to be kept.
    pub fn peek_worst(&self) -> Option<Entry<T>> {
        heap::peek_worst(&self.heap)
    }

    /// The kept entries, best first: descending value, equal values by ascending index.
    pub fn into_sorted(mut self) -> ArrayVec<Entry<T>, K> {
        heap::sort(&mut self.heap);
        self.heap
    }
}

impl<T, const K: usize> Default for TopK<T, K> {
    fn default() -> Self {
        Self::new()
    }
}

/// The `k` best entries of a stream, kept in two caller buffers of length `k`: a runtime `k`
/// (a request's `top_k = 40`) with no allocation.
///
/// The same streaming API and the same promises as [`TopK`]: a rejected call changes neither
/// the buffers nor the stream position. While the selector lives, the buffers hold its heap;
/// [`into_sorted`](Self::into_sorted) leaves the kept entries in them best first.
///
/// ```
/// use tinytopk::SliceTopK;
///
/// let (mut idx, mut val) = ([0_u32; 3], [0.0_f32; 3]);
/// let mut top = SliceTopK::new(&mut idx, &mut val)?;
/// for chunk in [1.0, 3.0, 2.0, 3.0, -1.0].chunks(2) {
///     top.extend_from_slice(chunk)?;
/// }
/// let (ids, values) = top.into_sorted();
/// assert_eq!(ids, [1, 3, 2]);
/// assert_eq!(values, [3.0, 3.0, 2.0]);
/// # Ok::<(), tinytopk::Error>(())
/// ```
#[derive(Debug)]
pub struct SliceTopK<'a, T> {
    pub(crate) heap: Columns<'a, T>,
    pub(crate) gate: Gate<T>,
    pub(crate) next: u64,
}

impl<'a, T> SliceTopK<'a, T> {
    /// An empty selector keeping up to `k = idx.len()` entries in `idx` and `val`. Nothing is
    /// written until a value is kept.
    ///
    /// # Errors
    ///
    /// [`Error::LengthMismatch`] if the buffers differ in length.
    pub fn new(idx: &'a mut [u32], val: &'a mut [T]) -> Result<Self, Error> {
        Ok(SliceTopK {
            heap: Columns::new(idx, val)?,
            gate: None,
            next: 0,
        })
    }

    /// How many values the stream has taken so far: the index the next value will get.
    pub fn stream_len(&self) -> u64 {
        self.next
    }

    /// Forgets every kept entry and restarts the stream at position 0. The buffers keep their
    /// contents until new values overwrite them.
    pub fn clear(&mut self) {
        self.heap.clear();
        self.gate = None;
        self.next = 0;
    }
}

impl<'a, T: TotalRank> SliceTopK<'a, T> {
    /// How many entries are kept: `min(k, values pushed)`.
    pub fn len(&self) -> usize {
        heap::Storage::len(&self.heap)
    }

    /// Whether nothing is kept yet (always, when `k == 0`).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `k`: how many entries the buffers can keep.
    pub fn capacity(&self) -> usize {
        heap::Storage::capacity(&self.heap)
    }

    /// Offers one value at the next stream position. Errors as [`TopK::push`].
    ///
    /// # Errors
    ///
    /// [`Error::NotRankable`] for NaN, [`Error::TooLong`] past `u32::MAX + 1` values; the
    /// buffers and the stream position are then unchanged.
    #[inline]
    pub fn push(&mut self, value: T) -> Result<(), Error> {
        heap::push(&mut self.heap, &mut self.gate, &mut self.next, value)
    }

    /// Offers `values` at the next stream positions, all or nothing.
    ///
    /// # Errors
    ///
    /// [`Error::NotRankable`] naming the stream position of the first NaN, [`Error::TooLong`]
    /// past `u32::MAX + 1` values; the buffers and the stream position are then unchanged.
    pub fn extend_from_slice(&mut self, values: &[T]) -> Result<(), Error> {
        heap::extend(&mut self.heap, &mut self.next, values)
    }

    /// The worst kept entry. Once [`len`](Self::len) is `k`, a new value must rank above it
    /// to be kept.
    pub fn peek_worst(&self) -> Option<Entry<T>> {
        heap::peek_worst(&self.heap)
    }

    /// Sorts the kept entries in place, best first, and returns the first
    /// [`len`](Self::len) places of the index and value buffers.
    pub fn into_sorted(mut self) -> (&'a mut [u32], &'a mut [T]) {
        heap::sort(&mut self.heap);
        self.heap.into_kept()
    }
}
