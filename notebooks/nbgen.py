"""Shared helpers for the notebook generators (make_courses.py).

A notebook is built cell by cell; a code cell may carry, for the verifier,
`expect` (claims about its report in the notebook as stored) and `solution`
(the cell text after the student's edit, with `expect_solved` claims). Claims
are (text, function of the report JSON) pairs: the same numbers the markdown
states are the ones `make_courses.py --verify` checks against the kernel's real
output, so the stated expectations cannot drift from what KernelScope reports.
"""
import json, os

REPORT_MIME = "application/vnd.kernelscope.report+json"

KERNELSPEC = {"display_name": "KernelScope (CUDA)", "language": "cuda", "name": "kernelscope"}
LANGUAGE_INFO = {"name": "cuda", "mimetype": "text/x-cuda-src", "file_extension": ".cu",
                 "pygments_lexer": "cuda", "codemirror_mode": "text/x-c++src"}


class Notebook:
    def __init__(self, name, prefix):
        self.name, self.prefix = name, prefix
        self.cells = []      # nbformat cells
        self.claims = {}     # cell id -> (expect, solution, expect_solved)

    def md(self, s):
        self.cells.append({"cell_type": "markdown", "metadata": {}, "source": s.strip("\n")})

    def code(self, s, tags=None, expect=None, solution=None, expect_solved=None):
        c = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": s.strip("\n")}
        if tags:
            c["metadata"]["tags"] = tags
        self.cells.append(c)
        if expect or solution:
            self.claims[len(self.cells) - 1] = (expect or [], solution and solution.strip("\n"), expect_solved or [])

    def build(self, solved=False):
        """The notebook as a dict; solved=True puts each solution in place of its exercise."""
        cells = []
        for i, c in enumerate(self.cells):
            c = json.loads(json.dumps(c))
            c["id"] = "%s-%02d" % (self.prefix, i)
            if solved and i in self.claims and self.claims[i][1]:
                c["source"] = self.claims[i][1]
            cells.append(c)
        return {"cells": cells, "metadata": {"kernelspec": KERNELSPEC, "language_info": LANGUAGE_INFO},
                "nbformat": 4, "nbformat_minor": 5}

    def write(self, directory):
        path = os.path.join(directory, self.name + ".ipynb")
        nb = self.build()
        with open(path, "w") as f:
            json.dump(nb, f, indent=1)
            f.write("\n")
        return path


# Accessors over a report JSON, used by the claims.
def mem(r):
    return r.get("memory") or {}

def per_request(r, space_op):
    """Sectors per request of all global loads ('ld') or stores ('st')."""
    m = mem(r)
    if space_op == "ld":
        req, sec = m.get("global_load_requests", 0), m.get("global_load_sectors", 0)
    else:
        req, sec = m.get("global_store_requests", 0), m.get("global_store_sectors", 0)
    return sec / req if req else float("nan")

def rules(r):
    return [h["rule"] for h in r.get("hints") or []]

def output(r, name):
    for o in r.get("outputs") or []:
        if o["name"] == name:
            return o
    return {}

def occupancy(r):
    return (r.get("occupancy") or {}).get("occupancy_pct", float("nan"))

def shared_wavefronts(r):
    m = mem(r)
    return m.get("shared_load_wavefronts", 0) + m.get("shared_store_wavefronts", 0)

def bank_conflicts(r):
    m = mem(r)
    return m.get("shared_load_bank_conflicts", 0) + m.get("shared_store_bank_conflicts", 0)


# Correctness: the checks' findings ("sanitizer") and the %expect outcomes.
def findings(r, kind=None):
    """The sanitizer's findings of a report, all or of one kind."""
    return [f for f in r.get("sanitizer") or [] if kind is None or f["kind"] == kind]

def expectation(r, text):
    """The outcome of the %expect line with this text ({} when there is none)."""
    for e in r.get("expectations") or []:
        if e["text"] == text:
            return e
    return {}

def line_of(cell, needle):
    """The 1-based line of a cell (as Notebook.code stores it) holding needle: the line numbers reports use."""
    for i, line in enumerate(cell.strip("\n").split("\n")):
        if needle in line:
            return i + 1
    raise ValueError("%r not in the cell" % needle)
