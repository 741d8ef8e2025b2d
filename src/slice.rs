//! [`top_k_into`]: the k best values of a slice, into caller buffers.

use crate::check::check_values;
use crate::{Error, SliceTopK, TotalRank};

/// Writes the `k = idx.len()` best entries of `x` into `idx` and `val`, best first: values in
/// descending order, equal values by ascending index, and a tie at the k-th place goes to the
/// lower index.
///
/// Everything is checked before the first write. The heap is built inside `idx` and `val`
/// (no other buffer) and a final in-place heap sort leaves them best first. `k == 0` writes
/// nothing; `k == x.len()` is a full sort.
///
/// ```
/// use tinytopk::top_k_into;
///
/// let x = [1.0_f32, 3.0, 2.0, 3.0, -1.0];
/// let (mut idx, mut val) = ([0_u32; 3], [0.0_f32; 3]);
/// top_k_into(&x, &mut idx, &mut val)?;
/// assert_eq!(idx, [1, 3, 2]);
/// assert_eq!(val, [3.0, 3.0, 2.0]);
/// # Ok::<(), tinytopk::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::LengthMismatch`] if `idx` and `val` differ in length, [`Error::TooLong`] if `x`
/// has more than `u32::MAX + 1` values, [`Error::NotRankable`] with the index of the first
/// NaN in `x` whatever `k` is (`k > x.len()` included, as the reference sampler answers), and
/// [`Error::KTooLarge`] if `k > x.len()` and `x` has no NaN. `idx` and `val` are then
/// untouched.
pub fn top_k_into<T: TotalRank>(x: &[T], idx: &mut [u32], val: &mut [T]) -> Result<(), Error> {
    let mut top = SliceTopK::new(idx, val)?;
    if top.capacity() > x.len() {
        // The first NaN is the error whatever k is. Checked here, on the error path only: on
        // the way to the heap `extend_from_slice` checks the values itself.
        check_values(0, x)?;
        return Err(Error::KTooLarge {
            k: top.capacity(),
            n: x.len(),
        });
    }
    #[cfg(feature = "fast")]
    if top.capacity() == x.len() {
        check_values(0, x)?;
        return sort_all(x, idx, val);
    }
    top.extend_from_slice(x)?;
    top.into_sorted();
    Ok(())
}

/// Every value of `values`, which are rankable and at most `MAX_STREAM_LEN`, into `idx` and
/// `val`, whose length is theirs, best first, with the `fast` feature. With every value kept
/// there is nothing to select and no heap to build: the entries go to the buffers in stream
/// order, where the sort takes one pass for a row that is in order already (rising, falling
/// or all equal), as a sort of the row itself would.
#[cfg(feature = "fast")]
pub(crate) fn sort_all<T: TotalRank>(
    values: &[T],
    idx: &mut [u32],
    val: &mut [T],
) -> Result<(), Error> {
    use crate::heap::{self, storage::Slices, Storage};
    use crate::Entry;

    let mut all = Slices::new(idx, val)?;
    debug_assert_eq!(all.capacity(), values.len());
    for (index, &value) in (0..).zip(values).take(all.capacity()) {
        all.append(Entry { value, index });
    }
    heap::sort(&mut all);
    Ok(())
}
