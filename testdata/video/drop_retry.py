#!/usr/bin/env python3
"""ptxas with drop-and-retry: compiles PTX to a cubin; where ptxas rejects a line,
that line (one variant of gen.py's output, tagged // V<n>) or else the kernel
holding it is dropped and the compile repeated.
Prints the dropped variants (tag and ptxas's message) to stdout.
Run: python3 drop_retry.py IN.ptx OUT.cubin"""
import re, subprocess, sys

src, cubin = sys.argv[1], sys.argv[2]
lines = open(src).read().split("\n")
work = cubin + ".ptx"
for attempt in range(60):
    open(work, "w").write("\n".join(lines))
    p = subprocess.run(["ptxas", "-arch=sm_90", work, "-o", cubin], capture_output=True, text=True)
    if p.returncode == 0:
        print(f"# ok after {attempt} retries")
        sys.exit(0)
    bad = {}
    for m in re.finditer(r"line (\d+); (?:error|fatal)\s*:\s*(.*)", p.stderr):
        bad.setdefault(int(m.group(1)), m.group(2).strip())
    if not bad:
        print("# ptxas failed without a line:", p.stderr.strip().replace("\n", " | "))
        sys.exit(1)
    for ln in sorted(bad, reverse=True):
        text = lines[ln - 1]
        if "// V" in text:
            print(f"dropped {text.rsplit('// ', 1)[-1]} {bad[ln]} :: {text.strip()}")
            lines[ln - 1] = ""
            continue
        # A line of a multi-line kernel: drop the whole .entry.
        b = ln - 1
        while b >= 0 and ".entry" not in lines[b]:
            b -= 1
        e = ln - 1
        while e < len(lines) and lines[e] != "}":
            e += 1
        if b < 0 or e >= len(lines):
            print("# a line outside any kernel was rejected:", text.strip())
            sys.exit(1)
        name = lines[b].split(".entry", 1)[1].split("(")[0].strip()
        print(f"dropped kernel {name} {bad[ln]} :: {text.strip()}")
        for i in range(b, e + 1):
            lines[i] = ""
print("# gave up")
sys.exit(1)
