// The JupyterLab 3.6 application KernelScope's browser test runs: JupyterLab's
// own shell and the core extensions a notebook user has (file browser, notebook, console, file editor,
// rendermime, CodeMirror, completer, menus, status bar, light theme), bundled
// by build.mjs. Not MathJax: JupyterLab 3 loads it from a CDN, and the test
// machines are offline. The page's configuration comes from jupyterlab_server's
// LabServerApp (server.py), which also serves settings, themes and the
// Jupyter server's REST and websocket APIs the notebook talks to.
import { JupyterLab } from "@jupyterlab/application";
import "@jupyterlab/application/style/index.js";

import * as applicationExtension from "@jupyterlab/application-extension";
import * as apputilsExtension from "@jupyterlab/apputils-extension";
import * as codemirrorExtension from "@jupyterlab/codemirror-extension";
import * as completerExtension from "@jupyterlab/completer-extension";
import * as consoleExtension from "@jupyterlab/console-extension";
import * as docmanagerExtension from "@jupyterlab/docmanager-extension";
import * as filebrowserExtension from "@jupyterlab/filebrowser-extension";
import * as fileeditorExtension from "@jupyterlab/fileeditor-extension";
import * as launcherExtension from "@jupyterlab/launcher-extension";
import * as mainmenuExtension from "@jupyterlab/mainmenu-extension";
import * as notebookExtension from "@jupyterlab/notebook-extension";
import * as rendermimeExtension from "@jupyterlab/rendermime-extension";
import * as shortcutsExtension from "@jupyterlab/shortcuts-extension";
import * as statusbarExtension from "@jupyterlab/statusbar-extension";
import * as themeLightExtension from "@jupyterlab/theme-light-extension";
import * as tooltipExtension from "@jupyterlab/tooltip-extension";
import * as translationExtension from "@jupyterlab/translation-extension";
import * as uiComponentsExtension from "@jupyterlab/ui-components-extension";
import * as javascriptExtension from "@jupyterlab/javascript-extension";
import * as jsonExtension from "@jupyterlab/json-extension";

import "@jupyterlab/application-extension/style/index.js";
import "@jupyterlab/apputils-extension/style/index.js";
import "@jupyterlab/codemirror-extension/style/index.js";
import "@jupyterlab/completer-extension/style/index.js";
import "@jupyterlab/console-extension/style/index.js";
import "@jupyterlab/docmanager-extension/style/index.js";
import "@jupyterlab/filebrowser-extension/style/index.js";
import "@jupyterlab/fileeditor-extension/style/index.js";
import "@jupyterlab/launcher-extension/style/index.js";
import "@jupyterlab/mainmenu-extension/style/index.js";
import "@jupyterlab/notebook-extension/style/index.js";
import "@jupyterlab/rendermime-extension/style/index.js";
import "@jupyterlab/shortcuts-extension/style/index.js";
import "@jupyterlab/statusbar-extension/style/index.js";
import "@jupyterlab/tooltip-extension/style/index.js";
import "@jupyterlab/translation-extension/style/index.js";
import "@jupyterlab/ui-components-extension/style/index.js";
import "@jupyterlab/javascript-extension/style/index.js";
import "@jupyterlab/json-extension/style/index.js";

// An ES module namespace's default export: a plugin or a list of plugins.
const plugins = (mod) => {
  const d = mod.default;
  return Array.isArray(d) ? d : [d];
};

async function main() {
  const lab = new JupyterLab({
    mimeExtensions: [...plugins(javascriptExtension), ...plugins(jsonExtension)],
  });
  for (const mod of [
    applicationExtension, apputilsExtension, codemirrorExtension, completerExtension, consoleExtension,
    docmanagerExtension, filebrowserExtension, fileeditorExtension, launcherExtension, mainmenuExtension,
    notebookExtension, rendermimeExtension, shortcutsExtension,
    statusbarExtension, themeLightExtension, tooltipExtension, translationExtension,
    uiComponentsExtension,
  ]) {
    lab.registerPlugins(plugins(mod));
  }
  await lab.start({ ignorePlugins: [] });
  await lab.restored;
  // The browser test drives the application through JupyterLab's own commands.
  window.kernelscopeLab = lab;
  document.body.setAttribute("data-kernelscope-lab", "ready");
}

main().catch((err) => {
  document.body.setAttribute("data-kernelscope-lab", "failed");
  document.body.setAttribute("data-kernelscope-error", String(err && err.stack ? err.stack : err));
  console.error(err);
});
