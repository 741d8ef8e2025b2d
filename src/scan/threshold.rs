//! The scan's floors: a guess from a sample spread over the slice ([`guess`]), and, when the
//! slice's order defeats the sample, a floor found by counting, which is exact: raised for the
//! rest of the slice when too many values are above the guess ([`raise`]), lowered when too
//! few are ([`lower`]).

use super::Positions;
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
pub(crate) enum Phase {
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
/// values cannot beat the root is skipped on one branch-free test. In a slice of at most
/// [`SCRAMBLED_MAX`] values every run is visited in the scrambled order. Returns the slice's
/// first NaN (stream positions `start..`) as an error if the sample meets one.
#[inline(always)]
pub(super) fn guess<T: TotalRank, B: BlockTest>(
    start: u64,
    values: &[T],
    k: usize,
    phase: Phase,
    test: B,
) -> Result<Option<T>, Error> {
    let n = values.len();
    let Some((runs, rank)) = sample_shape(k, n) else {
        return Ok(None);
    };
    // At least 2 runs (`sample_shape`): the `max` only spares the build a division by zero.
    let stride = n / runs.max(1);
    #[cfg(test)]
    super::tally::read(runs * RUN);
    let mut best = Limited::<T, MAX_RANK>::new(rank);
    let place = |run: usize| run_start(run, stride, phase).min(n - RUN);
    let nan = |first: usize| not_rankable(start + first as u64);
    // The pilot: every PILOT-th run, in a scrambled order; in a row short enough to be in
    // cache, where the order of the reads costs nothing, every run.
    let every = n <= SCRAMBLED_MAX;
    let (pilots, spacing) = if every {
        (runs, 1)
    } else {
        (runs.div_ceil(PILOT), PILOT)
    };
    let step = scramble_step(pilots);
    let mut pilot = 0;
    for _ in 0..pilots {
        pilot += step;
        if pilot >= pilots {
            pilot -= pilots;
        }
        take_run(&mut best, values, place(pilot * spacing), test).map_err(nan)?;
    }
    // The other runs, in order.
    for run in (0..runs).filter(|run| !every && run % PILOT != 0) {
        take_run(&mut best, values, place(run), test).map_err(nan)?;
    }
    Ok(peek_worst(&best).map(|worst| worst.value))
}

/// [`guess`] for the `count` values of an iterator, read from its start with no copy of
/// the row: runs of [`RUN`] at the places of `phase`, visited in order (an iterator runs
/// only forward), each reached by moving past the values before it, in O(1) for an iterator
/// with random access ([`Positions`]); a run none of whose values may beat the root of the
/// sample's heap is passed over on one test, a fold. Where k is small for the row, each run
/// gives the sample one value, its best: on a row in random order the best of `s/RUN` runs
/// rank about as the best of `s` values do where few of the row's k best share a run, so the
/// rank is [`guess`]'s; on a rising row, whose best sampled values would all be the last
/// run's, the guess is the end of the r-th run from the end, which about `(r - 1)·n/runs`
/// values are above, not `r`. Else every sampled value counts, as in [`guess`].
/// (A slice's guess counts such a row and lowers its floor, [`lower`]; an iterator cannot
/// count but by running again.) `None` when the values are too few for a sample to tell,
/// or a sampled run is past the iterator's end (it holds fewer than `count`). A NaN is left
/// out (the pass that follows finds it).
#[inline(always)]
pub(crate) fn iter_guess<T, I>(
    mut values: Positions<I>,
    count: usize,
    k: usize,
    phase: Phase,
) -> Option<T>
where
    T: TotalRank,
    I: Iterator<Item = T> + Clone,
{
    let (runs, rank) = sample_shape(k, count)?;
    // A run's best stands for the run where few runs hold two of the k best (k·RUN at most
    // an eighth of the row: each run's best beats the k-th best with probability about
    // k·RUN/n, within 6 %, so the slice's rank holds) and the rank is within the runs; else
    // every sampled value counts, as in the slice's guess.
    let by_run = k * RUN <= count / 8 && 2 * rank <= runs;
    // At least 2 runs (`sample_shape`): the `max` only spares the build a division by zero.
    let stride = count / runs.max(1);
    #[cfg(test)]
    super::tally::read(runs * RUN);
    let mut best = Limited::<T, MAX_RANK>::new(rank);
    let mut at = 0;
    for run in 0..runs {
        let place = run_start(run, stride, phase).min(count - RUN);
        // Runs never overlap: `place` is at or after `at` (`saturating_sub` only says so).
        values.skip(place.saturating_sub(at));
        at = place;
        let root = peek_worst(&best)
            .filter(|_| best.len() == rank)
            .map(|root| root.value);
        // Where the iterator says it holds the run: with random access the compiler then
        // knows the length of the fold, and unrolls it.
        if let Some(root) = root.filter(|_| values.size_hint().0 >= RUN) {
            match values.any_above(RUN, &root) {
                (seen, _) if seen != RUN => return None,
                (_, false) => continue,
                _ => {}
            }
        }
        let mut seen = 0;
        let mut top: Option<Entry<T>> = None;
        for (index, value) in values.entries(RUN) {
            seen += 1;
            // A NaN is left out.
            if !value.is_rankable() {
                continue;
            }
            let entry = Entry { value, index };
            if !by_run {
                // A value that cannot beat the root is not offered.
                if root.map_or(true, |root| value.may_enter_above(&root)) {
                    offer(&mut best, entry);
                }
            } else if top.map_or(true, |top| value.rank_cmp(&top.value).is_gt()) {
                top = Some(entry);
            }
        }
        if seen != RUN {
            return None;
        }
        if let Some(top) = top {
            offer(&mut best, top);
        }
    }
    peek_worst(&best).map(|worst| worst.value)
}

/// The shape of [`guess`]'s sample of `n` values for a heap of `k`: how many runs of [`RUN`],
/// and the rank of the guess among them, or `None` when the values are too few for a sample
/// to tell (fewer than 2k, too few runs, or a rank above half the sample).
fn sample_shape(k: usize, n: usize) -> Option<(usize, usize)> {
    if k == 0 || n < 2 * k {
        return None;
    }
    let expected = usize::try_from(MAX_EXPECTED * n as u64 / k as u64).unwrap_or(n);
    let runs = (n / SPARSITY).min(expected) / RUN;
    let rank = rank(k, runs * RUN, n);
    (runs >= 2 && rank <= runs * RUN / 2).then_some((runs, rank))
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
    // Into `0..room` by a multiply and a shift, not a division (as in [`iter_place`]): `hash`
    // is below 2^32, and so is `room`.
    (run * stride + ((hash * room) >> 32) as usize) / RUN * RUN
}

/// The longest row whose sample visits every run in a scrambled order: 8 Ki values (32 KiB
/// of `f32`, a core's first-level data cache), where the order of the reads costs nothing.
/// In order, the runs of a rising row each beat the sample's root, and every sampled value
/// enters its heap; scrambled, about r·(1 + ln(s/r)) of s enter for a heap of r. At 48 Ki
/// values (in the second-level cache) scrambled reads made `normal` rows at k = 50 about 8 %
/// slower, where the runs read in order are prefetched.
const SCRAMBLED_MAX: usize = 1 << 13;

/// One run in this many is a pilot of the sample, visited first in a scrambled order, so that
/// the sample's heap holds values near its r-th best before the other runs, read in order,
/// reach it.
const PILOT: usize = 8;

/// Offers the [`RUN`] values of `values` from `at` on to the sample's heap; a run whose values
/// cannot beat the root of the full heap costs one block test. If the run holds a NaN, stops
/// there and returns the position of the slice's first NaN. Inlined into the scan, whose copy
/// for the vector unit it then shares (a closure was compiled apart, for the baseline, and
/// called). Not on a microcontroller (no operating system, and no AVX2 copy of the scan to
/// share: x86-64 without one keeps the inlined form), where its two calls inlined took 5 KB
/// more of a Cortex-M4's code.
#[cfg_attr(
    not(all(target_os = "none", not(target_arch = "x86_64"))),
    inline(always)
)]
#[cfg_attr(all(target_os = "none", not(target_arch = "x86_64")), inline(never))]
fn take_run<T: TotalRank, B: BlockTest>(
    best: &mut Limited<T, MAX_RANK>,
    values: &[T],
    at: usize,
    test: B,
) -> Result<(), usize> {
    // In the slice, which holds at least `runs · RUN` values.
    let run = values.get(at..at + RUN).unwrap_or_default();
    let taken = if best.len() < best.capacity() {
        run.iter().zip(at..).try_for_each(|(&value, index)| {
            if !value.is_rankable() {
                return Err(());
            }
            // A position in the slice, which is at most `MAX_STREAM_LEN` long.
            let index = index as u32;
            offer(best, Entry { value, index });
            Ok(())
        })
    } else {
        // Full, and its capacity (the rank) is at least 2: the root is there.
        match best.get(0) {
            Some(Entry { value: root, .. }) if test.flagged(run, &root) => {
                for_flagged(run, root, at as u64, test, |entry| offer(best, entry)).map_err(drop)
            }
            _ => Ok(()),
        }
    };
    // The error names the slice's first NaN, wherever the sample met one.
    taken.map_err(|()| first_unrankable(values).unwrap_or(at))
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
/// among the k best). When more than `most` of them are above `low` (at least k: [`limit`]
/// for a heap, [`pool_limit`] for a pool), the floor is raised until at least k and at most
/// `most` are above it, where the values allow.
///
/// The second sample of [`guess`] is tried first; then it bisects between the two closest
/// floors it has counted ([`bisect`]): at most w + 7 counting reads of the rest for keys of w
/// bits.
#[inline(always)]
pub(super) fn raise<T: TotalRank, B: BlockTest>(
    mut low: T,
    k: usize,
    most: usize,
    rest: &[T],
    ceiling: Option<T>,
    test: B,
) -> Raised<T> {
    let mut count = count_above(rest, low, ceiling);
    if count <= most {
        return Raised {
            floor: low,
            at_least_k: count >= k,
        };
    }
    // A second look before bisecting: a sample of the rest at other places, which a row built
    // against the first one does not defeat too.
    let mut high = None;
    if let Ok(Some(second)) = guess(0, rest, k, Phase::Middle, test) {
        if second.may_enter_above(&low) {
            match count_above(rest, second, ceiling) {
                above if above < k => high = Some((second, above)),
                above if above <= most => return Raised::exact(second),
                above => (low, count) = (second, above),
            }
        }
    }
    // More than `most` values are above `low`: their best is above it, and none above that.
    // Not `unwrap_or_else`, whose closure was compiled apart, for the baseline.
    let high = match high {
        Some(high) => high,
        None => (best_above(rest, low, ceiling), 0),
    };
    bisect((low, count), high, k, most, rest, ceiling)
}

/// A floor of `values` below `high`, which fewer than k values are strictly above, for a heap
/// of `k`: one that at least k and at most `most` values are above, where the values allow,
/// or `None` if the second sample of [`guess`] has no value below `high` (an all-equal row)
/// or fewer than k values are above the worst.
///
/// The mirror of [`raise`], for a guess that a row has defeated by being too high: the second
/// sample first, then, if it is still too high, a count above the worst value, then a
/// bisection between the two closest floors counted ([`bisect`]): at most w + 7 counting
/// reads of the values for keys of w bits.
#[inline(always)]
pub(super) fn lower<T: TotalRank, B: BlockTest>(
    high: T,
    k: usize,
    most: usize,
    values: &[T],
    test: B,
) -> Option<T> {
    let second = guess(0, values, k, Phase::Middle, test).ok().flatten()?;
    if !high.may_enter_above(&second) {
        return None;
    }
    let count = count_above(values, second, None);
    let (low, high) = match count {
        count if count < k => {
            let worst = worst_below(values, second);
            match count_above(values, worst, None) {
                above if above < k => return None,
                above if above <= most => return Some(worst),
                above => ((worst, above), (second, count)),
            }
        }
        count if count <= most => return Some(second),
        // Fewer than k are above `high`: how many is not known, and only steers the search.
        count => ((second, count), (high, 0)),
    };
    Some(bisect(low, high, k, most, values, None).floor)
}

/// Searches between `low`, which more than `limit` values of `rest` not above `ceiling` are
/// strictly above, and `high`, which fewer than k are (each with its count, or 0 where it is
/// not known: it only steers), for a floor that at least k and at most `limit` are above,
/// counting at each probe, until the two ends are neighbours in the order. The floor found
/// has at least k values above it.
///
/// A probe is the midpoint of the key of the order ([`TotalRank::rank_midpoint`]), or, steered
/// by the two counts, a point nearer the end where the counts put the window: the midpoint of
/// the near half, of its near half, and so on (`1 + j` midpoints, a probe at 2^-(j+1) of the
/// gap from that end, for a window at a share of the counts' gap in (2^-(j+2), 2^-(j+1)]).
/// A sorted row's window lies near one end in the key (a falling row of the values 49,152
/// down to 1 at k = 50 was read 15 times with midpoints alone, 7 times so).
/// A steered probe that does not halve the gap is a miss; after [`MISSES`] of them only
/// midpoints are probed, so at most w + [`MISSES`] counting reads for keys of w bits.
#[inline(always)]
fn bisect<T: TotalRank>(
    (mut low, mut above_low): (T, usize),
    (mut high, mut above_high): (T, usize),
    k: usize,
    limit: usize,
    rest: &[T],
    ceiling: Option<T>,
) -> Raised<T> {
    // The middle of the window, where a probe is aimed (every caller's `limit` is at least k).
    let aim = k + limit.saturating_sub(k) / 2;
    let mut misses = 0;
    loop {
        // `high` above `low`, as `rank_midpoint` asks: not so if more than `limit` NaN (counted
        // as above every floor) left `best_above` nothing above `low`.
        if !high.may_enter_above(&low) {
            break;
        }
        let Some(mid) = T::rank_midpoint(&low, &high) else {
            break;
        };
        if !mid.may_enter_above(&low) || !high.may_enter_above(&mid) {
            break;
        }
        let steps = match misses < MISSES {
            true => steps(above_low, above_high, aim),
            false => Steps::Middle,
        };
        let probe = steps.probe(mid, &low, &high);
        let count = count_above(rest, probe, ceiling);
        match count {
            // Too high: the gap halved unless the probe was moved toward `high`.
            count if count < k => {
                misses += usize::from(matches!(steps, Steps::TowardHigh(1..)));
                (high, above_high) = (probe, count);
            }
            count if count <= limit => return Raised::exact(probe),
            count => {
                misses += usize::from(matches!(steps, Steps::TowardLow(1..)));
                (low, above_low) = (probe, count);
            }
        }
    }
    // More than `limit` are above `low`, and no value lies between it and `high`.
    Raised::exact(low)
}

/// Steered probes of [`bisect`] that may miss (not halve the gap) before it probes only
/// midpoints.
const MISSES: usize = 4;

/// Where [`bisect`] probes: the midpoint, or `j` more midpoints toward one end.
#[derive(Clone, Copy)]
enum Steps {
    Middle,
    TowardHigh(u32),
    TowardLow(u32),
}

/// Where the counts put the aim between the two ends, as [`Steps`]: the aim's share of the way
/// from `high`'s count to `low`'s, to the power of two below it.
fn steps(above_low: usize, above_high: usize, aim: usize) -> Steps {
    let gap = above_low.saturating_sub(above_high).max(1);
    let from_high = aim.saturating_sub(above_high).clamp(1, gap);
    let from_low = gap - from_high;
    // j with 2^-(j + 2) < share <= 2^-(j + 1), for the end the aim is nearer: the probe,
    // 2^-(j + 1) of the gap from that end, lies beyond the aim, on the side that halves.
    let j = |part: usize| {
        (gap / part.max(1))
            .checked_ilog2()
            .unwrap_or(0)
            .saturating_sub(1)
    };
    match from_high <= from_low {
        true => Steps::TowardHigh(j(from_high)),
        false => Steps::TowardLow(j(from_low)),
    }
}

impl Steps {
    /// The probe: `mid` (the midpoint of `low` and `high`), moved `j` midpoints toward the
    /// near end, stopping where no key lies between the probe and that end.
    #[inline(always)]
    fn probe<T: TotalRank>(self, mid: T, low: &T, high: &T) -> T {
        let (toward_high, j) = match self {
            Steps::Middle => return mid,
            Steps::TowardHigh(j) => (true, j),
            Steps::TowardLow(j) => (false, j),
        };
        let mut probe = mid;
        for _ in 0..j {
            // The half between the probe and the near end, whose midpoint is the next probe.
            let (below, above) = match toward_high {
                true => (&probe, high),
                false => (low, &probe),
            };
            match T::rank_midpoint(below, above) {
                Some(next) if next.may_enter_above(below) && above.may_enter_above(&next) => {
                    probe = next;
                }
                _ => break,
            }
        }
        probe
    }
}

/// A floor from [`raise`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Raised<T> {
    /// The floor.
    pub(super) floor: T,
    /// Whether at least k values of the rest in the band are strictly above it.
    pub(super) at_least_k: bool,
}

impl<T> Raised<T> {
    /// A floor that at least k values are above.
    fn exact(floor: T) -> Self {
        Raised {
            floor,
            at_least_k: true,
        }
    }
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
pub(crate) fn counting_pays(k: usize, len: usize) -> bool {
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

/// Values a counting read goes through in the time that the pool takes one more position
/// (gathered, packed, cut and compacted): the exchange rate of [`pool_limit`].
const VALUES_PER_PLACE: usize = 64;

/// [`limit`] for a pool of `places` positions: k, and as many more as cost the pool about one
/// more counting read of the `len` values, or [`SPARE`] if that is more; at most `places`.
pub(super) fn pool_limit(k: usize, len: usize, places: usize) -> usize {
    (k + SPARE.max(len / VALUES_PER_PLACE)).min(places)
}

/// Lanes of [`fold`]: the best (or worst) of values `j`, `j + LANES`, ... in lane `j`.
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
/// fold that vectorizes.
#[inline(always)]
fn best_above<T: TotalRank>(values: &[T], floor: T, ceiling: Option<T>) -> T {
    fold(values, floor, |best, v| {
        let under = ceiling.map_or(true, |ceiling| !v.may_enter_above(&ceiling));
        if v.is_rankable() & under & v.may_enter_above(&best) {
            *v
        } else {
            best
        }
    })
}

/// The worst of `high` and the rankable values of `values`: the mirror of [`best_above`].
#[inline(always)]
fn worst_below<T: TotalRank>(values: &[T], high: T) -> T {
    fold(values, high, |worst, v| {
        if v.is_rankable() & v.may_enter_below(&worst) {
            *v
        } else {
            worst
        }
    })
}

/// `values` folded by `pick` from `init`, in [`LANES`] independent lanes so that a
/// branch-free `pick` vectorizes; `pick` must be associative and commutative (a best or a
/// worst).
#[inline(always)]
fn fold<T: Copy>(values: &[T], init: T, pick: impl Fn(T, &T) -> T) -> T {
    #[cfg(test)]
    super::tally::read(values.len());
    let mut lanes = [init; LANES];
    let chunks = values.chunks_exact(LANES);
    let tail = chunks.remainder().iter().fold(init, &pick);
    for chunk in chunks {
        for (lane, v) in lanes.iter_mut().zip(chunk) {
            *lane = pick(*lane, v);
        }
    }
    lanes.iter().fold(tail, pick)
}

#[cfg(test)]
mod tests {
    use std::vec::Vec;

    use super::*;
    use crate::block::Portable;
    use crate::testing::data;

    /// `try_extend`, which scans above [`iter_guess`] and then, if fewer than k values are
    /// above it, at or below it, against the oracle: with the stack copy (k up to 64) and
    /// without, on every shape of the benches, and on rows whose sampled places hold their
    /// best values (the guess too high: the second run takes the rest) or their worst (too
    /// low), plain and with ties; the iterator mapped (it says its length: sampled) and
    /// filtered (it does not: fed with the root alone when the copy serves, else checked
    /// first, then sampled).
    #[test]
    #[cfg_attr(
        miri,
        ignore = "rows of 20,011 values: the scan's own tests run under Miri"
    )]
    fn an_iterator_scanned_above_its_guess_keeps_the_oracle() {
        use crate::testing::{bits, oracle_bits};
        use crate::SliceTopK;
        let n = 20_011;
        for k in [1, 7, 50, 64, 65, 200, 1000] {
            let (runs, _) = sample_shape(k, n).unwrap();
            let sampled: Vec<usize> = (0..runs)
                .flat_map(|run| {
                    let place = run_start(run, n / runs, Phase::Start).min(n - RUN);
                    place..place + RUN
                })
                .collect();
            let mut rows = data::shapes(n, k);
            for (name, at_places) in [("places best", 1.0e6_f32), ("places worst", -1.0e6)] {
                let mut x: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
                sampled.iter().for_each(|&p| x[p] = at_places);
                rows.push((name, x.clone()));
                x.iter_mut().for_each(|v| *v = (*v / 100.0).floor());
                rows.push((name, x));
            }
            for (name, x) in rows {
                let places = Positions::new(x.iter().copied(), usize::MAX);
                let guess = iter_guess(places, n, k, Phase::Start);
                assert!(guess.is_some(), "{name}, k = {k}");
                let halved: Vec<f32> = x.iter().map(|&v| v * 0.5).collect();
                let want = oracle_bits(&halved, k);
                let mapped = x.iter().map(|&v| v * 0.5);
                for exact in [true, false] {
                    let (mut idx, mut val) = (std::vec![0; k], std::vec![0.0; k]);
                    let mut top = SliceTopK::new(&mut idx, &mut val).unwrap();
                    if exact {
                        top.try_extend(mapped.clone()).unwrap();
                    } else {
                        top.try_extend(mapped.clone().filter(|_| true)).unwrap();
                    }
                    let (idx, val) = top.into_sorted();
                    let got = bits(idx, val);
                    assert_eq!(got, want, "{name}, k = {k}, exact {exact}");
                }
            }
        }
    }

    /// How many of `x` rank strictly above `floor`, by `rank_cmp` alone.
    fn above(x: &[f32], floor: f32) -> usize {
        x.iter()
            .filter(|v| v.rank_cmp(&floor) == core::cmp::Ordering::Greater)
            .count()
    }

    /// A floor that `lower` or `raise` found says what it claims: with `at_least_k`, at least
    /// k values above it, and at most `limit` unless no floor between it and the next value up
    /// has k above (ties); without, fewer than k above it, and no lower floor worth counting.
    fn check(x: &[f32], k: usize, found: Raised<f32>, lowest: f32, what: &str) {
        let count = above(x, found.floor);
        if found.at_least_k {
            assert!(count >= k, "{what}: {count} above, k = {k}");
            let next = x
                .iter()
                .copied()
                .filter(|v| v.rank_cmp(&found.floor).is_gt())
                .fold(f32::INFINITY, f32::min);
            assert!(
                count <= limit(k, x.len()) || above(x, next) < k,
                "{what}: {count} above, limit {}",
                limit(k, x.len())
            );
        } else {
            assert!(count < k, "{what}: {count} above, k = {k}, not at least k");
            assert_eq!(
                found.floor.to_bits(),
                lowest.to_bits(),
                "{what}: not the worst"
            );
        }
    }

    /// Rows whose order or ties defeat a guess: every shape of the benches, a row of equal
    /// values with a few above them, ±0 and the infinities, subnormals.
    fn rows(n: usize, k: usize) -> Vec<(&'static str, Vec<f32>)> {
        let mut rows = data::shapes(n, k);
        let mut few_above = std::vec![-1.0_f32; n];
        for (i, v) in few_above.iter_mut().enumerate().step_by(97) {
            *v = i as f32;
        }
        rows.push(("few_above_ties", few_above));
        let min_heavy = (0..n).map(|i| {
            if i % 5 < 2 {
                f32::NEG_INFINITY
            } else {
                i as f32
            }
        });
        rows.push(("min_heavy", min_heavy.collect()));
        let edges = [0.0, -0.0, f32::INFINITY, f32::NEG_INFINITY, 1e-45, -1e-45];
        rows.push(("edges", (0..n).map(|i| edges[i * 7 % 6]).collect()));
        rows.push((
            "subnormal",
            (0..n)
                .map(|i| f32::from_bits((i as u64 * 2_654_435_761 % 4096) as u32))
                .collect(),
        ));
        rows
    }

    #[test]
    fn lowered_and_raised_floors_have_what_they_claim_above_them() {
        let n = if cfg!(miri) { 1500 } else { 6000 };
        // n / 2 + 1: too large a k for a sample, so that the worst value is counted first.
        // Under Miri (slow), a small k and that one.
        let ks = if cfg!(miri) {
            std::vec![7, n / 2 + 1]
        } else {
            std::vec![1, 7, 50, 300, 1000, n / 2 + 1]
        };
        for k in ks {
            for (name, x) in rows(n, k) {
                let best = x.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let worst = x.iter().copied().fold(f32::INFINITY, f32::min);
                let what = std::format!("lower, {name}, k = {k}");
                if let Some(floor) = lower(best, k, limit(k, x.len()), &x, Portable) {
                    let found = Raised::exact(floor);
                    check(&x, k, found, worst, &what);
                } else {
                    // Nothing below the best in the second sample, or fewer than k above the
                    // worst.
                    let second = guess(0, &x, k, Phase::Middle, Portable).unwrap();
                    let sampled_below = second.is_some_and(|second| best.rank_cmp(&second).is_gt());
                    assert!(!sampled_below || above(&x, worst) < k, "{what}");
                }
                let what = std::format!("raise, {name}, k = {k}");
                let raised = raise(worst, k, limit(k, x.len()), &x, None, Portable);
                if above(&x, worst) >= k {
                    assert!(raised.at_least_k, "{what}");
                }
                check(&x, k, raised, worst, &what);
            }
        }
    }
}
