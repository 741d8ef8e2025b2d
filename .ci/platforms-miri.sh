#!/usr/bin/env bash
# The crate's tests under Miri (fewer cases under Miri: cfg!(miri) in the tests): every test
# on a 64-bit usize, the SIMD module's tests with AVX2 enabled at build time (so that Miri
# checks the unsafe SIMD code), and a part of the tests on a 32-bit usize (Miri takes minutes
# per test file). The C ABI's tests under Miri are in .ci/capi.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

nightly
step cargo +"$NIGHTLY" miri test -p tinytopk
# The explicit AVX2 code, which Miri runs only when the build enables AVX2: its unsafe code
# checked against the portable code and the naive order by the unit tests of the module that
# holds it (MIRI_AVX2_FILTER; every unit test would take minutes more). Other RUSTFLAGS: their
# own target directory, so that they do not evict the build above. A filter that matches no
# test (the module renamed) fails the run rather than checking nothing.
filter=${MIRI_AVX2_FILTER:-arch::}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
miri_avx2_unit_tests() {
    RUSTFLAGS="-C target-feature=+avx2" cargo +"$NIGHTLY" miri test -p tinytopk \
        --no-default-features --features fast --lib --target-dir target/miri-avx2 -- "$1" | tee "$log"
}
step miri_avx2_unit_tests "$filter"
if ! grep -Eq '^test result: ok\. [1-9]' "$log"; then
    echo "error: no unit test matches '$filter' under Miri with AVX2:" \
        "set MIRI_AVX2_FILTER (.ci/platforms-miri.sh) to the module of the AVX2 code" >&2
    exit 1
fi
# criterion (a dev-dependency) builds a little C for the target: 32-bit headers for i686.
if ! dpkg -s gcc-multilib >/dev/null 2>&1; then
    step apt-get update -qq
    DEBIAN_FRONTEND=noninteractive step apt-get install -y -qq --no-install-recommends gcc-multilib
fi
# A 32-bit usize: the contract's cases and the shards' global indices (the test files with most
# of the u32::MAX and usize cases); every test runs under Miri above,
# on 64 bits, and every test file takes minutes more here.
step cargo +"$NIGHTLY" miri test -p tinytopk --target i686-unknown-linux-gnu \
    --test contract --test shard

step_summary .ci/platforms-miri.sh
