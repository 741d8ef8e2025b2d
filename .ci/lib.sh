# Sourced by every .ci/ script (and scripts/mutants.sh): the helpers they share, and the
# pinned versions of what they install, each named once here.

# The one nightly, for Miri and for cargo-fuzz. A dated nightly installs the same toolchain on
# every machine, with Miri in it, whatever the machine's own `nightly` is or has installed.
NIGHTLY=nightly-2026-05-20
# The cargo tools, at pinned versions: a new release cannot change what CI checks.
CARGO_FUZZ_VERSION=0.13.2
CARGO_MUTANTS_VERSION=27.1.0
# The minimum Rust version the README names.
MSRV=1.81

export CARGO_TERM_COLOR=never
# In CI: the same properties with fewer cases (CI machines are shared), and test builds
# made once from scratch, so without incremental state or debug info (a panic still names
# its test and message): each takes about half the time.
if [ "${CI:-}" = true ]; then
    export PROPTEST_CASES="${PROPTEST_CASES:-64}"
    export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
    export CARGO_PROFILE_DEV_DEBUG="${CARGO_PROFILE_DEV_DEBUG:-0}"
    export CARGO_PROFILE_TEST_DEBUG="${CARGO_PROFILE_TEST_DEBUG:-0}"
fi

# Prints a command, runs it, and prints how long it took; returns its exit code. The times
# are also kept, for step_summary.
STEP_TIMES=()
step() {
    echo "==> $*"
    local start=$SECONDS status=0
    "$@" || status=$?
    local took=$((SECONDS - start))
    echo "    ($took s: $*)"
    STEP_TIMES+=("$(printf '%5d s  %s' "$took" "$*")")
    return "$status"
}

# The time of each step this script ran, and the total since it started.
step_summary() {
    local name=$1 line
    echo "==> $name: the time of each step"
    for line in "${STEP_TIMES[@]}"; do
        echo "    $line"
    done
    echo "==> $name: all steps passed in $SECONDS s ($((SECONDS / 60)) min $((SECONDS % 60)) s)"
}

# Installs Debian packages when the command that needs them is missing.
apt_install() {
    local command=$1
    shift
    if ! command -v "$command" >/dev/null; then
        step apt-get update -qq
        DEBIAN_FRONTEND=noninteractive step apt-get install -y -qq --no-install-recommends "$@"
    fi
}

# A cargo tool at a pinned version, built once per machine. Asked through cargo: run alone,
# cargo-mutants takes no --version.
cargo_tool() {
    local name=$1 version=$2
    if cargo "${name#cargo-}" --version 2>/dev/null | grep -qF "$name $version"; then
        echo "==> $name $version: already installed"
    else
        step cargo install --locked "$name@$version"
    fi
}

# The repository's pinned compiler (rust-toolchain.toml names it, with the components and
# targets the scripts use), installed before anything runs beside the installs (Miri, in
# .ci/platforms.sh); a no-op once it is there.
pinned_toolchain() {
    (cd "$(dirname "${BASH_SOURCE[0]}")/.." && step rustup toolchain install)
}

# What Miri needs: the pinned nightly (`nightly`), and gcc-multilib, since criterion (a
# dev-dependency) builds a little C for the target and needs 32-bit headers for i686.
miri_prerequisites() {
    nightly
    if ! dpkg -s gcc-multilib >/dev/null 2>&1; then
        step apt-get update -qq
        DEBIAN_FRONTEND=noninteractive step apt-get install -y -qq --no-install-recommends gcc-multilib
    fi
}

# The pinned nightly with Miri and the standard library's source (Miri and the fuzz build
# compile their own std), and what the other scripts use of it (llvm-tools and the M4F's
# target, for the static stack figures of scripts/stack_and_cycles.sh), so that no install
# changes the toolchain while Miri runs from it in the background (.ci/platforms.sh). Does
# nothing but check when all of it is installed.
nightly() {
    if rustup run "$NIGHTLY" cargo miri --version >/dev/null 2>&1 &&
        [ -d "$(rustup run "$NIGHTLY" rustc --print sysroot)/lib/rustlib/src/rust/library" ]; then
        echo "==> $NIGHTLY with miri and rust-src: already installed"
    else
        step rustup toolchain install "$NIGHTLY" --profile minimal --component miri,rust-src
    fi
    rustup component add --toolchain "$NIGHTLY" llvm-tools >/dev/null 2>&1 ||
        step rustup component add --toolchain "$NIGHTLY" llvm-tools
    rustup target add --toolchain "$NIGHTLY" thumbv7em-none-eabihf >/dev/null 2>&1 ||
        step rustup target add --toolchain "$NIGHTLY" thumbv7em-none-eabihf
}
