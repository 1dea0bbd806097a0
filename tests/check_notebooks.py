#!/usr/bin/python3
"""Checks executed notebooks: no error output except in cells tagged
"raises-exception", and every CUDA or PTX cell answered with text/html,
plain text and the JSON report, and no image of its own (%%writefile and
%%cuda_define cells answer with text).

    /usr/bin/python3 tests/check_notebooks.py build/notebooks/*.ipynb

Prints one line per problem and a summary "N passed, M failed" (one check per cell).
"""
import json
import sys

REPORT = "application/vnd.kernelscope.report+json"


def is_code_cell(src):
    """A cell that holds CUDA or PTX (not only magics)."""
    lines = [l for l in src.splitlines() if l.strip()]
    if not lines:
        return False
    if lines[0].startswith("%%ptx"):
        return True
    if lines[0].startswith(("%%writefile", "%%cuda_define")):
        return False  # answered with text: what was written, what was kept
    if any(l.lstrip().startswith("%sample ") for l in lines):
        return True
    return any(not l.lstrip().startswith("%") for l in lines)


def is_text_cell(src):
    """A %%writefile or %%cuda_define cell, answered with text."""
    lines = [l for l in src.splitlines() if l.strip()]
    return bool(lines) and lines[0].startswith(("%%writefile", "%%cuda_define"))


def main(paths):
    passed = failed = 0
    for path in paths:
        nb = json.load(open(path))
        for i, cell in enumerate(nb["cells"]):
            if cell["cell_type"] != "code":
                continue
            src = "".join(cell["source"])
            tags = cell.get("metadata", {}).get("tags", [])
            outs = cell.get("outputs", [])
            problems = []
            errors = [o for o in outs if o["output_type"] == "error"]
            if errors and "raises-exception" not in tags:
                problems.append("error output: %s" % errors[0].get("evalue", "")[:200])
            if is_code_cell(src) and "raises-exception" not in tags:
                datas = [o.get("data", {}) for o in outs if o["output_type"] in ("display_data", "update_display_data", "execute_result")]
                # No image of its own (jupyter console would open each one in a viewer): the charts
                # that say something are inline SVG inside the HTML.
                if not any("text/html" in d and REPORT in d and "text/plain" in d for d in datas):
                    problems.append("no display_data with text/html, text/plain and the JSON report")
                if any("image/png" in d or "image/svg+xml" in d for d in datas):
                    problems.append("an image in the bundle (text front ends would open it)")
                # Budgets of a cell's answer (issue 15): the whole output 250 KB, its HTML 150 KB.
                size = len(json.dumps(outs))
                html = sum(len("".join(d["text/html"]) if isinstance(d.get("text/html"), list) else d.get("text/html", "")) for d in datas)
                if size > 250 * 1024 or html > 150 * 1024:
                    problems.append("output %d KB (budget 250), HTML %d KB (budget 150)" % (size // 1024, html // 1024))
            if is_text_cell(src) and "raises-exception" not in tags:
                datas = [o.get("data", {}) for o in outs if o["output_type"] == "display_data"]
                if not any("text/plain" in d for d in datas):
                    problems.append("no display_data with text/plain (what was written or kept)")
            if problems:
                failed += 1
                for p in problems:
                    print("FAIL %s cell %d: %s" % (path, i, p))
            else:
                passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return failed == 0


if __name__ == "__main__":
    sys.exit(0 if main(sys.argv[1:]) else 1)
