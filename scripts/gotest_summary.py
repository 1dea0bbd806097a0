#!/usr/bin/env python3
"""Reads `go test -json` on stdin and prints what plain `go test` prints (one line per
package, the output of every failed test, build errors), then the skipped tests and a summary:
    go test: P passed, F failed, S skipped
With --no-skips (scripts/test.sh passes it when CI=true) any skipped test is a failure too:
under CI every test must run, a test that skips because a tool is missing counts as failed.
Exit status: 0 when no test, build or package failed (and, with --no-skips, none skipped)."""
import json
import sys


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
    for pkg, test, reason in skipped:
        out.write(f"SKIP {pkg} {test}: {reason}\n")
    out.write(f"go test: {passed} passed, {failed} failed, {len(skipped)} skipped\n")
    status = 0
    if failed or pkg_failed:
        if pkg_failed:
            out.write("go test: failed packages: " + " ".join(sorted(pkg_failed)) + "\n")
        status = 1
    if no_skips and skipped:
        out.write(f"go test: {len(skipped)} tests skipped under CI=true; every test must run here "
                  "(install the missing tool with scripts/deps.sh)\n")
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
