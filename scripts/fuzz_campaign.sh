#!/usr/bin/env bash
# A libFuzzer campaign on one harness (docs/validation.md, "Fuzzing").
# Usage: scripts/fuzz_campaign.sh ptx|config|launch_spec SECONDS [BUILD_DIR]
# Builds the harness with clang, AddressSanitizer and libFuzzer in BUILD_DIR
# (default build-fuzz), runs it for SECONDS from the seed corpus (committed
# PTX, presets, launch specs, earlier findings), and leaves the grown corpus in
# BUILD_DIR/fuzz-corpus/TARGET, findings in BUILD_DIR/fuzz-artifacts/TARGET/
# and the log (executions, coverage, crashes) in BUILD_DIR/fuzz-TARGET.log.
# A finding belongs, once fixed, in testbenches/fuzz_regressions/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:?usage: $0 ptx|config|launch_spec SECONDS [BUILD_DIR]}
seconds=${2:?usage: $0 ptx|config|launch_spec SECONDS [BUILD_DIR]}
build=${3:-build-fuzz}
case "$target" in
  ptx) seeds=(workloads testbenches/data) ;;
  config) seeds=(configs) ;;
  launch_spec) seeds=(testbenches/fuzz/seeds/launch_spec) ;;
  *) echo "fuzz_campaign: unknown harness '$target' (ptx, config, launch_spec)" >&2; exit 2 ;;
esac

if ! command -v clang++ >/dev/null 2>&1; then
  echo "fuzz_campaign: installing clang (libFuzzer)"
  if [ "$(id -u)" -eq 0 ]; then as_root=(); else as_root=(sudo); fi
  "${as_root[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends clang
fi

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
      -DCMAKE_CXX_COMPILER=clang++ -DSIMTLM_FUZZ=ON -DSIMTLM_WERROR=OFF >/dev/null
cmake --build "$build" --target "fuzz_$target" -j"$(nproc)"

corpus="$build/fuzz-corpus/$target"
artifacts="$build/fuzz-artifacts/$target"
mkdir -p "$corpus" "$artifacts" "$build/fuzz-seeds/$target"
# libFuzzer reads seed folders flat: gather the seed files (by extension) and
# the earlier findings into one folder.
# (Named after their paths: every workload's PTX is a kernel.ptx.)
find "${seeds[@]}" testbenches/fuzz_regressions/"$target" -type f \( -name '*.ptx' -o -name '*.json' \) |
  while read -r seed; do cp "$seed" "$build/fuzz-seeds/$target/$(echo "$seed" | tr / _)"; done
# -rss_limit_mb: an input that needs more memory is a finding (the front end
# and loaders must refuse such inputs cleanly); -timeout: a hang is a finding.
"$build/testbenches/fuzz_$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
    -max_len=262144 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$corpus" "$build/fuzz-seeds/$target" 2>&1 | tee "$build/fuzz-$target.log"
