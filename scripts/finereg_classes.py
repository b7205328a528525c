#!/usr/bin/env python3
"""Type-S / Type-R classes of our workloads on gtx980_finereg (docs/studies/finereg.md).

  build/apps/simtlm list --details | scripts/finereg_classes.py > classes.json

The seed (Oh et al. §II, seed note 004 §1.1): Type-S when the resident CTAs
per SM are set by the scheduling limits (CTA slots, threads/warps) while the
register file or shared memory has room left; Type-R when the register file
or shared memory binds first. Computed for the BASELINE machine (the whole
256 KB register file: `simtlm list` reports the preset's FineReg ACRF, half
of it, so the register limit is recomputed from registers/thread and
threads/CTA with the preset's allocation unit of 8 registers per thread);
threads and shared-memory limits are taken from the listing. A tie between a
scheduling limit and a storage limit counts as Type-R (nothing is left
over). A workload with several kernels is Type-R when any of its
non-auxiliary kernels is. Prints {"workload": "S" | "R", ...} and, on
stderr, one line per kernel with its limits.
"""
import json
import re
import sys

REGISTERS = 65536
GRANULE = 8
CTA_SLOTS = 32


def main():
    classes = {}
    workload = None
    kernel = None
    for line in sys.stdin:
        m = re.match(r"^  (\S+)\s{2,}", line)
        if m and not line.startswith("   "):
            workload = m.group(1)
            continue
        m = re.match(r"^\s+kernel (\S+)( \(auxiliary\))?: (\d+) threads/CTA, registers/thread \(ptxas sm_75: (\d+|-)"
                     r"(?:, allocator: (\d+))?", line)
        if m:
            name, aux, threads = m.group(1), bool(m.group(2)), int(m.group(3))
            regs = int(m.group(4)) if m.group(4) != "-" else int(m.group(5) or 0)
            kernel = (name, aux, threads, regs)
            continue
        m = re.match(r"^\s+gtx980_finereg:\s+\d+ CTAs/SM, limited by .*\(threads (\d+), CTA slots (\d+), "
                     r"registers \d+, shared memory (\d+|-)\)", line)
        if m and kernel and workload:
            name, aux, threads, regs = kernel
            by_threads = int(m.group(1))
            by_smem = int(m.group(3)) if m.group(3) != "-" else 10**9
            padded = (threads + 31) // 32 * 32
            unit = (regs + GRANULE - 1) // GRANULE * GRANULE * padded
            by_regs = REGISTERS // unit if unit else 10**9
            sched = min(by_threads, CTA_SLOTS)
            storage = min(by_regs, by_smem)
            cls = "R" if storage <= sched else "S"
            print("%-14s %-24s%s threads %d regs %d: sched %d, regs %d, smem %s -> %s" % (
                workload, name, " (aux)" if aux else "", threads, regs, sched, by_regs,
                m.group(3), cls), file=sys.stderr)
            if not aux:
                if classes.get(workload) != "R":
                    classes[workload] = cls
            elif workload not in classes:
                classes.setdefault("_aux_" + workload, cls)
            kernel = None
    # Workloads whose kernels are all auxiliary take their class.
    for k in [k for k in classes if k.startswith("_aux_")]:
        classes.setdefault(k[5:], classes[k])
        del classes[k]
    json.dump(dict(sorted(classes.items())), sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
