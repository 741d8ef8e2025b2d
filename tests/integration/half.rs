//! `half::f16` and `half::bf16` (feature `half`): the order against f32 (the conversion is
//! exact, so it is an independent oracle), every NaN bit pattern, and every API against the
//! oracle on tie-heavy rows, as for f32 in tests/integration/properties.rs.
//!
//! The fixture rows of f16 and bf16 (fixtures/f16.txt, fixtures/bf16.txt) run through every
//! API in tests/integration/fixtures.rs.

use crate::common;

use common::{assert_every_api, ieee_order, oracle, row_and_k, tie_heavy, Value};
use half::{bf16, f16};
use proptest::prelude::*;
use tinytopk::{top_k_into, Error, TopK, TotalRank};

/// A 16-bit float type under test, with its exact conversion to f32.
trait Half: Value + Send + Sync + 'static {
    fn from_bits(bits: u16) -> Self;
    fn to_f32(self) -> f32;
    fn from_f32(v: f32) -> Self;
}

impl Half for f16 {
    fn from_bits(bits: u16) -> Self {
        f16::from_bits(bits)
    }
    fn to_f32(self) -> f32 {
        f16::to_f32(self)
    }
    fn from_f32(v: f32) -> Self {
        f16::from_f32(v)
    }
}

impl Half for bf16 {
    fn from_bits(bits: u16) -> Self {
        bf16::from_bits(bits)
    }
    fn to_f32(self) -> f32 {
        bf16::to_f32(self)
    }
    fn from_f32(v: f32) -> Self {
        bf16::from_f32(v)
    }
}

/// Every one of the 65,536 bit patterns: rankable iff not NaN as f32, and the order against
/// the neighbours that matter: the type's edge values (both zeros, both infinities, the
/// extremes, the smallest normal and subnormals).
fn every_bit_pattern<H: Half>() {
    let pivots = H::edges();
    for bits in 0..=u16::MAX {
        let v = H::from_bits(bits);
        assert_eq!(v.is_rankable(), !v.to_f32().is_nan(), "{bits:#06x}");
        if v.is_rankable() {
            for &p in &pivots {
                assert_eq!(
                    v.rank_cmp(&p),
                    ieee_order(&v.to_f32(), &p.to_f32()),
                    "{bits:#06x} vs {p:?}"
                );
            }
        }
    }
}

#[test]
fn f16_every_bit_pattern() {
    every_bit_pattern::<f16>();
}

#[test]
fn bf16_every_bit_pattern() {
    every_bit_pattern::<bf16>();
}

#[test]
fn zeros_tie_and_minus_infinity_ranks_last() {
    let x = [
        bf16::ZERO,
        bf16::NEG_ZERO,
        bf16::NEG_INFINITY,
        bf16::ZERO,
        bf16::MIN,
    ];
    let expected = Ok(common::zip_entries(
        &[0, 1, 3, 4],
        &[bf16::ZERO, bf16::NEG_ZERO, bf16::ZERO, bf16::MIN],
    ));
    assert_every_api(&x, 4, &expected);
    let x = [
        f16::ZERO,
        f16::NEG_ZERO,
        f16::NEG_INFINITY,
        f16::ZERO,
        f16::MIN,
    ];
    assert_eq!(
        oracle(&x, 5).unwrap().last().map(|e| e.index),
        Some(2),
        "-inf ranks last"
    );
}

/// Every NaN of the type's list: named by `top_k_into` with nothing written, and by a selector's
/// push with the stream position kept.
fn nan_of_any_pattern<H: Half>() {
    let one = H::from_f32(1.0);
    let sentinel = H::from_f32(-7.5);
    for nan in H::nans() {
        assert!(!nan.is_rankable(), "{nan:?}");
        let x = [one, nan, H::default()];
        let (mut idx, mut val) = ([9_u32; 2], [sentinel; 2]);
        assert_eq!(
            top_k_into(&x, &mut idx, &mut val),
            Err(Error::NotRankable { index: 1 })
        );
        assert_eq!(idx, [9; 2]);
        assert_eq!(val.map(H::bits), [sentinel.bits(); 2]);

        let mut top = TopK::<H, 1>::new();
        top.push(one).unwrap();
        assert_eq!(top.push(nan), Err(Error::NotRankable { index: 1 }));
        assert_eq!(top.stream_len(), 1);
    }
}

#[test]
fn nan_of_any_pattern_is_named_and_nothing_is_written() {
    nan_of_any_pattern::<f16>();
    nan_of_any_pattern::<bf16>();
}

/// Tie-heavy rows of 16-bit values (edge values and any non-NaN pattern): up to 64 values from
/// a pool of 1 to 8, with a k in `0..=n + 1`.
fn rows<H: Half>() -> impl Strategy<Value = (Vec<H>, usize)> {
    row_and_k(tie_heavy::<H>(1..=8, 64))
}

/// Every API equals the oracle, and the same indices come out of the row converted to f32.
fn matches_oracle_and_f32<H: Half>(x: &[H], k: usize) {
    let expected = oracle(x, k);
    assert_every_api(x, k, &expected);
    let wide: Vec<f32> = x.iter().map(|v| v.to_f32()).collect();
    let wide_ids = oracle(&wide, k).map(|e| e.iter().map(|e| e.index).collect::<Vec<_>>());
    let ids = expected.map(|e| e.iter().map(|e| e.index).collect::<Vec<_>>());
    assert_eq!(ids, wide_ids);
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn f16_rows_match_the_oracle((x, k) in rows::<f16>()) {
        matches_oracle_and_f32(&x, k);
    }

    #[test]
    fn bf16_rows_match_the_oracle((x, k) in rows::<bf16>()) {
        matches_oracle_and_f32(&x, k);
    }

    #[test]
    fn f16_order_is_f32_order(a in any::<u16>(), b in any::<u16>()) {
        let (a, b) = (f16::from_bits(a), f16::from_bits(b));
        if a.is_rankable() && b.is_rankable() {
            prop_assert_eq!(a.rank_cmp(&b), ieee_order(&a.to_f32(), &b.to_f32()));
        }
    }

    #[test]
    fn bf16_order_is_f32_order(a in any::<u16>(), b in any::<u16>()) {
        let (a, b) = (bf16::from_bits(a), bf16::from_bits(b));
        if a.is_rankable() && b.is_rankable() {
            prop_assert_eq!(a.rank_cmp(&b), ieee_order(&a.to_f32(), &b.to_f32()));
        }
    }

    /// A NaN of any bit pattern anywhere in a bf16 row: the first is named, nothing written.
    #[test]
    fn bf16_nan_anywhere_is_named(
        (mut x, _) in rows::<bf16>(),
        at in any::<prop::sample::Index>(),
        payload in 1_u16..0x80,
        sign in any::<bool>(),
    ) {
        x.push(bf16::ONE);
        let nan = bf16::from_bits(0x7F80 | payload | if sign { 0x8000 } else { 0 });
        let at = at.index(x.len());
        x[at] = nan;
        let (mut idx, mut val) = (vec![5_u32; 1], vec![bf16::MAX; 1]);
        prop_assert_eq!(top_k_into(&x, &mut idx, &mut val), Err(Error::NotRankable { index: at }));
        prop_assert_eq!((idx[0], val[0]), (5, bf16::MAX));
    }
}
