//! A slice of `T` seen as a slice of [`Reverse<T>`] and back, with no copy: how
//! [`bottom_k_into`](crate::bottom_k_into) reads a plain row in the reversed order through the
//! same scan as [`top_k_into`](crate::top_k_into), and how the explicit SIMD block test finds
//! `f32` inside a `Reverse<f32>`.
//!
//! `Reverse` is `#[repr(transparent)]` over its one public field (its documentation says so),
//! so `Reverse<T>` has the size, alignment and valid values of `T`, and a slice of one is a
//! slice of the other. The only `unsafe` code outside `arch`: two casts of a slice.
#![allow(unsafe_code)]

use core::cmp::Reverse;
use core::slice;

/// `values` as `Reverse<T>`s, borrowed for as long.
#[inline(always)]
pub(crate) fn reversed<T>(values: &[T]) -> &[Reverse<T>] {
    // SAFETY: `Reverse<T>` is `repr(transparent)` over `T` (same layout and validity); the
    // pointer and the length are those of a live slice, borrowed for the same lifetime.
    unsafe { slice::from_raw_parts(values.as_ptr().cast::<Reverse<T>>(), values.len()) }
}

/// `values` as the `T`s inside them, borrowed for as long.
#[inline(always)]
pub(crate) fn unreversed<T>(values: &[Reverse<T>]) -> &[T] {
    // SAFETY: as for `reversed`, the other way.
    unsafe { slice::from_raw_parts(values.as_ptr().cast::<T>(), values.len()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_views_are_the_same_values() {
        let x = [1.5_f32, -0.0, f32::NEG_INFINITY, 7.0];
        let r = reversed(&x);
        assert_eq!(r.len(), x.len());
        assert!(r.iter().zip(&x).all(|(a, b)| a.0.to_bits() == b.to_bits()));
        assert_eq!(unreversed(r).as_ptr(), x.as_ptr());
        assert!(reversed::<u8>(&[]).is_empty());
        let pairs = [(1_u64, 2_u8), (3, 4)];
        assert_eq!(unreversed(reversed(&pairs)), &pairs);
    }
}
