#!/usr/bin/env bash
# npm test: every test. Native cargo tests, the wasm build, then the browser tests.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=setup.sh
source "$ROOT/scripts/setup.sh"
cd "$ROOT"

say "cargo fmt --check"
cargo fmt --all --check >&2
say "cargo clippy (native, all targets)"
cargo clippy -q --workspace --all-targets -- -D warnings >&2

say "cargo test (native)"
cargo test -q --workspace >&2
cargo check -q --manifest-path crate/fuzz/Cargo.toml >&2 # the fuzz crate is outside the workspace

setup_toolchain
setup_wasm_clippy
say "cargo clippy (wasm32)"
env "${WASM_ENV[@]}" CARGO_TARGET_DIR="$ROOT/target/wasm-clippy" "${WASM_CLIPPY[@]}" -q --lib -p meshscope \
  --target wasm32-unknown-unknown "${WASM_FLAGS[@]}" -- -D warnings >&2

bash "$ROOT/scripts/build.sh"
setup_browser
setup_node

say "browser and node tests"
node --test --test-concurrency=1 tests/
