#!/usr/bin/env bash
# Installs what the build and the tests need, only where it is missing, and never waits on a
# download that cannot happen. Sourced by build.sh and test.sh; run alone it sets up everything.
#
#   toolchain  a cargo + rustc that can build wasm32-unknown-unknown (exported as WASM_CARGO
#              and WASM_FLAGS). Prefers the active toolchain when it already has the wasm32
#              std (a developer laptop with rustup); falls back to Debian's rustc-web with
#              build-std (rustup cannot download the target on our machines).
#   bindgen    wasm-bindgen-cli at exactly the version in Cargo.lock.
#   browser    Debian's chromium, for the browser tests.
#   node       the npm packages (playwright-core, gltf-validator).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
APT_UPDATED="${APT_UPDATED:-}"

say() { printf '[setup] %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    say "need root to run: $*"; return 1; fi
}

apt_install() {
  command -v apt-get >/dev/null || { say "no apt-get here: install $* by hand"; return 1; }
  if [ -z "$APT_UPDATED" ]; then
    say "apt-get update"
    as_root apt-get update -qq >/dev/null
    APT_UPDATED=1
  fi
  say "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null
}

# Does this rustc already have a wasm32 std?
has_wasm_std() {
  local sysroot
  sysroot="$("$1" --print sysroot 2>/dev/null)" || return 1
  [ -d "$sysroot/lib/rustlib/wasm32-unknown-unknown/lib" ]
}

setup_toolchain() {
  if command -v rustc >/dev/null && has_wasm_std rustc; then
    WASM_CARGO=(cargo)
    WASM_FLAGS=()
    WASM_ENV=()
    return
  fi
  local have_debian=1
  [ -x /usr/bin/rustc ] && [ -x /usr/bin/cargo ] || have_debian=0
  [ -d /usr/lib/rustlib/src/rust/library ] || have_debian=0
  command -v wasm-ld-22 >/dev/null || have_debian=0
  if [ "$have_debian" = 0 ]; then
    apt_install rustc-web cargo-web rust-web-src lld-22
  fi
  # Debian's cargo and rustc, not rustup's proxies that come first on PATH.
  WASM_CARGO=(/usr/bin/cargo)
  WASM_FLAGS=(-Z build-std=std,panic_abort)
  WASM_ENV=(RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1)
}

lock_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock"
}

setup_bindgen() {
  local want have
  if ! [ -f "$ROOT/Cargo.lock" ]; then (cd "$ROOT" && cargo generate-lockfile -q); fi
  want="$(lock_version)"
  have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" || true
  if [ "$have" != "$want" ]; then
    say "cargo install wasm-bindgen-cli $want (was: ${have:-none}); this takes a few minutes once"
    # Plain install: the crates mirror can lag, and --locked may then fail where this works.
    cargo install -q wasm-bindgen-cli --version "=$want" >&2
  fi
}

setup_browser() {
  if [ -n "${CHROMIUM:-}" ] && [ -x "$CHROMIUM" ]; then return; fi
  if ! [ -x /usr/bin/chromium ]; then apt_install chromium; fi
  export CHROMIUM=/usr/bin/chromium
}

setup_node() {
  if ! [ -d "$ROOT/node_modules/playwright-core" ] || ! [ -d "$ROOT/node_modules/gltf-validator" ]; then
    say "npm install"
    (cd "$ROOT" && npm install --no-audit --no-fund --loglevel=error >&2)
  fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  setup_toolchain
  setup_bindgen
  setup_browser
  setup_node
  say "ready: wasm cargo ${WASM_CARGO[*]}, wasm-bindgen $(wasm-bindgen --version), chromium at $CHROMIUM"
fi
