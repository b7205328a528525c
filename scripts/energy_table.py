#!/usr/bin/env python3
"""Energy of every run of a scripts/stats_regression.sh recording, as the
markdown table of docs/power.md: per workload the cycles, average power
(total, dynamic, leakage), energy per warp instruction and the largest
per-event components.

    scripts/energy_table.py DIR [PRESET] [SIZE]     (default: gtx480 small)

With two recordings, `--compare BEFORE AFTER` instead checks that every value
outside stats.json's timing.energy is equal (the energy model changes no
other statistic) and that AFTER has an energy section in every run."""
import json
import sys

from stats_recordings import recordings

# Activity-independent components, left out of "largest per-event components".
BACKGROUND = {"CONST_DYNAMICP", "IDLE_COREP"}


def table(root, preset, size):
    rows = []
    for (p, run), path in recordings(root).items():
        if p != preset or not run.endswith("-" + size):
            continue
        e = json.load(open(path))["timing"]["energy"]["total"]
        dyn = e["dynamic_j"]
        events = sorted((k for k in dyn if k not in BACKGROUND and dyn[k] > 0), key=lambda k: -dyn[k])
        share = ", ".join(f"{k} {100 * dyn[k] / e['dynamic_total_j']:.0f} %" for k in events[:3])
        rows.append((run[: -len(size) - 1], e["cycles"], e["average_power_w"], e["dynamic_power_w"],
                     e["leakage_power_w"], e["energy_per_warp_instruction_nj"], share))
    print("| workload | cycles | power (W) | dynamic (W) | leakage (W) | nJ / warp instr | largest per-event components (share of dynamic) |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]:.1f} | {r[3]:.1f} | {r[4]:.1f} | {r[5]:.1f} | {r[6]} |")


def compare(before, after):
    a, b = recordings(before), recordings(after)
    bad = 0
    for key, path in a.items():
        if key not in b:
            print("missing:", *key)
            bad += 1
            continue
        ja, jb = json.load(open(path)), json.load(open(b[key]))
        has = "energy" in jb.get("timing", {})
        ja.get("timing", {}).pop("energy", None)
        jb.get("timing", {}).pop("energy", None)
        if ja != jb or not has:
            print("differs:" if ja != jb else "no energy section:", *key)
            bad += 1
    print(f"{len(a)} runs compared, {bad} differ outside timing.energy")
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    table(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "gtx480", sys.argv[3] if len(sys.argv) > 3 else "small")
