#!/bin/sh
# Simulation speed of the timing model (docs/performance.md): sgemm, bfs and
# hotspot at default size on gtx480, one process each, single-threaded, with
# the peak resident memory from /usr/bin/time -v. Each workload runs REPEAT
# times (default 3): on a shared host the wall time of one run varies by tens
# of percent, so report the median. The functional backend's rate on sgemm is
# printed first as a yardstick of the host's speed at the time.
#   bench/run_timing_bench.sh [BUILD_DIR] [REPEAT]
set -eu
build=${1:-build}
repeat=${2:-3}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$build/apps/simtlm" run sgemm --backend functional 2>/dev/null | grep "simulation rate" | sed 's/^ */host yardstick: functional sgemm /'
for w in sgemm bfs hotspot; do
  i=0
  while [ "$i" -lt "$repeat" ]; do
    /usr/bin/time -v "$build/bench/simtlm_bench_timing" "$w" default 2> "$scratch/$w.time" | grep '^{'
    grep -E "Maximum resident set size" "$scratch/$w.time"
    i=$((i + 1))
  done
done
