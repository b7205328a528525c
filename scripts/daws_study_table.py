#!/usr/bin/env python3
"""Tables of the DAWS study (docs/studies/ccws.md, "DAWS") from a sweep's
results.csv: IPC normalised to GTO and to CCWS per workload with the
harmonic mean per class (as Rogers reports them), Best-SWL (best of SWL 2, 4,
8 and 32 = GTO), L1D MPKI, DAWS's throttled issue slots and victim-tag hits.

Usage: scripts/daws_study_table.py SWEEP_DIR/results.csv
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ccws_study_table import INSENSITIVE, SENSITIVE, fmt, hmean  # noqa: E402

ORDER = ["gto", "ccws", "best_swl", "daws_profiled", "daws_detected", "daws_no_lanes"]


def load(path):
    data = {}
    for r in csv.DictReader(open(path)):
        if r["status"] != "ok":
            continue
        cfg = r["config"].split("+", 1)[1]
        data.setdefault(r["workload"], {})[cfg] = {
            k: (float(v) if v not in ("", None) else None) for k, v in r.items()
            if k not in ("workload", "config", "point", "status", "size") and not k.startswith("seed")}
    for cfgs in data.values():
        swl = [c for c in cfgs if c.startswith("swl")] + (["gto"] if "gto" in cfgs else [])
        if swl:
            best = max(swl, key=lambda c: cfgs[c]["ipc"])
            cfgs["best_swl"] = dict(cfgs[best])
            cfgs["best_swl"]["limit"] = best[3:] if best.startswith("swl") else "32"
    return data


def table(data, base):
    print(f"IPC normalised to {base.upper()}:\n")
    print("| workload | class | " + " | ".join(ORDER) + " |")
    print("|:--|:--|" + "--:|" * len(ORDER))
    for cls, names in (("sensitive", SENSITIVE), ("insensitive", INSENSITIVE)):
        for w in names:
            if w not in data or base not in data[w]:
                continue
            b = data[w][base]["ipc"]
            cells = []
            for c in ORDER:
                v = data[w].get(c, {}).get("ipc")
                cell = fmt(v / b if v else None)
                if c == "best_swl" and c in data[w]:
                    cell += f" ({data[w][c]['limit']})"
                cells.append(cell)
            print(f"| {w} | {cls} | " + " | ".join(cells) + " |")
        h = [fmt(hmean([data[w][c]["ipc"] / data[w][base]["ipc"] for w in names
                        if w in data and c in data[w] and base in data[w]])) for c in ORDER]
        print(f"| **HMEAN** | {cls} | " + " | ".join(h) + " |")
    print()


def main(path):
    data = load(path)
    table(data, "gto")
    table(data, "ccws")
    # gtx285_ccws: 30 SMs with one scheduler each, so a run has 30 x cycles issue slots.
    print("L1D MPKI / share of the run's issue slots charged `throttled` / victim-tag hits PKI:\n")
    cols = ["gto", "ccws", "best_swl", "daws_profiled", "daws_detected"]
    print("| workload | " + " | ".join(f"MPKI {c}" for c in cols) + " | throttled ccws | throttled detected | "
          "VTA hits PKI ccws | VTA hits PKI detected |")
    print("|:--|" + "--:|" * (len(cols) + 4))
    for w in SENSITIVE + INSENSITIVE:
        if w not in data or "gto" not in data[w]:
            continue
        d = data[w]
        thr = [fmt(d[c]["throttled"] / (30 * d[c]["cycles"]) if c in d and d[c].get("throttled") is not None
                   else None, 3) for c in ("ccws", "daws_detected")]
        vta = [fmt(d.get(c, {}).get(k), 2) for c, k in (("ccws", "vta_hits_pki"), ("daws_detected", "daws_vta_hits_pki"))]
        print(f"| {w} | " + " | ".join(fmt(d.get(c, {}).get("mpki"), 1) for c in cols) + " | "
              + " | ".join(thr + vta) + " |")


if __name__ == "__main__":
    main(sys.argv[1])
