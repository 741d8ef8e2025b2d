#!/usr/bin/env bash
# CI for the optional features (issue 7): every feature alone and all together, the no_std
# build with half and serde, the benches and the sampler example once each, and the package.
set -euo pipefail
cd "$(dirname "$0")/.."

step() {
    echo "==> $*"
    "$@"
}

export CARGO_TERM_COLOR=never
if [ "${CI:-}" = true ]; then
    export PROPTEST_CASES="${PROPTEST_CASES:-64}"
fi

step rustup component add clippy
step rustup target add thumbv7em-none-eabihf

step cargo test --no-default-features
step cargo test --features half
step cargo test --features serde
step cargo test --features rayon
step cargo test --all-features

step cargo clippy --all-targets --all-features -- -D warnings
RUSTDOCFLAGS="-D warnings" step cargo doc --no-deps --all-features
# The core and the no_std features on a target without std or an allocator.
step cargo build --target thumbv7em-none-eabihf --no-default-features --features half,serde
# Every bench (bf16, rayon) runs once, timing nothing; the sampler example runs once.
step cargo bench --all-features -- --test
step cargo run --example sampler
# The package builds from what it ships (the root crate only, even beside workspace members).
step cargo publish --dry-run --allow-dirty -p tinytopk

echo "==> .ci/features.sh: all steps passed"
