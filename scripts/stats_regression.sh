#!/usr/bin/env bash
# Byte-identity check of the timing model's statistics across a change
# (refactorings must not move a single counter).
#
#   scripts/stats_regression.sh record SIMTLM_BINARY DIR   runs the regression set into DIR
#   scripts/stats_regression.sh compare DIR_BEFORE DIR_AFTER
#
# The regression set: every built-in workload at small size on both presets
# (gtx480 and tesla_c2050), and bfs and sgemm at default size on gtx480. Each
# run writes DIR/<preset>/<workload>-<size>/stats.json; compare lists every
# file that differs (or is missing) and exits 1 if any does.
# JOBS (default: the number of cores) runs that many simulations at once.
# SIMTLM_ARGS adds arguments to every run (e.g. "-p gpu.sm.register_count_source=allocator").
# scripts/register_count_effect.py tabulates cycles and resident CTAs of two recordings.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: $0 record SIMTLM_BINARY DIR | compare DIR_BEFORE DIR_AFTER" >&2
  exit 2
}

record() {
  local bin=$1 out=$2
  [ -x "$bin" ] || { echo "stats_regression: $bin is not an executable" >&2; exit 2; }
  mkdir -p "$out"
  local list
  list=$(mktemp)
  for w in $("$bin" list | awk '/^Workloads/{on=1; next} /^$/{on=0} on && /^  [^ ]/ {print $1}'); do
    echo "gtx480 $w small" >> "$list"
    echo "tesla_c2050 $w small" >> "$list"
  done
  echo "gtx480 bfs default" >> "$list"
  echo "gtx480 sgemm default" >> "$list"
  local failed=0
  # shellcheck disable=SC2016
  xargs -P "${JOBS:-$(nproc)}" -L 1 sh -c '
    bin=$0; out=$1; preset=$2; w=$3; size=$4
    dir="$out/$preset/$w-$size"
    mkdir -p "$dir"
    # shellcheck disable=SC2086
    if ! "$bin" run "$w" --size "$size" --config "configs/$preset.json" --out "$dir" ${SIMTLM_ARGS:-} > "$dir/stdout" 2> "$dir/stderr"; then
      echo "stats_regression: $preset $w $size failed (see $dir/stderr)" >&2
      exit 255
    fi' "$bin" "$out" < "$list" || failed=1
  rm -f "$list"
  local n
  n=$(find "$out" -name stats.json | wc -l)
  echo "stats_regression: $n runs recorded in $out"
  return $failed
}

compare() {
  local a=$1 b=$2 diffs=0 n=0
  while IFS= read -r f; do
    n=$((n + 1))
    local rel=${f#"$a"/}
    if [ ! -f "$b/$rel" ]; then
      echo "missing: $b/$rel"
      diffs=$((diffs + 1))
    elif ! cmp -s "$f" "$b/$rel"; then
      echo "differs: $rel"
      diffs=$((diffs + 1))
    fi
  done < <(find "$a" -name stats.json | sort)
  echo "stats_regression: $n files compared, $diffs differ"
  [ "$n" -gt 0 ] && [ "$diffs" -eq 0 ]
}

[ $# -eq 3 ] || usage
case "$1" in
  record) record "$2" "$3" ;;
  compare) compare "$2" "$3" ;;
  *) usage ;;
esac
