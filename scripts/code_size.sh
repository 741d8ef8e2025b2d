#!/usr/bin/env bash
# The flash a firmware pays for tinytopk: builds three minimal firmwares (embedded/size) at
# opt-level = "s" with LTO, and prints the size of their .text section, and of all they put
# in flash (.vector_table, .text, .rodata), for a Cortex-M4F and a Cortex-M0:
#   baseline    the runtime and the inputs, no call to the crate
#   top_k_into  one call to top_k_into::<f32> (runtime k)
#   with_topk   top_k_into::<f32> and TopK<f32, 40> (push, extend_from_slice, peek_worst, into_sorted)
# The "+crate" columns subtract the baseline. Installs the llvm-tools component for llvm-size.
set -euo pipefail
cd "$(dirname "$0")/../embedded/size"

rustup component add llvm-tools >/dev/null 2>&1 || rustup component add llvm-tools
llvm_size="$(rustc --print sysroot)/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin/llvm-size"

for target in thumbv7em-none-eabihf thumbv6m-none-eabi; do
    rustup target add "$target" >/dev/null 2>&1 || rustup target add "$target"
    echo "==> cargo build --release --target $target (in embedded/size)"
    cargo build --release --target "$target" --quiet
    echo "$target, opt-level = \"s\", bytes:"
    printf '  %-11s %6s %6s %12s %12s\n' firmware .text flash '+crate .text' '+crate flash'
    base_text=""
    for bin in baseline top_k_into with_topk; do
        sizes=$("$llvm_size" -A "target/$target/release/$bin")
        text=$(awk '$1 == ".text" { print $2 }' <<<"$sizes")
        flash=$(awk '$1 == ".vector_table" || $1 == ".text" || $1 == ".rodata" { s += $2 } END { print s }' <<<"$sizes")
        if [ -z "$base_text" ]; then
            base_text=$text
            base_flash=$flash
        fi
        printf '  %-11s %6d %6d %12d %12d\n' "$bin" "$text" "$flash" $((text - base_text)) $((flash - base_flash))
    done
done
