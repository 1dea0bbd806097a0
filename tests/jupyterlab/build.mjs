// Bundles src/page.js (JupyterLab's rendermime, its CSS and the light theme's
// variables) into dist/ with esbuild; copies src/index.html beside it.
import * as esbuild from "esbuild";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, "dist");
fs.rmSync(dist, { recursive: true, force: true });
fs.mkdirSync(dist, { recursive: true });

// JupyterLab's CSS imports packages webpack-style: url('~@lumino/widgets/...').
const tilde = {
  name: "tilde",
  setup(b) {
    b.onResolve({ filter: /^~/ }, (a) => b.resolve(a.path.slice(1), { kind: a.kind, resolveDir: a.resolveDir }));
  },
};

await esbuild.build({
  absWorkingDir: here,
  entryPoints: { page: "src/page.js" },
  bundle: true,
  outdir: dist,
  format: "iife",
  platform: "browser",
  target: "es2020",
  minify: true,
  sourcemap: false,
  logLevel: "warning",
  loader: { ".svg": "dataurl", ".woff": "file", ".woff2": "file", ".ttf": "file", ".eot": "file", ".png": "dataurl", ".gif": "dataurl" },
  define: { "process.env.NODE_ENV": '"production"', global: "window" },
  plugins: [tilde],
});
fs.copyFileSync(path.join(here, "src/index.html"), path.join(dist, "index.html"));
console.log("built", fs.readdirSync(dist).map((f) => `${f} (${fs.statSync(path.join(dist, f)).size} B)`).join(", "));
