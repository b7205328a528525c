#!/usr/bin/env bash
# Quick start 2: set up, build, and run every test (one process per test).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
cd build
ctest --output-on-failure -j"$(nproc)" "$@"
