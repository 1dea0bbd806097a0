#!/usr/bin/env python3
"""Reads `go test -json` on stdin and prints what plain `go test` prints (one line per
package, the output of every failed test, build errors), then the skipped tests and a summary:
    go test: P passed, F failed, S skipped
With --no-skips (scripts/test.sh passes it when CI=true) a skipped test is a failure too:
under CI every test must run, a test that skips because a tool or data is missing counts as
failed. The one exception is an opt-in test whose skip message names the environment variable
that turns it on (e.g. "set KS_MATHFIT=1 to print the polynomial fits"): it is listed, not failed.
Exit status: 0 when no test, build or package failed (and, with --no-skips, none skipped)."""
import json
import re
import sys

# A skip message naming the switch of an opt-in test: KS_SOMETHING=value.
OPT_IN = re.compile(r"\bKS_[A-Z0-9_]+=")


def main():
    no_skips = "--no-skips" in sys.argv[1:]
    buf = {}          # (package, test) -> output lines of a test still running
    skipped = []      # (package, test, reason)
    passed = failed = 0
    pkg_failed = set()
    out = sys.stdout

    for raw in sys.stdin:
        try:
            ev = json.loads(raw)
        except ValueError:
            out.write(raw)  # not an event: go's own messages (downloads, vet, ...)
            out.flush()
            continue
        if not isinstance(ev, dict):
            out.write(raw)
            continue
        action = ev.get("Action", "")
        if action == "build-output":
            out.write(ev.get("Output", ""))
            continue
        if action == "build-fail":
            pkg_failed.add(ev.get("ImportPath", "?").split(" [")[0])
            continue
        pkg, test = ev.get("Package", ""), ev.get("Test")
        if test is None:
            if action == "output":
                line = ev.get("Output", "")
                if line.strip() != "PASS":
                    out.write(line)
                    out.flush()
            elif action == "fail":
                pkg_failed.add(pkg)
            continue
        key = (pkg, test)
        if action == "run":
            buf[key] = []
        elif action == "output":
            line = ev.get("Output", "")
            if not line.startswith(("=== RUN", "=== PAUSE", "=== CONT", "=== NAME")):
                buf.setdefault(key, []).append(line)
        elif action == "pass":
            passed += 1
            buf.pop(key, None)
        elif action == "fail":
            failed += 1
            out.write("".join(buf.pop(key, [])) or f"--- FAIL: {test}\n")
            out.flush()
        elif action == "skip":
            lines = [l.strip() for l in buf.pop(key, []) if l.strip() and not l.strip().startswith("--- SKIP")]
            skipped.append((pkg, test, " / ".join(lines) or "(no reason given)"))

    # Tests that never finished (a panic or timeout ended their binary): show what they printed.
    for (pkg, test), lines in buf.items():
        if lines:
            out.write(f"--- {pkg} {test} did not finish:\n" + "".join(lines))
    opt_in = [sk for sk in skipped if OPT_IN.search(sk[2])]
    other = [sk for sk in skipped if not OPT_IN.search(sk[2])]
    for pkg, test, reason in opt_in:
        out.write(f"SKIP (opt-in) {pkg} {test}: {reason}\n")
    for pkg, test, reason in other:
        out.write(f"SKIP {pkg} {test}: {reason}\n")
    out.write(f"go test: {passed} passed, {failed} failed, {len(skipped)} skipped"
              + (f" ({len(opt_in)} opt-in)" if opt_in else "") + "\n")
    status = 0
    if failed or pkg_failed:
        if pkg_failed:
            out.write("go test: failed packages: " + " ".join(sorted(pkg_failed)) + "\n")
        status = 1
    if no_skips and other:
        out.write(f"go test: {len(other)} tests skipped under CI=true; every test must run here "
                  "(install the missing tool with scripts/deps.sh)\n")
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
