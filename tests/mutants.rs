//! Promises the other tests did not reach, found by mutation testing (`scripts/mutants.sh`):
//! a NaN in any block of a long row, what a selector reports as it fills, and a cleared
//! selector.

mod common;

use common::{oracle, Rng, F32_POOL, NAN_BITS};
use tinytopk::{top_k_into, Entry, Error, SliceTopK, TopK};

/// A row of `n` rankable values from the tie-heavy pool.
fn clean_row(rng: &mut Rng, n: usize) -> Vec<f32> {
    (0..n)
        .map(|_| F32_POOL[rng.below(F32_POOL.len())])
        .collect()
}

/// NaNs are looked for by blocks of values: a row whose first NaN is at `first` is rejected
/// with that position by every API, with nothing written, whatever the block it sits in, how
/// many NaNs share its block, and where the stream started.
fn assert_first_nan_named(x: &[f32], first: usize) {
    let want = Err(Error::NotRankable { index: first });
    for k in [0, 1, 5] {
        let (mut idx, mut val) = (vec![7_u32; k], vec![-7.5_f32; k]);
        assert_eq!(
            top_k_into(x, &mut idx, &mut val),
            want,
            "top_k_into, k = {k}"
        );
        assert!(idx.iter().all(|&i| i == 7) && val.iter().all(|&v| v == -7.5));

        let mut top = SliceTopK::new(&mut idx, &mut val).unwrap();
        assert_eq!(top.extend_from_slice(x), want, "SliceTopK, k = {k}");
        assert_eq!(top.stream_len(), 0);
    }
    // After three values, the positions are counted from the start of the stream.
    let mut top = TopK::<f32, 4>::new();
    top.extend_from_slice(&[1.0, 2.0, 3.0]).unwrap();
    assert_eq!(
        top.extend_from_slice(x),
        Err(Error::NotRankable { index: 3 + first })
    );
    assert_eq!(top.stream_len(), 3);
}

#[test]
fn a_nan_in_any_block_of_a_long_row_is_named() {
    let mut rng = Rng(0x6d75_7461);
    let lens: &[usize] = if cfg!(miri) {
        &[65, 257]
    } else {
        &[
            64, 65, 127, 128, 129, 200, 255, 256, 257, 511, 512, 513, 700,
        ]
    };
    for &n in lens {
        let mut firsts = vec![
            0,
            1,
            31,
            62,
            63,
            64,
            65,
            100,
            127,
            128,
            191,
            192,
            254,
            255,
            256,
            257,
            511,
            512,
            n - 2,
            n - 1,
        ];
        firsts.retain(|&p| p < n);
        for first in firsts {
            // One NaN, then two and three in the same block, then more in later blocks.
            for extra in [
                vec![],
                vec![first + 1],
                vec![first + 1, first + 2],
                vec![n - 1],
            ] {
                let mut x = clean_row(&mut rng, n);
                for (i, &at) in [first].iter().chain(&extra).enumerate() {
                    if at < n {
                        x[at] = f32::from_bits(NAN_BITS[i % NAN_BITS.len()]);
                    }
                }
                assert_first_nan_named(&x, first);
            }
        }
        // And a clean row of the same length is accepted.
        let x = clean_row(&mut rng, n);
        let (mut idx, mut val) = ([0_u32; 5], [0.0_f32; 5]);
        assert_eq!(top_k_into(&x, &mut idx, &mut val), Ok(()), "n = {n}");
    }
}

/// After each value: `len` is min(k, taken), `is_empty` says whether it is 0, and
/// `peek_worst` is the last of the best so far.
#[test]
fn len_and_peek_worst_follow_the_stream() {
    let mut rng = Rng(0x7065_656b);
    let x = clean_row(&mut rng, 30);
    // Nothing kept: nothing to peek, whatever the k.
    assert_eq!(TopK::<f32, 3>::new().peek_worst(), None);
    assert_eq!(TopK::<f32, 0>::new().peek_worst(), None);
    let (mut idx, mut val) = ([9_u32; 3], [9.0_f32; 3]);
    assert_eq!(
        SliceTopK::new(&mut idx, &mut val).unwrap().peek_worst(),
        None
    );
    // After each value, the worst of the best min(k, taken) so far.
    let mut array = TopK::<f32, 3>::new();
    let mut none = TopK::<f32, 0>::new();
    let mut slice = SliceTopK::new(&mut idx, &mut val).unwrap();
    for taken in 1..=x.len() {
        array.push(x[taken - 1]).unwrap();
        none.push(x[taken - 1]).unwrap();
        slice.push(x[taken - 1]).unwrap();
        let want: Option<Entry<f32>> = oracle(&x[..taken], 3.min(taken)).unwrap().pop();
        let kept = (3.min(taken), false);
        assert_eq!(array.peek_worst(), want, "TopK after {taken}");
        assert_eq!((array.len(), array.is_empty()), kept);
        assert_eq!(slice.peek_worst(), want, "SliceTopK after {taken}");
        assert_eq!((slice.len(), slice.is_empty()), kept);
        assert_eq!(
            (none.peek_worst(), none.len(), none.is_empty()),
            (None, 0, true)
        );
    }
}

/// What a new selector reports: (len, stream_len, is_empty).
const EMPTY: (usize, u64, bool) = (0, 0, true);

#[test]
fn a_cleared_selector_starts_a_new_stream() {
    let first = [5.0_f32, 9.0, 7.0, 8.0];
    let second = [1.0_f32, 3.0, 2.0];
    let want: Vec<Entry<f32>> = oracle(&second, 2).unwrap();

    let (mut idx, mut val) = ([0_u32; 2], [0.0_f32; 2]);
    let mut slice = SliceTopK::new(&mut idx, &mut val).unwrap();
    slice.extend_from_slice(&first).unwrap();
    slice.clear();
    let state = (slice.len(), slice.stream_len(), slice.is_empty());
    assert_eq!((state, slice.peek_worst()), (EMPTY, None));
    slice.extend_from_slice(&second).unwrap();
    let (i, v) = slice.into_sorted();
    assert_eq!(common::zip_entries(i, v), want);

    let mut array = TopK::<f32, 2>::new();
    array.extend_from_slice(&first).unwrap();
    array.clear();
    let state = (array.len(), array.stream_len(), array.is_empty());
    assert_eq!((state, array.peek_worst()), (EMPTY, None));
    array.extend_from_slice(&second).unwrap();
    assert_eq!(array.into_sorted().to_vec(), want);

    // By push: the values of the new stream are below the old root, and all are kept.
    let (mut idx, mut val) = ([0_u32; 2], [0.0_f32; 2]);
    let mut slice = SliceTopK::new(&mut idx, &mut val).unwrap();
    let mut array = TopK::<f32, 2>::new();
    for &v in &first {
        slice.push(v).unwrap();
        array.push(v).unwrap();
    }
    slice.clear();
    array.clear();
    for &v in &second {
        slice.push(v).unwrap();
        array.push(v).unwrap();
    }
    let (i, v) = slice.into_sorted();
    assert_eq!(common::zip_entries(i, v), want);
    assert_eq!(array.into_sorted().to_vec(), want);
}
