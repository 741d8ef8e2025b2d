//! [`TotalRank`] for the 16-bit floats of the `half` crate (feature `half`): `f16` (IEEE
//! binary16) and `bf16` (bfloat16, the top half of an f32), the types models emit their logits
//! in.
//!
//! Both are sign-magnitude: bit 15 is the sign and bits 0..15 read as an unsigned integer
//! grow with the magnitude (infinity included), so the IEEE order of two non-NaN values is the
//! order of the signed key `±magnitude`, with `-0.0` and `0.0` both at key 0 (a tie). NaN is
//! every exponent-all-ones pattern with a non-zero mantissa, whatever its sign and payload.
//! This ranks a row without converting it to f32 (`benches/half.rs` measures both).

use core::cmp::Ordering;

use ::half::{bf16, f16};

use crate::TotalRank;

/// The magnitude bits of a 16-bit sign-magnitude float.
const MAGNITUDE: u16 = 0x7FFF;
/// f16's infinity: exponent all ones, mantissa zero. A larger magnitude is NaN.
const F16_INFINITY: u16 = 0x7C00;
/// bf16's infinity: exponent all ones, mantissa zero. A larger magnitude is NaN.
const BF16_INFINITY: u16 = 0x7F80;

/// The IEEE order as an integer: `±magnitude`, so that `-0.0` and `0.0` are both 0. Branch
/// free (`(m ^ s) - s` negates `m` when `s` is all ones): this runs once per value of the row,
/// in the comparison with the heap's root, where a sign branch on random logits mispredicts.
#[inline]
fn order_key(bits: u16) -> i32 {
    let magnitude = i32::from(bits & MAGNITUDE);
    // All ones for a negative value, zero for a positive one.
    let sign = i32::from(bits as i16 >> 15);
    (magnitude ^ sign) - sign
}

macro_rules! impl_half {
    ($($t:ty => $infinity:expr),*) => {$(
        /// IEEE order (`-0.0 == 0.0`, `-inf` ranks last); NaN of any bit pattern is not rankable.
        #[cfg_attr(docsrs, doc(cfg(feature = "half")))]
        impl TotalRank for $t {
            #[inline]
            fn is_rankable(&self) -> bool {
                self.to_bits() & MAGNITUDE <= $infinity
            }
            #[inline]
            fn rank_cmp(&self, other: &Self) -> Ordering {
                order_key(self.to_bits()).cmp(&order_key(other.to_bits()))
            }
            /// The default's answer with no branch, so that the pre-filter's fold over a block
            /// vectorizes: NaN (a magnitude above infinity) or a greater key, or-ed with `|`.
            #[inline]
            fn may_enter_above(&self, threshold: &Self) -> bool {
                let bits = self.to_bits();
                (bits & MAGNITUDE > $infinity)
                    | (order_key(bits) > order_key(threshold.to_bits()))
            }
            /// The mirror of `may_enter_above`, with no branch: NaN or a lower key.
            #[inline]
            fn may_enter_below(&self, threshold: &Self) -> bool {
                let bits = self.to_bits();
                (bits & MAGNITUDE > $infinity)
                    | (order_key(bits) < order_key(threshold.to_bits()))
            }
            /// The mean of the two keys ([`order_key`]), back to bits: a key between two
            /// rankable ones has a magnitude of at most infinity, so it is rankable.
            #[inline]
            fn rank_midpoint(low: &Self, high: &Self) -> Option<Self> {
                let (a, b) = (order_key(low.to_bits()), order_key(high.to_bits()));
                let mid = (a & b) + ((a ^ b) >> 1);
                // The key's magnitude fits 15 bits: `±magnitude` of a rankable value.
                let magnitude = mid.unsigned_abs() as u16;
                Some(<$t>::from_bits(if mid < 0 { 0x8000 | magnitude } else { magnitude }))
            }
        }
    )*};
}

impl_half!(f16 => F16_INFINITY, bf16 => BF16_INFINITY);

#[cfg(test)]
mod tests {
    use std::vec::Vec;

    use super::*;
    use crate::testing::by_default;

    /// Thresholds for the exhaustive tests: every rankable pattern at a stride (fewer under
    /// Miri), and the edges: both zeros, both infinities, the extremes, the smallest
    /// subnormals.
    fn thresholds<H: TotalRank>(from_bits: fn(u16) -> H, infinity: u16) -> Vec<H> {
        let stride = if cfg!(miri) { 4099 } else { 251 };
        let edges = [
            0,
            0x8000,
            infinity,
            0x8000 | infinity,
            infinity - 1,
            0x8000 | (infinity - 1),
            1,
            0x8001,
        ];
        (0..=u16::MAX)
            .step_by(stride)
            .chain(edges)
            .map(from_bits)
            .filter(TotalRank::is_rankable)
            .collect()
    }

    /// Every bit pattern (every NaN included) against the thresholds: the override is the
    /// default.
    fn check<H: TotalRank + core::fmt::Debug>(from_bits: fn(u16) -> H, infinity: u16) {
        let thresholds = thresholds(from_bits, infinity);
        let step = if cfg!(miri) { 257 } else { 1 };
        for bits in (0..=u16::MAX).step_by(step) {
            let v = from_bits(bits);
            for t in &thresholds {
                assert_eq!(
                    v.may_enter_above(t),
                    by_default(&v, t),
                    "{bits:#06x} against {t:?}"
                );
                let below = !v.is_rankable() || v.rank_cmp(t) == Ordering::Less;
                assert_eq!(v.may_enter_below(t), below, "{bits:#06x} below {t:?}");
            }
        }
    }

    #[test]
    fn f16_may_enter_above_is_the_default_on_every_bit_pattern() {
        check(f16::from_bits, F16_INFINITY);
    }

    #[test]
    fn bf16_may_enter_above_is_the_default_on_every_bit_pattern() {
        check(bf16::from_bits, BF16_INFINITY);
    }

    /// The midpoint of two rankable thresholds ranks between them and is rankable.
    fn check_midpoints<H: TotalRank + core::fmt::Debug>(from_bits: fn(u16) -> H, infinity: u16) {
        let thresholds = thresholds(from_bits, infinity);
        for low in &thresholds {
            for high in thresholds
                .iter()
                .filter(|h| h.rank_cmp(low) == Ordering::Greater)
            {
                let mid = H::rank_midpoint(low, high).unwrap();
                assert!(mid.is_rankable(), "{low:?}..{high:?}: {mid:?}");
                assert_ne!(
                    mid.rank_cmp(low),
                    Ordering::Less,
                    "{low:?}..{high:?}: {mid:?}"
                );
                assert_ne!(
                    mid.rank_cmp(high),
                    Ordering::Greater,
                    "{low:?}..{high:?}: {mid:?}"
                );
            }
        }
        assert_eq!(
            H::rank_midpoint(&from_bits(0x8000 | infinity), &from_bits(infinity))
                .unwrap()
                .rank_cmp(&from_bits(0)),
            Ordering::Equal
        );
    }

    #[test]
    fn midpoints_of_both_types_rank_between() {
        check_midpoints(f16::from_bits, F16_INFINITY);
        check_midpoints(bf16::from_bits, BF16_INFINITY);
    }
}
