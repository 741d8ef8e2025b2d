//! Property tests: every API against the oracle on tie-heavy rows of f32, f64 and i32 (each
//! type's edge values and any rankable value).

use crate::common;

use common::{
    assert_every_api_is_the_oracle, bits, proptest_config, row_and_k, tie_heavy, via_slice_topk,
    via_topk, Feed, Value,
};
use proptest::prelude::*;
use proptest::sample::select;
use tinytopk::{top_k_into, Error, SliceTopK, TopK};

proptest! {
    #![proptest_config(proptest_config())]

    #[test]
    fn f32_rows_match_the_oracle((x, k) in row_and_k(tie_heavy::<f32>(1..=8, 64))) {
        assert_every_api_is_the_oracle(&x, k);
    }

    #[test]
    fn f64_rows_match_the_oracle((x, k) in row_and_k(tie_heavy::<f64>(1..=8, 64))) {
        assert_every_api_is_the_oracle(&x, k);
    }

    #[test]
    fn i32_rows_match_the_oracle((x, k) in row_and_k(tie_heavy::<i32>(1..=8, 64))) {
        assert_every_api_is_the_oracle(&x, k);
    }

    /// A long row (many replacements at the root) against the oracle, with a larger k.
    #[test]
    fn long_rows_match_the_oracle(
        x in tie_heavy::<f32>(1..=8, if cfg!(miri) { 200 } else { 3000 }),
        k in 0_usize..=200,
    ) {
        let k = k.min(x.len());
        assert_every_api_is_the_oracle(&x, k);
    }

    /// Feeding a selector in chunks split anywhere, each chunk by one extend or by a push per
    /// value, is the same as one push at a time: a push then meets a heap whose root extends
    /// raised since its last push.
    #[test]
    fn extend_split_anywhere_is_push_one_at_a_time(
        x in tie_heavy::<f32>(1..=8, 96),
        cuts in prop::collection::vec(0_usize..=96, 0..8),
        by_push in prop::collection::vec(any::<bool>(), 9),
        k in 0_usize..=12,
    ) {
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(x.len())).collect();
        cuts.sort_unstable();
        let pushed = via_slice_topk(&x, k, Feed::Push).unwrap();
        let pushed_array = via_topk::<f32, 12>(&x, Feed::Push).unwrap();

        let (mut idx, mut val) = (vec![0; k], vec![0.0; k]);
        let mut sliced = SliceTopK::new(&mut idx, &mut val).unwrap();
        let mut array = TopK::<f32, 12>::new();
        let mut start = 0;
        for (&end, &push) in cuts.iter().chain([&x.len()]).zip(&by_push) {
            let chunk = &x[start..end];
            if push {
                for &v in chunk {
                    sliced.push(v).unwrap();
                    array.push(v).unwrap();
                }
            } else {
                sliced.extend_from_slice(chunk).unwrap();
                array.extend_from_slice(chunk).unwrap();
            }
            start = end;
        }
        prop_assert_eq!(sliced.stream_len(), x.len() as u64);
        prop_assert_eq!(array.stream_len(), x.len() as u64);
        let (i, v) = sliced.into_sorted();
        prop_assert_eq!(bits(&common::zip_entries(i, v)), bits(&pushed));
        prop_assert_eq!(bits(&array.into_sorted()), bits(&pushed_array));
    }

    /// NaNs of any bit pattern anywhere: the first is named, nothing is written, and a selector
    /// is left exactly as it was.
    #[test]
    fn nan_anywhere_is_named_and_nothing_is_written(
        (mut x, k) in row_and_k(tie_heavy::<f32>(1..=8, 40)),
        nans in prop::collection::vec((any::<prop::sample::Index>(), select(f32::nans())), 1..4),
        nan_payload in any::<u32>(),
    ) {
        if x.is_empty() {
            x.push(1.0);
        }
        let k = k.min(x.len());
        let clean = x.clone();
        // Any exponent-all-ones pattern with a non-zero mantissa is NaN.
        let extra = f32::from_bits(0x7F80_0000 | (nan_payload & 0x807F_FFFF) | 1);
        for (i, &(at, listed)) in nans.iter().enumerate() {
            let nan = if i == 0 { extra } else { listed };
            x[at.index(clean.len())] = nan;
        }
        let first = x.iter().position(|v| v.is_nan()).unwrap();
        let expected = Err(Error::NotRankable { index: first });

        let (mut idx, mut val) = (vec![7_u32; k], vec![-7.5_f32; k]);
        prop_assert_eq!(top_k_into(&x, &mut idx, &mut val), expected);
        prop_assert!(idx.iter().all(|&i| i == 7) && val.iter().all(|&v| v == -7.5));

        // A selector already holding the clean row rejects the row with the NaN, and is
        // unchanged: the clean row's top k, at the same stream position.
        let mut array = TopK::<f32, 5>::new();
        array.extend_from_slice(&clean).unwrap();
        let want = bits(&array.clone().into_sorted());
        let offset = clean.len();
        prop_assert_eq!(
            array.extend_from_slice(&x),
            Err(Error::NotRankable { index: offset + first })
        );
        prop_assert_eq!(array.stream_len(), offset as u64);
        prop_assert_eq!(bits(&array.into_sorted()), want);
    }
}
