//! Shared by the integration tests: the oracle, tie-heavy data, and every API of the crate run
//! on the same input.
#![allow(dead_code)]

#[path = "../../examples/data/mod.rs"]
mod data;
#[allow(unused_imports)]
pub use data::Rng;

use proptest::test_runner::Config as ProptestConfig;
use tinytopk::{top_k_into, Entry, Error, SliceTopK, TopK, TotalRank};

/// The plain definition, written without the crate's order: reject the first unrankable
/// value, reject k > n, then sort every (value, index) by value descending with a *stable*
/// sort (equal values stay in ascending index) and keep the first k.
pub fn oracle<T: TotalRank>(x: &[T], k: usize) -> Result<Vec<Entry<T>>, Error> {
    if let Some(index) = x.iter().position(|v| !v.is_rankable()) {
        return Err(Error::NotRankable { index });
    }
    if k > x.len() {
        return Err(Error::KTooLarge { k, n: x.len() });
    }
    let mut all: Vec<Entry<T>> = x
        .iter()
        .enumerate()
        .map(|(i, &value)| Entry {
            value,
            index: i as u32,
        })
        .collect();
    all.sort_by(|a, b| b.value.rank_cmp(&a.value));
    all.truncate(k);
    Ok(all)
}

/// The kept entries as (index, value bits), so that -0.0 and 0.0 are told apart.
pub fn bits<T: Value>(entries: &[Entry<T>]) -> Vec<(u32, u64)> {
    entries.iter().map(|e| (e.index, e.value.bits())).collect()
}

/// `top_k_into` with freshly allocated outputs, as entries.
pub fn via_top_k_into<T: TotalRank + Default>(x: &[T], k: usize) -> Result<Vec<Entry<T>>, Error> {
    let mut idx = vec![0_u32; k];
    let mut val = vec![T::default(); k];
    top_k_into(x, &mut idx, &mut val)?;
    Ok(zip_entries(&idx, &val))
}

pub fn zip_entries<T: Copy>(idx: &[u32], val: &[T]) -> Vec<Entry<T>> {
    idx.iter()
        .zip(val)
        .map(|(&index, &value)| Entry { value, index })
        .collect()
}

/// How a streaming selector is fed.
#[derive(Clone, Copy, Debug)]
pub enum Feed {
    /// One `push` per value.
    Push,
    /// One `extend_from_slice` of the whole row.
    Extend,
}

/// `SliceTopK` with `k` places, fed the whole row.
pub fn via_slice_topk<T: TotalRank + Default>(
    x: &[T],
    k: usize,
    feed: Feed,
) -> Result<Vec<Entry<T>>, Error> {
    let mut idx = vec![0_u32; k];
    let mut val = vec![T::default(); k];
    let mut top = SliceTopK::new(&mut idx, &mut val)?;
    match feed {
        Feed::Push => x.iter().try_for_each(|&v| top.push(v))?,
        Feed::Extend => top.extend_from_slice(x)?,
    }
    let (i, v) = top.into_sorted();
    Ok(zip_entries(i, v))
}

/// `TopK<T, K>` fed the whole row.
pub fn via_topk<T: TotalRank, const K: usize>(x: &[T], feed: Feed) -> Result<Vec<Entry<T>>, Error> {
    let mut top = TopK::<T, K>::new();
    match feed {
        Feed::Push => x.iter().try_for_each(|&v| top.push(v))?,
        Feed::Extend => top.extend_from_slice(x)?,
    }
    Ok(top.into_sorted().to_vec())
}

/// The largest k for which [`via_topk_dyn`] has a `TopK<T, K>` instantiation.
pub const MAX_CONST_K: usize = 48;

/// `TopK<T, k>` for a runtime `k <= MAX_CONST_K`, by dispatch to a compile-time `K`.
pub fn via_topk_dyn<T: TotalRank>(
    x: &[T],
    k: usize,
    feed: Feed,
) -> Option<Result<Vec<Entry<T>>, Error>> {
    macro_rules! dispatch {
        ($($n:literal)*) => {
            match k {
                $($n => Some(via_topk::<T, $n>(x, feed)),)*
                _ => None,
            }
        };
    }
    dispatch!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30
              31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48)
}

/// What one API gave.
pub type Outcome<T> = Result<Vec<Entry<T>>, Error>;

/// Every API on the same row and k: `top_k_into`, then the streaming selectors (by push and by
/// one extend). The streaming selectors have no notion of k > n (they keep what they get), so
/// they are run only when `k <= x.len()`.
pub fn every_api<T: TotalRank + Default>(x: &[T], k: usize) -> Vec<(&'static str, Outcome<T>)> {
    let mut runs = vec![("top_k_into", via_top_k_into(x, k))];
    if k <= x.len() {
        runs.push(("SliceTopK push", via_slice_topk(x, k, Feed::Push)));
        runs.push(("SliceTopK extend", via_slice_topk(x, k, Feed::Extend)));
        if let Some(r) = via_topk_dyn(x, k, Feed::Push) {
            runs.push(("TopK push", r));
        }
        if let Some(r) = via_topk_dyn(x, k, Feed::Extend) {
            runs.push(("TopK extend", r));
        }
    }
    runs
}

/// A value type the tests run on: its bits tell -0.0 from 0.0 and NaN payloads apart.
pub trait Value: TotalRank + Default + PartialEq + core::fmt::Debug {
    fn bits(self) -> u64;
}

impl Value for f32 {
    fn bits(self) -> u64 {
        self.to_bits().into()
    }
}

impl Value for f64 {
    fn bits(self) -> u64 {
        self.to_bits()
    }
}

impl Value for i32 {
    fn bits(self) -> u64 {
        self as u32 as u64
    }
}

/// Asserts that every API gives exactly `expected` (entries by index and value, errors by
/// variant and numbers), and that every kept value is bit for bit the input's value at its
/// index (so that a -0.0 is not turned into a 0.0).
pub fn assert_every_api<T: Value>(x: &[T], k: usize, expected: &Result<Vec<Entry<T>>, Error>) {
    for (name, got) in every_api(x, k) {
        assert_eq!(&got, expected, "{name} on x = {x:?}, k = {k}");
        for e in got.iter().flatten() {
            let input = x[e.index as usize];
            assert_eq!(
                e.value.bits(),
                input.bits(),
                "{name}: kept {:?} for x[{}] = {input:?}",
                e.value,
                e.index
            );
        }
    }
}

/// Values that make ties and edge cases likely: both zeros, both infinities, the extremes,
/// subnormals, and a few ordinary values.
pub const F32_POOL: [f32; 14] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    2.5,
    -2.5,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MAX,
    f32::MIN,
    f32::MIN_POSITIVE,
    1e-45,  // the smallest subnormal
    -1e-45, // and its negative
    1.0e-40,
];

/// NaNs of several bit patterns: quiet, signalling, negative, with payloads.
pub const NAN_BITS: [u32; 5] = [
    0x7FC0_0000,
    0x7F80_0001,
    0xFFC0_0000,
    0xFFFF_FFFF,
    0x7FAB_CDEF,
];

/// Cases per property: `PROPTEST_CASES` (256 by default), and a handful under Miri.
pub fn proptest_config() -> ProptestConfig {
    if cfg!(miri) {
        ProptestConfig {
            cases: 6,
            failure_persistence: None,
            ..ProptestConfig::default()
        }
    } else {
        ProptestConfig::default()
    }
}
