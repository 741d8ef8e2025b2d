#!/usr/bin/env bash
# CI for the fast path: the SIMD path compiled in at build time, with and without `std`, and
# the bench report on a small real run. The portable fallback without `std` is tested in
# .ci/features.sh (`cargo test --no-default-features`); the bench smoke run is in .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

# AVX2 known at compile time: the dispatch point compiles to the one copy. Other RUSTFLAGS:
# their own target directory, so that they do not evict the main build. The unit tests and the
# integration tests (the pre-filter's among them) reach the SIMD code.
if grep -q avx2 /proc/cpuinfo 2>/dev/null; then
    step env RUSTFLAGS="-C target-feature=+avx2" cargo test -p tinytopk --lib --test integration \
        --target-dir target/avx2
    # and without `std`: the AVX2 block test from the build's features, no detection (the
    # unit tests check the dispatch and the AVX2 block test against the portable one).
    step env RUSTFLAGS="-C target-feature=+avx2" cargo test -p tinytopk --no-default-features \
        --features fast --lib --target-dir target/avx2
fi
# The report turns a real (small) criterion run into its table and plot. Every feature, as in
# .ci/run's bench run, so that the same build serves both.
TINYTOPK_BENCH_N=49152 step cargo bench --all-features --bench topk -- 'normal/n=49152/k=50/'
step python3 scripts/bench_report.py --n 49152 --svg target/bench-ci.svg
test -s target/bench-ci.svg

step_summary .ci/fast.sh
