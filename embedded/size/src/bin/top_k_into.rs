//! One call to `top_k_into::<f32>` with a runtime k.
#![no_std]
#![no_main]

#[cortex_m_rt::entry]
fn main() -> ! {
    tinytopk_size::run(tinytopk::top_k_into)
}
