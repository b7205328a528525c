#!/usr/bin/env python3
"""Before/after table of a register-count change: two stats_regression.sh
recordings (e.g. gpu.sm.register_count_source=allocator vs ptxas) -> one
markdown row per run: registers per thread of each kernel, cycles, and the
largest number of CTAs resident on one SM where it changed.

Usage: scripts/register_count_effect.py BEFORE_DIR AFTER_DIR
"""
import json
import sys

from stats_recordings import recordings as runs


def summary(path):
    with open(path) as f:
        d = json.load(f)
    regs = {}
    for launch in d["per_launch"]:
        regs.setdefault(launch["kernel"], (launch.get("registers_per_thread"), launch.get("register_count_source")))
    total = d["timing"]["total"]
    return d["cycles"], regs, total.get("gpu.occupancy.max_ctas_per_sm"), total.get("gpu.occupancy.avg_ctas_per_sm")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    before, after = runs(sys.argv[1]), runs(sys.argv[2])
    missing = sorted(set(before) ^ set(after))
    if missing:
        sys.exit("runs recorded on one side only: %s" % missing)
    print("| preset | run | registers/thread before -> after | cycles before | cycles after | change | max CTAs/SM before -> after |")
    print("|---|---|---|---:|---:|---:|---|")
    changed = 0
    for key in sorted(before):
        cb, rb, mb, _ = summary(before[key])
        ca, ra, ma, _ = summary(after[key])
        regs = []
        for kernel in ra:
            nb, na = rb.get(kernel, (None, None))[0], ra[kernel][0]
            note = "" if ra[kernel][1] in ("ptxas", "allocator") else " (%s)" % ra[kernel][1]
            regs.append("%s %s -> %s%s" % (kernel, nb, na, note) if nb != na else "%s %s%s" % (kernel, na, note))
        change = 100.0 * (ca - cb) / cb if cb else 0.0
        changed += ca != cb
        ctas = "%g -> %g" % (mb, ma) if mb != ma else ""
        print("| %s | %s | %s | %d | %d | %+.1f %% | %s |" % (key[0], key[1], ", ".join(regs), cb, ca, change, ctas))
    print("\n%d of %d runs change cycles." % (changed, len(before)))


if __name__ == "__main__":
    main()
