#!/usr/bin/env bash
# The crate runs where its users run. Each part prints what it ran and fails the run when it
# fails: a Cortex-M4F and a Cortex-M0 under QEMU, wasm under node, Miri on 64 and 32 bits,
# fuzzing, a shard of the mutants, and the code size.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

step .ci/platforms-embedded.sh
step .ci/platforms-wasm.sh
step .ci/platforms-miri.sh
step .ci/platforms-fuzz.sh
step .ci/platforms-mutants.sh
step scripts/code_size.sh

step_summary .ci/platforms.sh
