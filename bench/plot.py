#!/usr/bin/python3
"""bench/plot.py — draws `weft bench --json` results as a PNG (matplotlib, Agg backend).

Top panel: Weft's speedup over every other platform and over the native reference, per
benchmark (log scale; above 1 means Weft is faster). Bottom panel: % of this machine's
measured peak (FMA throughput or stream bandwidth) per platform. Results that failed or did
not verify get no bar and a red label, never a value.

usage: plot.py RESULTS.json OUT.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def short(platform):
    return "pocl" if "Portable Computing Language" in platform else platform


def good(r):
    return r is not None and r.get("verified") is True and "median" in r


def throughput(r):
    if r["unit"] == "us/launch":
        return r["median"] / r["work"] * 1e6
    return r["work"] / r["median"]


def pct_peak(r, peak):
    t = throughput(r)
    if r["unit"] == "GFLOP/s" and peak.get("fma_sp_gflops"):
        return 100 * t / peak["fma_sp_gflops"]
    if r["unit"] == "GFLOP/s-dp" and peak.get("fma_dp_gflops"):
        return 100 * t / peak["fma_dp_gflops"]
    if r["unit"] == "GB/s":
        bw = max(peak.get("copy_gbs", 0), peak.get("triad_gbs", 0))
        return 100 * t / bw if bw else None
    return None


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        data = json.load(f)
    peak = data.get("peak") or {}
    platforms = data["platforms"]
    benches = []
    cell = {}
    for r in data["results"]:
        if r["bench"] not in benches:
            benches.append(r["bench"])
        cell[(r["bench"], r["platform"])] = r
    others = [p for p in platforms if p != "Weft"]
    x = range(len(benches))
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(max(10, 0.55 * len(benches) + 3), 9))
    width = 0.8 / max(1, len(others))
    for k, p in enumerate(others):
        vals, marks = [], []
        for i, b in enumerate(benches):
            w, o = cell.get((b, "Weft")), cell.get((b, p))
            if good(w) and good(o):
                vals.append(o["median"] / w["median"])
            else:
                vals.append(0)
                marks.append(i)
        pos = [i - 0.4 + width * (k + 0.5) for i in x]
        ax1.bar(pos, vals, width, label=f"Weft vs {short(p)}")
        for i in marks:
            ax1.text(pos[i], 1, "✗", color="red", ha="center", va="bottom")
    ax1.axhline(1.0, color="black", linewidth=0.8)
    ax1.set_yscale("log")
    ax1.set_ylabel("Weft speedup (other time / Weft time)")
    ax1.set_xticks(list(x))
    ax1.set_xticklabels(benches, rotation=60, ha="right", fontsize=8)
    ax1.legend(fontsize=8)
    ax1.set_title(f"weft bench ({data.get('size', '')}): speedup; ✗ = failed or wrong")

    width = 0.8 / max(1, len(platforms))
    for k, p in enumerate(platforms):
        vals = []
        for b in benches:
            r = cell.get((b, p))
            v = pct_peak(r, peak) if good(r) else None
            vals.append(v if v is not None else 0)
        pos = [i - 0.4 + width * (k + 0.5) for i in x]
        ax2.bar(pos, vals, width, label=short(p))
    ax2.set_ylabel("% of measured peak")
    ax2.set_xticks(list(x))
    ax2.set_xticklabels(benches, rotation=60, ha="right", fontsize=8)
    ax2.legend(fontsize=8)
    if peak:
        ax2.set_title(
            f"peak: FMA {peak.get('fma_sp_gflops', 0):.0f} GFLOP/s sp, "
            f"{peak.get('fma_dp_gflops', 0):.0f} dp; stream "
            f"{max(peak.get('copy_gbs', 0), peak.get('triad_gbs', 0)):.1f} GB/s"
        )
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
