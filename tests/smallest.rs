//! Smallest-k through `Reverse<T>`: every API against an oracle written without the crate's
//! order (an ascending stable sort), the same tie rule (lower index first), -0.0 and 0.0 still
//! tie, NaN inside still rejected with its position.

mod common;

use core::cmp::Reverse;

use common::{assert_every_api, Value, F32_POOL, NAN_BITS};
use proptest::prelude::*;
use proptest::sample::select;
use tinytopk::{top_k_into, Entry, Error, TopK};

impl Value for Reverse<f32> {
    fn bits(self) -> u64 {
        self.0.to_bits().into()
    }
}

impl Value for Reverse<i32> {
    fn bits(self) -> u64 {
        self.0 as u32 as u64
    }
}

/// The k smallest of `x` by IEEE `<` (`partial_cmp`), equal values by ascending index (a
/// stable sort), as `Reverse` entries. Rejects NaN first and k > n, as the contract says.
fn smallest_oracle(x: &[f32], k: usize) -> Result<Vec<Entry<Reverse<f32>>>, Error> {
    if let Some(index) = x.iter().position(|v| v.is_nan()) {
        return Err(Error::NotRankable { index });
    }
    if k > x.len() {
        return Err(Error::KTooLarge { k, n: x.len() });
    }
    let mut all: Vec<(u32, f32)> = (0..).zip(x.iter().copied()).collect();
    all.sort_by(|a, b| a.1.partial_cmp(&b.1).unwrap());
    Ok(all
        .into_iter()
        .take(k)
        .map(|(index, v)| Entry {
            value: Reverse(v),
            index,
        })
        .collect())
}

fn reversed(x: &[f32]) -> Vec<Reverse<f32>> {
    x.iter().map(|&v| Reverse(v)).collect()
}

#[test]
fn hand_example() {
    let x = [1.0_f32, 3.0, -2.0, 1.0, -2.0];
    let got = smallest_oracle(&x, 3);
    assert_eq!(
        got.clone()
            .unwrap()
            .iter()
            .map(|e| e.index)
            .collect::<Vec<_>>(),
        [2, 4, 0]
    );
    assert_every_api(&reversed(&x), 3, &got);
}

#[test]
fn zeros_still_tie_and_infinity_ranks_last() {
    let x = [0.0_f32, f32::INFINITY, -0.0, 0.0, -0.0];
    let expected = smallest_oracle(&x, 4);
    assert_eq!(
        expected
            .clone()
            .unwrap()
            .iter()
            .map(|e| e.index)
            .collect::<Vec<_>>(),
        [0, 2, 3, 4]
    );
    assert_every_api(&reversed(&x), 4, &expected);
    // +inf is the worst of a smallest-k; -inf the best.
    let x = [f32::INFINITY, 1.0, f32::NEG_INFINITY];
    assert_every_api(&reversed(&x), 3, &smallest_oracle(&x, 3));
}

#[test]
fn nan_inside_reverse_is_rejected_with_its_position() {
    for bits in NAN_BITS {
        let x = reversed(&[1.0, 2.0, f32::from_bits(bits), 0.5]);
        let (mut idx, mut val) = ([7_u32; 2], [Reverse(7.5_f32); 2]);
        assert_eq!(
            top_k_into(&x, &mut idx, &mut val),
            Err(Error::NotRankable { index: 2 })
        );
        assert_eq!((idx, val), ([7; 2], [Reverse(7.5); 2]));
        let mut top = TopK::<Reverse<f32>, 0>::new();
        assert_eq!(
            top.extend_from_slice(&x),
            Err(Error::NotRankable { index: 2 })
        );
    }
}

#[test]
fn integers_smallest_first() {
    let x = [3, i32::MIN, 0, i32::MAX, i32::MIN, 0].map(Reverse);
    let expected = Ok(common::zip_entries(
        &[1, 4, 2, 5],
        &[i32::MIN, i32::MIN, 0, 0].map(Reverse),
    ));
    assert_every_api(&x, 4, &expected);
}

fn f32_values() -> impl Strategy<Value = f32> + Clone {
    prop_oneof![
        select(F32_POOL.to_vec()),
        any::<f32>().prop_filter("rankable", |v| !v.is_nan())
    ]
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn smallest_k_matches_the_oracle(
        (x, k) in prop::collection::vec(f32_values(), 1..=8)
            .prop_flat_map(|pool| prop::collection::vec(select(pool), 0..=64))
            .prop_flat_map(|x| { let n = x.len(); (Just(x), 0..=n + 1) })
    ) {
        let expected = smallest_oracle(&x, k);
        assert_every_api(&reversed(&x), k, &expected);
    }
}
