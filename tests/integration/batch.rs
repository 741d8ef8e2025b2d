//! `top_k_rows`: every row against the oracle, every row checked before any write (a NaN in
//! the last row leaves the first rows untouched), errors named by flat position, and shapes.

use crate::common;

use common::{bits, oracle, zip_entries, F32_POOL};
use proptest::prelude::*;
use proptest::sample::select;
use tinytopk::{top_k_into, top_k_rows, Error};

const IDX_SENTINEL: u32 = 0xDEAD_BEEF;
const VAL_SENTINEL: f32 = 12345.0;

/// A batch `rows × n` of tie-heavy values, with a `k <= n`.
fn batch() -> impl Strategy<Value = (Vec<f32>, usize, usize, usize)> {
    (0_usize..6, 1_usize..24).prop_flat_map(|(rows, n)| {
        (
            prop::collection::vec(select(F32_POOL.to_vec()), rows * n),
            Just(rows),
            Just(n),
            0..=n,
        )
    })
}

/// Runs `top_k_rows` with outputs full of sentinels.
fn run(x: &[f32], n: usize, out: usize) -> (Result<(), Error>, Vec<u32>, Vec<f32>) {
    let (mut idx, mut val) = (vec![IDX_SENTINEL; out], vec![VAL_SENTINEL; out]);
    let result = top_k_rows(x, n, &mut idx, &mut val);
    (result, idx, val)
}

fn untouched(idx: &[u32], val: &[f32]) -> bool {
    idx.iter().all(|&i| i == IDX_SENTINEL) && val.iter().all(|&v| v == VAL_SENTINEL)
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn every_row_is_the_oracle((x, rows, n, k) in batch()) {
        let (result, idx, val) = run(&x, n, rows * k);
        prop_assert_eq!(result, Ok(()));
        for r in 0..rows {
            let expected = oracle(&x[r * n..(r + 1) * n], k).unwrap();
            let got = zip_entries(&idx[r * k..(r + 1) * k], &val[r * k..(r + 1) * k]);
            prop_assert_eq!(bits(&got), bits(&expected), "row {}", r);
        }
    }

    /// NaNs anywhere: the first of the batch by flat position, and no row written.
    #[test]
    fn a_nan_in_any_row_writes_no_row(
        (mut x, rows, n, k) in batch(),
        at in prop::collection::vec(any::<prop::sample::Index>(), 1..3),
    ) {
        prop_assume!(rows > 0);
        let len = x.len();
        for a in &at {
            x[a.index(len)] = f32::NAN;
        }
        let first = x.iter().position(|v| v.is_nan()).unwrap();
        let (result, idx, val) = run(&x, n, rows * k);
        prop_assert_eq!(result, Err(Error::NotRankable { index: first }));
        prop_assert!(untouched(&idx, &val));
    }
}

#[test]
fn a_nan_in_row_7_leaves_rows_0_to_6_untouched() {
    let n = 5;
    let mut x: Vec<f32> = (0..8 * n).map(|i| (i % 7) as f32).collect();
    x[7 * n + 3] = f32::NAN;
    let (result, idx, val) = run(&x, n, 8 * 2);
    assert_eq!(result, Err(Error::NotRankable { index: 38 }));
    assert!(untouched(&idx, &val));
}

#[test]
fn shapes() {
    let x = [1.0_f32; 6];
    // Not rows of 4.
    assert_eq!(
        run(&x, 4, 2).0,
        Err(Error::NotRows {
            len: 6,
            n: 4,
            out: 2
        })
    );
    // n = 0 with values.
    assert_eq!(
        run(&x, 0, 0).0,
        Err(Error::NotRows {
            len: 6,
            n: 0,
            out: 0
        })
    );
    // Two rows, three output places.
    assert_eq!(
        run(&x, 3, 3).0,
        Err(Error::NotRows {
            len: 6,
            n: 3,
            out: 3
        })
    );
    // k = 4 > n = 3.
    assert_eq!(run(&x, 3, 8).0, Err(Error::KTooLarge { k: 4, n: 3 }));
    // ... but a NaN is the error whatever k is, as for `top_k_into`.
    let mut bad = x;
    bad[4] = f32::NAN;
    let (result, idx, val) = run(&bad, 3, 8);
    assert_eq!(result, Err(Error::NotRankable { index: 4 }));
    assert!(untouched(&idx, &val));
    assert_eq!(
        top_k_into(&bad[3..], &mut [0; 4], &mut [0.0; 4]),
        Err(Error::NotRankable { index: 1 })
    );
    // Buffers of different lengths.
    let (mut idx, mut val) = ([0_u32; 2], [0.0_f32; 4]);
    assert_eq!(
        top_k_rows(&x, 3, &mut idx, &mut val),
        Err(Error::LengthMismatch { idx: 2, val: 4 })
    );
    // No rows: nothing to do, for any n; but outputs for no rows are an error.
    assert_eq!(run(&[], 0, 0).0, Ok(()));
    assert_eq!(run(&[], 7, 0).0, Ok(()));
    assert_eq!(
        run(&[], 7, 1).0,
        Err(Error::NotRows {
            len: 0,
            n: 7,
            out: 1
        })
    );
    // k = 0 still checks every row.
    assert_eq!(
        run(&[1.0, f32::NAN], 1, 0).0,
        Err(Error::NotRankable { index: 1 })
    );
}

/// Rows long enough for every path of the scan (the seeded fill, the pool, the tail floor), for
/// k on both sides of each of its thresholds: tie-heavy, rising and falling rows.
#[test]
fn long_rows_are_the_oracle() {
    let (n, ks): (usize, &[usize]) = if cfg!(miri) {
        (600, &[1, 4, 65, 129, 300])
    } else {
        (5000, &[1, 3, 4, 40, 64, 65, 128, 129, 1000])
    };
    let tie_heavy = (0..n).map(|i| F32_POOL[(i * 7919 + i / 13) % F32_POOL.len()]);
    let rising = (0..n).map(|i| (i / 3) as f32);
    let falling = (0..n).map(|i| -((i / 5) as f32));
    let x: Vec<f32> = tie_heavy.chain(rising).chain(falling).collect();
    for &k in ks {
        let (result, idx, val) = run(&x, n, 3 * k);
        assert_eq!(result, Ok(()));
        for r in 0..3 {
            let expected = oracle(&x[r * n..(r + 1) * n], k).unwrap();
            let got = zip_entries(&idx[r * k..(r + 1) * k], &val[r * k..(r + 1) * k]);
            assert_eq!(bits(&got), bits(&expected), "row {r}, k = {k}");
        }
    }
}
