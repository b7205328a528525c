#!/bin/sh
# Simulation speed of the timing model (docs/performance.md): sgemm, bfs and
# hotspot at default size on gtx480, one process each, single-threaded, with
# the peak resident memory from /usr/bin/time -v.
#   bench/run_timing_bench.sh [BUILD_DIR]
set -eu
build=${1:-build}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for w in sgemm bfs hotspot; do
  /usr/bin/time -v "$build/bench/simtlm_bench_timing" "$w" default 2> "$scratch/$w.time"
  grep -E "Maximum resident set size|Elapsed" "$scratch/$w.time"
done
