#!/usr/bin/env python3
"""Before/after table of simulated cycles from two stats_regression.sh recordings.

    scripts/compare_cycles.py DIR_BEFORE DIR_AFTER [STAT ...]

Prints a markdown table: one row per workload and size, per preset the cycles
before, after and the relative change; extra columns for each STAT (a key of
the timing total, e.g. gpu.sm_total... or a top-level stats.json field) as
before -> after. Rows are sorted by workload.
"""
import json
import sys

from stats_recordings import recordings


def load(root):
    runs = {}
    for key, path in recordings(root).items():
        with open(path) as f:
            runs[key] = json.load(f)
    return runs


def stat(d, key):
    if key in d:
        return d[key]
    total = d.get("timing", {}).get("total", {})
    return total.get(key)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    before, after = load(sys.argv[1]), load(sys.argv[2])
    extra = sys.argv[3:]
    presets = sorted({p for p, _ in before})
    runs = sorted({r for _, r in before})
    head = "| run | " + " | ".join(f"{p} before | {p} after | {p} change" for p in presets)
    head += "".join(f" | {e} ({presets[0]})" for e in extra) + " |"
    print(head)
    print("|" + "---|" * (1 + 3 * len(presets) + len(extra)))
    for r in runs:
        cells = [r]
        for p in presets:
            b, a = before.get((p, r)), after.get((p, r))
            if b is None or a is None:
                cells += ["", "", ""]
                continue
            cb, ca = b["cycles"], a["cycles"]
            cells += [str(cb), str(ca), f"{100.0 * (ca - cb) / cb:+.2f} %" if cb else ""]
        for e in extra:
            b, a = before.get((presets[0], r)), after.get((presets[0], r))
            cells.append(f"{stat(b, e)} -> {stat(a, e)}" if b and a else "")
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
