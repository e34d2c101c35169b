#!/usr/bin/env python3
"""Joins weft-bench-runner's JSON lines into one table, where the `weft` CLI is not at hand (the
slim device bundle, scripts/device-slim.sh).

    scripts/bench-table.py native.json weft.json [native2.json] [pocl.json]

Each file's name (up to its first dot) names its column. Ratios: native over weft (native2's
times when given: the second native run of a call, after the machine has warmed up) and pocl
over weft; a median marked "!" did not verify. Prints the geomeans of both ratios.
"""
import json
import math
import sys

rows, order = {}, []
tags = [fn.rsplit("/", 1)[-1].split(".")[0] for fn in sys.argv[1:]]
for fn, tag in zip(sys.argv[1:], tags):
    for line in open(fn):
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if "bench" not in d:
            continue
        if d["bench"] not in rows:
            rows[d["bench"]] = {}
            order.append(d["bench"])
        rows[d["bench"]][tag] = (d.get("median"), d.get("verified", True))


def cell(r, t):
    if t not in r or r[t][0] is None:
        return "-"
    return "%.3g ms%s" % (r[t][0] * 1e3, "" if r[t][1] else "!")


print("%-20s" % "bench" + "".join("%13s" % t for t in tags) + "  weft/native  weft/pocl")
logs = {"native": [], "pocl": []}
for b in order:
    r = rows[b]
    w = r.get("weft", (None,))[0]
    n = r.get("native2", r.get("native", (None,)))[0]
    p = r.get("pocl", (None,))[0]
    rn = n / w if w and n else None
    rp = p / w if w and p else None
    if rn:
        logs["native"].append(math.log(rn))
    if rp:
        logs["pocl"].append(math.log(rp))
    print("%-20s" % b + "".join("%13s" % cell(r, t) for t in tags) +
          "  %10s %10s" % ("%.2fx" % rn if rn else "-", "%.2fx" % rp if rp else "-"))
for side, v in logs.items():
    if v:
        print("geomean vs %s %.3fx over %d" % (side, math.exp(sum(v) / len(v)), len(v)))
