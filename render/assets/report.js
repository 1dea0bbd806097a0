(function () {
  var root = document.getElementById("__KSID__");
  if (!root || root.dataset.ksInit) return;
  root.dataset.ksInit = "1";
  function all(sel) { return Array.prototype.slice.call(root.querySelectorAll(sel)); }
  function clear() { all(".ks-ln.ks-hl").forEach(function (e) { e.classList.remove("ks-hl"); }); }
  function mark(attr, v, scroll) {
    if (!v || v === "0") return;
    all('.ks-ln[' + attr + '="' + v + '"]').forEach(function (e, i) {
      e.classList.add("ks-hl");
      var inc = scroll && e.closest("details.ks-incl"); if (inc && !inc.open) inc.open = true;
      if (scroll && !scrolled[colOf(e)]) { scrolled[colOf(e)] = true; inView(e); }
    });
  }
  var scrolled = {};
  function colOf(e) { var c = e.closest(".ks-col"); return c ? c.className : ""; }
  // inView scrolls a line's own column (only that box, never the page) so the line sits a third down.
  function inView(e) {
    var c = e.closest(".ks-col"); if (!c || !e.offsetParent) return;
    var top = e.getBoundingClientRect().top - c.getBoundingClientRect().top + c.scrollTop;
    c.scrollTop = Math.max(0, top - c.clientHeight / 3);
  }
  // Opcode documentation on hover, from the report's table of the opcodes its PTX uses.
  var docsEl = root.querySelector(".ks-opdocs"), docs = {};
  try { if (docsEl) docs = JSON.parse(docsEl.textContent); } catch (err) { docs = {}; }
  all(".ks-op").forEach(function (o) {
    var d = docs[o.getAttribute("data-op")]; if (d) o.title = o.getAttribute("data-op") + ": " + d;
  });
  all(".ks-noisetoggle").forEach(function (t) {
    t.addEventListener("change", function () { var c = t.closest(".ks-col"); if (c) c.classList.toggle("ks-shownoise", t.checked); });
  });
  function linkFrom(e, scroll) {
    clear(); scrolled = {};
    var cl = e.getAttribute("data-cl"), pl = e.getAttribute("data-pl");
    if (pl) { mark("data-pl", pl, scroll); if (cl && cl !== "0") mark("data-cl", cl, scroll); }
    else if (cl) mark("data-cl", cl, scroll);
  }
  all(".ks-ln").forEach(function (e) {
    e.addEventListener("mouseenter", function () { linkFrom(e, false); });
    e.addEventListener("click", function () { linkFrom(e, true); });
  });
  all("a.ks-link").forEach(function (a) {
    a.addEventListener("click", function (ev) {
      ev.preventDefault();
      var src = root.querySelector("details.ks-source"); if (src) src.open = true;
      linkFrom(a, true);
    });
  });
  // The trace widget.
  var dataEl = root.querySelector(".ks-trace-data");
  var view = root.querySelector(".ks-stepview");
  if (!dataEl || !view) return;
  var trace;
  try { trace = JSON.parse(dataEl.textContent); } catch (err) { view.textContent = "trace data unreadable: " + err; return; }
  var steps = trace.steps || [], cur = 0, timer = null;
  var input = root.querySelector(".ks-step");
  // A step in an included header or kept definition (s.cf): its block's line key and name.
  function srcKey(f, l) {
    var inc = all("details.ks-incl");
    for (var i = 0; i < inc.length; i++) if (inc[i].getAttribute("data-file") === f) return "s" + (i + 1) + ":" + l;
    return "0";
  }
  function srcLabel(f, l) { return f.indexOf("define:") === 0 ? "definition " + f.slice(7) + " line " + l : f + ":" + l; }
  function hex(n) { return "0x" + (n >>> 0).toString(16).padStart(8, "0"); }
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }
  var palette = ["#ef4444","#f97316","#eab308","#84cc16","#22c55e","#14b8a6","#06b6d4","#3b82f6","#6366f1","#a855f7","#ec4899","#f43f5e","#78716c","#0ea5e9","#10b981","#d946ef"];
  // The text of a source line of this report (its .ks-src), for the excerpt beside the lanes.
  function lineText(sel) { var e = root.querySelector(sel + " .ks-src"); return e ? e.textContent : ""; }
  // codeBeside is the step's CUDA line and PTX lines (one before, two after), shown next to the
  // lanes so the code of the step is always in view however far the Source section is.
  function codeBeside(s) {
    var h = ['<div class="ks-stepcode">'];
    if (s.cl && !s.cf) h.push('<div class="ks-stepcuda" data-cl="' + s.cl + '"><span class="ks-no">CUDA ' + s.cl + '</span>' + esc(lineText('.ks-cuda .ks-ln[data-cl="' + s.cl + '"]').trim()) + '</div>');
    var near = all('.ks-ptx .ks-ln[data-pl]').filter(function (e) { return !e.classList.contains("ks-noise"); });
    var at = -1;
    for (var k = 0; k < near.length; k++) if (near[k].getAttribute("data-pl") === String(s.pl)) { at = k; break; }
    if (at < 0) h.push('<div class="ks-stepptx ks-now"><span class="ks-no">PTX ' + s.pl + '</span>' + esc(s.t) + '</div>');
    for (var j = Math.max(0, at - 1); at >= 0 && j <= Math.min(near.length - 1, at + 2); j++) {
      var pl = near[j].getAttribute("data-pl");
      h.push('<div class="ks-stepptx' + (j === at ? ' ks-now' : '') + '" data-pl="' + pl + '"><span class="ks-no">' + (j === at ? '▶ ' : '') + 'PTX ' + pl + '</span>' + esc(lineText('.ks-ptx .ks-ln[data-pl="' + pl + '"]').trim()) + '</div>');
    }
    h.push('</div>');
    return h.join("");
  }
  var shown = -1;
  function show(i) {
    if (!steps.length) return;
    var prev = shown;
    cur = Math.max(0, Math.min(steps.length - 1, i));
    shown = cur;
    if (input) input.value = cur + 1;
    var s = steps[cur], h = [];
    if (prev >= 0 && prev !== cur && steps[prev].w !== s.w) h.push('<div class="ks-switch">warp switch: warp ' + steps[prev].w + ' → warp ' + s.w + (cur === prev + 1 ? ' (the scheduler issues from another warp)' : '') + '</div>');
    h.push('<div><b>warp ' + s.w + '</b> · PC ' + s.pc + ' · PTX line ' + s.pl + (s.cl ? ' · ' + (s.cf ? esc(srcLabel(s.cf, s.cl)) : 'CUDA line ' + s.cl) : '') + ' · <code>' + esc(s.t) + '</code>' + (s.ev ? ' · <b>' + esc(s.ev) + '</b>' : '') + '</div>');
    h.push(codeBeside(s));
    // Shared accesses: lanes whose bank also holds another word of this access conflict.
    var conflict = {};
    if (s.mem && s.mem.sp === "shared" && s.mem.u) {
      var words = {};
      for (var k = 0; k < 32; k++) {
        if (!((s.m >>> k) & 1) || s.mem.u[k] < 0) continue;
        var w = Math.floor(parseInt(s.mem.a[k], 16) / 4);
        (words[s.mem.u[k]] = words[s.mem.u[k]] || {})[w] = true;
      }
      for (var k2 = 0; k2 < 32; k2++) if (s.mem.u[k2] >= 0 && Object.keys(words[s.mem.u[k2]] || {}).length > 1) conflict[k2] = true;
    }
    h.push('<div class="ks-lanes">');
    for (var l = 0; l < 32; l++) {
      var on = (s.m >>> l) & 1, ex = (s.x >>> l) & 1;
      var cls = on ? "ks-lane ks-on" : (ex ? "ks-lane ks-exit" : "ks-lane");
      var style = "";
      if (s.mem && on && s.mem.u && s.mem.u[l] >= 0) style = ' style="background:' + palette[s.mem.u[l] % palette.length] + (conflict[l] ? ';outline:2px solid var(--ks-crit);outline-offset:-2px' : '') + '"';
      h.push('<div class="' + cls + '"' + style + ' title="lane ' + l + (on ? " active" : ex ? " exited" : " inactive") + (s.mem && s.mem.a ? " · " + s.mem.a[l] : "") + '">' + l + '</div>');
    }
    h.push('</div><div class="ks-legend ks-dim"><span style="background:#16a34a"></span>active<span style="background:var(--ks-line)"></span>inactive<span style="border:1px dashed var(--ks-line)"></span>exited' + (s.mem ? ' · memory lanes coloured by ' + (s.mem.sp === "shared" ? "bank (red outline: bank conflict)" : "sector") : '') + '</div>');
    if (s.mem) {
      var cache = s.mem.cached ? ' · L1: ' + (s.mem.l1h || 0) + ' sector hit(s), ' + (s.mem.l1m || 0) + ' miss(es) · L2: ' + (s.mem.l2h || 0) + ' hit(s), ' + (s.mem.l2m || 0) + ' miss(es)' : '';
      var extra = s.mem.sp === "shared" ? (s.mem.wf > s.mem.ideal ? ' <b>(' + (s.mem.wf - s.mem.ideal) + ' bank-conflict wavefront(s))</b>' : '') : (s.mem.sec > s.mem.ideal ? ' <b>(' + (s.mem.sec - s.mem.ideal) + ' extra sector(s))</b>' : '');
      h.push('<div>' + esc(s.mem.sp) + ' access of ' + s.mem.b + ' bytes per lane' + (s.mem.sp === "shared" ? ' · ' + s.mem.wf + ' wavefront(s), ideal ' + s.mem.ideal : ' · ' + s.mem.sec + ' sector(s), ideal ' + s.mem.ideal) + extra + cache + '</div>');
      h.push('<table class="ks-table ks-lanetab"><tr><th>lane</th>');
      for (var a = 0; a < 32; a++) h.push('<th>' + a + '</th>');
      h.push('</tr><tr><td>' + (s.mem.sp === "shared" ? "bank" : "sector") + '</td>');
      for (var b = 0; b < 32; b++) h.push('<td>' + (s.mem.u && s.mem.u[b] >= 0 ? s.mem.u[b] : "") + '</td>');
      h.push('</tr></table>');
    }
    if (s.wr && s.wr.length) {
      h.push('<table class="ks-table ks-lanetab"><tr><th>register</th>');
      for (var c = 0; c < 32; c++) h.push('<th>' + c + '</th>');
      h.push('</tr>');
      s.wr.forEach(function (w) {
        h.push('<tr><td>' + esc(w.r) + '</td>');
        for (var d = 0; d < 32; d++) h.push('<td>' + (((s.m >>> d) & 1) ? esc(w.v[d]) : "") + '</td>');
        h.push('</tr>');
      });
      h.push('</table>');
    }
    if (s.st && s.st.length) {
      h.push('<div>SIMT stack (top first):</div><table class="ks-table"><tr><th>lanes</th><th>next at</th><th>reconverge at</th></tr>' +
        s.st.slice().reverse().map(function (e) {
          return '<tr><td><code>' + hex(e.m) + '</code></td><td>PTX line ' + e.pl + '</td><td>' + (e.r < 0 ? "exit" : "PTX line " + e.l) + '</td></tr>';
        }).join("") + '</table>');
    }
    view.innerHTML = h.join("");
    clear();
    var src = root.querySelector("details.ks-source");
    all('.ks-ln.ks-cur').forEach(function (e) { e.classList.remove("ks-cur"); });
    all('.ks-ln[data-pl="' + s.pl + '"]').forEach(function (e) { e.classList.add("ks-cur"); if (src && src.open) inView(e); });
    if (s.cl) all('.ks-cuda .ks-ln[data-cl="' + (s.cf ? srcKey(s.cf, s.cl) : s.cl) + '"]').forEach(function (e) { e.classList.add("ks-cur"); if (src && src.open) inView(e); });
  }
  // A clicked source line: the widget offers to jump to the next step at it.
  var atline = q(".ks-atline");
  function offer(e) {
    if (!atline) return;
    var pl = e.getAttribute("data-pl"), cl = e.getAttribute("data-cl");
    atline.disabled = false;
    atline.textContent = "next step at " + (pl ? "PTX line " + pl : "CUDA line " + cl);
    atline.onclick = function () {
      for (var d = 1; d <= steps.length; d++) {
        var k = (cur + d) % steps.length, st = steps[k];
        if (pl ? String(st.pl) === pl : (!st.cf && String(st.cl) === cl)) { show(k); atline.setCustomValidity && atline.setCustomValidity(""); return; }
      }
      atline.textContent = "no recorded step at " + (pl ? "PTX line " + pl : "CUDA line " + cl);
    };
  }
  all(".ks-ln").forEach(function (e) { e.addEventListener("click", function () { offer(e); }); });
  function q(c) { return root.querySelector(c); }
  function play() {
    if (timer) { clearInterval(timer); timer = null; q(".ks-play").textContent = "play"; return; }
    q(".ks-play").textContent = "pause";
    timer = setInterval(function () { if (cur >= steps.length - 1) { play(); return; } show(cur + 1); }, 350);
  }
  q(".ks-first").addEventListener("click", function () { show(0); });
  q(".ks-prev").addEventListener("click", function () { show(cur - 1); });
  q(".ks-next").addEventListener("click", function () { show(cur + 1); });
  q(".ks-last").addEventListener("click", function () { show(steps.length - 1); });
  q(".ks-play").addEventListener("click", play);
  if (input) input.addEventListener("change", function () { show(parseInt(input.value, 10) - 1); });
  // Jump to the next step (after the current one, wrapping) that executes a PTX line.
  var goline = q(".ks-goline");
  function gotoLine(line) {
    for (var d = 1; d <= steps.length; d++) {
      var i = (cur + d) % steps.length;
      if (steps[i].pl === line) { show(i); return true; }
    }
    return false;
  }
  if (goline) goline.addEventListener("change", function () {
    if (!gotoLine(parseInt(goline.value, 10))) goline.setCustomValidity("no recorded step executes this line");
    else goline.setCustomValidity("");
    goline.reportValidity();
  });
  // Correctness findings: "go to access" shows the first recorded step of the access.
  all("a.ks-step-link").forEach(function (a) {
    var i = parseInt(a.getAttribute("data-step"), 10);
    if (!(i >= 0 && i < steps.length)) return;
    a.addEventListener("click", function (ev) {
      ev.preventDefault();
      var sec = q("details.ks-trace"); if (sec) sec.open = true;
      show(i);
      var wd = q(".ks-widget"); if (wd && wd.scrollIntoView) wd.scrollIntoView({ block: "nearest" });
    });
  });
  var widget = q(".ks-widget");
  widget.tabIndex = 0;
  widget.addEventListener("keydown", function (ev) {
    if (ev.target === input || ev.target === goline) return;
    if (ev.key === "ArrowRight") { show(cur + 1); ev.preventDefault(); }
    else if (ev.key === "ArrowLeft") { show(cur - 1); ev.preventDefault(); }
    else if (ev.key === "Home") { show(0); ev.preventDefault(); }
    else if (ev.key === "End") { show(steps.length - 1); ev.preventDefault(); }
    else if (ev.key === " ") { play(); ev.preventDefault(); }
  });
  show(0);
})();
