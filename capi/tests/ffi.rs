//! `tl_topk_f32` called from Rust, through the same symbol the C side links: against the
//! oracle on tie-heavy rows, with uninitialised outputs (for Miri), at the length limits, and
//! against the header's numbers.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::mem::MaybeUninit;
use std::ptr;

use common::{oracle, F32_POOL, NAN_BITS};
use proptest::prelude::*;
use tinytopk_capi::{tl_topk_f32, TlStatus, MAX_N};

const IDX_SENTINEL: i32 = 0x5EAD_BEEF;
const VAL_SENTINEL: f32 = 12345.0;

/// `tl_topk_f32` on `x` into `k` places full of sentinels: the status and both buffers.
fn call(x: &[f32], k: usize) -> (TlStatus, Vec<i32>, Vec<f32>) {
    let mut idx = vec![IDX_SENTINEL; k];
    let mut val = vec![VAL_SENTINEL; k];
    // SAFETY: `x` has `x.len()` readable values, `idx` and `val` `k` writable places each.
    let status = unsafe {
        tl_topk_f32(
            x.as_ptr(),
            x.len() as i64,
            k as i64,
            idx.as_mut_ptr(),
            val.as_mut_ptr(),
        )
    };
    (status, idx, val)
}

/// What the C contract says `tl_topk_f32(x, n, k)` gives, from the oracle: the entries as
/// (index, value bits), or `None` for `TL_EINVAL`.
fn expected(x: &[f32], k: usize) -> Option<Vec<(i32, u32)>> {
    let entries = oracle(x, k).ok()?;
    Some(
        entries
            .iter()
            .map(|e| (e.index as i32, e.value.to_bits()))
            .collect(),
    )
}

/// Checks one call against [`expected`]; on `TL_EINVAL` the sentinels must be untouched.
fn check(x: &[f32], k: usize) {
    let (status, idx, val) = call(x, k);
    match expected(x, k) {
        Some(want) => {
            assert_eq!(status, TlStatus::Ok, "x = {x:?}, k = {k}");
            let got: Vec<(i32, u32)> = idx
                .iter()
                .zip(&val)
                .map(|(&i, v)| (i, v.to_bits()))
                .collect();
            assert_eq!(got, want, "x = {x:?}, k = {k}");
        }
        None => {
            assert_eq!(status, TlStatus::Einval, "x = {x:?}, k = {k}");
            let untouched = idx.iter().all(|&i| i == IDX_SENTINEL)
                && val.iter().all(|v| v.to_bits() == VAL_SENTINEL.to_bits());
            assert!(untouched, "written on TL_EINVAL: {idx:?} {val:?}");
        }
    }
}

/// A value drawn from the tie-heavy pool, or now and then a NaN of some bit pattern.
fn value() -> impl Strategy<Value = f32> {
    prop_oneof![
        20 => prop::sample::select(F32_POOL.to_vec()),
        1 => prop::sample::select(NAN_BITS.to_vec()).prop_map(f32::from_bits),
    ]
}

/// Rows of up to 40 values, and a k that is sometimes one past the row.
fn row_and_k() -> impl Strategy<Value = (Vec<f32>, usize)> {
    prop::collection::vec(value(), 0..40).prop_flat_map(|x| {
        let n = x.len();
        (Just(x), 0..=n + 1)
    })
}

proptest! {
    // `PROPTEST_CASES` cases (256 by default); under Miri a few, and no failure file (Miri
    // isolates the file system).
    #![proptest_config(if cfg!(miri) {
        ProptestConfig { cases: 6, failure_persistence: None, ..ProptestConfig::default() }
    } else {
        ProptestConfig::default()
    })]

    #[test]
    fn the_c_abi_matches_the_oracle((x, k) in row_and_k()) {
        check(&x, k);
    }
}

#[test]
fn every_k_of_tie_heavy_rows() {
    let mut rng = common::Rng(0x00ca_b1e5);
    let rows = if cfg!(miri) { 4 } else { 200 };
    for row in 0..rows {
        let n = rng.below(33);
        let pool: Vec<f32> = (0..1 + row % 5)
            .map(|_| F32_POOL[rng.below(F32_POOL.len())])
            .collect();
        let x: Vec<f32> = (0..n).map(|_| pool[rng.below(pool.len())]).collect();
        for k in 0..=n + 1 {
            check(&x, k);
        }
    }
}

#[test]
fn outputs_may_be_uninitialised() {
    // C callers pass fresh buffers; Miri checks that nothing reads a place before writing it.
    let x = [1.0_f32, 3.0, 2.0, 3.0, -1.0, f32::NEG_INFINITY, 0.0, -0.0];
    for k in 0..=x.len() {
        let mut idx = [MaybeUninit::<i32>::uninit(); 8];
        let mut val = [MaybeUninit::<f32>::uninit(); 8];
        // SAFETY: 8 readable values, 8 >= k writable places each.
        let status = unsafe {
            tl_topk_f32(
                x.as_ptr(),
                8,
                k as i64,
                idx.as_mut_ptr().cast(),
                val.as_mut_ptr().cast(),
            )
        };
        assert_eq!(status, TlStatus::Ok);
        let want = expected(&x, k).expect("a valid call");
        for (place, &(i, bits)) in want.iter().enumerate() {
            // SAFETY: the call wrote the first k places.
            let (got_i, got_v) = unsafe { (idx[place].assume_init(), val[place].assume_init()) };
            assert_eq!((got_i, got_v.to_bits()), (i, bits));
        }
    }
}

#[test]
fn lengths_past_the_limit_are_rejected_before_anything_is_read() {
    let x = [1.0_f32; 4];
    let (mut idx, mut val) = ([IDX_SENTINEL; 1], [VAL_SENTINEL; 1]);
    for n in [MAX_N + 1, i64::MAX, -1, i64::MIN] {
        // SAFETY: rejected on `n` alone, before `x` (4 values) would be read past its end.
        let status = unsafe { tl_topk_f32(x.as_ptr(), n, 1, idx.as_mut_ptr(), val.as_mut_ptr()) };
        assert_eq!(status, TlStatus::Einval, "n = {n}");
    }
    assert_eq!((idx, val), ([IDX_SENTINEL], [VAL_SENTINEL]));
    // The limit itself: every index of a row of MAX_N values fits in int32_t.
    assert_eq!(MAX_N - 1, i64::from(i32::MAX));
}

#[test]
fn null_is_fine_where_nothing_is_used() {
    // SAFETY: nothing is read or written when n == 0 and k == 0.
    let status = unsafe { tl_topk_f32(ptr::null(), 0, 0, ptr::null_mut(), ptr::null_mut()) };
    assert_eq!(status, TlStatus::Ok);
    let x = [2.0_f32, 1.0];
    // SAFETY: two readable values; nothing written when k == 0.
    let status = unsafe { tl_topk_f32(x.as_ptr(), 2, 0, ptr::null_mut(), ptr::null_mut()) };
    assert_eq!(status, TlStatus::Ok);
}

#[test]
fn the_header_has_the_same_numbers() {
    let header = include_str!("../include/tinyllm/topk.h");
    for (name, status) in [("TL_OK", TlStatus::Ok), ("TL_EINVAL", TlStatus::Einval)] {
        let line = format!("{name} = {}", status as i32);
        assert!(header.contains(&line), "the header lacks `{line}`");
    }
    let prototype = "tl_status tl_topk_f32(const float *x, int64_t n, int64_t k, int32_t *idx, \
                     float *val);";
    assert!(header.contains(prototype), "the header lacks `{prototype}`");
    // The Rust signature the prototype declares.
    let _: unsafe extern "C" fn(*const f32, i64, i64, *mut i32, *mut f32) -> TlStatus = tl_topk_f32;
}
