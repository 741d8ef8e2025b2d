//! `rayon` (feature): `par_top_k_into` splits a long row into shards and merges, and
//! `par_top_k_rows` runs rows in parallel; both give bit for bit the single-threaded answer,
//! the same errors, and write nothing on error.

use crate::common;

use common::{bits, seeded_tie_heavy, zip_entries, Rng, F32_POOL};
use proptest::prelude::*;
use proptest::sample::select;
use tinytopk::{par_top_k_into, par_top_k_rows, top_k_into, top_k_rows, Error, MIN_SHARD_LEN};

/// A row long enough for several shards, drawn from a small pool of edge values: ties
/// everywhere, across shard boundaries too.
fn tie_heavy_row(n: usize, pool: usize, seed: u64) -> Vec<f32> {
    seeded_tie_heavy(&mut Rng(seed), pool, n)
}

/// What one call gave: its result and the outputs (index, value bits).
type Run = (Result<(), Error>, Vec<(u32, u64)>);

/// `top_k_into` and `par_top_k_into` on the same row, outputs full of sentinels.
fn both(x: &[f32], k: usize) -> (Run, Run) {
    let (mut i1, mut v1) = (vec![7_u32; k], vec![-7.5_f32; k]);
    let (mut i2, mut v2) = (vec![7_u32; k], vec![-7.5_f32; k]);
    let r1 = top_k_into(x, &mut i1, &mut v1);
    let r2 = par_top_k_into(x, &mut i2, &mut v2);
    (
        (r1, bits(&zip_entries(&i1, &v1))),
        (r2, bits(&zip_entries(&i2, &v2))),
    )
}

/// Runs `f` on a pool of 4 threads, so that rows split into shards whatever the machine has.
fn on_four_threads<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    pool.install(f)
}

#[test]
fn a_long_row_split_across_threads_is_the_one_pass_result() {
    on_four_threads(long_row_is_one_pass);
}

fn long_row_is_one_pass() {
    let n = 4 * MIN_SHARD_LEN + 123;
    for (seed, pool) in [(1, 1), (2, 2), (3, 5), (4, 14)] {
        let x = tie_heavy_row(n, pool, seed);
        for k in [0, 1, 7, 40, 300] {
            let ((r1, e1), (r2, e2)) = both(&x, k);
            assert_eq!(r1, Ok(()));
            assert_eq!((r2, e2), (r1, e1), "pool {pool}, k {k}");
        }
    }
    // Normal logits: the case the sampler sees.
    let mut rng = Rng(7);
    let x: Vec<f32> = (0..151_936).map(|_| rng.normal() as f32).collect();
    let ((r1, e1), (r2, e2)) = both(&x, 40);
    assert_eq!((r2, e2), (r1, e1));
    // Rows shorter than two shards, down to empty, stay on one thread: the same answer.
    for n in [
        0,
        1,
        100,
        MIN_SHARD_LEN - 1,
        MIN_SHARD_LEN,
        2 * MIN_SHARD_LEN - 1,
    ] {
        let x = tie_heavy_row(n, 3, 11);
        for k in [0, 1.min(n), 40.min(n), n] {
            let ((r1, e1), (r2, e2)) = both(&x, k);
            assert_eq!(r1, Ok(()));
            assert_eq!((r2, e2), (r1, e1), "n {n}, k {k}");
        }
    }
}

#[test]
fn a_long_row_with_nans_names_the_first_and_writes_nothing() {
    on_four_threads(long_row_with_nans);
}

fn long_row_with_nans() {
    let n = 3 * MIN_SHARD_LEN + 5;
    let mut x = tie_heavy_row(n, 4, 9);
    for at in [n - 1, 2 * MIN_SHARD_LEN + 1, MIN_SHARD_LEN + 17] {
        x[at] = f32::from_bits(0x7FC0_0000 | at as u32);
        let ((r1, e1), (r2, e2)) = both(&x, 5);
        assert_eq!(r1, Err(Error::NotRankable { index: at }));
        assert_eq!((r2, &e2), (r1, &e1));
        assert!(e2
            .iter()
            .all(|&(i, v)| i == 7 && v == u64::from((-7.5_f32).to_bits())));
    }
    // The first NaN is the error whatever k is, k > n included; a clean row with k > n is
    // KTooLarge.
    let (mut idx, mut val) = (vec![0; n + 1], vec![0.0; n + 1]);
    assert_eq!(
        par_top_k_into(&x, &mut idx, &mut val),
        Err(Error::NotRankable {
            index: MIN_SHARD_LEN + 17
        })
    );
    let clean = tie_heavy_row(n, 4, 9);
    assert_eq!(
        par_top_k_into(&clean, &mut idx, &mut val),
        Err(Error::KTooLarge { k: n + 1, n })
    );
    let mut val = vec![0.0; 2];
    assert_eq!(
        par_top_k_into(&x, &mut idx[..3], &mut val),
        Err(Error::LengthMismatch { idx: 3, val: 2 })
    );
}

#[test]
fn a_nan_in_the_last_row_writes_no_row() {
    let n = 1000;
    let mut x = tie_heavy_row(64 * n, 3, 5);
    x[63 * n + 10] = f32::NAN;
    x[40 * n + 999] = -f32::NAN;
    let (mut idx, mut val) = (vec![7_u32; 64 * 3], vec![-7.5_f32; 64 * 3]);
    assert_eq!(
        par_top_k_rows(&x, n, &mut idx, &mut val),
        Err(Error::NotRankable {
            index: 40 * n + 999
        })
    );
    assert!(idx.iter().all(|&i| i == 7) && val.iter().all(|&v| v == -7.5));
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn rows_in_parallel_are_top_k_rows(
        (x, n, k) in (0_usize..40, 1_usize..30).prop_flat_map(|(rows, n)| (
            prop::collection::vec(select(F32_POOL.to_vec()), rows * n), Just(n), 0..=n + 1,
        )),
    ) {
        let rows = x.len() / n;
        let (mut i1, mut v1) = (vec![7_u32; rows * k], vec![-7.5_f32; rows * k]);
        let (mut i2, mut v2) = (i1.clone(), v1.clone());
        let r1 = top_k_rows(&x, n, &mut i1, &mut v1);
        let r2 = par_top_k_rows(&x, n, &mut i2, &mut v2);
        prop_assert_eq!(r1, r2);
        prop_assert_eq!(bits(&zip_entries(&i1, &v1)), bits(&zip_entries(&i2, &v2)));
    }
}
