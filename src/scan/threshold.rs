//! The scan's floors: a guess from a sample spread over the slice ([`guess`]), and, when the
//! slice's order defeats the sample, a floor for the rest of it found by counting
//! ([`raise`]), which is exact.

use super::SPARE;
use crate::block::{for_flagged, BlockTest};
use crate::check::{first_unrankable, not_rankable};
use crate::heap::storage::sealed::Sealed as _;
use crate::heap::storage::Limited;
use crate::heap::{offer, peek_worst, Storage};
use crate::{Entry, Error, TotalRank};

/// Consecutive values read at each place of the sample, tested as a whole against the root of
/// the sample's heap. A run starts at a multiple of `RUN` from the slice's start, so that a
/// run of `f32` is the 64 bytes of one cache line when the slice is aligned to one: the
/// sample's cost is the lines it waits for, and runs of 8 at any place touched about 1.4 lines
/// for every 8 values. Longer runs at fewer places cost less again, but leave wider gaps
/// between places: on a rising row the guess then lets more than the pass's budget through
/// (the unit tests check that it does not).
const RUN: usize = 16;

/// At most one value in this many is sampled, so the sample costs a sixteenth of a read.
const SPARSITY: usize = 16;

/// The largest rank the guess may have in its sample: the sample's heap holds this many.
const MAX_RANK: usize = 64;

/// The most sampled values expected above the k-th best value of the slice: with the margin
/// of [`rank`], the guess's rank stays within [`MAX_RANK`].
const MAX_EXPECTED: u64 = 45;

/// Which places [`guess`] samples: two sets of places, so that a second look at a slice whose
/// order defeated the first sees other values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Phase {
    Start,
    Middle,
}

/// A value that about k values of `values` (and a margin) are strictly above, or `None`
/// when the slice is too short for a sample to tell (fewer than 2k values, or too few runs).
///
/// The sample is `s` values, runs of [`RUN`] at evenly spaced places; the guess is its r-th
/// best, `r` from [`rank`]: about `r·n/s` values of the slice are above it. A pilot of one
/// run in [`PILOT`] is visited first, in an order scrambled by a step coprime to their count
/// ([`scramble_step`]), and the other runs then in order (which memory reads fastest): the
/// pilot's best bring the heap's root near its final value whatever the slice's order, so that
/// a rising, falling or peaked slice does not make every sampled value enter, and a run whose
/// values cannot beat the root is skipped on one branch-free test. Returns the slice's first
/// NaN (stream positions `start..`) as an error if the sample meets one.
#[inline(always)]
pub(super) fn guess<T: TotalRank, B: BlockTest>(
    start: u64,
    values: &[T],
    k: usize,
    phase: Phase,
    test: B,
) -> Result<Option<T>, Error> {
    let n = values.len();
    if n < 2 * k {
        return Ok(None);
    }
    // `k > 0` (the scan keeps something): the `max` only lets the compiler see it.
    let expected = usize::try_from(MAX_EXPECTED * n as u64 / k.max(1) as u64).unwrap_or(n);
    let runs = (n / SPARSITY).min(expected) / RUN;
    let rank = rank(k, runs * RUN, n);
    if runs < 2 || rank > runs * RUN / 2 {
        return Ok(None);
    }
    let stride = n / runs;
    #[cfg(test)]
    super::tally::read(runs * RUN);
    let mut best = Limited::<T, MAX_RANK>::new(rank);
    let mut sample = |run: usize| {
        let at = run_start(run, stride, phase).min(n - RUN);
        // In the slice, which holds at least `runs · RUN` values.
        let run = values.get(at..at + RUN).unwrap_or_default();
        take_run(&mut best, run, at, test).map_err(|_| {
            // The error names the slice's first NaN, wherever the sample met one.
            let first = first_unrankable(values).unwrap_or(at);
            not_rankable(start + first as u64)
        })
    };
    // The pilot: every PILOT-th run, in a scrambled order.
    let pilots = runs.div_ceil(PILOT);
    let step = scramble_step(pilots);
    let mut pilot = 0;
    for _ in 0..pilots {
        pilot += step;
        if pilot >= pilots {
            pilot -= pilots;
        }
        sample(pilot * PILOT)?;
    }
    // The other runs, in order.
    for run in (0..runs).filter(|run| run % PILOT != 0) {
        sample(run)?;
    }
    Ok(peek_worst(&best).map(|worst| worst.value))
}

/// Where run `run` of the sample starts: in the run's own stretch of `stride` values, at a
/// place a hash of its number (and of the phase) picks, rounded down to a multiple of [`RUN`]
/// (which may take it up to `RUN - 1` values into the stretch before; a stretch is at least
/// `SPARSITY` runs long, so runs never overlap). A periodic row, a sawtooth whose period
/// divides the stride, would otherwise put every run at the same point of its period.
fn run_start(run: usize, stride: usize, phase: Phase) -> usize {
    let seed: u64 = match phase {
        Phase::Start => 0,
        Phase::Middle => 0x5851_F42D_4C95_7F2D,
    };
    // Fibonacci hashing: the high bits of a product with 2^64/φ.
    let hash = ((run as u64) ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    let room = stride.saturating_sub(RUN) as u64 + 1;
    (run * stride + (hash % room) as usize) / RUN * RUN
}

/// One run in this many is a pilot of the sample, visited first in a scrambled order, so that
/// the sample's heap holds values near its r-th best before the other runs, read in order,
/// reach it.
const PILOT: usize = 8;

/// Offers the values of `run` (slice positions `at..`) to the sample's heap; a run whose values
/// cannot beat the root of the full heap costs one block test. Stops at a NaN.
#[inline(always)]
fn take_run<T: TotalRank, B: BlockTest>(
    best: &mut Limited<T, MAX_RANK>,
    run: &[T],
    at: usize,
    test: B,
) -> Result<(), Error> {
    if best.len() < best.capacity() {
        return run.iter().zip(at..).try_for_each(|(&value, index)| {
            if !value.is_rankable() {
                return Err(not_rankable(index as u64));
            }
            // A position in the slice, which is at most `MAX_STREAM_LEN` long.
            let index = index as u32;
            offer(best, Entry { value, index });
            Ok(())
        });
    }
    // Full, and its capacity (the rank) is at least 2: the root is there.
    let Some(Entry { value: root, .. }) = best.get(0) else {
        return Ok(());
    };
    if test.flagged(run, &root) {
        for_flagged(run, root, at as u64, test, |entry| offer(best, entry))?;
    }
    Ok(())
}

/// A step coprime to `runs` near `runs / φ` (the golden ratio's), so that `j·step mod runs`
/// visits every run once, in an order with no long rising or falling stretch.
fn scramble_step(runs: usize) -> usize {
    let mut step = (runs * 5 / 8).max(1);
    while gcd(step, runs) != 1 {
        step += 1;
    }
    step
}

/// The greatest common divisor.
fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The rank in a sample of `s` of `n` values whose value about k (and a margin) values of the
/// slice are above: with λ = k·s/n sampled values expected above the k-th best,
/// r = ⌈λ⌉ + ⌊2.5·√λ⌋ + 2, about 2.5 standard deviations of a Poisson count beyond the mean, so
/// that fewer than k values are above the guess on a random row seldom.
fn rank(k: usize, s: usize, n: usize) -> usize {
    // `n > 0` (the slice holds the sample): the `max` only lets the compiler see it.
    let (k, s, n) = (k as u64, s as u64, n.max(1) as u64);
    let expected = (k * s).div_ceil(n);
    // ⌊√(6.25·λ)⌋ = ⌊√(25·k·s / 4n)⌋.
    let spread = isqrt(25 * k * s / (4 * n));
    (expected + spread + 2) as usize
}

/// ⌊√x⌋, for the small x of [`rank`].
fn isqrt(x: u64) -> u64 {
    let mut root = 0;
    while (root + 1) * (root + 1) <= x {
        root += 1;
    }
    root
}

/// A floor for `rest` no lower than `low`, for a heap of `k`, and whether at least k values of
/// the rest not above `ceiling` are strictly above it (so that no value at or below it can be
/// among the k best). When more than [`limit`] of them are above `low`, the floor is raised
/// until at least k and at most [`limit`] are above it, where the values allow.
///
/// The second sample of [`guess`] is tried first; then it bisects between the two closest
/// floors it has counted ([`TotalRank::rank_midpoint`]), counting at each step, until the
/// count falls in the window or the two ends are neighbours in the order: at most w + 2
/// counting reads of the rest for keys of w bits.
#[inline(always)]
pub(super) fn raise<T: TotalRank, B: BlockTest>(
    mut low: T,
    k: usize,
    rest: &[T],
    ceiling: Option<T>,
    test: B,
) -> Raised<T> {
    let limit = limit(k, rest.len());
    let count = count_above(rest, low, ceiling);
    if count <= limit {
        return Raised {
            floor: low,
            at_least_k: count >= k,
        };
    }
    let raised = |floor| Raised {
        floor,
        at_least_k: true,
    };
    // A second look before bisecting: a sample of the rest at other places, which a row built
    // against the first one does not defeat too.
    let mut high = None;
    if let Ok(Some(second)) = guess(0, rest, k, Phase::Middle, test) {
        if second.may_enter_above(&low) {
            match count_above(rest, second, ceiling) {
                count if count < k => high = Some(second),
                count if count <= limit => return raised(second),
                _ => low = second,
            }
        }
    }
    // More than `limit` values are above `low`: their best is above it.
    let mut high = high.unwrap_or_else(|| best_above(rest, low, ceiling));
    while let Some(mid) = T::rank_midpoint(&low, &high) {
        if !mid.may_enter_above(&low) || !high.may_enter_above(&mid) {
            break;
        }
        match count_above(rest, mid, ceiling) {
            count if count < k => high = mid,
            count if count <= limit => return raised(mid),
            _ => low = mid,
        }
    }
    // More than `limit` are above `low`, and no value lies between it and `high`.
    raised(low)
}

/// A floor from [`raise`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Raised<T> {
    /// The floor.
    pub(super) floor: T,
    /// Whether at least k values of the rest in the band are strictly above it.
    pub(super) at_least_k: bool,
}

/// Values a counting read goes through in the time that an entry takes to move one level
/// down the heap: the exchange rate between the two costs of [`raise`].
const VALUES_PER_LEVEL: usize = 16;

/// Values a counting read goes through in the time that an entry takes to sift down all
/// the log2(k) levels of a heap of `k`.
fn values_per_sift(k: usize) -> usize {
    let levels = (usize::BITS - k.leading_zeros()) as usize;
    VALUES_PER_LEVEL * levels
}

/// Whether a counting read of `len` values costs less than the replacements that a guess
/// leaves for a heap of `k` (up to about k/2 more values than k above it, each sifted down
/// the log2(k) levels when they come in rising order): then the guess is counted, and raised
/// if it lets too many through, before the values are read for the heap.
pub(super) fn counting_pays(k: usize, len: usize) -> bool {
    len < (k / 2).saturating_mul(values_per_sift(k))
}

/// The most values of a rest of `len` that [`raise`] lets above its floor, for a heap of
/// `k`: k, and as many more as cost about one more counting read of the rest to sift
/// down the heap's log2(k) levels, or [`SPARE`] if that is more. A count above it pays for
/// another read.
pub(super) fn limit(k: usize, len: usize) -> usize {
    // `max(1)`: no division by zero for a k of 0, which the scan never passes.
    k + SPARE.max(len / values_per_sift(k).max(1))
}

/// Lanes of [`count_above`]: the counts of values `j`, `j + LANES`, ... in lane `j`.
const LANES: usize = 8;

/// How many of `values` are strictly above `floor` and not above `ceiling`, NaN counted as
/// above both.
#[inline(always)]
fn count_above<T: TotalRank>(values: &[T], floor: T, ceiling: Option<T>) -> usize {
    #[cfg(test)]
    super::tally::read(values.len());
    match ceiling {
        None => count(values, |v| v.may_enter_above(&floor)),
        Some(ceiling) => count(values, |v| {
            v.may_enter_above(&floor) & !v.may_enter_above(&ceiling)
        }),
    }
}

/// How many of `values` satisfy `holds`: a branch-free sum that vectorizes, by pieces short
/// enough for a `u32` count.
#[inline(always)]
fn count<T>(values: &[T], holds: impl Fn(&T) -> bool) -> usize {
    values
        .chunks(1 << 16)
        .map(|piece| piece.iter().map(|v| u32::from(holds(v))).sum::<u32>() as usize)
        .sum()
}

/// The best of `floor` and the rankable values of `values` not above `ceiling`: a branch-free
/// fold by [`LANES`] that vectorizes.
#[inline(always)]
fn best_above<T: TotalRank>(values: &[T], floor: T, ceiling: Option<T>) -> T {
    #[cfg(test)]
    super::tally::read(values.len());
    let better = |best: T, v: &T| {
        let under = ceiling.map_or(true, |ceiling| !v.may_enter_above(&ceiling));
        if v.is_rankable() & under & v.may_enter_above(&best) {
            *v
        } else {
            best
        }
    };
    let mut lanes = [floor; LANES];
    let chunks = values.chunks_exact(LANES);
    let tail = chunks.remainder().iter().fold(floor, better);
    for chunk in chunks {
        for (lane, v) in lanes.iter_mut().zip(chunk) {
            *lane = better(*lane, v);
        }
    }
    lanes.iter().fold(tail, better)
}
