//! Arbitrary bytes become a row of `f32` (any bit pattern, NaN included), a `k` and a chunk
//! size; every API runs on them and must give what the oracle gives: the same entries bit for
//! bit, or the same error with nothing written and the selector as it was.
//!
//! Layout of the input: byte 0 picks `k` (in `0..=n + 1`), byte 1 the chunk size for
//! `extend_from_slice` (1 to 16), byte 2 how the rest is read: raw little-endian `f32` bit
//! patterns (4 bytes a value), or one byte a value picked from a small pool of ties and edge
//! values (both zeros, both infinities, the extremes, subnormals, a NaN).

#![no_main]

use libfuzzer_sys::fuzz_target;
use tinytopk::{top_k_into, Entry, Error, SliceTopK, TopK};

/// The pool for the tie-heavy reading of the input.
const POOL: [f32; 12] = [
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
];

const IDX_SENTINEL: u32 = 0xDEAD_BEEF;
const VAL_SENTINEL: f32 = 12345.0;

/// Entries as (index, value bits): the bits tell -0.0 from 0.0.
type Kept = Vec<(u32, u32)>;

fn kept(idx: &[u32], val: &[f32]) -> Kept {
    idx.iter()
        .zip(val)
        .map(|(&i, v)| (i, v.to_bits()))
        .collect()
}

fn kept_entries(entries: &[Entry<f32>]) -> Kept {
    entries
        .iter()
        .map(|e| (e.index, e.value.to_bits()))
        .collect()
}

/// The definition, written without the crate: the first NaN is an error whatever k is, then
/// k > n is; else
/// a stable sort of every (value, index) by descending IEEE value, cut at k.
fn oracle(x: &[f32], k: usize) -> Result<Kept, Error> {
    if let Some(index) = x.iter().position(|v| v.is_nan()) {
        return Err(Error::NotRankable { index });
    }
    if k > x.len() {
        return Err(Error::KTooLarge { k, n: x.len() });
    }
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by(|&a, &b| x[b].partial_cmp(&x[a]).expect("no NaN is left"));
    Ok(order[..k]
        .iter()
        .map(|&i| (i as u32, x[i].to_bits()))
        .collect())
}

/// The first NaN, if any.
fn first_nan(x: &[f32]) -> Option<usize> {
    x.iter().position(|v| v.is_nan())
}

/// `top_k_into` on sentinel buffers: the oracle's answer, and nothing written on an error.
fn check_top_k_into(x: &[f32], k: usize) {
    let mut idx = vec![IDX_SENTINEL; k];
    let mut val = vec![VAL_SENTINEL; k];
    let got = top_k_into(x, &mut idx, &mut val).map(|()| kept(&idx, &val));
    assert_eq!(got, oracle(x, k), "top_k_into, k = {k}");
    if got.is_err() {
        assert!(idx.iter().all(|&i| i == IDX_SENTINEL), "idx written");
        assert!(
            val.iter().all(|v| v.to_bits() == VAL_SENTINEL.to_bits()),
            "val written"
        );
    }
    // Buffers of different lengths are rejected first, and nothing is written.
    let mut val = vec![VAL_SENTINEL; k + 1];
    let got = top_k_into(x, &mut idx[..k], &mut val);
    assert_eq!(got, Err(Error::LengthMismatch { idx: k, val: k + 1 }));
    assert!(
        val.iter().all(|v| v.to_bits() == VAL_SENTINEL.to_bits()),
        "val written"
    );
}

/// The pieces a stream is fed in: one value at a time (`chunk == 0`) or chunks of `chunk`.
fn pieces(x: &[f32], chunk: usize) -> Vec<&[f32]> {
    if chunk == 0 {
        x.chunks(1).collect()
    } else {
        x.chunks(chunk).collect()
    }
}

/// Feeds the pieces up to the first rejected one; returns how many pieces were accepted and
/// the error of the rejected one.
fn feed(
    pieces: &[&[f32]],
    mut offer: impl FnMut(&[f32]) -> Result<(), Error>,
) -> (usize, Option<Error>) {
    for (i, piece) in pieces.iter().enumerate() {
        if let Err(e) = offer(piece) {
            return (i, Some(e));
        }
    }
    (pieces.len(), None)
}

/// `SliceTopK` with `k <= n` places, fed by `push` or in chunks: the oracle's answer on the
/// row, or, at the first NaN, its error; the rejected call wrote nothing to the buffers (they
/// are the same as those of a selector that never saw it) and the selector keeps the top k of
/// the values before it.
fn check_slice_topk(x: &[f32], k: usize, chunk: usize) {
    let pieces = pieces(x, chunk);
    let offer = |top: &mut SliceTopK<f32>, piece: &[f32]| {
        if piece.len() == 1 {
            top.push(piece[0])
        } else {
            top.extend_from_slice(piece)
        }
    };
    let (mut idx, mut val) = (vec![IDX_SENTINEL; k], vec![VAL_SENTINEL; k]);
    let mut top = SliceTopK::new(&mut idx, &mut val).unwrap();
    let (accepted, error) = feed(&pieces, |p| offer(&mut top, p));
    let taken: usize = pieces[..accepted].iter().map(|p| p.len()).sum();
    assert_eq!(top.stream_len(), taken as u64);
    assert_eq!(top.len(), k.min(taken));
    let prefix = oracle(&x[..taken], k.min(taken)).unwrap();
    assert_eq!(
        top.peek_worst().map(|e| (e.index, e.value.to_bits())),
        prefix.last().copied()
    );
    match error {
        None => {
            let (i, v) = top.into_sorted();
            assert_eq!(
                Ok(kept(i, v)),
                oracle(x, k),
                "SliceTopK, k = {k}, chunk {chunk}"
            );
        }
        Some(e) => {
            assert_eq!(
                Some(e),
                first_nan(x).map(|index| Error::NotRankable { index })
            );
            drop(top);
            // A twin selector that never saw the rejected piece leaves the same bytes.
            let (mut idx2, mut val2) = (vec![IDX_SENTINEL; k], vec![VAL_SENTINEL; k]);
            let mut twin = SliceTopK::new(&mut idx2, &mut val2).unwrap();
            assert_eq!(
                feed(&pieces[..accepted], |p| offer(&mut twin, p)).0,
                accepted
            );
            drop(twin);
            assert_eq!(idx, idx2, "SliceTopK wrote indices on a rejected call");
            assert!(
                val.iter()
                    .map(|v| v.to_bits())
                    .eq(val2.iter().map(|v| v.to_bits())),
                "SliceTopK wrote values on a rejected call"
            );
        }
    }
}

/// `TopK<f32, K>`, fed by `push` or in chunks: the oracle's answer for `min(K, n)`, or at the
/// first NaN its error with the selector exactly as it was before the rejected call.
fn check_topk<const K: usize>(x: &[f32], chunk: usize) {
    let pieces = pieces(x, chunk);
    let mut top = TopK::<f32, K>::new();
    let mut before = top.clone();
    let (accepted, error) = feed(&pieces, |p| {
        before.clone_from(&top);
        if p.len() == 1 {
            top.push(p[0])
        } else {
            top.extend_from_slice(p)
        }
    });
    let taken: usize = pieces[..accepted].iter().map(|p| p.len()).sum();
    assert_eq!(top.stream_len(), taken as u64);
    if let Some(e) = error {
        assert_eq!(
            Some(e),
            first_nan(x).map(|index| Error::NotRankable { index })
        );
        // Debug shows the whole state (the heap in its order, the stream position), with
        // distinct text for distinct f32 bits as no NaN is kept.
        assert_eq!(
            format!("{top:?}"),
            format!("{before:?}"),
            "TopK<{K}> changed on a rejected call"
        );
    }
    let want = oracle(&x[..taken], K.min(taken)).unwrap();
    assert_eq!(
        top.peek_worst().map(|e| (e.index, e.value.to_bits())),
        want.last().copied()
    );
    assert_eq!(
        kept_entries(&top.into_sorted()),
        want,
        "TopK<{K}>, chunk {chunk}"
    );
}

fuzz_target!(|data: &[u8]| {
    let [k_byte, chunk_byte, mode, rest @ ..] = data else {
        return;
    };
    let x: Vec<f32> = if mode & 1 == 0 {
        rest.chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect()
    } else {
        rest.iter()
            .map(|&b| POOL[usize::from(b) % POOL.len()])
            .collect()
    };
    let n = x.len();
    let k = usize::from(*k_byte) % (n + 2);
    let chunk = 1 + usize::from(*chunk_byte) % 16;

    check_top_k_into(&x, k);
    if k <= n {
        for c in [0, chunk] {
            check_slice_topk(&x, k, c);
        }
    }
    for c in [0, chunk] {
        check_topk::<1>(&x, c);
        check_topk::<5>(&x, c);
        check_topk::<40>(&x, c);
    }
});
