//! A token sampler, the one a wasm or embedded user would copy: temperature, top-k with this
//! crate, a numerically stable softmax over the kept entries, min-p and top-p over them in
//! best-first order, and a seeded draw from a small generator. The sampling path allocates
//! nothing: every buffer is a fixed array of `TOP_K` places on the stack.
//!
//! ```text
//! cargo run --release --example sampler
//! ```
//!
//! Only `main` uses `std` (to make a row of logits and print); `sample` and everything it
//! calls would build under `#![no_std]`, with `libm::expf` in place of `f32::exp`.

mod data;

use data::normal_logits;
use tinytopk::{Error, TopK};

/// Qwen2's vocabulary.
const VOCAB: usize = 151_936;
/// The most candidates a draw considers: llama.cpp's and Hugging Face's default top_k.
const TOP_K: usize = 40;

/// How a token is picked from a row of logits.
#[derive(Clone, Copy, Debug)]
struct Settings {
    /// Divides the logits: below 1 sharpens the distribution, above 1 flattens it; 0 (or
    /// less) is greedy, the best id every time.
    temperature: f32,
    /// Keeps only candidates whose probability is at least `min_p` times the best one's
    /// (0 keeps all).
    min_p: f32,
    /// Keeps the fewest best candidates whose probabilities add up to at least `top_p`
    /// (1 keeps all).
    top_p: f32,
}

/// A small seeded generator for `no_std`: xorshift64* (Vigna, 2016), 64 bits of state.
struct XorShift64Star(u64);

impl XorShift64Star {
    /// A generator from a seed; the state must not be 0.
    fn new(seed: u64) -> Self {
        XorShift64Star(seed | 1)
    }

    /// Uniform in `[0, 1)`, from the top 24 bits (an f32's precision).
    fn next_unit(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let bits = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40;
        bits as f32 / (1_u32 << 24) as f32
    }
}

/// `e^x`. Under `no_std`, use `libm::expf(x)`.
fn exp(x: f32) -> f32 {
    x.exp()
}

/// The candidates of one draw, best first: ids and their (unnormalized) weights.
struct Candidates {
    ids: [u32; TOP_K],
    weights: [f32; TOP_K],
    len: usize,
}

/// Steps 1 to 4: the candidates that survive top-k, min-p and top-p, with their weights.
fn candidates(logits: &[f32], settings: &Settings) -> Result<Candidates, Error> {
    // 1. Top-k. The selector's heap is a fixed array of TOP_K entries; one pass over the row,
    //    and a NaN logit is an error naming its id rather than a silent wrong pick. The
    //    entries come out best first, ties by the lower id, the same on every platform.
    //    Temperature is applied after: dividing by T > 0 keeps the order, so the top k are
    //    the same, and only TOP_K values need dividing rather than the whole vocabulary.
    let mut top = TopK::<f32, TOP_K>::new();
    top.extend_from_slice(logits)?;
    let kept = top.into_sorted();
    let Some(best) = kept.first() else {
        return Err(Error::KTooLarge { k: 1, n: 0 });
    };

    let mut out = Candidates {
        ids: [0; TOP_K],
        weights: [0.0; TOP_K],
        len: kept.len(),
    };
    for (id, entry) in out.ids.iter_mut().zip(&kept) {
        *id = entry.index;
    }

    // Greedy: the best id alone (ties already went to the lower id).
    if settings.temperature <= 0.0 {
        out.len = 1;
        out.weights[0] = 1.0;
        return Ok(out);
    }

    // 2. A numerically stable softmax: exp((l - max) / T), where max is the first kept
    //    logit, so every exponent is <= 0, no weight overflows and the best weighs exactly 1.
    //    The division by the sum is left to the draw. An infinite best (all masked at -inf,
    //    or a +inf) would give inf - inf = NaN: the values equal to the best weigh 1 then,
    //    which is the limit of the finite case.
    for (weight, entry) in out.weights.iter_mut().zip(&kept) {
        *weight = if entry.value == best.value {
            1.0
        } else {
            exp((entry.value - best.value) / settings.temperature)
        };
    }

    // 3. Min-p: a candidate stays if its probability is at least min_p times the best one's.
    //    The weights are best first and the best weighs 1, so the survivors are a prefix: the
    //    candidates before the first weight below min_p.
    out.len = out.weights[..out.len]
        .iter()
        .position(|&w| w < settings.min_p)
        .unwrap_or(out.len)
        .max(1);

    // 4. Top-p (nucleus): the shortest best-first prefix whose probability reaches top_p.
    //    The probabilities are the weights over their sum, so compare running sums of weights
    //    with top_p times the total. At least one candidate always stays.
    let total: f32 = out.weights[..out.len].iter().sum();
    let mut running = 0.0;
    for (i, &w) in out.weights[..out.len].iter().enumerate() {
        running += w;
        if running >= settings.top_p * total {
            out.len = i + 1;
            break;
        }
    }
    Ok(out)
}

/// Picks one id from a row of logits.
fn sample(logits: &[f32], settings: &Settings, rng: &mut XorShift64Star) -> Result<u32, Error> {
    let c = candidates(logits, settings)?;
    // 5. The draw: a uniform point in [0, total) falls in one candidate's share of the
    //    running sum. Rounding can leave the point at the very end: the last candidate then.
    let total: f32 = c.weights[..c.len].iter().sum();
    let point = rng.next_unit() * total;
    let mut running = 0.0;
    for (&id, &w) in c.ids[..c.len].iter().zip(&c.weights) {
        running += w;
        if point < running {
            return Ok(id);
        }
    }
    Ok(c.ids[c.len - 1])
}

fn main() -> Result<(), Error> {
    // A row of logits as a model would emit: normal, scaled so that a few ids stand out.
    let logits: Vec<f32> = normal_logits(VOCAB, 0x5EED)
        .iter()
        .map(|l| 3.0 * l)
        .collect();
    let settings = [
        (
            "greedy",
            Settings {
                temperature: 0.0,
                min_p: 0.0,
                top_p: 1.0,
            },
        ),
        (
            "T = 1, top-k 40",
            Settings {
                temperature: 1.0,
                min_p: 0.0,
                top_p: 1.0,
            },
        ),
        (
            "T = 0.8, top-p 0.9",
            Settings {
                temperature: 0.8,
                min_p: 0.0,
                top_p: 0.9,
            },
        ),
        (
            "T = 1, min-p 0.1",
            Settings {
                temperature: 1.0,
                min_p: 0.1,
                top_p: 1.0,
            },
        ),
    ];

    for (name, s) in &settings {
        let c = candidates(&logits, s)?;
        let total: f32 = c.weights[..c.len].iter().sum();
        print!("{name:>20}: {:>2} candidates, best", c.len);
        for (id, w) in c.ids.iter().zip(&c.weights).take(c.len.min(3)) {
            print!(" {id} (p = {:.3})", w / total);
        }
        println!();

        let mut rng = XorShift64Star::new(42);
        let mut picks = [0_u32; 12];
        for pick in &mut picks {
            *pick = sample(&logits, s, &mut rng)?;
        }
        println!("{:>20}  picks (seed 42): {picks:?}", "");
    }

    // A NaN in the row is an error naming its id, not a silent pick.
    let mut broken = logits.clone();
    broken[1234] = f32::NAN;
    let mut rng = XorShift64Star::new(42);
    println!(
        "with a NaN at id 1234: {}",
        sample(&broken, &settings[1].1, &mut rng).unwrap_err()
    );
    Ok(())
}
