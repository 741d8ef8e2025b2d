//! The crate against its baselines, one criterion group per (data shape, n, k), every method on
//! the same row:
//!
//! - `floor`: one max-reduction over the row, written to vectorize: the cost of reading it once;
//! - `top_k_into`, `TopK::push` (one call per value), `TopK::extend_from_slice`, and on
//!   `normal` rows `TopK::try_extend` of the row's iterator, copied and mapped (the extend and
//!   these two take turns at eight stack depths: `Depths`);
//! - `sort`: a full sort of (value, index) pairs;
//! - `select_nth`: `select_nth_unstable_by` then a sort of the k (candle, mistral.rs, PyTorch's
//!   CPU path);
//! - `BinaryHeap`: std's heap as a size-k min-heap.
//!
//! `sort` and `select_nth` compare with a branch-free comparator on (value, index): their
//! strongest form, where a `partial_cmp` chain would flatter the crate.
//!
//! Shapes (`examples/data`): `normal` (random normal logits), `masked` (99% `-inf`, the rest
//! normal), `ascending` and `descending` (every value enters the heap, or none does), `equal`
//! (all ties), and rows built against a pre-filter: `rising_masked` (rising, every seventh value
//! `-inf`), `sawtooth` (rising runs of 37, shorter than k), `organ_pipe`, `rise_fall` (rising to
//! three quarters, then falling), `anti_sample` (the places the scan samples hold the lowest
//! values, the others rise) and `anti_sample_high` (they hold the highest). n in {4,096, 49,152, 151,936, 262,144} (a short row and the
//! SmolLM2, Qwen2 and Gemma 3 vocabularies), k in {1, 50, 200, 1000, 4096}.
//!
//! ```text
//! cargo bench                                  # everything, about 15 minutes
//! cargo bench -- 'normal/n=151936/'            # a subset: criterion's filter is a regex
//! TINYTOPK_BENCH_N=151936 cargo bench          # only this n (comma-separated list)
//! cargo bench -- --test                        # each once, timing nothing (CI)
//! python3 scripts/bench_report.py              # the tables and the plot (docs/BENCHMARKS.md)
//! ```

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, SamplingMode};
#[path = "../examples/data/mod.rs"]
mod data;

use data::shapes;
use tinytopk::{bottom_k_into, top_k_into, TopK};

const NS: [usize; 4] = [4096, 49_152, 151_936, 262_144];
const KS: [usize; 5] = [1, 50, 200, 1000, 4096];

/// The largest value of `x`: a max-reduction over lanes that the compiler vectorizes.
fn floor(x: &[f32]) -> f32 {
    const LANES: usize = 16;
    let mut lanes = [f32::NEG_INFINITY; LANES];
    let mut chunks = x.chunks_exact(LANES);
    for chunk in &mut chunks {
        for (m, &v) in lanes.iter_mut().zip(chunk) {
            *m = if v > *m { v } else { *m };
        }
    }
    let tail = chunks.remainder().iter();
    lanes
        .iter()
        .chain(tail)
        .fold(f32::NEG_INFINITY, |m, &v| if v > m { v } else { m })
}

/// The contract's order on (value, index): value descending, then index ascending, with no
/// branch (the rows hold no NaN).
fn best_first(a: &(f32, u32), b: &(f32, u32)) -> Ordering {
    let before = (a.0 > b.0) | ((a.0 == b.0) & (a.1 < b.1));
    let after = (a.0 < b.0) | ((a.0 == b.0) & (a.1 > b.1));
    (i8::from(after) - i8::from(before)).cmp(&0)
}

/// (value, index) ordered so that the greater ranks better, for std's `BinaryHeap`.
#[derive(Clone, Copy, PartialEq)]
struct Ranked(f32, u32);

impl Eq for Ranked {}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        best_first(&(other.0, other.1), &(self.0, self.1))
    }
}

/// Calls `f` below `PAD` bytes of this frame's stack (left as they are: nothing is written
/// there, in the timed loop): see [`Depths`].
#[inline(never)]
fn at_depth<const PAD: usize, R>(f: impl FnOnce() -> R) -> R {
    let pad = std::mem::MaybeUninit::<[u8; PAD]>::uninit();
    black_box(&pad);
    let out = f();
    black_box(&pad);
    out
}

/// Eight stack depths 512 bytes apart, taken in turn, one a call. `try_extend` copies the
/// iterator's values into a buffer on the stack as it reads the row, and its time depends on
/// where that buffer falls against the row modulo 4 KiB (as if the row's loads depended
/// falsely on the buffer's stores: one row and one build took from 7.9 to 9.8 µs at n = 49,152
/// and k = 50 at eight such depths). One depth is one draw of that; the lines that are
/// compared with each other (`extend_from_slice` and both `try_extend`) take the mean of
/// eight, which is what a caller at an arbitrary depth pays.
struct Depths(u8);

impl Depths {
    fn call<R>(&mut self, f: impl FnOnce() -> R) -> R {
        self.0 = (self.0 + 1) % 8;
        match self.0 {
            0 => at_depth::<0, R>(f),
            1 => at_depth::<512, R>(f),
            2 => at_depth::<1024, R>(f),
            3 => at_depth::<1536, R>(f),
            4 => at_depth::<2048, R>(f),
            5 => at_depth::<2560, R>(f),
            6 => at_depth::<3072, R>(f),
            _ => at_depth::<3584, R>(f),
        }
    }
}

/// `TopK::<f32, K>` by push in a loop and by one extend; with `extras`, fed an iterator too.
fn bench_topk<const K: usize>(
    group: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>,
    x: &[f32],
    extras: bool,
) {
    group.bench_function("TopK::push", |b| {
        b.iter(|| {
            let mut top = TopK::<f32, K>::new();
            for &v in black_box(x) {
                top.push(v).unwrap();
            }
            black_box(top.into_sorted())
        })
    });
    let mut depths = Depths(0);
    group.bench_function("TopK::extend_from_slice", |b| {
        b.iter(|| {
            depths.call(|| {
                let mut top = TopK::<f32, K>::new();
                top.extend_from_slice(black_box(x)).unwrap();
                black_box(top.into_sorted())
            })
        })
    });
    if !extras {
        return;
    }
    // A row transformed on the fly (a temperature), fed as an iterator: against the plain
    // extend above, and against a push per transformed value.
    let scale = black_box(1.0 / 0.7_f32);
    group.bench_function("TopK::try_extend(copied)", |b| {
        b.iter(|| {
            depths.call(|| {
                let mut top = TopK::<f32, K>::new();
                top.try_extend(black_box(x).iter().copied()).unwrap();
                black_box(top.into_sorted())
            })
        })
    });
    group.bench_function("TopK::try_extend(map)", |b| {
        b.iter(|| {
            depths.call(|| {
                let mut top = TopK::<f32, K>::new();
                top.try_extend(black_box(x).iter().map(|&v| v * scale))
                    .unwrap();
                black_box(top.into_sorted())
            })
        })
    });
    group.bench_function("TopK::push(map)", |b| {
        b.iter(|| {
            let mut top = TopK::<f32, K>::new();
            for &v in black_box(x) {
                top.push(v * scale).unwrap();
            }
            black_box(top.into_sorted())
        })
    });
}

fn bench_group(c: &mut Criterion, shape: &str, x: &[f32], k: usize) {
    let n = x.len();
    let mut group = c.benchmark_group(format!("{shape}/n={n}/k={k}"));
    // The same number of iterations in every sample: a 30 ms sort needs 10, not 55.
    group.sampling_mode(SamplingMode::Flat);

    group.bench_function("floor", |b| b.iter(|| floor(black_box(x))));
    group.bench_function("top_k_into", |b| {
        let (mut idx, mut val) = (vec![0_u32; k], vec![0.0_f32; k]);
        b.iter(|| {
            top_k_into(black_box(x), &mut idx, &mut val).unwrap();
            black_box((&idx, &val));
        })
    });
    // The k smallest of the same row, on the plain values (normal rows only, as the other
    // extras: every shape and k would add half again to a run).
    let extras = shape == "normal";
    if extras {
        group.bench_function("bottom_k_into", |b| {
            let (mut idx, mut val) = (vec![0_u32; k], vec![0.0_f32; k]);
            b.iter(|| {
                bottom_k_into(black_box(x), &mut idx, &mut val).unwrap();
                black_box((&idx, &val));
            })
        });
    }
    match k {
        1 => bench_topk::<1>(&mut group, x, extras),
        50 => bench_topk::<50>(&mut group, x, extras),
        200 => bench_topk::<200>(&mut group, x, extras),
        1000 => bench_topk::<1000>(&mut group, x, extras),
        4096 => bench_topk::<4096>(&mut group, x, extras),
        _ => unreachable!("a k of KS"),
    }
    let mut all: Vec<(f32, u32)> = Vec::with_capacity(n);
    group.bench_function("sort", |b| {
        b.iter(|| {
            all.clear();
            all.extend(black_box(x).iter().copied().zip(0..));
            all.sort_unstable_by(best_first);
            black_box(&all[..k]);
        })
    });
    group.bench_function("select_nth", |b| {
        b.iter(|| {
            all.clear();
            all.extend(black_box(x).iter().copied().zip(0..));
            all.select_nth_unstable_by(k - 1, best_first);
            all[..k].sort_unstable_by(best_first);
            black_box(&all[..k]);
        })
    });
    let mut heap: BinaryHeap<Reverse<Ranked>> = BinaryHeap::with_capacity(k + 1);
    group.bench_function("BinaryHeap", |b| {
        b.iter(|| {
            heap.clear();
            for (&v, i) in black_box(x).iter().zip(0..) {
                let entry = Reverse(Ranked(v, i));
                if heap.len() < k {
                    heap.push(entry);
                } else if let Some(mut worst) = heap.peek_mut() {
                    if entry < *worst {
                        *worst = entry;
                    }
                }
            }
            black_box(&heap);
        })
    });
    group.finish();
}

/// The n to run: `TINYTOPK_BENCH_N` (comma-separated) or all of [`NS`].
fn chosen_ns() -> Vec<usize> {
    match std::env::var("TINYTOPK_BENCH_N") {
        Ok(list) => list
            .split(',')
            .map(|n| {
                n.trim()
                    .parse()
                    .expect("TINYTOPK_BENCH_N: a list of integers")
            })
            .collect(),
        Err(_) => NS.to_vec(),
    }
}

fn bench(c: &mut Criterion) {
    for n in chosen_ns() {
        for k in KS.into_iter().filter(|&k| k <= n) {
            for (shape, x) in shapes(n, k) {
                bench_group(c, shape, &x, k);
            }
        }
    }
}

criterion_group! {
    name = benches;
    // Many groups: short runs, so that `cargo bench` takes minutes. Medians are what the report
    // reads; expect noise on a shared machine.
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(150))
        .measurement_time(Duration::from_millis(400))
        .sample_size(10);
    targets = bench
}
criterion_main!(benches);
