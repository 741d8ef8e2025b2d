//! The crate's integration tests, one binary: each module tests one part of the contract or
//! of the API, named after it, and all share one oracle and one list of edge values
//! (tests/common). One binary links the crate's generic code once, where a binary per file
//! linked it once each. `tests/no_alloc.rs` stays a binary of its own: its global allocator
//! counts every allocation of the process, which other tests running beside it would make.
//!
//! Run one module with a filter: `cargo test --test integration -- contract::`.

#[path = "../common/mod.rs"]
mod common;

mod api;
mod batch;
mod bounded;
mod contract;
mod fixtures;
#[cfg(feature = "half")]
mod half;
#[cfg(feature = "rayon")]
mod parallel;
mod prefilter;
mod properties;
mod rank;
mod selector;
#[cfg(feature = "serde")]
mod serde;
mod shard;
mod smallest;
mod whole;
