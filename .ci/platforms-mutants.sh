#!/usr/bin/env bash
# One shard of the mutants of src/ (scripts/mutants.sh without arguments runs them all): every
# one must be caught. The same shard on any day, so that a commit passes or fails CI whatever
# the date; MUTANTS_SHARD picks another. The full sweep is scripts/mutants.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

shards=64
shard=${MUTANTS_SHARD:-0}
# In the source tree (restored after each mutant), so that the builds reuse target/, where
# .ci/features.sh built the dependencies for the same tests with the same features (a copy
# would build them again); the crate itself is built once more, incrementally, for the
# baseline, since scripts/mutants.sh turns incremental builds on.
step scripts/mutants.sh --in-place --shard "$shard/$shards"

step_summary .ci/platforms-mutants.sh
