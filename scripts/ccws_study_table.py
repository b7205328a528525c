#!/usr/bin/env python3
"""Tables of the CCWS study (docs/studies/ccws.md) from a sweep's results.csv:
IPC normalised to GTO per workload with the harmonic mean per class (as
Rogers reports them), Best-SWL (the best SWL limit per workload), L1D MPKI
and the locality breakdown per kilo-instruction.

Usage: scripts/ccws_study_table.py SWEEP_DIR/results.csv
"""
import csv
import sys

SENSITIVE = ["bfs", "kmeans", "memcached", "gcmark", "spmv"]
INSENSITIVE = ["nw", "backprop", "hotspot", "srad"]
ORDER = ["lrr", "gto", "2lvl_gto", "swl2", "swl4", "swl8", "best_swl", "ccws"]


def hmean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return len(xs) / sum(1.0 / x for x in xs) if xs else None


def fmt(x, digits=3):
    return "–" if x is None else f"{x:.{digits}f}"


def main(path):
    rows = list(csv.DictReader(open(path)))
    data = {}
    for r in rows:
        if r["status"] != "ok":
            continue
        cfg = r["config"].split("+", 1)[1]
        data.setdefault(r["workload"], {})[cfg] = {k: (float(v) if v not in ("", None) else None)
                                                   for k, v in r.items() if k not in ("workload", "config", "point",
                                                                                       "status", "size")
                                                   and not k.startswith("seed")}
    for w, cfgs in data.items():
        # SWL at every warp of the SM (32 on gtx285_ccws) is GTO (tested).
        swl = [c for c in cfgs if c.startswith("swl")] + (["gto"] if "gto" in cfgs else [])
        if swl:
            best = max(swl, key=lambda c: cfgs[c]["ipc"])
            cfgs["best_swl"] = dict(cfgs[best])
            cfgs["best_swl"]["limit"] = best[3:] if best.startswith("swl") else "32"
    print("| workload | class | GTO IPC | " + " | ".join(ORDER) + " |")
    print("|:--|:--|--:|" + "--:|" * len(ORDER))
    for cls, names in (("sensitive", SENSITIVE), ("insensitive", INSENSITIVE)):
        for w in names:
            if w not in data:
                continue
            g = data[w]["gto"]["ipc"]
            cells = []
            for c in ORDER:
                v = data[w].get(c, {}).get("ipc")
                cell = fmt(v / g if v else None)
                if c == "best_swl" and c in data[w]:
                    cell += f" ({data[w][c]['limit']})"
                cells.append(cell)
            print(f"| {w} | {cls} | {g:.3f} | " + " | ".join(cells) + " |")
        h = []
        for c in ORDER:
            h.append(fmt(hmean([data[w][c]["ipc"] / data[w]["gto"]["ipc"] for w in names if w in data and c in data[w]])))
        print(f"| **HMEAN** | {cls} | | " + " | ".join(h) + " |")
    print()
    print("L1D load misses per kilo-instruction (MPKI):\n")
    print("| workload | " + " | ".join(ORDER) + " |")
    print("|:--|" + "--:|" * len(ORDER))
    for w in SENSITIVE + INSENSITIVE:
        if w in data:
            print(f"| {w} | " + " | ".join(fmt(data[w].get(c, {}).get("mpki"), 1) for c in ORDER) + " |")
    print()
    print("Locality per kilo-instruction, GTO / CCWS / Best-SWL (intra-warp hits, inter-warp hits, "
          "intra-warp misses, inter-warp misses; CCWS VTA hits):\n")
    print("| workload | config | intra-warp hits | inter-warp hits | intra-warp misses | inter-warp misses | VTA hits |")
    print("|:--|:--|--:|--:|--:|--:|--:|")
    for w in SENSITIVE:
        if w not in data:
            continue
        for c in ("gto", "ccws", "best_swl"):
            d = data[w].get(c)
            if not d:
                continue
            print(f"| {w} | {c} | {fmt(d.get('intra_warp_hits_pki'), 1)} | {fmt(d.get('inter_warp_hits_pki'), 1)} | "
                  f"{fmt(d.get('intra_warp_misses_pki'), 1)} | {fmt(d.get('inter_warp_misses_pki'), 1)} | "
                  f"{fmt(d.get('vta_hits_pki'), 2)} |")


if __name__ == "__main__":
    main(sys.argv[1])
