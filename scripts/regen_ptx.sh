#!/usr/bin/env bash
# Regenerates workloads/<name>/kernel.ptx from workloads/<name>/kernel.cu with
#   nvcc -arch=compute_75 -ptx -O3
# and records ptxas's resource use of that PTX for sm_75 in
# workloads/<name>/ptxas.txt (embedded: CTA admission's register counts, and
# shown by `simtlm list --details` next to our own register allocation, so the
# figures are there on machines without nvcc).
# The committed files must be exactly what this script produces (the build
# embeds kernel.ptx, never kernel.cu, so a stale PTX silently runs old code).
#
# Usage: scripts/regen_ptx.sh            regenerate every workload's PTX in place
#        scripts/regen_ptx.sh --check    compile into a temporary directory and
#                                        compare with the committed PTX; lists
#                                        stale (or missing) files, exit 1 if any
#        scripts/regen_ptx.sh [--check] NAME...   only the named workloads
#        scripts/regen_ptx.sh --records [--check] [NAME...]
#                                        only (re-)record ptxas.txt from the
#                                        committed kernel.ptx: needs ptxas, not nvcc
#
# nvcc is looked up on PATH, then in /usr/local/cuda/bin (override: NVCC=...);
# with --records, ptxas likewise (override: PTXAS=...). The recorded counts are
# what CTA admission uses by default (gpu.sm.register_count_source = ptxas).
set -euo pipefail

usage() {
  sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'
}

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
check=0
records_only=0
names=()
for arg in "$@"; do
  case "$arg" in
    --check) check=1 ;;
    --records) records_only=1 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "regen_ptx.sh: unknown option '$arg'" >&2; usage >&2; exit 2 ;;
    *) names+=("$arg") ;;
  esac
done

if [[ $records_only -eq 1 ]]; then
  ptxas="${PTXAS:-$(command -v ptxas || true)}"
  [[ -z "$ptxas" && -x /usr/local/cuda/bin/ptxas ]] && ptxas=/usr/local/cuda/bin/ptxas
  if [[ -z "$ptxas" || ! -x "$ptxas" ]]; then
    echo "regen_ptx.sh: ptxas not found (looked on PATH and in /usr/local/cuda/bin; set PTXAS=...)." >&2
    exit 1
  fi
else
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
    echo "(--records re-records ptxas.txt with ptxas alone.)" >&2
    exit 1
  fi
  ptxas="$(dirname "$nvcc")/ptxas"
  if [[ ! -x "$ptxas" ]]; then
    echo "regen_ptx.sh: ptxas not found next to $nvcc" >&2
    exit 1
  fi
fi

# ptxas.txt: one line per entry, sorted by name, from `ptxas -v` on the PTX.
# ptxas does not know the SPU's instructions (docs/spu.md): it assembles them as
# their nearest GPU counterparts (CB accesses as shared-memory ones,
# bar.blocksync as bar.sync 0, spu.sreg as a read of %smid), so an SPU kernel's
# record is the register use of the same code with those stand-ins.
write_ptxas_record() {  # PTX_FILE OUT_FILE
  local log stand_in
  stand_in="$(dirname "$1")/ptxas-input.$(basename "$1")"
  sed -E -e 's/\b(ld)\.cb\.(north|west)\./\1.shared./g' -e 's/\b(st)\.cb\.(south|east)\./\1.shared./g' \
      -e 's/\bbar\.blocksync(\.(north|west|south|east))?;/bar.sync 0;/g' \
      -e 's/\bspu\.sreg\.u32[[:space:]]+(%[a-z0-9_]+),[[:space:]]*[a-z]+;/mov.u32 \1, %smid;/g' "$1" >"$stand_in"
  if ! log="$(cd "$(dirname "$1")" && "$ptxas" -arch=sm_75 -v "$(basename "$stand_in")" -o /dev/null 2>&1)"; then
    echo "$log" >&2
    return 1
  fi
  {
    echo "# ptxas -arch=sm_75 -v kernel.ptx ($("$ptxas" --version | grep -m1 -o 'release [0-9.]*')); written by scripts/regen_ptx.sh"
    echo "# kernel registers smem_bytes spill_store_bytes spill_load_bytes"
    echo "$log" | awk '
      /Compiling entry function/ { match($0, /\x27[^\x27]*\x27/); name = substr($0, RSTART + 1, RLENGTH - 2); st = 0; ld = 0 }
      /bytes spill stores/ { for (i = 1; i <= NF; i++) { if ($(i+1) == "bytes" && $(i+2) == "spill" && $(i+3) == "stores,") st = $i; if ($(i+1) == "bytes" && $(i+2) == "spill" && $(i+3) == "loads") ld = $i } }
      /Used [0-9]+ registers/ {
        regs = 0; smem = 0
        for (i = 1; i <= NF; i++) { if ($i == "Used") regs = $(i+1); if ($(i+1) == "bytes" && $(i+2) ~ /^smem/) smem = $i }
        print name, regs, smem, st, ld
      }' | sort
  } >"$2"
}

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
  if [[ $records_only -eq 1 ]]; then
    cp "$dir/kernel.ptx" "$out"
  elif ! (cd "$dir" && "$nvcc" -arch=compute_75 -ptx -O3 kernel.cu -o "$out"); then
    echo "regen_ptx.sh: nvcc failed on workloads/$name/kernel.cu" >&2
    failed+=("$name")
    continue
  fi
  if ! write_ptxas_record "$out" "$tmp/$name.ptxas.txt"; then
    echo "regen_ptx.sh: ptxas failed on the PTX of workloads/$name" >&2
    failed+=("$name")
    continue
  fi
  pairs=("$name.ptx:kernel.ptx" "$name.ptxas.txt:ptxas.txt")
  [[ $records_only -eq 1 ]] && pairs=("$name.ptxas.txt:ptxas.txt")
  for pair in "${pairs[@]}"; do
    generated="$tmp/${pair%%:*}"
    committed="$dir/${pair##*:}"
    rel="workloads/$name/${pair##*:}"
    if [[ $check -eq 1 ]]; then
      if [[ ! -f "$committed" ]]; then
        stale+=("$rel (missing)")
      elif ! cmp -s "$generated" "$committed"; then
        stale+=("$rel")
      fi
    elif [[ -f "$committed" ]] && cmp -s "$generated" "$committed"; then
      echo "unchanged  $rel"
    else
      cp "$generated" "$committed"
      echo "written    $rel"
    fi
  done
done

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "regen_ptx.sh: ${#failed[@]} workload(s) failed: ${failed[*]}" >&2
  exit 1
fi
if [[ $check -eq 1 ]]; then
  if [[ ${#stale[@]} -gt 0 ]]; then
    echo "Stale PTX or ptxas records (regenerate with scripts/regen_ptx.sh using $("${nvcc:-$ptxas}" --version | grep -m1 release || echo "${nvcc:-$ptxas}")):" >&2
    for f in "${stale[@]}"; do echo "  $f" >&2; done
    exit 1
  fi
  echo "All ${#names[@]} workload PTX files and ptxas records are up to date."
fi
