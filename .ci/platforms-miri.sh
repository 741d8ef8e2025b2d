#!/usr/bin/env bash
# Miri on 64 and 32 bits. The crate's unsafe code is the AVX2 module (src/arch/avx2.rs) and
# the two slice casts of src/reverse.rs (both reached by the unit tests), and the C ABI's pointer code is checked under Miri in .ci/capi.sh; the rest is safe Rust,
# where Miri can find only what the tests find without it (a panic, a wrong answer). So Miri
# runs the unit tests and the contract's cases, which reach every public API; every test
# file, on 32 bits too, runs natively on wasm32 in .ci/platforms-wasm.sh. Fewer cases under
# Miri: cfg!(miri) in the tests. Every test file under Miri takes over an hour:
# CONTRIBUTING.md gives the commands.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

miri_prerequisites
# 64 bits, with AVX2 enabled at build time: Miri runs the explicit AVX2 code only then (it
# cannot detect CPU features), so the unit tests check that unsafe code against the portable
# code (which they force) and the naive order, and the contract's cases run through it. The
# portable code runs under Miri on 32 bits below. The AVX2 module's test must have run: a
# build that left it out (a changed cfg) fails here rather than checking nothing.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
miri_avx2() {
    RUSTFLAGS="-C target-feature=+avx2" cargo +"$NIGHTLY" miri test -p tinytopk \
        --target-dir target/miri-avx2 "$@"
}
miri_avx2_lib() {
    miri_avx2 --lib | tee "$log"
}
step miri_avx2_lib
if ! grep -q '^test arch::tests::the_avx2_block_test_is_the_portable_one \.\.\. ok$' "$log"; then
    echo "error: the AVX2 module's test did not run under Miri with AVX2" >&2
    exit 1
fi
# The contract's cases: the module `contract` of the one integration-test binary.
step miri_avx2 --test integration -- contract::
# A 32-bit usize: the contract's cases and the shards' global indices (u32::MAX and usize).
step cargo +"$NIGHTLY" miri test -p tinytopk --target i686-unknown-linux-gnu \
    --test integration -- contract:: shard::

step_summary .ci/platforms-miri.sh
