//! The scan on rows built to defeat a pre-filter (rising, sawtooth, organ pipe, rows built
//! against its sample) and at large k: the same answers as the oracle from every path through
//! it (the guess taken, a second pass below it, a floor raised by counting), with every value
//! type that has its own bisection, and a NaN wherever the sample looks.

use crate::common;

use core::cmp::Reverse;

use common::data::shapes;
use common::{oracle, via_slice_topk, via_top_k_into, Feed};
use tinytopk::{top_k_rows, Error, TopK};

/// The ks of a row of n: small, around the one-pass limit, large, and up to n.
fn ks(n: usize) -> Vec<usize> {
    // Under Miri (slow): one k of each kind.
    let mut ks = if cfg!(miri) {
        vec![7, 65, 1000, n]
    } else {
        vec![1, 2, 7, 50, 64, 65, 200, 1000, n / 3, n / 2 + 1, n - 1, n]
    };
    ks.retain(|&k| k <= n);
    ks
}

/// Every shape and the rows against the sample, at n.
fn rows(n: usize, k: usize) -> Vec<(String, Vec<f32>)> {
    shapes(n, k)
        .into_iter()
        .map(|(name, x)| (name.to_string(), x))
        .collect()
}

fn lens() -> Vec<usize> {
    if cfg!(miri) {
        vec![1500]
    } else {
        vec![1500, 4096, 20_011]
    }
}

#[test]
fn every_shape_and_k_is_the_oracle() {
    for n in lens() {
        for k in ks(n) {
            for (name, x) in rows(n, k) {
                let expected = oracle(&x, k);
                assert_eq!(via_top_k_into(&x, k), expected, "{name} n={n} k={k}");
                assert_eq!(
                    via_slice_topk(&x, k, Feed::Chunks(4099)),
                    expected,
                    "{name} n={n} k={k}, in chunks"
                );
            }
        }
    }
}

#[test]
fn the_one_pass_copy_and_the_const_k_selector_are_the_oracle() {
    let n = if cfg!(miri) { 1500 } else { 20_011 };
    for (name, x) in rows(n, 50) {
        let mut top = TopK::<f32, 50>::new();
        top.extend_from_slice(&x).unwrap();
        assert_eq!(
            top.into_sorted().to_vec(),
            oracle(&x, 50).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn other_value_types_bisect_to_the_same_answers() {
    let n = if cfg!(miri) { 1500 } else { 9000 };
    for k in [3, 50, 300] {
        for (name, x) in rows(n, k) {
            let f64s: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
            assert_eq!(
                via_top_k_into(&f64s, k),
                oracle(&f64s, k),
                "{name} f64 k={k}"
            );
            let ints: Vec<i32> = x.iter().map(|&v| v.max(-1e9) as i32).collect();
            assert_eq!(
                via_top_k_into(&ints, k),
                oracle(&ints, k),
                "{name} i32 k={k}"
            );
            let smallest: Vec<Reverse<f32>> = x.iter().map(|&v| Reverse(-v)).collect();
            assert_eq!(
                via_top_k_into(&smallest, k),
                oracle(&smallest, k),
                "{name} Reverse k={k}"
            );
        }
    }
}

#[test]
fn a_batch_of_such_rows_is_each_row_alone() {
    let (n, k) = (4096, 200);
    let rows = rows(n, k);
    let batch: Vec<f32> = rows.iter().flat_map(|(_, x)| x.iter().copied()).collect();
    let (mut idx, mut val) = (vec![0; k * rows.len()], vec![0.0; k * rows.len()]);
    top_k_rows(&batch, n, &mut idx, &mut val).unwrap();
    for (r, (name, x)) in rows.iter().enumerate() {
        let expected = oracle(x, k).unwrap();
        let got: Vec<(u32, f32)> = (0..k).map(|j| (idx[r * k + j], val[r * k + j])).collect();
        let want: Vec<(u32, f32)> = expected.iter().map(|e| (e.index, e.value)).collect();
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn a_nan_where_the_sample_looks_is_the_first_nan_and_nothing_is_written() {
    let n = 20_011;
    for k in [1, 50, 64, 65, 1000] {
        for (name, mut x) in rows(n, k) {
            // The sample's first and last places, and one between, with a second NaN after.
            for at in [0, n / 2, n - 2] {
                let later = n - 1;
                let saved = (x[at], x[later]);
                x[at] = f32::NAN;
                x[later] = f32::NAN;
                let (mut idx, mut val) = (vec![7; k], vec![7.0; k]);
                assert_eq!(
                    tinytopk::top_k_into(&x, &mut idx, &mut val),
                    Err(Error::NotRankable { index: at }),
                    "{name} k={k} NaN at {at}"
                );
                assert!(idx.iter().all(|&i| i == 7) && val.iter().all(|&v| v == 7.0));
                (x[at], x[later]) = saved;
            }
        }
    }
}

/// Rows in order, as the scan tells them before it samples (best first: no value above the
/// one before it, ties allowed; worst first: each above the one before it), and rows one pair
/// short of it, which it must not take for ordered: every API and k, the oracle's answer bit
/// for bit, for `f32` and as `Reverse` (`bottom_k_into`).
#[test]
fn rows_in_order_and_rows_one_pair_out_of_it_are_the_oracle() {
    use common::{assert_every_api_is_the_oracle, bits, edge_row, zip_entries, Rng};
    use tinytopk::bottom_k_into;

    let mut rng = Rng(0x05EE_D0DD);
    let n = if cfg!(miri) { 600 } else { 4096 };
    // Tie-heavy edge values (±0, ±inf, subnormals, extremes) sorted best first: runs of
    // equal values, which stay best first by ascending index.
    let mut falling: Vec<f32> = edge_row(&mut rng, n);
    falling.sort_by(|a, b| b.partial_cmp(a).unwrap());
    // Distinct values, rising: worst first.
    let rising: Vec<f32> = (0..n).map(|i| i as f32 - 100.0).collect();
    // One tie in a rising row: neither order (the later of two equal values ranks lower).
    let mut rising_tie = rising.clone();
    rising_tie[n / 2] = rising_tie[n / 2 - 1];
    // A falling row whose last pair rises; a rising row with -0.0 then 0.0 (equal).
    let mut falling_last_up = falling.clone();
    falling_last_up[n - 1] = f32::INFINITY;
    let signed_zeros: Vec<f32> = (0..n)
        .map(|i| match i {
            _ if i == n / 3 => -0.0,
            _ if i == n / 3 + 1 => 0.0,
            _ => (i as f32 - n as f32 / 3.0) * 0.5,
        })
        .collect();
    let equal = vec![-0.0_f32; n];
    let rows = [
        ("falling", falling),
        ("rising", rising),
        ("rising with a tie", rising_tie),
        ("falling, the last pair rising", falling_last_up),
        ("rising through -0.0, 0.0", signed_zeros),
        ("equal", equal),
    ];
    // Under Miri (slow): around the one-pass limit, the radix sort's least and the whole row.
    let ks = if cfg!(miri) {
        vec![65, 512, n]
    } else {
        vec![1, 64, 65, 100, 511, 512, 1000, n - 1, n]
    };
    for (name, x) in &rows {
        for &k in &ks {
            assert_every_api_is_the_oracle(x, k);
            let reversed: Vec<Reverse<f32>> = x.iter().map(|&v| Reverse(v)).collect();
            let (mut idx, mut val) = (vec![0; k], vec![0.0; k]);
            bottom_k_into(x, &mut idx, &mut val).unwrap();
            let want: Vec<(u32, u64)> = oracle(&reversed, k)
                .unwrap()
                .iter()
                .map(|e| (e.index, u64::from(e.value.0.to_bits())))
                .collect();
            assert_eq!(
                bits(&zip_entries(&idx, &val)),
                want,
                "{name}: bottom, k = {k}"
            );
        }
        // A selector with room for more than the row: all of it, best first.
        let mut top = TopK::<f32, 5000>::new();
        top.extend_from_slice(x).unwrap();
        assert_eq!(
            top.into_sorted().to_vec(),
            oracle(x, n).unwrap(),
            "{name}: K > n"
        );
    }
}
