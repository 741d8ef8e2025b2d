#!/usr/bin/env bash
# Mutation testing of src/ with cargo-mutants (installed if missing): every mutant must be
# caught by the tests; the ones no test can catch are listed with the reason in
# .cargo/mutants.toml. Fails on a missed mutant. Without arguments it runs every mutant (the
# full sweep); extra arguments go to cargo mutants (e.g. --shard 0/64 as CI does, or --list).
# Results in mutants.out/.
set -euo pipefail
cd "$(dirname "$0")/.."
# The pinned cargo-mutants version and the installer, shared with CI.
. .ci/lib.sh

cargo_tool cargo-mutants "$CARGO_MUTANTS_VERSION"
# The properties run 64 cases per mutant, as in CI. A property that fails on a mutant is
# expected to: no shrinking of its case, and no regression file written for it (with
# --in-place it would land in tests/).
export PROPTEST_CASES="${PROPTEST_CASES:-64}" PROPTEST_MAX_SHRINK_ITERS=0
export PROPTEST_DISABLE_FAILURE_PERSISTENCE=true
# Every mutant relinks each test binary: without debug info that is several times faster.
export CARGO_PROFILE_DEV_DEBUG=0 CARGO_PROFILE_TEST_DEBUG=0
# A mutant changes one function: an incremental build redoes only what that touches (a build
# from scratch takes several times longer), even where CI turns incremental builds off.
export CARGO_INCREMENTAL=1
echo "==> cargo mutants $*"
status=0
cargo mutants "$@" || status=$?
# 3: some mutants made the tests run past the timeout (an endless sift loop): the tests did
# not pass on them, so they count as caught. cargo mutants says 3 even when it also missed
# some, so the list of missed mutants decides.
if [ "$status" -eq 3 ]; then
    if [ -s mutants.out/missed.txt ]; then
        echo "==> cargo mutants: missed mutants:" >&2
        cat mutants.out/missed.txt >&2
        exit 2
    fi
    echo "==> cargo mutants: no mutant missed; the timeouts above count as caught"
    status=0
fi
exit "$status"
