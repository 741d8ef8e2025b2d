#!/usr/bin/env bash
# CI for the fast path (issue 5): the portable fallback without `std` (no run-time dispatch),
# the SIMD path compiled in at build time, and the bench report on a small real run.
# The bench smoke run (`cargo bench -- --test`) is in .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

step() {
    echo "==> $*"
    "$@"
}

# Without `std`: no run-time detection, the portable scan only.
step cargo test --no-default-features --lib --test prefilter --test properties
# AVX2 known at compile time: the dispatch point compiles to the one copy.
if grep -q avx2 /proc/cpuinfo 2>/dev/null; then
    step env RUSTFLAGS="-C target-feature=+avx2" cargo test --lib --test prefilter \
        --target-dir target/avx2
    # and without `std`: the AVX2 block test from the build's features, no detection.
    step env RUSTFLAGS="-C target-feature=+avx2" cargo test --no-default-features --lib \
        --test prefilter --target-dir target/avx2
fi
# The report turns a real (small) criterion run into its table and plot.
TINYTOPK_BENCH_N=49152 step cargo bench --bench topk -- 'normal/n=49152/k=50/'
step python3 scripts/bench_report.py --n 49152 --svg target/bench-ci.svg
test -s target/bench-ci.svg
