#!/usr/bin/env bash
# Quick start 1: set up, build, and run the main job (`simtlm run`: the default
# workload on the default configuration). Extra arguments go to `simtlm run`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
exec build/apps/simtlm run "$@"
