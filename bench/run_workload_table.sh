#!/bin/sh
# Default-size runs of every built-in workload on the timing backend (gtx480
# defaults, seed 1), one process each under /usr/bin/time -v, printed as the
# Markdown table of docs/workloads.md: launches, warp instructions, simulated
# core cycles, host seconds, peak resident memory and the CPU-check result.
#   bench/run_workload_table.sh [BUILD_DIR] [JOBS] [WORKLOAD...]
# JOBS processes run at once (default 1; more than the idle cores inflates the
# host seconds). Each run's JSON line and time report stay in $SIMTLM_TABLE_DIR
# when that is set (a private temporary directory otherwise).
set -eu
build=${1:-build}
jobs=${2:-1}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
bench="$build/bench/simtlm_bench_timing"
if [ ! -x "$bench" ]; then
  echo "run_workload_table.sh: $bench not found (build the project first)" >&2
  exit 1
fi
if [ -n "${SIMTLM_TABLE_DIR:-}" ]; then
  scratch=$SIMTLM_TABLE_DIR
  mkdir -p "$scratch"
else
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
fi
if [ $# -gt 0 ]; then
  names="$*"
else
  names=$("$build/apps/simtlm" list | awk '/^Workloads/ { f = 1; next } /^$/ { f = 0 } f && /^  [^ ]/ { print $1 }')
fi
export bench scratch
printf '%s\n' $names | xargs -P "$jobs" -I{} sh -c \
  '/usr/bin/time -v "$bench" {} default > "$scratch/{}.json" 2> "$scratch/{}.time" || true'

echo "| workload | launches | warp instructions | cycles | host s | peak RSS MB | check |"
echo "|---|---:|---:|---:|---:|---:|---|"
for w in $names; do
  rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$scratch/$w.time")
  if grep -q '"result"' "$scratch/$w.json" 2>/dev/null; then
    sed -e 's/[{}"]//g' -e 's/, /\n/g' "$scratch/$w.json" | awk -F': ' -v w="$w" -v rss="$rss" '
      function commas(n,   s) { s = n ""; while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s); return s }
      { v[$1] = $2 }
      END { printf "| %s | %s | %s | %s | %.1f | %s | %s |\n", w, v["launches"],
            commas(v["warp_instructions"]), commas(v["cycles"]), v["host_seconds"], rss, v["result"] }'
  else
    echo "| $w | | | | | $rss | ERROR: $(tail -1 "$scratch/$w.time" | tr '|' ' ') |"
  fi
done
