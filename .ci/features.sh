#!/usr/bin/env bash
# CI for the optional features: the tests without default features (no `fast`: the plain heap),
# with `fast` alone (the portable fast path, no run-time dispatch) and with all of them; clippy on each feature alone and on all
# together; the no_std build with half and serde, the sampler example, and the package.
# The benches of every feature run once in .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

step rustup component add clippy
step rustup target add thumbv7em-none-eabihf

step cargo test --no-default-features
# The fast path without `std` (the portable block test, no run-time dispatch): the tests that
# reach the scan.
step cargo test -p tinytopk --no-default-features --features fast --lib --test prefilter \
    --test bounded --test contract
step cargo test --all-features
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
# The package builds from what it ships (the root crate only, even beside workspace members).
step cargo publish --dry-run --allow-dirty -p tinytopk

step_summary .ci/features.sh
