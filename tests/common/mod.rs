//! Shared by the integration tests (and by the C ABI's tests, capi/tests/ffi.rs): the one
//! oracle, the one list of edge values and NaNs per value type, tie-heavy rows built from them,
//! and every API of the crate run on the same input.
#![allow(dead_code)]

#[path = "../../examples/data/mod.rs"]
pub mod data;
#[allow(unused_imports)]
pub use data::Rng;

use core::cmp::{Ordering, Reverse};
use core::ops::RangeInclusive;

use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::Config as ProptestConfig;
use tinytopk::{top_k_into, Entry, Error, SliceTopK, TopK, TotalRank};

// --- the oracle ------------------------------------------------------------------------------

/// The type's own comparison (`PartialOrd`: IEEE for floats, so -0.0 and 0.0 tie; `Ord` for
/// integers; the reverse for `Reverse<T>`), for values that are not NaN. Written without the
/// crate's `TotalRank` order, so that the tests check that order against it.
pub fn ieee_order<T: PartialOrd>(a: &T, b: &T) -> Ordering {
    a.partial_cmp(b).expect("neither value is NaN")
}

/// The contract, written without the crate: reject the first unrankable value (one that does
/// not compare with itself: a NaN, also inside `Reverse`), then reject k > n, else sort every
/// (value, index) by value descending by the type's own comparison, equal values by ascending
/// index, and keep the first k.
pub fn oracle<T: Copy + PartialOrd>(x: &[T], k: usize) -> Result<Vec<Entry<T>>, Error> {
    if let Some(index) = x.iter().position(|v| v.partial_cmp(v).is_none()) {
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
    all.sort_by(|a, b| ieee_order(&b.value, &a.value).then(a.index.cmp(&b.index)));
    all.truncate(k);
    Ok(all)
}

// --- the value types, their edge values and NaNs ---------------------------------------------

/// A value type the tests run on: its bits (which tell -0.0 from 0.0 and NaN payloads apart),
/// its edge values, its NaNs, and any rankable value of it.
pub trait Value: TotalRank + Default + PartialOrd + core::fmt::Debug + 'static {
    fn bits(self) -> u64;
    /// The edge values of the type, all rankable, in the order of [`edges!`] for the floats:
    /// both zeros, ±1, ±2.5, both infinities, the extremes, the smallest normal, the smallest
    /// subnormal and its negative, a subnormal in the middle of the range.
    fn edges() -> Vec<Self>;
    /// NaNs of several bit patterns, as [`nan_bits!`] lists them (none for integers).
    fn nans() -> Vec<Self>;
    /// Any rankable value of the type.
    fn any_rankable() -> BoxedStrategy<Self>;
}

/// The edge values of a float type, in one order for every type (see [`Value::edges`]).
macro_rules! edges {
    ($zero:expr, $one:expr, $two_and_a_half:expr, $inf:expr, $max:expr, $min_positive:expr,
     $tiny:expr, $subnormal:expr) => {
        [
            $zero,
            -$zero,
            $one,
            -$one,
            $two_and_a_half,
            -$two_and_a_half,
            $inf,
            -$inf,
            $max,
            -$max,
            $min_positive,
            $tiny,
            -$tiny,
            $subnormal,
        ]
    };
}

/// The bits of NaNs of one float type, from its sign bit, exponent field, quiet bit and a
/// payload: quiet, signalling, negative quiet, all ones, and signalling with a payload.
macro_rules! nan_bits {
    ($sign:expr, $exponent:expr, $quiet:expr, $payload:expr) => {
        [
            $exponent | $quiet,
            $exponent | 1,
            $sign | $exponent | $quiet,
            !0,
            $exponent | $payload,
        ]
    };
}

/// The edge values of `f32` (see [`Value::edges`]). The tie-heavy rows draw from it.
pub const F32_POOL: [f32; 14] = edges!(
    0.0_f32,
    1.0,
    2.5,
    f32::INFINITY,
    f32::MAX,
    f32::MIN_POSITIVE,
    1e-45, // the smallest subnormal
    1.0e-40
);

/// NaNs of `f32` by bits: quiet, signalling, negative, all ones, with a payload.
pub const NAN_BITS: [u32; 5] = nan_bits!(0x8000_0000_u32, 0x7F80_0000, 0x0040_0000, 0x002B_CDEF);

/// The edge values of `f64` (see [`Value::edges`]).
pub const F64_EDGES: [f64; 14] = edges!(
    0.0_f64,
    1.0,
    2.5,
    f64::INFINITY,
    f64::MAX,
    f64::MIN_POSITIVE,
    5e-324, // the smallest subnormal
    1.0e-310
);

/// NaNs of `f64` by bits, as [`NAN_BITS`] for `f32`.
pub const F64_NAN_BITS: [u64; 5] = nan_bits!(
    0x8000_0000_0000_0000_u64,
    0x7FF0_0000_0000_0000,
    0x0008_0000_0000_0000,
    0x0002_BCDE_F012_3456
);

/// A float type's `Value` impl from its edge values and NaN bits.
macro_rules! float_value {
    ($t:ty, $edges:expr, $nan_bits:expr) => {
        impl Value for $t {
            #[allow(clippy::useless_conversion)] // u64 to u64 for f64
            fn bits(self) -> u64 {
                self.to_bits().into()
            }
            fn edges() -> Vec<Self> {
                $edges.to_vec()
            }
            fn nans() -> Vec<Self> {
                $nan_bits.into_iter().map(<$t>::from_bits).collect()
            }
            fn any_rankable() -> BoxedStrategy<Self> {
                any::<$t>().prop_filter("rankable", |v| !v.is_nan()).boxed()
            }
        }
    };
}

float_value!(f32, F32_POOL, NAN_BITS);
float_value!(f64, F64_EDGES, F64_NAN_BITS);

impl Value for i32 {
    fn bits(self) -> u64 {
        self as u32 as u64
    }
    fn edges() -> Vec<Self> {
        vec![0, -1, 1, i32::MIN, i32::MAX]
    }
    fn nans() -> Vec<Self> {
        vec![]
    }
    fn any_rankable() -> BoxedStrategy<Self> {
        any::<i32>().boxed()
    }
}

/// Smallest-k: the values, edges and NaNs of `T`, reversed.
impl<T: Value> Value for Reverse<T> {
    fn bits(self) -> u64 {
        self.0.bits()
    }
    fn edges() -> Vec<Self> {
        T::edges().into_iter().map(Reverse).collect()
    }
    fn nans() -> Vec<Self> {
        T::nans().into_iter().map(Reverse).collect()
    }
    fn any_rankable() -> BoxedStrategy<Self> {
        T::any_rankable().prop_map(Reverse).boxed()
    }
}

/// `half::f16` and `half::bf16` (feature `half`). The C ABI's tests include this file too and
/// have no such feature, hence the allowance.
#[allow(unexpected_cfgs)]
mod half_values {
    #[cfg(feature = "half")]
    use {super::*, half::bf16, half::f16};

    #[cfg(feature = "half")]
    impl Value for f16 {
        fn bits(self) -> u64 {
            self.to_bits().into()
        }
        fn edges() -> Vec<Self> {
            edges!(
                f16::ZERO,
                f16::ONE,
                f16::from_bits(0x4100),
                f16::INFINITY,
                f16::MAX,
                f16::MIN_POSITIVE,
                f16::MIN_POSITIVE_SUBNORMAL,
                f16::from_bits(0x0123)
            )
            .to_vec()
        }
        fn nans() -> Vec<Self> {
            nan_bits!(0x8000_u16, 0x7C00, 0x0200, 0x0123)
                .into_iter()
                .map(f16::from_bits)
                .collect()
        }
        fn any_rankable() -> BoxedStrategy<Self> {
            any::<u16>()
                .prop_map(f16::from_bits)
                .prop_filter("rankable", |v| !v.is_nan())
                .boxed()
        }
    }

    #[cfg(feature = "half")]
    impl Value for bf16 {
        fn bits(self) -> u64 {
            self.to_bits().into()
        }
        fn edges() -> Vec<Self> {
            edges!(
                bf16::ZERO,
                bf16::ONE,
                bf16::from_bits(0x4020),
                bf16::INFINITY,
                bf16::MAX,
                bf16::MIN_POSITIVE,
                bf16::MIN_POSITIVE_SUBNORMAL,
                bf16::from_bits(0x0012)
            )
            .to_vec()
        }
        fn nans() -> Vec<Self> {
            nan_bits!(0x8000_u16, 0x7F80, 0x0040, 0x002B)
                .into_iter()
                .map(bf16::from_bits)
                .collect()
        }
        fn any_rankable() -> BoxedStrategy<Self> {
            any::<u16>()
                .prop_map(bf16::from_bits)
                .prop_filter("rankable", |v| !v.is_nan())
                .boxed()
        }
    }
}

// --- tie-heavy rows --------------------------------------------------------------------------

/// An edge value or any rankable value of `T`.
pub fn values<T: Value>() -> impl Strategy<Value = T> + Clone {
    prop_oneof![select(T::edges()), T::any_rankable()]
}

/// A row of up to `max_len` values drawn from a pool of `pool` (a range of sizes) values of
/// [`values`]: ties everywhere.
pub fn tie_heavy<T: Value>(
    pool: RangeInclusive<usize>,
    max_len: usize,
) -> impl Strategy<Value = Vec<T>> {
    prop::collection::vec(values::<T>(), pool)
        .prop_flat_map(move |pool| prop::collection::vec(select(pool), 0..=max_len))
}

/// A row with a k in `0..=n + 1` (n + 1 must be rejected).
pub fn row_and_k<T: Clone + core::fmt::Debug + 'static>(
    row: impl Strategy<Value = Vec<T>>,
) -> impl Strategy<Value = (Vec<T>, usize)> {
    row.prop_flat_map(|x| {
        let n = x.len();
        (Just(x), 0..=n + 1)
    })
}

/// A seeded row of `n` edge values of `T`.
pub fn edge_row<T: Value>(rng: &mut Rng, n: usize) -> Vec<T> {
    let edges = T::edges();
    (0..n).map(|_| edges[rng.below(edges.len())]).collect()
}

/// A seeded row of `n` values from a pool of `pool` edge values of `T` (drawn first): ties
/// everywhere.
pub fn seeded_tie_heavy<T: Value>(rng: &mut Rng, pool: usize, n: usize) -> Vec<T> {
    let pool = edge_row::<T>(rng, pool);
    (0..n).map(|_| pool[rng.below(pool.len())]).collect()
}

// --- every API on the same input ---------------------------------------------------------------

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
    /// One `extend_from_slice` per chunk of this many values.
    Chunks(usize),
    /// One `try_extend` of the row's iterator.
    Iter,
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
        Feed::Chunks(len) => x.chunks(len).try_for_each(|c| top.extend_from_slice(c))?,
        Feed::Iter => top.try_extend(x.iter().copied())?,
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
        Feed::Chunks(len) => x.chunks(len).try_for_each(|c| top.extend_from_slice(c))?,
        Feed::Iter => top.try_extend(x.iter().copied())?,
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

/// Every API on the same row and k: `top_k_into`, then the streaming selectors (by push, by
/// one extend and by one `try_extend`). The streaming selectors have no notion of k > n (they keep what they get), so
/// they are run only when `k <= x.len()`.
pub fn every_api<T: TotalRank + Default>(x: &[T], k: usize) -> Vec<(&'static str, Outcome<T>)> {
    let mut runs = vec![("top_k_into", via_top_k_into(x, k))];
    if k <= x.len() {
        runs.push(("SliceTopK push", via_slice_topk(x, k, Feed::Push)));
        runs.push(("SliceTopK extend", via_slice_topk(x, k, Feed::Extend)));
        runs.push(("SliceTopK try_extend", via_slice_topk(x, k, Feed::Iter)));
        if let Some(r) = via_topk_dyn(x, k, Feed::Iter) {
            runs.push(("TopK try_extend", r));
        }
        if let Some(r) = via_topk_dyn(x, k, Feed::Push) {
            runs.push(("TopK push", r));
        }
        if let Some(r) = via_topk_dyn(x, k, Feed::Extend) {
            runs.push(("TopK extend", r));
        }
    }
    runs
}

/// Asserts that every API gives exactly `expected` (entries by index and value bits, so that
/// -0.0 and 0.0 are told apart; errors by variant and numbers), and that every kept value is
/// bit for bit the input's value at its index (so that a -0.0 is not turned into a 0.0).
pub fn assert_every_api<T: Value>(x: &[T], k: usize, expected: &Result<Vec<Entry<T>>, Error>) {
    let expected_bits = expected.as_ref().map(|e| bits(e));
    for (name, got) in every_api(x, k) {
        assert_eq!(&got, expected, "{name} on x = {x:?}, k = {k}");
        assert_eq!(
            got.as_ref().map(|e| bits(e)),
            expected_bits,
            "{name} on x = {x:?}, k = {k}: the bits"
        );
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

/// Every API gives the oracle's answer, bit for bit.
pub fn assert_every_api_is_the_oracle<T: Value>(x: &[T], k: usize) {
    assert_every_api(x, k, &oracle(x, k));
}

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
