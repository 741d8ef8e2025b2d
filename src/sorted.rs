//! The kept entries, best first, as the crate's own types: [`Sorted`], what
//! [`TopK::into_sorted`] and [`TopK::sorted`] give (a fixed array that derefs to a slice of
//! entries), its iterator [`IntoIter`], and [`Iter`], which reads a selector's own storage
//! once [`Selector::iter_sorted`] has sorted it in place, and [`SliceIntoIter`], what iterating
//! a [`SliceTopK`](crate::SliceTopK) gives.
//!
//! Named here so that a caller can spell out the types; none of them allocates.

use core::fmt;
use core::hash::{Hash, Hasher};
use core::iter::FusedIterator;
use core::ops::{Deref, Range};

use crate::heap::Storage;
use crate::Entry;
#[cfg(doc)]
use crate::Selector;
use crate::TopK;

/// Up to `K` entries, best first: descending value, equal values by ascending index. Derefs to
/// `[Entry<T>]`, so it reads as a slice (`iter`, `len`, `first`, indexing, `to_vec`); iterated
/// by value it gives the entries best first.
///
/// ```
/// let mut top = tinytopk::TopK::<f32, 2>::new();
/// top.extend_from_slice(&[1.0, 3.0, 2.0])?;
/// let best = top.into_sorted();
/// assert_eq!(best.len(), 2);
/// assert_eq!((best[0].index, best[1].index), (1, 2));
/// let pairs: Vec<(u32, f32)> = best.into_iter().map(Into::into).collect();
/// assert_eq!(pairs, [(1, 3.0), (2, 2.0)]);
/// # Ok::<(), tinytopk::Error>(())
/// ```
#[derive(Clone)]
pub struct Sorted<T, const K: usize> {
    /// The selector itself, its storage sorted best first in place: no second array of the
    /// entries is made. Whether the selector's own move into the result is a copy is the
    /// compiler's (inlined, and read where it is, it was none in the size firmware).
    top: TopK<T, K>,
}

impl<T, const K: usize> Sorted<T, K> {
    /// Wraps a selector whose entries are already best first.
    #[inline]
    pub(crate) fn new(top: TopK<T, K>) -> Self {
        Sorted { top }
    }

    /// The entries, best first, as a slice.
    ///
    /// ```
    /// let mut top = tinytopk::TopK::<i32, 3>::new();
    /// top.extend_from_slice(&[4, 9])?;
    /// let best = top.into_sorted();
    /// assert_eq!(best.as_slice().iter().map(|e| e.value).collect::<Vec<_>>(), [9, 4]);
    /// # Ok::<(), tinytopk::Error>(())
    /// ```
    #[must_use]
    pub fn as_slice(&self) -> &[Entry<T>] {
        self.top.heap().as_slice()
    }
}

impl<T, const K: usize> Deref for Sorted<T, K> {
    type Target = [Entry<T>];

    fn deref(&self) -> &[Entry<T>] {
        self.top.heap().as_slice()
    }
}

impl<T, const K: usize> AsRef<[Entry<T>]> for Sorted<T, K> {
    fn as_ref(&self) -> &[Entry<T>] {
        self.top.heap().as_slice()
    }
}

/// Printed as the list of its entries, best first.
impl<T: fmt::Debug, const K: usize> fmt::Debug for Sorted<T, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.top.heap().as_slice().iter())
            .finish()
    }
}

/// Equal when they hold the same entries.
impl<T: PartialEq, const K: usize> PartialEq for Sorted<T, K> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Eq, const K: usize> Eq for Sorted<T, K> {}

/// Hashed as the slice of its entries.
impl<T: Hash, const K: usize> Hash for Sorted<T, K> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<T: PartialEq, const K: usize> PartialEq<[Entry<T>]> for Sorted<T, K> {
    fn eq(&self, other: &[Entry<T>]) -> bool {
        self.as_slice() == other
    }
}

impl<T: PartialEq, const K: usize> PartialEq<&[Entry<T>]> for Sorted<T, K> {
    fn eq(&self, other: &&[Entry<T>]) -> bool {
        self.as_slice() == *other
    }
}

impl<T: PartialEq, const K: usize, const N: usize> PartialEq<[Entry<T>; N]> for Sorted<T, K> {
    fn eq(&self, other: &[Entry<T>; N]) -> bool {
        self.as_slice() == other
    }
}

impl<T, const K: usize> IntoIterator for Sorted<T, K> {
    type Item = Entry<T>;
    type IntoIter = IntoIter<T, K>;

    /// The entries by value, best first.
    fn into_iter(self) -> IntoIter<T, K> {
        IntoIter {
            inner: self.top.into_heap().into_entries().into_iter(),
        }
    }
}

impl<'a, T, const K: usize> IntoIterator for &'a Sorted<T, K> {
    type Item = &'a Entry<T>;
    type IntoIter = core::slice::Iter<'a, Entry<T>>;

    fn into_iter(self) -> Self::IntoIter {
        self.top.heap().as_slice().iter()
    }
}

/// The entries of a [`Sorted`] by value, best first: what iterating a [`TopK`] gives
/// ([`TopK::iter`], `for e in top`, `for e in &top`).
#[derive(Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct IntoIter<T, const K: usize> {
    inner: arrayvec::IntoIter<Entry<T>, K>,
}

impl<T: fmt::Debug, const K: usize> fmt::Debug for IntoIter<T, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("IntoIter")
            .field(&self.inner.as_slice())
            .finish()
    }
}

impl<T, const K: usize> Iterator for IntoIter<T, K> {
    type Item = Entry<T>;

    #[inline]
    fn next(&mut self) -> Option<Entry<T>> {
        self.inner.next()
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl<T, const K: usize> DoubleEndedIterator for IntoIter<T, K> {
    #[inline]
    fn next_back(&mut self) -> Option<Entry<T>> {
        self.inner.next_back()
    }
}

impl<T, const K: usize> ExactSizeIterator for IntoIter<T, K> {}

impl<T, const K: usize> FusedIterator for IntoIter<T, K> {}

/// The entries a [`SliceTopK`](crate::SliceTopK) leaves in its caller's buffers, by value,
/// best first: what iterating a `SliceTopK` gives (it sorts the buffers in place first, as
/// [`SliceTopK::into_sorted`](crate::SliceTopK::into_sorted) does).
#[derive(Clone, Debug)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct SliceIntoIter<'a, T> {
    idx: core::slice::Iter<'a, u32>,
    val: core::slice::Iter<'a, T>,
}

impl<'a, T> SliceIntoIter<'a, T> {
    /// Over two sorted buffers of the same length.
    pub(crate) fn new(idx: &'a [u32], val: &'a [T]) -> Self {
        SliceIntoIter {
            idx: idx.iter(),
            val: val.iter(),
        }
    }
}

impl<T: Copy> Iterator for SliceIntoIter<'_, T> {
    type Item = Entry<T>;

    #[inline]
    fn next(&mut self) -> Option<Entry<T>> {
        Some(Entry::new(*self.val.next()?, *self.idx.next()?))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.val.size_hint()
    }
}

impl<T: Copy> DoubleEndedIterator for SliceIntoIter<'_, T> {
    #[inline]
    fn next_back(&mut self) -> Option<Entry<T>> {
        Some(Entry::new(*self.val.next_back()?, *self.idx.next_back()?))
    }
}

impl<T: Copy> ExactSizeIterator for SliceIntoIter<'_, T> {}

impl<T: Copy> FusedIterator for SliceIntoIter<'_, T> {}

/// The kept entries of a selector by value, best first, read from its own storage, which
/// [`Selector::iter_sorted`] has sorted in place.
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Iter<'a, S> {
    /// Sorted worst first: the iterator walks it from the end.
    heap: &'a S,
    rest: Range<usize>,
}

impl<'a, S: Storage> Iter<'a, S> {
    /// Over `heap`, whose entries are sorted worst first.
    pub(crate) fn worst_first(heap: &'a S) -> Self {
        Iter {
            heap,
            rest: 0..heap.len(),
        }
    }
}

impl<S> Clone for Iter<'_, S> {
    fn clone(&self) -> Self {
        Iter {
            heap: self.heap,
            rest: self.rest.clone(),
        }
    }
}

impl<S> fmt::Debug for Iter<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Iter")
            .field("remaining", &self.rest.len())
            .finish()
    }
}

impl<S: Storage> Iterator for Iter<'_, S> {
    type Item = Entry<S::Value>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.rest.next_back().and_then(|i| self.heap.get(i))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.rest.size_hint()
    }
}

impl<S: Storage> DoubleEndedIterator for Iter<'_, S> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        self.rest.next().and_then(|i| self.heap.get(i))
    }
}

impl<S: Storage> ExactSizeIterator for Iter<'_, S> {}

impl<S: Storage> FusedIterator for Iter<'_, S> {}
