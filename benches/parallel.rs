//! The rayon paths against the single-threaded ones, on the same data: one long row split
//! into shards (`par_top_k_into` vs `top_k_into`) and a batch of rows (`par_top_k_rows` vs
//! `top_k_rows`). The speedup is bounded by the machine's cores (2 here).
//!
//! `cargo bench --features rayon --bench parallel`; `-- --test` runs each once (CI).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
#[path = "../examples/data/mod.rs"]
mod data;

use data::normal_logits;
use tinytopk::{par_top_k_into, par_top_k_rows, top_k_into, top_k_rows};

const K: usize = 40;

fn one_row(c: &mut Criterion) {
    for n in [151_936, 1 << 20] {
        let x = normal_logits(n, 0x5EED);
        let mut group = c.benchmark_group(format!("one row/n={n}/k={K}"));
        group.bench_function(BenchmarkId::from_parameter("top_k_into"), |b| {
            let (mut idx, mut val) = ([0_u32; K], [0.0_f32; K]);
            b.iter(|| {
                top_k_into(black_box(&x), &mut idx, &mut val).unwrap();
                black_box((&idx, &val));
            })
        });
        group.bench_function(BenchmarkId::from_parameter("par_top_k_into"), |b| {
            let (mut idx, mut val) = ([0_u32; K], [0.0_f32; K]);
            b.iter(|| {
                par_top_k_into(black_box(&x), &mut idx, &mut val).unwrap();
                black_box((&idx, &val));
            })
        });
        group.finish();
    }
}

fn batch(c: &mut Criterion) {
    const N: usize = 151_936;
    const ROWS: usize = 16;
    let x = normal_logits(ROWS * N, 0xBA7C);
    let mut group = c.benchmark_group(format!("batch/rows={ROWS}/n={N}/k={K}"));
    group.bench_function(BenchmarkId::from_parameter("top_k_rows"), |b| {
        let (mut idx, mut val) = (vec![0_u32; ROWS * K], vec![0.0_f32; ROWS * K]);
        b.iter(|| {
            top_k_rows(black_box(&x), N, &mut idx, &mut val).unwrap();
            black_box((&idx, &val));
        })
    });
    group.bench_function(BenchmarkId::from_parameter("par_top_k_rows"), |b| {
        let (mut idx, mut val) = (vec![0_u32; ROWS * K], vec![0.0_f32; ROWS * K]);
        b.iter(|| {
            par_top_k_rows(black_box(&x), N, &mut idx, &mut val).unwrap();
            black_box((&idx, &val));
        })
    });
    group.finish();
}

criterion_group!(benches, one_row, batch);
criterion_main!(benches);
