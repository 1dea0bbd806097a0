// The tour notebook in the real JupyterLab application (JupyterLab 3.6's shell
// and core extensions, built from npm by build.mjs, served by Debian's
// jupyterlab_server 2.16 on jupyter_server 1.23 through server.py) with the
// installed KernelScope kernel, in headless Chromium: open the notebook from the
// file browser's URL, clear its stored outputs, run all cells through
// JupyterLab's own command, check every code cell's outputs against the
// notebook's stored ones (kind of output, a report where one was stored), step
// the trace widget, take screenshots. Prints "N passed, M failed".
//   KS_NOTEBOOK   the notebook (notebooks/tour.ipynb)
//   KS_SHOTS      where screenshots go (build/screenshots)
//   KS_CHROMIUM   the browser (/usr/bin/chromium)
//   KS_PYTHON     the Python with jupyterlab_server (/usr/bin/python3)
// The kernelspec must be installed where the Jupyter server looks
// (JUPYTER_DATA_DIR); scripts/jupyterlab_app_test.sh does that.
import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const NOTEBOOK = path.resolve(repo, process.env.KS_NOTEBOOK || "notebooks/tour.ipynb");
const SHOTS = path.resolve(repo, process.env.KS_SHOTS || "build/screenshots");
const CHROMIUM = process.env.KS_CHROMIUM || "/usr/bin/chromium";
const PYTHON = process.env.KS_PYTHON || "/usr/bin/python3";

let passed = 0, failed = 0;
function check(ok, what, detail) {
  if (ok) { passed++; console.log(`ok   ${what}`); } else { failed++; console.log(`FAIL ${what}${detail ? ": " + detail : ""}`); }
  return ok;
}
const note = (s) => console.log(`     ${s}`);
const shot = (name) => path.join(SHOTS, name);

// What the stored notebook says each code cell answers with.
const nb = JSON.parse(fs.readFileSync(NOTEBOOK, "utf8"));
const want = nb.cells.filter((c) => c.cell_type === "code").map((c) => ({
  kinds: (c.outputs || []).map((o) => o.output_type),
  report: (c.outputs || []).some((o) => [].concat(o.data?.["text/html"] || []).join("").includes("ks-report")),
  // The sections and the script the stored report has: a %compare table has neither.
  sections: (c.outputs || []).map((o) => ([].concat(o.data?.["text/html"] || []).join("").match(/<details class="ks-section/g) || []).length).reduce((a, b) => a + b, 0),
  script: (c.outputs || []).some((o) => /<script/.test([].concat(o.data?.["text/html"] || []).join(""))),
}));

const freePort = () => new Promise((ok, bad) => {
  const s = net.createServer();
  s.on("error", bad);
  s.listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => ok(p)); });
});

const root = fs.mkdtempSync(path.join(os.tmpdir(), "ks-lab-root-"));
fs.copyFileSync(NOTEBOOK, path.join(root, path.basename(NOTEBOOK)));
const port = await freePort();
const BASE = `http://127.0.0.1:${port}`;
const serverLog = [];
const server = spawn(PYTHON, [path.join(here, "server.py"), "--port", String(port), "--root", root],
  { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, PYDEVD_DISABLE_FILE_VALIDATION: "1" } });
server.stdout.on("data", (d) => serverLog.push(String(d)));
server.stderr.on("data", (d) => serverLog.push(String(d)));
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "ks-lab-chromium-"));
let browser;
try {
  // The server is up when its REST API answers.
  let up = false;
  for (let i = 0; i < 120 && !up && server.exitCode === null; i++) {
    try { up = (await fetch(`${BASE}/api`)).ok; } catch { await new Promise((r) => setTimeout(r, 250)); }
  }
  if (!check(up, `jupyter_server + LabServerApp answer on ${BASE}`, serverLog.join("").slice(-2000))) throw new Error("no server");
  const specs = await (await fetch(`${BASE}/api/kernelspecs`)).json();
  check(!!specs.kernelspecs?.kernelscope, "the server lists the kernelscope kernelspec", Object.keys(specs.kernelspecs || {}).join(","));

  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, viewport: { width: 1366, height: 900 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push("pageerror: " + e.message));
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    // The browser's own line for the /api/me 404 below.
    if (/Failed to load resource/.test(m.text()) && /\/api\/me\b/.test(m.location()?.url || "")) return;
    errors.push("console: " + m.text().split("\n")[0] + (m.location()?.url ? ` (${m.location().url})` : ""));
  });
  page.on("response", (r) => {
    // jupyter_server 1.x has no identity API (/api/me, added in 2.0); JupyterLab 3.6 asks and goes on.
    if (r.status() >= 400 && !/\/api\/me\b/.test(r.url())) errors.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  await page.goto(`${BASE}/lab/tree/${path.basename(NOTEBOOK)}`);
  await page.waitForFunction(() => document.body.dataset.kernelscopeLab, null, { timeout: 120000 });
  const state = await page.evaluate(() => [document.body.dataset.kernelscopeLab, document.body.dataset.kernelscopeError]);
  if (!check(state[0] === "ready", "JupyterLab started (JupyterLab.start, all plugins restored)", state[1])) throw new Error("no lab");

  // The notebook opens from the URL with its kernel (the notebook's kernelspec).
  await page.waitForFunction(() => {
    const w = window.kernelscopeLab.shell.currentWidget;
    return w && w.sessionContext && w.sessionContext.session?.kernel?.status === "idle";
  }, null, { timeout: 120000 });
  const kernel = await page.evaluate(() => {
    const w = window.kernelscopeLab.shell.currentWidget;
    return { title: w.title.label, kernel: w.sessionContext.session.kernel.name, cells: w.content.widgets.length };
  });
  check(kernel.kernel === "kernelscope" && kernel.cells === nb.cells.length,
    `the notebook opened in a NotebookPanel with the kernelscope kernel (${kernel.cells} cells)`, JSON.stringify(kernel));

  // Clear what the file stored, then run every cell with JupyterLab's own command.
  await page.evaluate(() => window.kernelscopeLab.commands.execute("notebook:clear-all-cell-outputs"));
  const cleared = await page.evaluate(() => document.querySelectorAll(".jp-Notebook .jp-OutputArea-output").length);
  check(cleared === 0, "notebook:clear-all-cell-outputs left no output", `${cleared}`);
  const t0 = Date.now();
  await page.evaluate(() => window.kernelscopeLab.commands.execute("notebook:run-all-cells"));
  await page.waitForFunction(() => {
    const w = window.kernelscopeLab.shell.currentWidget;
    const cells = w.content.widgets.filter((c) => c.model.type === "code");
    return w.sessionContext.session.kernel.status === "idle" && cells.every((c) => c.model.executionCount !== null || c.model.outputs.length > 0);
  }, null, { timeout: 300000, polling: 500 });
  await page.waitForTimeout(1000);
  note(`run all cells: ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const got = await page.evaluate(() => {
    const w = window.kernelscopeLab.shell.currentWidget;
    return w.content.widgets.filter((c) => c.model.type === "code").map((c) => {
      const kinds = [];
      for (let i = 0; i < c.model.outputs.length; i++) kinds.push(c.model.outputs.get(i).type);
      const reports = Array.from(c.node.querySelectorAll(".jp-OutputArea-output .ks-report"));
      return {
        count: c.model.executionCount, kinds,
        reports: reports.length,
        init: reports.every((r) => r.dataset.ksInit === "1"),
        sections: reports.map((r) => r.querySelectorAll(":scope > details.ks-section").length),
      };
    });
  });
  check(got.length === want.length, `${want.length} code cells ran`, `${got.length}`);
  for (let i = 0; i < Math.min(got.length, want.length); i++) {
    const g = got[i], w = want[i];
    check(JSON.stringify(g.kinds) === JSON.stringify(w.kinds), `code cell ${i + 1}: outputs ${JSON.stringify(w.kinds)} as stored`, JSON.stringify(g.kinds));
    if (w.report) {
      check(g.reports === 1 && g.init === w.script && g.sections[0] === w.sections,
        `code cell ${i + 1}: one KernelScope report with the stored ${w.sections} sections${w.script ? ", its script ran (data-ks-init)" : ""}`, JSON.stringify(g));
    }
  }

  // The budgets of issue 15 in JupyterLab: the 3-line kernel's report (vector_add) at most
  // 1,100 px tall at a 1366 px wide window with the default sections, nothing wider than its output.
  const compact = await page.evaluate(() => {
    const r = Array.from(document.querySelectorAll(".jp-OutputArea-output .ks-report"))
      .find((e) => Array.from(e.querySelectorAll(".ks-summary .ks-k")).some((k) => k.textContent.trim() === "vector_add"));
    if (!r) return null;
    const out = r.closest(".jp-OutputArea-output").getBoundingClientRect(), box = r.getBoundingClientRect();
    const wide = Array.from(r.querySelectorAll("*")).filter((e) => e.scrollWidth > e.clientWidth + 1 &&
      getComputedStyle(e).overflowX !== "visible" && e.clientWidth > 0).map((e) => `${e.className || e.tagName} ${e.scrollWidth}>${e.clientWidth}`).slice(0, 5);
    const open = Array.from(r.querySelectorAll(":scope > details.ks-section")).filter((d) => d.open).map((d) => d.dataset.section);
    return { height: Math.round(box.height), right: Math.round(box.right), outRight: Math.round(out.right), window: window.innerWidth, wide, open };
  });
  if (check(compact !== null, "a vector_add report in the notebook")) {
    check(compact.window === 1366 && compact.height <= 1100, `the vector_add report is ${compact.height} px tall (at most 1,100) in a 1366 px wide JupyterLab`, JSON.stringify(compact));
    check(compact.wide.length === 0 && compact.right <= compact.outRight, "the vector_add report does not overflow sideways in JupyterLab", JSON.stringify(compact));
    check(compact.open.join() === "correctness,hints,source", "only correctness, hints and source are open by default", compact.open.join());
    const r = page.locator(".jp-OutputArea-output .ks-report").filter({ has: page.locator(".ks-summary .ks-k", { hasText: /^vector_add$/ }) }).first();
    await r.scrollIntoViewIfNeeded();
    await r.evaluate((e) => e.scrollIntoView({ block: "start" }));
    await page.screenshot({ path: shot("jupyterlab-app-report.png") });
  }

  // Tables read the same in JupyterLab as with only KernelScope's own styles: JupyterLab's
  // .jp-RenderedHTMLCommon right-aligns every cell and centres tables; the %help table, the
  // %compare table and every report table say their alignment themselves. Measured with
  // JupyterLab's style sheets on, then off (the outputs' own <style> elements and inline styles stay):
  // each cell's text-align and each table's left margin (JupyterLab's auto margins centre a table).
  const align = await page.evaluate(() => {
    const tables = Array.from(document.querySelectorAll(".jp-OutputArea-output .kernelscope-help table, .jp-OutputArea-output .ks-report table"));
    const measure = () => tables.map((t) => {
      return {
        left: getComputedStyle(t).marginLeft,
        cells: Array.from(t.rows).map((row) => Array.from(row.cells).map((c) => getComputedStyle(c).textAlign)),
      };
    });
    const lab = measure();
    const sheets = Array.from(document.styleSheets).filter((s) => !(s.ownerNode && s.ownerNode.closest && s.ownerNode.closest(".jp-OutputArea-output")));
    sheets.forEach((s) => { s.disabled = true; });
    const own = measure();
    sheets.forEach((s) => { s.disabled = false; });
    const bad = [];
    const kinds = { help: 0, compare: 0, report: 0 };
    tables.forEach((t, i) => {
      const kind = t.closest(".kernelscope-help") ? "help" : t.classList.contains("ks-compare") ? "compare" : "report";
      kinds[kind]++;
      const name = `${kind} table ${t.className || ""} (${(t.rows[0]?.cells[0]?.textContent || "").slice(0, 20)})`;
      if (lab[i].left !== own[i].left) bad.push(`${name}: left margin ${lab[i].left} in JupyterLab (centred), ${own[i].left} on its own`);
      lab[i].cells.forEach((row, j) => row.forEach((al, k) => {
        if (al !== own[i].cells[j][k]) bad.push(`${name} row ${j + 1} cell ${k + 1}: ${al} in JupyterLab, ${own[i].cells[j][k]} on its own`);
        else if (k === 0 && !/^(left|start)$/.test(al)) bad.push(`${name} row ${j + 1}: the label column is ${al}`);
      }));
    });
    return { kinds, bad: bad.slice(0, 8), n: bad.length };
  });
  check(align.kinds.help > 0 && align.kinds.compare > 0 && align.kinds.report > 0 && align.n === 0,
    `the %help, %compare and report tables (${JSON.stringify(align.kinds)}) keep their own alignment in JupyterLab, labels left`, JSON.stringify(align));

  // Opcode documentation on hover in every report (PTX, and SASS where a listing is shown).
  const docs = await page.evaluate(() => {
    const ops = Array.from(document.querySelectorAll(".jp-OutputArea-output .ks-report .ks-op"));
    const missing = ops.filter((o) => !o.title || !o.title.startsWith(o.dataset.op + ": ")).map((o) => o.textContent);
    return { n: ops.length, sass: document.querySelectorAll(".jp-OutputArea-output .ks-sass .ks-op").length, missing: missing.slice(0, 5) };
  });
  check(docs.n > 0 && docs.missing.length === 0, `all ${docs.n} opcodes (${docs.sass} SASS) have their documentation on hover in JupyterLab`, JSON.stringify(docs));

  // The trace widget, stepped in JupyterLab's output area.
  const report = page.locator(".jp-OutputArea-output .ks-report").filter({ has: page.locator(".ks-widget .ks-next") }).first();
  if (check(await report.count() === 1, "a report with a trace widget")) {
    await report.evaluate((r) => r.querySelectorAll("details.ks-trace, details.ks-source").forEach((d) => { d.open = true; }));
    await report.locator(".ks-widget").scrollIntoViewIfNeeded();
    const read = () => report.evaluate((r) => ({
      step: Number(r.querySelector("input.ks-step").value),
      cur: Array.from(r.querySelectorAll(".ks-ln.ks-cur")).map((e) => e.dataset.pl || e.dataset.cl).join(","),
    }));
    const s0 = await read();
    const seen = new Set([s0.cur]);
    for (let i = 0; i < 5; i++) { await report.locator(".ks-next").click(); seen.add((await read()).cur); }
    const s1 = await read();
    check(s1.step === s0.step + 5, ".ks-next advanced the step 5 times", `${s0.step} -> ${s1.step}`);
    check(seen.size > 1, "the highlighted line moved while stepping", [...seen].join(" | "));
    await report.locator(".ks-prev").click();
    check((await read()).step === s1.step - 1, ".ks-prev stepped back");
    // The step's lines stay in view: the CUDA and PTX lines of the step are lit inside their
    // scrolled columns, and the step's code excerpt sits just above the lanes.
    for (let i = 0; i < 8; i++) await report.locator(".ks-next").click();
    const view = await report.evaluate((r) => {
      const cur = Array.from(r.querySelectorAll(".ks-col .ks-ln.ks-cur"));
      const out = cur.filter((e) => {
        const a = e.getBoundingClientRect(), b = e.closest(".ks-col").getBoundingClientRect();
        return a.top < b.top - 1 || a.bottom > b.bottom + 1;
      }).map((e) => `${e.closest(".ks-col").className}:${e.dataset.pl || e.dataset.cl}`);
      const now = r.querySelector(".ks-stepcode .ks-now"), lanes = r.querySelector(".ks-lanes");
      const gap = now && lanes ? Math.round(lanes.getBoundingClientRect().top - now.getBoundingClientRect().bottom) : null;
      const st = JSON.parse(r.querySelector(".ks-trace-data").textContent).steps[Number(r.querySelector("input.ks-step").value) - 1];
      return { step: Number(r.querySelector("input.ks-step").value), lit: cur.length, out, gap, pl: st.pl, text: now ? now.textContent : "" };
    });
    check(view.lit > 0 && view.out.length === 0, `step ${view.step}: the step's ${view.lit} lit line(s) are in view in their columns`, JSON.stringify(view));
    check(view.gap !== null && view.gap >= 0 && view.gap < 200 && view.text.includes("PTX " + view.pl), `step ${view.step}: the step's PTX line ${view.pl} is shown beside the lanes`, JSON.stringify(view));
    await page.screenshot({ path: shot("jupyterlab-app-widget.png") });
  }
  // The first report, as a JupyterLab user sees it.
  await page.locator(".jp-OutputArea-output .ks-report").first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot("jupyterlab-app.png") });
  check(errors.length === 0, "no JavaScript errors, failed requests or plugin failures", errors.slice(0, 8).join(" | "));
} catch (e) {
  check(false, "the JupyterLab application test ran to its end", String(e && e.stack ? e.stack : e));
} finally {
  if (browser) await browser.close().catch(() => {});
  server.kill("SIGTERM");
  await new Promise((r) => { if (server.exitCode !== null) r(); else { server.on("exit", r); setTimeout(r, 5000); } });
  if (server.exitCode === null) server.kill("SIGKILL");
  fs.rmSync(profile, { recursive: true, force: true });
  fs.rmSync(root, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
