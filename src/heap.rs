//! The one heap: a size-k min-heap of entries under [`Entry::rank_cmp`], written once over a
//! [`Storage`] so that the array-backed [`TopK`](crate::TopK) and the slice-backed
//! [`SliceTopK`](crate::SliceTopK) (and so [`top_k_into`](crate::top_k_into)) share every line.
//!
//! # The algorithm
//!
//! The root is the worst kept entry. While fewer than k entries are kept, a new one is appended
//! and sifted up. Then each new entry costs one comparison with the root; only a better one
//! replaces the root and is sifted down. Because entries arrive by ascending index, a later
//! entry that ties the root is worse than it and stays out: the lower index wins the last place
//! with no special case. At the end an in-place heap sort leaves the storage best first.
//!
//! # The fast path
//!
//! - **Block pre-filter** ([`scan`]): once the heap is full, values are read in blocks of
//!   [`BLOCK`] and a block is tested as a whole with one branch-free fold of
//!   [`TotalRank::may_enter_above`] against the root's value, which vectorizes (one IEEE
//!   comparison per float, catching NaN too). Only a flagged block is looked at, and only its
//!   flagged values. The test is a parameter ([`BlockTest`]): on x86-64 with AVX2 the one
//!   dispatch point ([`dispatch`]) runs the scan compiled for AVX2, with explicit vector
//!   instructions for `f32` blocks.
//! - **Nothing written on error, one read** ([`extend`]): for k ≤ [`SCRATCH_K`] the heap is
//!   copied to the stack, scanned with the NaN test fused into the pre-filter, and copied back
//!   only on success; for a larger k the slice is checked for NaN first, then scanned.
//! - **A seeded fill** ([`seed`]): an empty heap of k < 64 facing a long slice takes a floor
//!   from the best values of 64 columns of its first 4,096 values, and fills with the values
//!   above it, so that the root does not climb from the worst of the first k values.
//! - **A pool of candidates** ([`scan_pooled`]): for k from [`POOL_MIN_K`] to
//!   [`POOL_MAX_K`], candidates go to a pool on the stack and a quickselect
//!   ([`select_best`]) keeps the best k of heap and pool when it is full: a few comparisons
//!   per candidate instead of a sift. Its partition writes through a spare buffer on the
//!   stack, with no branch and no read of what it just wrote.
//! - **Heap sort bottom-up** ([`sort`]): the hole goes to a leaf with one comparison a level,
//!   and the entry climbs back the level or two it needs.
//! - **push** ([`Gate`]): once the heap is full, a value that does not beat the root costs a
//!   comparison with the stream's end and one with a copy of the root's value.
//!
//! # Cost
//!
//! n comparisons with the root, vectorized by blocks; on a row in random order the i-th value
//! enters with probability about k/i, so about k·ln(n/k) insertions of O(log k) each. A
//! rising row costs one read: the heap fills from its last values ([`tail_floor`]), or for k
//! outside [`POOL_MIN_K`]`..=`[`POOL_MAX_K`] from the best of windows spread over the row,
//! which also catch a row that rises then falls. The worst case, a row where most values
//! enter all the same (rising runs that no window catches, or `push` on a rising row, which
//! cannot look ahead), is O(n log k) for those k and for `push`, O(n) with the pool; O(k log
//! k) for the final sort.

use core::cmp::Ordering;
use core::num::NonZeroU64;
use core::slice;

use arrayvec::ArrayVec;

use crate::dispatch;
use crate::error::{check_len, check_values, first_unrankable, not_rankable, MAX_STREAM_LEN};
use crate::{Entry, Error, TotalRank};

/// Where a heap keeps its entries: positions `0..len()` hold the heap, and up to `capacity()`
/// (the k of the selector) can be kept.
pub(crate) trait Storage {
    /// The value type of the entries.
    type Value: TotalRank;
    /// How many entries are kept.
    fn len(&self) -> usize;
    /// How many entries can be kept: k.
    fn capacity(&self) -> usize;
    /// The entry at `i < len()`.
    fn get(&self, i: usize) -> Entry<Self::Value>;
    /// Overwrites the entry at `i < len()`.
    fn set(&mut self, i: usize, entry: Entry<Self::Value>);
    /// Appends an entry at position `len()`; only called when `len() < capacity()`.
    fn append(&mut self, entry: Entry<Self::Value>);
}

/// The array storage of [`TopK`](crate::TopK): one array of entries.
impl<T: TotalRank, const K: usize> Storage for ArrayVec<Entry<T>, K> {
    type Value = T;

    #[inline]
    fn len(&self) -> usize {
        ArrayVec::len(self)
    }
    #[inline]
    fn capacity(&self) -> usize {
        K
    }
    #[inline]
    fn get(&self, i: usize) -> Entry<T> {
        self[i]
    }
    #[inline]
    fn set(&mut self, i: usize, entry: Entry<T>) {
        self[i] = entry;
    }
    #[inline]
    fn append(&mut self, entry: Entry<T>) {
        self.push(entry);
    }
}

/// The caller's storage of [`SliceTopK`](crate::SliceTopK): indices and values in two slices of
/// the same length, the heap in their first `len` places.
#[derive(Debug)]
pub(crate) struct Columns<'a, T> {
    idx: &'a mut [u32],
    val: &'a mut [T],
    len: usize,
}

impl<'a, T> Columns<'a, T> {
    /// An empty heap over the two buffers; their length is k.
    pub(crate) fn new(idx: &'a mut [u32], val: &'a mut [T]) -> Result<Self, Error> {
        if idx.len() != val.len() {
            return Err(Error::LengthMismatch {
                idx: idx.len(),
                val: val.len(),
            });
        }
        Ok(Columns { idx, val, len: 0 })
    }

    /// Forgets every kept entry; the buffers keep what they hold.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// The first `len` places of both buffers.
    pub(crate) fn into_kept(self) -> (&'a mut [u32], &'a mut [T]) {
        (&mut self.idx[..self.len], &mut self.val[..self.len])
    }
}

impl<T: TotalRank> Storage for Columns<'_, T> {
    type Value = T;

    #[inline]
    fn len(&self) -> usize {
        self.len
    }
    #[inline]
    fn capacity(&self) -> usize {
        self.idx.len()
    }
    #[inline]
    fn get(&self, i: usize) -> Entry<T> {
        Entry {
            value: self.val[i],
            index: self.idx[i],
        }
    }
    #[inline]
    fn set(&mut self, i: usize, entry: Entry<T>) {
        self.val[i] = entry.value;
        self.idx[i] = entry.index;
    }
    #[inline]
    fn append(&mut self, entry: Entry<T>) {
        self.len += 1;
        self.set(self.len - 1, entry);
    }
}

/// The root: the worst kept entry, if any.
#[inline]
pub(crate) fn peek_worst<S: Storage>(heap: &S) -> Option<Entry<S::Value>> {
    (heap.len() > 0).then(|| heap.get(0))
}

/// Values the pre-filter tests at a time against the root. Long enough that the test of a
/// block (a branch-free fold of [`TotalRank::may_enter_above`]) vectorizes and its one branch
/// is rarely taken once the heap has settled; short enough that a block with one candidate
/// costs little to walk value by value.
pub(crate) const BLOCK: usize = 64;

/// The largest k served by the one-pass path of [`extend`], whose heap is a copy on the stack
/// ([`Scratch`]): 64 entries, 512 bytes for `f32`.
const SCRATCH_K: usize = 64;

/// The shortest slice worth the one-pass path: copying a heap of up to [`SCRATCH_K`] entries
/// there and back costs about as much as reading this many values twice.
const ONE_PASS_MIN_LEN: usize = 4 * SCRATCH_K;

/// What a streaming selector keeps next to its heap so that [`push`] can turn a value away
/// with no look at the heap: `None` until the heap is full, then the root's value as it was
/// when [`push_slow`] last saw it, and the stream's end.
///
/// It never turns away a value that the heap would take. A full heap never shrinks and its
/// root only rises (push, extend, merge), so a kept root is never above the real one; only
/// `clear` empties the heap, and it closes the gate. Selectors start with it closed.
pub(crate) type Gate<T> = Option<OpenGate<T>>;

/// An open [`Gate`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct OpenGate<T> {
    /// [`MAX_STREAM_LEN`]: a position below it may take the shortcut. A field, not the
    /// constant, so that it is also the `Option`'s tag: `at < until` tests both.
    until: NonZeroU64,
    /// The root's value, at or below the real root's.
    root: T,
}

/// Offers one value at stream position `*next`, as [`extend`] on a slice of one would, with
/// the common case first: once the heap is full, a value that does not beat the root
/// ([`TotalRank::may_enter_above`], which also catches NaN) costs two comparisons, with the
/// stream's end and the root's value kept in `gate`, and no call.
///
/// Written for the loop a compiler makes of `for &v in x { top.push(v)? }`: on x86-64, nine
/// instructions and three two-byte branches a value, with the gate's end and root in
/// registers. Two choices give it that shape:
/// - The slow paths return the new gate instead of writing it through a pointer, so that the
///   gate stays in registers across the loop (read from memory at each value, it made the
///   loop 51 bytes long instead of 33).
/// - Each failing test has its own cold slow path: [`push_closed`] for a closed gate or the
///   stream's end, [`push_slow`] for a value that may enter. With one path the compiler
///   merged the two outcomes into a flag and tested it again; without `#[cold]` it put the
///   loop's exit test first, behind a six-byte branch.
///
/// The loop before ran up to 1.8 times slower at some places in criterion's binary than at
/// others; this one varied far less at the four function alignments tried (README).
#[inline]
pub(crate) fn push<S: Storage>(
    heap: &mut S,
    gate: &mut Gate<S::Value>,
    next: &mut u64,
    value: S::Value,
) -> Result<(), Error> {
    let at = *next;
    match gate {
        Some(open) if at < open.until.get() => {
            if !value.may_enter_above(&open.root) {
                *next = at + 1;
                return Ok(());
            }
            *gate = push_slow(heap, at, value)?;
        }
        _ => *gate = push_closed(heap, at, value)?,
    }
    *next = at + 1;
    Ok(())
}

/// The rest of [`push`] for a value that may beat the root, and (through [`push_closed`])
/// for every value while the gate is closed: offers it and returns the gate for what follows
/// (open once the heap is full). Never inlined, so that the common case stays small in the
/// caller's loop. It gets the position by value, so that the loop keeps the position in a
/// register (it still stores it at each value: the call can see the selector).
#[cold]
#[inline(never)]
fn push_slow<S: Storage>(heap: &mut S, at: u64, value: S::Value) -> Result<Gate<S::Value>, Error> {
    check_values(at, slice::from_ref(&value))?;
    // Checked: the position is below `MAX_STREAM_LEN`, the cast lossless.
    let index = at as u32;
    offer(heap, Entry { value, index });
    let full = heap.len() == heap.capacity();
    Ok(peek_worst(heap).filter(|_| full).map(|root| OpenGate {
        until: STREAM_END,
        root: root.value,
    }))
}

/// [`push_slow`] for a closed gate (the heap not yet full) or a position at the stream's end.
/// A call site of its own, so that the caller's loop branches straight to the one or the
/// other and does not merge the two tests' outcomes (see [`push`]).
#[cold]
#[inline(never)]
fn push_closed<S: Storage>(
    heap: &mut S,
    at: u64,
    value: S::Value,
) -> Result<Gate<S::Value>, Error> {
    push_slow(heap, at, value)
}

/// [`MAX_STREAM_LEN`], as the gate keeps it.
const STREAM_END: NonZeroU64 = NonZeroU64::MIN.saturating_add(MAX_STREAM_LEN - 1);
const _: () = assert!(STREAM_END.get() == MAX_STREAM_LEN);

/// Offers `values` to the heap as the stream positions `*next..`, all or nothing: on error
/// neither the heap nor `*next` changes.
///
/// The values are read in blocks of [`BLOCK`] once the heap is full, and a block is looked at
/// value by value only if one of its values may beat the root or is NaN ([`scan`]). When the
/// heap is small and the slice long ([`one_pass`]), that is the only pass: the heap is copied
/// to the stack first ([`Scratch`]), so that a NaN found late leaves the real one untouched.
/// Otherwise the values are checked for NaN first ([`check_values`]) and then scanned.
pub(crate) fn extend<S: Storage>(
    heap: &mut S,
    next: &mut u64,
    values: &[S::Value],
) -> Result<(), Error> {
    if !one_pass(heap, values) {
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
    if one_pass(heap, values) {
        let mut scratch = Scratch::copy_of(heap);
        dispatch::scan(&mut scratch, *next, values)?;
        scratch.copy_to(heap);
    } else {
        // The values are rankable: the scan finds no NaN and cannot fail.
        dispatch::scan(heap, *next, values)?;
    }
    *next += values.len() as u64;
    Ok(())
}

/// Whether [`extend`] reads `values` once, into a copy of the heap on the stack: k at most
/// [`SCRATCH_K`] and at least [`ONE_PASS_MIN_LEN`] values.
fn one_pass<S: Storage>(heap: &S, values: &[S::Value]) -> bool {
    heap.capacity() <= SCRATCH_K && values.len() >= ONE_PASS_MIN_LEN
}

/// Offers `values` as the stream positions `start..`: the ones that fill the heap, then the
/// rest by blocks, skipping each block in which no value may beat the root (`test`), then the
/// last values that do not fill a block. Returns the first NaN as an error, with the heap then
/// holding some of the values before it. `start + values.len()` must be at most
/// [`MAX_STREAM_LEN`].
///
/// An empty heap fills with the values above a floor when [`seed`] finds one, else with the
/// first values one by one. For k from [`POOL_MIN_K`] to [`POOL_MAX_K`] the candidates then go
/// to a pool ([`scan_pooled`]); for other k each replaces the root.
///
/// [`dispatch::scan`] compiles it a second time for a wider vector unit when the CPU has one,
/// with a block test of its own: hence `inline(always)`, here and in what it calls on every
/// block.
#[inline(always)]
pub(crate) fn scan<S: Storage, B: BlockTest>(
    heap: &mut S,
    start: u64,
    values: &[S::Value],
    test: B,
) -> Result<(), Error> {
    let done = match seed(heap, values) {
        Some(floor) => fill_above(heap, start, values, &floor, test)?,
        None => {
            let fill = (heap.capacity() - heap.len()).min(values.len());
            admit(heap, start, &values[..fill])?;
            fill
        }
    };
    if heap.len() == 0 {
        // k = 0: nothing is kept, but a NaN is still an error.
        return match first_unrankable(&values[done..]) {
            Some(pos) => Err(not_rankable(start + (done + pos) as u64)),
            None => Ok(()),
        };
    }
    let blocks = values[done..].chunks_exact(BLOCK);
    let tail = blocks.remainder();
    let at = start + done as u64;
    if (POOL_MIN_K..=POOL_MAX_K).contains(&heap.len()) {
        scan_pooled(heap, at, blocks, test)?;
    } else {
        for (block, at) in blocks.zip((at..).step_by(BLOCK)) {
            let threshold = heap.get(0).value;
            if test.flagged(block, &threshold) {
                // Each flagged value may still lose to a root that one before it has raised:
                // `offer` compares it again.
                for_flagged(block, threshold, at, test, |entry| offer(heap, entry))?;
            }
        }
    }
    admit(heap, start + (values.len() - tail.len()) as u64, tail)
}

/// Calls `f` on the entries of the values of `block` (stream positions `at..`) that may beat
/// `threshold` ([`TotalRank::may_enter_above`]), in order, and stops at the first NaN.
#[inline(always)]
fn for_flagged<T: TotalRank>(
    block: &[T],
    threshold: T,
    at: u64,
    test: impl BlockTest,
    mut f: impl FnMut(Entry<T>),
) -> Result<(), Error> {
    let mut mask = test.mask(block, &threshold);
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        let (value, index) = (block[i], at + i as u64);
        if !value.is_rankable() {
            return Err(not_rankable(index));
        }
        // The caller keeps every position below `MAX_STREAM_LEN`: the cast is lossless.
        let index = index as u32;
        f(Entry { value, index });
    }
    Ok(())
}

/// A floor for filling an empty heap of capacity k from a long slice ([`scan`]): a value
/// that k values of the slice are strictly above, so that no value at or below it can be
/// among the k best. The heap then fills with the values above it ([`fill_above`]) instead of
/// with the first k, whose worst is a low root that has to climb. The better of two, each
/// `None` when it does not hold (ties, NaN) or does not apply:
///
/// - [`column_floor`], from the first 4,096 values, for k < [`BLOCK`]: on a row in random order
///   it saves about half of the 400 insertions of k = 50 in 151,936 values;
/// - [`tail_floor`], from the last values (and windows spread over the slice for k outside
///   the pool's): on a rising row (where every value would enter a heap filled from the
///   front) the heap fills with the last k values, and every block before them is skipped
///   whole.
#[inline(always)]
fn seed<S: Storage>(heap: &S, values: &[S::Value]) -> Option<S::Value> {
    let k = heap.capacity();
    if heap.len() > 0 || k == 0 {
        return None;
    }
    higher_floor(column_floor(values, k), tail_floor(values, k))
}

/// The higher of two floors (either may be missing); the first if they tie.
#[inline(always)]
fn higher_floor<T: TotalRank>(first: Option<T>, second: Option<T>) -> Option<T> {
    match (first, second) {
        (Some(first), Some(second)) if second.may_enter_above(&first) => Some(second),
        (first, second) => first.or(second),
    }
}

/// Blocks read by [`column_floor`]: the first 4,096 values, as [`SEED_ROWS`] rows of [`BLOCK`].
const SEED_ROWS: usize = 64;

/// The floor of [`seed`] from the first [`SEED_ROWS`] blocks, for k < [`BLOCK`]: they are read
/// as the rows of a table whose [`BLOCK`] columns are folded, with no branch, into the best
/// value of each column, [`BLOCK`] entries at distinct positions of the slice. The floor is
/// the (k+1)-th best of them, if the k better ones are strictly above it.
#[inline(always)]
fn column_floor<T: TotalRank>(values: &[T], k: usize) -> Option<T> {
    if k >= BLOCK || values.len() < SEED_ROWS * BLOCK {
        return None;
    }
    let mut columns: [T; BLOCK] = core::array::from_fn(|j| values[j]);
    for row in values[..SEED_ROWS * BLOCK].chunks_exact(BLOCK) {
        for (best, &v) in columns.iter_mut().zip(row) {
            *best = if v.may_enter_above(best) { v } else { *best };
        }
    }
    let mut best = [Entry {
        value: columns[0],
        index: 0,
    }; BLOCK];
    for ((entry, value), index) in best.iter_mut().zip(columns).zip(0..) {
        *entry = Entry { value, index };
    }
    select_best(&mut best, k + 1);
    let floor = best.get(k)?.value;
    let holds = floor.is_rankable() && best[..k].iter().all(|e| e.value.may_enter_above(&floor));
    holds.then_some(floor)
}

/// Values beyond k in the window of [`tail_floor`]: its worst value may come up to this many
/// times (a rising row of repeated values) and still leave k strictly above it.
const WINDOW_SLACK: usize = 8;

/// The floor of [`seed`] from the last k + [`WINDOW_SLACK`] values, for a slice at least
/// twice as long: their [`window_floor`]. On a rising row (where every value would enter a
/// heap filled from the front) they are the k best and a few more; on a row in random order
/// their floor is low, and the column floor beats it. O(k).
///
/// For k outside [`POOL_MIN_K`]`..=`[`POOL_MAX_K`], where no pool keeps a row whose values
/// mostly enter at O(n), it is the best floor of [`SPREAD_WINDOWS`] windows spread over the
/// slice, the last at its end: they also catch a row that rises then falls. Within it the pool
/// does, and eight windows made the first 4,096 values of a row of logits cost 3.9 µs instead
/// of 3.3 (k = 50).
#[inline(always)]
fn tail_floor<T: TotalRank>(values: &[T], k: usize) -> Option<T> {
    let width = k.checked_add(WINDOW_SLACK)?;
    if values.len() / 2 < width {
        return None;
    }
    let pooled = (POOL_MIN_K..=POOL_MAX_K).contains(&k);
    let windows = if pooled { 1 } else { SPREAD_WINDOWS };
    let step = (values.len() - width) / (SPREAD_WINDOWS - 1);
    (0..windows)
        .map(|w| values.len() - w * step)
        .map(|end| window_floor(&values[end - width..end], k))
        .fold(None, higher_floor)
}

/// Windows of [`tail_floor`] for k outside [`POOL_MIN_K`]`..=`[`POOL_MAX_K`].
const SPREAD_WINDOWS: usize = 8;

/// The worst value of `window`, if k of its values are strictly above it; `None` if not (ties)
/// or if it holds a NaN.
#[inline(always)]
fn window_floor<T: TotalRank>(window: &[T], k: usize) -> Option<T> {
    // Three passes with no branch on the data.
    let rankable = window.iter().fold(true, |all, v| all & v.is_rankable());
    if !rankable {
        return None;
    }
    let floor = window.iter().copied().reduce(|worst, v| {
        // Both rankable: `worst` is above `v` iff `v` ranks below it.
        if worst.may_enter_above(&v) {
            v
        } else {
            worst
        }
    })?;
    let above = window
        .iter()
        .fold(0, |n, v| n + usize::from(v.may_enter_above(&floor)));
    (above >= k).then_some(floor)
}

/// Fills the empty heap with the values of `values` (stream positions `start..`) that may
/// beat `floor` ([`seed`]), by blocks, to the end of the block where it becomes full, or to
/// the end of the slice (the values above a tail floor are its last); returns how many values
/// it read. The heap is full then, unless a NaN came first.
#[inline(always)]
fn fill_above<S: Storage>(
    heap: &mut S,
    start: u64,
    values: &[S::Value],
    floor: &S::Value,
    test: impl BlockTest,
) -> Result<usize, Error> {
    let mut blocks = values.chunks_exact(BLOCK);
    for (block, at) in blocks.by_ref().zip((start..).step_by(BLOCK)) {
        if heap.len() == heap.capacity() {
            // `at - start` counts values of the slice: the cast is lossless.
            return Ok((at - start) as usize);
        }
        if test.flagged(block, floor) {
            for_flagged(block, *floor, at, test, |entry| offer(heap, entry))?;
        }
    }
    // The heap is not full yet: the values above the floor end among the last ones. Those at
    // or below it may fill a place for a while, until one above it takes it.
    let rest = blocks.remainder();
    admit(heap, start + (values.len() - rest.len()) as u64, rest)?;
    Ok(values.len())
}

/// Entries of the candidate pool of [`scan_pooled`], the heap's included when it is compacted:
/// 256 entries on the stack (2 KiB for `f32`).
const POOL: usize = 256;

/// The smallest k that uses the pool: below it a sift down the heap (log2 k levels) costs
/// less than a value's share of a compaction.
const POOL_MIN_K: usize = 4;

/// The largest k that uses the pool: half of it, so that a compaction still gathers at least
/// k candidates (`POOL - k`). Above it the compactions come too often for what they select.
const POOL_MAX_K: usize = 128;

/// Candidates gathered per k kept before a compaction, while the pool has room: 3k, so that a
/// compaction selects among 4k entries. Fewer, and the compactions come too often; more, and
/// the threshold lags far behind the candidates (on rows in random order and rising rows
/// alike, 2k and 4k were slower).
const POOL_ROUND: usize = 3;

/// The blocks of [`scan`] for k in [`POOL_MIN_K`]`..=`[`POOL_MAX_K`] on the full heap, the
/// first at stream position `start`: candidates (values that may beat the threshold, the
/// worst kept at the last compaction) go to a pool on the stack, and when it holds
/// [`POOL_ROUND`]·k of them, a compaction keeps the best k of heap and pool ([`compact`]) and
/// raises the threshold. A candidate costs a store and its share of a quickselect, a few
/// comparisons with no branch to mispredict, instead of a sift down the heap; the lag of the
/// threshold lets in more candidates than the heap would, but on every row measured (in
/// random order, rising, masked) the pool was the faster all along. At the end the heap is
/// built again, once.
///
/// On a rising row every value is a candidate: O(n) instead of O(n log k).
#[inline(always)]
fn scan_pooled<'a, S: Storage>(
    heap: &mut S,
    start: u64,
    blocks: impl Iterator<Item = &'a [S::Value]>,
    test: impl BlockTest,
) -> Result<(), Error>
where
    S::Value: 'a,
{
    let k = heap.len();
    let round = (POOL - k).min(POOL_ROUND * k);
    let mut pool = ArrayVec::<Entry<S::Value>, POOL>::new();
    let mut threshold = heap.get(0).value;
    let mut compacted = false;
    for (block, at) in blocks.zip((start..).step_by(BLOCK)) {
        if test.flagged(block, &threshold) {
            // A compaction meanwhile only makes the rest of the block needless candidates.
            for_flagged(block, threshold, at, test, |entry| {
                pool.push(entry);
                if pool.len() == round {
                    threshold = compact(heap, &mut pool);
                    compacted = true;
                }
            })?;
        }
    }
    if compacted {
        compact(heap, &mut pool);
        for i in (0..k / 2).rev() {
            sift_down(heap, i, heap.get(i), k);
        }
    } else {
        // The heap is still a heap: a few candidates (a stream that has settled, fed in
        // pieces) cost a sift each rather than a compaction and a rebuild.
        for &entry in &pool {
            offer(heap, entry);
        }
    }
    Ok(())
}

/// Merges the candidate `pool` into the full heap: the heap becomes the best `len()` of both
/// ([`select_best`]), the worst of them last, and no longer a heap; the pool is emptied.
/// Returns the value of the worst kept, the new threshold.
fn compact<S: Storage>(heap: &mut S, pool: &mut ArrayVec<Entry<S::Value>, POOL>) -> S::Value {
    let len = heap.len();
    for i in 0..len {
        if pool.try_push(heap.get(i)).is_err() {
            break;
        }
    }
    select_best(pool, len);
    for (i, &entry) in pool.iter().take(len).enumerate() {
        heap.set(i, entry);
    }
    pool.clear();
    heap.get(len.saturating_sub(1)).value
}

/// Reorders `entries` (at most [`POOL`]) so that the `k` best come first, the k-th best at
/// `k - 1` and the others before it in no particular order: a quickselect under
/// [`Entry::ranks_below`] with a median-of-three pivot and a partition with no branch through
/// a spare buffer on the stack ([`partition`]). The range shrinks by at least the pivot at
/// each step, so it ends, with no panic, whatever the order does.
fn select_best<T: TotalRank>(entries: &mut [Entry<T>], k: usize) {
    // The spare buffer holds `POOL`: entries past it (there are none) would stay where they are.
    let len = entries.len().min(POOL);
    let entries = &mut entries[..len];
    let (Some(&first), Some(target)) = (entries.first(), k.checked_sub(1)) else {
        return;
    };
    let mut spare = [first; POOL];
    let (mut lo, mut hi) = (0, entries.len());
    while hi - lo > 1 {
        // Median of three entries at the range's quartiles, moved to its end: the pool is a
        // run of candidates then the heap, so its ends are poor samples.
        let quarter = (hi - lo) / 4;
        let (a, b, c) = (lo + quarter, lo + 2 * quarter, hi - 1 - quarter);
        let ab = entries[a].ranks_below(&entries[b]);
        let bc = entries[b].ranks_below(&entries[c]);
        let ac = entries[a].ranks_below(&entries[c]);
        let median = if ab == bc {
            b
        } else if ab == ac {
            c
        } else {
            a
        };
        entries.swap(median, hi - 1);
        let store = lo + partition(&mut entries[lo..hi], &mut spare);
        // `lo..store` beat the pivot, now at `store`; the rest rank below it.
        match store.cmp(&target) {
            Ordering::Equal => break,
            Ordering::Less => lo = store + 1,
            Ordering::Greater => hi = store,
        }
    }
}

/// Partitions `range` (its last entry is the pivot, and `spare` is at least as long) so that
/// the entries better than the pivot come first, then the pivot, then the rest; returns the
/// pivot's position.
///
/// Each entry is written to both ends of `spare` and one end advances, by the outcome of its
/// comparison: no branch, and no read of what the loop wrote (which a partition in place
/// waits on). Exactly one end moves per entry, so they meet at the pivot's place after the
/// last, whatever the comparisons say.
#[inline]
fn partition<T: TotalRank>(range: &mut [Entry<T>], spare: &mut [Entry<T>]) -> usize {
    let Some((&mut pivot, rest)) = range.split_last_mut() else {
        return 0;
    };
    let spare = &mut spare[..=rest.len()];
    // `spare[front..back]` is free: the better entries are before it, the others after.
    let (mut front, mut back) = (0, spare.len());
    for &entry in rest.iter() {
        let better = pivot.ranks_below(&entry);
        spare[front] = entry;
        spare[back - 1] = entry;
        front += usize::from(better);
        back -= usize::from(!better);
    }
    spare[front] = pivot;
    range.copy_from_slice(spare);
    front
}

/// The test of a block of [`BLOCK`] values against the threshold, by
/// [`TotalRank::may_enter_above`] (a value that may beat it, or NaN): the portable code
/// ([`Portable`]), or a copy with explicit vector instructions that [`dispatch`] hands to
/// [`scan`] when the CPU has them. Both answer the same on every block.
pub(crate) trait BlockTest: Copy {
    /// Whether any value of `block` may beat `threshold` or is NaN.
    fn flagged<T: TotalRank>(self, block: &[T], threshold: &T) -> bool;
    /// Bit `i` set iff `block[i]` may beat `threshold` or is NaN (`block` holds at most 64).
    fn mask<T: TotalRank>(self, block: &[T], threshold: &T) -> u64;
}

/// The block test in portable code, written to vectorize for whatever the build targets.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

/// Lanes of the portable test of a block: the flags of value `j` and `j + LANES`, ... are
/// or-ed in lane `j`, as 32-bit words so that they stay in the comparison's own vector lanes.
const LANES: usize = 8;

impl BlockTest for Portable {
    /// Comparisons or-ed into [`LANES`] words, with no branch.
    #[inline(always)]
    fn flagged<T: TotalRank>(self, block: &[T], threshold: &T) -> bool {
        let mut lanes = [0_u32; LANES];
        for chunk in block.chunks_exact(LANES) {
            for (lane, v) in lanes.iter_mut().zip(chunk) {
                *lane |= u32::from(v.may_enter_above(threshold));
            }
        }
        lanes.iter().fold(0, |any, &lane| any | lane) != 0
    }

    #[inline]
    fn mask<T: TotalRank>(self, block: &[T], threshold: &T) -> u64 {
        block.iter().enumerate().fold(0, |mask, (i, v)| {
            mask | (u64::from(v.may_enter_above(threshold)) << i)
        })
    }
}

/// Offers each of `values`, the stream positions `start..`, stopping at the first NaN. Once
/// the heap is full, a value that cannot beat the root ([`TotalRank::may_enter_above`]) costs
/// that one test.
fn admit<S: Storage>(heap: &mut S, start: u64, values: &[S::Value]) -> Result<(), Error> {
    for (index, &value) in (start..).zip(values) {
        let len = heap.len();
        if len == heap.capacity() && len > 0 && !value.may_enter_above(&heap.get(0).value) {
            continue;
        }
        if !value.is_rankable() {
            return Err(not_rankable(index));
        }
        // The caller keeps every position below `MAX_STREAM_LEN`: the cast is lossless.
        let index = index as u32;
        offer(heap, Entry { value, index });
    }
    Ok(())
}

/// A copy of a heap of up to [`SCRATCH_K`] entries on the stack, with the same capacity: the
/// one-pass path of [`extend`] works on it and copies it back only on success.
struct Scratch<T> {
    entries: ArrayVec<Entry<T>, SCRATCH_K>,
    capacity: usize,
}

impl<T: TotalRank> Scratch<T> {
    /// A copy of `heap`, whose capacity is at most [`SCRATCH_K`].
    fn copy_of<S: Storage<Value = T>>(heap: &S) -> Self {
        debug_assert!(heap.capacity() <= SCRATCH_K);
        let mut entries = ArrayVec::new();
        for i in 0..heap.len().min(SCRATCH_K) {
            entries.push(heap.get(i));
        }
        Scratch {
            entries,
            capacity: heap.capacity(),
        }
    }

    /// Writes the copy back over `heap`, which it was made from and which has not grown since.
    fn copy_to<S: Storage<Value = T>>(&self, heap: &mut S) {
        for (i, &entry) in self.entries.iter().enumerate() {
            if i < heap.len() {
                heap.set(i, entry);
            } else {
                heap.append(entry);
            }
        }
    }
}

impl<T: TotalRank> Storage for Scratch<T> {
    type Value = T;

    #[inline]
    fn len(&self) -> usize {
        self.entries.len()
    }
    #[inline]
    fn capacity(&self) -> usize {
        self.capacity
    }
    #[inline]
    fn get(&self, i: usize) -> Entry<T> {
        self.entries[i]
    }
    #[inline]
    fn set(&mut self, i: usize, entry: Entry<T>) {
        self.entries[i] = entry;
    }
    #[inline]
    fn append(&mut self, entry: Entry<T>) {
        self.entries.push(entry);
    }
}

/// Keeps `entry` if it is among the best `capacity()` entries offered so far. Every comparison
/// is the full order ([`Entry::ranks_below`], index included), so entries may come with any
/// indices, as long as no index comes twice: a merge of shards offers them out of order.
#[inline]
pub(crate) fn offer<S: Storage>(heap: &mut S, entry: Entry<S::Value>) {
    let len = heap.len();
    if len < heap.capacity() {
        heap.append(entry);
        sift_up(heap, len, entry);
    } else if len > 0 && heap.get(0).ranks_below(&entry) {
        sift_down(heap, 0, entry, len);
    }
}

/// Moves the hole at `pos` up while `entry` is worse than the parent, then puts `entry` there.
fn sift_up<S: Storage>(heap: &mut S, mut pos: usize, entry: Entry<S::Value>) {
    while pos > 0 {
        let parent = (pos - 1) / 2;
        let above = heap.get(parent);
        if !entry.ranks_below(&above) {
            break;
        }
        heap.set(pos, above);
        pos = parent;
    }
    heap.set(pos, entry);
}

/// Moves the hole at `pos` down the heap of `len` entries while its worse child is worse than
/// `entry`, then puts `entry` there.
///
/// A new entry most often stops near the root (it beats the old root, the worst kept, and
/// not by much once the heap has settled), so the loop exits as soon as it stops. Kept
/// branch-free (one pass over every level, moves chosen by comparisons), the sift paid the
/// full depth on every call: slower on every shape that was measured.
#[inline]
fn sift_down<S: Storage>(heap: &mut S, mut pos: usize, entry: Entry<S::Value>, len: usize) {
    loop {
        let left = 2 * pos + 1;
        if left >= len {
            break;
        }
        let child = worse_child(heap, left, len);
        let below = heap.get(child);
        if !below.ranks_below(&entry) {
            break;
        }
        heap.set(pos, below);
        pos = child;
    }
    heap.set(pos, entry);
}

/// The worse of the children `left` and `left + 1` (if it is in the heap of `len` entries).
#[inline]
fn worse_child<S: Storage>(heap: &S, left: usize, len: usize) -> usize {
    if left + 1 < len {
        left + usize::from(heap.get(left + 1).ranks_below(&heap.get(left)))
    } else {
        left
    }
}

/// In-place heap sort: the root (the worst) goes to the end, the heap shrinks by one, and so on,
/// leaving positions `0..len()` best first. The storage is no longer a heap afterwards.
pub(crate) fn sort<S: Storage>(heap: &mut S) {
    for end in (1..heap.len()).rev() {
        let worst = heap.get(0);
        let last = heap.get(end);
        heap.set(end, worst);
        sift_through_leaf(heap, last, end);
    }
}

/// Puts `entry` into the hole at the root of the heap of `len` entries, bottom-up (Floyd's
/// heap sort): the hole goes down to a leaf along the worse children, one comparison a level
/// and no exit to predict, then `entry` climbs back while it is worse than the parent. In a
/// heap sort the entry comes from the last leaf, so it belongs near the bottom and climbs a
/// level or two, where a sift from the top compares it at every level and leaves at a level
/// that changes from one sift to the next.
fn sift_through_leaf<S: Storage>(heap: &mut S, entry: Entry<S::Value>, len: usize) {
    let mut pos = 0;
    loop {
        let left = 2 * pos + 1;
        if left >= len {
            break;
        }
        let child = worse_child(heap, left, len);
        heap.set(pos, heap.get(child));
        pos = child;
    }
    sift_up(heap, pos, entry);
}

#[cfg(test)]
mod tests {
    use core::cmp::Ordering;
    use core::sync::atomic::{AtomicU64, Ordering::Relaxed};
    use std::vec;
    use std::vec::Vec;

    use super::{Columns, Storage};
    use crate::{top_k_into, Entry, TopK, TotalRank};

    /// The seed of an empty heap of capacity `k` over `x`.
    fn seed_of(x: &[f32], k: usize) -> Option<f32> {
        let (mut idx, mut val) = (vec![0; k], vec![0.0; k]);
        super::seed(&Columns::new(&mut idx, &mut val).unwrap(), x)
    }

    #[test]
    fn the_column_floor_is_the_next_best_of_the_column_bests() {
        use super::column_floor;
        // Rising: column j's best is its last row's, 4,032 + j; the (k+1)-th best is 4,095 - k.
        // Values past the first 4,096 are not read.
        let mut x: Vec<f32> = (0..5000).map(|i| i as f32).collect();
        x[4096..].fill(-1.0);
        for k in [1, 2, 50, 63] {
            assert_eq!(column_floor(&x, k), Some((4095 - k) as f32), "k = {k}");
        }
        // Scrambled: i ↦ 37·i mod 4,096 puts the same column bests in no order.
        let scrambled: Vec<f32> = (0..4096).map(|i| (i * 37 % 4096) as f32).collect();
        for k in [1, 2, 50, 63] {
            assert_eq!(
                column_floor(&scrambled, k),
                Some((4095 - k) as f32),
                "k = {k}"
            );
        }
        // Falling: the first row holds every column's best, 4,095 - j.
        let falling: Vec<f32> = (0..4096).rev().map(|i| i as f32).collect();
        assert_eq!(column_floor(&falling, 50), Some(4045.0));
        // None for k >= 64 or fewer than 4,096 values.
        assert_eq!(column_floor(&x, 64), None);
        assert_eq!(column_floor(&x[..4095], 1), None);
        // Column bests 2,016 + j / 2: pairs tie, so the k-th and (k+1)-th tie for odd k.
        let pairs: Vec<f32> = (0..4096).map(|i| (i / 2) as f32).collect();
        assert_eq!(column_floor(&pairs, 1), None);
        assert_eq!(column_floor(&pairs, 2), Some(2046.0));
        assert_eq!(column_floor(&vec![1.0; 4096], 5), None);
    }

    #[test]
    fn a_window_floor_is_its_worst_value_when_k_are_above_it() {
        use super::window_floor;
        let rising: Vec<f32> = (0..58).map(|i| i as f32).collect();
        for k in [0, 1, 50, 57] {
            assert_eq!(window_floor(&rising, k), Some(0.0), "k = {k}");
        }
        assert_eq!(window_floor(&rising, 58), None);
        assert_eq!(window_floor(&rising[..57], 50), Some(0.0));
        // A worst value repeated leaves fewer above it.
        let mut plateau = rising.clone();
        plateau[..8].fill(-1.0);
        assert_eq!(window_floor(&plateau, 50), Some(-1.0));
        assert_eq!(window_floor(&plateau, 51), None);
        // Ties everywhere, or a NaN: no floor.
        assert_eq!(window_floor(&[1.0; 58], 50), None);
        for at in [0, 40, 57] {
            let mut nan = rising.clone();
            nan[at] = f32::NAN;
            assert_eq!(window_floor(&nan, 50), None, "NaN at {at}");
        }
    }

    #[test]
    fn the_tail_floor_is_the_floor_of_the_last_k_and_a_few_values() {
        use super::{tail_floor, WINDOW_SLACK};
        let width = 50 + WINDOW_SLACK;
        let rising: Vec<f32> = (0..8000).map(|i| i as f32).collect();
        assert_eq!(tail_floor(&rising, 50), Some((8000 - width) as f32));
        // The window must be at most half the slice.
        assert_eq!(tail_floor(&rising[..2 * width], 50), Some(width as f32));
        assert_eq!(tail_floor(&rising[..2 * width - 1], 50), None);
        assert_eq!(tail_floor(&rising, usize::MAX), None);
        // Falling: a floor all the same, the lowest values.
        let falling: Vec<f32> = rising.iter().rev().copied().collect();
        assert_eq!(tail_floor(&falling, 50), Some(0.0));
    }

    #[test]
    fn outside_the_pool_the_tail_floor_is_the_best_of_windows_spread_over_the_slice() {
        use super::{tail_floor, POOL_MAX_K, POOL_MIN_K, SPREAD_WINDOWS, WINDOW_SLACK};
        // Rising then falling, peak at 7,000: the windows end at 14,000 - w * step.
        let n = 14_000;
        let pipe: Vec<f32> = (0..n).map(|i| i.min(n - i) as f32).collect();
        let (k, width) = (POOL_MAX_K + 1, POOL_MAX_K + 1 + WINDOW_SLACK);
        let step = (n - width) / (SPREAD_WINDOWS - 1);
        // The best window is the one whose end is nearest above the peak: its worst value is
        // at its start or its end.
        let floors = (0..SPREAD_WINDOWS).map(|w| {
            let end = n - w * step;
            pipe[end - width].min(pipe[end - 1])
        });
        let best = floors.fold(0.0_f32, f32::max);
        assert!(best > 5000.0, "{best}");
        assert_eq!(tail_floor(&pipe, k), Some(best));
        // Below the pool's k too; at the pool's k, the last window only: the lowest values.
        assert!(tail_floor(&pipe, 1).is_some_and(|floor| floor > 5000.0));
        assert_eq!(tail_floor(&pipe, POOL_MAX_K), Some(1.0));
        assert_eq!(tail_floor(&pipe, POOL_MIN_K), Some(1.0));
        // A window with ties at its worst value is passed over, not the others.
        let mut flat_end = pipe.clone();
        flat_end[n - width..].fill(3.0);
        assert_eq!(tail_floor(&flat_end, k), Some(best));
    }

    #[test]
    fn the_seed_is_the_better_floor_of_an_empty_heap() {
        // Rising: the tail floor (the last values) beats the column floor (the first 4,096).
        let rising: Vec<f32> = (0..9000).map(|i| i as f32).collect();
        assert_eq!(
            seed_of(&rising, 50),
            Some((9000 - 50 - super::WINDOW_SLACK) as f32)
        );
        // Falling: the column floor (the 51st of the first row, 8,999 - 50); for k >= 64 the
        // tail floor only, however low.
        let falling: Vec<f32> = rising.iter().rev().copied().collect();
        assert_eq!(seed_of(&falling, 50), Some(8949.0));
        assert_eq!(seed_of(&falling, 100), Some(0.0));
        // No seed: k = 0, or a heap that is not empty.
        assert_eq!(seed_of(&rising, 0), None);
        let (mut idx, mut val) = (vec![0; 2], vec![0.0; 2]);
        let mut heap = Columns::new(&mut idx, &mut val).unwrap();
        heap.append(Entry {
            value: 1.0,
            index: 0,
        });
        assert_eq!(super::seed(&heap, &rising), None);
    }

    /// The best `k` of `x`, best first: a heap of its first `k` values, then
    /// [`super::scan_pooled`] on its full blocks after them, then the heap's sort.
    fn pooled(x: &[f32], k: usize) -> Vec<(f32, u32)> {
        let (mut idx, mut val) = (vec![0; k], vec![0.0; k]);
        let mut heap = Columns::new(&mut idx, &mut val).unwrap();
        super::admit(&mut heap, 0, &x[..k]).unwrap();
        let blocks = x[k..].chunks_exact(super::BLOCK);
        super::scan_pooled(&mut heap, k as u64, blocks, super::Portable).unwrap();
        super::sort(&mut heap);
        let (idx, val) = heap.into_kept();
        val.iter().copied().zip(idx.iter().copied()).collect()
    }

    /// The best `k` of the first `n` values of `x` by a full sort, best first.
    fn sorted(x: &[f32], k: usize, n: usize) -> Vec<(f32, u32)> {
        let mut all: Vec<(f32, u32)> = x[..n].iter().copied().zip(0..).collect();
        all.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        all.truncate(k);
        all
    }

    #[test]
    fn the_pool_keeps_the_best_whether_it_compacts_or_not() {
        let k = 50;
        let n = k + 64 * 300;
        // Rising: every value is a candidate, a compaction every 3k of them.
        let rising: Vec<f32> = (0..n).map(|i| (i / 3) as f32).collect();
        // Falling after the first k: no candidate at all.
        let falling: Vec<f32> = (0..n).map(|i| -(i as f32)).collect();
        // A few candidates, fewer than a round: no compaction, each offered to the heap.
        let mut few = falling.clone();
        for i in [k + 5, k + 700, n - 1] {
            few[i] = 1e6 - i as f32;
        }
        for x in [rising, falling, few] {
            assert_eq!(pooled(&x, k), sorted(&x, k, n));
        }
    }

    /// A value whose order lies: each comparison answers from a shared generator, so the same
    /// pair may compare both ways. The selectors owe it no right answer, only no panic.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Liar(u32);

    static COIN: AtomicU64 = AtomicU64::new(0x9E37_79B9_7F4A_7C15);

    impl TotalRank for Liar {
        fn is_rankable(&self) -> bool {
            true
        }
        fn rank_cmp(&self, _: &Self) -> Ordering {
            let mut x = COIN.fetch_add(0x9E37_79B9_7F4A_7C15, Relaxed);
            x = (x ^ (x >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            match (x >> 40) % 3 {
                0 => Ordering::Less,
                1 => Ordering::Equal,
                _ => Ordering::Greater,
            }
        }
    }

    #[test]
    fn a_lying_order_gives_k_entries_and_no_panic() {
        let n = if cfg!(miri) { 300 } else { 3000 };
        let x: Vec<Liar> = (0..n).map(Liar).collect();
        for k in [1, 3, 4, 5, 50, 64, 65, 100] {
            let (mut idx, mut val) = (std::vec![0_u32; k], std::vec![Liar(0); k]);
            top_k_into(&x, &mut idx, &mut val).unwrap();
            assert!(idx.iter().all(|&i| i < n));
        }
        let mut top = TopK::<Liar, 50>::new();
        top.extend_from_slice(&x).unwrap();
        for &v in &x {
            top.push(v).unwrap();
        }
        assert_eq!(top.into_sorted().len(), 50);
    }
}
