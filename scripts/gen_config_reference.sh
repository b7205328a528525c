#!/usr/bin/env bash
# Regenerates the files produced from the configuration schema
# (models/common/config_schema.cpp):
#   docs/config-reference.md   Config::reference_markdown()
#   configs/gtx480.json        Config::preset_json("gtx480")
#   configs/tesla_c2050.json   Config::preset_json("tesla_c2050")
# It builds the config test binary and runs its GeneratedFilesAreUpToDate test
# with SIMTLM_REGENERATE=1, which writes the files instead of comparing them
# (without the variable the same test fails when a committed file is stale).
# `simtlm config describe --markdown` prints the same reference text.
# Usage: scripts/gen_config_reference.sh [build-dir]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${1:-build}"
cmake -S . -B "$build_dir" >/dev/null
cmake --build "$build_dir" --target test_config -j"$(nproc)" >/dev/null
SIMTLM_REGENERATE=1 "$build_dir/testbenches/test_config" \
  --gtest_filter='ConfigReference.GeneratedFilesAreUpToDate' >/dev/null
echo "regenerated docs/config-reference.md configs/gtx480.json configs/tesla_c2050.json"
