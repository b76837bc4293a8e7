/**
 * The HTML report's own style and script, inline so that the file opens from disk and from a CI
 * artifact viewer with no network. The script reads no data into markup: it hides rows by their
 * data attributes, copies a block's textContent and opens the <details> a link points into,
 * nothing else (no innerHTML anywhere).
 */

export const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--card:#f6f8fa;
--pass:#1a7f37;--fail:#cf222e;--warn:#9a6700;--info:#0969da;--band:rgba(9,105,218,.06);--band2:rgba(9,105,218,.12)}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#30363d;--card:#161b22;
--pass:#3fb950;--fail:#f85149;--warn:#d29922;--info:#4493f8;--band:rgba(68,147,248,.08);--band2:rgba(68,147,248,.16)}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:72rem;padding:1rem;background:var(--bg);color:var(--fg);
font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.15rem;margin:1.6rem 0 .5rem;border-bottom:1px solid var(--line)}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em}
pre{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:.5rem;margin:.25rem 0;
white-space:pre-wrap;overflow-wrap:anywhere;max-height:24rem;overflow:auto}
.verdict{border-left:6px solid var(--fail);padding:.5rem 1rem;background:var(--card);border-radius:6px}
.verdict.passed{border-color:var(--pass)}.verdict.error,.verdict.incomplete{border-color:var(--warn)}
.muted{color:var(--muted)}
.st{font-weight:600;white-space:nowrap}.st-pass{color:var(--pass)}.st-fail{color:var(--fail)}
.st-not-exercised{color:var(--warn)}.st-skipped{color:var(--muted)}
.st-passed{color:var(--pass)}.st-failed{color:var(--fail)}.st-incomplete,.st-not-judged{color:var(--warn)}
.sev{display:inline-block;padding:0 .4em;border-radius:4px;border:1px solid currentColor;font-size:.8em}
.sev-critical,.sev-high{color:var(--fail)}.sev-medium{color:var(--warn)}.sev-low{color:var(--muted)}
.hypothesis{display:inline-block;padding:0 .4em;border-radius:4px;border:1px dashed var(--warn);color:var(--warn);font-size:.8em}
li.confirm{color:var(--muted)}ul.follows{list-style:"↳ ";padding-left:1.4rem}ul.follows>li{margin-top:.3rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .4rem;border-bottom:1px solid var(--line);
vertical-align:top;overflow-wrap:anywhere}
.table{overflow-x:auto}
th,.op{overflow-wrap:normal}.op{white-space:nowrap}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:0}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
details.finding{border:1px solid var(--line);border-radius:6px;margin:.4rem 0;padding:.3rem .6rem}
details.finding>summary{cursor:pointer;font-weight:600}
details.finding[open]>summary{margin-bottom:.4rem}
.block{margin:.4rem 0}.block-head{display:flex;gap:.5rem;align-items:center;justify-content:space-between}
button{font:inherit;font-size:.8rem;padding:.15rem .6rem;border:1px solid var(--line);border-radius:4px;
background:var(--card);color:var(--fg);cursor:pointer}
button:focus-visible,summary:focus-visible,select:focus-visible,a:focus-visible{outline:3px solid var(--info);outline-offset:2px}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;margin:.5rem 0}
select{font:inherit;padding:.15rem;background:var(--bg);color:var(--fg);border:1px solid var(--line);border-radius:4px}
a{color:var(--info)}
svg.timeline{width:100%;height:auto;display:block}
svg .lane,svg .phase,svg .window-label{fill:var(--muted);font-size:11px;font-family:system-ui,sans-serif}
svg .axis{stroke:var(--line)}svg .window{stroke:var(--info);stroke-dasharray:4 3}
svg .band-0{fill:var(--band)}svg .band-1{fill:var(--band2)}
svg .dot{stroke:none;opacity:.85}svg .l-2xx{fill:var(--pass)}svg .l-3xx{fill:var(--info)}svg .l-4xx{fill:var(--warn)}
svg .l-429{fill:#8250df}svg .l-5xx,svg .l-failure{fill:var(--fail)}
td.l-2xx{color:var(--pass)}td.l-3xx,td.l-4xx{color:var(--warn)}td.l-429{color:#8250df}td.l-5xx,td.l-failure{color:var(--fail)}
tr:target{background:var(--band2)}details.finding:target{outline:3px solid var(--info)}
svg a:focus-visible circle,svg a:hover circle{stroke:var(--fg);stroke-width:2}
details.requests>summary{cursor:pointer}
code.failing-request{display:inline-block;margin:.15rem 0;overflow-wrap:anywhere}
table.matrix tr.differs>td:first-child{border-left:4px solid var(--warn)}table.matrix td.st .muted{font-weight:400}
section.target{border-top:3px solid var(--line);margin-top:2rem}
@media (max-width:40rem){body{padding:.5rem;font-size:14px}dl.facts{grid-template-columns:1fr}dl.facts dt{margin-top:.3rem}
th.wide,td.wide{display:none}}
`;

export const SCRIPT = `
(function () {
  var ids = ["f-status", "f-kind", "f-operation"];
  function value(id) { var el = document.getElementById(id); return el ? el.value : ""; }
  function apply() {
    var status = value("f-status"), kind = value("f-kind"), op = value("f-operation"), shown = 0;
    document.querySelectorAll("[data-status]").forEach(function (el) {
      var ops = " " + (el.getAttribute("data-operations") || "") + " ";
      var show = (!status || el.getAttribute("data-status") === status) &&
        (!kind || el.getAttribute("data-kind") === kind) && (!op || ops.indexOf(" " + op + " ") >= 0);
      el.hidden = !show;
      if (show && el.tagName === "TR") shown++;
    });
    var count = document.getElementById("shown");
    if (count) count.textContent = shown + " checks shown";
  }
  ids.forEach(function (id) { var el = document.getElementById(id); if (el) el.addEventListener("change", apply); });
  apply();
  // The matrix of targets: only the checks whose targets disagree.
  var differs = document.getElementById("f-differs");
  if (differs) differs.addEventListener("change", function () {
    document.querySelectorAll("table.matrix tbody tr").forEach(function (tr) {
      tr.hidden = differs.checked && !tr.classList.contains("differs");
    });
  });
  // A link into the page (a dot of the timeline, "first finding") opens the closed <details> it
  // points into, so that the exchange it names is shown, not just scrolled to.
  function reveal(id) {
    var el = id ? document.getElementById(id) : null;
    if (!el) return;
    for (var d = el; d; d = d.parentElement) if (d.tagName === "DETAILS") d.open = true;
    el.scrollIntoView({ block: "start" });
  }
  function hashId() { try { return decodeURIComponent(location.hash.slice(1)); } catch (e) { return ""; } }
  window.addEventListener("hashchange", function () { reveal(hashId()); });
  if (location.hash) reveal(hashId());
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[href^='#']") : null;
    if (link) { reveal(decodeURIComponent(link.getAttribute("href").slice(1))); return; }
    var button = event.target.closest ? event.target.closest("button[data-copy]") : null;
    if (!button) return;
    var source = document.getElementById(button.getAttribute("data-copy"));
    if (!source) return;
    var done = function (word) { button.textContent = word; setTimeout(function () { button.textContent = "Copy"; }, 1500); };
    var select = function () {
      var range = document.createRange(); range.selectNodeContents(source);
      var sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(range);
      done(document.execCommand && document.execCommand("copy") ? "Copied" : "Selected: press Ctrl+C");
    };
    if (navigator.clipboard && navigator.clipboard.writeText)
      navigator.clipboard.writeText(source.textContent).then(function () { done("Copied"); }, select);
    else select();
  });
})();
`;
