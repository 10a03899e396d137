#!/usr/bin/env bash
# Installs what the build and the tests need, only where it is missing, and never waits on a
# download that cannot happen. Sourced by build.sh and test.sh; run alone it sets up everything.
#
#   toolchain  a cargo + rustc that can build wasm32-unknown-unknown (exported as WASM_CARGO
#              and WASM_FLAGS). Prefers the active toolchain when it already has the wasm32
#              std (a developer laptop with rustup); falls back to Debian's rustc-web with
#              build-std (rustup cannot download the target on our machines).
#   clippy     a clippy for the wasm32 build (WASM_CLIPPY): the active toolchain's, or Debian's
#              rust-web-clippy, which matches rustc-web.
#   bindgen    wasm-bindgen-cli at exactly the version in Cargo.lock.
#   wasm-opt   Debian's binaryen, when it can be installed (the build skips it otherwise).
#   browser    Debian's chromium, for the browser tests.
#   node       the npm packages (playwright-core, gltf-validator, three for rendering exports).
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

# WASM_CLIPPY: the command that runs clippy on the wasm32 build (after setup_toolchain).
setup_wasm_clippy() {
  if [ "${WASM_CARGO[0]}" = cargo ]; then
    WASM_CLIPPY=(cargo clippy)
    return
  fi
  if ! [ -x /usr/bin/cargo-clippy ]; then apt_install rust-web-clippy; fi
  # Debian's cargo-clippy and clippy-driver, found before rustup's proxies.
  WASM_CLIPPY=(env "PATH=/usr/bin:$PATH" /usr/bin/cargo clippy)
}

# wasm-opt from Debian's binaryen; a machine without it still builds (unoptimized wasm).
setup_wasm_opt() {
  command -v wasm-opt >/dev/null && return
  apt_install binaryen || say "binaryen could not be installed: the wasm is not run through wasm-opt"
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
  if ! [ -d "$ROOT/node_modules/playwright-core" ] || ! [ -d "$ROOT/node_modules/gltf-validator" ] ||
    ! [ -d "$ROOT/node_modules/three" ]; then
    say "npm install"
    (cd "$ROOT" && npm install --no-audit --no-fund --loglevel=error >&2)
  fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  setup_toolchain
  setup_wasm_clippy
  setup_bindgen
  setup_wasm_opt
  setup_browser
  setup_node
  say "ready: wasm cargo ${WASM_CARGO[*]}, wasm-bindgen $(wasm-bindgen --version), chromium at $CHROMIUM"
fi
