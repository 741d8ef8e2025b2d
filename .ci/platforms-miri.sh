#!/usr/bin/env bash
# The crate's tests under Miri (fewer cases under Miri: cfg!(miri) in the tests), on a 64-bit
# usize with every test, on a 32-bit usize with the unit tests only (for time), and with AVX2 enabled at build
# time so that Miri checks the unsafe SIMD code. The C ABI's tests under Miri are in
# .ci/capi.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

nightly
step cargo +"$NIGHTLY" miri test -p tinytopk
# The explicit AVX2 code (src/), which Miri runs only when the build enables AVX2: its unsafe
# code checked against the portable code and the naive order by the unit tests. Other
# RUSTFLAGS: their own target directory, so that they do not evict the build above.
step env RUSTFLAGS="-C target-feature=+avx2" cargo +"$NIGHTLY" miri test -p tinytopk \
    --no-default-features --lib --target-dir target/miri-avx2
# criterion (a dev-dependency) builds a little C for the target: 32-bit headers for i686.
if ! dpkg -s gcc-multilib >/dev/null 2>&1; then
    step apt-get update -qq
    DEBIAN_FRONTEND=noninteractive step apt-get install -y -qq --no-install-recommends gcc-multilib
fi
# A 32-bit usize: the unit tests (every test runs under Miri above, on 64 bits).
step cargo +"$NIGHTLY" miri test -p tinytopk --target i686-unknown-linux-gnu --lib

step_summary .ci/platforms-miri.sh
