//! top_k_into and TopK::push against a full sort, on a Qwen2-sized row of normal logits.
//!
//! `cargo bench` times them; `cargo bench -- --test` runs each once (CI).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
#[path = "../examples/data/mod.rs"]
mod data;

use data::normal_logits;
use tinytopk::{top_k_into, TopK};

const N: usize = 151_936;
const K: usize = 40;

fn bench(c: &mut Criterion) {
    let x = normal_logits(N, 0x5EED);
    let mut group = c.benchmark_group(format!("normal/n={N}/k={K}"));

    group.bench_function(BenchmarkId::from_parameter("top_k_into"), |b| {
        let (mut idx, mut val) = ([0_u32; K], [0.0_f32; K]);
        b.iter(|| {
            top_k_into(black_box(&x), &mut idx, &mut val).unwrap();
            black_box((&idx, &val));
        })
    });
    group.bench_function(BenchmarkId::from_parameter("TopK::push"), |b| {
        b.iter(|| {
            let mut top = TopK::<f32, K>::new();
            for &v in black_box(&x) {
                top.push(v).unwrap();
            }
            black_box(top.into_sorted())
        })
    });
    group.bench_function(BenchmarkId::from_parameter("sort_unstable_by"), |b| {
        let mut all: Vec<(f32, u32)> = Vec::with_capacity(N);
        b.iter(|| {
            all.clear();
            all.extend(black_box(&x).iter().copied().zip(0..));
            all.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            black_box(&all[..K]);
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
