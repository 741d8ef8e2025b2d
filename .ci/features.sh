#!/usr/bin/env bash
# CI for the optional features: the tests without default features (no `fast`: the plain heap),
# with `fast` alone (no `std`) and with all of them; clippy on each feature alone and on all
# together; the no_std build with half and serde, the sampler example, and the package, which
# is unpacked and tested on its own.
# The benches of every feature run once in .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

step rustup component add clippy
step rustup target add thumbv7em-none-eabihf

step cargo test --no-default-features
# The fast path without `std` (AVX2 still detected at run time, by CPUID).
step cargo test -p tinytopk --no-default-features --features fast --tests
# Every feature together: the tests (the feature-gated modules among them, and the fixtures
# of f16 and bf16), and the doctests of the gated items. The same features and targets as the
# mutant shard's (.cargo/mutants.toml: every feature, --tests), which then finds the
# dependencies built.
step cargo test -p tinytopk --all-features --tests
step cargo test -p tinytopk --all-features --doc
# Each feature alone (without the default ones) compiles without warnings, its tests and
# benches with it. Checking is enough to find code that needs another feature; the tests of
# each run in the steps above.
for feature in fast half serde rayon; do
    step cargo clippy -p tinytopk --all-targets --no-default-features --features "$feature" \
        -- -D warnings
done
step cargo clippy --all-targets --all-features -- -D warnings
RUSTDOCFLAGS="-D warnings" step cargo doc --no-deps --all-features
# The core and the no_std features on a target without std or an allocator.
step cargo build --target thumbv7em-none-eabihf --no-default-features --features half,serde
step cargo run --example sampler
# The package passes its own tests: the .crate (the root crate only, even beside workspace
# members) unpacked outside the workspace and tested as a user would, with `cargo test` (in
# this target directory, so that the dependencies are not built again). Packaging checks the
# metadata a publish needs.
step cargo package --allow-dirty --no-verify -p tinytopk
version=$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "tinytopk"))')
unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
step tar -xzf "target/package/tinytopk-$version.crate" -C "$unpacked"
CARGO_TARGET_DIR="$PWD/target" step env -C "$unpacked/tinytopk-$version" cargo test --locked

step_summary .ci/features.sh
