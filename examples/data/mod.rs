//! Seeded test data shared by the examples, the benches and the tests (included with
//! `#[path]`): a small generator and rows of logits.
#![allow(dead_code)]

// Named, for the crate's own unit tests, which include this module in a `no_std` crate.
use std::vec;
use std::vec::Vec;

/// A small deterministic generator (splitmix64), so that every run sees the same data.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in (0, 1].
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1_u64 << 53) as f64 + f64::EPSILON
    }

    /// A standard normal sample (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let (u, v) = (self.unit(), self.unit());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

/// `n` standard normal logits, seeded.
pub fn normal_logits(n: usize, seed: u64) -> Vec<f32> {
    let mut rng = Rng(seed);
    (0..n).map(|_| rng.normal() as f32).collect()
}

/// The rows the benches and the tests of the scan's bound run on, by name: logits as models
/// emit them, and orders built to defeat a pre-filter. `k` shapes the last one.
///
/// - `normal`: standard normal logits; `masked`: 99% `-inf`, the rest normal;
/// - `ascending` (every value would enter a heap filled from the front), `descending`, `equal`;
/// - `rising_masked`: ascending with every seventh value `-inf`;
/// - `sawtooth`: teeth of 37 values, each tooth's top above the last one's;
/// - `organ_pipe`: rising to the middle, then falling; `rise_fall`: rising for three quarters,
///   then falling;
/// - `anti_sample` and `anti_sample_high`: [`anti_sample`], low or high where the scan samples.
pub fn shapes(n: usize, k: usize) -> Vec<(&'static str, Vec<f32>)> {
    let mut rng = Rng(0xA5A5);
    let masked = normal_logits(n, 0x3A5C)
        .into_iter()
        .map(|v| {
            if rng.below(100) == 0 {
                v
            } else {
                f32::NEG_INFINITY
            }
        })
        .collect();
    let peak = 3 * n / 4;
    vec![
        ("normal", normal_logits(n, 0x5EED)),
        ("masked", masked),
        ("ascending", (0..n).map(|i| i as f32).collect()),
        ("descending", (0..n).map(|i| (n - i) as f32).collect()),
        ("equal", vec![1.0; n]),
        (
            "rising_masked",
            (0..n)
                .map(|i| {
                    if i % 7 == 3 {
                        f32::NEG_INFINITY
                    } else {
                        i as f32
                    }
                })
                .collect(),
        ),
        (
            "sawtooth",
            (0..n).map(|i| ((i % 37) * 8192 + i / 37) as f32).collect(),
        ),
        (
            "organ_pipe",
            (0..n).map(|i| i.min(n - 1 - i) as f32).collect(),
        ),
        (
            "rise_fall",
            (0..n)
                .map(|i| {
                    if i < peak {
                        i as f32
                    } else {
                        (2 * peak - i) as f32
                    }
                })
                .collect(),
        ),
        ("anti_sample", anti_sample(n, k, false)),
        ("anti_sample_high", anti_sample(n, k, true)),
    ]
}

/// A row built against the scan's sample for this k: the places the scan samples first (runs
/// of 16, one in each of `runs` equal stretches of the row, at a place a hash of the run's
/// number picks, rounded down to a multiple of 16, sized as `src/scan/threshold.rs` sizes
/// them) hold values below every other (`high == false`), so that the guess lets nearly
/// every value through, or above every other (`high == true`), so that fewer than k are above
/// it; the other values rise.
pub fn anti_sample(n: usize, k: usize, high: bool) -> Vec<f32> {
    /// The sample's run, as `src/scan/threshold.rs` has it.
    const RUN: usize = 16;
    let mut x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let size = (n / 16).min(45 * n / k.max(1));
    let runs = size / RUN;
    if runs >= 2 {
        let stride = n / runs;
        for run in 0..runs {
            let hash = (run as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
            let room = (stride - RUN) as u64 + 1;
            let at = ((run * stride + ((hash * room) >> 32) as usize) / RUN * RUN).min(n - RUN);
            for (i, v) in (at..).zip(&mut x[at..at + RUN]) {
                *v = if high {
                    (n + i) as f32
                } else {
                    -(i as f32) - 1.0
                };
            }
        }
    }
    x
}
