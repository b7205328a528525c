#!/usr/bin/env python3
"""Tables of the GREENER study (docs/studies/greener.md) from sweep folders.

  scripts/greener_table.py MAIN_DIR [WINDOW_DIR [WAKEUP_DIR [CORRECTION_DIR]]]

MAIN_DIR is the output of `simtlm sweep studies/greener.json` (columns
always_on, sleep_reg, greener); WINDOW_DIR of studies/greener_window.json
(W = 1, 3, 7, 15); WAKEUP_DIR of studies/greener_wakeup.json (WL-1..4,
GREENER and Sleep-Reg); CORRECTION_DIR of studies/greener_correction.json
(run-time correction on and off).
Reads every point's stats.json and prints markdown:

  - register-file leakage energy (the energy model's regfile leakage) of
    Sleep-Reg and GREENER against always-ON, per workload and as the geometric
    mean of the ratios; the same over allocated registers only (from the
    residency counters: unallocated registers are OFF in both schemes, and at
    small sizes most of the file is unallocated);
  - cycle overhead against always-ON;
  - GREENER's residency breakdown of allocated registers, wake-ups, stall
    cycles and lookup-table occupancy;
  - the W sweep, the wake-up latency sweep and the run-time correction
    (geometric means).
"""
import json
import math
import os
import sys


def load(study_dir):
    plan = json.load(open(os.path.join(study_dir, "plan.json")))
    cols = [c["label"] for c in plan["columns"]]
    rows = {}
    for r, row in enumerate(plan["rows"]):
        per_col = {}
        for c, idx in enumerate(plan["cells"][r]):
            path = os.path.join(study_dir, "points", plan["points"][idx]["hash"], "stats.json")
            if os.path.exists(path):
                per_col[cols[c]] = json.load(open(path))
        rows[row["workload"]] = per_col
    return cols, rows


def total(stats):
    return stats["timing"]["total"]


def sm_sum(stats, name):
    t = total(stats)
    return sum(v for k, v in t.items() if k.startswith("gpu.sm[") and k.endswith(".regfile.power." + name)
               and isinstance(v, (int, float)))


def rf_leak(stats):
    return stats["timing"]["energy"]["total"]["leakage_j"]["regfile"]


def ratio_of_level(stats, name):
    t = total(stats)
    for k, v in t.items():
        if k.startswith("gpu.power.residency.regfile[") and k.endswith(name):
            return v
    return None


def allocated_leak(stats, r_sleep, r_off):
    """Leakage of allocated registers relative to them all ON (from residency)."""
    on, sl, off, un = (sm_sum(stats, "residency_" + s) for s in ("on", "sleep", "off", "unallocated"))
    alloc = on + sl + off - un
    if alloc <= 0:
        return None
    return (on + r_sleep * sl + r_off * (off - un)) / alloc


def geomean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def pct(x):
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.2f} %"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cols, rows = load(sys.argv[1])
    print("## Register-file leakage and cycles against always-ON\n")
    print("| workload | cycles (always-ON) | Sleep-Reg cycles | GREENER cycles | Sleep-Reg RF leakage | GREENER RF leakage "
          "| Sleep-Reg allocated | GREENER allocated | GREENER vs Sleep-Reg |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    acc = {k: [] for k in ("sr_c", "g_c", "sr_e", "g_e", "sr_a", "g_a", "g_sr")}
    for w, pc in rows.items():
        if not all(c in pc for c in ("always_on", "sleep_reg", "greener")):
            print(f"| {w} | missing | | | | | | | |")
            continue
        base, sr, g = pc["always_on"], pc["sleep_reg"], pc["greener"]
        cb, cs, cg = base["cycles"], sr["cycles"], g["cycles"]
        eb, es, eg = rf_leak(base), rf_leak(sr), rf_leak(g)
        sleep_ratio = g_config(g, "sleep_leakage_ratio")
        off_ratio = g_config(g, "off_leakage_ratio")
        a_sr = allocated_leak(sr, sleep_ratio, off_ratio)
        a_g = allocated_leak(g, sleep_ratio, off_ratio)
        acc["sr_c"].append(cs / cb)
        acc["g_c"].append(cg / cb)
        acc["sr_e"].append(es / eb)
        acc["g_e"].append(eg / eb)
        acc["sr_a"].append(a_sr)
        acc["g_a"].append(a_g)
        acc["g_sr"].append(eg / es)
        print(f"| {w} | {cb} | {pct(cs / cb - 1)} | {pct(cg / cb - 1)} | {pct(1 - es / eb)} | {pct(1 - eg / eb)} "
              f"| {pct(1 - a_sr) if a_sr else 'n/a'} | {pct(1 - a_g) if a_g else 'n/a'} | {pct(1 - eg / es)} |")
    gm = {k: geomean(v) for k, v in acc.items()}
    print(f"| **geomean** | | {pct(gm['sr_c'] - 1)} | {pct(gm['g_c'] - 1)} | {pct(1 - gm['sr_e'])} | {pct(1 - gm['g_e'])} "
          f"| {pct(1 - gm['sr_a'])} | {pct(1 - gm['g_a'])} | {pct(1 - gm['g_sr'])} |")
    print("\nCycle columns: change against always-ON; leakage columns: reduction against always-ON "
          "(RF = the whole register file of every SM, as the energy model charges it; allocated = registers held by "
          "resident warps only), last column: GREENER's reduction against Sleep-Reg.\n")

    print("## GREENER: residency of allocated registers, wake-ups, lookup table\n")
    print("| workload | ON | SLEEP | OFF | unallocated share of the file | wake-ups SLEEP / OFF per 1000 warp instr. "
          "| wake-up stall cycles per warp instr. | lookup entries (avg / max) | kept ON |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for w, pc in rows.items():
        g = pc.get("greener")
        if g is None:
            continue
        on, sl, off, un = (sm_sum(g, "residency_" + s) for s in ("on", "sleep", "off", "unallocated"))
        alloc = on + sl + off - un
        wi = g["warp_instructions"] or 1
        look = sm_sum(g, "lookups") or 1
        emax = max((v for k, v in total(g).items() if k.endswith("regfile.power.lookup_entries_max")), default=0)
        print(f"| {w} | {pct(on / alloc) if alloc else 'n/a'} | {pct(sl / alloc) if alloc else 'n/a'} "
              f"| {pct((off - un) / alloc) if alloc else 'n/a'} | {pct(un / (on + sl + off))} "
              f"| {1000 * sm_sum(g, 'wakeups_from_sleep') / wi:.1f} / {1000 * sm_sum(g, 'wakeups_from_off') / wi:.1f} "
              f"| {sm_sum(g, 'wakeup_stall_cycles') / wi:.3f} "
              f"| {sm_sum(g, 'lookup_entries') / look:.2f} / {emax:.0f} | {sm_sum(g, 'kept_on'):.0f} |")

    base_rows = rows
    for title, idx in (("W sweep (GREENER, wake-up 1/2)", 2), ("Wake-up latency WL-X (W = 3)", 3),
                       ("Run-time correction (GREENER, W = 3; false = Comp-OPT, the compiler's states alone)", 4)):
        if len(sys.argv) <= idx:
            continue
        cols2, rows2 = load(sys.argv[idx])
        print(f"\n## {title}\n")
        print("| column | RF leakage vs always-ON (geomean) | allocated-register leakage vs always-ON (geomean) "
              "| cycles vs always-ON (geomean) | max cycle overhead (workload) |")
        print("|---|---:|---:|---:|---:|")
        for c in cols2:
            e, a, cy = [], [], []
            worst = (None, -1.0)
            for w, pc in rows2.items():
                g = pc.get(c)
                b = base_rows.get(w, {}).get("always_on")
                if g is None or b is None:
                    continue
                e.append(rf_leak(g) / rf_leak(b))
                a.append(allocated_leak(g, g_config(g, "sleep_leakage_ratio"), g_config(g, "off_leakage_ratio")))
                cy.append(g["cycles"] / b["cycles"])
                if cy[-1] - 1 > worst[1]:
                    worst = (w, cy[-1] - 1)
            print(f"| {c} | {pct(1 - geomean(e))} reduction | {pct(1 - geomean(a))} reduction | {pct(geomean(cy) - 1)} "
                  f"| {pct(worst[1])} ({worst[0]}) |")


# The studies keep the presets' leakage ratios (gpu.sm.regfile.power.*_leakage_ratio).
# The OFF ratio is in every point's statistics and is checked against this table.
CONFIG_DEFAULTS = {"sleep_leakage_ratio": 0.25, "off_leakage_ratio": 0.05}


def g_config(stats, key):
    off = ratio_of_level(stats, "reduced_ratio")
    if off is not None and abs(off - CONFIG_DEFAULTS["off_leakage_ratio"]) > 1e-12:
        sys.exit("greener_table.py: a point used off_leakage_ratio %g, not the presets' %g" %
                 (off, CONFIG_DEFAULTS["off_leakage_ratio"]))
    return CONFIG_DEFAULTS[key]

if __name__ == "__main__":
    main()
