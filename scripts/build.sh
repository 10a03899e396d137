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

say "cargo rustc (wasm32 cdylib, release)"
# Without LTO: in wasm it made the module larger and the census no faster (docs/performance.md).
env "${WASM_ENV[@]}" CARGO_PROFILE_RELEASE_LTO=off CARGO_TARGET_DIR="$ROOT/target/wasm" "${WASM_CARGO[@]}" rustc -q --lib --release \
  --crate-type cdylib --target wasm32-unknown-unknown "${WASM_FLAGS[@]}" -p meshscope >&2

WASM="$ROOT/target/wasm/wasm32-unknown-unknown/release/meshscope.wasm"
# wasm-opt runs on rustc's output, before wasm-bindgen: Debian's binaryen 108 rewrites the
# externref table wasm-bindgen adds into one browsers refuse. The features are rustc's.
setup_wasm_opt
if command -v wasm-opt >/dev/null; then
  OPT="$ROOT/target/wasm/opt/meshscope.wasm"
  if ! [ -f "$OPT" ] || [ "$WASM" -nt "$OPT" ]; then
    say "wasm-opt -O3"
    mkdir -p "$(dirname "$OPT")"
    wasm-opt -O3 --enable-simd --enable-bulk-memory --enable-sign-ext --enable-nontrapping-float-to-int \
      --enable-mutable-globals --enable-multivalue --enable-reference-types "$WASM" -o "$OPT.tmp"
    mv "$OPT.tmp" "$OPT"
  fi
  WASM="$OPT"
else
  say "no wasm-opt (Debian's binaryen): pkg/ gets the wasm unoptimized"
fi
if ! [ -f pkg/meshscope_bg.wasm ] || [ "$WASM" -nt pkg/meshscope_bg.wasm ]; then
  say "wasm-bindgen --target web"
  wasm-bindgen --target web --remove-name-section --remove-producers-section --out-dir pkg "$WASM"
  touch pkg/meshscope_bg.wasm
fi
say "pkg/ is up to date ($(wc -c < pkg/meshscope_bg.wasm) bytes of wasm)"
