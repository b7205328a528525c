#!/usr/bin/env bash
# Regenerates docs/config-reference.md (Config::reference_markdown) from the
# keys the module folders declare (models/*/*_config_keys.cpp) and the presets
# configs/*.json (hand-written sources, embedded at build time).
# It builds the config test binary and runs its GeneratedFilesAreUpToDate test
# with SIMTLM_REGENERATE=1, which writes the file instead of comparing it
# (without the variable the same test fails when the committed file is stale).
# `simtlm config describe --markdown` prints the same reference text.
# Usage: scripts/gen_config_reference.sh [build-dir]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${1:-build}"
cmake -S . -B "$build_dir" >/dev/null
cmake --build "$build_dir" --target test_config -j"$(nproc)" >/dev/null
SIMTLM_REGENERATE=1 "$build_dir/testbenches/test_config" \
  --gtest_filter='ConfigReference.GeneratedFilesAreUpToDate' >/dev/null
echo "regenerated docs/config-reference.md"
