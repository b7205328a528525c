#!/usr/bin/env python3
"""Tables of the FineReg study (docs/studies/finereg.md) from sweep folders.

  scripts/finereg_table.py MAIN_DIR [SPLIT_DIR [SMS_DIR]] [--classes CLASSES.json]

MAIN_DIR is the output of `simtlm sweep studies/finereg.json` (columns
baseline, vt, regdram, finereg); SPLIT_DIR of studies/finereg_split.json
(FineReg at several ACRF/PCRF splits and the baseline); SMS_DIR of
studies/finereg_sms.json (baseline and FineReg at several SM counts).
CLASSES.json maps a workload to "S" or "R" (Type-S / Type-R); without it
the class columns are left out. Reads every point's stats.json and prints
markdown: per workload, average resident and active CTAs per SM, IPC
normalised to the baseline, register-depletion stalls, off-chip bytes and
energy normalised to the baseline with its breakdown; then the averages
(arithmetic for CTA gains as the seed reports them, geometric for IPC),
per class.
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from greener_table import load, total  # noqa: E402  (the sweep folder reader)


def sm_sum(stats, suffix):
    """Sum over SMs of gpu.sm[i].<suffix>."""
    s = 0.0
    for k, v in total(stats).items():
        if k.startswith("gpu.sm[") and k.split("].", 1)[-1] == suffix and isinstance(v, (int, float)):
            s += v
    return s


def mech(stats):
    for m in ("finereg", "vt", "regdram"):
        if sm_sum(stats, "regfile." + m + ".switches_out") > 0 or any(
                ".regfile." + m + "." in k for k in total(stats)):
            return m
    return None


def cycles(stats):
    return stats["cycles"]


def avg_resident(stats):
    act = sm_sum(stats, "active_cycles")
    return sm_sum(stats, "resident_cta_cycles") / act if act else 0.0


def avg_active(stats):
    m = mech(stats)
    act = sm_sum(stats, "active_cycles")
    if not act:
        return 0.0
    if m is None:
        return avg_resident(stats)
    return sm_sum(stats, "regfile." + m + ".active_cta_cycles") / act


def depletion(stats):
    m = mech(stats)
    act = sm_sum(stats, "active_cycles")
    if m is None or not act:
        return 0.0
    return sm_sum(stats, "regfile." + m + ".depletion_stall_cycles") / act


def offchip_bytes(stats):
    """DRAM bursts x 64 B: FineReg's vector fetches and Reg+DRAM's contexts are
    memory traffic, counted there as far as they reach the DRAM."""
    t = total(stats)
    bursts = sum(v for k, v in t.items() if k.startswith("gpu.dram[") and
                 (k.endswith(".read_bursts") or k.endswith(".write_bursts")) and isinstance(v, (int, float)))
    return bursts * 64


def energy(stats):
    e = stats["timing"]["energy"]["total"]
    d = e["dynamic_j"]
    dram = d.get("DRAMP", 0.0) + d.get("MCP", 0.0)
    rf = d.get("RFP", 0.0)
    fr = d.get("FINEREGP", 0.0)
    sw = d.get("SWITCHP", 0.0)
    others = e["dynamic_total_j"] - dram - rf - fr - sw
    return {"total": e["total_j"], "dram": dram, "rf": rf, "others": others, "finereg": fr, "switch": sw,
            "leakage": e["leakage_total_j"]}


def gmean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def main_tables(d, classes):
    cols, rows = load(d)
    base = "baseline" if "baseline" in cols else cols[0]
    others = [c for c in cols if c != base]
    print("### Per workload (%s)\n" % d)
    head = "| workload | class | base cycles | " + " | ".join(
        "%s: CTAs/SM (active) | IPC | depl. %% | traffic | energy" % c for c in others) + " |"
    print(head)
    print("|" + "---|" * (3 + 5 * len(others)))
    agg = {c: {"ipc": [], "cta": [], "depl": [], "traffic": [], "energy": [], "cls": []} for c in others}
    base_ctas = []
    for w, per in sorted(rows.items()):
        if base not in per:
            continue
        b = per[base]
        cells = ["%s" % w, classes.get(w, "-"), "%d" % cycles(b)]
        base_ctas.append(avg_resident(b))
        for c in others:
            s = per.get(c)
            if s is None:
                cells += ["missing"] * 5
                continue
            ipc = cycles(b) / cycles(s)
            cta = avg_resident(s) / avg_resident(b) if avg_resident(b) else float("nan")
            tr = offchip_bytes(s) / offchip_bytes(b) if offchip_bytes(b) else float("nan")
            en = energy(s)["total"] / energy(b)["total"]
            agg[c]["ipc"].append(ipc)
            agg[c]["cta"].append(cta)
            agg[c]["depl"].append(depletion(s))
            agg[c]["traffic"].append(tr)
            agg[c]["energy"].append(en)
            agg[c]["cls"].append(classes.get(w, "-"))
            cells += ["%.2f → %.2f (%.2f)" % (avg_resident(b), avg_resident(s), avg_active(s)), "%.3f" % ipc,
                      "%.2f" % (100 * depletion(s)), "%.3f" % tr, "%.3f" % en]
        print("| " + " | ".join(cells) + " |")
    print("\n### Averages (CTA gain: arithmetic mean of the ratios - 1; IPC, traffic, energy: geometric means)\n")
    print("| config | subset | n | concurrent CTAs | IPC | depletion stalls % | off-chip traffic | energy |")
    print("|---|---|---|---|---|---|---|---|")
    for c in others:
        a = agg[c]
        for sub in ("all", "S", "R"):
            idx = [i for i in range(len(a["ipc"])) if sub == "all" or a["cls"][i] == sub]
            if not idx:
                continue
            pick = lambda k: [a[k][i] for i in idx]
            print("| %s | %s | %d | %+.1f %% | %+.1f %% | %.2f | %.3f | %.3f |" % (
                c, sub, len(idx), 100 * (mean(pick("cta")) - 1), 100 * (gmean(pick("ipc")) - 1),
                100 * mean(pick("depl")), gmean([x for x in pick("traffic") if x == x]), gmean(pick("energy"))))
    print("\n### Energy breakdown, all workloads summed, normalised to the baseline's total\n")
    print("| config | DRAM (+MC) | RF | others | FineReg | switching | leakage | total |")
    print("|---|---|---|---|---|---|---|---|")
    sums = {}
    for c in cols:
        acc = {}
        for w, per in rows.items():
            if c in per and base in per:
                for k, v in energy(per[c]).items():
                    acc[k] = acc.get(k, 0.0) + v
        sums[c] = acc
    bt = sums[base]["total"]
    for c in cols:
        e = sums[c]
        print("| %s | %.3f | %.3f | %.3f | %.4f | %.4f | %.3f | %.3f |" % (
            c, e["dram"] / bt, e["rf"] / bt, e["others"] / bt, e["finereg"] / bt, e["switch"] / bt,
            e["leakage"] / bt, e["total"] / bt))


def sens_table(d, title, main_rows):
    cols, rows = load(d)
    for w, per in rows.items():  # columns without their own baseline: the main study's
        if w in main_rows and "baseline" in main_rows[w]:
            per.setdefault("baseline", main_rows[w]["baseline"])
    cols = cols + (["baseline"] if "baseline" not in cols else [])
    base = [c for c in cols if "baseline" in c]
    print("\n### %s (%s)\n" % (title, d))
    print("| column | n | IPC vs its baseline (geomean) | concurrent CTAs vs baseline (mean) | active share |")
    print("|---|---|---|---|---|")
    for c in cols:
        if c in base:
            continue
        # The baseline of a column: the baseline column with the same other values.
        key = c.replace("finereg", "baseline")
        b = key if key != c and key in cols else "baseline"
        ipc, cta, share = [], [], []
        for w, per in rows.items():
            if c not in per or b not in per:
                continue
            ipc.append(cycles(per[b]) / cycles(per[c]))
            if avg_resident(per[b]):
                cta.append(avg_resident(per[c]) / avg_resident(per[b]))
            if avg_resident(per[c]):
                share.append(avg_active(per[c]) / avg_resident(per[c]))
        print("| %s | %d | %+.1f %% | %+.1f %% | %.2f |" % (c, len(ipc), 100 * (gmean(ipc) - 1),
                                                         100 * (mean(cta) - 1), mean(share)))


def main(argv):
    classes = {}
    if "--classes" in argv:
        i = argv.index("--classes")
        classes = json.load(open(argv[i + 1]))
        argv = argv[:i] + argv[i + 2:]
    if len(argv) < 2:
        print(__doc__)
        return 2
    main_tables(argv[1], classes)
    main_rows = load(argv[1])[1]
    if len(argv) > 2:
        sens_table(argv[2], "ACRF/PCRF split (baseline: the main study's)", main_rows)
    if len(argv) > 3:
        sens_table(argv[3], "SM count (each against the baseline at the same SM count)", main_rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
