#!/usr/bin/env bash
# CI for the C ABI (capi/): the header compiles alone as C11 and C++17 under -Werror, C++
# links and calls it, the C example builds against the release static library and runs, and
# Miri runs the Rust tests of the unsafe pointer code. The sanitized C catalog itself runs in
# `cargo test` (capi/tests/c_test.rs), which .ci/run runs before this script.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

apt_install gcc gcc g++ libc6-dev
apt_install g++ g++

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
strict=(-Wall -Wextra -Wpedantic -Werror -I capi/include)

# The header alone, included twice (the guard), as C11 and as C++17.
printf '#include <tinyllm/topk.h>\n#include <tinyllm/topk.h>\n' >"$out/twice.h.c"
step gcc -std=c11 "${strict[@]}" -fsyntax-only "$out/twice.h.c"
step g++ -std=c++17 "${strict[@]}" -fsyntax-only -x c++ "$out/twice.h.c"

step cargo build --release -p tinytopk-capi
lib=target/release/libtinytopk_capi.a
libs=(-lpthread -ldl -lm)

# C++ calls it: the extern "C" block gives the unmangled symbol the library exports.
cat >"$out/call.cpp" <<'CPP'
#include <tinyllm/topk.h>
#include <cstdio>
int main() {
    const float x[5] = {1, 3, 2, 3, -1};
    int32_t idx[3];
    float val[3];
    tl_status s = tl_topk_f32(x, 5, 3, idx, val);
    bool ok = s == TL_OK && idx[0] == 1 && idx[1] == 3 && idx[2] == 2 && val[2] == 2.0f &&
              tl_topk_f32(nullptr, 1, 1, idx, val) == TL_EINVAL;
    std::printf("C++17: %s\n", ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
CPP
step g++ -std=c++17 "${strict[@]}" "$out/call.cpp" "$lib" "${libs[@]}" -o "$out/call"
step "$out/call"

# The C example, built as the README says.
step gcc -std=c11 "${strict[@]}" capi/examples/top_logits.c "$lib" "${libs[@]}" -o "$out/top_logits"
step "$out/top_logits"

# Miri on the Rust tests of the FFI (raw pointers to slices, uninitialised outputs).
nightly
step cargo +"$NIGHTLY" miri test -p tinytopk-capi --test ffi

step_summary .ci/capi.sh
