#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS]: every cargo-fuzz target in turn, SECONDS each (default 60), on
# every core (FUZZ_JOBS), seeded with the samples, tests/regressions/ and files the builders
# write (crate/examples/fuzz_corpus.rs). Prints executions and crashes per target; a crash,
# timeout or out-of-memory input is saved as tests/regressions/<target>-<kind>-<sha1>, where
# crate/tests/regressions.rs runs it on every test run (add its expectation there).
# Targets are built with debug assertions, so an arithmetic overflow is a crash too.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECS="${1:-60}"
JOBS="${FUZZ_JOBS:-$(nproc)}"
say() { printf '[fuzz] %s\n' "$*" >&2; }

command -v cargo-fuzz >/dev/null || { say "cargo install cargo-fuzz"; cargo install -q cargo-fuzz >&2; }
# cargo-fuzz passes nightly flags (-Z); the project's stable toolchain takes them this way.
export RUSTC_BOOTSTRAP=1

cd "$ROOT/crate"
cargo run -q --example fuzz_corpus >&2
cd fuzz
mapfile -t TARGETS < <(cargo fuzz list)
say "building ${TARGETS[*]}"
cargo fuzz build -a --sanitizer none >&2
# The runs use copies, so a rebuild while they go on does not change what they run.
RUN="$(mktemp -d "${TMPDIR:-/tmp}/meshscope-fuzz.XXXXXX")"
for t in "${TARGETS[@]}"; do cp "target/x86_64-unknown-linux-gnu/release/$t" "$RUN/"; done

printf '%-20s %12s %8s %8s %8s %8s\n' target executions crashes timeouts ooms saved
# Fork mode's counters can miss a crash its jobs saved (seen 2026-12-06: six inputs saved,
# 0/0/0 reported), so the inputs saved under tests/regressions/ are counted too.
saved() { find "$ROOT/tests/regressions" -maxdepth 1 -name "$1-*" | wc -l; }
for t in "${TARGETS[@]}"; do
  mkdir -p "corpus/$t-found"
  before="$(saved "$t")"
  # -fork keeps going after a crash; each crashing input is saved under its own name.
  "$RUN/$t" "corpus/$t-found" "corpus/$t" -fork="$JOBS" -ignore_crashes=1 -max_total_time="$SECS" \
    -max_len=65536 -timeout=10 -rss_limit_mb=1024 -print_final_stats=1 \
    -artifact_prefix="$ROOT/tests/regressions/$t-" >"$RUN/$t.log" 2>&1 || true
  # Fork mode's status lines: "#EXECS: cov: ... oom/timeout/crash: O/T/C time: ...".
  last="$(grep -E '^#[0-9]+:' "$RUN/$t.log" | tail -1 || true)"
  execs="$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")"
  read -r ooms timeouts crashes < <(sed -E 's|.*oom/timeout/crash: ([0-9]+)/([0-9]+)/([0-9]+).*|\1 \2 \3|' <<<"$last")
  printf '%-20s %12s %8s %8s %8s %8s\n' "$t" "${execs:-0}" "${crashes:-0}" "${timeouts:-0}" "${ooms:-0}" \
    "$(($(saved "$t") - before))"
done
say "logs in $RUN"
