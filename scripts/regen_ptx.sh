#!/usr/bin/env bash
# Regenerates workloads/<name>/kernel.ptx from workloads/<name>/kernel.cu with
#   nvcc -arch=compute_75 -ptx -O3
# The committed PTX must be exactly what this script produces (the build embeds
# kernel.ptx, never kernel.cu, so a stale PTX silently runs old code).
#
# Usage: scripts/regen_ptx.sh            regenerate every workload's PTX in place
#        scripts/regen_ptx.sh --check    compile into a temporary directory and
#                                        compare with the committed PTX; lists
#                                        stale (or missing) files, exit 1 if any
#        scripts/regen_ptx.sh [--check] NAME...   only the named workloads
#
# nvcc is looked up on PATH, then in /usr/local/cuda/bin (override: NVCC=...).
set -euo pipefail

usage() {
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
}

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
check=0
names=()
for arg in "$@"; do
  case "$arg" in
    --check) check=1 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "regen_ptx.sh: unknown option '$arg'" >&2; usage >&2; exit 2 ;;
    *) names+=("$arg") ;;
  esac
done

nvcc="${NVCC:-}"
if [[ -z "$nvcc" ]]; then
  if command -v nvcc >/dev/null 2>&1; then
    nvcc="$(command -v nvcc)"
  elif [[ -x /usr/local/cuda/bin/nvcc ]]; then
    nvcc=/usr/local/cuda/bin/nvcc
  fi
fi
if [[ -n "${NVCC:-}" && ! -x "$nvcc" ]]; then
  echo "regen_ptx.sh: NVCC=$NVCC is not an executable file." >&2
  exit 1
fi
if [[ -z "$nvcc" ]]; then
  echo "regen_ptx.sh: nvcc not found (looked on PATH and in /usr/local/cuda/bin)." >&2
  echo "Install the CUDA toolkit or set NVCC=/path/to/nvcc; the committed kernel.ptx files" >&2
  echo "are used by the build as they are, so nvcc is only needed after editing kernel.cu." >&2
  exit 1
fi

# Every workload directory that has a kernel.cu (workloads/common has none).
if [[ ${#names[@]} -eq 0 ]]; then
  for cu in "$root"/workloads/*/kernel.cu; do
    [[ -e "$cu" ]] || continue
    names+=("$(basename "$(dirname "$cu")")")
  done
fi
if [[ ${#names[@]} -eq 0 ]]; then
  echo "regen_ptx.sh: no workloads/*/kernel.cu found under $root" >&2
  exit 1
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

stale=()
failed=()
for name in "${names[@]}"; do
  dir="$root/workloads/$name"
  if [[ ! -f "$dir/kernel.cu" ]]; then
    echo "regen_ptx.sh: $dir/kernel.cu does not exist" >&2
    failed+=("$name")
    continue
  fi
  out="$tmp/$name.ptx"
  # Compile from inside the workload directory with a relative source name so
  # the output never depends on where the tree is checked out.
  if ! (cd "$dir" && "$nvcc" -arch=compute_75 -ptx -O3 kernel.cu -o "$out"); then
    echo "regen_ptx.sh: nvcc failed on workloads/$name/kernel.cu" >&2
    failed+=("$name")
    continue
  fi
  if [[ $check -eq 1 ]]; then
    if [[ ! -f "$dir/kernel.ptx" ]]; then
      stale+=("workloads/$name/kernel.ptx (missing)")
    elif ! cmp -s "$out" "$dir/kernel.ptx"; then
      stale+=("workloads/$name/kernel.ptx")
    fi
  else
    if [[ -f "$dir/kernel.ptx" ]] && cmp -s "$out" "$dir/kernel.ptx"; then
      echo "unchanged  workloads/$name/kernel.ptx"
    else
      cp "$out" "$dir/kernel.ptx"
      echo "written    workloads/$name/kernel.ptx"
    fi
  fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "regen_ptx.sh: ${#failed[@]} workload(s) failed: ${failed[*]}" >&2
  exit 1
fi
if [[ $check -eq 1 ]]; then
  if [[ ${#stale[@]} -gt 0 ]]; then
    echo "Stale PTX (regenerate with scripts/regen_ptx.sh using $("$nvcc" --version | grep -m1 release || echo "$nvcc")):" >&2
    for f in "${stale[@]}"; do echo "  $f" >&2; done
    exit 1
  fi
  echo "All ${#names[@]} workload PTX files are up to date."
fi
