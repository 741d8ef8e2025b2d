//! The sort of a whole row of `f32` (or `Reverse<f32>`) values, for when every value is kept
//! (`top_k_into` with k = n, an `extend` that fills an empty heap exactly): there is nothing to
//! select, and the result is a sort of the row. A least-significant-digit radix sort on a
//! monotone 32-bit key of the values, four passes of 8 bits, each a counting read of the row
//! and a stable scatter of the row's positions, so O(n) whatever the order of the row. The
//! two permutations it moves between are the storage's own places (the index lane, and the
//! value lane read as bits; the values are read again from the row), so it needs no buffer of
//! its own, only 256 counters on the stack. Stable, and started from the stream's order, it
//! leaves equal values by ascending index with no index in the key.

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
    let bits = if x == 0.0 { 0 } else { x.to_bits() };
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
        Some(Lanes::Columns(idx, val)) => sort_columns(idx, val, start, xs, largest),
        Some(Lanes::Pairs(entries)) => sort_pairs(entries, start, xs, largest),
        None => return false,
    }
    true
}

/// The sort in caller buffers: compiled once whatever the storage, and linked only where a
/// storage has them. Never inlined: its counters (256 words) are in a frame of their own, not
/// beside a caller's.
#[inline(never)]
fn sort_columns(idx: &mut [u32], val: &mut [f32], start: u64, xs: &[f32], largest: bool) {
    sort_in(&mut (idx, val), start, xs, largest);
}

/// The sort in an array of entries, as [`sort_columns`].
#[inline(never)]
fn sort_pairs(mut entries: &mut [Entry<f32>], start: u64, xs: &[f32], largest: bool) {
    sort_in(&mut entries, start, xs, largest);
}

/// The sort in the places of `perms`, which hold `xs` (stream positions `start..`).
fn sort_in<P: Perms>(perms: &mut P, start: u64, xs: &[f32], largest: bool) {
    match permute(perms, xs, largest) {
        ROW => write_out::<P, ROW>(perms, start, xs),
        A => write_out::<P, A>(perms, start, xs),
        _ => write_out::<P, B>(perms, start, xs),
    }
}

/// Writes at each place the entry of the position that lane `L` holds there, read before the
/// entry is written.
fn write_out<P: Perms, const L: u8>(perms: &mut P, start: u64, xs: &[f32]) {
    for j in 0..xs.len() {
        let Some(p) = perms.get::<L>(j) else {
            break;
        };
        if let Some(&x) = xs.get(p as usize) {
            // `start + n` is at most `MAX_STREAM_LEN`: the index fits a `u32`.
            perms.put(j, x, (start + u64::from(p)) as u32);
        }
    }
}

/// The four passes over `perms`, from the row's order; returns the lane that holds the sorted
/// permutation ([`ROW`] if every pass was skipped: every key the same). A pass whose digit
/// is the same for every value would keep the order, and is skipped.
fn permute<P: Perms>(perms: &mut P, xs: &[f32], largest: bool) -> u8 {
    let mut at = ROW;
    let mut counts = [0_usize; RADIX];
    for shift in [0, 8, 16, 24] {
        counts.fill(0);
        for &x in xs {
            if let Some(count) = counts.get_mut(digit(key(x, largest), shift)) {
                *count += 1;
            }
        }
        let first = xs.first().map_or(0, |&x| digit(key(x, largest), shift));
        if counts.get(first) == Some(&xs.len()) {
            continue;
        }
        // Where each digit's positions start.
        let mut sum = 0;
        for count in &mut counts {
            (*count, sum) = (sum, sum + *count);
        }
        at = match at {
            ROW => scatter::<P, ROW, A>(perms, xs, largest, shift, &mut counts),
            A => scatter::<P, A, B>(perms, xs, largest, shift, &mut counts),
            _ => scatter::<P, B, A>(perms, xs, largest, shift, &mut counts),
        };
    }
    at
}

/// One pass: the positions of lane `FROM`, in order, to lane `TO` by their digit at
/// `shift`, each digit's from its start in `starts`; returns `TO`.
#[inline(always)]
fn scatter<P: Perms, const FROM: u8, const TO: u8>(
    perms: &mut P,
    xs: &[f32],
    largest: bool,
    shift: u32,
    starts: &mut [usize; RADIX],
) -> u8 {
    for j in 0..xs.len() {
        let Some(p) = perms.get::<FROM>(j) else {
            break;
        };
        let Some(&x) = xs.get(p as usize) else {
            break;
        };
        if let Some(slot) = starts.get_mut(digit(key(x, largest), shift)) {
            perms.set::<TO>(*slot, p);
            *slot += 1;
        }
    }
    TO
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

    /// The permutation is the stable sort by key, on random bits (every digit of the key
    /// differs) with repeats, and on values that share their high digits (skipped passes).
    #[test]
    fn the_permutation_is_the_stable_sort_by_key() {
        let mut rng = crate::testing::data::Rng(0x9E37_79B9);
        let mut next = move || rng.next_u64() as u32;
        let random: Vec<f32> = (0..700)
            .map(|_| f32::from_bits(next()))
            .filter(|x| !x.is_nan())
            .collect();
        let repeats: Vec<f32> = (0..700).map(|i| random[i % 50]).collect();
        let close: Vec<f32> = (0..700)
            .map(|_| 1.0 + (next() % 256) as f32 / 1024.0)
            .collect();
        for xs in [random, repeats, close] {
            check_permutation(&xs);
        }
    }

    fn check_permutation(xs: &[f32]) {
        for largest in [true, false] {
            let (mut a, mut b) = (std::vec![0_u32; xs.len()], std::vec![0.0_f32; xs.len()]);
            let mut perms = (&mut a[..], &mut b[..]);
            let at = permute(&mut perms, xs, largest);
            let order: Vec<u32> = (0..xs.len())
                .map(|j| match at {
                    ROW => perms.get::<ROW>(j),
                    A => perms.get::<A>(j),
                    _ => perms.get::<B>(j),
                })
                .map(Option::unwrap)
                .collect();
            let mut expected: Vec<u32> = (0..xs.len() as u32).collect();
            expected.sort_by_key(|&p| key(xs[p as usize], largest));
            assert_eq!(order, expected, "largest {largest}");
        }
    }
}
