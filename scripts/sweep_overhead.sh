#!/bin/sh
# The sweep machinery's cost per point (docs/performance.md "Sweeps"): runs a
# sweep into a fresh OUT, then prints its wall time, the sum of its points' own
# host time (fork to exit of each point's process, from results.jsonl) and
# (wall - sum) / points. With --jobs 1 that difference is what the driver adds:
# planning, point folders, publishing, results and tables.
# usage: scripts/sweep_overhead.sh SIMTLM SPEC.json OUT JOBS
set -e
[ $# -eq 4 ] || { echo "usage: $0 SIMTLM SPEC.json OUT JOBS" >&2; exit 2; }
rm -rf "$3"
start=$(date +%s.%N)
"$1" sweep "$2" --out "$3" --jobs "$4" >/dev/null 2>&1 || true
end=$(date +%s.%N)
python3 - "$3" "$start" "$end" "$4" <<'PY'
import json, sys
out, start, end, jobs = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
host = {}
for line in open(out + "/results.jsonl"):
    row = json.loads(line)
    host[row["point"]] = row["host_seconds"]
wall = end - start
print(f"--jobs {jobs}: {len(host)} points, wall {wall:.2f} s, points' host time {sum(host.values()):.2f} s, "
      f"overhead {(wall - sum(host.values())) / len(host) * 1000:.1f} ms/point (meaningful with --jobs 1)")
PY
