//! The sort of a whole row of `f32` (or `Reverse<f32>`) values, for when every value is kept
//! (`top_k_into` with k = n, an `extend` that fills an empty heap exactly): there is nothing to
//! select, and the result is a sort of the row. A least-significant-digit radix sort on a
//! monotone 32-bit key of the values, four passes of 8 bits, each a counting of the digits and
//! a stable scatter of the row's positions, so O(n) whatever the order of the row. The two
//! permutations it moves between are the storage's own places (the index lane, and the value
//! lane read as bits), so it needs no buffer of its own, only counters on the stack. Stable,
//! and started from the stream's order, it leaves equal values by ascending index with no
//! index in the key. In a row of fewer than 2^16 values ([`permute_packed`]) each place holds a
//! word: the position in the low half and half of its key above it, the low half for the first
//! two passes and the high half for the last two, so that a pass reads its digit from the word
//! and the row is read by position only to make the words (twice) and to write the entries.
//!
//! The same passes sort the kept entries of a row that is still at hand and short
//! ([`sort_kept`]: an extend into an empty selector that keeps many): the permutation starts
//! from the kept positions, in the heap's order, and two passes by position come first,
//! complemented, so that equal values end by descending index: the kept entries are sorted
//! worst first, which is a heap (what the extend that asks for it must leave). Six passes of
//! O(k), instead of the O(k log k) comparisons of the quicksort.
//!
//! And the pool ([`Pool`], [`keep_pooled`]): an extend into an empty selector that keeps many
//! of a short row, once the scan has counted a floor that at least k values are above, puts
//! their positions in the storage's places in the row's order (up to 2·k), cuts the best k
//! from them by their keys, digit by digit ([`Cut`]), and sorts those by the passes by value
//! alone: in the row's order already, equal values stay by ascending index. No value enters a
//! heap, and no pass by position is needed.
//!
//! Where the row is gone (the final sort of a selector fed by `push` or an iterator, or of a
//! row too long to read again), the entries hold their values: on a host, 64 to 4,096 of
//! them are sorted by the passes of their values' keys between the storage and a buffer on
//! the stack ([`by_key`]), out of place, and each run of equal values by index. A longer range,
//! or any on a target without the buffer, is first spread ([`spread`]): a
//! most-significant-digit pass in place into 256 buckets, each then sorted on its own.

use super::Storage;
use crate::{Entry, TotalRank};

/// Rows shorter than this are left to the quicksort, faster there than four passes.
const MIN_LEN: usize = 512;

/// Digits of a key: 8 bits each, four passes.
const RADIX: usize = 256;

/// A storage's places as two lanes of `u32` (`A`, the indices, and `B`, the values' bits):
/// what the sort keeps its two permutations of the row's positions in. Made only for `f32`.
#[doc(hidden)]
pub enum Lanes<'s> {
    /// Caller buffers: the index buffer and the value buffer.
    Columns(&'s mut [u32], &'s mut [f32]),
    /// An array of entries: each entry's index and value.
    Pairs(&'s mut [Entry<f32>]),
}

/// Where the permutation is: in the row's own order (no pass made yet), or in a lane.
const ROW: u8 = 0;
/// The index lane.
const A: u8 = 1;
/// The value lane, as bits.
const B: u8 = 2;

/// Two lanes of positions, each read and written as `u32`, over the places of entries; the
/// lane is a constant, so that each pass is compiled for its two lanes.
trait Perms {
    /// The position in lane `L` at place `j` (`j` itself in the row's order).
    fn get<const L: u8>(&self, j: usize) -> Option<u32>;
    /// Writes position `p` in lane `L` at place `j`.
    fn set<const L: u8>(&mut self, j: usize, p: u32);
    /// Writes the entry `(value, index)` at place `j`, over both lanes.
    fn put(&mut self, j: usize, value: f32, index: u32);
    /// The places of each lane.
    fn places(&self) -> usize;
}

impl Perms for (&mut [u32], &mut [f32]) {
    #[inline(always)]
    fn get<const L: u8>(&self, j: usize) -> Option<u32> {
        match L {
            A => self.0.get(j).copied(),
            B => self.1.get(j).map(|v| v.to_bits()),
            _ => u32::try_from(j).ok(),
        }
    }
    #[inline(always)]
    fn set<const L: u8>(&mut self, j: usize, p: u32) {
        match L {
            A => {
                if let Some(slot) = self.0.get_mut(j) {
                    *slot = p;
                }
            }
            B => {
                if let Some(slot) = self.1.get_mut(j) {
                    *slot = f32::from_bits(p);
                }
            }
            _ => {}
        }
    }
    #[inline(always)]
    fn put(&mut self, j: usize, value: f32, index: u32) {
        if let (Some(v), Some(i)) = (self.1.get_mut(j), self.0.get_mut(j)) {
            (*v, *i) = (value, index);
        }
    }
    #[inline(always)]
    fn places(&self) -> usize {
        self.0.len().min(self.1.len())
    }
}

impl Perms for &mut [Entry<f32>] {
    #[inline(always)]
    fn get<const L: u8>(&self, j: usize) -> Option<u32> {
        let entry = <[Entry<f32>]>::get(self, j);
        match L {
            A => entry.map(|e| e.index),
            B => entry.map(|e| e.value.to_bits()),
            _ => u32::try_from(j).ok(),
        }
    }
    #[inline(always)]
    fn set<const L: u8>(&mut self, j: usize, p: u32) {
        if let Some(entry) = <[Entry<f32>]>::get_mut(self, j) {
            match L {
                A => entry.index = p,
                B => entry.value = f32::from_bits(p),
                _ => {}
            }
        }
    }
    #[inline(always)]
    fn put(&mut self, j: usize, value: f32, index: u32) {
        if let Some(entry) = <[Entry<f32>]>::get_mut(self, j) {
            *entry = Entry { value, index };
        }
    }
    #[inline(always)]
    fn places(&self) -> usize {
        self.len()
    }
}

/// The row as `f32`s and whether the best are the largest (`f32`) or the smallest
/// (`Reverse<f32>`); `None` for any other value type.
fn as_f32s<T: TotalRank>(values: &[T]) -> Option<(&[f32], bool)> {
    match T::as_f32s(values) {
        Some(xs) => Some((xs, true)),
        None => T::as_reversed_f32s(values).map(|xs| (xs, false)),
    }
}

/// A key whose ascending order is the best-first order of rankable values: the value's bits
/// made monotone (negative values complemented, the sign bit of the others set; `-0.0` as
/// `0.0`, since they tie), complemented when the largest are the best.
#[inline(always)]
fn key(x: f32, largest: bool) -> u32 {
    ordered_bits(if x == 0.0 { 0 } else { x.to_bits() }, largest)
}

/// The bits of an `f32` made monotone in the best-first order: negative values complemented,
/// the sign bit of the others set, all complemented when the largest are the best. One to one:
/// [`key`] folds `-0.0` into `0.0` first, `by_key`'s passes do not.
#[inline(always)]
fn ordered_bits(bits: u32, largest: bool) -> u32 {
    let monotone = if bits >> 31 == 1 {
        !bits
    } else {
        bits | 1 << 31
    };
    if largest {
        !monotone
    } else {
        monotone
    }
}

/// The digit of `key` at `shift`.
#[inline(always)]
fn digit(key: u32, shift: u32) -> usize {
    ((key >> shift) & 0xFF) as usize
}

/// Sorts `heap` best first when it holds the entries of `values` (stream positions `start..`,
/// all rankable) in stream order and nothing else, by the radix sort; returns `false`, having
/// changed nothing, if the values are not `f32` or `Reverse<f32>`, the storage cannot lend
/// its places, or the row is short.
#[inline]
pub(super) fn sort<S: Storage>(heap: &mut S, start: u64, values: &[S::Value]) -> bool {
    let Some((xs, largest)) = as_f32s(values) else {
        return false;
    };
    if xs.len() < MIN_LEN || heap.len() != xs.len() {
        return false;
    }
    match heap.f32_lanes() {
        Some(Lanes::Columns(idx, val)) => sort_columns(idx, val, start, xs, largest, Start::Row),
        Some(Lanes::Pairs(entries)) => sort_pairs(entries, start, xs, largest, Start::Row),
        None => return false,
    }
    true
}

/// Sorts the kept entries of `heap`, in any order, worst first (a heap, the best entry last),
/// when each is an entry of `values` (stream positions `start..`, all rankable) and the row is
/// one whose values are cheap to read again ([`KEPT_ROW_MAX`]): the passes of [`sort`] over
/// the kept entries' positions, by position first, then by value, each value read from the
/// row by its position to make the words of each half of its key ([`permute_packed`]).
/// Returns `false`, having changed nothing, if the values are not `f32` or
/// `Reverse<f32>`, the storage cannot lend its places, fewer than [`MIN_LEN`] entries are
/// kept, the row is long, an entry's index is not a position of the row, or the value lane
/// may not hold packed words ([`WORDS_IN_VALUES`]).
#[inline]
pub(super) fn sort_kept<S: Storage>(heap: &mut S, start: u64, values: &[S::Value]) -> bool {
    let Some((xs, largest)) = as_f32s(values) else {
        return false;
    };
    // Worst first is the order of the other key, equal values by descending position.
    let largest = !largest;
    // The capacity first: a `TopK<f32, K>` with a small `K` compiles none of the sort.
    if !WORDS_IN_VALUES
        || heap.capacity() < MIN_LEN
        || heap.len() < MIN_LEN
        || xs.len() > KEPT_ROW_MAX
    {
        return false;
    }
    let in_row = |index: u32| {
        u64::from(index)
            .checked_sub(start)
            .is_some_and(|p| p < xs.len() as u64)
    };
    match heap.f32_lanes() {
        Some(Lanes::Columns(idx, val)) if idx.iter().all(|&i| in_row(i)) => {
            sort_columns(idx, val, start, xs, largest, Start::Kept);
        }
        Some(Lanes::Pairs(entries)) if entries.iter().all(|e| in_row(e.index)) => {
            sort_pairs(entries, start, xs, largest, Start::Kept);
        }
        _ => return false,
    }
    true
}

/// Whether [`keep_pooled`] serves an empty heap of `k` over a row of `len` values of `T`:
/// `f32` or `Reverse<f32>`, many kept (the radix sort's least, [`MIN_LEN`]), fewer than the
/// row holds, of a row whose positions fit a half word ([`PACKED_ROW_MAX`]), on a 64-bit
/// target ([`POOL_STACK`]) where the value lane may hold packed words ([`WORDS_IN_VALUES`]).
pub(super) fn pool_pays<T: TotalRank>(k: usize, len: usize) -> bool {
    POOL_STACK
        && WORDS_IN_VALUES
        && largest_first::<T>().is_some()
        && (MIN_LEN..len).contains(&k)
        && len <= PACKED_ROW_MAX
}

/// Whether the pool is used where it pays: on 64-bit targets. The pool runs inside the
/// scan's frames (which hold its sample's heap), and adds the cut's and the sort's counters
/// (1 KiB each, one at a time) to them: on a microcontroller that took `top_k_into` at
/// k = 1,024 to 5.9 KB of stack, where the fast footprint keeps every call within 2 KiB.
/// A 32-bit target (a microcontroller, wasm32) keeps the heap and the sort of its entries.
pub(crate) const POOL_STACK: bool = cfg!(target_pointer_width = "64");

/// Positions of a row put in the places of a storage of k entries, in the order they come:
/// the first k in the index lane, the next k in the value lane (as bits). The gather of
/// [`crate::heap::keep_pooled`].
pub(crate) struct Pool<'s> {
    lanes: Lanes<'s>,
    len: usize,
    /// A position came that did not fit.
    overflow: bool,
}

impl<'s> Pool<'s> {
    /// An empty pool in `lanes`.
    pub(super) fn new(lanes: Lanes<'s>) -> Self {
        Pool {
            lanes,
            len: 0,
            overflow: false,
        }
    }

    /// Puts position `p` after the others; returns `false`, and puts nothing, if the pool is
    /// full.
    #[inline(always)]
    pub(crate) fn push(&mut self, p: u32) -> bool {
        let j = self.len;
        let put = match &mut self.lanes {
            Lanes::Columns(idx, val) => put_in(&mut (&mut **idx, &mut **val), j, p),
            Lanes::Pairs(entries) => put_in(entries, j, p),
        };
        self.len += usize::from(put);
        self.overflow |= !put;
        put
    }

    /// Gives the pool up, as a pool that overflowed: a value that has no place in the order
    /// came, which the scan, not the pool, reports.
    pub(crate) fn give_up(&mut self) {
        self.overflow = true;
    }
}

/// Writes position `p` at place `j` of a pool over `perms`: lane [`A`] for the first k, then
/// lane [`B`]; returns whether there was room.
#[inline(always)]
fn put_in<P: Perms>(perms: &mut P, j: usize, p: u32) -> bool {
    let k = perms.places();
    match j.checked_sub(k) {
        None => perms.set::<A>(j, p),
        Some(j) if j < k => perms.set::<B>(j, p),
        Some(_) => return false,
    }
    true
}

/// The position at place `j` of a pool over `perms` of k places in each lane.
#[inline(always)]
fn pooled<P: Perms>(perms: &P, j: usize) -> Option<u32> {
    match j.checked_sub(perms.places()) {
        None => perms.get::<A>(j),
        Some(j) => perms.get::<B>(j),
    }
}

/// Leaves in the places of `pool` (a storage of k) the entries of the best k of its
/// positions in `values` (stream positions `start..`), sorted best first, and says whether it
/// did: when the pool holds at least k positions, all that came, of a row of `f32` (or
/// `Reverse<f32>`) of at most [`PACKED_ROW_MAX`]. The cut of the best k ([`Cut`]: one read of
/// the row by position to pack each under the high half of its key, then up to two counting
/// reads of the words, and up to two of those whose high half ties, with their low halves
/// read from the row), which keeps them in their order, then the passes by value of
/// [`permute_packed`]: the positions came in the row's order, so those stable passes leave
/// equal values by ascending position with no pass by position. O(c + k) for c positions,
/// with tables of 256 counters.
#[inline(never)]
pub(super) fn keep_pooled<T: TotalRank>(pool: Pool<'_>, start: u64, values: &[T]) -> bool {
    let Some((xs, largest)) = as_f32s(values) else {
        return false;
    };
    if pool.overflow || xs.len() > PACKED_ROW_MAX {
        return false;
    }
    let len = pool.len;
    match pool.lanes {
        Lanes::Columns(idx, val) => keep_pooled_in(&mut (idx, val), len, start, xs, largest),
        Lanes::Pairs(mut entries) => keep_pooled_in(&mut entries, len, start, xs, largest),
    }
}

/// [`keep_pooled`] of the `len` positions of a pool over `perms`.
fn keep_pooled_in<P: Perms>(
    perms: &mut P,
    len: usize,
    start: u64,
    xs: &[f32],
    largest: bool,
) -> bool {
    let k = perms.places();
    if len < k || k == 0 {
        return false;
    }
    // Each position packed under the high half of its key, and the least and greatest halves.
    let (mut least, mut most) = (u32::MAX, 0);
    for j in 0..len {
        if let Some(word) = pooled(perms, j) {
            let word = pack(position_key(xs, word, largest), 16, word);
            (least, most) = (least.min(word >> 16), most.max(word >> 16));
            // Place j < len <= 2k of the pool: there is room.
            let _ = put_in(perms, j, word);
        }
    }
    let high_half = |word: u32| (word >> 16).wrapping_sub(least);
    let words = || (0..len).filter_map(|j| pooled(perms, j));
    // The cut by the high halves, from the words alone; then, if it falls among keys that
    // share their high half, by the low halves of those, read from the row.
    let high = Cut::of(|| words().map(high_half), most - least, k);
    let low = match high.whole {
        true => None,
        false => Some(Cut::of(
            || {
                words()
                    .filter(|&word| high_half(word) == high.prefix)
                    .map(|word| position_key(xs, word, largest) & POSITION)
            },
            POSITION,
            high.ties,
        )),
    };
    // The best k to the first k places of lane A, in their order: each place is written
    // after the place it is read from, or in the other lane.
    let (mut kept, mut ties) = (0, 0);
    for j in 0..len {
        let Some(word) = pooled(perms, j) else {
            break;
        };
        let keep = match (high.side(high_half(word)), low) {
            (Side::Tie, Some(low)) => match low.side(position_key(xs, word, largest) & POSITION) {
                Side::Tie => {
                    ties += 1;
                    ties <= low.ties
                }
                side => side == Side::Kept,
            },
            (side, _) => side != Side::Dropped,
        };
        if keep {
            perms.set::<A>(kept, word);
            kept += 1;
            if kept == k {
                break;
            }
        }
    }
    let at = permute_packed(perms, k, xs, largest, Start::Pool);
    match at {
        A => write_out::<P, A>(perms, k, start, xs, POSITION),
        _ => write_out::<P, B>(perms, k, start, xs, POSITION),
    }
    true
}

/// The key of the position in `word`'s low half.
#[inline(always)]
fn position_key(xs: &[f32], word: u32, largest: bool) -> u32 {
    key(
        xs.get((word & POSITION) as usize).copied().unwrap_or(0.0),
        largest,
    )
}

/// Where the best of some keys end: those whose bits from `shift` up are below `prefix`
/// are kept and those above dropped; of those whose bits equal it, all if `whole`, else the
/// first `ties`.
#[derive(Clone, Copy)]
struct Cut {
    shift: u32,
    prefix: u32,
    ties: usize,
    whole: bool,
}

/// Which side of a [`Cut`] a key is on.
#[derive(Clone, Copy, PartialEq)]
enum Side {
    Kept,
    Tie,
    Dropped,
}

impl Cut {
    /// The cut of the best (least) `take` of `keys`, all at most `span`, `take` at most
    /// their number: from the highest bit of `span` down, eight bits at a time, the keys that
    /// share the bits found so far are counted by their next digit, and the digit where the
    /// `take`-th falls is taken, until the keys left to take are all of those that share the
    /// bits, or every bit is found. At most four reads of the keys, for 32 bits.
    fn of<I: Iterator<Item = u32>>(keys: impl Fn() -> I, span: u32, take: usize) -> Cut {
        let mut cut = Cut {
            shift: u32::BITS - span.leading_zeros(),
            prefix: 0,
            ties: take,
            whole: false,
        };
        // At most 2^17 keys (two lanes of a row shorter than 2^16): a `u32` counts them.
        let mut counts = [0_u32; RADIX];
        while cut.shift > 0 {
            let shift = cut.shift.saturating_sub(8);
            let width = cut.shift - shift;
            counts.fill(0);
            for key in keys().filter(|&key| cut.side(key) == Side::Tie) {
                let digit = (key >> shift) & ((1 << width) - 1);
                if let Some(count) = counts.get_mut(digit as usize) {
                    *count += 1;
                }
            }
            // The digit of the last one taken: past the buckets taken whole.
            let mut bucket = 0;
            while let Some(&count) = counts
                .get(bucket)
                .filter(|&&count| (count as usize) < cut.ties)
            {
                cut.ties -= count as usize;
                bucket += 1;
            }
            cut.prefix = cut.prefix << width | bucket as u32;
            cut.shift = shift;
            if counts.get(bucket).map(|&count| count as usize) == Some(cut.ties) {
                cut.whole = true;
                break;
            }
        }
        cut
    }

    /// The side of `key`.
    #[inline(always)]
    fn side(self, key: u32) -> Side {
        let high = key.checked_shr(self.shift).unwrap_or(0);
        match high.cmp(&self.prefix) {
            core::cmp::Ordering::Less => Side::Kept,
            core::cmp::Ordering::Equal if self.whole => Side::Kept,
            core::cmp::Ordering::Equal => Side::Tie,
            core::cmp::Ordering::Greater => Side::Dropped,
        }
    }
}

/// The longest row whose kept entries [`sort_kept`] sorts: 65,535 values (256 KiB of `f32`),
/// which stay in a core's second-level cache, where reading one again by its position (three
/// times an entry: to make the words of each half of its key, and to write it out) costs a
/// few nanoseconds. In a longer row each read may go to memory, and
/// the quicksort, which reads only the kept entries, is faster.
pub(super) const KEPT_ROW_MAX: usize = u16::MAX as usize;

/// The sort in caller buffers: compiled once whatever the storage, and linked only where a
/// storage has them. Never inlined: its counters (256 words) are in a frame of their own, not
/// beside a caller's.
#[inline(never)]
fn sort_columns(
    idx: &mut [u32],
    val: &mut [f32],
    start: u64,
    xs: &[f32],
    largest: bool,
    from: Start,
) {
    let len = idx.len().min(val.len());
    sort_in(&mut (idx, val), len, start, xs, largest, from);
}

/// The sort in an array of entries, as [`sort_columns`].
#[inline(never)]
fn sort_pairs(mut entries: &mut [Entry<f32>], start: u64, xs: &[f32], largest: bool, from: Start) {
    let len = entries.len();
    sort_in(&mut entries, len, start, xs, largest, from);
}

/// What the places of a radix sort hold when it starts.
#[derive(Clone, Copy)]
enum Start {
    /// The whole row, in its order (lane [`ROW`]).
    Row,
    /// Kept entries of the row, in any order: their stream indices in lane [`A`]. Equal values
    /// end by descending position.
    Kept,
    /// The best entries of the row, their positions in lane [`A`] in the row's order
    /// ([`keep_pooled`]): the passes by value, which are stable, leave equal values by
    /// ascending position, with no pass by position.
    Pool,
}

/// The sort of the first `len` places of `perms`, whose positions in `xs` (stream positions
/// `start..`) are as `from` says, by ascending `key(value, largest)`.
fn sort_in<P: Perms>(
    perms: &mut P,
    len: usize,
    start: u64,
    xs: &[f32],
    largest: bool,
    from: Start,
) {
    if matches!(from, Start::Kept) && start != 0 {
        // Stream indices to positions in the row, which the caller checked they are.
        for j in 0..len {
            if let Some(index) = perms.get::<A>(j) {
                perms.set::<A>(j, index.wrapping_sub(start as u32));
            }
        }
    }
    // Kept entries are of a row of at most `KEPT_ROW_MAX`, which fits, and are sorted only
    // where the words may be in the value lane.
    let packed = xs.len() <= PACKED_ROW_MAX || !matches!(from, Start::Row);
    let (at, mask) = if WORDS_IN_VALUES && packed {
        (permute_packed(perms, len, xs, largest, from), POSITION)
    } else {
        (permute_row(perms, len, xs, largest), u32::MAX)
    };
    match at {
        ROW => write_out::<P, ROW>(perms, len, start, xs, mask),
        A => write_out::<P, A>(perms, len, start, xs, mask),
        _ => write_out::<P, B>(perms, len, start, xs, mask),
    }
}

/// Writes at each of the first `len` places the entry of the position that lane `L` holds
/// there (its bits in `mask`), read before the entry is written.
fn write_out<P: Perms, const L: u8>(perms: &mut P, len: usize, start: u64, xs: &[f32], mask: u32) {
    for j in 0..len {
        let Some(p) = perms.get::<L>(j).map(|p| p & mask) else {
            break;
        };
        if let Some(&x) = xs.get(p as usize) {
            // `start + n` is at most `MAX_STREAM_LEN`: the index fits a `u32`.
            perms.put(j, x, (start + u64::from(p)) as u32);
        }
    }
}

/// The longest row whose positions fit the low half of a `u32` ([`POSITION`]), which
/// [`permute_packed`] sorts.
const PACKED_ROW_MAX: usize = u16::MAX as usize;

/// The bits of a packed word that hold the position.
const POSITION: u32 = 0xFFFF;

/// Whether the value lane of a storage may hold packed words, whose bits may be those of a
/// signalling NaN (a key's high half above a position): not on a 32-bit x86 without SSE2,
/// where an `f32` may be moved through the x87 unit, which may quiet it. There the packed
/// passes and the pool are not used: a whole row is sorted by the passes that read each value
/// from the row (which keep positions below 2^16 in the value lane, never a NaN's bits), kept
/// entries by the quicksort.
const WORDS_IN_VALUES: bool = !cfg!(all(target_arch = "x86", not(target_feature = "sse2")));

/// The passes of the radix sort on words that hold a position in their low half and half of
/// its value's key above it, so that a pass reads its digit from the word, with no read of
/// the row: the low half of the keys first, then the high half (each read from the row once,
/// when the words are made, where the digits of the next two passes are counted too), two
/// passes each. The passes by position, from kept entries in the heap's order
/// ([`Start::Kept`]), are passes by the low half, complemented. A row of at most
/// [`PACKED_ROW_MAX`] values. Returns the lane that holds the sorted words.
fn permute_packed<P: Perms>(
    perms: &mut P,
    len: usize,
    xs: &[f32],
    largest: bool,
    from: Start,
) -> u8 {
    // The counts of the two digits of the half that the next two passes sort by, in half
    // words (a row of at most `PACKED_ROW_MAX = u16::MAX` values): 1 KiB, so that the fast
    // footprint's stack stays within its bar on a microcontroller.
    let mut counts = [[0_u16; RADIX]; 2];
    let mut at = A;
    match from {
        Start::Row => {
            for (j, &x) in (0..len).zip(xs) {
                let word = pack(key(x, largest), 0, j as u32);
                tally(&mut counts, word, 0);
                perms.set::<A>(j, word);
            }
        }
        Start::Kept => {
            for j in 0..len {
                if let Some(word) = perms.get::<A>(j) {
                    tally(&mut counts, word, POSITION);
                }
            }
            at = word_passes(perms, len, at, &mut counts, POSITION);
            at = repack(perms, len, at, xs, largest, 0, &mut counts);
        }
        Start::Pool => at = repack(perms, len, at, xs, largest, 0, &mut counts),
    }
    at = word_passes(perms, len, at, &mut counts, 0);
    at = repack(perms, len, at, xs, largest, 16, &mut counts);
    word_passes(perms, len, at, &mut counts, 0)
}

/// The word of position `p` whose key is `key`: the half of the key at `half` above `p`.
#[inline(always)]
fn pack(key: u32, half: u32, p: u32) -> u32 {
    (key >> half) << 16 | (p & POSITION)
}

/// The digit of a word for the pass at `shift`, its bits in `flip` complemented: the
/// passes by position sort the low half, complemented, and those by value the high half.
#[inline(always)]
fn word_digit(word: u32, flip: u32, shift: u32) -> usize {
    digit(word ^ flip, shift)
}

/// The shifts of the two passes over the half that `flip` names: the low half (the position)
/// if it complements it, else the high half (the key's).
#[inline(always)]
fn word_shifts(flip: u32) -> [u32; 2] {
    if flip == POSITION {
        [0, 8]
    } else {
        [16, 24]
    }
}

/// Adds `word`'s two digits of the half that `flip` names ([`word_shifts`]) to `counts`.
#[inline(always)]
fn tally(counts: &mut [[u16; RADIX]; 2], word: u32, flip: u32) {
    for (counts, shift) in counts.iter_mut().zip(word_shifts(flip)) {
        if let Some(count) = counts.get_mut(word_digit(word, flip, shift)) {
            *count = count.wrapping_add(1);
        }
    }
}

/// The two passes over the half that `flip` names of the first `len` words of lane `at`,
/// whose digits `counts` holds, each to the other lane (skipped if every word has one
/// digit); returns the lane that holds the words after them, and leaves `counts` zero.
/// `len` is at most `u16::MAX`: no count or start overflows.
fn word_passes<P: Perms>(
    perms: &mut P,
    len: usize,
    mut at: u8,
    counts: &mut [[u16; RADIX]; 2],
    flip: u32,
) -> u8 {
    for (counts, shift) in counts.iter_mut().zip(word_shifts(flip)) {
        if !counts.iter().any(|&count| usize::from(count) == len) {
            // Where each digit's words start.
            let mut sum = 0_u16;
            for count in counts.iter_mut() {
                (*count, sum) = (sum, sum.wrapping_add(*count));
            }
            at = match at {
                A => scatter_words::<P, A, B>(perms, len, counts, flip, shift),
                _ => scatter_words::<P, B, A>(perms, len, counts, flip, shift),
            };
        }
        counts.fill(0);
    }
    at
}

/// One pass: the first `len` words of lane `FROM`, in order, to lane `TO` by their digit at
/// `shift` ([`word_digit`]), each digit's from its start in `starts`; returns `TO`.
#[inline(always)]
fn scatter_words<P: Perms, const FROM: u8, const TO: u8>(
    perms: &mut P,
    len: usize,
    starts: &mut [u16; RADIX],
    flip: u32,
    shift: u32,
) -> u8 {
    for j in 0..len {
        let Some(word) = perms.get::<FROM>(j) else {
            break;
        };
        let Some(slot) = starts.get_mut(word_digit(word, flip, shift)) else {
            break;
        };
        perms.set::<TO>(usize::from(*slot), word);
        *slot = slot.wrapping_add(1);
    }
    TO
}

/// Makes again each of the first `len` words of lane `at`: the half at `half` of its
/// position's key above its position, its digits counted in `counts`; returns `at`.
fn repack<P: Perms>(
    perms: &mut P,
    len: usize,
    at: u8,
    xs: &[f32],
    largest: bool,
    half: u32,
    counts: &mut [[u16; RADIX]; 2],
) -> u8 {
    match at {
        A => repack_in::<P, A>(perms, len, xs, largest, half, counts),
        _ => repack_in::<P, B>(perms, len, xs, largest, half, counts),
    }
    at
}

/// [`repack`] in lane `L`.
#[inline(always)]
fn repack_in<P: Perms, const L: u8>(
    perms: &mut P,
    len: usize,
    xs: &[f32],
    largest: bool,
    half: u32,
    counts: &mut [[u16; RADIX]; 2],
) {
    for j in 0..len {
        let Some(word) = perms.get::<L>(j) else {
            break;
        };
        let word = pack(position_key(xs, word, largest), half, word);
        tally(counts, word, 0);
        perms.set::<L>(j, word);
    }
}

/// The passes of a row too long for [`permute_packed`], from its own order ([`ROW`], `len`
/// its length): four by the values' keys, each value read from the row by its position;
/// returns the lane that holds the sorted permutation (the row's own if every pass was
/// skipped). A pass whose digit is the same for every entry would keep the order, and is
/// skipped.
fn permute_row<P: Perms>(perms: &mut P, len: usize, xs: &[f32], largest: bool) -> u8 {
    let mut counts = [0_usize; RADIX];
    let mut at = ROW;
    for shift in [0, 8, 16, 24] {
        let by_value = Digit { xs, largest, shift };
        // The counts do not depend on the order: a whole row is counted in its own.
        let first = count(
            xs.iter().map(|&x| digit(key(x, largest), shift)),
            &mut counts,
        );
        at = pass(perms, len, at, first, &mut counts, by_value);
    }
    at
}

const _: () = assert!(
    KEPT_ROW_MAX <= PACKED_ROW_MAX,
    "the positions of kept entries fit a half word"
);

/// The digit a pass sorts a position by: its value's in `xs`, of the key by `largest`, at
/// `shift`.
#[derive(Clone, Copy)]
struct Digit<'a> {
    xs: &'a [f32],
    largest: bool,
    shift: u32,
}

impl Digit<'_> {
    /// The digit of position `p`; `None` for a position beyond the row.
    #[inline(always)]
    fn of(self, p: u32) -> Option<usize> {
        let x = *self.xs.get(p as usize)?;
        Some(digit(key(x, self.largest), self.shift))
    }
}

/// One pass by `digit` of a position, from lane `at`, whose digits `counts` holds (`first`
/// the digit of the first place); returns the lane that holds the permutation after it (`at`
/// if the pass is skipped: every digit the same).
#[inline(always)]
fn pass<P: Perms>(
    perms: &mut P,
    len: usize,
    at: u8,
    first: Option<usize>,
    counts: &mut [usize; RADIX],
    digit: Digit<'_>,
) -> u8 {
    if first.is_some_and(|first| counts.get(first) == Some(&len)) {
        return at;
    }
    starts_from_counts(counts);
    match at {
        ROW => scatter::<P, ROW, A>(perms, len, counts, digit),
        A => scatter::<P, A, B>(perms, len, counts, digit),
        _ => scatter::<P, B, A>(perms, len, counts, digit),
    }
}

/// Makes each digit's count the place where that digit's entries start.
#[inline(always)]
fn starts_from_counts(counts: &mut [usize; RADIX]) {
    let mut sum = 0;
    for count in counts.iter_mut() {
        (*count, sum) = (sum, sum + *count);
    }
}

/// Counts the `digits` in `counts`, from zero; returns the first.
#[inline(always)]
fn count(mut digits: impl Iterator<Item = usize>, counts: &mut [usize; RADIX]) -> Option<usize> {
    counts.fill(0);
    let first = digits.next();
    let mut add = |digit: usize| {
        if let Some(count) = counts.get_mut(digit) {
            *count += 1;
        }
    };
    first.map(&mut add);
    digits.for_each(add);
    first
}

/// One pass: the positions of the first `len` places of lane `FROM`, in order, to lane `TO`
/// by their digit, each digit's from its start in `starts`; returns `TO`.
#[inline(always)]
fn scatter<P: Perms, const FROM: u8, const TO: u8>(
    perms: &mut P,
    len: usize,
    starts: &mut [usize; RADIX],
    digit: Digit<'_>,
) -> u8 {
    for j in 0..len {
        let Some(p) = perms.get::<FROM>(j) else {
            break;
        };
        let Some(slot) = digit.of(p).and_then(|digit| starts.get_mut(digit)) else {
            break;
        };
        perms.set::<TO>(*slot, p);
        *slot += 1;
    }
    TO
}

/// Ranges of fewer entries than this are left to the quicksort: below it a spread's passes
/// and its tables cost about what they save (spreading buckets of 128 again was slower than
/// their quicksorts on a sawtooth row at k = 4,096).
const SPREAD_MIN: usize = 512;

/// A spread is made only if it saves the quicksort at least this many levels of comparisons
/// an entry, on average: about what its permutation costs (measured: about 7 ns an entry,
/// where a level of the quicksort costs about 1.5 ns an entry).
const SAVED_LEVELS: usize = 5;

/// The bucket of an entry in a spread: the leading eight bits, below those that every entry
/// of the range shares, of its key in the best-first order (`(key - low) >> shift`, less
/// than [`RADIX`]; below or above a narrowed range, the first or the last bucket). The key
/// is the value's monotone key (`key`) above the index, so that equal values are spread by
/// their indices.
#[derive(Clone, Copy, Debug)]
pub(super) struct Digits {
    low: u64,
    shift: u32,
    largest: bool,
}

/// The key of an entry: ascending in the best-first order, and distinct for distinct indices.
#[inline]
fn entry_key(x: f32, index: u32, largest: bool) -> u64 {
    u64::from(key(x, largest)) << 32 | u64::from(index)
}

impl Digits {
    /// The digits of the keys `low..=high`: `None` if they are one key.
    fn over(low: u64, high: u64, largest: bool) -> Option<Self> {
        let span = high.checked_sub(low).filter(|&span| span > 0)?;
        let bits = u64::BITS - span.leading_zeros();
        Some(Digits {
            low,
            shift: bits.saturating_sub(RADIX.trailing_zeros()),
            largest,
        })
    }

    /// The bucket of the entry `(x, index)`: ascending in the best-first order; a key below
    /// the range's goes to the first bucket, one above it to the last.
    #[inline]
    fn of(self, x: f32, index: u32) -> usize {
        let above = entry_key(x, index, self.largest).saturating_sub(self.low);
        (above >> self.shift).min(RADIX as u64 - 1) as usize
    }
}

/// Whether the best values of `T` are the largest (`f32`) or the smallest (`Reverse<f32>`);
/// `None` for any other value type.
fn largest_first<T: TotalRank>() -> Option<bool> {
    as_f32s::<T>(&[]).map(|(_, largest)| largest)
}

/// Spreads the kept entries at `lo..hi` (in any order) of an `f32` storage into [`RADIX`]
/// buckets by their [`Digits`], the buckets in best-first order: one pass for the keys'
/// range, one to count each bucket (and two more for each narrowing of a clustered range),
/// and a permutation in place that moves each entry once (American flag sort), with two
/// tables of 256 `u16` on the stack. What is left is to sort each bucket, which
/// [`bucket_end`] finds. The range's least and greatest keys (of the narrowed range, if it
/// is) fall in different buckets, so every bucket is shorter than the range, and a bucket
/// between the first and the last spans at least 8 bits fewer of keys. Returns `None`, having moved nothing, for another value
/// type, a storage that lends no places, a range of fewer than [`SPREAD_MIN`] or more than
/// `u16::MAX` entries, or buckets that would save the quicksort fewer than [`SAVED_LEVELS`]
/// levels an entry (keys in clusters, a few distinct values).
#[inline]
pub(super) fn spread<S: Storage>(heap: &mut S, lo: usize, hi: usize) -> Option<Digits> {
    let largest = largest_first::<S::Value>()?;
    // The capacity first: a `TopK<f32, K>` with a small `K` compiles none of the spread.
    let len = hi.checked_sub(lo)?;
    if heap.capacity() < SPREAD_MIN || !(SPREAD_MIN..=usize::from(u16::MAX)).contains(&len) {
        return None;
    }
    match heap.f32_lanes()? {
        Lanes::Columns(idx, val) => {
            spread_columns(idx.get_mut(lo..hi)?, val.get_mut(lo..hi)?, largest)
        }
        Lanes::Pairs(entries) => spread_pairs(entries.get_mut(lo..hi)?, largest),
    }
}

/// The end of the bucket of [`spread`] that starts at `lo`, within `..hi`: past the entries
/// from `lo` on whose digit is that of the entry at `lo`; at least `lo + 1`, and `hi` if
/// the storage lends no places.
#[inline]
pub(super) fn bucket_end<S: Storage>(heap: &mut S, lo: usize, hi: usize, digits: Digits) -> usize {
    let run = match heap.f32_lanes() {
        Some(Lanes::Columns(idx, val)) => match (val.get(lo..hi), idx.get(lo..hi)) {
            (Some(val), Some(idx)) => run_len(val.iter().copied().zip(idx.iter().copied()), digits),
            _ => None,
        },
        // Not `Perms::get`, which this type has too.
        Some(Lanes::Pairs(entries)) => <[Entry<f32>]>::get(entries, lo..hi)
            .and_then(|entries| run_len(entries.iter().map(|e| (e.value, e.index)), digits)),
        None => None,
    };
    run.map_or(hi, |run| lo + run).max(lo + 1)
}

/// The length of the run of entries of one digit at the start of `entries`.
fn run_len(mut entries: impl Iterator<Item = (f32, u32)>, digits: Digits) -> Option<usize> {
    let (x, i) = entries.next()?;
    let first = digits.of(x, i);
    Some(
        1 + entries
            .take_while(|&(x, i)| digits.of(x, i) == first)
            .count(),
    )
}

/// [`spread`] in caller buffers. Never inlined, so that its tables are in a frame of their own,
/// gone before the buckets are sorted.
#[inline(never)]
fn spread_columns(idx: &mut [u32], val: &mut [f32], largest: bool) -> Option<Digits> {
    let len = idx.len().min(val.len());
    spread_in(&mut (idx, val), len, largest)
}

/// [`spread`] in an array of entries, as [`spread_columns`].
#[inline(never)]
fn spread_pairs(mut entries: &mut [Entry<f32>], largest: bool) -> Option<Digits> {
    let len = entries.len();
    spread_in(&mut entries, len, largest)
}

/// [`spread`] in the first `len` places of `perms` (the index lane [`A`], the value lane
/// [`B`]), all kept entries.
fn spread_in<P: Perms>(perms: &mut P, len: usize, largest: bool) -> Option<Digits> {
    let (mut low, mut high) = (u64::MAX, 0);
    for j in 0..len {
        let k = entry_at(perms, j).map_or(low, |(x, i)| entry_key(x, i, largest));
        (low, high) = (low.min(k), high.max(k));
    }
    let mut digits = Digits::over(low, high, largest)?;
    // Counts, then where each bucket ends and where its next entry goes. At most `u16::MAX`
    // entries: no sum overflows.
    let mut ends = [0_u16; RADIX];
    loop {
        ends.fill(0);
        for j in 0..len {
            if let Some(end) = entry_at(perms, j).and_then(|(x, i)| ends.get_mut(digits.of(x, i))) {
                *end += 1;
            }
        }
        // Keys in a cluster with a few far from it (logits beside many -inf, which tie and
        // differ by their index only): the range is narrowed to the bucket that holds more
        // than 7/8 of them, those outside it going to the first or the last bucket. A
        // narrowed range is taken only if its digits are finer (a smaller shift): the first or
        // the last bucket of a narrowed range also holds the keys beyond it, so the cluster
        // found there may be as wide as a range before, and two ranges could take turns.
        // The shift falls each time: at most 56 rounds, in practice one or two.
        let (cluster, most) = (0..RADIX)
            .zip(ends)
            .max_by_key(|&(_, count)| count)
            .unwrap_or((0, 0));
        if usize::from(most) <= len - len / 8 || digits.shift == 0 {
            break;
        }
        let (mut low, mut high) = (u64::MAX, 0);
        for j in 0..len {
            if let Some((x, i)) = entry_at(perms, j).filter(|&(x, i)| digits.of(x, i) == cluster) {
                let k = entry_key(x, i, largest);
                (low, high) = (low.min(k), high.max(k));
            }
        }
        match Digits::over(low, high, largest) {
            Some(narrowed) if narrowed.shift < digits.shift => digits = narrowed,
            _ => break,
        }
    }
    // The quicksort that would be left: about c·log2(c) comparisons in a bucket of c, against
    // k·log2(k) for the whole range. Keys in clusters that the buckets do not split (a
    // sawtooth's teeth) leave buckets too large for the permutation (a chain of dependent
    // loads, the spread's main cost) to pay: the range goes to the quicksort. Nothing has
    // moved.
    let levels = |count: usize| count.checked_ilog2().unwrap_or(0) as usize;
    let left: usize = ends
        .iter()
        .map(|&c| usize::from(c) * levels(usize::from(c)))
        .sum();
    if left + SAVED_LEVELS * len > len * levels(len) {
        return None;
    }
    let mut next = [0_u16; RADIX];
    let mut sum = 0_u16;
    for (next, end) in next.iter_mut().zip(&mut ends) {
        (*next, sum) = (sum, sum.wrapping_add(*end));
        *end = sum;
    }
    // Each bucket in turn takes its entries from the places after it, by cycles: the entry
    // taken out of place `i` goes to the next free place of its bucket, whose entry is placed
    // next, until one belongs at `i`. Each place is written once, when its entry arrives.
    for bucket in 0..RADIX {
        let end = ends.get(bucket).copied().unwrap_or(0);
        while let Some(&at) = next.get(bucket).filter(|&&at| at < end) {
            let i = usize::from(at);
            let Some(mut held) = entry_at(perms, i) else {
                break;
            };
            loop {
                let digit = digits.of(held.0, held.1);
                if digit == bucket {
                    break;
                }
                let (Some(slot), Some(&end)) = (next.get_mut(digit), ends.get(digit)) else {
                    break;
                };
                // The counts hold: a bucket with an entry outside it has a free place.
                if *slot >= end {
                    break;
                }
                let j = usize::from(*slot);
                *slot += 1;
                let Some(displaced) = entry_at(perms, j) else {
                    break;
                };
                perms.put(j, held.0, held.1);
                held = displaced;
            }
            perms.put(i, held.0, held.1);
            if let Some(slot) = next.get_mut(bucket) {
                *slot += 1;
            }
        }
    }
    Some(digits)
}

/// The most kept entries that [`by_key`] sorts at once: 4,096 (32 KB of stack for its
/// buffer) where the stack is a host's ([`crate::HOST_STACK`]), none elsewhere (a
/// microcontroller, wasm32, a kernel), where the final sort keeps to its place.
pub(super) const PASSES_MAX: usize = if crate::HOST_STACK { 4096 } else { 0 };

/// The buffer of a range of at most this many entries, 4 KB, and not [`PASSES_MAX`]: setting
/// up 32 KB costs about 0.5 µs, a tenth of a sort of 512 entries, and each length is a frame
/// of its own ([`by_key_in`]), so a short range touches 4 KB of stack.
const PASSES_SHORT: usize = 512;

/// Ranges of fewer kept entries than this are left to the quicksort: below it the passes'
/// tables and the buffer's set-up (about 0.7 µs in all) cost about what they save. Timed in a
/// loop, `into_sorted` of a `TopK<f32, K>` holding the best of normal logits, the quicksort
/// (and the spread from 512) against the passes: K = 50 0.72 and 0.75 µs, 64 0.92 and 0.88,
/// 96 1.6 and 1.1, 128 2.3 and 1.4, 200 3.7 and 2.0, 1,000 18.6 and 9.3 to 11, 4,096 117
/// and 48.
pub(super) const PASSES_MIN: usize = 64;

/// Sorts the kept entries at `lo..hi` (in any order) of an `f32` storage best first by value
/// (`BY_INDEX` false) or by ascending index (`BY_INDEX`: a run of equal values), by a
/// least-significant-digit radix sort through a buffer on the stack: one read for the digits
/// of the key that differ, and for each of them (four at most) a count and a stable scatter
/// between the storage and the buffer: O(len) whatever the keys. By value, equal values stay
/// in the order they came in: the caller then orders each run of them by index. Returns
/// `false`, having moved nothing, for another value type, a storage that lends no places, or
/// a range outside [`PASSES_MIN`]`..=`[`PASSES_MAX`].
#[inline]
pub(super) fn by_key<S: Storage, const BY_INDEX: bool>(heap: &mut S, lo: usize, hi: usize) -> bool {
    // The target and the capacity first: on a target without the buffer, and for a
    // `TopK<f32, K>` with a small `K`, none of the passes is compiled.
    if !crate::HOST_STACK || heap.capacity() < PASSES_MIN {
        return false;
    }
    let Some(len) = hi
        .checked_sub(lo)
        .filter(|len| (PASSES_MIN..=PASSES_MAX).contains(len))
    else {
        return false;
    };
    let Some(largest) = largest_first::<S::Value>() else {
        return false;
    };
    let key = Key::<BY_INDEX> { largest };
    match heap.f32_lanes() {
        Some(Lanes::Columns(idx, val)) => match (idx.get_mut(lo..hi), val.get_mut(lo..hi)) {
            (Some(idx), Some(val)) => by_key_of(&mut (idx, val), len, key),
            _ => false,
        },
        Some(Lanes::Pairs(entries)) => entries
            .get_mut(lo..hi)
            .is_some_and(|mut entries| by_key_of(&mut entries, len, key)),
        None => false,
    }
}

/// [`by_key`] of the first `len` places of `perms`, with the buffer of the range's length
/// ([`PASSES_SHORT`]).
fn by_key_of<P: Perms, const BY_INDEX: bool>(
    perms: &mut P,
    len: usize,
    key: Key<BY_INDEX>,
) -> bool {
    if len <= PASSES_SHORT {
        by_key_in::<_, PASSES_SHORT, BY_INDEX>(perms, len, key)
    } else {
        by_key_in::<_, PASSES_MAX, BY_INDEX>(perms, len, key)
    }
}

/// The key of [`by_key`]'s passes: the index (`BY_INDEX`), or a key of the value whose
/// ascending order is the best-first order, as [`key`], but one to one: `-0.0` next to
/// `0.0`, where they tie ([`by_key`]'s caller orders runs of equal values by index).
#[derive(Clone, Copy)]
struct Key<const BY_INDEX: bool> {
    largest: bool,
}

impl<const BY_INDEX: bool> Key<BY_INDEX> {
    /// The key of the entry `(value, index)`.
    #[inline(always)]
    fn of(self, value: f32, index: u32) -> u32 {
        if BY_INDEX {
            index
        } else {
            ordered_bits(value.to_bits(), self.largest)
        }
    }
}

/// The entry at place `j` of `perms`, as `(value, index)`.
#[inline(always)]
fn entry_at<P: Perms>(perms: &P, j: usize) -> Option<(f32, u32)> {
    Some((f32::from_bits(perms.get::<B>(j)?), perms.get::<A>(j)?))
}

/// [`by_key`] of the first `len` places of `perms` (at most `N`) with a buffer of `N`
/// entries: the passes go from `perms` to the buffer and back in turn, and an odd number of
/// them leaves a copy to make. Never inlined, so that the buffer is in a frame of its own (one
/// for each `N`: inlined side by side, the two buffers made one frame of 33 KB for any
/// length), gone when the call returns.
#[inline(never)]
fn by_key_in<P: Perms, const N: usize, const BY_INDEX: bool>(
    perms: &mut P,
    len: usize,
    key: Key<BY_INDEX>,
) -> bool {
    let mut buffer = [Entry {
        value: 0.0_f32,
        index: 0,
    }; N];
    let Some(mut buffer) = buffer.get_mut(..len) else {
        return false;
    };
    // The digits that differ between entries: the others would be passes that move nothing.
    let (any, all) = (0..len)
        .filter_map(|j| entry_at(perms, j))
        .map(|(value, index)| key.of(value, index))
        .fold((0, u32::MAX), |(any, all), key| (any | key, all & key));
    let mut in_buffer = false;
    for shift in [0, 8, 16, 24] {
        if digit(any ^ all, shift) == 0 {
            continue;
        }
        let mut starts = [0; RADIX];
        if in_buffer {
            count_digits(&buffer, len, &mut starts, shift, key);
            scatter_entries(&buffer, perms, len, &mut starts, shift, key);
        } else {
            count_digits(perms, len, &mut starts, shift, key);
            scatter_entries(perms, &mut buffer, len, &mut starts, shift, key);
        }
        in_buffer = !in_buffer;
    }
    if in_buffer {
        for (j, entry) in buffer.iter().enumerate() {
            perms.put(j, entry.value, entry.index);
        }
    }
    true
}

/// Counts the digits at `shift` of the first `len` places' keys ([`count`]), then makes each
/// count the place where that digit's entries start.
#[inline(always)]
fn count_digits<P: Perms, const BY_INDEX: bool>(
    perms: &P,
    len: usize,
    starts: &mut [usize; RADIX],
    shift: u32,
    key: Key<BY_INDEX>,
) {
    let keys = (0..len).filter_map(|j| entry_at(perms, j));
    count(
        keys.map(|(value, index)| digit(key.of(value, index), shift)),
        starts,
    );
    starts_from_counts(starts);
}

/// One pass: the entries of the first `len` places of `from`, in order, to `to` by the digit
/// at `shift` of their key, each digit's from its start in `starts`.
#[inline(always)]
fn scatter_entries<F: Perms, T: Perms, const BY_INDEX: bool>(
    from: &F,
    to: &mut T,
    len: usize,
    starts: &mut [usize; RADIX],
    shift: u32,
    key: Key<BY_INDEX>,
) {
    for j in 0..len {
        let Some((value, index)) = entry_at(from, j) else {
            break;
        };
        let Some(slot) = starts.get_mut(digit(key.of(value, index), shift)) else {
            break;
        };
        to.put(*slot, value, index);
        *slot += 1;
    }
}

#[cfg(test)]
mod tests {
    use std::vec::Vec;

    use super::*;

    #[test]
    fn the_key_orders_as_the_values() {
        let xs = [
            f32::NEG_INFINITY,
            f32::MIN,
            -1.0,
            -f32::MIN_POSITIVE,
            -1e-45,
            0.0,
            1e-45,
            f32::MIN_POSITIVE,
            1.0,
            f32::MAX,
            f32::INFINITY,
        ];
        for w in xs.windows(2) {
            assert!(key(w[0], false) < key(w[1], false), "{w:?}");
            assert!(key(w[0], true) > key(w[1], true), "{w:?}");
        }
        assert_eq!(key(-0.0, true), key(0.0, true));
        assert_eq!(key(-0.0, false), key(0.0, false));
    }

    /// The permutation is the sort by key, then position, on random bits (every digit of the
    /// key differs) with repeats, and on values that share their high digits (skipped passes).
    #[test]
    fn the_permutation_is_the_sort_by_key_then_position() {
        let mut rng = crate::testing::data::Rng(0x9E37_79B9);
        let mut next = move || rng.next_u64() as u32;
        // Under Miri (slow) fewer values: every pass and digit is still reached.
        let len = if cfg!(miri) { 240 } else { 700 };
        let random: Vec<f32> = (0..len)
            .map(|_| f32::from_bits(next()))
            .filter(|x| !x.is_nan())
            .collect();
        let repeats: Vec<f32> = (0..len).map(|i| random[i % 50]).collect();
        let close: Vec<f32> = (0..len)
            .map(|_| 1.0 + (next() % 256) as f32 / 1024.0)
            .collect();
        for xs in [random, repeats, close] {
            check_permutation(&xs);
        }
    }

    /// The permutation of the whole row, from its order, is the sort by key, then position,
    /// by the passes of a long row and by the packed ones; of some of its positions (every
    /// third, in a scrambled order) from the index lane, by key, then descending position;
    /// of the same positions in ascending order (a pool's), by key, then position.
    fn check_permutation(xs: &[f32]) {
        let n = xs.len();
        let mut kept: Vec<u32> = (0..n as u32).step_by(3).collect();
        let pool = kept.clone();
        kept.sort_by_key(|p| p.wrapping_mul(0x9E37_79B9));
        let whole: Vec<u32> = (0..n as u32).collect();
        for largest in [true, false] {
            let starts = [
                (Start::Row, &whole, false),
                (Start::Row, &whole, true),
                (Start::Kept, &kept, true),
                (Start::Pool, &pool, true),
            ];
            for (from, positions, packed) in starts {
                let len = positions.len();
                let (mut a, mut b) = (positions.clone(), std::vec![0.0_f32; len]);
                let mut perms = (&mut a[..], &mut b[..]);
                let (at, mask) = match packed {
                    true => (permute_packed(&mut perms, len, xs, largest, from), POSITION),
                    false => (permute_row(&mut perms, len, xs, largest), u32::MAX),
                };
                let order: Vec<u32> = (0..len)
                    .map(|j| match at {
                        ROW => perms.get::<ROW>(j),
                        A => perms.get::<A>(j),
                        _ => perms.get::<B>(j),
                    })
                    .map(|p| p.unwrap() & mask)
                    .collect();
                let mut expected = positions.clone();
                match from {
                    Start::Kept => expected.sort_by_key(|&p| (key(xs[p as usize], largest), !p)),
                    Start::Row | Start::Pool => {
                        expected.sort_by_key(|&p| (key(xs[p as usize], largest), p))
                    }
                }
                assert_eq!(
                    order, expected,
                    "largest {largest}, {len} places, packed {packed}"
                );
            }
        }
    }

    /// Rows for the spread: spread-out values, values that share their high bits, few
    /// distinct values and both zeros, infinities beside finite values (one wide bucket),
    /// subnormals, one value far from the others, mostly -inf, and all equal.
    fn spread_rows() -> Vec<(Vec<f32>, bool)> {
        let mut rng = crate::testing::data::Rng(0x2545_F491);
        let mut next = move || rng.next_u64() as u32;
        // Under Miri (slow) the least range that spreads.
        let len = if cfg!(miri) { SPREAD_MIN } else { 1000 };
        let edges = [
            0.0,
            -0.0,
            1.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            1e-45,
        ];
        let random = (0..len)
            .map(|_| f32::from_bits(next() & 0xBFFF_FFFF))
            .collect();
        let close = (0..len)
            .map(|_| 1.0 + (next() % 4096) as f32 / 8192.0)
            .collect();
        // Few distinct values: each would crowd a bucket, so the quicksort takes them.
        let few_edges = (0..len)
            .map(|_| edges[next() as usize % edges.len()])
            .collect();
        let three = (0..len)
            .map(|_| [0.0, -0.0, 2.0][next() as usize % 3])
            .collect();
        let subnormal = (0..len).map(|_| f32::from_bits(next() % 4096)).collect();
        // Small integers and one far value: narrowed to the integers, whose keys crowd by
        // octave (64 to 99 share one bucket), so the quicksort takes them too.
        let mut outlier: Vec<f32> = (0..len).map(|_| (next() % 100) as f32).collect();
        outlier[len / 2] = 1e30;
        // Mostly -inf (masked logits): equal values spread by their indices.
        let masked = (0..len)
            .map(|_| match next() % 25 {
                0 => (next() % 999) as f32 / 9.0,
                _ => f32::NEG_INFINITY,
            })
            .collect();
        // Two values one step apart and a third far below (reported by a review): narrowing
        // to the first two, then to the upper one and the far one, then back, took turns
        // for ever before a narrowed range had to be finer than the last.
        let turns: Vec<f32> = (0..len)
            .map(|i| match i * 20 / len {
                0..=17 => 1.0,
                18 => f32::from_bits(0x3F80_0001),
                _ => -1.0,
            })
            .collect();
        let rows = std::vec![
            (turns, false),
            (random, true),
            (close, true),
            (few_edges, false),
            (three, false),
            (subnormal, true),
            (outlier, false),
            (masked, true),
            (std::vec![3.5; len], true),
        ];
        // Under Miri: the one that took turns, one row that spreads, one given up, one narrowed.
        let miri = [0, 1, 3, 7];
        (0..)
            .zip(rows)
            .filter(|(i, _)| !cfg!(miri) || miri.contains(i))
            .map(|(_, row)| row)
            .collect()
    }

    /// After a spread the buckets are in order and hold the same entries; the sort through
    /// the spread (both lanes, largest and smallest first) is the oracle's.
    #[test]
    fn the_spread_keeps_the_entries_and_orders_the_buckets() {
        use crate::heap::storage::{Limited, Reversed, Slices};
        use crate::testing::oracle;
        let bits = |e: &[Entry<f32>]| -> Vec<(u32, u32)> {
            e.iter().map(|e| (e.index, e.value.to_bits())).collect()
        };
        for (row, spreads) in spread_rows() {
            let n = row.len();
            // Caller buffers, in a scrambled order (a heap's is neither sorted nor random).
            let order: Vec<u32> = (0..n as u32).map(|i| (i * 7 + 3) % n as u32).collect();
            let (mut idx, mut val) = (std::vec![0; n], std::vec![0.0; n]);
            let mut columns = Slices::new(&mut idx, &mut val).unwrap();
            for &i in &order {
                columns.append(Entry {
                    value: row[i as usize],
                    index: i,
                });
            }
            let digits = spread(&mut columns, 0, n);
            assert_eq!(digits.is_some(), spreads, "{row:?}");
            let (idx, val) = columns.into_kept();
            if digits.is_none() {
                // Given up: nothing moved.
                assert!(idx.iter().zip(&order).all(|(a, b)| a == b), "moved");
            }
            if let Some(digits) = digits {
                let d: Vec<usize> = val
                    .iter()
                    .zip(idx.iter())
                    .map(|(&x, &i)| digits.of(x, i))
                    .collect();
                assert!(d.first() < d.last(), "one bucket");
                assert!(d.windows(2).all(|w| w[0] <= w[1]), "buckets out of order");
                assert!(d.iter().all(|&d| d < RADIX));
                let mut moved: Vec<(u32, u32)> = idx
                    .iter()
                    .zip(val.iter())
                    .map(|(&i, v)| (i, v.to_bits()))
                    .collect();
                moved.sort_unstable();
                let mut kept: Vec<(u32, u32)> = (0..n as u32)
                    .map(|i| (i, row[i as usize].to_bits()))
                    .collect();
                kept.sort_unstable();
                assert_eq!(moved, kept, "the spread lost or made entries");
            }
            // Through the sort: columns, an array of entries, and the smallest first.
            let want = oracle(&row, n).unwrap();
            let (mut idx, mut val) = (std::vec![0; n], std::vec![0.0; n]);
            let mut columns = Slices::new(&mut idx, &mut val).unwrap();
            let mut pairs = Limited::<f32, 1000>::new(n);
            for &i in &order {
                columns.append(Entry {
                    value: row[i as usize],
                    index: i,
                });
                pairs.append(Entry {
                    value: row[i as usize],
                    index: i,
                });
            }
            crate::heap::sort(&mut columns);
            crate::heap::sort(&mut pairs);
            let (idx_sorted, val_sorted) = columns.into_kept();
            let got: Vec<Entry<f32>> = idx_sorted
                .iter()
                .zip(val_sorted.iter())
                .map(|(&index, &value)| Entry { value, index })
                .collect();
            assert_eq!(bits(&got), bits(&want));
            assert_eq!(bits(pairs.entries()), bits(&want));
            let reversed: Vec<core::cmp::Reverse<f32>> =
                row.iter().map(|&x| core::cmp::Reverse(x)).collect();
            let want: Vec<Entry<f32>> = oracle(&reversed, n)
                .unwrap()
                .into_iter()
                .map(|e| Entry {
                    value: e.value.0,
                    index: e.index,
                })
                .collect();
            let (mut idx, mut val) = (std::vec![0; n], std::vec![0.0; n]);
            let mut smallest = Reversed::new(&mut idx, &mut val).unwrap();
            for &i in &order {
                smallest.append(Entry {
                    value: core::cmp::Reverse(row[i as usize]),
                    index: i,
                });
            }
            crate::heap::sort(&mut smallest);
            let got: Vec<Entry<f32>> = (0..n)
                .filter_map(|j| smallest.get(j))
                .map(|e| Entry {
                    value: e.value.0,
                    index: e.index,
                })
                .collect();
            assert_eq!(bits(&got), bits(&want));
        }
    }
}
