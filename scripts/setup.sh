#!/usr/bin/env bash
# Installs the Debian packages simtlm needs (idempotent: only missing ones).
# Usage: scripts/setup.sh          (as root, or with sudo available)
set -euo pipefail

packages=(build-essential cmake pkg-config libsystemc-dev libboost-dev
          libboost-program-options-dev nlohmann-json3-dev libgtest-dev libgmock-dev
          libbenchmark-dev
          # `simtlm sweep report` plots (scripts/sweep_plot.py runs on Debian's python3)
          python3 python3-matplotlib
          # the sweep's Slurm executor, tested against a single-node Slurm on localhost
          slurmctld slurmd slurm-client munge)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all dependencies present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "setup: missing packages: ${missing[*]}" >&2
  echo "setup: not root and no sudo; run as root: apt-get update && apt-get install -y ${missing[*]}" >&2
  exit 1
fi
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
