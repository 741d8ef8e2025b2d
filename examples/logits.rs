//! The main job: the top 40 of a Qwen2-sized row of logits (151,936 ids), by `TopK::push` and
//! by `top_k_into`, checked against a full sort of the row, with the time of each.
//!
//! ```text
//! cargo run --release --example logits
//! ```

use std::time::{Duration, Instant};

mod data;

use data::normal_logits;
use tinytopk::{top_k_into, TopK};

/// Qwen2's vocabulary.
const VOCAB: usize = 151_936;
/// A sampler's usual top_k.
const K: usize = 40;
/// Each method runs this many times; the fastest run is shown.
const RUNS: usize = 20;

fn main() -> Result<(), tinytopk::Error> {
    let logits = normal_logits(VOCAB, 0x5EED);

    // By push: a compile-time K, one value at a time, as a decoder streams a row.
    let (by_push, push_time) = fastest(|| {
        let mut top = TopK::<f32, K>::new();
        for &logit in &logits {
            top.push(logit)?;
        }
        Ok(top.into_sorted())
    })?;
    let push_ids: Vec<u32> = by_push.iter().map(|e| e.index).collect();

    // By top_k_into: a runtime k, straight into the sampler's buffers.
    let (into_ids, into_time) = fastest(|| {
        let (mut ids, mut values) = ([0_u32; K], [0.0_f32; K]);
        top_k_into(&logits, &mut ids, &mut values)?;
        Ok(ids)
    })?;

    // The reference: sort every (logit, id) by logit descending, then id ascending.
    let (sorted_ids, sort_time) = fastest(|| {
        let mut all: Vec<(f32, u32)> = logits.iter().copied().zip(0..).collect();
        all.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        Ok(all[..K].iter().map(|&(_, id)| id).collect::<Vec<u32>>())
    })?;

    assert_eq!(
        push_ids, sorted_ids,
        "TopK::push disagrees with the full sort"
    );
    assert_eq!(
        into_ids[..],
        sorted_ids[..],
        "top_k_into disagrees with the full sort"
    );

    println!("top {K} of {VOCAB} normal logits (fastest of {RUNS} runs each)");
    println!("  TopK::push    {:>9.1} µs", micros(push_time));
    println!("  top_k_into    {:>9.1} µs", micros(into_time));
    println!("  full sort     {:>9.1} µs", micros(sort_time));
    println!("all three agree; best ids: {:?}", &into_ids[..8]);
    println!(
        "best logits: {:?}",
        by_push.iter().take(8).map(|e| e.value).collect::<Vec<_>>()
    );
    Ok(())
}

/// Runs `job` [`RUNS`] times and returns its result and its fastest time.
fn fastest<R>(
    mut job: impl FnMut() -> Result<R, tinytopk::Error>,
) -> Result<(R, Duration), tinytopk::Error> {
    let mut best = Duration::MAX;
    let mut result = None;
    for _ in 0..RUNS {
        let start = Instant::now();
        let r = std::hint::black_box(job()?);
        best = best.min(start.elapsed());
        result = Some(r);
    }
    Ok((result.expect("RUNS > 0"), best))
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
