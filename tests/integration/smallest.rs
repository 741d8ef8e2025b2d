//! Smallest-k through `Reverse<T>`: every API against the oracle on `Reverse` values (an
//! ascending sort by IEEE order, checked against the oracle on the negated values), the same
//! tie rule (lower index first), -0.0 and 0.0 still tie, NaN inside still rejected with its
//! position. `bottom_k_into` on the plain values gives the same.

use crate::common;

use core::cmp::Reverse;

use common::{assert_every_api, bits, oracle, row_and_k, tie_heavy, Value};
use proptest::prelude::*;
use tinytopk::{bottom_k_into, top_k_into, Entry, Error, TopK};

/// `bottom_k_into` on the plain values, as entries of `Reverse` values for the oracle.
fn via_bottom_k_into(x: &[f32], k: usize) -> Result<Vec<Entry<Reverse<f32>>>, Error> {
    let (mut idx, mut val) = (vec![0_u32; k], vec![0.0_f32; k]);
    bottom_k_into(x, &mut idx, &mut val)?;
    Ok(common::zip_entries(
        &idx,
        &val.iter().map(|&v| Reverse(v)).collect::<Vec<_>>(),
    ))
}

/// Every API on the `Reverse` row and `bottom_k_into` on the plain one give `expected`, bit
/// for bit.
fn assert_smallest(x: &[f32], k: usize, expected: &Result<Vec<Entry<Reverse<f32>>>, Error>) {
    assert_every_api(&reversed(x), k, expected);
    let got = via_bottom_k_into(x, k);
    assert_eq!(&got, expected, "bottom_k_into on x = {x:?}, k = {k}");
    assert_eq!(
        got.as_ref().map(|e| bits(e)),
        expected.as_ref().map(|e| bits(e)),
        "bottom_k_into, the bits"
    );
}

fn reversed(x: &[f32]) -> Vec<Reverse<f32>> {
    x.iter().map(|&v| Reverse(v)).collect()
}

/// The oracle on `Reverse` values: the type's own comparison of `Reverse` is IEEE `<` of the
/// values inside, so this is the k smallest, equal values by ascending index. Checked against
/// the oracle on the negated values (negation reverses IEEE order exactly, -0.0 and 0.0 still
/// tie): the same indices, or the same error.
fn smallest_oracle(x: &[f32], k: usize) -> Result<Vec<Entry<Reverse<f32>>>, Error> {
    let expected = oracle(&reversed(x), k);
    let negated: Vec<f32> = x.iter().map(|&v| -v).collect();
    assert_eq!(
        ids(&expected),
        ids(&oracle(&negated, k)),
        "x = {x:?}, k = {k}"
    );
    expected
}

/// The indices of an outcome, or its error.
fn ids<T>(r: &Result<Vec<Entry<T>>, Error>) -> Result<Vec<u32>, Error> {
    r.as_ref()
        .map(|e| e.iter().map(|e| e.index).collect())
        .map_err(|e| *e)
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
    assert_smallest(&x, 3, &got);
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
    assert_smallest(&x, 4, &expected);
    // +inf is the worst of a smallest-k; -inf the best.
    let x = [f32::INFINITY, 1.0, f32::NEG_INFINITY];
    assert_smallest(&x, 3, &smallest_oracle(&x, 3));
}

#[test]
fn nan_inside_reverse_is_rejected_with_its_position() {
    for nan in f32::nans() {
        let x = reversed(&[1.0, 2.0, nan, 0.5]);
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

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn smallest_k_matches_the_oracle((x, k) in row_and_k(tie_heavy::<f32>(1..=8, 64))) {
        let expected = smallest_oracle(&x, k);
        assert_smallest(&x, k, &expected);
    }
}

/// Rows longer than the scan's one-pass bound, k on both sides of its stack copy and k = n (a
/// sort of the whole row); a NaN anywhere is named and nothing is written.
#[test]
fn bottom_k_into_on_long_rows_and_errors_writes_nothing() {
    let mut rng = common::Rng(0xB07);
    let n = if cfg!(miri) { 300 } else { 5000 };
    let rows = [
        common::seeded_tie_heavy::<f32>(&mut rng, 4, n),
        common::data::normal_logits(n, 3),
        (0..n).map(|i| -((i / 3) as f32)).collect(),
    ];
    for x in &rows {
        for k in [1, 40, 64, 65, 200, n] {
            assert_smallest(x, k, &smallest_oracle(x, k));
            for at in [0, n / 2, n - 1] {
                let mut bad = x.clone();
                bad[at] = f32::NAN;
                let (mut idx, mut val) = (vec![0xDEAD_u32; k], vec![7.5_f32; k]);
                assert_eq!(
                    bottom_k_into(&bad, &mut idx, &mut val),
                    Err(Error::NotRankable { index: at })
                );
                assert!(idx.iter().all(|&i| i == 0xDEAD) && val.iter().all(|&v| v == 7.5));
            }
        }
    }
    let (mut idx, mut val) = ([0xDEAD_u32; 3], [7.5_f32; 2]);
    assert_eq!(
        bottom_k_into(&[1.0], &mut idx, &mut val),
        Err(Error::LengthMismatch { idx: 3, val: 2 })
    );
    let (mut idx, mut val) = ([0xDEAD_u32; 3], [7.5_f32; 3]);
    assert_eq!(
        bottom_k_into(&[1.0, f32::NAN], &mut idx, &mut val),
        Err(Error::NotRankable { index: 1 })
    );
    assert_eq!(
        bottom_k_into(&[1.0, 2.0], &mut idx, &mut val),
        Err(Error::KTooLarge { k: 3, n: 2 })
    );
    assert_eq!((idx, val), ([0xDEAD; 3], [7.5; 3]));
}
