#!/usr/bin/env bash
# One shard of the mutants of src/ (scripts/mutants.sh without arguments runs them all): every
# one must be caught. The same shard on any day, so that a commit passes or fails CI whatever
# the date; MUTANTS_SHARD picks another. The full sweep is scripts/mutants.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

shards=64
shard=${MUTANTS_SHARD:-0}
step scripts/mutants.sh --shard "$shard/$shards"

step_summary .ci/platforms-mutants.sh
