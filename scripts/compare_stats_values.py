#!/usr/bin/env python3
"""Compare two scripts/stats_regression.sh recordings by value, for a change
that adds statistics or changes how numbers are written (1624.0 -> 1624) but
must not change any result: every value of the BEFORE file must be in the AFTER
file and equal (numbers by ==). Members only in AFTER are listed as added.

  scripts/compare_stats_values.py BEFORE AFTER   (exit 1 when a value differs)
"""
import json
import re
import sys

from stats_recordings import recordings


def walk(a, b, path, diffs, added):
    if isinstance(a, dict):
        if not isinstance(b, dict):
            diffs.append(f"{path}: object became {type(b).__name__}")
            return
        for k in a:
            if k not in b:
                diffs.append(f"{path}/{k}: missing")
            else:
                walk(a[k], b[k], f"{path}/{k}", diffs, added)
        for k in b:
            if k not in a:
                # Collapse per-SM indices so one new counter is listed once.
                added.add(re.sub(r"\[\d+\]", "[*]", k))
    elif isinstance(a, list):
        if not isinstance(b, list) or len(a) != len(b):
            diffs.append(f"{path}: list differs in length or type")
            return
        for i, (x, y) in enumerate(zip(a, b)):
            walk(x, y, f"{path}[{i}]", diffs, added)
    elif isinstance(a, (bool, str)) or a is None:
        if a != b:
            diffs.append(f"{path}: {a!r} != {b!r}")
    elif isinstance(b, bool) or not isinstance(b, (int, float)) or a != b:
        diffs.append(f"{path}: {a!r} != {b!r}")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    before, after = recordings(sys.argv[1]), recordings(sys.argv[2])
    bad, added = 0, set()
    for run, path in sorted(before.items()):
        if run not in after:
            print(f"{run[0]}/{run[1]}: missing in {sys.argv[2]}")
            bad += 1
            continue
        with open(path) as f:
            a = json.load(f)
        with open(after[run]) as f:
            b = json.load(f)
        diffs = []
        walk(a, b, "", diffs, added)
        if diffs:
            bad += 1
            print(f"{run[0]}/{run[1]}: {len(diffs)} values differ, first: {diffs[0]}")
    print(f"compare_stats_values: {len(before)} files compared, {bad} differ")
    if added:
        print("added members:", ", ".join(sorted(added)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
