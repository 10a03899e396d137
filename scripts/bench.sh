#!/usr/bin/env bash
# npm run bench: every benchmark in one run, so their figures can be compared with each other
# (this machine is shared: compare ratios within a run, not absolutes across runs).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "# machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
cargo build -q --release --examples
bash scripts/build.sh
if [ "${1:-}" = "--ui" ]; then shift; SKIP_DECODE=1; fi
[ -n "${SKIP_DECODE:-}" ] || {
echo "## native decode (GEM .ply)";            cargo run -q --release --example bench_gem_ply
echo "## native decode (Frostbite MeshSet)";   cargo run -q --release --example bench_meshset
echo "## wasm decode under Node";              node scripts/bench-wasm.mjs
echo "## native small files (per-file cost of open)"; cargo run -q --release --example bench_small
echo "## small files in wasm under Node";     node scripts/bench-small-wasm.mjs
# The full 48,000-MeshSet set, on one thread and on every core; N sets another size.
echo "## native census (48,000 builder MeshSets)"; N="${N:-48000}" cargo run -q --release --example bench_census
echo "## native census (the six real .ply samples x 84 = 504 files)"; cargo run -q --release --example bench_census -- --repeat 84 ../shared/samples/gem-ply
echo "## census in wasm (the same 504 files)";  node scripts/bench-census.mjs --repeat 84 ../shared/samples/gem-ply
echo "## census in the page (48,000 builder MeshSets dropped on the panel)"; node scripts/bench-census-page.mjs --n="${PAGE_N:-48000}"
}
echo "## native diff (two 64 MB .ply, 1,000 changed bytes)"; cargo run -q --release --example bench_diff -- --write
echo "## diff in wasm under Node (the same files)"; node scripts/bench-diff-wasm.mjs
echo "## diff in the page (the same files, from a link)"; node scripts/bench-compare-page.mjs
echo "## page (hex view)";                     node scripts/bench-page.mjs
echo "## 3D view";                             node scripts/bench-viewer.mjs
