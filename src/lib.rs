//! The k best values of a stream and their positions, best first, without allocating and
//! without sorting the stream: a size-k min-heap in a fixed array or in caller buffers, one
//! comparison per value once it is full. Built for LLM samplers that pick the top 40 of a
//! vocabulary-sized row of logits on microcontrollers, in wasm and in native engines, with the
//! same answer on every platform.
//!
//! ```
//! use tinytopk::{top_k_into, TopK};
//!
//! let logits = [0.5_f32, 2.0, f32::NEG_INFINITY, 2.0, -1.0, 0.7];
//!
//! // A runtime k, into caller buffers.
//! let (mut ids, mut values) = ([0_u32; 3], [0.0_f32; 3]);
//! top_k_into(&logits, &mut ids, &mut values)?;
//! assert_eq!(ids, [1, 3, 5]);
//! assert_eq!(values, [2.0, 2.0, 0.7]);
//!
//! // A compile-time k, streaming.
//! let mut top = TopK::<f32, 3>::new();
//! for &logit in &logits {
//!     top.push(logit)?;
//! }
//! assert!(top.into_sorted().iter().map(|e| e.index).eq(ids));
//!
//! // NaN is an error naming its position, and nothing is written.
//! let bad = [1.0, f32::NAN, 3.0];
//! assert_eq!(
//!     top_k_into(&bad, &mut ids[..1], &mut values[..1]),
//!     Err(tinytopk::Error::NotRankable { index: 1 })
//! );
//! assert_eq!(ids, [1, 3, 5]);
//! # Ok::<(), tinytopk::Error>(())
//! ```
//!
//! # The contract
//!
//! Every API keeps it.
//! - Entries are (value, index). `a` ranks below `b` iff `a.value < b.value`, or the values are
//!   equal and `a.index > b.index`, by the value type's own comparison ([`TotalRank`]; IEEE
//!   `<` and `==` for floats, so `-0.0 == 0.0`). The order is total: a tie at the k-th place
//!   goes to the lower index, and equal values come out by ascending index
//!   ([`Entry::rank_cmp`]).
//! - Output is best first. `-inf` is an ordinary value and ranks last (masked logits).
//! - A value with no place in the order (NaN, any bit pattern) is an error naming its position
//!   ([`Error::NotRankable`]).
//! - On any error nothing is written: caller buffers and selector state are as they were.
//! - Indices are `u32`: a stream longer than `u32::MAX + 1` values is an error, never a wrap.
//! - No allocation, no `std`, no panic. The only `unsafe` code, the AVX2 copy of the scan, its
//!   block test (run only once the CPU is known to have AVX2) and the CPUID detection, is fenced
//!   in one internal file, beside two casts of a slice of `T` to one of `Reverse<T>` (a
//!   `repr(transparent)` wrapper) and back in another.
//!
//! # The APIs
//!
//! - [`top_k_into`]: the k best of a slice into caller buffers (`k = idx.len()`);
//!   [`bottom_k_into`], the k smallest.
//! - [`TopK<T, K>`](TopK): a streaming selector whose heap is a fixed array of `K` entries.
//! - [`SliceTopK`]: the same streaming selector over caller buffers, for a runtime `k`.
//!   Both are forms of one [`Selector`], so they have the same methods.
//! - [`top_k_rows`]: the top k of every row of a `rows × n` batch, into `rows × k` buffers.
//!
//! A selector is fed by [`push`](Selector::push) (one value), by
//! [`extend_from_slice`](Selector::extend_from_slice) (a row or a chunk, the fast way) or by
//! [`try_extend`](Selector::try_extend) (an iterator, all or nothing: a row transformed on the
//! fly). It is read best first by [`TopK::into_sorted`] (a [`Sorted`](sorted::Sorted) that
//! derefs to `[Entry<T>]`), without consuming it by [`TopK::iter`] (a sorted copy) or
//! [`Selector::iter_sorted`] (sorted in place, for both forms).
//!
//! They share one size-k min-heap; its cost is n root comparisons plus about k·ln(n/k)
//! insertions of O(log k) on a row in random order, O(n log k) in the worst case. With the
//! `fast` feature, whole slices go through a pre-filter that tests blocks of values against
//! a floor or the heap's root at once, with no branch per value.
//!
//! # Crate features
//!
//! - `fast` (default): the fast path of [`top_k_into`] and `extend_from_slice` (and so of
//!   [`top_k_rows`], [`bottom_k_into`] and `try_extend`): a floor from a sample of the row,
//!   checked by counting, and a block pre-filter that tests 64 values at a time against it,
//!   several times faster on long rows. On x86-64 the pre-filter runs compiled for AVX2 when
//!   the CPU has it, whatever the build's target features: it is detected at run time by
//!   CPUID, which needs no `std`. It costs code and stack: docs/BENCHMARKS.md has both,
//!   measured on a Cortex-M per opt-level. Without it every value goes straight to the heap
//!   after the NaN check: the same answers, the least flash and stack, for microcontrollers
//!   with a few KiB of RAM. `push` is the same either way.
//! - `std` (default): nothing the core needs (`rayon` builds on it). Without it the crate is
//!   `no_std` and needs no allocator: `default-features = false, features = ["fast"]` keeps
//!   the fast path.
//! - `half`: [`TotalRank`] for `half::f16` and `half::bf16` (IEEE order, NaN of any bit
//!   pattern rejected), so 16-bit logits are ranked as they are, without a conversion. `no_std`.
//! - `serde`: `Serialize` and `Deserialize` for [`Entry`] and [`TopK`] (its stream length and
//!   kept entries, best first); a corrupt input is an error, never a broken selector. `no_std`.
//! - `rayon` (implies `std`): `par_top_k_rows`, the rows of a batch in parallel, and
//!   `par_top_k_into`, one long row split into shards across threads and merged.
//!
//! Without a feature: smallest-k ([`bottom_k_into`] on plain values, or any selector over
//! [`core::cmp::Reverse`], which implements [`TotalRank`]), shards and
//! merging ([`TopK::with_offset`], [`TopK::merge`], [`mod@shard`]), and batches
//! ([`top_k_rows`]).
//!
//! # Minimum Rust version
//!
//! 1.81 (for `core::error::Error`).

#![no_std]
// On docs.rs (`--cfg docsrs`, Cargo.toml), feature-gated items carry a badge naming the feature.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
#![deny(unsafe_code)]
#![deny(unsafe_op_in_unsafe_fn)]

#[cfg(any(test, feature = "std"))]
extern crate std;

// The order and the errors.
mod entry;
mod error;
#[cfg(feature = "half")]
mod half;
mod rank;
mod reverse;

// The engine, each layer calling only the ones below it: the selectors, then `push` and
// `extend`, the run-time dispatch, the block scan, and at the bottom the block test, the heap
// and the checks.
#[cfg(feature = "fast")]
mod arch;
#[cfg(feature = "fast")]
mod block;
mod check;
mod extend;
mod heap;
mod push;
#[cfg(feature = "fast")]
mod scan;
mod selector;
mod topk;

// The APIs over whole slices, batches and shards.
mod batch;
#[cfg(feature = "rayon")]
mod parallel;
#[cfg(feature = "serde")]
mod serde;
pub mod shard;
mod slice;
pub mod sorted;

#[cfg(test)]
mod testing;

pub use batch::top_k_rows;
pub use entry::Entry;
pub use error::Error;
#[cfg(feature = "rayon")]
#[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
pub use parallel::{par_top_k_into, par_top_k_rows, MIN_SHARD_LEN};
pub use rank::TotalRank;
pub use selector::Selector;
pub use slice::{bottom_k_into, top_k_into};
pub use topk::{SliceTopK, TopK};

/// Where a [`Selector`] keeps its entries: [`TopK`] in an [`Array`](storage::Array),
/// [`SliceTopK`] in [`Slices`](storage::Slices). Named here so that the two types can be
/// spelt out; the trait is sealed.
pub mod storage {
    pub use crate::heap::storage::{Array, Slices, Storage};
}

/// Whether the target's stack is a host's (a 64-bit target with an operating system, not
/// wasm), where a call may take a buffer of up to 32 KB on it (a frame of about 33 KB) for
/// the final sort's radix passes of more than 512 entries. Elsewhere (a microcontroller,
/// wasm32 or wasm64, a kernel) the crate keeps every call within a few KiB.
#[cfg(feature = "fast")]
const HOST_STACK: bool = cfg!(all(
    target_pointer_width = "64",
    not(target_os = "none"),
    not(target_family = "wasm")
));

/// The README's example runs as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
