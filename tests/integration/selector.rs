//! The streaming selectors `TopK` and `SliceTopK` as a stream goes by: what they report as
//! they fill (`len`, `is_empty`, `peek_worst`), and a cleared selector, which starts a new
//! stream.

use crate::common;

use common::{edge_row, oracle, zip_entries, Rng};
use tinytopk::{Entry, SliceTopK, TopK};

/// After each value: `len` is min(k, taken), `is_empty` says whether it is 0, and
/// `peek_worst` is the last of the best so far.
#[test]
fn len_and_peek_worst_follow_the_stream() {
    let mut rng = Rng(0x7065_656b);
    let x: Vec<f32> = edge_row(&mut rng, 30);
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
    assert_eq!(zip_entries(i, v), want);

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
    assert_eq!(zip_entries(i, v), want);
    assert_eq!(array.into_sorted().to_vec(), want);
}
