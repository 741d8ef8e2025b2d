//! The two forms of [`Selector`]: [`TopK`], whose heap is a fixed array, and [`SliceTopK`],
//! whose heap lives in caller slices. Here is only what depends on the storage: making one,
//! and what it gives back at the end; every other method is [`Selector`]'s.

use crate::heap::storage::{Array, Slices};
use crate::sorted::{IntoIter, SliceIntoIter, Sorted};
use crate::{Error, Selector, TotalRank};

/// The `K` best entries of a stream, kept in a fixed array: no allocation, `K` known at compile
/// time. Its methods are [`Selector`]'s, and [`new`](TopK::new),
/// [`with_offset`](TopK::with_offset), [`into_sorted`](TopK::into_sorted),
/// [`sorted`](TopK::sorted), [`iter`](TopK::iter) and [`merge`](TopK::merge). Iterating a
/// `TopK` (or a `&TopK`) gives its entries by value, best first.
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
pub type TopK<T, const K: usize> = Selector<T, Array<T, K>>;

impl<T, const K: usize> TopK<T, K> {
    /// An empty selector at stream position 0.
    ///
    /// ```
    /// let top = tinytopk::TopK::<f32, 40>::new();
    /// assert_eq!(top.stream_len(), 0);
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        Self::with_offset(0)
    }

    /// An empty selector whose first value takes index `base`: the shard of a stream that
    /// starts at position `base`. [`stream_len`](Selector::stream_len) counts from 0, so it is
    /// `base` plus the values pushed, and the stream still ends at `u32::MAX + 1` positions: a
    /// push past it is [`Error::TooLong`], never a wrap.
    ///
    /// ```
    /// let mut top = tinytopk::TopK::<f32, 2>::with_offset(1000);
    /// top.push(0.5)?;
    /// assert_eq!(top.peek_worst().map(|e| e.index), Some(1000));
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    #[must_use]
    pub const fn with_offset(base: u32) -> Self {
        Selector::over(Array::new(), base as u64)
    }
}

impl<T: TotalRank, const K: usize> TopK<T, K> {
    /// The kept entries, best first: descending value, equal values by ascending index.
    ///
    /// ```
    /// let mut top = tinytopk::TopK::<i32, 3>::new();
    /// top.extend_from_slice(&[4, 9, 4, 1])?;
    /// let ids: Vec<u32> = top.into_sorted().iter().map(|e| e.index).collect();
    /// assert_eq!(ids, [1, 0, 2]);
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    #[must_use = "`self` is dropped if the result is not used"]
    #[inline]
    pub fn into_sorted(mut self) -> Sorted<T, K> {
        self.sort_best_first();
        Sorted::new(self)
    }

    /// A sorted copy of the kept entries, best first, leaving `self` as it is: a copy of the
    /// `K` entries (no allocation) and a sort of them, O(K log K) at each call.
    /// [`iter_sorted`](Selector::iter_sorted) sorts in place instead, with no copy.
    ///
    /// ```
    /// let mut top = tinytopk::TopK::<f32, 2>::new();
    /// top.extend_from_slice(&[1.0, 3.0, 2.0])?;
    /// assert_eq!(top.sorted()[0].index, 1);
    /// top.push(9.0)?; // still a selector
    /// assert_eq!(top.sorted()[0].index, 3);
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    #[must_use]
    pub fn sorted(&self) -> Sorted<T, K> {
        self.clone().into_sorted()
    }

    /// The kept entries by value, best first, leaving `self` as it is: the iterator of
    /// [`sorted`](TopK::sorted), with its cost.
    ///
    /// ```
    /// let mut top = tinytopk::TopK::<f32, 3>::new();
    /// top.extend_from_slice(&[0.5, 2.0, -1.0, 2.0])?;
    /// let ids: Vec<u32> = top.iter().map(|e| e.index).collect();
    /// assert_eq!(ids, [1, 3, 0]);
    /// assert_eq!(top.len(), 3); // not consumed
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    pub fn iter(&self) -> IntoIter<T, K> {
        self.sorted().into_iter()
    }

    /// Merges `other` into `self`: `self` keeps its best `k` of both, and its stream length
    /// becomes the greater of the two (see [`shard`](crate::shard) for what the position
    /// means after a merge). `other` should keep at least `self`'s `k`, or all it saw, for
    /// the result to be the top k of the union.
    ///
    /// ```
    /// use tinytopk::TopK;
    ///
    /// let row = [0.5_f32, 2.0, -1.0, 2.0, 7.0, 0.0];
    /// let (left, right) = row.split_at(3);
    /// let mut a = TopK::<f32, 2>::new();
    /// a.extend_from_slice(left)?;
    /// let mut b = TopK::<f32, 2>::with_offset(3);
    /// b.extend_from_slice(right)?;
    /// b.merge(&a)?;
    /// let ids: Vec<u32> = b.into_sorted().iter().map(|e| e.index).collect();
    /// assert_eq!(ids, [4, 1]);
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::DuplicateIndex`] if an index is kept by both (the two streams overlapped);
    /// `self` is then unchanged.
    pub fn merge(&mut self, other: &TopK<T, K>) -> Result<(), Error> {
        self.merge_selector(other)
    }
}

impl<T, const K: usize> Default for TopK<T, K> {
    fn default() -> Self {
        Self::new()
    }
}

/// The kept entries by value, best first ([`TopK::into_sorted`]).
///
/// ```
/// let mut top = tinytopk::TopK::<i32, 2>::new();
/// top.extend_from_slice(&[3, 1, 4])?;
/// let values: Vec<i32> = top.into_iter().map(|e| e.value).collect();
/// assert_eq!(values, [4, 3]);
/// # Ok::<(), tinytopk::Error>(())
/// ```
impl<T: TotalRank, const K: usize> IntoIterator for TopK<T, K> {
    type Item = crate::Entry<T>;
    type IntoIter = IntoIter<T, K>;

    fn into_iter(self) -> IntoIter<T, K> {
        self.into_sorted().into_iter()
    }
}

/// The kept entries by value, best first, from a sorted copy ([`TopK::iter`]).
///
/// ```
/// let mut top = tinytopk::TopK::<i32, 2>::new();
/// top.extend_from_slice(&[3, 1, 4])?;
/// for entry in &top {
///     assert!(entry.value >= 3);
/// }
/// assert_eq!(top.len(), 2);
/// # Ok::<(), tinytopk::Error>(())
/// ```
impl<T: TotalRank, const K: usize> IntoIterator for &TopK<T, K> {
    type Item = crate::Entry<T>;
    type IntoIter = IntoIter<T, K>;

    fn into_iter(self) -> IntoIter<T, K> {
        self.iter()
    }
}

/// The `k` best entries of a stream, kept in two caller buffers of length `k`: a runtime `k`
/// (a request's `top_k = 40`) with no allocation. Its methods are [`Selector`]'s, and
/// [`new`](SliceTopK::new), [`with_offset`](SliceTopK::with_offset) and
/// [`into_sorted`](SliceTopK::into_sorted).
///
/// The same streaming API and the same promises as [`TopK`]: a rejected call changes neither
/// the buffers nor the stream position. While the selector lives, the buffers hold its heap;
/// [`into_sorted`](SliceTopK::into_sorted) leaves the kept entries in them best first.
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
pub type SliceTopK<'a, T> = Selector<T, Slices<'a, T>>;

impl<'a, T> SliceTopK<'a, T> {
    /// An empty selector keeping up to `k = idx.len()` entries in `idx` and `val`. Nothing is
    /// written until a value is kept.
    ///
    /// ```
    /// let (mut idx, mut val) = ([0_u32; 4], [0.0_f32; 4]);
    /// let top = tinytopk::SliceTopK::new(&mut idx, &mut val)?;
    /// assert_eq!(top.capacity(), 4);
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::LengthMismatch`] if the buffers differ in length.
    pub fn new(idx: &'a mut [u32], val: &'a mut [T]) -> Result<Self, Error> {
        Self::with_offset(idx, val, 0)
    }

    /// An empty selector over `idx` and `val` whose first value takes index `base`, as
    /// [`TopK::with_offset`].
    ///
    /// ```
    /// let (mut idx, mut val) = ([0_u32; 1], [0.0_f32; 1]);
    /// let mut top = tinytopk::SliceTopK::with_offset(&mut idx, &mut val, 7)?;
    /// top.push(2.5)?;
    /// assert_eq!(top.into_sorted().0, [7]);
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::LengthMismatch`] if the buffers differ in length.
    pub fn with_offset(idx: &'a mut [u32], val: &'a mut [T], base: u32) -> Result<Self, Error> {
        Ok(Selector::over(Slices::new(idx, val)?, u64::from(base)))
    }
}

impl<'a, T: TotalRank> SliceTopK<'a, T> {
    /// Sorts the kept entries in place, best first, and returns the first
    /// [`len`](Selector::len) places of the index and value buffers.
    ///
    /// ```
    /// let (mut idx, mut val) = ([0_u32; 2], [0_i64; 2]);
    /// let mut top = tinytopk::SliceTopK::new(&mut idx, &mut val)?;
    /// top.push(-3)?;
    /// let (ids, values) = top.into_sorted();
    /// assert_eq!((ids, values), (&mut [0][..], &mut [-3][..]));
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    pub fn into_sorted(self) -> (&'a mut [u32], &'a mut [T]) {
        self.into_sorted_heap().into_kept()
    }

    /// Merges `other` into `self`, as [`TopK::merge`]. `other` should have at least `self`'s
    /// capacity, or have kept all it saw, for the result to be the top k of the union.
    ///
    /// ```
    /// use tinytopk::SliceTopK;
    ///
    /// let (mut ia, mut va) = ([0_u32; 1], [0.0_f32; 1]);
    /// let mut a = SliceTopK::new(&mut ia, &mut va)?;
    /// a.extend_from_slice(&[1.0, 5.0])?;
    /// let (mut ib, mut vb) = ([0_u32; 1], [0.0_f32; 1]);
    /// let mut b = SliceTopK::with_offset(&mut ib, &mut vb, 2)?;
    /// b.extend_from_slice(&[3.0])?;
    /// b.merge(&a)?;
    /// assert_eq!(b.into_sorted().0, [1]);
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::DuplicateIndex`] if an index is kept by both; `self` is then unchanged.
    pub fn merge(&mut self, other: &SliceTopK<'_, T>) -> Result<(), Error> {
        self.merge_selector(other)
    }
}

/// The kept entries by value, best first: the buffers are sorted in place first, as
/// [`SliceTopK::into_sorted`] leaves them.
///
/// ```
/// let (mut idx, mut val) = ([0_u32; 2], [0_i32; 2]);
/// let mut top = tinytopk::SliceTopK::new(&mut idx, &mut val)?;
/// top.extend_from_slice(&[3, 1, 4])?;
/// let best: Vec<(u32, i32)> = top.into_iter().map(Into::into).collect();
/// assert_eq!(best, [(2, 4), (0, 3)]);
/// assert_eq!(idx, [2, 0]); // and the buffers hold them
/// # Ok::<(), tinytopk::Error>(())
/// ```
impl<'a, T: TotalRank> IntoIterator for SliceTopK<'a, T> {
    type Item = crate::Entry<T>;
    type IntoIter = SliceIntoIter<'a, T>;

    fn into_iter(self) -> SliceIntoIter<'a, T> {
        let (idx, val) = self.into_sorted();
        SliceIntoIter::new(idx, val)
    }
}
