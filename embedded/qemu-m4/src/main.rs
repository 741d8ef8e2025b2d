//! The contract's named cases and a few hundred generated rows, run on a microcontroller
//! through `top_k_into`, `SliceTopK` and `TopK`, checked against an on-device oracle (an
//! insertion sort).
//!
//! It prints each failed check, then `N passed, N failed`, and ends QEMU through semihosting:
//! exit code 0 when every check passed, 1 on a failed check, a panic or a HardFault.
//!
//! `cargo run --release` runs it on QEMU's `mps2-an386` (Cortex-M4F); `--target
//! thumbv6m-none-eabi` on QEMU's `microbit` (Cortex-M0: no FPU, no atomics). The features
//! `fail-on-purpose` and `fault-on-purpose` add one wrong expectation or one undefined
//! instruction, to show that a failure and a fault do end the run with exit code 1.

#![no_std]
#![no_main]

use cortex_m_rt::{entry, exception, ExceptionFrame};
use cortex_m_semihosting::{debug, hprintln};
use tinytopk::{top_k_into, Entry, Error, SliceTopK, TopK, TotalRank};

/// The longest generated row; buffers are sized for it (and one more, for `k = n + 1`).
const MAX_N: usize = 40;
/// How many rows are generated.
const ROWS: u32 = 300;

/// What the output buffers hold before a call that must not write.
const IDX_SENTINEL: u32 = 0xDEAD_BEEF;
const VAL_SENTINEL: f32 = 12345.0;

/// Values that make ties and edge cases likely: both zeros, both infinities, the extremes,
/// subnormals.
const POOL: [f32; 13] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    2.5,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MAX,
    f32::MIN,
    f32::MIN_POSITIVE,
    1e-45,
    -1e-45,
    1.0e-40,
];

/// NaNs of several bit patterns: quiet, signalling, negative, with payloads.
const NAN_BITS: [u32; 4] = [0x7FC0_0000, 0x7F80_0001, 0xFFFF_FFFF, 0x7FAB_CDEF];

/// Counts the checks and prints the ones that fail.
struct Tally {
    passed: u32,
    failed: u32,
}

impl Tally {
    fn check(&mut self, ok: bool, what: core::fmt::Arguments) {
        if ok {
            self.passed += 1;
        } else {
            self.failed += 1;
            hprintln!("FAILED: {}", what);
        }
    }
}

/// The entries an API kept, best first, as (index, value bits): bits tell -0.0 from 0.0.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Kept {
    len: usize,
    entries: [(u32, u32); MAX_N + 1],
}

impl Kept {
    fn new() -> Self {
        Kept {
            len: 0,
            entries: [(0, 0); MAX_N + 1],
        }
    }

    fn push(&mut self, index: u32, value: f32) {
        self.entries[self.len] = (index, value.to_bits());
        self.len += 1;
    }

    fn from_slices(idx: &[u32], val: &[f32]) -> Self {
        let mut kept = Kept::new();
        for (&i, &v) in idx.iter().zip(val) {
            kept.push(i, v);
        }
        kept
    }

    fn from_entries(entries: &[Entry<f32>]) -> Self {
        let mut kept = Kept::new();
        for e in entries {
            kept.push(e.index, e.value);
        }
        kept
    }
}

/// The plain definition, written without the crate: the first NaN is an error whatever k is,
/// then k > n is, then an insertion sort of every (value, index) by descending value that puts a value after
/// the equal ones already placed (so equal values stay by ascending index), cut at k.
fn oracle(x: &[f32], k: usize) -> Result<Kept, Error> {
    if let Some(index) = x.iter().position(|v| v.is_nan()) {
        return Err(Error::NotRankable { index });
    }
    if k > x.len() {
        return Err(Error::KTooLarge { k, n: x.len() });
    }
    let mut sorted = [(0_u32, 0.0_f32); MAX_N];
    for (i, &value) in x.iter().enumerate() {
        let mut j = i;
        while j > 0 && sorted[j - 1].1 < value {
            sorted[j] = sorted[j - 1];
            j -= 1;
        }
        sorted[j] = (i as u32, value);
    }
    let mut kept = Kept::new();
    for &(index, value) in &sorted[..k] {
        kept.push(index, value);
    }
    Ok(kept)
}

/// `top_k_into` with `k` places full of sentinels; on an error, whether they are untouched.
fn via_top_k_into(x: &[f32], k: usize) -> (Result<Kept, Error>, bool) {
    let mut idx = [IDX_SENTINEL; MAX_N + 1];
    let mut val = [VAL_SENTINEL; MAX_N + 1];
    let (idx, val) = (&mut idx[..k], &mut val[..k]);
    match top_k_into(x, idx, val) {
        Ok(()) => (Ok(Kept::from_slices(idx, val)), true),
        Err(e) => (Err(e), untouched(idx, val)),
    }
}

fn untouched(idx: &[u32], val: &[f32]) -> bool {
    idx.iter().all(|&i| i == IDX_SENTINEL)
        && val.iter().all(|v| v.to_bits() == VAL_SENTINEL.to_bits())
}

/// The streaming API that `SliceTopK` and `TopK` share.
trait Selector {
    fn push_one(&mut self, value: f32) -> Result<(), Error>;
    fn extend(&mut self, values: &[f32]) -> Result<(), Error>;

    /// Feeds `x` one value at a time (`chunk == 0`) or by `extend_from_slice` in chunks of
    /// `chunk` values.
    fn feed(&mut self, x: &[f32], chunk: usize) -> Result<(), Error> {
        if chunk == 0 {
            x.iter().try_for_each(|&v| self.push_one(v))
        } else {
            x.chunks(chunk).try_for_each(|part| self.extend(part))
        }
    }
}

impl Selector for SliceTopK<'_, f32> {
    fn push_one(&mut self, value: f32) -> Result<(), Error> {
        self.push(value)
    }
    fn extend(&mut self, values: &[f32]) -> Result<(), Error> {
        self.extend_from_slice(values)
    }
}

impl<const K: usize> Selector for TopK<f32, K> {
    fn push_one(&mut self, value: f32) -> Result<(), Error> {
        self.push(value)
    }
    fn extend(&mut self, values: &[f32]) -> Result<(), Error> {
        self.extend_from_slice(values)
    }
}

/// `SliceTopK` with `k` places, fed as [`Selector::feed`] says.
fn via_slice_topk(x: &[f32], k: usize, chunk: usize) -> Result<Kept, Error> {
    let mut idx = [IDX_SENTINEL; MAX_N + 1];
    let mut val = [VAL_SENTINEL; MAX_N + 1];
    let mut top = SliceTopK::new(&mut idx[..k], &mut val[..k])?;
    top.feed(x, chunk)?;
    let (idx, val) = top.into_sorted();
    Ok(Kept::from_slices(idx, val))
}

/// `TopK<f32, K>`, fed as [`Selector::feed`] says.
fn via_topk<const K: usize>(x: &[f32], chunk: usize) -> Result<Kept, Error> {
    let mut top = TopK::<f32, K>::new();
    top.feed(x, chunk)?;
    Ok(Kept::from_entries(&top.into_sorted()))
}

/// Every API on `x`: `top_k_into` for every `k` in `0..=n + 1`, `SliceTopK` for every `k` in
/// `0..=n` by push and by chunks, `TopK` for a few `K` by push and by chunks; each against the
/// oracle. `row` names the row in a failure.
fn check_row(t: &mut Tally, row: u32, x: &[f32], chunk: usize) {
    let n = x.len();
    for k in 0..=n + 1 {
        let (got, clean) = via_top_k_into(x, k);
        t.check(
            got == oracle(x, k) && clean,
            format_args!("row {row}: top_k_into k = {k} gave {got:?} (buffers untouched: {clean})"),
        );
    }
    for k in 0..=n {
        for c in [0, chunk] {
            let got = via_slice_topk(x, k, c);
            t.check(
                got == oracle(x, k),
                format_args!("row {row}: SliceTopK k = {k}, chunk {c} gave {got:?}"),
            );
        }
    }
    for c in [0, chunk] {
        for (k, got) in [
            (0, via_topk::<0>(x, c)),
            (1, via_topk::<1>(x, c)),
            (3, via_topk::<3>(x, c)),
            (8, via_topk::<8>(x, c)),
            (40, via_topk::<40>(x, c)),
        ] {
            t.check(
                got == oracle(x, k.min(n)),
                format_args!("row {row}: TopK<{k}> chunk {c} gave {got:?}"),
            );
        }
    }
}

/// A named case: every API gives exactly `idx` and `val` for `k = idx.len()`.
fn check_named(t: &mut Tally, name: &str, x: &[f32], idx: &[u32], val: &[f32]) {
    let want = Ok(Kept::from_slices(idx, val));
    let k = idx.len();
    t.check(oracle(x, k) == want, format_args!("{name}: the oracle"));
    t.check(
        via_top_k_into(x, k).0 == want,
        format_args!("{name}: top_k_into"),
    );
    for chunk in [0, 1, 2, 3] {
        t.check(
            via_slice_topk(x, k, chunk) == want,
            format_args!("{name}: SliceTopK, chunk {chunk}"),
        );
        let array = match k {
            0 => via_topk::<0>(x, chunk),
            2 => via_topk::<2>(x, chunk),
            3 => via_topk::<3>(x, chunk),
            4 => via_topk::<4>(x, chunk),
            5 => via_topk::<5>(x, chunk),
            6 => via_topk::<6>(x, chunk),
            8 => via_topk::<8>(x, chunk),
            _ => continue,
        };
        t.check(
            array == want,
            format_args!("{name}: TopK<{k}>, chunk {chunk}"),
        );
    }
}

/// The contract's named cases, with the hand-worked answers.
fn named_cases(t: &mut Tally) {
    let inf = f32::INFINITY;
    let ninf = f32::NEG_INFINITY;
    check_named(
        t,
        "hand example",
        &[1.0, 3.0, 2.0, 3.0, -1.0],
        &[1, 3, 2],
        &[3.0, 3.0, 2.0],
    );
    let cut = [5.0, 1.0, 1.0, 1.0, 1.0, 0.0];
    check_named(t, "tie at the cut, k = 2", &cut, &[0, 1], &[5.0, 1.0]);
    check_named(
        t,
        "tie at the cut, k = 4",
        &cut,
        &[0, 1, 2, 3],
        &[5.0, 1.0, 1.0, 1.0],
    );
    check_named(
        t,
        "tie before a better value",
        &[1.0, 1.0, 1.0, 7.0],
        &[3, 0],
        &[7.0, 1.0],
    );
    check_named(
        t,
        "equal values by ascending index",
        &[0.25; 6],
        &[0, 1, 2, 3, 4, 5],
        &[0.25; 6],
    );
    check_named(
        t,
        "-0.0 and 0.0 tie, each with its bits",
        &[0.0, -0.0, 0.0, -0.0, -1.0],
        &[0, 1, 2, 3],
        &[0.0, -0.0, 0.0, -0.0],
    );
    check_named(
        t,
        "interleaved equal values",
        &[2.0, 5.0, 2.0, 5.0, 2.0, 5.0],
        &[1, 3, 5, 0, 2],
        &[5.0, 5.0, 5.0, 2.0, 2.0],
    );
    let eight = [3.0, -1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0];
    check_named(
        t,
        "k = n is a full sort",
        &eight,
        &[5, 7, 4, 2, 0, 6, 3, 1],
        &[9.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, -1.0],
    );
    check_named(t, "k = 0", &eight, &[], &[]);
    check_named(t, "k = 0 of nothing", &[], &[], &[]);
    check_named(
        t,
        "-inf is an ordinary value",
        &[ninf, 0.5, ninf, -1e30, ninf],
        &[1, 3, 0, 2],
        &[0.5, -1e30, ninf, ninf],
    );
    check_named(
        t,
        "a fully masked row",
        &[ninf; 6],
        &[0, 1, 2, 3, 4, 5],
        &[ninf; 6],
    );
    check_named(
        t,
        "the extremes between the infinities",
        &[f32::MIN, inf, ninf, f32::MAX],
        &[1, 3, 0, 2],
        &[inf, f32::MAX, f32::MIN, ninf],
    );

    // The other value types go through the same heap.
    let (mut idx, mut val) = ([0_u32; 3], [0_i32; 3]);
    let ok = top_k_into(&[1, 3, 2, 3, -1], &mut idx, &mut val).is_ok();
    t.check(
        ok && idx == [1, 3, 2] && val == [3, 3, 2],
        format_args!("hand example, i32"),
    );
    let (mut idx, mut val) = ([0_u32; 3], [0.0_f64; 3]);
    let ok = top_k_into(&[1.0, 3.0, 2.0, 3.0, -1.0], &mut idx, &mut val).is_ok();
    t.check(
        ok && idx == [1, 3, 2] && val == [3.0, 3.0, 2.0],
        format_args!("hand example, f64"),
    );
}

/// A value type of size zero: a slice of `usize::MAX` of them costs no memory.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Nothing;

impl TotalRank for Nothing {
    fn is_rankable(&self) -> bool {
        true
    }
    fn rank_cmp(&self, _: &Self) -> core::cmp::Ordering {
        core::cmp::Ordering::Equal
    }
}

/// Every error path, each with the outputs or the selector checked unchanged.
fn error_paths(t: &mut Tally) {
    let base = [4.0_f32, f32::NEG_INFINITY, 7.0, 0.0, 7.0, -2.0, 1.0];
    let n = base.len();
    for bits in NAN_BITS {
        let nan = f32::from_bits(bits);
        for pos in [0, n / 2, n - 1] {
            let mut x = base;
            x[pos] = nan;
            for k in [0, 1, 3, n] {
                let (got, clean) = via_top_k_into(&x, k);
                t.check(
                    got == Err(Error::NotRankable { index: pos }) && clean,
                    format_args!("NaN {bits:#x} at {pos}, k = {k}: {got:?}, untouched {clean}"),
                );
            }
            let mut two = x;
            two[n - 1] = nan;
            let (got, clean) = via_top_k_into(&two, 2);
            t.check(
                got == Err(Error::NotRankable { index: pos }) && clean,
                format_args!("two NaNs, the first at {pos}: {got:?}, untouched {clean}"),
            );
        }
    }
    for n in 0..4 {
        let (got, clean) = via_top_k_into(&base[..n], n + 1);
        t.check(
            got == Err(Error::KTooLarge { k: n + 1, n }) && clean,
            format_args!("k = n + 1 = {}: {got:?}, untouched {clean}", n + 1),
        );
    }
    for (ki, kv) in [(2, 3), (3, 0)] {
        let mut idx = [IDX_SENTINEL; 3];
        let mut val = [VAL_SENTINEL; 3];
        let got = top_k_into(&base, &mut idx[..ki], &mut val[..kv]);
        t.check(
            got == Err(Error::LengthMismatch { idx: ki, val: kv }) && untouched(&idx, &val),
            format_args!("buffers of {ki} and {kv}: {got:?}"),
        );
        let got = SliceTopK::new(&mut idx[..ki], &mut val[..kv]).map(|_| ());
        t.check(
            got == Err(Error::LengthMismatch { idx: ki, val: kv }),
            format_args!("SliceTopK::new on buffers of {ki} and {kv}: {got:?}"),
        );
    }

    // A rejected push or extend leaves TopK as it was, stream position included, and the
    // next accepted value takes the position the rejected one would have had.
    let nan = f32::NAN;
    let mut top = TopK::<f32, 3>::new();
    let _ = top.extend_from_slice(&base[..4]);
    let before = (
        top.clone().into_sorted(),
        top.stream_len(),
        top.peek_worst(),
    );
    let pushed = top.push(nan);
    let extended = top.extend_from_slice(&[9.0, 8.0, nan, 10.0]);
    let after = (
        top.clone().into_sorted(),
        top.stream_len(),
        top.peek_worst(),
    );
    t.check(
        pushed == Err(Error::NotRankable { index: 4 })
            && extended == Err(Error::NotRankable { index: 6 })
            && after == before,
        format_args!("TopK after a rejected push ({pushed:?}) and extend ({extended:?})"),
    );
    let _ = top.push(100.0);
    let first = top.into_sorted().first().copied();
    t.check(
        first
            == Some(Entry {
                value: 100.0,
                index: 4,
            }),
        format_args!("TopK: the next value takes the rejected position: {first:?}"),
    );

    // The same for SliceTopK: its buffers keep their sentinels.
    let mut idx = [IDX_SENTINEL; 3];
    let mut val = [VAL_SENTINEL; 3];
    if let Ok(mut top) = SliceTopK::new(&mut idx, &mut val) {
        let extended = top.extend_from_slice(&[1.0, nan]);
        let pushed = top.push(nan);
        t.check(
            extended == Err(Error::NotRankable { index: 1 })
                && pushed == Err(Error::NotRankable { index: 0 })
                && (top.len(), top.stream_len()) == (0, 0),
            format_args!("SliceTopK after a rejected extend ({extended:?}) and push ({pushed:?})"),
        );
    }
    t.check(
        untouched(&idx, &val),
        format_args!("SliceTopK wrote on a rejected call"),
    );

    // Indices are u32: on a 32-bit target a slice holds at most u32::MAX values, so only a
    // stream can outgrow them. Two values taken, u32::MAX more would make u32::MAX + 2.
    static MANY: [Nothing; usize::MAX] = [Nothing; usize::MAX];
    let mut top = TopK::<Nothing, 1>::new();
    let _ = top.extend_from_slice(&[Nothing, Nothing]);
    let got = top.extend_from_slice(&MANY);
    t.check(
        got == Err(Error::TooLong { n: usize::MAX }) && (top.len(), top.stream_len()) == (1, 2),
        format_args!("TopK past u32::MAX + 1 values: {got:?}"),
    );
}

/// A small 32-bit generator (xorshift32), so that every run sees the same rows.
struct Xorshift(u32);

impl Xorshift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0 as usize % n
    }
}

/// `ROWS` rows of up to `MAX_N` values drawn from a pool of 1 to 6 values of [`POOL`] (ties
/// everywhere); every seventh row gets NaNs.
fn generated_rows(t: &mut Tally) {
    let mut rng = Xorshift(0x7079_6b34);
    for row in 0..ROWS {
        let n = rng.below(MAX_N + 1);
        let mut pool = [0.0_f32; 6];
        let pool = &mut pool[..1 + row as usize % 6];
        for v in pool.iter_mut() {
            *v = POOL[rng.below(POOL.len())];
        }
        let mut x = [0.0_f32; MAX_N];
        let x = &mut x[..n];
        for v in x.iter_mut() {
            *v = pool[rng.below(pool.len())];
        }
        if row % 7 == 3 && n > 0 {
            for _ in 0..1 + rng.below(3) {
                x[rng.below(n)] = f32::from_bits(NAN_BITS[rng.below(NAN_BITS.len())]);
            }
        }
        check_row(t, row, x, 1 + rng.below(7));
    }
}

#[entry]
fn main() -> ! {
    let mut t = Tally {
        passed: 0,
        failed: 0,
    };
    named_cases(&mut t);
    error_paths(&mut t);
    generated_rows(&mut t);
    if cfg!(feature = "fail-on-purpose") {
        let (got, _) = via_top_k_into(&[1.0, 2.0], 1);
        t.check(
            got == oracle(&[2.0, 1.0], 1),
            format_args!("fail-on-purpose: a wrong expectation"),
        );
    }
    if cfg!(feature = "fault-on-purpose") {
        cortex_m::asm::udf();
    }
    hprintln!("tinytopk on {}: {} generated rows", BOARD, ROWS);
    hprintln!("{} passed, {} failed", t.passed, t.failed);
    debug::exit(if t.failed == 0 {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    loop {
        cortex_m::asm::wfi();
    }
}

/// The board the target runs on under QEMU.
const BOARD: &str = if cfg!(target_has_atomic = "32") {
    "Cortex-M4F (mps2-an386)"
} else {
    "Cortex-M0 (microbit)"
};

#[exception]
unsafe fn HardFault(frame: &ExceptionFrame) -> ! {
    hprintln!("HardFault at pc = {:#010x}", frame.pc());
    debug::exit(debug::EXIT_FAILURE);
    loop {
        cortex_m::asm::wfi();
    }
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    hprintln!("panic: {}", info);
    debug::exit(debug::EXIT_FAILURE);
    loop {
        cortex_m::asm::wfi();
    }
}
