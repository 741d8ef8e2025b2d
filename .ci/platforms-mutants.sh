#!/usr/bin/env bash
# One shard of the mutants of src/ (scripts/mutants.sh without arguments runs them all): every
# one must be caught. The shard changes with the day of the year, so that the runs of a month
# cover all; MUTANTS_SHARD picks one.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

shards=32
shard=${MUTANTS_SHARD:-$((10#$(date +%j) % shards))}
step scripts/mutants.sh --shard "$shard/$shards"

step_summary .ci/platforms-mutants.sh
