//! Puts the memory map of the board that runs this target where cortex-m-rt's `link.x` looks
//! for `memory.x`: mps2-an386 for the Cortex-M4F, microbit for the Cortex-M0.

use std::{env, fs, path::PathBuf};

fn main() {
    let target = env::var("TARGET").expect("cargo sets TARGET");
    let board = if target.starts_with("thumbv6m") {
        "memory/microbit.x"
    } else {
        "memory/mps2-an386.x"
    };
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::copy(board, out.join("memory.x")).expect("copy the memory map");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory");
    println!("cargo:rerun-if-changed=build.rs");
}
