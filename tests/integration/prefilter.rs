//! The block pre-filter's edges, through every API against the oracle: values equal to the
//! root, NaN in the first block, the last block and the remainder, blocks that straddle the
//! end of the fill, k above and below a block (64 values) and above the one-pass bound (64),
//! rows long enough for the one-pass path (256 values and more) and for the seeded fill of an
//! empty heap (4,096 values and more, k below 64, distinct or many-level values); the first
//! NaN named whatever block of a long row it is in.

use crate::common;

use common::{
    assert_every_api, assert_every_api_is_the_oracle, edge_row, oracle, zip_entries, Rng, Value,
};
use tinytopk::{top_k_into, Error, SliceTopK, TopK};

/// The k tried on every row: below, at and above a block and the one-pass bound (a few under
/// Miri, which is slow).
fn ks() -> &'static [usize] {
    if cfg!(miri) {
        &[0, 5, 65]
    } else {
        &[0, 1, 2, 37, 40, 63, 64, 65, 100]
    }
}

/// Rows of `n` values with many ties: `levels` distinct values, or rising with ties.
fn rows(n: usize, seed: u64) -> Vec<Vec<f32>> {
    let mut rng = Rng(seed);
    let few = [0.0, -0.0, 1.0, 2.5, f32::NEG_INFINITY];
    vec![
        (0..n).map(|_| few[rng.below(2)]).collect(),
        (0..n).map(|_| few[rng.below(few.len())]).collect(),
        (0..n).map(|i| (i / 5) as f32).collect(),
        (0..n).map(|i| ((n - i) / 7) as f32).collect(),
        (0..n).map(|_| rng.below(40) as f32).collect(),
        vec![1.0; n],
        // Levels enough that the best of 64 columns are distinct, so that the fill is seeded,
        // and few enough for ties at the seed's floor and at the cut.
        (0..n).map(|_| rng.below(3000) as f32).collect(),
        (0..n).map(|_| rng.below(1 << 20) as f32 - 1e5).collect(),
    ]
}

fn lengths() -> Vec<usize> {
    if cfg!(miri) {
        vec![260]
    } else {
        vec![255, 256, 257, 1000, 4095, 4096, 4096 + 17, 9000]
    }
}

#[test]
fn ties_with_the_root_and_block_edges_match_the_oracle() {
    for n in lengths() {
        for x in rows(n, n as u64) {
            for &k in ks() {
                assert_every_api_is_the_oracle(&x, k);
            }
        }
    }
}

/// A NaN at each edge: the first value, the end of the fill, the first and last value of a
/// block, the last full block and the remainder. It is named, and nothing is written.
#[test]
fn nan_at_every_edge_is_named_and_nothing_is_written() {
    let (ns, row): (&[usize], usize) = if cfg!(miri) {
        (&[260], 4)
    } else {
        (&[1017, 5000], 7)
    };
    for &n in ns {
        nan_at_every_edge(&rows(n, 5).swap_remove(row));
    }
}

fn nan_at_every_edge(x: &[f32]) {
    let n = x.len();
    for &k in ks() {
        let full_blocks_end = k + (n - k) / 64 * 64;
        // Those of a fill seeded from the first 4,096 values (k < 64): inside it, at its end,
        // and in the block that ends it.
        let seeded = [1, 64 * 40 + 3, 4095, 4096, 4097, 4160];
        let edges = [
            0,
            k.saturating_sub(1),
            k,
            k + 63,
            k + 64,
            full_blocks_end - 1,
            full_blocks_end,
            n - 1,
        ];
        for at in edges.into_iter().chain(seeded).filter(|&at| at < n) {
            let mut bad = x.to_vec();
            bad[at] = f32::from_bits(0xFFC0_0000);
            let error = Error::NotRankable { index: at };
            assert_every_api(&bad, k, &Err(error));

            let (mut idx, mut val) = (vec![9_u32; k], vec![-9.5_f32; k]);
            assert_eq!(top_k_into(&bad, &mut idx, &mut val), Err(error));
            assert!(idx.iter().all(|&i| i == 9) && val.iter().all(|&v| v == -9.5));

            // A selector holding a clean stream is left as it was, on either path.
            let mut top = TopK::<f32, 40>::new();
            top.extend_from_slice(x).unwrap();
            let before = top.clone().into_sorted();
            assert_eq!(
                top.extend_from_slice(&bad),
                Err(Error::NotRankable { index: n + at })
            );
            assert_eq!((top.stream_len(), top.into_sorted()), (n as u64, before));

            let (mut idx, mut val) = (vec![0_u32; k], vec![0.0_f32; k]);
            let mut top = SliceTopK::new(&mut idx, &mut val).unwrap();
            top.extend_from_slice(x).unwrap();
            assert_eq!(
                top.extend_from_slice(&bad),
                Err(Error::NotRankable { index: n + at })
            );
            let (i, v) = top.into_sorted();
            assert_eq!(zip_entries(i, v), oracle(x, k).unwrap());
        }
    }
}

/// Long and short pieces of one stream, so that both paths and the fill meet mid-stream.
#[test]
fn a_stream_in_pieces_of_every_size_matches_the_oracle() {
    let ns: &[usize] = if cfg!(miri) { &[300] } else { &[3000, 9000] };
    for x in ns.iter().flat_map(|&n| rows(n, 11)) {
        let n = x.len();
        for &k in ks() {
            let (mut idx, mut val) = (vec![0_u32; k], vec![0.0_f32; k]);
            let mut top = SliceTopK::new(&mut idx, &mut val).unwrap();
            let mut array = TopK::<f32, 64>::new();
            let mut start = 0;
            // A first piece of 4,500 values meets the empty heap: a seeded fill (k < 64).
            for piece in [4500, 1, 300, 7, 64, 256, 2, 1000].into_iter().cycle() {
                let end = (start + piece).min(n);
                top.extend_from_slice(&x[start..end]).unwrap();
                array.extend_from_slice(&x[start..end]).unwrap();
                start = end;
                if start == n {
                    break;
                }
            }
            let (i, v) = top.into_sorted();
            assert_eq!(zip_entries(i, v), oracle(&x, k).unwrap(), "k = {k}");
            assert_eq!(array.into_sorted().to_vec(), oracle(&x, 64).unwrap());
        }
    }
}

/// A row whose first NaN is at `first` is rejected with that position by every API, with
/// nothing written, whatever the block of values it sits in, how many NaNs share its block,
/// and where the stream started.
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

/// Rows of edge values from one block (64 values) to several, with the first NaN at the
/// start, the end and the edges of every block: the first NaN is the one named.
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
    let nans = f32::nans();
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
                let mut x: Vec<f32> = edge_row(&mut rng, n);
                for (i, &at) in [first].iter().chain(&extra).enumerate() {
                    if at < n {
                        x[at] = nans[i % nans.len()];
                    }
                }
                assert_first_nan_named(&x, first);
            }
        }
        // And a clean row of the same length is accepted.
        let x: Vec<f32> = edge_row(&mut rng, n);
        let (mut idx, mut val) = ([0_u32; 5], [0.0_f32; 5]);
        assert_eq!(top_k_into(&x, &mut idx, &mut val), Ok(()), "n = {n}");
    }
}
