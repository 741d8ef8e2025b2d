//! The reading and feeding API: `TopK::sorted`, `iter`, `IntoIterator`, `Selector::iter_sorted`
//! (which leaves the selector usable), `try_extend` (all or nothing over an iterator, on both
//! of its paths: k within the stack copy and k beyond it), `Entry::new` and its tuple, and the
//! sizes of a selector whose value type has no order. Every answer is checked against the one
//! oracle, on tie-heavy rows.

use crate::common;

use common::data::normal_logits;
use common::*;
use proptest::prelude::{prop_assert_eq, proptest};
use tinytopk::{Entry, Error, SliceTopK, TopK};

const IDX_SENTINEL: u32 = 0xDEAD_BEEF;
const VAL_SENTINEL: f32 = 12345.0;

/// Rows longer than a chunk of `try_extend` (1,025 values, and 4,097 in the one pass of a
/// 64-bit target) and than its stack copy's bound.
fn long_rows(rng: &mut Rng) -> Vec<Vec<f32>> {
    let lens: &[usize] = if cfg!(miri) {
        &[0, 1, 70, 300]
    } else {
        &[
            0, 1, 63, 64, 65, 1023, 1024, 1025, 1026, 2048, 2050, 2051, 3000, 4096, 4097, 4098,
            5000, 8194, 8195,
        ]
    };
    let mut rows = Vec::new();
    for &n in lens {
        rows.push(seeded_tie_heavy::<f32>(rng, 3, n));
        rows.push(edge_row::<f32>(rng, n));
        rows.push((0..n).map(|i| (i / 3) as f32).collect());
        rows.push((0..n).map(|i| -((i / 2) as f32)).collect());
    }
    rows
}

/// `TopK<f32, K>` and `SliceTopK` fed by `try_extend` of `x` in pieces of `piece`, against the
/// oracle.
fn check_try_extend<const K: usize>(x: &[f32], piece: usize) {
    let want = bits(&oracle(x, K.min(x.len())).unwrap());
    let mut top = TopK::<f32, K>::new();
    for c in x.chunks(piece.max(1)) {
        top.try_extend(c.iter().copied()).unwrap();
    }
    assert_eq!(top.stream_len(), x.len() as u64);
    assert_eq!(bits(&top.into_sorted()), want, "TopK<{K}>, n = {}", x.len());

    let (mut idx, mut val) = (vec![0_u32; K], vec![0.0_f32; K]);
    let mut top = SliceTopK::new(&mut idx, &mut val).unwrap();
    for c in x.chunks(piece.max(1)) {
        top.try_extend(c.iter().copied()).unwrap();
    }
    let (i, v) = top.into_sorted();
    let got = zip_entries(i, v);
    // A SliceTopK keeps up to its k: as many as it saw when the row is shorter.
    assert_eq!(bits(&got), want, "SliceTopK k = {K}, n = {}", x.len());
}

#[test]
fn try_extend_is_the_oracle_on_both_paths() {
    let mut rng = Rng(0x7E57);
    // Under Miri (slow): the whole row and short pieces only.
    let pieces = |n: usize| {
        if cfg!(miri) {
            vec![n, 7]
        } else {
            vec![n, 1000, 7]
        }
    };
    for x in long_rows(&mut rng) {
        for piece in pieces(x.len()) {
            check_try_extend::<1>(&x, piece);
            check_try_extend::<40>(&x, piece);
            check_try_extend::<64>(&x, piece);
            // Beyond the stack copy: a first run checks, a second feeds.
            check_try_extend::<65>(&x, piece);
            check_try_extend::<200>(&x, piece);
        }
    }
}

#[test]
fn try_extend_of_a_mapped_row_is_the_oracle_of_the_mapped_row() {
    let x = normal_logits(if cfg!(miri) { 300 } else { 5000 }, 17);
    let scale = 1.0 / 0.7_f32;
    let mapped: Vec<f32> = x.iter().map(|&v| v * scale).collect();
    let mut top = TopK::<f32, 40>::new();
    top.try_extend(x.iter().map(|&v| v * scale)).unwrap();
    assert_eq!(bits(&top.sorted()), bits(&oracle(&mapped, 40).unwrap()));
    let mut top = TopK::<f32, 100>::new();
    top.try_extend(x.iter().map(|&v| v * scale)).unwrap();
    assert_eq!(bits(&top.sorted()), bits(&oracle(&mapped, 100).unwrap()));
}

/// A NaN anywhere (first chunk, a later chunk, the last value) is rejected with its stream
/// position, and nothing changes: the caller's buffers keep their sentinels, a `TopK` keeps its
/// entries and its position; the next call goes on as if the rejected one had not been made.
/// On normal logits, and on a rising row, whose order makes a small heap's one pass give up
/// (in the chunk of the NaN, or before it) and feed the row again from a sample.
#[test]
fn a_rejected_try_extend_writes_nothing() {
    let n = if cfg!(miri) { 300 } else { 8200 };
    let rising: Vec<f32> = (0..n).map(|i| i as f32).collect();
    for x in [normal_logits(n, 5), rising] {
        rejected_try_extend_writes_nothing(&x);
    }
}

fn rejected_try_extend_writes_nothing(x: &[f32]) {
    let n = x.len();
    let places: &[usize] = if cfg!(miri) {
        &[0, n - 1]
    } else {
        &[
            0, 1, 63, 1023, 1024, 1025, 1026, 1500, 2047, 2048, 2050, 2051, 4096, 4097, 4098, 8193,
            8194, 8199,
        ]
    };
    for &at in places {
        for nan in NAN_BITS.map(f32::from_bits) {
            let mut bad = x.to_vec();
            bad[at] = nan;
            let error = Err(Error::NotRankable { index: at });

            // Caller buffers, untouched by a first call that fails: sentinels stay.
            for k in [3, 64, 65, 100] {
                let (mut idx, mut val) = (vec![IDX_SENTINEL; k], vec![VAL_SENTINEL; k]);
                let mut top = SliceTopK::new(&mut idx, &mut val).unwrap();
                assert_eq!(top.try_extend(bad.iter().copied()), error, "k = {k}");
                assert_eq!((top.len(), top.stream_len()), (0, 0));
                assert!(idx.iter().all(|&i| i == IDX_SENTINEL));
                assert!(val.iter().all(|&v| v.to_bits() == VAL_SENTINEL.to_bits()));
            }

            // A selector that holds entries keeps them, and its position.
            let mut top = TopK::<f32, 40>::new();
            top.extend_from_slice(&x[..50]).unwrap();
            let before = (top.sorted(), top.stream_len(), top.peek_worst());
            let shifted = Err(Error::NotRankable { index: 50 + at });
            assert_eq!(top.try_extend(bad.iter().copied()), shifted);
            assert_eq!((top.sorted(), top.stream_len(), top.peek_worst()), before);
            top.try_extend(x[50..].iter().copied()).unwrap();
            assert_eq!(bits(&top.sorted()), bits(&oracle(x, 40).unwrap()));

            let mut top = TopK::<f32, 100>::new();
            top.extend_from_slice(&x[..150]).unwrap();
            let before = (top.sorted(), top.stream_len(), top.peek_worst());
            let shifted = Err(Error::NotRankable { index: 150 + at });
            assert_eq!(top.try_extend(bad.iter().copied()), shifted);
            assert_eq!((top.sorted(), top.stream_len(), top.peek_worst()), before);
        }
    }
}

/// The stream ends at `u32::MAX + 1` positions: an iterator that runs past it is rejected
/// before its first NaN (as `extend_from_slice` checks the length first), an endless one too,
/// and nothing is kept.
#[test]
fn try_extend_past_the_stream_end_is_too_long() {
    let base = u32::MAX - 4; // five positions left
    for k in [2_usize, 100] {
        let (mut idx, mut val) = (vec![IDX_SENTINEL; k], vec![VAL_SENTINEL; k]);
        let mut top = SliceTopK::with_offset(&mut idx, &mut val, base).unwrap();
        let six = [1.0, f32::NAN, 3.0, 4.0, 5.0, 6.0];
        assert!(matches!(
            top.try_extend(six.iter().copied()),
            Err(Error::TooLong { .. })
        ));
        assert!(matches!(
            top.try_extend(core::iter::repeat(1.0_f32)),
            Err(Error::TooLong { .. })
        ));
        assert!(matches!(
            top.try_extend(six.iter().copied().filter(|_| true)),
            Err(Error::TooLong { .. })
        ));
        assert_eq!(top.stream_len(), u64::from(base));
        // Exactly to the end: accepted.
        top.try_extend(six[2..].iter().copied().chain([7.0]))
            .unwrap();
        assert_eq!(top.stream_len(), u64::from(u32::MAX) + 1);
        assert_eq!(top.iter_sorted().next().map(|e| e.index), Some(u32::MAX));
    }
    let mut top = TopK::<f32, 2>::with_offset(base);
    assert!(matches!(
        top.try_extend(core::iter::repeat(f32::NAN)),
        Err(Error::TooLong { .. })
    ));
    assert_eq!((top.len(), top.stream_len()), (0, u64::from(base)));
}

/// An iterator whose `size_hint` says it is empty but that yields 2,000 values, where 1,500
/// positions are left (more than one chunk of the scan fits): too long, found before
/// anything is kept, for both paths (k within the stack copy and beyond it).
#[test]
fn an_iterator_longer_than_its_size_hint_is_too_long_all_the_same() {
    #[derive(Clone)]
    struct Liar<'a>(core::slice::Iter<'a, f32>);
    impl Iterator for Liar<'_> {
        type Item = f32;
        fn next(&mut self) -> Option<f32> {
            self.0.next().copied()
        }
        fn size_hint(&self) -> (usize, Option<usize>) {
            (0, Some(0))
        }
    }
    let base = (u64::from(u32::MAX) + 1 - 1500) as u32;
    let x = normal_logits(2000, 3);
    for k in [2_usize, 100] {
        let (mut idx, mut val) = (vec![IDX_SENTINEL; k], vec![VAL_SENTINEL; k]);
        let mut top = SliceTopK::with_offset(&mut idx, &mut val, base).unwrap();
        let got = top.try_extend(Liar(x.iter()));
        assert!(
            matches!(got, Err(Error::TooLong { .. })),
            "k = {k}: {got:?}"
        );
        assert_eq!((top.len(), top.stream_len()), (0, u64::from(base)));
        assert!(idx.iter().all(|&i| i == IDX_SENTINEL));
    }
}

/// An iterator that says it holds more values than it yields (10,000 for 10, or 3,000): the
/// hint chooses only how it is read (a longer chunk with k from 32 on a 64-bit host, a
/// sample), and the answer is the oracle's, for k within the stack copy and beyond it.
#[test]
fn an_iterator_that_says_it_holds_more_is_read_to_its_end() {
    #[derive(Clone)]
    struct Boaster<'a>(core::slice::Iter<'a, f32>, usize);
    impl Iterator for Boaster<'_> {
        type Item = f32;
        fn next(&mut self) -> Option<f32> {
            self.0.next().copied()
        }
        fn size_hint(&self) -> (usize, Option<usize>) {
            (self.1, Some(self.1))
        }
    }
    let x = normal_logits(2_000, 3);
    for (len, says) in [(10, 10_000), (2_000, 3_000), (2_000, 10_000)] {
        let row = &x[..len];
        for k in [8, 50, 100] {
            let (mut idx, mut val) = (vec![0; k], vec![0.0; k]);
            let mut top = SliceTopK::new(&mut idx, &mut val).unwrap();
            top.try_extend(Boaster(row.iter(), says)).unwrap();
            assert_eq!(top.stream_len(), len as u64);
            let (i, v) = top.into_sorted();
            let want = bits(&oracle(row, k.min(len)).unwrap());
            assert_eq!(
                bits(&zip_entries(i, v)),
                want,
                "k = {k}, {len} values, says {says}"
            );
        }
    }
}

/// An endless iterator whose `size_hint` says it holds 5 values, 5,000 (enough to be sampled
/// in its checking run) or `usize::MAX`, with 10,000 positions left: too long, and nothing kept,
/// however many times it is run (its bound is not trusted to end a run), for k within the
/// stack copy and beyond it.
#[test]
fn an_endless_iterator_that_says_it_ends_is_too_long() {
    #[derive(Clone)]
    struct Liar(f32, usize);
    impl Iterator for Liar {
        type Item = f32;
        fn next(&mut self) -> Option<f32> {
            self.0 += 1.0;
            Some(self.0)
        }
        fn size_hint(&self) -> (usize, Option<usize>) {
            (self.1, Some(self.1))
        }
    }
    let left = if cfg!(miri) { 1_500 } else { 10_000 };
    let base = (u64::from(u32::MAX) + 1 - left) as u32;
    for (k, says) in [
        (8_usize, 5),
        (100, 5),
        (8, 5_000),
        (50, 5_000),
        (100, 5_000),
        (8, usize::MAX),
        (50, usize::MAX),
    ] {
        let (mut idx, mut val) = (vec![IDX_SENTINEL; k], vec![VAL_SENTINEL; k]);
        let mut top = SliceTopK::with_offset(&mut idx, &mut val, base).unwrap();
        let got = top.try_extend(Liar(0.0, says));
        assert!(
            matches!(got, Err(Error::TooLong { .. })),
            "k = {k}, says {says}: {got:?}"
        );
        assert_eq!((top.len(), top.stream_len()), (0, u64::from(base)));
        assert!(idx.iter().all(|&i| i == IDX_SENTINEL));
    }
}

/// How many times `try_extend` calls the closure of a mapped row, over its length, into a
/// `TopK<f32, K>` that already holds `before`. The closure has a side effect (it counts), so
/// std calls it for each value an iterator with random access moves past too, as it must for
/// such a closure (a closure with none is not called then).
fn calls_of_try_extend<const K: usize>(before: &[f32], row: &[f32]) -> f64 {
    use core::cell::Cell;
    let pulled = Cell::new(0_usize);
    let mut top = TopK::<f32, K>::new();
    top.extend_from_slice(before).unwrap();
    let counted = row.iter().map(|&v| {
        pulled.set(pulled.get() + 1);
        v
    });
    top.try_extend(counted).unwrap();
    let mut all = before.to_vec();
    all.extend_from_slice(row);
    assert_eq!(bits(&top.sorted()), bits(&oracle(&all, K).unwrap()));
    pulled.get() as f64 / row.len() as f64
}

/// A small heap runs its iterator once, into a copy of the heap: a row of logits, whether the
/// heap is empty or full of lower values, calls the closure about three times a value (the
/// sample moves past each once, the block test reads each, the pass moves past each), and a
/// little more for the blocks it copies; a short row (no sample: the root alone) too. A
/// rising row defeats the floor (its values above it come in rising order): the run gives up
/// and runs again above a floor sampled at other places, which hands the rest to chunks, and
/// stays within eight calls a value. Without `fast`: two runs each (a check, then the feed).
#[test]
#[cfg_attr(miri, ignore = "rows of logits long enough for many chunks")]
fn a_small_heap_runs_its_iterator_once_unless_its_order_defeats_the_floor() {
    let fast = cfg!(feature = "fast");
    let low = vec![-10.0_f32; 100];
    let logits = normal_logits(151_936, 11);
    for (what, calls) in [
        ("logits", calls_of_try_extend::<50>(&low[..50], &logits)),
        (
            "logits, empty heap",
            calls_of_try_extend::<50>(&[], &logits),
        ),
        ("logits, k = 8", calls_of_try_extend::<8>(&low, &logits)),
    ] {
        if fast {
            assert!((3.0..3.3).contains(&calls), "{what}: {calls} calls a value");
        } else {
            assert_eq!(calls, 2.0, "{what}");
        }
    }
    let rising = |len: usize| -> Vec<f32> { (0..len).map(|i| i as f32).collect() };
    // Too short for a sample (fewer than 2k values): the root alone, in one run.
    let calls = calls_of_try_extend::<50>(&low, &rising(99));
    if fast {
        assert!((1.0..3.3).contains(&calls), "short: {calls} calls a value");
    } else {
        assert_eq!(calls, 2.0, "short");
    }
    for len in [4_096, 100_000] {
        let calls = calls_of_try_extend::<50>(&[], &rising(len));
        let most = if fast { 8.0 } else { 2.0 };
        assert!(
            (2.0..=most).contains(&calls),
            "rising {len}: {calls} calls a value"
        );
    }
}

/// A value type of the user's whose `rank_cmp` panics on a value with no place in the order,
/// as `partial_cmp().unwrap()` does: the contract calls it on rankable values only, so a NaN
/// anywhere in a long iterator (where it is checked and sampled in one run) is the error,
/// never the panic.
#[test]
fn try_extend_compares_no_value_before_it_is_checked() {
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Score(f64);
    impl tinytopk::TotalRank for Score {
        fn is_rankable(&self) -> bool {
            !self.0.is_nan()
        }
        fn rank_cmp(&self, other: &Self) -> core::cmp::Ordering {
            self.0.partial_cmp(&other.0).unwrap()
        }
    }
    let n = if cfg!(miri) { 2_000 } else { 20_000 };
    for at in [0, 1, 31, n / 2, n - 1] {
        let row = (0..n).map(|i| Score(if i == at { f64::NAN } else { i as f64 }));
        for k in [8, 50, 65, 100] {
            let (mut idx, mut val) = (vec![IDX_SENTINEL; k], vec![Score(-1.0); k]);
            let mut top = SliceTopK::new(&mut idx, &mut val).unwrap();
            let got = top.try_extend(row.clone());
            assert_eq!(got, Err(Error::NotRankable { index: at }), "k = {k}");
            assert_eq!(top.len(), 0);
            assert!(val.iter().all(|&v| v == Score(-1.0)));
        }
    }
}

/// An iterator that yields other values when run again breaks the promise, never the program.
#[test]
fn an_impure_iterator_gives_no_panic() {
    use core::cell::Cell;
    let calls = Cell::new(0_u32);
    let x = normal_logits(3000, 9);
    let shifty = x.iter().map(|&v| {
        calls.set(calls.get() + 1);
        if calls.get() > 3500 {
            f32::NAN
        } else {
            v
        }
    });
    let mut top = TopK::<f32, 100>::new();
    let _ = top.try_extend(shifty);
    assert!(top.len() <= 100);
}

proptest! {
    #![proptest_config(proptest_config())]

    /// `sorted`, `iter`, `into_iter` on `TopK` and `&TopK`, and `iter_sorted` on both forms,
    /// read the oracle's answer; `iter_sorted` leaves a selector that goes on to the oracle's
    /// answer for the whole row.
    #[test]
    fn every_reading_is_the_oracle(x in tie_heavy::<f32>(1..=6, 300), cut in 0_usize..300) {
        let cut = cut.min(x.len());
        let (head, tail) = x.split_at(cut);
        let want_head = bits(&oracle(head, 8.min(head.len())).unwrap());
        let want = bits(&oracle(&x, 8.min(x.len())).unwrap());

        let mut top = TopK::<f32, 8>::new();
        top.extend_from_slice(head).unwrap();
        prop_assert_eq!(bits(&top.sorted()), want_head.clone());
        prop_assert_eq!(bits(&top.iter().collect::<Vec<_>>()), want_head.clone());
        prop_assert_eq!(bits(&(&top).into_iter().collect::<Vec<_>>()), want_head.clone());
        prop_assert_eq!(top.iter().len(), want_head.len());
        let reversed: Vec<Entry<f32>> = top.iter().rev().collect();
        prop_assert_eq!(bits(&reversed).into_iter().rev().collect::<Vec<_>>(), want_head.clone());
        prop_assert_eq!(bits(&top.iter_sorted().collect::<Vec<_>>()), want_head.clone());
        top.extend_from_slice(tail).unwrap();
        prop_assert_eq!(bits(&top.clone().into_iter().collect::<Vec<_>>()), want.clone());
        prop_assert_eq!(bits(&top.into_sorted()), want.clone());

        let (mut idx, mut val) = ([0_u32; 8], [0.0_f32; 8]);
        let mut top = SliceTopK::new(&mut idx, &mut val).unwrap();
        for &v in head {
            top.push(v).unwrap();
        }
        prop_assert_eq!(bits(&top.iter_sorted().collect::<Vec<_>>()), want_head.clone());
        // Twice in a row: the second finds them sorted, and gives the same.
        prop_assert_eq!(bits(&top.iter_sorted().collect::<Vec<_>>()), want_head);
        for &v in tail {
            top.push(v).unwrap();
        }
        let got: Vec<Entry<f32>> = top.into_iter().collect();
        prop_assert_eq!(bits(&got), want.clone());
        // The buffers hold them too, best first.
        prop_assert_eq!(bits(&zip_entries(&idx[..got.len()], &val[..got.len()])), want);
    }
}

#[test]
fn an_entry_is_made_and_taken_apart() {
    let e = Entry::new(2.5_f32, 7);
    assert_eq!(
        e,
        Entry {
            value: 2.5,
            index: 7
        }
    );
    let (index, value): (u32, f32) = e.into();
    assert_eq!((index, value), (7, 2.5));
    let mut top = TopK::<f32, 2>::new();
    top.extend_from_slice(&[1.0, 3.0, 2.0]).unwrap();
    let pairs: Vec<(u32, f32)> = top.into_iter().map(Into::into).collect();
    assert_eq!(pairs, [(1, 3.0), (2, 2.0)]);
}

/// A value type with no order still has sizes and a stream position.
#[test]
fn sizes_need_no_order() {
    #[derive(Clone, Copy, Debug, Default)]
    struct Unordered;
    let top = TopK::<Unordered, 3>::new();
    assert_eq!(
        (top.len(), top.capacity(), top.is_empty(), top.stream_len()),
        (0, 3, true, 0)
    );
    let (mut idx, mut val) = ([0_u32; 2], [Unordered; 2]);
    let top = SliceTopK::new(&mut idx, &mut val).unwrap();
    assert_eq!((top.len(), top.capacity(), top.is_empty()), (0, 2, true));
}

/// `Debug` shows what a user reads (the position, the sizes, the threshold), not the heap's
/// inner fields; the sorted entries print as a list.
#[test]
fn debug_shows_the_public_state() {
    let mut top = TopK::<f32, 2>::new();
    top.extend_from_slice(&[1.0, 3.0, 2.0]).unwrap();
    let text = format!("{top:?}");
    assert!(
        text.contains("stream_len: 3") && text.contains("capacity: 2"),
        "{text}"
    );
    assert!(!text.contains("gate"), "{text}");
    let sorted = format!("{:?}", top.sorted());
    assert!(sorted.starts_with("[Entry"), "{sorted}");
}

/// Two sorted results are equal, and hash alike, when they hold the same entries, whatever
/// the streams that made them (a different offset or stream length).
#[test]
fn sorted_results_compare_and_hash_by_their_entries() {
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};
    let hash = |x: &dyn Fn(&mut DefaultHasher)| {
        let mut h = DefaultHasher::new();
        x(&mut h);
        h.finish()
    };
    let mut a = TopK::<i32, 2>::new();
    a.extend_from_slice(&[5, 9, 1]).unwrap();
    let mut b = TopK::<i32, 2>::new();
    b.extend_from_slice(&[5, 9, 1, -3, 0]).unwrap();
    let mut c = TopK::<i32, 2>::new();
    c.extend_from_slice(&[9, 5]).unwrap();
    let (a, b, c) = (a.into_sorted(), b.into_sorted(), c.into_sorted());
    assert_eq!(a, b);
    assert_eq!(hash(&|h| a.hash(h)), hash(&|h| b.hash(h)));
    assert_eq!(hash(&|h| a.hash(h)), hash(&|h| a.as_slice().hash(h)));
    assert_ne!(a, c); // the same values at other indices
    assert_eq!(a.clone(), a);
    assert_eq!(a, [Entry::new(9, 1), Entry::new(5, 0)]);
}

/// Iterators that say their length but have no random access in std's sense (`rev`, `chain`,
/// `take`, `step_by`, and one of the user's own) go through the same blocks and sample,
/// stepped through value by value: the answer is the oracle's, with a heap small enough for
/// the copy and one too large for it, on rows long enough for many blocks, with ties.
#[test]
#[cfg_attr(miri, ignore = "rows long enough for the sample and many blocks")]
fn try_extend_of_iterators_without_random_access_keeps_the_oracle() {
    /// A slice's values behind an iterator of the user's, with its exact length.
    #[derive(Clone)]
    struct Own<'a>(core::slice::Iter<'a, f32>);
    impl Iterator for Own<'_> {
        type Item = f32;
        fn next(&mut self) -> Option<f32> {
            self.0.next().copied()
        }
        fn size_hint(&self) -> (usize, Option<usize>) {
            self.0.size_hint()
        }
    }
    let n = 12_007;
    let logits = normal_logits(n, 5);
    let ties: Vec<f32> = logits.iter().map(|v| (v * 4.0).round()).collect();
    for x in [&logits, &ties] {
        let (head, tail) = x.split_at(n / 3);
        let reversed: Vec<f32> = x.iter().rev().copied().collect();
        let stepped: Vec<f32> = x.iter().step_by(3).copied().collect();
        for k in [8_usize, 50, 200] {
            let check = |what: &str, want: &[f32], iter: &mut dyn FnMut(&mut SliceTopK<f32>)| {
                let (mut idx, mut val) = (vec![0; k], vec![0.0; k]);
                let mut top = SliceTopK::new(&mut idx, &mut val).unwrap();
                iter(&mut top);
                assert_eq!(top.stream_len(), want.len() as u64, "{what}, k = {k}");
                let got: Vec<Entry<f32>> = top.iter_sorted().collect();
                assert_eq!(
                    bits(&got),
                    bits(&oracle(want, k).unwrap()),
                    "{what}, k = {k}"
                );
            };
            check("rev", &reversed, &mut |top| {
                top.try_extend(x.iter().rev().copied()).unwrap()
            });
            check("chain", x, &mut |top| {
                top.try_extend(head.iter().chain(tail).copied()).unwrap()
            });
            check("take", &x[..n - 5], &mut |top| {
                top.try_extend(x.iter().copied().take(n - 5)).unwrap()
            });
            check("step_by", &stepped, &mut |top| {
                top.try_extend(x.iter().step_by(3).copied()).unwrap()
            });
            check("own", x, &mut |top| top.try_extend(Own(x.iter())).unwrap());
        }
    }
}

/// A long iterator that ends exactly at the stream's end (`u32::MAX + 1` positions), read by
/// blocks: accepted, its last value kept at position `u32::MAX`; one value more is too long.
#[test]
fn try_extend_by_blocks_to_the_stream_end() {
    let len = 2_000_u32;
    let base = (u64::from(u32::MAX) + 1 - u64::from(len)) as u32;
    let mut x = normal_logits(len as usize, 9);
    *x.last_mut().unwrap() = 100.0;
    for k in [8_usize, 100] {
        let (mut idx, mut val) = (vec![IDX_SENTINEL; k], vec![VAL_SENTINEL; k]);
        let mut top = SliceTopK::with_offset(&mut idx, &mut val, base).unwrap();
        let longer = x.iter().copied().chain([1.0]);
        assert!(matches!(top.try_extend(longer), Err(Error::TooLong { .. })));
        assert_eq!((top.len(), top.stream_len()), (0, u64::from(base)));
        top.try_extend(x.iter().map(|&v| v * 0.5)).unwrap();
        assert_eq!(top.stream_len(), u64::from(u32::MAX) + 1, "k = {k}");
        assert_eq!(top.iter_sorted().next().map(|e| e.index), Some(u32::MAX));
    }
}

/// An iterator that returns `None` and then yields again (not fused), while its `size_hint`
/// still says it holds many: the first `None` ends it, as for a slice's values.
#[test]
fn try_extend_stops_at_the_first_none() {
    #[derive(Clone)]
    struct Restarts<'a>(&'a [f32], usize);
    impl Iterator for Restarts<'_> {
        type Item = f32;
        fn next(&mut self) -> Option<f32> {
            self.1 += 1;
            // Position 1,000 is a gap: `None`, then the values again.
            (self.1 != 1_001)
                .then(|| self.0.get(self.1 - 1).copied())
                .flatten()
        }
        fn size_hint(&self) -> (usize, Option<usize>) {
            let left = self.0.len().saturating_sub(self.1);
            (left, Some(left))
        }
    }
    let x = normal_logits(3_000, 13);
    for k in [8_usize, 100] {
        let (mut idx, mut val) = (vec![0; k], vec![0.0; k]);
        let mut top = SliceTopK::new(&mut idx, &mut val).unwrap();
        top.try_extend(Restarts(&x, 0)).unwrap();
        assert_eq!(top.stream_len(), 1_000, "k = {k}");
        let got: Vec<Entry<f32>> = top.iter_sorted().collect();
        assert_eq!(
            bits(&got),
            bits(&oracle(&x[..1_000], k).unwrap()),
            "k = {k}"
        );
    }
}
