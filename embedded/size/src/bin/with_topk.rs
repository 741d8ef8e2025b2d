//! `top_k_into::<f32>` and a streaming `TopK<f32, 40>` (push, extend_from_slice,
//! peek_worst, into_sorted), whose sorted entries go to the output buffers.
#![no_std]
#![no_main]

use tinytopk::{top_k_into, TopK};
use tinytopk_size::{keep, run, K};

#[cortex_m_rt::entry]
fn main() -> ! {
    run(|x, idx, val| {
        keep(top_k_into(x, idx, val));
        let mut top = TopK::<f32, K>::new();
        keep(top.push(x.first().copied().unwrap_or(0.0)));
        keep(top.extend_from_slice(x.get(1..).unwrap_or_default()));
        keep(top.peek_worst());
        for ((i, v), e) in idx
            .iter_mut()
            .zip(val.iter_mut())
            .zip(top.into_sorted().iter())
        {
            *i = e.index;
            *v = e.value;
        }
    })
}
