#!/usr/bin/env bash
# One shard of the mutants of src/ (scripts/mutants.sh runs them all): every one must be
# caught. The shard changes with the day of the year, so that the runs of a week cover all;
# MUTANTS_SHARD picks one.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/platforms-lib.sh

shards=8
shard=${MUTANTS_SHARD:-$((10#$(date +%j) % shards))}
step scripts/mutants.sh --shard "$shard/$shards"
