//! A bf16 (and an f16) row ranked as it is, against converting it to f32 first and ranking
//! that, on a Qwen2-sized row of normal logits; the f32 row itself as the reference.
//!
//! `cargo bench --features half --bench half`; `-- --test` runs each once (CI).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use half::{bf16, f16};
#[path = "../examples/data/mod.rs"]
mod data;

use data::normal_logits;
use tinytopk::top_k_into;

const N: usize = 151_936;
const K: usize = 40;

fn bench(c: &mut Criterion) {
    let wide = normal_logits(N, 0x5EED);
    let brain: Vec<bf16> = wide.iter().map(|&v| bf16::from_f32(v)).collect();
    let ieee: Vec<f16> = wide.iter().map(|&v| f16::from_f32(v)).collect();
    let mut group = c.benchmark_group(format!("half/n={N}/k={K}"));

    group.bench_function(BenchmarkId::from_parameter("bf16 top_k_into"), |b| {
        let (mut idx, mut val) = ([0_u32; K], [bf16::ZERO; K]);
        b.iter(|| {
            top_k_into(black_box(&brain), &mut idx, &mut val).unwrap();
            black_box((&idx, &val));
        })
    });
    group.bench_function(
        BenchmarkId::from_parameter("bf16 to f32, then top_k_into"),
        |b| {
            let (mut idx, mut val) = ([0_u32; K], [0.0_f32; K]);
            let mut converted = vec![0.0_f32; N];
            b.iter(|| {
                for (out, v) in converted.iter_mut().zip(black_box(&brain)) {
                    *out = v.to_f32();
                }
                top_k_into(&converted, &mut idx, &mut val).unwrap();
                black_box((&idx, &val));
            })
        },
    );
    group.bench_function(BenchmarkId::from_parameter("f16 top_k_into"), |b| {
        let (mut idx, mut val) = ([0_u32; K], [f16::ZERO; K]);
        b.iter(|| {
            top_k_into(black_box(&ieee), &mut idx, &mut val).unwrap();
            black_box((&idx, &val));
        })
    });
    group.bench_function(
        BenchmarkId::from_parameter("f16 to f32, then top_k_into"),
        |b| {
            let (mut idx, mut val) = ([0_u32; K], [0.0_f32; K]);
            let mut converted = vec![0.0_f32; N];
            b.iter(|| {
                for (out, v) in converted.iter_mut().zip(black_box(&ieee)) {
                    *out = v.to_f32();
                }
                top_k_into(&converted, &mut idx, &mut val).unwrap();
                black_box((&idx, &val));
            })
        },
    );
    group.bench_function(
        BenchmarkId::from_parameter("f32 top_k_into (reference)"),
        |b| {
            let (mut idx, mut val) = ([0_u32; K], [0.0_f32; K]);
            b.iter(|| {
                top_k_into(black_box(&wide), &mut idx, &mut val).unwrap();
                black_box((&idx, &val));
            })
        },
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
