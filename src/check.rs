//! The checks every API runs before it writes: the stream stays within what `u32` indices can
//! name, and every value is rankable (the first NaN is the error, by its position).

use crate::{Error, TotalRank};

/// The most values a stream may have: indices are `u32`.
pub(crate) const MAX_STREAM_LEN: u64 = u32::MAX as u64 + 1;

/// Checks that a stream at position `next` can take `len` more values: it must stay within
/// [`MAX_STREAM_LEN`].
#[inline]
pub(crate) fn check_len(next: u64, len: usize) -> Result<(), Error> {
    let end = next.saturating_add(len as u64);
    if end > MAX_STREAM_LEN {
        return Err(Error::TooLong {
            n: usize::try_from(end).unwrap_or(usize::MAX),
        });
    }
    Ok(())
}

/// The error for a NaN at stream position `index`, which is below [`MAX_STREAM_LEN`] and so
/// fits in a `u32` and thus in a `usize`.
#[inline]
pub(crate) fn not_rankable(index: u64) -> Error {
    Error::NotRankable {
        index: index as usize,
    }
}

/// Checks `values`, which would take the stream positions from `next` on, before anything is
/// written: the stream must stay within [`MAX_STREAM_LEN`] and every value must be rankable.
pub(crate) fn check_values<T: TotalRank>(next: u64, values: &[T]) -> Result<(), Error> {
    check_len(next, values.len())?;
    match first_unrankable(values) {
        Some(pos) => Err(not_rankable(next + pos as u64)),
        None => Ok(()),
    }
}

/// Values checked at a time by [`first_unrankable`]: a fixed-size block with a branch-free
/// fold vectorizes, where a search that stops at the first hit does not; a long one pays the
/// fold's end (a reduction and a branch) seldom (docs/DESIGN.md has the measurements).
#[cfg(feature = "fast")]
const CHECK_BLOCK: usize = 256;

/// The position of the first value that is not rankable: by blocks of `CHECK_BLOCK` with
/// the `fast` feature, value by value without it (less code).
#[cfg(not(feature = "fast"))]
pub(crate) use first_unrankable_by_value as first_unrankable;

/// [`first_unrankable`] without `fast`: a plain search.
#[cfg(not(feature = "fast"))]
pub(crate) fn first_unrankable_by_value<T: TotalRank>(values: &[T]) -> Option<usize> {
    values.iter().position(|v| !v.is_rankable())
}

/// The position of the first value that is not rankable.
#[cfg(feature = "fast")]
pub(crate) fn first_unrankable<T: TotalRank>(values: &[T]) -> Option<usize> {
    let mut blocks = values.chunks_exact(CHECK_BLOCK);
    let dirty_block = blocks.position(|block| !all_rankable(block));
    let start = dirty_block.map_or(values.len() - blocks.remainder().len(), |b| b * CHECK_BLOCK);
    let rest = values.get(start..).unwrap_or_default();
    rest.iter()
        .position(|v| !v.is_rankable())
        .map(|pos| start + pos)
}

/// Whether every value of `values` is rankable: one branch-free fold into a 32-bit word,
/// which stays in the comparison's own vector lanes (a fold into a `bool` narrowed them).
#[cfg(feature = "fast")]
#[inline(always)]
pub(crate) fn all_rankable<T: TotalRank>(values: &[T]) -> bool {
    values
        .iter()
        .fold(0_u32, |any, v| any | u32::from(!v.is_rankable()))
        == 0
}
