#!/usr/bin/env bash
# Issue 6: the crate runs where its users run. Each part prints what it ran and fails the run
# when it fails: a Cortex-M4F and a Cortex-M0 under QEMU, wasm under node, Miri on 64 and
# 32 bits, fuzzing, a sample of the mutants, and the code size.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
.ci/platforms-embedded.sh
.ci/platforms-wasm.sh
.ci/platforms-miri.sh
.ci/platforms-fuzz.sh
.ci/platforms-mutants.sh
echo "==> scripts/code_size.sh"
scripts/code_size.sh
echo "==> .ci/platforms.sh: all passed in $((SECONDS - start)) s"
