#!/usr/bin/env bash
# The contract's cases on a Cortex-M4F (QEMU mps2-an386) and a Cortex-M0 (QEMU microbit),
# and proof that a failed check and a HardFault each fail the run; the link-time proof that
# no public API can panic (scripts/no_panic.sh); the stack and time of each API against their
# bars (scripts/stack_and_cycles.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

step rustup target add thumbv7em-none-eabihf thumbv6m-none-eabi
apt_install qemu-system-arm qemu-system-arm
# The crate itself, for a core with neither an FPU nor atomics.
step cargo build --target thumbv6m-none-eabi --no-default-features

cd embedded/qemu-m4
step cargo fmt --check
step cargo clippy --release --bins -- -D warnings
step cargo clippy --release --bins --features fast -- -D warnings
# The runner (.cargo/config.toml) is QEMU under `timeout`; stdin is closed for it. Both
# footprints: the plain heap (no `fast`) and the fast path.
step cargo run --release </dev/null
step cargo run --release --target thumbv6m-none-eabi </dev/null
step cargo run --release --features fast </dev/null
step cargo run --release --features fast --target thumbv6m-none-eabi </dev/null

# A failed check and a fault must end the run with a non-zero exit code.
for feature in fail-on-purpose fault-on-purpose; do
    echo "==> cargo run --release --features $feature (must fail)"
    # Its output is indented, so that its "N passed, 1 failed" is not read as this run's.
    if cargo run --release --quiet --features "$feature" </dev/null 2>&1 | sed 's/^/    | /'; then
        echo "error: the firmware with $feature exited 0" >&2
        exit 1
    fi
done

cd ../..
step scripts/no_panic.sh
# The stack (painted) and time (SysTick under -icount) of each API, at opt-level "s" (the
# bars are there; `PROFILES="release o3"` adds opt-level 3, as docs/BENCHMARKS.md shows).
PROFILES=release step scripts/stack_and_cycles.sh

step_summary .ci/platforms-embedded.sh
