//! The batch and the long row on rayon's thread pool (feature `rayon`): [`par_top_k_rows`]
//! runs the rows of a batch in parallel, [`par_top_k_into`] splits one long row into shards,
//! one per thread, and merges their top k (see [`shard`](crate::shard) for why that is exact).
//!
//! Same answers, same errors and the same promise as the single-threaded calls: everything is
//! checked (in parallel too) before the first write to the caller's buffers.

use std::vec::Vec;

use rayon::prelude::*;

use crate::batch::{check_batch, check_row, top_k_of_checked_row};
use crate::check::MAX_STREAM_LEN;
use crate::{top_k_into, Entry, Error, SliceTopK, TotalRank};

/// The fewest values a shard of [`par_top_k_into`] gets: below this, handing a chunk to a
/// thread costs more than selecting from it (a few microseconds against about a nanosecond a
/// value), so a short row runs on one thread.
pub const MIN_SHARD_LEN: usize = 1 << 14;

/// [`top_k_rows`](crate::top_k_rows) with the rows on rayon's thread pool: the same outputs,
/// errors and no-partial-write promise (every row is checked, in parallel, before any row is
/// written). Allocates nothing itself.
///
/// ```
/// use tinytopk::par_top_k_rows;
///
/// let batch = [1.0_f32, 3.0, 2.0, 0.0, -1.0, 0.0];
/// let (mut idx, mut val) = ([0_u32; 4], [0.0_f32; 4]);
/// par_top_k_rows(&batch, 3, &mut idx, &mut val)?;
/// assert_eq!(idx, [1, 2, 0, 2]);
/// # Ok::<(), tinytopk::Error>(())
/// ```
///
/// # Errors
///
/// As [`top_k_rows`](crate::top_k_rows): the first NaN of the batch is named by its flat
/// position, whichever thread finds it.
pub fn par_top_k_rows<T>(x: &[T], n: usize, idx: &mut [u32], val: &mut [T]) -> Result<(), Error>
where
    T: TotalRank + Send + Sync,
{
    // The first bad row, whichever thread checks it: `find_map_first` keeps the lowest row.
    let first_bad_row = |x: &[T], n| {
        let rows = x.par_chunks_exact(n).enumerate();
        rows.find_map_first(|(row, values)| check_row(row, n, values).err())
    };
    let Some((n, k)) = check_batch(x, n, idx, val, first_bad_row)? else {
        return Ok(());
    };
    x.par_chunks_exact(n)
        .zip(idx.par_chunks_exact_mut(k).zip(val.par_chunks_exact_mut(k)))
        .try_for_each(|(values, (idx, val))| top_k_of_checked_row(values, idx, val))
}

/// [`top_k_into`] of one long row, split into one shard per thread of rayon's pool (shards of
/// at least [`MIN_SHARD_LEN`] values), each selected with
/// [`SliceTopK::with_offset`], then merged: the same output, bit for bit, as `top_k_into`.
///
/// Each shard's top k lives in a small buffer of k entries that this call allocates; each shard
/// checks its own values as it goes, and the caller's `idx` and `val` are written only by the
/// final merge, once every shard has passed. The row is read once and never copied.
///
/// ```
/// use tinytopk::par_top_k_into;
///
/// let row: Vec<f32> = (0..100_000).map(|i| ((i * 7919) % 1000) as f32).collect();
/// let (mut idx, mut val) = ([0_u32; 3], [0.0_f32; 3]);
/// par_top_k_into(&row, &mut idx, &mut val)?;
/// assert_eq!(val, [999.0; 3]);
/// assert!(idx.windows(2).all(|w| w[0] < w[1])); // ties by ascending index
/// # Ok::<(), tinytopk::Error>(())
/// ```
///
/// # Errors
///
/// As [`top_k_into`]; the first NaN of the row is named, and `idx` and `val` are untouched.
pub fn par_top_k_into<T: TotalRank + Default + Send + Sync>(
    x: &[T],
    idx: &mut [u32],
    val: &mut [T],
) -> Result<(), Error> {
    let shards = rayon::current_num_threads().min(x.len() / MIN_SHARD_LEN);
    if shards <= 1 || idx.len() > x.len() || x.len() as u64 > MAX_STREAM_LEN {
        // One thread's work, or an error: `top_k_into` names it as the contract orders them
        // (the first NaN before k > n).
        return top_k_into(x, idx, val);
    }
    let mut top = SliceTopK::new(idx, val)?;
    let k = top.capacity();
    // Each shard checks its own values as it takes them, into buffers of its own; the caller's
    // are written only once every shard has passed. The shards are in row order and each
    // names its first NaN, so the first error in shard order names the row's first NaN.
    let shard_len = x.len().div_ceil(shards);
    let parts: Vec<Result<Vec<Entry<T>>, Error>> = x
        .par_chunks(shard_len)
        .enumerate()
        .map(|(shard, values)| shard_top_k(values, shard * shard_len, k))
        .collect();
    for part in &parts {
        if let Err(err) = part {
            return Err(*err);
        }
    }
    for part in parts.iter().flatten() {
        top.merge_unchecked(part, x.len() as u64);
    }
    top.into_sorted();
    Ok(())
}

/// The top `k` of one shard starting at position `base` of the row, with global indices,
/// in heap order (a merge does not need them sorted).
fn shard_top_k<T: TotalRank + Default>(
    values: &[T],
    base: usize,
    k: usize,
) -> Result<Vec<Entry<T>>, Error> {
    let mut idx = std::vec![0; k];
    let mut val = std::vec![T::default(); k];
    let base = u32::try_from(base).map_err(|_| Error::TooLong { n: base })?;
    let mut top = SliceTopK::with_offset(&mut idx, &mut val, base)?;
    top.extend_from_slice(values)?;
    let kept = top.len();
    Ok(idx
        .iter()
        .zip(&val)
        .take(kept)
        .map(|(&index, &value)| Entry { value, index })
        .collect())
}
