//! The catalog of the C contract this crate derives from, by its names, run against
//! `top_k_into`, `TopK` and `SliceTopK`.

use crate::common;

use common::{
    assert_every_api, assert_every_api_is_the_oracle, oracle, seeded_tie_heavy, zip_entries, Rng,
    Value,
};
use tinytopk::{top_k_into, Entry, Error, SliceTopK, TopK, TotalRank};

const NEG_INF: f32 = f32::NEG_INFINITY;

/// What the outputs hold before a call that must not write.
const IDX_SENTINEL: u32 = 0xDEAD_BEEF;
const VAL_SENTINEL: f32 = 12345.0;

fn entries(idx: &[u32], val: &[f32]) -> Result<Vec<Entry<f32>>, Error> {
    Ok(zip_entries(idx, val))
}

#[test]
fn hand_example() {
    // Section 3 of the C module: x = [1, 3, 2, 3, -1], k = 3.
    let x = [1.0_f32, 3.0, 2.0, 3.0, -1.0];
    let (mut idx, mut val) = ([0_u32; 3], [0.0_f32; 3]);
    top_k_into(&x, &mut idx, &mut val).unwrap();
    assert_eq!(idx, [1, 3, 2]);
    assert_eq!(val, [3.0, 3.0, 2.0]);
    assert_every_api(&x, 3, &entries(&[1, 3, 2], &[3.0, 3.0, 2.0]));
}

#[test]
fn tie_at_the_cut_goes_to_the_lower_index() {
    let x = [5.0_f32, 1.0, 1.0, 1.0, 1.0, 0.0];
    assert_every_api(&x, 2, &entries(&[0, 1], &[5.0, 1.0]));
    // The tie moves with the cut: k = 4 keeps the three lowest of the four 1s.
    assert_every_api(&x, 4, &entries(&[0, 1, 2, 3], &[5.0, 1.0, 1.0, 1.0]));
    // The tied value first, the better value last.
    let x = [1.0_f32, 1.0, 1.0, 7.0];
    assert_every_api(&x, 2, &entries(&[3, 0], &[7.0, 1.0]));
}

#[test]
fn equal_values_are_listed_by_ascending_index() {
    // The longest row is left out under Miri, where it is slow.
    let lens: &[usize] = if cfg!(miri) {
        &[1, 2, 3, 10]
    } else {
        &[1, 2, 3, 10, 33]
    };
    for &n in lens {
        let x = vec![0.25_f32; n];
        for k in 0..=n {
            let ids: Vec<u32> = (0..k as u32).collect();
            assert_every_api(&x, k, &entries(&ids, &vec![0.25; k]));
        }
    }
    // -0.0 and 0.0 are equal values: they tie and come out by index, each with its own bits.
    let x = [0.0_f32, -0.0, 0.0, -0.0, -1.0];
    assert_every_api(&x, 4, &entries(&[0, 1, 2, 3], &[0.0, -0.0, 0.0, -0.0]));
    // Interleaved: equal values separated by others.
    let x = [2.0_f32, 5.0, 2.0, 5.0, 2.0, 5.0];
    assert_every_api(
        &x,
        5,
        &entries(&[1, 3, 5, 0, 2], &[5.0, 5.0, 5.0, 2.0, 2.0]),
    );
}

#[test]
fn k_zero_and_k_equal_n() {
    let x = [3.0_f32, -1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0];
    // k = 0 is "off": Ok, and nothing written.
    let (mut idx, mut val) = ([IDX_SENTINEL; 2], [VAL_SENTINEL; 2]);
    assert_eq!(top_k_into(&x, &mut idx[..0], &mut val[..0]), Ok(()));
    assert_eq!((idx, val), ([IDX_SENTINEL; 2], [VAL_SENTINEL; 2]));
    assert_every_api(&x, 0, &Ok(vec![]));
    // k = n is a full sort.
    assert_every_api(
        &x,
        8,
        &entries(
            &[5, 7, 4, 2, 0, 6, 3, 1],
            &[9.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, -1.0],
        ),
    );
    // n = 0 is fine with k = 0, and k = 1 is too large.
    assert_every_api::<f32>(&[], 0, &Ok(vec![]));
    assert_eq!(
        top_k_into::<f32>(&[], &mut [0], &mut [0.0]),
        Err(Error::KTooLarge { k: 1, n: 0 })
    );
    // A selector keeps min(K, n).
    let mut top = TopK::<f32, 4>::new();
    top.extend_from_slice(&x[..2]).unwrap();
    assert_eq!(top.len(), 2);
    assert_eq!(top.into_sorted().len(), 2);
    let mut none = TopK::<f32, 0>::new();
    none.extend_from_slice(&x).unwrap();
    assert!(none.is_empty());
    assert_eq!(none.stream_len(), 8);
    assert!(none.into_sorted().is_empty());
}

#[test]
fn minus_infinity_is_an_ordinary_value() {
    let x = [NEG_INF, 0.5, NEG_INF, -1e30, NEG_INF];
    assert_every_api(
        &x,
        4,
        &entries(&[1, 3, 0, 2], &[0.5, -1e30, NEG_INF, NEG_INF]),
    );
    // A fully masked row: every entry is -inf, listed by index.
    let x = [NEG_INF; 6];
    assert_every_api(&x, 6, &entries(&[0, 1, 2, 3, 4, 5], &[NEG_INF; 6]));
    // +inf ranks first, and the extremes sit between the infinities.
    let x = [f32::MIN, f32::INFINITY, NEG_INF, f32::MAX];
    assert_every_api(
        &x,
        4,
        &entries(&[1, 3, 0, 2], &[f32::INFINITY, f32::MAX, f32::MIN, NEG_INF]),
    );
}

/// Runs `top_k_into` on outputs full of sentinels and checks that it fails with `expected` and
/// leaves them as they were.
fn assert_rejected(x: &[f32], k_idx: usize, k_val: usize, expected: Error) {
    let mut idx = vec![IDX_SENTINEL; k_idx];
    let mut val = vec![VAL_SENTINEL; k_val];
    assert_eq!(
        top_k_into(x, &mut idx, &mut val),
        Err(expected),
        "x = {x:?}"
    );
    assert!(
        idx.iter().all(|&i| i == IDX_SENTINEL),
        "idx written: {idx:?}"
    );
    assert!(
        val.iter().all(|v| v.to_bits() == VAL_SENTINEL.to_bits()),
        "val written: {val:?}"
    );
}

#[test]
fn nan_and_bad_k_are_einval_and_write_nothing() {
    let base = [4.0_f32, NEG_INF, 7.0, 0.0, 7.0, -2.0, 1.0];
    let n = base.len();
    for nan in f32::nans() {
        assert!(!nan.is_rankable());
        for pos in [0, n / 2, n - 1] {
            let mut x = base;
            x[pos] = nan;
            // Any NaN is an error whatever k is, k = 0 and k = n included.
            for k in [0, 1, 3, n] {
                assert_rejected(&x, k, k, Error::NotRankable { index: pos });
            }
            // The first NaN is the one named.
            let mut two = x;
            two[n - 1] = nan;
            assert_rejected(&two, 2, 2, Error::NotRankable { index: pos });
        }
    }
    // k > n, for several n.
    for n in 0..4 {
        assert_rejected(&base[..n], n + 1, n + 1, Error::KTooLarge { k: n + 1, n });
    }
    // Buffers of different lengths.
    assert_rejected(&base, 2, 3, Error::LengthMismatch { idx: 2, val: 3 });
    assert_rejected(&base, 3, 0, Error::LengthMismatch { idx: 3, val: 0 });

    // The selectors: a rejected push or extend keeps the heap and the stream position.
    let nan = f32::NAN;
    let mut top = TopK::<f32, 3>::new();
    top.extend_from_slice(&base[..4]).unwrap();
    let before = (
        top.clone().into_sorted(),
        top.stream_len(),
        top.peek_worst(),
    );
    assert_eq!(top.push(nan), Err(Error::NotRankable { index: 4 }));
    assert_eq!(
        top.extend_from_slice(&[9.0, 8.0, nan, 10.0]),
        Err(Error::NotRankable { index: 6 })
    );
    assert_eq!(
        (
            top.clone().into_sorted(),
            top.stream_len(),
            top.peek_worst()
        ),
        before
    );
    // The next accepted value takes the position the rejected one would have had.
    top.push(100.0).unwrap();
    assert_eq!(
        top.into_sorted()[0],
        Entry {
            value: 100.0,
            index: 4
        }
    );

    let (mut idx, mut val) = ([IDX_SENTINEL; 3], [VAL_SENTINEL; 3]);
    let mut top = SliceTopK::new(&mut idx, &mut val).unwrap();
    assert_eq!(
        top.extend_from_slice(&[1.0, nan]),
        Err(Error::NotRankable { index: 1 })
    );
    assert_eq!(top.push(nan), Err(Error::NotRankable { index: 0 }));
    assert_eq!((top.len(), top.stream_len()), (0, 0));
    // The selector is done with: the buffers are the caller's again.
    assert_eq!((idx, val), ([IDX_SENTINEL; 3], [VAL_SENTINEL; 3]));

    let mut top = SliceTopK::new(&mut idx, &mut val).unwrap();
    top.extend_from_slice(&base[..5]).unwrap();
    assert_eq!(top.push(nan), Err(Error::NotRankable { index: 5 }));
    assert_eq!(top.stream_len(), 5);
    let (i, v) = top.into_sorted();
    assert_eq!(zip_entries(i, v), oracle(&base[..5], 3).unwrap());

    assert_eq!(
        SliceTopK::new(&mut [0_u32; 2], &mut [0.0_f32; 1]).map(|_| ()),
        Err(Error::LengthMismatch { idx: 2, val: 1 })
    );
}

/// A value type of size zero, so that a slice longer than `u32::MAX + 1` costs no memory.
#[cfg(target_pointer_width = "64")]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Nothing;

#[cfg(target_pointer_width = "64")]
impl TotalRank for Nothing {
    fn is_rankable(&self) -> bool {
        true
    }
    fn rank_cmp(&self, _: &Self) -> core::cmp::Ordering {
        core::cmp::Ordering::Equal
    }
}

#[test]
#[cfg(target_pointer_width = "64")]
fn a_stream_longer_than_u32_indices_is_an_error() {
    // An array of zero-sized values: no memory and nothing to initialise.
    static TOO_LONG: [Nothing; u32::MAX as usize + 2] = [Nothing; u32::MAX as usize + 2];
    let too_long = &TOO_LONG[..];
    let n = too_long.len();
    let mut idx = [IDX_SENTINEL; 1];
    let mut val = [Nothing; 1];
    assert_eq!(
        top_k_into(too_long, &mut idx, &mut val),
        Err(Error::TooLong { n })
    );
    assert_eq!(idx, [IDX_SENTINEL]);

    let mut top = TopK::<Nothing, 1>::new();
    top.push(Nothing).unwrap();
    // One value taken, so u32::MAX + 1 more would make u32::MAX + 2.
    let rest = &too_long[..u32::MAX as usize + 1];
    assert_eq!(
        top.extend_from_slice(rest),
        Err(Error::TooLong { n: rest.len() + 1 })
    );
    assert_eq!((top.len(), top.stream_len()), (1, 1));
}

#[test]
fn matches_a_full_sort() {
    // 300 random rows with many ties (a few under Miri), every k, against the oracle.
    let rows = if cfg!(miri) { 4 } else { 300 };
    let mut rng = Rng(0x0070_704b);
    for row in 0..rows {
        let n = rng.below(41);
        // A pool of 1 to 6 edge values makes ties the rule, not the exception.
        let x: Vec<f32> = seeded_tie_heavy(&mut rng, 1 + row % 6, n);
        for k in 0..=n {
            assert_every_api_is_the_oracle(&x, k);
        }
        assert_every_api(&x, n + 1, &Err(Error::KTooLarge { k: n + 1, n }));
    }
}

#[test]
fn display_names_the_numbers() {
    let shown = [
        (Error::NotRankable { index: 7 }, "7"),
        (Error::KTooLarge { k: 5, n: 3 }, "k = 5"),
        (Error::LengthMismatch { idx: 2, val: 3 }, "(3)"),
        (Error::TooLong { n: 9 }, "9 values"),
    ];
    for (error, part) in shown {
        let text = error.to_string();
        assert!(text.contains(part), "{text:?} lacks {part:?}");
    }
}
