#!/usr/bin/env bash
# The link-time proof that no public API of the crate can panic: embedded/size's firmware
# `every_api` calls each of them on inputs the optimizer cannot see through, and its panic
# handler calls a function defined nowhere (the `panic-never` approach), so the link fails
# if any panic is reachable. Built for both footprints (without and with the `fast` feature),
# at opt-level "s" with LTO (the `release` profile) for a Cortex-M4F and a Cortex-M0, and at
# opt-level 3 without LTO (`o3`, a plain `--release`) for the Cortex-M4F. On a failed link
# the message names the undefined symbol; scripts/panic_callers.sh then lists the functions
# that call a panic. About 3 min from a clean target directory.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

cd embedded/size
for target in thumbv7em-none-eabihf thumbv6m-none-eabi; do
    rustup target add "$target" >/dev/null 2>&1 || step rustup target add "$target"
    # Opt-level 3 on the M4F only: its code is the M0's but for the instructions (the build
    # takes a minute).
    profiles=(release o3)
    [ "$target" = thumbv6m-none-eabi ] && profiles=(release)
    for features in "" "--features fast"; do
        for profile in "${profiles[@]}"; do
            # shellcheck disable=SC2086 # $features is zero or two words.
            step cargo build --quiet --target "$target" --profile "$profile" $features --bin every_api
        done
    done
done
# The proof can fail: a firmware with one reachable panic must not link.
echo "==> cargo build --profile release --features panic-on-purpose --bin every_api (must fail)"
log=$(cargo build --quiet --profile release --features panic-on-purpose --bin every_api 2>&1 || true)
if grep -q "undefined symbol: tinytopk_can_panic_here_the_link_fails" <<<"$log"; then
    echo "    the link failed on the undefined symbol, as it must"
else
    echo "error: every_api with panic-on-purpose did not fail to link on the panic" >&2
    exit 1
fi
echo "no panic is reachable from any public API: every_api linked for both footprints at opt-level \"s\" (M4F, M0) and 3 (M4F)"
step_summary scripts/no_panic.sh
