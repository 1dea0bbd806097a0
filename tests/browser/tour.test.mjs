// Drives notebooks/tour.ipynb in headless Chromium: first live in a classic
// Jupyter Notebook server (Run All through the KernelScope kernel), then the
// nbconvert HTML export of the notebook it executed, opened from disk.
// Started by scripts/browser_test.sh, which provides (environment):
//   KS_URL        http://127.0.0.1:PORT     the notebook server
//   KS_TOKEN      its token
//   KS_NBDIR      the server's notebook directory (a temporary copy of notebooks/)
//   KS_SHOTS      where the screenshots go (build/screenshots)
//   KS_PYTHON     the python that has nbconvert (/usr/bin/python3)
//   KS_CHROMIUM   the browser (/usr/bin/chromium)
// Prints one line per check and "N passed, M failed"; exits 1 on any failure.
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const env = (k, d) => process.env[k] || d;
const URL_ = env("KS_URL");
const TOKEN = env("KS_TOKEN");
const NBDIR = env("KS_NBDIR");
const SHOTS = env("KS_SHOTS", "build/screenshots");
const PY = env("KS_PYTHON", "/usr/bin/python3");
const CHROMIUM = env("KS_CHROMIUM", "/usr/bin/chromium");
const NOTEBOOK = env("KS_NOTEBOOK", "tour.ipynb");
// Screenshots of the tour are live-report.png, …; of another notebook NAME-live-report.png, ….
const SHOT_PREFIX = NOTEBOOK === "tour.ipynb" ? "" : NOTEBOOK.replace(/\.ipynb$/, "") + "-";
if (!URL_ || !TOKEN || !NBDIR) {
  console.error("KS_URL, KS_TOKEN and KS_NBDIR must be set (run scripts/browser_test.sh)");
  process.exit(2);
}

let passed = 0, failed = 0;
function check(ok, what, detail) {
  if (ok) passed++; else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${detail !== undefined && !ok ? " — " + detail : ""}`);
  return ok;
}

// The sections a cell's report must show: all of them, minus what its own
// %hide / %show lines take away (applied in order, as the kernel does).
const ALL = ["hints", "source", "memory", "occupancy", "timeline", "trace", "outputs"];
const MAGIC_SECTIONS = ["source", "ptx", "sass", "memory", "occupancy", "timeline", "trace", "hints", "outputs"];
function expectedSections(src) {
  const shown = new Map(MAGIC_SECTIONS.map((s) => [s, true]));
  for (const line of src.split("\n")) {
    const m = line.trim().match(/^%(show|hide)\s+(.*)$/);
    if (!m) continue;
    const names = m[2].trim() === "all" ? MAGIC_SECTIONS : m[2].split(/[\s,]+/).filter(Boolean);
    for (const n of names) shown.set(n, m[1] === "show");
  }
  return ALL.filter((s) => (s === "source" ? shown.get("source") || shown.get("ptx") || shown.get("sass") : shown.get(s)));
}
const isCudaCell = (src) => /__global__|^\s*%%ptx|^\s*%sample\s+\w/m.test(src);

// Reads every report of the page: its sections and whether it has a widget.
async function reportsOf(scope) {
  return scope.locator(".ks-report").evaluateAll((els) =>
    els.map((e) => ({
      id: e.id,
      summary: !!e.querySelector(".ks-summary"),
      sections: Array.from(e.querySelectorAll(":scope > details.ks-section")).map((d) => d.dataset.section),
      steps: Number((e.querySelector(".ks-widget") || { dataset: {} }).dataset.steps || 0),
    })));
}

// Steps the first widget with recorded steps: the step input advances by one
// per click (and per → key), and the highlighted PTX line is the one the trace
// data names for that step, moving at least once.
// The widget checked is the one whose trace shows the most divergence (steps
// with a partial active mask): the tour's %trace cell.
async function checkWidget(page, where) {
  const all = page.locator(".ks-report").filter({ has: page.locator(".ks-widget .ks-next") }).filter({ has: page.locator(".ks-trace-data") });
  if (NOTEBOOK !== "tour.ipynb" && await all.count() === 0) {
    console.log(`${where}: no report shows a trace widget in ${NOTEBOOK}; widget checks skipped`);
    return;
  }
  if (!check(await all.count() > 0, `${where}: a report with a trace widget`)) return;
  const partial = await all.evaluateAll((els) => els.map((r) => JSON.parse(r.querySelector(".ks-trace-data").textContent).steps
    .filter((s) => (s.m >>> 0) !== 0xffffffff && s.m !== 0).length));
  const best = partial.indexOf(Math.max(...partial));
  const report = all.nth(best);
  await report.evaluate((r) => {
    r.querySelectorAll("details.ks-trace, details.ks-source").forEach((d) => { d.open = true; });
  });
  // The PTX line is highlighted when the PTX column is shown; otherwise the CUDA line.
  const ptxShown = await report.evaluate((r) => r.querySelector(".ks-ptx") !== null);
  const kind = ptxShown ? "PTX" : "CUDA";
  const steps = await report.evaluate((r, p) => JSON.parse(r.querySelector(".ks-trace-data").textContent).steps
    .map((s) => (p ? s.pl : s.cl)), ptxShown);
  check(steps.length > 3, `${where}: trace has more than 3 steps`, `${steps.length}`);
  const state = () => report.evaluate((r, p) => ({
    step: Number(r.querySelector("input.ks-step").value),
    cur: p ? Array.from(r.querySelectorAll(".ks-ptx .ks-ln.ks-cur")).map((e) => Number(e.dataset.pl))
      : Array.from(r.querySelectorAll(".ks-cuda .ks-ln.ks-cur")).map((e) => Number(e.dataset.cl)),
    lanes: r.querySelectorAll(".ks-lanes .ks-lane").length,
  }), ptxShown);
  const matches = (cur, want) => (want ? cur.length === 1 && cur[0] === want : cur.length === 0);
  let s = await state();
  check(s.step === 1, `${where}: widget starts at step 1`, `step ${s.step}`);
  check(s.lanes === 32, `${where}: 32 lane cells drawn`, `${s.lanes}`);
  check(matches(s.cur, steps[0]), `${where}: step 1 highlights ${kind} line ${steps[0]}`, JSON.stringify(s.cur));
  const first = s.cur[0];
  let moved = false, okSteps = true, okLines = true;
  // Enough clicks for the line to move: CUDA lines span several PTX instructions.
  const clicks = Math.min(ptxShown ? 6 : 20, steps.length - 1);
  for (let i = 1; i <= clicks; i++) {
    await report.locator(".ks-next").click();
    s = await state();
    if (s.step !== i + 1) okSteps = false;
    if (!matches(s.cur, steps[i])) okLines = false;
    if (s.cur[0] !== first) moved = true;
  }
  check(okSteps, `${where}: ▶| advanced the step ${clicks} times by one`, `now ${s.step}`);
  check(okLines, `${where}: the highlighted ${kind} line follows the trace data`, `step ${s.step} highlights ${JSON.stringify(s.cur)}, data says ${steps[s.step - 1]}`);
  check(moved, `${where}: the highlighted ${kind} line moved`);
  await report.locator(".ks-widget").focus();
  if (s.step < steps.length) {
    await page.keyboard.press("ArrowRight");
    const k = await state();
    check(k.step === s.step + 1, `${where}: → key advances the step`, `${s.step} -> ${k.step}`);
  } else {
    await page.keyboard.press("ArrowLeft");
    const k = await state();
    check(k.step === s.step - 1, `${where}: ← key steps back (at the last step)`, `${s.step} -> ${k.step}`);
  }
  // Screenshot at the first step where the warp runs with part of its lanes.
  const div = await report.evaluate((r) => JSON.parse(r.querySelector(".ks-trace-data").textContent).steps
    .findIndex((s) => (s.m >>> 0) !== 0xffffffff && s.m !== 0));
  if (div >= 0) {
    await report.locator("input.ks-step").fill(String(div + 1));
    await report.locator("input.ks-step").dispatchEvent("change");
    const d = await state();
    check(d.step === div + 1 && matches(d.cur, steps[div]), `${where}: typing step ${div + 1} jumps there`, JSON.stringify(d));
  }
  // The step's code is beside the lanes: its PTX line (and CUDA line) in the excerpt just above them.
  const beside = await report.evaluate((r) => {
    const step = Number(r.querySelector("input.ks-step").value);
    const s = JSON.parse(r.querySelector(".ks-trace-data").textContent).steps[step - 1];
    const now = r.querySelector(".ks-stepcode .ks-now"), lanes = r.querySelector(".ks-lanes");
    if (!now || !lanes) return { ok: false, why: "no excerpt or lanes" };
    const gap = lanes.getBoundingClientRect().top - now.getBoundingClientRect().bottom;
    return { ok: now.textContent.includes("PTX " + s.pl) && gap >= 0 && gap < 200, gap, text: now.textContent, pl: s.pl };
  });
  check(beside.ok, `${where}: the step's PTX line is shown beside the lanes`, JSON.stringify(beside));
  // A warp switch is announced: step onto the first step whose warp differs from the one before.
  const sw = await report.evaluate((r) => JSON.parse(r.querySelector(".ks-trace-data").textContent).steps
    .findIndex((s, i, a) => i > 0 && s.w !== a[i - 1].w));
  if (sw > 0) {
    await report.locator("input.ks-step").fill(String(sw));
    await report.locator("input.ks-step").dispatchEvent("change");
    await report.locator(".ks-next").click();
    const ann = await report.evaluate((r) => (r.querySelector(".ks-switch") || { textContent: "" }).textContent);
    check(/warp switch: warp \d+ → warp \d+/.test(ann), `${where}: the warp switch at step ${sw + 1} is announced`, ann);
  }
  // Clicking a CUDA line lights its PTX partners and scrolls the first into view in the PTX column;
  // the widget then jumps to the next step at that line.
  if (ptxShown) {
    const cl = steps.length ? await report.evaluate((r) => {
      const st = JSON.parse(r.querySelector(".ks-trace-data").textContent).steps;
      const s = st.filter((x) => x.cl > 0 && !x.cf).pop(); return s ? s.cl : 0;
    }) : 0;
    if (cl > 0) {
      await report.locator(`.ks-cuda .ks-ln[data-cl="${cl}"]`).first().click();
      const vis = await report.evaluate((r, c) => {
        const col = r.querySelector(".ks-ptx");
        const e = Array.from(col.querySelectorAll(`.ks-ln.ks-hl[data-cl="${c}"]`))[0];
        if (!e) return { ok: false, why: "no lit partner" };
        const a = e.getBoundingClientRect(), b = col.getBoundingClientRect();
        return { ok: a.top >= b.top && a.bottom <= b.bottom, top: a.top, colTop: b.top, colBottom: b.bottom };
      }, cl);
      check(vis.ok, `${where}: clicking CUDA line ${cl} scrolls its PTX partner into view`, JSON.stringify(vis));
      await report.locator(".ks-atline").click();
      const at = await report.evaluate((r) => {
        const st = JSON.parse(r.querySelector(".ks-trace-data").textContent).steps;
        return st[Number(r.querySelector("input.ks-step").value) - 1].cl;
      });
      check(at === cl, `${where}: "next step at" jumps to a step at CUDA line ${cl}`, `step at line ${at}`);
    }
  }
  // PTX opcode documentation on hover: every opcode of the listing has a title from the table.
  const docs = await report.evaluate((r) => {
    const ops = Array.from(r.querySelectorAll(".ks-ptx .ks-op"));
    const missing = ops.filter((o) => !o.title || !o.title.startsWith(o.dataset.op + ": ")).map((o) => o.textContent);
    return { n: ops.length, missing: missing.slice(0, 5) };
  });
  check(docs.n > 0 && docs.missing.length === 0, `${where}: all ${docs.n} PTX opcodes have their documentation on hover`, JSON.stringify(docs));
  // The screenshot shows the first step where the warp runs with part of its lanes.
  if (div >= 0) {
    await report.locator("input.ks-step").fill(String(div + 1));
    await report.locator("input.ks-step").dispatchEvent("change");
  }
  await report.locator(".ks-widget").scrollIntoViewIfNeeded();
  await report.locator("details.ks-trace").screenshot({ path: path.join(SHOTS, `${SHOT_PREFIX}${where}-widget.png`) });
}

// The budgets of issue 15 on the report of a 3-line kernel (vector_add) at 1366 px wide:
// at most 1,100 px tall with the default sections, and nothing wider than the page.
async function checkCompact(page, where) {
  const vp = page.viewportSize();
  await page.setViewportSize({ width: 1366, height: vp.height });
  await page.waitForTimeout(300);
  const reps = page.locator(".ks-report").filter({ has: page.locator(".ks-summary .ks-k", { hasText: /^vector_add$/ }) });
  if (await reps.count() === 0) {
    console.log(`${where}: no vector_add report; compactness checks skipped`);
    await page.setViewportSize(vp);
    return;
  }
  const m = await reps.first().evaluate((r) => {
    const wide = Array.from(r.querySelectorAll("*")).filter((e) => e.scrollWidth > e.clientWidth + 1 &&
      getComputedStyle(e).overflowX !== "visible" && e.clientWidth > 0)
      .map((e) => `${e.className || e.tagName} ${e.closest("details") ? e.closest("details").dataset.section : ""} ${e.scrollWidth}>${e.clientWidth}`).slice(0, 5);
    const box = r.getBoundingClientRect();
    const open = Array.from(r.querySelectorAll(":scope > details.ks-section")).filter((d) => d.open).map((d) => d.dataset.section);
    const charts = r.querySelectorAll("svg").length;
    return { height: box.height, width: box.width, right: box.right, page: document.documentElement.clientWidth, wide, open, charts };
  });
  check(m.height <= 1100, `${where}: the vector_add report is at most 1,100 px tall at 1366 px`, JSON.stringify(m));
  check(m.wide.length === 0 && m.right <= m.page, `${where}: the vector_add report does not overflow sideways`, JSON.stringify(m));
  check(m.open.join() === "correctness,hints,source", `${where}: only correctness, hints and source are open by default`, m.open.join());
  check(m.charts === 0, `${where}: no chart at 100% occupancy`, `${m.charts} charts`);
  await reps.first().screenshot({ path: path.join(SHOTS, `${SHOT_PREFIX}${where}-compact.png`) });
  await page.setViewportSize(vp);
}

// Screenshot of the report with the most hints, whole (no output scrolling).
async function shootReport(page, name) {
  const reps = page.locator(".ks-report").filter({ has: page.locator(".ks-summary") });
  const hints = await reps.evaluateAll((els) => els.map((e) => e.querySelectorAll(".ks-hint").length));
  const r = reps.nth(hints.indexOf(Math.max(...hints)));
  // The classic notebook scrolls inside #site under a fixed header: make the
  // window tall enough for the whole report, then put the report in view.
  const vp = page.viewportSize();
  const box = await r.boundingBox();
  await page.setViewportSize({ width: vp.width, height: Math.min(8000, Math.ceil(box.height) + 400) });
  await page.waitForTimeout(300);
  await r.evaluate((e) => e.scrollIntoView({ block: "end" }));
  await r.screenshot({ path: path.join(SHOTS, SHOT_PREFIX + name) });
  await page.setViewportSize(vp);
}

async function main() {
  fs.mkdirSync(SHOTS, { recursive: true });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "ks-chromium-"));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  // Nothing leaves the machine: only the local server and files load.
  await ctx.route(/^https?:\/\//, (route) => {
    const u = new URL(route.request().url());
    return u.hostname === "127.0.0.1" ? route.continue() : route.abort();
  });
  try {
    await live(ctx);
    await untrusted(ctx);
    await exported(ctx);
  } finally {
    await ctx.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

let liveReports = [];

async function live(ctx) {
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${URL_}/notebooks/${NOTEBOOK}?token=${TOKEN}`);
  await page.waitForFunction(() => window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel &&
    Jupyter.notebook.kernel.is_connected() && Jupyter.notebook.kernel.info_reply &&
    Jupyter.notebook.kernel.info_reply.implementation !== undefined, null, { timeout: 60000 });
  const info = await page.evaluate(() => Jupyter.notebook.kernel.info_reply);
  check(info.implementation === "kernelscope" || /kernelscope/i.test(JSON.stringify(info)), "live: the KernelScope kernel answered kernel_info", JSON.stringify(info).slice(0, 200));

  // Run All, from clean outputs. The classic notebook aborts the rest of a Run All
  // at an error (stop_on_error), so after a cell tagged raises-exception the
  // run resumes below it; an error anywhere else is a failure.
  await page.evaluate(() => { Jupyter.notebook.clear_all_output(); Jupyter.notebook.execute_all_cells(); });
  const t0 = Date.now();
  for (let round = 0; round < 10; round++) {
    await page.waitForFunction(() => {
      const cells = Jupyter.notebook.get_cells().filter((c) => c.cell_type === "code");
      return !cells.some((c) => c.input_prompt_number === "*") &&
        document.querySelector("#kernel_indicator_icon.kernel_idle_icon") !== null;
    }, null, { timeout: 240000, polling: 250 });
    const next = await page.evaluate(() => {
      const cells = Jupyter.notebook.get_cells();
      for (let i = 0; i < cells.length; i++) {
        const c = cells[i];
        if (c.cell_type === "code" && typeof c.input_prompt_number !== "number") return i;
      }
      return -1;
    });
    if (next < 0) break;
    await page.evaluate((i) => Jupyter.notebook.execute_cells(Array.from({ length: Jupyter.notebook.ncells() - i }, (_, k) => i + k)), next);
    await page.waitForTimeout(300);
  }
  console.log(`live: cells ran in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const cells = await page.evaluate(() => Jupyter.notebook.get_cells().map((c, i) => ({
    i, type: c.cell_type, src: c.get_text(), tags: (c.metadata.tags || []),
    prompt: c.cell_type === "code" ? c.input_prompt_number : null,
    error: c.cell_type === "code" ? c.output_area.outputs.filter((o) => o.output_type === "error").map((o) => o.ename + ": " + o.evalue).join("; ") : "",
  })));
  const code = cells.filter((c) => c.type === "code");
  check(code.every((c) => typeof c.prompt === "number"), `live: all ${code.length} code cells executed`,
    code.filter((c) => typeof c.prompt !== "number").map((c) => c.i).join(","));
  for (const c of code) {
    const raises = c.tags.includes("raises-exception");
    if (raises) check(c.error !== "", `live: cell ${c.i} (raises-exception) shows its error`, "no error output");
    else check(c.error === "", `live: cell ${c.i} has no error`, c.error.slice(0, 300));
  }
  // Every CUDA cell's report and its sections.
  const cellEls = page.locator("#notebook-container > .cell");
  for (const c of code) {
    if (!isCudaCell(c.src) || c.tags.includes("raises-exception")) continue;
    const reps = await reportsOf(cellEls.nth(c.i));
    if (!check(reps.length === 1, `live: cell ${c.i} has one report`, `${reps.length}`)) continue;
    const want = ["correctness", ...expectedSections(c.src)];   // Correctness: in every launch's report, first
    const missing = want.filter((s) => !reps[0].sections.includes(s));
    check(reps[0].sections[0] === "correctness", `live: cell ${c.i} report starts with Correctness`, reps[0].sections.join(", "));
    check(reps[0].summary && missing.length === 0, `live: cell ${c.i} report shows summary + ${want.join(", ")}`,
      `missing ${missing.join(", ")}; has ${reps[0].sections.join(", ")}`);
  }
  const compare = code.filter((c) => /^\s*%compare\b/m.test(c.src));
  for (const c of compare) {
    const n = await cellEls.nth(c.i).locator(".ks-report table tr").count();
    check(n > 5, `live: cell ${c.i} (%compare) shows the comparison table`, `${n} rows`);
  }
  liveReports = await reportsOf(page);
  const ids = liveReports.map((r) => r.id);
  check(ids.length > 0 && new Set(ids).size === ids.length, `live: ${ids.length} reports, ids unique`);
  await page.evaluate(() => Jupyter.notebook.get_cells().forEach((c) => { if (c.output_area) c.output_area.unscroll_area(); }));
  await shootReport(page, "live-report.png");
  await checkCompact(page, "live");
  await checkWidget(page, "live");
  const tri = await page.evaluate(() => Array.from(document.querySelectorAll(".ks-report summary > .ks-tri"))
    .filter((t) => getComputedStyle(t).display !== "none").length);
  check(tri === 0, "live: the text triangles for style-less readers are hidden by the report's CSS (it draws its own)", `${tri} shown`);
  // PTX noise (.loc, comments): hidden, and shown by the column's checkbox (the CSS overrides the hidden attribute).
  const noise = page.locator(".ks-report").filter({ has: page.locator(".ks-ptx .ks-noisetoggle") }).first();
  if (await noise.count()) {
    await noise.evaluate((r) => { r.querySelector("details.ks-source").open = true; });
    const shown = () => noise.evaluate((r) => Array.from(r.querySelectorAll(".ks-ptx .ks-ln.ks-noise")).filter((e) => e.getClientRects().length > 0).length);
    const before = await shown();
    await noise.locator(".ks-ptx .ks-noisetoggle").check();
    const after = await shown();
    await noise.locator(".ks-ptx .ks-noisetoggle").uncheck();
    check(before === 0 && after > 0 && await shown() === 0, "live: PTX noise lines hidden until the checkbox shows them", `${before} → ${after}`);
  }
  check(errors.length === 0, "live: no JavaScript errors on the page", errors.join(" | ").slice(0, 500));

  await page.evaluate(() => Jupyter.notebook.save_notebook());
  await page.waitForFunction(() => !Jupyter.notebook.dirty, null, { timeout: 30000 });
  await page.close();
}

// The notebook live() saved, opened before "Trust" in classic Notebook 6: a changed copy
// (its signature no longer matches), so the notebook sanitises every HTML output: no
// <style>, no style attributes, no script. The report must still read: its summary line,
// every section with a bold title and a text triangle, the open sections' text, no
// closed section that opens onto nothing (the trace says why its steps need the script).
async function untrusted(ctx) {
  const name = "untrusted-" + NOTEBOOK;
  const doc = JSON.parse(fs.readFileSync(path.join(NBDIR, NOTEBOOK), "utf8"));
  doc.metadata.kernelscope_test = "an edited copy: its signature no longer matches";
  fs.writeFileSync(path.join(NBDIR, name), JSON.stringify(doc, null, 1));
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${URL_}/notebooks/${name}?token=${TOKEN}`);
  await page.waitForFunction(() => window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded, null, { timeout: 60000 });
  await page.waitForTimeout(500);
  const trusted = await page.evaluate(() => Jupyter.notebook.trusted);
  check(trusted === false, "untrusted: the edited copy opens untrusted", String(trusted));
  await page.evaluate(() => Jupyter.notebook.get_cells().forEach((c) => { if (c.output_area) c.output_area.unscroll_area(); }));
  const reps = await page.locator(".ks-report").evaluateAll((els) => els.map((r) => {
    const visible = (e) => e && e.getClientRects().length > 0 && e.textContent.trim() !== "";
    const secs = Array.from(r.querySelectorAll(":scope > details.ks-section"));
    return {
      init: r.dataset.ksInit || "",
      styles: r.querySelectorAll("style, script:not([type='application/json'])").length,
      summary: visible(r.querySelector(".ks-summary")),
      sections: secs.map((d) => {
        const sum = d.querySelector(":scope > summary"), b = sum && sum.querySelector(":scope > b");
        const body = d.querySelector(":scope > .ks-body");
        return {
          key: d.className, open: d.open,
          title: sum ? sum.innerText.trim() : "",
          bold: !!b && Number(getComputedStyle(b).fontWeight) >= 600 && b.textContent.trim() !== "",
          body: d.open ? visible(body) : null,
        };
      }),
    };
  }));
  const stored = reps.filter((r) => r.sections.length > 0);
  check(stored.length === liveReports.filter((r) => r.sections.length > 0).length, `untrusted: all ${stored.length} reports with sections are there`, `${stored.length} vs ${liveReports.length} live`);
  check(reps.every((r) => r.init === "" && r.styles === 0), "untrusted: the sanitiser removed the reports' styles and scripts (nothing ran)", JSON.stringify(reps.map((r) => [r.init, r.styles])));
  const bad = [];
  for (const [i, r] of stored.entries()) {
    if (!r.summary) bad.push(`report ${i}: no summary line`);
    for (const s of r.sections) {
      if (!s.bold) bad.push(`report ${i} ${s.key}: title not bold`);
      if (!/^▸ \S/.test(s.title)) bad.push(`report ${i} ${s.key}: no triangle in "${s.title.slice(0, 40)}"`);
      if (s.open && !s.body) bad.push(`report ${i} ${s.key}: open but nothing readable`);
    }
  }
  check(bad.length === 0, "untrusted: every section has a bold title with a text triangle, every open section reads", bad.slice(0, 6).join(" | "));
  const noise = await page.evaluate(() => [document.querySelectorAll(".ks-report .ks-ptx .ks-ln.ks-noise").length,
    Array.from(document.querySelectorAll(".ks-report .ks-ptx .ks-ln.ks-noise")).filter((e) => e.getClientRects().length > 0).length]);
  check(noise[0] > 0 && noise[1] === 0, `untrusted: the ${noise[0]} PTX noise lines (.loc, comments) stay hidden without the report's CSS`, `${noise[1]} shown`);
  // Open every closed section: none opens onto nothing; the trace says why its steps need the script.
  const opened = await page.locator(".ks-report").evaluateAll((els) => els.flatMap((r, i) =>
    Array.from(r.querySelectorAll(":scope > details.ks-section:not([open])")).map((d) => {
      d.open = true;
      const body = d.querySelector(":scope > .ks-body");
      const text = body ? body.innerText.trim() : "";
      const trace = d.classList.contains("ks-trace") ? (d.querySelector(".ks-stepview") || { innerText: "" }).innerText.trim() : null;
      return { i, key: d.className, text: text.length, trace };
    })));
  const empty = opened.filter((o) => o.text < 20 || (o.trace !== null && !/trusted/.test(o.trace)));
  check(opened.length > 0 && empty.length === 0, `untrusted: the ${opened.length} closed sections open onto readable text (the trace says its steps need a trusted notebook)`, JSON.stringify(empty.slice(0, 5)));
  const vector = page.locator(".ks-report").filter({ has: page.locator(".ks-summary .ks-k", { hasText: /^vector_add$/ }) }).first();
  if (await vector.count()) {
    await vector.evaluate((r) => r.querySelectorAll(":scope > details.ks-section").forEach((d) => { d.open = ["correctness", "hints", "source"].some((k) => d.classList.contains("ks-" + k)); }));
    // As shootReport does: a window tall enough for the whole report (#site scrolls under a fixed header).
    const vp = page.viewportSize(), box = await vector.boundingBox();
    await page.setViewportSize({ width: vp.width, height: Math.min(8000, Math.ceil(box.height) + 400) });
    await page.waitForTimeout(300);
    await vector.evaluate((e) => e.scrollIntoView({ block: "end" }));
    await vector.screenshot({ path: path.join(SHOTS, `${SHOT_PREFIX}untrusted-report.png`) });
    await page.setViewportSize(vp);
  }
  check(errors.length === 0, "untrusted: no JavaScript errors on the page", errors.join(" | ").slice(0, 500));
  await page.close();
}

async function exported(ctx) {
  const nb = path.join(NBDIR, NOTEBOOK);
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "ks-export-"));
  execFileSync(PY, ["-m", "nbconvert", "--to", "html", "--output-dir", outDir, nb], { stdio: ["ignore", "ignore", "pipe"] });
  const html = path.join(outDir, NOTEBOOK.replace(/\.ipynb$/, ".html"));
  check(fs.existsSync(html), "export: nbconvert wrote the HTML", html);
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(pathToFileURL(html).href, { waitUntil: "load" });
  const reps = await reportsOf(page);
  check(reps.length === liveReports.length, `export: ${reps.length} reports (live page: ${liveReports.length})`);
  const same = reps.length === liveReports.length && reps.every((r, i) => r.sections.join() === liveReports[i].sections.join());
  check(same, "export: every report has the same sections as on the live page");
  const ids = reps.map((r) => r.id);
  check(new Set(ids).size === ids.length, "export: report ids unique");
  // The nbconvert template's MathJax loader (blocked: no network) leaves a message box; not ours.
  await page.evaluate(() => { const m = document.getElementById("MathJax_Message"); if (m) m.remove(); });
  await shootReport(page, "export-report.png");
  await checkCompact(page, "export");
  await checkWidget(page, "export");
  check(errors.length === 0, "export: no JavaScript errors on the page", errors.join(" | ").slice(0, 500));
  await page.close();
  fs.rmSync(outDir, { recursive: true, force: true });
}

main().then(() => {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}, (err) => {
  console.error(err);
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
});
