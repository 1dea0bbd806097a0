// Renders a notebook's stored outputs with JupyterLab 4's own
// @jupyterlab/rendermime (the bundle in dist/, built by build.mjs) in headless
// Debian Chromium and checks the KernelScope reports and their trace widget.
// Serves dist/ and the notebook from 127.0.0.1 (a free port) itself and
// closes the server when done. Environment (all optional):
//   KS_NOTEBOOK   the notebook (notebooks/tour.ipynb)
//   KS_SHOTS      where screenshots go (build/screenshots)
//   KS_CHROMIUM   the browser (/usr/bin/chromium)
// Prints one line per check and "N passed, M failed"; exits 1 on any failure.
import { chromium } from "playwright-core";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const NOTEBOOK = path.resolve(repo, process.env.KS_NOTEBOOK || "notebooks/tour.ipynb");
const SHOTS = path.resolve(repo, process.env.KS_SHOTS || "build/screenshots");
const CHROMIUM = process.env.KS_CHROMIUM || "/usr/bin/chromium";
const DIST = path.join(here, "dist");

let passed = 0, failed = 0;
function check(ok, what, detail) {
  if (ok) passed++; else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${detail !== undefined && !ok ? " — " + detail : ""}`);
  return ok;
}
function note(s) { console.log(`     ${s}`); }
const shots = [];
// tour.ipynb: jupyterlab-widget.png, …; another notebook NAME: jupyterlab-NAME-widget.png, ….
const PREFIX = path.basename(NOTEBOOK) === "tour.ipynb" ? "jupyterlab-" : `jupyterlab-${path.basename(NOTEBOOK, ".ipynb")}-`;
function shot(name) { const f = path.join(SHOTS, name.replace(/^jupyterlab-/, PREFIX)); shots.push(f); return f; }

// The sections a cell's report must show (as tests/browser/tour.test.mjs):
// all of them, minus what the cell's own %hide / %show lines take away.
const ALL = ["hints", "source", "memory", "occupancy", "timeline", "trace", "outputs"];
const MAGIC = ["source", "ptx", "sass", "memory", "occupancy", "timeline", "trace", "hints", "outputs"];
function expectedSections(src) {
  const shown = new Map(MAGIC.map((s) => [s, true]));
  for (const line of src.split("\n")) {
    const m = line.trim().match(/^%(show|hide)\s+(.*)$/);
    if (!m) continue;
    const names = m[2].trim() === "all" ? MAGIC : m[2].split(/[\s,]+/).filter(Boolean);
    for (const n of names) shown.set(n, m[1] === "show");
  }
  return ALL.filter((s) => (s === "source" ? shown.get("source") || shown.get("ptx") || shown.get("sass") : shown.get(s)));
}
const src = (c) => (Array.isArray(c.source) ? c.source.join("") : c.source);

// --- the tiny server: dist/ and the notebook, nothing else -------------------
const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".ipynb": "application/json",
  ".woff2": "font/woff2", ".woff": "font/woff", ".ttf": "font/ttf", ".svg": "image/svg+xml" };
const server = http.createServer((req, res) => {
  const p = decodeURIComponent(new URL(req.url, "http://x").pathname);
  const file = p === "/" + path.basename(NOTEBOOK) ? NOTEBOOK : path.join(DIST, path.normalize(p === "/" ? "/index.html" : p));
  if (!file.startsWith(DIST + path.sep) && file !== NOTEBOOK) { res.writeHead(403).end(); return; }
  fs.readFile(file, (err, body) => {
    if (err) { res.writeHead(404).end(); return; }
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream" }).end(body);
  });
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const BASE = `http://127.0.0.1:${server.address().port}/`;

const profile = fs.mkdtempSync(path.join(os.tmpdir(), "ks-jlab-chromium-"));
let browser;
try {
  fs.mkdirSync(SHOTS, { recursive: true });
  const nb = JSON.parse(fs.readFileSync(NOTEBOOK, "utf8"));
  // A fresh profile (playwright passes it as --user-data-dir).
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, viewport: { width: 1280, height: 1000 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  const open = async (query) => {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push("pageerror: " + e.message));
    page.on("console", (m) => { if (m.type() === "error") errors.push("console: " + m.text()); });
    page.on("requestfailed", (r) => errors.push("request failed: " + r.url()));
    page.on("response", (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`); });
    await page.goto(BASE + "index.html?nb=" + path.basename(NOTEBOOK) + query);
    await page.waitForFunction(() => window.ksDone, null, { timeout: 60000 });
    await page.waitForTimeout(300);
    const done = await page.evaluate(() => window.ksDone);
    errors.push(...(await page.evaluate(() => window.ksErrors)));
    return { page, errors, done };
  };

  // ---- trusted: outputs the user produced in this session ------------------
  {
    const where = "trusted";
    const { page, errors, done } = await open("");
    const codeCells = nb.cells.map((c, i) => [c, i]).filter(([c]) => c.cell_type === "code");
    check(!done.failed && done.cells === codeCells.length, `${where}: rendered ${done.cells} code cells`, JSON.stringify(done));
    const reps = await page.evaluate(() => Array.from(document.querySelectorAll("[data-cell]")).map((a) => ({
      cell: Number(a.dataset.cell),
      mimes: Array.from(a.querySelectorAll(".jp-OutputArea-output")).map((o) => o.dataset.mime),
      reports: Array.from(a.querySelectorAll(".ks-report")).map((r) => ({
        id: r.id, init: r.dataset.ksInit === "1", summary: !!r.querySelector(".ks-summary"),
        sections: Array.from(r.querySelectorAll(":scope > details.ks-section")).map((d) => d.dataset.section),
        scoped: getComputedStyle(r).getPropertyValue("font-family") !== getComputedStyle(document.body).getPropertyValue("font-family") ||
          getComputedStyle(r).backgroundColor !== "rgba(0, 0, 0, 0)" || getComputedStyle(r).borderTopStyle !== "none",
      })),
    })));
    let reportsSeen = 0;
    for (const a of reps) {
      const cell = nb.cells[a.cell];
      const hasReport = (cell.outputs || []).some((o) => o.data && o.data["application/vnd.kernelscope.report+json"]);
      const html = (cell.outputs || []).filter((o) => o.data && o.data["text/html"]).length;
      check(a.mimes.filter((m) => m === "text/html").length === html, `${where}: cell ${a.cell}: ${html} text/html output(s) chosen by preferredMimeType`, JSON.stringify(a.mimes));
      if (!hasReport) continue;
      reportsSeen++;
      const r = a.reports[0];
      if (!check(!!r, `${where}: cell ${a.cell}: a .ks-report`)) continue;
      // Correctness comes first in every report of a launch (the checks' findings, or one
      // line saying none were found); the rest as the cell's %show/%hide leave them.
      const want = ["correctness", ...expectedSections(src(cell))];
      // "notes" is added, last, when the run left notes (render/html.go).
      const got = r.sections.filter((s) => s !== "notes");
      check(JSON.stringify(got) === JSON.stringify(want) && (!r.sections.includes("notes") || r.sections.at(-1) === "notes"),
        `${where}: cell ${a.cell}: sections ${want.join(",")}${r.sections.includes("notes") ? " (+notes)" : ""}`, `got ${r.sections.join(",")}`);
      check(r.init, `${where}: cell ${a.cell}: its <script> ran (data-ks-init set)`);
      check(r.scoped, `${where}: cell ${a.cell}: its inline <style> applies`);
    }
    const TOUR = path.basename(NOTEBOOK) === "tour.ipynb";
    const least = TOUR ? 5 : 1;
    check(reportsSeen >= least, `${where}: at least ${least} report(s)`, `${reportsSeen}`);

    // The widget: the report whose trace has the most partial-mask steps.
    const all = page.locator(".ks-report").filter({ has: page.locator(".ks-widget .ks-next") }).filter({ has: page.locator(".ks-trace-data") });
    if (!TOUR && await all.count() === 0) note(`no report shows a trace widget in ${path.basename(NOTEBOOK)}; widget checks skipped`);
    else if (check(await all.count() > 0, `${where}: a report with a trace widget`)) {
      const partial = await all.evaluateAll((els) => els.map((r) => JSON.parse(r.querySelector(".ks-trace-data").textContent).steps
        .filter((s) => (s.m >>> 0) !== 0xffffffff && s.m !== 0).length));
      const report = all.nth(partial.indexOf(Math.max(...partial)));
      await report.evaluate((r) => r.querySelectorAll("details.ks-trace, details.ks-source").forEach((d) => { d.open = true; }));
      const ptx = await report.evaluate((r) => r.querySelector(".ks-ptx") !== null);
      const steps = await report.evaluate((r, p) => JSON.parse(r.querySelector(".ks-trace-data").textContent).steps.map((s) => (p ? s.pl : s.cl)), ptx);
      const state = () => report.evaluate((r, p) => ({
        step: Number(r.querySelector("input.ks-step").value),
        cur: Array.from(r.querySelectorAll(p ? ".ks-ptx .ks-ln.ks-cur" : ".ks-cuda .ks-ln.ks-cur")).map((e) => Number(p ? e.dataset.pl : e.dataset.cl)),
        lanes: r.querySelectorAll(".ks-lanes .ks-lane").length,
      }), ptx);
      const kind = ptx ? "PTX" : "CUDA";
      const matches = (cur, want) => (want ? cur.length === 1 && cur[0] === want : cur.length === 0);
      let s = await state();
      check(steps.length > 3, `${where}: trace has more than 3 steps`, `${steps.length}`);
      check(s.step === 1 && s.lanes === 32, `${where}: widget starts at step 1 with 32 lane cells`, JSON.stringify(s));
      check(matches(s.cur, steps[0]), `${where}: step 1 highlights ${kind} line ${steps[0]}`, JSON.stringify(s.cur));
      const first = s.cur[0];
      let okSteps = true, okLines = true, moved = false;
      const clicks = Math.min(ptx ? 6 : 20, steps.length - 1);
      for (let i = 1; i <= clicks; i++) {
        await report.locator(".ks-next").click();
        s = await state();
        if (s.step !== i + 1) okSteps = false;
        if (!matches(s.cur, steps[i])) okLines = false;
        if (s.cur[0] !== first) moved = true;
      }
      check(okSteps, `${where}: .ks-next advanced input.ks-step by one, ${clicks} times`, `now ${s.step}`);
      check(okLines, `${where}: .ks-ln.ks-cur follows the trace data`, `step ${s.step}: ${JSON.stringify(s.cur)} vs ${steps[s.step - 1]}`);
      check(moved, `${where}: .ks-ln.ks-cur moved`);
      // A hint's line link opens Source and highlights that line (report.js).
      const link = report.locator("a.ks-link").first();
      if (await link.count()) {
        await report.evaluate((r) => { r.querySelector("details.ks-source").open = false; });
        await link.click();
        const l = await report.evaluate((r) => ({ open: r.querySelector("details.ks-source").open, hl: r.querySelectorAll(".ks-ln.ks-hl").length }));
        check(l.open && l.hl > 0, `${where}: a line link opens Source and highlights the line`, JSON.stringify(l));
      }
      await report.locator(".ks-prev").click();
      const b = await state();
      check(b.step === s.step - 1 && matches(b.cur, steps[b.step - 1]), `${where}: .ks-prev steps back by one`, `${s.step} -> ${b.step}`);
      // Show a step where the warp runs with part of its lanes, then shoot.
      const div = await report.evaluate((r) => JSON.parse(r.querySelector(".ks-trace-data").textContent).steps
        .findIndex((x) => (x.m >>> 0) !== 0xffffffff && x.m !== 0));
      if (div >= 0) {
        await report.locator("input.ks-step").fill(String(div + 1));
        await report.locator("input.ks-step").dispatchEvent("change");
      }
      await report.locator(".ks-widget").scrollIntoViewIfNeeded();
      await report.locator("details.ks-trace").screenshot({ path: shot("jupyterlab-widget.png") });
      // The whole report, as its output area shows it.
      const cellNo = await report.evaluate((r) => r.closest("[data-cell]").dataset.cell);
      note(`widget checked in cell ${cellNo}`);
      const area = page.locator(`[data-cell="${cellNo}"]`);
      const box = await area.boundingBox();
      await page.setViewportSize({ width: 1280, height: Math.min(8000, Math.ceil(box.height) + 100) });
      await area.screenshot({ path: shot("jupyterlab-report.png") });
    }
    check(errors.length === 0, `${where}: no JavaScript errors`, errors.slice(0, 5).join(" | "));
    await page.close();
  }

  // ---- untrusted: a notebook opened from elsewhere --------------------------
  {
    const where = "untrusted";
    const { page, errors, done } = await open("&trusted=0");
    check(!done.failed && done.outputs > 0, `${where}: rendered ${done.outputs} outputs`, JSON.stringify(done));
    const cells = await page.evaluate(() => Array.from(document.querySelectorAll("[data-cell]")).map((a) => {
      const out = a.querySelector(".jp-OutputArea-output[data-mime='text/html']");
      const rep = out && (out.querySelector(".ks-report") || null);
      return out && rep && {
        cell: Number(a.dataset.cell), mime: out.dataset.mime,
        scripts: out.querySelectorAll("script").length, styles: out.querySelectorAll("style").length,
        id: rep.id, jid: rep.getAttribute("data-jupyter-id"), init: "ksInit" in rep.dataset,
        sections: Array.from(rep.querySelectorAll(":scope > details.ks-section")).map((d) => ({ cls: d.className, ds: d.dataset.section || null, title: d.querySelector("summary")?.textContent })),
        summary: !!rep.querySelector(".ks-summary"), svgs: out.querySelectorAll("svg").length, imgs: out.querySelectorAll("img").length,
        buttons: out.querySelectorAll(".ks-next").length, inputs: Array.from(out.querySelectorAll("input.ks-step")).map((i) => i.disabled),
        text: rep.innerText.length, warning: /inline scripts/.test(out.textContent),
      };
    }).filter(Boolean));
    const r = cells[0];
    if (check(!!r, `${where}: reports rendered as sanitized text/html`)) {
      check(r.scripts === 0 && !r.init, `${where}: cell ${r.cell}: no <script> left, report.js did not run`, JSON.stringify(r));
      check(r.sections.length > 0 && r.sections.every((s) => s.title), `${where}: cell ${r.cell}: sections still there with titles (readable)`, JSON.stringify(r.sections));
      check(r.text > 500, `${where}: cell ${r.cell}: report text readable (${r.text} chars)`);
      note(`sanitizer kept: ${r.sections.length} <details> (${r.sections.map((s) => s.title).join(" | ")}); ` +
        `data-section ${r.sections.some((s) => s.ds) ? "kept" : "stripped"}; <style> ${r.styles ? "kept" : "stripped"}; ` +
        `id -> ${r.id ? "kept" : "data-jupyter-id=" + r.jid}; svg ${r.svgs}, img ${r.imgs}; .ks-next ${r.buttons}; step input disabled ${JSON.stringify(r.inputs)}; 'inline scripts' warning ${r.warning}`);
      const out = page.locator(`[data-cell="${r.cell}"]`);
      const box = await out.boundingBox();
      await page.setViewportSize({ width: 1280, height: Math.min(8000, Math.ceil(box.height) + 100) });
      await out.screenshot({ path: shot("jupyterlab-untrusted.png") });
    }
    check(errors.length === 0, `${where}: no JavaScript errors`, errors.slice(0, 5).join(" | "));
    await page.close();
  }
} catch (e) {
  check(false, "test ran to the end", e && e.stack ? e.stack : String(e));
} finally {
  if (browser) await browser.close().catch(() => {});
  await new Promise((ok) => server.close(ok));
  fs.rmSync(profile, { recursive: true, force: true });
}
console.log(`screenshots: ${shots.join(" ")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
