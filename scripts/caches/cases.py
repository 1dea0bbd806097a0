#!/usr/bin/env python3
"""Writes the golden and scale case lists for scripts/caches/golden.cu (run from the repo root).
Usage: scripts/caches/cases.py OUTDIR  (writes OUTDIR/golden_cases.txt, OUTDIR/scale_cases.txt)"""
import json, os, sys

out = sys.argv[1]
G = "testdata/golden"

def scalar(a):
    t, v = a["type"], a["value"]
    return {"i32": "i:%d", "u32": "u:%d", "u8": "c:%d", "f32": "f:%r", "f64": "d:%r"}[t] % v

SIZE = {"f32": 4, "f64": 8, "i32": 4, "u32": 4, "u8": 1}

def line(name, c, golden):
    src = os.path.splitext(os.path.basename(c["source"]))[0]
    args = []
    for a in c["args"]:
        if a["type"].endswith("*"):
            t = a["type"][:-1]
            n = a["count"] * SIZE[t]
            if golden:
                args.append("b:%d:%s" % (n, os.path.basename(a["input"])))
            else:
                args.append("b:%d:%s" % (n, {"f32": "rand-f32", "f64": "rand-f64"}.get(t, "rand-bytes")))
        else:
            args.append(scalar(a))
    g, b = c["grid"], c["block"]
    return " ".join([name, "cubin/%s.cubin" % src, c["kernel"]] + [str(x) for x in g + b] +
                    [str(c.get("shared_bytes") or 0), str(len(args))] + args)

cases = json.load(open(os.path.join(G, "cases.json")))
with open(os.path.join(out, "golden_cases.txt"), "w") as f:
    for c in cases:
        f.write(line(c["name"], c, True) + "\n")
scale = json.load(open(os.path.join(G, "scale_sm90.json")))
with open(os.path.join(out, "scale_cases.txt"), "w") as f:
    for name, c in scale.items():
        f.write(line(name, c, False) + "\n")
