#!/usr/bin/env bash
# The flash a firmware pays for tinytopk: builds three minimal firmwares (embedded/size) for
# each footprint (the plain heap of `default-features = false`, and the `fast` feature) at
# opt-level "s" with LTO (`release`) and at opt-level 3 without LTO (`o3`, a plain
# `--release`), and prints the size of their .text section, and of all they put in flash
# (.vector_table, .text, .rodata), for a Cortex-M4F and a Cortex-M0:
#   baseline    the runtime and the inputs, no call to the crate
#   top_k_into  one call to top_k_into::<f32> (runtime k)
#   with_topk   top_k_into::<f32> and TopK<f32, 40> (push, extend_from_slice, peek_worst,
#               into_sorted, its entries written to the output buffers)
# The "+crate" columns subtract the baseline. For the plain footprint at "s" with LTO it says
# whether each firmware is within its bar (+crate .text: top_k_into 1,200 B, with_topk
# 3,000 B), and fails if one is not (CODE_SIZE_STRICT=0 only reports it: for a toolchain whose
# code generation differs from the one the bars were measured with). The row reaches the calls
# by a reference whose length the optimizer cannot see, as a runtime row would. Installs the
# llvm-tools component for llvm-size.
set -euo pipefail
cd "$(dirname "$0")/../embedded/size"

# The bars, in bytes of .text the crate adds, for the plain footprint at opt-level "s".
PLAIN_TOP_K_INTO_BAR=1200
PLAIN_WITH_TOPK_BAR=3000

rustup component add llvm-tools >/dev/null 2>&1 || rustup component add llvm-tools
llvm_size="$(rustc --print sysroot)/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin/llvm-size"

over=0
for target in thumbv7em-none-eabihf thumbv6m-none-eabi; do
    rustup target add "$target" >/dev/null 2>&1 || rustup target add "$target"
    for footprint in plain fast; do
        features=()
        [ "$footprint" = fast ] && features=(--features fast)
        for profile in release o3; do
            opt='"s" + LTO'
            [ "$profile" = o3 ] && opt='3, no LTO'
            echo "==> cargo build --profile $profile --target $target ${features[*]} (in embedded/size)"
            cargo build --profile "$profile" --target "$target" "${features[@]}" --quiet \
                --bin baseline --bin top_k_into --bin with_topk
            echo "$target, $footprint, opt-level $opt, bytes:"
            printf '  %-11s %6s %6s %12s %12s\n' firmware .text flash '+crate .text' '+crate flash'
            base_text=""
            for bin in baseline top_k_into with_topk; do
                sizes=$("$llvm_size" -A "target/$target/$profile/$bin")
                text=$(awk '$1 == ".text" { print $2 }' <<<"$sizes")
                flash=$(awk '$1 == ".vector_table" || $1 == ".text" || $1 == ".rodata" { s += $2 } END { print s }' <<<"$sizes")
                if [ -z "$base_text" ]; then
                    base_text=$text
                    base_flash=$flash
                fi
                added=$((text - base_text))
                printf '  %-11s %6d %6d %12d %12d\n' "$bin" "$text" "$flash" "$added" $((flash - base_flash))
                if [ "$footprint" = plain ] && [ "$profile" = release ]; then
                    bar=0
                    [ "$bin" = top_k_into ] && bar=$PLAIN_TOP_K_INTO_BAR
                    [ "$bin" = with_topk ] && bar=$PLAIN_WITH_TOPK_BAR
                    if [ "$bar" -gt 0 ] && [ "$added" -gt "$bar" ]; then
                        echo "  not met: $bin adds $added B of .text on $target, over its bar of $bar B"
                        over=1
                    elif [ "$bar" -gt 0 ]; then
                        echo "  met: $bin adds $added B of .text on $target, within its bar of $bar B"
                    fi
                fi
            done
        done
    done
done
if [ "$over" = 1 ] && [ "${CODE_SIZE_STRICT:-1}" = 1 ]; then
    exit 1
fi
