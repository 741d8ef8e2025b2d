//! `serde` (feature): `TopK` and `Entry` round-trip through JSON, shards merge on arrival, and
//! a corrupt state is an error, never a broken selector.

use crate::common;

use core::cmp::Ordering;

use common::{bits, ieee_order, oracle, F32_POOL};
use proptest::prelude::*;
use proptest::sample::select;
use serde::{Deserialize, Serialize};
use tinytopk::{Entry, TopK, TotalRank};

const K: usize = 4;

/// An f32 carried by its bits, so that JSON (which has no NaN or infinity) can hold any value:
/// the corrupt states below need a NaN.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
struct Bits(u32);

impl TotalRank for Bits {
    fn is_rankable(&self) -> bool {
        !f32::from_bits(self.0).is_nan()
    }
    fn rank_cmp(&self, other: &Self) -> Ordering {
        ieee_order(&f32::from_bits(self.0), &f32::from_bits(other.0))
    }
}

fn from_json(json: &str) -> Result<TopK<Bits, K>, String> {
    serde_json::from_str::<TopK<Bits, K>>(json).map_err(|e| e.to_string())
}

fn state(stream_len: u64, entries: &[(u32, f32)]) -> String {
    let entries: Vec<Entry<Bits>> = entries
        .iter()
        .map(|&(index, v)| Entry {
            value: Bits(v.to_bits()),
            index,
        })
        .collect();
    serde_json::json!({ "stream_len": stream_len, "entries": entries }).to_string()
}

fn finite() -> impl Strategy<Value = f32> + Clone {
    prop_oneof![
        select(
            F32_POOL
                .iter()
                .copied()
                .filter(|v| v.is_finite())
                .collect::<Vec<_>>()
        ),
        any::<f32>().prop_filter("finite", |v| v.is_finite())
    ]
}

proptest! {
    #![proptest_config(common::proptest_config())]

    /// Serialize, deserialize: the same kept entries (bits) and stream length. f32 values
    /// that JSON can write (finite; it writes infinity as null).
    #[test]
    fn round_trip(x in prop::collection::vec(finite(), 0..40)) {
        let mut top = TopK::<f32, K>::new();
        top.extend_from_slice(&x).unwrap();
        let json = serde_json::to_string(&top).unwrap();
        let back: TopK<f32, K> = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back.stream_len(), top.stream_len());
        prop_assert_eq!(bits(&back.clone().into_sorted()), bits(&top.into_sorted()));
        // And it goes on as the original would have.
        let mut again = back;
        again.push(f32::INFINITY).unwrap();
        prop_assert_eq!(again.into_sorted()[0].index, x.len() as u32);
    }

    /// Two shards serialized on two machines merge on arrival into the one-pass result.
    #[test]
    fn shards_merge_on_arrival(x in prop::collection::vec(finite(), 0..40), cut in any::<prop::sample::Index>()) {
        let cut = cut.index(x.len() + 1);
        let mut left = TopK::<f32, K>::new();
        left.extend_from_slice(&x[..cut]).unwrap();
        let mut right = TopK::<f32, K>::with_offset(cut as u32);
        right.extend_from_slice(&x[cut..]).unwrap();
        let sent = (serde_json::to_string(&left).unwrap(), serde_json::to_string(&right).unwrap());
        let mut got: TopK<f32, K> = serde_json::from_str(&sent.1).unwrap();
        got.merge(&serde_json::from_str(&sent.0).unwrap()).unwrap();
        prop_assert_eq!(got.stream_len(), x.len() as u64);
        prop_assert_eq!(bits(&got.into_sorted()), bits(&oracle(&x, K.min(x.len())).unwrap()));
    }
}

#[test]
fn the_written_form() {
    let mut top = TopK::<i32, 2>::new();
    top.extend_from_slice(&[1, 3, 2, 3]).unwrap();
    assert_eq!(
        serde_json::to_string(&top).unwrap(),
        r#"{"stream_len":4,"entries":[{"value":3,"index":1},{"value":3,"index":3}]}"#
    );
    let entry: Entry<f32> = serde_json::from_str(r#"{"value":-0.0,"index":9}"#).unwrap();
    assert_eq!(
        (entry.value.to_bits(), entry.index),
        ((-0.0_f32).to_bits(), 9)
    );
}

#[test]
fn a_valid_state_with_infinity_and_ties_is_accepted() {
    let top = from_json(&state(
        9,
        &[
            (2, f32::INFINITY),
            (0, 1.0),
            (4, 1.0),
            (8, f32::NEG_INFINITY),
        ],
    ))
    .unwrap();
    let ids: Vec<u32> = top.into_sorted().iter().map(|e| e.index).collect();
    assert_eq!(ids, [2, 0, 4, 8]);
}

#[test]
fn corrupt_states_are_errors() {
    let cases = [
        // More than K entries.
        (
            state(9, &[(0, 5.0), (1, 4.0), (2, 3.0), (3, 2.0), (4, 1.0)]),
            "invalid length 5, expected at most 4 entries",
        ),
        // Not best first, by value, and by index among ties.
        (state(9, &[(0, 1.0), (1, 2.0)]), "not best first"),
        (state(9, &[(3, 1.0), (1, 1.0)]), "not best first"),
        // A NaN, named by its index.
        (state(9, &[(0, 2.0), (5, f32::NAN)]), "index 5 has no place"),
        // An index twice, with the same or another value.
        (state(9, &[(1, 2.0), (1, 2.0)]), "index 1 comes twice"),
        (state(9, &[(1, 3.0), (1, 2.0)]), "index 1 comes twice"),
        // An index at or past the stream length.
        (state(3, &[(3, 2.0)]), "not below the stream length 3"),
        // A stream longer than u32 indices.
        (state(u32::MAX as u64 + 2, &[]), "longer than u32"),
    ];
    for (json, why) in cases {
        let err = from_json(&json).expect_err(&json);
        assert!(err.contains(why), "{json}: {err}");
    }
    for (json, why) in [
        (
            r#"{"stream_len":1,"entries":[],"extra":0}"#,
            "unknown field",
        ),
        (r#"{"entries":[]}"#, "missing field"),
        (r#"{"stream_len":-1,"entries":[]}"#, "invalid value"),
        (
            r#"{"stream_len":1,"entries":[{"value":1}]}"#,
            "missing field",
        ),
    ] {
        let err = from_json(json).expect_err(json);
        assert!(err.contains(why), "{json}: {err}");
    }
    // f32 infinity is written by serde_json as null, which does not read back as an f32: an
    // error, not a wrong value.
    let mut top = TopK::<f32, 1>::new();
    top.push(f32::INFINITY).unwrap();
    let json = serde_json::to_string(&top).unwrap();
    assert!(
        serde_json::from_str::<TopK<f32, 1>>(&json).is_err(),
        "{json}"
    );
}
