// Renders the stored outputs of a notebook the way JupyterLab 4's OutputArea
// does: a RenderMimeRegistry with the standard renderer factories and the
// apputils Sanitizer, the preferred MIME type chosen with 'any' for trusted
// outputs and 'ensure' for untrusted ones, each renderer attached to the DOM
// as a Lumino widget.
// Query: ?nb=tour.ipynb (served next to this page), &trusted=0 to render
// every output untrusted (as for a notebook opened from someone else).
// When done it sets window.ksDone = {cells, outputs, errors}.
import "@jupyterlab/theme-light-extension/style/variables.css";
import "@jupyterlab/rendermime/style/index.css";
import { RenderMimeRegistry, MimeModel, standardRendererFactories } from "@jupyterlab/rendermime";
import { Sanitizer } from "@jupyterlab/apputils";
import { Widget } from "@lumino/widgets";

window.ksErrors = [];
window.addEventListener("error", (e) => window.ksErrors.push(String(e.message || e)));
window.addEventListener("unhandledrejection", (e) => window.ksErrors.push("unhandled: " + String(e.reason)));

const q = new URLSearchParams(location.search);
const nbName = q.get("nb") || "tour.ipynb";
const trusted = q.get("trusted") !== "0";
const join = (v) => (Array.isArray(v) ? v.join("") : v || "");

// The MIME bundle OutputArea renders for one nbformat output.
function bundleOf(o) {
  switch (o.output_type) {
    case "display_data":
    case "execute_result": {
      const data = {};
      for (const [k, v] of Object.entries(o.data || {})) data[k] = Array.isArray(v) && !/json$/.test(k) ? join(v) : v;
      return { data, metadata: o.metadata || {} };
    }
    case "stream":
      return { data: { [`application/vnd.jupyter.${o.name === "stderr" ? "stderr" : "stdout"}`]: join(o.text) }, metadata: {} };
    case "error":
      return { data: { "application/vnd.jupyter.stderr": (o.traceback || [`${o.ename}: ${o.evalue}`]).join("\n") }, metadata: {} };
    default:
      return null;
  }
}

async function main() {
  const sanitizer = new Sanitizer();
  const rendermime = new RenderMimeRegistry({ initialFactories: standardRendererFactories, sanitizer });
  const nb = await (await fetch(nbName)).json();
  const host = document.getElementById("notebook");
  let cells = 0, outputs = 0;
  const mimes = [];
  for (const [ci, cell] of nb.cells.entries()) {
    if (cell.cell_type !== "code") continue;
    cells++;
    const area = document.createElement("div");
    area.className = "jp-Cell jp-CodeCell jp-OutputArea";
    area.dataset.cell = String(ci);
    const prompt = document.createElement("pre");
    prompt.className = "ks-test-src";
    prompt.textContent = `[${ci}] ` + join(cell.source).split("\n")[0];
    area.appendChild(prompt);
    host.appendChild(area);
    for (const o of cell.outputs || []) {
      const b = bundleOf(o);
      if (!b) continue;
      const mime = rendermime.preferredMimeType(b.data, trusted ? "any" : "ensure");
      mimes.push(mime);
      if (!mime) continue;
      const model = new MimeModel({ data: b.data, metadata: b.metadata, trusted });
      const renderer = rendermime.createRenderer(mime);
      renderer.addClass("jp-OutputArea-output");
      renderer.node.dataset.mime = mime;
      Widget.attach(renderer, area);
      await renderer.renderModel(model);
      outputs++;
    }
  }
  document.getElementById("status").textContent = `${nbName}: ${cells} code cells, ${outputs} outputs, trusted=${trusted}`;
  window.ksDone = { cells, outputs, mimes, trusted };
}

main().catch((e) => {
  window.ksErrors.push("page: " + (e && e.stack ? e.stack : String(e)));
  window.ksDone = { failed: String(e) };
});
