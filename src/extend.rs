//! [`extend`]: a slice of values, all or nothing.
//!
//! With the `fast` feature a slice that fills an empty heap exactly is kept whole, sorted
//! worst first (`heap::keep_row`: a radix sort for `f32`). An empty heap whose k is large for
//! the slice (where the scan's counting read pays, `scan::counting_pays`) first looks at the
//! slice's order: a slice in order (rising, falling, all equal) keeps its first or its last
//! k, worst first, for one read and no sort (`heap::keep_best_if_in_order`). Otherwise the
//! values are read by blocks once the heap is full ([`crate::scan`]); where the scan counts a
//! floor (k large for the slice) and the heap is empty and keeps many `f32` of a short slice,
//! the positions above the floor are pooled in the storage instead, and the best k cut from
//! them and radix sorted, with no heap (`heap::keep_pooled`); when the heap is small
//! and the slice long, that is the only read of the slice: the scan works on a copy of the
//! heap on the stack (`Scratch`), tests for NaN as it reads, and the copy goes back only on
//! success. Otherwise the slice is checked for NaN first and then scanned; if the heap was
//! empty, the entries it keeps are then sorted worst first from the slice where that is O(k)
//! (`heap::sort_kept_worst_first`: many `f32` of a short row), which leaves a heap, and makes
//! the final sort a reversal.
//!
//! Without it the slice is checked for NaN first, and then each value is offered to the heap
//! in turn (`offer_each`): n root comparisons and O(log k) for each value that enters, with
//! the least code and stack.
//!
//! [`extend_iter`] is the same for an iterator, which it may run more than once (clones
//! first). One that says its length is sampled for a floor, as a slice is, by moving past the
//! values between the sampled runs; then, while it says it holds a block, its values are
//! read by blocks tested against the floor and the root straight from the iterator, with no
//! copy: as fast as a slice where it has random access (a slice's iterator, copied or mapped:
//! `scan::Positions`), stepped through value by value where not; the rest by chunks copied to
//! the stack. With a heap of up to 64 entries that is one run (two if fewer than k values
//! were above the floor), into a copy of the heap; with a larger heap, a first run checks the
//! values. An iterator that does not say its length is fed, with a heap of up to 64 entries,
//! with the root as its only threshold, by chunks; with a larger one (or if its order defeats
//! the root) it is counted, then sampled and fed as above.

use crate::check::{check_len, check_values, not_rankable, MAX_STREAM_LEN};
#[cfg(not(feature = "fast"))]
use crate::heap::offer;
use crate::heap::Storage;
#[cfg(not(feature = "fast"))]
use crate::Entry;
use crate::{Error, TotalRank};

/// Offers `values` to the heap as the stream positions `*next..`, all or nothing: on error
/// neither the heap nor `*next` changes.
///
/// With `fast`, the values are read in blocks once the heap is full, and a block is looked at
/// value by value only if one of its values may beat the root or is NaN ([`crate::scan`]).
/// When the heap is small and the slice long (`one_pass`), that is the only pass: the heap
/// is copied to the stack first (`Scratch`), so that a NaN found late leaves the real one
/// untouched. Otherwise the values are checked for NaN first ([`check_values`]) and then
/// offered.
pub(crate) fn extend<S: Storage>(
    heap: &mut S,
    next: &mut u64,
    values: &[S::Value],
) -> Result<(), Error> {
    #[cfg(feature = "fast")]
    let checked_as_read = fast::one_pass(heap, values);
    #[cfg(not(feature = "fast"))]
    let checked_as_read = false;
    if !checked_as_read {
        check_values(*next, values)?;
    }
    extend_rankable(heap, next, values)
}

/// [`extend`] of values that the caller found rankable: no pass of its own to check them
/// (the one pass, which tests for NaN as it reads, stays, since it is the faster).
pub(crate) fn extend_rankable<S: Storage>(
    heap: &mut S,
    next: &mut u64,
    values: &[S::Value],
) -> Result<(), Error> {
    check_len(*next, values.len())?;
    #[cfg(feature = "fast")]
    fast::scan(heap, *next, values)?;
    #[cfg(not(feature = "fast"))]
    offer_each(heap, *next, values);
    *next += values.len() as u64;
    Ok(())
}

/// The fast path: the block scan, and the one pass on a copy of a small heap.
#[cfg(feature = "fast")]
mod fast {
    use crate::arch;
    use crate::check::MAX_STREAM_LEN;
    use crate::heap::storage::sealed::Sealed as _;
    use crate::heap::storage::Limited;
    use crate::heap::Storage;
    use crate::scan::Phase::{self, Middle, Start};
    use crate::scan::{self, Band, Positions, Scanned};
    use crate::Error;

    /// The largest k served by the one-pass path of [`extend`](super::extend), whose heap is a
    /// copy on the stack ([`Scratch`]): 64 entries, 512 bytes for `f32`.
    const SCRATCH_K: usize = 64;

    /// The shortest slice worth the one-pass path: copying a heap of up to [`SCRATCH_K`]
    /// entries there and back costs about as much as reading this many values twice.
    const ONE_PASS_MIN_LEN: usize = 4 * SCRATCH_K;

    /// Whether [`extend`](super::extend) reads `values` once, into a copy of the heap on the
    /// stack: k at most [`SCRATCH_K`] and at least [`ONE_PASS_MIN_LEN`] values.
    #[inline]
    pub(super) fn one_pass<S: Storage>(heap: &S, values: &[S::Value]) -> bool {
        heap.capacity() <= SCRATCH_K && values.len() >= ONE_PASS_MIN_LEN
    }

    /// Offers `values` (stream positions `start..`), rankable unless [`one_pass`] holds, by
    /// the block scan; on the one-pass path the scan works on a copy, written back only if
    /// it finds no NaN.
    #[inline]
    pub(super) fn scan<S: Storage>(
        heap: &mut S,
        start: u64,
        values: &[S::Value],
    ) -> Result<(), Error> {
        if one_pass(heap, values) {
            // Made in place and filled by reference: a copy returned by value was a second
            // one in this frame.
            let mut scratch = Scratch::new(heap.capacity());
            copy_into(&mut scratch, heap);
            outlined(&mut scratch, start, values)?;
            copy_back(&scratch, heap);
            Ok(())
        } else if heap.len() == 0 && values.len() == heap.capacity() {
            // Every value is kept: a sort, worst first (a heap).
            crate::heap::keep_row(heap, start, values, true);
            Ok(())
        } else if heap.len() == 0
            && scan::counting_pays(heap.capacity(), values.len())
            && crate::heap::keep_best_if_in_order(heap, start, values)
        {
            // k large for the row, which is in order: its first or last k, worst first. The
            // read that finds the order costs no more than a counting read of the scan, and
            // spares the scan's replacements and the sort of many kept entries.
            Ok(())
        } else {
            // The values are rankable: the scan finds no NaN and cannot fail.
            let fresh = heap.len() == 0;
            let scanned = outlined(heap, start, values)?;
            if fresh && scanned != Scanned::Pooled {
                // Every kept entry is of this row, still at hand: sorted from it now where
                // that is O(k), the final sort is a reversal. (A pool left them so.)
                crate::heap::sort_kept_worst_first(heap, start, values);
            }
            Ok(())
        }
    }

    /// [`arch::scan`], never inlined: the scan's frame holds the sample's heap, and inlined
    /// here (at opt-level "s" the scan of the caller's storage was, the one of the copy was
    /// not) it would stay in this frame beside [`Scratch`] while the other scan runs with a
    /// sample heap of its own: two sample heaps and the copy at once. Outlined, a call holds
    /// at most the copy and one sample heap.
    #[inline(never)]
    fn outlined<S: Storage>(
        heap: &mut S,
        start: u64,
        values: &[S::Value],
    ) -> Result<Scanned, Error> {
        arch::scan(heap, start, values)
    }

    /// A copy of a heap of up to [`SCRATCH_K`] entries on the stack, with the same capacity:
    /// the one-pass path of [`extend`](super::extend) works on it and copies it back only on
    /// success.
    type Scratch<T> = Limited<T, SCRATCH_K>;

    /// Copies `heap`, whose capacity is at most [`SCRATCH_K`], into the empty `copy` of the
    /// same capacity.
    fn copy_into<S: Storage>(copy: &mut Scratch<S::Value>, heap: &S) {
        debug_assert!(heap.capacity() <= SCRATCH_K && copy.capacity() == heap.capacity());
        for entry in (0..heap.len()).filter_map(|i| heap.get(i)) {
            copy.append(entry);
        }
    }

    /// Writes `copy` back over `heap`, which it was made from and which has not grown since.
    fn copy_back<S: Storage>(copy: &Scratch<S::Value>, heap: &mut S) {
        for (i, &entry) in copy.entries().iter().enumerate() {
            if i < heap.len() {
                heap.set(i, entry);
            } else {
                heap.append(entry);
            }
        }
    }
    /// [`extend_iter`](super::extend_iter) with the fast path. An iterator that says its
    /// length exactly (a slice's, mapped or not) is sampled for a floor first
    /// ([`scan::iter_guess`]: runs of values at spread places, reached by moving past the
    /// others, in O(1) where it has random access), and its values are then read as a
    /// slice's are, by blocks tested against the floor and the root with no copy
    /// ([`banded`]). When k is at most [`SCRATCH_K`], that is one run of it, into a copy of
    /// the heap on the stack ([`Scratch`]) that goes back only on success (a NaN is an
    /// error as it is met), and a second only if fewer than k values were above the floor.
    /// On an error a clone of the iterator is run to name it as
    /// [`check_values`](super::check_values) would (a too long stream first, then the first
    /// NaN). A run gives up at a stretch or chunk, not the last, that spends its budget of
    /// replacements ([`scan::scan_iter`]): an iterator that says its length then runs again
    /// above a floor sampled at other places, on a new copy, with no giving up; another
    /// (which has no sample, and ran with the root as its only threshold) drops the copy and
    /// is fed as a larger heap's is ([`sampled`]).
    pub(super) fn extend_iter<S, I>(heap: &mut S, next: &mut u64, values: I) -> Result<(), Error>
    where
        S: Storage,
        I: Iterator<Item = S::Value> + Clone,
    {
        let k = heap.capacity();
        if k > SCRATCH_K {
            return sampled(heap, next, values, Start);
        }
        let exact = exact_len(*next, &values);
        let mut scratch = Scratch::new(k);
        let mut at = *next;
        // The run into a copy of the heap: above a floor sampled at the places of `phase`
        // where the iterator says its length, else with the root as the only threshold.
        let run = |scratch: &mut Scratch<S::Value>, at: &mut u64, phase, give_up| {
            scratch.clear();
            copy_into(scratch, heap);
            *at = *next;
            let sampled = exact.and_then(|len| {
                arch::iter_guess(Positions::new(values.clone(), len), len, k, phase)
            });
            match sampled {
                // Every value the iterator yields, if more than it said.
                Some(floor) => banded(scratch, at, &values, usize::MAX, floor, give_up),
                None => rooted(scratch, at, &values, give_up),
            }
        };
        let mut passed = run(&mut scratch, &mut at, Start, true);
        if passed == Ok(true) && exact.is_some() {
            // The row's order defeats the floor (a rising row, or one whose sampled places
            // hold its lowest values): sampled at other places, and no giving up, on a new
            // copy.
            passed = run(&mut scratch, &mut at, Middle, false);
        }
        // On a 32-bit target a run stops at `usize::MAX` values, one short of the stream's
        // end (`Positions`): one that reached it is counted as a larger heap's is, which
        // finds a value past the end.
        let bounded = usize::try_from(at - *next).is_ok_and(|read| read == usize::MAX);
        match passed {
            Ok(false) if !bounded => {
                copy_back(&scratch, heap);
                *next = at;
                Ok(())
            }
            // Gave up (the row's order defeats the root as a threshold: a rising row), or
            // reached the bound.
            Ok(_) => sampled(heap, next, values, Middle),
            // The canonical error, from the start; the scan's if a rerun finds none.
            Err(error) => Err(super::check_iter(*next, values).err().unwrap_or(error)),
        }
    }

    /// The length an iterator says it has, if it says it exactly and the stream has room for
    /// it from `next` on: a sample may be placed over it. Only a hint: a pass reads what the
    /// iterator yields.
    fn exact_len<I: Iterator>(next: u64, values: &I) -> Option<usize> {
        match values.size_hint() {
            (low, Some(high)) if low == high && low as u64 <= MAX_STREAM_LEN - next => Some(low),
            _ => None,
        }
    }

    /// The one pass of an iterator with no sample, into a heap of at most [`SCRATCH_K`], the
    /// root its only threshold once the heap is full; whether it gave up (with `give_up`).
    fn rooted<S, I>(heap: &mut S, at: &mut u64, values: &I, give_up: bool) -> Result<bool, Error>
    where
        S: Storage,
        I: Iterator<Item = S::Value> + Clone,
    {
        let run = Positions::new(values.clone(), usize::MAX);
        arch::scan_iter(heap, at, run, Band::ALL, give_up)
    }

    /// Feeds at most `most` values of `values` (stream positions `*next..`) with a floor: those
    /// above it, then, unless the heap is then full of entries above it (none at or below it
    /// can enter), those at or below it, in a run of their own. With `give_up`, stops at a
    /// stretch or chunk, not the last, that spends its budget of replacements (the floor too
    /// low for the row's order), and says so; else such a one hands the rest to chunks, whose
    /// floor is raised by counting.
    fn banded<S, I>(
        heap: &mut S,
        next: &mut u64,
        values: &I,
        most: usize,
        floor: S::Value,
        give_up: bool,
    ) -> Result<bool, Error>
    where
        S: Storage,
        I: Iterator<Item = S::Value> + Clone,
    {
        let start = *next;
        let run = Positions::new(values.clone(), most);
        let above = Band::above(floor);
        if arch::scan_iter(heap, next, run, above, give_up)? {
            return Ok(true);
        }
        if !scan::holds_k_above(heap, floor) {
            let run = Positions::new(values.clone(), most);
            let rest = Band::not_above(floor);
            return arch::scan_iter(heap, &mut { start }, run, rest, give_up);
        }
        Ok(false)
    }

    /// [`extend_iter`](super::extend_iter) for a heap with no room for a copy on the stack
    /// (k above [`SCRATCH_K`]), or an iterator whose order defeated the one pass. A clone is
    /// run first to check the values ([`check_iter`](super::check_iter): a fold with no store
    /// for an iterator that bounds its length), and only then is the iterator fed, bounded
    /// by the count, so that one that yields more when run again cannot push the stream
    /// past its end: with a floor from a sample where there is one ([`banded`]), so that a
    /// row whose order sends every value past the root (a rising one) does not cost a sift
    /// per value; else with the root as the threshold.
    fn sampled<S, I>(heap: &mut S, next: &mut u64, values: I, phase: Phase) -> Result<(), Error>
    where
        S: Storage,
        I: Iterator<Item = S::Value> + Clone,
    {
        let count = super::check_iter(*next, values.clone())?;
        let k = heap.capacity();
        match arch::iter_guess(Positions::new(values.clone(), count), count, k, phase) {
            Some(floor) => banded(heap, next, &values, count, floor, false).map(drop),
            None => {
                let run = Positions::new(values, count);
                arch::scan_iter(heap, next, run, Band::ALL, false).map(drop)
            }
        }
    }
}

/// Without `fast`: offers the rankable `values` (stream positions `start..`, which the caller
/// keeps below [`MAX_STREAM_LEN`](crate::check::MAX_STREAM_LEN)) one by one ([`offer`]).
/// Each costs one comparison with the root once the heap is full.
#[cfg(not(feature = "fast"))]
fn offer_each<S: Storage>(heap: &mut S, start: u64, values: &[S::Value]) {
    for (index, &value) in (start..).zip(values) {
        // Checked by the caller: the cast is lossless.
        let index = index as u32;
        offer(heap, Entry { value, index });
    }
}

/// Offers the values of `values` as the stream positions `*next..`, all or nothing: with
/// `fast` by the scan (`fast::extend_iter`); without it, once a clone has checked them
/// ([`check_iter`]), one by one (`offer_each`), bounded by the count.
pub(crate) fn extend_iter<S, I>(heap: &mut S, next: &mut u64, values: I) -> Result<(), Error>
where
    S: Storage,
    I: Iterator<Item = S::Value> + Clone,
{
    #[cfg(feature = "fast")]
    {
        fast::extend_iter(heap, next, values)
    }
    #[cfg(not(feature = "fast"))]
    {
        let count = check_iter(*next, values.clone())?;
        let start = *next;
        let mut at = start;
        for (index, value) in (start..).zip(values.take(count)) {
            // Within the stream's end, which `check_iter` checked: the cast is lossless.
            offer(
                heap,
                Entry {
                    value,
                    index: index as u32,
                },
            );
            at = index + 1;
        }
        *next = at;
        Ok(())
    }
}

/// The number of values of `values`, which would take the stream positions from `next` on,
/// with the checks of [`check_values`] in its order: [`Error::TooLong`] if they run past
/// [`MAX_STREAM_LEN`], else [`Error::NotRankable`] for the first NaN.
///
/// An iterator whose length is bounded within the stream's end (`size_hint`, as a slice's
/// iterator, mapped or not) is read with one branch-free fold, up to one value past the bound;
/// another, or one that yields more than its bound, is read value by value and stops at the
/// first value past the end, so that an endless one ends.
fn check_iter<T, I>(next: u64, mut values: I) -> Result<usize, Error>
where
    T: TotalRank,
    I: Iterator<Item = T> + Clone,
{
    let room = MAX_STREAM_LEN.saturating_sub(next);
    // Folded to one value past the bound, so that an iterator that lies about it still ends.
    let folded = values
        .size_hint()
        .1
        .filter(|&most| most as u64 <= room)
        .and_then(|most| {
            let (count, clean) = values
                .clone()
                .take(most.saturating_add(1))
                .fold((0_u64, true), |(n, ok), v| (n + 1, ok & v.is_rankable()));
            (count <= most as u64).then_some((count, clean))
        });
    let (count, clean) = match folded {
        Some(folded) => folded,
        None => {
            let mut count: u64 = 0;
            let mut clean = true;
            for value in values.clone() {
                if count == room {
                    // One value past the end: the stream would have at least this length.
                    return Err(past_the_end());
                }
                clean &= value.is_rankable();
                count += 1;
            }
            (count, clean)
        }
    };
    if !clean {
        let first = values.position(|v| !v.is_rankable()).unwrap_or(0);
        return Err(not_rankable(next + first as u64));
    }
    // At most `MAX_STREAM_LEN` values, which a `usize` counts on the 64-bit targets.
    Ok(usize::try_from(count).unwrap_or(usize::MAX))
}

/// [`Error::TooLong`] for a stream one value past its end, the least length it would have.
fn past_the_end() -> Error {
    let n = usize::try_from(MAX_STREAM_LEN + 1).unwrap_or(usize::MAX);
    Error::TooLong { n }
}
