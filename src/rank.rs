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
    ///
    /// ```
    /// use tinytopk::TotalRank;
    ///
    /// assert!(f32::NEG_INFINITY.is_rankable());
    /// assert!(!f32::NAN.is_rankable());
    /// ```
    fn is_rankable(&self) -> bool;

    /// The order of two rankable values: `Less` if `self` ranks below (is worse than) `other`,
    /// `Equal` for a tie.
    ///
    /// ```
    /// use core::cmp::Ordering;
    /// use tinytopk::TotalRank;
    ///
    /// assert_eq!((-0.0_f32).rank_cmp(&0.0), Ordering::Equal); // IEEE: the zeros tie
    /// assert_eq!(1_u8.rank_cmp(&2), Ordering::Less);
    /// ```
    fn rank_cmp(&self, other: &Self) -> Ordering;

    /// Whether `self` could enter a full selector whose worst kept value is `threshold`: `true`
    /// if `self` is not rankable, or if it ranks strictly above `threshold` (a tie stays out,
    /// since the kept entry has the lower index). `threshold` is rankable.
    ///
    /// The selectors test whole blocks of values with it before they look at any one of them,
    /// so it should compile to straight-line code with no branch: the default, built on
    /// [`is_rankable`](TotalRank::is_rankable) and [`rank_cmp`](TotalRank::rank_cmp), is
    /// correct for every type; `f32` and `f64` override it with the one IEEE comparison
    /// `!(self <= threshold)` (true for NaN and for a greater value), the integers with `>` and
    /// `half`'s 16-bit floats with a comparison of integer keys (feature `half`),
    /// which vectorize. An override must give exactly the default's answer on every pair (the
    /// tests check the crate's own against the default); one that does not may change which
    /// entries are kept, never cause a panic or undefined behaviour.
    ///
    /// ```
    /// use tinytopk::TotalRank;
    ///
    /// assert!(2.0_f32.may_enter_above(&1.0));
    /// assert!(!1.0_f32.may_enter_above(&1.0)); // a tie stays out
    /// assert!(f32::NAN.may_enter_above(&1.0)); // so that the check sees it
    /// ```
    #[inline]
    fn may_enter_above(&self, threshold: &Self) -> bool {
        !self.is_rankable() || self.rank_cmp(threshold) == Ordering::Greater
    }

    /// The mirror of [`may_enter_above`](TotalRank::may_enter_above): `true` if `self` is not
    /// rankable, or if it ranks strictly below `threshold`. It is `may_enter_above` of
    /// [`Reverse`](core::cmp::Reverse), so that a smallest-k block test is as branch-free as a
    /// largest-k one. Not part of the API: an impl outside the crate keeps the default. An
    /// override must give exactly the default's answer; one that does not may change which
    /// entries are kept, never cause a panic or undefined behaviour.
    #[doc(hidden)]
    #[inline]
    fn may_enter_below(&self, threshold: &Self) -> bool {
        !self.is_rankable() || self.rank_cmp(threshold) == Ordering::Less
    }

    /// A rankable value between `low` and `high` (both rankable, `low` ranking below `high`):
    /// the one halfway between them in a monotone integer key of the order, so that halving
    /// again and again ends within the key's bits (32 for `f32`). The scan bisects with it for a
    /// threshold when a row defeats its sample; `None`, the default, leaves the scan without
    /// that bound. Not part of the API: an impl outside the crate keeps the default. One that
    /// returns a value outside `low..=high` may change which entries are kept, never cause a
    /// panic or undefined behaviour.
    #[doc(hidden)]
    #[inline]
    fn rank_midpoint(low: &Self, high: &Self) -> Option<Self> {
        let _ = (low, high);
        None
    }

    /// `values` as `f32`s if `Self` is `f32`, else `None`: how the crate's explicit SIMD
    /// block test, written for `f32` only, is reached from generic code with no cast. Not part
    /// of the API: an impl outside the crate keeps the default. One that does not may change
    /// which entries are kept, never cause a panic or undefined behaviour.
    #[doc(hidden)]
    #[inline(always)]
    fn as_f32s(values: &[Self]) -> Option<&[f32]> {
        let _ = values;
        None
    }

    /// `values` as the `f32`s inside them if `Self` is `Reverse<f32>`, else `None`: how the
    /// explicit SIMD block test serves the smallest-k order of `f32` too. Not part of the API,
    /// as [`as_f32s`](TotalRank::as_f32s).
    #[doc(hidden)]
    #[inline(always)]
    fn as_reversed_f32s(values: &[Self]) -> Option<&[f32]> {
        let _ = values;
        None
    }

    /// `values` as `f32`s if `Self` is `f32`, else `None`: how the radix sort of a whole row
    /// borrows a value buffer as scratch. Not part of the API, as
    /// [`as_f32s`](TotalRank::as_f32s).
    #[doc(hidden)]
    #[inline(always)]
    fn as_f32s_mut(values: &mut [Self]) -> Option<&mut [f32]> {
        let _ = values;
        None
    }

    /// `entries` as entries of `f32` if `Self` is `f32`, else `None`: how the radix sort of a
    /// whole row borrows an array of entries as scratch. Not part of the API, as
    /// [`as_f32s`](TotalRank::as_f32s).
    #[doc(hidden)]
    #[inline(always)]
    fn as_f32_entries_mut(entries: &mut [crate::Entry<Self>]) -> Option<&mut [crate::Entry<f32>]> {
        let _ = entries;
        None
    }
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

/// Whether `f32` ranks by the integer keys of [`IeeeBits`]: where floats are emulated (Arm
/// without the hard-float ABI, a Cortex-M0 say) and the footprint is the plain one (no
/// `fast`). The same answers (the tests check both forms on every target); a few 32-bit
/// instructions inline, where an IEEE comparison is a call into the soft-float library that
/// clobbers four registers, so that the heap's loops keep their values in registers: the
/// plain `top_k_into` takes less code and stack on the M0 so. With `fast`, whose scan and
/// introsort compare in many places, the inlined key took more code than the calls (a third
/// more at opt-level 3); and not `f64`, whose 64-bit key is several instructions a word on a
/// 32-bit core.
const SOFT_F32: bool = cfg!(all(
    target_arch = "arm",
    not(target_abi = "eabihf"),
    not(feature = "fast")
));

/// The IEEE order of a float in integers. The bits are sign and magnitude, and the magnitude
/// read as an unsigned integer grows with the value's, infinity included; a larger one is NaN.
trait IeeeBits: Copy {
    /// The order's key: `±magnitude`, so that `-0.0` and `0.0` are both 0. Branch free.
    type Key: Ord;
    /// The key of a value that is not NaN.
    fn order_key(self) -> Self::Key;
    /// Whether the value is NaN: a magnitude above infinity's.
    fn is_nan_bits(self) -> bool;
}

/// The floor of the mean of two integers, with no overflow.
macro_rules! mean {
    ($a:expr, $b:expr) => {
        ($a & $b) + (($a ^ $b) >> 1)
    };
}

macro_rules! impl_float {
    ($($t:ty, $signed:ty, $unsigned:ty, $soft:expr, { $($extra:item)* })*) => {$(
        impl TotalRank for $t {
            #[inline]
            fn is_rankable(&self) -> bool {
                if $soft {
                    !self.is_nan_bits()
                } else {
                    float_is_rankable(*self)
                }
            }
            #[inline]
            fn rank_cmp(&self, other: &Self) -> Ordering {
                if $soft {
                    self.order_key().cmp(&other.order_key())
                } else {
                    ieee_cmp(self, other)
                }
            }
            /// One IEEE comparison: `!(self <= threshold)` holds for NaN and for a greater value
            /// (with emulated `f32`, NaN or a greater key).
            #[inline]
            #[allow(clippy::neg_cmp_op_on_partial_ord)]
            fn may_enter_above(&self, threshold: &Self) -> bool {
                if $soft {
                    self.is_nan_bits() | (self.order_key() > threshold.order_key())
                } else {
                    !(*self <= *threshold)
                }
            }
            /// One IEEE comparison: `!(self >= threshold)` holds for NaN and for a lower value
            /// (with emulated `f32`, NaN or a lower key).
            #[inline]
            #[allow(clippy::neg_cmp_op_on_partial_ord)]
            fn may_enter_below(&self, threshold: &Self) -> bool {
                if $soft {
                    self.is_nan_bits() | (self.order_key() < threshold.order_key())
                } else {
                    !(*self >= *threshold)
                }
            }
            /// The mean of the two values' keys: the bits read as a signed integer, the
            /// magnitude bits of a negative value flipped, grow with the IEEE order (NaN keys lie
            /// beyond both infinities, so a key between two rankable ones is rankable).
            #[inline]
            fn rank_midpoint(low: &Self, high: &Self) -> Option<Self> {
                const SIGN: u32 = <$signed>::BITS - 1;
                // Flips the magnitude bits of a negative key: its own inverse.
                let flip = |bits: $signed| bits ^ ((bits >> SIGN) as $unsigned >> 1) as $signed;
                let (a, b) = (flip(low.to_bits() as $signed), flip(high.to_bits() as $signed));
                Some(<$t>::from_bits(flip(mean!(a, b)) as $unsigned))
            }
            $($extra)*
        }

        impl IeeeBits for $t {
            type Key = $signed;
            #[inline]
            fn order_key(self) -> $signed {
                let magnitude = (self.to_bits() & (<$unsigned>::MAX >> 1)) as $signed;
                // All ones for a negative value, zero for a positive one.
                let sign = self.to_bits() as $signed >> (<$signed>::BITS - 1);
                // Negates the magnitude when `sign` is all ones; a magnitude is at most
                // `$signed::MAX`, so nothing wraps.
                (magnitude ^ sign).wrapping_sub(sign)
            }
            #[inline]
            fn is_nan_bits(self) -> bool {
                self.to_bits() & (<$unsigned>::MAX >> 1) > <$t>::INFINITY.to_bits()
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
            #[inline]
            fn may_enter_above(&self, threshold: &Self) -> bool {
                *self > *threshold
            }
            #[inline]
            fn may_enter_below(&self, threshold: &Self) -> bool {
                *self < *threshold
            }
            #[inline]
            fn rank_midpoint(low: &Self, high: &Self) -> Option<Self> {
                Some(mean!(*low, *high))
            }
        }
    )*};
}

impl_float!(
    f32, i32, u32, SOFT_F32, {
        /// `Some(values)`: the explicit SIMD block test serves `f32`.
        #[inline(always)]
        fn as_f32s(values: &[Self]) -> Option<&[f32]> {
            Some(values)
        }
        /// `Some(values)`: the radix sort serves `f32`.
        #[inline(always)]
        fn as_f32s_mut(values: &mut [Self]) -> Option<&mut [f32]> {
            Some(values)
        }
        /// `Some(entries)`: the radix sort serves `f32`.
        #[inline(always)]
        fn as_f32_entries_mut(entries: &mut [crate::Entry<Self>]) -> Option<&mut [crate::Entry<f32>]> {
            Some(entries)
        }
    }
    f64, i64, u64, false, {}
);
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
    /// `T`'s [`may_enter_below`](TotalRank::may_enter_below): for `f32`, the one IEEE
    /// comparison `!(self.0 >= threshold.0)`, branch-free as the largest-k test.
    #[inline]
    fn may_enter_above(&self, threshold: &Self) -> bool {
        self.0.may_enter_below(&threshold.0)
    }
    #[inline]
    fn may_enter_below(&self, threshold: &Self) -> bool {
        self.0.may_enter_above(&threshold.0)
    }
    #[inline]
    fn rank_midpoint(low: &Self, high: &Self) -> Option<Self> {
        T::rank_midpoint(&high.0, &low.0).map(core::cmp::Reverse)
    }
    /// `T::as_f32s` of the values inside: `Some` for `Reverse<f32>`.
    #[inline(always)]
    fn as_reversed_f32s(values: &[Self]) -> Option<&[f32]> {
        T::as_f32s(crate::reverse::unreversed(values))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{by_default, F32_EDGES};

    /// A type with only the two required methods: `i32::MIN` is not rankable.
    #[derive(Clone, Copy, Debug)]
    struct Plain(i32);

    impl TotalRank for Plain {
        fn is_rankable(&self) -> bool {
            self.0 != i32::MIN
        }
        fn rank_cmp(&self, other: &Self) -> Ordering {
            self.0.cmp(&other.0)
        }
    }

    #[test]
    fn the_defaults_of_the_block_tests_are_their_definitions() {
        let values = [i32::MIN, -1, 0, 1, i32::MAX].map(Plain);
        for v in values {
            for t in values.into_iter().filter(TotalRank::is_rankable) {
                let (above, below) = (v.0 > t.0, v.0 < t.0);
                let unrankable = v.0 == i32::MIN;
                assert_eq!(v.may_enter_above(&t), unrankable || above, "{v:?} {t:?}");
                assert_eq!(v.may_enter_below(&t), unrankable || below, "{v:?} {t:?}");
            }
        }
    }

    fn check_all<T: TotalRank + core::fmt::Debug>(values: &[T]) {
        for v in values {
            for t in values.iter().filter(|t| t.is_rankable()) {
                assert_eq!(
                    v.may_enter_above(t),
                    by_default(v, t),
                    "{v:?} against {t:?}"
                );
                let below = !v.is_rankable() || v.rank_cmp(t) == Ordering::Less;
                assert_eq!(v.may_enter_below(t), below, "{v:?} below {t:?}");
            }
        }
    }

    #[test]
    fn float_overrides_equal_the_default() {
        let f32s = F32_EDGES;
        check_all(&f32s);
        let f64s: [f64; 15] = f32s.map(f64::from);
        check_all(&f64s);
        check_all(&[f64::from_bits(0x7FF0_0000_0000_0001), 5e-324, -5e-324]);
        check_all(&f32s.map(core::cmp::Reverse));
        check_all(&f64s.map(core::cmp::Reverse));
    }

    /// The integer form of emulated floats gives IEEE's answers: NaN by its bits, the order
    /// of two other values by their keys, and the block tests' ORs of both.
    fn check_keys<F>(values: &[F])
    where
        F: IeeeBits + PartialOrd + Copy + core::fmt::Debug,
    {
        for &a in values {
            let nan = a.partial_cmp(&a).is_none();
            assert_eq!(a.is_nan_bits(), nan, "{a:?}");
            for &b in values.iter().filter(|b| b.partial_cmp(b).is_some()) {
                // IEEE: NaN is unordered, so it may enter both ways.
                let ieee = a.partial_cmp(&b);
                let above = a.is_nan_bits() | (a.order_key() > b.order_key());
                let below = a.is_nan_bits() | (a.order_key() < b.order_key());
                assert_eq!(
                    above,
                    ieee.map_or(true, Ordering::is_gt),
                    "{a:?} above {b:?}"
                );
                assert_eq!(
                    below,
                    ieee.map_or(true, Ordering::is_lt),
                    "{a:?} below {b:?}"
                );
                if !nan {
                    assert_eq!(Some(a.order_key().cmp(&b.order_key())), ieee, "{a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn the_keys_of_emulated_floats_are_the_ieee_order() {
        let mut f32s = F32_EDGES.to_vec();
        f32s.extend([
            2.0,
            -2.0,
            1.5,
            f32::EPSILON,
            -f32::MIN_POSITIVE,
            1e-40,
            -1e-40,
        ]);
        f32s.extend([0x7FC0_0000, 0xFF80_0001, 0x7FFF_FFFF, 0x8000_0001].map(f32::from_bits));
        check_keys(&f32s);
        let mut f64s: std::vec::Vec<f64> = f32s.iter().map(|&v| f64::from(v)).collect();
        f64s.extend([5e-324, -5e-324, f64::MAX, f64::MIN, 1.0 + f64::EPSILON]);
        f64s.extend([0x7FF0_0000_0000_0001, 0xFFFF_FFFF_FFFF_FFFF].map(f64::from_bits));
        check_keys(&f64s);
    }

    #[test]
    fn integer_overrides_equal_the_default() {
        check_all(&[i32::MIN, -1, 0, 1, i32::MAX]);
        check_all(&[0_u8, 1, 127, 128, 255]);
        check_all(&[i128::MIN, 0, i128::MAX]);
        check_all(&[0_usize, 1, usize::MAX]);
        check_all(&[i32::MIN, -1, 0, 1, i32::MAX].map(core::cmp::Reverse));
    }

    /// Every midpoint of two rankable values ranks between them, and halving an interval
    /// again and again ends (the midpoint ties an end) within the key's bits.
    fn check_midpoints<T: TotalRank + core::fmt::Debug>(values: &[T], bits: u32) {
        for low in values.iter().filter(|v| v.is_rankable()) {
            for high in values.iter().filter(|v| v.is_rankable()) {
                if low.rank_cmp(high) != Ordering::Less {
                    continue;
                }
                let (mut low, mut high) = (*low, *high);
                let mut steps = 0;
                loop {
                    let mid = T::rank_midpoint(&low, &high).unwrap();
                    assert!(mid.is_rankable(), "{mid:?}");
                    assert_ne!(mid.rank_cmp(&low), Ordering::Less, "{mid:?} < {low:?}");
                    assert_ne!(mid.rank_cmp(&high), Ordering::Greater, "{mid:?} > {high:?}");
                    if mid.rank_cmp(&low) == Ordering::Equal
                        || mid.rank_cmp(&high) == Ordering::Equal
                    {
                        break;
                    }
                    // Alternate halves, so that both ends move.
                    if steps % 2 == 0 {
                        low = mid;
                    } else {
                        high = mid;
                    }
                    steps += 1;
                    assert!(steps <= bits, "no end after {steps} halvings");
                }
            }
        }
    }

    #[test]
    fn midpoints_rank_between_and_halving_ends() {
        let f32s: std::vec::Vec<f32> = F32_EDGES.into_iter().filter(|v| !v.is_nan()).collect();
        check_midpoints(&f32s, 32);
        let f64s: std::vec::Vec<f64> = f32s.iter().map(|&v| f64::from(v)).collect();
        check_midpoints(&f64s, 64);
        let reversed: std::vec::Vec<_> = f32s.iter().map(|&v| core::cmp::Reverse(v)).collect();
        check_midpoints(&reversed, 32);
        check_midpoints(&[i32::MIN, -7, -1, 0, 1, 6, i32::MAX], 32);
        check_midpoints(&[0_u64, 1, 9, u64::MAX - 1, u64::MAX], 64);
        check_midpoints(&[i128::MIN, -1, 0, i128::MAX], 128);
        assert_eq!(
            f32::rank_midpoint(&-0.0, &0.0).map(f32::to_bits),
            Some((-0.0_f32).to_bits())
        );
        assert_eq!(f32::rank_midpoint(&1.0, &4.0), Some(2.0));
        assert_eq!(f32::rank_midpoint(&-4.0, &-1.0), Some(-2.0));
        assert_eq!(i8::rank_midpoint(&-128, &127), Some(-1));
        assert_eq!(Odd::rank_midpoint(&Odd(1), &Odd(5)).map(|v| v.0), None);
    }

    /// A type that keeps the default: it is the rank order, NaN-like values included.
    #[derive(Clone, Copy, Debug)]
    struct Odd(i32);

    impl TotalRank for Odd {
        fn is_rankable(&self) -> bool {
            self.0 % 2 != 0
        }
        fn rank_cmp(&self, other: &Self) -> Ordering {
            self.0.cmp(&other.0)
        }
    }

    #[test]
    fn the_default_is_the_rank_order() {
        // Unrankable values (even) may always enter; rankable ones iff strictly greater.
        assert!(Odd(2).may_enter_above(&Odd(5)));
        assert!(Odd(7).may_enter_above(&Odd(5)));
        assert!(!Odd(5).may_enter_above(&Odd(5)));
        assert!(!Odd(3).may_enter_above(&Odd(5)));
    }
}
