//! The scan behind `extend_from_slice` and `top_k_into`: a threshold in front of the heap,
//! so that only values that may be among the k best reach it, whatever the order of the row.
//!
//! A long slice is first sampled ([`threshold::guess`]): runs of values, one at a hashed place
//! in each of equal stretches of the slice, give a value that about k values (and a margin)
//! are above. When k is large for the slice, so that a counting read costs less than the
//! replacements the margin may cost ([`threshold::counting_pays`]), the guess is counted at
//! once and raised if too many are above it. One pass then takes only the values above that
//! floor, or above the heap's root once it is full: the slice is read by blocks of [`BLOCK`],
//! each tested as a whole with one branch-free fold ([`BlockTest`]), and only a flagged block
//! is looked at, value by value. The guess is never trusted: two checks make the result
//! exact and the cost bounded.
//!
//! - The pass has a budget of root replacements. A row whose order defeats the sample (the
//!   floor too low, and the values above it rising) spends it; the floor of the rest is then
//!   raised by counting ([`threshold::raise`]) to one that at least k of the rest are above
//!   and at most L = k + max(128, n / (16·log2 k)) (more only where ties leave no value
//!   between). The kept entries at or below it can no longer be among the k best: they go,
//!   and the rest is appended in their place.
//! - If fewer than k values are above the guess (the sample's places hold the row's best), the
//!   heap holds them all at the end of the pass, and is not full. A lower floor is then found
//!   by counting ([`threshold::lower`]), the mirror of a raise: the second sample, else a
//!   bisection up from the worst value, to one that at least k values of the slice are above
//!   and at most L. A second pass takes the values between the two floors, under the same
//!   budget, which they no longer spend (a rising row below a guess spent it, then paid for a
//!   raise). Where counting pays, a guess counted too high is lowered so before the first pass.
//! - Where counting pays and the heap is empty and keeps many `f32` of a short slice (k at
//!   least 512, n below 2^16, in a storage that lends its places as `f32`: caller buffers,
//!   a `TopK<f32, K>`), the counted floor has c values above it, k <= c <= L' =
//!   min(2k, k + max(128, n / 64)) (more only where ties leave no value between): a position
//!   more in the pool costs about what a counting read of 64 values does
//!   ([`threshold::pool_limit`]). Their positions go to a pool in the storage's
//!   own places, in the row's order, by the same block test, and if they fit (c <= 2k) the
//!   best k are cut from them by their keys and radix sorted ([`crate::heap::keep_pooled`]):
//!   no heap at all, O(c + k) after the counts. Otherwise (ties past 2k, a NaN among them)
//!   the pass runs as above, with that floor.
//!
//! # Cost
//!
//! For n values, k kept and keys of w bits (32 for `f32`): the sample reads at most n/16
//! values; a pass reads the n values once, makes at most k appends and one O(k) build, and
//! at most k/2 + 128 replacements of O(log k) before its budget is spent; a raise costs at
//! most w + 7 counting reads (and a second sample of n/16; the bisection's w probes and four
//! steered ones that may miss), and the values above a raised floor at most k appends, a
//! build and L replacements; a lowering (at most w + 7 counting reads and a sample of n/16)
//! the same. A pass spends its budget, or it leaves a second pass to do, never both, so the
//! worst case is an upfront count or lowering, a pass, a lowering and a second pass that
//! spends its budget: under 2w + 18 reads of the slice, all branch-free and vectorized, plus
//! O(k log k) heap work, whatever the order of the row: O(w·n + k log k).
//! The usual case (a row in random order, rising, periodic, peaked) is about one read and
//! O(k log k); two when fewer than k values are above the guess (an all-equal row, where
//! none is). The unit tests count the reads and the replacements on every shape of the
//! benches against these bounds. A value type without [`TotalRank::rank_midpoint`] (a type outside the crate) cannot be
//! bisected: its worst case is the plain heap's O(n log k).

mod threshold;

pub(crate) use threshold::{counting_pays, iter_guess, Phase};

use crate::block::{for_flagged, BlockTest, BLOCK};
use crate::check::{check_len, first_unrankable, not_rankable, MAX_STREAM_LEN};
use crate::heap::{peek_worst, retain_above, settle, take, Storage};
use crate::{Entry, Error, TotalRank};

/// Root replacements a pass may make besides k/2 before its floor is raised by counting:
/// enough that a row in random order (about k·ln(c/k) replacements for c values above the
/// floor) or a rising row (c − k) does not spend it, with the guess's margin. Also the least
/// margin above k that a raised floor may leave ([`threshold::raise`]).
const SPARE: usize = 128;

/// What scans cost, counted for the unit tests, which check the bounds of the module's docs:
/// values read (by passes, counting reads and the sample) and root replacements, per thread.
#[cfg(test)]
pub(crate) mod tally {
    use std::cell::Cell;

    std::thread_local! {
        static READS: Cell<usize> = const { Cell::new(0) };
        static REPLACED: Cell<usize> = const { Cell::new(0) };
        static POOLED: Cell<usize> = const { Cell::new(0) };
    }

    /// Counts `n` values read.
    pub(crate) fn read(n: usize) {
        READS.with(|reads| reads.set(reads.get() + n));
    }

    /// Counts a pass that read `n` values and replaced the root `replaced` times.
    pub(crate) fn swept(n: usize, replaced: usize) {
        read(n);
        REPLACED.with(|count| count.set(count.get() + replaced));
    }

    /// Counts a slice whose best k a pool kept, with no heap.
    pub(crate) fn pooled() {
        POOLED.with(|count| count.set(count.get() + 1));
    }

    /// The slices whose best a pool kept since the last call.
    pub(crate) fn take_pooled() -> usize {
        POOLED.with(|count| count.replace(0))
    }

    /// The values read and the roots replaced since the last call.
    pub(crate) fn take() -> (usize, usize) {
        (
            READS.with(|c| c.replace(0)),
            REPLACED.with(|c| c.replace(0)),
        )
    }
}

/// The longest slice that a full heap scans with its root as the only threshold, with no
/// sample first: a chunk of a stream fed piece by piece by `extend_from_slice` (an iterator's
/// chunks are scanned so whatever their length: [`scan_chunk`]).
const FULL_HEAP_SHORT: usize = ITER_CHUNK;

/// The values a pass takes: those strictly above `floor` (all if `None`) and not above
/// `ceiling` (all if `None`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Band<T> {
    floor: Option<T>,
    ceiling: Option<T>,
}

impl<T: TotalRank> Band<T> {
    /// Whether a rankable value is not above the ceiling.
    #[inline(always)]
    fn under_ceiling(&self, value: &T) -> bool {
        self.ceiling
            .map_or(true, |ceiling| !value.may_enter_above(&ceiling))
    }
}

/// What [`scan`] did with the values it was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scanned {
    /// They were offered to the heap; `spent`: a pass spent its budget ([`take_band`]).
    Offered { spent: bool },
    /// The heap was empty and the best k were pooled, with no heap, and left sorted worst
    /// first ([`crate::heap::keep_pooled`]).
    Pooled,
}

impl Scanned {
    /// Whether a pass spent its budget.
    pub(crate) fn spent(self) -> bool {
        self == Scanned::Offered { spent: true }
    }
}

/// Offers `values` as the stream positions `start..`, with a threshold from a sample when the
/// slice is long enough for one ([`threshold::guess`]), and says how ([`Scanned`]). Returns the
/// first NaN as an error, with the heap then holding some of the values before it.
/// `start + values.len()` must be at most [`MAX_STREAM_LEN`].
///
/// `arch::scan` compiles it a second time for a wider vector unit when the CPU has one,
/// with a block test of its own: hence `inline(always)`, here and in what it calls on every
/// block.
#[inline(always)]
pub(crate) fn scan<S: Storage, B: BlockTest>(
    heap: &mut S,
    start: u64,
    values: &[S::Value],
    test: B,
) -> Result<Scanned, Error> {
    let offered = |spent| Scanned::Offered { spent };
    let k = heap.capacity();
    if k == 0 {
        // Nothing is kept, but a NaN is still an error.
        return match first_unrankable(values) {
            Some(pos) => Err(not_rankable(start + pos as u64)),
            None => Ok(offered(false)),
        };
    }
    if heap.len() == k && values.len() <= FULL_HEAP_SHORT {
        // The root of a full heap is the threshold the sample would look for; on a short slice
        // the sample costs more than it saves. The budget still bounds the cost.
        return take_band::<_, _, true>(heap, start, values, Band::ALL, test).map(offered);
    }
    let Some(guess) = threshold::guess(start, values, k, threshold::Phase::Start, test)? else {
        return sweep::<_, _, true>(heap, start, values, Band::ALL, None, test)
            .map(|_| offered(false));
    };
    // The first pass's floor: the guess, or where counting pays, one counted to have at least
    // k values above it where there is one; and once counted, the floor of the values at or
    // below it (`None`: all of them).
    let (mut floor, mut below) = (guess, None);
    if threshold::counting_pays(k, values.len()) {
        // The most values the floor may let through: as many as the pool takes where it
        // serves, else the heap's limit.
        let most = match crate::heap::pool_places(heap, values) {
            Some(places) => threshold::pool_limit(k, values.len(), places),
            None => threshold::limit(k, values.len()),
        };
        let raised = threshold::raise(guess, k, most, values, None, test);
        if raised.at_least_k {
            floor = raised.floor;
        } else {
            match threshold::lower(guess, k, most, values, test) {
                Some(lower) => floor = lower,
                None => below = Some(None),
            }
        }
        // At least k values are above the floor, counted: an empty heap of many `f32` may
        // take them all, in the row's order, with no heap ([`crate::heap::keep_pooled`],
        // which asks `pool_places` again).
        if below.is_none()
            && crate::heap::keep_pooled(heap, start, values, |pool| {
                pool_above(values, floor, test, pool)
            })
        {
            #[cfg(test)]
            tally::pooled();
            return Ok(Scanned::Pooled);
        }
    }
    let above = Band {
        floor: Some(floor),
        ceiling: None,
    };
    let mut spent = take_band::<_, _, true>(heap, start, values, above, test)?;
    if !holds_k_above(heap, floor) {
        // Fewer than k values are above the floor, and the heap holds them all: the values at
        // or below it follow, above a lower floor counted to have at least k values above it
        // where there is one.
        let rest = Band {
            // Not `unwrap_or_else`: its closure was compiled apart, for the baseline, and its
            // counting reads were not the scan's AVX2 copy.
            floor: match below {
                Some(below) => below,
                None => threshold::lower(floor, k, threshold::limit(k, values.len()), values, test),
            },
            ceiling: Some(floor),
        };
        spent |= take_band::<_, _, true>(heap, start, values, rest, test)?;
    }
    Ok(offered(spent))
}

/// Puts in `pool` the positions in `values` of the values above `floor`, in order, by blocks
/// whose test ([`BlockTest::mask`]) says which; stops when the pool is full, and gives it up
/// at a value with no place in the order (which the test flags too), for the scan to report.
#[inline(always)]
fn pool_above<T: TotalRank, B: BlockTest>(
    values: &[T],
    floor: T,
    test: B,
    pool: &mut crate::heap::Pool<'_>,
) {
    #[cfg(test)]
    tally::read(values.len());
    for (i, block) in values.chunks(BLOCK).enumerate() {
        let mut mask = test.mask(block, &floor);
        while mask != 0 {
            let at = mask.trailing_zeros();
            mask &= mask - 1;
            if !block.get(at as usize).is_some_and(TotalRank::is_rankable) {
                return pool.give_up();
            }
            // A position in a row of at most `u32::MAX + 1` values.
            if !pool.push((i * BLOCK) as u32 + at) {
                return;
            }
        }
    }
}

/// Whether the heap is full of values above `floor`: then no value at or below it can enter.
pub(crate) fn holds_k_above<S: Storage>(heap: &S, floor: S::Value) -> bool {
    heap.len() == heap.capacity()
        && heap
            .get(0)
            .is_some_and(|root| root.value.may_enter_above(&floor))
}

impl<T> Band<T> {
    /// Every value.
    pub(crate) const ALL: Self = Band {
        floor: None,
        ceiling: None,
    };

    /// The values strictly above `floor`.
    pub(crate) fn above(floor: T) -> Self {
        Band {
            floor: Some(floor),
            ceiling: None,
        }
    }

    /// The values at or below `ceiling`.
    pub(crate) fn not_above(ceiling: T) -> Self {
        Band {
            floor: None,
            ceiling: Some(ceiling),
        }
    }
}

/// Offers the values of `band` with a budget of k/2 + [`SPARE`] root replacements; if the
/// slice spends it, the floor of the rest is raised by counting ([`threshold::raise`]) and the
/// rest is offered with no budget. Returns whether the budget was spent. `SETTLE` as in
/// [`sweep`].
#[inline(always)]
fn take_band<S: Storage, B: BlockTest, const SETTLE: bool>(
    heap: &mut S,
    start: u64,
    values: &[S::Value],
    band: Band<S::Value>,
    test: B,
) -> Result<bool, Error> {
    let budget = heap.capacity() / 2 + SPARE;
    if let Swept::Until(done) =
        sweep::<_, _, SETTLE>(heap, start, values, band, Some(budget), test)?
    {
        // `done` is a block boundary within the slice.
        let rest = values.get(done..).unwrap_or_default();
        // The budget was spent on a full heap: it has a root.
        let Some(root) = peek_worst(heap) else {
            return Ok(true);
        };
        let low = band
            .floor
            .map_or(root.value, |floor| higher(floor, root.value));
        let k = heap.capacity();
        let most = threshold::limit(k, rest.len());
        let raised = threshold::raise(low, k, most, rest, band.ceiling, test);
        if raised.at_least_k {
            // Every one of the k best is above the floor: the entries kept at or below it
            // go, and the values above it are appended in their place, not sifted.
            retain_above(heap, &raised.floor);
        }
        let band = Band {
            floor: Some(raised.floor),
            ..band
        };
        sweep::<_, _, SETTLE>(heap, start + done as u64, rest, band, None, test)?;
        return Ok(true);
    }
    Ok(false)
}

/// How far [`sweep`] went.
enum Swept {
    /// Every value was offered.
    All,
    /// The budget was spent: the values before this position were offered, and the heap is
    /// full.
    Until(usize),
}

/// Offers the values of `band` (stream positions `start..`) by blocks, each tested as a whole
/// against the higher of the band's floor and the root of a full heap, and stops after the
/// block in which the root has been replaced more than `budget` times. With `SETTLE`, leaves a
/// heap however it ends, by the budget, at the end or on a NaN: until the heap is full, `take`
/// appends without sifting, and [`settle`] builds the heap then. Without it, a storage that
/// is not full is left in no order (nothing reads it before it is full: the threshold reads
/// the root of a full heap only, which `take` builds as it fills), and the caller settles it
/// once, after its last sweep ([`scan_iter`], after its last chunk). The loop over blocks
/// holds only the block test: the threshold changes only after a flagged block, and is
/// computed again there.
#[inline(always)]
fn sweep<S: Storage, B: BlockTest, const SETTLE: bool>(
    heap: &mut S,
    start: u64,
    values: &[S::Value],
    band: Band<S::Value>,
    budget: Option<usize>,
    test: B,
) -> Result<Swept, Error> {
    let mut replaced = 0;
    let blocks = values.chunks_exact(BLOCK);
    let tail = blocks.remainder();
    let last = blocks.len();
    let mut threshold = threshold(heap, band.floor);
    for (i, block) in blocks.enumerate() {
        if threshold.is_some_and(|threshold| !test.flagged(block, &threshold)) {
            continue;
        }
        let at = start + (i * BLOCK) as u64;
        if let Err(nan) = take_block(heap, block, at, band, threshold, test, &mut replaced) {
            if SETTLE {
                settle(heap);
            }
            return Err(nan);
        }
        threshold = self::threshold(heap, band.floor);
        if budget.is_some_and(|budget| replaced > budget) && (i + 1 < last || !tail.is_empty()) {
            #[cfg(test)]
            tally::swept((i + 1) * BLOCK, replaced);
            if SETTLE {
                settle(heap);
            }
            return Ok(Swept::Until((i + 1) * BLOCK));
        }
    }
    let at = start + (values.len() - tail.len()) as u64;
    let swept = take_block(heap, tail, at, band, threshold, test, &mut replaced);
    #[cfg(test)]
    tally::swept(values.len(), replaced);
    if SETTLE {
        settle(heap);
    }
    swept.map(|()| Swept::All)
}

/// What a value must beat to be taken: the higher of `floor` and the root of a full heap, or
/// nothing while the heap has room and there is no floor.
#[inline(always)]
fn threshold<S: Storage>(heap: &S, floor: Option<S::Value>) -> Option<S::Value> {
    let full = heap.len() == heap.capacity();
    let root = heap.get(0).filter(|_| full).map(|root| root.value);
    match (floor, root) {
        (Some(floor), Some(root)) => Some(higher(floor, root)),
        (None, Some(root)) => Some(root),
        (floor, None) => floor,
    }
}

/// Offers the values of `block` (stream positions `at..`) in `band` that beat `threshold`
/// (every value if `None`), counting in `replaced` the roots they replace.
#[inline(always)]
fn take_block<S: Storage, B: BlockTest>(
    heap: &mut S,
    block: &[S::Value],
    at: u64,
    band: Band<S::Value>,
    threshold: Option<S::Value>,
    test: B,
    replaced: &mut usize,
) -> Result<(), Error> {
    let keep = |entry: Entry<S::Value>| {
        if band.under_ceiling(&entry.value) {
            *replaced += usize::from(take(heap, entry));
        }
    };
    match threshold {
        // Each flagged value may still lose to a root that one before it has raised: `take`
        // compares it again.
        Some(threshold) => for_flagged(block, threshold, at, test, keep),
        None => for_each(block, at, keep),
    }
}

/// The higher of two rankable values.
#[inline(always)]
fn higher<T: TotalRank>(a: T, b: T) -> T {
    if b.may_enter_above(&a) {
        b
    } else {
        a
    }
}

/// Calls `f` on the entry of each value of `block` (stream positions `at..`), in order, and
/// stops at the first NaN.
#[inline(always)]
fn for_each<T: TotalRank>(block: &[T], at: u64, mut f: impl FnMut(Entry<T>)) -> Result<(), Error> {
    for (index, &value) in (at..).zip(block) {
        if !value.is_rankable() {
            return Err(not_rankable(index));
        }
        // The caller keeps every position below `MAX_STREAM_LEN`: the cast is lossless.
        let index = index as u32;
        f(Entry { value, index });
    }
    Ok(())
}

/// Values [`scan_iter`] buffers on the stack at a time before it scans them as one slice: long
/// enough that the scan reads them by blocks and pays its set-up seldom, short enough for a
/// small stack (4 KB for `f32`). One more than a power of two: the loop that copies a chunk
/// has two exits (the buffer's end and the iterator's), and the compiler leaves the values of
/// its last vector step (32 with AVX2: four vectors of eight) to a scalar loop. With 1,024 that
/// loop copied 32 values a chunk, a tenth of `try_extend`'s time on a row of logits; with
/// 1,025 it copies one.
pub(crate) const ITER_CHUNK: usize = 1025;

/// [`scan`] of the values of an iterator in `band`, as the stream positions `*next..`. Once
/// there is a threshold (a floor, or the root of a full heap) and while the iterator says it
/// holds a block, straight from the iterator, with no copy ([`stretch`]); else by chunks of
/// [`ITER_CHUNK`] values copied to the stack, each scanned as a slice by `scan_chunk` (a call
/// of [`scan_chunk`] compiled for the vector unit at hand), `*next` moving past each. A heap
/// being filled with no floor takes a chunk, and the stretches follow; an iterator that does
/// not say its length (a `filter`) is read by chunks only. Stops at the first error (a NaN,
/// or the stream's end), with the heap then holding some of the values before it.
///
/// With `give_up`, it also stops after a chunk or stretch that spends its budget (the root
/// was replaced more than k/2 + [`SPARE`] times), and returns `true`: a row whose order
/// defeats the threshold (a rising one, or one whose sampled places hold its lowest values),
/// which a caller with a copy of the heap feeds otherwise. Not at the first chunk of a heap
/// being filled with no floor, which may replace the root as such a heap does (a heap full of
/// lower values than the row's), nor at the last, when the heap holds the answer already (a
/// short chunk, or the one that ends a length the iterator says is exact). Without it, a
/// stretch that spends its budget hands the rest to chunks, whose floor is raised by counting
/// ([`take_band`]). On a row in random order a later chunk, after c others, replaces the root
/// about k·ln((c + 1)/c) times: never near the budget.
///
/// The chunks' loop holds only the copy into the buffer, so that the iterator stays in
/// registers and the copy (and a `map` the iterator applies) vectorizes at the full width of
/// the vector unit: with the scan inlined beside it, the iterator was kept in memory and the
/// copy of a mapped iterator ran at half the width.
#[inline(always)]
pub(crate) fn scan_iter<S, I, B>(
    heap: &mut S,
    next: &mut u64,
    mut values: Positions<I>,
    band: Band<S::Value>,
    give_up: bool,
    test: B,
    mut scan_chunk: impl FnMut(&mut S, u64, &[S::Value], Band<S::Value>) -> Result<bool, Error>,
) -> Result<bool, Error>
where
    S: Storage,
    I: Iterator<Item = S::Value> + Clone,
    B: BlockTest,
{
    // Where a length the iterator says is exact ends: there the last chunk is known as such
    // even when it is full. Only a hint: it decides whether to give up, not the answer.
    let end = match values.size_hint() {
        (low, Some(high)) if low == high => Some(next.saturating_add(low as u64)),
        _ => None,
    };
    let start = *next;
    // The buffer, made (with the first value it takes) only once a chunk is copied.
    let mut chunks: Option<Chunks<S::Value, ITER_CHUNK>> = None;
    // Whether a stretch may be read straight from the iterator ([`stretch`]): until one
    // spends its budget where the caller does not give up, which the chunks' raise bounds.
    let mut straight = true;
    let scanned = loop {
        // Not after a short chunk: an iterator that has ended is not run again.
        if straight
            && chunks
                .as_ref()
                .map_or(true, |chunks| chunks.len == 0 && !chunks.done)
        {
            let at = *next;
            match stretch(heap, next, &mut values, band, test) {
                Ok(Some(spent)) => {
                    let last = values.size_hint().1 == Some(0) || end == Some(*next);
                    // A stretch is never the first chunk of a heap being filled: with a
                    // floor, appends replace no root.
                    if spent && give_up && (at != start || band.floor.is_some()) && !last {
                        break Ok(true);
                    }
                    straight = !spent;
                    continue;
                }
                Ok(None) => {}
                Err(error) => break Err(error),
            }
        }
        let chunks = match &mut chunks {
            Some(chunks) => chunks,
            None => match Chunks::new(&mut values.by_value()) {
                Some(made) => chunks.insert(made),
                None => break Ok(false),
            },
        };
        let Some(chunk) = chunks.next_chunk(&mut values.by_value()) else {
            break Ok(false);
        };
        let at = *next;
        let spent = match scan_chunk(heap, at, chunk, band) {
            Ok(spent) => spent,
            Err(error) => break Err(error),
        };
        *next += chunk.len() as u64;
        if give_up && spent && at != start && !chunks.done && end != Some(*next) {
            break Ok(true);
        }
    };
    settle(heap);
    scanned
}

/// An iterator's values with their positions counted by `Zip` with a range, which std moves
/// past `n` values in O(1) when the iterator has random access (a slice's, copied, mapped,
/// zipped or enumerated: `nth` only moves the index, and calls a `map`'s closure for each
/// value passed only for its side effects, which an optimized build drops when it has none),
/// and folds a clone of by index, so that a test of a block of its values vectorizes
/// ([`stretch`], and the sample, [`threshold::iter_guess`]). Any other iterator is stepped
/// through, value by value. At most `most` values: on a 32-bit target `usize::MAX` is one
/// short of a stream's `u32::MAX + 1` positions (the caller sees that it reached it).
#[derive(Clone)]
pub(crate) struct Positions<I>(core::iter::Zip<core::ops::Range<usize>, I>);

impl<T, I: Iterator<Item = T> + Clone> Positions<I> {
    /// At most the first `most` values of `values`.
    #[inline(always)]
    pub(crate) fn new(values: I, most: usize) -> Self {
        Positions((0..most).zip(values))
    }

    /// The values, without their positions, moving this iterator on.
    #[inline(always)]
    fn by_value(&mut self) -> impl Iterator<Item = T> + '_ {
        self.0.by_ref().map(|(_, value)| value)
    }

    /// What the iterator says of the values left.
    #[inline(always)]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }

    /// How many of the next `n` values there are, and whether any of them may beat
    /// `threshold` ([`TotalRank::may_enter_above`], true of NaN too), read from a clone with
    /// no store.
    #[inline(always)]
    fn any_above(&self, n: usize, threshold: &T) -> (usize, bool)
    where
        T: TotalRank,
    {
        // Bounded by a zip, not `take`: an iterator without random access then folds by
        // `next` alone, where `take` went through `try_fold`.
        let (seen, any) =
            (0..n)
                .zip(self.0.clone())
                .fold((0, 0_u32), |(seen, any), (_, (_, value))| {
                    (seen + 1, any | u32::from(value.may_enter_above(threshold)))
                });
        (seen, any != 0)
    }

    /// The next values, from a clone, as many as `buffer` holds (fewer if the iterator ends).
    #[inline(always)]
    fn peek_into(&self, buffer: &mut [T]) {
        for (slot, (_, value)) in buffer.iter_mut().zip(self.0.clone()) {
            *slot = value;
        }
    }

    /// The next `n` values (fewer if the iterator ends) and their positions, from a clone.
    /// The positions are below `u32::MAX + 1` where the caller keeps a stream's.
    #[inline(always)]
    fn entries(&self, n: usize) -> impl Iterator<Item = (u32, T)> {
        self.0.clone().take(n).map(|(at, value)| (at as u32, value))
    }

    /// Moves past the next `n` values.
    #[inline(always)]
    fn skip(&mut self, n: usize) {
        if let Some(last) = n.checked_sub(1) {
            self.0.nth(last);
        }
    }
}

/// Offers the values of `values` (stream positions `*next..`) in `band`, straight from the
/// iterator, with no copy, for as long as a threshold holds (the higher of the band's floor
/// and the root of a full heap) and the iterator says it holds a block: by blocks of
/// [`BLOCK`], each tested as a whole against the threshold by a fold of a clone
/// ([`Positions::any_above`]), as [`sweep`] tests a slice. Only a block in which some value
/// may beat it is copied to the stack (64 values) and taken as [`sweep`] takes a block
/// ([`take_block`]). A row of logits from a slice's iterator, mapped or not, is so read once,
/// as the slice itself is, where a copy of every value into a chunk stored each one and read
/// it again.
///
/// Stops after [`STRETCH`] values, or after a block that takes the root's replacements past
/// a pass's budget (k/2 + [`SPARE`]), and says which: `Some(spent)`. `None` if it read
/// nothing: no threshold yet (a heap being filled, with no floor), or fewer than a block
/// left; chunks take those.
#[inline(always)]
fn stretch<S, I, B>(
    heap: &mut S,
    next: &mut u64,
    values: &mut Positions<I>,
    band: Band<S::Value>,
    test: B,
) -> Result<Option<bool>, Error>
where
    S: Storage,
    I: Iterator<Item = S::Value> + Clone,
    B: BlockTest,
{
    let Some(mut threshold) = threshold(heap, band.floor) else {
        return Ok(None);
    };
    // Whole blocks that the iterator says it holds, within the stretch and the stream.
    let room = usize::try_from(MAX_STREAM_LEN - *next).unwrap_or(usize::MAX);
    let blocks = values.size_hint().0.min(STRETCH).min(room) / BLOCK;
    let budget = heap.capacity() / 2 + SPARE;
    let (mut replaced, mut at) = (0, *next);
    for _ in 0..blocks {
        // Said before each block, not only once: where the iterator has random access, the
        // compiler then knows the fold's length, and unrolls it.
        if values.size_hint().0 < BLOCK {
            break;
        }
        let (seen, flagged) = values.any_above(BLOCK, &threshold);
        if seen != BLOCK {
            // Fewer values than the iterator said: the chunks take the rest.
            break;
        }
        if flagged {
            let mut block = [threshold; BLOCK];
            values.peek_into(&mut block);
            take_block(heap, &block, at, band, Some(threshold), test, &mut replaced)?;
            // The heap only fills: a threshold stays one, and may rise.
            threshold = self::threshold(heap, band.floor).unwrap_or(threshold);
        }
        values.skip(BLOCK);
        at += BLOCK as u64;
        if replaced > budget {
            break;
        }
    }
    #[cfg(test)]
    tally::swept((at - *next) as usize, replaced);
    let read = at != *next;
    *next = at;
    Ok(read.then_some(replaced > budget))
}

/// The most values [`stretch`] reads before [`scan_iter`] looks at what it spent, as it does
/// after a chunk: [`ITER_CHUNK`] rounded down to whole blocks.
const STRETCH: usize = ITER_CHUNK / BLOCK * BLOCK;

/// One chunk of [`scan_iter`] (stream positions `at..`), and whether a pass spent its budget:
/// every value into a full heap by [`take_band`] with its root as the only threshold, as
/// [`scan`] takes a short slice, whatever the chunk's length (the root is the k-th best of
/// the values before the chunk, which a sample of the chunk alone would not beat); into a
/// heap being filled, by [`scan`]; those of a narrower band by [`take_band`] (which leaves a
/// heap that is not full in no order: [`scan_iter`] builds it once, after its last chunk).
#[inline(always)]
pub(crate) fn scan_chunk<S: Storage, B: BlockTest>(
    heap: &mut S,
    at: u64,
    chunk: &[S::Value],
    band: Band<S::Value>,
    test: B,
) -> Result<bool, Error> {
    check_len(at, chunk.len())?;
    let every_value = band.floor.is_none() && band.ceiling.is_none();
    let full = heap.capacity() > 0 && heap.len() == heap.capacity();
    if every_value && full {
        take_band::<_, _, true>(heap, at, chunk, band, test)
    } else if every_value {
        // A heap being filled, or none (k = 0, where a NaN is still an error).
        scan(heap, at, chunk, test).map(Scanned::spent)
    } else if heap.capacity() > 0 {
        take_band::<_, _, false>(heap, at, chunk, band, test)
    } else {
        // Nothing is kept, and the values of a band were checked.
        Ok(false)
    }
}

/// A buffer on the stack for an iterator's values, filled a chunk of `N` at a time. The
/// iterator is not in it: each call lends it, so that the compiler can keep the iterator in
/// registers while it fills the buffer (held beside it, the iterator was stored and loaded
/// again for every value).
pub(crate) struct Chunks<T, const N: usize> {
    chunk: [T; N],
    /// Values already in the chunk before the next is filled: the first value, at the start.
    len: usize,
    /// Whether the iterator has ended.
    done: bool,
}

impl<T: Copy, const N: usize> Chunks<T, N> {
    /// A buffer for the values of `values`, holding its first one; `None` if it has none.
    #[inline(always)]
    pub(crate) fn new(values: &mut impl Iterator<Item = T>) -> Option<Self> {
        let first = values.next()?;
        Some(Chunks {
            chunk: [first; N],
            len: 1,
            done: false,
        })
    }

    /// The next chunk of `values` (the iterator the buffer was made for): `N` values, fewer
    /// in the last one; `None` after it. An iterator that has ended is not run again.
    #[inline(always)]
    pub(crate) fn next_chunk(&mut self, values: &mut impl Iterator<Item = T>) -> Option<&[T]> {
        if self.done {
            return None;
        }
        let mut len = self.len;
        // `len` is at most the chunk's length: `get` only spares the build a bounds check.
        for (slot, value) in self
            .chunk
            .get_mut(len..)
            .unwrap_or_default()
            .iter_mut()
            .zip(values)
        {
            *slot = value;
            len += 1;
        }
        self.done = len < N;
        self.len = 0;
        self.chunk.get(..len).filter(|chunk| !chunk.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use std::vec;

    use super::*;
    use crate::arch;
    use crate::heap::storage::Slices;
    use crate::testing::data;

    /// `try_extend` with a heap small enough for the one run into a copy of the heap (above a
    /// sample's floor when the iterator says its length, else with the root as the only
    /// threshold) gives up at a stretch or chunk, not the last, that spends its budget, and
    /// runs again above a floor sampled at other places (the iterator that says its length),
    /// or is fed as larger heaps are (the other): on every shape, copied or filtered, the
    /// answer is the oracle's, and the root replacements stay within those of a few chunks
    /// that spend their budget, where the order of a rising row once spent the budget of
    /// every chunk.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "counts sifts of safe code over long rows: the integration tests cover it"
    )]
    fn an_iterator_that_defeats_the_one_pass_is_sampled_within_a_bound() {
        use crate::testing::{bits, oracle_bits};
        use crate::SliceTopK;
        let n = 20_011;
        for k in [1, 7, 50, 64] {
            let per_chunk = 2 * (k / 2 + SPARE + BLOCK + threshold::limit(k, ITER_CHUNK));
            for (name, x) in data::shapes(n, k) {
                let want = oracle_bits(&x, k);
                for exact in [true, false] {
                    let (mut idx, mut val) = (vec![0; k], vec![0.0; k]);
                    let mut top = SliceTopK::new(&mut idx, &mut val).unwrap();
                    tally::take();
                    if exact {
                        top.try_extend(x.iter().copied()).unwrap();
                    } else {
                        top.try_extend(x.iter().copied().filter(|_| true)).unwrap();
                    }
                    let (_, replaced) = tally::take();
                    let (idx, val) = top.into_sorted();
                    let got = bits(idx, val);
                    let at = std::format!("{name}, k = {k}, exact {exact}");
                    assert_eq!(got, want, "{at}");
                    assert!(replaced <= 4 * per_chunk, "{replaced} replaced: {at}");
                }
            }
        }
    }

    /// The cost of the scan on every shape of `examples/data` against the module's bounds:
    /// at most 2w + 18 reads of the row and 2·(k/2 + SPARE + BLOCK + L) root replacements
    /// whatever the shape; and on the shapes whose order is no worse than random (rising,
    /// periodic, peaked, masked), when no upfront count pays, about one read and the sample,
    /// with at most the pass's budget of replacements; on the rows that leave fewer than k
    /// values above the guess (its places hold the best values), at most that budget too: the
    /// lowered floor lets no rising run of values through.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "counts reads and sifts of safe code: nothing for Miri to check"
    )]
    fn every_shape_costs_within_the_bounds_of_the_docs() {
        const KEY_BITS: usize = 32;
        let n = 20_011;
        for k in [1, 7, 50, 200, 1000] {
            let budget = k / 2 + SPARE + BLOCK;
            let most_replaced = 2 * (budget + threshold::limit(k, n));
            for (name, x) in data::shapes(n, k) {
                let (mut idx, mut val) = (vec![0; k], vec![0.0; k]);
                let mut heap = Slices::new(&mut idx, &mut val).unwrap();
                tally::take();
                arch::portable(&mut heap, 0, &x).unwrap();
                let (reads, replaced) = tally::take();
                let at = |what| std::format!("{what}: {name}, n = {n}, k = {k}");
                assert!(
                    reads <= (2 * KEY_BITS + 18) * n,
                    "{reads} read {}",
                    at("worst")
                );
                assert!(
                    replaced <= most_replaced,
                    "{replaced} replaced {}",
                    at("worst")
                );
                // Fewer than k values above the guess: its places hold the row's best (a
                // run of the sample on the peak of a peaked row, or a row built so).
                let guess =
                    threshold::guess(0, &x, k, threshold::Phase::Start, crate::block::Portable);
                let too_high = guess.unwrap().is_some_and(|guess| {
                    x.iter().filter(|v| v.may_enter_above(&guess)).count() < k
                });
                let usual = !too_high
                    && !matches!(name, "descending" | "equal")
                    && !name.starts_with("anti");
                if usual && !threshold::counting_pays(k, n) {
                    // One read, the sample's sixteenth, and what a budget spent in the last
                    // blocks reads again.
                    assert!(reads <= n + n / 8, "{reads} read {}", at("usual"));
                    assert!(replaced <= budget, "{replaced} replaced {}", at("usual"));
                }
                if too_high || matches!(name, "anti_sample_high" | "descending" | "equal") {
                    assert!(replaced <= budget, "{replaced} replaced {}", at("too high"));
                }
            }
        }
    }

    /// A falling row leaves fewer than k values above the guess (its best are in one run of
    /// the sample), and the window of the lowered floor lies near the top of the key: with
    /// the steered bisection a call reads this row (n - 1 down to 0.0) about 8 times at
    /// k = 50, with midpoints alone 19 times (from 0.0 up, the key's low exponents take a
    /// probe each; 7 and 15 from 1.0 up, `threshold::bisect`).
    #[test]
    #[cfg_attr(miri, ignore = "counts reads of safe code over a long row")]
    fn a_falling_rows_floor_is_found_in_few_reads() {
        for (n, k) in [(20_011, 7), (20_011, 50), (49_152, 50)] {
            let x: std::vec::Vec<f32> = (0..n).rev().map(|i| i as f32).collect();
            let (mut idx, mut val) = (vec![0; k], vec![0.0; k]);
            let mut heap = Slices::new(&mut idx, &mut val).unwrap();
            tally::take();
            arch::portable(&mut heap, 0, &x).unwrap();
            let (reads, _) = tally::take();
            assert!(reads <= 10 * n, "{reads} values read, n = {n}, k = {k}");
            // The heap's entries, in heap order: the row's first k.
            idx.sort_unstable();
            assert!(idx.iter().copied().eq(0..k as u32), "n = {n}, k = {k}");
        }
    }

    /// Where the pool serves, its floor may let through as many values as the pool affords
    /// (`threshold::pool_limit`), not the heap's limit: on normal logits of a SmolLM2 row at
    /// k = 1,000 the sample's guess is then counted once and kept, and the pool reads the row
    /// once more (against the heap's limit, the guess let too many through on four of these
    /// eight rows, and the raise took them to three to eight reads).
    #[test]
    #[cfg_attr(miri, ignore = "counts reads of safe code over a long row")]
    fn the_pools_floor_is_counted_once_on_normal_logits() {
        let (n, k) = (49_152, 1000);
        let pools = crate::heap::radix::POOL_STACK;
        for seed in 1..=8 {
            let x = data::normal_logits(n, seed);
            let (mut idx, mut val) = (vec![0; k], vec![0.0; k]);
            let mut heap = Slices::new(&mut idx, &mut val).unwrap();
            tally::take();
            tally::take_pooled();
            arch::portable(&mut heap, 0, &x).unwrap();
            let (reads, _) = tally::take();
            assert_eq!(tally::take_pooled(), usize::from(pools), "seed {seed}");
            if pools {
                assert!(reads <= 2 * n + n / 8, "{reads} values read, seed {seed}");
            }
        }
    }

    /// An empty heap of 512 or more over a short row of `f32` keeps its best by the pool
    /// where the values above the counted floor fit it (normal logits), gives it up where
    /// they do not (an all-equal row), and answers the oracle on every shape either way; a
    /// NaN among the values makes the pool give up, and the scan names it.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "long rows of safe code: the heap's unit test covers the pool"
    )]
    fn the_pool_keeps_large_k_of_short_rows_or_gives_up() {
        use crate::testing::{bits, oracle_bits};
        for (n, k) in [(4096, 600), (4096, 1000), (20_011, 1000)] {
            for (name, x) in data::shapes(n, k) {
                let (mut idx, mut val) = (vec![0; k], vec![0.0; k]);
                let mut heap = Slices::new(&mut idx, &mut val).unwrap();
                tally::take_pooled();
                arch::portable(&mut heap, 0, &x).unwrap();
                let pooled = tally::take_pooled();
                crate::heap::sort(&mut heap);
                let (idx, val) = heap.into_kept();
                let at = std::format!("{name}, n = {n}, k = {k}");
                assert_eq!(bits(idx, val), oracle_bits(&x, k), "{at}");
                match name {
                    // The pool serves 64-bit targets only.
                    "normal" => {
                        assert_eq!(pooled, usize::from(crate::heap::radix::POOL_STACK), "{at}")
                    }
                    "equal" => assert_eq!(pooled, 0, "{at}"),
                    _ => {}
                }
            }
        }
        let x = data::normal_logits(4096, 11);
        for nan_at in [0, 1000, 2049, 3000, 4095] {
            let mut x = x.clone();
            x[nan_at] = f32::NAN;
            let (mut idx, mut val) = (vec![0; 1000], vec![0.0; 1000]);
            let mut heap = Slices::new(&mut idx, &mut val).unwrap();
            let error = arch::portable(&mut heap, 0, &x).unwrap_err();
            assert_eq!(error, Error::NotRankable { index: nan_at });
            assert_eq!(tally::take_pooled(), 0);
        }
    }
}
