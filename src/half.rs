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
        impl TotalRank for $t {
            #[inline]
            fn is_rankable(&self) -> bool {
                self.to_bits() & MAGNITUDE <= $infinity
            }
            #[inline]
            fn rank_cmp(&self, other: &Self) -> Ordering {
                order_key(self.to_bits()).cmp(&order_key(other.to_bits()))
            }
        }
    )*};
}

impl_half!(f16 => F16_INFINITY, bf16 => BF16_INFINITY);
