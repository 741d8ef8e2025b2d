//! [`top_k_into`]: the k best values of a slice, into caller buffers.

use crate::check::check_values;
use crate::heap::storage::{Reversed, Slices, Storage};
use crate::reverse::reversed;
use crate::{Error, Selector, TotalRank};
#[cfg(doc)]
use core::cmp::Reverse;

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
    into_buffers(x, Slices::new(idx, val)?)
}

/// Writes the `k = idx.len()` *smallest* entries of `x` into `idx` and `val`, smallest first:
/// values in ascending order, equal values by ascending index, and a tie at the k-th place
/// goes to the lower index. The order of [`TopK<Reverse<T>, K>`](crate::TopK) (see
/// [`TotalRank`] for [`Reverse`]), on a plain `&[T]` with no copy of the row: the row is
/// read in place as `Reverse<T>` (the same layout) by the same scan as [`top_k_into`]'s, and
/// the heap keeps the values in `val` as plain `T`. For `f32` the block test is one IEEE
/// comparison per value, as for the largest, with the same explicit SIMD code.
///
/// The same checks, errors and promises as [`top_k_into`]: nothing is written on an error.
///
/// ```
/// use tinytopk::bottom_k_into;
///
/// let distances = [0.5_f32, 0.25, 3.0, 0.25, -0.0, 0.0];
/// let (mut idx, mut val) = ([0_u32; 3], [0.0_f32; 3]);
/// bottom_k_into(&distances, &mut idx, &mut val)?;
/// assert_eq!(idx, [4, 5, 1]); // -0.0 and 0.0 tie: the lower index first
/// assert_eq!(val, [0.0, 0.0, 0.25]);
/// # Ok::<(), tinytopk::Error>(())
/// ```
///
/// # Errors
///
/// As [`top_k_into`]: [`Error::LengthMismatch`], [`Error::TooLong`], [`Error::NotRankable`]
/// for the first NaN whatever `k` is, [`Error::KTooLarge`]. `idx` and `val` are then
/// untouched.
pub fn bottom_k_into<T: TotalRank>(x: &[T], idx: &mut [u32], val: &mut [T]) -> Result<(), Error> {
    into_buffers(reversed(x), Reversed::new(idx, val)?)
}

/// The `k` best entries of `x`, `k` the capacity of the empty `heap` over the caller's
/// buffers, left in them best first: [`top_k_into`] and [`bottom_k_into`], checked as they
/// say.
fn into_buffers<S: Storage>(x: &[S::Value], heap: S) -> Result<(), Error> {
    let mut top = Selector::over(heap, 0);
    check_k(&top, x)?;
    #[cfg(feature = "fast")]
    if top.capacity() == x.len() {
        check_values(0, x)?;
        crate::heap::keep_row(&mut top.into_heap(), 0, x, false);
        return Ok(());
    }
    top.extend_from_slice(x)?;
    // Sorted in place: the buffers hold the entries best first. By reference: a move of the
    // selector would copy it to a second place on the stack.
    top.sort_best_first();
    Ok(())
}

/// [`Error::KTooLarge`] if `top` keeps more than `x` has, after the first NaN of `x`, which is
/// the error whatever k is. Checked here, on the error path only: on the way to the heap the
/// selector checks the values itself.
fn check_k<S: Storage, T: TotalRank>(top: &Selector<S::Value, S>, x: &[T]) -> Result<(), Error> {
    if top.capacity() > x.len() {
        check_values(0, x)?;
        return Err(Error::KTooLarge {
            k: top.capacity(),
            n: x.len(),
        });
    }
    Ok(())
}
