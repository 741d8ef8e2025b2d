//! What the crate's unit tests share: the oracle (every entry sorted by the contract's order,
//! truncated), edge values, and the default of [`TotalRank::may_enter_above`] written out.

use core::cmp::Ordering;
use std::vec::Vec;

use crate::{Entry, Error, TotalRank};

/// The rows of the benches and the integration tests: normal logits and the shapes built
/// against a pre-filter.
#[path = "../examples/data/mod.rs"]
pub(crate) mod data;

/// Edge values of `f32`: both zeros and infinities, the extremes, subnormals, NaNs of several
/// bit patterns.
pub(crate) const F32_EDGES: [f32; 15] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MAX,
    f32::MIN,
    f32::MIN_POSITIVE,
    1e-45,
    -1e-45,
    f32::NAN,
    -f32::NAN,
    f32::from_bits(0x7F80_0001),
    f32::from_bits(0xFFFF_FFFF),
];

/// The k best entries of `x`, best first, by the contract alone: the first unrankable value is
/// the error, then every entry is sorted by value (descending) with a stable sort, so that
/// equal values stay by ascending index, and the first k are kept.
pub(crate) fn oracle<T: TotalRank>(x: &[T], k: usize) -> Result<Vec<Entry<T>>, Error> {
    if let Some(index) = x.iter().position(|v| !v.is_rankable()) {
        return Err(Error::NotRankable { index });
    }
    let mut all: Vec<Entry<T>> = (0..)
        .zip(x)
        .map(|(index, &value)| Entry { value, index })
        .collect();
    all.sort_by(|a, b| b.value.rank_cmp(&a.value));
    all.truncate(k);
    Ok(all)
}

/// The default `may_enter_above`, written out: what every override must equal.
pub(crate) fn by_default<T: TotalRank>(v: &T, threshold: &T) -> bool {
    !v.is_rankable() || v.rank_cmp(threshold) == Ordering::Greater
}

/// The k best of a row of `f32` by [`oracle`], as (index, value bits): comparable bit for bit
/// with [`bits`] of what a selector kept.
#[cfg(feature = "fast")]
pub(crate) fn oracle_bits(x: &[f32], k: usize) -> Vec<(u32, u32)> {
    let kept = oracle(x, k).unwrap_or_default();
    kept.iter().map(|e| (e.index, e.value.to_bits())).collect()
}

/// Sorted output of a selector (its indices and values) as (index, value bits).
#[cfg(feature = "fast")]
pub(crate) fn bits(idx: &[u32], val: &[f32]) -> Vec<(u32, u32)> {
    idx.iter()
        .zip(val)
        .map(|(&i, v)| (i, v.to_bits()))
        .collect()
}

/// A xorshift generator of `u32` from `seed` (not zero): the unit tests' random rows.
pub(crate) fn xorshift(mut seed: u32) -> impl FnMut() -> u32 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    }
}
