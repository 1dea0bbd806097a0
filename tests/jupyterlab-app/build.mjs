// Builds the JupyterLab 3.6 application of src/index.js into build/ for
// server.py: build/bundle.{js,css} (esbuild), the light theme's CSS at
// build/themes/<package>/index.css (where JupyterLab's ThemeManager loads it),
// and each extension's settings schemas at build/schemas/<package>/ with a
// package.json.orig (jupyterlab_server reads the version from it) — the
// layout JupyterLab's own builder produces.
import * as esbuild from "esbuild";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, "build");
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

// JupyterLab's CSS imports packages webpack-style: url('~@lumino/widgets/...').
const tilde = {
  name: "tilde",
  setup(b) {
    b.onResolve({ filter: /^~/ }, (a) => b.resolve(a.path.slice(1), { kind: a.kind, resolveDir: a.resolveDir }));
  },
};
// Some of JupyterLab's stylesheets put an @import after a rule, which browsers
// ignore (webpack's css-loader hoists it): hoist @import lines the same way.
const hoistImports = {
  name: "hoist-imports",
  setup(b) {
    b.onLoad({ filter: /\.css$/ }, (a) => {
      const lines = fs.readFileSync(a.path, "utf8").split("\n");
      const imports = lines.filter((l) => l.startsWith("@import"));
      const rest = lines.filter((l) => !l.startsWith("@import"));
      return { contents: [...imports, ...rest].join("\n"), loader: "css" };
    });
  },
};
const common = {
  absWorkingDir: here,
  bundle: true,
  minify: true,
  logLevel: "warning",
  // JupyterLab 3's icons are SVG text imported as strings; fonts are files.
  loader: { ".svg": "text", ".woff": "file", ".woff2": "file", ".ttf": "file", ".eot": "file", ".png": "dataurl", ".gif": "dataurl", ".md": "text" },
  plugins: [tilde, hoistImports],
};

await esbuild.build({
  ...common,
  entryPoints: { bundle: "src/index.js" },
  outdir: out,
  format: "iife",
  platform: "browser",
  target: "es2019",
  define: { "process.env.NODE_ENV": '"production"', "process.env": "{}", global: "window" },
});

const mods = path.join(here, "node_modules", "@jupyterlab");
for (const name of fs.readdirSync(mods)) {
  const pkgFile = path.join(mods, name, "package.json");
  if (!fs.existsSync(pkgFile)) continue;
  const pkg = JSON.parse(fs.readFileSync(pkgFile, "utf8"));
  const jl = pkg.jupyterlab || {};
  if (jl.schemaDir) {
    const dst = path.join(out, "schemas", pkg.name);
    fs.mkdirSync(dst, { recursive: true });
    for (const f of fs.readdirSync(path.join(mods, name, jl.schemaDir))) {
      if (f.endsWith(".json")) fs.copyFileSync(path.join(mods, name, jl.schemaDir, f), path.join(dst, f));
    }
    fs.writeFileSync(path.join(dst, "package.json.orig"), JSON.stringify({ name: pkg.name, version: pkg.version }));
  }
  if (jl.themePath) {
    const dst = path.join(out, "themes", pkg.name);
    await esbuild.build({
      ...common,
      loader: { ...common.loader, ".svg": "dataurl" },
      entryPoints: { index: path.join(mods, name, jl.themePath) },
      outdir: dst,
    });
  }
}
// No news or update pop-ups over the notebook (the machine is offline anyway).
fs.mkdirSync(path.join(out, "application_settings"), { recursive: true });
fs.writeFileSync(path.join(out, "application_settings", "overrides.json"), JSON.stringify({
  "@jupyterlab/apputils-extension:notification": { fetchNews: "false", checkForUpdates: false },
}, null, 2));
const size = (d) => fs.readdirSync(d, { withFileTypes: true })
  .reduce((n, e) => n + (e.isDirectory() ? size(path.join(d, e.name)) : fs.statSync(path.join(d, e.name)).size), 0);
console.log(`built ${path.relative(process.cwd(), out)}: ${(size(out) / 1e6).toFixed(1)} MB`);
