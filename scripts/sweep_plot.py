#!/usr/bin/env python3
"""Plots of a sweep report, called by `simtlm sweep report`.

Usage: sweep_plot.py PLOT-DATA.json OUT-DIR

PLOT-DATA.json (written by simtlm) holds the row and column labels and, per
plot, the already normalised values; this script only draws them, as
OUT-DIR/<file>.png and OUT-DIR/<file>.svg:
  "bars": grouped bars, one group per workload plus a geomean group, one bar
          per configuration;
  "line": the normalised metric against a numeric axis, one thin line per
          workload and a thick geomean line.
The files are reproducible (no dates, fixed SVG ids) so they can be committed.
"""
import json
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

plt.rcParams["svg.hashsalt"] = "simtlm"
plt.rcParams["font.size"] = 9


def nan(values):
    return [math.nan if v is None else v for v in values]


def save(fig, out_dir, name):
    fig.tight_layout()
    fig.savefig(f"{out_dir}/{name}.svg", metadata={"Date": None, "Creator": None})
    fig.savefig(f"{out_dir}/{name}.png", dpi=120, metadata={"Software": None})
    plt.close(fig)


def bars(data, plot, out_dir):
    groups = data["rows"] + ["geomean"]
    columns = data["columns"]
    values = [nan(row) for row in plot["values"]] + [nan(plot["geomean"])]
    width = 0.8 / max(len(columns), 1)
    fig, ax = plt.subplots(figsize=(min(16.0, max(6.0, 0.12 * len(groups) * max(len(columns), 2) + 2.0)), 4.0))
    missing = False
    for c, label in enumerate(columns):
        xs = [g + (c - (len(columns) - 1) / 2) * width for g in range(len(groups))]
        bars = ax.bar(xs, [row[c] for row in values], width, label=label)
        # A point without a value (failed, or not run) is marked, not left out silently.
        gaps = [x for x, row in zip(xs, values) if math.isnan(row[c])]
        if gaps:
            missing = True
            ax.plot(gaps, [0.03] * len(gaps), "x", color=bars.patches[0].get_facecolor(), markersize=5)
    if missing:
        ax.plot([], [], "x", color="gray", label="no result")
    ax.axhline(1.0, color="black", linewidth=0.8)
    finite = [v for row in values for v in row if not math.isnan(v)]
    ax.set_ylim(0, 1.12 * max(finite + [1.0]))
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=60, ha="right")
    ax.set_xlim(-0.6, len(groups) - 0.4)
    ax.set_ylabel(plot["ylabel"])
    ax.set_title(data["name"])
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    ax.grid(axis="y", linewidth=0.3)
    save(fig, out_dir, plot["file"])


def line(data, plot, out_dir):
    fig, ax = plt.subplots(figsize=(6.0, 3.6))
    for label, ys in zip(data["rows"], plot["values"]):
        ax.plot(plot["x"], nan(ys), linewidth=0.8, alpha=0.6, marker=".", label=label)
    ax.plot(plot["x"], nan(plot["geomean"]), color="black", linewidth=2.2, marker="o", label="geomean")
    ax.set_xlabel(plot["xlabel"])
    ax.set_ylabel(plot["ylabel"])
    ax.set_title(data["name"])
    ax.grid(linewidth=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=7)
    save(fig, out_dir, plot["file"])


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: sweep_plot.py PLOT-DATA.json OUT-DIR")
    with open(sys.argv[1]) as f:
        data = json.load(f)
    for plot in data["plots"]:
        {"bars": bars, "line": line}[plot["kind"]](data, plot, sys.argv[2])


if __name__ == "__main__":
    main()
