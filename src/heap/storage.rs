//! Where a heap keeps its entries: the [`Storage`] trait and the crate's two storages, an
//! array of entries ([`Array`], under [`TopK`](crate::TopK)) and two caller slices ([`Slices`],
//! under [`SliceTopK`](crate::SliceTopK)). The heap ([`super`]) is written once over the trait.

use core::cmp::Reverse;
use core::fmt;

use arrayvec::ArrayVec;

use crate::{Entry, Error, TotalRank};

/// Where a selector keeps its entries: positions `0..len()` hold the heap, and up to
/// `capacity()` (the selector's k) can be kept.
///
/// Sealed: the crate's storages are [`Array`] and [`Slices`]. Its methods are how the crate's
/// heap reads and writes them, not an API.
pub trait Storage: sealed::Sealed {
    /// The value type of the entries.
    type Value: TotalRank;
    /// The entry at `i`, `None` unless `i < len()`. An `Option`, not a panic: the heap stops
    /// where a position is out of range (which its own indices never are), so that no panic
    /// is linked in.
    #[doc(hidden)]
    fn get(&self, i: usize) -> Option<Entry<Self::Value>>;
    /// Overwrites the entry at `i < len()`; does nothing at any other `i`.
    #[doc(hidden)]
    fn set(&mut self, i: usize, entry: Entry<Self::Value>);
    /// Appends an entry at position `len()` if `len() < capacity()`; does nothing on a full
    /// storage.
    #[doc(hidden)]
    fn append(&mut self, entry: Entry<Self::Value>);
    /// Keeps the entries at positions `0..len` (all if there are no more) and forgets the
    /// others; caller buffers keep what they hold.
    #[doc(hidden)]
    fn truncate(&mut self, len: usize);
    /// Forgets every kept entry; caller buffers keep what they hold.
    #[doc(hidden)]
    fn clear(&mut self) {
        self.truncate(0);
    }
    /// Reverses the order of the kept entries.
    #[doc(hidden)]
    fn reverse(&mut self);
    /// The kept entries' places as two lanes of `u32`, if the values are `f32`: the scratch of
    /// the radix sorts (of a whole row, of the kept entries of a short one) and of the spread.
    /// `None` by default.
    #[cfg(feature = "fast")]
    #[doc(hidden)]
    fn f32_lanes(&mut self) -> Option<super::radix::Lanes<'_>> {
        None
    }
}

/// Keeps [`Storage`] to the crate's own types, which may implement it.
pub(crate) mod sealed {
    /// The supertrait that no type outside the crate can implement. It holds what needs no
    /// order on the values, so that a selector's `len` and `capacity` need none either.
    // The heap's view of a storage, not a collection: `is_empty` would serve no caller.
    #[allow(clippy::len_without_is_empty)]
    pub trait Sealed {
        /// How many entries are kept.
        fn len(&self) -> usize;
        /// How many entries can be kept: k.
        fn capacity(&self) -> usize;
    }
}

/// Implements [`Storage`] for a struct whose field `entries`, an `ArrayVec` of entries, holds
/// the heap, and whose capacity is `$capacity` (`$this` is `&self` in it): [`Array`], whose
/// capacity is a constant, and [`Limited`], whose capacity is not.
macro_rules! entries_storage {
    ([$($generics:tt)*] $ty:ty, |$this:ident| $capacity:expr) => {
        impl<$($generics)*> $crate::heap::storage::sealed::Sealed for $ty {
            #[inline]
            fn len(&self) -> usize {
                self.entries.len()
            }
            #[inline]
            fn capacity(&self) -> usize {
                let $this = self;
                $capacity
            }
        }

        impl<$($generics)*> $crate::heap::Storage for $ty
        where
            T: TotalRank,
        {
            type Value = T;
            #[inline]
            fn get(&self, i: usize) -> Option<$crate::Entry<T>> {
                self.entries.get(i).copied()
            }
            #[inline]
            fn set(&mut self, i: usize, entry: $crate::Entry<T>) {
                if let Some(slot) = self.entries.get_mut(i) {
                    *slot = entry;
                }
            }
            #[inline]
            fn append(&mut self, entry: $crate::Entry<T>) {
                if self.entries.len() < $crate::heap::storage::sealed::Sealed::capacity(self) {
                    // Below the capacity, which is at most the array's: it cannot fail.
                    let _ = self.entries.try_push(entry);
                }
            }
            fn truncate(&mut self, len: usize) {
                self.entries.truncate(len);
            }
            fn reverse(&mut self) {
                self.entries.reverse();
            }
            #[cfg(feature = "fast")]
            fn f32_lanes(&mut self) -> Option<$crate::heap::radix::Lanes<'_>> {
                T::as_f32_entries_mut(&mut self.entries).map($crate::heap::radix::Lanes::Pairs)
            }
        }
    };
}

/// The storage of [`TopK`](crate::TopK): a fixed array of `K` entries, no allocation.
pub struct Array<T, const K: usize> {
    entries: ArrayVec<Entry<T>, K>,
}

/// Written out: `ArrayVec`'s own `clone` collects into a new array, and links the panic of
/// an array that overflows, which a copy of an array of the same capacity cannot do.
impl<T: Clone, const K: usize> Clone for Array<T, K> {
    fn clone(&self) -> Self {
        let mut entries = ArrayVec::new_const();
        for entry in &self.entries {
            // At most `K` entries: no push fails.
            let _ = entries.try_push(entry.clone());
        }
        Array { entries }
    }
}

impl<T, const K: usize> Array<T, K> {
    /// An empty array.
    pub(crate) const fn new() -> Self {
        Array {
            entries: ArrayVec::new_const(),
        }
    }

    /// The kept entries, in heap order until sorted.
    pub(crate) fn into_entries(self) -> ArrayVec<Entry<T>, K> {
        self.entries
    }

    /// The kept entries, in heap order until sorted.
    pub(crate) fn as_slice(&self) -> &[Entry<T>] {
        &self.entries
    }
}

entries_storage!([T, const K: usize] Array<T, K>, |_array| K);

/// What a storage holds, not how: how many entries are kept, and how many can be.
fn debug_sizes(
    storage: &impl sealed::Sealed,
    name: &str,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    f.debug_struct(name)
        .field("len", &storage.len())
        .field("capacity", &storage.capacity())
        .finish()
}

impl<T, const K: usize> fmt::Debug for Array<T, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_sizes(self, "Array", f)
    }
}

/// A heap of at most `N` entries whose capacity, at most `N`, is set at run time: the copy of
/// a small heap that `extend` works on, and the heap that picks a threshold from a sample
/// (both with the `fast` feature).
#[cfg(any(test, feature = "fast"))]
pub(crate) struct Limited<T, const N: usize> {
    entries: ArrayVec<Entry<T>, N>,
    capacity: usize,
}

#[cfg(any(test, feature = "fast"))]
impl<T, const N: usize> Limited<T, N> {
    /// An empty heap that keeps up to `capacity.min(N)` entries.
    pub(crate) fn new(capacity: usize) -> Self {
        Limited {
            entries: ArrayVec::new(),
            capacity: capacity.min(N),
        }
    }

    /// The kept entries, in heap order.
    pub(crate) fn entries(&self) -> &[Entry<T>] {
        &self.entries
    }
}

#[cfg(any(test, feature = "fast"))]
entries_storage!([T, const N: usize] Limited<T, N>, |limited| limited.capacity);

/// The storage of [`SliceTopK`](crate::SliceTopK): indices and values in two caller slices of
/// the same length, k, the heap in their first places.
pub struct Slices<'a, T> {
    idx: &'a mut [u32],
    val: &'a mut [T],
    len: usize,
}

impl<'a, T> Slices<'a, T> {
    /// An empty heap over the two buffers; their length is k.
    pub(crate) fn new(idx: &'a mut [u32], val: &'a mut [T]) -> Result<Self, Error> {
        if idx.len() != val.len() {
            return Err(Error::LengthMismatch {
                idx: idx.len(),
                val: val.len(),
            });
        }
        Ok(Slices { idx, val, len: 0 })
    }

    /// The first `len` places of both buffers.
    pub(crate) fn into_kept(self) -> (&'a mut [u32], &'a mut [T]) {
        // `len` is at most the buffers' length: the `min` only lets the compiler see it.
        let (idx, val) = (self.idx, self.val);
        let (idx_len, val_len) = (self.len.min(idx.len()), self.len.min(val.len()));
        (&mut idx[..idx_len], &mut val[..val_len])
    }
}

impl<T> fmt::Debug for Slices<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_sizes(self, "Slices", f)
    }
}

impl<T> sealed::Sealed for Slices<'_, T> {
    #[inline]
    fn len(&self) -> usize {
        self.len
    }
    #[inline]
    fn capacity(&self) -> usize {
        self.idx.len()
    }
}

impl<T: TotalRank> Storage for Slices<'_, T> {
    type Value = T;
    #[inline]
    fn get(&self, i: usize) -> Option<Entry<T>> {
        if i >= self.len {
            return None;
        }
        match (self.val.get(i), self.idx.get(i)) {
            (Some(&value), Some(&index)) => Some(Entry { value, index }),
            _ => None,
        }
    }
    #[inline]
    fn set(&mut self, i: usize, entry: Entry<T>) {
        if i >= self.len {
            return;
        }
        if let (Some(value), Some(index)) = (self.val.get_mut(i), self.idx.get_mut(i)) {
            (*value, *index) = (entry.value, entry.index);
        }
    }
    #[inline]
    fn append(&mut self, entry: Entry<T>) {
        if self.len < sealed::Sealed::capacity(self) {
            self.len += 1;
            self.set(self.len - 1, entry);
        }
    }
    fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }
    fn reverse(&mut self) {
        if let (Some(idx), Some(val)) = (self.idx.get_mut(..self.len), self.val.get_mut(..self.len))
        {
            idx.reverse();
            val.reverse();
        }
    }
    #[cfg(feature = "fast")]
    fn f32_lanes(&mut self) -> Option<super::radix::Lanes<'_>> {
        let idx = self.idx.get_mut(..self.len)?;
        let val = T::as_f32s_mut(self.val.get_mut(..self.len)?)?;
        Some(super::radix::Lanes::Columns(idx, val))
    }
}

/// Two caller slices of `T` read as [`Reverse<T>`](Reverse): the storage of
/// [`bottom_k_into`](crate::bottom_k_into), whose heap keeps the k smallest in the caller's
/// value buffer as plain `T`. Every access is one of [`Slices`], the value wrapped or unwrapped.
pub(crate) struct Reversed<'a, T>(Slices<'a, T>);

impl<'a, T> Reversed<'a, T> {
    /// An empty heap over the two buffers; their length is k.
    pub(crate) fn new(idx: &'a mut [u32], val: &'a mut [T]) -> Result<Self, Error> {
        Slices::new(idx, val).map(Reversed)
    }
}

impl<T> sealed::Sealed for Reversed<'_, T> {
    #[inline]
    fn len(&self) -> usize {
        self.0.len()
    }
    #[inline]
    fn capacity(&self) -> usize {
        self.0.capacity()
    }
}

impl<T: TotalRank> Storage for Reversed<'_, T> {
    type Value = Reverse<T>;

    #[inline]
    fn get(&self, i: usize) -> Option<Entry<Reverse<T>>> {
        let Entry { value, index } = self.0.get(i)?;
        Some(Entry::new(Reverse(value), index))
    }
    #[inline]
    fn set(&mut self, i: usize, entry: Entry<Reverse<T>>) {
        self.0.set(i, Entry::new(entry.value.0, entry.index));
    }
    #[inline]
    fn append(&mut self, entry: Entry<Reverse<T>>) {
        self.0.append(Entry::new(entry.value.0, entry.index));
    }
    fn truncate(&mut self, len: usize) {
        self.0.truncate(len);
    }
    fn reverse(&mut self) {
        self.0.reverse();
    }
    #[cfg(feature = "fast")]
    fn f32_lanes(&mut self) -> Option<super::radix::Lanes<'_>> {
        self.0.f32_lanes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Out of range, every method of every storage does nothing (or gives `None`): the heap
    /// never goes there, and no panic is linked in for it.
    #[test]
    fn out_of_range_is_nothing_not_a_panic() {
        let entry = |index| Entry {
            value: 1.5_f32,
            index,
        };
        let (mut idx, mut val) = ([7_u32; 2], [0.0_f32; 2]);
        let mut slices = Slices::new(&mut idx, &mut val).unwrap();
        let mut array = Array::<f32, 2>::new();
        let mut limited = Limited::<f32, 4>::new(2);
        fn check<S: Storage<Value = f32>>(storage: &mut S, entry: impl Fn(u32) -> Entry<f32>) {
            assert_eq!(storage.get(0), None);
            storage.set(0, entry(9));
            assert_eq!((storage.len(), storage.get(0)), (0, None));
            for i in 0..3 {
                storage.append(entry(i));
            }
            // Full at two: the third append did nothing.
            assert_eq!(storage.len(), 2);
            assert_eq!(storage.get(1), Some(entry(1)));
            assert_eq!(storage.get(2), None);
            storage.set(2, entry(5));
            assert_eq!((storage.len(), storage.get(2)), (2, None));
            // Reversed within the kept entries only.
            storage.reverse();
            assert_eq!(
                (storage.get(0), storage.get(1)),
                (Some(entry(1)), Some(entry(0)))
            );
            storage.reverse();
        }
        check(&mut slices, entry);
        check(&mut array, entry);
        check(&mut limited, entry);
        assert_eq!(slices.into_kept().0, [0, 1]);
        assert_eq!(idx, [0, 1]);
    }
}
