#!/usr/bin/env bash
# The crate runs where its users run. Each part prints what it ran and fails the run when it
# fails: a Cortex-M4F and a Cortex-M0 under QEMU, wasm under node, Miri on 64 and 32 bits,
# fuzzing, a shard of the mutants, and the code size.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

# Miri interprets the tests on one core for minutes: it runs beside the parts that mostly
# build, and its output is printed when it ends. Its installs come first (the pinned
# nightly with all that any script uses of it, gcc-multilib), so that nothing installs while
# it runs; it ends before the mutant shard, which changes src/ in place. In a session of its
# own, so that a failure of the parts beside it stops it and all it started, and its output
# so far is printed. The repository's pinned compiler is installed first too.
miri_prerequisites
pinned_toolchain
miri_log=$(mktemp)
miri_start=$SECONDS
setsid -w .ci/platforms-miri.sh >"$miri_log" 2>&1 &
miri_pid=$!
stop_miri() {
    if kill -0 "$miri_pid" 2>/dev/null; then
        kill -- -"$miri_pid" 2>/dev/null || true
        echo "==> .ci/platforms-miri.sh stopped, as a part beside it failed; its output so far:"
        cat "$miri_log"
    fi
    rm -f "$miri_log"
}
trap stop_miri EXIT

step .ci/platforms-embedded.sh
step .ci/platforms-wasm.sh
step .ci/platforms-fuzz.sh

miri_status=0
wait "$miri_pid" || miri_status=$?
echo "==> .ci/platforms-miri.sh (beside the parts above): its output"
cat "$miri_log"
STEP_TIMES+=("$(printf '%5d s  %s' $((SECONDS - miri_start)) '.ci/platforms-miri.sh (beside the three above, until all four ended)')")
if [ "$miri_status" -ne 0 ]; then
    echo "error: .ci/platforms-miri.sh failed ($miri_status)" >&2
    exit "$miri_status"
fi

step .ci/platforms-mutants.sh
step scripts/code_size.sh

step_summary .ci/platforms.sh
