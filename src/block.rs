//! The block test of the pre-filter: whether any of [`BLOCK`] values may beat a threshold
//! ([`TotalRank::may_enter_above`], which also flags NaN), answered for the whole block with one
//! branch-free fold, and which ones. [`Portable`] is written to vectorize for whatever the
//! build targets; `arch` adds copies with explicit vector instructions that answer the same.

use crate::check::not_rankable;
use crate::{Entry, Error, TotalRank};

/// Values the pre-filter tests at a time against the root. Long enough that the test of a
/// block (a branch-free fold of [`TotalRank::may_enter_above`]) vectorizes and its one branch
/// is rarely taken once the heap has settled; short enough that a block with one candidate
/// costs little to walk value by value.
pub(crate) const BLOCK: usize = 64;

/// The test of a block of [`BLOCK`] values against the threshold, by
/// [`TotalRank::may_enter_above`] (a value that may beat it, or NaN): the portable code
/// ([`Portable`]), or a copy with explicit vector instructions that `arch` hands to the
/// scan when the CPU has them. Both answer the same on every block.
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

/// Calls `f` on the entries of the values of `block` (stream positions `at..`) that may beat
/// `threshold` ([`TotalRank::may_enter_above`]), in order, and stops at the first NaN.
#[inline(always)]
pub(crate) fn for_flagged<T: TotalRank>(
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
        // The mask has a bit only for a value of the block.
        let Some(&value) = block.get(i) else {
            break;
        };
        let index = at + i as u64;
        if !value.is_rankable() {
            return Err(not_rankable(index));
        }
        // The caller keeps every position below `MAX_STREAM_LEN`: the cast is lossless.
        let index = index as u32;
        f(Entry { value, index });
    }
    Ok(())
}
