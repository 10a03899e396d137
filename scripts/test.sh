#!/usr/bin/env bash
# npm test: every test. Native cargo tests, the wasm build, then the browser tests.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=setup.sh
source "$ROOT/scripts/setup.sh"
cd "$ROOT"

say "cargo test (native)"
cargo test -q --workspace >&2
cargo check -q --manifest-path crate/fuzz/Cargo.toml >&2 # the fuzz crate is outside the workspace

bash "$ROOT/scripts/build.sh"
setup_browser
setup_node

say "browser and node tests"
node --test --test-concurrency=1 tests/
