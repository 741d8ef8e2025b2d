//! [`TotalRank`]: the value order every selector uses, and its impls for the primitive types.

use core::cmp::Ordering;

use num_traits::float::FloatCore;

/// A value type with a total order on its rankable values.
///
/// Every selector of this crate ranks entries by [`rank_cmp`](TotalRank::rank_cmp) and breaks
/// ties by index (see [`Entry::rank_cmp`](crate::Entry::rank_cmp)). Values that have no place in
/// the order, such as NaN, report `false` from [`is_rankable`](TotalRank::is_rankable); the
/// selectors reject them with [`Error::NotRankable`](crate::Error::NotRankable) before they reach
/// the order, so `rank_cmp` is only ever called on two rankable values.
///
/// Implemented for `f32` and `f64` (IEEE `<` and `==`: `-0.0 == 0.0`, `-inf` ranks last, every
/// NaN bit pattern is not rankable) and for every primitive integer (all values rankable).
///
/// # Implementing it for your own type
///
/// `rank_cmp` must be a total order on the rankable values: reflexive, antisymmetric,
/// transitive, returning `Equal` for ties, as `Ord` requires. An impl that breaks this is not
/// undefined behaviour: the selectors never panic or read out of bounds because of it, but the
/// entries they keep and the order they list them in are then unspecified.
///
/// ```
/// use core::cmp::Ordering;
/// use tinytopk::{top_k_into, TotalRank};
///
/// /// A score that ranks by distance to zero.
/// #[derive(Clone, Copy, Debug, PartialEq)]
/// struct Closeness(i32);
///
/// impl TotalRank for Closeness {
///     fn is_rankable(&self) -> bool {
///         true
///     }
///     fn rank_cmp(&self, other: &Self) -> Ordering {
///         other.0.unsigned_abs().cmp(&self.0.unsigned_abs())
///     }
/// }
///
/// let x = [Closeness(5), Closeness(-1), Closeness(3), Closeness(1)];
/// let (mut idx, mut val) = ([0; 2], [Closeness(0); 2]);
/// top_k_into(&x, &mut idx, &mut val)?;
/// assert_eq!(idx, [1, 3]); // |-1| and |1| tie: the lower index comes first
/// # Ok::<(), tinytopk::Error>(())
/// ```
pub trait TotalRank: Copy {
    /// Whether the value has a place in the order. `false` for NaN.
    fn is_rankable(&self) -> bool;

    /// The order of two rankable values: `Less` if `self` ranks below (is worse than) `other`,
    /// `Equal` for a tie.
    fn rank_cmp(&self, other: &Self) -> Ordering;
}

/// `!is_nan`, for every float type (f32, f64 and any other `FloatCore`).
#[inline]
pub(crate) fn float_is_rankable<F: FloatCore>(x: F) -> bool {
    !x.is_nan()
}

/// IEEE comparison of two non-NaN values: `-0.0` and `0.0` tie, `-inf` is below everything else.
#[inline]
pub(crate) fn ieee_cmp<F: PartialOrd>(a: &F, b: &F) -> Ordering {
    if a < b {
        Ordering::Less
    } else if a > b {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

macro_rules! impl_float {
    ($($t:ty)*) => {$(
        impl TotalRank for $t {
            #[inline]
            fn is_rankable(&self) -> bool {
                float_is_rankable(*self)
            }
            #[inline]
            fn rank_cmp(&self, other: &Self) -> Ordering {
                ieee_cmp(self, other)
            }
        }
    )*};
}

macro_rules! impl_int {
    ($($t:ty)*) => {$(
        impl TotalRank for $t {
            #[inline]
            fn is_rankable(&self) -> bool {
                true
            }
            #[inline]
            fn rank_cmp(&self, other: &Self) -> Ordering {
                Ord::cmp(self, other)
            }
        }
    )*};
}

impl_float!(f32 f64);
impl_int!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize);

/// The smallest values first: `Reverse(a)` ranks below `Reverse(b)` iff `b` ranks below `a`.
///
/// A selector over `Reverse<T>` keeps the k *smallest* values (beam search over costs, nearest
/// neighbours by distance) under the same contract: ties still go to the lower index, since
/// the index tie-break lives in [`Entry::rank_cmp`](crate::Entry::rank_cmp), outside the value
/// order; `Reverse(-0.0)` and `Reverse(0.0)` still tie; a NaN inside is still rejected.
///
/// ```
/// use core::cmp::Reverse;
/// use tinytopk::TopK;
///
/// let mut nearest = TopK::<Reverse<f32>, 2>::new();
/// for d in [0.5_f32, 0.25, 3.0, 0.25] {
///     nearest.push(Reverse(d))?;
/// }
/// let ids: Vec<u32> = nearest.into_sorted().iter().map(|e| e.index).collect();
/// assert_eq!(ids, [1, 3]); // the two 0.25s, the lower index first
/// # Ok::<(), tinytopk::Error>(())
/// ```
impl<T: TotalRank> TotalRank for core::cmp::Reverse<T> {
    #[inline]
    fn is_rankable(&self) -> bool {
        self.0.is_rankable()
    }
    #[inline]
    fn rank_cmp(&self, other: &Self) -> Ordering {
        other.0.rank_cmp(&self.0)
    }
}
