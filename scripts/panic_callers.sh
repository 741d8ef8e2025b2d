#!/usr/bin/env bash
# When scripts/no_panic.sh fails: which functions of embedded/size's `every_api` call a panic.
# Links it with the panic handler's undefined symbol defined (so that it links), then lists
# each function that branches to a panic entry of core (or arrayvec's), with the count.
# Usage: scripts/panic_callers.sh [cargo build options, e.g. --profile o3 --features fast]
set -euo pipefail
cd "$(dirname "$0")/../embedded/size"

rustup component add llvm-tools >/dev/null 2>&1 || rustup component add llvm-tools
objdump="$(rustc --print sysroot)/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin/llvm-objdump"
target_dir=target/panic-callers
RUSTFLAGS="-C link-arg=-Tlink.x -C link-arg=--defsym=tinytopk_can_panic_here_the_link_fails=0" \
    cargo build --quiet --bin every_api --target-dir "$target_dir" "$@"
# The one just built: the newest, whatever the profile.
elf=$(ls -t $(find "$target_dir" -name every_api -type f) | head -n 1)
"$objdump" -d -C --no-show-raw-insn "$elf" | awk '
/^[0-9a-f]+ <.*>:$/ { fn = $0; sub(/^[0-9a-f]+ </, "", fn); sub(/>:$/, "", fn); next }
/\tb[a-z.]*\t/ && /<(core::panicking|core::slice::index|core::result::unwrap_failed|core::option::unwrap_failed|core::option::expect_failed|arrayvec::arrayvec::extend_panic)/ {
    callee = $0; sub(/.*</, "", callee); sub(/>.*/, "", callee); sub(/\+0x.*/, "", callee)
    if (fn !~ /^(core::panicking|core::slice::index|core::result|core::option|arrayvec::arrayvec::extend_panic)/)
        print fn " -> " callee
}' | sort | uniq -c
