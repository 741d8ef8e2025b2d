//! Shards and merging: any split of a row into shards (`with_offset`), merged in any order,
//! gives exactly the one-pass result; merged entries may come in any index order; overlaps,
//! NaN and out-of-range indices are errors that change nothing; indices past u32 never wrap.

use crate::common;

use common::{bits, oracle, zip_entries, Value};
use proptest::prelude::*;
use tinytopk::{Entry, Error, SliceTopK, TopK, TotalRank};

const K: usize = 6;

/// A row of up to `max_len` values from a pool of 1 to 4 values of f32: ties everywhere.
fn tie_heavy(max_len: usize) -> impl Strategy<Value = Vec<f32>> {
    common::tie_heavy::<f32>(1..=4, max_len)
}

/// Shard boundaries: sorted cuts in `0..=n`, with `0` and `n` at the ends (shards may be empty).
fn bounds(n: usize, cuts: &[usize]) -> Vec<usize> {
    let mut b: Vec<usize> = cuts.iter().map(|c| c % (n + 1)).collect();
    b.push(0);
    b.push(n);
    b.sort_unstable();
    b
}

/// The selector's kept entries, best first, compared by bits.
fn sorted_bits<T: TotalRank + Value, const N: usize>(top: &TopK<T, N>) -> Vec<(u32, u64)> {
    bits(&top.clone().into_sorted())
}

proptest! {
    #![proptest_config(common::proptest_config())]

    /// Any split, each shard its own `TopK::with_offset`, merged in any order (into any of
    /// them): the one-pass result, and the stream length of the whole row.
    #[test]
    fn topk_shards_merged_in_any_order_are_one_pass(
        x in tie_heavy(80),
        cuts in prop::collection::vec(any::<usize>(), 0..6),
        order in any::<u64>(),
    ) {
        let b = bounds(x.len(), &cuts);
        let mut shards: Vec<TopK<f32, K>> = b
            .windows(2)
            .map(|w| {
                let mut top = TopK::with_offset(w[0] as u32);
                top.extend_from_slice(&x[w[0]..w[1]]).unwrap();
                top
            })
            .collect();
        // A seeded shuffle of the merge order.
        let mut rng = common::Rng(order);
        for i in (1..shards.len()).rev() {
            shards.swap(i, rng.below(i + 1));
        }
        let mut merged = shards.pop().unwrap();
        for shard in &shards {
            merged.merge(shard).unwrap();
        }
        let mut one_pass = TopK::<f32, K>::new();
        one_pass.extend_from_slice(&x).unwrap();
        prop_assert_eq!(merged.stream_len(), x.len() as u64);
        prop_assert_eq!(sorted_bits(&merged), sorted_bits(&one_pass));
        prop_assert_eq!(bits(&merged.into_sorted()), bits(&oracle(&x, K.min(x.len())).unwrap()));
    }

    /// The same with `SliceTopK` shards and a runtime k, merged by `merge` and by
    /// `merge_entries` of the shards' sorted output.
    #[test]
    fn slice_shards_merge_to_one_pass(
        x in tie_heavy(80),
        cuts in prop::collection::vec(any::<usize>(), 0..5),
        k in 0_usize..=10,
    ) {
        let b = bounds(x.len(), &cuts);
        let expected = oracle(&x, k.min(x.len())).unwrap();

        // `merge`: selectors over buffers.
        let mut bufs: Vec<(Vec<u32>, Vec<f32>)> = b.windows(2).map(|_| (vec![0; k], vec![0.0; k])).collect();
        let mut shards: Vec<SliceTopK<'_, f32>> = bufs
            .iter_mut()
            .zip(b.windows(2))
            .map(|((idx, val), w)| {
                let mut top = SliceTopK::with_offset(idx, val, w[0] as u32).unwrap();
                top.extend_from_slice(&x[w[0]..w[1]]).unwrap();
                top
            })
            .collect();
        let mut first = shards.remove(0);
        for shard in shards.iter().rev() {
            first.merge(shard).unwrap();
        }
        prop_assert_eq!(first.stream_len(), x.len() as u64);
        let (i, v) = first.into_sorted();
        prop_assert_eq!(bits(&zip_entries(i, v)), bits(&expected));

        // `merge_entries`: each shard's sorted entries, as another machine would send them.
        let (mut idx, mut val) = (vec![0_u32; k], vec![0.0_f32; k]);
        let mut top = SliceTopK::new(&mut idx, &mut val).unwrap();
        for w in b.windows(2).rev() {
            let part = oracle(&x[w[0]..w[1]], k.min(w[1] - w[0])).unwrap();
            let global: Vec<Entry<f32>> = part
                .iter()
                .map(|e| Entry { value: e.value, index: e.index + w[0] as u32 })
                .collect();
            top.merge_entries(&global, w[1] as u64).unwrap();
        }
        let (i, v) = top.into_sorted();
        prop_assert_eq!(bits(&zip_entries(i, v)), bits(&expected));
    }

    /// The heap compares with the full order: a whole row's entries offered in a random index
    /// order (ties everywhere) still give the oracle's top k.
    #[test]
    fn entries_in_any_index_order_give_the_top_k(
        x in tie_heavy(60),
        seed in any::<u64>(),
    ) {
        let mut entries = zip_entries(&(0..x.len() as u32).collect::<Vec<_>>(), &x);
        let mut rng = common::Rng(seed);
        for i in (1..entries.len()).rev() {
            entries.swap(i, rng.below(i + 1));
        }
        let mut top = TopK::<f32, K>::new();
        top.merge_entries(&entries, x.len() as u64).unwrap();
        prop_assert_eq!(bits(&top.into_sorted()), bits(&oracle(&x, K.min(x.len())).unwrap()));
    }
}

/// A selector holding `[5, 1, 3]` at positions 0..3, to check that errors change nothing.
fn holding() -> TopK<f32, 2> {
    let mut top = TopK::new();
    top.extend_from_slice(&[5.0, 1.0, 3.0]).unwrap();
    top
}

fn assert_unchanged(top: &TopK<f32, 2>) {
    assert_eq!(top.stream_len(), 3);
    assert_eq!(sorted_bits(top), sorted_bits(&holding()));
}

#[test]
fn overlapping_shards_are_an_error_and_change_nothing() {
    let mut top = holding();
    let mut other = TopK::<f32, 2>::with_offset(2);
    other.extend_from_slice(&[3.0, 9.0]).unwrap();
    assert_eq!(top.merge(&other), Err(Error::DuplicateIndex { index: 2 }));
    assert_unchanged(&top);
    // Twice in the incoming entries.
    let twice = [
        Entry {
            value: 8.0,
            index: 7,
        },
        Entry {
            value: 6.0,
            index: 7,
        },
    ];
    assert_eq!(
        top.merge_entries(&twice, 8),
        Err(Error::DuplicateIndex { index: 7 })
    );
    assert_unchanged(&top);
}

#[test]
fn bad_incoming_entries_are_errors_and_change_nothing() {
    let mut top = holding();
    let nan = [
        Entry {
            value: 8.0,
            index: 4,
        },
        Entry {
            value: f32::NAN,
            index: 6,
        },
    ];
    assert_eq!(
        top.merge_entries(&nan, 8),
        Err(Error::NotRankable { index: 6 })
    );
    assert_unchanged(&top);
    let beyond = [Entry {
        value: 8.0,
        index: 8,
    }];
    assert_eq!(
        top.merge_entries(&beyond, 8),
        Err(Error::IndexBeyondStream {
            index: 8,
            stream_len: 8
        })
    );
    assert_unchanged(&top);
    let too_long = u32::MAX as u64 + 2;
    assert_eq!(
        top.merge_entries(&[], too_long),
        Err(Error::TooLong { n: past_u32_end() })
    );
    assert_unchanged(&top);
    // The longest stream u32 indices allow is accepted, with an entry at its last position.
    let mut full = TopK::<f32, 2>::new();
    let last = [Entry {
        value: 1.0,
        index: u32::MAX,
    }];
    full.merge_entries(&last, too_long - 1).unwrap();
    assert_eq!(full.stream_len(), too_long - 1);
    assert_eq!(full.into_sorted().as_slice(), last);

    let (mut idx, mut val) = ([11_u32; 2], [-3.0_f32; 2]);
    let mut slice = SliceTopK::with_offset(&mut idx, &mut val, 10).unwrap();
    assert_eq!(
        slice.merge_entries(&nan, 8),
        Err(Error::NotRankable { index: 6 })
    );
    assert_eq!((slice.len(), slice.stream_len()), (0, 10));
    assert_eq!((idx, val), ([11; 2], [-3.0; 2]));
}

#[test]
fn stream_len_after_merge_is_the_greater_end() {
    let mut low = TopK::<f32, 2>::new();
    low.extend_from_slice(&[1.0, 2.0]).unwrap();
    let mut high = TopK::<f32, 2>::with_offset(10);
    high.push(0.5).unwrap();
    let mut a = low.clone();
    a.merge(&high).unwrap();
    assert_eq!(a.stream_len(), 11);
    high.merge(&low).unwrap();
    assert_eq!(high.stream_len(), 11);
    // The next push continues after the highest position either part reached.
    a.push(7.0).unwrap();
    let ids: Vec<u32> = a.into_sorted().iter().map(|e| e.index).collect();
    assert_eq!(ids, [11, 1]);
}

/// `u32::MAX + 2`, the length of a stream one value too long, as `Error::TooLong` reports it:
/// saturated at `usize::MAX` where `usize` has 32 bits.
fn past_u32_end() -> usize {
    usize::try_from(u64::from(u32::MAX) + 2).unwrap_or(usize::MAX)
}

#[test]
fn an_offset_near_the_end_of_u32_is_an_error_never_a_wrap() {
    let mut top = TopK::<i32, 2>::with_offset(u32::MAX);
    assert_eq!(
        top.extend_from_slice(&[1, 2]),
        Err(Error::TooLong { n: past_u32_end() })
    );
    assert_eq!((top.len(), top.stream_len()), (0, u32::MAX as u64));
    top.push(1).unwrap();
    assert_eq!(top.peek_worst().map(|e| e.index), Some(u32::MAX));
    assert_eq!(top.push(2), Err(Error::TooLong { n: past_u32_end() }));

    let (mut idx, mut val) = ([0_u32; 1], [0_i32; 1]);
    let mut slice = SliceTopK::with_offset(&mut idx, &mut val, u32::MAX - 1).unwrap();
    assert_eq!(
        slice.extend_from_slice(&[1, 2, 3]),
        Err(Error::TooLong { n: past_u32_end() })
    );
    slice.extend_from_slice(&[1, 2]).unwrap();
    assert_eq!(slice.stream_len(), u32::MAX as u64 + 1);
    // Past the end of u32 with a full heap, a value that would not enter is an error too.
    assert_eq!(slice.push(0), Err(Error::TooLong { n: past_u32_end() }));
    assert_eq!(slice.stream_len(), u32::MAX as u64 + 1);
    let (i, v) = slice.into_sorted();
    assert_eq!((i, v), (&mut [u32::MAX][..], &mut [2][..]));

    // The same by push alone: a heap full since its first push turns the values that stay
    // out away without a look at it, but not past the end.
    let mut top = TopK::<i32, 1>::with_offset(u32::MAX - 1);
    top.push(5).unwrap();
    top.push(1).unwrap();
    assert_eq!(top.push(0), Err(Error::TooLong { n: past_u32_end() }));
    assert_eq!(top.push(9), Err(Error::TooLong { n: past_u32_end() }));
    assert_eq!(top.stream_len(), u32::MAX as u64 + 1);
    assert_eq!(
        top.peek_worst().map(|e| (e.index, e.value)),
        Some((u32::MAX - 1, 5))
    );
}

#[test]
fn slice_with_offset_rejects_mismatched_buffers() {
    let (mut idx, mut val) = ([0_u32; 2], [0.0_f32; 3]);
    assert_eq!(
        SliceTopK::with_offset(&mut idx, &mut val, 4).err(),
        Some(Error::LengthMismatch { idx: 2, val: 3 })
    );
}

#[test]
fn display_of_the_new_errors_names_the_numbers() {
    let text = |e: Error| e.to_string();
    assert!(text(Error::DuplicateIndex { index: 17 }).contains("17"));
    let beyond = text(Error::IndexBeyondStream {
        index: 9,
        stream_len: 4,
    });
    assert!(beyond.contains('9') && beyond.contains('4'), "{beyond}");
    let rows = text(Error::NotRows {
        len: 10,
        n: 3,
        out: 7,
    });
    assert!(
        rows.contains("10") && rows.contains('3') && rows.contains('7'),
        "{rows}"
    );
}
