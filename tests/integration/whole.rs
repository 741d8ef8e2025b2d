//! k = n: every value kept, so the answer is a sort of the row (the radix sort of `f32` rows
//! from 512 values on, the quicksort of shorter ones and of other types), through every API
//! that can keep a whole row: `top_k_into`, `bottom_k_into`, `top_k_rows`, and a streaming
//! selector filled exactly by one `extend_from_slice` (and, by the scan, by `try_extend`).
//! On tie-heavy rows of edge values (±0, ±inf, subnormals, extremes), bit for bit; a NaN
//! anywhere is the first NaN's error, and nothing is written.

use crate::common;

use core::cmp::Reverse;

use common::{bits, oracle, seeded_tie_heavy, via_slice_topk, via_top_k_into, zip_entries};
use common::{Feed, Rng};
use tinytopk::{bottom_k_into, top_k_rows, Entry, Error, TopK};

/// Rows of `n` values: few distinct edge values (ties everywhere), many, and random bits
/// (every digit of the sort's key differs).
fn rows(rng: &mut Rng, n: usize) -> Vec<Vec<f32>> {
    let random: Vec<f32> = (0..n)
        .map(|_| f32::from_bits(rng.next_u64() as u32))
        .map(|v| if v.is_nan() { -0.0 } else { v })
        .collect();
    vec![
        seeded_tie_heavy(rng, 3, n),
        seeded_tie_heavy(rng, 12, n),
        random,
    ]
}

/// Lengths on both sides of the radix sort's shortest row, and the selectors' K.
fn lens() -> Vec<usize> {
    if cfg!(miri) {
        vec![600]
    } else {
        vec![511, 512, 1000, 1024, 4096]
    }
}

/// `TopK<T, 1024>` filled by `feed`, when the row has 1024 values.
fn via_topk_1024<T: tinytopk::TotalRank>(x: &[T], feed: Feed) -> Vec<Entry<T>> {
    let mut top = TopK::<T, 1024>::new();
    match feed {
        Feed::Iter => top.try_extend(x.iter().copied()).unwrap(),
        _ => top.extend_from_slice(x).unwrap(),
    }
    top.into_sorted().to_vec()
}

/// Entries of `Reverse<f32>` as `bits` gives those of `f32`: (index, the bits of the value
/// inside).
fn inside_bits(entries: &[Entry<Reverse<f32>>]) -> Vec<(u32, u64)> {
    entries
        .iter()
        .map(|e| (e.index, u64::from(e.value.0.to_bits())))
        .collect()
}

#[test]
fn every_api_keeping_the_whole_row_is_the_oracle() {
    let mut rng = Rng(0x3407);
    for n in lens() {
        for x in rows(&mut rng, n) {
            let expected = oracle(&x, n).unwrap();
            let want = bits(&expected);
            assert_eq!(
                bits(&via_top_k_into(&x, n).unwrap()),
                want,
                "top_k_into n={n}"
            );
            let chunks = via_slice_topk(&x, n, Feed::Chunks(n)).unwrap();
            assert_eq!(bits(&chunks), want, "SliceTopK n={n}");
            if n == 1024 {
                for feed in [Feed::Extend, Feed::Iter] {
                    assert_eq!(bits(&via_topk_1024(&x, feed)), want, "TopK {feed:?}");
                }
            }
            // Two rows at once, each kept whole.
            let batch: Vec<f32> = x.iter().chain(x.iter().rev()).copied().collect();
            let (mut idx, mut val) = (vec![0; 2 * n], vec![0.0; 2 * n]);
            top_k_rows(&batch, n, &mut idx, &mut val).unwrap();
            assert_eq!(bits(&zip_entries(&idx[..n], &val[..n])), want, "rows n={n}");
            let reversed: Vec<f32> = x.iter().rev().copied().collect();
            let second = bits(&oracle(&reversed, n).unwrap());
            assert_eq!(
                bits(&zip_entries(&idx[n..], &val[n..])),
                second,
                "rows n={n}"
            );

            // The smallest first: on the plain row, and as `Reverse` (which the radix sort
            // serves through `bottom_k_into`, and the quicksort through `TopK`).
            let rev: Vec<Reverse<f32>> = x.iter().map(|&v| Reverse(v)).collect();
            let want = inside_bits(&oracle(&rev, n).unwrap());
            let (mut idx, mut val) = (vec![0; n], vec![0.0; n]);
            bottom_k_into(&x, &mut idx, &mut val).unwrap();
            assert_eq!(bits(&zip_entries(&idx, &val)), want, "bottom_k_into n={n}");
            if n == 1024 {
                let top = inside_bits(&via_topk_1024(&rev, Feed::Extend));
                assert_eq!(top, want, "TopK<Reverse<f32>, 1024>");
            }
        }
    }
}

#[test]
fn a_nan_in_a_whole_row_is_the_first_and_nothing_is_written() {
    let mut rng = Rng(0x3408);
    let n = if cfg!(miri) { 600 } else { 1024 };
    let x = rows(&mut rng, n).swap_remove(2);
    for at in [0, 1, n / 2, n - 1] {
        let mut bad = x.clone();
        bad[at] = f32::from_bits(0xFFC0_0001);
        let nan = Err(Error::NotRankable { index: at });
        let (mut idx, mut val) = (vec![7; n], vec![7.5; n]);
        assert_eq!(tinytopk::top_k_into(&bad, &mut idx, &mut val), nan);
        assert_eq!(bottom_k_into(&bad, &mut idx, &mut val), nan);
        assert_eq!(top_k_rows(&bad, n, &mut idx, &mut val), nan);
        assert!(idx.iter().all(|&i| i == 7) && val.iter().all(|&v| v == 7.5));
        let mut top = tinytopk::SliceTopK::new(&mut idx, &mut val).unwrap();
        assert_eq!(top.extend_from_slice(&bad), nan);
        assert_eq!((top.len(), top.stream_len()), (0, 0));
        if n == 1024 {
            let mut top = TopK::<f32, 1024>::new();
            assert_eq!(top.extend_from_slice(&bad), nan);
            assert_eq!(top.try_extend(bad.iter().copied()), nan);
            assert_eq!((top.len(), top.stream_len()), (0, 0));
            // Still a selector: the clean row after the errors.
            top.extend_from_slice(&x).unwrap();
            assert_eq!(bits(&top.into_sorted()), bits(&oracle(&x, n).unwrap()));
        }
    }
}

/// A selector that one `extend_from_slice` fills exactly is left a heap: its worst entry is
/// the one `peek_worst` gives, later values compete with it, and an offset gives every index
/// its base (the radix sort writes the indices back from the row's positions).
#[test]
fn a_selector_filled_whole_stays_a_selector() {
    let mut rng = Rng(0x340A);
    for x in rows(&mut rng, 1024) {
        let base = 77;
        let mut top = TopK::<f32, 1024>::with_offset(base);
        top.extend_from_slice(&x).unwrap();
        let mut stream = vec![f32::NEG_INFINITY; base as usize];
        stream.extend(&x);
        let all = oracle(&stream[base as usize..], 1024).unwrap();
        let worst = all.last().map(|e| (e.index + base, e.value.to_bits()));
        let peek = top.peek_worst().map(|e| (e.index, e.value.to_bits()));
        assert_eq!(peek, worst);
        let more = [f32::MAX, -0.0, 0.0, f32::INFINITY, 3.5];
        top.extend_from_slice(&more).unwrap();
        for &v in &more {
            top.push(v).unwrap();
        }
        stream.extend(more);
        stream.extend(more);
        // The first `base` places of the stream were never offered: the oracle of the rest,
        // indices moved by the base.
        let want: Vec<(u32, u64)> = oracle(&stream[base as usize..], 1024)
            .unwrap()
            .iter()
            .map(|e| (e.index + base, u64::from(e.value.to_bits())))
            .collect();
        assert_eq!(bits(&top.into_sorted()), want);
    }
}

/// Many kept `f32` entries of a row short enough to read again (at most 64 Ki values), taken
/// by an empty selector: the extend sorts them worst first from the row (the radix sort of
/// the kept entries' positions and values), and the final sort reverses them; equal values
/// must come out by index whatever order the heap left them in. Through `top_k_into`,
/// `bottom_k_into`, `top_k_rows` and `SliceTopK`, on tie-heavy rows (a few edge values, so that
/// long runs of ties straddle the k-th place), bit for bit, at k from the radix sort's least
/// on, and on rows on both sides of its longest.
#[test]
fn many_kept_entries_of_a_short_row_are_the_oracle() {
    let mut rng = Rng(0x340B);
    let cases: Vec<(usize, Vec<usize>)> = if cfg!(miri) {
        vec![(700, vec![512, 600])]
    } else {
        vec![
            (700, vec![511, 512, 513, 699]),
            (3000, vec![512, 1000, 2999]),
            (1 << 16, vec![600, 5000]),
            ((1 << 16) + 1, vec![600]),
        ]
    };
    for (n, ks) in cases {
        for x in rows(&mut rng, n) {
            let rev: Vec<Reverse<f32>> = x.iter().map(|&v| Reverse(v)).collect();
            for &k in &ks {
                let want = bits(&oracle(&x, k).unwrap());
                let top = bits(&via_top_k_into(&x, k).unwrap());
                assert_eq!(top, want, "top_k_into n={n} k={k}");
                let slices = bits(&via_slice_topk(&x, k, Feed::Extend).unwrap());
                assert_eq!(slices, want, "SliceTopK n={n} k={k}");

                let want = inside_bits(&oracle(&rev, k).unwrap());
                let (mut idx, mut val) = (vec![0; k], vec![0.0; k]);
                bottom_k_into(&x, &mut idx, &mut val).unwrap();
                let bottom = bits(&zip_entries(&idx, &val));
                assert_eq!(bottom, want, "bottom_k_into n={n} k={k}");

                // Two rows at once: the row, then the row reversed.
                let batch: Vec<f32> = x.iter().chain(x.iter().rev()).copied().collect();
                let (mut idx, mut val) = (vec![0; 2 * k], vec![0.0; 2 * k]);
                top_k_rows(&batch, n, &mut idx, &mut val).unwrap();
                let reversed: Vec<f32> = x.iter().rev().copied().collect();
                for (row, y) in [&x, &reversed].into_iter().enumerate() {
                    let got = bits(&zip_entries(&idx[row * k..][..k], &val[row * k..][..k]));
                    assert_eq!(got, bits(&oracle(y, k).unwrap()), "rows n={n} k={k}");
                }
            }
        }
    }
}

/// A `TopK` with many `f32` entries, filled by one `extend_from_slice` of a short row (which
/// leaves them sorted worst first, from the row), stays a selector: its worst entry is the
/// one `peek_worst` gives, later values compete with it, and an offset gives every index its
/// base. `TopK<Reverse<f32>, _>`, whose entries the radix sort does not serve (they lend no
/// `f32` lanes), gives the same answers by its own path.
#[test]
fn a_selector_sorted_from_its_row_stays_a_selector() {
    let mut rng = Rng(0x340C);
    let n = if cfg!(miri) { 700 } else { 3000 };
    for x in rows(&mut rng, n) {
        let base = 77;
        let more = [f32::MAX, -0.0, 0.0, f32::INFINITY, 3.5, f32::NEG_INFINITY];
        let stream: Vec<f32> = x.iter().chain(&more).copied().collect();
        let rebased = |entries: &[Entry<f32>]| -> Vec<(u32, u64)> {
            bits(entries).iter().map(|&(i, v)| (i + base, v)).collect()
        };

        let mut top = TopK::<f32, 600>::with_offset(base);
        top.extend_from_slice(&x).unwrap();
        let worst = oracle(&x, 600).unwrap().last().copied();
        let peek = top.peek_worst().map(|e| (e.index, e.value.to_bits()));
        assert_eq!(peek, worst.map(|e| (e.index + base, e.value.to_bits())));
        top.extend_from_slice(&more[..3]).unwrap();
        for &v in &more[3..] {
            top.push(v).unwrap();
        }
        let want = rebased(&oracle(&stream, 600).unwrap());
        assert_eq!(bits(&top.into_sorted()), want, "TopK<f32, 600>");

        let rev: Vec<Reverse<f32>> = stream.iter().map(|&v| Reverse(v)).collect();
        let mut top = TopK::<Reverse<f32>, 600>::new();
        top.extend_from_slice(&rev[..n]).unwrap();
        top.extend_from_slice(&rev[n..]).unwrap();
        let want = inside_bits(&oracle(&rev, 600).unwrap());
        assert_eq!(
            inside_bits(&top.into_sorted()),
            want,
            "TopK<Reverse<f32>, 600>"
        );
    }
}
