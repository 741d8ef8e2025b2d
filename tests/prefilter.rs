//! The block pre-filter's edges, through every API against the oracle: values equal to the
//! root, NaN in the first block, the last block and the remainder, blocks that straddle the
//! end of the fill, k above and below a block (64 values) and above the one-pass bound (64),
//! rows long enough for the one-pass path (256 values and more) and for the seeded fill of an
//! empty heap (4,096 values and more, k below 64, distinct or many-level values).

mod common;

use common::{assert_every_api, assert_every_api_is_the_oracle, oracle, zip_entries, Rng};
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
