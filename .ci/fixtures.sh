#!/usr/bin/env bash
# Parity fixtures (fixtures/FORMAT.md): the committed files are exactly what the Python
# reference generates, and every row reads back and agrees with it. `cargo test` (run by
# .ci/run) then runs every row through the Rust APIs (tests/integration/fixtures.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

apt_install python3 python3
step python3 --version

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
step python3 fixtures/reference.py generate "$scratch"

# The same set of files, each byte for byte the same.
committed=$(cd fixtures && ls -- *.txt)
generated=$(cd "$scratch" && ls)
if [ "$committed" != "$generated" ]; then
    echo "fixtures/*.txt are not the files the reference writes:" >&2
    diff <(echo "$committed") <(echo "$generated") >&2 || true
    exit 1
fi
echo "==> cmp each of fixtures/*.txt with what the reference wrote"
for f in $generated; do
    if ! cmp "fixtures/$f" "$scratch/$f"; then
        echo "fixtures/$f differs from what fixtures/reference.py generates;" \
            "regenerate with: python3 fixtures/reference.py generate fixtures" >&2
        exit 1
    fi
done

step python3 fixtures/reference.py check fixtures

step_summary .ci/fixtures.sh
