//! [`Entry`] and the one order on entries.

use core::cmp::Ordering;

use crate::TotalRank;

/// A value and its position in the stream.
///
/// With the `serde` feature it serializes as `{"value": …, "index": …}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Entry<T> {
    /// The value.
    pub value: T,
    /// Its position in the stream, from 0.
    pub index: u32,
}

impl<T> Entry<T> {
    /// The entry of `value` at stream position `index`.
    ///
    /// ```
    /// let e = tinytopk::Entry::new(2.5_f32, 7);
    /// assert_eq!((e.value, e.index), (2.5, 7));
    /// ```
    #[must_use]
    pub const fn new(value: T, index: u32) -> Self {
        Entry { value, index }
    }
}

/// `(index, value)`: the order of `top_k_into`'s two buffers.
///
/// ```
/// let (index, value): (u32, f32) = tinytopk::Entry::new(2.5_f32, 7).into();
/// assert_eq!((index, value), (7, 2.5));
/// ```
impl<T> From<Entry<T>> for (u32, T) {
    fn from(entry: Entry<T>) -> Self {
        (entry.index, entry.value)
    }
}

impl<T: TotalRank> Entry<T> {
    /// The order of the contract: `self` ranks below `other` (`Less`) iff its value ranks below,
    /// or the values tie and its index is greater. Two entries with different indices never
    /// compare `Equal`, so the top k of a stream are unique.
    ///
    /// Both values must be rankable ([`TotalRank::is_rankable`]); the selectors make sure of it.
    ///
    /// ```
    /// use core::cmp::Ordering;
    /// use tinytopk::Entry;
    ///
    /// let early = Entry { value: 3.0_f32, index: 1 };
    /// let late = Entry { value: 3.0_f32, index: 3 };
    /// assert_eq!(late.rank_cmp(&early), Ordering::Less); // a tie goes to the lower index
    /// ```
    #[inline]
    #[must_use]
    pub fn rank_cmp(&self, other: &Self) -> Ordering {
        self.value
            .rank_cmp(&other.value)
            .then_with(|| other.index.cmp(&self.index))
    }

    /// `self.rank_cmp(other) == Ordering::Less`: `self` is the worse of the two.
    ///
    /// The same order as [`rank_cmp`](Self::rank_cmp), spelt with `&` and `|` on the two
    /// comparisons so that the heap can pick a child with no branch.
    ///
    /// ```
    /// use tinytopk::Entry;
    ///
    /// assert!(Entry::new(1.0_f32, 0).ranks_below(&Entry::new(2.0, 5)));
    /// assert!(Entry::new(2.0_f32, 5).ranks_below(&Entry::new(2.0, 4))); // the later index
    /// ```
    #[inline]
    #[must_use]
    pub fn ranks_below(&self, other: &Self) -> bool {
        let by_value = self.value.rank_cmp(&other.value);
        (by_value == Ordering::Less) | ((by_value == Ordering::Equal) & (self.index > other.index))
    }
}
