//! [`top_k_rows`]: the top k of every row of a batch, into caller buffers.

use crate::check::check_values;
#[cfg(feature = "fast")]
use crate::heap::{keep_row, storage::Slices};
use crate::{Error, SliceTopK, TotalRank};

/// The shape of a batch: `rows` rows of `n` values in, `rows` rows of `k` entries out.
#[derive(Clone, Copy, Debug)]
struct Shape {
    /// The row length.
    n: usize,
    /// Entries per row.
    k: usize,
}

/// Checks the shape of a batch of `x.len()` values in rows of `n` with `out` output places
/// (not yet that `k <= n`: a NaN is the error before that, as for `top_k_into`). A batch of
/// no rows (`x` and the outputs empty) is fine for any `n`.
fn shape(len: usize, n: usize, idx: usize, val: usize) -> Result<Shape, Error> {
    if idx != val {
        return Err(Error::LengthMismatch { idx, val });
    }
    let not_rows = Error::NotRows { len, n, out: idx };
    if len == 0 {
        return if idx == 0 {
            Ok(Shape { n, k: 0 })
        } else {
            Err(not_rows)
        };
    }
    // Checked divisions: `None` for `n == 0` (and for no rows, which `len > 0` rules out).
    let Some(rows) = len.checked_div(n).filter(|_| len % n.max(1) == 0) else {
        return Err(not_rows);
    };
    let Some(k) = idx.checked_div(rows).filter(|_| idx % rows.max(1) == 0) else {
        return Err(not_rows);
    };
    Ok(Shape { n, k })
}

/// Checks a batch before anything is written: its shape ([`shape`]), then every row, the
/// first bad row (by `first_bad_row`, given the rows and `n`) being the error, then that
/// `k <= n`. `None` if there is nothing to write (no rows, or `k == 0`), else the row length
/// `n` and the entries per row `k > 0`.
pub(crate) fn check_batch<T: TotalRank>(
    x: &[T],
    n: usize,
    idx: &[u32],
    val: &[T],
    first_bad_row: impl FnOnce(&[T], usize) -> Option<Error>,
) -> Result<Option<(usize, usize)>, Error> {
    let Shape { n, k } = shape(x.len(), n, idx.len(), val.len())?;
    if x.is_empty() {
        return Ok(None);
    }
    if let Some(err) = first_bad_row(x, n) {
        return Err(err);
    }
    if k > n {
        return Err(Error::KTooLarge { k, n });
    }
    Ok((k > 0).then_some((n, k)))
}

/// Checks every row of a batch whose shape is known: each row is a stream of its own (indices
/// from 0), and a NaN is named by its position in the flat `x`.
pub(crate) fn check_row<T: TotalRank>(row: usize, n: usize, values: &[T]) -> Result<(), Error> {
    check_values(0, values).map_err(|err| match err {
        Error::NotRankable { index } => Error::NotRankable {
            index: row * n + index,
        },
        other => other,
    })
}

/// [`top_k_into`](crate::top_k_into) of a row that [`check_row`] passed, with `k = idx.len()`
/// at most its length: not checked again.
pub(crate) fn top_k_of_checked_row<T: TotalRank>(
    values: &[T],
    idx: &mut [u32],
    val: &mut [T],
) -> Result<(), Error> {
    #[cfg(feature = "fast")]
    if idx.len() == values.len() {
        keep_row(&mut Slices::new(idx, val)?, 0, values, false);
        return Ok(());
    }
    let mut top = SliceTopK::new(idx, val)?;
    top.extend_rankable(values)?;
    top.into_sorted();
    Ok(())
}

/// The top `k` of each row of `x`, a row-major batch of rows of `n` values, into `idx` and
/// `val` (`rows × k` places each, row-major): row `r`'s entries, best first, at
/// `r*k..(r+1)*k`, their indices positions within the row (`0..n`). `k` is
/// `idx.len() / rows`. No allocation; the same contract as
/// [`top_k_into`](crate::top_k_into) row by row.
///
/// Every row is checked before the first write: a NaN anywhere, even in the last row, leaves
/// every row of the outputs untouched. The error names the NaN by its position in the flat
/// `x` (its row is `index / n`, its column `index % n`): the first NaN of the batch.
///
/// ```
/// use tinytopk::top_k_rows;
///
/// let batch = [
///     1.0_f32, 3.0, 2.0, //
///     0.0, -1.0, 0.0,
/// ];
/// let (mut idx, mut val) = ([0_u32; 4], [0.0_f32; 4]);
/// top_k_rows(&batch, 3, &mut idx, &mut val)?;
/// assert_eq!(idx, [1, 2, 0, 2]);
/// assert_eq!(val, [3.0, 2.0, 0.0, 0.0]);
///
/// let bad = [1.0_f32, 3.0, 2.0, 0.0, f32::NAN, 0.0];
/// assert_eq!(
///     top_k_rows(&bad, 3, &mut idx, &mut val),
///     Err(tinytopk::Error::NotRankable { index: 4 })
/// );
/// assert_eq!(idx, [1, 2, 0, 2]); // nothing written, row 0 included
/// # Ok::<(), tinytopk::Error>(())
/// ```
///
/// # Errors
///
/// In this order: [`Error::LengthMismatch`] if `idx` and `val` differ in length;
/// [`Error::NotRows`] if `x.len()` is not a multiple of `n` (or `n == 0` with values) or the
/// outputs are not a multiple of the rows; [`Error::TooLong`] if a row has more than
/// `u32::MAX + 1` values; [`Error::NotRankable`] with the flat position of the first NaN,
/// whatever `k` is (as [`top_k_into`](crate::top_k_into)); [`Error::KTooLarge`] if `k > n`.
/// Nothing is then written.
pub fn top_k_rows<T: TotalRank>(
    x: &[T],
    n: usize,
    idx: &mut [u32],
    val: &mut [T],
) -> Result<(), Error> {
    let first_bad_row = |x: &[T], n: usize| {
        // `n > 0` here: the `max` only lets the compiler see it.
        let mut rows = x.chunks_exact(n.max(1)).enumerate();
        rows.find_map(|(row, values)| check_row(row, n, values).err())
    };
    let Some((n, k)) = check_batch(x, n, idx, val, first_bad_row)? else {
        return Ok(());
    };
    // Row by row, by checked ranges: a zip of `chunks_exact` divides by the chunk length in
    // code that does not see it positive, which links a panic.
    for row in 0..x.len() / n.max(1) {
        let (values, out) = (row * n..(row + 1) * n, row * k..(row + 1) * k);
        let (Some(values), Some(idx), Some(val)) =
            (x.get(values), idx.get_mut(out.clone()), val.get_mut(out))
        else {
            break;
        };
        top_k_of_checked_row(values, idx, val)?;
    }
    Ok(())
}
