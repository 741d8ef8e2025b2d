# Sourced by the .ci/platforms-*.sh scripts: print each step before it runs, and its time.
step() {
    echo "==> $*"
    local start=$SECONDS
    "$@"
    echo "    (${*:1:3}...: $((SECONDS - start)) s)"
}

# A cargo tool at a pinned version, built once per machine.
cargo_tool() {
    local name=$1 version=$2
    if "$name" --version 2>/dev/null | grep -q "$version"; then
        echo "==> $name $version: already installed"
    else
        step cargo install --locked "$name@$version"
    fi
}

# A rustup toolchain with its parts, for whatever the machine already has.
nightly() {
    if ! rustup run nightly rustc --version >/dev/null 2>&1; then
        step rustup toolchain install nightly --profile minimal
    fi
    step rustup component add --toolchain nightly "$@"
}
