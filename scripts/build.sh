#!/usr/bin/env bash
# Builds the wasm module into pkg/ (wasm-bindgen --target web). Steps already up to date are
# skipped: cargo is incremental, and wasm-bindgen runs only when its input is newer.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=setup.sh
source "$ROOT/scripts/setup.sh"
cd "$ROOT"

setup_toolchain
setup_bindgen

say "cargo build (wasm32, release)"
env "${WASM_ENV[@]}" CARGO_TARGET_DIR="$ROOT/target/wasm" "${WASM_CARGO[@]}" build -q --lib --release \
  --target wasm32-unknown-unknown "${WASM_FLAGS[@]}" -p meshscope >&2

WASM="$ROOT/target/wasm/wasm32-unknown-unknown/release/meshscope.wasm"
if ! [ -f pkg/meshscope_bg.wasm ] || [ "$WASM" -nt pkg/meshscope_bg.wasm ]; then
  say "wasm-bindgen --target web"
  wasm-bindgen --target web --out-dir pkg "$WASM"
  touch pkg/meshscope_bg.wasm
fi
say "pkg/ is up to date ($(wc -c < pkg/meshscope_bg.wasm) bytes of wasm)"
