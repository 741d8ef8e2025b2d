//! Shards and merging: a selector whose stream starts at a base position (a vocabulary split
//! across devices, a long row in chunks or across threads), and the merge of two selectors, or
//! of entries from anywhere, into the top k of the union.
//!
//! # Why a merge is exact
//!
//! The top k of a union is among the union of the parts' top k: an entry beaten by k entries
//! of its own part is beaten by them in the union too. So each shard keeps its own top k (with
//! its global indices), and offering those entries to one heap gives exactly the one-pass
//! result, ties included, because the heap compares with the full order
//! ([`Entry::rank_cmp`], index included) and so does not care in which order they arrive.
//! This needs each part to keep at least k entries (or all it saw): merge selectors of the
//! same k.
//!
//! # Stream position after a merge
//!
//! Indices are global stream positions. A shard made with `with_offset(base)` covers the positions
//! `base..stream_len()`. After a merge the selector's [`stream_len`](crate::Selector::stream_len)
//! is the greater of the two: the position after the last one either part reached. A later push
//! continues from there, which is right when the merged parts cover the positions before it (for
//! shards of one row, once all are merged); the positions of the parts must not overlap, and an
//! overlap that shows in the kept entries is [`Error::DuplicateIndex`].
//!
//! # Cost
//!
//! A merge offers the m incoming entries to the heap (O(m log k)) after checking them: each is
//! rankable, below its stream length, and its index is in neither the heap nor the other
//! incoming entries, O(m·(m + k)) index comparisons, a few thousand for k = 40, nothing next to
//! the n values of a shard.

use crate::check::MAX_STREAM_LEN;
use crate::heap::{self, Storage};
use crate::{Entry, Error, TotalRank};

/// Read access to entries to merge: another heap, or a slice.
pub(crate) trait Source {
    /// The value type.
    type Value: TotalRank;
    /// How many entries there are.
    fn count(&self) -> usize;
    /// The entry at `i`, `None` unless `i < count()`.
    fn entry(&self, i: usize) -> Option<Entry<Self::Value>>;
}

impl<S: Storage> Source for S {
    type Value = S::Value;
    fn count(&self) -> usize {
        self.len()
    }
    fn entry(&self, i: usize) -> Option<Entry<S::Value>> {
        self.get(i)
    }
}

impl<T: TotalRank> Source for [Entry<T>] {
    type Value = T;
    fn count(&self) -> usize {
        self.len()
    }
    fn entry(&self, i: usize) -> Option<Entry<T>> {
        self.get(i).copied()
    }
}

/// Checks the incoming entries (see [`Selector::merge_entries`](crate::Selector::merge_entries)),
/// then merges them.
pub(crate) fn merge_checked<S, R>(
    heap: &mut S,
    next: &mut u64,
    incoming: &R,
    stream_len: u64,
) -> Result<(), Error>
where
    S: Storage,
    R: Source<Value = S::Value> + ?Sized,
{
    check_incoming(heap, incoming, stream_len)?;
    merge_unchecked(heap, next, incoming, stream_len);
    Ok(())
}

/// The checks of [`merge_checked`], writing nothing.
pub(crate) fn check_incoming<S, R>(heap: &S, incoming: &R, stream_len: u64) -> Result<(), Error>
where
    S: Storage,
    R: Source<Value = S::Value> + ?Sized,
{
    if stream_len > MAX_STREAM_LEN {
        return Err(Error::TooLong {
            n: usize::try_from(stream_len).unwrap_or(usize::MAX),
        });
    }
    for j in 0..incoming.count() {
        let Some(entry) = incoming.entry(j) else {
            continue;
        };
        if !entry.value.is_rankable() {
            return Err(Error::NotRankable {
                index: entry.index as usize,
            });
        }
        if u64::from(entry.index) >= stream_len {
            return Err(Error::IndexBeyondStream {
                index: entry.index as usize,
                stream_len,
            });
        }
        let same = |other: Option<Entry<S::Value>>| other.is_some_and(|e| e.index == entry.index);
        let seen_before = (0..j).any(|i| same(incoming.entry(i)));
        let kept = (0..heap.len()).any(|i| same(heap.get(i)));
        if seen_before || kept {
            return Err(Error::DuplicateIndex {
                index: entry.index as usize,
            });
        }
    }
    Ok(())
}

/// Offers every incoming entry to the heap and moves the stream position to the greater of
/// the two. The entries must be rankable, with indices new to the heap and to each other.
pub(crate) fn merge_unchecked<S, R>(heap: &mut S, next: &mut u64, incoming: &R, stream_len: u64)
where
    S: Storage,
    R: Source<Value = S::Value> + ?Sized,
{
    for entry in (0..incoming.count()).filter_map(|j| incoming.entry(j)) {
        heap::offer(heap, entry);
    }
    *next = (*next).max(stream_len);
}
