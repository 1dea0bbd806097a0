#!/usr/bin/python3
"""End-to-end test of a KernelScope kernel through Debian's jupyter_client.

Run with /usr/bin/python3 (the Debian python that has jupyter_client):

    KERNELSCOPE_BIN=/path/to/kernelscope /usr/bin/python3 tests/jupyter_client_test.py

KERNELSCOPE_BIN must understand `install --user` (writing the kernelspec into
$JUPYTER_DATA_DIR, which this test points at a temp dir) and `kernel -f FILE`.

The cell texts below fit the fake engine of kernel/internal/testkernel. To run this
test against the real kernel with CUDA cells, put a JSON object with any of the keys
of CELLS in a file and set KERNELSCOPE_CELLS=/path/to/cells.json; missing keys keep
their defaults, a key set to null skips the checks that need it.

For example, for the real kernel (cell texts are illustrative; use ones its engine supports):

    {"display": "%sample vector_add",
     "quick": "%arch sm_80",
     "error": "__global__ void k(float *a) {\n  a[0] = undefined_name;\n}",
     "error_text": "line 2",
     "unknown_magic": "%bogus", "unknown_magic_text": "bogus",
     "long": "%budget 1e15\n__global__ void spin() { while (true) {} }",
     "complete_code": "__sync", "complete_match": "__syncthreads",
     "inspect_code": "__syncthreads();", "inspect_cursor": 4, "inspect_text": "__syncthreads",
     "is_complete_complete": "__global__ void k() {}",
     "is_complete_incomplete": "__global__ void k() {"}

The last line printed is a summary: "jupyter_client_test: P passed, F failed, S skipped".
Exit status: 0 when nothing failed.
"""

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import uuid

# Cell texts and expectations; override with KERNELSCOPE_CELLS (see above).
CELLS = {
    # A cell that answers with display_data holding text/html.
    "display": "display",
    # A quick cell that succeeds.
    "quick": "hello",
    # A cell that fails; its error text must contain error_text.
    "error": "first line\nFAIL here\nthird line",
    "error_text": "line 2",
    # A second failing cell, e.g. an unknown magic (null: skipped); text must contain unknown_magic_text.
    "unknown_magic": None,
    "unknown_magic_text": None,
    # A cell that runs until interrupted (at least 30 s).
    "long": "sleep 60",
    # complete_request: code, cursor (null = end of code, in code points) and a match that must be offered.
    "complete_code": "x = __sync",
    "complete_cursor": None,
    "complete_match": "__syncthreads",
    # inspect_request: code, cursor, and text the text/plain documentation must contain.
    "inspect_code": "__syncthreads();",
    "inspect_cursor": 4,
    "inspect_text": "__syncthreads",
    # is_complete_request: a complete and an incomplete cell.
    "is_complete_complete": "void f() { g(); }",
    "is_complete_incomplete": "void f() {",
}

KERNEL_NAME = "kernelscope"
TIMEOUT = float(os.environ.get("KERNELSCOPE_TIMEOUT", "30"))


class Failure(Exception):
    """A failed check."""


class Skip(Exception):
    """A check that cannot run here."""


def check(cond, what):
    if not cond:
        raise Failure(what)


def load_cells():
    cells = dict(CELLS)
    path = os.environ.get("KERNELSCOPE_CELLS")
    if path:
        with open(path) as f:
            extra = json.load(f)
        unknown = set(extra) - set(CELLS)
        if unknown:
            raise SystemExit(f"KERNELSCOPE_CELLS: unknown keys {sorted(unknown)}")
        cells.update(extra)
    return cells


def need(cells, *keys):
    for k in keys:
        if cells.get(k) is None:
            raise Skip(f"cell {k!r} not configured")


def iopub_until_idle(kc, msg_id, timeout=TIMEOUT):
    """Returns the iopub messages whose parent is msg_id, up to and including status idle."""
    msgs = []
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise Failure(f"no idle status for {msg_id} within {timeout}s; got {[m['msg_type'] for m in msgs]}")
        try:
            m = kc.get_iopub_msg(timeout=left)
        except queue.Empty:
            continue
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        msgs.append(m)
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            return msgs


def shell_reply(kc, msg_id, timeout=TIMEOUT):
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise Failure(f"no shell reply to {msg_id} within {timeout}s")
        try:
            m = kc.get_shell_msg(timeout=left)
        except queue.Empty:
            continue
        if m["parent_header"].get("msg_id") == msg_id:
            return m


def run_cell(kc, code, **kw):
    """Executes code and returns (reply, iopub messages)."""
    msg_id = kc.execute(code, **kw)
    reply = shell_reply(kc, msg_id)
    msgs = iopub_until_idle(kc, msg_id)
    return reply, msgs


def types(msgs):
    return [m["msg_type"] if m["msg_type"] != "status" else "status:" + m["content"]["execution_state"] for m in msgs]


def error_text(content):
    return "\n".join([content.get("ename", ""), content.get("evalue", "")] + list(content.get("traceback", [])))


def drain(kc):
    for get in (kc.get_iopub_msg, kc.get_shell_msg):
        while True:
            try:
                get(timeout=0.2)
            except queue.Empty:
                break


class Suite:
    def __init__(self, cells):
        self.cells = cells
        self.km = None
        self.kc = None

    # --- lifecycle -------------------------------------------------------------

    def start(self):
        from jupyter_client.manager import KernelManager

        self.km = KernelManager(kernel_name=KERNEL_NAME)
        self.km.start_kernel()
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=TIMEOUT)
        drain(self.kc)

    def stop(self):
        if self.kc is not None:
            self.kc.stop_channels()
        if self.km is not None and self.km.has_kernel:
            self.km.shutdown_kernel(now=True)

    def pid(self):
        return self.km.provisioner.process.pid

    # --- checks ----------------------------------------------------------------

    def test_kernelspec_listed(self):
        from jupyter_client.kernelspec import KernelSpecManager

        specs = KernelSpecManager().find_kernel_specs()
        check(KERNEL_NAME in specs, f"{KERNEL_NAME} not in {specs}")
        check(specs[KERNEL_NAME].startswith(os.environ["JUPYTER_DATA_DIR"]), f"spec dir {specs[KERNEL_NAME]}")
        spec = KernelSpecManager().get_kernel_spec(KERNEL_NAME)
        check(spec.display_name == "KernelScope (CUDA)", f"display_name {spec.display_name!r}")
        check(spec.language == "cuda" and spec.interrupt_mode == "message", f"spec {spec.to_dict()}")
        check(os.path.isabs(spec.argv[0]) and spec.argv[-1] == "{connection_file}", f"argv {spec.argv}")
        for logo in ("logo-32x32.png", "logo-64x64.png", "logo-svg.svg"):
            check(os.path.getsize(os.path.join(specs[KERNEL_NAME], logo)) > 0, f"{logo} missing")
        # `jupyter kernelspec list`; its module form where Debian's jupyter-client tools are missing.
        cmd = [sys.executable, "-m", "jupyter_client.kernelspecapp", "list"]
        if os.path.exists("/usr/bin/jupyter-kernelspec"):
            cmd = ["/usr/bin/jupyter", "kernelspec", "list"]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, check=True).stdout
        check(KERNEL_NAME in out.split(), f"jupyter kernelspec list: {out!r}")

    def test_kernel_info(self):
        msg_id = self.kc.kernel_info()
        reply = shell_reply(self.kc, msg_id)
        c = reply["content"]
        check(reply["msg_type"] == "kernel_info_reply", reply["msg_type"])
        check(c["status"] == "ok" and c["protocol_version"] == "5.3", f"content {c}")
        check(c["implementation"] == "kernelscope", c["implementation"])
        li = c["language_info"]
        want = {"name": "cuda", "mimetype": "text/x-cuda-src", "file_extension": ".cu",
                "pygments_lexer": "cuda", "codemirror_mode": "text/x-c++src"}
        for k, v in want.items():
            check(li.get(k) == v, f"language_info[{k}] = {li.get(k)!r}, want {v!r}")
        check("banner" in c and isinstance(c.get("help_links"), list), "banner/help_links")
        msgs = iopub_until_idle(self.kc, msg_id)
        check(types(msgs) == ["status:busy", "status:idle"], f"iopub {types(msgs)}")

    def test_heartbeat(self):
        # A ping of our own, answered within TIMEOUT (jupyter_client's is_beating() needs
        # an answer within 1 s, which a loaded machine may miss).
        import zmq

        sock = zmq.Context.instance().socket(zmq.REQ)
        sock.linger = 0
        sock.connect(self.kc.hb_channel.address)
        try:
            sock.send(b"ping")
            check(sock.poll(int(TIMEOUT * 1000)), f"no heartbeat echo within {TIMEOUT}s")
            check(sock.recv() == b"ping", "heartbeat echo differs")
        finally:
            sock.close()

    def test_display_cell_order_and_counts(self):
        need(self.cells, "display")
        reply, msgs = run_cell(self.kc, self.cells["display"])
        t = types(msgs)
        check(reply["content"]["status"] == "ok", f"reply {reply['content']}")
        check(t[0] == "status:busy" and t[1] == "execute_input" and t[-1] == "status:idle", f"order {t}")
        check("display_data" in t, f"no display_data in {t}")
        first_display = t.index("display_data")
        check(all(x in ("stream", "display_data", "update_display_data") for x in t[2:-1]), f"unexpected {t}")
        check(first_display > 1, f"order {t}")
        disp = [m for m in msgs if m["msg_type"] == "display_data"]
        check(any("text/html" in m["content"]["data"] for m in disp), "no text/html in display_data")
        n1 = reply["content"]["execution_count"]
        check(msgs[1]["content"]["execution_count"] == n1, "execute_input count differs from reply's")
        reply2, _ = run_cell(self.kc, self.cells["display"])
        check(reply2["content"]["execution_count"] == n1 + 1,
              f"count {reply2['content']['execution_count']} after {n1}")

    def test_silent_and_store_history(self):
        need(self.cells, "quick")
        r0, _ = run_cell(self.kc, self.cells["quick"])
        n = r0["content"]["execution_count"]
        reply, msgs = run_cell(self.kc, self.cells["quick"], silent=True)
        check(reply["content"]["status"] == "ok", f"reply {reply['content']}")
        check(types(msgs) == ["status:busy", "status:idle"], f"silent published {types(msgs)}")
        check(reply["content"]["execution_count"] == n, "silent cell changed the count")
        reply, _ = run_cell(self.kc, self.cells["quick"], store_history=False)
        check(reply["content"]["execution_count"] == n, "store_history=False changed the count")
        check(reply["content"]["user_expressions"] == {}, "user_expressions not empty")
        reply, _ = run_cell(self.kc, self.cells["quick"])
        check(reply["content"]["execution_count"] == n + 1, "count did not increment")

    def check_error_cell(self, code, text):
        reply, msgs = run_cell(self.kc, code)
        c = reply["content"]
        check(c["status"] == "error", f"status {c['status']}")
        check("execution_count" in c, "execution_count missing")
        errs = [m for m in msgs if m["msg_type"] == "error"]
        check(len(errs) == 1, f"{len(errs)} error messages: {types(msgs)}")
        check(text in error_text(errs[0]["content"]), f"{text!r} not in {error_text(errs[0]['content'])!r}")
        check(types(msgs)[-1] == "status:idle" and types(msgs)[-2] == "error", f"order {types(msgs)}")

    def test_error_cell(self):
        need(self.cells, "error", "error_text")
        self.check_error_cell(self.cells["error"], self.cells["error_text"])

    def test_unknown_magic(self):
        need(self.cells, "unknown_magic", "unknown_magic_text")
        self.check_error_cell(self.cells["unknown_magic"], self.cells["unknown_magic_text"])

    def test_stop_on_error_aborts(self):
        need(self.cells, "error", "quick")
        bad = self.kc.execute(self.cells["error"])
        queued = [self.kc.execute(self.cells["quick"]) for _ in range(2)]
        check(shell_reply(self.kc, bad)["content"]["status"] == "error", "failing cell not error")
        for q in queued:
            c = shell_reply(self.kc, q)["content"]
            check(c["status"] == "aborted", f"queued cell status {c['status']}, want aborted")
            check("execution_count" in c, "aborted reply lacks execution_count")
        drain(self.kc)
        reply, _ = run_cell(self.kc, self.cells["quick"])
        check(reply["content"]["status"] == "ok", "kernel still aborting after the queue emptied")
        # stop_on_error=False: the queued cell runs.
        bad = self.kc.execute(self.cells["error"], stop_on_error=False)
        nxt = self.kc.execute(self.cells["quick"])
        check(shell_reply(self.kc, bad)["content"]["status"] == "error", "failing cell not error")
        check(shell_reply(self.kc, nxt)["content"]["status"] == "ok", "cell behind stop_on_error=False not run")
        drain(self.kc)

    def test_complete(self):
        need(self.cells, "complete_code", "complete_match")
        code = self.cells["complete_code"]
        cursor = self.cells["complete_cursor"]
        if cursor is None:
            cursor = len(code)
        reply = shell_reply(self.kc, self.kc.complete(code, cursor))
        c = reply["content"]
        check(c["status"] == "ok", f"status {c}")
        check(self.cells["complete_match"] in c["matches"], f"{self.cells['complete_match']!r} not in {c['matches']}")
        check(0 <= c["cursor_start"] <= c["cursor_end"] <= len(code), f"cursor range {c['cursor_start']}..{c['cursor_end']}")
        # cursor_pos counts code points: a prefix of non-ASCII text must not shift the range.
        pre = "/* héllo ✓ */ "
        reply = shell_reply(self.kc, self.kc.complete(pre + code, cursor + len(pre)))
        c2 = reply["content"]
        check(c2["cursor_start"] == c["cursor_start"] + len(pre) and c2["cursor_end"] == c["cursor_end"] + len(pre),
              f"code-point cursor: {c2['cursor_start']}..{c2['cursor_end']} vs {c['cursor_start']}..{c['cursor_end']} + {len(pre)}")

    def test_inspect(self):
        need(self.cells, "inspect_code", "inspect_text")
        reply = shell_reply(self.kc, self.kc.inspect(self.cells["inspect_code"], self.cells["inspect_cursor"]))
        c = reply["content"]
        check(c["status"] == "ok" and c["found"], f"inspect {c}")
        check(self.cells["inspect_text"] in c["data"].get("text/plain", ""), f"text/plain {c['data']}")
        reply = shell_reply(self.kc, self.kc.inspect("   ", 1))
        check(reply["content"]["found"] is False, "found documentation for blanks")

    def test_is_complete(self):
        need(self.cells, "is_complete_complete", "is_complete_incomplete")
        c = shell_reply(self.kc, self.kc.is_complete(self.cells["is_complete_complete"]))["content"]
        check(c["status"] == "complete", f"complete cell: {c}")
        c = shell_reply(self.kc, self.kc.is_complete(self.cells["is_complete_incomplete"]))["content"]
        check(c["status"] == "incomplete" and isinstance(c.get("indent"), str), f"incomplete cell: {c}")

    def test_history(self):
        need(self.cells, "quick")
        marker = self.cells["quick"]
        r, _ = run_cell(self.kc, marker)
        n = r["content"]["execution_count"]
        h = shell_reply(self.kc, self.kc.history(hist_access_type="tail", n=3))["content"]["history"]
        check(len(h) == 3 and h[-1][1] == n and h[-1][2] == marker, f"tail {h}")
        h = shell_reply(self.kc, self.kc.history(hist_access_type="range", session=0, start=1, stop=3))["content"]["history"]
        check([e[1] for e in h] == [1, 2], f"range 1..3: {h}")
        pattern = marker[:2] + "*"
        h = shell_reply(self.kc, self.kc.history(hist_access_type="search", pattern=pattern, unique=True, n=100))["content"]["history"]
        inputs = [e[2] for e in h]
        check(marker in inputs and len(inputs) == len(set(inputs)), f"search {pattern!r} unique: {h}")
        check(all(x.startswith(marker[:2]) for x in inputs), f"search {pattern!r} matched {inputs}")

    def test_comms(self):
        c = shell_reply(self.kc, self.kc.comm_info())["content"]
        check(c["status"] == "ok" and c["comms"] == {}, f"comm_info {c}")
        comm_id = uuid.uuid4().hex
        msg = self.kc.session.msg("comm_open", {"comm_id": comm_id, "target_name": "no.such.target", "data": {}})
        self.kc.shell_channel.send(msg)
        msgs = iopub_until_idle(self.kc, msg["header"]["msg_id"])
        closes = [m for m in msgs if m["msg_type"] == "comm_close"]
        check(len(closes) == 1 and closes[0]["content"]["comm_id"] == comm_id, f"comm_open answered {types(msgs)}")

    def interrupt_long_cell(self, how):
        need(self.cells, "long", "quick")
        msg_id = self.kc.execute(self.cells["long"])
        # Wait until the cell is running.
        deadline = time.monotonic() + TIMEOUT
        while True:
            m = self.kc.get_iopub_msg(timeout=max(0.1, deadline - time.monotonic()))
            if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "execute_input":
                break
        # The kernel publishes execute_input once an interrupt reaches the cell. The long
        # cell runs at least 30 s: a reply within 15 s means the interrupt stopped it.
        how()
        reply = shell_reply(self.kc, msg_id, timeout=15)
        c = reply["content"]
        check(c["status"] == "error", f"interrupted cell status {c['status']}")
        check("interrupt" in error_text(c).lower(), f"error {error_text(c)!r}")
        msgs = iopub_until_idle(self.kc, msg_id)
        check(sum(m["msg_type"] == "error" for m in msgs) == 1, f"iopub {types(msgs)}")
        check(self.km.is_alive(), "kernel died")
        reply, _ = run_cell(self.kc, self.cells["quick"])
        check(reply["content"]["status"] == "ok", "next cell failed after interrupt")

    def test_interrupt_message(self):
        self.interrupt_long_cell(self.km.interrupt_kernel)

    def test_interrupt_sigint(self):
        self.interrupt_long_cell(lambda: os.kill(self.pid(), signal.SIGINT))

    def test_wrong_key_ignored(self):
        from jupyter_client.session import Session

        bad = Session(key=b"not-the-key", signature_scheme="hmac-sha256", session=self.kc.session.session)
        sock = self.kc.shell_channel.socket
        m1 = bad.send(sock, "kernel_info_request", {})
        m2 = bad.send(sock, "execute_request", {"code": self.cells["quick"] or "x", "silent": False,
                                                 "store_history": True, "user_expressions": {},
                                                 "allow_stdin": False, "stop_on_error": True})
        bad_ids = {m1["header"]["msg_id"], m2["header"]["msg_id"]}
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            for get in (self.kc.get_shell_msg, self.kc.get_iopub_msg):
                try:
                    m = get(timeout=0.1)
                except queue.Empty:
                    continue
                check(m["parent_header"].get("msg_id") not in bad_ids,
                      f"kernel acted on a wrongly signed message: {m['msg_type']}")
        reply = shell_reply(self.kc, self.kc.kernel_info())
        check(reply["content"]["status"] == "ok", "kernel does not answer after a bad signature")
        drain(self.kc)

    def test_restart(self):
        need(self.cells, "quick")
        old = self.pid()
        self.km.restart_kernel(now=False)
        check(self.pid() != old, "restart kept the same process")
        self.kc.wait_for_ready(timeout=TIMEOUT)
        drain(self.kc)
        reply, _ = run_cell(self.kc, self.cells["quick"])
        check(reply["content"]["status"] == "ok" and reply["content"]["execution_count"] == 1,
              f"after restart: {reply['content']}")

    def test_shutdown_ends_process(self):
        proc = self.km.provisioner.process
        msg_id = self.kc.shutdown()
        reply = self.kc.get_control_msg(timeout=TIMEOUT)
        check(reply["parent_header"]["msg_id"] == msg_id and reply["content"]["status"] == "ok",
              f"shutdown reply {reply['content']}")
        try:
            rc = proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            raise Failure("kernel still running 10s after shutdown_request")
        check(rc == 0, f"kernel exit status {rc}")


def main():
    binary = os.environ.get("KERNELSCOPE_BIN")
    if not binary:
        print("KERNELSCOPE_BIN is not set", file=sys.stderr)
        print("jupyter_client_test: 0 passed, 1 failed, 0 skipped")
        return 1
    cells = load_cells()
    data_dir = tempfile.mkdtemp(prefix="kernelscope-jupyter-")
    os.environ["JUPYTER_DATA_DIR"] = data_dir
    os.environ.setdefault("JUPYTER_RUNTIME_DIR", os.path.join(data_dir, "runtime"))
    results = {"passed": 0, "failed": 0, "skipped": 0}
    suite = Suite(cells)
    try:
        subprocess.run([binary, "install", "--user"], check=True, timeout=TIMEOUT,
                       env=dict(os.environ, JUPYTER_DATA_DIR=data_dir))
        order = ["test_kernelspec_listed", "START", "test_kernel_info", "test_heartbeat",
                 "test_display_cell_order_and_counts", "test_silent_and_store_history", "test_error_cell",
                 "test_unknown_magic", "test_stop_on_error_aborts", "test_complete", "test_inspect",
                 "test_is_complete", "test_history", "test_comms", "test_interrupt_message",
                 "test_interrupt_sigint", "test_wrong_key_ignored", "test_restart", "test_shutdown_ends_process"]
        for name in order:
            if name == "START":
                suite.start()
                continue
            t0 = time.monotonic()
            try:
                getattr(suite, name)()
            except Skip as e:
                results["skipped"] += 1
                print(f"SKIP {name}: {e}")
                continue
            except Exception as e:  # noqa: BLE001 - report every failure and go on
                results["failed"] += 1
                print(f"FAIL {name}: {e}")
                if not isinstance(e, Failure):
                    traceback.print_exc()
                try:
                    drain(suite.kc)
                except Exception:  # noqa: BLE001
                    pass
                continue
            results["passed"] += 1
            print(f"ok   {name} ({time.monotonic() - t0:.2f}s)")
    except Exception as e:  # noqa: BLE001
        results["failed"] += 1
        print(f"FAIL setup: {e}")
        traceback.print_exc()
    finally:
        try:
            suite.stop()
        except Exception as e:  # noqa: BLE001
            print(f"cleanup: {e}", file=sys.stderr)
        shutil.rmtree(data_dir, ignore_errors=True)
    print(f"jupyter_client_test: {results['passed']} passed, {results['failed']} failed, {results['skipped']} skipped")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
