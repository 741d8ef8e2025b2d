#!/usr/bin/env bash
# The stack and the time of each API on a microcontroller: embedded/qemu-m4's firmware
# `measure` (src/bin/measure.rs) for both footprints (the plain heap of
# `default-features = false`, and the `fast` feature), at opt-level "s" with LTO (`release`)
# and at opt-level 3 without LTO (`o3`), on a Cortex-M4F (QEMU mps2-an386) and a Cortex-M0
# (QEMU microbit, stack only: its board has no SysTick to time by).
# - stack: the high-water mark of each call, by painting the stack (the dynamic figure);
# - time: SysTick ticks under QEMU's `-icount shift=3` (its virtual clock advances 8 ns per
#   instruction, SysTick at the board's 25 MHz), so ticks × 5 is about the instructions run:
#   QEMU models no pipeline, so these are instruction counts, not a real core's cycles;
# - the static figure: the frames `-Z emit-stack-sizes` gives (the pinned nightly), for the
#   crate's functions and the firmware's calls, at "s" on the M4F (a frame, not a path: the
#   painted figure is the path's).
# Fails if `top_k_into` or `SliceTopK::extend_from_slice` (f32) uses more than its bars
# of stack at opt-level "s" with LTO on either core: 320 B without `fast`, 2,048 B with it, at
# any k measured. About 1 min with both profiles once the dependencies are built.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

PLAIN_STACK_BAR=320
FAST_STACK_BAR=2048
# PROFILES="release" keeps it to opt-level "s" (CI's default: the o3 builds double the time).
PROFILES=${PROFILES:-release o3}

apt_install qemu-system-arm qemu-system-arm
cd embedded/qemu-m4
over=0
for target in thumbv7em-none-eabihf thumbv6m-none-eabi; do
    rustup target add "$target" >/dev/null 2>&1 || step rustup target add "$target"
    if [ "$target" = thumbv7em-none-eabihf ]; then
        qemu=(qemu-system-arm -cpu cortex-m4 -machine mps2-an386 -icount shift=3,align=off,sleep=off)
    else
        qemu=(qemu-system-arm -machine microbit)
    fi
    for footprint in plain fast; do
        features=()
        bar=$PLAIN_STACK_BAR
        if [ "$footprint" = fast ]; then
            features=(--features fast)
            bar=$FAST_STACK_BAR
        fi
        for profile in $PROFILES; do
            step cargo build --quiet --bin measure --target "$target" --profile "$profile" "${features[@]}"
            echo "--- $target, $footprint, profile $profile (opt-level $([ "$profile" = o3 ] && echo 3 || echo '"s" + LTO'))"
            out=$(timeout 300 "${qemu[@]}" -nographic -monitor none -serial none \
                -semihosting-config enable=on,target=native \
                -kernel "target/$target/$profile/measure" </dev/null)
            echo "$out"
            [ "$profile" = release ] || continue
            deepest=$(sed -nE 's/^(top_k_into|SliceTopK::extend_from_slice), k = [0-9]+: stack ([0-9]+) B.*/\2/p' <<<"$out" | sort -n | tail -n 1)
            if [ "${deepest:-0}" -gt "$bar" ]; then
                echo "error: $target, $footprint: an f32 top_k_into or extend_from_slice used $deepest B of stack, over the bar of $bar B" >&2
                over=1
            fi
        done
    done
done

# The static figure, with the pinned nightly's -Z emit-stack-sizes.
rustup run "$NIGHTLY" rustc --version >/dev/null 2>&1 ||
    step rustup toolchain install "$NIGHTLY" --profile minimal
rustup target add --toolchain "$NIGHTLY" thumbv7em-none-eabihf >/dev/null 2>&1 ||
    step rustup target add --toolchain "$NIGHTLY" thumbv7em-none-eabihf
rustup component add --toolchain "$NIGHTLY" llvm-tools >/dev/null 2>&1 ||
    step rustup component add --toolchain "$NIGHTLY" llvm-tools
readobj="$(rustup run "$NIGHTLY" rustc --print sysroot)/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin/llvm-readobj"
for footprint in plain fast; do
    features=()
    [ "$footprint" = fast ] && features=(--features fast)
    RUSTFLAGS="-C link-arg=-Tlink.x -Z emit-stack-sizes" step cargo +"$NIGHTLY" build --quiet \
        --bin measure --release --target thumbv7em-none-eabihf "${features[@]}" \
        --target-dir target/stack-sizes
    echo "--- static frames, thumbv7em-none-eabihf, $footprint, opt-level \"s\" + LTO (bytes, largest first)"
    "$readobj" --demangle --stack-sizes target/stack-sizes/thumbv7em-none-eabihf/release/measure |
        python3 -c '
import re, sys
text = sys.stdin.read()
rows = [(int(size, 16), name) for name, size in
        re.findall(r"Functions: \[(.*?)\]\s*\n\s*Size: (0x[0-9A-Fa-f]+)", text, re.S)]
rows = [row for row in sorted(rows, reverse=True) if "tinytopk::" in row[1] or "measure::api_" in row[1]]
for size, name in rows[:14]:
    print(f"  {size:6d}  {name[:150]}")
'
done
exit "$over"
